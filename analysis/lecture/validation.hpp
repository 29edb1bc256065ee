// The host half of `warpdiv validate`: random inputs, the CPU double-precision reference, the
// lecture's table of the model against the GPU's (its probe's warp trace seen by the lecture), and
// the recorded row (CSV) of one validated configuration. No CUDA here: the GPU figures arrive as
// plain data from kernels/.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "sim/support/count.hpp"
#include "analysis/lecture/divergence.hpp"
#include "analysis/probe_comparison.hpp"
#include "analysis/lecture/launch.hpp"

namespace warpdiv::analysis {

/// rows x cols floats drawn uniformly from [-1, 1), row-major.
std::vector<float> random_matrix(std::int64_t rows, std::int64_t cols, std::mt19937_64& rng);

// ---- P against the CPU reference ------------------------------------------------------------

/// Largest relative error accepted, where the error of P[i][j] is
/// |P - P_ref| / sum_k |M[i][k] * N[k][j]|: relative to the size of the terms summed, because
/// plain |P - P_ref| / |P_ref| is meaningless where random terms cancel to nearly zero.
constexpr double kProductTolerance = 1e-5;
/// Up to this many multiply-adds (J*K*L) every entry is compared; above, a sample of rows x
/// columns (always the first and the last rows and columns and those of the last tile).
constexpr std::uint64_t kFullReferenceMultiplyAdds = std::uint64_t{1} << 30;
/// Rows (and columns) in the sample of a large product.
constexpr std::size_t kSampledLines = 64;

struct ProductCheck {
  std::uint64_t entries = 0;           // J*L, every one scanned for NaN/Inf (left-over poison)
  std::uint64_t non_finite = 0;        // entries that are NaN or infinite
  std::uint64_t entries_compared = 0;  // against the double-precision reference
  bool every_entry_compared = false;
  double max_relative_error = 0.0;  // NaN when a compared entry is not finite
  std::int64_t worst_row = -1;
  std::int64_t worst_col = -1;

  bool passed() const;
};

/// Rows (or columns) 0..size-1 to compare: all of them when size <= count, otherwise the first,
/// the last tile's and random ones up to `count`, sorted.
std::vector<std::int64_t> sample_lines(std::int64_t size, int tile, std::size_t count, std::mt19937_64& rng);

/// Compares P (J x L) with the double-precision product of M (J x K) and N (K x L): every entry
/// when J*K*L <= full_limit, else sample_lines() rows x columns. Every entry is scanned for NaN.
ProductCheck check_product(const lecture::LaunchConfig& config, const std::vector<float>& m,
                           const std::vector<float>& n, const std::vector<float>& p, std::mt19937_64& rng,
                           std::uint64_t full_limit = kFullReferenceMultiplyAdds);

// ---- the model against the hardware ---------------------------------------------------------

struct CountDifference {
  std::string cell;  // "load_M/corner divergent_warp_phases" or "barrier_hazard_blocks"
  sim::Count model = 0;
  sim::Count hardware = 0;
};

/// Every field of every cell (20 cells x 4 fields) and the barrier-hazard blocks; empty = agree.
std::vector<CountDifference> compare_counts(const lecture::DivergenceResult& model,
                                            const lecture::DivergenceResult& hardware);

// ---- timings ------------------------------------------------------------------------------------

/// The median (mean of the two middle values for an even count); 0 for no values.
double median(std::vector<double> values);

// ---- the recorded row -----------------------------------------------------------------------

/// Occupancy of one kernel two ways: the CUDA runtime's and the calculator's.
struct OccupancyFigures {
  int registers_per_thread = 0;
  std::uint64_t static_shared_bytes = 0;
  int runtime_blocks_per_sm = 0;      // cudaOccupancyMaxActiveBlocksPerMultiprocessor
  int calculator_blocks_per_sm = -1;  // -1: not computed
  std::string calculator_limit;       // the calculator's limiting factors ("warps+blocks")
  int warps_per_block = 0;
  int max_warps_per_sm = 0;  // the device's

  bool matched() const { return runtime_blocks_per_sm == calculator_blocks_per_sm; }
  /// Theoretical occupancy in percent: blocks per SM * warps per block / max warps per SM.
  double runtime_percent() const;
  double calculator_percent() const;
};

/// The probe of the lecture model on the GPU (analysis/probe_comparison.hpp), seen by the lecture.
struct ProbeFigures {
  std::string nvrtc;           // "13.0"
  bool warp_by_warp = false;   // every warp evaluation compared (else totals only)
  ProbeComparison comparison;  // per statement, and warp by warp when recorded
  std::string outcome;         // comparison.summary()
};

/// Everything `warpdiv validate` checked for one configuration.
struct ValidationRecord {
  // provenance
  std::string device;              // "NVIDIA H200"
  std::string compute_capability;  // "9.0"
  std::string driver;              // "13.0" (the CUDA version the driver supports)
  std::string runtime;             // "13.0"
  std::string date;                // UTC, ISO 8601
  std::uint64_t seed = 0;
  int repeats = 0;

  /// The lecture's table: the model's, and the GPU's from its probe's warp trace (lecture_table()
  /// of it); the GPU's only when the probe was compared warp by warp.
  lecture::DivergenceResult model;
  std::optional<lecture::DivergenceResult> hardware;
  std::vector<CountDifference> count_differences;
  ProbeFigures probe;

  ProductCheck product;        // P of the real kernel (kernels/zoo/tiled_matmul_rect.cu)
  OccupancyFigures occupancy;  // the real kernel's
  double kernel_ms = 0.0;      // median

  bool counts_matched() const { return count_differences.empty(); }
  bool products_passed() const { return product.passed(); }
  bool occupancy_matched() const { return occupancy.matched(); }
  /// The model agrees with the GPU: the probe's every statement (and, where recorded, every warp
  /// evaluation) and the lecture's table.
  bool model_matched() const { return counts_matched() && probe.comparison.agree(); }
  bool all_passed() const { return model_matched() && products_passed() && occupancy_matched(); }
};

/// The header of the validation CSV (one row per configuration), from the column list that
/// write_validation_csv_row writes.
extern const std::string kValidationCsvHeader;

void write_validation_csv_row(std::ostream& out, const ValidationRecord& record);

/// The readable report of one configuration.
void write_validation_text(std::ostream& out, const ValidationRecord& record);

/// One line naming what failed ("counts differ in 2 cells (first: ...); P of the checked kernel
/// has relative error 3e-4 ..."); empty when everything passed.
std::string failure_summary(const ValidationRecord& record);

}  // namespace warpdiv::analysis
