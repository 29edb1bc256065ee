#include "sim/ir_classes.hpp"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <stdexcept>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

#include "sim/ir_engine.hpp"
#include "sim/ir_ops.hpp"

namespace warpdiv::sim::ir {

namespace detail {

__extension__ typedef __int128 Wide;

// The abstract value of an expression. Symbols are the three block indices and the variables of
// the candidate loops. The expression's mathematical value M is sum(coefficient[s] * s) + r,
// where r does not change with a symbol s that is not `wild` (for the same path: the same
// outcomes of every condition so far); M lies in [low, high]; `exact`: the value the kernel
// computes is M itself (else it is M reduced modulo 2^width of the type: an unsigned wrap).
struct Form {
  std::vector<Wide> coefficient;
  std::uint64_t wild = 0;          // bit s: depends on symbol s in a way that is not affine
  Wide low = 0, high = 0;
  bool exact = true;
  ExprId wild_origin = kNone;      // where the first non-affine dependence arose
  bool assigned = false;           // locals: some assignment seen
};

struct ClassAnalysis {
  std::vector<std::optional<TrackedComparison>> tracked;   // [ExprId]
  std::vector<std::optional<AcceleratedLoop>> accelerated;  // [StmtId]
  /// The warps of a block fall into classes too: threadIdx is affine in the warp's index and no
  /// condition depends on it otherwise (tracked comparisons then carry a warp coefficient).
  bool warp_classes = false;
};

}  // namespace detail

namespace {

using detail::Form;
using detail::Wide;
using detail::TraceEntry;
using detail::AcceleratedLoop;
using detail::TrackedComparison;

// Symbols: blockIdx.x, y, z; the warp's index in its block; then the candidate loops' variables.
constexpr int kBlockSymbols = 3;
constexpr int kWarpSymbol = 3;
constexpr int kLoopSymbols = 4;
constexpr int kMaxSymbols = 64;             // Form::wild has a bit per symbol
constexpr std::size_t kMaxClasses = 4096;   // boxes of the partition, at most
constexpr std::size_t kMaxLoggedOutcomes = std::size_t{64} << 20;  // bytes, over all block runs
constexpr int kMaxRounds = 24;              // refinements of the partition, at most

constexpr Wide kHuge = Wide{1} << 100;      // ranges past this are treated as unknown

Wide type_min(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: case ScalarType::U8: case ScalarType::U16: case ScalarType::U32:
    case ScalarType::U64: return 0;
    case ScalarType::I8: return -128;
    case ScalarType::I16: return -32768;
    case ScalarType::I32: return -Wide{2147483648LL};
    case ScalarType::I64: return -(Wide{1} << 63);
  }
  return 0;
}
Wide type_max(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return 1;
    case ScalarType::U8: return 255;
    case ScalarType::U16: return 65535;
    case ScalarType::U32: return Wide{4294967295ULL};
    case ScalarType::U64: return (Wide{1} << 64) - 1;
    case ScalarType::I8: return 127;
    case ScalarType::I16: return 32767;
    case ScalarType::I32: return 2147483647;
    case ScalarType::I64: return (Wide{1} << 63) - 1;
  }
  return 0;
}
Wide math_value(ScalarType t, std::uint64_t bits) {
  return is_signed(t) ? Wide{static_cast<std::int64_t>(bits)} : Wide{bits};
}

std::string dim_name(int d) { return std::string("blockIdx.") + "xyz"[d]; }

class Analyser {
 public:
  Analyser(const Kernel& k, const Launch& l, std::vector<StmtId> loops, std::array<std::int64_t, 3> warp_steps)
      : k_(k), l_(l), loops_(std::move(loops)), symbols_(kLoopSymbols + loops_.size()),
        warp_steps_(warp_steps) {
    origins_ = opaque_origins(k);
    loop_symbol_.assign(k.stmts.size(), -1);
    for (std::size_t i = 0; i < loops_.size(); ++i)
      loop_symbol_[loops_[i]] = static_cast<int>(kLoopSymbols + i);
    variable_symbol_.assign(k.locals.size(), -1);
    for (std::size_t i = 0; i < loops_.size(); ++i)
      variable_symbol_[k.stmts[k.stmts[loops_[i]].step].local] = static_cast<int>(kLoopSymbols + i);
    forms_.resize(k.exprs.size());
    context_.resize(k.exprs.size());
  }

  // Forms of every local (fixed point) and then of every evaluated expression.
  void run() {
    locals_.assign(k_.locals.size(), Form{});
    for (Form& f : locals_) f.coefficient.assign(symbols_, 0);
    for (int round = 0; round < 40; ++round) {
      changed_.assign(k_.locals.size(), false);
      walk(k_.root, {}, false);
      if (std::none_of(changed_.begin(), changed_.end(), [](bool c) { return c; })) break;
      if (round >= 6) {
        for (std::size_t i = 0; i < locals_.size(); ++i)
          if (changed_[i]) widen(locals_[i], k_.locals[i].type);
      }
    }
    evaluated_.assign(k_.exprs.size(), false);
    walk(k_.root, {}, true);
  }

