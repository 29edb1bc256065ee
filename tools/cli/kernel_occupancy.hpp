// The occupancy of a real kernel: its registers and static shared memory compiled for the --gpu
// preset's architecture (kernels/compiled_resources.hpp), unless --regs / --smem give them.
// Shared by `warpdiv occupancy FILE.cu` and `warpdiv analyze FILE.cu --gpu NAME`.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/occupancy.hpp"
#include "analysis/occupancy_report.hpp"
#include "kernels/compiled_resources.hpp"

namespace warpdiv::cli {

struct KernelOccupancy {
  analysis::GpuSpec gpu;
  analysis::LaunchResources launch;
  analysis::ResourceOrigins origins;
  analysis::OccupancyResult result;
  std::vector<std::string> files_read;  // what the compiler read (none when nothing was compiled)
  std::string compiler_file;            // the compiler run (nvcc, NVRTC's library), "" for none
};

/// `launch` (its block size, dynamic shared memory, carveout) of request's kernel on `gpu`, with
/// `registers` (--regs) and `static_shared` (--smem) where given and the compiled registers,
/// static shared memory and barriers for the others (request's architecture is set from gpu's
/// compute capability; nothing is compiled when both are given). Throws what
/// kernels::compile_resources throws.
KernelOccupancy kernel_occupancy(const analysis::GpuSpec& gpu, kernels::CompileRequest request,
                                 const analysis::LaunchResources& launch, std::optional<int> registers,
                                 std::optional<std::int64_t> static_shared);

/// --smem BYTES: 0 .. 1073741824.
std::optional<std::int64_t> static_shared_from(const boost::program_options::variables_map& vm);

}  // namespace warpdiv::cli
