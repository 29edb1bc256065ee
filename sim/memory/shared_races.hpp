// Races and reads of memory never written in shared arrays whose values the model does not
// follow: the addresses alone decide them. Where every access to a __shared__ array has a place and
// lanes the model computes (and no computed load reads it, which the replay follows by value and
// checks in every block), the first and the last block of a run are replayed with that array
// followed by address (PlanOptions::shared_addresses), phase by phase between barriers, for at
// most kSharedRaceEvaluations warp-statement evaluations each.
#pragma once

#include <cstdint>

#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir {

/// The evaluations a block of the check may make; past them it stops, having named nothing.
constexpr std::uint64_t kSharedRaceEvaluations = std::uint64_t{1} << 18;

/// Replays the first and the last block of `range` (blocks of `launch`) with the shared arrays
/// followed by address, when there are any: throws the InvalidInput (Diag::shared_race,
/// Diag::uninitialized_read) of the first race or read of memory never written met. Any other
/// error stops the check and is left to the run (which meets it again).
void check_shared_addresses(const Kernel& kernel, const Launch& launch, const ReplayOptions& options,
                            const BlockRange& range);

}  // namespace warpdiv::sim::ir
