// The class engine's plan (plan_classes): which loops run as classes of iterations, which
// comparisons are tracked and with what coefficients, or why the kernel is refused.
#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>

#include "sim/classes/ir_class_detail.hpp"
#include "sim/model/ir_ops.hpp"

namespace warpdiv::sim::ir {

namespace {

using detail::AcceleratedLoop;
using detail::Analyser;
using detail::counter_step;
using detail::dim_name;
using detail::Form;
using detail::kBlockSymbols;
using detail::kLoopSymbols;
using detail::kMaxSymbols;
using detail::kWarpSymbol;
using detail::TrackedComparison;
using detail::Wide;

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
  for (StmtId c : s.children)
    if (leaves(k, c, inner_loops, inner_calls)) return true;
  for (StmtId c : {s.then_stmt, s.else_stmt, s.body, s.step})
    if (leaves(k, c, inner_loops, inner_calls)) return true;
  return leaves(k, s.init, loops_deep, calls_deep);
}

// Where each expression is used: the expression it is an operand of, or the statement whose
// value it is.
struct Uses {
  std::vector<ExprId> parent;     // [ExprId]
  std::vector<StmtId> statement;  // [ExprId]
  /// [ExprId]: part of a value a store writes (MemoryAccess::value), which only the replay
  /// computes (ReplayOptions::capture_stores): it reads locals without deciding anything.
  std::vector<bool> stored;
};
void mark_stored(const Kernel& k, ExprId id, std::vector<bool>& stored) {
  if (id == kNone) return;
  stored[static_cast<std::size_t>(id)] = true;
  for (ExprId o : k.exprs[static_cast<std::size_t>(id)].operands) mark_stored(k, o, stored);
}
Uses uses_of(const Kernel& k) {
  Uses u;
  u.parent.assign(k.exprs.size(), kNone);
  u.statement.assign(k.exprs.size(), kNone);
  u.stored.assign(k.exprs.size(), false);
  for (const MemoryAccess& a : k.accesses) {
    mark_stored(k, a.value, u.stored);
    mark_stored(k, a.compare, u.stored);
  }
  for (std::size_t i = 0; i < k.exprs.size(); ++i)
    for (ExprId o : k.exprs[i].operands)
      if (o != kNone) u.parent[static_cast<std::size_t>(o)] = static_cast<ExprId>(i);
  for (std::size_t i = 0; i < k.stmts.size(); ++i)
    if (k.stmts[i].value != kNone)
      u.statement[static_cast<std::size_t>(k.stmts[i].value)] = static_cast<StmtId>(i);
  return u;
}

// A local that only its own steps read (every read of it is the x of an `x = x +- e`).
bool only_stepped(const Kernel& k, LocalId local, const Uses& uses) {
  for (std::size_t i = 0; i < k.exprs.size(); ++i) {
    const Expr& e = k.exprs[i];
    if (e.kind != ExprKind::Local || e.index != local || uses.stored[i]) continue;
    const ExprId p = uses.parent[i];
    if (p == kNone) return false;
    const StmtId s = uses.statement[static_cast<std::size_t>(p)];
    if (s == kNone) return false;
    const Stmt& t = k.stmts[static_cast<std::size_t>(s)];
    if (t.local != local || counter_step(k, t) == kNone) return false;
  }
  return true;
}

std::optional<AcceleratedLoop> candidate(const Kernel& k, StmtId id, const std::vector<ExprId>& origins,
                                         const Uses& uses) {
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
bool counters_steady(const Kernel& k, const Analyser& a, StmtId loop, const AcceleratedLoop& acc,
                     int symbol) {
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
  if (by == 1 && bz == 1 && bx % w == 0)
    return std::array<std::int64_t, 3>{static_cast<std::int64_t>(w), 0, 0};
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
    case ExprKind::Binary:
      what = "'" + name(e.binary_op) + "'" +
             (is_floating(k.exprs[e.operands[0]].type) ? " on floating-point values" : "");
      break;
    case ExprKind::Unary:
      what = "'" + name(e.unary_op) + "'";
      break;
    case ExprKind::Cast:
      what = e.type == ScalarType::Bool ? std::string("a conversion to bool (a step, not a line)")
                                        : "a conversion to " + name(e.type) + " that may wrap around";
      break;
    case ExprKind::Opaque:
      what = e.description;
      break;
    case ExprKind::Intrinsic:
      what = name(e.intrinsic) + "()";
      break;
    case ExprKind::Warp:
      what = "the warp function " + name(e.warp_op) + "()";
      break;
    default:
      what = name(e.kind);
      break;
  }
  return what + " (" + location(k, e.range) + ")";
}

bool faulting(const Expr& e, const Kernel& k, int operand) {
  if (e.kind == ExprKind::Unary) return e.unary_op == UnaryOp::Neg && is_signed(e.type);
  if (e.kind != ExprKind::Binary) return false;
  const bool s = is_signed(k.exprs[e.operands[0]].type);
  switch (e.binary_op) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::Mul:
      return s;
    case BinaryOp::Div:
    case BinaryOp::Rem:
      return operand == 1 || s;
    case BinaryOp::Shl:
      return operand == 1 || s;
    case BinaryOp::Shr:
      return operand == 1;
    default:
      return false;
  }
}

