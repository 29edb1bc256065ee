// Parsing helpers shared by the subcommands: strict integers, Boost.Program_options glue.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace warpdiv::cli {

/// Parses a decimal integer in [min, max]; anything else ("1e3", "0x10", "", "12abc", overflow)
/// throws InvalidInput: "--rows must be an integer from 1 to 2147483647 (got '1e3')".
std::int64_t parse_integer(const std::string& flag, const std::string& text, std::int64_t min,
                           std::int64_t max);

/// A warp size: a power of two from 1 to 64.
int parse_warp_size(const std::string& flag, const std::string& text);

/// Runs Boost.Program_options over `args` (positional arguments only where `positionals` names
/// them) and turns its errors (unknown flag, missing value, repeated flag) into InvalidInput naming
/// the command.
boost::program_options::variables_map parse_command_line(
    const std::string& command, const std::vector<std::string>& args,
    const boost::program_options::options_description& options,
    const boost::program_options::positional_options_description* positionals = nullptr);

/// The string value of `flag` if given.
bool has(const boost::program_options::variables_map& vm, const char* flag);
std::string get(const boost::program_options::variables_map& vm, const char* flag);

}  // namespace warpdiv::cli

#include "sim/launch.hpp"

namespace warpdiv::cli {

/// Adds --width, --rows, --inner, --cols, --tile, --warp-size (the launch being modelled).
void add_launch_options(boost::program_options::options_description& options);

/// The launch from those flags: --width W sets J = K = L = W and excludes the other three, which
/// must be given together. Defaults: W = 100, T = 16, S = 32.
sim::LaunchConfig launch_from(const boost::program_options::variables_map& vm);

}  // namespace warpdiv::cli
