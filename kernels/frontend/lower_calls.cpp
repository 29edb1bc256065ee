// Calls: the CUDA built-ins (recognised through the table of lower_builtins.def), and the calls of
// __device__ functions the model inlines (run before the statement that makes them).
#include "kernels/frontend/lowerer.hpp"

#include <clang/Basic/TargetBuiltins.h>
#include <llvm/ADT/StringMap.h>

#include <functional>
#include <limits>
#include <memory>
#include <type_traits>

namespace warpdiv::frontend::detail::lowering {

namespace {

constexpr BuiltinFunction kBuiltins[] = {
#define BUILTIN(NAME, KIND, OPERATION, ARITY) {NAME, BuiltinKind::KIND, static_cast<int>(OPERATION), ARITY},
#include "kernels/frontend/lower_builtins.def"
};

/// A FAMILY row of lower_builtins.def.
struct BuiltinFamily {
  const char* prefix;
  BuiltinKind kind;
};

constexpr BuiltinFamily kFamilies[] = {
#define FAMILY(PREFIX, KIND) {PREFIX, BuiltinKind::KIND},
#include "kernels/frontend/lower_builtins.def"
};

/// A GROUP row of lower_builtins.def.
struct GroupRow {
  const char* name;
  GroupName kind;
};

constexpr GroupRow kGroupNames[] = {
#define GROUP(NAME, KIND) {NAME, GroupName::KIND},
#include "kernels/frontend/lower_builtins.def"
};

/// The row of `table` named `name`, or null; the table's index by name is built on first use.
template <const auto& table>
const auto* row_named(llvm::StringRef name) {
  using Row = std::remove_reference_t<decltype(table[0])>;
  static const llvm::StringMap<Row*> by_name = [] {
    llvm::StringMap<Row*> map;
    for (Row& row : table) map[row.name] = &row;
    return map;
  }();
  const auto found = by_name.find(name);
  return found != by_name.end() ? found->second : nullptr;
}

}  // namespace

const BuiltinFunction* builtin_named(llvm::StringRef name) { return row_named<kBuiltins>(name); }

GroupName group_name(llvm::StringRef name) {
  const GroupRow* row = row_named<kGroupNames>(name);
  return row != nullptr ? row->kind : GroupName::None;
}

BuiltinKind builtin_family(llvm::StringRef name) {
  for (const BuiltinFamily& family : kFamilies)
    if (name.startswith(family.prefix)) return family.kind;
  return BuiltinKind::None;
}

/// __syncthreads(): the prelude's, or Clang's builtin (the toolkit route: matched by its
/// builtin ID, as the implicit declaration sits wherever it was first used).
bool Lowerer::is_syncthreads(const clang::FunctionDecl* callee) const {
  if (callee->getBuiltinID() == clang::NVPTX::BI__syncthreads) return true;
  const BuiltinFunction* builtin = builtin_named(callee->getNameAsString());
  return builtin != nullptr && builtin->kind == BuiltinKind::Barrier && is_cuda_api(callee);
}

/// __syncwarp(mask) of the CUDA API.
bool Lowerer::is_syncwarp(const clang::FunctionDecl* callee) const {
  const BuiltinFunction* builtin = builtin_named(callee->getNameAsString());
  return builtin != nullptr && builtin->kind == BuiltinKind::Warp &&
         builtin->operation == static_cast<int>(ir::WarpOp::SyncWarp) && is_cuda_api(callee);
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
  const BuiltinFunction* builtin = builtin_named(var->getNameAsString() + "." + field);
  if (builtin == nullptr || builtin->kind != BuiltinKind::LaunchVariable) return std::nullopt;
  return static_cast<ir::Builtin>(builtin->operation);
}

/// A function the model follows: defined in the source (not the prelude, not a system header).
bool Lowerer::inlinable(const clang::FunctionDecl* callee) const {
  return !in_prelude(callee) && !sources_.isInSystemHeader(sources_.getExpansionLoc(callee->getLocation()));
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
      refuse(call, "recursion is not supported: '" + callee->getNameAsString() + "' calls itself");
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
  if (const std::optional<ir::ExprId> folded = folded_builtin(call, type)) return *folded;
  if (in_group_namespace(callee)) return lower_group_query(call, type);
  const std::string qualified = callee->getQualifiedNameAsString();
  const bool std_min_max = qualified == "std::min" || qualified == "std::max";
  refuse_unseen_writes(call, callee);
  if (const BuiltinFunction* builtin = builtin_named(callee->getName());
      builtin != nullptr && builtin->kind == BuiltinKind::Classify) {
    if (const auto classified = classify_float(call, *builtin)) return convert(*classified, type, where);
  }
  if (is_cuda_api(callee) || std_min_max) return lower_builtin_call(call, type);
  if (!inlinable(callee)) {  // a system header's function: not a value the launch could give
    const ir::ExprId id = opaque(call, type);
    unmodelled_[id] = "'" + qualified + "' is a library function the model does not evaluate";
    return id;
  }
  check_callee(call, callee);
  return k_.local(inlined_result(call, callee, type), where);
}

/// A compiler builtin Clang folds to a constant (__builtin_inff() of INFINITY, __builtin_huge_valf(),
/// __builtin_nanf(""), __builtin_fabsf(-2.0f)), as nvcc folds it: IEEE values, exact; nullopt
/// for any other call.
std::optional<ir::ExprId> Lowerer::folded_builtin(const clang::CallExpr* call, ir::ScalarType type) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  const std::optional<ir::ScalarType> own = scalar_type(call->getType());
  clang::Expr::EvalResult result;
  if (callee == nullptr || callee->getBuiltinID() == 0 || !own || call->isValueDependent() ||
      !call->EvaluateAsRValue(result, context_) || result.HasSideEffects)
    return std::nullopt;
  const ir::SourceRange where = range(call);
  if (result.Val.isInt()) return constant(type, result.Val.getInt(), where);
  if (!result.Val.isFloat() || !ir::is_floating(*own)) return std::nullopt;
  llvm::APFloat value = result.Val.getFloat();
  bool lost = false;  // float to double is exact
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return convert(k_.floating_constant(*own, value.convertToDouble(), where), type, where);
}

