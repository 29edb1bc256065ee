// The class engine's memory figures (sim/classes/ir_classes.hpp): an access's sectors (wavefronts) in the
// runs the engine stands for without replaying them. Within a class every such run takes the
// same path with the same masks, and the access's byte offset differs from the replayed run's by
// the same amount in every lane: its coefficients (AccessShift) times how far the run is along
// each symbol. Sectors only depend on that amount modulo 32 (wavefronts modulo 4), so the machine
// counts the replayed run at every residue the class reaches (CompiledAccess::shifts), and a
// class adds the figure at each residue times the number of its runs that fall on it.
#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "sim/support/errors.hpp"
#include "sim/classes/ir_class_recorder.hpp"

namespace warpdiv::sim::ir::detail {

std::int64_t residue(Signed c, std::int64_t modulus) {
  return static_cast<std::int64_t>(((c % modulus) + modulus) % modulus);
}

ResidueHistogram residue_histogram(const AccessShift& a, std::int64_t c, std::uint64_t from,
                                   std::uint64_t to) {
  if (a.count < 1 || static_cast<std::size_t>(a.count) > ResidueHistogram::kMost)
    throw InternalError("class engine: an access's residues past its modulus");
  ResidueHistogram hist(static_cast<std::size_t>(a.count));
  if (from > to) return hist;
  const Unsigned n = Unsigned{to} - from + 1;
  if (c == 0 || a.count == 1) {
    hist[0] = n;
    return hist;
  }
  // j x c mod modulus repeats with period modulus / gcd(modulus, c).
  const auto period = static_cast<std::uint64_t>(a.modulus / std::gcd(a.modulus, c));
  // In 64 bits: r and c are below the modulus (32), to - first below 2^64.
  const std::uint64_t start = from % period;
  const auto modulus = static_cast<std::uint64_t>(a.modulus), step = static_cast<std::uint64_t>(a.step);
  for (std::uint64_t r = 0; r < period; ++r) {
    // The j in [from, to] with j = r (mod period).
    const std::uint64_t first = from + (r + period - start) % period;
    if (first > to || first < from) continue;
    const std::uint64_t times = (to - first) / period + 1;
    hist[static_cast<std::size_t>(r * static_cast<std::uint64_t>(c) % modulus / step)] += times;
  }
  return hist;
}

ResidueHistogram combine_histograms(const ResidueHistogram& h, const ResidueHistogram& g) {
  const std::size_t k = h.size;
  ResidueHistogram out(k);
  for (std::size_t u = 0; u < k; ++u) {
    if (h[u] == 0) continue;
    for (std::size_t v = 0; v < k; ++v) {
      if (g[v] == 0) continue;
      Unsigned p = 0;
      if (__builtin_mul_overflow(h[u], g[v], &p) ||
          __builtin_add_overflow(out[(u + v) % k], p, &out[(u + v) % k]))
        throw InvalidInput(Diag::count_budget, "the counts of a class pass 2^128");
    }
  }
  return out;
}

namespace {

// The figure at residues 0 .. n - 1: at residue s, the sum over u of hist[u] x f[(s + u) mod
// count], f[0] the run's own (f0) and f[r] = shifted[r - 1]. Only the residues the runs reach
// (hist[u] != 0) take part; a product of a count below 2^64 and a figure is exact in 128 bits.
void at_residues(const ResidueHistogram& hist, std::uint64_t f0, const std::uint64_t* shifted, std::size_t n,
                 Unsigned* out) {
  const std::size_t k = hist.size;
  constexpr std::size_t kMost = ResidueHistogram::kMost;
  std::uint64_t f[kMost];
  std::size_t reached[kMost];
  std::size_t m = 0;
  if (k > kMost) throw InternalError("class engine: more residues than an access's modulus");
  for (std::size_t u = 0; u < k; ++u) {
    f[u] = u == 0 ? f0 : shifted[u - 1];
    if (hist[u] != 0) reached[m++] = u;
  }
  // Where every sum stays below 2^64 (the usual case): in 64 bits.
  Unsigned most_h = 0;
  std::uint64_t most_f = 0;
  for (std::size_t i = 0; i < m; ++i) most_h = std::max(most_h, hist[reached[i]]);
  for (std::size_t u = 0; u < k; ++u) most_f = std::max(most_f, f[u]);
  std::uint64_t product = 0, sum = 0;
  if (m > 0 && most_h <= ~std::uint64_t{0} &&
      !__builtin_mul_overflow(static_cast<std::uint64_t>(most_h), most_f, &product) &&
      !__builtin_mul_overflow(product, static_cast<std::uint64_t>(m), &sum)) {
    std::uint64_t h64[kMost];
    for (std::size_t i = 0; i < m; ++i) h64[i] = static_cast<std::uint64_t>(hist[reached[i]]);
    for (std::size_t s = 0; s < n; ++s) {
      std::uint64_t total = 0;
      for (std::size_t i = 0; i < m; ++i) {
        std::size_t at = s + reached[i];
        if (at >= k) at -= k;
        total += h64[i] * f[at];
      }
      out[s] = total;
    }
    return;
  }
  for (std::size_t s = 0; s < n; ++s) {
    Unsigned total = 0;
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t u = reached[i];
      std::size_t at = s + u;
      if (at >= k) at -= k;
      const Unsigned h = hist[u];
      Unsigned p = 0;
      if (h <= ~std::uint64_t{0})
        p = Unsigned{static_cast<std::uint64_t>(h)} * f[at];
      else if (__builtin_mul_overflow(h, Unsigned{f[at]}, &p))
        throw InvalidInput(Diag::count_budget, "the counts of a class pass 2^128");
      if (__builtin_add_overflow(total, p, &total))
        throw InvalidInput(Diag::count_budget, "the counts of a class pass 2^128");
    }
    out[s] = total;
  }
}

Unsigned runs_of(const ResidueHistogram& hist) {
  Unsigned n = 0;
  for (std::size_t r = 0; r < hist.size; ++r)
    if (__builtin_add_overflow(n, hist[r], &n))
      throw InvalidInput(Diag::count_budget, "the counts of a class pass 2^128");
  return n;
}

Unsigned times(Unsigned a, Unsigned b) {
  Unsigned p = 0;
  if (__builtin_mul_overflow(a, b, &p))
    throw InvalidInput(Diag::count_budget, "the counts of a class pass 2^128");
  return p;
}

void add64(std::uint64_t& target, Unsigned v) {
  if (v > ~std::uint64_t{0} || __builtin_add_overflow(target, static_cast<std::uint64_t>(v), &target))
    counts_overflow();
}

void add128(Count& target, Unsigned v) {
  if (__builtin_add_overflow(target, v, &target)) counts_overflow(true);
}

// One run's figure, which the residues' arithmetic takes in 64 bits.
std::uint64_t run_figure(Count v) {
  if (v > ~std::uint64_t{0}) counts_overflow();
  return static_cast<std::uint64_t>(v);
}

}  // namespace

