// What probes of single threads prove before the replay or the class engine runs a launch
// (sim/engine/ir_prerun.hpp): a signed overflow named at once with its thread and lowest block, as the
// replay names it, and a run over its budget refused at once with a lower bound of its
// evaluations (for the class engine, only of what it runs), worked out by hand below. Each launch
// refused would take minutes (the budgets are lowered so that a broken mechanism fails fast).
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "sim/support/errors.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/source_dir.hpp"
#include "tests/kernels/zoo_launches.hpp"

namespace warpdiv::sim::ir {
namespace {

// An int product of the block index and size (blockIdx.x is unsigned: converted first).
const char* const kBlockProduct = R"(
__global__ void k(int* out, int w) {
  int c = (int)blockIdx.x * (int)blockDim.x + (int)threadIdx.x;
  if (c < w) out[c] = 1;
}
)";

// A loop of n iterations whose count the probes take from n.
const char* const kCountedLoop = R"(
__global__ void k(int* out, long long n) {
  for (long long i = 0; i < n; ++i)
    out[threadIdx.x] += 1;
}
)";

class PreRunTest : public testing::SnippetTest {
 protected:
  PreRunTest() : SnippetTest("warpdiv_prerun_") {}

  /// The message replay() (class_replay() with `classes`) refuses `l` with ("" when it runs).
  static std::string refusal(const Kernel& k, const Launch& l, Count budget, bool classes = false) {
    ReplayOptions o;
    o.max_evaluations = budget;
    try {
      if (classes)
        class_replay(k, l, o);
      else
        replay(k, l, o);
    } catch (const InvalidInput& e) {
      return e.what();
    }
    return "";
  }
  static std::string class_refusal(const Kernel& k, const Launch& l, Count budget) {
    return refusal(k, l, budget, true);
  }

  /// The refusal of a run over a budget of 10^8: at least `least` evaluations, the `kind` loop at
  /// k.cu`where`.
  std::string over_budget(const std::string& least, const std::string& kind, const std::string& where) const {
    return "the replay would make at least " + least + " warp-statement evaluations (the " + kind +
           " loop at " + dir_.string() + "/k.cu" + where +
           "), above its budget of 100000000 (--max-evaluations)";
  }

  static Launch launch(const Kernel& k, Dim3 grid, Dim3 block, std::int64_t argument) {
    Launch l;
    l.grid = grid;
    l.block = block;
    for (const Parameter& p : k.parameters)
      l.arguments.push_back(p.scalar ? Value::of(p.type, argument) : Value{});
    return l;
  }
};

// int arithmetic on the block index: 16 * blockIdx.x passes 2^31 - 1 from block 2^27 =
// 134,217,728 on (its thread 0 first). The replay would run 2^27 blocks before it.
TEST_F(PreRunTest, OverflowInAValueNamedWithTheFirstBlockAndThread) {
  const Kernel k = load(kBlockProduct);
  const std::string file = dir_.string() + "/k.cu";
  EXPECT_EQ(refusal(k, launch(k, {2147483647, 1, 1}, {16, 1, 1}, 10), 100000000),
            file +
                ":3:11: undefined behaviour: signed overflow in '*' (int32) in block (134217728, 0, 0), "
                "thread (0, 0, 0)");
}

// The class engine's corner runs meet the same overflow in the grid's last block; it names the
// replay's first one too.
TEST_F(PreRunTest, TheClassEngineNamesTheSameFirstBlock) {
  const Kernel k = load(kBlockProduct);
  try {
    class_replay(k, launch(k, {2147483647, 1, 1}, {16, 1, 1}, 10));
    ADD_FAILURE() << "no refusal";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), dir_.string() +
                                         "/k.cu:3:11: undefined behaviour: signed overflow in '*' (int32) in "
                                         "block (134217728, 0, 0), thread (0, 0, 0)");
  }
}

