// warpdiv occupancy: the theoretical occupancy of one launch on one GPU preset, Nsight-style.
#include <fstream>
#include <optional>

#include "analysis/gpu_presets.hpp"
#include "analysis/occupancy_report.hpp"
#include "sim/support/errors.hpp"
#include "tools/cli/command_outputs.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gpu_options.hpp"
#include "tools/cli/kernel_occupancy.hpp"
#include "tools/cli/launch_expression.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/requests.hpp"
#include "tools/cli/runs.hpp"
#include "tools/cli/source_kernel.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

namespace {
constexpr std::int64_t kMaxTile = 256;  // 65,536 threads: far past any block limit
constexpr std::int64_t kMaxThreads = 65536;
constexpr std::int64_t kMaxSharedBytes = 1 << 30;  // 1 GiB: far past any per-block limit
constexpr int kDefaultTile = 16;

po::options_description occupancy_options() {
  po::options_description options(
      "warpdiv occupancy: theoretical occupancy of your kernel's launch on a GPU, limit by limit, as\n"
      "NVIDIA's occupancy calculator and Nsight Compute's Occupancy section work it out.\n\n"
      "usage: warpdiv occupancy FILE.cu [--kernel NAME] --block X[,Y[,Z]] --gpu NAME [-D ...] [-I ...]\n"
      "                         [--regs R] [--smem BYTES] [--dynamic-smem BYTES] ...\n"
      "       warpdiv occupancy --gpu NAME [--tile T | --threads N] [--regs R] [--smem BYTES]\n"
      "                         [--dynamic-smem BYTES] [--carveout PCT] [--gpu-file FILE] [--csv FILE]\n"
      "       warpdiv occupancy --gpu list [--gpu-file FILE]\n\n"
      "With FILE.cu the kernel is compiled for the GPU's architecture (nvcc, else NVRTC; no GPU\n"
      "needed) and its registers and static shared memory are read from ptxas's report;\n"
      "--regs and --smem override them.\n\noptions");
  options.add_options()("help,h", "show this help");
  add_gpu_options(options);
  options.add_options()(
      "tile", po::value<std::string>()->value_name("T"),
      "the tiled kernel's launch: T*T threads, 2*T*T*4 bytes static shared memory (1 .. 256; "
      "default 16)")("threads", po::value<std::string>()->value_name("N"), "threads per block (1 .. 65536)")(
      "block", po::value<std::string>()->value_name("X[,Y[,Z]]"),
      "blockDim of FILE.cu's launch: x and y 1 .. 1024, z 1 .. 64, at most 1024 threads");
  add_compiler_options(options, "the compiler");
  options.add_options()("smem", po::value<std::string>()->value_name("BYTES"),
                        "static shared memory per block (0 .. 1073741824); overrides --tile's")(
      "dynamic-smem", po::value<std::string>()->value_name("BYTES"),
      "dynamic shared memory per block (0 .. 1073741824; default 0)")(
      "carveout", po::value<std::string>()->value_name("PCT"),
      "preferred shared-memory carveout, % of the largest (0 .. 100; default: the largest)")(
      "csv", po::value<std::string>()->value_name("FILE"), "also write the one-row CSV to FILE");
  return options;
}

// FILE.cu's launch: its block (registers and shared memory come from the compiler or the flags).
void parse_file_launch(const po::variables_map& vm, OccupancyRequest& r) {
  if (!std::ifstream(get(vm, "file")))
    throw InvalidInput(Diag::file_unreadable,
                       "cannot read " + get(vm, "file") + ": no such file or not readable");
  for (const char* flag : {"tile", "threads"})
    if (has(vm, flag))
      throw InvalidInput(Diag::flag_usage, std::string("--") + flag +
                                               " does not apply to a kernel file: give its "
                                               "launch's --block X[,Y[,Z]]");
  if (!has(vm, "block"))
    throw InvalidInput(Diag::flag_usage, "warpdiv occupancy " + get(vm, "file") + " needs --block X[,Y[,Z]]");
  const Extent3 block = parse_extent("--block", get(vm, "block"), {});
  check_block("--block", block);
  r.launch.threads_per_block = block.x * block.y * block.z;
  r.source.file = get(vm, "file");
  if (has(vm, "kernel")) r.source.kernel = get(vm, "kernel");
  r.source.defines = get_all(vm, "define");
  r.source.include_dirs = get_all(vm, "include-dir");
  check_compiler_flags(r.source);
}

// The launch of --tile T (the tiled kernel's) or --threads N, with --regs and --smem.
void parse_flag_launch(const po::variables_map& vm, OccupancyRequest& r) {
  for (const char* flag : {"block", "kernel", "define", "include-dir"})
    if (has(vm, flag))
      throw InvalidInput(Diag::flag_usage, std::string("--") + flag +
                                               " applies to a kernel file: warpdiv "
                                               "occupancy FILE.cu --block X[,Y[,Z]] --gpu NAME");
  if (has(vm, "tile") && has(vm, "threads"))
    throw InvalidInput(Diag::flag_usage,
                       "--tile and --threads cannot be combined (--tile T means T*T threads)");
  const int regs = r.gpu.registers.value_or(analysis::occupancy_limits::kDefaultRegistersPerThread);
  if (has(vm, "threads")) {
    r.launch.threads_per_block = parse_integer("--threads", get(vm, "threads"), 1, kMaxThreads);
    r.launch.registers_per_thread = regs;
  } else {
    const std::int64_t tile =
        has(vm, "tile") ? parse_integer("--tile", get(vm, "tile"), 1, kMaxTile) : kDefaultTile;
    r.launch = analysis::tiled_kernel_launch(static_cast<int>(tile), regs);
  }
  if (r.static_shared) r.launch.static_shared_bytes = *r.static_shared;
}

}  // namespace

