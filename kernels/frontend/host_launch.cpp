// The launches of a kernel in the file's host code (host_launch.hpp), and a small evaluator of
// integer expressions over them.
//
// What is computed, strictly (never a guess): constants (literals, const/constexpr variables,
// enumerators, macros, sizeof: whatever Clang's Expr::EvaluateAsInt folds) and the integer and
// dim3 locals of the host function holding the launch, followed statement by statement in
// straight-line code from the function's start to the launch: declarations with their
// initialisers, assignments (=, +=, ..., ++, --) and dim3 members (`g.x = ...`). C's arithmetic
// on the expressions' own types: conversions as Clang made them explicit, unsigned wrap-around;
// signed overflow, division by zero and shifts past the width are not computable. A local written
// anywhere else before the launch (inside an if, a loop or a switch that does not hold the
// launch, inside a larger expression), set from a call, from memory or from anything else the
// evaluator does not compute, whose address is taken, that is bound to a reference or passed by
// reference, or that changes inside a loop holding the launch (its variable, say) is not
// computable from then on, with the reason. A parameter of a helper function is computed at its
// one call site in the file (main's are not computable; a helper called from several places
// neither). Float and double kernel arguments are taken when Clang folds them to finite constants.
#include "kernels/frontend/host_launch.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/APSInt.h>

#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernels/frontend/clang_parse.hpp"

namespace warpdiv::frontend::detail {
namespace {

using llvm::APSInt;

/// How many helper functions deep a parameter is followed to its call site.
constexpr int kMaxCallDepth = 8;
/// Expressions quoted in a reason are cut after this many bytes.
constexpr std::size_t kMaxQuoted = 60;

/// A value: known with its bits in the expression's type, or why not. `leaf`: the reason is the
/// text of the expression the evaluator cannot compute (a call, a read of memory ...), which the
/// local it is assigned to names ("'n' (f.cu:3:7) is set from atoi(argv[1])").
struct Val {
  bool known = false;
  APSInt v;
  std::string reason;
  bool leaf = false;
  static Val of(APSInt value) {
    Val r;
    r.known = true;
    r.v = std::move(value);
    return r;
  }
  static Val unknown(std::string why, bool is_leaf = false) {
    Val r;
    r.reason = std::move(why);
    r.leaf = is_leaf;
    return r;
  }
};

struct Dim {
  Val c[3];
};

std::string decimal(const APSInt& value) {
  llvm::SmallString<32> text;
  value.toString(text, 10);
  return std::string(text.str());
}

bool is_dim3(clang::QualType type) {
  const auto* record = type.getNonReferenceType()->getAsCXXRecordDecl();
  return record != nullptr && record->getName() == "dim3";
}

bool is_integer(clang::QualType type) {
  return type.getNonReferenceType()->isIntegralOrEnumerationType();
}

/// Every host function's calls of other functions: where each is called from.
struct CallSite {
  const clang::CallExpr* call;
  const clang::FunctionDecl* caller;
};

class Finder {
 public:
  explicit Finder(clang::ASTContext& ast) : context(ast) {}
  clang::ASTContext& context;
  std::map<const clang::FunctionDecl*, std::vector<CallSite>> callers;  // by canonical declaration

  std::string where(clang::SourceLocation loc) const {
    return location_of(context.getSourceManager(), loc);
  }
  std::string quoted(const clang::Stmt* s) const {
    std::string text = source_text(context, s);
    if (text.size() > kMaxQuoted) text = text.substr(0, kMaxQuoted) + "...";
    return text;
  }
  std::string name(const clang::FunctionDecl* f) const { return f->getQualifiedNameAsString() + "()"; }
};

/// The host function `function` followed from its start to `target` (a statement in its body).
class Frame {
 public:
  /// `pins`: variables that hold a given value throughout (FrontendOptions::host_arguments).
  Frame(const Finder& finder, const clang::FunctionDecl* function, const clang::Stmt* target,
        int depth, const std::map<const clang::VarDecl*, Val>* pins = nullptr)
      : f_(finder), ctx_(finder.context), function_(function), target_(target), depth_(depth),
        pins_(pins) {
    std::vector<const clang::Stmt*> path;
    find_path(function->getBody(), path);
    on_path_.insert(path.begin(), path.end());
    for (const clang::Stmt* s : path)
      if (llvm::isa<clang::LambdaExpr>(s) || llvm::isa<clang::BlockExpr>(s)) {
        blocked_ = "the launch is inside the lambda at " + f_.where(s->getBeginLoc()) +
                   ", whose calls are not followed";
        return;
      }
    if (const clang::Stmt* jump = find_goto(function->getBody()))
      blocked_ = f_.name(function) + " uses goto (" + f_.where(jump->getBeginLoc()) +
                 "), so the order of its statements is not followed";
    else
      walk(function->getBody());
  }

  Val eval(const clang::Expr* e);
  Dim eval_dim(const clang::Expr* e);

