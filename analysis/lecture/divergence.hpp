// The outcome of an engine: per condition and block class, how many warp-phases diverge.
#pragma once

#include <array>

#include "analysis/lecture/conditions.hpp"
#include "sim/support/count.hpp"
#include "analysis/lecture/launch.hpp"

namespace warpdiv::lecture {

struct ClassCounts {
  Count blocks = 0;
  Count warps = 0;
  Count warp_phases = 0;  // for `store`, each warp once
  Count divergent_warp_phases = 0;
};
bool operator==(const ClassCounts& a, const ClassCounts& b);

struct DivergenceResult {
  LaunchConfig config;
  /// [condition][block class]; the `all` column is the sum of the other four.
  std::array<std::array<ClassCounts, kBlockClassCount>, kConditionCount> table{};
  /// Blocks in which the compute guard is false for some threads, so a __syncthreads() inside it
  /// (as in the lecture's guarded inner product) is reached by only part of the block.
  Count barrier_hazard_blocks = 0;

  ClassCounts& at(Condition condition, BlockClass block_class) {
    return table[static_cast<int>(condition)][static_cast<int>(block_class)];
  }
  const ClassCounts& at(Condition condition, BlockClass block_class) const {
    return table[static_cast<int>(condition)][static_cast<int>(block_class)];
  }
  /// Recomputes the `all` column from the four disjoint classes.
  void sum_all_classes();
  /// divergent / warp-phases for one cell, 0 when there are none.
  double divergent_fraction(Condition condition, BlockClass block_class) const;
};
bool operator==(const DivergenceResult& a, const DivergenceResult& b);

}  // namespace warpdiv::lecture
