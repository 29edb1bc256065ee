// Flags and messages through the real binary: a flag's value is never a flag, integers
// are exact, every error is one escaped and bounded line, `--gpu list` wherever `--gpu` is,
// ignored flags and repeated list values refused, plurals, --version, "did you mean", the exit
// codes at the end of every --help, and the sweep's summary naming what went where.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

const std::string kSeedRange = "--seed must be an integer from 0 to 9223372036854775807";
const std::string kExitCodes =
    "exit status: 0 ok, 1 mismatch or internal failure, 2 bad input, 3 no GPU, 130 interrupted\n";

/// Runs the binary from inside `dir`, so that a file written under a stray relative name (a
/// flag's name taken as a value) would land there and be seen.
CliResult run_in(const TempDir& dir, const std::vector<std::string>& args) {
  const std::string here = std::filesystem::current_path().string();
  if (::chdir(dir.path().c_str()) != 0) throw std::runtime_error("chdir failed");
  const CliResult r = run_warpdiv(args);
  if (::chdir(here.c_str()) != 0) throw std::runtime_error("chdir back failed");
  return r;
}

/// True when `text` holds no byte below 0x20 (other than its final newline) and no DEL.
bool printable_line(const std::string& text) {
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) return false;
  }
  return !text.empty() && text.back() == '\n';
}

// --- A flag's value is never a flag -------------------------------------------------------------

// A refused command line run from inside an empty folder: the refusal contract, nothing on
// stdout, and the folder still empty (no file named "--csv", "--gpu-file", "out.csv", ...).
class RefusedInAFolder : public ::testing::TestWithParam<BadInput> {};

TEST_P(RefusedInAFolder, OneLineAndNoFileAnywhere) {
  TempDir dir;
  const CliResult r = run_in(dir, GetParam().args);
  expect_refusal(r, GetParam());
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(dir.entries().empty());
}

INSTANTIATE_TEST_SUITE_P(
    MissingValue, RefusedInAFolder,
    ::testing::Values(
        // The two cases of the issue: each wrote a file named after the next flag.
        BadInput{{"analyze", "--html", "--csv"}, "--html needs a value (FILE: "},
        BadInput{{"analyze", "--html", "--csv"}, "not the flag '--csv'"},
        BadInput{{"occupancy", "--gpu", "h100", "--csv", "--gpu-file"},
                 "--csv needs a value (FILE: also write the one-row CSV to FILE), not the flag "
                 "'--gpu-file'"},
        // Our wording, with the range, instead of Boost's.
        BadInput{{"analyze", "--width", "--csv", "out.csv"},
                 "--width needs a value (W: square matrices: J = K = L = W (1 .. 2147483647; "
                 "default 100)), not the flag '--csv'"},
        BadInput{{"analyze", "--tile", "--warp-size", "16"},
                 "--tile needs a value (T: tile width, blockDim (T, T): 1 .. 32 (default 16))"},
        BadInput{{"analyze", "--rows"}, "--rows needs a value (J: rows of M and P, 1 .. 2147483647"},
        BadInput{{"analyze", "--width="}, "--width must be an integer from 1 to 2147483647 (got '')"},
        BadInput{{"analyze", "--csv", "-h"}, "--csv needs a value (FILE: "},
        BadInput{{"analyze", "--csv=--html=x.html"}, "not the flag '--html'"},
        BadInput{{"analyze", "--csv", "--no-such-flag"}, "a value cannot start with '--'"},
        // "--" alone is no flag's name (Boost finds every flag for its empty name).
        BadInput{{"analyze", "--csv", "--"}, "--csv needs a value (FILE: "},
        BadInput{{"analyze", "--grid", "--", "--block", "32"}, "not '--' (a value cannot start with '--'"},
        BadInput{{"occupancy", "--gpu", "h100", "--csv", "--"}, "a value cannot start with '--'"},
        BadInput{{"check", "c.toml", "--sarif", "--"}, "--sarif needs a value (FILE: "},
        BadInput{{"sweep", "--sizes", "100", "--tiles", "16", "--csv", "--"}, "--csv needs a value"},
        BadInput{{"sweep", "--sizes", "--tiles", "16", "--csv", "s.csv"}, "--sizes needs a value"},
        BadInput{{"sweep", "--sizes", "100", "--tiles", "16", "--csv", "--html", "p.html"},
                 "--csv needs a value"},
        BadInput{{"validate", "--seed", "--tile", "16"}, "--seed needs a value (S: seed"},
        BadInput{{"validate", "--seed"}, "0 .. 2^63-1"},
        BadInput{{"ncu-check", "--ncu-csv", "--tile", "16"}, "--ncu-csv needs a value"}));

