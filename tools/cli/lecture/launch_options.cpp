#include "tools/cli/lecture/launch_options.hpp"

#include <string>

#include "sim/support/errors.hpp"
#include "tools/cli/gpu_options.hpp"
#include "tools/cli/options.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

void add_launch_options(po::options_description& options) {
  options.add_options()("width", po::value<std::string>()->value_name("W"),
                        "square matrices: J = K = L = W (1 .. 2147483647; default 100)")(
      "rows", po::value<std::string>()->value_name("J"),
      "rows of M and P, 1 .. 2147483647 (with --inner, --cols)")(
      "inner", po::value<std::string>()->value_name("K"), "columns of M = rows of N, 1 .. 2147483647")(
      "cols", po::value<std::string>()->value_name("L"), "columns of N and P, 1 .. 2147483647")(
      "tile", po::value<std::string>()->value_name("T"), "tile width, blockDim (T, T): 1 .. 32 (default 16)")(
      "warp-size", po::value<std::string>()->value_name("S"),
      "warp size, a power of two 1 .. 64 (default 32)");
}

lecture::LaunchConfig launch_from(const po::variables_map& vm) {
  namespace lim = lecture::limits;
  lecture::LaunchConfig config;
  const bool any_shape = has(vm, "rows") || has(vm, "inner") || has(vm, "cols");
  if (has(vm, "width")) {
    if (any_shape)
      throw InvalidInput(Diag::flag_usage, "--width cannot be combined with --rows, --inner or --cols");
    const auto w = parse_integer("--width", get(vm, "width"), lim::kMinSize, lim::kMaxSize);
    config.rows = config.inner = config.cols = w;
  } else if (any_shape) {
    if (!(has(vm, "rows") && has(vm, "inner") && has(vm, "cols")))
      throw InvalidInput(Diag::flag_usage,
                         "--rows, --inner and --cols must be given together (or use --width)");
    config.rows = parse_integer("--rows", get(vm, "rows"), lim::kMinSize, lim::kMaxSize);
    config.inner = parse_integer("--inner", get(vm, "inner"), lim::kMinSize, lim::kMaxSize);
    config.cols = parse_integer("--cols", get(vm, "cols"), lim::kMinSize, lim::kMaxSize);
  }
  if (has(vm, "tile"))
    config.tile = static_cast<int>(parse_integer("--tile", get(vm, "tile"), lim::kMinTile, lim::kMaxTile));
  if (has(vm, "warp-size")) config.warp_size = parse_warp_size("--warp-size", get(vm, "warp-size"));
  lecture::validate(config);
  return config;
}

GpuRequest tiled_gpu_request(const po::variables_map& vm) {
  if (!has(vm, "gpu") && (has(vm, "regs") || has(vm, "gpu-file")))
    throw InvalidInput(Diag::flag_usage, "--regs and --gpu-file need --gpu NAME");
  return gpu_request(vm);
}

std::optional<TiledOccupancy> tiled_occupancy(const GpuRequest& request, int tile, int warp_size) {
  if (request.name.empty()) return std::nullopt;
  const analysis::GpuSpec gpu = find_requested_gpu(request);
  if (gpu.warp_size != warp_size)
    throw InvalidInput(Diag::flag_usage, "--warp-size " + std::to_string(warp_size) +
                                             " differs from the warp size " + std::to_string(gpu.warp_size) +
                                             " of --gpu " + gpu.name);
  const analysis::LaunchResources launch = analysis::tiled_kernel_launch(
      tile, request.registers.value_or(analysis::occupancy_limits::kDefaultRegistersPerThread));
  return TiledOccupancy{gpu, launch, analysis::compute_occupancy(gpu, launch)};
}

}  // namespace warpdiv::cli
