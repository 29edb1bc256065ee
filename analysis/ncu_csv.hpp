// A reader of Nsight Compute's CSV (`ncu --csv --page raw`): one row per profiled kernel launch,
// one column per metric, a units row under the header.
//
// What ncu writes and the reader copes with: every field quoted (RFC 4180, through
// analysis/csv.hpp's tokenizer); lines before the header (the "==PROF==" progress lines, the
// program's own output when --log-file is not used) and after the table; a units row (its ID is
// empty); numbers with thousands separators ("1,024"); metrics missing (an empty field or "n/a")
// where a section did not collect them; a UTF-8 BOM. Strict where it matters: a metric that is a
// count (registers, bytes, blocks, device attributes, branch targets) must be an integer, a
// percentage a number from 0 to 100; anything else is refused naming the file, the physical line
// (as an editor numbers it, progress lines included) and the column.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpdiv::analysis {

/// The columns the reader looks for (others are ignored, any of these may be missing).
namespace ncu_metric {
constexpr const char* kBlockSize = "launch__block_size";
constexpr const char* kGridSize = "launch__grid_size";
constexpr const char* kRegistersPerThread = "launch__registers_per_thread";
constexpr const char* kStaticShared = "launch__shared_mem_per_block_static";
constexpr const char* kDynamicShared = "launch__shared_mem_per_block_dynamic";
constexpr const char* kDriverShared = "launch__shared_mem_per_block_driver";
constexpr const char* kSharedConfig = "launch__shared_mem_config_size";
constexpr const char* kLimitWarps = "launch__occupancy_limit_warps";
constexpr const char* kLimitRegisters = "launch__occupancy_limit_registers";
constexpr const char* kLimitSharedMem = "launch__occupancy_limit_shared_mem";
constexpr const char* kLimitBlocks = "launch__occupancy_limit_blocks";
constexpr const char* kTheoreticalOccupancy = "sm__maximum_warps_per_active_cycle_pct";
constexpr const char* kAchievedOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
constexpr const char* kBranchUniformPct = "smsp__sass_average_branch_targets_threads_uniform.pct";
constexpr const char* kDivergentBranchTargets = "smsp__sass_branch_targets_threads_divergent.sum";
constexpr const char* kBranchTargets = "smsp__sass_branch_targets.sum";
constexpr const char* kSmCount = "device__attribute_multiprocessor_count";
constexpr const char* kRegistersPerSm = "device__attribute_max_registers_per_multiprocessor";
constexpr const char* kRegistersPerBlock = "device__attribute_max_registers_per_block";
constexpr const char* kSharedPerSm = "device__attribute_max_shared_memory_per_multiprocessor";
constexpr const char* kThreadsPerSm = "device__attribute_max_threads_per_multiprocessor";
constexpr const char* kBlocksPerSm = "device__attribute_max_blocks_per_multiprocessor";
constexpr const char* kCcMajor = "device__attribute_compute_capability_major";
constexpr const char* kCcMinor = "device__attribute_compute_capability_minor";
// Memory: global requests and sectors by operation, shared wavefronts, bank conflicts
// and executed shared instructions.
constexpr const char* kGlobalLoadRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kGlobalLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kGlobalStoreRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kGlobalStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kGlobalAtomRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum";
constexpr const char* kGlobalRedRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum";
constexpr const char* kSharedLoadInstructions = "smsp__sass_inst_executed_op_shared_ld.sum";
constexpr const char* kSharedStoreInstructions = "smsp__sass_inst_executed_op_shared_st.sum";
constexpr const char* kSharedLoadWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* kSharedStoreWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr const char* kSharedLoadConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr const char* kSharedStoreConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
}  // namespace ncu_metric

/// One profiled launch.
struct NcuLaunch {
  std::string where;  // "FILE:LINE" of its row, for messages
  std::int64_t id = 0;
  std::string kernel_name;                   // as ncu prints it (demangled, or the function's base name)
  std::string block_size;                    // "(16, 16, 1)"
  std::string grid_size;                     // "(7, 7, 1)"
  std::vector<std::int64_t> block;           // {16, 16, 1}; empty where the CSV has no Block Size
  std::vector<std::int64_t> grid;            // {7, 7, 1}; empty where the CSV has no Grid Size
  std::string compute_capability;            // "9.0"
  std::map<std::string, double> metrics;     // the numeric metrics present in this row
  std::map<std::string, std::string> units;  // from the units row, where given

  std::optional<double> metric(const std::string& name) const;
  /// The metric, or InvalidInput naming it, the launch and its line when it is missing.
  double require(const std::string& name) const;
  /// "FILE:LINE: ncu launch ID (KERNEL)", the start of every message about this launch.
  std::string describe() const;
};

/// A number as ncu prints it: "1024", "1,024", "93.75", "-0.5", "1e+06"; anything else
/// (empty, "n/a", "1,02") is nullopt.
std::optional<double> parse_ncu_number(const std::string& text);

/// An integer as ncu prints it: "1024", "1,024"; nullopt for anything else ("1.5", "1e3", "-1",
/// "1,02") and for values above `max`.
std::optional<std::int64_t> parse_ncu_integer(const std::string& text, std::int64_t max);

/// "(16, 16, 1)" -> {16, 16, 1}: one to three integers from 1 to 2^31 - 1; throws InvalidInput
/// on anything else.
std::vector<std::int64_t> parse_ncu_dim3(const std::string& text);

/// Parses ncu's CSV text. `source` names it in messages (a file name). Throws InvalidInput
/// "SOURCE:LINE: ..." when there is no header, a row cannot be read or holds a bad value, or no
/// launch is listed.
std::vector<NcuLaunch> parse_ncu_csv(const std::string& text, const std::string& source);

/// Reads (analysis/input_file.hpp's policy, `flag` naming the file there) and parses a file.
std::vector<NcuLaunch> read_ncu_csv(const std::string& path, const std::string& flag);

/// Nsight Compute's source page with metrics per CUDA line (`ncu --section SourceCounters --csv
/// --page source --print-source cuda,sass`, a kernel compiled with -lineinfo): per line of the
/// CUDA source, the sum over its SASS instructions of "L2 Theoretical Sectors Global" (the
/// 32-byte sectors the global accesses ask of L2: what the model counts as a line's sectors).
/// The CUDA line rows are those whose "Line No" is not empty (the SASS rows under each have it
/// empty). Lines not in `file` (a name ending the "File Path" row; "" accepts every file) are
/// left out. Refuses (InvalidInput naming `source` and the line) a page without the header or
/// the column, or a count that is not a non-negative integer.
std::map<std::uint32_t, std::uint64_t> parse_ncu_source_sectors(const std::string& text,
                                                                const std::string& source,
                                                                const std::string& file = "");

}  // namespace warpdiv::analysis
