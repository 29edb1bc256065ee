// What running host code may write among the file's variables of static storage (host_effects.hpp).
//
// A function's writes are its own (an assignment, ++ or -- of such a variable by name; through a
// pointer or reference: *p, p[i], p->x, this->x, a reference) and those of everything it runs: the
// functions it calls, constructors, destructors (of its locals, temporaries, delete), operator new
// and delete, default arguments. A function without a body in the file may write anything (it is
// defined elsewhere), as may a call through a pointer or of a virtual function. A library's
// function (declared in a system header or warpdiv's prelude) names none of the file's variables:
// it writes through the pointers, references and objects it is given, and may call back what the
// file lets out (a function whose address is taken, a lambda, a virtual function); the body of a
// library template's instantiation (std::sort<..., Cmp>) is read, as it may call what its
// arguments name. A variable is bound when its address is taken or a writable reference is bound to
// it anywhere in the file's code (a global initialiser too): a write through any pointer or
// reference may then write it.
#include "kernels/frontend/host_effects.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <vector>

#include "kernels/frontend/clang_parse.hpp"
#include "kernels/frontend/prelude_text.hpp"

namespace warpdiv::frontend::detail::host_eval {
namespace {

using namespace clang;

/// Whether `arguments` pass memory a callee may write through: a pointer, an array, a reference, an
/// object (which may hold pointers).
template <typename Range>
bool passes_memory(Range arguments, const FunctionDecl* callee) {
  unsigned i = 0;
  for (const Expr* a : arguments) {
    const QualType type = a->getType();
    const bool by_reference = callee == nullptr || i >= callee->getNumParams() ||
                              callee->getParamDecl(i)->getType()->isReferenceType();
    if (type->isPointerType() || type->isArrayType() || type->isMemberPointerType() || type->isRecordType() ||
        type->isReferenceType() || (a->isGLValue() && by_reference))
      return true;
    ++i;
  }
  return false;
}

Writes through_pointer() {
  Writes w;
  w.indirect = true;
  return w;
}

bool in_library(const ASTContext& context, const Decl* d) {
  const SourceManager& sources = context.getSourceManager();
  const clang::SourceLocation at = sources.getExpansionLoc(d->getLocation());
  return sources.isInSystemHeader(at) || sources.getFilename(at).startswith(kBuiltinDir);
}

/// Whether the lvalue `use` (below `up`, its ancestors nearest last, parentheses left out) is only
/// read, or written by name with its result discarded or read: not bound to a pointer or writable
/// reference.
bool harmless(const Stmt* use, const std::vector<const Stmt*>& up, std::size_t level) {
  const auto at = [&](std::size_t i) -> const Stmt* {
    return level + i < up.size() ? up[up.size() - 1 - level - i] : nullptr;
  };
  const Stmt* parent = at(0);
  if (parent == nullptr) return false;  // int &R = N;
  if (const auto* cast = dyn_cast<ImplicitCastExpr>(parent)) {
    if (cast->getCastKind() == CK_NoOp) return harmless(parent, up, level + 1);  // made const
    return cast->getCastKind() == CK_LValueToRValue;
  }
  if (isa<UnaryExprOrTypeTraitExpr>(parent)) return true;  // sizeof: not evaluated
  if (const auto* m = dyn_cast<MemberExpr>(parent);
      m != nullptr && !m->isArrow() && m->getBase()->IgnoreParens() == use)
    return harmless(parent, up, level + 1);  // N.x: as N.x is used
  const auto* b = dyn_cast<BinaryOperator>(parent);
  const auto* u = dyn_cast<UnaryOperator>(parent);
  if ((b != nullptr && b->isAssignmentOp() && b->getLHS()->IgnoreParens() == use) ||
      (u != nullptr && u->isIncrementDecrementOp())) {
    if (u != nullptr && u->isPostfix()) return true;  // a value, not the variable
    // The assignment's result: discarded (a statement, the left of a comma, a cast to void) or read.
    const Stmt* outer = at(1);
    if (outer == nullptr || !isa<Expr>(outer)) return true;
    if (const auto* cast = dyn_cast<CastExpr>(outer))
      return cast->getCastKind() == CK_LValueToRValue || cast->getCastKind() == CK_ToVoid;
    const auto* comma = dyn_cast<BinaryOperator>(outer);
    return comma != nullptr && comma->getOpcode() == BO_Comma && comma->getLHS()->IgnoreParens() == parent;
  }
  // Bound to a const reference parameter (std::min(N, m)): read.
  const auto const_parameter = [&](const FunctionDecl* callee, unsigned i) {
    if (callee == nullptr || i >= callee->getNumParams()) return false;
    const QualType type = callee->getParamDecl(i)->getType();
    return type->isReferenceType() && type.getNonReferenceType().isConstQualified();
  };
  if (const auto* call = dyn_cast<CallExpr>(parent))
    for (unsigned i = 0; i < call->getNumArgs(); ++i)
      if (call->getArg(i)->IgnoreParens() == use) return const_parameter(call->getDirectCallee(), i);
  if (const auto* construct = dyn_cast<CXXConstructExpr>(parent))
    for (unsigned i = 0; i < construct->getNumArgs(); ++i)
      if (construct->getArg(i)->IgnoreParens() == use) return const_parameter(construct->getConstructor(), i);
  return false;
}

/// Every place of the file's own code (not a system header's) where a variable of static storage is
/// bound to a pointer or writable reference, and the functions the file lets out to be called back.
class Binder : public RecursiveASTVisitor<Binder> {
 public:
  Binder(ASTContext& context, std::map<const VarDecl*, std::string>& bindings,
         std::vector<const FunctionDecl*>& callbacks)
      : context_(context), bindings_(bindings), callbacks_(callbacks) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl* f) {
    if (in_library(context_, f)) return true;
    if (const auto* method = dyn_cast<CXXMethodDecl>(f);
        method != nullptr && method->isVirtual() && f->hasBody())
      callbacks_.push_back(f);
    if (!f->doesThisDeclarationHaveABody()) return true;
    walk(f->getBody());
    if (const auto* constructor = dyn_cast<CXXConstructorDecl>(f))
      for (const CXXCtorInitializer* init : constructor->inits()) walk(init->getInit());
    for (const ParmVarDecl* p : f->parameters())
      if (p->hasDefaultArg() && !p->hasUnparsedDefaultArg() && !p->hasUninstantiatedDefaultArg())
        walk(p->getDefaultArg());
    return true;
  }
  bool VisitVarDecl(VarDecl* v) {
    if (!in_library(context_, v) && v->hasGlobalStorage() && !v->isStaticLocal() &&
        !v->getDeclContext()->isDependentContext())
      walk(v->getInit());
    return true;
  }
  bool VisitFieldDecl(FieldDecl* field) {
    if (!in_library(context_, field) && field->hasInClassInitializer()) walk(field->getInClassInitializer());
    return true;
  }