// The naive multiply with Width = 2^31 - 1 on 2^31 - 1 x 65,535 blocks of 16 x 16: at k = 1 the
// second row's M[Row*Width+k] is 2^31 - 1 + 1 (thread (0, 1, 0) of block (0, 0, 0), its first
// lane with Row = 1). The overflow is in an address (the replay would mark the access not counted
// and go on), so it is named with the budget the run passes: each of the 8 warps of the first and
// of the last block runs the k loop 2^31 - 1 times, each iteration at least its check, its body's
// block and statement and ++k (4): 16 x 4 x (2^31 - 1) = 137,438,953,408 at least, and at most
// 16 x 64 more for the statements around the loop.
TEST_F(PreRunTest, OverflowInAnAddressNamedWithTheBudget) {
  const Kernel k = zoo::load("naive_matmul.cu");
  const std::string m = refusal(k, launch(k, {2147483647, 65535, 1}, {16, 16, 1}, 2147483647), 100000000);
  const std::string file = zoo::folder() + "naive_matmul.cu";
  const std::string named = file +
                            ":18:19: undefined behaviour: signed overflow in '+' (int32) in block (0, 0, 0), "
                            "thread (0, 1, 0) (the address of load 'M[Row*Width+k]'); and the replay would "
                            "make at least ";
  ASSERT_EQ(m.substr(0, named.size()), named) << m;
  const std::string tail =
      " warp-statement evaluations (the for loop at " + file +
      ":17:5 runs 2147483647 iterations in block (0, 0, 0), thread (0, 0, 0)), above its "
      "budget of 100000000 (--max-evaluations)";
  ASSERT_GT(m.size(), named.size() + tail.size());
  EXPECT_EQ(m.substr(m.size() - tail.size()), tail) << m;
  const unsigned long long least = std::stoull(m.substr(named.size(), m.size() - tail.size() - named.size()));
  EXPECT_GE(least, 137438953408ULL);
  EXPECT_LE(least, 137438953408ULL + 16 * 64);
}

// A counted loop of 2^40 iterations in 2 warps: each warp evaluates the block, i = 0, then per
// iteration the check, the body and ++i (3), and the last check: 3 x 2^40 + 3 each, exactly the
// replay's count; 6 x 2^40 + 6 = 6,597,069,766,662 for the two.
TEST_F(PreRunTest, CountedLoopOverTheBudgetRefusedAtOnce) {
  const Kernel k = load(kCountedLoop);
  EXPECT_EQ(refusal(k, launch(k, {1, 1, 1}, {64, 1, 1}, 1099511627776LL), 100000000),
            over_budget("6597069766662", "for",
                        ":3:3 runs 1099511627776 iterations in block (0, 0, 0), thread (0, 0, 0)"));
}

// do { ... } while (1) left by a break once i >= n + threadIdx.x, i stepped by 1: lane t runs at
// least n + t iterations, each but the last evaluating the check, the body's block and its three
// statements (5). Per warp, its last lane: 2 (the kernel's block, i = 0) + 5 (n + t - 1) + 1; lanes
// 31 and 63 with n = 10^9: 10 x 10^9 + 5 x (30 + 62) + 2 x 3 = 10,000,000,466.
TEST_F(PreRunTest, LoopLeftByABreakOverTheBudgetRefusedAtOnce) {
  const Kernel k = load(R"(
__global__ void k(int* out, long long n) {
  long long i = 0;
  do {
    out[threadIdx.x] += 1;
    i += 1;
    if (i >= n + threadIdx.x) break;
  } while (1);
}
)");
  EXPECT_EQ(refusal(k, launch(k, {1, 1, 1}, {64, 1, 1}, 1000000000), 100000000),
            over_budget("10000000466", "do",
                        ":4:3 runs at least 1000000063 iterations in block (0, 0, 0), thread (63, 0, 0)"));
}

// Over the budget, but (int)i * 100000 overflows at i = 21,475 (5 evaluations an iteration: about
// 10^5 into the first block, past the probes' first 8 iterations): the first block runs for a
// moment before the refusal, and the overflow is named as the replay names it.
TEST_F(PreRunTest, OverflowMetEarlyInALongRunIsNamedInsteadOfTheBudget) {
  const Kernel k = load(R"(
__global__ void k(int* out, long long n) {
  for (long long i = 0; i < n; ++i) {
    int v = (int)i * 100000;
    out[threadIdx.x] += v;
  }
}
)");
  EXPECT_EQ(refusal(k, launch(k, {1, 1, 1}, {64, 1, 1}, 1099511627776LL), kDefaultMaxEvaluations),
            dir_.string() +
                "/k.cu:4:13: undefined behaviour: signed overflow in '*' (int32) in block (0, 0, 0), "
                "thread (0, 0, 0)");
}

