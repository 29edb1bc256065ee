// Races in shared arrays whose values the model does not follow: the addresses alone decide
// them. Where every access to a __shared__ array has a place and
// lanes the model computes (and no computed load reads it, which the replay follows by value and
// checks in every block), the first and the last block of a run are replayed with that array
// followed by address (PlanOptions::shared_addresses), phase by phase between barriers, for at
// most kSharedRaceEvaluations warp-statement evaluations each (a block the budget stops is
// checked in part, and the result says so: ReplayResult::races_unchecked). A read of a byte never
// written is not named there: that needs the values (its value may go unused).
#pragma once

#include <cstdint>
#include <string>

#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir {

/// The evaluations a block of the check may make (shared by its warps); past them it stops.
constexpr std::uint64_t kSharedRaceEvaluations = std::uint64_t{1} << 14;

/// Replays the first and the last block of `range` (blocks of `launch`) with the shared arrays
/// followed by address, when there are any: throws the InvalidInput (Diag::shared_race) of the
/// first race met. Any other error stops the check and is left to the run (which meets it again,
/// or, for a read of a byte never written, names it where it follows the values). Returns, where
/// the budget stopped a block's check, one line saying which arrays and blocks were checked only
/// in part; "" where the check covered them or had nothing to check.
std::string check_shared_addresses(const Kernel& kernel, const Launch& launch, const ReplayOptions& options,
                                   const BlockRange& range);

}  // namespace warpdiv::sim::ir
