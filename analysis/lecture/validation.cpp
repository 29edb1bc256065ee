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
#include "sim/message_text.hpp"
#include "analysis/lecture/conditions.hpp"
#include "analysis/lecture/lane_agreement.hpp"

namespace warpdiv::analysis {

namespace {

std::size_t checked_size(std::int64_t a, std::int64_t b) {
  return static_cast<std::size_t>(sim::checked_mul(static_cast<sim::Count>(a),
                                                   static_cast<sim::Count>(b)));
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

std::vector<std::int64_t> sample_lines(std::int64_t size, int tile, std::size_t count,
                                       std::mt19937_64& rng) {
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
                           const std::vector<float>& n, const std::vector<float>& p,
                           std::mt19937_64& rng, std::uint64_t full_limit) {
  lecture::validate(config);
  if (m.size() != checked_size(config.rows, config.inner) ||
      n.size() != checked_size(config.inner, config.cols) ||
      p.size() != checked_size(config.rows, config.cols))
    throw std::invalid_argument("check_product: matrix sizes do not match the launch");
  ProductCheck check;
  check.entries = p.size();
  for (float v : p) check.non_finite += std::isfinite(v) ? 0 : 1;

  const sim::Count work = sim::checked_mul(
      sim::checked_mul(static_cast<sim::Count>(config.rows), config.inner), config.cols);
  check.every_entry_compared = work <= full_limit;
  const std::size_t lines =
      check.every_entry_compared ? static_cast<std::size_t>(-1) : kSampledLines;
  const std::vector<std::int64_t> rows = sample_lines(config.rows, config.tile, lines, rng);
  const std::vector<std::int64_t> cols = sample_lines(config.cols, config.tile, lines, rng);

  // Rows split across the host's cores; each thread keeps its own worst entry.
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                                      std::max<std::size_t>(rows.size(), 1));
  std::vector<WorstEntry> worst(threads);
  std::vector<std::thread> workers;
  for (std::size_t t = 0; t < threads; ++t) {
    const std::size_t begin = rows.size() * t / threads;
    const std::size_t end = rows.size() * (t + 1) / threads;
    workers.emplace_back([&, t, begin, end] {
      worst[t] = compare_rows(config, m, n, p, rows, begin, end, cols);
    });
  }
  for (std::thread& w : workers) w.join();
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
      compare(cell_name(c, k, "divergent_warp_phases"), a.divergent_warp_phases,
              b.divergent_warp_phases);
    }
  }
  compare("barrier_hazard_blocks", model.barrier_hazard_blocks, hardware.barrier_hazard_blocks);
  return differences;
}

namespace {
std::string describe_record(std::uint8_t record, lecture::Condition c) {
  const lecture::Agreement a = lecture::unpack(record, c);
  if (static_cast<int>(a) > static_cast<int>(lecture::Agreement::all)) {
    std::ostringstream s;
    s << "no valid record (byte 0x" << std::hex << static_cast<int>(record) << ")";
    return s.str();
  }
  return lecture::name(a);
}
}  // namespace

