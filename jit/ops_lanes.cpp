// sim/model/ir_ops.hpp's semantics over a warp's 32 lanes, one function per operation and type of
// sim/model/ir_ops.def (names and signature: jit/ops_lanes.hpp). Not compiled into any target: clang++
// compiles it to LLVM bitcode at build time (jit/CMakeLists.txt), the plugin embeds the bitcode,
// and the native replay links it into every module it generates, whose code calls these
// functions; LLVM inlines them there. The loops are vectorised 32 lanes wide here, so that each
// function is straight-line vector code and the arrays it reads and writes become registers once
// it is inlined. The arrays hold each value in its type's width (Stored), so that the inlined
// code computes in the width the kernel does: a 32-bit operation on <32 x i32>, not on 64-bit
// normalised bits that the optimiser must narrow again.
#include <cstdint>
#include <type_traits>

#include "sim/model/ir_ops.hpp"

namespace {

using namespace warpdiv::sim::ir;
using Fault = std::uint8_t;
constexpr int kLanes = 32;

// A value of type T as the arrays hold it: its normalised bits cut to T's width (bool: 0 or 1 in
// a byte). ops::wrap<T> restores the normalised 64-bit value.
template <ScalarType T>
using Stored = std::conditional_t<
    ops::kBits<T> <= 8, std::uint8_t,
    std::conditional_t<ops::kBits<T> == 16, std::uint16_t,
                       std::conditional_t<ops::kBits<T> == 32, std::uint32_t, std::uint64_t>>>;

// r[l] = op(a[l], b[l], c[l], fault) on normalised bits, a and c of type A, b of type B, the
// result of type R.
template <ScalarType A, ScalarType B, ScalarType R, typename Op>
inline __attribute__((always_inline)) void lanes(const void* __restrict a, const void* __restrict b,
                                                 const void* __restrict c, void* __restrict r,
                                                 Fault* __restrict fault, Op&& op) {
  const auto* x = static_cast<const Stored<A>*>(a);
  const auto* y = static_cast<const Stored<B>*>(b);
  const auto* z = static_cast<const Stored<A>*>(c);
  auto* out = static_cast<Stored<R>*>(r);
#pragma clang loop vectorize_width(32) interleave_count(1)
  for (int l = 0; l < kLanes; ++l) {
    bool f = false;
    out[l] = static_cast<Stored<R>>(op(ops::wrap<A>(std::uint64_t{x[l]}), ops::wrap<B>(std::uint64_t{y[l]}),
                                       ops::wrap<A>(std::uint64_t{z[l]}), f));
    fault[l] = f;
  }
}

}  // namespace

#define WARPDIV_LANE_FUNCTION(name)                                                                  \
  extern "C" void name(const void* __restrict a, const void* __restrict b, const void* __restrict c, \
                       void* __restrict r, Fault* __restrict fault)

// Binary operators on the promoted and floating types (those an operator does not take are never
// called): a shift's amount as normalised 64-bit bits (of any promoted type), a comparison's
// result a bool.
#define WARPDIV_BINARY_ON(Enum, T, operands)                                                   \
  WARPDIV_LANE_FUNCTION(warpdiv_binary_##Enum##_##T) {                                         \
    constexpr bool shift = BinaryOp::Enum == BinaryOp::Shl || BinaryOp::Enum == BinaryOp::Shr; \
    constexpr bool comparison = OperandClass::operands == OperandClass::Comparison;            \
    lanes<ScalarType::T, shift ? ScalarType::U64 : ScalarType::T,                              \
          comparison ? ScalarType::Bool : ScalarType::T>(                                      \
        a, b, c, r, fault, [](std::uint64_t x, std::uint64_t y, std::uint64_t, bool& f) {      \
          return ops::binary<BinaryOp::Enum, ScalarType::T>(x, y, f);                          \
        });                                                                                    \
  }