 private:
  void walk(const Stmt* s) {
    std::vector<const Stmt*> up;
    walk(s, up);
  }
  void walk(const Stmt* s, std::vector<const Stmt*>& up) {
    if (s == nullptr) return;
    if (const auto* d = dyn_cast<DeclRefExpr>(s))
      if (const auto* v = dyn_cast<VarDecl>(d->getDecl()); v != nullptr && v->hasGlobalStorage() &&
                                                           bindings_.count(v->getCanonicalDecl()) == 0 &&
                                                           !harmless(s, up, 0))
        bindings_[v->getCanonicalDecl()] = location_of(context_.getSourceManager(), s->getBeginLoc());
    // A function named other than as a call's callee (its address taken, a reference bound to it).
    const ValueDecl* named = nullptr;
    if (const auto* d = dyn_cast<DeclRefExpr>(s)) named = d->getDecl();
    if (const auto* m = dyn_cast<MemberExpr>(s)) named = m->getMemberDecl();
    if (const auto* f = dyn_cast_or_null<FunctionDecl>(named); f != nullptr && !callee(s, up))
      callbacks_.push_back(f);
    if (const auto* lambda = dyn_cast<LambdaExpr>(s)) {
      callbacks_.push_back(lambda->getCallOperator());
      walk(lambda->getBody(), up);
    }
    const bool paren = isa<ParenExpr>(s);
    if (!paren) up.push_back(s);
    for (const Stmt* child : s->children()) walk(child, up);
    if (!paren) up.pop_back();
  }

