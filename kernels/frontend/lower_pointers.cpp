// Pointers the model follows by value: kernel pointer parameters, pointer locals and __device__
// function pointer parameters whose every change is `p += k`, `p -= k`, `++p`, `p++` ... as a
// statement of its own (an int64 local holds the byte offset), &lvalue, p + k, casts between
// pointer types (reinterpret_cast<float4*>(p): the width is the accessed type's).
//
// The pointers' values along control flow: each path carries its own (pointers_), paths join
// where they meet; a loop's head (a switch's body) starts from the values before it joined
// with every value an assignment inside may give.
#include "kernels/frontend/lowerer.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

namespace warpdiv::frontend::detail::lowering {

/// Where a region's paths meet: "at the head of the for loop at line 7", "in the switch at ...".
std::string Lowerer::region_text(const char* what, const clang::Stmt* s) {
  return std::string(std::strcmp(what, "switch") == 0 ? "in the " : "at the head of the ") + what +
         " at line " + std::to_string(range(s).line);
}

/// The address a pointer-valued expression holds; throws Unplaced.
Lowerer::Address Lowerer::pointer_value(const clang::Expr* e) {
  e = e->IgnoreParens();
  const ir::SourceRange where = range(e);
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(e)) {
    switch (cast->getCastKind()) {
      case clang::CK_ArrayToPointerDecay:
        return address_of(cast->getSubExpr());
      case clang::CK_NoOp:
      case clang::CK_BitCast:
      case clang::CK_AddressSpaceConversion:
        return pointer_value(cast->getSubExpr());
      case clang::CK_LValueToRValue:
        return variable_value(cast->getSubExpr()->IgnoreParens());
      case clang::CK_NullToPointer:
        return Address{null_base(), {}, ir::kNone};
      case clang::CK_IntegralToPointer:
        throw Unplaced{"a pointer made from an integer"};
      default:
        break;
    }
    if (llvm::isa<clang::ExplicitCastExpr>(cast) && cast->getSubExpr()->getType()->isPointerType())
      return pointer_value(cast->getSubExpr());
    throw Unplaced{"the model does not follow the pointer '" + text(e) + "'"};
  }
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    const clang::BinaryOperatorKind kind = op->getOpcode();
    if (kind == clang::BO_Add || kind == clang::BO_Sub) {
      const bool left = op->getLHS()->getType()->isPointerType();
      const clang::Expr* pointer = left ? op->getLHS() : op->getRHS();
      const clang::Expr* index = left ? op->getRHS() : op->getLHS();
      if (!index->getType()->isIntegerType()) throw Unplaced{"a pointer difference"};
      Address a = pointer_value(pointer);
      const std::int64_t size = size_of(pointer->getType()->getPointeeType(), e);
      a.offset = add(a.offset, scaled(index, size, kind == clang::BO_Sub, where), where);
      return a;
    }
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e);
      op != nullptr && op->getOpcode() == clang::UO_AddrOf)
    return address_of(op->getSubExpr());
  if (llvm::isa<clang::DeclRefExpr>(e) && e->isGLValue())
    return variable_value(e);  // the variable itself, bound to a T* const& parameter
  if (llvm::isa<clang::ConditionalOperator>(e) || llvm::isa<clang::BinaryConditionalOperator>(e))
    throw Unplaced{"the pointer is chosen by a condition"};
  if (llvm::isa<clang::CallExpr>(e)) throw Unplaced{"the pointer is returned by a call"};
  if (llvm::isa<clang::CXXThisExpr>(e)) return this_address(where);
  throw Unplaced{"the model does not follow the pointer '" + text(e) + "'"};
}

