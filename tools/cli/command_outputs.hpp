// The outputs of one command, the one way every command handles them: protect the run's inputs,
// open every output up front (a bad path is refused before any work), render into them, commit
// them together (analysis/output_files.hpp), and after the text report say where each went:
// "CSV written to FILE", "HTML written to FILE", "Model written to FILE".
#pragma once

#include <atomic>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "analysis/output_files.hpp"
#include "tools/cli/requests.hpp"

namespace warpdiv::cli {

/// An input of the run that no output may replace: what it is ("the kernel source") and its path.
using RunInput = std::pair<std::string, std::string>;

/// The inputs of a run, in the order they are protected: FILE.cu, --model, --gpu-file, -p's
/// compile_commands.json, then `sources` (the files a kernel model was read from: its source, then
/// its headers, then every file read for it: Clang's includes, -include files, the database's
/// response files; tools/cli/source_kernel.hpp's source_files).
std::vector<RunInput> run_inputs(const KernelSource& source, const std::optional<std::string>& gpu_file,
                                 const std::vector<std::string>& sources = {});

/// What a request may ask for instead of any work: its `help` (printed when not empty) or, with
/// `gpus`, the GPU presets (--gpu list). True when that was all, and the command exits 0.
bool answered_at_once(std::ostream& out, const std::string& help, const GpuRequest* gpus = nullptr);

class CommandOutputs {
 public:
  /// `standard_output` receives the outputs named `-` and the text report; `inputs` are protected
  /// (analysis::OutputFiles::protect) before any output is opened.
  CommandOutputs(std::ostream& standard_output, const std::vector<RunInput>& inputs);

  /// Opens `path` for `flag` ("--csv") when one is given, else returns nullptr. `label` ("CSV")
  /// names the output in its "written to" line; outputs are announced in the order opened.
  analysis::Output* open(const std::string& flag, const std::optional<std::string>& path,
                         const std::string& label);

  /// Protects one more input, found once the work has begun (the headers a compiler read):
  /// refused at once when an output opened already is that file.
  void protect(const std::string& what, const std::string& path) { files_.protect(what, path); }

  /// Where the text report goes (nothing when an output goes to standard output).
  std::ostream& report() { return files_.report(); }
  /// True once a write to some output has failed (a sweep stops early then).
  bool failed() const { return files_.failed(); }
  /// Ctrl-C honoured while the outputs are written and up to their commit: with `stop` (the
  /// command's SigintHandler flag) set, commit() throws Interrupted (exit 130) and no file is
  /// written (analysis::OutputFiles::stop_on).
  void stop_on(const std::atomic<bool>* stop) { files_.stop_on(stop); }

  /// Commits every output: call once everything is rendered, before the text report.
  void commit() { files_.commit(); }
  /// Takes an output opened by open() out before commit(): nothing is written to it, and no
  /// "written to" line names it (analysis::OutputFiles::withdraw).
  void withdraw(analysis::Output& output) noexcept { files_.withdraw(output); }

  /// How the "written to" lines follow the text report.
  enum class Spacing { blank_line, none };
  /// After the text report: with Spacing::blank_line and at least one output, an empty line;
  /// then "LABEL written to NAME" for each output opened.
  void announce(Spacing spacing = Spacing::blank_line);

 private:
  analysis::OutputFiles files_;
  std::vector<std::pair<std::string, const analysis::Output*>> opened_;  // label, output
};

}  // namespace warpdiv::cli
