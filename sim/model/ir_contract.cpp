#include "sim/model/ir_contract.hpp"

#include "sim/support/errors.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace warpdiv::sim::ir {

namespace {

using Key = std::vector<std::int64_t>;

// Whether `id` is computed from constants alone, which the compiler folds (2.0f * 3.0f).
bool folded(const Kernel& k, ExprId id) {
  const Expr& e = k.exprs[static_cast<std::size_t>(id)];
  if (e.kind == ExprKind::Constant) return true;
  if (e.kind != ExprKind::Cast && e.kind != ExprKind::Unary && e.kind != ExprKind::Binary) return false;
  for (const ExprId op : e.operands)
    if (op != kNone && !folded(k, op)) return false;
  return true;
}

// A floating-point multiply the GPU computes: not one of two constants, which the compiler folds.
bool is_product(const Kernel& k, const Expr& e) {
  return e.kind == ExprKind::Binary && e.binary_op == BinaryOp::Mul && is_floating(e.type) &&
         !(folded(k, e.operands[0]) && folded(k, e.operands[1]));
}
bool is_sum(const Expr& e) {
  return e.kind == ExprKind::Binary && (e.binary_op == BinaryOp::Add || e.binary_op == BinaryOp::Sub) &&
         is_floating(e.type);
}

// Whether `id` is the floating-point constant 1.0 or -1.0 of type `type` (the sign in
// `negative`), written as a literal or a negated one (`-1.0f` is a negation of 1.0f).
bool unit(const Kernel& k, ExprId id, ScalarType type, bool& negative) {
  const Expr& e = k.exprs[static_cast<std::size_t>(id)];
  if (e.type != type) return false;
  if (e.kind == ExprKind::Unary && e.unary_op == UnaryOp::Neg) {
    if (!unit(k, e.operands[0], type, negative)) return false;
    negative = !negative;
    return true;
  }
  if (e.kind != ExprKind::Constant) return false;
  const std::uint64_t magnitude = type == ScalarType::F32 ? 0x3f800000u : 0x3ff0000000000000u;
  const std::uint64_t sign = type == ScalarType::F32 ? 0x80000000u : 0x8000000000000000u;
  if (e.constant != magnitude && e.constant != (magnitude | sign)) return false;
  negative = e.constant != magnitude;
  return true;
}

// A product under a sign: the product itself, its negation `-(p)`, and `p * 1.0`, `p * -1.0`
// (either side), `p / 1.0`, `p / -1.0`, `p - 0.0` (zero_operand), which LLVM folds to p and -p
// before the contraction:
// nvcc contracts each as it contracts p, the negation going into the FMA (measured:
// `-(a * 10.0f) + x`, `x + -(a * 10.0f)`, `a * 10.0f * 1.0f - x` are one FFMA on sm_90, as
// `x - a * 10.0f` is).
struct SignedProduct {
  ExprId product = kNone;  // the innermost product; kNone: `e` is none of these
  bool negated = false;
};

// The operand of a sign around a product (a negation, a multiply or divide by 1 or -1) that
// holds it, and whether the sign negates; kNone where `e` is no such sign.
// Whether `id` is a floating-point zero of type `type` (its sign in `negative`): a literal, a
// negated one (`-0.0f`), an integer 0 converted.
bool zero(const Kernel& k, ExprId id, ScalarType type, bool& negative) {
  const Expr& e = k.exprs[static_cast<std::size_t>(id)];
  if (e.type != type) return false;
  if (e.kind == ExprKind::Unary && e.unary_op == UnaryOp::Neg) {
    if (!zero(k, e.operands[0], type, negative)) return false;
    negative = !negative;
    return true;
  }
  if (e.kind == ExprKind::Cast) {
    const Expr& from = k.exprs[static_cast<std::size_t>(e.operands[0])];
    negative = false;
    return from.kind == ExprKind::Constant && !is_floating(from.type) && from.constant == 0;
  }
  const std::uint64_t sign = type == ScalarType::F32 ? 0x80000000u : 0x8000000000000000u;
  negative = e.constant == sign;
  return e.kind == ExprKind::Constant && (e.constant == 0 || e.constant == sign);
}

// `p - 0.0`, `p + -0.0`, `-0.0 + p` are p and `-0.0 - p` is -p, exactly (LLVM folds them; not
// `p + 0.0` or `0.0 - p`, which differ from p and -p at a zero p): the operand p, or kNone.
ExprId zero_operand(const Kernel& k, const Expr& e, bool& negates) {
  const bool add = e.kind == ExprKind::Binary && e.binary_op == BinaryOp::Add && is_floating(e.type);
  const bool sub = e.kind == ExprKind::Binary && e.binary_op == BinaryOp::Sub && is_floating(e.type);
  if (!add && !sub) return kNone;
  bool negative = false;
  negates = false;
  if (zero(k, e.operands[1], e.type, negative) && negative == add) return e.operands[0];
  if (zero(k, e.operands[0], e.type, negative) && negative) {
    negates = sub;
    return e.operands[1];
  }
  return kNone;
}

ExprId sign_operand(const Kernel& k, const Expr& e, bool& negates) {
  if (const ExprId p = zero_operand(k, e, negates); p != kNone) return p;
  negates = true;
  if (e.kind == ExprKind::Unary && e.unary_op == UnaryOp::Neg && is_floating(e.type)) return e.operands[0];
  const bool mul = e.kind == ExprKind::Binary && e.binary_op == BinaryOp::Mul && is_floating(e.type);
  const bool div = e.kind == ExprKind::Binary && e.binary_op == BinaryOp::Div && is_floating(e.type);
  if (!mul && !div) return kNone;
  if (unit(k, e.operands[1], e.type, negates)) return e.operands[0];
  if (mul && unit(k, e.operands[0], e.type, negates)) return e.operands[1];
  return kNone;
}

SignedProduct signed_product(const Kernel& k, ExprId id) {
  const Expr& e = k.exprs[static_cast<std::size_t>(id)];
  bool negates = false;
  const ExprId inner = sign_operand(k, e, negates);
  if (inner != kNone) {
    SignedProduct s = signed_product(k, inner);
    if (s.product != kNone && k.exprs[static_cast<std::size_t>(s.product)].type == e.type) {
      s.negated = s.negated != negates;
      return s;
    }
    return SignedProduct{};  // `1.0f * z` is z (folded): no product of this type
  }
  return is_product(k, e) ? SignedProduct{id, false} : SignedProduct{};
}

// A product that may contract into the sum that uses it.
struct Candidate {
  ExprId product = kNone;  // the Mul expression (through a local: the one the local was given)
  ExprId wrapper = kNone;  // the sum's operand around it (a negation, a multiply by 1 or -1)
  bool negated = false;    // the sum adds or subtracts -product
  int value = -1;          // its value number
  bool through_local = false;
  bool reevaluable = true;  // through a local: its operands still hold the values they had
};

struct SumSite {
  ExprId sum = kNone;
  Candidate side[2];
};

// What a local's version was given: a product's value (negated: the product under a sign).
struct ProductDefinition {
  int value = -1;
  ExprId product = kNone;
  bool negated = false;
};

class Contractor {
 public:
  explicit Contractor(Kernel& k)
      : k_(k),
        version_(k.locals.size(), 0),
        value_(k.exprs.size(), -1),
        read_version_(k.exprs.size(), 0),
        live_(live_values(k)) {}

