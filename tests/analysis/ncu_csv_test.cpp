// The ncu CSV reader and the cross-check, on text laid out as `ncu --csv --page raw` writes it:
// progress lines first, every field quoted, a units row, thousands separators. The calculator's
// figures in the comments are worked out by hand.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <string>

#include "analysis/lecture/ncu_crosscheck.hpp"
#include "analysis/ncu_csv.hpp"
#include "sim/support/errors.hpp"
#include "analysis/lecture/lecture_source.hpp"

namespace warpdiv::analysis {
namespace {

const std::string kHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
    "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"device__attribute_max_blocks_per_multiprocessor\","
    "\"device__attribute_max_registers_per_multiprocessor\","
    "\"device__attribute_max_shared_memory_per_multiprocessor\","
    "\"device__attribute_max_threads_per_multiprocessor\",\"launch__block_size\","
    "\"launch__grid_size\",\"launch__occupancy_limit_blocks\",\"launch__occupancy_limit_registers\","
    "\"launch__occupancy_limit_shared_mem\",\"launch__occupancy_limit_warps\","
    "\"launch__registers_per_thread\",\"launch__shared_mem_config_size\","
    "\"launch__shared_mem_per_block_dynamic\",\"launch__shared_mem_per_block_static\","
    "\"sm__maximum_warps_per_active_cycle_pct\","
    "\"smsp__sass_average_branch_targets_threads_uniform.pct\","
    "\"smsp__sass_branch_targets_threads_divergent.sum\"\n";
const std::string kUnits =
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"block\",\"register\",\"byte\","
    "\"thread\",\"\",\"\",\"block\",\"block\",\"block\",\"block\",\"register/thread\",\"byte\","
    "\"byte/block\",\"byte/block\",\"%\",\"%\",\"\"\n";

std::string row(int id, const std::string& kernel, const std::string& block, const std::string& grid,
                const std::string& limits, const std::string& rest) {
  return "\"" + std::to_string(id) + "\",\"4242\",\"warpdiv\",\"127.0.0.1\",\"" + kernel +
         "\",\"1\",\"7\",\"" + block + "\",\"" + grid +
         "\",\"0\",\"9.0\",\"32\",\"65,536\",\"233,472\",\"2,048\"," + limits + "," + rest + "\n";
}

const std::string kChecked16 =
    "void warpdiv::kernels::tiled_matmul_checked<16>(const float *, const float *, float *, long "
    "long, long long, long long)";
const std::string kTwin16 =
    "void warpdiv::kernels::tiled_matmul_instrumented<16>(const float *, const float *, float *, "
    "long long, long long, long long, warpdiv::kernels::detail::TwinOutputs)";

// The lecture launch (grid 7 x 7, T = 16) on a cc 9.0 GPU, 32 registers per thread:
//   warps: 64 warps per SM / 8 per block = 8 blocks;
//   registers: 32 x 32 = 1024 per warp, 65536 per SM = 64 warps = 8 blocks;
//   shared memory: 2048 static + 1024 reserved = 3072 per block; the driver chose a 64 KiB
//   configuration: 65536 / 3072 = 21 blocks;  blocks: 32.
//   theoretical occupancy: min = 8 blocks x 8 warps = 64 of 64 warps = 100%.
// The twin: 40 registers -> 1280 per warp, 51 warps per SM -> 12 per sub-partition of 16384
// registers (4 x 12 = 48 warps) = 6 blocks; shared 2148 + 1024 = 3172, rounded up to 128-byte
// units = 3200: 65536 / 3200 = 20 blocks; occupancy 6 x 8 = 48 of 64 = 75%.
std::string lecture_csv(const std::string& twin_shared_limit = "20") {
  return "==PROF== Connected to process 4242 (/root/.devbin/warpdiv)\n"
         "==PROF== Profiling \"tiled_matmul_checked\" - 0: 0%....50%....100% - 9 passes\n"
         "warpdiv validate: M[100 x 100] * N[100 x 100], tile 16 x 16, warp size 32\n"
         "==PROF== Disconnected from process 4242\n" +
         kHeader + kUnits +
         row(0, kChecked16, "(16, 16, 1)", "(7, 7, 1)", "\"256\",\"49\",\"32\",\"8\",\"21\",\"8\"",
             "\"32\",\"65,536\",\"0\",\"2,048\",\"100\",\"100\",\"0\"") +
         row(1, "void at::native::vectorized_elementwise_kernel<4>(int)", "(128, 1, 1)", "(1, 1, 1)",
             "\"128\",\"1\",\"32\",\"16\",\"\",\"16\"", "\"16\",\"0\",\"0\",\"0\",\"100\",\"n/a\",\"0\"") +
         row(2, kTwin16, "(16, 16, 1)", "(7, 7, 1)",
             "\"256\",\"49\",\"32\",\"6\",\"" + twin_shared_limit + "\",\"8\"",
             "\"40\",\"65,536\",\"0\",\"2,148\",\"75\",\"97.5\",\"14\"") +
         "==PROF== Report: trailing line that is not part of the table\n";
}

TEST(NcuNumber, ThousandsSeparatorsAndRefusals) {
  EXPECT_EQ(parse_ncu_number("1,024"), 1024.0);
  EXPECT_EQ(parse_ncu_number("1,234,567.5"), 1234567.5);
  EXPECT_EQ(parse_ncu_number("93.75"), 93.75);
  EXPECT_EQ(parse_ncu_number("-0.5"), -0.5);
  EXPECT_EQ(parse_ncu_number(" 42 "), 42.0);
  EXPECT_EQ(parse_ncu_number("1e+06"), 1e6);
  for (const char* bad : {"", "n/a", "1,02", "12,3456", ",123", "1,,000", "1.0,000", "inf", "nan", "12abc"})
    EXPECT_FALSE(parse_ncu_number(bad).has_value()) << bad;
}

TEST(NcuDim3, ParsesAndRefuses) {
  EXPECT_EQ(parse_ncu_dim3("(16, 16, 1)"), (std::vector<std::int64_t>{16, 16, 1}));
  EXPECT_THROW(parse_ncu_dim3("(65,536, 1, 1)"), InvalidInput);  // ambiguous: refused
  EXPECT_THROW(parse_ncu_dim3("16x16"), InvalidInput);
  EXPECT_THROW(parse_ncu_dim3("(a, 1, 1)"), InvalidInput);
}

TEST(NcuCsv, SkipsPreambleUnitsAndTrailer) {
  const std::vector<NcuLaunch> launches = parse_ncu_csv(lecture_csv(), "lecture.csv");
  ASSERT_EQ(launches.size(), 3u);
  EXPECT_EQ(launches[0].id, 0);
  EXPECT_EQ(launches[0].kernel_name, kChecked16);
  EXPECT_EQ(launches[0].block_size, "(16, 16, 1)");
  EXPECT_EQ(launches[0].grid_size, "(7, 7, 1)");
  EXPECT_EQ(launches[0].compute_capability, "9.0");
  EXPECT_EQ(launches[0].metric(ncu_metric::kSharedConfig), 65536.0);
  EXPECT_EQ(launches[0].metric(ncu_metric::kSharedPerSm), 233472.0);
  EXPECT_EQ(launches[0].metric(ncu_metric::kLimitSharedMem), 21.0);
  EXPECT_EQ(launches[0].units.at(ncu_metric::kStaticShared), "byte/block");
  // "n/a" and an empty field are absent, not zero.
  EXPECT_FALSE(launches[1].metric(ncu_metric::kBranchUniformPct).has_value());
  EXPECT_FALSE(launches[1].metric(ncu_metric::kLimitSharedMem).has_value());
  EXPECT_FALSE(launches[0].metric(ncu_metric::kAchievedOccupancy).has_value());  // no column
  EXPECT_THROW(launches[1].require(ncu_metric::kLimitSharedMem), InvalidInput);
  EXPECT_EQ(launches[2].metric(ncu_metric::kDivergentBranchTargets), 14.0);
}

TEST(NcuCsv, RefusesTextWithoutATable) {
  EXPECT_THROW(parse_ncu_csv("==PROF== No kernels were profiled.\n", "empty.csv"), InvalidInput);
  EXPECT_THROW(parse_ncu_csv(kHeader + kUnits, "units-only.csv"), InvalidInput);
  try {
    parse_ncu_csv("hello\n", "x.csv");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("x.csv"), std::string::npos) << e.what();
  }
}

TEST(NcuCsv, ReadsAFileOrNamesTheFlag) {
  try {
    read_ncu_csv("/nonexistent/ncu.csv", "--ncu-csv");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("--ncu-csv"), std::string::npos) << e.what();
  }
}

