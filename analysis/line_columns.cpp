#include "analysis/line_columns.hpp"

namespace warpdiv::analysis {

using Needs = LineColumn::Needs;
using Count = sim::Count;

namespace {

LineColumn figure(std::string csv, std::string text, std::string html, Needs needs,
                  Count (*count)(const MemoryFigures&), std::string note = "") {
  return LineColumn{std::move(csv), std::move(text), std::move(html), needs, count, nullptr, std::move(note)};
}

}  // namespace

const std::vector<LineColumn>& line_columns() {
  static const std::vector<LineColumn> columns = {
      figure("global_requests", "global req", "global req", Needs::Global,
             [](const MemoryFigures& m) { return m.global_requests; }),
      figure("global_sectors", "sectors", "sectors", Needs::Global,
             [](const MemoryFigures& m) { return m.global_sectors; }),
      LineColumn{"", "effic.", "", Needs::Global, nullptr, sector_efficiency, ""},
      figure("global_bytes", "", "bytes asked", Needs::Global,
             [](const MemoryFigures& m) { return m.global_bytes; }),
      figure(
          "global_load_requests", "ld req", "ld req", Needs::Global,
          [](const MemoryFigures& m) { return m.global_load_requests; },
          "ld req, st req, atom req: the global requests of loads, stores and atomics or reductions\n"
          "(Nsight Compute's per-line smsp__sass_inst_executed_op_global_ld, _st, _atom + _red)."),
      figure("global_store_requests", "st req", "st req", Needs::Global,
             [](const MemoryFigures& m) { return m.global_store_requests; }),
      figure("global_atomic_requests", "atom req", "atom req", Needs::Global,
             [](const MemoryFigures& m) { return m.global_atomic_requests; }),
      figure("shared_requests", "shared req", "shared req", Needs::Shared,
             [](const MemoryFigures& m) { return m.shared_requests; }),
      figure("shared_wavefronts", "wavefronts", "wavefronts", Needs::Shared,
             [](const MemoryFigures& m) { return m.shared_wavefronts; }),
      figure("shared_bank_conflicts", "conflicts", "", Needs::Shared,
             [](const MemoryFigures& m) { return m.shared_bank_conflicts; }),
      figure("flops", "flops", "flops", Needs::Nothing, [](const MemoryFigures& m) { return m.flops; }),
  };
  return columns;
}

std::optional<Count> line_count(const LineColumn& column, const MemoryFigures& m) {
  if (column.count == nullptr) return std::nullopt;
  if (column.needs == Needs::Global && !m.has_global) return std::nullopt;
  if (column.needs == Needs::Shared && !m.has_shared) return std::nullopt;
  return column.count(m);
}

}  // namespace warpdiv::analysis
