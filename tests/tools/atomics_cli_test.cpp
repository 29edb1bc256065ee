// Exch, CAS and floating-point atomics through the real binary: a branch on a CAS's
// result is counted for the replay's order and printed under "Order-dependent"; a spin lock and a
// loop past the budget stop with exit 2 and one line naming the loop. Kernels in
// tests/kernels/atomics/.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

const std::string kDir = std::string(WARPDIV_SOURCE_DIR) + "/tests/kernels/atomics/";

bool reads_sources() {
  static const bool reads = [] {
    const CliResult r = run_warpdiv({"analyze", kDir + "cas_flag.cu", "--grid", "1", "--block", "32",
                                     "--alloc", "flag=1", "--alloc", "winner=1"});
    return !contains(r.err, "without the Clang front-end");
  }();
  return reads;
}

// cas_flag.cu, grid 2 x block 32, flag = 0: in the replay's order thread 0 finds 0 and wins; every
// other thread finds 1. The if (line 7): block 0's warp lane 0 alone (divergent), block 1's none:
// 2 warp evaluations, 1 divergent, 100% SIMD; *winner = tid (line 8): 1 evaluation, 1 lane of 32
// (3.1%).
TEST(AtomicsCli, ACasGuardedBranchIsCountedAndListedAsOrderDependent) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  const CliResult r = run_warpdiv({"analyze", kDir + "cas_flag.cu", "--grid", "2", "--block", "32", "--alloc",
                                   "flag=1", "--alloc", "winner=1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "    7            2           1   100.0%    if (atomicCAS(flag, 0, 1) == 0)"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "    8            1           -     3.1%      *winner = tid;")) << r.out;
  EXPECT_TRUE(contains(r.out, "Order-dependent (threads pass values through memory the kernel writes"))
      << r.out;
  EXPECT_TRUE(contains(r.out,
                       "cas_flag.cu:7:3: the condition of this if depends on atomicCAS(flag, 0, 1) (atomic "
                       "result) (" +
                           kDir + "cas_flag.cu:7:7), a value other threads change"))
      << r.out;
  // The class engine cannot follow the atomic's result: the replay counts it, with the note.
  EXPECT_TRUE(contains(r.err, "counting every block with the replay instead")) << r.err;
}

// tests/kernels/order/own_element.cu, grid 1 x block 32, flag and out zeros: the if on the
// thread's own element (line 9) takes i = 4 .. 31, 28 of the 32 lanes that evaluate it (1
// evaluation, divergent, 100% SIMD), and reads nothing another thread writes; the if on flag[32]
// (line 10), which threads 0 and 1 both write, takes all 32 (6 in the replay's order: 1
// evaluation, 0 divergent, 100%). Only line 10 is listed under "Order-dependent" (the buffer-wide
// rule listed line 9 too, flag being a buffer through which threads pass a value).
TEST(AtomicsCli, OnlyTheBranchOnAWordOtherThreadsWriteIsOrderDependent) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  const std::string file = std::string(WARPDIV_SOURCE_DIR) + "/tests/kernels/order/own_element.cu";
  const CliResult r = run_warpdiv(
      {"analyze", file, "--grid", "1", "--block", "32", "--alloc", "flag=33", "--alloc", "out=32"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "    9            1           1   100.0%    if (flag[i] > 3) out[i] = 1;"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "   10            1           0   100.0%    if (flag[32] == 6) out[i] = 2;"))
      << r.out;
  const std::size_t section =
      r.out.find("Order-dependent (threads pass values through memory the kernel writes");
  ASSERT_NE(section, std::string::npos) << r.out;
  const std::string listed = r.out.substr(section);
  EXPECT_TRUE(
      contains(listed, "own_element.cu:10:3: the condition of this if depends on flag[32] (global memory) (" +
                           file + ":10:7), a value other threads change"))
      << r.out;
  EXPECT_FALSE(contains(listed, "own_element.cu:9:")) << r.out;
}

TEST(AtomicsCli, ASpinLockStopsWithOneLineNamingTheLoop) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  const CliResult r = run_warpdiv({"analyze", kDir + "spin_lock.cu", "--grid", "1", "--block", "32",
                                   "--alloc", "lock=1", "--alloc", "count=1"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "spin_lock.cu:5:3: error: the while loop never ends: warp 0 (lanes 1-31)"))
      << r.err;
}

// A loop that changes memory at every iteration never repeats a state: the budget stops it.
TEST(AtomicsCli, ALoopPastTheBudgetStopsWithOneLineNamingTheLoop) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  TempDir dir;
  write_file(dir.file("count.cu"),
             "__global__ void k(unsigned* c) {\n"
             "  while (atomicAdd(c, 1u) != 0xFFFFFFFFu) {\n"
             "  }\n"
             "}\n");
  const CliResult r = run_warpdiv({"analyze", dir.file("count.cu"), "--grid", "1", "--block", "32", "--alloc",
                                   "c=1", "--max-evaluations", "100000"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "was stopped in the while loop at " + dir.file("count.cu") + ":2:3")) << r.err;
}

}  // namespace
}  // namespace warpdiv::testing
