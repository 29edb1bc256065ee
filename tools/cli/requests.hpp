// What each command's flags ask for, as plain data. A command is three steps: parse_xxx turns its
// arguments into an XxxRequest (every flag and every combination of flags checked, each refusal
// one line, InvalidInput: exit 2), run_xxx (tools/cli/runs.hpp) does the work and returns a
// report, and the command itself (commands.hpp) wires the two to the outputs
// (tools/cli/command_outputs.hpp) and prints. The parse functions are tested without the binary
// (tests/tools/requests_test.cpp); nothing here depends on Boost.Program_options.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/occupancy.hpp"
#include "analysis/source_report.hpp"
#include "analysis/source_sweep.hpp"
#include "sim/model/ir.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/session.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/host_launch.hpp"
#include "tools/cli/launch_expression.hpp"

namespace warpdiv::cli {

/// --gpu NAME, --gpu-file FILE and --regs R as given (--gpu list: the command's list_gpus).
struct GpuRequest {
  std::string name;                 // empty without --gpu
  std::optional<std::string> file;  // --gpu-file
  std::optional<int> registers;     // --regs, 0 .. gpu_flags::kMaxRegs
};

/// Where a source command reads its kernel: FILE.cu through the Clang front-end (with the
/// compiler flags), or a model saved with --save-model.
struct KernelSource {
  std::string file;                       // FILE.cu; empty with --model
  std::string model;                      // --model FILE; empty with FILE.cu
  std::optional<std::string> kernel;      // --kernel NAME
  std::vector<std::string> defines;       // -D
  std::vector<std::string> include_dirs;  // -I
  std::optional<std::string> cuda_headers, cuda_path;
  bool fmad = true;       // --fmad (nvcc's -fmad): contract multiplies and adds as nvcc does
  std::string build_dir;  // -p BUILD_DIR: compile_commands.json's flags for the file
  /// Read the kernel's launches in the file's host code too (SourceKernel::launches).
  bool host_launches = false;
  /// The --arg integers, for the host code to follow (FrontendOptions::host_arguments).
  std::map<std::string, std::string> host_arguments;
  /// --grid and --block, for the host code to follow (FrontendOptions::host_grid, host_block).
  std::vector<std::string> host_grid, host_block;
  /// The path given: FILE.cu or --model's.
  const std::string& input() const { return file.empty() ? model : file; }
};

/// Which engine counts a source kernel's launch (--engine).
using SourceEngine = sim::Engine;  // sim/session.hpp: auto, exact, replay, native, all
/// `warpdiv analyze FILE.cu | --model FILE`: any kernel's listing.
struct AnalyzeSourceRequest {
  std::string help;
  KernelSource source;
  SourceEngine engine = SourceEngine::automatic;
  bool by_class = false;   // --by-class (with --csv)
  bool save_only = false;  // --save-model without --grid and --block: no launch
  /// The launch without arguments (they need the kernel's parameters), the --arg values and the
  /// text they may appear in ("GRID BLOCK").
  sim::ir::Launch launch;
  ArgValues values;
  std::string launch_text;
  /// Set when --grid or --block is missing (FILE.cu only): the launch is taken from the file's
  /// host code (choose_host_launch) with these flags over it, and complete_host_launch fills
  /// launch, values, launch_text, dynamic_shared and the --only-block/--only-warp choices.
  std::optional<LaunchFlags> from_host;
  std::optional<std::string> only_block, only_warp;  // --only-block, --only-warp as given
  sim::ir::ReplayOptions replay_options;             // by_iteration, only_block, only_warp, the budget
  analysis::SourceReportOptions report_options;
  GpuRequest gpu;
  std::optional<std::int64_t> static_shared;  // --smem, with --gpu
  std::int64_t dynamic_shared = 0;            // --dynamic-smem: extern __shared__ bytes per block
  std::optional<std::string> csv, html, save_model;
  std::vector<std::string> allocs;  // --alloc NAME=COUNT (bind_allocs)
  std::vector<std::string> data;    // --data NAME=FILE (bind_data)
};
AnalyzeSourceRequest parse_analyze_source(const Args& args);
/// With from_host: the launch chosen from the file's host code (the kernel read) put in the
/// request, --only-block and --only-warp checked against it. Returns the note to print.
std::string complete_host_launch(AnalyzeSourceRequest& request, const sim::ir::Kernel& kernel,
                                 const std::vector<frontend::HostLaunch>& launches);

/// Names the --grid expressions of a source sweep may use for the swept block's sizes.
constexpr const char* kSweepBlockNames[] = {"block_x", "block_y", "block_z"};

/// An --arg of a source sweep: its values in order.
struct SweptArg {
  std::string name;
  std::vector<std::int64_t> values;
};
/// --data NAME=FILE[,FILE]... of a sweep: a pointer parameter's buffer from each file in turn.
struct SweptData {
  std::string name;
  std::vector<std::string> files;
};

/// `warpdiv sweep FILE.cu | --model FILE`: one kernel over lists of --arg values and blocks.
struct SweepSourceRequest {
  std::string help;
  KernelSource source;
  SourceEngine engine = SourceEngine::automatic;
  std::vector<SweptArg> args;
  std::vector<SweptData> data;      // --data NAME=FILE[,FILE]... (bind_data), swept
  std::vector<std::string> allocs;  // --alloc NAME=COUNT (bind_allocs), fixed
  std::vector<Extent3> blocks;
  std::string grid_text;  // --grid, expressions of the args and block_x, block_y, block_z
  int warp_size = 32;
  sim::Count max_evaluations = 0;  // per launch
  std::optional<std::string> csv, html;
  /// Launches in order: blocks outermost, then the args in the order given, then the data files
  /// (in the order given), the last fastest.
  std::size_t launches() const;
  /// Launch i's values (`values` receives the args and block_x ... by name), its grid checked.
  analysis::SourceSweepLaunch launch(std::size_t i, ArgValues& values) const;
  /// The page's and the CSV's plan: arg names and what varies (kernel and file set by the run).
  analysis::SourceSweepPlan plan() const;
};
SweepSourceRequest parse_sweep_source(const Args& args);

/// `warpdiv occupancy --gpu NAME ...`: one launch's theoretical occupancy.
struct OccupancyRequest {
  std::string help;
  bool list_gpus = false;
  GpuRequest gpu;
  /// FILE.cu (and --kernel, -D, -I), compiled for the GPU's architecture for its registers and
  /// shared memory; no file: the launch as the flags give it.
  KernelSource source;
  std::optional<std::int64_t> static_shared;  // --smem
  /// The launch: threads, and with no FILE.cu registers and static shared memory too; dynamic
  /// shared memory and carveout either way.
  analysis::LaunchResources launch;
  std::optional<std::string> csv;
};
OccupancyRequest parse_occupancy(const Args& args);

/// `warpdiv validate FILE.cu | --model FILE`: the kernel's control flow on GPU 0.
/// Launches up to this many warp evaluations (by the model's estimate) are compared one by one by
/// default; bigger ones by their per-statement totals only (16 bytes per evaluation on each side).
constexpr std::int64_t kDefaultWarpRecords = 4'000'000;

struct ValidateSourceRequest {
  std::string help;
  KernelSource source;
  sim::ir::Launch launch;  // without arguments
  ArgValues values;
  std::string launch_text;
  /// Without --grid or --block: the launch comes from the file's host code (choose_host_launch).
  std::optional<LaunchFlags> from_host;
  std::int64_t record_limit = 0;  // --records
  sim::Count max_evaluations = 0;
  std::optional<std::string> csv;
  std::vector<std::string> allocs, data;  // --alloc, --data (bind_allocs, bind_data)
  /// Also run the user's own kernel and compare its output buffers with the model's stores
  /// (false for a caller that runs its real kernel its own way).
  bool compare_outputs = true;
  std::int64_t dynamic_shared = 0;  // --dynamic-smem: extern __shared__ bytes per block (the real kernel)
};
ValidateSourceRequest parse_validate_source(const Args& args);

}  // namespace warpdiv::cli
