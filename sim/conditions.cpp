#include "sim/conditions.hpp"

#include <algorithm>

#include "sim/errors.hpp"

namespace warpdiv::sim {

std::string name(Condition condition) {
  switch (condition) {
    case Condition::load_M: return "load_M";
    case Condition::load_N: return "load_N";
    case Condition::compute: return "compute";
    case Condition::store: return "store";
  }
  return "?";
}

std::string name(BlockClass block_class) {
  switch (block_class) {
    case BlockClass::interior: return "interior";
    case BlockClass::right_edge: return "right_edge";
    case BlockClass::bottom_edge: return "bottom_edge";
    case BlockClass::corner: return "corner";
    case BlockClass::all: return "all";
  }
  return "?";
}

Condition condition_from_name(const std::string& text) {
  for (Condition c : kConditions)
    if (name(c) == text) return c;
  throw InvalidInput("unknown condition '" + text + "' (allowed: load_M, load_N, compute, store)");
}

BlockClass block_class_from_name(const std::string& text) {
  for (BlockClass c : kBlockClasses)
    if (name(c) == text) return c;
  throw InvalidInput("unknown block class '" + text +
                     "' (allowed: interior, right_edge, bottom_edge, corner, all)");
}

BlockClass classify_block(const Geometry& geometry, std::int64_t bx, std::int64_t by) {
  const bool right = bx == geometry.grid_x - 1;
  const bool bottom = by == geometry.grid_y - 1;
  if (right && bottom) return BlockClass::corner;
  if (right) return BlockClass::right_edge;
  if (bottom) return BlockClass::bottom_edge;
  return BlockClass::interior;
}

bool condition_holds(Condition condition, const LaunchConfig& c, std::int64_t bx, std::int64_t by,
                     std::int64_t p, int tx, int ty) {
  const std::int64_t T = c.tile;
  const std::int64_t row = by * T + ty;
  const std::int64_t col = bx * T + tx;
  switch (condition) {
    case Condition::load_M: return row < c.rows && p * T + tx < c.inner;
    case Condition::load_N: return p * T + ty < c.inner && col < c.cols;
    case Condition::compute:
    case Condition::store: return row < c.rows && col < c.cols;
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

LaneMask WarpLaneTable::condition_mask(Condition condition, std::int64_t bx, std::int64_t by,
                                       std::int64_t p, int warp) const {
  const int T = tile_;
  const int rows_in = lanes_below(config_.rows, by * T, T);   // ty passing Row < J
  const int cols_in = lanes_below(config_.cols, bx * T, T);   // tx passing Col < L
  const int inner_in = lanes_below(config_.inner, p * T, T);  // t passing p*T + t < K
  switch (condition) {
    case Condition::load_M: return tx_below(warp, inner_in) & ty_below(warp, rows_in);
    case Condition::load_N: return tx_below(warp, cols_in) & ty_below(warp, inner_in);
    case Condition::compute:
    case Condition::store: return tx_below(warp, cols_in) & ty_below(warp, rows_in);
  }
  return 0;
}

}  // namespace warpdiv::sim
