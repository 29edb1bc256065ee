#include "sim/engine/ir_prerun.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "sim/classes/ir_class_detail.hpp"
#include "sim/model/ir_fold.hpp"
#include "sim/model/ir_ops.hpp"

namespace warpdiv::sim::ir {
namespace {

using detail::counter_step;
using detail::type_max;
using detail::type_min;
using detail::Wide;

constexpr std::uint64_t kMaxSteps = 4096;         // statements a probe runs, skipped iterations apart
constexpr std::uint64_t kConcreteIterations = 8;  // iterations run one by one before a skip
constexpr std::uint64_t kSkipFrom = 1024;         // trip counts from which the middle is skipped
constexpr std::uint64_t kFewWarps = 1 << 16;      // launches the probes leave to the replay

/// a x b and a + b, at most kMaxCount: nested loops' products may pass 2^128, and a lower bound
/// stays one.
Count times(Count a, Count b) { return b != 0 && a > kMaxCount / b ? kMaxCount : a * b; }
Count plus(Count a, Count b) { return a > kMaxCount - b ? kMaxCount : a + b; }

Wide math(ScalarType t, std::uint64_t bits) {
  return is_signed(t) ? Wide{static_cast<std::int64_t>(bits)} : Wide{normalise(t, bits)};
}
bool fits(ScalarType t, Wide v) { return v >= type_min(t) && v <= type_max(t); }

std::string dim3_text(std::uint64_t x, std::uint64_t y, std::uint64_t z) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
}

/// A loop whose iterations a thread's values count: `var` steps by `step` per iteration (exactly,
/// or at most that in magnitude when `at_least`) and every exit needs !(var `stay` bound).
struct CountedLoop {
  LocalId var = kNone;
  Wide step = 0;
  ExprId bound = kNone;          // loop-invariant
  BinaryOp stay = BinaryOp::Lt;  // var stay bound keeps the loop going
  bool at_least = false;         // breaks on the exit condition: the count is a lower bound only
  bool nonnegative = false;      // var is compared as unsigned: counted from a start >= 0 upward only
};

/// The warp-statement evaluations every iteration of the loop `s` but its last makes at least:
/// its check, its body (a block, and each statement of it up to the first that may continue, each
/// making `least` of its own) and step.
Count per_iteration(const Kernel& k, const Stmt& s, const std::function<Count(StmtId)>& least);
/// Whether the expression reads an opaque value, a warp function or one of `written`.
bool varies(const Kernel& k, ExprId id, const std::vector<LocalId>& written);

/// The undefined behaviour a probe met: at which of its steps, where and what.
struct Fault {
  std::uint64_t step = 0;  // statements and addresses the thread evaluated before it
  ExprId expr = kNone;
  std::string what;
  std::int32_t access = kNone;  // in this access's address
};

class Probe {
 public:
  /// `compressed`: loops where the probe stops, their work not bounded from below (the class
  /// engine's iteration classes); none where null.
  Probe(const Kernel& k, const Launch& l, const std::vector<ExprId>& origins,
        const std::vector<std::vector<ExprId>>& checks, std::map<StmtId, std::optional<CountedLoop>>& shapes,
        const std::vector<bool>* compressed, Dim3 block, std::uint64_t thread)
      : k_(k),
        l_(l),
        origins_(origins),
        checks_(checks),
        shapes_(shapes),
        compressed_(compressed),
        block_(block),
        locals_(k.locals.size()) {
    thread_ = {static_cast<std::uint32_t>(thread % l.block.x),
               static_cast<std::uint32_t>(thread / l.block.x % l.block.y),
               static_cast<std::uint32_t>(thread / (std::uint64_t{l.block.x} * l.block.y))};
  }

  void run() {
    try {
      exec(k_.root);
    } catch (const Stop&) {
    }
  }

  Count evaluations = 0;
  std::optional<Fault> fault;          // in a value: the thread stops there, as the replay does
  std::optional<Fault> address_fault;  // the first in an access's address
  StmtId longest = kNone;              // the loop of most skipped iterations
  Wide longest_iterations = 0;
  bool longest_at_least = false;  // its count is a lower bound
  bool long_run = false;          // it stepped over iterations or ran past kMaxSteps
  std::string where() const {
    return "block " + dim3_text(block_.x, block_.y, block_.z) + ", thread " +
           dim3_text(thread_.x, thread_.y, thread_.z);
  }

 private:
  struct Stop {};
  enum class Flow { Next, Break, Continue, Return };
  using Known = std::optional<std::uint64_t>;

  void tick(StmtId id) {
    evaluations = plus(evaluations, 1);
    ++order_;
    if (++steps_ > kMaxSteps) {
      long_run = true;
      throw Stop{};
    }
    for (const std::int32_t a : k_.stmts[static_cast<std::size_t>(id)].accesses) address(a);
    // Values evaluated for their undefined behaviour only, as the replay does (LaunchPlan::checks).
    for (const ExprId value : checks_[static_cast<std::size_t>(id)]) eval(value);
  }

  /// An access's address: undefined behaviour in it is kept (the first), and the thread goes on,
  /// as the replay marks the access not counted and goes on.
  void address(std::int32_t id) {
    const MemoryAccess& a = k_.accesses[static_cast<std::size_t>(id)];
    if (a.base == kNone || a.offset == kNone || opaque(a.offset) || (a.guard != kNone && opaque(a.guard)))
      return;
    access_ = id;
    ++order_;  // the accesses of a statement in their order
    try {
      const Known guard = a.guard != kNone ? eval(a.guard) : Known{1};
      if (guard && *guard != 0) eval(a.offset);
    } catch (const Stop&) {
    }
    access_ = kNone;
  }

