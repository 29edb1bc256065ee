// The divergence report as one self-contained HTML page (inline CSS and SVG): the grid of blocks
// coloured by class, a warp x phase map per class and condition, the thread layout of the warps,
// the summary tables, an optional occupancy section and the barrier note.
//
// Everything is drawn per block class and per phase column (analysis/lecture/warp_map.hpp), never per block
// or per phase, so the page has the same size for a 100 x 100 launch as for a 2^31-1 cube.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/occupancy.hpp"
#include "analysis/lecture/divergence.hpp"

namespace warpdiv::analysis {

/// One line of a label/value table, with an optional note on how the value comes about.
struct HtmlRow {
  std::string label;
  std::string value;
  std::string note;
};

/// A titled label/value table with notes below: how the occupancy of the analysed launch reaches
/// the page.
struct HtmlSection {
  std::string heading;
  std::vector<HtmlRow> rows;
  std::vector<std::string> notes;
};

/// The occupancy of a launch as a section: each block limit, active blocks and warps, theoretical
/// occupancy and limiter(s), as Nsight Compute's Occupancy section lists them.
HtmlSection occupancy_html_section(const GpuSpec& gpu, const LaunchResources& launch,
                                   const OccupancyResult& result);

struct DivergenceHtmlOptions {
  std::optional<HtmlSection> occupancy;
  /// Launches with at most this many phases get one map column per phase; larger ones get two,
  /// "every phase but the last" and "the last phase" (all that can differ).
  std::int64_t max_phase_columns = 8;
};

/// The whole page, "<!DOCTYPE html>" to "</html>".
std::string render_divergence_html(const lecture::DivergenceResult& result,
                                   const DivergenceHtmlOptions& options = {});

}  // namespace warpdiv::analysis