/// The value of the pointer variable `e` names (its buffer and offset local here), or Unplaced
/// with why not: `e` is no variable (the pointer is read from memory), or one the model does not
/// follow, or has lost, or that has no value yet.
Lowerer::Address Lowerer::variable_value(const clang::Expr* e) {
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(written_lvalue(e));
  const auto* var = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (var == nullptr && llvm::isa<clang::AbstractConditionalOperator>(written_lvalue(e)))
    throw Unplaced{"the pointer is chosen by a condition"};
  if (var == nullptr) throw Unplaced{read_from_memory(written_lvalue(e))};
  const auto found = pointers_.find(var);
  if (found == pointers_.end()) {
    const auto why = unfollowed_pointers_.find(var);
    throw Unplaced{why != unfollowed_pointers_.end()
                       ? why->second
                       : "the model does not follow the pointer '" + var->getNameAsString() + "'"};
  }
  const PointerBinding& bound = found->second;
  if (!bound.lost.empty()) throw Unplaced{bound.lost};
  if (bound.base == ir::kNone)
    throw Unplaced{"the pointer '" + var->getNameAsString() + "' has no value here"};
  Address a{bound.base, {}, bound.base != null_base_ ? bound.null : ir::kNone};
  if (bound.offset != ir::kNone) a.offset.expr = k_.local(bound.offset, range(e));
  return a;
}

/// Why a pointer read from the lvalue `e` is not placed. One read from global (or constant)
/// memory points into global memory; one read from anywhere else (a local whose address is
/// taken, shared memory, a local array) may point into shared memory or a local array.
std::string Lowerer::read_from_memory(const clang::Expr* e) {
  const PointerBinding root = lvalue_root(e);
  const bool global = root.lost.empty() && root.base != ir::kNone && !k_.bases[root.base].null &&
                      (k_.bases[root.base].space == ir::AddressSpace::Global ||
                       k_.bases[root.base].space == ir::AddressSpace::Constant);
  if (global) return "the pointer '" + text(e) + "' is read from memory";
  return "the pointer '" + text(e) +
         "' is read from where the model does not follow it (not global memory: it may point into "
         "shared memory or a local array)";
}

/// A bool true in the lanes where the pointer expression `e` is null, where the model knows:
/// the null pointer, a pointer with a null flag, an address in a declared array or variable
/// (never null); nullopt for a kernel's buffer (the host may pass null) or a pointer it does
/// not follow.
std::optional<ir::ExprId> Lowerer::pointer_is_null(const clang::Expr* e) {
  const ir::SourceRange where = range(e);
  const std::size_t exprs = k_.exprs.size();
  const std::size_t pending = pending_ != nullptr ? pending_->accesses.size() : 0;
  std::string why;
  const std::optional<Address> a = try_pointer_value(e, why);
  if (!a) return std::nullopt;
  rollback(exprs, pending);  // its offset is not needed
  if (a->base == null_base_) return k_.constant(ir::ScalarType::Bool, 1, where);
  if (a->null != ir::kNone) return null_test(a->null, where);
  if (k_.bases[a->base].parameter == ir::kNone) return k_.constant(ir::ScalarType::Bool, 0, where);
  return std::nullopt;
}

/// A bool true in the lanes where the null flag `null` (an int32 local) is set.
ir::ExprId Lowerer::null_test(ir::LocalId null, ir::SourceRange where) {
  return k_.binary(ir::BinaryOp::Ne, k_.local(null, where), k_.constant(ir::ScalarType::I32, 0, where),
                   where);
}

/// The null pointer's base (one per kernel, made the first time a null pointer is met).
std::int32_t Lowerer::null_base() {
  if (null_base_ != ir::kNone) return null_base_;
  ir::MemoryBase base;
  base.name = "nullptr";
  base.null = true;
  null_base_ = k_.add_base(base);
  return null_base_;
}

/// Whether the pointer expression `e` is a null pointer constant (nullptr, 0, NULL, a cast of one).
bool Lowerer::null_value(const clang::Expr* e) {
  const auto* cast = llvm::dyn_cast<clang::CastExpr>(e->IgnoreParens());
  if (cast == nullptr) return false;
  const clang::CastKind kind = cast->getCastKind();
  if (kind == clang::CK_NullToPointer) return true;
  return (kind == clang::CK_NoOp || kind == clang::CK_BitCast || kind == clang::CK_AddressSpaceConversion) &&
         null_value(cast->getSubExpr());
}

