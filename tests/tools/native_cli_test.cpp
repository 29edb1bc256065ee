// The CLI's replays as native code (jit/loader.hpp): a replay worth compiling loads the plugin
// (libwarpdiv-jit.so beside the binary) and runs as native code, which the HTML page's engine note
// says; every figure is the interpreter's (WARPDIV_NATIVE=off), and without the plugin the replay
// interprets, with the same figures.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <sys/stat.h>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

// The tiled transpose of an 8,192 x 8,192 matrix: 65,536 blocks of 32 x 8 threads, 524,288 warps,
// each running its two loops of 4 iterations (5 heads each).
const std::string kArgs = " analyze '" WARPDIV_SOURCE_DIR
                          "/kernels/zoo/tiled_transpose.cu' --grid 256,256 --block 32,8"
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
  EXPECT_EQ(
      note(read_file(dir.file("n.html"))),
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
}

TEST(NativeCli, ASmallReplayIsInterpreted) {
  TempDir dir;
  const CliResult r = run_shell("'" + warpdiv_binary() +
                                "' analyze '" WARPDIV_SOURCE_DIR
                                "/kernels/zoo/tiled_transpose.cu' --grid 2,2 --block 32,8 --arg width=64"
                                " --arg height=64 --engine replay --html '" +
                                dir.file("s.html") + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(note(read_file(dir.file("s.html"))),
            "Counted by the replay engine: every warp of every block. Block classes are found by the class "
            "engine (--engine exact or auto).");
}

/// Exit 2, nothing on stdout, one line on stderr holding `phrase`.
void expect_one_line_refusal(const CliResult& r, const std::string& phrase) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_TRUE(contains(r.err, phrase)) << r.err;
}

std::string beside_binary(const std::string& name) {
  const std::string binary = warpdiv_binary();
  return binary.substr(0, binary.rfind('/') + 1) + name;
}

/// `name` (a plugin beside the binary) copied into `dir` and cut to `bytes`.
std::string truncated_copy(const TempDir& dir, const std::string& name, long long bytes) {
  const std::string copy = dir.file(name);
  write_file(copy, read_file(beside_binary(name)).substr(0, static_cast<std::size_t>(bytes)));
  return copy;
}

TEST(NativeCli, AnUnknownWarpdivNativeIsRefused) {
  const std::string binary = "'" + warpdiv_binary() + "'";
  for (const std::string value : {"garbage", "on", "OFF", "off "}) {
    SCOPED_TRACE(value);
    const CliResult r = run_shell("WARPDIV_NATIVE='" + value + "' " + binary +
                                  " occupancy --gpu h100 --threads 128 --regs 32");
    expect_one_line_refusal(
        r, "warpdiv: error: WARPDIV_NATIVE must be auto or off, or empty or unset for auto (got '" + value +
               "')");
  }
  for (const std::string value : {"auto", "off", ""}) {
    const CliResult r = run_shell("WARPDIV_NATIVE='" + value + "' " + binary +
                                  " occupancy --gpu h100 --threads 128 --regs 32");
    EXPECT_EQ(r.status, 0) << value << ": " << r.err;
  }
}