 private:
  bool find_path(const clang::Stmt* s, std::vector<const clang::Stmt*>& path) const {
    if (s == nullptr) return false;
    path.push_back(s);
    if (s == target_) return true;
    for (const clang::Stmt* child : s->children())
      if (find_path(child, path)) return true;
    path.pop_back();
    return false;
  }
  static const clang::Stmt* find_goto(const clang::Stmt* s) {
    if (s == nullptr) return nullptr;
    if (llvm::isa<clang::GotoStmt>(s) || llvm::isa<clang::IndirectGotoStmt>(s)) return s;
    for (const clang::Stmt* child : s->children())
      if (const clang::Stmt* found = find_goto(child)) return found;
    return nullptr;
  }
  bool on_path(const clang::Stmt* s) const { return s != nullptr && on_path_.count(s) != 0; }
  const Val* pinned(const clang::VarDecl* v) const {
    if (pins_ == nullptr) return nullptr;
    const auto p = pins_->find(v);
    return p == pins_->end() ? nullptr : &p->second;
  }
  /// Whether `s` reads a pinned variable (Clang would fold a const one to its written value).
  bool mentions_pinned(const clang::Stmt* s) const {
    if (s == nullptr || pins_ == nullptr || pins_->empty()) return false;
    if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(s))
      if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getDecl()); v != nullptr && pinned(v) != nullptr)
        return true;
    for (const clang::Stmt* child : s->children())
      if (mentions_pinned(child)) return true;
    return false;
  }

  void walk(const clang::Stmt* s);
  void exec(const clang::Stmt* s);
  void declare(const clang::VarDecl* v);
  void assign(const clang::Expr* e);
  void invalidate(const clang::Stmt* s, const std::string& how);

  std::string named(const clang::VarDecl* v, int component = -1) const {
    std::string name = v->getNameAsString();
    if (component >= 0) name += std::string(".") + "xyz"[component];
    return "'" + name + "' (" + f_.where(v->getLocation()) + ")";
  }
  /// A local's value as assigned: a leaf reason names the local.
  Val assigned(const clang::VarDecl* v, Val value, int component = -1) const {
    if (!value.known && value.leaf) value = Val::unknown(named(v, component) + " is set from " + value.reason);
    return value;
  }
  Val leaf(const clang::Expr* e) const { return Val::unknown(f_.quoted(e), true); }

  Val lookup(const clang::VarDecl* v);
  Dim lookup_dim(const clang::VarDecl* v);
  /// The frame of the one call site of this frame's function, where parameter `p`'s `argument`
  /// is evaluated; null (with `why`) where there is none to follow.
  std::unique_ptr<Frame> call_site(const clang::ParmVarDecl* p, std::string& why,
                                   const clang::Expr*& argument) const;
  Val convert(Val x, clang::QualType type) const;
  Val binary(const clang::BinaryOperator* b);
  Val arithmetic(clang::BinaryOperatorKind op, const Val& a, const Val& b, clang::QualType type,
                 const clang::Expr* at) const;

  /// (variable, component) written by `e`, component -1 for a whole variable; null when `e` is not
  /// a tracked local or a dim3 member of one.
  std::pair<const clang::VarDecl*, int> target_of(const clang::Expr* e) const;
  void set_unknown(const clang::VarDecl* v, int component, const std::string& tail);
  void escape(const clang::VarDecl* v, const std::string& tail) {
    if (v == nullptr || escaped_.count(v) != 0) return;
    escaped_[v] = named(v) + " " + tail;
  }

  const Finder& f_;
  clang::ASTContext& ctx_;
  const clang::FunctionDecl* function_;
  const clang::Stmt* target_;
  int depth_;
  std::set<const clang::Stmt*> on_path_;
  std::map<const clang::VarDecl*, Val> ints_;
  std::map<const clang::VarDecl*, Dim> dims_;
  std::map<const clang::VarDecl*, std::string> escaped_;
  const std::map<const clang::VarDecl*, Val>* pins_;
  std::string blocked_;  // not empty: nothing is computable, for this reason
  bool frozen_ = false;  // inside a switch: statements before the launch are not followed
};

// --- Following the function ---------------------------------------------------------------------

void Frame::walk(const clang::Stmt* s) {
  using namespace clang;
  if (s == nullptr || s == target_ || !blocked_.empty()) return;
  const std::string at = f_.where(s->getBeginLoc());
  if (const auto* c = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt* child : c->body()) {
      if (on_path(child)) return walk(child);
      if (!frozen_) exec(child);
    }
    return;
  }
  if (const auto* i = dyn_cast<IfStmt>(s)) {
    exec(i->getInit());
    if (i->getConditionVariableDeclStmt() != nullptr) exec(i->getConditionVariableDeclStmt());
    else invalidate(i->getCond(), "changes in the condition at " + at);
    if (on_path(i->getThen())) return walk(i->getThen());
    if (on_path(i->getElse())) return walk(i->getElse());
    return;
  }
  const std::string in_loop = "changes inside the loop at " + at;
  if (const auto* l = dyn_cast<ForStmt>(s)) {
    exec(l->getInit());
    invalidate(l->getCond(), in_loop);
    invalidate(l->getInc(), in_loop);
    invalidate(l->getBody(), in_loop);
    if (l->getConditionVariableDeclStmt() != nullptr) invalidate(l->getConditionVariableDeclStmt(), in_loop);
    return walk(on_path(l->getBody()) ? l->getBody() : nullptr);
  }
  if (const auto* l = dyn_cast<WhileStmt>(s)) {
    invalidate(l->getCond(), in_loop);
    invalidate(l->getBody(), in_loop);
    return walk(on_path(l->getBody()) ? l->getBody() : nullptr);
  }
  if (const auto* l = dyn_cast<DoStmt>(s)) {
    invalidate(l->getCond(), in_loop);
    invalidate(l->getBody(), in_loop);
    return walk(on_path(l->getBody()) ? l->getBody() : nullptr);
  }
  if (const auto* l = dyn_cast<CXXForRangeStmt>(s)) {
    exec(l->getInit());
    exec(l->getRangeStmt());
    invalidate(l->getBody(), in_loop);
    set_unknown(l->getLoopVariable(), -1, "is the variable of the loop at " + at + ", different in each iteration");
    return walk(on_path(l->getBody()) ? l->getBody() : nullptr);
  }
  if (const auto* w = dyn_cast<SwitchStmt>(s)) {
    exec(w->getInit());
    if (w->getConditionVariableDeclStmt() != nullptr) exec(w->getConditionVariableDeclStmt());
    invalidate(w->getBody(), "changes inside the switch at " + at);
    frozen_ = true;
    return walk(on_path(w->getBody()) ? w->getBody() : nullptr);
  }
  if (const auto* c = dyn_cast<SwitchCase>(s)) return walk(c->getSubStmt());
  if (const auto* l = dyn_cast<LabelStmt>(s)) return walk(l->getSubStmt());
  if (const auto* a = dyn_cast<AttributedStmt>(s)) return walk(a->getSubStmt());
  if (const auto* t = dyn_cast<CXXTryStmt>(s)) {
    if (on_path(t->getTryBlock())) return walk(t->getTryBlock());
  }
  if (isa<Expr>(s) && !isa<LambdaExpr>(s) && !isa<BlockExpr>(s)) return;  // the launch within an expression
  if (isa<DeclStmt>(s) || isa<ReturnStmt>(s)) return;
  blocked_ = "the launch is inside " + std::string(s->getStmtClassName()) + " at " + at +
             ", which is not followed";
}

