// The launches of a kernel in the file's host code (host_launch.hpp), and a small evaluator of
// integer expressions over them.
//
// What is computed, strictly (never a guess): constants (literals, const/constexpr variables,
// enumerators, macros, sizeof: whatever Clang's Expr::EvaluateAsInt folds) and the integer and
// dim3 locals of the host function holding the launch, followed statement by statement in
// straight-line code from the function's start to the launch: declarations with their
// initialisers, assignments (=, +=, ..., ++, --) and dim3 members (`g.x = ...`). C's arithmetic
// on the expressions' own types: conversions as Clang made them explicit, unsigned wrap-around;
// signed overflow, division by zero and shifts past the width are not computable; std::min,
// std::max and CUDA's min, max of two integers of one type. Refused (HostValue::refused), not
// taken wrapped: a value computed from an expression holding one of Clang's errors, and one that
// does not fit the type a launch's size (dim3's unsigned int), argument (the parameter's type) or
// dynamic shared memory (size_t) converts it to. A local written
// anywhere else before the launch (inside an if, a loop or a switch that does not hold the
// launch, inside a larger expression), set from a call, from memory or from anything else the
// evaluator does not compute, whose address is taken, that is bound to a reference or passed by
// reference, or that changes inside a loop holding the launch (its variable, say) is not
// computable from then on, with the reason. A parameter of a helper function is computed at its
// one call site in the file (main's are not computable; a helper called from several places
// neither). Float and double kernel arguments are taken when Clang folds them to finite constants.
// --grid and --block given pin the variable the launch passes for that size (pin_size).
//
// One walk per host function (and set of pins) follows all its launches, so that reading N
// launches costs O(N) statements, not O(N^2): a statement before a launch is executed once; one
// holding launches is walked into on a copy of the values, then executed for what follows it.
#include "kernels/frontend/host_launch.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/ADT/APSInt.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernels/frontend/clang_parse.hpp"
#include "kernels/frontend/prelude_text.hpp"

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
  bool refused = false;  // the source's value is not to be taken (HostValue::refused): `reason`
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
  static Val refusal(std::string why) {
    Val r = unknown(std::move(why));
    r.refused = true;
    return r;
  }
};

struct Dim {
  Val c[3];
};

/// Variables that hold one value throughout the host function (a value given on the command line
/// for what the launch passes), or that are not computable throughout (Val::unknown: the launch's
/// size that the command line replaces is computed from them).
struct Pins {
  std::map<const clang::VarDecl*, Val> ints;
  std::map<const clang::VarDecl*, Dim> dims;
  bool empty() const { return ints.empty() && dims.empty(); }
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
  Finder(clang::ASTContext& ast, const std::vector<ClangError>& clang_errors) : context(ast), errors(clang_errors) {}
  clang::ASTContext& context;
  const std::vector<ClangError>& errors;
  std::map<const clang::FunctionDecl*, std::vector<CallSite>> callers;  // by canonical declaration
  /// written_in of a variable in its own function, once per variable (many launches pass it).
  mutable std::map<const clang::VarDecl*, std::string> written;

  std::string where(clang::SourceLocation loc) const {
    return location_of(context.getSourceManager(), loc);
  }
  std::string quoted(const clang::Stmt* s) const {
    std::string text = source_text(context, s);
    if (text.size() > kMaxQuoted) text = text.substr(0, kMaxQuoted) + "...";
    return text;
  }
  std::string name(const clang::FunctionDecl* f) const { return f->getQualifiedNameAsString() + "()"; }

  /// The first of Clang's errors inside `s` (its expansion in the file: an error in a macro's
  /// body counts where the macro is used), null when none.
  const ClangError* error_in(const clang::Stmt* s) const {
    if (errors.empty() || s == nullptr) return nullptr;
    const clang::SourceManager& sources = context.getSourceManager();
    const clang::CharSourceRange range = sources.getExpansionRange(s->getSourceRange());
    const auto [file, begin] = sources.getDecomposedLoc(range.getBegin());
    const auto [end_file, end] = sources.getDecomposedLoc(range.getEnd());
    if (file.isInvalid() || end_file != file) return nullptr;
    // The range ends where its last token begins: the whole token is in it.
    const unsigned last = range.isTokenRange()
                              ? clang::Lexer::MeasureTokenLength(range.getEnd(), sources, context.getLangOpts())
                              : 0;
    for (const ClangError& error : errors) {
      const auto [error_file, offset] = sources.getDecomposedLoc(sources.getExpansionLoc(error.location));
      if (error_file == file && offset >= begin && offset <= end + last) return &error;
    }
    return nullptr;
  }
};

class Frame;
/// What is computed at a statement the walk reaches, with the frame's values there.
using AtTarget = std::function<void(Frame&, const clang::Stmt*)>;

/// The host function `function` followed from its start to the statements of its body asked for
/// (follow), in one walk: statements before a target are executed once, whatever the number of
/// targets, and a statement holding targets is walked into on a copy of the values, then executed
/// for the statements after it.
class Frame {
 public:
  /// `pins`: variables that hold a given value throughout (FrontendOptions::host_arguments).
  Frame(const Finder& finder, const clang::FunctionDecl* function, int depth,
        const Pins* pins = nullptr)
      : f_(finder), ctx_(finder.context), function_(function), depth_(depth), pins_(pins) {}

