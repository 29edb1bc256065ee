// Iteration classes (sim/classes/ir_classes.hpp: BlockClass::iteration_classes) on the kernel zoo, read by
// the Clang front-end: against a second implementation that numbers every warp evaluation of a
// plain replay by the iteration of each enclosing loop (an EvaluationObserver: an instance of a
// loop starts at its first condition evaluation and ends at the one that no lane takes), against
// ReplayOptions::by_iteration, and against figures worked out by hand for the lecture's tiled
// multiply and image blur.
#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/zoo_launches.hpp"

namespace warpdiv::sim::ir {
namespace {

using zoo::load;

std::string str(Count c) { return to_decimal(c); }

// The statements inside each loop: its condition (the loop itself), body and step, at any depth
// (not its init). Written from the IR's tree, apart from the engine's own bookkeeping.
std::map<StmtId, std::set<StmtId>> statements_inside(const Kernel& k) {
  std::map<StmtId, std::set<StmtId>> inside;
  std::vector<StmtId> open;
  const auto walk = [&](const auto& self, StmtId id) -> void {
    if (id == kNone) return;
    const Stmt& s = k.stmts[static_cast<std::size_t>(id)];
    self(self, s.init);
    for (StmtId l : open) inside[l].insert(id);
    if (s.kind == StmtKind::Loop) {
      open.push_back(id);
      inside[id].insert(id);
    }
    for (StmtId c : s.children) self(self, c);
    for (StmtId c : {s.then_stmt, s.else_stmt, s.body, s.step}) self(self, c);
    if (s.kind == StmtKind::Loop) open.pop_back();
  };
  walk(walk, k.root);
  return inside;
}

WarpOutcome outcome(std::uint64_t active, std::uint64_t taken) {
  if (taken != 0 && taken != active) return WarpOutcome::Divergent;
  return taken == active ? WarpOutcome::AllTrue : WarpOutcome::AllFalse;
}
WarpOutcome together(WarpOutcome a, WarpOutcome b) {
  if (a == WarpOutcome::NotReached) return b;
  if (b == WarpOutcome::NotReached) return a;
  if (a == WarpOutcome::Divergent || b == WarpOutcome::Divergent) return WarpOutcome::Divergent;
  return a == b ? a : WarpOutcome::Mixed;
}

bool is_condition(const Stmt& s) {
  return s.kind == StmtKind::If || s.kind == StmtKind::Loop || s.kind == StmtKind::Switch;
}

// Per block class, loop and iteration: the counts of every statement inside the loop; and, for
// the classes' representatives, per warp the outcome of each condition in each iteration and
// over the whole run.
class IterationOracle : public EvaluationObserver {
 public:
  IterationOracle(const Kernel& k, const std::vector<StmtId>& loops, const std::vector<BlockClass>& classes)
      : k_(k), loops_(loops.begin(), loops.end()), classes_(classes), inside_(statements_inside(k)) {}

  struct Key {
    std::size_t block_class;
    StmtId loop;
    std::uint64_t k;
    bool operator<(const Key& o) const {
      return std::tie(block_class, loop, k) < std::tie(o.block_class, o.loop, o.k);
    }
  };
  std::map<Key, std::map<StmtId, StatementCounts>> counts;
  // (class, loop, k, warp, statement) -> outcome in the representative; (class, warp, statement).
  std::map<std::tuple<std::size_t, StmtId, std::uint64_t, std::uint32_t, StmtId>, WarpOutcome> outcomes;
  std::map<std::tuple<std::size_t, std::uint32_t, StmtId>, WarpOutcome> whole;

  void evaluation(const Dim3& block, std::uint32_t warp, StmtId statement, std::uint64_t active,
                  std::uint64_t taken) override {
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t c = 0;
    while (c < classes_.size() && !contains(classes_[c], block)) ++c;
    EXPECT_LT(c, classes_.size()) << "block " << to_string(block) << " in no class";
    const bool representative = c < classes_.size() && classes_[c].representative == block;
    auto& state = state_[{block.x, block.y, block.z, warp}];
    const Stmt& s = k_.stmts[static_cast<std::size_t>(statement)];
    if (loops_.count(statement)) {
      auto& [running, k] = state[statement];
      k = running ? k + 1 : 0;
      running = true;
    }
    if (representative && is_condition(s))
      whole[{c, warp, statement}] = together(whole[{c, warp, statement}], outcome(active, taken));
    for (const StmtId loop : loops_) {
      if (!inside_[loop].count(statement)) continue;
      const std::uint64_t k = state[loop].second;
      StatementCounts& n = counts[{c, loop, k}][statement];
      n.warp_evaluations += 1;
      n.active_lanes += std::bitset<64>(active).count();
      if (is_condition(s)) {
        n.taken_lanes += std::bitset<64>(taken).count();
        n.divergent += taken != 0 && taken != active ? 1 : 0;
        if (representative) {
          WarpOutcome& o = outcomes[{c, loop, k, warp, statement}];
          o = together(o, outcome(active, taken));
        }
      }
    }
    if (loops_.count(statement) && taken == 0) state[statement].first = false;
  }