/// The local holding the result of `call`, a __device__ function inlined before the statement
/// the first time the statement's lowering meets the call: an address lowered again (a[f(i)] += v),
/// or scanned after it could not be placed, reads the same local, and the call runs once.
ir::LocalId Lowerer::inlined_result(const clang::CallExpr* call, const clang::FunctionDecl* callee,
                                    ir::ScalarType type) {
  if (pending_ != nullptr) {
    const auto found = pending_->results.find(call);
    if (found != pending_->results.end()) return found->second;
  }
  const ir::LocalId result = k_.add_local(callee->getNameAsString() + "()", type, range(call));
  hoist(call, inline_call(call, callee, result));
  if (pending_ != nullptr) pending_->results[call] = result;
  return result;
}

/// Inlines, before the statement, the calls of __device__ functions with a scalar result that
/// the address `s` holds, outside the arms of ?: and the right operands of && and || (there they
/// are refused as elsewhere): the attempt to place the access then reads their locals, and adds
/// nothing to the model that it could not take back.
void Lowerer::hoist_calls(const clang::Stmt* s) {
  if (s == nullptr || llvm::isa<clang::AbstractConditionalOperator>(s) ||
      llvm::isa<clang::UnaryExprOrTypeTraitExpr>(s))
    return;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(s); op != nullptr && op->isLogicalOp())
    return hoist_calls(op->getLHS());
  for (const clang::Stmt* child : s->children()) hoist_calls(child);
  const auto* call = llvm::dyn_cast<clang::CallExpr>(s);
  const clang::FunctionDecl* callee = call != nullptr ? call->getDirectCallee() : nullptr;
  if (callee == nullptr || !inlinable(callee) || in_group_namespace(callee) ||
      callee->getReturnType()->isReferenceType())
    return;
  clang::Expr::EvalResult folded;  // a constexpr call with constant arguments is a constant
  if (callee->isConstexpr() && call->EvaluateAsInt(folded, context_)) return;
  if (const auto type = scalar_type(call->getType())) {
    check_callee(call, callee);
    inlined_result(call, callee, *type);
  }
}

