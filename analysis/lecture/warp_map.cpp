#include "analysis/lecture/warp_map.hpp"

#include <string>

#include "sim/support/errors.hpp"

namespace warpdiv::lecture {

WarpOutcome classify_warp(LaneMask passing, LaneMask existing) {
  if (passing == existing) return WarpOutcome::uniform_true;
  if (passing == 0) return WarpOutcome::uniform_false;
  return WarpOutcome::divergent;
}

bool operator==(const WarpLayout& a, const WarpLayout& b) {
  return a.warp == b.warp && a.lanes == b.lanes && a.first_tx == b.first_tx && a.first_ty == b.first_ty &&
         a.last_tx == b.last_tx && a.last_ty == b.last_ty;
}

bool operator==(const PhaseColumn& a, const PhaseColumn& b) {
  return a.first == b.first && a.last == b.last && a.once_per_warp == b.once_per_warp;
}

std::vector<WarpLayout> warp_layouts(const Geometry& g) {
  const int T = g.config.tile;
  const int S = g.config.warp_size;
  std::vector<WarpLayout> layouts;
  layouts.reserve(static_cast<std::size_t>(g.warps_per_block));
  for (int w = 0; w < g.warps_per_block; ++w) {
    const int first = w * S;                          // linear thread id ty*T + tx of lane 0
    const int last = first + g.lanes_in_warp(w) - 1;  // of the last existing lane
    layouts.push_back({w, g.lanes_in_warp(w), first % T, first / T, last % T, last / T});
  }
  return layouts;
}

std::vector<PhaseColumn> phase_columns(const Geometry& g, std::int64_t max_columns) {
  if (max_columns < 2)
    throw InvalidInput(Diag::flag_value, "phase_columns needs room for at least 2 columns");
  std::vector<PhaseColumn> columns;
  if (g.phases <= max_columns) {
    for (std::int64_t p = 0; p < g.phases; ++p) columns.push_back({p, p, false});
  } else {
    columns.push_back({0, g.phases - 2, false});
    columns.push_back({g.phases - 1, g.phases - 1, false});
  }
  return columns;
}

std::vector<RepresentativeBlock> representative_blocks(const Geometry& g) {
  // right_edge needs a block-row above the last one, bottom_edge a block-column left of the last.
  std::vector<RepresentativeBlock> blocks;
  if (g.grid_x >= 2 && g.grid_y >= 2) blocks.push_back({BlockClass::interior, 0, 0});
  if (g.grid_y >= 2) blocks.push_back({BlockClass::right_edge, g.grid_x - 1, 0});
  if (g.grid_x >= 2) blocks.push_back({BlockClass::bottom_edge, 0, g.grid_y - 1});
  blocks.push_back({BlockClass::corner, g.grid_x - 1, g.grid_y - 1});
  return blocks;
}

}  // namespace warpdiv::lecture
