// The names of the lane functions of jit/ops_lanes.cpp: sim/model/ir_ops.hpp's semantics over a warp's 32
// lanes, compiled to LLVM bitcode at build time and called by the generated code
// (jit/native_codegen.cpp). Each has the signature
//   void (const void* a, const void* b, const void* c, void* result, uint8_t* fault)
// over arrays of 32 values, each in its type's width (a normalised value cut to it: int32 and
// float as 32 bits, bool as a byte 0 or 1; a shift's amount as normalised 64-bit bits), operands
// a, b, c as the operation takes them (an operand it does not take is ignored): result[l] = the
// operation on lane l's operands, fault[l] = 1 where that is undefined behaviour
// (sim/model/ir_ops.hpp's `fault`), else 0. Private to jit/.
#pragma once

#include <string>

#include "sim/model/ir.hpp"

namespace warpdiv::jit::ops_lanes {

using sim::ir::BinaryOp;
using sim::ir::Intrinsic;
using sim::ir::ScalarType;
using sim::ir::UnaryOp;
using sim::ir::WarpOp;

/// "I32", "F64", ...: the ScalarType's enumerator.
std::string type_id(ScalarType type);
/// a OP b for operands of type `type` (a shift's right operand: normalised bits of its own type).
std::string binary(BinaryOp op, ScalarType type);
/// OP a for an operand of type `type` (!: bool).
std::string unary(UnaryOp op, ScalarType type);
/// The intrinsic on operands of floating `type`.
std::string intrinsic(Intrinsic which, ScalarType type);
/// C's conversion from `from` to `to`.
std::string convert(ScalarType from, ScalarType to);

// Warp functions, over uint32 arrays whose b and c hold one value in every lane:
/// Shuffle `op` (Shfl .. ShflXor; sim/model/ir_ops.hpp's ops::shuffle_read): a its argument
/// (srcLane, delta or laneMask), b its width, c the lanes running the call; result[l] the lane
/// whose value lane l receives, fault[l] = 1 where that lane does not run the call.
std::string shuffle(WarpOp op);
/// A warp function's mask (ops::warp_mask_faults): a each lane's mask operand, b the lanes running
/// the call, c the lanes that exist and have not exited; result[l] the lowest running lane's mask,
/// fault[l] = 1 where the lane breaks CUDA's rule.
constexpr const char* kWarpMask = "warpdiv_warp_mask";

}  // namespace warpdiv::jit::ops_lanes