RecordComparison compare_records(const lecture::LaunchConfig& config,
                                 const std::vector<std::uint8_t>& phase_records,
                                 const std::vector<std::uint8_t>& store_records) {
  const lecture::Geometry g(config);
  const std::size_t warps = checked_size(checked_size(g.grid_x, g.grid_y), g.warps_per_block);
  const std::size_t phases = static_cast<std::size_t>(g.phases);
  if (store_records.size() != warps || phase_records.size() != warps * phases)
    throw std::invalid_argument("compare_records: " + std::to_string(phase_records.size()) +
                                " phase records and " + std::to_string(store_records.size()) +
                                " store records, expected " + std::to_string(warps * phases) +
                                " and " + std::to_string(warps));
  const LectureRecords model = lecture_records(config);
  RecordComparison result;
  const auto mismatch = [&](std::int64_t bx, std::int64_t by, int w, const std::string& when,
                            lecture::Condition c, lecture::Agreement expected, std::uint8_t record) {
    ++result.mismatches;
    if (!result.first_mismatch.empty()) return;
    std::ostringstream s;
    s << lecture::name(c) << " in block (" << bx << ", " << by << ") ["
      << lecture::name(lecture::classify_block(g, bx, by)) << "], warp " << w << when << ": the model says "
      << lecture::name(expected) << ", the GPU's ballot says " << describe_record(record, c);
    result.first_mismatch = s.str();
  };
  std::size_t warp_index = 0;
  for (std::int64_t by = 0; by < g.grid_y; ++by) {
    for (std::int64_t bx = 0; bx < g.grid_x; ++bx) {
      for (int w = 0; w < g.warps_per_block; ++w, ++warp_index) {
        for (std::size_t p = 0; p < phases; ++p) {
          const std::uint8_t expected = model.phases[warp_index * phases + p];
          const std::uint8_t record = phase_records[warp_index * phases + p];
          ++result.warp_phases_compared;
          if (record == expected) continue;
          const std::string when = ", phase " + std::to_string(p);
          // Name the first condition that differs (a mismatch counts once per warp-phase).
          lecture::Condition c = lecture::Condition::compute;
          for (const lecture::Condition k : {lecture::Condition::load_M, lecture::Condition::load_N})
            if (lecture::unpack(record, k) != lecture::unpack(expected, k)) {
              c = k;
              break;
            }
          mismatch(bx, by, w, when, c, lecture::unpack(expected, c), record);
        }
        const std::uint8_t expected = model.stores[warp_index];
        const std::uint8_t store = store_records[warp_index];
        ++result.warps_compared;
        if (store != expected)
          mismatch(bx, by, w, " (after the loop)", lecture::Condition::store,
                   static_cast<lecture::Agreement>(expected), store);
      }
    }
  }
  return result;
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

bool ValidationRecord::products_passed() const {
  return checked_product.passed() && instrumented_product.passed() && unchecked_product.passed();
}

bool ValidationRecord::occupancy_matched() const {
  return checked_occupancy.matched() && instrumented_occupancy.matched() &&
         unchecked_occupancy.matched();
}

double ValidationRecord::checks_cost_percent() const {
  return unchecked_ms > 0.0 ? (checked_ms / unchecked_ms - 1.0) * 100.0 : 0.0;
}

namespace {

std::string yes_no(bool value) { return value ? "yes" : "no"; }

std::string relative_error(const ProductCheck& check) {
  return std::isnan(check.max_relative_error) ? "nan" : format("%.3e", check.max_relative_error);
}

double worst_error(const ValidationRecord& r) {
  double worst = 0.0;
  for (const ProductCheck* c : {&r.checked_product, &r.instrumented_product, &r.unchecked_product}) {
    if (std::isnan(c->max_relative_error)) return c->max_relative_error;
    worst = std::max(worst, c->max_relative_error);
  }
  return worst;
}

std::string calculator_blocks(const OccupancyFigures& o) {
  return o.calculator_blocks_per_sm < 0 ? "" : std::to_string(o.calculator_blocks_per_sm);
}


// The validation CSV's columns; each divergent count and percentage is a condition's over all
// blocks.
const CsvColumns<ValidationRecord>& validation_csv_columns() {
  using R = const ValidationRecord&;
  using C = lecture::Condition;
  const auto divergent = [](bool model, C c) {
    return [model, c](R r) {
      const lecture::DivergenceResult& d = model ? r.model : r.hardware;
      return sim::to_decimal(d.at(c, lecture::BlockClass::all).divergent_warp_phases);
    };
  };
  const auto pct = [](C c) {
    return [c](R r) {
      return format("%.4f", 100.0 * r.model.divergent_fraction(c, lecture::BlockClass::all));
    };
  };
  const auto geometry = [](R r) { return lecture::Geometry(r.model.config); };
  static const CsvColumns<ValidationRecord> columns = {
      {"device", [](R r) { return r.device; }},
      {"compute_capability", [](R r) { return r.compute_capability; }},
      {"driver_cuda", [](R r) { return r.driver; }},
      {"runtime_cuda", [](R r) { return r.runtime; }},
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
       [](R r) {
         return sim::to_decimal(r.model.at(C::load_M, lecture::BlockClass::all).warp_phases);
       }},
      {"model_load_M_divergent", divergent(true, C::load_M)},
      {"gpu_load_M_divergent", divergent(false, C::load_M)},
      {"model_load_N_divergent", divergent(true, C::load_N)},
      {"gpu_load_N_divergent", divergent(false, C::load_N)},
      {"model_compute_divergent", divergent(true, C::compute)},
      {"gpu_compute_divergent", divergent(false, C::compute)},
      {"model_store_divergent", divergent(true, C::store)},
      {"gpu_store_divergent", divergent(false, C::store)},
      {"model_barrier_hazard_blocks", [](R r) { return sim::to_decimal(r.model.barrier_hazard_blocks); }},
      {"gpu_barrier_hazard_blocks", [](R r) { return sim::to_decimal(r.hardware.barrier_hazard_blocks); }},
      {"count_fields_differing", [](R r) { return std::to_string(r.count_differences.size()); }},
      {"warp_phases_compared",
       [](R r) { return std::to_string(r.records ? r.records->warp_phases_compared : 0); }},
      {"record_mismatches", [](R r) { return std::to_string(r.records ? r.records->mismatches : 0); }},
      {"match", [](R r) { return yes_no(r.model_matched()); }},
      {"product_entries_compared",
       [](R r) { return std::to_string(r.checked_product.entries_compared); }},
      {"product_max_rel_error",
       [](R r) {
         ProductCheck errors;  // the worst relative error of the three kernels' products
         errors.max_relative_error = worst_error(r);
         return relative_error(errors);
       }},
      {"product_ok", [](R r) { return yes_no(r.products_passed()); }},
      {"registers_checked",
       [](R r) { return std::to_string(r.checked_occupancy.registers_per_thread); }},
      {"shared_bytes_checked",
       [](R r) { return std::to_string(r.checked_occupancy.static_shared_bytes); }},
      {"runtime_blocks_per_sm_checked",
       [](R r) { return std::to_string(r.checked_occupancy.runtime_blocks_per_sm); }},
      {"calculator_blocks_per_sm_checked", [](R r) { return calculator_blocks(r.checked_occupancy); }},
      {"registers_instrumented",
       [](R r) { return std::to_string(r.instrumented_occupancy.registers_per_thread); }},
      {"runtime_blocks_per_sm_instrumented",
       [](R r) { return std::to_string(r.instrumented_occupancy.runtime_blocks_per_sm); }},
      {"calculator_blocks_per_sm_instrumented",
       [](R r) { return calculator_blocks(r.instrumented_occupancy); }},
      {"registers_unchecked",
       [](R r) { return std::to_string(r.unchecked_occupancy.registers_per_thread); }},
      {"runtime_blocks_per_sm_unchecked",
       [](R r) { return std::to_string(r.unchecked_occupancy.runtime_blocks_per_sm); }},
      {"calculator_blocks_per_sm_unchecked",
       [](R r) { return calculator_blocks(r.unchecked_occupancy); }},
      {"occupancy_limit_checked", [](R r) { return r.checked_occupancy.calculator_limit; }},
      {"runtime_occupancy_pct_checked",
       [](R r) { return format("%.2f", r.checked_occupancy.runtime_percent()); }},
      {"calculator_occupancy_pct_checked",
       [](R r) { return format("%.2f", r.checked_occupancy.calculator_percent()); }},
      {"occupancy_match", [](R r) { return yes_no(r.occupancy_matched()); }},
      {"checked_ms", [](R r) { return format("%.6f", r.checked_ms); }},
      {"unchecked_ms", [](R r) { return format("%.6f", r.unchecked_ms); }},
      {"checks_cost_pct", [](R r) { return format("%.2f", r.checks_cost_percent()); }},
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
      << (c.every_entry_compared
              ? sim::counted(c.entries_compared, "entry", "entries") + " (all)"
              : sim::counted(c.entries_compared, "sampled entry", "sampled entries"));
  if (c.worst_row >= 0) out << ", worst at P[" << c.worst_row << "][" << c.worst_col << "]";
  if (c.non_finite > 0)
    out << ", " << sim::counted(c.non_finite, "entry", "entries")
        << " NaN or infinite (never written?)";
  out << '\n';
}

void write_occupancy_line(std::ostream& out, const char* what, const OccupancyFigures& o) {
  out << "  " << what << ": " << o.registers_per_thread << " registers/thread, "
      << o.static_shared_bytes << " B shared/block; blocks per SM: runtime "
      << o.runtime_blocks_per_sm << ", calculator ";
  if (o.calculator_blocks_per_sm < 0)
    out << "(not computed)";
  else
    out << o.calculator_blocks_per_sm << " (limited by " << o.calculator_limit << ")";
  out << "; occupancy " << format("%.2f", o.runtime_percent()) << "% / "
      << format("%.2f", o.calculator_percent()) << "%";
  out << (o.matched() ? "  agree" : "  DIFFER") << '\n';
}

}  // namespace

void write_validation_text(std::ostream& out, const ValidationRecord& r) {
  const lecture::LaunchConfig& c = r.model.config;
  const lecture::Geometry g(c);
  out << "warpdiv validate: " << lecture::describe(c) << "\n"
      << "on " << r.device << " (compute capability " << r.compute_capability << ", driver CUDA "
      << r.driver << ", runtime " << r.runtime << "), " << r.date << ", seed " << r.seed << "\n"
      << "grid " << g.grid_x << " x " << g.grid_y << " blocks, "
      << sim::counted(g.warps_per_block, "warp") << " per block, " << sim::counted(g.phases, "phase")
      << "\n\n";

  out << "(a) P against a CPU double-precision reference (tolerance " << kProductTolerance
      << ", inputs uniform in [-1, 1), P poisoned with NaN before each run)\n";
  write_product_line(out, "checked kernel     ", r.checked_product);
  write_product_line(out, "instrumented twin  ", r.instrumented_product);
  write_product_line(out, "unchecked (padded) ", r.unchecked_product);

  out << "\n(b) divergent warp-phases: model vs the GPU's __ballot_sync\n"
      << "  condition  class          warp-phases    model      GPU\n";
  for (lecture::Condition cond : lecture::kConditions) {
    for (lecture::BlockClass k : lecture::kBlockClasses) {
      const lecture::ClassCounts& m = r.model.at(cond, k);
      const lecture::ClassCounts& h = r.hardware.at(cond, k);
      if (m.blocks == 0 && h.blocks == 0) continue;
      char line[160];
      std::snprintf(line, sizeof line, "  %-9s  %-11s %14s %8s %8s%s\n", lecture::name(cond).c_str(),
                    lecture::name(k).c_str(), sim::to_decimal(m.warp_phases).c_str(),
                    sim::to_decimal(m.divergent_warp_phases).c_str(),
                    sim::to_decimal(h.divergent_warp_phases).c_str(),
                    m == h ? "" : "  <- differs");
      out << line;
    }
  }
  out << "  barrier-hazard blocks: model " << sim::to_decimal(r.model.barrier_hazard_blocks)
      << ", GPU " << sim::to_decimal(r.hardware.barrier_hazard_blocks) << '\n';
  if (r.counts_matched()) {
    out << "  counts: all 20 cells x 4 fields and the hazard agree\n";
  } else {
    out << "  counts: " << sim::counted(r.count_differences.size(), "field")
        << (r.count_differences.size() == 1 ? " differs" : " differ") << ", first "
        << r.count_differences.front().cell << ": model "
        << sim::to_decimal(r.count_differences.front().model) << ", GPU "
        << sim::to_decimal(r.count_differences.front().hardware) << '\n';
  }
  if (r.records) {
    out << "  per warp-phase: " << sim::counted(r.records->warp_phases_compared, "warp-phase")
        << " and " << sim::counted(r.records->warps_compared, "store") << " compared exactly, "
        << sim::counted(r.records->mismatches, "mismatch", "mismatches");
    if (!r.records->matched()) out << "; first: " << r.records->first_mismatch;
    out << '\n';
  } else {
    out << "  per warp-phase: not recorded (above the record limit; counts compared)\n";
  }

  out << "\n(c) occupancy: the CUDA runtime vs the calculator\n";
  write_occupancy_line(out, "checked     ", r.checked_occupancy);
  write_occupancy_line(out, "instrumented", r.instrumented_occupancy);
  write_occupancy_line(out, "unchecked   ", r.unchecked_occupancy);

  const lecture::LaunchConfig p{g.grid_y * c.tile, g.phases * c.tile, g.grid_x * c.tile, c.tile,
                            c.warp_size};
  out << "\n(d) time, median of " << r.repeats << " (CUDA events)\n"
      << "  checked kernel   " << c.rows << " x " << c.inner << " x " << c.cols << ": "
      << format("%.4f", r.checked_ms) << " ms\n"
      << "  unchecked kernel " << p.rows << " x " << p.inner << " x " << p.cols
      << " (padded, same grid): " << format("%.4f", r.unchecked_ms) << " ms\n"
      << "  cost of the checks: " << format("%+.2f", r.checks_cost_percent())
      << "%; model's divergent warp-phases: load_M "
      << percent(r.model.at(lecture::Condition::load_M, lecture::BlockClass::all).divergent_warp_phases,
                 r.model.at(lecture::Condition::load_M, lecture::BlockClass::all).warp_phases)
      << ", load_N "
      << percent(r.model.at(lecture::Condition::load_N, lecture::BlockClass::all).divergent_warp_phases,
                 r.model.at(lecture::Condition::load_N, lecture::BlockClass::all).warp_phases)
      << ", compute "
      << percent(r.model.at(lecture::Condition::compute, lecture::BlockClass::all).divergent_warp_phases,
                 r.model.at(lecture::Condition::compute, lecture::BlockClass::all).warp_phases)
      << "\n\n";
  out << (r.all_passed() ? "validate: everything agrees\n" : "validate: MISMATCH\n");
}

std::string failure_summary(const ValidationRecord& r) {
  std::vector<std::string> parts;
  if (!r.counts_matched()) {
    const CountDifference& d = r.count_differences.front();
    parts.push_back(std::to_string(r.count_differences.size()) +
                    " counts differ from the model (first " + d.cell + ": model " +
                    sim::to_decimal(d.model) + ", GPU " + sim::to_decimal(d.hardware) + ")");
  }
  if (!r.records_matched())
    parts.push_back(std::to_string(r.records->mismatches) +
                    " warp-phase records differ (first: " + r.records->first_mismatch + ")");
  const std::pair<const char*, const ProductCheck*> products[] = {
      {"checked", &r.checked_product},
      {"instrumented", &r.instrumented_product},
      {"unchecked", &r.unchecked_product}};
  for (const auto& [what, check] : products) {
    if (check->passed()) continue;
    parts.push_back(std::string("P of the ") + what + " kernel: max relative error " +
                    relative_error(*check) + ", " + std::to_string(check->non_finite) +
                    " entries NaN or infinite");
  }
  const std::pair<const char*, const OccupancyFigures*> occupancies[] = {
      {"checked", &r.checked_occupancy},
      {"instrumented", &r.instrumented_occupancy},
      {"unchecked", &r.unchecked_occupancy}};
  for (const auto& [what, o] : occupancies) {
    if (o->matched()) continue;
    parts.push_back(std::string("blocks per SM of the ") + what + " kernel: runtime " +
                    std::to_string(o->runtime_blocks_per_sm) + ", calculator " +
                    std::to_string(o->calculator_blocks_per_sm));
  }
  std::string summary;
  for (const std::string& part : parts) summary += (summary.empty() ? "" : "; ") + part;
  return summary;
}

}  // namespace warpdiv::analysis
