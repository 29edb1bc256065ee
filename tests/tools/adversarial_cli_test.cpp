// Adversarial cases against the engines, through the real binary: a kernel that never
// ends, a launch past the run's budget, validate without a GPU, values that mean nothing. Each
// ends in exit 2 (3 without a GPU) with one line naming the loop, within seconds.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "kernels/probe.hpp"
#include "sim/model/ir_json.hpp"
#include "sim/support/errors.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

bool reads_sources() {
  static const bool reads = [] {
    TempDir dir;
    std::ofstream(dir.file("k.cu")) << "__global__ void k(int* p) { p[threadIdx.x] = 1; }\n";
    const CliResult r = run_warpdiv({"analyze", dir.file("k.cu"), "--save-model", dir.file("m.json")});
    return !contains(r.err, "without the Clang front-end");
  }();
  return reads;
}

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir.file(name)) << text;
  return dir.file(name);
}

struct NeverEnds {
  const char* name;
  const char* source;
  std::vector<std::string> args;
  const char* loop;  // where the loop is, as the message names it
};
void PrintTo(const NeverEnds& c, std::ostream* os) { *os << c.name; }

class NeverEndingKernel : public ::testing::TestWithParam<NeverEnds> {};

// Each engine names the loop, the warp and its lanes; nothing is written.
TEST_P(NeverEndingKernel, IsNamedByEveryEngineAndSweep) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  const NeverEnds& c = GetParam();
  TempDir dir;
  const std::string file = write(dir, "k.cu", c.source);
  const std::string loop = std::string("k.cu:") + c.loop + ": error: the ";
  for (const std::string engine : {"auto", "replay"}) {
    SCOPED_TRACE(engine);
    std::vector<std::string> args = {"analyze", file,       "--grid", "2",     "--block",
                                     "64",      "--engine", engine,   "--csv", dir.file("out.csv")};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const CliResult r = run_warpdiv(args);
    expect_refusal(r, BadInput{args, loop});
    EXPECT_TRUE(contains(r.err, " loop never ends: warp 0 (lanes ")) << r.err;
  }
  std::vector<std::string> sweep = {"sweep",   file,    "--grid", "1",
                                    "--block", "32,64", "--csv",  dir.file("sweep.csv")};
  sweep.insert(sweep.end(), c.args.begin(), c.args.end());
  expect_refusal(run_warpdiv(sweep), BadInput{sweep, " loop never ends: warp 0"});
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"k.cu"});  // no CSV, no temporary file
}

INSTANTIATE_TEST_SUITE_P(Adversarial, NeverEndingKernel,
                         ::testing::Values(NeverEnds{"while_1",
                                                     "__global__ void k(int* out) {\n"
                                                     "  int t = threadIdx.x;\n"
                                                     "  while (1) { out[t] = t; }\n"
                                                     "}\n",
                                                     {},
                                                     "3:3"},
                                           NeverEnds{"for_ever",
                                                     "__global__ void k(int* out) {\n"
                                                     "  for (;;) out[threadIdx.x] = 0;\n"
                                                     "}\n",
                                                     {},
                                                     "2:3"},
                                           // Only lane 5 of warp 0 leaves: the other lanes go round for ever.
                                           NeverEnds{"one_lane_breaks",
                                                     "__global__ void k(int* out) {\n"
                                                     "  int t = threadIdx.x;\n"
                                                     "  for (;;) { if (t == 5) break; out[t] = 1; }\n"
                                                     "}\n",
                                                     {},
                                                     "3:3"},
                                           NeverEnds{"step_of_zero",
                                                     "__global__ void k(int* out, int s) {\n"
                                                     "  int t = threadIdx.x;\n"
                                                     "  for (int i = 0; i < 10; i += s) { out[t] += i; }\n"
                                                     "}\n",
                                                     {"--arg", "s=0"},
                                                     "3:3"}),
                         [](const ::testing::TestParamInfo<NeverEnds>& param_info) {
                           return std::string(param_info.param.name);
                         });

const char* const kLongLoop =
    "__global__ void k(int* out, long long n) {\n"
    "  int t = threadIdx.x;\n"
    "  for (long long i = 0; i < n; ++i) { if (i == t) out[t] = 1; }\n"
    "}\n";

