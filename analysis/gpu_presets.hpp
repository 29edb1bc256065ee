// GPU presets: data/gpus.csv (or a user's file of the same format), one GpuSpec per row, read with
// the CSV parser library (libfccp). Every error names the file, the line and the column.
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/occupancy.hpp"

namespace warpdiv::analysis {

/// The columns of a GPU file, in the order data/gpus.csv writes them (a user's file may order
/// them differently and add others; none may be missing). Lines starting with '#' and empty
/// lines are comments.
constexpr const char* kGpuCsvColumns[] = {
    "name",                          // preset name: letters, digits, '.', '_', '-'; case-insensitive
    "description",                   // free text
    "cc",                            // compute capability "X.Y"
    "sm_count",                      // 0 = unknown
    "warp_size",
    "max_threads_per_block",
    "max_threads_per_sm",
    "max_blocks_per_sm",
    "registers_per_sm",
    "registers_per_block",
    "max_registers_per_thread",
    "register_allocation_unit",      // registers
    "warp_allocation_granularity",   // register-file partitions (warps)
    "shared_memory_per_sm",          // bytes, the largest carveout
    "shared_memory_per_block",       // bytes, default per-block limit
    "shared_memory_per_block_optin", // bytes
    "shared_memory_allocation_unit", // bytes
    "reserved_shared_memory_per_block",  // bytes
    "shared_memory_carveouts_kb",    // KiB, ascending, ';'-separated ("0;8;16;32;64;100")
    "barriers_per_sm",               // 0 = no barrier limit
    "source",                        // where the figures come from
};
constexpr std::size_t kGpuCsvColumnCount = sizeof(kGpuCsvColumns) / sizeof(kGpuCsvColumns[0]);

/// Reads a GPU file. Throws InvalidInput "FILE:LINE: column 'x': ..." for a missing column, a
/// non-numeric or negative value, an inconsistent row, or a duplicate name; "FILE: ..." when it
/// cannot be opened or has no rows.
std::vector<GpuSpec> load_gpu_file(const std::string& path);
/// The same from a stream; `file_name` is used in messages only.
std::vector<GpuSpec> parse_gpu_csv(const std::string& file_name, std::istream& in);

/// The preset named `name` (case-insensitive). Throws InvalidInput naming `flag`, the file and the
/// known names when there is none.
const GpuSpec& find_gpu(const std::vector<GpuSpec>& gpus, const std::string& name,
                        const std::string& flag, const std::string& file_name);

/// The table `warpdiv occupancy --gpu list` prints.
void write_gpu_list(std::ostream& out, const std::vector<GpuSpec>& gpus, const std::string& file_name);

/// "9.0"
std::string compute_capability_text(const GpuSpec& gpu);

}  // namespace warpdiv::analysis
