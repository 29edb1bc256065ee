// validate(): the structural and typing rules of sim/model/ir.hpp, and the data-dependence check.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir {

namespace {

// Which expressions and locals depend on an opaque value; `origin` records the Opaque expression
// that taints each (the first one found), for messages. Needs a structurally valid kernel.
struct Taint {
  std::vector<ExprId> expr_origin;
  std::vector<ExprId> local_origin;
  std::vector<StmtId> local_via;  // the assignment that tainted the local
};

void collect_writes(const Kernel& k, StmtId id, LocalId call_result,
                    std::vector<std::pair<LocalId, ExprId>>& writes, std::vector<StmtId>& write_stmt) {
  if (id == kNone) return;
  const Stmt& s = k.stmts[id];
  auto recurse = [&](StmtId child) { collect_writes(k, child, call_result, writes, write_stmt); };
  switch (s.kind) {
    case StmtKind::Declare:
    case StmtKind::Assign:
      if (s.value != kNone) {
        writes.emplace_back(s.local, s.value);
        write_stmt.push_back(id);
      }
      break;
    case StmtKind::Return:
      if (s.value != kNone && call_result != kNone) {
        writes.emplace_back(call_result, s.value);
        write_stmt.push_back(id);
      }
      break;
    case StmtKind::Block:
    case StmtKind::Switch:
      for (StmtId c : s.children) recurse(c);
      break;
    case StmtKind::If:
      recurse(s.then_stmt);
      recurse(s.else_stmt);
      break;
    case StmtKind::Loop:
      recurse(s.init);
      recurse(s.body);
      recurse(s.step);
      break;
    case StmtKind::InlinedCall:
      collect_writes(k, s.body, s.local, writes, write_stmt);
      break;
    default:
      break;
  }
}

// `loaded` [access]: the loads whose values the engine computes; such a load's value depends on
// what its address depends on (empty: none computed).
Taint compute_taint(const Kernel& k, const std::vector<bool>& loaded = {}) {
  Taint t;
  t.expr_origin.assign(k.exprs.size(), kNone);
  t.local_origin.assign(k.locals.size(), kNone);
  t.local_via.assign(k.locals.size(), kNone);
  std::vector<std::pair<LocalId, ExprId>> writes;  // (local, value)
  std::vector<StmtId> write_stmt;
  collect_writes(k, k.root, kNone, writes, write_stmt);
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::size_t i = 0; i < k.exprs.size(); ++i) {
      if (t.expr_origin[i] != kNone) continue;
      const Expr& e = k.exprs[i];
      ExprId origin = kNone;
      if (e.kind == ExprKind::Opaque) {
        const bool computed = e.access != kNone && static_cast<std::size_t>(e.access) < loaded.size() &&
                              loaded[static_cast<std::size_t>(e.access)];
        if (!computed) {
          origin = static_cast<ExprId>(i);
        } else {
          origin = t.expr_origin[k.accesses[static_cast<std::size_t>(e.access)].offset];
        }
      } else if (e.kind == ExprKind::Local) {
        origin = t.local_origin[e.index];
      } else {
        for (ExprId op : e.operands)
          if (op != kNone && t.expr_origin[op] != kNone) {
            origin = t.expr_origin[op];
            break;
          }
      }
      if (origin != kNone) {
        t.expr_origin[i] = origin;
        changed = true;
      }
    }
    for (std::size_t w = 0; w < writes.size(); ++w) {
      const auto [local, value] = writes[w];
      if (t.local_origin[local] == kNone && t.expr_origin[value] != kNone) {
        t.local_origin[local] = t.expr_origin[value];
        t.local_via[local] = write_stmt[w];
        changed = true;
      }
    }
  }
  return t;
}

class Validator {
 public:
  explicit Validator(const Kernel& k) : k_(k) {}

  void run() {
    check_sizes();
    for (std::size_t i = 0; i < k_.exprs.size(); ++i) check_expr(static_cast<ExprId>(i));
    check_expression_nesting();
    if (k_.root < 0 || static_cast<std::size_t>(k_.root) >= k_.stmts.size())
      fail("the root statement " + std::to_string(k_.root) + " does not exist");
    if (k_.stmts[k_.root].kind != StmtKind::Block) fail("the root statement is not a block");
    check_statement_nesting();
    seen_.assign(k_.stmts.size(), false);
    walk(k_.root, Context{});
    for (std::size_t i = 0; i < seen_.size(); ++i)
      if (!seen_[i]) fail("statement " + std::to_string(i) + " is not reachable from the root");
    check_memory();
    check_single_use();
    check_access_links();
    check_undefined_checks();
    std::vector<std::string> why_not;
    const std::vector<bool> loaded = computed_loads(k_, nullptr, &why_not);
    check_data_dependence(loaded, why_not);
  }

  // A warp function's check (Expr::check) is another of its operation and width.
  void check_undefined_checks() const {
    for (std::size_t i = 0; i < k_.exprs.size(); ++i) {
      const Expr& e = k_.exprs[i];
      if (e.check == kNone) continue;
      const auto id = static_cast<ExprId>(i);
      if (e.check < 0 || static_cast<std::size_t>(e.check) >= k_.exprs.size() || e.check == id)
        fail_expr(id, "names check " + std::to_string(e.check) + ", which is not another expression");
      const Expr& c = k_.exprs[static_cast<std::size_t>(e.check)];
      if (e.kind != ExprKind::Warp || c.kind != e.kind || c.type != e.type || c.warp_op != e.warp_op ||
          c.constant != e.constant)
        fail_expr(id, "names check " + std::to_string(e.check) + ", which is not the same operation");
    }
  }

  // An opaque value linked to a load (Expr::access) is that load's element, moved whole.
  void check_access_links() const {
    for (std::size_t i = 0; i < k_.exprs.size(); ++i) {
      const Expr& e = k_.exprs[i];
      if (e.access == kNone) continue;
      const auto id = static_cast<ExprId>(i);
      if (e.kind != ExprKind::Opaque) fail_expr(id, "a " + name(e.kind) + " expression names an access");
      if (e.access < 0 || static_cast<std::size_t>(e.access) >= k_.accesses.size())
        fail_expr(id, "names access " + std::to_string(e.access) + ", which does not exist");
      const MemoryAccess& a = k_.accesses[static_cast<std::size_t>(e.access)];
      const bool atomic = a.kind == AccessKind::Atomic && a.atomic != AtomicOp::Other && a.value != kNone;
      if (a.kind != AccessKind::Load && !atomic)
        fail_expr(id,
                  "names access " + std::to_string(e.access) + ", which is not a load or a modelled atomic");
      if (a.width != static_cast<std::uint32_t>(std::max(1, bit_width(e.type) / 8)))
        fail_expr(id, "is a " + name(e.type) + " value of access " + std::to_string(e.access) +
                          ", which moves " + std::to_string(a.width) + " bytes");
    }
  }

