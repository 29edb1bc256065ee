// Memory accesses: each load, store and atomic of a statement becomes an ir::MemoryAccess with
// its address, a base (a pointer parameter's buffer, a __shared__ / __device__ / __constant__
// variable, a local array) plus a byte offset lowered as an ordinary integer expression. An
// access the model cannot place keeps its text with the reason, reported as not counted. The
// statement also carries its floating-point operations.
#include "kernels/frontend/lowerer.hpp"

#include <clang/AST/RecordLayout.h>

#include <algorithm>

namespace warpdiv::frontend::detail::lowering {

/// A local array initialised by braces (`int idx[4] = {3, 1, 2, 0}`, `float2 acc[2]{}`,
/// `A a[2] = {{1, 2}, {3, 4}}`): one store per scalar of every element, members at their offsets
/// (missing ones 0, as C++ value-initialises them), so that the model can follow the array by
/// value. Another initialiser of a local array is a write the model cannot place (the array is
/// then not followed). False for anything else.
bool Lowerer::local_array_initialised(const clang::VarDecl* var, const clang::Stmt* s,
                                      std::vector<ir::StmtId>& declared) {
  if (var->hasGlobalStorage() || var->hasAttr<clang::CUDASharedAttr>() || var->getInit() == nullptr ||
      pending_ == nullptr || quiet_ > 0)
    return false;
  const clang::ConstantArrayType* array = context_.getAsConstantArrayType(var->getType());
  if (array == nullptr) return false;
  // `float4 acc[2];`: a trivial default construction leaves the elements unwritten, as no
  // initialiser does.
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(var->getInit()->IgnoreParens());
      construct != nullptr && construct->getConstructor()->isTrivial() &&
      construct->getConstructor()->isDefaultConstructor() && !construct->requiresZeroInitialization())
    return false;
  const ir::SourceRange where = range(var->getSourceRange());
  const auto* list = llvm::dyn_cast<clang::InitListExpr>(var->getInit()->IgnoreParens());
  std::vector<InitialisedScalar> scalars;
  if (list == nullptr || !initialised_scalars(var->getType(), list, 0, var->getNameAsString(), scalars)) {
    scan_work(var->getInit());
    ir::MemoryAccess a;
    a.kind = ir::AccessKind::Store;
    a.space = ir::AddressSpace::Local;
    a.text = var->getNameAsString();
    a.range = where;
    pending_->accesses.push_back(unplaced(a, "an initialiser the model does not split into stores"));
    declared.push_back(k_.work(text(s), where));
    return true;
  }
  const std::int32_t base = variable_base(var);
  for (const InitialisedScalar& x : scalars) {
    ir::MemoryAccess a;
    a.kind = ir::AccessKind::Store;
    a.space = ir::AddressSpace::Local;
    a.base = base;
    a.width = static_cast<std::uint32_t>(std::max(1, ir::bit_width(x.type) / 8));
    a.text = x.text;
    a.range = where;
    a.value = x.init != nullptr ? convert(lower_int(x.init), x.type, where) : k_.constant(x.type, 0, where);
    a.offset = offset_expr(Offset{ir::kNone, x.offset}, where);
    a.guard = guard_expr(guards_, where);
    pending_->accesses.push_back(a);
  }
  declared.push_back(k_.work(text(s), where));
  return true;
}

/// The scalars of an object of `type` at byte `offset` that braces `init` initialise (null: value-
/// initialised, 0), into `out`, named from `name`: an array's elements, a struct's members (no
/// bases, unions or bit-fields), each a scalar, an array or such a struct. False for another
/// type or initialiser, or past 4,096 scalars.
bool Lowerer::initialised_scalars(clang::QualType type, const clang::Expr* init, std::int64_t offset,
                                  const std::string& name, std::vector<InitialisedScalar>& out) {
  if (init != nullptr) {
    init = init->IgnoreParens();
    if (llvm::isa<clang::ImplicitValueInitExpr>(init)) init = nullptr;
  }
  const auto* list = init != nullptr ? llvm::dyn_cast<clang::InitListExpr>(init) : nullptr;
  if (const auto scalar = scalar_type(type); scalar && *scalar != ir::ScalarType::Bool) {
    if (list != nullptr) {
      if (list->getNumInits() > 1) return false;
      init = list->getNumInits() == 1 ? list->getInit(0) : nullptr;  // {v} or {}
    }
    if (out.size() >= 4096) return false;
    out.push_back(InitialisedScalar{offset, *scalar, init, name});
    return true;
  }
  if (init != nullptr && list == nullptr) return false;
  if (const clang::ConstantArrayType* array = context_.getAsConstantArrayType(type)) {
    const std::uint64_t n = array->getSize().getZExtValue();
    const std::int64_t size = context_.getTypeSizeInChars(array->getElementType()).getQuantity();
    if (list != nullptr && list->getNumInits() > n) return false;
    for (std::uint64_t i = 0; i < n; ++i) {
      const clang::Expr* item =
          list != nullptr && i < list->getNumInits() ? list->getInit(static_cast<unsigned>(i)) : nullptr;
      if (out.size() >= 4096 ||
          !initialised_scalars(array->getElementType(), item, offset + static_cast<std::int64_t>(i) * size,
                               name + "[" + std::to_string(i) + "]", out))
        return false;
    }
    return true;
  }
  const auto* record = type->getAsCXXRecordDecl();
  if (record == nullptr || record->isUnion() || record->getNumBases() != 0 || !record->hasDefinition())
    return false;
  const clang::ASTRecordLayout& layout = context_.getASTRecordLayout(record);
  unsigned index = 0;
  for (const clang::FieldDecl* field : record->fields()) {
    if (field->isBitField()) return false;
    const clang::Expr* item = list != nullptr && index < list->getNumInits() ? list->getInit(index) : nullptr;
    const auto at = static_cast<std::int64_t>(layout.getFieldOffset(field->getFieldIndex()) / 8);
    if (!initialised_scalars(field->getType(), item, offset + at, name + "." + field->getNameAsString(), out))
      return false;
    ++index;
  }
  return true;
}

