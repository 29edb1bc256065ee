// The GPU flags shared by `warpdiv occupancy`, `analyze` and `sweep`: --gpu NAME (or list),
// --gpu-file FILE, --regs R, and where the default presets file (gpus.csv) is found.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "analysis/occupancy.hpp"

namespace warpdiv::cli {

namespace gpu_flags {
constexpr std::int64_t kMaxRegs = 1024;  // more than any GPU allows: such a launch cannot run (0 blocks)
}  // namespace gpu_flags

/// The presets file used without --gpu-file: gpus.csv beside the binary, else data/gpus.csv
/// beside it, else the source tree's data/gpus.csv (compiled in). Throws InvalidInput naming the
/// places looked at when none exists.
std::string default_gpu_file();

struct GpuCatalogue {
  std::string file;
  std::vector<analysis::GpuSpec> gpus;
};

/// Adds --gpu, --gpu-file and --regs.
void add_gpu_options(boost::program_options::options_description& options);

/// Loads --gpu-file FILE or the default file.
GpuCatalogue load_gpu_catalogue(const boost::program_options::variables_map& vm);

/// With `--gpu list` (any case): prints the presets of --gpu-file FILE or the default file and
/// returns true; every other flag is refused, named, since a listing would ignore it. Without it,
/// returns false. Call first, before the command checks its own flags.
bool list_gpus_if_asked(const boost::program_options::variables_map& vm, std::ostream& out);

/// --regs R (0 .. 1024), default 32.
int registers_from(const boost::program_options::variables_map& vm);

/// The tiled kernel's launch on the --gpu preset and its occupancy.
struct TiledOccupancy {
  analysis::GpuSpec gpu;
  analysis::LaunchResources launch;
  analysis::OccupancyResult result;
};

/// With --gpu NAME, the occupancy of the tiled kernel's launch (T*T threads, 2*T*T*4 bytes of
/// static shared memory, --regs); without --gpu, nothing (and --regs or --gpu-file alone are
/// refused). Call before the work, so that a bad GPU flag is refused first.
std::optional<TiledOccupancy> tiled_occupancy(const boost::program_options::variables_map& vm,
                                              int tile, int warp_size);

}  // namespace warpdiv::cli
