// `cmake --install BUILD --prefix DIR` and the installed tool: DIR/bin/warpdiv runs from any folder
// and finds the presets installed beside it (DIR/share/warpdiv/gpus.csv), not the source tree's.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

namespace fs = std::filesystem;

TEST(Install, TheInstalledBinaryRunsFromAnyFolderWithItsPresets) {
  TempDir prefix, elsewhere;
  const CliResult install = run_in(elsewhere.path(), WARPDIV_CMAKE_COMMAND,
                                   {"--install", WARPDIV_BUILD_DIR, "--prefix", prefix.path()});
  ASSERT_EQ(install.status, 0) << install.out << install.err;
  const std::string binary = prefix.file("bin/warpdiv");
  const std::string presets = prefix.file("share/warpdiv/gpus.csv");
  ASSERT_TRUE(fs::is_regular_file(binary)) << install.out;
  ASSERT_TRUE(fs::is_regular_file(presets)) << install.out;
  EXPECT_EQ(read_file(presets), read_file(WARPDIV_SOURCE_DIR "/data/gpus.csv"));

  // H100 (cc 9.0), T = 16: 256 threads = 8 warps, 32 registers = 1,024 per warp; 65,536 registers
  // and 2,048 threads per SM both allow 8 blocks = 64 warps of 64: 100%.
  const CliResult r = run_in(elsewhere.path(), binary, {"occupancy", "--gpu", "h100", "--tile", "16"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "\n  Theoretical Active Blocks per SM          8\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n  Theoretical Occupancy                100.00   %\n")) << r.out;
  // The file it read is the installed one.
  const CliResult list = run_in(elsewhere.path(), binary, {"occupancy", "--gpu", "list"});
  ASSERT_EQ(list.status, 0) << list.err;
  EXPECT_TRUE(contains(list.out, presets)) << list.out;

#ifdef WARPDIV_TEST_HAS_FRONTEND
  // The installed binary reads CUDA sources through the installed front-end plugin
  // (DIR/lib/.../warpdiv/libwarpdiv-frontend.so). The naive multiply on one warp of 32 threads
  // with Width 20: Row = 0 < 20 in every lane, Col = 0 .. 31 < 20 in 20 lanes: one evaluation of
  // the guard, divergent, 32 active lanes, 20 taken.
  const CliResult source = run_in(elsewhere.path(), binary,
                                  {"analyze", WARPDIV_SOURCE_DIR "/kernels/zoo/naive_matmul.cu", "--grid",
                                   "1", "--block", "32", "--arg", "Width=20", "--csv", "-"});
  ASSERT_EQ(source.status, 0) << source.err;
  EXPECT_TRUE(contains(source.out, "naive_matmul.cu,14,3,if,,1,1,32,20,,,")) << source.out;
#endif
#if defined(WARPDIV_TEST_HAS_FRONTEND) && defined(WARPDIV_TEST_HAS_NATIVE)
  // And replays a big launch as native code through the installed plugin (libwarpdiv-jit.so):
  // the transpose's 524,288 warps, each with 5 heads of its first loop.
  const CliResult big = run_in(elsewhere.path(), binary,
                               {"analyze", WARPDIV_SOURCE_DIR "/kernels/zoo/tiled_transpose.cu", "--grid",
                                "256,256", "--block", "32,8", "--arg", "width=8192", "--arg", "height=8192",
                                "--engine", "replay", "--csv", "-", "--html", elsewhere.file("big.html")});
  ASSERT_EQ(big.status, 0) << big.err;
  EXPECT_TRUE(contains(big.out, "tiled_transpose.cu,22,3,for,,2621440,0,")) << big.out;
  EXPECT_TRUE(contains(read_file(elsewhere.file("big.html")), "every warp of every block, as native code."));
#endif
}

}  // namespace
}  // namespace warpdiv::testing