// A truncated plugin file would be mapped as its headers say and end in SIGBUS; a FIFO would make
// dlopen wait for a writer forever. Both plugins are checked first: exit 2, one line naming the file.
TEST(NativeCli, ATruncatedOrFifoPluginIsRefusedNamingIt) {
  TempDir dir;
  const long long jit_size = static_cast<long long>(read_file(beside_binary("libwarpdiv-jit.so")).size());
  const long long frontend_size =
      static_cast<long long>(read_file(beside_binary("libwarpdiv-frontend.so")).size());
  ASSERT_EQ(::mkfifo(dir.file("fifo.so").c_str(), 0600), 0);
  const std::string binary = "'" + warpdiv_binary() + "'";
  const std::string big_replay = binary + kArgs + "'" + dir.file("x.html") + "'";
  for (const long long cut : {jit_size / 2, jit_size - 1}) {
    const std::string jit = truncated_copy(dir, "libwarpdiv-jit.so", cut);
    const CliResult r = run_shell("WARPDIV_NATIVE_PLUGIN='" + jit + "' timeout 60 " + big_replay);
    expect_one_line_refusal(r, "the native replay's plugin " + jit +
                                   " cannot be loaded: its section headers lie outside its " +
                                   std::to_string(cut) + " bytes (truncated?)");
  }
  const CliResult jit_fifo =
      run_shell("WARPDIV_NATIVE_PLUGIN='" + dir.file("fifo.so") + "' timeout 60 " + big_replay);
  expect_one_line_refusal(jit_fifo, "the native replay's plugin " + dir.file("fifo.so") +
                                        " cannot be loaded: it is not a regular file");
  const std::string source =
      "'" WARPDIV_SOURCE_DIR
      "/kernels/zoo/tiled_transpose.cu' --grid 2,2 --block 32,8 --arg width=64 --arg height=64";
  for (const long long cut : {frontend_size / 2, frontend_size - 1}) {
    const std::string frontend = truncated_copy(dir, "libwarpdiv-frontend.so", cut);
    const CliResult r =
        run_shell("WARPDIV_FRONTEND_PLUGIN='" + frontend + "' timeout 60 " + binary + " analyze " + source);
    expect_one_line_refusal(r, "cannot load the Clang front-end " + frontend +
                                   ": its section headers lie outside its " + std::to_string(cut) +
                                   " bytes (truncated?)");
  }
  const CliResult frontend_fifo = run_shell("WARPDIV_FRONTEND_PLUGIN='" + dir.file("fifo.so") +
                                            "' timeout 60 " + binary + " analyze " + source);
  expect_one_line_refusal(
      frontend_fifo, "cannot load the Clang front-end " + dir.file("fifo.so") + ": it is not a regular file");
  // Not an ELF file at all.
  write_file(dir.file("text.so"), "not a shared object\n");
  const CliResult text =
      run_shell("WARPDIV_FRONTEND_PLUGIN='" + dir.file("text.so") + "' " + binary + " analyze " + source);
  expect_one_line_refusal(
      text, "cannot load the Clang front-end " + dir.file("text.so") + ": it is not an ELF shared object");
  EXPECT_FALSE(file_exists(dir.file("x.html")));
}

// A plugin WARPDIV_NATIVE_PLUGIN names that is missing, or is not warpdiv's plugin, is refused in
// one line naming it (it was skipped without a word).
TEST(NativeCli, ANamedPluginThatCannotServeIsRefused) {
  TempDir dir;
  const std::string binary = "'" + warpdiv_binary() + "'";
  const CliResult missing = run_shell("WARPDIV_NATIVE_PLUGIN=/nonexistent/libwarpdiv-jit.so timeout 60 " +
                                      binary + kArgs + "'" + dir.file("m.html") + "'");
  expect_one_line_refusal(missing,
                          "the native replay's plugin /nonexistent/libwarpdiv-jit.so cannot be loaded: "
                          "there is no such file (WARPDIV_NATIVE_PLUGIN names it)");
  const std::string frontend = beside_binary("libwarpdiv-frontend.so");
  const CliResult other = run_shell("WARPDIV_NATIVE_PLUGIN='" + frontend + "' timeout 60 " + binary + kArgs +
                                    "'" + dir.file("o.html") + "'");
  expect_one_line_refusal(other, "the native replay's plugin " + frontend +
                                     " cannot be loaded: it has no "
                                     "warpdiv_native_compiler (not warpdiv's native-replay plugin)");
}

// A plugin named by its bare file name is the one in the working directory (dlopen would search
// the library path for it).
TEST(NativeCli, APluginNamedByABareFileNameIsTheWorkingDirectorys) {
  TempDir dir;
  const std::string binary = "'" + warpdiv_binary() + "'";
  std::filesystem::copy_file(beside_binary("libwarpdiv-jit.so"), dir.file("copy.so"));
  const CliResult bare = run_shell("cd '" + dir.path() + "' && WARPDIV_NATIVE_PLUGIN=copy.so " + binary +
                                   kArgs + "'" + dir.file("b.html") + "'");
  ASSERT_EQ(bare.status, 0) << bare.err;
  EXPECT_EQ(
      note(read_file(dir.file("b.html"))),
      "Counted by the replay engine: every warp of every block, as native code. Block classes are found "
      "by the class engine (--engine exact or auto).");
}

}  // namespace
}  // namespace warpdiv::testing
