// The work of `warpdiv analyze FILE.cu`: a source kernel's counts and report.
#include <atomic>

#include "analysis/gpu_presets.hpp"
#include "tools/cli/gpu_options.hpp"
#include "tools/cli/runs.hpp"

namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

ir::Launch bind_launch(const ir::Kernel& kernel, ir::Launch launch, const ArgValues& values,
                       const std::string& launch_text, const std::vector<std::string>& allocs,
                       const std::vector<std::string>& data) {
  launch.arguments = bind_arguments(kernel, values, launch_text);
  launch.buffer_bytes = bind_allocs(kernel, allocs);
  bind_data(kernel, data, launch);
  ir::validate(launch, kernel);  // the kernel itself was validated as it was read
  ir::check_floating_values(kernel, given_parameters(kernel, values),
                            ir::buffers_with_values(kernel, launch));
  return launch;
}

std::optional<KernelOccupancy> source_occupancy(const AnalyzeSourceRequest& request, const ir::Kernel& kernel,
                                                const ir::Launch& launch) {
  if (request.gpu.name.empty()) return std::nullopt;
  const analysis::GpuSpec gpu = find_requested_gpu(request.gpu);
  if (gpu.warp_size != launch.warp_size)
    throw InvalidInput(Diag::flag_usage, "--warp-size " + std::to_string(launch.warp_size) +
                                             " differs from the warp size " + std::to_string(gpu.warp_size) +
                                             " of --gpu " + gpu.name);
  kernels::CompileRequest compile = kernels::compile_request(kernel, gpu.cc_major, gpu.cc_minor);
  const KernelSource& source = request.source;
  if (!source.file.empty()) {
    compile.file = source.file;  // compile the file itself, with the same -D and -I
    compile.source.clear();
    compile.defines = source.defines;
    compile.include_dirs = source.include_dirs;
  }
  analysis::LaunchResources resources;
  resources.threads_per_block = static_cast<std::int64_t>(launch.block.volume());
  resources.dynamic_shared_bytes = request.dynamic_shared;
  KernelOccupancy k = kernel_occupancy(gpu, compile, resources, request.gpu.registers, request.static_shared);
  const analysis::OccupancyResult& r = k.result;
  if (request.dynamic_shared > 0 && r.shared_bytes_per_block > r.shared_memory_limit_per_block) {
    const std::int64_t room =
        r.shared_memory_limit_per_block - k.launch.static_shared_bytes - gpu.reserved_shared_memory_per_block;
    throw InvalidInput(Diag::launch_invalid,
                       "--dynamic-smem " + std::to_string(request.dynamic_shared) + ": a block would need " +
                           std::to_string(r.shared_bytes_per_block) + " bytes of shared memory (" +
                           std::to_string(k.launch.static_shared_bytes) + " static, " +
                           std::to_string(gpu.reserved_shared_memory_per_block) + " reserved), past " +
                           gpu.name + "'s limit of " + std::to_string(r.shared_memory_limit_per_block) +
                           " per block (allowed: --dynamic-smem 0 to " +
                           std::to_string(std::max<std::int64_t>(0, room)) + ")");
  }
  return k;
}

AnalyzeSourceReport run_analyze_source(const AnalyzeSourceRequest& request, const ir::Kernel& kernel,
                                       const ir::Launch& launch, bool with_page,
                                       const std::atomic<bool>* stop) {
  ir::ReplayOptions options = request.replay_options;
  options.stop = stop;
  std::atomic<std::uint64_t> blocks_done{0};
  options.blocks_done = &blocks_done;
  AnalyzeSourceReport r;
  {
    const ProgressThread progress("replay", "blocks", options.only_block ? 1 : launch.grid.volume(),
                                  blocks_done);
    r.counts = count_source(kernel, launch, options, request.engine);
  }
  check_bounds(kernel, launch, r.counts);
  analysis::SourceReportOptions report_options = request.report_options;
  report_options.memory_not_counted = r.counts.memory_note;
  report_options.stop = stop;
  r.report = analysis::make_source_report(kernel, launch, r.counts.result, report_options);
  analysis::add_block_classes(r.report, kernel, launch, r.counts.classes, request.report_options);
  if (with_page) r.page = source_html_page(kernel, launch, options, r.counts);
  return r;
}

}  // namespace warpdiv::cli
