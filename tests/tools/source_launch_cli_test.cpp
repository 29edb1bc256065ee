// Through the real binary: `warpdiv analyze FILE.cu` taking its launch from the file's
// host code (the note, overrides, several launches, refusals), and `-p BUILD_DIR` reading a
// CMake project's compile_commands.json. Every count is worked out by hand in a comment.
#include <gtest/gtest.h>

#include <algorithm>

#include <string>
#include <vector>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

bool reads_sources() {
  static const bool reads = [] {
    TempDir dir;
    write_file(dir.file("k.cu"), "__global__ void k(int *a) { a[0] = 1; }\n");
    const CliResult r = run_warpdiv({"analyze", dir.file("k.cu"), "--save-model", dir.file("m.json")});
    return r.status == 0;
  }();
  return reads;
}

#define SKIP_WITHOUT_FRONTEND() \
  if (!reads_sources()) GTEST_SKIP() << "warpdiv is built without the Clang front-end"

/// The CSV row of `kind` at `line` (",LINE," then ",KIND,"), "" when none.
std::string csv_row(const std::string& csv, int line, const std::string& kind) {
  std::size_t start = 0;
  while (start < csv.size()) {
    std::size_t end = csv.find('\n', start);
    if (end == std::string::npos) end = csv.size();
    const std::string row = csv.substr(start, end - start);
    const std::size_t first = row.find(',');
    if (first != std::string::npos &&
        row.compare(first, std::to_string(line).size() + 2, "," + std::to_string(line) + ",") == 0 &&
        row.find("," + kind + ",") != std::string::npos)
      return row;
    start = end + 1;
  }
  return "";
}

/// The homework file of the issue: main() at line 14 launches scale<<<grid, block>>>.
constexpr const char* kHomework = R"(#include <cstdlib>
#define BLOCK 16
__global__ void scale(float *m, int rows, int cols) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows && c < cols) m[r * cols + c] *= 2.0f;
}
int main(int argc, char **argv) {
  const int rows = 100, cols = 70;
  int n = rows * cols;
  float *d; cudaMalloc(&d, n * sizeof(float));
  dim3 block(BLOCK, BLOCK);
  dim3 grid((cols + BLOCK - 1) / BLOCK, (rows + BLOCK - 1) / BLOCK);
  scale<<<grid, block>>>(d, rows, cols);
  int width = atoi(argv[1]);
  scale<<<width / BLOCK, BLOCK>>>(d, 1, width);
}
)";

