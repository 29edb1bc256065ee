#include "analysis/memory_report.hpp"

#include <algorithm>
#include <cstdio>

#include "sim/engine/ir_events.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::analysis {

namespace ir = sim::ir;
using sim::Count;
using sim::to_decimal;

std::vector<std::string> accesses_not_counted(const ir::Kernel& kernel, const ir::ReplayResult& result) {
  std::vector<std::string> why = ir::uncounted_accesses(kernel, result.computed_loads);
  if (result.memory_counted)
    for (std::size_t i = 0; i < why.size(); ++i)
      if (why[i].empty()) why[i] = result.access_faults[i];
  return why;
}

MemoryFigures& operator+=(MemoryFigures& a, const MemoryFigures& b) {
  a.global_requests += b.global_requests;
  a.global_sectors += b.global_sectors;
  a.global_bytes += b.global_bytes;
  a.global_load_requests += b.global_load_requests;
  a.global_store_requests += b.global_store_requests;
  a.global_atomic_requests += b.global_atomic_requests;
  a.shared_requests += b.shared_requests;
  a.shared_wavefronts += b.shared_wavefronts;
  a.shared_bank_conflicts += b.shared_bank_conflicts;
  a.flops += b.flops;
  a.has_global = a.has_global || b.has_global;
  a.has_shared = a.has_shared || b.has_shared;
  a.accesses_not_counted += b.accesses_not_counted;
  return a;
}

std::optional<double> sector_efficiency(const MemoryFigures& m) {
  if (!m.has_global || m.global_sectors == 0) return std::nullopt;
  return sim::to_double(m.global_bytes) / (sim::to_double(m.global_sectors) * 32);
}

std::optional<double> conflicts_per_request(const MemoryFigures& m) {
  if (!m.has_shared || m.shared_requests == 0) return std::nullopt;
  return sim::to_double(m.shared_bank_conflicts) / sim::to_double(m.shared_requests);
}

namespace {

// The memory figures of a statement, from its accesses' events (sim/engine/ir_events.hpp): each counted
// access adds its figures to its space's.
struct StatementMemoryObserver : ir::IgnoreEvents {
  using IgnoreEvents::on;
  MemoryFigures& f;
  const std::vector<std::string>& not_counted;
  StatementMemoryObserver(MemoryFigures& figures, const std::vector<std::string>& why)
      : f(figures), not_counted(why) {}
  void on(const ir::AccessEvent& e) {
    if (!not_counted[static_cast<std::size_t>(e.site)].empty()) {
      ++f.accesses_not_counted;
      return;
    }
    if (e.space == ir::AddressSpace::Shared) {
      f.has_shared = true;
      f.shared_requests += e.requests;
      f.shared_wavefronts += e.wavefronts;
      f.shared_bank_conflicts += e.conflicts;
    } else {
      f.has_global = true;
      f.global_requests += e.requests;
      f.global_sectors += e.sectors;
      f.global_bytes += e.bytes;
      (e.kind == ir::AccessKind::Load    ? f.global_load_requests
       : e.kind == ir::AccessKind::Store ? f.global_store_requests
                                         : f.global_atomic_requests) += e.requests;
    }
  }
};

}  // namespace

MemoryFigures statement_memory(const ir::Kernel& kernel, const ir::ReplayResult& result,
                               const std::vector<std::string>& not_counted, ir::StmtId statement) {
  MemoryFigures f;
  if (!result.memory_counted) return f;
  StatementMemoryObserver observer(f, not_counted);
  ir::emit_access_totals(kernel, result.accesses, statement, observer);
  f.flops = result.flops[static_cast<std::size_t>(statement)];
  return f;
}