  /// Calls `at_target` at each of `targets` (statements of the function's body) in source order,
  /// with the values there.
  void follow(const std::vector<const clang::Stmt*>& targets, const AtTarget& at_target) {
    targets_ = std::set<const clang::Stmt*>(targets.begin(), targets.end());
    at_target_ = &at_target;
    holds_.clear();
    mark(function_->getBody());
    if (const clang::Stmt* jump = find_goto(function_->getBody()))
      state_.blocked = f_.name(function_) + " uses goto (" + f_.where(jump->getBeginLoc()) +
                       "), so the order of its statements is not followed";
    if (holds(function_->getBody())) walk(function_->getBody());
  }

  Val eval(const clang::Expr* e);
  Dim eval_dim(const clang::Expr* e);
  /// `e` (with the conversions Clang made implicit) converted to `type`: refused where the value
  /// of what is converted does not fit `type` (C++ would wrap it around).
  Val fitted(const clang::Expr* e, clang::QualType type);

 private:
  /// Marks `s` and what holds a target in it (holds_); whether `s` holds one.
  bool mark(const clang::Stmt* s) {
    if (s == nullptr) return false;
    bool held = targets_.count(s) != 0;
    for (const clang::Stmt* child : s->children()) held = mark(child) || held;
    if (held) holds_.insert(s);
    return held;
  }
  static const clang::Stmt* find_goto(const clang::Stmt* s) {
    if (s == nullptr) return nullptr;
    if (llvm::isa<clang::GotoStmt>(s) || llvm::isa<clang::IndirectGotoStmt>(s)) return s;
    for (const clang::Stmt* child : s->children())
      if (const clang::Stmt* found = find_goto(child)) return found;
    return nullptr;
  }
  bool holds(const clang::Stmt* s) const { return s != nullptr && holds_.count(s) != 0; }
  const Val* pinned(const clang::VarDecl* v) const {
    if (pins_ == nullptr) return nullptr;
    const auto p = pins_->ints.find(v);
    return p == pins_->ints.end() ? nullptr : &p->second;
  }
  const Dim* pinned_dim(const clang::VarDecl* v) const {
    if (pins_ == nullptr) return nullptr;
    const auto p = pins_->dims.find(v);
    return p == pins_->dims.end() ? nullptr : &p->second;
  }
  /// Whether `s` reads a pinned variable (Clang would fold a const one to its written value).
  bool mentions_pinned(const clang::Stmt* s) const {
    if (s == nullptr || pins_ == nullptr || pins_->empty()) return false;
    if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(s))
      if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getDecl());
          v != nullptr && (pinned(v) != nullptr || pinned_dim(v) != nullptr))
        return true;
    for (const clang::Stmt* child : s->children())
      if (mentions_pinned(child)) return true;
    return false;
  }

  void walk(const clang::Stmt* s);
  void branch(const clang::Stmt* s);
  void evaluate_in(const clang::Stmt* s, const clang::Stmt* lambda = nullptr);
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
                                   const clang::Expr*& argument, const clang::Stmt*& call) const;
  Val convert(Val x, clang::QualType type) const;
  Val rejected(const ClangError& error) const {
    return Val::refusal("Clang rejects it: " + f_.where(error.location) + ": error: " + error.message);
  }
  /// std::min / std::max and CUDA's min / max (declared in a system header or the prelude) of two
  /// integers.
  bool is_min_max(const clang::CallExpr* call) const;
  /// As C++ computes it, for two arguments written in one integer type; not computable otherwise.
  Val min_max(const clang::CallExpr* call);
  Val binary(const clang::BinaryOperator* b);
  Val arithmetic(clang::BinaryOperatorKind op, const Val& a, const Val& b, clang::QualType type,
                 const clang::Expr* at) const;

  /// (variable, component) written by `e`, component -1 for a whole variable; null when `e` is not
  /// a tracked local or a dim3 member of one.
  std::pair<const clang::VarDecl*, int> target_of(const clang::Expr* e) const;
  void set_unknown(const clang::VarDecl* v, int component, const std::string& tail);
  void escape(const clang::VarDecl* v, const std::string& tail) {
    if (v == nullptr || state_.escaped.count(v) != 0) return;
    state_.escaped[v] = named(v) + " " + tail;
  }

  const Finder& f_;
  clang::ASTContext& ctx_;
  const clang::FunctionDecl* function_;
  int depth_;
  const Pins* pins_;
  std::set<const clang::Stmt*> targets_;
  std::set<const clang::Stmt*> holds_;  // the targets and the statements holding them
  const AtTarget* at_target_ = nullptr;
  /// The values where the walk is (copied where it walks into a statement holding a target).
  struct State {
    std::map<const clang::VarDecl*, Val> ints;
    std::map<const clang::VarDecl*, Dim> dims;
    std::map<const clang::VarDecl*, std::string> escaped;
    std::string blocked;  // not empty: nothing is computable, for this reason
    bool frozen = false;  // inside a switch: statements before the launch are not followed
  } state_;
};

// --- Following the function ---------------------------------------------------------------------

