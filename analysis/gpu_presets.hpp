// GPU presets: data/gpus.csv (or a user's file of the same format), one GpuSpec per row, read with
// analysis/csv.hpp's RFC 4180 tokenizer. Every error names the file, the line and the column.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "analysis/occupancy.hpp"

namespace warpdiv::analysis {

/// The columns of a GPU file, in the order data/gpus.csv writes them (a user's file may order
/// them differently and add others; none may be missing). Lines starting with '#' and empty
/// lines are comments.
constexpr const char* kGpuCsvColumns[] = {
    "name",         // preset name: letters, digits, '.', '_', '-'; case-insensitive
    "description",  // free text
    "cc",           // compute capability "X.Y"
    "sm_count",     // 0 = unknown
    "warp_size",
    "max_threads_per_block",
    "max_threads_per_sm",
    "max_blocks_per_sm",
    "registers_per_sm",
    "registers_per_block",
    "max_registers_per_thread",
    "register_allocation_unit",          // registers
    "warp_allocation_granularity",       // register-file partitions (warps)
    "shared_memory_per_sm",              // bytes, the largest carveout
    "shared_memory_per_block",           // bytes, default per-block limit
    "shared_memory_per_block_optin",     // bytes
    "shared_memory_allocation_unit",     // bytes
    "reserved_shared_memory_per_block",  // bytes
    "shared_memory_carveouts_kb",        // KiB, ascending, ';'-separated ("0;8;16;32;64;100")
    "barriers_per_sm",                   // 0 = no barrier limit
    "source",                            // where the figures come from
};
constexpr std::size_t kGpuCsvColumnCount = sizeof(kGpuCsvColumns) / sizeof(kGpuCsvColumns[0]);

/// Optional columns (a file may leave them out, a row may leave them empty: unknown): the peak
/// FP32 rate in GFLOP/s and the DRAM bandwidth in GB/s (decimal numbers), and where they come
/// from, for the roofline bound of `warpdiv analyze --gpu`.
constexpr const char* kGpuCsvRateColumns[] = {"peak_fp32_gflops", "memory_bandwidth_gbs", "rates_source"};

/// Reads a GPU file (RFC 4180: quoted fields may hold commas, quotes and line breaks; a UTF-8
/// BOM is skipped) through read_input_file() (analysis/input_file.hpp), `what` naming it there
/// ("--gpu-file"). Throws InvalidInput "FILE:LINE: column 'x': ..." (LINE as an editor numbers
/// it) for a missing column, a value that is not an integer in range, an inconsistent row, or a
/// duplicate name; "FILE: ..." when it has no rows.
std::vector<GpuSpec> load_gpu_file(const std::string& path, const std::string& what = "--gpu-file");
/// The same from the file's text; `file_name` is used in messages only.
std::vector<GpuSpec> parse_gpu_csv(const std::string& file_name, const std::string& text);

/// The preset named `name` (case-insensitive). Throws InvalidInput naming `flag`, the file, the
/// closest name when it is a likely typo, and at most ten known names (then how many more).
const GpuSpec& find_gpu(const std::vector<GpuSpec>& gpus, const std::string& name, const std::string& flag,
                        const std::string& file_name);

/// The table `warpdiv occupancy --gpu list` prints.
void write_gpu_list(std::ostream& out, const std::vector<GpuSpec>& gpus, const std::string& file_name);

/// "9.0"
std::string compute_capability_text(const GpuSpec& gpu);

}  // namespace warpdiv::analysis
