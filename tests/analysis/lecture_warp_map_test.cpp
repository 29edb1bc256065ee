// Warp layouts, phase columns and representative blocks (the geometry of the lecture's warp x phase
// maps) against figures worked out by hand (in the comments). The maps themselves:
// tests/analysis/lecture_maps_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "sim/support/errors.hpp"
#include "analysis/lecture/warp_map.hpp"

namespace warpdiv::sim {

// The lecture's schema (its launch, checks, block classes and table), which this oracle checks.
using namespace ::warpdiv::lecture;
namespace {

using BC = BlockClass;
using C = Condition;
using O = WarpOutcome;

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

}  // namespace
}  // namespace warpdiv::sim
