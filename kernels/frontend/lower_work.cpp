// Opaque values and work: what the model does not compute is an Opaque value described for
// messages, or a Work statement; scan_work walks such an expression for the loads, stores,
// atomics, floating-point operations and calls in it, and refuses what would change a
// modelled local behind the model's back.
#include "kernels/frontend/lowerer.hpp"

#include <algorithm>

namespace warpdiv::frontend::detail::lowering {

/// Where an lvalue lives: "global memory", "shared memory", "constant memory", "local array" ...
std::string Lowerer::memory_space(const clang::Expr* e) const {
  return memory_space_in(e, this_exprs_.size());
}

/// What the lvalue `e` is part of: through subscripts, members, `*` and pointer arithmetic to the
/// array, object or pointer it starts from (a variable, `this`, a call ...).
const clang::Expr* lvalue_base(const clang::Expr* e) {
  const clang::Expr* base = strip(e);
  while (true) {
    if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(base)) {
      base = strip(subscript->getBase());
    } else if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(base)) {
      base = strip(member->getBase());
    } else if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(base);
               op != nullptr && op->getOpcode() == clang::UO_Deref) {
      base = strip(op->getSubExpr());
    } else if (const auto* arith = llvm::dyn_cast<clang::BinaryOperator>(base);
               arith != nullptr && arith->getType()->isPointerType()) {
      base = strip(arith->getLHS()->getType()->isPointerType() ? arith->getLHS() : arith->getRHS());
    } else {
      return base;
    }
  }
}

/// memory_space() of `e` as written in the function the first `frames` inlined calls lead to: its
/// `this` is the object that call was made on, in its caller.
std::string Lowerer::memory_space_in(const clang::Expr* e, std::size_t frames) const {
  const clang::Expr* base = lvalue_base(e);
  if (llvm::isa<clang::CXXThisExpr>(base) && frames > 0 && this_exprs_[frames - 1] != nullptr)
    return memory_space_in(this_exprs_[frames - 1], frames - 1);
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(base)) {  // the reference a call returns
    if (const clang::Expr* argument = forwarded_argument(call)) return memory_space_in(argument, frames);
    if (returns_memory(call) && call_object(call) != nullptr)
      return memory_space_in(call_object(call), frames);
  }
  const clang::VarDecl* var = named_variable(base);
  if (var == nullptr) return "memory";
  if (const auto bound = bindings_.find(var);
      bound != bindings_.end() && bound->second.kind == Binding::Memory && bound->second.target != nullptr)
    return memory_space_in(bound->second.target, frames);  // a reference to memory: the memory's
  if (var->hasAttr<clang::CUDASharedAttr>()) return "shared memory";
  if (var->hasAttr<clang::CUDAConstantAttr>()) return "constant memory";
  if (var->hasGlobalStorage()) return "global memory";
  if (llvm::isa<clang::ParmVarDecl>(var) && var->getType()->isPointerType()) {
    const bool kernel_parameter = var->getDeclContext() == call_stack_.front();
    return kernel_parameter ? "global memory" : "memory";
  }
  if (var->getType()->isArrayType()) return "local array";
  if (var->getType()->isPointerType()) return "memory";
  if (llvm::isa<clang::ParmVarDecl>(var)) return "parameter";
  const clang::CXXRecordDecl* record = var->getType()->getAsCXXRecordDecl();
  if (record != nullptr && trackable(var->getType()) == nullptr)
    return record->hasDefinition() && plain_layout(record->getDefinition())
               ? "a local object of a CUDA or system type, which the model does not follow member by member"
               : "a local object the model does not follow member by member (a union, bit-fields or "
                 "virtual functions)";
  if (var->getType()->isRecordType()) return "a member the model does not compute";
  return "local variable";
}

