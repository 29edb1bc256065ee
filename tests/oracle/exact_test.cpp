// The exact engine: hand-derived figures (in the comments), the lecture cases, huge launches whose
// counts exceed 64 bits, and agreement with the replay on more than 10,000 random launches.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "sim/support/errors.hpp"
#include "tests/oracle/exact.hpp"
#include "tests/oracle/replay.hpp"

namespace warpdiv::sim {
namespace {

using BC = BlockClass;
using C = Condition;

// Compares as decimal text so that a failure prints readable 128-bit values.
void expect_cell(const DivergenceResult& r, C c, BC k, const char* blocks, const char* warps,
                 const char* phases, const char* divergent) {
  SCOPED_TRACE(name(c) + "/" + name(k));
  const ClassCounts& cell = r.at(c, k);
  EXPECT_EQ(to_decimal(cell.blocks), blocks);
  EXPECT_EQ(to_decimal(cell.warps), warps);
  EXPECT_EQ(to_decimal(cell.warp_phases), phases);
  EXPECT_EQ(to_decimal(cell.divergent_warp_phases), divergent);
}

std::string divergent(const DivergenceResult& r, C c, BC k) {
  return to_decimal(r.at(c, k).divergent_warp_phases);
}

// ---- Lecture and small hand-worked cases (the same figures as tests/oracle/replay_test.cpp) ----

TEST(Exact, LectureExample) {
  // 100 x 100, T = 16: grid 7 x 7, 8 warps of two rows, 7 phases. load_M: Type 1 blocks split
  // every warp in the last phase (96 + tx < 100): 42 * 8 = 336; the bottom row (rows 96..99 =
  // warps 0, 1) 7 * 2 = 14. load_N mirrors it. compute: right_edge every warp every phase
  // (6 * 8 * 7 = 336) + corner warps 0, 1 (2 * 7 = 14). store: 6 * 8 + 2 = 50 of 392.
  const DivergenceResult r = exact(LaunchConfig::square(100));
  expect_cell(r, C::load_M, BC::interior, "36", "288", "2016", "288");
  expect_cell(r, C::load_M, BC::right_edge, "6", "48", "336", "48");
  expect_cell(r, C::load_M, BC::bottom_edge, "6", "48", "336", "12");
  expect_cell(r, C::load_M, BC::corner, "1", "8", "56", "2");
  expect_cell(r, C::load_M, BC::all, "49", "392", "2744", "350");
  expect_cell(r, C::load_N, BC::all, "49", "392", "2744", "350");
  EXPECT_EQ(divergent(r, C::load_N, BC::interior), "0");
  EXPECT_EQ(divergent(r, C::load_N, BC::bottom_edge), "0");
  expect_cell(r, C::compute, BC::right_edge, "6", "48", "336", "336");
  expect_cell(r, C::compute, BC::corner, "1", "8", "56", "14");
  expect_cell(r, C::compute, BC::all, "49", "392", "2744", "350");
  expect_cell(r, C::store, BC::all, "49", "392", "392", "50");
  EXPECT_EQ(r.barrier_hazard_blocks, 13u);  // 7 + 7 - 1 blocks touch the last row or column
  EXPECT_EQ(r.config, LaunchConfig::square(100));
}

TEST(Exact, LectureToy3x3Tile2) {
  // 3 x 3, T = 2: grid 2 x 2, 2 phases, one 4-lane warp. load_M: top blocks split only in phase 1
  // (2 + tx < 3), bottom blocks (row 2 only) in both phases.
  const DivergenceResult r = exact(LaunchConfig::square(3, 2));
  expect_cell(r, C::load_M, BC::interior, "1", "1", "2", "1");
  expect_cell(r, C::load_M, BC::right_edge, "1", "1", "2", "1");
  expect_cell(r, C::load_M, BC::bottom_edge, "1", "1", "2", "2");
  expect_cell(r, C::load_M, BC::corner, "1", "1", "2", "2");
  expect_cell(r, C::load_N, BC::right_edge, "1", "1", "2", "2");
  expect_cell(r, C::load_N, BC::bottom_edge, "1", "1", "2", "1");
  expect_cell(r, C::compute, BC::all, "4", "4", "8", "6");
  expect_cell(r, C::store, BC::all, "4", "4", "4", "3");
  EXPECT_EQ(r.barrier_hazard_blocks, 3u);
}

TEST(Exact, WarpSize64Lecture) {
  // S = 64: 4 warps of four rows. load_M: 42 * 4 in the last phase + 7 bottom blocks * warp 0
  // (rows 96..99) = 175 of 49 * 4 * 7 = 1372.
  const DivergenceResult r = exact(LaunchConfig::square(100, 16, 64));
  expect_cell(r, C::load_M, BC::all, "49", "196", "1372", "175");
  expect_cell(r, C::load_N, BC::all, "49", "196", "1372", "175");
  EXPECT_EQ(r.barrier_hazard_blocks, 13u);
}

TEST(Exact, OneBlockColumnAndOnePhase) {
  // J = 40, K = 10, L = 10, T = 16: grid 1 x 3 (no "not last" block-column), 1 phase (no "not
  // last" phase). 8 warps, warp w = rows 2w, 2w+1. Col < 10 and p*T + tx < 10 are tx < 10, which
  // splits any warp whose rows pass. The last block-row holds rows 32..39: ty < 8 = warps 0..3.
  //   load_M : right_edge 2 blocks * 8 = 16, corner 4: 20 of 24.
  //   load_N : ty < 10 = warps 0..4 (warp 4 = ty 8, 9) split by tx < 10, whatever the row: 5 per
  //            block: right_edge 10, corner 5.
  //   compute: as load_M: 16 + 4. store: the same 20, of 24 warps.
  //   interior and bottom_edge: no blocks. barrier hazard: all 3 blocks (Col < 10 fails).
  const DivergenceResult r = exact(LaunchConfig::shape(40, 10, 10, 16));
  expect_cell(r, C::load_M, BC::interior, "0", "0", "0", "0");
  expect_cell(r, C::load_M, BC::bottom_edge, "0", "0", "0", "0");
  expect_cell(r, C::load_M, BC::right_edge, "2", "16", "16", "16");
  expect_cell(r, C::load_M, BC::corner, "1", "8", "8", "4");
  expect_cell(r, C::load_N, BC::right_edge, "2", "16", "16", "10");
  expect_cell(r, C::load_N, BC::corner, "1", "8", "8", "5");
  expect_cell(r, C::compute, BC::all, "3", "24", "24", "20");
  expect_cell(r, C::store, BC::all, "3", "24", "24", "20");
  EXPECT_EQ(r.barrier_hazard_blocks, 3u);
}

TEST(Exact, PartialWarps) {
  // T = 6, W = 5: warp 0 (32 lanes) mixes tx = 5 (out) with tx < 5; warp 1 (4 lanes, ty = 5) is
  // all out: 1 of 2 for every check.
  const DivergenceResult t6 = exact(LaunchConfig::square(5, 6));
  for (C c : kConditions) expect_cell(t6, c, BC::corner, "1", "2", "2", "1");
  // T = 12, W = 9: warps 0..3 split on tx < 9; warp 4 (rows 10, 11) all out: 4 of 5.
  const DivergenceResult t12 = exact(LaunchConfig::square(9, 12));
  for (C c : kConditions) expect_cell(t12, c, BC::corner, "1", "5", "5", "4");
}

TEST(Exact, MultiplesOfTheTileNeverDiverge) {
  for (int t : {1, 2, 4, 8, 16, 32}) {
    const DivergenceResult r = exact(LaunchConfig::shape(7 * t, 5 * t, 3 * t, t));
    for (C c : kConditions) EXPECT_EQ(divergent(r, c, BC::all), "0") << "T=" << t;
    EXPECT_EQ(r.barrier_hazard_blocks, 0u);
  }
}

// ---- Huge launches: counts above 2^64 = 18446744073709551616 ----

TEST(Exact, Cube2To31Minus1Tile32) {
  // N = 2^31 - 1, T = 32, S = 32. G = ceil(N / 32) = 2^26 block-rows, block-columns and phases;
  // the last one holds N - (G - 1) * 32 = 31 indices. Warp w is row ty = w, lanes tx = 0..31.
  //   blocks: interior (G-1)^2 = 4503599493152769; right_edge = bottom_edge = G-1 = 67108863;
  //           corner 1; all G^2 = 2^52.
  //   warp-phases per phase-loop check: blocks * 32 warps * 2^26 phases = blocks * 2^31:
  //     interior 4503599493152769 * 2^31 = 9671406268686659393421312 (> 2^64),
  //     edges 67108863 * 2^31 = 144115185928372224, corner 2^31, all 2^83 =
  //     9671406556917033397649408. store counts each warp once: all 2^57 = 144115188075855872.
  //   load_M (Row < J && p*T + tx < K): only the last phase splits (tx < 31), in every warp whose
  //     row is in range: 32 per interior / right_edge block, 31 per bottom_edge / corner block
  //     (warp 31 = row 31 is out). interior 32 (G-1)^2 = 144115183780888608,
  //     right_edge 32 (G-1) = 2147483616, bottom_edge 31 (G-1) = 2080374753, corner 31;
  //     all = 32 (G-1) G + 31 G = G (2^31 - 1) = 144115188008747008.
  //   load_N (p*T + ty < K && Col < L): in the last block-column, tx < 31 splits every warp in
  //     the G-1 first phases, and warps 0..30 in the last: 32 (G-1) + 31 = 2^31 - 1 per block;
  //     right_edge (G-1)(2^31-1) = 144115185861263361, corner 2147483647, others 0.
  //   compute (Row < J && Col < L): right_edge all 32 warps every phase = 2^31 per block,
  //     (G-1) 2^31 = 144115185928372224; corner warps 0..30 every phase = 31 * 2^26 = 2080374784;
  //     bottom_edge warps are wholly in or out: 0. all = G (2^31 - 1) again.
  //   store: 32 (G-1) + 31 = 2^31 - 1 of 2^57. barrier hazard: the last row and column, 2G - 1.
  const DivergenceResult r = exact(LaunchConfig::square(2147483647, 32));
  expect_cell(r, C::load_M, BC::interior, "4503599493152769", "144115183780888608",
              "9671406268686659393421312", "144115183780888608");
  expect_cell(r, C::load_M, BC::right_edge, "67108863", "2147483616", "144115185928372224", "2147483616");
  expect_cell(r, C::load_M, BC::bottom_edge, "67108863", "2147483616", "144115185928372224", "2080374753");
  expect_cell(r, C::load_M, BC::corner, "1", "32", "2147483648", "31");
  expect_cell(r, C::load_M, BC::all, "4503599627370496", "144115188075855872", "9671406556917033397649408",
              "144115188008747008");
  expect_cell(r, C::load_N, BC::right_edge, "67108863", "2147483616", "144115185928372224",
              "144115185861263361");
  expect_cell(r, C::load_N, BC::corner, "1", "32", "2147483648", "2147483647");
  EXPECT_EQ(divergent(r, C::load_N, BC::interior), "0");
  EXPECT_EQ(divergent(r, C::load_N, BC::bottom_edge), "0");
  expect_cell(r, C::compute, BC::right_edge, "67108863", "2147483616", "144115185928372224",
              "144115185928372224");
  expect_cell(r, C::compute, BC::corner, "1", "32", "2147483648", "2080374784");
  EXPECT_EQ(divergent(r, C::compute, BC::bottom_edge), "0");
  expect_cell(r, C::compute, BC::all, "4503599627370496", "144115188075855872", "9671406556917033397649408",
              "144115188008747008");
  expect_cell(r, C::store, BC::all, "4503599627370496", "144115188075855872", "144115188075855872",
              "2147483647");
  EXPECT_EQ(to_decimal(r.barrier_hazard_blocks), "134217727");
}

TEST(Exact, Cube2To31Minus1Tile1IsTheLargestCount) {
  // T = 1, S = 1: one single-lane warp per block, N^2 blocks and N phases, N = 2^31 - 1.
  // warp-phases N^3 = 9903520300447984150353281023 (about 2^93); one lane never disagrees with
  // itself: nothing diverges, and every thread is inside P: no barrier hazard.
  const DivergenceResult r = exact(LaunchConfig::square(2147483647, 1, 1));
  for (C c : kConditions) {
    const char* phases = c == C::store ? "4611686014132420609" : "9903520300447984150353281023";
    expect_cell(r, c, BC::all, "4611686014132420609", "4611686014132420609", phases, "0");
  }
  EXPECT_EQ(r.barrier_hazard_blocks, 0u);
}

TEST(Exact, Cube2To31Minus1Tile16) {
  // T = 16, S = 32: G = ceil(N / 16) = 2^27, the last block holds 15 indices. Warp w = rows
  // ty = 2w, 2w+1. In the last block-row ty < 15 leaves warp 7 split (row 14 in, row 15 out).
  // load_M: interior and right_edge: the last phase splits all 8 warps: 8 per block.
  //   bottom_edge and corner: warp 7 splits in each of the G-1 first phases, all 8 warps in the
  //   last: G + 7 per block. interior 8 (G-1)^2 = 144115185928372232,
  //   bottom_edge (G-1)(G+7) = 18014399314788345; all = 8 (G-1) G + G (G+7) = 9 G^2 - G =
  //   162129586451120128. warp-phases: G^2 blocks * 8 warps * G phases = 2^84 =
  //   19342813113834066795298816.
  const DivergenceResult r = exact(LaunchConfig::square(2147483647, 16));
  EXPECT_EQ(divergent(r, C::load_M, BC::interior), "144115185928372232");
  EXPECT_EQ(divergent(r, C::load_M, BC::bottom_edge), "18014399314788345");
  expect_cell(r, C::load_M, BC::all, "18014398509481984", "144115188075855872", "19342813113834066795298816",
              "162129586451120128");
}

TEST(Exact, RejectsInvalidConfigs) {
  EXPECT_THROW(exact(LaunchConfig::shape(0, 1, 1, 16)), InvalidInput);
  EXPECT_THROW(exact(LaunchConfig::shape(1, 2147483648, 1, 16)), InvalidInput);
  EXPECT_THROW(exact(LaunchConfig::shape(1, 1, 1, 33)), InvalidInput);
  EXPECT_THROW(exact(LaunchConfig::shape(1, 1, 1, 16, 48)), InvalidInput);
}

// ---- Agreement with the replay, which visits every warp-phase ----

DivergenceResult expect_engines_agree(const LaunchConfig& c) {
  const DivergenceResult fast = exact(c);
  const DivergenceResult slow = replay(c);
  EXPECT_TRUE(fast == slow) << describe(c);  // every one of the 20 CSV rows and the hazard count
  return fast;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

TEST(ExactProperty, AgreesWithReplayOnTenThousandRandomLaunches) {
  // Every T from 1 to 32 with each warp size 16, 32 and 64, 105 random shapes each (J, K, L from
  // 1 to 4T + 5, so 1 to 5 blocks and phases with any remainder): 32 * 3 * 105 = 10,080 launches.
  // A fixed seed and plain modulo keep the set the same on every standard library.
  // Besides the agreement, each launch's totals against the grid worked out here, and the sample
  // must exercise what the engines could get wrong: launches that diverge and launches with
  // threads outside P (two engines that never found any divergence would agree, and be wrong).
  std::mt19937_64 rng(20240531);
  int diverging = 0, hazardous = 0, launches = 0;
  for (int t = 1; t <= 32; ++t) {
    for (int s : {16, 32, 64}) {
      for (int i = 0; i < 105; ++i) {
        const auto size = [&] { return static_cast<std::int64_t>(1 + rng() % (4 * t + 5)); };
        const std::int64_t j = size(), k = size(), l = size();
        const LaunchConfig c = LaunchConfig::shape(j, k, l, t, s);
        const DivergenceResult r = expect_engines_agree(c);
        // ceil(J/T) * ceil(L/T) blocks of ceil(T^2/S) warps; ceil(K/T) phases; the store once.
        const auto warps = static_cast<Count>(ceil_div(j, t) * ceil_div(l, t) * ceil_div(t * t, s));
        EXPECT_TRUE(r.at(C::load_M, BC::all).warps == warps) << describe(c);
        EXPECT_TRUE(r.at(C::compute, BC::all).warp_phases == warps * static_cast<Count>(ceil_div(k, t)))
            << describe(c);
        EXPECT_TRUE(r.at(C::store, BC::all).warp_phases == warps) << describe(c);
        // Threads outside P exist exactly when J or L is not a multiple of T.
        EXPECT_EQ(r.barrier_hazard_blocks > 0, j % t != 0 || l % t != 0) << describe(c);
        bool diverges = false;
        for (C cond : kConditions) diverges |= r.at(cond, BC::all).divergent_warp_phases > 0;
        diverging += diverges;
        hazardous += r.barrier_hazard_blocks > 0;
        ++launches;
      }
    }
  }
  // J and L are each a multiple of T with chance at most 6/13 (T = 2, sizes 1 .. 13), 4/(4T+5)
  // from T = 6 on; T = 1 (315 launches) has no threads outside P and one-lane warps that never
  // diverge. So most launches have threads outside P, and most of those diverge: well over half
  // of the 10,080 must do each.
  EXPECT_GT(hazardous, launches / 2);
  EXPECT_GT(diverging, launches / 2);
}

TEST(ExactProperty, AgreesWithReplayForSmallWarps) {
  // Warps smaller than a block row (S = 1, 2, 4, 8) cut rows into pieces: every T, every such S.
  std::mt19937_64 rng(7);
  for (int t = 1; t <= 32; ++t)
    for (int s : {1, 2, 4, 8})
      for (int i = 0; i < 10; ++i)
        expect_engines_agree(LaunchConfig::shape(static_cast<std::int64_t>(1 + rng() % (4 * t + 5)),
                                                 static_cast<std::int64_t>(1 + rng() % (4 * t + 5)),
                                                 static_cast<std::int64_t>(1 + rng() % (4 * t + 5)), t, s));
}

TEST(ExactProperty, AgreesWithReplayOnEveryShapeForTile3) {
  // Exhaustive for T = 3 (a 9-thread block: partial warps for every S below): J, K, L in 1..17.
  for (int s : {2, 4, 8, 32})
    for (std::int64_t j = 1; j <= 17; ++j)
      for (std::int64_t k = 1; k <= 17; ++k)
        for (std::int64_t l = 1; l <= 17; ++l) expect_engines_agree(LaunchConfig::shape(j, k, l, 3, s));
}

TEST(ExactProperty, AgreesWithReplayOnTheLectureCases) {
  for (const LaunchConfig& c :
       {LaunchConfig::square(100), LaunchConfig::square(100, 16, 64), LaunchConfig::square(3, 2),
        LaunchConfig::square(1, 1), LaunchConfig::square(1, 16), LaunchConfig::shape(20, 40, 50, 16),
        LaunchConfig::square(1000, 32), LaunchConfig::shape(4097, 33, 1000, 32, 16)})
    expect_engines_agree(c);
}

}  // namespace
}  // namespace warpdiv::sim
