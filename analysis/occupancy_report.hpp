// Formatters of an OccupancyResult: a block like Nsight Compute's Occupancy section, and the
// one-row CSV of `warpdiv occupancy --csv`.
#pragma once

#include <ostream>
#include <string>

#include "analysis/occupancy.hpp"

namespace warpdiv::analysis {

/// Header (gpu,threads_per_block,regs_per_thread,smem_per_block,limit_warps,limit_blocks,
/// limit_registers,limit_shared_mem,active_blocks,active_warps,occupancy_pct,limiter) plus one row.
/// smem_per_block is the launch's static + dynamic shared memory (bytes, as asked, before the reserve and
/// rounding); a limit the launch does not reach is "unlimited"; occupancy_pct has two decimals; limiter joins
/// the limiting resources with ';'.
void write_occupancy_csv(std::ostream& out, const GpuSpec& gpu, const LaunchResources& launch,
                         const OccupancyResult& result);

/// Where a launch's registers and static shared memory come from, for the text block: e.g.
/// "nvcc 13.0 for sm_90 (ptxas)" for a compiled kernel, "--regs" for a flag. Empty: not said.
struct ResourceOrigins {
  std::string registers;
  std::string static_shared;
  std::string kernel;    // what was compiled: "MatrixMulKernel(float*, float*, float*, int)"
  std::string compiled;  // what else the compiler reported: "0 bytes local memory per thread, ..."
};

/// The readable block: the launch as allocated, each block limit with how it comes about, the
/// active blocks and warps, the theoretical occupancy and the limiter(s), or why it cannot run.
/// With origins, the register and shared-memory lines say where their figures come from.
void write_occupancy_text(std::ostream& out, const GpuSpec& gpu, const LaunchResources& launch,
                          const OccupancyResult& result, const ResourceOrigins* origins = nullptr);

/// "8", or "unlimited" for occupancy_limits::kUnlimited.
std::string limit_text(int limit);
/// "registers;warps" (CSV) or "registers, warps" (text) from result.limiters.
std::string limiter_text(const OccupancyResult& result, const std::string& separator);
/// "66.67"
std::string occupancy_text(const OccupancyResult& result);

}  // namespace warpdiv::analysis