TEST(NcuCrosscheck, LectureAgreesWithTheCalculator) {
  const lecture::DivergenceResult model = analysis::lecture_counts(lecture::LaunchConfig::square(100));
  const NcuCrosscheck check = crosscheck_ncu(parse_ncu_csv(lecture_csv(), "lecture.csv"), model,
                                             {{"checked", 32}, {"instrumented", 40}});
  ASSERT_EQ(check.kernels.size(), 2u);  // the PyTorch kernel is skipped
  EXPECT_EQ(check.kernels[0].kernel, "checked");
  EXPECT_EQ(check.kernels[1].kernel, "instrumented");
  for (const NcuKernelCheck& k : check.kernels) {
    for (const CrosscheckFigure& f : k.figures)
      EXPECT_TRUE(f.matched) << k.kernel << ": " << f.what << " ncu " << f.ncu << ", " << f.other;
    EXPECT_EQ(k.figures.size(), 7u);  // config, 4 limits, occupancy, registers
  }
  EXPECT_TRUE(check.matched());
  EXPECT_EQ(check.kernels[1].branch_uniform_pct, 97.5);
  std::ostringstream text;
  write_ncu_crosscheck_text(text, check);
  EXPECT_NE(text.str().find("ncu agrees with the calculator"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("load_M 350/2744 (12.76%)"), std::string::npos) << text.str();
}

TEST(NcuCrosscheck, NamesTheFigureThatDiffers) {
  const lecture::DivergenceResult model = analysis::lecture_counts(lecture::LaunchConfig::square(100));
  const NcuCrosscheck check =
      crosscheck_ncu(parse_ncu_csv(lecture_csv("21"), "x.csv"), model, {{"instrumented", 41}});
  EXPECT_FALSE(check.matched());
  EXPECT_TRUE(check.kernels[0].matched());
  std::vector<std::string> differing;
  for (const CrosscheckFigure& f : check.kernels[1].figures)
    if (!f.matched) differing.push_back(f.what);
  EXPECT_EQ(differing,
            (std::vector<std::string>{"occupancy limit: shared memory (blocks)", "registers per thread"}));
}

TEST(NcuCrosscheck, RefusesAnotherLaunch) {
  // The CSV profiles a 7 x 7 grid of 16 x 16 blocks; 200 x 200 would be 13 x 13.
  EXPECT_THROW(crosscheck_ncu(parse_ncu_csv(lecture_csv(), "x.csv"),
                              analysis::lecture_counts(lecture::LaunchConfig::square(200)), {}),
               InvalidInput);
  EXPECT_THROW(crosscheck_ncu(parse_ncu_csv(lecture_csv(), "x.csv"),
                              analysis::lecture_counts(lecture::LaunchConfig::square(100, 8)), {}),
               InvalidInput);
}

TEST(NcuCrosscheck, KernelKindsByTheirNcuNames) {
  // Kernel names as ncu printed them: the one kernel validate runs (an extern "C" name) and the
  // hand-written kernels of earlier versions (data/validation/ncu/*.csv).
  EXPECT_EQ(lecture_kernel_kind("TiledMatMul"), "TiledMatMul");
  EXPECT_EQ(lecture_kernel_kind("void warpdiv::kernels::tiled_matmul_checked<16>(const float *, "
                                "const float *, float *, long, long, long)"),
            "checked");
  EXPECT_EQ(lecture_kernel_kind("void warpdiv::kernels::tiled_matmul_unchecked<32>(const float *)"),
            "unchecked");
  EXPECT_EQ(lecture_kernel_kind("void warpdiv::kernels::tiled_matmul_instrumented<8>(int)"), "instrumented");
  EXPECT_EQ(lecture_kernel_kind("void tiled_matmul_other(float *)"), "");
  EXPECT_EQ(lecture_kernel_kind("MatrixMulCUDA"), "");
}

// ---- strict values, physical lines, RFC 4180 ------------------------------------------------

std::string error_of(const std::string& text) {
  try {
    parse_ncu_csv(text, "x.csv");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

// lecture_csv() with its first occurrence of `from` replaced.
std::string lecture_with(const std::string& from, const std::string& to) {
  std::string text = lecture_csv();
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(NcuCsvStrict, LineNumbersCountTheProgressLinesAndTheUnitsRow) {
  // lecture_csv(): 4 progress lines, the header on line 5, units on 6, launch 0 on line 7.
  const std::vector<NcuLaunch> launches = parse_ncu_csv(lecture_csv(), "lecture.csv");
  EXPECT_EQ(launches[0].where, "lecture.csv:7");
  EXPECT_EQ(launches[2].where, "lecture.csv:9");
  EXPECT_EQ(error_of(lecture_with("\"0\",\"4242\"", "\"1e300\",\"4242\"")),
            "x.csv:7: column 'ID': '1e300' is not a launch number (an integer from 0 to "
            "9007199254740992)");
}

// lecture_csv()'s header (line 5) with its 7th column, "Stream", renamed to its 22nd,
// launch__registers_per_thread: either could be read as the registers; neither is.
TEST(NcuCsvStrict, AColumnNamedTwiceIsRefused) {
  EXPECT_EQ(error_of(lecture_with("\"Stream\",", "\"launch__registers_per_thread\",")),
            "x.csv:5: header: column 'launch__registers_per_thread' appears twice (columns 7 and 22; every "
            "column name must be unique)");
}

TEST(NcuCsvStrict, IntegersOnlyWhereIntegersAreMeant) {
  // Launch 0's registers per thread ("32") and its warps limit ("8") are integers.
  EXPECT_EQ(error_of(lecture_with("\"32\",\"65,536\",\"0\"", "\"31.9\",\"65,536\",\"0\"")),
            "x.csv:7: column 'launch__registers_per_thread': '31.9' is not an integer from 0 to "
            "2147483647");
  EXPECT_NE(error_of(lecture_with("\"0\",\"4242\"", "\"1.5\",\"4242\"")).find("x.csv:7: column 'ID': '1.5'"),
            std::string::npos);
  EXPECT_NE(error_of(lecture_with("\"32\",\"65,536\",\"0\"", "\"1e300\",\"65,536\",\"0\""))
                .find("x.csv:7: column 'launch__registers_per_thread': '1e300'"),
            std::string::npos);
  // 2^31 registers would wrap around an int: refused, not -2147483648.
  EXPECT_NE(error_of(lecture_with("\"32\",\"65,536\",\"0\"", "\"2,147,483,648\",\"65,536\",\"0\""))
                .find("'2,147,483,648' is not an integer from 0 to 2147483647"),
            std::string::npos);
  // A percentage beyond 100 (launch 0's theoretical occupancy, "100").
  EXPECT_NE(error_of(lecture_with("\"2,048\",\"100\"", "\"2,048\",\"1e308\""))
                .find("x.csv:7: column 'sm__maximum_warps_per_active_cycle_pct': '1e308' is not a "
                      "percentage from 0 to 100"),
            std::string::npos);
  // A malformed dimension names its line and column.
  EXPECT_NE(error_of(lecture_with("(7, 7, 1)", "(7.5, 7, 1)")).find("x.csv:7: column 'Grid Size'"),
            std::string::npos);
}

TEST(NcuCsvStrict, ABomAndAQuotedMultiLineKernelName) {
  std::string text = "\xEF\xBB\xBF" + lecture_with("at::native::vectorized_elementwise_kernel<4>(int)",
                                                   "my \"\"odd\"\",\nkernel");
  const std::vector<NcuLaunch> launches = parse_ncu_csv(text, "bom.csv");
  ASSERT_EQ(launches.size(), 3u);
  EXPECT_EQ(launches[1].kernel_name, "void my \"odd\",\nkernel");
  EXPECT_EQ(launches[1].where, "bom.csv:8");
  EXPECT_EQ(launches[2].where, "bom.csv:10");  // the name's line break moved it down one line
}

TEST(NcuCsvStrict, AShortRowNamesItsLine) {
  EXPECT_NE(error_of(lecture_with("\"0\",\"4242\",", "\"0\","))
                .find("x.csv:7: 27 fields where the header (line 5) has 28"),
            std::string::npos);
}

TEST(NcuCrosscheck, LaunchMismatchesNameTheFileAndLine) {
  // 200 x 200 with T = 16 is a grid of ceil(200 / 16) = 13 x 13 blocks, not the CSV's 7 x 7.
  try {
    crosscheck_ncu(parse_ncu_csv(lecture_csv(), "x.csv"),
                   analysis::lecture_counts(lecture::LaunchConfig::square(200)), {});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("x.csv:7: ncu launch 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not the grid (13, 13, 1)"), std::string::npos) << e.what();
  }
  // launch__grid_size must be the 7 x 7 = 49 blocks of the grid, launch__block_size 16 x 16 = 256.
  for (const auto& [from, to, what] :
       {std::tuple<std::string, std::string, std::string>{"\"256\",\"49\"", "\"256\",\"50\"",
                                                          "launch__grid_size = 50, not the 49 blocks"},
        std::tuple<std::string, std::string, std::string>{"\"256\",\"49\"", "\"255\",\"49\"",
                                                          "launch__block_size = 255, not the 256 threads"}}) {
    try {
      crosscheck_ncu(parse_ncu_csv(lecture_with(from, to), "x.csv"),
                     analysis::lecture_counts(lecture::LaunchConfig::square(100)), {});
      ADD_FAILURE() << what;
    } catch (const InvalidInput& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  }
}

TEST(NcuCrosscheck, LargeCountsArePrintedWhole) {
  // 2^53 = 9,007,199,254,740,992 divergent branch targets (the largest count the reader takes).
  const NcuCrosscheck check = crosscheck_ncu(
      parse_ncu_csv(lecture_with("\"100\",\"0\"", "\"100\",\"9,007,199,254,740,992\""), "x.csv"),
      analysis::lecture_counts(lecture::LaunchConfig::square(100)), {});
  std::ostringstream text;
  write_ncu_crosscheck_text(text, check);
  EXPECT_NE(text.str().find("divergent branch targets 9007199254740992 of"), std::string::npos) << text.str();
}

TEST(ValidateCsv, StrictIntegersWithLineAndColumn) {
  const std::string header =
      "device,rows,inner,cols,tile,registers_checked,registers_instrumented,"
      "registers_unchecked\n";
  const std::vector<ValidateRun> runs =
      parse_validate_csv("\xEF\xBB\xBF" + header + "\"H200, \nline two\",100,99,98,16,31,48,32\n", "v.csv");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].where, "v.csv:2");
  EXPECT_EQ(runs[0].inner, 99);
  EXPECT_EQ(runs[0].registers.at("instrumented"), 48);
  const auto error = [&](const std::string& row) {
    try {
      parse_validate_csv(header + "x,100,100,100,16,31,48,32\n" + row, "v.csv");
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error("x,100,100,100,16,31.9,48,32\n"),
            "v.csv:3: column 'registers_checked': '31.9' is not an integer from 0 to 255");
  EXPECT_EQ(error("x,1e300,100,100,16,31,48,32\n"),
            "v.csv:3: column 'rows': '1e300' is not an integer from 1 to 2147483647");
  EXPECT_EQ(error("x,100,100,100,33,31,48,32\n"),
            "v.csv:3: column 'tile': '33' is not an integer from 1 to 32");
}

// ---- the files recorded on an H200 (data/validation/ncu/nvidia-h200/) -------------------------

// A file recorded on `gpu` (a folder of data/validation/ncu/).
std::string recorded_on(const std::string& gpu, const std::string& name) {
  return std::string(WARPDIV_SOURCE_DIR) + "/data/validation/ncu/" + gpu + "/" + name;
}

std::string recorded(const std::string& name) { return recorded_on("nvidia-h200", name); }

const CrosscheckFigure& figure(const NcuKernelCheck& k, const std::string& what) {
  for (const CrosscheckFigure& f : k.figures)
    if (f.what == what) return f;
  throw std::runtime_error("no figure " + what);
}

TEST(NcuRecordedH200, LectureLaunchesAgreeWithTheCalculatorAndTheRuntime) {
  const std::vector<ValidateRun> runs =
      read_validate_csv(recorded("validate_100x100x100_T16.csv"), "--validate-csv");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].tile, 16);
  EXPECT_EQ(runs[0].rows, 100);
  EXPECT_EQ(runs[0].inner, 100);
  EXPECT_EQ(runs[0].cols, 100);
  const RuntimeRegisters& registers = runs[0].registers;
  // cudaFuncGetAttributes on the H200: 31, 48 and 32 registers per thread.
  EXPECT_EQ(registers, (RuntimeRegisters{{"checked", 31}, {"instrumented", 48}, {"unchecked", 32}}));
  const NcuCrosscheck check =
      crosscheck_ncu(read_ncu_csv(recorded("ncu_100x100x100_T16.csv"), "--ncu-csv"),
                     analysis::lecture_counts(lecture::LaunchConfig::square(100)), registers);
  // validate --repeat 1 launches checked, instrumented, unchecked, then a warm-up and one timed
  // launch of checked and unchecked: 7 launches.
  ASSERT_EQ(check.kernels.size(), 7u);
  EXPECT_TRUE(check.matched());
  const NcuKernelCheck& checked = check.kernels[0];
  EXPECT_EQ(checked.kernel, "checked");
  // ncu's figures: the driver chose a 64 KiB carveout, 65536 / (2048 + 1024) = 21 blocks; 31
  // registers round up to 32 * 32 = 1024 per warp, 65536 / 1024 = 64 warps = 8 blocks of 8 warps:
  // 64 of 64 warps, 100%.
  EXPECT_EQ(figure(checked, "shared memory configuration (bytes per SM)").ncu, 65536.0);
  EXPECT_EQ(figure(checked, "occupancy limit: shared memory (blocks)").ncu, 21.0);
  EXPECT_EQ(figure(checked, "occupancy limit: registers (blocks)").ncu, 8.0);
  EXPECT_EQ(figure(checked, "theoretical occupancy (%)").ncu, 100.0);
  // The checked kernel's divergent branches are the compute guard's: 350, the model's count of
  // divergent compute warp-phases; the load checks are predicated, not branches.
  EXPECT_EQ(checked.divergent_branch_targets, 350.0);
  EXPECT_EQ(check.model.at(lecture::Condition::compute, lecture::BlockClass::all).divergent_warp_phases,
            350u);
  EXPECT_EQ(check.kernels[2].kernel, "unchecked");
  EXPECT_EQ(check.kernels[2].divergent_branch_targets, 0.0);
}

TEST(NcuRecordedH200, EveryRecordedRunAgrees) {
  struct Run {
    const char* name;
    lecture::LaunchConfig config;
  };
  for (const Run& run : {Run{"100x100x100_T8", lecture::LaunchConfig::shape(100, 100, 100, 8)},
                         Run{"100x100x100_T32", lecture::LaunchConfig::shape(100, 100, 100, 32)},
                         Run{"257x129x63_T12", lecture::LaunchConfig::shape(257, 129, 63, 12)},
                         Run{"2048x2048x2048_T16", lecture::LaunchConfig::shape(2048, 2048, 2048, 16)}}) {
    const RuntimeRegisters registers =
        read_validate_csv(recorded(std::string("validate_") + run.name + ".csv"), "--validate-csv")
            .at(0)
            .registers;
    const NcuCrosscheck check =
        crosscheck_ncu(read_ncu_csv(recorded(std::string("ncu_") + run.name + ".csv"), "--ncu-csv"),
                       analysis::lecture_counts(run.config), registers);
    EXPECT_EQ(check.kernels.size(), 7u) << run.name;
    EXPECT_TRUE(check.matched()) << run.name;
    // The compute guard again: 400 (100^3, T = 32), 1232 (257 x 129 x 63, T = 12), 0 (2048^3).
    EXPECT_EQ(
        check.kernels[0].divergent_branch_targets,
        sim::to_double(
            check.model.at(lecture::Condition::compute, lecture::BlockClass::all).divergent_warp_phases))
        << run.name;
  }
}

// ---- the files recorded on an H100 with the one kernel (data/validation/ncu/nvidia-h100/) -------

std::string recorded_h100(const std::string& name) { return recorded_on("nvidia-h100", name); }

TEST(NcuRecordedH100, TheOneKernelAgreesWithTheCalculatorAndTheRuntime) {
  const std::vector<ValidateRun> runs =
      read_validate_csv(recorded_h100("validate_100x100x100_T16.csv"), "--validate-csv");
  ASSERT_EQ(runs.size(), 1u);
  // cudaFuncGetAttributes on the H100: TiledMatMul (kernels/zoo/tiled_matmul_rect.cu) 32
  // registers per thread.
  EXPECT_EQ(runs[0].registers, (RuntimeRegisters{{"TiledMatMul", 32}}));
  const NcuCrosscheck check =
      crosscheck_ncu(read_ncu_csv(recorded_h100("ncu_100x100x100_T16.csv"), "--ncu-csv"),
                     analysis::lecture_counts(lecture::LaunchConfig::square(100)), runs[0].registers);
  ASSERT_FALSE(check.kernels.empty());
  EXPECT_TRUE(check.matched());
  for (const NcuKernelCheck& k : check.kernels) {
    EXPECT_EQ(k.kernel, "TiledMatMul");
    // Registers: 32 per thread, 32 * 32 = 1024 per warp, 65536 / 1024 = 64 warps = 8 blocks of
    // 8 warps, which is also the warps' limit (64 / 8): 100%.
    EXPECT_EQ(figure(k, "occupancy limit: registers (blocks)").ncu, 8.0);
    EXPECT_EQ(figure(k, "theoretical occupancy (%)").ncu, 100.0);
    // The compute guard's divergent warp-phases, as the lecture counts them by hand: 350.
    EXPECT_EQ(k.divergent_branch_targets, 350.0);
  }
}

TEST(NcuRecordedH100, EveryRecordedRunAgrees) {
  for (const char* name : {"100x100x100_T8", "100x100x100_T32", "257x129x63_T12", "2048x2048x2048_T16"}) {
    const std::vector<ValidateRun> runs =
        read_validate_csv(recorded_h100(std::string("validate_") + name + ".csv"), "--validate-csv");
    ASSERT_EQ(runs.size(), 1u) << name;
    const ValidateRun& r = runs[0];
    const NcuCrosscheck check = crosscheck_ncu(
        read_ncu_csv(recorded_h100(std::string("ncu_") + name + ".csv"), "--ncu-csv"),
        analysis::lecture_counts(lecture::LaunchConfig::shape(r.rows, r.inner, r.cols, r.tile)), r.registers);
    EXPECT_FALSE(check.kernels.empty()) << name;
    EXPECT_TRUE(check.matched()) << name;
  }
}

}  // namespace
}  // namespace warpdiv::analysis

