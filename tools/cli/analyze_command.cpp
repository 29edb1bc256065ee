// warpdiv analyze: the divergence report of one launch, optionally as CSV.
#include <memory>
#include <optional>

#include "analysis/lecture/divergence_report.hpp"
#include "analysis/lecture/html_report.hpp"
#include "analysis/lecture/lecture_source.hpp"
#include "analysis/occupancy_report.hpp"
#include "analysis/output_files.hpp"
#include "sim/errors.hpp"
#include "sim/message_text.hpp"
#include "sim/ir_replay.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gpu_options.hpp"
#include "tools/cli/options.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

namespace {

enum class Engine { exact, replay };

Engine engine_from(const std::string& text) {
  if (text == "exact") return Engine::exact;
  if (text == "replay") return Engine::replay;
  throw InvalidInput("--engine must be exact or replay (got " + sim::quote_value(text) + ")");
}

}  // namespace

int analyze_command(const Args& args, std::ostream& out) {
  if (is_source_analysis(args)) return analyze_source_command(args, out);
  po::options_description options(
      "warpdiv analyze: count divergent warp-phases of the tiled matrix multiply's boundary checks\n"
      "(P[J x L] = M[J x K] * N[K x L], blockDim (T, T)).\n\n"
      "usage: warpdiv analyze [--width W | --rows J --inner K --cols L] [--tile T] [--warp-size S]\n"
      "                       [--engine exact|replay] [--csv FILE] [--html FILE]\n"
      "                       [--gpu NAME [--regs R] [--gpu-file FILE]]\n"
      "       warpdiv analyze --gpu list [--gpu-file FILE]\n"
      "       warpdiv analyze FILE.cu --grid X[,Y[,Z]] --block X[,Y[,Z]] ...  (any kernel; see\n"
      "                       warpdiv analyze FILE.cu --help)\n\noptions");
  options.add_options()("help,h", "show this help");
  add_launch_options(options);
  options.add_options()("csv", po::value<std::string>()->value_name("FILE"),
                        "also write the 20-row CSV (condition x block class) to FILE")(
      "html", po::value<std::string>()->value_name("FILE"),
      "also write a self-contained HTML report (block grid, warp x phase maps, tables) to FILE");
  options.add_options()("engine", po::value<std::string>()->value_name("E"),
                        "exact (default: the class engine, any size, instant) or replay (visits "
                        "every warp of the lecture source; refuses runs above about a minute)");
  add_gpu_options(options);  // --gpu NAME adds the launch's occupancy to the report
  const po::variables_map vm = parse_command_line("analyze", args, options);
  if (has(vm, "help")) {
    write_help(out, options);
    return 0;
  }
  if (list_gpus_if_asked(vm, out)) return 0;
  const lecture::LaunchConfig config = launch_from(vm);
  const Engine engine = has(vm, "engine") ? engine_from(get(vm, "engine")) : Engine::exact;
  const sim::ir::ReplayOptions replay_options;
  if (engine == Engine::replay) {
    // Refuse before opening the output, and name the flag that gets the user an answer.
    const sim::Count cost = analysis::lecture_replay_cost(config);
    if (cost > replay_options.max_evaluations)
      throw InvalidInput("--engine replay would make " + sim::to_decimal(cost) +
                         " warp-statement evaluations, above its limit of " +
                         sim::to_decimal(replay_options.max_evaluations) +
                         " (about a minute); use --engine exact (the default), which counts any "
                         "size exactly");
  }
  const std::optional<TiledOccupancy> occupancy =
      tiled_occupancy(vm, config.tile, config.warp_size);
  // Open the outputs first so a bad path is refused before any work.
  analysis::OutputFiles outputs(out);
  protect_inputs(outputs, vm);
  analysis::Output* csv = has(vm, "csv") ? &outputs.open("--csv", get(vm, "csv")) : nullptr;
  analysis::Output* html = has(vm, "html") ? &outputs.open("--html", get(vm, "html")) : nullptr;
  std::ostream& report = outputs.report();  // nothing when an output goes to stdout

  const lecture::DivergenceResult result =
      engine == Engine::exact ? analysis::lecture_counts(config)
                              : analysis::lecture_replay(config, replay_options);

  // Render everything before committing anything, so a failure leaves no file half-updated.
  if (csv) analysis::write_divergence_csv(csv->stream(), result);
  if (html) {
    analysis::DivergenceHtmlOptions page;
    if (occupancy)
      page.occupancy =
          analysis::occupancy_html_section(occupancy->gpu, occupancy->launch, occupancy->result);
    html->stream() << analysis::render_divergence_html(result, page);
  }
  outputs.commit();
  analysis::write_divergence_text(report, result);
  if (occupancy) {
    report << '\n';
    analysis::write_occupancy_text(report, occupancy->gpu, occupancy->launch, occupancy->result);
  }
  if (csv) report << "\nCSV written to " << csv->name() << '\n';
  if (html) report << (csv ? "" : "\n") << "HTML written to " << html->name() << '\n';
  return 0;
}

}  // namespace warpdiv::cli
