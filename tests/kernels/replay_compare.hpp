// Two replays of one launch compared figure by figure, for the tests that check one way of
// replaying against another: the offsets' fast path against lane by lane
// (replay_affine_test.cpp), native code against the interpreter (native_replay_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::testing {

/// A replay's result, or the message it refused the launch with.
struct ReplayOutcome {
  std::optional<sim::ir::ReplayResult> result;
  std::string refusal;
};

/// replay(k, l, options), with a loop bound of 2^31 - 1 refused (alike) rather than run.
inline ReplayOutcome replay_outcome(const sim::ir::Kernel& k, const sim::ir::Launch& l,
                                    sim::ir::ReplayOptions options) {
  options.max_evaluations = 500000;
  ReplayOutcome out;
  try {
    out.result = sim::ir::replay(k, l, options);
  } catch (const InvalidInput& e) {
    out.refusal = e.what();
  }
  return out;
}

/// Expects every figure of two results equal: each access's counts, faults and bounds, the
/// floating-point operations and their faults, the extents, each statement's counts, the
/// evaluations, blocks and warps.
inline void expect_same_figures(const sim::ir::Kernel& k, const sim::ir::ReplayResult& x,
                                const sim::ir::ReplayResult& y) {
  const auto str = [](sim::Count c) { return sim::to_decimal(c); };
  EXPECT_EQ(x.accesses.size(), y.accesses.size());
  for (std::size_t a = 0; a < std::min(x.accesses.size(), y.accesses.size()); ++a) {
    const sim::ir::AccessCounts& f = x.accesses[a];
    const sim::ir::AccessCounts& s = y.accesses[a];
    EXPECT_TRUE(f == s) << "'" << k.accesses[a].text << "' at " << location(k, k.accesses[a].range)
                        << ": requests " << str(f.requests) << " / " << str(s.requests) << ", lanes "
                        << str(f.lanes) << " / " << str(s.lanes) << ", sectors " << str(f.sectors) << " / "
                        << str(s.sectors) << ", wavefronts " << str(f.wavefronts) << " / "
                        << str(s.wavefronts) << ", conflicts " << str(f.conflicts) << " / "
                        << str(s.conflicts);
    EXPECT_EQ(x.access_faults[a], y.access_faults[a]) << k.accesses[a].text;
    EXPECT_EQ(x.access_out_of_bounds[a], y.access_out_of_bounds[a]) << k.accesses[a].text;
  }
  EXPECT_EQ(x.flops.size(), y.flops.size());
  for (std::size_t s = 0; s < std::min(x.flops.size(), y.flops.size()); ++s)
    EXPECT_EQ(str(x.flops[s]), str(y.flops[s]));
  EXPECT_EQ(x.flop_faults, y.flop_faults);
  EXPECT_EQ(x.extents.size(), y.extents.size());
  for (std::size_t b = 0; b < std::min(x.extents.size(), y.extents.size()); ++b) {
    EXPECT_EQ(x.extents[b].touched, y.extents[b].touched) << k.bases[b].name;
    EXPECT_EQ(x.extents[b].lowest, y.extents[b].lowest) << k.bases[b].name;
    EXPECT_EQ(x.extents[b].end, y.extents[b].end) << k.bases[b].name;
  }
  EXPECT_EQ(x.statements.size(), y.statements.size());
  for (std::size_t s = 0; s < std::min(x.statements.size(), y.statements.size()); ++s) {
    const sim::ir::StatementCounts& f = x.statements[s];
    const sim::ir::StatementCounts& r = y.statements[s];
    EXPECT_TRUE(f == r) << "statement " << s << " (" << sim::ir::report_kind(k.stmts[s]) << " at "
                        << location(k, k.stmts[s].range) << "): evaluations " << str(f.warp_evaluations)
                        << " / " << str(r.warp_evaluations) << ", divergent " << str(f.divergent) << " / "
                        << str(r.divergent) << ", active " << str(f.active_lanes) << " / "
                        << str(r.active_lanes) << ", taken " << str(f.taken_lanes) << " / "
                        << str(r.taken_lanes) << ", block executions " << str(f.block_executions) << " / "
                        << str(r.block_executions) << ", partial " << str(f.partial_block_executions) << " / "
                        << str(r.partial_block_executions);
  }
  EXPECT_EQ(str(x.warp_statement_evaluations), str(y.warp_statement_evaluations));
  EXPECT_EQ(str(x.blocks), str(y.blocks));
  EXPECT_EQ(str(x.warps), str(y.warps));
  EXPECT_EQ(x.memory_counted, y.memory_counted);
}

}  // namespace warpdiv::testing