// Under the budget, nothing changes: the same loop of 1,000 iterations runs, 2 x (3 x 1,000 + 3).
TEST_F(PreRunTest, UnderTheBudgetTheRunGoesOn) {
  const Kernel k = load(kCountedLoop);
  const ReplayResult r = replay(k, launch(k, {1, 1, 1}, {64, 1, 1}, 1000));
  EXPECT_EQ(static_cast<unsigned long long>(r.warp_statement_evaluations), 6006ULL);
}

// A loop of n iterations whose branch depends on the lane through a xor (no class of
// iterations: the class engine runs them one by one).
const char* const kLaneLoop = R"(
__global__ void k(int* out, int n) {
  unsigned s = 0;
  for (int j = 0; j < n; ++j)
    if ((j ^ threadIdx.x) & 1) s += j;
  out[threadIdx.x] = s;
}
)";

// The class engine runs each block it runs under the whole budget; its first block, block 0,
// alone makes at least what the probes of its warp 0 make, and of every warp where it does not
// run warps by classes (here: the branch depends on the lane through a xor). n = 2 x 10^9 on one
// warp: lane 0 evaluates the block, s = 0, j = 0, then per iteration the check, the if and ++j
// (3): 6 x 10^9; s += j where j is odd: in the 8 iterations run one by one (j = 1, 3, 5, 7) and
// the last (j = 1,999,999,999), 5; the last check and the store, 2: 6,000,000,010 (lane 31 takes
// the even j: 4 of the first 8, not the last, one fewer). n = 10^7 in 2 warps: 30,000,010 in
// warp 0 likewise, and in warp 1 (lanes 32 and 63) the same: 60,000,020, over a budget of 5 x
// 10^7 that warp 0 alone is not.
TEST_F(PreRunTest, TheClassEngineRefusesAFirstBlockOverTheBudgetAtOnce) {
  const Kernel k = load(kLaneLoop);
  const auto refused = [&](const std::string& least, const std::string& n, const std::string& budget) {
    return "the class engine would make at least " + least + " warp-statement evaluations (the for loop at " +
           dir_.string() + "/k.cu:4:3 runs " + n +
           " iterations in block (0, 0, 0), thread (0, 0, 0)), above its "
           "budget of " +
           budget + " (--max-evaluations)";
  };
  EXPECT_EQ(class_refusal(k, launch(k, {1, 1, 1}, {32, 1, 1}, 2000000000), 100000000),
            refused("6000000010", "2000000000", "100000000"));
  EXPECT_EQ(class_refusal(k, launch(k, {1, 1, 1}, {64, 1, 1}, 10000000), 50000000),
            refused("60000020", "10000000", "50000000"));
}

// What the class engine does not run is not held against it. The same loop of 1,000 iterations
// in 2^31 - 1 blocks of 64 threads, all alike (one block runs): per warp the block, s = 0, j =
// 0, 1,000 x (check, if, ++j), and s += j each time (the warp's lanes hold both parities), the
// last check and the store: 5 + 3,000 + 1,000 = 4,005; 2 warps a block: 8,010 x 2,147,483,647 =
// 17,179,869,176,000 + 21,474,836,470 = 17,201,344,012,470 in all, far above the budget the one
// block run is held to.
TEST_F(PreRunTest, TheClassEngineIsNotRefusedForTheBlocksItDoesNotRun) {
  const Kernel k = load(kLaneLoop);
  const ClassReplayResult r = class_replay(k, launch(k, {2147483647, 1, 1}, {64, 1, 1}, 1000));
  EXPECT_EQ(to_decimal(r.warp_statement_evaluations), "17201344012470");
}

// Nor for a loop it runs as classes of iterations: the counted loop of 2^40 iterations that the
// replay is refused for (above), in 2^31 - 1 blocks of 64: 2 x (3 x 2^40 + 3) = 6 x 2^40 + 6 =
// 6,597,069,766,662 a block, x (2^31 - 1): 6 x 2^71 + 6 x 2^31 - 6,597,069,766,662 =
// 14,167,099,448,608,935,641,088 + 12,884,901,888 - 6,597,069,766,662 =
// 14,167,099,442,024,750,776,314 in all.
TEST_F(PreRunTest, TheClassEngineIsNotRefusedForIterationsItRunsAsClasses) {
  const Kernel k = load(kCountedLoop);
  const ClassReplayResult r = class_replay(k, launch(k, {2147483647, 1, 1}, {64, 1, 1}, 1099511627776LL));
  EXPECT_EQ(to_decimal(r.warp_statement_evaluations), "14167099442024750776314");
}

