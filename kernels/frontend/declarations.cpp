// Lists the free functions a translation unit declares, with canonical types (see declarations.hpp).
#include "kernels/frontend/declarations.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "kernels/frontend/clang_parse.hpp"
#include "kernels/frontend/prelude_text.hpp"

namespace warpdiv::frontend::detail {
namespace {

/// Collects free functions (and function templates' patterns) whose file passes `keep`.
class FunctionLister : public clang::RecursiveASTVisitor<FunctionLister> {
 public:
  FunctionLister(clang::ASTContext& context, std::function<bool(const std::string&)> keep)
      : context_(context), policy_(context.getPrintingPolicy()), keep_(std::move(keep)) {
    policy_.SuppressTagKeyword = true;
    policy_.PrintCanonicalTypes = true;
  }

  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (function->isImplicit() || llvm::isa<clang::CXXMethodDecl>(function)) return true;
    if (function->isFunctionTemplateSpecialization()) return true;  // explicit specialisations
    const auto& sources = context_.getSourceManager();
    const clang::SourceLocation loc = sources.getExpansionLoc(function->getLocation());
    const std::string file = sources.getFilename(loc).str();
    if (!keep_(file)) return true;
    const auto* type = function->getType()->getAs<clang::FunctionProtoType>();
    if (type == nullptr) return true;  // a K&R declaration: none in C++
    FunctionSignature signature;
    signature.name = function->getNameAsString();
    signature.qualified = function->getQualifiedNameAsString();
    signature.result = canonical(type->getReturnType());
    for (const clang::QualType param : type->getParamTypes()) signature.params.push_back(canonical(param));
    signature.variadic = type->isVariadic();
    if (const auto* pattern = function->getDescribedFunctionTemplate())
      signature.template_params = static_cast<int>(pattern->getTemplateParameters()->size());
    signature.file = file;
    signature.line = static_cast<int>(sources.getSpellingLineNumber(loc));
    found.push_back(std::move(signature));
    return true;
  }

  std::vector<FunctionSignature> found;

 private:
  std::string canonical(clang::QualType type) const {
    return type.getCanonicalType().getUnqualifiedType().getAsString(policy_);
  }

  clang::ASTContext& context_;
  clang::PrintingPolicy policy_;
  std::function<bool(const std::string&)> keep_;
};

/// Errors as one line each: "FILE:LINE: message".
class ErrorCollector : public clang::DiagnosticConsumer {
 public:
  explicit ErrorCollector(std::vector<std::string>* errors) : errors_(errors) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error || errors_ == nullptr) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    std::string where;
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const auto presumed = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (presumed.isValid())
        where = std::string(presumed.getFilename()) + ":" + std::to_string(presumed.getLine()) + ": ";
    }
    errors_->push_back(where + message.str().str());
  }

 private:
  std::vector<std::string>* errors_;
};

}  // namespace

std::string FunctionSignature::signature() const {
  std::string text;
  if (template_params > 0) text = "template<" + std::to_string(template_params) + "> ";
  text += result + " (";
  for (std::size_t i = 0; i < params.size(); ++i) text += (i == 0 ? "" : ", ") + params[i];
  if (variadic) text += params.empty() ? "..." : ", ...";
  return text + ")";
}

std::vector<FunctionSignature> prelude_functions() {
  namespace fs = std::filesystem;
  const fs::path file = fs::temp_directory_path() / ("warpdiv_prelude_" + std::to_string(::getpid()) + ".cu");
  std::ofstream(file) << "// empty: the prelude's declarations only\n";
  FrontendOptions options;
  options.file = file.string();
  std::vector<FunctionSignature> found;
  try {
    const ParsedSource source(options);
    FunctionLister lister(source.context(), [](const std::string& name) { return name == kPreludePath; });
    lister.TraverseDecl(source.context().getTranslationUnitDecl());
    found = std::move(lister.found);
  } catch (...) {
    fs::remove(file);
    throw;
  }
  fs::remove(file);
  return found;
}

std::vector<FunctionSignature> header_functions(const std::string& include_dir, const std::string& source,
                                                std::vector<std::string>* errors) {
  const std::vector<std::string> args = {"-x",
                                         "c++",
                                         "-std=c++17",
                                         "-fsyntax-only",
                                         "-w",
                                         "-ferror-limit=0",
                                         "-resource-dir",
                                         WARPDIV_CLANG_RESOURCE_DIR,
                                         "-D__CUDACC__",
                                         "-D__NVCC__",
                                         "-D__CUDACC_VER_MAJOR__=13",
                                         "-D__CUDACC_VER_MINOR__=0",
                                         "-D__CUDACC_VER_BUILD__=0",
                                         "-I" + include_dir};
  ErrorCollector collector(errors);
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(
      source, args, "warpdiv_toolkit_declarations.cpp", WARPDIV_CLANG_EXECUTABLE,
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), clang::tooling::FileContentMappings(),
      &collector);
  if (!unit) {
    if (errors != nullptr) errors->push_back("Clang could not parse the headers");
    return {};
  }
  std::string prefix = include_dir;
  if (!prefix.empty() && prefix.back() != '/') prefix += '/';
  FunctionLister lister(unit->getASTContext(), [&prefix](const std::string& name) {
    return name.compare(0, prefix.size(), prefix) == 0;
  });
  lister.TraverseDecl(unit->getASTContext().getTranslationUnitDecl());
  return std::move(lister.found);
}

}  // namespace warpdiv::frontend::detail