  const Form& form(ExprId id) const { return forms_[id]; }
  bool evaluated(ExprId id) const { return evaluated_[id]; }
  const std::vector<StmtId>& loops() const { return loops_; }
  int symbols() const { return static_cast<int>(symbols_); }
  // The innermost candidate loop (or kNone) whose body, condition or step holds the expression.
  StmtId context(ExprId id) const { return context_[id]; }
  std::vector<StmtId> enclosing(ExprId id) const { return enclosing_.count(id) ? enclosing_.at(id) : std::vector<StmtId>{}; }

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
    return a.coefficient == b.coefficient && a.wild == b.wild && a.low == b.low &&
           a.high == b.high && a.exact == b.exact && a.assigned == b.assigned;
  }

  void assign(LocalId local, const Form& value) {
    Form next = locals_[local];
    join(next, value, symbols_, variable_symbol_[local]);
    if (next.high - next.low > kHuge || next.low < -kHuge || next.high > kHuge)
      widen(next, k_.locals[local].type);
    if (!same(next, locals_[local])) {
      locals_[local] = next;
      changed_[local] = true;
    }
  }

  // Walks statements: values of assignments into locals, and (final) the forms of expressions.
  void walk(StmtId id, const Refinements& refine, bool final) {
    if (id == kNone) return;
    const Stmt& s = k_.stmts[id];
    switch (s.kind) {
      case StmtKind::Block:
      case StmtKind::Switch:
        if (s.kind == StmtKind::Switch) eval(s.value, refine, final);
        for (StmtId c : s.children) walk(c, refine, final);
        break;
      case StmtKind::Declare:
      case StmtKind::Assign:
        if (s.value != kNone && origins_[s.value] == kNone) assign(s.local, eval(s.value, refine, final));
        break;
      case StmtKind::Return:
        if (s.value != kNone && origins_[s.value] == kNone && !calls_.empty() && calls_.back() != kNone)
          assign(calls_.back(), eval(s.value, refine, final));
        break;
      case StmtKind::If:  // an else-if chain link by link, without recursion
        for (StmtId at = id; at != kNone;) {
          const Stmt& link = k_.stmts[at];
          if (link.kind != StmtKind::If) {
            walk(at, refine, final);
            break;
          }
          eval(link.value, refine, final);
          walk(link.then_stmt, refine, final);
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
      default: break;
    }
  }

  // Inside a loop `for (...; v < E; step)` whose body does not assign v, v < E holds in the body
  // and the step.
  Refinements refined(const Stmt& loop, const Refinements& outer) {
    Refinements r = outer;
    if (loop.value == kNone || loop.loop_kind == LoopKind::Do) return r;
    const Expr& c = k_.exprs[loop.value];
    if (c.kind != ExprKind::Binary || !is_comparison(c.binary_op)) return r;
    for (int side = 0; side < 2; ++side) {
      const Expr& v = k_.exprs[c.operands[side]];
      if (v.kind != ExprKind::Local || assigns(loop.body, v.index)) continue;
      const Form& bound = eval(c.operands[1 - side], outer, false);
      if (!bound.exact) continue;
      BinaryOp op = c.binary_op;
      if (side == 1) {  // E op v  ->  v op' E
        op = op == BinaryOp::Lt ? BinaryOp::Gt : op == BinaryOp::Gt ? BinaryOp::Lt
           : op == BinaryOp::Le ? BinaryOp::Ge : op == BinaryOp::Ge ? BinaryOp::Le : op;
      }
      Wide low = -kHuge, high = kHuge;
      if (op == BinaryOp::Lt) high = bound.high - 1;
      else if (op == BinaryOp::Le) high = bound.high;
      else if (op == BinaryOp::Gt) low = bound.low + 1;
      else if (op == BinaryOp::Ge) low = bound.low;
      else continue;
      auto it = r.find(v.index);
      if (it != r.end()) {
        low = std::max(low, it->second.first);
        high = std::min(high, it->second.second);
      }
      r[v.index] = {low, high};
    }
    return r;
  }

  bool assigns(StmtId id, LocalId local) const {
    if (id == kNone) return false;
    const Stmt& s = k_.stmts[id];
    if ((s.kind == StmtKind::Assign || s.kind == StmtKind::Declare) && s.local == local) return true;
    if (s.kind == StmtKind::InlinedCall && s.local == local) return true;
    for (StmtId c : s.children) if (assigns(c, local)) return true;
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
    switch (e.kind) {
      case ExprKind::Constant: return constant(math_value(e.type, e.constant));
      case ExprKind::Param: return constant(math_value(e.type, l_.arguments[e.index].bits));
      case ExprKind::Builtin: {
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
        if (b <= static_cast<int>(Builtin::BlockDimZ)) return constant(block[b - static_cast<int>(Builtin::BlockDimX)]);
        if (b <= static_cast<int>(Builtin::GridDimZ)) return constant(grid[b - static_cast<int>(Builtin::GridDimX)]);
        return constant(l_.warp_size);
      }
      case ExprKind::Local: {
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
      case ExprKind::Opaque: {
        Form f = range(type_min(e.type), type_max(e.type));
        f.wild = ~std::uint64_t{0};
        f.wild_origin = id;
        return f;
      }
      case ExprKind::Cast: return cast(id, e, eval(e.operands[0], refine, final));
      case ExprKind::Unary: {
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
      case ExprKind::Select: {
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
    }
    return range(type_min(e.type), type_max(e.type));
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
      if (is_signed(t)) { collapse_inexact(a, t, id); collapse_inexact(b, t, id); }
      Form f = a;
      for (std::size_t s = 0; s < symbols_; ++s)
        f.coefficient[s] = op == BinaryOp::Add ? a.coefficient[s] + b.coefficient[s]
                                               : a.coefficient[s] - b.coefficient[s];
      f.wild = a.wild | b.wild;
      if (f.wild_origin == kNone) f.wild_origin = b.wild_origin;
      f.low = op == BinaryOp::Add ? a.low + b.low : a.low - b.high;
      f.high = op == BinaryOp::Add ? a.high + b.high : a.high - b.low;
      f.exact = a.exact && b.exact;
      return arithmetic(id, t, f);
    }
    if (op == BinaryOp::Mul) {
      if (is_signed(t)) { collapse_inexact(a, t, id); collapse_inexact(b, t, id); }
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
      collapse_inexact(a, t, id);
      collapse_inexact(b, t, id);
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
      const std::uint64_t r = ops::binary_fn(op, t)(normalise(t, bits(a.low)), normalise(t, bits(b.low)), fault);
      if (!fault) low = high = math_value(t, r);
    } else if (is_constant(b) && b.low > 0 && a.exact) {
      if (op == BinaryOp::Div) { low = a.low / b.low; high = a.high / b.low; }
      if (op == BinaryOp::Rem) {
        low = a.low >= 0 ? 0 : -(b.low - 1);
        high = a.high <= 0 ? 0 : std::min(a.high, b.low - 1);
      }
      if (op == BinaryOp::Shr && a.low >= 0 && b.low < bit_width(t)) {
        low = a.low >> static_cast<int>(b.low);
        high = a.high >> static_cast<int>(b.low);
      }
      if (op == BinaryOp::BitAnd && a.low >= 0) { low = 0; high = std::min(a.high, b.low); }
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
  std::vector<int> loop_symbol_;      // [StmtId]
  std::vector<int> variable_symbol_;  // [LocalId]
  std::vector<Form> locals_;
  std::vector<bool> changed_;
  std::vector<Form> forms_;
  std::vector<bool> evaluated_;
  std::vector<StmtId> context_;
  std::map<ExprId, std::vector<StmtId>> enclosing_;
  std::vector<LocalId> calls_;
  std::vector<StmtId> open_;
};

// ---------------------------------------------------------------------------------------------
// Loops that may run as classes of iterations: structure only (forms decide the rest).

void collect(const Kernel& k, StmtId id, std::vector<StmtId>& out) {
  if (id == kNone) return;
  out.push_back(id);
  const Stmt& s = k.stmts[id];
  for (StmtId c : s.children) collect(k, c, out);
  for (StmtId c : {s.then_stmt, s.else_stmt, s.init, s.body, s.step}) collect(k, c, out);
}

// Breaks that leave `loop` itself, and returns that leave the kernel, inside its body.
bool leaves(const Kernel& k, StmtId id, int loops_deep, int calls_deep) {
  if (id == kNone) return false;
  const Stmt& s = k.stmts[id];
  if (s.kind == StmtKind::Break && loops_deep == 0) return true;
  if (s.kind == StmtKind::Return && calls_deep == 0) return true;
  const int inner_loops = loops_deep + (s.kind == StmtKind::Loop || s.kind == StmtKind::Switch ? 1 : 0);
  const int inner_calls = calls_deep + (s.kind == StmtKind::InlinedCall ? 1 : 0);
  for (StmtId c : s.children) if (leaves(k, c, inner_loops, inner_calls)) return true;
  for (StmtId c : {s.then_stmt, s.else_stmt, s.body, s.step})
    if (leaves(k, c, inner_loops, inner_calls)) return true;
  return leaves(k, s.init, loops_deep, calls_deep);
}

// Where each expression is used: the expression it is an operand of, or the statement whose
// value it is.
struct Uses {
  std::vector<ExprId> parent;     // [ExprId]
  std::vector<StmtId> statement;  // [ExprId]
};
Uses uses_of(const Kernel& k) {
  Uses u;
  u.parent.assign(k.exprs.size(), kNone);
  u.statement.assign(k.exprs.size(), kNone);
  for (std::size_t i = 0; i < k.exprs.size(); ++i)
    for (ExprId o : k.exprs[i].operands)
      if (o != kNone) u.parent[static_cast<std::size_t>(o)] = static_cast<ExprId>(i);
  for (std::size_t i = 0; i < k.stmts.size(); ++i)
    if (k.stmts[i].value != kNone) u.statement[static_cast<std::size_t>(k.stmts[i].value)] = static_cast<StmtId>(i);
  return u;
}

bool reads(const Kernel& k, ExprId id, LocalId local) {
  if (id == kNone) return false;
  const Expr& e = k.exprs[static_cast<std::size_t>(id)];
  if (e.kind == ExprKind::Local && e.index == local) return true;
  for (ExprId o : e.operands)
    if (reads(k, o, local)) return true;
  return false;
}

// The step `x = x + e` / `x = x - e` (e not reading x) that statement `t` is, or kNone (e's id).
ExprId counter_step(const Kernel& k, const Stmt& t) {
  if (t.kind != StmtKind::Assign || t.value == kNone) return kNone;
  const Expr& b = k.exprs[static_cast<std::size_t>(t.value)];
  if (b.kind != ExprKind::Binary || (b.binary_op != BinaryOp::Add && b.binary_op != BinaryOp::Sub) ||
      b.type != k.locals[static_cast<std::size_t>(t.local)].type)
    return kNone;
  for (int side = 0; side < (b.binary_op == BinaryOp::Add ? 2 : 1); ++side) {
    const Expr& x = k.exprs[static_cast<std::size_t>(b.operands[side])];
    if (x.kind == ExprKind::Local && x.index == t.local && !reads(k, b.operands[1 - side], t.local))
      return b.operands[1 - side];
  }
  return kNone;
}

// A local that only its own steps read (every read of it is the x of an `x = x +- e`).
bool only_stepped(const Kernel& k, LocalId local, const Uses& uses) {
  for (std::size_t i = 0; i < k.exprs.size(); ++i) {
    const Expr& e = k.exprs[i];
    if (e.kind != ExprKind::Local || e.index != local) continue;
    const ExprId p = uses.parent[i];
    if (p == kNone) return false;
    const StmtId s = uses.statement[static_cast<std::size_t>(p)];
    if (s == kNone) return false;
    const Stmt& t = k.stmts[static_cast<std::size_t>(s)];
    if (t.local != local || counter_step(k, t) == kNone) return false;
  }
  return true;
}

std::optional<AcceleratedLoop> candidate(const Kernel& k, StmtId id,
                                         const std::vector<ExprId>& origins, const Uses& uses) {
  const Stmt& s = k.stmts[id];
  if (s.kind != StmtKind::Loop || s.loop_kind == LoopKind::Do || s.step == kNone || s.value == kNone)
    return std::nullopt;
  const Stmt& step = k.stmts[s.step];
  if (step.kind != StmtKind::Assign || step.value == kNone || origins[step.value] != kNone)
    return std::nullopt;
  const LocalId v = step.local;
  if (leaves(k, s.body, 0, 0)) return std::nullopt;
  std::vector<StmtId> inside;
  collect(k, s.body, inside);
  std::set<LocalId> declared;
  for (StmtId i : inside)
    if (k.stmts[i].kind == StmtKind::Declare) declared.insert(k.stmts[i].local);
  AcceleratedLoop acc{v, 0, {}};
  for (StmtId i : inside) {
    const Stmt& t = k.stmts[i];
    const bool writes = (t.kind == StmtKind::Assign && t.value != kNone && origins[t.value] == kNone) ||
                        (t.kind == StmtKind::InlinedCall && t.local != kNone);
    if (!writes || (t.local != v && declared.count(t.local) != 0)) continue;
    // State carried from one iteration to the next: only a counter (its steps' operands are
    // checked against the loop's variable once the forms are known).
    if (t.local == v || counter_step(k, t) == kNone || !only_stepped(k, t.local, uses)) return std::nullopt;
    if (std::find(acc.counters.begin(), acc.counters.end(), t.local) == acc.counters.end())
      acc.counters.push_back(t.local);
  }
  // The step: v = v + K or v - K (casts around either allowed), K a constant of the launch; K
  // itself is read off the form of the step's value later.
  return acc;
}

// The counters' steps inside `loop` do not depend on its variable (`symbol`): every iteration of a
// class steps them alike.
bool counters_steady(const Kernel& k, const Analyser& a, StmtId loop, const AcceleratedLoop& acc, int symbol) {
  if (acc.counters.empty()) return true;
  std::vector<StmtId> inside;
  collect(k, k.stmts[static_cast<std::size_t>(loop)].body, inside);
  for (StmtId i : inside) {
    const Stmt& t = k.stmts[static_cast<std::size_t>(i)];
    if (t.kind != StmtKind::Assign ||
        std::find(acc.counters.begin(), acc.counters.end(), t.local) == acc.counters.end())
      continue;
    const ExprId e = counter_step(k, t);
    if (e == kNone || !a.evaluated(e)) return false;
    const Form& f = a.form(e);
    if (f.coefficient[static_cast<std::size_t>(symbol)] != 0 || (f.wild >> symbol & 1) != 0) return false;
  }
  return true;
}

// How threadIdx.{x, y, z} step from one warp of a block to the next, when every thread's index is
// (step x warp) + a part that is the same in every warp: 1-D blocks whose size is a multiple of
// the warp size (threadIdx.x = warp size x warp + lane), and 2-D blocks whose rows fit a warp a
// whole number of times (threadIdx.y = rows per warp x warp + lane / blockDim.x). Not for other
// blocks, nor for fewer than three warps (nothing to gain), nor for a last warp not full.
std::optional<std::array<std::int64_t, 3>> warp_steps(const Launch& l) {
  const std::uint64_t w = l.warp_size, bx = l.block.x, by = l.block.y, bz = l.block.z;
  const std::uint64_t threads = bx * by * bz;
  if (w == 0 || threads % w != 0 || threads / w < 3) return std::nullopt;
  if (by == 1 && bz == 1 && bx % w == 0) return std::array<std::int64_t, 3>{static_cast<std::int64_t>(w), 0, 0};
  if (bz == 1 && w % bx == 0) return std::array<std::int64_t, 3>{0, static_cast<std::int64_t>(w / bx), 0};
  return std::nullopt;
}

ClassRefusal refusal(const Kernel& k, ExprId id, const std::string& what, const std::string& reason) {
  ClassRefusal r;
  r.range = k.exprs[id].range;
  r.location = location(k, r.range);
  r.what = what;
  r.reason = reason;
  return r;
}

std::string describe_expr(const Kernel& k, ExprId id) {
  const Expr& e = k.exprs[id];
  std::string what;
  switch (e.kind) {
    case ExprKind::Binary: what = "'" + name(e.binary_op) + "'"; break;
    case ExprKind::Unary: what = "'" + name(e.unary_op) + "'"; break;
    case ExprKind::Cast:
      what = e.type == ScalarType::Bool ? std::string("a conversion to bool (a step, not a line)")
                                        : "a conversion to " + name(e.type) + " that may wrap around";
      break;
    case ExprKind::Opaque: what = e.description; break;
    default: what = name(e.kind); break;
  }
  return what + " (" + location(k, e.range) + ")";
}

bool faulting(const Expr& e, const Kernel& k, int operand) {
  if (e.kind == ExprKind::Unary) return e.unary_op == UnaryOp::Neg && is_signed(e.type);
  if (e.kind != ExprKind::Binary) return false;
  const bool s = is_signed(k.exprs[e.operands[0]].type);
  switch (e.binary_op) {
    case BinaryOp::Add: case BinaryOp::Sub: case BinaryOp::Mul: return s;
    case BinaryOp::Div: case BinaryOp::Rem: return operand == 1 || s;
    case BinaryOp::Shl: return operand == 1 || s;
    case BinaryOp::Shr: return operand == 1;
    default: return false;
  }
}

struct Checked {
  std::optional<ClassRefusal> refused;      // about a block index
  std::set<StmtId> rejected_loops;
  bool warp_wild = false;                   // something decides by the warp index, not affinely
};

// Every place where a value that is not affine in a symbol could change control flow or be
// undefined somewhere the engine does not replay.
Checked check(const Kernel& k, const Analyser& a) {
  Checked out;
  const auto symbol_name = [&](int s) { return s < kBlockSymbols ? dim_name(s) : std::string("a loop variable"); };
  // A block index: the plan is refused. The warp index: the warps of a block are all run. A loop
  // variable: the loop does not run as classes.
  const auto bad = [&](ExprId at, std::uint64_t wild, const std::string& what, ExprId origin) {
    for (int s = 0; s < a.symbols(); ++s) {
      if (!(wild >> s & 1)) continue;
      if (s == kWarpSymbol) {
        out.warp_wild = true;
      } else if (s < kBlockSymbols) {
        if (!out.refused) {
          const std::string through = origin != kNone ? " through " + describe_expr(k, origin) : "";
          out.refused = refusal(k, at, what, "depends on " + symbol_name(s) + through +
                                                 ", which is not affine in it");
        }
      } else {
        const StmtId loop = a.loops()[static_cast<std::size_t>(s - kLoopSymbols)];
        const auto enclosing = a.enclosing(at);
        if (std::find(enclosing.begin(), enclosing.end(), loop) != enclosing.end())
          out.rejected_loops.insert(loop);
      }
    }
  };
  const auto coefficients = [&](const Form& f) {
    std::uint64_t m = 0;
    for (int s = 0; s < a.symbols(); ++s)
      if (f.coefficient[static_cast<std::size_t>(s)] != 0) m |= std::uint64_t{1} << s;
    return m;
  };
  for (std::size_t i = 0; i < k.exprs.size(); ++i) {
    const auto id = static_cast<ExprId>(i);
    if (!a.evaluated(id)) continue;
    const Expr& e = k.exprs[i];
    if (e.kind == ExprKind::Binary && is_comparison(e.binary_op)) {
      const Form& x = a.form(e.operands[0]);
      const Form& y = a.form(e.operands[1]);
      const std::uint64_t inexact = (x.exact ? 0 : coefficients(x)) | (y.exact ? 0 : coefficients(y));
      bad(id, x.wild | y.wild, "this comparison", x.wild_origin != kNone ? x.wild_origin : y.wild_origin);
      bad(id, inexact, "this comparison", id);
    }
    if (e.kind == ExprKind::Select) {
      const Form& c = a.form(e.operands[0]);
      bad(id, c.wild, "the condition of this ?:", c.wild_origin);
    }
    for (int o = 0; o < 2; ++o) {
      if (e.operands[o] == kNone || !faulting(e, k, o)) continue;
      const Form& f = a.form(e.operands[o]);
      std::uint64_t risky = f.wild;
      // Linear operands of + - * and unary -: checked at the corners; the others are not linear.
      const bool linear = e.kind == ExprKind::Unary || e.binary_op == BinaryOp::Add ||
                          e.binary_op == BinaryOp::Sub || e.binary_op == BinaryOp::Mul;
      if (!linear) risky |= coefficients(f);
      bad(id, risky, "this '" + (e.kind == ExprKind::Unary ? name(e.unary_op) : name(e.binary_op)) + "'",
          f.wild_origin != kNone ? f.wild_origin : id);
    }
  }
  for (std::size_t i = 0; i < k.stmts.size(); ++i) {
    const Stmt& s = k.stmts[i];
    if (s.value == kNone || !a.evaluated(s.value)) continue;
    const Form& f = a.form(s.value);
    if (s.kind == StmtKind::If || s.kind == StmtKind::Loop)
      bad(s.value, f.wild, "the condition of this " + report_kind(s), f.wild_origin);
    if (s.kind == StmtKind::Switch)
      bad(s.value, f.wild | coefficients(f), "the value of this switch", f.wild_origin != kNone ? f.wild_origin : s.value);
  }
  return out;
}

// The step constant of a candidate loop: the step's value is v + K (its form's coefficient on
// v's symbol is 1 and, v aside, it is a constant) - found by strip-matching v + K / v - K.
std::optional<std::int64_t> step_of(const Kernel& k, const Analyser& a, StmtId loop, int symbol) {
  const Stmt& step = k.stmts[k.stmts[loop].step];
  const Form& f = a.form(step.value);
  if (!f.exact || f.wild != 0 || f.coefficient[static_cast<std::size_t>(symbol)] != 1) return std::nullopt;
  ExprId e = step.value;
  while (k.exprs[e].kind == ExprKind::Cast) e = k.exprs[e].operands[0];
  const Expr& add = k.exprs[e];
  if (add.kind != ExprKind::Binary || (add.binary_op != BinaryOp::Add && add.binary_op != BinaryOp::Sub))
    return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    ExprId v = add.operands[side];
    while (k.exprs[v].kind == ExprKind::Cast) v = k.exprs[v].operands[0];
    if (k.exprs[v].kind != ExprKind::Local || k.exprs[v].index != step.local) continue;
    if (side == 1 && add.binary_op == BinaryOp::Sub) return std::nullopt;
    const Form& c = a.form(add.operands[1 - side]);
    if (!c.exact || c.wild != 0 || c.low != c.high || c.low == 0) return std::nullopt;
    if (std::any_of(c.coefficient.begin(), c.coefficient.end(), [](Wide x) { return x != 0; }))
      return std::nullopt;
    if (c.low > Wide{1} << 40 || c.low < -(Wide{1} << 40)) return std::nullopt;
    const auto K = static_cast<std::int64_t>(c.low);
    return add.binary_op == BinaryOp::Add ? K : -K;
  }
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Plan

std::string ClassRefusal::message() const {
  return location + ": the class engine cannot prove the block classes: " + what + " " + reason;
}

ClassesUnproven::ClassesUnproven(ClassRefusal refusal)
    : InvalidInput(refusal.message()), refusal_(std::move(refusal)) {}


const StatementCounts& SparseCounts::operator[](std::size_t id) const {
  static const StatementCounts zero;
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), id,
                                   [](const auto& entry, std::size_t wanted) { return entry.first < wanted; });
  return it != entries_.end() && it->first == id ? it->second : zero;
}

void SparseCounts::set(std::size_t id, const StatementCounts& counts) {
  if (id >= size_) throw std::logic_error("SparseCounts: statement " + std::to_string(id) + " out of range");
  if (entries_.empty() || entries_.back().first < id) {  // the usual case: ids in increasing order
    entries_.emplace_back(id, counts);
    return;
  }
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), id,
                                   [](const auto& entry, std::size_t wanted) { return entry.first < wanted; });
  if (it != entries_.end() && it->first == id)
    it->second = counts;
  else
    entries_.emplace(it, id, counts);
}

