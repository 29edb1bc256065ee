// C++: references, pointers to locals, __device__ functions inlined at each call (member
// functions on their object, constructors), and objects. A local variable of a struct or class
// type is followed member by member. Each integer member (of the class and its bases, and of
// member objects) is a local of the model named "s.n"; a member function runs inlined on its
// object (this); copies and assignments copy member by member. A temporary is an object too: the
// one a local is initialised from is that local (a call returning the class by value runs inlined
// with each `return` initialising it), and one a member function runs on or a const reference is
// bound to is an object of its own. An object the model does not track (in memory, shared, an
// array element, a kernel parameter, a union or one with bit-fields) reads as opaque memory (a
// copy of it into a local object: each member its own load's value) and is written as work.
#include "kernels/frontend/lowerer.hpp"

#include <algorithm>

namespace warpdiv::frontend::detail::lowering {

/// What an int& bound to `target` (named `name`) is: the local itself (writes through it reach
/// the local), memory (a[i], s.n: an address, whose offset is held by a local declared in
/// `out`), or nothing the model can follow (a kernel parameter, a local of another type, an
/// lvalue that may designate a modelled local).
std::optional<Lowerer::Binding> Lowerer::reference_binding(const clang::Expr* target, ir::ScalarType type,
                                                           const std::string& name,
                                                           std::vector<ir::StmtId>& out) {
  if (const auto local = bound_local(target))
    return k_.locals[*local].type == type ? std::optional<Binding>(Binding{Binding::Local, *local})
                                          : std::nullopt;
  if (const clang::VarDecl* var = named_variable(target)) {
    const auto found = bindings_.find(var);
    if (found != bindings_.end()) {
      if (found->second.kind == Binding::Memory) return found->second;
      return std::nullopt;
    }
    if (!var->hasGlobalStorage()) return std::nullopt;
  }
  if (holds_modelled(target)) return std::nullopt;
  return memory_binding(target, name, out);
}

/// A reference bound to the memory lvalue `target` (with `pointer`, to what the pointer `target`
/// points to): its address, fixed here (the offset in a local "&name" declared in `out`), or
/// unplaced with why.
Lowerer::Binding Lowerer::memory_binding(const clang::Expr* target, const std::string& name,
                                         std::vector<ir::StmtId>& out, bool pointer) {
  Binding binding{Binding::Memory, ir::kNone};
  binding.target = target;
  const std::size_t exprs = k_.exprs.size();
  const std::size_t pending = pending_ != nullptr ? pending_->accesses.size() : 0;
  try {
    const Address a = pointer ? pointer_value(target) : address_of(target);
    if (a.null != ir::kNone) throw Unplaced{"the pointer is null in some lanes"};
    binding.base = a.base;
    binding.constant = a.offset.constant;
    if (a.offset.expr != ir::kNone) {
      const ir::SourceRange where = range(target);
      binding.offset = k_.add_local("&" + name, ir::ScalarType::I64, where);
      out.push_back(k_.declare(binding.offset, a.offset.expr, where));
    }
    return binding;
  } catch (const Unplaced& unplaced) {
    binding.unplaced = unplaced.reason;
  }
  rollback(exprs, pending);
  scan_work(target);
  return binding;
}

/// What a reference of a class type (`const P& p`, `float4& v`, a parameter or a local named
/// `name`, `writable` unless const) bound to `target` is, where the model tracks no object there:
/// memory (an element, a member of one, a reference bound to one, the reference a call returns
/// to memory, or an lvalue that may be memory, as `c ? a[i] : a[j]`): that object's address, as
/// for an int& (its members' reads are loads and its writes stores where they run), or unplaced
/// with why (its accesses not counted). Nullopt for a temporary, a thread's own object and what
/// may be a modelled local (its members then read as opaque); a writable one bound to such a
/// local is refused.
std::optional<Lowerer::Binding> Lowerer::object_reference(const clang::Expr* target, const std::string& name,
                                                          bool writable, std::vector<ir::StmtId>& out) {
  if (binds_temporary(target)) return std::nullopt;
  const auto* call = llvm::dyn_cast<clang::CallExpr>(written_lvalue(strip(target))->IgnoreParenCasts());
  if (call != nullptr) {
    if (const clang::Expr* argument = forwarded_argument(call))
      return object_reference(argument, name, writable, out);
  }
  if (!is_memory(target) && (call == nullptr || !call->isGLValue() || may_return_local(call))) {
    if (holds_modelled(target)) {
      if (writable)
        refuse(target, "the reference '" + name + "' is bound to '" + text(target) +
                           "', which the model cannot change through it");
      return std::nullopt;
    }
    if (space_written(target, current_frame()) == "thread") return std::nullopt;
  }
  return memory_binding(target, name, out);
}

/// The object a member function called on `object` runs on (`this`), where the model tracks no
/// object there: as a reference bound to it (object_reference; p->f(): what p points to;
/// this->g(): the caller's own `this`), or nullopt (its members then not placed).
std::optional<Lowerer::Binding> Lowerer::this_binding(const clang::Expr* object, bool writable,
                                                      std::vector<ir::StmtId>& out) {
  if (llvm::isa<clang::CXXThisExpr>(strip(object)))
    return this_bindings_.empty() ? std::nullopt : this_bindings_.back();
  if (object->getType()->isPointerType()) return memory_binding(object, "this", out, true);
  return object_reference(object, "this", writable, out);
}

/// The address a reference to memory holds, read at `where`; Unplaced with why where the model
/// could not place it (`what`: how the access reaches it, "the reference 'r'").
Lowerer::Address Lowerer::bound_address(const Binding& binding, const std::string& what,
                                        ir::SourceRange where) {
  if (binding.base == ir::kNone)
    throw Unplaced{"reached through " + what +
                   (binding.unplaced.empty() ? "" : " (" + binding.unplaced + ")")};
  Address a{binding.base, {ir::kNone, binding.constant}};
  if (binding.offset != ir::kNone) a.offset.expr = k_.local(binding.offset, where);
  return a;
}

/// Whether a reference initialised with `init` is bound to a temporary (`const int& r = a + b`,
/// a conversion, a default argument's literal): a copy of the value, not an object that changes.
bool Lowerer::binds_temporary(const clang::Expr* init) {
  const clang::Expr* e = init->IgnoreParens();
  if (const auto* arg = llvm::dyn_cast<clang::CXXDefaultArgExpr>(e)) e = arg->getExpr()->IgnoreParens();
  if (const auto* cleanups = llvm::dyn_cast<clang::ExprWithCleanups>(e))
    e = cleanups->getSubExpr()->IgnoreParens();
  return llvm::isa<clang::MaterializeTemporaryExpr>(e) || !e->isGLValue();
}

/// What a const T& initialised with `init` is: bound to an lvalue, that object (the local, or the
/// memory element, whose later writes its reads see); bound to a temporary, or to an lvalue the
/// model cannot follow, none (the caller copies the value). Bound to the reference a call returns:
/// the argument it returns where its body is `return p;` for a reference parameter p; refused
/// for any other call (what the reference names, and so what its reads see, is not known).
std::optional<Lowerer::Binding> Lowerer::const_reference_binding(const clang::Expr* init, ir::ScalarType type,
                                                                 const std::string& name,
                                                                 std::vector<ir::StmtId>& out) {
  if (binds_temporary(init)) return std::nullopt;
  const clang::Expr* bare = init->IgnoreParens();
  while (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(bare)) {
    if (cast->getCastKind() != clang::CK_NoOp) break;
    bare = cast->getSubExpr()->IgnoreParens();
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(bare)) {
    if (const clang::Expr* argument = forwarded_argument(call))
      return const_reference_binding(argument, type, name, out);
    const clang::FunctionDecl* callee = call->getDirectCallee();
    refuse(call, "the const reference '" + name + "' is bound to the reference that '" +
                     (callee != nullptr ? callee->getNameAsString() : text(call)) +
                     "' returns, which the model does not follow (it follows a function whose body is "
                     "'return p;' for a reference parameter p): not supported");
  }
  return reference_binding(init, type, name, out);
}

/// The argument a call returns by reference where its callee's body is `return p;` for a
/// reference parameter p (as `const T& pick(const T& a) { return a; }`); null otherwise.
const clang::Expr* Lowerer::forwarded_argument(const clang::CallExpr* call) const {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  const clang::FunctionDecl* definition = nullptr;
  if (callee == nullptr || !callee->getReturnType()->isReferenceType() || !callee->hasBody(definition))
    return nullptr;
  const auto* body = llvm::dyn_cast<clang::CompoundStmt>(definition->getBody());
  const auto* ret =
      body != nullptr && body->size() == 1 ? llvm::dyn_cast<clang::ReturnStmt>(body->body_front()) : nullptr;
  if (ret == nullptr || ret->getRetValue() == nullptr) return nullptr;
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(ret->getRetValue()->IgnoreParenImpCasts());
  const auto* param = ref != nullptr ? llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr;
  if (param == nullptr || !param->getType()->isReferenceType()) return nullptr;
  const std::vector<const clang::Expr*> args = call_arguments(call, callee);
  for (unsigned i = 0; i < definition->getNumParams() && i < args.size(); ++i)
    if (definition->getParamDecl(i) == param) return args[i];
  return nullptr;
}

/// Whether the lvalue `target` is a local that holds no memory (a scalar, pointer or object local
/// of the function, not a reference, an array or a static).
static bool plain_local(const clang::Expr* target) {
  const clang::VarDecl* var = named_variable(target);
  return var != nullptr && var->hasLocalStorage() && !var->getType()->isReferenceType() &&
         !var->getType()->isArrayType();
}

/// Whether `s` (a function's body, inlined functions it calls included) may change memory while
/// it runs: a write to anything but a plain local, an atomic or store intrinsic, a barrier (other
/// threads write then), inline assembly. A const T& parameter of a function that cannot is read
/// once, where it is bound, as nvcc reads it; of one that can, each read sees the memory then.
bool Lowerer::may_write_memory(const clang::Stmt* s, std::vector<const clang::FunctionDecl*>& seen) const {
  if (s == nullptr) return false;
  if (llvm::isa<clang::AsmStmt>(s)) return true;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(s);
      op != nullptr && op->isAssignmentOp() && !plain_local(op->getLHS()))
    return true;
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(s);
      op != nullptr && op->isIncrementDecrementOp() && !plain_local(op->getSubExpr()))
    return true;
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s)) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr || is_syncthreads(callee) || is_group_sync(call)) return true;
    if (const auto kind = memory_intrinsic(callee); kind && *kind != ir::AccessKind::Load) return true;
    if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
        op != nullptr && op->isAssignmentOp() && op->getNumArgs() > 0 && !plain_local(op->getArg(0)))
      return true;
    const clang::FunctionDecl* definition = nullptr;
    if (inlinable(callee) && callee->hasBody(definition) &&
        std::find(seen.begin(), seen.end(), definition) == seen.end()) {
      seen.push_back(definition);
      if (may_write_memory(definition->getBody(), seen)) return true;
    }
  }
  for (const clang::Stmt* child : s->children())
    if (may_write_memory(child, seen)) return true;
  return false;
}

