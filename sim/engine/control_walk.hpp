// Warp control flow, written once: which lanes run which statement of a launch plan's kernel and
// which go on after it (blocks, else-if chains, loops with break and continue, switch with
// fallthrough, returns from inlined calls and from the kernel, barriers). Both engines that run a
// warp walk the model with it: the interpreter (WarpMachine, sim/engine/ir_engine.hpp) over lane
// masks it holds, the native code generator (jit/native_codegen.cpp) emitting LLVM IR over masks
// held in the generated code. Each is the walker's Backend (CRTP: `class WarpMachine : public
// LaneMaskWalk<WarpMachine>`, the primitives over LaneMask values below), so the interpreter's
// calls to its own leaves inline and cost what hand-written control flow would.
//
// The backend supplies the masks and the statement-level leaves; the walker, the rules:
//   masks:     Mask zero(); Mask or_(Mask, Mask); Mask and_not(Mask a, Mask b) (a & ~b);
//              Var variable(Mask); Mask get(const Var&); void set(Var&, Mask); or_into(Var&, Mask);
//              Flag divergent(Mask active, Mask taken) (some lanes taken, not all);
//              Flag several(const std::vector<Mask>&) (more than one holds a lane);
//   control:   Mask when_any(Mask m, F f): f() where m holds a lane, else zero (f then runs nowhere);
//              sequence(Mask): steps on the lanes left, stopping at a zero mask: now(), go_on(Mask)
//              (false: no lane left, the walker stops emitting the steps), end() (the lanes left);
//              repeat(StmtId loop, size_t frame, Var& in, Var& exits, F iteration): in = iteration(in)
//              while `in` holds a lane, the backend's per-head hooks around each (limits, budget,
//              a recorder that runs the iterations its own way);
//   leaves:    count(StmtId, Mask); memory(StmtId, Mask) (the statement's accesses and flops, only
//              where LaunchPlan::has_memory); Mask condition(ExprId, Mask);
//              count_branch(StmtId, Mask active, Mask taken, Flag); count_loop_head(same);
//              assign(LocalId, ExprId, Mask); undefine(LocalId, Mask) (declared without a value);
//              check(ExprId, Mask) (evaluated for its undefined behaviour only: LaunchPlan::checks);
//              exit_kernel(Mask); arrive(StmtId barrier, Mask);
//              switch_value(ExprId, Mask) -> V; Mask case_lanes(const V&, ExprId, uint64_t, Mask).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/engine/ir_recorder.hpp"
#include "sim/engine/launch_plan.hpp"
#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir::detail {

template <class Backend, class Mask, class Var>
class ControlWalk {
 public:
  enum class FrameKind : std::uint8_t { Loop, Switch, Call };
  /// A statement lanes leave early to: a loop (break, continue), a switch (break), an inlined call
  /// (return, its value to `result`).
  struct Frame {
    FrameKind kind;
    Var broken{};            // Loop / Switch: lanes that left by break
    Var continued{};         // Loop
    Var returned{};          // Call
    LocalId result = kNone;  // Call: the local a return's value goes to
    StmtId loop = kNone;     // Loop: the loop statement
  };

 protected:
  explicit ControlWalk(const LaunchPlan& plan) : plan_(plan) {}

  /// Runs statement `id` for `active` (holding a lane); returns the lanes that go on after it.
  Mask exec(StmtId id, Mask active);
  /// One iteration of a loop, `frame` its frame: the head's condition (before the body, or after
  /// it for do), the body, the step. Returns the lanes that go on to the next iteration; lanes
  /// that leave join `exits`.
  Mask loop_iteration(StmtId id, const Stmt& s, std::size_t frame, Mask in, Var& exits);

  std::vector<Frame> frames_;

