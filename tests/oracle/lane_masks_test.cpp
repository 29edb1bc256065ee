#include <gtest/gtest.h>

#include "tests/oracle/lane_masks.hpp"
#include "analysis/lecture/conditions.hpp"

namespace warpdiv::sim {
namespace {

// The table's masks must equal the per-lane definition, thread by thread.
TEST(WarpLaneTable, MasksMatchPerLaneDefinition) {
  for (int t : {1, 3, 6, 7, 10, 16}) {
    for (int s : {1, 8, 32, 64}) {
      LaunchConfig c;
      c.rows = 2 * t - 1;
      c.inner = t + 2;
      c.cols = 2 * t - 3 > 0 ? 2 * t - 3 : 1;
      c.tile = t;
      c.warp_size = s;
      const Geometry g(c);
      const WarpLaneTable table(g);
      for (std::int64_t by = 0; by < g.grid_y; ++by)
        for (std::int64_t bx = 0; bx < g.grid_x; ++bx)
          for (std::int64_t p = 0; p < g.phases; ++p)
            for (Condition cond : kConditions)
              for (int w = 0; w < g.warps_per_block; ++w) {
                LaneMask expected = 0;
                for (int lane = 0; lane < s; ++lane) {
                  const int thread = w * s + lane;
                  if (thread >= t * t) break;
                  if (condition_holds(cond, c, bx, by, p, thread % t, thread / t))
                    expected |= LaneMask{1} << lane;
                }
                ASSERT_EQ(table.condition_mask(cond, bx, by, p, w), expected)
                    << "T=" << t << " S=" << s << " w=" << w;
              }
    }
  }
}

TEST(WarpLaneTable, PartialWarpHasOnlyExistingLanes) {
  // T = 6, S = 32: warp 1 holds threads 32..35 -> lanes 0..3.
  LaunchConfig c = LaunchConfig::square(6, 6);
  const WarpLaneTable table{Geometry(c)};
  EXPECT_EQ(table.warps(), 2);
  EXPECT_EQ(table.existing(0), 0xFFFFFFFFull);
  EXPECT_EQ(table.existing(1), 0xFull);
  // S = 64 with T = 8: one full 64-lane warp.
  const WarpLaneTable wide{Geometry(LaunchConfig::square(8, 8, 64))};
  EXPECT_EQ(wide.existing(0), ~0ull);
}

TEST(Conditions, DivergenceNeedsDisagreement) {
  EXPECT_FALSE(is_divergent(0, 0xF));    // all false
  EXPECT_FALSE(is_divergent(0xF, 0xF));  // all true
  EXPECT_TRUE(is_divergent(0x1, 0xF));
}

TEST(Conditions, BlockClasses) {
  const Geometry g(LaunchConfig::square(100));  // 7 x 7
  EXPECT_EQ(classify_block(g, 0, 0), BlockClass::interior);
  EXPECT_EQ(classify_block(g, 6, 0), BlockClass::right_edge);
  EXPECT_EQ(classify_block(g, 0, 6), BlockClass::bottom_edge);
  EXPECT_EQ(classify_block(g, 6, 6), BlockClass::corner);
  // A single block is in the last row and the last column.
  const Geometry one(LaunchConfig::square(5));
  EXPECT_EQ(classify_block(one, 0, 0), BlockClass::corner);
  EXPECT_EQ(name(BlockClass::bottom_edge), "bottom_edge");
  EXPECT_EQ(condition_from_name("load_N"), Condition::load_N);
}

}  // namespace
}  // namespace warpdiv::sim
