// warpdiv analyze FILE.cu | --model FILE.json: the warp-level replay of any kernel the model can
// read, as an annotated listing of its source and optionally a CSV.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "analysis/output_files.hpp"
#include "analysis/source_html.hpp"
#include "analysis/source_report.hpp"
#include "sim/errors.hpp"
#include "sim/ir.hpp"
#include "sim/ir_json.hpp"
#include "sim/ir_replay.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/launch_expression.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/source_kernel.hpp"
#include "tools/cli/terminal.hpp"

namespace po = boost::program_options;
namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

namespace {

/// Partial barriers are located to their blocks by replaying block by block, for grids of at
/// most this many blocks (the engine's counts are per statement, not per block).
constexpr std::uint64_t kMaxBlocksToLocatePartialBarriers = 4096;

// Flags that only `analyze FILE.cu` / `analyze --model` takes: any of them selects that mode.
constexpr const char* kSourceOnlyFlags[] = {
    "--model", "--kernel", "--grid", "--block", "--arg", "--by-iteration", "--only-block",
    "--only-warp", "--save-model", "--define", "--include-dir", "-D", "-I", "--by-class"};

// The lecture's flags all take a value; so does every flag of analyze but these.
bool takes_no_value(const std::string& flag) {
  return flag == "-h" || flag == "--help" || flag == "--by-iteration" || flag == "--by-class";
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
  const Extent3 grid = parse_extent("--grid", get(vm, "grid"), r.values);
  const Extent3 block = parse_extent("--block", get(vm, "block"), r.values);
  check_grid("--grid", grid);
  check_block("--block", block);
  r.launch.grid = to_dim3(grid);
  r.launch.block = to_dim3(block);
  if (has(vm, "warp-size"))
    r.launch.warp_size = parse_warp_size("--warp-size", get(vm, "warp-size"));
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

// For each partial barrier, the blocks where it is partial (small grids only): a replay per block.
void locate_partial_barriers(const ir::Kernel& kernel, const ir::Launch& launch,
                             const ir::ReplayOptions& base, analysis::SourceReport& report) {
  if (report.partial_barriers.empty() || base.only_block || base.only_warp) return;
  if (launch.grid.volume() > kMaxBlocksToLocatePartialBarriers) return;
  std::vector<sim::Count> blocks(report.partial_barriers.size(), 0);
  ir::ReplayOptions one = base;
  one.by_iteration = false;
  one.blocks_done = nullptr;
  for (std::uint32_t z = 0; z < launch.grid.z; ++z)
    for (std::uint32_t y = 0; y < launch.grid.y; ++y)
      for (std::uint32_t x = 0; x < launch.grid.x; ++x) {
        one.only_block = ir::Dim3{x, y, z};
        const ir::ReplayResult r = ir::replay(kernel, launch, one);
        std::size_t i = 0;
        for (const analysis::SourceRow& b : report.barriers) {
          if (b.counts.partial_block_executions == 0) continue;
          if (r.statements[static_cast<std::size_t>(b.statement)].partial_block_executions > 0)
            blocks[i] += 1;
          ++i;
        }
      }
  for (std::size_t i = 0; i < blocks.size(); ++i)
    report.partial_barriers[i].blocks_with_partial = blocks[i];
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
      "warpdiv analyze FILE.cu: count, per statement of any kernel, warp evaluations, divergent\n"
      "evaluations and SIMD efficiency, and partial barriers: by block classes (exact at any size)\n"
      "where the class engine can prove them, else by replaying every warp.\n\n"
      "usage: warpdiv analyze FILE.cu [--kernel NAME] [-D NAME[=VALUE]]... [-I DIR]...\n"
      "                       --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg NAME=VALUE]...\n"
      "                       [--warp-size S] [--engine auto|exact|replay] [--csv FILE] [--html FILE]\n"
      "                       [--by-iteration] [--by-class] [--only-block X[,Y[,Z]]]\n"
      "                       [--only-warp W] [--save-model FILE]\n"
      "       warpdiv analyze --model FILE.json --grid ... (a model saved with --save-model)\n"
      "       warpdiv analyze FILE.cu --save-model FILE.json (save only: no launch needed)\n\n"
      "Sizes in --grid and --block are integer expressions (+ - * / % and parentheses) of the\n"
      "--arg names, e.g. --grid '(N+127)/128' --arg N=1000. Each scalar parameter of the kernel\n"
      "needs an --arg of its name; pointer and floating-point parameters need none.\n"
      "A progress bar shows on stderr when it is a terminal; Ctrl-C stops the replay with status\n"
      "130 and writes no file.\n\noptions");
  options.add_options()("help,h", "show this help");
  add_kernel_source_options(options);
  options.add_options()
      ("grid", po::value<std::string>()->value_name("X[,Y[,Z]]"),
       "gridDim: x 1 .. 2147483647, y and z 1 .. 65535")
      ("block", po::value<std::string>()->value_name("X[,Y[,Z]]"),
       "blockDim: x and y 1 .. 1024, z 1 .. 64, at most 1024 threads")
      ("arg", po::value<std::vector<std::string>>()->value_name("NAME=VALUE")->composing(),
       "a kernel parameter's value, also usable in --grid and --block (repeat for each)")
      ("warp-size", po::value<std::string>()->value_name("S"),
       "warp size, a power of two 1 .. 64 (default 32)")
      ("engine", po::value<std::string>()->value_name("E"),
       "auto (default: the class engine where it can prove its classes, else the replay, said in "
       "one line), exact (the class engine or exit 2 naming the condition) or replay (visits "
       "every warp of every block)")
      ("csv", po::value<std::string>()->value_name("FILE"),
       "also write one row per statement: file,line,column,kind,iteration,warp_evaluations,"
       "divergent,active_lanes,taken_lanes,block_executions,partial_block_executions,"
       "simd_efficiency,statement")
      ("html", po::value<std::string>()->value_name("FILE"),
       "also write a self-contained HTML page: the annotated source shaded by divergence and "
       "SIMD efficiency, the block classes on the grid, warp x iteration maps per class")
      ("by-class", "with --csv: one row per block class and statement (the columns above, then "
                   "class,class_blocks,class_definition,representative); needs the class engine")
      ("by-iteration", "break down statements inside loops by the iteration of their innermost "
                       "loop (1 = the first)")
      ("only-block", po::value<std::string>()->value_name("X[,Y[,Z]]"),
       "count only this block (blockIdx)")
      ("only-warp", po::value<std::string>()->value_name("W"),
       "count only this warp (index within its block; of every block unless --only-block)")
      ("save-model", po::value<std::string>()->value_name("FILE"),
       "save the kernel's model as JSON, for --model on a machine without Clang");
  std::string input;
  const po::variables_map vm = parse_source_command_line("analyze", args, options, input);
  if (has(vm, "help")) {
    out << options << '\n';
    return 0;
  }
  const SourceEngine engine =
      has(vm, "engine") ? parse_source_engine(get(vm, "engine")) : SourceEngine::automatic;
  const bool by_class = has(vm, "by-class");
  if (by_class && !has(vm, "csv")) throw InvalidInput("--by-class needs --csv FILE (the CSV it shapes)");
  if (by_class && engine == SourceEngine::replay)
    throw InvalidInput("--by-class needs the class engine: use --engine auto or exact, not replay");
  const bool save_only = has(vm, "save-model") && !has(vm, "grid") && !has(vm, "block");
  if (!save_only && !(has(vm, "grid") && has(vm, "block")))
    throw InvalidInput("warpdiv analyze " +
                       std::string(has(vm, "file") ? get(vm, "file") : "--model") +
                       " needs --grid X[,Y[,Z]] and --block X[,Y[,Z]] (the launch to replay)");
  if (save_only)
    for (const char* flag :
         {"csv", "html", "arg", "by-iteration", "only-block", "only-warp", "warp-size", "engine"})
      if (has(vm, flag))
        throw InvalidInput(std::string("--") + flag +
                           " needs a launch: give --grid and --block (or use --save-model alone)");

  // Everything the command line says is checked before the kernel is read.
  ReplayRequest request;
  if (!save_only) request = replay_request(vm);
  ir::Launch& launch = request.launch;
  ir::ReplayOptions& replay_options = request.replay_options;
  const analysis::SourceReportOptions& report_options = request.report_options;

  ir::Kernel kernel;
  if (!read_source_kernel(vm, kernel)) return 2;
  if (!save_only) {
    launch.arguments = bind_arguments(kernel, request.values);
    ir::validate(launch, kernel);
  }

  // Open the outputs before the run, so that a bad path is refused before any work.
  analysis::OutputFiles outputs(out);
  analysis::Output* csv = has(vm, "csv") ? &outputs.open("--csv", get(vm, "csv")) : nullptr;
  analysis::Output* html = has(vm, "html") ? &outputs.open("--html", get(vm, "html")) : nullptr;
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
  SourceCounts counts;
  analysis::SourceHtmlPage page;
  try {
    {
      const ProgressThread progress("replay", "blocks",
                                    replay_options.only_block ? 1 : launch.grid.volume(),
                                    blocks_done);
      counts = count_source(kernel, launch, replay_options, engine);
    }
    report = analysis::make_source_report(kernel, launch, counts.result, report_options);
    analysis::add_block_classes(report, kernel, launch, counts.classes, report_options);
    locate_partial_barriers(kernel, launch, replay_options, report);
    if (html) page = source_html_page(kernel, launch, replay_options, counts);
  } catch (const Interrupted&) {
    std::cerr << "warpdiv analyze: interrupted: no file written\n";
    return kInterruptedStatus;
  }
  if (!counts.note.empty()) std::cerr << "warpdiv: note: " << counts.note << '\n';

  if (csv && by_class && report.classes.empty())
    throw InvalidInput("--by-class needs block classes, and " + counts.note);
  if (csv) {
    if (by_class)
      analysis::write_source_class_csv(csv->stream(), report);
    else
      analysis::write_source_csv(csv->stream(), report);
  }
  if (html) html->stream() << analysis::render_source_html(report, page);
  outputs.commit();
  analysis::write_source_text(text, report);
  if (csv || html || model) text << '\n';
  if (csv) text << "CSV written to " << csv->name() << '\n';
  if (html) text << "HTML written to " << html->name() << '\n';
  if (model) text << "Model written to " << model->name() << '\n';
  return 0;
}

}  // namespace warpdiv::cli
