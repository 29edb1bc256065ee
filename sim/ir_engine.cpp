#include "sim/ir_engine.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <type_traits>

#include "sim/errors.hpp"
#include "sim/ir_memory.hpp"
#include "sim/ir_ops.hpp"

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
    case ScalarType::Bool: return &cast_lanes<ScalarType::Bool>;
    case ScalarType::I8: return &cast_lanes<ScalarType::I8>;
    case ScalarType::U8: return &cast_lanes<ScalarType::U8>;
    case ScalarType::I16: return &cast_lanes<ScalarType::I16>;
    case ScalarType::U16: return &cast_lanes<ScalarType::U16>;
    case ScalarType::I32: return &cast_lanes<ScalarType::I32>;
    case ScalarType::U32: return &cast_lanes<ScalarType::U32>;
    case ScalarType::I64: return &cast_lanes<ScalarType::I64>;
    case ScalarType::U64: return &cast_lanes<ScalarType::U64>;
    case ScalarType::F32: case ScalarType::F64: break;  // Program converts these value by value
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
    case ScalarType::I32: set_binary<OP, ScalarType::I32>(c); break;
    case ScalarType::U32: set_binary<OP, ScalarType::U32>(c); break;
    case ScalarType::I64: set_binary<OP, ScalarType::I64>(c); break;
    case ScalarType::U64: set_binary<OP, ScalarType::U64>(c); break;
    case ScalarType::F32:
      if constexpr (ops::floating_operator(OP)) set_binary<OP, ScalarType::F32>(c);
      break;
    case ScalarType::F64:
      if constexpr (ops::floating_operator(OP)) set_binary<OP, ScalarType::F64>(c);
      break;
    default: break;  // validate() allows only the four promoted types and the floating ones
  }
}

void compile_binary(CompiledExpr& c, BinaryOp op, ScalarType t) {
  switch (op) {
    case BinaryOp::Add: set_binary_for<BinaryOp::Add>(c, t); break;
    case BinaryOp::Sub: set_binary_for<BinaryOp::Sub>(c, t); break;
    case BinaryOp::Mul: set_binary_for<BinaryOp::Mul>(c, t); break;
    case BinaryOp::Div: set_binary_for<BinaryOp::Div>(c, t); break;
    case BinaryOp::Rem: set_binary_for<BinaryOp::Rem>(c, t); break;
    case BinaryOp::Shl: set_binary_for<BinaryOp::Shl>(c, t); break;
    case BinaryOp::Shr: set_binary_for<BinaryOp::Shr>(c, t); break;
    case BinaryOp::BitAnd: set_binary_for<BinaryOp::BitAnd>(c, t); break;
    case BinaryOp::BitOr: set_binary_for<BinaryOp::BitOr>(c, t); break;
    case BinaryOp::BitXor: set_binary_for<BinaryOp::BitXor>(c, t); break;
    case BinaryOp::Lt: set_binary_for<BinaryOp::Lt>(c, t); break;
    case BinaryOp::Le: set_binary_for<BinaryOp::Le>(c, t); break;
    case BinaryOp::Gt: set_binary_for<BinaryOp::Gt>(c, t); break;
    case BinaryOp::Ge: set_binary_for<BinaryOp::Ge>(c, t); break;
    case BinaryOp::Eq: set_binary_for<BinaryOp::Eq>(c, t); break;
    case BinaryOp::Ne: set_binary_for<BinaryOp::Ne>(c, t); break;
  }
  c.binary = ops::binary_fn(op, t);
}

UnaryLaneFn unary_lane_fn(UnaryOp op, ScalarType t) {
  switch (op) {
    case UnaryOp::Neg:
      switch (t) {
        case ScalarType::I32: return &unary_lanes<UnaryOp::Neg, ScalarType::I32>;
        case ScalarType::U32: return &unary_lanes<UnaryOp::Neg, ScalarType::U32>;
        case ScalarType::I64: return &unary_lanes<UnaryOp::Neg, ScalarType::I64>;
        case ScalarType::F32: return &unary_lanes<UnaryOp::Neg, ScalarType::F32>;
        case ScalarType::F64: return &unary_lanes<UnaryOp::Neg, ScalarType::F64>;
        default: return &unary_lanes<UnaryOp::Neg, ScalarType::U64>;
      }
    case UnaryOp::BitNot:
      switch (t) {
        case ScalarType::I32: return &unary_lanes<UnaryOp::BitNot, ScalarType::I32>;
        case ScalarType::U32: return &unary_lanes<UnaryOp::BitNot, ScalarType::U32>;
        case ScalarType::I64: return &unary_lanes<UnaryOp::BitNot, ScalarType::I64>;
        default: return &unary_lanes<UnaryOp::BitNot, ScalarType::U64>;
      }
    case UnaryOp::LogicalNot: return &unary_lanes<UnaryOp::LogicalNot, ScalarType::Bool>;
  }
  return nullptr;
}

// A comparison of two uniform values, inline (the common loop condition `k < T`).
inline bool compare(BinaryOp op, bool is_signed_type, std::uint64_t a, std::uint64_t b) {
  if (is_signed_type) {
    const auto x = static_cast<std::int64_t>(a), y = static_cast<std::int64_t>(b);
    switch (op) {
      case BinaryOp::Lt: return x < y;
      case BinaryOp::Le: return x <= y;
      case BinaryOp::Gt: return x > y;
      case BinaryOp::Ge: return x >= y;
      case BinaryOp::Eq: return x == y;
      default: return x != y;
    }
  }
  switch (op) {
    case BinaryOp::Lt: return a < b;
    case BinaryOp::Le: return a <= b;
    case BinaryOp::Gt: return a > b;
    case BinaryOp::Ge: return a >= b;
    case BinaryOp::Eq: return a == b;
    default: return a != b;
  }
}

int lowest_lane(LaneMask m) { return __builtin_ctzll(m); }
LaneMask bit(int lane) { return LaneMask{1} << lane; }

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

}  // namespace

// ---------------------------------------------------------------------------------------------
// Program

Program::Program(const Kernel& k, const Launch& l, const ReplayOptions& o)
    : kernel(k), launch(l), options(o), warp_size(l.warp_size) {
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
          return x != kNone && all[static_cast<std::size_t>(x)] == kNone && without[static_cast<std::size_t>(x)] != kNone;
        };
        bool needed = false;
        for (const Stmt& s : k.stmts)
          needed = needed || ((s.kind == StmtKind::If || s.kind == StmtKind::Loop || s.kind == StmtKind::Switch) &&
                              needs(s.value));
        for (const MemoryAccess& m : k.accesses) needed = needed || needs(m.offset) || needs(m.guard);
        if (!needed) loaded = cut;
      }
    }
  }
  exprs.resize(k.exprs.size());
  for (std::size_t i = 0; i < k.exprs.size(); ++i) {
    const Expr& e = k.exprs[i];
    CompiledExpr& c = exprs[i];
    c.kind = e.kind;
    c.type = e.type;
    c.builtin = e.builtin;
    c.unary_op = e.unary_op;
    c.binary_op = e.binary_op;
    c.logical_op = e.logical_op;
    c.index = e.index;
    std::copy(std::begin(e.operands), std::end(e.operands), std::begin(c.operands));
    c.constant = e.constant;
    if (e.kind == ExprKind::Opaque)  // a load the machine computes (its access), or kNone
      c.index = e.access != kNone && loaded[static_cast<std::size_t>(e.access)] ? e.access : kNone;
    if (e.kind == ExprKind::Binary) {
      c.signed_operands = is_signed(k.exprs[e.operands[0]].type);
      c.narrow_operands = bit_width(k.exprs[e.operands[0]].type) <= 32;
      c.floating_operands = is_floating(k.exprs[e.operands[0]].type);
    }
    switch (e.kind) {
      case ExprKind::Binary: compile_binary(c, e.binary_op, k.exprs[e.operands[0]].type); break;
      case ExprKind::Unary:
        c.unary = ops::unary_fn(e.unary_op, k.exprs[e.operands[0]].type);
        c.unary_lanes = unary_lane_fn(e.unary_op, k.exprs[e.operands[0]].type);
        break;
      case ExprKind::Cast:
        c.from = k.exprs[e.operands[0]].type;
        // Conversions from or to a floating type go value by value (ops::convert); the others
        // depend on the target only (the operand's bits are normalised).
        if (!is_floating(c.from) && !is_floating(e.type)) c.cast_lanes = cast_fn(e.type);
        break;
      case ExprKind::Intrinsic: c.intrinsic = e.intrinsic; break;
      case ExprKind::Warp: c.warp_op = e.warp_op; break;
      default: break;
    }
  }
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
          std::array<std::uint64_t, 8> key{static_cast<std::uint64_t>(e.kind), static_cast<std::uint64_t>(e.type),
                                           e.kind == ExprKind::Binary  ? static_cast<std::uint64_t>(e.binary_op)
                                           : e.kind == ExprKind::Unary ? static_cast<std::uint64_t>(e.unary_op)
                                                                       : static_cast<std::uint64_t>(e.builtin),
                                           e.constant, static_cast<std::uint64_t>(static_cast<std::int64_t>(e.index))};
          bool ordered = true;
          for (int n = 0; n < 3; ++n) {
            const ExprId x = e.operands[n];
            ordered = ordered && (x == kNone || static_cast<std::size_t>(x) < i);
            key[static_cast<std::size_t>(5 + n)] =
                x == kNone || static_cast<std::size_t>(x) >= i ? ~std::uint64_t{0} : static_cast<std::uint64_t>(canonical[x]);
          }
          if (ordered) canonical[i] = representative.emplace(key, static_cast<ExprId>(i)).first->second;
          break;
        }
        default: break;
      }
    }
  }
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
  const std::vector<std::string> uncounted = uncounted_accesses(k, loaded);
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
      m.accesses.push_back(CompiledAccess{a, access.base, access.offset, access.guard,
                                          static_cast<int>(access.width),
                                          access.space == AddressSpace::Shared, access.kind == AccessKind::Load});
      const std::int32_t parameter = k.bases[static_cast<std::size_t>(access.base)].parameter;
      if (o.capture_stores && writes && parameter != kNone) {
        CompiledAccess& c = m.accesses.back();
        c.capture = captures = true;
        c.parameter = parameter;
        const bool combined = access.kind == AccessKind::Atomic && access.atomic != AtomicOp::Other;
        if ((access.kind == AccessKind::Store || combined) && access.value != kNone && origins[access.value] == kNone &&
            (access.compare == kNone || origins[access.compare] == kNone)) {
          c.value = access.value;
          c.atomic = access.atomic;
          c.type = k.exprs[access.value].type;
          c.compare = access.compare;
        }
      }
    }
    for (CompiledAccess& c : m.accesses)
      if (c.capture && c.value != kNone) c.after_atomics = reads_atomic_of(k, c.value, k.stmts[i].accesses);
    for (std::size_t x = 1; x < m.accesses.size(); ++x)
      for (std::size_t y = x; y-- > 0;) {
        const CompiledAccess& a = m.accesses[x];
        const CompiledAccess& b = m.accesses[y];
        if (a.width == b.width && a.shared == b.shared && a.load == b.load && a.guard == b.guard && a.offset != kNone &&
            b.offset != kNone && canonical[a.offset] == canonical[b.offset]) {
          m.accesses[x].same_as = static_cast<std::int32_t>(y);
          break;
        }
      }
    for (const FloatOps& f : k.stmts[i].flops)
      if (f.guard == kNone || origins[f.guard] == kNone) m.flops.push_back(f);
    has_memory[i] = (o.memory || captures) && (!m.accesses.empty() || !m.flops.empty()) ? 1 : 0;
  }
  arguments.resize(k.parameters.size(), 0);
  for (std::size_t i = 0; i < k.parameters.size() && i < l.arguments.size(); ++i)
    arguments[i] = l.arguments[i].bits;
  fold_constants();
  base_bytes.assign(k.bases.size(), 0);
  base_data.assign(k.bases.size(), nullptr);
  for (std::size_t b = 0; b < k.bases.size(); ++b) {
    const auto parameter = static_cast<std::size_t>(k.bases[b].parameter);
    if (k.bases[b].parameter >= 0 && parameter < l.buffer_bytes.size()) base_bytes[b] = l.buffer_bytes[parameter];
    // A declared array (__shared__, local, __device__, __constant__) has its size: always checked
    // (extern __shared__, 0 bytes here, is sized at launch).
    if (k.bases[b].parameter < 0) base_bytes[b] = k.bases[b].bytes;
    if (k.bases[b].parameter < 0 && k.bases[b].bytes == 0 && k.bases[b].space == AddressSpace::Shared)
      base_bytes[b] = l.dynamic_shared_bytes;  // extern __shared__: as the launch sizes it
    if (k.bases[b].parameter >= 0 && parameter < l.buffer_data.size()) base_data[b] = l.buffer_data[parameter].get();
  }
  // Memory followed by value (sim/ir.hpp memory_layout): shared memory, local arrays, and the
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
          if (origins[access.offset] != kNone || (access.guard != kNone && origins[access.guard] != kNone)) continue;
          KeptAccess kept_access{a, access.base, kind, access.offset, access.guard, access.value,
                                 static_cast<int>(access.width)};
          kept_access.global = global;
          kept_access.local = local_at[b] >= 0;
          kept_access.atomic = access.atomic;
          kept_access.compare = access.compare;
          if (access.value != kNone) kept_access.type = k.exprs[static_cast<std::size_t>(access.value)].type;
          m.kept.push_back(kept_access);
        }
      if (!m.kept.empty()) has_memory[i] = 1;
    }
  }
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
  if (o.memory && o.affine_offsets) {
    for (StatementMemory& m : memory)
      for (CompiledAccess& a : m.accesses) {
        AffineOffset f;
        if (!compile_affine(k, l, arguments, a.offset, f)) continue;
        a.affine = static_cast<std::int32_t>(affine_offsets.size());
        affine_offsets.push_back(std::move(f));
      }
  }
  evaluation_cap = ~std::uint64_t{0};
}

void Program::fold_constants() {
  // The value of operand x (an earlier expression) when it is a launch constant.
  const auto known = [&](ExprId x, std::uint64_t& bits) {
    const CompiledExpr& c = exprs[static_cast<std::size_t>(x)];
    switch (c.kind) {
      case ExprKind::Constant: bits = c.constant; return !is_floating(c.type);
      case ExprKind::Param: {
        const auto i = static_cast<std::size_t>(c.index);
        if (!kernel.parameters[i].scalar || is_floating(c.type)) return false;
        bits = normalise(c.type, arguments[i]);
        return true;
      }
      case ExprKind::Builtin: return launch_constant(launch, c.builtin, bits);
      default: return false;
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
      default: continue;
    }
    if (fault) continue;
    c.kind = ExprKind::Constant;
    c.constant = normalise(c.type, r);
  }
}

// ---------------------------------------------------------------------------------------------
// WarpMachine

