// The launch plan (sim/engine/launch_plan.hpp) compiled: each expression's lane functions,
// representatives, memory to count and follow, affine offsets; and the run context beside it.
#include "sim/engine/launch_plan.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "sim/engine/atomic_turns.hpp"
#include "sim/support/errors.hpp"
#include "sim/memory/ir_memory.hpp"
#include "sim/memory/shared_phases.hpp"
#include "sim/model/ir_ops.hpp"

namespace warpdiv::sim::ir::detail {

namespace {

// ---------------------------------------------------------------------------------------------
// Lane loops. Every lane is computed whatever the active mask (inactive lanes hold garbage that is
// never read); faults count only in active lanes. AU / BU: the operand is uniform (one value).

// The exact loop: each lane's fault, counted in active lanes only.
template <BinaryOp OP, ScalarType T, bool AU, bool BU>
bool binary_lanes_exact(const std::uint64_t* a, const std::uint64_t* b, std::uint64_t* out, int n,
                        LaneMask active) {
  std::uint64_t faults = 0;
  for (int l = 0; l < n; ++l) {
    bool fault = false;
    out[l] = ops::binary<OP, T>(a[AU ? 0 : l], b[BU ? 0 : l], fault);
    faults |= static_cast<std::uint64_t>(fault) << l;
  }
  return (faults & active) != 0;
}

// A lane loop the compiler vectorises (SSE2): the operation and, OR-ed over all lanes, a word
// that is not 0 when some lane (active or not) may fault; then the exact loop decides. For
// signed + - * on int32 (exact in 64 bits: the result overflows when it is not its low half
// sign-extended), + - on int64 (overflow from the signs), and * on int64 by a uniform power of
// two (a shift: overflows when a is outside [-2^(63-s), 2^(63-s))). Other operators: the exact loop.
template <BinaryOp OP, ScalarType T, bool AU, bool BU>
bool binary_lanes(const std::uint64_t* a, const std::uint64_t* b, std::uint64_t* out, int n,
                  LaneMask active) {
  constexpr bool kAddSub = OP == BinaryOp::Add || OP == BinaryOp::Sub;
  if constexpr (ops::kFloating<T>) {  // IEEE operations never fault: no fault word to keep
    for (int l = 0; l < n; ++l) out[l] = ops::floating_binary<OP, T>(a[AU ? 0 : l], b[BU ? 0 : l]);
    return false;
  } else if constexpr (T == ScalarType::I32 && (kAddSub || OP == BinaryOp::Mul)) {
    std::uint64_t bad = 0;
    for (int l = 0; l < n; ++l) {
      const std::uint64_t x = a[AU ? 0 : l], y = b[BU ? 0 : l];
      const std::uint64_t r = OP == BinaryOp::Add ? x + y : OP == BinaryOp::Sub ? x - y : x * y;
      out[l] = r;
      bad |= (r + 0x80000000ULL) >> 32;
    }
    return bad != 0 && binary_lanes_exact<OP, T, AU, BU>(a, b, out, n, active);
  } else if constexpr (T == ScalarType::I64 && kAddSub) {
    std::uint64_t bad = 0;
    for (int l = 0; l < n; ++l) {
      const std::uint64_t x = a[AU ? 0 : l], y = b[BU ? 0 : l];
      const std::uint64_t r = OP == BinaryOp::Add ? x + y : x - y;
      out[l] = r;
      bad |= OP == BinaryOp::Add ? (x ^ r) & (y ^ r) : (x ^ y) & (x ^ r);
    }
    return (bad >> 63) != 0 && binary_lanes_exact<OP, T, AU, BU>(a, b, out, n, active);
  } else if constexpr (T == ScalarType::I64 && OP == BinaryOp::Mul && AU != BU) {
    const std::uint64_t factor = AU ? a[0] : b[0];
    const std::uint64_t* x = AU ? b : a;
    if (factor != 0 && (factor & (factor - 1)) == 0 && factor < (std::uint64_t{1} << 62)) {
      const int s = __builtin_ctzll(factor);
      if (s == 0) {
        std::copy(x, x + n, out);
        return false;
      }
      const std::uint64_t bias = std::uint64_t{1} << (63 - s);
      std::uint64_t bad = 0;
      for (int l = 0; l < n; ++l) {
        out[l] = x[l] << s;
        bad |= (x[l] + bias) >> (64 - s);
      }
      return bad != 0 && binary_lanes_exact<OP, T, AU, BU>(a, b, out, n, active);
    }
  }
  return binary_lanes_exact<OP, T, AU, BU>(a, b, out, n, active);
}

template <BinaryOp OP, ScalarType T, bool AU, bool BU>
LaneMask compare_lanes(const std::uint64_t* a, const std::uint64_t* b, int n) {
  LaneMask m = 0;
  for (int l = 0; l < n; ++l) {
    bool fault = false;  // comparisons never fault
    m |= ops::binary<OP, T>(a[AU ? 0 : l], b[BU ? 0 : l], fault) << l;
  }
  return m;
}

template <UnaryOp OP, ScalarType T>
bool unary_lanes(const std::uint64_t* a, std::uint64_t* out, int n, LaneMask active) {
  std::uint64_t faults = 0;
  for (int l = 0; l < n; ++l) {
    bool fault = false;
    out[l] = ops::unary<OP, T>(a[l], fault);
    faults |= static_cast<std::uint64_t>(fault) << l;
  }
  return (faults & active) != 0;
}

template <ScalarType To>
std::uint64_t convert(std::uint64_t bits) {
  if constexpr (To == ScalarType::Bool) return bits != 0 ? 1 : 0;
  if constexpr (To == ScalarType::I8)
    return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int8_t>(bits)});
  if constexpr (To == ScalarType::U8) return bits & 0xFFu;
  if constexpr (To == ScalarType::I16)
    return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int16_t>(bits)});
  if constexpr (To == ScalarType::U16) return bits & 0xFFFFu;
  if constexpr (To == ScalarType::I32)
    return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(bits)});
  if constexpr (To == ScalarType::U32) return bits & 0xFFFFFFFFu;
  return bits;
}

