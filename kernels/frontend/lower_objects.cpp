// Objects made from temporaries and copied whole: a local initialised from braces, a call or an
// operator returning its class by value, or c ? x : y, member by member; a member of a temporary
// (mk(t).b) read from an object made before its statement; copies between objects and from and
// into memory, each member its own load or store. The objects themselves (locals of the model
// named "s.n") are lower_cxx.cpp's.
#include "kernels/frontend/lowerer.hpp"

#include <algorithm>

namespace warpdiv::frontend::detail::lowering {

/// The local holding `member` of a temporary (mk(t).b, P{t, 1}.a, mk(t).in.x): the temporary made
/// before the statement, once (an expression lowered again reads the same object); nullopt for a
/// member of anything else, or where the statement cannot run code before it (a loop's condition:
/// a call there is refused).
std::optional<ir::LocalId> Lowerer::temporary_member(const clang::MemberExpr* member) {
  std::vector<const clang::FieldDecl*> path;  // innermost member last
  const clang::Expr* base = member;
  while (const auto* m = llvm::dyn_cast<clang::MemberExpr>(base)) {
    const auto* field = llvm::dyn_cast<clang::FieldDecl>(m->getMemberDecl());
    if (field == nullptr || m->isArrow()) return std::nullopt;
    path.insert(path.begin(), field);
    base = m->getBase()->IgnoreParenImpCasts();
  }
  const clang::Expr* value = object_value(base);
  const clang::CXXRecordDecl* record = trackable(value->getType());
  if (value->isGLValue() || record == nullptr || pending_ == nullptr || hoisted_ == nullptr ||
      (no_hoist_ != nullptr && !llvm::isa<clang::CallExpr>(value)))
    return std::nullopt;
  auto found = pending_->temporaries.find(value);
  if (found == pending_->temporaries.end()) {
    std::vector<ir::StmtId> made;
    const int object = temporary_object(record, value, text(value), made);
    for (const ir::StmtId statement : made) hoist(value, statement);
    found = pending_->temporaries.emplace(value, object).first;
  }
  int object = found->second;
  for (std::size_t i = 0; i + 1 < path.size() && object != kUnknownObject; ++i) {
    const auto inner = objects_[object].records.find(path[i]);
    object = inner != objects_[object].records.end() ? inner->second : kUnknownObject;
  }
  if (object == kUnknownObject) return std::nullopt;
  const auto local = objects_[object].scalars.find(path.back());
  if (local == objects_[object].scalars.end()) return std::nullopt;
  return local->second;
}

/// The item of braces that initialises `member` of a temporary made from them (P{t, 1}.a: t;
/// null: a member the braces leave out, 0), through members of members; nullopt where the
/// temporary is not made by braces alone (a constructor, a call) or the item is not found.
std::optional<const clang::Expr*> Lowerer::braced_member(const clang::MemberExpr* member) {
  const auto* field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
  if (field == nullptr || member->isArrow()) return std::nullopt;
  const clang::Expr* base = object_value(member->getBase()->IgnoreParenImpCasts());
  const clang::Expr* init = nullptr;
  if (const auto* outer = llvm::dyn_cast<clang::MemberExpr>(base)) {
    const std::optional<const clang::Expr*> whole = braced_member(outer);
    if (!whole || *whole == nullptr) return whole;
    base = object_value(*whole);
  }
  const auto* list = llvm::dyn_cast<clang::InitListExpr>(base);
  const auto* record = list != nullptr ? list->getType()->getAsCXXRecordDecl() : nullptr;
  if (record == nullptr || record->isUnion() || record->getNumBases() != 0) return std::nullopt;
  unsigned index = 0;
  for (const clang::FieldDecl* f : record->fields()) {
    if (f == field) {
      init = index < list->getNumInits() ? list->getInit(index) : nullptr;
      if (init != nullptr && llvm::isa<clang::ImplicitValueInitExpr>(init->IgnoreParens())) init = nullptr;
      return init;
    }
    ++index;
  }
  return std::nullopt;
}

/// The object whose members `source`, copied into memory, holds: a tracked object, or a
/// temporary made before the statement (where calls may run there); kUnknownObject otherwise.
int Lowerer::stored_object(const clang::Expr* source) {
  const clang::Expr* value = object_value(source);
  const int object = object_of(value);
  if (object != kUnknownObject || value->isGLValue() || hoisted_ == nullptr || no_hoist_ != nullptr)
    return object;
  const clang::CXXRecordDecl* record = trackable(value->getType());
  return record != nullptr ? temporary_object(record, value, text(value), *hoisted_) : kUnknownObject;
}

void Lowerer::zero(int object, ir::SourceRange where, std::vector<ir::StmtId>& out) {
  for (const auto& [field, local] : objects_[object].scalars)
    out.push_back(k_.assign(local, k_.constant(k_.locals[local].type, 0, where), where));
  for (const auto& [field, inner] : objects_[object].records) zero(inner, where, out);
}

/// dst = src, member by member (a trivial or defaulted copy): from a tracked object; from a
/// temporary or a ?: (copy_temporary); from memory (copy_from_memory).
void Lowerer::copy_object(int dst, const clang::Expr* src, std::vector<ir::StmtId>& out) {
  const clang::Expr* value = object_value(src);
  const int from = object_of(value);
  if (from == kUnknownObject) {
    if (!value->isGLValue() || llvm::isa<clang::ConditionalOperator>(value)) {
      copy_temporary(dst, value, out);
    } else {
      copy_from_memory(dst, src, out);
    }
    return;
  }
  if (from != dst) copy_between(dst, from, text(src), range(src), out);
}

/// dst = src where src is memory (or what the model does not hold): one load per member (as
/// record_object splits the copy), each member's value its own load's; where the copy is not
/// placed, opaque.
void Lowerer::copy_from_memory(int dst, const clang::Expr* src, std::vector<ir::StmtId>& out) {
  const std::size_t first = pending_ != nullptr ? pending_->accesses.size() : 0;
  const bool placed = is_memory(src) && record_object(ir::AccessKind::Load, src);
  if (!placed) run_statement_parts(src, out);
  const ObjectCopy loads{text(src), first, objects_[dst].name.size()};
  forget(dst, "copied from " + text(src), range(src), out, placed ? &loads : nullptr);
}

/// dst = value, a class made whole before it is copied (a call returning it, braces, a ?: that
/// may read dst): a temporary object initialised from it, then copied member by member.
void Lowerer::copy_temporary(int dst, const clang::Expr* value, std::vector<ir::StmtId>& out) {
  const clang::CXXRecordDecl* record = trackable(value->getType());
  if (record == nullptr) refuse_temporary(value);
  copy_between(dst, temporary_object(record, value, text(value), out), text(value), range(value), out);
}

/// Refuses `value`, a temporary of a class the model does not make member by member.
void Lowerer::refuse_temporary(const clang::Expr* value) const {
  clang::PrintingPolicy policy(context_.getLangOpts());
  policy.SuppressTagKeyword = true;
  refuse(value, "'" + text(value) + "' makes a " + value->getType().getUnqualifiedType().getAsString(policy) +
                    " the model does not follow member by member: not supported");
}

/// A new object named `name` initialised from `value`: a temporary (one a reference is bound to,
/// one a member function runs on, a copy's source made whole before it is copied).
int Lowerer::temporary_object(const clang::CXXRecordDecl* record, const clang::Expr* value,
                              const std::string& name, std::vector<ir::StmtId>& out) {
  const int object = make_object(record, name, range(value), out);
  initialise(object, value, out);
  return object;
}

/// The object `e` makes or names, seen through parentheses, no-op casts (P{...} is a functional
/// cast of its braces), a conversion (P(x) by a constructor, the call of an operator P()), a
/// temporary's materialisation and binding, and a default argument or member initialiser.
const clang::Expr* Lowerer::object_value(const clang::Expr* e) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto* cleanups = llvm::dyn_cast<clang::ExprWithCleanups>(e)) {
      e = cleanups->getSubExpr();
    } else if (const auto* bind = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e)) {
      e = bind->getSubExpr();
    } else if (const auto* temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) {
      e = temporary->getSubExpr();
    } else if (const auto* argument = llvm::dyn_cast<clang::CXXDefaultArgExpr>(e)) {
      e = argument->getExpr();
    } else if (const auto* member = llvm::dyn_cast<clang::CXXDefaultInitExpr>(e)) {
      e = member->getExpr();
    } else if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(e);
               cast != nullptr && (cast->getCastKind() == clang::CK_NoOp ||
                                   cast->getCastKind() == clang::CK_ConstructorConversion ||
                                   cast->getCastKind() == clang::CK_UserDefinedConversion)) {
      e = cast->getSubExpr();
    } else {
      return e;
    }
  }
}

