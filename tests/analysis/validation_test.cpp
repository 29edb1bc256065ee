// The host half of `warpdiv validate`, against figures worked out by hand (in the comments).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "analysis/lecture/validation.hpp"
#include "analysis/lecture/lecture_source.hpp"
#include "tests/oracle/lane_masks.hpp"

namespace warpdiv::analysis {
namespace {

std::size_t count_fields(const std::string& line) {
  return static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1;
}

// ---- P against the reference ----------------------------------------------------------------

// M = [1 2; 3 4], N = [5 6; 7 8]: P = [19 22; 43 50], and sum_k |M_ik N_kj| = P (all positive).
const std::vector<float> kM = {1, 2, 3, 4};
const std::vector<float> kN = {5, 6, 7, 8};

TEST(CheckProduct, ExactProductPasses) {
  std::mt19937_64 rng(1);
  const ProductCheck c = check_product(lecture::LaunchConfig::shape(2, 2, 2, 16), kM, kN, {19, 22, 43, 50}, rng);
  EXPECT_TRUE(c.passed());
  EXPECT_EQ(c.entries, 4u);
  EXPECT_EQ(c.entries_compared, 4u);
  EXPECT_TRUE(c.every_entry_compared);
  EXPECT_EQ(c.max_relative_error, 0.0);
  EXPECT_EQ(c.non_finite, 0u);
}

TEST(CheckProduct, ErrorIsRelativeToTheTermsAndNamesTheWorstEntry) {
  std::mt19937_64 rng(1);
  // P[1][0] off by 0.001: 0.001 / (|3*5| + |4*7|) = 0.001 / 43 = 2.3256e-5 > 1e-5.
  const ProductCheck c = check_product(lecture::LaunchConfig::shape(2, 2, 2, 16), kM, kN, {19, 22, 43.001f, 50}, rng);
  EXPECT_FALSE(c.passed());
  EXPECT_NEAR(c.max_relative_error, 0.001 / 43, 1e-7);  // float 43.001 is within 4e-6 of it
  EXPECT_EQ(c.worst_row, 1);
  EXPECT_EQ(c.worst_col, 0);
}

TEST(CheckProduct, CancellingSumUsesTheMagnitudeOfTheTerms) {
  std::mt19937_64 rng(1);
  // M = [1 -1], N = [1; 1]: P_ref = 0 but the terms have magnitude 2, so 1e-6 is 5e-7.
  const ProductCheck c = check_product(lecture::LaunchConfig::shape(1, 2, 1, 4), {1, -1}, {1, 1}, {1e-6f}, rng);
  EXPECT_TRUE(c.passed());
  EXPECT_NEAR(c.max_relative_error, 5e-7, 1e-12);
}

TEST(CheckProduct, LeftOverPoisonFails) {
  std::mt19937_64 rng(1);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const ProductCheck c = check_product(lecture::LaunchConfig::shape(2, 2, 2, 16), kM, kN, {19, nan, 43, 50}, rng);
  EXPECT_FALSE(c.passed());
  EXPECT_EQ(c.non_finite, 1u);
  EXPECT_TRUE(std::isnan(c.max_relative_error));
  EXPECT_EQ(c.worst_row, 0);
  EXPECT_EQ(c.worst_col, 1);
}

TEST(CheckProduct, WrongSizesAreAnInternalError) {
  std::mt19937_64 rng(1);
  EXPECT_THROW(check_product(lecture::LaunchConfig::shape(2, 2, 2, 16), kM, kN, {19, 22, 43}, rng),
               std::invalid_argument);
}

TEST(CheckProduct, LargeProductsAreSampledIncludingTheLastTile) {
  // 200 x 3 x 150 with the full-comparison limit at 0: 64 sampled rows x 64 sampled columns.
  const lecture::LaunchConfig c = lecture::LaunchConfig::shape(200, 3, 150, 16);
  std::mt19937_64 rng(7);
  const std::vector<float> m = random_matrix(200, 3, rng);
  const std::vector<float> n = random_matrix(3, 150, rng);
  std::vector<float> p(200 * 150);
  for (int i = 0; i < 200; ++i)
    for (int j = 0; j < 150; ++j)
      for (int k = 0; k < 3; ++k)
        p[i * 150 + j] += m[i * 3 + k] * n[k * 150 + j];
  ProductCheck ok = check_product(c, m, n, p, rng, 0);
  EXPECT_FALSE(ok.every_entry_compared);
  EXPECT_EQ(ok.entries_compared, 64u * 64u);
  EXPECT_TRUE(ok.passed()) << ok.max_relative_error;
  // The bottom-right entry lies in the last tile, which every sample includes.
  p[199 * 150 + 149] += 1.0f;
  const ProductCheck bad = check_product(c, m, n, p, rng, 0);
  EXPECT_FALSE(bad.passed());
  EXPECT_EQ(bad.worst_row, 199);
  EXPECT_EQ(bad.worst_col, 149);
}

TEST(SampleLines, SmallSizesTakeEveryLine) {
  std::mt19937_64 rng(1);
  EXPECT_EQ(sample_lines(5, 16, 64, rng), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  // "All of them": a count larger than any size (this once looped forever).
  EXPECT_EQ(sample_lines(100, 16, std::numeric_limits<std::size_t>::max(), rng).size(), 100u);
}

TEST(SampleLines, LargeSizesKeepTheEdgesAndTheLastTile) {
  std::mt19937_64 rng(3);
  // 1000 lines, T = 16: 63 tiles, the last starts at 62 * 16 = 992.
  const std::vector<std::int64_t> lines = sample_lines(1000, 16, 64, rng);
  ASSERT_EQ(lines.size(), 64u);
  EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end()));
  EXPECT_EQ(lines.front(), 0);
  for (std::int64_t i = 992; i < 1000; ++i)
    EXPECT_TRUE(std::binary_search(lines.begin(), lines.end(), i)) << i;
  EXPECT_EQ(std::adjacent_find(lines.begin(), lines.end()), lines.end());  // no repeats
  EXPECT_LT(lines.back(), 1000);
}

// ---- counts ----------------------------------------------------------------------------------

TEST(CompareCounts, EqualTablesAgree) {
  const lecture::DivergenceResult model = analysis::lecture_counts(lecture::LaunchConfig::square(100));
  EXPECT_TRUE(compare_counts(model, model).empty());
}

TEST(CompareCounts, NamesEveryDifferingField) {
  const lecture::DivergenceResult model = analysis::lecture_counts(lecture::LaunchConfig::square(100));
  lecture::DivergenceResult gpu = model;
  // The lecture's corner block has 2 divergent load_M warp-phases (hand count in replay_test).
  gpu.at(lecture::Condition::load_M, lecture::BlockClass::corner).divergent_warp_phases = 3;
  gpu.barrier_hazard_blocks = 12;
  const std::vector<CountDifference> d = compare_counts(model, gpu);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].cell, "load_M/corner divergent_warp_phases");
  EXPECT_EQ(d[0].model, 2u);
  EXPECT_EQ(d[0].hardware, 3u);
  EXPECT_EQ(d[1].cell, "barrier_hazard_blocks");
  EXPECT_EQ(d[1].model, 13u);
  EXPECT_EQ(d[1].hardware, 12u);
}

