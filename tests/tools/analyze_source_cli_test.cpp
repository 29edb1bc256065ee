// `warpdiv analyze FILE.cu` / `--model FILE` through the real binary: dispatch, the saved model,
// and the bad-input suite (each refusal: exit 2, one line naming the fault, no file; Clang's own
// diagnostics are printed as Clang prints them).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "analysis/csv.hpp"
#include "tests/tools/analyze_source_support.hpp"
#include "tests/tools/cli_runner.hpp"
#include "tests/tools/pty_runner.hpp"

namespace warpdiv::testing {
namespace {

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
        BadInput{
            {kNaive, "--grid", "7,7", "--block", "16,16", "--arg", "Width=100", "--cuda-headers", "nvcc"},
            "is not one of builtin, toolkit, auto"},
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
        BadInput{{kNaive, "--grid", "7,7", "--block", "16,16", "--arg", "Width=100", "--tile", "16"},
                 "--tile sets the lecture kernel's launch (warpdiv analyze without a file); for "
                 "FILE.cu give --grid, --block and --arg NAME=VALUE"},
        // A misspelt name is neither a parameter (Width) nor in --grid/--block: refused, not ignored.
        BadInput{{kNaive, "--grid", "7,7", "--block", "16,16", "--arg", "Width=100", "--arg", "Widht=100"},
                 "--arg 'Widht' names no parameter of MatrixMulKernel (Width) and no name in --grid "
                 "or --block; did you mean Width?"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--arg", "N=1", "--arg", "N=2"},
                 "--arg N is given twice"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--arg", "Width=1.5"},
                 "--arg Width: Width is int32, which takes a decimal integer from -2147483648 to "
                 "2147483647 (got '1.5')"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--arg", "Width=0x10"},
                 "--arg 'Width' must be a decimal integer from -9223372036854775808 to "
                 "18446744073709551615 (the parameter's type narrows it), or for a float or double "
                 "parameter a decimal number such as -2.5 or 1e-3 (got '0x10')"},
        BadInput{{kNaive, "--grid", "Width/2", "--block", "128", "--arg", "Width=2.5"},
                 "--grid 'Width/2': 'Width' = 2.5 is not an integer (--grid and --block compute with "
                 "integers)"},
        // A float parameter takes a decimal, rounded once to float; past float's range: refused.
        BadInput{{kZoo + "grid_stride_loop.cu", "--grid", "2", "--block", "64", "--arg", "n=100", "--arg",
                  "a=3.40282357e38"},
                 "--arg a: 3.40282357e38 is outside float's range (a is float: a finite nonzero value "
                 "from 1.4e-45 to 3.4028235e+38 in magnitude; give 0 for zero)"},
        BadInput{{kZoo + "grid_stride_loop.cu", "--grid", "2", "--block", "64", "--arg", "n=100", "--arg",
                  "a=7e-46"},
                 "--arg a: 7e-46 is outside float's range"},
        // --alloc gives a pointer parameter's buffer; an access outside it is bad input.
        // saxpy, grid 2 x 64, n = 200: i = blockIdx.x * 64 + threadIdx.x + 128 k. x holds 150
        // floats: i = 150 first comes in block 0 (thread 22, k = 1; block 1 starts at 64 + 128 k,
        // so i = 150 would need thread 86). Warp 0 of block 0 runs first: its lane 22.
        BadInput{
            {kZoo + "grid_stride_loop.cu", "--grid", "2", "--block", "64", "--arg", "n=200", "--alloc",
             "x=150", "--alloc", "y=200"},
            "grid_stride_loop.cu:16:16: error: out of bounds: 'x[i]' reads element 150 of 'x', which holds "
            "150 elements of 4 bytes (0 to 149), in block (0, 0, 0), thread (22, 0, 0)"},
        // By the replay alone, with y too short as well: of the accesses out of bounds, the first
        // in source order is named: the store `y[i] = ...` at column 5. Element 140 = 12 + 128:
        // thread 12 of block 0 in its second iteration.
        BadInput{{kZoo + "grid_stride_loop.cu", "--grid", "2", "--block", "64", "--arg", "n=200", "--alloc",
                  "x=150", "--alloc", "y=140", "--engine", "replay"},
                 "grid_stride_loop.cu:16:5: error: out of bounds: 'y[i]' writes element 140 of 'y', which "
                 "holds 140 "
                 "elements of 4 bytes (0 to 139), in block (0, 0, 0), thread (12, 0, 0)"},
        // A __shared__ array has its size: an access past it is bad input with no flag at all.
        // The interleaved reduction's partialSum holds 2 x 256 floats; with blocks of 1,000
        // threads, of the accesses out of bounds the first in source order is named,
        // `partialSum[t]` (line 15), at its first thread past the array: t = 512. This launch
        // is what made the real kernel stop with "illegal memory access" on the H100
        // (data/validation/README.md, the zoo with the real kernel's outputs).
        BadInput{{kZoo + "reduction_interleaved.cu", "--grid", "3", "--block", "1000"},
                 "reduction_interleaved.cu:15:3: error: out of bounds: 'partialSum[t]' writes element 512 of "
                 "'partialSum', which holds 512 elements of 4 bytes (0 to 511), in block (0, 0, 0), "
                 "thread (512, 0, 0)"},
        // extern __shared__ is sized by --dynamic-smem: sdata[tid] with 256 threads needs 1,024
        // bytes; given 512 (128 ints), thread 128 writes the first element past it.
        BadInput{
            {kZoo + "cg_reduction.cu", "--grid", "2", "--block", "256", "--arg", "n=1000", "--dynamic-smem",
             "512", "--engine", "replay"},
            "cg_reduction.cu:20:3: error: out of bounds: 'sdata[tid]' writes element 128 of 'sdata', which "
            "holds 128 elements of 4 bytes (0 to 127), in block (0, 0, 0), thread (128, 0, 0)"},
        BadInput{{kZoo + "grid_stride_loop.cu", "--grid", "2", "--block", "64", "--arg", "n=200", "--alloc",
                  "z=5"},
                 "--alloc 'z' names no pointer parameter of saxpy whose element size is known (x, y)"},
        BadInput{{kZoo + "grid_stride_loop.cu", "--grid", "2", "--block", "64", "--arg", "n=200", "--alloc",
                  "x=0"},
                 "--alloc x must be an integer from 1 to 1099511627776 (got '0')"},
        BadInput{{kZoo + "grid_stride_loop.cu", "--grid", "2", "--block", "64", "--arg", "n=200", "--alloc",
                  "x=4", "--alloc", "x=5"},
                 "--alloc x is given twice"},
        // Width 46,340: P holds 46340^2 = 2,147,395,600 floats; one fewer leaves out the last,
        // written by Row = Col = 46339: block (2896, 2896), thread (46339 - 2896 x 16 = 3, 3).
        // Too big to replay: the class engine's corner run names it.
        BadInput{{kNaive, "--grid", "2897,2897", "--block", "16,16", "--arg", "Width=46340", "--alloc",
                  "P=2147395599"},
                 "naive_matmul.cu:20:5: error: out of bounds: 'P[Row*Width+Col]' writes element 2147395599 "
                 "of 'P', "
                 "which holds 2147395599 elements of 4 bytes (0 to 2147395598), in block (2896, 2896, 0), "
                 "thread (3, 3, 0), and which block meets such a fault first takes the replay, here "},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--warp-size", "48"},
                 "--warp-size must be a power of two from 1 to 64"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--only-block", "4"},
                 "--only-block 4 is outside the grid (4, 1, 1)"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--only-warp", "4"},
                 "--only-warp must be an integer from 0 to 3"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--engine", "fast"},
                 "--engine must be auto, exact, replay or all (got 'fast')"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--by-class", "--engine", "replay"},
                 "--by-class needs the class engine"},
        BadInput{{kNaive, "--grid", "4", "--block", "128", "--by-class", "--engine", "all"},
                 "--by-class needs the class engine: use --engine auto or exact, not all"},
        BadInput{{kNaive, "--model", "m.json", "--grid", "4", "--block", "4"},
                 "give FILE.cu or --model FILE, not both"},
        BadInput{{kNaive, kNaive, "--grid", "4", "--block", "4"}, "takes one file"},
        BadInput{{"--grid", "4", "--block", "4"}, "needs FILE.cu or --model FILE"},
        BadInput{{"--model", kNaive, "--kernel", "k", "--grid", "4", "--block", "4"},
                 "--kernel applies to a source file"},
        BadInput{{"--model", "/nonexistent/m.json", "--grid", "4", "--block", "4"},
                 "cannot read '/nonexistent/m.json': no such file or not readable"},
        BadInput{{"missing.cu", "--grid", "4", "--block", "4"},
                 "cannot read 'missing.cu': no such file or not readable"}));

