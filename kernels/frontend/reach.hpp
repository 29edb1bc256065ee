// Internal to the front-end (includes Clang): what a kernel reaches, so that Clang's errors in code
// it does not reach (host code, other kernels, unused helpers) can be notes instead of failures.
//
// The reach: the kernel's definition and, transitively, every declaration its code refers to:
// functions it calls (direct calls, constructors and destructors, operators, member functions,
// the instantiations of templates), variables (__constant__, __shared__, __device__ globals,
// static members, texture references), and types (records with their bases and fields, enums,
// typedefs). An instantiation stands for its template: an error anywhere in a template's text
// counts against every user of the template, whichever instantiation it came from.
//
// Where an error lies: the innermost declaration at namespace or class scope (a function, a
// variable, a type, or a template of one) whose source range holds the error's expansion location.
// An error outside every such declaration (a stray token at file scope, a preprocessor error, a
// using-directive or static_assert at file scope, an error without a location) cannot be
// attributed and counts as in reach.
//
// Invalid declarations: Clang drops a use of a declaration it marked invalid (a global of an
// unknown type, a function with a parameter of one), often silently: `a[0] = vbo;` leaves no trace
// in the kernel's AST and no error there. So the tokens Clang read are kept too, and the kernel is
// broken when its reach holds the name of an invalid declaration (an operator's symbol for an
// invalid operator; the class's name for an invalid constructor, destructor or conversion), as
// well as when it reaches an invalid declaration or an expression Clang could not build. A name
// that only happens to be the same (a local variable called like an invalid host global) counts
// too: a false failure rather than a kernel lowered without a statement.
#pragma once

#include <clang/Basic/SourceLocation.h>
#include <clang/Basic/TokenKinds.h>

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class IdentifierInfo;
}  // namespace clang

namespace warpdiv::frontend::detail {

/// Where one error lies with respect to the kernel.
struct ErrorPlace {
  bool in_reach = true;  // in the kernel's reach, or not attributable
  std::string owner;     // the declaration holding it ("main", "Foo::bar", "vbo"); empty if none
  /// What the owner is, for the note: "host code" (a function that runs on the host only),
  /// "code" (another kernel, a __device__ function), "a declaration" (a variable or type).
  std::string owner_kind;
};

/// A token Clang's parser read (outside system headers): where, and what.
struct SeenToken {
  clang::SourceLocation location;
  clang::tok::TokenKind kind = clang::tok::unknown;
  const clang::IdentifierInfo* identifier = nullptr;  // for identifiers
};

class KernelReach {
 public:
  /// Walks `kernel` (a definition) and what it reaches in `context`'s translation unit; `tokens`
  /// are those the parse read, in order.
  KernelReach(const clang::FunctionDecl& kernel, clang::ASTContext& context,
              const std::vector<SeenToken>& tokens);
  ~KernelReach();
  KernelReach(const KernelReach&) = delete;
  KernelReach& operator=(const KernelReach&) = delete;

  /// A declaration in the reach is invalid (Clang marked it) or holds an expression Clang could
  /// not build: the kernel is broken even where no error is attributed to the reach.
  bool broken() const;
  /// Why, for a note: "uses 'vbo' (FILE:LINE:COL), which the errors above left invalid".
  std::string broken_reason() const;
  /// Where an error reported at `location` lies.
  ErrorPlace place(clang::SourceLocation location) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace warpdiv::frontend::detail
