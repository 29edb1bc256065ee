// GPU 0 as warpdiv's GPU paths see it: its properties (DeviceInfo, for the validators and the
// occupancy calculator), whether the build has CUDA, and the error a failed CUDA call becomes.
// Plain C++ header; in a build without nvcc query_device() throws NoDevice ("built without CUDA").
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace warpdiv::kernels {

/// A CUDA runtime call or kernel launch failed: the call, the error's name and text, file:line.
/// (Exit status 1 through the CLI's catch of std::exception.)
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// False in a build without nvcc.
bool built_with_cuda();

/// The properties of GPU 0 that the validator and the occupancy calculator use.
struct DeviceInfo {
  std::string name;  // "NVIDIA H200"
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
  int warp_size = 0;
  int max_threads_per_multiprocessor = 0;
  int max_blocks_per_multiprocessor = 0;
  int max_threads_per_block = 0;
  int registers_per_multiprocessor = 0;  // 32-bit registers
  int registers_per_block = 0;
  std::size_t shared_memory_per_multiprocessor = 0;  // bytes
  std::size_t shared_memory_per_block = 0;           // bytes, without opt-in
  std::size_t shared_memory_per_block_optin = 0;     // bytes
  std::size_t reserved_shared_memory_per_block = 0;  // bytes the driver reserves per block
  std::size_t global_memory_bytes = 0;
  std::size_t free_memory_bytes = 0;  // at the time of the query
  std::int64_t max_grid_x = 0;
  std::int64_t max_grid_y = 0;
  int driver_version = 0;  // 13000 = CUDA 13.0
  int runtime_version = 0;
};

/// Selects GPU 0 for the calls that follow. Throws NoDevice (one line) when there is no CUDA
/// device or driver: the one place that turns that into exit status 3.
void open_device();

/// Opens GPU 0. Throws NoDevice (one line) when there is no CUDA device or driver.
DeviceInfo query_device();

}  // namespace warpdiv::kernels