/// Whether some definition of the pointer variable (its initialiser, an assignment) is null.
bool Lowerer::set_to_null(const clang::VarDecl* var) {
  const auto* function = llvm::dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod());
  const clang::FunctionDecl* definition = nullptr;
  if (function == nullptr || !function->hasBody(definition)) return false;
  std::vector<std::pair<const clang::VarDecl*, const clang::Expr*>> definitions;
  pointer_definitions(definition->getBody(), definitions);
  return std::any_of(definitions.begin(), definitions.end(),
                     [&](const auto& d) { return d.first == var && null_value(d.second); });
}

/// The int32 value of a pointer's null flag where it is set to the address `a`.
ir::ExprId Lowerer::null_flag(const Address& a, ir::SourceRange where) {
  if (a.base == null_base_) return k_.constant(ir::ScalarType::I32, 1, where);
  if (a.null != ir::kNone) return k_.local(a.null, where);
  return k_.constant(ir::ScalarType::I32, 0, where);
}

/// The pointer `bound` (of `var`) set to `a`: its offset local, and its null flag where it has one.
ir::StmtId Lowerer::assign_pointer(PointerBinding& bound, const Address& a, const clang::VarDecl* var,
                                   ir::SourceRange where) {
  bound.base = a.base;
  bound.lost.clear();
  const ir::StmtId offset = k_.assign(bound.offset, offset_expr(a.offset, where), where);
  if (bound.null == ir::kNone) {
    if (a.null != ir::kNone)
      bound.lost =
          "the pointer '" + var->getNameAsString() + "' is set to a pointer that is null in some lanes";
    return offset;
  }
  return k_.block({offset, k_.assign(bound.null, null_flag(a, where), where)}, where);
}

/// The pointer variable an lvalue names (p, (p), reinterpret_cast<float *&>(p), c ? p : p), or null.
const clang::VarDecl* Lowerer::pointer_variable(const clang::Expr* e) {
  const clang::VarDecl* var = named_variable(e);
  return var != nullptr && var->getType()->isPointerType() ? var : nullptr;
}

/// Whether `type` is a reference through which a pointer may be changed (T*&, not T* const&).
static bool changes_a_pointer(clang::QualType type) {
  if (!type->isReferenceType()) return false;
  const clang::QualType referred = type.getNonReferenceType();
  return referred->isPointerType() && !referred.isConstQualified();
}

/// The pointer variable `s` binds to a reference that may change it: an argument passed to a
/// T*& parameter (f(p)), or the value of a T*& local (T*& r = p); null for anything else.
const clang::VarDecl* Lowerer::pointer_bound_to_reference(const clang::Stmt* s) {
  if (const auto* decls = llvm::dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl* d : decls->decls())
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(d);
          var != nullptr && var->getInit() != nullptr && changes_a_pointer(var->getType()))
        if (const clang::VarDecl* bound = pointer_variable(var->getInit())) return bound;
    return nullptr;
  }
  const auto* call = llvm::dyn_cast<clang::CallExpr>(s);
  const clang::FunctionDecl* callee = call != nullptr ? call->getDirectCallee() : nullptr;
  if (callee == nullptr) return nullptr;
  const std::vector<const clang::Expr*> args = call_arguments(call, callee);
  for (unsigned i = 0; i < callee->getNumParams() && i < args.size(); ++i)
    if (changes_a_pointer(callee->getParamDecl(i)->getType()))
      if (const clang::VarDecl* bound = pointer_variable(args[i])) return bound;
  return nullptr;
}

