#include "tests/oracle/lane_masks.hpp"

#include <algorithm>
#include <string>

#include "sim/support/errors.hpp"

namespace warpdiv::sim {

bool condition_holds(Condition condition, const LaunchConfig& c, std::int64_t bx, std::int64_t by,
                     std::int64_t p, int tx, int ty) {
  const std::int64_t T = c.tile;
  const std::int64_t row = by * T + ty;
  const std::int64_t col = bx * T + tx;
  switch (condition) {
    case Condition::load_M:
      return row < c.rows && p * T + tx < c.inner;
    case Condition::load_N:
      return p * T + ty < c.inner && col < c.cols;
    case Condition::compute:
    case Condition::store:
      return row < c.rows && col < c.cols;
  }
  return false;
}

int lanes_below(std::int64_t size, std::int64_t start, int tile) {
  return static_cast<int>(std::clamp<std::int64_t>(size - start, 0, tile));
}

WarpLaneTable::WarpLaneTable(const Geometry& g)
    : config_(g.config), tile_(g.config.tile), warps_(g.warps_per_block) {
  const int T = tile_;
  const int S = g.config.warp_size;
  existing_.assign(warps_, 0);
  tx_below_.assign(static_cast<std::size_t>(warps_) * (T + 1), 0);
  ty_below_.assign(static_cast<std::size_t>(warps_) * (T + 1), 0);
  // First mark each lane at a = tx + 1 (the smallest bound it passes), then OR prefixes over a:
  // lane passes "tx < a" for every a > tx. Linear in T*T rather than T*T*(T+1), which keeps the
  // exact engine's per-launch cost in microseconds.
  for (int thread = 0; thread < g.threads_per_block; ++thread) {
    const int warp = thread / S;
    const LaneMask bit = LaneMask{1} << (thread % S);
    const int tx = thread % T;  // linear order ty*T + tx
    const int ty = thread / T;
    existing_[warp] |= bit;
    tx_below_[warp * (T + 1) + tx + 1] |= bit;
    ty_below_[warp * (T + 1) + ty + 1] |= bit;
  }
  for (int warp = 0; warp < warps_; ++warp) {
    for (int a = 1; a <= T; ++a) {
      tx_below_[warp * (T + 1) + a] |= tx_below_[warp * (T + 1) + a - 1];
      ty_below_[warp * (T + 1) + a] |= ty_below_[warp * (T + 1) + a - 1];
    }
  }
}

LaneMask WarpLaneTable::condition_mask(Condition condition, std::int64_t bx, std::int64_t by, std::int64_t p,
                                       int warp) const {
  const int T = tile_;
  const int rows_in = lanes_below(config_.rows, by * T, T);   // ty passing Row < J
  const int cols_in = lanes_below(config_.cols, bx * T, T);   // tx passing Col < L
  const int inner_in = lanes_below(config_.inner, p * T, T);  // t passing p*T + t < K
  switch (condition) {
    case Condition::load_M:
      return tx_below(warp, inner_in) & ty_below(warp, rows_in);
    case Condition::load_N:
      return tx_below(warp, cols_in) & ty_below(warp, inner_in);
    case Condition::compute:
    case Condition::store:
      return tx_below(warp, cols_in) & ty_below(warp, rows_in);
  }
  return 0;
}

WarpPhaseMap warp_phase_map(const Geometry& g, const WarpLaneTable& lanes, Condition condition,
                            const RepresentativeBlock& block, const std::vector<PhaseColumn>& columns) {
  WarpPhaseMap map;
  map.condition = condition;
  map.block = block;
  map.warps = g.warps_per_block;
  if (condition == Condition::store) {
    map.columns = {PhaseColumn{0, 0, true}};
  } else {
    map.columns = columns;
  }
  map.outcomes.reserve(static_cast<std::size_t>(map.warps) * map.columns.size());
  for (int w = 0; w < map.warps; ++w) {
    for (const PhaseColumn& column : map.columns) {
      if (column.first < 0 || column.last < column.first || column.last >= g.phases)
        throw InvalidInput(Diag::flag_value, "phase column " + std::to_string(column.first) + ".." +
                                                 std::to_string(column.last) + " is outside the " +
                                                 std::to_string(g.phases) + " phases");
      const LaneMask first = lanes.condition_mask(condition, block.bx, block.by, column.first, w);
      // A column stands for all of its phases; only the last phase of the loop differs from the
      // others, so comparing the column's ends catches a column that mixes the two.
      if (lanes.condition_mask(condition, block.bx, block.by, column.last, w) != first)
        throw InvalidInput(Diag::flag_value, "phase column " + std::to_string(column.first) + ".." +
                                                 std::to_string(column.last) +
                                                 " mixes phases with different outcomes");
      map.outcomes.push_back(classify_warp(first, lanes.existing(w)));
    }
  }
  return map;
}

}  // namespace warpdiv::sim
