// warpdiv analyze: the divergence report of one launch, optionally as CSV.
#include <memory>

#include "analysis/atomic_file.hpp"
#include "analysis/divergence_report.hpp"
#include "sim/replay.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gpu_options.hpp"
#include "tools/cli/options.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

int analyze_command(const Args& args, std::ostream& out) {
  po::options_description options(
      "warpdiv analyze: count divergent warp-phases of the tiled matrix multiply's boundary checks\n"
      "(P[J x L] = M[J x K] * N[K x L], blockDim (T, T)).\n\n"
      "usage: warpdiv analyze [--width W | --rows J --inner K --cols L] [--tile T] [--warp-size S]\n"
      "                       [--csv FILE] [--gpu NAME [--regs R] [--gpu-file FILE]]\n\noptions");
  options.add_options()("help,h", "show this help");
  add_launch_options(options);
  options.add_options()("csv", po::value<std::string>()->value_name("FILE"),
                        "also write the 20-row CSV (condition x block class) to FILE");
  add_gpu_options(options);  // --gpu NAME adds the launch's occupancy to the report
  const po::variables_map vm = parse_command_line("analyze", args, options);
  if (has(vm, "help")) {
    out << options << '\n';
    return 0;
  }
  const sim::LaunchConfig config = launch_from(vm);
  const auto occupancy = tiled_occupancy_block(vm, config.tile, config.warp_size);
  // Open the output first so a bad path is refused before any work.
  std::unique_ptr<analysis::AtomicFile> csv;
  if (has(vm, "csv")) csv = std::make_unique<analysis::AtomicFile>(get(vm, "csv"), "--csv");

  const sim::DivergenceResult result = sim::replay(config);

  if (csv) {
    analysis::write_divergence_csv(csv->stream(), result);
    csv->commit();
  }
  analysis::write_divergence_text(out, result);
  if (occupancy) out << '\n' << *occupancy;
  if (csv) out << "\nCSV written to " << csv->target() << '\n';
  return 0;
}

}  // namespace warpdiv::cli