/// Finds, once per function, the pointer variables changed other than by a statement of its
/// own `p = q + k`, `p += k`, `p -= k`, `++p`, `p++`, `--p`, `p--` (or whose address is taken, or
/// that are bound to a T*& reference): the model does not follow those (unfollowed_pointers_ says why).
void Lowerer::scan_pointer_writes(const clang::FunctionDecl* function) {
  if (function == nullptr || !pointer_writes_scanned_.insert(function).second) return;
  const clang::FunctionDecl* definition = nullptr;
  if (!function->hasBody(definition)) return;
  std::function<void(const clang::Stmt*, bool)> walk = [&](const clang::Stmt* s, bool statement) {
    if (s == nullptr) return;
    const clang::VarDecl* target = nullptr;
    bool followed = false;
    if (const auto* e = llvm::dyn_cast<clang::Expr>(s)) {
      const clang::Expr* bare = e->IgnoreParens();
      if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(bare); op && op->isAssignmentOp()) {
        target = pointer_variable(op->getLHS());
        const auto kind = op->getOpcode();
        followed = statement && target != nullptr &&
                   (kind == clang::BO_Assign || kind == clang::BO_AddAssign || kind == clang::BO_SubAssign);
      } else if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(bare)) {
        if (unary->isIncrementDecrementOp()) {
          target = pointer_variable(unary->getSubExpr());
          followed = statement;
        } else if (unary->getOpcode() == clang::UO_AddrOf) {
          target = pointer_variable(unary->getSubExpr());
        }
      }
    }
    std::string how = "is changed by";
    if (target == nullptr) {
      target = pointer_bound_to_reference(s);
      how = "is bound to a reference in";
    }
    if (target != nullptr && !followed && unfollowed_pointers_.count(target) == 0)
      unfollowed_pointers_[target] =
          "the pointer '" + target->getNameAsString() + "' " + how + " '" + text(s) +
          "' (the model follows a pointer changed only by statements of their own: p = q + k, "
          "p += k, p -= k, ++p, p++)";
    const bool comma = statement && llvm::isa<clang::BinaryOperator>(s) &&
                       llvm::cast<clang::BinaryOperator>(s)->getOpcode() == clang::BO_Comma;
    for (const clang::Stmt* child : s->children()) {
      bool child_statement = llvm::isa<clang::CompoundStmt>(s) || comma;
      if (const auto* loop = llvm::dyn_cast<clang::ForStmt>(s))
        child_statement = child == loop->getInc() || child == loop->getBody() || child == loop->getInit();
      if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(s))
        child_statement =
            child == branch->getThen() || child == branch->getElse() || child == branch->getInit();
      if (const auto* loop = llvm::dyn_cast<clang::WhileStmt>(s)) child_statement = child == loop->getBody();
      if (const auto* loop = llvm::dyn_cast<clang::DoStmt>(s)) child_statement = child == loop->getBody();
      if (const auto* sw = llvm::dyn_cast<clang::SwitchStmt>(s)) child_statement = child == sw->getBody();
      if (llvm::isa<clang::CaseStmt>(s) || llvm::isa<clang::DefaultStmt>(s) ||
          llvm::isa<clang::AttributedStmt>(s))
        child_statement = true;
      walk(child, child_statement);
    }
  };
  walk(definition->getBody(), true);
}

/// A kernel's pointer parameter: its buffer; an offset local (declared 0 first thing) when the
/// body moves it.
void Lowerer::bind_parameter_pointer(std::int32_t index, const clang::ParmVarDecl* param) {
  if (!followed_pointer(param)) return;
  const std::int32_t base = parameter_base(index, param);
  bool moved = false;
  std::function<void(const clang::Stmt*)> find = [&](const clang::Stmt* s) {
    if (s == nullptr || moved) return;
    const clang::VarDecl* target = nullptr;
    if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(s); op && op->isAssignmentOp())
      target = pointer_variable(op->getLHS());
    if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(s); op && op->isIncrementDecrementOp())
      target = pointer_variable(op->getSubExpr());
    if (target == param) moved = true;
    for (const clang::Stmt* child : s->children()) find(child);
  };
  const auto* function = llvm::cast<clang::FunctionDecl>(param->getDeclContext());
  const clang::FunctionDecl* definition = nullptr;
  if (function->hasBody(definition)) find(definition->getBody());
  if (!moved) {
    pointers_[param] = PointerBinding{base, ir::kNone, ""};
    return;
  }
  const ir::SourceRange where = range(param->getSourceRange());
  const ir::LocalId local = k_.add_local(param->getNameAsString(), ir::ScalarType::I64, where);
  parameter_copies_.push_back(k_.declare(local, i64(0, where), where));
  pointers_[param] = PointerBinding{base, local, ""};
}

