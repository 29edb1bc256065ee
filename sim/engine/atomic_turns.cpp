#include "sim/engine/atomic_turns.hpp"

#include <algorithm>
#include <optional>

#include "sim/model/ir_ops.hpp"

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
    if (e == kNone || depth > kMaxDepth) return std::nullopt;
    const Expr& x = k_.exprs[static_cast<std::size_t>(e)];
    const auto of = [&](int n) { return value(x.operands[n], at, depth + 1); };
    bool fault = false;
    std::uint64_t r = 0;
    switch (x.kind) {
      case ExprKind::Constant:
        return x.constant;
      case ExprKind::Local: {
        const auto [definition, where] = reaching(x.index, at);
        return value(definition, where, depth + 1);
      }
      case ExprKind::Select: {
        const std::optional<std::uint64_t> c = of(0), a = of(1), b = of(2);
        if (c) return *c != 0 ? a : b;
        if (a && b && *a == *b) return a;
        return std::nullopt;
      }
      case ExprKind::Cast: {
        const std::optional<std::uint64_t> a = of(0);
        if (!a) return std::nullopt;
        r = ops::convert(type_of(x.operands[0]), x.type, *a, fault);
        break;
      }
      case ExprKind::Unary: {
        const std::optional<std::uint64_t> a = of(0);
        if (!a) return std::nullopt;
        r = ops::unary_fn(x.unary_op, type_of(x.operands[0]))(*a, fault);
        break;
      }
      case ExprKind::Binary: {
        const std::optional<std::uint64_t> a = of(0), b = of(1);
        const bool absorbs = (x.binary_op == BinaryOp::Mul || x.binary_op == BinaryOp::BitAnd) &&
                             !is_floating(x.type) && ((a && *a == 0) || (b && *b == 0));
        if (absorbs) return std::uint64_t{0};  // x * 0 and x & 0, whatever x
        if ((!a || !b) && !is_floating(x.type) && same_leaf(x.operands[0], x.operands[1])) {
          // x / x is 1 (x = 0 is undefined), x - x, x % x and x ^ x are 0, whatever x
          if (x.binary_op == BinaryOp::Div) return std::uint64_t{1};
          if (x.binary_op == BinaryOp::Sub || x.binary_op == BinaryOp::Rem || x.binary_op == BinaryOp::BitXor)
            return std::uint64_t{0};
        }
        if (!a || !b) return std::nullopt;
        r = ops::binary_fn(x.binary_op, type_of(x.operands[0]))(*a, *b, fault);
        break;
      }
      default:
        return std::nullopt;
    }
    if (fault) return std::nullopt;
    return r;
  }

 private:
  ScalarType type_of(ExprId e) const { return k_.exprs[static_cast<std::size_t>(e)].type; }

  // Two reads of one value: the same parameter, built-in, or local (read in one expression).
  bool same_leaf(ExprId a, ExprId b) const {
    const Expr& x = k_.exprs[static_cast<std::size_t>(a)];
    const Expr& y = k_.exprs[static_cast<std::size_t>(b)];
    if (x.kind != y.kind || x.type != y.type) return false;
    if (x.kind == ExprKind::Param || x.kind == ExprKind::Local) return x.index == y.index;
    return x.kind == ExprKind::Builtin && x.builtin == y.builtin;
  }

  bool writes(StmtId s, LocalId local) const {
    const std::vector<LocalId> written = locals_written(k_, {s});
    return std::find(written.begin(), written.end(), local) != written.end();
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