/// What an opaque expression is, for messages: "A[i] (global memory)", "x > 0.5f (floating
/// point)", "atomicAdd(&n, 1) (atomic result)".
std::string Lowerer::describe(const clang::Expr* e) const {
  const clang::Expr* bare = strip(e);
  std::string what;
  if (llvm::isa<clang::ArraySubscriptExpr>(bare) || llvm::isa<clang::MemberExpr>(bare) ||
      (llvm::isa<clang::UnaryOperator>(bare) &&
       llvm::cast<clang::UnaryOperator>(bare)->getOpcode() == clang::UO_Deref)) {
    what = memory_space(bare);
  } else if (const auto* call = llvm::dyn_cast<clang::CallExpr>(bare)) {
    const auto* callee = call->getDirectCallee();
    const std::string name = callee != nullptr ? callee->getNameAsString() : "";
    const bool builtin = callee != nullptr && is_cuda_api(callee);
    const BuiltinKind family = builtin_family(name);
    if (family == BuiltinKind::Atomic) {
      what = "atomic result";
    } else if (builtin && family == BuiltinKind::Texture) {
      what = "texture memory";  // tex1Dfetch, tex2D ...: a load whose value the model lacks
    } else if (builtin && family == BuiltinKind::Surface) {
      what = "surface memory";
    } else {
      what = "result of " + name;
    }
  } else if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(bare)) {
    const clang::QualType operand = op->getLHS()->IgnoreParenImpCasts()->getType();
    what =
        operand->isRealFloatingType() || op->getRHS()->IgnoreParenImpCasts()->getType()->isRealFloatingType()
            ? "floating point"
        : operand->isPointerType() ? "pointer"
                                   : "unmodelled value";
  } else if (bare->getType()->isRealFloatingType()) {
    what = "floating point";
  } else if (bare->getType()->isPointerType()) {
    what = "pointer";
  } else if (const clang::VarDecl* var = named_variable(bare);
             var != nullptr && (var->hasGlobalStorage() ||
                                (bindings_.count(var) != 0 && bindings_.at(var).kind == Binding::Memory))) {
    what = memory_space(bare);
  } else {
    what = "unmodelled value";
  }
  return text(e) + " (" + what + ")";
}

/// An Opaque value of `type` for `e` (its description) at `at`'s range (e's by default).
ir::ExprId Lowerer::opaque(const clang::Expr* e, ir::ScalarType type, const clang::Expr* at) {
  if (quiet_ > 0 && pending_ != nullptr && is_memory(e)) {  // lowered again: the load recorded before
    const ir::ExprId id = k_.opaque(type, describe(e), range(at != nullptr ? at : e));
    const auto found = pending_->load_at.find(e);
    if (found != pending_->load_at.end()) link_load(id, found->second, e->getType());
    return id;
  }
  const bool load = is_memory(e) && record_access(ir::AccessKind::Load, e);
  if (!load) scan_work(e);
  const ir::ExprId id = k_.opaque(type, describe(e), range(at != nullptr ? at : e));
  if (!load) k_.exprs[static_cast<std::size_t>(id)].reads = floating_locals_read(e);
  if (!load && pending_ != nullptr) {  // __ldg(p), atomicAdd(p, v) ...: the access it made
    const auto found = pending_->intrinsic_at.find(strip(e));
    if (found != pending_->intrinsic_at.end()) link_load(id, found->second, e->getType());
    return id;
  }
  // The value is the loaded element itself when its type is `type` and the access moves it whole.
  if (load && scalar_type(e->getType()) == type &&
      pending_->accesses.back().width == static_cast<std::uint32_t>(std::max(1, ir::bit_width(type) / 8)))
    pending_->loads.emplace_back(id, pending_->accesses.size() - 1);
  return id;
}

/// The floating-point locals of the model that `e` reads (a math function's arguments), in
/// source order, each once.
std::vector<std::int32_t> Lowerer::floating_locals_read(const clang::Stmt* e) const {
  std::vector<std::int32_t> reads;
  std::vector<const clang::Stmt*> todo{e};
  while (!todo.empty()) {
    const clang::Stmt* s = todo.back();
    todo.pop_back();
    if (s == nullptr) continue;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(s)) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      const auto found = var != nullptr ? bindings_.find(var) : bindings_.end();
      if (found != bindings_.end() && found->second.kind == Binding::Local && found->second.id != ir::kNone &&
          ir::is_floating(k_.locals[static_cast<std::size_t>(found->second.id)].type) &&
          std::find(reads.begin(), reads.end(), found->second.id) == reads.end())
        reads.push_back(found->second.id);
    }
    // Children pushed in reverse, so that they come off in source order.
    std::vector<const clang::Stmt*> children(s->child_begin(), s->child_end());
    todo.insert(todo.end(), children.rbegin(), children.rend());
  }
  return reads;
}

