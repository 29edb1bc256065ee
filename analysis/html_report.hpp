// The divergence report as one self-contained HTML page (inline CSS and SVG): the grid of blocks
// coloured by class, a warp x phase map per class and condition, the thread layout of the warps,
// the summary tables, an optional occupancy section and the barrier note.
//
// Everything is drawn per block class and per phase column (sim/warp_map.hpp), never per block or
// per phase, so the page has the same size for a 100 x 100 launch as for a 2^31-1 cube.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/divergence.hpp"

namespace warpdiv::analysis {

/// A titled list of label/value rows with notes below; how the occupancy of the analysed launch
/// reaches the page (the CLI fills it from the occupancy calculator).
struct HtmlSection {
  std::string heading;
  std::vector<std::pair<std::string, std::string>> rows;
  std::vector<std::string> notes;
};

struct DivergenceHtmlOptions {
  std::optional<HtmlSection> occupancy;
  /// Launches with at most this many phases get one map column per phase; larger ones get two,
  /// "every phase but the last" and "the last phase" (all that can differ).
  std::int64_t max_phase_columns = 8;
};

/// The whole page, "<!DOCTYPE html>" to "</html>".
std::string render_divergence_html(const sim::DivergenceResult& result,
                                   const DivergenceHtmlOptions& options = {});

}  // namespace warpdiv::analysis
