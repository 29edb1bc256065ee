#include "sim/engine/atomic_turns.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>

#include "sim/model/ir_fold.hpp"

namespace warpdiv::sim::ir::detail {

namespace {

constexpr int kMaxDepth = 16;

// The values nvcc folds to a constant (the header's list), as the bits of their type.
class Folder {
 public:
  explicit Folder(const Kernel& k)
      : k_(k), parent_(k.stmts.size(), kNone), set_once_(k.locals.size(), kNone) {
    std::vector<int> writes(k.locals.size(), 0);
    for (std::size_t i = 0; i < k.stmts.size(); ++i) {
      const Stmt& s = k.stmts[i];
      for (const StmtId c : s.children) parent_[static_cast<std::size_t>(c)] = static_cast<StmtId>(i);
      for (const StmtId c : {s.then_stmt, s.else_stmt, s.init, s.body, s.step})
        if (c != kNone) parent_[static_cast<std::size_t>(c)] = static_cast<StmtId>(i);
      if ((s.kind == StmtKind::Declare || s.kind == StmtKind::Assign || s.kind == StmtKind::InlinedCall) &&
          s.local != kNone) {
        ++writes[static_cast<std::size_t>(s.local)];
        set_once_[static_cast<std::size_t>(s.local)] = s.kind == StmtKind::InlinedCall ? kNone : s.value;
      }
    }
    for (std::size_t i = 0; i < writes.size(); ++i)
      if (writes[i] != 1) set_once_[i] = kNone;
  }

  // The value of `e` evaluated in statement `at`, where nvcc folds it to a constant.
  std::optional<std::uint64_t> value(ExprId e, StmtId at, int depth = 0) const {
    if (e == kNone) return std::nullopt;
    const FoldLeaf leaf = [&](ExprId id, int d) -> std::optional<Value> {
      const Expr& x = k_.exprs[static_cast<std::size_t>(id)];
      if (x.kind != ExprKind::Local) return std::nullopt;
      const auto [definition, where] = reaching(x.index, at);
      const std::optional<std::uint64_t> v = value(definition, where, d + 1);
      if (!v) return std::nullopt;
      return Value{x.type, *v};
    };
    const std::optional<Value> v = fold(k_, e, leaf, kRules, nullptr, depth);
    if (!v) return std::nullopt;
    return v->bits;
  }

 private:
  static constexpr FoldRules kRules{true, false, kMaxDepth};

  // Whether statement `s` (or one inside it) writes `local`; each statement's set is found once.
  bool writes(StmtId s, LocalId local) const {
    auto found = written_.find(s);
    if (found == written_.end()) {
      std::vector<LocalId> written = locals_written(k_, {s});
      std::sort(written.begin(), written.end());
      found = written_.emplace(s, std::move(written)).first;
    }
    return std::binary_search(found->second.begin(), found->second.end(), local);
  }

  // The value `local` holds in statement `at` and the statement that gave it: the last
  // Declare or Assign before `at` in a block around it, with no write between and none in a loop
  // around `at` inside that block; else its only assignment anywhere; else none.
  std::pair<ExprId, StmtId> reaching(LocalId local, StmtId at) const {
    bool loop_writes = false;
    for (StmtId inner = at, outer = parent_[static_cast<std::size_t>(at)]; outer != kNone && !loop_writes;
         inner = outer, outer = parent_[static_cast<std::size_t>(outer)]) {
      const Stmt& o = k_.stmts[static_cast<std::size_t>(outer)];
      if (o.kind == StmtKind::Loop && writes(outer, local)) loop_writes = true;
      if (o.kind != StmtKind::Block || loop_writes) continue;
      const auto here = std::find(o.children.begin(), o.children.end(), inner);
      for (auto c = here; c != o.children.begin();) {
        const Stmt& s = k_.stmts[static_cast<std::size_t>(*--c)];
        if (!writes(*c, local)) continue;
        if ((s.kind == StmtKind::Declare || s.kind == StmtKind::Assign) && s.local == local)
          return {s.value, *c};
        return {set_once_[static_cast<std::size_t>(local)], at};
      }
    }
    return {set_once_[static_cast<std::size_t>(local)], at};
  }

  const Kernel& k_;
  std::vector<StmtId> parent_;
  std::vector<ExprId> set_once_;
  mutable std::unordered_map<StmtId, std::vector<LocalId>> written_;
};

int turns_of(const Kernel& k, const Folder& folder, const MemoryAccess& a, StmtId at, bool result_used) {
  if (a.space != AddressSpace::Shared || a.kind != AccessKind::Atomic || a.width != 4 || a.value == kNone ||
      (is_floating(k.exprs[static_cast<std::size_t>(a.value)].type) && a.atomic != AtomicOp::Exch))
    return 0;
  if (a.atomic == AtomicOp::Cas) return 2;
  if (a.atomic == AtomicOp::Other) return 0;
  const bool counts_up = a.atomic == AtomicOp::Add || a.atomic == AtomicOp::Sub || a.atomic == AtomicOp::Inc;
  if (result_used || !counts_up) return 1;
  const std::optional<std::uint64_t> v = folder.value(a.value, at);
  // atomicSub(p, -1) adds 1; atomicInc(p, 0xffffffff) adds 1, wrapping as an add does.
  const std::uint32_t one = a.atomic == AtomicOp::Add ? 1u : 0xffffffffu;
  return v && static_cast<std::uint32_t>(*v) == one ? 0 : 1;
}

}  // namespace

std::vector<int> shared_atomic_turns(const Kernel& k) {
  // [access]: an atomic whose result is read where the value matters (not by dead code only)
  std::vector<bool> results_used(k.accesses.size(), false);
  const std::vector<bool> live = live_values(k);
  for (std::size_t i = 0; i < k.exprs.size(); ++i)
    if (k.exprs[i].kind == ExprKind::Opaque && k.exprs[i].access != kNone && live[i])
      results_used[static_cast<std::size_t>(k.exprs[i].access)] = true;
  const Folder folder(k);
  std::vector<int> turns(k.accesses.size(), 0);
  for (std::size_t s = 0; s < k.stmts.size(); ++s)
    for (const std::int32_t a : k.stmts[s].accesses)
      turns[static_cast<std::size_t>(a)] =
          turns_of(k, folder, k.accesses[static_cast<std::size_t>(a)], static_cast<StmtId>(s),
                   results_used[static_cast<std::size_t>(a)]);
  return turns;
}

}  // namespace warpdiv::sim::ir::detail