struct Checked {
  std::optional<ClassRefusal> refused;  // about a block index
  std::set<StmtId> rejected_loops;
  bool warp_wild = false;  // something decides by the warp index, not affinely
};

// Every place where a value that is not affine in a symbol could change control flow or be
// undefined somewhere the engine does not replay.
// `memory` marks the expressions of accesses and of flops' lanes: checked apart (memory_side),
// as they decide only the memory figures.
Checked check(const Kernel& k, const Analyser& a, const std::vector<bool>& memory, bool memory_side) {
  Checked out;
  const auto symbol_name = [&](int s) {
    return s < kBlockSymbols ? dim_name(s) : std::string("a loop variable");
  };
  // A block index: the plan is refused. The warp index: the warps of a block are all run. A loop
  // variable: the loop does not run as classes.
  const auto bad = [&](ExprId at, std::uint64_t wild, const std::string& what, ExprId origin,
                       const char* why = nullptr) {
    for (int s = 0; s < a.symbols(); ++s) {
      if (!(wild >> s & 1)) continue;
      if (s == kWarpSymbol) {
        out.warp_wild = true;
      } else if (s < kBlockSymbols) {
        if (!out.refused) {
          const std::string local = origin != kNone ? a.reassignment(origin) : "";
          const std::string through = origin != kNone ? " through " + describe_expr(k, origin) : "";
          out.refused = refusal(k, at, what,
                                "depends on " + symbol_name(s) +
                                    (why != nullptr  ? std::string(why)
                                     : local.empty() ? through + ", which is not affine in it"
                                                     : " through " + local));
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
    if (!a.evaluated(id) || memory[i] != memory_side) continue;
    const Expr& e = k.exprs[i];
    if (e.kind == ExprKind::Binary && is_comparison(e.binary_op)) {
      const Form& x = a.form(e.operands[0]);
      const Form& y = a.form(e.operands[1]);
      const ScalarType t = k.exprs[e.operands[0]].type;
      const std::uint64_t inexact = (x.exact || wraps_once(x, t) ? 0 : coefficients(x)) |
                                    (y.exact || wraps_once(y, t) ? 0 : coefficients(y));
      bad(id, x.wild | y.wild, "this comparison", x.wild_origin != kNone ? x.wild_origin : y.wild_origin);
      if (inexact != 0) {
        const std::string why =
            " through an operand converted to " + name(t) +
            " (or computed in it) that may wrap around more than once over the launch (its "
            "values span 2^" +
            std::to_string(bit_width(t)) + " or more), so its order is not affine in it";
        bad(id, inexact, "this comparison", id, why.c_str());
      }
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
  for (std::size_t i = 0; i < k.stmts.size() && !memory_side; ++i) {
    const Stmt& s = k.stmts[i];
    if (s.value == kNone || !a.evaluated(s.value)) continue;
    const Form& f = a.form(s.value);
    if (s.kind == StmtKind::If || s.kind == StmtKind::Loop)
      bad(s.value, f.wild, "the condition of this " + report_kind(s), f.wild_origin);
    if (s.kind == StmtKind::Switch)
      bad(s.value, f.wild | coefficients(f), "the value of this switch",
          f.wild_origin != kNone ? f.wild_origin : s.value);
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
    if (c.low > Wide{1} << 62 || c.low < -(Wide{1} << 62)) return std::nullopt;
    const auto K = static_cast<std::int64_t>(c.low);
    return add.binary_op == BinaryOp::Add ? K : -K;
  }
  return std::nullopt;
}

// The expressions of accesses (addresses, lanes) and of flops' lanes, at any depth.
std::vector<bool> memory_expressions(const Kernel& k) {
  std::vector<bool> out(k.exprs.size(), false);
  const auto mark = [&](const auto& self, ExprId id) -> void {
    if (id == kNone || out[static_cast<std::size_t>(id)]) return;
    out[static_cast<std::size_t>(id)] = true;
    for (ExprId o : k.exprs[static_cast<std::size_t>(id)].operands) self(self, o);
  };
  for (const MemoryAccess& a : k.accesses) {
    mark(mark, a.offset);
    mark(mark, a.guard);
  }
  for (const Stmt& s : k.stmts)
    for (const FloatOps& f : s.flops) mark(mark, f.guard);
  return out;
}

// Whether the class engine can count the kernel's memory figures exactly, and each access's
// residues (ClassAnalysis::memory_refusal, shifts, memory_warp_wild, memory_wild_loops).
void plan_memory(const Kernel& k, const Launch& launch, const Analyser& a, const std::vector<bool>& memory,
                 bool warp_classes, const std::vector<StmtId>& loops, detail::ClassAnalysis& out) {
  const std::uint32_t grid[3] = {launch.grid.x, launch.grid.y, launch.grid.z};
  const auto refuse = [&](const std::string& why) {
    if (out.memory_refusal.empty()) out.memory_refusal = why;
  };
  Checked c = check(k, a, memory, true);
  if (c.refused) refuse(c.refused->location + ": " + c.refused->what + " " + c.refused->reason);
  out.memory_warp_wild = c.warp_wild;
  std::set<StmtId> wild_loops(c.rejected_loops.begin(), c.rejected_loops.end());
  // An address (or lanes) that is not affine in a symbol: a block index refuses; the warp index
  // and a loop around it run one by one.
  const auto follow = [&](ExprId e, const std::string& what) {
    if (e == kNone) return;
    if (!a.evaluated(e)) {
      refuse(location(k, k.exprs[static_cast<std::size_t>(e)].range) + ": " + what + " was not analysed");
      return;
    }
    const Form& f = a.form(e);
    for (int s = 0; s < a.symbols(); ++s) {
      const bool wild = (f.wild >> s & 1) != 0;
      const bool inexact = !f.exact && f.coefficient[static_cast<std::size_t>(s)] != 0;
      if (!wild && !inexact) continue;
      if (s < kBlockSymbols) {
        const std::string local = f.wild_origin != kNone && !inexact ? a.reassignment(f.wild_origin) : "";
        const std::string through =
            f.wild_origin != kNone ? " through " + describe_expr(k, f.wild_origin) : std::string();
        refuse(location(k, k.exprs[static_cast<std::size_t>(e)].range) + ": " + what + " depends on " +
               dim_name(s) +
               (!local.empty()
                    ? " through " + local
                    : through + (inexact ? ", and may wrap around" : ", which is not affine in it")));
      } else if (s == kWarpSymbol) {
        out.memory_warp_wild = true;
      } else {
        const StmtId loop = loops[static_cast<std::size_t>(s - kLoopSymbols)];
        const auto enclosing = a.enclosing(e);
        if (std::find(enclosing.begin(), enclosing.end(), loop) != enclosing.end()) wild_loops.insert(loop);
      }
    }
  };
  const std::vector<std::string> uncounted = uncounted_accesses(k);
  out.shifts.assign(k.accesses.size(), detail::AccessShift{});
  for (std::size_t i = 0; i < k.accesses.size(); ++i) {
    if (!uncounted[i].empty()) continue;
    const MemoryAccess& access = k.accesses[i];
    follow(access.offset, "the address of '" + access.text + "'");
    follow(access.guard, "the lanes that make '" + access.text + "'");
    if (!out.memory_refusal.empty() || !a.evaluated(access.offset)) continue;
    const Form& f = a.form(access.offset);
    detail::AccessShift& sh = out.shifts[i];
    sh.modulus = access.space == AddressSpace::Shared ? 4 : 32;
    std::int64_t g = sh.modulus;
    // Coefficients that are not a multiple of the width misalign some run of the class: the
    // replay reports the first block that faults.
    // The residue of `per_run` units of symbol s: the bytes between the runs a class stands for.
    const auto coefficient = [&](int s, const std::string& along, std::int64_t per_run) {
      const Wide v = f.coefficient[static_cast<std::size_t>(s)];
      if (v % access.width != 0)
        refuse(location(k, access.range) + ": the address of '" + access.text + "' moves by " +
               std::to_string(static_cast<long long>(v)) + " bytes per step of " + along +
               ", not a multiple of its width (" + std::to_string(access.width) + " bytes)");
      const std::int64_t r = detail::residue(v * per_run, sh.modulus);
      g = std::gcd(g, r);
      return r;
    };
    for (int d = 0; d < kBlockSymbols; ++d)
      if (grid[d] > 1) sh.block[static_cast<std::size_t>(d)] = coefficient(d, dim_name(d), 1);
    if (warp_classes) sh.warp = coefficient(kWarpSymbol, "the warp index", 1);
    for (std::size_t l = 0; l < loops.size(); ++l) {
      const int s = static_cast<int>(kLoopSymbols + l);
      if (f.coefficient[static_cast<std::size_t>(s)] == 0) continue;
      // An iteration steps the loop's variable by the loop's step.
      sh.loops.emplace_back(loops[l], coefficient(s, "the loop's variable", out.accelerated[loops[l]]->step));
    }
    if (g == 0) g = sh.modulus;
    sh.step = g;
    sh.count = static_cast<int>(sh.modulus / g);
  }
  const std::vector<ExprId> origins = opaque_origins(k);
  for (const Stmt& s : k.stmts)
    for (const FloatOps& f : s.flops)
      if (f.guard != kNone && origins[f.guard] == kNone)
        follow(f.guard, "the lanes of a floating-point operation");
  out.memory_wild_loops.assign(wild_loops.begin(), wild_loops.end());
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Plan

std::string ClassRefusal::message() const {
  return location + ": the class engine cannot prove the block classes: " + what + " " + reason;
}

ClassesUnproven::ClassesUnproven(ClassRefusal refusal)
    : InvalidInput(Diag::classes_unproven, refusal.message()), refusal_(std::move(refusal)) {}

namespace {

// Loaded values are the replay's: classes assume that control flow and addresses depend on
// indices only. A condition, an address or the lanes of an access that only the launch's data make
// computable go to the replay, and so does shared memory followed by value.
std::optional<ClassRefusal> needs_the_replay(const Kernel& kernel, const Launch& launch,
                                             const std::vector<ExprId>& origins) {
  const std::vector<bool> values = buffers_with_values(kernel, launch);
  const std::vector<bool> loaded = computed_loads(kernel, &values);
  const std::vector<ExprId> with_data = opaque_origins(kernel, loaded);
  const auto kept_space = [&](const Expr& load) -> std::string {  // "" for a launch's buffer
    if (load.access == kNone) return "";
    const MemoryAccess& a = kernel.accesses[static_cast<std::size_t>(load.access)];
    if (a.base == kNone || kernel.bases[static_cast<std::size_t>(a.base)].parameter != kNone) return "";
    return a.space == AddressSpace::Shared  ? "shared memory"
           : a.space == AddressSpace::Local ? "a local array"
                                            : "";
  };
  std::optional<ClassRefusal> found;
  const auto note = [&](ExprId x, SourceRange range, const std::string& what) {
    if (found || x == kNone || origins[x] == kNone || with_data[x] != kNone) return;
    const Expr& load = kernel.exprs[origins[x]];
    found = ClassRefusal{
        range, location(kernel, range), what,
        "depends on " + load.description + " (" + location(kernel, load.range) + "), " +
            (kept_space(load).empty() ? "a value loaded from the launch's data"
                                      : "a value in " + kept_space(load) + ", which the replay follows")};
  };
  for (const Stmt& s : kernel.stmts)
    if (s.kind == StmtKind::If || s.kind == StmtKind::Loop || s.kind == StmtKind::Switch)
      note(s.value, s.range, "the condition of this " + report_kind(s));
  for (const MemoryAccess& a : kernel.accesses) {
    if (a.base == kNone) continue;
    note(a.offset, a.range, "the address of '" + a.text + "'");
    note(a.guard, a.range, "the lanes of '" + a.text + "'");
  }
  // Shared memory followed by value (its loads computed): the replay runs the block's warps
  // phase by phase and checks races and reads of memory never written; classes do not.
  // (A buffer the kernel writes is followed where a condition, an address or lanes need its
  // values: `note` above refuses those.)
  for (std::size_t a = 0; a < kernel.accesses.size() && !found; ++a) {
    const MemoryAccess& m = kernel.accesses[a];
    if (!loaded[a] || m.base == kNone || kernel.bases[static_cast<std::size_t>(m.base)].parameter != kNone ||
        m.space != AddressSpace::Shared)
      continue;
    found = ClassRefusal{m.range, location(kernel, m.range), "the value '" + m.text + "' reads",
                         "is shared memory the model follows by value (phases between barriers, races, "
                         "reads of memory never written), which the replay does"};
  }
  return found;
}

// The coefficient of symbol s (the warp index, a block index or an accelerated loop's variable).
void set_coefficient(detail::AffineCoefficients& c, int s, const std::vector<StmtId>& loops,
                     std::int64_t value) {
  if (s == kWarpSymbol)
    c.warp_coefficient = value;
  else if (s < kBlockSymbols)
    c.block_coefficient[static_cast<std::size_t>(s)] = value;
  else
    c.loop_coefficients.emplace_back(loops[static_cast<std::size_t>(s - kLoopSymbols)], value);
}

// Comparison i's coefficients in the block indices, the warp index (with warp classes) and the
// accelerated loops' variables, and where an operand wraps around (analysis.tracked[i]); a
// refusal where a coefficient is too large to follow (in an access's lanes, `in_memory`, only the
// access's figures are refused: analysis.memory_refusal).
std::optional<ClassRefusal> track_comparison(const Kernel& kernel, const Analyser& a, std::size_t i,
                                             const std::vector<StmtId>& loops, bool warp_classes,
                                             bool in_memory, detail::ClassAnalysis& analysis) {
  const Expr& e = kernel.exprs[i];
  const Form& x = a.form(e.operands[0]);
  const Form& y = a.form(e.operands[1]);
  TrackedComparison t;
  bool any = false;
  for (int s = 0; s < a.symbols(); ++s) {
    const Wide d = x.coefficient[static_cast<std::size_t>(s)] - y.coefficient[static_cast<std::size_t>(s)];
    if (d == 0 || (s == kWarpSymbol && !warp_classes)) continue;
    if (d > Wide{1} << 62 || d < -(Wide{1} << 62)) {
      if (in_memory) {  // in an access's lanes: only its figures are not counted
        any = false;
        if (analysis.memory_refusal.empty())
          analysis.memory_refusal =
              location(kernel, e.range) + ": this comparison has a coefficient too large to follow";
        break;
      }
      return refusal(kernel, static_cast<ExprId>(i), "this comparison",
                     "has a coefficient too large to follow");
    }
    any = true;
    set_coefficient(t, s, loops, static_cast<std::int64_t>(d));
  }
  // Operands that wrap around once: where their value wraps is recorded too.
  const ScalarType type = kernel.exprs[e.operands[0]].type;
  for (int side = 0; side < 2 && (any || !x.exact || !y.exact); ++side) {
    const Form& f = side == 0 ? x : y;
    Wide wrap = 0;
    if (!wraps_once(f, type, &wrap) || wrap == f.low) continue;
    detail::WrapGuard g;
    g.side = side;
    g.width = bit_width(type);
    g.low = f.low;
    g.wrap = wrap;
    bool moves = false;
    for (int s = 0; s < a.symbols(); ++s) {
      const Wide coefficient = f.coefficient[static_cast<std::size_t>(s)];
      if (coefficient == 0 || (s == kWarpSymbol && !warp_classes)) continue;
      if (coefficient > Wide{1} << 62 || coefficient < -(Wide{1} << 62)) {
        return refusal(kernel, static_cast<ExprId>(i), "this comparison",
                       "has an operand that wraps around with a coefficient too large to follow");
      }
      moves = true;
      set_coefficient(g.coefficients, s, loops, static_cast<std::int64_t>(coefficient));
    }
    if (moves) t.guards.push_back(std::move(g));
  }
  if (any || !t.guards.empty()) analysis.tracked[i] = t;
  return std::nullopt;
}

}  // namespace

ClassPlan plan_classes(const Kernel& kernel, const Launch& launch, GridLimits limits) {
  validate(kernel);
  validate(launch, kernel, limits);
  const std::vector<ExprId> origins = opaque_origins(kernel);
  if (std::optional<ClassRefusal> found = needs_the_replay(kernel, launch, origins)) {
    ClassPlan plan;
    plan.limits = limits;
    plan.refusal = found;
    return plan;
  }
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
  loops.erase(
      std::remove_if(loops.begin(), loops.end(), [&](StmtId l) { return users[structure[l].variable] > 1; }),
      loops.end());
  // One symbol per loop, kMaxSymbols in all: the loops past that run iteration by iteration
  // (exact, only slower), which also keeps the analysis linear in the kernel's size.
  if (loops.size() > static_cast<std::size_t>(kMaxSymbols - kLoopSymbols))
    loops.resize(static_cast<std::size_t>(kMaxSymbols - kLoopSymbols));
  ClassPlan plan;
  plan.limits = limits;
  const std::optional<std::array<std::int64_t, 3>> steps_per_warp = warp_steps(launch);
  const std::vector<bool> memory = memory_expressions(kernel);
  for (;;) {
    Analyser a(kernel, launch, loops, steps_per_warp.value_or(std::array<std::int64_t, 3>{}));
    a.run();
    Checked c = check(kernel, a, memory, false);
    const bool warp_classes = steps_per_warp.has_value() && !c.warp_wild;
    std::map<StmtId, std::int64_t> steps;
    for (std::size_t i = 0; i < loops.size(); ++i) {
      const auto step = step_of(kernel, a, loops[i], static_cast<int>(kLoopSymbols + i));
      if (!step ||
          !counters_steady(kernel, a, loops[i], structure[loops[i]], static_cast<int>(kLoopSymbols + i)))
        c.rejected_loops.insert(loops[i]);
      else
        steps[loops[i]] = *step;
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
      if (auto refused = track_comparison(kernel, a, i, loops, warp_classes, memory[i], *analysis)) {
        plan.refusal = refused;
        return plan;
      }
    }
    analysis->warp_classes = warp_classes;
    plan_memory(kernel, launch, a, memory, warp_classes, loops, *analysis);
    plan.accelerated_loops = loops;
    plan.analysis = analysis;
    return plan;
  }
}

}  // namespace warpdiv::sim::ir
