// What running host code may write among the file's variables of static storage (globals,
// namespace members, static members, static locals), for the host evaluator (private to the
// front-end): a function's writes through everything it calls, and where a pointer or writable
// reference is bound to such a variable. host_effects.cpp says what is counted.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <map>
#include <memory>
#include <set>
#include <string>

namespace warpdiv::frontend::detail::host_eval {

/// What running some code may write among the variables of static storage.
struct Writes {
  std::set<const clang::VarDecl*> by_name;  // written by name
  bool indirect = false;                    // writes through a pointer or reference
  std::string any;                          // not empty: may write any of them, for this reason
  bool empty() const { return by_name.empty() && !indirect && any.empty(); }
  void add(const Writes& other) {
    by_name.insert(other.by_name.begin(), other.by_name.end());
    indirect = indirect || other.indirect;
    if (any.empty()) any = other.any;
  }
};

class HostEffects {
 public:
  explicit HostEffects(clang::ASTContext& context);
  ~HostEffects();

  /// What `s` itself runs may write (a call, a construction, new, delete, the destruction of a
  /// temporary), with all the functions it calls; nothing for other statements (not their children).
  Writes of_node(const clang::Stmt* s);
  /// What destroying an object of `type` (at the end of its scope) may write.
  Writes of_destruction(clang::QualType type);
  /// What assigning to `target` (the left of =, +=, ++ ...) writes: a variable of static storage by
  /// name, or through a pointer or reference (*p, p[i], p->x, a reference); nothing for a local.
  static Writes of_target(const clang::Expr* target);
  /// Where a pointer or writable reference is first bound to `v` in the file's code ("" nowhere).
  std::string bound(const clang::VarDecl* v);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpdiv::frontend::detail::host_eval