/// dst's members from `from`'s, matched by declaration (a member `from` lacks, as in a slice
/// of another class, becomes opaque, described as `source`). With `pick` (c ? x : y), each member
/// from `from`'s where the pick's condition holds, from `pick->otherwise`'s elsewhere.
void Lowerer::copy_between(int dst, int from, const std::string& source, ir::SourceRange where,
                           std::vector<ir::StmtId>& out, const Pick* pick) {
  for (const auto& [field, local] : objects_[dst].scalars) {
    const auto member = [&, field = field, local = local](int object) {
      const auto found = objects_[object].scalars.find(field);
      return found != objects_[object].scalars.end() ? k_.local(found->second, where)
                                                     : k_.opaque(k_.locals[local].type, source, where);
    };
    ir::ExprId value = member(from);
    if (pick != nullptr)
      value = k_.select(k_.local(pick->condition, where), value, member(pick->otherwise), where);
    out.push_back(k_.assign(local, value, where));
  }
  for (const auto& [field, inner] : objects_[dst].records) {
    const auto inner_of = [&, field = field](int object) {
      const auto found = objects_[object].records.find(field);
      return found != objects_[object].records.end() ? found->second : kUnknownObject;
    };
    const int a = inner_of(from);
    const int b = pick != nullptr ? inner_of(pick->otherwise) : a;
    if (a == kUnknownObject || b == kUnknownObject) {
      forget(inner, "copied from " + source, where, out);
      continue;
    }
    const Pick inner_pick{pick != nullptr ? pick->condition : ir::kNone, b};
    copy_between(inner, a, source, where, out, pick != nullptr ? &inner_pick : nullptr);
  }
}

