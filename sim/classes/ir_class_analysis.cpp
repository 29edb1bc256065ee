// The class engine's static analysis: the affine form of every value of the kernel in the block
// indices, the warp index and the candidate loops' variables (sim/classes/ir_class_detail.hpp).
#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "sim/classes/ir_class_detail.hpp"
#include "sim/model/ir_ops.hpp"

namespace warpdiv::sim::ir::detail {

Wide type_min(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
    case ScalarType::U8:
    case ScalarType::U16:
    case ScalarType::U32:
    case ScalarType::U64:
      return 0;
    case ScalarType::I8:
      return -128;
    case ScalarType::I16:
      return -32768;
    case ScalarType::I32:
      return -Wide{2147483648LL};
    case ScalarType::I64:
      return -(Wide{1} << 63);
    case ScalarType::F32:
    case ScalarType::F64:
      return -(Wide{1} << 64);  // no integer range
  }
  return 0;
}
Wide type_max(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      return 1;
    case ScalarType::U8:
      return 255;
    case ScalarType::U16:
      return 65535;
    case ScalarType::U32:
      return Wide{4294967295ULL};
    case ScalarType::U64:
      return (Wide{1} << 64) - 1;
    case ScalarType::I8:
      return 127;
    case ScalarType::I16:
      return 32767;
    case ScalarType::I32:
      return 2147483647;
    case ScalarType::I64:
      return (Wide{1} << 63) - 1;
    case ScalarType::F32:
    case ScalarType::F64:
      return Wide{1} << 64;
  }
  return 0;
}
Wide math_value(ScalarType t, std::uint64_t bits) {
  return is_signed(t) ? Wide{static_cast<std::int64_t>(bits)} : Wide{bits};
}

std::string dim_name(int d) { return std::string("blockIdx.") + "xyz"[d]; }

static bool reads_local(const Kernel& k, ExprId id, LocalId local) {
  if (id == kNone) return false;
  const Expr& e = k.exprs[static_cast<std::size_t>(id)];
  if (e.kind == ExprKind::Local && e.index == local) return true;
  for (ExprId o : e.operands)
    if (reads_local(k, o, local)) return true;
  return false;
}

ExprId counter_step(const Kernel& k, const Stmt& t) {
  if (t.kind != StmtKind::Assign || t.value == kNone) return kNone;
  const Expr& b = k.exprs[static_cast<std::size_t>(t.value)];
  if (b.kind != ExprKind::Binary || (b.binary_op != BinaryOp::Add && b.binary_op != BinaryOp::Sub) ||
      b.type != k.locals[static_cast<std::size_t>(t.local)].type)
    return kNone;
  for (int side = 0; side < (b.binary_op == BinaryOp::Add ? 2 : 1); ++side) {
    const Expr& x = k.exprs[static_cast<std::size_t>(b.operands[side])];
    if (x.kind == ExprKind::Local && x.index == t.local && !reads_local(k, b.operands[1 - side], t.local))
      return b.operands[1 - side];
  }
  return kNone;
}

bool wraps_once(const Form& f, ScalarType t, Wide* wrap) {
  if (f.exact || is_signed(t) || is_floating(t)) return false;
  const Wide period = Wide{1} << bit_width(t);
  if (f.low < -kHuge || f.high > kHuge || f.high - f.low >= period) return false;
  if (wrap != nullptr) {
    // The smallest multiple of the period above low (floor division, low may be negative).
    Wide q = f.low / period;
    if (f.low % period != 0 && f.low < 0) --q;
    const Wide point = (q + 1) * period;
    *wrap = point <= f.high ? point : f.low;
  }
  return true;
}

class Analyser::State {
 public:
  State(const Kernel& k, const Launch& l, std::vector<StmtId> loops, std::array<std::int64_t, 3> warp_steps)
      : k_(k),
        l_(l),
        loops_(std::move(loops)),
        symbols_(kLoopSymbols + loops_.size()),
        warp_steps_(warp_steps) {
    origins_ = opaque_origins(k);
    checks_ = checked_values(k, origins_);
    loop_symbol_.assign(k.stmts.size(), -1);
    for (std::size_t i = 0; i < loops_.size(); ++i)
      loop_symbol_[loops_[i]] = static_cast<int>(kLoopSymbols + i);
    variable_symbol_.assign(k.locals.size(), -1);
    for (std::size_t i = 0; i < loops_.size(); ++i)
      variable_symbol_[k.stmts[k.stmts[loops_[i]].step].local] = static_cast<int>(kLoopSymbols + i);
    forms_.resize(k.exprs.size());
    context_.resize(k.exprs.size());
    find_sequential();
  }