 private:
  Backend& be() { return static_cast<Backend&>(*this); }
  const Stmt& stmt(StmtId id) const { return plan_.kernel.stmts[static_cast<std::size_t>(id)]; }
  bool has_memory(StmtId id) const { return plan_.has_memory[static_cast<std::size_t>(id)] != 0; }
  // A statement that is only counted (and its memory): no call to exec for it. Its values are
  // checked before its stores, from what memory holds before them (`s[t] <<= 20` shifts the old
  // element).
  void work(StmtId id, Mask active) {
    be().count(id, active);
    for (const ExprId value : plan_.checks[static_cast<std::size_t>(id)]) be().check(value, active);
    if (has_memory(id)) be().memory(id, active);
  }
  Mask assign(StmtId id, const Stmt& s, Mask active);
  Mask block(StmtId id, const Stmt& s, Mask active);
  Mask if_chain(StmtId id, Mask active);
  Mask loop(StmtId id, const Stmt& s, Mask active);
  Mask head(StmtId id, const Stmt& s, Mask in, Var& exits);
  Mask switch_(StmtId id, const Stmt& s, Mask active);
  Mask return_(StmtId id, const Stmt& s, Mask active);
  Mask inlined_call(StmtId id, const Stmt& s, Mask active);
  std::size_t frame_for(FrameKind a, FrameKind b) const {
    for (std::size_t i = frames_.size(); i-- > 0;)
      if (frames_[i].kind == a || frames_[i].kind == b) return i;
    return frames_.size();  // none (validate() makes this impossible for break and continue)
  }

  const LaunchPlan& plan_;
};

template <class Backend, class Mask, class Var>
Mask ControlWalk<Backend, Mask, Var>::exec(StmtId id, Mask active) {
  const Stmt& s = stmt(id);
  switch (s.kind) {
    case StmtKind::Block:
      return block(id, s, active);
    case StmtKind::Declare:
    case StmtKind::Assign:
      return assign(id, s, active);
    case StmtKind::Work:
      work(id, active);
      return active;
    case StmtKind::If:
      return if_chain(id, active);
    case StmtKind::Loop:
      return loop(id, s, active);
    case StmtKind::Break:
      be().count(id, active);
      be().or_into(frames_[frame_for(FrameKind::Loop, FrameKind::Switch)].broken, active);
      return be().zero();
    case StmtKind::Continue:
      be().count(id, active);
      be().or_into(frames_[frame_for(FrameKind::Loop, FrameKind::Loop)].continued, active);
      return be().zero();
    case StmtKind::Return:
      return return_(id, s, active);
    case StmtKind::Barrier:
      be().count(id, active);
      be().arrive(id, active);
      return active;
    case StmtKind::InlinedCall:
      return inlined_call(id, s, active);
    case StmtKind::Switch:
      return switch_(id, s, active);
  }
  return active;
}

template <class Backend, class Mask, class Var>
inline Mask ControlWalk<Backend, Mask, Var>::assign(StmtId id, const Stmt& s, Mask active) {
  work(id, active);
  if (s.value == kNone)
    be().undefine(s.local, active);
  else if (plan_.skip_value[static_cast<std::size_t>(id)] == 0)
    be().assign(s.local, s.value, active);
  return active;
}

// A block runs its children in order and stops when no lane is left.
template <class Backend, class Mask, class Var>
inline Mask ControlWalk<Backend, Mask, Var>::block(StmtId id, const Stmt& s, Mask active) {
  be().count(id, active);
  auto lanes = be().sequence(active);
  for (StmtId child : s.children) {
    // Work statements (a third of a typical kernel's) are only counted: no call for them.
    if (stmt(child).kind == StmtKind::Work) {
      work(child, lanes.now());
      continue;
    }
    if (!lanes.go_on(exec(child, lanes.now()))) break;
  }
  return lanes.end();
}

