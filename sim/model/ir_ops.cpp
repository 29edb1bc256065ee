#include "sim/model/ir_ops.hpp"

#include <type_traits>

#include "sim/support/errors.hpp"

namespace warpdiv::sim::ir::ops {

namespace {

template <BinaryOp OP>
BinaryFn binary_for_type(ScalarType type) {
  switch (type) {
    case ScalarType::I32:
      return &binary<OP, ScalarType::I32>;
    case ScalarType::U32:
      return &binary<OP, ScalarType::U32>;
    case ScalarType::I64:
      return &binary<OP, ScalarType::I64>;
    case ScalarType::U64:
      return &binary<OP, ScalarType::U64>;
    case ScalarType::F32:
      if constexpr (floating_operator(OP)) return &binary<OP, ScalarType::F32>;
      break;
    case ScalarType::F64:
      if constexpr (floating_operator(OP)) return &binary<OP, ScalarType::F64>;
      break;
    default:
      break;
  }
  throw InvalidInput(Diag::model_invalid, "operator " + name(OP) + " on " + name(type) +
                                              " (allowed: int32, uint32, int64, uint64" +
                                              (floating_operator(OP) ? ", float32, float64)" : ")"));
}

template <UnaryOp OP>
UnaryFn unary_for_promoted(ScalarType type) {
  if constexpr (OP == UnaryOp::Neg) {
    if (type == ScalarType::F32) return &unary<OP, ScalarType::F32>;
    if (type == ScalarType::F64) return &unary<OP, ScalarType::F64>;
  }
  switch (type) {
    case ScalarType::I32:
      return &unary<OP, ScalarType::I32>;
    case ScalarType::U32:
      return &unary<OP, ScalarType::U32>;
    case ScalarType::I64:
      return &unary<OP, ScalarType::I64>;
    case ScalarType::U64:
      return &unary<OP, ScalarType::U64>;
    default:
      break;
  }
  throw InvalidInput(Diag::model_invalid, "operator " + name(OP) + " on " + name(type) +
                                              " (allowed: int32, uint32, int64, uint64)");
}

template <UnaryOp OP>
UnaryFn unary_for_type(ScalarType type) {
  if constexpr (OP == UnaryOp::LogicalNot) {
    return &unary<OP, ScalarType::Bool>;
  } else {
    return unary_for_promoted<OP>(type);
  }
}

}  // namespace

BinaryFn binary_fn(BinaryOp op, ScalarType type) {
  switch (op) {
#define WARPDIV_BINARY_OP(Enum, spelling, operands, fault, flops) \
  case BinaryOp::Enum:                                            \
    return binary_for_type<BinaryOp::Enum>(type);
#include "sim/model/ir_ops.def"
  }
  throw InvalidInput(Diag::model_invalid, "unknown binary operator");
}

UnaryFn unary_fn(UnaryOp op, ScalarType type) {
  switch (op) {
#define WARPDIV_UNARY_OP(Enum, spelling, operands, fault) \
  case UnaryOp::Enum:                                     \
    return unary_for_type<UnaryOp::Enum>(type);
#include "sim/model/ir_ops.def"
  }
  throw InvalidInput(Diag::model_invalid, "unknown unary operator");
}

std::string describe_fault(BinaryOp op, ScalarType type, std::uint64_t a, std::uint64_t b) {
  const std::string where = " in '" + name(op) + "' (" + name(type) + ")";
  const int width = bit_width(type);
  switch (fault_rule(op)) {
    case FaultRule::Division:
      if (b == 0) return "division by zero" + where;
      return "overflow of the minimum value divided by -1" + where;
    case FaultRule::Shift:
      if (b >= static_cast<std::uint64_t>(width))
        return "shift amount out of range 0.." + std::to_string(width - 1) + where;
      if (static_cast<std::int64_t>(a) < 0) return "left shift of a negative value" + where;
      return "left shift overflow" + where;
    case FaultRule::SignedOverflow:
    case FaultRule::None:
      break;
  }
  return "signed overflow" + where;
}

namespace {

// f(std::integral_constant<ScalarType, t>) for the type t.
template <typename F>
std::uint64_t with_type(ScalarType t, F&& f) {
  switch (t) {
#define WARPDIV_SCALAR_TYPE(T) \
  case ScalarType::T:          \
    return f(std::integral_constant<ScalarType, ScalarType::T>{});
    WARPDIV_SCALAR_TYPES
#undef WARPDIV_SCALAR_TYPE
  }
  return 0;
}

}  // namespace

std::uint64_t convert(ScalarType from, ScalarType to, std::uint64_t bits, bool& fault) {
  return with_type(from, [&](auto f) {
    return with_type(to,
                     [&](auto t) { return convert_to<decltype(f)::value, decltype(t)::value>(bits, fault); });
  });
}

std::string describe_conversion_fault(ScalarType from, ScalarType to, std::uint64_t bits) {
  return "conversion of " + to_string(Value{from, bits}) + " (" + name(from) + ") to " + name(to) +
         ", which holds " + range_text(to);
}

std::uint64_t intrinsic(Intrinsic which, ScalarType type, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const auto of = [&](auto t) -> std::uint64_t {
    constexpr ScalarType T = decltype(t)::value;
    switch (which) {
#define WARPDIV_INTRINSIC(Enum, name, operands, flops) \
  case Intrinsic::Enum:                                \
    return intrinsic_of<Intrinsic::Enum, T>(a, b, c);
#include "sim/model/ir_ops.def"
    }
    return 0;
  };
  return type == ScalarType::F32 ? of(std::integral_constant<ScalarType, ScalarType::F32>{})
                                 : of(std::integral_constant<ScalarType, ScalarType::F64>{});
}

std::string describe_fault(UnaryOp op, ScalarType type) {
  return "signed overflow in '" + name(op) + "' (" + name(type) + ")";
}

}  // namespace warpdiv::sim::ir::ops