bool operator==(const SparseCounts& a, const SparseCounts& b) {
  return a.size_ == b.size_ && a.entries_ == b.entries_;
}

ClassPlan plan_classes(const Kernel& kernel, const Launch& launch, GridLimits limits) {
  validate(kernel);
  validate(launch, kernel, limits);
  const std::vector<ExprId> origins = opaque_origins(kernel);
  const Uses uses = uses_of(kernel);
  std::vector<StmtId> loops;
  std::map<StmtId, AcceleratedLoop> structure;
  for (std::size_t i = 0; i < kernel.stmts.size(); ++i)
    if (auto c = candidate(kernel, static_cast<StmtId>(i), origins, uses)) {
      loops.push_back(static_cast<StmtId>(i));
      structure[static_cast<StmtId>(i)] = *c;
    }
  // Loops that share a variable would share its symbol: none of them runs as classes.
  std::map<LocalId, int> users;
  for (const auto& [loop, acc] : structure) users[acc.variable] += 1;
  loops.erase(std::remove_if(loops.begin(), loops.end(),
                             [&](StmtId l) { return users[structure[l].variable] > 1; }),
              loops.end());
  // One symbol per loop, kMaxSymbols in all: the loops past that run iteration by iteration
  // (exact, only slower), which also keeps the analysis linear in the kernel's size.
  if (loops.size() > static_cast<std::size_t>(kMaxSymbols - kLoopSymbols))
    loops.resize(static_cast<std::size_t>(kMaxSymbols - kLoopSymbols));
  ClassPlan plan;
  plan.limits = limits;
  const std::optional<std::array<std::int64_t, 3>> steps_per_warp = warp_steps(launch);
  for (;;) {
    Analyser a(kernel, launch, loops, steps_per_warp.value_or(std::array<std::int64_t, 3>{}));
    a.run();
    Checked c = check(kernel, a);
    const bool warp_classes = steps_per_warp.has_value() && !c.warp_wild;
    std::map<StmtId, std::int64_t> steps;
    for (std::size_t i = 0; i < loops.size(); ++i) {
      const auto step = step_of(kernel, a, loops[i], static_cast<int>(kLoopSymbols + i));
      if (!step || !counters_steady(kernel, a, loops[i], structure[loops[i]], static_cast<int>(kLoopSymbols + i)))
        c.rejected_loops.insert(loops[i]);
      else steps[loops[i]] = *step;
    }
    if (!c.rejected_loops.empty()) {
      loops.erase(std::remove_if(loops.begin(), loops.end(),
                                 [&](StmtId l) { return c.rejected_loops.count(l) != 0; }),
                  loops.end());
      continue;
    }
    if (c.refused) {
      plan.refusal = c.refused;
      return plan;
    }
    auto analysis = std::make_shared<detail::ClassAnalysis>();
    analysis->tracked.resize(kernel.exprs.size());
    analysis->accelerated.resize(kernel.stmts.size());
    for (std::size_t i = 0; i < loops.size(); ++i) {
      AcceleratedLoop acc = structure[loops[i]];
      acc.step = steps[loops[i]];
      analysis->accelerated[loops[i]] = acc;
    }
    for (std::size_t i = 0; i < kernel.exprs.size(); ++i) {
      const Expr& e = kernel.exprs[i];
      if (!a.evaluated(static_cast<ExprId>(i)) || e.kind != ExprKind::Binary || !is_comparison(e.binary_op))
        continue;
      const Form& x = a.form(e.operands[0]);
      const Form& y = a.form(e.operands[1]);
      TrackedComparison t;
      bool any = false;
      for (int s = 0; s < a.symbols(); ++s) {
        const Wide d = x.coefficient[static_cast<std::size_t>(s)] - y.coefficient[static_cast<std::size_t>(s)];
        if (d == 0 || (s == kWarpSymbol && !warp_classes)) continue;
        if (d > Wide{1} << 62 || d < -(Wide{1} << 62)) {
          plan.refusal = refusal(kernel, static_cast<ExprId>(i), "this comparison",
                                 "has a coefficient too large to follow");
          return plan;
        }
        any = true;
        if (s == kWarpSymbol) {
          t.warp_coefficient = static_cast<std::int64_t>(d);
        } else if (s < kBlockSymbols) {
          t.block_coefficient[static_cast<std::size_t>(s)] = static_cast<std::int64_t>(d);
        } else {
          t.loop_coefficients.emplace_back(loops[static_cast<std::size_t>(s - kLoopSymbols)],
                                           static_cast<std::int64_t>(d));
        }
      }
      if (any) analysis->tracked[i] = t;
    }
    analysis->warp_classes = warp_classes;
    plan.accelerated_loops = loops;
    plan.analysis = analysis;
    return plan;
  }
}

