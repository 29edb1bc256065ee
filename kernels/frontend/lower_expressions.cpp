// Expressions: literals, constants, casts and implicit conversions, references to locals and
// parameters, operators, and the values assignments to modelled locals store.
#include "kernels/frontend/lowerer.hpp"

namespace warpdiv::frontend::detail::lowering {

/// The model's type for a C integer type (after typedefs and enums), float or double; nullopt for
/// anything else (half, pointers, structs ...).
std::optional<ir::ScalarType> scalar_type(clang::QualType type) {
  type = type.getCanonicalType().getNonReferenceType();
  if (const auto* e = type->getAs<clang::EnumType>()) {
    if (e->getDecl()->getIntegerType().isNull()) return std::nullopt;
    type = e->getDecl()->getIntegerType().getCanonicalType();
  }
  const auto* builtin = type->getAs<clang::BuiltinType>();
  if (builtin == nullptr) return std::nullopt;
  using Kind = clang::BuiltinType;
  switch (builtin->getKind()) {
    case Kind::Bool:
      return ir::ScalarType::Bool;
    case Kind::Char_S:
    case Kind::SChar:
      return ir::ScalarType::I8;
    case Kind::Char_U:
    case Kind::UChar:
    case Kind::Char8:
      return ir::ScalarType::U8;
    case Kind::Short:
      return ir::ScalarType::I16;
    case Kind::UShort:
    case Kind::Char16:
      return ir::ScalarType::U16;
    case Kind::Int:
      return ir::ScalarType::I32;
    case Kind::UInt:
    case Kind::Char32:
      return ir::ScalarType::U32;
    case Kind::Long:
    case Kind::LongLong:
      return ir::ScalarType::I64;
    case Kind::ULong:
    case Kind::ULongLong:
      return ir::ScalarType::U64;
    case Kind::Float:
      return ir::ScalarType::F32;
    case Kind::Double:
      return ir::ScalarType::F64;
    default:
      return std::nullopt;
  }
}

bool harmless(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (llvm::isa<clang::IntegerLiteral>(e) || llvm::isa<clang::CXXBoolLiteralExpr>(e) ||
      llvm::isa<clang::CharacterLiteral>(e) || llvm::isa<clang::FloatingLiteral>(e))
    return true;
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    if (llvm::isa<clang::EnumConstantDecl>(ref->getDecl())) return true;
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    return var != nullptr && !var->hasGlobalStorage() && !var->getType()->isReferenceType() &&
           !var->getType()->isArrayType();
  }
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) {
    switch (cast->getCastKind()) {
      case clang::CK_LValueToRValue:
      case clang::CK_NoOp:
      case clang::CK_IntegralCast:
      case clang::CK_IntegralToBoolean:
      case clang::CK_FloatingCast:
      case clang::CK_FloatingToBoolean:
      case clang::CK_IntegralToFloating:
      case clang::CK_PointerToBoolean:
        return harmless(cast->getSubExpr());
      default:
        return false;
    }
  }
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    const clang::BinaryOperatorKind kind = op->getOpcode();
    const bool plain = op->isComparisonOp() || op->isLogicalOp() || kind == clang::BO_And ||
                       kind == clang::BO_Or || kind == clang::BO_Xor;
    return plain && harmless(op->getLHS()) && harmless(op->getRHS());
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e))
    return (op->getOpcode() == clang::UO_LNot || op->getOpcode() == clang::UO_Not) &&
           harmless(op->getSubExpr());
  return false;
}

const clang::Expr* written_lvalue(const clang::Expr* e) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(e)) {
      const clang::Expr* operand = cast->getSubExpr();
      const clang::CastKind kind = cast->getCastKind();
      const bool same = cast->getType().getCanonicalType().getUnqualifiedType() ==
                        operand->getType().getCanonicalType().getUnqualifiedType();
      if (!cast->isGLValue() || !operand->isGLValue() || !same ||
          (kind != clang::CK_NoOp && kind != clang::CK_LValueBitCast))
        return e;
      e = operand;
      continue;
    }
    const auto* conditional = llvm::dyn_cast<clang::ConditionalOperator>(e);
    if (conditional == nullptr || !conditional->isGLValue() || !harmless(conditional->getCond())) return e;
    const clang::Expr* yes = written_lvalue(conditional->getTrueExpr());
    const auto* left = llvm::dyn_cast<clang::DeclRefExpr>(yes);
    const auto* right = llvm::dyn_cast<clang::DeclRefExpr>(written_lvalue(conditional->getFalseExpr()));
    if (left == nullptr || right == nullptr || left->getDecl() != right->getDecl()) return e;
    e = yes;
  }
}