TEST(AnalyzeSource, RefusalLeavesAnExistingCsvAlone) {
  TempDir dir;
  write_file(dir.file("keep.csv"), "precious\n");
  const CliResult r =
      run_warpdiv({"analyze", kNaive, "--grid", "7,7", "--block", "32,33", "--csv", dir.file("keep.csv")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(read_file(dir.file("keep.csv")), "precious\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.csv"});
}

// Inputs never hang: a FIFO that no process writes to, as the source or as --model, and a folder.
TEST(AnalyzeSource, FifoAndFolderInputsAreRefusedWithoutWaiting) {
  TempDir dir;
  ASSERT_EQ(::mkfifo(dir.file("pipe").c_str(), 0600), 0);
  const std::string launch = " --grid 1 --block 32 </dev/null";
  // `timeout` ends a hang with 124: a refusal must come well before.
  const CliResult source = run_shell("timeout 20 " + shell_quote(warpdiv_binary()) + " analyze " +
                                     shell_quote(dir.file("pipe")) + launch);
  expect_refusal(source, {{}, "': not a regular file (give the kernel's .cu source file)"});
  const CliResult model = run_shell("timeout 20 " + shell_quote(warpdiv_binary()) + " analyze --model " +
                                    shell_quote(dir.file("pipe")) + launch);
  expect_refusal(model, {{}, "is a FIFO that no process writes to"});
  const CliResult folder = run_warpdiv({"analyze", dir.path(), "--grid", "1", "--block", "32"});
  expect_refusal(folder, {{}, "': not a regular file"});
}

TEST(AnalyzeSource, LectureFormIsUnchanged) {
  // No file and none of the source flags: the lecture's report, as before.
  const CliResult r = run_warpdiv({"analyze", "--warp-size", "32"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "350/2744")) << r.out;
}

// --engine all: the class engine, the interpreter and (where the plugin is) native code count the
// naive multiply's launch alike; the report and the CSV are the replay's, byte for byte, and one
// note on stderr says how many engines agree. Under WARPDIV_NATIVE=off native code is left out.
TEST(AnalyzeSource, EngineAllComparesEveryEngineAndReportsTheReplays) {
  if (!reads_sources()) GTEST_SKIP() << "built without the Clang front-end";
  TempDir dir;
  const CliResult all =
      run_warpdiv(with({"analyze", kNaive, "--engine", "all", "--csv", dir.file("out.csv")}, kNaiveLaunch));
  const std::string all_csv = read_file(dir.file("out.csv"));
  const CliResult replay = run_warpdiv(
      with({"analyze", kNaive, "--engine", "replay", "--csv", dir.file("out.csv")}, kNaiveLaunch));
  ASSERT_EQ(all.status, 0) << all.err;
  ASSERT_EQ(replay.status, 0) << replay.err;
  EXPECT_EQ(all.out, replay.out);
  EXPECT_EQ(all_csv, read_file(dir.file("out.csv")));
  EXPECT_TRUE(
      contains(all.err,
               "warpdiv: note: all 3 engines agree (the replay, the class engine, native code) "
               "[warpdiv-engines-compared]\n") ||
      contains(
          all.err,
          "warpdiv: note: all 2 engines agree (the replay, the class engine) [warpdiv-engines-compared]\n"))
      << all.err;
  EXPECT_FALSE(contains(replay.err, "engines agree")) << replay.err;
  const CliResult off = run_shell("WARPDIV_NATIVE=off '" + std::string(WARPDIV_BINARY) + "' analyze '" +
                                  kNaive + "' --grid 7,7 --block 16,16 --arg Width=100 --engine all --csv '" +
                                  dir.file("out.csv") + "'");
  ASSERT_EQ(off.status, 0) << off.err;
  EXPECT_EQ(off.out, replay.out);
  EXPECT_TRUE(contains(
      off.err,
      "warpdiv: note: all 2 engines agree (the replay, the class engine) [warpdiv-engines-compared]\n"))
      << off.err;
}

TEST(AnalyzeSource, HelpOfTheSourceForm) {
  const CliResult r = run_warpdiv({"analyze", kNaive, "--help"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* flag :
       {"--kernel", "--grid", "--block", "--arg", "--warp-size", "-D", "-I", "--engine", "--csv", "--html",
        "--by-class", "--by-iteration", "--only-block", "--only-warp", "--save-model", "--model"})
    EXPECT_TRUE(contains(r.out, flag)) << flag;
}

// ---------------------------------------------------------------------------------------------
// Sources: these need the Clang front-end.

constexpr const char* kTwoKernels =
    "__global__ void first(int *a) { a[threadIdx.x] = 1; }\n"
    "__global__ void second(int *a) { a[threadIdx.x] = 2; }\n";

TEST_F(AnalyzeSourceFile, BadSources) {
  const std::vector<BadInput> cases = {
      {{source("two.cu", kTwoKernels), "--grid", "1", "--block", "32"}, "first, second"},
      {{source("two2.cu", kTwoKernels), "--kernel", "third", "--grid", "1", "--block", "32"}, "third"},
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
      {{kNaive, "--grid", "(Width+15)/16,(Width+15)/16", "--block", "16,16", "--arg", "Width=100000",
        "--engine", "replay"},
       "above its budget of 6000000000 (--max-evaluations)"},
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
  const CliResult r =
      run_warpdiv({"analyze", file, "--grid", "1", "--block", "32", "--csv", out.file("out.csv")});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "broken.cu:2:")) << r.err;
  EXPECT_TRUE(contains(r.err, "error: expected expression")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(out.entries().empty());
}

TEST_F(AnalyzeSourceFile, ErrorsInHostCodeAreNotesAndTheKernelIsRead) {
  const std::string file = source("host.cu",
                                  "__global__ void k(int *a) { a[threadIdx.x] = 1; }\n"
                                  "int main() {\n"
                                  "  glewInit();\n"
                                  "}\n");
  const CliResult r = run_warpdiv({"analyze", file, "--grid", "1", "--block", "32"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "warpdiv: note: " + file +
                       ":3:3: error in host code the kernel does not reach (main): use of "
                       "undeclared identifier 'glewInit' [warpdiv-unreached-error]\n");
  EXPECT_TRUE(contains(r.out, "counted: 1 block, 1 warp")) << r.out;
}

TEST_F(AnalyzeSourceFile, ManyHostErrorsAreCappedAndAnErrorInTheKernelStillFails) {
  std::string text = "__global__ void k(int *a) { a[threadIdx.x] = 1; }\nint main() {\n";
  for (int i = 0; i < 8; ++i) text += "  host_api_" + std::to_string(i) + "();\n";
  text += "}\n";
  const std::string file = source("many.cu", text);
  const CliResult r = run_warpdiv({"analyze", file, "--grid", "1", "--block", "32"});
  EXPECT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.err);
  std::vector<std::string> err;
  for (std::string line; std::getline(lines, line);) err.push_back(line);
  ASSERT_EQ(err.size(), 6u) << r.err;
  EXPECT_EQ(err[0], "warpdiv: note: " + file +
                        ":3:3: error in host code the kernel does not reach (main): use of "
                        "undeclared identifier 'host_api_0' [warpdiv-unreached-error]");
  EXPECT_TRUE(contains(err[4], "'host_api_4'")) << err[4];
  EXPECT_EQ(err[5],
            "warpdiv: note: and 3 more errors in code the kernel does not reach [warpdiv-unreached-error]");

  TempDir out;
  const std::string broken = source("broken_kernel.cu",
                                    "__global__ void k(int *a) { a[threadIdx.x] = nope; }\n"
                                    "int main() { glewInit(); }\n");
  const CliResult b =
      run_warpdiv({"analyze", broken, "--grid", "1", "--block", "32", "--csv", out.file("out.csv")});
  EXPECT_EQ(b.status, 2);
  EXPECT_EQ(b.err.rfind(broken + ":1:46: error: use of undeclared identifier 'nope'", 0), 0u) << b.err;
  EXPECT_FALSE(contains(b.err, "glewInit")) << b.err;
  EXPECT_TRUE(b.out.empty()) << b.out;
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
    const CliResult r = run_warpdiv(with(with({"analyze", file}, define), {"--grid", "1", "--block", "64"}));
    ASSERT_EQ(r.status, 0) << r.err;
    // Warp 0 (lanes 0..31) all in, warp 1 (32..63) split at 40: 2 evaluations, 1 divergent.
    EXPECT_TRUE(contains(r.out, "    2            2           1   100.0%    if (threadIdx.x < LIMIT)"))
        << r.out;
  }
}

// Float and double parameters take decimals, each rounded once to the parameter's own
// type (as a C++ literal of that type is), whatever the type's spelling. By hand: 1 + 2^-24 + 8.7e-19
// lies above the midpoint of 1 and 1 + 2^-23, so as a float it is 1 + 2^-23 = 1.00000011920928955...,
// shown as its shortest decimal 1.0000001; read as a double first it would be 1 + 2^-24 exactly, a
// tie that float rounds to even: 1. As a double, 0.1 is 0.1000000000000000055..., shown as 0.1.
// Values the model does not compute with, shown on the launch line and passed to the GPU runs.
TEST_F(AnalyzeSourceFile, FloatArgumentsAreRoundedOnceToTheParametersType) {
  const std::string file = source("floats.cu",
                                  "typedef float real;\n"
                                  "__global__ void k(real a, double b, int n, float *p) {\n"
                                  "  if (threadIdx.x < n)\n"
                                  "    p[threadIdx.x] = a * b;\n"
                                  "}\n");
  const std::vector<std::string> launch = {
      "--grid", "1", "--block", "32", "--arg", "a=1.00000005960464477626", "--arg", "b=0.1", "--arg", "n=3"};
  const CliResult r = run_warpdiv(with({"analyze", file}, launch));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(
      r.out, "launch: grid (1, 1, 1), block (32, 1, 1), warp size 32; a = 1.0000001, b = 0.1, n = 3"))
      << r.out;
  // Not given: 0 (the model does not compute with them).
  const CliResult zero = run_warpdiv({"analyze", file, "--grid", "1", "--block", "32", "--arg", "n=3"});
  ASSERT_EQ(zero.status, 0) << zero.err;
  EXPECT_TRUE(contains(zero.out, "; a = 0, b = 0, n = 3")) << zero.out;
  // The saved model knows which parameters are float and double.
  TempDir dir;
  ASSERT_EQ(run_warpdiv({"analyze", file, "--save-model", dir.file("m.json")}).status, 0);
  const CliResult from_model = run_warpdiv(with({"analyze", "--model", dir.file("m.json")}, launch));
  ASSERT_EQ(from_model.status, 0) << from_model.err;
  EXPECT_EQ(from_model.out, r.out);
  // A double takes what a float cannot hold.
  const CliResult big = run_warpdiv({"analyze", file, "--grid", "1", "--block", "32", "--arg", "n=3", "--arg",
                                     "b=1e300", "--arg", "a=-2.5"});
  ASSERT_EQ(big.status, 0) << big.err;
  EXPECT_TRUE(contains(big.out, "; a = -2.5, b = 1e+300, n = 3")) << big.out;
}