// ---- records ---------------------------------------------------------------------------------

// Records as the instrumented kernel writes them, built here lane by lane from the per-thread
// conditions (not from the model's lane masks): 2 bits per condition, 0 none, 1 some, 2 all.
struct Records {
  std::vector<std::uint8_t> phases;
  std::vector<std::uint8_t> stores;
};

std::uint8_t code(int passing, int existing) {
  return passing == 0 ? 0 : passing == existing ? 2 : 1;
}

Records records_from_lanes(const lecture::LaunchConfig& c) {
  const std::int64_t T = c.tile;
  const std::int64_t gx = (c.cols + T - 1) / T;
  const std::int64_t gy = (c.rows + T - 1) / T;
  const std::int64_t phases = (c.inner + T - 1) / T;
  const int threads = c.tile * c.tile;
  const int warps = (threads + 31) / 32;
  Records r;
  for (std::int64_t by = 0; by < gy; ++by)
    for (std::int64_t bx = 0; bx < gx; ++bx)
      for (int w = 0; w < warps; ++w) {
        const auto count = [&](lecture::Condition cond, std::int64_t p, int& existing) {
          int passing = 0;
          existing = 0;
          for (int thread = w * 32; thread < std::min(threads, w * 32 + 32); ++thread) {
            ++existing;
            passing += sim::condition_holds(cond, c, bx, by, p, thread % c.tile,
                                            thread / c.tile) ? 1 : 0;
          }
          return passing;
        };
        int existing = 0;
        for (std::int64_t p = 0; p < phases; ++p) {
          const int m = count(lecture::Condition::load_M, p, existing);
          const int n = count(lecture::Condition::load_N, p, existing);
          const int k = count(lecture::Condition::compute, p, existing);
          r.phases.push_back(static_cast<std::uint8_t>(
              code(m, existing) | code(n, existing) << 2 | code(k, existing) << 4));
        }
        r.stores.push_back(code(count(lecture::Condition::store, 0, existing), existing));
      }
  return r;
}

