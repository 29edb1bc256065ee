// Formatters of an OccupancyResult: a block like Nsight Compute's Occupancy section, and the
// one-row CSV of `warpdiv occupancy --csv`.
#pragma once

#include <ostream>
#include <string>

#include "analysis/occupancy.hpp"

namespace warpdiv::analysis {

/// The fixed CSV header of `warpdiv occupancy --csv`.
constexpr const char* kOccupancyCsvHeader =
    "gpu,threads_per_block,regs_per_thread,smem_per_block,limit_warps,limit_blocks,"
    "limit_registers,limit_shared_mem,active_blocks,active_warps,occupancy_pct,limiter";

/// Header plus one row. smem_per_block is the launch's static + dynamic shared memory (bytes, as
/// asked, before the reserve and rounding); a limit the launch does not reach is "unlimited";
/// occupancy_pct has two decimals; limiter joins the limiting resources with ';'.
void write_occupancy_csv(std::ostream& out, const GpuSpec& gpu, const LaunchResources& launch,
                         const OccupancyResult& result);

/// The readable block: the launch as allocated, each block limit with how it comes about, the
/// active blocks and warps, the theoretical occupancy and the limiter(s), or why it cannot run.
void write_occupancy_text(std::ostream& out, const GpuSpec& gpu, const LaunchResources& launch,
                          const OccupancyResult& result);

/// "8", or "unlimited" for occupancy_limits::kUnlimited.
std::string limit_text(int limit);
/// "registers;warps" (CSV) or "registers, warps" (text) from result.limiters.
std::string limiter_text(const OccupancyResult& result, const std::string& separator);
/// "66.67"
std::string occupancy_text(const OccupancyResult& result);

}  // namespace warpdiv::analysis