  /// Whether `s` (below `up`) is the callee of a call, below the conversion to a pointer.
  static bool callee(const Stmt* s, const std::vector<const Stmt*>& up) {
    for (auto a = up.rbegin(); a != up.rend(); ++a) {
      if (const auto* call = dyn_cast<CallExpr>(*a)) return call->getCallee()->IgnoreParenImpCasts() == s;
      if (!isa<ImplicitCastExpr>(*a)) return false;
    }
    return false;
  }

  ASTContext& context_;
  std::map<const VarDecl*, std::string>& bindings_;
  std::vector<const FunctionDecl*>& callbacks_;
};

}  // namespace

struct HostEffects::Impl {
  ASTContext& context;
  std::map<const FunctionDecl*, Writes> done;  // functions' writes, worked out in full
  std::set<const FunctionDecl*> open;          // being worked out (a call back to one: not in full yet)
  std::unique_ptr<Writes> library_done;        // what a library function may write, in full
  bool library_open = false;
  bool in_library_code = false;  // the body being read is a library's (a template's instantiation)
  bool scanned = false;
  std::map<const VarDecl*, std::string> bindings;
  std::vector<const FunctionDecl*> callbacks;

  explicit Impl(ASTContext& ast) : context(ast) {}

  std::string where(const Stmt* s) const { return location_of(context.getSourceManager(), s->getBeginLoc()); }
  void scan() {
    if (scanned) return;
    scanned = true;
    Binder binder(context, bindings, callbacks);
    binder.TraverseDecl(context.getTranslationUnitDecl());
  }

  /// `given_memory`: the call passes a pointer, a reference or an object (a library function may
  /// write through it).
  Writes function(const FunctionDecl* f, bool& complete, bool given_memory = true);
  Writes library(bool& complete, bool given_memory = true);
  Writes node(const Stmt* s, bool& complete);
  Writes destruction(QualType type, bool& complete);
  Writes members(const CXXRecordDecl* record, bool& complete);
  void body(const Stmt* s, Writes& w, bool& complete);
};

Writes HostEffects::Impl::function(const FunctionDecl* f, bool& complete, bool given_memory) {
  if (f == nullptr) return {};
  const FunctionDecl* definition = nullptr;
  if (!f->hasBody(definition) || definition == nullptr) {
    if (f->isTrivial() || f->isDeleted()) return {};
    if (f->getBuiltinID() != 0 || in_library(context, f)) return library(complete, given_memory);
    Writes w;
    w.any = f->getQualifiedNameAsString() + "() is not defined in the file";
    return w;
  }
  // A library's own function calls the file's code only back (a template's instantiation may also
  // call what its arguments name: its body is read, as library code).
  const bool library_code = in_library(context, definition);
  if (library_code && definition->getTemplateSpecializationKind() == TSK_Undeclared)
    return library(complete, given_memory);
  const FunctionDecl* key = definition->getCanonicalDecl();
  if (const auto d = done.find(key); d != done.end()) return d->second;
  if (open.count(key) != 0) {
    complete = false;
    return {};
  }
  const bool bottom = open.empty() && !library_open;  // nothing below it is open: its writes are in full
  open.insert(key);
  const bool outer_library_code = in_library_code;
  in_library_code = library_code;
  bool own = true;
  Writes w;
  body(definition->getBody(), w, own);
  if (const auto* constructor = dyn_cast<CXXConstructorDecl>(definition))
    for (const CXXCtorInitializer* init : constructor->inits()) body(init->getInit(), w, own);
  if (const auto* destructor = dyn_cast<CXXDestructorDecl>(definition))
    w.add(members(destructor->getParent(), own));
  in_library_code = outer_library_code;
  open.erase(key);
  if (own || bottom)
    done[key] = w;
  else
    complete = false;
  return w;
}