// An else-if chain, link by link (its length costs no stack): the condition's memory, the
// condition and its count, the then-branch on the taken lanes; the others go on to the next link.
template <class Backend, class Mask, class Var>
inline Mask ControlWalk<Backend, Mask, Var>::if_chain(StmtId id, Mask active) {
  Var out = be().variable(be().zero());
  auto rest = be().sequence(active);
  for (StmtId at = id;;) {
    const Stmt& link = stmt(at);
    const Mask now = rest.now();
    if (has_memory(at)) be().memory(at, now);  // the condition's loads
    const Mask taken = be().condition(link.value, now);
    be().count_branch(at, now, taken, be().divergent(now, taken));
    be().or_into(out, be().when_any(taken, [&] { return exec(link.then_stmt, taken); }));
    if (!rest.go_on(be().and_not(now, taken))) break;
    if (link.else_stmt == kNone) {
      be().or_into(out, rest.now());
      break;
    }
    if (stmt(link.else_stmt).kind != StmtKind::If) {
      be().or_into(out, exec(link.else_stmt, rest.now()));
      break;
    }
    at = link.else_stmt;
  }
  rest.end();
  return be().get(out);
}

// A loop: its init, then iterations while a lane stays; the lanes that left are those after it.
template <class Backend, class Mask, class Var>
Mask ControlWalk<Backend, Mask, Var>::loop(StmtId id, const Stmt& s, Mask active) {
  Var in = be().variable(s.init != kNone ? exec(s.init, active) : active);
  Var exits = be().variable(be().zero());
  Frame f{FrameKind::Loop};
  f.broken = be().variable(be().zero());
  f.continued = be().variable(be().zero());
  f.loop = id;
  frames_.push_back(f);
  const std::size_t frame = frames_.size() - 1;
  be().repeat(id, frame, in, exits, [&](Mask lanes) { return loop_iteration(id, s, frame, lanes, exits); });
  frames_.pop_back();
  return be().get(exits);
}

// A loop's head: its condition's memory, the condition and its count; the lanes where it fails
// leave the loop.
template <class Backend, class Mask, class Var>
inline Mask ControlWalk<Backend, Mask, Var>::head(StmtId id, const Stmt& s, Mask in, Var& exits) {
  if (has_memory(id)) be().memory(id, in);  // the condition's loads
  const Mask stay = s.value != kNone ? be().condition(s.value, in) : in;
  be().count_loop_head(id, in, stay, be().divergent(in, stay));
  be().or_into(exits, be().and_not(in, stay));
  return stay;
}

template <class Backend, class Mask, class Var>
Mask ControlWalk<Backend, Mask, Var>::loop_iteration(StmtId id, const Stmt& s, std::size_t frame, Mask in,
                                                     Var& exits) {
  const bool check_first = s.loop_kind != LoopKind::Do;
  auto lanes = be().sequence(in);
  if (check_first && !lanes.go_on(head(id, s, in, exits))) return lanes.end();
  be().set(frames_[frame].broken, be().zero());
  be().set(frames_[frame].continued, be().zero());
  Mask after = lanes.now();
  if (stmt(s.body).kind == StmtKind::Work)
    work(s.body, after);
  else
    after = exec(s.body, after);
  // Lanes that continued rejoin before the step; those that broke leave.
  after = be().or_(after, be().get(frames_[frame].continued));
  be().or_into(exits, be().get(frames_[frame].broken));
  if (!lanes.go_on(after)) return lanes.end();
  if (s.step != kNone) {
    const Stmt& step = stmt(s.step);
    const bool plain = step.kind == StmtKind::Assign;  // `++i`: no call to exec
    if (!lanes.go_on(plain ? assign(s.step, step, after) : exec(s.step, after))) return lanes.end();
  }
  if (!check_first) lanes.go_on(head(id, s, lanes.now(), exits));
  return lanes.end();
}