void Frame::walk(const clang::Stmt* s) {
  using namespace clang;
  if (!state_.blocked.empty() || isa<Expr>(s) || isa<DeclStmt>(s) || isa<ReturnStmt>(s)) return evaluate_in(s);
  if (const auto* c = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt* child : c->body()) {
      if (holds(child)) branch(child);
      if (!state_.frozen) exec(child);
    }
    return;
  }
  const std::string at = f_.where(s->getBeginLoc());
  const std::string in_loop = "changes inside the loop at " + at;
  std::vector<const Stmt*> walked;  // the children walked into; targets elsewhere in `s` come last
  if (const auto* i = dyn_cast<IfStmt>(s)) {
    exec(i->getInit());
    if (i->getConditionVariableDeclStmt() != nullptr) exec(i->getConditionVariableDeclStmt());
    else invalidate(i->getCond(), "changes in the condition at " + at);
    walked = {i->getThen(), i->getElse()};
  } else if (const auto* l = dyn_cast<ForStmt>(s)) {
    exec(l->getInit());
    invalidate(l->getCond(), in_loop);
    invalidate(l->getInc(), in_loop);
    invalidate(l->getBody(), in_loop);
    if (l->getConditionVariableDeclStmt() != nullptr) invalidate(l->getConditionVariableDeclStmt(), in_loop);
    walked = {l->getBody()};
  } else if (const auto* w = dyn_cast<WhileStmt>(s)) {
    invalidate(w->getCond(), in_loop);
    invalidate(w->getBody(), in_loop);
    walked = {w->getBody()};
  } else if (const auto* d = dyn_cast<DoStmt>(s)) {
    invalidate(d->getCond(), in_loop);
    invalidate(d->getBody(), in_loop);
    walked = {d->getBody()};
  } else if (const auto* r = dyn_cast<CXXForRangeStmt>(s)) {
    exec(r->getInit());
    exec(r->getRangeStmt());
    invalidate(r->getBody(), in_loop);
    set_unknown(r->getLoopVariable(), -1, "is the variable of the loop at " + at + ", different in each iteration");
    walked = {r->getBody()};
  } else if (const auto* sw = dyn_cast<SwitchStmt>(s)) {
    exec(sw->getInit());
    if (sw->getConditionVariableDeclStmt() != nullptr) exec(sw->getConditionVariableDeclStmt());
    invalidate(sw->getBody(), "changes inside the switch at " + at);
    state_.frozen = true;
    walked = {sw->getBody()};
  } else if (const auto* c = dyn_cast<SwitchCase>(s)) {
    walked = {c->getSubStmt()};
  } else if (const auto* label = dyn_cast<LabelStmt>(s)) {
    walked = {label->getSubStmt()};
  } else if (const auto* a = dyn_cast<AttributedStmt>(s)) {
    walked = {a->getSubStmt()};
  } else if (const auto* t = dyn_cast<CXXTryStmt>(s)) {
    walked = {t->getTryBlock()};
  }
  for (const Stmt* child : walked)
    if (holds(child)) branch(child);
  // The rest (a condition, an initialiser, a handler, a statement not followed): at the values here.
  const bool followed = !walked.empty() && !isa<CXXTryStmt>(s);
  for (const Stmt* child : s->children()) {
    if (!holds(child) || std::find(walked.begin(), walked.end(), child) != walked.end()) continue;
    if (!followed && state_.blocked.empty())
      state_.blocked = "the launch is inside " + std::string(s->getStmtClassName()) + " at " + at +
                       ", which is not followed";
    evaluate_in(child);
  }
}

void Frame::branch(const clang::Stmt* s) {
  using namespace clang;
  if (isa<Expr>(s) || isa<DeclStmt>(s) || isa<ReturnStmt>(s)) return evaluate_in(s);
  State outside = state_;
  walk(s);
  state_ = std::move(outside);
}