/// Scans an expression the model does not evaluate, with its calls run first, into `out`.
void Lowerer::run_statement_parts(const clang::Expr* e, std::vector<ir::StmtId>& out) {
  std::vector<ir::StmtId>* outer = hoisted_;
  hoisted_ = &out;
  scan_work(e);
  hoisted_ = outer;
}

/// Runs an expression's own statements (its hoisted calls) into `out` and returns its value.
ir::ExprId Lowerer::value_into(const clang::Expr* e, ir::ScalarType type, std::vector<ir::StmtId>& out) {
  std::vector<ir::StmtId>* outer = hoisted_;
  hoisted_ = &out;
  const ir::ExprId value = convert(lower_int(e), type, range(e));
  hoisted_ = outer;
  return value;
}

/// The object's initialisation from `init` (a constructor, a copy, braces, a call returning the
/// class by value, a ?:, anything else): a temporary it makes is the object itself, as C++17's
/// initialisation from a prvalue is; one the model cannot follow is refused.
void Lowerer::initialise(int object, const clang::Expr* init, std::vector<ir::StmtId>& out) {
  init = object_value(init);
  const ir::SourceRange where = range(init);
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(init)) {
    const clang::CXXConstructorDecl* constructor = construct->getConstructor();
    if (construct->requiresZeroInitialization()) zero(object, where, out);
    if (constructor->isCopyOrMoveConstructor() && (constructor->isTrivial() || constructor->isDefaulted())) {
      initialise(object, construct->getArg(0), out);  // a copy of an object, a temporary or a ?:
      return;
    }
    if (constructor->isTrivial()) return;
    if (!inlinable(constructor) || !constructor->hasBody()) {
      run_statement_parts(init, out);
      forget(object, "set by " + text(init), where, out);
      return;
    }
    check_function(construct, constructor);
    std::vector<const clang::Expr*> args(construct->arg_begin(), construct->arg_end());
    std::vector<ir::StmtId>* outer = hoisted_;
    hoisted_ = &out;
    out.push_back(inline_function(construct, constructor, args, ir::kNone, object));
    hoisted_ = outer;
    return;
  }
  if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(init)) {
    initialise_list(object, list, out);
    return;
  }
  if (llvm::isa<clang::ImplicitValueInitExpr>(init) || llvm::isa<clang::CXXScalarValueInitExpr>(init)) {
    zero(object, where, out);
    return;
  }
  if (const auto* conditional = llvm::dyn_cast<clang::ConditionalOperator>(init)) {
    initialise_conditional(object, conditional, out);
    return;
  }
  if (init->isGLValue()) {
    copy_object(object, init, out);
    return;
  }
  const auto* call = llvm::dyn_cast<clang::CallExpr>(init);
  if (call != nullptr && initialise_from_call(object, call, out)) return;
  run_statement_parts(init, out);  // what it refuses itself (a lambda ...) says so first
  refuse_temporary(init);
}