ir::ExprId Lowerer::i64(std::int64_t value, ir::SourceRange where) {
  return k_.constant(ir::ScalarType::I64, value, where);
}

ir::ExprId Lowerer::offset_expr(const Offset& o, ir::SourceRange where) {
  if (o.expr == ir::kNone) return i64(o.constant, where);
  if (o.constant == 0) return o.expr;
  return k_.binary(ir::BinaryOp::Add, o.expr, i64(o.constant, where), where);
}

Lowerer::Offset Lowerer::add(Offset a, const Offset& b, ir::SourceRange where) {
  if (__builtin_add_overflow(a.constant, b.constant, &a.constant))
    throw Unplaced{"a constant offset past 2^63 bytes"};
  if (b.expr != ir::kNone)
    a.expr = a.expr == ir::kNone ? b.expr : k_.binary(ir::BinaryOp::Add, a.expr, b.expr, where);
  return a;
}

std::int64_t Lowerer::size_of(clang::QualType type, const clang::Expr* at) const {
  if (type->isIncompleteType() || type->isDependentType() || type->isFunctionType())
    throw Unplaced{"the size of " + type.getAsString() + " is not known"};
  (void)at;
  return context_.getTypeSizeInChars(type).getQuantity();
}

/// The part of `e` that may change something when evaluated, or null: an assignment, ++ or --,
/// or a call that writes (call_effect says what). Clang's answer where it sees no possible effect;
/// a read of a launch built-in (threadIdx.x) is none, though the toolkit's headers declare it as a
/// property whose getter Clang counts as a call that may have effects, and so is a call that writes
/// nothing (min, a shuffle, thread_rank(), a __device__ function that computes a value).
const clang::Expr* Lowerer::side_effect(const clang::Expr* e) const {
  if (!e->HasSideEffects(context_)) return nullptr;
  if (e->HasSideEffects(context_, /*IncludePossibleEffects=*/false)) return e;  // =, ++, ...
  e = e->IgnoreParens();
  if (const auto* pseudo = llvm::dyn_cast<clang::PseudoObjectExpr>(e)) {
    const auto* property =
        llvm::dyn_cast<clang::MSPropertyRefExpr>(pseudo->getSyntacticForm()->IgnoreParens());
    const bool read = property != nullptr &&
                      launch_builtin(property->getBaseExpr(), property->getPropertyDecl()->getNameAsString());
    return read ? nullptr : e;
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e)) {
    std::vector<const clang::FunctionDecl*> seen;
    if (!call_effect(call, seen).empty()) return e;
  }
  // Possible effects only below an operator that has none of its own: those of its operands.
  const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(e);
  const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(e);
  const bool plain = (binary != nullptr && !binary->isAssignmentOp()) ||
                     (unary != nullptr && !unary->isIncrementDecrementOp()) ||
                     llvm::isa<clang::CastExpr>(e) || llvm::isa<clang::ConditionalOperator>(e) ||
                     llvm::isa<clang::CallExpr>(e) || llvm::isa<clang::ArraySubscriptExpr>(e) ||
                     llvm::isa<clang::MemberExpr>(e) || llvm::isa<clang::MaterializeTemporaryExpr>(e);
  if (!plain) return e;
  for (const clang::Stmt* child : e->children())
    if (const auto* operand = llvm::dyn_cast_or_null<clang::Expr>(child))
      if (const clang::Expr* effect = side_effect(operand)) return effect;
  return nullptr;
}

/// Why an index with the side effect `effect` is not placed: the call that writes, named.
std::string Lowerer::effect_reason(const clang::Expr* index, const clang::Expr* effect) const {
  std::string reason = "the index '" + text(index) + "' has side effects";
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(effect)) {
    std::vector<const clang::FunctionDecl*> seen;
    reason += ": '" + text(call) + "' " + call_effect(call, seen);
  }
  return reason;
}

