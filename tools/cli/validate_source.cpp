// warpdiv validate FILE.cu | --model FILE.json: the kernel's GPU probe (kernels/probe.hpp) against
// the model's replay, per statement and warp by warp.
#include <algorithm>
#include <memory>
#include <tuple>
#include <iostream>
#include <sstream>

#include "analysis/output_files.hpp"
#include "analysis/probe_comparison.hpp"
#include "kernels/compiled_resources.hpp"
#include "kernels/probe.hpp"
#include "sim/errors.hpp"
#include "sim/ir.hpp"
#include "sim/ir_replay.hpp"
#include "sim/ir_trace.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/source_kernel.hpp"
#include "tools/cli/terminal.hpp"

namespace po = boost::program_options;
namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

namespace {

/// Launches up to this many warp evaluations (by the model's estimate) are compared one by one;
/// bigger ones by their per-statement totals only (16 bytes per evaluation on each side).
constexpr std::int64_t kDefaultWarpRecords = 4'000'000;
constexpr std::int64_t kMaxWarpRecords = 100'000'000;
/// Warps kept warp by warp at most (a vector each on the host).
constexpr std::uint64_t kMaxRecordedWarps = 4'000'000;

std::string arguments_text(const ir::Kernel& kernel, const ir::Launch& launch) {
  std::string text;
  for (std::size_t i = 0; i < kernel.parameters.size(); ++i) {
    if (!kernel.parameters[i].scalar) continue;
    if (!text.empty()) text += ' ';
    text += kernel.parameters[i].name + "=" + ir::to_string(launch.arguments[i]);
  }
  return text;
}

void write_statements(std::ostream& out, const ir::Kernel& kernel, const ir::ReplayResult& model,
                      const std::vector<ir::StatementCounts>& gpu) {
  out << "  statement                      kind       warp evals   divergent  active lanes"
         "   model = GPU\n";
  // In source order.
  std::vector<std::size_t> order(kernel.stmts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const ir::SourceRange& x = kernel.stmts[a].range;
    const ir::SourceRange& y = kernel.stmts[b].range;
    return std::tie(x.file, x.line, x.column) < std::tie(y.file, y.line, y.column);
  });
  for (const std::size_t i : order) {
    const ir::Stmt& s = kernel.stmts[i];
    const ir::StatementCounts& m = model.statements[i];
    if (m.warp_evaluations == 0 && gpu[i].warp_evaluations == 0) continue;
    const std::string kind = ir::report_kind(s);
    if (kind == "statement" && s.kind != ir::StmtKind::Work) continue;  // blocks, declarations
    std::ostringstream row;
    row << "  " << ir::location(kernel, s.range);
    std::string text = row.str();
    if (text.size() < 33) text.resize(33, ' ');
    out << text << ' ' << kind;
    for (std::size_t pad = kind.size(); pad < 9; ++pad) out << ' ';
    const auto column = [&](sim::Count c, std::size_t width) {
      const std::string v = sim::to_decimal(c);
      for (std::size_t pad = v.size(); pad < width; ++pad) out << ' ';
      out << v;
    };
    column(m.warp_evaluations, 12);
    column(m.divergent, 12);
    column(m.active_lanes, 14);
    out << "   " << (m == gpu[i] ? "yes" : "NO") << '\n';
  }
}

// The kernel's own registers and static shared memory: compiled for GPU 0's architecture (nvcc or
// NVRTC, ptxas's report) beside cudaFuncGetAttributes of the same kernel loaded there. Where either
// is out of reach (no compiler, a source the model does not hold) the record says why; the
// validation itself does not depend on it.
void kernel_resources(const ir::Kernel& kernel, const kernels::DeviceInfo& device,
                      const std::string& architecture, analysis::ProbeRecord& record) {
  try {
    const kernels::CompileRequest request =
        kernels::compile_request(kernel, device.compute_major, device.compute_minor);
    if (request.source.empty()) {
      record.kernel_resources_note = "the model holds no source text to compile";
      return;
    }
    const kernels::CompiledResources compiled = kernels::compile_resources(request);
    record.kernel_compiled_by = compiled.origin();
    record.kernel_registers_compiled = compiled.registers_per_thread;
    record.kernel_static_shared_compiled = compiled.static_shared_bytes;
    const kernels::ProbeResources loaded =
        kernels::loaded_kernel_attributes(request.source, architecture, compiled.mangled);
    record.kernel_registers_runtime = loaded.registers_per_thread;
    record.kernel_static_shared_runtime = static_cast<std::int64_t>(loaded.static_shared_bytes);
  } catch (const std::exception& e) {
    record.kernel_resources_note = e.what();
  }
}

}  // namespace