template <ScalarType To>
void cast_lanes(const std::uint64_t* a, std::uint64_t* out, int n) {
  for (int l = 0; l < n; ++l) out[l] = convert<To>(a[l]);
}

CastLaneFn cast_fn(ScalarType to) {
  switch (to) {
    case ScalarType::Bool:
      return &cast_lanes<ScalarType::Bool>;
    case ScalarType::I8:
      return &cast_lanes<ScalarType::I8>;
    case ScalarType::U8:
      return &cast_lanes<ScalarType::U8>;
    case ScalarType::I16:
      return &cast_lanes<ScalarType::I16>;
    case ScalarType::U16:
      return &cast_lanes<ScalarType::U16>;
    case ScalarType::I32:
      return &cast_lanes<ScalarType::I32>;
    case ScalarType::U32:
      return &cast_lanes<ScalarType::U32>;
    case ScalarType::I64:
      return &cast_lanes<ScalarType::I64>;
    case ScalarType::U64:
      return &cast_lanes<ScalarType::U64>;
    case ScalarType::F32:
    case ScalarType::F64:
      break;  // converted value by value
  }
  return &cast_lanes<ScalarType::U64>;
}

template <BinaryOp OP, ScalarType T>
void set_binary(CompiledExpr& c) {
  c.binary_lanes = {&binary_lanes<OP, T, false, false>, &binary_lanes<OP, T, true, false>,
                    &binary_lanes<OP, T, false, true>};
  if constexpr (OP >= BinaryOp::Lt)
    c.compare_lanes = {&compare_lanes<OP, T, false, false>, &compare_lanes<OP, T, true, false>,
                       &compare_lanes<OP, T, false, true>};
}

template <BinaryOp OP>
void set_binary_for(CompiledExpr& c, ScalarType t) {
  switch (t) {
    case ScalarType::I32:
      set_binary<OP, ScalarType::I32>(c);
      break;
    case ScalarType::U32:
      set_binary<OP, ScalarType::U32>(c);
      break;
    case ScalarType::I64:
      set_binary<OP, ScalarType::I64>(c);
      break;
    case ScalarType::U64:
      set_binary<OP, ScalarType::U64>(c);
      break;
    case ScalarType::F32:
      if constexpr (ops::floating_operator(OP)) set_binary<OP, ScalarType::F32>(c);
      break;
    case ScalarType::F64:
      if constexpr (ops::floating_operator(OP)) set_binary<OP, ScalarType::F64>(c);
      break;
    default:
      break;  // validate() allows only the four promoted types and the floating ones
  }
}

void compile_binary(CompiledExpr& c, BinaryOp op, ScalarType t) {
  switch (op) {
    case BinaryOp::Add:
      set_binary_for<BinaryOp::Add>(c, t);
      break;
    case BinaryOp::Sub:
      set_binary_for<BinaryOp::Sub>(c, t);
      break;
    case BinaryOp::Mul:
      set_binary_for<BinaryOp::Mul>(c, t);
      break;
    case BinaryOp::Div:
      set_binary_for<BinaryOp::Div>(c, t);
      break;
    case BinaryOp::Rem:
      set_binary_for<BinaryOp::Rem>(c, t);
      break;
    case BinaryOp::Shl:
      set_binary_for<BinaryOp::Shl>(c, t);
      break;
    case BinaryOp::Shr:
      set_binary_for<BinaryOp::Shr>(c, t);
      break;
    case BinaryOp::BitAnd:
      set_binary_for<BinaryOp::BitAnd>(c, t);
      break;
    case BinaryOp::BitOr:
      set_binary_for<BinaryOp::BitOr>(c, t);
      break;
    case BinaryOp::BitXor:
      set_binary_for<BinaryOp::BitXor>(c, t);
      break;
    case BinaryOp::Lt:
      set_binary_for<BinaryOp::Lt>(c, t);
      break;
    case BinaryOp::Le:
      set_binary_for<BinaryOp::Le>(c, t);
      break;
    case BinaryOp::Gt:
      set_binary_for<BinaryOp::Gt>(c, t);
      break;
    case BinaryOp::Ge:
      set_binary_for<BinaryOp::Ge>(c, t);
      break;
    case BinaryOp::Eq:
      set_binary_for<BinaryOp::Eq>(c, t);
      break;
    case BinaryOp::Ne:
      set_binary_for<BinaryOp::Ne>(c, t);
      break;
  }
  c.binary = ops::binary_fn(op, t);
}