/// index * size in bytes, index an integer expression of the source.
Lowerer::Offset Lowerer::scaled(const clang::Expr* index, std::int64_t size, bool negate,
                                ir::SourceRange where) {
  if (!scalar_type(index->getType())) throw Unplaced{"the index is not an integer"};
  if (const clang::Expr* effect = side_effect(index)) throw Unplaced{effect_reason(index, effect)};
  clang::Expr::EvalResult constant;
  if (index->EvaluateAsInt(constant, context_)) {
    const llvm::APSInt v = constant.Val.getInt();
    if (v.getMinSignedBits() > 63) throw Unplaced{"the index is past 2^63"};
    std::int64_t bytes = 0;
    const std::int64_t value = v.isSigned() ? v.getExtValue() : static_cast<std::int64_t>(v.getZExtValue());
    if (__builtin_mul_overflow(value, size, &bytes) || (negate && bytes == INT64_MIN))
      throw Unplaced{"a constant offset past 2^63 bytes"};
    return Offset{ir::kNone, negate ? -bytes : bytes};
  }
  ir::ExprId e = k_.cast(ir::ScalarType::I64, lower_int(index), where);
  if (size != 1) e = k_.binary(ir::BinaryOp::Mul, e, i64(size, where), where);
  if (negate) e = k_.unary(ir::UnaryOp::Neg, e, where);
  return Offset{e, 0};
}

/// The base of a declared variable (a __shared__, __device__ or __constant__ variable, or a
/// local array), made on first use.
std::int32_t Lowerer::variable_base(const clang::VarDecl* var) {
  const auto found = variable_bases_.find(var);
  if (found != variable_bases_.end()) return found->second;
  ir::MemoryBase base;
  base.name = var->getNameAsString();
  if (var->hasAttr<clang::CUDASharedAttr>()) {
    base.space = ir::AddressSpace::Shared;
  } else if (var->hasAttr<clang::CUDAConstantAttr>()) {
    base.space = ir::AddressSpace::Constant;
  } else if (var->hasGlobalStorage()) {
    base.space = ir::AddressSpace::Global;
  } else {
    base.space = ir::AddressSpace::Local;
  }
  const clang::QualType type = var->getType();
  base.bytes = type->isIncompleteType()
                   ? 0
                   : static_cast<std::uint64_t>(context_.getTypeSizeInChars(type).getQuantity());
  base.alignment = static_cast<std::uint32_t>(context_.getDeclAlign(var).getQuantity());
  base.declared = range(var->getSourceRange());
  const std::int32_t id = k_.add_base(base);
  variable_bases_[var] = id;
  return id;
}

/// A kernel pointer parameter's buffer (256-byte aligned, as cudaMalloc returns it).
std::int32_t Lowerer::parameter_base(std::int32_t index, const clang::ParmVarDecl* param) {
  const auto found = parameter_bases_.find(index);
  if (found != parameter_bases_.end()) return found->second;
  ir::MemoryBase base;
  base.name = param->getNameAsString();
  base.space = ir::AddressSpace::Global;
  base.parameter = index;
  base.alignment = 256;
  base.declared = range(param->getSourceRange());
  const std::int32_t id = k_.add_base(base);
  parameter_bases_[index] = id;
  return id;
}

/// Where an lvalue of the source lives; throws Unplaced.
Lowerer::Address Lowerer::address_of(const clang::Expr* e) {
  e = written_lvalue(e);
  const ir::SourceRange where = range(e);
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e)) {  // pick(a[i]) returning its argument
    if (const clang::Expr* argument = forwarded_argument(call)) return address_of(argument);
  }
  if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
    Address a = pointer_value(subscript->getBase());
    a.offset = add(a.offset, scaled(subscript->getIdx(), size_of(e->getType(), e), false, where), where);
    return a;
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e);
      op != nullptr && op->getOpcode() == clang::UO_Deref)
    return pointer_value(op->getSubExpr());
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
    const clang::ValueDecl* decl = member->getMemberDecl();
    const auto* field = llvm::dyn_cast<clang::FieldDecl>(decl);
    if (field != nullptr && field->isBitField()) throw Unplaced{"a bit-field"};
    if (field == nullptr && !llvm::isa<clang::IndirectFieldDecl>(decl)) throw Unplaced{"a static member"};
    const clang::Expr* object = member->getBase();
    Address a = member->isArrow() ? pointer_value(object) : address_of(object);
    a.offset.constant += static_cast<std::int64_t>(context_.getFieldOffset(decl) / 8);
    return a;
  }
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) {
    if (cast->getCastKind() == clang::CK_NoOp) return address_of(cast->getSubExpr());
    if (cast->getCastKind() == clang::CK_UncheckedDerivedToBase ||
        cast->getCastKind() == clang::CK_DerivedToBase) {
      Address a = address_of(cast->getSubExpr());
      a.offset.constant += base_class_offset(cast);
      return a;
    }
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr) throw Unplaced{"not a variable"};
    const auto bound = bindings_.find(var);
    if (bound != bindings_.end() && bound->second.kind == Binding::Memory)
      return bound_address(bound->second, "the reference '" + var->getNameAsString() + "'", where);
    if (var->getType()->isReferenceType())
      throw Unplaced{"reached through the reference '" + var->getNameAsString() + "'"};
    if (!var->hasGlobalStorage() && !var->getType()->isArrayType())
      throw Unplaced{"'" + var->getNameAsString() + "' is a local variable, not memory"};
    return Address{variable_base(var), {}};
  }
  throw Unplaced{"the model does not follow '" + text(e) + "' to an address"};
}

