#include "analysis/occupancy_report.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

#include "analysis/csv.hpp"
#include "analysis/gpu_presets.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::analysis {

namespace {

void line(std::ostream& out, const std::string& label, const std::string& value,
          const std::string& note = "") {
  out << "  " << std::left << std::setw(34) << label << std::right << std::setw(9) << value;
  if (!note.empty()) out << "   " << note;
  out << '\n';
}

std::string str(std::int64_t v) { return std::to_string(v); }

std::string carveout_note(const GpuSpec& gpu, const LaunchResources& launch, const OccupancyResult& r) {
  std::string note = "bytes per SM, ";
  if (launch.carveout_percent)
    note += "carveout " + str(*launch.carveout_percent) + "% of " + str(gpu.shared_memory_per_sm);
  else
    note += "default carveout (the largest)";
  if (r.can_run() && r.shared_memory_config != 0 && launch.carveout_percent) {
    // The preference rounds up to a supported size; a block larger than that raises it.
    note += ", supported sizes ";
    for (std::size_t i = 0; i < gpu.shared_memory_carveouts.size(); ++i)
      note += (i ? "/" : "") + str(gpu.shared_memory_carveouts[i] / 1024);
    note += " KB";
  }
  return note;
}

std::string origin_of(const ResourceOrigins* origins, const std::string ResourceOrigins::*field) {
  return origins ? origins->*field : std::string();
}

}  // namespace

std::string limit_text(int limit) {
  return limit == occupancy_limits::kUnlimited ? "unlimited" : std::to_string(limit);
}

std::string limiter_text(const OccupancyResult& result, const std::string& separator) {
  std::string text;
  for (Limiter l : result.limiters) text += (text.empty() ? "" : separator) + limiter_name(l);
  return text;
}

std::string occupancy_text(const OccupancyResult& result) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", result.occupancy_pct);
  return buffer;
}

namespace {

// The one record of `warpdiv occupancy --csv`.
struct OccupancyCsvRow {
  const GpuSpec& gpu;
  const LaunchResources& launch;
  const OccupancyResult& result;
};

const CsvColumns<OccupancyCsvRow>& occupancy_csv_columns() {
  using R = const OccupancyCsvRow&;
  static const CsvColumns<OccupancyCsvRow> columns = {
      {"gpu", [](R r) { return r.gpu.name; }},
      {"threads_per_block", [](R r) { return str(r.launch.threads_per_block); }},
      {"regs_per_thread", [](R r) { return str(r.launch.registers_per_thread); }},
      {"smem_per_block",
       [](R r) { return str(r.launch.static_shared_bytes + r.launch.dynamic_shared_bytes); }},
      {"limit_warps", [](R r) { return limit_text(r.result.limit_warps); }},
      {"limit_blocks", [](R r) { return limit_text(r.result.limit_blocks); }},
      {"limit_registers", [](R r) { return limit_text(r.result.limit_registers); }},
      {"limit_shared_mem", [](R r) { return limit_text(r.result.limit_shared_mem); }},
      {"active_blocks", [](R r) { return str(r.result.active_blocks); }},
      {"active_warps", [](R r) { return str(r.result.active_warps); }},
      {"occupancy_pct", [](R r) { return occupancy_text(r.result); }},
      {"limiter", [](R r) { return limiter_text(r.result, ";"); }},
  };
  return columns;
}

}  // namespace

void write_occupancy_csv(std::ostream& out, const GpuSpec& gpu, const LaunchResources& launch,
                         const OccupancyResult& r) {
  occupancy_csv_columns().write_header(out);
  occupancy_csv_columns().write_row(out, {gpu, launch, r});
}

