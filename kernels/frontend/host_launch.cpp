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
// evaluator does not compute, whose address is taken, that is bound to a writable reference
// (declared, a T& parameter of a function or constructor, a reference member, const_cast of an
// expression naming it), or that changes inside a loop holding the launch (its variable, say) is not
// computable from then on, with the reason. A variable of static storage (a global, a static member)
// the function assigns holds that value until something may write it (a call, a write through a
// pointer or reference: host_effects.cpp says what may), and is not computable from then on. A
// launch where the program never gets (a condition or a switch's value that skips it, a return,
// exit, throw or failing assert before it, a helper whose every call is such a launch) is never
// made, with the reason. A parameter of a helper function is computed at its
// one call site in the file (main's are not computable; a helper called from several places, one
// whose address is taken or that a global's initialiser calls neither); a function template's
// instantiations are host functions of their own. Float and double kernel arguments are taken when Clang
// folds them to finite constants.
// --grid and --block given pin the variable the launch passes for that size (pin_size), and the
// integer locals a dim3 size is built from (flow_back).
//
// One walk per host function (and set of pins) follows all its launches, so that reading N
// launches costs O(N) statements, not O(N^2): a statement before a launch is executed once; one
// holding launches is walked into on a copy of the values, then executed for what follows it.

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
#include "kernels/frontend/host_evaluator.hpp"

namespace warpdiv::frontend::detail {
namespace {

using namespace host_eval;

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

  /// A function template's instantiations (run<300>) are host functions of their own.
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (!function->doesThisDeclarationHaveABody() || function->isDependentContext()) return true;
    if (function->hasAttr<clang::CUDAGlobalAttr>()) return true;
    if (function->hasAttr<clang::CUDADeviceAttr>() && !function->hasAttr<clang::CUDAHostAttr>()) return true;
    if (in_system_header(function)) {
      // A library template's instantiation calls what its arguments name (std::sort calls Cmp): a
      // call site the walk does not follow.
      if (function->getTemplateSpecializationKind() != clang::TSK_Undeclared)
        library_calls(function->getBody());
      return true;
    }
    collect(function, function->getBody());
    return true;
  }

  /// A global's initialiser runs before main: a function it calls has a call site the walk does
  /// not follow.
  bool VisitVarDecl(clang::VarDecl* v) {
    if (!v->hasGlobalStorage() || v->isStaticLocal() || v->getInit() == nullptr || in_system_header(v) ||
        v->getDeclContext()->isDependentContext() || v->getDeclContext()->isFunctionOrMethod())
      return true;
    note_other_calls(v->getInit(),
                     "is also called from the initialiser of the global '" + v->getNameAsString() + "' at ");
    return true;
  }

  std::vector<std::pair<const clang::CUDAKernelCallExpr*, const clang::FunctionDecl*>> launches;