TEST(SourceLaunchCli, TakesTheLaunchFromMainAndSaysSoInOneLine) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string file = dir.file("hw.cu");
  write_file(file, kHomework);
  const CliResult r = run_warpdiv({"analyze", file, "--launch", "1", "--csv", dir.file("out.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "warpdiv: note: launch 1 of 2 from main() at " + file +
                ":14:3: grid (5, 7, 1), block (16, 16, 1); rows = 100, cols = 70 [warpdiv-host-launch]\n");
  // grid (85 / 16, 115 / 16) = (5, 7): 35 blocks of 16 x 16 threads, 8 warps each: 280 warps reach
  // the if. A warp is two rows of 16 threads. Divergent: the last block column (c = 64 .. 79,
  // cols = 70) splits every warp, 7 blocks x 8 warps = 56, less its last block row's warps
  // entirely below rows = 100 (r = 96 .. 111: rows 96..99 are warps 0, 1; warps 2..7 all false,
  // not divergent): 56 - 6 = 50. In the last block row of the other 4 columns, warps 0 and 1 are
  // all true, the rest all false: none divergent.
  const std::string row = csv_row(read_file(dir.file("out.csv")), 6, "if");
  EXPECT_NE(row.find(",if,,280,50,"), std::string::npos) << row;
}

TEST(SourceLaunchCli, FlagsOverrideTheSourceOneByOne) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string file = dir.file("hw.cu");
  write_file(file, kHomework);
  // --arg rows=8: main() passes its const rows, written nowhere else, so the host code is followed
  // with rows = 8 and the grid follows: ((70 + 15) / 16, (8 + 15) / 16) = (5, 1).
  const CliResult r =
      run_warpdiv({"analyze", file, "--launch", "1", "--arg", "rows=8", "--csv", dir.file("out.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "warpdiv: note: launch 1 of 2 from main() at " + file +
                       ":14:3: grid (5, 1, 1), block (16, 16, 1); rows = 8, cols = 70 (from the "
                       "command line: --arg rows); the host code followed with 'rows' (" +
                       file + ":9:13) = 8 [warpdiv-host-launch]\n");
  // 5 blocks of 8 warps: 40 evaluations of the if. rows = 8: warps 0..3 (r = 0..7) have true
  // lanes, warps 4..7 none. Columns 0..3: warps 0..3 all true; column 4 (c = 64..79, cols = 70):
  // warps 0..3 divergent: 4.
  const std::string row = csv_row(read_file(dir.file("out.csv")), 6, "if");
  EXPECT_NE(row.find(",if,,40,4,"), std::string::npos) << row;
  // The second launch passes width (from argv) for cols: given, the host code follows it, and the
  // grid width / 16 = 4 is the same as the --grid given.
  const CliResult second =
      run_warpdiv({"analyze", file, "--launch", "2", "--arg", "cols=64", "--grid", "cols/16"});
  EXPECT_EQ(second.status, 0) << second.err;
  EXPECT_EQ(second.err, "warpdiv: note: launch 2 of 2 from main() at " + file +
                            ":16:3: grid (4, 1, 1), block (16, 1, 1); rows = 1, cols = 64 (from the "
                            "command line: --arg cols, --grid); the host code followed with 'width' (" +
                            file + ":15:7) = 64 [warpdiv-host-launch]\n");
  // rows written a second time before the launch: the value given changes the argument only, the
  // grid stays the source's (5, 7), and the note says why.
  std::string twice = kHomework;
  twice.replace(twice.find("  const int rows = 100, cols = 70;"),
                std::string("  const int rows = 100, cols = 70;").size(),
                "  int rows = 90, cols = 70;\n  rows += 10;");
  const std::string file2 = dir.file("hw2.cu");
  write_file(file2, twice);
  const CliResult stays =
      run_warpdiv({"analyze", file2, "--launch", "1", "--arg", "rows=8", "--csv", dir.file("out2.csv")});
  ASSERT_EQ(stays.status, 0) << stays.err;
  EXPECT_EQ(stays.err,
            "warpdiv: note: launch 1 of 2 from main() at " + file2 +
                ":15:3: grid (5, 7, 1), block (16, 16, 1); rows = 8, cols = 70 (from the command line: "
                "--arg rows); given values the host code does not take (the rest of the launch is the "
                "source's): rows: 'rows' (" +
                file2 + ":9:7) is written at " + file2 + ":10:3 as well [warpdiv-host-launch]\n");
  // 35 blocks of 8 warps: 280 evaluations; rows = 8: only block row 0's warps 0..3 have true
  // lanes, and in column 4 they split: 4.
  const std::string row2 = csv_row(read_file(dir.file("out2.csv")), 6, "if");
  EXPECT_NE(row2.find(",if,,280,4,"), std::string::npos) << row2;
}

TEST(SourceLaunchCli, RefusalsNameTheValueAndWhere) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string file = dir.file("hw.cu");
  write_file(file, kHomework);
  const auto refused = [&](const std::vector<std::string>& args, const std::string& message,
                           const std::string& id) {
    std::vector<std::string> all = {"analyze", file};
    all.insert(all.end(), args.begin(), args.end());
    all.insert(all.end(), {"--csv", dir.file("out.csv")});
    const CliResult r = run_warpdiv(all);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "warpdiv: error: " + message + " [warpdiv-" + id + "]\n");
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(file_exists(dir.file("out.csv")));
  };
  refused({},
          file +
              " launches scale 2 times: choose one with --launch N (1 .. 2), or give --grid "
              "X[,Y[,Z]] and --block X[,Y[,Z]]: [1] main() at " +
              file + ":14:3: grid (5, 7, 1), block (16, 16, 1); rows = 100, cols = 70 [2] main() at " + file +
              ":16:3: grid (?, 1, 1), block (16, 1, 1); rows = 1, cols = ?",
          "kernel-choice");
  refused({"--launch", "3"}, "--launch 3 is outside 1 .. 2 (" + file + " launches scale 2 times)",
          "flag-value");
  // A value the parameter's type cannot take: the one error line, no note before it.
  refused(
      {"--launch", "1", "--arg", "rows=2.5"},
      "--arg rows: rows is int32, which takes a decimal integer from -2147483648 to 2147483647 (got '2.5')",
      "flag-value");
  // A value from the host code is refused at its place, as a compiler's error is.
  const CliResult cols = run_warpdiv({"analyze", file, "--launch", "2", "--csv", dir.file("out.csv")});
  EXPECT_EQ(cols.status, 2);
  EXPECT_EQ(cols.err, file + ":16:41: error: the argument cols is not computable from the source: 'width' (" +
                          file +
                          ":15:7) is set from atoi(argv[1]); give --arg cols=VALUE "
                          "[warpdiv-host-value-unknown]\n");
  EXPECT_FALSE(file_exists(dir.file("out.csv")));
  // --arg cols=64 makes launch 2 computable (the host code follows width = 64: the second test
  // above); a value the host code cannot take, for a variable it writes again, does not.
  std::string again = kHomework;
  again.replace(again.find("  scale<<<width / BLOCK"), 0, "  width *= 2;\n");
  const std::string file3 = dir.file("again.cu");
  write_file(file3, again);
  const CliResult grid_unknown = run_warpdiv({"analyze", file3, "--launch", "2", "--arg", "cols=64"});
  EXPECT_EQ(grid_unknown.status, 2);
  EXPECT_EQ(grid_unknown.err,
            file3 + ":17:11: error: grid's x is not computable from the source: 'width' (" + file3 +
                ":15:7) is set from atoi(argv[1]); give --grid [warpdiv-host-value-unknown]\n");
  refused({"--launch", "1", "--grid", "5,7", "--block", "16,16"},
          "--launch chooses a launch in FILE.cu's host code, which --grid and --block given together "
          "replace: leave out --launch, or one of them",
          "flag-usage");
  // A file with no launch of its kernel.
  write_file(dir.file("none.cu"), "__global__ void k(int *a) { a[0] = 1; }\n");
  const CliResult none = run_warpdiv({"analyze", dir.file("none.cu"), "--block", "32"});
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err, "warpdiv: error: " + dir.file("none.cu") +
                          " launches k nowhere in its host code (no k<<<...>>>(...)): give --grid X[,Y[,Z]] "
                          "[warpdiv-kernel-choice]\n");
}