Writes HostEffects::Impl::library(bool& complete, bool given_memory) {
  Writes w;
  w.indirect = given_memory;
  if (library_done) {
    w.add(*library_done);
    return w;
  }
  if (library_open) {
    complete = false;
    return w;
  }
  scan();
  const bool bottom = open.empty();
  library_open = true;
  bool own = true;
  Writes back;  // what the functions it may call back write
  for (const FunctionDecl* callback : callbacks) back.add(function(callback, own));
  library_open = false;
  if (own || bottom)
    library_done = std::make_unique<Writes>(back);
  else
    complete = false;
  w.add(back);
  return w;
}

Writes HostEffects::Impl::node(const Stmt* s, bool& complete) {
  if (const auto* call = dyn_cast<CallExpr>(s)) {
    const FunctionDecl* callee = call->getDirectCallee();
    Writes w;
    const auto* method = dyn_cast_or_null<CXXMethodDecl>(callee);
    const auto* member = dyn_cast<MemberExpr>(call->getCallee()->IgnoreParens());
    const bool dispatched = method != nullptr && method->isVirtual() &&
                            !(member != nullptr && member->hasQualifier()) && !method->hasAttr<FinalAttr>() &&
                            !method->getParent()->hasAttr<FinalAttr>();
    // Through a pointer or a virtual function in a library's code: what the file lets out.
    if ((callee == nullptr || dispatched) && in_library_code) return library(complete);
    if (callee == nullptr) {
      w.any = "the function called through a pointer at " + where(call) + " may be any";
      return w;
    }
    if (dispatched) {
      w.any = "the virtual function " + method->getQualifiedNameAsString() + "() called at " + where(call) +
              " may be any override";
      return w;
    }
    return function(callee, complete,
                    isa<CXXMemberCallExpr>(call) || passes_memory(call->arguments(), callee));
  }
  if (const auto* construct = dyn_cast<CXXConstructExpr>(s))
    return function(construct->getConstructor(), complete,
                    passes_memory(construct->arguments(), construct->getConstructor()));
  if (const auto* inherited = dyn_cast<CXXInheritedCtorInitExpr>(s))
    return function(inherited->getConstructor(), complete);
  if (const auto* made = dyn_cast<CXXNewExpr>(s)) return function(made->getOperatorNew(), complete);
  if (const auto* deleted = dyn_cast<CXXDeleteExpr>(s)) {
    Writes w = function(deleted->getOperatorDelete(), complete);
    const CXXRecordDecl* record =
        deleted->getDestroyedType().isNull()
            ? nullptr
            : context.getBaseElementType(deleted->getDestroyedType())->getAsCXXRecordDecl();
    if (record != nullptr && record->hasDefinition() && record->getDestructor() != nullptr &&
        record->getDestructor()->isVirtual() && in_library_code)
      w.add(library(complete));
    else if (record != nullptr && record->hasDefinition() && record->getDestructor() != nullptr &&
             record->getDestructor()->isVirtual())
      w.any = "the delete at " + where(s) + " runs a virtual destructor, which may be any override";
    else if (!deleted->getDestroyedType().isNull())
      w.add(destruction(deleted->getDestroyedType(), complete));
    return w;
  }
  if (const auto* temporary = dyn_cast<CXXBindTemporaryExpr>(s))
    return function(temporary->getTemporary()->getDestructor(), complete);
  if (isa<AsmStmt>(s)) {
    Writes w;
    w.any = "inline assembly may write anything";
    return w;
  }
  return {};
}

Writes HostEffects::Impl::destruction(QualType type, bool& complete) {
  if (type.isNull() || type->isReferenceType()) return {};
  const CXXRecordDecl* record = context.getBaseElementType(type)->getAsCXXRecordDecl();
  if (record == nullptr || !record->hasDefinition()) return {};
  const CXXDestructorDecl* destructor = record->getDestructor();
  if (destructor == nullptr || destructor->isTrivial()) return {};
  if (!destructor->hasBody()) {
    // Not defined (yet) by Sema: destroying it runs its members' and bases' destructors.
    if (destructor->isDefaulted()) return members(record, complete);
  }
  return function(destructor, complete);
}

