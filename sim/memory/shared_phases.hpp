// Which shared-memory accesses of a kernel may run in one phase (between the same two
// __syncthreads() of a block), read from its statements alone: an access may run in the phase
// that a barrier (or the kernel's start) opens when some path from that barrier reaches it
// without passing another barrier. Two accesses are concurrent when some barrier opens a phase
// that both may run in: one thread may make the one and another thread the other before either
// passes the next barrier. (Barriers are reached by every thread of a block alike; one that is
// not is named by the run.) The race check by address runs only where two accesses of one array
// that may race are concurrent: where none are, no addresses can race.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir {

/// The pairs (a, b), a <= b, of shared-memory accesses (Kernel::accesses) of one array that may
/// run in one phase and race if two warps make them on one byte: a store or an atomic and a load,
/// a store and an atomic, two stores (one store made by two warps: a == b). Accesses to extern
/// shared arrays are all of one array, and an access without a base may be to any.
std::vector<std::pair<std::int32_t, std::int32_t>> concurrent_shared_conflicts(const Kernel& kernel);

/// The shared array a shared-memory base (Kernel::bases) stands for, as concurrent_shared_conflicts
/// groups them: the base, or one past the last base for every extern array; kNone for kNone (any).
std::int32_t shared_array(const Kernel& kernel, std::int32_t base);

}  // namespace warpdiv::sim::ir