/// The address of the object the inlined member function being lowered runs on (`this`).
Lowerer::Address Lowerer::this_address(ir::SourceRange where) {
  if (this_bindings_.empty() || !this_bindings_.back())
    throw Unplaced{"a member of an object the model does not place ('this')"};
  return bound_address(*this_bindings_.back(), "'this'", where);
}

std::int64_t Lowerer::base_class_offset(const clang::CastExpr* cast) const {
  std::int64_t offset = 0;
  const clang::CXXRecordDecl* derived = cast->getSubExpr()->getType()->getAsCXXRecordDecl();
  for (const clang::CXXBaseSpecifier* base : cast->path()) {
    if (base->isVirtual()) throw Unplaced{"a virtual base class"};
    const clang::CXXRecordDecl* parent = base->getType()->getAsCXXRecordDecl();
    if (derived == nullptr || parent == nullptr) throw Unplaced{"a base class"};
    offset += context_.getASTRecordLayout(derived).getBaseClassOffset(parent).getQuantity();
    derived = parent;
  }
  return offset;
}

/// Whether an lvalue is memory the model counts accesses to (not a modelled local, a launch
/// built-in or a compile-time constant).
bool Lowerer::is_memory(const clang::Expr* e) {
  e = written_lvalue(e);
  if (!e->isGLValue() || dereferenced_local(e)) return false;
  if (llvm::isa<clang::ArraySubscriptExpr>(e)) return true;
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e)) return op->getOpcode() == clang::UO_Deref;
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
    if (field_local(member)) return false;
    const clang::Expr* base = strip(member->getBase());
    if (launch_builtin(base, member->getMemberDecl()->getNameAsString())) return false;
    if (llvm::isa<clang::CXXThisExpr>(base))
      return this_stack_.empty() || this_stack_.back() == kUnknownObject;
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(base); call != nullptr && !member->isArrow()) {
      if (const clang::Expr* argument = forwarded_argument(call)) return is_memory(argument);
      return call->isGLValue() && !may_return_local(call);
    }
    return member->isArrow() || is_memory(member->getBase());
  }
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(e))
    return cast->isGLValue() && is_memory(cast->getSubExpr());
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr) return false;
    const auto bound = bindings_.find(var);
    if (bound != bindings_.end()) return bound->second.kind == Binding::Memory;
    if (!var->hasGlobalStorage() || is_cuda_api(var) || folded_constant(var) != nullptr) return false;
    return var->hasAttr<clang::CUDASharedAttr>() || var->hasAttr<clang::CUDAConstantAttr>() ||
           var->hasAttr<clang::CUDADeviceAttr>();
  }
  return false;
}

/// The space an access the model cannot place is in, as far as the source tells.
ir::AddressSpace Lowerer::guessed_space(const clang::Expr* e) const {
  const std::string space = memory_space(e);
  if (space == "shared memory") return ir::AddressSpace::Shared;
  if (space == "constant memory") return ir::AddressSpace::Constant;
  if (space == "local array") return ir::AddressSpace::Local;
  return ir::AddressSpace::Global;
}

/// Records an access of `kind` to the lvalue `e` (or, with `pointer`, to what the pointer
/// expression `e` points to) in the statement being lowered. True when it was placed: its
/// address's subexpressions are then lowered (their own loads recorded) and need no scan.
/// `again`: the address was lowered before (the load of `a[i] += v`): loads inside it are
/// not recorded a second time.
/// `part`: only this member of the object (a copy moved member by member).
bool Lowerer::record_access(ir::AccessKind kind, const clang::Expr* e, bool pointer, bool again,
                            const Part* part) {
  if (pending_ == nullptr || quiet_ > 0) return false;
  const clang::QualType type = pointer ? e->getType()->getPointeeType() : e->getType();
  ir::MemoryAccess access;
  std::optional<ir::MemoryAccess> null_twin;
  access.kind = kind;
  access.text = text(e) + (part != nullptr ? part->path : "");
  access.range = range(e);
  access.space = pointer ? ir::AddressSpace::Global : guessed_space(e);
  hoist_calls(e);
  const std::size_t hoisted = hoisted_ != nullptr ? hoisted_->size() : 0;
  const std::size_t exprs = k_.exprs.size();
  const std::size_t pending = pending_->accesses.size();
  // A call inlined in the attempt stays, its expressions too (the statement runs it anyway).
  const auto undo = [&] {
    rollback(hoisted_ != nullptr && hoisted_->size() > hoisted ? k_.exprs.size() : exprs, pending);
  };
  try {
    if (type->isIncompleteType() || type->isVoidType()) throw Unplaced{"an access of unknown size"};
    const std::int64_t width =
        part != nullptr ? part->width : context_.getTypeSizeInChars(type).getQuantity();
    access.width = static_cast<std::uint32_t>(width);
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
      throw Unplaced{"a " + std::to_string(width) +
                     "-byte object, which the compiler moves in several accesses"};
    std::optional<Quiet> quiet;
    if (again) quiet.emplace(*this);
    Address a = pointer ? pointer_value(e) : address_of(e);
    quiet.reset();
    if (part != nullptr) a.offset.constant += part->offset;
    access.base = a.base;
    access.space = k_.bases[a.base].space;
    access.offset = offset_expr(a.offset, access.range);
    access.guard = guard_expr(guards_, access.range);
    if (a.null != ir::kNone) null_twin = split_null(access, a.null);
  } catch (const Unplaced& why) {
    undo();
    access = unplaced(access, why.reason);
    pending_->accesses.push_back(access);
    return false;
  } catch (const InvalidInput& why) {
    undo();
    access = unplaced(access, std::string("its address is not an integer expression the model "
                                          "follows: ") +
                                  why.what());
    pending_->accesses.push_back(access);
    return false;
  }
  pending_->accesses.push_back(access);
  if (kind == ir::AccessKind::Load && part == nullptr) pending_->load_at[e] = pending_->accesses.size() - 1;
  if (null_twin) pending_->null_twins.emplace_back(pending_->accesses.size() - 1, *null_twin);
  return true;
}

