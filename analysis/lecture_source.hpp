// The lecture's launch counted through the general engines: the lecture source
// (kernels/zoo/tiled_matmul_rect.cu, whose saved model sits beside it) run by the class engine,
// and its counts arranged as today's 20-row table (condition x block class).
//
// This is what `warpdiv analyze --width ... / --rows --inner --cols` runs (the exact engine, the
// default): the model is compiled into the binary. The hand-written model in sim/ (exact.cpp,
// replay.cpp) stays only as an independent oracle: the tests compare the two, and the lecture
// flags' --engine replay still walks it (the IR replay has no per-class split of its counts).
#pragma once

#include "sim/divergence.hpp"
#include "sim/ir.hpp"
#include "sim/ir_classes.hpp"
#include "sim/launch.hpp"

namespace warpdiv::analysis {

/// The lecture source's model, compiled in (parsed once).
const sim::ir::Kernel& lecture_model();

/// The lecture's launch as a launch of the model: grid ((L-1)/T+1, (J-1)/T+1), block (T, T),
/// arguments J, K, L (the pointers need none). The grid may pass CUDA's y limit (the class engine
/// takes it with GridLimits::Model).
sim::ir::Launch lecture_source_launch(const sim::ir::Kernel& model,
                                      const sim::LaunchConfig& config);

/// The table from a class count of that launch: the model's four ifs in source order are load_M,
/// load_N, compute and store; each class's counts (the same in each of its blocks) go to
/// interior, right_edge, bottom_edge and corner by where its blocks stand (last block-column,
/// last block-row). The barrier hazard counts blocks where the store's guard is false for a lane.
sim::DivergenceResult lecture_result(const sim::ir::Kernel& model,
                                     const sim::LaunchConfig& config,
                                     const sim::ir::ClassReplayResult& counts);

/// The lecture's table for `config`: the class engine over lecture_model(), arranged.
sim::DivergenceResult lecture_counts(const sim::LaunchConfig& config);

}  // namespace warpdiv::analysis
