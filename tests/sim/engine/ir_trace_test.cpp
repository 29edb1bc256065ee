// Warp-by-warp traces of the replay (sim/engine/ir_trace.hpp), against evaluations worked out by hand.
#include <gtest/gtest.h>

#include "sim/support/errors.hpp"
#include "sim/engine/ir_trace.hpp"

namespace warpdiv::sim::ir {
namespace {

// if (threadIdx.x < 40) then; else else;  statements: 0 then, 1 else, 2 if, 3 the body.
Kernel if_else() {
  Kernel k;
  k.name = "if_else";
  k.files.push_back(SourceFile{"if_else.cu", {}});
  const ExprId tx = k.cast(ScalarType::I32, k.builtin(Builtin::ThreadIdxX));
  const ExprId cond = k.binary(BinaryOp::Lt, tx, k.constant(ScalarType::I32, 40));
  const StmtId then_work = k.work("then");
  const StmtId else_work = k.work("else");
  k.root = k.block({k.if_(cond, then_work, else_work)});
  return k;
}

Launch launch(Dim3 grid, Dim3 block) {
  Launch l;
  l.grid = grid;
  l.block = block;
  return l;
}

TEST(IrTrace, EachWarpsEvaluationsInOrder) {
  // Block 64 threads: warp 0 (tx 0..31) all take the branch; warp 1 (tx 32..63) lanes 0..7 do.
  const Kernel k = if_else();
  const Launch l = launch({3, 1, 1}, {64, 1, 1});
  WarpTraceRecorder recorder(l, 100);
  ReplayOptions options;
  options.observer = &recorder;
  (void)replay(k, l, options);
  const WarpTrace t = recorder.flatten();
  ASSERT_EQ(t.warps(), 6u);
  EXPECT_EQ(t.warps_per_block, 2u);
  const std::vector<WarpEvaluation> warp0 = {
      {3, 0xffffffff, 0}, {2, 0xffffffff, 0xffffffff}, {0, 0xffffffff, 0}};
  const std::vector<WarpEvaluation> warp1 = {
      {3, 0xffffffff, 0}, {2, 0xffffffff, 0x000000ff}, {0, 0x000000ff, 0}, {1, 0xffffff00, 0}};
  for (std::uint64_t w = 0; w < 6; ++w) {
    SCOPED_TRACE("warp " + std::to_string(w));
    const std::vector<WarpEvaluation>& expected = w % 2 == 0 ? warp0 : warp1;
    ASSERT_EQ(t.counts[w], expected.size());
    ASSERT_EQ(t.capacity(w), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
      EXPECT_TRUE(t.evaluations[t.offsets[w] + i] == expected[i]) << "evaluation " << i;
  }
}

TEST(IrTrace, APartialLastWarpHasOnlyItsLanes) {
  // 40 threads: warp 1 has lanes 0..7 (tx 32..39), all below 40.
  const Kernel k = if_else();
  const Launch l = launch({1, 1, 1}, {40, 1, 1});
  WarpTraceRecorder recorder(l, 100);
  ReplayOptions options;
  options.observer = &recorder;
  (void)replay(k, l, options);
  const WarpTrace t = recorder.flatten();
  ASSERT_EQ(t.warps(), 2u);
  ASSERT_EQ(t.counts[1], 3u);
  EXPECT_TRUE(t.evaluations[t.offsets[1] + 1] == (WarpEvaluation{2, 0xff, 0xff}));
}

TEST(IrTrace, TheEstimateSamplesUnseen) {
  const Kernel k = if_else();
  const Launch l = launch({100, 1, 1}, {64, 1, 1});
  WarpTraceRecorder recorder(l, 1000);
  ReplayOptions options;
  options.observer = &recorder;
  (void)estimate(k, l, options);
  const WarpTrace t = recorder.flatten();
  EXPECT_TRUE(t.evaluations.empty());
  // The replay samples blocks before it runs them (grids above its sample size): each warp is
  // still seen once.
  (void)replay(k, l, options);
  const WarpTrace u = recorder.flatten();
  EXPECT_EQ(u.evaluations.size(), 100u * (3 + 4));
}

TEST(IrTrace, GlobalWarpIndicesRoundTrip) {
  const Launch l = launch({3, 4, 5}, {7, 3, 2});  // 42 threads: 2 warps per block
  EXPECT_EQ(warps_per_block(l), 2u);
  // Block (2, 1, 3) is block 2 + 3 * (1 + 4 * 3) = 41; its warp 1 is warp 83.
  EXPECT_EQ(global_warp(l, {2, 1, 3}, 1), 83u);
  Dim3 block;
  std::uint32_t warp = 0;
  split_global_warp(l, 83, block, warp);
  EXPECT_TRUE(block == (Dim3{2, 1, 3}));
  EXPECT_EQ(warp, 1u);
}

TEST(IrTrace, RefusesTooManyWarps) {
  EXPECT_THROW(WarpTraceRecorder(launch({1000, 1, 1}, {1024, 1, 1}), 1000), InvalidInput);
}

}  // namespace
}  // namespace warpdiv::sim::ir