  ContractionResult run() {
    if (k_.root != kNone) {
      push_scope();
      walk(k_.root);
      pop_scope();
    }
    ContractionResult result;
    for (const SumSite& site : sites_) decide(site, result);
    if (cloned_) renumber(result);
    return result;
  }

 private:
  // ---- Value numbering, scoped by dominance.
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() {
    for (const Key& key : scopes_.back()) table_[key].pop_back();
    scopes_.pop_back();
  }
  int new_value() {
    uses_.push_back(0);
    sum_uses_.push_back(0);
    return static_cast<int>(uses_.size()) - 1;
  }
  // Constants, parameters, built-ins and a local's version: the same value wherever they are read.
  int leaf(const Key& key) {
    const auto found = leaves_.find(key);
    if (found != leaves_.end()) return found->second;
    const int v = new_value();
    leaves_.emplace(key, v);
    return v;
  }
  int number(const Key& key, bool available) {
    auto& entries = table_[key];
    if (!entries.empty()) return entries.back();
    const int v = new_value();
    if (available) {
      entries.push_back(v);
      scopes_.back().push_back(key);
    }
    return v;
  }

  // `q = p` where p holds a product: in SSA form a copy is no use at all (measured: the sums of
  // both p and q contract), so q's new version holds the same product and the read is not
  // counted.
  bool copies_product(LocalId local, ExprId value) {
    // Under a sign too (`r = -p`, `r = p * 1.0f`): the copy holds the product so signed.
    bool negated = false;
    for (bool negates = false; sign_operand(k_, k_.exprs[value], negates) != kNone;) {
      value = sign_operand(k_, k_.exprs[value], negates);
      negated = negated != negates;
    }
    const Expr& e = k_.exprs[value];
    if (e.kind != ExprKind::Local || e.type != k_.locals[static_cast<std::size_t>(local)].type) return false;
    const auto found = definitions_.find({e.index, read_version_[value]});
    if (found == definitions_.end()) return false;
    ProductDefinition copy = found->second;
    copy.negated = copy.negated != negated;
    --uses_[static_cast<std::size_t>(copy.value)];
    const std::uint32_t v = ++next_version_;
    version_[static_cast<std::size_t>(local)] = v;
    definitions_[{local, v}] = copy;
    return true;
  }

