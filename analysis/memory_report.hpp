// The memory side of `warpdiv analyze FILE.cu`: per statement, global requests,
// 32-byte sectors and bytes the lanes ask for, shared requests, wavefronts and bank conflicts,
// floating-point operations (sim/memory/ir_memory.hpp says how each is counted); per access the same
// with its source text, or why it is not counted; per launch the traffic (what L1 asks of L2:
// sectors x 32 bytes, which is not DRAM traffic), the arithmetic intensity and, for a GPU with a
// known peak rate and bandwidth, the bandwidth-bound ceiling min(peak, intensity x bandwidth).
// Data here; the text formatter below; the CSV's columns are in source_report.cpp's list.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/support/count.hpp"
#include "sim/model/ir.hpp"
#include "sim/memory/ir_memory.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::analysis {

/// One statement's memory figures: its counted accesses summed by space, and its flops.
struct MemoryFigures {
  sim::Count global_requests = 0;
  sim::Count global_sectors = 0;
  sim::Count global_bytes = 0;  // bytes the lanes ask for: lanes x width
  /// global_requests split by operation, as Nsight Compute's per-line counters split them:
  /// loads (smsp__sass_inst_executed_op_global_ld), stores (_st), atomics and reductions
  /// (_atom + _red).
  sim::Count global_load_requests = 0;
  sim::Count global_store_requests = 0;
  sim::Count global_atomic_requests = 0;
  sim::Count shared_requests = 0;
  sim::Count shared_wavefronts = 0;
  sim::Count shared_bank_conflicts = 0;  // wavefronts beyond one per phase (sim/memory/ir_memory.hpp)
  sim::Count flops = 0;
  bool has_global = false;  // the statement has a counted global / shared access
  bool has_shared = false;
  /// The statement's accesses whose figures are not counted (accesses_not_counted says why):
  /// the figures above leave them out.
  sim::Count accesses_not_counted = 0;
};

/// Adds `b`'s figures to `a` (the figures of several statements on one source line).
MemoryFigures& operator+=(MemoryFigures& a, const MemoryFigures& b);

/// Bytes the lanes ask for / bytes of the sectors (global_bytes / (global_sectors x 32)); over
/// 1 where lanes share words. None without a counted global access or without sectors.
std::optional<double> sector_efficiency(const MemoryFigures& m);
/// Shared bank conflicts per shared request; none without a counted shared access.
std::optional<double> conflicts_per_request(const MemoryFigures& m);

/// One access of the kernel.
struct AccessRow {
  std::int32_t access = sim::ir::kNone;
  sim::ir::StmtId statement = sim::ir::kNone;
  std::string where;  // "FILE:LINE:COL"
  std::uint32_t line = 0;
  std::string text;   // "M[Row*Width+k]"
  std::string kind;   // load, store, atomic
  std::string space;  // global, shared, local, constant
  std::uint32_t width = 0;
  sim::ir::AccessCounts counts;
  std::string not_counted;  // "" when counted, else why
  /// Not counted for undefined behaviour the run met in it (an address that overflows, a
  /// misaligned address): a defect of the kernel, where the other reasons are the model's.
  bool undefined = false;
};

/// What a launch moves, by kind of access.
struct TrafficTotals {
  sim::Count requests = 0, sectors = 0, bytes = 0;
};

/// Peak rates of the GPU the roofline bound is taken for.
struct RooflineGpu {
  std::string name;
  double peak_gflops = 0;  // FP32
  double bandwidth_gbs = 0;
  std::string source;
};

struct MemorySection {
  /// False when the engine that counted gave no memory figures: `not_counted` says why.
  bool counted = false;
  std::string not_counted;
  std::vector<AccessRow> accesses;  // in source order
  TrafficTotals global_loads, global_stores, global_atomics;
  sim::Count shared_requests = 0, shared_wavefronts = 0, shared_conflicts = 0;
  sim::Count flops = 0;
  /// Statements whose floating-point operations are not all counted: "FILE:LINE:COL: why".
  std::vector<std::string> flops_not_counted;
  /// Static shared memory per block from the source (__shared__ arrays), and the extern
  /// __shared__ arrays sized at launch.
  std::uint64_t static_shared_bytes = 0;
  std::vector<std::string> dynamic_shared;
  std::int64_t dynamic_shared_bytes = 0;  // --dynamic-smem
  std::optional<RooflineGpu> gpu;
};

/// Per access: "" when the count has its figures, else why not (sim::ir::uncounted_accesses,
/// then the count's faults). Computed once per report: it walks the whole model.
std::vector<std::string> accesses_not_counted(const sim::ir::Kernel& kernel,
                                              const sim::ir::ReplayResult& result);

/// The statement's figures from a count that has memory figures (`not_counted` from
/// accesses_not_counted).
MemoryFigures statement_memory(const sim::ir::Kernel& kernel, const sim::ir::ReplayResult& result,
                               const std::vector<std::string>& not_counted, sim::ir::StmtId statement);

/// The section from a count (result.memory_counted false: `counted` false, with `why`).
MemorySection make_memory_section(const sim::ir::Kernel& kernel, const sim::ir::ReplayResult& result,
                                  const std::string& why_not_counted = "");

/// Bytes moved between L1 and L2 for global memory: (load + store + atomic sectors) x 32.
sim::Count global_bytes_moved(const MemorySection& m);
/// Bytes the lanes ask of global memory: lanes x width, loads, stores and atomics.
sim::Count global_bytes_asked(const MemorySection& m);
/// Which bytes an intensity divides by: those the lanes ask for (the naive count: every
/// access goes to DRAM, none is shared or cached), or those of the sectors moved.
enum class Traffic { Asked, Moved };
/// Why the section's figures are not all counted, one line each ("memory figures of 3 of 7
/// accesses not counted"); empty when every figure is counted or there is nothing to count.
std::vector<std::string> incomplete_memory(const MemorySection& m);
/// flops / global bytes, or nullopt without global traffic or when the figures are incomplete
/// (an intensity from part of the traffic would be wrong).
std::optional<double> arithmetic_intensity(const MemorySection& m, Traffic traffic);
/// min(peak, intensity x bandwidth) in GFLOP/s, or nullopt without a GPU's rates or intensity.
std::optional<double> roofline_gflops(const MemorySection& m, Traffic traffic);

/// An access not counted, as the reports say it: "FILE:LINE:COL: load 'x[col[j]]': why".
std::string not_counted_text(const AccessRow& a);

/// True when the section has nothing to say: no access, no shared memory, no floating-point work.
bool memory_section_empty(const MemorySection& m);

/// The launch's memory section as text: totals, traffic, intensity, the roofline bound, the
/// accesses not counted.
void write_memory_totals(std::ostream& out, const MemorySection& m);

}  // namespace warpdiv::analysis