void Frame::evaluate_in(const clang::Stmt* s, const clang::Stmt* lambda) {
  if (!holds(s)) return;
  if (lambda == nullptr && (llvm::isa<clang::LambdaExpr>(s) || llvm::isa<clang::BlockExpr>(s))) lambda = s;
  if (targets_.count(s) != 0) {
    if (lambda != nullptr) {
      const std::string outside = state_.blocked;
      state_.blocked = "the launch is inside the lambda at " + f_.where(lambda->getBeginLoc()) +
                       ", whose calls are not followed";
      (*at_target_)(*this, s);
      state_.blocked = outside;
    } else {
      (*at_target_)(*this, s);
    }
  }
  for (const clang::Stmt* child : s->children()) evaluate_in(child, lambda);
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
    if (const Dim* pin = pinned_dim(v)) d = *pin;
    state_.dims[v] = d;
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
  state_.ints[v] = value;
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
      if (state_.escaped.count(v) != 0) return;
      if (component >= 0) {
        lookup_dim(v);
        state_.dims[v].c[component] = assigned(v, value, component);
      } else {
        state_.ints[v] = assigned(v, value);
      }
      return;
    }
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e); u != nullptr && u->isIncrementDecrementOp()) {
    const auto [v, component] = target_of(u->getSubExpr());
    if (v != nullptr && state_.escaped.count(v) == 0) {
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
        state_.dims[v].c[component] = result;
      } else {
        state_.ints[v] = result;
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
      if (state_.escaped.count(v) != 0) return;
      for (int c = 0; c < 3; ++c) d.c[c] = assigned(v, d.c[c], c);
      state_.dims[v] = d;
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
      if (component < 0 || component == c) state_.dims[v].c[c] = Val::unknown(named(v, c) + " " + tail);
  } else if (is_integer(v->getType())) {
    state_.ints[v] = Val::unknown(named(v) + " " + tail);
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
                                        const clang::Expr*& argument, const clang::Stmt*& call) const {
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
  call = site.call;
  return std::make_unique<Frame>(f_, site.caller, depth_ + 1, pins_);
}

Val Frame::lookup(const clang::VarDecl* v) {
  if (const Val* pin = pinned(v)) return *pin;
  if (const auto e = state_.escaped.find(v); e != state_.escaped.end()) return Val::unknown(e->second);
  if (const auto i = state_.ints.find(v); i != state_.ints.end()) return i->second;
  Val value;
  if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(v)) {
    std::string why;
    const clang::Expr* argument = nullptr;
    const clang::Stmt* call = nullptr;
    const std::unique_ptr<Frame> caller = call_site(p, why, argument, call);
    value = Val::unknown(why);
    if (caller)
      caller->follow({call}, [&](Frame& there, const clang::Stmt*) {
        value = assigned(v, there.fitted(argument, v->getType()));
      });
  } else if (!v->hasLocalStorage() || v->isStaticLocal()) {
    value = Val::unknown(named(v) + (v->getType().isConstQualified()
                                         ? " is not a constant"
                                         : " is a variable outside the function (not const), "
                                           "whose value at the launch is not followed"));
  } else {
    value = Val::unknown(named(v) + " is not followed here");
  }
  state_.ints[v] = value;
  return value;
}

Dim Frame::lookup_dim(const clang::VarDecl* v) {
  if (const Dim* pin = pinned_dim(v)) return *pin;
  if (const auto e = state_.escaped.find(v); e != state_.escaped.end()) {
    Dim d;
    for (Val& c : d.c) c = Val::unknown(e->second);
    return d;
  }
  if (const auto i = state_.dims.find(v); i != state_.dims.end()) return i->second;
  Dim d;
  if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(v)) {
    std::string why;
    const clang::Expr* argument = nullptr;
    const clang::Stmt* call = nullptr;
    const std::unique_ptr<Frame> caller = call_site(p, why, argument, call);
    if (caller) caller->follow({call}, [&](Frame& there, const clang::Stmt*) { d = there.eval_dim(argument); });
    for (int c = 0; c < 3; ++c) d.c[c] = caller ? assigned(v, d.c[c], c) : Val::unknown(why);
  } else {
    for (Val& c : d.c) c = Val::unknown(named(v) + " is not followed here (not a local of " + f_.name(function_) + ")");
  }
  state_.dims[v] = d;
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

Val Frame::fitted(const clang::Expr* e, clang::QualType type) {
  using namespace clang;
  type = type.getNonReferenceType().getCanonicalType();
  // What is converted: below the conversions Clang made implicit (an integer's own type).
  const Expr* inner = e->IgnoreParens();
  while (const auto* c = dyn_cast<ImplicitCastExpr>(inner)) {
    const CastKind kind = c->getCastKind();
    if ((kind != CK_IntegralCast && kind != CK_NoOp && kind != CK_LValueToRValue) ||
        !is_integer(c->getSubExpr()->getType()))
      break;
    inner = c->getSubExpr()->IgnoreParens();
  }
  const Val value = eval(inner);
  if (!value.known || !type->isIntegralOrEnumerationType() || type->isBooleanType()) return convert(value, type);
  const unsigned bits = static_cast<unsigned>(ctx_.getIntWidth(type));
  const bool is_signed = type->isSignedIntegerOrEnumerationType();
  const APSInt low = is_signed ? APSInt::getMinValue(bits, false) : APSInt::getMinValue(bits, true);
  const APSInt high = is_signed ? APSInt::getMaxValue(bits, false) : APSInt::getMaxValue(bits, true);
  if (APSInt::compareValues(value.v, low) < 0 || APSInt::compareValues(value.v, high) > 0)
    return Val::refusal("'" + f_.quoted(inner) + "' (" + f_.where(inner->getBeginLoc()) + ") is " + decimal(value.v) +
                        ", outside " + type.getAsString() + "'s range " + decimal(low) + " .. " + decimal(high));
  return convert(value, type);
}

bool Frame::is_min_max(const clang::CallExpr* call) const {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr || call->getNumArgs() != 2 || callee->getIdentifier() == nullptr) return false;
  const llvm::StringRef name = callee->getName();
  if (name != "min" && name != "max") return false;
  if (!callee->isInStdNamespace() && !callee->getDeclContext()->getRedeclContext()->isTranslationUnit()) return false;
  // The library's or the prelude's (every declaration of it), not a function of the file's own
  // that happens to share the name.
  const clang::SourceManager& sources = ctx_.getSourceManager();
  for (const clang::FunctionDecl* declaration : callee->redecls()) {
    const clang::SourceLocation at = sources.getExpansionLoc(declaration->getLocation());
    if (!sources.isInSystemHeader(at) && !sources.getFilename(at).startswith(kBuiltinDir)) return false;
  }
  return true;
}