/// An access through a pointer that is null in the lanes where the int32 local `null` is 1: made
/// where it is not (its guard), and its twin, returned, through the null pointer where it is.
ir::MemoryAccess Lowerer::split_null(ir::MemoryAccess& access, ir::LocalId null) {
  const auto is_null = [&] { return null_test(null, access.range); };
  const auto and_guard = [&](ir::ExprId guard, ir::ExprId c) {
    return guard == ir::kNone ? c : k_.logical(ir::LogicalOp::And, guard, c, access.range);
  };
  ir::MemoryAccess twin = access;
  twin.base = null_base();
  twin.space = ir::AddressSpace::Global;
  twin.offset = i64(0, access.range);
  twin.guard = and_guard(guard_expr(guards_, access.range), is_null());
  access.guard = and_guard(access.guard, k_.unary(ir::UnaryOp::LogicalNot, is_null(), access.range));
  return twin;
}

/// A copy of a whole object from or to memory (`float4 v = p4[i]`, `qs[i] = q`): one access
/// when the object moves in one instruction (its size is its alignment: float2, float4,
/// int4, double2 ...), else one per scalar member at its offset, as nvcc moves a struct of
/// smaller alignment. True when placed.
bool Lowerer::record_object(ir::AccessKind kind, const clang::Expr* e) {
  if (pending_ == nullptr || quiet_ > 0) return false;
  if (moves_whole(e->getType())) return record_access(kind, e);
  std::vector<Part> parts;
  if (!members_of(e->getType(), 0, "", parts) || parts.size() > 64) {
    ir::MemoryAccess access;
    access.kind = kind;
    access.text = text(e);
    access.range = range(e);
    access.space = guessed_space(e);
    pending_->accesses.push_back(unplaced(
        access, "a copy of a " + e->getType().getAsString() + " the model does not split into accesses"));
    return false;
  }
  bool placed = true;
  for (std::size_t i = 0; i < parts.size(); ++i)
    placed = record_access(kind, e, false, /*again=*/i > 0, &parts[i]) && placed;
  return placed;
}

bool Lowerer::moves_whole(clang::QualType type) const {
  if (type->isIncompleteType()) return false;
  const std::int64_t size = context_.getTypeSizeInChars(type).getQuantity();
  const std::int64_t align = context_.getTypeAlignInChars(type).getQuantity();
  return size == align && (size == 1 || size == 2 || size == 4 || size == 8 || size == 16);
}

/// The scalar members (and whole-moving member objects) of `type` at `offset`, recursively;
/// false for what the model does not split (a union, a bit-field, a virtual base).
bool Lowerer::members_of(clang::QualType type, std::int64_t offset, const std::string& path,
                         std::vector<Part>& out) const {
  if (type->isIncompleteType() || out.size() > 64) return false;
  if (type->isScalarType() || (type->isRecordType() && moves_whole(type) && !path.empty())) {
    out.push_back(Part{offset, context_.getTypeSizeInChars(type).getQuantity(), path});
    return true;
  }
  if (const auto* array = context_.getAsConstantArrayType(type)) {
    const std::int64_t stride = context_.getTypeSizeInChars(array->getElementType()).getQuantity();
    for (std::uint64_t i = 0; i < array->getSize().getZExtValue(); ++i)
      if (!members_of(array->getElementType(), offset + static_cast<std::int64_t>(i) * stride,
                      path + "[" + std::to_string(i) + "]", out))
        return false;
    return true;
  }
  const auto* record = type->getAsCXXRecordDecl();
  if (record == nullptr || !record->hasDefinition() || record->isUnion() || record->getNumVBases() > 0)
    return false;
  record = record->getDefinition();
  const clang::ASTRecordLayout& layout = context_.getASTRecordLayout(record);
  for (const clang::CXXBaseSpecifier& base : record->bases()) {
    const clang::CXXRecordDecl* parent = base.getType()->getAsCXXRecordDecl();
    if (parent == nullptr ||
        !members_of(base.getType(), offset + layout.getBaseClassOffset(parent).getQuantity(), path, out))
      return false;
  }
  for (const clang::FieldDecl* field : record->fields()) {
    if (field->isBitField()) return false;
    const auto at = static_cast<std::int64_t>(layout.getFieldOffset(field->getFieldIndex()) / 8);
    if (!members_of(field->getType(), offset + at, path + "." + field->getNameAsString(), out)) return false;
  }
  return true;
}