/// Links the opaque value `id` to load `index` of the statement when the load moves the value
/// whole (its type is the expression's, `type`).
/// Also an atomic's value (the element before it) where the model has its operation.
void Lowerer::link_load(ir::ExprId id, std::size_t index, clang::QualType type) {
  const ir::MemoryAccess& a = pending_->accesses[index];
  const bool atomic =
      a.kind == ir::AccessKind::Atomic && a.atomic != ir::AtomicOp::Other && a.value != ir::kNone;
  if ((a.kind == ir::AccessKind::Load || atomic) && scalar_type(type) == k_.exprs[id].type &&
      a.width == static_cast<std::uint32_t>(std::max(1, ir::bit_width(k_.exprs[id].type) / 8)))
    pending_->loads.emplace_back(id, index);
}

/// Checks an expression the model does not evaluate (work, or an opaque value): it must not
/// change a modelled local or take its address, nor hide a barrier; calls of __device__
/// functions in it are inlined before the statement.
void Lowerer::scan_work(const clang::Stmt* s) {
  if (s == nullptr) return;
  const Deeper deeper(*this, s);
  if (const auto* e = llvm::dyn_cast<clang::Expr>(s); e != nullptr && dereferenced_local(e))
    return;  // *p read where p points to a local: the model knows it
  count_flops(float_operations(s));
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(s);
      cast != nullptr && cast->getCastKind() == clang::CK_LValueToRValue &&
      is_memory(cast->getSubExpr())) {  // a load
    if (!record_access(ir::AccessKind::Load, cast->getSubExpr())) scan_work(cast->getSubExpr());
    return;
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(s)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var != nullptr && pointer_targets_.count(var) != 0)
      refuse(s, "the pointer '" + var->getNameAsString() + "' to a local is used other than as *" +
                    var->getNameAsString() + " or " + var->getNameAsString() +
                    "[0]: not supported (the model could not follow "
                    "writes through it)");
  }
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(s); op != nullptr && scan_binary(op)) return;
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(s); op != nullptr && scan_unary(op)) return;
  if (const auto* conditional = llvm::dyn_cast<clang::AbstractConditionalOperator>(s)) {
    scan_work(conditional->getCond());
    NoHoist no_hoist(*this, "an arm of ?:");
    {
      const GuardScope guard(*this, conditional->getCond(), true);
      scan_work(conditional->getTrueExpr());
    }
    const GuardScope guard(*this, conditional->getCond(), false);
    scan_work(conditional->getFalseExpr());
    return;
  }
  if (scan_object_code(s)) return;
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s); call != nullptr && scan_call(call)) return;
  for (const clang::Stmt* child : s->children()) scan_work(child);
}