  // The locals the statements write get new versions: values merged after a branch or a loop.
  void renew(const std::vector<StmtId>& statements) {
    for (LocalId l : locals_written(k_, statements)) version_[static_cast<std::size_t>(l)] = ++next_version_;
  }
  void assign(LocalId local, int value, ExprId expr) {
    const std::uint32_t v = ++next_version_;
    version_[static_cast<std::size_t>(local)] = v;
    if (value < 0 || expr == kNone) return;
    const SignedProduct p = signed_product(k_, expr);
    if (p.product == kNone) return;
    const int product = value_[static_cast<std::size_t>(p.product)];
    // The sign around the product used it once: the local's readers are its uses.
    if (p.product != expr) --uses_[static_cast<std::size_t>(product)];
    definitions_[{local, v}] = ProductDefinition{product, p.product, p.negated};
  }

  // ---- Statements.
  void walk(StmtId id) {
    if (id == kNone) return;
    const Stmt& s = k_.stmts[id];
    switch (s.kind) {
      case StmtKind::Block:
        for (StmtId c : s.children) walk(c);
        break;
      case StmtKind::Declare:
      case StmtKind::Assign: {
        store_values(s);  // `out[i] = (int)p` as a value: the store is a use even where the value is not
        if (s.value != kNone && !live_[static_cast<std::size_t>(s.value)]) {
          assign(s.local, -1, kNone);  // dead code, which nvcc deletes: no use of what it reads
          break;
        }
        const int value = s.value != kNone ? expr(s.value, true) : -1;
        if (s.value != kNone && copies_product(s.local, s.value)) break;
        assign(s.local, value, s.value);
        break;
      }
      case StmtKind::Work:
        store_values(s);
        break;
      case StmtKind::Return:
        if (s.value != kNone) {
          const int value = expr(s.value, true);
          if (!calls_.empty() && calls_.back() != kNone && !copies_product(calls_.back(), s.value))
            assign(calls_.back(), value, s.value);
        }
        break;
      case StmtKind::If:
        walk_if(id, s);
        break;
      case StmtKind::Loop:
        walk_loop(s);
        break;
      case StmtKind::Switch: {
        expr(s.value, true);
        push_scope();
        for (StmtId c : s.children) walk(c);
        pop_scope();
        renew({id});
        break;
      }
      case StmtKind::InlinedCall: {
        calls_.push_back(s.local);
        walk(s.body);
        calls_.pop_back();
        // One return at the end of a straight body: the result is that value; else a merge.
        if (s.local != kNone && !single_final_return(s.body))
          version_[static_cast<std::size_t>(s.local)] = ++next_version_;
        break;
      }
      default:
        break;  // Break, Continue, Barrier
    }
  }

