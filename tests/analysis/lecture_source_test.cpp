// The lecture flags' counts: the lecture source's model compiled into warpdiv (from
// kernels/zoo/tiled_matmul_rect.json) counted by the class engine (lecture_counts) and by the
// SIMT replay (lecture_replay) and arranged as the 20-row table, against the retired hand-written
// lecture model in tests/oracle/ (sim::exact and sim::replay, checked against each other on 10,080
// launches): an independent oracle, which is why that model is kept.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "analysis/lecture/lecture_source.hpp"
#include "tests/oracle/exact.hpp"
#include "tests/oracle/replay.hpp"
#include "sim/model/ir_json.hpp"

namespace warpdiv::analysis {
namespace {

const sim::ir::Kernel& model() {
  static const sim::ir::Kernel k =
      sim::ir::load_kernel(std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/tiled_matmul_rect.json");
  return k;
}

lecture::DivergenceResult through_source(const lecture::LaunchConfig& config) {
  const sim::ir::Launch launch = lecture_source_launch(model(), config);
  return lecture_result(model(), config,
                        sim::ir::class_replay(model(), launch, {}, sim::ir::GridLimits::Model));
}

TEST(LectureSource, TheLecturesLaunch) {
  const lecture::LaunchConfig config = lecture::LaunchConfig::square(100, 16, 32);
  const lecture::DivergenceResult r = through_source(config);
  // The lecture: 350 of 2,744 warp-phases of each load check; Type 1 (interior + right_edge)
  // 336 of 2,352 for load_M.
  EXPECT_EQ(r.at(lecture::Condition::load_M, lecture::BlockClass::all).divergent_warp_phases, 350u);
  EXPECT_EQ(r.at(lecture::Condition::load_M, lecture::BlockClass::all).warp_phases, 2744u);
  EXPECT_EQ(r.at(lecture::Condition::load_M, lecture::BlockClass::interior).divergent_warp_phases +
                r.at(lecture::Condition::load_M, lecture::BlockClass::right_edge).divergent_warp_phases,
            336u);
  EXPECT_EQ(r.barrier_hazard_blocks, 13u);
  EXPECT_TRUE(r == sim::exact(config));
}

// Two tables alike but for one cell's divergent warp-phases, then for the barrier hazard: the
// comparison of --engine all names the first figure that differs and both engines.
TEST(LectureSource, TableDifferenceNamesTheFirstFigureThatDiffers) {
  const lecture::LaunchConfig config = lecture::LaunchConfig::square(100, 16, 32);
  const lecture::DivergenceResult a = sim::exact(config);
  lecture::DivergenceResult b = a;
  EXPECT_EQ(lecture_table_difference(a, "the class engine", b, "the replay"), "");
  b.barrier_hazard_blocks += 1;
  EXPECT_EQ(lecture_table_difference(a, "the class engine", b, "the replay"),
            "the barrier hazard: blocks is 13 by the class engine, 14 by the replay");
  b.at(lecture::Condition::load_N, lecture::BlockClass::bottom_edge).divergent_warp_phases += 2;
  const sim::Count was =
      a.at(lecture::Condition::load_N, lecture::BlockClass::bottom_edge).divergent_warp_phases;
  EXPECT_EQ(lecture_table_difference(a, "the class engine", b, "the replay"),
            "load_N, bottom_edge: divergent_warp_phases is " + sim::to_decimal(was) +
                " by the class engine, " + sim::to_decimal(was + 2) + " by the replay");
}

// --engine all on the lecture's launch: the two engines agree, and the table is the oracle's.
TEST(LectureSource, AllEnginesAgreeOnTheLecturesLaunch) {
  const lecture::LaunchConfig config = lecture::LaunchConfig::shape(90, 40, 130, 12, 32);
  std::string note;
  const lecture::DivergenceResult r = lecture_all_engines(config, note);
  EXPECT_EQ(note, "all 2 engines agree (the class engine, the replay)");
  EXPECT_TRUE(r == sim::exact(config));
}

TEST(LectureSource, AgreesWithTheHandWrittenModelOnRandomLaunches) {
  std::mt19937_64 random(11);
  const int warp_sizes[] = {1, 2, 4, 8, 16, 32, 64};
  for (int i = 0; i < 300; ++i) {
    const int tile = std::uniform_int_distribution<int>(1, 32)(random);
    const int warp_size = warp_sizes[std::uniform_int_distribution<int>(0, 6)(random)];
    // J, K and L anywhere up to 2^31 - 1 (gridDim.y past CUDA's 65,535: the model's limits).
    const std::int64_t max_rows = 2147483647LL;
    const auto size = [&](std::int64_t max) {
      switch (std::uniform_int_distribution<int>(0, 2)(random)) {
        case 0:
          return std::uniform_int_distribution<std::int64_t>(1, std::min<std::int64_t>(max, 300))(random);
        case 1:
          return std::uniform_int_distribution<std::int64_t>(1, max)(random);
        default:
          return std::min<std::int64_t>(max,
                                        tile * std::uniform_int_distribution<std::int64_t>(1, 20)(random));
      }
    };
    const lecture::LaunchConfig config =
        lecture::LaunchConfig::shape(size(max_rows), size(2147483647LL), size(2147483647LL), tile, warp_size);
    SCOPED_TRACE(lecture::describe(config));
    EXPECT_TRUE(through_source(config) == sim::exact(config));
  }
}

TEST(LectureSource, CompiledInModelIsTheSavedOneAndGivesTheLargestCube) {
  EXPECT_EQ(sim::ir::to_json(lecture_model()), sim::ir::to_json(model()));
  for (int tile : {1, 7, 16, 32})
    for (int warp_size : {1, 32, 64}) {
      const lecture::LaunchConfig config = lecture::LaunchConfig::square(2147483647, tile, warp_size);
      SCOPED_TRACE(lecture::describe(config));
      EXPECT_TRUE(lecture_counts(config) == sim::exact(config));
    }
}

TEST(LectureSource, ReplayAgreesWithTheHandWrittenReplayOnRandomLaunches) {
  // Small launches (the replay visits every warp), ragged and exact multiples of the tile, every
  // warp size; one block-row or block-column included (classes without blocks).
  std::mt19937_64 random(12);
  const int warp_sizes[] = {1, 2, 4, 8, 16, 32, 64};
  for (int i = 0; i < 150; ++i) {
    const int tile = std::uniform_int_distribution<int>(1, 32)(random);
    const int warp_size = warp_sizes[std::uniform_int_distribution<int>(0, 6)(random)];
    const auto size = [&] { return std::uniform_int_distribution<std::int64_t>(1, 4 * tile + 3)(random); };
    const lecture::LaunchConfig config =
        lecture::LaunchConfig::shape(size(), size(), size(), tile, warp_size);
    SCOPED_TRACE(lecture::describe(config));
    const lecture::DivergenceResult r = lecture_replay(config);
    EXPECT_TRUE(r == sim::replay(config));
    EXPECT_TRUE(r == lecture_counts(config));
  }
}

TEST(LectureSource, ReplayOfTheLecturesLaunchAndItsCost) {
  const lecture::LaunchConfig config = lecture::LaunchConfig::square(100, 16, 32);
  const lecture::DivergenceResult r = lecture_replay(config);
  EXPECT_EQ(r.at(lecture::Condition::load_M, lecture::BlockClass::all).divergent_warp_phases, 350u);
  EXPECT_EQ(r.barrier_hazard_blocks, 13u);  // the last block-row and block-column: 7 + 7 - 1
  // The work, counted by the class engine, is what the plain replay of the whole grid does.
  const sim::Count work = sim::ir::replay(lecture_model(), lecture_source_launch(lecture_model(), config))
                              .warp_statement_evaluations;
  EXPECT_EQ(sim::to_decimal(lecture_replay_cost(config)), sim::to_decimal(work));
  sim::ir::ReplayOptions small;
  small.max_evaluations = work - 1;
  EXPECT_THROW(lecture_replay(config, small), InvalidInput);
  small.only_warp = 0;
  EXPECT_THROW(lecture_replay(config, small), std::logic_error);
}

}  // namespace
}  // namespace warpdiv::analysis
