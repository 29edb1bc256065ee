// warpdiv validate (the lecture flags): the flags into a ValidateRequest, and the command that
// wires run_validate (tools/cli/lecture/runs.cpp) to its outputs.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <random>

#include "analysis/output_files.hpp"
#include "analysis/lecture/validation.hpp"
#include "kernels/probe.hpp"
#include "tools/cli/command_outputs.hpp"
#include "tools/cli/lecture/commands.hpp"
#include "tools/cli/lecture/launch_options.hpp"
#include "tools/cli/lecture/requests.hpp"
#include "tools/cli/lecture/runs.hpp"
#include "tools/cli/terminal.hpp"
#include "sim/support/errors.hpp"
#include "analysis/lecture/lecture_source.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/options.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

namespace {

constexpr std::int64_t kDefaultRepeats = 20;
constexpr std::int64_t kMaxRepeats = 10000;
constexpr std::int64_t kMaxSeed = 9223372036854775807;  // 2^63 - 1

/// Host memory for M, N and three copies of P, refused beyond the machine's physical memory.
void check_host_memory(const lecture::LaunchConfig& c) {
  const sim::Count floats =
      sim::checked_add(sim::checked_add(sim::checked_mul(static_cast<sim::Count>(c.rows), c.inner),
                                        sim::checked_mul(static_cast<sim::Count>(c.inner), c.cols)),
                       sim::checked_mul(sim::checked_mul(static_cast<sim::Count>(c.rows), c.cols), 3));
  const sim::Count bytes = sim::checked_mul(floats, sizeof(float));
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return;
  const sim::Count physical = static_cast<sim::Count>(pages) * static_cast<sim::Count>(page_size);
  if (bytes > physical)
    throw InvalidInput(Diag::memory_budget,
                       "the launch needs " + sim::to_decimal(bytes) +
                           " bytes of host memory for M, N and P, more than this machine's " +
                           sim::to_decimal(physical) + "; use smaller sizes");
}

po::options_description validate_options() {
  po::options_description options(
      "warpdiv validate with no FILE.cu: run the lecture's kernel (kernels/zoo/tiled_matmul_rect.cu, the "
      "file\n"
      "the model is read from) on GPU 0 and compare the GPU with the model: (a) P against a CPU\n"
      "double-precision reference, (b) the model against the GPU probe of the same source, every\n"
      "warp evaluation by __ballot_sync, as the lecture's table, (c) occupancy from the CUDA\n"
      "runtime against the calculator, (d) the kernel's time.\n"
      "Exit status 0 when all agree, 1 on any mismatch (see the list at the end).\n\n"
      "usage: warpdiv validate [--width W | --rows J --inner K --cols L] [--tile T]\n"
      "                        [--repeat N] [--seed S] [--csv FILE]\n\noptions");
  options.add_options()("help,h", "show this help")(
      "width", po::value<std::string>()->value_name("W"),
      "square matrices: J = K = L = W (1 .. 2147483647; default 100)")(
      "rows", po::value<std::string>()->value_name("J"),
      "rows of M and P, 1 .. 2147483647 (with --inner, --cols)")(
      "inner", po::value<std::string>()->value_name("K"), "columns of M = rows of N, 1 .. 2147483647")(
      "cols", po::value<std::string>()->value_name("L"), "columns of N and P, 1 .. 2147483647")(
      "tile", po::value<std::string>()->value_name("T"), "tile width, blockDim (T, T): 1 .. 32 (default 16)")(
      "repeat", po::value<std::string>()->value_name("N"),
      "timed launches of each kernel, 1 .. 10000 (default 20)")(
      "seed", po::value<std::string>()->value_name("S"),
      "seed of the random inputs, 0 .. 2^63-1 (default: fresh each run, printed)")(
      "csv", po::value<std::string>()->value_name("FILE"),
      "also write the header and one row of figures to FILE");
  return options;
}

}  // namespace

ValidateRequest parse_validate(const Args& args) {
  const po::options_description options = validate_options();
  const po::variables_map vm = parse_command_line("validate", args, options);
  ValidateRequest r;
  if (has(vm, "help")) {
    r.help = help_text(options);
    return r;
  }
  r.config = launch_from(vm);
  r.config.warp_size = kernels::kProbeWarpSize;
  r.repeats = has(vm, "repeat")
                  ? static_cast<int>(parse_integer("--repeat", get(vm, "repeat"), 1, kMaxRepeats))
                  : static_cast<int>(kDefaultRepeats);
  if (has(vm, "seed")) {
    r.seed = static_cast<std::uint64_t>(parse_integer("--seed", get(vm, "seed"), 0, kMaxSeed));
  } else {
    std::random_device entropy;
    r.seed = (static_cast<std::uint64_t>(entropy()) << 31 ^ entropy()) & static_cast<std::uint64_t>(kMaxSeed);
  }
  r.csv = get_optional(vm, "csv");
  check_host_memory(r.config);
  return r;
}

int validate_lecture_command(const Args& args, std::ostream& out) {
  const ValidateRequest request = parse_validate(args);
  if (answered_at_once(out, request.help)) return 0;
  // A bad output path is refused before the GPU is touched.
  CommandOutputs outputs(out, run_inputs({}, std::nullopt));
  analysis::Output* csv = outputs.open("--csv", request.csv, "CSV");
  const SigintHandler sigint;
  outputs.stop_on(sigint.flag());  // Ctrl-C while writing: exit 130, no file
  analysis::ValidationRecord record;
  try {
    record = run_validate(request, sigint.flag());
  } catch (const Interrupted&) {
    std::cerr << "warpdiv validate: interrupted: no file written\n";
    return kInterruptedStatus;
  }
  if (csv) {
    csv->stream() << analysis::kValidationCsvHeader << '\n';
    analysis::write_validation_csv_row(csv->stream(), record);
  }
  outputs.commit();
  analysis::write_validation_text(outputs.report(), record);
  outputs.announce();
  if (!record.all_passed()) throw Mismatch(analysis::failure_summary(record));
  return 0;
}

}  // namespace warpdiv::cli
