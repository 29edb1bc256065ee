#include "analysis/lecture/validation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "analysis/csv.hpp"
#include "analysis/lecture/divergence_report.hpp"
#include "analysis/lecture/lecture_source.hpp"
#include "sim/support/message_text.hpp"
#include "analysis/lecture/conditions.hpp"
#include "sim/support/parallel.hpp"

namespace warpdiv::analysis {

namespace {

std::size_t checked_size(std::int64_t a, std::int64_t b) {
  return static_cast<std::size_t>(sim::checked_mul(static_cast<sim::Count>(a), static_cast<sim::Count>(b)));
}

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

/// The largest error in rows [begin, end) of `rows` against columns `cols`.
struct WorstEntry {
  double error = 0.0;
  std::int64_t row = -1;
  std::int64_t col = -1;
  std::uint64_t compared = 0;
};

void keep_worst(WorstEntry& worst, double error, std::int64_t row, std::int64_t col) {
  if (std::isnan(worst.error)) return;  // a NaN error stays the verdict
  if (std::isnan(error) || error > worst.error || worst.row < 0) {
    worst.error = error;
    worst.row = row;
    worst.col = col;
  }
}

WorstEntry compare_rows(const lecture::LaunchConfig& c, const std::vector<float>& m,
                        const std::vector<float>& n, const std::vector<float>& p,
                        const std::vector<std::int64_t>& rows, std::size_t begin, std::size_t end,
                        const std::vector<std::int64_t>& cols) {
  const std::size_t K = static_cast<std::size_t>(c.inner);
  const std::size_t L = static_cast<std::size_t>(c.cols);
  std::vector<double> sum(cols.size());
  std::vector<double> magnitude(cols.size());
  WorstEntry worst;
  for (std::size_t r = begin; r < end; ++r) {
    const std::size_t i = static_cast<std::size_t>(rows[r]);
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(magnitude.begin(), magnitude.end(), 0.0);
    for (std::size_t k = 0; k < K; ++k) {
      const double a = m[i * K + k];
      const float* n_row = &n[k * L];
      for (std::size_t jj = 0; jj < cols.size(); ++jj) {
        const double term = a * static_cast<double>(n_row[cols[jj]]);
        sum[jj] += term;
        magnitude[jj] += std::fabs(term);
      }
    }
    for (std::size_t jj = 0; jj < cols.size(); ++jj) {
      const double gpu = p[i * L + static_cast<std::size_t>(cols[jj])];
      const double difference = std::fabs(gpu - sum[jj]);
      const double error = magnitude[jj] > 0.0 ? difference / magnitude[jj] : difference;
      keep_worst(worst, error, static_cast<std::int64_t>(i), cols[jj]);
      ++worst.compared;
    }
  }
  return worst;
}

std::string cell_name(lecture::Condition c, lecture::BlockClass k, const char* field) {
  return lecture::name(c) + "/" + lecture::name(k) + " " + field;
}

}  // namespace

std::vector<float> random_matrix(std::int64_t rows, std::int64_t cols, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(checked_size(rows, cols));
  for (float& v : values) v = uniform(rng);
  return values;
}

bool ProductCheck::passed() const {
  return non_finite == 0 && entries_compared > 0 && max_relative_error < kProductTolerance;
}

std::vector<std::int64_t> sample_lines(std::int64_t size, int tile, std::size_t count, std::mt19937_64& rng) {
  std::vector<std::int64_t> lines;
  if (size < 1) return lines;
  if (static_cast<std::uint64_t>(size) <= count) {
    for (std::int64_t i = 0; i < size; ++i) lines.push_back(i);
    return lines;
  }
  std::set<std::int64_t> chosen = {0, size - 1};
  // The last tile holds the lines whose checks fail in some threads.
  const std::int64_t last_tile_start = (lecture::ceil_div(size, tile) - 1) * tile;
  for (std::int64_t i = last_tile_start; i < size && chosen.size() < count; ++i) chosen.insert(i);
  std::uniform_int_distribution<std::int64_t> any(0, size - 1);
  while (chosen.size() < count) chosen.insert(any(rng));
  lines.assign(chosen.begin(), chosen.end());
  return lines;
}

ProductCheck check_product(const lecture::LaunchConfig& config, const std::vector<float>& m,
                           const std::vector<float>& n, const std::vector<float>& p, std::mt19937_64& rng,
                           std::uint64_t full_limit) {
  lecture::validate(config);
  if (m.size() != checked_size(config.rows, config.inner) ||
      n.size() != checked_size(config.inner, config.cols) ||
      p.size() != checked_size(config.rows, config.cols))
    throw std::invalid_argument("check_product: matrix sizes do not match the launch");
  ProductCheck check;
  check.entries = p.size();
  for (float v : p) check.non_finite += std::isfinite(v) ? 0 : 1;

  const sim::Count work =
      sim::checked_mul(sim::checked_mul(static_cast<sim::Count>(config.rows), config.inner), config.cols);
  check.every_entry_compared = work <= full_limit;
  const std::size_t lines = check.every_entry_compared ? static_cast<std::size_t>(-1) : kSampledLines;
  const std::vector<std::int64_t> rows = sample_lines(config.rows, config.tile, lines, rng);
  const std::vector<std::int64_t> cols = sample_lines(config.cols, config.tile, lines, rng);

  // Rows split across the host's cores (sim::parallel_for); each part keeps its own worst entry.
  const std::size_t parts =
      std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, std::max<std::size_t>(rows.size(), 1));
  std::vector<WorstEntry> worst(parts);
  sim::parallel_for(parts, static_cast<unsigned>(parts), [&](std::size_t t, unsigned) {
    worst[t] =
        compare_rows(config, m, n, p, rows, rows.size() * t / parts, rows.size() * (t + 1) / parts, cols);
  });
  WorstEntry overall;
  for (const WorstEntry& w : worst) {
    if (w.row >= 0) keep_worst(overall, w.error, w.row, w.col);
    check.entries_compared += w.compared;
  }
  check.max_relative_error = overall.error;
  check.worst_row = overall.row;
  check.worst_col = overall.col;
  return check;
}

