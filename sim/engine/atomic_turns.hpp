// How the lanes of a 4-byte shared atomic on one word are served, as nvcc 13 compiles it for sm_90
// and an H200 runs it (data/validation/atomics/nvidia-h200-shared and -folded): ATOMS, whose lanes
// on one word take turns (1; ATOMS.CAS 2 wavefronts a turn; a float's exchange is ATOMS.EXCH too),
// but an add of a value nvcc folds to 1 whose result is unused (ATOMS.POPC.INC: the lanes on one
// word add their count at once, 0). Others (a float's add, which nvcc makes a compare-and-swap
// loop, 64-bit atomics, loads and stores): 0.
#pragma once

#include <vector>

#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir::detail {

/// CompiledAccess::turns of each access of `k` (indexed as Kernel::accesses). An add of 1, a
/// subtract of -1 (CUDA's atomicSub adds the negated value) or an atomicInc bounded by 0xffffffff
/// (an add of 1 that wraps) counts where nvcc folds the operand
/// to that constant: literals, casts (a float's too: `(int)1.0f`), arithmetic of constants, `?:`
/// whose arms are equal or whose condition is known, a product or `&` with 0, `x / x` (1) and
/// `x - x` (0) of one parameter, built-in or local, and a local whose
/// value there is one of these (its only assignment, or the declaration before the atomic in its
/// block with no write between and none in a loop around the atomic).
std::vector<int> shared_atomic_turns(const Kernel& k);

}  // namespace warpdiv::sim::ir::detail
