#include "sim/memory/ir_memory.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <vector>

namespace warpdiv::sim::ir {

bool operator==(const AccessCounts& a, const AccessCounts& b) {
  return a.requests == b.requests && a.lanes == b.lanes && a.bytes == b.bytes && a.sectors == b.sectors &&
         a.wavefronts == b.wavefronts && a.conflicts == b.conflicts;
}

AccessCounts& operator+=(AccessCounts& a, const AccessCounts& b) {
  a.requests = checked_add(a.requests, b.requests);
  a.lanes = checked_add(a.lanes, b.lanes);
  a.bytes = checked_add(a.bytes, b.bytes);
  a.sectors = checked_add(a.sectors, b.sectors);
  a.wavefronts = checked_add(a.wavefronts, b.wavefronts);
  a.conflicts = checked_add(a.conflicts, b.conflicts);
  return a;
}

namespace {

// Bitmaps over a window of sectors (words) from the lowest one: most requests span few, so a
// lane's sector is one bit set, and the distinct ones are counted with popcounts (no search).
constexpr std::int64_t kSectorWindow = 256;                    // 8 KiB of addresses
constexpr std::int64_t kWordWindow = 2048;                     // 8 KiB of addresses
constexpr std::int64_t kGatherWindow = std::int64_t{1} << 20;  // sectors: 32 MiB of addresses

// The general count (any span: a gather): a lane's sector is often its neighbour's, else looked
// up in a small open-addressing table of the sectors seen (at most 128: 64 lanes, 2 each).
template <bool Whole>
int sectors_by_search(const std::int64_t* addresses, std::uint64_t mask, int width, std::int64_t shift) {
  constexpr std::size_t kSlots = 256;
  std::array<std::int64_t, kSlots> seen;
  std::array<std::uint8_t, kSlots> used{};
  int distinct = 0;
  std::int64_t last = 0;
  const auto add = [&](std::int64_t sector) {
    if (distinct != 0 && sector == last) return;
    last = sector;
    auto slot = static_cast<std::size_t>((static_cast<std::uint64_t>(sector) * 0x9E3779B97F4A7C15ULL) >> 56);
    while (used[slot] != 0) {
      if (seen[slot] == sector) return;
      slot = (slot + 1) & (kSlots - 1);
    }
    used[slot] = 1;
    seen[slot] = sector;
    ++distinct;
  };
  for (std::uint64_t m = mask; m != 0; m &= m - 1) {
    const std::int64_t a = addresses[__builtin_ctzll(m)] + shift;
    add(a >> 5);
    // Whole: no lane's bytes cross a sector boundary; else a misaligned lane touches 2 sectors.
    if (!Whole && ((a + width - 1) >> 5) != (a >> 5)) add((a + width - 1) >> 5);
  }
  return distinct;
}

// Loops over lanes 0 .. count-1 written for the vectoriser; compiled twice, for the portable
// target and for AVX2 (64-bit compares), and picked by the CPU at run time.
__attribute__((always_inline)) inline AddressSpan prefix_span_body(const std::int64_t* a, int count) {
  AddressSpan s;
  std::uint64_t bits = 0;
  std::int64_t lowest = a[0], highest = a[0];
  for (int l = 0; l < count; ++l) {
    bits |= static_cast<std::uint64_t>(a[l]);
    lowest = a[l] < lowest ? a[l] : lowest;
    highest = a[l] > highest ? a[l] : highest;
  }
  std::uint64_t down = 0;
  for (int l = 1; l < count; ++l) down |= static_cast<std::uint64_t>(a[l] < a[l - 1]);
  s.lowest = lowest;
  s.highest = highest;
  s.bits = bits;
  s.sorted = down == 0;
  return s;
}

// Lanes l-1 and l in different sectors, for l in 1 .. count-1 (x >> 5 == y >> 5 when x ^ y has
// no bit above the fifth).
__attribute__((always_inline)) inline int sector_changes_body(const std::int64_t* a, int count,
                                                              std::int64_t shift) {
  int changes = 0;
  for (int l = 1; l < count; ++l)
    changes +=
        ((static_cast<std::uint64_t>(a[l] + shift) ^ static_cast<std::uint64_t>(a[l - 1] + shift)) >> 5) != 0;
  return changes;
}

__attribute__((target("avx2"))) AddressSpan prefix_span_avx2(const std::int64_t* a, int count) {
  return prefix_span_body(a, count);
}
AddressSpan prefix_span_plain(const std::int64_t* a, int count) { return prefix_span_body(a, count); }
__attribute__((target("avx2"))) int sector_changes_avx2(const std::int64_t* a, int count,
                                                        std::int64_t shift) {
  return sector_changes_body(a, count, shift);
}
int sector_changes_plain(const std::int64_t* a, int count, std::int64_t shift) {
  return sector_changes_body(a, count, shift);
}

bool has_avx2() {
  static const bool avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return avx2;
}

}  // namespace

AddressSpan prefix_address_span(const std::int64_t* addresses, int count) {
  return has_avx2() ? prefix_span_avx2(addresses, count) : prefix_span_plain(addresses, count);
}

AddressSpan address_span(const std::int64_t* addresses, std::uint64_t mask) {
  AddressSpan s;
  s.lowest = INT64_MAX;
  s.highest = INT64_MIN;
  bool sorted = true;
  std::int64_t previous = INT64_MIN;
  for (std::uint64_t m = mask; m != 0; m &= m - 1) {
    const std::int64_t a = addresses[__builtin_ctzll(m)];
    s.lowest = std::min(s.lowest, a);
    s.highest = std::max(s.highest, a);
    s.bits |= static_cast<std::uint64_t>(a);
    sorted &= a >= previous;
    previous = a;
  }
  s.sorted = sorted;
  return s;
}

int sectors_touched(const std::int64_t* addresses, std::uint64_t mask, int width, std::int64_t shift) {
  if (mask == 0) return 0;
  return sectors_touched(addresses, mask, width, shift, address_span(addresses, mask));
}

int sectors_touched(const std::int64_t* addresses, std::uint64_t mask, int width, std::int64_t shift,
                    const AddressSpan& span) {
  if (mask == 0) return 0;
  const std::int64_t first = (span.lowest + shift) >> 5;
  // No lane's bytes cross a sector boundary when every address (moved by `shift`) is a multiple
  // of a width that divides 32: a lane touches the one sector of its address.
  const bool whole =
      width <= 32 && (32 % width) == 0 &&
      ((span.bits | static_cast<std::uint64_t>(shift)) & static_cast<std::uint64_t>(width - 1)) == 0;
  if (whole && span.sorted) {        // non-decreasing sectors: count the changes
    if ((mask & (mask + 1)) == 0) {  // lanes 0 .. n-1
      const int count = 64 - __builtin_clzll(mask);
      return 1 + (has_avx2() ? sector_changes_avx2(addresses, count, shift)
                             : sector_changes_plain(addresses, count, shift));
    }
    int distinct = 0;
    std::int64_t previous = first - 1;
    for (std::uint64_t m = mask; m != 0; m &= m - 1) {
      const std::int64_t sector = (addresses[__builtin_ctzll(m)] + shift) >> 5;
      distinct += sector != previous;
      previous = sector;
    }
    return distinct;
  }
  const std::uint64_t spread =
      static_cast<std::uint64_t>(span.highest) - static_cast<std::uint64_t>(span.lowest);
  if (whole && spread < 64 * 32 - 32) {  // the sectors within 64 of the first: one word of bits
    std::uint64_t bits = 0;
    for (std::uint64_t m = mask; m != 0; m &= m - 1)
      bits |= std::uint64_t{1} << (((addresses[__builtin_ctzll(m)] + shift) >> 5) - first);
    return popcount(bits);
  }
  // The window holds every lane's first and last sector (of `width` bytes from its address).
  // (Unsigned: the difference of two int64 addresses may pass INT64_MAX.)
  if (spread < static_cast<std::uint64_t>(kSectorWindow * 32 - 64) && width <= 32) {
    std::array<std::uint64_t, kSectorWindow / 64> bits{};
    for (std::uint64_t m = mask; m != 0; m &= m - 1) {
      const std::int64_t a = addresses[__builtin_ctzll(m)] + shift;
      const auto i = static_cast<std::uint64_t>((a >> 5) - first);
      const auto j = static_cast<std::uint64_t>(((a + width - 1) >> 5) - first);
      bits[i >> 6] |= std::uint64_t{1} << (i & 63);
      bits[j >> 6] |= std::uint64_t{1} << (j & 63);
    }
    int distinct = 0;
    for (std::uint64_t b : bits) distinct += popcount(b);
    return distinct;
  }
  // A gather over up to 2^20 sectors (32 MiB): one bit per sector in a bitmap of this thread's,
  // all clear between calls (each bit set here is cleared again before returning).
  if (whole && spread < static_cast<std::uint64_t>(kGatherWindow * 32 - 32)) {
    thread_local std::vector<std::uint64_t> bitmap(static_cast<std::size_t>(kGatherWindow / 64), 0);
    int distinct = 0;
    for (std::uint64_t m = mask; m != 0; m &= m - 1) {
      const auto i = static_cast<std::uint64_t>(((addresses[__builtin_ctzll(m)] + shift) >> 5) - first);
      std::uint64_t& word = bitmap[static_cast<std::size_t>(i >> 6)];
      const std::uint64_t bit = std::uint64_t{1} << (i & 63);
      distinct += (word & bit) == 0;
      word |= bit;
    }
    for (std::uint64_t m = mask; m != 0; m &= m - 1)
      bitmap[static_cast<std::size_t>(
          static_cast<std::uint64_t>(((addresses[__builtin_ctzll(m)] + shift) >> 5) - first) >> 6)] = 0;
    return distinct;
  }
  return whole ? sectors_by_search<true>(addresses, mask, width, shift)
               : sectors_by_search<false>(addresses, mask, width, shift);
}

int atomic_sectors(const std::int64_t* addresses, std::uint64_t mask, std::int64_t shift) {
  if (mask == 0) return 0;
  // The lanes' addresses in order: a run of one address is its lanes taking turns.
  std::array<std::int64_t, 64> at;
  int n = 0;
  for (std::uint64_t m = mask; m != 0; m &= m - 1)
    at[static_cast<std::size_t>(n++)] = addresses[__builtin_ctzll(m)] + shift;
  std::sort(at.begin(), at.begin() + n);
  int total = 0;
  int most = 0;  // the longest run in `sector` so far
  std::int64_t sector = at[0] >> 5;
  for (int i = 0, j = 0; i < n; i = j) {
    while (j < n && at[static_cast<std::size_t>(j)] == at[static_cast<std::size_t>(i)]) ++j;
    if ((at[static_cast<std::size_t>(i)] >> 5) != sector) {
      total += most;
      most = 0;
      sector = at[static_cast<std::size_t>(i)] >> 5;
    }
    most = std::max(most, j - i);
  }
  return total + most;
}

int global_sectors(const std::int64_t* addresses, std::uint64_t mask, int width, std::int64_t shift,
                   const AddressSpan& span, bool atomic) {
  if (!atomic) return sectors_touched(addresses, mask, width, shift, span);
  return span.lowest == span.highest ? one_address_sectors(mask, true)
                                     : atomic_sectors(addresses, mask, shift);
}

int one_address_sectors(std::uint64_t mask, bool atomic) { return atomic ? popcount(mask) : 1; }

namespace {

// Wavefronts of one phase: the most distinct 4-byte words asked of one bank. `lowest` and
// `highest`: the phase's lowest and highest address (without shift).
int phase_wavefronts(const std::int64_t* addresses, std::uint64_t mask, int width, std::int64_t shift,
                     const AddressSpan& span) {
  const int words = width <= 4 ? 1 : width / 4;
  const std::int64_t lowest = (span.lowest + shift) >> 2;
  const std::int64_t highest = ((span.highest + shift) >> 2) + words - 1;
  if (highest - lowest < 32) return 1;  // distinct words all in distinct banks
  std::array<int, 32> per_bank{};
  int most = 0;
  // Addresses non-decreasing and multiples of the width (moved by `shift`, a multiple too): the
  // lanes' words come in non-decreasing order, a repeated word right after itself.
  if (span.sorted &&
      ((span.bits | static_cast<std::uint64_t>(shift)) & static_cast<std::uint64_t>(width - 1)) == 0) {
    // (Two lanes' words are then the same or apart: a lane whose first word is its
    // predecessor's asks for the same words.)
    std::int64_t previous = lowest - 1;
    for (std::uint64_t m = mask; m != 0; m &= m - 1) {
      const std::int64_t first = (addresses[__builtin_ctzll(m)] + shift) >> 2;
      if (first == previous) continue;
      previous = first;
      for (std::int64_t w = first; w < first + words; ++w)
        most = std::max(most, ++per_bank[static_cast<std::size_t>(w & 31)]);
    }
    return most;
  }
  if (highest - lowest < kWordWindow) {
    // Distinct words as bits of a window from the lowest, then counted per bank.
    std::array<std::uint64_t, kWordWindow / 64> bits;
    const auto used = static_cast<std::size_t>((highest - lowest) / 64 + 1);
    std::fill(bits.begin(), bits.begin() + static_cast<std::ptrdiff_t>(used), 0);
    for (std::uint64_t m = mask; m != 0; m &= m - 1) {
      const std::int64_t first = ((addresses[__builtin_ctzll(m)] + shift) >> 2) - lowest;
      for (std::int64_t w = first; w < first + words; ++w)
        bits[static_cast<std::size_t>(w >> 6)] |= std::uint64_t{1} << (w & 63);
    }
    for (std::size_t i = 0; i < used; ++i)
      for (std::uint64_t b = bits[i]; b != 0; b &= b - 1) {
        const auto bank =
            static_cast<std::size_t>((lowest + static_cast<std::int64_t>(i * 64) + __builtin_ctzll(b)) & 31);
        most = std::max(most, ++per_bank[bank]);
      }
    return most;
  }
  // Any span: distinct words collected as sectors_by_search collects sectors.
  std::array<std::int64_t, 64 * 4> seen;
  int distinct = 0;
  std::int64_t last = 0;
  for (std::uint64_t m = mask; m != 0; m &= m - 1) {
    const std::int64_t first = (addresses[__builtin_ctzll(m)] + shift) >> 2;
    for (std::int64_t w = first; w < first + words; ++w) {
      if (distinct != 0 && w == last) continue;
      last = w;
      bool found = false;
      for (int i = distinct - 1; i >= 0 && !found; --i) found = seen[static_cast<std::size_t>(i)] == w;
      if (!found) seen[static_cast<std::size_t>(distinct++)] = w;
    }
  }
  for (int i = 0; i < distinct; ++i)
    most = std::max(most, ++per_bank[static_cast<std::size_t>(seen[static_cast<std::size_t>(i)] & 31)]);
  return most;
}

}  // namespace

int shared_wavefronts(const std::int64_t* addresses, std::uint64_t mask, int width, int* phases,
                      std::int64_t shift, bool load, int turns) {
  if (mask == 0) {
    if (phases != nullptr) *phases = 0;
    return 0;
  }
  return shared_wavefronts(addresses, mask, width, phases, shift, address_span(addresses, mask), load, turns);
}

namespace {

// Whether every lane n of `mask` asks for the address of lane n ^ d wherever that lane is in it.
bool lanes_pair_up(const std::int64_t* addresses, std::uint64_t mask, int d) {
  for (std::uint64_t m = mask; m != 0; m &= m - 1) {
    const int n = __builtin_ctzll(m), partner = n ^ d;
    if ((mask >> partner & 1) && addresses[partner] != addresses[n]) return false;
  }
  return true;
}

// Lanes per phase of a shared access of `width` > 4 bytes: 16 (8 bytes) or 8 (16 bytes), twice
// that for a load whose lanes pair up.
int lanes_per_phase(int width, bool paired) { return (128 / width) * (paired ? 2 : 1); }

}  // namespace

namespace {

// An atomic's wavefronts: the most lanes asking one bank, each lane `turns` (its turn on its word);
// no conflict in the first turn.
int atomic_turns(const std::int64_t* addresses, std::uint64_t mask, std::int64_t shift, int turns,
                 int* phases) {
  std::array<int, 32> per_bank{};
  int most = 0;
  for (std::uint64_t m = mask; m != 0; m &= m - 1)
    most = std::max(
        most, ++per_bank[static_cast<std::size_t>(((addresses[__builtin_ctzll(m)] + shift) >> 2) & 31)]);
  if (phases != nullptr) *phases = turns * most - (most - 1);
  return turns * most;
}

}  // namespace

int one_address_wavefronts(std::uint64_t mask, int width, bool load, int turns, int* phases) {
  if (turns > 0 && width == 4) {
    const int lanes = popcount(mask);
    if (phases != nullptr) *phases = turns * lanes - (lanes - 1);
    return turns * lanes;
  }
  if (width <= 4) {
    if (phases != nullptr) *phases = 1;
    return 1;
  }
  const int per_phase = lanes_per_phase(width, load);  // one address: every lane pairs up
  const std::uint64_t phase_mask = (std::uint64_t{1} << per_phase) - 1;
  int used = 0;
  for (int first = 0; first < 64; first += per_phase) used += (mask & (phase_mask << first)) != 0 ? 1 : 0;
  if (phases != nullptr) *phases = used;
  return used;
}

int shared_wavefronts(const std::int64_t* addresses, std::uint64_t mask, int width, int* phases,
                      std::int64_t shift, const AddressSpan& span, bool load, int turns) {
  if (phases != nullptr) *phases = mask == 0 ? 0 : 1;
  if (mask == 0) return 0;
  if (turns > 0 && width == 4) return atomic_turns(addresses, mask, shift, turns, phases);
  if (width <= 4) return phase_wavefronts(addresses, mask, width, shift, span);
  const bool paired = load && (lanes_pair_up(addresses, mask, 1) || lanes_pair_up(addresses, mask, 2));
  const int per_phase = lanes_per_phase(width, paired);
  const std::uint64_t phase_mask = (std::uint64_t{1} << per_phase) - 1;
  int total = 0, used = 0;
  for (int first = 0; first < 64; first += per_phase) {
    const std::uint64_t phase = mask & (phase_mask << first);
    if (phase == 0) continue;
    total += phase_wavefronts(addresses, phase, width, shift, address_span(addresses, phase));
    ++used;
  }
  if (phases != nullptr) *phases = used;
  return total;
}

std::vector<std::string> uncounted_accesses(const Kernel& kernel, const std::vector<bool>& loaded) {
  const std::vector<ExprId> origins = opaque_origins(kernel, loaded);
  std::vector<std::string> why(kernel.accesses.size());
  for (std::size_t i = 0; i < kernel.accesses.size(); ++i) {
    const MemoryAccess& a = kernel.accesses[i];
    if (a.base == kNone) {
      why[i] = "it could not be placed: " + a.reason;
    } else if (a.space == AddressSpace::Local) {
      why[i] = "local memory is not counted";
    } else if (a.space == AddressSpace::Constant) {
      why[i] = "constant memory is not counted";
    } else if (origins[a.offset] != kNone) {
      why[i] = "its address depends on " + kernel.exprs[origins[a.offset]].description;
    } else if (a.guard != kNone && origins[a.guard] != kNone) {
      why[i] = "the lanes that make it depend on " + kernel.exprs[origins[a.guard]].description;
    } else if (a.space == AddressSpace::Global && kernel.bases[a.base].parameter == kNone &&
               kernel.bases[a.base].alignment < 32) {
      why[i] = "where the variable '" + kernel.bases[a.base].name +
               "' lies within its 32-byte sector is not known (it is aligned to " +
               std::to_string(kernel.bases[a.base].alignment) + " bytes)";
    }
  }
  return why;
}

}  // namespace warpdiv::sim::ir