Val Frame::min_max(const clang::CallExpr* call) {
  using namespace clang;
  // The arguments' own types, as written (below a temporary bound to std::min's const T&, and
  // below the conversions to the parameters' types).
  const auto written = [](const Expr* a) {
    a = a->IgnoreParens();
    if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(a)) a = m->getSubExpr();
    return a->IgnoreParenImpCasts()->getType().getCanonicalType().getUnqualifiedType();
  };
  const QualType first = written(call->getArg(0)), second = written(call->getArg(1));
  const QualType type = call->getType().getNonReferenceType();
  if (first != second || !is_integer(first) || !is_integer(type))
    return Val::unknown(f_.quoted(call) + " (at " + f_.where(call->getBeginLoc()) + ") takes arguments of types " +
                        first.getAsString() + " and " + second.getAsString() +
                        ": min and max are followed for two integers of one type");
  const Val a = convert(eval(call->getArg(0)), type);
  if (!a.known) return a;
  const Val b = convert(eval(call->getArg(1)), type);
  if (!b.known) return b;
  const bool is_max = call->getDirectCallee()->getName() == "max";
  // std::min(a, b) is (b < a) ? b : a; std::max(a, b) is (a < b) ? b : a.
  return is_max ? (a.v < b.v ? b : a) : (b.v < a.v ? b : a);
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
  if (!state_.blocked.empty()) return Val::unknown(state_.blocked);
  if (e == nullptr) return Val::unknown("no expression");
  if (const ClangError* error = f_.error_in(e)) return rejected(*error);
  const QualType type = e->getType();
  if (!e->isValueDependent() && !e->isTypeDependent() && type->isIntegralOrEnumerationType() &&
      !mentions_pinned(e)) {
    Expr::EvalResult folded;
    if (e->EvaluateAsInt(folded, ctx_) && folded.Val.isInt()) return Val::of(folded.Val.getInt());
  }
  e = e->IgnoreParens();
  if (const auto* cleanups = dyn_cast<ExprWithCleanups>(e)) return eval(cleanups->getSubExpr());
  if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) return eval(m->getSubExpr());
  if (const auto* d = dyn_cast<CXXDefaultArgExpr>(e)) return eval(d->getExpr());
  if (const auto* call = dyn_cast<CallExpr>(e); call != nullptr && is_min_max(call)) return min_max(call);
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
  if (!state_.blocked.empty()) {
    for (Val& c : d.c) c = Val::unknown(state_.blocked);
    return d;
  }
  if (const ClangError* error = f_.error_in(e)) {
    for (Val& c : d.c) c = rejected(*error);
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
    d.c[0] = fitted(e, ctx_.UnsignedIntTy);
    for (int c = 1; c < 3; ++c) d.c[c] = Val::of(APSInt(llvm::APInt(32, 1), true));
    return d;
  }
  if (const auto* construct = dyn_cast<CXXConstructExpr>(e)) {
    const CXXConstructorDecl* constructor = construct->getConstructor();
    if (constructor->isCopyOrMoveConstructor() && construct->getNumArgs() >= 1)
      return eval_dim(construct->getArg(0));
    if (construct->getNumArgs() == 3 && is_integer(constructor->getParamDecl(0)->getType())) {
      for (unsigned c = 0; c < 3; ++c) d.c[c] = fitted(construct->getArg(c), ctx_.UnsignedIntTy);
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
  } else if (value.refused) {
    h.reason = h.refused = value.reason;
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
/// Whether the use `d` of a variable, below `parent` and `grandparent` (the nearest that are not
/// parentheses), only reads it: its value taken, sizeof, bound to a const reference parameter
/// (std::min's), and for a dim3 a member read or a copy.
bool only_reads(const clang::DeclRefExpr* d, const clang::Stmt* parent, const clang::Stmt* grandparent) {
  using namespace clang;
  const auto is_read = [](const Stmt* s) {
    const auto* c = dyn_cast_or_null<ImplicitCastExpr>(s);
    return c != nullptr && c->getCastKind() == CK_LValueToRValue;
  };
  const auto is_copy = [](const Stmt* s) {
    const auto* c = dyn_cast_or_null<CXXConstructExpr>(s);
    return c != nullptr && c->getConstructor()->isCopyOrMoveConstructor();
  };
  if (parent == nullptr) return false;
  if (is_read(parent) || isa<UnaryExprOrTypeTraitExpr>(parent)) return true;  // sizeof: not evaluated
  if (const auto* call = dyn_cast<CallExpr>(parent)) {
    const FunctionDecl* callee = call->getDirectCallee();
    for (unsigned i = 0; callee != nullptr && i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
      const QualType type = callee->getParamDecl(i)->getType();
      if (call->getArg(i)->IgnoreParens() == d && type->isReferenceType() &&
          type.getNonReferenceType().isConstQualified())
        return true;
    }
  }
  if (!is_dim3(d->getType())) return false;
  if (isa<MemberExpr>(parent)) return is_read(grandparent);
  if (is_copy(parent)) return true;
  const auto* c = dyn_cast<ImplicitCastExpr>(parent);
  return c != nullptr && c->getCastKind() == CK_NoOp && is_copy(grandparent);
}

/// Where `v` is written in `body` other than by its declaration (a use that does not only read
/// it: an assignment, ++ or --, its address taken, a reference bound to it), or "" when none.
std::string written_in(const Finder& f, const clang::Stmt* body, const clang::VarDecl* v,
                       const clang::Stmt* parent = nullptr, const clang::Stmt* grandparent = nullptr) {
  if (body == nullptr) return "";
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(body); d != nullptr && d->getDecl() == v) {
    if (only_reads(d, parent, grandparent)) return "";
    return f.where((parent != nullptr ? parent : body)->getBeginLoc());
  }
  // The parents passed down are the nearest that are not parentheses. (Not Clang's parent map:
  // building it is quadratic in the uses of a shared node, a default argument's expression say.)
  const bool paren = llvm::isa<clang::ParenExpr>(body);
  for (const clang::Stmt* child : body->children())
    if (std::string w = written_in(f, child, v, paren ? parent : body, paren ? grandparent : parent); !w.empty())
      return w;
  return "";
}

/// "'n' (FILE:LINE:COL)".
std::string var_text(const Finder& f, const clang::VarDecl* v) {
  return "'" + v->getNameAsString() + "' (" + f.where(v->getLocation()) + ")";
}

/// Why `v` cannot hold one value throughout `function` (a variable outside it, not const; one
/// written after its declaration), "" when it can.
std::string unpinnable(const Finder& f, const clang::VarDecl* v, const clang::FunctionDecl* function) {
  const bool own = v->getDeclContext() == function && (v->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(v)) &&
                   !v->isStaticLocal();
  if (v->getType().isConstQualified()) return "";
  if (!own) return "is a variable outside " + f.name(function) + ", which the host code may change";
  const auto seen = f.written.find(v);
  const std::string& w = seen != f.written.end() ? seen->second : (f.written[v] = written_in(f, function->getBody(), v));
  return w.empty() ? "" : "is written at " + w + " as well";
}

/// `text` (a decimal integer, as the CLI passes them) as a value of `type`, the type of `what`; why
/// not, when it is not one or does not fit.
Val given_value(const Finder& f, const std::string& text, clang::QualType type, const std::string& what) {
  const std::size_t digits = text.size() - (text.rfind('-', 0) == 0 ? 1 : 0);
  if (digits == 0 || digits > 38 || text.find_first_not_of("0123456789", text.size() - digits) != std::string::npos)
    return Val::unknown("'" + text + "' is not a decimal integer");
  type = type.getCanonicalType();
  const unsigned bits = static_cast<unsigned>(f.context.getTypeSize(type));
  const bool is_unsigned = type->isUnsignedIntegerOrEnumerationType();
  const llvm::APInt wide(128, text, 10);
  if (!(is_unsigned ? !wide.isNegative() && wide.isIntN(bits) : wide.isSignedIntN(bits)))
    return Val::unknown(text + " does not fit " + what + " (" + type.getAsString() + ")");
  return Val::of(APSInt(wide.trunc(bits), is_unsigned));
}

/// The host variables a launch passes for the kernel parameters given values, each holding its
/// value throughout (`pins`), and the text of each (`followed`, `unfollowed`: HostLaunch's).
Pins pins_of(const Finder& f, const clang::FunctionDecl& kernel, const clang::CallExpr* call,
             const clang::FunctionDecl* function, const std::map<std::string, std::string>& given, HostLaunch& launch) {
  Pins pins;
  std::set<const clang::VarDecl*> conflicting;
  std::vector<std::pair<const clang::VarDecl*, std::string>> order;  // as the parameters come
  for (unsigned i = 0; i < kernel.getNumParams() && i < call->getNumArgs(); ++i) {
    const std::string name = kernel.getParamDecl(i)->getNameAsString();
    const auto g = given.find(name);
    if (g == given.end() || !is_integer(kernel.getParamDecl(i)->getType())) continue;
    const clang::Expr* argument = call->getArg(i)->IgnoreParenImpCasts();
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(argument);
    const auto* v = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (v == nullptr || !is_integer(v->getType()) || v->getType()->isReferenceType()) {
      launch.unfollowed.push_back(name + ": the launch passes " + f.quoted(argument) + " (" +
                                  f.where(argument->getBeginLoc()) + "), not a variable of its own");
      continue;
    }
    const std::string var = var_text(f, v);
    if (const std::string why = unpinnable(f, v, function); !why.empty()) {
      launch.unfollowed.push_back(name + ": " + var + " " + why);
      continue;
    }
    // The value in the variable's own type (it may differ from the parameter's).
    const Val value = given_value(f, g->second, v->getType(), var);
    if (!value.known) {
      launch.unfollowed.push_back(name + ": " + value.reason);
      continue;
    }
    if (const auto p = pins.ints.find(v); p != pins.ints.end()) {
      if (p->second.v != value.v) conflicting.insert(v);
      continue;
    }
    pins.ints[v] = value;
    order.emplace_back(v, var + " = " + g->second);
  }
  for (const auto& [v, text] : order) {
    if (conflicting.count(v) == 0) {
      launch.followed.push_back(text);
      continue;
    }
    pins.ints.erase(v);
    launch.unfollowed.push_back(var_text(f, v) + " is passed for several parameters given different values");
  }
  return pins;
}

/// The variable a launch's size is (`k<<<grid, threads>>>`, `dim3 block; k<<<g, block>>>`), null
/// for an expression of another kind.
const clang::VarDecl* size_variable(const clang::Expr* e) {
  using namespace clang;
  while (true) {
    e = e->IgnoreParens();
    const auto* construct = dyn_cast<CXXConstructExpr>(e);
    if (const auto* x = dyn_cast<ExprWithCleanups>(e)) e = x->getSubExpr();
    else if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto* t = dyn_cast<CXXBindTemporaryExpr>(e)) e = t->getSubExpr();
    else if (const auto* i = dyn_cast<ImplicitCastExpr>(e)) e = i->getSubExpr();
    else if (construct != nullptr && construct->getNumArgs() >= 1 &&
             (construct->getNumArgs() == 1 || llvm::isa<CXXDefaultArgExpr>(construct->getArg(1))))
      e = construct->getArg(0);  // a copy, or dim3(x) with y and z left to their defaults
    else break;
  }
  const auto* d = dyn_cast<DeclRefExpr>(e);
  const auto* v = d != nullptr ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (v == nullptr || v->getType()->isReferenceType() || !(is_integer(v->getType()) || is_dim3(v->getType())))
    return nullptr;
  return v;
}

