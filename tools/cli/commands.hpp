// The subcommands of `warpdiv`. Each wires three steps and returns an exit status: parse_xxx turns
// its arguments into a request (tools/cli/requests.hpp), run_xxx does the work and returns a report
// (tools/cli/runs.hpp), and the command opens, renders, commits and announces its outputs
// (tools/cli/command_outputs.hpp) and prints. Errors are thrown (InvalidInput, NoDevice, Mismatch,
// WriteFailed) and mapped to exit codes once, in run().
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace warpdiv::cli {

using Args = std::vector<std::string>;

/// The commands below hand their arguments to their FILE.cu form (xxx_source_command) or to their
/// shorthand form (tools/cli/shorthand.hpp: run_command_form).
int analyze_command(const Args& args, std::ostream& out);
/// `warpdiv analyze FILE.cu | --model FILE`.
int analyze_source_command(const Args& args, std::ostream& out);
/// True when the arguments name a file or use a flag only a source analysis takes (--model, --grid ...).
bool is_source_analysis(const Args& args);
int sweep_command(const Args& args, std::ostream& out);
/// `warpdiv sweep FILE.cu | --model FILE`.
int sweep_source_command(const Args& args, std::ostream& out);
int occupancy_command(const Args& args, std::ostream& out);
int validate_command(const Args& args, std::ostream& out);
/// `warpdiv validate FILE.cu | --model FILE`.
int validate_source_command(const Args& args, std::ostream& out);
int ncu_check_command(const Args& args, std::ostream& out);
/// `warpdiv ncu-check FILE.cu ...`: the model's memory figures against Nsight Compute's.
int ncu_check_source_command(const Args& args, std::ostream& out);
/// `warpdiv check CONFIG`: the divergence gate for CI (tools/cli/check_command.hpp).
int check_command(const Args& args, std::ostream& out);

/// "13.0" for 13000 (cudaDriverGetVersion's encoding).
std::string cuda_version(int version);
/// The current time, UTC, as 2026-11-22T06:30:00Z.
std::string utc_now();

/// Dispatches argv to a subcommand (or --help, --version) and maps exceptions to exit codes:
/// 0 ok, 1 mismatch or internal failure, 2 bad input, 3 no GPU (130 interrupted is returned by
/// the commands that catch Ctrl-C). Every error is one line: run() escapes and bounds it.
int run(int argc, char** argv, std::ostream& out, std::ostream& err);

/// Flushes `out` (standard output) after run(): a failed write there (a full disk, a closed
/// device) turns a successful `status` into 1, with one line on `err`.
int finish_standard_output(int status, std::ostream& out, std::ostream& err);

}  // namespace warpdiv::cli