  // Forms of every local (fixed point) and then of every evaluated expression.
  void run() {
    locals_.assign(k_.locals.size(), Form{});
    for (Form& f : locals_) f.coefficient.assign(symbols_, 0);
    sequential_forms_.assign(sequential_count_, Form{});
    for (int round = 0; round < 40; ++round) {
      changed_.assign(k_.locals.size(), false);
      restart_sequential();
      walk(k_.root, {}, false);
      if (std::none_of(changed_.begin(), changed_.end(), [](bool c) { return c; })) break;
      if (round >= 6) {
        for (std::size_t i = 0; i < locals_.size(); ++i)
          if (changed_[i]) widen(locals_[i], k_.locals[i].type);
      }
    }
    evaluated_.assign(k_.exprs.size(), false);
    restart_sequential();
    walk(k_.root, {}, true);
  }

  const Form& form(ExprId id) const { return forms_[id]; }
  bool evaluated(ExprId id) const { return evaluated_[id]; }
  const std::vector<StmtId>& loops() const { return loops_; }
  int symbols() const { return static_cast<int>(symbols_); }
  // The innermost candidate loop (or kNone) whose body, condition or step holds the expression.
  StmtId context(ExprId id) const { return context_[id]; }
  std::string reassignment(ExprId origin) const {
    const auto it = reassigned_.find(origin);
    if (it == reassigned_.end()) return "";
    const auto [local, at] = it->second;
    const StmtId first = first_assignment_[local];
    return "the local '" + k_.locals[local].name + "', assigned " +
           (first != kNone && first != at ? "at " + location(k_, k_.stmts[first].range) + " and " : "") +
           "at " + location(k_, k_.stmts[at].range) +
           " with different dependences on it (a local assigned inside a branch or loop is followed as one "
           "value: give each phase a local of its own)";
  }
  std::vector<StmtId> enclosing(ExprId id) const {
    return enclosing_.count(id) ? enclosing_.at(id) : std::vector<StmtId>{};
  }

 private:
  using Refinements = std::map<LocalId, std::pair<Wide, Wide>>;

  Form constant(Wide v) const {
    Form f;
    f.coefficient.assign(symbols_, 0);
    f.low = f.high = v;
    return f;
  }
  Form range(Wide low, Wide high) const {
    Form f = constant(low);
    f.high = high;
    return f;
  }
  // Drops the affine view: symbols with a coefficient become wild; the value is its type's.
  void collapse(Form& f, ScalarType t, ExprId origin) const {
    for (std::size_t s = 0; s < symbols_; ++s)
      if (f.coefficient[s] != 0) {
        f.wild |= std::uint64_t{1} << s;
        f.coefficient[s] = 0;
        if (f.wild_origin == kNone) f.wild_origin = origin;
      }
    if (!f.exact || f.low < type_min(t) || f.high > type_max(t)) {
      f.low = type_min(t);
      f.high = type_max(t);
    }
    f.exact = true;
  }
  void widen(Form& f, ScalarType t) const {
    if (!f.exact) collapse(f, t, kNone);
    f.low = type_min(t);
    f.high = type_max(t);
  }
  static void join(Form& into, const Form& f, std::size_t symbols, int ignore) {
    if (!into.assigned) {
      into = f;
      into.assigned = true;
      if (ignore >= 0) into.coefficient[static_cast<std::size_t>(ignore)] = 0;
      return;
    }
    for (std::size_t s = 0; s < symbols; ++s) {
      if (static_cast<int>(s) == ignore) continue;
      if (into.coefficient[s] != f.coefficient[s]) {
        into.wild |= std::uint64_t{1} << s;
        into.coefficient[s] = 0;
      }
    }
    into.wild |= f.wild;
    if (into.wild_origin == kNone) into.wild_origin = f.wild_origin;
    into.low = std::min(into.low, f.low);
    into.high = std::max(into.high, f.high);
    into.exact = into.exact && f.exact;
  }
  static bool same(const Form& a, const Form& b) {
    return a.coefficient == b.coefficient && a.wild == b.wild && a.low == b.low && a.high == b.high &&
           a.exact == b.exact && a.assigned == b.assigned;
  }