/// *p or p[0] where p points to a local: that local.
std::optional<ir::LocalId> Lowerer::dereferenced_local(const clang::Expr* e) const {
  if (pointer_targets_.empty()) return std::nullopt;  // the common case: no index evaluated
  e = e->IgnoreParenImpCasts();
  const clang::Expr* pointer = nullptr;
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e);
      op != nullptr && op->getOpcode() == clang::UO_Deref)
    pointer = op->getSubExpr();
  if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
    clang::Expr::EvalResult index;
    if (subscript->getIdx()->EvaluateAsInt(index, context_) && index.Val.getInt() == 0)
      pointer = subscript->getBase();
  }
  if (pointer == nullptr) return std::nullopt;
  const clang::VarDecl* var = named_variable(pointer);
  const auto found = var != nullptr ? pointer_targets_.find(var) : pointer_targets_.end();
  if (found == pointer_targets_.end()) return std::nullopt;
  return found->second;
}

std::optional<ir::LocalId> Lowerer::bound_local(const clang::Expr* target) {
  target = written_lvalue(target->IgnoreParenImpCasts());
  if (const auto local = dereferenced_local(target)) return local;
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(target->IgnoreParenImpCasts()))
    return field_local(member);
  const clang::VarDecl* var = named_variable(target);
  if (var == nullptr) return std::nullopt;
  const auto found = bindings_.find(var);
  if (found == bindings_.end() || found->second.kind != Binding::Local) return std::nullopt;
  return found->second.id;
}

/// The value `x op= rhs` or `x = rhs` stores, in x's type.
ir::ExprId Lowerer::assigned_value(const clang::BinaryOperator* op, ir::LocalId local) {
  if (op->getOpcode() == clang::BO_Assign) return lower_int(op->getRHS());
  return assigned_value(op, k_.local(local, range(op->getLHS())), k_.locals[local].type);
}

/// The same for a target whose value now is `current`, of type `type`.
ir::ExprId Lowerer::assigned_value(const clang::BinaryOperator* op, ir::ExprId current, ir::ScalarType type) {
  const ir::SourceRange where = range(op);
  if (op->getOpcode() == clang::BO_Assign) return lower_int(op->getRHS());
  const auto* compound = llvm::cast<clang::CompoundAssignOperator>(op);
  const auto lhs_type = scalar_type(compound->getComputationLHSType());
  const auto result_type = scalar_type(compound->getComputationResultType());
  if (!lhs_type || !result_type)
    refuse(op, "this compound assignment computes in a type the model does not have");
  const ir::ExprId lhs = convert(current, *lhs_type, where);
  ir::ExprId rhs = lower_int(op->getRHS());
  const ir::BinaryOp binary =
      binary_op(op, clang::BinaryOperator::getOpForCompoundAssignment(op->getOpcode()));
  if (binary != ir::BinaryOp::Shl && binary != ir::BinaryOp::Shr) rhs = convert(rhs, *result_type, where);
  if (ir::is_floating(*lhs_type)) count_flops(1);
  return convert(k_.binary(binary, lhs, rhs, where), type, where);
}

/// The value ++x / x++ / --x / x-- stores.
ir::ExprId Lowerer::incremented(const clang::UnaryOperator* op, ir::LocalId local) {
  return incremented(op, k_.local(local, range(op->getSubExpr())), k_.locals[local].type);
}

ir::ExprId Lowerer::incremented(const clang::UnaryOperator* op, ir::ExprId current, ir::ScalarType type) {
  if (type == ir::ScalarType::Bool) refuse(op, "incrementing a bool is not supported");
  const ir::SourceRange where = range(op);
  const ir::ScalarType computed = promoted(type);
  const ir::ExprId value = convert(current, computed, where);
  const ir::ExprId one = ir::is_floating(computed) ? k_.floating_constant(computed, 1.0, where)
                                                   : k_.constant(computed, 1, where);
  if (ir::is_floating(computed)) count_flops(1);
  const ir::BinaryOp binary = op->isIncrementOp() ? ir::BinaryOp::Add : ir::BinaryOp::Sub;
  return convert(k_.binary(binary, value, one, where), type, where);
}