/// Whether the model follows the pointer variable (the function declaring it is scanned first).
bool Lowerer::followed_pointer(const clang::VarDecl* var) {
  const auto* function = llvm::dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod());
  scan_pointer_writes(function);
  return unfollowed_pointers_.count(var) == 0;
}

/// `into` joined with `other` where two paths meet (`where`: "after the if at line 7").
void Lowerer::join_pointers(PointerState& into, const PointerState& other, const std::string& where) const {
  for (const auto& [var, b] : other) {
    const auto found = into.find(var);
    if (found == into.end()) {
      into.emplace(var, b);
      continue;
    }
    PointerBinding& a = found->second;
    if (!a.lost.empty()) continue;
    if (!b.lost.empty())
      a.lost = b.lost;  // a value the model cannot follow on one path (base kNone or not)
    else if (b.base == ir::kNone || a.base == b.base)
      continue;
    else if (a.base == ir::kNone)
      a.base = b.base;
    else
      join_null(a, b, var, where);
  }
}

/// Two buffers `a` and `b` of `var` meeting `where`: where one is the null pointer and the
/// pointer has a null flag (its lanes tell them apart), the other; else lost.
void Lowerer::join_null(PointerBinding& a, const PointerBinding& b, const clang::VarDecl* var,
                        const std::string& where) const {
  const bool one_null = a.base == null_base_ || b.base == null_base_;
  if (one_null && (a.null != ir::kNone || b.null != ir::kNone)) {
    if (a.base == null_base_) a.base = b.base;
    return;
  }
  const auto into = [&](std::int32_t base, const char* verb) {
    return base == null_base_ ? std::string("is null") : verb + ("into '" + k_.bases[base].name + "'");
  };
  a.lost = "the pointer '" + var->getNameAsString() + "' " + into(a.base, "points ") + " on one path and " +
           into(b.base, "") + " on another, which meet " + where;
}

/// The buffer a pointer expression points into, as a binding (its offset not made): base
/// kNone with `lost` set where the model cannot tell.
Lowerer::PointerBinding Lowerer::pointer_root(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(e)) {
    if (cast->getCastKind() == clang::CK_ArrayToPointerDecay) return lvalue_root(cast->getSubExpr());
    if (cast->getCastKind() == clang::CK_NullToPointer) return PointerBinding{null_base(), ir::kNone, ""};
    if (cast->getCastKind() == clang::CK_LValueToRValue) {
      const clang::VarDecl* var = pointer_variable(cast->getSubExpr());
      const auto found = var != nullptr ? pointers_.find(var) : pointers_.end();
      if (found != pointers_.end()) return found->second;
    } else if (cast->getSubExpr()->getType()->isPointerType()) {
      return pointer_root(cast->getSubExpr());
    }
  } else if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(e);
             op != nullptr && (op->getOpcode() == clang::BO_Add || op->getOpcode() == clang::BO_Sub)) {
    return pointer_root(op->getLHS()->getType()->isPointerType() ? op->getLHS() : op->getRHS());
  } else if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(e);
             unary != nullptr && unary->getOpcode() == clang::UO_AddrOf) {
    return lvalue_root(unary->getSubExpr());
  }
  return PointerBinding{ir::kNone, ir::kNone, "the model does not follow '" + text(e) + "'"};
}

