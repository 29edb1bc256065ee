// The prelude and the stub headers the front-end gives Clang, from memory (no file beside the
// binary).
#pragma once

namespace warpdiv::frontend::detail {

/// prelude.cuh's text (compiled in by CMake: prelude_text.cpp.in).
extern const char* const kPreludeText;
/// cooperative_groups.cuh's text: what <cooperative_groups.h> holds for Clang.
extern const char* const kCooperativeGroupsText;

/// Where Clang sees them: a virtual folder no real file system has.
constexpr const char* kPreludePath = "/__warpdiv__/prelude.cuh";
constexpr const char* kStubIncludeDir = "/__warpdiv__/include";
/// Every built-in header lives under this folder (the front-end recognises their declarations).
constexpr const char* kBuiltinDir = "/__warpdiv__/";
/// <cooperative_groups.h> (kCooperativeGroupsText) and the headers of its parts, which include it.
constexpr const char* kCooperativeGroupsHeader = "cooperative_groups.h";
constexpr const char* kCooperativeGroupsParts[] = {"cooperative_groups/reduce.h", "cooperative_groups/scan.h",
                                                   "cooperative_groups/memcpy_async.h"};
/// Headers that a CUDA file includes and the prelude already covers: empty stubs.
constexpr const char* kStubHeaders[] = {
    "cuda_runtime.h",     "cuda_runtime_api.h",        "cuda.h",         "device_launch_parameters.h",
    "device_functions.h", "cuda_device_runtime_api.h", "vector_types.h", "cuda_profiler_api.h"};

}  // namespace warpdiv::frontend::detail
