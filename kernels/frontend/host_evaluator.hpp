// The host-code evaluator behind host_launch.cpp (private to the front-end): values, dim3s,
// the launch's pinned variables, and Frame, which follows one host function statement by
// statement (host_evaluator.cpp). host_launch.cpp says what is computed and what refused.
#pragma once

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
#include "kernels/frontend/host_effects.hpp"
#include "kernels/frontend/host_launch.hpp"

namespace warpdiv::frontend::detail::host_eval {

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

inline std::string decimal(const APSInt& value) {
  llvm::SmallString<32> text;
  value.toString(text, 10);
  return std::string(text.str());
}

inline bool is_dim3(clang::QualType type) {
  const auto* record = type.getNonReferenceType()->getAsCXXRecordDecl();
  return record != nullptr && record->getName() == "dim3";
}

/// What unwrap_dim3 sees through besides parentheses, cleanups and temporaries (materialised or
/// bound): functional casts (`dim3(b)`), and implicit conversions: those of a dim3 only, or every
/// one (with what Expr::IgnoreParenImpCasts skips).
struct Dim3Wrappers {
  bool functional_casts = true;
  bool every_conversion = false;
};
/// `e` below the nodes Clang wraps a dim3 value in (`k<<<dim3(g), b>>>`, `dim3 b = dim3(x)`), as
/// `wrappers` says.
const clang::Expr* unwrap_dim3(const clang::Expr* e, Dim3Wrappers wrappers);

inline bool is_integer(clang::QualType type) {
  return type.getNonReferenceType()->isIntegralOrEnumerationType();
}

/// Every host function's calls of other functions: where each is called from.
struct CallSite {
  const clang::CallExpr* call;
  const clang::FunctionDecl* caller;
};

class Finder {
 public:
  Finder(clang::ASTContext& ast, const std::vector<ClangError>& clang_errors)
      : context(ast), errors(clang_errors) {}
  clang::ASTContext& context;
  const std::vector<ClangError>& errors;
  std::map<const clang::FunctionDecl*, std::vector<CallSite>> callers;  // by canonical declaration
  /// Functions also called where callers cannot list: the first such place, as the end of a
  /// sentence about the function ("is also called through a pointer or reference bound at ...").
  std::map<const clang::FunctionDecl*, std::string> other_calls;  // by canonical declaration
  /// written_in of a variable in its own function, once per variable (many launches pass it).
  mutable std::map<const clang::VarDecl*, std::string> written;
  /// What host code may write among the file's variables of static storage (globals).
  mutable HostEffects effects{context};

  std::string where(clang::SourceLocation loc) const { return location_of(context.getSourceManager(), loc); }
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
    const unsigned last = range.isTokenRange() ? clang::Lexer::MeasureTokenLength(range.getEnd(), sources,
                                                                                  context.getLangOpts())
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
  Frame(const Finder& finder, const clang::FunctionDecl* function, int depth, const Pins* pins = nullptr)
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

  /// What the calls in `s` may write (a launch's configuration, run before its arguments) is not
  /// computable from here on.
  void run_calls(const clang::Stmt* s);
  Val eval(const clang::Expr* e);
  Dim eval_dim(const clang::Expr* e);
  /// Why the program never gets where the walk is (a condition known false on the way, a return
  /// before it), or "" where it may.
  const std::string& unreached() const { return state_.unreached; }
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
  /// Walks into `s` on a copy of the values; `never`: why the program never gets there (when known).
  void branch(const clang::Stmt* s, const std::string& never = "");
  /// "true" or "false" where `condition` has a value from the values here, else "".
  std::string truth(const clang::Expr* condition);
  std::string condition_text(const clang::Expr* condition, const char* kind, const std::string& at,
                             const char* value) const;
  static bool always_leaves(const clang::Stmt* s);
  /// `s` when it is a loop that never ends but by leaving the function (for (;;), while (true),
  /// no break out of it), else null.
  const clang::Stmt* endless(const clang::Stmt* s) const;
  /// Whether `s` holds a break out of the loop whose body it is (or a goto).
  static bool breaks_out(const clang::Stmt* s);
  /// Where running `s`, a statement of a switch's body, always stops going on to the next one (a
  /// break, a continue; `leaves_function`: a return, exit()), null where it may go on.
  static const clang::Stmt* stops(const clang::Stmt* s, bool& leaves_function);
  /// Where a switch whose condition has a value here enters its body (a compound statement).
  struct SwitchEntry {
    bool known = false;              // the value and the label it selects (at the body's level) are known
    std::vector<std::string> never;  // for each statement of the body: why control never gets there
    std::string leaves;              // where the function always leaves inside it, and why ("" if not)
  };
  SwitchEntry switch_entry(const clang::SwitchStmt* sw);
  static bool jumps(const clang::Stmt* s);
  /// Why the function always leaves at `s` (a return, exit(), an if whose taken branch does), or "".
  std::string leaves_at(const clang::Stmt* s);
  void evaluate_in(const clang::Stmt* s, const clang::Stmt* lambda = nullptr);
  void exec(const clang::Stmt* s);
  void declare(const clang::VarDecl* v);
  void assign(const clang::Expr* e);
  void invalidate(const clang::Stmt* s, const std::string& how);
  /// The variables of static storage holding a value here that `writes` may change (`what` changes
  /// them: "the call of f() at F:L:C"): not computable from here on.
  void clobber(const Writes& writes, const std::string& what);
  /// What `s` (a call, a construction, an assignment ...) is, for clobber.
  std::string doing(const clang::Stmt* s) const;
  /// The locals `d` declares are destroyed at `end`: what their destructors may write is clobbered.
  void destroy(const clang::DeclStmt* d, clang::SourceLocation end);

