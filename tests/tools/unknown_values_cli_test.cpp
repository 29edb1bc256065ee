// What a launch does not give values for, through the real binary: a float parameter without
// --arg, undefined behaviour its known operands decide (a shuffle's lanes) where the data is
// unknown, floating-point work and accesses whose lanes depend on data, and a line
// whose accesses are counted only in part. Every figure worked out by hand in the comments.
#include <gtest/gtest.h>

#include <string>

#include "tests/tools/analyze_source_support.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

using UnknownValues = AnalyzeSourceFile;

// A float parameter given no value is 0.0 where nothing depends on it, and refused, naming the
// --arg to give, where a branch does: 0.0 would decide the branch unseen.
TEST_F(UnknownValues, AFloatParameterABranchDependsOnNeedsItsValue) {
  const std::string file = source("f.cu",
                                  "__global__ void k(float *o, float lim, float scale) {\n"
                                  "  int t = threadIdx.x;\n"
                                  "  o[t] = t * scale;\n"
                                  "  if (t * 0.5f < lim) o[t] = 1.0f;\n"
                                  "}\n");
  const CliResult missing = run_warpdiv({"analyze", file, "--grid", "1", "--block", "64"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(contains(missing.err, "'lim', a float parameter given no value (give --arg lim=VALUE)"))
      << missing.err;
  // t * 0.5 < 10 for t = 0 .. 19: 20 lanes of warp 0, none of warp 1; scale needs no value.
  TempDir dir;
  const CliResult given = run_warpdiv(
      {"analyze", file, "--grid", "1", "--block", "64", "--arg", "lim=10", "--csv", dir.file("f.csv")});
  ASSERT_EQ(given.status, 0) << given.err;
  EXPECT_TRUE(contains(read_file(dir.file("f.csv")), ",if,,2,1,64,20,")) << read_file(dir.file("f.csv"));
}

// The same in a launch read from main(): a float argument the host code does not compute is no
// value (the note shows it as ?), so the branch on it is refused rather than counted at 0.0.
TEST_F(UnknownValues, AFloatArgumentTheHostCodeDoesNotComputeIsNoValue) {
  const std::string file = source("h.cu",
                                  "#include <cstdlib>\n"
                                  "__global__ void k(int *o, float lim) {\n"
                                  "  if (threadIdx.x < lim) o[threadIdx.x] = 1;\n"
                                  "}\n"
                                  "int main(int argc, char **argv) {\n"
                                  "  float lim = atof(argv[1]);\n"
                                  "  int *o;\n"
                                  "  k<<<1, 32>>>(o, lim);\n"
                                  "}\n");
  const CliResult r = run_warpdiv({"analyze", file});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.err, "give --arg lim=VALUE")) << r.err;
}

// Lanes the shuffle reads that do not run it, with the value shuffled read from memory (no
// --data): a 20-thread block, lanes 0 .. 11 read lanes 8 .. 19, lanes 12 .. 19 read 20 .. 27,
// which do not exist: the first, lane 12, named.
TEST_F(UnknownValues, AShuffleOfLanesThatDoNotRunItIsFoundWhateverTheValue) {
  const std::string file = source("s.cu",
                                  "__global__ void k(const int *in, int *out) {\n"
                                  "  int v = in[threadIdx.x];\n"
                                  "  v += __shfl_down_sync(0xffffffff, v, 8);\n"
                                  "  out[threadIdx.x] = v;\n"
                                  "}\n");
  const CliResult r = run_warpdiv({"analyze", file, "--grid", "1", "--block", "20"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.err, "s.cu:3:")) << r.err;
  EXPECT_TRUE(contains(r.err, "lane 20")) << r.err;
}