WarpMachine::WarpMachine(const Program& program)
    : p_(program), k_(program.kernel), patterns_(program.warp_size), by_iteration_(program.options.by_iteration) {
  local_pattern_.resize(k_.locals.size());
  thread_pattern_.resize(static_cast<std::size_t>(p_.warps_per_block) * 3);
  affine_cache_.resize(k_.accesses.size());
  locals_.resize(k_.locals.size());
  local_lanes_.assign(k_.locals.size() * kMaxLanes, 0);
  scratch_.assign(k_.exprs.size() * kMaxLanes, 0);
  kept_.resize(k_.exprs.size());
  kept_load_.resize(k_.exprs.size());
  kept_mask_.resize(k_.exprs.size());
  local_version_.assign(k_.locals.size(), 0);
  frames_.reserve(k_.stmts.size() + 1);
  loop_iteration_.assign(k_.stmts.size(), 0);
  sink_.resize(k_.stmts.size());
  sink_accesses_.resize(k_.accesses.size());
  sink_flops_.resize(k_.stmts.size());
  sink_faults_.resize(k_.accesses.size() + k_.stmts.size());
  sink_extents_.resize(k_.accesses.size());
  sink_shifted_.resize(p_.shifted_size);
  sink_iterations_.resize(k_.stmts.size());
  full_arrivals_.assign(p_.barriers, 0);
  lane_arrivals_.assign(std::size_t(p_.barriers) * kMaxLanes, 0);
  block_max_.assign(p_.barriers, 0);
  block_min_.assign(p_.barriers, 0);
  warp_iteration_arrivals_.resize(p_.barriers);
  block_iteration_arrivals_.resize(p_.barriers);
  for (int b = static_cast<int>(Builtin::BlockDimX); b < kBuiltinCount; ++b)
    launch_constant(p_.launch, static_cast<Builtin>(b), builtins_[static_cast<std::size_t>(b)]);
  if (p_.global_values) {
    own_global_ = std::make_unique<GlobalState>();
    own_global_->bytes.assign(p_.global_size, 0);
    own_global_->state.assign(p_.global_size, GlobalByte{});
    for (std::size_t b = 0; b < k_.bases.size(); ++b)
      if (p_.global_at[b] >= 0 && p_.base_data[b] != nullptr)
        std::memcpy(own_global_->bytes.data() + p_.global_at[b], p_.base_data[b]->data(),
                    std::min<std::size_t>(p_.base_data[b]->size(), p_.base_bytes[b]));
    global_ = own_global_.get();
  }
  if (p_.global_values || p_.shared_values) atomic_old_.assign(k_.accesses.size() * kMaxLanes, 0);
  if (p_.local_size > 0) {
    local_bytes_.assign(p_.local_size * kMaxLanes, 0);
    local_written_.assign(p_.local_size * kMaxLanes, 0);
  }
  if (p_.shared_values) {
    own_shared_ = std::make_unique<SharedState>();
    own_shared_->bytes.assign(p_.shared_size, 0);
    own_shared_->state.assign(p_.shared_size, SharedByte{});
    shared_ = own_shared_.get();
  }
  begin_block(0, 0, 0);
  start_warp(0);
}

void WarpMachine::begin_block(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  block_index_ = {x, y, z};
  block_start_evaluations_ = evaluations_;
  builtins_[static_cast<int>(Builtin::BlockIdxX)] = x;
  builtins_[static_cast<int>(Builtin::BlockIdxY)] = y;
  builtins_[static_cast<int>(Builtin::BlockIdxZ)] = z;
  std::fill(block_max_.begin(), block_max_.end(), 0);
  std::fill(block_min_.begin(), block_min_.end(), ~std::uint64_t{0});
  for (auto& per_k : block_iteration_arrivals_) per_k.clear();
}

void WarpMachine::start_warp(int warp) {
  warp_ = warp;
  threads_ = &p_.warps[warp];
  lanes_ = threads_->lanes;
  alive_ = threads_->existing;
  for (LocalState& l : locals_) l = LocalState{};
  std::fill(local_written_.begin(), local_written_.end(), std::uint8_t{0});  // each thread's arrays: not written
  warp_stamp_ = ++stamp_;  // values kept in an earlier warp are stale
  frames_.clear();
  std::fill(full_arrivals_.begin(), full_arrivals_.end(), 0);
  std::fill(lane_arrivals_.begin(), lane_arrivals_.end(), 0);
  for (auto& per_k : warp_iteration_arrivals_) per_k.clear();
}

void WarpMachine::run_warp(int warp, Tally& tally, bool counted) {
  start_warp(warp);
  if (counted) {
    counts_ = tally.statements.data();
    iterations_ = &tally.iterations;
  } else {
    counts_ = sink_.data();
    iterations_ = &sink_iterations_;
  }
  const bool memory_counted = counted && tally.accesses.size() == k_.accesses.size() &&
                              tally.flops.size() == k_.stmts.size() &&
                              tally.faults.size() == k_.accesses.size() + k_.stmts.size() &&
                              tally.extents.size() == k_.accesses.size() &&
                              tally.shifted.size() == p_.shifted_size;
  memory_counted_ = memory_counted;
  access_counts_ = memory_counted ? tally.accesses.data() : sink_accesses_.data();
  stores_ = counted ? &tally.stores : &sink_stores_;
  order_atomics_ = &tally.order_atomics;  // (uncounted warps' atomics decide results all the same)
  store_fault_ = counted ? &tally.store_fault : &sink_store_fault_;
  sink_stores_.clear();
  shifted_counts_ = memory_counted ? tally.shifted.data() : sink_shifted_.data();
  flop_counts_ = memory_counted ? tally.flops.data() : sink_flops_.data();
  faults_ = memory_counted ? tally.faults.data() : sink_faults_.data();
  extents_ = memory_counted ? tally.extents.data() : sink_extents_.data();
  const std::uint64_t before = evaluations_;
  const std::uint64_t affine_before = affine_requests_;
  skipped_evaluations_ = 0;
  counted_ = counted;
  if (recorder_ != nullptr) recorder_->warp_begin(*this);
  exec(k_.root, threads_->existing);
  if (recorder_ != nullptr) recorder_->warp_end(*this);
  if (counted) {
    tally.evaluations += evaluations_ - before + skipped_evaluations_;
    tally.warps += 1;
    if (memory_counted) tally.affine_requests += affine_requests_ - affine_before;
  }
  // This warp's threads' barrier arrivals, into the block's extremes (the lead machine's when
  // the block's warps run on several).
  WarpMachine& block = lead_ != nullptr ? *lead_ : *this;
  for (int b = 0; b < p_.barriers; ++b) {
    std::uint64_t most = 0, fewest = ~std::uint64_t{0};
    for (int lane = 0; lane < lanes_; ++lane) {
      if (!(threads_->existing >> lane & 1)) continue;
      const std::uint64_t c = full_arrivals_[b] + lane_arrivals_[std::size_t(b) * kMaxLanes + lane];
      most = std::max(most, c);
      fewest = std::min(fewest, c);
    }
    block.block_max_[b] = std::max(block.block_max_[b], most);
    block.block_min_[b] = std::min(block.block_min_[b], fewest);
    auto& block_k = block.block_iteration_arrivals_[b];
    const auto& warp_k = warp_iteration_arrivals_[b];
    if (block_k.size() < warp_k.size()) block_k.resize(warp_k.size());
    for (std::size_t k = 0; k < warp_k.size(); ++k) {
      for (int lane = 0; lane < lanes_; ++lane) {
        if (!(threads_->existing >> lane & 1)) continue;
        const std::uint64_t c = warp_k[k].lanes[lane];
        block_k[k].max = std::max(block_k[k].max, c);
        block_k[k].min = std::min(block_k[k].min, c);
        block_k[k].threads += 1;
      }
    }
  }
}

void WarpMachine::run_warps(Tally& tally, const std::optional<std::uint32_t>& only) {
  if (p_.shared_values) {
    shared_->block_phase = ++shared_->phase;
    if (p_.barriers > 0) return run_phased(tally, only);
  }
  for (int w = 0; w < p_.warps_per_block; ++w) {
    const bool counted = !only || *only == static_cast<std::uint32_t>(w);
    // Warps that are not counted still run when the block has barriers (their arrivals count)
    // or shared memory is followed (their stores count).
    if (!counted && p_.barriers == 0 && !p_.shared_values) continue;
    try {
      run_warp(w, tally, counted);
    } catch (const UnwrittenRead&) {  // the other warps may still make it a race
    }
  }
  if (p_.shared_values) finish_phase();
}

// Each warp on a machine and fiber of its own (warp 0 on this machine): round after round, every
// warp that has not ended runs up to its next barrier; a round is a phase.
void WarpMachine::run_phased(Tally& tally, const std::optional<std::uint32_t>& only) {
  const auto warps = static_cast<std::size_t>(p_.warps_per_block);
  if (!crew_) {
    crew_ = std::make_unique<Crew>();
    crew_->machines.resize(warps);
    crew_->fibers.resize(warps);
  }
  // Each fiber's stack: reserved address space, committed as the warp's statements nest.
  constexpr std::size_t kFiberStack = std::size_t{256} << 20;
  for (std::size_t w = 0; w < warps; ++w) {
    if (w > 0 && !crew_->machines[w]) crew_->machines[w] = std::make_unique<WarpMachine>(p_);
    WarpMachine& m = w == 0 ? *this : *crew_->machines[w];
    if (w > 0) {
      m.shared_ = shared_;
      m.global_ = global_;
      m.lead_ = this;
      m.fault_flag_ = fault_flag_;
      m.begin_block(static_cast<std::uint32_t>(block_index_[0]), static_cast<std::uint32_t>(block_index_[1]),
                    static_cast<std::uint32_t>(block_index_[2]));
    }
    m.phased_ = true;
    if (!crew_->fibers[w]) crew_->fibers[w] = std::make_unique<Fiber>(kFiberStack);
    const bool counted = !only || *only == static_cast<std::uint32_t>(w);
    const int warp = static_cast<int>(w);
    crew_->fibers[w]->start([&m, &tally, warp, counted] { m.run_warp(warp, tally, counted); });
  }
  std::vector<char> running(warps, 1);
  std::size_t left = warps;
  try {
    while (left > 0) {
      for (std::size_t w = 0; w < warps; ++w) {
        if (!running[w]) continue;
        bool yielded = false;
        try {
          yielded = crew_->fibers[w]->resume();
        } catch (const UnwrittenRead&) {  // the other warps may still make it a race
        }
        if (!yielded) {
          running[w] = 0;
          --left;
        }
      }
      finish_phase();
      ++shared_->phase;
    }
  } catch (...) {
    for (auto& f : crew_->fibers) f->cancel();
    phased_ = false;
    throw;
  }
  phased_ = false;
}

void WarpMachine::end_block(Tally& tally) {
  tally.blocks += 1;
  for (std::size_t i = 0; i < k_.stmts.size(); ++i) {
    const int b = p_.barrier[i];
    if (b == kNone) continue;
    Counts64& c = tally.statements[i];
    c.block_executions += block_max_[b];
    c.partial_block_executions += block_max_[b] - block_min_[b];
    c.blocks_with_partial += block_max_[b] != block_min_[b] ? 1 : 0;
    const auto& block_k = block_iteration_arrivals_[b];
    if (block_k.empty()) continue;
    auto& per_k = tally.iterations[i];
    if (per_k.size() < block_k.size()) per_k.resize(block_k.size());
    for (std::size_t k = 0; k < block_k.size(); ++k) {
      const std::uint64_t fewest = block_k[k].threads < p_.threads_per_block ? 0 : block_k[k].min;
      per_k[k].block_executions += block_k[k].max;
      per_k[k].partial_block_executions += block_k[k].max - fewest;
      per_k[k].blocks_with_partial += block_k[k].max != fewest ? 1 : 0;
    }
  }
}

void WarpMachine::set_local(LocalId local, const std::uint64_t* lanes, LaneMask defined) {
  std::copy(lanes, lanes + kMaxLanes, local_lanes(local));
  bool same = true;
  for (int l = 1; l < lanes_; ++l) same = same && lanes[l] == lanes[0];
  locals_[local] = LocalState{same, lanes[0], defined};
  changed(local);
}

void WarpMachine::evaluate(ExprId expr, LaneMask active, std::uint64_t* out) {
  const Val v = eval(expr, active);
  for (int l = 0; l < kMaxLanes; ++l) out[l] = v.lanes != nullptr ? v.lanes[l] : v.value;
}

// ---------------------------------------------------------------------------------------------
// Counting

Counts64* WarpMachine::iteration_counts(StmtId id) {
  const StmtId loop = p_.innermost_loop[id];
  if (loop == kNone) return nullptr;
  const std::uint64_t k = loop_iteration_[loop];
  auto& per_k = (*iterations_)[id];
  if (per_k.size() <= k) {
    if (k >= kMaxIterationsByIteration) too_many_iterations(loop);
    per_k.resize(k + 1);
  }
  return &per_k[k];
}

__attribute__((always_inline)) inline std::uint64_t WarpMachine::lanes_of(LaneMask mask) {
  if (mask != counted_mask_) {
    counted_mask_ = mask;
    counted_lanes_ = static_cast<std::uint64_t>(popcount(mask));
  }
  return counted_lanes_;
}

__attribute__((always_inline)) inline void WarpMachine::count(StmtId id, LaneMask active) {
  Counts64& c = counts_[id];
  const std::uint64_t lanes = lanes_of(active);
  c.evaluations += 1;
  c.active += lanes;
  evaluations_ += 1;
  if (p_.options.observer != nullptr) observe(id, active, 0);
  if (by_iteration_) {
    if (Counts64* it = iteration_counts(id)) {
      it->evaluations += 1;
      it->active += lanes;
    }
  }
}

__attribute__((always_inline)) inline void WarpMachine::count_condition(StmtId id, LaneMask active,
                                                                  LaneMask taken) {
  Counts64& c = counts_[id];
  const auto divergent = static_cast<std::uint64_t>(taken != 0 && taken != active);
  const std::uint64_t lanes = lanes_of(active);
  const std::uint64_t taken_lanes = taken == active ? lanes : static_cast<std::uint64_t>(popcount(taken));
  c.evaluations += 1;
  c.active += lanes;
  c.taken += taken_lanes;
  c.divergent += divergent;
  evaluations_ += 1;
  if (p_.options.observer != nullptr) observe(id, active, taken);
  if (by_iteration_) {
    if (Counts64* it = iteration_counts(id)) {
      it->evaluations += 1;
      it->active += lanes;
      it->taken += taken_lanes;
      it->divergent += divergent;
    }
  }
}

void WarpMachine::observe(StmtId id, LaneMask active, LaneMask taken) {
  if (p_.sampling) return;  // estimate()'s sample blocks are replayed again for real
  const Dim3 block{static_cast<std::uint32_t>(block_index_[0]),
                   static_cast<std::uint32_t>(block_index_[1]),
                   static_cast<std::uint32_t>(block_index_[2])};
  p_.options.observer->evaluation(block, static_cast<std::uint32_t>(warp_), id, active, taken);
}