 private:
  bool in_system_header(const clang::Decl* d) const {
    const auto& sources = finder_.context.getSourceManager();
    return sources.isInSystemHeader(sources.getExpansionLoc(d->getLocation()));
  }
  void library_calls(const clang::Stmt* s) {
    if (s == nullptr) return;
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s))
      if (const clang::FunctionDecl* called = call->getDirectCallee();
          called != nullptr && !in_system_header(called))
        other_call(called, "is also called from the library's code at ", call->getBeginLoc());
    for (const clang::Stmt* child : s->children()) library_calls(child);
  }
  void other_call(const clang::FunctionDecl* callee, const std::string& how, clang::SourceLocation at) {
    finder_.other_calls.emplace(callee->getCanonicalDecl(), how + finder_.where(at));
  }
  /// The functions `s` calls or names (outside a function's body).
  void note_other_calls(const clang::Stmt* s, const std::string& how, const clang::Stmt* callee = nullptr) {
    if (s == nullptr) return;
    const clang::Stmt* direct = nullptr;
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s))
      if (const clang::FunctionDecl* called = call->getDirectCallee()) {
        other_call(called, how, call->getBeginLoc());
        direct = call->getCallee()->IgnoreParenImpCasts();
      }
    named_function(s, callee);
    for (const clang::Stmt* child : s->children())
      note_other_calls(child, how, direct != nullptr ? direct : callee);
  }
  /// A function named other than as a direct call's callee (its address taken, a reference bound
  /// to it): it may be called from anywhere.
  void named_function(const clang::Stmt* s, const clang::Stmt* callee) {
    if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(s); d != nullptr && s != callee)
      if (const auto* named = llvm::dyn_cast<clang::FunctionDecl>(d->getDecl()))
        other_call(named, "may also be called through a pointer or reference, bound at ", d->getBeginLoc());
  }

  void collect(const clang::FunctionDecl* function, const clang::Stmt* s,
               const clang::Stmt* callee = nullptr) {
    if (s == nullptr) return;
    const clang::Stmt* direct = nullptr;  // the callee's name in a direct call
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s)) {
      if (const clang::FunctionDecl* called = call->getDirectCallee()) {
        if (llvm::isa<clang::CUDAKernelCallExpr>(call) && called->getCanonicalDecl() == kernel_)
          launches.emplace_back(llvm::cast<clang::CUDAKernelCallExpr>(call), function);
        finder_.callers[called->getCanonicalDecl()].push_back(CallSite{call, function});
        direct = call->getCallee()->IgnoreParenImpCasts();
      }
    }
    named_function(s, callee);
    for (const clang::Stmt* child : s->children())
      collect(function, child, direct != nullptr ? direct : callee);
  }

  Finder& finder_;
  const clang::FunctionDecl* kernel_;
};

std::string float_text(const llvm::APFloat& value) {
  llvm::APFloat wide = value;
  bool lost = false;
  wide.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  if (wide.isZero() && wide.isNegative()) return "-0.0";  // a decimal: "-0" would read as the integer 0
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
  // Bound to a const reference parameter (std::min(n, 64)): a read; the binding may add const
  // (a NoOp cast between the variable and the call).
  const auto* added_const = dyn_cast<ImplicitCastExpr>(parent);
  const bool noop = added_const != nullptr && added_const->getCastKind() == CK_NoOp;
  const Stmt* argument = noop ? parent : d;
  if (const auto* call = dyn_cast_or_null<CallExpr>(noop ? grandparent : parent)) {
    const FunctionDecl* callee = call->getDirectCallee();
    for (unsigned i = 0; callee != nullptr && i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
      const QualType type = callee->getParamDecl(i)->getType();
      if (call->getArg(i)->IgnoreParens() == argument && type->isReferenceType() &&
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
    if (std::string w = written_in(f, child, v, paren ? parent : body, paren ? grandparent : parent);
        !w.empty())
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
  const bool own = v->getDeclContext() == function &&
                   (v->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(v)) && !v->isStaticLocal();
  if (v->getType().isConstQualified()) return "";
  if (!own) return "is a variable outside " + f.name(function) + ", which the host code may change";
  const auto seen = f.written.find(v);
  const std::string& w =
      seen != f.written.end() ? seen->second : (f.written[v] = written_in(f, function->getBody(), v));
  return w.empty() ? "" : "is written at " + w + " as well";
}

/// `text` (a decimal integer, as the CLI passes them) as a value of `type`, the type of `what`; why
/// not, when it is not one or does not fit.
Val given_value(const Finder& f, const std::string& text, clang::QualType type, const std::string& what) {
  const std::size_t digits = text.size() - (text.rfind('-', 0) == 0 ? 1 : 0);
  if (digits == 0 || digits > 38 ||
      text.find_first_not_of("0123456789", text.size() - digits) != std::string::npos)
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
             const clang::FunctionDecl* function, const std::map<std::string, std::string>& given,
             HostLaunch& launch) {
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
    e = unwrap_dim3(e, {false, true});
    const auto* construct = dyn_cast<CXXConstructExpr>(e);
    if (construct != nullptr && construct->getNumArgs() >= 1 &&
        (construct->getNumArgs() == 1 || llvm::isa<CXXDefaultArgExpr>(construct->getArg(1))))
      e = construct->getArg(0);  // a copy, or dim3(x) with y and z left to their defaults
    else
      break;
  }
  const auto* d = dyn_cast<DeclRefExpr>(e);
  const auto* v = d != nullptr ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (v == nullptr || v->getType()->isReferenceType() || !(is_integer(v->getType()) || is_dim3(v->getType())))
    return nullptr;
  return v;
}

/// The integer and dim3 variables of `function` that `s` reads.
void variables_read(const clang::Stmt* s, const clang::FunctionDecl* function,
                    std::set<const clang::VarDecl*>& out) {
  if (s == nullptr) return;
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(s))
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getDecl());
        v != nullptr && v->getDeclContext() == function &&
        (is_integer(v->getType()) || is_dim3(v->getType())))
      out.insert(v);
  for (const clang::Stmt* child : s->children()) variables_read(child, function, out);
}