  bool single_final_return(StmtId body) const {
    int returns = 0;
    count_returns(body, returns);
    if (returns != 1 || body == kNone) return false;
    // The return last in the body, or last in the block last in it (a function's own braces).
    StmtId last = body;
    while (k_.stmts[last].kind == StmtKind::Block && !k_.stmts[last].children.empty())
      last = k_.stmts[last].children.back();
    return k_.stmts[last].kind == StmtKind::Return;
  }
  void count_returns(StmtId id, int& n) const {
    if (id == kNone) return;
    const Stmt& s = k_.stmts[id];
    if (s.kind == StmtKind::Return) ++n;
    if (s.kind == StmtKind::InlinedCall) return;  // its returns are its own
    for (StmtId c : s.children) count_returns(c, n);
    count_returns(s.then_stmt, n);
    count_returns(s.else_stmt, n);
    count_returns(s.init, n);
    count_returns(s.body, n);
    count_returns(s.step, n);
  }

  void walk_if(StmtId id, const Stmt& s) {
    // The first conjunct of the condition runs always (it dominates what follows); the others
    // only on the way to the then-branch.
    std::vector<ExprId> conjuncts;
    chain(s.value, conjuncts);
    expr(conjuncts[0], true);
    push_scope();  // the then-branch's
    for (std::size_t i = 1; i < conjuncts.size(); ++i) expr(conjuncts[i], true);
    walk(s.then_stmt);
    pop_scope();
    push_scope();
    walk(s.else_stmt);
    pop_scope();
    renew({id});
  }

  void walk_loop(const Stmt& s) {
    walk(s.init);
    renew({s.body, s.step});  // values merged at the loop's head
    push_scope();
    // Every conjunct of the condition is evaluated on the way into the body: available there.
    const auto condition = [&] {
      if (s.value == kNone) return;
      std::vector<ExprId> conjuncts;
      chain(s.value, conjuncts);
      for (ExprId c : conjuncts) expr(c, true);
    };
    if (s.loop_kind == LoopKind::Do) {
      walk(s.body);
      walk(s.step);
      condition();
    } else {
      condition();
      walk(s.body);
      walk(s.step);
    }
    pop_scope();
    renew({s.body, s.step});  // the values the loop leaves
  }

  // The conjuncts of a top-level && chain, in evaluation order (the && nodes get a value of
  // their own).
  void chain(ExprId id, std::vector<ExprId>& out) {
    const Expr& e = k_.exprs[id];
    if (e.kind == ExprKind::Logical && e.logical_op == LogicalOp::And) {
      value_[id] = new_value();
      chain(e.operands[0], out);
      chain(e.operands[1], out);
      return;
    }
    out.push_back(id);
  }