  // Locals assigned only by statements that run whenever the kernel (or the inlined function)
  // gets that far, outside every if, switch and loop, and never from an opaque value: each
  // assignment is a value of its own (as in SSA form), and a read sees the last assignment
  // before it in program order. A local assigned in a branch or a loop joins all its
  // assignments into one form.
  void find_sequential() {
    sequential_.assign(k_.locals.size(), true);
    first_assignment_.assign(k_.locals.size(), kNone);
    for (std::size_t i = 0; i < k_.locals.size(); ++i)
      if (variable_symbol_[i] >= 0) sequential_[i] = false;
    mark_nested(k_.root, 0);
    for (std::size_t i = 0; i < k_.locals.size(); ++i)
      if (sequential_[i]) sequential_list_.push_back(static_cast<LocalId>(i));
    // One remembered value per sequential assignment (not per statement).
    sequential_slot_.assign(k_.stmts.size(), -1);
    int slots = 0;
    for (std::size_t s = 0; s < k_.stmts.size(); ++s) {
      const Stmt& st = k_.stmts[s];
      if ((st.kind == StmtKind::Declare || st.kind == StmtKind::Assign) && st.local != kNone &&
          sequential_[st.local])
        sequential_slot_[s] = slots++;
    }
    sequential_count_ = static_cast<std::size_t>(slots);
  }
  void mark_nested(StmtId id, int nested) {
    if (id == kNone) return;
    const Stmt& s = k_.stmts[id];
    switch (s.kind) {
      case StmtKind::Declare:
      case StmtKind::Assign:
        if (nested > 0 || (s.value != kNone && origins_[s.value] != kNone)) sequential_[s.local] = false;
        break;
      case StmtKind::InlinedCall:
        if (s.local != kNone) sequential_[s.local] = false;
        mark_nested(s.body, nested);
        break;
      case StmtKind::Block:
        for (StmtId c : s.children) mark_nested(c, nested);
        break;
      case StmtKind::Switch:
        for (StmtId c : s.children) mark_nested(c, nested + 1);
        break;
      case StmtKind::If:  // an else-if chain link by link, without recursion
        for (StmtId at = id; at != kNone;) {
          const Stmt& link = k_.stmts[at];
          if (link.kind != StmtKind::If) {
            mark_nested(at, nested + 1);
            break;
          }
          mark_nested(link.then_stmt, nested + 1);
          at = link.else_stmt;
        }
        break;
      case StmtKind::Loop:
        for (StmtId c : {s.init, s.body, s.step}) mark_nested(c, nested + 1);
        break;
      default:
        break;
    }
  }
  // Each walk starts with the sequential locals unassigned.
  void restart_sequential() {
    for (const LocalId i : sequential_list_) {  // in place: the coefficients keep their storage
      Form& f = locals_[static_cast<std::size_t>(i)];
      std::fill(f.coefficient.begin(), f.coefficient.end(), Wide{0});
      f.wild = 0;
      f.low = f.high = 0;
      f.exact = true;
      f.wild_origin = kNone;
      f.assigned = false;
    }
  }
  // An assignment of a sequential local: its value from here on.
  void assign_sequential(StmtId at, LocalId local, const Form& value) {
    Form& next = locals_[local];
    next = value;
    next.assigned = true;
    if (next.high - next.low > kHuge || next.low < -kHuge || next.high > kHuge)
      widen(next, k_.locals[local].type);
    Form& last = sequential_forms_[static_cast<std::size_t>(sequential_slot_[at])];
    if (!same(next, last)) {
      last = next;
      changed_[local] = true;
    }
  }

  void assign(LocalId local, const Form& value, StmtId at) {
    Form next = locals_[local];
    const bool first = !next.assigned;
    join(next, value, symbols_, variable_symbol_[local]);
    if (first_assignment_[local] == kNone) first_assignment_[local] = at;
    // Symbols that became wild here because this assignment depends on them otherwise than an
    // earlier one: the local's reassignment is what the refusal names.
    const std::uint64_t conflict = first ? 0 : next.wild & ~(locals_[local].wild | value.wild);
    if (conflict != 0 && at != kNone && k_.stmts[at].value != kNone &&
        (next.wild_origin == kNone || next.wild_origin == locals_[local].wild_origin)) {
      const ExprId origin = k_.stmts[at].value;
      if (locals_[local].wild_origin == kNone) next.wild_origin = origin;
      reassigned_.emplace(origin, std::make_pair(local, at));
    }
    if (next.high - next.low > kHuge || next.low < -kHuge || next.high > kHuge)
      widen(next, k_.locals[local].type);
    if (!same(next, locals_[local])) {
      locals_[local] = std::move(next);
      changed_[local] = true;
    }
  }

