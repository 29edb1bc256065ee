// The semantics of the kernel model's operations (sim/model/ir_ops.def lists them): C's operators on
// normalised 64-bit values (see Value in sim/model/ir.hpp), IEEE floating point, conversions, intrinsics
// and atomics, with undefined behaviour reported through a `fault` flag instead of computed. One
// template per operation and type, written so that lane loops vectorise: no branches on the data,
// no call out of this header. Both engines evaluate these templates: the interpreter (sim/) calls
// them, and the native replay compiles them to LLVM bitcode (jit/ops_lanes.cpp) that its
// generated code calls. Internal to sim/ and jit/; tests may include it.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir::ops {

/// Every ScalarType, for X-macros: #define WARPDIV_SCALAR_TYPE(T) ..., then WARPDIV_SCALAR_TYPES.
// clang-format off
#define WARPDIV_SCALAR_TYPES \
  WARPDIV_SCALAR_TYPE(Bool) \
  WARPDIV_SCALAR_TYPE(I8) \
  WARPDIV_SCALAR_TYPE(U8) \
  WARPDIV_SCALAR_TYPE(I16) \
  WARPDIV_SCALAR_TYPE(U16) \
  WARPDIV_SCALAR_TYPE(I32) \
  WARPDIV_SCALAR_TYPE(U32) \
  WARPDIV_SCALAR_TYPE(I64) \
  WARPDIV_SCALAR_TYPE(U64) \
  WARPDIV_SCALAR_TYPE(F32) \
  WARPDIV_SCALAR_TYPE(F64)
// clang-format on

template <ScalarType T>
constexpr bool kSigned =
    T == ScalarType::I8 || T == ScalarType::I16 || T == ScalarType::I32 || T == ScalarType::I64;
/// The bits of T's values (1 for bool).
template <ScalarType T>
constexpr int kBits = T == ScalarType::Bool                                                  ? 1
                      : T == ScalarType::I8 || T == ScalarType::U8                           ? 8
                      : T == ScalarType::I16 || T == ScalarType::U16                         ? 16
                      : T == ScalarType::I32 || T == ScalarType::U32 || T == ScalarType::F32 ? 32
                                                                                             : 64;
/// The width C's operators compute in for promoted T (32 or 64).
template <ScalarType T>
constexpr int kWidth = kBits<T> == 32 ? 32 : 64;
template <ScalarType T>
constexpr std::uint64_t kMinBits = kWidth<T> == 32 ? 0xFFFFFFFF80000000ULL : 0x8000000000000000ULL;

/// Bits normalised to integer T (sim/model/ir.hpp's normalise): sign- or zero-extended from T's width;
/// bool: != 0.
template <ScalarType T>
constexpr std::uint64_t wrap(std::uint64_t bits) {
  if constexpr (T == ScalarType::Bool) {
    return bits != 0 ? 1 : 0;
  } else if constexpr (kBits<T> == 64) {
    return bits;
  } else if constexpr (kSigned<T>) {
    constexpr int unused = 64 - kBits<T>;
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(bits << unused) >> unused);
  } else {
    return bits & ((std::uint64_t{1} << kBits<T>)-1);
  }
}

// ---- Floating point: IEEE binary32 / binary64, round to nearest even (the host's default mode,
// as a GPU computes under nvcc's default flags). The values travel as their bit patterns.
template <ScalarType T>
constexpr bool kFloating = T == ScalarType::F32 || T == ScalarType::F64;
template <ScalarType T>
using FloatOf = std::conditional_t<T == ScalarType::F32, float, double>;

