// The GPU flags shared by `warpdiv occupancy`, `analyze` and `sweep`: --gpu NAME (or list),
// --gpu-file FILE, --regs R, and where the default presets file (gpus.csv) is found.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "analysis/occupancy.hpp"
#include "tools/cli/requests.hpp"

namespace warpdiv::cli {

namespace gpu_flags {
constexpr std::int64_t kMaxRegs = 1024;  // more than any GPU allows: such a launch cannot run (0 blocks)
}  // namespace gpu_flags

/// The presets file used without --gpu-file: gpus.csv beside the binary, else data/gpus.csv
/// beside it, else the source tree's data/gpus.csv (compiled in). Throws InvalidInput naming the
/// places looked at when none exists.
std::string default_gpu_file();
/// Where default_gpu_file() looks, in order (each an input no output may replace).
std::vector<std::string> gpu_file_candidates();

struct GpuCatalogue {
  std::string file;
  std::vector<analysis::GpuSpec> gpus;
};

/// Adds --gpu, --gpu-file and --regs.
void add_gpu_options(boost::program_options::options_description& options);

/// --gpu, --gpu-file and --regs as given, --regs parsed (0 .. 1024).
GpuRequest gpu_request(const boost::program_options::variables_map& vm);
/// True with `--gpu list` (any case), after refusing every other flag but --gpu-file, named,
/// since a listing would ignore it; `gpu` then holds --gpu-file. Check it first, before the
/// command checks its own flags.
bool gpu_list_asked(const boost::program_options::variables_map& vm, GpuRequest& gpu);

/// Loads --gpu-file FILE or the default file.
GpuCatalogue load_gpu_catalogue(const GpuRequest& gpu);
/// The preset --gpu NAME names (InvalidInput naming the presets when none does).
analysis::GpuSpec find_requested_gpu(const GpuRequest& gpu);
/// `--gpu list`: the presets of --gpu-file FILE or the default file.
void list_gpus(std::ostream& out, const GpuRequest& gpu);

}  // namespace warpdiv::cli