// Whether a unary operator of operand class `operands` (sim/model/ir_ops.def) takes operands of type
// T: Negatable the promoted integer and floating types, Integer the promoted integer ones, Bool bool.
template <ScalarType T>
constexpr bool unary_takes(OperandClass operands) {
  constexpr bool promoted =
      T == ScalarType::I32 || T == ScalarType::U32 || T == ScalarType::I64 || T == ScalarType::U64;
  return operands == OperandClass::Bool      ? T == ScalarType::Bool
         : operands == OperandClass::Integer ? promoted
                                             : promoted || ops::kFloating<T>;
}

// unary_lanes of OP, of operand class C, on type t (nullptr for a type it does not take, which
// validate() refuses).
template <UnaryOp OP, OperandClass C>
UnaryLaneFn unary_lane_fn_on(ScalarType t) {
  switch (t) {
#define WARPDIV_SCALAR_TYPE(T)                                                           \
  case ScalarType::T:                                                                    \
    if constexpr (unary_takes<ScalarType::T>(C)) return &unary_lanes<OP, ScalarType::T>; \
    break;
    WARPDIV_SCALAR_TYPES
#undef WARPDIV_SCALAR_TYPE
  }
  return nullptr;
}

UnaryLaneFn unary_lane_fn(UnaryOp op, ScalarType t) {
  switch (op) {
#define WARPDIV_UNARY_OP(Enum, spelling, operands, fault) \
  case UnaryOp::Enum:                                     \
    return unary_lane_fn_on<UnaryOp::Enum, OperandClass::operands>(t);
#include "sim/model/ir_ops.def"
  }
  return nullptr;
}

// Whether `e` reads the value an atomic among `accesses` (a statement's) returns.
bool reads_atomic_of(const Kernel& k, ExprId e, const std::vector<std::int32_t>& accesses) {
  std::vector<ExprId> todo{e};
  while (!todo.empty()) {
    const Expr& x = k.exprs[static_cast<std::size_t>(todo.back())];
    todo.pop_back();
    if (x.kind == ExprKind::Opaque && x.access != kNone &&
        k.accesses[static_cast<std::size_t>(x.access)].kind == AccessKind::Atomic &&
        std::find(accesses.begin(), accesses.end(), x.access) != accesses.end())
      return true;
    for (const ExprId o : x.operands)
      if (o != kNone) todo.push_back(o);
  }
  return false;
}

// The lane functions of expression `e` of model `k` (its operator and operands' type) into `c`.
void bind_expr_functions(const Kernel& k, const Expr& e, CompiledExpr& c) {
  switch (e.kind) {
    case ExprKind::Binary:
      compile_binary(c, e.binary_op, k.exprs[e.operands[0]].type);
      break;
    case ExprKind::Unary:
      c.unary = ops::unary_fn(e.unary_op, k.exprs[e.operands[0]].type);
      c.unary_lanes = unary_lane_fn(e.unary_op, k.exprs[e.operands[0]].type);
      break;
    case ExprKind::Cast:
      // Conversions from or to a floating type go value by value (ops::convert); the others
      // depend on the target only (the operand's bits are normalised).
      if (!is_floating(k.exprs[e.operands[0]].type) && !is_floating(e.type)) c.cast_lanes = cast_fn(e.type);
      break;
    default:
      break;
  }
}

// The shared arrays followed by address (PlanOptions::shared_addresses): `loaded` with every access
// of each __shared__ array (every extern one is one array) that no computed load reads and whose
// every access has an address and lanes the model computes marked, for memory_layout; none where
// some shared access has no place (it may touch any of them).
std::vector<bool> with_shared_addresses(const Kernel& k, std::vector<bool> loaded,
                                        const std::vector<ExprId>& origins) {
  const auto group = [&](std::int32_t b) {
    const MemoryBase& base = k.bases[static_cast<std::size_t>(b)];
    return base.parameter != kNone || base.space != AddressSpace::Shared ? kNone : shared_array(k, b);
  };
  std::vector<std::uint8_t> refused(k.bases.size() + 1, 0);
  for (std::size_t a = 0; a < k.accesses.size(); ++a) {
    const MemoryAccess& m = k.accesses[a];
    if (m.space == AddressSpace::Shared && m.base == kNone) return loaded;
    const std::int32_t g = m.base == kNone ? kNone : group(m.base);
    if (g == kNone) continue;
    const bool placed = m.offset != kNone && origins[static_cast<std::size_t>(m.offset)] == kNone &&
                        (m.guard == kNone || origins[static_cast<std::size_t>(m.guard)] == kNone);
    if (!placed || (a < loaded.size() && loaded[a])) refused[static_cast<std::size_t>(g)] = 1;
  }
  for (std::size_t a = 0; a < k.accesses.size() && a < loaded.size(); ++a) {
    const std::int32_t b = k.accesses[a].base;
    if (b != kNone && group(b) != kNone && !refused[static_cast<std::size_t>(group(b))]) loaded[a] = true;
  }
  return loaded;
}

}  // namespace

