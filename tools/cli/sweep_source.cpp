// warpdiv sweep FILE.cu | --model FILE.json: one source kernel over lists or ranges of its --arg
// values and of the block size, one CSV row per launch and statement, with the progress bar and
// Ctrl-C behaviour of the tiled sweep (finished rows kept, exit 130).
#include <atomic>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "analysis/output_files.hpp"
#include "analysis/source_report.hpp"
#include "analysis/source_sweep.hpp"
#include "sim/errors.hpp"
#include "sim/ir_replay.hpp"
#include "sim/message_text.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/integer_set.hpp"
#include "tools/cli/launch_expression.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/source_kernel.hpp"
#include "tools/cli/terminal.hpp"

namespace po = boost::program_options;
namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

namespace {

/// Launches per sweep at most (each is counted on its own), and with --html (the page keeps a
/// fraction per branch and launch).
constexpr std::uint64_t kMaxSourceSweepLaunches = 1'000'000;
constexpr std::uint64_t kMaxSourceSweepHtmlLaunches = 100'000;

// Names the --grid expressions may use for the swept block's sizes.
constexpr const char* kBlockNames[] = {"block_x", "block_y", "block_z"};

struct SweptArg {
  std::string name;
  std::vector<std::int64_t> values;
};

std::vector<SweptArg> parse_swept_args(const std::vector<std::string>& pairs) {
  std::vector<SweptArg> args;
  for (const std::string& pair : pairs) {
    const auto eq = pair.find('=');
    // Reuse the single-value parser for the name (a C identifier, given once).
    if (eq == std::string::npos)
      throw InvalidInput("--arg must be NAME=VALUE, NAME=LIST or NAME=START:STOP:STEP (got " +
                         sim::quote_value(pair) + ")");
    const std::string name = pair.substr(0, eq);
    parse_arg_values({name + "=0"});  // checks the name
    for (const SweptArg& a : args)
      if (a.name == name) throw InvalidInput("--arg " + name + " is given twice; give it once");
    for (const char* reserved : kBlockNames)
      if (name == reserved)
        throw InvalidInput("--arg " + name + ": the name is taken by the swept block's size");
    const IntegerSet set = parse_integer_set("--arg " + name, pair.substr(eq + 1),
                                             std::numeric_limits<std::int64_t>::min(),
                                             std::numeric_limits<std::int64_t>::max());
    if (set.count() > kMaxSourceSweepLaunches)
      throw InvalidInput("--arg " + name + " gives " + std::to_string(set.count()) +
                         " values, above the limit of " + std::to_string(kMaxSourceSweepLaunches) +
                         " launches per sweep");
    args.push_back({name, set.expand()});
  }
  return args;
}

// --block LIST: each element X, XxY or XxYxZ; or START:STOP:STEP of X.
std::vector<Extent3> parse_block_list(const std::string& text) {
  std::vector<Extent3> blocks;
  if (text.find(':') != std::string::npos) {
    for (std::int64_t x : parse_integer_set("--block", text, 1, cuda_limits::kMaxBlockX).expand())
      blocks.push_back({x, 1, 1});
  } else {
    for (const std::string& element : split(text, ',')) {
      const std::vector<std::string> parts = split(element, 'x');
      if (parts.size() > 3)
        throw InvalidInput("--block takes a list of block sizes X, XxY or XxYxZ, e.g. "
                           "64,128,256 or 16x16,32x32 (got " + sim::quote_value(text) + ")");
      Extent3 e;
      const std::int64_t limits[] = {cuda_limits::kMaxBlockX, cuda_limits::kMaxBlockY,
                                     cuda_limits::kMaxBlockZ};
      std::int64_t* fields[] = {&e.x, &e.y, &e.z};
      for (std::size_t i = 0; i < parts.size(); ++i)
        *fields[i] = parse_integer("--block", parts[i], 1, limits[i]);
      blocks.push_back(e);
    }
  }
  for (std::size_t i = 0; i < blocks.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (blocks[i].x == blocks[j].x && blocks[i].y == blocks[j].y && blocks[i].z == blocks[j].z)
        throw InvalidInput("--block names a block size more than once (got " +
                           sim::quote_value(text) + ")");
  for (const Extent3& b : blocks) check_block("--block", b);
  return blocks;
}

std::string sweep_summary(std::size_t done, std::size_t planned, std::size_t rows, bool stopped,
                          const std::string& csv, const std::string& html) {
  const std::string row_text = sim::counted(rows, "row");
  if (!stopped) {
    std::string text = sim::counted(planned, "launch", "launches");
    if (!csv.empty()) text += ", " + row_text + " written to " + csv;
    if (!html.empty()) text += (csv.empty() ? " plotted in " : "; plots in ") + html;
    return text;
  }
  const std::string finished =
      std::to_string(done) + " of " + sim::counted(planned, "launch", "launches") + " finished";
  std::string text;
  if (!csv.empty()) text = csv + " holds the " + row_text + " of the " + finished;
  if (!html.empty())
    text += csv.empty() ? html + " plots the " + finished : "; " + html + " plots them";
  return text;
}

}  // namespace

int sweep_source_command(const Args& args, std::ostream& out) {
  po::options_description options(
      "warpdiv sweep FILE.cu: count one kernel over many launches: lists or ranges of any\n"
      "--arg and of the block size. One CSV row per launch and statement (the launch's columns,\n"
      "then those of warpdiv analyze FILE.cu --csv). A progress bar shows on stderr when it is a\n"
      "terminal; Ctrl-C stops after the launch in hand, keeps every finished row and exits 130.\n\n"
      "usage: warpdiv sweep FILE.cu [--kernel NAME] [-D NAME[=VALUE]]... [-I DIR]...\n"
      "                     --grid X[,Y[,Z]] --block LIST [--arg NAME=VALUE|LIST|START:STOP:STEP]...\n"
      "                     [--warp-size S] [--engine auto|exact|replay]\n"
      "                     [--csv FILE] [--html FILE]   (--csv, --html or both)\n"
      "       warpdiv sweep --model FILE.json --grid ... (a model saved with --save-model)\n\n"
      "--grid is an expression of the --arg names and of block_x, block_y, block_z (the swept\n"
      "block's sizes), e.g. --grid '(N+block_x-1)/block_x' --block 64,128,256\n"
      "--arg N=1000:100000:1000.\n\noptions");
  options.add_options()("help,h", "show this help");
  add_kernel_source_options(options);
  options.add_options()
      ("grid", po::value<std::string>()->value_name("X[,Y[,Z]]"),
       "gridDim, expressions of the --arg names and block_x, block_y, block_z: x 1 .. 2147483647, "
       "y and z 1 .. 65535")
      ("block", po::value<std::string>()->value_name("LIST"),
       "block sizes to sweep: X, XxY or XxYxZ, comma-separated (64,128,256 or 16x16,32x32), or "
       "START:STOP:STEP of X; at most 1024 threads each")
      ("arg", po::value<std::vector<std::string>>()->value_name("NAME=VALUES")->composing(),
       "a kernel parameter's value, list (1,2,3) or range (START:STOP:STEP, STOP included); "
       "repeat for each parameter")
      ("warp-size", po::value<std::string>()->value_name("S"),
       "warp size, a power of two 1 .. 64 (default 32)")
      ("engine", po::value<std::string>()->value_name("E"),
       "auto (default: the class engine where it can prove its classes, else the replay, said "
       "once), exact or replay, as for warpdiv analyze FILE.cu")
      ("csv", po::value<std::string>()->value_name("FILE"), "the CSV to write")
      ("html", po::value<std::string>()->value_name("FILE"),
       "a self-contained HTML page: each branch's divergent fraction against the first swept "
       "value, a curve per value of the others");
  add_budget_option(options);  // per launch
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") {
      write_help(out, options);
      return 0;
    }
  std::string input;
  const po::variables_map vm = parse_source_command_line("sweep", args, options, input);
  for (const char* flag : {"grid", "block"})
    if (!has(vm, flag))
      throw InvalidInput(std::string("warpdiv sweep ") + input + " needs --" + flag +
                         (std::string(flag) == "grid" ? " X[,Y[,Z]]" : " LIST") +
                         " (see warpdiv sweep FILE.cu --help)");
  if (!has(vm, "csv") && !has(vm, "html"))
    throw InvalidInput("warpdiv sweep needs --csv FILE, --html FILE or both");

