// The HTML report's warp x phase maps, from the class engine's iteration classes of the lecture
// source (analysis::lecture_warp_maps), against figures worked out by hand (in the comments) and
// against the retired hand-written model (tests/oracle/): its maps cell by cell and its replay's
// counts, each class's map multiplied out.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>

#include "analysis/lecture/lecture_source.hpp"
#include "analysis/lecture/warp_map.hpp"
#include "tests/oracle/lane_masks.hpp"
#include "tests/oracle/replay.hpp"

namespace warpdiv::sim {

// The lecture's schema (its launch, checks, block classes and table), which this oracle checks.
using namespace ::warpdiv::lecture;
namespace {

using BC = BlockClass;
using C = Condition;
using O = WarpOutcome;

WarpPhaseMap find_map(const std::vector<WarpPhaseMap>& maps, C c, const RepresentativeBlock& block) {
  for (const WarpPhaseMap& m : maps)
    if (m.condition == c && m.block.block_class == block.block_class) {
      EXPECT_EQ(m.block.bx, block.bx);
      EXPECT_EQ(m.block.by, block.by);
      return m;
    }
  ADD_FAILURE() << "no map of " << name(c) << " for class " << name(block.block_class);
  return {};
}

WarpPhaseMap lecture_map(C c, BC k, const LaunchConfig& config = LaunchConfig::square(100)) {
  const Geometry g(config);
  for (const RepresentativeBlock& b : representative_blocks(g))
    if (b.block_class == k) return find_map(analysis::lecture_warp_maps(config, phase_columns(g, 8)), c, b);
  ADD_FAILURE() << "no block of class " << name(k);
  return {};
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
  for (int w = 0; w < 8; ++w) EXPECT_EQ(map.at(w, 0), w < 2 ? O::divergent : O::uniform_false) << w;
  EXPECT_EQ(lecture_map(C::store, BC::interior).at(5, 0), O::uniform_true);
}

TEST(WarpPhaseMap, HugeSizeStaysSmall) {
  // 2^31 - 1 cube, T = 32: K - 67108863 * 32 = 31, so the last phase loads tx < 31 of M in an
  // interior block: every warp (one row of 32) diverges there, never before.
  const WarpPhaseMap map = lecture_map(C::load_M, BC::interior, LaunchConfig::square(2147483647, 32));
  ASSERT_EQ(map.outcomes.size(), 32u * 2u);
  for (int w = 0; w < 32; ++w) {
    EXPECT_EQ(map.at(w, 0), O::uniform_true);
    EXPECT_EQ(map.at(w, 1), O::divergent);
  }
}

TEST(WarpPhaseMap, RefusesAColumnThatMixesOutcomes) {
  // Phases 0..5 and phase 6 of an interior block differ (uniform true, then divergent): a column
  // holding both would mislead.
  const LaunchConfig config = LaunchConfig::square(100);
  EXPECT_THROW(analysis::lecture_warp_maps(config, {{0, 6, false}}), std::logic_error);
  EXPECT_THROW(analysis::lecture_warp_maps(config, {{5, 6, false}}), std::logic_error);
  EXPECT_NO_THROW(analysis::lecture_warp_maps(config, {{0, 5, false}, {6, 6, false}}));
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
      const std::vector<WarpPhaseMap> maps = analysis::lecture_warp_maps(config, columns);
      for (C c : kConditions) {
        Count total_divergent = 0;
        for (const RepresentativeBlock& block : representative_blocks(g)) {
          const WarpPhaseMap map = find_map(maps, c, block);
          // The hand-written model's map of the same block, cell by cell.
          const WarpPhaseMap oracle = warp_phase_map(g, lanes, c, block, columns);
          EXPECT_EQ(map.columns, oracle.columns);
          EXPECT_TRUE(map.outcomes == oracle.outcomes) << name(c) << "/" << name(block.block_class);
          Count per_block = 0;
          for (int w = 0; w < map.warps; ++w)
            for (std::size_t i = 0; i < map.columns.size(); ++i)
              if (map.at(w, i) == O::divergent) per_block += static_cast<Count>(map.columns[i].phases());
          const Count blocks = expected.at(c, block.block_class).blocks;
          EXPECT_EQ(to_decimal(per_block * blocks),
                    to_decimal(expected.at(c, block.block_class).divergent_warp_phases))
              << name(c) << "/" << name(block.block_class);
          total_divergent += per_block * blocks;
        }
        EXPECT_EQ(to_decimal(total_divergent), to_decimal(expected.at(c, BC::all).divergent_warp_phases));
      }
    }
  }
}

TEST(WarpPhaseMap, LargestCubesMatchTheHandWrittenModel) {
  // The 2^31 - 1 cubes (T = 1, 7, 16, 32; at T = 32 also one-lane warps: 1024 rows per map):
  // the two-column maps of every class, cell by cell.
  for (const LaunchConfig& config :
       {LaunchConfig::square(2147483647, 1), LaunchConfig::square(2147483647, 7),
        LaunchConfig::square(2147483647, 16), LaunchConfig::square(2147483647, 32),
        LaunchConfig::square(2147483647, 32, 1)}) {
    SCOPED_TRACE(describe(config));
    const Geometry g(config);
    const WarpLaneTable lanes(g);
    const auto columns = phase_columns(g, 8);
    const auto maps = analysis::lecture_warp_maps(config, columns);
    EXPECT_EQ(maps.size(), representative_blocks(g).size() * kConditions.size());
    for (const RepresentativeBlock& block : representative_blocks(g))
      for (C c : kConditions)
        EXPECT_TRUE(find_map(maps, c, block).outcomes == warp_phase_map(g, lanes, c, block, columns).outcomes)
            << name(c) << "/" << name(block.block_class);
  }
}

}  // namespace
}  // namespace warpdiv::sim
