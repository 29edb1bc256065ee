#include "tools/cli/kernel_occupancy.hpp"

#include "sim/support/message_text.hpp"
#include "tools/cli/gpu_options.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/runs.hpp"

namespace warpdiv::cli {

namespace {
constexpr std::int64_t kMaxSharedBytes = 1 << 30;  // 1 GiB: far past any per-block limit
}  // namespace

std::optional<std::int64_t> static_shared_from(const boost::program_options::variables_map& vm) {
  if (!has(vm, "smem")) return std::nullopt;
  return parse_integer("--smem", get(vm, "smem"), 0, kMaxSharedBytes);
}

KernelOccupancy kernel_occupancy(const analysis::GpuSpec& gpu, kernels::CompileRequest request,
                                 const analysis::LaunchResources& launch, std::optional<int> registers,
                                 std::optional<std::int64_t> static_shared) {
  KernelOccupancy k;
  k.gpu = gpu;
  k.launch = launch;
  if (!registers || !static_shared) {
    request.cc_major = gpu.cc_major;
    request.cc_minor = gpu.cc_minor;
    const kernels::CompiledResources compiled = kernels::compile_resources(request);
    k.launch.registers_per_thread = compiled.registers_per_thread;
    k.launch.static_shared_bytes = compiled.static_shared_bytes;
    k.launch.barriers_per_block = compiled.barriers;
    k.origins.registers = k.origins.static_shared = compiled.origin();
    k.origins.kernel = compiled.kernel;
    k.files_read = compiled.files_read;
    k.compiler_file = compiled.compiler_file;
    k.origins.compiled = std::to_string(compiled.local_bytes) + " bytes local memory per thread (" +
                         std::to_string(compiled.spill_store_bytes) + " bytes spill stores), " +
                         sim::counted(compiled.barriers, "barrier") + ", for " + compiled.arch;
  }
  if (registers) {
    k.launch.registers_per_thread = *registers;
    k.origins.registers = "--regs";
  }
  if (static_shared) {
    k.launch.static_shared_bytes = *static_shared;
    k.origins.static_shared = "--smem";
  }
  k.result = analysis::compute_occupancy(gpu, k.launch);
  return k;
}

KernelOccupancy run_occupancy(const OccupancyRequest& request, const analysis::GpuSpec& gpu) {
  if (request.source.file.empty()) {
    KernelOccupancy k;
    k.gpu = gpu;
    k.launch = request.launch;
    k.result = analysis::compute_occupancy(gpu, k.launch);
    return k;
  }
  kernels::CompileRequest compile;
  compile.file = request.source.file;
  if (request.source.kernel) compile.kernel = *request.source.kernel;
  compile.defines = request.source.defines;
  compile.include_dirs = request.source.include_dirs;
  return kernel_occupancy(gpu, compile, request.launch, request.gpu.registers, request.static_shared);
}

}  // namespace warpdiv::cli
