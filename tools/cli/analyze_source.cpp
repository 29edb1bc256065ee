// warpdiv analyze FILE.cu | --model FILE.json: the warp-level replay of any kernel the model can
// read, as an annotated listing of its source and optionally a CSV.
#include <algorithm>
#include <sstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analysis/occupancy_report.hpp"
#include "analysis/source_html.hpp"
#include "analysis/source_report.hpp"
#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"
#include "sim/model/ir_json.hpp"
#include "tools/cli/command_outputs.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gpu_options.hpp"
#include "tools/cli/kernel_occupancy.hpp"
#include "tools/cli/launch_expression.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/requests.hpp"
#include "tools/cli/runs.hpp"
#include "tools/cli/shorthand.hpp"
#include "tools/cli/source_kernel.hpp"
#include "tools/cli/terminal.hpp"

namespace po = boost::program_options;
namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

namespace {

// Flags that only `analyze FILE.cu` / `analyze --model` takes: any of them selects that mode.
constexpr const char* kSourceOnlyFlags[] = {
    "--model",      "--kernel",    "--grid",       "--block",        "--arg",         "--by-iteration",
    "--only-block", "--only-warp", "--save-model", "--define",       "--include-dir", "-D",
    "-I",           "--smem",      "--by-class",   "--dynamic-smem", "--data",        "--alloc",
    "--launch",     "--build-dir", "-p",           "--by-call-site"};

// The shorthand's flags all take a value; so does every flag of analyze but these.
bool takes_no_value(const std::string& flag) {
  return flag == "-h" || flag == "--help" || flag == "--by-iteration" || flag == "--by-class" ||
         flag == "--by-call-site";
}

ir::Dim3 parse_block_index(const std::string& text, const ir::Dim3& grid) {
  // An index, so a component left out is 0 (parse_extent makes it 1, as for a size).
  Extent3 at = parse_extent("--only-block", text, {});
  const auto commas = std::count(text.begin(), text.end(), ',');
  if (commas < 2) at.z = 0;
  if (commas < 1) at.y = 0;
  const auto inside = [](std::int64_t v, std::uint32_t size) { return v >= 0 && v < size; };
  if (!inside(at.x, grid.x) || !inside(at.y, grid.y) || !inside(at.z, grid.z))
    throw InvalidInput(Diag::flag_value, "--only-block " + text + " is outside the grid " +
                                             ir::to_string(grid) + " (each index from 0 to its size - 1)");
  return ir::Dim3{static_cast<std::uint32_t>(at.x), static_cast<std::uint32_t>(at.y),
                  static_cast<std::uint32_t>(at.z)};
}

// --only-block and --only-warp, checked against the launch's grid and block.
void apply_only_flags(AnalyzeSourceRequest& r) {
  ir::ReplayOptions& replay = r.replay_options;
  if (r.only_block) replay.only_block = parse_block_index(*r.only_block, r.launch.grid);
  if (r.only_warp) {
    const auto warp_size = static_cast<std::uint64_t>(r.launch.warp_size);
    const std::uint64_t warps = (r.launch.block.volume() + warp_size - 1) / warp_size;
    replay.only_warp = static_cast<std::uint32_t>(
        parse_integer("--only-warp", *r.only_warp, 0, static_cast<std::int64_t>(warps) - 1));
  }
  r.report_options.only_block = replay.only_block;
  r.report_options.only_warp = replay.only_warp;
}

// The launch and what to count (not the arguments: they need the kernel's parameters). Without
// --grid or --block (FILE.cu) the launch comes from the file's host code once it is read.
void parse_launch(const po::variables_map& vm, AnalyzeSourceRequest& r) {
  r.values = parse_arg_values(get_all(vm, "arg"));
  r.only_block = get_optional(vm, "only-block");
  r.only_warp = get_optional(vm, "only-warp");
  r.from_host = host_launch_flags(vm, "analyze", r.values);
  if (!r.from_host) {
    r.launch = launch_from_flags(vm, r.values);
    r.launch_text = get(vm, "grid") + " " + get(vm, "block");
    apply_only_flags(r);
  } else {
    if (has(vm, "warp-size")) r.launch.warp_size = parse_warp_size("--warp-size", get(vm, "warp-size"));
    r.source.host_launches = true;
    r.source.host_arguments = host_arguments(r.values);
    r.source.host_grid = host_size(r.from_host->grid, "--grid", r.values);
    r.source.host_block = host_size(r.from_host->block, "--block", r.values);
  }
  ir::ReplayOptions& replay = r.replay_options;
  replay.by_iteration = r.report_options.by_iteration = has(vm, "by-iteration");
  r.report_options.by_call_site = has(vm, "by-call-site");
  replay.max_evaluations = max_evaluations_from(vm);
}

// analyze FILE.cu's help, up to its shorthand's usage lines.
const char* const kAnalyzeSourceUsage =
    "warpdiv analyze FILE.cu: count, per statement of any kernel, warp evaluations, divergent\n"
    "evaluations and SIMD efficiency, and partial barriers: by block classes (exact at any size)\n"
    "where the class engine can prove them, else by replaying every warp.\n\n"
    "usage: warpdiv analyze FILE.cu [--kernel NAME] [-D NAME[=VALUE]]... [-I DIR]... [-p BUILD_DIR]\n"
    "                       [--grid X[,Y[,Z]] --block X[,Y[,Z]]] [--arg NAME=VALUE]... [--launch N]\n"
    "                       [--warp-size S] [--engine auto|exact|replay|all] [--csv FILE] [--html FILE]\n"
    "                       [--by-iteration] [--by-class] [--by-call-site] [--only-block X[,Y[,Z]]]\n"
    "                       [--only-warp W] [--save-model FILE]\n"
    "       warpdiv analyze --model FILE.json --grid ... (a model saved with --save-model)\n"
    "       warpdiv analyze FILE.cu --save-model FILE.json (save only: no launch needed)\n"
    "       warpdiv analyze FILE.cu ... --gpu NAME [--regs R] [--smem BYTES] (adds the launch's\n"
    "                       occupancy, the kernel compiled for that GPU with nvcc or NVRTC)\n";
// After the usage lines of the command's shorthand (shorthand.hpp), if any.
const char* const kAnalyzeSourceNotes =
    "\n"
    "Sizes in --grid and --block are integer expressions (+ - * / % and parentheses) of the\n"
    "--arg names, e.g. --grid '(N+127)/128' --arg N=1000. Each scalar parameter of the kernel\n"
    "needs an --arg of its name; pointer parameters need none, floating-point ones only where a\n"
    "branch depends on them (else they are 0.0).\n"
    "Without --grid or --block the launch is read from FILE.cu's host code, kernel<<<grid,\n"
    "block, shared>>>(args) in main() or a helper, where its sizes and scalar arguments are\n"
    "computable from constants and integer locals set in straight-line code (said in one note\n"
    "line on stderr); --grid, --block, each --arg and --dynamic-smem given override it, and\n"
    "--launch N chooses among several launches.\n"
    "A progress bar shows on stderr when it is a terminal; Ctrl-C stops the replay with status\n"
    "130 and writes no file.\n\noptions";

// What analyze writes and how much of the launch it counts.
void add_report_options(po::options_description& options) {
  options.add_options()(
      "csv", po::value<std::string>()->value_name("FILE"),
      ("also write one row per statement, and per call of an inlined function (inlined_at): " +
       analysis::source_csv_header() +
       " (complete: no when some figure of the launch is not "
       "counted)")
          .c_str())("html", po::value<std::string>()->value_name("FILE"),
                    "also write a self-contained HTML page: the annotated source shaded by divergence and "
                    "SIMD efficiency, the block classes on the grid, warp x iteration maps per class")(
      "by-class",
      ("with --csv: one row per block class and statement (" + analysis::source_class_csv_header() +
       "), then per iteration class of each loop run as classes one row per statement "
       "inside the loop (the last four columns filled); needs the class engine")
          .c_str())("by-call-site",
                    "in the text report, under a line of an inlined function called from "
                    "several places (summed there), each call's figures")(
      "by-iteration",
      "break down statements inside loops by the iteration of their innermost "
      "loop (1 = the first)")("only-block", po::value<std::string>()->value_name("X[,Y[,Z]]"),
                              "count only this block (blockIdx)")(
      "only-warp", po::value<std::string>()->value_name("W"),
      "count only this warp (index within its block; of every block unless --only-block)")(
      "save-model", po::value<std::string>()->value_name("FILE"),
      "save the kernel's model as JSON, for --model on a machine without Clang");
}

po::options_description analyze_source_options() {
  po::options_description options(kAnalyzeSourceUsage + shorthand_usage("analyze") + kAnalyzeSourceNotes);
  options.add_options()("help,h", "show this help");
  add_kernel_source_options(options);
  add_launch_source_options(options);
  options.add_options()("warp-size", po::value<std::string>()->value_name("S"),
                        "warp size, a power of two 1 .. 64 (default 32)")(
      "engine", po::value<std::string>()->value_name("E"),
      "auto (default: the class engine where it can prove its classes, else the replay, said in "
      "one line), exact (the class engine or exit 2 naming the condition), replay (visits "
      "every warp of every block) or all (every engine that applies, the class engine, the "
      "replay's interpreter and native code, compared figure by figure: the replay's report and "
      "a note that they agree, or exit 1 naming the first figure that differs)");
  add_report_options(options);
  add_buffer_options(options);
  add_gpu_options(options);
  options.add_options()("smem", po::value<std::string>()->value_name("BYTES"),
                        "static shared memory per block for --gpu (0 .. 1073741824; default: "
                        "compiled)")(
      "dynamic-smem", po::value<std::string>()->value_name("BYTES"),
      "dynamic shared memory per block, the launch's third <<< >>> argument: sizes extern "
      "__shared__ arrays, and counts in --gpu's occupancy (0 .. 1073741824; default 0)");
  return options;
}

// The flags that only a launch gives meaning to, refused with --save-model alone; and the GPU's.
void check_flag_combinations(const po::variables_map& vm, const AnalyzeSourceRequest& r) {
  if (r.by_class && !has(vm, "csv"))
    throw InvalidInput(Diag::flag_usage, "--by-class needs --csv FILE (the CSV it shapes)");
  if (r.by_class && (r.engine == SourceEngine::replay || r.engine == SourceEngine::all))
    throw InvalidInput(Diag::flag_usage,
                       std::string("--by-class needs the class engine: use --engine auto or exact, not ") +
                           (r.engine == SourceEngine::all ? "all" : "replay"));
  if (r.save_only)
    for (const char* flag :
         {"csv", "html", "arg", "by-iteration", "by-call-site", "only-block", "only-warp", "warp-size",
          "engine", "gpu", "regs", "smem", "gpu-file", "dynamic-smem", "alloc", "data", "launch"})
      if (has(vm, flag))
        throw InvalidInput(Diag::flag_usage,
                           std::string("--") + flag +
                               " needs a launch: give --grid and --block (or use --save-model alone)");
  if (has(vm, "gpu") && has(vm, "build-dir"))
    throw InvalidInput(Diag::flag_usage,
                       "--gpu compiles FILE.cu with nvcc for its registers, with the -D and -I of the "
                       "command line only, not -p's compile_commands.json: give them with -D and -I "
                       "instead of -p (or leave out --gpu)");
  if (!has(vm, "gpu"))
    for (const char* flag : {"regs", "smem", "gpu-file"})
      if (has(vm, flag)) throw InvalidInput(Diag::flag_usage, std::string("--") + flag + " needs --gpu NAME");
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
    // a missing value), so a flag without its value before `--csv out.csv` is the shorthand's
    // command, refused there.
    if (a.find('=') == std::string::npos && !takes_no_value(a) && i + 1 < args.size() &&
        args[i + 1].rfind("--", 0) != 0)
      ++i;
  }
  return false;
}