/// What `s` writes, where it is an assignment (built-in or an operator=) or ++/--; null otherwise.
static const clang::Expr* written_target(const clang::Stmt* s) {
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(s); op != nullptr && op->isAssignmentOp())
    return op->getLHS();
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(s); op != nullptr && op->isIncrementDecrementOp())
    return op->getSubExpr();
  if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(s);
      op != nullptr && op->isAssignmentOp() && op->getNumArgs() > 0)
    return op->getArg(0);
  return nullptr;
}

/// The memory a write to `target` in the body of `frame`'s callee reaches, as the code that made
/// the call sees it (the callee's parameters stand for their arguments, its `this` for the call's
/// object, each in the frame they are written in): "thread" for one thread's locals (a plain
/// local, a local object, a local array), a space as memory_space names it, or "" where not known.
/// A null frame: the kernel's body.
std::string Lowerer::space_written(const clang::Expr* target, const CallFrame* frame) const {
  const clang::Expr* base = lvalue_base(target);
  if (frame != nullptr && llvm::isa<clang::CXXThisExpr>(base))
    return frame->object != nullptr ? space_written(frame->object, frame->outer) : "";
  const clang::VarDecl* var = named_variable(base);
  if (var == nullptr) return "";
  const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(var);
  if (frame != nullptr && param != nullptr && param->getDeclContext() == frame->definition) {
    const unsigned i = param->getFunctionScopeIndex();
    const bool indirect = param->getType()->isReferenceType() || param->getType()->isPointerType();
    if (!indirect) return "thread";  // a copy of its argument
    return i < frame->args.size() ? space_written(frame->args[i], frame->outer) : "";
  }
  if (var->hasLocalStorage() && !var->getType()->isReferenceType() && !var->getType()->isPointerType() &&
      !var->hasAttr<clang::CUDASharedAttr>())
    return "thread";
  const std::string space = memory_space(base);
  return space == "global memory" || space == "shared memory" || space == "constant memory" ? space : "";
}

