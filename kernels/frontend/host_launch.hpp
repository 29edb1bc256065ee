// Internal to the front-end (includes Clang through its .cpp): the launches of a kernel written in
// the file's host code, `kernel<<<grid, block, shared>>>(args)`, with the values computable from
// constants and integer locals (frontend.hpp's HostLaunch).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "kernels/frontend/clang_parse.hpp"
#include "kernels/frontend/frontend.hpp"

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace warpdiv::frontend::detail {

/// Every launch of `kernel` (a definition; a template's instantiation) in a host function of the
/// file (outside system headers), in source order. Never throws for what it cannot compute: such a
/// value is HostValue::known false with the reason. `errors`: Clang's (ParsedSource::errors); a
/// value computed from an expression holding one is HostValue::refused. From `options`:
/// host_arguments, host_grid and host_block.
std::vector<HostLaunch> find_host_launches(const clang::FunctionDecl& kernel, clang::ASTContext& context,
                                           const std::vector<ClangError>& errors,
                                           const FrontendOptions& options);

}  // namespace warpdiv::frontend::detail
