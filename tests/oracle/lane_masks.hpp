// The hand-written lecture model's per-lane definitions of the four checks, the warp lane tables
// built from them, and the warp x phase maps they give: the oracle the general engines' lecture
// counts, records and maps (analysis/lecture/lecture_source.hpp) are tested against. It is not the
// tool's model; see tests/oracle/CMakeLists.txt.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/lecture/conditions.hpp"
#include "analysis/lecture/launch.hpp"
#include "analysis/lecture/warp_map.hpp"

namespace warpdiv::sim {

// The lecture's schema (its launch, checks, block classes and table), which this oracle checks.
using namespace ::warpdiv::lecture;

/// True when thread (tx, ty) of block (bx, by) passes `condition` in phase p (per-lane definition).
bool condition_holds(Condition condition, const LaunchConfig& config, std::int64_t bx, std::int64_t by,
                     std::int64_t p, int tx, int ty);

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

/// The map of `condition` for `block`. For the phase-loop conditions the columns are `columns`
/// (from phase_columns); for store it is one column marked once_per_warp.
WarpPhaseMap warp_phase_map(const Geometry& geometry, const WarpLaneTable& lanes, Condition condition,
                            const RepresentativeBlock& block, const std::vector<PhaseColumn>& columns);

}  // namespace warpdiv::sim
