// The model of any kernel against its GPU probe (kernels/probe.hpp): per statement totals, and
// warp by warp when both sides recorded each evaluation. No CUDA here: the GPU's figures arrive
// as plain data (sim::ir::StatementCounts, sim::ir::WarpTrace).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/model/ir.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/engine/ir_trace.hpp"

namespace warpdiv::analysis {

/// One statement's figure where model and GPU differ.
struct TotalDifference {
  sim::ir::StmtId statement = sim::ir::kNone;
  std::string field;  // "warp_evaluations", "divergent", ...
  sim::Count model = 0;
  sim::Count gpu = 0;
};

struct ProbeComparison {
  std::uint64_t statements_compared = 0;
  std::uint64_t warps_compared = 0;        // 0 when not compared warp by warp
  std::uint64_t evaluations_compared = 0;  // warp evaluations compared one by one
  std::vector<TotalDifference> total_differences;
  /// The first warp evaluation that differs, as one line naming file:line:col, block, warp,
  /// evaluation index and both sides' masks; empty when every one agrees (or none was compared).
  std::string first_warp_difference;
  std::uint64_t warps_differing = 0;
  std::uint64_t lane_order_faults = 0;  // threads whose hardware lane is not the model's

  bool agree() const {
    return total_differences.empty() && first_warp_difference.empty() && lane_order_faults == 0;
  }
  /// One line: "agree: ..." or the first difference (a warp's, else a total's).
  std::string summary(const sim::ir::Kernel& kernel) const;
};

/// Compares the model's per-statement counts (and, when both traces are given, its warp-by-warp
/// evaluations) with the GPU's. `gpu_totals` is indexed by StmtId like `model.statements`.
ProbeComparison compare_probe(const sim::ir::Kernel& kernel, const sim::ir::Launch& launch,
                              const sim::ir::ReplayResult& model,
                              const std::vector<sim::ir::StatementCounts>& gpu_totals,
                              const sim::ir::WarpTrace* model_warps, const sim::ir::WarpTrace* gpu_warps,
                              std::uint64_t lane_order_faults);

/// One validated launch of a kernel model on a GPU: what data/validation/zoo-*.csv holds.
struct ProbeRecord {
  std::string date;                // UTC, ISO 8601
  std::string device;              // "NVIDIA H100 80GB HBM3"
  std::string compute_capability;  // "9.0"
  std::string driver;              // CUDA version the driver supports, "13.0"
  std::string runtime;
  std::string nvrtc;
  std::string kernel;  // the __global__ function
  std::string file;    // its source file
  std::string grid;    // "(x, y, z)"
  std::string block;
  std::string arguments;  // "Width=100 n=3"
  std::uint64_t statements = 0;
  std::uint64_t warps = 0;
  sim::Count warp_evaluations = 0;       // model, all statements
  sim::Count divergent_evaluations = 0;  // model, all conditions
  sim::Count partial_barrier_executions = 0;
  ProbeComparison comparison;
  std::string outcome;  // comparison.summary()
  // The kernel's own resources: compiled for this GPU's architecture (kernels/compiled_resources)
  // beside what the runtime reports for it loaded (cudaFuncGetAttributes); -1 where unknown,
  // and kernel_resources_note says why.
  std::string kernel_compiled_by;  // "nvcc 13.0 for sm_90 (ptxas)"
  int kernel_registers_compiled = -1;
  std::int64_t kernel_static_shared_compiled = -1;  // bytes
  int kernel_registers_runtime = -1;
  std::int64_t kernel_static_shared_runtime = -1;  // bytes
  std::string kernel_resources_note;
  int probe_registers = 0;  // cudaFuncGetAttributes of the probe
  std::size_t probe_local_bytes = 0;
  double compile_seconds = 0;
  double kernel_seconds = 0;
};

/// The CSV header and one row per record, from one column list.
void write_probe_csv(std::ostream& out, const std::vector<ProbeRecord>& records);

/// "0x0000ffff" (8 hex digits; 16 when a bit above 31 is set).
std::string hex_mask(std::uint64_t mask);

}  // namespace warpdiv::analysis
