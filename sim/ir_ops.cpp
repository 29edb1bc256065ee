#include "sim/ir_ops.hpp"

#include "sim/errors.hpp"

namespace warpdiv::sim::ir::ops {

namespace {

template <BinaryOp OP>
BinaryFn binary_for_type(ScalarType type) {
  switch (type) {
    case ScalarType::I32: return &binary<OP, ScalarType::I32>;
    case ScalarType::U32: return &binary<OP, ScalarType::U32>;
    case ScalarType::I64: return &binary<OP, ScalarType::I64>;
    case ScalarType::U64: return &binary<OP, ScalarType::U64>;
    case ScalarType::F32:
      if constexpr (floating_operator(OP)) return &binary<OP, ScalarType::F32>;
      break;
    case ScalarType::F64:
      if constexpr (floating_operator(OP)) return &binary<OP, ScalarType::F64>;
      break;
    default: break;
  }
  throw InvalidInput(Diag::model_invalid, "operator " + name(OP) + " on " + name(type) + " (allowed: int32, uint32, int64, uint64" +
                     (floating_operator(OP) ? ", float32, float64)" : ")"));
}

template <UnaryOp OP>
UnaryFn unary_for_type(ScalarType type) {
  if constexpr (OP == UnaryOp::Neg) {
    if (type == ScalarType::F32) return &unary<OP, ScalarType::F32>;
    if (type == ScalarType::F64) return &unary<OP, ScalarType::F64>;
  }
  switch (type) {
    case ScalarType::I32: return &unary<OP, ScalarType::I32>;
    case ScalarType::U32: return &unary<OP, ScalarType::U32>;
    case ScalarType::I64: return &unary<OP, ScalarType::I64>;
    case ScalarType::U64: return &unary<OP, ScalarType::U64>;
    default: break;
  }
  throw InvalidInput(Diag::model_invalid, "operator " + name(OP) + " on " + name(type) +
                     " (allowed: int32, uint32, int64, uint64)");
}

}  // namespace

BinaryFn binary_fn(BinaryOp op, ScalarType type) {
  switch (op) {
    case BinaryOp::Add: return binary_for_type<BinaryOp::Add>(type);
    case BinaryOp::Sub: return binary_for_type<BinaryOp::Sub>(type);
    case BinaryOp::Mul: return binary_for_type<BinaryOp::Mul>(type);
    case BinaryOp::Div: return binary_for_type<BinaryOp::Div>(type);
    case BinaryOp::Rem: return binary_for_type<BinaryOp::Rem>(type);
    case BinaryOp::Shl: return binary_for_type<BinaryOp::Shl>(type);
    case BinaryOp::Shr: return binary_for_type<BinaryOp::Shr>(type);
    case BinaryOp::BitAnd: return binary_for_type<BinaryOp::BitAnd>(type);
    case BinaryOp::BitOr: return binary_for_type<BinaryOp::BitOr>(type);
    case BinaryOp::BitXor: return binary_for_type<BinaryOp::BitXor>(type);
    case BinaryOp::Lt: return binary_for_type<BinaryOp::Lt>(type);
    case BinaryOp::Le: return binary_for_type<BinaryOp::Le>(type);
    case BinaryOp::Gt: return binary_for_type<BinaryOp::Gt>(type);
    case BinaryOp::Ge: return binary_for_type<BinaryOp::Ge>(type);
    case BinaryOp::Eq: return binary_for_type<BinaryOp::Eq>(type);
    case BinaryOp::Ne: return binary_for_type<BinaryOp::Ne>(type);
  }
  throw InvalidInput(Diag::model_invalid, "unknown binary operator");
}

UnaryFn unary_fn(UnaryOp op, ScalarType type) {
  switch (op) {
    case UnaryOp::Neg: return unary_for_type<UnaryOp::Neg>(type);
    case UnaryOp::BitNot: return unary_for_type<UnaryOp::BitNot>(type);
    case UnaryOp::LogicalNot: return &unary<UnaryOp::LogicalNot, ScalarType::Bool>;
  }
  throw InvalidInput(Diag::model_invalid, "unknown unary operator");
}

std::string describe_fault(BinaryOp op, ScalarType type, std::uint64_t a, std::uint64_t b) {
  const std::string where = " in '" + name(op) + "' (" + name(type) + ")";
  const int width = bit_width(type);
  switch (op) {
    case BinaryOp::Div:
    case BinaryOp::Rem:
      if (b == 0) return "division by zero" + where;
      return "overflow of the minimum value divided by -1" + where;
    case BinaryOp::Shl:
    case BinaryOp::Shr:
      if (b >= static_cast<std::uint64_t>(width))
        return "shift amount out of range 0.." + std::to_string(width - 1) + where;
      if (static_cast<std::int64_t>(a) < 0) return "left shift of a negative value" + where;
      return "left shift overflow" + where;
    default: return "signed overflow" + where;
  }
}

namespace {

// The value of `bits` of type `from` as a long double (exact for every integer and float type).
long double as_long_double(ScalarType from, std::uint64_t bits) {
  if (from == ScalarType::F32) return to_float<ScalarType::F32>(bits);
  if (from == ScalarType::F64) return to_float<ScalarType::F64>(bits);
  if (is_signed(from)) return static_cast<long double>(static_cast<std::int64_t>(bits));
  return static_cast<long double>(bits);
}

template <ScalarType T>
std::uint64_t to_floating(ScalarType from, std::uint64_t bits) {
  using F = FloatOf<T>;
  if (from == ScalarType::F32) return from_float<T>(static_cast<F>(to_float<ScalarType::F32>(bits)));
  if (from == ScalarType::F64) return from_float<T>(static_cast<F>(to_float<ScalarType::F64>(bits)));
  // One rounding from the exact integer (the host converts as cvt.rn does).
  if (is_signed(from)) return from_float<T>(static_cast<F>(static_cast<std::int64_t>(bits)));
  return from_float<T>(static_cast<F>(bits));
}

}  // namespace

std::uint64_t convert(ScalarType from, ScalarType to, std::uint64_t bits, bool& fault) {
  if (to == ScalarType::F32) return to_floating<ScalarType::F32>(from, bits);
  if (to == ScalarType::F64) return to_floating<ScalarType::F64>(from, bits);
  if (!is_floating(from)) return normalise(to, bits);
  const long double v = as_long_double(from, bits);
  if (to == ScalarType::Bool) return v != 0 ? 1 : 0;  // NaN != 0
  const long double t = std::trunc(v);
  if (!(t >= static_cast<long double>(min_of(to)) && t <= static_cast<long double>(max_of(to)))) {
    fault = true;
    return 0;
  }
  if (is_signed(to)) return normalise(to, static_cast<std::uint64_t>(static_cast<std::int64_t>(t)));
  return normalise(to, static_cast<std::uint64_t>(t));
}

std::string describe_conversion_fault(ScalarType from, ScalarType to, std::uint64_t bits) {
  return "conversion of " + to_string(Value{from, bits}) + " (" + name(from) + ") to " + name(to) +
         ", which holds " + range_text(to);
}

namespace {

template <ScalarType T>
std::uint64_t intrinsic_of(Intrinsic which, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const FloatOf<T> x = to_float<T>(a), y = to_float<T>(b), z = to_float<T>(c);
  switch (which) {
    case Intrinsic::Fma: return from_float<T>(std::fma(x, y, z));
    case Intrinsic::Fms: return from_float<T>(std::fma(x, y, -z));
    case Intrinsic::Fnma: return from_float<T>(std::fma(-x, y, z));
    case Intrinsic::Sqrt: return from_float<T>(std::sqrt(x));
    case Intrinsic::Fabs: return from_float<T>(std::fabs(x));
  }
  return 0;
}

}  // namespace

std::uint64_t intrinsic(Intrinsic which, ScalarType type, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return type == ScalarType::F32 ? intrinsic_of<ScalarType::F32>(which, a, b, c)
                                 : intrinsic_of<ScalarType::F64>(which, a, b, c);
}

std::string describe_fault(UnaryOp op, ScalarType type) {
  return "signed overflow in '" + name(op) + "' (" + name(type) + ")";
}

}  // namespace warpdiv::sim::ir::ops
