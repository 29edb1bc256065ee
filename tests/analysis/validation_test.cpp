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
  const ProductCheck c =
      check_product(lecture::LaunchConfig::shape(2, 2, 2, 16), kM, kN, {19, 22, 43, 50}, rng);
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
  const ProductCheck c =
      check_product(lecture::LaunchConfig::shape(2, 2, 2, 16), kM, kN, {19, 22, 43.001f, 50}, rng);
  EXPECT_FALSE(c.passed());
  EXPECT_NEAR(c.max_relative_error, 0.001 / 43, 1e-7);  // float 43.001 is within 4e-6 of it
  EXPECT_EQ(c.worst_row, 1);
  EXPECT_EQ(c.worst_col, 0);
}

TEST(CheckProduct, CancellingSumUsesTheMagnitudeOfTheTerms) {
  std::mt19937_64 rng(1);
  // M = [1 -1], N = [1; 1]: P_ref = 0 but the terms have magnitude 2, so 1e-6 is 5e-7.
  const ProductCheck c =
      check_product(lecture::LaunchConfig::shape(1, 2, 1, 4), {1, -1}, {1, 1}, {1e-6f}, rng);
  EXPECT_TRUE(c.passed());
  EXPECT_NEAR(c.max_relative_error, 5e-7, 1e-12);
}