  void data_dependence(const std::vector<bool>& loaded, const std::vector<std::string>& why_not) {
    check_data_dependence(loaded, why_not);
  }

 private:
  struct Context {
    int loops = 0;
    int switches = 0;
    LocalId call_result = kNone;  // of the innermost InlinedCall
    bool in_call = false;
  };

  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidInput(Diag::model_invalid, "kernel model: " + what);
  }
  [[noreturn]] void fail_expr(ExprId id, const std::string& what) const {
    fail(what + " (expression " + std::to_string(id) + ")");
  }
  [[noreturn]] void fail_stmt(StmtId id, const std::string& what) const {
    fail(what + " (statement " + std::to_string(id) + ")");
  }

  void check_sizes() const {
    const auto limit = [&](const char* what, std::size_t count, std::size_t most) {
      if (count > most)
        throw InvalidInput(Diag::model_too_large, "kernel model: " + std::to_string(count) + " " + what +
                                                      ", more than the " + std::to_string(most) +
                                                      " warpdiv models");
    };
    limit("statements", k_.stmts.size(), kMaxStatements);
    limit("expressions", k_.exprs.size(), kMaxExpressions);
    limit("locals", k_.locals.size(), kMaxLocals);
  }

  // Where the model has the source location, the message names it; else the node ("kernel
  // model: ... (statement N)", which the JSON reader turns into its path).
  [[noreturn]] void too_deep(const SourceRange& range, const std::string& how, const char* node,
                             std::size_t id) const {
    const std::string why =
        " (" + how + "; warpdiv follows at most " + std::to_string(kMaxNesting) + " levels)";
    if (range.line == 0)
      fail("nesting deeper than " + std::to_string(kMaxNesting) + why + " (" + node + " " +
           std::to_string(id) + ")");
    throw InvalidInput(Diag::model_too_large, "nesting deeper than " + std::to_string(kMaxNesting) + " at " +
                                                  location(k_, range) + why);
  }

  // Operands come before their expression (check_expr), so one pass in order finds every depth.
  void check_expression_nesting() const {
    std::vector<std::int32_t> depth(k_.exprs.size(), 1);
    for (std::size_t i = 0; i < k_.exprs.size(); ++i) {
      for (ExprId op : k_.exprs[i].operands)
        if (op != kNone) depth[i] = std::max(depth[i], depth[static_cast<std::size_t>(op)] + 1);
      if (depth[i] > kMaxNesting)
        too_deep(k_.exprs[i].range, "operands within an expression", "expression", i);
    }
  }

  // Statements within statements, without recursion: nesting as the source reads it (the next
  // if of an else-if chain is not nested), and the depth the recursive walks reach (it is).
  // Ids out of range and statements reached twice are left to walk(), which names them.
  void check_statement_nesting() const {
    struct Open {
      StmtId id;
      std::int32_t nesting, depth;
    };
    std::vector<bool> visited(k_.stmts.size(), false);
    std::vector<Open> open{{k_.root, 0, 1}};  // the body: its statements are at level 1
    while (!open.empty()) {
      const Open at = open.back();
      open.pop_back();
      if (at.id < 0 || static_cast<std::size_t>(at.id) >= k_.stmts.size() || visited[at.id]) continue;
      visited[at.id] = true;
      const Stmt& s = k_.stmts[at.id];
      if (at.nesting > kMaxNesting)
        too_deep(s.range, "statements within statements", "statement", static_cast<std::size_t>(at.id));
      if (at.depth > kMaxDepth)
        throw InvalidInput(Diag::model_too_large, "an else-if chain at " + location(k_, s.range) +
                                                      " is longer than " + std::to_string(kMaxDepth) +
                                                      " branches, the most warpdiv follows");
      // A block only groups (its braces nest no deeper to a reader); the if after an else
      // continues its chain.
      const auto push = [&](StmtId child, bool chained) {
        if (child < 0 || static_cast<std::size_t>(child) >= k_.stmts.size()) return;
        const bool nested = !chained && k_.stmts[child].kind != StmtKind::Block;
        open.push_back({child, at.nesting + (nested ? 1 : 0), at.depth + 1});
      };
      for (StmtId c : s.children) push(c, false);
      for (StmtId c : {s.then_stmt, s.init, s.body, s.step}) push(c, false);
      push(s.else_stmt, s.kind == StmtKind::If);
    }
  }

  bool valid_local(LocalId id) const { return id >= 0 && static_cast<std::size_t>(id) < k_.locals.size(); }

  // Operands must exist and come before the expression: the arena is then acyclic.
  ScalarType operand(ExprId self, int i) const {
    const ExprId op = k_.exprs[self].operands[i];
    if (op < 0 || op >= self)
      fail_expr(self, "operand " + std::to_string(i) + " (" + std::to_string(op) +
                          ") must be an expression defined before this one");
    return k_.exprs[op].type;
  }

  void expect_type(ExprId self, ScalarType got, ScalarType want, const char* what) const {
    if (got != want)
      fail_expr(self, std::string(what) + " has type " + name(got) + ", expected " + name(want));
  }

  void check_expr(ExprId id) const {
    const Expr& e = k_.exprs[id];
    switch (e.kind) {
      case ExprKind::Constant:
        if (e.constant != normalise(e.type, e.constant))
          fail_expr(id, "constant " + std::to_string(e.constant) + " is not a normalised " + name(e.type));
        break;
      case ExprKind::Param:
        check_param(id, e);
        break;
      case ExprKind::Builtin:
        expect_type(id, e.type, builtin_type(e.builtin), "builtin");
        break;
      case ExprKind::Local:
        if (!valid_local(e.index)) fail_expr(id, "local " + std::to_string(e.index) + " does not exist");
        expect_type(id, e.type, k_.locals[e.index].type, "local read");
        break;
      case ExprKind::Opaque:
        break;
      case ExprKind::Cast:
        operand(id, 0);
        break;
      case ExprKind::Unary:
        check_unary(id, e);
        break;
      case ExprKind::Binary:
        check_binary(id, e);
        break;
      case ExprKind::Logical:
        expect_type(id, operand(id, 0), ScalarType::Bool, "left operand");
        expect_type(id, operand(id, 1), ScalarType::Bool, "right operand");
        expect_type(id, e.type, ScalarType::Bool, "result");
        break;
      case ExprKind::Select:
        expect_type(id, operand(id, 0), ScalarType::Bool, "condition of ?:");
        expect_type(id, operand(id, 1), e.type, "first arm of ?:");
        expect_type(id, operand(id, 2), e.type, "second arm of ?:");
        break;
      case ExprKind::Warp:
        check_warp(id, e);
        break;
      case ExprKind::Intrinsic:
        check_intrinsic(id, e);
        break;
    }
  }

  void check_param(ExprId id, const Expr& e) const {
    if (e.index < 0 || static_cast<std::size_t>(e.index) >= k_.parameters.size())
      fail_expr(id, "parameter " + std::to_string(e.index) + " does not exist");
    const Parameter& p = k_.parameters[e.index];
    if (p.floating != 0) {
      expect_type(id, e.type, p.floating == 32 ? ScalarType::F32 : ScalarType::F64, "parameter read");
      return;
    }
    if (!p.scalar)
      fail_expr(id, "parameter '" + p.name + "' is not an integer or floating scalar (read it as opaque)");
    expect_type(id, e.type, p.type, "parameter read");
  }

  void check_unary(ExprId id, const Expr& e) const {
    const ScalarType t = operand(id, 0);
    if (e.unary_op == UnaryOp::LogicalNot) {
      expect_type(id, t, ScalarType::Bool, "operand of !");
      expect_type(id, e.type, ScalarType::Bool, "result of !");
    } else {
      const bool floating_neg = e.unary_op == UnaryOp::Neg && is_floating(t);
      if (!is_promoted(t) && !floating_neg)
        fail_expr(
            id, "operand of " + name(e.unary_op) + " has type " + name(t) +
                    (e.unary_op == UnaryOp::Neg ? " (allowed: int32, uint32, int64, uint64, float32, float64)"
                                                : " (allowed: int32, uint32, int64, uint64)"));
      expect_type(id, e.type, t, "result");
    }
  }

  void check_binary(ExprId id, const Expr& e) const {
    const ScalarType a = operand(id, 0);
    const ScalarType b = operand(id, 1);
    if (is_floating(a) || is_floating(b)) {
      const BinaryOp op = e.binary_op;
      if (op == BinaryOp::Rem || op == BinaryOp::Shl || op == BinaryOp::Shr || op == BinaryOp::BitAnd ||
          op == BinaryOp::BitOr || op == BinaryOp::BitXor)
        fail_expr(id, "operator " + name(op) + " on " + name(a) +
                          " (allowed on float32 and float64: "
                          "+ - * / < <= > >= == !=)");
      if (a != b)
        fail_expr(id, "operands of " + name(op) + " have different types " + name(a) + " and " + name(b));
      expect_type(id, e.type, is_comparison(op) ? ScalarType::Bool : a, "result");
      return;
    }
    if (!is_promoted(a) || !is_promoted(b))
      fail_expr(id, "operands of " + name(e.binary_op) + " have types " + name(a) + " and " + name(b) +
                        " (allowed: int32, uint32, int64, uint64)");
    const bool shift = e.binary_op == BinaryOp::Shl || e.binary_op == BinaryOp::Shr;
    if (!shift && a != b)
      fail_expr(id,
                "operands of " + name(e.binary_op) + " have different types " + name(a) + " and " + name(b));
    expect_type(id, e.type, is_comparison(e.binary_op) ? ScalarType::Bool : a, "result");
  }

  void check_warp(ExprId id, const Expr& e) const {
    const int n = operand_count(e.warp_op);
    for (int i = n; i < 3; ++i)
      if (e.operands[i] != kNone)
        fail_expr(id, name(e.warp_op) + " takes " + std::to_string(n) + " operand(s)");
    if (n >= 1) expect_type(id, operand(id, 0), ScalarType::U32, "mask of the warp function");
    if (e.warp_op <= WarpOp::ShflXor) {
      expect_type(id, operand(id, 1), e.type, "value of the shuffle");
      if (e.type == ScalarType::Bool) fail_expr(id, "a shuffle of a bool");
      expect_type(id, operand(id, 2), ScalarType::I32, "lane of the shuffle");
      if (e.constant == 0 || e.constant > 32 || (e.constant & (e.constant - 1)) != 0)
        fail_expr(id, "shuffle width " + std::to_string(e.constant) + " (allowed: 1, 2, 4, 8, 16, 32)");
    } else if (e.warp_op == WarpOp::ActiveMask || e.warp_op == WarpOp::Ballot ||
               e.warp_op == WarpOp::SyncWarp) {
      if (n == 2) expect_type(id, operand(id, 1), ScalarType::Bool, "predicate");
      expect_type(id, e.type, ScalarType::U32, "result");
    } else {
      expect_type(id, operand(id, 1), ScalarType::Bool, "predicate");
      expect_type(id, e.type, ScalarType::I32, "result");
    }
  }

  void check_intrinsic(ExprId id, const Expr& e) const {
    if (!is_floating(e.type))
      fail_expr(id, name(e.intrinsic) + " has type " + name(e.type) + " (allowed: float32, float64)");
    const int n = operand_count(e.intrinsic);
    for (int i = 0; i < 3; ++i) {
      if (i < n)
        expect_type(id, operand(id, i), e.type, "operand of the intrinsic");
      else if (e.operands[i] != kNone)
        fail_expr(id, name(e.intrinsic) + " takes " + std::to_string(n) + " operand(s)");
    }
  }

  void expect_expr(StmtId s, ExprId e, const char* what) const {
    if (e < 0 || static_cast<std::size_t>(e) >= k_.exprs.size())
      fail_stmt(s, std::string(what) + " " + std::to_string(e) + " does not exist");
  }

  void walk_optional(StmtId id, const Context& c) {
    if (id != kNone) walk(id, c);
  }

  void walk(StmtId id, const Context& c) {
    if (id < 0 || static_cast<std::size_t>(id) >= k_.stmts.size())
      fail("statement " + std::to_string(id) + " does not exist");
    if (seen_[id]) fail_stmt(id, "statement reached twice (the statements must form a tree)");
    seen_[id] = true;
    const Stmt& s = k_.stmts[id];
    switch (s.kind) {
      case StmtKind::Block:
        for (StmtId child : s.children) walk(child, c);
        break;
      case StmtKind::Declare:
      case StmtKind::Assign:
        if (!valid_local(s.local)) fail_stmt(id, "local " + std::to_string(s.local) + " does not exist");
        if (s.value == kNone && s.kind == StmtKind::Declare) break;
        expect_expr(id, s.value, "value");
        if (k_.exprs[s.value].type != k_.locals[s.local].type)
          fail_stmt(id, "value of type " + name(k_.exprs[s.value].type) + " assigned to local '" +
                            k_.locals[s.local].name + "' of type " + name(k_.locals[s.local].type));
        break;
      case StmtKind::Work:
      case StmtKind::Barrier:
        break;
      case StmtKind::If:
        expect_condition(id, s.value);
        if (s.then_stmt == kNone) fail_stmt(id, "if without a then statement");
        walk(s.then_stmt, c);
        walk_optional(s.else_stmt, c);
        break;
      case StmtKind::Loop: {
        if (s.value != kNone) expect_condition(id, s.value);
        walk_optional(s.init, c);
        Context inner = c;
        inner.loops += 1;
        inner.switches = 0;
        if (s.body == kNone) fail_stmt(id, "loop without a body");
        walk(s.body, inner);
        walk_optional(s.step, inner);
        break;
      }
      case StmtKind::Break:
        if (c.loops == 0 && c.switches == 0) fail_stmt(id, "break outside a loop or switch");
        break;
      case StmtKind::Continue:
        if (c.loops == 0) fail_stmt(id, "continue outside a loop");
        break;
      case StmtKind::Return:
        if (!c.in_call || c.call_result == kNone) {
          if (s.value != kNone) fail_stmt(id, "return with a value where there is no result local");
        } else {
          if (s.value == kNone) fail_stmt(id, "return without a value from a call with a result");
          expect_expr(id, s.value, "value");
          if (k_.exprs[s.value].type != k_.locals[c.call_result].type)
            fail_stmt(id, "returned value of type " + name(k_.exprs[s.value].type) +
                              ", the call's result has type " + name(k_.locals[c.call_result].type));
        }
        break;
      case StmtKind::InlinedCall: {
        if (s.local != kNone && !valid_local(s.local))
          fail_stmt(id, "result local " + std::to_string(s.local) + " does not exist");
        Context inner;  // break/continue do not cross a call
        inner.in_call = true;
        inner.call_result = s.local;
        if (s.body == kNone) fail_stmt(id, "call without a body");
        walk(s.body, inner);
        break;
      }
      case StmtKind::Switch: {
        expect_expr(id, s.value, "condition");
        const ScalarType t = k_.exprs[s.value].type;
        if (!is_promoted(t))
          fail_stmt(id, "switch condition has type " + name(t) + " (allowed: int32, uint32, int64, uint64)");
        const auto n = static_cast<std::int32_t>(s.children.size());
        for (std::size_t i = 0; i < s.cases.size(); ++i) {
          const SwitchCase& sc = s.cases[i];
          if (sc.child < 0 || sc.child > n)
            fail_stmt(id, "case " + std::to_string(i) + " enters at child " + std::to_string(sc.child) +
                              " of " + std::to_string(n));
          if (sc.value != normalise(t, sc.value))
            fail_stmt(id, "case value " + std::to_string(sc.value) + " is not a normalised " + name(t));
          for (std::size_t j = 0; j < i; ++j)
            if (s.cases[j].value == sc.value) fail_stmt(id, "duplicate case value");
        }
        if (s.default_child != kNone && (s.default_child < 0 || s.default_child > n))
          fail_stmt(id, "default enters at child " + std::to_string(s.default_child));
        Context inner = c;
        inner.switches += 1;
        for (StmtId child : s.children) walk(child, inner);
        break;
      }
    }
  }

  // Expressions form trees: each is the operand or the value of at most one parent, so that the
  // engine can keep one result buffer per expression.
  void check_single_use() const {
    std::vector<int> uses(k_.exprs.size(), 0);
    const auto use = [&](ExprId id) {
      if (id != kNone && ++uses[id] > 1)
        fail_expr(id, "expression used twice (the expressions must form trees)");
    };
    for (const Expr& e : k_.exprs)
      for (ExprId op : e.operands) use(op);
    for (const Stmt& s : k_.stmts) use(s.value);
    for (const MemoryAccess& a : k_.accesses) {
      use(a.offset);
      use(a.guard);
      use(a.value);
    }
    for (const Stmt& s : k_.stmts)
      for (const FloatOps& f : s.flops) use(f.guard);
  }

  // Bases and accesses: each access belongs to one statement of a kind that runs it, its base
  // exists (or it says why it was not lowered), its offset is int64 and its guard bool.
  void check_memory() const {
    for (std::size_t b = 0; b < k_.bases.size(); ++b) {
      const MemoryBase& base = k_.bases[b];
      const std::string what = "base " + std::to_string(b) + " ('" + base.name + "')";
      if (base.alignment == 0 || (base.alignment & (base.alignment - 1)) != 0)
        fail(what + " has alignment " + std::to_string(base.alignment) + " (allowed: a power of two)");
      if (base.null && (base.parameter != kNone || base.bytes != 0 || base.space != AddressSpace::Global))
        fail(what + " is the null pointer, yet has a parameter, bytes or a space other than global");
      if (base.parameter != kNone) {
        if (base.parameter < 0 || static_cast<std::size_t>(base.parameter) >= k_.parameters.size())
          fail(what + " names parameter " + std::to_string(base.parameter) + ", which does not exist");
        if (k_.parameters[base.parameter].scalar)
          fail(what + " names the integer parameter '" + k_.parameters[base.parameter].name +
               "' (a base is a pointer parameter)");
      }
    }
    std::vector<StmtId> owner(k_.accesses.size(), kNone);
    for (std::size_t i = 0; i < k_.stmts.size(); ++i) {
      const Stmt& s = k_.stmts[i];
      if (s.accesses.empty() && s.flops.empty()) continue;
      const bool runs = s.kind == StmtKind::Declare || s.kind == StmtKind::Assign ||
                        s.kind == StmtKind::Work || s.kind == StmtKind::Return;
      const bool condition = s.kind == StmtKind::If || s.kind == StmtKind::Loop || s.kind == StmtKind::Switch;
      if (condition && s.value != kNone) {
        // A condition's loads and floating-point operations, run at each evaluation: fine.
      } else if (!runs)
        fail_stmt(static_cast<StmtId>(i), "a " + name(s.kind) +
                                              " statement carries memory accesses or "
                                              "floating-point operations");
      for (const FloatOps& f : s.flops) {
        if (f.guard == kNone) continue;
        if (f.guard < 0 || static_cast<std::size_t>(f.guard) >= k_.exprs.size())
          fail_stmt(static_cast<StmtId>(i), "flops guard " + std::to_string(f.guard) + " does not exist");
        if (k_.exprs[f.guard].type != ScalarType::Bool)
          fail_stmt(static_cast<StmtId>(i),
                    "flops guard of type " + name(k_.exprs[f.guard].type) + ", expected bool");
      }
      for (std::int32_t a : s.accesses) {
        if (a < 0 || static_cast<std::size_t>(a) >= k_.accesses.size())
          fail_stmt(static_cast<StmtId>(i), "access " + std::to_string(a) + " does not exist");
        if (owner[a] != kNone)
          fail_stmt(static_cast<StmtId>(i), "access " + std::to_string(a) + " already belongs to statement " +
                                                std::to_string(owner[a]));
        owner[a] = static_cast<StmtId>(i);
      }
    }
    for (std::size_t i = 0; i < k_.accesses.size(); ++i) check_access(i, owner[i]);
  }

  void check_access(std::size_t i, StmtId owner) const {
    const MemoryAccess& a = k_.accesses[i];
    const std::string what = "access " + std::to_string(i) + " ('" + a.text + "')";
    if (owner == kNone) fail(what + " belongs to no statement");
    const std::uint32_t w = a.width;
    if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
      fail(what + " has width " + std::to_string(w) + " (allowed: 1, 2, 4, 8, 16)");
    if (a.base == kNone) {
      if (a.reason.empty()) fail(what + " has neither a base nor a reason it has none");
      if (a.offset != kNone || a.guard != kNone || a.compare != kNone)
        fail(what + " has no base but an offset, guard or compare operand");
      return;
    }
    if (a.base < 0 || static_cast<std::size_t>(a.base) >= k_.bases.size())
      fail(what + " names base " + std::to_string(a.base) + ", which does not exist");
    if (k_.bases[a.base].space != a.space)
      fail(what + " is in " + name(a.space) + " memory but its base '" + k_.bases[a.base].name + "' is in " +
           name(k_.bases[a.base].space) + " memory");
    if (a.offset < 0 || static_cast<std::size_t>(a.offset) >= k_.exprs.size())
      fail(what + " has offset " + std::to_string(a.offset) + ", which does not exist");
    if (k_.exprs[a.offset].type != ScalarType::I64)
      fail(what + " has an offset of type " + name(k_.exprs[a.offset].type) + ", expected int64");
    if (a.guard != kNone) {
      if (a.guard < 0 || static_cast<std::size_t>(a.guard) >= k_.exprs.size())
        fail(what + " has guard " + std::to_string(a.guard) + ", which does not exist");
      if (k_.exprs[a.guard].type != ScalarType::Bool)
        fail(what + " has a guard of type " + name(k_.exprs[a.guard].type) + ", expected bool");
    }
    check_access_operands(what, a);
  }

  /// An access's stored or combined value and an atomic cas's compare operand.
  void check_access_operands(const std::string& what, const MemoryAccess& a) const {
    if (a.value != kNone) {
      if (a.value < 0 || static_cast<std::size_t>(a.value) >= k_.exprs.size())
        fail(what + " has value " + std::to_string(a.value) + ", which does not exist");
      const ScalarType t = k_.exprs[a.value].type;
      // Atomics as PTX's atom has them: add and exch also on floating types, inc and dec on
      // uint32 only, the rest on integers.
      const bool floats = a.atomic == AtomicOp::Add || a.atomic == AtomicOp::Exch;
      const bool counter = a.atomic == AtomicOp::Inc || a.atomic == AtomicOp::Dec;
      const bool atomic = a.kind == AccessKind::Atomic && a.atomic != AtomicOp::Other &&
                          (floats || !is_floating(t)) && (!counter || t == ScalarType::U32);
      if ((a.kind != AccessKind::Store && !atomic) || t == ScalarType::Bool ||
          static_cast<std::uint32_t>(bit_width(t) / 8) != a.width)
        fail(what + " has a value of type " + name(t) + ", expected a store's " + std::to_string(a.width) +
             "-byte scalar, or an atomic's (" + name(a.atomic) + ": " +
             (floats    ? "an integer or floating"
              : counter ? "a uint32"
                        : "an integer") +
             " element)");
    }
    if (a.compare != kNone) {
      if (a.compare < 0 || static_cast<std::size_t>(a.compare) >= k_.exprs.size())
        fail(what + " has compare " + std::to_string(a.compare) + ", which does not exist");
      if (a.kind != AccessKind::Atomic || a.atomic != AtomicOp::Cas || a.value == kNone)
        fail(what + " has a compare operand but is not an atomic cas with a value");
      if (k_.exprs[a.compare].type != k_.exprs[a.value].type)
        fail(what + " compares with a value of type " + name(k_.exprs[a.compare].type) +
             ", expected its operand's " + name(k_.exprs[a.value].type));
    } else if (a.kind == AccessKind::Atomic && a.atomic == AtomicOp::Cas && a.value != kNone) {
      fail(what + " is an atomic cas without the value it compares with");
    }
  }

  void expect_condition(StmtId s, ExprId e) const {
    expect_expr(s, e, "condition");
    if (k_.exprs[e].type != ScalarType::Bool)
      fail_stmt(s, "condition has type " + name(k_.exprs[e].type) + ", expected bool");
  }

  void check_data_dependence(const std::vector<bool>& loaded, const std::vector<std::string>& why_not) {
    const Taint taint = compute_taint(k_, loaded);
    for (std::size_t i = 0; i < k_.stmts.size(); ++i) {
      const Stmt& s = k_.stmts[i];
      const bool condition = s.kind == StmtKind::If || s.kind == StmtKind::Loop || s.kind == StmtKind::Switch;
      if (!condition || s.value == kNone || taint.expr_origin[s.value] == kNone) continue;
      const Expr& opaque = k_.exprs[taint.expr_origin[s.value]];
      std::string via;
      const LocalId through = tainted_local_in(s.value, taint.local_origin, taint.expr_origin);
      if (through != kNone) {
        via = " through '" + k_.locals[through].name + "'";
        if (taint.local_via[through] != kNone)
          via += " (assigned at " + location(k_, k_.stmts[taint.local_via[through]].range) + ")";
      }
      std::string hint;
      if (opaque.access != kNone && static_cast<std::size_t>(opaque.access) < why_not.size())
        hint = why_not[static_cast<std::size_t>(opaque.access)];
      throw InvalidInput(Diag::data_dependent_branch, source_location(k_, s.range),
                         "data-dependent branch: the condition of this " + report_kind(s) + " depends on " +
                             opaque.description + via + " (" + location(k_, opaque.range) +
                             "); the model follows control flow only where it can compute it" + hint);
    }
  }

  // A tainted local read directly by the condition's expression tree, if the taint comes that way.
  LocalId tainted_local_in(ExprId id, const std::vector<ExprId>& local_origin,
                           const std::vector<ExprId>& expr_origin) const {
    const Expr& e = k_.exprs[id];
    if (e.kind == ExprKind::Opaque) return kNone;
    if (e.kind == ExprKind::Local) return local_origin[e.index] != kNone ? e.index : kNone;
    for (ExprId op : e.operands) {
      if (op == kNone || expr_origin[op] == kNone) continue;
      if (k_.exprs[op].kind == ExprKind::Opaque) return kNone;
      return tainted_local_in(op, local_origin, expr_origin);
    }
    return kNone;
  }

  const Kernel& k_;
  std::vector<bool> seen_;
};

}  // namespace