// A source's compiler flags are checked before Clang sees them: one line naming the flag.
TEST(FlagValues, CompilerFlagsAreCheckedBeforeClangSeesThem) {
  const std::vector<std::string> analyze = {"analyze", "k.cu", "--grid", "1", "--block", "32"};
  const std::vector<std::string> occupancy = {"occupancy", "k.cu", "--block", "32", "--gpu", "h100"};
  const auto with = [](std::vector<std::string> args, const std::string& flag, const std::string& value) {
    args.push_back(flag);
    args.push_back(value);
    return args;
  };
  const std::string form = "(NAME, NAME=VALUE or NAME(PARAMETERS)=VALUE)";
  const std::vector<BadInput> cases = {
      {with(analyze, "-D", ""), "-D '': a macro definition starts with its name, an identifier " + form},
      {with(analyze, "-D", "=1"), "-D '=1': a macro definition starts with its name"},
      {with(analyze, "-D", " "), "-D ' ': a macro definition starts with its name"},
      {with(analyze, "-D", "N+1"),
       "-D 'N+1': 'N' is followed by '+' (NAME, NAME=VALUE or NAME(PARAMETERS)=VALUE, NAME an identifier)"},
      {with(occupancy, "-D", "1N"), "-D '1N': a macro definition starts with its name"},
      {with(analyze, "-I", ""), "-I '': give a folder to search for headers"},
      {with(analyze, "-p", ""), "-p '': give the build folder that holds compile_commands.json"}};
  for (const BadInput& bad : cases) {
    SCOPED_TRACE(bad.must_mention);
    TempDir dir;
    std::ofstream(dir.file("k.cu")) << "__global__ void k(int *o) { o[threadIdx.x] = 1; }\n";
    expect_refusal(run_in(dir, bad.args), bad);
  }
}

TEST(FlagValues, DashAndNegativeNumbersAreValues) {
  // "-" (stdout) and "-5" are values: refused, if at all, by what they are, never as missing.
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"analyze", "--csv", "-", "--tile", "0"},
                                             {"analyze", "--csv=-", "--tile", "0"},
                                             {"analyze", "--html", "-", "--tile", "0"}}) {
    TempDir dir;
    const CliResult r = run_in(dir, args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "--tile must be an integer from 1 to 32 (got '0')")) << r.err;
    EXPECT_TRUE(dir.entries().empty());
  }
  const CliResult negative = run_warpdiv({"analyze", "--width", "-5"});
  EXPECT_EQ(negative.status, 2);
  EXPECT_TRUE(contains(negative.err, "--width must be an integer from 1 to 2147483647 (got '-5')"))
      << negative.err;
}

TEST(FlagValues, UnknownFlagNearAKnownOne) {
  const CliResult r = run_warpdiv({"analyze", "--widht", "5"});
  expect_refusal(r, {{}, "unrecognised option '--widht'; did you mean --width?"});
  const CliResult far = run_warpdiv({"analyze", "--bogus"});
  expect_refusal(far, {{}, "unrecognised option '--bogus'"});
  EXPECT_FALSE(contains(far.err, "did you mean")) << far.err;
}

// --- Integers: exact, never saturated -------------------------------------------------------

