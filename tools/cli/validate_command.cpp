// warpdiv validate: runs the real kernels on GPU 0 and sets the model beside the hardware.
#include <unistd.h>

#include <ctime>
#include <memory>
#include <random>

#include "analysis/output_files.hpp"
#include "analysis/lecture/validation.hpp"
#include "kernels/tiled_matmul.hpp"
#include "sim/errors.hpp"
#include "analysis/lecture/lecture_source.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/device_occupancy.hpp"
#include "tools/cli/options.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

namespace {

constexpr std::int64_t kDefaultRepeats = 20;
constexpr std::int64_t kMaxRepeats = 10000;
constexpr std::int64_t kMaxSeed = 9223372036854775807;  // 2^63 - 1

/// Host memory for M, N and three copies of P, refused beyond the machine's physical memory.
void check_host_memory(const lecture::LaunchConfig& c) {
  const sim::Count floats = sim::checked_add(
      sim::checked_add(sim::checked_mul(static_cast<sim::Count>(c.rows), c.inner),
                       sim::checked_mul(static_cast<sim::Count>(c.inner), c.cols)),
      sim::checked_mul(sim::checked_mul(static_cast<sim::Count>(c.rows), c.cols), 3));
  const sim::Count bytes = sim::checked_mul(floats, sizeof(float));
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return;
  const sim::Count physical = static_cast<sim::Count>(pages) * static_cast<sim::Count>(page_size);
  if (bytes > physical)
    throw InvalidInput("the launch needs " + sim::to_decimal(bytes) +
                       " bytes of host memory for M, N and P, more than this machine's " +
                       sim::to_decimal(physical) + "; use smaller sizes");
}

}  // namespace

std::string cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

