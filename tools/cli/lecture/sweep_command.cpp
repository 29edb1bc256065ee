// warpdiv sweep --sizes --tiles: the lecture's exact counts of many launches (sizes x inner sizes x
// tiles) into one CSV, with a progress bar on a terminal and a clean stop on Ctrl-C.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "analysis/lecture/sweep_html.hpp"
#include "analysis/lecture/sweep_report.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
#include "tools/cli/command_outputs.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gpu_options.hpp"
#include "tools/cli/integer_set.hpp"
#include "tools/cli/lecture/commands.hpp"
#include "tools/cli/lecture/launch_options.hpp"
#include "tools/cli/lecture/requests.hpp"
#include "tools/cli/lecture/runs.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/terminal.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

namespace {

/// A sweep holds at most this many launches (a million launches take seconds with the exact
/// engine and give a CSV of about 300 MB); larger ones are refused up front.
constexpr std::uint64_t kMaxSweepLaunches = 1'000'000;
/// A sweep with --html holds its rows in memory (about 70 bytes each, four per launch) to plot
/// them: at most this many launches (28 MB of rows).
constexpr std::uint64_t kMaxHtmlSweepLaunches = 100'000;

/// What was written where ("" for a file not asked for): "8 launches, 32 rows written to s.csv;
/// plots in s.html"; with the page alone, that no CSV holds the rows; after Ctrl-C, how many of
/// the launches each file holds.
std::string sweep_summary(std::size_t done, std::size_t planned, bool stopped, const std::string& csv,
                          const std::string& html) {
  const std::string rows = sim::counted(done * lecture::kConditionCount, "row");
  std::string text;
  if (!stopped) {
    text = sim::counted(planned, "launch", "launches");
    if (!csv.empty()) text += ", " + rows + " written to " + csv;
    if (!html.empty())
      text += csv.empty() ? " plotted in " + html + " (no CSV written: add --csv FILE for the " + rows + ")"
                          : "; plots in " + html;
    return text;
  }
  const std::string finished =
      std::to_string(done) + " of " + sim::counted(planned, "launch", "launches") + " finished";
  if (!csv.empty()) text = csv + " holds the " + rows + " of the " + finished;
  if (!html.empty())
    text += csv.empty() ? html + " plots the " + finished + " (no CSV written)" : "; " + html + " plots them";
  return text;
}

po::options_description sweep_options() {
  po::options_description options(
      "warpdiv sweep with --sizes and --tiles: the lecture's tiled matrix multiply, exact\n"
      "divergence counts of many launches into one CSV, one row per (rows, inner, cols, tile, condition). "
      "Sizes are square (J = K = L = size) unless --inner\n"
      "gives K. A progress bar shows on stderr when it is a terminal. Ctrl-C stops after the\n"
      "launch in hand, writes every finished row to the CSV and exits with status 130.\n\n"
      "usage: warpdiv sweep --sizes LIST|START:STOP:STEP --tiles LIST [--inner LIST]\n"
      "                     [--warp-size S] [--csv FILE] [--html FILE [--gpu NAME [--regs R]\n"
      "                     [--gpu-file FILE]]]   (--csv, --html or both)\n\noptions");
  options.add_options()("help,h", "show this help")(
      "sizes", po::value<std::string>()->value_name("LIST"),
      "required: J = L (and K unless --inner): e.g. 100,4097 or 64:4096:64 (START:STOP:STEP, "
      "STOP included), each 1 .. 2147483647 and each at most once")(
      "tiles", po::value<std::string>()->value_name("LIST"),
      "required: tile widths T, 1 .. 32, each at most once: e.g. 8,16,32 or 1:32:1")(
      "inner", po::value<std::string>()->value_name("LIST"),
      "inner sizes K to pair with every size, 1 .. 2147483647, each at most once (default: "
      "K = the size)")("warp-size", po::value<std::string>()->value_name("S"),
                       "warp size, a power of two 1 .. 64 (default 32)")(
      "csv", po::value<std::string>()->value_name("FILE"),
      "the CSV to write: rows,inner,cols,tile,warp_size,condition,warp_phases,"
      "divergent_warp_phases,fraction")(
      "html", po::value<std::string>()->value_name("FILE"),
      "a self-contained HTML page with plots of the divergent fraction against size (a curve "
      "per tile width, a plot per check); with --gpu, occupancy against tile width too");
  add_gpu_options(options);  // --gpu NAME adds the occupancy plot to the --html page
  return options;
}

// The plan of --sizes, --tiles, --inner and --warp-size, its size checked, and the GPU flags.
analysis::SweepPlan parse_plan(const po::variables_map& vm, GpuRequest& gpu) {
  namespace lim = lecture::limits;
  const IntegerSet sizes = parse_integer_set("--sizes", get(vm, "sizes"), lim::kMinSize, lim::kMaxSize);
  const IntegerSet tiles = parse_integer_set("--tiles", get(vm, "tiles"), lim::kMinTile, lim::kMaxTile);
  IntegerSet inners;
  if (has(vm, "inner")) inners = parse_integer_set("--inner", get(vm, "inner"), lim::kMinSize, lim::kMaxSize);
  analysis::SweepPlan plan;
  plan.warp_size =
      has(vm, "warp-size") ? parse_warp_size("--warp-size", get(vm, "warp-size")) : lim::kDefaultWarpSize;
  if (!has(vm, "csv") && !has(vm, "html"))
    throw InvalidInput(Diag::flag_usage,
                       "warpdiv sweep needs --csv FILE, --html FILE or both (see warpdiv sweep --help)");
  if (has(vm, "gpu") && !has(vm, "html"))
    throw InvalidInput(Diag::flag_usage, "--gpu needs --html FILE (the occupancy plot is on the page)");
  gpu = tiled_gpu_request(vm);
  // Each count is at most 2^31, so the product of three fits in 128 bits.
  const sim::Count launches =
      static_cast<sim::Count>(sizes.count()) * tiles.count() * (has(vm, "inner") ? inners.count() : 1);
  if (launches > kMaxSweepLaunches)
    throw InvalidInput(Diag::launch_budget, "--sizes, --inner and --tiles give " + sim::to_decimal(launches) +
                                                " launches, above the limit of " +
                                                std::to_string(kMaxSweepLaunches) +
                                                " per sweep; split it into several");
  if (has(vm, "html") && launches > kMaxHtmlSweepLaunches)
    throw InvalidInput(Diag::launch_budget, "--html plots at most " + std::to_string(kMaxHtmlSweepLaunches) +
                                                " launches (this sweep has " + sim::to_decimal(launches) +
                                                "); use a coarser START:STOP:STEP or --csv alone");
  plan.sizes = sizes.expand();
  plan.tiles.reserve(tiles.count());
  for (std::int64_t t : tiles.expand()) plan.tiles.push_back(static_cast<int>(t));
  if (has(vm, "inner")) plan.inners = inners.expand();
  return plan;
}

}  // namespace