/// may_write_memory of a body `s` of `frame`'s callee, but for the memory of `space` alone: writes
/// known to reach another space or one thread's locals do not count, in the functions it calls too.
bool Lowerer::may_write_space(const clang::Stmt* s, const std::string& space, const CallFrame& frame) const {
  if (s == nullptr) return false;
  if (llvm::isa<clang::AsmStmt>(s)) return true;
  const clang::Expr* target = written_target(s);
  if (target != nullptr) {
    const std::string reached = space_written(target, &frame);
    if (reached != "thread" && (reached.empty() || reached == space)) return true;
  } else if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s)) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    const clang::FunctionDecl* definition = nullptr;
    if (callee == nullptr || is_syncthreads(callee) || is_group_sync(call)) return true;
    if (const auto kind = memory_intrinsic(callee); kind && *kind != ir::AccessKind::Load) return true;
    if (inlinable(callee) && callee->hasBody(definition)) {
      if (definition == frame.definition) return true;  // recursion: refused where it is lowered
      const std::vector<const clang::Expr*> args = call_arguments(call, callee);
      if (may_write_space(definition->getBody(), space,
                          CallFrame{definition, args, call_object(call), &frame}))
        return true;
    }
  }
  for (const clang::Stmt* child : s->children())
    if (may_write_space(child, space, frame)) return true;
  return false;
}

/// Whether a const T& parameter of `frame`'s callee bound to `arg`, the reference a member
/// function of an object in memory returns (`buffer[i]` through `T& operator[](int)`), is its
/// value copied where it is bound: exact when the callee writes nothing of that memory's space
/// (and has no barrier) while the parameter lives, as nvcc may read it once.
bool Lowerer::copies_returned_reference(const clang::Expr* arg, const CallFrame& frame) const {
  const auto* call = llvm::dyn_cast<clang::CallExpr>(strip(arg));
  const clang::FunctionDecl* callee = call != nullptr ? call->getDirectCallee() : nullptr;
  if (callee == nullptr || !callee->getReturnType()->isReferenceType() || forwarded_argument(call) != nullptr)
    return false;
  const clang::Expr* object = call_object(call);
  const std::string space = object != nullptr ? memory_space(object) : "";
  if (space != "shared memory" && space != "global memory" && space != "constant memory") return false;
  return !may_write_space(frame.definition->getBody(), space, frame);
}

/// The frame of the inlined call being lowered; null in the kernel's body.
const Lowerer::CallFrame* Lowerer::current_frame() const {
  return inline_frames_.empty() ? nullptr : &inline_frames_.back();
}