void validate(const Kernel& kernel) {
  for (std::size_t i = 0; i < kernel.locals.size(); ++i)
    if (kernel.locals[i].name.empty())
      throw InvalidInput(Diag::model_invalid, "kernel model: local " + std::to_string(i) + " has no name");
  Validator(kernel).run();
}

std::vector<ExprId> opaque_origins(const Kernel& kernel, const std::vector<bool>& loaded) {
  return compute_taint(kernel, loaded).expr_origin;
}

namespace {

// Memory the kernel writes, followed by value: a __shared__ array, or a pointer
// parameter's buffer that has values at the launch (`has_values`). Its loads (and the results of
// its atomics) have values when every write into it is a plain store or an atomic of a modelled
// operation (AtomicOp other than Other) whose lanes, address and value or operand the model
// computes; the replay then keeps the memory: per block for shared memory (its warps run phase by
// phase between barriers), per launch for a buffer (blocks, warps and lanes in ascending order,
// and what depends on that order is marked). Atomics on shared memory are not followed yet.
// Every extern __shared__ array starts at the same address: they count as one. The rule is a
// greatest fixed point: a stored value may itself come from a followed load.
// The group whose values a write to `base` changes: a buffer with values at this launch, a local
// array, a __shared__ array (every extern one is one group); kNone for memory not followed.
std::int32_t write_group(const Kernel& kernel, const std::vector<bool>& has_values, std::int32_t base) {
  const MemoryBase& b = kernel.bases[static_cast<std::size_t>(base)];
  if (b.parameter != kNone) return has_values[static_cast<std::size_t>(base)] ? base : kNone;
  if (b.space == AddressSpace::Local) return base;  // a local array: each thread's own
  if (b.space != AddressSpace::Shared) return kNone;
  return b.bytes == 0 ? static_cast<std::int32_t>(kernel.bases.size()) : base;  // extern: one group
}

/// The first write the model cannot place, to shared and to local memory (kNone: none).
struct UnplacedWrites {
  std::int32_t shared = kNone;
  std::int32_t local = kNone;
};
UnplacedWrites unplaced_writes_of(const Kernel& kernel) {
  UnplacedWrites u;
  for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
    const MemoryAccess& m = kernel.accesses[a];
    if (m.kind == AccessKind::Load || m.base != kNone) continue;
    if (m.space == AddressSpace::Shared && u.shared == kNone) u.shared = static_cast<std::int32_t>(a);
    if (m.space == AddressSpace::Local && u.local == kNone) u.local = static_cast<std::int32_t>(a);
  }
  return u;
}