  const SourceEngine engine =
      has(vm, "engine") ? parse_source_engine(get(vm, "engine")) : SourceEngine::automatic;
  // Every launch is worked out and checked before the kernel is read and before any output.
  const std::vector<SweptArg> swept_args = parse_swept_args(get_all(vm, "arg"));
  const std::vector<Extent3> blocks = parse_block_list(get(vm, "block"));
  const int warp_size =
      has(vm, "warp-size") ? parse_warp_size("--warp-size", get(vm, "warp-size")) : 32;
  sim::Count planned = blocks.size();
  for (const SweptArg& a : swept_args) planned *= a.values.size();
  if (planned > kMaxSourceSweepLaunches)
    throw InvalidInput("--arg and --block give " + sim::to_decimal(planned) +
                       " launches, above the limit of " +
                       std::to_string(kMaxSourceSweepLaunches) + " per sweep; split it");
  if (has(vm, "html") && planned > kMaxSourceSweepHtmlLaunches)
    throw InvalidInput("--html plots at most " + std::to_string(kMaxSourceSweepHtmlLaunches) +
                       " launches (this sweep has " + sim::to_decimal(planned) +
                       "); use a coarser START:STOP:STEP or --csv alone");

  analysis::SourceSweepPage page;
  analysis::SourceSweepPlan& plan = page.plan;
  for (const SweptArg& a : swept_args) {
    plan.arg_names.push_back(a.name);
    if (a.values.size() > 1) plan.swept.push_back(a.name);
  }
  if (blocks.size() > 1) plan.swept.push_back("block");

