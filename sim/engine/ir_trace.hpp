// Warp evaluations one by one: what the replay engine did in each warp, in order, kept in one flat
// array per launch. The model's trace comes from a replay (WarpTraceRecorder, an
// EvaluationObserver); a GPU probe (kernels/probe.hpp) fills the same layout, so that a
// comparison (analysis/probe_comparison.hpp) can name the first evaluation where they differ.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/model/ir.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir {

/// One warp reaching one statement: the active lanes and, for a condition, the lanes taking it.
struct WarpEvaluation {
  StmtId statement = kNone;
  std::uint64_t active = 0;
  std::uint64_t taken = 0;
};
bool operator==(const WarpEvaluation& a, const WarpEvaluation& b);

/// The warps of a launch in order: block x + y*Gx + z*Gx*Gy, then the warp within the block.
/// Warp w's evaluations are evaluations[offsets[w] .. offsets[w] + min(counts[w], capacity)),
/// capacity = offsets[w + 1] - offsets[w]; counts[w] is how many it made (a recorder that ran
/// out of room keeps counting).
struct WarpTrace {
  std::uint32_t warps_per_block = 0;
  std::vector<std::uint64_t> offsets;  // warps + 1 entries
  std::vector<std::uint64_t> counts;   // per warp
  std::vector<WarpEvaluation> evaluations;
  std::uint64_t warps() const { return counts.size(); }
  std::uint64_t capacity(std::uint64_t warp) const { return offsets[warp + 1] - offsets[warp]; }
};

/// The warps of one block: ceil(block volume / warp size).
std::uint32_t warps_per_block(const Launch& launch);
/// The index of warp `warp` of block `block` in a WarpTrace.
std::uint64_t global_warp(const Launch& launch, const Dim3& block, std::uint32_t warp);
/// Block and warp of a global warp index (inverse of global_warp).
void split_global_warp(const Launch& launch, std::uint64_t global, Dim3& block, std::uint32_t& warp);

/// Records a replay's evaluations (pass it as ReplayOptions::observer), then flatten().
class WarpTraceRecorder : public EvaluationObserver {
 public:
  /// Throws InvalidInput when the launch has more than `max_warps` warps.
  WarpTraceRecorder(const Launch& launch, std::uint64_t max_warps);
  void evaluation(const Dim3& block, std::uint32_t warp, StmtId statement, std::uint64_t active,
                  std::uint64_t taken) override;
  /// The recorded evaluations in the flat layout (capacity = count for every warp).
  WarpTrace flatten() const;

 private:
  Launch launch_;
  std::vector<std::vector<WarpEvaluation>> warps_;
};

}  // namespace warpdiv::sim::ir
