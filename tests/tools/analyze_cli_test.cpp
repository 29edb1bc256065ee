// `warpdiv analyze` through the real binary: the lecture report, the CSV, and every bad input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

TEST(AnalyzeCli, LectureReport) {
  const CliResult r = run_warpdiv({"analyze"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "336/2352")) << r.out;
  EXPECT_TRUE(contains(r.out, "14/392")) << r.out;
  EXPECT_TRUE(contains(r.out, "350/2744")) << r.out;
  EXPECT_TRUE(contains(r.out, "2,352 + 392 = 2,744")) << r.out;  // the slide's slip, corrected
  EXPECT_TRUE(contains(r.out, "13 of 49 blocks")) << r.out;      // barrier hazard
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(AnalyzeCli, CorrectionOnlyForTheLectureDefault) {
  const CliResult r = run_warpdiv({"analyze", "--width", "200"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "2,944")) << r.out;
}

TEST(AnalyzeCli, HelpListsEveryFlag) {
  const CliResult r = run_warpdiv({"analyze", "--help"});
  ASSERT_EQ(r.status, 0);
  for (const char* flag :
       {"--width", "--rows", "--inner", "--cols", "--tile", "--warp-size", "--csv", "--engine"})
    EXPECT_TRUE(contains(r.out, flag)) << flag;
}

// --help alone leads with the form for your own kernel (FILE.cu), then the lecture's flags.
TEST(AnalyzeCli, HelpLeadsWithYourOwnKernel) {
  for (const char* command : {"analyze", "sweep", "validate", "ncu-check"}) {
    const CliResult r = run_warpdiv({command, "--help"});
    ASSERT_EQ(r.status, 0) << command << r.err;
    const std::size_t own = r.out.find(std::string("warpdiv ") + command + " FILE.cu");
    const std::size_t lecture = r.out.find("lecture's");
    ASSERT_NE(own, std::string::npos) << r.out;
    ASSERT_NE(lecture, std::string::npos) << r.out;
    EXPECT_EQ(own, 0u) << command << ": " << r.out.substr(0, 200);
    EXPECT_LT(own, lecture) << command;
  }
  // With a lecture flag, the lecture's help alone.
  const CliResult lecture = run_warpdiv({"analyze", "--tile", "16", "--help"});
  ASSERT_EQ(lecture.status, 0) << lecture.err;
  EXPECT_EQ(lecture.out.rfind("warpdiv analyze with no FILE.cu", 0), 0u) << lecture.out;
}

TEST(AnalyzeCli, CsvHasTheSchemaAndReplacesAtomically) {
  TempDir dir;
  const std::string csv = dir.file("lecture.csv");
  write_file(csv, "old contents\n");
  const CliResult r = run_warpdiv({"analyze", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = read_file(csv);
  EXPECT_EQ(count_lines(text), 21u);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "condition,block_class,blocks,warps,warp_phases,divergent_warp_phases");
  // Hand-derived rows (see tests/oracle/replay_test.cpp): load_M interior 36 blocks, 288 of 2016.
  EXPECT_TRUE(contains(text, "\nload_M,interior,36,288,2016,288\n"));
  EXPECT_TRUE(contains(text, "\nload_N,all,49,392,2744,350\n"));
  EXPECT_TRUE(contains(text, "\nstore,all,49,392,392,50\n"));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"lecture.csv"});  // no temp file left
}

class AnalyzeBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(AnalyzeBadInput, ExitsTwoWithOneLineAndNoFile) {
  expect_refused_leaving_no_file("analyze", GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Flags, AnalyzeBadInput,
    ::testing::Values(
        BadInput{{"--width", "0"}, "--width must be an integer from 1 to 2147483647"},
        BadInput{{"--width", "-5"}, "--width must be an integer from 1 to 2147483647"},
        BadInput{{"--width", "abc"}, "--width must be an integer from 1 to 2147483647"},
        BadInput{{"--width", "1e3"}, "--width must be an integer from 1 to 2147483647"},
        BadInput{{"--width", "2147483648"}, "--width must be an integer from 1 to 2147483647"},
        BadInput{{"--width", "99999999999999999999999"}, "--width must be an integer"},
        BadInput{{"--width", ""}, "--width"}, BadInput{{"--width", "12.5"}, "--width must be an integer"},
        BadInput{{"--rows", "0", "--inner", "5", "--cols", "5"}, "--rows must be an integer from 1"},
        BadInput{{"--rows", "5", "--inner", "-1", "--cols", "5"}, "--inner must be an integer from 1"},
        BadInput{{"--rows", "5", "--inner", "5", "--cols", "x"}, "--cols must be an integer from 1"},
        BadInput{{"--rows", "5", "--inner", "5"}, "must be given together"},
        BadInput{{"--width", "5", "--rows", "5"}, "cannot be combined"},
        BadInput{{"--tile", "0"}, "--tile must be an integer from 1 to 32"},
        BadInput{{"--tile", "33"}, "--tile must be an integer from 1 to 32"},
        BadInput{{"--tile", "16x"}, "--tile must be an integer from 1 to 32"},
        BadInput{{"--warp-size", "48"}, "--warp-size must be a power of two from 1 to 64"},
        BadInput{{"--warp-size", "128"}, "--warp-size must be a power of two from 1 to 64"},
        BadInput{{"--warp-size", "0"}, "--warp-size must be a power of two from 1 to 64"},
        BadInput{{"--bogus"}, "unrecognised option '--bogus'"},
        // A positional argument is a kernel's source file (warpdiv analyze FILE.cu).
        BadInput{{"stray"}, "cannot read 'stray': no such file or not readable"},
        BadInput{{"--tile", "--warp-size"}, "--tile needs a value (T: tile width, blockDim (T, T): 1 .. 32"},
        BadInput{{"--engine", "fast"}, "--engine must be exact, replay or all (got 'fast')"},
        BadInput{{"--engine", ""}, "--engine must be exact, replay or all"},
        BadInput{{"--width", "2147483647", "--tile", "32", "--engine", "all"}, "--engine all would make"},
        // Too large for the replay engine: refused up front, not run for hours. 2^31-1 with
        // T = 32 has 2^83 warp-phases per check, each at least 4 warp-statement evaluations.
        BadInput{{"--width", "2147483647", "--tile", "32", "--engine", "replay"},
                 "warp-statement evaluations, above its limit of 6000000000 (about a minute); use "
                 "--engine exact"}));

TEST(AnalyzeCli, HugeCubePrintsExact128BitCounts) {
  // Default engine (exact). N = 2^31 - 1, T = 32: G = 2^26 blocks per side and phases, 32 warps
  // per block: 2^52 blocks, 2^57 warps, 2^83 = 9671406556917033397649408 warp-phases per
  // phase-loop check (beyond 64 bits). The last block-row, block-column and phase hold 31
  // indices: load_M diverges in the last phase of every warp with its row in range,
  // 32 (G-1) G + 31 G = G (2^31 - 1) = 144115188008747008 (derivation in tests/oracle/exact_test.cpp).
  TempDir dir;
  const std::string csv = dir.file("huge.csv");
  const CliResult r = run_warpdiv({"analyze", "--rows", "2147483647", "--inner", "2147483647", "--cols",
                                   "2147483647", "--tile", "32", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "144115188008747008/9671406556917033397649408")) << r.out;
  EXPECT_TRUE(contains(r.out, "134217727 of 4503599627370496 blocks")) << r.out;  // 2G - 1 of G^2
  const std::string text = read_file(csv);
  EXPECT_TRUE(contains(text,
                       "\nload_M,all,4503599627370496,144115188075855872,"
                       "9671406556917033397649408,144115188008747008\n"))
      << text;
  EXPECT_TRUE(contains(text,
                       "\nstore,all,4503599627370496,144115188075855872,"
                       "144115188075855872,2147483647\n"))
      << text;
}

TEST(AnalyzeCli, BothEnginesPrintTheSameReport) {
  // 300 x 200 x 500, T = 12, warp 16: small enough to replay; the two reports and CSVs must be
  // identical byte for byte.
  TempDir dir;
  const std::vector<std::string> launch = {"analyze", "--rows", "300", "--inner",     "200", "--cols",
                                           "500",     "--tile", "12",  "--warp-size", "16"};
  std::vector<std::string> exact_args = launch, replay_args = launch;
  exact_args.insert(exact_args.end(), {"--csv", dir.file("exact.csv")});
  replay_args.insert(replay_args.end(), {"--engine", "replay", "--csv", dir.file("replay.csv")});
  const CliResult a = run_warpdiv(exact_args);
  const CliResult b = run_warpdiv(replay_args);
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(read_file(dir.file("exact.csv")), read_file(dir.file("replay.csv")));
  const auto without_csv_line = [](const std::string& out) { return out.substr(0, out.rfind("CSV")); };
  EXPECT_EQ(without_csv_line(a.out), without_csv_line(b.out));
}

// --engine all: the class engine and the replay compared cell by cell; the replay's report and CSV
// byte for byte, and one note on stderr.
TEST(AnalyzeCli, EngineAllPrintsTheReplaysReportAndTheirAgreement) {
  TempDir dir;
  const std::vector<std::string> launch = {"analyze",          "--rows", "90",     "--inner", "40",
                                           "--cols",           "130",    "--tile", "12",      "--csv",
                                           dir.file("out.csv")};
  std::vector<std::string> all_args = launch, replay_args = launch;
  all_args.insert(all_args.end(), {"--engine", "all"});
  replay_args.insert(replay_args.end(), {"--engine", "replay"});
  const CliResult all = run_warpdiv(all_args);
  const std::string all_csv = read_file(dir.file("out.csv"));
  const CliResult replay = run_warpdiv(replay_args);
  ASSERT_EQ(all.status, 0) << all.err;
  ASSERT_EQ(replay.status, 0) << replay.err;
  EXPECT_EQ(all.out, replay.out);
  EXPECT_EQ(all_csv, read_file(dir.file("out.csv")));
  EXPECT_EQ(all.err,
            "warpdiv: note: all 2 engines agree (the class engine, the replay) [warpdiv-engines-compared]\n");
  EXPECT_EQ(replay.err, "");
}

TEST(AnalyzeCli, UnwritableCsvPathIsRefused) {
  TempDir dir;
  for (const std::string& path :
       {dir.file("missing-folder/out.csv"), dir.path(), std::string("/proc/warpdiv.csv")}) {
    const CliResult r = run_warpdiv({"analyze", "--csv", path});
    EXPECT_EQ(r.status, 2) << path << r.err;
    EXPECT_TRUE(contains(r.err, "--csv")) << r.err;
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  }
  EXPECT_TRUE(dir.entries().empty());
}

TEST(AnalyzeCli, FailedRunKeepsTheOldFile) {
  TempDir dir;
  const std::string csv = dir.file("keep.csv");
  write_file(csv, "precious\n");
  const CliResult r = run_warpdiv({"analyze", "--tile", "99", "--csv", csv});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(read_file(csv), "precious\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.csv"});
}

TEST(AnalyzeCli, MissingValue) {
  const CliResult r = run_warpdiv({"analyze", "--width"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "--width")) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
}

TEST(AnalyzeCli, UnknownCommand) {
  const CliResult r = run_warpdiv({"frobnicate"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "unknown command"));
}

}  // namespace
}  // namespace warpdiv::testing
