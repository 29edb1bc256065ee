// The sweep as one self-contained HTML page: the divergent fraction of each check against matrix
// size, a curve per tile width (the lecture's "for larger matrices the impact will be
// significantly smaller", made visible), and, for a chosen GPU, theoretical occupancy against
// tile width. Plots are inline SVG (analysis/svg_plot.hpp); nothing is fetched.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/occupancy.hpp"
#include "analysis/lecture/sweep_report.hpp"

namespace warpdiv::analysis {

/// Tile widths the occupancy plot covers: every T the kernel allows (T*T <= 1024 threads).
constexpr int kOccupancyPlotMaxTile = 32;

struct SweepHtmlOptions {
  /// With a GPU: occupancy of the tiled kernel's launch for T = 1 .. 32 on it.
  std::optional<GpuSpec> gpu;
  int registers_per_thread = occupancy_limits::kDefaultRegistersPerThread;
  /// The page lists the rows in a table up to this many (all are in the CSV anyway).
  std::size_t max_table_rows = 400;
};

/// The whole page, "<!DOCTYPE html>" to "</html>". `interrupted` notes a sweep stopped early.
std::string render_sweep_html(const std::vector<SweepRow>& rows, const SweepHtmlOptions& options,
                              bool interrupted = false);

}  // namespace warpdiv::analysis
