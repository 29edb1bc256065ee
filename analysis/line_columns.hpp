// The per-line memory columns of the source report, one list for every writer: the text
// listing's memory table, the CSV's memory columns and the HTML listing's figure cells all come
// from line_columns(), in its order, so that a figure added to MemoryFigures (by the observer
// that fills it, analysis/memory_report.cpp) is shown everywhere by one entry here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/memory_report.hpp"
#include "sim/support/count.hpp"

namespace warpdiv::analysis {

struct LineColumn {
  std::string csv;   // the CSV's column name; "": not in the CSV
  std::string text;  // the text table's title; "": not there
  std::string html;  // the HTML listing's title; "": not there
  /// Which counted accesses the figure needs: a line without one of that space shows none ("-"
  /// in the text and HTML, empty in the CSV).
  enum class Needs { Global, Shared, Nothing } needs = Needs::Nothing;
  /// The figure; or, for a ratio (text only, as a percentage), `ratio` instead.
  sim::Count (*count)(const MemoryFigures&) = nullptr;
  std::optional<double> (*ratio)(const MemoryFigures&) = nullptr;
  /// What the column is, under the text and HTML explanations ("": their paragraph already
  /// says): lines of at most 90 characters, which the HTML joins.
  std::string note;
};

/// Every per-line memory column, in the order the writers show them.
const std::vector<LineColumn>& line_columns();

/// The column's count for a line's figures, or none where they lack the space it needs (or the
/// column is a ratio).
std::optional<sim::Count> line_count(const LineColumn& column, const MemoryFigures& m);

}  // namespace warpdiv::analysis
