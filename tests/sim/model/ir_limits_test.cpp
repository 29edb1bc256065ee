// The model's limits: long else-if chains are followed, deep nesting is refused with
// one line naming where, a loop that never ends is named, and every run has a budget. Counts are
// worked out by hand in the comments.
#include <gtest/gtest.h>

#include <string>

#include "sim/support/errors.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/support/large_stack.hpp"

namespace warpdiv::sim::ir {
namespace {

constexpr ScalarType I = ScalarType::I32;

SourceRange line(std::uint32_t l) { return SourceRange{0, l, 3, l, 20}; }

Kernel named(Kernel k) {
  k.name = "limits";
  k.files.push_back(SourceFile{"limits.cu", {}});
  return k;
}

Launch one_block(std::uint32_t threads) {
  Launch l;
  l.block.x = threads;
  return l;
}

std::string refusal(const std::function<void()>& run) {
  try {
    run_with_large_stack(run);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(accepted)";
}

// if (t == 0) r = 1; else if (t == 1) r = 2; ... else if (t == n-1) r = n; else r = -1;
// Statement ids: the chain's ifs are returned first to last.
struct Chain {
  Kernel kernel;
  std::vector<StmtId> links;
  StmtId last_else = kNone;
};
Chain else_if_chain(int n) {
  Chain c;
  Kernel& k = c.kernel;
  const LocalId t = k.add_local("t", I);
  const LocalId r = k.add_local("r", I);
  const StmtId declare_t = k.declare(t, k.cast(I, k.builtin(Builtin::ThreadIdxX)));
  const StmtId declare_r = k.declare(r, k.constant(I, 0));
  c.last_else = k.assign(r, k.constant(I, -1), line(static_cast<std::uint32_t>(n) + 10));
  StmtId next = c.last_else;
  c.links.assign(static_cast<std::size_t>(n), kNone);
  for (int i = n - 1; i >= 0; --i) {
    const auto at = line(static_cast<std::uint32_t>(i) + 10);
    const ExprId test = k.binary(BinaryOp::Eq, k.local(t, at), k.constant(I, i, at), at);
    next = k.if_(test, k.assign(r, k.constant(I, i + 1, at), at), next, at);
    c.links[static_cast<std::size_t>(i)] = next;
  }
  k.root = k.block({declare_t, declare_r, next});
  c.kernel = named(std::move(k));
  return c;
}

// 64 threads in warps of 32 through a chain of 100,000 tests t == i. Warp 0 (t 0..31) reaches
// test i < 32 with lanes i..31 (32 - i of them); lane i takes it, so the test diverges while two
// or more lanes remain (i <= 30). Warp 1 (t 32..63) reaches every test i < 64 with lanes i..63
// (64 of them... 64 - i for i >= 32, all 32 before), none taking it before i = 32; it diverges at
// 32 <= i <= 62. No warp reaches test 64 or later, nor the final else.
void expect_chain_counts(const Chain& c, const ReplayResult& r) {
  Count evaluations = 0, divergent = 0, active = 0, taken = 0;
  for (std::size_t i = 0; i < c.links.size(); ++i) {
    const StatementCounts& s = r.statements[static_cast<std::size_t>(c.links[i])];
    evaluations += s.warp_evaluations;
    divergent += s.divergent;
    active += s.active_lanes;
    taken += s.taken_lanes;
    if (i == 31 || i == 32 || i == 63 || i == 64) {
      SCOPED_TRACE("test " + std::to_string(i));
      EXPECT_EQ(to_decimal(s.warp_evaluations), i < 32 ? "2" : i < 64 ? "1" : "0");
      EXPECT_EQ(to_decimal(s.divergent), i == 32 ? "1" : "0");
      EXPECT_EQ(to_decimal(s.active_lanes), i == 31 ? "33" : i == 32 ? "32" : i == 63 ? "1" : "0");
    }
  }
  EXPECT_EQ(to_decimal(evaluations), "96");  // 32 x 2 + 32 x 1
  EXPECT_EQ(to_decimal(divergent), "62");    // i 0..30 and 32..62
  // sum over i < 32 of (32 - i) + 32, plus sum over 32 <= i < 64 of (64 - i): 528 + 1024 + 528.
  EXPECT_EQ(to_decimal(active), "2080");
  EXPECT_EQ(to_decimal(taken), "64");  // each thread takes exactly one test
  EXPECT_EQ(to_decimal(r.statements[static_cast<std::size_t>(c.last_else)].warp_evaluations), "0");
}

TEST(ModelLimits, AnElseIfChainOf100000BranchesIsCountedByBothEngines) {
  const Chain c = else_if_chain(100000);
  run_with_large_stack([&] {
    validate(c.kernel);
    expect_chain_counts(c, replay(c.kernel, one_block(64)));
    expect_chain_counts(c, class_replay(c.kernel, one_block(64)));
  });
}

// `depth` ifs, each the then-statement of the one around it (no braces): nesting `depth` + 0
// (the root block only groups).
Kernel nested_ifs(int depth) {
  Kernel k;
  const LocalId t = k.add_local("t", I);
  const StmtId declare_t = k.declare(t, k.cast(I, k.builtin(Builtin::ThreadIdxX)));
  StmtId inner = k.work("r = 1", line(static_cast<std::uint32_t>(depth) + 2));
  for (int i = depth - 1; i >= 0; --i) {
    const auto at = line(static_cast<std::uint32_t>(i) + 2);
    inner = k.if_(k.binary(BinaryOp::Ge, k.local(t, at), k.constant(I, 0, at), at), inner, kNone, at);
  }
  k.root = k.block({declare_t, inner});
  return named(std::move(k));
}

TEST(ModelLimits, NestingPastTheLimitIsRefusedNamingWhere) {
  // 999 ifs and the statement inside them: 1000 levels, the most; one more if is refused at the
  // statement past the limit (line 1002: the work inside 1000 ifs).
  EXPECT_EQ(refusal([] { validate(nested_ifs(kMaxNesting - 1)); }), "(accepted)");
  EXPECT_EQ(refusal([] { validate(nested_ifs(kMaxNesting)); }),
            "nesting deeper than 1000 at limits.cu:1002:3 (statements within statements; "
            "warpdiv follows at most 1000 levels)");
  // 30,000 deep: the same one line, found without recursion (no large stack needed).
  EXPECT_NE(std::string([] {
              try {
                validate(nested_ifs(30000));
              } catch (const InvalidInput& e) {
                return std::string(e.what());
              }
              return std::string();
            }())
                .find("nesting deeper than 1000 at limits.cu:1002:3"),
            std::string::npos);
}

TEST(ModelLimits, ExpressionNestingPastTheLimitIsRefused) {
  // t + 1 + 1 + ... : a left-deep chain of additions, each one level deeper than its left operand.
  for (const int terms : {kMaxNesting - 2, kMaxNesting - 1}) {
    Kernel k;
    const LocalId t = k.add_local("t", I);
    ExprId sum = k.cast(I, k.builtin(Builtin::ThreadIdxX));  // depth 2: the cast over threadIdx
    for (int i = 0; i < terms; ++i) sum = k.binary(BinaryOp::Add, sum, k.constant(I, 1), line(7));
    k.root = k.block({k.declare(t, sum)});
    const Kernel kernel = named(std::move(k));
    // depth = 2 + terms: 1000 is accepted, 1001 refused.
    if (terms == kMaxNesting - 2)
      EXPECT_EQ(refusal([&] { validate(kernel); }), "(accepted)");
    else
      EXPECT_EQ(refusal([&] { validate(kernel); }),
                "nesting deeper than 1000 at limits.cu:7:3 (operands within an expression; "
                "warpdiv follows at most 1000 levels)");
  }
}

// for (int i = 0; i < n; i += s) {}: with s = 0 every warp's state repeats from the first
// iteration on.
// for (i = 0; i < n; i += s), or (`through_local`) with s copied to a local first, a step the
// probes do not count iterations of (they step over loops stepped by a constant or a parameter).
Kernel stepped_loop(bool through_local = false) {
  Kernel k;
  const std::int32_t s = k.add_parameter("s", I);
  const std::int32_t n = k.add_parameter("n", I);
  const LocalId i = k.add_local("i", I);
  const LocalId st = k.add_local("st", I);
  const StmtId init = k.declare(i, k.constant(I, 0));
  const ExprId by = through_local ? k.local(st) : k.param(s);
  const StmtId step = k.assign(i, k.binary(BinaryOp::Add, k.local(i), by));
  const ExprId test = k.binary(BinaryOp::Lt, k.local(i), k.param(n));
  std::vector<StmtId> body;
  if (through_local) body.push_back(k.declare(st, k.param(s)));
  body.push_back(k.loop(LoopKind::For, init, test, step, k.work("out[t] += i"), line(4)));
  k.root = k.block(body);
  return named(std::move(k));
}

TEST(ModelLimits, ALoopThatNeverEndsIsNamedByEveryEngine) {
  const Kernel k = stepped_loop();
  Launch l = one_block(64);
  l.arguments = {Value::of(I, 0), Value::of(I, 10)};
  const std::string named_loop =
      "limits.cu:4:3: the for loop never ends: warp 0 (lanes 0-31) is back in the state it had ";
  EXPECT_EQ(refusal([&] { replay(k, l); }).rfind(named_loop, 0), 0u) << refusal([&] { replay(k, l); });
  EXPECT_EQ(refusal([&] { class_replay(k, l); }).rfind(named_loop, 0), 0u);
  // With a step of 1 the same loop ends: 11 tests per warp, the last one all false.
  l.arguments = {Value::of(I, 1), Value::of(I, 10)};
  run_with_large_stack([&] {
    const ReplayResult r = replay(k, l);
    EXPECT_EQ(
        to_decimal(r.statements[static_cast<std::size_t>(k.stmts[k.root].children[0])].warp_evaluations),
        "22");
  });
}

TEST(ModelLimits, ALongLoopStopsAtTheBudgetNamingTheLoop) {
  // for (i = 0; i < n; i += 1) with n = 2^30: three evaluations an iteration (test, body, step)
  // and a state that never repeats; with a budget of 100,000 the replay stops inside the loop
  // (the budget is looked at every 16,384 iterations: after 49,152, about 147,000 evaluations).
  // The step goes through a local: the probes would refuse a step by the parameter itself at
  // once (3 x 2^30 + 3 evaluations at least, ir_prerun's tests).
  const Kernel k = stepped_loop(true);
  Launch l = one_block(32);
  l.arguments = {Value::of(I, 1), Value::of(I, 1 << 30)};
  ReplayOptions o;
  o.max_evaluations = 100000;
  const std::string why = refusal([&] { replay(k, l, o); });
  EXPECT_EQ(why,
            "the run passed 100000 warp-statement evaluations (its budget, --max-evaluations) "
            "and was stopped in the for loop at limits.cu:4:3 (block (0, 0, 0), warp 0); a "
            "loop that does not end, or a launch bigger than estimated");
}

}  // namespace
}  // namespace warpdiv::sim::ir
