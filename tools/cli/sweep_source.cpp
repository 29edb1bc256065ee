// warpdiv sweep FILE.cu | --model FILE.json: one source kernel over lists or ranges of its --arg
// values and of the block size, one CSV row per launch and statement, with the progress bar and
// Ctrl-C behaviour of every sweep (finished rows kept, exit 130).
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "analysis/source_report.hpp"
#include "analysis/source_sweep.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
#include "tools/cli/command_outputs.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/integer_set.hpp"
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

/// Launches per sweep at most (each is counted on its own), and with --html (the page keeps a
/// fraction per branch and launch).
constexpr std::uint64_t kMaxSourceSweepLaunches = 1'000'000;
constexpr std::uint64_t kMaxSourceSweepHtmlLaunches = 100'000;

std::vector<SweptArg> parse_swept_args(const std::vector<std::string>& pairs) {
  std::vector<SweptArg> args;
  for (const std::string& pair : pairs) {
    const auto eq = pair.find('=');
    // Reuse the single-value parser for the name (a C identifier, given once).
    if (eq == std::string::npos)
      throw InvalidInput(
          Diag::flag_value,
          "--arg must be NAME=VALUE, NAME=LIST or NAME=START:STOP:STEP (got " + sim::quote_value(pair) + ")");
    const std::string name = pair.substr(0, eq);
    parse_arg_values({name + "=0"});  // checks the name
    for (const SweptArg& a : args)
      if (a.name == name)
        throw InvalidInput(Diag::flag_usage, "--arg " + name + " is given twice; give it once");
    for (const char* reserved : kSweepBlockNames)
      if (name == reserved)
        throw InvalidInput(Diag::flag_value,
                           "--arg " + name + ": the name is taken by the swept block's size");
    const IntegerSet set =
        parse_integer_set("--arg " + name, pair.substr(eq + 1), std::numeric_limits<std::int64_t>::min(),
                          std::numeric_limits<std::int64_t>::max());
    if (set.count() > kMaxSourceSweepLaunches)
      throw InvalidInput(Diag::launch_budget, "--arg " + name + " gives " + std::to_string(set.count()) +
                                                  " values, above the limit of " +
                                                  std::to_string(kMaxSourceSweepLaunches) +
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
        throw InvalidInput(Diag::flag_value,
                           "--block takes a list of block sizes X, XxY or XxYxZ, e.g. "
                           "64,128,256 or 16x16,32x32 (got " +
                               sim::quote_value(text) + ")");
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
        throw InvalidInput(Diag::flag_usage,
                           "--block names a block size more than once (got " + sim::quote_value(text) + ")");
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
  if (!html.empty()) text += csv.empty() ? html + " plots the " + finished : "; " + html + " plots them";
  return text;
}

po::options_description sweep_source_options() {
  po::options_description options(
      "warpdiv sweep FILE.cu: count one kernel over many launches: lists or ranges of any\n"
      "--arg and of the block size. One CSV row per launch and statement (the launch's columns,\n"
      "then those of warpdiv analyze FILE.cu --csv). A progress bar shows on stderr when it is a\n"
      "terminal; Ctrl-C stops after the launch in hand, keeps every finished row and exits 130.\n\n"
      "usage: warpdiv sweep FILE.cu [--kernel NAME] [-D NAME[=VALUE]]... [-I DIR]...\n"
      "                     --grid X[,Y[,Z]] --block LIST [--arg NAME=VALUE|LIST|START:STOP:STEP]...\n"
      "                     [--warp-size S] [--engine auto|exact|replay|all]\n"
      "                     [--csv FILE] [--html FILE]   (--csv, --html or both)\n"
      "       warpdiv sweep --model FILE.json --grid ... (a model saved with --save-model)\n" +
      shorthand_usage("sweep") +
      "\n"
      "--grid is an expression of the --arg names and of block_x, block_y, block_z (the swept\n"
      "block's sizes), e.g. --grid '(N+block_x-1)/block_x' --block 64,128,256\n"
      "--arg N=1000:100000:1000.\n"
      "--data NAME=FILE,FILE,... sweeps the buffer's files too (one CSV column data_NAME).\n\noptions");
  options.add_options()("help,h", "show this help");
  add_kernel_source_options(options);
  options.add_options()(
      "grid", po::value<std::string>()->value_name("X[,Y[,Z]]"),
      "gridDim, expressions of the --arg names and block_x, block_y, block_z: x 1 .. 2147483647, "
      "y and z 1 .. 65535")(
      "block", po::value<std::string>()->value_name("LIST"),
      "block sizes to sweep: X, XxY or XxYxZ, comma-separated (64,128,256 or 16x16,32x32), or "
      "START:STOP:STEP of X; at most 1024 threads each")(
      "arg", po::value<std::vector<std::string>>()->value_name("NAME=VALUES")->composing(),
      "a kernel parameter's value, list (1,2,3) or range (START:STOP:STEP, STOP included); "
      "repeat for each parameter")("warp-size", po::value<std::string>()->value_name("S"),
                                   "warp size, a power of two 1 .. 64 (default 32)")(
      "engine", po::value<std::string>()->value_name("E"),
      "auto (default: the class engine where it can prove its classes, else the replay, said "
      "once), exact, replay or all, as for warpdiv analyze FILE.cu")(
      "csv", po::value<std::string>()->value_name("FILE"), "the CSV to write")(
      "html", po::value<std::string>()->value_name("FILE"),
      "a self-contained HTML page: each branch's divergent fraction against the first swept "
      "value, a curve per value of the others");
  add_budget_option(options);  // per launch
  add_buffer_options(options);
  return options;
}

// --data NAME=FILE[,FILE]...: each name once, each list non-empty.
std::vector<SweptData> parse_swept_data(const std::vector<std::string>& pairs) {
  std::vector<SweptData> data;
  for (const std::string& pair : pairs) {
    const auto eq = pair.find('=');
    const std::string name = pair.substr(0, eq);
    if (eq == std::string::npos || name.empty() || eq + 1 == pair.size())
      throw InvalidInput(Diag::flag_value, "--data must be NAME=FILE or NAME=FILE,FILE,... (got " +
                                               sim::quote_value(pair) + ")");
    for (const SweptData& d : data)
      if (d.name == name)
        throw InvalidInput(Diag::flag_usage,
                           "--data " + name + " is given twice; list its files once, comma-separated");
    SweptData d{name, split(pair.substr(eq + 1), ',')};
    for (const std::string& f : d.files)
      if (f.empty())
        throw InvalidInput(Diag::flag_value,
                           "--data " + name + " has an empty file name in " + sim::quote_value(pair));
    data.push_back(std::move(d));
  }
  return data;
}

// Refuses a sweep of more launches than the limits allow (fewer with --html).
void check_launch_count(const SweepSourceRequest& r) {
  sim::Count planned = r.blocks.size();
  for (const SweptArg& a : r.args) planned *= a.values.size();
  for (const SweptData& d : r.data) planned *= d.files.size();
  if (r.html)
    for (const SweptData& d : r.data)
      if (d.files.size() > 1)
        throw InvalidInput(Diag::flag_usage, "--html plots against numbers: --data " + d.name +
                                                 " with several files needs --csv alone (its data_" + d.name +
                                                 " column)");
  if (planned > kMaxSourceSweepLaunches)
    throw InvalidInput(Diag::launch_budget, "--arg and --block give " + sim::to_decimal(planned) +
                                                " launches, above the limit of " +
                                                std::to_string(kMaxSourceSweepLaunches) +
                                                " per sweep; split it");
  if (r.html && planned > kMaxSourceSweepHtmlLaunches)
    throw InvalidInput(Diag::launch_budget, "--html plots at most " +
                                                std::to_string(kMaxSourceSweepHtmlLaunches) +
                                                " launches (this sweep has " + sim::to_decimal(planned) +
                                                "); use a coarser START:STOP:STEP or --csv alone");
}

}  // namespace

SweepSourceRequest parse_sweep_source(const Args& args) {
  const po::options_description options = sweep_source_options();
  SweepSourceRequest r;
  if (asks_for_help(args)) {  // before Boost refuses the missing required flags
    r.help = help_text(options);
    return r;
  }
  std::string input;
  const po::variables_map vm = parse_source_command_line("sweep", args, options, input);
  for (const char* flag : {"grid", "block"})
    if (!has(vm, flag))
      throw InvalidInput(Diag::flag_usage, std::string("warpdiv sweep ") + input + " needs --" + flag +
                                               (std::string(flag) == "grid" ? " X[,Y[,Z]]" : " LIST") +
                                               " (see warpdiv sweep FILE.cu --help)");
  if (!has(vm, "csv") && !has(vm, "html"))
    throw InvalidInput(Diag::flag_usage, "warpdiv sweep needs --csv FILE, --html FILE or both");
  r.csv = get_optional(vm, "csv");
  r.html = get_optional(vm, "html");
  if (has(vm, "engine")) r.engine = parse_source_engine(get(vm, "engine"));
  // Every launch is worked out and checked before the kernel is read and before any output.
  r.args = parse_swept_args(get_all(vm, "arg"));
  r.data = parse_swept_data(get_all(vm, "data"));
  r.allocs = get_all(vm, "alloc");
  r.blocks = parse_block_list(get(vm, "block"));
  if (has(vm, "warp-size")) r.warp_size = parse_warp_size("--warp-size", get(vm, "warp-size"));
  check_launch_count(r);
  r.grid_text = get(vm, "grid");
  for (std::size_t i = 0; i < r.launches(); ++i) {
    ArgValues values;
    r.launch(i, values);
  }
  r.max_evaluations = max_evaluations_from(vm);
  r.source = kernel_source(vm);
  return r;
}

int sweep_source_command(const Args& args, std::ostream& out) {
  const SweepSourceRequest request = parse_sweep_source(args);
  if (answered_at_once(out, request.help)) return 0;
  const std::optional<SourceKernel> read = read_source_kernel(request.source);
  if (!read) return 2;  // Clang's diagnostics are on stderr
  analysis::SourceSweepPage page;
  page.plan = request.plan();
  page.plan.kernel = read->kernel.name;
  page.plan.file = read->kernel.files.empty() ? request.source.input() : read->kernel.files[0].path;
  check_sweep_launches(request, read->kernel);

  std::vector<RunInput> inputs =
      run_inputs(request.source, std::nullopt, source_files(read->kernel, read->files_read));
  std::vector<std::string> pairs;  // NAME=FILE[:VIEW], as data_files() takes them
  for (const SweptData& d : request.data)
    for (const std::string& f : d.files) pairs.push_back(d.name + "=" + f);
  for (const std::string& f : data_files(pairs)) inputs.emplace_back("--data", f);
  CommandOutputs outputs(out, inputs);
  analysis::Output* csv = outputs.open("--csv", request.csv, "CSV");
  analysis::Output* html = outputs.open("--html", request.html, "HTML");
  const SigintHandler sigint;
  const auto columns = analysis::source_sweep_csv_columns(page.plan);
  if (csv) columns.write_header(csv->stream());
  const SourceSweepOutcome done = run_sweep_source(
      request, read->kernel,
      [&](const analysis::SourceSweepLaunch& launch, const analysis::SourceReport& report) {
        if (csv) analysis::write_source_sweep_csv_rows(csv->stream(), columns, launch, report);
        if (html) analysis::add_to_page(page, launch, report);
      },
      sigint.flag(), [&] { return outputs.failed(); });
  const bool stopped = sigint.interrupted();
  if (html) html->stream() << analysis::render_source_sweep_html(page, stopped);
  outputs.commit();
  const std::string summary = sweep_summary(done.launches, request.launches(), done.rows, stopped,
                                            csv ? csv->name() : "", html ? html->name() : "");
  if (stopped) {
    std::cerr << "warpdiv sweep: interrupted: " << sim::one_line(summary) << '\n';
    return kInterruptedStatus;
  }
  outputs.report() << "warpdiv sweep: " << summary << '\n';
  return 0;
}

int sweep_command(const Args& args, std::ostream& out) {
  return run_command_form("sweep", args, out, sweep_source_command);
}

}  // namespace warpdiv::cli