TEST(CompareRecords, LectureRecordsMatchEveryWarpPhase) {
  const lecture::LaunchConfig c = lecture::LaunchConfig::square(100);
  const Records r = records_from_lanes(c);
  const RecordComparison result = compare_records(c, r.phases, r.stores);
  EXPECT_TRUE(result.matched()) << result.first_mismatch;
  EXPECT_EQ(result.warp_phases_compared, 2744u);  // 49 blocks * 8 warps * 7 phases
  EXPECT_EQ(result.warps_compared, 392u);
}

TEST(CompareRecords, PartialWarpsMatch) {
  // T = 7: 49 threads, warps of 32 and 17 lanes; T = 31: 961 threads, the last warp 1 lane.
  for (const lecture::LaunchConfig& c : {lecture::LaunchConfig::shape(64, 48, 80, 7), lecture::LaunchConfig::shape(31, 70, 33, 31),
                                     lecture::LaunchConfig::shape(5, 3, 7, 16)}) {
    const Records r = records_from_lanes(c);
    const RecordComparison result = compare_records(c, r.phases, r.stores);
    EXPECT_TRUE(result.matched()) << lecture::describe(c) << ": " << result.first_mismatch;
  }
}

TEST(CompareRecords, NamesTheFirstMismatch) {
  const lecture::LaunchConfig c = lecture::LaunchConfig::square(100);
  Records r = records_from_lanes(c);
  // Block (6, 0) is a right-edge block; its warp 3 in phase 2 has load_N divergent (Col < 100
  // only for tx < 4): claim all lanes passed instead. Index ((0 * 7 + 6) * 8 + 3) * 7 + 2 = 359.
  ASSERT_EQ(r.phases[359] >> 2 & 3, 1);
  r.phases[359] = static_cast<std::uint8_t>((r.phases[359] & ~0x0C) | 2 << 2);
  r.stores[0] = 0xFF;  // block (0, 0) warp 0: never written
  const RecordComparison result = compare_records(c, r.phases, r.stores);
  EXPECT_EQ(result.mismatches, 2u);
  EXPECT_EQ(result.first_mismatch,
            "store in block (0, 0) [interior], warp 0 (after the loop): the model says all lanes "
            "pass, the GPU's ballot says no valid record (byte 0xff)");
  r.stores[0] = 2;
  const RecordComparison second = compare_records(c, r.phases, r.stores);
  EXPECT_EQ(second.mismatches, 1u);
  EXPECT_EQ(second.first_mismatch,
            "load_N in block (6, 0) [right_edge], warp 3, phase 2: the model says divergent, "
            "the GPU's ballot says all lanes pass");
}

TEST(CompareRecords, WrongSizesAreAnInternalError) {
  const lecture::LaunchConfig c = lecture::LaunchConfig::square(100);
  Records r = records_from_lanes(c);
  r.phases.pop_back();
  EXPECT_THROW(compare_records(c, r.phases, r.stores), std::invalid_argument);
}

// ---- timings ---------------------------------------------------------------------------------

TEST(Median, OddEvenAndEmpty) {
  EXPECT_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_EQ(median({}), 0.0);
}

// ---- the recorded row ------------------------------------------------------------------------

ValidationRecord lecture_record() {
  ValidationRecord r;
  r.device = "Test GPU, rev. \"A\"";  // needs CSV quoting
  r.compute_capability = "9.0";
  r.driver = "13.0";
  r.runtime = "13.0";
  r.date = "2026-01-01T00:00:00Z";
  r.seed = 42;
  r.repeats = 5;
  r.model = analysis::lecture_counts(lecture::LaunchConfig::square(100));
  r.hardware = r.model;
  r.records = RecordComparison{2744, 392, 0, ""};
  for (ProductCheck* p : {&r.checked_product, &r.instrumented_product, &r.unchecked_product}) {
    p->entries = p->entries_compared = 10000;
    p->every_entry_compared = true;
    p->max_relative_error = 2e-7;
  }
  for (OccupancyFigures* o : {&r.checked_occupancy, &r.instrumented_occupancy,
                              &r.unchecked_occupancy}) {
    o->registers_per_thread = 32;
    o->static_shared_bytes = 2048;
    o->runtime_blocks_per_sm = o->calculator_blocks_per_sm = 8;
    o->calculator_limit = "warps";
    o->warps_per_block = 8;
    o->max_warps_per_sm = 64;
  }
  r.checked_ms = 0.0105;
  r.unchecked_ms = 0.0100;
  return r;
}

