// warpdiv analyze FILE.cu | --model FILE.json: the warp-level replay of any kernel the model can
// read, as an annotated listing of its source and optionally a CSV.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>


#include "analysis/input_file.hpp"
#include "analysis/output_files.hpp"
#include "analysis/source_report.hpp"
#include "sim/errors.hpp"
#include "sim/message_text.hpp"
#include "sim/ir.hpp"
#include "sim/ir_json.hpp"
#include "sim/ir_replay.hpp"
#include "analysis/gpu_presets.hpp"
#include "analysis/occupancy_report.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gpu_options.hpp"
#include "tools/cli/kernel_occupancy.hpp"
#include "tools/cli/launch_expression.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/source_kernel.hpp"
#include "tools/cli/terminal.hpp"

namespace po = boost::program_options;
namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

namespace {

// Flags that only `analyze FILE.cu` / `analyze --model` takes: any of them selects that mode.
constexpr const char* kSourceOnlyFlags[] = {
    "--model", "--kernel", "--grid", "--block", "--arg", "--by-iteration", "--only-block",
    "--only-warp", "--save-model", "--define", "--include-dir", "-D", "-I", "--smem"};

// The lecture's flags all take a value; so does every flag of analyze but these.
bool takes_no_value(const std::string& flag) {
  return flag == "-h" || flag == "--help" || flag == "--by-iteration";
}

ir::Dim3 parse_block_index(const std::string& text, const ir::Dim3& grid) {
  // An index, so a component left out is 0 (parse_extent makes it 1, as for a size).
  Extent3 at = parse_extent("--only-block", text, {});
  const auto commas = std::count(text.begin(), text.end(), ',');
  if (commas < 2) at.z = 0;
  if (commas < 1) at.y = 0;
  const auto inside = [](std::int64_t v, std::uint32_t size) { return v >= 0 && v < size; };
  if (!inside(at.x, grid.x) || !inside(at.y, grid.y) || !inside(at.z, grid.z))
    throw InvalidInput("--only-block " + text + " is outside the grid " + ir::to_string(grid) +
                       " (each index from 0 to its size - 1)");
  return ir::Dim3{static_cast<std::uint32_t>(at.x), static_cast<std::uint32_t>(at.y),
                  static_cast<std::uint32_t>(at.z)};
}

// The launch and what to count, from the flags (before the kernel is read).
struct ReplayRequest {
  ArgValues values;
  ir::Launch launch;  // without arguments: they need the kernel's parameters
  ir::ReplayOptions replay_options;
  analysis::SourceReportOptions report_options;
};

ReplayRequest replay_request(const po::variables_map& vm) {
  ReplayRequest r;
  r.values = parse_arg_values(get_all(vm, "arg"));
  r.launch = launch_from_flags(vm, r.values);
  if (has(vm, "only-block"))
    r.replay_options.only_block = parse_block_index(get(vm, "only-block"), r.launch.grid);
  if (has(vm, "only-warp")) {
    const auto warp_size = static_cast<std::uint64_t>(r.launch.warp_size);
    const std::uint64_t warps = (r.launch.block.volume() + warp_size - 1) / warp_size;
    r.replay_options.only_warp = static_cast<std::uint32_t>(parse_integer(
        "--only-warp", get(vm, "only-warp"), 0, static_cast<std::int64_t>(warps) - 1));
  }
  r.replay_options.by_iteration = r.report_options.by_iteration = has(vm, "by-iteration");
  r.report_options.only_block = r.replay_options.only_block;
  r.report_options.only_warp = r.replay_options.only_warp;
  return r;
}

// Draws the progress bar from the engine's block counter until the run ends.
class ProgressThread {
 public:
  ProgressThread(std::uint64_t blocks, const std::atomic<std::uint64_t>& done)
      : bar_("replay", "blocks", blocks), done_(done), thread_([this] {
          std::unique_lock<std::mutex> lock(mutex_);
          while (!finished_) {
            bar_.update(done_.load());
            wake_.wait_for(lock, std::chrono::milliseconds(100));
          }
        }) {}
  ~ProgressThread() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finished_ = true;
    }
    wake_.notify_all();
    thread_.join();
    bar_.update(done_.load());  // the last state: 100% unless the run stopped early
    bar_.finish();
  }
  ProgressThread(const ProgressThread&) = delete;
  ProgressThread& operator=(const ProgressThread&) = delete;

 private:
  ProgressBar bar_;
  const std::atomic<std::uint64_t>& done_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  std::thread thread_;
};

