// What `warpdiv analyze FILE.cu` and `warpdiv validate FILE.cu` share: the kernel read from a
// source file (through the Clang front-end where it is built) or from a saved model, its launch
// from --grid/--block/--arg, and the arguments bound to its parameters.
#pragma once

#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "sim/ir.hpp"
#include "sim/ir_replay.hpp"
#include "tools/cli/launch_expression.hpp"

namespace warpdiv::cli {

/// The values of a repeatable flag (empty when absent).
std::vector<std::string> get_all(const boost::program_options::variables_map& vm, const char* flag);

sim::ir::Dim3 to_dim3(const Extent3& e);

/// Refuses at once a FILE.cu or --model FILE that does not exist or cannot be read, and a source
/// that is not a regular file; nothing that could block (a FIFO without a writer) is opened.
void check_kernel_input(const boost::program_options::variables_map& vm);

/// The kernel of --model FILE or of the positional FILE.cu (--kernel, -D, -I). Throws
/// InvalidInput; a build without the front-end refuses FILE.cu, naming --model.
sim::ir::Kernel read_kernel(const boost::program_options::variables_map& vm);
/// read_kernel(), with Clang's own diagnostics printed on stderr as Clang prints them: false then
/// (exit status 2).
bool read_kernel_or_print(const boost::program_options::variables_map& vm, sim::ir::Kernel& kernel);

/// One value per kernel parameter: the --arg of each scalar one (refusing a missing one by name);
/// opaque ones (pointers, floats) take none. An --arg that names neither a parameter nor a name
/// used in `expressions` (the text of --grid and --block) is refused: a misspelt name would
/// otherwise be ignored silently.
std::vector<sim::ir::Value> bind_arguments(const sim::ir::Kernel& kernel, const ArgValues& values,
                                           const std::string& expressions);

/// The launch of --grid, --block and --warp-size (without arguments: they need the kernel).
sim::ir::Launch launch_from_flags(const boost::program_options::variables_map& vm,
                                  const ArgValues& values);

}  // namespace warpdiv::cli