ir::ExprId Lowerer::convert(ir::ExprId value, ir::ScalarType to, ir::SourceRange where) {
  if (k_.exprs[value].type == to) return value;
  return k_.cast(to, value, where);
}

ir::ExprId Lowerer::lower_int(const clang::Expr* e) {
  const Deeper deeper(*this, e);
  using clang::dyn_cast;
  const auto type = scalar_type(e->getType());
  if (!type) {
    refuse(e, "the model expected an integer value here, not " + e->getType().getAsString());
  }
  const ir::SourceRange where = range(e);
  if (const auto* paren = dyn_cast<clang::ParenExpr>(e)) return lower_int(paren->getSubExpr());
  if (const auto* full = dyn_cast<clang::FullExpr>(e)) return lower_int(full->getSubExpr());
  if (const auto* temp = dyn_cast<clang::MaterializeTemporaryExpr>(e)) return lower_int(temp->getSubExpr());
  if (const auto* subst = dyn_cast<clang::SubstNonTypeTemplateParmExpr>(e))
    return lower_int(subst->getReplacement());
  if (const auto* arg = dyn_cast<clang::CXXDefaultArgExpr>(e)) return lower_int(arg->getExpr());
  if (const auto* init = dyn_cast<clang::CXXDefaultInitExpr>(e)) return lower_int(init->getExpr());
  if (const auto* literal = dyn_cast<clang::IntegerLiteral>(e))
    return constant(*type, llvm::APSInt(literal->getValue(), literal->getType()->isUnsignedIntegerType()),
                    where);
  if (const auto* literal = dyn_cast<clang::CXXBoolLiteralExpr>(e))
    return k_.constant(*type, literal->getValue() ? 1 : 0, where);
  if (const auto* literal = dyn_cast<clang::CharacterLiteral>(e))
    return k_.constant(*type, static_cast<std::int64_t>(literal->getValue()), where);
  if (const auto* literal = dyn_cast<clang::FloatingLiteral>(e)) {
    // The literal's own value (already rounded to its type by Clang), exactly as a double.
    bool lost = false;
    llvm::APFloat value = literal->getValue();
    value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
    return k_.floating_constant(*type, value.convertToDouble(), where);
  }
  // A value-initialised scalar (a member left out of `S v{}`, `float()`): a zero of its type.
  if (llvm::isa<clang::ImplicitValueInitExpr>(e) || llvm::isa<clang::CXXScalarValueInitExpr>(e))
    return ir::is_floating(*type) ? k_.floating_constant(*type, 0.0, where) : k_.constant(*type, 0, where);
  if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(e) || llvm::isa<clang::TypeTraitExpr>(e))
    return evaluated(e, *type);
  if (const auto* cast = dyn_cast<clang::CastExpr>(e)) return lower_cast(cast, *type);
  if (const auto* ref = dyn_cast<clang::DeclRefExpr>(e)) return lower_ref(ref, *type);
  if (const auto* member = dyn_cast<clang::MemberExpr>(e)) return lower_member(member, *type);
  if (const auto* property = dyn_cast<clang::PseudoObjectExpr>(e))  // the toolkit's threadIdx.x
    return lower_property(property, *type);
  if (const auto* op = dyn_cast<clang::UnaryOperator>(e)) return lower_unary(op, *type);
  if (const auto* op = dyn_cast<clang::BinaryOperator>(e)) return lower_binary(op, *type);
  if (const auto* conditional = dyn_cast<clang::ConditionalOperator>(e)) {
    const ir::ExprId condition = lower_int(conditional->getCond());
    NoHoist no_hoist(*this, "an arm of ?:");
    ir::ExprId if_true = ir::kNone;
    {
      const GuardScope guard(*this, conditional->getCond(), true);
      if_true = lower_int(conditional->getTrueExpr());
    }
    const GuardScope guard(*this, conditional->getCond(), false);
    const ir::ExprId if_false = lower_int(conditional->getFalseExpr());
    return k_.select(condition, if_true, if_false, where);
  }
  if (const auto* call = dyn_cast<clang::CallExpr>(e)) return lower_call(call, *type);
  if (llvm::isa<clang::ArraySubscriptExpr>(e)) {
    if (const auto local = dereferenced_local(e)) return convert(k_.local(*local, where), *type, where);
    return opaque(e, *type);
  }
  if (!e->HasSideEffects(context_)) {
    clang::Expr::EvalResult result;
    if (e->EvaluateAsInt(result, context_)) return constant(*type, result.Val.getInt(), where);
  }
  refuse(e, std::string("this expression (") + e->getStmtClassName() + ") is not supported");
}