  std::string named(const clang::VarDecl* v, int component = -1) const {
    std::string name = v->getNameAsString();
    if (component >= 0) name += std::string(".") + "xyz"[component];
    return "'" + name + "' (" + f_.where(v->getLocation()) + ")";
  }
  /// A local's value as assigned: a leaf reason names the local.
  Val assigned(const clang::VarDecl* v, Val value, int component = -1) const {
    if (!value.known && value.leaf)
      value = Val::unknown(named(v, component) + " is set from " + value.reason);
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
  Val shift(clang::BinaryOperatorKind op, const Val& l, const Val& r, clang::QualType type,
            const clang::Expr* at) const;

  /// (variable, component) written by `e`, component -1 for a whole variable; null when `e` is not
  /// a tracked local or a dim3 member of one.
  std::pair<const clang::VarDecl*, int> target_of(const clang::Expr* e) const;
  /// The variables (and components) an lvalue may name: target_of's, also through a cast to a
  /// reference ((int&)n, static_cast<int&>(n)) and either side of an lvalue ?: (c ? n : m).
  std::vector<std::pair<const clang::VarDecl*, int>> targets_of(const clang::Expr* e) const;
  void set_unknown(const clang::VarDecl* v, int component, const std::string& tail);
  /// The locals `s` (at `at`) binds to a reference an object holds (std::pair<int&, int> p(n, 1),
  /// a reference member) or whose constness it casts away: they escape.
  void escape_held(const clang::Stmt* s, const std::string& at);
  /// `v` is not computable from here on (it may be written where the walk does not follow), nor
  /// what a reference `v` refers to.
  void escape(const clang::VarDecl* v, const std::string& tail, int depth = 0);
  /// Whether argument `i` of a call of `callee` (null: not known) is bound to a reference it may
  /// write through (T&, T&&, or C's variadic arguments).
  static bool binds_writable(const clang::FunctionDecl* callee, unsigned i, const clang::Expr* argument);
  /// const_cast, or a C-style or functional cast that does what it does (to T& from a const T).
  static bool casts_away_const(const clang::ExplicitCastExpr* cast);
  /// `argument` (a local) is bound at `at` to a const reference an object may keep (State::held).
  void hold(const clang::Expr* argument, const std::string& at);
  /// Whether `s` names a local object (of a class other than dim3).
  static bool names_object(const clang::Stmt* s);
  /// The integer and dim3 variables `s` names.
  static void mentions(const clang::Stmt* s, std::set<const clang::VarDecl*>& out);

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
    /// Locals bound to a const reference an object may keep (std::pair<const int&, int> p(n, 1)),
    /// with the place: a cast of an object's constness makes them escape.
    std::map<const clang::VarDecl*, std::string> held;
    std::string blocked;    // not empty: nothing is computable, for this reason
    std::string unreached;  // not empty: the program never gets here, for this reason
    bool frozen = false;    // inside a switch: statements before the launch are not followed
  } state_;
};

}  // namespace warpdiv::frontend::detail::host_eval
