// The work of `warpdiv validate FILE.cu`: the model's replay beside the GPU probe's, and the
// text that sets them side by side.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <tuple>

#include "kernels/compiled_resources.hpp"
#include "kernels/probe_source.hpp"
#include "sim/support/errors.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_trace.hpp"
#include "sim/support/message_text.hpp"
#include "sim/session.hpp"
#include "tools/cli/runs.hpp"

namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

namespace {

/// Warps kept warp by warp at most (a vector each on the host).
constexpr std::uint64_t kMaxRecordedWarps = 4'000'000;

std::string arguments_text(const ir::Kernel& kernel, const ir::Launch& launch) {
  std::string text;
  for (std::size_t i = 0; i < kernel.parameters.size(); ++i) {
    const std::string value = ir::argument_text(kernel.parameters[i], launch.arguments[i]);
    if (value.empty()) continue;
    if (!text.empty()) text += ' ';
    text += kernel.parameters[i].name + "=" + value;
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

// The record of the CSV and the text: device, launch, the model's totals, the comparison.
analysis::ProbeRecord probe_record(const ir::Kernel& kernel, const ir::Launch& launch,
                                   const ValidateSourceReport& r,
                                   const analysis::ProbeComparison& comparison) {
  analysis::ProbeRecord record;
  record.date = utc_now();
  record.device = r.device.name;
  record.compute_capability =
      std::to_string(r.device.compute_major) + "." + std::to_string(r.device.compute_minor);
  record.driver = cuda_version(r.device.driver_version);
  record.runtime = cuda_version(r.device.runtime_version);
  record.nvrtc = r.gpu.nvrtc_version;
  record.kernel = kernel.name;
  record.file = kernel.files.empty() ? std::string() : kernel.files[0].path;
  record.grid = ir::to_string(launch.grid);
  record.block = ir::to_string(launch.block);
  record.arguments = arguments_text(kernel, launch);
  record.statements = kernel.stmts.size();
  record.warps = launch.grid.volume() * ir::warps_per_block(launch);
  for (const ir::StatementCounts& c : r.model.statements) {
    record.warp_evaluations += c.warp_evaluations;
    record.divergent_evaluations += c.divergent;
    record.partial_barrier_executions += c.partial_block_executions;
  }
  record.comparison = comparison;
  record.outcome = comparison.summary(kernel);
  kernel_resources(kernel, r.device, r.gpu.architecture, record);
  record.probe_registers = r.gpu.resources.registers_per_thread;
  record.probe_local_bytes = r.gpu.resources.local_bytes;
  record.compile_seconds = r.gpu.compile_seconds;
  record.kernel_seconds = r.gpu.kernel_seconds;
  return record;
}

// The model's counts: its replay (which records the trace when asked), or, for a launch compared by
// its totals only and estimated above the replay's budget, the class engine's totals, exact at any
// size where it proves its classes (else the replay refuses, naming the budget).
ir::ReplayResult model_totals(const ir::Kernel& kernel, const ir::Launch& launch,
                              const ir::ReplayOptions& options, sim::Count estimate) {
  if (estimate > options.max_evaluations) {
    sim::CountRequest classes;
    classes.engine = sim::Engine::exact;
    classes.options.stop = options.stop;
    classes.memory_replay_budget = 0;  // totals compared: the class engine's own figures
    try {
      return sim::count_launch(kernel, launch, classes).result;
    } catch (const ir::ClassesUnproven&) {
    }
  }
  sim::CountRequest replay;
  replay.engine = sim::Engine::replay;
  replay.options = options;
  return sim::count_launch(kernel, launch, replay).result;
}

// The user's own kernel (compiled by NVRTC with its default flags, as nvcc compiles it) on the
// launch's inputs, its buffers against what the model's stores leave in them.
analysis::OutputComparison real_kernel_outputs(const ir::Kernel& kernel, const ir::Launch& launch,
                                               const ir::ReplayResult& model, std::int64_t dynamic_shared) {
  analysis::OutputComparison none;
  if (model.stored.empty()) {
    none.not_compared = "the model's stores were counted by the class engine, which keeps no values";
    return none;
  }
  bool stores = false;
  for (const ir::StoredBuffer& b : model.stored) stores = stores || !b.bytes.empty();
  if (!stores && model.stores_not_captured.empty())
    return analysis::compare_outputs(kernel, model.stored, "", {});
  try {
    const kernels::RealKernelRun real =
        kernels::run_real_kernel(kernel, launch, model.extents, dynamic_shared);
    return analysis::compare_outputs(kernel, model.stored, model.stores_not_captured, real.outputs);
  } catch (const std::exception& e) {  // a template, a parameter it cannot pass, no source ...
    none.not_compared = std::string("the real kernel did not run: ") + e.what();
    return none;
  }
}

}  // namespace

sim::Count ValidateHostMemory::total() const {
  const sim::Count replay = sim::checked_add(sim::checked_add(followed, records), stored);
  return sim::checked_add(inputs, std::max(replay, sim::checked_add(stored, read_back)));
}

ValidateHostMemory validate_host_memory(const ir::Kernel& kernel, const ir::Launch& launch,
                                        const ir::ReplayEstimate& estimate) {
  const sim::Count lane_stores = estimate.lane_stores;
  ValidateHostMemory m;
  m.followed = estimate.followed_bytes;
  std::vector<bool> stores_to(kernel.parameters.size(), false);
  for (const ir::MemoryAccess& a : kernel.accesses) {
    if (a.kind == ir::AccessKind::Load || a.base == ir::kNone) continue;
    const std::int32_t p = kernel.bases[static_cast<std::size_t>(a.base)].parameter;
    if (p >= 0) stores_to[static_cast<std::size_t>(p)] = true;
  }
  bool unsized = false;
  for (std::size_t p = 0; p < kernel.parameters.size(); ++p) {
    const sim::Count bytes = p < launch.buffer_bytes.size() ? sim::Count{launch.buffer_bytes[p]} : 0;
    if (p < launch.buffer_data.size() && launch.buffer_data[p] != nullptr)
      m.inputs = sim::checked_add(m.inputs, sim::Count{launch.buffer_data[p]->size()});
    m.read_back = sim::checked_add(m.read_back, bytes);
    if (stores_to[p]) m.stored = sim::checked_add(m.stored, sim::checked_mul(bytes, 2));  // value and state
    unsized = unsized || (stores_to[p] && bytes == 0);
  }
  if (unsized) {  // sized by the model: at most the bytes the stores write, 8 a lane
    const sim::Count written = sim::checked_mul(lane_stores, 8);
    m.stored = sim::checked_add(m.stored, sim::checked_mul(written, 2));
    m.read_back = sim::checked_add(m.read_back, written);
  }
  m.records = sim::checked_mul(lane_stores, ir::capture_record_bytes());
  return m;
}

sim::Count available_host_memory() {
  if (const char* test = std::getenv("WARPDIV_TEST_HOST_MEMORY"); test != nullptr && *test != '\0')
    return sim::Count{std::strtoull(test, nullptr, 10)};
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  unsigned long long kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return sim::checked_mul(sim::Count{kib}, 1024);
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? sim::checked_mul(sim::Count{static_cast<unsigned long long>(pages)}, page)
                               : 0;
}

void check_validate_host_memory(const ValidateHostMemory& need) {
  const sim::Count available = available_host_memory();
  if (available == 0 || need.total() <= available) return;
  throw InvalidInput(
      Diag::memory_budget,
      "validate would need about " + sim::to_decimal(need.total()) +
          " bytes of host memory to compare the real kernel's outputs with the model's stores (" +
          sim::to_decimal(need.followed) + " for the buffers followed by value, " +
          sim::to_decimal(need.records) + " for the stores' records, " + sim::to_decimal(need.stored) +
          " for the model's values, " + sim::to_decimal(need.read_back) + " read back, " +
          sim::to_decimal(need.inputs) + " of --data), more than the " + sim::to_decimal(available) +
          " bytes this host has available; use a smaller launch");
}

ValidateSourceReport run_validate_source(const ValidateSourceRequest& request, const ir::Kernel& kernel,
                                         const ir::Launch& launch, const std::atomic<bool>* stop) {
  ValidateSourceReport r;
  ir::ReplayOptions replay_options;
  replay_options.max_evaluations = request.max_evaluations;
  replay_options.capture_stores = request.compare_outputs;
  // The GPU before any run of the model (the estimate samples it): without one there is nothing
  // to compare with.
  r.device = kernels::open_probe_device();                     // NoDevice: exit 3
  kernels::check_probe_supports(kernel, launch.buffer_bytes);  // before any run of the model
  // The host memory the outputs' comparison needs, refused before anything runs on the GPU.
  const ir::ReplayEstimate estimate = ir::estimate(kernel, launch, replay_options);
  if (request.compare_outputs) check_validate_host_memory(validate_host_memory(kernel, launch, estimate));
  r.estimated_evaluations = estimate.warp_statement_evaluations;

  // The model, warp by warp when small enough.
  const std::uint64_t warps = launch.grid.volume() * ir::warps_per_block(launch);
  r.warp_by_warp = r.estimated_evaluations <= static_cast<sim::Count>(request.record_limit) &&
                   request.record_limit > 0 && warps <= kMaxRecordedWarps;
  replay_options.stop = stop;
  std::unique_ptr<ir::WarpTraceRecorder> recorder;
  if (r.warp_by_warp) {
    recorder = std::make_unique<ir::WarpTraceRecorder>(launch, kMaxRecordedWarps);
    replay_options.observer = recorder.get();
  }
  r.model = model_totals(kernel, launch, replay_options, r.warp_by_warp ? 0 : r.estimated_evaluations);
  // A branch on values threads pass through memory in an order the GPU does not fix: the GPU's
  // counts may differ from run to run, nothing to compare warp by warp.
  for (const ir::OrderDependence& o : ir::order_dependence(kernel, launch, r.model))
    if (o.condition)
      throw InvalidInput(
          Diag::unsupported_launch,
          o.message + "; validate compares warp by warp, which only an order-free launch allows");
  ir::WarpTrace model_trace;
  if (recorder) model_trace = recorder->flatten();
  recorder.reset();

  // Each warp may run a little past the model's longest before the probe gives up on it.
  std::uint64_t longest = 0;
  for (std::uint64_t c : model_trace.counts) longest = std::max(longest, c);
  const std::uint64_t guard = r.warp_by_warp ? 2 * longest + 1024 : ~std::uint64_t{0};
  const ir::WarpTrace* trace = r.warp_by_warp ? &model_trace : nullptr;
  r.gpu = kernels::run_probe(kernel, launch, trace, guard);
  const analysis::ProbeComparison comparison =
      analysis::compare_probe(kernel, launch, r.model, r.gpu.statements, trace,
                              r.warp_by_warp ? &r.gpu.warps : nullptr, r.gpu.lane_order_faults);
  r.record = probe_record(kernel, launch, r, comparison);
  if (request.compare_outputs)
    r.outputs = real_kernel_outputs(kernel, launch, r.model, request.dynamic_shared);
  return r;
}

void write_validate_source_text(std::ostream& text, const ValidateSourceRequest& request,
                                const ir::Kernel& kernel, const ValidateSourceReport& r) {
  const analysis::ProbeRecord& record = r.record;
  text << "warpdiv validate " << kernel.name << " (" << record.file << ") on " << r.device.name
       << " (compute capability " << record.compute_capability << ", driver " << record.driver << ", NVRTC "
       << r.gpu.nvrtc_version << ", " << r.gpu.architecture << ")\n"
       << "launch: grid " << record.grid << ", block " << record.block
       << (record.arguments.empty() ? "" : ", " + record.arguments) << "; " << record.warps << " warps, "
       << sim::to_decimal(r.model.warp_statement_evaluations) << " warp evaluations in the model\n"
       << "probe: " << r.gpu.resources.registers_per_thread << " registers per thread, "
       << r.gpu.resources.local_bytes << " bytes of local memory; compiled in " << r.gpu.compile_seconds
       << " s, ran in " << r.gpu.kernel_seconds << " s\n";
  if (record.kernel_registers_runtime >= 0)
    text << "kernel: " << record.kernel_registers_compiled << " registers per thread and "
         << record.kernel_static_shared_compiled << " bytes of static shared memory compiled ("
         << record.kernel_compiled_by << "); loaded, the runtime reports " << record.kernel_registers_runtime
         << " and " << record.kernel_static_shared_runtime << " (cudaFuncGetAttributes)\n";
  else
    text << "kernel: resources not compiled (" << record.kernel_resources_note << ")\n";
  write_statements(text, kernel, r.model, r.gpu.statements);
  if (!r.warp_by_warp)
    text << "warp by warp: not compared (the model makes about " << sim::to_decimal(r.estimated_evaluations)
         << " warp evaluations, above --records " << request.record_limit << ")\n";
  text << (record.comparison.agree() ? "Model and GPU: " : "Model and GPU DIFFER: ") << record.outcome
       << '\n';
  if (request.compare_outputs)
    text << (r.outputs.agree() ? "Real kernel: " : "Real kernel DIFFERS: ") << r.outputs.summary() << '\n';
}

}  // namespace warpdiv::cli