// A kernel whose extern __shared__ buffer main() sizes from `threads` (declared by `declaration`,
// line 9), launched at line 10 with 64 threads and n = 40.
std::string dynamic_shared_source(const std::string& declaration) {
  return "__global__ void k(int *out, int n) {\n"
         "  extern __shared__ int buf[];\n"
         "  buf[threadIdx.x] = threadIdx.x;\n"
         "  __syncthreads();\n"
         "  if (threadIdx.x < n) out[threadIdx.x] = buf[threadIdx.x];\n"
         "}\n"
         "int main() {\n"
         "  int *d;\n"
         "  " +
         declaration +
         "\n"
         "  k<<<1, threads, threads * sizeof(int)>>>(d, 40);\n"
         "}\n";
}

TEST(SourceLaunchCli, TheThirdLaunchArgumentSizesExternShared) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string file = dir.file("dyn.cu");
  write_file(file, dynamic_shared_source("const int threads = 64;"));
  // 64 threads x 4 bytes = 256 bytes: buf holds 64 ints, every thread's store fits.
  const CliResult r = run_warpdiv({"analyze", file});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("warpdiv: note: launch from main() at " + file +
                       ":10:3: grid (1, 1, 1), block (64, 1, 1), dynamic shared memory 256 bytes; n = 40 "
                       "[warpdiv-host-launch]\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("256 bytes dynamic (--dynamic-smem) for extern __shared__ buf"), std::string::npos)
      << r.out;
  // --dynamic-smem 128 overrides it: 32 ints, and thread 32's store is the first outside.
  const CliResult small = run_warpdiv({"analyze", file, "--dynamic-smem", "128"});
  EXPECT_EQ(small.status, 2);
  EXPECT_NE(
      small.err.find(
          file + ":3:3: error: out of bounds: 'buf[threadIdx.x]' writes element 32 of "
                 "'buf', which holds 32 elements of 4 bytes (0 to 31), in block (0, 0, 0), thread (32, 0, 0) "
                 "[warpdiv-out-of-bounds]\n"),
      std::string::npos)
      << small.err;
}