template <ScalarType T>
inline FloatOf<T> to_float(std::uint64_t bits) {
  FloatOf<T> v;
  if constexpr (T == ScalarType::F32) {
    const auto low = static_cast<std::uint32_t>(bits);
    std::memcpy(&v, &low, sizeof v);
  } else {
    std::memcpy(&v, &bits, sizeof v);
  }
  return v;
}
template <ScalarType T>
inline std::uint64_t from_float(FloatOf<T> v) {
  if constexpr (T == ScalarType::F32) {
    std::uint32_t low;
    std::memcpy(&low, &v, sizeof low);
    return low;
  } else {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits;
  }
}
/// + - * / and the comparisons of floating T (never a fault: IEEE gives inf and NaN).
template <BinaryOp OP, ScalarType T>
inline std::uint64_t floating_binary(std::uint64_t a, std::uint64_t b) {
  const FloatOf<T> x = to_float<T>(a), y = to_float<T>(b);
  if constexpr (OP == BinaryOp::Add) return from_float<T>(x + y);
  if constexpr (OP == BinaryOp::Sub) return from_float<T>(x - y);
  if constexpr (OP == BinaryOp::Mul) return from_float<T>(x * y);
  if constexpr (OP == BinaryOp::Div) return from_float<T>(x / y);
  if constexpr (OP == BinaryOp::Lt) return x < y;
  if constexpr (OP == BinaryOp::Le) return x <= y;
  if constexpr (OP == BinaryOp::Gt) return x > y;
  if constexpr (OP == BinaryOp::Ge) return x >= y;
  if constexpr (OP == BinaryOp::Eq) return x == y;
  if constexpr (OP == BinaryOp::Ne) return x != y;
  return 0;  // % << >> & | ^: validate() refuses them on floating operands
}
/// The operators floating types take (sim/model/ir_ops.def: Arithmetic and Comparison).
constexpr bool floating_operator(BinaryOp op) {
  switch (op) {
#define WARPDIV_BINARY_OP(Enum, spelling, operands, fault, flops) \
  case BinaryOp::Enum:                                            \
    return OperandClass::operands != OperandClass::Integer;
#include "sim/model/ir_ops.def"
  }
  return false;
}

inline std::int64_t s64(std::uint64_t bits) { return static_cast<std::int64_t>(bits); }
inline std::uint64_t u64(std::int64_t value) { return static_cast<std::uint64_t>(value); }

