#include "sim/memory/shared_phases.hpp"

#include <cstddef>

namespace warpdiv::sim::ir {

namespace {

// A set of phases, each named by the barrier that opens it (bit 0: the kernel's start; bit 1 + i:
// the i-th Barrier statement).
struct Phases {
  std::vector<std::uint64_t> words;

  static Phases of(std::size_t count) { return Phases{std::vector<std::uint64_t>((count + 63) / 64, 0)}; }
  Phases none() const { return Phases{std::vector<std::uint64_t>(words.size(), 0)}; }
  void add(std::size_t bit) { words[bit / 64] |= std::uint64_t{1} << (bit % 64); }
  void join(const Phases& o) {
    for (std::size_t i = 0; i < words.size(); ++i) words[i] |= o.words[i];
  }
  bool meets(const Phases& o) const {
    for (std::size_t i = 0; i < words.size(); ++i)
      if ((words[i] & o.words[i]) != 0) return true;
    return false;
  }
  bool operator==(const Phases& o) const { return words == o.words; }
};

// Where break, continue and return take the phases reaching them.
struct Exit {
  enum Kind { Loop, Switch, Call } kind;
  Phases broken, continued, returned;
};

// Walks the statements forward, the phases reaching each point (those whose barrier some path
// reaches it from without another barrier), and gathers each access's phases.
class PhaseWalk {
 public:
  explicit PhaseWalk(const Kernel& k) : k_(k), bit_(k.stmts.size(), 0), at_(k.accesses.size()) {
    for (std::size_t s = 0; s < k.stmts.size(); ++s)
      if (k.stmts[s].kind == StmtKind::Barrier) bit_[s] = bits_++;
    for (Phases& p : at_) p = Phases::of(bits_);
  }

  std::vector<Phases> run() {
    Phases start = Phases::of(bits_);
    start.add(0);
    walk(k_.root, start);
    return at_;
  }

 private:
  const Stmt& stmt(StmtId s) const { return k_.stmts[static_cast<std::size_t>(s)]; }

  void reach(const Stmt& s, const Phases& in) {
    for (const std::int32_t a : s.accesses) at_[static_cast<std::size_t>(a)].join(in);
  }

  Phases walk(StmtId id, Phases in) {
    if (id == kNone) return in;
    const Stmt& s = stmt(id);
    switch (s.kind) {
      case StmtKind::Block:
        for (const StmtId c : s.children) in = walk(c, std::move(in));
        return in;
      case StmtKind::Barrier: {
        reach(s, in);
        Phases out = in.none();
        out.add(bit_[static_cast<std::size_t>(id)]);
        return out;
      }
      case StmtKind::If: {
        reach(s, in);
        Phases out = walk(s.then_stmt, in);
        out.join(walk(s.else_stmt, in));
        return out;
      }
      case StmtKind::Loop:
        return loop(s, std::move(in));
      case StmtKind::Switch:
        return switch_(s, std::move(in));
      case StmtKind::InlinedCall: {
        exits_.push_back(Exit{Exit::Call, in.none(), in.none(), in.none()});
        Phases out = walk(s.body, in);
        out.join(exits_.back().returned);
        exits_.pop_back();
        return out;
      }
      case StmtKind::Break:
      case StmtKind::Continue:
      case StmtKind::Return:
        reach(s, in);
        leave(s.kind, in);
        return in.none();
      default:  // Declare, Assign, Work
        reach(s, in);
        return in;
    }
  }

  // break: the innermost loop or switch; continue: the innermost loop; return: the innermost
  // inlined call, or the kernel's end (the thread's phases end there).
  void leave(StmtKind kind, const Phases& in) {
    for (auto e = exits_.rbegin(); e != exits_.rend(); ++e) {
      if (kind == StmtKind::Break && e->kind != Exit::Call) return e->broken.join(in);
      if (kind == StmtKind::Continue && e->kind == Exit::Loop) return e->continued.join(in);
      if (kind == StmtKind::Return && e->kind == Exit::Call) return e->returned.join(in);
    }
  }

