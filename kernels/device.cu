// GPU 0's properties through the CUDA runtime (kernels/device.hpp).
#include "kernels/device.hpp"

#include <cuda_runtime.h>

#include "kernels/cuda_check.cuh"
#include "sim/support/errors.hpp"

namespace warpdiv::kernels {

namespace {

constexpr int kDevice = 0;

}  // namespace

void open_device() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    // Clear the sticky error so that nothing later reports it again.
    (void)cudaGetLastError();
    throw NoDevice(std::string("no CUDA device or driver (cudaGetDeviceCount: ") +
                   cudaGetErrorName(status) + ", " + cudaGetErrorString(status) + ")");
  }
  if (count == 0) throw NoDevice("no CUDA device (cudaGetDeviceCount found 0 devices)");
  WARPDIV_CUDA(cudaSetDevice(kDevice));
}

bool built_with_cuda() { return true; }

DeviceInfo query_device() {
  open_device();
  cudaDeviceProp prop{};
  WARPDIV_CUDA(cudaGetDeviceProperties(&prop, kDevice));
  DeviceInfo info;
  info.name = prop.name;
  info.compute_major = prop.major;
  info.compute_minor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  info.warp_size = prop.warpSize;
  info.max_threads_per_multiprocessor = prop.maxThreadsPerMultiProcessor;
  info.max_blocks_per_multiprocessor = prop.maxBlocksPerMultiProcessor;
  info.max_threads_per_block = prop.maxThreadsPerBlock;
  info.registers_per_multiprocessor = prop.regsPerMultiprocessor;
  info.registers_per_block = prop.regsPerBlock;
  info.shared_memory_per_multiprocessor = prop.sharedMemPerMultiprocessor;
  info.shared_memory_per_block = prop.sharedMemPerBlock;
  info.shared_memory_per_block_optin = prop.sharedMemPerBlockOptin;
  info.reserved_shared_memory_per_block = prop.reservedSharedMemPerBlock;
  info.global_memory_bytes = prop.totalGlobalMem;
  info.max_grid_x = prop.maxGridSize[0];
  info.max_grid_y = prop.maxGridSize[1];
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  WARPDIV_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  info.free_memory_bytes = free_bytes;
  WARPDIV_CUDA(cudaDriverGetVersion(&info.driver_version));
  WARPDIV_CUDA(cudaRuntimeGetVersion(&info.runtime_version));
  return info;
}

}  // namespace warpdiv::kernels