/// The object's initialisation from braces: its bases' and members' in order ({x} of its own
/// class: from x).
void Lowerer::initialise_list(int object, const clang::InitListExpr* list, std::vector<ir::StmtId>& out) {
  if (list->getNumInits() == 1 &&
      context_.hasSameUnqualifiedType(list->getInit(0)->getType(), list->getType())) {
    initialise(object, list->getInit(0), out);
    return;
  }
  const auto* record = list->getType()->getAsCXXRecordDecl();
  if (record == nullptr || list->getType()->isUnionType()) refuse_temporary(list);
  unsigned index = 0;
  for (std::size_t i = 0; i < record->getNumBases() && index < list->getNumInits(); ++i)
    initialise(object, list->getInit(index++), out);  // the base's members are the object's own
  for (const clang::FieldDecl* field : record->fields()) {
    if (index >= list->getNumInits()) break;
    initialise_field(object, field, list->getInit(index++), out);
  }
}

/// The object's initialisation from a call returning its class by value (`mk(t)`, `x + y`): the
/// __device__ function inlined, each of its `return`s initialising the object. False for a call
/// the model does not inline.
bool Lowerer::initialise_from_call(int object, const clang::CallExpr* call, std::vector<ir::StmtId>& out) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr || !inlinable(callee) || in_group_namespace(callee)) return false;
  check_callee(call, callee);
  std::vector<ir::StmtId>* outer = hoisted_;
  hoisted_ = &out;
  out.push_back(inline_call(call, callee, ir::kNone, object));
  hoisted_ = outer;
  return true;
}

