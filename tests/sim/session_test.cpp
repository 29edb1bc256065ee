// The session that chooses the engine (sim/session.hpp): the comparison of two engines' counts on
// hand-made results, Engine::all on a kernel whose counts are worked out by hand, and the native
// decision it passes down to the replay.
#include <gtest/gtest.h>

#include <cstdlib>

#include "sim/support/errors.hpp"
#include "sim/engine/ir_native.hpp"
#include "sim/session.hpp"

namespace warpdiv::sim {
namespace {

using namespace ir;
constexpr ScalarType I = ScalarType::I32;

// if (threadIdx.x < bound) then; else else;  at line 3 of k.cu (the if), lines 4 and 5 (its arms).
// 64 threads, warps of 32, bound 33 .. 63: warp 0 takes the if with all 32 lanes, warp 1 splits
// bound - 32 / 64 - bound. Per block: 2 warp evaluations, 1 divergent, 64 active lanes, bound
// taken (bound 40, 3 blocks: 6, 3, 192, 120).
struct IfElse {
  Kernel kernel;
  StmtId branch = 0;
};
IfElse if_else(std::int64_t bound = 40) {
  IfElse t;
  Kernel& k = t.kernel;
  k.name = "test";
  k.files.push_back(SourceFile{"k.cu", {}});
  const StmtId then_work = k.work("then", SourceRange{0, 4, 5, 4, 10});
  const StmtId else_work = k.work("else", SourceRange{0, 5, 5, 5, 10});
  const ExprId tx = k.cast(I, k.builtin(Builtin::ThreadIdxX));
  t.branch = k.if_(k.binary(BinaryOp::Lt, tx, k.constant(I, bound)), then_work, else_work);
  k.stmts[static_cast<std::size_t>(t.branch)].range = SourceRange{0, 3, 3, 3, 20};
  k.root = k.block({t.branch});
  return t;
}

Launch launch(std::uint32_t blocks) {
  Launch l;
  l.grid = {blocks, 1, 1};
  l.block = {64, 1, 1};
  return l;
}

// Two results of three statements that differ in one figure only: the if's divergent evaluations.
TEST(FirstDifference, NamesTheFirstFigureThatDiffersAndBothEngines) {
  const IfElse t = if_else();
  ReplayResult a;
  a.statements.resize(3);
  a.statements[static_cast<std::size_t>(t.branch)] = StatementCounts{6, 3, 192, 120, 0, 0, 0};
  ReplayResult b = a;
  EXPECT_EQ(first_difference(t.kernel, "the class engine", a, "the replay", b), "");
  b.statements[static_cast<std::size_t>(t.branch)].divergent = 4;
  EXPECT_EQ(first_difference(t.kernel, "the class engine", a, "the replay", b),
            "k.cu:3:3 (if): divergent is 3 by the class engine, 4 by the replay");
}

// The same control-flow counts, one access's sectors different: a memory figure is compared too,
// and only where both engines counted memory.
TEST(FirstDifference, ComparesMemoryFiguresWhereBothCountedThem) {
  IfElse t = if_else();
  MemoryAccess access;
  access.text = "x[i]";
  access.range = SourceRange{0, 4, 7, 4, 11};
  t.kernel.accesses.push_back(access);
  ReplayResult a;
  a.statements.resize(3);
  a.memory_counted = true;
  a.accesses = {AccessCounts{6, 192, 768, 24, 0, 0}};
  a.flops = {0, 0, 0};
  ReplayResult b = a;
  b.accesses[0].sectors = 25;
  EXPECT_EQ(first_difference(t.kernel, "native code", a, "the replay", b),
            "k.cu:4:7 ('x[i]'): sectors is 24 by native code, 25 by the replay");
  b.memory_counted = false;  // an engine that did not count them: nothing to compare
  EXPECT_EQ(first_difference(t.kernel, "native code", a, "the replay", b), "");
}

void expect_if_counts(const ReplayResult& r, StmtId branch, Count blocks, Count bound = 40) {
  const StatementCounts& c = r.statements[static_cast<std::size_t>(branch)];
  EXPECT_EQ(to_decimal(c.warp_evaluations), to_decimal(2 * blocks));
  EXPECT_EQ(to_decimal(c.divergent), to_decimal(blocks));
  EXPECT_EQ(to_decimal(c.active_lanes), to_decimal(64 * blocks));
  EXPECT_EQ(to_decimal(c.taken_lanes), to_decimal(bound * blocks));
}

bool native_installed() { return detail::native_compiler() != nullptr; }

TEST(CountLaunch, AllEnginesAgreeOnTheHandCountsAndReportTheReplays) {
  const IfElse t = if_else();
  CountRequest request;
  request.engine = Engine::all;
  request.native = NativeMode::automatic;  // not WARPDIV_NATIVE's
  const EngineCounts all = count_launch(t.kernel, launch(3), request);
  expect_if_counts(all.result, t.branch, 3);
  EXPECT_EQ(all.note, native_installed() ? "all 3 engines agree (the replay, the class engine, native code)"
                                         : "all 2 engines agree (the replay, the class engine)");
  EXPECT_EQ(all.note_id, Diag::engines_compared);
  EXPECT_EQ(all.engine_line, "Counted by the replay engine: every warp of every block.");
  EXPECT_TRUE(all.classes.empty());
  request.engine = Engine::replay;
  const EngineCounts replay = count_launch(t.kernel, launch(3), request);
  EXPECT_EQ(first_difference(t.kernel, "all", all.result, "replay", replay.result), "");
  request.engine = Engine::all;
  request.native = NativeMode::off;
  EXPECT_EQ(count_launch(t.kernel, launch(3), request).note,
            "all 2 engines agree (the replay, the class engine)");
}

TEST(CountLaunch, AutomaticTakesTheClassEngineAndExactIsTheSame) {
  const IfElse t = if_else();
  CountRequest request;
  const EngineCounts counts = count_launch(t.kernel, launch(3), request);
  expect_if_counts(counts.result, t.branch, 3);
  ASSERT_EQ(counts.classes.size(), 1u);  // every block alike
  EXPECT_EQ(counts.note, "");
  EXPECT_EQ(counts.engine_line.rfind("Counted by the class engine: 1 block class, ", 0), 0u)
      << counts.engine_line;
}

// 100 blocks (more than the replay's 8 sample blocks, so the replay estimates the launch: per
// block 2 warps reach the kernel's body, 2 its if, 2 the then-arm and 1 the else-arm, 700
// evaluations in all, the estimate exactly as every block is alike) run as
// native code exactly when the threshold the session passes down is at most the estimate, and
// never under NativeMode::off. (A model compiled once runs natively from then on: this test's
// model, bound 37, is compiled by no other.)
TEST(CountLaunch, TheNativeDecisionIsPassedDown) {
  if (!native_installed()) GTEST_SKIP() << "no native replay in this build";
  const IfElse t = if_else(37);
  CountRequest request;
  request.engine = Engine::replay;
  request.native = NativeMode::off;
  EXPECT_EQ(to_decimal(count_launch(t.kernel, launch(100), request).result.warp_statement_evaluations),
            "700");
  request.native = NativeMode::automatic;
  request.native_min_evaluations = 701;
  EXPECT_FALSE(count_launch(t.kernel, launch(100), request).result.native);
  request.native_min_evaluations = 1;
  request.native = NativeMode::off;
  EXPECT_FALSE(count_launch(t.kernel, launch(100), request).result.native);
  request.engine = Engine::native;
  EXPECT_THROW(count_launch(t.kernel, launch(100), request), InvalidInput);
  request.engine = Engine::replay;
  request.native = NativeMode::automatic;
  request.native_min_evaluations = 700;
  const EngineCounts counts = count_launch(t.kernel, launch(100), request);
  EXPECT_TRUE(counts.result.native);
  EXPECT_EQ(counts.engine_line, "Counted by the replay engine: every warp of every block, as native code.");
  expect_if_counts(counts.result, t.branch, 100, 37);
}

// Engine::native runs native code even for a launch too small to be estimated (3 blocks).
TEST(CountLaunch, NativeRunsEveryLaunchInItsScope) {
  if (!native_installed()) GTEST_SKIP() << "no native replay in this build";
  const IfElse t = if_else(50);
  CountRequest request;
  request.engine = Engine::native;
  request.native = NativeMode::automatic;
  const EngineCounts counts = count_launch(t.kernel, launch(3), request);
  EXPECT_TRUE(counts.result.native);
  expect_if_counts(counts.result, t.branch, 3, 50);
}

TEST(NativeMode, FromTheEnvironment) {
  ::setenv("WARPDIV_NATIVE", "off", 1);
  EXPECT_EQ(native_mode_from_environment(), NativeMode::off);
  ::setenv("WARPDIV_NATIVE", "auto", 1);
  EXPECT_EQ(native_mode_from_environment(), NativeMode::automatic);
  ::setenv("WARPDIV_NATIVE", "on", 1);
  EXPECT_THROW(native_mode_from_environment(), InvalidInput);
  ::unsetenv("WARPDIV_NATIVE");
  EXPECT_EQ(native_mode_from_environment(), NativeMode::automatic);
}

}  // namespace
}  // namespace warpdiv::sim
