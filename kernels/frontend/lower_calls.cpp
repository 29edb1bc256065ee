// Calls: the CUDA built-ins (recognised through the table of lower_builtins.def), and the calls of
// __device__ functions the model inlines (run before the statement that makes them).
#include "kernels/frontend/lowerer.hpp"

#include <clang/Basic/TargetBuiltins.h>

#include <functional>

namespace warpdiv::frontend::detail::lowering {

/// __syncthreads(): the prelude's, or Clang's builtin (the toolkit route: matched by its
/// builtin ID, as the implicit declaration sits wherever it was first used).
bool Lowerer::is_syncthreads(const clang::FunctionDecl* callee) const {
  if (callee->getBuiltinID() == clang::NVPTX::BI__syncthreads) return true;
  return callee->getNameAsString() == "__syncthreads" && is_cuda_api(callee);
}

/// threadIdx.x ... gridDim.z: `field` of a launch built-in named by `base`, or nullopt.
std::optional<ir::Builtin> Lowerer::launch_builtin(const clang::Expr* base, const std::string& field) const {
  base = base->IgnoreParenImpCasts();
  if (const auto* value = llvm::dyn_cast<clang::OpaqueValueExpr>(base))  // a property's base
    base = value->getSourceExpr() != nullptr ? value->getSourceExpr()->IgnoreParenImpCasts() : base;
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(base);
  if (ref == nullptr) return std::nullopt;
  const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
  if (var == nullptr || !is_cuda_api(var)) return std::nullopt;
  static const std::map<std::string, ir::Builtin> builtins = {
      {"threadIdx.x", ir::Builtin::ThreadIdxX}, {"threadIdx.y", ir::Builtin::ThreadIdxY},
      {"threadIdx.z", ir::Builtin::ThreadIdxZ}, {"blockIdx.x", ir::Builtin::BlockIdxX},
      {"blockIdx.y", ir::Builtin::BlockIdxY},   {"blockIdx.z", ir::Builtin::BlockIdxZ},
      {"blockDim.x", ir::Builtin::BlockDimX},   {"blockDim.y", ir::Builtin::BlockDimY},
      {"blockDim.z", ir::Builtin::BlockDimZ},   {"gridDim.x", ir::Builtin::GridDimX},
      {"gridDim.y", ir::Builtin::GridDimY},     {"gridDim.z", ir::Builtin::GridDimZ}};
  const auto found = builtins.find(var->getNameAsString() + "." + field);
  if (found == builtins.end()) return std::nullopt;
  return found->second;
}

/// A function the model follows: defined in the source (not the prelude, not a system header).
bool Lowerer::inlinable(const clang::FunctionDecl* callee) const {
  return !in_prelude(callee) &&
         !sources_.isInSystemHeader(sources_.getExpansionLoc(callee->getLocation()));
}

void Lowerer::check_callee(const clang::CallExpr* call, const clang::FunctionDecl* callee) {
  if (llvm::isa<clang::CUDAKernelCallExpr>(call))
    refuse(call, "launching a kernel from a kernel (dynamic parallelism) is not supported");
  check_function(call, callee);
}

void Lowerer::check_function(const clang::Expr* call, const clang::FunctionDecl* callee) {
  const clang::FunctionDecl* definition = nullptr;
  if (!callee->hasBody(definition))
    refuse(call, "'" + callee->getNameAsString() +
                     "' has no body in this file: the model "
                     "cannot follow the call");
  if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(callee);
      method != nullptr && method->isVirtual())
    refuse(call, "calling the virtual function '" + callee->getNameAsString() +
                     "' is not supported: the model cannot tell which override runs");
  for (const clang::FunctionDecl* active : call_stack_) {
    if (active == definition)
      refuse(call,
             "recursion is not supported: '" + callee->getNameAsString() + "' calls itself");
  }
}

