#include "analysis/probe_comparison.hpp"

#include <cstdio>
#include <functional>
#include <sstream>

#include "analysis/csv.hpp"

#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::analysis {

namespace ir = sim::ir;

std::string hex_mask(std::uint64_t mask) {
  char text[24];
  if (mask >> 32 != 0)
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(mask));
  else
    std::snprintf(text, sizeof text, "0x%08llx", static_cast<unsigned long long>(mask));
  return text;
}

namespace {

std::string where(const ir::Kernel& kernel, ir::StmtId id) {
  if (id < 0 || static_cast<std::size_t>(id) >= kernel.stmts.size())
    return "statement " + std::to_string(id) + " (not in the model)";
  const ir::Stmt& s = kernel.stmts[static_cast<std::size_t>(id)];
  return ir::location(kernel, s.range) + " (" + ir::report_kind(s) + ", statement " + std::to_string(id) +
         ")";
}

std::string masks(const ir::Kernel& kernel, const ir::WarpEvaluation& e) {
  const bool condition = e.statement >= 0 && static_cast<std::size_t>(e.statement) < kernel.stmts.size() &&
                         (kernel.stmts[static_cast<std::size_t>(e.statement)].kind == ir::StmtKind::If ||
                          kernel.stmts[static_cast<std::size_t>(e.statement)].kind == ir::StmtKind::Loop ||
                          kernel.stmts[static_cast<std::size_t>(e.statement)].kind == ir::StmtKind::Switch);
  std::string text = "active " + hex_mask(e.active);
  if (condition) text += " taken " + hex_mask(e.taken);
  return text;
}

std::string describe(const ir::Kernel& kernel, const ir::WarpEvaluation& e) {
  return where(kernel, e.statement) + " " + masks(kernel, e);
}

}  // namespace

std::string ProbeComparison::summary(const ir::Kernel& kernel) const {
  if (lane_order_faults != 0)
    return std::to_string(lane_order_faults) +
           " threads sit in another lane than x + y*Bx + z*Bx*By gives (warp formation differs)";
  if (!first_warp_difference.empty()) return first_warp_difference;
  if (!total_differences.empty()) {
    const TotalDifference& d = total_differences.front();
    return where(kernel, d.statement) + ": " + d.field + " model " + sim::to_decimal(d.model) + ", GPU " +
           sim::to_decimal(d.gpu) + " (" + std::to_string(total_differences.size()) + " figures differ)";
  }
  std::string text = "agree: " + std::to_string(statements_compared) + " statements' totals";
  if (warps_compared > 0)
    text += ", " + std::to_string(evaluations_compared) + " warp evaluations of " +
            std::to_string(warps_compared) + " warps one by one";
  return text;
}

ProbeComparison compare_probe(const ir::Kernel& kernel, const ir::Launch& launch,
                              const ir::ReplayResult& model,
                              const std::vector<ir::StatementCounts>& gpu_totals,
                              const ir::WarpTrace* model_warps, const ir::WarpTrace* gpu_warps,
                              std::uint64_t lane_order_faults) {
  if (model.statements.size() != kernel.stmts.size() || gpu_totals.size() != kernel.stmts.size())
    throw InvalidInput(Diag::launch_invalid,
                       "the model's and the GPU's counts must have one entry per statement (" +
                           std::to_string(kernel.stmts.size()) + ")");
  ProbeComparison c;
  c.lane_order_faults = lane_order_faults;
  for (std::size_t i = 0; i < kernel.stmts.size(); ++i) {
    const ir::StatementCounts& m = model.statements[i];
    const ir::StatementCounts& g = gpu_totals[i];
    const auto field = [&](const char* name, sim::Count a, sim::Count b) {
      if (a != b) c.total_differences.push_back({static_cast<ir::StmtId>(i), name, a, b});
    };
    field("warp_evaluations", m.warp_evaluations, g.warp_evaluations);
    field("divergent", m.divergent, g.divergent);
    field("active_lanes", m.active_lanes, g.active_lanes);
    field("taken_lanes", m.taken_lanes, g.taken_lanes);
    field("block_executions", m.block_executions, g.block_executions);
    field("partial_block_executions", m.partial_block_executions, g.partial_block_executions);
    field("blocks_with_partial", m.blocks_with_partial, g.blocks_with_partial);
    c.statements_compared += 1;
  }
  if (model_warps == nullptr || gpu_warps == nullptr) return c;
  if (model_warps->warps() != gpu_warps->warps() || model_warps->offsets.size() != model_warps->warps() + 1 ||
      gpu_warps->offsets.size() != gpu_warps->warps() + 1)
    throw InvalidInput(Diag::launch_invalid,
                       "the model's and the GPU's warp records cover different warps (" +
                           std::to_string(model_warps->warps()) + " and " +
                           std::to_string(gpu_warps->warps()) + ")");
  for (std::uint64_t w = 0; w < model_warps->warps(); ++w) {
    const std::uint64_t m_count = model_warps->counts[w];
    const std::uint64_t g_count = gpu_warps->counts[w];
    const std::uint64_t m_kept = std::min(m_count, model_warps->capacity(w));
    const std::uint64_t g_kept = std::min(g_count, gpu_warps->capacity(w));
    const std::uint64_t common = std::min(m_kept, g_kept);
    std::string difference, location;
    std::uint64_t k = 0;
    for (; k < common; ++k) {
      const ir::WarpEvaluation& a = model_warps->evaluations[model_warps->offsets[w] + k];
      const ir::WarpEvaluation& b = gpu_warps->evaluations[gpu_warps->offsets[w] + k];
      if (!(a == b)) {
        location = where(kernel, a.statement) + ": ";
        difference = "evaluation " + std::to_string(k) + ": model " + masks(kernel, a) + "; GPU " +
                     (a.statement == b.statement ? masks(kernel, b) : describe(kernel, b));
        break;
      }
    }
    c.evaluations_compared += k;
    if (difference.empty() && m_count != g_count) {
      difference =
          "the model makes " + std::to_string(m_count) + " evaluations, the GPU " + std::to_string(g_count);
      if (common < m_kept)
        difference += "; the model's next is " +
                      describe(kernel, model_warps->evaluations[model_warps->offsets[w] + common]);
      else if (common < g_kept)
        difference +=
            "; the GPU's next is " + describe(kernel, gpu_warps->evaluations[gpu_warps->offsets[w] + common]);
    }
    c.warps_compared += 1;
    if (difference.empty()) continue;
    c.warps_differing += 1;
    if (c.first_warp_difference.empty()) {
      ir::Dim3 block;
      std::uint32_t warp = 0;
      ir::split_global_warp(launch, w, block, warp);
      c.first_warp_difference =
          location + "block " + ir::to_string(block) + ", warp " + std::to_string(warp) + ", " + difference;
    }
  }
  return c;
}