/// scan_work's part for a binary operator: a change of a modelled local (deferred after the
/// statement, or refused), a store (a load first for op=), && and || (the right operand guarded).
/// True when the operator is done with; false to scan its operands as they are.
bool Lowerer::scan_binary(const clang::BinaryOperator* op) {
  if (op->isAssignmentOp() && bound_local(op->getLHS()) &&
      defer(op, *bound_local(op->getLHS()), /*assignment=*/true))
    return true;
  if (op->isAssignmentOp() && bound_local(op->getLHS()))
    refuse(op, "'" + text(op) + "' changes the local '" + text(op->getLHS()) +
                   "' inside a larger expression: not supported (write it as its own statement)");
  if (op->isAssignmentOp() && !is_memory(op->getLHS())) {  // after its parts (an inlined call's refusal)
    scan_work(op->getLHS());
    scan_work(op->getRHS());
    check_write(op, op->getLHS());
    return true;
  }
  if (op->isAssignmentOp() && is_memory(op->getLHS())) {  // a store (a load first for op=)
    const bool placed = load_and_store(op->getLHS(), op->isCompoundAssignmentOp());
    if (!placed) scan_work(op->getLHS());
    const std::size_t store = placed ? pending_->accesses.size() - 1 : 0;
    scan_work(op->getRHS());
    if (placed && op->getOpcode() == clang::BO_Assign) stored_value(op, store);
    if (placed && op->isCompoundAssignmentOp()) updated_value(op, store);
    return true;
  }
  if (op->isLogicalOp()) {
    scan_work(op->getLHS());
    NoHoist no_hoist(*this, "the right operand of && or ||");
    const GuardScope guard(*this, op->getLHS(), op->getOpcode() == clang::BO_LAnd);
    scan_work(op->getRHS());
    return true;
  }
  return false;
}

/// scan_work's part for a unary operator: ++ and -- of a modelled local (deferred, or refused)
/// or of memory (a load and a store); the address of a modelled local is refused. True when the
/// operator is done with.
bool Lowerer::scan_unary(const clang::UnaryOperator* op) {
  if (op->isIncrementDecrementOp() && bound_local(op->getSubExpr()) &&
      defer(op, *bound_local(op->getSubExpr()), /*assignment=*/false))
    return true;
  if (op->isIncrementDecrementOp() && bound_local(op->getSubExpr()))
    refuse(op, "'" + text(op) +
                   "' changes a local inside a larger expression: not supported "
                   "(write it as its own statement)");
  if (op->isIncrementDecrementOp() && !is_memory(op->getSubExpr())) check_write(op, op->getSubExpr());
  if (op->isIncrementDecrementOp() && is_memory(op->getSubExpr())) {
    if (!load_and_store(op->getSubExpr(), true))
      scan_work(op->getSubExpr());
    else
      updated_value(op, pending_->accesses.size() - 1);
    return true;
  }
  if (op->getOpcode() == clang::UO_AddrOf &&
      (bound_local(op->getSubExpr()) || object_of(op->getSubExpr()) != kUnknownObject))
    refuse(op, "taking the address of the local '" + text(op->getSubExpr()) +
                   "' is not supported (the model cannot follow writes through it)");
  return false;
}

/// scan_work's part for C++ code: lambdas and statement expressions, `this` and objects the
/// model follows (refused where they escape it), constructors (a copy from memory is a load; a
/// user-written constructor runs as an inlined call on opaque object memory). True when `s` is
/// done with.
bool Lowerer::scan_object_code(const clang::Stmt* s) {
  if (llvm::isa<clang::LambdaExpr>(s) || llvm::isa<clang::StmtExpr>(s))
    refuse(s, "a lambda or statement expression is not supported");
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(s)) {
    // this->n: a member read, not `this` handed on.
    if (llvm::isa<clang::CXXThisExpr>(member->getBase()->IgnoreParenImpCasts())) return true;
  }
  if (llvm::isa<clang::CXXThisExpr>(s) && !this_stack_.empty() && this_stack_.back() != kUnknownObject)
    refuse(s,
           "handing 'this' on is not supported: the model follows this object's members and "
           "could not follow writes through the pointer");
  if (const auto* e = llvm::dyn_cast<clang::Expr>(s); e != nullptr && object_assignment(e))
    refuse(s, "'" + text(s) +
                  "' assigns an object inside a larger expression: not supported "
                  "(write it as its own statement)");
  const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(s);
  if (construct == nullptr) return false;
  const clang::CXXConstructorDecl* constructor = construct->getConstructor();
  if (constructor->isCopyOrMoveConstructor() && constructor->isTrivial() && construct->getNumArgs() == 1 &&
      is_memory(construct->getArg(0))) {  // a copy from memory
    if (!record_object(ir::AccessKind::Load, construct->getArg(0))) scan_work(construct->getArg(0));
    return true;
  }
  if (!constructor->isTrivial() && inlinable(constructor) && constructor->hasBody()) {
    check_function(construct, constructor);
    std::vector<const clang::Expr*> args(construct->arg_begin(), construct->arg_end());
    hoist(construct, inline_function(construct, constructor, args, ir::kNone));
    return true;
  }
  return false;
}

