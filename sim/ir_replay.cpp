#include "sim/ir_replay.hpp"

#include "sim/errors.hpp"

namespace warpdiv::sim::ir {

bool operator==(const Dim3& a, const Dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

std::string to_string(const Dim3& d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

bool operator==(const StatementCounts& a, const StatementCounts& b) {
  return a.warp_evaluations == b.warp_evaluations && a.divergent == b.divergent &&
         a.active_lanes == b.active_lanes && a.taken_lanes == b.taken_lanes &&
         a.block_executions == b.block_executions &&
         a.partial_block_executions == b.partial_block_executions;
}

StatementCounts& operator+=(StatementCounts& a, const StatementCounts& b) {
  a.warp_evaluations = checked_add(a.warp_evaluations, b.warp_evaluations);
  a.divergent = checked_add(a.divergent, b.divergent);
  a.active_lanes = checked_add(a.active_lanes, b.active_lanes);
  a.taken_lanes = checked_add(a.taken_lanes, b.taken_lanes);
  a.block_executions = checked_add(a.block_executions, b.block_executions);
  a.partial_block_executions = checked_add(a.partial_block_executions, b.partial_block_executions);
  return a;
}

void validate(const Launch&, const Kernel&) { throw std::logic_error("not implemented yet"); }
ReplayEstimate estimate(const Kernel&, const Launch&, const ReplayOptions&) {
  throw std::logic_error("not implemented yet");
}
ReplayResult replay(const Kernel&, const Launch&, const ReplayOptions&) {
  throw std::logic_error("not implemented yet");
}
Value evaluate_uniform(const Kernel&, ExprId, const std::vector<Value>&) {
  throw std::logic_error("not implemented yet");
}

}  // namespace warpdiv::sim::ir