  // Launch i: blocks outermost, then the args in the order given, the last fastest. Made twice
  // (checked, then counted) rather than held: a million launches would hold hundreds of MB.
  const auto total = static_cast<std::size_t>(planned);
  const std::string grid_text = get(vm, "grid");
  const auto describe = [&](std::size_t i, ArgValues& values) {
    std::size_t rest = i;
    analysis::SourceSweepLaunch l;
    l.args.resize(swept_args.size());
    for (std::size_t k = swept_args.size(); k-- > 0;) {
      const auto& v = swept_args[k].values;
      l.args[k] = v[rest % v.size()];
      values[swept_args[k].name] = l.args[k];
      rest /= v.size();
    }
    const Extent3& block = blocks[rest];
    values[kBlockNames[0]] = block.x;
    values[kBlockNames[1]] = block.y;
    values[kBlockNames[2]] = block.z;
    const Extent3 grid = parse_extent("--grid", grid_text, values);
    check_grid("--grid", grid);
    l.grid = to_dim3(grid);
    l.block = to_dim3(block);
    l.warp_size = warp_size;
    return l;
  };
  for (std::size_t i = 0; i < total; ++i) {
    ArgValues values;
    describe(i, values);
  }

  ir::Kernel kernel;
  std::vector<std::string> files_read;  // inputs: no output may replace one
  if (!read_source_kernel(vm, kernel, &files_read)) return 2;
  plan.kernel = kernel.name;
  plan.file = kernel.files.empty() ? input : kernel.files[0].path;
  const auto make_launch = [&](std::size_t i, analysis::SourceSweepLaunch& l) {
    ArgValues values;
    l = describe(i, values);
    ir::Launch launch;
    launch.grid = l.grid;
    launch.block = l.block;
    launch.warp_size = warp_size;
    // `values` also holds the swept block's sizes (block_x ...) for --grid; they name no parameter.
    launch.arguments = bind_arguments(
        kernel, values, grid_text + " " + kBlockNames[0] + " " + kBlockNames[1] + " " + kBlockNames[2]);
    ir::validate(launch, kernel);
    return launch;
  };
  for (std::size_t i = 0; i < total; ++i) {
    analysis::SourceSweepLaunch l;
    make_launch(i, l);
  }

  analysis::OutputFiles outputs(out);
  protect_inputs(outputs, vm, source_files(kernel, files_read));
  analysis::Output* csv = has(vm, "csv") ? &outputs.open("--csv", get(vm, "csv")) : nullptr;
  analysis::Output* html = has(vm, "html") ? &outputs.open("--html", get(vm, "html")) : nullptr;
  const SigintHandler sigint;
  if (csv) analysis::write_source_sweep_csv_header(csv->stream(), plan);
  ir::ReplayOptions replay_options;
  replay_options.stop = sigint.flag();
  replay_options.max_evaluations = max_evaluations_from(vm);
  const analysis::SourceReportOptions report_options;
  ProgressBar progress("sweep", "launches", total);
  std::size_t done = 0, rows = 0;
  bool noted = false;  // the fallback to the replay is said once, not per launch
  for (; done < total && !outputs.failed(); ++done) {
    if (sigint.interrupted()) break;
    analysis::SourceSweepLaunch described;
    const ir::Launch launch = make_launch(done, described);
    analysis::SourceReport report;
    try {
      const SourceCounts counts = count_source(kernel, launch, replay_options, engine);
      report = analysis::make_source_report(kernel, launch, counts.result, report_options);
      if (!counts.note.empty() && !noted) {
        progress.finish();
        std::cerr << "warpdiv: note: " << counts.note << '\n';
        noted = true;
      }
    } catch (const Interrupted&) {
      break;  // the launch in hand is dropped; the finished ones stay
    }
    if (csv) analysis::write_source_sweep_csv_rows(csv->stream(), described, report);
    if (html) analysis::add_to_page(page, described, report);
    for (const analysis::SourceRow& r : report.rows) rows += r.iteration ? 0 : 1;
    progress.update(done + 1);
  }
  progress.finish();
  const bool stopped = sigint.interrupted();
  if (html) html->stream() << analysis::render_source_sweep_html(page, stopped);
  outputs.commit();
  const std::string summary =
      sweep_summary(done, total, rows, stopped, csv ? csv->name() : "", html ? html->name() : "");
  if (stopped) {
    std::cerr << "warpdiv sweep: interrupted: " << sim::one_line(summary) << '\n';
    return kInterruptedStatus;
  }
  outputs.report() << "warpdiv sweep: " << summary << '\n';
  return 0;
}

}  // namespace warpdiv::cli