// Blocks each group written by an atomic or a store whose operation or value the model does not hold.
void block_unheld_writes(const Kernel& kernel, const std::vector<bool>& has_values,
                         std::vector<std::string>& blocked) {
  for (const MemoryAccess& m : kernel.accesses) {
    if (m.kind == AccessKind::Load || m.base == kNone) continue;
    const std::int32_t g = write_group(kernel, has_values, m.base);
    if (g == kNone || !blocked[static_cast<std::size_t>(g)].empty()) continue;
    const std::string at = "'" + m.text + "' at " + location(kernel, m.range);
    if (m.kind == AccessKind::Atomic && (m.atomic == AtomicOp::Other || m.value == kNone))
      blocked[static_cast<std::size_t>(g)] = "it is updated by an atomic the model does not follow (" + at +
                                             ": an operation or operand the model does not hold)";
    else if (m.kind == AccessKind::Store && m.value == kNone)
      blocked[static_cast<std::size_t>(g)] = "the model does not hold the value stored by " + at;
  }
}

// Why a load of memory the kernel writes has no value: a write the model cannot place in its
// memory, or why its group is blocked.
std::string why_not_followed(const Kernel& kernel, const MemoryAccess& m, const UnplacedWrites& unplaced,
                             const std::string& blocked) {
  const MemoryBase& base = kernel.bases[static_cast<std::size_t>(m.base)];
  const std::int32_t write = m.space == AddressSpace::Shared  ? unplaced.shared
                             : m.space == AddressSpace::Local ? unplaced.local
                                                              : kNone;
  std::string reason = blocked;
  if (write != kNone) {
    const MemoryAccess& w = kernel.accesses[static_cast<std::size_t>(write)];
    reason = "the kernel writes " + name(m.space) + " memory where the model cannot place it ('" + w.text +
             "' at " + location(kernel, w.range) + ": " + w.reason + ")";
  }
  return base.parameter == kNone
             ? "; the values of " + name(base.space) + " memory ('" + base.name +
                   "') are not known: " + reason
             : "; '" + base.name + "', which the kernel also writes, is not followed by value: " + reason;
}

