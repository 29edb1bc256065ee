// The class engine (sim/classes/ir_classes.hpp) against two independent oracles: the SIMT replay of every
// block (sim/engine/ir_replay.hpp) on random launches, and the hand-derived tiled exact engine
// (tests/oracle/exact.hpp, whose classes a person worked out) at sizes no replay reaches; the lecture's
// Type 1 / Type 2 split found from the kernel alone; refusals of non-affine conditions.
#include <gtest/gtest.h>

#include <random>

#include "sim/support/count.hpp"
#include "tests/oracle/exact.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/sim/tiled_matmul_ir.hpp"

namespace warpdiv::sim::ir {
namespace {

using testing::tiled_launch;
using testing::tiled_matmul_ir;
using testing::TiledMatmulIr;

std::string str(Count c) { return to_decimal(c); }

// Every field of every statement (and, with by_iteration, of every iteration) equal.
void expect_same(const Kernel& k, const ReplayResult& want, const ReplayResult& got) {
  ASSERT_EQ(want.statements.size(), got.statements.size());
  for (std::size_t i = 0; i < want.statements.size(); ++i) {
    const StatementCounts& a = want.statements[i];
    const StatementCounts& b = got.statements[i];
    const std::string at = "statement " + std::to_string(i) + " (" + location(k, k.stmts[i].range) + ")";
    EXPECT_EQ(str(a.warp_evaluations), str(b.warp_evaluations)) << at;
    EXPECT_EQ(str(a.divergent), str(b.divergent)) << at;
    EXPECT_EQ(str(a.active_lanes), str(b.active_lanes)) << at;
    EXPECT_EQ(str(a.taken_lanes), str(b.taken_lanes)) << at;
    EXPECT_EQ(str(a.block_executions), str(b.block_executions)) << at;
    EXPECT_EQ(str(a.partial_block_executions), str(b.partial_block_executions)) << at;
    EXPECT_EQ(str(a.blocks_with_partial), str(b.blocks_with_partial)) << at;
  }
  EXPECT_EQ(want.iterations.size(), got.iterations.size());
  for (std::size_t i = 0; i < want.iterations.size() && i < got.iterations.size(); ++i) {
    ASSERT_EQ(want.iterations[i].size(), got.iterations[i].size()) << "statement " << i;
    for (std::size_t k2 = 0; k2 < want.iterations[i].size(); ++k2)
      EXPECT_TRUE(want.iterations[i][k2] == got.iterations[i][k2])
          << "statement " << i << " iteration " << k2;
  }
  EXPECT_EQ(str(want.blocks), str(got.blocks));
  EXPECT_EQ(str(want.warps), str(got.warps));
  EXPECT_EQ(str(want.warp_statement_evaluations), str(got.warp_statement_evaluations));
}

TEST(IrClasses, TiledAgreesWithReplayOnRandomLaunches) {
  std::mt19937_64 rng(112026);
  const auto pick = [&](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(rng);
  };
  for (int i = 0; i < 300; ++i) {
    const int tile = static_cast<int>(pick(1, 32));
    const int warp_size = 1 << pick(0, 6);
    const std::int64_t top = 3 * tile + 3;
    const LaunchConfig c = LaunchConfig::shape(pick(1, top), pick(1, top), pick(1, top), tile, warp_size);
    SCOPED_TRACE(describe(c) + (i % 2 ? ", barriers in the guard" : ""));
    const TiledMatmulIr t = tiled_matmul_ir(tile, i % 2 == 1);
    const Launch l = tiled_launch(t, c);
    ReplayOptions o;
    o.threads = 1;
    o.by_iteration = i % 4 == 3;
    const ClassPlan plan = plan_classes(t.kernel, l);
    ASSERT_TRUE(plan.ok()) << plan.refusal->message();
    const ClassReplayResult got = class_replay(t.kernel, l, plan, o);
    expect_same(t.kernel, replay(t.kernel, l, o), got);
    // The classes partition the grid.
    Count blocks = 0;
    for (const BlockClass& bc : got.classes) blocks += bc.blocks;
    EXPECT_EQ(str(blocks), str(got.blocks));
    if (::testing::Test::HasFailure()) break;
  }
}

// The lecture (100 x 100, T = 16, 7 x 7 blocks of 8 warps of two rows, 7 phases). load_M is
// `Row < 100 && p*16 + tx < 100`: it can split a warp only in the last phase (p = 6, columns
// 96..111: tx < 4 in, tx >= 4 out). Type 1, the 42 blocks above the last block row: 42 x 8 x 7 =
// 2,352 warp-phases, and in the last phase every warp splits: 42 x 8 = 336. Type 2, the 7 blocks of
// the last block row (rows 96..111): 7 x 8 x 7 = 392 warp-phases; rows 96..99 are warps 0 and 1,
// which split in the last phase (2 x 7 = 14), and warps 2..7 have Row >= 100 (all false).
TEST(IrClasses, LectureTypeOneAndTwoFromTheSourceAlone) {
  const TiledMatmulIr t = tiled_matmul_ir(16);
  const ClassReplayResult r = class_replay(t.kernel, tiled_launch(t, LaunchConfig::square(100)));
  Count type1_blocks = 0, type1_evals = 0, type1_div = 0, type2_blocks = 0, type2_evals = 0, type2_div = 0;
  for (const BlockClass& c : r.classes) {
    const bool last_row = c.intervals[1].first == 6;
    if (last_row) {
      EXPECT_EQ(c.intervals[1].definition, "blockIdx.y = 6 (last)");
    } else {
      EXPECT_EQ(c.intervals[1].definition, "blockIdx.y < 6");
    }
    (last_row ? type2_blocks : type1_blocks) += c.blocks;
    (last_row ? type2_evals : type1_evals) += c.statements[t.load_m].warp_evaluations;
    (last_row ? type2_div : type1_div) += c.statements[t.load_m].divergent;
  }
  EXPECT_EQ(r.classes.size(), 4u);  // interior, right edge, bottom edge, corner
  EXPECT_EQ(str(type1_blocks), "42");
  EXPECT_EQ(str(type1_evals), "2352");
  EXPECT_EQ(str(type1_div), "336");
  EXPECT_EQ(str(type2_blocks), "7");
  EXPECT_EQ(str(type2_evals), "392");
  EXPECT_EQ(str(type2_div), "14");
  // The corner is one block: the last of both dimensions.
  bool corner = false;
  for (const BlockClass& c : r.classes)
    if (c.definition == "blockIdx.x = 6 (last), blockIdx.y = 6 (last)") corner = str(c.blocks) == "1";
  EXPECT_TRUE(corner);
  // The phase loop ran as classes of iterations.
  EXPECT_FALSE(plan_classes(t.kernel, tiled_launch(t, LaunchConfig::square(100))).accelerated_loops.empty());
}

// At 2^31 - 1 the IR's class engine against the hand-derived exact engine (README "Large sizes").
TEST(IrClasses, TiledAtHugeSizesAgreesWithHandDerivedExactEngine) {
  constexpr std::int64_t kMax = 2147483647;
  for (const int tile : {32, 16, 1}) {
    for (const bool in_guard : {false, true}) {
      const LaunchConfig c = LaunchConfig::square(kMax, tile);
      SCOPED_TRACE(describe(c));
      const TiledMatmulIr t = tiled_matmul_ir(tile, in_guard);
      const ClassReplayResult r = class_replay(t.kernel, tiled_launch(t, c), {}, GridLimits::Model);
      const DivergenceResult oracle = exact(c);
      const auto expect = [&](StmtId id, Condition cond) {
        const ClassCounts& cell = oracle.at(cond, lecture::BlockClass::all);
        EXPECT_EQ(str(r.statements[id].warp_evaluations), str(cell.warp_phases)) << name(cond);
        EXPECT_EQ(str(r.statements[id].divergent), str(cell.divergent_warp_phases)) << name(cond);
      };
      expect(t.load_m, Condition::load_M);
      expect(t.load_n, Condition::load_N);
      expect(t.compute, Condition::compute);
      expect(t.store, Condition::store);
      const Geometry g(c);
      const Count phases = static_cast<Count>(g.phases);
      EXPECT_EQ(str(r.statements[t.barrier_1].block_executions),
                str(checked_mul(static_cast<Count>(g.blocks()), phases)));
      EXPECT_EQ(str(r.statements[t.barrier_2].partial_block_executions),
                str(in_guard ? checked_mul(oracle.barrier_hazard_blocks, phases) : Count{0}));
      EXPECT_LE(r.blocks_replayed, Count{16});
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Refusals

// if (blockIdx.x OP c == 0) work;  with OP = % (line 7) or blockIdx.x * blockIdx.x < n (line 8).
Kernel block_condition_kernel(bool square) {
  Kernel k;
  k.name = "k";
  k.files.push_back(SourceFile{"k.cu", {}});
  const int n = k.add_parameter("n", ScalarType::U32);
  const auto at = [](std::uint32_t line, std::uint32_t col) {
    return SourceRange{0, line, col, line, col + 5};
  };
  const ExprId bx = k.builtin(Builtin::BlockIdxX);
  ExprId cond = kNone;
  if (square) {
    cond = k.binary(BinaryOp::Lt, k.binary(BinaryOp::Mul, bx, k.builtin(Builtin::BlockIdxX), at(8, 7)),
                    k.param(n), at(8, 7));
  } else {
    cond = k.binary(BinaryOp::Eq, k.binary(BinaryOp::Rem, bx, k.constant(ScalarType::U32, 2), at(7, 9)),
                    k.constant(ScalarType::U32, 0), at(7, 7));
  }
  k.root = k.block({k.if_(cond, k.work("x", at(9, 3)), kNone, at(7, 3))}, at(6, 1));
  return k;
}

Launch small_launch(std::uint32_t grid, std::uint32_t n) {
  Launch l;
  l.grid = Dim3{grid, 1, 1};
  l.block = Dim3{64, 1, 1};
  l.arguments = {Value::of(ScalarType::U32, n)};
  return l;
}

TEST(IrClasses, RefusesAConditionNotAffineInABlockIndex) {
  const Kernel k = block_condition_kernel(false);
  const ClassPlan plan = plan_classes(k, small_launch(10, 5));
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.refusal->location, "k.cu:7:7");
  EXPECT_NE(plan.refusal->message().find("depends on blockIdx.x through '%' (k.cu:7:9)"), std::string::npos)
      << plan.refusal->message();
  EXPECT_THROW(class_replay(k, small_launch(10, 5), plan), ClassesUnproven);
  try {
    class_replay(k, small_launch(10, 5));
    FAIL() << "no refusal";
  } catch (const ClassesUnproven& e) {
    EXPECT_EQ(e.refusal().location, "k.cu:7:7");
  }
}

TEST(IrClasses, RefusesAProductOfBlockIndices) {
  const Kernel k = block_condition_kernel(true);
  const ClassPlan plan = plan_classes(k, small_launch(10, 5));
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.refusal->location, "k.cu:8:7");
  EXPECT_NE(plan.refusal->message().find("through '*' (k.cu:8:7)"), std::string::npos)
      << plan.refusal->message();
}

// blockIdx.x + blockIdx.y < n: affine, but its breakpoints along x move with y (a staircase).
// On a small grid the classes settle (and agree with the replay); on a big one they do not,
// and the engine says so instead of guessing.
TEST(IrClasses, StaircaseSettlesWhenSmallAndIsRefusedWhenBig) {
  Kernel k;
  k.name = "k";
  k.files.push_back(SourceFile{"k.cu", {}});
  const int n = k.add_parameter("n", ScalarType::U32);
  const ExprId sum = k.binary(BinaryOp::Add, k.builtin(Builtin::BlockIdxX), k.builtin(Builtin::BlockIdxY));
  k.root = k.block({k.if_(k.binary(BinaryOp::Lt, sum, k.param(n)), k.work("x"))});
  Launch l = small_launch(9, 7);
  l.grid.y = 6;
  expect_same(k, replay(k, l), class_replay(k, l));
  l.grid = Dim3{100000, 60000, 1};
  l.arguments = {Value::of(ScalarType::U32, 70000)};
  EXPECT_THROW(class_replay(k, l), ClassesUnproven);
}

// ---------------------------------------------------------------------------------------------
// Loops that mix a block index and the loop variable, a loop variable behind '%', a triangular
// nest (the inner loop starts at the outer variable), a step of 3 with continue and a local
// declared in the body, and barriers inside: all against the replay on random launches.
//
//   int bx = blockIdx.x, tx = threadIdx.x;
//   for (int p = 0; p < n; p += step) {            // step 1, or 3 in the `stepped` variant
//     int q = p * 2 - tx;
//     if (q > m) continue;
//     if (p % 3 == 0) work;                        // only in the `modulo` variant
//     if (bx * 4 + p < m) work;
//     __syncthreads();
//     for (int j = p; j < n; ++j)
//       if (j + tx < m) work;
//   }
Kernel loop_kernel(bool modulo, bool stepped) {
  Kernel k;
  k.name = "loops";
  k.files.push_back(SourceFile{"loops.cu", {}});
  const ScalarType I = ScalarType::I32;
  const int n = k.add_parameter("n", I), m = k.add_parameter("m", I);
  const LocalId bx = k.add_local("bx", I), tx = k.add_local("tx", I), p = k.add_local("p", I);
  const LocalId q = k.add_local("q", I), j = k.add_local("j", I);
  const auto c = [&](std::int64_t v) { return k.constant(I, v); };
  const auto at = [](std::uint32_t line) { return SourceRange{0, line, 1, line, 2}; };
  std::vector<StmtId> body;
  body.push_back(
      k.declare(q, k.binary(BinaryOp::Sub, k.binary(BinaryOp::Mul, k.local(p), c(2)), k.local(tx)), at(4)));
  body.push_back(k.if_(k.binary(BinaryOp::Gt, k.local(q), k.param(m)), k.continue_(at(5)), kNone, at(5)));
  if (modulo)
    body.push_back(k.if_(k.binary(BinaryOp::Eq, k.binary(BinaryOp::Rem, k.local(p), c(3)), c(0)),
                         k.work("a", at(6)), kNone, at(6)));
  body.push_back(k.if_(
      k.binary(BinaryOp::Lt, k.binary(BinaryOp::Add, k.binary(BinaryOp::Mul, k.local(bx), c(4)), k.local(p)),
               k.param(m)),
      k.work("b", at(7)), kNone, at(7)));
  body.push_back(k.barrier(at(8)));
  body.push_back(
      k.loop(LoopKind::For, k.declare(j, k.local(p), at(9)), k.binary(BinaryOp::Lt, k.local(j), k.param(n)),
             k.assign(j, k.binary(BinaryOp::Add, k.local(j), c(1)), at(9)),
             k.if_(k.binary(BinaryOp::Lt, k.binary(BinaryOp::Add, k.local(j), k.local(tx)), k.param(m)),
                   k.work("c", at(10)), kNone, at(10)),
             at(9)));
  const StmtId loop =
      k.loop(LoopKind::For, k.declare(p, c(0), at(3)), k.binary(BinaryOp::Lt, k.local(p), k.param(n)),
             k.assign(p, k.binary(BinaryOp::Add, k.local(p), c(stepped ? 3 : 1)), at(3)),
             k.block(body, at(3)), at(3));
  k.root = k.block({k.declare(bx, k.cast(I, k.builtin(Builtin::BlockIdxX)), at(2)),
                    k.declare(tx, k.cast(I, k.builtin(Builtin::ThreadIdxX)), at(2)), loop},
                   at(1));
  return k;
}

TEST(IrClasses, LoopsAgreeWithReplayOnRandomLaunches) {
  std::mt19937_64 rng(7);
  const auto pick = [&](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(rng);
  };
  for (int i = 0; i < 300; ++i) {
    const Kernel k = loop_kernel(i % 3 == 0, i % 2 == 1);
    Launch l;
    l.grid = Dim3{static_cast<std::uint32_t>(pick(1, 30)), static_cast<std::uint32_t>(pick(1, 2)), 1};
    l.block = Dim3{static_cast<std::uint32_t>(pick(1, 70)), 1, 1};
    l.warp_size = 1 << pick(0, 6);
    l.arguments = {Value::of(ScalarType::I32, pick(0, 20)), Value::of(ScalarType::I32, pick(-5, 130))};
    SCOPED_TRACE("launch " + std::to_string(i));
    ReplayOptions o;
    o.threads = 1;
    o.by_iteration = i % 5 == 0;
    const ClassPlan plan = plan_classes(k, l);
    ASSERT_TRUE(plan.ok()) << plan.refusal->message();
    // The loop behind '%' is replayed; the others run as classes of iterations.
    if (i % 3 == 0)
      EXPECT_EQ(plan.accelerated_loops.size(), 1u);  // only the inner loop
    else
      EXPECT_EQ(plan.accelerated_loops.size(), 2u);
    expect_same(k, replay(k, l, o), class_replay(k, l, plan, o));
    if (::testing::Test::HasFailure()) break;
  }
}

// unsigned u = blockIdx.x * 1000000u + threadIdx.x; if (u < m) ...: exact while the product stays
// below 2^32, refused (it wraps around between the blocks the engine would replay) beyond.
TEST(IrClasses, RefusesAComparisonOfAValueThatWrapsAround) {
  Kernel k;
  k.name = "wrap";
  k.files.push_back(SourceFile{"wrap.cu", {}});
  const ScalarType U = ScalarType::U32;
  const int m = k.add_parameter("m", U);
  const ExprId u =
      k.binary(BinaryOp::Add, k.binary(BinaryOp::Mul, k.builtin(Builtin::BlockIdxX), k.constant(U, 1000000)),
               k.builtin(Builtin::ThreadIdxX));
  k.root = k.block({k.if_(k.binary(BinaryOp::Lt, u, k.param(m), SourceRange{0, 3, 7, 3, 20}), k.work("x"))});
  Launch l;
  l.block = Dim3{32, 1, 1};
  l.arguments = {Value::of(U, 2500000)};
  l.grid = Dim3{4294, 1, 1};  // 4293 * 1e6 + 31 < 2^32
  expect_same(k, replay(k, l), class_replay(k, l));
  l.grid = Dim3{4296, 1, 1};
  const ClassPlan plan = plan_classes(k, l);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.refusal->location, "wrap.cu:3:7");
}

// A loop variable assigned for every lane before a guard, then stepped only by the lanes inside
// it, becomes a lane array after the first step: the iterations are then replayed, and the counts
// stay the replay's.
//   int p = 0;
//   if (threadIdx.x < g) for (p = 0; p < n; ++p) if (p * 2 + tx < m) work;
TEST(IrClasses, LoopVariableThatStopsBeingUniform) {
  Kernel k;
  k.name = "guarded";
  k.files.push_back(SourceFile{"guarded.cu", {}});
  const ScalarType I = ScalarType::I32;
  const int n = k.add_parameter("n", I), m = k.add_parameter("m", I), g = k.add_parameter("g", I);
  const LocalId p = k.add_local("p", I), tx = k.add_local("tx", I);
  const auto c = [&](std::int64_t v) { return k.constant(I, v); };
  const StmtId loop =
      k.loop(LoopKind::For, k.assign(p, c(0)), k.binary(BinaryOp::Lt, k.local(p), k.param(n)),
             k.assign(p, k.binary(BinaryOp::Add, k.local(p), c(1))),
             k.if_(k.binary(BinaryOp::Lt,
                            k.binary(BinaryOp::Add, k.binary(BinaryOp::Mul, k.local(p), c(2)), k.local(tx)),
                            k.param(m)),
                   k.work("w")));
  k.root = k.block({k.declare(tx, k.cast(I, k.builtin(Builtin::ThreadIdxX))), k.declare(p, c(0)),
                    k.if_(k.binary(BinaryOp::Lt, k.local(tx), k.param(g)), loop)});
  Launch l;
  l.grid = Dim3{3, 1, 1};
  l.block = Dim3{40, 1, 1};
  for (const std::int64_t lanes_in : {0, 5, 40}) {
    l.arguments = {Value::of(I, 300), Value::of(I, 250), Value::of(I, lanes_in)};
    SCOPED_TRACE(lanes_in);
    expect_same(k, replay(k, l), class_replay(k, l));
  }
}

// ---------------------------------------------------------------------------------------------
// Warp classes: the three ways a block's warps run. `if (E < n) work;` in 1-D blocks of 4 warps
// (blockDim 128, warp size 32), E one of
//   threadIdx.x                      warps by classes (threadIdx.x = 32 w + lane)
//   blockIdx.x + 1000 * threadIdx.x  by classes where a block's lanes agree, but the block
//                                    breakpoints of the warps between the ends span 96,000 block
//                                    indices: those blocks run every warp
//   threadIdx.x % 3                  not affine in the warp: every warp runs
// Each is checked against the replay, and the warps run against what running every warp takes.
struct SilentObserver : EvaluationObserver {
  void evaluation(const Dim3&, std::uint32_t, StmtId, std::uint64_t, std::uint64_t) override {}
};

Kernel warp_kernel(int variant) {
  Kernel k;
  k.name = "warps";
  k.files.push_back(SourceFile{"warps.cu", {}});
  const ScalarType U = ScalarType::U32;
  const int n = k.add_parameter("n", U);
  const ExprId tx = k.builtin(Builtin::ThreadIdxX);
  ExprId e = tx;
  if (variant == 1)
    e = k.binary(BinaryOp::Add, k.builtin(Builtin::BlockIdxX),
                 k.binary(BinaryOp::Mul, k.constant(U, 1000), tx));
  if (variant == 2) e = k.binary(BinaryOp::Rem, tx, k.constant(U, 3));
  k.root = k.block({k.if_(k.binary(BinaryOp::Lt, e, k.param(n)), k.work("x"))});
  return k;
}

TEST(IrClasses, WarpClassesRunFewerWarpsWherePossibleAndAgreeWithReplay) {
  // Warps run against running every warp: fewer (warp classes), the same (not affine in the warp:
  // the same runs), more (a block whose warps' breakpoints span too much runs them all after its
  // first two), or either (classes of one or two warps: the ends and the log's runs may pass 4).
  enum class Warps { fewer, same, more, any };
  struct Case {
    int variant;
    std::uint32_t grid, n;
    Warps expect;
  };
  for (const Case& c :
       {Case{0, 5, 128, Warps::fewer}, Case{0, 5, 1000, Warps::fewer}, Case{0, 5, 70, Warps::any},
        Case{0, 9, 33, Warps::any}, Case{1, 200000, 150000, Warps::more}, Case{1, 200, 57, Warps::any},
        Case{2, 5, 1, Warps::same}, Case{2, 5, 2, Warps::same}}) {
    SCOPED_TRACE("variant " + std::to_string(c.variant) + " grid " + std::to_string(c.grid) + " n " +
                 std::to_string(c.n));
    const Kernel k = warp_kernel(c.variant);
    Launch l;
    l.grid = Dim3{c.grid, 1, 1};
    l.block = Dim3{128, 1, 1};
    l.arguments = {Value::of(ScalarType::U32, c.n)};
    ReplayOptions o;
    o.threads = 1;
    const ClassPlan plan = plan_classes(k, l);
    ASSERT_TRUE(plan.ok()) << plan.refusal->message();
    const ClassReplayResult got = class_replay(k, l, plan, o);
    expect_same(k, replay(k, l, o), got);
    SilentObserver silent;
    ReplayOptions every = o;
    every.observer = &silent;
    const ClassReplayResult all = class_replay(k, l, plan, every);
    EXPECT_EQ(to_decimal(all.warps_replayed), to_decimal(all.blocks_replayed * 4));
    EXPECT_EQ(to_decimal(got.blocks_replayed), to_decimal(all.blocks_replayed));
    ASSERT_EQ(got.classes.size(), all.classes.size());
    for (std::size_t i = 0; i < got.classes.size(); ++i) {
      EXPECT_EQ(got.classes[i].definition, all.classes[i].definition);
      EXPECT_TRUE(got.classes[i].statements == all.classes[i].statements);
      EXPECT_TRUE(got.classes[i].outcomes == all.classes[i].outcomes);
    }
    if (c.expect == Warps::fewer) {
      EXPECT_LT(got.warps_replayed, all.warps_replayed);
    } else if (c.expect == Warps::same) {
      EXPECT_EQ(to_decimal(got.warps_replayed), to_decimal(all.warps_replayed));
    } else if (c.expect == Warps::more) {
      EXPECT_GT(got.warps_replayed, all.warps_replayed);
    }
  }
  // threadIdx.x < 128 holds in every lane of every block: one block class (its corners, blocks 0
  // and 4, replayed) and one class of warps, whose ends, warps 0 and 3, run in each: 4 warps.
  const Kernel k = warp_kernel(0);
  Launch l;
  l.grid = Dim3{5, 1, 1};
  l.block = Dim3{128, 1, 1};
  l.arguments = {Value::of(ScalarType::U32, 128)};
  const ClassReplayResult r = class_replay(k, l);
  ASSERT_EQ(r.classes.size(), 1u);
  EXPECT_EQ(to_decimal(r.blocks_replayed), "2");
  EXPECT_EQ(to_decimal(r.warps_replayed), "4");
}

}  // namespace
}  // namespace warpdiv::sim::ir