/// What `call` changes besides its result, said after the call's text ("writes memory", "is a
/// barrier", "prints", "may write through its argument 'p'"); empty for a call that changes
/// nothing: a computed built-in, a warp function, a group's query, a math function, a load, a
/// __device__ function whose body changes nothing but its own locals. `seen`: as body_effect.
std::string Lowerer::call_effect(const clang::CallExpr* call,
                                 std::vector<const clang::FunctionDecl*>& seen) const {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr) return "calls through a function pointer";
  const std::string name = callee->getNameAsString();
  if (is_syncthreads(callee) || is_group_sync(call) ||
      (is_cuda_api(callee) && builtin_family(name) == BuiltinKind::Barrier))
    return "is a barrier";
  if (const auto kind = memory_intrinsic(callee); kind && *kind != ir::AccessKind::Load)
    return "writes memory";
  if (in_group_namespace(callee)) return "";
  const clang::FunctionDecl* definition = nullptr;
  if (inlinable(callee) && callee->hasBody(definition)) {
    if (std::find(seen.begin(), seen.end(), definition) != seen.end()) return "";
    seen.push_back(definition);
    return body_effect(definition->getBody(), seen);
  }
  if (name == "printf" || name == "vprintf") return "prints";
  if (llvm::StringRef(name).startswith("surf") && llvm::StringRef(name).contains("write"))
    return "writes memory";
  if (callee->hasAttr<clang::ConstAttr>() || callee->hasAttr<clang::PureAttr>()) return "";
  for (unsigned i = 0; i < callee->getNumParams() && i < call->getNumArgs(); ++i) {
    const clang::QualType type = callee->getParamDecl(i)->getType();
    if ((type->isPointerType() || type->isReferenceType()) && !type->getPointeeType().isConstQualified())
      return "may write through its argument '" + text(call->getArg(i)) + "'";
  }
  return "";
}

/// A call of the CUDA API (or std::min, std::max): the built-ins whose value the model computes,
/// by their row of lower_builtins.def; an opaque value for the others (atomics, __ldg, expf,
/// a shuffle of a float4 ...).
ir::ExprId Lowerer::lower_builtin_call(const clang::CallExpr* call, ir::ScalarType type) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  const ir::SourceRange where = range(call);
  const std::string name = callee->getNameAsString();
  const BuiltinFunction* builtin = builtin_named(name);
  const BuiltinKind kind = builtin != nullptr ? builtin->kind : BuiltinKind::None;
  if (kind == BuiltinKind::BarrierWithValue)
    refuse(call, name + " is not supported: the model has no barrier that returns a value");
  if (kind == BuiltinKind::Math) {
    if (const auto math = math_function(call, *builtin)) return convert(*math, type, where);
  }
  if (kind == BuiltinKind::Warp) {
    if (const auto warp = warp_function(call, *builtin)) return convert(*warp, type, where);
  }
  const auto integer_type = [](clang::QualType t) {
    const auto scalar = scalar_type(t);
    return scalar && !ir::is_floating(*scalar);
  };
  const bool integers = call->getNumArgs() > 0 && integer_type(callee->getParamDecl(0)->getType());
  const auto result_type = scalar_type(callee->getReturnType());
  // The integer functions take integers, as many as their row says.
  if (!integers || builtin == nullptr || builtin->arity < 0 ||
      call->getNumArgs() != static_cast<unsigned>(builtin->arity))
    return unevaluated_call(call, type);
  switch (kind) {
    case BuiltinKind::Minimum:
    case BuiltinKind::Maximum:
      if (result_type && integer_type(callee->getParamDecl(1)->getType()))
        return convert(min_max(call, kind == BuiltinKind::Minimum, *result_type), type, where);
      break;
    case BuiltinKind::PopCount:
    case BuiltinKind::FindFirstSet:
      return convert(bit_count(call, kind == BuiltinKind::FindFirstSet, builtin->operation == 64), type,
                     where);
    case BuiltinKind::ReverseBits:
      return convert(reverse_bits(call, builtin->operation == 64), type, where);
    case BuiltinKind::LeadingZeros:
      return convert(leading_zeros(call, builtin->operation == 64), type, where);
    case BuiltinKind::Multiply24:
      return convert(multiply_24(call, builtin->operation == 1), type, where);
    case BuiltinKind::Abs:
      return absolute(call, type);
    default:
      break;
  }
  return unevaluated_call(call, type);  // atomics, __ballot_sync ...: values the model does not compute
}

/// The opaque result of a CUDA API call the model does not evaluate. Unless it reads memory (an
/// atomic, a load, a texture or surface read: a value the model does not hold), it is an
/// intrinsic the model does not model: a branch on it is an unsupported construct.
ir::ExprId Lowerer::unevaluated_call(const clang::CallExpr* call, ir::ScalarType type) {
  const std::string name = call->getDirectCallee()->getNameAsString();
  const ir::ExprId id = opaque(call, type);
  const BuiltinKind family = builtin_family(name);
  if (family != BuiltinKind::Atomic && family != BuiltinKind::Load && family != BuiltinKind::Texture &&
      family != BuiltinKind::Surface && memory_intrinsic(call->getDirectCallee()) == std::nullopt)
    unmodelled_[id] = name + " is an intrinsic the model does not evaluate";
  return id;
}