/// a OP b for operands of promoted type T (for shifts, b may be of any promoted type: its
/// normalised bits compare as unsigned, so a negative amount is "too large" as well).
template <BinaryOp OP, ScalarType T>
inline std::uint64_t binary(std::uint64_t a, std::uint64_t b, bool& fault) {
  constexpr bool S = kSigned<T>;
  constexpr int W = kWidth<T>;
  if constexpr (kFloating<T>) {
    return floating_binary<OP, T>(a, b);
  } else if constexpr (OP == BinaryOp::Add || OP == BinaryOp::Sub || OP == BinaryOp::Mul) {
    if constexpr (W == 32 && S && OP == BinaryOp::Mul) {
      // Exact in 64 bits: |a|, |b| <= 2^31.
      const std::int64_t r =
          std::int64_t{static_cast<std::int32_t>(a)} * std::int64_t{static_cast<std::int32_t>(b)};
      fault |= r != std::int64_t{static_cast<std::int32_t>(r)};
      return u64(r);
    } else if constexpr (W == 32 && S) {
      // In 32 bits (so that vectors of int32 stay 32 bits wide): overflow from the signs.
      const auto x = static_cast<std::uint32_t>(a), y = static_cast<std::uint32_t>(b);
      const std::uint32_t r = OP == BinaryOp::Add ? x + y : x - y;
      fault |= ((OP == BinaryOp::Add ? (x ^ r) & (y ^ r) : (x ^ y) & (x ^ r)) >> 31) != 0;
      return wrap<T>(r);
    } else if constexpr (W == 64 && S) {
      // Overflow from the signs (+, -) or the exact product: forms that vectorise.
      if constexpr (OP == BinaryOp::Mul) {
        __extension__ using Wide = __int128;
        const Wide p = static_cast<Wide>(s64(a)) * static_cast<Wide>(s64(b));
        fault |= p != static_cast<Wide>(static_cast<std::int64_t>(p));
        return static_cast<std::uint64_t>(p);
      }
      const std::uint64_t r = OP == BinaryOp::Add ? a + b : a - b;
      fault |= ((OP == BinaryOp::Add ? (a ^ r) & (b ^ r) : (a ^ b) & (a ^ r)) >> 63) != 0;
      return r;
    } else {
      return wrap<T>(OP == BinaryOp::Add ? a + b : OP == BinaryOp::Sub ? a - b : a * b);
    }
  } else if constexpr (OP == BinaryOp::Div || OP == BinaryOp::Rem) {
    // Division by zero, and (signed) MIN / -1, are undefined; the host must not trap on them
    // either, so the divisor is replaced by 1 where they occur.
    bool bad = b == 0;
    if constexpr (S) bad |= a == kMinBits<T> && b == ~std::uint64_t{0};
    fault |= bad;
    const std::uint64_t d = bad ? 1 : b;
    if constexpr (S)
      return u64(OP == BinaryOp::Div ? s64(a) / s64(d) : s64(a) % s64(d));
    else
      return OP == BinaryOp::Div ? a / d : a % d;
  } else if constexpr (OP == BinaryOp::Shl || OP == BinaryOp::Shr) {
    const bool bad_amount = b >= static_cast<std::uint64_t>(W);
    const unsigned s = bad_amount ? 0u : static_cast<unsigned>(b);
    fault |= bad_amount;
    if constexpr (OP == BinaryOp::Shl) {
      if constexpr (S) {
        // C++17 [expr.shift]: a non-negative a whose a * 2^s fits the unsigned type of width W.
        const std::uint64_t lost = s == 0 ? 0 : (a & (W == 32 ? 0xFFFFFFFFULL : ~0ULL)) >> (W - s);
        fault |= s64(a) < 0 || lost != 0;
      }
      return wrap<T>(a << s);
    } else {
      if constexpr (S)
        return u64(s64(a) >> s);  // arithmetic, as GCC, Clang and nvcc define it
      else
        return a >> s;
    }
  } else if constexpr (OP == BinaryOp::BitAnd) {
    return a & b;
  } else if constexpr (OP == BinaryOp::BitOr) {
    return a | b;
  } else if constexpr (OP == BinaryOp::BitXor) {
    return a ^ b;
  } else {
    // Comparisons: 0 or 1.
    if constexpr (S) {
      const std::int64_t x = s64(a), y = s64(b);
      return OP == BinaryOp::Lt   ? x < y
             : OP == BinaryOp::Le ? x <= y
             : OP == BinaryOp::Gt ? x > y
             : OP == BinaryOp::Ge ? x >= y
             : OP == BinaryOp::Eq ? x == y
                                  : x != y;
    } else {
      return OP == BinaryOp::Lt   ? a < b
             : OP == BinaryOp::Le ? a <= b
             : OP == BinaryOp::Gt ? a > b
             : OP == BinaryOp::Ge ? a >= b
             : OP == BinaryOp::Eq ? a == b
                                  : a != b;
    }
  }
}

/// -a and ~a for promoted T (! works on bool and needs no template).
template <UnaryOp OP, ScalarType T>
inline std::uint64_t unary(std::uint64_t a, bool& fault) {
  if constexpr (kFloating<T> && OP == UnaryOp::Neg) {
    return a ^ (T == ScalarType::F32 ? 0x80000000ULL : 0x8000000000000000ULL);  // the sign bit
  } else if constexpr (OP == UnaryOp::Neg) {
    if constexpr (kSigned<T>) fault |= a == kMinBits<T>;
    return wrap<T>(0 - a);
  } else if constexpr (OP == UnaryOp::BitNot) {
    return wrap<T>(~a);
  } else {
    return a ^ 1;
  }
}

using BinaryFn = std::uint64_t (*)(std::uint64_t, std::uint64_t, bool&);
using UnaryFn = std::uint64_t (*)(std::uint64_t, bool&);

/// The scalar function of op on type (a promoted type, or a floating one for + - * / and the
/// comparisons, and unary -; InvalidInput otherwise).
BinaryFn binary_fn(BinaryOp op, ScalarType type);
UnaryFn unary_fn(UnaryOp op, ScalarType type);