void WarpMachine::arrive(StmtId id, LaneMask active) {
  const int b = p_.barrier[id];
  if (active == threads_->existing) {
    full_arrivals_[b] += 1;
  } else {
    for (LaneMask m = active; m != 0; m &= m - 1)
      lane_arrivals_[std::size_t(b) * kMaxLanes + lowest_lane(m)] += 1;
  }
  if (by_iteration_ && p_.innermost_loop[id] != kNone) {
    const std::uint64_t k = loop_iteration_[p_.innermost_loop[id]];
    auto& per_k = warp_iteration_arrivals_[b];
    if (per_k.size() <= k) {
      if (k >= kMaxIterationsByIteration) too_many_iterations(p_.innermost_loop[id]);
      per_k.resize(k + 1);
    }
    for (LaneMask m = active; m != 0; m &= m - 1) per_k[k].lanes[lowest_lane(m)] += 1;
  }
}

void WarpMachine::too_many_iterations(StmtId loop) const {
  throw InvalidInput(location(k_, k_.stmts[loop].range) + ": the " + report_kind(k_.stmts[loop]) +
                     " loop runs more than " + std::to_string(kMaxIterationsByIteration) +
                     " iterations, the most that counts by iteration keep");
}

void WarpMachine::check_limits() {
  if (p_.options.stop != nullptr && p_.options.stop->load(std::memory_order_relaxed))
    throw Interrupted("replay interrupted");
  const std::uint64_t done =
      p_.shared_evaluations != nullptr ? p_.shared_evaluations->load(std::memory_order_relaxed) : 0;
  if (done + (evaluations_ - block_start_evaluations_) > p_.evaluation_cap) {
    if (p_.sampling)
      throw InvalidInput("one block of the replay alone makes more than " +
                         std::to_string(p_.evaluation_cap) +
                         " warp-statement evaluations, the budget for a whole run (--max-evaluations)" +
                         running_loop() + "; a loop that does not end?");
    throw InvalidInput("the run passed " + std::to_string(p_.evaluation_cap) +
                       " warp-statement evaluations (its budget, --max-evaluations) and was stopped" +
                       running_loop() + "; a loop that does not end, or a launch bigger than estimated");
  }
}

std::string WarpMachine::running_loop() const {
  for (std::size_t i = frames_.size(); i-- > 0;)
    if (frames_[i].kind == FrameKind::Loop && frames_[i].loop != kNone) {
      const Stmt& s = k_.stmts[static_cast<std::size_t>(frames_[i].loop)];
      return " in the " + report_kind(s) + " loop at " + location(k_, s.range) + " (block (" +
             std::to_string(block_index_[0]) + ", " + std::to_string(block_index_[1]) + ", " +
             std::to_string(block_index_[2]) + "), warp " + std::to_string(warp_) + ")";
    }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Errors

void WarpMachine::undefined(ExprId expr, const std::string& what, LaneMask lanes) const {
  throw InvalidInput(location(k_, k_.exprs[expr].range) + ": undefined behaviour: " + what + " in " +
                     block_and_thread(lowest_lane(lanes)));
}

// ---------------------------------------------------------------------------------------------
// Expressions

// Whether lanes kept at `stamp` for `kept_active` (of expression `expr`'s value, or of what was
// read at it) still hold for `active`: made in this warp, for a superset of these lanes, and
// none of the expression's locals written since.
inline bool WarpMachine::still_kept(ExprId expr, std::uint64_t stamp, LaneMask kept_active, LaneMask active) const {
  if (stamp <= warp_stamp_ || (active & ~kept_active) != 0) return false;
  const std::uint8_t locals = p_.kept[expr];
  for (int i = 0; i < locals; ++i)
    if (local_version_[static_cast<std::size_t>(p_.kept_locals[expr][i])] >= stamp) return false;
  return true;
}

inline bool WarpMachine::uniform_leaf(ExprId id, LaneMask active, std::uint64_t& value) const {
  const CompiledExpr& e = p_.exprs[id];
  switch (e.kind) {
    case ExprKind::Constant: value = e.constant; return true;
    case ExprKind::Param: value = p_.arguments[e.index]; return true;
    case ExprKind::Local: {
      const LocalState& l = locals_[e.index];
      value = l.value;
      return l.uniform && (active & ~l.defined) == 0;
    }
    default: return false;
  }
}

inline WarpMachine::Val WarpMachine::operand(ExprId id, LaneMask active) {
  const CompiledExpr& e = p_.exprs[id];
  switch (e.kind) {
    case ExprKind::Binary: {
      // Two uniform leaves (`i + 1`, `p * T`): computed here; a fault goes to eval() to report.
      std::uint64_t a = 0, b = 0;
      if (e.recorded && recorder_ != nullptr) break;
      if (uniform_leaf(e.operands[0], active, a) && uniform_leaf(e.operands[1], active, b)) {
        bool fault = false;
        const std::uint64_t r = e.binary_op == BinaryOp::Add && e.type == ScalarType::I32
                                    ? ops::binary<BinaryOp::Add, ScalarType::I32>(a, b, fault)
                                    : e.binary(a, b, fault);
        if (!fault) return {nullptr, r};
      }
      break;
    }
    case ExprKind::Constant: return {nullptr, e.constant};
    case ExprKind::Param: return {nullptr, p_.arguments[e.index]};
    case ExprKind::Local: {
      const LocalState& l = locals_[e.index];
      if ((active & ~l.defined) == 0) {
        if (l.uniform) return Val{nullptr, l.value};
        return single(active) ? Val{nullptr, local_lanes(e.index)[lowest_lane(active)]} : Val{local_lanes(e.index), 0};
      }
      break;  // eval() reports the read of an unassigned local
    }
    default: break;
  }
  return eval(id, active);
}

WarpMachine::Val WarpMachine::eval(ExprId id, LaneMask active) {
  const CompiledExpr& e = p_.exprs[id];
  const CompiledExpr& c = e;
  switch (e.kind) {
    case ExprKind::Constant: return {nullptr, e.constant};
    case ExprKind::Param: return {nullptr, p_.arguments[e.index]};
    case ExprKind::Builtin: {
      const int b = static_cast<int>(e.builtin);
      if (b <= static_cast<int>(Builtin::ThreadIdxZ)) {
        if (threads_->uniform[b]) return {nullptr, threads_->index[b][0]};
        if (single(active)) return {nullptr, threads_->index[b][static_cast<std::size_t>(lowest_lane(active))]};
        return {threads_->index[b].data(), 0};
      }
      return {nullptr, builtins_[b]};
    }
    case ExprKind::Local: {
      const LocalState& l = locals_[e.index];
      if ((active & ~l.defined) != 0)
        undefined(id, "'" + k_.locals[e.index].name + "' is read before it is assigned",
                  active & ~l.defined);
      if (l.uniform) return {nullptr, l.value};
      if (single(active)) return {nullptr, local_lanes(e.index)[lowest_lane(active)]};
      return {local_lanes(e.index), 0};
    }
    case ExprKind::Opaque:
      if (e.index != kNone) return load(id, e, active);
      break;
    case ExprKind::Cast: {
      if (c.cast_lanes == nullptr) return eval_conversion(id, e, active);
      const Val a = operand(e.operands[0], active);
      if (a.lanes == nullptr) return {nullptr, normalise(e.type, a.value)};
      // To a 64-bit type the normalised bits stay as they are (int32 values are kept
      // sign-extended, uint32 ones zero-extended): the operand's lanes are the result.
      if (e.type == ScalarType::I64 || e.type == ScalarType::U64) return a;
      std::uint64_t* out = scratch(id);
      if (sparse(active)) {
        for (LaneMask m = active; m != 0; m &= m - 1) out[lowest_lane(m)] = normalise(e.type, a.lanes[lowest_lane(m)]);
        return {out, 0};
      }
      c.cast_lanes(a.lanes, out, lanes_);
      return {out, 0};
    }
    case ExprKind::Unary: return eval_unary(id, e, active);
    case ExprKind::Binary: {
      if (e.recorded && recorder_ != nullptr) {  // a comparison as a value: through compare_mask
        const LaneMask m = compare_mask(e, active);
        std::uint64_t* out = scratch(id);
        for (int l = 0; l < lanes_; ++l) out[l] = m >> l & 1;
        kept_[id].stamp = 0;  // the scratch no longer holds kept lanes
        return {out, 0};
      }
      // Kept lanes: computed for a superset of these lanes from locals not written since.
      const std::uint8_t kept = p_.kept[id];
      if (kept != Program::kNotKept && recorder_ == nullptr) {
        if (still_kept(id, kept_[id].stamp, kept_[id].active, active)) return {scratch(id), 0};
        const ExprId same = p_.canonical[id];  // the same operators over the same leaves
        if (same != id && still_kept(same, kept_[same].stamp, kept_[same].active, active)) return {scratch(same), 0};
      }
      const Val a = operand(e.operands[0], active);
      const Val b = operand(e.operands[1], active);
      if (a.lanes == nullptr && b.lanes == nullptr) {
        bool fault = false;
        // `i + 1` on int, the usual loop step, inline; the rest through the operator's function.
        const std::uint64_t r = e.binary_op == BinaryOp::Add && e.type == ScalarType::I32
                                    ? ops::binary<BinaryOp::Add, ScalarType::I32>(a.value, b.value, fault)
                                    : c.binary(a.value, b.value, fault);
        if (fault)
          undefined(id, ops::describe_fault(e.binary_op, k_.exprs[e.operands[0]].type, a.value, b.value),
                    active);
        return {nullptr, r};
      }
      const int variant = a.lanes == nullptr ? 1 : b.lanes == nullptr ? 2 : 0;
      const std::uint64_t* pa = a.lanes != nullptr ? a.lanes : &a.value;
      const std::uint64_t* pb = b.lanes != nullptr ? b.lanes : &b.value;
      std::uint64_t* out = scratch(id);
      // Few active lanes: those alone, lane by lane; else the whole warp's loop, and where it
      // reports a fault the active lanes again, lane by lane, for the first that faults.
      if (sparse(active) || c.binary_lanes[variant](pa, pb, out, lanes_, active)) {
        for (LaneMask m = active; m != 0; m &= m - 1) {
          const int l = lowest_lane(m);
          const std::uint64_t x = pa[a.lanes != nullptr ? l : 0], y = pb[b.lanes != nullptr ? l : 0];
          bool fault = false;
          out[l] = c.binary(x, y, fault);
          if (fault)
            undefined(id, ops::describe_fault(e.binary_op, k_.exprs[e.operands[0]].type, x, y), bit(l));
        }
      }
      if (kept != Program::kNotKept) kept_[id] = Kept{++stamp_, active};
      return {out, 0};
    }
    case ExprKind::Logical:
    case ExprKind::Select: return eval_select(id, e, active);
    case ExprKind::Intrinsic: return eval_intrinsic(id, e, active);
    case ExprKind::Warp: return eval_warp(id, e, active);
  }
  throw std::logic_error("replay: an opaque value reached evaluation (" +
                         location(k_, k_.exprs[id].range) + ")");
}

// A conversion from or to a floating type, value by value (a fault in an active lane: a floating
// value whose truncation the integer type cannot hold, undefined behaviour).
WarpMachine::Val WarpMachine::eval_conversion(ExprId id, const CompiledExpr& e, LaneMask active) {
  const Val a = operand(e.operands[0], active);
  bool fault = false;
  if (a.lanes == nullptr) {
    const std::uint64_t r = ops::convert(e.from, e.type, a.value, fault);
    if (fault) undefined(id, ops::describe_conversion_fault(e.from, e.type, a.value), active);
    return {nullptr, r};
  }
  std::uint64_t* out = scratch(id);
  const bool few = sparse(active);
  if (!few && e.type == ScalarType::F32 && (e.from == ScalarType::I32 || e.from == ScalarType::U32)) {
    // An int or unsigned index to float (the usual one), exact to nearest, never a fault.
    for (int l = 0; l < lanes_; ++l)
      out[l] = ops::from_float<ScalarType::F32>(
          e.from == ScalarType::I32 ? static_cast<float>(static_cast<std::int64_t>(a.lanes[l]))
                                    : static_cast<float>(a.lanes[l]));
    return {out, 0};
  }
  for (LaneMask m = few ? active : lanes_mask(); m != 0; m &= m - 1) {
    const int l = lowest_lane(m);
    bool lane_fault = false;
    out[l] = ops::convert(e.from, e.type, a.lanes[l], lane_fault);
    if (lane_fault && (active >> l & 1))
      undefined(id, ops::describe_conversion_fault(e.from, e.type, a.lanes[l]), bit(l));
  }
  return {out, 0};
}

namespace {

// A float FMA over n lanes, each operand a pointer and a stride (0: one value for every lane):
// correctly rounded either way; with the CPU's FMA instruction where it has one (chosen at run
// time: libm's fmaf in software costs tens of cycles a lane).
template <bool Hardware>
inline void fma_f32_lanes_body(const std::uint64_t* const* p, const int* step, std::uint64_t* out, int n) {
  constexpr ScalarType T = ScalarType::F32;
  for (int l = 0; l < n; ++l) {
    const float a = ops::to_float<T>(p[0][l * step[0]]), b = ops::to_float<T>(p[1][l * step[1]]),
                c = ops::to_float<T>(p[2][l * step[2]]);
    out[l] = ops::from_float<T>(Hardware ? __builtin_fmaf(a, b, c) : std::fma(a, b, c));
  }
}
__attribute__((target("fma"))) void fma_f32_lanes_hardware(const std::uint64_t* const* p, const int* step,
                                                           std::uint64_t* out, int n) {
  fma_f32_lanes_body<true>(p, step, out, n);
}
void fma_f32_lanes(const std::uint64_t* const* p, const int* step, std::uint64_t* out, int n) {
  static const bool hardware = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") != 0;
  }();
  if (hardware) fma_f32_lanes_hardware(p, step, out, n);
  else fma_f32_lanes_body<false>(p, step, out, n);
}

}  // namespace

// fma, sqrt, fabs: value by value (never a fault).
WarpMachine::Val WarpMachine::eval_intrinsic(ExprId id, const CompiledExpr& e, LaneMask active) {
  const int n = operand_count(e.intrinsic);
  Val v[3] = {{nullptr, 0}, {nullptr, 0}, {nullptr, 0}};
  bool uniform = true;
  for (int i = 0; i < n; ++i) {
    v[i] = operand(e.operands[i], active);
    // A later operand's evaluation may reuse scratch only of its own expression: the lanes
    // of v[i] stay valid.
    uniform = uniform && v[i].lanes == nullptr;
  }
  if (uniform) return {nullptr, ops::intrinsic(e.intrinsic, e.type, v[0].value, v[1].value, v[2].value)};
  std::uint64_t* out = scratch(id);
  const auto at = [&](const Val& x, int l) { return x.lanes != nullptr ? x.lanes[l] : x.value; };
  const bool few = sparse(active);
  if (!few && e.intrinsic == Intrinsic::Fma && e.type == ScalarType::F32) {  // the common one
    // Each operand as a pointer and a stride (0: one value for every lane).
    const std::uint64_t* p[3];
    int step[3];
    for (int i = 0; i < 3; ++i) {
      p[i] = v[i].lanes != nullptr ? v[i].lanes : &v[i].value;
      step[i] = v[i].lanes != nullptr ? 1 : 0;
    }
    fma_f32_lanes(p, step, out, lanes_);
    return {out, 0};
  }
  for (LaneMask m = few ? active : lanes_mask(); m != 0; m &= m - 1) {
    const int l = lowest_lane(m);
    out[l] = ops::intrinsic(e.intrinsic, e.type, at(v[0], l), at(v[1], l), at(v[2], l));
  }
  return {out, 0};
}