void Frame::exec(const clang::Stmt* s) {
  using namespace clang;
  if (s == nullptr) return;
  if (const auto* c = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt* child : c->body()) exec(child);
    return;
  }
  if (const auto* d = dyn_cast<DeclStmt>(s)) {
    for (const Decl* decl : d->decls())
      if (const auto* v = dyn_cast<VarDecl>(decl)) declare(v);
    return;
  }
  if (const auto* e = dyn_cast<Expr>(s)) return assign(e);
  if (isa<NullStmt>(s)) return;
  const std::string at = f_.where(s->getBeginLoc());
  if (isa<IfStmt>(s)) return invalidate(s, "changes inside the if at " + at);
  if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s))
    return invalidate(s, "changes inside the loop at " + at);
  if (isa<SwitchStmt>(s)) return invalidate(s, "changes inside the switch at " + at);
  invalidate(s, "changes at " + at);
}

void Frame::declare(const clang::VarDecl* v) {
  const clang::Expr* init = v->getInit();
  const std::string at = f_.where(v->getLocation());
  if (v->getType()->isReferenceType()) {
    // int& r = n: writes through r are not followed, so n is not computable from here on.
    if (init != nullptr && !v->getType().getNonReferenceType().isConstQualified()) {
      const auto [bound, component] = target_of(init);
      (void)component;
      escape(bound, "is bound to the reference '" + v->getNameAsString() + "' at " + at);
    }
    if (init != nullptr) invalidate(init, "changes at " + at);
    return;
  }
  if (is_dim3(v->getType())) {
    Dim d;
    if (init != nullptr) d = eval_dim(init);
    for (int c = 0; c < 3; ++c) d.c[c] = assigned(v, d.c[c], c);
    if (init != nullptr) invalidate(init, "changes at " + at);
    dims_[v] = d;
    return;
  }
  if (!is_integer(v->getType())) {
    if (init != nullptr) invalidate(init, "changes at " + at);
    return;
  }
  Val value = init != nullptr ? assigned(v, eval(init))
                              : Val::unknown(named(v) + " has no initial value");
  invalidate(init, "changes inside the expression at " + at);
  if (const Val* pin = pinned(v)) value = *pin;
  ints_[v] = value;
}

void Frame::assign(const clang::Expr* e) {
  using namespace clang;
  e = e->IgnoreParens();
  if (const auto* cleanups = dyn_cast<ExprWithCleanups>(e)) e = cleanups->getSubExpr()->IgnoreParens();
  const std::string at = f_.where(e->getBeginLoc());
  if (const auto* b = dyn_cast<BinaryOperator>(e); b != nullptr && b->isAssignmentOp()) {
    const auto [v, component] = target_of(b->getLHS());
    if (v != nullptr) {
      Val value = eval(b->getRHS());
      invalidate(b->getRHS(), "changes inside the expression at " + at);
      if (const auto* compound = dyn_cast<CompoundAssignOperator>(b)) {
        const Val old = component >= 0 ? lookup_dim(v).c[component] : lookup(v);
        const Val lhs = convert(old, compound->getComputationLHSType());
        value = convert(arithmetic(BinaryOperator::getOpForCompoundAssignment(b->getOpcode()), lhs,
                                   value, compound->getComputationResultType(), e),
                        b->getLHS()->getType());
      }
      if (escaped_.count(v) != 0) return;
      if (component >= 0) {
        lookup_dim(v);
        dims_[v].c[component] = assigned(v, value, component);
      } else {
        ints_[v] = assigned(v, value);
      }
      return;
    }
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e); u != nullptr && u->isIncrementDecrementOp()) {
    const auto [v, component] = target_of(u->getSubExpr());
    if (v != nullptr && escaped_.count(v) == 0) {
      Val old = component >= 0 ? lookup_dim(v).c[component] : lookup(v);
      Val result = old;
      if (old.known) {
        APSInt one(old.v.getBitWidth(), old.v.isUnsigned());
        one = 1;
        result = arithmetic(u->isIncrementOp() ? BO_Add : BO_Sub, old, Val::of(one),
                            u->getSubExpr()->getType(), e);
      }
      if (component >= 0) {
        lookup_dim(v);
        dims_[v].c[component] = result;
      } else {
        ints_[v] = result;
      }
      return;
    }
  }
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e);
      op != nullptr && op->getOperator() == OO_Equal && op->getNumArgs() == 2) {
    const auto [v, component] = target_of(op->getArg(0));
    if (v != nullptr && component < 0 && is_dim3(v->getType())) {
      Dim d = eval_dim(op->getArg(1));
      invalidate(op->getArg(1), "changes inside the expression at " + at);
      if (escaped_.count(v) != 0) return;
      for (int c = 0; c < 3; ++c) d.c[c] = assigned(v, d.c[c], c);
      dims_[v] = d;
      return;
    }
  }
  invalidate(e, "changes inside the expression at " + at);
}

