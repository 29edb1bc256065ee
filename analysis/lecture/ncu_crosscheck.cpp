#include "analysis/lecture/ncu_crosscheck.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

#include "analysis/csv.hpp"
#include "analysis/lecture/divergence_report.hpp"
#include "analysis/input_file.hpp"
#include "sim/support/errors.hpp"
#include "analysis/lecture/launch.hpp"

namespace warpdiv::analysis {

namespace {

namespace m = ncu_metric;

/// ncu prints percentages with two decimals at most.
constexpr double kPercentTolerance = 0.01;

// Integers in full, fractions with two decimals (ncu's percentages), and anything too large for
// that in %g form with every significant digit: never cut.
std::string number(double value) {
  char text[40];
  if (std::fabs(value) >= 1e15)
    std::snprintf(text, sizeof text, "%.17g", value);
  else if (value == std::floor(value))
    std::snprintf(text, sizeof text, "%.0f", value);
  else
    std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

/// The GPU as ncu describes it: the architecture's figures for its compute capability, replaced
/// by ncu's device attributes where the CSV has them.
GpuSpec spec_from_ncu(const NcuLaunch& launch, std::string& source) {
  int major = 0;
  int minor = 0;
  if (launch.metric(m::kCcMajor) && launch.metric(m::kCcMinor)) {
    major = static_cast<int>(*launch.metric(m::kCcMajor));
    minor = static_cast<int>(*launch.metric(m::kCcMinor));
  } else if (std::sscanf(launch.compute_capability.c_str(), "%d.%d", &major, &minor) != 2) {
    throw InvalidInput(Diag::file_content,
                       launch.describe() + " names no compute capability (CC column or device__attribute_*)");
  }
  const GpuSpec arch = architecture_spec(major, minor);
  DeviceProperties p;
  p.name = "cc " + std::to_string(major) + "." + std::to_string(minor);
  p.major = major;
  p.minor = minor;
  p.warpSize = arch.warp_size;
  p.maxThreadsPerBlock = arch.max_threads_per_block;
  p.sharedMemPerBlock = arch.shared_memory_per_block;
  p.sharedMemPerBlockOptin = arch.shared_memory_per_block_optin;
  const auto pick = [&](const char* metric, std::int64_t fallback) {
    const std::optional<double> v = launch.metric(metric);
    return v ? static_cast<std::int64_t>(*v) : fallback;
  };
  p.multiProcessorCount = static_cast<int>(pick(m::kSmCount, arch.sm_count));
  p.maxThreadsPerMultiProcessor = static_cast<int>(pick(m::kThreadsPerSm, arch.max_threads_per_sm));
  p.maxBlocksPerMultiProcessor = static_cast<int>(pick(m::kBlocksPerSm, arch.max_blocks_per_sm));
  p.regsPerBlock = static_cast<int>(pick(m::kRegistersPerBlock, arch.registers_per_block));
  p.regsPerMultiprocessor = static_cast<int>(pick(m::kRegistersPerSm, arch.registers_per_sm));
  p.sharedMemPerMultiprocessor = pick(m::kSharedPerSm, arch.shared_memory_per_sm);
  p.reservedSharedMemPerBlock = pick(m::kDriverShared, arch.reserved_shared_memory_per_block);
  const bool from_ncu = launch.metric(m::kRegistersPerSm) && launch.metric(m::kSharedPerSm) &&
                        launch.metric(m::kThreadsPerSm) && launch.metric(m::kBlocksPerSm);
  source = from_ncu ? "ncu's device attributes, granularities of compute capability " +
                          std::to_string(major) + "." + std::to_string(minor)
                    : "architecture_spec(" + std::to_string(major) + "." + std::to_string(minor) +
                          ") (the CSV has no device attributes)";
  return spec_from_device(p);
}

}  // namespace

std::string lecture_kernel_kind(const std::string& name) {
  // The lecture's kernel as warpdiv validate runs it (kernels/zoo/tiled_matmul_rect.cu).
  if (name.find("TiledMatMul") != std::string::npos) return "TiledMatMul";
  // The hand-written kernels of earlier versions, in the profiles recorded with them
  // (data/validation/ncu/). "unchecked" contains "checked": test the longer names first.
  for (const char* kind : {"instrumented", "unchecked", "checked"})
    if (name.find(std::string("tiled_matmul_") + kind) != std::string::npos) return kind;
  return "";
}

bool NcuKernelCheck::matched() const {
  for (const CrosscheckFigure& f : figures)
    if (!f.matched) return false;
  return true;
}

bool NcuCrosscheck::matched() const {
  for (const NcuKernelCheck& k : kernels)
    if (!k.matched()) return false;
  return !kernels.empty();
}

std::vector<ValidateRun> parse_validate_csv(const std::string& text, const std::string& source) {
  CsvTokenizer csv(text, source);
  if (csv.at_end()) throw InvalidInput(Diag::file_format, source + ": no header line");
  const std::size_t header_line = csv.line();
  const std::vector<std::string> header = csv.next().fields;
  refuse_duplicate_columns(header, source, header_line);
  // Today's file has one kernel's registers; earlier versions' files (data/validation/) three.
  const bool one_kernel = std::find(header.begin(), header.end(), "registers") != header.end();
  const std::vector<std::string> kernels =
      one_kernel ? std::vector<std::string>{"TiledMatMul"}
                 : std::vector<std::string>{"checked", "instrumented", "unchecked"};
  std::vector<std::string> kColumns = {"rows", "inner", "cols", "tile"};
  for (const std::string& k : kernels) kColumns.push_back(one_kernel ? "registers" : "registers_" + k);
  std::vector<std::size_t> position(kColumns.size());
  for (std::size_t i = 0; i < kColumns.size(); ++i) {
    position[i] = header.size();
    for (std::size_t j = 0; j < header.size(); ++j)
      if (header[j] == kColumns[i]) position[i] = j;
    if (position[i] == header.size())
      throw InvalidInput(Diag::file_format, source + ":" + std::to_string(header_line) +
                                                ": header: column '" + kColumns[i] +
                                                "' is missing (is this a warpdiv validate --csv file?)");
  }
  // The ranges warpdiv validate accepts: sizes of analysis/lecture/launch.hpp, T = 1 .. 32,
  // registers 0 .. 255.
  namespace lim = lecture::limits;
  std::vector<std::pair<std::int64_t, std::int64_t>> range = {{lim::kMinSize, lim::kMaxSize},
                                                              {lim::kMinSize, lim::kMaxSize},
                                                              {lim::kMinSize, lim::kMaxSize},
                                                              {lim::kMinTile, lim::kMaxTile}};
  range.resize(kColumns.size(), {0, 255});
  std::vector<ValidateRun> runs;
  while (!csv.at_end()) {
    if (csv.rest_of_line().empty()) {
      csv.skip_line();
      continue;
    }
    const CsvRecord record = csv.next();
    ValidateRun run;
    run.where = source + ":" + std::to_string(record.line);
    if (record.fields.size() != header.size())
      throw InvalidInput(Diag::file_format, run.where + ": " + std::to_string(record.fields.size()) +
                                                " fields where the header has " +
                                                std::to_string(header.size()));
    std::vector<std::int64_t> value(kColumns.size());
    for (std::size_t i = 0; i < kColumns.size(); ++i) {
      const std::string& text_value = record.fields[position[i]];
      const std::optional<std::int64_t> v =
          parse_decimal_integer(text_value, range[i].first, range[i].second);
      if (!v)
        throw InvalidInput(Diag::file_format, run.where + ": column '" + kColumns[i] + "': '" + text_value +
                                                  "' is not an integer from " +
                                                  std::to_string(range[i].first) + " to " +
                                                  std::to_string(range[i].second));
      value[i] = *v;
    }
    run.rows = value[0];
    run.inner = value[1];
    run.cols = value[2];
    run.tile = static_cast<int>(value[3]);
    for (std::size_t k = 0; k < kernels.size(); ++k)
      run.registers[kernels[k]] = static_cast<int>(value[4 + k]);
    runs.push_back(std::move(run));
  }
  if (runs.empty()) throw InvalidInput(Diag::file_content, source + ": no row after the header");
  return runs;
}

std::vector<ValidateRun> read_validate_csv(const std::string& path, const std::string& flag) {
  return parse_validate_csv(read_input_file(path, flag, InputFormat::csv), path);
}

NcuCrosscheck crosscheck_ncu(const std::vector<NcuLaunch>& launches, const lecture::DivergenceResult& model,
                             const RuntimeRegisters& runtime_registers) {
  const lecture::Geometry g(model.config);
  NcuCrosscheck result;
  result.model = model;
  for (const NcuLaunch& launch : launches) {
    const std::string kind = lecture_kernel_kind(launch.kernel_name);
    if (kind.empty()) continue;
    NcuKernelCheck k;
    k.id = launch.id;
    k.kernel = kind;
    const std::vector<std::int64_t>& block = launch.block;
    const std::vector<std::int64_t>& grid = launch.grid;
    const std::int64_t tile = model.config.tile;
    const auto dims = [](std::int64_t x, std::int64_t y) {
      return "(" + std::to_string(x) + ", " + std::to_string(y) + ", 1)";
    };
    const auto third_is_one = [](const std::vector<std::int64_t>& d) { return d.size() < 3 || d[2] == 1; };
    if (block.size() < 2 || block[0] != tile || block[1] != tile || !third_is_one(block))
      throw InvalidInput(Diag::file_content, launch.describe() + " has blockDim " +
                                                 (block.empty() ? "(none)" : launch.block_size) +
                                                 ", not the blockDim " + dims(tile, tile) +
                                                 " of T = " + std::to_string(tile));
    if (grid.size() < 2 || grid[0] != g.grid_x || grid[1] != g.grid_y || !third_is_one(grid))
      throw InvalidInput(Diag::file_content, launch.describe() + " has grid " +
                                                 (grid.empty() ? "(none)" : launch.grid_size) +
                                                 ", not the grid " + dims(g.grid_x, g.grid_y) + " of " +
                                                 lecture::describe(model.config));
    const std::optional<double> threads = launch.metric(m::kBlockSize);
    if (threads && *threads != static_cast<double>(tile * tile))
      throw InvalidInput(Diag::file_content, launch.describe() + " has " + m::kBlockSize + " = " +
                                                 number(*threads) + ", not the " +
                                                 std::to_string(tile * tile) + " threads of blockDim " +
                                                 launch.block_size);
    const std::optional<double> blocks = launch.metric(m::kGridSize);
    if (blocks && *blocks != static_cast<double>(g.blocks()))
      throw InvalidInput(Diag::file_content, launch.describe() + " has " + m::kGridSize + " = " +
                                                 number(*blocks) + ", not the " + std::to_string(g.blocks()) +
                                                 " blocks of grid " + launch.grid_size);
    k.tile = static_cast<int>(tile);

    const GpuSpec gpu = spec_from_ncu(launch, result.gpu_source);
    LaunchResources resources;
    resources.threads_per_block = block[0] * block[1];
    resources.registers_per_thread = static_cast<int>(launch.require(m::kRegistersPerThread));
    resources.static_shared_bytes = static_cast<std::int64_t>(launch.require(m::kStaticShared));
    resources.dynamic_shared_bytes =
        static_cast<std::int64_t>(launch.metric(m::kDynamicShared).value_or(0.0));
    resources.barriers_per_block = 1;
    // The carveout the driver chose for this launch, as a preference the calculator rounds up
    // to a supported size: floor() so that rounding up lands on that very size.
    const double config = launch.require(m::kSharedConfig);
    resources.carveout_percent =
        static_cast<int>(std::floor(config * 100.0 / static_cast<double>(gpu.shared_memory_per_sm)));
    const OccupancyResult calc = compute_occupancy(gpu, resources);

    const auto add = [&](std::string what, double ncu, double other, const char* other_name,
                         double tolerance = 0.0) {
      k.figures.push_back({std::move(what), ncu, other, other_name, std::fabs(ncu - other) <= tolerance});
    };
    add("shared memory configuration (bytes per SM)", config, static_cast<double>(calc.shared_memory_config),
        "calculator");
    add("occupancy limit: warps (blocks)", launch.require(m::kLimitWarps), calc.limit_warps, "calculator");
    add("occupancy limit: registers (blocks)", launch.require(m::kLimitRegisters), calc.limit_registers,
        "calculator");
    add("occupancy limit: shared memory (blocks)", launch.require(m::kLimitSharedMem), calc.limit_shared_mem,
        "calculator");
    add("occupancy limit: blocks (blocks)", launch.require(m::kLimitBlocks), calc.limit_blocks, "calculator");
    add("theoretical occupancy (%)", launch.require(m::kTheoreticalOccupancy), calc.occupancy_pct,
        "calculator", kPercentTolerance);
    const auto runtime = runtime_registers.find(kind);
    if (runtime != runtime_registers.end())
      add("registers per thread", resources.registers_per_thread, runtime->second, "runtime");
    k.branch_uniform_pct = launch.metric(m::kBranchUniformPct);
    k.divergent_branch_targets = launch.metric(m::kDivergentBranchTargets);
    k.branch_targets = launch.metric(m::kBranchTargets);
    result.kernels.push_back(std::move(k));
  }
  if (result.kernels.empty())
    throw InvalidInput(Diag::file_content,
                       "the ncu CSV has no launch of warpdiv's kernels (TiledMatMul; "
                       "tiled_matmul_checked, tiled_matmul_instrumented, tiled_matmul_unchecked "
                       "in earlier versions)");
  return result;
}

void write_ncu_crosscheck_text(std::ostream& out, const NcuCrosscheck& check) {
  const lecture::DivergenceResult& model = check.model;
  out << "warpdiv ncu-check: " << lecture::describe(model.config) << "\n"
      << "calculator's GPU: " << check.gpu_source << "\n";
  for (const NcuKernelCheck& k : check.kernels) {
    out << "\nlaunch " << k.id << ": " << k.kernel << " kernel, T = " << k.tile << "\n";
    for (const CrosscheckFigure& f : k.figures) {
      char line[200];
      std::snprintf(line, sizeof line, "  %-43s ncu %10s   %-10s %10s   %s\n", f.what.c_str(),
                    number(f.ncu).c_str(), f.other_name.c_str(), number(f.other).c_str(),
                    f.matched ? "agree" : "DIFFER");
      out << line;
    }
    out << "  branches (ncu): uniform branch targets "
        << (k.branch_uniform_pct ? number(*k.branch_uniform_pct) + "%" : "(not collected)")
        << ", divergent branch targets "
        << (k.divergent_branch_targets ? number(*k.divergent_branch_targets) : "(not collected)") << " of "
        << (k.branch_targets ? number(*k.branch_targets) : "(not collected)") << "\n";
  }
  const auto cell = [&](lecture::Condition c) {
    const lecture::ClassCounts& all = model.at(c, lecture::BlockClass::all);
    return sim::to_decimal(all.divergent_warp_phases) + "/" + sim::to_decimal(all.warp_phases) + " (" +
           percent(all.divergent_warp_phases, all.warp_phases) + ")";
  };
  out << "\nthe model's divergent warp-phases, beside those branch figures: load_M "
      << cell(lecture::Condition::load_M) << ", load_N " << cell(lecture::Condition::load_N) << ", compute "
      << cell(lecture::Condition::compute) << ", store " << cell(lecture::Condition::store)
      << "\n(ncu counts divergent branches; a check compiled to a predicated load is no branch, so "
         "it can diverge in the model and the ballot yet not in ncu's branch metrics)\n\n"
      << (check.matched() ? "ncu-check: ncu agrees with the calculator\n" : "ncu-check: MISMATCH\n");
}

}  // namespace warpdiv::analysis