AnalyzeSourceRequest parse_analyze_source(const Args& args) {
  const po::options_description options = analyze_source_options();
  // The shorthand's own flags mean nothing for a source file: it says so rather than "unknown".
  refuse_shorthand_flags("analyze", args);
  std::string input;
  const po::variables_map vm = parse_source_command_line("analyze", args, options, input);
  AnalyzeSourceRequest r;
  if (has(vm, "help")) {
    r.help = help_text(options);
    return r;
  }
  if (has(vm, "engine")) r.engine = parse_source_engine(get(vm, "engine"));
  r.by_class = has(vm, "by-class");
  r.save_only = has(vm, "save-model") && !has(vm, "grid") && !has(vm, "block");
  check_flag_combinations(vm, r);
  r.gpu = gpu_request(vm);  // --regs and --smem are checked before the kernel is read
  r.static_shared = static_shared_from(vm);
  if (has(vm, "dynamic-smem"))
    r.dynamic_shared = parse_integer("--dynamic-smem", get(vm, "dynamic-smem"), 0, std::int64_t{1} << 30);
  r.source = kernel_source(vm);
  if (!r.save_only) parse_launch(vm, r);
  r.csv = get_optional(vm, "csv");
  r.html = get_optional(vm, "html");
  r.save_model = get_optional(vm, "save-model");
  r.allocs = get_all(vm, "alloc");
  r.data = get_all(vm, "data");
  return r;
}

