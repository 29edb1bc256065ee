#include "analysis/lecture/divergence_report.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <vector>

#include "analysis/csv.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::analysis {

using lecture::BlockClass;
using lecture::ClassCounts;
using lecture::Condition;
using sim::Count;
using sim::to_decimal;

std::string percent(Count part, Count whole) {
  if (whole == 0) return "0.00%";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f%%", 100.0 * sim::to_double(part) / sim::to_double(whole));
  // Huge launches have fractions like 1.5e-8: never round a nonzero share to "0.00%" or a partial
  // one to "100.00%", which would read as "none" or "all".
  const std::string text = buffer;
  if (part != 0 && text == "0.00%") return "<0.01%";
  if (part != whole && text == "100.00%") return ">99.99%";
  return text;
}

std::string condition_expression(Condition condition) {
  switch (condition) {
    case Condition::load_M:
      return "Row < J && p*T + tx < K, per phase";
    case Condition::load_N:
      return "p*T + ty < K && Col < L, per phase";
    case Condition::compute:
      return "Row < J && Col < L around the inner product, per phase";
    case Condition::store:
      return "Row < J && Col < L around the write of P, once per warp";
  }
  return "";
}

namespace {

// One record of `warpdiv analyze --csv`: a condition's counts in one block class.
struct DivergenceCsvRow {
  Condition condition;
  BlockClass block_class;
  const ClassCounts& counts;
};

const CsvColumns<DivergenceCsvRow>& divergence_csv_columns() {
  using R = const DivergenceCsvRow&;
  static const CsvColumns<DivergenceCsvRow> columns = {
      {"condition", [](R r) { return std::string(lecture::name(r.condition)); }},
      {"block_class", [](R r) { return std::string(lecture::name(r.block_class)); }},
      {"blocks", [](R r) { return to_decimal(r.counts.blocks); }},
      {"warps", [](R r) { return to_decimal(r.counts.warps); }},
      {"warp_phases", [](R r) { return to_decimal(r.counts.warp_phases); }},
      {"divergent_warp_phases", [](R r) { return to_decimal(r.counts.divergent_warp_phases); }},
  };
  return columns;
}

}  // namespace

void write_divergence_csv(std::ostream& out, const lecture::DivergenceResult& result) {
  const CsvColumns<DivergenceCsvRow>& columns = divergence_csv_columns();
  columns.write_header(out);
  for (Condition c : lecture::kConditions)
    for (BlockClass k : lecture::kBlockClasses) columns.write_row(out, {c, k, result.at(c, k)});
}

namespace {

std::string ratio(Count part, Count whole) {
  return to_decimal(part) + "/" + to_decimal(whole) + " (" + percent(part, whole) + ")";
}

void write_table(std::ostream& out, const lecture::DivergenceResult& result, Condition c) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"class", "blocks", "warps", "warp-phases", "divergent", "fraction"});
  for (BlockClass k : lecture::kBlockClasses) {
    const ClassCounts& cell = result.at(c, k);
    rows.push_back({lecture::name(k), to_decimal(cell.blocks), to_decimal(cell.warps),
                    to_decimal(cell.warp_phases), to_decimal(cell.divergent_warp_phases),
                    percent(cell.divergent_warp_phases, cell.warp_phases)});
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  for (const auto& row : rows) {
    out << "  " << std::left << std::setw(static_cast<int>(width[0])) << row[0];
    for (std::size_t i = 1; i < row.size(); ++i)
      out << "  " << std::right << std::setw(static_cast<int>(width[i])) << row[i];
    out << '\n';
  }
}

}  // namespace

