// The model-against-probe comparison on records written by hand (no GPU): agreement, the first
// differing warp evaluation named with its place and both masks, a warp that stops early, a
// differing total, and lanes the hardware formed differently.
#include <gtest/gtest.h>

#include <sstream>

#include "analysis/probe_comparison.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::analysis {
namespace {

namespace ir = sim::ir;

// if (threadIdx.x < 40) work; else work;  statements: 0 then, 1 else, 2 if (line 2, column 3),
// 3 the body.
ir::Kernel if_else() {
  ir::Kernel k;
  k.name = "if_else";
  k.files.push_back(ir::SourceFile{"if_else.cu", {}});
  const ir::ExprId tx = k.cast(ir::ScalarType::I32, k.builtin(ir::Builtin::ThreadIdxX));
  const ir::ExprId cond = k.binary(ir::BinaryOp::Lt, tx, k.constant(ir::ScalarType::I32, 40));
  const ir::StmtId then_work = k.work("then", {0, 3, 5, 3, 9});
  const ir::StmtId else_work = k.work("else", {0, 5, 5, 5, 9});
  const ir::StmtId branch = k.if_(cond, then_work, else_work, {0, 2, 3, 6, 1});
  k.root = k.block({branch}, {0, 1, 1, 7, 1});
  return k;
}

// Grid 2, block 64: warps 0 and 1 of blocks 0 and 1. Warp 0: body, if (all taken), then.
// Warp 1: body, if (lanes 0..7 taken), then, else.
ir::WarpTrace trace() {
  ir::WarpTrace t;
  t.warps_per_block = 2;
  const ir::WarpEvaluation body{3, 0xffffffff, 0}, all{2, 0xffffffff, 0xffffffff},
      split{2, 0xffffffff, 0x000000ff}, then0{0, 0xffffffff, 0}, then1{0, 0x000000ff, 0},
      else1{1, 0xffffff00, 0};
  const std::vector<std::vector<ir::WarpEvaluation>> warps = {
      {body, all, then0}, {body, split, then1, else1}, {body, all, then0}, {body, split, then1, else1}};
  t.offsets.push_back(0);
  for (const auto& w : warps) {
    t.evaluations.insert(t.evaluations.end(), w.begin(), w.end());
    t.counts.push_back(w.size());
    t.offsets.push_back(t.evaluations.size());
  }
  return t;
}

ir::Launch launch() {
  ir::Launch l;
  l.grid = {2, 1, 1};
  l.block = {64, 1, 1};
  return l;
}

// The totals of trace(), by hand: body 4 x 32 lanes; if 4 evaluations, 2 divergent, 128 active,
// 2 x 32 + 2 x 8 = 80 taken; then 2 x 32 + 2 x 8 = 80 lanes in 4; else 2 x 24 = 48 in 2.
ir::ReplayResult totals() {
  ir::ReplayResult r;
  r.statements.resize(4);
  r.statements[0].warp_evaluations = 4;
  r.statements[0].active_lanes = 80;
  r.statements[1].warp_evaluations = 2;
  r.statements[1].active_lanes = 48;
  r.statements[2].warp_evaluations = 4;
  r.statements[2].divergent = 2;
  r.statements[2].active_lanes = 128;
  r.statements[2].taken_lanes = 80;
  r.statements[3].warp_evaluations = 4;
  r.statements[3].active_lanes = 128;
  return r;
}

TEST(ProbeComparison, IdenticalRecordsAgree) {
  const ir::Kernel k = if_else();
  const ir::WarpTrace t = trace();
  const ProbeComparison c = compare_probe(k, launch(), totals(), totals().statements, &t, &t, 0);
  EXPECT_TRUE(c.agree());
  EXPECT_EQ(c.statements_compared, 4u);
  EXPECT_EQ(c.warps_compared, 4u);
  EXPECT_EQ(c.evaluations_compared, 14u);
  EXPECT_EQ(c.summary(k), "agree: 4 statements' totals, 14 warp evaluations of 4 warps one by one");
}

TEST(ProbeComparison, NamesTheFirstDifferingEvaluation) {
  const ir::Kernel k = if_else();
  const ir::WarpTrace model = trace();
  ir::WarpTrace gpu = trace();
  // Block 1, warp 1 (global warp 3), its evaluation 1 (the if): one more lane takes it. Warp 1 of
  // block 0 is left alone; its twin in block 1 differs, so the block index must come from the
  // global warp, not be 0.
  gpu.evaluations[gpu.offsets[3] + 1].taken = 0x000001ff;
  const ProbeComparison c = compare_probe(k, launch(), totals(), totals().statements, &model, &gpu, 0);
  EXPECT_FALSE(c.agree());
  EXPECT_EQ(c.warps_differing, 1u);
  EXPECT_EQ(c.first_warp_difference,
            "if_else.cu:2:3 (if, statement 2): block (1, 0, 0), warp 1, evaluation 1: model "
            "active 0xffffffff taken 0x000000ff; GPU active 0xffffffff taken 0x000001ff");
  EXPECT_EQ(c.summary(k), c.first_warp_difference);
}

TEST(ProbeComparison, AWarpThatMakesFewerEvaluationsIsNamed) {
  const ir::Kernel k = if_else();
  const ir::WarpTrace model = trace();
  ir::WarpTrace gpu = trace();
  gpu.counts[1] = 3;  // block 0, warp 1 never reaches the else
  const ProbeComparison c = compare_probe(k, launch(), totals(), totals().statements, &model, &gpu, 0);
  EXPECT_FALSE(c.agree());
  EXPECT_EQ(c.first_warp_difference,
            "block (0, 0, 0), warp 1, the model makes 4 evaluations, the GPU 3; the model's next "
            "is if_else.cu:5:5 (statement, statement 1) active 0xffffff00");
}

TEST(ProbeComparison, ADifferingTotalIsNamedWithBothFigures) {
  const ir::Kernel k = if_else();
  std::vector<ir::StatementCounts> gpu = totals().statements;
  gpu[2].divergent = 3;
  const ProbeComparison c = compare_probe(k, launch(), totals(), gpu, nullptr, nullptr, 0);
  EXPECT_FALSE(c.agree());
  ASSERT_EQ(c.total_differences.size(), 1u);
  EXPECT_EQ(c.summary(k), "if_else.cu:2:3 (if, statement 2): divergent model 2, GPU 3 (1 figures differ)");
  EXPECT_EQ(c.warps_compared, 0u);
}

TEST(ProbeComparison, LanesFormedOtherwiseDisagree) {
  const ir::Kernel k = if_else();
  const ProbeComparison c = compare_probe(k, launch(), totals(), totals().statements, nullptr, nullptr, 5);
  EXPECT_FALSE(c.agree());
  EXPECT_NE(c.summary(k).find("5 threads"), std::string::npos);
}

TEST(ProbeComparison, RefusesRecordsOfAnotherShape) {
  const ir::Kernel k = if_else();
  std::vector<ir::StatementCounts> short_totals(3);
  EXPECT_THROW(compare_probe(k, launch(), totals(), short_totals, nullptr, nullptr, 0), InvalidInput);
  const ir::WarpTrace model = trace();
  ir::WarpTrace gpu = trace();
  gpu.counts.pop_back();
  gpu.offsets.pop_back();
  EXPECT_THROW(compare_probe(k, launch(), totals(), totals().statements, &model, &gpu, 0), InvalidInput);
}

TEST(ProbeComparison, CsvHeaderAndRowComeFromOneColumnList) {
  ProbeRecord r;
  r.device = "NVIDIA H100 80GB HBM3";
  r.kernel = "if_else";
  r.grid = "(2, 1, 1)";
  r.outcome = "agree: 4 statements' totals";
  std::ostringstream out;
  write_probe_csv(out, {r});
  const std::string text = out.str();
  const std::string header = text.substr(0, text.find('\n'));
  EXPECT_EQ(header,
            "date,device,compute_capability,driver,runtime,nvrtc,file,kernel,grid,block,"
            "arguments,statements,warps,warp_evaluations,divergent_evaluations,"
            "partial_barrier_executions,warps_compared,evaluations_compared,"
            "figures_differing,warps_differing,agree,outcome,kernel_compiled_by,"
            "kernel_registers_compiled,kernel_static_shared_compiled,"
            "kernel_registers_runtime,kernel_static_shared_runtime,kernel_resources_note,"
            "probe_registers,probe_local_bytes,compile_seconds,kernel_seconds");
  EXPECT_NE(text.find(",\"(2, 1, 1)\","), std::string::npos) << text;
  EXPECT_NE(text.find(",yes,agree: 4 statements' totals,"), std::string::npos) << text;
}

}  // namespace
}  // namespace warpdiv::analysis