// With --gpu NAME: the launch's occupancy, the kernel compiled for that GPU's architecture.
std::optional<KernelOccupancy> source_occupancy(const po::variables_map& vm,
                                                const ir::Kernel& kernel,
                                                const ir::Launch& launch) {
  if (!has(vm, "gpu")) return std::nullopt;
  const GpuCatalogue catalogue = load_gpu_catalogue(vm);
  const analysis::GpuSpec& gpu =
      analysis::find_gpu(catalogue.gpus, get(vm, "gpu"), "--gpu", catalogue.file);
  if (gpu.warp_size != launch.warp_size)
    throw InvalidInput("--warp-size " + std::to_string(launch.warp_size) +
                       " differs from the warp size " + std::to_string(gpu.warp_size) +
                       " of --gpu " + gpu.name);
  kernels::CompileRequest request = kernels::compile_request(kernel, gpu.cc_major, gpu.cc_minor);
  if (has(vm, "file")) {
    request.file = get(vm, "file");  // compile the file itself, with the same -D and -I
    request.source.clear();
    request.defines = get_all(vm, "define");
    request.include_dirs = get_all(vm, "include-dir");
  }
  analysis::LaunchResources resources;
  resources.threads_per_block = static_cast<std::int64_t>(launch.block.volume());
  return kernel_occupancy(vm, gpu, request, resources);
}

}  // namespace

bool is_source_analysis(const Args& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    for (const char* flag : kSourceOnlyFlags) {
      const std::string f = flag;
      if (a == f || a.rfind(f + "=", 0) == 0 || (f.size() == 2 && a.rfind(f, 0) == 0)) return true;
    }
    if (a.empty() || a[0] != '-') return true;  // a positional: the file
    // Skip the flag's value; a value never starts with "--" (parse_command_line refuses that as
    // a missing value), so `--width --csv out.csv` is the lecture's command, refused there.
    if (a.find('=') == std::string::npos && !takes_no_value(a) && i + 1 < args.size() &&
        args[i + 1].rfind("--", 0) != 0)
      ++i;
  }
  return false;
}