// Nested loops of a fixed trip count: n x 1,000 iterations of s += b, n = 10^7. The probe runs
// the root block (1), s = 0 (2), a = 0 (3); outer iteration 0: the check (4), b = 0 (5), 1,000 x
// (check, s += b, ++b) (3,005), the inner loop's last check (3,006), ++a (3,007); iteration 1:
// the check (3,008), b = 0 (3,009), then inner iteration i from tick 3,010 + 3i: its 4,097th
// tick, past the probe's 4,096, is s += b of i = 362 (3,010 + 1,086 = 4,096 its check). After
// it: 1,000 - 1 - 362 = 637 inner iterations of 3 (1,911), and 10^7 - 2 outer iterations, each
// its check, ++a and the inner loop (b = 0, 1,000 x 3, its last check: 3,002): 3,004 x 9,999,998
// = 30,039,993,992. In all 4,097 + 1,911 + 30,039,993,992 = 30,040,000,000 (the replay's count is
// 4 more: iteration 1's last inner check and ++a, the last outer check, the store).
TEST_F(PreRunTest, NestedLoopsOfAFixedTripCountRefusedAtOnce) {
  const Kernel k = load(R"(
__global__ void k(int* out, int n) {
  unsigned s = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < 1000; ++b)
      s += b;
  out[threadIdx.x] = s;
}
)");
  EXPECT_EQ(refusal(k, launch(k, {1, 1, 1}, {32, 1, 1}, 10000000), 100000000),
            over_budget("30040000000", "for",
                        ":4:3 runs 10000000 iterations in block (0, 0, 0), thread (0, 0, 0)"));
}

// Both loops of n = 10^6 iterations (the inner one stepped over too): per outer iteration its
// check, ++a and the inner loop (b = 0, 10^6 x (check, s += ..., ++b), its last check:
// 3,000,002): 3,000,004 x 10^6, and the root block, s = 0, a = 0, the last check and the store
// (5): 3,000,004,000,005, the replay's count. The class engine runs them one by one too
// ((a ^ b) & 1 is no affine value): its first block is refused with the same figure.
TEST_F(PreRunTest, NestedLoopsBothSteppedOverRefusedByBothEngines) {
  const Kernel k = load(R"(
__global__ void k(int* out, int n) {
  unsigned s = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      s += (a ^ b) & 1;
  out[threadIdx.x] = s;
}
)");
  const std::string tail = " would make at least 3000004000005 warp-statement evaluations (the for loop at " +
                           dir_.string() +
                           "/k.cu:5:5 runs 1000000 iterations in block (0, 0, 0), thread (0, 0, 0)), "
                           "above its budget of 100000000 (--max-evaluations)";
  EXPECT_EQ(refusal(k, launch(k, {1, 1, 1}, {32, 1, 1}, 1000000), 100000000), "the replay" + tail);
  EXPECT_EQ(class_refusal(k, launch(k, {1, 1, 1}, {32, 1, 1}, 1000000), 100000000),
            "the class engine" + tail);
}

// Three nested loops of n = 2^62 iterations: the innermost makes 3 x 2^62 + 2 at least, the
// middle one 2^62 times that and more (about 3 x 2^124), the outer one 2^62 times that: past
// 2^128, the largest count, which is named (a lower bound still) rather than the product's
// remainder modulo 2^128.
TEST_F(PreRunTest, ABoundPast128BitsIsTheLargestCount) {
  const Kernel k = load(R"(
__global__ void k(int* out, long long n) {
  unsigned s = 0;
  for (long long a = 0; a < n; ++a)
    for (long long b = 0; b < n; ++b)
      for (long long c = 0; c < n; ++c)
        s += 1;
  out[threadIdx.x] = s;
}
)");
  EXPECT_EQ(refusal(k, launch(k, {1, 1, 1}, {32, 1, 1}, 4611686018427387904LL), 100000000),
            over_budget("340282366920938463463374607431768211455", "for",
                        ":6:7 runs 4611686018427387904 iterations in block (0, 0, 0), thread (0, 0, 0)"));
}