// Buffers given with --alloc; in bounds the report is the one without them. Before
// the buffer: `a[i - 1]` at thread 0 reads element -1.
TEST_F(AnalyzeSourceFile, AllocChecksEveryAccessAgainstItsBuffer) {
  const std::vector<std::string> saxpy = {
      "analyze", kZoo + "grid_stride_loop.cu", "--grid", "2", "--block", "64", "--arg", "n=200", "--arg",
      "a=2"};
  const CliResult plain = run_warpdiv(saxpy);
  const CliResult sized = run_warpdiv(with(saxpy, {"--alloc", "x=200", "--alloc", "y=200"}));
  ASSERT_EQ(plain.status, 0) << plain.err;
  ASSERT_EQ(sized.status, 0) << sized.err;
  EXPECT_EQ(plain.out, sized.out);
  const std::string file = source("before.cu",
                                  "__global__ void k(const int *a, int *b) {\n"
                                  "  int i = threadIdx.x;\n"
                                  "  b[i] = a[i - 1];\n"
                                  "}\n");
  const CliResult before = run_warpdiv({"analyze", file, "--grid", "1", "--block", "64", "--alloc", "a=64"});
  EXPECT_EQ(before.status, 2);
  EXPECT_TRUE(contains(before.err,
                       "before.cu:3:10: error: out of bounds: 'a[i - 1]' reads element -1 of 'a', which "
                       "holds 64 elements of 4 bytes (0 to 63), in block (0, 0, 0), thread (0, 0, 0)"))
      << before.err;
  // Only b given: a is not checked (its size is unknown), the launch is counted.
  const CliResult unchecked =
      run_warpdiv({"analyze", file, "--grid", "1", "--block", "64", "--alloc", "b=64"});
  EXPECT_EQ(unchecked.status, 0) << unchecked.err;
}