/// Whether `target` is the function's own: a plain local, a member of a local object (r.a), or an
/// element of a local array.
static bool own_local(const clang::Expr* target) {
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(target->IgnoreParenImpCasts());
      member != nullptr && !member->isArrow())
    return own_local(member->getBase());
  const auto* element = llvm::dyn_cast<clang::ArraySubscriptExpr>(target->IgnoreParenImpCasts());
  if (element == nullptr) return plain_local(target);
  const clang::VarDecl* array = named_variable(element->getBase());
  if (array != nullptr) return array->hasLocalStorage() && array->getType()->isArrayType();
  return own_local(element->getBase());
}

/// What a function's body `s` changes besides its own locals, as call_effect says it ("writes
/// 'x'", "calls 'f(p)', which writes memory"); empty for none. `seen`: the functions already looked
/// into (a recursive call is refused where it is lowered).
std::string Lowerer::body_effect(const clang::Stmt* s, std::vector<const clang::FunctionDecl*>& seen) const {
  if (s == nullptr) return "";
  if (llvm::isa<clang::AsmStmt>(s)) return "holds inline assembly";
  const clang::Expr* target = written_target(s);
  if (target != nullptr && !own_local(target)) return "writes '" + text(target) + "'";
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s)) {
    const std::string effect = call_effect(call, seen);
    if (!effect.empty()) return "calls '" + text(call) + "', which " + effect;
  }
  for (const clang::Stmt* child : s->children()) {
    const std::string effect = body_effect(child, seen);
    if (!effect.empty()) return effect;
  }
  return "";
}

/// Whether a write to the lvalue `e` may change what the model holds: a modelled local, a
/// followed pointer, or something reached through a reference the model does not know. False
/// for memory and for members it does not hold (read as opaque).
bool Lowerer::holds_modelled(const clang::Expr* e) const {
  e = written_lvalue(e->IgnoreParenCasts())->IgnoreParenCasts();
  // A member the model holds is a local (bound_local); any other (a pointer member, one of an
  // object it does not track) it does not hold, unless it is a reference to something else.
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
    const auto* call = llvm::dyn_cast<clang::CallExpr>(strip(member->getBase()));
    if (call != nullptr && !member->isArrow() && call->isGLValue() && forwarded_argument(call) == nullptr &&
        may_return_local(call))
      return true;  // a member of what a call returns, which may be a local
    return member->getMemberDecl()->getType()->isReferenceType();
  }
  if (const auto* conditional = llvm::dyn_cast<clang::AbstractConditionalOperator>(e))
    return holds_modelled(conditional->getTrueExpr()) || holds_modelled(conditional->getFalseExpr());
  if (llvm::isa<clang::ArraySubscriptExpr>(e)) return false;
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e);
      op != nullptr && op->getOpcode() == clang::UO_Deref)
    return false;
  if (llvm::isa<clang::CXXThisExpr>(e)) return !this_stack_.empty() && this_stack_.back() != kUnknownObject;
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e);
  const auto* var = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (var == nullptr) return true;  // a call's result, an assignment, a comma ...: not followed
  const auto found = bindings_.find(var);
  if (found != bindings_.end()) return found->second.kind != Binding::Memory;
  if (object_vars_.count(var) != 0 || pointer_targets_.count(var) != 0) return true;
  const clang::QualType type = var->getType().getNonReferenceType();
  if (var->getType()->isReferenceType()) {
    if (type->isRecordType()) return false;  // an object the model does not track
    // T*& p: the pointer it is bound to is no longer followed.
    if (type->isPointerType() && llvm::isa<clang::ParmVarDecl>(var)) return false;
    return var->getInit() == nullptr || llvm::isa<clang::ParmVarDecl>(var) || holds_modelled(var->getInit());
  }
  if (type->isPointerType()) return pointers_.count(var) != 0;
  return !var->hasGlobalStorage() && !type->isArrayType() && !type->isRecordType();
}

namespace {

/// Adds the `return` statements of `s` (a function's body) to `out`, not those of lambdas in it.
void returns_of(const clang::Stmt* s, std::vector<const clang::ReturnStmt*>& out) {
  if (s == nullptr || llvm::isa<clang::LambdaExpr>(s)) return;
  if (const auto* ret = llvm::dyn_cast<clang::ReturnStmt>(s)) out.push_back(ret);
  for (const clang::Stmt* child : s->children()) returns_of(child, out);
}

/// Whether `e`, a returned lvalue, is memory that no parameter of the function leads to: an element
/// of an array, or a pointer dereferenced, where the array or pointer is a member of the object or
/// a variable of global storage (never a parameter, which may be bound to a caller's local).
bool memory_of_no_parameter(const clang::Expr* e) {
  e = written_lvalue(e->IgnoreParenCasts())->IgnoreParenCasts();
  const clang::Expr* base = nullptr;
  if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) base = subscript->getBase();
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e);
      op != nullptr && op->getOpcode() == clang::UO_Deref)
    base = op->getSubExpr();
  if (base == nullptr) return false;
  base = base->IgnoreParenImpCasts();
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(base))
    return llvm::isa<clang::CXXThisExpr>(member->getBase()->IgnoreParenImpCasts()) &&
           !member->getMemberDecl()->getType()->isReferenceType();
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(base);
  const auto* var = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var != nullptr && var->hasGlobalStorage() && !var->getType()->isReferenceType();
}

}  // namespace