TEST(ValidationCsv, RowMatchesTheHeader) {
  std::ostringstream out;
  write_validation_csv_row(out, lecture_record());
  const std::string row = out.str();
  ASSERT_EQ(row.back(), '\n');
  // The device name holds a comma and quotes: one quoted field.
  EXPECT_EQ(row.rfind("\"Test GPU, rev. \"\"A\"\"\",9.0,13.0,13.0,2026-01-01T00:00:00Z,42,", 0), 0u)
      << row;
  EXPECT_EQ(count_fields(row) - 1, count_fields(kValidationCsvHeader));  // the name's comma
  // Lecture: 7 x 7 blocks, 8 warps, 7 phases, 2744 warp-phases; divergent load_M 350,
  // load_N 350, compute 7 x 50 = 350, store 50 (right_edge 6 x 8 + corner 2); hazard 13 blocks.
  EXPECT_NE(row.find(",100,100,100,16,49,8,7,2744,350,350,350,350,350,350,50,50,13,13,0,2744,0,yes,"),
            std::string::npos)
      << row;
  // 8 blocks x 8 warps of 64: 100% both ways.
  EXPECT_NE(row.find(",warps,100.00,100.00,yes,"), std::string::npos) << row;
  // (10.5 / 10.0 - 1) = 5.00%; 350 / 2744 = 12.7551%.
  EXPECT_NE(row.find(",5.00,12.7551,12.7551,12.7551,5,yes\n"), std::string::npos) << row;
}

// The schema of the validation CSV, as the H200 run recorded in data/validation wrote it.
const std::string kValidationSchema =
    "device,compute_capability,driver_cuda,runtime_cuda,date,seed,rows,inner,cols,tile,blocks,"
    "warps_per_block,phases,warp_phases,model_load_M_divergent,gpu_load_M_divergent,"
    "model_load_N_divergent,gpu_load_N_divergent,model_compute_divergent,gpu_compute_divergent,"
    "model_store_divergent,gpu_store_divergent,model_barrier_hazard_blocks,"
    "gpu_barrier_hazard_blocks,count_fields_differing,warp_phases_compared,record_mismatches,"
    "match,product_entries_compared,product_max_rel_error,product_ok,registers_checked,"
    "shared_bytes_checked,runtime_blocks_per_sm_checked,calculator_blocks_per_sm_checked,"
    "registers_instrumented,runtime_blocks_per_sm_instrumented,"
    "calculator_blocks_per_sm_instrumented,registers_unchecked,runtime_blocks_per_sm_unchecked,"
    "calculator_blocks_per_sm_unchecked,occupancy_limit_checked,runtime_occupancy_pct_checked,"
    "calculator_occupancy_pct_checked,occupancy_match,checked_ms,unchecked_ms,checks_cost_pct,"
    "model_load_M_divergent_pct,model_load_N_divergent_pct,model_compute_divergent_pct,repeats,"
    "all_ok";

TEST(ValidationCsv, HeaderIsTheRecordedSchema) {
  // `validate --csv` writes kValidationCsvHeader as its first line (tests/tools/
  // validate_gpu_cli_test.cpp); the recorded run's file must stay readable under it.
  EXPECT_EQ(std::string(kValidationCsvHeader), kValidationSchema);
  std::ifstream recorded(WARPDIV_SOURCE_DIR "/data/validation/nvidia-h200.csv");
  std::string first_line;
  ASSERT_TRUE(std::getline(recorded, first_line));
  EXPECT_EQ(first_line, kValidationSchema);
}

TEST(ValidationText, AgreementAndMismatch) {
  ValidationRecord r = lecture_record();
  std::ostringstream ok;
  write_validation_text(ok, r);
  EXPECT_NE(ok.str().find("validate: everything agrees"), std::string::npos) << ok.str();
  EXPECT_NE(ok.str().find("cost of the checks: +5.00%"), std::string::npos) << ok.str();
  EXPECT_TRUE(failure_summary(r).empty());

  r.hardware.at(lecture::Condition::load_N, lecture::BlockClass::right_edge).divergent_warp_phases = 0;
  r.count_differences = compare_counts(r.model, r.hardware);
  r.unchecked_occupancy.calculator_blocks_per_sm = 7;
  std::ostringstream bad;
  write_validation_text(bad, r);
  EXPECT_NE(bad.str().find("validate: MISMATCH"), std::string::npos);
  EXPECT_FALSE(r.all_passed());
  const std::string summary = failure_summary(r);
  EXPECT_NE(summary.find("first load_N/right_edge divergent_warp_phases"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("blocks per SM of the unchecked kernel: runtime 8, calculator 7"),
            std::string::npos)
      << summary;
  EXPECT_EQ(summary.find('\n'), std::string::npos);  // one line
}

}  // namespace
}  // namespace warpdiv::analysis