SweepRequest parse_sweep(const Args& args) {
  const po::options_description options = sweep_options();
  SweepRequest r;
  if (asks_for_help(args)) {  // before Boost refuses the missing required flags
    r.help = help_text(options);
    return r;
  }
  const po::variables_map vm = parse_command_line("sweep", args, options);
  if ((r.list_gpus = gpu_list_asked(vm, r.gpu))) return r;
  for (const char* flag : {"sizes", "tiles"})
    if (!has(vm, flag))
      throw InvalidInput(Diag::flag_usage,
                         std::string("--") + flag + " LIST is required (see warpdiv sweep --help)");
  r.plan = parse_plan(vm, r.gpu);
  r.csv = get_optional(vm, "csv");
  r.html = get_optional(vm, "html");
  return r;
}

int sweep_lecture_command(const Args& args, std::ostream& out) {
  const SweepRequest request = parse_sweep(args);
  if (answered_at_once(out, request.help, request.list_gpus ? &request.gpu : nullptr)) return 0;
  // The preset and --regs, checked as `warpdiv analyze --gpu` checks them (T = 1 stands for all).
  analysis::SweepHtmlOptions page;
  if (const auto occupancy = tiled_occupancy(request.gpu, 1, request.plan.warp_size)) {
    page.gpu = occupancy->gpu;
    page.registers_per_thread = occupancy->launch.registers_per_thread;
  }
  CommandOutputs outputs(out, run_inputs({}, request.gpu.file));
  analysis::Output* csv = outputs.open("--csv", request.csv, "CSV");
  analysis::Output* html = outputs.open("--html", request.html, "HTML");
  // Catch Ctrl-C from here on (other signals remove the temporary files and end the sweep): the
  // outputs are open, so there is something to save.
  const SigintHandler sigint;
  if (csv) analysis::write_sweep_csv_header(csv->stream());
  std::vector<analysis::SweepRow> kept;  // for the page
  if (html) kept.reserve(request.plan.launches() * lecture::kConditionCount);
  const std::size_t done = run_sweep_lecture(
      request.plan,
      [&](const analysis::SweepRow& row) {
        if (csv) analysis::write_sweep_csv_row(csv->stream(), row);
        if (html) kept.push_back(row);
      },
      [&] { return sigint.interrupted() || outputs.failed(); });
  if (html) html->stream() << analysis::render_sweep_html(kept, page, sigint.interrupted());
  outputs.commit();
  const std::string summary = sweep_summary(done, request.plan.launches(), sigint.interrupted(),
                                            csv ? csv->name() : "", html ? html->name() : "");
  if (sigint.interrupted()) {
    std::cerr << "warpdiv sweep: interrupted: " << sim::one_line(summary) << '\n';
    return kInterruptedStatus;
  }
  outputs.report() << "warpdiv sweep: " << summary << '\n';
  return 0;
}

}  // namespace warpdiv::cli
