#include "sim/model/ir_fold.hpp"

#include "sim/model/ir_ops.hpp"

namespace warpdiv::sim::ir {

namespace {

class Fold {
 public:
  Fold(const Kernel& k, const FoldLeaf& leaf, const FoldRules& rules, FoldFault* fault)
      : k_(k), leaf_(leaf), rules_(rules), fault_(fault) {}

  std::optional<Value> at(ExprId id, int depth) {
    if (id < 0 || static_cast<std::size_t>(id) >= k_.exprs.size())
      return fail(id, "expression " + std::to_string(id) + " does not exist", true);
    if (depth > rules_.max_depth) return std::nullopt;
    const Expr& x = k_.exprs[static_cast<std::size_t>(id)];
    for (int i = 0; i < 3; ++i)
      if (x.operands[i] != kNone && (x.operands[i] < 0 || x.operands[i] >= id))
        return fail(id, "expression " + std::to_string(id) + ": bad operand", true);
    const auto of = [&](int n) { return at(x.operands[n], depth + 1); };
    bool fault = false;
    std::uint64_t bits = 0;
    switch (x.kind) {
      case ExprKind::Constant:
        return Value{x.type, x.constant};
      case ExprKind::Select:
        return select(x, depth);
      case ExprKind::Logical: {
        const std::optional<Value> left = of(0);
        if (!left) return std::nullopt;
        if ((x.logical_op == LogicalOp::And) == (left->bits == 0))
          return Value{ScalarType::Bool, left->bits != 0};
        const std::optional<Value> right = of(1);
        if (!right) return std::nullopt;
        return Value{ScalarType::Bool, right->bits != 0 ? 1u : 0u};
      }
      case ExprKind::Cast: {
        const std::optional<Value> a = of(0);
        if (!a) return std::nullopt;
        bits = ops::convert(a->type, x.type, a->bits, fault);
        if (fault) return fail(id, ops::describe_conversion_fault(a->type, x.type, a->bits));
        break;
      }
      case ExprKind::Unary: {
        const std::optional<Value> a = of(0);
        if (!a) return std::nullopt;
        bits = ops::unary_fn(x.unary_op, a->type)(a->bits, fault);
        if (fault) return fail(id, ops::describe_fault(x.unary_op, a->type));
        break;
      }
      case ExprKind::Binary:
        return binary(id, x, depth);
      case ExprKind::Intrinsic: {
        if (!rules_.intrinsics) return std::nullopt;
        std::uint64_t v[3] = {0, 0, 0};
        for (int i = 0; i < operand_count(x.intrinsic); ++i) {
          const std::optional<Value> a = of(i);
          if (!a) return std::nullopt;
          v[i] = a->bits;
        }
        bits = ops::intrinsic(x.intrinsic, x.type, v[0], v[1], v[2]);
        break;
      }
      default:
        return leaf_(id, depth);
    }
    return Value{x.type, bits};
  }

 private:
  std::optional<Value> fail(ExprId id, std::string what, bool model_invalid = false) {
    if (fault_ != nullptr && fault_->expr == kNone) *fault_ = FoldFault{id, std::move(what), model_invalid};
    return std::nullopt;
  }

  std::optional<Value> select(const Expr& x, int depth) {
    const std::optional<Value> c = at(x.operands[0], depth + 1);
    if (c) return at(x.operands[c->bits != 0 ? 1 : 2], depth + 1);
    if (!rules_.identities) return std::nullopt;
    const std::optional<Value> a = at(x.operands[1], depth + 1), b = at(x.operands[2], depth + 1);
    if (a && b && *a == *b) return a;
    return std::nullopt;
  }

  std::optional<Value> binary(ExprId id, const Expr& x, int depth) {
    const std::optional<Value> a = at(x.operands[0], depth + 1);
    if (!a && fault_ != nullptr && fault_->expr != kNone) return std::nullopt;  // the left one's comes first
    const std::optional<Value> b = at(x.operands[1], depth + 1);
    if (rules_.identities && !is_floating(x.type)) {
      const bool absorbs = (x.binary_op == BinaryOp::Mul || x.binary_op == BinaryOp::BitAnd) &&
                           ((a && a->bits == 0) || (b && b->bits == 0));
      if (absorbs) return Value{x.type, 0};
      if ((!a || !b) && same_leaf(x.operands[0], x.operands[1])) {
        if (x.binary_op == BinaryOp::Div) return Value{x.type, 1};
        if (x.binary_op == BinaryOp::Sub || x.binary_op == BinaryOp::Rem || x.binary_op == BinaryOp::BitXor)
          return Value{x.type, 0};
      }
    }
    if (!a || !b) return std::nullopt;
    bool fault = false;
    const std::uint64_t bits = ops::binary_fn(x.binary_op, a->type)(a->bits, b->bits, fault);
    if (fault) return fail(id, ops::describe_fault(x.binary_op, a->type, a->bits, b->bits));
    return Value{x.type, bits};
  }

  // Two reads of one value: the same parameter, built-in, or local (read in one expression).
  bool same_leaf(ExprId a, ExprId b) const {
    const Expr& x = k_.exprs[static_cast<std::size_t>(a)];
    const Expr& y = k_.exprs[static_cast<std::size_t>(b)];
    if (x.kind != y.kind || x.type != y.type) return false;
    if (x.kind == ExprKind::Param || x.kind == ExprKind::Local) return x.index == y.index;
    return x.kind == ExprKind::Builtin && x.builtin == y.builtin;
  }

  const Kernel& k_;
  const FoldLeaf& leaf_;
  const FoldRules& rules_;
  FoldFault* fault_;
};

}  // namespace

std::optional<Value> fold(const Kernel& k, ExprId e, const FoldLeaf& leaf, const FoldRules& rules,
                          FoldFault* fault, int depth) {
  return Fold(k, leaf, rules, fault).at(e, depth);
}

}  // namespace warpdiv::sim::ir
