// The control walk (sim/engine/control_walk.hpp) through a backend of the test's own: its
// conditions and switch cases give scripted lane masks, its leaves write a trace. Each trace is
// worked out by hand from the rules (the comments), independently of the interpreter and of
// native code, which walk the same rules with their own leaves.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "sim/engine/control_walk.hpp"

namespace warpdiv::sim::ir::detail {
namespace {

class Script : public LaneMaskWalk<Script> {
 public:
  explicit Script(const LaunchPlan& plan) : LaneMaskWalk(plan) {}
  std::map<ExprId, std::deque<LaneMask>> conditions;  // each evaluation's lanes, in turn
  std::map<std::uint64_t, LaneMask> cases;            // [case value]: the lanes that match it
  std::map<StmtId, std::string> names;
  std::vector<std::string> trace;
  LaneMask run(StmtId id, LaneMask active) { return exec(id, active); }

 private:
  friend ControlWalk<Script, LaneMask, LaneMask>;
  template <class F>
  void repeat(StmtId, std::size_t, LaneMask& in, LaneMask&, F&& iteration) {
    while (in != 0) in = iteration(in);
  }
  void add(const std::string& what, StmtId id, std::initializer_list<LaneMask> masks) {
    std::ostringstream line;
    line << what << ' ' << names.at(id) << std::hex;
    for (LaneMask m : masks) line << ' ' << m;
    trace.push_back(line.str());
  }
  void count(StmtId id, LaneMask m) { add("count", id, {m}); }
  void memory(StmtId id, LaneMask m) { add("memory", id, {m}); }
  LaneMask condition(ExprId e, LaneMask m) {
    const LaneMask lanes = conditions.at(e).front();
    conditions.at(e).pop_front();
    return lanes & m;
  }
  void count_branch(StmtId id, LaneMask m, LaneMask taken, bool divergent) {
    add("branch", id, {m, taken, LaneMask{divergent}});
  }
  void count_loop_head(StmtId id, LaneMask m, LaneMask stay, bool divergent) {
    add("head", id, {m, stay, LaneMask{divergent}});
  }
  void assign(LocalId local, ExprId, LaneMask m) {
    std::ostringstream line;
    line << "assign " << local << ' ' << std::hex << m;
    trace.push_back(line.str());
  }
  void undefine(LocalId, LaneMask) {}
  void check(ExprId e, LaneMask m) {
    std::ostringstream line;
    line << "check " << e << ' ' << std::hex << m;
    trace.push_back(line.str());
  }
  void exit_kernel(LaneMask m) { trace.push_back("exit " + std::to_string(m)); }
  void arrive(StmtId id, LaneMask m) { add("arrive", id, {m}); }
  int switch_value(ExprId, LaneMask) { return 0; }
  LaneMask case_lanes(int, ExprId, std::uint64_t c, LaneMask m) { return cases.at(c) & m; }
};

struct Built {
  std::shared_ptr<Kernel> k = std::make_shared<Kernel>();
  std::map<StmtId, std::string> names;
  StmtId named(const std::string& name, StmtId id) {
    names[id] = name;
    return id;
  }
  std::map<ExprId, std::deque<LaneMask>> conditions;
  std::map<std::uint64_t, LaneMask> cases;
  ExprId condition() { return k->constant(ScalarType::Bool, 1); }
  // Walks `start` of the kernel whose body is `root` for `active`: the trace; `out` the lanes that
  // go on after it.
  std::vector<std::string> walk(StmtId root, StmtId start, LaneMask active, LaneMask& out) {
    k->name = "k";
    k->files.push_back(SourceFile{"k.cu", {}});
    k->root = root;
    Launch l;
    l.grid = {1, 1, 1};
    l.block = {32, 1, 1};
    const LaunchPlan plan(k, l, PlanOptions{});
    Script s(plan);
    s.names = names;
    s.conditions = conditions;
    s.cases = cases;
    out = s.run(start, active);
    return s.trace;
  }
};

// for (; c; ++i) { if (b) break; if (k) continue; W; } over lanes 0..3 (f):
// head 1: all stay; lane 0 breaks, lane 1 continues, W on 2, 3 (c); the step on 1..3 (e), the
// continued lane back. Head 2: lanes 1, 2 stay (6), lane 3 leaves; none breaks, lane 2 continues,
// W on lane 1 (2); the step on 6. Head 3: none stays. Every lane left: the loop gives f.
TEST(ControlWalk, LoopBreakContinueAndStep) {
  Built b;
  const LocalId i = b.k->add_local("i", ScalarType::I32);
  const ExprId c = b.condition(), brk_if = b.condition(), cont_if = b.condition();
  const StmtId body =
      b.named("body", b.k->block({b.named("if_b", b.k->if_(brk_if, b.named("break", b.k->break_()))),
                                  b.named("if_k", b.k->if_(cont_if, b.named("continue", b.k->continue_()))),
                                  b.named("W", b.k->work("W"))}));
  const StmtId step = b.named("step", b.k->assign(i, b.k->constant(ScalarType::I32, 1)));
  const StmtId loop = b.named("loop", b.k->loop(LoopKind::For, kNone, c, step, body));
  b.conditions = {{c, {0xf, 0x6, 0x0}}, {brk_if, {0x1, 0x0}}, {cont_if, {0x2, 0x4}}};
  LaneMask out = 0;
  EXPECT_EQ(b.walk(b.k->block({loop}), loop, 0xf, out),
            (std::vector<std::string>{"head loop f f 0", "count body f", "branch if_b f 1 1", "count break 1",
                                      "branch if_k e 2 1", "count continue 2", "count W c", "count step e",
                                      "assign 0 e", "head loop e 6 1", "count body 6", "branch if_b 6 0 0",
                                      "branch if_k 6 4 1", "count continue 4", "count W 2", "count step 6",
                                      "assign 0 6", "head loop 6 0 0"}));
  EXPECT_EQ(out, 0xfu);
}

// Values evaluated only for their undefined behaviour, after the statement's count: of
// s = x + 100 / (i - 3) with x opaque (the sum not computed: no assignment), the division; of
// s = 7 / 1 (computed, assigned), nothing more; of s = c ? x : 9 / i with c opaque, nothing
// (either arm may not run).
TEST(ControlWalk, ValuesAStatementDoesNotComputeAreCheckedInTheirParts) {
  Built b;
  const LocalId i = b.k->add_local("i", ScalarType::I32), sl = b.k->add_local("s", ScalarType::I32);
  const ExprId x = b.k->opaque(ScalarType::I32, "x");
  const ExprId division =
      b.k->binary(BinaryOp::Div, b.k->constant(ScalarType::I32, 100),
                  b.k->binary(BinaryOp::Sub, b.k->local(i), b.k->constant(ScalarType::I32, 3)));
  const StmtId init = b.named("init", b.k->declare(i, b.k->constant(ScalarType::I32, 5)));
  const StmtId sum = b.named("sum", b.k->declare(sl, b.k->binary(BinaryOp::Add, x, division)));
  const StmtId known =
      b.named("known", b.k->assign(sl, b.k->binary(BinaryOp::Div, b.k->constant(ScalarType::I32, 7),
                                                   b.k->constant(ScalarType::I32, 1))));
  const ExprId c = b.k->cast(ScalarType::Bool, b.k->opaque(ScalarType::I32, "c"));
  const StmtId chosen = b.named(
      "chosen", b.k->assign(sl, b.k->select(c, b.k->opaque(ScalarType::I32, "y"),
                                            b.k->binary(BinaryOp::Div, b.k->constant(ScalarType::I32, 9),
                                                        b.k->local(i)))));
  const StmtId root = b.named("root", b.k->block({init, sum, known, chosen}));
  LaneMask out = 0;
  EXPECT_EQ(b.walk(root, root, 0x3, out),
            (std::vector<std::string>{"count root 3", "count init 3", "assign 0 3", "count sum 3",
                                      "check " + std::to_string(division) + " 3", "count known 3",
                                      "assign 1 3", "count chosen 3"}));
}

// switch: case 0 (lanes 0, 4) A; case 1 (1, 5) { B; break; }; case 2 (2, 6) C; default (3, 7) D.
// One count: 6 lanes of 8 matched (77), four entry points: divergent. A on 11; B on 11 falling
// through and 22 entering (33), then break; C on 44; D on 44 falling through and 88 (cc). All
// lanes go on: cc after the end and 33 by break.
TEST(ControlWalk, SwitchFallsThroughAndBreaks) {
  Built b;
  const StmtId a = b.named("A", b.k->work("A"));
  const StmtId case1 =
      b.named("case1", b.k->block({b.named("B", b.k->work("B")), b.named("break", b.k->break_())}));
  const StmtId c = b.named("C", b.k->work("C")), d = b.named("D", b.k->work("D"));
  const StmtId sw = b.named("switch", b.k->switch_(b.k->constant(ScalarType::I32, 0), {a, case1, c, d},
                                                   {{0, 0}, {1, 1}, {2, 2}}, 3));
  b.cases = {{0, 0x11}, {1, 0x22}, {2, 0x44}};
  LaneMask out = 0;
  EXPECT_EQ(b.walk(b.k->block({sw}), sw, 0xff, out),
            (std::vector<std::string>{"branch switch ff 77 1", "count A 11", "count case1 33", "count B 33",
                                      "count break 33", "count C 44", "count D cc"}));
  EXPECT_EQ(out, 0xffu);
}

// { call r = f() { if (c) return 1; X; return 2; U; }; if (e) return; Y; __syncthreads(); } over
// f: lanes 0, 1 return early, X and the second return on 2, 3 (c); no lane is left for U (the block
// stops); every lane rejoins after the call (its result written by each return). Then lane 0
// leaves the kernel: Y and the barrier on e.
TEST(ControlWalk, ReturnsFromACallAndFromTheKernel) {
  Built b;
  const LocalId r = b.k->add_local("r", ScalarType::I32);
  const ExprId c = b.condition(), e = b.condition();
  const StmtId callee = b.named(
      "callee",
      b.k->block(
          {b.named("if_c", b.k->if_(c, b.named("ret1", b.k->return_(b.k->constant(ScalarType::I32, 1))))),
           b.named("X", b.k->work("X")), b.named("ret2", b.k->return_(b.k->constant(ScalarType::I32, 2))),
           b.named("unreached", b.k->work("unreached"))}));
  const StmtId call = b.named("call", b.k->inlined_call("f", r, callee));
  const StmtId exit = b.named("if_e", b.k->if_(e, b.named("exit", b.k->return_())));
  const StmtId root = b.named(
      "root", b.k->block({call, exit, b.named("Y", b.k->work("Y")), b.named("sync", b.k->barrier())}));
  b.conditions = {{c, {0x3}}, {e, {0x1}}};
  LaneMask out = 0;
  EXPECT_EQ(
      b.walk(root, root, 0xf, out),
      (std::vector<std::string>{"count root f", "count call f", "count callee f", "branch if_c f 3 1",
                                "count ret1 3", "assign " + std::to_string(r) + " 3", "count X c",
                                "count ret2 c", "assign " + std::to_string(r) + " c", "branch if_e f 1 1",
                                "count exit 1", "exit 1", "count Y e", "count sync e", "arrive sync e"}));
  EXPECT_EQ(out, 0xeu);
}

}  // namespace
}  // namespace warpdiv::sim::ir::detail