int analyze_source_command(const Args& args, std::ostream& out) {
  po::options_description options(
      "warpdiv analyze FILE.cu: replay any kernel warp by warp and count, per statement, warp\n"
      "evaluations, divergent evaluations and SIMD efficiency, and partial barriers.\n\n"
      "usage: warpdiv analyze FILE.cu [--kernel NAME] [-D NAME[=VALUE]]... [-I DIR]...\n"
      "                       --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg NAME=VALUE]...\n"
      "                       [--warp-size S] [--engine replay] [--csv FILE] [--by-iteration]\n"
      "                       [--only-block X[,Y[,Z]]] [--only-warp W] [--save-model FILE]\n"
      "       warpdiv analyze --model FILE.json --grid ... (a model saved with --save-model)\n"
      "       warpdiv analyze FILE.cu --save-model FILE.json (save only: no launch needed)\n"
      "       warpdiv analyze FILE.cu ... --gpu NAME [--regs R] [--smem BYTES] (adds the launch's\n"
      "                       occupancy, the kernel compiled for that GPU with nvcc or NVRTC)\n\n"
      "Sizes in --grid and --block are integer expressions (+ - * / % and parentheses) of the\n"
      "--arg names, e.g. --grid '(N+127)/128' --arg N=1000. Each scalar parameter of the kernel\n"
      "needs an --arg of its name; pointer and floating-point parameters need none.\n"
      "A progress bar shows on stderr when it is a terminal; Ctrl-C stops the replay with status\n"
      "130 and writes no file.\n\noptions");
  options.add_options()("help,h", "show this help")
      ("model", po::value<std::string>()->value_name("FILE"),
       "a kernel model saved with --save-model, in place of FILE.cu (no Clang needed)")
      ("kernel", po::value<std::string>()->value_name("NAME"),
       "the __global__ function to analyse (needed when the file defines several)")
      ("define,D", po::value<std::vector<std::string>>()->value_name("NAME[=VALUE]")->composing(),
       "a macro for Clang, as -D NAME=VALUE")
      ("include-dir,I", po::value<std::vector<std::string>>()->value_name("DIR")->composing(),
       "a folder Clang searches for #include files")
      ("grid", po::value<std::string>()->value_name("X[,Y[,Z]]"),
       "gridDim: x 1 .. 2147483647, y and z 1 .. 65535")
      ("block", po::value<std::string>()->value_name("X[,Y[,Z]]"),
       "blockDim: x and y 1 .. 1024, z 1 .. 64, at most 1024 threads")
      ("arg", po::value<std::vector<std::string>>()->value_name("NAME=VALUE")->composing(),
       "a kernel parameter's value, also usable in --grid and --block (repeat for each)")
      ("warp-size", po::value<std::string>()->value_name("S"),
       "warp size, a power of two 1 .. 64 (default 32)")
      ("engine", po::value<std::string>()->value_name("E"),
       "replay (the only engine for a source kernel: visits every warp of every block)")
      ("csv", po::value<std::string>()->value_name("FILE"),
       "also write one row per statement: file,line,column,kind,iteration,warp_evaluations,"
       "divergent,active_lanes,taken_lanes,block_executions,partial_block_executions,"
       "simd_efficiency,statement")
      ("by-iteration", "break down statements inside loops by the iteration of their innermost "
                       "loop (1 = the first)")
      ("only-block", po::value<std::string>()->value_name("X[,Y[,Z]]"),
       "count only this block (blockIdx)")
      ("only-warp", po::value<std::string>()->value_name("W"),
       "count only this warp (index within its block; of every block unless --only-block)")
      ("save-model", po::value<std::string>()->value_name("FILE"),
       "save the kernel's model as JSON, for --model on a machine without Clang");
  add_gpu_options(options);
  options.add_options()("smem", po::value<std::string>()->value_name("BYTES"),
                        "static shared memory per block for --gpu (0 .. 1073741824; default: "
                        "compiled)");
  po::positional_options_description positional;
  positional.add("file", 1);
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>());
  po::options_description all;
  all.add(options).add(hidden);
  // The lecture's own launch flags mean nothing for a source file: say so rather than "unknown".
  for (const std::string& a : args)
    for (const char* lecture : {"--width", "--rows", "--inner", "--cols", "--tile"})
      if (a == lecture || a.rfind(std::string(lecture) + "=", 0) == 0)
        throw InvalidInput(std::string(lecture) +
                           " sets the lecture kernel's launch (warpdiv analyze without a file); for "
                           "FILE.cu give --grid, --block and --arg NAME=VALUE");
  const po::variables_map vm = parse_command_line("analyze", args, all, &positional);
  if (has(vm, "help")) {
    write_help(out, options);
    return 0;
  }
  if (has(vm, "file") == has(vm, "model"))
    throw InvalidInput(has(vm, "file") ? "give FILE.cu or --model FILE, not both"
                                       : "warpdiv analyze needs FILE.cu or --model FILE");
  // A misspelt path is the likeliest mistake: name it before anything else.
  check_kernel_input(vm);
  if (has(vm, "engine") && get(vm, "engine") != "replay")
    throw InvalidInput("--engine must be replay for a source kernel (got '" + get(vm, "engine") +
                       "'; the exact engine knows only the lecture's kernel)");
  const bool save_only = has(vm, "save-model") && !has(vm, "grid") && !has(vm, "block");
  if (!save_only && !(has(vm, "grid") && has(vm, "block")))
    throw InvalidInput("warpdiv analyze " +
                       std::string(has(vm, "file") ? get(vm, "file") : "--model") +
                       " needs --grid X[,Y[,Z]] and --block X[,Y[,Z]] (the launch to replay)");
  if (save_only)
    for (const char* flag : {"csv", "arg", "by-iteration", "only-block", "only-warp", "warp-size",
                             "gpu", "regs", "smem", "gpu-file"})
      if (has(vm, flag))
        throw InvalidInput(std::string("--") + flag +
                           " needs a launch: give --grid and --block (or use --save-model alone)");

  if (!has(vm, "gpu"))
    for (const char* flag : {"regs", "smem", "gpu-file"})
      if (has(vm, flag)) throw InvalidInput(std::string("--") + flag + " needs --gpu NAME");
  if (has(vm, "regs")) registers_from(vm);  // checked before the kernel is read
  if (has(vm, "smem")) static_shared_from(vm);

  // Everything the command line says is checked before the kernel is read.
  ReplayRequest request;
  if (!save_only) request = replay_request(vm);
  ir::Launch& launch = request.launch;
  ir::ReplayOptions& replay_options = request.replay_options;
  const analysis::SourceReportOptions& report_options = request.report_options;

  ir::Kernel kernel;
  if (!read_kernel_or_print(vm, kernel)) return 2;
  if (!save_only) {
    launch.arguments = bind_arguments(kernel, request.values, get(vm, "grid") + " " + get(vm, "block"));
    ir::validate(launch, kernel);
  }
  // Compiled before the replay, so that a compiler's refusal comes before any work.
  const std::optional<KernelOccupancy> occupancy =
      save_only ? std::nullopt : source_occupancy(vm, kernel, launch);

  // Open the outputs before the run, so that a bad path is refused before any work.
  analysis::OutputFiles outputs(out);
  analysis::Output* csv = has(vm, "csv") ? &outputs.open("--csv", get(vm, "csv")) : nullptr;
  analysis::Output* model =
      has(vm, "save-model") ? &outputs.open("--save-model", get(vm, "save-model")) : nullptr;
  std::ostream& text = outputs.report();  // nothing when an output goes to stdout
  if (model) model->stream() << ir::to_json(kernel);
  if (save_only) {
    outputs.commit();
    text << "Model of " << kernel.name << " written to " << model->name() << '\n';
    return 0;
  }

  const SigintHandler sigint;
  replay_options.stop = sigint.flag();
  std::atomic<std::uint64_t> blocks_done{0};
  replay_options.blocks_done = &blocks_done;
  analysis::SourceReport report;
  try {
    ir::ReplayResult result;
    {
      const ProgressThread progress(replay_options.only_block ? 1 : launch.grid.volume(),
                                    blocks_done);
      result = ir::replay(kernel, launch, replay_options);
    }
    report = analysis::make_source_report(kernel, launch, result, report_options);
  } catch (const Interrupted&) {
    std::cerr << "warpdiv analyze: interrupted: no file written\n";
    return kInterruptedStatus;
  }

  if (csv) analysis::write_source_csv(csv->stream(), report);
  outputs.commit();
  analysis::write_source_text(text, report);
  if (occupancy) {
    text << '\n';
    analysis::write_occupancy_text(text, occupancy->gpu, occupancy->launch, occupancy->result,
                                   &occupancy->origins);
  }
  if (csv) text << "\nCSV written to " << csv->name() << '\n';
  if (model) text << (csv ? "" : "\n") << "Model written to " << model->name() << '\n';
  return 0;
}

}  // namespace warpdiv::cli