// --data gives a buffer's values; a branch on integers loaded from it is counted on
// them. The CSR SpMV, one thread per row, on data/samples/spmv_tiny (row lengths 2, 0, 3, 1, 4:
// row_ptr = 0 2 2 5 6 10), one warp of 32 with num_rows = 5: the loop's condition is evaluated
// at k = 0..4 by the lanes of rows with length >= k: 5 + 4 + 3 + 2 + 1 = 15 lanes, SIMD
// 15 / (5 x 32) = 9.4%; divergent at k = 0..3 (some stay, some leave), not at k = 4 (row 4
// alone, leaving). The body runs at k = 0..3 with 4 + 3 + 2 + 1 = 10 lanes: 10 / 128 = 7.8%;
// it makes 3 loads per iteration (values, col_idx, x): 12 requests.
TEST_F(AnalyzeSourceFile, DataGivesTheValuesBranchesDependOn) {
  const std::string kernel = kZoo + "data/spmv_csr_scalar.cu";
  const std::string tiny = std::string(WARPDIV_SOURCE_DIR) + "/data/samples/spmv_tiny/";
  const std::vector<std::string> launch = {"analyze", kernel, "--grid", "1",
                                           "--block", "32",   "--arg",  "num_rows=5"};
  const CliResult counted = run_warpdiv(with(
      launch, {"--data", "row_ptr=" + tiny + "row_ptr.npy", "--data", "col_idx=" + tiny + "col_idx.npy"}));
  ASSERT_EQ(counted.status, 0) << counted.err;
  EXPECT_TRUE(
      contains(counted.out,
               "   24            5           4     9.4%      for (int jj = row_start; jj < row_end; jj++)"))
      << counted.out;
  EXPECT_TRUE(contains(counted.out,
                       "   25            4           -     7.8%        dot += values[jj] * x[col_idx[jj]];"))
      << counted.out;
  EXPECT_TRUE(contains(counted.out, "   25          12 ")) << counted.out;
  // The class engine hands the launch to the replay, saying why, on one line.
  EXPECT_TRUE(contains(counted.err,
                       "spmv_csr_scalar.cu:24:5: the class engine cannot prove the block classes: the "
                       "condition of this for depends on row_ptr[row + 1] (global memory)"))
      << counted.err;
  EXPECT_TRUE(contains(counted.err, "counting every block with the replay instead")) << counted.err;
  // The same matrix from its Matrix Market file (A.mtx lists the entries column by column, 1-based:
  // CHOLMOD's reader sorts them into the CSR views): the same report.
  const CliResult mtx = run_warpdiv(with(launch, {"--data", "row_ptr=" + tiny + "A.mtx:csr.row_ptr", "--data",
                                                  "col_idx=" + tiny + "A.mtx:csr.col_idx"}));
  ASSERT_EQ(mtx.status, 0) << mtx.err;
  EXPECT_EQ(mtx.out, counted.out);
  // A saved model keeps the loads' links and the pointee types: with the data given again, the
  // same report.
  const std::string model = sources_.file("spmv.json");
  ASSERT_EQ(run_warpdiv({"analyze", kernel, "--save-model", model}).status, 0);
  const CliResult from_model =
      run_warpdiv({"analyze", "--model", model, "--grid", "1", "--block", "32", "--arg", "num_rows=5",
                   "--data", "row_ptr=" + tiny + "row_ptr.npy", "--data", "col_idx=" + tiny + "col_idx.npy"});
  ASSERT_EQ(from_model.status, 0) << from_model.err;
  EXPECT_EQ(from_model.out, counted.out);
  // Zeros (--alloc): every row is empty, no lane enters the loop; its one evaluation is uniform.
  const CliResult zeros = run_warpdiv(with(launch, {"--alloc", "row_ptr=6"}));
  ASSERT_EQ(zeros.status, 0) << zeros.err;
  EXPECT_TRUE(contains(zeros.out, "   24            1           0    15.6%")) << zeros.out;

  // Without the values: refused, naming the flag that gives them.
  const CliResult missing = run_warpdiv(launch);
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(contains(
      missing.err,
      "spmv_csr_scalar.cu:24:5: error: data-dependent branch: the condition of this for depends on "))
      << missing.err;
  EXPECT_TRUE(contains(missing.err,
                       "give the values of 'row_ptr' with --data row_ptr=FILE (or --alloc row_ptr=COUNT for "
                       "zeros)"))
      << missing.err;
  // One element short: the last row's row_ptr[row + 1] is outside (thread 4 of row 4 reads element 5).
  const std::string short_bin =
      source("short.bin", std::string("\0\0\0\0\2\0\0\0\2\0\0\0\5\0\0\0\6\0\0\0", 20));
  const CliResult outside = run_warpdiv(with(launch, {"--data", "row_ptr=" + short_bin}));
  EXPECT_EQ(outside.status, 2);
  EXPECT_TRUE(
      contains(outside.err,
               "spmv_csr_scalar.cu:23:19: error: out of bounds: 'row_ptr[row + 1]' reads element 5 of "
               "'row_ptr', which holds 5 elements of 4 bytes (0 to 4), in block (0, 0, 0), "
               "thread (4, 0, 0)"))
      << outside.err;
  // Bad input: one line each, exit 2, and an output never replaces a data file.
  const std::string odd = source("odd.bin", "123456");
  const std::string text = source("rows.txt", "abc");
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--data", "row_ptr=" + tiny + "values.npy"},
       "--data row_ptr=" + tiny +
           "values.npy: the file holds float32 (<f4) but the parameter points to int (int32)"},
      {{"--data", "row_ptr=" + odd}, ": 6 bytes are not a whole number of int elements of 4 bytes"},
      {{"--data", "row_ptr=" + text},
       ": a text file gives a char buffer's bytes, but 'row_ptr' points to int (use .npy or .bin)"},
      {{"--data", "rowptr=" + odd},
       "--data 'rowptr' names no pointer parameter of spmv_csr_scalar whose element size is "
       "known (row_ptr, col_idx, values, x, y); did you mean row_ptr?"},
      {{"--data", "row_ptr"}, "--data must be NAME=FILE (got 'row_ptr')"},
      {{"--data", "row_ptr=" + tiny + "row_ptr.npy", "--alloc", "row_ptr=6"},
       "--data row_ptr and --alloc row_ptr both give its buffer: choose one"},
      {{"--data", "row_ptr=" + tiny + "row_ptr.npy", "--data", "row_ptr=" + tiny + "row_ptr.npy"},
       "--data row_ptr is given twice"},
      {{"--data", "row_ptr=" + sources_.file("absent.npy")}, "--data row_ptr: '"},
      {{"--data", "row_ptr=" + tiny + "A.mtx"},
       ": a Matrix Market file needs a view, FILE.mtx:VIEW (csr.row_ptr, "
       "csr.col_idx, csr.values, coo.row, coo.col, coo.values)"},
      {{"--data", "row_ptr=" + tiny + "A.mtx:csr.rowptr"},
       "the view 'csr.rowptr' is not known (did you mean csr.row_ptr?)"},
  };
  for (const auto& [flags, message] : bad) {
    const CliResult r = run_warpdiv(with(launch, flags));
    EXPECT_EQ(r.status, 2) << message;
    EXPECT_TRUE(contains(r.err, message)) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  const std::string before = read_file(tiny + "row_ptr.npy");
  const CliResult clobber =
      run_warpdiv(with(launch, {"--data", "row_ptr=" + tiny + "row_ptr.npy", "--csv", tiny + "row_ptr.npy"}));
  EXPECT_EQ(clobber.status, 2);
  EXPECT_TRUE(contains(clobber.err, "an output never replaces an input")) << clobber.err;
  EXPECT_EQ(read_file(tiny + "row_ptr.npy"), before);
  const CliResult save_only = run_warpdiv({"analyze", kernel, "--save-model", sources_.file("m.json"),
                                           "--data", "row_ptr=" + tiny + "row_ptr.npy"});
  EXPECT_EQ(save_only.status, 2);
  EXPECT_TRUE(contains(save_only.err, "--data needs a launch")) << save_only.err;
}