  [[noreturn]] void undefined(ExprId e, const std::string& what) {
    if (!quiet_) {
      std::optional<Fault>& slot = access_ != kNone ? address_fault : fault;
      if (!slot) slot = Fault{order_, e, what, access_};
      ends_ = ends_ || access_ == kNone;
    }
    throw Stop{};
  }

  Known eval(ExprId id) {
    const FoldLeaf leaf = [this](ExprId leaf_id, int) -> std::optional<Value> {
      const Expr& e = k_.exprs[static_cast<std::size_t>(leaf_id)];
      switch (e.kind) {
        case ExprKind::Param:
          if (static_cast<std::size_t>(e.index) >= l_.arguments.size() ||
              !k_.parameters[static_cast<std::size_t>(e.index)].scalar)
            return std::nullopt;
          return Value{e.type, normalise(e.type, l_.arguments[static_cast<std::size_t>(e.index)].bits)};
        case ExprKind::Builtin:
          return Value{e.type, builtin(e.builtin)};
        case ExprKind::Local:
          if (const Known v = locals_[static_cast<std::size_t>(e.index)]) return Value{e.type, *v};
          return std::nullopt;
        default:
          return std::nullopt;
      }
    };
    FoldFault undefined_step;
    const std::optional<Value> v = fold(k_, id, leaf, FoldRules{}, &undefined_step);
    if (undefined_step.expr != kNone) undefined(undefined_step.expr, undefined_step.what);
    if (!v) return std::nullopt;
    return v->bits;
  }

  std::uint64_t builtin(Builtin b) const {
    std::uint64_t bits = 0;
    if (launch_constant(l_, b, bits)) return bits;
    const std::uint32_t values[6] = {thread_.x, thread_.y, thread_.z, block_.x, block_.y, block_.z};
    return values[static_cast<int>(b)];
  }

  /// A condition's value; a probe stops where it does not hold it.
  bool decide(ExprId id) {
    const Known v = eval(id);
    if (!v) throw Stop{};
    return *v != 0;
  }

  Flow exec(StmtId id) {
    if (id == kNone) return Flow::Next;
    const Stmt& s = k_.stmts[static_cast<std::size_t>(id)];
    switch (s.kind) {
      case StmtKind::Block:
        tick(id);
        for (const StmtId c : s.children) {
          const Flow f = exec(c);
          if (f != Flow::Next) return f;
        }
        return Flow::Next;
      case StmtKind::Declare:
      case StmtKind::Assign:
        tick(id);
        locals_[static_cast<std::size_t>(s.local)] =
            s.value != kNone && !opaque(s.value) ? eval(s.value) : Known{};
        return Flow::Next;
      case StmtKind::Work:
      case StmtKind::Barrier:
        tick(id);
        return Flow::Next;
      case StmtKind::If:
        tick(id);
        if (decide(s.value)) return exec(s.then_stmt);
        return exec(s.else_stmt);
      case StmtKind::Loop:
        return loop(id, s);
      case StmtKind::Break:
        tick(id);
        return Flow::Break;
      case StmtKind::Continue:
        tick(id);
        return Flow::Continue;
      case StmtKind::Return:
        tick(id);
        if (s.value != kNone && !calls_.empty() && calls_.back() != kNone)
          locals_[static_cast<std::size_t>(calls_.back())] = opaque(s.value) ? Known{} : eval(s.value);
        if (calls_.empty()) {  // the thread leaves the kernel
          ends_ = true;
          throw Stop{};
        }
        return Flow::Return;
      case StmtKind::InlinedCall: {
        tick(id);
        calls_.push_back(s.local);
        exec(s.body);
        calls_.pop_back();
        return Flow::Next;
      }
      case StmtKind::Switch:
        return run_switch(id, s);
    }
    return Flow::Next;
  }

  Flow run_switch(StmtId id, const Stmt& s) {
    tick(id);
    const Known v = eval(s.value);
    if (!v) throw Stop{};
    std::int32_t entry =
        s.default_child != kNone ? s.default_child : static_cast<std::int32_t>(s.children.size());
    for (const SwitchCase& c : s.cases)
      if (c.value == *v) entry = c.child;
    for (std::size_t i = static_cast<std::size_t>(entry); i < s.children.size(); ++i) {
      const Flow f = exec(s.children[i]);
      if (f == Flow::Break) return Flow::Next;
      if (f != Flow::Next) return f;
    }
    return Flow::Next;
  }

  Flow loop(StmtId id, const Stmt& s) {
    if (compressed_ != nullptr && (*compressed_)[static_cast<std::size_t>(id)]) throw Stop{};
    if (s.init != kNone) {
      const Flow f = exec(s.init);
      if (f != Flow::Next) return f;
    }
    const std::optional<CountedLoop>& shape = counted(id);
    std::optional<Wide> trips;
    Wide start = 0;
    if (shape) trips = trip_count(*shape, s, start);
    Wide k = 0;
    if (!trips) return iterations(id, s, nullptr, 0, 0, k);
    if (shape->at_least && *trips >= Wide{kSkipFrom}) {
      // Only a lower bound: each iteration evaluates the loop and its body; nothing is known after.
      note_loop(id, *trips, true);
      evaluations = plus(evaluations, plus(times(static_cast<Count>(*trips - 1), iteration_floor(s)), 1));
      throw Stop{};
    }
    try {
      return iterations(id, s, &*shape, *trips, start, k);
    } catch (const Stop&) {
      // Where the thread goes on (the probe stopped short of its end, not at undefined behaviour),
      // the iterations after this one make at least the floor each (all but the last for a count
      // that is a lower bound: that one may break early).
      const Wide after = *trips - 1 - k - (shape->at_least ? 1 : 0);
      if (!ends_ && after > 0) {
        evaluations = plus(evaluations, times(static_cast<Count>(after), iteration_floor(s)));
        note_loop(id, *trips, shape->at_least);
      }
      throw;
    }
  }