/// The variables `size` reads and, for a dim3 among them, those its initialiser reads (dim3
/// b(threads): threads gives the size too), transitively.
std::set<const clang::VarDecl*> size_sources(const clang::Expr* size, const clang::FunctionDecl* function) {
  std::set<const clang::VarDecl*> read;
  variables_read(size, function, read);
  std::vector<const clang::VarDecl*> todo(read.begin(), read.end());
  while (!todo.empty()) {
    const clang::VarDecl* v = todo.back();
    todo.pop_back();
    if (!is_dim3(v->getType())) continue;
    std::set<const clang::VarDecl*> more;
    variables_read(v->getInit(), function, more);
    for (const clang::VarDecl* m : more)
      if (read.insert(m).second) todo.push_back(m);
  }
  return read;
}

/// The arguments of the constructor that `v`'s initialiser is (dim3 b(x, y), dim3 b = x), below
/// copies and conversions, defaults left out; false when it is something else.
bool dim3_arguments(const clang::VarDecl* v, std::vector<const clang::Expr*>& arguments) {
  using namespace clang;
  const Expr* e = unwrap_dim3(v->getInit(), {true, true});
  const auto* construct = dyn_cast_or_null<CXXConstructExpr>(e);
  if (construct == nullptr || construct->getConstructor()->isCopyOrMoveConstructor()) return false;
  for (const Expr* a : construct->arguments())
    if (!isa<CXXDefaultArgExpr>(a)) arguments.push_back(a);
  return true;
}

/// A dim3 `v` given on the command line (`dim`) flows back into the integer locals it is built
/// from (int threads = 64; dim3 b(threads): threads holds --block's x throughout), so that what
/// else reads them follows; why not ("" when it does, `pins` then holding them and `text` naming
/// them: ", 'threads' (f.cu:9:7) = 128").
std::string flow_back(const Finder& f, const clang::VarDecl* v, const clang::FunctionDecl* function,
                      const Dim& dim, Pins& pins, std::string& text) {
  std::vector<const clang::Expr*> arguments;
  std::set<const clang::VarDecl*> read;
  variables_read(v->getInit(), function, read);
  if (read.empty()) return "";  // built from constants: nothing else reads what it is built from
  if (!dim3_arguments(v, arguments))
    return var_text(f, v) + " is set from " + f.quoted(v->getInit()) + " (" +
           f.where(v->getInit()->getBeginLoc()) + "), not from integers (dim3 " + v->getNameAsString() +
           "(x, y, z))";
  for (std::size_t c = 0; c < arguments.size() && c < 3; ++c) {
    const clang::Expr* argument = arguments[c]->IgnoreParenImpCasts();
    std::set<const clang::VarDecl*> named;
    variables_read(argument, function, named);
    if (named.empty()) continue;  // a constant: nothing else reads it
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(argument);
    const auto* local = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    const std::string axis = var_text(f, v) + "'s " + "xyz"[c];
    if (local == nullptr || !is_integer(local->getType()) || local->getType()->isReferenceType())
      return axis + " is computed from " + f.quoted(argument) + " (" + f.where(argument->getBeginLoc()) +
             "), not a variable of its own";
    if (const std::string why = unpinnable(f, local, function); !why.empty())
      return axis + " is " + var_text(f, local) + ", which " + why;
    const Val value = given_value(f, decimal(dim.c[c].v), local->getType(), var_text(f, local));
    if (!value.known) return value.reason;
    const auto pinned = pins.ints.find(local);
    if (pinned != pins.ints.end() && (!pinned->second.known || pinned->second.v != value.v))
      return var_text(f, local) + " gives two values: " + axis + " and another given value";
    pins.ints[local] = value;
    text += ", " + var_text(f, local) + " = " + decimal(value.v);
  }
  return "";
}

