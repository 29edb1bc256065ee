// Every CUDA runtime call and launch goes through these, so a failure becomes a CudaError naming
// the call, the error and the place instead of a silent wrong answer.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "kernels/device.hpp"

namespace warpdiv::kernels::detail {

inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  throw CudaError(std::string("CUDA error ") + cudaGetErrorName(status) + " (" +
                  cudaGetErrorString(status) + ") in " + call + " at " + file + ":" +
                  std::to_string(line));
}

}  // namespace warpdiv::kernels::detail

/// Checks one runtime call: WARPDIV_CUDA(cudaMalloc(&p, bytes));
#define WARPDIV_CUDA(call) ::warpdiv::kernels::detail::check_cuda((call), #call, __FILE__, __LINE__)

/// Checks the launch just made (bad configuration, too many resources): call right after <<<>>>.
#define WARPDIV_CUDA_LAUNCH(kernel) \
  ::warpdiv::kernels::detail::check_cuda(cudaGetLastError(), "launch of " kernel, __FILE__, __LINE__)
