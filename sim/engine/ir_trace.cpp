#include "sim/engine/ir_trace.hpp"

#include <string>

#include "sim/support/errors.hpp"

namespace warpdiv::sim::ir {

bool operator==(const WarpEvaluation& a, const WarpEvaluation& b) {
  return a.statement == b.statement && a.active == b.active && a.taken == b.taken;
}

std::uint32_t warps_per_block(const Launch& launch) {
  const auto size = static_cast<std::uint64_t>(launch.warp_size);
  return static_cast<std::uint32_t>((launch.block.volume() + size - 1) / size);
}

std::uint64_t global_warp(const Launch& launch, const Dim3& block, std::uint32_t warp) {
  const Dim3& g = launch.grid;
  const std::uint64_t linear = block.x + std::uint64_t{g.x} * (block.y + std::uint64_t{g.y} * block.z);
  return linear * warps_per_block(launch) + warp;
}

void split_global_warp(const Launch& launch, std::uint64_t global, Dim3& block, std::uint32_t& warp) {
  const std::uint64_t per_block = warps_per_block(launch);
  warp = static_cast<std::uint32_t>(global % per_block);
  std::uint64_t linear = global / per_block;
  block.x = static_cast<std::uint32_t>(linear % launch.grid.x);
  linear /= launch.grid.x;
  block.y = static_cast<std::uint32_t>(linear % launch.grid.y);
  block.z = static_cast<std::uint32_t>(linear / launch.grid.y);
}

WarpTraceRecorder::WarpTraceRecorder(const Launch& launch, std::uint64_t max_warps) : launch_(launch) {
  const std::uint64_t warps = launch.grid.volume() * warps_per_block(launch);
  if (warps > max_warps)
    throw InvalidInput(Diag::memory_budget, "the launch has " + std::to_string(warps) +
                                                " warps; warp-by-warp records are kept for at most " +
                                                std::to_string(max_warps));
  warps_.resize(warps);
}

void WarpTraceRecorder::evaluation(const Dim3& block, std::uint32_t warp, StmtId statement,
                                   std::uint64_t active, std::uint64_t taken) {
  // Each block is replayed by one worker, so each warp's vector has one writer.
  warps_[global_warp(launch_, block, warp)].push_back(WarpEvaluation{statement, active, taken});
}

WarpTrace WarpTraceRecorder::flatten() const {
  WarpTrace t;
  t.warps_per_block = warps_per_block(launch_);
  t.offsets.reserve(warps_.size() + 1);
  t.counts.reserve(warps_.size());
  std::uint64_t total = 0;
  for (const auto& w : warps_) total += w.size();
  t.evaluations.reserve(total);
  t.offsets.push_back(0);
  for (const auto& w : warps_) {
    t.evaluations.insert(t.evaluations.end(), w.begin(), w.end());
    t.counts.push_back(w.size());
    t.offsets.push_back(t.evaluations.size());
  }
  return t;
}

}  // namespace warpdiv::sim::ir