void computed_written_loads(const Kernel& kernel, const std::vector<bool>& linked,
                            const std::vector<bool>& has_values, std::vector<bool>& loaded,
                            std::vector<std::string>* why_not, const std::vector<std::int32_t>* order_bases,
                            const std::vector<std::int32_t>* order_accesses) {
  const std::size_t n = kernel.accesses.size();
  const auto group_of = [&](std::int32_t base) { return write_group(kernel, has_values, base); };
  std::vector<std::string> blocked(kernel.bases.size() + 1);  // [group]: why its values are unknown
  if (order_bases != nullptr)
    for (std::int32_t b : *order_bases)
      if (b >= 0 && static_cast<std::size_t>(b) < kernel.bases.size())
        blocked[static_cast<std::size_t>(b)] =
            "threads pass values through it in an order the GPU does not fix";
  const UnplacedWrites unplaced_writes = unplaced_writes_of(kernel);
  const std::int32_t unplaced = unplaced_writes.shared, unplaced_local = unplaced_writes.local;
  block_unheld_writes(kernel, has_values, blocked);
  std::vector<std::size_t> followed;
  for (std::size_t a = 0; a < n; ++a) {
    const MemoryAccess& m = kernel.accesses[a];
    if (linked[a] && m.base != kNone && group_of(m.base) != kNone) followed.push_back(a);
  }
  if (followed.empty()) return;
  // Without a taint's fixed point first: a write whose value, address or lanes read an opaque
  // value no launch computes (directly, not through a local) blocks its group at once; where every
  // group is blocked so, the fixed point below has nothing to find.
  // What the value a blocked write depends on misses itself (its own hint: a --data to give ...).
  const auto root_hint = [&](const Expr& o) -> std::string {
    if (why_not == nullptr || o.access == kNone || static_cast<std::size_t>(o.access) >= why_not->size())
      return "";
    const std::string& hint = (*why_not)[static_cast<std::size_t>(o.access)];
    return hint.empty() ? "" : " (" + hint.substr(2) + ")";
  };
  std::vector<bool> is_followed(n, false);
  for (std::size_t a : followed) is_followed[a] = true;
  const std::function<ExprId(ExprId)> opaque_inside = [&](ExprId x) -> ExprId {
    if (x == kNone) return kNone;
    const Expr& e = kernel.exprs[static_cast<std::size_t>(x)];
    if (e.kind == ExprKind::Opaque)
      return e.access == kNone || (!loaded[static_cast<std::size_t>(e.access)] &&
                                   !is_followed[static_cast<std::size_t>(e.access)])
                 ? x
                 : kNone;
    for (ExprId o : e.operands)
      if (const ExprId found = opaque_inside(o); found != kNone) return found;
    return kNone;
  };
  // Blocks each group one of whose writes has a value, address or lanes that `origin` (the opaque
  // value it depends on, or kNone) finds; true when one was.
  const auto block_writes = [&](const auto& origin) {
    bool any = false;
    for (std::size_t a = 0; a < n; ++a) {
      const MemoryAccess& m = kernel.accesses[a];
      if (m.kind == AccessKind::Load || m.base == kNone) continue;
      const std::int32_t g = group_of(m.base);
      if (g == kNone || !blocked[static_cast<std::size_t>(g)].empty()) continue;
      const ExprId parts[] = {m.value, m.offset, m.guard, m.compare};
      static const char* const what[] = {"value", "address", "lanes", "compared value"};
      for (int i = 0; i < 4; ++i) {
        const ExprId found = parts[i] == kNone ? kNone : origin(parts[i]);
        if (found == kNone) continue;
        const Expr& o = kernel.exprs[static_cast<std::size_t>(found)];
        blocked[static_cast<std::size_t>(g)] = std::string("the ") + what[i] + " of '" + m.text + "' at " +
                                               location(kernel, m.range) + " depends on " + o.description +
                                               " (" + location(kernel, o.range) + ")" + root_hint(o);
        any = true;
        break;
      }
    }
    return any;
  };
  block_writes(opaque_inside);
  const auto unknown = [&](std::size_t a) {
    const MemoryAccess& m = kernel.accesses[a];
    if (order_accesses != nullptr && std::find(order_accesses->begin(), order_accesses->end(),
                                               static_cast<std::int32_t>(a)) != order_accesses->end())
      return true;
    if (unplaced != kNone && m.space == AddressSpace::Shared) return true;
    if (unplaced_local != kNone && m.space == AddressSpace::Local) return true;
    return !blocked[static_cast<std::size_t>(group_of(m.base))].empty();
  };
  bool open = false;  // a followed load whose group is not blocked yet
  for (std::size_t a : followed) open = open || !unknown(a);
  for (bool changed = open; changed;) {
    for (std::size_t a : followed) loaded[a] = !unknown(a);
    const std::vector<ExprId> origins = opaque_origins(kernel, loaded);
    changed = block_writes([&](ExprId x) { return origins[static_cast<std::size_t>(x)]; });
    if (changed) {  // nothing left to decide once every followed load's group is blocked
      bool left = false;
      for (std::size_t a : followed) left = left || !unknown(a);
      changed = left;
    }
  }
  for (std::size_t a : followed) {
    loaded[a] = !unknown(a);
    if (why_not != nullptr && !loaded[a])
      (*why_not)[a] = why_not_followed(kernel, kernel.accesses[a], unplaced_writes,
                                       blocked[static_cast<std::size_t>(group_of(kernel.accesses[a].base))]);
  }
}

}  // namespace

