// Internal to the front-end (includes Clang): one parsed source file whose AST stays alive until
// the object is destroyed, and the __global__ functions found in it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <clang/Basic/SourceLocation.h>

#include "kernels/frontend/frontend.hpp"

namespace clang {
class ASTContext;
class FunctionDecl;
class SourceLocation;
class SourceManager;
class Stmt;
}  // namespace clang

namespace warpdiv::frontend::detail {

/// "FILE:LINE:COL" of `loc` (its expansion: a macro's use), "<unknown>" when it has none.
std::string location_of(const clang::SourceManager& sources, clang::SourceLocation loc);
/// The same place as a diagnostic's location (line 0 where Clang knows none).
SourceLocation source_location_of(const clang::SourceManager& sources, clang::SourceLocation loc);
/// The source text of a node on one line, runs of white space as one space ("A[Row * Width + k]").
std::string source_text(const clang::ASTContext& context, const clang::Stmt* s);

/// One error Clang reported: where, and its message alone ("integer literal is too large ...").
struct ClangError {
  clang::SourceLocation location;
  std::string message;
};

struct FoundKernel {
  KernelInfo info;
  const clang::FunctionDecl* decl = nullptr;  // the definition (an instantiation for templates)
};

class ParsedSource {
 public:
  /// Runs Clang on options.file. Throws InvalidInput when the file cannot be read, and
  /// ClangDiagnostics when Clang could not read it to the end (a fatal error, such as a missing
  /// #include, or an error before the parse). Other errors are kept: has_errors(), notes_for().
  /// When it throws, `files_on_failure` (when given) receives files_read() as far as Clang got.
  explicit ParsedSource(const FrontendOptions& options, std::vector<std::string>* files_on_failure = nullptr);
  ~ParsedSource();
  ParsedSource(const ParsedSource&) = delete;
  ParsedSource& operator=(const ParsedSource&) = delete;

  clang::ASTContext& context() const;
  const std::vector<FoundKernel>& kernels() const { return kernels_; }

  /// Whether Clang reported errors (none of them fatal).
  bool has_errors() const;
  /// Clang's text of every error, with its notes, as Clang printed it (no trailing newline).
  std::string all_errors() const;
  /// The first of them, structured.
  FirstClangError first_error() const;
  /// Judges the errors against `kernel` (a definition; see reach.hpp): throws ClangDiagnostics
  /// with Clang's text of those in its reach, or of all of them when the kernel reaches a
  /// declaration Clang marked invalid; otherwise returns one line per error, "FILE:LINE:COL: error
  /// in host code the kernel does not reach (main): <Clang's message>", in Clang's order.
  std::vector<std::string> notes_for(const FoundKernel& kernel) const;
  /// Every error Clang reported (none of them fatal), in Clang's order.
  std::vector<ClangError> errors() const;

  /// The folders whose system headers declare the CUDA API on the toolkit route (Clang's resource
  /// headers, the toolkit's include folder, warpdiv's forwarding folder), each ending in '/';
  /// empty on the built-in route (the prelude is recognised by its own folder).
  const std::vector<std::string>& api_dirs() const { return api_dirs_; }

  /// Every real file Clang read: the source and whatever it includes, directly or not (warpdiv's
  /// in-memory headers left out), as Clang names them; then the compilation database and the
  /// response files it named. The inputs no output may replace.
  std::vector<std::string> files_read() const;

 private:
  void parse(const FrontendOptions& options);
  struct Clang;
  std::unique_ptr<Clang> clang_;
  std::vector<FoundKernel> kernels_;
  std::vector<std::string> api_dirs_;
  std::vector<std::string> database_files_;  // compile_commands.json, then its response files
};

}  // namespace warpdiv::frontend::detail