/// C's conversion of normalised `bits` of type From to type To, with floating types: integer to
/// floating and floating to floating round to nearest (one rounding from the exact value); floating
/// to integer truncates toward zero, and a fault (undefined behaviour) where the truncation does
/// not fit To or the value is NaN (0 then); to bool: != 0 (NaN != 0).
template <ScalarType From, ScalarType To>
inline std::uint64_t convert_to(std::uint64_t bits, bool& fault) {
  if constexpr (kFloating<To>) {
    using F = FloatOf<To>;
    if constexpr (kFloating<From>)
      return from_float<To>(static_cast<F>(to_float<From>(bits)));
    else if constexpr (kSigned<From>)
      return from_float<To>(static_cast<F>(s64(bits)));
    else
      return from_float<To>(static_cast<F>(bits));
  } else if constexpr (!kFloating<From>) {
    return wrap<To>(bits);
  } else if constexpr (To == ScalarType::Bool) {
    return to_float<From>(bits) != 0 ? 1 : 0;
  } else {
    // Defined where the truncation t fits: low <= t < high, both powers of two (exact).
    using F = FloatOf<From>;
    const F t = std::trunc(to_float<From>(bits));
    constexpr F high =
        kSigned<To> ? F(std::uint64_t{1} << (kBits<To> - 1)) : F(2) * F(std::uint64_t{1} << (kBits<To> - 1));
    constexpr F low = kSigned<To> ? -high : F(0);
    const bool fits = t >= low && t < high;
    fault |= !fits;
    const F safe = fits ? t : F(0);
    if constexpr (kSigned<To>)
      return wrap<To>(u64(static_cast<std::int64_t>(safe)));
    else
      return wrap<To>(static_cast<std::uint64_t>(safe));
  }
}

/// fma(a, b, c) = a*b + c, fms = a*b - c, fnma = c - a*b (each rounded once), sqrt(a), fabs(a)
/// of floating T (never a fault).
template <Intrinsic I, ScalarType T>
inline std::uint64_t intrinsic_of(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const FloatOf<T> x = to_float<T>(a), y = to_float<T>(b), z = to_float<T>(c);
  if constexpr (I == Intrinsic::Fma) return from_float<T>(std::fma(x, y, z));
  if constexpr (I == Intrinsic::Fms) return from_float<T>(std::fma(x, y, -z));
  if constexpr (I == Intrinsic::Fnma) return from_float<T>(std::fma(-x, y, z));
  if constexpr (I == Intrinsic::Sqrt) return from_float<T>(std::sqrt(x));
  if constexpr (I == Intrinsic::Fabs) return from_float<T>(std::fabs(x));
  return 0;
}

/// C's conversion of a value of type `from` to type `to` (normalised bits), with floating types:
/// integer to floating and floating to floating round to nearest; floating to integer truncates
/// toward zero, and a fault (undefined behaviour) where the truncation does not fit `to` or the
/// value is NaN; to bool: != 0.
std::uint64_t convert(ScalarType from, ScalarType to, std::uint64_t bits, bool& fault);
/// Why convert() faulted: "conversion of 3e+10 (float32) to int32, whose range is ...".
std::string describe_conversion_fault(ScalarType from, ScalarType to, std::uint64_t bits);
/// fma(a, b, c) = a*b + c, fms = a*b - c, fnma = c - a*b (each rounded once), sqrt(a), fabs(a)
/// of floating `type`.
std::uint64_t intrinsic(Intrinsic which, ScalarType type, std::uint64_t a, std::uint64_t b, std::uint64_t c);

/// Why a OP b (of type T, right operand type R) is undefined: "signed overflow in '+' (int32)",
/// "division by zero in '/'", ... Only meaningful when the function reported a fault.
std::string describe_fault(BinaryOp op, ScalarType type, std::uint64_t a, std::uint64_t b);
std::string describe_fault(UnaryOp op, ScalarType type);

