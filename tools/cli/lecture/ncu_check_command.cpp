// warpdiv ncu-check --ncu-csv FILE: Nsight Compute's CSV of the lecture's kernels against the
// calculator and the model (no GPU needed).
#include <set>
#include <tuple>

#include "analysis/lecture/ncu_crosscheck.hpp"
#include "sim/support/errors.hpp"
#include "analysis/lecture/lecture_source.hpp"
#include "tools/cli/command_outputs.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/lecture/commands.hpp"
#include "tools/cli/lecture/launch_options.hpp"
#include "tools/cli/options.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

namespace {

std::string sizes_text(std::int64_t rows, std::int64_t inner, std::int64_t cols, int tile) {
  return std::to_string(rows) + " x " + std::to_string(inner) + " x " + std::to_string(cols) +
         ", T = " + std::to_string(tile);
}

// The validate CSV's row of the launch given by the flags (those given), which then supplies the
// sizes and tile that were not given. Refused when no row matches, or when the flags leave more
// than one launch to choose from.
const analysis::ValidateRun& pick_validate_run(const std::vector<analysis::ValidateRun>& runs,
                                               const po::variables_map& vm,
                                               const lecture::LaunchConfig& flags, bool sizes_given,
                                               bool tile_given) {
  const auto matches = [&](const analysis::ValidateRun& r) {
    return (!sizes_given || (r.rows == flags.rows && r.inner == flags.inner && r.cols == flags.cols)) &&
           (!tile_given || r.tile == flags.tile);
  };
  const analysis::ValidateRun* chosen = nullptr;
  std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t, int>> launches;
  for (const analysis::ValidateRun& r : runs) {
    if (!matches(r)) continue;
    if (!chosen) chosen = &r;
    launches.emplace(r.rows, r.inner, r.cols, r.tile);
  }
  const std::string file = get(vm, "validate-csv");
  if (!chosen) {
    const analysis::ValidateRun& r = runs.front();
    throw InvalidInput(Diag::file_content,
                       "--validate-csv: " + r.where + " is the launch " +
                           sizes_text(r.rows, r.inner, r.cols, r.tile) +
                           (runs.size() > 1 ? " (and no other row matches)" : "") + ", not the " +
                           (sizes_given ? sizes_text(flags.rows, flags.inner, flags.cols, flags.tile)
                                        : "T = " + std::to_string(flags.tile)) +
                           " given by the flags");
  }
  if (launches.size() > 1)
    throw InvalidInput(Diag::file_content,
                       "--validate-csv: '" + file + "' holds " + std::to_string(launches.size()) +
                           " launches; choose one with --width or --rows/--inner/--cols and --tile");
  return *chosen;
}

po::options_description ncu_check_options() {
  po::options_description options(
      "warpdiv ncu-check --ncu-csv FILE: compare Nsight Compute's occupancy figures for the\n"
      "lecture's kernels with the calculator (fed ncu's registers, shared memory and carveout),\n"
      "and print ncu's branch\n"
      "metrics beside the model's divergent warp-phases. Profile with tools/ncu-crosscheck, or\n"
      "ncu --csv --page raw --section LaunchStats --section Occupancy on `warpdiv validate`.\n"
      "The launch must be the profiled one: ncu's blockDim must be (T, T, 1) and its grid\n"
      "(ceil(L/T), ceil(J/T), 1); the --validate-csv row must have the same sizes and T. Sizes\n"
      "and T not given are taken from --validate-csv, T else from ncu's blockDim; ncu's CSV\n"
      "does not hold the sizes, so without --validate-csv give them.\n\n"
      "usage: warpdiv ncu-check --ncu-csv FILE [--width W | --rows J --inner K --cols L]\n"
      "                         [--tile T] [--validate-csv FILE]\n\noptions");
  options.add_options()("help,h", "show this help")("ncu-csv", po::value<std::string>()->value_name("FILE"),
                                                    "ncu's CSV (--csv --page raw)")(
      "validate-csv", po::value<std::string>()->value_name("FILE"),
      "`warpdiv validate --csv` of the same launch: its sizes and the runtime's registers")(
      "width", po::value<std::string>()->value_name("W"), "the profiled launch: J = K = L = W")(
      "rows", po::value<std::string>()->value_name("J"), "rows of M and P")(
      "inner", po::value<std::string>()->value_name("K"), "columns of M = rows of N")(
      "cols", po::value<std::string>()->value_name("L"), "columns of N and P")(
      "tile", po::value<std::string>()->value_name("T"), "tile width 1 .. 32");
  return options;
}

// The profiled launch: from the flags, the --validate-csv row and ncu's blockDim (see the help),
// with the registers per thread the runtime reported; and ncu's launches.
struct NcuCheckInput {
  lecture::LaunchConfig config;
  analysis::RuntimeRegisters registers;
  std::vector<analysis::NcuLaunch> launches;
};

NcuCheckInput ncu_check_input(const po::variables_map& vm) {
  if (!has(vm, "ncu-csv"))
    throw InvalidInput(Diag::flag_usage, "--ncu-csv FILE is required (see warpdiv ncu-check --help)");
  NcuCheckInput input;
  lecture::LaunchConfig& config = input.config;
  config = launch_from(vm);
  config.warp_size = 32;  // NVIDIA's warps, as profiled
  const bool sizes_given = has(vm, "width") || has(vm, "rows") || has(vm, "inner") || has(vm, "cols");
  bool tile_known = has(vm, "tile");
  bool sizes_known = sizes_given;
  if (has(vm, "validate-csv")) {
    const analysis::ValidateRun& run =
        pick_validate_run(analysis::read_validate_csv(get(vm, "validate-csv"), "--validate-csv"), vm, config,
                          sizes_given, tile_known);
    config.rows = run.rows;
    config.inner = run.inner;
    config.cols = run.cols;
    config.tile = run.tile;
    sizes_known = tile_known = true;
    input.registers = run.registers;
  }
  input.launches = analysis::read_ncu_csv(get(vm, "ncu-csv"), "--ncu-csv");
  const std::vector<analysis::NcuLaunch>& launches = input.launches;
  if (!tile_known || !sizes_known) {
    // ncu's first launch of warpdiv's kernels: its blockDim (T, T, 1) gives T; its grid only
    // ceil(L/T) and ceil(J/T), and nothing gives K.
    const analysis::NcuLaunch* first = nullptr;
    for (const analysis::NcuLaunch& l : launches)
      if (!first && !analysis::lecture_kernel_kind(l.kernel_name).empty()) first = &l;
    if (!sizes_known)
      throw InvalidInput(Diag::flag_usage,
                         "ncu-check needs the sizes of the profiled launch: ncu's CSV gives only " +
                             std::string(first ? "its grid " + first->grid_size : "grids") +
                             "; pass --width W or --rows J --inner K --cols L, or --validate-csv FILE");
    if (first && first->block.size() >= 2 && first->block[0] == first->block[1] &&
        first->block[0] <= lecture::limits::kMaxTile)
      config.tile = static_cast<int>(first->block[0]);
  }
  return input;
}

}  // namespace

int ncu_check_lecture_command(const Args& args, std::ostream& out) {
  const po::options_description options = ncu_check_options();
  const po::variables_map vm = parse_command_line("ncu-check", args, options);
  if (has(vm, "help")) {
    write_help(out, options);
    return 0;
  }
  std::vector<RunInput> inputs;
  for (const char* flag : {"ncu-csv", "validate-csv"})
    if (has(vm, flag)) inputs.emplace_back(std::string("--") + flag, get(vm, flag));
  const CommandOutputs guard(out, inputs);  // the text report never goes into an input
  const NcuCheckInput input = ncu_check_input(vm);
  const analysis::NcuCrosscheck check =
      analysis::crosscheck_ncu(input.launches, analysis::lecture_counts(input.config), input.registers);
  analysis::write_ncu_crosscheck_text(out, check);
  if (!check.matched()) throw Mismatch("ncu's occupancy figures differ from the calculator's");
  return 0;
}

}  // namespace warpdiv::cli