TEST_F(AnalyzeSourceFile, ToolkitHeadersGiveTheSameReport) {
  if (::access("/usr/local/cuda/include/cuda_runtime.h", R_OK) != 0)
    GTEST_SKIP() << "no CUDA Toolkit: /usr/local/cuda/include/cuda_runtime.h is missing";
  const CliResult builtin = run_warpdiv(with({"analyze", kNaive}, kNaiveLaunch));
  ASSERT_EQ(builtin.status, 0) << builtin.err;
  for (const char* headers : {"toolkit", "auto"}) {
    const CliResult toolkit =
        run_warpdiv(with(with({"analyze", kNaive}, kNaiveLaunch),
                         {"--cuda-headers", headers, "--cuda-path", "/usr/local/cuda"}));
    ASSERT_EQ(toolkit.status, 0) << toolkit.err;
    EXPECT_EQ(toolkit.out, builtin.out);
  }
  // A toolkit that is not there: exit 2, one line naming the folder.
  const CliResult missing =
      run_warpdiv(with(with({"analyze", kNaive}, kNaiveLaunch),
                       {"--cuda-headers", "toolkit", "--cuda-path", sources_.file("no-cuda")}));
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(contains(missing.err, "no CUDA Toolkit at " + sources_.file("no-cuda"))) << missing.err;
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
                       "\nStatements outside the kernel's lines (inlined functions, summed over "
                       "their calls; --by-call-site shows each call):\n"
                       "    2            2           1   100.0%    if (v > hi)\n"
                       "    3            1           -    71.9%      return hi;\n"
                       "    4            2           -    64.1%    return v;\n"))
      << r.out;
}

