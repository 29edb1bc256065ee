// warpdiv analyze without FILE.cu: the lecture's divergence report of one launch, optionally as
// CSV and HTML.
#include <iostream>
#include <optional>

#include "analysis/lecture/divergence_report.hpp"
#include "analysis/lecture/html_report.hpp"
#include "analysis/lecture/lecture_source.hpp"
#include "analysis/occupancy_report.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
#include "tools/cli/command_outputs.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gpu_options.hpp"
#include "tools/cli/lecture/commands.hpp"
#include "tools/cli/lecture/launch_options.hpp"
#include "tools/cli/lecture/requests.hpp"
#include "tools/cli/lecture/runs.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/terminal.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

namespace {

LectureEngine engine_from(const std::string& text) {
  if (text == "exact") return LectureEngine::exact;
  if (text == "replay") return LectureEngine::replay;
  if (text == "all") return LectureEngine::all;
  throw InvalidInput(Diag::flag_value,
                     "--engine must be exact, replay or all (got " + sim::quote_value(text) + ")");
}

po::options_description analyze_options() {
  po::options_description options(
      "warpdiv analyze with no FILE.cu: the GPU Teaching Kit lecture's tiled matrix multiply,\n"
      "divergent warp-phases of its boundary checks (P[J x L] = M[J x K] * N[K x L], blockDim (T, T)).\n\n"
      "usage: warpdiv analyze [--width W | --rows J --inner K --cols L] [--tile T] [--warp-size S]\n"
      "                       [--engine exact|replay|all] [--csv FILE] [--html FILE]\n"
      "                       [--gpu NAME [--regs R] [--gpu-file FILE]]\n"
      "       warpdiv analyze --gpu list [--gpu-file FILE]\n\noptions");
  options.add_options()("help,h", "show this help");
  add_launch_options(options);
  options.add_options()("csv", po::value<std::string>()->value_name("FILE"),
                        "also write the 20-row CSV (condition x block class) to FILE")(
      "html", po::value<std::string>()->value_name("FILE"),
      "also write a self-contained HTML report (block grid, warp x phase maps, tables) to FILE");
  options.add_options()("engine", po::value<std::string>()->value_name("E"),
                        "exact (default: the class engine, any size, instant), replay (visits "
                        "every warp of the lecture source; refuses runs above about a minute) or "
                        "all (both, compared cell by cell: the replay's table and a note that "
                        "they agree, or exit 1 naming the first figure that differs)");
  add_gpu_options(options);  // --gpu NAME adds the launch's occupancy to the report
  return options;
}

}  // namespace

AnalyzeRequest parse_analyze(const Args& args) {
  const po::options_description options = analyze_options();
  const po::variables_map vm = parse_command_line("analyze", args, options);
  AnalyzeRequest r;
  if (has(vm, "help")) {
    r.help = help_text(options);
    return r;
  }
  if ((r.list_gpus = gpu_list_asked(vm, r.gpu))) return r;
  r.config = launch_from(vm);
  if (has(vm, "engine")) r.engine = engine_from(get(vm, "engine"));
  if (r.engine != LectureEngine::exact) {
    // Refused before any output is opened, naming the flag that gets the user an answer.
    const sim::Count cost = analysis::lecture_replay_cost(r.config);
    const sim::Count limit = sim::ir::ReplayOptions{}.max_evaluations;
    if (cost > limit)
      throw InvalidInput(Diag::evaluation_budget,
                         "--engine " + get(vm, "engine") + " would make " + sim::to_decimal(cost) +
                             " warp-statement evaluations, above its limit of " + sim::to_decimal(limit) +
                             " (about a minute); use --engine exact (the default), which counts any "
                             "size exactly");
  }
  r.gpu = tiled_gpu_request(vm);
  r.csv = get_optional(vm, "csv");
  r.html = get_optional(vm, "html");
  return r;
}

int analyze_lecture_command(const Args& args, std::ostream& out) {
  const AnalyzeRequest request = parse_analyze(args);
  if (answered_at_once(out, request.help, request.list_gpus ? &request.gpu : nullptr)) return 0;
  const std::optional<TiledOccupancy> occupancy =
      tiled_occupancy(request.gpu, request.config.tile, request.config.warp_size);
  // The outputs are opened before the work, so that a bad path is refused at once.
  CommandOutputs outputs(out, run_inputs({}, request.gpu.file));
  analysis::Output* csv = outputs.open("--csv", request.csv, "CSV");
  analysis::Output* html = outputs.open("--html", request.html, "HTML");

  std::string note;
  const lecture::DivergenceResult result = run_analyze(request, note);
  if (!note.empty()) print_note(Diag::engines_compared, note);

  // Everything is rendered before anything is committed, so a failure leaves no file half-updated.
  if (csv) analysis::write_divergence_csv(csv->stream(), result);
  if (html) {
    analysis::DivergenceHtmlOptions page;
    if (occupancy)
      page.occupancy = analysis::occupancy_html_section(occupancy->gpu, occupancy->launch, occupancy->result);
    html->stream() << analysis::render_divergence_html(result, page);
  }
  outputs.commit();
  std::ostream& text = outputs.report();
  analysis::write_divergence_text(text, result);
  if (occupancy) {
    text << '\n';
    analysis::write_occupancy_text(text, occupancy->gpu, occupancy->launch, occupancy->result);
  }
  outputs.announce();
  return 0;
}

}  // namespace warpdiv::cli
