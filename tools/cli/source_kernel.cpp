#include "tools/cli/source_kernel.hpp"

#include <iostream>

#include "sim/errors.hpp"
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

sim::ir::Kernel read_kernel(const boost::program_options::variables_map& vm) {
  if (has(vm, "model")) {
    for (const char* flag : {"kernel", "define", "include-dir"})
      if (has(vm, flag))
        throw InvalidInput(std::string("--") + flag +
                           " applies to a source file; a --model holds one kernel already read");
    return sim::ir::load_kernel(get(vm, "model"));
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
std::vector<sim::ir::Value> bind_arguments(const sim::ir::Kernel& kernel, const ArgValues& values) {
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
