// The lecture on GPU 0 through the general probe, and its real kernel (ctest label gpu). Every test skips,
// with the reason, when there is no CUDA device or driver, so a machine without a GPU still runs the rest of
// the suite. The random inputs' seed is printed and named in failures; WARPDIV_TEST_SEED=N repeats a run.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>

#include "analysis/lecture/validation.hpp"
#include "kernels/lecture/tiled_matmul.hpp"
#include "sim/support/errors.hpp"
#include "analysis/lecture/lecture_source.hpp"
#include "tools/cli/lecture/device_occupancy.hpp"
#include "tools/cli/lecture/runs.hpp"

namespace warpdiv::lecture {
// Readable parameters in test output.
inline void PrintTo(const LaunchConfig& c, std::ostream* os) { *os << describe(c); }
}  // namespace warpdiv::lecture

namespace warpdiv::kernels {
namespace {

using lecture::BlockClass;
using lecture::Condition;

std::string no_device_reason() {
  try {
    query_device();
    return "";
  } catch (const NoDevice& e) {
    return e.what();
  }
}

#define SKIP_WITHOUT_GPU()                                       \
  do {                                                           \
    const std::string why = no_device_reason();                  \
    if (!why.empty()) GTEST_SKIP() << "no CUDA device: " << why; \
  } while (0)

/// The seed of the random inputs: WARPDIV_TEST_SEED when set (decimal, to repeat a run), else a
/// fresh one per process. Throws std::invalid_argument (the test fails with the message) on a value
/// that is not a decimal number below 2^64.
std::uint64_t test_seed() {
  static const std::uint64_t seed = [] {
    const char* text = std::getenv("WARPDIV_TEST_SEED");
    if (!text || !*text) {
      std::random_device device;
      return (std::uint64_t{device()} << 32) ^ device();
    }
    const std::string digits = text;
    errno = 0;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(digits.c_str(), &end, 10);
    if (digits.find_first_not_of("0123456789") != std::string::npos || errno == ERANGE)
      throw std::invalid_argument(
          "WARPDIV_TEST_SEED must be a decimal number from 0 to "
          "18446744073709551615, got '" +
          digits + "'");
    return std::uint64_t{value};
  }();
  return seed;
}

/// Validates one launch as `warpdiv validate` does (cli::run_validate: the probe of the lecture
/// source compared with the model warp by warp, its trace as the lecture's table, and the real
/// kernel's P against the host's) and checks that everything agrees. Every failure message names
/// the seed, so one test repeats on its own. Returns the GPU's table (the model's where the launch
/// is above the probe's warp-by-warp limit and only totals were compared).
lecture::DivergenceResult run_and_check(const lecture::LaunchConfig& c) {
  SCOPED_TRACE(lecture::describe(c));
  cli::ValidateRequest request;
  request.config = c;
  request.repeats = 1;
  request.seed = test_seed();
  SCOPED_TRACE("random inputs from WARPDIV_TEST_SEED=" + std::to_string(request.seed));
  std::cout << "[ seed     ] WARPDIV_TEST_SEED=" << request.seed << " (" << lecture::describe(c) << ")\n";
  const analysis::ValidationRecord r = cli::run_validate(request, nullptr);
  EXPECT_TRUE(r.product.passed()) << r.product.max_relative_error << ", non-finite " << r.product.non_finite;
  EXPECT_TRUE(r.probe.comparison.agree()) << r.probe.outcome;
  EXPECT_TRUE(r.counts_matched()) << r.count_differences.front().cell << ": model "
                                  << sim::to_decimal(r.count_differences.front().model) << ", GPU "
                                  << sim::to_decimal(r.count_differences.front().hardware);
  EXPECT_TRUE(r.occupancy_matched()) << analysis::failure_summary(r);
  return r.hardware ? *r.hardware : r.model;
}

TEST(GpuLecture, HardwareCountsAreTheLecturesFigures) {
  SKIP_WITHOUT_GPU();
  const lecture::DivergenceResult gpu = run_and_check(lecture::LaunchConfig::square(100));
  // Hand-derived in tests/oracle/replay_test.cpp and the lecture: Type 1 336/2352, Type 2 14/392.
  EXPECT_EQ(gpu.at(Condition::load_M, BlockClass::interior).divergent_warp_phases, 288u);
  EXPECT_EQ(gpu.at(Condition::load_M, BlockClass::right_edge).divergent_warp_phases, 48u);
  EXPECT_EQ(gpu.at(Condition::load_M, BlockClass::bottom_edge).divergent_warp_phases, 12u);
  EXPECT_EQ(gpu.at(Condition::load_M, BlockClass::corner).divergent_warp_phases, 2u);
  EXPECT_EQ(gpu.at(Condition::load_M, BlockClass::all).warp_phases, 2744u);
  // load_N: the exercise, 350 of 2744, all in the right block-column.
  EXPECT_EQ(gpu.at(Condition::load_N, BlockClass::all).divergent_warp_phases, 350u);
  EXPECT_EQ(gpu.at(Condition::load_N, BlockClass::interior).divergent_warp_phases, 0u);
  // compute: right_edge 6 blocks * 8 warps * 7 phases + corner 2 warps * 7 = 350; store 48 + 2.
  EXPECT_EQ(gpu.at(Condition::compute, BlockClass::all).divergent_warp_phases, 350u);
  EXPECT_EQ(gpu.at(Condition::store, BlockClass::all).divergent_warp_phases, 50u);
  EXPECT_EQ(gpu.barrier_hazard_blocks, 13u);  // 6 + 6 + 1 edge blocks
}

TEST(GpuShapes, SizesBelowTheTileByHand) {
  SKIP_WITHOUT_GPU();
  // 5 x 3 x 7, T = 16: one block, 8 warps of two rows, one phase. load_M (ty < 5, tx < 3):
  // warps 0, 1, 2 split; load_N (ty < 3, tx < 7): warps 0, 1; compute and store (ty < 5,
  // tx < 7): warps 0, 1, 2. The one block is a barrier hazard.
  const lecture::DivergenceResult gpu = run_and_check(lecture::LaunchConfig::shape(5, 3, 7, 16));
  EXPECT_EQ(gpu.at(Condition::load_M, BlockClass::corner).divergent_warp_phases, 3u);
  EXPECT_EQ(gpu.at(Condition::load_N, BlockClass::corner).divergent_warp_phases, 2u);
  EXPECT_EQ(gpu.at(Condition::compute, BlockClass::corner).divergent_warp_phases, 3u);
  EXPECT_EQ(gpu.at(Condition::store, BlockClass::corner).divergent_warp_phases, 3u);
  EXPECT_EQ(gpu.at(Condition::load_M, BlockClass::corner).warp_phases, 8u);
  EXPECT_EQ(gpu.barrier_hazard_blocks, 1u);
}

TEST(GpuShapes, MultiplesOfTheTileNeverDiverge) {
  SKIP_WITHOUT_GPU();
  const lecture::DivergenceResult gpu = run_and_check(lecture::LaunchConfig::shape(128, 64, 96, 16));
  for (Condition c : lecture::kConditions)
    EXPECT_EQ(gpu.at(c, BlockClass::all).divergent_warp_phases, 0u) << lecture::name(c);
  EXPECT_EQ(gpu.barrier_hazard_blocks, 0u);
  // 6 x 8 blocks, 8 warps, 4 phases.
  EXPECT_EQ(gpu.at(Condition::load_M, BlockClass::all).warp_phases, 48u * 8u * 4u);
}

TEST(GpuShapes, OneLaneWarpsNeverDiverge) {
  SKIP_WITHOUT_GPU();
  // T = 1: every warp has a single lane, which always agrees with itself.
  const lecture::DivergenceResult gpu = run_and_check(lecture::LaunchConfig::shape(50, 60, 70, 1));
  for (Condition c : lecture::kConditions)
    EXPECT_EQ(gpu.at(c, BlockClass::all).divergent_warp_phases, 0u) << lecture::name(c);
  EXPECT_EQ(gpu.at(Condition::load_M, BlockClass::all).warp_phases, 50u * 70u * 60u);
}

// Awkward shapes, each compared with the model exactly (every warp evaluation and the table).
class GpuAwkward : public ::testing::TestWithParam<lecture::LaunchConfig> {};

TEST_P(GpuAwkward, MatchesTheModel) {
  SKIP_WITHOUT_GPU();
  run_and_check(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, GpuAwkward,
    ::testing::Values(
        lecture::LaunchConfig::shape(1, 1, 1, 1),           // the smallest launch
        lecture::LaunchConfig::shape(1, 1, 1, 32),          // one thread of 1024 in range
        lecture::LaunchConfig::shape(33, 17, 65, 32),       // one row / column past a tile
        lecture::LaunchConfig::shape(100, 100, 100, 5),     // 25 threads: one partial warp
        lecture::LaunchConfig::shape(64, 48, 80, 7),        // 49 threads: warps of 32 and 17 lanes
        lecture::LaunchConfig::shape(257, 129, 63, 12),     // 144 threads: 4 full warps and 16 lanes
        lecture::LaunchConfig::shape(31, 1024, 33, 31),     // 961 threads: the last warp has 1 lane
        lecture::LaunchConfig::shape(1000, 1, 1000, 16),    // K = 1
        lecture::LaunchConfig::shape(1, 1000, 1, 32),       // one output entry, long inner dimension
        lecture::LaunchConfig::shape(2, 300, 500, 3),       // 9 threads, wide and flat
        lecture::LaunchConfig::shape(300, 20, 2, 9),        // tall and thin
        lecture::LaunchConfig::shape(1023, 511, 257, 32),   // rectangular, every size off the tile
        lecture::LaunchConfig::shape(4000, 1000, 3000, 16)  // 23.7 M warp-phases: totals only
        ),
    [](const ::testing::TestParamInfo<lecture::LaunchConfig>& param) {
      const lecture::LaunchConfig& c = param.param;
      return std::to_string(c.rows) + "x" + std::to_string(c.inner) + "x" + std::to_string(c.cols) + "_T" +
             std::to_string(c.tile);
    });

TEST(GpuOccupancy, StaticSharedMemoryByHand) {
  SKIP_WITHOUT_GPU();
  // ds_M and ds_N are MAX_TILE x MAX_TILE = 32 x 32 floats each, whatever the tile: 8,192 bytes.
  for (int t : {1, 7, 16, 32})
    EXPECT_EQ(TiledMatmul({100, 100, 100, t}).resources().static_shared_bytes, 8192u) << t;
}

TEST(GpuOccupancy, RuntimeAgreesWithTheCalculatorForEveryTile) {
  SKIP_WITHOUT_GPU();
  const analysis::GpuSpec gpu = cli::device_spec(query_device());
  for (int t = 1; t <= 32; ++t) {
    const analysis::OccupancyFigures o =
        cli::occupancy_both_ways(gpu, TiledMatmul({64, 64, 64, t}).resources(), t);
    EXPECT_GT(o.runtime_blocks_per_sm, 0) << "T=" << t;
    EXPECT_EQ(o.runtime_blocks_per_sm, o.calculator_blocks_per_sm)
        << "T=" << t << ", " << o.registers_per_thread << " registers, limited by " << o.calculator_limit;
  }
}

TEST(GpuRefusals, GridAndMemoryLimitsBeforeAllocating) {
  SKIP_WITHOUT_GPU();
  // 65536 rows with T = 1 is 65536 block-rows, one more than gridDim.y allows.
  EXPECT_THROW(TiledMatmul({65536, 1, 1, 1}), InvalidInput);
  // 200000^2 floats is 160 GB per matrix, three of them: beyond any GPU's memory.
  EXPECT_THROW(TiledMatmul({200000, 200000, 200000, 32}), InvalidInput);
}

TEST(GpuDevice, ReportsItsProperties) {
  SKIP_WITHOUT_GPU();
  const DeviceInfo d = query_device();
  EXPECT_FALSE(d.name.empty());
  EXPECT_EQ(d.warp_size, 32);
  EXPECT_GT(d.multiprocessors, 0);
  EXPECT_GT(d.free_memory_bytes, 0u);
  EXPECT_LE(d.free_memory_bytes, d.global_memory_bytes);
}

}  // namespace
}  // namespace warpdiv::kernels
