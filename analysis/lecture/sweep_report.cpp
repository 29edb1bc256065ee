#include "analysis/lecture/sweep_report.hpp"

#include <cstdio>
#include <string>

#include "analysis/csv.hpp"

namespace warpdiv::analysis {

double SweepRow::fraction() const {
  if (warp_phases == 0) return 0.0;
  return sim::to_double(divergent_warp_phases) / sim::to_double(warp_phases);
}

bool operator==(const SweepRow& a, const SweepRow& b) {
  return a.rows == b.rows && a.inner == b.inner && a.cols == b.cols && a.tile == b.tile &&
         a.warp_size == b.warp_size && a.condition == b.condition && a.warp_phases == b.warp_phases &&
         a.divergent_warp_phases == b.divergent_warp_phases;
}

std::vector<SweepRow> sweep_rows(const lecture::DivergenceResult& result) {
  std::vector<SweepRow> rows;
  rows.reserve(lecture::kConditionCount);
  const lecture::LaunchConfig& c = result.config;
  for (lecture::Condition condition : lecture::kConditions) {
    const lecture::ClassCounts& all = result.at(condition, lecture::BlockClass::all);
    rows.push_back(SweepRow{c.rows, c.inner, c.cols, c.tile, c.warp_size, condition, all.warp_phases,
                            all.divergent_warp_phases});
  }
  return rows;
}

std::size_t SweepPlan::launches() const {
  return sizes.size() * (inners.empty() ? 1 : inners.size()) * tiles.size();
}

lecture::LaunchConfig SweepPlan::launch(std::size_t index) const {
  const std::size_t inner_count = inners.empty() ? 1 : inners.size();
  const std::size_t tile_index = index % tiles.size();
  const std::size_t inner_index = index / tiles.size() % inner_count;
  const std::size_t size_index = index / tiles.size() / inner_count;
  lecture::LaunchConfig c;
  c.rows = c.cols = sizes.at(size_index);
  c.inner = inners.empty() ? c.rows : inners.at(inner_index);
  c.tile = tiles.at(tile_index);
  c.warp_size = warp_size;
  return c;
}

namespace {

std::string fraction_text(const SweepRow& row) {
  char fraction[32];
  std::snprintf(fraction, sizeof fraction, "%.10g", row.fraction());
  return fraction;
}

const CsvColumns<SweepRow>& sweep_csv_columns() {
  using R = const SweepRow&;
  static const CsvColumns<SweepRow> columns = {
      {"rows", [](R r) { return std::to_string(r.rows); }},
      {"inner", [](R r) { return std::to_string(r.inner); }},
      {"cols", [](R r) { return std::to_string(r.cols); }},
      {"tile", [](R r) { return std::to_string(r.tile); }},
      {"warp_size", [](R r) { return std::to_string(r.warp_size); }},
      {"condition", [](R r) { return std::string(lecture::name(r.condition)); }},
      {"warp_phases", [](R r) { return sim::to_decimal(r.warp_phases); }},
      {"divergent_warp_phases", [](R r) { return sim::to_decimal(r.divergent_warp_phases); }},
      {"fraction", fraction_text},
  };
  return columns;
}

}  // namespace

void write_sweep_csv_header(std::ostream& out) { sweep_csv_columns().write_header(out); }

void write_sweep_csv_row(std::ostream& out, const SweepRow& row) { sweep_csv_columns().write_row(out, row); }

void write_sweep_csv(std::ostream& out, const std::vector<SweepRow>& rows) {
  sweep_csv_columns().write(out, rows);
}

}  // namespace warpdiv::analysis