std::pair<const clang::VarDecl*, int> Frame::target_of(const clang::Expr* e) const {
  using namespace clang;
  e = e->IgnoreParenImpCasts();
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(d->getDecl());
    if (v != nullptr && (is_integer(v->getType()) || is_dim3(v->getType()))) return {v, -1};
    return {nullptr, -1};
  }
  if (const auto* m = dyn_cast<MemberExpr>(e)) {
    const auto* base = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
    const auto* v = base != nullptr ? dyn_cast<VarDecl>(base->getDecl()) : nullptr;
    if (v == nullptr || m->isArrow() || !is_dim3(v->getType())) return {nullptr, -1};
    const std::string member = m->getMemberDecl()->getNameAsString();
    if (member == "x") return {v, 0};
    if (member == "y") return {v, 1};
    if (member == "z") return {v, 2};
    return {v, -1};
  }
  return {nullptr, -1};
}

void Frame::set_unknown(const clang::VarDecl* v, int component, const std::string& tail) {
  if (v == nullptr) return;
  if (is_dim3(v->getType())) {
    lookup_dim(v);
    for (int c = 0; c < 3; ++c)
      if (component < 0 || component == c) dims_[v].c[c] = Val::unknown(named(v, c) + " " + tail);
  } else if (is_integer(v->getType())) {
    ints_[v] = Val::unknown(named(v) + " " + tail);
  }
}

void Frame::invalidate(const clang::Stmt* s, const std::string& how) {
  using namespace clang;
  if (s == nullptr) return;
  const std::string at = f_.where(s->getBeginLoc());
  if (const auto* b = dyn_cast<BinaryOperator>(s); b != nullptr && b->isAssignmentOp()) {
    const auto [v, component] = target_of(b->getLHS());
    set_unknown(v, component, how);
  } else if (const auto* u = dyn_cast<UnaryOperator>(s)) {
    if (u->isIncrementDecrementOp()) {
      const auto [v, component] = target_of(u->getSubExpr());
      set_unknown(v, component, how);
    } else if (u->getOpcode() == UO_AddrOf) {
      escape(target_of(u->getSubExpr()).first,
             "has its address taken at " + at + " (it may be set through a pointer)");
    }
  } else if (const auto* call = dyn_cast<CallExpr>(s)) {
    const FunctionDecl* callee = call->getDirectCallee();
    const std::string called = callee != nullptr ? f_.name(callee) : "a function";
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const bool by_reference =
          callee == nullptr || i >= callee->getNumParams() ||
          (callee->getParamDecl(i)->getType()->isReferenceType() &&
           !callee->getParamDecl(i)->getType().getNonReferenceType().isConstQualified());
      if (by_reference && call->getArg(i)->isGLValue())
        escape(target_of(call->getArg(i)).first, "is passed by reference to " + called + " at " + at);
    }
    if (const auto* op = dyn_cast<CXXOperatorCallExpr>(call);
        op != nullptr && op->isAssignmentOp() && op->getNumArgs() > 0) {
      const auto [v, component] = target_of(op->getArg(0));
      set_unknown(v, component, how);
    }
    if (const auto* member = dyn_cast<CXXMemberCallExpr>(call))
      if (const auto* object = member->getImplicitObjectArgument())
        escape(target_of(object).first, "has " + called + " called on it at " + at);
  } else if (const auto* lambda = dyn_cast<LambdaExpr>(s)) {
    for (const LambdaCapture& capture : lambda->captures())
      if (capture.capturesVariable() && capture.getCaptureKind() == LCK_ByRef)
        escape(dyn_cast<VarDecl>(capture.getCapturedVar()),
               "is captured by reference by the lambda at " + at);
  } else if (const auto* d = dyn_cast<DeclStmt>(s)) {
    for (const Decl* decl : d->decls())
      if (const auto* v = dyn_cast<VarDecl>(decl);
          v != nullptr && v->getType()->isReferenceType() && v->getInit() != nullptr &&
          !v->getType().getNonReferenceType().isConstQualified())
        escape(target_of(v->getInit()).first,
               "is bound to the reference '" + v->getNameAsString() + "' at " + at);
  }
  for (const Stmt* child : s->children()) invalidate(child, how);
}

// --- Values -------------------------------------------------------------------------------------

std::unique_ptr<Frame> Frame::call_site(const clang::ParmVarDecl* p, std::string& why,
                                        const clang::Expr*& argument) const {
  const std::string who = named(p) + " is a parameter of " + f_.name(function_);
  if (function_->isMain()) {
    why = who;
    return nullptr;
  }
  const auto found = f_.callers.find(function_->getCanonicalDecl());
  const std::size_t sites = found == f_.callers.end() ? 0 : found->second.size();
  if (sites != 1) {
    why = who + (sites == 0 ? ", which nothing in the file calls"
                            : ", which is called from " + std::to_string(sites) + " places in the file");
    return nullptr;
  }
  if (depth_ >= kMaxCallDepth) {
    why = who + ", called through more than " + std::to_string(kMaxCallDepth) + " functions";
    return nullptr;
  }
  const CallSite& site = found->second.front();
  const unsigned index = p->getFunctionScopeIndex();
  if (index >= site.call->getNumArgs()) {
    why = who + ", not given at " + f_.where(site.call->getBeginLoc());
    return nullptr;
  }
  argument = site.call->getArg(index);
  return std::make_unique<Frame>(f_, site.caller, site.call, depth_ + 1, pins_);
}