TEST(Seed, BeyondTwoToTheSixtyThreeIsRefusedWithTheRange) {
  for (const std::string& seed :
       {std::string("9223372036854775808"),   // 2^63
        std::string("18446744073709551616"),  // 2^64 (a 64-bit digit loop wraps it to 0)
        std::string("18446744073709551626"),  // 2^64 + 10 (wraps to 10)
        std::string(60, '9'), std::string("1") + std::string(59, '0'), std::string("-1"), std::string("1e3"),
        std::string(" 5")}) {
    const CliResult r = run_warpdiv({"validate", "--seed", seed});
    expect_refusal(r, {{}, kSeedRange + " (got '" + seed + "')"});
  }
}

TEST(Seed, UpToTwoToTheSixtyThreeMinusOneIsAccepted) {
  // Accepted seeds get past the flags: the next check refuses a launch that needs more host
  // memory than any machine has (2^31-1 cubed), so no GPU is needed to tell.
  for (const char* seed : {"9223372036854775807", "0", "-0", "+5", "007"}) {
    const CliResult r = run_warpdiv({"validate", "--seed", seed, "--width", "2147483647"});
    EXPECT_EQ(r.status, 2) << seed;
    EXPECT_FALSE(contains(r.err, "--seed")) << seed << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "bytes of host memory")) << seed << ": " << r.err;
  }
}

// --- One line, escaped and bounded ------------------------------------------------------------

struct Escaped {
  std::vector<std::string> args;
  std::string shown;  // how the value must appear in the message
};
void PrintTo(const Escaped& e, std::ostream* os) {
  for (const std::string& a : e.args) *os << '[' << a.size() << " bytes]";
}

class ControlCharacters : public ::testing::TestWithParam<Escaped> {};

TEST_P(ControlCharacters, EscapedOnOneLine) {
  const CliResult r = run_warpdiv(GetParam().args);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_TRUE(printable_line(r.err)) << r.err;
  EXPECT_TRUE(contains(r.err, GetParam().shown)) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Flags, ControlCharacters,
    ::testing::Values(Escaped{{"analyze", "--width", "5\n6"}, "(got '5\\n6')"},
                      Escaped{{"analyze", "--tile", "1\r\n"}, "(got '1\\r\\n')"},
                      Escaped{{"analyze", "--engine", "fast\treplay"}, "(got 'fast\\treplay')"},
                      Escaped{{"analyze", "--warp-size", "\x1b[2J\x1b[31m32"}, "(got '\\x1b[2J\\x1b[31m32')"},
                      Escaped{{"occupancy", "--gpu", "h100\x7f\x01"}, "(got 'h100\\x7f\\x01')"},
                      Escaped{{"sweep", "--sizes", "1\n,2", "--tiles", "16", "--csv", "x.csv"},
                              "(got '1\\n,2')"},
                      Escaped{{"validate", "--seed", "\n"}, "(got '\\n')"},
                      // Boost's own messages and the command name go through the same net in run().
                      Escaped{{"analyze", "-Z\nx"}, "'-Z\\nx'"},
                      Escaped{{"anal\nyze"}, "unknown command 'anal\\nyze'; did you mean 'analyze'?"}));

TEST(Messages, LongValueCutWithItsLength) {
  const std::string huge(100000, '7');
  const CliResult r = run_warpdiv({"analyze", "--width", huge});
  expect_refusal(r, {{},
                     "--width must be an integer from 1 to 2147483647 (got '" + std::string(60, '7') +
                         "\xe2\x80\xa6' (100000 bytes))"});
  EXPECT_LT(r.err.size(), 200u);
}

TEST(Messages, WhateverTheErrorHoldsIsBounded) {
  // Boost's "unrecognised option" echoes the option whole: run() cuts the line at 1000 bytes.
  const std::string option = "-Z" + std::string(100000, 'z');
  const CliResult r = run_warpdiv({"analyze", option});
  expect_refusal(r, {{}, "bytes in all)"});
  EXPECT_LT(r.err.size(), 1100u);
}

