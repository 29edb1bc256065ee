// The work of each command, from its request (tools/cli/requests.hpp) to a report: what the
// command then renders into its outputs and prints. Nothing here parses flags or opens outputs;
// what runs long draws a progress bar on a terminal and stops on the `stop` flag it is given
// (Ctrl-C), throwing Interrupted where a run in hand is dropped.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/output_comparison.hpp"
#include "analysis/occupancy.hpp"
#include "analysis/occupancy_report.hpp"
#include "analysis/probe_comparison.hpp"
#include "analysis/source_html.hpp"
#include "analysis/source_report.hpp"
#include "analysis/source_sweep.hpp"
#include "kernels/probe.hpp"
#include "sim/model/ir.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tools/cli/kernel_occupancy.hpp"
#include "tools/cli/requests.hpp"
#include "tools/cli/source_kernel.hpp"

namespace warpdiv::cli {

// ---- analyze ------------------------------------------------------------------------------

/// The request's launch with the kernel's arguments bound (--arg values to its parameters, and
/// --alloc sizes to its pointer parameters) and checked against the kernel.
sim::ir::Launch bind_launch(const sim::ir::Kernel& kernel, sim::ir::Launch launch, const ArgValues& values,
                            const std::string& launch_text, const std::vector<std::string>& allocs = {},
                            const std::vector<std::string>& data = {});

/// With --gpu NAME: the launch's occupancy, the kernel compiled for that GPU's architecture
/// (FILE.cu itself with its -D and -I; a --model's source text). Call before opening the outputs,
/// so that a compiler's refusal comes before any work.
std::optional<KernelOccupancy> source_occupancy(const AnalyzeSourceRequest& request,
                                                const sim::ir::Kernel& kernel, const sim::ir::Launch& launch);

/// What `warpdiv analyze FILE.cu` found.
struct AnalyzeSourceReport {
  SourceCounts counts;            // the engine's counts, classes and its note for stderr
  analysis::SourceReport report;  // rows and block classes
  analysis::SourceHtmlPage page;  // with_page only: the classes on the grid and the maps
};
/// Counts the launch with the request's engine (a progress bar of blocks on a terminal) and
/// builds the report. Throws Interrupted when `stop` is set.
AnalyzeSourceReport run_analyze_source(const AnalyzeSourceRequest& request, const sim::ir::Kernel& kernel,
                                       const sim::ir::Launch& launch, bool with_page,
                                       const std::atomic<bool>* stop);

// ---- sweep --------------------------------------------------------------------------------

/// Binds and checks every launch of the sweep to the kernel before any output is opened, so
/// that a bad one is refused before any work.
void check_sweep_launches(const SweepSourceRequest& request, const sim::ir::Kernel& kernel);

/// What a source sweep finished.
struct SourceSweepOutcome {
  std::size_t launches = 0;  // counted and taken
  std::size_t rows = 0;      // whole-kernel rows of those launches (the CSV's)
};
/// Counts each launch of the sweep in order and hands its report to `take`; the engine's note
/// (a fallback to the replay) goes to stderr once. Before each launch it stops once `stop` is
/// set (the launch in hand is dropped) or `failed()` is true.
SourceSweepOutcome run_sweep_source(
    const SweepSourceRequest& request, const sim::ir::Kernel& kernel,
    const std::function<void(const analysis::SourceSweepLaunch&, const analysis::SourceReport&)>& take,
    const std::atomic<bool>* stop, const std::function<bool()>& failed);

// ---- occupancy ----------------------------------------------------------------------------

/// The launch's occupancy on the --gpu preset: FILE.cu compiled for its architecture (--regs and
/// --smem override what it reports), else the request's launch as given.
KernelOccupancy run_occupancy(const OccupancyRequest& request, const analysis::GpuSpec& gpu);

// ---- validate FILE.cu ---------------------------------------------------------------------

/// What `warpdiv validate FILE.cu` compared.
struct ValidateSourceReport {
  kernels::DeviceInfo device;
  kernels::ProbeRun gpu;
  sim::ir::ReplayResult model;
  /// Compared warp by warp (the launch made at most --records warp evaluations), and the
  /// model's estimate of them.
  bool warp_by_warp = false;
  sim::Count estimated_evaluations = 0;
  analysis::ProbeRecord record;  // the CSV's row, and what the text says
  /// The user's own kernel run on the same inputs, its output buffers against the model's
  /// stores (ValidateSourceRequest::compare_outputs).
  analysis::OutputComparison outputs;
};
/// Opens GPU 0 (NoDevice: exit 3), replays the model (warp by warp when small enough), runs the
/// probe and compares. Throws Interrupted when `stop` is set during the replay.
/// Host memory validate FILE.cu needs for the real kernel's outputs against the model's stores,
/// in bytes: the values the launch holds (--data), the buffers the replay follows by value
/// (ReplayEstimate::followed_bytes), a record of each lane's store while the replay runs
/// (sim::ir::capture_record_bytes()), the model's value and state byte for each byte of the
/// buffers it stores to, and every pointer buffer read back from the GPU. The followed buffers and
/// the records are freed with the replay, so the peak is
/// inputs + max(followed + records + stored, stored + read_back).
struct ValidateHostMemory {
  sim::Count inputs = 0, followed = 0, records = 0, stored = 0, read_back = 0;
  sim::Count total() const;
};
/// `estimate`: the replay's with capture_stores. A stored buffer without a size (no --alloc or
/// --data) counts the bytes its stores write (8 a lane).
ValidateHostMemory validate_host_memory(const sim::ir::Kernel& kernel, const sim::ir::Launch& launch,
                                        const sim::ir::ReplayEstimate& estimate);
/// The host's available memory in bytes: MemAvailable of /proc/meminfo (else free pages from
/// sysconf); WARPDIV_TEST_HOST_MEMORY (bytes) replaces it, for tests.
sim::Count available_host_memory();
/// InvalidInput (exit 2) when `need` exceeds available_host_memory(), naming both.
void check_validate_host_memory(const ValidateHostMemory& need);

ValidateSourceReport run_validate_source(const ValidateSourceRequest& request, const sim::ir::Kernel& kernel,
                                         const sim::ir::Launch& launch, const std::atomic<bool>* stop);
/// The text report: device, launch, probe, kernel resources, the statements' figures, the outcome.
void write_validate_source_text(std::ostream& out, const ValidateSourceRequest& request,
                                const sim::ir::Kernel& kernel, const ValidateSourceReport& report);

}  // namespace warpdiv::cli
