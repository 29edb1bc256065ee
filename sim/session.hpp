// The one place that chooses which engine counts a launch: the class engine (plan_classes,
// class_replay), the replay's interpreter, or the replay as native code (jit/, installed through
// sim/engine/ir_native.hpp). Every command and report asks it (count_launch) rather than calling an
// engine itself, so the choice, its fallback, its wording and the native decision (WARPDIV_NATIVE
// and the size above which native code pays) are made here once.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim {

/// Which engine counts (--engine): automatic takes the class engine where it proves its classes,
/// else the replay (EngineCounts::note says why); exact is the class engine or ClassesUnproven;
/// replay is the replay (as native code where it pays); native is the replay as native code for
/// every launch within its scope (InvalidInput where none runs); all runs every engine that
/// applies and compares them (Mismatch naming the first difference).
enum class Engine { automatic, exact, replay, native, all };

/// WARPDIV_NATIVE: off (the interpreter alone) or automatic (native code where it pays; unset,
/// empty or "auto").
enum class NativeMode { off, automatic };
/// WARPDIV_NATIVE's mode; any other value throws InvalidInput listing the allowed ones.
NativeMode native_mode_from_environment();

/// The most warp-statement evaluations the replay that adds memory figures to a class-engine
/// count may make (a few seconds on 2 cores), where the class engine cannot prove them; above it
/// they are not counted, and the counts say why.
constexpr Count kMemoryReplayBudget = Count{200'000'000};

/// What to count and how. The launch's data (arguments, --alloc and --data buffers, dynamic
/// shared memory) are in the Launch; the budget (max_evaluations), threads, progress, stop,
/// observer, memory, by_iteration, only_block/only_warp/only_blocks and grid_limits (for the
/// class engine's plan too) in `options`. options.native is ignored: `native` decides it.
struct CountRequest {
  Engine engine = Engine::automatic;
  ir::ReplayOptions options;
  /// Unset: WARPDIV_NATIVE's (native_mode_from_environment).
  std::optional<NativeMode> native;
  /// Under NativeMode::automatic, launches estimated at this many evaluations or more run as
  /// native code (and those of a model compiled already).
  Count native_min_evaluations = ir::kNativeMinEvaluations;
  /// The budget of the replay that adds memory figures the class engine cannot prove; 0: none
  /// is run (the figures stay uncounted and no memory_note is written).
  Count memory_replay_budget = kMemoryReplayBudget;
};

/// A launch's counts and how they were made.
struct EngineCounts {
  ir::ReplayResult result;
  /// The block classes the class engine found (with its per-warp outcomes); empty from the replay.
  std::vector<ir::BlockClass> classes;
  /// The class engine's blocks and warps actually replayed.
  Count blocks_replayed = 0;
  Count warps_replayed = 0;
  /// One line for stderr: why --engine auto fell back to the replay (Diag::engine_fallback), or,
  /// for Engine::all, that the engines agree (Diag::engines_compared); else empty.
  std::string note;
  Diag note_id = Diag::engine_fallback;
  /// How the counts were made ("Counted by the class engine: 3 block classes, 9 blocks replayed.").
  std::string engine_line;
  /// Why the class engine gave no memory figures (ClassReplayResult::memory_unproven), "" when
  /// it gave them or did not count; why there are none in the end (memory_note); how they were
  /// made when not by the engine that counted (memory_line).
  std::string class_memory_unproven;
  std::string memory_note;
  std::string memory_line;
  /// class_memory_unproven names an access outside its buffer (Launch::buffer_bytes).
  bool class_memory_out_of_bounds = false;
};

/// Counts `launch` with the request's engine (see Engine). With the class engine and
/// options.memory, memory figures it cannot prove come from a replay within
/// memory_replay_budget (memory_line says so; else memory_note says why not). Engine::all reports
/// the interpreter's counts, and its note "all N engines agree (...)".
EngineCounts count_launch(const ir::Kernel& kernel, const ir::Launch& launch, const CountRequest& request);

/// The counts as class_replay() returns them (the result and the classes).
ir::ClassReplayResult class_engine_result(EngineCounts counts);

/// The first figure in which engine `a_name`'s counts differ from engine `b_name`'s, "" where
/// none does: per statement (in StmtId order) its counts, then per iteration where both counted
/// them (by_iteration), then, where both counted memory, each access's figures and each
/// statement's floating-point operations. "FILE:LINE:COL (if): divergent is 3 by the class
/// engine, 4 by the replay".
std::string first_difference(const ir::Kernel& kernel, const std::string& a_name, const ir::ReplayResult& a,
                             const std::string& b_name, const ir::ReplayResult& b);

}  // namespace warpdiv::sim
