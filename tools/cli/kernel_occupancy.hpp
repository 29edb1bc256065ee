// The occupancy of a real kernel: its registers and static shared memory compiled for the --gpu
// preset's architecture (kernels/compiled_resources.hpp), unless --regs / --smem give them.
// Shared by `warpdiv occupancy FILE.cu` and `warpdiv analyze FILE.cu --gpu NAME`.
#pragma once

#include <cstdint>

#include <boost/program_options.hpp>

#include "analysis/occupancy.hpp"
#include "analysis/occupancy_report.hpp"
#include "kernels/compiled_resources.hpp"

namespace warpdiv::cli {

struct KernelOccupancy {
  analysis::GpuSpec gpu;
  analysis::LaunchResources launch;
  analysis::ResourceOrigins origins;
  analysis::OccupancyResult result;
};

/// `launch` (its block size, dynamic shared memory, carveout) of request's kernel on `gpu`, with
/// --regs R and --smem BYTES (flags of `vm`) where given and the compiled registers, static shared
/// memory and barriers for the others (request's architecture is set from
/// gpu's compute capability; nothing is compiled when both flags are given). Throws what
/// kernels::compile_resources throws.
KernelOccupancy kernel_occupancy(const boost::program_options::variables_map& vm,
                                 const analysis::GpuSpec& gpu, kernels::CompileRequest request,
                                 const analysis::LaunchResources& launch);

/// --smem BYTES: 0 .. 1073741824.
std::int64_t static_shared_from(const boost::program_options::variables_map& vm);

}  // namespace warpdiv::cli