// A switch: each lane's entry point (a case's child, the default's, or past the end), one count
// (divergent when the lanes enter at more than one point), then the children in order, lanes
// falling through from one to the next, joined by those entering there; break leaves.
template <class Backend, class Mask, class Var>
Mask ControlWalk<Backend, Mask, Var>::switch_(StmtId id, const Stmt& s, Mask active) {
  if (has_memory(id)) be().memory(id, active);
  const auto value = be().switch_value(s.value, active);
  const std::size_t n = s.children.size();
  std::vector<Mask> entry(n + 1, be().zero());
  Mask matched = be().zero();
  for (const SwitchCase& c : s.cases) {
    const Mask m = be().case_lanes(value, s.value, c.value, active);
    entry[static_cast<std::size_t>(c.child)] = be().or_(entry[static_cast<std::size_t>(c.child)], m);
    matched = be().or_(matched, m);
  }
  const std::size_t fallback = s.default_child != kNone ? static_cast<std::size_t>(s.default_child) : n;
  entry[fallback] = be().or_(entry[fallback], be().and_not(active, matched));
  be().count_branch(id, active, matched, be().several(entry));
  Frame f{FrameKind::Switch};
  f.broken = be().variable(be().zero());
  frames_.push_back(f);
  const std::size_t frame = frames_.size() - 1;
  Var running = be().variable(be().zero());
  for (std::size_t i = 0; i < n; ++i) {
    be().or_into(running, entry[i]);
    const Mask now = be().get(running);
    be().set(running, be().when_any(now, [&] { return exec(s.children[i], now); }));
  }
  const Mask out = be().or_(be().or_(be().get(running), entry[n]), be().get(frames_[frame].broken));
  frames_.pop_back();
  return out;
}

// A return: from the kernel, its lanes are no longer alive; from an inlined call, its value goes
// to the call's result and its lanes rejoin at the call's end.
template <class Backend, class Mask, class Var>
Mask ControlWalk<Backend, Mask, Var>::return_(StmtId id, const Stmt& s, Mask active) {
  work(id, active);
  const std::size_t call = frame_for(FrameKind::Call, FrameKind::Call);
  if (call == frames_.size()) {
    be().exit_kernel(active);
    return be().zero();
  }
  if (s.value != kNone && plan_.skip_value[static_cast<std::size_t>(id)] == 0)
    be().assign(frames_[call].result, s.value, active);
  be().or_into(frames_[call].returned, active);
  return be().zero();
}

template <class Backend, class Mask, class Var>
Mask ControlWalk<Backend, Mask, Var>::inlined_call(StmtId id, const Stmt& s, Mask active) {
  be().count(id, active);
  Frame f{FrameKind::Call};
  f.result = s.local;
  f.returned = be().variable(be().zero());
  frames_.push_back(f);
  const Mask fell_off = exec(s.body, active);  // before the returned lanes are read
  const Mask out = be().or_(fell_off, be().get(frames_.back().returned));
  frames_.pop_back();
  return out;
}

// The mask primitives of a backend that runs the walk itself over LaneMask values (the
// interpreter, a test's): plain values, "only where a lane runs" an `if`. It adds the loop's
// hooks (repeat) and the leaves.
template <class Backend>
class LaneMaskWalk : public ControlWalk<Backend, LaneMask, LaneMask> {
 public:
  static LaneMask zero() { return 0; }
  static LaneMask or_(LaneMask a, LaneMask b) { return a | b; }
  static LaneMask and_not(LaneMask a, LaneMask b) { return a & ~b; }
  static LaneMask variable(LaneMask m) { return m; }
  static LaneMask get(LaneMask v) { return v; }
  static void set(LaneMask& v, LaneMask m) { v = m; }
  static void or_into(LaneMask& v, LaneMask m) { v |= m; }
  static bool divergent(LaneMask active, LaneMask taken) { return taken != 0 && taken != active; }
  static bool several(const std::vector<LaneMask>& masks) {
    int points = 0;
    for (LaneMask m : masks) points += m != 0;
    return points > 1;
  }
  template <class F>
  static LaneMask when_any(LaneMask m, F&& f) {
    return m != 0 ? f() : 0;
  }
  struct Lanes {  // a sequence's lanes left
    LaneMask left;
    LaneMask now() const { return left; }
    bool go_on(LaneMask m) {
      left = m;
      return m != 0;
    }
    LaneMask end() const { return left; }
  };
  static Lanes sequence(LaneMask m) { return Lanes{m}; }

 protected:
  explicit LaneMaskWalk(const LaunchPlan& plan) : ControlWalk<Backend, LaneMask, LaneMask>(plan) {}
};

}  // namespace warpdiv::sim::ir::detail
