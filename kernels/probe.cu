// The probe runner: NVRTC opened at run time (nvrtc_library.hpp; exit 3 with one line when it
// is missing), the runtime's library API for the compiled cubin.
#include <nvrtc.h>  // NVRTC_SUCCESS only: the functions come from nvrtc_library

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <utility>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/compiled_resources.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/device_memory.cuh"
#include "kernels/nvrtc_library.hpp"
#include "kernels/probe.hpp"
#include "kernels/probe_source.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::kernels {

namespace {

namespace ir = sim::ir;

// NVRTC, opened at run time (nvrtc_library.hpp): "no NVRTC" (exit 3) when it is missing.
const NvrtcLibrary& nvrtc() {
  std::string why;
  const NvrtcLibrary* library = nvrtc_library(&why);
  if (library == nullptr) throw NoDevice("no NVRTC: " + why);
  return *library;
}

void check(int status, const char* call) {
  if (status != NVRTC_SUCCESS)
    throw CudaError(std::string("NVRTC error in ") + call + ": " + nvrtc().error(status));
}

using detail::DeviceArray;

class Library {
 public:
  explicit Library(const std::vector<char>& cubin) {
    WARPDIV_CUDA(cudaLibraryLoadData(&library_, cubin.data(), nullptr, nullptr, 0, nullptr,
                                     nullptr, 0));
  }
  ~Library() { (void)cudaLibraryUnload(library_); }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  cudaKernel_t kernel(const char* name) const {
    cudaKernel_t k{};
    WARPDIV_CUDA(cudaLibraryGetKernel(&k, library_, name));
    return k;
  }
  /// Every kernel of the library with its name as in the cubin (mangled, or extern "C").
  std::vector<std::pair<cudaKernel_t, std::string>> kernels() const {
    unsigned count = 0;
    WARPDIV_CUDA(cudaLibraryGetKernelCount(&count, library_));
    std::vector<cudaKernel_t> all(count);
    if (count > 0) WARPDIV_CUDA(cudaLibraryEnumerateKernels(all.data(), count, library_));
    std::vector<std::pair<cudaKernel_t, std::string>> named;
    for (cudaKernel_t k : all) {
      const char* name = nullptr;
      WARPDIV_CUDA(cudaFuncGetName(&name, reinterpret_cast<const void*>(k)));
      named.emplace_back(k, name != nullptr ? name : "");
    }
    return named;
  }