// ---- Warp functions over the 32 lanes of a warp. CUDA's __shfl*_sync compile to PTX's
// shfl.sync (PTX ISA, "Parallel Synchronization and Communication Instructions: shfl.sync"), whose
// pseudocode these follow; an H200 computed the same for every kind, width 1 .. 32 and argument
// tried (data/validation/shuffles/; tests/jit/warp_rules_test.cpp runs both engines against it).

/// The lane whose value lane `lane` (0 .. 31) receives from shuffle OP (Shfl, ShflUp, ShflDown,
/// ShflXor) with argument `arg` (srcLane, delta or laneMask, as unsigned bits) in groups of `width`
/// lanes (1, 2, 4, 8, 16 or 32): only the argument's low 5 bits count (33 acts as 1); shfl reads
/// lane arg modulo width of the lane's group; up reads lane - arg, down lane + arg, xor lane ^ arg,
/// where that lane lies in the lane's group (xor: or in an earlier one), else the lane's own.
template <WarpOp OP>
constexpr std::uint32_t shuffle_source(std::uint32_t lane, std::uint32_t arg, std::uint32_t width) {
  const std::uint32_t b = arg & 31u, first = lane & ~(width - 1), last = first + width - 1;
  if constexpr (OP == WarpOp::Shfl) {
    return first | (b & (width - 1));
  } else if constexpr (OP == WarpOp::ShflUp) {
    return lane - first >= b ? lane - b : lane;
  } else if constexpr (OP == WarpOp::ShflDown) {
    return lane + b <= last ? lane + b : lane;
  } else {
    return (lane ^ b) <= last ? lane ^ b : lane;
  }
}

/// The lane whose value lane `lane` receives from shuffle OP run by the lanes of `running` (bit l:
/// lane l runs the call): its shuffle_source where it runs the call, and a fault (undefined
/// behaviour) where that lane does not run it; a lane that does not run the call reads its own.
template <WarpOp OP>
constexpr std::uint32_t shuffle_read(std::uint32_t lane, std::uint32_t arg, std::uint32_t width,
                                     std::uint32_t running, bool& fault) {
  const bool runs = (running >> lane & 1u) != 0;
  const std::uint32_t source = shuffle_source<OP>(lane, arg, width);  // computed in every lane: no branch
  fault |= runs && (running >> source & 1u) == 0;
  return runs ? source : lane;
}
/// shuffle_read of the shuffle `op`.
constexpr std::uint32_t shuffle_read(WarpOp op, std::uint32_t lane, std::uint32_t arg, std::uint32_t width,
                                     std::uint32_t running, bool& fault) {
  switch (op) {
    case WarpOp::Shfl:
      return shuffle_read<WarpOp::Shfl>(lane, arg, width, running, fault);
    case WarpOp::ShflUp:
      return shuffle_read<WarpOp::ShflUp>(lane, arg, width, running, fault);
    case WarpOp::ShflDown:
      return shuffle_read<WarpOp::ShflDown>(lane, arg, width, running, fault);
    default:
      return shuffle_read<WarpOp::ShflXor>(lane, arg, width, running, fault);
  }
}

/// The lanes (bit l: lane l) that make a warp function's call undefined (CUDA C++ Programming Guide,
/// warp functions: "Each calling thread must have its own bit set in the mask and all non-exited
/// threads named in mask must execute the same intrinsic with the same mask"; PTX's bar.warp.sync
/// the same for __syncwarp), for a call run by the lanes of `running`, `present` the lanes that
/// exist and have not exited: `different` the running lanes whose mask names a running lane of
/// another mask, `outside` the running lanes their mask leaves out, `waiting` the lanes a running
/// lane's mask names that have not exited and do not run the call. Lanes of disjoint masks (two
/// tiles of 16, each naming its own) are defined.
struct WarpMaskFaults {
  std::uint32_t different, outside, waiting;
};

/// The rule where every running lane gives `mask`.
constexpr WarpMaskFaults warp_mask_faults(std::uint32_t mask, std::uint32_t running, std::uint32_t present) {
  return {0, running & ~mask, ~running & mask & present};
}