// A ?: whose condition is read from memory: which arm's operation each lane runs is not known,
// so the line's floating-point operations are not counted (not 0), and the launch says so.
TEST_F(UnknownValues, FloatingPointWorkOnLanesDataChoosesIsNotCounted) {
  const std::string file = source("q.cu",
                                  "__global__ void k(const float *a, float *o) {\n"
                                  "  int t = threadIdx.x;\n"
                                  "  float x = a[t];\n"
                                  "  float w = x > 0.0f ? x * 3.0f : x - 1.0f;\n"
                                  "  o[t] = w;\n"
                                  "}\n");
  TempDir dir;
  const CliResult r =
      run_warpdiv({"analyze", file, "--grid", "1", "--block", "32", "--csv", dir.file("q.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "floating-point operations of 1 statement not counted")) << r.out;
  EXPECT_TRUE(contains(r.out, "q.cu:4:3: the lanes that run them depend on a[t]")) << r.out;
  EXPECT_TRUE(contains(read_file(dir.file("q.csv")), ",no\n")) << read_file(dir.file("q.csv"));
}

// Loads under a ?: whose condition --data gives: the replay computes the lanes of each. a holds
// +1, -1, +1, ...: even lanes read b[8t] (t = 0, 2, .. 30: bytes 0 .. 960, 16 sectors), odd lanes
// b[t + 1] (t = 1, 3, .. 31: elements 2 .. 32, bytes 8 .. 131, sectors 0 .. 4: 5): 2 requests,
// 21 sectors.
TEST_F(UnknownValues, AccessesOnLanesDataChoosesAreCountedWithTheData) {
  const std::string file = source("b.cu",
                                  "__global__ void k(const float *a, const float *b, float *o) {\n"
                                  "  int t = threadIdx.x;\n"
                                  "  float x = a[t];\n"
                                  "  float w = x > 0.0f ? b[t * 8] : b[t + 1];\n"
                                  "  o[t] = w;\n"
                                  "}\n");
  TempDir dir;
  std::string bytes;
  for (int i = 0; i < 32; ++i) {
    const float v = i % 2 == 0 ? 1.0f : -1.0f;
    bytes.append(reinterpret_cast<const char*>(&v), 4);
  }
  write_file(dir.file("a.bin"), bytes);
  const CliResult r = run_warpdiv({"analyze", file, "--grid", "1", "--block", "32", "--data",
                                   "a=" + dir.file("a.bin"), "--csv", dir.file("b.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(contains(r.out, "not counted")) << r.out;
  // global requests, sectors, bytes (32 lanes x 4), ld, st, atom; no shared; no flops; none left out.
  EXPECT_TRUE(contains(read_file(dir.file("b.csv")), ",2,21,128,2,0,0,,,,0,0,1.0000,float w = x > 0.0f"))
      << read_file(dir.file("b.csv"));
}

// A statement with a counted load and a store through a pointer chosen by a condition (not
// placed): its store figures are the counted part only, marked '?' in the text, and the CSV says
// one of its accesses is left out. Load c[t] of 64 lanes: 2 requests, 8 sectors.
TEST_F(UnknownValues, ALineCountedInPartIsMarked) {
  const std::string file = source("p.cu",
                                  "__global__ void k(float *a, float *b, const float *c) {\n"
                                  "  int t = threadIdx.x;\n"
                                  "  ((t & 1) ? a : b)[t] = c[t];\n"
                                  "}\n");
  TempDir dir;
  const CliResult r =
      run_warpdiv({"analyze", file, "--grid", "1", "--block", "64", "--csv", dir.file("p.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "    3          2?       8?  100.0%?      2?      0?        0?")) << r.out;
  EXPECT_TRUE(contains(r.out, "a figure and ? (2?): the line's other accesses of that kind not\n")) << r.out;
  EXPECT_TRUE(contains(read_file(dir.file("p.csv")), ",2,8,256,2,0,0,,,,0,1,1.0000,"))
      << read_file(dir.file("p.csv"));
}

// One source statement the front-end lowers to several (a null pointer's offset and flag, a
// pointer's declaration and its initialiser): one row, one warp evaluation for the one warp.
TEST_F(UnknownValues, APointerDeclarationIsOneRow) {
  const std::string file = source("n.cu",
                                  "__global__ void k(int *o) {\n"
                                  "  const int *p = nullptr;\n"
                                  "  o[threadIdx.x] = p == nullptr ? 1 : 2;\n"
                                  "}\n");
  TempDir dir;
  const CliResult r =
      run_warpdiv({"analyze", file, "--grid", "1", "--block", "16", "--csv", dir.file("n.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string csv = read_file(dir.file("n.csv"));
  EXPECT_TRUE(contains(csv, "n.cu,2,3,statement,,1,0,16,")) << csv;
  EXPECT_EQ(csv.find("n.cu,2,3,"), csv.rfind("n.cu,2,3,")) << csv;
}

}  // namespace
}  // namespace warpdiv::testing
