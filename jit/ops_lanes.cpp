// sim/model/ir_ops.hpp's semantics over a warp's 32 lanes, one function per operation and type of
// sim/model/ir_ops.def (names and signature: jit/ops_lanes.hpp). Not compiled into any target: clang++
// compiles it to LLVM bitcode at build time (jit/CMakeLists.txt), the plugin embeds the bitcode,
// and the native replay links it into every module it generates, whose code calls these
// functions; LLVM inlines them there. The loops are vectorised 32 lanes wide here, so that each
// function is straight-line vector code and the arrays it reads and writes become registers once
// it is inlined.
#include <cstdint>

#include "sim/model/ir_ops.hpp"

namespace {

using namespace warpdiv::sim::ir;
using Bits = std::uint64_t;
using Fault = std::uint8_t;
constexpr int kLanes = 32;

template <typename Op>
inline __attribute__((always_inline)) void lanes(Bits* __restrict r, Fault* __restrict fault, Op&& op) {
#pragma clang loop vectorize_width(32) interleave_count(1)
  for (int l = 0; l < kLanes; ++l) {
    bool f = false;
    r[l] = op(l, f);
    fault[l] = f;
  }
}

}  // namespace

#define WARPDIV_LANE_FUNCTION(name)                                                                  \
  extern "C" void name(const Bits* __restrict a, const Bits* __restrict b, const Bits* __restrict c, \
                       Bits* __restrict r, Fault* __restrict fault)

// Binary operators on the promoted and floating types (those an operator does not take are never
// called).
#define WARPDIV_BINARY_ON(Enum, T)                                                                    \
  WARPDIV_LANE_FUNCTION(warpdiv_binary_##Enum##_##T) {                                                \
    (void)c;                                                                                          \
    lanes(r, fault,                                                                                   \
          [&](int l, bool& f) { return ops::binary<BinaryOp::Enum, ScalarType::T>(a[l], b[l], f); }); \
  }
// clang-format off
#define WARPDIV_BINARY_OP(Enum, spelling, operands, fault, flops) \
  WARPDIV_BINARY_ON(Enum, I32) \
  WARPDIV_BINARY_ON(Enum, U32) \
  WARPDIV_BINARY_ON(Enum, I64) \
  WARPDIV_BINARY_ON(Enum, U64) \
  WARPDIV_BINARY_ON(Enum, F32) \
  WARPDIV_BINARY_ON(Enum, F64)
// clang-format on
#include "sim/model/ir_ops.def"

#define WARPDIV_UNARY_ON(Enum, T)                                                                       \
  WARPDIV_LANE_FUNCTION(warpdiv_unary_##Enum##_##T) {                                                   \
    (void)b, (void)c;                                                                                   \
    lanes(r, fault, [&](int l, bool& f) { return ops::unary<UnaryOp::Enum, ScalarType::T>(a[l], f); }); \
  }
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

#define WARPDIV_INTRINSIC_ON(Enum, T)                                             \
  WARPDIV_LANE_FUNCTION(warpdiv_intrinsic_##Enum##_##T) {                         \
    lanes(r, fault, [&](int l, bool&) {                                           \
      return ops::intrinsic_of<Intrinsic::Enum, ScalarType::T>(a[l], b[l], c[l]); \
    });                                                                           \
  }
// clang-format off
#define WARPDIV_INTRINSIC(Enum, name, operands, flops) \
  WARPDIV_INTRINSIC_ON(Enum, F32) \
  WARPDIV_INTRINSIC_ON(Enum, F64)
// clang-format on
#include "sim/model/ir_ops.def"

// Conversions from every type to every type.
#define WARPDIV_CONVERT(From, To)                                                                      \
  WARPDIV_LANE_FUNCTION(warpdiv_convert_##From##_##To) {                                               \
    (void)b, (void)c;                                                                                  \
    lanes(r, fault,                                                                                    \
          [&](int l, bool& f) { return ops::convert_to<ScalarType::From, ScalarType::To>(a[l], f); }); \
  }
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