PlanOptions plan_options(const ReplayOptions& o) {
  PlanOptions p;
  p.by_iteration = o.by_iteration;
  p.memory = o.memory;
  p.affine_offsets = o.affine_offsets;
  p.capture_stores = o.capture_stores;
  return p;
}

RunContext run_context(const LaunchPlan& plan, const Launch& l, const ReplayOptions& o) {
  RunContext r;
  const Kernel& k = plan.kernel;
  r.base_data.assign(k.bases.size(), nullptr);
  for (std::size_t b = 0; b < k.bases.size(); ++b) {
    const auto parameter = static_cast<std::size_t>(k.bases[b].parameter);
    if (k.bases[b].parameter >= 0 && parameter < l.buffer_data.size())
      r.base_data[b] = l.buffer_data[parameter].get();
  }
  r.stop = o.stop;
  r.observer = o.observer;
  r.events = o.events;
  return r;
}

// ---------------------------------------------------------------------------------------------
// LaunchPlan

LaunchPlan::LaunchPlan(std::shared_ptr<const Kernel> m, const Launch& l, const PlanOptions& o)
    : model(std::move(m)), kernel(*model), launch(l), options(o), warp_size(l.warp_size) {
  const Kernel& k = kernel;
  launch.buffer_data.clear();  // the run's (RunContext::base_data)
  lay_out_threads();
  const std::vector<bool> loaded = computed_loads_at_launch();
  compile_exprs(loaded);
  find_canonical();
  innermost_loop = innermost_loops(k);
  barrier.assign(k.stmts.size(), kNone);
  for (std::size_t i = 0; i < k.stmts.size(); ++i)
    if (k.stmts[i].kind == StmtKind::Barrier) barrier[i] = barriers++;
  const std::vector<ExprId> origins = opaque_origins(k, loaded);
  skip_value.assign(k.stmts.size(), 0);
  for (std::size_t i = 0; i < k.stmts.size(); ++i) {
    const Stmt& s = k.stmts[i];
    skip_value[i] = s.value != kNone && origins[s.value] != kNone ? 1 : 0;
  }
  checks = checked_values(k, origins);
  compile_memory(loaded, origins);
  bind_launch();
  lay_out_values(options.shared_addresses ? with_shared_addresses(k, loaded, origins) : loaded);
  keep_accesses(origins);
  choose_kept_expressions();
  compile_affine_offsets();
  apply_class_options();
}

LaunchPlan::LaunchPlan(std::shared_ptr<const Kernel> m, Blank) : model(std::move(m)), kernel(*model) {}

void LaunchPlan::apply_class_options() {
  for (StatementMemory& m : memory)
    for (CompiledAccess& a : m.accesses) {
      const auto id = static_cast<std::size_t>(a.id);
      if (id >= options.shifts.size() || options.shifts[id].count <= 1) continue;
      a.shifts = options.shifts[id].count;
      a.shift_step = options.shifts[id].step;
      a.shifted_at = static_cast<std::uint32_t>(shifted_size);
      shifted_size += static_cast<std::size_t>(options.shifts[id].count - 1);
    }
  for (std::size_t i = 0; i < exprs.size() && i < options.recorded.size(); ++i)
    exprs[i].recorded = options.recorded[i];
}

void LaunchPlan::lay_out_threads() {
  const Launch& l = launch;
  threads_per_block = l.block.volume();
  warps_per_block = static_cast<int>((threads_per_block + warp_size - 1) / warp_size);
  warps.resize(warps_per_block);
  const std::uint64_t bx = l.block.x, bxy = std::uint64_t{l.block.x} * l.block.y;
  for (int w = 0; w < warps_per_block; ++w) {
    WarpThreads& wt = warps[w];
    wt.lanes = warp_size;
    for (int lane = 0; lane < warp_size; ++lane) {
      const std::uint64_t t = std::uint64_t(w) * warp_size + lane;
      if (t >= threads_per_block) break;
      wt.existing |= bit(lane);
      wt.index[0][lane] = t % bx;
      wt.index[1][lane] = (t / bx) % l.block.y;
      wt.index[2][lane] = t / bxy;
    }
    for (int d = 0; d < 3; ++d) {
      bool same = true;
      for (int lane = 1; lane < warp_size; ++lane)
        if ((wt.existing >> lane & 1) && wt.index[d][lane] != wt.index[d][0]) same = false;
      wt.uniform[d] = same;
    }
  }
}