TEST(CheckProduct, LeftOverPoisonFails) {
  std::mt19937_64 rng(1);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const ProductCheck c =
      check_product(lecture::LaunchConfig::shape(2, 2, 2, 16), kM, kN, {19, nan, 43, 50}, rng);
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
      for (int k = 0; k < 3; ++k) p[i * 150 + j] += m[i * 3 + k] * n[k * 150 + j];
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

// ---- the lecture's table of a warp trace ------------------------------------------------------

// A trace as the GPU probe of the lecture source records it, built here lane by lane from the
// per-thread conditions (tests/oracle/lane_masks.hpp, not from the model): each warp evaluates
// load_M, load_N and compute once per phase, then the store once; every existing lane is active
// (the kernel has no early exit). Only the four ifs are in it: lecture_table() reads nothing else.
sim::ir::WarpTrace trace_from_lanes(const lecture::LaunchConfig& c) {
  const sim::ir::Kernel& model = lecture_model();
  // The four checks sit on lines 32, 37, 44 and 49 of kernels/zoo/tiled_matmul_rect.cu.
  std::array<sim::ir::StmtId, 4> ifs{};
  const std::uint32_t lines[] = {32, 37, 44, 49};
  for (std::size_t id = 0; id < model.stmts.size(); ++id)
    for (std::size_t k = 0; k < 4; ++k)
      if (model.stmts[id].kind == sim::ir::StmtKind::If && model.stmts[id].range.line == lines[k])
        ifs[k] = static_cast<sim::ir::StmtId>(id);
  const std::int64_t T = c.tile;
  const std::int64_t gx = (c.cols + T - 1) / T, gy = (c.rows + T - 1) / T;
  const std::int64_t phases = (c.inner + T - 1) / T;
  const int threads = c.tile * c.tile;
  const int warps = (threads + c.warp_size - 1) / c.warp_size;
  sim::ir::WarpTrace trace;
  trace.warps_per_block = static_cast<std::uint32_t>(warps);
  trace.offsets.push_back(0);
  for (std::int64_t by = 0; by < gy; ++by)
    for (std::int64_t bx = 0; bx < gx; ++bx)
      for (int w = 0; w < warps; ++w) {
        const auto evaluate = [&](lecture::Condition cond, std::int64_t p) {
          sim::ir::WarpEvaluation e;
          e.statement = ifs[static_cast<std::size_t>(cond)];
          for (int lane = 0; lane < c.warp_size && w * c.warp_size + lane < threads; ++lane) {
            const int thread = w * c.warp_size + lane;
            e.active |= std::uint64_t{1} << lane;
            if (sim::condition_holds(cond, c, bx, by, p, thread % c.tile, thread / c.tile))
              e.taken |= std::uint64_t{1} << lane;
          }
          trace.evaluations.push_back(e);
        };
        for (std::int64_t p = 0; p < phases; ++p)
          for (lecture::Condition cond :
               {lecture::Condition::load_M, lecture::Condition::load_N, lecture::Condition::compute})
            evaluate(cond, p);
        evaluate(lecture::Condition::store, 0);
        trace.counts.push_back(trace.evaluations.size() - trace.offsets.back());
        trace.offsets.push_back(trace.evaluations.size());
      }
  return trace;
}

TEST(LectureTable, AGpuTraceOfTheLanesIsTheModelsTable) {
  // Square, rectangular with partial warps (T = 5: 25 threads), and a warp of 16 lanes.
  for (const lecture::LaunchConfig& c :
       {lecture::LaunchConfig::square(100), lecture::LaunchConfig::shape(70, 33, 45, 5),
        lecture::LaunchConfig::shape(40, 17, 23, 8, 16), lecture::LaunchConfig::square(7, 1)}) {
    SCOPED_TRACE(lecture::describe(c));
    const lecture::DivergenceResult table = lecture_table(lecture_model(), c, trace_from_lanes(c));
    EXPECT_TRUE(table == lecture_counts(c));
  }
  // By hand at 100 x 100 x 100, T = 16: 7 x 7 blocks of 8 warps, 7 phases: 2,744 warp-phases per
  // phase check, 350 divergent in load_M; 50 divergent stores; 13 blocks with a partial store.
  const lecture::DivergenceResult t = lecture_table(lecture_model(), lecture::LaunchConfig::square(100),
                                                    trace_from_lanes(lecture::LaunchConfig::square(100)));
  EXPECT_EQ(t.at(lecture::Condition::load_M, lecture::BlockClass::all).warp_phases, 2744u);
  EXPECT_EQ(t.at(lecture::Condition::load_M, lecture::BlockClass::all).divergent_warp_phases, 350u);
  EXPECT_EQ(t.at(lecture::Condition::store, lecture::BlockClass::all).divergent_warp_phases, 50u);
  EXPECT_EQ(t.at(lecture::Condition::store, lecture::BlockClass::corner).blocks, 1u);
  EXPECT_EQ(t.barrier_hazard_blocks, 13u);
}

TEST(LectureTable, AWarpThatDisagreesChangesItsCell) {
  const lecture::LaunchConfig c = lecture::LaunchConfig::square(100);
  sim::ir::WarpTrace trace = trace_from_lanes(c);
  // The first warp of block (6, 0) (the first block of the right edge): its first evaluation is
  // load_M of phase 0, which every lane passes; make it divergent.
  const std::uint64_t w = 6 * trace.warps_per_block;
  trace.evaluations[trace.offsets[w]].taken = 1;
  const lecture::DivergenceResult table = lecture_table(lecture_model(), c, trace);
  const std::vector<CountDifference> d = compare_counts(lecture_counts(c), table);
  ASSERT_EQ(d.size(), 2u);  // the right_edge cell and the `all` column
  EXPECT_EQ(d[0].cell, "load_M/right_edge divergent_warp_phases");
  EXPECT_EQ(d[0].hardware, d[0].model + 1);
}

TEST(LectureTable, ATraceOfAnotherLaunchIsAnInternalError) {
  EXPECT_THROW(lecture_table(lecture_model(), lecture::LaunchConfig::square(100),
                             trace_from_lanes(lecture::LaunchConfig::square(50))),
               std::invalid_argument);
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
  r.probe.nvrtc = "13.0";
  r.probe.warp_by_warp = true;
  r.probe.comparison.statements_compared = 21;
  r.probe.comparison.warps_compared = 392;
  r.probe.comparison.evaluations_compared = 30000;
  r.probe.outcome = "agree";
  r.product.entries = r.product.entries_compared = 10000;
  r.product.every_entry_compared = true;
  r.product.max_relative_error = 2e-7;
  r.occupancy.registers_per_thread = 32;
  r.occupancy.static_shared_bytes = 8192;
  r.occupancy.runtime_blocks_per_sm = r.occupancy.calculator_blocks_per_sm = 8;
  r.occupancy.calculator_limit = "warps";
  r.occupancy.warps_per_block = 8;
  r.occupancy.max_warps_per_sm = 64;
  r.kernel_ms = 0.0105;
  return r;
}

TEST(ValidationCsv, RowMatchesTheHeader) {
  std::ostringstream out;
  write_validation_csv_row(out, lecture_record());
  const std::string row = out.str();
  ASSERT_EQ(row.back(), '\n');
  // The device name holds a comma and quotes: one quoted field.
  EXPECT_EQ(row.rfind("\"Test GPU, rev. \"\"A\"\"\",9.0,13.0,13.0,13.0,2026-01-01T00:00:00Z,42,", 0), 0u)
      << row;
  EXPECT_EQ(count_fields(row) - 1, count_fields(kValidationCsvHeader));  // the name's comma
  // Lecture: 7 x 7 blocks, 8 warps, 7 phases, 2744 warp-phases; divergent load_M 350,
  // load_N 350, compute 7 x 50 = 350, store 50 (right_edge 6 x 8 + corner 2); hazard 13 blocks.
  EXPECT_NE(row.find(",100,100,100,16,49,8,7,2744,350,350,350,350,350,350,50,50,13,13,0,21,392,30000,0,yes,"),
            std::string::npos)
      << row;
  // 8 blocks x 8 warps of 64: 100% both ways.
  EXPECT_NE(row.find(",32,8192,8,8,warps,100.00,100.00,yes,"), std::string::npos) << row;
  // 350 / 2744 = 12.7551%.
  EXPECT_NE(row.find(",0.010500,12.7551,12.7551,12.7551,5,yes\n"), std::string::npos) << row;
}

TEST(ValidationCsv, WithoutTheGpusTableItsCountsAreEmpty) {
  ValidationRecord r = lecture_record();
  r.hardware.reset();
  r.probe.warp_by_warp = false;
  std::ostringstream out;
  write_validation_csv_row(out, r);
  EXPECT_NE(out.str().find(",2744,350,,350,,350,,50,,13,,0,"), std::string::npos) << out.str();
}

// The schema of the validation CSV since the lecture runs through the general probe;
// files of earlier versions (data/validation/nvidia-h200.csv) have the twin kernels' columns.
const std::string kValidationSchema =
    "device,compute_capability,driver_cuda,runtime_cuda,nvrtc,date,seed,rows,inner,cols,tile,"
    "blocks,warps_per_block,phases,warp_phases,model_load_M_divergent,gpu_load_M_divergent,"
    "model_load_N_divergent,gpu_load_N_divergent,model_compute_divergent,gpu_compute_divergent,"
    "model_store_divergent,gpu_store_divergent,model_barrier_hazard_blocks,"
    "gpu_barrier_hazard_blocks,count_fields_differing,statements_compared,warps_compared,"
    "evaluations_compared,warps_differing,match,product_entries_compared,product_max_rel_error,"
    "product_ok,registers,shared_bytes,runtime_blocks_per_sm,calculator_blocks_per_sm,"
    "occupancy_limit,runtime_occupancy_pct,calculator_occupancy_pct,occupancy_match,kernel_ms,"
    "model_load_M_divergent_pct,model_load_N_divergent_pct,model_compute_divergent_pct,repeats,"
    "all_ok";

TEST(ValidationCsv, HeaderIsTheSchema) { EXPECT_EQ(std::string(kValidationCsvHeader), kValidationSchema); }

TEST(ValidationText, AgreementAndMismatch) {
  ValidationRecord r = lecture_record();
  std::ostringstream ok;
  write_validation_text(ok, r);
  EXPECT_NE(ok.str().find("validate: everything agrees"), std::string::npos) << ok.str();
  EXPECT_NE(ok.str().find("TiledMatMul 100 x 100 x 100: 0.0105 ms"), std::string::npos) << ok.str();
  EXPECT_NE(ok.str().find("counts: all 20 cells x 4 fields and the hazard agree"), std::string::npos)
      << ok.str();
  EXPECT_TRUE(failure_summary(r).empty());

  r.hardware->at(lecture::Condition::load_N, lecture::BlockClass::right_edge).divergent_warp_phases = 0;
  r.count_differences = compare_counts(r.model, *r.hardware);
  r.occupancy.calculator_blocks_per_sm = 7;
  std::ostringstream bad;
  write_validation_text(bad, r);
  EXPECT_NE(bad.str().find("validate: MISMATCH"), std::string::npos);
  EXPECT_FALSE(r.all_passed());
  const std::string summary = failure_summary(r);
  EXPECT_NE(summary.find("first load_N/right_edge divergent_warp_phases"), std::string::npos) << summary;
  EXPECT_NE(summary.find("blocks per SM of TiledMatMul: runtime 8, calculator 7"), std::string::npos)
      << summary;
  EXPECT_EQ(summary.find('\n'), std::string::npos);  // one line
}

}  // namespace
}  // namespace warpdiv::analysis