std::vector<bool> computed_loads(const Kernel& kernel, const std::vector<bool>* parameter_values,
                                 std::vector<std::string>* why_not,
                                 const std::vector<std::int32_t>* order_bases,
                                 const std::vector<std::int32_t>* order_accesses) {
  const std::size_t n = kernel.accesses.size();
  std::vector<bool> loaded(n, false);
  if (why_not != nullptr) why_not->assign(n, "");
  std::vector<bool> linked(n, false);
  for (const Expr& e : kernel.exprs)
    if (e.kind == ExprKind::Opaque && e.access >= 0 && static_cast<std::size_t>(e.access) < n)
      linked[static_cast<std::size_t>(e.access)] = true;
  // A buffer the kernel writes (or a global write the model cannot place, which may be anywhere).
  std::vector<std::int32_t> written(kernel.bases.size(), kNone);
  std::int32_t unplaced_write = kNone;
  for (std::size_t a = 0; a < n; ++a) {
    const MemoryAccess& m = kernel.accesses[a];
    if (m.kind == AccessKind::Load) continue;
    if (m.base == kNone) {
      if (m.space == AddressSpace::Global && unplaced_write == kNone)
        unplaced_write = static_cast<std::int32_t>(a);
    } else if (written[static_cast<std::size_t>(m.base)] == kNone) {
      written[static_cast<std::size_t>(m.base)] = static_cast<std::int32_t>(a);
    }
  }
  std::vector<bool> has_values(kernel.bases.size(), false);  // written buffers whose values the launch gives
  for (std::size_t a = 0; a < n; ++a) {
    const MemoryAccess& m = kernel.accesses[a];
    if (!linked[a] || m.base == kNone) continue;
    const MemoryBase& base = kernel.bases[static_cast<std::size_t>(m.base)];
    std::string hint;
    if (base.parameter == kNone &&
        (base.space == AddressSpace::Shared || base.space == AddressSpace::Local)) {
      continue;  // computed_written_loads()
    } else if (base.parameter == kNone) {
      hint = "; values of " + name(base.space) + " memory ('" + base.name + "') are not modelled yet";
    } else if (unplaced_write != kNone) {
      const MemoryAccess& w = kernel.accesses[static_cast<std::size_t>(unplaced_write)];
      hint = "; the kernel writes global memory where the model cannot place it ('" + w.text + "' at " +
             location(kernel, w.range) + ": " + w.reason + "), so loaded values are not modelled";
    } else if (parameter_values != nullptr &&
               !(static_cast<std::size_t>(base.parameter) < parameter_values->size() &&
                 (*parameter_values)[static_cast<std::size_t>(base.parameter)])) {
      hint = "; give the values of '" + base.name + "' with --data " + base.name + "=FILE (or --alloc " +
             base.name + "=COUNT for zeros)";
    } else if (written[static_cast<std::size_t>(m.base)] != kNone) {
      has_values[static_cast<std::size_t>(m.base)] = true;
      continue;  // computed_written_loads()
    }
    loaded[a] = hint.empty();
    if (why_not != nullptr) (*why_not)[a] = hint;
  }
  computed_written_loads(kernel, linked, has_values, loaded, why_not, order_bases, order_accesses);
  return loaded;
}