/// min(a, b) / max(a, b) of integers: a < b ? a : b (a > b for max), both converted to the
/// result type first as math_functions.hpp does (min(int, unsigned) compares as unsigned); each
/// argument is lowered twice (the model is a tree).
ir::ExprId Lowerer::min_max(const clang::CallExpr* call, bool minimum, ir::ScalarType result_type) {
  const ir::SourceRange where = range(call);
  NoHoist no_hoist(*this, "an argument of min or max");
  const ir::BinaryOp compare = minimum ? ir::BinaryOp::Lt : ir::BinaryOp::Gt;
  const auto argument = [&](unsigned i) { return convert(lower_int(call->getArg(i)), result_type, where); };
  const ir::ExprId test = k_.binary(compare, argument(0), argument(1), where);
  const ir::ExprId a = argument(0);
  const ir::ExprId b = argument(1);
  return k_.select(test, a, b, where);
}

/// abs(x) / llabs(x) of an integer: x < 0 ? -x : x, in `type`.
ir::ExprId Lowerer::absolute(const clang::CallExpr* call, ir::ScalarType type) {
  const ir::SourceRange where = range(call);
  NoHoist no_hoist(*this, "an argument of abs");
  const ir::ExprId x = lower_int(call->getArg(0));
  const ir::ExprId negative = k_.binary(ir::BinaryOp::Lt, x, k_.constant(type, 0, where), where);
  const ir::ExprId minus = k_.unary(ir::UnaryOp::Neg, lower_int(call->getArg(0)), where);
  return k_.select(negative, minus, lower_int(call->getArg(0)), where);
}

/// __shfl_sync and its up/down/xor forms (of a scalar, with a constant width), __ballot_sync,
/// __any_sync, __all_sync, __activemask (`builtin`, their row): a Warp expression; nullopt where
/// the call does not fit one (a value that is not a scalar, a width not known).
std::optional<ir::ExprId> Lowerer::warp_function(const clang::CallExpr* call,
                                                 const BuiltinFunction& builtin) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr) return std::nullopt;
  const auto op = static_cast<ir::WarpOp>(builtin.operation);
  const ir::SourceRange where = range(call);
  const auto n = static_cast<unsigned>(builtin.arity);
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
        refuse(Diag::undefined_arithmetic, call,
               "the shuffle's width " + std::to_string(width) + " is not a power of two from 1 to 32");
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
/// __expf ...) are not correctly rounded on the GPU and have no row of this kind. `builtin` is the
/// function's row; nullopt where the call does not fit it (an opaque value; a branch on it is
/// refused).
std::optional<ir::ExprId> Lowerer::math_function(const clang::CallExpr* call,
                                                 const BuiltinFunction& builtin) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr) return std::nullopt;
  const auto intrinsic = static_cast<ir::Intrinsic>(builtin.operation);
  const auto result = scalar_type(callee->getReturnType());
  const auto n = static_cast<unsigned>(builtin.arity);
  if (!result || !ir::is_floating(*result) || call->getNumArgs() != n || callee->getNumParams() != n)
    return std::nullopt;
  const ir::SourceRange where = range(call);
  std::vector<ir::ExprId> operands;
  for (unsigned i = 0; i < n; ++i) {
    if (scalar_type(callee->getParamDecl(i)->getType()) != result) return std::nullopt;
    operands.push_back(convert(lower_int(call->getArg(i)), *result, where));
  }
  if (intrinsic == ir::Intrinsic::Fma) count_flops(2);
  return k_.intrinsic(intrinsic, operands, where);
}