/// The integer and dim3 variables of `function` that `s` reads.
void variables_read(const clang::Stmt* s, const clang::FunctionDecl* function, std::set<const clang::VarDecl*>& out) {
  if (s == nullptr) return;
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(s))
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getDecl());
        v != nullptr && v->getDeclContext() == function && (is_integer(v->getType()) || is_dim3(v->getType())))
      out.insert(v);
  for (const clang::Stmt* child : s->children()) variables_read(child, function, out);
}

/// Why the host code cannot be followed with a size given on the command line (`given`: its x, y,
/// z; {"?"} when computed from the source's values) for the launch's `size`, variable `v`; "" when
/// it can, with `value` set (a Val for an integer, a Dim for a dim3).
std::string size_pin(const Finder& f, const clang::Expr* size, const clang::VarDecl* v,
                     const clang::FunctionDecl* function, const std::vector<std::string>& given,
                     const std::string& flag, Val& value, Dim& dim) {
  if (given.size() != 3) return flag + " is computed from values the source gives";
  if (v == nullptr)
    return "the launch gives " + f.quoted(size) + " (" + f.where(size->getBeginLoc()) + "), not a variable of its own";
  const std::string var = var_text(f, v);
  if (const std::string why = unpinnable(f, v, function); !why.empty()) return var + " " + why;
  if (is_integer(v->getType())) {
    if (given[1] != "1" || given[2] != "1")
      return var + " is an integer (the x alone), and " + flag + " gives y = " + given[1] + ", z = " + given[2];
    value = given_value(f, given[0], v->getType(), var);
    return value.known ? "" : value.reason;
  }
  for (int c = 0; c < 3; ++c) {
    dim.c[c] = given_value(f, given[c], f.context.UnsignedIntTy, var_text(f, v) + "'s " + "xyz"[c]);
    if (!dim.c[c].known) return dim.c[c].reason;
  }
  return "";
}