ir::ExprId Lowerer::lower_call(const clang::CallExpr* call, ir::ScalarType type) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  const ir::SourceRange where = range(call);
  if (callee == nullptr) refuse(call, "a call through a function pointer is not supported");
  // A constexpr call with constant arguments (ceil_div(100, 16), numeric_limits<int>::max()) is
  // a constant, as the compiler folds it.
  if (callee->isConstexpr()) {  // EvaluateAsInt refuses side effects itself
    clang::Expr::EvalResult result;
    if (call->EvaluateAsInt(result, context_)) return constant(type, result.Val.getInt(), where);
  }
  if (in_group_namespace(callee)) return lower_group_query(call, type);
  const std::string qualified = callee->getQualifiedNameAsString();
  const bool std_min_max = qualified == "std::min" || qualified == "std::max";
  if (is_cuda_api(callee) || std_min_max) {
    const std::string name = callee->getNameAsString();
    if (name == "__syncthreads_count" || name == "__syncthreads_and" ||
        name == "__syncthreads_or")
      refuse(call, name + " is not supported: the model has no barrier that returns a value");
    if (const auto math = math_function(call, name)) return convert(*math, type, where);
    if (const auto warp = warp_function(call, name)) return convert(*warp, type, where);
    const auto integer_type = [](clang::QualType t) {
      const auto scalar = scalar_type(t);
      return scalar && !ir::is_floating(*scalar);
    };
    const bool integers = call->getNumArgs() > 0 && integer_type(callee->getParamDecl(0)->getType());
    static const std::set<std::string> minimum = {"min", "umin", "llmin", "ullmin"};
    static const std::set<std::string> maximum = {"max", "umax", "llmax", "ullmax"};
    const auto result_type = scalar_type(callee->getReturnType());
    if ((minimum.count(name) != 0 || maximum.count(name) != 0) && integers && result_type &&
        call->getNumArgs() == 2 && integer_type(callee->getParamDecl(1)->getType())) {
      NoHoist no_hoist(*this, "an argument of min or max");
      const ir::BinaryOp compare = minimum.count(name) != 0 ? ir::BinaryOp::Lt : ir::BinaryOp::Gt;
      // a < b ? a : b, both converted to the result type first as math_functions.hpp does
      // (min(int, unsigned) compares as unsigned); each argument is lowered twice (the model
      // is a tree).
      const auto argument = [&](unsigned i) {
        return convert(lower_int(call->getArg(i)), *result_type, where);
      };
      const ir::ExprId test = k_.binary(compare, argument(0), argument(1), where);
      const ir::ExprId a = argument(0);
      const ir::ExprId b = argument(1);
      return convert(k_.select(test, a, b, where), type, where);
    }
    if ((name == "__popc" || name == "__popcll" || name == "__ffs" || name == "__ffsll") &&
        integers && call->getNumArgs() == 1)
      return convert(bit_count(call, name), type, where);
    if ((name == "__umul24" || name == "__mul24") && integers && call->getNumArgs() == 2)
      return convert(multiply_24(call, name == "__mul24"), type, where);
    if ((name == "abs" || name == "llabs") && integers && call->getNumArgs() == 1) {
      NoHoist no_hoist(*this, "an argument of abs");
      const ir::ExprId x = lower_int(call->getArg(0));
      const ir::ExprId negative =
          k_.binary(ir::BinaryOp::Lt, x, k_.constant(type, 0, where), where);
      const ir::ExprId minus = k_.unary(ir::UnaryOp::Neg, lower_int(call->getArg(0)), where);
      return k_.select(negative, minus, lower_int(call->getArg(0)), where);
    }
    return opaque(call,
                  type);  // atomics, __popc, __ballot_sync ...: values the model does not compute
  }
  if (!inlinable(callee)) return opaque(call, type);  // a system header's function
  check_callee(call, callee);
  const ir::LocalId result = k_.add_local(callee->getNameAsString() + "()", type, where);
  hoist(call, inline_call(call, callee, result));
  return k_.local(result, where);
}

/// __shfl_sync and its up/down/xor forms (of a scalar, with a constant width), __ballot_sync,
/// __any_sync, __all_sync, __activemask: a Warp expression; nullopt for anything else.
std::optional<ir::ExprId> Lowerer::warp_function(const clang::CallExpr* call, const std::string& name) {
  static const std::map<std::string, ir::WarpOp> functions = {
      {"__shfl_sync", ir::WarpOp::Shfl},       {"__shfl_up_sync", ir::WarpOp::ShflUp},
      {"__shfl_down_sync", ir::WarpOp::ShflDown}, {"__shfl_xor_sync", ir::WarpOp::ShflXor},
      {"__ballot_sync", ir::WarpOp::Ballot},    {"__any_sync", ir::WarpOp::Any},
      {"__all_sync", ir::WarpOp::All},          {"__activemask", ir::WarpOp::ActiveMask}};
  const auto found = functions.find(name);
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (found == functions.end() || callee == nullptr) return std::nullopt;
  const ir::WarpOp op = found->second;
  const ir::SourceRange where = range(call);
  const unsigned n = static_cast<unsigned>(ir::operand_count(op));
  if (call->getNumArgs() < n) return std::nullopt;
  NoHoist no_hoist(*this, "an argument of a warp function");
  std::vector<ir::ExprId> operands;
  if (n > 0) operands.push_back(convert(lower_int(call->getArg(0)), ir::ScalarType::U32, where));
  int width = 32;
  if (op <= ir::WarpOp::ShflXor) {
    const auto value_type = scalar_type(callee->getParamDecl(1)->getType());
    if (!value_type || *value_type == ir::ScalarType::Bool) return std::nullopt;
    if (call->getNumArgs() >= 4) {
      clang::Expr::EvalResult result;
      if (!call->getArg(3)->EvaluateAsInt(result, context_)) return std::nullopt;  // a width not known
      width = static_cast<int>(result.Val.getInt().getExtValue());
      if (width < 1 || width > 32 || (width & (width - 1)) != 0)
        refuse(call, "the shuffle's width " + std::to_string(width) + " is not a power of two from 1 to 32");
    }
    operands.push_back(convert(lower_int(call->getArg(1)), *value_type, where));
    operands.push_back(convert(lower_int(call->getArg(2)), ir::ScalarType::I32, where));
  } else if (n == 2) {
    operands.push_back(convert(lower_int(call->getArg(1)), ir::ScalarType::Bool, where));
  }
  return k_.warp(op, operands, width, where);
}