int validate_source_command(const Args& args, std::ostream& out) {
  po::options_description options(
      "warpdiv validate FILE.cu: run the kernel's control flow on GPU 0 and compare it with the\n"
      "model. A probe generated from the kernel's model (its conditions, loops, exits and\n"
      "barriers, without its memory work) is compiled with NVRTC and launched with the launch\n"
      "given; it records each warp evaluation with __ballot_sync. Compared: every statement's\n"
      "totals, and every warp evaluation one by one when the launch makes at most --records.\n"
      "Exit status 0 when all agree, 1 on a difference (the first is named), 2 on bad input,\n"
      "3 without a GPU or without NVRTC.\n\n"
      "usage: warpdiv validate FILE.cu [--kernel NAME] [-D NAME[=VALUE]]... [-I DIR]...\n"
      "                        --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg NAME=VALUE]...\n"
      "                        [--records N] [--csv FILE]\n"
      "       warpdiv validate --model FILE.json --grid ... (a model saved by analyze --save-model)\n"
      "       warpdiv validate [--width W | --rows J --inner K --cols L] ... (the lecture's kernels)\n"
      "\noptions");
  options.add_options()("help,h", "show this help");
  add_kernel_source_options(options);
  add_launch_source_options(options);
  options.add_options()
      ("warp-size", po::value<std::string>()->value_name("S"), "32, the GPU's (the default)")
      ("records", po::value<std::string>()->value_name("N"),
       "compare warp by warp when the model makes at most N warp evaluations, 0 .. 100000000 "
       "(default 4000000; 0 = totals only)")
      ("csv", po::value<std::string>()->value_name("FILE"),
       "also write the header and one row: device, launch, figures, outcome");
  std::string input;
  const po::variables_map vm = parse_source_command_line("validate", args, options, input);
  if (has(vm, "help")) {
    write_help(out, options);
    return 0;
  }
  if (!(has(vm, "grid") && has(vm, "block")))
    throw InvalidInput("warpdiv validate " + std::string(has(vm, "file") ? input : "--model") +
                       " needs --grid X[,Y[,Z]] and --block X[,Y[,Z]] (the launch to run)");
  const ArgValues values = parse_arg_values(get_all(vm, "arg"));
  ir::Launch launch = launch_from_flags(vm, values);
  if (launch.warp_size != kernels::kProbeWarpSize)
    throw InvalidInput("--warp-size must be 32 for a GPU run (got " +
                       std::to_string(launch.warp_size) + ")");
  const std::int64_t record_limit =
      has(vm, "records") ? parse_integer("--records", get(vm, "records"), 0, kMaxWarpRecords)
                         : kDefaultWarpRecords;

  ir::Kernel kernel;
  std::vector<std::string> files_read;  // inputs: no output may replace one
  if (!read_source_kernel(vm, kernel, &files_read)) return 2;
  launch.arguments = bind_arguments(kernel, values, get(vm, "grid") + " " + get(vm, "block"));
  ir::validate(launch, kernel);  // the kernel itself was validated as it was read

  analysis::OutputFiles outputs(out);
  protect_inputs(outputs, vm, source_files(kernel, files_read));
  analysis::Output* csv = has(vm, "csv") ? &outputs.open("--csv", get(vm, "csv")) : nullptr;
  std::ostream& text = outputs.report();

  // The GPU before any run of the model: without one there is nothing to compare with.
  const kernels::DeviceInfo device = kernels::open_probe_device();  // NoDevice: exit 3
  ir::ReplayOptions replay_options;
  replay_options.max_evaluations = max_evaluations_from(vm);
  const ir::ReplayEstimate estimate = ir::estimate(kernel, launch, replay_options);

  // The model, warp by warp when small enough.
  const std::uint64_t warps = launch.grid.volume() * ir::warps_per_block(launch);
  const bool warp_by_warp = estimate.warp_statement_evaluations <=
                                static_cast<sim::Count>(record_limit) &&
                            record_limit > 0 && warps <= kMaxRecordedWarps;
  const SigintHandler sigint;
  replay_options.stop = sigint.flag();
  std::unique_ptr<ir::WarpTraceRecorder> recorder;
  if (warp_by_warp) {
    recorder = std::make_unique<ir::WarpTraceRecorder>(launch, kMaxRecordedWarps);
    replay_options.observer = recorder.get();
  }
  ir::ReplayResult model;
  try {
    model = ir::replay(kernel, launch, replay_options);
  } catch (const Interrupted&) {
    std::cerr << "warpdiv validate: interrupted: no file written\n";
    return kInterruptedStatus;
  }
  ir::WarpTrace model_trace;
  if (recorder) model_trace = recorder->flatten();
  recorder.reset();

  // Each warp may run a little past the model's longest before the probe gives up on it.
  std::uint64_t longest = 0;
  for (std::uint64_t c : model_trace.counts) longest = std::max(longest, c);
  const std::uint64_t guard =
      warp_by_warp ? 2 * longest + 1024 : ~std::uint64_t{0};
  const kernels::ProbeRun gpu =
      kernels::run_probe(kernel, launch, warp_by_warp ? &model_trace : nullptr, guard);
  const analysis::ProbeComparison comparison = analysis::compare_probe(
      kernel, launch, model, gpu.statements, warp_by_warp ? &model_trace : nullptr,
      warp_by_warp ? &gpu.warps : nullptr, gpu.lane_order_faults);

  analysis::ProbeRecord record;
  record.date = utc_now();
  record.device = device.name;
  record.compute_capability =
      std::to_string(device.compute_major) + "." + std::to_string(device.compute_minor);
  record.driver = cuda_version(device.driver_version);
  record.runtime = cuda_version(device.runtime_version);
  record.nvrtc = gpu.nvrtc_version;
  record.kernel = kernel.name;
  record.file = kernel.files.empty() ? std::string() : kernel.files[0].path;
  record.grid = ir::to_string(launch.grid);
  record.block = ir::to_string(launch.block);
  record.arguments = arguments_text(kernel, launch);
  record.statements = kernel.stmts.size();
  record.warps = warps;
  for (const ir::StatementCounts& c : model.statements) {
    record.warp_evaluations += c.warp_evaluations;
    record.divergent_evaluations += c.divergent;
    record.partial_barrier_executions += c.partial_block_executions;
  }
  record.comparison = comparison;
  record.outcome = comparison.summary(kernel);
  kernel_resources(kernel, device, gpu.architecture, record);
  record.probe_registers = gpu.resources.registers_per_thread;
  record.probe_local_bytes = gpu.resources.local_bytes;
  record.compile_seconds = gpu.compile_seconds;
  record.kernel_seconds = gpu.kernel_seconds;
  if (csv) analysis::write_probe_csv(csv->stream(), {record});
  outputs.commit();

  text << "warpdiv validate " << kernel.name << " (" << record.file << ") on " << device.name
       << " (compute capability " << record.compute_capability << ", driver " << record.driver
       << ", NVRTC " << gpu.nvrtc_version << ", " << gpu.architecture << ")\n"
       << "launch: grid " << record.grid << ", block " << record.block
       << (record.arguments.empty() ? "" : ", " + record.arguments) << "; " << warps
       << " warps, " << sim::to_decimal(model.warp_statement_evaluations)
       << " warp evaluations in the model\n"
       << "probe: " << gpu.resources.registers_per_thread << " registers per thread, "
       << gpu.resources.local_bytes << " bytes of local memory; compiled in "
       << gpu.compile_seconds << " s, ran in " << gpu.kernel_seconds << " s\n";
  if (record.kernel_registers_runtime >= 0)
    text << "kernel: " << record.kernel_registers_compiled << " registers per thread and "
         << record.kernel_static_shared_compiled << " bytes of static shared memory compiled ("
         << record.kernel_compiled_by << "); loaded, the runtime reports "
         << record.kernel_registers_runtime << " and " << record.kernel_static_shared_runtime
         << " (cudaFuncGetAttributes)\n";
  else
    text << "kernel: resources not compiled (" << record.kernel_resources_note << ")\n";
  write_statements(text, kernel, model, gpu.statements);
  if (!warp_by_warp)
    text << "warp by warp: not compared (the model makes about "
         << sim::to_decimal(estimate.warp_statement_evaluations)
         << " warp evaluations, above --records " << record_limit << ")\n";
  text << (comparison.agree() ? "Model and GPU: " : "Model and GPU DIFFER: ") << record.outcome
       << '\n';
  if (csv) text << "CSV written to " << csv->name() << '\n';
  if (!comparison.agree()) {
    std::cerr << "warpdiv: mismatch: " << record.outcome << '\n';
    return 1;
  }
  return 0;
}

}  // namespace warpdiv::cli