  /// The loop's iterations from the first, k the one running; `shape` (with `trips` from `start`)
  /// where they are counted.
  Flow iterations(StmtId id, const Stmt& s, const CountedLoop* shape, Wide trips, Wide start, Wide& k) {
    const bool skip = shape != nullptr && !shape->at_least && trips >= Wide{kSkipFrom};
    for (k = 0;; ++k) {
      if (skip && k == Wide{kConcreteIterations}) k = jump(id, s, *shape, trips, start);
      if (s.loop_kind != LoopKind::Do) {
        tick(id);
        if (s.value != kNone && !decide(s.value)) return Flow::Next;
      }
      const Flow f = exec(s.body);
      if (f == Flow::Break) return Flow::Next;
      if (f == Flow::Return) return f;
      if (s.step != kNone) exec(s.step);
      if (s.loop_kind == LoopKind::Do) {
        tick(id);
        if (s.value != kNone && !decide(s.value)) return Flow::Next;
      }
    }
  }

  /// The evaluations every iteration of the loop `s` but its last makes at least (per_iteration),
  /// a loop among them whose iterations do not change from one iteration of `s` to the next
  /// counted with its own (least_of).
  Count iteration_floor(const Stmt& s) {
    const std::vector<LocalId> written = locals_written(k_, {s.body, s.step});
    return per_iteration(k_, s, [&](StmtId c) { return least_of(c, written); });
  }

  /// The evaluations statement `c` makes at least each time it runs: 1; for a counted loop whose
  /// init sets its variable and whose bound it reads from nothing in `written` (the same trip
  /// count each time; not one where the probe stops), its init, its iterations (but the last,
  /// for a count that is a lower bound) and its last check.
  Count least_of(StmtId c, const std::vector<LocalId>& written) {
    const Stmt& x = k_.stmts[static_cast<std::size_t>(c)];
    if (x.kind != StmtKind::Loop || x.init == kNone ||
        (compressed_ != nullptr && (*compressed_)[static_cast<std::size_t>(c)]))
      return 1;
    const std::optional<CountedLoop>& shape = counted(c);
    const Stmt& init = k_.stmts[static_cast<std::size_t>(x.init)];
    if (!shape || (init.kind != StmtKind::Declare && init.kind != StmtKind::Assign) ||
        init.local != shape->var || init.value == kNone || varies(k_, init.value, written) ||
        varies(k_, shape->bound, written))
      return 1;
    std::optional<Wide> trips;
    Wide start = 0;
    quiet_ = true;  // undefined behaviour here is the loop's own, met (and named) where it runs
    try {
      trips = trips_from(*shape, x, eval(init.value), start);
    } catch (const Stop&) {
    }
    quiet_ = false;
    if (!trips || *trips == 0) return 1;
    const Count each = per_iteration(k_, x, [&](StmtId d) { return least_of(d, written); });
    if (shape->at_least) return plus(1, times(static_cast<Count>(*trips - 1), each));
    return plus(2, times(static_cast<Count>(*trips), each));
  }

  /// Steps over iterations kConcreteIterations .. trips - 2: the variable takes its value at the
  /// start of iteration trips - 1, what else the loop writes is no longer known; each skipped
  /// iteration evaluates the loop and its body at least. Returns the iteration to run next.
  Wide jump(StmtId id, const Stmt& s, const CountedLoop& shape, Wide trips, Wide start) {
    const Wide skipped = trips - 1 - Wide{kConcreteIterations};
    const Count floor = iteration_floor(s);
    const std::vector<LocalId> written = locals_written(k_, {s.body, s.step});
    const std::vector<Counter> counters = counters_of(s, written);
    std::vector<Known> kept;
    for (const Counter& c : counters) kept.push_back(after_steps(c, skipped));
    overflow(counters, skipped, floor);
    evaluations = plus(evaluations, times(static_cast<Count>(skipped), floor));
    note_loop(id, trips, false);
    for (const LocalId w : written) locals_[static_cast<std::size_t>(w)].reset();
    for (std::size_t i = 0; i < counters.size(); ++i)
      locals_[static_cast<std::size_t>(counters[i].local)] = kept[i];
    const ScalarType t = k_.locals[static_cast<std::size_t>(shape.var)].type;
    const Wide value = start + shape.step * (trips - 1);
    locals_[static_cast<std::size_t>(shape.var)] = normalise(t, static_cast<std::uint64_t>(value));
    return trips - 1;
  }

  /// A local the loop's body steps by the same amount in every iteration: `x = x + e` or `x - e`,
  /// a statement of the body itself (run once per iteration: nothing in the body breaks,
  /// continues or returns), e reading nothing the loop writes, and no other write of x in it.
  struct Counter {
    LocalId local = kNone;
    ExprId value = kNone;  // the statement's x +- e
    ExprId step = kNone;   // e
  };

  std::vector<Counter> counters_of(const Stmt& s, const std::vector<LocalId>& written) const {
    std::vector<Counter> out;
    if (s.body == kNone || interrupts(s.body, 0, 0, 0)) return out;
    const Stmt& body = k_.stmts[static_cast<std::size_t>(s.body)];
    const std::vector<StmtId> top =
        body.kind == StmtKind::Block ? body.children : std::vector<StmtId>{s.body};
    std::vector<int> writes(k_.locals.size(), 0);
    count_writes(s.body, writes);
    count_writes(s.step, writes);
    for (const StmtId c : top) {
      const Stmt& t = k_.stmts[static_cast<std::size_t>(c)];
      const ExprId e = counter_step(k_, t);
      if (e == kNone || writes[static_cast<std::size_t>(t.local)] != 1 || opaque(t.value) ||
          is_floating(k_.locals[static_cast<std::size_t>(t.local)].type) || varies(k_, e, written))
        continue;
      out.push_back(Counter{t.local, t.value, e});
    }
    return out;
  }