/// The rule for lane l's mask `masks[l]` (read for running lanes only).
inline WarpMaskFaults warp_mask_faults(const std::uint32_t* masks, std::uint32_t running,
                                       std::uint32_t present) {
  WarpMaskFaults f{0, 0, 0};
  for (std::uint32_t lanes = running; lanes != 0; lanes &= lanes - 1) {
    const int l = __builtin_ctz(lanes);
    const std::uint32_t mask = masks[l];
    const WarpMaskFaults own = warp_mask_faults(mask, running, present);
    f.outside |= own.outside & (1u << l);
    f.waiting |= own.waiting;
    for (std::uint32_t named = mask & running; named != 0; named &= named - 1)
      if (masks[__builtin_ctz(named)] != mask) f.different |= 1u << l;
  }
  return f;
}

/// A binary32 subnormal (bits) flushed to the zero of its sign; other values as they are.
inline std::uint32_t flush_subnormal(std::uint32_t bits) {
  return (bits & 0x7F800000u) == 0 ? bits & 0x80000000u : bits;
}

/// IEEE addition of an atomicAdd on a floating element, rounded to nearest even: PTX's
/// atom.add.f32 (without .noftz, as CUDA's atomicAdd(float *, float) compiles) flushes subnormal
/// inputs and results to sign-preserving zero on global memory and keeps them on shared memory;
/// atom.add.f64 keeps them (PTX ISA, "Parallel Synchronization and Communication Instructions:
/// atom").
inline std::uint64_t atomic_float_add(ScalarType type, std::uint64_t old, std::uint64_t x,
                                      AddressSpace space) {
  if (type == ScalarType::F64)
    return from_float<ScalarType::F64>(to_float<ScalarType::F64>(old) + to_float<ScalarType::F64>(x));
  if (space != AddressSpace::Global)
    return from_float<ScalarType::F32>(to_float<ScalarType::F32>(old) + to_float<ScalarType::F32>(x));
  const std::uint64_t a = flush_subnormal(static_cast<std::uint32_t>(old));
  const std::uint64_t b = flush_subnormal(static_cast<std::uint32_t>(x));
  return flush_subnormal(static_cast<std::uint32_t>(
      from_float<ScalarType::F32>(to_float<ScalarType::F32>(a) + to_float<ScalarType::F32>(b))));
}

/// The element after an atomic of `op` (AtomicOp; Other leaves it) with operand x on `old`, both
/// the low `bytes` bytes: min and max signed or not as `type`, add floating where `type` is; cas
/// stores x where old equals `compare` (bit for bit); the element in memory `space` (float add).
inline std::uint64_t atomic(AtomicOp op, ScalarType type, int bytes, std::uint64_t old, std::uint64_t x,
                            std::uint64_t compare, AddressSpace space) {
  const int bits = 8 * bytes;
  const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  old &= mask;
  x &= mask;
  compare &= mask;
  const auto as_signed = [&](std::uint64_t v) {
    return bits == 64 ? static_cast<std::int64_t>(v)
                      : static_cast<std::int64_t>(v << (64 - bits)) >> (64 - bits);
  };
  switch (op) {
    case AtomicOp::Add:
      return is_floating(type) ? atomic_float_add(type, old, x, space) : (old + x) & mask;
    case AtomicOp::Sub:
      return (old - x) & mask;
    case AtomicOp::And:
      return old & x;
    case AtomicOp::Or:
      return old | x;
    case AtomicOp::Xor:
      return old ^ x;
    case AtomicOp::Min:
      return (is_signed(type) ? as_signed(x) < as_signed(old) : x < old) ? x : old;
    case AtomicOp::Max:
      return (is_signed(type) ? as_signed(x) > as_signed(old) : x > old) ? x : old;
    case AtomicOp::Exch:
      return x;
    case AtomicOp::Cas:
      return old == compare ? x : old;
    case AtomicOp::Inc:
      return old >= x ? 0 : (old + 1) & mask;
    case AtomicOp::Dec:
      return old == 0 || old > x ? x : old - 1;
    case AtomicOp::Other:
      break;
  }
  return old;
}

}  // namespace warpdiv::sim::ir::ops