ir::MemoryAccess Lowerer::unplaced(ir::MemoryAccess access, const std::string& reason) {
  access.base = ir::kNone;
  access.offset = ir::kNone;
  access.guard = ir::kNone;
  access.reason = reason;
  if (access.width != 1 && access.width != 2 && access.width != 4 && access.width != 8 && access.width != 16)
    access.width = 1;  // an object moved in several accesses: its width says nothing
  return access;
}

/// Forgets the expressions (and loads inside them) of an attempt that failed.
void Lowerer::rollback(std::size_t exprs, std::size_t pending) {
  k_.exprs.resize(exprs);
  if (pending_ == nullptr) return;
  pending_->accesses.resize(pending);
  auto& twins = pending_->null_twins;
  twins.erase(std::remove_if(twins.begin(), twins.end(), [&](const auto& t) { return t.first >= pending; }),
              twins.end());
  auto& loads = pending_->loads;
  loads.erase(std::remove_if(loads.begin(), loads.end(),
                             [&](const auto& l) {
                               return static_cast<std::size_t>(l.first) >= exprs || l.second >= pending;
                             }),
              loads.end());
}

/// Gives the collected accesses their ids in statement `target` and links the loads whose
/// values are opaque expressions to them.
void Lowerer::carry_accesses(Pending& p, ir::StmtId target) {
  const auto first = static_cast<std::int32_t>(k_.accesses.size());
  for (ir::MemoryAccess& a : p.accesses) k_.stmts[target].accesses.push_back(k_.add_access(a));
  for (const auto& [expr, index] : p.loads) k_.exprs[expr].access = first + static_cast<std::int32_t>(index);
  for (auto& twin : p.null_twins) k_.stmts[target].accesses.push_back(k_.add_access(twin.second));
  p.null_twins.clear();
  p.accesses.clear();
  p.loads.clear();
}

/// The conjunction of the guards, lowered afresh (each access owns its expressions); kNone
/// without guards. Throws Unplaced when a condition cannot be lowered again.
ir::ExprId Lowerer::guard_expr(const std::vector<Guard>& in_force, ir::SourceRange where) {
  ir::ExprId all = ir::kNone;
  const Quiet quiet(*this);  // the condition's own loads and flops were counted where it ran
  // A copy: lowering a condition that holds && or || pushes guards of its own (on guards_, which
  // `in_force` may be).
  const std::vector<Guard> guards = in_force;
  for (const Guard& g : guards) {
    if (side_effect(g.condition) != nullptr)
      throw Unplaced{"it is made only where '" + text(g.condition) +
                     "' holds, a condition with side effects"};
    ir::ExprId c = lower_int(g.condition);
    if (k_.exprs[c].type != ir::ScalarType::Bool) c = k_.cast(ir::ScalarType::Bool, c, where);
    if (!g.holds) c = k_.unary(ir::UnaryOp::LogicalNot, c, where);
    all = all == ir::kNone ? c : k_.logical(ir::LogicalOp::And, all, c, where);
  }
  return all;
}

/// Floating-point operations of one expression node, counted in the statement being lowered.
void Lowerer::count_flops(std::uint32_t operations) {
  if (pending_ == nullptr || quiet_ > 0 || operations == 0) return;
  pending_->flops.push_back(PendingFlops{operations, guards_});
}

/// add, sub, mul, div and their compound assignments, ++ and -- on a float: 1; fma: 2.
std::uint32_t Lowerer::float_operations(const clang::Stmt* s) {
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(s)) {
    const bool arithmetic = op->getOpcode() == clang::BO_Add || op->getOpcode() == clang::BO_Sub ||
                            op->getOpcode() == clang::BO_Mul || op->getOpcode() == clang::BO_Div ||
                            op->getOpcode() == clang::BO_AddAssign ||
                            op->getOpcode() == clang::BO_SubAssign ||
                            op->getOpcode() == clang::BO_MulAssign || op->getOpcode() == clang::BO_DivAssign;
    const clang::QualType type =
        llvm::isa<clang::CompoundAssignOperator>(op)
            ? llvm::cast<clang::CompoundAssignOperator>(op)->getComputationResultType()
            : op->getType();
    return arithmetic && type->isRealFloatingType() ? 1 : 0;
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(s))
    return op->isIncrementDecrementOp() && op->getType()->isRealFloatingType() ? 1 : 0;
  return 0;
}

