// The lecture's launch counted through the general engines: the lecture source
// (kernels/zoo/tiled_matmul_rect.cu, whose saved model sits beside it) run by the class engine,
// and its counts arranged as today's 20-row table (condition x block class).
//
// Not yet what `warpdiv analyze --width ...` runs (issue 11, item 3): the lecture flags still run
// the hand-written model in sim/ (exact.cpp, replay.cpp), because it also takes launches whose
// gridDim.y exceeds CUDA's 65,535 (J > 65,535 T), which a launch of the IR refuses. The test of
// this file checks the class engine over the lecture source against that model.
#pragma once

#include "sim/divergence.hpp"
#include "sim/ir.hpp"
#include "sim/ir_classes.hpp"
#include "sim/launch.hpp"

namespace warpdiv::analysis {

/// The lecture's launch as a launch of the model: grid ((L-1)/T+1, (J-1)/T+1), block (T, T),
/// arguments J, K, L (the pointers need none). Throws InvalidInput where the grid is past CUDA's
/// limits.
sim::ir::Launch lecture_source_launch(const sim::ir::Kernel& model,
                                      const sim::LaunchConfig& config);

/// The table from a class count of that launch: the model's four ifs in source order are load_M,
/// load_N, compute and store; each class's counts (the same in each of its blocks) go to
/// interior, right_edge, bottom_edge and corner by where its blocks stand (last block-column,
/// last block-row). The barrier hazard counts blocks where the store's guard is false for a lane.
sim::DivergenceResult lecture_result(const sim::ir::Kernel& model,
                                     const sim::LaunchConfig& config,
                                     const sim::ir::ClassReplayResult& counts);

}  // namespace warpdiv::analysis