Val Frame::lookup(const clang::VarDecl* v) {
  if (const Val* pin = pinned(v)) return *pin;
  if (const auto e = escaped_.find(v); e != escaped_.end()) return Val::unknown(e->second);
  if (const auto i = ints_.find(v); i != ints_.end()) return i->second;
  Val value;
  if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(v)) {
    std::string why;
    const clang::Expr* argument = nullptr;
    const std::unique_ptr<Frame> caller = call_site(p, why, argument);
    value = caller ? assigned(v, convert(caller->eval(argument), v->getType())) : Val::unknown(why);
  } else if (!v->hasLocalStorage() || v->isStaticLocal()) {
    value = Val::unknown(named(v) + (v->getType().isConstQualified()
                                         ? " is not a constant"
                                         : " is a variable outside the function (not const), "
                                           "whose value at the launch is not followed"));
  } else {
    value = Val::unknown(named(v) + " is not followed here");
  }
  ints_[v] = value;
  return value;
}

Dim Frame::lookup_dim(const clang::VarDecl* v) {
  if (const auto e = escaped_.find(v); e != escaped_.end()) {
    Dim d;
    for (Val& c : d.c) c = Val::unknown(e->second);
    return d;
  }
  if (const auto i = dims_.find(v); i != dims_.end()) return i->second;
  Dim d;
  if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(v)) {
    std::string why;
    const clang::Expr* argument = nullptr;
    const std::unique_ptr<Frame> caller = call_site(p, why, argument);
    if (caller) d = caller->eval_dim(argument);
    for (int c = 0; c < 3; ++c) d.c[c] = caller ? assigned(v, d.c[c], c) : Val::unknown(why);
  } else {
    for (Val& c : d.c) c = Val::unknown(named(v) + " is not followed here (not a local of " + f_.name(function_) + ")");
  }
  dims_[v] = d;
  return d;
}

Val Frame::convert(Val x, clang::QualType type) const {
  if (!x.known) return x;
  type = type.getNonReferenceType().getCanonicalType();
  if (type->isBooleanType()) {
    APSInt b(1, true);
    b = x.v.isZero() ? 0 : 1;
    return Val::of(b);
  }
  if (!type->isIntegralOrEnumerationType()) return Val::unknown("a value of type " + type.getAsString());
  APSInt r = x.v.extOrTrunc(static_cast<uint32_t>(ctx_.getIntWidth(type)));
  r.setIsUnsigned(!type->isSignedIntegerOrEnumerationType());
  return Val::of(r);
}

Val Frame::arithmetic(clang::BinaryOperatorKind op, const Val& a, const Val& b, clang::QualType type,
                      const clang::Expr* at) const {
  using namespace clang;
  if (!a.known) return a;
  if (!b.known) return b;
  const Val x = convert(a, type), y = convert(b, type);
  if (!x.known) return x;
  const APSInt& l = x.v;
  const APSInt& r = y.v;
  const bool is_signed = l.isSigned();
  bool overflow = false;
  APSInt result = l;
  const auto fail = [&](const std::string& what) {
    return Val::unknown(f_.quoted(at) + " " + what + " (at " + f_.where(at->getBeginLoc()) + ")");
  };
  switch (op) {
    case BO_Add: result = APSInt(is_signed ? l.sadd_ov(r, overflow) : l + r, !is_signed); break;
    case BO_Sub: result = APSInt(is_signed ? l.ssub_ov(r, overflow) : l - r, !is_signed); break;
    case BO_Mul: result = APSInt(is_signed ? l.smul_ov(r, overflow) : l * r, !is_signed); break;
    case BO_Div:
    case BO_Rem:
      if (r.isZero()) return fail("divides by zero");
      if (op == BO_Div)
        result = APSInt(is_signed ? l.sdiv_ov(r, overflow) : l.udiv(r), !is_signed);
      else if (is_signed && l.isMinSignedValue() && r.isAllOnes())
        overflow = true;
      else
        result = APSInt(is_signed ? l.srem(r) : l.urem(r), !is_signed);
      break;
    case BO_And: result = APSInt(l & r, !is_signed); break;
    case BO_Or: result = APSInt(l | r, !is_signed); break;
    case BO_Xor: result = APSInt(l ^ r, !is_signed); break;
    default: return fail("is not an integer operation the evaluator computes");
  }
  if (overflow) return fail("overflows its type, " + type.getAsString());
  return Val::of(result);
}

