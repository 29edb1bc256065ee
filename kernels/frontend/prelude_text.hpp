// The prelude and the stub headers the front-end gives Clang, from memory (no file beside the
// binary).
#pragma once

namespace warpdiv::frontend::detail {

/// prelude.cuh's text (compiled in by CMake: prelude_text.cpp.in).
extern const char* const kPreludeText;

/// Where Clang sees them: a virtual folder no real file system has.
constexpr const char* kPreludePath = "/__warpdiv__/prelude.cuh";
constexpr const char* kStubIncludeDir = "/__warpdiv__/include";
/// Headers that a CUDA file includes and the prelude already covers: empty stubs.
constexpr const char* kStubHeaders[] = {"cuda_runtime.h",
                                        "cuda_runtime_api.h",
                                        "cuda.h",
                                        "device_launch_parameters.h",
                                        "device_functions.h",
                                        "cuda_device_runtime_api.h",
                                        "vector_types.h",
                                        "cuda_profiler_api.h"};

}  // namespace warpdiv::frontend::detail
