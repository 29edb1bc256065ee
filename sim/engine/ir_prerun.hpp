// What single threads of a launch prove before the replay runs it (sim/engine/ir_prerun.cpp): each
// probed thread runs the model on its own, with concrete values (a thread's control flow depends
// only on its own values, so what it meets the replay meets too), stepping over the iterations of
// loops whose trip count its values give (a variable stepped by a constant against a bound the
// loop does not change). It stops at the first undefined behaviour, at a value it does not hold
// (memory, a warp function) that decides a branch, and past a few thousand statements; a loop of
// counted iterations it stops in still counts the iterations after, each making at least its
// check, step and the statements its body runs unconditionally (a loop among those whose trip
// count does not change from one iteration to the next counted with its iterations).
// Internal to sim/ (the replay); tests may include it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/support/count.hpp"
#include "sim/model/ir.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir {

/// What the first block of a run about to be refused over its budget runs for first, a moment
/// (0.05 to 0.5 s), by either engine: undefined behaviour or a loop that never ends met that early
/// is named rather than the budget.
constexpr std::uint64_t kTrialEvaluations = 5'000'000;

struct PreRun {
  /// Undefined behaviour in a value the replay computes for control flow or a local, proven by a
  /// thread that reaches it: "FILE:LINE:COL: undefined behaviour: signed overflow in '*' (int32)
  /// in block (x, y, z), thread (x, y, z)", as the replay names it; "" when none was found.
  std::string undefined;
  /// The same in an access's address (the replay marks that access not counted and goes on).
  std::string address_undefined;
  /// Warp-statement evaluations the run makes at least (the probed threads' own, each a lower
  /// bound of its warp's), and the loop that makes most of them: " (the for loop at F:L:C runs
  /// N iterations in block (x, y, z), thread (x, y, z))".
  Count least_evaluations = 0;
  std::string longest_loop;
};

/// Probes the launch's blocks in `range` (only warp `only_warp` where given): the first and last
/// lane of each warp of the first and last block give least_evaluations; with `search`, the
/// blocks and lanes where undefined behaviour first shows too (the lowest of blocks 0, 1, 2, 4,
/// ..., 2^k and the last where a probe meets it, then by bisection between it and the one before
/// it a block that meets it right after one that does not, then its lanes).
PreRun pre_run(const Kernel& kernel, const Launch& launch, const BlockRange& range,
               std::optional<std::uint32_t> only_warp, bool search);

/// The class engine's least work in the first block it runs, block (0, 0, 0), which alone must
/// stay within its budget: the probes of the first and last lane of its warp 0 (of `only_warp`
/// where given; of every warp with `every_warp`, where it does not run warps by classes), each
/// stopping where it enters a loop marked in `compressed` ([StmtId]: those the class engine runs
/// as classes of iterations, whose work has no lower bound here). least_evaluations and
/// longest_loop as pre_run's; no search for undefined behaviour.
PreRun class_engine_floor(const Kernel& kernel, const Launch& launch, std::optional<std::uint32_t> only_warp,
                          const std::vector<bool>& compressed, bool every_warp);

}  // namespace warpdiv::sim::ir
