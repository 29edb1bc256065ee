// What probes of single threads prove before the replay runs a launch (sim/ir_prerun.hpp): a
// signed overflow named at once with its thread, as the replay names it, and a run over its budget
// refused at once with a lower bound of its evaluations, worked out by hand below. Each launch
// would take the replay minutes (the budgets are lowered so that a broken mechanism fails fast).
#include <gtest/gtest.h>

#include <string>

#include "sim/errors.hpp"
#include "sim/ir_classes.hpp"
#include "sim/ir_replay.hpp"
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

  /// The message replay() refuses `l` with ("" when it runs).
  static std::string refusal(const Kernel& k, const Launch& l, Count budget) {
    ReplayOptions o;
    o.max_evaluations = budget;
    try {
      replay(k, l, o);
    } catch (const InvalidInput& e) {
      return e.what();
    }
    return "";
  }

  /// The refusal of a run over a budget of 10^8: at least `least` evaluations, the `kind` loop at
  /// k.cu`where`.
  std::string over_budget(const std::string& least, const std::string& kind, const std::string& where) const {
    return "the replay would make at least " + least + " warp-statement evaluations (the " + kind + " loop at " +
           dir_.string() + "/k.cu" + where + "), above its budget of 100000000 (--max-evaluations)";
  }

  static Launch launch(const Kernel& k, Dim3 grid, Dim3 block, std::int64_t argument) {
    Launch l;
    l.grid = grid;
    l.block = block;
    for (const Parameter& p : k.parameters) l.arguments.push_back(p.scalar ? Value::of(p.type, argument) : Value{});
    return l;
  }
};

// int arithmetic on the block index: 16 * blockIdx.x passes 2^31 - 1 from block 2^27 =
// 134,217,728 on (its thread 0 first). The replay would run 2^27 blocks before it.
TEST_F(PreRunTest, OverflowInAValueNamedWithTheFirstBlockAndThread) {
  const Kernel k = load(kBlockProduct);
  const std::string file = dir_.string() + "/k.cu";
  EXPECT_EQ(refusal(k, launch(k, {2147483647, 1, 1}, {16, 1, 1}, 10), 100000000),
            file + ":3:11: undefined behaviour: signed overflow in '*' (int32) in block (134217728, 0, 0), "
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
    EXPECT_EQ(std::string(e.what()), dir_.string() + "/k.cu:3:11: undefined behaviour: signed overflow in '*' (int32) in "
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
  const std::string named = file + ":18:19: undefined behaviour: signed overflow in '+' (int32) in block (0, 0, 0), "
                                   "thread (0, 1, 0) (the address of load 'M[Row*Width+k]'); and the replay would "
                                   "make at least ";
  ASSERT_EQ(m.substr(0, named.size()), named) << m;
  const std::string tail = " warp-statement evaluations (the for loop at " + file +
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
            over_budget("6597069766662", "for", ":3:3 runs 1099511627776 iterations in block (0, 0, 0), thread (0, 0, 0)"));
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
            over_budget("10000000466", "do", ":4:3 runs at least 1000000063 iterations in block (0, 0, 0), thread (63, 0, 0)"));
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
            dir_.string() + "/k.cu:4:13: undefined behaviour: signed overflow in '*' (int32) in block (0, 0, 0), "
                             "thread (0, 0, 0)");
}

// Under the budget, nothing changes: the same loop of 1,000 iterations runs, 2 x (3 x 1,000 + 3).
TEST_F(PreRunTest, UnderTheBudgetTheRunGoesOn) {
  const Kernel k = load(kCountedLoop);
  const ReplayResult r = replay(k, launch(k, {1, 1, 1}, {64, 1, 1}, 1000));
  EXPECT_EQ(static_cast<unsigned long long>(r.warp_statement_evaluations), 6006ULL);
}

}  // namespace
}  // namespace warpdiv::sim::ir
