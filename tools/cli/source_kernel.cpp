#include "tools/cli/source_kernel.hpp"

#include <cctype>
#include <iostream>
#include <set>

#include <sys/stat.h>
#include <unistd.h>

#include "analysis/input_file.hpp"
#include "sim/errors.hpp"
#include "sim/message_text.hpp"
#include "sim/ir_json.hpp"
#include "tools/cli/options.hpp"
#ifdef WARPDIV_HAVE_FRONTEND
#include "kernels/frontend/frontend.hpp"
#endif

namespace warpdiv::cli {

std::vector<std::string> get_all(const boost::program_options::variables_map& vm, const char* flag) {
  if (!has(vm, flag)) return {};
  return vm[flag].as<std::vector<std::string>>();
}

sim::ir::Dim3 to_dim3(const Extent3& e) {
  // check_block / check_grid keep every component within 1 .. 2^31 - 1.
  return sim::ir::Dim3{static_cast<std::uint32_t>(e.x), static_cast<std::uint32_t>(e.y),
                  static_cast<std::uint32_t>(e.z)};
}

void check_kernel_input(const boost::program_options::variables_map& vm) {
  const std::string input = has(vm, "file") ? get(vm, "file") : get(vm, "model");
  struct stat info {};
  if (::stat(input.c_str(), &info) != 0 || ::access(input.c_str(), R_OK) != 0)
    throw InvalidInput("cannot read " + sim::quote_value(input) + ": no such file or not readable");
  if (has(vm, "file") && !S_ISREG(info.st_mode))
    throw InvalidInput("cannot read " + sim::quote_value(input) +
                       ": not a regular file (give the kernel's .cu source file)");
}

sim::ir::Kernel read_kernel(const boost::program_options::variables_map& vm) {
  check_kernel_input(vm);
  if (has(vm, "model")) {
    for (const char* flag : {"kernel", "define", "include-dir"})
      if (has(vm, flag))
        throw InvalidInput(std::string("--") + flag +
                           " applies to a source file; a --model holds one kernel already read");
    const std::string path = get(vm, "model");
    const std::string text = analysis::read_input_file(path, "--model");
    try {
      return sim::ir::kernel_from_json(text);
    } catch (const InvalidInput& e) {
      throw InvalidInput(path + ": " + e.what());
    }
  }
#ifdef WARPDIV_HAVE_FRONTEND
  frontend::FrontendOptions options;
  options.file = get(vm, "file");
  if (has(vm, "kernel")) options.kernel = get(vm, "kernel");
  options.defines = get_all(vm, "define");
  options.include_dirs = get_all(vm, "include-dir");
  return frontend::load_kernel(options);
#else
  throw InvalidInput("this warpdiv was built without the Clang front-end, so it cannot read " +
                     get(vm, "file") +
                     "; save the kernel's model where it was built (warpdiv analyze FILE.cu "
                     "--save-model K.json) and analyse that with --model K.json");
#endif
}

// One value per kernel parameter: the --arg of each scalar one (refusing a missing one by name);
// opaque ones (pointers, floats) take none.
std::vector<sim::ir::Value> bind_arguments(const sim::ir::Kernel& kernel, const ArgValues& values,
                                           const std::string& expressions) {
  std::set<std::string> used;
  const auto starts_name = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < expressions.size();) {
    if (!starts_name(expressions[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < expressions.size() && (starts_name(expressions[end]) ||
                                        std::isdigit(static_cast<unsigned char>(expressions[end]))))
      ++end;
    used.insert(expressions.substr(i, end - i));
    i = end;
  }
  std::vector<std::string> parameters;
  for (const sim::ir::Parameter& p : kernel.parameters) {
    used.insert(p.name);
    if (p.scalar) parameters.push_back(p.name);
  }
  for (const auto& [name, value] : values)
    if (used.count(name) == 0) {
      const std::string guess = sim::closest_name(name, parameters);
      throw InvalidInput("--arg " + sim::quote_value(name) + " names no parameter of " +
                         kernel.name + " (" + (parameters.empty() ? "none" : sim::listed(parameters)) +
                         ") and no name in --grid or --block" +
                         (guess.empty() ? "" : "; did you mean " + guess + "?"));
    }
  std::vector<sim::ir::Value> arguments;
  for (const sim::ir::Parameter& p : kernel.parameters) {
    if (!p.scalar) {
      arguments.emplace_back();
      continue;
    }
    const auto found = values.find(p.name);
    if (found == values.end())
      throw InvalidInput("kernel " + kernel.name + "'s parameter " + p.name + " (" +
                         sim::ir::name(p.type) + ") needs a value: give --arg " + p.name + "=VALUE");
    try {
      arguments.push_back(sim::ir::Value::of(p.type, found->second));
    } catch (const InvalidInput& e) {
      throw InvalidInput("--arg " + p.name + ": " + e.what());
    }
  }
  return arguments;
}

bool read_kernel_or_print(const boost::program_options::variables_map& vm, sim::ir::Kernel& kernel) {
#ifdef WARPDIV_HAVE_FRONTEND
  try {
    kernel = read_kernel(vm);
  } catch (const frontend::ClangDiagnostics& e) {
    std::cerr << e.what() << '\n';  // as Clang prints them: file:line:col: error: ...
    return false;
  }
#else
  kernel = read_kernel(vm);
#endif
  return true;
}

sim::ir::Launch launch_from_flags(const boost::program_options::variables_map& vm,
                                  const ArgValues& values) {
  sim::ir::Launch launch;
  const Extent3 grid = parse_extent("--grid", get(vm, "grid"), values);
  const Extent3 block = parse_extent("--block", get(vm, "block"), values);
  check_grid("--grid", grid);
  check_block("--block", block);
  launch.grid = to_dim3(grid);
  launch.block = to_dim3(block);
  if (has(vm, "warp-size")) launch.warp_size = parse_warp_size("--warp-size", get(vm, "warp-size"));
  return launch;
}

}  // namespace warpdiv::cli