/// The object's initialisation from `c ? x : y`: from x where c holds, from y elsewhere. Where
/// neither arm runs code (calls, constructors), each member a select of the arms' (an arm the
/// model does not follow made an object first, its loads made by the lanes that pick it); else
/// an if, whose arm alone runs its calls.
void Lowerer::initialise_conditional(int object, const clang::ConditionalOperator* conditional,
                                     std::vector<ir::StmtId>& out) {
  const ir::SourceRange where = range(conditional);
  const clang::Expr* condition = conditional->getCond();
  const clang::Expr* arms[2] = {conditional->getTrueExpr(), conditional->getFalseExpr()};
  std::vector<ir::StmtId>* outer = hoisted_;
  hoisted_ = &out;
  const ir::ExprId holds = lower_int(condition);
  hoisted_ = outer;
  const clang::CXXRecordDecl* record = trackable(conditional->getType());
  if (record != nullptr && !calls_code(arms[0]) && !calls_code(arms[1])) {
    const ir::LocalId picked = k_.add_local(text(condition), k_.exprs[holds].type, range(condition));
    out.push_back(k_.declare(picked, holds, range(condition)));
    int made[2];
    for (int i = 0; i < 2; ++i) {
      const GuardScope guard(*this, condition, i == 0);
      made[i] = object_of(object_value(arms[i]));
      if (made[i] != kUnknownObject) continue;
      // A temporary's members computed in the lanes that pick its arm only (C++ evaluates that
      // arm alone): each value a select on the condition, 0 in the other lanes.
      std::vector<ir::StmtId> parts;
      made[i] = temporary_object(record, arms[i], text(arms[i]), parts);
      for (const ir::StmtId part : parts) {
        ir::Stmt& st = k_.stmts[static_cast<std::size_t>(part)];
        if ((st.kind == ir::StmtKind::Assign || st.kind == ir::StmtKind::Declare) && st.value != ir::kNone) {
          const ir::ExprId none = k_.constant(k_.exprs[st.value].type, 0, st.range);
          const ir::ExprId pick = k_.local(picked, st.range);
          st.value =
              i == 0 ? k_.select(pick, st.value, none, st.range) : k_.select(pick, none, st.value, st.range);
        }
        out.push_back(part);
      }
    }
    const Pick pick{picked, made[1]};
    copy_between(object, made[0], text(conditional), where, out, &pick);
    return;
  }
  std::vector<ir::StmtId> lanes[2];
  for (int i = 0; i < 2; ++i) {
    const GuardScope guard(*this, condition, i == 0);
    initialise(object, arms[i], lanes[i]);
  }
  out.push_back(k_.if_(holds, k_.block(lanes[0], where), k_.block(lanes[1], where), where));
}

void Lowerer::initialise_field(int object, const clang::FieldDecl* field, const clang::Expr* init,
                               std::vector<ir::StmtId>& out) {
  const auto scalar = objects_[object].scalars.find(field);
  if (scalar != objects_[object].scalars.end()) {
    const ir::LocalId local = scalar->second;
    out.push_back(k_.assign(local, value_into(init, k_.locals[local].type, out), range(init)));
    return;
  }
  const auto inner = objects_[object].records.find(field);
  if (inner != objects_[object].records.end()) {
    initialise(inner->second, init, out);
    return;
  }
  run_statement_parts(init, out);  // a float or pointer member: work on memory
}

/// A constructor's member or base initialiser, run on `object` (or scanned as work when the
/// object is not tracked).
void Lowerer::initialise_member(const clang::CXXCtorInitializer* init, int object,
                                std::vector<ir::StmtId>& out) {
  if (object == kUnknownObject) {
    run_statement_parts(init->getInit(), out);
    return;
  }
  if (init->isBaseInitializer()) {
    initialise(object, init->getInit(), out);  // the base's members are the object's own
    return;
  }
  if (const clang::FieldDecl* field = init->getMember()) {
    initialise_field(object, field, init->getInit(), out);
    return;
  }
  run_statement_parts(init->getInit(), out);
}

/// `a = b` (built-in, trivial or defaulted assignment) where a is a tracked object.
std::optional<std::pair<int, const clang::Expr*>> Lowerer::object_assignment(const clang::Expr* e) const {
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(e);
      op != nullptr && op->getOpcode() == clang::BO_Assign) {
    const int object = object_of(op->getLHS());
    if (object != kUnknownObject) return std::make_pair(object, op->getRHS());
  }
  if (const auto* call = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e);
      call != nullptr && call->getOperator() == clang::OO_Equal && call->getNumArgs() == 2) {
    const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(call->getDirectCallee());
    if (method != nullptr && (method->isTrivial() || method->isDefaulted())) {
      const int object = object_of(call->getArg(0));
      if (object != kUnknownObject) return std::make_pair(object, call->getArg(1));
    }
  }
  return std::nullopt;
}

/// `a = b` for objects through a trivial copy or move assignment (float4, a plain struct).
bool Lowerer::trivial_assignment(const clang::CallExpr* call) {
  const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
  if (op == nullptr || op->getOperator() != clang::OO_Equal || op->getNumArgs() != 2) return false;
  const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(op->getDirectCallee());
  return method != nullptr && method->isTrivial() &&
         (method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator());
}

}  // namespace warpdiv::frontend::detail::lowering