ir::ExprId Lowerer::constant(ir::ScalarType type, const llvm::APSInt& value, ir::SourceRange where) {
  const std::int64_t bits =
      value.isSigned() ? value.getExtValue() : static_cast<std::int64_t>(value.getZExtValue());
  return k_.constant(type, bits, where);
}

ir::ExprId Lowerer::evaluated(const clang::Expr* e, ir::ScalarType type) {
  clang::Expr::EvalResult result;
  if (!e->EvaluateAsInt(result, context_))
    refuse(e, "this expression should be a constant but Clang cannot evaluate it");
  return constant(type, result.Val.getInt(), range(e));
}

ir::ExprId Lowerer::lower_cast(const clang::CastExpr* cast, ir::ScalarType type) {
  const clang::Expr* operand = cast->getSubExpr();
  switch (cast->getCastKind()) {
    case clang::CK_LValueToRValue:
    case clang::CK_NoOp:
    case clang::CK_IntegralCast:
    case clang::CK_IntegralToBoolean:
    case clang::CK_IntegralToFloating:
    case clang::CK_FloatingToIntegral:
    case clang::CK_FloatingToBoolean:
    case clang::CK_FloatingCast:
    case clang::CK_BooleanToSignedIntegral: {
      if (!scalar_type(operand->getType())) return opaque(cast, type);
      const ir::ExprId value = lower_int(operand);
      if (cast->getCastKind() == clang::CK_BooleanToSignedIntegral) {
        const ir::SourceRange where = range(cast);
        return k_.unary(ir::UnaryOp::Neg, convert(value, type, where), where);
      }
      return convert(value, type, range(cast));
    }
    case clang::CK_ConstructorConversion:
    case clang::CK_UserDefinedConversion:
      refuse(cast, "a user-defined conversion is not supported");
    case clang::CK_PointerToBoolean:  // if (p): not null
      if (const auto null = pointer_is_null(operand)) {
        const ir::SourceRange where = range(cast);
        return convert(k_.unary(ir::UnaryOp::LogicalNot, *null, where), type, where);
      }
      return opaque(operand, type, cast);
    default:
      // From a float, a pointer, a member pointer ...: a value the model does not compute.
      return opaque(operand, type, cast);
  }
}

ir::ExprId Lowerer::lower_ref(const clang::DeclRefExpr* ref, ir::ScalarType type) {
  const clang::ValueDecl* decl = ref->getDecl();
  const ir::SourceRange where = range(ref);
  if (const auto* enumerator = llvm::dyn_cast<clang::EnumConstantDecl>(decl))
    return constant(type, enumerator->getInitVal(), where);
  const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
  if (var == nullptr) refuse(ref, "a reference to '" + decl->getNameAsString() + "' is not supported");
  const auto found = bindings_.find(var);
  if (found != bindings_.end()) {
    if (found->second.kind == Binding::Memory) return opaque(ref, type);
    const ir::ExprId value = found->second.kind == Binding::Local ? k_.local(found->second.id, where)
                                                                  : k_.param(found->second.id, where);
    return convert(value, type, where);
  }
  if (const BuiltinFunction* builtin = builtin_named(var->getName());  // warpSize
      builtin != nullptr && builtin->kind == BuiltinKind::LaunchVariable && is_cuda_api(var))
    return convert(k_.builtin(static_cast<ir::Builtin>(builtin->operation), where), type, where);
  if (var->getType().isConstQualified() && var->getInit() != nullptr &&
      !var->hasAttr<clang::CUDASharedAttr>()) {
    if (const clang::APValue* value = var->evaluateValue(); value != nullptr && value->isInt())
      return constant(type, value->getInt(), where);
  }
  if (const clang::APValue* value = folded_constant(var); value != nullptr && value->isFloat()) {
    if (const std::optional<ir::ScalarType> own = scalar_type(var->getType()); own && ir::is_floating(*own)) {
      bool lost = false;
      llvm::APFloat exact = value->getFloat();  // rounded to its type already
      exact.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
      return convert(k_.floating_constant(*own, exact.convertToDouble(), where), type, where);
    }
  }
  if (var->hasGlobalStorage()) return opaque(ref, type);  // __device__ / __constant__ variables
  if (const auto taken = address_taken_floats_.find(var); taken != address_taken_floats_.end()) {
    const ir::ExprId id = opaque(ref, type);  // not followed: what is written through it goes unseen
    const clang::Expr* at = taken->second;
    unmodelled_[id] =
        "its address is " +
        (llvm::isa<clang::CallExpr>(at) ? "given to '" + text(at) + "'" : "taken, '" + text(at) + "'") +
        " (" + location(at->getBeginLoc()) + "), and the model does not follow what is written through it";
    return id;
  }
  refuse(ref, "'" + var->getNameAsString() + "' is not a variable the model knows");
}