std::vector<CountDifference> compare_counts(const lecture::DivergenceResult& model,
                                            const lecture::DivergenceResult& hardware) {
  std::vector<CountDifference> differences;
  const auto compare = [&](std::string cell, sim::Count a, sim::Count b) {
    if (a != b) differences.push_back({std::move(cell), a, b});
  };
  for (lecture::Condition c : lecture::kConditions) {
    for (lecture::BlockClass k : lecture::kBlockClasses) {
      const lecture::ClassCounts& a = model.at(c, k);
      const lecture::ClassCounts& b = hardware.at(c, k);
      compare(cell_name(c, k, "blocks"), a.blocks, b.blocks);
      compare(cell_name(c, k, "warps"), a.warps, b.warps);
      compare(cell_name(c, k, "warp_phases"), a.warp_phases, b.warp_phases);
      compare(cell_name(c, k, "divergent_warp_phases"), a.divergent_warp_phases, b.divergent_warp_phases);
    }
  }
  compare("barrier_hazard_blocks", model.barrier_hazard_blocks, hardware.barrier_hazard_blocks);
  return differences;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 == 1 ? values[half] : (values[half - 1] + values[half]) / 2.0;
}

namespace {
double occupancy_percent(int blocks, int warps_per_block, int max_warps) {
  return max_warps > 0 && blocks > 0 ? 100.0 * blocks * warps_per_block / max_warps : 0.0;
}
}  // namespace

double OccupancyFigures::runtime_percent() const {
  return occupancy_percent(runtime_blocks_per_sm, warps_per_block, max_warps_per_sm);
}

double OccupancyFigures::calculator_percent() const {
  return occupancy_percent(calculator_blocks_per_sm, warps_per_block, max_warps_per_sm);
}