// A warp function over the lanes that run it (sim/ir.hpp, WarpOp), with CUDA's undefined cases
// (a lane outside the mask, a lane of the mask that does not run it, a shuffle's source lane
// that does not run it) reported as undefined behaviour.
WarpMachine::Val WarpMachine::eval_warp(ExprId id, const CompiledExpr& e, LaneMask active) {
  const std::string what = name(e.warp_op);
  if (p_.warp_size != 32)
    throw InvalidInput(location(k_, k_.exprs[id].range) + ": " + what + " needs warps of 32 lanes (this launch has " +
                       std::to_string(p_.warp_size) + ")");
  if (e.warp_op == WarpOp::ActiveMask) return {nullptr, active & 0xFFFFFFFFULL};
  const Val m = operand(e.operands[0], active);
  std::uint64_t mask = m.lanes == nullptr ? m.value : m.lanes[lowest_lane(active)];
  if (m.lanes != nullptr)
    for (int l = 0; l < lanes_; ++l)
      if ((active >> l & 1) && m.lanes[l] != mask) undefined(id, "the lanes running " + what + " give different masks", bit(l));
  mask &= 0xFFFFFFFFULL;
  if ((active & ~mask) != 0) undefined(id, "a lane runs " + what + " outside its mask", active & ~mask);
  const LaneMask waiting = mask & alive_ & threads_->existing & ~active;
  if (waiting != 0)
    undefined(id, "a lane named in the mask of " + what + " has not exited and does not run it", waiting);
  if (e.warp_op == WarpOp::Ballot || e.warp_op == WarpOp::Any || e.warp_op == WarpOp::All) {
    const LaneMask holds = eval_mask(e.operands[1], active);
    if (e.warp_op == WarpOp::Ballot) return {nullptr, holds};
    if (e.warp_op == WarpOp::Any) return {nullptr, holds != 0 ? 1u : 0u};
    return {nullptr, holds == active ? 1u : 0u};
  }
  const Val value = operand(e.operands[1], active);
  const Val lane = operand(e.operands[2], active);
  const int width = static_cast<int>(e.constant);
  std::uint64_t* out = scratch(id);
  for (int l = 0; l < lanes_; ++l) {
    if (!(active >> l & 1)) continue;
    const auto arg = static_cast<std::uint32_t>(lane.lanes != nullptr ? lane.lanes[l] : lane.value);
    const int group = l & ~(width - 1), in_group = l & (width - 1);
    int source = l;
    switch (e.warp_op) {
      case WarpOp::Shfl: source = group + static_cast<int>(arg & static_cast<std::uint32_t>(width - 1)); break;
      case WarpOp::ShflUp: source = static_cast<std::uint32_t>(in_group) >= arg ? l - static_cast<int>(arg) : l; break;
      case WarpOp::ShflDown:
        source = static_cast<std::uint64_t>(in_group) + arg < static_cast<std::uint64_t>(width) ? l + static_cast<int>(arg) : l;
        break;
      default: {  // xor: earlier groups may be read, later ones give the lane its own value
        const int x = l ^ static_cast<int>(arg & 31u);
        source = (x & ~(width - 1)) > group ? l : x;
        break;
      }
    }
    if (source != l && !(active >> source & 1))
      undefined(id, what + " reads lane " + std::to_string(source) + ", which does not run it", bit(l));
    out[l] = value.lanes != nullptr ? value.lanes[source] : value.value;
  }
  return {out, 0};
}

// A unary operator, lane by lane (a fault in an active lane is undefined behaviour).
WarpMachine::Val WarpMachine::eval_unary(ExprId id, const CompiledExpr& e, LaneMask active) {
  const CompiledExpr& c = e;
  const Val a = eval(e.operands[0], active);
  if (a.lanes == nullptr) {
    bool fault = false;
    const std::uint64_t r = c.unary(a.value, fault);
    if (fault) undefined(id, ops::describe_fault(e.unary_op, e.type), active);
    return {nullptr, r};
  }
  std::uint64_t* out = scratch(id);
  if (c.unary_lanes(a.lanes, out, lanes_, active)) {
    LaneMask bad = 0;
    for (int l = 0; l < lanes_; ++l) {
      bool fault = false;
      c.unary(a.lanes[l], fault);
      if (fault) bad |= bit(l);
    }
    undefined(id, ops::describe_fault(e.unary_op, e.type), bad & active);
  }
  return {out, 0};
}

// && and || (always), and ?: of a bool, as masks spread into lanes; ?: of an integer by lanes.
WarpMachine::Val WarpMachine::eval_select(ExprId id, const CompiledExpr& e, LaneMask active) {
  if (e.kind == ExprKind::Logical || e.type == ScalarType::Bool) {
    // Computed as a mask (lazily), then spread into lanes.
    const LaneMask m = eval_mask(id, active);
    if (m == active) return {nullptr, 1};
    if (m == 0) return {nullptr, 0};
    std::uint64_t* out = scratch(id);
    for (int l = 0; l < lanes_; ++l) out[l] = m >> l & 1;
    return {out, 0};
  }
  const LaneMask m = eval_mask(e.operands[0], active);
  const LaneMask t = active & m, f = active & ~m;
  if (f == 0) return eval(e.operands[1], active);
  if (t == 0) return eval(e.operands[2], active);
  const Val x = eval(e.operands[1], t);
  const Val y = eval(e.operands[2], f);
  std::uint64_t* out = scratch(id);
  for (int l = 0; l < lanes_; ++l) {
    const std::uint64_t xv = x.lanes != nullptr ? x.lanes[l] : x.value;
    const std::uint64_t yv = y.lanes != nullptr ? y.lanes[l] : y.value;
    out[l] = (m >> l & 1) ? xv : yv;
  }
  return {out, 0};
}

inline LaneMask WarpMachine::compare_mask(const CompiledExpr& e, LaneMask active) {
  // A comparison over lanes whose locals did not change since (`xIndex < width` in a loop): the
  // lanes it gave then.
  const auto id = static_cast<ExprId>(&e - p_.exprs.data());
  const std::uint8_t kept = recorder_ == nullptr ? p_.kept[id] : Program::kNotKept;
  if (kept != Program::kNotKept) {
    const KeptValue& k = kept_mask_[static_cast<std::size_t>(id)];
    if (still_kept(id, k.stamp, k.active, active)) return k.value & active;
  }
  const Val a = operand(e.operands[0], active);
  const Val b = operand(e.operands[1], active);
  if (e.recorded && recorder_ != nullptr)
    recorder_->comparison(*this, static_cast<ExprId>(&e - p_.exprs.data()), active, a, b);
  if (a.lanes == nullptr && b.lanes == nullptr) {
    if (e.floating_operands) {
      bool fault = false;
      return e.binary(a.value, b.value, fault) != 0 ? active : 0;
    }
    return compare(e.binary_op, e.signed_operands, a.value, b.value) ? active : 0;
  }
  if (sparse(active)) {
    LaneMask m = 0;
    for (LaneMask l = active; l != 0; l &= l - 1) {
      const int lane = lowest_lane(l);
      bool fault = false;  // comparisons never fault
      if (e.binary(a.lanes != nullptr ? a.lanes[lane] : a.value, b.lanes != nullptr ? b.lanes[lane] : b.value,
                   fault) != 0)
        m |= bit(lane);
    }
    return m;
  }
  const int variant = a.lanes == nullptr ? 1 : b.lanes == nullptr ? 2 : 0;
  const LaneMask m = e.compare_lanes[variant](a.lanes != nullptr ? a.lanes : &a.value,
                                              b.lanes != nullptr ? b.lanes : &b.value, lanes_);
  if (kept != Program::kNotKept) kept_mask_[static_cast<std::size_t>(id)] = KeptValue{++stamp_, active, m};
  return m & active;
}

inline LaneMask WarpMachine::condition(ExprId id, LaneMask active) {
  const CompiledExpr& e = p_.exprs[id];
  if (e.kind == ExprKind::Binary && is_comparison(e.binary_op)) return compare_mask(e, active);
  return eval_mask(id, active);
}

LaneMask WarpMachine::eval_mask(ExprId id, LaneMask active) {
  const CompiledExpr& e = p_.exprs[id];
  switch (e.kind) {
    case ExprKind::Binary:
      if (is_comparison(e.binary_op)) return compare_mask(e, active);
      break;
    case ExprKind::Logical: {
      const LaneMask left = eval_mask(e.operands[0], active);
      if (e.logical_op == LogicalOp::And) return left == 0 ? 0 : eval_mask(e.operands[1], left);
      const LaneMask rest = active & ~left;
      return rest == 0 ? left : left | eval_mask(e.operands[1], rest);
    }
    case ExprKind::Unary:
      if (e.unary_op == UnaryOp::LogicalNot) return active & ~eval_mask(e.operands[0], active);
      break;
    case ExprKind::Select:
      if (e.type == ScalarType::Bool) {
        const LaneMask m = eval_mask(e.operands[0], active);
        const LaneMask t = active & m, f = active & ~m;
        LaneMask r = 0;
        if (t != 0) r |= eval_mask(e.operands[1], t);
        if (f != 0) r |= eval_mask(e.operands[2], f);
        return r;
      }
      break;
    default: break;
  }
  const Val v = eval(id, active);
  if (v.lanes == nullptr) return v.value != 0 ? active : 0;
  LaneMask m = 0;
  for (int l = 0; l < lanes_; ++l) m |= static_cast<LaneMask>(v.lanes[l] != 0) << l;
  return m & active;
}

void WarpMachine::write(LocalId local, Val v, LaneMask mask) {
  changed(local);
  LocalState& st = locals_[local];
  std::uint64_t* lanes = local_lanes(local);
  // Lanes that keep an older value and may still read it.
  const LaneMask kept = st.defined & alive_ & ~mask;
  if (v.lanes == nullptr) {
    if (kept == 0 || (st.uniform && st.value == v.value)) {
      st.uniform = true;
      st.value = v.value;
      st.defined = (kept == 0 ? 0 : st.defined) | mask;
      return;
    }
    if (st.uniform) std::fill(lanes, lanes + lanes_, st.value);
    for (LaneMask m = mask; m != 0; m &= m - 1) lanes[lowest_lane(m)] = v.value;
  } else if (kept == 0) {
    if (v.lanes != lanes) std::copy(v.lanes, v.lanes + lanes_, lanes);
  } else {
    if (st.uniform) std::fill(lanes, lanes + lanes_, st.value);
    // The written lanes one by one (a loop some lanes have left: no branch per lane to mispredict).
    for (LaneMask m = mask; m != 0; m &= m - 1) lanes[lowest_lane(m)] = v.lanes[lowest_lane(m)];
  }
  st.uniform = false;
  st.defined = (kept == 0 ? 0 : st.defined) | mask;
}

// ---------------------------------------------------------------------------------------------
// Statements

std::size_t WarpMachine::frame_for(FrameKind a, FrameKind b) const {
  for (std::size_t i = frames_.size(); i-- > 0;)
    if (frames_[i].kind == a || frames_[i].kind == b) return i;
  return frames_.size();  // none (validate() makes this impossible for break and continue)
}

LaneMask WarpMachine::exec(StmtId id, LaneMask active) {
  const Stmt& s = k_.stmts[id];
  switch (s.kind) {
    case StmtKind::Block:
      count(id, active);
      for (StmtId child : s.children) {
        // Work statements (a third of a typical kernel's) are only counted: no call for them.
        if (k_.stmts[child].kind == StmtKind::Work) {
          count(child, active);
          if (p_.has_memory[child]) memory(child, active);
          continue;
        }
        active = exec(child, active);
        if (active == 0) break;
      }
      return active;
    case StmtKind::Declare:
    case StmtKind::Assign:
      count(id, active);
      if (p_.has_memory[id]) memory(id, active);
      if (s.value == kNone) {
        locals_[s.local].defined &= ~active;  // declared without a value: indeterminate again
        changed(s.local);
      } else if (!p_.skip_value[id]) {
        write(s.local, operand(s.value, active), active);
      }
      return active;
    case StmtKind::Work:
      count(id, active);
      if (p_.has_memory[id]) memory(id, active);
      return active;
    case StmtKind::If: {
      // An else-if chain runs as a loop, link by link: its length costs no stack.
      LaneMask out = 0;
      for (StmtId at = id;;) {
        const Stmt& link = k_.stmts[at];
        if (p_.has_memory[at]) memory(at, active);  // the condition's loads
        const LaneMask taken = condition(link.value, active);
        count_condition(at, active, taken);
        if (taken != 0) out |= exec(link.then_stmt, taken);
        active &= ~taken;
        if (active == 0) return out;
        if (link.else_stmt == kNone) return out | active;
        if (k_.stmts[link.else_stmt].kind != StmtKind::If) return out | exec(link.else_stmt, active);
        at = link.else_stmt;
      }
    }
    case StmtKind::Loop: return exec_loop(id, s, active);
    case StmtKind::Break:
      count(id, active);
      frames_[frame_for(FrameKind::Loop, FrameKind::Switch)].broken |= active;
      return 0;
    case StmtKind::Continue:
      count(id, active);
      frames_[frame_for(FrameKind::Loop, FrameKind::Loop)].continued |= active;
      return 0;
    case StmtKind::Return: {
      count(id, active);
      if (p_.has_memory[id]) memory(id, active);
      const std::size_t call = frame_for(FrameKind::Call, FrameKind::Call);
      if (call == frames_.size()) {
        alive_ &= ~active;  // leaves the kernel
        return 0;
      }
      if (s.value != kNone && !p_.skip_value[id]) {
        write(frames_[call].result, eval(s.value, active), active);
      }
      frames_[call].returned |= active;
      return 0;
    }
    case StmtKind::Barrier:
      count(id, active);
      arrive(id, active);
      if (phased_) Fiber::yield();  // the other warps run up to this barrier too
      return active;
    case StmtKind::InlinedCall: {
      count(id, active);
      Frame f{FrameKind::Call};
      f.result = s.local;
      frames_.push_back(f);
      const LaneMask out = exec(s.body, active) | frames_.back().returned;
      frames_.pop_back();
      return out;
    }
    case StmtKind::Switch: return exec_switch(id, s, active);
  }
  return active;
}

// ---------------------------------------------------------------------------------------------
// Memory

namespace {

// One request of `lanes` into an access's counts (requests, lanes, bytes); returns its lanes.
inline std::uint64_t add_request(AccessCounts64& c, LaneMask lanes, int width) {
  const auto n = static_cast<std::uint64_t>(popcount(lanes));
  c.requests += 1;
  c.lanes += n;
  c.bytes += n * static_cast<std::uint64_t>(width);
  return n;
}

}  // namespace