/// isnan(x), isinf(x), isfinite(x) of a float or double x, exactly: |x| compared with infinity
/// (!(|x| <= inf), |x| == inf, |x| < inf), so that x is read once.
std::optional<ir::ExprId> Lowerer::classify_float(const clang::CallExpr* call,
                                                  const BuiltinFunction& builtin) {
  if (call->getNumArgs() != 1) return std::nullopt;
  const clang::Expr* arg = call->getArg(0)->IgnoreImpCasts();
  const auto type = scalar_type(arg->getType());
  if (!type || !ir::is_floating(*type)) return std::nullopt;
  const ir::SourceRange where = range(call);
  const ir::ExprId magnitude = k_.intrinsic(ir::Intrinsic::Fabs, {lower_int(arg)}, where);
  const ir::ExprId infinity = k_.floating_constant(*type, std::numeric_limits<double>::infinity(), where);
  switch (builtin.operation) {
    case 0:
      return k_.unary(ir::UnaryOp::LogicalNot, k_.binary(ir::BinaryOp::Le, magnitude, infinity, where),
                      where);
    case 1:
      return k_.binary(ir::BinaryOp::Eq, magnitude, infinity, where);
    default:
      return k_.binary(ir::BinaryOp::Lt, magnitude, infinity, where);
  }
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
    const ir::ExprId masked =
        k_.binary(BinaryOp::BitAnd, arg, k_.constant(ir::ScalarType::U32, 0xFFFFFF, where), where);
    return convert(masked, wide, where);
  };
  const auto operand = [&](unsigned i) {
    if (!is_signed) return low_bits(i);
    // v - 2 * (v & 0x800000): bit 23 set means v - 2^24.
    const ir::ExprId sign =
        k_.binary(BinaryOp::BitAnd, low_bits(i), k_.constant(wide, 0x800000, where), where);
    return k_.binary(BinaryOp::Sub, low_bits(i),
                     k_.binary(BinaryOp::Mul, k_.constant(wide, 2, where), sign, where), where);
  };
  const ir::ExprId product = k_.binary(BinaryOp::Mul, operand(0), operand(1), where);
  return convert(product, is_signed ? ir::ScalarType::I32 : ir::ScalarType::U32, where);
}

namespace {

/// Integer operations of one width, at one place, for the bit functions.
struct BitOps {
  ir::Kernel& k;
  ir::SourceRange where;
  ir::ScalarType u;
  ir::ExprId c(std::uint64_t value) const { return k.constant(u, static_cast<std::int64_t>(value), where); }
  ir::ExprId bin(ir::BinaryOp op, ir::ExprId a, ir::ExprId b) const { return k.binary(op, a, b, where); }

  /// The set bits of v (an int32), the classic SWAR count; each use of v builds its own copy.
  ir::ExprId popcount(const std::function<ir::ExprId()>& v) const {
    using ir::BinaryOp;
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
    const bool wide = u == ir::ScalarType::U64;
    return k.cast(ir::ScalarType::I32,
                  bin(BinaryOp::Shr, bin(BinaryOp::Mul, v3, c(0x0101010101010101ULL)), c(wide ? 56 : 24)),
                  where);
  }
};

}  // namespace

/// The argument `arg` as a value of `u`, a fresh copy at each call (the model is a tree): its
/// loads are recorded by the first and linked by the others.
std::function<ir::ExprId()> Lowerer::copies(const clang::Expr* arg, ir::ScalarType u, ir::SourceRange where) {
  auto first = std::make_shared<bool>(true);
  return [this, arg, u, where, first] {
    if (*first) {
      *first = false;
      return convert(lower_int(arg), u, where);
    }
    const Quiet quiet(*this);
    return convert(lower_int(arg), u, where);
  };
}

/// __popc / __popcll (set bits) and __ffs / __ffsll (1 + the index of the lowest set bit, 0 for
/// none) as integer arithmetic: the classic SWAR population count, on the argument as unsigned
/// (wrap-around is defined there), x & -x isolating the lowest set bit.
ir::ExprId Lowerer::bit_count(const clang::CallExpr* call, bool find_first_set, bool wide) {
  using ir::BinaryOp;
  const ir::SourceRange where = range(call);
  NoHoist no_hoist(*this, "an argument of __popc or __ffs");
  const ir::ScalarType u = wide ? ir::ScalarType::U64 : ir::ScalarType::U32;
  const auto c = [&](std::uint64_t value) { return k_.constant(u, static_cast<std::int64_t>(value), where); };
  const auto bin = [&](BinaryOp op, ir::ExprId a, ir::ExprId b) { return k_.binary(op, a, b, where); };
  const auto argument = [&] { return convert(lower_int(call->getArg(0)), u, where); };
  const BitOps ops{k_, where, u};
  const auto popcount = [&](const std::function<ir::ExprId()>& v) { return ops.popcount(v); };
  if (!find_first_set) return popcount(argument);
  // __ffs: x == 0 ? 0 : popc((x & -x) - 1) + 1.
  const auto below_lowest = [&] {
    return bin(BinaryOp::Sub, bin(BinaryOp::BitAnd, argument(), bin(BinaryOp::Sub, c(0), argument())), c(1));
  };
  const ir::ExprId index =
      k_.binary(BinaryOp::Add, popcount(below_lowest), k_.constant(ir::ScalarType::I32, 1, where), where);
  return k_.select(bin(BinaryOp::Eq, argument(), c(0)), k_.constant(ir::ScalarType::I32, 0, where), index,
                   where);
}