Writes HostEffects::Impl::members(const CXXRecordDecl* record, bool& complete) {
  Writes w;
  if (record == nullptr || !record->hasDefinition()) return w;
  for (const FieldDecl* field : record->fields()) w.add(destruction(field->getType(), complete));
  for (const CXXBaseSpecifier& base : record->bases()) w.add(destruction(base.getType(), complete));
  for (const CXXBaseSpecifier& base : record->vbases()) w.add(destruction(base.getType(), complete));
  return w;
}

void HostEffects::Impl::body(const Stmt* s, Writes& w, bool& complete) {
  if (s == nullptr) return;
  if (const auto* b = dyn_cast<BinaryOperator>(s); b != nullptr && b->isAssignmentOp()) {
    w.add(of_target(b->getLHS()));
  } else if (const auto* u = dyn_cast<UnaryOperator>(s); u != nullptr && u->isIncrementDecrementOp()) {
    w.add(of_target(u->getSubExpr()));
  } else if (const auto* op = dyn_cast<CXXOperatorCallExpr>(s);
             op != nullptr && op->isAssignmentOp() && op->getNumArgs() > 0) {
    w.add(of_target(op->getArg(0)));
  } else if (const auto* d = dyn_cast<DeclStmt>(s)) {
    for (const Decl* decl : d->decls())
      if (const auto* v = dyn_cast<VarDecl>(decl); v != nullptr && v->hasLocalStorage())
        w.add(destruction(v->getType(), complete));
  } else if (const auto* argument = dyn_cast<CXXDefaultArgExpr>(s)) {
    body(argument->getExpr(), w, complete);
  } else if (const auto* init = dyn_cast<CXXDefaultInitExpr>(s)) {
    body(init->getExpr(), w, complete);
  }
  w.add(node(s, complete));
  for (const Stmt* child : s->children()) body(child, w, complete);
}

HostEffects::HostEffects(ASTContext& context) : impl_(std::make_unique<Impl>(context)) {}
HostEffects::~HostEffects() = default;

Writes HostEffects::of_node(const Stmt* s) {
  bool complete = true;
  Writes w;
  if (const auto* argument = dyn_cast<CXXDefaultArgExpr>(s)) impl_->body(argument->getExpr(), w, complete);
  if (const auto* init = dyn_cast<CXXDefaultInitExpr>(s)) impl_->body(init->getExpr(), w, complete);
  w.add(impl_->node(s, complete));
  return w;
}

Writes HostEffects::of_destruction(QualType type) {
  bool complete = true;
  return impl_->destruction(type, complete);
}

Writes HostEffects::of_target(const Expr* target) {
  const Expr* e = target->IgnoreParenImpCasts();
  while (true) {
    if (const auto* m = dyn_cast<MemberExpr>(e)) {
      if (m->isArrow()) return through_pointer();
      e = m->getBase()->IgnoreParenImpCasts();
    } else if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
      const Expr* base = a->getBase()->IgnoreParenImpCasts();
      if (!base->getType()->isArrayType()) return through_pointer();
      e = base;
    } else {
      break;
    }
  }
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(d->getDecl());
    if (v == nullptr || v->getType()->isReferenceType()) return through_pointer();
    Writes w;
    if (v->hasGlobalStorage()) w.by_name.insert(v->getCanonicalDecl());
    return w;
  }
  if (const auto* c = dyn_cast<AbstractConditionalOperator>(e)) {
    Writes w = of_target(c->getTrueExpr());
    w.add(of_target(c->getFalseExpr()));
    return w;
  }
  if (const auto* cast = dyn_cast<ExplicitCastExpr>(e)) return of_target(cast->getSubExpr());
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    if (b->getOpcode() == BO_Comma) return of_target(b->getRHS());
    if (b->isAssignmentOp()) return of_target(b->getLHS());
  }
  return through_pointer();
}

std::string HostEffects::bound(const VarDecl* v) {
  impl_->scan();
  const auto b = impl_->bindings.find(v->getCanonicalDecl());
  return b == impl_->bindings.end() ? "" : b->second;
}

}  // namespace warpdiv::frontend::detail::host_eval
