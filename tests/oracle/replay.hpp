// The reference oracle: walks every block, warp and phase and classifies each warp-phase from its
// lane masks. It visits every warp-phase on purpose (the exact engine is tested against it), so
// its cost grows with J * K * L; it is made fast by evaluating a warp's lanes as bit masks, hoisting
// what is per block and per phase out of the inner loop, and splitting block-rows over threads.
//
// Not the lecture flags' model: `warpdiv analyze --width ...` counts through the
// class engine over kernels/zoo/tiled_matmul_rect.cu (analysis/lecture/lecture_source.hpp). Kept as an
// independent oracle for it (tests/analysis/lecture_source_test.cpp, tests/kernels/
// zoo_classes_test.cpp, tests/sim/engine/ir_tiled_test.cpp), and still what `--engine replay` and
// `warpdiv sweep --sizes` run.
#pragma once

#include "sim/support/count.hpp"
#include "analysis/lecture/divergence.hpp"
#include "analysis/lecture/launch.hpp"

namespace warpdiv::sim {

// The lecture's schema (its launch, checks, block classes and table), which this oracle checks.
using namespace ::warpdiv::lecture;

/// Per-thread partial counts are 64-bit: no launch above 2^63 warp-phases is ever replayed,
/// whatever ReplayOptions says (it would run for centuries anyway).
constexpr Count kReplayHardLimit = Count{1} << 63;

struct ReplayOptions {
  /// Launches with more warp-phases (per condition) are refused instead of running for hours.
  Count max_warp_phases = Count{10'000'000'000ULL};
  /// Worker threads; 0 = std::thread::hardware_concurrency(). Small launches use one thread
  /// whatever this says, since starting threads would cost more than the work.
  unsigned threads = 0;
};

/// Throws InvalidInput when the launch exceeds options.max_warp_phases.
DivergenceResult replay(const LaunchConfig& config, const ReplayOptions& options = {});

}  // namespace warpdiv::sim