std::string complete_host_launch(AnalyzeSourceRequest& r, const ir::Kernel& kernel,
                                 const std::vector<frontend::HostLaunch>& launches) {
  const ChosenLaunch chosen = choose_host_launch(kernel, launches, *r.from_host, r.source.file);
  r.launch.grid = to_dim3(chosen.grid);
  r.launch.block = to_dim3(chosen.block);
  r.values = chosen.values;
  r.launch_text = chosen.launch_text;
  r.dynamic_shared = chosen.dynamic_shared;
  apply_only_flags(r);
  return chosen.note;
}

namespace {

// The inputs analyze protects: the kernel's files, --gpu-file, --data's files, and what --gpu's
// compile read (headers Clang may not have, under #ifndef __WARPDIV__).
std::vector<RunInput> analyze_inputs(const AnalyzeSourceRequest& request, const SourceKernel& read,
                                     const std::optional<KernelOccupancy>& occupancy) {
  std::vector<RunInput> inputs =
      run_inputs(request.source, request.gpu.file, source_files(read.kernel, read.files_read));
  for (const std::string& f : data_files(request.data)) inputs.emplace_back("--data", f);
  if (occupancy) {
    for (const std::string& f : occupancy->files_read) inputs.emplace_back("a file the compiler read", f);
    if (!occupancy->compiler_file.empty())
      inputs.emplace_back("the compiler warpdiv ran", occupancy->compiler_file);
  }
  return inputs;
}

// The report into the CSV, the HTML page and the text (with the occupancy where --gpu asked).
void write_analyze(const AnalyzeSourceRequest& request, AnalyzeSourceReport& run,
                   const std::optional<KernelOccupancy>& occupancy, analysis::Output* csv,
                   analysis::Output* html, CommandOutputs& outputs) {
  run.report.memory.dynamic_shared_bytes = request.dynamic_shared;
  if (occupancy) {
    const analysis::GpuSpec& gpu = occupancy->gpu;
    run.report.memory.gpu =
        analysis::RooflineGpu{gpu.name, gpu.peak_fp32_gflops, gpu.memory_bandwidth_gbs, gpu.rates_source};
  }
  if (csv && request.by_class && run.report.classes.empty())
    throw InvalidInput(Diag::classes_unproven, "--by-class needs block classes, and " + run.counts.note);
  if (csv && request.by_class) analysis::write_source_class_csv(csv->stream(), run.report);
  if (csv && !request.by_class) analysis::write_source_csv(csv->stream(), run.report);
  if (html) {  // the launch's totals and occupancy as the text says them
    std::ostringstream summary;
    if (run.report.memory.counted) analysis::write_memory_totals(summary, run.report.memory);
    if (occupancy) {
      summary << '\n';
      analysis::write_occupancy_text(summary, occupancy->gpu, occupancy->launch, occupancy->result,
                                     &occupancy->origins);
    }
    std::string text = summary.str();
    text.erase(0, text.find_first_not_of('\n'));
    run.page.launch_summary = text;
    html->stream() << analysis::render_source_html(run.report, run.page);
  }
  outputs.commit();
  analysis::write_source_text(outputs.report(), run.report);
  if (occupancy) {
    outputs.report() << '\n';
    analysis::write_occupancy_text(outputs.report(), occupancy->gpu, occupancy->launch, occupancy->result,
                                   &occupancy->origins);
  }
}

}  // namespace