/// scan_work's part for a call: a barrier is refused; an fma counts two flops; an object's
/// trivial assignment, a memory intrinsic (its access, an atomic's operation) and a __device__
/// function (inlined before the statement) are done with (true).
bool Lowerer::scan_call(const clang::CallExpr* call) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr) refuse(call, "a call through a function pointer is not supported");
  if (is_syncthreads(callee) || is_syncwarp(callee) ||
      (is_cuda_api(callee) && builtin_family(callee->getNameAsString()) == BuiltinKind::Barrier) ||
      is_group_sync(call))
    refuse(call, "a barrier inside a larger expression is not supported");
  if (is_fma(callee)) count_flops(2);
  if (trivial_assignment(call)) {
    object_store(call);
    return true;
  }
  if (const auto kind = memory_intrinsic(callee);
      kind && call->getNumArgs() > 0 && call->getArg(0)->getType()->isPointerType()) {
    const bool placed = record_access(*kind, call->getArg(0), /*pointer=*/true);
    const std::size_t access = placed ? pending_->accesses.size() - 1 : 0;
    for (unsigned i = placed ? 1 : 0; i < call->getNumArgs(); ++i) scan_work(call->getArg(i));
    if (placed && *kind == ir::AccessKind::Atomic) atomic_operand(call, callee, access);
    if (placed && *kind != ir::AccessKind::Store) pending_->intrinsic_at[call] = access;
    return true;
  }
  if (inlinable(callee)) {
    check_callee(call, callee);
    const auto type = scalar_type(callee->getReturnType());
    if (type) {
      inlined_result(call, callee, *type);
    } else {
      hoist(call, inline_call(call, callee, ir::kNone));
    }
    return true;
  }
  refuse_unseen_writes(call, callee);
  return false;
}

/// A function the model neither inlines nor models (memset, memcpy, sincosf ...) given a pointer
/// to writable memory may write there: shared memory, a local array or a buffer whose values the
/// model follows would change unseen, and every branch on them be counted with the old values.
/// Refused; free() only releases its memory. Atomics and the load and store intrinsics are
/// modelled (memory_intrinsic), and a variadic function's extra arguments (printf's) are read.
void Lowerer::refuse_unseen_writes(const clang::CallExpr* call, const clang::FunctionDecl* callee) {
  if (inlinable(callee) || memory_intrinsic(callee) || callee->getNameAsString() == "free") return;
  for (unsigned i = 0; i < callee->getNumParams() && i < call->getNumArgs(); ++i) {
    const clang::QualType type = callee->getParamDecl(i)->getType();
    if (!type->isPointerType() || type->getPointeeType().isConstQualified()) continue;
    if (writes_opaque_float(call->getArg(i))) continue;
    refuse(call, "'" + callee->getNameAsString() + "' may write through its argument '" +
                     text(call->getArg(i)) + "', which the model cannot follow: not supported");
  }
}

/// Whether `argument` is the address of a floating-point local whose address is taken (`&s` of
/// sincosf(x, &s, &c)): the model holds no value of it (it reads it as opaque), so a write
/// through the pointer changes nothing the model holds.
bool Lowerer::writes_opaque_float(const clang::Expr* argument) {
  const auto* op = llvm::dyn_cast<clang::UnaryOperator>(argument->IgnoreParenImpCasts());
  if (op == nullptr || op->getOpcode() != clang::UO_AddrOf) return false;
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(op->getSubExpr()->IgnoreParenImpCasts());
  const auto* var = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var != nullptr && !var->hasGlobalStorage() && var->getType()->isRealFloatingType() &&
         address_taken_float(var);
}

}  // namespace warpdiv::frontend::detail::lowering