int validate_command(const Args& args, std::ostream& out) {
  if (is_source_analysis(args)) return validate_source_command(args, out);
  namespace lim = lecture::limits;
  po::options_description options(
      "warpdiv validate: run the tiled kernel on GPU 0 and compare the GPU with the model:\n"
      "(a) P against a CPU double-precision reference, (b) divergent warp-phases counted by\n"
      "__ballot_sync against the model, (c) occupancy from the CUDA runtime against the\n"
      "calculator, (d) times of the checked kernel and of the unchecked one on padded sizes.\n"
      "Exit status 0 when all agree, 1 on any mismatch (see the list at the end).\n\n"
      "usage: warpdiv validate [--width W | --rows J --inner K --cols L] [--tile T]\n"
      "                        [--repeat N] [--seed S] [--csv FILE]\n"
      "       warpdiv validate FILE.cu | --model FILE.json --grid ... --block ... (any kernel's\n"
      "                        control flow on the GPU: warpdiv validate FILE.cu --help)\n\noptions");
  options.add_options()
      ("help,h", "show this help")
      ("width", po::value<std::string>()->value_name("W"),
       "square matrices: J = K = L = W (1 .. 2147483647; default 100)")
      ("rows", po::value<std::string>()->value_name("J"), "rows of M and P, 1 .. 2147483647 (with --inner, --cols)")
      ("inner", po::value<std::string>()->value_name("K"), "columns of M = rows of N, 1 .. 2147483647")
      ("cols", po::value<std::string>()->value_name("L"), "columns of N and P, 1 .. 2147483647")
      ("tile", po::value<std::string>()->value_name("T"),
       "tile width, blockDim (T, T): 1 .. 32 (default 16)")
      ("repeat", po::value<std::string>()->value_name("N"),
       "timed launches of each kernel, 1 .. 10000 (default 20)")
      ("seed", po::value<std::string>()->value_name("S"),
       "seed of the random inputs, 0 .. 2^63-1 (default: fresh each run, printed)")
      ("csv", po::value<std::string>()->value_name("FILE"),
       "also write the header and one row of figures to FILE");
  const po::variables_map vm = parse_command_line("validate", args, options);
  if (has(vm, "help")) {
    write_help(out, options);
    return 0;
  }
  lecture::LaunchConfig config = launch_from(vm);
  config.warp_size = kernels::kWarpSize;
  const int repeats = has(vm, "repeat") ? static_cast<int>(parse_integer(
                                              "--repeat", get(vm, "repeat"), 1, kMaxRepeats))
                                        : static_cast<int>(kDefaultRepeats);
  std::uint64_t seed = 0;
  if (has(vm, "seed")) {
    seed = static_cast<std::uint64_t>(parse_integer("--seed", get(vm, "seed"), 0, kMaxSeed));
  } else {
    std::random_device entropy;
    seed = (static_cast<std::uint64_t>(entropy()) << 31 ^ entropy()) &
           static_cast<std::uint64_t>(kMaxSeed);
  }
  // Refuse a bad output path before touching the GPU.
  analysis::OutputFiles outputs(out);
  protect_inputs(outputs, vm);
  analysis::Output* csv = has(vm, "csv") ? &outputs.open("--csv", get(vm, "csv")) : nullptr;
  check_host_memory(config);

  const kernels::DeviceInfo device = kernels::query_device();  // NoDevice: exit 3
  const lecture::Geometry geometry(config);
  const bool with_records =
      geometry.warp_phases() <= kernels::kMaxRecordedWarpPhases;
  kernels::TiledMatmul gpu(config, with_records);  // refuses what does not fit, before allocating

  analysis::ValidationRecord record;
  record.device = device.name;
  record.compute_capability =
      std::to_string(device.compute_major) + "." + std::to_string(device.compute_minor);
  record.driver = cuda_version(device.driver_version);
  record.runtime = cuda_version(device.runtime_version);
  record.date = utc_now();
  record.seed = seed;
  record.repeats = repeats;
  // The lecture source's model: replayed warp by warp where that takes under a minute, counted
  // by classes beyond.
  record.model = analysis::lecture_replay_cost(config) <= sim::ir::ReplayOptions{}.max_evaluations
                     ? analysis::lecture_replay(config)
                     : analysis::lecture_counts(config);

  std::mt19937_64 rng(seed);
  const std::vector<float> m = analysis::random_matrix(config.rows, config.inner, rng);
  const std::vector<float> n = analysis::random_matrix(config.inner, config.cols, rng);
  gpu.upload(m, n);

  record.checked_product = analysis::check_product(config, m, n, gpu.run_checked(), rng);
  kernels::InstrumentedRun twin = gpu.run_instrumented();
  record.instrumented_product = analysis::check_product(config, m, n, twin.product, rng);
  record.hardware = twin.counts;
  record.count_differences = analysis::compare_counts(record.model, record.hardware);
  if (with_records)
    record.records = analysis::compare_records(config, twin.phase_records, twin.store_records);
  record.unchecked_product = analysis::check_product(config, m, n, gpu.run_unchecked(), rng);

  const analysis::GpuSpec gpu_spec = device_spec(device);
  record.checked_occupancy = occupancy_both_ways(gpu_spec, kernels::Kernel::checked, config.tile);
  record.instrumented_occupancy =
      occupancy_both_ways(gpu_spec, kernels::Kernel::instrumented, config.tile);
  record.unchecked_occupancy =
      occupancy_both_ways(gpu_spec, kernels::Kernel::unchecked, config.tile);

  const kernels::KernelTimes times = gpu.time_kernels(repeats);
  record.checked_ms = analysis::median(times.checked_ms);
  record.unchecked_ms = analysis::median(times.unchecked_ms);

  if (csv) {
    csv->stream() << analysis::kValidationCsvHeader << '\n';
    analysis::write_validation_csv_row(csv->stream(), record);
  }
  outputs.commit();
  analysis::write_validation_text(outputs.report(), record);
  if (csv) outputs.report() << "\nCSV written to " << csv->name() << '\n';
  if (!record.all_passed()) throw Mismatch(analysis::failure_summary(record));
  return 0;
}

}  // namespace warpdiv::cli