int analyze_source_command(const Args& args, std::ostream& out) {
  AnalyzeSourceRequest request = parse_analyze_source(args);
  if (answered_at_once(out, request.help)) return 0;
  const std::optional<SourceKernel> read = read_source_kernel(request.source);
  if (!read) return 2;  // Clang's diagnostics are on stderr
  const ir::Kernel& kernel = read->kernel;
  // The launch's note once its values are bound: a value the kernel's parameter cannot take is
  // then one line of error alone.
  std::string note;
  ir::Launch launch = placed_at_launch(read->launches, [&] {
    note = request.from_host ? complete_host_launch(request, kernel, read->launches) : "";
    return request.save_only ? ir::Launch{}
                             : bind_launch(kernel, request.launch, request.values, request.launch_text,
                                           request.allocs, request.data);
  });
  if (request.from_host) print_note(Diag::host_launch, note);
  launch.dynamic_shared_bytes = static_cast<std::uint64_t>(request.dynamic_shared);
  // Compiled before the outputs are opened and the replay runs, so that a compiler's refusal
  // comes before any work.
  const std::optional<KernelOccupancy> occupancy =
      request.save_only ? std::nullopt : source_occupancy(request, kernel, launch);
  CommandOutputs outputs(out, analyze_inputs(request, *read, occupancy));
  analysis::Output* csv = outputs.open("--csv", request.csv, "CSV");
  analysis::Output* html = outputs.open("--html", request.html, "HTML");
  analysis::Output* model = outputs.open("--save-model", request.save_model, "Model");
  if (model) model->stream() << ir::to_json(kernel);
  if (request.save_only) {
    outputs.commit();
    outputs.report() << "Model of " << kernel.name << " written to " << model->name() << '\n';
    return 0;
  }

  const SigintHandler sigint;
  outputs.stop_on(sigint.flag());  // Ctrl-C while writing: exit 130, no file
  AnalyzeSourceReport run;
  try {
    run = run_analyze_source(request, kernel, launch, html != nullptr, sigint.flag());
  } catch (const Interrupted&) {
    std::cerr << "warpdiv analyze: interrupted: no file written\n";
    return kInterruptedStatus;
  }
  print_count_notes(run.counts);
  write_analyze(request, run, occupancy, csv, html, outputs);
  outputs.announce();
  return 0;
}

int analyze_command(const Args& args, std::ostream& out) {
  return run_command_form("analyze", args, out, analyze_source_command);
}

}  // namespace warpdiv::cli
