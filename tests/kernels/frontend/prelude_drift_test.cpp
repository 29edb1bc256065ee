// The prelude (kernels/frontend/prelude*.cuh) against the CUDA Toolkit's headers, so that the two
// cannot drift apart: for every function the prelude declares and the toolkit also declares (by
// qualified name), the toolkit must have an overload with the same number of parameters and the
// same return and parameter types, compared after typedefs (Clang's canonical types; top-level
// const and exception specifications do not count, nor __host__/__device__, nor default arguments).
// A function the toolkit does not declare at all must be one this file lists as removed from the
// toolkit (declared as CUDA 11 did) or as warpdiv's own; legacy texture-reference overloads are
// checked only against a toolkit that still declares texture<> (CUDA 11 and older).
//
// The toolkit is read as nvcc's host pass reads it (declarations.hpp: C++17 with __CUDACC__), from
// $WARPDIV_CUDA_INCLUDE or /usr/local/cuda/include; without one the test skips with the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include "kernels/frontend/declarations.hpp"

namespace {

namespace fs = std::filesystem;
using warpdiv::frontend::detail::FunctionSignature;

std::string toolkit_include() {
  const char* dir = std::getenv("WARPDIV_CUDA_INCLUDE");
  return dir != nullptr && *dir != '\0' ? dir : "/usr/local/cuda/include";
}

/// What the prelude declares that a current toolkit may not: removed from the runtime API
/// (CUDA 12 and 13 dropped them; old code calls them), or not the toolkit's at all.
const std::map<std::string, std::string>& not_in_every_toolkit() {
  static const std::map<std::string, std::string> names = {
      {"cudaThreadSynchronize", "removed in CUDA 13"},
      {"cudaThreadExit", "removed in CUDA 13"},
      {"cudaThreadSetLimit", "removed in CUDA 13"},
      {"cudaThreadGetLimit", "removed in CUDA 13"},
      {"cudaThreadSetCacheConfig", "removed in CUDA 13"},
      {"cudaThreadGetCacheConfig", "removed in CUDA 13"},
      {"cudaSetDoubleForDevice", "removed in CUDA 12"},
      {"cudaSetDoubleForHost", "removed in CUDA 12"},
      {"cudaLaunch", "removed in CUDA 10"},
      {"cudaSetupArgument", "removed in CUDA 10"},
      {"cudaConfigureCall", "removed in CUDA 10; what Clang's Sema calls for <<<...>>>"},
      {"cudaBindTexture", "legacy texture reference, removed in CUDA 12"},
      {"cudaBindTexture2D", "legacy texture reference, removed in CUDA 12"},
      {"cudaBindTextureToArray", "legacy texture reference, removed in CUDA 12"},
      {"cudaBindTextureToMipmappedArray", "legacy texture reference, removed in CUDA 12"},
      {"cudaUnbindTexture", "legacy texture reference, removed in CUDA 12"},
      {"cudaGetTextureAlignmentOffset", "legacy texture reference, removed in CUDA 12"},
      {"cudaGetTextureReference", "legacy texture reference, removed in CUDA 12"},
      {"cudaBindSurfaceToArray", "legacy surface reference, removed in CUDA 12"},
      {"cudaGetSurfaceReference", "legacy surface reference, removed in CUDA 12"},
      {"__cudaPushCallConfiguration", "what Clang's Sema calls for <<<...>>> (CUDA 9+ ABI)"},
      {"printf", "crt/common_functions.h declares it only for device code (__CUDA_ARCH__)"},
      {"malloc", "crt/common_functions.h declares it only for device code (__CUDA_ARCH__)"},
      {"free", "crt/common_functions.h declares it only for device code (__CUDA_ARCH__)"},
      {"__assert_fail", "glibc's, declared for device code (assert() expands to it)"},
      {"rint", "math_functions.h leaves rint(double) out of the host pass it is read as"},
  };
  return names;
}

bool legacy_reference_overload(const FunctionSignature& f) {
  for (const auto& param : f.params)
    if (param.find("texture<") != std::string::npos || param.find("surface<") != std::string::npos)
      return true;
  return false;
}

TEST(PreludeDriftTest, EveryPreludeFunctionTheToolkitDeclaresHasTheToolkitsSignature) {
  const std::string include = toolkit_include();
  if (!fs::exists(fs::path(include) / "cuda_runtime_api.h"))
    GTEST_SKIP() << "no CUDA Toolkit headers at " << include
                 << " (set WARPDIV_CUDA_INCLUDE to check the prelude against one)";

  std::vector<std::string> errors;
  const std::vector<FunctionSignature> toolkit = warpdiv::frontend::detail::header_functions(
      include, "#include <cuda_runtime.h>\n#include <cuda_profiler_api.h>\n", &errors);
  std::map<std::string, std::set<std::string>> declared;  // qualified name -> signatures
  bool toolkit_has_texture_references = false;
  for (const auto& f : toolkit) {
    declared[f.qualified].insert(f.signature());
    toolkit_has_texture_references = toolkit_has_texture_references || legacy_reference_overload(f);
  }
  // A parse that went wrong would make every comparison vacuous.
  ASSERT_TRUE(declared.count("cudaMalloc") && declared.count("sinf") && declared.count("__shfl_sync") &&
              declared.count("tex1Dfetch") && declared.count("atomicAdd"))
      << "the toolkit's headers did not parse as expected; Clang said:\n"
      << (errors.empty() ? std::string("(nothing)") : errors.front());

  const std::vector<FunctionSignature> prelude = warpdiv::frontend::detail::prelude_functions();
  ASSERT_GT(prelude.size(), 1000u);
  std::size_t checked = 0;
  std::set<std::string> absent, legacy;
  std::string failures;
  for (const auto& f : prelude) {
    const auto found = declared.find(f.qualified);
    if (found == declared.end()) {
      if (not_in_every_toolkit().count(f.qualified) != 0) {
        absent.insert(f.qualified);
      } else {
        failures += "  " + f.qualified + " " + f.signature() + " (prelude line " + std::to_string(f.line) +
                    "): the toolkit does not declare it; a typo, or list it in "
                    "not_in_every_toolkit() with the reason\n";
      }
      continue;
    }
    if (legacy_reference_overload(f) && !toolkit_has_texture_references) {
      legacy.insert(f.qualified);
      continue;
    }
    ++checked;
    if (found->second.count(f.signature()) != 0) continue;
    failures += "  " + f.qualified + " " + f.signature() + " (prelude line " + std::to_string(f.line) +
                "); the toolkit declares:";
    for (const auto& s : found->second) failures += "\n      " + s;
    failures += "\n";
  }
  EXPECT_TRUE(failures.empty()) << "prelude declarations that differ from " << include << ":\n" << failures;

  std::cout << "checked " << checked << " prelude declarations against " << toolkit.size()
            << " declarations of " << include << " (Clang reported " << errors.size()
            << " errors in the toolkit's headers, e.g. libstdc++ conflicts)\n";
  std::string names;
  for (const auto& name : absent) names += " " + name;
  std::cout << "not in this toolkit (" << absent.size() << "):" << names << "\n";
  names.clear();
  for (const auto& name : legacy) names += " " + name;
  std::cout << "legacy texture/surface-reference overloads, not in this toolkit (" << legacy.size()
            << "):" << names << "\n";
}

}  // namespace
