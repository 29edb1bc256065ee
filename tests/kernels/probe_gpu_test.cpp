// The generated probe on the GPU against the model and against figures worked out by hand. Each
// test skips with the reason where there is no CUDA device, driver or NVRTC.
#include <gtest/gtest.h>

#include "analysis/probe_comparison.hpp"
#include "kernels/probe.hpp"
#include "sim/support/errors.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/engine/ir_trace.hpp"
#include "tests/kernels/probe_models.hpp"

namespace warpdiv::testing {
namespace {

bool ready(std::string& why) {
  try {
    kernels::open_probe_device();
    return true;
  } catch (const NoDevice& e) {
    why = e.what();
    return false;
  }
}

ir::Launch make_launch(ir::Dim3 grid, ir::Dim3 block, std::vector<ir::Value> args) {
  ir::Launch l;
  l.grid = grid;
  l.block = block;
  l.arguments = std::move(args);
  return l;
}

analysis::ProbeComparison run_and_compare(const ir::Kernel& k, const ir::Launch& launch,
                                          kernels::ProbeRun& gpu) {
  ir::WarpTraceRecorder recorder(launch, 1u << 20);
  ir::ReplayOptions options;
  options.observer = &recorder;
  const ir::ReplayResult model = ir::replay(k, launch, options);
  const ir::WarpTrace trace = recorder.flatten();
  gpu = kernels::run_probe(k, launch, &trace, 1u << 20);
  return analysis::compare_probe(k, launch, model, gpu.statements, &trace, &gpu.warps, gpu.lane_order_faults);
}

TEST(ProbeGpu, IfElseGivesTheHandWorkedFigures) {
  std::string why;
  if (!ready(why)) GTEST_SKIP() << why;
  const ProbeModel m = if_else_model();
  kernels::ProbeRun gpu;
  const analysis::ProbeComparison c = run_and_compare(m.kernel, make_launch({3, 1, 1}, {64, 1, 1}, {}), gpu);
  EXPECT_TRUE(c.agree()) << c.summary(m.kernel);
  const ir::StatementCounts& b = gpu.statements[static_cast<std::size_t>(m.branch)];
  EXPECT_EQ(sim::to_decimal(b.warp_evaluations), "6");
  EXPECT_EQ(sim::to_decimal(b.divergent), "3");
  EXPECT_EQ(sim::to_decimal(b.active_lanes), "192");
  EXPECT_EQ(sim::to_decimal(b.taken_lanes), "120");
  EXPECT_EQ(c.warps_compared, 6u);
  EXPECT_EQ(gpu.lane_order_faults, 0u);
}

TEST(ProbeGpu, AProbeOfAnotherConditionIsCaughtAtItsFirstEvaluation) {
  std::string why;
  if (!ready(why)) GTEST_SKIP() << why;
  // The GPU runs `threadIdx.x < 41` where the model says `< 40`: in warp 1 of block 0 (tx 32..63)
  // lane 8 (tx 40) takes the branch too. Its evaluation 0 is the body, 1 the if.
  const ProbeModel m = if_else_model();
  ProbeModel other = if_else_model();
  for (ir::Expr& e : other.kernel.exprs)
    if (e.kind == ir::ExprKind::Constant && e.constant == 40) e.constant = 41;
  const ir::Launch launch = make_launch({3, 1, 1}, {64, 1, 1}, {});
  ir::WarpTraceRecorder recorder(launch, 1u << 20);
  ir::ReplayOptions options;
  options.observer = &recorder;
  const ir::ReplayResult model = ir::replay(m.kernel, launch, options);
  const ir::WarpTrace trace = recorder.flatten();
  const kernels::ProbeRun gpu = kernels::run_probe(other.kernel, launch, &trace, 1u << 20);
  const analysis::ProbeComparison c = analysis::compare_probe(m.kernel, launch, model, gpu.statements, &trace,
                                                              &gpu.warps, gpu.lane_order_faults);
  EXPECT_FALSE(c.agree());
  EXPECT_EQ(c.warps_differing, 3u);  // warp 1 of each block
  EXPECT_EQ(c.first_warp_difference,
            "if_else.cu:2:3 (if, statement 2): block (0, 0, 0), warp 1, evaluation 1: model "
            "active 0xffffffff taken 0x000000ff; GPU active 0xffffffff taken 0x000001ff");
}

TEST(ProbeGpu, EveryConstructAgreesWithTheModelWarpByWarp) {
  std::string why;
  if (!ready(why)) GTEST_SKIP() << why;
  const ir::Kernel k = all_constructs_model();
  struct Case {
    ir::Dim3 grid, block;
    int n;
  };
  // Full and partial warps, 1-, 2- and 3-D blocks, a block of one thread.
  for (const Case& c :
       {Case{{1, 1, 1}, {32, 2, 2}, 1}, Case{{2, 3, 1}, {13, 5, 3}, 2}, Case{{3, 1, 2}, {64, 1, 1}, 0},
        Case{{1, 1, 1}, {7, 1, 1}, 3}, Case{{2, 2, 2}, {1, 1, 1}, 1}, Case{{1, 1, 1}, {33, 3, 2}, 4}}) {
    SCOPED_TRACE("block " + ir::to_string(c.block) + " n " + std::to_string(c.n));
    const ir::Launch launch =
        make_launch(c.grid, c.block, {ir::Value{}, ir::Value::of(ir::ScalarType::I32, c.n)});
    kernels::ProbeRun gpu;
    const analysis::ProbeComparison r = run_and_compare(k, launch, gpu);
    EXPECT_TRUE(r.agree()) << r.summary(k);
    EXPECT_EQ(r.warps_compared, launch.grid.volume() * ir::warps_per_block(launch));
  }
}

}  // namespace
}  // namespace warpdiv::testing