// 2^40 iterations: the replay refuses the run before it starts, its trip count being known up
// front; the class engine counts the same launch at once (its iterations fall into three classes).
// A loop whose step the replay cannot count up front stops at the budget, naming the loop.
TEST(RunBudget, AReplayPastItsBudgetStopsNamingTheLoop) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  TempDir dir;
  const std::string file = write(dir, "k.cu", kLongLoop);
  const std::vector<std::string> launch = {"--grid", "1", "--block", "64", "--arg", "n=1099511627776"};
  std::vector<std::string> args = {"analyze", file, "--engine", "replay", "--max-evaluations", "1000000"};
  args.insert(args.end(), launch.begin(), launch.end());
  const CliResult refused = run_warpdiv(args);
  expect_refusal(refused, BadInput{args, "the replay would make at least "});
  EXPECT_TRUE(contains(refused.err,
                       "/k.cu:3:3 runs 1099511627776 iterations in block (0, 0, 0), thread (0, 0, 0)), "
                       "above its budget of 1000000 (--max-evaluations)"))
      << refused.err;
  const std::string stepped =
      write(dir, "stepped.cu",
            "__global__ void k(int* out, long long n) {\n"
            "  int t = threadIdx.x;\n"
            "  for (long long i = 0; i < n; i += (t & 1) + 1) { if (i == t) out[t] = 1; }\n"
            "}\n");
  args[1] = stepped;
  const CliResult stopped = run_warpdiv(args);
  expect_refusal(stopped, BadInput{args,
                                   "the run passed 1000000 warp-statement evaluations (its "
                                   "budget, --max-evaluations) and was stopped in the for loop at "});
  EXPECT_TRUE(contains(stopped.err, "/stepped.cu:3:3 (block (0, 0, 0), warp 0)")) << stopped.err;
  std::vector<std::string> classes = {"analyze", file, "--max-evaluations", "1000000"};
  classes.insert(classes.end(), launch.begin(), launch.end());
  const CliResult r = run_warpdiv(classes);
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(RunBudget, TheFlagTakesAPositiveCount) {
  TempDir dir;
  const std::string file = write(dir, "k.cu", kLongLoop);
  for (const std::string value : {"0", "-1", "1e9", "9223372036854775808"}) {
    const std::vector<std::string> args = {
        "analyze", file, "--grid", "1", "--block", "32", "--arg", "n=5", "--max-evaluations", value};
    expect_refusal(run_warpdiv(args),
                   BadInput{args, "--max-evaluations must be an integer from 1 to 9223372036854775807"});
  }
}

// Without a GPU, validate says so before it runs the model: a kernel that never ends must not
// keep it from answering.
TEST(ValidateFirst, WithoutAGpuAKernelThatNeverEndsStillGetsExitThree) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  try {
    kernels::open_probe_device();
    GTEST_SKIP() << "a CUDA device is present";
  } catch (const NoDevice&) {
  }
  TempDir dir;
  const std::string file =
      write(dir, "k.cu", "__global__ void k(int* out) {\n  while (1) { out[threadIdx.x] = 0; }\n}\n");
  const CliResult r = run_warpdiv({"validate", file, "--grid", "1", "--block", "32"});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
}

TEST(NoGuesses, AValueForAPointerIsRefused) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  TempDir dir;
  const std::string file = write(dir, "k.cu",
                                 "__global__ void k(float* out, int n) {\n"
                                 "  if (threadIdx.x < n) out[threadIdx.x] = 0;\n}\n");
  const std::vector<std::string> args = {"analyze", file,    "--grid", "1",     "--block",
                                         "32",      "--arg", "n=4",    "--arg", "out=5"};
  expect_refusal(run_warpdiv(args), BadInput{args,
                                             "--arg 'out': the parameter out of k is a pointer ('float *'), "
                                             "which takes no value"});
  // A name that --grid uses is --grid's, even where a pointer has it.
  const CliResult r =
      run_warpdiv({"analyze", file, "--grid", "out", "--block", "32", "--arg", "n=4", "--arg", "out=2"});
  EXPECT_EQ(r.status, 0) << r.err;
}

// Memory grows with the kernel, not faster: 10,000 small loops one after the other (3.7 GB and
// exit 1 once) are counted in well under 1 GB. The peak is the largest child this test
// process waited for (getrusage: warpdiv, or the front-end's child).
TEST(Memory, TenThousandSmallLoopsAreCountedUnderOneGigabyte) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  TempDir dir;
  std::string text = "__global__ void k(int* out) {\n  int t = threadIdx.x; int r = 0;\n";
  for (int i = 0; i < 10000; ++i) {
    const std::string v = "i" + std::to_string(i);
    text += "  for (int " + v + " = 0; " + v + " < (t & 3); ++" + v + ") r += 1;\n";
  }
  text += "  out[t] = r;\n}\n";
  const std::string file = write(dir, "loops.cu", text);
  // Each loop: thread t runs t & 3 iterations, so each of the 2 warps tests it 4 times (the last
  // with only the lanes of t & 3 = 3 left, all leaving) and diverges in the first 3: 8 and 6.
  const CliResult r = run_warpdiv({"analyze", file, "--grid", "1", "--block", "64", "--csv", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, ",3,3,for,,8,6,")) << r.out.substr(0, 2000);
  EXPECT_TRUE(contains(r.out, ",10002,3,for,,8,6,")) << r.out.substr(0, 2000);
  rusage usage{};
  ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &usage), 0);
  EXPECT_LT(usage.ru_maxrss, 1024L * 1024L) << "peak resident memory " << usage.ru_maxrss << " KB";
}