TEST(Messages, UnknownGpuAmongThousandsListsTenAndACount) {
  // A presets file of 2,000 GPUs (data/gpus.csv's h100 row, renamed): the refusal names ten
  // and says how many more; it used to list them all on one line.
  TempDir dir;
  std::ifstream source(WARPDIV_SOURCE_DIR "/data/gpus.csv");
  std::string line, header, h100;
  while (std::getline(source, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header.empty())
      header = line;
    else if (line.rfind("h100,", 0) == 0)
      h100 = line.substr(4);
  }
  ASSERT_FALSE(h100.empty());
  std::string text = header + "\n";
  for (int i = 0; i < 2000; ++i) text += "gpu" + std::to_string(i) + h100 + "\n";
  write_file(dir.file("many.csv"), text);
  const CliResult r = run_warpdiv({"occupancy", "--gpu-file", dir.file("many.csv"), "--gpu", "h300"});
  expect_refusal(r, {{},
                     "(got 'h300'); known: gpu0, gpu1, gpu2, gpu3, gpu4, gpu5, gpu6, gpu7, "
                     "gpu8, gpu9, \xe2\x80\xa6 and 1990 more (--gpu list prints them)"});
  EXPECT_LT(r.err.size(), 1000u);
}

// --- --gpu list wherever --gpu is -----------------------------------------------------------

/// The preset names of data/gpus.csv, read here (the first field of each data row).
std::vector<std::string> preset_names() {
  std::ifstream source(WARPDIV_SOURCE_DIR "/data/gpus.csv");
  std::vector<std::string> names;
  std::string line;
  bool header = true;
  while (std::getline(source, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    names.push_back(line.substr(0, line.find(',')));
  }
  return names;
}

TEST(GpuList, EveryCommandWithGpuPrintsThePresets) {
  const std::vector<std::string> names = preset_names();
  ASSERT_GE(names.size(), 10u);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"occupancy", "--gpu", "list"},
                                             {"analyze", "--gpu", "list"},
                                             {"sweep", "--gpu", "list"},
                                             {"analyze", "--gpu", "LIST"}}) {
    const CliResult r = run_warpdiv(args);
    ASSERT_EQ(r.status, 0) << args[0] << ": " << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    // A title, a header, one row per preset, a footnote.
    EXPECT_EQ(count_lines(r.out), names.size() + 3) << r.out;
    for (const std::string& name : names)
      EXPECT_TRUE(contains(r.out, "\n  " + name + " ")) << args[0] << " misses " << name;
  }
}

