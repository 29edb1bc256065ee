// The lecture's launch counted through the general engines: the lecture source
// (kernels/zoo/tiled_matmul_rect.cu, whose saved model sits beside it) run by the class engine
// (lecture_counts) or by the SIMT replay (lecture_replay), and its counts arranged as the 20-row
// table (condition x block class).
//
// This is what `warpdiv analyze --width ... / --rows --inner --cols` runs (the model is compiled
// into the binary), and what `warpdiv sweep --sizes`, `validate` and `ncu-check` compare with. The
// hand-written model of the lecture kernel (its fixed conditions, block classes and engines) is
// retired from the tool: it lives on only as an independent oracle in the tests (tests/oracle/).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/lecture/divergence.hpp"
#include "sim/model/ir.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/engine/ir_trace.hpp"
#include "analysis/lecture/launch.hpp"
#include "analysis/lecture/warp_map.hpp"

namespace warpdiv::analysis {

/// The lecture source's model, compiled in (parsed once).
const sim::ir::Kernel& lecture_model();

/// The lecture's launch as a launch of the model: grid ((L-1)/T+1, (J-1)/T+1), block (T, T),
/// arguments J, K, L (the pointers need none). The grid may pass CUDA's y limit (the class engine
/// takes it with GridLimits::Model).
sim::ir::Launch lecture_source_launch(const sim::ir::Kernel& model, const lecture::LaunchConfig& config);

/// The table from a class count of that launch: the model's four ifs in source order are load_M,
/// load_N, compute and store; each class's counts (the same in each of its blocks) go to
/// interior, right_edge, bottom_edge and corner by where its blocks stand (last block-column,
/// last block-row). The barrier hazard counts blocks where the store's guard is false for a lane.
lecture::DivergenceResult lecture_result(const sim::ir::Kernel& model, const lecture::LaunchConfig& config,
                                         const sim::ir::ClassReplayResult& counts);

/// The lecture's table for `config`: the class engine over lecture_model(), arranged. `threads`:
/// the class engine's workers (0: every core; a sweep that spreads launches over the cores gives 1).
lecture::DivergenceResult lecture_counts(const lecture::LaunchConfig& config, unsigned threads = 0);

/// What lecture_replay() would cost: its warp-statement evaluations, counted by the class engine.
sim::Count lecture_replay_cost(const lecture::LaunchConfig& config);

/// The lecture's table by the SIMT replay (ir::replay over lecture_model()): every warp of every
/// block visited, class by class (interior, right edge, bottom edge and corner are four ranges of
/// blocks, each replayed on its own), the barrier hazard counted block by block. `options` as
/// ir::replay takes them (limits, threads, stop); only_block, only_warp and by_iteration must be
/// unset. Throws InvalidInput above options.max_evaluations.
lecture::DivergenceResult lecture_replay(const lecture::LaunchConfig& config,
                                         const sim::ir::ReplayOptions& options = {});

/// The first figure in which two of the lecture's tables differ, "" where none does: cell by cell
/// (conditions in order, then block classes; blocks, warps, warp_phases, divergent_warp_phases),
/// then the barrier hazard's blocks. "load_M, right_edge: divergent_warp_phases is 3 by the class
/// engine, 4 by the replay".
std::string lecture_table_difference(const lecture::DivergenceResult& a, const std::string& a_name,
                                     const lecture::DivergenceResult& b, const std::string& b_name);

/// `--engine all`: the lecture's table by the class engine (lecture_counts) and by the replay
/// (lecture_replay, with `options`), compared by lecture_table_difference: the replay's table, and
/// `note` "all 2 engines agree (the class engine, the replay)"; Mismatch naming the first figure
/// that differs.
lecture::DivergenceResult lecture_all_engines(const lecture::LaunchConfig& config, std::string& note,
                                              const sim::ir::ReplayOptions& options = {});

/// The warp x phase maps of the HTML report: for each lecture class that has blocks, drawn from
/// its block nearest the origin (lecture::representative_blocks), and each check, how every warp of
/// that block evaluated the check in each column of phases (`columns`, from lecture::phase_columns;
/// the store: one column, once per warp). From the class engine's iteration classes of the
/// lecture source's phase loop, so the maps exist at any size. Throws std::logic_error when a
/// column holds phases that the engine did not find alike (the columns would mislead).
std::vector<lecture::WarpPhaseMap> lecture_warp_maps(const lecture::LaunchConfig& config,
                                                     const std::vector<lecture::PhaseColumn>& columns);

/// The lecture's table of a warp trace of lecture_model() at `config` (a GPU probe's or a replay's,
/// sim/engine/ir_trace.hpp): each evaluation of one of the four ifs counted in its block's class, a
/// divergent one where some active lanes take it and some do not; the barrier hazard counts the
/// blocks where some warp reaches the store's guard with lanes for which it is false. The same
/// table as lecture_counts() when the trace is the model's. Throws std::invalid_argument when the
/// trace does not have the launch's warps.
lecture::DivergenceResult lecture_table(const sim::ir::Kernel& model, const lecture::LaunchConfig& config,
                                        const sim::ir::WarpTrace& trace);

}  // namespace warpdiv::analysis
