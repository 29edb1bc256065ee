// The source report's rows and formatters, on a kernel model built by hand and counts chosen by
// hand (the engine is not involved: what is tested is what the report does with counts).
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <string>

#include "analysis/source_report.hpp"
#include "analysis/source_sweep.hpp"
#include "sim/support/errors.hpp"
#include "tests/text_helpers.hpp"

namespace warpdiv::analysis {
namespace {

namespace ir = sim::ir;
using warpdiv::testing::contains;

ir::SourceRange at(std::uint32_t line, std::uint32_t column, std::uint32_t end_line = 0) {
  return ir::SourceRange{0, line, column, end_line == 0 ? line : end_line, 80};
}

ir::SourceRange span(std::uint32_t line, std::uint32_t column, std::uint32_t end_line,
                     std::uint32_t end_column) {
  return ir::SourceRange{0, line, column, end_line, end_column};
}

// guard.cu, 1-based lines:
//  1 // a kernel
//  2 __global__ void k(float *P, int Width)
//  3 {
//  4   int Row = threadIdx.x;
//  5   for (int p = 0; p < 2; ++p) {
//  6     if (Row < Width) {
//  7       __syncthreads();
//  8     }
//  9   }
// 10   P[Row] = 1.0f;
// 11 }
struct GuardKernel {
  ir::Kernel kernel;
  ir::StmtId declare_row, loop, init, step, guard, barrier, store;

  GuardKernel() {
    using ir::ScalarType;
    kernel.name = "k";
    kernel.files.push_back(
        {"guard.cu",
         {"// a kernel", "__global__ void k(float *P, int Width)", "{", "  int Row = threadIdx.x;",
          "  for (int p = 0; p < 2; ++p) {", "    if (Row < Width) {", "      __syncthreads();", "    }",
          "  }", "  P[Row] = 1.0f;", "}"}});
    kernel.add_opaque_parameter("P", "float *");
    const auto width = kernel.add_parameter("Width", ScalarType::I32);
    const auto row = kernel.add_local("Row", ScalarType::I32, at(4, 3));
    const auto p = kernel.add_local("p", ScalarType::I32, at(5, 8));
    // Each statement's range as the front-end gives it: from its first byte to its last token's
    // last byte (a declaration's `;` not included), a condition's in its expression.
    declare_row = kernel.declare(row, kernel.cast(ScalarType::I32, kernel.builtin(ir::Builtin::ThreadIdxX)),
                                 span(4, 3, 4, 23));
    barrier = kernel.barrier(span(7, 7, 7, 21));
    guard =
        kernel.if_(kernel.binary(ir::BinaryOp::Lt, kernel.local(row), kernel.param(width), span(6, 9, 6, 19)),
                   kernel.block({barrier}, at(6, 22, 8)), ir::kNone, span(6, 5, 8, 5));
    init = kernel.declare(p, kernel.constant(ScalarType::I32, 0), span(5, 8, 5, 16));
    step = kernel.assign(
        p, kernel.binary(ir::BinaryOp::Add, kernel.local(p), kernel.constant(ScalarType::I32, 1)),
        span(5, 26, 5, 28));
    loop = kernel.loop(ir::LoopKind::For, init,
                       kernel.binary(ir::BinaryOp::Lt, kernel.local(p), kernel.constant(ScalarType::I32, 2),
                                     span(5, 19, 5, 23)),
                       step, kernel.block({guard}, at(5, 31, 9)), span(5, 3, 9, 3));
    store = kernel.work("P[Row] = 1.0f", span(10, 3, 10, 15));
    kernel.root = kernel.block({declare_row, loop, store}, at(3, 1, 11));
  }
};

// A launch of one block of 48 threads, warp size 32 (a full warp and one of 16 lanes), Width 40:
// the guard splits warp 1 (lanes 32..47: 32..39 pass); counts for 2 iterations.
struct GuardRun {
  GuardKernel g;
  ir::Launch launch;
  ir::ReplayResult result;

