// warpdiv analyze: the divergence report of one launch, optionally as CSV.
#include <memory>

#include "analysis/atomic_file.hpp"
#include "analysis/divergence_report.hpp"
#include "analysis/html_report.hpp"
#include "sim/replay.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/options.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

int analyze_command(const Args& args, std::ostream& out) {
  po::options_description options(
      "warpdiv analyze: count divergent warp-phases of the tiled matrix multiply's boundary checks\n"
      "(P[J x L] = M[J x K] * N[K x L], blockDim (T, T)).\n\n"
      "usage: warpdiv analyze [--width W | --rows J --inner K --cols L] [--tile T] [--warp-size S]\n"
      "                       [--csv FILE] [--html FILE]\n\noptions");
  options.add_options()("help,h", "show this help");
  add_launch_options(options);
  options.add_options()("csv", po::value<std::string>()->value_name("FILE"),
                        "also write the 20-row CSV (condition x block class) to FILE")(
      "html", po::value<std::string>()->value_name("FILE"),
      "also write a self-contained HTML report (block grid, warp x phase maps, tables) to FILE");
  const po::variables_map vm = parse_command_line("analyze", args, options);
  if (has(vm, "help")) {
    out << options << '\n';
    return 0;
  }
  const sim::LaunchConfig config = launch_from(vm);
  // Open the output first so a bad path is refused before any work.
  std::unique_ptr<analysis::AtomicFile> csv;
  if (has(vm, "csv")) csv = std::make_unique<analysis::AtomicFile>(get(vm, "csv"), "--csv");
  std::unique_ptr<analysis::AtomicFile> html;
  if (has(vm, "html")) html = std::make_unique<analysis::AtomicFile>(get(vm, "html"), "--html");

  const sim::DivergenceResult result = sim::replay(config);

  // Render everything before committing anything, so a failure leaves no file half-updated.
  if (csv) analysis::write_divergence_csv(csv->stream(), result);
  if (html) html->stream() << analysis::render_divergence_html(result);
  if (csv) csv->commit();
  if (html) html->commit();
  analysis::write_divergence_text(out, result);
  if (csv) out << "\nCSV written to " << csv->target() << '\n';
  if (html) out << (csv ? "" : "\n") << "HTML written to " << html->target() << '\n';
  return 0;
}

}  // namespace warpdiv::cli
