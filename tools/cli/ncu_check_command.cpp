// warpdiv ncu-check: Nsight Compute's CSV against the calculator and the model (no GPU needed).
#include "analysis/ncu_crosscheck.hpp"
#include "sim/errors.hpp"
#include "sim/replay.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/options.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

int ncu_check_command(const Args& args, std::ostream& out) {
  po::options_description options(
      "warpdiv ncu-check: compare Nsight Compute's occupancy figures for warpdiv's kernels with\n"
      "the calculator (fed ncu's registers, shared memory and carveout), and print ncu's branch\n"
      "metrics beside the model's divergent warp-phases. Profile with tools/ncu-crosscheck, or\n"
      "ncu --csv --page raw --section LaunchStats --section Occupancy on `warpdiv validate`.\n\n"
      "usage: warpdiv ncu-check --ncu-csv FILE [--width W | --rows J --inner K --cols L]\n"
      "                         [--tile T] [--validate-csv FILE]\n\noptions");
  options.add_options()("help,h", "show this help")(
      "ncu-csv", po::value<std::string>()->value_name("FILE"), "ncu's CSV (--csv --page raw)")(
      "validate-csv", po::value<std::string>()->value_name("FILE"),
      "`warpdiv validate --csv` of the same launch: compare registers with the runtime's")(
      "width", po::value<std::string>()->value_name("W"), "the profiled launch: J = K = L = W")(
      "rows", po::value<std::string>()->value_name("J"), "rows of M and P")(
      "inner", po::value<std::string>()->value_name("K"), "columns of M = rows of N")(
      "cols", po::value<std::string>()->value_name("L"), "columns of N and P")(
      "tile", po::value<std::string>()->value_name("T"), "tile width 1 .. 32 (default 16)");
  const po::variables_map vm = parse_command_line("ncu-check", args, options);
  if (has(vm, "help")) {
    write_help(out, options);
    return 0;
  }
  if (!has(vm, "ncu-csv")) throw InvalidInput("--ncu-csv FILE is required (see warpdiv ncu-check --help)");
  sim::LaunchConfig config = launch_from(vm);
  config.warp_size = 32;  // NVIDIA's warps, as profiled
  analysis::RuntimeRegisters registers;
  if (has(vm, "validate-csv")) {
    int tile = 0;
    registers = analysis::read_runtime_registers(get(vm, "validate-csv"), "--validate-csv", tile);
    if (tile != config.tile)
      throw InvalidInput("--validate-csv is for T = " + std::to_string(tile) + ", not --tile " +
                         std::to_string(config.tile));
  }
  const std::vector<analysis::NcuLaunch> launches =
      analysis::read_ncu_csv(get(vm, "ncu-csv"), "--ncu-csv");
  const analysis::NcuCrosscheck check =
      analysis::crosscheck_ncu(launches, sim::replay(config), registers);
  analysis::write_ncu_crosscheck_text(out, check);
  if (!check.matched()) throw Mismatch("ncu's occupancy figures differ from the calculator's");
  return 0;
}

}  // namespace warpdiv::cli