// c = b x 1024 + t (unsigned, then int) times w = 3 passes 2^31 - 1 = 2,147,483,647 from c =
// 715,827,883 (3 x 715,827,882 = 2,147,483,646) = 699,050 x 1,024 + 683: block 699,050, thread
// 683; every block before stays below (699,049 x 1,024 + 1,023 = 715,827,199). Past 2^31 c wraps
// to negative values, and from 2^32 (block 4,194,304) again to small ones: blocks meet it in
// stretches, and a bisection between the first and the last block lands in any. (The class
// engine cannot class such blocks: the replay counts this launch.)
TEST_F(PreRunTest, TheLowestBlockIsNamedWhereAWrappedValueMeetsUndefinedBehaviourInStretches) {
  const Kernel k = load(R"(
__global__ void k(int* out, int w) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = c * w;
  if (r < 7) out[threadIdx.x] = 1;
}
)");
  const std::string named = dir_.string() +
                            "/k.cu:4:11: undefined behaviour: signed overflow in '*' (int32) in "
                            "block (699050, 0, 0), thread (683, 0, 0)";
  const Launch l = launch(k, {2147483647, 1, 1}, {1024, 1, 1}, 3);
  EXPECT_EQ(refusal(k, l, kDefaultMaxEvaluations), named);
}

// In two dimensions, blocks in the order the replay runs them (x first): c = y x 65,535 + x,
// c x 1,024 passes 2^31 - 1 from c = 2^21 = 2,097,152 = 32 x 65,535 + 32: block (32, 32), its
// thread 0.
TEST_F(PreRunTest, TheLowestBlockIsNamedInTwoDimensions) {
  const Kernel k = load(R"(
__global__ void k(int* out, int w) {
  int c = blockIdx.y * gridDim.x + blockIdx.x;
  int r = c * 1024 + threadIdx.x;
  if (r < w) out[threadIdx.x] = 1;
}
)");
  EXPECT_EQ(refusal(k, launch(k, {65535, 65535, 1}, {1024, 1, 1}, 5), kDefaultMaxEvaluations),
            dir_.string() +
                "/k.cu:4:11: undefined behaviour: signed overflow in '*' (int32) in block (32, 32, 0), "
                "thread (0, 0, 0)");
}

// A launch of few warps (at most 65,536, which the probes otherwise leave to the replay): the
// lowest block is named all the same, by both engines. (int)blockIdx.x * 65,536 passes 2^31 - 1
// from block 2^15 = 32,768 on, its thread 0; grids of 40,000 and 65,536 blocks of 16 threads.
TEST_F(PreRunTest, TheLowestBlockIsNamedInALaunchOfFewWarps) {
  const Kernel k = load(R"(
__global__ void k(int* out, int w) {
  int c = (int)blockIdx.x * 65536;
  if (c < w) out[threadIdx.x] = 1;
}
)");
  const std::string named = dir_.string() +
                            "/k.cu:3:11: undefined behaviour: signed overflow in '*' (int32) in "
                            "block (32768, 0, 0), thread (0, 0, 0)";
  for (const std::uint32_t grid : {40000u, 65536u}) {
    SCOPED_TRACE(grid);
    const Launch l = launch(k, {grid, 1, 1}, {16, 1, 1}, 10);
    EXPECT_EQ(refusal(k, l, kDefaultMaxEvaluations), named);
    EXPECT_EQ(class_refusal(k, l, kDefaultMaxEvaluations), named);
  }
}