Lowerer::PointerBinding Lowerer::lvalue_root(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e))
    return pointer_root(subscript->getBase());
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e))
    return member->isArrow() ? pointer_root(member->getBase()) : lvalue_root(member->getBase());
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(e);
      unary != nullptr && unary->getOpcode() == clang::UO_Deref)
    return pointer_root(unary->getSubExpr());
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e);
  const auto* var = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (var != nullptr && (var->hasGlobalStorage() || var->getType()->isArrayType()) &&
      !var->getType()->isReferenceType() && bindings_.count(var) == 0)
    return PointerBinding{variable_base(var), ir::kNone, ""};
  return PointerBinding{ir::kNone, ir::kNone, "the model does not follow '" + text(e) + "'"};
}

/// The pointer values a region (a loop's parts, a switch's body) gives: (variable, value)
/// for each declaration with a value and each assignment `p = ...` as a statement.
void Lowerer::pointer_definitions(const clang::Stmt* s,
                                  std::vector<std::pair<const clang::VarDecl*, const clang::Expr*>>& out) {
  if (s == nullptr) return;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(s);
      op != nullptr && op->getOpcode() == clang::BO_Assign) {
    if (const clang::VarDecl* var = pointer_variable(op->getLHS())) out.emplace_back(var, op->getRHS());
  }
  if (const auto* decls = llvm::dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl* d : decls->decls())
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(d);
          var != nullptr && var->getType()->isPointerType() && var->getInit() != nullptr)
        out.emplace_back(var, var->getInit());
  }
  for (const clang::Stmt* child : s->children()) pointer_definitions(child, out);
}

/// Sets the followed pointers to their values at the head of a region of `parts` entered at
/// `where`: the values before joined with those its definitions may give, to a fixed point.
void Lowerer::enter_region(std::initializer_list<const clang::Stmt*> parts, const std::string& where) {
  std::vector<std::pair<const clang::VarDecl*, const clang::Expr*>> definitions;
  for (const clang::Stmt* part : parts) pointer_definitions(part, definitions);
  std::vector<const clang::VarDecl*> inner;  // declared in the region: bound by their declaration
  for (const auto& definition : definitions)
    if (pointers_.count(definition.first) == 0 && followed_pointer(definition.first)) {
      pointers_[definition.first] = PointerBinding{};
      inner.push_back(definition.first);
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [var, value] : definitions) {
      const auto found = pointers_.find(var);
      if (found == pointers_.end()) continue;
      const PointerBinding before = found->second;
      PointerBinding given = pointer_root(value);
      if (!given.lost.empty()) given.lost = lost_value(var, text(value), given.lost);
      PointerState into{{var, before}};
      join_pointers(into, PointerState{{var, given}}, where);
      const PointerBinding& after = into.at(var);
      changed |= after.base != before.base || after.lost != before.lost;
      pointers_[var].base = after.base;
      pointers_[var].lost = after.lost;
    }
  }
  for (const clang::VarDecl* var : inner) pointers_.erase(var);
}

/// The address a pointer expression holds, or nullopt with `why` set (the expressions and
/// accesses made on the way rolled back).
std::optional<Lowerer::Address> Lowerer::try_pointer_value(const clang::Expr* e, std::string& why) {
  const std::size_t exprs = k_.exprs.size();
  const std::size_t pending = pending_ != nullptr ? pending_->accesses.size() : 0;
  try {
    return pointer_value(e);
  } catch (const Unplaced& unplaced) {
    why = unplaced.reason;
  } catch (const InvalidInput&) {
    why = "the model does not follow it";
  }
  rollback(exprs, pending);
  return std::nullopt;
}

std::string Lowerer::lost_value(const clang::VarDecl* var, const std::string& value, const std::string& why) {
  return "the pointer '" + var->getNameAsString() + "' is set to '" + value + "': " + why;
}