namespace {

std::string yes_no(bool value) { return value ? "yes" : "no"; }

std::string relative_error(const ProductCheck& check) {
  return std::isnan(check.max_relative_error) ? "nan" : format("%.3e", check.max_relative_error);
}

std::string calculator_blocks(const OccupancyFigures& o) {
  return o.calculator_blocks_per_sm < 0 ? "" : std::to_string(o.calculator_blocks_per_sm);
}

// The validation CSV's columns; each divergent count and percentage is a condition's over all
// blocks. The GPU's counts are empty where the probe was not compared warp by warp (its table
// needs every warp's evaluations).
const CsvColumns<ValidationRecord>& validation_csv_columns() {
  using R = const ValidationRecord&;
  using C = lecture::Condition;
  const auto divergent = [](bool model, C c) {
    return [model, c](R r) {
      if (!model && !r.hardware) return std::string();
      const lecture::DivergenceResult& d = model ? r.model : *r.hardware;
      return sim::to_decimal(d.at(c, lecture::BlockClass::all).divergent_warp_phases);
    };
  };
  const auto pct = [](C c) {
    return
        [c](R r) { return format("%.4f", 100.0 * r.model.divergent_fraction(c, lecture::BlockClass::all)); };
  };
  const auto geometry = [](R r) { return lecture::Geometry(r.model.config); };
  static const CsvColumns<ValidationRecord> columns = {
      {"device", [](R r) { return r.device; }},
      {"compute_capability", [](R r) { return r.compute_capability; }},
      {"driver_cuda", [](R r) { return r.driver; }},
      {"runtime_cuda", [](R r) { return r.runtime; }},
      {"nvrtc", [](R r) { return r.probe.nvrtc; }},
      {"date", [](R r) { return r.date; }},
      {"seed", [](R r) { return std::to_string(r.seed); }},
      {"rows", [](R r) { return std::to_string(r.model.config.rows); }},
      {"inner", [](R r) { return std::to_string(r.model.config.inner); }},
      {"cols", [](R r) { return std::to_string(r.model.config.cols); }},
      {"tile", [](R r) { return std::to_string(r.model.config.tile); }},
      {"blocks", [geometry](R r) { return std::to_string(geometry(r).blocks()); }},
      {"warps_per_block", [geometry](R r) { return std::to_string(geometry(r).warps_per_block); }},
      {"phases", [geometry](R r) { return std::to_string(geometry(r).phases); }},
      {"warp_phases",
       [](R r) { return sim::to_decimal(r.model.at(C::load_M, lecture::BlockClass::all).warp_phases); }},
      {"model_load_M_divergent", divergent(true, C::load_M)},
      {"gpu_load_M_divergent", divergent(false, C::load_M)},
      {"model_load_N_divergent", divergent(true, C::load_N)},
      {"gpu_load_N_divergent", divergent(false, C::load_N)},
      {"model_compute_divergent", divergent(true, C::compute)},
      {"gpu_compute_divergent", divergent(false, C::compute)},
      {"model_store_divergent", divergent(true, C::store)},
      {"gpu_store_divergent", divergent(false, C::store)},
      {"model_barrier_hazard_blocks", [](R r) { return sim::to_decimal(r.model.barrier_hazard_blocks); }},
      {"gpu_barrier_hazard_blocks",
       [](R r) { return r.hardware ? sim::to_decimal(r.hardware->barrier_hazard_blocks) : ""; }},
      {"count_fields_differing", [](R r) { return std::to_string(r.count_differences.size()); }},
      {"statements_compared", [](R r) { return std::to_string(r.probe.comparison.statements_compared); }},
      {"warps_compared", [](R r) { return std::to_string(r.probe.comparison.warps_compared); }},
      {"evaluations_compared", [](R r) { return std::to_string(r.probe.comparison.evaluations_compared); }},
      {"warps_differing", [](R r) { return std::to_string(r.probe.comparison.warps_differing); }},
      {"match", [](R r) { return yes_no(r.model_matched()); }},
      {"product_entries_compared", [](R r) { return std::to_string(r.product.entries_compared); }},
      {"product_max_rel_error", [](R r) { return relative_error(r.product); }},
      {"product_ok", [](R r) { return yes_no(r.products_passed()); }},
      {"registers", [](R r) { return std::to_string(r.occupancy.registers_per_thread); }},
      {"shared_bytes", [](R r) { return std::to_string(r.occupancy.static_shared_bytes); }},
      {"runtime_blocks_per_sm", [](R r) { return std::to_string(r.occupancy.runtime_blocks_per_sm); }},
      {"calculator_blocks_per_sm", [](R r) { return calculator_blocks(r.occupancy); }},
      {"occupancy_limit", [](R r) { return r.occupancy.calculator_limit; }},
      {"runtime_occupancy_pct", [](R r) { return format("%.2f", r.occupancy.runtime_percent()); }},
      {"calculator_occupancy_pct", [](R r) { return format("%.2f", r.occupancy.calculator_percent()); }},
      {"occupancy_match", [](R r) { return yes_no(r.occupancy_matched()); }},
      {"kernel_ms", [](R r) { return format("%.6f", r.kernel_ms); }},
      {"model_load_M_divergent_pct", pct(C::load_M)},
      {"model_load_N_divergent_pct", pct(C::load_N)},
      {"model_compute_divergent_pct", pct(C::compute)},
      {"repeats", [](R r) { return std::to_string(r.repeats); }},
      {"all_ok", [](R r) { return yes_no(r.all_passed()); }},
  };
  return columns;
}

}  // namespace

