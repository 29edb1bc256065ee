#include "sim/ir_memory.hpp"

#include <algorithm>
#include <array>
#include <climits>

namespace warpdiv::sim::ir {

bool operator==(const AccessCounts& a, const AccessCounts& b) {
  return a.requests == b.requests && a.lanes == b.lanes && a.bytes == b.bytes &&
         a.sectors == b.sectors && a.wavefronts == b.wavefronts && a.conflicts == b.conflicts;
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

void merge(BaseExtent& a, const BaseExtent& b) {
  if (!b.touched) return;
  if (!a.touched) {
    a = b;
    return;
  }
  a.lowest = std::min(a.lowest, b.lowest);
  a.end = std::max(a.end, b.end);
}

int sectors_touched(const std::int64_t* addresses, std::uint64_t mask, int width, std::int64_t shift) {
  // Lanes run in order through a few runs of addresses, each run in few sectors: a lane's sector
  // is mostly its neighbour's, else one of the few seen so far (linear search: cheaper than
  // sorting 32 values for the patterns kernels make; at worst 64 x 64 compares).
  std::array<std::int64_t, 2 * 64> seen;
  int distinct = 0;
  std::int64_t last = 0;
  const auto add = [&](std::int64_t sector) {
    if (distinct != 0 && sector == last) return;
    last = sector;
    for (int i = distinct - 1; i >= 0; --i)
      if (seen[static_cast<std::size_t>(i)] == sector) return;
    seen[static_cast<std::size_t>(distinct++)] = sector;
  };
  for (std::uint64_t m = mask; m != 0; m &= m - 1) {
    const std::int64_t a = addresses[__builtin_ctzll(m)] + shift;
    add(a >> 5);
    if (((a + width - 1) >> 5) != (a >> 5)) add((a + width - 1) >> 5);  // misaligned: 2 sectors
  }
  return distinct;
}

namespace {

// Wavefronts of one phase: the most distinct 4-byte words asked of one bank. Distinct words
// are collected as sectors_touched collects sectors (neighbouring lanes mostly share or follow
// each other), then counted per bank.
int phase_wavefronts(const std::int64_t* addresses, std::uint64_t mask, int width, std::int64_t shift) {
  const int words = width <= 4 ? 1 : width / 4;
  std::int64_t lowest = INT64_MAX, highest = INT64_MIN;
  for (std::uint64_t m = mask; m != 0; m &= m - 1) {
    const std::int64_t w = (addresses[__builtin_ctzll(m)] + shift) >> 2;
    lowest = std::min(lowest, w);
    highest = std::max(highest, w + words - 1);
  }
  if (highest - lowest < 32) return 1;  // distinct words all in distinct banks
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
  std::array<int, 32> per_bank{};
  int most = 0;
  for (int i = 0; i < distinct; ++i)
    most = std::max(most, ++per_bank[static_cast<std::size_t>(seen[static_cast<std::size_t>(i)] & 31)]);
  return most;
}

}  // namespace

int shared_wavefronts(const std::int64_t* addresses, std::uint64_t mask, int width, int* phases,
                      std::int64_t shift) {
  if (phases != nullptr) *phases = mask == 0 ? 0 : 1;
  if (mask == 0) return 0;
  if (width <= 4) return phase_wavefronts(addresses, mask, width, shift);
  const int lanes_per_phase = 128 / width;  // 16 for 8 bytes, 8 for 16 bytes
  const std::uint64_t phase_mask = (std::uint64_t{1} << lanes_per_phase) - 1;
  int total = 0, used = 0;
  for (int first = 0; first < 64; first += lanes_per_phase) {
    const std::uint64_t phase = mask & (phase_mask << first);
    if (phase == 0) continue;
    total += phase_wavefronts(addresses, phase, width, shift);
    ++used;
  }
  if (phases != nullptr) *phases = used;
  return total;
}

std::vector<std::string> uncounted_accesses(const Kernel& kernel) {
  const std::vector<ExprId> origins = opaque_origins(kernel);
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
