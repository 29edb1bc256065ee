// The occupancy calculator fed what GPU 0 and the CUDA runtime report, beside the runtime's own
// answer (cudaOccupancyMaxActiveBlocksPerMultiprocessor): part (c) of `warpdiv validate`.
#pragma once

#include "analysis/occupancy.hpp"
#include "analysis/lecture/validation.hpp"
#include "kernels/lecture/tiled_matmul.hpp"

namespace warpdiv::cli {

/// The calculator's description of the device: its reported figures, the architecture's
/// granularities (analysis::spec_from_device).
analysis::GpuSpec device_spec(const kernels::DeviceInfo& device);

/// Registers and static shared memory from cudaFuncGetAttributes and blocks per SM from the
/// runtime (`runtime`, for blockDim T*T), beside the calculator's blocks per SM for the same
/// figures (no dynamic shared memory, one barrier).
analysis::OccupancyFigures occupancy_both_ways(const analysis::GpuSpec& gpu,
                                               const kernels::KernelResources& runtime, int tile);

}  // namespace warpdiv::cli
