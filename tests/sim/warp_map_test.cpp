// Warp x phase maps and warp layouts against figures worked out by hand (in the comments), and the
// maps of every class multiplied out against the replay engine's counts.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "tests/oracle/lane_masks.hpp"
#include "sim/errors.hpp"
#include "tests/oracle/replay.hpp"
#include "sim/warp_map.hpp"

namespace warpdiv::sim {
namespace {

using BC = BlockClass;
using C = Condition;
using O = WarpOutcome;

RepresentativeBlock find_block(const Geometry& g, BC k) {
  for (const RepresentativeBlock& b : representative_blocks(g))
    if (b.block_class == k) return b;
  ADD_FAILURE() << "no block of class " << name(k);
  return {};
}

WarpPhaseMap lecture_map(C c, BC k) {
  const Geometry g(LaunchConfig::square(100));
  const WarpLaneTable lanes(g);
  return warp_phase_map(g, lanes, c, find_block(g, k), phase_columns(g, 8));
}

TEST(WarpOutcome, FromMasks) {
  EXPECT_EQ(classify_warp(0xF, 0xF), O::uniform_true);
  EXPECT_EQ(classify_warp(0x0, 0xF), O::uniform_false);
  EXPECT_EQ(classify_warp(0x3, 0xF), O::divergent);
}

TEST(WarpLayouts, LectureWarpsAreRowPairs) {
  // T = 16, S = 32: warp w holds rows ty = 2w and 2w + 1, tx 0..15.
  const auto layouts = warp_layouts(Geometry(LaunchConfig::square(100)));
  ASSERT_EQ(layouts.size(), 8u);
  EXPECT_EQ(layouts[0], (WarpLayout{0, 32, 0, 0, 15, 1}));
  EXPECT_EQ(layouts[3], (WarpLayout{3, 32, 0, 6, 15, 7}));
  EXPECT_EQ(layouts[7], (WarpLayout{7, 32, 0, 14, 15, 15}));
}

TEST(WarpLayouts, WarpsCrossRowsAndTheLastIsPartial) {
  // T = 12, S = 32: 144 threads, 5 warps. Warp 0 = threads 0..31; 31 = 2*12 + 7 -> (tx 7, ty 2).
  // Warp 1 = 32..63: 32 = 2*12 + 8 -> (8, 2); 63 = 5*12 + 3 -> (3, 5).
  // Warp 4 = 128..143 (16 lanes): 128 = 10*12 + 8 -> (8, 10); 143 -> (11, 11).
  const auto layouts = warp_layouts(Geometry(LaunchConfig::shape(50, 50, 50, 12)));
  ASSERT_EQ(layouts.size(), 5u);
  EXPECT_EQ(layouts[0], (WarpLayout{0, 32, 0, 0, 7, 2}));
  EXPECT_EQ(layouts[1], (WarpLayout{1, 32, 8, 2, 3, 5}));
  EXPECT_EQ(layouts[4], (WarpLayout{4, 16, 8, 10, 11, 11}));
}

TEST(WarpLayouts, WarpsSmallerThanARow) {
  // T = 32, S = 16: each row of 32 threads is two warps; warp 5 = row 2, tx 16..31.
  const auto layouts = warp_layouts(Geometry(LaunchConfig::shape(64, 64, 64, 32, 16)));
  ASSERT_EQ(layouts.size(), 64u);
  EXPECT_EQ(layouts[5], (WarpLayout{5, 16, 16, 2, 31, 2}));
}

TEST(PhaseColumns, EveryPhaseWhenFew) {
  const auto columns = phase_columns(Geometry(LaunchConfig::square(100)), 8);  // 7 phases
  ASSERT_EQ(columns.size(), 7u);
  EXPECT_EQ(columns[0], (PhaseColumn{0, 0, false}));
  EXPECT_EQ(columns[6], (PhaseColumn{6, 6, false}));
}

TEST(PhaseColumns, NotLastAndLastWhenMany) {
  // 2^31 - 1 = 32 * 67108863 + 31, so ceil(K / 32) = 67108864 phases: 0 .. 67108862 and 67108863.
  const auto columns = phase_columns(Geometry(LaunchConfig::square(2147483647, 32)), 8);
  ASSERT_EQ(columns.size(), 2u);
  EXPECT_EQ(columns[0], (PhaseColumn{0, 67108862, false}));
  EXPECT_EQ(columns[1], (PhaseColumn{67108863, 67108863, false}));
  EXPECT_EQ(columns[0].phases(), 67108863);
  EXPECT_THROW(phase_columns(Geometry(LaunchConfig::square(100)), 1), InvalidInput);
}

TEST(RepresentativeBlocks, OnePerClassThatExists) {
  const auto lecture = representative_blocks(Geometry(LaunchConfig::square(100)));  // grid 7 x 7
  ASSERT_EQ(lecture.size(), 4u);
  EXPECT_EQ(lecture[0].block_class, BC::interior);
  EXPECT_EQ(lecture[1].block_class, BC::right_edge);
  EXPECT_EQ(lecture[1].bx, 6);
  EXPECT_EQ(lecture[1].by, 0);
  EXPECT_EQ(lecture[2].block_class, BC::bottom_edge);
  EXPECT_EQ(lecture[2].bx, 0);
  EXPECT_EQ(lecture[2].by, 6);
  EXPECT_EQ(lecture[3].block_class, BC::corner);
  // One block: only the corner. One block-row of 3 (L = 40, T = 16): bottom_edge and corner.
  const auto single = representative_blocks(Geometry(LaunchConfig::square(5)));
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0].block_class, BC::corner);
  const auto row = representative_blocks(Geometry(LaunchConfig::shape(5, 40, 40, 16)));
  ASSERT_EQ(row.size(), 2u);
  EXPECT_EQ(row[0].block_class, BC::bottom_edge);
  EXPECT_EQ(row[1].block_class, BC::corner);
  EXPECT_EQ(row[1].bx, 2);
}

