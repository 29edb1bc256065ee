#include "tools/cli/kernel_occupancy.hpp"

#include "sim/message_text.hpp"
#include "tools/cli/gpu_options.hpp"
#include "tools/cli/options.hpp"

namespace warpdiv::cli {

namespace {
constexpr std::int64_t kMaxSharedBytes = 1 << 30;  // 1 GiB: far past any per-block limit
}  // namespace

std::int64_t static_shared_from(const boost::program_options::variables_map& vm) {
  return parse_integer("--smem", get(vm, "smem"), 0, kMaxSharedBytes);
}

KernelOccupancy kernel_occupancy(const boost::program_options::variables_map& vm,
                                 const analysis::GpuSpec& gpu, kernels::CompileRequest request,
                                 const analysis::LaunchResources& launch) {
  KernelOccupancy k;
  k.gpu = gpu;
  k.launch = launch;
  const bool regs_given = has(vm, "regs"), smem_given = has(vm, "smem");
  if (!regs_given || !smem_given) {
    request.cc_major = gpu.cc_major;
    request.cc_minor = gpu.cc_minor;
    const kernels::CompiledResources compiled = kernels::compile_resources(request);
    k.launch.registers_per_thread = compiled.registers_per_thread;
    k.launch.static_shared_bytes = compiled.static_shared_bytes;
    k.launch.barriers_per_block = compiled.barriers;
    k.origins.registers = k.origins.static_shared = compiled.origin();
    k.origins.kernel = compiled.kernel;
    k.origins.compiled = std::to_string(compiled.local_bytes) + " bytes local memory per thread (" +
                         std::to_string(compiled.spill_store_bytes) + " bytes spill stores), " +
                         sim::counted(compiled.barriers, "barrier") + ", for " + compiled.arch;
  }
  if (regs_given) {
    k.launch.registers_per_thread = registers_from(vm);
    k.origins.registers = "--regs";
  }
  if (smem_given) {
    k.launch.static_shared_bytes = static_shared_from(vm);
    k.origins.static_shared = "--smem";
  }
  k.result = analysis::compute_occupancy(gpu, k.launch);
  return k;
}

}  // namespace warpdiv::cli
