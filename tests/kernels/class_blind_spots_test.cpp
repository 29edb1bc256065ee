// The class engine's former blind spots: locals reassigned after a first phase, int
// values converted to unsigned inside comparisons (wrapping below 0), and grid-stride loops (a loop
// variable that differs by lane). The kernels are tests/kernels/blind_spots/*.cu. Each is proved
// by the class engine and equal to the replay of every block on random launches, and counted by
// hand at a launch far too large to replay.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "kernels/frontend/frontend.hpp"
#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/zoo_launches.hpp"

namespace warpdiv::sim::ir {
namespace {

std::string folder() { return std::string(WARPDIV_SOURCE_DIR) + "/tests/kernels/blind_spots/"; }

std::vector<std::string> files() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(folder()))
    if (entry.path().extension() == ".cu") out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

Kernel load(const std::string& file) {
  frontend::FrontendOptions o;
  o.file = folder() + file;
  return frontend::load_kernel(o);
}

Kernel kernel_from(const std::string& name, const std::string& text) {
  const std::string file = ::testing::TempDir() + "/" + name;
  { std::ofstream(file) << text; }
  frontend::FrontendOptions o;
  o.file = file;
  return frontend::load_kernel(o);
}

Launch launch_of(const Kernel& k, Dim3 grid, Dim3 block, const std::map<std::string, std::int64_t>& args) {
  Launch l;
  l.grid = grid;
  l.block = block;
  for (const Parameter& p : k.parameters) {
    const auto it = args.find(p.name);
    l.arguments.push_back(p.scalar ? Value::of(p.type, it != args.end() ? it->second : 0) : Value{});
  }
  return l;
}

std::string str(Count c) { return to_decimal(c); }

// The statement of `kind` on source line `line`.
StmtId at_line(const Kernel& k, std::uint32_t line, StmtKind kind) {
  for (std::size_t s = 0; s < k.stmts.size(); ++s)
    if (k.stmts[s].kind == kind && k.stmts[s].range.line == line) return static_cast<StmtId>(s);
  ADD_FAILURE() << "no " << name(kind) << " on line " << line;
  return 0;
}

// The class engine against the replay: every statement's counts, the counts by iteration, and the
// memory figures wherever the class engine gives them.
void expect_same(const Kernel& k, const ReplayResult& want, const ClassReplayResult& got) {
  ASSERT_EQ(want.statements.size(), got.statements.size());
  for (std::size_t s = 0; s < got.statements.size(); ++s)
    EXPECT_TRUE(want.statements[s] == got.statements[s])
        << "statement at " << location(k, k.stmts[s].range) << ": evaluations "
        << str(want.statements[s].warp_evaluations) << " / " << str(got.statements[s].warp_evaluations)
        << ", divergent " << str(want.statements[s].divergent) << " / " << str(got.statements[s].divergent);
  ASSERT_EQ(want.iterations.size(), got.iterations.size());
  for (std::size_t s = 0; s < got.iterations.size(); ++s) {
    ASSERT_EQ(want.iterations[s].size(), got.iterations[s].size());
    for (std::size_t it = 0; it < got.iterations[s].size(); ++it)
      EXPECT_TRUE(want.iterations[s][it] == got.iterations[s][it]) << "iteration " << it;
  }
  if (got.memory_counted) {
    ASSERT_TRUE(want.memory_counted);
    ASSERT_EQ(want.accesses.size(), got.accesses.size());
    for (std::size_t a = 0; a < got.accesses.size(); ++a)
      EXPECT_TRUE(want.accesses[a] == got.accesses[a]) << "access '" << k.accesses[a].text << "'";
  }
}

// Every kernel of the folder: proved (no refusal) and equal to the replay on random launches,
// arguments up to 60 (few iterations, wraps near the grid's start) and up to 3,000 (grid-stride
// loops of hundreds of iterations, which run as classes of iterations).
TEST(ClassBlindSpots, ProvedAndEqualToTheReplayOnRandomLaunches) {
  std::mt19937_64 rng(20261127);
  std::vector<std::string> names = files();
  ASSERT_GE(names.size(), 9u);
  int compared = 0;
  for (const std::string& file : names) {
    const Kernel k = load(file);
    for (int i = 0; i < 120; ++i) {
      std::string what;
      const Launch l = zoo::random_launch(k, rng, i % 4 == 0 ? 40 : 6, 3, i % 2 == 0 ? 60 : 3000, what);
      SCOPED_TRACE(what);
      ReplayOptions o;
      o.threads = 1;
      o.by_iteration = i % 7 == 0;
      const std::optional<ReplayResult> want = zoo::replay_unless_refused(k, l, o);
      const ClassPlan plan = plan_classes(k, l);
      ASSERT_TRUE(plan.ok()) << plan.refusal->message();
      if (!want) {
        EXPECT_THROW(class_replay(k, l, plan, o), InvalidInput);
        continue;
      }
      expect_same(k, *want, class_replay(k, l, plan, o));
      ++compared;
    }
  }
  EXPECT_GE(compared, 900);
}

// The stencils in blocks whose warps fall into classes (rows of 8 or 16 threads, 4 warps), the
// wrap at -1 and the bound anywhere in the grid: equal to the replay.
TEST(ClassBlindSpots, StencilsWithWarpClassesEqualTheReplay) {
  for (const char* file : {"stencil_unsigned.cu", "stencil_shifted.cu", "stencil_size_t.cu",
                           "stencil_unsigned_locals.cu", "stencil_int_bound.cu", "stencil_long.cu"}) {
    const Kernel k = load(file);
    for (const Dim3 block : {Dim3{8, 16, 1}, Dim3{16, 8, 1}})
      for (const std::int64_t n : {0, 1, 2, 3, 17, 33, 39, 40, 41, 100}) {
        SCOPED_TRACE(std::string(file) + " block " + to_string(block) + " N " + std::to_string(n));
        const Launch l = launch_of(k, Dim3{5, 3, 4}, block, {{"N", n}});
        ReplayOptions o;
        o.threads = 1;
        const std::optional<ReplayResult> want = zoo::replay_unless_refused(k, l, o);
        ASSERT_TRUE(want.has_value());
        expect_same(k, *want, class_replay(k, l, o));
      }
  }
}

// A grid-stride loop of thousands of iterations per lane, in blocks of three warps (warps by
// classes): the iterations run as classes (lanes start at their own index), equal to the replay.
TEST(ClassBlindSpots, GridStrideLoopOfManyIterationsEqualsTheReplay) {
  const Kernel k = load("grid_stride_guarded.cu");
  for (const auto& [n, m] :
       {std::pair<std::int64_t, std::int64_t>{1000003, 700001}, {999999, 5}, {672 * 1500, 672 * 700 + 31}}) {
    SCOPED_TRACE(n);
    const Launch l = launch_of(k, Dim3{7, 1, 1}, Dim3{96, 1, 1}, {{"n", n}, {"m", m}});
    ReplayOptions o;
    o.threads = 1;
    const ClassReplayResult got = class_replay(k, l, o);
    expect_same(k, replay(k, l, o), got);
    // Far fewer warp-statement evaluations run than counted: classes of iterations.
    EXPECT_LT(got.warps_replayed, 22u * 7u);
  }
}

// gsl3 (tests/kernels/blind_spots/grid_stride_fill.cu) at the largest grid, n = 2^63 - 1:
// G = 2^31 - 1 blocks of B = 1,024 threads, stride S = G B = 2^41 - 2^10, thread t runs
// floor((n - 1 - t) / S) + 1 iterations. 2^22 S = 2^63 - 2^32, so threads t <= 2^32 - 2 run 2^22 + 1
// iterations and the others 2^22 ((2^22 - 1) S <= n - 1 - t for every t < G B). A warp checks
// the loop once more than its longest lane iterates: warps 0 .. 2^27 - 1 (t < 2^32) check
// 2^22 + 2 times (warp 2^27 - 1 holds t = 2^32 - 1, which leaves one iteration early: the one
// divergent check), the other W - 2^27 warps (W = G B / 32 = 2^36 - 32) 2^22 + 1 times:
//   checks = 2^27 (2^22 + 2) + (2^36 - 32 - 2^27)(2^22 + 1) = (2^36 - 32)(2^22 + 1) + 2^27
//          = 2^58 + 2^36 - 32 = 288,230,444,871,188,448;
//   body   = 2^27 (2^22 + 1) + (2^36 - 32 - 2^27) 2^22 = 2^58 = 288,230,376,151,711,744.
TEST(ClassBlindSpots, GridStrideLoopAtTheLargestGridByHand) {
  const Kernel k = load("grid_stride_fill.cu");
  const Launch l = launch_of(k, Dim3{2147483647, 1, 1}, Dim3{1024, 1, 1}, {{"n", 9223372036854775807}});
  const ClassPlan plan = plan_classes(k, l);
  ASSERT_TRUE(plan.ok()) << plan.refusal->message();
  ASSERT_EQ(plan.accelerated_loops.size(), 1u);
  const ClassReplayResult r = class_replay(k, l, plan);
  const StmtId loop = at_line(k, 3, StmtKind::Loop);
  EXPECT_EQ(str(r.statements[loop].warp_evaluations), "288230444871188448");
  EXPECT_EQ(str(r.statements[loop].divergent), "1");
  bool body = false;
  for (std::size_t s = 0; s < k.stmts.size(); ++s)
    if (k.stmts[s].range.line == 4 && k.stmts[s].kind != StmtKind::Block) {
      EXPECT_EQ(str(r.statements[s].warp_evaluations), "288230376151711744");
      body = true;
    }
  EXPECT_TRUE(body);
}

// The unsigned stencils at N = 3,000: grid 376^3 of 8 x 8 x 8 (16 warps of 8 x 4 x 1 threads per
// block, 376^3 x 16 = 850,518,016 warps), worked out per dimension.
// stencil_unsigned.cu: i = 8 bx + tx - 1 in [0, N) (int -1 converted to unsigned fails).
//   x: every block has lanes in range, blocks 1 .. 374 all 8 (bx = 0: 7, bx = 375: i = 2999 only);
//   y: (by, half of 4 rows): 752 pairs, (375, upper) empty, (0, lower) and (375, lower) partial:
//      751 with lanes in range, 749 full; z: (bz, tz) with k in range: 3,008 - 1 - 7 = 3,000.
//   body = 376 x 751 x 3,000 = 847,128,000; taken lanes = 3,000^3;
//   divergent = 3,000 x (376 x 751 - 374 x 749) = 3,000 x 2,250 = 6,750,000.
// stencil_shifted.cu: i = 8 bx + tx, i - 1 < N - 2 unsigned: i in [1, 2,998].
//   x: bx 0 .. 374 have lanes in range, 1 .. 373 all 8; y: 752 pairs, by = 375 empty (2),
//      (0, lower) and (374, upper) partial: 750 with lanes, 748 full; z: 3,008 - 1 - 9 = 2,998.
//   body = 375 x 750 x 2,998 = 843,187,500; taken lanes = 2,998^3 = 26,946,035,992;
//   divergent = 2,998 x (375 x 750 - 373 x 748) = 2,998 x 2,246 = 6,733,508.
// The same figures for the variants that compare the same way (size_t bound and long indices,
// unsigned locals, (int)N with i >= 0); long indices against the bound converted to long compare
// signed: -1 is in range, 3,001^3 taken lanes.
TEST(ClassBlindSpots, UnsignedStencilsAtN3000ByHand) {
  struct Case {
    const char* file;
    std::uint32_t line;  // of the if
    const char* body;
    const char* divergent;
    const char* taken;
  };
  const Case cases[] = {
      {"stencil_unsigned.cu", 6, "847128000", "6750000", "27000000000"},
      {"stencil_unsigned_locals.cu", 8, "847128000", "6750000", "27000000000"},
      {"stencil_size_t.cu", 9, "847128000", "6750000", "27000000000"},
      {"stencil_int_bound.cu", 8, "847128000", "6750000", "27000000000"},
      {"stencil_shifted.cu", 6, "843187500", "6733508", "26946035992"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const Kernel k = load(c.file);
    const Launch l = launch_of(k, Dim3{376, 376, 376}, Dim3{8, 8, 8}, {{"N", 3000}});
    const ClassPlan plan = plan_classes(k, l);
    ASSERT_TRUE(plan.ok()) << plan.refusal->message();
    const ClassReplayResult r = class_replay(k, l, plan);
    const StmtId guard = at_line(k, c.line, StmtKind::If);
    EXPECT_EQ(str(r.statements[guard].warp_evaluations), "850518016");
    EXPECT_EQ(str(r.statements[guard].divergent), c.divergent);
    EXPECT_EQ(str(r.statements[guard].taken_lanes), c.taken);
    EXPECT_EQ(str(r.statements[k.stmts[guard].then_stmt].warp_evaluations), c.body);
  }
  // long indices against an unsigned int bound: i in [-1, 2,999] in every dimension.
  const Kernel k = load("stencil_long.cu");
  const ClassReplayResult r =
      class_replay(k, launch_of(k, Dim3{376, 376, 376}, Dim3{8, 8, 8}, {{"N", 3000}}));
  EXPECT_EQ(str(r.statements[at_line(k, 8, StmtKind::If)].taken_lanes), "27027009001");  // 3,001^3
}

// The transpose that reassigns x and y after the barrier, at 1,000 x 1,000 (grid 32 x 32 of
// 32 x 32: one warp per row, 32,768 warps): each phase's guard is divergent in the warps of the
// last block column (x = 992 .. 1,023, 8 in range) on the 1,000 rows in range, and its body runs
// in the 32 x 1,000 warps of rows in range.
TEST(ClassBlindSpots, TransposeReassigningItsIndicesByHand) {
  const Kernel k = load("transpose_reassigned.cu");
  const Launch l = launch_of(k, Dim3{32, 32, 1}, Dim3{32, 32, 1}, {{"width", 1000}, {"height", 1000}});
  const ClassPlan plan = plan_classes(k, l);
  ASSERT_TRUE(plan.ok()) << plan.refusal->message();
  const ClassReplayResult r = class_replay(k, l, plan);
  for (const std::uint32_t line : {7u, 12u}) {
    const StmtId guard = at_line(k, line, StmtKind::If);
    EXPECT_EQ(str(r.statements[guard].warp_evaluations), "32768");
    EXPECT_EQ(str(r.statements[guard].divergent), "1000");
    EXPECT_EQ(str(r.statements[k.stmts[guard].then_stmt].warp_evaluations), "32000");
  }
}

// A local reassigned inside a branch is still one joined value: x is blockIdx.x or blockIdx.y
// by lane, and the class engine refuses (the replay counts it), naming the local and both
// assignments rather than "not affine".
TEST(ClassBlindSpots, ALocalReassignedInABranchStaysJoined) {
  const Kernel k = kernel_from("branch_reassign.cu",
                               "__global__ void f(int* out, int n) {\n"
                               "  int x = blockIdx.x;\n"
                               "  if (threadIdx.x < 16) x = blockIdx.y;\n"
                               "  if (x < n) out[threadIdx.x] = 1;\n"
                               "}\n");
  const ClassPlan plan = plan_classes(k, launch_of(k, Dim3{4, 4, 1}, Dim3{32, 1, 1}, {{"n", 5}}));
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.refusal->location.substr(plan.refusal->location.rfind('/') + 1), "branch_reassign.cu:4:7");
  EXPECT_EQ(plan.refusal->what, "this comparison");
  const std::string r = plan.refusal->reason;
  EXPECT_EQ(r.substr(0, r.find(" at ")), "depends on blockIdx.x through the local 'x', assigned");
  EXPECT_NE(r.find("branch_reassign.cu:2:3 and at "), std::string::npos) << r;
  EXPECT_NE(
      r.find("branch_reassign.cu:3:25 with different dependences on it (a local assigned inside a branch or "
             "loop is followed as one value: give each phase a local of its own)"),
      std::string::npos)
      << r;
}

// An unsigned value that wraps around more than once over the grid (blockIdx.x x 3e9 spans more
// than 2^32) cannot be split at one wrap point: refused, saying so.
TEST(ClassBlindSpots, AValueThatWrapsMoreThanOnceIsRefusedSayingSo) {
  const Kernel k = kernel_from("wraps_twice.cu",
                               "__global__ void f(int* out, unsigned n) {\n"
                               "  unsigned x = blockIdx.x * 3000000000u + threadIdx.x;\n"
                               "  if (x < n) out[threadIdx.x] = 1;\n"
                               "}\n");
  const ClassPlan plan = plan_classes(k, launch_of(k, Dim3{4, 1, 1}, Dim3{32, 1, 1}, {{"n", 5}}));
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(
      plan.refusal->reason,
      "depends on blockIdx.x through an operand converted to uint32 (or computed in it) that may wrap around "
      "more than once over the launch (its values span 2^32 or more), so its order is not affine in it");
  // Two blocks: x spans [0, 3e9 + 31], below 2^32 (no wrap): proved and equal to the replay.
  const Launch two = launch_of(k, Dim3{2, 1, 1}, Dim3{32, 1, 1}, {{"n", 3000000005}});
  expect_same(k, replay(k, two), class_replay(k, two));
}

// A long loop that does not run as classes of iterations (its step is not a constant) records
// its comparison (which changes with i, so the machine evaluates it again) in every iteration: past
// kMaxTraceEntries records in one block the class engine refuses at once instead of growing (it grew until
// the kernel killed the process).
TEST(ClassBlindSpots, ALongLoopOutsideClassesIsRefusedWithBoundedMemory) {
  const Kernel k = kernel_from("uneven_steps.cu",
                               "__global__ void f(int* out, int n, int m) {\n"
                               "  for (int i = 0; i < n; i += 1 + (i & 1)) {\n"
                               "    if (blockIdx.x * 4 + threadIdx.x < m + (i & 1)) out[threadIdx.x] = i;\n"
                               "  }\n"
                               "}\n");
  // i = 0, 1, 3, 5, ...: (n + 1) / 2 + 1 iterations, n = 6,000,000 gives 3,000,001 > 2^21 = 2,097,152
  // records.
  const Launch l = launch_of(k, Dim3{3, 1, 1}, Dim3{4, 1, 1}, {{"n", 6000000}, {"m", 6}});
  const ClassPlan plan = plan_classes(k, l);
  ASSERT_TRUE(plan.ok()) << plan.refusal->message();
  try {
    class_replay(k, l, plan);
    ADD_FAILURE() << "not refused";
  } catch (const ClassesUnproven& e) {
    EXPECT_NE(
        std::string(e.what()).find("uneven_steps.cu:3:9: the class engine cannot prove the block classes: "
                                   "this comparison is recorded more than 2097152 times in one block"),
        std::string::npos)
        << e.what();
  }
  // Under the limit the same loop is counted, equal to the replay.
  const Launch small = launch_of(k, Dim3{3, 1, 1}, Dim3{4, 1, 1}, {{"n", 30000}, {"m", 6}});
  expect_same(k, replay(k, small), class_replay(k, small));
}

}  // namespace
}  // namespace warpdiv::sim::ir
