// Parsing helpers shared by the subcommands: strict integers, Boost.Program_options glue, help.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace warpdiv::cli {

/// Parses a decimal integer in [min, max]: digits with an optional sign ("+5", "-0" and leading
/// zeros "007" are the integers they spell). Anything else ("1e3", "0x10", "", " 5", "12abc") and
/// any value out of range, however many digits it has, throws InvalidInput:
/// "--rows must be an integer from 1 to 2147483647 (got '1e3')".
std::int64_t parse_integer(const std::string& flag, const std::string& text, std::int64_t min,
                           std::int64_t max);

/// A warp size: a power of two from 1 to 64.
int parse_warp_size(const std::string& flag, const std::string& text);

/// Refuses an environment variable warpdiv reads whose value it does not know (InvalidInput, exit
/// 2, listing the allowed values): WARPDIV_NATIVE is unset, empty, `auto` (the native replay where
/// it pays) or `off` (the interpreter alone; jit/loader.hpp).
void check_environment();

/// Runs Boost.Program_options over `args` (positional arguments only where `positionals` names
/// them) and turns its errors (unknown flag, missing value, repeated flag) into InvalidInput naming
/// the command. A flag's value can never be a flag: `--csv --html`, `--csv` last, `--width=` and a
/// value starting with "--" are a missing value, refused with the flag's description (its range);
/// `--csv -` (stdout) and `--width -5` are values. An unknown flag near a known one gets "did you
/// mean --width?".
boost::program_options::variables_map parse_command_line(
    const std::string& command, const std::vector<std::string>& args,
    const boost::program_options::options_description& options,
    const boost::program_options::positional_options_description* positionals = nullptr);

/// parse_command_line with one positional argument, `positional` (a value named so in the map),
/// hidden from the help: `warpdiv analyze FILE.cu`, `warpdiv check CONFIG`.
boost::program_options::variables_map parse_with_positional(
    const std::string& command, const std::vector<std::string>& args,
    const boost::program_options::options_description& options, const char* positional);

/// The flags given (as "--name", alphabetical) other than those in `allowed`.
std::vector<std::string> flags_other_than(const boost::program_options::variables_map& vm,
                                          const std::vector<std::string>& allowed);

/// The value of `flag` if given.
std::optional<std::string> get_optional(const boost::program_options::variables_map& vm, const char* flag);

/// What every --help ends with.
constexpr const char* kExitStatusHelp =
    "exit status: 0 ok, 1 mismatch or internal failure, 2 bad input, 3 no GPU, 130 interrupted\n";

/// A command's --help: the options, then the exit statuses.
void write_help(std::ostream& out, const boost::program_options::options_description& options);
/// The same text, for a request's `help`.
std::string help_text(const boost::program_options::options_description& options);
/// True when `args` hold --help or -h anywhere: a command whose flags Boost would refuse without
/// their required ones looks for it first.
bool asks_for_help(const std::vector<std::string>& args);
/// True when every argument is -h or --help (and there is one): the command's help alone, which
/// leads with the FILE.cu form (your own kernel), then its shorthand's (tools/cli/shorthand.hpp).
bool asks_only_for_help(const std::vector<std::string>& args);

/// The string value of `flag` if given.
bool has(const boost::program_options::variables_map& vm, const char* flag);
std::string get(const boost::program_options::variables_map& vm, const char* flag);

}  // namespace warpdiv::cli

namespace warpdiv::analysis {
class OutputFiles;
}

namespace warpdiv::cli {

/// Registers the run's inputs with `outputs`, so that no output replaces one: FILE.cu, --model,
/// --gpu-file, --ncu-csv where given, and `sources` (the files of a kernel model: its source, the
/// headers its statements come from, and every file Clang read for it). Call before opening any
/// output.
void protect_inputs(analysis::OutputFiles& outputs, const boost::program_options::variables_map& vm,
                    const std::vector<std::string>& sources = {});

}  // namespace warpdiv::cli