  // ---- Expressions: the value number; counts uses of products.
  int expr(ExprId id, bool available) {
    const Expr& e = k_.exprs[id];
    int v = -1;
    switch (e.kind) {
      case ExprKind::Constant:
        v = leaf({0, static_cast<std::int64_t>(e.type), static_cast<std::int64_t>(e.constant)});
        break;
      case ExprKind::Param:
        v = leaf({1, e.index});
        break;
      case ExprKind::Builtin:
        v = leaf({2, static_cast<std::int64_t>(e.builtin)});
        break;
      case ExprKind::Local: {
        const std::uint32_t version = version_[static_cast<std::size_t>(e.index)];
        read_version_[id] = version;
        v = leaf({3, e.index, version});
        const auto found = definitions_.find({e.index, version});
        if (found != definitions_.end()) ++uses_[static_cast<std::size_t>(found->second.value)];
        break;
      }
      case ExprKind::Opaque:
        // What a math function reads (expf(p), fmaxf(p, d)) uses it, and not as a sum.
        for (const std::int32_t local : e.reads) {
          const auto found = definitions_.find({local, version_[static_cast<std::size_t>(local)]});
          if (found != definitions_.end()) ++uses_[static_cast<std::size_t>(found->second.value)];
        }
        v = new_value();
        break;
      case ExprKind::Logical:
      case ExprKind::Select: {
        // The first operand always runs; the others only sometimes: their values are not
        // available after the expression.
        expr(e.operands[0], available);
        use(e.operands[0]);
        push_scope();
        for (int i = 1; i < 3; ++i)
          if (e.operands[i] != kNone) {
            expr(e.operands[i], true);
            use(e.operands[i]);
          }
        pop_scope();
        v = new_value();
        break;
      }
      default: {  // Cast, Unary, Binary, Intrinsic, Warp
        Key key = {10 + static_cast<std::int64_t>(e.kind), static_cast<std::int64_t>(e.type),
                   static_cast<std::int64_t>(e.binary_op), static_cast<std::int64_t>(e.unary_op),
                   static_cast<std::int64_t>(e.intrinsic)};
        std::vector<std::int64_t> operands;
        for (ExprId op : e.operands)
          if (op != kNone) operands.push_back(expr(op, available));
        if (e.kind == ExprKind::Binary && (e.binary_op == BinaryOp::Add || e.binary_op == BinaryOp::Mul))
          std::sort(operands.begin(), operands.end());  // commutative
        key.insert(key.end(), operands.begin(), operands.end());
        for (ExprId op : e.operands)
          if (op != kNone) use(op);
        // A warp function's value depends on which lanes run it: never the same as another's.
        v = e.kind == ExprKind::Warp ? new_value() : number(key, available);
        // A sum that is only a product's sign (`p - 0.0f`) is no sum: the sum around it is.
        if (is_sum(e) && signed_product(k_, id).product == kNone) {
          count_sum_use(e.operands[0], e.type);
          count_sum_use(e.operands[1], e.type);
          site(id, e);
        }
        break;
      }
    }
    value_[id] = v;
    return v;
  }

  // A use of a product (directly, or a local holding one) as an operand of a sum of its type.
  void count_sum_use(ExprId operand, ScalarType type) {
    const Expr& o = k_.exprs[operand];
    if (o.type != type) return;
    int v = -1;
    const SignedProduct p = signed_product(k_, operand);
    if (p.product != kNone) {
      v = value_[p.product];
    } else if (o.kind == ExprKind::Local) {
      const auto found = definitions_.find({o.index, read_version_[operand]});
      if (found != definitions_.end()) v = found->second.value;
    }
    if (v >= 0) ++sum_uses_[static_cast<std::size_t>(v)];
  }

  void use(ExprId operand) {
    if (is_product(k_, k_.exprs[operand])) ++uses_[static_cast<std::size_t>(value_[operand])];
  }

  // Records a sum's candidates while the versions of the locals are those at the sum.
  void site(ExprId id, const Expr& e) {
    SumSite s;
    s.sum = id;
    for (int side = 0; side < 2; ++side) {
      const ExprId x = e.operands[side];
      const Expr& operand = k_.exprs[x];
      Candidate& c = s.side[side];
      const SignedProduct p = signed_product(k_, x);
      if (p.product != kNone && operand.type == e.type) {
        c.product = p.product;
        c.wrapper = p.product != x ? x : kNone;
        c.negated = p.negated;
        c.value = value_[p.product];
      } else if (operand.kind == ExprKind::Local) {
        const auto found = definitions_.find({operand.index, read_version_[x]});
        if (found == definitions_.end() || k_.exprs[found->second.product].type != e.type) continue;
        const ProductDefinition& d = found->second;
        c.product = d.product;
        c.negated = d.negated;
        c.value = d.value;
        c.through_local = true;
        for (int i = 0; i < 2; ++i)
          c.reevaluable = c.reevaluable && still_valid(k_.exprs[d.product].operands[i], id);
      }
    }
    sites_.push_back(s);
  }

  // The values a statement's stores write (MemoryAccess::value, a cas's compare).
  void store_values(const Stmt& s) {
    for (std::int32_t a : s.accesses) {
      const MemoryAccess& m = k_.accesses[static_cast<std::size_t>(a)];
      if (m.compare != kNone) expr(m.compare, true);
      if (m.value != kNone) {
        expr(m.value, true);
        note_local_array_product(m);
      }
    }
  }