 private:
  static bool contains(const BlockClass& c, const Dim3& b) {
    const std::uint32_t at[3] = {b.x, b.y, b.z};
    for (int d = 0; d < 3; ++d)
      if (at[d] < c.intervals[d].first || at[d] > c.intervals[d].last) return false;
    return true;
  }
  const Kernel& k_;
  std::set<StmtId> loops_;
  const std::vector<BlockClass>& classes_;
  std::map<StmtId, std::set<StmtId>> inside_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>,
           std::map<StmtId, std::pair<bool, std::uint64_t>>>
      state_;
  std::mutex mutex_;
};

// Checks a class-engine result against the oracle (a plain replay observed), ReplayOptions::
// by_iteration on each representative, and the block classes' own counts.
void check_iteration_classes(const Kernel& k, const Launch& l, const ClassPlan& plan,
                             const ClassReplayResult& got) {
  IterationOracle oracle(k, plan.accelerated_loops, got.classes);
  ReplayOptions o;
  o.threads = 1;
  o.observer = &oracle;
  replay(k, l, o);
  const auto inside = statements_inside(k);
  const std::vector<StmtId> innermost = innermost_loops(k);
  const std::size_t stmts = k.stmts.size();
  for (std::size_t ci = 0; ci < got.classes.size(); ++ci) {
    const BlockClass& bc = got.classes[ci];
    SCOPED_TRACE("block class " + bc.definition);
    ReplayOptions by;
    by.threads = 1;
    by.by_iteration = true;
    by.only_block = bc.representative;
    const ReplayResult one = replay(k, l, by);
    for (const StmtId loop : plan.accelerated_loops) {
      SCOPED_TRACE("loop at line " + std::to_string(k.stmts[loop].range.line));
      std::vector<const IterationClass*> mine;
      for (const IterationClass& ic : bc.iteration_classes)
        if (ic.loop == loop) mine.push_back(&ic);
      std::uint64_t oracle_last = 0;
      bool reached = false;
      for (const auto& [key, value] : oracle.counts)
        if (key.block_class == ci && key.loop == loop) {
          reached = true;
          oracle_last = std::max(oracle_last, key.k);
        }
      ASSERT_EQ(reached, !mine.empty());
      if (!reached) continue;
      // A partition of iterations 0 .. the last check, in order; the last class is the exit.
      EXPECT_EQ(mine.front()->first, 0u);
      for (std::size_t i = 1; i < mine.size(); ++i) EXPECT_EQ(mine[i]->first, mine[i - 1]->last + 1);
      EXPECT_EQ(mine.back()->last, oracle_last);
      EXPECT_LE(mine.size(), kMaxIterationClasses);
      std::vector<StatementCounts> sum(stmts);
      for (const IterationClass* ic : mine) {
        SCOPED_TRACE(ic->definition);
        ASSERT_EQ(ic->statements.size(), stmts);
        for (std::size_t s = 0; s < stmts; ++s) {
          const auto id = static_cast<StmtId>(s);
          StatementCounts want;
          if (inside.at(loop).count(id))
            for (std::uint64_t it = ic->first; it <= ic->last; ++it) {
              const auto found = oracle.counts.find({ci, loop, it});
              if (found == oracle.counts.end()) continue;
              const auto n = found->second.find(id);
              if (n != found->second.end()) want += n->second;
            }
          const StatementCounts& have = ic->statements[s];
          const bool switch_ = k.stmts[s].kind == StmtKind::Switch;  // divergence is not taken != active
          EXPECT_EQ(str(have.warp_evaluations), str(want.warp_evaluations)) << "statement " << s;
          EXPECT_EQ(str(have.active_lanes), str(want.active_lanes)) << "statement " << s;
          EXPECT_EQ(str(have.taken_lanes), str(want.taken_lanes)) << "statement " << s;
          if (!switch_) {
            EXPECT_EQ(str(have.divergent), str(want.divergent)) << "statement " << s;
          }
          sum[s] += have;
          // ReplayOptions::by_iteration for the statements whose innermost loop this is.
          if (innermost[s] == loop && s < one.iterations.size()) {
            StatementCounts each;
            for (std::uint64_t it = ic->first; it <= ic->last && it < one.iterations[s].size(); ++it)
              each += one.iterations[s][it];
            EXPECT_EQ(str(have.warp_evaluations), str(checked_mul(each.warp_evaluations, bc.blocks)));
            EXPECT_EQ(str(have.divergent), str(checked_mul(each.divergent, bc.blocks)));
            EXPECT_EQ(str(have.active_lanes), str(checked_mul(each.active_lanes, bc.blocks)));
            EXPECT_EQ(str(have.taken_lanes), str(checked_mul(each.taken_lanes, bc.blocks)));
          }
        }
        // Outcomes: every iteration of the class alike, as the oracle saw the representative.
        if (ic->merged || ic->outcomes.empty()) continue;
        ASSERT_EQ(ic->outcomes.size(), std::size_t{bc.warps} * stmts);
        for (std::uint32_t w = 0; w < bc.warps; ++w)
          for (std::size_t s = 0; s < stmts; ++s) {
            if (!is_condition(k.stmts[s]) || !inside.at(loop).count(static_cast<StmtId>(s))) {
              EXPECT_EQ(ic->outcomes[w * stmts + s], WarpOutcome::NotReached);
              continue;
            }
            for (std::uint64_t it = ic->first; it <= ic->last; ++it) {
              const auto found = oracle.outcomes.find({ci, loop, it, w, static_cast<StmtId>(s)});
              const WarpOutcome want =
                  found == oracle.outcomes.end() ? WarpOutcome::NotReached : found->second;
              EXPECT_EQ(static_cast<int>(ic->outcomes[w * stmts + s]), static_cast<int>(want))
                  << "warp " << w << " statement " << s << " iteration " << it;
            }
          }
      }
      // The classes' sums are the block class's counts of the statements inside the loop.
      for (const StmtId s : inside.at(loop)) {
        EXPECT_EQ(str(sum[s].warp_evaluations), str(bc.statements[s].warp_evaluations));
        EXPECT_EQ(str(sum[s].divergent), str(bc.statements[s].divergent));
        EXPECT_EQ(str(sum[s].active_lanes), str(bc.statements[s].active_lanes));
        EXPECT_EQ(str(sum[s].taken_lanes), str(bc.statements[s].taken_lanes));
      }
    }
    // Outcomes over the whole run, per warp of the representative.
    ASSERT_EQ(bc.outcomes.size(), std::size_t{bc.warps} * stmts);
    for (std::uint32_t w = 0; w < bc.warps; ++w)
      for (std::size_t s = 0; s < stmts; ++s) {
        const auto found = oracle.whole.find({ci, w, static_cast<StmtId>(s)});
        const WarpOutcome want = found == oracle.whole.end() ? WarpOutcome::NotReached : found->second;
        if (k.stmts[s].kind != StmtKind::Switch) {
          EXPECT_EQ(static_cast<int>(bc.outcomes[w * stmts + s]), static_cast<int>(want))
              << "warp " << w << " statement " << s;
        }
      }
  }
}

TEST(ZooIterationClasses, AgreeWithAnObservedReplayOnRandomLaunches) {
  constexpr int kLaunches = 1000;
  std::mt19937_64 rng(20261122);
  std::vector<Kernel> kernels;
  for (const std::string& f : zoo::files()) kernels.push_back(load(f));
  ASSERT_GE(kernels.size(), 10u);
  int compared = 0;
  for (int i = 0; i < kLaunches; ++i) {
    const Kernel& k = kernels[static_cast<std::size_t>(i) % kernels.size()];
    std::string what;
    const Launch l = zoo::random_launch(k, rng, 5, 3, 40, what);
    SCOPED_TRACE(what);
    const ClassPlan plan = plan_classes(k, l);
    ASSERT_TRUE(plan.ok()) << plan.refusal->message();
    ReplayOptions o;
    o.threads = 1;
    o.by_iteration = i % 5 == 0;  // every iteration run one by one: the same classes result
    ClassReplayResult got;
    try {
      got = class_replay(k, l, plan, o);
    } catch (const InvalidInput&) {
      continue;  // undefined behaviour in the launch (zoo_classes_test checks both refuse it)
    }
    check_iteration_classes(k, l, plan, got);
    ++compared;
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GT(compared, kLaunches * 8 / 10);
}

const BlockClass& class_of(const ClassReplayResult& r, const Dim3& block) {
  for (const BlockClass& c : r.classes)
    if (c.intervals[0].first <= block.x && block.x <= c.intervals[0].last &&
        c.intervals[1].first <= block.y && block.y <= c.intervals[1].last &&
        c.intervals[2].first <= block.z && block.z <= c.intervals[2].last)
      return c;
  throw std::logic_error("no class holds block " + to_string(block));
}

std::vector<const IterationClass*> classes_of(const BlockClass& c, StmtId loop) {
  std::vector<const IterationClass*> out;
  for (const IterationClass& ic : c.iteration_classes)
    if (ic.loop == loop) out.push_back(&ic);
  return out;
}

Kernel kernel_from(const std::string& name, const std::string& text) {
  const std::string file = ::testing::TempDir() + "/" + name;
  { std::ofstream(file) << text; }
  frontend::FrontendOptions o;
  o.file = file;
  return frontend::load_kernel(o);
}

Launch tiled_launch(const Kernel& k, std::int64_t size, std::uint32_t tile) {
  Launch l;
  l.block = Dim3{tile, tile, 1};
  const auto blocks = static_cast<std::uint32_t>((size - 1) / tile + 1);
  l.grid = Dim3{blocks, blocks, 1};
  for (const Parameter& p : k.parameters) l.arguments.push_back(p.scalar ? Value::of(p.type, size) : Value{});
  return l;
}

// The lecture's tiled multiply (kernels/zoo/tiled_matmul_rect.cu) at J = K = L = 100, T = 16: grid
// 7 x 7 of 16 x 16 blocks, 8 warps each (warp w holds rows ty = 2w, 2w + 1, tx = 0 .. 15). The
// phase loop `for (int p = 0; p < (K-1)/T+1; ++p)` (line 30) runs p = 0 .. 6 and checks p = 7 to
// leave. Line 32 `if (Row < J && p*T+tx < K)`: p*16 + 15 < 100 for p <= 5; at p = 6, 96 + tx < 100
// only for tx < 4, so every warp whose rows are inside M splits. Line 37 `if (p*T+ty < K && Col <
// L)`: at p = 6 true for ty < 4 (warps 0 and 1), false for warps 2 .. 7, never split by ty;
// Col < L splits every warp of the right block column (Col = 96 + tx). Line 44 `if (Row < J &&
// Col < L)`: splits right-column warps; bottom-row blocks (Row = 96 + ty) have warps 0, 1 inside.
//   interior (36 blocks, 288 warps): line 32 0 of 6 x 288 = 1728 in p < 6, 288 of 288 in p = 6;
//     line 37 and 44: 0 divergent; the loop's last check p = 7: 288 evaluations, no lane stays.
//   right edge (6 blocks, 48 warps): line 32 0/288, 48/48; line 37 288/288 (Col), 12/48 (warps 0,
//     1 split by Col, warps 2 .. 7 false); line 44 288/288, 48/48.
//   bottom edge (6 blocks): line 32 0/288 and 12/48 (warps 0, 1); 37 and 44 never split.
//   corner (1 block): line 32 0/48, 2/8; line 37 48/48, 2/8; line 44 12/48, 2/8.
// The inner loop `for (int i = 0; i < T; ++i)` (line 45) in an interior block: i = 0 .. 15, then
// i = 16 leaves: 7 phases x 16 x 288 = 32256 evaluations in `i < 16`... as "i in [0, 15] (all)".
TEST(ZooIterationClasses, LectureTiledKernelPhasesByHand) {
  const Kernel k = load("tiled_matmul_rect.cu");
  const Launch l = tiled_launch(k, 100, 16);
  const ClassReplayResult r = class_replay(k, l);
  const StmtId phase = testing::statement_at(k, 30, StmtKind::Loop),
               inner = testing::statement_at(k, 45, StmtKind::Loop);
  const StmtId load_m = testing::statement_at(k, 32, StmtKind::If),
               load_n = testing::statement_at(k, 37, StmtKind::If),
               compute = testing::statement_at(k, 44, StmtKind::If);
  EXPECT_EQ(loop_variable(k, phase), "p");
  struct Expect {
    Dim3 block;
    const char* definition;
    int blocks;
    // divergent / evaluations of lines 32, 37, 44 in p < 6 and in p = 6.
    std::array<std::array<int, 4>, 3> figures;
  };
  const Expect expected[] = {
      {{0, 0, 0},
       "blockIdx.x < 6, blockIdx.y < 6",
       36,
       {{{0, 1728, 288, 288}, {0, 1728, 0, 288}, {0, 1728, 0, 288}}}},
      {{6, 0, 0},
       "blockIdx.x = 6 (last), blockIdx.y < 6",
       6,
       {{{0, 288, 48, 48}, {288, 288, 12, 48}, {288, 288, 48, 48}}}},
      {{0, 6, 0},
       "blockIdx.x < 6, blockIdx.y = 6 (last)",
       6,
       {{{0, 288, 12, 48}, {0, 288, 0, 48}, {0, 288, 0, 48}}}},
      {{6, 6, 0},
       "blockIdx.x = 6 (last), blockIdx.y = 6 (last)",
       1,
       {{{0, 48, 2, 8}, {48, 48, 2, 8}, {12, 48, 2, 8}}}},
  };
  for (const Expect& e : expected) {
    const BlockClass& c = class_of(r, e.block);
    SCOPED_TRACE(c.definition);
    EXPECT_EQ(c.definition, e.definition);
    EXPECT_EQ(str(c.blocks), std::to_string(e.blocks));
    const auto phases = classes_of(c, phase);
    ASSERT_EQ(phases.size(), 3u);
    EXPECT_EQ(phases[0]->definition, "p < 6");
    EXPECT_EQ(phases[0]->size(), 6u);
    EXPECT_EQ(phases[1]->definition, "p = 6 (last)");
    EXPECT_EQ(phases[1]->size(), 1u);
    EXPECT_EQ(phases[2]->definition, "p = 7 (exit)");
    EXPECT_TRUE(phases[2]->exit);
    const StmtId ifs[3] = {load_m, load_n, compute};
    for (int i = 0; i < 3; ++i) {
      SCOPED_TRACE("line " + std::to_string(k.stmts[ifs[i]].range.line));
      EXPECT_EQ(str(phases[0]->statements[ifs[i]].divergent), std::to_string(e.figures[i][0]));
      EXPECT_EQ(str(phases[0]->statements[ifs[i]].warp_evaluations), std::to_string(e.figures[i][1]));
      EXPECT_EQ(str(phases[1]->statements[ifs[i]].divergent), std::to_string(e.figures[i][2]));
      EXPECT_EQ(str(phases[1]->statements[ifs[i]].warp_evaluations), std::to_string(e.figures[i][3]));
      EXPECT_EQ(str(phases[2]->statements[ifs[i]].warp_evaluations), "0");
    }
    // The last check: one evaluation per warp, no lane stays.
    EXPECT_EQ(str(phases[2]->statements[phase].warp_evaluations), std::to_string(e.blocks * 8));
    EXPECT_EQ(str(phases[2]->statements[phase].taken_lanes), "0");
  }
  // Outcomes in the interior's representative: line 32 all-true in p < 6 and split in p = 6 in
  // every warp; line 37 in p = 6 true in warps 0, 1 and false in warps 2 .. 7.
  const BlockClass& interior = class_of(r, {0, 0, 0});
  const auto phases = classes_of(interior, phase);
  const std::size_t n = k.stmts.size();
  ASSERT_EQ(interior.warps, 8u);
  for (std::uint32_t w = 0; w < 8; ++w) {
    EXPECT_EQ(phases[0]->outcomes[w * n + load_m], WarpOutcome::AllTrue);
    EXPECT_EQ(phases[1]->outcomes[w * n + load_m], WarpOutcome::Divergent);
    EXPECT_EQ(phases[1]->outcomes[w * n + load_n], w < 2 ? WarpOutcome::AllTrue : WarpOutcome::AllFalse);
    EXPECT_EQ(phases[2]->outcomes[w * n + phase], WarpOutcome::AllFalse);
    // The inner loop inside one phase: 16 times true, then false.
    EXPECT_EQ(phases[0]->outcomes[w * n + inner], WarpOutcome::Mixed);
    // Outside loops, once per warp: the store's guard (line 49) holds in the interior.
    EXPECT_EQ(interior.outcomes[w * n + testing::statement_at(k, 49, StmtKind::If)], WarpOutcome::AllTrue);
  }
  const auto inner_classes = classes_of(interior, inner);
  ASSERT_EQ(inner_classes.size(), 2u);
  EXPECT_EQ(inner_classes[0]->definition, "i in [0, 15] (all)");
  EXPECT_EQ(str(inner_classes[0]->statements[inner].warp_evaluations), "32256");  // 7 x 16 x 288
  EXPECT_EQ(inner_classes[1]->definition, "i = 16 (exit)");
  EXPECT_EQ(str(inner_classes[1]->statements[inner].warp_evaluations), "2016");  // 7 x 288
}

// The same kernel at 2^31 - 1 (GridLimits::Model: 134217728 blocks a side at T = 16): the phase
// loop runs p = 0 .. 134217727 (2^31 - 2 = 16 x 134217727 + 14, so the last phase holds 15 of its
// 16 columns: tx = 15 is out), found without replaying the phases one by one.
TEST(ZooIterationClasses, LectureTiledKernelAtTheLargestSize) {
  const Kernel k = load("tiled_matmul_rect.cu");
  const Launch l = tiled_launch(k, 2147483647, 16);
  const ClassReplayResult r = class_replay(k, l, {}, GridLimits::Model);
  const StmtId phase = testing::statement_at(k, 30, StmtKind::Loop),
               load_m = testing::statement_at(k, 32, StmtKind::If);
  const BlockClass& interior = class_of(r, {0, 0, 0});
  const auto phases = classes_of(interior, phase);
  ASSERT_EQ(phases.size(), 3u);
  EXPECT_EQ(phases[0]->definition, "p < 134217727");
  EXPECT_EQ(phases[1]->definition, "p = 134217727 (last)");
  EXPECT_EQ(phases[2]->definition, "p = 134217728 (exit)");
  // Interior: (134217728 - 1)^2 blocks of 8 warps; in the last phase every warp splits on line 32.
  const Count interior_warps = Count{134217727} * 134217727 * 8;
  EXPECT_EQ(str(phases[1]->statements[load_m].divergent), str(interior_warps));
  EXPECT_EQ(str(phases[0]->statements[load_m].divergent), "0");
  EXPECT_EQ(str(phases[0]->statements[load_m].warp_evaluations), str(interior_warps * 134217727));
}

// The lecture's image blur (kernels/zoo/image_blur.cu) on its 40 x 20 image, 16 x 16 blocks, grid
// (3, 2). The window loops `for (blurRow = -1; blurRow < 2; ++blurRow)` (line 20) and `for
// (blurCol = -1; ...)` (line 21) carry only `pixels++`, a counter nothing else reads but the
// division stored to memory: they run as classes. The pixel check `if (curRow > -1 && curRow < h
// && curCol > -1 && curCol < w)` (line 26):
//   Block (1, 0): Col = 16 .. 31, so curCol = 15 .. 32 is always inside; Row = 0 .. 15, so in
//     window row blurRow = -1 the lanes of row 0 (warp 0) read row -1: warp 0's three checks split,
//     warps 1 .. 7 do not: 3 divergent of 8 x 3 = 24; blurRow = 0 and 1: 0 of 48.
//   Block (1, 1): Row = 16 .. 31, only rows < 20 (warps 0 and 1) enter; at blurRow = 1 row 19
//     (warp 1, ty = 3) reads row 20: 3 divergent of 2 x 3 = 6; blurRow = -1, 0: 0 of 12.
//   Block (0, 0) (Col = 0 .. 15): blurCol = -1 reads column -1 for tx = 0 in every warp and window
//     row: 8 x 3 = 24 divergent of 24; blurCol = 0, 1: only warp 0 in window row -1: 1 of 24 each.
Launch blur_launch(const Kernel& k) {
  Launch l;
  l.block = Dim3{16, 16, 1};
  l.grid = Dim3{3, 2, 1};
  for (const Parameter& p : k.parameters)
    l.arguments.push_back(p.scalar ? Value::of(p.type, p.name == "w" ? 40 : 20) : Value{});
  return l;
}

TEST(ZooIterationClasses, LectureBlurWindowByHand) {
  const Kernel k = load("image_blur.cu");
  const Launch l = blur_launch(k);
  const ClassPlan plan = plan_classes(k, l);
  const ClassReplayResult r = class_replay(k, l, plan);
  check_iteration_classes(k, l, plan, r);
  const StmtId rows = testing::statement_at(k, 20, StmtKind::Loop),
               cols = testing::statement_at(k, 21, StmtKind::Loop);
  const StmtId check = testing::statement_at(k, 26, StmtKind::If);
  EXPECT_EQ(loop_variable(k, rows), "blurRow");

  const auto top = classes_of(class_of(r, {1, 0, 0}), rows);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[0]->definition, "blurRow = -1 (first)");
  EXPECT_EQ(str(top[0]->statements[check].divergent), "3");
  EXPECT_EQ(str(top[0]->statements[check].warp_evaluations), "24");
  EXPECT_EQ(top[1]->definition, "blurRow >= 0");
  EXPECT_EQ(top[1]->size(), 2u);
  EXPECT_EQ(str(top[1]->statements[check].divergent), "0");
  EXPECT_EQ(str(top[1]->statements[check].warp_evaluations), "48");
  EXPECT_EQ(top[2]->definition, "blurRow = 2 (exit)");
  const std::size_t n = k.stmts.size();
  EXPECT_EQ(top[0]->outcomes[0 * n + check], WarpOutcome::Divergent);
  EXPECT_EQ(top[0]->outcomes[1 * n + check], WarpOutcome::AllTrue);

  const auto bottom = classes_of(class_of(r, {1, 1, 0}), rows);
  ASSERT_EQ(bottom.size(), 3u);
  EXPECT_EQ(bottom[0]->definition, "blurRow < 1");
  EXPECT_EQ(str(bottom[0]->statements[check].divergent), "0");
  EXPECT_EQ(str(bottom[0]->statements[check].warp_evaluations), "12");
  EXPECT_EQ(bottom[1]->definition, "blurRow = 1 (last)");
  EXPECT_EQ(str(bottom[1]->statements[check].divergent), "3");
  EXPECT_EQ(str(bottom[1]->statements[check].warp_evaluations), "6");

  const auto left = classes_of(class_of(r, {0, 0, 0}), cols);
  ASSERT_EQ(left.size(), 3u);
  EXPECT_EQ(left[0]->definition, "blurCol = -1 (first)");
  EXPECT_EQ(str(left[0]->statements[check].divergent), "24");
  EXPECT_EQ(left[1]->definition, "blurCol >= 0");
  EXPECT_EQ(str(left[1]->statements[check].divergent), "2");
  EXPECT_EQ(str(left[1]->statements[check].warp_evaluations), "48");
  EXPECT_EQ(left[2]->definition, "blurCol = 2 (exit)");
}

// A loop whose every iteration differs: in a block of 1024 threads, `(int)threadIdx.x < i` splits warp
// i / 32 (lanes below i % 32) when i % 32 != 0, so iterations 0 .. 1023 do not fall into fewer
// than about 1024 classes: 63 are kept and the 64th holds the rest, merged (exact counts, no
// outcomes). The counts still agree with the observed replay and with by_iteration.
TEST(ZooIterationClasses, PastSixtyFourClassesTheRestAreMerged) {
  const Kernel k = kernel_from("staircase.cu",
                               "__global__ void staircase(int* out, int n) {\n"
                               "  for (int i = 0; i < n; ++i) {\n"
                               "    if ((int)threadIdx.x < i) out[threadIdx.x] = i;\n"
                               "  }\n"
                               "}\n");
  Launch l;
  l.block = Dim3{1024, 1, 1};
  l.grid = Dim3{2, 1, 1};
  for (const Parameter& p : k.parameters) l.arguments.push_back(p.scalar ? Value::of(p.type, 1024) : Value{});
  const ClassPlan plan = plan_classes(k, l);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan.accelerated_loops.size(), 1u);
  const ClassReplayResult r = class_replay(k, l, plan);
  ASSERT_EQ(r.classes.size(), 1u);
  const auto& classes = r.classes[0].iteration_classes;
  ASSERT_EQ(classes.size(), kMaxIterationClasses);
  EXPECT_TRUE(classes.back().merged);
  EXPECT_TRUE(classes.back().outcomes.empty());
  EXPECT_EQ(classes.back().last, 1024u);  // the exit check, i = 1024, is in the merged class
  EXPECT_FALSE(classes.front().merged);
  check_iteration_classes(k, l, plan, r);
}

// The grid-stride loop (kernels/zoo/grid_stride_loop.cu) at n = 1000, 4 blocks of 128: its
// variable starts at the thread's global index, not one value per warp, so its classes are named
// by iteration numbers. Thread g runs i = g and g + 512 when g + 512 < 1000, i.e. g < 488: blocks
// 0 .. 2 (g < 384, 12 warps) run two iterations everywhere; in block 3 (g = 384 .. 511) the warp
// of g = 480 .. 511 splits in the second iteration (480 .. 487 stay): 1 divergent of 4.
TEST(ZooIterationClasses, GridStrideLoopByIterationNumbers) {
  const Kernel k = load("grid_stride_loop.cu");
  Launch l;
  l.block = Dim3{128, 1, 1};
  l.grid = Dim3{4, 1, 1};
  for (const Parameter& p : k.parameters)
    l.arguments.push_back(p.scalar ? Value::of(p.type, p.name == "n" ? 1000 : 2) : Value{});
  const ClassPlan plan = plan_classes(k, l);
  const ClassReplayResult r = class_replay(k, l, plan);
  check_iteration_classes(k, l, plan, r);
  const StmtId loop = testing::statement_at(k, 12, StmtKind::Loop);
  const auto first = classes_of(class_of(r, {0, 0, 0}), loop);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0]->definition, "iterations 1 to 2 (all)");
  EXPECT_EQ(str(first[0]->statements[loop].warp_evaluations), "24");
  EXPECT_EQ(str(first[0]->statements[loop].divergent), "0");
  EXPECT_EQ(first[1]->definition, "iteration 3 (exit)");
  const auto last = classes_of(class_of(r, {3, 0, 0}), loop);
  ASSERT_EQ(last.size(), 3u);
  EXPECT_EQ(last[0]->definition, "iteration 1 (first)");
  EXPECT_EQ(last[1]->definition, "iteration 2 (last)");
  EXPECT_EQ(str(last[1]->statements[loop].divergent), "1");
  EXPECT_EQ(str(last[1]->statements[loop].warp_evaluations), "4");
}

