// The tiled kernel's four boundary checks, its block classes, and lane masks of a warp.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/launch.hpp"

namespace warpdiv::sim {

/// The boundary checks of the tiled kernel (Row = by*T + ty, Col = bx*T + tx):
///   load_M : Row < J && p*T + tx < K
///   load_N : p*T + ty < K && Col < L
///   compute: Row < J && Col < L   (guards the inner product, every phase)
///   store  : Row < J && Col < L   (guards the write of P, once per warp after the loop)
enum class Condition { load_M, load_N, compute, store };
constexpr int kConditionCount = 4;
constexpr std::array<Condition, kConditionCount> kConditions = {
    Condition::load_M, Condition::load_N, Condition::compute, Condition::store};

/// interior, right_edge (last block-column only), bottom_edge (last block-row only), corner, and
/// all (their sum).
enum class BlockClass { interior, right_edge, bottom_edge, corner, all };
constexpr int kBlockClassCount = 5;
constexpr std::array<BlockClass, kBlockClassCount> kBlockClasses = {
    BlockClass::interior, BlockClass::right_edge, BlockClass::bottom_edge, BlockClass::corner,
    BlockClass::all};
/// The four disjoint classes (without `all`).
constexpr std::array<BlockClass, 4> kDisjointBlockClasses = {
    BlockClass::interior, BlockClass::right_edge, BlockClass::bottom_edge, BlockClass::corner};

std::string name(Condition condition);
std::string name(BlockClass block_class);
/// Inverse of name(); throws InvalidInput for an unknown name.
Condition condition_from_name(const std::string& text);
BlockClass block_class_from_name(const std::string& text);

/// The class of block (bx, by): last block-column and/or last block-row.
BlockClass classify_block(const Geometry& geometry, std::int64_t bx, std::int64_t by);

/// True when thread (tx, ty) of block (bx, by) passes `condition` in phase p (per-lane definition).
bool condition_holds(Condition condition, const LaunchConfig& config, std::int64_t bx,
                     std::int64_t by, std::int64_t p, int tx, int ty);

/// Bit i set = lane i of the warp. 64 bits hold the largest warp size.
using LaneMask = std::uint64_t;

/// How many of tx (or ty) in 0..T-1 pass a bound "start + t < size": clamp(size - start, 0, T).
int lanes_below(std::int64_t size, std::int64_t start, int tile);

/// Per-warp lane masks of one block shape, built lane by lane from the linear order ty*T + tx.
/// Every condition is "tx < a && ty < b" for some a, b in 0..T, so its mask for warp w is
/// tx_below(w, a) & ty_below(w, b).
class WarpLaneTable {
 public:
  explicit WarpLaneTable(const Geometry& geometry);

  int warps() const { return warps_; }
  /// Lanes that exist in warp w (all S, or fewer in a partial last warp).
  LaneMask existing(int warp) const { return existing_[warp]; }
  /// Existing lanes of warp w whose tx < a (a in 0..T).
  LaneMask tx_below(int warp, int a) const { return tx_below_[warp * (tile_ + 1) + a]; }
  /// Existing lanes of warp w whose ty < b (b in 0..T).
  LaneMask ty_below(int warp, int b) const { return ty_below_[warp * (tile_ + 1) + b]; }

  /// Mask of the lanes of warp w passing `condition` in block (bx, by), phase p.
  LaneMask condition_mask(Condition condition, std::int64_t bx, std::int64_t by, std::int64_t p,
                          int warp) const;

 private:
  LaunchConfig config_;
  int tile_;
  int warps_;
  std::vector<LaneMask> existing_;
  std::vector<LaneMask> tx_below_;
  std::vector<LaneMask> ty_below_;
};

/// A warp is divergent for a condition when its existing lanes disagree.
inline bool is_divergent(LaneMask passing, LaneMask existing) {
  return passing != 0 && passing != existing;
}

}  // namespace warpdiv::sim