  /// Whether a break or continue of this loop, or a return from the kernel, is in `id` (nested
  /// `loops`, `switches` and inlined `calls` deep).
  bool interrupts(StmtId id, int loops, int switches, int calls) const {
    if (id == kNone) return false;
    const Stmt& s = k_.stmts[static_cast<std::size_t>(id)];
    if ((s.kind == StmtKind::Break && loops == 0 && switches == 0) ||
        (s.kind == StmtKind::Continue && loops == 0) || (s.kind == StmtKind::Return && calls == 0))
      return true;
    loops += s.kind == StmtKind::Loop ? 1 : 0;
    switches += s.kind == StmtKind::Switch ? 1 : 0;
    calls += s.kind == StmtKind::InlinedCall ? 1 : 0;
    for (const StmtId c : s.children)
      if (interrupts(c, loops, switches, calls)) return true;
    for (const StmtId c : {s.then_stmt, s.else_stmt, s.init, s.body, s.step})
      if (interrupts(c, loops, switches, calls)) return true;
    return false;
  }

  void count_writes(StmtId id, std::vector<int>& writes) const {
    if (id == kNone) return;
    const Stmt& s = k_.stmts[static_cast<std::size_t>(id)];
    if ((s.kind == StmtKind::Declare || s.kind == StmtKind::Assign || s.kind == StmtKind::InlinedCall) &&
        s.local != kNone)
      ++writes[static_cast<std::size_t>(s.local)];
    for (const StmtId c : s.children) count_writes(c, writes);
    for (const StmtId c : {s.then_stmt, s.else_stmt, s.init, s.body, s.step}) count_writes(c, writes);
  }

  /// The counter's value after `n` more iterations from its value now (nullopt where a value is
  /// not known or it leaves a signed type's range).
  Known after_steps(const Counter& c, Wide n) {
    const std::optional<Wide> step = step_of(c);
    if (!step) return std::nullopt;
    const ScalarType t = k_.locals[static_cast<std::size_t>(c.local)].type;
    const Wide value = math(t, *locals_[static_cast<std::size_t>(c.local)]) + *step * n;
    if (is_signed(t) && !fits(t, value)) return std::nullopt;
    return normalise(t, static_cast<std::uint64_t>(value));
  }

  /// The counter's step per iteration, where its value and e are known now.
  std::optional<Wide> step_of(const Counter& c) {
    const Known e = eval(c.step);
    if (!locals_[static_cast<std::size_t>(c.local)] || !e) return std::nullopt;
    const ScalarType t = k_.locals[static_cast<std::size_t>(c.local)].type;
    const Wide step = math(t, *e);
    return k_.exprs[static_cast<std::size_t>(c.value)].binary_op == BinaryOp::Sub ? -step : step;
  }

  /// The first step of a counter (in the order of the iterations, then of the body) that leaves
  /// its signed type's range within the next `n` iterations is undefined behaviour met there: the
  /// thread stops, each iteration before it having made `floor` evaluations.
  void overflow(const std::vector<Counter>& counters, Wide n, Count floor) {
    std::optional<std::pair<Wide, std::size_t>> first;  // (iterations before it, counter)
    for (std::size_t i = 0; i < counters.size(); ++i) {
      const ScalarType t = k_.locals[static_cast<std::size_t>(counters[i].local)].type;
      const std::optional<Wide> step = step_of(counters[i]);
      if (!is_signed(t) || !step || *step == 0) continue;
      const Wide x0 = math(t, *locals_[static_cast<std::size_t>(counters[i].local)]);
      const Wide room = *step > 0 ? type_max(t) - x0 : x0 - type_min(t);
      const Wide before = room / (*step > 0 ? *step : -*step);  // steps that stay within
      if (before < n && (!first || before < first->first)) first = std::make_pair(before, i);
    }
    if (!first) return;
    const Counter& c = counters[first->second];
    const ScalarType t = k_.locals[static_cast<std::size_t>(c.local)].type;
    const Wide x = math(t, *locals_[static_cast<std::size_t>(c.local)]) + *step_of(c) * first->first;
    const std::uint64_t bits = normalise(t, static_cast<std::uint64_t>(x));
    const std::uint64_t e = *eval(c.step);
    const Expr& b = k_.exprs[static_cast<std::size_t>(c.value)];
    const Expr& left = k_.exprs[static_cast<std::size_t>(b.operands[0])];
    const bool x_first = left.kind == ExprKind::Local && left.index == c.local;
    evaluations = plus(evaluations, times(static_cast<Count>(first->first), floor));
    undefined(c.value, ops::describe_fault(b.binary_op, t, x_first ? bits : e, x_first ? e : bits));
  }

  void note_loop(StmtId id, Wide trips, bool at_least) {
    long_run = true;
    if (trips > longest_iterations) {
      longest_iterations = trips;
      longest = id;
      longest_at_least = at_least;
    }
  }

  /// The iterations of `shape` from the variable's value now (its bound evaluated now); nullopt
  /// where they do not follow (an unknown value, a step that would leave the variable's type).
  std::optional<Wide> trip_count(const CountedLoop& shape, const Stmt& s, Wide& start) {
    return trips_from(shape, s, locals_[static_cast<std::size_t>(shape.var)], start);
  }