TEST(WarpPhaseMap, LectureLoadMType1) {
  // Interior block: rows all in range; phases 0..5 load every column of M (p*16 + 15 < 100);
  // phase 6 loads tx < 4 only (96 + tx < 100), splitting all 8 warps.
  const WarpPhaseMap map = lecture_map(C::load_M, BC::interior);
  ASSERT_EQ(map.warps, 8);
  ASSERT_EQ(map.columns.size(), 7u);
  for (int w = 0; w < 8; ++w) {
    for (std::size_t p = 0; p < 6; ++p) EXPECT_EQ(map.at(w, p), O::uniform_true) << w << " " << p;
    EXPECT_EQ(map.at(w, 6), O::divergent) << w;
  }
}

TEST(WarpPhaseMap, LectureLoadMType2) {
  // Bottom block-row: Row = 96 + ty < 100 holds for ty < 4, i.e. warps 0 and 1. Warps 2..7 never
  // load; warps 0 and 1 diverge only in the last phase.
  const WarpPhaseMap map = lecture_map(C::load_M, BC::bottom_edge);
  for (int w = 0; w < 8; ++w) {
    for (std::size_t p = 0; p < 7; ++p) {
      const O expected = w >= 2 ? O::uniform_false : p == 6 ? O::divergent : O::uniform_true;
      EXPECT_EQ(map.at(w, p), expected) << w << " " << p;
    }
  }
}

TEST(WarpPhaseMap, LectureLoadNRightColumn) {
  // Right block-column: Col = 96 + tx < 100 splits every warp while p*16 + ty < 100 holds for all
  // rows (phases 0..5); in phase 6 only ty < 4 (warps 0, 1) load, still split; warps 2..7 are
  // uniformly false. 6 * 8 + 2 = 50 per block, as in the lecture exercise.
  for (BC k : {BC::right_edge, BC::corner}) {
    const WarpPhaseMap map = lecture_map(C::load_N, k);
    for (int w = 0; w < 8; ++w) {
      for (std::size_t p = 0; p < 6; ++p) EXPECT_EQ(map.at(w, p), O::divergent);
      EXPECT_EQ(map.at(w, 6), w < 2 ? O::divergent : O::uniform_false) << name(k) << " " << w;
    }
  }
}

