#include "analysis/ncu_crosscheck.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>  // libfccp's csv.h uses std::numeric_limits without including it
#include <tuple>

#include <libfccp/csv.h>  // with its reader thread, as in gpu_presets.cpp (one definition)

#include "analysis/divergence_report.hpp"
#include "sim/errors.hpp"
#include "sim/launch.hpp"

namespace warpdiv::analysis {

namespace {

namespace m = ncu_metric;

/// ncu prints percentages with two decimals at most.
constexpr double kPercentTolerance = 0.01;

std::string kernel_kind(const std::string& name) {
  // "unchecked" contains "checked": test the longer names first.
  for (const char* kind : {"instrumented", "unchecked", "checked"})
    if (name.find(std::string("tiled_matmul_") + kind) != std::string::npos) return kind;
  return "";
}

std::string number(double value) {
  char text[32];
  if (value == std::floor(value) && std::fabs(value) < 1e15)
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
    throw InvalidInput("ncu launch " + std::to_string(launch.id) +
                       " names no compute capability (CC column or device__attribute_*)");
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

RuntimeRegisters read_runtime_registers(const std::string& path, const std::string& flag,
                                        int& tile) {
  RuntimeRegisters registers;
  try {
    io::CSVReader<4, io::trim_chars<' '>, io::double_quote_escape<',', '"'>> reader(path);
    reader.read_header(io::ignore_extra_column, "tile", "registers_checked",
                       "registers_instrumented", "registers_unchecked");
    int checked = 0;
    int instrumented = 0;
    int unchecked = 0;
    if (!reader.read_row(tile, checked, instrumented, unchecked))
      throw InvalidInput(flag + ": '" + path + "' has no row");
    registers = {{"checked", checked}, {"instrumented", instrumented}, {"unchecked", unchecked}};
  } catch (const io::error::base& e) {
    throw InvalidInput(flag + ": '" + path + "' is not a warpdiv validate CSV: " + e.what());
  }
  return registers;
}

NcuCrosscheck crosscheck_ncu(const std::vector<NcuLaunch>& launches,
                             const sim::DivergenceResult& model,
                             const RuntimeRegisters& runtime_registers) {
  const sim::Geometry g(model.config);
  NcuCrosscheck result;
  result.model = model;
  for (const NcuLaunch& launch : launches) {
    const std::string kind = kernel_kind(launch.kernel_name);
    if (kind.empty()) continue;
    const std::string which = "ncu launch " + std::to_string(launch.id) + " (" + kind + ")";
    NcuKernelCheck k;
    k.id = launch.id;
    k.kernel = kind;
    const std::vector<std::int64_t> block = parse_ncu_dim3(launch.block_size);
    const std::vector<std::int64_t> grid = parse_ncu_dim3(launch.grid_size);
    k.tile = static_cast<int>(block[0]);
    if (block.size() < 2 || block[0] != model.config.tile || block[1] != model.config.tile)
      throw InvalidInput(which + " has blockDim " + launch.block_size + ", not (" +
                         std::to_string(model.config.tile) + ", " +
                         std::to_string(model.config.tile) + ", 1): pass its --tile");
    if (grid.size() < 2 || grid[0] != g.grid_x || grid[1] != g.grid_y)
      throw InvalidInput(which + " has grid " + launch.grid_size + ", not (" +
                         std::to_string(g.grid_x) + ", " + std::to_string(g.grid_y) +
                         ", 1): pass its sizes");

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
      k.figures.push_back({std::move(what), ncu, other, other_name,
                           std::fabs(ncu - other) <= tolerance});
    };
    add("shared memory configuration (bytes per SM)", config,
        static_cast<double>(calc.shared_memory_config), "calculator");
    add("occupancy limit: warps (blocks)", launch.require(m::kLimitWarps), calc.limit_warps,
        "calculator");
    add("occupancy limit: registers (blocks)", launch.require(m::kLimitRegisters),
        calc.limit_registers, "calculator");
    add("occupancy limit: shared memory (blocks)", launch.require(m::kLimitSharedMem),
        calc.limit_shared_mem, "calculator");
    add("occupancy limit: blocks (blocks)", launch.require(m::kLimitBlocks), calc.limit_blocks,
        "calculator");
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
    throw InvalidInput("the ncu CSV has no launch of warpdiv's kernels (tiled_matmul_checked, "
                       "tiled_matmul_instrumented, tiled_matmul_unchecked)");
  return result;
}

void write_ncu_crosscheck_text(std::ostream& out, const NcuCrosscheck& check) {
  const sim::DivergenceResult& model = check.model;
  out << "warpdiv ncu-check: " << sim::describe(model.config) << "\n"
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
        << (k.divergent_branch_targets ? number(*k.divergent_branch_targets) : "(not collected)")
        << " of " << (k.branch_targets ? number(*k.branch_targets) : "(not collected)") << "\n";
  }
  const auto cell = [&](sim::Condition c) {
    const sim::ClassCounts& all = model.at(c, sim::BlockClass::all);
    return sim::to_decimal(all.divergent_warp_phases) + "/" + sim::to_decimal(all.warp_phases) +
           " (" + percent(all.divergent_warp_phases, all.warp_phases) + ")";
  };
  out << "\nthe model's divergent warp-phases, beside those branch figures: load_M "
      << cell(sim::Condition::load_M) << ", load_N " << cell(sim::Condition::load_N)
      << ", compute " << cell(sim::Condition::compute) << ", store " << cell(sim::Condition::store)
      << "\n(ncu counts divergent branches; a check compiled to a predicated load is no branch, so "
         "it can diverge in the model and the ballot yet not in ncu's branch metrics)\n\n"
      << (check.matched() ? "ncu-check: ncu agrees with the calculator\n"
                          : "ncu-check: MISMATCH\n");
}

}  // namespace warpdiv::analysis
