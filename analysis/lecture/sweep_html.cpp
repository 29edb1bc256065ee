#include "analysis/lecture/sweep_html.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "analysis/lecture/divergence_report.hpp"
#include "analysis/gpu_presets.hpp"
#include "analysis/html.hpp"
#include "analysis/occupancy_report.hpp"
#include "analysis/svg_plot.hpp"

namespace warpdiv::analysis {

using html::escape;

namespace {

// A log axis once the sizes span this ratio: sweeps from 16 to 2^31 read only that way.
constexpr double kLogAxisRatio = 20;

// Two plots side by side on a wide page, one above the other on paper.
constexpr double kFractionPlotWidth = 520;

constexpr const char* kSweepStyle =
    "<style>.plots{display:flex;flex-wrap:wrap;gap:8px 24px}"
    "tr.swept td{font-weight:600;background:#eef5fb}"
    "#occupancy-table td:last-child,#occupancy-table th:last-child{text-align:left}</style>\n";

std::string number(std::int64_t value) { return html::group_digits(std::to_string(value)); }

std::string list_text(const std::set<std::int64_t>& values, std::size_t show = 12) {
  std::string text;
  std::size_t i = 0;
  for (std::int64_t v : values) {
    if (i == show && values.size() > show + 1) {
      text += ", … , " + number(*values.rbegin());
      break;
    }
    text += (i ? ", " : "") + number(v);
    ++i;
  }
  return text;
}

struct SweepFacts {
  std::set<std::int64_t> sizes, inners, tiles, warp_sizes;
  bool inner_is_size = true;  // K = J = L in every row
};

SweepFacts facts_of(const std::vector<SweepRow>& rows) {
  SweepFacts f;
  for (const SweepRow& r : rows) {
    f.sizes.insert(r.rows);
    f.inners.insert(r.inner);
    f.tiles.insert(r.tile);
    f.warp_sizes.insert(r.warp_size);
    if (r.inner != r.rows) f.inner_is_size = false;
  }
  return f;
}

std::string fraction_plot(const std::vector<SweepRow>& rows, const SweepFacts& facts,
                          lecture::Condition condition) {
  // One curve per tile width (and per inner size K when K is swept on its own).
  std::map<std::pair<int, std::int64_t>, PlotSeries> curves;
  for (const SweepRow& r : rows) {
    if (r.condition != condition) continue;
    const std::int64_t key_inner = facts.inner_is_size ? 0 : r.inner;
    PlotSeries& s = curves[{r.tile, key_inner}];
    if (s.label.empty())
      s.label = "T = " + std::to_string(r.tile) + (facts.inner_is_size ? "" : ", K = " + number(r.inner));
    s.points.push_back({static_cast<double>(r.rows), 100.0 * r.fraction()});
  }
  LinePlot plot;
  plot.id = "plot-" + lecture::name(condition);
  plot.title = lecture::name(condition) + ": divergent warp-phases against matrix size";
  const double lo = facts.sizes.empty() ? 1 : static_cast<double>(*facts.sizes.begin());
  const double hi = facts.sizes.empty() ? 1 : static_cast<double>(*facts.sizes.rbegin());
  plot.x.log = hi / lo >= kLogAxisRatio;
  plot.x.label = std::string(facts.inner_is_size ? "matrix size W = J = K = L" : "matrix size W = J = L") +
                 " (elements" + (plot.x.log ? ", log scale)" : ")");
  plot.y.label = "divergent warp-phases (% of all)";
  plot.width = kFractionPlotWidth;
  plot.y.percent = true;
  for (auto& [key, series] : curves) plot.series.push_back(std::move(series));
  return render_line_plot(plot);
}

std::string occupancy_part(const SweepHtmlOptions& options, const SweepFacts& facts) {
  const GpuSpec& gpu = *options.gpu;
  std::ostringstream out;
  out << "<section id=\"occupancy\"><h2>Occupancy against tile width on " << escape(gpu.name) << "</h2>\n<p>"
      << escape(gpu.name) << (gpu.description.empty() ? "" : " (" + escape(gpu.description) + ")") << ", cc "
      << compute_capability_text(gpu) << ": the tiled kernel's launch for each tile width T, "
      << "T² threads and 2·T²·4 bytes of shared memory per block, " << options.registers_per_thread
      << " registers per thread. Highlighted rows are the tile widths of this sweep.</p>\n";
  LinePlot plot;
  plot.id = "plot-occupancy";
  plot.title = "Theoretical occupancy on " + gpu.name;
  plot.x = {"tile width T (blockDim T × T, threads per block = T²)", false, false, 1.0,
            static_cast<double>(kOccupancyPlotMaxTile)};
  plot.y = {"theoretical occupancy (% of max warps per SM)", false, true, 0.0, 100.0};
  PlotSeries series;
  series.label = std::to_string(options.registers_per_thread) + " registers/thread";
  std::ostringstream table;
  table << "<div class=\"table-box\"><table id=\"occupancy-table\"><thead><tr><th>T</th>"
           "<th>threads</th><th>shared memory (bytes)</th><th>active blocks</th>"
           "<th>active warps</th><th>occupancy</th><th>limiter</th></tr></thead><tbody>";
  for (int tile = 1; tile <= kOccupancyPlotMaxTile; ++tile) {
    const LaunchResources launch = tiled_kernel_launch(tile, options.registers_per_thread);
    const OccupancyResult r = compute_occupancy(gpu, launch);
    series.points.push_back({static_cast<double>(tile), r.occupancy_pct});
    table << "<tr" << (facts.tiles.count(tile) ? " class=\"swept\"" : "") << "><td>" << tile << "</td><td>"
          << launch.threads_per_block << "</td><td>" << number(launch.static_shared_bytes) << "</td><td>"
          << r.active_blocks << "</td><td>" << r.active_warps << "</td><td>" << occupancy_text(r)
          << "%</td><td>" << escape(r.can_run() ? limiter_text(r, ", ") : "cannot run: " + r.reason)
          << "</td></tr>";
  }
  table << "</tbody></table></div>\n";
  plot.series.push_back(std::move(series));
  plot.width = kFractionPlotWidth;
  out << "<div class=\"figure-row\"><figure id=\"fig-occupancy\">" << render_line_plot(plot) << "</figure>\n"
      << table.str() << "</div></section>\n";
  return out.str();
}

std::string data_part(const std::vector<SweepRow>& rows, std::size_t max_rows) {
  std::ostringstream out;
  out << "<section id=\"data\"><h2>Rows</h2>\n";
  if (rows.size() > max_rows) {
    out << "<p>" << number(static_cast<std::int64_t>(rows.size()))
        << " rows, too many to list here; the sweep's CSV holds every one.</p>\n</section>\n";
    return out.str();
  }
  out << "<div class=\"table-box\"><table id=\"sweep-table\"><thead><tr><th>J = L</th>"
         "<th>K</th><th>T</th><th>condition</th><th>warp-phases</th><th>divergent</th>"
         "<th>fraction</th></tr></thead><tbody>";
  for (const SweepRow& r : rows)
    out << "<tr><td>" << number(r.rows) << "</td><td>" << number(r.inner) << "</td><td>" << r.tile
        << "</td><td>" << lecture::name(r.condition) << "</td><td>"
        << html::group_digits(sim::to_decimal(r.warp_phases)) << "</td><td>"
        << html::group_digits(sim::to_decimal(r.divergent_warp_phases)) << "</td><td>"
        << percent(r.divergent_warp_phases, r.warp_phases) << "</td></tr>";
  out << "</tbody></table></div>\n</section>\n";
  return out.str();
}

}  // namespace

std::string render_sweep_html(const std::vector<SweepRow>& rows, const SweepHtmlOptions& options,
                              bool interrupted) {
  const SweepFacts facts = facts_of(rows);
  const std::size_t launches = rows.size() / lecture::kConditionCount;
  std::ostringstream out;
  out << html::page_start("warpdiv sweep") << kSweepStyle;
  out << "<header><h1>Divergence sweep of the tiled matrix multiply</h1>\n<p class=\"config\">"
      << number(static_cast<std::int64_t>(launches)) << " launches: sizes " << list_text(facts.sizes)
      << (facts.inner_is_size ? " (J = K = L)" : " (J = L)");
  if (!facts.inner_is_size) out << "; inner sizes K " << list_text(facts.inners);
  out << "; tile widths " << list_text(facts.tiles) << "; warp size " << list_text(facts.warp_sizes)
      << ".</p>\n";
  if (interrupted)
    out << "<p class=\"note hazard\" id=\"interrupted\">The sweep was interrupted: this page "
           "holds the launches finished before it stopped.</p>\n";
  out << "</header>\n";

  out << "<section id=\"fraction\"><h2>Divergent warp-phases against matrix size</h2>\n"
      << "<p>Each curve is one tile width; a point is the share of a check's warp-phases in "
         "which the lanes of a warp disagree, over the whole launch. Only the last block-row, "
         "block-column and phase can diverge, so the share falls roughly as T / W: as the "
         "lecture says, “for larger matrices the impact will be significantly smaller”.</p>\n"
      << "<div class=\"plots\">\n";
  for (lecture::Condition c : lecture::kConditions) {
    out << "<figure id=\"fig-" << lecture::name(c) << "\">" << fraction_plot(rows, facts, c)
        << "<figcaption><b>" << lecture::name(c) << "</b>: <code>" << escape(condition_expression(c))
        << "</code></figcaption></figure>\n";
  }
  out << "</div>\n</section>\n";
  if (options.gpu) out << occupancy_part(options, facts);
  out << data_part(rows, options.max_table_rows);
  out << html::page_end();
  return out.str();
}

}  // namespace warpdiv::analysis
