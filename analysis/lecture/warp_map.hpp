// What one warp of one block does in each phase: uniform-true, uniform-false or divergent. The
// pictures of the lecture (Type 1 and Type 2 blocks) are these maps; the HTML report draws them.
//
// Every block of a class has the same lane masks (interior blocks have all rows and columns in
// range; right_edge blocks all share the last block-column's width, and so on), so one
// representative block per class describes the whole class. Every phase before the last has
// p*T + t < K for all t < T, so those phases share one outcome per warp; only the last phase
// differs. That keeps the maps small at any size.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/lecture/conditions.hpp"
#include "analysis/lecture/launch.hpp"

namespace warpdiv::lecture {

/// How the existing lanes of one warp evaluate a condition in one phase.
enum class WarpOutcome : std::uint8_t { uniform_true, uniform_false, divergent };

WarpOutcome classify_warp(LaneMask passing, LaneMask existing);

/// The threads of one warp: lanes first .. last in the block's linear order ty*T + tx.
struct WarpLayout {
  int warp = 0;
  int lanes = 0;     // existing lanes (S, or fewer in a partial last warp)
  int first_tx = 0;  // thread of lane 0
  int first_ty = 0;
  int last_tx = 0;  // thread of the last existing lane
  int last_ty = 0;
};
bool operator==(const WarpLayout& a, const WarpLayout& b);

/// One entry per warp of a block.
std::vector<WarpLayout> warp_layouts(const Geometry& geometry);

/// A column of a warp x phase map: phases first .. last (inclusive) have the same outcome for every
/// warp. `once_per_warp` marks the store's single column (after the tile loop).
struct PhaseColumn {
  std::int64_t first = 0;
  std::int64_t last = 0;
  bool once_per_warp = false;
  std::int64_t phases() const { return last - first + 1; }
};
bool operator==(const PhaseColumn& a, const PhaseColumn& b);

/// The columns to draw: every phase when there are at most `max_columns` (>= 2) phases, otherwise
/// two: phases 0 .. P-2 and the last phase P-1.
std::vector<PhaseColumn> phase_columns(const Geometry& geometry, std::int64_t max_columns);

/// One block standing for every block of its class.
struct RepresentativeBlock {
  BlockClass block_class = BlockClass::interior;
  std::int64_t bx = 0;
  std::int64_t by = 0;
};

/// The classes that have at least one block, in the order interior, right_edge, bottom_edge, corner,
/// each with one of its blocks (the one nearest the origin).
std::vector<RepresentativeBlock> representative_blocks(const Geometry& geometry);

/// Outcomes of one condition for every warp of a representative block and every column.
struct WarpPhaseMap {
  Condition condition = Condition::load_M;
  RepresentativeBlock block;
  std::vector<PhaseColumn> columns;
  int warps = 0;
  std::vector<WarpOutcome> outcomes;  // warps x columns, warp-major

  WarpOutcome at(int warp, std::size_t column) const {
    return outcomes[static_cast<std::size_t>(warp) * columns.size() + column];
  }
};

}  // namespace warpdiv::lecture
