// The CLI's replays as native code (jit/loader.hpp): a replay worth compiling loads the plugin
// (libwarpdiv-jit.so beside the binary) and runs as native code, which the HTML page's engine note
// says; every figure is the interpreter's (WARPDIV_NATIVE=off), and without the plugin the replay
// interprets, with the same figures.
#include <gtest/gtest.h>

#include <string>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

// The tiled transpose of an 8,192 x 8,192 matrix: 65,536 blocks of 32 x 8 threads, 524,288 warps,
// each running its two loops of 4 iterations (5 heads each).
const std::string kArgs =
    " analyze '" WARPDIV_SOURCE_DIR "/kernels/zoo/tiled_transpose.cu' --grid 256,256 --block 32,8"
    " --arg width=8192 --arg height=8192 --engine replay --csv - --html ";

std::string note(const std::string& html) {
  const std::size_t at = html.find("Counted by the replay engine");
  return at == std::string::npos ? "" : html.substr(at, html.find('<', at) - at);
}

TEST(NativeCli, ABigReplayRunsAsNativeCodeWithTheInterpretersFigures) {
  TempDir dir;
  const std::string binary = "'" + warpdiv_binary() + "'";
  const CliResult native = run_shell(binary + kArgs + "'" + dir.file("n.html") + "'");
  ASSERT_EQ(native.status, 0) << native.err;
  EXPECT_EQ(note(read_file(dir.file("n.html"))),
            "Counted by the replay engine: every warp of every block, as native code. Block classes are found "
            "by the class engine (--engine exact or auto).");
  // The loop heads by hand: 524,288 warps x 5.
  EXPECT_TRUE(contains(native.out, "tiled_transpose.cu,22,3,for,,2621440,0,")) << native.out;

  const CliResult off = run_shell("WARPDIV_NATIVE=off " + binary + kArgs + "'" + dir.file("i.html") + "'");
  ASSERT_EQ(off.status, 0) << off.err;
  EXPECT_EQ(off.out, native.out);
  EXPECT_EQ(note(read_file(dir.file("i.html"))),
            "Counted by the replay engine: every warp of every block. Block classes are found by the class "
            "engine (--engine exact or auto).");

  const CliResult missing =
      run_shell("WARPDIV_NATIVE_PLUGIN=/nonexistent/libwarpdiv-jit.so " + binary + kArgs + "'" + dir.file("m.html") + "'");
  ASSERT_EQ(missing.status, 0) << missing.err;
  EXPECT_EQ(missing.out, native.out);
  EXPECT_EQ(note(read_file(dir.file("m.html"))), note(read_file(dir.file("i.html"))));
}

TEST(NativeCli, ASmallReplayIsInterpreted) {
  TempDir dir;
  const CliResult r = run_shell("'" + warpdiv_binary() + "' analyze '" WARPDIV_SOURCE_DIR
                                "/kernels/zoo/tiled_transpose.cu' --grid 2,2 --block 32,8 --arg width=64"
                                " --arg height=64 --engine replay --html '" + dir.file("s.html") + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(note(read_file(dir.file("s.html"))),
            "Counted by the replay engine: every warp of every block. Block classes are found by the class "
            "engine (--engine exact or auto).");
}

}  // namespace
}  // namespace warpdiv::testing