/// Whether the call `call` returns a reference to memory whatever its arguments: its callee's body
/// is known and every `return` in it gives memory that none of its parameters leads to (a member
/// operator[] returning an element of the object's array). A write through it is then no write to
/// anything the model holds.
bool Lowerer::returns_memory(const clang::CallExpr* call) const {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  const clang::FunctionDecl* defined = nullptr;
  if (callee == nullptr || !callee->getReturnType()->isReferenceType() || !callee->hasBody(defined))
    return false;
  std::vector<const clang::ReturnStmt*> returns;
  returns_of(defined->getBody(), returns);
  if (returns.empty()) return false;
  for (const clang::ReturnStmt* ret : returns)
    if (ret->getRetValue() == nullptr || !memory_of_no_parameter(ret->getRetValue())) return false;
  return true;
}

/// Whether the reference `call` returns may name a thread's own object (a local, one the model
/// follows member by member): it is not known to return memory, and its object or an argument
/// given to a reference or pointer parameter is not known to be in global, shared or constant
/// memory.
bool Lowerer::may_return_local(const clang::CallExpr* call) const {
  if (returns_memory(call)) return false;
  const auto in_memory = [&](const clang::Expr* e) {
    const std::string space = space_written(e, current_frame());
    return space == "global memory" || space == "shared memory" || space == "constant memory";
  };
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr) return true;
  if (const clang::Expr* object = call_object(call); object != nullptr && !in_memory(object)) return true;
  const std::vector<const clang::Expr*> args = call_arguments(call, callee);
  for (unsigned i = 0; i < callee->getNumParams() && i < args.size(); ++i) {
    const clang::QualType type = callee->getParamDecl(i)->getType();
    if ((type->isReferenceType() || type->isPointerType()) && !in_memory(args[i])) return true;
  }
  return false;
}

/// A write (by `at`) to the memory that the call `call` returns a reference to: an access the
/// model cannot place (not counted, and it stops the model following that space's values),
/// recorded in the space of the object the call is on. False when the call may return something
/// else, or the space is not known.
bool Lowerer::unplaced_write_through(const clang::Expr* at, const clang::CallExpr* call) {
  if (pending_ == nullptr || quiet_ > 0 || !returns_memory(call)) return false;
  const clang::Expr* object = call_object(call);
  const std::string space = object != nullptr ? memory_space(object) : "";
  if (space != "shared memory" && space != "global memory" && space != "local array") return false;
  ir::MemoryAccess access;
  access.kind = ir::AccessKind::Store;
  access.text = text(call);
  access.range = range(call);
  access.width = 1;
  access.space = guessed_space(object);
  const auto* op = llvm::dyn_cast<clang::BinaryOperator>(at);
  const bool reads = (op != nullptr && op->isCompoundAssignmentOp()) || llvm::isa<clang::UnaryOperator>(at);
  const std::string why =
      "written through the reference that '" + call->getDirectCallee()->getNameAsString() + "' returns";
  if (reads) {
    ir::MemoryAccess load = access;
    load.kind = ir::AccessKind::Load;
    pending_->accesses.push_back(unplaced(load, why));
  }
  pending_->accesses.push_back(unplaced(access, why));
  return true;
}

/// A write to `target` (by `at`) that is neither to a modelled local nor to memory: refused when
/// it may change what the model holds (it would otherwise go unseen).
void Lowerer::check_write(const clang::Expr* at, const clang::Expr* target) {
  if (pointer_variable(target) != nullptr) return;  // followed by pointer_update, or lost
  if (const clang::VarDecl* var = named_variable(target);
      var != nullptr && address_taken_floats_.count(var) != 0)
    return;
  if (!holds_modelled(target)) return;
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(written_lvalue(target)->IgnoreParenCasts());
      call != nullptr && unplaced_write_through(at, call))
    return;
  refuse(at, "'" + text(at) + "' writes to '" + text(target) +
                 "', which the model cannot follow to one variable or to memory: not supported");
}

/// A pointer parameter bound to a local of the caller (f(&x) with f(int* p)): *p and p[0] are x.
/// Nothing else may be done with p (arithmetic, a copy, a comparison): scan_work refuses it.
std::optional<ir::LocalId> Lowerer::pointed_local(const clang::Expr* e) {
  e = e->IgnoreParenImpCasts();
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e);
      op != nullptr && op->getOpcode() == clang::UO_AddrOf)
    return bound_local(op->getSubExpr());
  if (const clang::VarDecl* var = named_variable(e)) {
    const auto found = pointer_targets_.find(var);
    if (found != pointer_targets_.end()) return found->second;
  }
  return std::nullopt;
}

/// The arguments that a call passes to the callee's parameters, in order: a member function's
/// object is not among them (an operator's first operand is its object when it is a member).
std::vector<const clang::Expr*> Lowerer::call_arguments(const clang::CallExpr* call,
                                                        const clang::FunctionDecl* callee) {
  std::vector<const clang::Expr*> args(call->arg_begin(), call->arg_end());
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(callee);
  if (llvm::isa<clang::CXXOperatorCallExpr>(call) && method != nullptr && !args.empty())
    args.erase(args.begin());
  return args;
}

/// The object a member function is called on (obj.f(), p->f(), obj + x for a member operator),
/// or null.
const clang::Expr* Lowerer::call_object(const clang::CallExpr* call) {
  if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call))
    return member->getImplicitObjectArgument();
  if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call)) {
    if (llvm::isa_and_nonnull<clang::CXXMethodDecl>(op->getDirectCallee()) && op->getNumArgs() > 0)
      return op->getArg(0);
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(call->getCallee()->IgnoreParenImpCasts()))
    return member->getBase();  // a static member called through an object
  return nullptr;
}