namespace {

std::string seconds(double s) {
  std::ostringstream o;
  o.precision(6);
  o << s;
  return o.str();
}

const CsvColumns<ProbeRecord>& probe_columns() {
  using R = const ProbeRecord&;
  static const CsvColumns<ProbeRecord> columns = {
      {"date", [](R r) { return r.date; }},
      {"device", [](R r) { return r.device; }},
      {"compute_capability", [](R r) { return r.compute_capability; }},
      {"driver", [](R r) { return r.driver; }},
      {"runtime", [](R r) { return r.runtime; }},
      {"nvrtc", [](R r) { return r.nvrtc; }},
      {"file", [](R r) { return r.file; }},
      {"kernel", [](R r) { return r.kernel; }},
      {"grid", [](R r) { return r.grid; }},
      {"block", [](R r) { return r.block; }},
      {"arguments", [](R r) { return r.arguments; }},
      {"statements", [](R r) { return std::to_string(r.statements); }},
      {"warps", [](R r) { return std::to_string(r.warps); }},
      {"warp_evaluations", [](R r) { return sim::to_decimal(r.warp_evaluations); }},
      {"divergent_evaluations", [](R r) { return sim::to_decimal(r.divergent_evaluations); }},
      {"partial_barrier_executions", [](R r) { return sim::to_decimal(r.partial_barrier_executions); }},
      {"warps_compared", [](R r) { return std::to_string(r.comparison.warps_compared); }},
      {"evaluations_compared", [](R r) { return std::to_string(r.comparison.evaluations_compared); }},
      {"figures_differing", [](R r) { return std::to_string(r.comparison.total_differences.size()); }},
      {"warps_differing", [](R r) { return std::to_string(r.comparison.warps_differing); }},
      {"agree", [](R r) { return std::string(r.comparison.agree() ? "yes" : "no"); }},
      {"outcome", [](R r) { return r.outcome; }},
      {"kernel_compiled_by", [](R r) { return r.kernel_compiled_by; }},
      {"kernel_registers_compiled", [](R r) { return std::to_string(r.kernel_registers_compiled); }},
      {"kernel_static_shared_compiled", [](R r) { return std::to_string(r.kernel_static_shared_compiled); }},
      {"kernel_registers_runtime", [](R r) { return std::to_string(r.kernel_registers_runtime); }},
      {"kernel_static_shared_runtime", [](R r) { return std::to_string(r.kernel_static_shared_runtime); }},
      {"kernel_resources_note", [](R r) { return r.kernel_resources_note; }},
      {"probe_registers", [](R r) { return std::to_string(r.probe_registers); }},
      {"probe_local_bytes", [](R r) { return std::to_string(r.probe_local_bytes); }},
      {"compile_seconds", [](R r) { return seconds(r.compile_seconds); }},
      {"kernel_seconds", [](R r) { return seconds(r.kernel_seconds); }},
  };
  return columns;
}

}  // namespace

void write_probe_csv(std::ostream& out, const std::vector<ProbeRecord>& records) {
  probe_columns().write(out, records);
}

}  // namespace warpdiv::analysis
