// Internal to the front-end (used by tests only): the functions that a header set declares, as
// plain data, so that the prelude can be checked against the CUDA Toolkit's headers
// (tests/kernels/frontend/prelude_drift_test.cpp). No Clang type crosses this header.
#pragma once

#include <string>
#include <vector>

namespace warpdiv::frontend::detail {

/// One declaration of a function (or function template). Types are canonical, as Clang prints
/// them with typedefs resolved and without tag keywords: "unsigned long" for size_t, "cudaError"
/// for cudaError_t, "float4", "type-parameter-0-0" for a template's first type parameter.
/// Top-level const on parameters is dropped (it is not part of the function's type).
struct FunctionSignature {
  std::string name;                 // unqualified: "sinf", "cudaMalloc"
  std::string qualified;            // "std::sin", "cudaMalloc"
  std::string result;               // the return type
  std::vector<std::string> params;  // the parameter types
  bool variadic = false;            // (...)
  int template_params = 0;          // the number of template parameters (0: not a template)
  std::string file;                 // the file that declares it, as Clang names it
  int line = 0;

  /// "template<1> float (float, int)": how the test prints and compares signatures.
  std::string signature() const;
};

/// The free functions the front-end's prelude declares (member functions left out), parsed
/// exactly as load_kernel parses a file (an empty one, written under the temporary directory).
/// Throws ClangDiagnostics when the prelude does not parse.
std::vector<FunctionSignature> prelude_functions();

/// The free functions that the files under `include_dir` declare when `source` (text, e.g.
/// "#include <cuda_runtime.h>") is parsed the way nvcc's host pass sees it: as C++17 with
/// __CUDACC__, __NVCC__ and __CUDACC_VER_MAJOR__ defined and -I include_dir, so that the device
/// declarations (math API, intrinsics, atomics, textures) are declared as plain functions.
/// The toolkit's headers are written for nvcc's front-end: Clang reports a few errors on them
/// (e.g. math_functions.h redeclaring libstdc++'s constexpr std::abs(float) without constexpr);
/// those are returned in *errors, one line each, and the declarations are still listed.
std::vector<FunctionSignature> header_functions(const std::string& include_dir, const std::string& source,
                                                std::vector<std::string>* errors);

}  // namespace warpdiv::frontend::detail
