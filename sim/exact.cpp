#include "sim/exact.hpp"

#include <array>
#include <cstdint>

#include "sim/conditions.hpp"
#include "sim/count.hpp"

namespace warpdiv::sim {

namespace {

// One representative index of a class of block-columns, block-rows or phases, and how many
// members the class has. "Not last" is empty when the grid (or the phase loop) has one entry.
struct Representative {
  std::int64_t index = 0;
  std::int64_t members = 0;
};

// [0] = every index but the last (represented by 0), [1] = the last one.
std::array<Representative, 2> split_last(std::int64_t extent) {
  return {Representative{0, extent - 1}, Representative{extent - 1, 1}};
}

// Divergent warps of one representative block in one representative phase, per condition
// load_M, load_N, compute (the phase-loop checks).
struct PhaseCounts {
  std::uint64_t load_m = 0, load_n = 0, compute = 0;
};

}  // namespace

DivergenceResult exact(const LaunchConfig& config) {
  const Geometry g(config);  // validates
  const WarpLaneTable lanes(g);
  const int T = config.tile;
  const int warps = g.warps_per_block;
  const auto columns = split_last(g.grid_x);
  const auto rows = split_last(g.grid_y);
  const auto phases = split_last(g.phases);

  DivergenceResult result;
  result.config = config;
  for (int last_row = 0; last_row < 2; ++last_row) {
    for (int last_col = 0; last_col < 2; ++last_col) {
      const Representative& row = rows[last_row];
      const Representative& col = columns[last_col];
      const Count blocks = checked_mul(static_cast<Count>(row.members), col.members);
      if (blocks == 0) continue;  // a one-block-wide grid has no "not last" class
      // The class of the representative is the class of every member.
      const BlockClass block_class = classify_block(g, col.index, row.index);
      const int rows_in = lanes_below(config.rows, row.index * T, T);  // ty passing Row < J
      const int cols_in = lanes_below(config.cols, col.index * T, T);  // tx passing Col < L

      // Divergent warp-phases of one block, summed over both phase classes (each weighted by its
      // number of phases), and the once-per-warp store.
      Count divergent_load_m = 0, divergent_load_n = 0, divergent_compute = 0;
      for (const Representative& phase : phases) {
        if (phase.members == 0) continue;  // a one-phase loop has no "not last" phase
        const int inner_in = lanes_below(config.inner, phase.index * T, T);  // p*T + t < K
        PhaseCounts per_phase;
        for (int w = 0; w < warps; ++w) {
          const LaneMask existing = lanes.existing(w);
          const LaneMask rows_mask = lanes.ty_below(w, rows_in);
          const LaneMask cols_mask = lanes.tx_below(w, cols_in);
          per_phase.load_m += is_divergent(lanes.tx_below(w, inner_in) & rows_mask, existing);
          per_phase.load_n += is_divergent(lanes.ty_below(w, inner_in) & cols_mask, existing);
          per_phase.compute += is_divergent(cols_mask & rows_mask, existing);
        }
        divergent_load_m = checked_add(divergent_load_m, checked_mul(per_phase.load_m, phase.members));
        divergent_load_n = checked_add(divergent_load_n, checked_mul(per_phase.load_n, phase.members));
        divergent_compute =
            checked_add(divergent_compute, checked_mul(per_phase.compute, phase.members));
      }
      std::uint64_t divergent_store = 0;
      bool barrier_hazard = false;
      for (int w = 0; w < warps; ++w) {
        const LaneMask existing = lanes.existing(w);
        const LaneMask store = lanes.tx_below(w, cols_in) & lanes.ty_below(w, rows_in);
        divergent_store += is_divergent(store, existing);
        if (store != existing) barrier_hazard = true;
      }

      const Count block_warps = checked_mul(blocks, static_cast<Count>(warps));
      const Count block_warp_phases = checked_mul(block_warps, static_cast<Count>(g.phases));
      const auto fill = [&](Condition c, Count warp_phases, Count divergent_per_block) {
        ClassCounts& cell = result.at(c, block_class);
        cell.blocks = blocks;
        cell.warps = block_warps;
        cell.warp_phases = warp_phases;
        cell.divergent_warp_phases = checked_mul(divergent_per_block, blocks);
      };
      fill(Condition::load_M, block_warp_phases, divergent_load_m);
      fill(Condition::load_N, block_warp_phases, divergent_load_n);
      fill(Condition::compute, block_warp_phases, divergent_compute);
      fill(Condition::store, block_warps, divergent_store);  // once per warp
      if (barrier_hazard)
        result.barrier_hazard_blocks = checked_add(result.barrier_hazard_blocks, blocks);
    }
  }
  result.sum_all_classes();
  return result;
}

}  // namespace warpdiv::sim