/// Why the host code cannot be followed with a size given on the command line (`given`: its x, y,
/// z; {"?"} when computed from the source's values) for the launch's `size`, variable `v`; "" when
/// it can, with `value` set (a Val for an integer, a Dim for a dim3).
std::string size_pin(const Finder& f, const clang::Expr* size, const clang::VarDecl* v,
                     const clang::FunctionDecl* function, const std::vector<std::string>& given,
                     const std::string& flag, Val& value, Dim& dim) {
  if (given.size() != 3) return flag + " is computed from values the source gives";
  if (v == nullptr)
    return "the launch gives " + f.quoted(size) + " (" + f.where(size->getBeginLoc()) +
           "), not a variable of its own";
  const std::string var = var_text(f, v);
  if (const std::string why = unpinnable(f, v, function); !why.empty()) return var + " " + why;
  if (is_integer(v->getType())) {
    if (given[1] != "1" || given[2] != "1")
      return var + " is an integer (the x alone), and " + flag + " gives y = " + given[1] +
             ", z = " + given[2];
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
void pin_size(const Finder& f, const clang::CUDAKernelCallExpr* call, const clang::FunctionDecl* function,
              int which, const std::vector<std::string>& given, Pins& pins, HostLaunch& launch) {
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
  Pins flowed = pins;
  std::string flowed_text;
  if (why.empty() && !value.known) why = flow_back(f, v, function, dim, flowed, flowed_text);
  if (why.empty()) {
    const std::string text = value.known
                                 ? decimal(value.v)
                                 : "(" + given[0] + ", " + given[1] + ", " + given[2] + ")" + flowed_text;
    if (!value.known) pins = std::move(flowed);
    if (value.known)
      pins.ints[v] = value;
    else
      pins.dims[v] = dim;
    launch.followed.push_back(flag + ": " + var_text(f, v) + " = " + text);
    return;
  }
  // The variables the size reads (and those a dim3 it reads is built from), less those the --arg
  // values hold already (what reads them follows those).
  std::set<const clang::VarDecl*> read = size_sources(size, function);
  for (auto r = read.begin(); r != read.end();) {
    const auto pinned = pins.ints.find(*r);
    r = pinned != pins.ints.end() && pinned->second.known ? read.erase(r) : std::next(r);
  }
  if (read.empty() && v == nullptr) return;
  launch.unfollowed.push_back(flag + ": " + why);
  for (const clang::VarDecl* r : read) {
    const Val unknown =
        Val::unknown(var_text(f, r) + " gives the launch's " + name + ", which " + flag +
                     " replaces, and the host code is not followed with " + flag + "'s value: " + why);
    if (is_dim3(r->getType()))
      pins.dims[r] = Dim{{unknown, unknown, unknown}};
    else
      pins.ints[r] = unknown;
    launch.followed.erase(
        std::remove_if(launch.followed.begin(), launch.followed.end(),
                       [&](const std::string& t) { return t.rfind(var_text(f, r) + " = ", 0) == 0; }),
        launch.followed.end());
  }
}

/// The sizes and arguments of `call` with the values `frame` has there.
void take_values(Frame& frame, const Finder& finder, const clang::FunctionDecl& kernel,
                 const clang::CUDAKernelCallExpr* call, HostLaunch& launch) {
  launch.never_made = frame.unreached();
  const clang::CallExpr* config = call->getConfig();
  // The configuration's values run first, in no order among themselves; then the arguments.
  for (unsigned i = 0; config != nullptr && i < config->getNumArgs(); ++i) frame.run_calls(config->getArg(i));
  if (config != nullptr && config->getNumArgs() >= 2) {
    const Dim grid = frame.eval_dim(config->getArg(0));
    const Dim block = frame.eval_dim(config->getArg(1));
    for (int c = 0; c < 3; ++c) {
      launch.grid[c] = host_value(finder, grid.c[c], config->getArg(0));
      launch.block[c] = host_value(finder, block.c[c], config->getArg(1));
    }
    if (config->getNumArgs() >= 3 && !llvm::isa<clang::CXXDefaultArgExpr>(config->getArg(2)))
      launch.dynamic_shared = host_value(
          finder, frame.fitted(config->getArg(2), config->getArg(2)->getType()), config->getArg(2));
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
      if (!argument->isValueDependent() && argument->EvaluateAsFloat(folded, finder.context) &&
          folded.isFinite()) {
        value.known = true;
        value.value = float_text(folded);
      } else {
        value.reason = "it is computed from " + finder.quoted(argument) + ", not a finite constant";
      }
    }
    launch.arguments.push_back(value);
  }
}

/// Why the program never calls `function`: each of its call sites in the file is where the program
/// never gets (or in a function it never calls); "" where it may be called, or that is not known
/// (main(), no call site in the file, one that cannot be listed). `known`: the answers so far.
std::string never_called(const Finder& f, const clang::FunctionDecl* function, int depth,
                         std::map<const clang::FunctionDecl*, std::string>& known) {
  function = function->getCanonicalDecl();
  if (function->isMain() || depth >= kMaxCallDepth || f.other_calls.count(function) != 0) return "";
  if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function);
      method != nullptr && method->isVirtual())
    return "";  // also called through its base class, at call sites that name another function
  const auto sites = f.callers.find(function);
  if (sites == f.callers.end() || sites->second.empty()) return "";
  if (const auto k = known.find(function); k != known.end()) return k->second;
  known[function] = "";  // a call from itself, met while this is worked out, is not known to be dead
  std::string why;
  for (const CallSite& site : sites->second) {
    std::string never;
    Frame caller(f, site.caller, depth + 1);
    caller.follow({site.call}, [&](Frame& there, const clang::Stmt*) { never = there.unreached(); });
    if (never.empty()) never = never_called(f, site.caller, depth + 1, known);
    if (never.empty()) return "";
    why += (why.empty() ? "" : "; ") + std::string("its call at ") + f.where(site.call->getBeginLoc()) +
           ": " + never;
  }
  return known[function] = "the program never calls " + f.name(function) + " (" + why + ")";
}

/// The pins as text, so that launches followed with the same pins share one walk.
std::string pins_key(const Pins& pins) {
  const auto text = [](const Val& value) { return value.known ? decimal(value.v) : "?" + value.reason; };
  std::string key;
  for (const auto& [v, value] : pins.ints)
    key += std::to_string(reinterpret_cast<std::uintptr_t>(v)) + "=" + text(value) + ";";
  for (const auto& [v, dim] : pins.dims)
    key += std::to_string(reinterpret_cast<std::uintptr_t>(v)) + "=" + text(dim.c[0]) + "," + text(dim.c[1]) +
           "," + text(dim.c[2]) + ";";
  return key;
}

}  // namespace

std::vector<HostLaunch> find_host_launches(const clang::FunctionDecl& kernel, clang::ASTContext& context,
                                           const std::vector<ClangError>& errors,
                                           const FrontendOptions& options) {
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
  std::map<const clang::FunctionDecl*, std::string> uncalled;
  for (std::size_t i = 0; i < launches.size(); ++i)
    if (launches[i].never_made.empty())
      launches[i].never_made = never_called(finder, collector.launches[i].second, 0, uncalled);
  return launches;
}

}  // namespace warpdiv::frontend::detail
