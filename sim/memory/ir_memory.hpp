// Memory figures of the kernel model's accesses (sim/model/ir.hpp, MemoryAccess): what one warp's
// request costs, by NVIDIA's rules, and what a run adds up per access. The replay engine
// (sim/engine/ir_replay.hpp) evaluates each access's byte offset in the lanes that make it and counts:
//   requests    warp executions of the access with at least one participating lane (a warp
//               whose lanes are all off makes none, as Nsight Compute's l1tex__t_requests count)
//   lanes       participating lanes, summed; bytes = lanes x width (what the source asks for)
//   sectors     global: distinct 32-byte sectors the participating lanes touch, per request
//               (the buffer of a pointer parameter starts 256-byte aligned: cudaMalloc's
//               guarantee), summed: what L1 asks of L2, x 32 bytes. An atomic's lanes on one
//               address take turns: each sector counts once per lane on its busiest address
//               (`atomicAdd(&sum, 1.0f)` of a whole warp: 32 sectors; lanes on distinct
//               addresses: the distinct sectors), as ncu's l1tex__t_sectors_pipe_lsu_mem_global_op_
//               {atom,red} count them on an H200 (data/validation/atomics/README.md)
//   wavefronts  shared: per request, the largest number of distinct 4-byte words any of the 32
//               banks (4 bytes wide) is asked for, lanes reading one word sharing it; 8-byte
//               accesses go as two half-warps and 16-byte ones as four quarter-warps, each phase
//               with a participating lane counted on its own. A load whose lanes pair up (every
//               participating lane n asks for the address of lane n ^ 1, or of n ^ 2, where that
//               lane participates) returns two lanes' registers at once: an 8-byte one then goes
//               as one phase (the warp), a 16-byte one as two half-warps (29 loads and stores
//               measured on an H100 and an H200; stores never pair:
//               data/validation/memory/README.md).
//               A shared atomic on 32-bit integers (ATOMS): its lanes on one word take turns, so
//               the most lanes asking one bank, each counted, are its wavefronts (a
//               compare-and-swap's turn is 2), all but one turn conflicts; an increment by 1
//               whose result is unused (ATOMS.POPC.INC) as a store (233 kernels on an H200:
//               data/validation/atomics/nvidia-h200-shared).
//   conflicts   shared: wavefronts beyond one per phase with a participating lane (as Nsight
//               Compute's l1tex__data_bank_conflicts_pipe_lsu_mem_shared count them, measured
//               on an H100: an 8-byte request of a whole warp takes 2 wavefronts, 0 conflicts);
//               for accesses of up to 4 bytes, wavefronts - requests.
// Accesses to local and constant memory, and those the front-end could not place, are listed
// by uncounted_accesses() with the reason and not counted.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/support/count.hpp"
#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir {

struct AccessCounts {
  Count requests = 0;
  Count lanes = 0;
  Count bytes = 0;
  Count sectors = 0;     // global accesses
  Count wavefronts = 0;  // shared accesses
  Count conflicts = 0;   // shared accesses
};
bool operator==(const AccessCounts& a, const AccessCounts& b);
AccessCounts& operator+=(AccessCounts& a, const AccessCounts& b);  // overflow-checked

/// The bytes of a base the counted accesses of a run touched: [lowest, end) from the base's start
/// (lowest may be negative: an access before the buffer). `touched` false: none.
struct BaseExtent {
  bool touched = false;
  std::int64_t lowest = 0;
  std::int64_t end = 0;
};
/// Widens `a` to hold `b` (inline: every request of the replay widens its base's extent).
inline void merge(BaseExtent& a, const BaseExtent& b) {
  if (!b.touched) return;
  if (!a.touched) {
    a = b;
    return;
  }
  a.lowest = std::min(a.lowest, b.lowest);
  a.end = std::max(a.end, b.end);
}

/// Distinct 32-byte sectors that the lanes in `mask` touch, each reading `width` bytes at the
/// byte address addresses[lane] + shift (a multiple of width; negative addresses count downwards).
int sectors_touched(const std::int64_t* addresses, std::uint64_t mask, int width, std::int64_t shift = 0);

/// Sectors of one request of a global atomic (the rule at the top of this file) at the byte
/// addresses addresses[lane] + shift, each a multiple of the atomic's width (4 or 8 bytes: a lane's
/// bytes lie in one sector): each sector its lanes touch, counted once per lane on its busiest
/// address there.
int atomic_sectors(const std::int64_t* addresses, std::uint64_t mask, std::int64_t shift = 0);

/// Over the lanes in `mask` (not empty): the lowest and highest of addresses[lane], the OR of
/// their bits (alignment), and whether they are non-decreasing in lane order.
struct AddressSpan {
  std::int64_t lowest = 0;
  std::int64_t highest = 0;
  std::uint64_t bits = 0;
  bool sorted = false;
};
AddressSpan address_span(const std::int64_t* addresses, std::uint64_t mask);
/// address_span() of lanes 0 .. count-1 (count >= 1), in vector instructions where the CPU has them.
AddressSpan prefix_address_span(const std::int64_t* addresses, int count);

/// sectors_touched() with the lanes' span already known (address_span(addresses, mask)).
int sectors_touched(const std::int64_t* addresses, std::uint64_t mask, int width, std::int64_t shift,
                    const AddressSpan& span);

/// Sectors of one global request: atomic_sectors() for an atomic, else sectors_touched().
int global_sectors(const std::int64_t* addresses, std::uint64_t mask, int width, std::int64_t shift,
                   const AddressSpan& span, bool atomic);
/// global_sectors() of one address for every lane in `mask` (not empty): one sector, once per
/// lane for an atomic.
int one_address_sectors(std::uint64_t mask, bool atomic);

/// Shared-memory wavefronts of one request at addresses[lane] + shift (the rule at the top of this
/// file; `load`: a load, whose lanes may pair up; `turns`: an atomic's, CompiledAccess::turns);
/// `phases`, when given, receives the wavefronts that are no conflict (the phases with a
/// participating lane; an atomic's turns on a word beyond the first are conflicts).
int shared_wavefronts(const std::int64_t* addresses, std::uint64_t mask, int width, int* phases = nullptr,
                      std::int64_t shift = 0, bool load = false, int turns = 0);
/// shared_wavefronts() with the lanes' span already known (address_span(addresses, mask)).
int shared_wavefronts(const std::int64_t* addresses, std::uint64_t mask, int width, int* phases,
                      std::int64_t shift, const AddressSpan& span, bool load = false, int turns = 0);
/// shared_wavefronts() of one address for every lane in `mask` (not empty): one wavefront per
/// phase with a participating lane (an atomic's lanes one turn each); `phases` as there.
int one_address_wavefronts(std::uint64_t mask, int width, bool load, int turns = 0, int* phases = nullptr);

/// For each access of the kernel (indexed as Kernel::accesses), "" when the engines count it,
/// else why not: "it could not be placed: <reason>", "its address depends on <opaque value>",
/// "local memory is not counted" ...
/// `loaded` [access]: loads whose values the run computes (computed_loads): an address made from
/// them is counted.
std::vector<std::string> uncounted_accesses(const Kernel& kernel, const std::vector<bool>& loaded = {});

}  // namespace warpdiv::sim::ir