// A saved model of an else-if chain of 50,000 branches (the engines' side; Clang 14 itself is
// quadratic in such a chain; 100,000 are counted in tests/sim/model/ir_limits_test.cpp, but their saved
// model passes the 64 MiB limit on an input file) is read, counted and reported: 64 threads take one branch
// each, so test i is reached by 2 warps below 32, by 1 below 64 (see tests/sim/model/ir_limits_test.cpp).
TEST(LongChains, AModelOfAnElseIfChainOf50000BranchesIsCounted) {
  namespace ir = sim::ir;
  ir::Kernel k;
  k.name = "chain";
  k.files.push_back(ir::SourceFile{"chain.cu", {}});
  const ir::LocalId t = k.add_local("t", ir::ScalarType::I32);
  const ir::LocalId r = k.add_local("r", ir::ScalarType::I32);
  const ir::StmtId declare_t = k.declare(t, k.cast(ir::ScalarType::I32, k.builtin(ir::Builtin::ThreadIdxX)));
  ir::StmtId next = k.assign(r, k.constant(ir::ScalarType::I32, -1));
  for (int i = 49999; i >= 0; --i) {
    const ir::SourceRange at{0, static_cast<std::uint32_t>(i) + 3, 3, static_cast<std::uint32_t>(i) + 3, 20};
    next = k.if_(k.binary(ir::BinaryOp::Eq, k.local(t), k.constant(ir::ScalarType::I32, i)),
                 k.assign(r, k.constant(ir::ScalarType::I32, i + 1)), next, at);
  }
  k.root = k.block({declare_t, next});
  TempDir dir;
  write_file(dir.file("chain.json"), ir::to_json(k));
  const CliResult out = run_warpdiv(
      {"analyze", "--model", dir.file("chain.json"), "--grid", "1", "--block", "64", "--csv", "-"});
  ASSERT_EQ(out.status, 0) << out.err;
  EXPECT_TRUE(contains(out.out, "chain.cu,3,3,if,,2,1,")) << out.out.substr(0, 2000);      // test 0
  EXPECT_TRUE(contains(out.out, "chain.cu,35,3,if,,1,1,")) << out.out.substr(0, 2000);     // test 32
  EXPECT_TRUE(contains(out.out, "chain.cu,66,3,if,,1,0,")) << out.out.substr(0, 2000);     // test 63
  EXPECT_TRUE(contains(out.out, "chain.cu,67,3,if,,0,0,")) << out.out.substr(0, 2000);     // test 64
  EXPECT_TRUE(contains(out.out, "chain.cu,50002,3,if,,0,0,")) << out.out.substr(0, 2000);  // last
}

// --arg takes the whole range of the parameter's type (an unsigned long long up to 2^64 - 1) and
// Unicode parameter names. With u = 2^64 - 1 every thread passes `threadIdx.x < u`; with
// n\u00f1 = 40 the 64 threads of one block split 40 / 24: warp 0 all in, warp 1 (32..63) 8 in.
TEST(NoGuesses, ArgTakesTheParametersWholeRangeAndUnicodeNames) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  TempDir dir;
  const std::string file =
      write(dir, "k.cu",
            "__global__ void k(int* out, unsigned long long u, int \xc3\xb1, unsigned s) {\n"
            "  if (threadIdx.x < u) out[threadIdx.x] = 1;\n"
            "  if (threadIdx.x < \xc3\xb1) out[threadIdx.x] = 2;\n"
            "}\n");
  const std::vector<std::string> args = {"analyze", file,
                                         "--grid",  "1",
                                         "--block", "\xc3\xb1+24",
                                         "--arg",   "u=18446744073709551615",
                                         "--arg",   "\xc3\xb1=40",
                                         "--arg",   "s=4294967295",
                                         "--csv",   "-"};
  const CliResult r = run_warpdiv(args);
  ASSERT_EQ(r.status, 0) << r.err;
  // file,line,column,kind,iteration,warp_evaluations,divergent,...: line 2 never diverges, line 3
  // diverges in warp 1 only.
  EXPECT_TRUE(contains(r.out, ",2,3,if,,2,0,")) << r.out;
  EXPECT_TRUE(contains(r.out, ",3,3,if,,2,1,")) << r.out;
  // Out of the parameter's type: one line naming the type's range.
  const std::vector<std::string> negative = {"analyze", file,  "--grid", "1",          "--block", "64",
                                             "--arg",   "u=5", "--arg",  "\xc3\xb1=1", "--arg",   "s=-1"};
  expect_refusal(run_warpdiv(negative), BadInput{negative, "--arg s:"});
  EXPECT_TRUE(contains(run_warpdiv(negative).err, "4294967295")) << run_warpdiv(negative).err;
}

}  // namespace
}  // namespace warpdiv::testing