const clang::APValue* Lowerer::folded_constant(const clang::VarDecl* var) const {
  if (!var->hasGlobalStorage() || !var->getType().isConstQualified() ||
      var->getType().isVolatileQualified() || var->getInit() == nullptr || !var->getType()->isScalarType())
    return nullptr;
  if (var->hasAttr<clang::CUDASharedAttr>()) return nullptr;
  const clang::APValue* value = var->evaluateValue();
  return value != nullptr && (value->isInt() || value->isFloat()) ? value : nullptr;
}

ir::ExprId Lowerer::lower_member(const clang::MemberExpr* member, ir::ScalarType type) {
  if (const auto local = field_local(member))
    return convert(k_.local(*local, range(member)), type, range(member));
  if (const auto local = temporary_member(member))
    return convert(k_.local(*local, range(member)), type, range(member));
  if (no_hoist_ != nullptr) {  // P{t, 1}.a where nothing runs before the statement: its braces' item
    if (const std::optional<const clang::Expr*> item = braced_member(member))
      return *item != nullptr ? convert(lower_int(*item), type, range(member))
                              : k_.constant(type, 0, range(member));
  }
  const clang::Expr* base = strip(member->getBase());
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(base)) {  // cta.group_index().x
    if (call->getDirectCallee() != nullptr && in_group_namespace(call->getDirectCallee()))
      return lower_group_dim3(call, member, type);
  }
  if (const auto builtin = launch_builtin(base, member->getMemberDecl()->getNameAsString())) {
    const ir::SourceRange where = range(member);
    return convert(k_.builtin(*builtin, where), type, where);
  }
  const bool memory = is_memory(member);
  const ir::ExprId id = opaque(member, type);
  const clang::VarDecl* var = named_variable(base);
  if (memory || var == nullptr || var->hasGlobalStorage()) return id;
  if (!llvm::isa<clang::ParmVarDecl>(var))
    unmodelled_[id] = "a member of a local object the model does not follow member by member";
  else if (var->getDeclContext() == call_stack_.front())
    unmodelled_[id] = "a member of the kernel's struct parameter '" + var->getNameAsString() +
                      "': the model is given a kernel's scalar and pointer parameters only, not a "
                      "struct's members (pass them as parameters of their own)";
  return id;
}

/// The toolkit route's launch built-ins: Clang's __clang_cuda_builtin_vars.h declares threadIdx
/// as a struct whose x, y, z are properties (__declspec(property)), so threadIdx.x is a
/// PseudoObjectExpr whose syntactic form is an MSPropertyRefExpr. Any other property read is
/// opaque.
ir::ExprId Lowerer::lower_property(const clang::PseudoObjectExpr* e, ir::ScalarType type) {
  const auto* property = llvm::dyn_cast<clang::MSPropertyRefExpr>(e->getSyntacticForm()->IgnoreParens());
  if (property != nullptr) {
    if (const auto builtin =
            launch_builtin(property->getBaseExpr(), property->getPropertyDecl()->getNameAsString())) {
      const ir::SourceRange where = range(e);
      return convert(k_.builtin(*builtin, where), type, where);
    }
  }
  return opaque(e, type);
}

