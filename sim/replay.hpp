// The reference oracle: walks every block, warp and phase and classifies each warp-phase from its
// lane masks. Simple on purpose; the exact engine is tested against it.
#pragma once

#include "sim/count.hpp"
#include "sim/divergence.hpp"
#include "sim/launch.hpp"

namespace warpdiv::sim {

struct ReplayOptions {
  /// Launches with more warp-phases (per condition) are refused instead of running for hours.
  Count max_warp_phases = Count{10'000'000'000ULL};
};

/// Warp-phases per condition of a launch: blocks * warps per block * phases (exact, 128-bit).
Count warp_phases_per_condition(const Geometry& geometry);

/// Throws InvalidInput when the launch exceeds options.max_warp_phases.
DivergenceResult replay(const LaunchConfig& config, const ReplayOptions& options = {});

}  // namespace warpdiv::sim