void WarpMachine::memory(StmtId id, LaneMask active) {
  const StatementMemory& m = p_.memory[static_cast<std::size_t>(id)];
  if (!m.kept.empty()) {
    // Stored values are captured before the statement's own stores change the memory they may
    // read (`data[i] = data[i] + 3`), then the followed accesses run; a value an atomic of the
    // statement returns (`got[i] = atomicInc(...)`) is captured after them.
    const auto captures = [&](bool after_atomics) {
      for (const CompiledAccess& a : m.accesses) {
        if (!a.capture || a.after_atomics != after_atomics || faults_[a.id].met) continue;
        try {
          const LaneMask lanes = a.guard != kNone ? eval_mask(a.guard, active) : active;
          if (lanes != 0) capture(a, lanes);
        } catch (const InvalidInput& e) {
          fault(static_cast<std::size_t>(a.id), e.what());
        }
      }
    };
    captures(false);
    keep(id, active);
    captures(true);
  }
  if (fault_flag_ != nullptr && fault_flag_->load(std::memory_order_relaxed)) return;
  const std::size_t flop_item = k_.accesses.size() + static_cast<std::size_t>(id);
  for (const FloatOps& f : m.flops) {
    if (faults_[flop_item].met) break;
    LaneMask lanes = active;
    if (f.guard != kNone) {
      try {
        lanes = eval_mask(f.guard, active);
      } catch (const InvalidInput& e) {
        fault(flop_item, e.what());
        break;
      }
    }
    flop_counts_[id] += std::uint64_t{f.operations} * static_cast<std::uint64_t>(popcount(lanes));
  }
  // The figures of the last access counted lane by lane without a fault (an access with the same
  // offset after it, CompiledAccess::same_as, has them too).
  struct Figured {
    std::int32_t at = kNone;  // its position in m.accesses
    LaneMask lanes = 0;
    std::int64_t lowest = 0, highest = 0;
    std::uint64_t figure = 0, conflicts = 0;  // sectors, or wavefronts and conflicts
  } figured;
  for (std::size_t position = 0; position < m.accesses.size(); ++position) {
    const CompiledAccess& a = m.accesses[position];
    if (faults_[a.id].met) continue;
    LaneMask lanes = active;
    Val offset{};
    try {
      if (a.guard != kNone) lanes = eval_mask(a.guard, active);
      if (lanes == 0) continue;
      if (a.capture && m.kept.empty()) capture(a, lanes);
      if (!p_.options.memory) continue;
      if (a.same_as != kNone && a.same_as == figured.at && lanes == figured.lanes && a.shifts == 1) {
        const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
        if (bound == 0 || (figured.lowest >= 0 && static_cast<std::uint64_t>(figured.highest) +
                                                      static_cast<std::uint64_t>(a.width) <= bound)) {
          AccessCounts64& c = access_counts_[a.id];
          add_request(c, lanes, a.width);
          (a.shared ? c.wavefronts : c.sectors) += figured.figure;
          c.conflicts += figured.conflicts;
          merge(extents_[a.id], BaseExtent{true, figured.lowest, figured.highest + a.width});
          figured.at = static_cast<std::int32_t>(position);
          continue;
        }
      }
      if (a.affine != kNone && affine_access(a, lanes)) continue;
      offset = eval(a.offset, lanes);
    } catch (const InvalidInput& e) {
      fault(static_cast<std::size_t>(a.id), e.what());
      continue;
    }
    AccessCounts64& c = access_counts_[a.id];
    const std::uint64_t n = add_request(c, lanes, a.width);
    // One lane (a loop the other lanes have left): its address alone, as if every lane had it.
    if (offset.lanes != nullptr && n == 1) offset = Val{nullptr, offset.lanes[lowest_lane(lanes)]};
    if (offset.lanes == nullptr) {  // one address for every lane: one sector, one wavefront
      const auto at = static_cast<std::int64_t>(offset.value);
      if ((offset.value & static_cast<std::uint64_t>(a.width - 1)) != 0) {
        misaligned(a, lowest_lane(lanes), at);
        continue;
      }
      const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
      if (bound != 0 && (at < 0 || static_cast<std::uint64_t>(at) + static_cast<std::uint64_t>(a.width) > bound)) {
        out_of_bounds(a, lanes, nullptr, at);
        continue;
      }
      // One sector; one wavefront per phase with a lane (sim/ir_memory.hpp), none a conflict.
      const auto one = static_cast<std::uint64_t>(a.shared ? one_address_wavefronts(lanes, a.width, a.load) : 1);
      (a.shared ? c.wavefronts : c.sectors) += one;
      // An aligned address moved by a multiple of its width stays in one sector (one word).
      for (int s = 1; s < a.shifts; ++s) shifted_counts_[a.shifted_at + static_cast<std::uint32_t>(s) - 1] += one;
      merge(extents_[a.id], BaseExtent{true, at, at + a.width});
      figured = Figured{static_cast<std::int32_t>(position), lanes, at, at, one, 0};
      continue;
    }
    // Offsets are int64 bits: the lanes' array read as int64 is the addresses.
    const auto* addresses = reinterpret_cast<const std::int64_t*>(offset.lanes);
    std::uint64_t low_bits = 0;
    std::int64_t lowest = INT64_MAX, highest = INT64_MIN;
    bool sorted = true;  // non-decreasing in lane order (sim/ir_memory.hpp, AddressSpan)
    if ((lanes & (lanes + 1)) == 0) {  // lanes 0 .. n-1 (the usual): vector loops
      const AddressSpan span = prefix_address_span(addresses, 64 - __builtin_clzll(lanes));
      low_bits = span.bits;
      lowest = span.lowest;
      highest = span.highest;
      sorted = span.sorted;
    } else {
      std::int64_t previous = INT64_MIN;
      for (LaneMask l = lanes; l != 0; l &= l - 1) {
        const std::int64_t at = addresses[lowest_lane(l)];
        low_bits |= static_cast<std::uint64_t>(at);
        lowest = std::min(lowest, at);
        highest = std::max(highest, at);
        sorted &= at >= previous;
        previous = at;
      }
    }
    const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
    if (bound != 0 && (lowest < 0 || static_cast<std::uint64_t>(highest) + static_cast<std::uint64_t>(a.width) > bound)) {
      out_of_bounds(a, lanes, addresses, 0);
      continue;
    }
    merge(extents_[a.id], BaseExtent{true, lowest, highest + a.width});
    if ((low_bits & static_cast<std::uint64_t>(a.width - 1)) != 0) {
      for (LaneMask l = lanes; l != 0; l &= l - 1)
        if ((offset.lanes[lowest_lane(l)] & static_cast<std::uint64_t>(a.width - 1)) != 0) {
          misaligned(a, lowest_lane(l), addresses[lowest_lane(l)]);
          break;
        }
      continue;
    }
    const AddressSpan span{lowest, highest, low_bits, sorted};
    figured = Figured{static_cast<std::int32_t>(position), lanes, lowest, highest, 0, 0};
    if (a.shared) {
      int phases = 0;
      const int wavefronts = shared_wavefronts(addresses, lanes, a.width, &phases, 0, span, a.load);
      c.wavefronts += static_cast<std::uint64_t>(wavefronts);
      c.conflicts += static_cast<std::uint64_t>(wavefronts - phases);
      figured.figure = static_cast<std::uint64_t>(wavefronts);
      figured.conflicts = static_cast<std::uint64_t>(wavefronts - phases);
    } else {
      figured.figure = static_cast<std::uint64_t>(sectors_touched(addresses, lanes, a.width, 0, span));
      c.sectors += figured.figure;
    }
    for (int s = 1; s < a.shifts; ++s) {
      const std::int64_t by = a.shift_step * s;
      shifted_counts_[a.shifted_at + static_cast<std::uint32_t>(s) - 1] += static_cast<std::uint64_t>(
          a.shared ? shared_wavefronts(addresses, lanes, a.width, nullptr, by, span, a.load)
                   : sectors_touched(addresses, lanes, a.width, by, span));
    }
  }
}

namespace {

// The mathematical value of `bits` of `type` (normalised), or false for a uint64 past INT64_MAX
// (which an AffineValue does not hold).
inline bool value_of(ScalarType type, std::uint64_t bits, std::int64_t& value) {
  value = static_cast<std::int64_t>(bits);
  return type != ScalarType::U64 || value >= 0;
}

// A pattern's figure at byte residue r (0 .. 127), counted the first time it is asked for.
int counted_at(const LanePattern& p, LanePattern::Counts& t, int lanes, int r, int* phases) {
  if (t.count[static_cast<std::size_t>(r)] < 0) {
    std::array<std::int64_t, kMaxLanes> addresses{};
    for (int l = 0; l < lanes; ++l) addresses[static_cast<std::size_t>(l)] = r + p.delta[static_cast<std::size_t>(l)];
    const AddressSpan span = address_span(addresses.data(), t.mask);
    int ph = 0;
    t.count[static_cast<std::size_t>(r)] =
        t.shared ? shared_wavefronts(addresses.data(), t.mask, t.width, &ph, 0, span, t.load)
                 : sectors_touched(addresses.data(), t.mask, t.width, 0, span);
    t.phases[static_cast<std::size_t>(r)] = ph;
  }
  if (phases != nullptr) *phases = t.phases[static_cast<std::size_t>(r)];
  return t.count[static_cast<std::size_t>(r)];
}

inline int residue_of(std::uint64_t address) { return static_cast<int>(address & (kPatternResidues - 1)); }

}  // namespace

bool WarpMachine::pattern_of_lanes(PatternOf& t, const std::uint64_t* lanes, LaneMask defined, ScalarType type) {
  // Usually the lanes stand as they did last time (`x = blockIdx.x * 32 + threadIdx.x` in the
  // next warp or block): the same pattern at another base, checked without interning.
  if (t.generation == patterns_.generation() && t.pattern != nullptr && t.defined == defined && defined != 0) {
    const int first = lowest_lane(defined);
    std::int64_t base = 0;
    bool same = value_of(type, lanes[first], base) &&
                !__builtin_sub_overflow(base, t.pattern->delta[static_cast<std::size_t>(first)], &base) &&
                kInt64Range.holds(static_cast<Int128>(base) + t.pattern->max) &&
                (type != ScalarType::U64 || base >= 0);  // every lane's value, base + delta, in range
    for (int n = 0; same && n < lanes_; ++n)
      same = !(defined >> n & 1) ||
             static_cast<std::uint64_t>(base + t.pattern->delta[static_cast<std::size_t>(n)]) == lanes[n];
    if (same) {
      t.base = base;
      return true;
    }
  }
  std::int64_t values[kMaxLanes];
  for (int n = 0; n < lanes_; ++n) {
    values[n] = 0;
    if ((defined >> n & 1) && !value_of(type, lanes[n], values[n])) return false;
  }
  t.pattern = patterns_.of(values, defined, t.base);
  if (t.pattern == nullptr) return false;
  t.defined = defined;
  t.generation = patterns_.generation();
  return true;
}

int WarpMachine::small_forms(const AffineOffset& f, const std::array<std::int64_t, kAffineLeaves>& base,
                             const std::array<LanePattern*, kAffineLeaves>& pattern) {
  std::array<std::int64_t, kAffineLeaves> high{};
  for (int i = 0; i < f.leaves; ++i) {
    const auto n = static_cast<std::size_t>(i);
    high[n] = base[n];
    if (pattern[n] != nullptr && __builtin_add_overflow(base[n], pattern[n]->max, &high[n])) return -1;
  }
  for (const SmallCheck& c : f.small_checks) {
    std::int64_t lo = c.constant, hi = c.constant;
    for (int i = 0; i < f.leaves; ++i) {
      const auto n = static_cast<std::size_t>(i);
      const std::int64_t k = c.coefficient[n];
      if (k == 0) continue;
      std::int64_t a = 0, b = 0;
      if (__builtin_mul_overflow(k, base[n], &a) || __builtin_mul_overflow(k, high[n], &b)) return -1;
      if (k < 0) std::swap(a, b);
      if (__builtin_add_overflow(lo, a, &lo) || __builtin_add_overflow(hi, b, &hi)) return -1;
    }
    if (lo < c.low || hi > c.high) return 0;
  }
  std::int64_t value = f.small_form.constant;
  for (int i = 0; i < f.leaves; ++i) {
    const auto n = static_cast<std::size_t>(i);
    std::int64_t a = 0;
    if (__builtin_mul_overflow(f.small_form.coefficient[n], base[n], &a) || __builtin_add_overflow(value, a, &value))
      return -1;
  }
  small_value_ = value;
  return 1;
}

bool WarpMachine::affine_offset(const AffineOffset& f, std::size_t access, LaneMask active, AffineValue& out) {
  const std::uint64_t generation = patterns_.generation();
  std::array<std::int64_t, kAffineLeaves> base{};
  std::array<LanePattern*, kAffineLeaves> pattern{};
  bool varying = false;
  for (int i = 0; i < f.leaves; ++i) {
    const AffineLeaf& leaf = f.leaf[static_cast<std::size_t>(i)];
    std::int64_t& b = base[static_cast<std::size_t>(i)];
    LanePattern*& p = pattern[static_cast<std::size_t>(i)];
    switch (leaf.kind) {
      case AffineLeaf::Kind::BlockIndex: b = static_cast<std::int64_t>(block_index_[static_cast<std::size_t>(leaf.index)]); break;
      case AffineLeaf::Kind::ThreadIndex: {
        const auto d = static_cast<std::size_t>(leaf.index);
        if (threads_->uniform[d]) {
          b = static_cast<std::int64_t>(threads_->index[d][0]);
          break;
        }
        PatternOf& t = thread_pattern_[static_cast<std::size_t>(warp_) * 3 + d];
        if (t.generation != generation && !pattern_of_lanes(t, threads_->index[d].data(), threads_->existing, leaf.type))
          return false;
        b = t.base;
        p = t.pattern;
        varying = true;
        break;
      }
      case AffineLeaf::Kind::Local: {
        const auto local = static_cast<std::size_t>(leaf.index);
        const LocalState& l = locals_[local];
        if ((active & ~l.defined) != 0) return false;  // lane by lane reports the read
        if (l.uniform) {
          if (!value_of(leaf.type, l.value, b)) return false;
          break;
        }
        PatternOf& t = local_pattern_[local];
        if (t.generation != generation || t.version != local_version_[local]) {
          if (!pattern_of_lanes(t, local_lanes(static_cast<LocalId>(local)), l.defined, leaf.type)) return false;
          t.version = local_version_[local];
        }
        b = t.base;
        p = t.pattern;
        varying = true;
        break;
      }
    }
  }
  // Every value the C expression computes on the way must be in its type's range in every lane
  // (the form's range over the leaves' ranges holds it): else lane by lane says what happens.
  // In int64 first; an int64 overflow on the way leaves the verdict to int128.
  Int128 value = 0;
  const int verdict = f.small ? small_forms(f, base, pattern) : -1;
  if (verdict == 0) return false;
  if (verdict > 0) {
    value = small_value_;
  } else {
  for (const RangeCheck& c : f.checks) {
    Int128 lo = c.form.constant, hi = lo;
    for (int i = 0; i < f.leaves; ++i) {
      const Int128 k = c.form.coefficient[static_cast<std::size_t>(i)];
      const Int128 l = base[static_cast<std::size_t>(i)];
      const Int128 h = pattern[static_cast<std::size_t>(i)] != nullptr ? l + pattern[static_cast<std::size_t>(i)]->max : l;
      if (k >= 0) {
        lo += k * l;
        hi += k * h;
      } else {
        lo += k * h;
        hi += k * l;
      }
    }
    if (!c.range.holds(lo) || !c.range.holds(hi)) return false;
  }
  value = f.form.constant;
  for (int i = 0; i < f.leaves; ++i) value += f.form.coefficient[static_cast<std::size_t>(i)] * base[static_cast<std::size_t>(i)];
  }
  if (!varying) {
    if (!kInt64Range.holds(value)) return false;
    out = AffineValue{static_cast<std::int64_t>(value), nullptr};
    return true;
  }
  // The lanes: value + sum of coefficient x pattern, made once per set of leaf patterns.
  AffineCache& cache = affine_cache_[access];
  bool same = cache.generation == generation;
  for (int i = 0; same && i < f.leaves; ++i) same = cache.leaves[static_cast<std::size_t>(i)] == pattern[static_cast<std::size_t>(i)];
  if (!same) {
    LanePattern* sum = nullptr;
    std::int64_t shift = 0;
    for (int i = 0; i < f.leaves; ++i) {
      if (pattern[static_cast<std::size_t>(i)] == nullptr) continue;
      std::int64_t s = 0, t = 0;
      LanePattern* q = patterns_.scaled(pattern[static_cast<std::size_t>(i)],
                                        static_cast<std::int64_t>(f.form.coefficient[static_cast<std::size_t>(i)]), s);
      if (q == nullptr) return false;
      if (sum != nullptr) q = patterns_.sum(sum, q, t);
      if (q == nullptr || __builtin_add_overflow(shift, s, &shift) || __builtin_add_overflow(shift, t, &shift)) return false;
      sum = q;
    }
    cache.generation = generation;
    std::copy(pattern.begin(), pattern.end(), cache.leaves.begin());
    cache.pattern = sum;
    cache.shift = shift;
  }
  value += cache.shift;
  if (!kInt64Range.holds(value) || !kInt64Range.holds(value + cache.pattern->max)) return false;
  out = AffineValue{static_cast<std::int64_t>(value), cache.pattern};
  return true;
}