namespace {

// Totals over the runs of `hist` with the figure at residue 0 (`figure`).
AccessCounts totals(const CompiledAccess& a, const AccessCounts& d, const ResidueHistogram& hist,
                    Unsigned figure) {
  const Unsigned n = runs_of(hist);
  AccessCounts out;
  out.requests = times(d.requests, n);
  out.lanes = times(d.lanes, n);
  out.bytes = times(d.bytes, n);
  if (a.shared) {
    // Phases (wavefronts without conflicts) depend on the masks only: the same at every residue.
    out.wavefronts = figure;
    out.conflicts = figure - times(d.wavefronts - d.conflicts, n);
  } else {
    out.sectors = figure;
  }
  return out;
}

}  // namespace

AccessCounts residue_totals(const CompiledAccess& a, const AccessCounts& d, const std::uint64_t* d_shifted,
                            const ResidueHistogram& hist) {
  Unsigned figure = 0;
  at_residues(hist, run_figure(a.shared ? d.wavefronts : d.sectors), d_shifted, 1, &figure);
  return totals(a, d, hist, figure);
}

void add_residues(const CompiledAccess& a, AccessCounts& target, std::uint64_t* target_shifted,
                  const AccessCounts& d, const std::uint64_t* d_shifted, const ResidueHistogram& hist) {
  // Every residue the access follows (CompiledAccess::shifts, at most AccessShift::count).
  const auto n = static_cast<std::size_t>(std::max(a.shifts, 1));
  Unsigned figures[ResidueHistogram::kMost];
  if (n > hist.size) throw InternalError("class engine: more shifts than residues");
  at_residues(hist, run_figure(a.shared ? d.wavefronts : d.sectors), d_shifted, n, figures);
  const AccessCounts t = totals(a, d, hist, figures[0]);
  add128(target.requests, t.requests);
  add128(target.lanes, t.lanes);
  add128(target.bytes, t.bytes);
  add128(target.sectors, t.sectors);
  add128(target.wavefronts, t.wavefronts);
  add128(target.conflicts, t.conflicts);
  for (std::size_t s = 1; s < n; ++s) add64(target_shifted[s - 1], figures[s]);
}

void size_memory(Tally& t, const ClassProgram& classes) {
  if (!classes.memory) {
    t.accesses.clear();
    t.flops.clear();
    t.faults.clear();
    t.extents.clear();
    t.shifted.clear();
    return;
  }
  const Kernel& k = classes.program.kernel;
  t.accesses.assign(k.accesses.size(), AccessCounts{});
  t.flops.assign(k.stmts.size(), 0);
  t.faults.assign(k.accesses.size() + k.stmts.size(), MemoryFault{});
  t.extents.assign(k.accesses.size(), BaseExtent{});
  t.shifted.assign(classes.program.shifted_size, 0);
}

void merge_faults_and_extents(Tally& into, const Tally& from) {
  for (std::size_t i = 0; i < from.faults.size() && i < into.faults.size(); ++i) {
    const MemoryFault& f = from.faults[i];
    if (f.met && (!into.faults[i].met || f.block < into.faults[i].block)) into.faults[i] = f;
  }
  for (std::size_t b = 0; b < from.extents.size() && b < into.extents.size(); ++b)
    merge(into.extents[b], from.extents[b]);
}

}  // namespace warpdiv::sim::ir::detail
