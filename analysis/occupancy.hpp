// Theoretical occupancy of one kernel launch on one GPU, the way NVIDIA's occupancy calculator
// (cuda_occupancy.h) and Nsight Compute's Occupancy section work it out: a block limit per SM
// resource (warps, blocks, registers, shared memory, barriers), the smallest of them is the number
// of active blocks per SM, and every resource whose limit equals it is a limiter.
//
// Plain structs, no CUDA types: callers with a real device copy cudaDeviceProp's fields into
// DeviceProperties and call spec_from_device().
#pragma once

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpdiv::analysis {

namespace occupancy_limits {
/// A block limit of a resource the launch does not use (no registers, no shared memory, or a
/// barrier limit the architecture does not have). Never the smallest limit: the warp and block
/// limits are always finite.
constexpr int kUnlimited = INT_MAX;
/// Sanity bounds on what a GPU description or a launch may hold (checked by validate()).
constexpr std::int64_t kMaxBytes = std::int64_t{1} << 40;  // shared memory figures, bytes
constexpr std::int64_t kMaxThreadsPerBlock = 1 << 20;      // a launch's threads per block
constexpr int kMaxRegistersPerThread = 1 << 16;            // a launch's registers per thread
constexpr int kDefaultRegistersPerThread = 32;             // --regs default
}  // namespace occupancy_limits

/// One GPU (or one architecture) as the occupancy calculation needs it. Bytes are bytes, counts
/// are per SM unless the name says per block or per thread.
struct GpuSpec {
  std::string name;         // preset name ("h100"), matched case-insensitively
  std::string description;  // "NVIDIA H100 SXM5 80GB" (free text, may be empty)
  int cc_major = 0;         // compute capability, e.g. 9 . 0
  int cc_minor = 0;
  int sm_count = 0;    // streaming multiprocessors; 0 = unknown (not used by the limits)
  int warp_size = 32;  // threads per warp
  int max_threads_per_block = 0;
  int max_threads_per_sm = 0;
  int max_warps_per_sm = 0;          // max_threads_per_sm / warp_size
  int max_blocks_per_sm = 0;         // resident blocks per SM
  int registers_per_sm = 0;          // 32-bit registers in one SM's register file
  int registers_per_block = 0;       // most registers one block may hold
  int max_registers_per_thread = 0;  // 63 on Fermi, 255 later
  int register_allocation_unit = 0;  // registers; a warp's registers are rounded up to this
  // Registers are allocated per warp (granularity "warp") in the SM's sub-partitions: the register
  // file is split into this many equal parts, each holding whole warps (NVIDIA's calculator calls
  // it the warp allocation granularity: 2 on Fermi and GP100, 4 elsewhere).
  int warp_allocation_granularity = 0;
  std::int64_t shared_memory_per_sm = 0;           // bytes, the largest carveout
  std::int64_t shared_memory_per_block = 0;        // bytes, default per-block limit (48 KB)
  std::int64_t shared_memory_per_block_optin = 0;  // bytes, per-block limit after opting in (cc >= 7.0)
  std::int64_t shared_memory_allocation_unit = 0;  // bytes; a block's shared memory is rounded up to this
  std::int64_t reserved_shared_memory_per_block =
      0;  // bytes the driver adds to every block (1 KB on cc >= 8.0)
  // The shared-memory sizes (bytes, ascending) the SM can be configured to; the last one equals
  // shared_memory_per_sm. One entry where the split is fixed (Maxwell, Pascal).
  std::vector<std::int64_t> shared_memory_carveouts;
  // Block barriers per SM (cc >= 9.0, where NVIDIA's calculator limits blocks by barriers);
  // 0 = no barrier limit on this architecture.
  int barriers_per_sm = 0;
  std::string source;  // where the figures come from (free text)
  // Peak FP32 rate and DRAM bandwidth, for the roofline bound of `analyze` (optional columns
  // peak_fp32_gflops, memory_bandwidth_gbs, rates_source; 0 = unknown).
  double peak_fp32_gflops = 0;
  double memory_bandwidth_gbs = 0;
  std::string rates_source;
};

/// What one block of the launch needs.
struct LaunchResources {
  std::int64_t threads_per_block = 256;
  int registers_per_thread = occupancy_limits::kDefaultRegistersPerThread;
  std::int64_t static_shared_bytes = 0;   // __shared__ arrays, bytes per block
  std::int64_t dynamic_shared_bytes = 0;  // the launch's third <<< >>> argument, bytes per block
  // cudaFuncAttributePreferredSharedMemoryCarveout in percent (0 .. 100) of shared_memory_per_sm;
  // unset = the driver default, which NVIDIA's calculator takes as the largest carveout.
  std::optional<int> carveout_percent;
  int barriers_per_block = 1;  // __syncthreads() uses one block barrier
};

/// The resources that can limit the number of active blocks per SM.
enum class Limiter { warps, registers, shared_memory, blocks, barriers };

/// "warps", "registers", "shared_memory", "blocks", "barriers".
const char* limiter_name(Limiter limiter);

struct OccupancyResult {
  // The launch as allocated.
  int warps_per_block = 0;
  int registers_per_warp = 0;                      // after rounding up to the allocation unit
  std::int64_t registers_per_block = 0;            // registers_per_warp * warps_per_block
  std::int64_t shared_bytes_per_block = 0;         // static + dynamic + reserved, rounded up to the unit
  std::int64_t shared_memory_limit_per_block = 0;  // the per-block limit that applied (reserved included)
  std::int64_t shared_memory_config = 0;           // bytes per SM of the carveout in effect
  // Block limit per resource, kUnlimited where the launch does not use it.
  int limit_warps = 0;
  int limit_blocks = 0;
  int limit_registers = 0;
  int limit_shared_mem = 0;
  int limit_barriers = occupancy_limits::kUnlimited;
  int active_blocks = 0;          // per SM: the smallest limit
  int active_warps = 0;           // per SM
  double occupancy_pct = 0.0;     // active_warps / max_warps_per_sm * 100
  std::vector<Limiter> limiters;  // every resource whose limit equals active_blocks
  std::string reason;             // why the launch cannot run (active_blocks == 0), else empty

  bool can_run() const { return active_blocks > 0; }
};

/// Throws InvalidInput naming the first field that is missing, negative, or inconsistent.
void validate(const GpuSpec& gpu);
void validate(const LaunchResources& launch);

/// The occupancy of `launch` on `gpu`. A launch that cannot run (too many threads, registers or
/// shared memory for one block) is a result with active_blocks == 0 and a reason, not an error;
/// only an invalid GpuSpec or LaunchResources throws (InvalidInput).
OccupancyResult compute_occupancy(const GpuSpec& gpu, const LaunchResources& launch);

/// The launch of the tiled matrix-multiply kernel with tile width T: T*T threads, two T x T float
/// tiles (2*T*T*4 bytes) of static shared memory.
LaunchResources tiled_kernel_launch(int tile, int registers_per_thread);

/// The figures an architecture fixes, from its compute capability (2.0 .. 12.x): granularities,
/// per-thread and per-block maxima, the carveouts, and the typical per-SM figures of that
/// compute capability (a real device's own figures override them, see spec_from_device).
/// name is "cc X.Y", sm_count 0. Throws InvalidInput for an unknown compute capability.
GpuSpec architecture_spec(int cc_major, int cc_minor);

/// cudaDeviceProp's fields that matter, copied by host code that has the CUDA runtime.
struct DeviceProperties {
  std::string name;
  int major = 0;
  int minor = 0;
  int multiProcessorCount = 0;
  int warpSize = 0;
  int maxThreadsPerBlock = 0;
  int maxThreadsPerMultiProcessor = 0;
  int maxBlocksPerMultiProcessor = 0;  // 0 = take the architecture's
  int regsPerBlock = 0;
  int regsPerMultiprocessor = 0;
  std::int64_t sharedMemPerBlock = 0;
  std::int64_t sharedMemPerBlockOptin = 0;
  std::int64_t sharedMemPerMultiprocessor = 0;
  std::int64_t reservedSharedMemPerBlock = 0;
};

/// A GpuSpec for a real device: its reported figures, the architecture's granularities.
GpuSpec spec_from_device(const DeviceProperties& device);

}  // namespace warpdiv::analysis
