// The replay engine against figures worked out by hand (in the comments) and from the lecture.
#include <gtest/gtest.h>

#include "sim/support/errors.hpp"
#include "tests/oracle/replay.hpp"

namespace warpdiv::sim {
namespace {

using BC = BlockClass;
using C = Condition;

// Expects (blocks, warps, warp_phases, divergent) of one cell.
void expect_cell(const DivergenceResult& r, C c, BC k, Count blocks, Count warps, Count phases,
                 Count divergent) {
  SCOPED_TRACE(name(c) + "/" + name(k));
  const ClassCounts& cell = r.at(c, k);
  EXPECT_EQ(to_decimal(cell.blocks), to_decimal(blocks));
  EXPECT_EQ(to_decimal(cell.warps), to_decimal(warps));
  EXPECT_EQ(to_decimal(cell.warp_phases), to_decimal(phases));
  EXPECT_EQ(to_decimal(cell.divergent_warp_phases), to_decimal(divergent));
}

Count divergent(const DivergenceResult& r, C c, BC k) { return r.at(c, k).divergent_warp_phases; }
Count phases(const DivergenceResult& r, C c, BC k) { return r.at(c, k).warp_phases; }

// Lecture: 100 x 100, 16 x 16 tiles, grid 7 x 7, 8 warps of two rows each, 7 phases.
TEST(Replay, LectureLoadMByType) {
  const DivergenceResult r = replay(LaunchConfig::square(100));
  // Type 1 (42 blocks with all rows in range): only the last phase (96 + tx < 100) splits every
  // warp: 42 * 8 = 336 of 42 * 8 * 7 = 2352.
  EXPECT_EQ(divergent(r, C::load_M, BC::interior) + divergent(r, C::load_M, BC::right_edge), 336u);
  EXPECT_EQ(phases(r, C::load_M, BC::interior) + phases(r, C::load_M, BC::right_edge), 2352u);
  // Type 2 (7 bottom blocks, rows 96..99 = ty < 4 = warps 0 and 1): 2 warps in the last phase,
  // 7 * 2 = 14 of 7 * 8 * 7 = 392.
  EXPECT_EQ(divergent(r, C::load_M, BC::bottom_edge) + divergent(r, C::load_M, BC::corner), 14u);
  EXPECT_EQ(phases(r, C::load_M, BC::bottom_edge) + phases(r, C::load_M, BC::corner), 392u);
  expect_cell(r, C::load_M, BC::interior, 36, 288, 2016, 288);
  expect_cell(r, C::load_M, BC::right_edge, 6, 48, 336, 48);
  expect_cell(r, C::load_M, BC::bottom_edge, 6, 48, 336, 12);
  expect_cell(r, C::load_M, BC::corner, 1, 8, 56, 2);
  expect_cell(r, C::load_M, BC::all, 49, 392, 2744, 350);
}

TEST(Replay, LectureLoadNExercise) {
  // The exercise: all divergence is in the rightmost block-column (Col = 96 + tx < 100 splits
  // every warp): phases 0..5 give 8 warps, phase 6 (ty < 4) only warps 0 and 1: 50 per block,
  // 7 blocks = 350 of 2744.
  const DivergenceResult r = replay(LaunchConfig::square(100));
  expect_cell(r, C::load_N, BC::all, 49, 392, 2744, 350);
  EXPECT_EQ(divergent(r, C::load_N, BC::right_edge) + divergent(r, C::load_N, BC::corner), 350u);
  EXPECT_EQ(divergent(r, C::load_N, BC::interior), 0u);
  EXPECT_EQ(divergent(r, C::load_N, BC::bottom_edge), 0u);
}

TEST(Replay, LectureComputeStoreAndBarrier) {
  const DivergenceResult r = replay(LaunchConfig::square(100));
  // compute: right_edge blocks split all 8 warps every phase (6 * 8 * 7 = 336); the corner splits
  // warps 0 and 1 (2 * 7 = 14); bottom_edge warps are uniformly in or out.
  expect_cell(r, C::compute, BC::right_edge, 6, 48, 336, 336);
  expect_cell(r, C::compute, BC::corner, 1, 8, 56, 14);
  expect_cell(r, C::compute, BC::bottom_edge, 6, 48, 336, 0);
  expect_cell(r, C::compute, BC::all, 49, 392, 2744, 350);
  // store: once per warp: 6 * 8 + 2 = 50 of 392.
  expect_cell(r, C::store, BC::all, 49, 392, 392, 50);
  // 7 blocks in the last column + 7 in the last row - the corner = 13 of 49.
  EXPECT_EQ(r.barrier_hazard_blocks, 13u);
}

// The lecture's toy: 3 x 3 matrices, T = 2: grid 2 x 2, 2 phases, one partial warp of 4 lanes.
TEST(Replay, LectureToy3x3Tile2) {
  const DivergenceResult r = replay(LaunchConfig::square(3, 2));
  // load_M: top blocks: phase 0 all in; phase 1 (2 + tx < 3 -> tx = 0) splits: 1 of 2.
  // bottom blocks: rows 2, 3 -> ty = 0 only: both phases split: 2 of 2.
  expect_cell(r, C::load_M, BC::interior, 1, 1, 2, 1);
  expect_cell(r, C::load_M, BC::right_edge, 1, 1, 2, 1);
  expect_cell(r, C::load_M, BC::bottom_edge, 1, 1, 2, 2);
  expect_cell(r, C::load_M, BC::corner, 1, 1, 2, 2);
  expect_cell(r, C::load_M, BC::all, 4, 4, 8, 6);
  // load_N mirrors it by column.
  expect_cell(r, C::load_N, BC::interior, 1, 1, 2, 1);
  expect_cell(r, C::load_N, BC::bottom_edge, 1, 1, 2, 1);
  expect_cell(r, C::load_N, BC::right_edge, 1, 1, 2, 2);
  expect_cell(r, C::load_N, BC::corner, 1, 1, 2, 2);
  // compute: every block but the interior has threads outside P: 3 blocks * 2 phases.
  expect_cell(r, C::compute, BC::interior, 1, 1, 2, 0);
  expect_cell(r, C::compute, BC::all, 4, 4, 8, 6);
  expect_cell(r, C::store, BC::all, 4, 4, 4, 3);
  EXPECT_EQ(r.barrier_hazard_blocks, 3u);
}

TEST(Replay, OneByOne) {
  // T = 1: one thread, one 1-lane warp: nothing can diverge.
  const DivergenceResult t1 = replay(LaunchConfig::square(1, 1));
  for (C c : kConditions) expect_cell(t1, c, BC::corner, 1, 1, 1, 0);
  EXPECT_EQ(t1.barrier_hazard_blocks, 0u);
  // T = 16: 8 warps; only thread (0, 0) passes any check, so warp 0 splits and warps 1..7 are
  // uniformly false: 1 of 8 for every check.
  const DivergenceResult t16 = replay(LaunchConfig::square(1, 16));
  for (C c : kConditions) expect_cell(t16, c, BC::corner, 1, 8, 8, 1);
  EXPECT_EQ(t16.barrier_hazard_blocks, 1u);
}

TEST(Replay, MultiplesOfTileNeverDiverge) {
  for (int t : {1, 2, 4, 8, 16, 32}) {
    for (std::int64_t m : {1, 2, 3}) {
      const DivergenceResult r = replay(LaunchConfig::shape(m * t, 2 * t, 3 * t, t));
      for (C c : kConditions) EXPECT_EQ(divergent(r, c, BC::all), 0u) << "T=" << t;
      EXPECT_EQ(r.barrier_hazard_blocks, 0u);
    }
  }
}

TEST(Replay, PartialWarpTile6) {
  // T = 6: 36 threads = warp 0 (32 lanes) + warp 1 (4 lanes: ty = 5, tx = 2..5).
  // W = 5: warp 0 mixes tx = 5 lanes (false) with tx < 5 lanes (true): divergent; warp 1 is all
  // ty = 5 (row 5 >= 5): uniformly false. 1 of 2 for every check.
  const DivergenceResult r = replay(LaunchConfig::square(5, 6));
  for (C c : kConditions) expect_cell(r, c, BC::corner, 1, 2, 2, 1);
  // J = K = 6, L = 5, S = 16: warps 0 (16), 1 (16), 2 (4 lanes, tx 2..5). Col < 5 splits all three,
  // the partial one too (tx 2..4 in, 5 out); load_M has no bound in play.
  const DivergenceResult s16 = replay(LaunchConfig::shape(6, 6, 5, 6, 16));
  expect_cell(s16, C::compute, BC::corner, 1, 3, 3, 3);
  expect_cell(s16, C::store, BC::corner, 1, 3, 3, 3);
  expect_cell(s16, C::load_N, BC::corner, 1, 3, 3, 3);
  expect_cell(s16, C::load_M, BC::corner, 1, 3, 3, 0);
}

TEST(Replay, PartialWarpTile10) {
  // T = 10: 100 threads = 3 full warps + warp 3 (threads 96..99: ty = 9). W = 7: warps 0..2 each
  // hold rows with tx >= 7 and tx < 7 (split); warp 3 (row 9) is uniformly false: 3 of 4.
  const DivergenceResult r = replay(LaunchConfig::square(7, 10));
  for (C c : kConditions) expect_cell(r, c, BC::corner, 1, 4, 4, 3);
}

TEST(Replay, PartialWarpTile12) {
  // T = 12: 144 threads = 4 full warps + warp 4 (16 lanes: ty 10 tx 8..11, ty 11). W = 9:
  // warps 0..3 hold rows 0..10 and tx 9..11 lanes (split), warp 3 includes row 8 (in) and rows
  // 9, 10 (out); warp 4 is rows 10, 11: uniformly false. 4 of 5.
  const DivergenceResult r = replay(LaunchConfig::square(9, 12));
  for (C c : kConditions) expect_cell(r, c, BC::corner, 1, 5, 5, 4);
}

TEST(Replay, Rectangular20x40x50) {
  // J = 20, K = 40, L = 50, T = 16: grid 4 x 2, 3 phases, 8 warps of two rows.
  const DivergenceResult r = replay(LaunchConfig::shape(20, 40, 50, 16));
  // load_M: last phase (32 + tx < 40) splits every warp with rows in range: top blocks 8 each,
  // bottom blocks (16 + ty < 20: warps 0, 1) 2 each.
  expect_cell(r, C::load_M, BC::interior, 3, 24, 72, 24);
  expect_cell(r, C::load_M, BC::right_edge, 1, 8, 24, 8);
  expect_cell(r, C::load_M, BC::bottom_edge, 3, 24, 72, 6);
  expect_cell(r, C::load_M, BC::corner, 1, 8, 24, 2);
  expect_cell(r, C::load_M, BC::all, 8, 64, 192, 40);
  // load_N: columns 48 + tx < 50 split every warp in the last block-column, except phase 2's
  // warps 4..7 (32 + ty < 40 false for ty >= 8): 8 + 8 + 4 = 20 per block.
  expect_cell(r, C::load_N, BC::interior, 3, 24, 72, 0);
  expect_cell(r, C::load_N, BC::bottom_edge, 3, 24, 72, 0);
  expect_cell(r, C::load_N, BC::right_edge, 1, 8, 24, 20);
  expect_cell(r, C::load_N, BC::corner, 1, 8, 24, 20);
  // compute: right_edge all 8 warps each phase (24); corner warps 0, 1 each phase (6).
  expect_cell(r, C::compute, BC::right_edge, 1, 8, 24, 24);
  expect_cell(r, C::compute, BC::corner, 1, 8, 24, 6);
  expect_cell(r, C::compute, BC::all, 8, 64, 192, 30);
  expect_cell(r, C::store, BC::all, 8, 64, 64, 10);
  // Last column (2) + last row (4) - corner (1) = 5 blocks.
  EXPECT_EQ(r.barrier_hazard_blocks, 5u);
}

TEST(Replay, WarpSize64Lecture) {
  // S = 64: 4 warps of four rows per block. load_M: Type 1: 42 * 4 in the last phase = 168;
  // Type 2 (rows 96..99 = warp 0): 7. 175 of 49 * 4 * 7 = 1372. load_N mirrors: right column
  // blocks 6 phases * 4 warps + warp 0 in the last = 25, * 7 = 175.
  const DivergenceResult r = replay(LaunchConfig::square(100, 16, 64));
  expect_cell(r, C::load_M, BC::all, 49, 196, 1372, 175);
  EXPECT_EQ(divergent(r, C::load_M, BC::interior) + divergent(r, C::load_M, BC::right_edge), 168u);
  expect_cell(r, C::load_N, BC::all, 49, 196, 1372, 175);
  EXPECT_EQ(r.barrier_hazard_blocks, 13u);
}

TEST(Replay, RefusesLaunchesAboveTheLimit) {
  ReplayOptions options;
  options.max_warp_phases = 1000;
  // 100^3 with T = 16 has 2744 warp-phases per condition.
  EXPECT_THROW(replay(LaunchConfig::square(100), options), InvalidInput);
  options.max_warp_phases = 2744;
  EXPECT_NO_THROW(replay(LaunchConfig::square(100), options));
}

TEST(Replay, ThreadCountDoesNotChangeTheCounts) {
  // 1500 x 1500, T = 16: 94 x 94 blocks * 8 warps * 94 phases = 6,644,672 warp-phases, above the
  // size at which the replay starts extra threads. Bands of block-rows must add up the same for
  // any number of workers, more workers than block-rows included (J = 32: two block-rows of
  // 1250 blocks, 25,000,000 warp-phases).
  for (const LaunchConfig& c : {LaunchConfig::square(1500), LaunchConfig::shape(32, 20000, 20000, 16)}) {
    ReplayOptions one;
    one.threads = 1;
    const DivergenceResult reference = replay(c, one);
    for (unsigned threads : {2u, 3u, 7u}) {
      ReplayOptions many;
      many.threads = threads;
      EXPECT_TRUE(replay(c, many) == reference) << describe(c) << " threads " << threads;
    }
  }
  // Hand check of the threaded run: 1500 = 93 * 16 + 12, so load_M's last phase (1488 + tx <
  // 1500) splits every warp whose rows are in range: 93 * 94 blocks * 8 warps = 69936, plus the
  // bottom row's rows 1488..1499 = ty < 12 = warps 0..5: 94 * 6 = 564. Total 70500.
  ReplayOptions two;
  two.threads = 2;
  EXPECT_EQ(replay(LaunchConfig::square(1500), two).at(C::load_M, BC::all).divergent_warp_phases, 70500u);
}

TEST(Replay, RejectsInvalidConfigs) {
  EXPECT_THROW(replay(LaunchConfig::shape(0, 1, 1, 16)), InvalidInput);
  EXPECT_THROW(replay(LaunchConfig::shape(1, 1, 1, 33)), InvalidInput);
  EXPECT_THROW(replay(LaunchConfig::shape(1, 1, 1, 16, 48)), InvalidInput);
  EXPECT_THROW(replay(LaunchConfig::shape(1, 1, 1, 16, 128)), InvalidInput);
}

}  // namespace
}  // namespace warpdiv::sim