/// Moves the statement's floating-point operations into `target`, each group with the guard
/// of its lanes.
void Lowerer::carry_flops(Pending& p, ir::StmtId target, const clang::Stmt* s) {
  std::uint32_t unguarded = 0;
  for (const PendingFlops& f : p.flops) {
    if (f.guards.empty()) {
      unguarded += f.operations;
      continue;
    }
    const std::size_t exprs = k_.exprs.size();
    try {
      const ir::ExprId guard = guard_expr(f.guards, range(s));
      k_.stmts[target].flops.push_back(ir::FloatOps{f.operations, guard});
    } catch (const Unplaced& why) {
      k_.exprs.resize(exprs);
      k_.stmts[target].flops_not_counted = why.reason;
    } catch (const InvalidInput& why) {
      k_.exprs.resize(exprs);
      k_.stmts[target].flops_not_counted = why.what();
    }
  }
  if (unguarded != 0) {
    auto& flops = k_.stmts[target].flops;
    flops.insert(flops.begin(), ir::FloatOps{unguarded, ir::kNone});
  }
}

/// Moves what the statement collected into `id` (a Declare, Assign, Work or Return); for
/// another statement, into a Work statement placed before it.
ir::StmtId Lowerer::attach(Pending& p, ir::StmtId id, const clang::Stmt* s) {
  if (p.accesses.empty() && p.flops.empty()) return id;
  const auto carries = [&](ir::StmtId at) {
    const ir::StmtKind kind = k_.stmts[at].kind;
    return kind == ir::StmtKind::Declare || kind == ir::StmtKind::Assign || kind == ir::StmtKind::Work ||
           kind == ir::StmtKind::Return;
  };
  // A condition's loads and floating-point operations run at each evaluation of it: the
  // statement carries them (an if's loads were carried link by link in lower_if).
  const bool condition =
      id != ir::kNone && (k_.stmts[id].kind == ir::StmtKind::If || k_.stmts[id].kind == ir::StmtKind::Loop ||
                          k_.stmts[id].kind == ir::StmtKind::Switch);
  ir::StmtId target = id;
  if (!condition && (id == ir::kNone || !carries(id))) target = k_.work(text(s), range(s));
  if (!condition || k_.stmts[id].kind != ir::StmtKind::If) carry_accesses(p, target);
  carry_flops(p, target, s);
  if (target == id) return id;
  if (id == ir::kNone) return target;
  if (k_.stmts[id].kind == ir::StmtKind::Block) {
    auto& children = k_.stmts[id].children;
    children.insert(children.begin(), target);
    return id;
  }
  return k_.block({target, id}, range(s));
}

/// `lvalue op= v`, `lvalue = v`, `++lvalue` ...: a load (when `load`) and a store of one
/// address; the loads inside the address are recorded once. True when placed.
bool Lowerer::load_and_store(const clang::Expr* lvalue, bool load) {
  if (pending_ == nullptr || quiet_ > 0) return false;
  if (load && !record_access(ir::AccessKind::Load, lvalue)) {
    record_unplaced(ir::AccessKind::Store, lvalue);
    return false;
  }
  return record_access(ir::AccessKind::Store, lvalue, false, /*again=*/load);
}

/// `a[i] = v` where v is a scalar expression the model holds: the store's value (converted to
/// the element's type, as the assignment converts it), lowered once more without recording
/// its loads or flops (scan_work did) and without calls (they would run twice). Anything the
/// model does not hold leaves the value unknown.
void Lowerer::stored_value(const clang::BinaryOperator* op, std::size_t store) {
  const auto type = scalar_type(op->getLHS()->getType());
  if (!type || *type == ir::ScalarType::Bool || pending_->accesses[store].kind != ir::AccessKind::Store ||
      pending_->accesses[store].width != static_cast<std::uint32_t>(ir::bit_width(*type) / 8))
    return;
  if (const auto value = lowered_again(op->getRHS(), *type, "a stored value"))
    pending_->accesses[store].value = *value;
}

/// atomicAdd / Sub / Min / Max / And / Or / Xor / Exch / CAS / Inc / Dec (and their _block,
/// _system forms) on a scalar element: the operation and its operand (a CAS's compared value
/// too), as PTX's atom has them: add and exch also on float and double, inc and dec on
/// unsigned int. The replay runs them in its documented order (sim/model/ir.hpp AtomicOp); others,
/// or an operand the model does not hold, stay Other.
void Lowerer::atomic_operand(const clang::CallExpr* call, const clang::FunctionDecl* callee,
                             std::size_t access) {
  std::string name = callee->getNameAsString();
  for (const std::string scope : {"_block", "_system"})
    if (name.size() > scope.size() && name.compare(name.size() - scope.size(), std::string::npos, scope) == 0)
      name.resize(name.size() - scope.size());
  const BuiltinFunction* builtin = builtin_named(name);
  const auto type = scalar_type(call->getArg(0)->getType()->getPointeeType());
  if (builtin == nullptr || builtin->kind != BuiltinKind::Atomic || !type || *type == ir::ScalarType::Bool ||
      pending_->accesses[access].width != static_cast<std::uint32_t>(ir::bit_width(*type) / 8))
    return;
  const auto op = static_cast<ir::AtomicOp>(builtin->operation);
  const auto operands = static_cast<unsigned>(builtin->arity);  // a CAS's compared value too
  if (call->getNumArgs() != operands ||
      (ir::is_floating(*type) && op != ir::AtomicOp::Add && op != ir::AtomicOp::Exch) ||
      ((op == ir::AtomicOp::Inc || op == ir::AtomicOp::Dec) && *type != ir::ScalarType::U32))
    return;
  const std::size_t exprs = k_.exprs.size();
  const std::size_t loads = pending_->loads.size();
  std::optional<ir::ExprId> compare;
  if (op == ir::AtomicOp::Cas && !(compare = lowered_again(call->getArg(1), *type, "a CAS's compared value")))
    return;
  if (const auto value = lowered_again(call->getArg(operands - 1), *type, "an atomic's operand")) {
    pending_->accesses[access].value = *value;
    if (compare) pending_->accesses[access].compare = *compare;
    pending_->accesses[access].atomic = op;
    return;
  }
  k_.exprs.resize(exprs);  // the compared value's expressions, unused
  pending_->loads.resize(loads);
}

