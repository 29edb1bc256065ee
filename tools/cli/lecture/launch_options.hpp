// The lecture's launch flags and its GPU flags, shared by its forms of analyze, sweep, validate
// and ncu-check.
#pragma once

#include <optional>

#include <boost/program_options.hpp>

#include "analysis/lecture/launch.hpp"
#include "analysis/occupancy.hpp"
#include "tools/cli/requests.hpp"

namespace warpdiv::cli {

/// Adds --width, --rows, --inner, --cols, --tile, --warp-size (the launch being modelled).
void add_launch_options(boost::program_options::options_description& options);

/// The launch from those flags: --width W sets J = K = L = W and excludes the other three, which
/// must be given together. Defaults: W = 100, T = 16, S = 32.
lecture::LaunchConfig launch_from(const boost::program_options::variables_map& vm);

/// The GPU flags of the lecture's commands: --regs and --gpu-file are refused without --gpu NAME.
GpuRequest tiled_gpu_request(const boost::program_options::variables_map& vm);

/// The tiled kernel's launch on the --gpu preset and its occupancy.
struct TiledOccupancy {
  analysis::GpuSpec gpu;
  analysis::LaunchResources launch;
  analysis::OccupancyResult result;
};

/// With --gpu NAME, the occupancy of the tiled kernel's launch (T*T threads, 2*T*T*4 bytes of
/// static shared memory, --regs, default 32) on that preset, whose warp size must be
/// `warp_size`; without --gpu, nothing. Call before the work, so that a bad GPU is refused first.
std::optional<TiledOccupancy> tiled_occupancy(const GpuRequest& gpu, int tile, int warp_size);

}  // namespace warpdiv::cli