// A counter stepped in a loop of b = blockIdx.x iterations: x += 1,100,000 passes 2^31 - 1 in the
// 1,953rd iteration (1,952 x 1,100,000 = 2,147,200,000 fits, 1,953 x 1,100,000 = 2,148,300,000
// does not), so block 1,953 is the lowest that meets it (x = 2,147,200,000 + 1,100,000). Its loop
// runs more iterations than the probes run one by one: they step x over the middle with them.
TEST_F(PreRunTest, ACounterSteppedOverALoopsMiddleNamesTheLowestBlock) {
  const Kernel k = load(R"(
__global__ void k(int* o) {
  int b = blockIdx.x;
  int x = 0;
  for (int i = 0; i < b; i++) x += 1100000;
  o[threadIdx.x] = x;
}
)");
  const std::string named = dir_.string() +
                            "/k.cu:5:31: undefined behaviour: signed overflow in '+' (int32) in "
                            "block (1953, 0, 0), thread (0, 0, 0)";
  // The same loop against blockIdx.x itself: i is compared as unsigned, which keeps its values
  // from 0 up.
  const Kernel unsigned_bound = load(R"(
__global__ void k(int* o) {
  int x = 0;
  for (int i = 0; i < blockIdx.x; i++) x += 1100000;
  o[threadIdx.x] = x;
}
)");
  const std::string named_there = dir_.string() +
                                  "/k.cu:4:40: undefined behaviour: signed overflow in '+' (int32) in "
                                  "block (1953, 0, 0), thread (0, 0, 0)";
  for (const std::uint32_t grid : {1954u, 2000u, 4000u, 100000u}) {
    SCOPED_TRACE(grid);
    const Launch l = launch(k, {grid, 1, 1}, {64, 1, 1}, 0);
    EXPECT_EQ(refusal(k, l, kDefaultMaxEvaluations), named);
    EXPECT_EQ(class_refusal(k, l, kDefaultMaxEvaluations), named);
    const Launch u = launch(unsigned_bound, {grid, 1, 1}, {64, 1, 1}, 0);
    EXPECT_EQ(refusal(unsigned_bound, u, kDefaultMaxEvaluations), named_there);
    EXPECT_EQ(class_refusal(unsigned_bound, u, kDefaultMaxEvaluations), named_there);
  }
}

// The same loop stepped by a parameter of the launch (st = 1), a product of it, or blockDim.x /
// 32: its trip count is the same, and so is the lowest block that overflows, 1,953.
TEST_F(PreRunTest, ALoopSteppedByAParameterIsSteppedOverToo) {
  const Kernel k = load(R"(
__global__ void k(int* o, int st) {
  int x = 0;
  for (int i = 0; i < blockIdx.x; i += st) x += 1100000;
  o[threadIdx.x] = x;
}
)");
  const std::string named = dir_.string() +
                            "/k.cu:4:44: undefined behaviour: signed overflow in '+' (int32) in "
                            "block (1953, 0, 0), thread (0, 0, 0)";
  for (const std::uint32_t grid : {2000u, 4096u}) {
    SCOPED_TRACE(grid);
    const Launch l = launch(k, {grid, 1, 1}, {32, 1, 1}, 1);
    EXPECT_EQ(refusal(k, l, kDefaultMaxEvaluations), named);
    EXPECT_EQ(class_refusal(k, l, kDefaultMaxEvaluations), named);
  }
  // Down from 3b by 3 * st while above 0: again b iterations in block b.
  const Kernel down = load(R"(
__global__ void k(int* o, int st) {
  int x = 0;
  for (int i = 3 * blockIdx.x; i > 0; i -= 3 * st) x += 1100000;
  o[threadIdx.x] = x;
}
)");
  const std::string named_down = dir_.string() +
                                 "/k.cu:4:52: undefined behaviour: signed overflow in '+' (int32) in "
                                 "block (1953, 0, 0), thread (0, 0, 0)";
  for (const std::uint32_t grid : {2000u, 4096u}) {
    SCOPED_TRACE(grid);
    const Launch l = launch(down, {grid, 1, 1}, {32, 1, 1}, 1);
    EXPECT_EQ(refusal(down, l, kDefaultMaxEvaluations), named_down);
    EXPECT_EQ(class_refusal(down, l, kDefaultMaxEvaluations), named_down);
  }
  // Stepped by blockDim.x / 32, 1 for blocks of 32: the launch fixes it as it fixes a parameter.
  const Kernel by_block = load(R"(
__global__ void k(int* o, int st) {
  int x = 0;
  for (int i = 0; i < blockIdx.x; i += blockDim.x / 32) x += 1100000;
  o[threadIdx.x] = x;
}
)");
  const std::string named_by_block = dir_.string() +
                                     "/k.cu:4:57: undefined behaviour: signed overflow in '+' (int32) in "
                                     "block (1953, 0, 0), thread (0, 0, 0)";
  const Launch b = launch(by_block, {3000, 1, 1}, {32, 1, 1}, 1);
  EXPECT_EQ(refusal(by_block, b, kDefaultMaxEvaluations), named_by_block);
  EXPECT_EQ(class_refusal(by_block, b, kDefaultMaxEvaluations), named_by_block);
}