MemorySection make_memory_section(const ir::Kernel& kernel, const ir::ReplayResult& result,
                                  const std::string& why_not_counted) {
  MemorySection m;
  for (const ir::MemoryBase& b : kernel.bases) {
    if (b.space != ir::AddressSpace::Shared) continue;
    if (b.bytes == 0)
      m.dynamic_shared.push_back(b.name);
    else
      m.static_shared_bytes += b.bytes;
  }
  m.counted = result.memory_counted;
  m.not_counted = m.counted ? "" : why_not_counted;
  const std::vector<std::string> why = accesses_not_counted(kernel, result);
  std::vector<ir::StmtId> owner(kernel.accesses.size(), ir::kNone);
  for (std::size_t s = 0; s < kernel.stmts.size(); ++s)
    for (const std::int32_t a : kernel.stmts[s].accesses)
      owner[static_cast<std::size_t>(a)] = static_cast<ir::StmtId>(s);
  for (std::size_t i = 0; i < kernel.accesses.size(); ++i) {
    const ir::MemoryAccess& a = kernel.accesses[i];
    AccessRow row;
    row.access = static_cast<std::int32_t>(i);
    row.statement = owner[i];
    row.where = ir::location(kernel, a.range);
    row.line = a.range.line;
    row.text = a.text;
    row.kind = ir::name(a.kind);
    row.space = ir::name(a.space);
    row.width = a.width;
    row.not_counted = why[i];
    row.undefined = m.counted && !row.not_counted.empty() && i < result.access_faults.size() &&
                    row.not_counted == result.access_faults[i];
    if (m.counted && row.not_counted.empty()) row.counts = result.accesses[i];
    m.accesses.push_back(row);
    if (!m.counted || !row.not_counted.empty()) continue;
    if (a.space == ir::AddressSpace::Shared) {
      m.shared_requests += row.counts.requests;
      m.shared_wavefronts += row.counts.wavefronts;
      m.shared_conflicts += row.counts.conflicts;
      continue;
    }
    TrafficTotals& t = a.kind == ir::AccessKind::Load    ? m.global_loads
                       : a.kind == ir::AccessKind::Store ? m.global_stores
                                                         : m.global_atomics;
    t.requests += row.counts.requests;
    t.sectors += row.counts.sectors;
    t.bytes += row.counts.bytes;
  }
  std::stable_sort(m.accesses.begin(), m.accesses.end(),
                   [](const AccessRow& x, const AccessRow& y) { return x.line < y.line; });
  // Operations whose lanes depend on a value the launch does not compute are left out by the
  // engines (LaunchPlan::compile_memory): their statement's flops are not counted.
  // (Computed only for a kernel with such operations: a sweep makes a report per launch.)
  const bool guarded =
      m.counted && std::any_of(kernel.stmts.begin(), kernel.stmts.end(), [](const ir::Stmt& s) {
        return std::any_of(s.flops.begin(), s.flops.end(),
                           [](const ir::FloatOps& f) { return f.guard != ir::kNone; });
      });
  const std::vector<ir::ExprId> origins =
      guarded ? ir::opaque_origins(kernel, result.computed_loads) : std::vector<ir::ExprId>{};
  for (std::size_t s = 0; s < kernel.stmts.size(); ++s) {
    const ir::Stmt& stmt = kernel.stmts[s];
    if (m.counted) m.flops += result.flops[s];
    std::string why_flops = stmt.flops_not_counted;
    if (m.counted && why_flops.empty() && !result.flop_faults[s].empty()) why_flops = result.flop_faults[s];
    for (const ir::FloatOps& f : stmt.flops)
      if (guarded && why_flops.empty() && f.guard != ir::kNone &&
          origins[static_cast<std::size_t>(f.guard)] != ir::kNone)
        why_flops =
            "the lanes that run them depend on " +
            kernel.exprs[static_cast<std::size_t>(origins[static_cast<std::size_t>(f.guard)])].description;
    if (!why_flops.empty())
      m.flops_not_counted.push_back(ir::location(kernel, stmt.range) + ": " + why_flops);
  }
  return m;
}