Val Frame::binary(const clang::BinaryOperator* b) {
  using namespace clang;
  const BinaryOperatorKind op = b->getOpcode();
  const QualType type = b->getType();
  if (op == BO_LAnd || op == BO_LOr) {
    const Val l = eval(b->getLHS());
    if (!l.known) return l;
    if (l.v.isZero() == (op == BO_LAnd)) return convert(Val::of(APSInt(llvm::APInt(32, op == BO_LOr ? 1 : 0), false)), type);
    const Val r = eval(b->getRHS());
    if (!r.known) return r;
    return convert(Val::of(APSInt(llvm::APInt(32, r.v.isZero() ? 0 : 1), false)), type);
  }
  if (op == BO_Comma || b->isAssignmentOp()) return leaf(b);
  const Val l = eval(b->getLHS());
  if (!l.known) return l;
  const Val r = eval(b->getRHS());
  if (!r.known) return r;
  if (b->isComparisonOp()) {
    // Both operands carry their common type already (Clang's implicit conversions).
    const Val rc = convert(r, b->getLHS()->getType());
    if (!rc.known) return rc;
    const APSInt& x = l.v;
    const APSInt& y = rc.v;
    bool truth = false;
    switch (op) {
      case BO_LT: truth = x < y; break;
      case BO_GT: truth = x > y; break;
      case BO_LE: truth = x <= y; break;
      case BO_GE: truth = x >= y; break;
      case BO_EQ: truth = x == y; break;
      case BO_NE: truth = x != y; break;
      default: return leaf(b);
    }
    return convert(Val::of(APSInt(llvm::APInt(32, truth ? 1 : 0), false)), type);
  }
  if (op == BO_Shl || op == BO_Shr) {
    // The result has the promoted left operand's type; the count is its own.
    const unsigned width = l.v.getBitWidth();
    if (r.v.isNegative() || r.v.getZExtValue() >= width)
      return Val::unknown(f_.quoted(b) + " shifts by " + decimal(r.v) + ", outside 0 .. " +
                          std::to_string(width - 1) + " (at " + f_.where(b->getBeginLoc()) + ")");
    const unsigned count = static_cast<unsigned>(r.v.getZExtValue());
    if (op == BO_Shr) return Val::of(APSInt(l.v.isSigned() ? l.v.ashr(count) : l.v.lshr(count), l.v.isUnsigned()));
    if (l.v.isSigned()) {
      bool overflow = l.v.isNegative();
      const llvm::APInt shifted = l.v.sshl_ov(llvm::APInt(width, count), overflow);
      if (overflow || l.v.isNegative())
        return Val::unknown(f_.quoted(b) + " overflows its type, " + type.getAsString() + " (at " +
                            f_.where(b->getBeginLoc()) + ")");
      return Val::of(APSInt(shifted, false));
    }
    return Val::of(APSInt(l.v.shl(count), true));
  }
  return arithmetic(op, l, r, type, b);
}

Val Frame::eval(const clang::Expr* e) {
  using namespace clang;
  if (!blocked_.empty()) return Val::unknown(blocked_);
  if (e == nullptr) return Val::unknown("no expression");
  const QualType type = e->getType();
  if (!e->isValueDependent() && !e->isTypeDependent() && type->isIntegralOrEnumerationType() &&
      !mentions_pinned(e)) {
    Expr::EvalResult folded;
    if (e->EvaluateAsInt(folded, ctx_) && folded.Val.isInt()) return Val::of(folded.Val.getInt());
  }
  e = e->IgnoreParens();
  if (const auto* cleanups = dyn_cast<ExprWithCleanups>(e)) return eval(cleanups->getSubExpr());
  if (const auto* d = dyn_cast<CXXDefaultArgExpr>(e)) return eval(d->getExpr());
  if (const auto* c = dyn_cast<CastExpr>(e)) {
    switch (c->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp:
      case CK_IntegralCast:
      case CK_IntegralToBoolean:
        return convert(eval(c->getSubExpr()), type);
      default:
        return leaf(e);
    }
  }
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
    if (const auto* v = dyn_cast<VarDecl>(d->getDecl()); v != nullptr && is_integer(v->getType()))
      return lookup(v);
    return leaf(e);
  }
  if (const auto* m = dyn_cast<MemberExpr>(e)) {
    const auto [v, component] = target_of(m);
    if (v != nullptr && component >= 0) return lookup_dim(v).c[component];
    return leaf(e);
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    const UnaryOperatorKind op = u->getOpcode();
    if (op != UO_Plus && op != UO_Minus && op != UO_Not && op != UO_LNot) return leaf(e);
    const Val x = eval(u->getSubExpr());
    if (!x.known) return x;
    switch (u->getOpcode()) {
      case UO_Plus: return convert(x, type);
      case UO_Minus: {
        const Val zero = Val::of(APSInt(llvm::APInt(x.v.getBitWidth(), 0), x.v.isUnsigned()));
        return arithmetic(BO_Sub, zero, x, type, e);
      }
      case UO_Not: return convert(Val::of(APSInt(~x.v, x.v.isUnsigned())), type);
      case UO_LNot: return convert(Val::of(APSInt(llvm::APInt(32, x.v.isZero() ? 1 : 0), false)), type);
      default: return leaf(e);
    }
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e)) return binary(b);
  if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
    const Val condition = eval(c->getCond());
    if (!condition.known) return condition;
    return convert(eval(condition.v.isZero() ? c->getFalseExpr() : c->getTrueExpr()), type);
  }
  return leaf(e);
}