// ---------------------------------------------------------------------------------------------
// Replay by classes

namespace {

using Corner = std::array<std::uint32_t, 3>;

// A round's corner runs go to the helper threads as well when they are estimated (from the longest
// run so far) to take at least this long in all: waking a helper and giving it a machine of its
// own costs some tens of microseconds.
constexpr std::chrono::steady_clock::duration kParallelRoundWork = std::chrono::microseconds(150);

// Helper threads for the corner runs of a round, started once per process and kept waiting: a
// launch's corner runs take tens of microseconds each, about what starting a thread costs. A job
// is `items` calls of `work(item, helper)`; the caller runs items too and returns when all are
// done. A helper that wakes after the caller took the last item does nothing, and the caller does
// not wait for it: the job's state is shared, and `work` (which refers to the caller's frame) is
// called only for an item taken before all were done.
class Helpers {
 public:
  static Helpers& get() {
    static Helpers* helpers = new Helpers;  // never destroyed: helpers may still wait at exit
    return *helpers;
  }
  // Runs items 0 .. items-1 on the caller and up to `helpers` helper threads; `work`'s second
  // argument is 0 on the caller, 1 .. helpers on the helpers.
  void run(std::size_t items, unsigned helpers, const std::function<void(std::size_t, unsigned)>& work) {
    auto job = std::make_shared<Job>();
    job->items = items;
    job->work = &work;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (threads_ < helpers) {
        // Helpers take no signals: they outlive the runs that start them, and a signal handled
        // on one would not be held back where the caller blocks signals (output files do,
        // while they list a temporary file). They inherit the mask they start with.
        sigset_t all, previous;
        sigfillset(&all);
        ::pthread_sigmask(SIG_BLOCK, &all, &previous);
        try {
          while (threads_ < helpers) {
            std::thread([this, id = threads_ + 1] { serve(id); }).detach();
            ++threads_;
          }
        } catch (...) {
          ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
          throw;
        }
        ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
      }
      job_ = job;
      ++generation_;
      wanted_ = helpers;
    }
    wake_.notify_all();
    take(*job, 0);
    std::unique_lock<std::mutex> lock(job->mutex);
    job->finished.wait(lock, [&] { return job->done == job->items; });
    std::lock_guard<std::mutex> clear(mutex_);
    if (job_ == job) job_.reset();
  }