std::vector<bool> LaunchPlan::computed_loads_at_launch() const {
  const Kernel& k = kernel;
  const Launch& l = launch;
  const PlanOptions& o = options;
  // Loads with values at this launch (Launch::buffer_bytes, buffer_data).
  const std::vector<bool> values = buffers_with_values(k, l);
  std::vector<bool> loaded = computed_loads(k, &values);
  // Buffers the kernel writes are followed by value (one thread, blocks in order) only where
  // something needs their values: a condition, an address or an access's lanes, or the buffers'
  // contents (capture_stores). Otherwise their loads stay opaque, as a plain count needs.
  if (!o.capture_stores) {
    std::vector<std::int32_t> written;  // (only a buffer with values at this launch can be followed)
    for (std::size_t a = 0; a < k.accesses.size(); ++a) {
      const MemoryAccess& m = k.accesses[a];
      if (m.kind == AccessKind::Load || m.base == kNone) continue;
      const std::int32_t parameter = k.bases[static_cast<std::size_t>(m.base)].parameter;
      if (parameter == kNone || static_cast<std::size_t>(parameter) >= values.size() ||
          !values[static_cast<std::size_t>(parameter)])
        continue;
      if (std::find(written.begin(), written.end(), m.base) == written.end()) written.push_back(m.base);
    }
    if (!written.empty()) {
      const std::vector<bool> cut = computed_loads(k, &values, nullptr, &written);
      if (cut != loaded) {
        const std::vector<ExprId> all = opaque_origins(k, loaded), without = opaque_origins(k, cut);
        const auto needs = [&](ExprId x) {
          return x != kNone && all[static_cast<std::size_t>(x)] == kNone &&
                 without[static_cast<std::size_t>(x)] != kNone;
        };
        bool needed = false;
        for (const Stmt& s : k.stmts)
          needed =
              needed || ((s.kind == StmtKind::If || s.kind == StmtKind::Loop || s.kind == StmtKind::Switch) &&
                         needs(s.value));
        for (const MemoryAccess& m : k.accesses) needed = needed || needs(m.offset) || needs(m.guard);
        if (!needed) loaded = cut;
      }
    }
  }
  return loaded;
}

namespace {

// The operands an expression of e's kind has.
int expr_operands(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Cast:
    case ExprKind::Unary:
      return 1;
    case ExprKind::Binary:
    case ExprKind::Logical:
      return 2;
    case ExprKind::Select:
      return 3;
    case ExprKind::Intrinsic:
      return operand_count(e.intrinsic);
    case ExprKind::Warp:
      return operand_count(e.warp_op);
    default:
      return 0;
  }
}

// The fields of `e` its kind uses (the model's JSON keeps those alone: a plan compiled from the
// model read back is the same), the others left at CompiledExpr's defaults.
void copy_expr_fields(const Expr& e, CompiledExpr& c) {
  c.kind = e.kind;
  c.type = e.type;
  if (e.kind == ExprKind::Builtin) c.builtin = e.builtin;
  if (e.kind == ExprKind::Unary) c.unary_op = e.unary_op;
  if (e.kind == ExprKind::Binary) c.binary_op = e.binary_op;
  if (e.kind == ExprKind::Logical) c.logical_op = e.logical_op;
  if (e.kind == ExprKind::Param || e.kind == ExprKind::Local) c.index = e.index;
  std::copy(std::begin(e.operands), std::begin(e.operands) + expr_operands(e), std::begin(c.operands));
  if (e.kind == ExprKind::Constant || (e.kind == ExprKind::Warp && e.warp_op <= WarpOp::ShflXor))
    c.constant = e.constant;
}

}  // namespace

void LaunchPlan::compile_exprs(const std::vector<bool>& loaded) {
  const Kernel& k = kernel;
  exprs.resize(k.exprs.size());
  for (std::size_t i = 0; i < k.exprs.size(); ++i) {
    const Expr& e = k.exprs[i];
    CompiledExpr& c = exprs[i];
    copy_expr_fields(e, c);
    if (e.kind == ExprKind::Opaque)  // a load the machine computes (its access), or kNone
      c.index = e.access != kNone && loaded[static_cast<std::size_t>(e.access)] ? e.access : kNone;
    if (e.kind == ExprKind::Binary) {
      c.signed_operands = is_signed(k.exprs[e.operands[0]].type);
      c.narrow_operands = bit_width(k.exprs[e.operands[0]].type) <= 32;
      c.floating_operands = is_floating(k.exprs[e.operands[0]].type);
    }
    if (e.kind == ExprKind::Cast) c.from = k.exprs[e.operands[0]].type;
    if (e.kind == ExprKind::Intrinsic) c.intrinsic = e.intrinsic;
    if (e.kind == ExprKind::Warp) c.warp_op = e.warp_op;
    bind_expr_functions(k, e, c);
  }
}

