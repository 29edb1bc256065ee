// The exact engine: counts any launch (J, K, L up to 2^31-1) by equivalence classes instead of
// visiting every warp-phase.
//
// Every check is "tx < a && ty < b" where a and b depend only on whether the block is in the last
// block-column, in the last block-row, and whether the phase is the last one: a block-column that
// is not the last has all T columns in range ((bx+1)*T <= (grid_x-1)*T < L), and likewise for
// block-rows and phases. So one representative block of each of the four block classes, and one
// representative phase of "not last" and "last", give every warp's masks; the counts are those
// of the representative multiplied by the class sizes (128-bit, overflow-checked).
//
// Not the lecture flags' model: `warpdiv analyze --width ...` counts through the
// class engine over kernels/zoo/tiled_matmul_rect.cu (analysis/lecture/lecture_source.hpp). Kept as an
// independent oracle for it (tests/analysis/lecture_source_test.cpp, tests/kernels/
// zoo_classes_test.cpp, tests/sim/engine/ir_tiled_test.cpp), and still what `--engine replay` and
// `warpdiv sweep --sizes` run.
#pragma once

#include "analysis/lecture/divergence.hpp"
#include "analysis/lecture/launch.hpp"

namespace warpdiv::sim {

// The lecture's schema (its launch, checks, block classes and table), which this oracle checks.
using namespace ::warpdiv::lecture;

/// The same breakdown as replay() (4 conditions x 5 block classes + barrier_hazard_blocks), for
/// any valid launch, in time independent of J, K and L. Throws InvalidInput on an invalid config.
DivergenceResult exact(const LaunchConfig& config);

}  // namespace warpdiv::sim