  /// The same from the variable's value `v`.
  std::optional<Wide> trips_from(const CountedLoop& shape, const Stmt& s, Known v, Wide& start) {
    const Known e = eval(shape.bound);
    if (!v || !e) return std::nullopt;
    const ScalarType t = k_.locals[static_cast<std::size_t>(shape.var)].type;
    const ScalarType bt = k_.exprs[static_cast<std::size_t>(shape.bound)].type;
    const Wide v0 = math(t, *v), bound = math(bt, *e);
    start = v0;
    if (shape.nonnegative && (v0 < 0 || shape.step < 0)) return std::nullopt;
    // Distance to travel in the step's direction before the condition fails.
    const bool up = shape.step > 0;
    const Wide c = up ? shape.step : -shape.step;
    Wide gap = up ? bound - v0 : v0 - bound;
    const BinaryOp op = shape.stay;
    if (op == BinaryOp::Le || op == BinaryOp::Ge) gap += 1;  // stays while within, the bound included
    Wide trips = gap <= 0 ? 0 : (gap + c - 1) / c;
    if (op == BinaryOp::Ne) {
      if (gap < 0 || gap % c != 0) return std::nullopt;
      trips = gap / c;
    }
    if (shape.at_least) trips = gap <= 0 ? 0 : gap / c;
    if (s.loop_kind == LoopKind::Do && !shape.at_least) return std::nullopt;
    if (!fits(t, v0 + shape.step * trips)) return std::nullopt;  // the variable would wrap or overflow
    return trips;
  }

  const std::optional<CountedLoop>& counted(StmtId id) {
    const auto found = shapes_.find(id);
    if (found != shapes_.end()) return found->second;
    return shapes_[id] = shape_of(id);
  }

  std::optional<CountedLoop> shape_of(StmtId id) const;

  /// A value the replay does not compute (it depends on one it does not hold: opaque_origins).
  bool opaque(ExprId id) const { return origins_[static_cast<std::size_t>(id)] != kNone; }

  const Kernel& k_;
  const Launch& l_;
  const std::vector<ExprId>& origins_;
  const std::vector<std::vector<ExprId>>& checks_;
  std::map<StmtId, std::optional<CountedLoop>>& shapes_;
  const std::vector<bool>* compressed_;
  Dim3 block_;
  Dim3 thread_;
  std::vector<Known> locals_;
  std::vector<LocalId> calls_;
  std::uint64_t steps_ = 0;
  std::uint64_t order_ = 0;  // statements and addresses evaluated: when a fault happened
  std::int32_t access_ = kNone;
  bool ends_ = false;   // the thread ends where the probe stopped (undefined behaviour, its return)
  bool quiet_ = false;  // undefined behaviour met is not the thread's: not kept
};

// ---- Loops a thread's values count

/// The value of `e` where the launch alone fixes it (constants, scalar parameters of `l`,
/// blockDim, gridDim and warpSize, and what is computed from them: `3 * st`, `blockDim.x / 32`);
/// nullopt for anything else, and where computing it meets undefined behaviour (the run names
/// that where it happens).
std::optional<Value> launch_constant(const Kernel& k, const Launch& l, ExprId e) {
  const FoldLeaf leaf = [&](ExprId id, int) -> std::optional<Value> {
    const Expr& x = k.exprs[static_cast<std::size_t>(id)];
    std::uint64_t bits = 0;
    if (x.kind == ExprKind::Param && static_cast<std::size_t>(x.index) < l.arguments.size() &&
        k.parameters[static_cast<std::size_t>(x.index)].scalar)
      return Value{x.type, normalise(x.type, l.arguments[static_cast<std::size_t>(x.index)].bits)};
    if (x.kind == ExprKind::Builtin && launch_constant(l, x.builtin, bits))
      return Value{x.type, normalise(x.type, bits)};
    return std::nullopt;
  };
  return fold(k, e, leaf, FoldRules{});
}

/// `local = local + c` or `local - c` (c fixed by the launch `l`: launch_constant; casts around
/// the local allowed): c, signed.
std::optional<Wide> constant_step(const Kernel& k, const Launch& l, const Stmt& s) {
  if (s.kind != StmtKind::Assign || s.value == kNone) return std::nullopt;
  ExprId e = s.value;
  while (k.exprs[static_cast<std::size_t>(e)].kind == ExprKind::Cast)
    e = k.exprs[static_cast<std::size_t>(e)].operands[0];
  const Expr& x = k.exprs[static_cast<std::size_t>(e)];
  if (x.kind != ExprKind::Binary || (x.binary_op != BinaryOp::Add && x.binary_op != BinaryOp::Sub) ||
      is_floating(x.type))
    return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    ExprId v = x.operands[side];
    while (k.exprs[static_cast<std::size_t>(v)].kind == ExprKind::Cast)
      v = k.exprs[static_cast<std::size_t>(v)].operands[0];
    const Expr& ve = k.exprs[static_cast<std::size_t>(v)];
    if (ve.kind != ExprKind::Local || ve.index != s.local) continue;
    const std::optional<Value> c = launch_constant(k, l, x.operands[1 - side]);
    if (!c || is_floating(c->type)) continue;
    if (side == 1 && x.binary_op == BinaryOp::Sub) return std::nullopt;
    const Wide value = math(c->type, normalise(c->type, c->bits));
    if (!fits(k.locals[static_cast<std::size_t>(s.local)].type, value))
      return std::nullopt;  // not kept by a cast
    return x.binary_op == BinaryOp::Sub ? -value : value;
  }
  return std::nullopt;
}