 private:
  struct Job {
    std::size_t items = 0;
    const std::function<void(std::size_t, unsigned)>* work = nullptr;
    std::atomic<std::size_t> next{0};
    std::size_t done = 0;  // under mutex
    std::mutex mutex;
    std::condition_variable finished;
  };
  static void take(Job& job, unsigned helper) {
    for (std::size_t i; (i = job.next.fetch_add(1)) < job.items;) {
      (*job.work)(i, helper);
      std::lock_guard<std::mutex> lock(job.mutex);
      if (++job.done == job.items) job.finished.notify_all();
    }
  }
  void serve(unsigned id) {
    std::uint64_t seen = 0;
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        if (id > wanted_) continue;
        job = job_;
      }
      if (job) take(*job, id);
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::shared_ptr<Job> job_;
  std::uint64_t generation_ = 0;
  unsigned threads_ = 0;
  unsigned wanted_ = 0;
};

struct BlockRun {
  detail::Tally tally;
  detail::ClassTrace trace;
  detail::IterationLog log;  // iterations of accelerated loops and outcomes (attach_log)
  bool logged = false;       // run with `log` (only blocks that may represent a class are)
  std::uint64_t warps_run = 0;
};

std::string interval_definition(int d, std::uint64_t first, std::uint64_t last, std::uint64_t size) {
  const std::string n = dim_name(d);
  if (first == 0 && last + 1 == size) return "";
  if (first == last) {
    const std::string where = last + 1 == size ? " (last)" : first == 0 ? " (first)" : "";
    return n + " = " + std::to_string(first) + where;
  }
  if (first == 0) return n + " < " + std::to_string(last + 1);
  if (last + 1 == size) return n + " >= " + std::to_string(first);
  return n + " in [" + std::to_string(first) + ", " + std::to_string(last) + "]";
}

StatementCounts scaled(const detail::Counts64& c, Count times) {
  StatementCounts s;
  s.warp_evaluations = checked_mul(c.evaluations, times);
  s.divergent = checked_mul(c.divergent, times);
  s.active_lanes = checked_mul(c.active, times);
  s.taken_lanes = checked_mul(c.taken, times);
  s.block_executions = checked_mul(c.block_executions, times);
  s.partial_block_executions = checked_mul(c.partial_block_executions, times);
  s.blocks_with_partial = checked_mul(c.blocks_with_partial, times);
  return s;
}

std::string value_text(ScalarType type, std::uint64_t bits) {
  return is_signed(type) ? std::to_string(static_cast<std::int64_t>(bits)) : std::to_string(bits);
}

// The definition of iterations first .. last of a loop whose last check (every lane leaves) is
// iteration `exit_at` (see IterationClass::definition).
std::string iteration_definition(const Kernel& kernel, const AcceleratedLoop& acc, const detail::LoopLog& log,
                                 const IterationClass& c, std::uint64_t exit_at) {
  const std::uint64_t a = c.first, b = c.last;
  const std::uint64_t body_last = exit_at == 0 ? 0 : exit_at - 1;
  const bool whole = exit_at > 0 && a == 0 && b >= body_last && !c.exit;
  std::string text;
  if (log.by_value && log.started) {
    const Local& variable = kernel.locals[static_cast<std::size_t>(acc.variable)];
    const auto value = [&](std::uint64_t k) {
      return normalise(variable.type, log.start + static_cast<std::uint64_t>(acc.step) * k);
    };
    const auto v = [&](std::uint64_t k) { return value_text(variable.type, value(k)); };
    const std::string& n = variable.name;
    const bool up = acc.step > 0;
    if (a == b) {
      text = n + " = " + v(a) +
             (c.exit ? " (exit)" : a == body_last ? " (last)" : a == 0 ? " (first)" : "");
    } else if (whole || (a != 0 && b < body_last)) {
      const bool ascending = is_signed(variable.type)
                                 ? static_cast<std::int64_t>(value(a)) < static_cast<std::int64_t>(value(b))
                                 : value(a) < value(b);
      text = n + " in [" + (ascending ? v(a) : v(b)) + ", " + (ascending ? v(b) : v(a)) + "]" +
             (whole ? " (all)" : "");
    } else if (a == 0) {
      if (acc.step == 1 || acc.step == -1) text = n + (up ? " < " : " > ") + v(b + 1);
      else text = n + (up ? " <= " : " >= ") + v(b);
    } else {
      text = n + (up ? " >= " : " <= ") + v(a);
    }
  } else if (a == b) {
    text = "iteration " + std::to_string(a + 1) +
           (c.exit ? " (exit)" : a == body_last ? " (last)" : a == 0 ? " (first)" : "");
  } else {
    text = "iterations " + std::to_string(a + 1) + " to " + std::to_string(b + 1) +
           (whole ? " (all)" : "");
  }
  return c.merged ? text + " (merged)" : text;
}

// The iteration classes of one representative block's log, for a class of `blocks` blocks.
std::vector<IterationClass> iteration_classes(const Kernel& kernel, const detail::Program& program,
                                              detail::IterationLog& log, Count blocks) {
  std::vector<std::size_t> order(program.loop_shapes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto where = [&](std::size_t i) {
    const SourceRange& r = kernel.stmts[static_cast<std::size_t>(program.loop_shapes[i].loop)].range;
    return std::make_tuple(r.file, r.line, r.column, program.loop_shapes[i].loop);
  };
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return where(x) < where(y); });
  const std::size_t stmts = kernel.stmts.size();
  const auto warps = static_cast<std::size_t>(program.warps_per_block);
  std::vector<IterationClass> out;
  for (const std::size_t i : order) {
    const detail::Program::LoopShape& shape = program.loop_shapes[i];
    detail::LoopLog& loop_log = log.loops[i];
    if (loop_log.pieces.empty()) continue;
    detail::compact(loop_log);
    const auto& pieces = loop_log.pieces;
    const std::uint64_t exit_at = pieces.back().last;
    const bool outcomes = warps * stmts * pieces.size() <= kMaxOutcomeCells;
    std::size_t own = 0;  // the loop's own statement among the shape's
    while (shape.statements[own] != shape.loop) ++own;
    for (const detail::IterationPiece& piece : pieces) {
      IterationClass c;
      c.loop = shape.loop;
      c.first = piece.first;
      c.last = piece.last;
      c.merged = piece.merged;
      const Count times = piece.merged ? blocks : checked_mul(Count{c.size()}, blocks);
      c.statements = SparseCounts(stmts);
      bool others = false;
      for (std::size_t j = 0; j < shape.statements.size(); ++j) {
        c.statements.set(static_cast<std::size_t>(shape.statements[j]), scaled(piece.counts[j], times));
        if (j != own && piece.counts[j].evaluations != 0) others = true;
      }
      const detail::Counts64& condition = piece.counts[own];
      c.exit = !piece.merged && !others && condition.evaluations != 0 && condition.taken == 0;
      if (outcomes && !piece.outcomes.empty()) {
        c.outcomes.assign(warps * stmts, WarpOutcome::NotReached);
        const std::size_t nc = shape.conditions.size();
        for (std::size_t w = 0; w < warps; ++w)
          for (std::size_t j = 0; j < nc; ++j)
            c.outcomes[w * stmts + static_cast<std::size_t>(shape.statements[shape.conditions[j]])] =
                piece.outcomes[w * nc + j];
      }
      c.definition = iteration_definition(kernel, *program.accelerated[static_cast<std::size_t>(shape.loop)],
                                          loop_log, c, exit_at);
      out.push_back(std::move(c));
    }
  }
  return out;
}