bool WarpMachine::affine_access(const CompiledAccess& a, LaneMask lanes) {
  const auto id = static_cast<std::size_t>(a.id);
  if (affine_cache_[id].off) return false;
  if (patterns_.full()) patterns_.clear();  // no pattern is held between accesses
  AffineValue v{0, nullptr};
  if (!affine_offset(p_.affine_offsets[static_cast<std::size_t>(a.affine)], id, lanes, v)) return false;
  // The participating lanes' lowest and highest address and the OR of their bits (alignment).
  std::int64_t lowest = v.base, highest = v.base;
  auto bits = static_cast<std::uint64_t>(v.base);
  LanePattern::Counts* counts = nullptr;  // null: one address for every lane
  if (v.pattern != nullptr) {
    AffineCache& cached = affine_cache_[id];
    if (cached.counts_generation != patterns_.generation() || cached.counted != v.pattern || cached.mask != lanes) {
      cached.churn += 2;
      if (cached.churn > kChurnLimit) cached.off = true;
      cached.counts_generation = patterns_.generation();
      cached.counted = v.pattern;
      cached.mask = lanes;
      cached.counts = &patterns_.counts(v.pattern, lanes, a.width, a.shared, a.load);
    } else if (cached.churn > 0) {
      cached.churn -= 1;
    }
    counts = cached.counts;
    lowest += counts->lowest;
    highest += counts->highest;
    bits |= counts->bits;
  }
  const auto width = static_cast<std::uint64_t>(a.width);
  if ((bits & (width - 1)) != 0) return false;  // misaligned: named lane by lane
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  if (bound != 0 && (lowest < 0 || static_cast<std::uint64_t>(highest) + width > bound))
    return false;  // outside the buffer: named lane by lane
  // Sectors or wavefronts with every address moved by `shift` (one address: one sector, one
  // wavefront per phase with a lane, no conflict, at any shift).
  const auto figure = [&](std::uint64_t shift, int* phases) {
    if (counts == nullptr) {
      const int one = a.shared ? one_address_wavefronts(lanes, a.width, a.load) : 1;
      if (phases != nullptr) *phases = one;
      return one;
    }
    return counted_at(*v.pattern, *counts, lanes_, residue_of(static_cast<std::uint64_t>(v.base) + shift), phases);
  };
  AccessCounts64& c = access_counts_[a.id];
  add_request(c, lanes, a.width);
  merge(extents_[a.id], BaseExtent{true, lowest, highest + a.width});
  if (a.shared) {
    int phases = 0;
    const int wavefronts = figure(0, &phases);
    c.wavefronts += static_cast<std::uint64_t>(wavefronts);
    c.conflicts += static_cast<std::uint64_t>(wavefronts - phases);
  } else {
    c.sectors += static_cast<std::uint64_t>(figure(0, nullptr));
  }
  for (int s = 1; s < a.shifts; ++s)
    shifted_counts_[a.shifted_at + static_cast<std::uint32_t>(s) - 1] += static_cast<std::uint64_t>(
        figure(static_cast<std::uint64_t>(a.shift_step) * static_cast<std::uint64_t>(s), nullptr));
  ++affine_requests_;
  return true;
}

