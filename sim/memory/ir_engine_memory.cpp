// The interpreter's memory (WarpMachine, sim/engine/ir_engine.hpp): each access's requests, sectors
// and wavefronts, the affine fast path, memory followed by value, loads, faults.
#include "sim/engine/ir_engine.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <type_traits>

#include "sim/support/errors.hpp"
#include "sim/memory/ir_memory.hpp"
#include "sim/model/ir_ops.hpp"

namespace warpdiv::sim::ir::detail {

// ---------------------------------------------------------------------------------------------
// Memory

namespace {

// address_span() of the lanes, in vector loops for lanes 0 .. n-1 (the usual).
AddressSpan lane_address_span(const std::int64_t* addresses, LaneMask lanes) {
  if ((lanes & (lanes + 1)) == 0) return prefix_address_span(addresses, 64 - __builtin_clzll(lanes));
  return address_span(addresses, lanes);
}

}  // namespace

// One request of `a` by `lanes`, at byte offsets from `lowest` to `highest` (`addresses`: each
// lane's, where evaluated lane by lane), with its sectors (global) or wavefronts and conflicts
// (shared): an AccessEvent.
__attribute__((always_inline)) inline void WarpMachine::request(const CompiledAccess& a, LaneMask lanes,
                                                                const std::int64_t* addresses,
                                                                std::int64_t lowest, std::int64_t highest,
                                                                std::uint64_t figure,
                                                                std::uint64_t conflicts) {
  const auto n = static_cast<std::uint64_t>(popcount(lanes));
  emit(AccessEvent{a.id, a.statement, a.kind, a.shared ? AddressSpace::Shared : AddressSpace::Global,
                   static_cast<std::uint32_t>(a.width), lanes, addresses, lowest, highest, 1, n,
                   n * static_cast<std::uint64_t>(a.width), a.shared ? 0 : figure, a.shared ? figure : 0,
                   conflicts});
}

void WarpMachine::memory(StmtId id, LaneMask active) {
  const StatementMemory& m = p_.memory[static_cast<std::size_t>(id)];
  FiguredAccess figured;
  if (m.kept.empty()) {
    count_flops(m, id, active);
    count_accesses(m, active, figured, Placed::Any);
    return;
  }
  // Memory the model follows by value: the statement's addresses are placed from what it holds
  // before the statement's own stores (`s[s[t]] = v`, `s[t] = tab[s[t]]`), all but those that
  // read what one of its atomics returns.
  if (p_.options.memory) count_accesses(m, active, figured, Placed::BeforeStores);
  follow_values(m, id, active);
  if (run_.fault_flag != nullptr && run_.fault_flag->load(std::memory_order_relaxed)) return;
  count_flops(m, id, active);
  if (p_.options.memory) count_accesses(m, active, figured, Placed::AfterStores);
}

// The statement's accesses counted (captured where nothing is followed), in their order: those
// `placed` before or after its stores, or all.
void WarpMachine::count_accesses(const StatementMemory& m, LaneMask active, FiguredAccess& figured,
                                 Placed placed) {
  for (std::size_t position = 0; position < m.accesses.size(); ++position) {
    const CompiledAccess& a = m.accesses[position];
    if (faults_[a.id].met) continue;
    if ((placed == Placed::BeforeStores && a.address_after_atomics) ||
        (placed == Placed::AfterStores && !a.address_after_atomics))
      continue;
    LaneMask lanes = active;
    Val offset{};
    try {
      if (a.guard != kNone) lanes = eval_mask(a.guard, active);
      if (lanes == 0 || null_access(a, lanes)) continue;
      if (a.capture && m.kept.empty()) capture(a, lanes);
      if (!p_.options.memory) continue;
      if (a.same_as != kNone && a.same_as == figured.at && lanes == figured.lanes && a.shifts == 1 &&
          count_as_figured(a, lanes, position, figured))
        continue;
      if (a.affine != kNone && affine_access(a, lanes)) continue;
      offset = eval(a.offset, lanes);
    } catch (const InvalidInput& e) {
      fault(static_cast<std::size_t>(a.id), e.what());
      continue;
    }
    // One lane (a loop the other lanes have left): its address alone, as if every lane had it.
    if (offset.lanes != nullptr && (lanes & (lanes - 1)) == 0)
      offset = Val{nullptr, offset.lanes[lowest_lane(lanes)]};
    if (offset.lanes == nullptr)
      count_one_address(a, lanes, offset.value, position, figured);
    else
      count_lane_addresses(a, lanes, offset.lanes, position, figured);
  }
}

void WarpMachine::follow_values(const StatementMemory& m, StmtId id, LaneMask active) {
  // Stored values are captured before the statement's own stores change the memory they may
  // read (`data[i] = data[i] + 3`), then the followed accesses run; a value an atomic of the
  // statement returns (`got[i] = atomicInc(...)`) is captured after them.
  const auto captures = [&](bool after_atomics) {
    for (const CompiledAccess& a : m.accesses) {
      if (!a.capture || a.after_atomics != after_atomics || faults_[a.id].met) continue;
      try {
        const LaneMask lanes = a.guard != kNone ? eval_mask(a.guard, active) : active;
        if (lanes != 0 && !null_access(a, lanes)) capture(a, lanes);
      } catch (const InvalidInput& e) {
        fault(static_cast<std::size_t>(a.id), e.what());
      }
    }
  };
  captures(false);
  keep(id, active);
  captures(true);
}

void WarpMachine::count_flops(const StatementMemory& m, StmtId id, LaneMask active) {
  const std::size_t flop_item = k_.accesses.size() + static_cast<std::size_t>(id);
  for (const FloatOps& f : m.flops) {
    if (faults_[flop_item].met) break;
    LaneMask lanes = active;
    if (f.guard != kNone) {
      try {
        lanes = eval_mask(f.guard, active);
      } catch (const InvalidInput& e) {
        fault(flop_item, e.what());
        break;
      }
    }
    flop_counts_[id] += std::uint64_t{f.operations} * static_cast<std::uint64_t>(popcount(lanes));
  }
}

bool WarpMachine::count_as_figured(const CompiledAccess& a, LaneMask lanes, std::size_t position,
                                   FiguredAccess& figured) {
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  if (bound != 0 &&
      (figured.lowest < 0 ||
       static_cast<std::uint64_t>(figured.highest) + static_cast<std::uint64_t>(a.width) > bound))
    return false;
  request(a, lanes, nullptr, figured.lowest, figured.highest, figured.figure, figured.conflicts);
  figured.at = static_cast<std::int32_t>(position);
  return true;
}

void WarpMachine::count_one_address(const CompiledAccess& a, LaneMask lanes, std::uint64_t bits,
                                    std::size_t position, FiguredAccess& figured) {
  const auto at = static_cast<std::int64_t>(bits);
  if ((bits & static_cast<std::uint64_t>(a.width - 1)) != 0) {
    misaligned(a, lowest_lane(lanes), at);
    return;
  }
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  if (bound != 0 &&
      (at < 0 || static_cast<std::uint64_t>(at) + static_cast<std::uint64_t>(a.width) > bound)) {
    out_of_bounds(a, lanes, nullptr, at);
    return;
  }
  // One sector (once per lane: an atomic); one wavefront per phase with a lane, none a conflict
  // (an atomic's lanes one turn each: sim/memory/ir_memory.hpp).
  int phases = 0;
  const auto one =
      static_cast<std::uint64_t>(a.shared ? one_address_wavefronts(lanes, a.width, a.load, a.turns, &phases)
                                          : one_address_sectors(lanes, a.global_atomic()));
  const std::uint64_t conflicts = a.shared ? one - static_cast<std::uint64_t>(phases) : 0;
  request(a, lanes, nullptr, at, at, one, conflicts);
  // An aligned address moved by a multiple of its width stays in one sector (one word).
  for (int s = 1; s < a.shifts; ++s) shifted_counts_[a.shifted_at + static_cast<std::uint32_t>(s) - 1] += one;
  figured = FiguredAccess{static_cast<std::int32_t>(position), lanes, at, at, one, conflicts};
}

void WarpMachine::count_lane_addresses(const CompiledAccess& a, LaneMask lanes, const std::uint64_t* offsets,
                                       std::size_t position, FiguredAccess& figured) {
  // Offsets are int64 bits: the lanes' array read as int64 is the addresses.
  const auto* addresses = reinterpret_cast<const std::int64_t*>(offsets);
  const AddressSpan span = lane_address_span(addresses, lanes);
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  if (bound != 0 &&
      (span.lowest < 0 ||
       static_cast<std::uint64_t>(span.highest) + static_cast<std::uint64_t>(a.width) > bound)) {
    out_of_bounds(a, lanes, addresses, 0);
    return;
  }
  if ((span.bits & static_cast<std::uint64_t>(a.width - 1)) != 0) {
    for (LaneMask l = lanes; l != 0; l &= l - 1)
      if ((offsets[lowest_lane(l)] & static_cast<std::uint64_t>(a.width - 1)) != 0) {
        misaligned(a, lowest_lane(l), addresses[lowest_lane(l)]);
        break;
      }
    return;
  }
  figured = FiguredAccess{static_cast<std::int32_t>(position), lanes, span.lowest, span.highest, 0, 0};
  if (a.shared) {
    int phases = 0;
    const int wavefronts = shared_wavefronts(addresses, lanes, a.width, &phases, 0, span, a.load, a.turns);
    figured.figure = static_cast<std::uint64_t>(wavefronts);
    figured.conflicts = static_cast<std::uint64_t>(wavefronts - phases);
  } else {
    figured.figure =
        static_cast<std::uint64_t>(global_sectors(addresses, lanes, a.width, 0, span, a.global_atomic()));
  }
  request(a, lanes, addresses, span.lowest, span.highest, figured.figure, figured.conflicts);
  for (int s = 1; s < a.shifts; ++s) {
    const std::int64_t by = a.shift_step * s;
    shifted_counts_[a.shifted_at + static_cast<std::uint32_t>(s) - 1] += static_cast<std::uint64_t>(
        a.shared ? shared_wavefronts(addresses, lanes, a.width, nullptr, by, span, a.load, a.turns)
                 : global_sectors(addresses, lanes, a.width, by, span, a.global_atomic()));
  }
}

namespace {

// The mathematical value of `bits` of `type` (normalised), or false for a uint64 past INT64_MAX
// (which an AffineValue does not hold).
inline bool value_of(ScalarType type, std::uint64_t bits, std::int64_t& value) {
  value = static_cast<std::int64_t>(bits);
  return type != ScalarType::U64 || value >= 0;
}

// A pattern's figure at byte residue r (0 .. 127), counted the first time it is asked for.
int counted_at(const LanePattern& p, LanePattern::Counts& t, int lanes, int r, int* phases) {
  if (t.count[static_cast<std::size_t>(r)] < 0) {
    std::array<std::int64_t, kMaxLanes> addresses{};
    for (int l = 0; l < lanes; ++l)
      addresses[static_cast<std::size_t>(l)] = r + p.delta[static_cast<std::size_t>(l)];
    const AddressSpan span = address_span(addresses.data(), t.mask);
    int ph = 0;
    t.count[static_cast<std::size_t>(r)] =
        t.shared ? shared_wavefronts(addresses.data(), t.mask, t.width, &ph, 0, span, t.load, t.turns)
                 : global_sectors(addresses.data(), t.mask, t.width, 0, span, t.atomic);
    t.phases[static_cast<std::size_t>(r)] = ph;
  }
  if (phases != nullptr) *phases = t.phases[static_cast<std::size_t>(r)];
  return t.count[static_cast<std::size_t>(r)];
}

inline int residue_of(std::uint64_t address) { return static_cast<int>(address & (kPatternResidues - 1)); }

}  // namespace

bool WarpMachine::pattern_of_lanes(PatternOf& t, const std::uint64_t* lanes, LaneMask defined,
                                   ScalarType type) {
  // Usually the lanes stand as they did last time (`x = blockIdx.x * 32 + threadIdx.x` in the
  // next warp or block): the same pattern at another base, checked without interning.
  if (t.generation == patterns_.generation() && t.pattern != nullptr && t.defined == defined &&
      defined != 0) {
    const int first = lowest_lane(defined);
    std::int64_t base = 0;
    bool same = value_of(type, lanes[first], base) &&
                !__builtin_sub_overflow(base, t.pattern->delta[static_cast<std::size_t>(first)], &base) &&
                kInt64Range.holds(static_cast<Int128>(base) + t.pattern->max) &&
                (type != ScalarType::U64 || base >= 0);  // every lane's value, base + delta, in range
    for (int n = 0; same && n < lanes_; ++n)
      same = !(defined >> n & 1) ||
             static_cast<std::uint64_t>(base + t.pattern->delta[static_cast<std::size_t>(n)]) == lanes[n];
    if (same) {
      t.base = base;
      return true;
    }
  }
  std::int64_t values[kMaxLanes];
  for (int n = 0; n < lanes_; ++n) {
    values[n] = 0;
    if ((defined >> n & 1) && !value_of(type, lanes[n], values[n])) return false;
  }
  t.pattern = patterns_.of(values, defined, t.base);
  if (t.pattern == nullptr) return false;
  t.defined = defined;
  t.generation = patterns_.generation();
  return true;
}

int WarpMachine::small_forms(const AffineOffset& f, const std::array<std::int64_t, kAffineLeaves>& base,
                             const std::array<LanePattern*, kAffineLeaves>& pattern) {
  std::array<std::int64_t, kAffineLeaves> high{};
  for (int i = 0; i < f.leaves; ++i) {
    const auto n = static_cast<std::size_t>(i);
    high[n] = base[n];
    if (pattern[n] != nullptr && __builtin_add_overflow(base[n], pattern[n]->max, &high[n])) return -1;
  }
  for (const SmallCheck& c : f.small_checks) {
    std::int64_t lo = c.constant, hi = c.constant;
    for (int i = 0; i < f.leaves; ++i) {
      const auto n = static_cast<std::size_t>(i);
      const std::int64_t k = c.coefficient[n];
      if (k == 0) continue;
      std::int64_t a = 0, b = 0;
      if (__builtin_mul_overflow(k, base[n], &a) || __builtin_mul_overflow(k, high[n], &b)) return -1;
      if (k < 0) std::swap(a, b);
      if (__builtin_add_overflow(lo, a, &lo) || __builtin_add_overflow(hi, b, &hi)) return -1;
    }
    if (lo < c.low || hi > c.high) return 0;
  }
  std::int64_t value = f.small_form.constant;
  for (int i = 0; i < f.leaves; ++i) {
    const auto n = static_cast<std::size_t>(i);
    std::int64_t a = 0;
    if (__builtin_mul_overflow(f.small_form.coefficient[n], base[n], &a) ||
        __builtin_add_overflow(value, a, &value))
      return -1;
  }
  small_value_ = value;
  return 1;
}

bool WarpMachine::affine_offset(const AffineOffset& f, std::size_t access, LaneMask active,
                                AffineValue& out) {
  const std::uint64_t generation = patterns_.generation();
  AffineLeaves leaves;
  for (int i = 0; i < f.leaves; ++i)
    if (!affine_leaf(f.leaf[static_cast<std::size_t>(i)], generation, active, leaves,
                     static_cast<std::size_t>(i)))
      return false;
  // Every value the C expression computes on the way must be in its type's range in every lane
  // (the form's range over the leaves' ranges holds it): else lane by lane says what happens.
  // In int64 first; an int64 overflow on the way leaves the verdict to int128.
  Int128 value = 0;
  const int verdict = f.small ? small_forms(f, leaves.base, leaves.pattern) : -1;
  if (verdict == 0) return false;
  if (verdict > 0)
    value = small_value_;
  else if (!wide_affine_value(f, leaves, value))
    return false;
  if (!leaves.varying) {
    if (!kInt64Range.holds(value)) return false;
    out = AffineValue{static_cast<std::int64_t>(value), nullptr};
    return true;
  }
  return affine_lanes(f, access, leaves, generation, value, out);
}

inline bool WarpMachine::affine_leaf(const AffineLeaf& leaf, std::uint64_t generation, LaneMask active,
                                     AffineLeaves& leaves, std::size_t i) {
  std::int64_t& b = leaves.base[i];
  LanePattern*& p = leaves.pattern[i];
  switch (leaf.kind) {
    case AffineLeaf::Kind::BlockIndex:
      b = static_cast<std::int64_t>(block_index_[static_cast<std::size_t>(leaf.index)]);
      return true;
    case AffineLeaf::Kind::ThreadIndex: {
      const auto d = static_cast<std::size_t>(leaf.index);
      if (threads_->uniform[d]) {
        b = static_cast<std::int64_t>(threads_->index[d][0]);
        return true;
      }
      PatternOf& t = thread_pattern_[static_cast<std::size_t>(warp_) * 3 + d];
      if (t.generation != generation &&
          !pattern_of_lanes(t, threads_->index[d].data(), threads_->existing, leaf.type))
        return false;
      b = t.base;
      p = t.pattern;
      leaves.varying = true;
      return true;
    }
    case AffineLeaf::Kind::Local: {
      const auto local = static_cast<std::size_t>(leaf.index);
      const LocalState& l = locals_[local];
      if ((active & ~l.defined) != 0) return false;  // lane by lane reports the read
      if (l.uniform) return value_of(leaf.type, l.value, b);
      PatternOf& t = local_pattern_[local];
      if (t.generation != generation || t.version != local_version_[local]) {
        if (!pattern_of_lanes(t, local_lanes(static_cast<LocalId>(local)), l.defined, leaf.type))
          return false;
        t.version = local_version_[local];
      }
      b = t.base;
      p = t.pattern;
      leaves.varying = true;
      return true;
    }
  }
  return false;
}

bool WarpMachine::wide_affine_value(const AffineOffset& f, const AffineLeaves& leaves, Int128& value) const {
  for (const RangeCheck& c : f.checks) {
    Int128 lo = c.form.constant, hi = lo;
    for (int i = 0; i < f.leaves; ++i) {
      const auto at = static_cast<std::size_t>(i);
      const Int128 k = c.form.coefficient[at];
      const Int128 l = leaves.base[at];
      const Int128 h = leaves.pattern[at] != nullptr ? l + leaves.pattern[at]->max : l;
      if (k >= 0) {
        lo += k * l;
        hi += k * h;
      } else {
        lo += k * h;
        hi += k * l;
      }
    }
    if (!c.range.holds(lo) || !c.range.holds(hi)) return false;
  }
  value = f.form.constant;
  for (int i = 0; i < f.leaves; ++i)
    value += f.form.coefficient[static_cast<std::size_t>(i)] * leaves.base[static_cast<std::size_t>(i)];
  return true;
}

bool WarpMachine::affine_lanes(const AffineOffset& f, std::size_t access, const AffineLeaves& leaves,
                               std::uint64_t generation, Int128 value, AffineValue& out) {
  // The lanes: value + sum of coefficient x pattern, made once per set of leaf patterns.
  AffineCache& cache = affine_cache_[access];
  bool same = cache.generation == generation;
  for (int i = 0; same && i < f.leaves; ++i)
    same = cache.leaves[static_cast<std::size_t>(i)] == leaves.pattern[static_cast<std::size_t>(i)];
  if (!same) {
    LanePattern* sum = nullptr;
    std::int64_t shift = 0;
    for (int i = 0; i < f.leaves; ++i) {
      const auto at = static_cast<std::size_t>(i);
      if (leaves.pattern[at] == nullptr) continue;
      std::int64_t s = 0, t = 0;
      LanePattern* q =
          patterns_.scaled(leaves.pattern[at], static_cast<std::int64_t>(f.form.coefficient[at]), s);
      if (q == nullptr) return false;
      if (sum != nullptr) q = patterns_.sum(sum, q, t);
      if (q == nullptr || __builtin_add_overflow(shift, s, &shift) ||
          __builtin_add_overflow(shift, t, &shift))
        return false;
      sum = q;
    }
    cache.generation = generation;
    std::copy(leaves.pattern.begin(), leaves.pattern.end(), cache.leaves.begin());
    cache.pattern = sum;
    cache.shift = shift;
  }
  value += cache.shift;
  if (!kInt64Range.holds(value) || !kInt64Range.holds(value + cache.pattern->max)) return false;
  out = AffineValue{static_cast<std::int64_t>(value), cache.pattern};
  return true;
}

bool WarpMachine::affine_access(const CompiledAccess& a, LaneMask lanes) {
  const auto id = static_cast<std::size_t>(a.id);
  if (affine_cache_[id].off) return false;
  if (patterns_.full()) patterns_.clear();  // no pattern is held between accesses
  AffineValue v{0, nullptr};
  if (!affine_offset(p_.affine_offsets[static_cast<std::size_t>(a.affine)], id, lanes, v)) return false;
  // The participating lanes' lowest and highest address and the OR of their bits (alignment).
  std::int64_t lowest = v.base, highest = v.base;
  auto bits = static_cast<std::uint64_t>(v.base);
  LanePattern::Counts* counts = nullptr;  // null: one address for every lane
  if (v.pattern != nullptr) {
    AffineCache& cached = affine_cache_[id];
    if (cached.counts_generation != patterns_.generation() || cached.counted != v.pattern ||
        cached.mask != lanes) {
      cached.churn += 2;
      if (cached.churn > kChurnLimit) cached.off = true;
      cached.counts_generation = patterns_.generation();
      cached.counted = v.pattern;
      cached.mask = lanes;
      cached.counts =
          &patterns_.counts(v.pattern, lanes, a.width, a.shared, a.load, a.global_atomic(), a.turns);
    } else if (cached.churn > 0) {
      cached.churn -= 1;
    }
    counts = cached.counts;
    lowest += counts->lowest;
    highest += counts->highest;
    bits |= counts->bits;
  }
  const auto width = static_cast<std::uint64_t>(a.width);
  if ((bits & (width - 1)) != 0) return false;  // misaligned: named lane by lane
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  if (bound != 0 && (lowest < 0 || static_cast<std::uint64_t>(highest) + width > bound))
    return false;  // outside the buffer: named lane by lane
  // Sectors or wavefronts with every address moved by `shift` (one address: one sector, once per
  // lane for an atomic; one wavefront per phase with a lane, no conflict; at any shift).
  const auto figure = [&](std::uint64_t shift, int* phases) {
    if (counts == nullptr) {
      int no_conflict = 0;
      const int one = a.shared ? one_address_wavefronts(lanes, a.width, a.load, a.turns, &no_conflict)
                               : one_address_sectors(lanes, a.global_atomic());
      if (phases != nullptr) *phases = a.shared ? no_conflict : one;
      return one;
    }
    return counted_at(*v.pattern, *counts, lanes_, residue_of(static_cast<std::uint64_t>(v.base) + shift),
                      phases);
  };
  if (a.shared) {
    int phases = 0;
    const int wavefronts = figure(0, &phases);
    request(a, lanes, nullptr, lowest, highest, static_cast<std::uint64_t>(wavefronts),
            static_cast<std::uint64_t>(wavefronts - phases));
  } else {
    request(a, lanes, nullptr, lowest, highest, static_cast<std::uint64_t>(figure(0, nullptr)), 0);
  }
  for (int s = 1; s < a.shifts; ++s)
    shifted_counts_[a.shifted_at + static_cast<std::uint32_t>(s) - 1] += static_cast<std::uint64_t>(
        figure(static_cast<std::uint64_t>(a.shift_step) * static_cast<std::uint64_t>(s), nullptr));
  ++affine_requests_;
  return true;
}

// Keeps each lane's store (ReplayOptions::capture_stores): its address, and its value where the
// model holds it. Undefined behaviour in the value leaves the buffers unknown (the figures of the
// access go on as before).
void WarpMachine::capture(const CompiledAccess& a, LaneMask lanes) {
  if (!store_fault_->empty()) return;
  try {
    const Val offset = eval(a.offset, lanes);
    const Val value = a.value != kNone ? eval(a.value, lanes) : Val{nullptr, 0};
    const Val compare = a.compare != kNone ? eval(a.compare, lanes) : Val{nullptr, 0};
    ++store_sequence_;
    const std::uint64_t block =
        block_index_[0] +
        p_.launch.grid.x * (block_index_[1] + std::uint64_t{p_.launch.grid.y} * block_index_[2]);
    const std::uint64_t first =
        block * p_.threads_per_block + static_cast<std::uint64_t>(warp_) * p_.warp_size;
    for (int l = 0; l < lanes_; ++l) {
      if (!(lanes >> l & 1)) continue;
      StoreWrite w;
      w.parameter = a.parameter;
      w.access = a.id;
      w.offset = static_cast<std::int64_t>(offset.lanes != nullptr ? offset.lanes[l] : offset.value);
      w.bits = value.lanes != nullptr ? value.lanes[l] : value.value;
      w.thread = first + static_cast<std::uint64_t>(l);
      w.sequence = store_sequence_;
      w.width = static_cast<std::uint8_t>(a.width);
      w.known = a.value != kNone;
      w.atomic = a.atomic;
      w.type = a.type;
      w.compare = compare.lanes != nullptr ? compare.lanes[l] : compare.value;
      stores_->push_back(w);
    }
  } catch (const InvalidInput& e) {
    *store_fault_ = e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// Shared memory followed by value

void WarpMachine::keep(StmtId id, LaneMask active) {
  for (const KeptAccess& a : p_.memory[static_cast<std::size_t>(id)].kept) {
    const LaneMask lanes = a.guard != kNone ? eval_mask(a.guard, active) : active;
    if (lanes == 0) continue;
    const Val offset = eval(a.offset, lanes);
    if (a.global) {
      keep_global(a, lanes, offset);
      continue;
    }
    if (a.local) {
      keep_local(a, lanes, offset);
      continue;
    }
    const auto at = [&](int lane) {
      return static_cast<std::int64_t>(offset.lanes != nullptr ? offset.lanes[lane] : offset.value);
    };
    if (a.kind == AccessKind::Load) {
      // A lane reading the bytes the lane before it read finds and leaves the same state.
      std::int64_t last = -1;
      for (LaneMask l = lanes; l != 0; l &= l - 1) {
        const std::int64_t x = at(lowest_lane(l));
        if (x != last) keep_read(a, x, lowest_lane(l));
        last = x;
      }
      continue;
    }
    if (a.value == kNone) {  // an array followed by address: a value the model does not hold
      keep_unheld(a, lanes, offset);
      continue;
    }
    // Undefined behaviour in the value, or a load of it outside its buffer, is an error here: the
    // block's shared memory would not be known past it.
    const Val value = eval(a.value, lanes);
    if (a.kind == AccessKind::Atomic) {
      const Val compare = a.compare != kNone ? eval(a.compare, lanes) : Val{nullptr, 0};
      for (LaneMask l = lanes; l != 0; l &= l - 1) {
        const int lane = lowest_lane(l);
        keep_atomic(a, at(lane), lane, value.lanes != nullptr ? value.lanes[lane] : value.value,
                    compare.lanes != nullptr ? compare.lanes[lane] : compare.value);
      }
      continue;
    }
    ++shared_->request;
    for (LaneMask l = lanes; l != 0; l &= l - 1) {
      const int lane = lowest_lane(l);
      keep_write(a, at(lane), lane, value.lanes != nullptr ? value.lanes[lane] : value.value, true);
    }
  }
}

// A store or atomic into a shared array followed by address only (PlanOptions::shared_addresses),
// whose value the model does not hold: its bytes are written (an atomic's as an atomic), their
// values unheld.
void WarpMachine::keep_unheld(const KeptAccess& a, LaneMask lanes, const Val& offset) {
  if (a.kind == AccessKind::Store) ++shared_->request;
  for (LaneMask l = lanes; l != 0; l &= l - 1) {
    const int lane = lowest_lane(l);
    const auto at = static_cast<std::int64_t>(offset.lanes != nullptr ? offset.lanes[lane] : offset.value);
    if (a.kind == AccessKind::Atomic)
      keep_atomic(a, at, lane, 0, 0, false);
    else
      keep_write(a, at, lane, 0, false);
  }
}

// Where a kept access may go: inside its array and aligned; the error (exit 2) otherwise.
void WarpMachine::check_place(const KeptAccess& a, std::int64_t at, int lane, const char* verb) const {
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  if (at < 0 || static_cast<std::uint64_t>(at) + static_cast<std::uint64_t>(a.width) > bound)
    throw out_of_bounds_error(access, at, lane);
  if (at % a.width != 0)
    throw InvalidInput(Diag::misaligned_access, source_location(k_, access.range),
                       "misaligned access: '" + access.text + "' " + verb + " " + std::to_string(a.width) +
                           " bytes at byte " + std::to_string(at) + " of '" +
                           k_.bases[static_cast<std::size_t>(a.base)].name + "', not a multiple of " +
                           std::to_string(a.width) + " (the GPU stops the kernel there) in " +
                           block_and_thread(lane) + inlined_at(access));
}

std::uint64_t WarpMachine::thread_of(int lane) const {
  const std::uint64_t block =
      block_index_[0] +
      p_.launch.grid.x * (block_index_[1] + std::uint64_t{p_.launch.grid.y} * block_index_[2]);
  return block * p_.threads_per_block +
         static_cast<std::uint64_t>(warp_) * static_cast<std::uint64_t>(p_.warp_size) +
         static_cast<std::uint64_t>(lane);
}

namespace {

void touched_by(std::uint64_t& who, std::uint64_t thread) {
  if (who == 0)
    who = thread;
  else if (who != thread)
    who = kManyThreads;
}

}  // namespace

// A followed buffer's load, store or atomic, lane by lane in ascending order: the documented
// order in which the replay runs the launch's threads (blocks, warps, lanes ascending).
void WarpMachine::keep_global(const KeptAccess& a, LaneMask lanes, const Val& offset) {
  const Val value = a.kind != AccessKind::Load ? eval(a.value, lanes) : Val{nullptr, 0};
  const Val compare = a.compare != kNone ? eval(a.compare, lanes) : Val{nullptr, 0};
  const auto start = static_cast<std::size_t>(p_.global_at[static_cast<std::size_t>(a.base)]);
  GlobalState& g = *global_;
  for (LaneMask l = lanes; l != 0; l &= l - 1) {
    const int lane = lowest_lane(l);
    const auto at = static_cast<std::int64_t>(offset.lanes != nullptr ? offset.lanes[lane] : offset.value);
    check_place(a, at, lane,
                a.kind == AccessKind::Load    ? "reads"
                : a.kind == AccessKind::Store ? "writes"
                                              : "updates");
    const std::size_t x = start + static_cast<std::size_t>(at);
    const std::uint64_t thread = thread_of(lane) + 1;
    std::uint64_t old = 0;
    if (a.kind != AccessKind::Store) {
      std::memcpy(&old, g.bytes.data() + x, static_cast<std::size_t>(a.width));
      for (int i = 0; i < a.width; ++i) {
        GlobalByte& t = g.state[x + static_cast<std::size_t>(i)];
        touched_by(t.reader, thread);
        if (t.read_by == kNone)
          t.read_by = a.id;
        else if (t.read_by != a.id)
          t.read_by = kManyAccesses;
      }
    }
    if (a.kind == AccessKind::Load) continue;
    const std::uint64_t v = value.lanes != nullptr ? value.lanes[lane] : value.value;
    const std::uint64_t now =
        a.kind == AccessKind::Store
            ? v
            : ops::atomic(a.atomic, a.type, a.width, old, v,
                          compare.lanes != nullptr ? compare.lanes[lane] : compare.value,
                          AddressSpace::Global);
    if (std::memcmp(g.bytes.data() + x, &now, static_cast<std::size_t>(a.width)) != 0) ++g.changes;
    std::memcpy(g.bytes.data() + x, &now, static_cast<std::size_t>(a.width));
    for (int i = 0; i < a.width; ++i) touched_by(g.state[x + static_cast<std::size_t>(i)].writer, thread);
    if (a.kind == AccessKind::Atomic)
      atomic_old_[static_cast<std::size_t>(a.id) * kMaxLanes + static_cast<std::size_t>(lane)] =
          normalise(a.type, old);
  }
}

// A local array's load or store, lane by lane: each lane's own copy. A read of a byte the thread
// has not written is an error (its value is indeterminate).
void WarpMachine::keep_local(const KeptAccess& a, LaneMask lanes, const Val& offset) {
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  const Val value = a.kind == AccessKind::Store ? eval(a.value, lanes) : Val{nullptr, 0};
  for (LaneMask l = lanes; l != 0; l &= l - 1) {
    const int lane = lowest_lane(l);
    const auto at = static_cast<std::int64_t>(offset.lanes != nullptr ? offset.lanes[lane] : offset.value);
    check_place(a, at, lane, a.kind == AccessKind::Load ? "reads" : "writes");
    const std::size_t x = static_cast<std::size_t>(lane) * p_.local_size +
                          static_cast<std::size_t>(p_.local_at[static_cast<std::size_t>(a.base)] + at);
    if (a.kind == AccessKind::Load) {
      for (int i = 0; i < a.width; ++i)
        if (!local_written_[x + static_cast<std::size_t>(i)])
          throw InvalidInput(Diag::uninitialized_read, source_location(k_, access.range),
                             "read of local memory never written: '" + access.text + "' reads " +
                                 shared_element(a.base, at, a.width) +
                                 ", which this thread has not written, in " + block_and_thread(lane) +
                                 inlined_at(access));
      continue;
    }
    const std::uint64_t v = value.lanes != nullptr ? value.lanes[lane] : value.value;
    if (std::memcmp(local_bytes_.data() + x, &v, static_cast<std::size_t>(a.width)) != 0) ++local_changes_;
    std::memcpy(local_bytes_.data() + x, &v, static_cast<std::size_t>(a.width));
    std::fill(local_written_.begin() + static_cast<std::ptrdiff_t>(x),
              local_written_.begin() + static_cast<std::ptrdiff_t>(x) + a.width, std::uint8_t{1});
  }
}

std::uint64_t WarpMachine::local_load(const MemoryAccess& a, std::int64_t at, int lane,
                                      ScalarType type) const {
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  if (at < 0 || static_cast<std::uint64_t>(at) + a.width > bound ||
      at % static_cast<std::int64_t>(a.width) != 0)
    throw out_of_bounds_error(a, at, lane);
  const std::size_t x = static_cast<std::size_t>(lane) * p_.local_size +
                        static_cast<std::size_t>(p_.local_at[static_cast<std::size_t>(a.base)] + at);
  for (std::uint32_t i = 0; i < a.width; ++i)
    if (!local_written_[x + i])
      throw InvalidInput(Diag::uninitialized_read, source_location(k_, a.range),
                         "read of local memory never written: '" + a.text + "' reads " +
                             shared_element(a.base, at, static_cast<int>(a.width)) +
                             ", which this thread has not written, in " + block_and_thread(lane) +
                             inlined_at(a));
  std::uint64_t value = 0;
  std::memcpy(&value, local_bytes_.data() + x, a.width);
  return normalise(type, value);
}

std::uint64_t WarpMachine::global_load(const MemoryAccess& a, std::int64_t at, int lane,
                                       ScalarType type) const {
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  if (at < 0 || static_cast<std::uint64_t>(at) + a.width > bound ||
      at % static_cast<std::int64_t>(a.width) != 0)
    throw out_of_bounds_error(a, at, lane);
  std::uint64_t value = 0;
  std::memcpy(&value, global_->bytes.data() + p_.global_at[static_cast<std::size_t>(a.base)] + at, a.width);
  return normalise(type, value);
}

void WarpMachine::finish(Tally& tally) const {
  if (global_ == nullptr) return;
  std::vector<bool> order(k_.accesses.size(), false);
  for (std::int32_t a : tally.order_reads) order[static_cast<std::size_t>(a)] = true;
  for (std::size_t b = 0; b < k_.bases.size(); ++b) {
    if (p_.global_at[b] < 0) continue;
    const auto start = static_cast<std::size_t>(p_.global_at[b]);
    bool communicating = false, every_read = false;
    for (std::size_t x = start; x < start + p_.base_bytes[b]; ++x) {
      const GlobalByte& t = global_->state[x];
      // Written by one thread and read by another, or written by several: whoever reads it may,
      // on the GPU, see another thread's value (or not yet see it), whichever came first here.
      if (t.writer == 0 || (t.writer != kManyThreads && (t.reader == 0 || t.reader == t.writer))) continue;
      communicating = true;
      if (t.read_by == kManyAccesses)
        every_read = true;
      else if (t.read_by != kNone)
        order[static_cast<std::size_t>(t.read_by)] = true;
    }
    if (communicating && std::find(tally.communicating.begin(), tally.communicating.end(),
                                   static_cast<std::int32_t>(b)) == tally.communicating.end())
      tally.communicating.push_back(static_cast<std::int32_t>(b));
    if (every_read)  // several accesses read the byte: each of the buffer's may have been one
      for (std::size_t a = 0; a < k_.accesses.size(); ++a)
        if (k_.accesses[a].base == static_cast<std::int32_t>(b) && k_.accesses[a].kind != AccessKind::Store)
          order[a] = true;
  }
  tally.order_reads.clear();
  for (std::size_t a = 0; a < order.size(); ++a)
    if (order[a]) tally.order_reads.push_back(static_cast<std::int32_t>(a));
}

std::string WarpMachine::shared_element(std::int32_t base, std::int64_t at, int width) const {
  const std::string& name = k_.bases[static_cast<std::size_t>(base)].name;
  return "bytes " + std::to_string(at) + " to " + std::to_string(at + width - 1) + " of '" + name + "'";
}

void WarpMachine::keep_read(const KeptAccess& a, std::int64_t at, int lane) {
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  check_place(a, at, lane, "reads");
  SharedState& sh = *shared_;
  // Followed by address, a read of a byte never written is not named (its value may not matter;
  // the replay that follows the values names it).
  const bool by_address = p_.options.shared_addresses;
  const auto start = static_cast<std::size_t>(p_.shared_at[static_cast<std::size_t>(a.base)] + at);
  for (int i = 0; i < a.width; ++i) {
    const SharedByte& b = sh.state[start + static_cast<std::size_t>(i)];
    if (b.write_phase < sh.block_phase && !by_address) unwritten(access, at, i, lane);
    if (b.write_phase == sh.phase && b.writer != warp_)
      race(a, at, lane, false, b.write_access, b.writer, true);
    if (b.order_dependent) order_dependent_value(a.id);
  }
  for (int i = 0; i < a.width; ++i) {
    SharedByte& b = sh.state[start + static_cast<std::size_t>(i)];
    if (b.read_phase != sh.phase) {
      b.read_phase = sh.phase;
      b.reader = warp_;
      b.read_access = a.id;
      b.other_reader = -1;
    } else if (b.reader != warp_ && b.other_reader < 0) {
      b.other_reader = warp_;
      b.other_read_access = a.id;
    }
  }
}

void WarpMachine::keep_write(const KeptAccess& a, std::int64_t at, int lane, std::uint64_t bits, bool known) {
  check_place(a, at, lane, "writes");
  SharedState& sh = *shared_;
  const auto start = static_cast<std::size_t>(p_.shared_at[static_cast<std::size_t>(a.base)] + at);
  for (int i = 0; i < a.width; ++i) {
    const std::size_t x = start + static_cast<std::size_t>(i);
    SharedByte& b = sh.state[x];
    const auto byte = static_cast<std::uint8_t>(bits >> (8 * i));
    // Another warp's write in this phase: a race unless both wrote the same known value (the
    // result is then the same in any order); where the model does not hold one of the values
    // (an array followed by address), it may be the same: not named.
    if (b.write_phase == sh.phase && b.writer != warp_ &&
        (b.atomic || (known && !b.unheld && (b.unknown || sh.bytes[x] != byte))))
      race(a, at, lane, true, b.write_access, b.writer, true);
    if (sh.pending && x >= sh.pending_start && x < sh.pending_end && warp_ != sh.pending_warp)
      race(a, at, lane, true, sh.pending_access, sh.pending_warp, false);
    if (b.read_phase == sh.phase && b.reader != warp_)
      race(a, at, lane, true, b.read_access, b.reader, false);
    if (b.read_phase == sh.phase && b.other_reader >= 0 && b.other_reader != warp_)
      race(a, at, lane, true, b.other_read_access, b.other_reader, false);
    // Lanes of one request writing different values: which one stays is undefined.
    const bool same_request = b.request == sh.request && b.write_phase == sh.phase;
    b.unknown = !known || (same_request && (b.unknown || sh.bytes[x] != byte));
    b.unheld = !known;
    if (sh.bytes[x] != byte) ++sh.changes;
    b.order_dependent = false;
    sh.bytes[x] = byte;
    b.write_phase = sh.phase;
    b.writer = warp_;
    b.write_access = a.id;
    b.request = sh.request;
    b.atomic = false;
  }
}

// An atomic on shared memory, one lane: atomics of several warps on one element in one phase are
// no race (they are atomic), a plain read or write of it by another warp in the phase is; the
// value it returns depends on the order when another thread's atomic hit the element in the
// phase (both accesses are then listed: Tally::order_atomics), and so does the element itself
// when their operations do not commute (exch, cas, inc, dec, float add, different operations):
// SharedByte::order_dependent, until a plain store overwrites it.
void WarpMachine::keep_atomic(const KeptAccess& a, std::int64_t at, int lane, std::uint64_t operand,
                              std::uint64_t compare, bool held) {
  check_place(a, at, lane, "updates");
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  SharedState& sh = *shared_;
  const auto start = static_cast<std::size_t>(p_.shared_at[static_cast<std::size_t>(a.base)] + at);
  const std::uint64_t thread = thread_of(lane) + 1;
  bool was_order_dependent = false, now_order_dependent = false;
  for (int i = 0; i < a.width; ++i) {
    SharedByte& b = sh.state[start + static_cast<std::size_t>(i)];
    if (b.write_phase < sh.block_phase && !p_.options.shared_addresses) unwritten(access, at, i, lane);
    if (b.write_phase == sh.phase && b.writer != warp_ && !b.atomic)
      race(a, at, lane, true, b.write_access, b.writer, true);
    if (b.read_phase == sh.phase && b.reader != warp_)
      race(a, at, lane, true, b.read_access, b.reader, false);
    if (b.read_phase == sh.phase && b.other_reader >= 0 && b.other_reader != warp_)
      race(a, at, lane, true, b.other_read_access, b.other_reader, false);
    was_order_dependent = was_order_dependent || b.order_dependent;
    if (b.atomic_phase != sh.phase) {
      b.atomic_phase = sh.phase;
      b.atomic_thread = thread;
      b.atomic_access = a.id;
    } else if (b.atomic_thread != thread) {
      if (b.atomic_thread != kManyThreads) order_dependent_value(b.atomic_access);
      order_dependent_value(a.id);
      b.atomic_thread = kManyThreads;
      now_order_dependent =
          now_order_dependent ||
          !atomics_commute(k_.accesses[static_cast<std::size_t>(b.atomic_access)].atomic, a.atomic, a.type);
    }
  }
  if (was_order_dependent) order_dependent_value(a.id);
  std::uint64_t old = 0;
  std::memcpy(&old, sh.bytes.data() + start, static_cast<std::size_t>(a.width));
  const std::uint64_t now =
      held ? ops::atomic(a.atomic, a.type, a.width, old, operand, compare, AddressSpace::Shared) : old;
  if (now != old) ++sh.changes;
  std::memcpy(sh.bytes.data() + start, &now, static_cast<std::size_t>(a.width));
  // An exchange by one thread leaves its operand, whatever the element held.
  const bool order_dependent = now_order_dependent || (was_order_dependent && a.atomic != AtomicOp::Exch);
  for (int i = 0; i < a.width; ++i) {
    SharedByte& b = sh.state[start + static_cast<std::size_t>(i)];
    b.write_phase = sh.phase;
    b.writer = warp_;
    b.write_access = a.id;
    b.atomic = true;
    b.unknown = false;
    b.unheld = !held;
    b.order_dependent = order_dependent;
  }
  atomic_old_[static_cast<std::size_t>(a.id) * kMaxLanes + static_cast<std::size_t>(lane)] =
      normalise(a.type, old);
}

void WarpMachine::order_dependent_value(std::int32_t access) {
  if (std::find(order_atomics_->begin(), order_atomics_->end(), access) == order_atomics_->end())
    order_atomics_->push_back(access);
}

void WarpMachine::unwritten(const MemoryAccess& a, std::int64_t at, int byte, int lane) {
  SharedState& sh = *shared_;
  if (!sh.pending) {
    sh.pending = true;
    sh.pending_start = static_cast<std::size_t>(p_.shared_at[static_cast<std::size_t>(a.base)] + at);
    sh.pending_end = sh.pending_start + a.width;
    sh.pending_warp = warp_;
    sh.pending_access = static_cast<std::int32_t>(&a - k_.accesses.data());
    sh.pending_message = location(k_, a.range) + ": read of shared memory never written: '" + a.text +
                         "' reads " + shared_element(a.base, at, static_cast<int>(a.width)) +
                         ", and no thread of the block writes byte " + std::to_string(at + byte) +
                         " before it, in " + block_and_thread(lane) + inlined_at(a);
  }
  throw UnwrittenRead{};
}

void WarpMachine::finish_phase() {
  SharedState& sh = *shared_;
  if (!sh.pending) return;
  sh.pending = false;
  throw located(Diag::uninitialized_read, k_, sh.pending_message);
}

void WarpMachine::race(const KeptAccess& a, std::int64_t at, int lane, bool writes, std::int32_t other_access,
                       std::int32_t other_warp, bool other_writes) const {
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  const MemoryAccess& other = k_.accesses[static_cast<std::size_t>(other_access)];
  const std::string who = "warp " + std::to_string(other_warp);
  throw InvalidInput(Diag::shared_race, source_location(k_, access.range),
                     "shared-memory race: '" + access.text + "' " +
                         (writes ? (a.kind == AccessKind::Atomic ? "updates " : "writes ") : "reads ") +
                         shared_element(a.base, at, a.width) + " in warp " + std::to_string(warp_) +
                         ", which " + who + (other_writes ? " wrote" : " read") + " ('" + other.text +
                         "' at " + location(k_, other.range) + inlined_at(other) +
                         ") with no __syncthreads() between them, in " + block_and_thread(lane) +
                         inlined_at(access));
}

std::uint64_t WarpMachine::shared_load(const MemoryAccess& a, std::int64_t at, int lane,
                                       ScalarType type) const {
  const SharedState& sh = *shared_;
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  const auto width = static_cast<int>(a.width);
  if (at < 0 || static_cast<std::uint64_t>(at) + a.width > bound || at % width != 0)
    throw out_of_bounds_error(a, at, lane);
  const auto start = static_cast<std::size_t>(p_.shared_at[static_cast<std::size_t>(a.base)] + at);
  std::uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    const SharedByte& b = sh.state[start + static_cast<std::size_t>(i)];
    if (b.write_phase < sh.block_phase) const_cast<WarpMachine*>(this)->unwritten(a, at, i, lane);
    if (b.unknown) {
      const MemoryAccess& w = k_.accesses[static_cast<std::size_t>(b.write_access)];
      throw InvalidInput(
          Diag::unknown_value, source_location(k_, a.range),
          "the value '" + a.text + "' reads (" + shared_element(a.base, at, width) + ") is not known: '" +
              w.text + "' at " + location(k_, w.range) +
              " stored different values there from lanes of one warp, or an undefined one (which "
              "value stays on the GPU is undefined), in " +
              block_and_thread(lane));
    }
    value |= std::uint64_t{sh.bytes[start + static_cast<std::size_t>(i)]} << (8 * i);
  }
  return normalise(type, value);
}

void WarpMachine::misaligned(const CompiledAccess& a, int lane, std::int64_t offset) {
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  fault(static_cast<std::size_t>(a.id), location(k_, access.range) + ": misaligned access: '" + access.text +
                                            "' moves " + std::to_string(a.width) + " bytes at byte " +
                                            std::to_string(offset) + " of '" + k_.bases[access.base].name +
                                            "', not a multiple of " + std::to_string(a.width) +
                                            " (the GPU stops the kernel there) in " + block_and_thread(lane));
}

bool WarpMachine::null_fault(const CompiledAccess& a, LaneMask lanes) {
  fault(static_cast<std::size_t>(a.id),
        null_pointer_error(k_.accesses[static_cast<std::size_t>(a.id)], lowest_lane(lanes)).what());
  return true;
}

InvalidInput WarpMachine::null_pointer_error(const MemoryAccess& access, int lane) const {
  return InvalidInput(Diag::null_pointer, source_location(k_, access.range),
                      "null pointer: '" + access.text + "' " +
                          (access.kind == AccessKind::Load    ? "reads "
                           : access.kind == AccessKind::Store ? "writes "
                                                              : "updates ") +
                          std::to_string(access.width) +
                          " bytes through a null pointer (the GPU stops the kernel there) in " +
                          block_and_thread(lane) + inlined_at(access));
}

void WarpMachine::out_of_bounds(const CompiledAccess& a, LaneMask lanes, const std::int64_t* addresses,
                                std::int64_t uniform) {
  const MemoryAccess& access = k_.accesses[static_cast<std::size_t>(a.id)];
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  int lane = lowest_lane(lanes);
  std::int64_t at = uniform;
  for (LaneMask l = lanes; addresses != nullptr && l != 0; l &= l - 1) {
    const std::int64_t x = addresses[lowest_lane(l)];
    if (x < 0 || static_cast<std::uint64_t>(x) + static_cast<std::uint64_t>(a.width) > bound) {
      lane = lowest_lane(l);
      at = x;
      break;
    }
  }
  fault(static_cast<std::size_t>(a.id), out_of_bounds_text(access, at, lane), true);
}

std::string WarpMachine::out_of_bounds_text(const MemoryAccess& access, std::int64_t at, int lane) const {
  return out_of_bounds_error(access, at, lane).what();
}

InvalidInput WarpMachine::out_of_bounds_error(const MemoryAccess& access, std::int64_t at, int lane) const {
  const MemoryBase& base = k_.bases[static_cast<std::size_t>(access.base)];
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(access.base)];
  // A parameter's element type, or for a declared array the access's own width.
  const std::uint64_t element = base.parameter >= 0
                                    ? k_.parameters[static_cast<std::size_t>(base.parameter)].element_bytes
                                    : access.width;
  std::string where = "bytes " + std::to_string(at) + " to " + std::to_string(at + access.width - 1) +
                      " of '" + base.name + "', which holds " + std::to_string(bound) + " bytes";
  if (bound == 0) {
    // Nothing may be read or written: say so, and for an extern __shared__ array where its size
    // comes from.
    const bool dynamic = base.space == AddressSpace::Shared && base.parameter < 0 && base.bytes == 0;
    where = "bytes " + std::to_string(at) + " to " + std::to_string(at + access.width - 1) + " of '" +
            base.name + "', which holds no bytes" +
            (dynamic ? " (an extern __shared__ array: the launch's dynamic shared memory, the third <<< >>> "
                       "argument, is 0 bytes; give it with --dynamic-smem BYTES)"
                     : "");
  } else if (element != 0 && bound % element == 0) {
    // Floor division: an index before the buffer is negative.
    const auto size = static_cast<std::int64_t>(element);
    const std::int64_t index = at >= 0 ? at / size : -((-at + size - 1) / size);
    where = "element " + std::to_string(index) + " of '" + base.name + "', which holds " +
            std::to_string(bound / element) + " elements of " + std::to_string(element) + " bytes (0 to " +
            std::to_string(bound / element - 1) + ")";
  }
  return InvalidInput(Diag::out_of_bounds, source_location(k_, access.range),
                      "out of bounds: '" + access.text + "' " +
                          (access.kind == AccessKind::Load    ? "reads "
                           : access.kind == AccessKind::Store ? "writes "
                                                              : "updates ") +
                          where + ", in " + block_and_thread(lane) + inlined_at(access));
}

// A load whose value the model computes (Expr::access; RunContext::base_data): each active lane's
// element, read from the launch's data (or zeros). Outside the buffer, or misaligned, the value
// does not exist: an error (InvalidInput) naming the first thread.
WarpMachine::Val WarpMachine::load(ExprId id, const CompiledExpr& e, LaneMask active) {
  const MemoryAccess& a = k_.accesses[static_cast<std::size_t>(e.index)];
  if (a.kind == AccessKind::Atomic) {  // what the atomic returned (keep_global ran it)
    const std::uint64_t* old = atomic_old_.data() + static_cast<std::size_t>(e.index) * kMaxLanes;
    std::uint64_t* out = scratch(id);
    for (LaneMask l = active; l != 0; l &= l - 1) out[lowest_lane(l)] = old[lowest_lane(l)];
    return {out, 0};
  }
  if (k_.bases[static_cast<std::size_t>(a.base)].null) throw null_pointer_error(a, lowest_lane(active));
  const bool followed = p_.followed[static_cast<std::size_t>(a.base)] != 0;
  // From the launch's read-only data, at the same offset as last time (its locals not written
  // since, for a superset of these lanes): the same elements, not read (nor the offset computed)
  // again.
  const std::uint8_t kept = !followed && recorder_ == nullptr ? p_.kept[a.offset] : LaunchPlan::kNotKept;
  if (kept != LaunchPlan::kNotKept) {
    const KeptValue& k = kept_load_[id];
    if (still_kept(a.offset, k.stamp, k.active, active))
      return k.uniform ? Val{nullptr, k.value} : Val{scratch(id), 0};
  }
  const Val offset = eval(a.offset, active);
  // Memory the replay keeps (a buffer the kernel writes, shared memory): each lane's element there.
  // (One address for every lane reads one value, but for a local array: each lane's own copy.)
  const auto each_lane = [&](auto read, bool own_copies) -> Val {
    if (offset.lanes == nullptr && !own_copies)
      return {nullptr, read(static_cast<std::int64_t>(offset.value), lowest_lane(active))};
    std::uint64_t* out = scratch(id);
    for (LaneMask l = active; l != 0; l &= l - 1) {
      const int lane = lowest_lane(l);
      out[lane] =
          read(static_cast<std::int64_t>(offset.lanes != nullptr ? offset.lanes[lane] : offset.value), lane);
    }
    return {out, 0};
  };
  if (followed) {
    const auto base = static_cast<std::size_t>(a.base);
    if (p_.global_values && p_.global_at[base] >= 0)
      return each_lane([&](std::int64_t at, int lane) { return global_load(a, at, lane, e.type); }, false);
    if (p_.local_size > 0 && p_.local_at[base] >= 0)
      return each_lane([&](std::int64_t at, int lane) { return local_load(a, at, lane, e.type); }, true);
    return each_lane([&](std::int64_t at, int lane) { return shared_load(a, at, lane, e.type); }, false);
  }
  const Val loaded = read_data(id, e, a, offset, active);
  if (kept != LaunchPlan::kNotKept)
    kept_load_[id] = KeptValue{++stamp_, active, loaded.value, loaded.lanes == nullptr};
  return loaded;
}

// A load's elements from the launch's data (or zeros), each active lane's (load()).
WarpMachine::Val WarpMachine::read_data(ExprId id, const CompiledExpr& e, const MemoryAccess& a,
                                        const Val& offset, LaneMask active) {
  const std::string* data = run_.base_data[static_cast<std::size_t>(a.base)];
  const std::uint64_t bound = p_.base_bytes[static_cast<std::size_t>(a.base)];
  const auto width = static_cast<std::uint64_t>(a.width);
  const auto read = [&](std::uint64_t bits, int lane) {
    const auto at = static_cast<std::int64_t>(bits);
    if (at < 0 || static_cast<std::uint64_t>(at) + width > bound) throw out_of_bounds_error(a, at, lane);
    if ((bits & (width - 1)) != 0)
      throw InvalidInput(Diag::misaligned_access, source_location(k_, a.range),
                         "misaligned access: '" + a.text + "' reads " + std::to_string(width) +
                             " bytes at byte " + std::to_string(at) + " of '" +
                             k_.bases[static_cast<std::size_t>(a.base)].name + "', not a multiple of " +
                             std::to_string(width) + " (the GPU stops the kernel there) in " +
                             block_and_thread(lane) + inlined_at(a));
    std::uint64_t value = 0;  // little-endian, as on the GPU (and this host)
    if (data == nullptr) return std::uint64_t{0};
    const char* element = data->data() + at;
    // The usual widths read inline (an int or float, a long or double), the rest byte by byte.
    if (width == 4) {
      std::uint32_t word = 0;
      std::memcpy(&word, element, 4);
      return e.type == ScalarType::I32
                 ? static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(word)})
                 : normalise(e.type, word);
    }
    if (width == 8) {
      std::memcpy(&value, element, 8);
      return normalise(e.type, value);
    }
    std::memcpy(&value, element, width);
    return normalise(e.type, value);
  };
  if (offset.lanes == nullptr) return {nullptr, read(offset.value, lowest_lane(active))};
  std::uint64_t* out = scratch(id);
  for (LaneMask l = active; l != 0; l &= l - 1) {
    const int lane = lowest_lane(l);
    out[lane] = read(offset.lanes[lane], lane);
  }
  return {out, 0};
}

}  // namespace warpdiv::sim::ir::detail
