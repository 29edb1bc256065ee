// The names of jit/ops_lanes.cpp's lane functions (jit/ops_lanes.hpp), from sim/model/ir_ops.def.
#include "jit/ops_lanes.hpp"

#include "sim/model/ir_ops.hpp"

namespace warpdiv::jit::ops_lanes {

std::string type_id(ScalarType type) {
  switch (type) {
#define WARPDIV_SCALAR_TYPE(T) \
  case ScalarType::T:          \
    return #T;
    WARPDIV_SCALAR_TYPES
#undef WARPDIV_SCALAR_TYPE
  }
  return "?";
}

std::string binary(BinaryOp op, ScalarType type) {
  switch (op) {
#define WARPDIV_BINARY_OP(Enum, spelling, operands, fault, flops) \
  case BinaryOp::Enum:                                            \
    return "warpdiv_binary_" #Enum "_" + type_id(type);
#include "sim/model/ir_ops.def"
  }
  return "";
}

std::string unary(UnaryOp op, ScalarType type) {
  switch (op) {
#define WARPDIV_UNARY_OP(Enum, spelling, operands, fault) \
  case UnaryOp::Enum:                                     \
    return "warpdiv_unary_" #Enum "_" + type_id(type);
#include "sim/model/ir_ops.def"
  }
  return "";
}

std::string intrinsic(Intrinsic which, ScalarType type) {
  switch (which) {
#define WARPDIV_INTRINSIC(Enum, name, operands, flops) \
  case Intrinsic::Enum:                                \
    return "warpdiv_intrinsic_" #Enum "_" + type_id(type);
#include "sim/model/ir_ops.def"
  }
  return "";
}

std::string shuffle(WarpOp op) {
  switch (op) {
#define WARPDIV_WARP_OP(Enum, name, operands) \
  case WarpOp::Enum:                          \
    return "warpdiv_shuffle_" #Enum;
#include "sim/model/ir_ops.def"
  }
  return "";
}

std::string convert(ScalarType from, ScalarType to) {
  return "warpdiv_convert_" + type_id(from) + "_" + type_id(to);
}

}  // namespace warpdiv::jit::ops_lanes