bool varies(const Kernel& k, ExprId id, const std::vector<LocalId>& written) {
  const Expr& e = k.exprs[static_cast<std::size_t>(id)];
  if (e.kind == ExprKind::Opaque || e.kind == ExprKind::Warp) return true;
  if (e.kind == ExprKind::Local) return std::find(written.begin(), written.end(), e.index) != written.end();
  for (const ExprId op : e.operands)
    if (op != kNone && varies(k, op, written)) return true;
  return false;
}

/// The comparison `v stay bound` that `c` is, v a local (or a cast of it that keeps its values).
/// `nonnegative`: v is signed and compared as unsigned (`i < blockIdx.x`), which keeps its values
/// only while it is not negative.
bool comparison_of(const Kernel& k, ExprId c, LocalId& v, BinaryOp& stay, ExprId& bound, bool& nonnegative) {
  const Expr& e = k.exprs[static_cast<std::size_t>(c)];
  if (e.kind != ExprKind::Binary || !is_comparison(e.binary_op) || e.binary_op == BinaryOp::Eq) return false;
  for (int side = 0; side < 2; ++side) {
    ExprId x = e.operands[side];
    const ScalarType compared = k.exprs[static_cast<std::size_t>(x)].type;
    while (k.exprs[static_cast<std::size_t>(x)].kind == ExprKind::Cast)
      x = k.exprs[static_cast<std::size_t>(x)].operands[0];
    const Expr& xe = k.exprs[static_cast<std::size_t>(x)];
    if (xe.kind != ExprKind::Local) continue;
    const ScalarType own = k.locals[static_cast<std::size_t>(xe.index)].type;
    if (type_max(own) > type_max(compared)) continue;
    nonnegative = type_min(own) < type_min(compared);
    if (nonnegative && type_min(compared) != 0) continue;
    BinaryOp op = e.binary_op;
    if (side == 1)
      op = op == BinaryOp::Lt   ? BinaryOp::Gt
           : op == BinaryOp::Gt ? BinaryOp::Lt
           : op == BinaryOp::Le ? BinaryOp::Ge
           : op == BinaryOp::Ge ? BinaryOp::Le
                                : op;
    v = xe.index;
    stay = op;
    bound = e.operands[1 - side];
    return true;
  }
  return false;
}

/// The negation of a comparison op (what holds when `op` does not).
BinaryOp negated(BinaryOp op) {
  return op == BinaryOp::Lt   ? BinaryOp::Ge
         : op == BinaryOp::Ge ? BinaryOp::Lt
         : op == BinaryOp::Le ? BinaryOp::Gt
         : op == BinaryOp::Gt ? BinaryOp::Le
         : op == BinaryOp::Ne ? BinaryOp::Eq
                              : BinaryOp::Ne;
}

/// What leaves a loop from inside its body: the breaks that target it (with the condition of the
/// `if (c) break;` around each, kNone when there is none) and whether a return leaves it.
struct Exits {
  std::vector<ExprId> breaks;
  bool returns = false;
  bool continues = false;
  std::vector<std::pair<StmtId, bool>> writes;  // statements that write a local; inside a nested loop
};

void exits_of(const Kernel& k, StmtId id, ExprId guard, int calls, bool nested, Exits& out) {
  if (id == kNone) return;
  const Stmt& s = k.stmts[static_cast<std::size_t>(id)];
  switch (s.kind) {
    case StmtKind::Break:
      if (!nested) out.breaks.push_back(guard);
      break;
    case StmtKind::Continue:
      if (!nested) out.continues = true;
      break;
    case StmtKind::Return:
      if (calls == 0) out.returns = true;
      break;
    case StmtKind::Declare:
    case StmtKind::Assign:
      out.writes.emplace_back(id, nested);
      break;
    case StmtKind::Block:
      for (const StmtId c : s.children)
        exits_of(k, c, s.children.size() == 1 ? guard : kNone, calls, nested, out);
      break;
    case StmtKind::If:  // an else-if chain link by link: its length is no depth
      for (StmtId at = id; at != kNone;) {
        const Stmt& link = k.stmts[static_cast<std::size_t>(at)];
        if (link.kind != StmtKind::If) {
          exits_of(k, at, kNone, calls, nested, out);
          break;
        }
        exits_of(k, link.then_stmt, link.else_stmt == kNone ? link.value : kNone, calls, nested, out);
        at = link.else_stmt;
      }
      break;
    case StmtKind::Loop:
      exits_of(k, s.init, kNone, calls, nested, out);
      exits_of(k, s.body, kNone, calls, true, out);
      exits_of(k, s.step, kNone, calls, true, out);
      break;
    case StmtKind::Switch:
      for (const StmtId c : s.children) exits_of(k, c, kNone, calls, true, out);
      break;
    case StmtKind::InlinedCall:
      if (s.local != kNone) out.writes.emplace_back(id, true);
      exits_of(k, s.body, kNone, calls + 1, nested, out);
      break;
    default:
      break;
  }
}

/// Whether a continue of this loop's level is inside `id`.
bool continues(const Kernel& k, StmtId id) {
  Exits e;
  exits_of(k, id, kNone, 0, false, e);
  return e.continues;
}

Count per_iteration(const Kernel& k, const Stmt& s, const std::function<Count(StmtId)>& least) {
  const Count n = 1 + (s.step != kNone ? 1 : 0);  // its check and step
  const Stmt& body = k.stmts[static_cast<std::size_t>(s.body)];
  if (body.kind != StmtKind::Block) return plus(n, least(s.body));
  Count in_body = 1;  // the block
  for (const StmtId c : body.children) {
    if (continues(k, c)) break;
    in_body = plus(in_body, least(c));
  }
  return plus(n, in_body);
}

