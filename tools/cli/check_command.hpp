// `warpdiv check CONFIG`: the divergence gate for CI (docs/guide/check.md). Its request and run
// live here rather than in requests.hpp and runs.hpp: parse_check turns the flags into a
// CheckRequest, prepare_check reads the configuration, its baseline and every kernel and binds
// each launch (every refusal before any output is opened or any count runs), run_check counts
// each launch through run_analyze_source and hands the rows to the library's check
// (analysis/check.hpp).
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "analysis/check.hpp"
#include "analysis/check_config.hpp"
#include "sim/model/ir.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/requests.hpp"
#include "tools/cli/source_kernel.hpp"

namespace warpdiv::cli {

struct CheckRequest {
  std::string help;
  std::string config;                         // CONFIG (a TOML file)
  std::optional<std::string> sarif;           // --sarif FILE
  std::optional<std::string> write_baseline;  // --write-baseline FILE: record, compare with none
  std::optional<std::string> baseline;        // --baseline FILE: instead of the configuration's
  bool no_baseline = false;                   // --no-baseline: ignore the configuration's
};
CheckRequest parse_check(const Args& args);

/// One [[kernel]] ready to count: the request analyze would make of it, the kernel and its launch.
struct CheckLaunch {
  analysis::CheckKernel* config = nullptr;
  AnalyzeSourceRequest request;
  SourceKernel kernel;
  sim::ir::Launch launch;
  std::vector<std::string> files_tried;  // read for the kernel, also when it could not be read
};

/// Everything a check reads, read and checked.
struct CheckInputs {
  analysis::CheckConfig config;
  std::vector<CheckLaunch> launches;
  std::optional<std::string> baseline_path;  // compared with, when set
  std::vector<analysis::CheckRow> baseline;
  /// The kernels that could not be read or bound: an error finding each (kernel-unreadable).
  std::vector<analysis::Finding> unread;
  std::vector<std::string> files;  // every file read: no output may replace one
};

/// The request a [[kernel]] table makes (the launch's arguments bound later): its refusals are
/// InvalidInput "CONFIG:LINE:COL: ..." pointing at the key.
AnalyzeSourceRequest check_kernel_request(const analysis::CheckConfig& config,
                                          const analysis::CheckKernel& kernel);

/// Reads the configuration, the baseline (unless writing one) and each kernel, and binds each
/// launch; a kernel that cannot be read or bound (Clang's own diagnostics on stderr) is an error
/// finding in `unread`, not the end of the check.
std::optional<CheckInputs> prepare_check(const CheckRequest& request);

/// The rows of every launch (in the configuration's order) and the outcome: the unread kernels,
/// limits, then the comparison with the baseline. A launch the engines refuse is an error finding.
/// The engines' notes go to stderr.
struct CheckRun {
  std::vector<analysis::CheckRow> rows;
  analysis::CheckOutcome outcome;
  std::size_t unread = 0;  // kernels not read or not counted (their error findings in outcome)
};
CheckRun run_check(CheckInputs& inputs, bool compare, const std::atomic<bool>* stop);

}  // namespace warpdiv::cli
