// The class engine's memory figures (sim/ir_classes.hpp): an access's sectors (wavefronts) in the
// runs the engine stands for without replaying them. Within a class every such run takes the
// same path with the same masks, and the access's byte offset differs from the replayed run's by
// the same amount in every lane: its coefficients (AccessShift) times how far the run is along
// each symbol. Sectors only depend on that amount modulo 32 (wavefronts modulo 4), so the machine
// counts the replayed run at every residue the class reaches (CompiledAccess::shifts), and a
// class adds the figure at each residue times the number of its runs that fall on it.
#include <numeric>
#include <vector>

#include "sim/errors.hpp"
#include "sim/ir_class_recorder.hpp"

namespace warpdiv::sim::ir::detail {

std::int64_t residue(Signed c, std::int64_t modulus) {
  return static_cast<std::int64_t>(((c % modulus) + modulus) % modulus);
}

std::vector<Unsigned> residue_histogram(const AccessShift& a, std::int64_t c, std::uint64_t from, std::uint64_t to) {
  std::vector<Unsigned> hist(static_cast<std::size_t>(a.count), 0);
  if (from > to) return hist;
  const Unsigned n = Unsigned{to} - from + 1;
  if (c == 0 || a.count == 1) {
    hist[0] = n;
    return hist;
  }
  // j x c mod modulus repeats with period modulus / gcd(modulus, c).
  const auto period = static_cast<std::uint64_t>(a.modulus / std::gcd(a.modulus, c));
  for (std::uint64_t r = 0; r < period; ++r) {
    // The j in [from, to] with j = r (mod period).
    const std::uint64_t first = from + (r + period - from % period) % period;
    if (first > to || first < from) continue;
    const Unsigned times = (Unsigned{to} - first) / period + 1;
    const auto residue = static_cast<std::size_t>((static_cast<Unsigned>(r) * static_cast<Unsigned>(c) %
                                                   static_cast<Unsigned>(a.modulus)) /
                                                  static_cast<Unsigned>(a.step));
    hist[residue] += times;
  }
  return hist;
}

std::vector<Unsigned> combine_histograms(const std::vector<Unsigned>& h, const std::vector<Unsigned>& g) {
  const std::size_t k = h.size();
  std::vector<Unsigned> out(k, 0);
  for (std::size_t u = 0; u < k; ++u) {
    if (h[u] == 0) continue;
    for (std::size_t v = 0; v < k; ++v) {
      if (g[v] == 0) continue;
      Unsigned p = 0;
      if (__builtin_mul_overflow(h[u], g[v], &p) || __builtin_add_overflow(out[(u + v) % k], p, &out[(u + v) % k]))
        throw InvalidInput("the counts of a class pass 2^128");
    }
  }
  return out;
}

namespace {

// Residue s of the figure: sum over u of hist[u] x f[(s + u) mod count], f[0] the run's own.
Unsigned at_residue(const std::vector<Unsigned>& hist, std::uint64_t f0, const std::uint64_t* shifted,
                    std::size_t s) {
  const std::size_t k = hist.size();
  Unsigned total = 0;
  for (std::size_t u = 0; u < k; ++u) {
    if (hist[u] == 0) continue;
    const std::size_t at = (s + u) % k;
    const Unsigned f = at == 0 ? f0 : shifted[at - 1];
    Unsigned p = 0;
    if (__builtin_mul_overflow(hist[u], f, &p) || __builtin_add_overflow(total, p, &total))
      throw InvalidInput("the counts of a class pass 2^128");
  }
  return total;
}

Unsigned runs_of(const std::vector<Unsigned>& hist) {
  Unsigned n = 0;
  for (const Unsigned h : hist)
    if (__builtin_add_overflow(n, h, &n)) throw InvalidInput("the counts of a class pass 2^128");
  return n;
}

Unsigned times(Unsigned a, Unsigned b) {
  Unsigned p = 0;
  if (__builtin_mul_overflow(a, b, &p)) throw InvalidInput("the counts of a class pass 2^128");
  return p;
}

void add64(std::uint64_t& target, Unsigned v) {
  if (v > ~std::uint64_t{0} || __builtin_add_overflow(target, static_cast<std::uint64_t>(v), &target))
    counts_overflow();
}

}  // namespace

AccessCounts residue_totals(const CompiledAccess& a, const AccessCounts64& d, const std::uint64_t* d_shifted,
                            const std::vector<Unsigned>& hist) {
  const Unsigned n = runs_of(hist);
  AccessCounts out;
  out.requests = times(d.requests, n);
  out.lanes = times(d.lanes, n);
  out.bytes = times(d.bytes, n);
  const Unsigned figure = at_residue(hist, a.shared ? d.wavefronts : d.sectors, d_shifted, 0);
  if (a.shared) {
    // Phases (wavefronts without conflicts) depend on the masks only: the same at every residue.
    out.wavefronts = figure;
    out.conflicts = figure - times(d.wavefronts - d.conflicts, n);
  } else {
    out.sectors = figure;
  }
  return out;
}

void add_residues(const CompiledAccess& a, AccessCounts64& target, std::uint64_t* target_shifted,
                  const AccessCounts64& d, const std::uint64_t* d_shifted, const std::vector<Unsigned>& hist) {
  const AccessCounts t = residue_totals(a, d, d_shifted, hist);
  add64(target.requests, t.requests);
  add64(target.lanes, t.lanes);
  add64(target.bytes, t.bytes);
  add64(target.sectors, t.sectors);
  add64(target.wavefronts, t.wavefronts);
  add64(target.conflicts, t.conflicts);
  const std::uint64_t f0 = a.shared ? d.wavefronts : d.sectors;
  for (int s = 1; s < a.shifts; ++s)
    add64(target_shifted[s - 1], at_residue(hist, f0, d_shifted, static_cast<std::size_t>(s)));
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
  t.accesses.assign(k.accesses.size(), AccessCounts64{});
  t.flops.assign(k.stmts.size(), 0);
  t.faults.assign(k.accesses.size() + k.stmts.size(), MemoryFault{});
  t.extents.assign(k.bases.size(), BaseExtent{});
  t.shifted.assign(classes.program.shifted_size, 0);
}

void merge_faults_and_extents(Tally& into, const Tally& from) {
  for (std::size_t i = 0; i < from.faults.size() && i < into.faults.size(); ++i) {
    const MemoryFault& f = from.faults[i];
    if (f.met && (!into.faults[i].met || f.block < into.faults[i].block)) into.faults[i] = f;
  }
  for (std::size_t b = 0; b < from.extents.size() && b < into.extents.size(); ++b) merge(into.extents[b], from.extents[b]);
}

}  // namespace warpdiv::sim::ir::detail