// Keeps each lane's store (ReplayOptions::capture_stores): its address, and its value where the
// model holds it. Undefined behaviour in the value leaves the buffers unknown (the figures of the
// access go on as before).
void WarpMachine::capture(const CompiledAccess& a, LaneMask lanes) {
  if (!store_fault_->empty()) return;
  try {
    const Val offset = eval(a.offset, lanes);
    const Val value = a.value != kNone ? eval(a.value, lanes) : Val{nullptr, 0};
    const Val compare = a.compare != kNone ? eval(a.compare, lanes) : Val{nullptr, 0};
    ++store_sequence_;
    const std::uint64_t block = block_index_[0] + p_.launch.grid.x * (block_index_[1] + std::uint64_t{p_.launch.grid.y} * block_index_[2]);
    const std::uint64_t first = block * p_.threads_per_block + static_cast<std::uint64_t>(warp_) * p_.warp_size;
    for (int l = 0; l < lanes_; ++l) {
      if (!(lanes >> l & 1)) continue;
      StoreWrite w;
      w.parameter = a.parameter;
      w.access = a.id;
      w.offset = static_cast<std::int64_t>(offset.lanes != nullptr ? offset.lanes[l] : offset.value);
      w.bits = value.lanes != nullptr ? value.lanes[l] : value.value;
      w.thread = first + static_cast<std::uint64_t>(l);
      w.sequence = store_sequence_;
      w.width = static_cast<std::uint8_t>(a.width);
      w.known = a.value != kNone;
      w.atomic = a.atomic;
      w.type = a.type;
      w.compare = compare.lanes != nullptr ? compare.lanes[l] : compare.value;
      stores_->push_back(w);
    }
  } catch (const InvalidInput& e) {
    *store_fault_ = e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// Shared memory followed by value

void WarpMachine::keep(StmtId id, LaneMask active) {
  for (const KeptAccess& a : p_.memory[static_cast<std::size_t>(id)].kept) {
    const LaneMask lanes = a.guard != kNone ? eval_mask(a.guard, active) : active;
    if (lanes == 0) continue;
    const Val offset = eval(a.offset, lanes);
    if (a.global) {
      keep_global(a, lanes, offset);
      continue;
    }
    if (a.local) {
      keep_local(a, lanes, offset);
      continue;
    }
    const auto at = [&](int lane) {
      return static_cast<std::int64_t>(offset.lanes != nullptr ? offset.lanes[lane] : offset.value);
    };
    if (a.kind == AccessKind::Load) {
      for (LaneMask l = lanes; l != 0; l &= l - 1) keep_read(a, at(lowest_lane(l)), lowest_lane(l));
      continue;
    }
    // Undefined behaviour in the value, or a load of it outside its buffer, is an error here: the
    // block's shared memory would not be known past it.
    const Val value = eval(a.value, lanes);
    if (a.kind == AccessKind::Atomic) {
      const Val compare = a.compare != kNone ? eval(a.compare, lanes) : Val{nullptr, 0};
      for (LaneMask l = lanes; l != 0; l &= l - 1) {
        const int lane = lowest_lane(l);
        keep_atomic(a, at(lane), lane, value.lanes != nullptr ? value.lanes[lane] : value.value,
                    compare.lanes != nullptr ? compare.lanes[lane] : compare.value);
      }
      continue;
    }
    ++shared_->request;
    for (LaneMask l = lanes; l != 0; l &= l - 1) {
      const int lane = lowest_lane(l);
      keep_write(a, at(lane), lane, value.lanes != nullptr ? value.lanes[lane] : value.value, true);
    }
  }
}


// Where a kept access may go: inside its array and aligned; the error (exit 2) otherwise.
void WarpMachine::check_place(const KeptAccess& a, std::int64_t at, int lane, const char* verb) const {
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  if (at < 0 || static_cast<std::uint64_t>(at) + static_cast<std::uint64_t>(a.width) > bound)
    throw InvalidInput(out_of_bounds_text(access, at, lane));
  if (at % a.width != 0)
    throw InvalidInput(location(k_, access.range) + ": misaligned access: '" + access.text + "' " + verb + " " +
                       std::to_string(a.width) + " bytes at byte " + std::to_string(at) + " of '" +
                       k_.bases[static_cast<std::size_t>(a.base)].name + "', not a multiple of " +
                       std::to_string(a.width) + " (the GPU stops the kernel there) in " + block_and_thread(lane));
}

std::uint64_t WarpMachine::thread_of(int lane) const {
  const std::uint64_t block =
      block_index_[0] + p_.launch.grid.x * (block_index_[1] + std::uint64_t{p_.launch.grid.y} * block_index_[2]);
  return block * p_.threads_per_block + static_cast<std::uint64_t>(warp_) * static_cast<std::uint64_t>(p_.warp_size) +
         static_cast<std::uint64_t>(lane);
}

namespace {

void touched_by(std::uint64_t& who, std::uint64_t thread) {
  if (who == 0) who = thread;
  else if (who != thread) who = kManyThreads;
}

}  // namespace

// A followed buffer's load, store or atomic, lane by lane in ascending order: the documented
// order in which the replay runs the launch's threads (blocks, warps, lanes ascending).
void WarpMachine::keep_global(const KeptAccess& a, LaneMask lanes, const Val& offset) {
  const Val value = a.kind != AccessKind::Load ? eval(a.value, lanes) : Val{nullptr, 0};
  const Val compare = a.compare != kNone ? eval(a.compare, lanes) : Val{nullptr, 0};
  const auto start = static_cast<std::size_t>(p_.global_at[static_cast<std::size_t>(a.base)]);
  GlobalState& g = *global_;
  for (LaneMask l = lanes; l != 0; l &= l - 1) {
    const int lane = lowest_lane(l);
    const auto at = static_cast<std::int64_t>(offset.lanes != nullptr ? offset.lanes[lane] : offset.value);
    check_place(a, at, lane, a.kind == AccessKind::Load ? "reads" : a.kind == AccessKind::Store ? "writes" : "updates");
    const std::size_t x = start + static_cast<std::size_t>(at);
    const std::uint64_t thread = thread_of(lane) + 1;
    std::uint64_t old = 0;
    if (a.kind != AccessKind::Store) {
      std::memcpy(&old, g.bytes.data() + x, static_cast<std::size_t>(a.width));
      for (int i = 0; i < a.width; ++i) {
        GlobalByte& t = g.state[x + static_cast<std::size_t>(i)];
        touched_by(t.reader, thread);
        if (t.read_by == kNone) t.read_by = a.id;
        else if (t.read_by != a.id) t.read_by = kManyAccesses;
      }
    }
    if (a.kind == AccessKind::Load) continue;
    const std::uint64_t v = value.lanes != nullptr ? value.lanes[lane] : value.value;
    const std::uint64_t now =
        a.kind == AccessKind::Store
            ? v
            : ops::atomic(a.atomic, a.type, a.width, old, v, compare.lanes != nullptr ? compare.lanes[lane] : compare.value,
                          AddressSpace::Global);
    if (std::memcmp(g.bytes.data() + x, &now, static_cast<std::size_t>(a.width)) != 0) ++g.changes;
    std::memcpy(g.bytes.data() + x, &now, static_cast<std::size_t>(a.width));
    for (int i = 0; i < a.width; ++i) touched_by(g.state[x + static_cast<std::size_t>(i)].writer, thread);
    if (a.kind == AccessKind::Atomic)
      atomic_old_[static_cast<std::size_t>(a.id) * kMaxLanes + static_cast<std::size_t>(lane)] = normalise(a.type, old);
  }
}

// A local array's load or store, lane by lane: each lane's own copy. A read of a byte the thread
// has not written is an error (its value is indeterminate).
void WarpMachine::keep_local(const KeptAccess& a, LaneMask lanes, const Val& offset) {
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  const Val value = a.kind == AccessKind::Store ? eval(a.value, lanes) : Val{nullptr, 0};
  for (LaneMask l = lanes; l != 0; l &= l - 1) {
    const int lane = lowest_lane(l);
    const auto at = static_cast<std::int64_t>(offset.lanes != nullptr ? offset.lanes[lane] : offset.value);
    check_place(a, at, lane, a.kind == AccessKind::Load ? "reads" : "writes");
    const std::size_t x = static_cast<std::size_t>(lane) * p_.local_size +
                          static_cast<std::size_t>(p_.local_at[static_cast<std::size_t>(a.base)] + at);
    if (a.kind == AccessKind::Load) {
      for (int i = 0; i < a.width; ++i)
        if (!local_written_[x + static_cast<std::size_t>(i)])
          throw InvalidInput(location(k_, access.range) + ": read of local memory never written: '" + access.text +
                             "' reads " + shared_element(a.base, at, a.width) + ", which this thread has not written, in " +
                             block_and_thread(lane));
      continue;
    }
    const std::uint64_t v = value.lanes != nullptr ? value.lanes[lane] : value.value;
    if (std::memcmp(local_bytes_.data() + x, &v, static_cast<std::size_t>(a.width)) != 0) ++local_changes_;
    std::memcpy(local_bytes_.data() + x, &v, static_cast<std::size_t>(a.width));
    std::fill(local_written_.begin() + static_cast<std::ptrdiff_t>(x),
              local_written_.begin() + static_cast<std::ptrdiff_t>(x) + a.width, std::uint8_t{1});
  }
}

std::uint64_t WarpMachine::local_load(const MemoryAccess& a, std::int64_t at, int lane, ScalarType type) const {
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  if (at < 0 || static_cast<std::uint64_t>(at) + a.width > bound || at % static_cast<std::int64_t>(a.width) != 0)
    throw InvalidInput(out_of_bounds_text(a, at, lane));
  const std::size_t x = static_cast<std::size_t>(lane) * p_.local_size +
                        static_cast<std::size_t>(p_.local_at[static_cast<std::size_t>(a.base)] + at);
  for (std::uint32_t i = 0; i < a.width; ++i)
    if (!local_written_[x + i])
      throw InvalidInput(location(k_, a.range) + ": read of local memory never written: '" + a.text + "' reads " +
                         shared_element(a.base, at, static_cast<int>(a.width)) +
                         ", which this thread has not written, in " + block_and_thread(lane));
  std::uint64_t value = 0;
  std::memcpy(&value, local_bytes_.data() + x, a.width);
  return normalise(type, value);
}

std::uint64_t WarpMachine::global_load(const MemoryAccess& a, std::int64_t at, int lane, ScalarType type) const {
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  if (at < 0 || static_cast<std::uint64_t>(at) + a.width > bound || at % static_cast<std::int64_t>(a.width) != 0)
    throw InvalidInput(out_of_bounds_text(a, at, lane));
  std::uint64_t value = 0;
  std::memcpy(&value, global_->bytes.data() + p_.global_at[static_cast<std::size_t>(a.base)] + at, a.width);
  return normalise(type, value);
}

void WarpMachine::finish(Tally& tally) const {
  if (global_ == nullptr) return;
  std::vector<bool> order(k_.accesses.size(), false);
  for (std::int32_t a : tally.order_reads) order[static_cast<std::size_t>(a)] = true;
  for (std::size_t b = 0; b < k_.bases.size(); ++b) {
    if (p_.global_at[b] < 0) continue;
    const auto start = static_cast<std::size_t>(p_.global_at[b]);
    bool communicating = false, every_read = false;
    for (std::size_t x = start; x < start + p_.base_bytes[b]; ++x) {
      const GlobalByte& t = global_->state[x];
      // Written by one thread and read by another, or written by several: whoever reads it may,
      // on the GPU, see another thread's value (or not yet see it), whichever came first here.
      if (t.writer == 0 || (t.writer != kManyThreads && (t.reader == 0 || t.reader == t.writer))) continue;
      communicating = true;
      if (t.read_by == kManyAccesses) every_read = true;
      else if (t.read_by != kNone) order[static_cast<std::size_t>(t.read_by)] = true;
    }
    if (communicating && std::find(tally.communicating.begin(), tally.communicating.end(),
                                   static_cast<std::int32_t>(b)) == tally.communicating.end())
      tally.communicating.push_back(static_cast<std::int32_t>(b));
    if (every_read)  // several accesses read the byte: each of the buffer's may have been one
      for (std::size_t a = 0; a < k_.accesses.size(); ++a)
        if (k_.accesses[a].base == static_cast<std::int32_t>(b) && k_.accesses[a].kind != AccessKind::Store)
          order[a] = true;
  }
  tally.order_reads.clear();
  for (std::size_t a = 0; a < order.size(); ++a)
    if (order[a]) tally.order_reads.push_back(static_cast<std::int32_t>(a));
}

std::string WarpMachine::shared_element(std::int32_t base, std::int64_t at, int width) const {
  const std::string& name = k_.bases[static_cast<std::size_t>(base)].name;
  return "bytes " + std::to_string(at) + " to " + std::to_string(at + width - 1) + " of '" + name + "'";
}

void WarpMachine::keep_read(const KeptAccess& a, std::int64_t at, int lane) {
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  check_place(a, at, lane, "reads");
  SharedState& sh = *shared_;
  const auto start = static_cast<std::size_t>(p_.shared_at[static_cast<std::size_t>(a.base)] + at);
  for (int i = 0; i < a.width; ++i) {
    const SharedByte& b = sh.state[start + static_cast<std::size_t>(i)];
    if (b.write_phase < sh.block_phase) unwritten(access, at, i, lane);
    if (b.write_phase == sh.phase && b.writer != warp_) race(a, at, lane, false, b.write_access, b.writer, true);
    if (b.order_dependent) order_dependent_value(a.id);
  }
  for (int i = 0; i < a.width; ++i) {
    SharedByte& b = sh.state[start + static_cast<std::size_t>(i)];
    if (b.read_phase != sh.phase) {
      b.read_phase = sh.phase;
      b.reader = warp_;
      b.read_access = a.id;
      b.other_reader = -1;
    } else if (b.reader != warp_ && b.other_reader < 0) {
      b.other_reader = warp_;
      b.other_read_access = a.id;
    }
  }
}

void WarpMachine::keep_write(const KeptAccess& a, std::int64_t at, int lane, std::uint64_t bits, bool known) {
  check_place(a, at, lane, "writes");
  SharedState& sh = *shared_;
  const auto start = static_cast<std::size_t>(p_.shared_at[static_cast<std::size_t>(a.base)] + at);
  for (int i = 0; i < a.width; ++i) {
    const std::size_t x = start + static_cast<std::size_t>(i);
    SharedByte& b = sh.state[x];
    const auto byte = static_cast<std::uint8_t>(bits >> (8 * i));
    // Another warp's write in this phase: a race unless both wrote the same known value (the
    // result is then the same in any order).
    if (b.write_phase == sh.phase && b.writer != warp_ && (b.atomic || b.unknown || !known || sh.bytes[x] != byte))
      race(a, at, lane, true, b.write_access, b.writer, true);
    if (sh.pending && x >= sh.pending_start && x < sh.pending_end && warp_ != sh.pending_warp)
      race(a, at, lane, true, sh.pending_access, sh.pending_warp, false);
    if (b.read_phase == sh.phase && b.reader != warp_) race(a, at, lane, true, b.read_access, b.reader, false);
    if (b.read_phase == sh.phase && b.other_reader >= 0 && b.other_reader != warp_)
      race(a, at, lane, true, b.other_read_access, b.other_reader, false);
    // Lanes of one request writing different values: which one stays is undefined.
    const bool same_request = b.request == sh.request && b.write_phase == sh.phase;
    b.unknown = !known || (same_request && (b.unknown || sh.bytes[x] != byte));
    if (sh.bytes[x] != byte) ++sh.changes;
    b.order_dependent = false;
    sh.bytes[x] = byte;
    b.write_phase = sh.phase;
    b.writer = warp_;
    b.write_access = a.id;
    b.request = sh.request;
    b.atomic = false;
  }
}

// An atomic on shared memory, one lane: atomics of several warps on one element in one phase are
// no race (they are atomic), a plain read or write of it by another warp in the phase is; the
// value it returns depends on the order when another thread's atomic hit the element in the
// phase (both accesses are then listed: Tally::order_atomics), and so does the element itself
// when their operations do not commute (exch, cas, inc, dec, float add, different operations):
// SharedByte::order_dependent, until a plain store overwrites it.
void WarpMachine::keep_atomic(const KeptAccess& a, std::int64_t at, int lane, std::uint64_t operand,
                              std::uint64_t compare) {
  check_place(a, at, lane, "updates");
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  SharedState& sh = *shared_;
  const auto start = static_cast<std::size_t>(p_.shared_at[static_cast<std::size_t>(a.base)] + at);
  const std::uint64_t thread = thread_of(lane) + 1;
  bool was_order_dependent = false, now_order_dependent = false;
  for (int i = 0; i < a.width; ++i) {
    SharedByte& b = sh.state[start + static_cast<std::size_t>(i)];
    if (b.write_phase < sh.block_phase) unwritten(access, at, i, lane);
    if (b.write_phase == sh.phase && b.writer != warp_ && !b.atomic) race(a, at, lane, true, b.write_access, b.writer, true);
    if (b.read_phase == sh.phase && b.reader != warp_) race(a, at, lane, true, b.read_access, b.reader, false);
    if (b.read_phase == sh.phase && b.other_reader >= 0 && b.other_reader != warp_)
      race(a, at, lane, true, b.other_read_access, b.other_reader, false);
    was_order_dependent = was_order_dependent || b.order_dependent;
    if (b.atomic_phase != sh.phase) {
      b.atomic_phase = sh.phase;
      b.atomic_thread = thread;
      b.atomic_access = a.id;
    } else if (b.atomic_thread != thread) {
      if (b.atomic_thread != kManyThreads) order_dependent_value(b.atomic_access);
      order_dependent_value(a.id);
      b.atomic_thread = kManyThreads;
      now_order_dependent =
          now_order_dependent || !atomics_commute(k_.accesses[static_cast<std::size_t>(b.atomic_access)].atomic, a.atomic, a.type);
    }
  }
  if (was_order_dependent) order_dependent_value(a.id);
  std::uint64_t old = 0;
  std::memcpy(&old, sh.bytes.data() + start, static_cast<std::size_t>(a.width));
  const std::uint64_t now = ops::atomic(a.atomic, a.type, a.width, old, operand, compare, AddressSpace::Shared);
  if (now != old) ++sh.changes;
  std::memcpy(sh.bytes.data() + start, &now, static_cast<std::size_t>(a.width));
  // An exchange by one thread leaves its operand, whatever the element held.
  const bool order_dependent = now_order_dependent || (was_order_dependent && a.atomic != AtomicOp::Exch);
  for (int i = 0; i < a.width; ++i) {
    SharedByte& b = sh.state[start + static_cast<std::size_t>(i)];
    b.write_phase = sh.phase;
    b.writer = warp_;
    b.write_access = a.id;
    b.atomic = true;
    b.unknown = false;
    b.order_dependent = order_dependent;
  }
  atomic_old_[static_cast<std::size_t>(a.id) * kMaxLanes + static_cast<std::size_t>(lane)] = normalise(a.type, old);
}

void WarpMachine::order_dependent_value(std::int32_t access) {
  if (std::find(order_atomics_->begin(), order_atomics_->end(), access) == order_atomics_->end())
    order_atomics_->push_back(access);
}

void WarpMachine::unwritten(const MemoryAccess& a, std::int64_t at, int byte, int lane) {
  SharedState& sh = *shared_;
  if (!sh.pending) {
    sh.pending = true;
    sh.pending_start = static_cast<std::size_t>(p_.shared_at[static_cast<std::size_t>(a.base)] + at);
    sh.pending_end = sh.pending_start + a.width;
    sh.pending_warp = warp_;
    sh.pending_access = static_cast<std::int32_t>(&a - k_.accesses.data());
    sh.pending_message = location(k_, a.range) + ": read of shared memory never written: '" + a.text + "' reads " +
                         shared_element(a.base, at, static_cast<int>(a.width)) +
                         ", and no thread of the block writes byte " + std::to_string(at + byte) +
                         " before it, in " + block_and_thread(lane);
  }
  throw UnwrittenRead{};
}

void WarpMachine::finish_phase() {
  SharedState& sh = *shared_;
  if (!sh.pending) return;
  sh.pending = false;
  throw InvalidInput(sh.pending_message);
}

void WarpMachine::race(const KeptAccess& a, std::int64_t at, int lane, bool writes, std::int32_t other_access,
                       std::int32_t other_warp, bool other_writes) const {
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  const MemoryAccess& other = k_.accesses[static_cast<std::size_t>(other_access)];
  const std::string who = "warp " + std::to_string(other_warp);
  throw InvalidInput(location(k_, access.range) + ": shared-memory race: '" + access.text + "' " +
                     (writes ? (a.kind == AccessKind::Atomic ? "updates " : "writes ") : "reads ") +
                     shared_element(a.base, at, a.width) + " in warp " +
                     std::to_string(warp_) + ", which " + who + (other_writes ? " wrote" : " read") + " ('" +
                     other.text + "' at " + location(k_, other.range) +
                     ") with no __syncthreads() between them, in " + block_and_thread(lane));
}

std::uint64_t WarpMachine::shared_load(const MemoryAccess& a, std::int64_t at, int lane, ScalarType type) const {
  const SharedState& sh = *shared_;
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  const auto width = static_cast<int>(a.width);
  if (at < 0 || static_cast<std::uint64_t>(at) + a.width > bound || at % width != 0)
    throw InvalidInput(out_of_bounds_text(a, at, lane));
  const auto start = static_cast<std::size_t>(p_.shared_at[static_cast<std::size_t>(a.base)] + at);
  std::uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    const SharedByte& b = sh.state[start + static_cast<std::size_t>(i)];
    if (b.write_phase < sh.block_phase) const_cast<WarpMachine*>(this)->unwritten(a, at, i, lane);
    if (b.unknown) {
      const MemoryAccess& w = k_.accesses[static_cast<std::size_t>(b.write_access)];
      throw InvalidInput(location(k_, a.range) + ": the value '" + a.text + "' reads (" +
                         shared_element(a.base, at, width) + ") is not known: '" + w.text + "' at " +
                         location(k_, w.range) +
                         " stored different values there from lanes of one warp, or an undefined one (which "
                         "value stays on the GPU is undefined), in " + block_and_thread(lane));
    }
    value |= std::uint64_t{sh.bytes[start + static_cast<std::size_t>(i)]} << (8 * i);
  }
  return normalise(type, value);
}

void WarpMachine::misaligned(const CompiledAccess& a, int lane, std::int64_t offset) {
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  fault(static_cast<std::size_t>(a.id),
        location(k_, access.range) + ": misaligned access: '" + access.text + "' moves " +
            std::to_string(a.width) + " bytes at byte " + std::to_string(offset) + " of '" +
            k_.bases[access.base].name + "', not a multiple of " + std::to_string(a.width) +
            " (the GPU stops the kernel there) in " + block_and_thread(lane));
}

void WarpMachine::out_of_bounds(const CompiledAccess& a, LaneMask lanes, const std::int64_t* addresses,
                                std::int64_t uniform) {
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  int lane = lowest_lane(lanes);
  std::int64_t at = uniform;
  for (LaneMask l = lanes; addresses != nullptr && l != 0; l &= l - 1) {
    const std::int64_t x = addresses[lowest_lane(l)];
    if (x < 0 || static_cast<std::uint64_t>(x) + static_cast<std::uint64_t>(a.width) > bound) {
      lane = lowest_lane(l);
      at = x;
      break;
    }
  }
  fault(static_cast<std::size_t>(a.id), out_of_bounds_text(access, at, lane), true);
}

std::string WarpMachine::out_of_bounds_text(const MemoryAccess& access, std::int64_t at, int lane) const {
  const MemoryBase& base = k_.bases[static_cast<std::size_t>(access.base)];
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(access.base)];
  // A parameter's element type, or for a declared array the access's own width.
  const std::uint64_t element = base.parameter >= 0
                                    ? k_.parameters[static_cast<std::size_t>(base.parameter)].element_bytes
                                    : access.width;
  std::string where = "bytes " + std::to_string(at) + " to " + std::to_string(at + access.width - 1) + " of '" +
                      base.name + "', which holds " + std::to_string(bound) + " bytes";
  if (element != 0 && bound % element == 0) {
    // Floor division: an index before the buffer is negative.
    const auto size = static_cast<std::int64_t>(element);
    const std::int64_t index = at >= 0 ? at / size : -((-at + size - 1) / size);
    where = "element " + std::to_string(index) + " of '" + base.name + "', which holds " +
            std::to_string(bound / element) + " elements of " + std::to_string(element) + " bytes (0 to " +
            std::to_string(bound / element - 1) + ")";
  }
  return location(k_, access.range) + ": out of bounds: '" + access.text + "' " +
         (access.kind == AccessKind::Load ? "reads " : access.kind == AccessKind::Store ? "writes " : "updates ") +
         where + ", in " + block_and_thread(lane);
}