namespace warpdiv::analysis {
namespace {

// ncu's source page of the naive multiply at Width 100 (7 x 7 blocks of 16 x 16), recorded on an
// H100 from a standalone program compiled with nvcc -lineinfo (data/validation/memory/README.md):
// its kernel's line 10 is Pvalue += M[Row*Width+k]*N[k*Width+Col] and line 12 the store of P.
// By hand: 350 warps have lanes inside P (50 row pairs x 7 block columns), each running k = 0 ..
// 99. M: each row of the warp reads one word: 2 sectors x 350 x 100 = 70,000. N: row k starts at
// 400k = 16k bytes (mod 32): a full block column's 16 floats cover 2 sectors for even k and 3
// for odd k (250 per warp), the last column's 4 floats 1 (100 per warp): 50 x (6 x 250 + 100) =
// 80,000. Line 10: 150,000. Line 12: 50 row pairs, even rows at 0 and odd rows at 16 (mod 32):
// 2 + 3 sectors per warp for 16 columns, 1 + 1 for the last 4: 50 x (6 x 5 + 2) = 1,600.
TEST(NcuSourcePage, SectorsPerLineOfTheNaiveMultiplyByHand) {
  const std::string path =
      std::string(WARPDIV_SOURCE_DIR) + "/data/validation/memory/nvidia-h100/source-page-naive-w100.csv";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  std::ostringstream text;
  text << in.rdbuf();
  const std::map<std::uint32_t, std::uint64_t> lines =
      parse_ncu_source_sectors(text.str(), path, "naive_host.cu");
  EXPECT_EQ(lines.at(10), 150000u);
  EXPECT_EQ(lines.at(12), 1600u);
  for (const auto& [line, sectors] : lines) {
    if (line != 10 && line != 12) {
      EXPECT_EQ(sectors, 0u) << "line " << line;
    }
  }
  // Another file's lines are left out.
  EXPECT_TRUE(parse_ncu_source_sectors(text.str(), path, "other.cu").empty());
}

TEST(NcuSourcePage, RefusesAPageWithoutItsHeaderOrColumn) {
  try {
    parse_ncu_source_sectors("\"ID\",\"x\"\n", "p.csv");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("p.csv: no ncu source page"), std::string::npos) << e.what();
  }
  try {
    parse_ncu_source_sectors("\"Line No\",\"Source\"\n\"3\",\"x\"\n", "p.csv");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("p.csv:1: the source page has no \"L2 Theoretical Sectors Global\""),
              std::string::npos)
        << e.what();
  }
  try {
    parse_ncu_source_sectors("\"Line No\",\"L2 Theoretical Sectors Global\"\n\"3\",\"-4\"\n", "p.csv");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("p.csv:2:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpdiv::analysis