const std::string kValidationCsvHeader = validation_csv_columns().header();

void write_validation_csv_row(std::ostream& out, const ValidationRecord& record) {
  validation_csv_columns().write_row(out, record);
}

namespace {

void write_product_line(std::ostream& out, const char* what, const ProductCheck& c) {
  out << "  " << what << ": " << (c.passed() ? "ok" : "FAILED") << ", max relative error "
      << relative_error(c) << " over "
      << (c.every_entry_compared ? sim::counted(c.entries_compared, "entry", "entries") + " (all)"
                                 : sim::counted(c.entries_compared, "sampled entry", "sampled entries"));
  if (c.worst_row >= 0) out << ", worst at P[" << c.worst_row << "][" << c.worst_col << "]";
  if (c.non_finite > 0)
    out << ", " << sim::counted(c.non_finite, "entry", "entries") << " NaN or infinite (never written?)";
  out << '\n';
}

void write_occupancy_line(std::ostream& out, const char* what, const OccupancyFigures& o) {
  out << "  " << what << ": " << o.registers_per_thread << " registers/thread, " << o.static_shared_bytes
      << " B shared/block; blocks per SM: runtime " << o.runtime_blocks_per_sm << ", calculator ";
  if (o.calculator_blocks_per_sm < 0)
    out << "(not computed)";
  else
    out << o.calculator_blocks_per_sm << " (limited by " << o.calculator_limit << ")";
  out << "; occupancy " << format("%.2f", o.runtime_percent()) << "% / "
      << format("%.2f", o.calculator_percent()) << "%";
  out << (o.matched() ? "  agree" : "  DIFFER") << '\n';
}

}  // namespace

namespace {

void write_table(std::ostream& out, const ValidationRecord& r) {
  const lecture::DivergenceResult& gpu = *r.hardware;
  out << "  condition  class          warp-phases    model      GPU\n";
  for (lecture::Condition cond : lecture::kConditions) {
    for (lecture::BlockClass k : lecture::kBlockClasses) {
      const lecture::ClassCounts& m = r.model.at(cond, k);
      const lecture::ClassCounts& h = gpu.at(cond, k);
      if (m.blocks == 0 && h.blocks == 0) continue;
      char line[160];
      std::snprintf(line, sizeof line, "  %-9s  %-11s %14s %8s %8s%s\n", lecture::name(cond).c_str(),
                    lecture::name(k).c_str(), sim::to_decimal(m.warp_phases).c_str(),
                    sim::to_decimal(m.divergent_warp_phases).c_str(),
                    sim::to_decimal(h.divergent_warp_phases).c_str(), m == h ? "" : "  <- differs");
      out << line;
    }
  }
  out << "  barrier-hazard blocks: model " << sim::to_decimal(r.model.barrier_hazard_blocks) << ", GPU "
      << sim::to_decimal(gpu.barrier_hazard_blocks) << '\n';
  if (r.counts_matched()) {
    out << "  counts: all 20 cells x 4 fields and the hazard agree\n";
    return;
  }
  const CountDifference& d = r.count_differences.front();
  out << "  counts: " << sim::counted(r.count_differences.size(), "field")
      << (r.count_differences.size() == 1 ? " differs" : " differ") << ", first " << d.cell << ": model "
      << sim::to_decimal(d.model) << ", GPU " << sim::to_decimal(d.hardware) << '\n';
}

std::string divergent_percent(const ValidationRecord& r, lecture::Condition c) {
  const lecture::ClassCounts& all = r.model.at(c, lecture::BlockClass::all);
  return percent(all.divergent_warp_phases, all.warp_phases);
}

}  // namespace