// clang-format off
#define WARPDIV_BINARY_OP(Enum, spelling, operands, fault, flops) \
  WARPDIV_BINARY_ON(Enum, I32, operands) \
  WARPDIV_BINARY_ON(Enum, U32, operands) \
  WARPDIV_BINARY_ON(Enum, I64, operands) \
  WARPDIV_BINARY_ON(Enum, U64, operands) \
  WARPDIV_BINARY_ON(Enum, F32, operands) \
  WARPDIV_BINARY_ON(Enum, F64, operands)
// clang-format on
#include "sim/model/ir_ops.def"

// A lane function of one operand x of type A, its result `value` (of x and the fault f) of type R.
#define WARPDIV_ONE_OPERAND(name, A, R, value)                                                            \
  WARPDIV_LANE_FUNCTION(name) {                                                                           \
    lanes<ScalarType::A, ScalarType::A, ScalarType::R>(                                                   \
        a, b, c, r, fault, [](std::uint64_t x, std::uint64_t, std::uint64_t, bool& f) { return value; }); \
  }

#define WARPDIV_UNARY_ON(Enum, T) \
  WARPDIV_ONE_OPERAND(warpdiv_unary_##Enum##_##T, T, T, (ops::unary<UnaryOp::Enum, ScalarType::T>(x, f)))
// clang-format off
#define WARPDIV_UNARY_OP(Enum, spelling, operands, fault) \
  WARPDIV_UNARY_ON(Enum, Bool) \
  WARPDIV_UNARY_ON(Enum, I32) \
  WARPDIV_UNARY_ON(Enum, U32) \
  WARPDIV_UNARY_ON(Enum, I64) \
  WARPDIV_UNARY_ON(Enum, U64) \
  WARPDIV_UNARY_ON(Enum, F32) \
  WARPDIV_UNARY_ON(Enum, F64)
// clang-format on
#include "sim/model/ir_ops.def"

#define WARPDIV_INTRINSIC_ON(Enum, T)                                                     \
  WARPDIV_LANE_FUNCTION(warpdiv_intrinsic_##Enum##_##T) {                                 \
    lanes<ScalarType::T, ScalarType::T, ScalarType::T>(                                   \
        a, b, c, r, fault, [](std::uint64_t x, std::uint64_t y, std::uint64_t z, bool&) { \
          return ops::intrinsic_of<Intrinsic::Enum, ScalarType::T>(x, y, z);              \
        });                                                                               \
  }
// clang-format off
#define WARPDIV_INTRINSIC(Enum, name, operands, flops) \
  WARPDIV_INTRINSIC_ON(Enum, F32) \
  WARPDIV_INTRINSIC_ON(Enum, F64)
// clang-format on
#include "sim/model/ir_ops.def"

// Conversions from every type to every type.
#define WARPDIV_CONVERT(From, To)                              \
  WARPDIV_ONE_OPERAND(warpdiv_convert_##From##_##To, From, To, \
                      (ops::convert_to<ScalarType::From, ScalarType::To>(x, f)))
// clang-format off
#define WARPDIV_CONVERT_FROM(From) \
  WARPDIV_CONVERT(From, Bool) \
  WARPDIV_CONVERT(From, I8) \
  WARPDIV_CONVERT(From, U8) \
  WARPDIV_CONVERT(From, I16) \
  WARPDIV_CONVERT(From, U16) \
  WARPDIV_CONVERT(From, I32) \
  WARPDIV_CONVERT(From, U32) \
  WARPDIV_CONVERT(From, I64) \
  WARPDIV_CONVERT(From, U64) \
  WARPDIV_CONVERT(From, F32) \
  WARPDIV_CONVERT(From, F64)
// clang-format on
#define WARPDIV_SCALAR_TYPE(T) WARPDIV_CONVERT_FROM(T)
WARPDIV_SCALAR_TYPES
#undef WARPDIV_SCALAR_TYPE

// Warp functions (sim/model/ir_ops.hpp: ops::shuffle_read, ops::warp_mask_faults). A shuffle's
// operands are uint32, each lane with its number: r[l] = op(l, a[l], b[l], c[l], fault).
namespace {

template <typename Op>
inline __attribute__((always_inline)) void numbered_lanes(const void* __restrict a, const void* __restrict b,
                                                          const void* __restrict c, void* __restrict r,
                                                          Fault* __restrict fault, Op&& op) {
  const auto* x = static_cast<const std::uint32_t*>(a);
  const auto* y = static_cast<const std::uint32_t*>(b);
  const auto* z = static_cast<const std::uint32_t*>(c);
  auto* out = static_cast<std::uint32_t*>(r);
#pragma clang loop vectorize_width(32) interleave_count(1)
  for (int l = 0; l < kLanes; ++l) {
    bool f = false;
    out[l] = op(static_cast<std::uint32_t>(l), x[l], y[l], z[l], f);
    fault[l] = f;
  }
}

}  // namespace

// A shuffle: a its argument (srcLane, delta or laneMask), b its width, c the lanes running the call
// (each the same in every lane); r the lane each lane reads, fault where that lane does not run it.
#define WARPDIV_SHUFFLE(Enum)                                                                              \
  WARPDIV_LANE_FUNCTION(warpdiv_shuffle_##Enum) {                                                          \
    numbered_lanes(a, b, c, r, fault,                                                                      \
                   [](std::uint32_t lane, std::uint32_t arg, std::uint32_t width, std::uint32_t running,   \
                      bool& f) { return ops::shuffle_read<WarpOp::Enum>(lane, arg, width, running, f); }); \
  }
WARPDIV_SHUFFLE(Shfl)
WARPDIV_SHUFFLE(ShflUp)
WARPDIV_SHUFFLE(ShflDown)
WARPDIV_SHUFFLE(ShflXor)

// A warp function's mask: a each lane's mask operand, b the lanes running the call, c the lanes that
// exist and have not exited (each the same in every lane); r the lowest running lane's mask, fault
// where ops::warp_mask_faults finds one, or where a running lane gives another mask. The masks are gathered
// by reductions over the lanes, not read from one lane, so that the function stays whole vectors.
WARPDIV_LANE_FUNCTION(warpdiv_warp_mask) {
  const auto* given = static_cast<const std::uint32_t*>(a);
  const auto* running = static_cast<const std::uint32_t*>(b);
  const auto* present = static_cast<const std::uint32_t*>(c);
  std::uint32_t mask = 0, runs = 0, exists = 0;
#pragma clang loop vectorize_width(32) interleave_count(1)
  for (int l = 0; l < kLanes; ++l) {
    const std::uint32_t own = given[l], one = 1u << l;           // read in every lane: no branch
    const bool lowest = (running[l] & ((2u << l) - 1u)) == one;  // it runs, no lower lane does
    mask |= own & (0u - static_cast<std::uint32_t>(lowest));
    runs |= running[l] & one;
    exists |= present[l] & one;
  }
  std::uint32_t differs = 0;
#pragma clang loop vectorize_width(32) interleave_count(1)
  for (int l = 0; l < kLanes; ++l) differs |= static_cast<std::uint32_t>(given[l] != mask) << l;
  // Running lanes of masks other than the lowest's are handed over with the faults: the
  // interpreter tells disjoint masks (defined) from overlapping ones.
  const ops::WarpMaskFaults f = ops::warp_mask_faults(mask, runs, exists);
  const std::uint32_t bad = (runs & differs) | f.outside | f.waiting;
  auto* out = static_cast<std::uint32_t*>(r);
#pragma clang loop vectorize_width(32) interleave_count(1)
  for (int l = 0; l < kLanes; ++l) {
    out[l] = mask;
    fault[l] = static_cast<Fault>(bad >> l & 1u);
  }
}