MemoryLayout memory_layout(const Kernel& kernel, const std::vector<bool>& loaded,
                           std::uint64_t dynamic_shared_bytes) {
  MemoryLayout layout;
  const std::size_t bases = kernel.bases.size();
  layout.shared_at.assign(bases, -1);
  layout.local_at.assign(bases, -1);
  layout.written.assign(bases, false);
  std::vector<bool> kept(bases, false), writes(bases, false);
  bool extern_kept = false;
  for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
    const std::int32_t b = kernel.accesses[a].base;
    if (b == kNone) continue;
    if (kernel.accesses[a].kind != AccessKind::Load) writes[static_cast<std::size_t>(b)] = true;
    if (a >= loaded.size() || !loaded[a]) continue;
    kept[static_cast<std::size_t>(b)] = true;
    const MemoryBase& base = kernel.bases[static_cast<std::size_t>(b)];
    extern_kept =
        extern_kept || (base.parameter == kNone && base.space == AddressSpace::Shared && base.bytes == 0);
  }
  const auto align = [](std::uint64_t at, std::uint64_t to) { return (at + to - 1) / to * to; };
  for (std::size_t b = 0; b < bases; ++b) {
    const MemoryBase& base = kernel.bases[b];
    if (!kept[b]) continue;
    if (base.parameter != kNone) {
      layout.written[b] = writes[b];
    } else if (base.space == AddressSpace::Shared && base.bytes != 0) {
      layout.shared_bytes = align(layout.shared_bytes, std::max<std::uint64_t>(16, base.alignment));
      layout.shared_at[b] = static_cast<std::int64_t>(layout.shared_bytes);
      layout.shared_bytes += base.bytes;
      layout.any_shared = true;
    } else if (base.space == AddressSpace::Local) {
      layout.local_bytes = align(layout.local_bytes, 16);
      layout.local_at[b] = static_cast<std::int64_t>(layout.local_bytes);
      layout.local_bytes += base.bytes;
    }
  }
  if (extern_kept) {
    layout.shared_bytes = align(layout.shared_bytes, 16);
    for (std::size_t b = 0; b < bases; ++b)
      if (kernel.bases[b].parameter == kNone && kernel.bases[b].space == AddressSpace::Shared &&
          kernel.bases[b].bytes == 0)
        layout.shared_at[b] = static_cast<std::int64_t>(layout.shared_bytes);
    layout.shared_bytes += dynamic_shared_bytes;
    layout.any_shared = true;
  }
  return layout;
}