void LaunchPlan::find_canonical() {
  const Kernel& k = kernel;
  // Expressions of the same operators over the same leaves (`values[jj]` and `col_idx[jj]`'s
  // offsets) have one representative: they share kept lanes, and accesses whose offsets share one
  // share their sectors.
  canonical.resize(k.exprs.size());
  {
    std::map<std::array<std::uint64_t, 8>, ExprId> representative;
    for (std::size_t i = 0; i < k.exprs.size(); ++i) {
      const Expr& e = k.exprs[i];
      canonical[i] = static_cast<ExprId>(i);
      switch (e.kind) {
        case ExprKind::Constant:
        case ExprKind::Param:
        case ExprKind::Local:
        case ExprKind::Builtin:
        case ExprKind::Cast:
        case ExprKind::Unary:
        case ExprKind::Binary: {
          std::array<std::uint64_t, 8> key{
              static_cast<std::uint64_t>(e.kind), static_cast<std::uint64_t>(e.type),
              e.kind == ExprKind::Binary  ? static_cast<std::uint64_t>(e.binary_op)
              : e.kind == ExprKind::Unary ? static_cast<std::uint64_t>(e.unary_op)
                                          : static_cast<std::uint64_t>(e.builtin),
              e.constant, static_cast<std::uint64_t>(static_cast<std::int64_t>(e.index))};
          bool ordered = true;
          for (int n = 0; n < 3; ++n) {
            const ExprId x = e.operands[n];
            ordered = ordered && (x == kNone || static_cast<std::size_t>(x) < i);
            key[static_cast<std::size_t>(5 + n)] = x == kNone || static_cast<std::size_t>(x) >= i
                                                       ? ~std::uint64_t{0}
                                                       : static_cast<std::uint64_t>(canonical[x]);
          }
          if (ordered) canonical[i] = representative.emplace(key, static_cast<ExprId>(i)).first->second;
          break;
        }
        default:
          break;
      }
    }
  }
}

void LaunchPlan::compile_memory(const std::vector<bool>& loaded, const std::vector<ExprId>& origins) {
  const Kernel& k = kernel;
  const PlanOptions& o = options;
  const std::vector<std::string> uncounted = uncounted_accesses(k, loaded);
  const std::vector<int> turns = shared_atomic_turns(k);
  has_memory.assign(k.stmts.size(), 0);
  memory.resize(k.stmts.size());
  for (std::size_t i = 0; i < k.stmts.size(); ++i) {
    StatementMemory& m = memory[i];
    bool captures = false;
    for (std::int32_t a : k.stmts[i].accesses) {
      const MemoryAccess& access = k.accesses[a];
      const bool writes = access.kind != AccessKind::Load && access.space == AddressSpace::Global;
      if (!uncounted[a].empty()) {
        if (o.capture_stores && writes && stores_not_captured.empty())
          stores_not_captured = location(k, access.range) + ": '" + access.text + "' " + uncounted[a];
        continue;
      }
      m.accesses.push_back(
          CompiledAccess{a, access.base, access.offset, access.guard, static_cast<int>(access.width),
                         access.space == AddressSpace::Shared, access.kind == AccessKind::Load, access.kind,
                         static_cast<StmtId>(i)});
      m.accesses.back().turns = turns[static_cast<std::size_t>(a)];
      const std::int32_t parameter = k.bases[static_cast<std::size_t>(access.base)].parameter;
      if (o.capture_stores && writes && parameter != kNone) {
        CompiledAccess& c = m.accesses.back();
        c.capture = captures = true;
        c.parameter = parameter;
        const bool combined = access.kind == AccessKind::Atomic && access.atomic != AtomicOp::Other;
        if ((access.kind == AccessKind::Store || combined) && access.value != kNone &&
            origins[access.value] == kNone && (access.compare == kNone || origins[access.compare] == kNone)) {
          c.value = access.value;
          c.atomic = access.atomic;
          c.type = k.exprs[access.value].type;
          c.compare = access.compare;
        }
      }
    }
    for (CompiledAccess& c : m.accesses) {
      if (c.capture && c.value != kNone) c.after_atomics = reads_atomic_of(k, c.value, k.stmts[i].accesses);
      for (const ExprId e : {c.offset, c.guard})
        if (e != kNone && reads_atomic_of(k, e, k.stmts[i].accesses)) c.address_after_atomics = true;
    }
    for (std::size_t x = 1; x < m.accesses.size(); ++x)
      for (std::size_t y = x; y-- > 0;) {
        const CompiledAccess& a = m.accesses[x];
        const CompiledAccess& b = m.accesses[y];
        if (a.width == b.width && a.shared == b.shared && a.load == b.load &&
            a.global_atomic() == b.global_atomic() && a.turns == b.turns && a.guard == b.guard &&
            a.offset != kNone && b.offset != kNone && canonical[a.offset] == canonical[b.offset]) {
          m.accesses[x].same_as = static_cast<std::int32_t>(y);
          break;
        }
      }
    for (const FloatOps& f : k.stmts[i].flops)
      if (f.guard == kNone || origins[f.guard] == kNone) m.flops.push_back(f);
    has_memory[i] = (o.memory || captures) && (!m.accesses.empty() || !m.flops.empty()) ? 1 : 0;
  }
}