TEST(SourceLaunchCli, BlockGivenOnTheCommandLineSizesTheSourcesDynamicSharedMemory) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string file = dir.file("dyn.cu");
  write_file(file, dynamic_shared_source("int threads = 64;"));
  // --block 128: threads = 128 in the host code, so 128 x 4 = 512 bytes (the source's 256 would
  // hold 64 ints, and thread 64's store would be outside buf).
  const CliResult r = run_warpdiv({"analyze", file, "--block", "128", "--csv", dir.file("out.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(
                "warpdiv: note: launch from main() at " + file +
                ":10:3: grid (1, 1, 1), block (128, 1, 1), dynamic shared memory 512 bytes; n = 40 (from the "
                "command line: --block); the host code followed with --block: 'threads' (" +
                file + ":9:7) = 128 [warpdiv-host-launch]\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("512 bytes dynamic (--dynamic-smem) for extern __shared__ buf"), std::string::npos)
      << r.out;
  // 4 warps reach the if; n = 40: warp 0 all true, warp 1 (32 .. 63) split at 40, warps 2 and 3
  // all false: 1 divergent.
  const std::string row = csv_row(read_file(dir.file("out.csv")), 5, "if");
  EXPECT_NE(row.find(",if,,4,1,"), std::string::npos) << row;
  // threads written again: the dynamic shared memory is not the source's 256 but asked for.
  std::string again = read_file(file);
  again.replace(again.find("  k<<<"), 0, "  threads *= 1;\n");
  write_file(dir.file("again.cu"), again);
  const CliResult asked =
      run_warpdiv({"analyze", dir.file("again.cu"), "--block", "128", "--csv", dir.file("out2.csv")});
  EXPECT_EQ(asked.status, 2);
  const std::string at = dir.file("again.cu");
  EXPECT_EQ(asked.err, at +
                           ":11:19: error: the dynamic shared memory is not computable from the source: "
                           "'threads' (" +
                           at +
                           ":9:7) gives the launch's block, which --block replaces, and the host "
                           "code is not followed with --block's value: 'threads' (" +
                           at + ":9:7) is written at " + at +
                           ":10:3 as well; give --dynamic-smem [warpdiv-host-value-unknown]\n");
  EXPECT_FALSE(file_exists(dir.file("out2.csv")));
}

// --block for a dim3 built from an int: the int holds the x given, so the dynamic shared memory
// computed from it follows (128 x 4 = 512 bytes, not the source's 256, which would put thread 64's
// store outside s).
TEST(SourceLaunchCli, BlockGivenForADim3BuiltFromAnIntSizesTheDynamicSharedMemory) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string file = dir.file("s1.cu");
  write_file(file, R"(__global__ void k(float *o, int n) {
  extern __shared__ float s[];
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  o[threadIdx.x] = s[threadIdx.x];
}
int main() {
  float *d = 0;
  int threads = 64;
  dim3 b(threads);
  k<<<4, b, threads * sizeof(float)>>>(d, 1);
}
)");
  const CliResult r = run_warpdiv({"analyze", file, "--block", "128"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(
      r.err.find("warpdiv: note: launch from main() at " + file +
                 ":11:3: grid (4, 1, 1), block (128, 1, 1), dynamic shared memory 512 bytes; n = 1 (from the "
                 "command line: --block); the host code followed with --block: 'b' (" +
                 file + ":10:8) = (128, 1, 1), 'threads' (" + file + ":9:7) = 128 [warpdiv-host-launch]\n"),
      std::string::npos)
      << r.err;
}

// A write through a reference a std::pair holds: the argument is not computable (exit 2, naming
// where the reference is bound, no output file); with --arg the flag's value is taken.
TEST(SourceLaunchCli, ALocalAnObjectHoldsAReferenceToIsRefusedNamingTheBinding) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string file = dir.file("pair.cu");
  write_file(file, R"(#include <utility>
__global__ void k(int *o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 1; }
int main() {
  int *d = 0;
  int n = 100;
  std::pair<int&, int> p(n, 1);
  p.first = 300;
  k<<<1, 128>>>(d, n);
}
)");
  const CliResult r = run_warpdiv({"analyze", file, "--csv", dir.file("out.csv")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, file + ":8:20: error: the argument n is not computable from the source: 'n' (" + file +
                       ":5:7) is bound to a reference by the constructor of a std::pair<int &, int> at " +
                       file + ":6:24; give --arg n=VALUE [warpdiv-host-value-unknown]\n");
  EXPECT_FALSE(file_exists(dir.file("out.csv")));
  const CliResult given = run_warpdiv({"analyze", file, "--arg", "n=300"});
  ASSERT_EQ(given.status, 0) << given.err;
  EXPECT_NE(given.err.find("grid (1, 1, 1), block (128, 1, 1); n = 300 (from the command line: --arg n)"),
            std::string::npos)
      << given.err;
}

TEST(SourceLaunchCli, MinOfTheGridAndValuesThatDoNotFitOrClangRejects) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string file = dir.file("mm.cu");
  write_file(file, R"(#include <algorithm>
__global__ void k(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0;
}
int main() {
  int n = 100010;
  float *x;
  int blocks = std::min((n + 255) / 256, 1024);
  k<<<blocks, 256>>>(x, n);
  k<<<4294967296, 32>>>(x, n);
  k<<<18446744073709551617, 32>>>(x, n);
}
)");
  // (100010 + 255) / 256 = 100265 / 256 = 391 (391 x 256 = 100096), min(391, 1024) = 391: 391
  // blocks x 8 warps = 3128 warps reach the if. Block 390 holds i = 99840 .. 100095: n - 99840 = 170,
  // so its warp 5 (160 .. 191) is the one divergent warp.
  const CliResult r = run_warpdiv({"analyze", file, "--launch", "1", "--csv", dir.file("out.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("warpdiv: note: launch 1 of 3 from main() at " + file +
                       ":10:3: grid (391, 1, 1), block (256, 1, 1); n = 100010 [warpdiv-host-launch]\n"),
            std::string::npos)
      << r.err;
  const std::string row = csv_row(read_file(dir.file("out.csv")), 4, "if");
  EXPECT_NE(row.find(",if,,3128,1,"), std::string::npos) << row;
  // Every run notes Clang's error in main() (launch 3's literal), outside the kernel.
  const std::string message = "integer literal is too large to be represented in any integer type";
  const std::string note = "warpdiv: note: " + file +
                           ":12:7: error in host code the kernel does not reach (main): " + message +
                           " [warpdiv-unreached-error]\n";
  // 2^32 into dim3's unsigned int (C++ would take 0): refused, with its place and the range.
  const CliResult wide = run_warpdiv({"analyze", file, "--launch", "2", "--csv", dir.file("out2.csv")});
  EXPECT_EQ(wide.status, 2);
  EXPECT_EQ(wide.err, note + file + ":11:7: error: grid's x is not taken from the source: '4294967296' (" +
                          file +
                          ":11:7) is 4294967296, outside unsigned int's range 0 .. 4294967295; fix it or "
                          "give --grid [warpdiv-host-value-unknown]\n");
  EXPECT_FALSE(file_exists(dir.file("out2.csv")));
  // A literal Clang rejects (it would take it wrapped, as 1): Clang's error, after the note that
  // lists it among the errors outside the kernel.
  const CliResult rejected = run_warpdiv({"analyze", file, "--launch", "3", "--csv", dir.file("out3.csv")});
  EXPECT_EQ(rejected.status, 2);
  EXPECT_EQ(rejected.err, note + file +
                              ":12:7: error: grid's x is not taken from the source: "
                              "Clang rejects it: " +
                              file + ":12:7: error: " + message +
                              "; fix it or give --grid [warpdiv-host-value-unknown]\n");
  EXPECT_FALSE(file_exists(dir.file("out3.csv")));
  // --grid given: the source's grid is not needed.
  const CliResult given = run_warpdiv({"analyze", file, "--launch", "3", "--grid", "2"});
  EXPECT_EQ(given.status, 0) << given.err;
}

TEST(SourceLaunchCli, AZooKernelHasNoHostCodeSoItsLaunchIsAskedFor) {
  SKIP_WITHOUT_FRONTEND();
  const std::string naive = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/naive_matmul.cu";
  for (const std::string command : {"analyze", "validate"}) {
    const CliResult r = run_warpdiv({command, naive, "--grid", "4", "--arg", "Width=100"});
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_EQ(r.err, "warpdiv: error: " + naive +
                         " launches MatrixMulKernel nowhere in its host code (no "
                         "MatrixMulKernel<<<...>>>(...)): give --block X[,Y[,Z]] [warpdiv-kernel-choice]\n")
        << command;
  }
}

// -p BUILD_DIR: a CMake project whose kernel needs include/config.h (BLOCK_SIZE) and THRESHOLD from
// target_compile_definitions, configured (not built) with compile_commands.json.
TEST(SourceLaunchCli, BuildDirGivesTheDatabasesIncludesAndDefines) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string project = dir.file("proj");
  const bool nvcc = file_exists("/usr/local/cuda/bin/nvcc");
  run_shell("mkdir -p " + shell_quote(project + "/include") + " " + shell_quote(project + "/src"));
  write_file(dir.file("proj/CMakeLists.txt"),
             std::string("cmake_minimum_required(VERSION 3.18)\n") +
                 (nvcc ? "project(thr LANGUAGES CUDA)\n"
                       : "project(thr LANGUAGES CXX)\nset_source_files_properties(src/thr.cu PROPERTIES "
                         "LANGUAGE CXX)\n") +
                 "add_library(thr STATIC src/thr.cu)\n"
                 "target_include_directories(thr PRIVATE include)\n"
                 "target_compile_definitions(thr PRIVATE THRESHOLD=40)\n");
  write_file(project + "/include/config.h", "#define BLOCK_SIZE 96\n");
  const std::string kernel = project + "/src/thr.cu";
  write_file(kernel, R"(#include "config.h"
__global__ void thr(int *out) {
  if (threadIdx.x < THRESHOLD)
    out[blockIdx.x * BLOCK_SIZE + threadIdx.x] = 1;
}
int main() {
  int *d;
  thr<<<4, BLOCK_SIZE>>>(d);
}
)");
  const CliResult configured =
      run_shell(std::string(WARPDIV_CMAKE_COMMAND) + " -S " + shell_quote(project) + " -B " +
                shell_quote(project + "/build") + " -DCMAKE_EXPORT_COMPILE_COMMANDS=ON");
  ASSERT_EQ(configured.status, 0) << configured.out << configured.err;
  ASSERT_TRUE(file_exists(project + "/build/compile_commands.json"));

  const CliResult r =
      run_warpdiv({"analyze", kernel, "-p", project + "/build", "--csv", dir.file("out.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "warpdiv: note: launch from main() at " + kernel +
                       ":8:3: grid (4, 1, 1), block (96, 1, 1) [warpdiv-host-launch]\n");
  // BLOCK_SIZE 96: 3 warps a block, 4 blocks. THRESHOLD 40: warp 0 (threads 0..31) all true, warp 1
  // (32..63) true for 32..39 only: divergent, warp 2 (64..95) all false. The if: 12 warp
  // evaluations, 4 divergent, 4 x 96 = 384 active lanes, 4 x 40 = 160 taken. The store: warps 0
  // and 1 of each block, 8 evaluations, 160 lanes.
  const std::string csv = read_file(dir.file("out.csv"));
  EXPECT_NE(csv_row(csv, 3, "if").find(",if,,12,4,384,160,"), std::string::npos) << csv;
  EXPECT_NE(csv_row(csv, 4, "statement").find(",statement,,8,0,160,"), std::string::npos) << csv;

  // -D on the command line comes after the database's: THRESHOLD=70 makes warp 1 all true and
  // warp 2 (64..69 true) divergent: still 4 divergent, 4 x 70 = 280 taken; the store 12
  // evaluations (all three warps), 280 lanes.
  const CliResult later = run_warpdiv(
      {"analyze", kernel, "-p", project + "/build", "-D", "THRESHOLD=70", "--csv", dir.file("out2.csv")});
  ASSERT_EQ(later.status, 0) << later.err;
  const std::string csv2 = read_file(dir.file("out2.csv"));
  EXPECT_NE(csv_row(csv2, 3, "if").find(",if,,12,4,384,280,"), std::string::npos) << csv2;
  EXPECT_NE(csv_row(csv2, 4, "statement").find(",statement,,12,0,280,"), std::string::npos) << csv2;

  // Without -p the header is not found: Clang's fatal error, exit 2.
  const CliResult without = run_warpdiv({"analyze", kernel});
  EXPECT_EQ(without.status, 2);
  EXPECT_NE(without.err.find("'config.h' file not found"), std::string::npos) << without.err;

  // No entry for a file outside the project; no database; a malformed one.
  write_file(dir.file("other.cu"), "__global__ void k(int *a) { a[0] = 1; }\n");
  const CliResult no_entry = run_warpdiv(
      {"analyze", dir.file("other.cu"), "-p", project + "/build", "--grid", "1", "--block", "32"});
  EXPECT_EQ(no_entry.status, 2);
  EXPECT_EQ(no_entry.err, "warpdiv: error: " + project + "/build/compile_commands.json has no entry for " +
                              dir.file("other.cu") + " [warpdiv-file-content]\n");
  const CliResult no_database =
      run_warpdiv({"analyze", kernel, "-p", project, "--grid", "1", "--block", "32"});
  EXPECT_EQ(no_database.status, 2);
  EXPECT_EQ(no_database.err, "warpdiv: error: -p " + project +
                                 ": no compile_commands.json in it (CMake writes one when configured "
                                 "with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON) [warpdiv-file-unreadable]\n");
  write_file(dir.file("compile_commands.json"), "{\"not\": \"a list\"");
  const CliResult malformed =
      run_warpdiv({"analyze", kernel, "-p", dir.path(), "--grid", "1", "--block", "32"});
  EXPECT_EQ(malformed.status, 2);
  // 16 bytes, cut before the closing brace: the end of the text, line 1, column 17.
  EXPECT_NE(malformed.err.find("compile_commands.json:1:17: not a JSON compilation database: syntax error"),
            std::string::npos)
      << malformed.err;
  EXPECT_EQ(std::count(malformed.err.begin(), malformed.err.end(), '\n'), 1) << malformed.err;
}

// A launch the program never makes (under a condition that is false, in a loop of no iteration,
// after the function has returned or exited) is not a launch: refused naming why, and of two
// launches where the program makes one, that one is taken.
TEST(SourceLaunchCli, ALaunchTheProgramNeverMakesIsRefusedNamingWhy) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string kernel =
      "#include <cstdlib>\n__global__ void k(int *d, int n) { if (threadIdx.x < n) d[threadIdx.x] = 1; }\n";
  const auto refusal = [&](const std::string& host) {
    write_file(dir.file("p.cu"), kernel + host);
    const CliResult r = run_warpdiv({"analyze", dir.file("p.cu"), "--csv", dir.file("out.csv")});
    EXPECT_EQ(r.status, 2) << host;
    EXPECT_FALSE(file_exists(dir.file("out.csv")));
    return r.err;
  };
  const std::string at = dir.file("p.cu") + ":";
  EXPECT_EQ(refusal("int main() { int *d; int n = 1000;\n  if (n == 7) k<<<1, 32>>>(d, n);\n}\n"),
            at +
                "4:15: error: the program never makes this launch of k: the condition 'n == 7' "
                "of the if at " +
                at +
                "4:3 is false; give --grid X[,Y[,Z]] and --block X[,Y[,Z]] "
                "[warpdiv-kernel-choice]\n");
  EXPECT_NE(
      refusal("int main() { int *d; int n = 10;\n  for (int r = 0; r < n - 10; ++r) k<<<1, 32>>>(d, n);\n}\n")
          .find("the condition 'r < n - 10' of the for at " + at + "4:3 is false before the first iteration"),
      std::string::npos);
  EXPECT_NE(refusal("int main() { int *d; int n = 10;\n  exit(0);\n  k<<<1, 32>>>(d, n);\n}\n")
                .find("the function main() leaves before it, at " + at + "4:3"),
            std::string::npos);
  EXPECT_NE(refusal("void go(int *d, int n) {\n  if (n < 500) { return; }\n  k<<<1, 32>>>(d, n);\n}\n"
                    "int main() { int *d; go(d, 100); }\n")
                .find("the function go() leaves before it, at " + at +
                      "4:16 (the condition 'n < 500' of the if "
                      "at " +
                      at + "4:3 is true)"),
            std::string::npos);
  // A switch case the value does not select, a helper whose one call is never made.
  EXPECT_NE(
      refusal("int main() { int *d; int n = 5;\n  switch (n) { case 5: break; default: k<<<1, 32>>>(d, "
              "n); }\n}\n")
          .find("4:40: error: the program never makes this launch of k: the condition 'n' of the switch at " +
                at + "4:3 is 5, which enters it at " + at + "4:16, and it leaves the switch at " + at +
                "4:24 before this"),
      std::string::npos);
  EXPECT_NE(refusal("void run(int *d, int n) { k<<<1, 32>>>(d, n); }\nint main() { int *d; int m = 5;\n"
                    "  if (m == 4) run(d, m);\n}\n")
                .find("3:27: error: the program never makes this launch of k: the program never calls run() "
                      "(its call at " +
                      at + "5:15: the condition 'm == 4' of the if at " + at + "5:3 is false)"),
            std::string::npos);
  // Where the condition is not known (argc), the launch is taken as before.
  write_file(dir.file("q.cu"),
             kernel + "int main(int argc, char **) { int *d; if (argc > 1) k<<<1, 32>>>(d, 5); }\n");
  EXPECT_EQ(run_warpdiv({"analyze", dir.file("q.cu")}).status, 0);
  // Two launches, one never made: the other is the launch (5 of 32 lanes: one divergent evaluation).
  write_file(dir.file("two.cu"), kernel +
                                     "int main() { int *d; int n = 5;\n  if (n > 8) k<<<1, 32>>>(d, 32);\n"
                                     "  else k<<<1, 32>>>(d, n);\n}\n");
  const CliResult two = run_warpdiv({"analyze", dir.file("two.cu"), "--csv", dir.file("two.csv")});
  EXPECT_EQ(two.status, 0) << two.err;
  EXPECT_NE(two.err.find("launch 2 of 2 (the only one the program makes) from main() at " +
                         dir.file("two.cu") + ":5:8: grid (1, 1, 1), block (32, 1, 1); n = 5"),
            std::string::npos)
      << two.err;
  const std::string row = csv_row(read_file(dir.file("two.csv")), 2, "if");
  EXPECT_NE(row.find(",if,,1,1,32,5,"), std::string::npos) << row;
  // The same with the two launches in a switch's cases: case 5 is the one made.
  write_file(dir.file("cases.cu"),
             kernel +
                 "int main() { int *d; int n = 5;\n  switch (n) {\n"
                 "    case 4: k<<<1, 32>>>(d, 32); break;\n    case 5: k<<<1, 32>>>(d, n);\n  }\n}\n");
  const CliResult cases = run_warpdiv({"analyze", dir.file("cases.cu")});
  EXPECT_EQ(cases.status, 0) << cases.err;
  EXPECT_NE(cases.err.find("launch 2 of 2 (the only one the program makes) from main() at " +
                           dir.file("cases.cu") + ":6:13: grid (1, 1, 1), block (32, 1, 1); n = 5"),
            std::string::npos)
      << cases.err;
}

// A global main() sets before the launch, that a call between may write, is not taken at the value
// set (the program launches with n = 900): refused naming the call, exit 2, the output left as it was.
TEST(SourceLaunchCli, AGlobalACallMayWriteBeforeTheLaunchIsRefusedNamingTheCall) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string file = dir.file("g.cu");
  write_file(file,
             "__global__ void k(float *o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) "
             "o[i] = 1; }\n"
             "int N = 500; void bump() { N = 900; }\n"
             "int main() {\n  float *o;\n  N = 700; bump(); k<<<(N + 63) / 64, 64>>>(o, N);\n}\n");
  write_file(dir.file("out.csv"), "OLD");
  const CliResult r = run_warpdiv({"analyze", file, "--csv", dir.file("out.csv")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, file + ":5:48: error: the argument n is not computable from the source: 'N' (" + file +
                       ":2:5) may be written by the call of bump() at " + file +
                       ":5:12; give --arg n=VALUE [warpdiv-host-value-unknown]\n");
  EXPECT_EQ(read_file(dir.file("out.csv")), "OLD");
}

}  // namespace
}  // namespace warpdiv::testing