  // A product's operand the sum can read again: a constant, parameter or built-in, or a local
  // holding the value it had then; defined before the sum (operands precede their expression).
  // An expression of such leaves (`(float)t * b`, `fabsf(a) * b`) is read again as a copy of it.
  bool still_valid(ExprId operand, ExprId sum) const {
    if (operand >= sum) return false;
    const Expr& e = k_.exprs[operand];
    switch (e.kind) {
      case ExprKind::Constant:
      case ExprKind::Param:
      case ExprKind::Builtin:
        return true;
      case ExprKind::Local:
        return version_[static_cast<std::size_t>(e.index)] == read_version_[operand];
      case ExprKind::Cast:
      case ExprKind::Unary:
      case ExprKind::Binary:
      case ExprKind::Intrinsic:
        for (const ExprId op : e.operands)
          if (op != kNone && !still_valid(op, sum)) return false;
        return true;
      default:
        return false;
    }
  }

  // A product (or a local holding one) stored into a local array: nvcc keeps such an array in
  // registers where its indices are constants, and may then contract the product into a sum
  // that reads the element back, which the source does not settle.
  void note_local_array_product(const MemoryAccess& m) {
    if (m.space != AddressSpace::Local || m.base == kNone || !is_floating(k_.exprs[m.value].type)) return;
    bool product = signed_product(k_, m.value).product != kNone;
    const Expr& v = k_.exprs[m.value];
    if (v.kind == ExprKind::Local)
      product = product || definitions_.count({v.index, read_version_[m.value]}) != 0;
    if (product) array_products_.emplace(m.base, m.range);
  }

  // The local array element holding a product that a sum's operand reads (under a sign), or none.
  const MemoryAccess* array_product_read(ExprId operand) const {
    for (bool negates = false; sign_operand(k_, k_.exprs[operand], negates) != kNone;)
      operand = sign_operand(k_, k_.exprs[operand], negates);
    const Expr& e = k_.exprs[operand];
    if (e.kind != ExprKind::Opaque || e.access == kNone) return nullptr;
    const MemoryAccess& m = k_.accesses[static_cast<std::size_t>(e.access)];
    return m.kind == AccessKind::Load && m.space == AddressSpace::Local && array_products_.count(m.base) != 0
               ? &m
               : nullptr;
  }

  // A product whose every use is an operand of a sum: nvcc (ptxas) contracts it into that sum
  // where it has one use (decide() refuses one of several uses), and computes the rounded
  // product where something else uses it.
  bool contractible(int value) const {
    const auto v = static_cast<std::size_t>(value);
    return uses_[v] >= 1 && uses_[v] == sum_uses_[v];
  }