  // Walks statements: values of assignments into locals, and (final) the forms of expressions.
  void walk(StmtId id, const Refinements& refine, bool final) {
    if (id == kNone) return;
    const Stmt& s = k_.stmts[id];
    if (final) {
      // Memory: the accesses' addresses and lanes, and the lanes of the statement's flops.
      for (const std::int32_t a : s.accesses) {
        const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a)];
        if (access.offset != kNone) eval(access.offset, refine, final);
        if (access.guard != kNone) eval(access.guard, refine, final);
      }
      for (const FloatOps& f : s.flops)
        if (f.guard != kNone) eval(f.guard, refine, final);
      // Values evaluated for their undefined behaviour only (LaunchPlan::checks).
      for (const ExprId value : checks_[static_cast<std::size_t>(id)]) eval(value, refine, final);
    }
    switch (s.kind) {
      case StmtKind::Block: {
        // After `if (c) return;` (or break, continue) the block's later statements run only
        // in lanes where c is false.
        Refinements narrowed;
        const Refinements* now = &refine;
        for (std::size_t n = 0; n < s.children.size(); ++n) {
          walk(s.children[n], *now, final);
          const ExprId exit = exit_condition(s.children[n]);
          if (exit == kNone) continue;
          Refinements next = *now;
          const std::vector<StmtId> rest(s.children.begin() + static_cast<std::ptrdiff_t>(n + 1),
                                         s.children.end());
          refine_by(exit, true, rest, *now, next);
          narrowed = std::move(next);
          now = &narrowed;
        }
        break;
      }
      case StmtKind::Switch:
        eval(s.value, refine, final);
        for (StmtId c : s.children) walk(c, refine, final);
        break;
      case StmtKind::Declare:
      case StmtKind::Assign:
        if (s.value != kNone && origins_[s.value] == kNone) {
          if (sequential_[s.local])
            assign_sequential(id, s.local, eval(s.value, refine, final));
          else
            assign(s.local, eval(s.value, refine, final), id);
        }
        break;
      case StmtKind::Return:
        if (s.value != kNone && origins_[s.value] == kNone && !calls_.empty() && calls_.back() != kNone)
          assign(calls_.back(), eval(s.value, refine, final), id);
        break;
      case StmtKind::If:  // an else-if chain link by link, without recursion
        for (StmtId at = id; at != kNone;) {
          const Stmt& link = k_.stmts[at];
          if (link.kind != StmtKind::If) {
            walk(at, refine, final);
            break;
          }
          eval(link.value, refine, final);
          walk(link.then_stmt, refined_branch(link.value, link.then_stmt, refine), final);
          at = link.else_stmt;
        }
        break;
      case StmtKind::InlinedCall:
        calls_.push_back(s.local);
        walk(s.body, refine, final);
        calls_.pop_back();
        break;
      case StmtKind::Loop: {
        walk(s.init, refine, final);
        if (loop_symbol_[id] >= 0) open_.push_back(id);
        if (s.value != kNone) eval(s.value, refine, final);
        const Refinements inner = refined(s, refine);
        walk(s.body, inner, final);
        walk(s.step, inner, final);
        if (loop_symbol_[id] >= 0) open_.pop_back();
        break;
      }
      default:
        break;
    }
  }

  // Inside a loop `for (...; v < E; step)` whose body does not assign v, v < E holds in the body
  // and the step.
  Refinements refined(const Stmt& loop, const Refinements& outer) {
    Refinements r = outer;
    if (loop.value == kNone || loop.loop_kind == LoopKind::Do) return r;
    refine_by(loop.value, false, {loop.body}, outer, r);
    return r;
  }

  // Inside `if (c) S`, c holds in every lane that runs S.
  Refinements refined_branch(ExprId condition, StmtId then_stmt, const Refinements& outer) {
    Refinements r = outer;
    refine_by(condition, false, {then_stmt}, outer, r);
    return r;
  }

  // The condition of `if (c) return;` (break, continue; no else), or kNone.
  ExprId exit_condition(StmtId id) const {
    const Stmt& s = k_.stmts[id];
    if (s.kind != StmtKind::If || s.else_stmt != kNone) return kNone;
    StmtId then = s.then_stmt;
    while (then != kNone && k_.stmts[then].kind == StmtKind::Block && k_.stmts[then].children.size() == 1)
      then = k_.stmts[then].children[0];
    if (then == kNone) return kNone;
    const StmtKind kind = k_.stmts[then].kind;
    return kind == StmtKind::Return || kind == StmtKind::Break || kind == StmtKind::Continue ? s.value
                                                                                             : kNone;
  }

  // Adds to `r` the bounds that the condition `c` (`negated`: its negation) puts on the locals it
  // compares with an exact value, where the statements `region` do not assign them: each
  // comparison of a conjunction (c itself, or && of them; under negation, || of them).
  void refine_by(ExprId c_id, bool negated, const std::vector<StmtId>& region, const Refinements& outer,
                 Refinements& r) {
    const Expr& c = k_.exprs[c_id];
    if (c.kind == ExprKind::Logical && c.logical_op == (negated ? LogicalOp::Or : LogicalOp::And)) {
      refine_by(c.operands[0], negated, region, outer, r);
      refine_by(c.operands[1], negated, region, outer, r);
      return;
    }
    if (c.kind == ExprKind::Unary && c.unary_op == UnaryOp::LogicalNot) {
      refine_by(c.operands[0], !negated, region, outer, r);
      return;
    }
    if (c.kind != ExprKind::Binary || !is_comparison(c.binary_op)) return;
    for (int side = 0; side < 2; ++side) {
      const Expr& v = k_.exprs[c.operands[side]];
      if (v.kind != ExprKind::Local ||
          std::any_of(region.begin(), region.end(), [&](StmtId at) { return assigns(at, v.index); }))
        continue;
      const Form& bound = eval(c.operands[1 - side], outer, false);
      if (!bound.exact) continue;
      const Form& value = eval(c.operands[side], outer, false);
      if (!value.exact) continue;
      const std::optional<std::pair<Wide, Wide>> range =
          bounds(held(c.binary_op, side == 1, negated), bound, value);
      if (!range) continue;
      auto it = r.find(v.index);
      const Wide low = it != r.end() ? std::max(range->first, it->second.first) : range->first;
      const Wide high = it != r.end() ? std::min(range->second, it->second.second) : range->second;
      r[v.index] = {low, high};
    }
  }

  // The comparison v op' E that holds where `v op E` (swapped: `E op v`) is true, or false when
  // negated.
  static BinaryOp held(BinaryOp op, bool swapped, bool negated) {
    if (swapped)
      op = op == BinaryOp::Lt   ? BinaryOp::Gt
           : op == BinaryOp::Gt ? BinaryOp::Lt
           : op == BinaryOp::Le ? BinaryOp::Ge
           : op == BinaryOp::Ge ? BinaryOp::Le
                                : op;
    if (negated)
      op = op == BinaryOp::Lt   ? BinaryOp::Ge
           : op == BinaryOp::Ge ? BinaryOp::Lt
           : op == BinaryOp::Le ? BinaryOp::Gt
           : op == BinaryOp::Gt ? BinaryOp::Le
           : op == BinaryOp::Eq ? BinaryOp::Ne
                                : BinaryOp::Eq;
    return op;
  }

  // The range v op E gives v, whose range is `value`'s (v != E narrows it only at its ends).
  static std::optional<std::pair<Wide, Wide>> bounds(BinaryOp op, const Form& bound, const Form& value) {
    switch (op) {
      case BinaryOp::Lt:
        return std::make_pair(-kHuge, bound.high - 1);
      case BinaryOp::Le:
        return std::make_pair(-kHuge, bound.high);
      case BinaryOp::Gt:
        return std::make_pair(bound.low + 1, kHuge);
      case BinaryOp::Ge:
        return std::make_pair(bound.low, kHuge);
      case BinaryOp::Eq:
        return std::make_pair(bound.low, bound.high);
      case BinaryOp::Ne:
        if (bound.low != bound.high) return std::nullopt;
        if (bound.low == value.low) return std::make_pair(value.low + 1, kHuge);
        if (bound.low == value.high) return std::make_pair(-kHuge, value.high - 1);
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }

  bool assigns(StmtId id, LocalId local) const {
    if (id == kNone) return false;
    const Stmt& s = k_.stmts[id];
    if ((s.kind == StmtKind::Assign || s.kind == StmtKind::Declare) && s.local == local) return true;
    if (s.kind == StmtKind::InlinedCall && s.local == local) return true;
    for (StmtId c : s.children)
      if (assigns(c, local)) return true;
    return assigns(s.then_stmt, local) || assigns(s.else_stmt, local) || assigns(s.init, local) ||
           assigns(s.body, local) || assigns(s.step, local);
  }

  const Form& eval(ExprId id, const Refinements& refine, bool final) {
    Form f = compute(id, refine, final);
    if (final) {
      evaluated_[id] = true;
      context_[id] = open_.empty() ? kNone : open_.back();
      enclosing_[id] = open_;
    }
    forms_[id] = std::move(f);
    return forms_[id];
  }

  Form compute(ExprId id, const Refinements& refine, bool final) {
    const Expr& e = k_.exprs[id];
    // Floating-point values (and what is computed from them: comparisons, conversions) are not
    // affine forms: like an opaque value, they may differ within any class. Their operands are
    // still evaluated (they may read locals the analysis follows).
    if (is_floating(e.type) || e.kind == ExprKind::Warp ||
        (e.operands[0] != kNone && is_floating(k_.exprs[e.operands[0]].type) &&
         (e.kind == ExprKind::Cast || e.kind == ExprKind::Binary))) {
      for (ExprId op : e.operands)
        if (op != kNone) eval(op, refine, final);
      Form f = range(type_min(e.type), type_max(e.type));
      f.wild = ~std::uint64_t{0};
      f.wild_origin = id;
      return f;
    }
    switch (e.kind) {
      case ExprKind::Constant:
        return constant(math_value(e.type, e.constant));
      case ExprKind::Param:
        return constant(math_value(e.type, l_.arguments[e.index].bits));
      case ExprKind::Builtin:
        return builtin(e);
      case ExprKind::Local:
        return local(e, refine);
      case ExprKind::Opaque: {
        Form f = range(type_min(e.type), type_max(e.type));
        f.wild = ~std::uint64_t{0};
        f.wild_origin = id;
        return f;
      }
      case ExprKind::Cast:
        return cast(id, e, eval(e.operands[0], refine, final));
      case ExprKind::Unary:
        return unary(id, e, refine, final);
      case ExprKind::Binary: {
        Form a = eval(e.operands[0], refine, final);
        Form b = eval(e.operands[1], refine, final);
        return binary(id, e, std::move(a), std::move(b));
      }
      case ExprKind::Logical: {
        Form a = eval(e.operands[0], refine, final);
        const Form& b = eval(e.operands[1], refine, final);
        a.wild |= b.wild;
        if (a.wild_origin == kNone) a.wild_origin = b.wild_origin;
        return boolean(a, id);
      }
      case ExprKind::Select:
        return select(e, refine, final);
      case ExprKind::Intrinsic:
      case ExprKind::Warp:
        break;  // floating, or across lanes: handled above
    }
    return range(type_min(e.type), type_max(e.type));
  }

  Form builtin(const Expr& e) const {
    const int b = static_cast<int>(e.builtin);
    const std::uint32_t block[3] = {l_.block.x, l_.block.y, l_.block.z};
    const std::uint32_t grid[3] = {l_.grid.x, l_.grid.y, l_.grid.z};
    if (b <= static_cast<int>(Builtin::ThreadIdxZ)) {
      Form f = range(0, block[b] - 1);
      f.coefficient[kWarpSymbol] = warp_steps_[static_cast<std::size_t>(b)];
      return f;
    }
    if (b <= static_cast<int>(Builtin::BlockIdxZ)) {
      const int d = b - static_cast<int>(Builtin::BlockIdxX);
      Form f = range(0, grid[d] - 1);
      f.coefficient[static_cast<std::size_t>(d)] = 1;
      return f;
    }
    if (b <= static_cast<int>(Builtin::BlockDimZ))
      return constant(block[b - static_cast<int>(Builtin::BlockDimX)]);
    if (b <= static_cast<int>(Builtin::GridDimZ))
      return constant(grid[b - static_cast<int>(Builtin::GridDimX)]);
    return constant(l_.warp_size);
  }

  Form local(const Expr& e, const Refinements& refine) const {
    Form f = locals_[e.index];
    if (!f.assigned) f = range(type_min(e.type), type_max(e.type));  // never assigned: UB on read
    f.assigned = false;
    const auto it = refine.find(e.index);
    if (it != refine.end() && f.exact) {
      f.low = std::max(f.low, it->second.first);
      f.high = std::min(f.high, it->second.second);
      if (f.low > f.high) f.high = f.low;  // unreachable; keep a valid range
    }
    const int s = variable_symbol_[e.index];
    if (s >= 0) f.coefficient[static_cast<std::size_t>(s)] = 1;
    return f;
  }

  Form unary(ExprId id, const Expr& e, const Refinements& refine, bool final) {
    Form a = eval(e.operands[0], refine, final);
    if (e.unary_op == UnaryOp::LogicalNot) return boolean(a, id);
    if (e.unary_op == UnaryOp::BitNot) {
      collapse(a, e.type, id);
      a.low = type_min(e.type);
      a.high = type_max(e.type);
      return a;
    }
    for (Wide& c : a.coefficient) c = -c;
    const Wide low = -a.high, high = -a.low;
    a.low = low;
    a.high = high;
    return arithmetic(id, e.type, a);
  }

  Form select(const Expr& e, const Refinements& refine, bool final) {
    const Form c = eval(e.operands[0], refine, final);
    Form x = eval(e.operands[1], refine, final);
    const Form& y = eval(e.operands[2], refine, final);
    x.assigned = true;
    join(x, y, symbols_, -1);
    x.assigned = false;
    x.wild |= c.wild;
    if (x.wild_origin == kNone) x.wild_origin = c.wild_origin;
    return x;
  }

  // A truth value: the same within a class unless its operand is not affine, or (a conversion
  // of a number to bool) depends on a symbol at all.
  Form boolean(const Form& a, ExprId id) const {
    Form f = range(0, 1);
    f.wild = a.wild;
    f.wild_origin = a.wild_origin;
    for (std::size_t s = 0; s < symbols_; ++s)
      if (a.coefficient[s] != 0) {
        f.wild |= std::uint64_t{1} << s;
        if (f.wild_origin == kNone) f.wild_origin = id;
      }
    return f;
  }

  // The result of + - * or unary - of type t: signed results are M itself (an overflow is
  // undefined behaviour, which the replay reports where it happens); unsigned ones wrap.
  Form arithmetic(ExprId id, ScalarType t, Form f) const {
    if (f.low < -kHuge || f.high > kHuge) {
      collapse(f, t, id);
      return f;
    }
    if (is_signed(t)) {
      f.low = std::max(f.low, type_min(t));
      f.high = std::min(f.high, type_max(t));
      if (f.low > f.high) f.high = f.low;
    } else if (f.low < 0 || f.high > type_max(t)) {
      f.exact = false;
    }
    return f;
  }

  Form cast(ExprId id, const Expr& e, Form a) const {
    const ScalarType from = k_.exprs[e.operands[0]].type, to = e.type;
    if (to == ScalarType::Bool) return boolean(a, id);
    if (from == ScalarType::Bool) return a;
    if (!a.exact && bit_width(to) > bit_width(from)) {
      collapse(a, from, id);
      a.low = type_min(to);
      a.high = type_max(to);
      return a;
    }
    a.exact = a.low >= type_min(to) && a.high <= type_max(to);
    return a;
  }

  static bool is_constant(const Form& f) {
    return f.exact && f.wild == 0 && f.low == f.high &&
           std::all_of(f.coefficient.begin(), f.coefficient.end(), [](Wide c) { return c == 0; });
  }

  Form binary(ExprId id, const Expr& e, Form a, Form b) const {
    const ScalarType t = k_.exprs[e.operands[0]].type;
    const BinaryOp op = e.binary_op;
    if (op == BinaryOp::Add || op == BinaryOp::Sub) {
      if (is_signed(t)) {
        collapse_inexact(a, t, id);
        collapse_inexact(b, t, id);
      }
      Form f = a;
      for (std::size_t s = 0; s < symbols_; ++s)
        f.coefficient[s] =
            op == BinaryOp::Add ? a.coefficient[s] + b.coefficient[s] : a.coefficient[s] - b.coefficient[s];
      f.wild = a.wild | b.wild;
      if (f.wild_origin == kNone) f.wild_origin = b.wild_origin;
      f.low = op == BinaryOp::Add ? a.low + b.low : a.low - b.high;
      f.high = op == BinaryOp::Add ? a.high + b.high : a.high - b.low;
      f.exact = a.exact && b.exact;
      return arithmetic(id, t, f);
    }
    if (op == BinaryOp::Mul) {
      if (is_signed(t)) {
        collapse_inexact(a, t, id);
        collapse_inexact(b, t, id);
      }
      if (!is_constant(a) && is_constant(b)) std::swap(a, b);
      Form f = b;
      f.exact = a.exact && b.exact;
      if (is_constant(a)) {
        const Wide k = a.low;
        for (Wide& c : f.coefficient) c *= k;
        f.low = std::min(b.low * k, b.high * k);
        f.high = std::max(b.low * k, b.high * k);
      } else {
        for (Form* g : {&a, &b})
          for (std::size_t s = 0; s < symbols_; ++s)
            if (g->coefficient[s] != 0) {
              f.wild |= std::uint64_t{1} << s;
              if (f.wild_origin == kNone) f.wild_origin = id;
            }
        for (Wide& c : f.coefficient) c = 0;
        f.wild |= a.wild;
        if (f.wild_origin == kNone) f.wild_origin = a.wild_origin;
        if (a.low < -kHuge / 2 || a.high > kHuge / 2 || b.low < -kHuge / 2 || b.high > kHuge / 2) {
          f.low = -kHuge * 2;
          f.high = kHuge * 2;
        } else {
          const Wide p[4] = {a.low * b.low, a.low * b.high, a.high * b.low, a.high * b.high};
          f.low = *std::min_element(p, p + 4);
          f.high = *std::max_element(p, p + 4);
        }
      }
      return arithmetic(id, t, f);
    }
    if (is_comparison(op)) {
      // An operand that wraps around once at most stays affine on each side of the wrap (the
      // plan guards it, WrapGuard); one that may wrap more is not affine.
      if (!wraps_once(a, t)) collapse_inexact(a, t, id);
      if (!wraps_once(b, t)) collapse_inexact(b, t, id);
      Form f = range(0, 1);
      f.wild = a.wild | b.wild;
      f.wild_origin = a.wild_origin != kNone ? a.wild_origin : b.wild_origin;
      return f;
    }
    // / % << >> & | ^: not affine in a symbol; ranges where they are easy.
    const bool both_constant = is_constant(a) && is_constant(b);
    Wide low = type_min(t), high = type_max(t);
    if (both_constant) {
      bool fault = false;
      const auto bits = [](Wide v) { return static_cast<std::uint64_t>(v); };
      const std::uint64_t r =
          ops::binary_fn(op, t)(normalise(t, bits(a.low)), normalise(t, bits(b.low)), fault);
      if (!fault) low = high = math_value(t, r);
    } else if (is_constant(b) && b.low > 0 && a.exact) {
      if (op == BinaryOp::Div) {
        low = a.low / b.low;
        high = a.high / b.low;
      }
      if (op == BinaryOp::Rem) {
        low = a.low >= 0 ? 0 : -(b.low - 1);
        high = a.high <= 0 ? 0 : std::min(a.high, b.low - 1);
      }
      if (op == BinaryOp::Shr && a.low >= 0 && b.low < bit_width(t)) {
        low = a.low >> static_cast<int>(b.low);
        high = a.high >> static_cast<int>(b.low);
      }
      if (op == BinaryOp::BitAnd && a.low >= 0) {
        low = 0;
        high = std::min(a.high, b.low);
      }
    }
    collapse(a, t, id);
    collapse(b, t, id);
    Form f = range(low, high);
    f.wild = a.wild | b.wild;
    f.wild_origin = a.wild_origin != kNone ? a.wild_origin : b.wild_origin;
    return f;
  }

  void collapse_inexact(Form& f, ScalarType t, ExprId origin) const {
    if (!f.exact) collapse(f, t, origin);
  }

  const Kernel& k_;
  const Launch& l_;
  std::vector<StmtId> loops_;
  std::size_t symbols_;
  std::array<std::int64_t, 3> warp_steps_;  // d threadIdx.{x, y, z} / d warp (0: none)
  std::vector<ExprId> origins_;
  /// [StmtId]: values evaluated only for their undefined behaviour (checked_values).
  std::vector<std::vector<ExprId>> checks_;
  std::vector<int> loop_symbol_;      // [StmtId]
  std::vector<int> variable_symbol_;  // [LocalId]
  std::vector<Form> locals_;
  std::vector<bool> sequential_;          // [LocalId]: see find_sequential()
  std::vector<StmtId> first_assignment_;  // [LocalId]: the first (joined) assignment walked
  // Values of assignments (ExprId) that made their local non-affine in a symbol: (local, statement).
  std::map<ExprId, std::pair<LocalId, StmtId>> reassigned_;
  std::vector<LocalId> sequential_list_;  // the sequential locals
  std::vector<int> sequential_slot_;      // [StmtId]: its index among the sequential assignments, or -1
  std::size_t sequential_count_ = 0;
  std::vector<Form> sequential_forms_;  // [slot]: the value each sequential assignment gave last
  std::vector<bool> changed_;
  std::vector<Form> forms_;
  std::vector<bool> evaluated_;
  std::vector<StmtId> context_;
  std::map<ExprId, std::vector<StmtId>> enclosing_;
  std::vector<LocalId> calls_;
  std::vector<StmtId> open_;
};

Analyser::Analyser(const Kernel& k, const Launch& l, std::vector<StmtId> loops,
                   std::array<std::int64_t, 3> warp_steps)
    : s_(std::make_unique<State>(k, l, std::move(loops), warp_steps)) {}
Analyser::~Analyser() = default;
void Analyser::run() { s_->run(); }
const Form& Analyser::form(ExprId id) const { return s_->form(id); }
bool Analyser::evaluated(ExprId id) const { return s_->evaluated(id); }
const std::vector<StmtId>& Analyser::loops() const { return s_->loops(); }
std::string Analyser::reassignment(ExprId origin) const { return s_->reassignment(origin); }
int Analyser::symbols() const { return s_->symbols(); }
StmtId Analyser::context(ExprId id) const { return s_->context(id); }
std::vector<StmtId> Analyser::enclosing(ExprId id) const { return s_->enclosing(id); }

}  // namespace warpdiv::sim::ir::detail
