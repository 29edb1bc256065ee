// What `warpdiv analyze FILE.cu`, `warpdiv sweep FILE.cu` and `warpdiv validate FILE.cu` share:
// reading the kernel (a source file through the Clang front-end, or a saved --model), the launch of
// --grid/--block, binding --arg values to its parameters, and the progress bar of a long count.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/program_options.hpp>

#include "analysis/source_html.hpp"
#include "kernels/frontend/frontend.hpp"
#include "sim/model/ir.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/session.hpp"
#include "tools/cli/host_launch.hpp"
#include "tools/cli/launch_expression.hpp"
#include "tools/cli/requests.hpp"
#include "tools/cli/terminal.hpp"

namespace warpdiv::cli {

/// Adds --kernel, --define/-D and --include-dir/-I: which __global__ function of FILE.cu, and
/// how `compiler` ("Clang", "nvcc") preprocesses it.
void add_compiler_options(boost::program_options::options_description& options, const std::string& compiler);

/// Adds --model and the compiler options (for Clang).
void add_kernel_source_options(boost::program_options::options_description& options);

/// Adds --grid, --block, --arg and --launch (a launch of one kernel: analyze and validate FILE.cu).
void add_launch_source_options(boost::program_options::options_description& options);
/// Without --grid or --block: the flags that override the launch read from FILE.cu's host code
/// (--grid or --block alone, --arg `values`, --dynamic-smem, --launch N); nullopt when both are
/// given. Refuses --launch with --model or with both, and a --model without both.
std::optional<LaunchFlags> host_launch_flags(const boost::program_options::variables_map& vm,
                                             const std::string& command, const ArgValues& values);
/// --alloc NAME=COUNT and --data NAME=FILE (bind_allocs, bind_data): a pointer parameter's buffer.
void add_buffer_options(boost::program_options::options_description& options);
/// --max-evaluations N: the run's budget of warp-statement evaluations (added by
/// add_launch_source_options; sweep adds it with add_budget_option).
void add_budget_option(boost::program_options::options_description& options);
/// Its value (1 .. 9223372036854775807), or the engines' default (about a minute of work).
sim::Count max_evaluations_from(const boost::program_options::variables_map& vm);

/// Refuses at once a FILE.cu or --model FILE that does not exist or cannot be read, and a source
/// that is not a regular file; nothing that could block (a FIFO without a writer) is opened.
void check_kernel_input(const boost::program_options::variables_map& vm);

/// Parses a source command's flags (FILE.cu the one positional argument) and checks that exactly
/// one of FILE.cu and --model is given, and that it is readable. Returns the input's path too.
boost::program_options::variables_map parse_source_command_line(
    const std::string& command, const std::vector<std::string>& args,
    const boost::program_options::options_description& options, std::string& input);

/// Every value of a repeatable flag (none when not given).
std::vector<std::string> get_all(const boost::program_options::variables_map& vm, const char* flag);

/// -D and -I as Clang takes them (InvalidInput naming the flag otherwise).
void check_compiler_flags(const KernelSource& source);
/// FILE.cu (the positional "file") or --model, and the compiler flags, as given. A --model with
/// any compiler flag is refused: the model holds one kernel already read.
KernelSource kernel_source(const boost::program_options::variables_map& vm);

/// A kernel as read, and every file Clang read for it (the source and all it includes; nothing
/// for --model): inputs of the run.
struct SourceKernel {
  sim::ir::Kernel kernel;
  std::vector<std::string> files_read;
  /// The kernel's launches in the file's host code, when KernelSource::host_launches asked.
  std::vector<frontend::HostLaunch> launches;
};

/// Reads the kernel of FILE.cu (Clang) or of --model (JSON). Clang's own diagnostics are printed
/// to stderr as Clang prints them, and the return is then empty (the caller exits 2). Clang's
/// errors outside the kernel's reach (host code) are printed to stderr as notes, one line each
/// (print_source_notes), and the kernel is read. `files_tried`, when given, receives the files
/// read for it, also when it cannot be read (Clang's errors, a refused construct: then those Clang
/// had read by then), so that a caller that goes on can keep its outputs off them. `first_error`,
/// when given, receives Clang's first error when the return is empty.
std::optional<SourceKernel> read_source_kernel(const KernelSource& source,
                                               std::vector<std::string>* files_tried = nullptr,
                                               frontend::FirstClangError* first_error = nullptr);

/// The paths of the files the kernel model was read from (its source, then its headers), then
/// `files_read` (every file Clang read for it).
inline std::vector<std::string> source_files(const sim::ir::Kernel& kernel,
                                             const std::vector<std::string>& files_read = {}) {
  std::vector<std::string> paths;
  for (const auto& file : kernel.files) paths.push_back(file.path);
  paths.insert(paths.end(), files_read.begin(), files_read.end());
  return paths;
}

/// At most this many front-end notes are printed, then "and N more".
constexpr std::size_t kMaxSourceNotes = 5;
/// The front-end's notes, "warpdiv: note: NOTE [warpdiv-unreached-error]" each, at most kMaxSourceNotes of
/// them then one line "warpdiv: note: and N more errors in code the kernel does not reach".
void print_source_notes(std::ostream& out, const std::vector<std::string>& notes);

/// A float or double parameter's value `text` (a decimal), rounded once to its type, as bits;
/// InvalidInput naming --arg and the type's range for one past it.
std::uint64_t floating_bits(const sim::ir::Parameter& p, const std::string& text);

/// The identifiers in `text` (the names --grid and --block use).
std::set<std::string> identifiers_in(const std::string& text);

/// Per kernel parameter, whether `values` gives it one.
std::vector<bool> given_parameters(const sim::ir::Kernel& kernel, const ArgValues& values);

/// One value per kernel parameter: the --arg of each scalar one (refusing a missing one by
/// name); opaque ones (pointers, floats) take none. An --arg that names neither a parameter nor a
/// name used in `expressions` (the text of --grid and --block) is refused: a misspelt name would
/// otherwise be ignored silently.
std::vector<sim::ir::Value> bind_arguments(const sim::ir::Kernel& kernel, const ArgValues& values,
                                           const std::string& expressions);

/// The launch of --grid, --block and --warp-size (without arguments: they need the kernel).
sim::ir::Launch launch_from_flags(const boost::program_options::variables_map& vm, const ArgValues& values);

/// A launch extent within CUDA's limits (check_grid / check_block) as the IR's Dim3.
sim::ir::Dim3 to_dim3(const Extent3& extent);

/// "auto", "exact", "replay" or "all"; anything else throws InvalidInput naming the four.
SourceEngine parse_source_engine(const std::string& text);

/// A launch's counts and how they were made (sim/session.hpp, which chooses the engine).
using SourceCounts = sim::EngineCounts;

/// Says on stderr what a count chose or left (print_note): why --engine auto fell back, that the
/// engines agree, that the race check by address covered its blocks only in part; each line
/// after `prefix` (a kernel's name and ": " where several are counted).
void print_count_notes(const SourceCounts& counts, const std::string& prefix = "");

/// --alloc NAME=COUNT pairs: per parameter, its buffer in bytes (COUNT x its element size; 0
/// where not given), for Launch::buffer_bytes. Refuses a name that is not a pointer parameter
/// with a known element size, a COUNT outside 1 .. 2^40, a name given twice.
std::vector<std::uint64_t> bind_allocs(const sim::ir::Kernel& kernel, const std::vector<std::string>& pairs);

/// --data NAME=FILE pairs: pointer parameter NAME's buffer holds the file's elements,
/// which go to launch.buffer_data and its size to launch.buffer_bytes (after bind_allocs). FILE:
/// NumPy .npy whose element type matches the parameter's pointee (analysis/npy.hpp), raw
/// little-endian elements (.bin, a whole number of them), or text for a char buffer (.txt).
/// Refuses (InvalidInput) a name that is not such a parameter, one given twice or also by
/// --alloc, a file that cannot be read, a type mismatch (naming both types), an empty file.
void bind_data(const sim::ir::Kernel& kernel, const std::vector<std::string>& pairs, sim::ir::Launch& launch);
/// The FILE of each --data NAME=FILE (inputs the outputs must not replace).
std::vector<std::string> data_files(const std::vector<std::string>& pairs);

/// With buffer sizes: exit 2 material (InvalidInput) when the counts met an access outside its
/// buffer (the first access in source order, with its first thread); when the memory figures
/// were not counted, says in memory_note that the bounds were not checked either.
void check_bounds(const sim::ir::Kernel& kernel, const sim::ir::Launch& launch, SourceCounts& counts);

/// The budget of the replay that adds memory figures to a class-engine count (sim/session.hpp).
using sim::kMemoryReplayBudget;

/// Counts `launch` with `engine` through the session (sim::count_launch): exact throws
/// InvalidInput naming the condition the class engine cannot prove; auto falls back to the replay
/// then (SourceCounts::note says so); all compares every engine that applies (Mismatch, exit 1,
/// naming the first difference).
SourceCounts count_source(const sim::ir::Kernel& kernel, const sim::ir::Launch& launch,
                          const sim::ir::ReplayOptions& options, SourceEngine engine);

/// The HTML page's classes and maps: a map set per class (its representative block), or without
/// classes for the first and the last block (or the --only-block).
analysis::SourceHtmlPage source_html_page(const sim::ir::Kernel& kernel, const sim::ir::Launch& launch,
                                          const sim::ir::ReplayOptions& options, const SourceCounts& counts);

/// Draws a progress bar from a counter another thread advances, until destroyed.
class ProgressThread {
 public:
  ProgressThread(const std::string& label, const std::string& unit, std::uint64_t total,
                 const std::atomic<std::uint64_t>& done);
  ~ProgressThread();
  ProgressThread(const ProgressThread&) = delete;
  ProgressThread& operator=(const ProgressThread&) = delete;

 private:
  ProgressBar bar_;
  const std::atomic<std::uint64_t>& done_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  std::thread thread_;
};

}  // namespace warpdiv::cli