/// The callee's body as an InlinedCall; its parameters are locals declared from the arguments.
/// A member function's object is a tracked object, or memory (its address, as a reference's:
/// the body's this->n are its loads and stores), or else opaque (its work scanned).
/// `result_object`: the object a function returning a class by value initialises (its `return`s do).
/// A member function called on a temporary (Q(10) - q, mk(t).f()) runs on an object made first.
ir::StmtId Lowerer::inline_call(const clang::CallExpr* call, const clang::FunctionDecl* callee,
                                ir::LocalId result, int result_object) {
  const clang::Expr* object = call_object(call);
  int this_object = object != nullptr ? object_of(object) : kUnknownObject;
  const clang::CXXRecordDecl* record = object != nullptr ? trackable(object->getType()) : nullptr;
  std::vector<ir::StmtId> made;
  if (this_object == kUnknownObject && record != nullptr && !object_value(object)->isGLValue())
    this_object = temporary_object(record, object, text(object), made);
  const ir::StmtId inlined =
      inline_function(call, callee, call_arguments(call, callee), result, this_object, result_object);
  if (made.empty()) return inlined;
  made.push_back(inlined);
  return k_.block(made, range(call));
}

ir::StmtId Lowerer::inline_function(const clang::Expr* call, const clang::FunctionDecl* callee,
                                    const std::vector<const clang::Expr*>& args, ir::LocalId result,
                                    int this_object, int result_object) {
  const clang::FunctionDecl* definition = nullptr;
  callee->hasBody(definition);
  const ir::SourceRange where = range(call);
  std::vector<ir::StmtId> body;
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(definition);
  const bool has_this = method != nullptr && !method->isStatic();
  const auto* call_expr = llvm::dyn_cast<clang::CallExpr>(call);
  const clang::Expr* called_on = call_expr != nullptr ? call_object(call_expr) : nullptr;
  std::optional<Binding> this_memory;  // a member function's object in memory: its address
  if (called_on != nullptr && this_object == kUnknownObject) {
    if (has_this) this_memory = this_binding(called_on, !method->isConst(), body);
    if (!this_memory) scan_work(called_on);
  }
  std::optional<bool> callee_writes;  // may_write_memory(definition), worked out when needed
  const auto writes = [&] {
    std::vector<const clang::FunctionDecl*> seen{definition};
    if (!callee_writes) callee_writes = may_write_memory(definition->getBody(), seen);
    return *callee_writes;
  };
  for (unsigned i = 0; i < definition->getNumParams() && i < args.size(); ++i) {
    const clang::ParmVarDecl* param = definition->getParamDecl(i);
    const clang::Expr* arg = args[i];
    pointer_targets_.erase(param);  // a binding of an earlier call does not carry over
    const auto type = scalar_type(param->getType());
    const bool reference = param->getType()->isReferenceType();
    // The binding is a statement at its argument (a default argument's: at the parameter), not
    // at the call: the call's line counts one evaluation per call.
    const ir::SourceRange bound =
        llvm::isa<clang::CXXDefaultArgExpr>(arg) ? range(param->getSourceRange()) : range(arg);
    const bool constant = reference && param->getType().getNonReferenceType().isConstQualified();
    std::optional<Binding> shared;  // const int& x bound to an lvalue that may change: that object
    if (type && constant && writes() &&
        !copies_returned_reference(arg, CallFrame{definition, args, called_on, current_frame()}))
      shared = const_reference_binding(arg, *type, param->getNameAsString(), body);
    if (shared) {
      bindings_[param] = *shared;
    } else if (type && (!reference || constant)) {
      const ir::LocalId local = k_.add_local(param->getNameAsString(), *type, range(param->getSourceRange()));
      body.push_back(k_.declare(local, convert(lower_int(arg), *type, where), bound));
      bindings_[param] = Binding{Binding::Local, local};
    } else if (type) {
      // int& d: the callee's d is the caller's local itself (writes reach it). Bound to
      // anything else (a[i], s.n), it reads that memory (opaque) and its writes are memory work.
      const auto binding = reference_binding(arg, *type, param->getNameAsString(), body);
      if (!binding)
        refuse(call, "the reference parameter '" + param->getNameAsString() + "' of '" +
                         callee->getNameAsString() + "' is bound to '" + text(arg) +
                         "', which the model cannot change through it");
      bindings_[param] = *binding;
    } else if (const auto pointed =
                   param->getType()->isPointerType() ? pointed_local(arg) : std::optional<ir::LocalId>()) {
      // f(&x) with f(int* p): p stands for x (writes through it reach x).
      const auto pointee = scalar_type(param->getType()->getPointeeType());
      if (!pointee || *pointee != k_.locals[*pointed].type)
        refuse(call, "'" + text(arg) + "' passes a local to '" + callee->getNameAsString() +
                         "' as a pointer of another type: not supported");
      pointer_targets_[param] = *pointed;
    } else if (is_group_type(param->getType())) {
      groups_[param] = group_of(arg);  // a cooperative group passed on: nothing runs
    } else if (const auto* record = trackable(param->getType())) {
      object_vars_.erase(param);
      bindings_.erase(param);
      if (reference) {  // S& s: the caller's object itself, when the model tracks it; else memory
        const int object = object_of(arg);
        if (object != kUnknownObject)
          object_vars_[param] = object;
        else if (binds_temporary(arg))  // const S& s = S(t): the temporary, an object of its own
          object_vars_[param] = temporary_object(record, arg, param->getNameAsString(), body);
        else if (const auto memory = object_reference(arg, param->getNameAsString(), !constant, body))
          bindings_[param] = *memory;
        else
          scan_work(arg);
      } else {  // S s: initialised from the argument as a local is (its copy constructor, braces ...)
        const int object =
            make_object(record, param->getNameAsString(), range(param->getSourceRange()), body);
        object_vars_[param] = object;
        initialise(object, arg, body);
      }
    } else if (param->getType().getNonReferenceType()->isPointerType() &&
               (!reference || param->getType().getNonReferenceType().isConstQualified()) &&
               bind_pointer(param, arg, bound, body)) {
      // A pointer into memory the model follows (p[i] is placed), passed by value or as T* const&.
      bindings_.erase(param);
    } else {
      bindings_.erase(param);
      std::optional<Binding> memory;  // a struct in memory, by reference: its address
      if (reference && param->getType().getNonReferenceType()->isRecordType())
        memory = object_reference(arg, param->getNameAsString(), !constant, body);
      if (memory)
        bindings_[param] = *memory;
      else
        scan_work(arg);  // a pointer, float or untracked struct argument: opaque
    }
  }
  this_stack_.push_back(has_this ? this_object : kUnknownObject);
  this_bindings_.push_back(this_memory);
  this_exprs_.push_back(has_this ? called_on : nullptr);
  inline_frames_.push_back(CallFrame{definition, args, this_exprs_.back(), current_frame(), result_object});
  if (const auto* constructor = llvm::dyn_cast<clang::CXXConstructorDecl>(definition)) {
    for (const clang::CXXCtorInitializer* init : constructor->inits())
      initialise_member(init, this_object, body);
  }
  call_stack_.push_back(definition);
  std::vector<ir::StmtId>* outer = hoisted_;
  const char* outer_no_hoist = no_hoist_;
  no_hoist_ = nullptr;
  body.push_back(lower_required(definition->getBody()));
  no_hoist_ = outer_no_hoist;
  hoisted_ = outer;
  call_stack_.pop_back();
  this_stack_.pop_back();
  this_bindings_.pop_back();
  this_exprs_.pop_back();
  inline_frames_.pop_back();
  return k_.inlined_call(function_key(*definition), result, k_.block(body, where), where);
}

