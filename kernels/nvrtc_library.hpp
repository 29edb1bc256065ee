// NVRTC's C API, opened at run time with dlopen, so that neither the build nor a machine without
// the CUDA Toolkit needs it: one loader for everything that compiles CUDA at run time (the probe
// runner, kernels/probe.cu; the compiled resources of a kernel file, compiled_resources.cpp).
// Plain C++: NVRTC's status is an int (nvrtcResult, NVRTC_SUCCESS = 0), a program a void*.
#pragma once

#include <cstddef>
#include <string>

namespace warpdiv::kernels {

struct NvrtcLibrary {
  using Program = void*;
  int (*version)(int*, int*) = nullptr;
  int (*num_archs)(int*) = nullptr;
  int (*archs)(int*) = nullptr;
  int (*create)(Program*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
  int (*add_name)(Program, const char*) = nullptr;
  int (*compile)(Program, int, const char* const*) = nullptr;
  int (*log_size)(Program, std::size_t*) = nullptr;
  int (*log)(Program, char*) = nullptr;
  int (*lowered_name)(Program, const char*, const char**) = nullptr;
  int (*cubin_size)(Program, std::size_t*) = nullptr;
  int (*cubin)(Program, char*) = nullptr;
  int (*destroy)(Program*) = nullptr;
  const char* (*error)(int) = nullptr;
  std::string path;  // the file opened
};

/// The library, opened once per process: the file WARPDIV_NVRTC names if it is set (and that one
/// alone: InvalidInput naming it when it is not a loadable NVRTC), else libnvrtc.so, .so.13, .so.12
/// on the loader's path, then $CUDA_HOME/lib64, $CUDA_PATH/lib64 and /usr/local/cuda/lib64. Null
/// when none is found or one lacks a function; `why` (if given) then says which.
const NvrtcLibrary* nvrtc_library(std::string* why = nullptr);

}  // namespace warpdiv::kernels
