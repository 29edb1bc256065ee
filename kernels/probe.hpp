// Runs a kernel model's GPU probe (kernels/probe_source.hpp) on GPU 0: compiled at run time with
// NVRTC (the CUDA Toolkit's libnvrtc, opened when first needed, so a machine without it still runs
// everything else), loaded with the runtime's library API and launched with the model's launch.
// Plain C++ header; in a build without nvcc every function throws NoDevice.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/probe_source.hpp"
#include "kernels/device.hpp"
#include "sim/model/ir.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/engine/ir_trace.hpp"

namespace warpdiv::kernels {

/// What the CUDA runtime reports for the compiled probe (cudaFuncGetAttributes).
struct ProbeResources {
  int registers_per_thread = 0;
  std::size_t static_shared_bytes = 0;
  std::size_t local_bytes = 0;  // per thread
  int max_threads_per_block = 0;
  int binary_version = 0;  // 90 = sm_90
};

struct ProbeRun {
  DeviceInfo device;
  std::string nvrtc_version;  // "13.0"
  std::string architecture;   // "sm_90": what NVRTC compiled for
  /// Per statement (indexed by StmtId), as sim::ir::replay counts them.
  std::vector<sim::ir::StatementCounts> statements;
  /// Warp by warp, in the layout of the trace passed to run_probe (empty without one).
  sim::ir::WarpTrace warps;
  /// Threads whose %laneid differs from (x + y*Bx + z*Bx*By) % 32.
  std::uint64_t lane_order_faults = 0;
  ProbeResources resources;
  double compile_seconds = 0;
  double kernel_seconds = 0;
};

/// The first GPU and NVRTC, or NoDevice with one line saying which is missing ("no NVRTC: ...",
/// "no CUDA device ...").
DeviceInfo open_probe_device();

/// NVRTC's version ("13.0"), or NoDevice when libnvrtc cannot be opened.
std::string nvrtc_version();

/// Compiles `source` for GPU 0's architecture; the cubin, or CudaError with NVRTC's log.
/// `include_dirs`: folders searched for #include (the user's own kernel needs the toolkit's).
std::vector<char> compile_probe(const std::string& source, const std::string& architecture,
                                const std::vector<std::string>& include_dirs = {},
                                const std::vector<std::string>& extra_options = {});

/// What the runtime reports for function `name` (mangled, as in the cubin) of CUDA source
/// `source` compiled by NVRTC for `architecture` and loaded on GPU 0: the user's real kernel
/// beside its compiled figures. Throws NoDevice, CudaError (it does not compile or load).
ProbeResources loaded_kernel_attributes(const std::string& source, const std::string& architecture,
                                        const std::string& name);

/// Generates, compiles and launches the probe of `kernel` with `launch` (warp size 32). With
/// `layout` (the model's WarpTrace), each warp records up to its count there: the result's
/// `warps` has the same offsets. Each warp stops after `guard` evaluations (a probe that
/// disagrees with a model never loops for ever). Throws NoDevice, CudaError (a failed call or
/// compilation) or InvalidInput (a launch the GPU refuses, a record buffer beyond its memory).
ProbeRun run_probe(const sim::ir::Kernel& kernel, const sim::ir::Launch& launch,
                   const sim::ir::WarpTrace* layout, std::uint64_t guard);

/// One launch of the user's own kernel (not the probe), as the model holds its source: compiled
/// by NVRTC for GPU 0 and launched once, each pointer parameter pointing into a zero-filled
/// buffer that holds every byte the model's accesses touch (`extents`, from a replay: the
/// pointer 256-byte aligned, as cudaMalloc returns it) and at least Launch::buffer_bytes
/// (--alloc), integer parameters at the launch's values, float and double parameters at their
/// bits (--arg), and `dynamic_shared_bytes` of extern __shared__ memory (a kernel that declares
/// some needs it: InvalidInput without). For profiling it under Nsight Compute. Throws
/// NoDevice, CudaError, InvalidInput (a parameter it cannot pass, a launch the GPU refuses).
struct RealKernelRun {
  DeviceInfo device;
  std::string architecture;  // "sm_90"
  std::string mangled;       // the entry's name in the cubin
  std::uint64_t buffer_bytes = 0;
  double kernel_seconds = 0;
  /// [parameter]: a pointer parameter's buffer after the run, from the pointer the kernel got
  /// (empty for the others).
  std::vector<std::vector<std::uint8_t>> outputs;
};
RealKernelRun run_real_kernel(const sim::ir::Kernel& kernel, const sim::ir::Launch& launch,
                              const std::vector<sim::ir::BaseExtent>& extents,
                              std::int64_t dynamic_shared_bytes);

}  // namespace warpdiv::kernels