/// The function as `warpdiv check` keys its statements: qualified, with template arguments and
/// parameter types ("a::f<16>(int *, int)"), so that functions of one name (in two namespaces,
/// overloads, instantiations) stay apart wherever they move in the file.
std::string Lowerer::function_key(const clang::FunctionDecl& f) const {
  clang::PrintingPolicy policy(context_.getLangOpts());
  policy.SuppressTagKeyword = true;
  std::string key;
  llvm::raw_string_ostream out(key);
  f.getNameForDiagnostic(out, policy, /*Qualified=*/true);
  out << '(';
  for (unsigned i = 0; i < f.getNumParams(); ++i)
    out << (i == 0 ? "" : ", ") << f.getParamDecl(i)->getType().getAsString(policy);
  out << ')';
  return out.str();
}

/// The class of `type` (or of what it references) when the model can follow its members.
const clang::CXXRecordDecl* Lowerer::trackable(clang::QualType type) const {
  type = type.getNonReferenceType();
  const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl();
  if (record == nullptr || !record->hasDefinition()) return nullptr;
  record = record->getDefinition();
  if (type.isVolatileQualified() || in_prelude(record) ||
      sources_.isInSystemHeader(sources_.getExpansionLoc(record->getLocation())))
    return nullptr;
  return plain_layout(record) ? record : nullptr;
}

/// No union, bit-field, virtual base or virtual function anywhere in it.
bool Lowerer::plain_layout(const clang::CXXRecordDecl* record) {
  if (record->isUnion() || record->getNumVBases() > 0 || record->isPolymorphic()) return false;
  for (const clang::FieldDecl* field : record->fields())
    if (field->isBitField()) return false;
  for (const clang::CXXBaseSpecifier& base : record->bases()) {
    const clang::CXXRecordDecl* parent = base.getType()->getAsCXXRecordDecl();
    if (parent == nullptr || !parent->hasDefinition() || !plain_layout(parent->getDefinition())) return false;
  }
  return true;
}

/// A new object of `record` named `name`: its members' locals are declared in `out`, unassigned
/// (reading one before it is written is undefined behaviour, as for any local; so is copying a
/// partly assigned object, which C++ allows for trivially copyable types: the model is stricter).
int Lowerer::make_object(const clang::CXXRecordDecl* record, const std::string& name, ir::SourceRange where,
                         std::vector<ir::StmtId>& out) {
  const int id = static_cast<int>(objects_.size());
  objects_.emplace_back();
  objects_[id].name = name;
  add_members(id, record, name, where, out);
  return id;
}