// A fresh log for one block of `program`.
detail::IterationLog new_log(const Kernel& kernel, const detail::Program& program) {
  detail::IterationLog log;
  log.loops.resize(program.loop_shapes.size());
  const std::size_t cells = static_cast<std::size_t>(program.warps_per_block) * kernel.stmts.size();
  if (cells <= kMaxOutcomeCells) log.outcomes.assign(cells, WarpOutcome::NotReached);
  return log;
}

// Thresholds of one record that warps not run may add, when the two ends' ranges span more block
// indices than this: the block's warps are run one by one instead.
constexpr Wide kMaxFilledThresholds = 16;

// `log` holds warp 0's run alone: it becomes that of warps 0 .. n-1 running alike (counts n
// times, warp 0's rows of outcomes copied to the others').
void copy_first_warp(detail::IterationLog& log, std::uint64_t n, std::size_t warps) {
  if (n == 1) return;
  const auto copy_rows = [&](std::vector<WarpOutcome>& rows) {
    if (rows.empty()) return;
    const std::size_t width = rows.size() / warps;
    for (std::uint64_t w = 1; w < n; ++w)
      std::copy(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(width),
                rows.begin() + static_cast<std::ptrdiff_t>(w * width));
  };
  copy_rows(log.outcomes);
  for (detail::LoopLog& loop : log.loops)
    for (detail::IterationPiece& p : loop.pieces) {
      for (detail::Counts64& c : p.counts) {
        const detail::Counts64 one = c;
        c = detail::Counts64{};
        detail::add_scaled(c, one, n);
      }
      copy_rows(p.outcomes);
    }
}

// The block's warps by classes, as its blocks are found: intervals of warp indices whose ends'
// comparisons put the next breakpoint (a lane's outcome changing) beyond them run their two ends
// only; equal ends stand for the warps between (every comparison in them is affine in the warp
// index, so each lane's outcome keeps its value from end to end). The block's breakpoints from
// those warps lie between the ends' (a - b of each lane is monotonic in the warp index): the
// whole range goes in. Fills `r` as running every warp would, but for the order of the
// breakpoints; false when the warps do not fall into classes that way (nothing in `r` changed
// but warps_run, and the log as it was).
bool run_warp_classes(detail::WarpMachine& machine, const detail::Program& program,
                      const Kernel& kernel, detail::IterationLog* log, BlockRun& r) {
  const int warps = program.warps_per_block;
  struct WarpRun {
    bool ran = false;
    bool logged = false;  // ran with the log
    detail::Tally tally;  // statements only: no counts by iteration with warp classes
    detail::ClassTrace trace;
  };
  // [warp]; kept from block to block on each thread, so that their vectors keep their storage.
  thread_local std::vector<WarpRun> runs;
  if (runs.size() < static_cast<std::size_t>(warps)) runs.resize(static_cast<std::size_t>(warps));
  for (int w = 0; w < warps; ++w) runs[static_cast<std::size_t>(w)].ran = false;
  // Not in classes: the log (which warp 0 ran with) is empty again, for the warps one by one.
  const auto give_up = [&] {
    if (log != nullptr) {
      for (detail::LoopLog& loop : log->loops) loop = detail::LoopLog{};
      std::fill(log->outcomes.begin(), log->outcomes.end(), WarpOutcome::NotReached);
    }
    return false;
  };
  std::set<std::uint64_t> starts{0};
  // Warp 0 starts a class whatever the others do: it runs with the log, which is then its alone
  // (copy_first_warp makes it stand for its class). Once warp 0's class is warp 0 alone, a warp
  // that is a class by itself (intervals only split) runs with the log too.
  const auto alone = [&](std::uint64_t w) {
    return starts.count(w) != 0 && (w + 1 == static_cast<std::uint64_t>(warps) || starts.count(w + 1) != 0);
  };
  const auto run = [&](std::uint64_t w) -> const WarpRun& {
    WarpRun& x = runs[w];
    if (x.ran) return x;
    x.ran = true;
    x.logged = log != nullptr && (w == 0 || (alone(0) && alone(w)));
    x.tally.statements.assign(kernel.stmts.size(), detail::Counts64{});
    x.tally.evaluations = 0;
    x.tally.warps = 0;
    x.trace.clear();
    machine.set_trace(&x.trace);
    machine.set_log(x.logged ? log : nullptr);
    machine.run_warp(static_cast<int>(w), x.tally, true);
    r.warps_run += 1;
    return x;
  };
  std::vector<std::pair<std::uint64_t, std::uint64_t>> intervals;
  for (bool grew = true; grew;) {
    intervals.clear();
    for (auto it = starts.begin(); it != starts.end(); ++it) {
      const auto next = std::next(it);
      intervals.emplace_back(*it, (next == starts.end() ? static_cast<std::uint64_t>(warps) : *next) - 1);
    }
    grew = false;
    for (const auto& [first, last] : intervals)
      for (const std::uint64_t w : {first, last})
        for (const std::uint64_t at : run(w).trace.warp_breakpoints) grew |= starts.insert(at).second;
  }
  const std::uint64_t grid[3] = {program.launch.grid.x, program.launch.grid.y, program.launch.grid.z};
  std::array<std::vector<std::uint64_t>, 3> filled;
  for (const auto& [first, last] : intervals) {
    if (first == last) continue;
    const WarpRun& a = runs[first];
    const WarpRun& b = runs[last];
    if (!(a.trace.entries == b.trace.entries) || a.tally.evaluations != b.tally.evaluations) return give_up();
    for (std::size_t s = 0; s < kernel.stmts.size(); ++s)
      if (!(a.tally.statements[s] == b.tally.statements[s])) return give_up();
    if (last - first < 2) continue;
    const auto& ra = a.trace.block_ranges;
    const auto& rb = b.trace.block_ranges;
    if (ra.size() != rb.size()) return give_up();
    for (std::size_t i = 0; i < ra.size(); ++i) {
      if (ra[i].dim != rb[i].dim) return give_up();
      const int d = ra[i].dim;
      const Wide from = std::max<Wide>(std::min(ra[i].from, rb[i].from), 1);
      const Wide to = std::min<Wide>(std::max(ra[i].to, rb[i].to), Wide{grid[d]} - 1);
      if (to - from + 1 > kMaxFilledThresholds) return give_up();
      for (Wide at = from; at <= to; ++at) filled[static_cast<std::size_t>(d)].push_back(static_cast<std::uint64_t>(at));
    }
  }
  std::size_t entries = 0;
  for (const auto& [first, last] : intervals) entries += runs[first].trace.entries.size() * (last - first + 1);
  r.trace.entries.reserve(entries);
  for (const auto& [first, last] : intervals) {
    const WarpRun& rep = runs[first];
    const std::uint64_t n = last - first + 1;
    for (std::size_t s = 0; s < kernel.stmts.size(); ++s)
      detail::add_scaled(r.tally.statements[s], rep.tally.statements[s], n);
    r.tally.evaluations += detail::product(rep.tally.evaluations, n);
    r.tally.warps += n;
    for (std::uint64_t k = 0; k < n; ++k)
      r.trace.entries.insert(r.trace.entries.end(), rep.trace.entries.begin(), rep.trace.entries.end());
  }
  for (int w = 0; w < warps; ++w) {
    const WarpRun& x = runs[static_cast<std::size_t>(w)];
    if (!x.ran) continue;
    for (int d = 0; d < 3; ++d)
      r.trace.breakpoints[d].insert(r.trace.breakpoints[d].end(), x.trace.breakpoints[d].begin(),
                                    x.trace.breakpoints[d].end());
  }
  for (int d = 0; d < 3; ++d)
    r.trace.breakpoints[d].insert(r.trace.breakpoints[d].end(), filled[d].begin(), filled[d].end());
  if (log != nullptr) {
    // Warp 0's log stands for its class; the other classes' first warps run again with the log,
    // each standing for its class, unless they ran with it (classes of one warp).
    copy_first_warp(*log, intervals.front().second + 1, static_cast<std::size_t>(warps));
    thread_local detail::Tally scratch;
    thread_local detail::ClassTrace trace;
    scratch.statements.resize(kernel.stmts.size());
    machine.set_trace(&trace);
    machine.set_log(log);
    for (const auto& [first, last] : intervals) {
      if (first == 0 || runs[first].logged) continue;
      machine.set_log_copies(static_cast<std::uint32_t>(last - first + 1));
      trace.clear();
      machine.run_warp(static_cast<int>(first), scratch, true);
      r.warps_run += 1;
    }
  }
  return true;
}