// A load whose value the model computes (Expr::access; Program::base_data): each active lane's
// element, read from the launch's data (or zeros). Outside the buffer, or misaligned, the value
// does not exist: an error (InvalidInput) naming the first thread.
WarpMachine::Val WarpMachine::load(ExprId id, const CompiledExpr& e, LaneMask active) {
  const MemoryAccess& a = k_.accesses[static_cast<std::size_t>(e.index)];
  if (a.kind == AccessKind::Atomic) {  // what the atomic returned (keep_global ran it)
    const std::uint64_t* old = atomic_old_.data() + static_cast<std::size_t>(e.index) * kMaxLanes;
    std::uint64_t* out = scratch(id);
    for (LaneMask l = active; l != 0; l &= l - 1) out[lowest_lane(l)] = old[lowest_lane(l)];
    return {out, 0};
  }
  const bool followed = p_.followed[static_cast<std::size_t>(a.base)] != 0;
  // From the launch's read-only data, at the same offset as last time (its locals not written
  // since, for a superset of these lanes): the same elements, not read (nor the offset computed)
  // again.
  const std::uint8_t kept = !followed && recorder_ == nullptr ? p_.kept[a.offset] : Program::kNotKept;
  if (kept != Program::kNotKept) {
    const KeptValue& k = kept_load_[id];
    if (still_kept(a.offset, k.stamp, k.active, active)) return k.uniform ? Val{nullptr, k.value} : Val{scratch(id), 0};
  }
  const Val offset = eval(a.offset, active);
  // Memory the replay keeps (a buffer the kernel writes, shared memory): each lane's element there.
  // (One address for every lane reads one value, but for a local array: each lane's own copy.)
  const auto each_lane = [&](auto read, bool own_copies) -> Val {
    if (offset.lanes == nullptr && !own_copies)
      return {nullptr, read(static_cast<std::int64_t>(offset.value), lowest_lane(active))};
    std::uint64_t* out = scratch(id);
    for (LaneMask l = active; l != 0; l &= l - 1) {
      const int lane = lowest_lane(l);
      out[lane] = read(static_cast<std::int64_t>(offset.lanes != nullptr ? offset.lanes[lane] : offset.value), lane);
    }
    return {out, 0};
  };
  if (followed) {
    const auto base = static_cast<std::size_t>(a.base);
    if (p_.global_values && p_.global_at[base] >= 0)
      return each_lane([&](std::int64_t at, int lane) { return global_load(a, at, lane, e.type); }, false);
    if (p_.local_size > 0 && p_.local_at[base] >= 0)
      return each_lane([&](std::int64_t at, int lane) { return local_load(a, at, lane, e.type); }, true);
    return each_lane([&](std::int64_t at, int lane) { return shared_load(a, at, lane, e.type); }, false);
  }
  const Val loaded = read_data(id, e, a, offset, active);
  if (kept != Program::kNotKept)
    kept_load_[id] = KeptValue{++stamp_, active, loaded.value, loaded.lanes == nullptr};
  return loaded;
}

// A load's elements from the launch's data (or zeros), each active lane's (load()).
WarpMachine::Val WarpMachine::read_data(ExprId id, const CompiledExpr& e, const MemoryAccess& a, const Val& offset,
                                        LaneMask active) {
  const std::string* data = p_.base_data[static_cast<std::size_t>(a.base)];
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  const auto width = static_cast<std::uint64_t>(a.width);
  const auto read = [&](std::uint64_t bits, int lane) {
    const auto at = static_cast<std::int64_t>(bits);
    if (at < 0 || static_cast<std::uint64_t>(at) + width > bound) throw InvalidInput(out_of_bounds_text(a, at, lane));
    if ((bits & (width - 1)) != 0)
      throw InvalidInput(location(k_, a.range) + ": misaligned access: '" + a.text + "' reads " +
                         std::to_string(width) + " bytes at byte " + std::to_string(at) + " of '" +
                         k_.bases[static_cast<std::size_t>(a.base)].name + "', not a multiple of " +
                         std::to_string(width) + " (the GPU stops the kernel there) in " + block_and_thread(lane));
    std::uint64_t value = 0;  // little-endian, as on the GPU (and this host)
    if (data == nullptr) return std::uint64_t{0};
    const char* element = data->data() + at;
    // The usual widths read inline (an int or float, a long or double), the rest byte by byte.
    if (width == 4) {
      std::uint32_t word = 0;
      std::memcpy(&word, element, 4);
      return e.type == ScalarType::I32 ? static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(word)})
                                       : normalise(e.type, word);
    }
    if (width == 8) {
      std::memcpy(&value, element, 8);
      return normalise(e.type, value);
    }
    std::memcpy(&value, element, width);
    return normalise(e.type, value);
  };
  if (offset.lanes == nullptr) return {nullptr, read(offset.value, lowest_lane(active))};
  std::uint64_t* out = scratch(id);
  for (LaneMask l = active; l != 0; l &= l - 1) {
    const int lane = lowest_lane(l);
    out[lane] = read(offset.lanes[lane], lane);
  }
  return {out, 0};
}

void WarpMachine::fault(std::size_t item, const std::string& message, bool out_of_bounds) {
  if (fault_flag_ != nullptr) fault_flag_->store(true, std::memory_order_relaxed);
  MemoryFault& f = faults_[item];
  const std::uint64_t block =
      block_index_[0] + p_.launch.grid.x * (block_index_[1] + std::uint64_t{p_.launch.grid.y} * block_index_[2]);
  if (f.met && f.block <= block) return;
  f.met = true;
  f.block = block;
  f.message = message;
  f.out_of_bounds = out_of_bounds;
}

void counts_overflow() { throw InvalidInput("the counts of one block pass 2^64"); }

bool operator==(const Counts64& a, const Counts64& b) {
  return a.evaluations == b.evaluations && a.divergent == b.divergent && a.active == b.active &&
         a.taken == b.taken && a.block_executions == b.block_executions &&
         a.partial_block_executions == b.partial_block_executions &&
         a.blocks_with_partial == b.blocks_with_partial;
}

LaneMask WarpMachine::exec_loop(StmtId id, const Stmt& s, LaneMask active) {
  LaneMask in = active;
  if (s.init != kNone) in = exec(s.init, in);
  Frame loop_frame{FrameKind::Loop};
  loop_frame.loop = id;
  frames_.push_back(loop_frame);
  const std::size_t frame = frames_.size() - 1;
  LaneMask exits = 0;
  // A recorder may run this instance's iterations its own way (the class engine: by classes).
  const bool recorded = recorder_ != nullptr && recorder_->loop_begin(*this, id, in);
  std::unique_ptr<RepeatWatch> watch;
  std::uint64_t heads = 0;
  for (std::uint64_t k = 0; in != 0; ++k) {
    if (++heads >= kRepeatWatchStart) watch_repeat(id, watch, heads, in);
    loop_iteration_[id] = k;
    in = recorded ? recorder_->iterations(*this, id, frame, in, exits, k)
                  : iteration(id, s, frame, in, exits);
    if ((++ticks_ & 0x3FFF) == 0) check_limits();
  }
  frames_.pop_back();
  return exits;
}

namespace {

std::string lane_ranges(LaneMask lanes) {
  std::string text;
  for (int l = 0; l < kMaxLanes; ++l) {
    if (!(lanes >> l & 1)) continue;
    int last = l;
    while (last + 1 < kMaxLanes && (lanes >> (last + 1) & 1)) ++last;
    text += (text.empty() ? "" : ", ") + std::to_string(l) + (last > l ? "-" + std::to_string(last) : "");
    l = last;
  }
  return text;
}

}  // namespace

void WarpMachine::watch_repeat(StmtId loop, std::unique_ptr<RepeatWatch>& watch, std::uint64_t heads,
                               LaneMask in) {
  if (watch == nullptr) {
    watch = std::make_unique<RepeatWatch>();
    watch->written = &written_in(loop);
  } else if ((heads & (heads - 1)) != 0) {
    // Compared every 16th head: a cycle of period p is still found, within 16 p heads of a save.
    if (((heads - watch->saved_at) & 15) == 0 && same_state(*watch, in))
      never_ends(loop, in, heads - watch->saved_at);
    return;
  }
  if ((heads & (heads - 1)) == 0) {  // a power of two: the state to compare the next heads with
    save_state(*watch, in);
    watch->saved_at = heads;
  }
}

const std::vector<LocalId>& WarpMachine::written_in(StmtId loop) {
  if (written_in_.empty()) written_in_.resize(k_.stmts.size());
  auto& written = written_in_[static_cast<std::size_t>(loop)];
  if (written == nullptr) written = std::make_unique<std::vector<LocalId>>(
      locals_written(k_, {k_.stmts[static_cast<std::size_t>(loop)].body, k_.stmts[static_cast<std::size_t>(loop)].step}));
  return *written;
}

std::uint64_t WarpMachine::memory_changes() const {
  return local_changes_ + (global_ != nullptr ? global_->changes : 0) + (shared_ != nullptr ? shared_->changes : 0);
}

void WarpMachine::save_state(RepeatWatch& w, LaneMask in) {
  w.in = in;
  w.memory = memory_changes();
  w.values.assign(w.written->size() * std::size_t(lanes_), 0);
  w.defined.assign(w.written->size(), 0);
  for (std::size_t i = 0; i < w.written->size(); ++i) {
    const LocalState& st = locals_[(*w.written)[i]];
    const std::uint64_t* lanes = local_lanes((*w.written)[i]);
    w.defined[i] = st.defined;
    for (int l = 0; l < lanes_; ++l)
      if (st.defined >> l & 1) w.values[i * std::size_t(lanes_) + l] = st.uniform ? st.value : lanes[l];
  }
}

bool WarpMachine::same_state(const RepeatWatch& w, LaneMask in) const {
  if (in != w.in || memory_changes() != w.memory) return false;
  for (std::size_t i = 0; i < w.written->size(); ++i) {
    const LocalState& st = locals_[(*w.written)[i]];
    if (st.defined != w.defined[i]) return false;
    const std::uint64_t* lanes = local_lanes_.data() + std::size_t((*w.written)[i]) * kMaxLanes;
    for (int l = 0; l < lanes_; ++l)
      if ((st.defined >> l & 1) && (st.uniform ? st.value : lanes[l]) != w.values[i * std::size_t(lanes_) + l])
        return false;
  }
  return true;
}

std::string WarpMachine::block_and_thread(int lane) const {
  const std::uint64_t t = std::uint64_t(warp_) * p_.warp_size + lane;
  const std::uint64_t bx = p_.launch.block.x, by = p_.launch.block.y;
  return "block (" + std::to_string(block_index_[0]) + ", " + std::to_string(block_index_[1]) + ", " +
         std::to_string(block_index_[2]) + "), thread (" + std::to_string(t % bx) + ", " +
         std::to_string(t / bx % by) + ", " + std::to_string(t / (bx * by)) + ")";
}

void WarpMachine::never_ends(StmtId loop, LaneMask in, std::uint64_t period) const {
  throw InvalidInput(location(k_, k_.stmts[loop].range) + ": the " + report_kind(k_.stmts[loop]) +
                     " loop never ends: warp " + std::to_string(warp_) + " (lanes " + lane_ranges(in) +
                     ") is back in the state it had " + std::to_string(period) + " iteration" +
                     (period == 1 ? "" : "s") + " before, so it repeats forever (first thread: " +
                     block_and_thread(lowest_lane(in)) + ")");
}

LaneMask WarpMachine::iteration(StmtId id, const Stmt& s, std::size_t frame, LaneMask in,
                                LaneMask& exits) {
  const bool check_first = s.loop_kind != LoopKind::Do;
  if (check_first) {
    if (p_.has_memory[id]) memory(id, in);  // the condition's loads
    const LaneMask stay = s.value != kNone ? condition(s.value, in) : in;
    count_condition(id, in, stay);
    exits |= in & ~stay;
    in = stay;
    if (in == 0) return 0;
  }
  frames_[frame].broken = 0;
  frames_[frame].continued = 0;
  LaneMask after = in;
  if (k_.stmts[s.body].kind == StmtKind::Work) {
    count(s.body, in);
    if (p_.has_memory[s.body]) memory(s.body, in);
  }
  else after = exec(s.body, in);
  after |= frames_[frame].continued;
  exits |= frames_[frame].broken;
  if (s.step != kNone && after != 0) {
    const Stmt& step = k_.stmts[s.step];
    if (step.kind == StmtKind::Assign && !p_.skip_value[s.step] && !p_.has_memory[s.step]) {  // `++i`, inline
      count(s.step, after);
      write(step.local, operand(step.value, after), after);
    } else {
      after = exec(s.step, after);
    }
  }
  in = after;
  if (!check_first && in != 0) {
    if (p_.has_memory[id]) memory(id, in);
    const LaneMask stay = s.value != kNone ? condition(s.value, in) : in;
    count_condition(id, in, stay);
    exits |= in & ~stay;
    in = stay;
  }
  return in;
}

LaneMask WarpMachine::exec_switch(StmtId id, const Stmt& s, LaneMask active) {
  if (p_.has_memory[id]) memory(id, active);
  const Val v = eval(s.value, active);
  // Entry point of each active lane: a case's child, the default's, or past the end (none).
  const auto n = static_cast<std::int32_t>(s.children.size());
  std::vector<LaneMask> entry(static_cast<std::size_t>(n) + 1, 0);
  LaneMask matched = 0;
  for (const SwitchCase& c : s.cases) {
    LaneMask m = 0;
    if (v.lanes == nullptr) {
      m = v.value == c.value ? active : 0;
    } else {
      for (int l = 0; l < lanes_; ++l) m |= static_cast<LaneMask>(v.lanes[l] == c.value) << l;
      m &= active;
    }
    entry[c.child] |= m;
    matched |= m;
  }
  const LaneMask unmatched = active & ~matched;
  entry[s.default_child != kNone ? s.default_child : n] |= unmatched;
  // Divergent when the active lanes enter at more than one point.
  int points = 0;
  for (LaneMask m : entry) points += m != 0;
  Counts64& c = counts_[id];
  c.evaluations += 1;
  c.active += static_cast<std::uint64_t>(popcount(active));
  c.taken += static_cast<std::uint64_t>(popcount(matched));
  c.divergent += points > 1;
  evaluations_ += 1;
  if (p_.options.observer != nullptr) observe(id, active, matched);
  if (by_iteration_) {
    if (Counts64* it = iteration_counts(id)) {
      it->evaluations += 1;
      it->active += static_cast<std::uint64_t>(popcount(active));
      it->taken += static_cast<std::uint64_t>(popcount(matched));
      it->divergent += points > 1;
    }
  }
  frames_.push_back(Frame{FrameKind::Switch});
  const std::size_t frame = frames_.size() - 1;
  LaneMask running = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    running |= entry[i];
    if (running != 0) running = exec(s.children[i], running);
  }
  running |= entry[n] | frames_[frame].broken;
  frames_.pop_back();
  return running;
}

}  // namespace warpdiv::sim::ir::detail
