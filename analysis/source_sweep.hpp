// `warpdiv sweep FILE.cu`: many launches of one source kernel. Data (one SourceReport per launch,
// with the launch's swept values) and two formatters: a CSV with one row per launch and statement
// (the launch's columns, then the columns of `warpdiv analyze FILE.cu --csv`), and an HTML page
// with the divergent fraction of each branch against the swept value.
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/source_report.hpp"

namespace warpdiv::analysis {

/// What the sweep varies and holds: the --arg names in the order given, then the block.
struct SourceSweepPlan {
  std::string kernel;
  std::string file;
  std::vector<std::string> arg_names;
  /// --data names (their files vary with the launch: one CSV column data_NAME each).
  std::vector<std::string> data_names;
  /// Names with more than one value ("N", "block"), in order: the first is the x axis of the
  /// plots, the others tell the curves apart.
  std::vector<std::string> swept;
};

/// One launch's values: one per arg name, the block and grid extents and the warp size.
struct SourceSweepLaunch {
  std::vector<std::int64_t> args;
  std::vector<std::string> data;  // the file of each data name
  sim::ir::Dim3 grid, block;
  int warp_size = 32;
  /// The value of a name of SourceSweepPlan::swept ("block": threads per block).
  std::int64_t value(const SourceSweepPlan& plan, const std::string& name) const;
};

/// One record of the sweep's CSV: a launch and one statement's row of its report.
struct SourceSweepCsvRow {
  const SourceSweepLaunch& launch;
  const SourceRow& row;
};
/// The CSV's columns: the arg names, data_NAME per data name (the file), block_x, block_y, block_z, grid_x,
/// grid_y, grid_z, warp_size, then source_csv_columns().
CsvColumns<SourceSweepCsvRow> source_sweep_csv_columns(const SourceSweepPlan& plan);
/// One row per whole-kernel row of `report` (statements in source order).
void write_source_sweep_csv_rows(std::ostream& out, const CsvColumns<SourceSweepCsvRow>& columns,
                                 const SourceSweepLaunch& launch, const SourceReport& report);

/// What the page keeps of a launch: its values and, per branch (if, loop, switch), divergent /
/// warp evaluations (NaN where the branch was never evaluated).
struct SourceSweepPoint {
  SourceSweepLaunch launch;
  std::vector<double> fractions;
};
struct SourceSweepBranch {
  std::string label;  // "line 7: if (i < n)"
};
struct SourceSweepPage {
  SourceSweepPlan plan;
  std::vector<SourceSweepBranch> branches;  // from the first launch's report
  std::vector<SourceSweepPoint> points;
};
/// Adds a launch's report to the page (the branches are taken from the first one).
void add_to_page(SourceSweepPage& page, const SourceSweepLaunch& launch, const SourceReport& report);

/// At most this many curves per plot (combinations of the other swept values); more are left
/// out, and the page says so.
constexpr std::size_t kMaxSweepCurves = 12;

/// The whole page, "<!DOCTYPE html>" to "</html>": a plot per branch of its divergent fraction
/// against the first swept value, a curve per combination of the others. Self-contained (inline
/// SVG, no script); its size is bounded by the plots' resolution, not by the number of launches.
std::string render_source_sweep_html(const SourceSweepPage& page, bool interrupted = false);

}  // namespace warpdiv::analysis