namespace warpdiv::testing {
namespace {

// std::min<int>(n / 64, 7): the type given converts both arguments (unsigned 1000 / 64 = 15, then
// min 7); n <<= 2 and n >>= 1 are followed as the other compound assignments (100 << 2 >> 1 =
// 200: grid (200 + 127) / 128 = 2); -0.0f reaches the kernel as -0.0 (1 / lim < 0 in every lane).
TEST(SourceLaunchCli, ExplicitMinShiftsAndANegativeZero) {
  TempDir dir;
  const std::string file = dir.file("h.cu");
  write_file(file, R"(#include <algorithm>
__global__ void k(int *o, int n, float lim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (1.0f / lim < 0.0f && i < n) o[i] = 1;
}
int main() {
  int *d = 0;
  unsigned m = 1000;
  int n = 100;
  n <<= 2;
  n >>= 1;
  k<<<std::min<int>(m / 64, 7), 128>>>(d, n, -0.0f);
}
)");
  const CliResult r = run_warpdiv({"analyze", file, "--csv", dir.file("o.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "grid (7, 1, 1), block (128, 1, 1); n = 200, lim = -0.0")) << r.err;
  // 7 blocks of 4 warps test the condition: lanes i < 200 take it (warps 0 .. 6 whole, warp 7 its
  // first 8 lanes... i = 192 .. 199 of block 1, warp 2): 200 lanes of 896.
  EXPECT_TRUE(contains(read_file(dir.file("o.csv")), ",if,,28,1,896,200,")) << read_file(dir.file("o.csv"));
}

}  // namespace
}  // namespace warpdiv::testing