void Lowerer::add_members(int id, const clang::CXXRecordDecl* record, const std::string& name,
                          ir::SourceRange where, std::vector<ir::StmtId>& out) {
  for (const clang::CXXBaseSpecifier& base : record->bases())
    add_members(id, base.getType()->getAsCXXRecordDecl()->getDefinition(), name, where, out);
  for (const clang::FieldDecl* field : record->fields()) {
    const std::string member = name + "." + field->getNameAsString();
    if (field->getType()->isReferenceType()) continue;
    if (const auto type = scalar_type(field->getType())) {
      const ir::LocalId local = k_.add_local(member, *type, where);
      out.push_back(k_.declare(local, ir::kNone, where));
      objects_[id].scalars[field] = local;
    } else if (const auto* inner = trackable(field->getType())) {
      objects_[id].records[field] = make_object(inner, member, where, out);
    }
  }
}

/// The tracked object an expression names: a local object, a member object of one, `this` or
/// `*this` in an inlined member function; kUnknownObject otherwise.
int Lowerer::object_of(const clang::Expr* e) const {
  e = e->IgnoreParenImpCasts();
  if (const auto* temp = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e))
    return object_of(temp->getSubExpr());
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e)) {  // pick(x) returning its argument: x
    const clang::Expr* argument = forwarded_argument(call);
    return argument != nullptr ? object_of(argument) : kUnknownObject;
  }
  if (llvm::isa<clang::CXXThisExpr>(e)) return this_stack_.empty() ? kUnknownObject : this_stack_.back();
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e);
      op != nullptr && op->getOpcode() == clang::UO_Deref &&
      llvm::isa<clang::CXXThisExpr>(op->getSubExpr()->IgnoreParenImpCasts()))
    return this_stack_.empty() ? kUnknownObject : this_stack_.back();
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    const auto found = var != nullptr ? object_vars_.find(var) : object_vars_.end();
    return found != object_vars_.end() ? found->second : kUnknownObject;
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
    const auto* field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    const int base = member_base_object(member);
    if (field == nullptr || base == kUnknownObject) return kUnknownObject;
    const auto found = objects_[base].records.find(field);
    return found != objects_[base].records.end() ? found->second : kUnknownObject;
  }
  return kUnknownObject;
}

/// The object whose member `member` reads: obj.n, this->n, n inside a member function.
int Lowerer::member_base_object(const clang::MemberExpr* member) const {
  const clang::Expr* base = member->getBase()->IgnoreParenImpCasts();
  if (member->isArrow() && !llvm::isa<clang::CXXThisExpr>(base)) return kUnknownObject;
  return object_of(base);
}

/// The local holding an integer member of a tracked object.
std::optional<ir::LocalId> Lowerer::field_local(const clang::MemberExpr* member) const {
  const auto* field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
  if (field == nullptr) return std::nullopt;
  const int object = member_base_object(member);
  if (object == kUnknownObject) return std::nullopt;
  const auto found = objects_[object].scalars.find(field);
  if (found == objects_[object].scalars.end()) return std::nullopt;
  return found->second;
}

/// Every member of `object` set to an opaque value (it was written by what the model does not
/// follow: a copy from memory, a call's struct result ...). With `loads`, a copy from memory:
/// each member's value is its own load's, where the copy loads it alone.
void Lowerer::forget(int object, const std::string& why, ir::SourceRange where, std::vector<ir::StmtId>& out,
                     const ObjectCopy* loads) {
  for (const auto& [field, local] : objects_[object].scalars) {
    const ir::ExprId value =
        k_.opaque(k_.locals[local].type, k_.locals[local].name + " (" + why + ")", where);
    const auto load = loads != nullptr ? member_access(local, *loads) : std::nullopt;
    if (load) link_load(value, *load, field->getType());  // where the load is the member's width
    out.push_back(k_.assign(local, value, where));
  }
  for (const auto& [field, inner] : objects_[object].records) forget(inner, why, where, out, loads);
}

/// The access among a copy's (record_object's, placed) that moves the member held by `local`:
/// the copy's text and the member's path (".in.x", the local's name after the object's), or the
/// part that holds it, moved whole (".in" of a 4-byte In). It moves the member alone where its
/// width is the member's.
std::optional<std::size_t> Lowerer::member_access(ir::LocalId local, const ObjectCopy& copy) const {
  const std::string path = copy.text + k_.locals[local].name.substr(copy.prefix);
  for (std::size_t i = copy.first; i < pending_->accesses.size(); ++i) {
    const std::string& text = pending_->accesses[i].text;
    const bool holds = text == path || path.compare(0, text.size() + 1, text + ".") == 0;
    if (holds && pending_->accesses[i].base != ir::kNone) return i;
  }
  return std::nullopt;
}

/// The values a copy of `object` into memory stores: each member's, in the store that moves it
/// alone.
void Lowerer::store_members(int object, const ObjectCopy& copy, ir::SourceRange where) {
  for (const auto& [field, local] : objects_[object].scalars) {
    const ir::ScalarType type = k_.locals[local].type;
    const auto store = member_access(local, copy);
    if (!store || type == ir::ScalarType::Bool) continue;
    ir::MemoryAccess& access = pending_->accesses[*store];
    if (access.kind == ir::AccessKind::Store &&
        access.width == static_cast<std::uint32_t>(std::max(1, ir::bit_width(type) / 8)))
      access.value = k_.local(local, where);
  }
  for (const auto& [field, inner] : objects_[object].records) store_members(inner, copy, where);
}

}  // namespace warpdiv::frontend::detail::lowering