void LaunchPlan::bind_launch() {
  const Kernel& k = kernel;
  const Launch& l = launch;
  arguments.resize(k.parameters.size(), 0);
  for (std::size_t i = 0; i < k.parameters.size() && i < l.arguments.size(); ++i)
    arguments[i] = l.arguments[i].bits;
  fold_constants();
  base_bytes.assign(k.bases.size(), 0);
  for (std::size_t b = 0; b < k.bases.size(); ++b) {
    const auto parameter = static_cast<std::size_t>(k.bases[b].parameter);
    if (k.bases[b].parameter >= 0 && parameter < l.buffer_bytes.size())
      base_bytes[b] = l.buffer_bytes[parameter];
    // A declared array (__shared__, local, __device__, __constant__) has its size: always checked
    // (extern __shared__, 0 bytes here, is sized at launch).
    if (k.bases[b].parameter < 0) base_bytes[b] = k.bases[b].bytes;
    if (k.bases[b].parameter < 0 && k.bases[b].bytes == 0 && k.bases[b].space == AddressSpace::Shared)
      base_bytes[b] = l.dynamic_shared_bytes;  // extern __shared__: as the launch sizes it
  }
}

void LaunchPlan::lay_out_values(const std::vector<bool>& loaded) {
  const Kernel& k = kernel;
  const Launch& l = launch;
  // Memory followed by value (sim/model/ir.hpp memory_layout): shared memory, local arrays, and the
  // buffers the kernel writes, one after the other (256-byte aligned) in GlobalState.
  {
    MemoryLayout layout = memory_layout(k, loaded, l.dynamic_shared_bytes);
    shared_at = std::move(layout.shared_at);
    shared_size = layout.shared_bytes;
    shared_values = layout.any_shared;
    local_at = std::move(layout.local_at);
    local_size = layout.local_bytes;
    global_at.assign(k.bases.size(), -1);
    for (std::size_t b = 0; b < k.bases.size(); ++b) {
      if (!layout.written[b]) continue;
      global_size = (global_size + 255) / 256 * 256;
      global_at[b] = static_cast<std::int64_t>(global_size);
      global_size += base_bytes[b];
      global_values = true;
    }
  }
}

void LaunchPlan::keep_accesses(const std::vector<ExprId>& origins) {
  const Kernel& k = kernel;
  if (shared_values || global_values || local_size > 0) {
    for (std::size_t i = 0; i < k.stmts.size(); ++i) {
      StatementMemory& m = memory[i];
      for (const AccessKind kind : {AccessKind::Load, AccessKind::Atomic, AccessKind::Store})
        for (std::int32_t a : k.stmts[i].accesses) {
          const MemoryAccess& access = k.accesses[static_cast<std::size_t>(a)];
          if (access.kind != kind || access.base == kNone) continue;
          const auto b = static_cast<std::size_t>(access.base);
          const bool global = global_at[b] >= 0;
          if (shared_at[b] < 0 && !global && local_at[b] < 0) continue;
          // An address or lanes the model cannot compute: not followed (such a load has no value).
          if (origins[access.offset] != kNone || (access.guard != kNone && origins[access.guard] != kNone))
            continue;
          KeptAccess kept_access{a,
                                 access.base,
                                 kind,
                                 access.offset,
                                 access.guard,
                                 access.value,
                                 static_cast<int>(access.width)};
          kept_access.global = global;
          kept_access.local = local_at[b] >= 0;
          kept_access.atomic = access.atomic;
          kept_access.compare = access.compare;
          if (access.value != kNone) kept_access.type = k.exprs[static_cast<std::size_t>(access.value)].type;
          // A shared array followed by address only: a value the model does not hold is kept as none.
          if (shared_at[b] >= 0 && ((access.value != kNone && origins[access.value] != kNone) ||
                                    (access.compare != kNone && origins[access.compare] != kNone)))
            kept_access.value = kept_access.compare = kNone;
          m.kept.push_back(kept_access);
        }
      if (!m.kept.empty()) has_memory[i] = 1;
    }
  }
}