void write_validation_text(std::ostream& out, const ValidationRecord& r) {
  const lecture::LaunchConfig& c = r.model.config;
  const lecture::Geometry g(c);
  out << "warpdiv validate: " << lecture::describe(c) << "\n"
      << "on " << r.device << " (compute capability " << r.compute_capability << ", driver CUDA " << r.driver
      << ", runtime " << r.runtime << ", NVRTC " << r.probe.nvrtc << "), " << r.date << ", seed " << r.seed
      << "\n"
      << "grid " << g.grid_x << " x " << g.grid_y << " blocks, " << sim::counted(g.warps_per_block, "warp")
      << " per block, " << sim::counted(g.phases, "phase")
      << "\nkernel: TiledMatMul of kernels/zoo/tiled_matmul_rect.cu, the file the model is read "
         "from\n\n";

  out << "(a) P against a CPU double-precision reference (tolerance " << kProductTolerance
      << ", inputs uniform in [-1, 1), P poisoned with NaN before the run)\n";
  write_product_line(out, "TiledMatMul", r.product);

  out << "\n(b) the four checks: the model against the GPU probe of the same source (every warp "
         "evaluation by __ballot_sync)\n";
  if (r.hardware)
    write_table(out, r);
  else
    out << "  table: not built (the launch is above the probe's warp-by-warp limit; the "
           "statements' totals are compared)\n";
  out << "  probe: " << sim::counted(r.probe.comparison.statements_compared, "statement") << " compared";
  if (r.probe.warp_by_warp)
    out << ", " << sim::counted(r.probe.comparison.warps_compared, "warp") << " and "
        << sim::counted(r.probe.comparison.evaluations_compared, "warp evaluation") << " one by one";
  out << "; " << r.probe.outcome << '\n';

  out << "\n(c) occupancy: the CUDA runtime vs the calculator\n";
  write_occupancy_line(out, "TiledMatMul", r.occupancy);

  out << "\n(d) time, median of " << r.repeats << " (CUDA events)\n"
      << "  TiledMatMul " << c.rows << " x " << c.inner << " x " << c.cols << ": "
      << format("%.4f", r.kernel_ms) << " ms; model's divergent warp-phases: load_M "
      << divergent_percent(r, lecture::Condition::load_M) << ", load_N "
      << divergent_percent(r, lecture::Condition::load_N) << ", compute "
      << divergent_percent(r, lecture::Condition::compute) << "\n\n";
  out << (r.all_passed() ? "validate: everything agrees\n" : "validate: MISMATCH\n");
}

std::string failure_summary(const ValidationRecord& r) {
  std::vector<std::string> parts;
  if (!r.counts_matched()) {
    const CountDifference& d = r.count_differences.front();
    parts.push_back(std::to_string(r.count_differences.size()) + " counts differ from the model (first " +
                    d.cell + ": model " + sim::to_decimal(d.model) + ", GPU " + sim::to_decimal(d.hardware) +
                    ")");
  }
  if (!r.probe.comparison.agree()) parts.push_back("the probe: " + r.probe.outcome);
  if (!r.product.passed())
    parts.push_back("P of TiledMatMul: max relative error " + relative_error(r.product) + ", " +
                    std::to_string(r.product.non_finite) + " entries NaN or infinite");
  if (!r.occupancy.matched())
    parts.push_back("blocks per SM of TiledMatMul: runtime " +
                    std::to_string(r.occupancy.runtime_blocks_per_sm) + ", calculator " +
                    std::to_string(r.occupancy.calculator_blocks_per_sm));
  std::string summary;
  for (const std::string& part : parts) summary += (summary.empty() ? "" : "; ") + part;
  return summary;
}

}  // namespace warpdiv::analysis