Count global_bytes_moved(const MemorySection& m) {
  return (m.global_loads.sectors + m.global_stores.sectors + m.global_atomics.sectors) * 32;
}

Count global_bytes_asked(const MemorySection& m) {
  return m.global_loads.bytes + m.global_stores.bytes + m.global_atomics.bytes;
}

std::vector<std::string> incomplete_memory(const MemorySection& m) {
  if (memory_section_empty(m)) return {};
  if (!m.counted) return {"memory figures not counted"};  // why: MemorySection::not_counted
  std::vector<std::string> why;
  const auto skipped = std::count_if(m.accesses.begin(), m.accesses.end(),
                                     [](const AccessRow& a) { return !a.not_counted.empty(); });
  if (skipped != 0)
    why.push_back("memory figures of " + std::to_string(skipped) + " of " +
                  std::to_string(m.accesses.size()) + " accesses not counted");
  if (!m.flops_not_counted.empty())
    why.push_back("floating-point operations of " + std::to_string(m.flops_not_counted.size()) +
                  (m.flops_not_counted.size() == 1 ? " statement" : " statements") + " not counted");
  return why;
}

std::optional<double> arithmetic_intensity(const MemorySection& m, Traffic traffic) {
  const Count bytes = traffic == Traffic::Asked ? global_bytes_asked(m) : global_bytes_moved(m);
  if (!m.counted || bytes == 0 || !incomplete_memory(m).empty()) return std::nullopt;
  return sim::to_double(m.flops) / sim::to_double(bytes);
}

std::optional<double> roofline_gflops(const MemorySection& m, Traffic traffic) {
  const std::optional<double> intensity = arithmetic_intensity(m, traffic);
  if (!intensity || !m.gpu || m.gpu->peak_gflops <= 0 || m.gpu->bandwidth_gbs <= 0) return std::nullopt;
  return std::min(m.gpu->peak_gflops, *intensity * m.gpu->bandwidth_gbs);
}

namespace {

std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

std::string efficiency(Count bytes, Count sectors) {
  if (sectors == 0) return "-";
  return fixed(100.0 * sim::to_double(bytes) / (sim::to_double(sectors) * 32), 1) + "%";
}

// `flops` 0: no bytes per FLOP (none, or the figures are incomplete).
void traffic_line(std::ostream& out, const char* what, const TrafficTotals& t, Count flops) {
  if (t.requests == 0) return;
  out << "  " << what << to_decimal(t.requests) << " requests, " << to_decimal(t.sectors)
      << " sectors = " << to_decimal(t.sectors * 32) << " bytes moved for " << to_decimal(t.bytes)
      << " bytes asked (sector efficiency " << efficiency(t.bytes, t.sectors)
      << (t.bytes > t.sectors * 32 ? ", over 100%: lanes share words" : "");
  if (flops != 0)
    out << "; " << fixed(sim::to_double(t.bytes) / sim::to_double(flops), 2) << " bytes asked per FLOP";
  out << ")\n";
}

}  // namespace

std::string not_counted_text(const AccessRow& a) {
  return a.where + ": " + a.kind + " '" + a.text + "': " + a.not_counted;
}

bool memory_section_empty(const MemorySection& m) {
  return m.accesses.empty() && m.static_shared_bytes == 0 && m.dynamic_shared.empty() && m.flops == 0 &&
         m.flops_not_counted.empty();
}

