#include "analysis/occupancy.hpp"

#include <algorithm>

#include "sim/support/errors.hpp"

namespace warpdiv::analysis {

namespace {

constexpr std::int64_t kKiB = 1024;

std::int64_t round_up(std::int64_t value, std::int64_t unit) {
  return unit <= 0 ? value : (value + unit - 1) / unit * unit;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::string cc_text(const GpuSpec& gpu) {
  return std::to_string(gpu.cc_major) + "." + std::to_string(gpu.cc_minor);
}

// The message is only built on failure: validate() runs on every compute_occupancy() call.
template <typename Message>
void require(bool ok, const GpuSpec& gpu, Message&& what) {
  if (!ok) throw InvalidInput(Diag::file_content, "GPU '" + gpu.name + "': " + std::string(what));
}

void require_positive(std::int64_t value, const GpuSpec& gpu, const char* field) {
  if (value <= 0)
    require(false, gpu, std::string(field) + " must be positive (got " + std::to_string(value) + ")");
}

// The carveout (bytes per SM) for a preference in percent: the percentage of the largest carveout,
// rounded up to the next size the SM supports (CUDA C Programming Guide, "Shared Memory" of the
// compute capability 7.x+ sections; cuda_occupancy.h does the same). Unset = the largest.
std::int64_t preferred_carveout(const GpuSpec& gpu, const std::optional<int>& percent) {
  if (!percent) return gpu.shared_memory_per_sm;
  const std::int64_t wanted = *percent * gpu.shared_memory_per_sm / 100;
  for (std::int64_t size : gpu.shared_memory_carveouts)
    if (size >= wanted) return size;
  return gpu.shared_memory_per_sm;
}

void add_reason(std::string& reasons, const std::string& reason) {
  if (!reasons.empty()) reasons += "; ";
  reasons += reason;
}

}  // namespace

const char* limiter_name(Limiter limiter) {
  switch (limiter) {
    case Limiter::warps:
      return "warps";
    case Limiter::registers:
      return "registers";
    case Limiter::shared_memory:
      return "shared_memory";
    case Limiter::blocks:
      return "blocks";
    case Limiter::barriers:
      return "barriers";
  }
  return "?";
}

void validate(const GpuSpec& gpu) {
  require(!gpu.name.empty(), gpu, "the name is empty");
  if (gpu.cc_major < 1 || gpu.cc_minor < 0 || gpu.cc_minor > 9)
    require(false, gpu, "compute capability " + cc_text(gpu) + " is not of the form X.Y");
  require(gpu.sm_count >= 0, gpu, "sm_count must not be negative");
  require_positive(gpu.warp_size, gpu, "warp_size");
  require_positive(gpu.max_threads_per_block, gpu, "max_threads_per_block");
  require_positive(gpu.max_threads_per_sm, gpu, "max_threads_per_sm");
  require(gpu.max_threads_per_sm % gpu.warp_size == 0, gpu,
          "max_threads_per_sm must be a multiple of warp_size");
  require(gpu.max_warps_per_sm == gpu.max_threads_per_sm / gpu.warp_size, gpu,
          "max_warps_per_sm must equal max_threads_per_sm / warp_size");
  require_positive(gpu.max_blocks_per_sm, gpu, "max_blocks_per_sm");
  require_positive(gpu.registers_per_sm, gpu, "registers_per_sm");
  require_positive(gpu.registers_per_block, gpu, "registers_per_block");
  require_positive(gpu.max_registers_per_thread, gpu, "max_registers_per_thread");
  require_positive(gpu.register_allocation_unit, gpu, "register_allocation_unit");
  require_positive(gpu.warp_allocation_granularity, gpu, "warp_allocation_granularity");
  require(gpu.registers_per_sm % gpu.warp_allocation_granularity == 0, gpu,
          "registers_per_sm must be a multiple of warp_allocation_granularity");
  namespace lim = occupancy_limits;
  for (auto [value, field] : {std::pair{gpu.shared_memory_per_sm, "shared_memory_per_sm"},
                              {gpu.shared_memory_per_block, "shared_memory_per_block"},
                              {gpu.shared_memory_per_block_optin, "shared_memory_per_block_optin"},
                              {gpu.shared_memory_allocation_unit, "shared_memory_allocation_unit"}}) {
    require_positive(value, gpu, field);
    if (value > lim::kMaxBytes) require(false, gpu, std::string(field) + " is implausibly large");
  }
  require(gpu.reserved_shared_memory_per_block >= 0 && gpu.reserved_shared_memory_per_block <= lim::kMaxBytes,
          gpu, "reserved_shared_memory_per_block must not be negative");
  require(gpu.shared_memory_per_block_optin >= gpu.shared_memory_per_block, gpu,
          "shared_memory_per_block_optin must be at least shared_memory_per_block");
  require(!gpu.shared_memory_carveouts.empty(), gpu, "shared_memory_carveouts is empty");
  for (std::size_t i = 0; i < gpu.shared_memory_carveouts.size(); ++i) {
    require(gpu.shared_memory_carveouts[i] >= 0, gpu, "shared_memory_carveouts must not be negative");
    require(i == 0 || gpu.shared_memory_carveouts[i] > gpu.shared_memory_carveouts[i - 1], gpu,
            "shared_memory_carveouts must be ascending");
  }
  require(gpu.shared_memory_carveouts.back() == gpu.shared_memory_per_sm, gpu,
          "the largest of shared_memory_carveouts must equal shared_memory_per_sm");
  // A block that fits the per-block limit must fit some carveout.
  require(
      gpu.shared_memory_per_block_optin + gpu.reserved_shared_memory_per_block <= gpu.shared_memory_per_sm,
      gpu,
      "shared_memory_per_block_optin + reserved_shared_memory_per_block exceeds "
      "shared_memory_per_sm");
  require(gpu.barriers_per_sm >= 0, gpu, "barriers_per_sm must not be negative");
}

void validate(const LaunchResources& launch) {
  namespace lim = occupancy_limits;
  const auto range = [](const char* what, std::int64_t value, std::int64_t min, std::int64_t max) {
    if (value < min || value > max)
      throw InvalidInput(Diag::flag_value, std::string(what) + " must be from " + std::to_string(min) +
                                               " to " + std::to_string(max) + " (got " +
                                               std::to_string(value) + ")");
  };
  range("threads per block", launch.threads_per_block, 1, lim::kMaxThreadsPerBlock);
  range("registers per thread", launch.registers_per_thread, 0, lim::kMaxRegistersPerThread);
  range("static shared memory (bytes)", launch.static_shared_bytes, 0, lim::kMaxBytes);
  range("dynamic shared memory (bytes)", launch.dynamic_shared_bytes, 0, lim::kMaxBytes);
  if (launch.carveout_percent) range("carveout (%)", *launch.carveout_percent, 0, 100);
  range("barriers per block", launch.barriers_per_block, 0, 16);
}

OccupancyResult compute_occupancy(const GpuSpec& gpu, const LaunchResources& launch) {
  validate(gpu);
  validate(launch);
  namespace lim = occupancy_limits;
  OccupancyResult r;
  std::string reasons;
  const std::int64_t warps = ceil_div(launch.threads_per_block, gpu.warp_size);
  r.warps_per_block = static_cast<int>(warps);

  // Warps: whole warps are allocated, so a block of 33 threads takes two warp slots.
  if (launch.threads_per_block > gpu.max_threads_per_block) {
    r.limit_warps = 0;
    add_reason(reasons, "a block of " + std::to_string(launch.threads_per_block) + " threads exceeds the " +
                            std::to_string(gpu.max_threads_per_block) + " threads per block");
  } else {
    r.limit_warps = static_cast<int>(gpu.max_warps_per_sm / warps);
    if (r.limit_warps == 0)
      add_reason(reasons, "a block's " + std::to_string(warps) + " warps exceed the " +
                              std::to_string(gpu.max_warps_per_sm) + " warps per SM");
  }

  r.limit_blocks = gpu.max_blocks_per_sm;

  // Registers: allocated per warp, rounded up to the allocation unit, within one sub-partition of
  // the register file each.
  const std::int64_t regs_per_warp =
      round_up(std::int64_t{launch.registers_per_thread} * gpu.warp_size, gpu.register_allocation_unit);
  r.registers_per_warp = static_cast<int>(regs_per_warp);
  r.registers_per_block = regs_per_warp * warps;
  // The hardware checks the per-block limit as if every sub-partition received the same number
  // of warps, i.e. with the warp count rounded up to the sub-partitions. GP100 (cc 6.0) has two
  // sub-partitions, but NVIDIA applies the check of the four-partition GP10x chips to it as well,
  // so that a kernel that runs on one Pascal chip runs on all (cuda_occupancy.h says so).
  const int checked_partitions = (gpu.cc_major == 6 && gpu.cc_minor == 0)
                                     ? std::max(gpu.warp_allocation_granularity, 4)
                                     : gpu.warp_allocation_granularity;
  const std::int64_t checked_warps = round_up(warps, checked_partitions);
  const std::int64_t regs_checked = regs_per_warp * checked_warps;
  if (launch.registers_per_thread > gpu.max_registers_per_thread) {
    r.limit_registers = 0;
    add_reason(reasons, std::to_string(launch.registers_per_thread) + " registers per thread exceed the " +
                            std::to_string(gpu.max_registers_per_thread) + " allowed per thread");
  } else if (r.registers_per_block > gpu.registers_per_block || regs_checked > gpu.registers_per_block) {
    r.limit_registers = 0;
    std::string why = std::to_string(launch.registers_per_thread) + " registers per thread take " +
                      std::to_string(regs_per_warp) + " per warp (allocated in units of " +
                      std::to_string(gpu.register_allocation_unit) + "), so " +
                      std::to_string(regs_per_warp * warps) + " for the block's " + std::to_string(warps) +
                      " warps";
    if (r.registers_per_block <= gpu.registers_per_block)
      why += " (" + std::to_string(regs_checked) + " counted as " + std::to_string(checked_warps) +
             " warps, a multiple of the " + std::to_string(checked_partitions) + " register-file partitions)";
    add_reason(reasons,
               why + ", more than the " + std::to_string(gpu.registers_per_block) + " registers per block");
  } else if (regs_per_warp == 0) {
    r.limit_registers = lim::kUnlimited;
  } else {
    const std::int64_t partition_registers = gpu.registers_per_sm / gpu.warp_allocation_granularity;
    const std::int64_t warps_per_sm = partition_registers / regs_per_warp * gpu.warp_allocation_granularity;
    r.limit_registers = static_cast<int>(warps_per_sm / warps);
    if (r.limit_registers == 0)
      add_reason(reasons, "the register file holds " + std::to_string(warps_per_sm) + " warps of " +
                              std::to_string(regs_per_warp) + " registers, fewer than the block's " +
                              std::to_string(warps));
  }

  // Shared memory: static + dynamic + the driver's reserve, rounded up to the allocation unit.
  const std::int64_t needed =
      launch.static_shared_bytes + launch.dynamic_shared_bytes + gpu.reserved_shared_memory_per_block;
  r.shared_bytes_per_block = round_up(needed, gpu.shared_memory_allocation_unit);
  // From cc 7.0 a kernel may opt in to more than the default per-block limit; warpdiv assumes a
  // launch that needs more has done so (cudaFuncAttributeMaxDynamicSharedMemorySize).
  const bool opt_in = gpu.cc_major >= 7 && needed > gpu.shared_memory_per_block;
  r.shared_memory_limit_per_block =
      (opt_in ? gpu.shared_memory_per_block_optin : gpu.shared_memory_per_block) +
      gpu.reserved_shared_memory_per_block;
  const std::int64_t preferred = preferred_carveout(gpu, launch.carveout_percent);
  if (r.shared_bytes_per_block > r.shared_memory_limit_per_block) {
    r.limit_shared_mem = 0;
    r.shared_memory_config = preferred;
    add_reason(reasons, "the block needs " + std::to_string(r.shared_bytes_per_block) +
                            " bytes of shared memory (" + std::to_string(launch.static_shared_bytes) +
                            " static + " + std::to_string(launch.dynamic_shared_bytes) + " dynamic + " +
                            std::to_string(gpu.reserved_shared_memory_per_block) + " reserved, in units of " +
                            std::to_string(gpu.shared_memory_allocation_unit) + "), more than the " +
                            std::to_string(r.shared_memory_limit_per_block) + "-byte limit per block");
  } else {
    // The preference holds while one block fits in it. Otherwise the driver picks a larger
    // configuration: from cc 7.0 the smallest carveout that fits the block, before that the
    // largest (cuda_occupancy.h, cudaOccMaxBlocksPerSMSmemLimit).
    std::int64_t config = preferred;
    if (preferred < r.shared_bytes_per_block) {
      config = gpu.shared_memory_per_sm;
      if (gpu.cc_major >= 7)
        for (std::int64_t size : gpu.shared_memory_carveouts)
          if (size >= r.shared_bytes_per_block) {
            config = size;
            break;
          }
    }
    r.shared_memory_config = config;
    r.limit_shared_mem =
        r.shared_bytes_per_block == 0
            ? lim::kUnlimited
            : static_cast<int>(std::min<std::int64_t>(config / r.shared_bytes_per_block, lim::kUnlimited));
  }

  // Block barriers (cc >= 9.0): each resident block holds its barriers.
  r.limit_barriers = (gpu.barriers_per_sm > 0 && launch.barriers_per_block > 0)
                         ? gpu.barriers_per_sm / launch.barriers_per_block
                         : lim::kUnlimited;

  r.active_blocks =
      std::min({r.limit_warps, r.limit_blocks, r.limit_registers, r.limit_shared_mem, r.limit_barriers});
  r.active_warps = static_cast<int>(r.active_blocks * warps);
  r.occupancy_pct = 100.0 * r.active_warps / gpu.max_warps_per_sm;
  if (r.limit_warps == r.active_blocks) r.limiters.push_back(Limiter::warps);
  if (r.limit_registers == r.active_blocks) r.limiters.push_back(Limiter::registers);
  if (r.limit_shared_mem == r.active_blocks) r.limiters.push_back(Limiter::shared_memory);
  if (r.limit_blocks == r.active_blocks) r.limiters.push_back(Limiter::blocks);
  if (r.limit_barriers == r.active_blocks) r.limiters.push_back(Limiter::barriers);
  if (r.active_blocks == 0) r.reason = reasons;
  return r;
}

LaunchResources tiled_kernel_launch(int tile, int registers_per_thread) {
  if (tile < 1 || tile > 1024)
    throw InvalidInput(Diag::flag_value,
                       "tile width must be from 1 to 1024 (got " + std::to_string(tile) + ")");
  LaunchResources launch;
  launch.threads_per_block = std::int64_t{tile} * tile;
  launch.registers_per_thread = registers_per_thread;
  // Two T x T tiles of float: Mds and Nds.
  launch.static_shared_bytes = 2 * std::int64_t{tile} * tile * static_cast<std::int64_t>(sizeof(float));
  return launch;
}

GpuSpec architecture_spec(int cc_major, int cc_minor) {
  GpuSpec g;
  g.name = "cc " + std::to_string(cc_major) + "." + std::to_string(cc_minor);
  g.cc_major = cc_major;
  g.cc_minor = cc_minor;
  g.warp_size = 32;
  g.max_threads_per_block = 1024;
  g.registers_per_sm = 65536;
  g.registers_per_block = 65536;
  g.max_registers_per_thread = 255;
  g.register_allocation_unit = 256;
  g.warp_allocation_granularity = 4;
  g.shared_memory_per_block = 48 * kKiB;
  g.shared_memory_allocation_unit = 256;
  g.source = "architecture_spec(): CUDA C Programming Guide, compute capabilities; cuda_occupancy.h";
  auto dedicated = [&](std::int64_t per_sm_kib) {
    g.shared_memory_per_sm = per_sm_kib * kKiB;
    g.shared_memory_per_block_optin = g.shared_memory_per_block;
    g.shared_memory_carveouts = {g.shared_memory_per_sm};
  };
  // From cc 7.0 the L1/shared split is a carveout of these sizes (KiB); opt-in allows the largest
  // minus the reserve (cc >= 8.0) or the largest (cc 7.x).
  auto carveouts = [&](std::vector<std::int64_t> kib, std::int64_t reserved) {
    g.shared_memory_carveouts.clear();
    for (std::int64_t k : kib) g.shared_memory_carveouts.push_back(k * kKiB);
    g.shared_memory_per_sm = g.shared_memory_carveouts.back();
    g.reserved_shared_memory_per_block = reserved;
    g.shared_memory_per_block_optin = g.shared_memory_per_sm - reserved;
  };
  const std::vector<std::int64_t> ampere = {0, 8, 16, 32, 64, 100, 132, 164};
  const std::vector<std::int64_t> consumer = {0, 8, 16, 32, 64, 100};
  const std::vector<std::int64_t> hopper = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  switch (cc_major) {
    case 2:  // Fermi: 16 or 48 KB of a 64 KB L1/shared split.
      if (cc_minor > 1) break;
      g.max_threads_per_sm = 1536;
      g.max_blocks_per_sm = 8;
      g.registers_per_sm = g.registers_per_block = 32768;
      g.max_registers_per_thread = 63;
      g.register_allocation_unit = 64;
      g.warp_allocation_granularity = 2;
      g.shared_memory_allocation_unit = 128;
      g.shared_memory_carveouts = {16 * kKiB, 48 * kKiB};
      g.shared_memory_per_sm = g.shared_memory_per_block_optin = 48 * kKiB;
      break;
    case 3:  // Kepler: L1 takes 16, 32 or 48 KB of 64 KB (3.7: of 128 KB).
      if (cc_minor != 0 && cc_minor != 2 && cc_minor != 5 && cc_minor != 7) break;
      g.max_threads_per_sm = 2048;
      g.max_blocks_per_sm = 16;
      if (cc_minor == 0) g.max_registers_per_thread = 63;
      if (cc_minor == 7) g.registers_per_sm = 131072;
      g.shared_memory_per_sm = (cc_minor == 7 ? 112 : 48) * kKiB;
      g.shared_memory_per_block_optin = g.shared_memory_per_block;
      g.shared_memory_carveouts = {g.shared_memory_per_sm - 32 * kKiB, g.shared_memory_per_sm - 16 * kKiB,
                                   g.shared_memory_per_sm};
      break;
    case 5:  // Maxwell: dedicated shared memory.
      if (cc_minor != 0 && cc_minor != 2 && cc_minor != 3) break;
      g.max_threads_per_sm = 2048;
      g.max_blocks_per_sm = 32;
      dedicated(cc_minor == 2 ? 96 : 64);
      break;
    case 6:  // Pascal: dedicated; GP100 has two register-file partitions.
      if (cc_minor > 2) break;
      g.max_threads_per_sm = 2048;
      g.max_blocks_per_sm = 32;
      if (cc_minor == 0) g.warp_allocation_granularity = 2;
      dedicated(cc_minor == 1 ? 96 : 64);
      break;
    case 7:
      if (cc_minor == 0 || cc_minor == 2) {  // Volta
        g.max_threads_per_sm = 2048;
        g.max_blocks_per_sm = 32;
        carveouts({0, 8, 16, 32, 64, 96}, 0);
      } else if (cc_minor == 5) {  // Turing
        g.max_threads_per_sm = 1024;
        g.max_blocks_per_sm = 16;
        carveouts({32, 64}, 0);
      }
      break;
    case 8:
      g.shared_memory_allocation_unit = 128;
      if (cc_minor == 0) {  // A100
        g.max_threads_per_sm = 2048;
        g.max_blocks_per_sm = 32;
        carveouts(ampere, kKiB);
      } else if (cc_minor == 7) {  // Orin
        g.max_threads_per_sm = 2048;
        g.max_blocks_per_sm = 16;
        carveouts(ampere, kKiB);
      } else if (cc_minor == 6 || cc_minor == 9) {  // GA10x, Ada
        g.max_threads_per_sm = 1536;
        g.max_blocks_per_sm = cc_minor == 9 ? 24 : 16;
        carveouts(consumer, kKiB);
      }
      break;
    case 9:  // Hopper
      if (cc_minor != 0) break;
      g.shared_memory_allocation_unit = 128;
      g.max_threads_per_sm = 2048;
      g.max_blocks_per_sm = 32;
      carveouts(hopper, kKiB);
      g.barriers_per_sm = 2 * g.max_blocks_per_sm;
      break;
    case 10:
    case 11:  // Data-centre Blackwell (10.0, 10.3) and Thor (10.1, renamed 11.0)
      if (!(cc_minor == 0 || cc_minor == 1 || cc_minor == 3)) break;
      if (cc_major == 11 && cc_minor != 0) break;
      g.shared_memory_allocation_unit = 128;
      if ((cc_major == 10 && cc_minor == 1) || cc_major == 11) {
        g.max_threads_per_sm = 1536;
        g.max_blocks_per_sm = 24;
        carveouts(hopper, kKiB);
        g.barriers_per_sm = g.max_blocks_per_sm;
      } else {
        g.max_threads_per_sm = 2048;
        g.max_blocks_per_sm = 32;
        carveouts(hopper, kKiB);
        g.barriers_per_sm = 2 * g.max_blocks_per_sm;
      }
      break;
    case 12:  // Consumer Blackwell
      if (cc_minor > 1) break;
      g.shared_memory_allocation_unit = 128;
      g.max_threads_per_sm = 1536;
      g.max_blocks_per_sm = 24;
      carveouts(consumer, kKiB);
      g.barriers_per_sm = g.max_blocks_per_sm;
      break;
    default:
      break;
  }
  if (g.max_threads_per_sm == 0)
    throw InvalidInput(Diag::flag_value, "unknown compute capability " + std::to_string(cc_major) + "." +
                                             std::to_string(cc_minor) + " (known: 2.0 .. 12.1)");
  g.max_warps_per_sm = g.max_threads_per_sm / g.warp_size;
  return g;
}

GpuSpec spec_from_device(const DeviceProperties& device) {
  GpuSpec g = architecture_spec(device.major, device.minor);
  g.name = device.name.empty() ? g.name : device.name;
  g.description = device.name;
  g.sm_count = device.multiProcessorCount;
  g.warp_size = device.warpSize;
  g.max_threads_per_block = device.maxThreadsPerBlock;
  g.max_threads_per_sm = device.maxThreadsPerMultiProcessor;
  g.max_warps_per_sm = device.warpSize > 0 ? device.maxThreadsPerMultiProcessor / device.warpSize : 0;
  if (device.maxBlocksPerMultiProcessor > 0) g.max_blocks_per_sm = device.maxBlocksPerMultiProcessor;
  g.registers_per_block = device.regsPerBlock;
  g.registers_per_sm = device.regsPerMultiprocessor;
  g.shared_memory_per_block = device.sharedMemPerBlock;
  g.shared_memory_per_block_optin =
      device.sharedMemPerBlockOptin > 0 ? device.sharedMemPerBlockOptin : device.sharedMemPerBlock;
  g.reserved_shared_memory_per_block = device.reservedSharedMemPerBlock;
  // The carveout sizes are the architecture's; the largest is what the device reports (a fixed
  // split on Maxwell and Pascal; Kepler's three sizes scale with it).
  const std::int64_t per_sm = device.sharedMemPerMultiprocessor;
  if (g.cc_major == 3) {
    g.shared_memory_carveouts = {per_sm - 32 * kKiB, per_sm - 16 * kKiB, per_sm};
  } else if (g.cc_major < 7) {
    g.shared_memory_carveouts = {per_sm};
  } else {
    auto& c = g.shared_memory_carveouts;
    c.erase(std::remove_if(c.begin(), c.end(), [&](std::int64_t s) { return s > per_sm; }), c.end());
    if (c.empty() || c.back() != per_sm) c.push_back(per_sm);
  }
  g.shared_memory_per_sm = per_sm;
  g.source = "cudaGetDeviceProperties, granularities from architecture_spec()";
  validate(g);
  return g;
}

}  // namespace warpdiv::analysis
