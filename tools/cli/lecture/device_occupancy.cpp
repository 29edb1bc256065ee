#include "tools/cli/lecture/device_occupancy.hpp"

#include <string>

namespace warpdiv::cli {

analysis::GpuSpec device_spec(const kernels::DeviceInfo& d) {
  analysis::DeviceProperties p;
  p.name = d.name;
  p.major = d.compute_major;
  p.minor = d.compute_minor;
  p.multiProcessorCount = d.multiprocessors;
  p.warpSize = d.warp_size;
  p.maxThreadsPerBlock = d.max_threads_per_block;
  p.maxThreadsPerMultiProcessor = d.max_threads_per_multiprocessor;
  p.maxBlocksPerMultiProcessor = d.max_blocks_per_multiprocessor;
  p.regsPerBlock = d.registers_per_block;
  p.regsPerMultiprocessor = d.registers_per_multiprocessor;
  p.sharedMemPerBlock = static_cast<std::int64_t>(d.shared_memory_per_block);
  p.sharedMemPerBlockOptin = static_cast<std::int64_t>(d.shared_memory_per_block_optin);
  p.sharedMemPerMultiprocessor = static_cast<std::int64_t>(d.shared_memory_per_multiprocessor);
  p.reservedSharedMemPerBlock = static_cast<std::int64_t>(d.reserved_shared_memory_per_block);
  return analysis::spec_from_device(p);
}

analysis::OccupancyFigures occupancy_both_ways(const analysis::GpuSpec& gpu,
                                               const kernels::KernelResources& r, int tile) {
  analysis::OccupancyFigures o;
  o.registers_per_thread = r.registers_per_thread;
  o.static_shared_bytes = r.static_shared_bytes;
  o.runtime_blocks_per_sm = r.blocks_per_multiprocessor;
  analysis::LaunchResources launch;
  launch.threads_per_block = static_cast<std::int64_t>(tile) * tile;
  launch.registers_per_thread = r.registers_per_thread;
  launch.static_shared_bytes = static_cast<std::int64_t>(r.static_shared_bytes);
  launch.dynamic_shared_bytes = 0;
  launch.barriers_per_block = 1;  // __syncthreads() only
  const analysis::OccupancyResult c = analysis::compute_occupancy(gpu, launch);
  o.calculator_blocks_per_sm = c.active_blocks;
  for (analysis::Limiter l : c.limiters)
    o.calculator_limit += (o.calculator_limit.empty() ? "" : "+") + std::string(analysis::limiter_name(l));
  o.warps_per_block = c.warps_per_block;
  o.max_warps_per_sm = gpu.max_warps_per_sm;
  return o;
}

}  // namespace warpdiv::cli