OccupancyRequest parse_occupancy(const Args& args) {
  const po::options_description options = occupancy_options();
  const po::variables_map vm = parse_with_positional("occupancy", args, options, "file");
  OccupancyRequest r;
  if (has(vm, "help")) {
    r.help = help_text(options);
    return r;
  }
  if (!has(vm, "gpu"))
    throw InvalidInput(Diag::flag_usage,
                       "--gpu NAME is required (warpdiv occupancy --gpu list prints the presets)");
  if ((r.list_gpus = gpu_list_asked(vm, r.gpu))) return r;
  r.gpu = gpu_request(vm);
  r.static_shared = static_shared_from(vm);
  if (has(vm, "file"))
    parse_file_launch(vm, r);
  else
    parse_flag_launch(vm, r);
  if (has(vm, "dynamic-smem"))
    r.launch.dynamic_shared_bytes =
        parse_integer("--dynamic-smem", get(vm, "dynamic-smem"), 0, kMaxSharedBytes);
  if (has(vm, "carveout"))
    r.launch.carveout_percent = static_cast<int>(parse_integer("--carveout", get(vm, "carveout"), 0, 100));
  r.csv = get_optional(vm, "csv");
  return r;
}

int occupancy_command(const Args& args, std::ostream& out) {
  const OccupancyRequest request = parse_occupancy(args);
  if (answered_at_once(out, request.help, request.list_gpus ? &request.gpu : nullptr)) return 0;
  const analysis::GpuSpec gpu = find_requested_gpu(request.gpu);
  // Open the output first so a bad path is refused before any work (a compile included).
  CommandOutputs outputs(out, run_inputs(request.source, request.gpu.file));
  analysis::Output* csv = outputs.open("--csv", request.csv, "CSV");
  const KernelOccupancy occupancy = run_occupancy(request, gpu);
  for (const std::string& file : occupancy.files_read) outputs.protect("a file the compiler read", file);
  if (!occupancy.compiler_file.empty()) outputs.protect("the compiler warpdiv ran", occupancy.compiler_file);
  if (csv) analysis::write_occupancy_csv(csv->stream(), gpu, occupancy.launch, occupancy.result);
  outputs.commit();
  analysis::write_occupancy_text(outputs.report(), gpu, occupancy.launch, occupancy.result,
                                 request.source.file.empty() ? nullptr : &occupancy.origins);
  outputs.announce();
  return 0;
}

}  // namespace warpdiv::cli