void check_data_dependence(const Kernel& kernel, const std::vector<bool>& parameter_values) {
  std::vector<std::string> why_not;
  const std::vector<bool> loaded = computed_loads(kernel, &parameter_values, &why_not);
  Validator(kernel).data_dependence(loaded, why_not);
}

void check_floating_values(const Kernel& kernel, const std::vector<bool>& given,
                           const std::vector<bool>& parameter_values) {
  const auto unvalued = [&](std::int32_t i) {
    const auto at = static_cast<std::size_t>(i);
    return kernel.parameters[at].floating != 0 && !(at < given.size() && given[at]);
  };
  bool any = false;
  for (std::size_t i = 0; i < kernel.parameters.size(); ++i)
    any = any || unvalued(static_cast<std::int32_t>(i));
  if (!any) return;
  Kernel probe = kernel;  // each such parameter read as an opaque value
  for (Expr& e : probe.exprs) {
    if (e.kind != ExprKind::Param || !unvalued(e.index)) continue;
    const Parameter& p = kernel.parameters[static_cast<std::size_t>(e.index)];
    e.kind = ExprKind::Opaque;
    e.description = "'" + p.name + "', a " + (p.floating == 32 ? "float" : "double") +
                    " parameter given no value (give --arg " + p.name + "=VALUE)";
    e.index = kNone;
  }
  check_data_dependence(probe, parameter_values);
}

}  // namespace warpdiv::sim::ir