// Runs block `c` with a trace (and, when given, an iteration log) on `machine`: its warps by
// classes where the program allows, else (or when they do not fall into classes) one by one.
BlockRun run_block(detail::WarpMachine& machine, const detail::Program& program, const Kernel& kernel,
                   const ReplayOptions& options, const Corner& c, detail::IterationLog* log) {
  // The machine records nothing after the block, whichever way it ends.
  struct Detach {
    detail::WarpMachine& m;
    ~Detach() {
      m.set_trace(nullptr);
      m.set_log(nullptr);
      m.set_log_copies(1);
    }
  } detach{machine};
  BlockRun r;
  r.tally.statements.resize(kernel.stmts.size());
  r.tally.iterations.resize(kernel.stmts.size());
  machine.begin_block(c[0], c[1], c[2]);
  try {
    if (program.warp_classes && run_warp_classes(machine, program, kernel, log, r)) {
      machine.end_block(r.tally);
      return r;
    }
    machine.set_trace(&r.trace);
    machine.set_log(log);
    for (int w = 0; w < program.warps_per_block; ++w) {
      const bool counted = !options.only_warp || *options.only_warp == static_cast<std::uint32_t>(w);
      if (!counted && program.barriers == 0) continue;
      machine.run_warp(w, r.tally, counted);
      r.warps_run += 1;
    }
  } catch (const detail::IterationClassMismatch& e) {
    ClassRefusal why;
    why.location = "<launch>";
    why.what = "a loop's iterations";
    why.reason = std::string("do not fall into classes: ") + e.what();
    throw ClassesUnproven(why);
  }
  machine.end_block(r.tally);
  return r;
}

// The per-warp outcomes and iteration classes of a class whose representative was run with `log`.
void attach_log(BlockClass& c, const Kernel& kernel, const detail::Program& program,
                detail::IterationLog& log) {
  c.warps = static_cast<std::uint32_t>(program.warps_per_block);
  c.outcomes = log.outcomes;
  c.iteration_classes = iteration_classes(kernel, program, log, c.blocks);
}

ClassReplayResult one_block(const Kernel& kernel, const Launch& launch, const ReplayOptions& options) {
  ClassReplayResult r;
  static_cast<ReplayResult&>(r) = replay(kernel, launch, options);
  BlockClass c;
  const Dim3 b = *options.only_block;
  const std::uint32_t at[3] = {b.x, b.y, b.z};
  const std::uint32_t size[3] = {launch.grid.x, launch.grid.y, launch.grid.z};
  std::string definition;
  for (int d = 0; d < 3; ++d) {
    c.intervals[static_cast<std::size_t>(d)] =
        DimensionInterval{at[d], at[d], interval_definition(d, at[d], at[d], size[d])};
    const std::string& def = c.intervals[static_cast<std::size_t>(d)].definition;
    if (!def.empty()) definition += (definition.empty() ? "" : ", ") + def;
  }
  c.definition = definition.empty() ? "all blocks" : definition;
  c.blocks = 1;
  c.representative = b;
  c.statements = r.statements;
  c.iterations = r.iterations;
  r.classes.push_back(c);
  r.blocks_replayed = 1;
  return r;
}

}  // namespace