  // init; then, until the phases at the head settle: the condition (before the body, or after the
  // step for a do), the body, the step, and back.
  Phases loop(const Stmt& s, Phases in) {
    Phases head = walk(s.init, std::move(in));
    const bool tested_first = s.loop_kind != LoopKind::Do;
    for (;;) {
      if (tested_first) reach(s, head);
      exits_.push_back(Exit{Exit::Loop, head.none(), head.none(), head.none()});
      Phases end = walk(s.body, head);
      end.join(exits_.back().continued);
      end = walk(s.step, std::move(end));
      if (!tested_first) reach(s, end);
      Phases broken = std::move(exits_.back().broken);
      exits_.pop_back();
      Phases next = head;
      next.join(end);
      if (next == head) {
        // Leaving: the condition false (where it is tested) or a break.
        Phases out = s.value == kNone ? head.none() : (tested_first ? head : end);
        out.join(broken);
        return out;
      }
      head = std::move(next);
    }
  }

  // Each case entered from the condition or by falling through from the one before; the end by
  // falling out of the last, by a break, or when no label matches.
  Phases switch_(const Stmt& s, Phases in) {
    reach(s, in);
    exits_.push_back(Exit{Exit::Switch, in.none(), in.none(), in.none()});
    std::vector<bool> labelled(s.children.size() + 1, false);
    for (const SwitchCase& c : s.cases) labelled[static_cast<std::size_t>(c.child)] = true;
    if (s.default_child != kNone) labelled[static_cast<std::size_t>(s.default_child)] = true;
    Phases through = in.none();
    for (std::size_t c = 0; c < s.children.size(); ++c) {
      if (labelled[c]) through.join(in);
      through = walk(s.children[c], std::move(through));
    }
    if (labelled[s.children.size()]) through.join(in);  // a label after the last statement
    Phases out = std::move(through);
    out.join(exits_.back().broken);
    exits_.pop_back();
    if (s.default_child == kNone) out.join(in);
    return out;
  }

  const Kernel& k_;
  std::size_t bits_ = 1;          // phases: the kernel's start (bit 0) and each barrier
  std::vector<std::size_t> bit_;  // [statement] a barrier's phase bit
  std::vector<Phases> at_;        // [access] the phases it may run in
  std::vector<Exit> exits_;
};

// Atomics do not race with atomics, nor loads with loads.
bool conflicting_kinds(AccessKind a, AccessKind b) {
  if (a == AccessKind::Load) return b != AccessKind::Load;
  if (a == AccessKind::Atomic) return b != AccessKind::Atomic;
  return true;
}

}  // namespace

std::int32_t shared_array(const Kernel& k, std::int32_t base) {
  if (base == kNone) return kNone;
  return k.bases[static_cast<std::size_t>(base)].bytes == 0 ? static_cast<std::int32_t>(k.bases.size())
                                                            : base;
}

std::vector<std::pair<std::int32_t, std::int32_t>> concurrent_shared_conflicts(const Kernel& kernel) {
  std::vector<std::int32_t> shared;
  for (std::size_t a = 0; a < kernel.accesses.size(); ++a)
    if (kernel.accesses[a].space == AddressSpace::Shared) shared.push_back(static_cast<std::int32_t>(a));
  std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
  if (shared.size() < 2 || kernel.root == kNone) return pairs;
  const std::vector<Phases> at = PhaseWalk(kernel).run();
  for (std::size_t i = 0; i < shared.size(); ++i)
    for (std::size_t j = i; j < shared.size(); ++j) {
      const MemoryAccess& a = kernel.accesses[static_cast<std::size_t>(shared[i])];
      const MemoryAccess& b = kernel.accesses[static_cast<std::size_t>(shared[j])];
      const std::int32_t x = shared_array(kernel, a.base), y = shared_array(kernel, b.base);
      if (x != kNone && y != kNone && x != y) continue;
      if (!conflicting_kinds(a.kind, b.kind) || (i == j && a.kind != AccessKind::Store)) continue;
      if (at[static_cast<std::size_t>(shared[i])].meets(at[static_cast<std::size_t>(shared[j])]))
        pairs.emplace_back(shared[i], shared[j]);
    }
  return pairs;
}

}  // namespace warpdiv::sim::ir