/// `e`, already scanned as work, lowered once more as a value of `type` without recording its
/// loads or flops again and without calls (they would run twice); nullopt, and nothing added
/// to the model, where the model does not hold it.
std::optional<ir::ExprId> Lowerer::lowered_again(const clang::Expr* e, ir::ScalarType type,
                                                 const char* what) {
  if (calls_code(e)) return std::nullopt;
  const std::size_t exprs = k_.exprs.size();
  const std::size_t loads = pending_->loads.size();
  try {
    const Quiet quiet(*this);
    NoHoist no_hoist(*this, what);
    return convert(lower_int(e), type, range(e));
  } catch (const InvalidInput&) {
  } catch (const Unplaced&) {
  }
  k_.exprs.resize(exprs);
  pending_->loads.resize(loads);
  return std::nullopt;
}

/// `a[i] op= v`, `a[i]++` ...: the value the store writes, from the element the load before
/// it read (load `store - 1`), as for a local (assigned_value, incremented); unknown where the
/// model does not hold it.
void Lowerer::updated_value(const clang::Expr* op, std::size_t store) {
  const clang::Expr* target = nullptr;
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(op)) target = b->getLHS();
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(op)) target = u->getSubExpr();
  const auto type = scalar_type(target->getType());
  if (store == 0 || !type || *type == ir::ScalarType::Bool ||
      pending_->accesses[store].kind != ir::AccessKind::Store ||
      pending_->accesses[store - 1].kind != ir::AccessKind::Load ||
      pending_->accesses[store].width != static_cast<std::uint32_t>(ir::bit_width(*type) / 8))
    return;
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(op); b != nullptr && calls_code(b->getRHS()))
    return;
  const std::size_t exprs = k_.exprs.size();
  const std::size_t loads = pending_->loads.size();
  try {
    const Quiet quiet(*this);
    NoHoist no_hoist(*this, "a stored value");
    const ir::ExprId old = k_.opaque(*type, describe(target), range(target));
    link_load(old, store - 1, target->getType());
    if (pending_->loads.size() == loads)
      throw InvalidInput(Diag::unsupported_construct, "the element is not loaded whole");
    ir::ExprId value = ir::kNone;
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(op))
      value = assigned_value(b, old, *type);
    else
      value = incremented(llvm::cast<clang::UnaryOperator>(op), old, *type);
    pending_->accesses[store].value = value;
    return;
  } catch (const InvalidInput&) {
  } catch (const Unplaced&) {
  }
  k_.exprs.resize(exprs);
  pending_->loads.resize(loads);
}

/// Whether `s` calls a function the model would inline, or constructs an object.
bool Lowerer::calls_code(const clang::Stmt* s) const {
  if (s == nullptr) return false;
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s)) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr || inlinable(callee)) return true;
  }
  if (llvm::isa<clang::CXXConstructExpr>(s) || llvm::isa<clang::LambdaExpr>(s)) return true;
  for (const clang::Stmt* child : s->children())
    if (calls_code(child)) return true;
  return false;
}

/// The store half of an access whose load could not be placed: the same reason.
void Lowerer::record_unplaced(ir::AccessKind kind, const clang::Expr* lvalue) {
  (void)lvalue;
  ir::MemoryAccess copy = pending_->accesses.back();
  copy.kind = kind;
  pending_->accesses.push_back(copy);
}

/// Its store (when `a` is memory) and the load of `b` (when `b` is memory); where b is an object
/// the model follows (a local, a temporary), the values its stores write are b's members.
void Lowerer::object_store(const clang::CallExpr* call) {
  const clang::Expr* target = call->getArg(0);
  const clang::Expr* source = call->getArg(1);
  const std::size_t first = pending_ != nullptr ? pending_->accesses.size() : 0;
  const bool stored = is_memory(target) && record_object(ir::AccessKind::Store, target);
  if (!stored) scan_work(target);
  if (is_memory(source) && record_object(ir::AccessKind::Load, source)) return;
  const int object = stored ? stored_object(source) : kUnknownObject;
  if (object == kUnknownObject) {
    scan_work(source);
    return;
  }
  store_members(object, ObjectCopy{text(target), first, objects_[object].name.size()}, range(source));
}

}  // namespace warpdiv::frontend::detail::lowering