ClassReplayResult class_replay(const Kernel& kernel, const Launch& launch, const ClassPlan& plan,
                               const ReplayOptions& options) {
  if (!plan.ok()) throw ClassesUnproven(*plan.refusal);
  if (!plan.analysis) throw std::logic_error("class_replay: a plan without its analysis");
  validate(kernel);
  validate(launch, kernel, plan.limits);
  ClassReplayResult single;
  if (options.only_block) {
    ReplayOptions one = options;
    one.grid_limits = plan.limits;
    single = one_block(kernel, launch, one);
  }
  detail::Program program(kernel, launch, options);
  if (options.only_warp && *options.only_warp >= static_cast<std::uint32_t>(program.warps_per_block))
    throw InvalidInput("warp " + std::to_string(*options.only_warp) + " does not exist (a block of " +
                       std::to_string(launch.block.volume()) + " threads has warps 0 to " +
                       std::to_string(program.warps_per_block - 1) + ")");
  program.track(plan.analysis->tracked, plan.analysis->accelerated);
  // Warps by classes, but not where each warp is wanted on its own (an observer, one warp, counts
  // by iteration). A block's barrier executions are the extremes of its warps' arrivals: the
  // warps run give them, as a class's warps arrive alike.
  program.warp_classes = plan.analysis->warp_classes && options.observer == nullptr &&
                         !options.only_warp && !options.by_iteration;
  program.evaluation_cap =
      options.max_evaluations > Count{~std::uint64_t{0} >> 2} ? ~std::uint64_t{0} >> 2
                                                               : static_cast<std::uint64_t>(options.max_evaluations);
  detail::WarpMachine machine(program);
  if (options.only_block) {
    // The block was replayed; its run by classes gives its iteration classes (none when its
    // loops do not fall into classes).
    const Dim3 b = *options.only_block;
    detail::IterationLog log = new_log(kernel, program);
    try {
      run_block(machine, program, kernel, options, Corner{b.x, b.y, b.z}, &log);
      attach_log(single.classes.front(), kernel, program, log);
    } catch (const ClassesUnproven&) {
    }
    return single;
  }
  const std::uint64_t grid[3] = {launch.grid.x, launch.grid.y, launch.grid.z};
  // Per grid dimension, the first blocks of the intervals found so far.
  std::array<std::set<std::uint64_t>, 3> starts;
  for (auto& s : starts) s.insert(0);
  std::map<Corner, BlockRun> runs;
  std::uint64_t warps_replayed = 0;
  std::size_t logged_outcomes = 0;
  std::chrono::steady_clock::duration longest{0};  // the longest corner run so far
  unsigned workers = options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
  workers = std::max(1u, workers);
  // [helper]: the helpers' machines, made when first needed and kept for the later rounds; 0 is
  // `machine`.
  std::vector<std::unique_ptr<detail::WarpMachine>> own(workers);
  // Runs the corners of `wanted` that have not run yet. A corner that starts an interval in every
  // dimension, or is the grid's last block in it (often a class of its own once the first
  // breakpoints are in), may represent a class: it runs with a log, whose iterations and outcomes
  // become its class's (the whole-run outcomes of all runs together stay within
  // kMaxLoggedOutcomes bytes). The others only check that their boxes are uniform: their logs
  // would be thrown away. With more than one worker the runs also go to the helper threads, each
  // with a machine of its own (the program is shared read-only, as the replay shares it). Budgets,
  // results and errors are taken in the corners' order, so the outcome is the sequential one
  // whatever the timing.
  const auto run_all = [&](const std::vector<Corner>& wanted) {
    std::vector<Corner> missing;
    for (const Corner& c : wanted)
      if (runs.count(c) == 0 && std::find(missing.begin(), missing.end(), c) == missing.end())
        missing.push_back(c);
    std::vector<BlockRun> done(missing.size());
    for (std::size_t i = 0; i < missing.size(); ++i) {
      BlockRun& r = done[i];
      r.logged = true;
      for (int d = 0; d < 3; ++d)
        r.logged = r.logged && (starts[d].count(missing[i][d]) != 0 || missing[i][d] + 1 == grid[d]);
      if (!r.logged) continue;
      r.log = new_log(kernel, program);
      if (logged_outcomes + r.log.outcomes.size() > kMaxLoggedOutcomes) r.log.outcomes.clear();
      logged_outcomes += r.log.outcomes.size();
    }
    std::vector<std::exception_ptr> errors(missing.size());
    std::vector<std::chrono::steady_clock::duration> took(missing.size());
    bool sequential = true;
    std::atomic<bool> failed{false};  // sequential: a failed run ends the round (later ones would not run)
    const auto work = [&](std::size_t i, unsigned helper) {
      if (sequential && failed) return;
      try {
        if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed))
          throw Interrupted("replay interrupted");
        if (helper != 0 && !own[helper]) own[helper] = std::make_unique<detail::WarpMachine>(program);
        detail::WarpMachine& m = helper == 0 ? machine : *own[helper];
        const auto began = std::chrono::steady_clock::now();
        const bool logged = done[i].logged;
        detail::IterationLog log = std::move(done[i].log);
        done[i] = run_block(m, program, kernel, options, missing[i], logged ? &log : nullptr);
        done[i].log = std::move(log);
        done[i].logged = logged;
        took[i] = std::chrono::steady_clock::now() - began;
      } catch (...) {
        errors[i] = std::current_exception();
        failed = true;
      }
    };
    // The first run of all says how long a run takes; the rest go to the helpers as well when
    // they should take long enough in all to pay for waking them.
    std::size_t first = 0;
    if (longest == std::chrono::steady_clock::duration{0} && missing.size() >= 2 && workers >= 2) {
      work(0, 0);
      longest = took[0];
      first = 1;
    }
    const std::size_t rest = missing.size() - first;
    if (workers >= 2 && rest >= 2 && longest * static_cast<long>(rest) >= kParallelRoundWork) {
      sequential = false;
      const auto helpers = static_cast<unsigned>(std::min<std::size_t>(workers, rest) - 1);
      Helpers::get().run(rest, helpers, [&](std::size_t i, unsigned helper) { work(first + i, helper); });
    } else {
      for (std::size_t i = first; i < missing.size(); ++i) work(i, 0);
    }
    for (const auto& t : took) longest = std::max(longest, t);
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
    for (std::size_t i = 0; i < missing.size(); ++i) {
      warps_replayed += done[i].warps_run;
      runs.emplace(missing[i], std::move(done[i]));
    }
  };
  const auto run = [&](const Corner& c) -> const BlockRun& {
    if (runs.count(c) == 0) run_all({c});
    return runs.at(c);
  };
  struct Box {
    std::array<std::uint64_t, 3> first, last;
    // The block that represents the box's class: its lowest corner.
    Corner representative() const {
      return {static_cast<std::uint32_t>(first[0]), static_cast<std::uint32_t>(first[1]),
              static_cast<std::uint32_t>(first[2])};
    }
  };
  std::vector<Box> boxes;
  const auto intervals = [&](int d) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    for (auto it = starts[d].begin(); it != starts[d].end(); ++it) {
      auto next = std::next(it);
      out.emplace_back(*it, (next == starts[d].end() ? grid[d] : *next) - 1);
    }
    return out;
  };
  const auto corners = [](const Box& b) {
    std::vector<Corner> out;
    for (int m = 0; m < 8; ++m) {
      Corner c{};
      bool duplicate = false;
      for (int d = 0; d < 3; ++d) {
        const bool high = (m >> d & 1) != 0;
        if (high && b.first[d] == b.last[d]) duplicate = true;
        c[d] = static_cast<std::uint32_t>(high ? b.last[d] : b.first[d]);
      }
      if (!duplicate) out.push_back(c);
    }
    return out;
  };
  bool settled = false;
  for (int round = 0; round < kMaxRounds && !settled; ++round) {
    const auto ix = intervals(0), iy = intervals(1), iz = intervals(2);
    if (ix.size() * iy.size() * iz.size() > kMaxClasses) break;
    boxes.clear();
    for (const auto& z : iz)
      for (const auto& y : iy)
        for (const auto& x : ix) boxes.push_back(Box{{x.first, y.first, z.first}, {x.second, y.second, z.second}});
    std::vector<Corner> wanted;
    for (const Box& b : boxes)
      for (const Corner& c : corners(b)) wanted.push_back(c);
    run_all(wanted);
    bool grew = false;
    for (const Box& b : boxes)
      for (const Corner& c : corners(b))
        for (int d = 0; d < 3; ++d)
          for (std::uint64_t at : run(c).trace.breakpoints[d]) grew |= starts[d].insert(at).second;
    if (grew) continue;
    settled = true;
    for (const Box& b : boxes) {
      const auto cs = corners(b);
      const BlockRun& first = run(cs.front());
      for (std::size_t i = 1; i < cs.size(); ++i) {
        const BlockRun& other = run(cs[i]);
        if (!(other.trace.entries == first.trace.entries)) settled = false;
        // Equal traces mean equal paths; equal counts are checked as well, defensively.
        for (std::size_t s = 0; s < kernel.stmts.size() && settled; ++s) {
          const detail::Counts64& x = first.tally.statements[s];
          const detail::Counts64& y = other.tally.statements[s];
          settled = x.evaluations == y.evaluations && x.divergent == y.divergent &&
                    x.active == y.active && x.taken == y.taken &&
                    x.block_executions == y.block_executions &&
                    x.partial_block_executions == y.partial_block_executions;
        }
      }
    }
    if (!settled) break;
  }
  if (!settled) {
    ClassRefusal why;
    why.location = "<launch>";
    why.what = "the blocks";
    why.reason = "do not fall into at most " + std::to_string(kMaxClasses) +
                 " boxes of intervals per grid dimension (a condition that mixes block indices, "
                 "such as blockIdx.x + blockIdx.y < n?)";
    throw ClassesUnproven(why);
  }
  // A representative whose block ended an interval when it ran (a later breakpoint made it a
  // start) runs again, with its log.
  std::vector<Corner> unlogged;
  for (const Box& b : boxes) {
    const Corner rep = b.representative();
    if (!runs.at(rep).logged) unlogged.push_back(rep);
  }
  for (const Corner& c : unlogged) runs.erase(c);
  if (!unlogged.empty()) run_all(unlogged);
  ClassReplayResult result;
  result.statements.resize(kernel.stmts.size());
  result.iterations.resize(kernel.stmts.size());
  for (const Box& b : boxes) {
    const Corner rep = b.representative();
    BlockRun& r = runs.at(rep);
    BlockClass c;
    Count size = 1;
    std::string definition;
    for (int d = 0; d < 3; ++d) {
      DimensionInterval& in = c.intervals[static_cast<std::size_t>(d)];
      in.first = static_cast<std::uint32_t>(b.first[d]);
      in.last = static_cast<std::uint32_t>(b.last[d]);
      in.definition = interval_definition(d, b.first[d], b.last[d], grid[d]);
      size = checked_mul(size, in.size());
      if (!in.definition.empty()) definition += (definition.empty() ? "" : ", ") + in.definition;
    }
    c.definition = definition.empty() ? "all blocks" : definition;
    c.blocks = size;
    c.representative = Dim3{rep[0], rep[1], rep[2]};
    c.statements.resize(kernel.stmts.size());
    c.iterations.resize(kernel.stmts.size());
    for (std::size_t i = 0; i < kernel.stmts.size(); ++i) {
      c.statements[i] = scaled(r.tally.statements[i], size);
      result.statements[i] += c.statements[i];
      const auto& per_k = r.tally.iterations[i];
      c.iterations[i].resize(per_k.size());
      if (result.iterations[i].size() < per_k.size()) result.iterations[i].resize(per_k.size());
      for (std::size_t k = 0; k < per_k.size(); ++k) {
        c.iterations[i][k] = scaled(per_k[k], size);
        result.iterations[i][k] += c.iterations[i][k];
      }
    }
    result.blocks = checked_add(result.blocks, size);
    result.warps = checked_add(result.warps, checked_mul(r.tally.warps, size));
    result.warp_statement_evaluations =
        checked_add(result.warp_statement_evaluations, checked_mul(r.tally.evaluations, size));
    attach_log(c, kernel, program, r.log);
    result.classes.push_back(std::move(c));
  }
  result.blocks_replayed = runs.size();
  result.warps_replayed = warps_replayed;
  if (options.blocks_done != nullptr)
    options.blocks_done->fetch_add(static_cast<std::uint64_t>(result.blocks));
  return result;
}

ClassReplayResult class_replay(const Kernel& kernel, const Launch& launch, const ReplayOptions& options,
                               GridLimits limits) {
  return class_replay(kernel, launch, plan_classes(kernel, launch, limits), options);
}

std::string loop_variable(const Kernel& kernel, StmtId loop) {
  if (loop < 0 || static_cast<std::size_t>(loop) >= kernel.stmts.size()) return "";
  const Stmt& s = kernel.stmts[static_cast<std::size_t>(loop)];
  if (s.kind != StmtKind::Loop || s.step == kNone) return "";
  const Stmt& step = kernel.stmts[static_cast<std::size_t>(s.step)];
  if (step.kind != StmtKind::Assign || step.local < 0) return "";
  return kernel.locals[static_cast<std::size_t>(step.local)].name;
}

}  // namespace warpdiv::sim::ir