/// The launch's grid or block (`which` 0 or 1) given on the command line: the variable it is holds
/// that value throughout; where that cannot be, the variables it reads are not computable
/// (Pins), so that nothing computed from them keeps the source's value.
void pin_size(const Finder& f, const clang::CUDAKernelCallExpr* call, const clang::FunctionDecl* function, int which,
              const std::vector<std::string>& given, Pins& pins, HostLaunch& launch) {
  const clang::CallExpr* config = call->getConfig();
  if (given.empty() || config == nullptr || config->getNumArgs() < 2) return;
  const std::string name = which == 0 ? "grid" : "block";
  const std::string flag = "--" + name;
  const clang::Expr* size = config->getArg(static_cast<unsigned>(which));
  const clang::VarDecl* v = size_variable(size);
  Val value;
  Dim dim;
  std::string why = size_pin(f, size, v, function, given, flag, value, dim);
  if (why.empty()) {
    const auto pinned = pins.ints.find(v);
    if (pinned != pins.ints.end() && (!pinned->second.known || pinned->second.v != value.v))
      why = var_text(f, v) + " is passed for the " + name + " and for a parameter given another value";
  }
  if (why.empty()) {
    const std::string text = value.known ? decimal(value.v) : "(" + given[0] + ", " + given[1] + ", " + given[2] + ")";
    if (value.known) pins.ints[v] = value;
    else pins.dims[v] = dim;
    launch.followed.push_back(flag + ": " + var_text(f, v) + " = " + text);
    return;
  }
  // The variables the size reads, less those the --arg values hold already (what reads them
  // follows those).
  std::set<const clang::VarDecl*> read;
  variables_read(size, function, read);
  for (auto r = read.begin(); r != read.end();) {
    const auto pinned = pins.ints.find(*r);
    r = pinned != pins.ints.end() && pinned->second.known ? read.erase(r) : std::next(r);
  }
  if (read.empty() && v == nullptr) return;
  launch.unfollowed.push_back(flag + ": " + why);
  for (const clang::VarDecl* r : read) {
    const Val unknown = Val::unknown(var_text(f, r) + " gives the launch's " + name + ", which " + flag +
                                     " replaces, and the host code is not followed with " + flag + "'s value: " + why);
    if (is_dim3(r->getType())) pins.dims[r] = Dim{{unknown, unknown, unknown}};
    else pins.ints[r] = unknown;
    launch.followed.erase(std::remove_if(launch.followed.begin(), launch.followed.end(),
                                         [&](const std::string& t) { return t.rfind(var_text(f, r) + " = ", 0) == 0; }),
                          launch.followed.end());
  }
}