  explicit GuardRun(bool by_iteration) {
    launch.grid = {1, 1, 1};
    launch.block = {48, 1, 1};
    launch.warp_size = 32;
    launch.arguments = {ir::Value{}, ir::Value::of(ir::ScalarType::I32, 40)};
    result.statements.resize(g.kernel.stmts.size());
    result.blocks = 1;
    result.warps = 2;
    auto& s = result.statements;
    s[static_cast<std::size_t>(g.declare_row)] = {2, 0, 48, 0, 0, 0};
    s[static_cast<std::size_t>(g.init)] = {2, 0, 48, 0, 0, 0};
    s[static_cast<std::size_t>(g.loop)] = {6, 0, 144, 96, 0, 0};
    s[static_cast<std::size_t>(g.step)] = {4, 0, 96, 0, 0, 0};
    s[static_cast<std::size_t>(g.guard)] = {4, 2, 96, 80, 0, 0};
    s[static_cast<std::size_t>(g.barrier)] = {4, 0, 80, 0, 2, 2};
    s[static_cast<std::size_t>(g.store)] = {2, 0, 48, 0, 0, 0};
    if (by_iteration) {
      result.iterations.resize(g.kernel.stmts.size());
      result.iterations[static_cast<std::size_t>(g.guard)] = {{2, 1, 48, 40, 0, 0}, {2, 1, 48, 40, 0, 0}};
      result.iterations[static_cast<std::size_t>(g.loop)] = {
          {2, 0, 48, 48, 0, 0}, {2, 0, 48, 48, 0, 0}, {2, 0, 48, 0, 0, 0}};
    }
  }
};

std::string csv_of(const SourceReport& report) {
  std::ostringstream out;
  write_source_csv(out, report);
  return out.str();
}
std::string text_of(const SourceReport& report) {
  std::ostringstream out;
  write_source_text(out, report);
  return out.str();
}

TEST(SourceReport, CsvColumnsInTheIssuesOrder) {
  EXPECT_EQ(source_csv_header(),
            "file,line,column,kind,iteration,warp_evaluations,divergent,active_lanes,taken_lanes,"
            "block_executions,partial_block_executions,global_requests,global_sectors,global_bytes,"
            "global_load_requests,global_store_requests,global_atomic_requests,shared_requests,"
            "shared_wavefronts,shared_bank_conflicts,flops,accesses_not_counted,simd_efficiency,statement,"
            "inlined_at,complete");
}

// The guides show the CSVs' columns as the writers make them (a column added to a writer's list
// and not to the guides fails here).
TEST(SourceReport, GuidesListTheWritersOwnColumns) {
  const auto guide = [](const std::string& name) {
    std::ifstream in(std::string(WARPDIV_SOURCE_DIR) + "/docs/guide/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  EXPECT_TRUE(contains(guide("your-kernel.md"), "\n" + source_csv_header() + "\n"));
  // The sweep's guide shows its first 17 columns (cut -d, -f1-17): the launch's, then the
  // source CSV's up to taken_lanes; the rest it leaves to the list above.
  const std::string sweep_header =
      "n,block_x,block_y,block_z,grid_x,grid_y,grid_z,warp_size," + source_csv_header();
  std::size_t cut = 0;
  for (int comma = 0; comma < 17; ++comma) cut = sweep_header.find(',', cut) + 1;
  EXPECT_EQ(sweep_header.substr(0, cut),
            "n,block_x,block_y,block_z,grid_x,grid_y,grid_z,warp_size,file,line,column,"
            "kind,iteration,warp_evaluations,divergent,active_lanes,taken_lanes,");
  EXPECT_TRUE(contains(guide("sweeps.md"), "\n" + sweep_header.substr(0, cut - 1) + "\n"));
  // The --by-class CSV's own columns, named in the guide after the plain CSV's.
  const std::string by_class = source_class_csv_header().substr(source_csv_header().size() + 1);
  EXPECT_EQ(by_class,
            "class,class_blocks,class_definition,representative,loop_line,first_iteration,"
            "iterations,iteration_class");
  EXPECT_TRUE(contains(guide("your-kernel.md"), "`class,class_blocks,class_definition,representative`"));
}

TEST(SourceSweepCsv, TheLaunchsColumnsThenTheSourceCsvs) {
  const GuardRun run(false);
  const SourceReport report = make_source_report(run.g.kernel, run.launch, run.result, {});
  SourceSweepPlan plan;
  plan.arg_names = {"Width"};
  SourceSweepLaunch launch;
  launch.args = {5};
  launch.block = {32, 1, 1};
  launch.grid = {2, 1, 1};
  const CsvColumns<SourceSweepCsvRow> columns = source_sweep_csv_columns(plan);
  EXPECT_EQ(columns.header(),
            "Width,block_x,block_y,block_z,grid_x,grid_y,grid_z,warp_size,file,line,column,kind,"
            "iteration,warp_evaluations,divergent,active_lanes,taken_lanes,block_executions,"
            "partial_block_executions,global_requests,global_sectors,global_bytes,"
            "global_load_requests,global_store_requests,global_atomic_requests,shared_requests,"
            "shared_wavefronts,shared_bank_conflicts,flops,accesses_not_counted,simd_efficiency,statement,"
            "inlined_at,complete");
  std::ostringstream out;
  write_source_sweep_csv_rows(out, columns, launch, report);
  EXPECT_EQ(
      out.str().substr(0, out.str().find('\n') + 1),
      "5,32,1,1,2,1,1,32,guard.cu,4,3,statement,,2,0,48,,,,,,,,,,,,,,,0.7500,int Row = threadIdx.x,,yes\n");
}

TEST(SourceReport, CsvRowsInSourceOrder) {
  const GuardRun run(false);
  const SourceReport report = make_source_report(run.g.kernel, run.launch, run.result, {});
  // SIMD efficiency = active lanes / (evaluations x 32): 48/64 = 0.75, 144/192, 96/128 = 0.75,
  // 80/128 = 0.625. The braces (Block statements) get no row; the for's init and step do, after
  // the loop that starts first on line 5. Each row's statement is its own text: a condition's
  // header to its ')', not the rest of the line.
  EXPECT_EQ(csv_of(report),
            source_csv_header() +
                "\n"
                "guard.cu,4,3,statement,,2,0,48,,,,,,,,,,,,,,,0.7500,int Row = threadIdx.x,,yes\n"
                "guard.cu,5,3,for,,6,0,144,96,,,,,,,,,,,,,,0.7500,for (int p = 0; p < 2; ++p),,yes\n"
                "guard.cu,5,8,statement,,2,0,48,,,,,,,,,,,,,,,0.7500,int p = 0,,yes\n"
                "guard.cu,5,26,statement,,4,0,96,,,,,,,,,,,,,,,0.7500,++p,,yes\n"
                "guard.cu,6,5,if,,4,2,96,80,,,,,,,,,,,,,,0.7500,if (Row < Width),,yes\n"
                "guard.cu,7,7,barrier,,4,0,80,,2,2,,,,,,,,,,,,0.6250,__syncthreads(),,yes\n"
                "guard.cu,10,3,statement,,2,0,48,,,,,,,,,,,,,,,0.7500,P[Row] = 1.0f,,yes\n");
}

TEST(SourceReport, ByIterationRowsFollowTheirStatement) {
  const GuardRun run(true);
  SourceReportOptions options;
  options.by_iteration = true;
  const SourceReport report = make_source_report(run.g.kernel, run.launch, run.result, options);
  const std::string csv = csv_of(report);
  EXPECT_TRUE(contains(csv,
                       "guard.cu,5,3,for,,6,0,144,96,,,,,,,,,,,,,,0.7500,for (int p = 0; p < 2; ++p),,yes\n"
                       "guard.cu,5,3,for,1,2,0,48,48,,,,,,,,,,,,,,0.7500,for (int p = 0; p < 2; ++p),,yes\n"
                       "guard.cu,5,3,for,2,2,0,48,48,,,,,,,,,,,,,,0.7500,for (int p = 0; p < 2; ++p),,yes\n"
                       "guard.cu,5,3,for,3,2,0,48,0,,,,,,,,,,,,,,0.7500,for (int p = 0; p < 2; ++p),,yes\n"))
      << csv;
  EXPECT_TRUE(contains(csv,
                       "guard.cu,6,5,if,,4,2,96,80,,,,,,,,,,,,,,0.7500,if (Row < Width),,yes\n"
                       "guard.cu,6,5,if,1,2,1,48,40,,,,,,,,,,,,,,0.7500,if (Row < Width),,yes\n"
                       "guard.cu,6,5,if,2,2,1,48,40,,,,,,,,,,,,,,0.7500,if (Row < Width),,yes\n"))
      << csv;
  const std::string text = text_of(report);
  EXPECT_TRUE(contains(text,
                       "   6            4           2    75.0%      if (Row < Width) {\n"
                       "                 2           1    75.0%    iteration 1\n"))
      << text;
}

// Ctrl-C's flag, once set, stops the report between rows (by iteration there may be millions):
// Interrupted; a flag never set changes nothing.
TEST(SourceReport, AStopFlagStopsTheReport) {
  const GuardRun run(true);
  SourceReportOptions options;
  options.by_iteration = true;
  const SourceReportOptions without_flag = options;
  std::atomic<bool> stop{false};
  options.stop = &stop;
  EXPECT_EQ(make_source_report(run.g.kernel, run.launch, run.result, options).rows.size(),
            make_source_report(run.g.kernel, run.launch, run.result, without_flag).rows.size());
  stop = true;
  EXPECT_THROW(make_source_report(run.g.kernel, run.launch, run.result, options), Interrupted);
}

TEST(SourceReport, AnnotatedListingAndPartialBarrier) {
  const GuardRun run(false);
  SourceReport report = make_source_report(run.g.kernel, run.launch, run.result, {});
  ASSERT_EQ(report.partial_barriers.size(), 1u);
  report.partial_barriers[0].blocks_with_partial = 1;
  const std::string text = text_of(report);
  EXPECT_EQ(text,
            "warpdiv analyze: k in guard.cu\n"
            "launch: grid (1, 1, 1), block (48, 1, 1), warp size 32; Width = 40\n"
            "counted: 1 block, 2 warps\n\n"
            "Per statement: warp evaluations (a warp reaching it with at least one active lane),\n"
            "divergent evaluations of conditions (the active lanes disagree), and SIMD efficiency\n"
            "(active lanes / (evaluations x warp size)).\n\n"
            " line   warp evals   divergent     SIMD  source\n"
            "    2                                    __global__ void k(float *P, int Width)\n"
            "    3                                    {\n"
            "    4            2           -    75.0%    int Row = threadIdx.x;\n"
            "    5            6           0    75.0%    for (int p = 0; p < 2; ++p) {\n"
            "    6            4           2    75.0%      if (Row < Width) {\n"
            "    7            4           -    62.5%        __syncthreads();\n"
            "    8                                        }\n"
            "    9                                      }\n"
            "   10            2           -    75.0%    P[Row] = 1.0f;\n"
            "   11                                    }\n"
            "\nBarriers (__syncthreads): (block, instance) executions that at least one thread "
            "reaches\n"
            "  line 7: 2 block executions, 2 of them partial\n"
            "\nguard.cu:7:7: partial barrier: only part of the block reaches this __syncthreads() "
            "in 2 of 2 block executions, in 1 of 1 blocks.\n"
            "That is undefined behaviour: move the barrier out of the branch so that every\n"
            "thread of the block reaches it.\n");
}

TEST(SourceReport, ScopeOfOnlyBlockAndWarp) {
  const GuardRun run(false);
  SourceReportOptions options;
  options.only_block = ir::Dim3{0, 0, 0};
  options.only_warp = 1;
  const SourceReport report = make_source_report(run.g.kernel, run.launch, run.result, options);
  EXPECT_EQ(report.scope, "warp 1 of block (0, 0, 0)");
  EXPECT_TRUE(contains(text_of(report), "(warp 1 of block (0, 0, 0) only)"));
}

TEST(SourceReport, ModelWithoutSourceTextListsDescriptions) {
  GuardRun run(false);
  run.g.kernel.files[0].lines.clear();
  const SourceReport report = make_source_report(run.g.kernel, run.launch, run.result, {});
  const std::string text = text_of(report);
  EXPECT_TRUE(contains(text, "   10            2           -    75.0%  P[Row] = 1.0f\n")) << text;
}

// One block class (the whole launch) with the loop's two iteration classes, chosen by hand: p in
// [0, 1] (both body iterations: the guard splits warp 1 once per iteration, 2 of 4) and p = 2, the
// last check (2 warps, no lane stays).
TEST(SourceReport, ByClassCsvAndTextListIterationClasses) {
  const GuardRun run(false);
  const GuardKernel& g = run.g;
  SourceReport report = make_source_report(g.kernel, run.launch, run.result, {});
  ir::BlockClass c;
  c.blocks = 1;
  c.representative = {0, 0, 0};
  c.definition = "all blocks";
  c.statements = run.result.statements;
  const std::size_t n = g.kernel.stmts.size();
  ir::IterationClass body;
  body.loop = g.loop;
  body.first = 0;
  body.last = 1;
  body.definition = "p in [0, 1] (all)";
  body.statements = ir::SparseCounts(n);
  body.statements.set(static_cast<std::size_t>(g.loop), {4, 0, 96, 96, 0, 0});
  body.statements.set(static_cast<std::size_t>(g.step), {4, 0, 96, 0, 0, 0});
  body.statements.set(static_cast<std::size_t>(g.guard), {4, 2, 96, 80, 0, 0});
  body.statements.set(static_cast<std::size_t>(g.barrier), {4, 0, 80, 0, 2, 2});
  ir::IterationClass exit = body;
  exit.first = exit.last = 2;
  exit.definition = "p = 2 (exit)";
  exit.exit = true;
  exit.statements = ir::SparseCounts(n);
  exit.statements.set(static_cast<std::size_t>(g.loop), {2, 0, 48, 0, 0, 0});
  c.iteration_classes = {body, exit};
  add_block_classes(report, g.kernel, run.launch, {c}, {});
  EXPECT_EQ(source_class_csv_header(),
            source_csv_header() +
                ",class,class_blocks,class_definition,representative,loop_line,first_iteration,"
                "iterations,iteration_class");
  std::ostringstream csv;
  write_source_class_csv(csv, report);
  // The class's own rows end with four empty columns; the iteration classes' rows follow, for the
  // statements inside the loop (the for, its step, the guard, the barrier; not the init), the
  // barrier's block columns empty.
  EXPECT_TRUE(contains(csv.str(),
                       "guard.cu,6,5,if,,4,2,96,80,,,,,,,,,,,,,,0.7500,if (Row < Width),,yes,class 1,1,"
                       "all blocks,\"(0, 0, 0)\",,,,\n"))
      << csv.str();
  EXPECT_TRUE(contains(csv.str(),
                       "guard.cu,6,5,if,,4,2,96,80,,,,,,,,,,,,,,0.7500,if (Row < Width),,yes,class 1,1,"
                       "all blocks,\"(0, 0, 0)\",5,1,2,\"p in [0, 1] (all)\"\n"))
      << csv.str();
  EXPECT_TRUE(contains(csv.str(),
                       "guard.cu,7,7,barrier,,4,0,80,,,,,,,,,,,,,,,0.6250,__syncthreads(),,yes,class 1,1,"
                       "all blocks,\"(0, 0, 0)\",5,1,2,\"p in [0, 1] (all)\"\n"))
      << csv.str();
  EXPECT_TRUE(contains(csv.str(),
                       "guard.cu,5,3,for,,2,0,48,0,,,,,,,,,,,,,,0.7500,for (int p = 0; p < 2; ++p),,yes,"
                       "class 1,1,all blocks,\"(0, 0, 0)\",5,3,1,p = 2 (exit)\n"))
      << csv.str();
  std::size_t init_rows = 0;  // the init (line 5, column 8) is outside the loop: its class row only
  for (std::size_t at = csv.str().find("\nguard.cu,5,8,"); at != std::string::npos;
       at = csv.str().find("\nguard.cu,5,8,", at + 1))
    ++init_rows;
  EXPECT_EQ(init_rows, 1u) << csv.str();
  const std::string text = text_of(report);
  EXPECT_TRUE(contains(text, "\nfor loop at line 5 (p):\n")) << text;
  EXPECT_TRUE(contains(text, "  class 1           2  p in [0, 1] (all)       0/4       2/4\n")) << text;
  EXPECT_TRUE(contains(text, "(no lane stays): p = 2 (exit).\n")) << text;
}

}  // namespace
}  // namespace warpdiv::analysis