void write_occupancy_text(std::ostream& out, const GpuSpec& gpu, const LaunchResources& launch,
                          const OccupancyResult& r, const ResourceOrigins* origins) {
  const std::string regs_origin = origin_of(origins, &ResourceOrigins::registers);
  out << "Occupancy on " << gpu.name << " (";
  if (!gpu.description.empty()) out << gpu.description << ", ";
  out << "cc " << compute_capability_text(gpu);
  if (gpu.sm_count > 0) out << ", " << gpu.sm_count << " SMs";
  out << ")\n";
  if (origins && !origins->kernel.empty())
    out << "  Kernel " << origins->kernel << (origins->compiled.empty() ? "" : ": ") << origins->compiled
        << '\n';

  line(out, "Block Size", str(launch.threads_per_block),
       std::string(launch.threads_per_block == 1 ? "thread" : "threads") + " = " +
           sim::counted(r.warps_per_block, "warp") + " of " + str(gpu.warp_size));
  line(out, "Registers Per Thread", str(launch.registers_per_thread),
       (regs_origin.empty() ? "" : "from " + regs_origin + "; ") + "-> " + str(r.registers_per_warp) +
           " per warp (unit " + str(gpu.register_allocation_unit) + "), " + str(r.registers_per_block) +
           " per block");
  const std::string smem_origin = origin_of(origins, &ResourceOrigins::static_shared);
  line(out, "Static Shared Memory Per Block", str(launch.static_shared_bytes),
       smem_origin.empty() ? "bytes" : "bytes, from " + smem_origin);
  line(out, "Dynamic Shared Memory Per Block", str(launch.dynamic_shared_bytes), "bytes");
  line(out, "Driver Shared Memory Per Block", str(gpu.reserved_shared_memory_per_block),
       "bytes (reserved by the driver from cc 8.0)");
  line(out, "Shared Memory Allocated Per Block", str(r.shared_bytes_per_block),
       "bytes (unit " + str(gpu.shared_memory_allocation_unit) + ", limit " +
           str(r.shared_memory_limit_per_block) + " per block)");
  line(out, "Shared Memory Configuration Size", str(r.shared_memory_config), carveout_note(gpu, launch, r));

  const std::string per_block = " per block";
  line(out, "Block Limit SM", limit_text(r.limit_blocks),
       "resident blocks per SM (cc " + compute_capability_text(gpu) + ")");
  std::string regs_note;
  if (r.limit_registers == occupancy_limits::kUnlimited) {
    regs_note = "no registers used";
  } else if (r.limit_registers == 0) {
    regs_note = "the block cannot get its registers";
  } else {
    const std::int64_t partition = gpu.registers_per_sm / gpu.warp_allocation_granularity;
    const std::int64_t warps = partition / r.registers_per_warp * gpu.warp_allocation_granularity;
    regs_note = str(gpu.registers_per_sm) + " registers in " + str(gpu.warp_allocation_granularity) +
                " partitions hold " + sim::counted(warps, "warp") + " of " + str(r.registers_per_warp) +
                "; / " + sim::counted(r.warps_per_block, "warp") + per_block;
  }
  line(out, "Block Limit Registers", limit_text(r.limit_registers), regs_note);
  std::string smem_note;
  if (r.limit_shared_mem == occupancy_limits::kUnlimited)
    smem_note = "no shared memory used";
  else if (r.limit_shared_mem == 0)
    smem_note = "the block does not fit the per-block limit";
  else
    smem_note = str(r.shared_memory_config) + " / " + str(r.shared_bytes_per_block) + " bytes" + per_block;
  line(out, "Block Limit Shared Mem", limit_text(r.limit_shared_mem), smem_note);
  line(out, "Block Limit Warps", limit_text(r.limit_warps),
       launch.threads_per_block > gpu.max_threads_per_block
           ? "more than " + str(gpu.max_threads_per_block) + " threads" + per_block
           : str(gpu.max_warps_per_sm) + " warps (" + str(gpu.max_threads_per_sm) + " threads) per SM / " +
                 sim::counted(r.warps_per_block, "warp") + per_block);
  if (gpu.barriers_per_sm > 0)
    line(out, "Block Limit Barriers", limit_text(r.limit_barriers),
         str(gpu.barriers_per_sm) + " barriers per SM / " + str(launch.barriers_per_block) + per_block);
  line(out, "Theoretical Active Blocks per SM", str(r.active_blocks));
  line(out, "Theoretical Active Warps per SM", str(r.active_warps), "of " + str(gpu.max_warps_per_sm));
  line(out, "Theoretical Occupancy", occupancy_text(r), "%");
  line(out, "Limiter", limiter_text(r, ", "));
  if (!r.can_run()) out << "  Cannot run: " << r.reason << '\n';
}

}  // namespace warpdiv::analysis