 private:
  cudaLibrary_t library_{};
};

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

std::string nvrtc_version() {
  int major = 0, minor = 0;
  check(nvrtc().version(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

DeviceInfo open_probe_device() {
  (void)nvrtc();  // "no NVRTC" before "no GPU": both are needed
  return query_device();
}

std::vector<char> compile_probe(const std::string& source, const std::string& architecture,
                                const std::vector<std::string>& include_dirs,
                                const std::vector<std::string>& extra_options) {
  const NvrtcLibrary& n = nvrtc();
  NvrtcLibrary::Program program = nullptr;
  check(n.create(&program, source.c_str(), "warpdiv_probe.cu", 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  struct Destroy {
    const NvrtcLibrary& n;
    NvrtcLibrary::Program& p;
    ~Destroy() { (void)n.destroy(&p); }
  } destroy{n, program};
  const std::string arch = "--gpu-architecture=" + architecture;
  std::vector<std::string> texts = {arch, "-std=c++17"};
  for (const std::string& dir : include_dirs) texts.push_back("-I" + dir);
  texts.insert(texts.end(), extra_options.begin(), extra_options.end());
  std::vector<const char*> options;
  for (const std::string& t : texts) options.push_back(t.c_str());
  const int status = n.compile(program, static_cast<int>(options.size()), options.data());
  if (status != NVRTC_SUCCESS) {
    std::size_t size = 0;
    (void)n.log_size(program, &size);
    std::string log(size, '\0');
    if (size > 0) (void)n.log(program, &log[0]);
    for (char& c : log)
      if (c == '\n' || c == '\0') c = ' ';
    throw CudaError(std::string("NVRTC could not compile the probe for ") + architecture + ": " +
                    n.error(status) + ": " + log);
  }
  std::size_t size = 0;
  check(n.cubin_size(program, &size), "nvrtcGetCUBINSize");
  std::vector<char> cubin(size);
  check(n.cubin(program, cubin.data()), "nvrtcGetCUBIN");
  return cubin;
}

namespace {

ProbeResources attributes_of(cudaKernel_t entry) {
  cudaFuncAttributes attributes{};
  WARPDIV_CUDA(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(entry)));
  ProbeResources r;
  r.registers_per_thread = attributes.numRegs;
  r.static_shared_bytes = attributes.sharedSizeBytes;
  r.local_bytes = attributes.localSizeBytes;
  r.max_threads_per_block = attributes.maxThreadsPerBlock;
  r.binary_version = attributes.binaryVersion;
  return r;
}

}  // namespace

ProbeResources loaded_kernel_attributes(const std::string& source, const std::string& architecture,
                                        const std::string& name) {
  (void)open_probe_device();
  const Library library(compile_probe(source, architecture));
  return attributes_of(library.kernel(name.c_str()));
}

ProbeRun run_probe(const ir::Kernel& kernel, const ir::Launch& launch, const ir::WarpTrace* layout,
                   std::uint64_t guard) {
  if (launch.warp_size != kProbeWarpSize)
    throw InvalidInput(Diag::unsupported_launch, "the GPU probe runs 32-lane warps (got warp size " +
                       std::to_string(launch.warp_size) + ")");
  ir::validate(launch, kernel);
  ProbeRun run;
  run.device = open_probe_device();
  run.nvrtc_version = nvrtc_version();
  run.architecture =
      "sm_" + std::to_string(run.device.compute_major * 10 + run.device.compute_minor);

  const auto compile_start = Clock::now();
  const std::vector<char> cubin = compile_probe(probe_source(kernel, launch.buffer_bytes, launch.dynamic_shared_bytes), run.architecture);
  run.compile_seconds = seconds_since(compile_start);
  const Library library(cubin);
  const cudaKernel_t entry = library.kernel(kProbeEntry);
  run.resources = attributes_of(entry);
  if (launch.block.volume() > static_cast<std::uint64_t>(run.resources.max_threads_per_block))
    throw InvalidInput(Diag::launch_invalid, "the probe runs at most " + std::to_string(run.resources.max_threads_per_block) +
                       " threads per block on this GPU (the launch has " +
                       std::to_string(launch.block.volume()) + ")");

  const std::uint64_t warps = launch.grid.volume() * ir::warps_per_block(launch);
  std::vector<std::uint64_t> args(kernel.parameters.size(), 0);
  for (std::size_t i = 0; i < args.size(); ++i) args[i] = launch.arguments[i].bits;
  // Buffers with values (--data, or zeros for --alloc): on the device, their addresses as args.
  std::vector<DeviceArray<std::uint8_t>> buffers;
  for (std::size_t i = 0; i < args.size() && i < launch.buffer_bytes.size(); ++i) {
    if (kernel.parameters[i].scalar || launch.buffer_bytes[i] == 0) continue;
    buffers.emplace_back(static_cast<std::size_t>(launch.buffer_bytes[i]));
    if (i < launch.buffer_data.size() && launch.buffer_data[i] != nullptr)
      WARPDIV_CUDA(cudaMemcpy(buffers.back().get(), launch.buffer_data[i]->data(), launch.buffer_data[i]->size(),
                              cudaMemcpyHostToDevice));  // from the launch's bytes: no host copy
    args[i] = reinterpret_cast<std::uintptr_t>(buffers.back().get());
  }
  DeviceArray<std::uint64_t> d_args(args.size() + 1);  // never empty
  args.push_back(0);
  d_args.upload(args);
  DeviceArray<std::uint64_t> totals(kernel.stmts.size() * kProbeTotalsPerStatement);
  DeviceArray<std::uint64_t> counts(layout != nullptr ? static_cast<std::size_t>(warps) : 0);
  DeviceArray<std::uint64_t> flags(kProbeFlags);
  const std::uint64_t recorded = layout != nullptr ? layout->offsets.back() : 0;
  if (layout != nullptr && layout->counts.size() != warps)
    throw InternalError("the warp trace does not match the launch's " + std::to_string(warps) +
                       " warps");
  if (layout != nullptr && recorded * 16 > run.device.free_memory_bytes / 2)
    throw InvalidInput(Diag::memory_budget, "the warp-by-warp records would take " + std::to_string(recorded * 16) +
                       " bytes, more than half of the GPU's free memory");
  DeviceArray<std::uint64_t> records(static_cast<std::size_t>(recorded * kProbeWordsPerRecord));
  DeviceArray<std::uint64_t> offsets(layout != nullptr ? layout->offsets.size() : 0);
  if (layout != nullptr) offsets.upload(layout->offsets);

  const std::uint64_t* a_args = d_args.get();
  std::uint64_t* a_totals = totals.get();
  std::uint64_t* a_records = layout != nullptr && recorded > 0 ? records.get() : nullptr;
  const std::uint64_t* a_offsets = layout != nullptr ? offsets.get() : nullptr;
  std::uint64_t* a_counts = layout != nullptr ? counts.get() : nullptr;
  std::uint64_t* a_flags = flags.get();
  void* params[] = {&a_args, &a_totals, &a_records, &a_offsets, &a_counts, &a_flags, &guard};
  const dim3 grid(launch.grid.x, launch.grid.y, launch.grid.z);
  const dim3 block(launch.block.x, launch.block.y, launch.block.z);
  const auto kernel_start = Clock::now();
  WARPDIV_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(entry), grid, block, params, 0,
                                nullptr));
  WARPDIV_CUDA(cudaDeviceSynchronize());
  run.kernel_seconds = seconds_since(kernel_start);

  const std::vector<std::uint64_t> t = totals.download();
  run.statements.resize(kernel.stmts.size());
  for (std::size_t i = 0; i < kernel.stmts.size(); ++i) {
    const std::uint64_t* s = &t[i * kProbeTotalsPerStatement];
    ir::StatementCounts& c = run.statements[i];
    c.warp_evaluations = s[0];
    c.divergent = s[1];
    c.active_lanes = s[2];
    c.taken_lanes = s[3];
    c.block_executions = s[4];
    c.partial_block_executions = s[5];
    c.blocks_with_partial = s[6];
  }
  run.lane_order_faults = flags.download()[0];
  if (layout != nullptr) {
    run.warps.warps_per_block = layout->warps_per_block;
    run.warps.offsets = layout->offsets;
    run.warps.counts = counts.download();
    const std::vector<std::uint64_t> words = records.download();
    run.warps.evaluations.resize(static_cast<std::size_t>(recorded));
    for (std::size_t i = 0; i < recorded; ++i) {
      ir::WarpEvaluation& e = run.warps.evaluations[i];
      e.statement = static_cast<ir::StmtId>(words[i * 2]);
      e.active = words[i * 2 + 1] & 0xFFFFFFFFULL;
      e.taken = words[i * 2 + 1] >> 32;
    }
  }
  return run;
}

RealKernelRun run_real_kernel(const ir::Kernel& kernel, const ir::Launch& launch,
                              const std::vector<ir::BaseExtent>& extents,
                              std::int64_t dynamic_shared_bytes) {
  ir::validate(launch, kernel);
  RealKernelRun run;
  run.device = open_probe_device();
  run.architecture =
      "sm_" + std::to_string(run.device.compute_major * 10 + run.device.compute_minor);
  if (kernel.files.empty() || kernel.files[0].lines.empty())
    throw InvalidInput(Diag::model_invalid, "the model of " + kernel.name + " holds no source text to compile");
  // Without its bytes an extern __shared__ array has none: every access to it would fault.
  for (const ir::MemoryBase& b : kernel.bases)
    if (b.space == ir::AddressSpace::Shared && b.parameter < 0 && b.bytes == 0 && dynamic_shared_bytes == 0)
      throw InvalidInput(Diag::flag_usage, "the kernel uses extern __shared__ '" + b.name +
                         "': give its size with --dynamic-smem BYTES to run the real kernel");
  std::string source;
  for (const std::string& line : kernel.files[0].lines) source += line + "\n";
  // -lineinfo: ncu's source counters map each SASS instruction to its line (ncu-check --per-line);
  // it adds line tables, not code.
  const Library library(compile_probe(source, run.architecture, toolkit_include_dirs(), {"-lineinfo"}));
  // The entry whose name is the kernel's: "name" (extern "C") or "_Z<length>name..." (C++).
  const std::string length_name = std::to_string(kernel.name.size()) + kernel.name;
  cudaKernel_t entry{};
  int found = 0;
  for (const auto& [k, name] : library.kernels()) {
    if (name == kernel.name || name.rfind("_Z" + length_name, 0) == 0) {
      entry = k;
      run.mangled = name;
      ++found;
    }
  }
  if (found != 1)
    throw InvalidInput(Diag::unsupported_construct, "the cubin NVRTC made of " + kernel.files[0].path + " has " +
                       std::to_string(found) + " kernels named " + kernel.name +
                       " (a template or overloads: not supported by ncu-check yet)");

  // Parameters: a pointer into its buffer, an integer's bits, a float's or double's bits (0.0 in
  // models saved before parameters knew them).
  std::vector<DeviceArray<unsigned char>> buffers;
  std::vector<std::pair<const unsigned char*, std::size_t>> passed(kernel.parameters.size(), {nullptr, 0});
  std::vector<std::array<unsigned char, 8>> values(kernel.parameters.size());
  std::vector<void*> params(kernel.parameters.size());
  for (std::size_t i = 0; i < kernel.parameters.size(); ++i) {
    const ir::Parameter& p = kernel.parameters[i];
    std::array<unsigned char, 8>& value = values[i];
    value.fill(0);
    params[i] = value.data();
    if (p.scalar) {
      const std::uint64_t bits = launch.arguments[i].bits;
      std::memcpy(value.data(), &bits, 8);  // little-endian: the low bytes are the value
      continue;
    }
    if (p.floating != 0) {  // the float's or double's bits, as --arg rounded them
      const std::uint64_t bits = launch.arguments[i].bits;
      std::memcpy(value.data(), &bits, 8);
      continue;
    }
    const std::string& type = p.type_spelling;
    if (type.find('*') == std::string::npos) {
      if (type == "float" || type == "double" || type == "const float" || type == "const double")
        continue;  // 0.0 in 4 or 8 bytes
      throw InvalidInput(Diag::unsupported_construct, "the real kernel's parameter '" + p.name + "' has type " + type +
                         ", which warpdiv cannot pass (allowed: pointers, integers, float, double)");
    }
    ir::BaseExtent extent;
    for (std::size_t b = 0; b < kernel.bases.size(); ++b)
      if (kernel.bases[b].parameter == static_cast<std::int32_t>(i) && b < extents.size())
        ir::merge(extent, extents[b]);
    std::uint64_t pad = 0, size = 256;
    if (extent.touched) {
      pad = extent.lowest < 0 ? (static_cast<std::uint64_t>(-extent.lowest) + 255) / 256 * 256 : 0;
      size = pad + static_cast<std::uint64_t>(std::max<std::int64_t>(extent.end, 1));
    }
    // --alloc: the buffer the user gave (the model checked every access against it).
    if (i < launch.buffer_bytes.size() && launch.buffer_bytes[i] != 0)
      size = std::max(size, pad + launch.buffer_bytes[i]);
    if (size > run.device.free_memory_bytes / 2)
      throw InvalidInput(Diag::memory_budget, "the buffer of '" + p.name + "' would take " + std::to_string(size) +
                         " bytes, more than half of the GPU's free memory");
    buffers.emplace_back(static_cast<std::size_t>((size + 255) / 256 * 256));
    run.buffer_bytes += size;
    unsigned char* pointer = buffers.back().get() + pad;
    // --data: the buffer holds the values the model read (the rest stays zero).
    if (i < launch.buffer_data.size() && launch.buffer_data[i] != nullptr && !launch.buffer_data[i]->empty())
      WARPDIV_CUDA(cudaMemcpy(pointer, launch.buffer_data[i]->data(), launch.buffer_data[i]->size(),
                              cudaMemcpyHostToDevice));
    std::memcpy(value.data(), &pointer, sizeof pointer);
    passed[i] = {pointer, static_cast<std::size_t>(size - pad)};
  }
  const dim3 grid(launch.grid.x, launch.grid.y, launch.grid.z);
  const dim3 block(launch.block.x, launch.block.y, launch.block.z);
  if (dynamic_shared_bytes > 48 * 1024)
    WARPDIV_CUDA(cudaFuncSetAttribute(reinterpret_cast<const void*>(entry),
                                      cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(dynamic_shared_bytes)));
  const auto start = Clock::now();
  WARPDIV_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(entry), grid, block, params.data(),
                                static_cast<std::size_t>(dynamic_shared_bytes), nullptr));
  WARPDIV_CUDA(cudaDeviceSynchronize());
  run.kernel_seconds = seconds_since(start);
  run.outputs.resize(kernel.parameters.size());
  for (std::size_t i = 0; i < passed.size(); ++i) {
    if (passed[i].first == nullptr) continue;
    run.outputs[i].resize(passed[i].second);
    WARPDIV_CUDA(cudaMemcpy(run.outputs[i].data(), passed[i].first, passed[i].second, cudaMemcpyDeviceToHost));
  }
  return run;
}

}  // namespace warpdiv::kernels
