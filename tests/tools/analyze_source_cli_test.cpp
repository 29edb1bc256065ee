// `warpdiv analyze FILE.cu` / `--model FILE` through the real binary: dispatch, the saved model,
// and the bad-input suite (each refusal: exit 2, one line naming the fault, no file; Clang's own
// diagnostics are printed as Clang prints them).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <unistd.h>

#include "tests/tools/cli_runner.hpp"
#include "tests/tools/pty_runner.hpp"

namespace warpdiv::testing {
namespace {

const std::string kZoo = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/";
const std::string kNaive = kZoo + "naive_matmul.cu";
const std::vector<std::string> kNaiveLaunch = {"--grid", "7,7", "--block", "16,16", "--arg",
                                               "Width=100"};

bool reads_sources() {
  static const bool reads = [] {
    TempDir dir;
    const CliResult r =
        run_warpdiv({"analyze", kNaive, "--save-model", dir.file("model.json")});
    return !contains(r.err, "without the Clang front-end");
  }();
  return reads;
}

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// Refused before the kernel is read: no front-end or engine needed.
class AnalyzeSourceFlags : public ::testing::TestWithParam<BadInput> {};

TEST_P(AnalyzeSourceFlags, ExitsTwoWithOneLineAndNoFile) {
  expect_refused_leaving_no_file("analyze", GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Launch, AnalyzeSourceFlags,
    ::testing::Values(
        BadInput{{kNaive, "--grid", "7,7", "--block", "32,33"},
                 "--block 32,33,1 has 1056 threads, above CUDA's limit of 1024 per block"},
        BadInput{{kNaive, "--grid", "7", "--block", "2000"},
                 "--block x must be from 1 to 1024 (CUDA's limit; got 2000)"},
        BadInput{{kNaive, "--grid", "7", "--block", "1,1,65"},
                 "--block z must be from 1 to 64 (CUDA's limit; got 65)"},
        BadInput{{kNaive, "--grid", "1,65536", "--block", "16"},
                 "--grid y must be from 1 to 65535 (CUDA's limit; got 65536)"},
        BadInput{{kNaive, "--grid", "2147483648", "--block", "16"},
                 "--grid x must be from 1 to 2147483647 (CUDA's limit; got 2147483648)"},
        BadInput{{kNaive, "--grid", "N*N", "--block", "16", "--arg", "N=65536"},
                 "--grid x must be from 1 to 2147483647"},
        BadInput{{kNaive, "--grid", "(N+127)/(N-N)", "--block", "128", "--arg", "N=5"},
                 "--grid '(N+127)/(N-N)': division by zero"},
        BadInput{{kNaive, "--grid", "N%0", "--block", "128", "--arg", "N=5"}, "remainder by zero"},
        BadInput{{kNaive, "--grid", "N*N*N*N*N", "--block", "1", "--arg", "N=10000"},
                 "does not fit in a 64-bit signed integer"},
        BadInput{{kNaive, "--grid", "(N+127)/128", "--block", "128"},
                 "unknown name 'N' (give its value with --arg N=VALUE)"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--arg", "N"}, "--arg must be NAME=VALUE"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--arg", "N=1", "--arg", "N=2"},
                 "--arg N is given twice"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--arg", "N=1.5"},
                 "--arg N must be a decimal integer"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--warp-size", "48"},
                 "--warp-size must be a power of two from 1 to 64"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--only-block", "4"},
                 "--only-block 4 is outside the grid (4, 1, 1)"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--only-warp", "4"},
                 "--only-warp must be an integer from 0 to 3"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--engine", "fast"},
                 "--engine must be auto, exact or replay (got 'fast')"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--by-class", "--engine", "replay"},
                 "--by-class needs the class engine"},
        BadInput{{kNaive, "--grid", "4"}, "needs --grid X[,Y[,Z]] and --block X[,Y[,Z]]"},
        BadInput{{kNaive, "--model", "m.json", "--grid", "4", "--block", "4"},
                 "give FILE.cu or --model FILE, not both"},
        BadInput{{kNaive, kNaive, "--grid", "4", "--block", "4"}, "takes one file"},
        BadInput{{"--grid", "4", "--block", "4"}, "needs FILE.cu or --model FILE"},
        BadInput{{"--model", kNaive, "--kernel", "k", "--grid", "4", "--block", "4"},
                 "--kernel applies to a source file"},
        BadInput{{"--model", "/nonexistent/m.json", "--grid", "4", "--block", "4"},
                 "cannot read /nonexistent/m.json: no such file or not readable"},
        BadInput{{"missing.cu", "--grid", "4", "--block", "4"},
                 "cannot read missing.cu: no such file or not readable"}));

TEST(AnalyzeSource, RefusalLeavesAnExistingCsvAlone) {
  TempDir dir;
  write_file(dir.file("keep.csv"), "precious\n");
  const CliResult r = run_warpdiv(
      {"analyze", kNaive, "--grid", "7,7", "--block", "32,33", "--csv", dir.file("keep.csv")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(read_file(dir.file("keep.csv")), "precious\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.csv"});
}

TEST(AnalyzeSource, LectureFormIsUnchanged) {
  // No file and none of the source flags: the lecture's report, as before.
  const CliResult r = run_warpdiv({"analyze", "--warp-size", "32"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "350/2744")) << r.out;
}

TEST(AnalyzeSource, HelpOfTheSourceForm) {
  const CliResult r = run_warpdiv({"analyze", kNaive, "--help"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* flag : {"--kernel", "--grid", "--block", "--arg", "--warp-size", "-D", "-I",
                           "--engine", "--csv", "--html", "--by-class", "--by-iteration", "--only-block", "--only-warp",
                           "--save-model", "--model"})
    EXPECT_TRUE(contains(r.out, flag)) << flag;
}

// ---------------------------------------------------------------------------------------------
// Sources: these need the Clang front-end.

class AnalyzeSourceFile : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  }
  std::string source(const std::string& name, const std::string& text) {
    write_file(sources_.file(name), text);
    return sources_.file(name);
  }
  TempDir sources_;
};

constexpr const char* kTwoKernels =
    "__global__ void first(int *a) { a[threadIdx.x] = 1; }\n"
    "__global__ void second(int *a) { a[threadIdx.x] = 2; }\n";

TEST_F(AnalyzeSourceFile, BadSources) {
  const std::vector<BadInput> cases = {
      {{source("two.cu", kTwoKernels), "--grid", "1", "--block", "32"}, "first, second"},
      {{source("two2.cu", kTwoKernels), "--kernel", "third", "--grid", "1", "--block", "32"},
       "third"},
      {{kNaive, "--grid", "7,7", "--block", "16,16"}, "give --arg Width=VALUE"},
      {{source("data.cu",
               "__global__ void k(const int *in, int *out) {\n"
               "  int i = threadIdx.x;\n"
               "  if (in[i] > 0)\n"
               "    out[i] = 1;\n"
               "}\n"),
        "--grid", "1", "--block", "32"},
       "data.cu:3:"},
      {{source("goto.cu",
               "__global__ void k(int *out) {\n"
               "  int i = threadIdx.x;\n"
               "  if (i > 3) goto done;\n"
               "  out[i] = 1;\n"
               "done:\n"
               "  return;\n"
               "}\n"),
        "--grid", "1", "--block", "32"},
       "goto"},
      {{kNaive, "--grid", "7,7", "--block", "16,16", "--arg", "Width=3000000000"},
       "--arg Width: value 3000000000 does not fit in int32"},
      // 6,250^2 blocks of 8 warps, each testing the k loop 100,001 times: refused before it runs.
      {{kNaive, "--grid", "(Width+15)/16,(Width+15)/16", "--block", "16,16", "--arg",
        "Width=100000"},
       "above its limit of"},
  };
  for (const BadInput& bad : cases) {
    SCOPED_TRACE(bad.args[0]);
    expect_refused_leaving_no_file("analyze", bad);
  }
}

TEST_F(AnalyzeSourceFile, DataDependentBranchNamesWhatItDependsOn) {
  const CliResult r = run_warpdiv({"analyze",
                                   source("data.cu",
                                          "__global__ void k(const int *in, int *out) {\n"
                                          "  int i = threadIdx.x;\n"
                                          "  if (in[i] > 0)\n"
                                          "    out[i] = 1;\n"
                                          "}\n"),
                                   "--grid", "1", "--block", "32"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "data-dependent")) << r.err;
  EXPECT_TRUE(contains(r.err, "in[i]")) << r.err;
}

TEST_F(AnalyzeSourceFile, SyntaxErrorShowsClangsDiagnostic) {
  TempDir out;
  const std::string file = source("broken.cu", "__global__ void k(int *a) {\n  a[0] = ;\n}\n");
  const CliResult r = run_warpdiv(
      {"analyze", file, "--grid", "1", "--block", "32", "--csv", out.file("out.csv")});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "broken.cu:2:")) << r.err;
  EXPECT_TRUE(contains(r.err, "error: expected expression")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(out.entries().empty());
}

TEST_F(AnalyzeSourceFile, DefinesReachClang) {
  // LIMIT comes from -D only.
  const std::string file = source("define.cu",
                                  "__global__ void k(int *out) {\n"
                                  "  if (threadIdx.x < LIMIT)\n"
                                  "    out[threadIdx.x] = 1;\n"
                                  "}\n");
  for (const std::vector<std::string>& define :
       {std::vector<std::string>{"-D", "LIMIT=40"}, std::vector<std::string>{"-DLIMIT=40"}}) {
    const CliResult r =
        run_warpdiv(with(with({"analyze", file}, define), {"--grid", "1", "--block", "64"}));
    ASSERT_EQ(r.status, 0) << r.err;
    // Warp 0 (lanes 0..31) all in, warp 1 (32..63) split at 40: 2 evaluations, 1 divergent.
    EXPECT_TRUE(contains(r.out, "    2            2           1   100.0%    if (threadIdx.x < LIMIT)"))
        << r.out;
  }
}

TEST_F(AnalyzeSourceFile, InlinedFunctionsAreListedAfterTheKernel) {
  const std::string file = source("device.cu",
                                  "__device__ int clampi(int v, int hi) {\n"
                                  "  if (v > hi)\n"
                                  "    return hi;\n"
                                  "  return v;\n"
                                  "}\n"
                                  "\n"
                                  "__global__ void k(int *out, int n) {\n"
                                  "  int i = clampi(threadIdx.x, n);\n"
                                  "  out[i] = 1;\n"
                                  "}\n");
  const CliResult r = run_warpdiv({"analyze", file, "--grid", "1", "--block", "64", "--arg", "n=40"});
  ASSERT_EQ(r.status, 0) << r.err;
  // threadIdx.x 0..63 against 40: warp 0 (0..31) all below, warp 1 split: 41..63 (23 lanes) take
  // the first return (SIMD 23/32 = 71.9%), the other 41 lanes the second (41/64 = 64.1%).
  EXPECT_TRUE(contains(r.out,
                       "\nStatements outside the kernel's lines (inlined functions):\n"
                       "    2            2           1   100.0%    if (v > hi)\n"
                       "    3            1           -    71.9%      return hi;\n"
                       "    4            2           -    64.1%    return v;\n"))
      << r.out;
}

TEST_F(AnalyzeSourceFile, SavedModelGivesTheSameReport) {
  TempDir dir;
  const CliResult saved = run_warpdiv({"analyze", kNaive, "--save-model", dir.file("m.json")});
  ASSERT_EQ(saved.status, 0) << saved.err;
  const CliResult from_source = run_warpdiv(with({"analyze", kNaive}, kNaiveLaunch));
  const CliResult from_model =
      run_warpdiv(with({"analyze", "--model", dir.file("m.json")}, kNaiveLaunch));
  ASSERT_EQ(from_source.status, 0) << from_source.err;
  ASSERT_EQ(from_model.status, 0) << from_model.err;
  EXPECT_EQ(from_source.out, from_model.out);
}

TEST_F(AnalyzeSourceFile, OnlyWarpOfOneBlock) {
  // Warp 7 of block (6, 6): rows 110, 111, all outside P: the guard is evaluated once with 32
  // lanes, none taken, not divergent; nothing inside runs.
  TempDir dir;
  const CliResult r = run_warpdiv(with({"analyze", kNaive, "--only-block", "6,6", "--only-warp",
                                        "7", "--csv", dir.file("w.csv")},
                                       kNaiveLaunch));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string csv = read_file(dir.file("w.csv"));
  EXPECT_TRUE(contains(csv, ",if,,1,0,32,0,,,1.0000,")) << csv;
  EXPECT_TRUE(contains(r.out, "(warp 7 of block (6, 6, 0) only)")) << r.out;
}

TEST_F(AnalyzeSourceFile, CtrlCStopsTheReplayAndWritesNothing) {
  // The naive kernel at Width 2000: 15,625 blocks, some 5 x 10^8 warp evaluations (tens of
  // seconds here). ^C typed on the terminal once the progress bar is up.
  TempDir dir;
  bool sent = false;
  const PtyRun run = run_on_pty(
      {WARPDIV_BINARY, "analyze", kNaive, "--grid", "(Width+15)/16,(Width+15)/16", "--block",
       "16,16", "--arg", "Width=2000", "--csv", dir.file("big.csv")},
      [&sent](const std::string& screen, int master) {
        if (!sent && contains(screen, "\rreplay [")) {
          const char ctrl_c = '\x03';
          EXPECT_EQ(::write(master, &ctrl_c, 1), 1);
          sent = true;
        }
      });
  EXPECT_TRUE(sent) << run.screen;
  EXPECT_EQ(run.status, 130) << run.screen;
  EXPECT_TRUE(contains(run.screen, " blocks")) << run.screen;
  EXPECT_TRUE(contains(run.screen, "\r\nwarpdiv analyze: interrupted: no file written")) << run.screen;
  EXPECT_TRUE(dir.entries().empty());
}

TEST_F(AnalyzeSourceFile, ProgressBarReachesTheEndOnATerminal) {
  TempDir dir;
  const PtyRun run = run_on_pty({WARPDIV_BINARY, "analyze", kNaive, "--grid", "7,7", "--block",
                                 "16,16", "--arg", "Width=100"});
  EXPECT_EQ(run.status, 0) << run.screen;
  EXPECT_TRUE(contains(run.screen, "] 100% 49/49 blocks")) << run.screen;
}

}  // namespace
}  // namespace warpdiv::testing