TEST(GpuList, ReadsGpuFile) {
  TempDir dir;
  std::ifstream source(WARPDIV_SOURCE_DIR "/data/gpus.csv");
  std::string line, text;
  while (std::getline(source, line))
    if (line.rfind("name,", 0) == 0 || line.rfind("h100,", 0) == 0) text += line + "\n";
  write_file(dir.file("one.csv"), text);
  const CliResult r = run_warpdiv({"sweep", "--gpu", "list", "--gpu-file", dir.file("one.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count_lines(r.out), 4u) << r.out;
  EXPECT_TRUE(contains(r.out, "\n  h100 ")) << r.out;
  EXPECT_FALSE(contains(r.out, "a100")) << r.out;
}

// Flags that a listing would ignore are refused, by name.
INSTANTIATE_TEST_SUITE_P(
    GpuListIgnoredFlags, RefusedInAFolder,
    ::testing::Values(
        BadInput{{"occupancy", "--gpu", "list", "--csv", "x.csv", "--tile", "8", "--regs", "16"},
                 "--gpu list prints the presets and takes no flag but --gpu-file (got --csv, "
                 "--regs, --tile)"},
        BadInput{{"analyze", "--gpu", "list", "--width", "5"}, "(got --width)"},
        BadInput{{"analyze", "--gpu", "list", "--html", "p.html"}, "(got --html)"},
        BadInput{{"sweep", "--gpu", "list", "--sizes", "100", "--tiles", "16", "--html", "p.html"},
                 "(got --html, --sizes, --tiles)"}));

// --- Repeated list values -----------------------------------------------------------------------

class RepeatedListValues : public ::testing::TestWithParam<BadInput> {};

TEST_P(RepeatedListValues, AreRefused) { expect_refused_leaving_no_file("sweep", GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Flags, RepeatedListValues,
    ::testing::Values(BadInput{{"--sizes", "100,100", "--tiles", "16"},
                               "--sizes names 100 more than once; give each value once (got '100,100')"},
                      BadInput{{"--sizes", "100", "--tiles", "16,8,16"}, "--tiles names 16 more than once"},
                      BadInput{{"--sizes", "100", "--tiles", "16", "--inner", "5,7,5"},
                               "--inner names 5 more than once"},
                      // The same number spelled twice is the same value.
                      BadInput{{"--sizes", "007,7", "--tiles", "16"}, "--sizes names 7 more than once"}));

// --- Singular and plural ------------------------------------------------------------------------

TEST(Plurals, OneThreadOneWarpOnePhase) {
  // 1 x 1 x 1 with T = 1: one block of one thread, one warp (1 of 32 lanes), one phase.
  const CliResult r = run_warpdiv({"analyze", "--width", "1", "--tile", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out,
                       "grid 1 x 1 blocks (1), 1 thread = 1 warp per block (last warp "
                       "partial: 1 of 32 lanes), 1 phase\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "bottom_edge + corner): 1 block, ")) << r.out;
  // The thread is inside P: no block has threads outside it.
  EXPECT_TRUE(contains(r.out, "Barrier hazard: 0 of 1 block have threads outside P")) << r.out;
  for (const char* wrong : {"1 threads", " 1 warps", "1 phases", ": 1 blocks", "of 1 blocks"})
    EXPECT_FALSE(contains(r.out, wrong)) << wrong << " in\n" << r.out;
}

TEST(Plurals, OccupancyOfOneThread) {
  const CliResult r = run_warpdiv({"occupancy", "--gpu", "h100", "--threads", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "  thread = 1 warp of 32\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "/ 1 warp per block")) << r.out;
  EXPECT_FALSE(contains(r.out, "1 warps")) << r.out;
  const CliResult many = run_warpdiv({"occupancy", "--gpu", "h100", "--threads", "33"});
  ASSERT_EQ(many.status, 0) << many.err;
  EXPECT_TRUE(contains(many.out, "  threads = 2 warps of 32\n")) << many.out;  // ceil(33 / 32)
}

TEST(Plurals, SweepOfOneLaunch) {
  TempDir dir;
  const CliResult r = run_warpdiv({"sweep", "--sizes", "1", "--tiles", "1", "--csv", dir.file("one.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "warpdiv sweep: 1 launch, 4 rows written to " + dir.file("one.csv") + "\n");
}

// --- What the sweep says it wrote -----------------------------------------------------------

TEST(SweepSummary, PageAloneIsNotCalledACsv) {
  TempDir dir;
  const std::string page = dir.file("big.html");
  const CliResult r = run_warpdiv({"sweep", "--sizes", "1:3:1", "--tiles", "8", "--html", page});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "warpdiv sweep: 3 launches plotted in " + page +
                       " (no CSV written: add --csv FILE for the 12 rows)\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"big.html"});
}

TEST(SweepSummary, CsvAndPageEachNamedForWhatTheyHold) {
  TempDir dir;
  const std::string csv = dir.file("s.csv"), page = dir.file("s.html");
  const CliResult r =
      run_warpdiv({"sweep", "--sizes", "10,20", "--tiles", "8", "--csv", csv, "--html", page});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "warpdiv sweep: 2 launches, 8 rows written to " + csv + "; plots in " + page + "\n");
}

// --- --version, "did you mean", exit codes in --help ----------------------------------------

/// The VERSION of CMakeLists.txt's project() line.
std::string project_version() {
  std::ifstream cmake(WARPDIV_SOURCE_DIR "/CMakeLists.txt");
  std::string line;
  const std::string marker = "project(warpdiv VERSION ";
  while (std::getline(cmake, line)) {
    const auto at = line.find(marker);
    if (at != std::string::npos) {
      std::istringstream rest(line.substr(at + marker.size()));
      std::string version;
      rest >> version;
      return version;
    }
  }
  return "(no project line)";
}

TEST(Version, PrintsTheProjectVersion) {
  const std::string version = project_version();
  EXPECT_EQ(std::count(version.begin(), version.end(), '.'), 2) << version;
  for (const char* spelling : {"--version", "version"}) {
    const CliResult r = run_warpdiv({spelling});
    EXPECT_EQ(r.status, 0) << spelling;
    EXPECT_EQ(r.out, "warpdiv " + version + "\n") << spelling;
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
}

// --version and --help take nothing after them (a command line that goes on is not what was
// meant: nothing of it would run); `help COMMAND` is that command's help.
TEST(Version, VersionAndHelpRefuseWhatFollowsThem) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--version", "--bogus"}, {"version", "analyze", "k.cu"}}) {
    const CliResult r = run_warpdiv(args);
    EXPECT_EQ(r.status, 2) << args[0];
    EXPECT_EQ(r.out, "") << args[0];
    EXPECT_EQ(r.err, "warpdiv: error: warpdiv " + args[0] + " takes no arguments (got '" + args[1] +
                         "'); a command's options: warpdiv COMMAND --help [warpdiv-flag-usage]\n");
  }
  const CliResult help = run_warpdiv({"help", "analyze"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out, run_warpdiv({"analyze", "--help"}).out);
  EXPECT_NE(help.out.find("FILE.cu"), std::string::npos);
  // help takes one command: what follows it is named, and a name that is no command is said so.
  const CliResult extra = run_warpdiv({"help", "analyze", "x"});
  EXPECT_EQ(extra.status, 2);
  EXPECT_EQ(
      extra.err,
      "warpdiv: error: warpdiv help takes one command (got 'x' after 'analyze') [warpdiv-flag-usage]\n");
  const CliResult unknown = run_warpdiv({"--help", "extra"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err,
            "warpdiv: error: unknown command 'extra' (see warpdiv --help) [warpdiv-unknown-command]\n");
  const CliResult version = run_warpdiv({"help", "version"});
  EXPECT_EQ(version.status, 0);
  EXPECT_NE(version.out.find("usage: warpdiv --version"), std::string::npos);
}

TEST(DidYouMean, NearMissCommands) {
  const std::vector<std::pair<std::string, std::string>> misses = {{"analyse", "analyze"},
                                                                   {"occupency", "occupancy"},
                                                                   {"valdiate", "validate"},
                                                                   {"swep", "sweep"},
                                                                   {"ncu_check", "ncu-check"}};
  for (const auto& [typed, meant] : misses) {
    const CliResult r = run_warpdiv({typed, "--width", "5"});
    expect_refusal(r, {{}, "unknown command '" + typed + "'; did you mean '" + meant + "'?"});
    EXPECT_TRUE(r.out.empty());
  }
  const CliResult far = run_warpdiv({"frobnicate"});
  expect_refusal(far, {{}, "unknown command 'frobnicate' (see warpdiv --help)"});
}

TEST(Help, EveryHelpEndsWithTheExitCodes) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"--help"},
                                                                                    {"-h"},
                                                                                    {"help"},
                                                                                    {"analyze", "--help"},
                                                                                    {"sweep", "--help"},
                                                                                    {"occupancy", "-h"},
                                                                                    {"validate", "--help"},
                                                                                    {"ncu-check", "--help"},
                                                                                    {"check", "--help"},
                                                                                    {"diagnostics", "--help"},
                                                                                    {"diagnostics", "-h"}}) {
    const CliResult r = run_warpdiv(args);
    EXPECT_EQ(r.status, 0) << args[0];
    ASSERT_GE(r.out.size(), kExitCodes.size()) << args[0];
    EXPECT_EQ(r.out.substr(r.out.size() - kExitCodes.size()), kExitCodes) << args[0];
  }
  // The top-level help names --version.
  EXPECT_TRUE(contains(run_warpdiv({"--help"}).out, "warpdiv --version"));
}

}  // namespace
}  // namespace warpdiv::testing
