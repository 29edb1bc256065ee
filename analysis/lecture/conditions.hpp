// The lecture table's four boundary checks and its block classes (the rows and columns of the
// 20-row table), and lane masks of a warp. (The checks' per-lane definitions, the hand-written
// model, are a test oracle now: tests/oracle/lane_masks.hpp.)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/lecture/launch.hpp"

namespace warpdiv::lecture {

/// The boundary checks of the tiled kernel (Row = by*T + ty, Col = bx*T + tx):
///   load_M : Row < J && p*T + tx < K
///   load_N : p*T + ty < K && Col < L
///   compute: Row < J && Col < L   (guards the inner product, every phase)
///   store  : Row < J && Col < L   (guards the write of P, once per warp after the loop)
enum class Condition { load_M, load_N, compute, store };
constexpr int kConditionCount = 4;
constexpr std::array<Condition, kConditionCount> kConditions = {Condition::load_M, Condition::load_N,
                                                                Condition::compute, Condition::store};

/// interior, right_edge (last block-column only), bottom_edge (last block-row only), corner, and
/// all (their sum).
enum class BlockClass { interior, right_edge, bottom_edge, corner, all };
constexpr int kBlockClassCount = 5;
constexpr std::array<BlockClass, kBlockClassCount> kBlockClasses = {
    BlockClass::interior, BlockClass::right_edge, BlockClass::bottom_edge, BlockClass::corner,
    BlockClass::all};
/// The four disjoint classes (without `all`).
constexpr std::array<BlockClass, 4> kDisjointBlockClasses = {BlockClass::interior, BlockClass::right_edge,
                                                             BlockClass::bottom_edge, BlockClass::corner};

std::string name(Condition condition);
std::string name(BlockClass block_class);
/// Inverse of name(); throws InvalidInput for an unknown name.
Condition condition_from_name(const std::string& text);
BlockClass block_class_from_name(const std::string& text);

/// The class of block (bx, by): last block-column and/or last block-row.
BlockClass classify_block(const Geometry& geometry, std::int64_t bx, std::int64_t by);

/// Bit i set = lane i of the warp. 64 bits hold the largest warp size.
using LaneMask = std::uint64_t;

/// A warp is divergent for a condition when its existing lanes disagree.
inline bool is_divergent(LaneMask passing, LaneMask existing) { return passing != 0 && passing != existing; }

}  // namespace warpdiv::lecture