ir::ExprId Lowerer::lower_unary(const clang::UnaryOperator* op, ir::ScalarType type) {
  const ir::SourceRange where = range(op);
  switch (op->getOpcode()) {
    case clang::UO_Plus:
      return lower_int(op->getSubExpr());
    case clang::UO_Minus:
      return k_.unary(ir::UnaryOp::Neg, lower_int(op->getSubExpr()), where);
    case clang::UO_Not:
      return k_.unary(ir::UnaryOp::BitNot, lower_int(op->getSubExpr()), where);
    case clang::UO_LNot:
      return k_.unary(ir::UnaryOp::LogicalNot, lower_int(op->getSubExpr()), where);
    case clang::UO_Deref:
      if (const auto local = dereferenced_local(op)) return convert(k_.local(*local, where), type, where);
      return opaque(op, type);
    case clang::UO_PreInc:
    case clang::UO_PreDec:
    case clang::UO_PostInc:
    case clang::UO_PostDec:
      refuse(op, "'" + text(op) +
                     "' changes a variable inside a larger expression: not supported "
                     "(write it as its own statement)");
    default:
      refuse(op, "this operator is not supported");
  }
}

ir::BinaryOp Lowerer::binary_op(const clang::Stmt* at, clang::BinaryOperatorKind kind) const {
  switch (kind) {
    case clang::BO_Add:
      return ir::BinaryOp::Add;
    case clang::BO_Sub:
      return ir::BinaryOp::Sub;
    case clang::BO_Mul:
      return ir::BinaryOp::Mul;
    case clang::BO_Div:
      return ir::BinaryOp::Div;
    case clang::BO_Rem:
      return ir::BinaryOp::Rem;
    case clang::BO_Shl:
      return ir::BinaryOp::Shl;
    case clang::BO_Shr:
      return ir::BinaryOp::Shr;
    case clang::BO_And:
      return ir::BinaryOp::BitAnd;
    case clang::BO_Or:
      return ir::BinaryOp::BitOr;
    case clang::BO_Xor:
      return ir::BinaryOp::BitXor;
    case clang::BO_LT:
      return ir::BinaryOp::Lt;
    case clang::BO_LE:
      return ir::BinaryOp::Le;
    case clang::BO_GT:
      return ir::BinaryOp::Gt;
    case clang::BO_GE:
      return ir::BinaryOp::Ge;
    case clang::BO_EQ:
      return ir::BinaryOp::Eq;
    case clang::BO_NE:
      return ir::BinaryOp::Ne;
    default:
      refuse(at, "this operator is not supported");
  }
}

ir::ExprId Lowerer::lower_binary(const clang::BinaryOperator* op, ir::ScalarType type) {
  const ir::SourceRange where = range(op);
  if (op->isAssignmentOp())
    refuse(op, "'" + text(op) +
                   "' assigns inside a larger expression: not supported (write it "
                   "as its own statement)");
  if (op->getOpcode() == clang::BO_Comma)
    refuse(op, "the comma operator inside an expression is not supported");
  if (op->isLogicalOp()) {
    const ir::ExprId lhs = lower_int(op->getLHS());
    NoHoist no_hoist(*this, "the right operand of && or ||");
    const GuardScope guard(*this, op->getLHS(), op->getOpcode() == clang::BO_LAnd);
    const ir::ExprId rhs = lower_int(op->getRHS());
    return k_.logical(op->getOpcode() == clang::BO_LAnd ? ir::LogicalOp::And : ir::LogicalOp::Or, lhs, rhs,
                      where);
  }
  // Comparisons of pointers, pointer differences: values the model does not compute, but for
  // p == nullptr and p != nullptr where the model knows whether p is null.
  if (!scalar_type(op->getLHS()->getType()) || !scalar_type(op->getRHS()->getType())) {
    const bool equality = op->getOpcode() == clang::BO_EQ || op->getOpcode() == clang::BO_NE;
    const clang::Expr* pointer = null_value(op->getRHS()) ? op->getLHS() : op->getRHS();
    const auto null = equality && (null_value(op->getLHS()) || null_value(op->getRHS()))
                          ? pointer_is_null(pointer)
                          : std::nullopt;
    if (null)
      return convert(
          op->getOpcode() == clang::BO_EQ ? *null : k_.unary(ir::UnaryOp::LogicalNot, *null, where), type,
          where);
    const ir::ExprId id = opaque(op, type);
    unmodelled_[id] = "a comparison or difference of pointers, which the model does not compute";
    return id;
  }
  const ir::BinaryOp binary = binary_op(op, op->getOpcode());
  const ir::ExprId lhs = lower_int(op->getLHS());
  const ir::ExprId rhs = lower_int(op->getRHS());
  if (ir::is_floating(k_.exprs[lhs].type) && !ir::is_comparison(binary)) count_flops(1);
  return k_.binary(binary, lhs, rhs, where);
}

}  // namespace warpdiv::frontend::detail::lowering