std::optional<CountedLoop> Probe::shape_of(StmtId id) const {
  const Stmt& s = k_.stmts[static_cast<std::size_t>(id)];
  Exits exits;
  exits_of(k_, s.body, kNone, 0, false, exits);
  exits_of(k_, s.step, kNone, 0, false, exits);
  if (exits.returns) return std::nullopt;
  const std::vector<LocalId> written = locals_written(k_, {s.body, s.step});
  CountedLoop shape;
  if (s.value != kNone) {
    ExprId bare = s.value;
    while (k_.exprs[static_cast<std::size_t>(bare)].kind == ExprKind::Cast)
      bare = k_.exprs[static_cast<std::size_t>(bare)].operands[0];
    const Expr& c = k_.exprs[static_cast<std::size_t>(bare)];
    if (c.kind == ExprKind::Constant) {
      if (c.constant == 0) return std::nullopt;
    } else if (!comparison_of(k_, s.value, shape.var, shape.stay, shape.bound, shape.nonnegative)) {
      return std::nullopt;
    }
  }
  // Every break needs the exit condition: !(var stay bound).
  for (const ExprId guard : exits.breaks) {
    CountedLoop other;
    if (guard == kNone || !comparison_of(k_, guard, other.var, other.stay, other.bound, other.nonnegative))
      return std::nullopt;
    other.stay = negated(other.stay);
    if (shape.var == kNone) shape = other;
    if (other.var != shape.var || other.stay != shape.stay || other.bound != shape.bound ||
        other.nonnegative != shape.nonnegative)
      return std::nullopt;
    shape.at_least = true;
  }
  if (shape.var == kNone || varies(k_, shape.bound, written)) return std::nullopt;
  // The variable's every change in the loop: one `var = var + c` at the loop's own level.
  int changes = 0;
  for (const auto& [st, nested] : exits.writes) {
    const Stmt& w = k_.stmts[static_cast<std::size_t>(st)];
    if (w.local != shape.var) continue;
    const std::optional<Wide> c = constant_step(k_, l_, w);
    if (nested || !c || *c == 0) return std::nullopt;
    shape.step = *c;
    ++changes;
  }
  if (changes != 1) return std::nullopt;
  // A continue may skip a change in the body (not one in the step): more iterations, at least.
  const bool in_step = s.step != kNone && k_.stmts[static_cast<std::size_t>(s.step)].local == shape.var;
  if (exits.continues && !in_step) shape.at_least = true;
  const bool up = shape.step > 0;
  const bool stays_below = shape.stay == BinaryOp::Lt || shape.stay == BinaryOp::Le;
  const bool stays_above = shape.stay == BinaryOp::Gt || shape.stay == BinaryOp::Ge;
  if ((up && !stays_below && shape.stay != BinaryOp::Ne) ||
      (!up && !stays_above && shape.stay != BinaryOp::Ne))
    return std::nullopt;
  if (shape.at_least && shape.stay == BinaryOp::Ne) return std::nullopt;
  return shape;
}

// ---- The probes of a launch

struct Block {
  Dim3 index;
  Count evaluations = 0;
  std::optional<Fault> control, address;  // the first of each kind, by (warp, step, lane)
  std::string control_text, address_text;
  StmtId longest = kNone;
  Wide longest_iterations = 0;
  bool longest_at_least = false;
  std::string longest_where;
  bool long_run = false;  // some probe stepped over iterations or ran past kMaxSteps
};

class Prober {
 public:
  Prober(const Kernel& k, const Launch& l, std::optional<std::uint32_t> only_warp,
         const std::vector<bool>* compressed = nullptr)
      : k_(k),
        l_(l),
        only_warp_(only_warp),
        compressed_(compressed),
        origins_(opaque_origins(k)),
        checks_(checked_values(k, origins_)) {}

  /// Probes lanes of each warp of `block` (of its first `most_warps`): every lane with
  /// `all_lanes`, else the first and last.
  Block probe(Dim3 index, bool all_lanes, std::uint64_t most_warps = ~std::uint64_t{0}) {
    Block b;
    b.index = index;
    const std::uint64_t threads = l_.block.volume();
    const std::uint64_t w = static_cast<std::uint64_t>(l_.warp_size);
    const std::uint64_t warps = std::min((threads + w - 1) / w, most_warps);
    for (std::uint64_t warp = 0; warp < warps; ++warp) {
      if (only_warp_ && warp != *only_warp_) continue;
      const std::uint64_t first = warp * w, last = std::min(threads, first + w) - 1;
      Count most = 0;
      std::optional<std::pair<Fault, std::string>> control, address;  // the warp's first, by step
      const auto keep = [&](std::optional<std::pair<Fault, std::string>>& slot, const Fault& f,
                            const Probe& p) {
        if (!slot || f.step < slot->first.step) slot = std::make_pair(f, p.where());
      };
      for (std::uint64_t t = first; t <= last; t = all_lanes || t == last ? t + 1 : last) {
        Probe p(k_, l_, origins_, checks_, shapes_, compressed_, index, t);
        p.run();
        most = std::max(most, p.evaluations);
        b.long_run = b.long_run || p.long_run;
        if (p.longest_iterations > b.longest_iterations) {
          b.longest_iterations = p.longest_iterations;
          b.longest = p.longest;
          b.longest_at_least = p.longest_at_least;
          b.longest_where = p.where();
        }
        if (p.fault) keep(control, *p.fault, p);
        if (p.address_fault) keep(address, *p.address_fault, p);
      }
      b.evaluations = plus(b.evaluations, most);
      if (address && !b.address) {
        b.address = address->first;
        b.address_text = message(address->first, address->second);
      }
      if (control) {  // the replay stops at this warp
        b.control = control->first;
        b.control_text = message(control->first, control->second);
        break;
      }
    }
    return b;
  }