/// The math functions the GPU computes correctly rounded under nvcc's default flags (sqrtf with
/// -prec-sqrt=true, fmaf, fabsf, and their double forms): an Intrinsic. Others (expf, sinf,
/// __expf ...) are not correctly rounded on the GPU: nullopt (an opaque value; a branch on it is
/// refused).
std::optional<ir::ExprId> Lowerer::math_function(const clang::CallExpr* call, const std::string& name) {
  static const std::map<std::string, ir::Intrinsic> functions = {
      {"fmaf", ir::Intrinsic::Fma},        {"fma", ir::Intrinsic::Fma},
      {"__fmaf_rn", ir::Intrinsic::Fma},   {"__fma_rn", ir::Intrinsic::Fma},
      {"sqrtf", ir::Intrinsic::Sqrt},      {"sqrt", ir::Intrinsic::Sqrt},
      {"__fsqrt_rn", ir::Intrinsic::Sqrt}, {"__dsqrt_rn", ir::Intrinsic::Sqrt},
      {"fabsf", ir::Intrinsic::Fabs},      {"fabs", ir::Intrinsic::Fabs}};
  const auto found = functions.find(name);
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (found == functions.end() || callee == nullptr) return std::nullopt;
  const auto result = scalar_type(callee->getReturnType());
  const unsigned n = static_cast<unsigned>(ir::operand_count(found->second));
  if (!result || !ir::is_floating(*result) || call->getNumArgs() != n || callee->getNumParams() != n)
    return std::nullopt;
  const ir::SourceRange where = range(call);
  std::vector<ir::ExprId> operands;
  for (unsigned i = 0; i < n; ++i) {
    if (scalar_type(callee->getParamDecl(i)->getType()) != result) return std::nullopt;
    operands.push_back(convert(lower_int(call->getArg(i)), *result, where));
  }
  if (found->second == ir::Intrinsic::Fma) count_flops(2);
  return k_.intrinsic(found->second, operands, where);
}

/// __umul24(x, y) / __mul24(x, y): the low 32 bits of the product of the arguments' low 24
/// bits, taken as unsigned / signed (sign-extended from bit 23), as the CUDA math API defines
/// them. Computed in 64 bits, where the product of two 24-bit values cannot overflow.
ir::ExprId Lowerer::multiply_24(const clang::CallExpr* call, bool is_signed) {
  using ir::BinaryOp;
  const ir::SourceRange where = range(call);
  NoHoist no_hoist(*this, "an argument of __mul24");
  const ir::ScalarType wide = is_signed ? ir::ScalarType::I64 : ir::ScalarType::U64;
  const auto low_bits = [&](unsigned i) {  // arg & 0xFFFFFF, widened
    const ir::ExprId arg = convert(lower_int(call->getArg(i)), ir::ScalarType::U32, where);
    const ir::ExprId masked = k_.binary(BinaryOp::BitAnd, arg,
                                        k_.constant(ir::ScalarType::U32, 0xFFFFFF, where), where);
    return convert(masked, wide, where);
  };
  const auto operand = [&](unsigned i) {
    if (!is_signed) return low_bits(i);
    // v - 2 * (v & 0x800000): bit 23 set means v - 2^24.
    const ir::ExprId sign = k_.binary(BinaryOp::BitAnd, low_bits(i),
                                      k_.constant(wide, 0x800000, where), where);
    return k_.binary(BinaryOp::Sub, low_bits(i),
                     k_.binary(BinaryOp::Mul, k_.constant(wide, 2, where), sign, where), where);
  };
  const ir::ExprId product = k_.binary(BinaryOp::Mul, operand(0), operand(1), where);
  return convert(product, is_signed ? ir::ScalarType::I32 : ir::ScalarType::U32, where);
}

