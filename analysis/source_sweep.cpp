#include "analysis/source_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/csv.hpp"
#include "analysis/html.hpp"
#include "analysis/svg_plot.hpp"

namespace warpdiv::analysis {

using html::escape;

namespace {

// A log x axis once the swept values span this ratio (all positive).
constexpr double kLogAxisRatio = 20;
constexpr double kPlotWidth = 520;  // px: two plots side by side on a wide page

std::string number(std::int64_t value) { return html::group_digits(std::to_string(value)); }

std::string curve_label(const SourceSweepPlan& plan, const SourceSweepLaunch& launch) {
  std::string label;
  for (std::size_t i = 1; i < plan.swept.size(); ++i) {
    const std::string& name = plan.swept[i];
    label += (label.empty() ? "" : ", ") + (name == "block"
                                                ? "block " + number(launch.value(plan, name)) + " threads"
                                                : name + " = " + number(launch.value(plan, name)));
  }
  return label.empty() ? "divergent fraction" : label;
}

}  // namespace

std::int64_t SourceSweepLaunch::value(const SourceSweepPlan& plan, const std::string& name) const {
  if (name == "block") return static_cast<std::int64_t>(block.volume());
  for (std::size_t i = 0; i < plan.arg_names.size() && i < args.size(); ++i)
    if (plan.arg_names[i] == name) return args[i];
  return 0;
}

CsvColumns<SourceSweepCsvRow> source_sweep_csv_columns(const SourceSweepPlan& plan) {
  using R = const SourceSweepCsvRow&;
  CsvColumns<SourceSweepCsvRow> columns;
  for (std::size_t i = 0; i < plan.arg_names.size(); ++i)
    columns.add(plan.arg_names[i], [i](R r) { return std::to_string(r.launch.args.at(i)); });
  for (std::size_t i = 0; i < plan.data_names.size(); ++i)
    columns.add("data_" + plan.data_names[i], [i](R r) { return r.launch.data.at(i); });
  columns.add("block_x", [](R r) { return std::to_string(r.launch.block.x); })
      .add("block_y", [](R r) { return std::to_string(r.launch.block.y); })
      .add("block_z", [](R r) { return std::to_string(r.launch.block.z); })
      .add("grid_x", [](R r) { return std::to_string(r.launch.grid.x); })
      .add("grid_y", [](R r) { return std::to_string(r.launch.grid.y); })
      .add("grid_z", [](R r) { return std::to_string(r.launch.grid.z); })
      .add("warp_size", [](R r) { return std::to_string(r.launch.warp_size); })
      .add_all(source_csv_columns(), [](R r) -> const SourceRow& { return r.row; });
  return columns;
}

void write_source_sweep_csv_rows(std::ostream& out, const CsvColumns<SourceSweepCsvRow>& columns,
                                 const SourceSweepLaunch& launch, const SourceReport& report) {
  for (const SourceRow& row : report.rows)
    if (!row.iteration) columns.write_row(out, {launch, row});
}

void add_to_page(SourceSweepPage& page, const SourceSweepLaunch& launch, const SourceReport& report) {
  const bool first = page.points.empty();
  SourceSweepPoint point;
  point.launch = launch;
  for (const SourceRow& row : report.rows) {
    if (row.iteration || !row.condition) continue;
    if (first) {
      // A plot's title: the line and the statement's start, short enough for the plot's width.
      constexpr std::size_t kMaxTitleText = 32;
      std::string text = row.text;
      if (text.size() > kMaxTitleText) text = text.substr(0, kMaxTitleText) + "…";
      page.branches.push_back({"line " + std::to_string(row.line) + ": " + text});
    }
    point.fractions.push_back(row.counts.warp_evaluations == 0
                                  ? std::nan("")
                                  : sim::to_double(row.counts.divergent) /
                                        sim::to_double(row.counts.warp_evaluations));
  }
  page.points.push_back(std::move(point));
}

std::string render_source_sweep_html(const SourceSweepPage& page, bool interrupted) {
  const SourceSweepPlan& plan = page.plan;
  std::string out = html::page_start("warpdiv sweep: " + plan.kernel);
  out += "<style>.plots{display:flex;flex-wrap:wrap;gap:8px 24px}</style>\n";
  out += "<h1>warpdiv sweep: " + escape(plan.kernel) + "</h1>\n<p>" + escape(plan.file) + ": " +
         number(static_cast<std::int64_t>(page.points.size())) + " launches";
  if (interrupted) out += " (interrupted: the launches finished before Ctrl-C)";
  out +=
      ". Each plot shows the fraction of a branch's warp evaluations that diverge (the "
      "active lanes disagree).</p>\n";
  if (page.points.empty() || page.branches.empty()) {
    out += "<p>" + std::string(page.points.empty() ? "No launch finished." : "The kernel has no branch.") +
           "</p>\n";
    return out + html::page_end();
  }
  const std::string x_name = plan.swept.empty() ? "block" : plan.swept.front();
  // Curves: one per combination of the other swept values, in first-seen order.
  std::vector<std::string> curve_names;
  std::map<std::string, std::size_t> curve_of;
  double lo = 0, hi = 0;
  bool positive = true;
  for (const SourceSweepPoint& p : page.points) {
    const std::string label = curve_label(plan, p.launch);
    if (!curve_of.count(label)) {
      curve_of[label] = curve_names.size();
      curve_names.push_back(label);
    }
    const double x = static_cast<double>(p.launch.value(plan, x_name));
    if (&p == &page.points.front()) lo = hi = x;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
    if (x <= 0) positive = false;
  }
  const bool log_x = positive && hi / lo >= kLogAxisRatio;
  if (curve_names.size() > kMaxSweepCurves)
    out += "<p>Only the first " + std::to_string(kMaxSweepCurves) + " of " +
           std::to_string(curve_names.size()) +
           " curves are drawn in each plot; the CSV holds every launch.</p>\n";
  out += "<div class=\"plots\">\n";
  for (std::size_t b = 0; b < page.branches.size(); ++b) {
    LinePlot plot;
    plot.id = "branch-" + std::to_string(b + 1);
    plot.title = page.branches[b].label;
    plot.x.label = x_name == "block" ? "threads per block" : x_name;
    plot.x.log = log_x;
    plot.y.label = "divergent / warp evaluations";
    plot.y.percent = true;
    plot.y.min = 0;
    plot.width = kPlotWidth;
    plot.series.resize(std::min(curve_names.size(), kMaxSweepCurves));
    for (std::size_t c = 0; c < plot.series.size(); ++c) plot.series[c].label = curve_names[c];
    for (const SourceSweepPoint& p : page.points) {
      const std::size_t c = curve_of[curve_label(plan, p.launch)];
      if (c >= plot.series.size() || b >= p.fractions.size() || std::isnan(p.fractions[b])) continue;
      plot.series[c].points.push_back(  // y in percent, as svg_plot's percent axis takes it
          {static_cast<double>(p.launch.value(plan, x_name)), 100.0 * p.fractions[b]});
    }
    for (PlotSeries& s : plot.series)
      std::sort(s.points.begin(), s.points.end(),
                [](const PlotPoint& a, const PlotPoint& c) { return a.x < c.x; });
    out += render_line_plot(plot) + "\n";
  }
  out += "</div>\n";
  return out + html::page_end();
}

}  // namespace warpdiv::analysis
