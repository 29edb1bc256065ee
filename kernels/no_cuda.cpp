// The stand-in used when nvcc is not found: everything that needs the GPU reports "no GPU" (exit
// status 3), so the rest of warpdiv builds and tests without CUDA.
#include "kernels/probe.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::kernels {

namespace {
[[noreturn]] void no_cuda() { throw NoDevice("warpdiv was built without CUDA (nvcc not found)"); }
}  // namespace

bool built_with_cuda() { return false; }
void open_device() { no_cuda(); }
DeviceInfo query_device() { no_cuda(); }

DeviceInfo open_probe_device() { no_cuda(); }

RealKernelRun run_real_kernel(const sim::ir::Kernel&, const sim::ir::Launch&,
                              const std::vector<sim::ir::BaseExtent>&, std::int64_t) {
  no_cuda();
}
std::string nvrtc_version() { no_cuda(); }
std::vector<char> compile_probe(const std::string&, const std::string&, const std::vector<std::string>&,
                                const std::vector<std::string>&) {
  no_cuda();
}
ProbeResources loaded_kernel_attributes(const std::string&, const std::string&, const std::string&) {
  no_cuda();
}
ProbeRun run_probe(const sim::ir::Kernel&, const sim::ir::Launch&, const sim::ir::WarpTrace*, std::uint64_t) {
  no_cuda();
}

}  // namespace warpdiv::kernels