// A counter that a loop only steps (`c = c + 1`) is carried across the iterations a class does
// not run: 2147483600 + n stays an int for n <= 47, and the 48th step overflows (undefined
// behaviour, which the replay reports): n = 47 agrees with the replay, n = 48 is refused by both.
// A step that depends on the loop's variable (`c = c + i`) keeps the loop out of classes.
TEST(ZooIterationClasses, CountersCarriedAcrossAClassAndTheirOverflow) {
  const Kernel k = kernel_from("counter.cu",
                               "__global__ void counter(int* out, int n) {\n"
                               "  int c = 2147483600;\n"
                               "  for (int i = 0; i < n; ++i) {\n"
                               "    c = c + 1;\n"
                               "  }\n"
                               "  out[threadIdx.x] = c;\n"
                               "}\n");
  Launch l;
  l.block = Dim3{64, 1, 1};
  l.grid = Dim3{3, 1, 1};
  for (const std::int64_t n : {47, 48}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    l.arguments.clear();
    for (const Parameter& p : k.parameters) l.arguments.push_back(p.scalar ? Value::of(p.type, n) : Value{});
    const ClassPlan plan = plan_classes(k, l);
    ASSERT_EQ(plan.accelerated_loops.size(), 1u);
    if (n == 48) {
      EXPECT_THROW(replay(k, l), InvalidInput);
      EXPECT_THROW(class_replay(k, l, plan), InvalidInput);
      continue;
    }
    const ClassReplayResult r = class_replay(k, l, plan);
    const auto classes = classes_of(r.classes[0], plan.accelerated_loops[0]);
    ASSERT_EQ(classes.size(), 2u);
    EXPECT_EQ(classes[0]->definition, "i in [0, 46] (all)");
    check_iteration_classes(k, l, plan, r);
  }
  const Kernel steps_by_i = kernel_from("counter_by_i.cu",
                                        "__global__ void counter(int* out, int n) {\n"
                                        "  int c = 0;\n"
                                        "  for (int i = 0; i < n; ++i) {\n"
                                        "    c = c + i;\n"
                                        "  }\n"
                                        "  out[threadIdx.x] = c;\n"
                                        "}\n");
  l.arguments.clear();
  for (const Parameter& p : steps_by_i.parameters)
    l.arguments.push_back(p.scalar ? Value::of(p.type, 10) : Value{});
  EXPECT_TRUE(plan_classes(steps_by_i, l).accelerated_loops.empty());
}

}  // namespace
}  // namespace warpdiv::sim::ir