Dim Frame::eval_dim(const clang::Expr* e) {
  using namespace clang;
  Dim d;
  if (!blocked_.empty()) {
    for (Val& c : d.c) c = Val::unknown(blocked_);
    return d;
  }
  while (true) {
    e = e->IgnoreParens();
    if (const auto* x = dyn_cast<ExprWithCleanups>(e)) e = x->getSubExpr();
    else if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto* t = dyn_cast<CXXBindTemporaryExpr>(e)) e = t->getSubExpr();
    else if (const auto* f = dyn_cast<CXXFunctionalCastExpr>(e)) e = f->getSubExpr();
    else if (const auto* i = dyn_cast<ImplicitCastExpr>(e); i != nullptr && is_dim3(i->getSubExpr()->getType()))
      e = i->getSubExpr();
    else break;
  }
  if (is_integer(e->getType())) {
    d.c[0] = convert(eval(e), ctx_.UnsignedIntTy);
    for (int c = 1; c < 3; ++c) d.c[c] = Val::of(APSInt(llvm::APInt(32, 1), true));
    return d;
  }
  if (const auto* construct = dyn_cast<CXXConstructExpr>(e)) {
    const CXXConstructorDecl* constructor = construct->getConstructor();
    if (constructor->isCopyOrMoveConstructor() && construct->getNumArgs() >= 1)
      return eval_dim(construct->getArg(0));
    if (construct->getNumArgs() == 3 && is_integer(constructor->getParamDecl(0)->getType())) {
      for (unsigned c = 0; c < 3; ++c) d.c[c] = convert(eval(construct->getArg(c)), ctx_.UnsignedIntTy);
      return d;
    }
    if (construct->getNumArgs() == 1 && is_integer(construct->getArg(0)->getType()))
      return eval_dim(construct->getArg(0));
  }
  if (const auto* ref = dyn_cast<DeclRefExpr>(e))
    if (const auto* v = dyn_cast<VarDecl>(ref->getDecl()); v != nullptr && is_dim3(v->getType()))
      return lookup_dim(v);
  for (Val& c : d.c) c = leaf(e);
  return d;
}

// --- The launches -------------------------------------------------------------------------------

HostValue host_value(const Finder& f, const Val& value, const clang::Expr* at) {
  HostValue h;
  h.where = f.where(at->getBeginLoc());
  h.known = value.known;
  if (value.known) {
    h.value = decimal(value.v);
  } else {
    h.reason = value.leaf ? "it is computed from " + value.reason : value.reason;
  }
  return h;
}

/// Collects every host function's calls (kernel launches among them).
class Collector : public clang::RecursiveASTVisitor<Collector> {
 public:
  Collector(Finder& finder, const clang::FunctionDecl& kernel)
      : finder_(finder), kernel_(kernel.getCanonicalDecl()) {}

  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (!function->doesThisDeclarationHaveABody() || function->isDependentContext()) return true;
    if (function->hasAttr<clang::CUDAGlobalAttr>()) return true;
    if (function->hasAttr<clang::CUDADeviceAttr>() && !function->hasAttr<clang::CUDAHostAttr>()) return true;
    const auto& sources = finder_.context.getSourceManager();
    if (sources.isInSystemHeader(sources.getExpansionLoc(function->getLocation()))) return true;
    collect(function, function->getBody());
    return true;
  }

  std::vector<std::pair<const clang::CUDAKernelCallExpr*, const clang::FunctionDecl*>> launches;

 private:
  void collect(const clang::FunctionDecl* function, const clang::Stmt* s) {
    if (s == nullptr) return;
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s)) {
      if (const clang::FunctionDecl* callee = call->getDirectCallee()) {
        if (llvm::isa<clang::CUDAKernelCallExpr>(call) && callee->getCanonicalDecl() == kernel_)
          launches.emplace_back(llvm::cast<clang::CUDAKernelCallExpr>(call), function);
        finder_.callers[callee->getCanonicalDecl()].push_back(CallSite{call, function});
      }
    }
    for (const clang::Stmt* child : s->children()) collect(function, child);
  }

  Finder& finder_;
  const clang::FunctionDecl* kernel_;
};

std::string float_text(const llvm::APFloat& value) {
  llvm::APFloat wide = value;
  bool lost = false;
  wide.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", wide.convertToDouble());
  return text;
}

/// Where `v` is written in `body` other than by its declaration: a use that is not a read of its
/// value (an assignment, ++ or --, its address taken, a reference bound to it), or "" when every
/// use reads it.
std::string written_in(const Finder& f, const clang::Stmt* body, const clang::VarDecl* v) {
  if (body == nullptr) return "";
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(body); d != nullptr && d->getDecl() == v) {
    const clang::Stmt* at = d;
    while (true) {
      const auto parents = f.context.getParents(*at);
      if (parents.empty()) return f.where(d->getBeginLoc());
      const clang::Stmt* parent = parents[0].get<clang::Stmt>();
      if (parent == nullptr) return f.where(d->getBeginLoc());
      if (llvm::isa<clang::ParenExpr>(parent)) {
        at = parent;
        continue;
      }
      if (const auto* c = llvm::dyn_cast<clang::ImplicitCastExpr>(parent);
          c != nullptr && c->getCastKind() == clang::CK_LValueToRValue)
        return "";
      if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(parent)) return "";  // sizeof: not evaluated
      return f.where(parent->getBeginLoc());
    }
  }
  for (const clang::Stmt* child : body->children())
    if (std::string w = written_in(f, child, v); !w.empty()) return w;
  return "";
}