void write_memory_totals(std::ostream& out, const MemorySection& m) {
  // A kernel with no access, no shared memory and no floating-point work: nothing to say.
  if (memory_section_empty(m)) return;
  out << "\nMemory of the launch";
  if (!m.counted) {
    out << ": not counted" << (m.not_counted.empty() ? "" : " (" + m.not_counted + ")") << ".\n";
  } else {
    const std::vector<std::string> incomplete = incomplete_memory(m);
    out << " (global traffic is what L1 asks of L2: 32-byte sectors, not DRAM)"
        << (incomplete.empty() ? "" : ", incomplete: " + sim::listed(incomplete)) << ":\n";
    const Count per_flop = incomplete.empty() ? m.flops : 0;
    traffic_line(out, "global loads:   ", m.global_loads, per_flop);
    traffic_line(out, "global stores:  ", m.global_stores, per_flop);
    traffic_line(out, "global atomics: ", m.global_atomics, per_flop);
    if (m.global_loads.requests + m.global_stores.requests + m.global_atomics.requests == 0)
      out << "  global memory: no access counted\n";
    if (m.shared_requests != 0)
      out << "  shared memory:  " << to_decimal(m.shared_requests) << " requests, "
          << to_decimal(m.shared_wavefronts) << " wavefronts, " << to_decimal(m.shared_conflicts)
          << " bank conflicts\n";
    out << "  floating-point operations: " << to_decimal(m.flops)
        << " (add, sub, mul, div 1, fma 2, per lane)\n";
    const auto asked = arithmetic_intensity(m, Traffic::Asked);
    const auto moved = arithmetic_intensity(m, Traffic::Moved);
    if (!incomplete.empty() && m.flops != 0)
      out << "  arithmetic intensity and bound: withheld (figures incomplete)\n";
    else if (asked && moved && m.flops != 0)
      out << "  arithmetic intensity: " << fixed(*asked, 4) << " FLOP per byte the lanes ask for ("
          << fixed(1.0 / *asked, 2) << " bytes per FLOP), " << fixed(*moved, 4)
          << " FLOP per byte of the sectors moved (" << fixed(1.0 / *moved, 2) << " bytes per FLOP)\n";
    if (m.gpu && incomplete.empty()) {
      const auto bound = roofline_gflops(m, Traffic::Asked);
      const auto moved_bound = roofline_gflops(m, Traffic::Moved);
      if (bound && moved_bound && asked) {
        const double peak = m.gpu->peak_gflops, bandwidth = m.gpu->bandwidth_gbs;
        out << "  bound on " << m.gpu->name << " (" << fixed(peak, 0) << " GFLOP/s, " << fixed(bandwidth, 1)
            << " GB/s; " << m.gpu->source << "):\n"
            << "    every byte asked from DRAM: min(" << fixed(peak, 0) << ", " << fixed(*asked, 4) << " x "
            << fixed(bandwidth, 1) << ") = " << fixed(*bound, 1) << " GFLOP/s ("
            << fixed(100.0 * *bound / peak, 1) << "% of the peak)\n"
            << "    every sector moved from DRAM: " << fixed(*moved_bound, 1) << " GFLOP/s ("
            << fixed(100.0 * *moved_bound / peak, 1) << "% of the peak)\n";
      } else {
        out << "  bound on " << m.gpu->name << ": not known ("
            << (m.gpu->peak_gflops > 0 && m.gpu->bandwidth_gbs > 0
                    ? "no global traffic or no floating-point work"
                    : "the preset has no peak rate and bandwidth")
            << ")\n";
      }
    }
  }
  out << "  shared memory per block: " << m.static_shared_bytes << " bytes static";
  if (!m.dynamic_shared.empty() || m.dynamic_shared_bytes != 0) {
    out << ", " << m.dynamic_shared_bytes << " bytes dynamic (--dynamic-smem)";
    if (!m.dynamic_shared.empty()) out << " for extern __shared__ " << sim::listed(m.dynamic_shared);
  }
  out << '\n';
  std::vector<const AccessRow*> skipped;
  for (const AccessRow& a : m.accesses)
    if (!a.not_counted.empty()) skipped.push_back(&a);
  if (!skipped.empty()) {
    out << "  not counted:\n";
    for (const AccessRow* a : skipped) out << "    " << not_counted_text(*a) << '\n';
  }
  for (const std::string& f : m.flops_not_counted)
    out << "  floating-point operations not counted at " << f << '\n';
}

}  // namespace warpdiv::analysis
