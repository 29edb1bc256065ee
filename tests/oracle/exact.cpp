#include "tests/oracle/exact.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "tests/oracle/lane_masks.hpp"
#include "analysis/lecture/conditions.hpp"
#include "sim/support/count.hpp"

namespace warpdiv::sim {

namespace {

// The two classes of block-columns, block-rows or phases: [0] every index but the last
// (represented by index 0), [1] the last one. "Not last" has no members when the extent is 1.
struct Representative {
  std::int64_t index = 0;
  std::int64_t members = 0;
};
std::array<Representative, 2> split_last(std::int64_t extent) {
  return {Representative{0, extent - 1}, Representative{extent - 1, 1}};
}

// Divergent warps of one representative block: per phase class for the phase-loop checks, and
// once for the store.
struct BlockTally {
  std::array<std::uint64_t, 2> load_m{}, load_n{}, compute{};  // [phase class]
  std::uint64_t store = 0;
  bool barrier_hazard = false;  // some thread of the block fails the compute guard
};

}  // namespace

DivergenceResult exact(const LaunchConfig& config) {
  const Geometry g(config);  // validates
  const int T = config.tile;
  const int S = config.warp_size;
  const auto columns = split_last(g.grid_x);
  const auto rows = split_last(g.grid_y);
  const auto phases = split_last(g.phases);

  // How many tx (or ty) of a representative pass each bound: Col < L, Row < J, p*T + t < K.
  std::array<int, 2> cols_in{}, rows_in{}, inner_in{};
  for (int i = 0; i < 2; ++i) {
    cols_in[i] = lanes_below(config.cols, columns[i].index * T, T);
    rows_in[i] = lanes_below(config.rows, rows[i].index * T, T);
    inner_in[i] = lanes_below(config.inner, phases[i].index * T, T);
  }

  // Walk every warp of a block once, lane by lane in the linear order ty*T + tx, building its
  // masks for the handful of bounds above; then classify it in each representative block and
  // phase. No table: a block of 1024 one-lane warps costs 1024 small loops, not 1024 x 33 masks.
  std::array<std::array<BlockTally, 2>, 2> tally{};  // [last row][last column]
  for (int w = 0; w < g.warps_per_block; ++w) {
    LaneMask existing = 0;
    std::array<LaneMask, 2> col{}, row{}, inner_tx{}, inner_ty{};  // [class]
    const int first = w * S;
    const int end = std::min(first + S, g.threads_per_block);
    for (int thread = first; thread < end; ++thread) {
      const LaneMask bit = LaneMask{1} << (thread - first);
      const int tx = thread % T;
      const int ty = thread / T;
      existing |= bit;
      for (int i = 0; i < 2; ++i) {
        if (tx < cols_in[i]) col[i] |= bit;
        if (ty < rows_in[i]) row[i] |= bit;
        if (tx < inner_in[i]) inner_tx[i] |= bit;
        if (ty < inner_in[i]) inner_ty[i] |= bit;
      }
    }
    for (int r = 0; r < 2; ++r) {
      for (int c = 0; c < 2; ++c) {
        BlockTally& t = tally[r][c];
        const LaneMask guard = col[c] & row[r];  // Row < J && Col < L
        t.store += is_divergent(guard, existing);
        t.barrier_hazard = t.barrier_hazard || guard != existing;
        for (int p = 0; p < 2; ++p) {
          t.load_m[p] += is_divergent(inner_tx[p] & row[r], existing);
          t.load_n[p] += is_divergent(inner_ty[p] & col[c], existing);
          t.compute[p] += is_divergent(guard, existing);
        }
      }
    }
  }

  DivergenceResult result;
  result.config = config;
  // Divergent warp-phases of one block: each phase class weighted by its number of phases.
  const auto per_block = [&](const std::array<std::uint64_t, 2>& by_phase) {
    Count total = 0;
    for (int p = 0; p < 2; ++p)
      total = checked_add(total, checked_mul(by_phase[p], static_cast<Count>(phases[p].members)));
    return total;
  };
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 2; ++c) {
      const Count blocks = checked_mul(static_cast<Count>(rows[r].members), columns[c].members);
      if (blocks == 0) continue;  // a one-block-wide grid has no "not last" class
      // The class of the representative is the class of every member.
      const BlockClass block_class = classify_block(g, columns[c].index, rows[r].index);
      const BlockTally& t = tally[r][c];
      const Count warps = checked_mul(blocks, static_cast<Count>(g.warps_per_block));
      const Count warp_phases = checked_mul(warps, static_cast<Count>(g.phases));
      const auto fill = [&](Condition condition, Count phases_of_cell, Count divergent_per_block) {
        ClassCounts& cell = result.at(condition, block_class);
        cell.blocks = blocks;
        cell.warps = warps;
        cell.warp_phases = phases_of_cell;
        cell.divergent_warp_phases = checked_mul(divergent_per_block, blocks);
      };
      fill(Condition::load_M, warp_phases, per_block(t.load_m));
      fill(Condition::load_N, warp_phases, per_block(t.load_n));
      fill(Condition::compute, warp_phases, per_block(t.compute));
      fill(Condition::store, warps, t.store);  // once per warp
      if (t.barrier_hazard) result.barrier_hazard_blocks = checked_add(result.barrier_hazard_blocks, blocks);
    }
  }
  result.sum_all_classes();
  return result;
}

}  // namespace warpdiv::sim