/// __brev, __brevll: the bits swapped in pairs, then pairs of pairs ..., each step on copies of
/// the one before (the model is a tree).
ir::ExprId Lowerer::reverse_bits(const clang::CallExpr* call, bool wide) {
  using ir::BinaryOp;
  NoHoist no_hoist(*this, "an argument of __brev");
  const BitOps ops{k_, range(call), wide ? ir::ScalarType::U64 : ir::ScalarType::U32};
  std::function<ir::ExprId()> v = copies(call->getArg(0), ops.u, ops.where);
  const std::uint64_t masks[] = {0x5555555555555555ULL, 0x3333333333333333ULL, 0x0F0F0F0F0F0F0F0FULL,
                                 0x00FF00FF00FF00FFULL, 0x0000FFFF0000FFFFULL, 0x00000000FFFFFFFFULL};
  for (int step = 0; step < (wide ? 6 : 5); ++step)
    v = [&ops, previous = v, shift = std::uint64_t{1} << step, mask = masks[step]] {
      const ir::ExprId high =
          ops.bin(BinaryOp::BitAnd, ops.bin(BinaryOp::Shr, previous(), ops.c(shift)), ops.c(mask));
      const ir::ExprId low =
          ops.bin(BinaryOp::Shl, ops.bin(BinaryOp::BitAnd, previous(), ops.c(mask)), ops.c(shift));
      return ops.bin(BinaryOp::BitOr, high, low);
    };
  return v();
}

/// __clz, __clzll: the width less the bits up to the highest set one (the argument smeared
/// right, x | x >> 1 | x >> 2 ..., counted as __popc counts).
ir::ExprId Lowerer::leading_zeros(const clang::CallExpr* call, bool wide) {
  using ir::BinaryOp;
  NoHoist no_hoist(*this, "an argument of __clz");
  const BitOps ops{k_, range(call), wide ? ir::ScalarType::U64 : ir::ScalarType::U32};
  std::function<ir::ExprId()> v = copies(call->getArg(0), ops.u, ops.where);
  for (int step = 0; step < (wide ? 6 : 5); ++step)
    v = [&ops, previous = v, shift = std::uint64_t{1} << step] {
      return ops.bin(BinaryOp::BitOr, previous(), ops.bin(BinaryOp::Shr, previous(), ops.c(shift)));
    };
  return k_.binary(BinaryOp::Sub, k_.constant(ir::ScalarType::I32, wide ? 64 : 32, ops.where),
                   ops.popcount(v), ops.where);
}

void Lowerer::hoist(const clang::Stmt* at, ir::StmtId statement) {
  if (no_hoist_ != nullptr)
    refuse(at, std::string("calling a __device__ function in ") + no_hoist_ +
                   " is not supported (the model runs calls once, before the statement)");
  hoisted_->push_back(statement);
}

bool Lowerer::is_fma(const clang::FunctionDecl* callee) {
  const std::string name = callee->getNameAsString();
  const BuiltinFunction* builtin = builtin_named(name);
  return (builtin != nullptr && builtin->kind == BuiltinKind::Math &&
          static_cast<ir::Intrinsic>(builtin->operation) == ir::Intrinsic::Fma) ||
         builtin_family(name) == BuiltinKind::FusedMultiplyAdd;
}

/// Atomics (atomicAdd(p, v) ...: a read-modify-write of *p) and the load / store intrinsics
/// (__ldg(p), __stcg(p, v) ...); nullopt for any other function.
std::optional<ir::AccessKind> Lowerer::memory_intrinsic(const clang::FunctionDecl* callee) const {
  if (!is_cuda_api(callee)) return std::nullopt;
  const std::string name = callee->getNameAsString();
  if (builtin_family(name) == BuiltinKind::Atomic) return ir::AccessKind::Atomic;
  const BuiltinFunction* builtin = builtin_named(name);
  if (builtin != nullptr && builtin->kind == BuiltinKind::Load) return ir::AccessKind::Load;
  if (builtin != nullptr && builtin->kind == BuiltinKind::Store) return ir::AccessKind::Store;
  return std::nullopt;
}

}  // namespace warpdiv::frontend::detail::lowering