  void decide(const SumSite& s, ContractionResult& result) {
    const std::string where = location(k_, k_.exprs[s.sum].range);
    const bool add = k_.exprs[s.sum].binary_op == BinaryOp::Add;
    for (const ExprId operand : {k_.exprs[s.sum].operands[0], k_.exprs[s.sum].operands[1]})
      if (const MemoryAccess* read = array_product_read(operand)) {
        unmodelled(k_.exprs[s.sum],
                   std::string("the floating-point ") + (add ? "sum" : "difference") + " at " + where +
                       " of '" + read->text + "', a local array element given a product (" +
                       location(k_, array_products_.at(read->base)) +
                       "), which nvcc may keep in a register and contract into an FMA here "
                       "(write it with fmaf, or compile with -fmad=false and give --fmad=false)");
        result.unmodelled.push_back(s.sum);
        return;
      }
    const bool has_product[2] = {s.side[0].product != kNone, s.side[1].product != kNone};
    if (has_product[0] && has_product[1]) {
      const int p = s.side[0].value, q = s.side[1].value;
      if (!contractible(p) && !contractible(q)) return;
      // Measured: x*x + y*y and x*x - y*y, each product used by both, contract neither (m1);
      // a sum of two products of which one has no other use fuses one of them, which one
      // depending on more than the source shows (p1, p3, p7): not guessed.
      if (uses_[static_cast<std::size_t>(p)] > 1 && uses_[static_cast<std::size_t>(q)] > 1) return;
      unmodelled(k_.exprs[s.sum], std::string("the floating-point ") + (add ? "sum" : "difference") + " at " +
                                      where +
                                      " of two products, either of which nvcc may contract into an FMA" +
                                      " (write the one to fuse with fmaf, or compile with -fmad=false and "
                                      "give --fmad=false)");
      result.unmodelled.push_back(s.sum);
      return;
    }
    const int side = has_product[0] ? 0 : has_product[1] ? 1 : -1;
    if (side < 0 || !contractible(s.side[side].value)) return;
    const Candidate& c = s.side[side];
    // Measured on an H200 (data/validation/fma-contraction/uses and the products of parameters and
    // of per-thread values of later runs): a product whose every use is a sum is contracted into
    // all of them, some or none, depending on more than the source shows (how many uses, which
    // are differences, what their results feed): not guessed.
    if (const int n = uses_[static_cast<std::size_t>(c.value)]; n > 1) {
      unmodelled(k_.exprs[s.sum], std::string("the floating-point ") + (add ? "sum" : "difference") + " at " +
                                      where + " of a product that " + std::to_string(n) +
                                      " sums use, which nvcc contracts into some of them or none, as "
                                      "more than the source decides (write fmaf or __fmul_rn, or "
                                      "compile with -fmad=false and give --fmad=false)");
      result.unmodelled.push_back(s.sum);
      return;
    }
    if (!c.reevaluable) {
      unmodelled(k_.exprs[s.sum],
                 "the floating-point value at " + where +
                     ", which nvcc contracts with a product whose operands have changed since");
      result.unmodelled.push_back(s.sum);
      return;
    }
    const ExprId other = k_.exprs[s.sum].operands[1 - side];
    ExprId a = k_.exprs[c.product].operands[0], b = k_.exprs[c.product].operands[1];
    const ScalarType type = k_.exprs[c.product].type;
    if (c.through_local) {
      // The product stays where the local is given it; the sum reads its operands (leaves
      // holding the same values) again, as copies: expressions form trees.
      a = clone(a);
      b = clone(b);
      if (c.negated) a = k_.unary(UnaryOp::Neg, a, k_.exprs[a].range);  // (-a) * b: exact
      cloned_ = true;
    } else {
      // The multiply is now part of the FMA: its node (and the sign's around it) is left unused,
      // as a constant; a negation becomes the outermost sign's node, -a (before the sum).
      for (ExprId e = c.wrapper != kNone ? c.wrapper : c.product; e != kNone;) {
        bool negates = false;
        const ExprId inner = e == c.product ? kNone : sign_operand(k_, k_.exprs[e], negates);
        dead(e);
        e = inner;
      }
      if (c.negated) {
        Expr& sign = k_.exprs[c.wrapper];
        sign.kind = ExprKind::Unary;
        sign.unary_op = UnaryOp::Neg;
        sign.type = type;
        sign.operands[0] = a;
        a = c.wrapper;
      }
    }
    Expr& sum = k_.exprs[s.sum];  // after clone(), which may move the arena
    sum.kind = ExprKind::Intrinsic;
    sum.intrinsic = add ? Intrinsic::Fma : side == 0 ? Intrinsic::Fms : Intrinsic::Fnma;
    sum.operands[0] = a;
    sum.operands[1] = b;
    sum.operands[2] = other;
    result.contracted.push_back(s.sum);
  }

  // A copy of the expression `e` (still_valid: of leaves that hold their values), operands first.
  ExprId clone(ExprId e) {
    Expr copy = k_.exprs[e];
    for (ExprId& op : copy.operands)
      if (op != kNone) op = clone(op);
    return k_.add(copy);
  }