  std::string message(const Fault& f, const std::string& where) const {
    std::string text = location(k_, k_.exprs[static_cast<std::size_t>(f.expr)].range) +
                       ": undefined behaviour: " + f.what + " in " + where;
    if (f.access != kNone)
      text += " (the address of " + name(k_.accesses[static_cast<std::size_t>(f.access)].kind) + " '" +
              k_.accesses[static_cast<std::size_t>(f.access)].text + "')";
    return text;
  }

 private:
  const Kernel& k_;
  const Launch& l_;
  std::optional<std::uint32_t> only_warp_;
  const std::vector<bool>* compressed_;
  std::vector<ExprId> origins_;
  std::vector<std::vector<ExprId>> checks_;  // checked_values
  std::map<StmtId, std::optional<CountedLoop>> shapes_;
};

Dim3 block_at(const BlockRange& r, std::uint64_t linear) {
  const std::uint64_t ex = r.last.x - r.first.x + 1, ey = r.last.y - r.first.y + 1;
  return Dim3{static_cast<std::uint32_t>(r.first.x + linear % ex),
              static_cast<std::uint32_t>(r.first.y + linear / ex % ey),
              static_cast<std::uint32_t>(r.first.z + linear / (ex * ey))};
}

std::string loop_text(const Kernel& k, const Block& b) {
  if (b.longest == kNone) return "";
  const Stmt& s = k.stmts[static_cast<std::size_t>(b.longest)];
  const auto iterations = static_cast<std::uint64_t>(b.longest_iterations);
  return " (the " + name(s.loop_kind) + " loop at " + location(k, s.range) + " runs " +
         (b.longest_at_least ? "at least " : "") +
         (b.longest_iterations > Wide{~std::uint64_t{0}} ? std::string("more than 2^64")
                                                         : std::to_string(iterations)) +
         " iterations in " + b.longest_where + ")";
}

}  // namespace

PreRun pre_run(const Kernel& kernel, const Launch& launch, const BlockRange& range,
               std::optional<std::uint32_t> only_warp, bool search) {
  PreRun out;
  Prober prober(kernel, launch, only_warp);
  const std::uint64_t blocks = range.volume();
  // A first look at one warp: a launch of few warps whose first warp runs briefly is left to the
  // replay, which meets at once what the probes would; but not where the lowest block that meets
  // undefined behaviour is looked for (`search`): the replay's threads meet it in any block.
  const std::uint64_t w = static_cast<std::uint64_t>(launch.warp_size);
  const Count warps = Count{blocks} * ((launch.block.volume() + w - 1) / w);
  const Block glance = prober.probe(range.first, false, 1);
  if (!search && !glance.long_run && warps <= Count{kFewWarps}) {
    out.least_evaluations = glance.evaluations;
    return out;
  }
  Block first = prober.probe(range.first, false);
  Block last = blocks > 1 ? prober.probe(range.last, false) : first;
  out.least_evaluations = plus(first.evaluations, blocks > 1 ? last.evaluations : 0);
  const Block& longer = last.longest_iterations > first.longest_iterations ? last : first;
  out.longest_loop = loop_text(kernel, longer);
  if (!search) return out;
  // The lowest block where a probe meets undefined behaviour, looked for among blocks 0, 1, 2, 4,
  // ..., 2^k and the last, in that order: the first of them that meets it, then, by bisection
  // between it and the one before it (which does not), a block that meets it right after one that
  // does not. Whether a block meets it need not grow with its index (a value that wraps around
  // meets it, then does not, then does again), so a bisection over the whole grid may land in any
  // stretch of blocks that meets it; looking up from the first block finds the first stretch that
  // reaches one of the blocks looked at, and its first block where it meets it in one piece.
  const auto has = [](const Block& b) { return b.control.has_value() || b.address.has_value(); };
  Block found = first;
  std::uint64_t low = 0, high = 0;    // low has none, high has some
  std::vector<std::uint64_t> looked;  // 1, 2, 4, ... below the last, then the last
  for (std::uint64_t at = 1; !has(first) && at < blocks - 1; at *= 2) looked.push_back(at);
  if (!has(first) && blocks > 1) looked.push_back(blocks - 1);
  for (const std::uint64_t at : looked) {
    Block b = at == blocks - 1 ? std::move(last) : prober.probe(block_at(range, at), false);
    if (has(b)) {
      high = at;
      found = std::move(b);
      break;
    }
    low = at;
  }
  if (high > 0) {
    while (high - low > 1) {
      const std::uint64_t mid = low + (high - low) / 2;
      Block b = prober.probe(block_at(range, mid), false);
      if (has(b)) {
        high = mid;
        found = std::move(b);
      } else {
        low = mid;
      }
    }
  }
  if (!has(found)) return out;
  found = prober.probe(found.index, true);  // its lanes, to name the first as the replay would
  out.undefined = found.control_text;
  out.address_undefined = found.address_text;
  return out;
}

PreRun class_engine_floor(const Kernel& kernel, const Launch& launch, std::optional<std::uint32_t> only_warp,
                          const std::vector<bool>& compressed, bool every_warp) {
  PreRun out;
  Prober prober(kernel, launch, only_warp, &compressed);
  const Block first = prober.probe(Dim3{0, 0, 0}, false, only_warp || every_warp ? ~std::uint64_t{0} : 1);
  out.least_evaluations = first.evaluations;
  out.longest_loop = loop_text(kernel, first);
  return out;
}

}  // namespace warpdiv::sim::ir
