#include "analysis/lecture/sweep_report.hpp"

#include <cstdio>
#include <string>

#include "analysis/csv.hpp"
#include "analysis/lecture/lecture_source.hpp"

namespace warpdiv::analysis {

double SweepRow::fraction() const {
  if (warp_phases == 0) return 0.0;
  return sim::to_double(divergent_warp_phases) / sim::to_double(warp_phases);
}

bool operator==(const SweepRow& a, const SweepRow& b) {
  return a.rows == b.rows && a.inner == b.inner && a.cols == b.cols && a.tile == b.tile &&
         a.warp_size == b.warp_size && a.condition == b.condition &&
         a.warp_phases == b.warp_phases && a.divergent_warp_phases == b.divergent_warp_phases;
}

std::vector<SweepRow> sweep_rows(const lecture::DivergenceResult& result) {
  std::vector<SweepRow> rows;
  rows.reserve(lecture::kConditionCount);
  const lecture::LaunchConfig& c = result.config;
  for (lecture::Condition condition : lecture::kConditions) {
    const lecture::ClassCounts& all = result.at(condition, lecture::BlockClass::all);
    rows.push_back(SweepRow{c.rows, c.inner, c.cols, c.tile, c.warp_size, condition,
                            all.warp_phases, all.divergent_warp_phases});
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

std::vector<SweepRow> run_sweep(const SweepPlan& plan) {
  std::vector<SweepRow> rows;
  rows.reserve(plan.launches() * lecture::kConditionCount);
  for (std::size_t i = 0; i < plan.launches(); ++i) {
    const std::vector<SweepRow> launch_rows = sweep_rows(lecture_counts(plan.launch(i)));
    rows.insert(rows.end(), launch_rows.begin(), launch_rows.end());
  }
  return rows;
}

void write_sweep_csv_header(std::ostream& out) { out << kSweepCsvHeader << '\n'; }

void write_sweep_csv_row(std::ostream& out, const SweepRow& row) {
  char fraction[32];
  std::snprintf(fraction, sizeof fraction, "%.10g", row.fraction());
  write_csv_row(out, {std::to_string(row.rows), std::to_string(row.inner),
                      std::to_string(row.cols), std::to_string(row.tile),
                      std::to_string(row.warp_size), lecture::name(row.condition),
                      sim::to_decimal(row.warp_phases), sim::to_decimal(row.divergent_warp_phases),
                      fraction});
}

void write_sweep_csv(std::ostream& out, const std::vector<SweepRow>& rows) {
  write_sweep_csv_header(out);
  for (const SweepRow& row : rows) write_sweep_csv_row(out, row);
}

}  // namespace warpdiv::analysis