/// The sizes and arguments of `call` with the values `frame` has there.
void take_values(Frame& frame, const Finder& finder, const clang::FunctionDecl& kernel,
                 const clang::CUDAKernelCallExpr* call, HostLaunch& launch) {
  const clang::CallExpr* config = call->getConfig();
  if (config != nullptr && config->getNumArgs() >= 2) {
    const Dim grid = frame.eval_dim(config->getArg(0));
    const Dim block = frame.eval_dim(config->getArg(1));
    for (int c = 0; c < 3; ++c) {
      launch.grid[c] = host_value(finder, grid.c[c], config->getArg(0));
      launch.block[c] = host_value(finder, block.c[c], config->getArg(1));
    }
    if (config->getNumArgs() >= 3 && !llvm::isa<clang::CXXDefaultArgExpr>(config->getArg(2)))
      launch.dynamic_shared = host_value(finder, frame.fitted(config->getArg(2), config->getArg(2)->getType()),
                                         config->getArg(2));
    else
      launch.dynamic_shared = HostValue{true, "0", launch.location, "", ""};
  }
  for (unsigned i = 0; i < kernel.getNumParams(); ++i) {
    HostValue value;
    const clang::QualType type = kernel.getParamDecl(i)->getType();
    const clang::Expr* argument = i < call->getNumArgs() ? call->getArg(i) : nullptr;
    if (argument != nullptr) value.where = finder.where(argument->getBeginLoc());
    if (argument != nullptr && is_integer(type)) {
      value = host_value(finder, frame.fitted(argument, type), argument);
    } else if (argument != nullptr && type->isRealFloatingType()) {
      llvm::APFloat folded(0.0);
      if (!argument->isValueDependent() && argument->EvaluateAsFloat(folded, finder.context) && folded.isFinite()) {
        value.known = true;
        value.value = float_text(folded);
      } else {
        value.reason = "it is computed from " + finder.quoted(argument) + ", not a finite constant";
      }
    }
    launch.arguments.push_back(value);
  }
}

/// The pins as text, so that launches followed with the same pins share one walk.
std::string pins_key(const Pins& pins) {
  const auto text = [](const Val& value) { return value.known ? decimal(value.v) : "?" + value.reason; };
  std::string key;
  for (const auto& [v, value] : pins.ints)
    key += std::to_string(reinterpret_cast<std::uintptr_t>(v)) + "=" + text(value) + ";";
  for (const auto& [v, dim] : pins.dims)
    key += std::to_string(reinterpret_cast<std::uintptr_t>(v)) + "=" + text(dim.c[0]) + "," + text(dim.c[1]) + "," +
           text(dim.c[2]) + ";";
  return key;
}

}  // namespace

std::vector<HostLaunch> find_host_launches(const clang::FunctionDecl& kernel, clang::ASTContext& context,
                                           const std::vector<ClangError>& errors, const FrontendOptions& options) {
  Finder finder(context, errors);
  Collector collector(finder, kernel);
  collector.TraverseDecl(context.getTranslationUnitDecl());
  std::vector<HostLaunch> launches(collector.launches.size());
  // Launches in one function with the same pins: one walk of that function follows them all.
  struct Group {
    const clang::FunctionDecl* function;
    Pins pins;
    std::vector<const clang::Stmt*> calls;
  };
  std::map<std::pair<const clang::FunctionDecl*, std::string>, Group> groups;
  std::map<const clang::Stmt*, std::size_t> index;
  for (std::size_t i = 0; i < collector.launches.size(); ++i) {
    const auto& [call, function] = collector.launches[i];
    HostLaunch& launch = launches[i];
    launch.location = finder.where(call->getBeginLoc());
    launch.function = function->getQualifiedNameAsString();
    Pins pins = options.host_arguments.empty()
                    ? Pins{}
                    : pins_of(finder, kernel, call, function, options.host_arguments, launch);
    pin_size(finder, call, function, 0, options.host_grid, pins, launch);
    pin_size(finder, call, function, 1, options.host_block, pins, launch);
    Group& group = groups[{function, pins_key(pins)}];
    if (group.calls.empty()) group = Group{function, std::move(pins), {}};
    group.calls.push_back(call);
    index[call] = i;
  }
  for (auto& [key, group] : groups) {
    (void)key;
    Frame frame(finder, group.function, 0, &group.pins);
    frame.follow(group.calls, [&](Frame& there, const clang::Stmt* call) {
      const auto i = index.at(call);
      take_values(there, finder, kernel, collector.launches[i].first, launches[i]);
    });
  }
  return launches;
}

}  // namespace warpdiv::frontend::detail
