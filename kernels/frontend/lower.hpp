// Internal to the front-end: lowers a __global__ function's AST to the kernel model.
#pragma once

#include <string>
#include <vector>

#include "sim/model/ir.hpp"

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace warpdiv::frontend::detail {

/// The kernel's model, named `name`; files[0] is the file holding the kernel's definition.
/// Throws InvalidInput "FILE:LINE:COL: <construct> is not supported: <why>" for what the model
/// cannot represent. Does not validate() (the caller does).
sim::ir::Kernel lower_kernel(const clang::FunctionDecl& kernel, clang::ASTContext& context,
                             const std::string& name, const std::vector<std::string>& api_dirs = {});

}  // namespace warpdiv::frontend::detail