// Two lecture "types" per load: the blocks whose rows (load_M) or columns (load_N) are all in
// range, and the last block-row (load_M) or block-column (load_N).
LectureTypes lecture_types(const lecture::DivergenceResult& result, Condition condition) {
  const auto sum = [&](BlockClass a, BlockClass b) {
    const ClassCounts& x = result.at(condition, a);
    const ClassCounts& y = result.at(condition, b);
    return ClassCounts{x.blocks + y.blocks, x.warps + y.warps, x.warp_phases + y.warp_phases,
                       x.divergent_warp_phases + y.divergent_warp_phases};
  };
  if (condition == Condition::load_M) {
    return {
        {"Type 1 (rows in range: interior + right_edge)", sum(BlockClass::interior, BlockClass::right_edge)},
        {"Type 2 (bottom block-row: bottom_edge + corner)",
         sum(BlockClass::bottom_edge, BlockClass::corner)}};
  }
  return {
      {"Type 1 (columns in range: interior + bottom_edge)",
       sum(BlockClass::interior, BlockClass::bottom_edge)},
      {"Type 2 (right block-column: right_edge + corner)", sum(BlockClass::right_edge, BlockClass::corner)}};
}

bool is_lecture_default(const lecture::LaunchConfig& config) {
  return config == lecture::LaunchConfig::square(lecture::limits::kLectureWidth);
}

void write_divergence_text(std::ostream& out, const lecture::DivergenceResult& result) {
  const lecture::Geometry g(result.config);
  out << "warpdiv analyze: " << lecture::describe(result.config) << '\n';
  out << "grid " << g.grid_x << " x " << g.grid_y << " blocks (" << g.blocks() << "), "
      << sim::counted(g.threads_per_block, "thread") << " = " << sim::counted(g.warps_per_block, "warp")
      << " per block";
  if (g.lanes_in_last_warp != result.config.warp_size)
    out << " (last warp partial: " << g.lanes_in_last_warp << " of " << result.config.warp_size << " lanes)";
  out << ", " << sim::counted(g.phases, "phase") << '\n';

  for (Condition c : lecture::kConditions) {
    out << '\n' << lecture::name(c) << ": " << condition_expression(c) << '\n';
    write_table(out, result, c);
    if (c == Condition::load_M || c == Condition::load_N) {
      const LectureTypes view = lecture_types(result, c);
      const char* indent = "  lecture view: ";
      for (const LectureType* type : {&view.type1, &view.type2}) {
        out << indent << type->label << ": " << sim::counted(type->counts.blocks, "block") << ", "
            << ratio(type->counts.divergent_warp_phases, type->counts.warp_phases)
            << " warp-phases diverge\n";
        indent = "                ";
      }
    }
  }

  out << "\nBound on the performance impact (divergent / all warp-phases of each check):\n";
  for (Condition c : lecture::kConditions) {
    const ClassCounts& all = result.at(c, BlockClass::all);
    out << "  " << std::left << std::setw(8) << lecture::name(c) << ' '
        << ratio(all.divergent_warp_phases, all.warp_phases) << '\n';
  }
  if (is_lecture_default(result.config)) {
    const ClassCounts& all = result.at(Condition::load_M, BlockClass::all);
    out << "Note: the lecture's summary \"less than 12% (350/2,944)\" has an arithmetic slip: "
           "2,352 + 392 = 2,744, so the bound is "
        << to_decimal(all.divergent_warp_phases) << "/" << to_decimal(all.warp_phases) << " = "
        << percent(all.divergent_warp_phases, all.warp_phases) << ".\n";
  }

  out << "\nBarrier hazard: " << to_decimal(result.barrier_hazard_blocks) << " of "
      << sim::counted(g.blocks(), "block") << (result.barrier_hazard_blocks == 1 ? " has" : " have")
      << " threads outside P (Row >= J or Col >= L).";
  if (result.barrier_hazard_blocks == 0) {
    out << "\n  Every thread passes the compute guard, so a __syncthreads() inside it is safe here.\n";
  } else {
    out << "\n  The lecture's guarded inner product puts __syncthreads() inside if (Row < J && Col < L):\n"
           "  in those blocks only part of the block reaches the barrier, which is undefined behaviour\n"
           "  (a hang or wrong results). Keep every __syncthreads() outside the guards, as warpdiv's\n"
           "  own kernels do.\n";
  }
}

}  // namespace warpdiv::analysis
