// Internal to the front-end (includes Clang): one parsed source file whose AST stays alive until the
// object is destroyed, and the __global__ functions found in it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/frontend/frontend.hpp"

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace warpdiv::frontend::detail {

struct FoundKernel {
  KernelInfo info;
  const clang::FunctionDecl* decl = nullptr;  // the definition (an instantiation for templates)
};

class ParsedSource {
 public:
  /// Runs Clang on options.file; throws ClangDiagnostics or InvalidInput (see frontend.hpp).
  explicit ParsedSource(const FrontendOptions& options);
  ~ParsedSource();
  ParsedSource(const ParsedSource&) = delete;
  ParsedSource& operator=(const ParsedSource&) = delete;

  clang::ASTContext& context() const;
  const std::vector<FoundKernel>& kernels() const { return kernels_; }

 private:
  struct Clang;
  std::unique_ptr<Clang> clang_;
  std::vector<FoundKernel> kernels_;
};

}  // namespace warpdiv::frontend::detail