  // Operands must come before their expression: the copies appended at the end are moved before
  // the sums that read them (every other expression keeps its order).
  void renumber(ContractionResult& result) {
    const std::size_t n = k_.exprs.size();
    std::vector<ExprId> new_id(n, kNone);
    std::vector<Expr> order;
    order.reserve(n);
    std::vector<std::pair<ExprId, int>> stack;
    for (std::size_t root = 0; root < n; ++root) {
      if (new_id[root] != kNone) continue;
      stack.push_back({static_cast<ExprId>(root), 0});
      while (!stack.empty()) {
        auto& [id, next] = stack.back();
        const Expr& e = k_.exprs[static_cast<std::size_t>(id)];
        if (next < 3) {
          const ExprId op = e.operands[next++];
          if (op != kNone && new_id[static_cast<std::size_t>(op)] == kNone) stack.push_back({op, 0});
          continue;
        }
        Expr moved = e;
        for (ExprId& op : moved.operands)
          if (op != kNone) op = new_id[static_cast<std::size_t>(op)];
        new_id[static_cast<std::size_t>(id)] = static_cast<ExprId>(order.size());
        order.push_back(std::move(moved));
        stack.pop_back();
      }
    }
    k_.exprs = std::move(order);
    const auto update = [&](ExprId& id) {
      if (id != kNone) id = new_id[static_cast<std::size_t>(id)];
    };
    for (Stmt& st : k_.stmts) {
      update(st.value);
      for (FloatOps& f : st.flops) update(f.guard);
    }
    for (MemoryAccess& a : k_.accesses) {
      update(a.offset);
      update(a.guard);
      update(a.value);
      update(a.compare);
    }
    for (ExprId& id : result.contracted) update(id);
    for (ExprId& id : result.unmodelled) update(id);
  }

  void dead(ExprId id) {
    Expr& e = k_.exprs[id];
    e.kind = ExprKind::Constant;
    e.constant = 0;
    e.operands[0] = e.operands[1] = e.operands[2] = kNone;
  }

  static void unmodelled(Expr& e, const std::string& why) {
    e.kind = ExprKind::Opaque;
    e.description = why;
    e.access = kNone;
    e.operands[0] = e.operands[1] = e.operands[2] = kNone;
  }

  Kernel& k_;
  std::vector<std::uint32_t> version_;  // [LocalId]: the current version
  std::uint32_t next_version_ = 0;
  std::vector<int> value_;                   // [ExprId]
  std::vector<std::uint32_t> read_version_;  // [ExprId of a Local]: the version it read
  std::vector<bool> live_;                   // [ExprId]: live_values (a dead local's value is no use)
  std::vector<int> uses_;                    // [value]: uses as a product
  std::vector<int> sum_uses_;                // [value]: of those, as an operand of a sum
  std::map<Key, std::vector<int>> table_;
  std::map<Key, int> leaves_;
  std::vector<std::vector<Key>> scopes_;
  std::map<std::pair<LocalId, std::uint32_t>, ProductDefinition> definitions_;
  std::vector<LocalId> calls_;  // the result local of each inlined call being walked
  std::vector<SumSite> sites_;
  std::map<std::int32_t, SourceRange> array_products_;  // [base]: where a product was stored
  bool cloned_ = false;
};

}  // namespace

ContractionResult contract_floating(Kernel& kernel) { return Contractor(kernel).run(); }

void refuse_unsettled_branches(const Kernel& kernel, const ContractionResult& result) {
  if (result.unmodelled.empty()) return;
  const std::vector<ExprId> origins = opaque_origins(kernel);
  for (const Stmt& s : kernel.stmts) {
    const bool condition = s.kind == StmtKind::If || s.kind == StmtKind::Loop || s.kind == StmtKind::Switch;
    if (!condition || s.value == kNone) continue;
    const ExprId origin = origins[static_cast<std::size_t>(s.value)];
    if (std::find(result.unmodelled.begin(), result.unmodelled.end(), origin) == result.unmodelled.end())
      continue;
    const Expr& value = kernel.exprs[static_cast<std::size_t>(origin)];
    throw InvalidInput(
        Diag::unsupported_construct, source_location(kernel, s.range),
        "the condition of this " + report_kind(s) + " depends on " + value.description + ": not supported");
  }
}

}  // namespace warpdiv::sim::ir
