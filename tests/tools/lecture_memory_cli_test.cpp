// The lecture's memory claims (GPU Teaching Kit, "Memory and data locality" and "Tiled matrix
// multiplication"), each reproduced by one `warpdiv analyze` command (the README's Memory
// section shows them), with every figure worked out by hand here from the kernels' loops:
//   - the naive multiply asks for 4 bytes per floating-point operation, so at 200 GB/s a
//     1,500 GFLOPS device runs it at no more than 50 GFLOPS, 3.3% of its peak;
//   - tiling divides the global loads by TILE_WIDTH where Width is a multiple of it (and by
//     Width / ceil(Width / TILE_WIDTH) where it is not);
//   - a block of the tiled kernel holds 2 x T x T x 4 bytes of shared memory: 2 KB at T = 16,
//     8 KB at T = 32;
//   - the 2 x 2 toy (Width 4, 2 x 2 tiles) halves the loads.
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "tests/text_helpers.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

const std::string kZoo = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/";

std::string analyze(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"analyze"};
  all.insert(all.end(), args.begin(), args.end());
  const CliResult r = run_warpdiv(all);
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

/// "global loads: ... for N bytes asked": N.
std::uint64_t load_bytes(const std::string& report) {
  std::smatch m;
  const std::regex pattern(
      R"(global loads: +\d+ requests, \d+ sectors = \d+ bytes moved for (\d+) bytes asked)");
  EXPECT_TRUE(std::regex_search(report, m, pattern)) << report;
  return m.empty() ? 0 : std::stoull(m[1]);
}

std::string naive(int width, int block = 16) {
  const int grid = (width - 1) / block + 1;
  return analyze({kZoo + "naive_matmul.cu", "--grid", std::to_string(grid) + "," + std::to_string(grid),
                  "--block", std::to_string(block) + "," + std::to_string(block), "--arg",
                  "Width=" + std::to_string(width)});
}

std::string tiled(int width, int tile) {
  const int grid = (width - 1) / tile + 1;
  return analyze({kZoo + "tiled_matmul.cu", "-D", "TILE_WIDTH=" + std::to_string(tile), "--grid",
                  std::to_string(grid) + "," + std::to_string(grid), "--block",
                  std::to_string(tile) + "," + std::to_string(tile), "--arg",
                  "Width=" + std::to_string(width)});
}

TEST(LectureMemory, NaiveMultiplyIsBoundAtFiftyGflops) {
  // Width = 100: Width^3 = 10^6 iterations of Pvalue += M[..] * N[..], each a multiply and an
  // add (2 FLOP) and two 4-byte loads (8 bytes): 2,000,000 FLOP, 8,000,000 bytes of loads, 4
  // bytes per FLOP; the Width^2 = 10,000 stores of P add 40,000 bytes: 8,040,000 / 2,000,000
  // = 4.02 bytes per FLOP, 0.2488 FLOP per byte; x 200 GB/s = 49.75 GFLOP/s, 3.3% of 1,500.
  const std::string out = analyze({kZoo + "naive_matmul.cu", "--grid", "7,7", "--block", "16,16", "--arg",
                                   "Width=100", "--gpu", "lecture-16k", "--regs", "20", "--smem", "0"});
  EXPECT_TRUE(contains(out, "floating-point operations: 2000000 ")) << out;
  EXPECT_EQ(load_bytes(out), 8000000u);
  EXPECT_TRUE(contains(out, "; 4.00 bytes asked per FLOP)")) << out;
  EXPECT_TRUE(contains(out, "for 40000 bytes asked")) << out;  // the stores
  EXPECT_TRUE(contains(out, "bound on lecture-16k (1500 GFLOP/s, 200.0 GB/s;")) << out;
  EXPECT_TRUE(contains(out,
                       "every byte asked from DRAM: min(1500, 0.2488 x 200.0) = 49.8 GFLOP/s "
                       "(3.3% of the peak)"))
      << out;
}

TEST(LectureMemory, TilingDividesTheLoadsByTheTileWidth) {
  // Width = 96 = 6 x 16: naive, 2 loads per thread and k: 2 x 96^3 x 4 = 7,077,888 bytes;
  // tiled, 2 loads per thread and phase, 6 phases: 96^2 x 12 x 4 = 442,368: a factor of 16.
  EXPECT_EQ(load_bytes(naive(96)), 7077888u);
  EXPECT_EQ(load_bytes(tiled(96, 16)), 442368u);
  EXPECT_EQ(7077888u / 442368u, 16u);
  // T = 32 (3 phases): 96^2 x 6 x 4 = 221,184, a factor of 32.
  EXPECT_EQ(load_bytes(tiled(96, 32)), 221184u);
  // Width = 100 (7 phases of 16; the last covers columns 96..99 only): each of the 100 rows
  // loads one M element per (column block, k) with k < 100: 7 blocks x 100 = 700, and as many
  // N elements per column: 2 x 100 x 700 x 4 = 560,000 bytes, against 8,000,000: a factor of
  // 100 / 7 = 14.29, Width / ceil(Width / T).
  EXPECT_EQ(load_bytes(naive(100)), 8000000u);
  EXPECT_EQ(load_bytes(tiled(100, 16)), 560000u);
}

TEST(LectureMemory, SharedMemoryPerBlockOfTheTiledKernel) {
  // ds_M and ds_N: 2 x T x T floats.
  EXPECT_TRUE(contains(tiled(96, 16), "shared memory per block: 2048 bytes static"));
  EXPECT_TRUE(contains(tiled(96, 32), "shared memory per block: 8192 bytes static"));
}

TEST(LectureMemory, TheTwoByTwoToyHalvesTheLoads) {
  // Width 4, 2 x 2 blocks: naive, 16 threads x 4 k x 2 loads x 4 bytes = 512; tiled with 2 x 2
  // tiles, 16 threads x 2 phases x 2 loads x 4 bytes = 256.
  EXPECT_EQ(load_bytes(naive(4, 2)), 512u);
  EXPECT_EQ(load_bytes(tiled(4, 2)), 256u);
}

}  // namespace
}  // namespace warpdiv::testing