void LaunchPlan::choose_kept_expressions() {
  const Kernel& k = kernel;
  followed.assign(k.bases.size(), 0);
  for (std::size_t b = 0; b < k.bases.size(); ++b)
    followed[b] = (global_values && global_at[b] >= 0) || (local_size > 0 && local_at[b] >= 0) ||
                  (shared_values && shared_at[b] >= 0);
  // Expressions whose values are kept: binary ones computing on lanes from at most kKeptLocals
  // locals, builtins, parameters, constants and loads of read-only memory (operands come before
  // their expression).
  const auto read_only = [&](std::int32_t access) {
    if (access == kNone) return false;  // a load the machine does not compute
    const MemoryAccess& a = k.accesses[static_cast<std::size_t>(access)];
    return a.kind == AccessKind::Load && a.base != kNone && !followed[static_cast<std::size_t>(a.base)];
  };
  kept.assign(k.exprs.size(), kNotKept);
  kept_locals.assign(k.exprs.size(), {});
  {
    std::vector<std::vector<LocalId>> reads(k.exprs.size());
    std::vector<std::uint8_t> plain(k.exprs.size(), 0);  // no opaque value, no select/logical
    for (std::size_t i = 0; i < k.exprs.size(); ++i) {
      const Expr& e = k.exprs[i];
      // (A warp function's lanes depend on which lanes run it: never kept.)
      bool ok = e.kind != ExprKind::Opaque && e.kind != ExprKind::Select && e.kind != ExprKind::Logical &&
                e.kind != ExprKind::Warp;
      if (e.kind == ExprKind::Local) reads[i].push_back(e.index);
      // A load from memory nothing in the launch writes (read_only): its value follows from its
      // offset, so it reads the offset's locals (`x[col_idx[jj]]` reads jj).
      if (e.kind == ExprKind::Opaque && read_only(exprs[i].index)) {
        const ExprId offset = k.accesses[static_cast<std::size_t>(exprs[i].index)].offset;
        if (offset != kNone && static_cast<std::size_t>(offset) < i && plain[offset]) {
          ok = true;
          reads[i] = reads[offset];
        }
      }
      for (ExprId operand_id : e.operands) {
        if (operand_id == kNone) continue;
        if (static_cast<std::size_t>(operand_id) >= i) {  // operands are expected first; else not kept
          ok = false;
          continue;
        }
        ok = ok && plain[operand_id];
        for (LocalId read : reads[operand_id])
          if (std::find(reads[i].begin(), reads[i].end(), read) == reads[i].end()) reads[i].push_back(read);
      }
      plain[i] = ok ? 1 : 0;
      if (ok && e.kind == ExprKind::Binary && reads[i].size() <= static_cast<std::size_t>(kKeptLocals)) {
        kept[i] = static_cast<std::uint8_t>(reads[i].size());
        std::copy(reads[i].begin(), reads[i].end(), kept_locals[i].begin());
      }
      if (reads[i].size() > static_cast<std::size_t>(kKeptLocals)) reads[i].resize(kKeptLocals + 1);
    }
  }
}

void LaunchPlan::compile_affine_offsets() {
  const Kernel& k = kernel;
  const Launch& l = launch;
  const PlanOptions& o = options;
  if (o.memory && o.affine_offsets) {
    for (StatementMemory& m : memory)
      for (CompiledAccess& a : m.accesses) {
        AffineOffset f;
        if (!compile_affine(k, l, arguments, a.offset, f)) continue;
        a.affine = static_cast<std::int32_t>(affine_offsets.size());
        affine_offsets.push_back(std::move(f));
      }
  }
}

void LaunchPlan::fold_constants() {
  // The value of operand x (an earlier expression) when it is a launch constant.
  const auto known = [&](ExprId x, std::uint64_t& bits) {
    const CompiledExpr& c = exprs[static_cast<std::size_t>(x)];
    switch (c.kind) {
      case ExprKind::Constant:
        bits = c.constant;
        return !is_floating(c.type);
      case ExprKind::Param: {
        const auto i = static_cast<std::size_t>(c.index);
        if (!kernel.parameters[i].scalar || is_floating(c.type)) return false;
        bits = normalise(c.type, arguments[i]);
        return true;
      }
      case ExprKind::Builtin:
        return launch_constant(launch, c.builtin, bits);
      default:
        return false;
    }
  };
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    CompiledExpr& c = exprs[i];
    if (is_floating(c.type)) continue;
    std::uint64_t a = 0, b = 0, r = 0;
    bool fault = false;
    // Operand n is an earlier expression with a launch constant's value.
    const auto operand = [&](int n, std::uint64_t& bits) {
      const ExprId x = c.operands[n];
      return x != kNone && static_cast<std::size_t>(x) < i && known(x, bits);
    };
    switch (c.kind) {
      case ExprKind::Binary:
        if (is_comparison(c.binary_op) || c.floating_operands || c.binary == nullptr || !operand(0, a) ||
            !operand(1, b))
          continue;
        r = c.binary(a, b, fault);
        break;
      case ExprKind::Unary:
        if (c.unary == nullptr || !operand(0, a)) continue;
        r = c.unary(a, fault);
        break;
      case ExprKind::Cast:
        if (is_floating(c.from) || !operand(0, a)) continue;
        r = ops::convert(c.from, c.type, a, fault);
        break;
      default:
        continue;
    }
    if (fault) continue;
    c.kind = ExprKind::Constant;
    c.constant = normalise(c.type, r);
  }
}

}  // namespace warpdiv::sim::ir::detail