/// Binds a pointer variable to the address `init` holds (an int64 local `name` holding its
/// offset, declared in `out`; no value yet without `init`). False when the model cannot follow
/// the value (the binding then keeps why, until an assignment it can follow).
bool Lowerer::bind_pointer(const clang::VarDecl* var, const clang::Expr* init, ir::SourceRange where,
                           std::vector<ir::StmtId>& out) {
  pointers_.erase(var);
  if (!followed_pointer(var)) return false;
  const ir::LocalId local = k_.add_local(var->getNameAsString(), ir::ScalarType::I64, where);
  std::string why;
  const std::optional<Address> a = init != nullptr ? try_pointer_value(init, why) : std::optional<Address>();
  out.push_back(k_.declare(local, a ? offset_expr(a->offset, where) : ir::kNone, where));
  PointerBinding bound{a ? a->base : ir::kNone, local,
                       a || init == nullptr ? "" : lost_value(var, text(init), why)};
  if (set_to_null(var) || (a && a->null != ir::kNone)) {  // 1 in the lanes where it is null
    bound.null = k_.add_local(var->getNameAsString() + " is null", ir::ScalarType::I32, where);
    out.push_back(
        k_.declare(bound.null, a ? null_flag(*a, where) : k_.constant(ir::ScalarType::I32, 0, where), where));
  }
  pointers_[var] = bound;
  return a.has_value() || init == nullptr;
}

/// `p = q + k`, `p += k`, `p -= k`, `++p`, `p++`, `--p`, `p--` for a followed pointer: the
/// assignment of its offset local (an assignment moves the pointer to q's buffer); opaque work
/// where the model cannot follow the new value (the pointer is then lost until set again);
/// nullopt for anything else.
std::optional<ir::StmtId> Lowerer::pointer_update(const clang::Expr* e) {
  const clang::VarDecl* var = nullptr;
  const clang::Expr* amount = nullptr;
  bool negate = false;
  std::int64_t step = 0;
  const clang::Expr* assigned = nullptr;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(e); op && op->isAssignmentOp()) {
    var = pointer_variable(op->getLHS());
    if (op->getOpcode() == clang::BO_AddAssign || op->getOpcode() == clang::BO_SubAssign) {
      amount = op->getRHS();
      negate = op->getOpcode() == clang::BO_SubAssign;
    } else if (op->getOpcode() == clang::BO_Assign) {
      assigned = op->getRHS();
    }
  } else if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(e);
             unary && unary->isIncrementDecrementOp()) {
    var = pointer_variable(unary->getSubExpr());
    step = unary->isIncrementOp() ? 1 : -1;
  }
  if (var == nullptr) return std::nullopt;
  const auto found = pointers_.find(var);
  if (found == pointers_.end() || found->second.offset == ir::kNone) return std::nullopt;
  PointerBinding& bound = found->second;
  const ir::SourceRange where = range(e);
  std::string why;
  if (assigned != nullptr) {
    if (const auto a = try_pointer_value(assigned, why)) return assign_pointer(bound, *a, var, where);
    bound.lost = lost_value(var, text(assigned), why);
  } else if (bound.lost.empty() && bound.base == ir::kNone) {
    bound.lost =
        "the pointer '" + var->getNameAsString() + "' is moved by '" + text(e) + "' before it has a value";
  } else if (bound.lost.empty()) {
    const std::size_t exprs = k_.exprs.size();
    const std::size_t pending = pending_ != nullptr ? pending_->accesses.size() : 0;
    try {
      const std::int64_t size = size_of(var->getType()->getPointeeType(), e);
      const Offset change =
          amount != nullptr ? scaled(amount, size, negate, where) : Offset{ir::kNone, step * size};
      const Offset now = add(Offset{k_.local(bound.offset, where), 0}, change, where);
      return k_.assign(bound.offset, offset_expr(now, where), where);
    } catch (const Unplaced& unplaced) {
      rollback(exprs, pending);
      bound.lost =
          "the pointer '" + var->getNameAsString() + "' is moved by '" + text(e) + "': " + unplaced.reason;
    }
  }
  scan_work(e);
  return k_.work(text(e), where);
}

}  // namespace warpdiv::frontend::detail::lowering