// From i = -5 compared as unsigned (4,294,967,291) against blockIdx.x the loop never runs: no
// block overflows. Counted from -5 as a signed value it would run b + 5 times and pass 2^31 - 1
// from block 1,948 on.
TEST_F(PreRunTest, AVariableComparedAsUnsignedFromANegativeStartIsNotCounted) {
  const Kernel k = load(R"(
__global__ void k(int* o) {
  int x = 0;
  for (int i = -5; i < blockIdx.x; i++) x += 1100000;
  o[threadIdx.x] = x;
}
)");
  const Launch l = launch(k, {4000, 1, 1}, {64, 1, 1}, 0);
  EXPECT_EQ(refusal(k, l, kDefaultMaxEvaluations), "");
  EXPECT_EQ(class_refusal(k, l, kDefaultMaxEvaluations), "");
  // Nested in a loop of 100,000 iterations, its count would be the least work of each of them:
  // at least 100,000 x 5 x 2 evaluations per warp, 2,000,000 for the block's 2 warps, above a
  // budget of 1,000,000. The run makes fewer: per warp the outer loop's 100,001 checks, and in each
  // iteration the inner loop's init and one check and the step j++ (300,000), and 2 statements
  // around them: 400,003, 800,006 for the block.
  const Kernel nested = load(R"(
__global__ void k(int* o) {
  int x = 0;
  for (int j = 0; j < 100000; j++)
    for (int i = -5; i < blockIdx.x; i++) x += 3;
  o[threadIdx.x] = x;
}
)");
  EXPECT_EQ(refusal(nested, launch(nested, {1, 1, 1}, {64, 1, 1}, 0), 1000000), "");
}

// The same steps where not every iteration makes them: x += 2,200,000 in the iterations of even
// i only (a continue skips the odd ones), ceil(b / 2) steps in block b: 976 x 2,200,000 =
// 2,147,200,000 fits, 977 do not, so block 1,953 is again the lowest. A probe taking the step as
// made every iteration would name block 977 (977 x 2,200,000 passes 2^31 - 1): no block below
// 1,953 may be named.
TEST_F(PreRunTest, AStepNotMadeEveryIterationIsNotSteppedOver) {
  const Kernel k = load(R"(
__global__ void k(int* o) {
  int b = blockIdx.x;
  int x = 0;
  for (int i = 0; i < b; i++) {
    if (i % 2 == 1) continue;
    x += 2200000;
  }
  o[threadIdx.x] = x;
}
)");
  for (const std::uint32_t grid : {1952u, 4000u}) {
    SCOPED_TRACE(grid);
    const std::string message = refusal(k, launch(k, {grid, 1, 1}, {32, 1, 1}, 0), kDefaultMaxEvaluations);
    if (grid == 1952u) {
      EXPECT_EQ(message, "");
      continue;
    }
    std::smatch block;
    std::regex_search(message, block,
                      std::regex("signed overflow in '\\+' \\(int32\\) in block \\(([0-9]+), 0, 0\\)"));
    ASSERT_EQ(block.size(), 2u) << message;
    EXPECT_GE(std::stoul(block[1].str()), 1953u) << message;
  }
}

// A heavy block that neither the probes (blocks 0, 1, 2, 4 ... 512 and 999) nor the estimate's
// samples meet: the run starts and stops at the budget given, 10^7, as its message says.
TEST_F(PreRunTest, ARunThatPassesItsBudgetStopsAtTheBudgetGiven) {
  const Kernel k = load(R"(
__global__ void k(int* out, int n) {
  unsigned s = 0;
  int m = (blockIdx.x == 777u) ? n : 1;
  for (int j = 0; j < m; ++j) { if (((j ^ threadIdx.x) * 2654435761u) >> 31) s += j; }
  out[threadIdx.x] = s;
}
)");
  const std::string m = refusal(k, launch(k, {1000, 1, 1}, {32, 1, 1}, 200000000), 10000000);
  EXPECT_NE(m.find("the run passed 10000000 warp-statement evaluations (its budget, --max-evaluations)"),
            std::string::npos)
      << m;
}

}  // namespace
}  // namespace warpdiv::sim::ir