/// The host variables a launch passes for the kernel parameters given values, each holding its
/// value throughout (`pins`), and the text of each (`followed`, `unfollowed`: HostLaunch's).
std::map<const clang::VarDecl*, Val> pins_of(const Finder& f, const clang::FunctionDecl& kernel,
                                             const clang::CallExpr* call, const clang::FunctionDecl* function,
                                             const std::map<std::string, std::string>& given, HostLaunch& launch) {
  std::map<const clang::VarDecl*, Val> pins;
  std::set<const clang::VarDecl*> conflicting;
  std::vector<std::pair<const clang::VarDecl*, std::string>> order;  // as the parameters come
  for (unsigned i = 0; i < kernel.getNumParams() && i < call->getNumArgs(); ++i) {
    const std::string name = kernel.getParamDecl(i)->getNameAsString();
    const auto g = given.find(name);
    if (g == given.end() || !is_integer(kernel.getParamDecl(i)->getType())) continue;
    // A decimal integer within 128 bits (the CLI passes only those; anything else is not taken).
    const std::string& text = g->second;
    const std::size_t digits = text.size() - (text.rfind('-', 0) == 0 ? 1 : 0);
    if (digits == 0 || digits > 38 || text.find_first_not_of("0123456789", text.size() - digits) != std::string::npos)
      continue;
    const clang::Expr* argument = call->getArg(i)->IgnoreParenImpCasts();
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(argument);
    const auto* v = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (v == nullptr || !is_integer(v->getType()) || v->getType()->isReferenceType()) {
      launch.unfollowed.push_back(name + ": the launch passes " + f.quoted(argument) + " (" +
                                  f.where(argument->getBeginLoc()) + "), not a variable of its own");
      continue;
    }
    const std::string var = "'" + v->getNameAsString() + "' (" + f.where(v->getLocation()) + ")";
    const bool own = v->getDeclContext() == function && (v->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(v)) &&
                     !v->isStaticLocal();
    if (!own && !v->getType().isConstQualified()) {
      launch.unfollowed.push_back(name + ": " + var + " is a variable outside " + f.name(function) +
                                  ", which the host code may change");
      continue;
    }
    if (own && !v->getType().isConstQualified()) {
      if (const std::string w = written_in(f, function->getBody(), v); !w.empty()) {
        launch.unfollowed.push_back(name + ": " + var + " is written at " + w + " as well");
        continue;
      }
    }
    // The value in the variable's own type (it may differ from the parameter's).
    const clang::QualType type = v->getType().getCanonicalType();
    const unsigned bits = static_cast<unsigned>(f.context.getTypeSize(type));
    const bool is_unsigned = type->isUnsignedIntegerOrEnumerationType();
    const llvm::APInt wide(128, g->second, 10);
    if (!(is_unsigned ? !wide.isNegative() && wide.isIntN(bits) : wide.isSignedIntN(bits))) {
      launch.unfollowed.push_back(name + ": " + g->second + " does not fit " + var + " (" +
                                  type.getAsString() + ")");
      continue;
    }
    const Val value = Val::of(APSInt(wide.trunc(bits), is_unsigned));
    if (const auto p = pins.find(v); p != pins.end()) {
      if (p->second.v != value.v) conflicting.insert(v);
      continue;
    }
    pins[v] = value;
    order.emplace_back(v, var + " = " + g->second);
  }
  for (const auto& [v, text] : order) {
    if (conflicting.count(v) == 0) {
      launch.followed.push_back(text);
      continue;
    }
    pins.erase(v);
    launch.unfollowed.push_back("'" + v->getNameAsString() + "' (" + f.where(v->getLocation()) +
                                ") is passed for several parameters given different values");
  }
  return pins;
}

}  // namespace

std::vector<HostLaunch> find_host_launches(const clang::FunctionDecl& kernel, clang::ASTContext& context,
                                           const std::map<std::string, std::string>& host_arguments) {
  Finder finder(context);
  Collector collector(finder, kernel);
  collector.TraverseDecl(context.getTranslationUnitDecl());
  std::vector<HostLaunch> launches;
  for (const auto& [call, function] : collector.launches) {
    HostLaunch launch;
    const std::map<const clang::VarDecl*, Val> pins =
        host_arguments.empty() ? std::map<const clang::VarDecl*, Val>{}
                               : pins_of(finder, kernel, call, function, host_arguments, launch);
    Frame frame(finder, function, call, 0, &pins);
    launch.location = finder.where(call->getBeginLoc());
    launch.function = function->getQualifiedNameAsString();
    const clang::CallExpr* config = call->getConfig();
    if (config != nullptr && config->getNumArgs() >= 2) {
      const Dim grid = frame.eval_dim(config->getArg(0));
      const Dim block = frame.eval_dim(config->getArg(1));
      for (int c = 0; c < 3; ++c) {
        launch.grid[c] = host_value(finder, grid.c[c], config->getArg(0));
        launch.block[c] = host_value(finder, block.c[c], config->getArg(1));
      }
      if (config->getNumArgs() >= 3 && !llvm::isa<clang::CXXDefaultArgExpr>(config->getArg(2)))
        launch.dynamic_shared = host_value(finder, frame.eval(config->getArg(2)), config->getArg(2));
      else
        launch.dynamic_shared = HostValue{true, "0", launch.location, ""};
    }
    for (unsigned i = 0; i < kernel.getNumParams(); ++i) {
      HostValue value;
      const clang::QualType type = kernel.getParamDecl(i)->getType();
      const clang::Expr* argument = i < call->getNumArgs() ? call->getArg(i) : nullptr;
      if (argument != nullptr) value.where = finder.where(argument->getBeginLoc());
      if (argument != nullptr && is_integer(type)) {
        value = host_value(finder, frame.eval(argument), argument);
      } else if (argument != nullptr && type->isRealFloatingType()) {
        llvm::APFloat folded(0.0);
        if (!argument->isValueDependent() && argument->EvaluateAsFloat(folded, context) &&
            folded.isFinite()) {
          value.known = true;
          value.value = float_text(folded);
        } else {
          value.reason = "it is computed from " + finder.quoted(argument) + ", not a finite constant";
        }
      }
      launch.arguments.push_back(value);
    }
    launches.push_back(std::move(launch));
  }
  return launches;
}

}  // namespace warpdiv::frontend::detail
