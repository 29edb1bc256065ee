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
    default: break;
  }
  throw InvalidInput("operator " + name(OP) + " on " + name(type) +
                     " (allowed: int32, uint32, int64, uint64)");
}

template <UnaryOp OP>
UnaryFn unary_for_type(ScalarType type) {
  switch (type) {
    case ScalarType::I32: return &unary<OP, ScalarType::I32>;
    case ScalarType::U32: return &unary<OP, ScalarType::U32>;
    case ScalarType::I64: return &unary<OP, ScalarType::I64>;
    case ScalarType::U64: return &unary<OP, ScalarType::U64>;
    default: break;
  }
  throw InvalidInput("operator " + name(OP) + " on " + name(type) +
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
  throw InvalidInput("unknown binary operator");
}

UnaryFn unary_fn(UnaryOp op, ScalarType type) {
  switch (op) {
    case UnaryOp::Neg: return unary_for_type<UnaryOp::Neg>(type);
    case UnaryOp::BitNot: return unary_for_type<UnaryOp::BitNot>(type);
    case UnaryOp::LogicalNot: return &unary<UnaryOp::LogicalNot, ScalarType::Bool>;
  }
  throw InvalidInput("unknown unary operator");
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

std::string describe_fault(UnaryOp op, ScalarType type) {
  return "signed overflow in '" + name(op) + "' (" + name(type) + ")";
}

}  // namespace warpdiv::sim::ir::ops
