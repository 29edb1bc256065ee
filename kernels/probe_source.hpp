// The GPU probe of a kernel model: CUDA source, generated from the IR (sim/model/ir.hpp), that reproduces
// the kernel's control flow (its conditions, loops, break/continue/return, calls and barriers)
// without its memory work, and records each warp evaluation with warp votes. Plain C++: the
// source is compiled at run time (NVRTC, kernels/probe.hpp) or by nvcc in a test.
//
// How the probe runs a warp. Every thread of a warp walks the same path through the generated
// code; which lanes a statement is running for is an explicitly tracked mask, the same value in
// every lane of the warp (never __activemask(), which reflects the scheduler). A condition is
// evaluated by every lane and voted with __ballot_sync over the warp's existing lanes, restricted
// to the tracked mask; every branch the probe itself takes is on a vote, so it is warp-uniform and
// no vote can deadlock. Lane i of a vote is the hardware's lane i, and the tracked mask of a warp
// starts as lanes 0 .. n-1 of warp (x + y*Bx + z*Bx*By) / 32: a GPU that formed warps otherwise
// would disagree with the model (the probe also counts threads whose %laneid differs).
//
// Barriers: a real __syncthreads() that only part of a block reaches is undefined behaviour, so
// the probe executes none where the kernel has one, unless it follows shared memory by value
// (then it does, as the kernel does). Each thread counts its own arrivals at each
// barrier (its k-th arrival is instance k, as the model counts); the block's most and fewest
// arrivals give its executions (most) and partial executions (most - fewest). The only real
// barriers are at the probe's start and end, which every thread reaches once.
//
// Opaque values (memory reads, floating point) never steer control flow (the model refuses a
// kernel where they would), so the probe leaves them and their assignments out. Integer
// operations are generated without undefined behaviour on any lane (wrap-around through
// unsigned types, division by zero and over-wide shifts made harmless): lanes that are not active
// evaluate expressions too, and the model has already refused any active lane's undefined
// behaviour.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/model/ir.hpp"

namespace warpdiv::kernels {

/// The probe's entry point (extern "C"), and the layout of what it writes.
inline constexpr const char* kProbeEntry = "warpdiv_probe";
/// Per statement: evaluations, divergent, active lanes, taken lanes, block executions, partial
/// block executions, blocks with a partial execution (unsigned 64-bit each).
inline constexpr int kProbeTotalsPerStatement = 7;
/// Per recorded warp evaluation: statement, then active | taken << 32 (unsigned 64-bit each).
inline constexpr int kProbeWordsPerRecord = 2;
/// Flags: [0] threads whose %laneid differs from (linear thread index) % 32.
inline constexpr int kProbeFlags = 1;
/// The probe runs 32-lane warps.
inline constexpr int kProbeWarpSize = 32;

/// The probe kernel's parameters, in order:
///   const unsigned long long* args     one per kernel parameter: the scalar's normalised bits
///   unsigned long long* totals         [statements][kProbeTotalsPerStatement], zeroed
///   unsigned long long* records        [kProbeWordsPerRecord] per evaluation, or null
///   const unsigned long long* offsets  [warps + 1]: warp w's records start at offsets[w]
///   unsigned long long* counts         [warps]: evaluations each warp made, or null
///   unsigned long long* flags          [kProbeFlags], zeroed
///   unsigned long long guard           a warp stops after this many evaluations
/// `buffer_bytes` [parameter] (Launch::buffer_bytes): pointer parameters whose buffers have
/// values; their args entry is then the buffer's device address, and the loads the model computes
/// from them (sim::ir::computed_loads) are read there, as the kernel reads them.
/// Shared memory the model follows by value (sim::ir::memory_layout: __shared__ arrays whose loads
/// it computes) is the probe's own: it makes the same stores, reads the same elements, and runs a
/// real __syncthreads() at the kernel's barriers (`dynamic_shared_bytes`: extern __shared__).
/// Throws InvalidInput when the model is invalid (sim::ir::validate).
std::string probe_source(const sim::ir::Kernel& kernel, const std::vector<std::uint64_t>& buffer_bytes = {},
                         std::uint64_t dynamic_shared_bytes = 0);

/// Buffers the kernel writes that the model follows by value: the probe makes the kernel's stores
/// and atomics on its own copies of them, so branches on their loads are checked too.
/// Throws InvalidInput (one line naming the condition and the value) where the probe cannot
/// follow the launch's control flow: a condition that depends on an atomic's returned value
/// (the model follows it in one order; the probe does not reproduce it).
void check_probe_supports(const sim::ir::Kernel& kernel, const std::vector<std::uint64_t>& buffer_bytes);

}  // namespace warpdiv::kernels