TEST(WarpPhaseMap, StoreIsOneColumn) {
  // Corner: Row < 100 and Col < 100 hold for ty < 4 and tx < 4: warps 0 and 1 split, 2..7 idle.
  const WarpPhaseMap map = lecture_map(C::store, BC::corner);
  ASSERT_EQ(map.columns.size(), 1u);
  EXPECT_TRUE(map.columns[0].once_per_warp);
  for (int w = 0; w < 8; ++w)
    EXPECT_EQ(map.at(w, 0), w < 2 ? O::divergent : O::uniform_false) << w;
  EXPECT_EQ(lecture_map(C::store, BC::interior).at(5, 0), O::uniform_true);
}

TEST(WarpPhaseMap, HugeSizeStaysSmall) {
  // 2^31 - 1 cube, T = 32: K - 67108863 * 32 = 31, so the last phase loads tx < 31 of M in an
  // interior block: every warp (one row of 32) diverges there, never before.
  const Geometry g(LaunchConfig::square(2147483647, 32));
  const WarpLaneTable lanes(g);
  const WarpPhaseMap map =
      warp_phase_map(g, lanes, C::load_M, find_block(g, BC::interior), phase_columns(g, 8));
  ASSERT_EQ(map.outcomes.size(), 32u * 2u);
  for (int w = 0; w < 32; ++w) {
    EXPECT_EQ(map.at(w, 0), O::uniform_true);
    EXPECT_EQ(map.at(w, 1), O::divergent);
  }
}

TEST(WarpPhaseMap, RefusesAColumnThatMixesOutcomes) {
  const Geometry g(LaunchConfig::square(100));
  const WarpLaneTable lanes(g);
  EXPECT_THROW(warp_phase_map(g, lanes, C::load_M, find_block(g, BC::interior), {{0, 6, false}}),
               InvalidInput);
  EXPECT_THROW(warp_phase_map(g, lanes, C::load_M, find_block(g, BC::interior), {{5, 7, false}}),
               InvalidInput);
}

// Multiplying each class's map out (blocks of the class x phases of a column x divergent warps)
// must give the replay's count, for every condition and class, with all phases or with the
// two-column summary.
TEST(WarpPhaseMap, MultipliedOutMatchesTheReplay) {
  std::mt19937 random(20240611);
  const int warp_sizes[] = {1, 4, 16, 32, 64};
  for (int trial = 0; trial < 300; ++trial) {
    const int tile = 1 + static_cast<int>(random() % 32);
    const auto size = [&] { return static_cast<std::int64_t>(1 + random() % (3 * tile + 4)); };
    const LaunchConfig config =
        LaunchConfig::shape(size(), size(), size(), tile, warp_sizes[random() % std::size(warp_sizes)]);
    SCOPED_TRACE(describe(config));
    const Geometry g(config);
    const WarpLaneTable lanes(g);
    const DivergenceResult expected = replay(config);
    for (std::int64_t max_columns : {std::int64_t{2}, std::int64_t{64}}) {
      const auto columns = phase_columns(g, max_columns);
      for (C c : kConditions) {
        Count total_divergent = 0;
        for (const RepresentativeBlock& block : representative_blocks(g)) {
          const WarpPhaseMap map = warp_phase_map(g, lanes, c, block, columns);
          Count per_block = 0;
          for (int w = 0; w < map.warps; ++w)
            for (std::size_t i = 0; i < map.columns.size(); ++i)
              if (map.at(w, i) == O::divergent)
                per_block += static_cast<Count>(map.columns[i].phases());
          const Count blocks = expected.at(c, block.block_class).blocks;
          EXPECT_EQ(to_decimal(per_block * blocks),
                    to_decimal(expected.at(c, block.block_class).divergent_warp_phases))
              << name(c) << "/" << name(block.block_class);
          total_divergent += per_block * blocks;
        }
        EXPECT_EQ(to_decimal(total_divergent),
                  to_decimal(expected.at(c, BC::all).divergent_warp_phases));
      }
    }
  }
}

}  // namespace
}  // namespace warpdiv::sim