/// __popc / __popcll (set bits) and __ffs / __ffsll (1 + the index of the lowest set bit, 0 for
/// none) as integer arithmetic: the classic SWAR population count, on the argument as unsigned
/// (wrap-around is defined there), x & -x isolating the lowest set bit.
ir::ExprId Lowerer::bit_count(const clang::CallExpr* call, const std::string& name) {
  using ir::BinaryOp;
  const ir::SourceRange where = range(call);
  NoHoist no_hoist(*this, "an argument of __popc or __ffs");
  const bool wide = name == "__popcll" || name == "__ffsll";
  const ir::ScalarType u = wide ? ir::ScalarType::U64 : ir::ScalarType::U32;
  const auto c = [&](std::uint64_t value) {
    return k_.constant(u, static_cast<std::int64_t>(value), where);
  };
  const auto bin = [&](BinaryOp op, ir::ExprId a, ir::ExprId b) { return k_.binary(op, a, b, where); };
  const auto argument = [&] { return convert(lower_int(call->getArg(0)), u, where); };
  // Each use of v builds its own copy (the model is a tree).
  const auto popcount = [&](const std::function<ir::ExprId()>& v) {
    const auto v1 = [&] {
      return bin(BinaryOp::Sub, v(),
                 bin(BinaryOp::BitAnd, bin(BinaryOp::Shr, v(), c(1)), c(0x5555555555555555ULL)));
    };
    const auto v2 = [&] {
      return bin(BinaryOp::Add, bin(BinaryOp::BitAnd, v1(), c(0x3333333333333333ULL)),
                 bin(BinaryOp::BitAnd, bin(BinaryOp::Shr, v1(), c(2)), c(0x3333333333333333ULL)));
    };
    const ir::ExprId v3 = bin(BinaryOp::BitAnd, bin(BinaryOp::Add, v2(), bin(BinaryOp::Shr, v2(), c(4))),
                              c(0x0F0F0F0F0F0F0F0FULL));
    return convert(bin(BinaryOp::Shr, bin(BinaryOp::Mul, v3, c(0x0101010101010101ULL)),
                       c(wide ? 56 : 24)),
                   ir::ScalarType::I32, where);
  };
  if (name == "__popc" || name == "__popcll") return popcount(argument);
  // __ffs: x == 0 ? 0 : popc((x & -x) - 1) + 1.
  const auto below_lowest = [&] {
    return bin(BinaryOp::Sub, bin(BinaryOp::BitAnd, argument(), bin(BinaryOp::Sub, c(0), argument())),
               c(1));
  };
  const ir::ExprId index = k_.binary(BinaryOp::Add, popcount(below_lowest),
                                     k_.constant(ir::ScalarType::I32, 1, where), where);
  return k_.select(bin(BinaryOp::Eq, argument(), c(0)), k_.constant(ir::ScalarType::I32, 0, where),
                   index, where);
}

void Lowerer::hoist(const clang::Stmt* at, ir::StmtId statement) {
  if (no_hoist_ != nullptr)
    refuse(at, std::string("calling a __device__ function in ") + no_hoist_ +
                   " is not supported (the model runs calls once, before the statement)");
  hoisted_->push_back(statement);
}

bool Lowerer::is_fma(const clang::FunctionDecl* callee) {
  const std::string name = callee->getNameAsString();
  return name == "fmaf" || name == "fma" || name.rfind("__fmaf_", 0) == 0 ||
         name.rfind("__fma_", 0) == 0;
}

/// Atomics (atomicAdd(p, v) ...: a read-modify-write of *p) and the load / store intrinsics
/// (__ldg(p), __stcg(p, v) ...); nullopt for any other function.
std::optional<ir::AccessKind> Lowerer::memory_intrinsic(const clang::FunctionDecl* callee) const {
  if (!is_cuda_api(callee)) return std::nullopt;
  const std::string name = callee->getNameAsString();
  if (name.rfind("atomic", 0) == 0) return ir::AccessKind::Atomic;
  for (const char* load : {"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"})
    if (name == load) return ir::AccessKind::Load;
  for (const char* store : {"__stwb", "__stcg", "__stcs", "__stwt"})
    if (name == store) return ir::AccessKind::Store;
  return std::nullopt;
}

}  // namespace warpdiv::frontend::detail::lowering
