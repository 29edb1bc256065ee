// The IR replay of the tiled kernel, written as IR by hand (tiled_matmul_ir.hpp), against the
// independent hand-written tiled engines (tests/oracle/replay.hpp, tests/oracle/exact.hpp) and the lecture's
// figures.
#include <gtest/gtest.h>

#include <random>

#include "sim/support/count.hpp"
#include "tests/oracle/exact.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/oracle/replay.hpp"
#include "tests/sim/tiled_matmul_ir.hpp"

namespace warpdiv::sim::ir {
namespace {

using testing::tiled_launch;
using testing::tiled_matmul_ir;
using testing::TiledMatmulIr;

std::string str(Count c) { return to_decimal(c); }

// Lecture: 100 x 100, T = 16, 7 x 7 blocks of 8 warps, 7 phases: each load check diverges in
// 350 of 2,744 warp-phases (Type 1: 336 of 2,352; Type 2: 14 of 392).
TEST(IrTiled, LectureLoadChecks) {
  const TiledMatmulIr t = tiled_matmul_ir(16);
  const ReplayResult r = replay(t.kernel, tiled_launch(t, LaunchConfig::square(100)));
  EXPECT_EQ(str(r.statements[t.load_m].warp_evaluations), "2744");
  EXPECT_EQ(str(r.statements[t.load_m].divergent), "350");
  EXPECT_EQ(str(r.statements[t.load_n].warp_evaluations), "2744");
  EXPECT_EQ(str(r.statements[t.load_n].divergent), "350");
  // The store runs once per warp: 49 blocks x 8 warps of two rows. In the 6 right-edge blocks
  // above the corner, columns 96..99 (tx < 4) split all 8 warps: 48. In the corner, rows 96..99
  // are warps 0 and 1, split by the columns: 2; its warps 2..7 are all out. In the 6 other
  // bottom blocks, rows 96..99 fill warps 0 and 1 exactly, so no warp splits: 50 in all.
  EXPECT_EQ(str(r.statements[t.store].warp_evaluations), "392");
  EXPECT_EQ(str(r.statements[t.store].divergent), "50");
  // Barriers outside the guards: every thread reaches both in every phase, 49 x 7 each.
  EXPECT_EQ(str(r.statements[t.barrier_1].block_executions), "343");
  EXPECT_EQ(str(r.statements[t.barrier_1].partial_block_executions), "0");
  EXPECT_EQ(str(r.statements[t.barrier_2].partial_block_executions), "0");
  EXPECT_EQ(str(r.blocks), "49");
}

// The slide's barrier inside `if (Row < Width && Col < Width)`: the 13 edge blocks (last
// block-row and block-column) have threads outside the guard, which never arrive: 13 x 7 = 91
// partial block-phases per barrier, of 49 x 7 = 343.
TEST(IrTiled, BarrierInGuardIsPartialInEdgeBlocks) {
  const TiledMatmulIr t = tiled_matmul_ir(16, true);
  const ReplayResult r = replay(t.kernel, tiled_launch(t, LaunchConfig::square(100)));
  EXPECT_EQ(str(r.statements[t.barrier_1].block_executions), "343");
  EXPECT_EQ(str(r.statements[t.barrier_1].partial_block_executions), "91");
  EXPECT_EQ(str(r.statements[t.barrier_2].partial_block_executions), "91");
  EXPECT_EQ(str(r.statements[t.barrier_1].blocks_with_partial), "13");
  EXPECT_EQ(str(r.statements[t.barrier_2].blocks_with_partial), "13");
}

// Per phase with --by-iteration: load_M diverges only in the last phase (p = 6), in 350 warps.
TEST(IrTiled, LectureByIteration) {
  const TiledMatmulIr t = tiled_matmul_ir(16, true);
  ReplayOptions o;
  o.by_iteration = true;
  const ReplayResult r = replay(t.kernel, tiled_launch(t, LaunchConfig::square(100)), o);
  ASSERT_EQ(r.iterations[t.load_m].size(), 7u);
  for (int p = 0; p < 6; ++p) EXPECT_EQ(str(r.iterations[t.load_m][p].divergent), "0") << p;
  EXPECT_EQ(str(r.iterations[t.load_m][6].divergent), "350");
  EXPECT_EQ(str(r.iterations[t.load_m][6].warp_evaluations), "392");
  // The phase loop's own 8th condition (p = 7) is false everywhere: 392 warps, none divergent.
  ASSERT_EQ(r.iterations[t.phase_loop].size(), 8u);
  EXPECT_EQ(str(r.iterations[t.phase_loop][7].taken_lanes), "0");
  // Barriers per phase: 13 partial block executions in each phase.
  ASSERT_EQ(r.iterations[t.barrier_1].size(), 7u);
  for (int p = 0; p < 7; ++p) {
    EXPECT_EQ(str(r.iterations[t.barrier_1][p].block_executions), "49") << p;
    EXPECT_EQ(str(r.iterations[t.barrier_1][p].partial_block_executions), "13") << p;
    EXPECT_EQ(str(r.iterations[t.barrier_1][p].blocks_with_partial), "13") << p;
  }
  // The store is outside every loop.
  EXPECT_TRUE(r.iterations[t.store].empty());
}

// Every check's totals against the hand-written tiled replay (and the barrier-in-guard variant's
// partial barriers against its barrier_hazard_blocks x phases) on 1,000 random launches.
TEST(IrTiled, AgreesWithTiledEngineOnRandomLaunches) {
  std::mt19937_64 rng(20261122);
  const auto pick = [&](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(rng);
  };
  for (int i = 0; i < 1000; ++i) {
    const int tile = static_cast<int>(pick(1, 32));
    const int warp_size = 1 << pick(0, 6);
    // Sizes up to about 3 tiles per dimension keep the whole test at a few seconds.
    const std::int64_t top = 3 * tile + 2;
    const LaunchConfig c = LaunchConfig::shape(pick(1, top), pick(1, top), pick(1, top), tile, warp_size);
    SCOPED_TRACE(describe(c));
    const bool in_guard = i % 2 == 1;
    const TiledMatmulIr t = tiled_matmul_ir(tile, in_guard);
    const ReplayResult r = replay(t.kernel, tiled_launch(t, c));
    const DivergenceResult oracle = sim::replay(c);
    const auto expect = [&](StmtId id, Condition cond) {
      const ClassCounts& cell = oracle.at(cond, BlockClass::all);
      EXPECT_EQ(str(r.statements[id].warp_evaluations), str(cell.warp_phases)) << name(cond);
      EXPECT_EQ(str(r.statements[id].divergent), str(cell.divergent_warp_phases)) << name(cond);
    };
    expect(t.load_m, Condition::load_M);
    expect(t.load_n, Condition::load_N);
    expect(t.compute, Condition::compute);
    expect(t.store, Condition::store);
    const Geometry g(c);
    const Count partial = in_guard ? oracle.barrier_hazard_blocks * static_cast<Count>(g.phases) : 0;
    EXPECT_EQ(str(r.statements[t.barrier_1].partial_block_executions), str(partial));
    EXPECT_EQ(str(r.statements[t.barrier_2].partial_block_executions), str(partial));
    EXPECT_EQ(str(r.statements[t.barrier_1].blocks_with_partial),
              str(in_guard ? oracle.barrier_hazard_blocks : Count{0}));
    EXPECT_EQ(str(r.statements[t.barrier_1].block_executions),
              str(static_cast<Count>(g.blocks()) * static_cast<Count>(g.phases)));
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
}  // namespace warpdiv::sim::ir