// The CSV's statement column holds each statement's own text: two statements on one line are
// two texts, a condition's is its header to the ')' (not the body after it), a for's init and
// step are their own, and a header written over two lines is joined. One warp of 32: t < 5 for 5
// lanes, t > 20 for 11, the loop tests 0 + 1 + ... + 31 + 32 times over lanes (32 evaluations).
TEST_F(AnalyzeSourceFile, CsvStatementsAreTheirOwnText) {
  const std::string file = source("two.cu",
                                  "__global__ void k(int *out) {\n"
                                  "  int t = threadIdx.x;\n"
                                  "  if (t < 5) out[t] = 1; if (t > 20) out[t] = 2; // trailing\n"
                                  "  for (int i = 0;\n"
                                  "       i < t; ++i) { out[t] += i; }\n"
                                  "}\n");
  TempDir dir;
  const CliResult r =
      run_warpdiv({"analyze", file, "--grid", "1", "--block", "32", "--csv", dir.file("k.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string csv = read_file(dir.file("k.csv"));
  for (const char* row : {",3,3,if,,1,1,32,5,", ",3,26,if,,1,1,32,11,", ",4,3,for,,32,31,"})
    EXPECT_TRUE(contains(csv, file + row)) << row << "\n" << csv;
  for (const char* text :
       {",int t = threadIdx.x,", ",if (t < 5),", ",out[t] = 1,", ",if (t > 20),", ",out[t] = 2,",
        ",for (int i = 0; i < t; ++i),", ",int i = 0,", ",++i,", ",out[t] += i,"})
    EXPECT_TRUE(contains(csv, std::string(text) + ",yes\n")) << text << "\n" << csv;
  EXPECT_FALSE(contains(csv, "trailing")) << csv;
}

// A __device__ function called from two places: its statements are counted at each call, the
// text and the HTML show the sum, the CSV a row per call with the call's place.
TEST_F(AnalyzeSourceFile, FunctionCalledTwiceIsCountedAtEachCall) {
  const std::string file = source("twice.cu",
                                  "__device__ int f(int x) {\n"
                                  "  if (x < 40)\n"
                                  "    return 1;\n"
                                  "  return 2;\n"
                                  "}\n"
                                  "\n"
                                  "__global__ void k(int *out) {\n"
                                  "  int t = threadIdx.x;\n"
                                  "  int a = f(t);\n"
                                  "  int b = f(t + 1);\n"
                                  "  out[t] = a + b;\n"
                                  "}\n");
  TempDir dir;
  const CliResult r = run_warpdiv({"analyze", file, "--grid", "1", "--block", "64", "--csv",
                                   dir.file("k.csv"), "--html", dir.file("k.html")});
  ASSERT_EQ(r.status, 0) << r.err;
  // Two warps (t 0..31, 32..63), two calls: the if is reached 4 times. Call 1 (x = t): warp 1
  // splits at 40 (lanes 32..39 true). Call 2 (x = t + 1): warp 1 splits at 39 (32..38 true).
  // `return 1` runs in both warps at both calls: 4 evaluations with 32 + 8 + 32 + 7 = 79 lanes
  // (79 / 128 = 61.7%); `return 2` in warp 1 only: 2 evaluations, 24 + 25 = 49 lanes (76.6%).
  EXPECT_TRUE(contains(r.out,
                       "    2            4           2   100.0%    if (x < 40)\n"
                       "    3            4           -    61.7%      return 1;\n"
                       "    4            2           -    76.6%    return 2;\n"))
      << r.out;
  const std::string csv = read_file(dir.file("k.csv"));
  const std::string at9 = file + ":9:11", at10 = file + ":10:11";
  // file,line,column,kind,iteration,warp_evaluations,divergent,active_lanes,taken_lanes,...
  EXPECT_TRUE(contains(csv, file + ",2,3,if,,2,1,64,40,")) << csv;
  EXPECT_TRUE(contains(csv, file + ",2,3,if,,2,1,64,39,")) << csv;
  EXPECT_TRUE(contains(csv, "if (x < 40)," + at9 + ",yes\n")) << csv;
  EXPECT_TRUE(contains(csv, "if (x < 40)," + at10 + ",yes\n")) << csv;
  EXPECT_TRUE(contains(csv, "int t = threadIdx.x,,yes\n")) << csv;
  // The HTML shows the sum, with each call's figures in the line's tooltip.
  const std::string html = read_file(dir.file("k.html"));
  EXPECT_TRUE(contains(html, "&times;2</span></td><td>4</td><td>2 (50.0%)</td>")) << html;
  EXPECT_TRUE(contains(html, "inlined at " + at9 + ": 2 warp evals, 1 divergent")) << html;
  // --by-call-site: each call under the sum.
  const CliResult split = run_warpdiv({"analyze", file, "--grid", "1", "--block", "64", "--by-call-site"});
  ASSERT_EQ(split.status, 0) << split.err;
  EXPECT_TRUE(contains(split.out,
                       "    2            4           2   100.0%    if (x < 40)\n"
                       "                 2           1   100.0%      inlined at " +
                           at9 +
                           "\n"
                           "                 2           1   100.0%      inlined at " +
                           at10 +
                           "\n"
                           "    3            4           -    61.7%      return 1;\n"
                           "                 2           -    62.5%        inlined at " +
                           at9 +
                           "\n"
                           "                 2           -    60.9%        inlined at " +
                           at10 + "\n"))
      << split.out;
}

// The CSV's whole-kernel rows of `file` summed by line: per line, the `columns` (an empty cell
// is 0).
std::map<std::uint32_t, std::vector<unsigned long long>> csv_by_line(
    const std::string& csv, const std::string& file, const std::vector<std::string>& columns) {
  analysis::CsvTokenizer rows(csv, "out.csv");
  const std::vector<std::string> header = rows.next().fields;
  const auto at = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  std::map<std::uint32_t, std::vector<unsigned long long>> sums;
  while (!rows.at_end()) {
    const std::vector<std::string> f = rows.next().fields;
    if (f.at(at("file")) != file || !f.at(at("iteration")).empty()) continue;
    std::vector<unsigned long long>& sum = sums[static_cast<std::uint32_t>(std::stoul(f.at(at("line"))))];
    sum.resize(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (!f.at(at(columns[c])).empty()) sum[c] += std::stoull(f.at(at(columns[c])));
  }
  return sums;
}

// A call's arguments are part of the call's statement: `st(out, t, a[t])` is one row in the CSV,
// with the load of a[t], and no argument has a row of its own, not even one on a line of its own.
// The CSV summed by line gives the text report's figures; st, inlined at two calls, keeps a row per
// call. One block of 64 threads, two warps; the buffers' bases are aligned:
//   line 3: 2 warp evaluations, 64 lanes;
//   line 4: 2 evaluations, 64 lanes; a[t]: per warp one request for 128 bytes, 4 sectors;
//   line 5: `if (t < 8)`: 2 evaluations, 64 lanes, warp 0 divergent (lanes 0..7 in), warp 1 not;
//   line 6: the call in warp 0, 8 lanes: 1 evaluation; a[2 * t] (line 7) reads 8 floats 8 bytes
//           apart, bytes 0..59: 1 request, 2 sectors, 32 bytes asked;
//   line 1: `p[i] = v` from line 4 (2 evaluations, 64 lanes, 2 requests, 8 sectors, 256 bytes) and
//           from line 6 (1, 8 lanes, out[64..71]: bytes 256..287, 1 request, 1 sector, 32 bytes).
TEST_F(AnalyzeSourceFile, ACallsArgumentsArePartOfItsRowInTheCsv) {
  const std::string file = source("args.cu",
                                  "__device__ void st(float *p, int i, float v) { p[i] = v; }\n"
                                  "__global__ void k(float *out, const float *a) {\n"
                                  "  int t = threadIdx.x;\n"
                                  "  st(out, t, a[t]);\n"
                                  "  if (t < 8)\n"
                                  "    st(out,\n"
                                  "       t + 64, a[2 * t]);\n"
                                  "}\n");
  TempDir dir;
  const CliResult r =
      run_warpdiv({"analyze", file, "--grid", "1", "--block", "64", "--csv", dir.file("k.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string csv = read_file(dir.file("k.csv"));
  using Sums = std::vector<unsigned long long>;
  const std::map<std::uint32_t, Sums> expected = {
      // warp evaluations, active lanes, divergent, global requests, sectors, bytes
      {1, {3, 72, 0, 3, 9, 288}}, {3, {2, 64, 0, 0, 0, 0}}, {4, {2, 64, 0, 2, 8, 256}},
      {5, {2, 64, 1, 0, 0, 0}},   {6, {1, 8, 0, 1, 2, 32}},
  };
  EXPECT_EQ(csv_by_line(csv, file,
                        {"warp_evaluations", "active_lanes", "divergent", "global_requests", "global_sectors",
                         "global_bytes"}),
            expected)
      << csv;
  // A row per call of st: lines 4 and 6.
  EXPECT_TRUE(contains(csv, ",1.0000,p[i] = v," + file + ":4:3,yes\n")) << csv;
  EXPECT_TRUE(contains(csv, ",0.2500,p[i] = v," + file + ":6:5,yes\n")) << csv;
  // The text report: the same evaluations and SIMD efficiency by line, the same memory by line.
  EXPECT_TRUE(contains(r.out,
                       "    4            2           -   100.0%    st(out, t, a[t]);\n"
                       "    5            2           1   100.0%    if (t < 8)\n"
                       "    6            1           -    25.0%      st(out,\n"
                       "    7                                           t + 64, a[2 * t]);\n"))
      << r.out;
  const std::string memory = r.out.substr(r.out.find("\n line  global req"));
  EXPECT_TRUE(contains(memory, "\n    4           2        8  100.0%       2       0         0  ")) << r.out;
  EXPECT_TRUE(contains(memory, "\n    6           1        2   50.0%       1       0         0  ")) << r.out;
  EXPECT_FALSE(contains(memory, "\n    7 ")) << r.out;
}

// An assignment through a member operator[] starts where its call does: two statements at one
// place, each reached once per warp, never one statement counted twice.
TEST_F(AnalyzeSourceFile, AnAssignmentAndTheCallItStartsWithAreTwoStatements) {
  const std::string file = source("accessor.cu",
                                  "struct Buf {\n"
                                  "  int data[64];\n"
                                  "  __device__ int &operator[](int i) { return data[i]; }\n"
                                  "};\n"
                                  "__global__ void k(int *out) {\n"
                                  "  __shared__ Buf buffer;\n"
                                  "  int t = threadIdx.x;\n"
                                  "  buffer[t] = t;\n"
                                  "  out[t] = t;\n"
                                  "}\n");
  const CliResult r = run_warpdiv({"analyze", file, "--grid", "1", "--block", "64"});
  ASSERT_EQ(r.status, 0) << r.err;
  // Two warps reach line 8 once each: 2 warp evaluations, all 64 lanes.
  EXPECT_TRUE(contains(r.out, "    8            2           -   100.0%    buffer[t] = t;\n")) << r.out;
}

// An access the model cannot place (an index read from memory without values): the report says
// it is incomplete in its summary, the CSV's complete column and the HTML, and withholds the
// figures derived from the traffic.
TEST_F(AnalyzeSourceFile, IncompleteMemoryFiguresAreSaidAndDerivedOnesWithheld) {
  const std::string file = source("gather.cu",
                                  "__global__ void k(float *out, const float *a, const int *idx) {\n"
                                  "  int i = threadIdx.x;\n"
                                  "  out[i] = a[idx[i]] * 2.0f;\n"
                                  "}\n");
  TempDir dir;
  const CliResult r = run_warpdiv({"analyze", file, "--grid", "1", "--block", "32", "--csv",
                                   dir.file("k.csv"), "--html", dir.file("k.html")});
  ASSERT_EQ(r.status, 0) << r.err;
  // Three accesses (idx[i], a[idx[i]], out[i]); the gather's address is not known.
  EXPECT_TRUE(contains(r.out,
                       "counted: 1 block, 1 warp\nincomplete: memory figures of 1 of 3 "
                       "accesses not counted"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "arithmetic intensity and bound: withheld (figures incomplete)")) << r.out;
  EXPECT_FALSE(contains(r.out, "bytes asked per FLOP")) << r.out;
  EXPECT_FALSE(contains(r.out, "arithmetic intensity: ")) << r.out;
  const std::string csv = read_file(dir.file("k.csv"));
  EXPECT_TRUE(contains(csv, ",statement,inlined_at,complete\n")) << csv;
  EXPECT_TRUE(contains(csv, "out[i] = a[idx[i]] * 2.0f,,no\n")) << csv;
  EXPECT_FALSE(contains(csv, ",yes\n")) << csv;
  const std::string html = read_file(dir.file("k.html"));
  EXPECT_TRUE(contains(html, "id=\"incomplete\">Incomplete: memory figures of 1 of 3 accesses not counted"))
      << html;
  // The same kernel with the index's values: complete, and the intensity is given.
  const std::string values = dir.file("idx.bin");  // raw int32 elements: 31, 30, ..., 0
  {
    std::ofstream out(values, std::ios::binary);
    for (std::int32_t i = 31; i >= 0; --i) out.write(reinterpret_cast<const char*>(&i), sizeof i);
  }
  const CliResult full = run_warpdiv({"analyze", file, "--grid", "1", "--block", "32", "--data",
                                      "idx=" + values, "--csv", dir.file("full.csv")});
  ASSERT_EQ(full.status, 0) << full.err;
  EXPECT_FALSE(contains(full.out, "incomplete")) << full.out;
  EXPECT_TRUE(contains(full.out, "arithmetic intensity: ")) << full.out;
  EXPECT_TRUE(contains(read_file(dir.file("full.csv")), "out[i] = a[idx[i]] * 2.0f,,yes\n"));
}

// A bool holds 0 or 1: a raw .bin buffer of bools with another byte is refused, as .npy's is (the
// GPU's code reads the byte itself); 0s and 1s are read as written: lanes 0 .. 15 hold 1, so the
// branch diverges in the one warp (16 of 32 lanes store).
TEST_F(AnalyzeSourceFile, ABoolBufferOfABinFileHoldsZerosAndOnes) {
  const std::string file = source("b.cu",
                                  "__global__ void k(const bool *d, int *o) {\n  int i = threadIdx.x;\n"
                                  "  if ((int)d[i] == 1) o[i] = 1;\n}\n");
  TempDir dir;
  write_file(dir.file("two.bin"), std::string(32, '\2'));
  const CliResult two = run_warpdiv({"analyze", file, "--grid", "1", "--block", "32", "--data",
                                     "d=" + dir.file("two.bin"), "--csv", dir.file("k.csv")});
  EXPECT_EQ(two.status, 2);
  EXPECT_EQ(two.err,
            "warpdiv: error: --data d=" + dir.file("two.bin") +
                ": element 0 (byte 0 of the file) is 2; a bool element is 0 or 1 [warpdiv-file-content]\n");
  EXPECT_FALSE(file_exists(dir.file("k.csv")));
  write_file(dir.file("half.bin"), std::string(16, '\1') + std::string(16, '\0'));
  const CliResult half = run_warpdiv({"analyze", file, "--grid", "1", "--block", "32", "--data",
                                      "d=" + dir.file("half.bin"), "--csv", dir.file("k.csv")});
  ASSERT_EQ(half.status, 0) << half.err;
  EXPECT_TRUE(contains(read_file(dir.file("k.csv")), ",if,,1,1,")) << read_file(dir.file("k.csv"));
}

// A line whose shared atomic cannot be placed (its address reads in[i], no --data): the text
// table's shared cells say '?' (not counted), not '-' (none), as the HTML says "not counted"; the
// line's global load is counted (16 requests of 1-byte lanes: 500 threads, 16 warps). The CSV's
// row leaves the shared cells empty and says in accesses_not_counted that one access is left out.
TEST_F(AnalyzeSourceFile, AnUncountedAccessIsAQuestionMarkNotADash) {
  const std::string file = source("h.cu",
                                  "__global__ void h(const unsigned char *in, unsigned int *bins, int n) {\n"
                                  "  __shared__ unsigned int s[256];\n"
                                  "  if (threadIdx.x < 256) s[threadIdx.x] = 0;\n"
                                  "  __syncthreads();\n"
                                  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                  "  if (i < n) atomicAdd(&s[in[i]], 1);\n"
                                  "}\n");
  TempDir dir;
  const CliResult r = run_warpdiv(
      {"analyze", file, "--grid", "4", "--block", "128", "--arg", "n=500", "--csv", dir.file("h.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string csv = read_file(dir.file("h.csv"));
  EXPECT_TRUE(contains(csv, ",flops,accesses_not_counted,simd_efficiency,")) << csv;
  // global requests, sectors, bytes, ld, st, atom; shared requests, wavefronts, conflicts; flops;
  // accesses not counted; SIMD efficiency (500 of 512 lanes).
  EXPECT_TRUE(contains(csv, ",16,16,500,16,0,0,,,,0,1,0.9766,\"atomicAdd(&s[in[i]], 1)\",,no\n")) << csv;
  // The counted shared store on line 3: nothing left out.
  EXPECT_TRUE(contains(csv, ",,,,,,,16,16,0,0,0,1.0000,s[threadIdx.x] = 0,,no\n")) << csv;
  EXPECT_TRUE(contains(
      r.out,
      "?: not counted on this line; a figure and ? (2?): the line's other accesses of that kind not\n"
      "counted (the accesses and why are listed below); -: none.\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out,
                       "    6          16       16   97.7%      16       0         0           ?           ?"
                       "          ?      0  if (i < n) atomicAdd(&s[in[i]], 1);\n"))
      << r.out;
}

// Ten block classes (blockIdx.x against 1 .. 9): the page draws maps for the first eight and says so.
TEST_F(AnalyzeSourceFile, HtmlPageNamesTheClassesItDrawsNoMapsFor) {
  std::string body;
  for (int k = 1; k <= 9; ++k)
    body += "  if (b < " + std::to_string(k) + ") out[threadIdx.x] = " + std::to_string(k) + ";\n";
  const std::string file =
      source("ten.cu", "__global__ void k(int *out) {\n  int b = blockIdx.x;\n" + body + "}\n");
  TempDir dir;
  const CliResult r =
      run_warpdiv({"analyze", file, "--grid", "10", "--block", "32", "--html", dir.file("k.html")});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(dir.file("k.html"));
  EXPECT_TRUE(contains(page, "<p>10 classes of blocks")) << page;
  EXPECT_TRUE(contains(page, "Maps are drawn for the first 8 of the 10 block classes (at most 8)")) << page;
}

// The two-level shuffle reduction: warp_reduce_sum is inlined at two calls, the first made by
// every warp (16 blocks x 8 warps = 128), the second by warp 0 of each block (16). Its loop tests
// offset 16, 8, 4, 2, 1, 0: 6 tests and 5 bodies per call.
TEST_F(AnalyzeSourceFile, ShuffleReductionCountsBothCallsOfItsWarpSum) {
  const CliResult r = run_warpdiv({"analyze", kZoo + "warp_shuffle_reduction.cu", "--grid", "(n+255)/256",
                                   "--block", "256", "--arg", "n=4096"});
  ASSERT_EQ(r.status, 0) << r.err;
  // for: (128 + 16) x 6 = 864; body: (128 + 16) x 5 = 720; return: 144. Every lane of each warp
  // runs them (SIMD 100%), and the flops are 720 x 32 lanes x 1 add = 23,040.
  EXPECT_TRUE(
      contains(r.out,
               "    9          864           0   100.0%    for (int offset = 16; offset > 0; offset /= 2)\n"
               "   10          720           -   100.0%      v += __shfl_down_sync(0xffffffff, v, offset);\n"
               "   11          144           -   100.0%    return v;\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "    9       for                     0/864\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  floating-point operations: 23040 ")) << r.out;
  // 128 warps load 32 contiguous floats (4 sectors each); 16 atomics of one lane (1 sector each).
  EXPECT_TRUE(contains(r.out, "   19         128      512  100.0%")) << r.out;
  EXPECT_TRUE(contains(r.out, "   26          16       16   12.5%")) << r.out;
  EXPECT_FALSE(contains(r.out, "incomplete")) << r.out;
}

TEST_F(AnalyzeSourceFile, SavedModelGivesTheSameReport) {
  TempDir dir;
  const CliResult saved = run_warpdiv({"analyze", kNaive, "--save-model", dir.file("m.json")});
  ASSERT_EQ(saved.status, 0) << saved.err;
  const CliResult from_source = run_warpdiv(with({"analyze", kNaive}, kNaiveLaunch));
  const CliResult from_model = run_warpdiv(with({"analyze", "--model", dir.file("m.json")}, kNaiveLaunch));
  ASSERT_EQ(from_source.status, 0) << from_source.err;
  ASSERT_EQ(from_model.status, 0) << from_model.err;
  EXPECT_EQ(from_source.out, from_model.out);
}

TEST_F(AnalyzeSourceFile, OnlyWarpOfOneBlock) {
  // Warp 7 of block (6, 6): rows 110, 111, all outside P: the guard is evaluated once with 32
  // lanes, none taken, not divergent; nothing inside runs.
  TempDir dir;
  const CliResult r = run_warpdiv(
      with({"analyze", kNaive, "--only-block", "6,6", "--only-warp", "7", "--csv", dir.file("w.csv")},
           kNaiveLaunch));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string csv = read_file(dir.file("w.csv"));
  // (memory columns: the if has no access, and no floating-point work: flops 0)
  EXPECT_TRUE(contains(csv, ",if,,1,0,32,0,,,,,,,,,,,,0,0,1.0000,")) << csv;
  EXPECT_TRUE(contains(r.out, "(warp 7 of block (6, 6, 0) only)")) << r.out;
}

TEST_F(AnalyzeSourceFile, CtrlCStopsTheReplayAndWritesNothing) {
  // The naive kernel at Width 2000: 15,625 blocks, some 5 x 10^8 warp evaluations (tens of
  // seconds here). ^C typed on the terminal once the progress bar is up.
  TempDir dir;
  bool sent = false;
  const PtyRun run =
      run_on_pty({WARPDIV_BINARY, "analyze", kNaive, "--grid", "(Width+15)/16,(Width+15)/16", "--block",
                  "16,16", "--arg", "Width=2000", "--engine", "replay", "--csv", dir.file("big.csv")},
                 [&sent](const std::string& screen, int master) {
                   // The bar's first line may reach the terminal in two writes ("replay [...]", then the
                   // "0% 0/15625 blocks" after it): wait for the whole of it.
                   if (!sent && contains(screen, "\rreplay [") && contains(screen, " blocks")) {
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
  const PtyRun run = run_on_pty(
      {WARPDIV_BINARY, "analyze", kNaive, "--grid", "7,7", "--block", "16,16", "--arg", "Width=100"});
  EXPECT_EQ(run.status, 0) << run.screen;
  EXPECT_TRUE(contains(run.screen, "] 100% 49/49 blocks")) << run.screen;
}

}  // namespace
}  // namespace warpdiv::testing

namespace warpdiv::testing {
namespace {

// A __device__ function with a barrier called twice: the barrier summary has its line once,
// summed over the calls (2 calls x 4 blocks = 8 block executions), each call with --by-call-site.
TEST_F(AnalyzeSourceFile, TheBarrierSummarySumsAFunctionsCalls) {
  const std::string file = source("b.cu",
                                  "__device__ void step(int *s) {\n"
                                  "  __syncthreads();\n"
                                  "  s[threadIdx.x] += 1;\n"
                                  "}\n"
                                  "__global__ void k(int *o) {\n"
                                  "  __shared__ int s[64];\n"
                                  "  s[threadIdx.x] = 0;\n"
                                  "  step(s);\n"
                                  "  step(s);\n"
                                  "  o[threadIdx.x] = s[threadIdx.x];\n"
                                  "}\n");
  const CliResult r = run_warpdiv({"analyze", file, "--grid", "4", "--block", "64"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "  line 2: 8 block executions, every thread of the block reaches each\n"))
      << r.out;
  EXPECT_EQ(r.out.find("  line 2:"), r.out.rfind("  line 2:")) << r.out;
  const CliResult split = run_warpdiv({"analyze", file, "--grid", "4", "--block", "64", "--by-call-site"});
  ASSERT_EQ(split.status, 0) << split.err;
  EXPECT_TRUE(contains(split.out, "  line 2 (inlined at " + file + ":8:3): 4 block executions")) << split.out;
  EXPECT_TRUE(contains(split.out, "  line 2 (inlined at " + file + ":9:3): 4 block executions")) << split.out;
}

// The page has the launch's totals as the text says them, and with --gpu the occupancy.
TEST_F(AnalyzeSourceFile, TheHtmlPageHasTheLaunchsTotalsAndOccupancy) {
  TempDir dir;
  const CliResult r = run_warpdiv(with({"analyze", kNaive, "--html", dir.file("k.html")}, kNaiveLaunch));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(dir.file("k.html"));
  EXPECT_TRUE(contains(page, "<section><h2>The launch</h2>")) << page.substr(0, 400);
  EXPECT_TRUE(contains(page, "global loads:")) << page.substr(0, 400);
}

}  // namespace
}  // namespace warpdiv::testing
