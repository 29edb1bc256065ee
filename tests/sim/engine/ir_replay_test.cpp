// The IR replay on small kernels built by hand, with counts worked out by hand in the comments.
#include <gtest/gtest.h>

#include <atomic>

#include "sim/support/errors.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir {
namespace {

constexpr ScalarType I = ScalarType::I32;

// A kernel under construction with shorthands for the common leaves.
struct K {
  Kernel k;
  K() {
    k.name = "test";
    k.files.push_back(SourceFile{"test.cu", {}});
  }
  ExprId tx() { return k.cast(I, k.builtin(Builtin::ThreadIdxX)); }
  ExprId ty() { return k.cast(I, k.builtin(Builtin::ThreadIdxY)); }
  ExprId tz() { return k.cast(I, k.builtin(Builtin::ThreadIdxZ)); }
  ExprId c(std::int64_t v) { return k.constant(I, v); }
  ExprId bin(BinaryOp op, ExprId a, ExprId b) { return k.binary(op, a, b); }
  ExprId var(LocalId l) { return k.local(l); }
  StmtId work(const char* what, std::uint32_t line = 1) {
    return k.work(what, SourceRange{0, line, 1, line, 10});
  }
  Kernel done(std::vector<StmtId> body) {
    k.root = k.block(std::move(body));
    return k;
  }
};

Launch launch(Dim3 grid, Dim3 block, int warp_size) {
  Launch l;
  l.grid = grid;
  l.block = block;
  l.warp_size = warp_size;
  return l;
}

struct Expect {
  Count evaluations, divergent, active, taken;
};
void expect_counts(const ReplayResult& r, StmtId id, Expect e) {
  SCOPED_TRACE("statement " + std::to_string(id));
  const StatementCounts& c = r.statements[id];
  EXPECT_EQ(to_decimal(c.warp_evaluations), to_decimal(e.evaluations));
  EXPECT_EQ(to_decimal(c.divergent), to_decimal(e.divergent));
  EXPECT_EQ(to_decimal(c.active_lanes), to_decimal(e.active));
  EXPECT_EQ(to_decimal(c.taken_lanes), to_decimal(e.taken));
}

// 64 threads, warps of 32: warp 0 (tx 0..31) all take `tx < 40`; warp 1 (32..63) splits 8 / 24.
// Three blocks: each figure x 3.
struct IfElse {
  Kernel kernel;
  StmtId branch, then_work, else_work;
};
IfElse if_else() {
  K b;
  IfElse t;
  t.then_work = b.work("then");
  t.else_work = b.work("else");
  t.branch = b.k.if_(b.bin(BinaryOp::Lt, b.tx(), b.c(40)), t.then_work, t.else_work);
  t.kernel = b.done({t.branch});
  return t;
}

TEST(IrReplay, IfElseSplitsOneWarp) {
  const IfElse t = if_else();
  const ReplayResult r = replay(t.kernel, launch({3, 1, 1}, {64, 1, 1}, 32));
  expect_counts(r, t.branch, {6, 3, 192, 120});
  expect_counts(r, t.then_work, {6, 0, 120, 0});
  expect_counts(r, t.else_work, {3, 0, 72, 0});
  EXPECT_EQ(to_decimal(r.blocks), "3");
  EXPECT_EQ(to_decimal(r.warps), "6");
}

TEST(IrReplay, OnlyBlockAndOnlyWarp) {
  const IfElse t = if_else();
  ReplayOptions o;
  o.only_block = Dim3{2, 0, 0};
  ReplayResult r = replay(t.kernel, launch({3, 1, 1}, {64, 1, 1}, 32), o);
  expect_counts(r, t.branch, {2, 1, 64, 40});
  o.only_warp = 1;
  r = replay(t.kernel, launch({3, 1, 1}, {64, 1, 1}, 32), o);
  expect_counts(r, t.branch, {1, 1, 32, 8});
  o.only_block.reset();
  r = replay(t.kernel, launch({3, 1, 1}, {64, 1, 1}, 32), o);
  expect_counts(r, t.branch, {3, 3, 96, 24});
  o.only_warp = 2;  // a block of 64 threads has warps 0 and 1
  EXPECT_THROW(replay(t.kernel, launch({3, 1, 1}, {64, 1, 1}, 32), o), InvalidInput);
  o.only_warp.reset();
  o.only_block = Dim3{3, 0, 0};
  EXPECT_THROW(replay(t.kernel, launch({3, 1, 1}, {64, 1, 1}, 32), o), InvalidInput);
}

// for (int i = 0; i < tx; ++i) work;  8 threads, warps of 4.
// Warp 0 (tx 0..3): conditions k = 0..3 with 4, 3, 2, 1 lanes in, taking 3, 2, 1, 0: divergent
// at k = 0, 1, 2. Warp 1 (tx 4..7): k = 0..3 all 4 lanes take; k = 4..7 with 4, 3, 2, 1 lanes in
// taking 3, 2, 1, 0. Loop: 12 evaluations, 6 divergent, 36 active, 28 taken (= 0 + 1 + ... + 7,
// the body's lanes). Body: 3 + 7 = 10 evaluations.
TEST(IrReplay, LoopWithLaneDependentTripCount) {
  K b;
  const LocalId i = b.k.add_local("i", I);
  const StmtId body = b.work("body");
  const StmtId loop = b.k.loop(LoopKind::For, b.k.declare(i, b.c(0)), b.bin(BinaryOp::Lt, b.var(i), b.tx()),
                               b.k.assign(i, b.bin(BinaryOp::Add, b.var(i), b.c(1))), body);
  const Kernel k = b.done({loop});
  ReplayOptions o;
  o.by_iteration = true;
  const ReplayResult r = replay(k, launch({1, 1, 1}, {8, 1, 1}, 4), o);
  expect_counts(r, loop, {12, 6, 36, 28});
  expect_counts(r, body, {10, 0, 28, 0});
  // By iteration: the body in iteration 0 runs in warp 0 (3 lanes) and warp 1 (4 lanes);
  // in iteration 6 only in warp 1 (tx = 7).
  ASSERT_EQ(r.iterations[body].size(), 7u);
  EXPECT_EQ(to_decimal(r.iterations[body][0].warp_evaluations), "2");
  EXPECT_EQ(to_decimal(r.iterations[body][0].active_lanes), "7");
  EXPECT_EQ(to_decimal(r.iterations[body][6].active_lanes), "1");
  ASSERT_EQ(r.iterations[loop].size(), 8u);                     // conditions k = 0 .. 7
  EXPECT_EQ(to_decimal(r.iterations[loop][3].divergent), "0");  // warp 0: tx 3 alone; warp 1: all in
  EXPECT_EQ(to_decimal(r.iterations[loop][4].divergent), "1");  // warp 1: 3 of 4 stay
  EXPECT_EQ(to_decimal(r.iterations[loop][2].divergent), "1");  // warp 0 only
}

// do { work; ++i; } while (i < tx);  4 threads, one warp: the body runs before the first
// condition. tx 0..3: bodies 1, 1, 2, 3 times. Conditions after body k = 0, 1, 2: lanes in
// 4, 2, 1 (tx 2, 3 stay after k = 0; tx 3 after k = 1), taking 2, 1, 0.
TEST(IrReplay, DoWhileRunsTheBodyFirst) {
  K b;
  const LocalId i = b.k.add_local("i", I);
  const StmtId body = b.k.block({b.work("body"), b.k.assign(i, b.bin(BinaryOp::Add, b.var(i), b.c(1)))});
  const StmtId loop = b.k.loop(LoopKind::Do, kNone, b.bin(BinaryOp::Lt, b.var(i), b.tx()), kNone, body);
  const Kernel k = b.done({b.k.declare(i, b.c(0)), loop});
  const ReplayResult r = replay(k, launch({1, 1, 1}, {4, 1, 1}, 4));
  expect_counts(r, loop, {3, 2, 7, 3});
  expect_counts(r, body, {3, 0, 7, 0});
}

// for (i = 0; i < 4; ++i) { if (tx == i) break; if ((tx + i) % 2 == 0) continue; W; }
// if (tx == 3) return; Z;   one warp of 4 (worked in the comments below).
TEST(IrReplay, BreakContinueReturn) {
  K b;
  const LocalId i = b.k.add_local("i", I);
  const StmtId brk = b.k.break_();
  const StmtId if_break = b.k.if_(b.bin(BinaryOp::Eq, b.tx(), b.var(i)), brk);
  const StmtId cont = b.k.continue_();
  const StmtId if_continue = b.k.if_(
      b.bin(BinaryOp::Eq, b.bin(BinaryOp::Rem, b.bin(BinaryOp::Add, b.tx(), b.var(i)), b.c(2)), b.c(0)),
      cont);
  const StmtId w = b.work("W");
  const StmtId loop =
      b.k.loop(LoopKind::For, b.k.declare(i, b.c(0)), b.bin(BinaryOp::Lt, b.var(i), b.c(4)),
               b.k.assign(i, b.bin(BinaryOp::Add, b.var(i), b.c(1))), b.k.block({if_break, if_continue, w}));
  const StmtId ret = b.k.return_();
  const StmtId if_return = b.k.if_(b.bin(BinaryOp::Eq, b.tx(), b.c(3)), ret);
  const StmtId z = b.work("Z");
  const Kernel k = b.done({loop, if_return, z});
  const ReplayResult r = replay(k, launch({1, 1, 1}, {4, 1, 1}, 4));
  // i = 0: lanes {0,1,2,3}; lane 0 breaks; lane 2 continues; W {1,3}.
  // i = 1: {1,2,3}; lane 1 breaks; lane 3 continues ((3+1)%2 == 0); W {2}.
  // i = 2: {2,3}; lane 2 breaks; W {3}.   i = 3: {3}; lane 3 breaks. No fifth condition.
  expect_counts(r, loop, {4, 0, 10, 10});
  expect_counts(r, if_break, {4, 3, 10, 4});  // i = 3: the one lane breaks, not divergent
  expect_counts(r, brk, {4, 0, 4, 0});
  expect_counts(r, if_continue, {3, 2, 6, 2});
  expect_counts(r, cont, {2, 0, 2, 0});
  expect_counts(r, w, {3, 0, 4, 0});
  expect_counts(r, if_return, {1, 1, 4, 1});
  expect_counts(r, ret, {1, 0, 1, 0});
  expect_counts(r, z, {1, 0, 3, 0});
}

// int r = f(tx) with f(x) { if (x < 2) return 10; return x * 3; }; if (r > 6) work;
// tx 0..3: r = 10, 10, 6, 9: three lanes take the branch.
TEST(IrReplay, InlinedCallReturnsValues) {
  K b;
  const LocalId x = b.k.add_local("x", I);
  const LocalId result = b.k.add_local("r", I);
  const StmtId ret_10 = b.k.return_(b.c(10));
  const StmtId early = b.k.if_(b.bin(BinaryOp::Lt, b.var(x), b.c(2)), ret_10);
  const StmtId ret_3x = b.k.return_(b.bin(BinaryOp::Mul, b.var(x), b.c(3)));
  const StmtId call = b.k.inlined_call("f", result, b.k.block({b.k.declare(x, b.tx()), early, ret_3x}));
  const StmtId use = b.k.if_(b.bin(BinaryOp::Gt, b.var(result), b.c(6)), b.work("use"));
  const StmtId after = b.work("after");
  const Kernel k = b.done({call, use, after});
  const ReplayResult r = replay(k, launch({1, 1, 1}, {4, 1, 1}, 4));
  expect_counts(r, early, {1, 1, 4, 2});
  expect_counts(r, ret_10, {1, 0, 2, 0});
  expect_counts(r, ret_3x, {1, 0, 2, 0});
  expect_counts(r, use, {1, 1, 4, 3});
  expect_counts(r, after, {1, 0, 4, 0});  // a return from the call does not leave the kernel
}

// Barriers counted by thread arrivals: 8 threads in warps of 4, two blocks.
TEST(IrReplay, BarrierInsideGuardIsPartial) {
  K b;
  const StmtId guarded = b.k.barrier();
  const StmtId all = b.k.barrier();
  const LocalId i = b.k.add_local("i", I);
  const StmtId in_loop = b.k.barrier();
  // for (i = 0; i < tx; ++i) __syncthreads();  arrivals 0..7: max 7, min 0.
  const StmtId loop = b.k.loop(LoopKind::For, b.k.declare(i, b.c(0)), b.bin(BinaryOp::Lt, b.var(i), b.tx()),
                               b.k.assign(i, b.bin(BinaryOp::Add, b.var(i), b.c(1))), in_loop);
  const Kernel k = b.done({b.k.if_(b.bin(BinaryOp::Lt, b.tx(), b.c(6)), guarded), all, loop});
  const ReplayResult r = replay(k, launch({2, 1, 1}, {8, 1, 1}, 4));
  // if (tx < 6) __syncthreads(): threads 6, 7 never arrive: 1 execution, partial, per block.
  EXPECT_EQ(to_decimal(r.statements[guarded].block_executions), "2");
  EXPECT_EQ(to_decimal(r.statements[guarded].partial_block_executions), "2");
  EXPECT_EQ(to_decimal(r.statements[all].block_executions), "2");
  EXPECT_EQ(to_decimal(r.statements[all].partial_block_executions), "0");
  // Loop: instances 1..7 per block, every one missed by thread 0 at least.
  EXPECT_EQ(to_decimal(r.statements[in_loop].block_executions), "14");
  EXPECT_EQ(to_decimal(r.statements[in_loop].partial_block_executions), "14");
  EXPECT_EQ(to_decimal(r.statements[guarded].blocks_with_partial), "2");
  EXPECT_EQ(to_decimal(r.statements[all].blocks_with_partial), "0");
}

// for (i = 0; i < 3; ++i) if (tx < 2 || i > 0) __syncthreads();  threads 0, 1 arrive 3 times,
// 2, 3 twice: 3 instances, the last partial. Warp size 2 puts the two groups in different warps.
TEST(IrReplay, BarrierInstancesMatchAcrossWarps) {
  K b;
  const LocalId i = b.k.add_local("i", I);
  const StmtId bar = b.k.barrier();
  const StmtId guard = b.k.if_(
      b.k.logical(LogicalOp::Or, b.bin(BinaryOp::Lt, b.tx(), b.c(2)), b.bin(BinaryOp::Gt, b.var(i), b.c(0))),
      bar);
  const StmtId loop = b.k.loop(LoopKind::For, b.k.declare(i, b.c(0)), b.bin(BinaryOp::Lt, b.var(i), b.c(3)),
                               b.k.assign(i, b.bin(BinaryOp::Add, b.var(i), b.c(1))), guard);
  const Kernel k = b.done({loop});
  for (int warp_size : {1, 2, 4}) {
    SCOPED_TRACE("warp size " + std::to_string(warp_size));
    ReplayOptions o;
    o.by_iteration = true;
    const ReplayResult r = replay(k, launch({1, 1, 1}, {4, 1, 1}, warp_size), o);
    EXPECT_EQ(to_decimal(r.statements[bar].block_executions), "3");
    EXPECT_EQ(to_decimal(r.statements[bar].partial_block_executions), "1");
    // Per iteration: i = 0 is the partial one.
    ASSERT_EQ(r.iterations[bar].size(), 3u);
    EXPECT_EQ(to_decimal(r.iterations[bar][0].partial_block_executions), "1");
    EXPECT_EQ(to_decimal(r.iterations[bar][1].partial_block_executions), "0");
    EXPECT_EQ(to_decimal(r.iterations[bar][2].block_executions), "1");
  }
}

// 40 threads, warps of 32: warp 1 has 8 lanes (tx 32..39), the others do not exist.
TEST(IrReplay, PartialLastWarp) {
  K b;
  const StmtId below_36 = b.k.if_(b.bin(BinaryOp::Lt, b.tx(), b.c(36)), b.work("a"));
  const StmtId below_40 = b.k.if_(b.bin(BinaryOp::Lt, b.tx(), b.c(40)), b.work("b"));
  const Kernel k = b.done({below_36, below_40});
  const ReplayResult r = replay(k, launch({1, 1, 1}, {40, 1, 1}, 32));
  expect_counts(r, below_36, {2, 1, 40, 36});
  expect_counts(r, below_40, {2, 0, 40, 40});  // all existing lanes agree
}

// Warp size 1: never divergent. Warp size 64: one warp of an 8 x 8 block, split by ty < 4.
TEST(IrReplay, WarpSizesOneAndSixtyFour) {
  K b;
  const StmtId even = b.k.if_(b.bin(BinaryOp::Eq, b.bin(BinaryOp::Rem, b.tx(), b.c(2)), b.c(0)), b.work("a"));
  const StmtId top = b.k.if_(b.bin(BinaryOp::Lt, b.ty(), b.c(4)), b.work("b"));
  const Kernel k = b.done({even, top});
  ReplayResult r = replay(k, launch({1, 1, 1}, {5, 1, 1}, 1));
  expect_counts(r, even, {5, 0, 5, 3});
  r = replay(k, launch({1, 1, 1}, {8, 8, 1}, 64));
  expect_counts(r, even, {1, 1, 64, 32});
  expect_counts(r, top, {1, 1, 64, 32});
}

// Block (4, 2, 2), warps of 8: warp 0 is z = 0, warp 1 is z = 1. `z == 1 && x == 0` splits
// warp 1 only (lanes y = 0, 1). Grid (2, 1, 2): 4 blocks. With warps of 4, each warp is one row
// (fixed y, z), so `y == 1` never splits a warp.
TEST(IrReplay, ThreeDimensionalBlock) {
  K b;
  const StmtId corner = b.k.if_(
      b.k.logical(LogicalOp::And, b.bin(BinaryOp::Eq, b.tz(), b.c(1)), b.bin(BinaryOp::Eq, b.tx(), b.c(0))),
      b.work("a"));
  const StmtId row = b.k.if_(b.bin(BinaryOp::Eq, b.ty(), b.c(1)), b.work("b"));
  const Kernel k = b.done({corner, row});
  ReplayResult r = replay(k, launch({2, 1, 2}, {4, 2, 2}, 8));
  expect_counts(r, corner, {8, 4, 64, 8});
  expect_counts(r, row, {8, 8, 64, 32});
  r = replay(k, launch({2, 1, 2}, {4, 2, 2}, 4));
  expect_counts(r, row, {16, 0, 64, 32});
  expect_counts(r, corner, {16, 8, 64, 8});  // rows (y, 1) of each block: one lane each
}

// switch (tx % 3) { case 0: A; case 1: B; break; default: C; }  6 threads in one warp of 8:
// entries {0,3} at A, {1,4} at B, {2,5} at C; A falls through into B, then break.
TEST(IrReplay, SwitchWithFallThrough) {
  K b;
  const StmtId a = b.work("A"), bb = b.work("B"), brk = b.k.break_(), c = b.work("C");
  const StmtId sw = b.k.switch_(b.bin(BinaryOp::Rem, b.tx(), b.c(3)), {a, bb, brk, c},
                                {SwitchCase{0, 0}, SwitchCase{1, 1}}, 3);
  const StmtId after = b.work("after");
  const Kernel k = b.done({sw, after});
  const ReplayResult r = replay(k, launch({1, 1, 1}, {6, 1, 1}, 8));
  expect_counts(r, sw, {1, 1, 6, 4});
  expect_counts(r, a, {1, 0, 2, 0});
  expect_counts(r, bb, {1, 0, 4, 0});
  expect_counts(r, brk, {1, 0, 4, 0});
  expect_counts(r, c, {1, 0, 2, 0});
  expect_counts(r, after, {1, 0, 6, 0});
}

TEST(IrReplay, UndefinedBehaviourNamesLocationAndThread) {
  K b;
  const LocalId q = b.k.add_local("q", I);
  const ExprId e = b.bin(BinaryOp::Div, b.c(10), b.bin(BinaryOp::Sub, b.tx(), b.c(3)));
  b.k.exprs[e].range = SourceRange{0, 7, 11, 7, 20};
  const Kernel k = b.done({b.k.declare(q, e)});
  try {
    replay(k, launch({1, 1, 1}, {4, 1, 1}, 4));
    FAIL() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_STREQ(error.what(),
                 "test.cu:7:11: undefined behaviour: division by zero in '/' (int32) in block "
                 "(0, 0, 0), thread (3, 0, 0)");
  }
  // Guarded, the division is fine: if (tx != 3) q = 10 / (tx - 3);
  K g;
  const LocalId q2 = g.k.add_local("q", I);
  const Kernel guarded =
      g.done({g.k.if_(g.bin(BinaryOp::Ne, g.tx(), g.c(3)),
                      g.k.assign(q2, g.bin(BinaryOp::Div, g.c(10), g.bin(BinaryOp::Sub, g.tx(), g.c(3)))))});
  EXPECT_NO_THROW(replay(guarded, launch({1, 1, 1}, {4, 1, 1}, 4)));
}

TEST(IrReplay, SignedOverflowAndUnassignedRead) {
  K b;
  const LocalId x = b.k.add_local("x", I);
  const Kernel overflow = b.done({b.k.declare(x, b.bin(BinaryOp::Add, b.c(2147483647), b.tx()))});
  EXPECT_THROW(replay(overflow, launch({1, 1, 1}, {2, 1, 1}, 32)), InvalidInput);
  EXPECT_NO_THROW(replay(overflow, launch({1, 1, 1}, {1, 1, 1}, 32)));  // tx = 0 only
  K u;
  const LocalId y = u.k.add_local("y", I);
  const Kernel unassigned =
      u.done({u.k.declare(y, kNone), u.k.if_(u.bin(BinaryOp::Gt, u.var(y), u.c(0)), u.work("w"))});
  try {
    replay(unassigned, launch({1, 1, 1}, {1, 1, 1}, 32));
    FAIL() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_NE(std::string(error.what()).find("'y' is read before it is assigned"), std::string::npos)
        << error.what();
  }
}

// The replay keeps an expression's lane values while the locals it reads are unchanged; a
// value kept for some lanes must not stand for more lanes, nor outlive its locals.
//   int v = tx;
//   for (int k = 0; k < 2; ++k) if (tx < 16 || k == 1) { int w = v * 2^27; }
// k = 0: lanes 0-15, v * 2^27 <= 15 * 2^27 < 2^31; k = 1: all lanes, and lane 16 gives
// 16 * 2^27 = 2^31, a signed overflow (undefined) in thread 16.
//   for (int k = 0; k < 2; ++k) { int y; if (k == 0) y = tx; int z = y * 2; }
// k = 1 reads y after `int y;` made it indeterminate again.
TEST(IrReplay, KeptValuesNeitherWidenNorOutliveTheirLocals) {
  K b;
  const LocalId v = b.k.add_local("v", I), k = b.k.add_local("k", I), w = b.k.add_local("w", I);
  const StmtId guarded = b.k.if_(
      b.k.logical(LogicalOp::Or, b.bin(BinaryOp::Lt, b.tx(), b.c(16)), b.bin(BinaryOp::Eq, b.var(k), b.c(1))),
      b.k.declare(w, b.bin(BinaryOp::Mul, b.var(v), b.c(134217728))));
  const StmtId loop = b.k.loop(LoopKind::For, b.k.declare(k, b.c(0)), b.bin(BinaryOp::Lt, b.var(k), b.c(2)),
                               b.k.assign(k, b.bin(BinaryOp::Add, b.var(k), b.c(1))), b.k.block({guarded}));
  const Kernel widen = b.done({b.k.declare(v, b.tx()), loop});
  try {
    replay(widen, launch({1, 1, 1}, {32, 1, 1}, 32));
    FAIL() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_NE(std::string(error.what()).find("signed overflow"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("thread (16, 0, 0)"), std::string::npos) << error.what();
  }
  // Lanes 0-15 only (a block of 16): no overflow in either iteration.
  EXPECT_NO_THROW(replay(widen, launch({1, 1, 1}, {16, 1, 1}, 32)));

  K u;
  const LocalId y = u.k.add_local("y", I), i = u.k.add_local("k", I), z = u.k.add_local("z", I);
  const StmtId body =
      u.k.block({u.k.declare(y, kNone), u.k.if_(u.bin(BinaryOp::Eq, u.var(i), u.c(0)), u.k.assign(y, u.tx())),
                 u.k.declare(z, u.bin(BinaryOp::Mul, u.var(y), u.c(2)))});
  const StmtId again = u.k.loop(LoopKind::For, u.k.declare(i, u.c(0)), u.bin(BinaryOp::Lt, u.var(i), u.c(2)),
                                u.k.assign(i, u.bin(BinaryOp::Add, u.var(i), u.c(1))), body);
  const Kernel stale = u.done({again});
  try {
    replay(stale, launch({1, 1, 1}, {32, 1, 1}, 32));
    FAIL() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_NE(std::string(error.what()).find("'y' is read before it is assigned"), std::string::npos)
        << error.what();
  }
}

// int v = A[i] (opaque); int w = v + 1; if (w > 0) ... is data-dependent, through w.
TEST(IrReplay, DataDependentBranchIsRefusedBeforeAnyLaunch) {
  K b;
  const LocalId v = b.k.add_local("v", I), w = b.k.add_local("w", I);
  const ExprId read = b.k.opaque(I, "A[i] (read from global memory)", SourceRange{0, 3, 13, 3, 16});
  const StmtId if_ =
      b.k.if_(b.bin(BinaryOp::Gt, b.var(w), b.c(0)), b.work("x"), kNone, SourceRange{0, 5, 3, 5, 20});
  const Kernel k =
      b.done({b.k.declare(v, read, SourceRange{0, 3, 3, 3, 17}),
              b.k.declare(w, b.bin(BinaryOp::Add, b.var(v), b.c(1)), SourceRange{0, 4, 3, 4, 17}), if_});
  try {
    validate(k);
    FAIL() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_STREQ(error.what(),
                 "test.cu:5:3: data-dependent branch: the condition of this if depends on A[i] "
                 "(read from global memory) through 'w' (assigned at test.cu:4:3) (test.cu:3:13); the "
                 "model follows control flow only where it can compute it");
  }
  // The same value may flow into work and locals that decide nothing.
  K ok;
  const LocalId v2 = ok.k.add_local("v", I);
  const Kernel fine = ok.done({ok.k.declare(v2, ok.k.opaque(I, "A[i]")), ok.work("B[i] = v")});
  EXPECT_NO_THROW(replay(fine, launch({1, 1, 1}, {4, 1, 1}, 4)));
}

TEST(IrReplay, LimitsAndStop) {
  const IfElse t = if_else();
  ReplayOptions o;
  // 100 blocks of 7 evaluations: warp 0 runs the body block, the if and `then`; warp 1 also `else`.
  o.max_evaluations = 100;
  try {
    replay(t.kernel, launch({100, 1, 1}, {64, 1, 1}, 32), o);
    FAIL() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_NE(std::string(error.what()).find("about 700 warp-statement evaluations"), std::string::npos)
        << error.what();
  }
  const ReplayEstimate e = estimate(t.kernel, launch({100, 1, 1}, {64, 1, 1}, 32));
  EXPECT_EQ(to_decimal(e.blocks), "100");
  EXPECT_EQ(to_decimal(e.warp_statement_evaluations), "700");
  // for (;;) work; never ends: stopped past twice the limit, or by the stop flag.
  K b;
  const Kernel forever = b.done({b.k.loop(LoopKind::For, kNone, kNone, kNone, b.work("w"))});
  o.max_evaluations = 100000;
  EXPECT_THROW(replay(forever, launch({1, 1, 1}, {1, 1, 1}, 32), o), InvalidInput);
  // By iteration, a loop past 2^20 iterations is refused rather than kept row by row.
  K c;
  const LocalId i = c.k.add_local("i", I);
  const Kernel long_loop = c.done({c.k.loop(
      LoopKind::While, c.k.declare(i, c.c(0)), c.bin(BinaryOp::Lt, c.var(i), c.c(2000000)),
      c.k.assign(i, c.bin(BinaryOp::Add, c.var(i), c.c(1))), c.work("w"), SourceRange{0, 4, 3, 4, 30})});
  o.max_evaluations = kDefaultMaxEvaluations;
  o.by_iteration = true;
  try {
    replay(long_loop, launch({1, 1, 1}, {1, 1, 1}, 32), o);
    FAIL() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_STREQ(error.what(),
                 "test.cu:4:3: the while loop runs more than 1048576 iterations, the most "
                 "that counts by iteration keep");
  }
  o.by_iteration = false;
  EXPECT_NO_THROW(replay(long_loop, launch({1, 1, 1}, {1, 1, 1}, 32), o));
  // The stop flag ends a long run (the loop that never ends is named before the flag is read).
  std::atomic<bool> stop{true};
  o.stop = &stop;
  EXPECT_THROW(replay(long_loop, launch({1, 1, 1}, {1, 1, 1}, 32), o), Interrupted);
}

TEST(IrReplay, LaunchLimits) {
  const IfElse t = if_else();
  EXPECT_THROW(replay(t.kernel, launch({1, 1, 1}, {1025, 1, 1}, 32)), InvalidInput);
  EXPECT_THROW(replay(t.kernel, launch({1, 1, 1}, {32, 32, 2}, 32)), InvalidInput);
  EXPECT_THROW(replay(t.kernel, launch({1, 1, 1}, {1, 1, 65}, 32)), InvalidInput);
  EXPECT_THROW(replay(t.kernel, launch({1, 65536, 1}, {1, 1, 1}, 32)), InvalidInput);
  EXPECT_THROW(replay(t.kernel, launch({0, 1, 1}, {1, 1, 1}, 32)), InvalidInput);
  EXPECT_THROW(replay(t.kernel, launch({1, 1, 1}, {1, 1, 1}, 48)), InvalidInput);
  EXPECT_THROW(replay(t.kernel, launch({1, 1, 1}, {1, 1, 1}, 128)), InvalidInput);
  std::atomic<std::uint64_t> done{0};
  ReplayOptions o;
  o.blocks_done = &done;
  EXPECT_NO_THROW(replay(t.kernel, launch({5, 1, 1}, {1024, 1, 1}, 64), o));
  EXPECT_EQ(done.load(), 5u);
}

TEST(IrReplay, EvaluateUniformComputesGridSizes) {
  Kernel k;
  const int n = k.add_parameter("N", I);
  // (N + 127) / 128
  const ExprId e =
      k.binary(BinaryOp::Div, k.binary(BinaryOp::Add, k.param(n), k.constant(I, 127)), k.constant(I, 128));
  EXPECT_EQ(evaluate_uniform(k, e, {Value::of(I, 1000)}), Value::of(I, 8));
  const ExprId zero = k.binary(BinaryOp::Div, k.param(n), k.constant(I, 0));
  EXPECT_THROW(evaluate_uniform(k, zero, {Value::of(I, 1)}), InvalidInput);
  const ExprId t = k.builtin(Builtin::ThreadIdxX);
  EXPECT_THROW(evaluate_uniform(k, t, {Value::of(I, 1)}), InvalidInput);
}

// A store through the null pointer (MemoryBase::null) by the lanes its guard leaves: in one block of
// 64 threads, `tx >= 40` leaves none of warp 0 and threads 40 .. 63 of warp 1, so the first fault
// is thread 40's; `tx > 100` leaves no lane, so that store is no fault (and makes no request).
TEST(IrReplay, AStoreThroughTheNullPointerFaultsOnlyWhereALaneMakesIt) {
  K b;
  MemoryBase null;
  null.name = "nullptr";
  null.null = true;
  const std::int32_t base = b.k.add_base(null);
  const auto store = [&](std::uint32_t line, BinaryOp op, std::int64_t bound) {
    const StmtId s = b.work("p[t] = 1", line);
    MemoryAccess a;
    a.kind = AccessKind::Store;
    a.base = base;
    a.offset = b.k.cast(ScalarType::I64, b.bin(BinaryOp::Mul, b.tx(), b.c(4)));
    a.guard = b.bin(op, b.tx(), b.c(bound));
    a.text = "p[t]";
    a.range = SourceRange{0, line, 3, line, 7};
    b.k.stmts[static_cast<std::size_t>(s)].accesses.push_back(b.k.add_access(a));
    return s;
  };
  const StmtId none = store(1, BinaryOp::Gt, 100);
  const StmtId some = store(2, BinaryOp::Ge, 40);
  const ReplayResult r = replay(b.done({none, some}), launch(Dim3{1, 1, 1}, Dim3{64, 1, 1}, 32));
  EXPECT_EQ(r.access_faults.at(0), "");
  EXPECT_EQ(to_decimal(r.accesses.at(0).requests), "0");
  EXPECT_EQ(
      r.access_faults.at(1),
      "test.cu:2:3: null pointer: 'p[t]' writes 4 bytes through a null pointer (the GPU stops the kernel "
      "there) in block (0, 0, 0), thread (40, 0, 0)");
}

}  // namespace
}  // namespace warpdiv::sim::ir
