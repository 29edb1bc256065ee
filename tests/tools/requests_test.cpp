// tools/cli/requests: each command's flags parsed into its request without the binary: the values
// worked out by hand from the flags, and each refusal's one line as `warpdiv` prints it (exit 2);
// the lecture sweep's run (tools/cli/runs.hpp) and the outputs helper (command_outputs.hpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/support/errors.hpp"
#include "tools/cli/command_outputs.hpp"
#include "tools/cli/lecture/requests.hpp"
#include "tools/cli/requests.hpp"
#include "tools/cli/lecture/runs.hpp"
#include "tools/cli/runs.hpp"
#include "tools/cli/shorthand.hpp"

namespace warpdiv::cli {
namespace {

const std::string kSaxpy = WARPDIV_SOURCE_DIR "/kernels/zoo/grid_stride_loop.cu";

// The message of the InvalidInput that `parse` throws ("" when it throws none).
template <class Parse>
std::string refusal(Parse parse, const Args& args) {
  try {
    parse(args);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}

// ---- the shorthand table (tools/cli/shorthand.hpp) -----------------------------------------

// A FILE.cu form that only says it ran.
int file_form(const Args&, std::ostream& out) {
  out << "FILE.cu form\n";
  return 7;
}

TEST(Shorthand, TheLectureIsTheShorthandOfFourCommands) {
  for (const char* command : {"analyze", "sweep", "validate", "ncu-check"})
    EXPECT_NE(find_shorthand(command), nullptr) << command;
  EXPECT_EQ(find_shorthand("occupancy"), nullptr);
  EXPECT_EQ(find_shorthand("check"), nullptr);
  EXPECT_EQ(shorthand_summary("ncu-check"), ", or ncu's CSV for the lecture");
  EXPECT_EQ(shorthand_summary("analyze"), "");
  EXPECT_EQ(
      shorthand_usage("validate"),
      "       warpdiv validate [--width W | --rows J --inner K --cols L] ... (the lecture's kernels)\n");
  EXPECT_EQ(shorthand_usage("occupancy"), "");
}

TEST(Shorthand, HelpAloneShowsTheFileFormThenTheShorthand) {
  std::ostringstream out;
  EXPECT_EQ(run_command_form("analyze", {"--help"}, out, file_form), 0);
  EXPECT_EQ(out.str().rfind("FILE.cu form\n\nwarpdiv analyze with no FILE.cu: the GPU Teaching Kit", 0), 0u)
      << out.str();
  std::ostringstream alone;  // no shorthand: the FILE.cu form alone
  EXPECT_EQ(run_command_form("occupancy", {"--help"}, alone, file_form), 7);
  EXPECT_EQ(alone.str(), "FILE.cu form\n");
}

TEST(Shorthand, AFileOrASourceFlagGoesToTheFileForm) {
  for (const Args& args : {Args{"k.cu"}, Args{"--model", "m.json"}, Args{"--width", "5", "--grid", "1"}}) {
    std::ostringstream out;
    EXPECT_EQ(run_command_form("analyze", args, out, file_form), 7) << args[0];
    EXPECT_EQ(out.str(), "FILE.cu form\n");
  }
  // The lecture sweep's own flags keep a stray word from being taken for a kernel file.
  std::ostringstream out;
  EXPECT_THROW(
      run_command_form("sweep", {"k.cu", "--sizes", "10", "--tiles", "4", "--csv", "-"}, out, file_form),
      InvalidInput);
  EXPECT_EQ(out.str(), "");
  std::ostringstream file;
  EXPECT_EQ(run_command_form("sweep", {"k.cu", "--grid", "1"}, file, file_form), 7);
}

TEST(Shorthand, ItsFlagsAreRefusedInTheFileForm) {
  EXPECT_EQ(refusal([](const Args& a) { refuse_shorthand_flags("analyze", a); }, {"k.cu", "--tile=8"}),
            "--tile sets the lecture kernel's launch (warpdiv analyze without a file); for FILE.cu "
            "give --grid, --block and --arg NAME=VALUE");
  EXPECT_EQ(refusal([](const Args& a) { refuse_shorthand_flags("analyze", a); }, {"k.cu", "--tiles", "8"}),
            "");
  EXPECT_EQ(refusal(parse_analyze_source, {kSaxpy, "--rows", "5"}).rfind("--rows sets the lecture", 0), 0u);
}

// ---- analyze (the lecture) ----------------------------------------------------------------

TEST(ParseAnalyze, DefaultsAreTheLecturesLaunch) {
  const AnalyzeRequest r = parse_analyze({});
  EXPECT_TRUE(r.help.empty());
  EXPECT_FALSE(r.list_gpus);
  EXPECT_EQ(r.config.rows, 100);
  EXPECT_EQ(r.config.inner, 100);
  EXPECT_EQ(r.config.cols, 100);
  EXPECT_EQ(r.config.tile, 16);
  EXPECT_EQ(r.config.warp_size, 32);
  EXPECT_EQ(r.engine, LectureEngine::exact);
  EXPECT_TRUE(r.gpu.name.empty());
  EXPECT_FALSE(r.csv);
  EXPECT_FALSE(r.html);
}

TEST(ParseAnalyze, FlagsIntoTheRequest) {
  const AnalyzeRequest r =
      parse_analyze({"--rows", "5", "--inner", "7", "--cols", "9", "--tile", "4", "--warp-size", "8",
                     "--engine", "replay", "--csv", "o.csv", "--gpu", "h100", "--regs", "64"});
  EXPECT_EQ(r.config.rows, 5);
  EXPECT_EQ(r.config.inner, 7);
  EXPECT_EQ(r.config.cols, 9);
  EXPECT_EQ(r.config.tile, 4);
  EXPECT_EQ(r.config.warp_size, 8);
  EXPECT_EQ(r.engine, LectureEngine::replay);
  EXPECT_EQ(r.csv, "o.csv");
  EXPECT_FALSE(r.html);
  EXPECT_EQ(r.gpu.name, "h100");
  EXPECT_EQ(r.gpu.registers, 64);
  EXPECT_FALSE(r.gpu.file);
}

TEST(ParseAnalyze, HelpAndGpuList) {
  EXPECT_NE(parse_analyze({"--help"}).help.find("usage: warpdiv analyze [--width W"), std::string::npos);
  const AnalyzeRequest list = parse_analyze({"--gpu", "LIST", "--gpu-file", "g.csv"});
  EXPECT_TRUE(list.list_gpus);
  EXPECT_EQ(list.gpu.file, "g.csv");
}

TEST(ParseAnalyze, Refusals) {
  EXPECT_EQ(refusal(parse_analyze, {"--width", "100", "--rows", "5"}),
            "--width cannot be combined with --rows, --inner or --cols");
  // The 2^31-1 cube at T = 16: far above the replay's budget of 6e9 evaluations.
  EXPECT_EQ(refusal(parse_analyze, {"--engine", "replay", "--width", "2147483647"}),
            "--engine replay would make 1199254415579727932099133440 warp-statement evaluations, "
            "above its limit of 6000000000 (about a minute); use --engine exact (the default), "
            "which counts any size exactly");
  EXPECT_EQ(refusal(parse_analyze, {"--engine", "fast"}),
            "--engine must be exact, replay or all (got 'fast')");
  EXPECT_EQ(refusal(parse_analyze, {"--regs", "40"}), "--regs and --gpu-file need --gpu NAME");
  EXPECT_EQ(refusal(parse_analyze, {"--gpu", "list", "--width", "5"}),
            "--gpu list prints the presets and takes no flag but --gpu-file (got --width)");
}

// ---- analyze FILE.cu ----------------------------------------------------------------------

TEST(ParseAnalyzeSource, TheLaunchWithoutArguments) {
  const AnalyzeSourceRequest r =
      parse_analyze_source({kSaxpy, "--grid", "(n+127)/128", "--block", "128", "--arg", "n=1000", "--arg",
                            "a=2", "--only-warp", "3", "--by-iteration", "--html", "p.html"});
  EXPECT_EQ(r.source.file, kSaxpy);
  EXPECT_TRUE(r.source.model.empty());
  EXPECT_FALSE(r.save_only);
  EXPECT_EQ(r.engine, SourceEngine::automatic);
  // (1000 + 127) / 128 = 8 blocks of 128 threads: 4 warps, so --only-warp 3 is the last.
  EXPECT_EQ(r.launch.grid.x, 8u);
  EXPECT_EQ(r.launch.block.x, 128u);
  EXPECT_EQ(r.launch.grid.y * r.launch.grid.z * r.launch.block.y * r.launch.block.z, 1u);
  EXPECT_TRUE(r.launch.arguments.empty());  // bound once the kernel is read
  EXPECT_EQ(r.values.at("n").value, 1000);
  EXPECT_EQ(r.values.at("a").value, 2);
  EXPECT_EQ(r.launch_text, "(n+127)/128 128");
  EXPECT_EQ(r.replay_options.only_warp, 3u);
  EXPECT_EQ(r.report_options.only_warp, 3u);
  EXPECT_TRUE(r.replay_options.by_iteration);
  EXPECT_TRUE(r.report_options.by_iteration);
  EXPECT_EQ(r.replay_options.max_evaluations, sim::ir::kDefaultMaxEvaluations);
  EXPECT_EQ(r.html, "p.html");
  EXPECT_FALSE(r.csv);
}

TEST(ParseAnalyzeSource, SaveOnlyNeedsNoLaunch) {
  const AnalyzeSourceRequest r = parse_analyze_source({kSaxpy, "--save-model", "m.json"});
  EXPECT_TRUE(r.save_only);
  EXPECT_EQ(r.save_model, "m.json");
  EXPECT_EQ(refusal(parse_analyze_source, {kSaxpy, "--save-model", "m.json", "--csv", "x.csv"}),
            "--csv needs a launch: give --grid and --block (or use --save-model alone)");
}

TEST(ParseAnalyzeSource, Refusals) {
  const Args launch = {kSaxpy, "--grid", "4", "--block", "128"};
  const auto with = [&](std::vector<std::string> more) {
    Args args = launch;
    args.insert(args.end(), more.begin(), more.end());
    return refusal(parse_analyze_source, args);
  };
  EXPECT_EQ(with({"--by-class"}), "--by-class needs --csv FILE (the CSV it shapes)");
  EXPECT_EQ(with({"--by-class", "--csv", "x.csv", "--engine", "replay"}),
            "--by-class needs the class engine: use --engine auto or exact, not replay");
  EXPECT_EQ(with({"--regs", "5"}), "--regs needs --gpu NAME");
  EXPECT_EQ(with({"--only-warp", "4"}), "--only-warp must be an integer from 0 to 3 (got '4')");
  EXPECT_EQ(refusal(parse_analyze_source, {kSaxpy, "--width", "5"}),
            "--width sets the lecture kernel's launch (warpdiv analyze without a file); for "
            "FILE.cu give --grid, --block and --arg NAME=VALUE");
  // Without --grid or --block the launch comes from the file's host code: a --model has
  // none; --launch chooses among the file's launches only.
  const std::string model = ::testing::TempDir() + "requests_test_model.json";
  std::ofstream(model) << "{}";
  EXPECT_EQ(refusal(parse_analyze_source, {"--model", model, "--grid", "4"}),
            "warpdiv analyze --model needs --grid X[,Y[,Z]] and --block X[,Y[,Z]] (a model has no "
            "host code to read the launch from)");
  EXPECT_EQ(refusal(parse_analyze_source, {"--model", model, "--launch", "1"}),
            "--launch chooses a launch in FILE.cu's host code; a --model has none");
  EXPECT_EQ(with({"--launch", "2"}),
            "--launch chooses a launch in FILE.cu's host code, which --grid and --block given "
            "together replace: leave out --launch, or one of them");
  EXPECT_EQ(refusal(parse_analyze_source, {kSaxpy, "--launch", "0"}),
            "--launch must be an integer from 1 to 2147483647 (got '0')");
  EXPECT_EQ(refusal(parse_analyze_source, {kSaxpy, "-p", "build", "--gpu", "H100"}),
            "--gpu compiles FILE.cu with nvcc for its registers, with the -D and -I of the command "
            "line only, not -p's compile_commands.json: give them with -D and -I instead of -p (or "
            "leave out --gpu)");
  // A --model holds one kernel already read: the compiler's flags are refused, after the others.
  EXPECT_EQ(
      refusal(parse_analyze_source, {"--model", model, "--grid", "4", "--block", "128", "--kernel", "saxpy"}),
      "--kernel applies to a source file; a --model holds one kernel already read");
  std::remove(model.c_str());
}

// ---- sweep --------------------------------------------------------------------------------

TEST(ParseSweep, ThePlan) {
  const SweepRequest r = parse_sweep(
      {"--sizes", "64:256:64", "--tiles", "8,32", "--inner", "10", "--warp-size", "16", "--csv", "s.csv"});
  EXPECT_EQ(r.plan.sizes, (std::vector<std::int64_t>{64, 128, 192, 256}));
  EXPECT_EQ(r.plan.tiles, (std::vector<int>{8, 32}));
  EXPECT_EQ(r.plan.inners, (std::vector<std::int64_t>{10}));
  EXPECT_EQ(r.plan.warp_size, 16);
  EXPECT_EQ(r.plan.launches(), 8u);  // 4 sizes x 1 inner x 2 tiles
  EXPECT_EQ(r.csv, "s.csv");
  EXPECT_FALSE(r.html);
  EXPECT_TRUE(r.gpu.name.empty());
}

TEST(ParseSweep, Refusals) {
  EXPECT_EQ(refusal(parse_sweep, {"--sizes", "1:2147483647:1", "--tiles", "1", "--csv", "x.csv"}),
            "--sizes, --inner and --tiles give 2147483647 launches, above the limit of 1000000 "
            "per sweep; split it into several");
  EXPECT_EQ(refusal(parse_sweep, {"--sizes", "100", "--tiles", "16"}),
            "warpdiv sweep needs --csv FILE, --html FILE or both (see warpdiv sweep --help)");
  EXPECT_EQ(refusal(parse_sweep, {"--sizes", "100", "--tiles", "16", "--gpu", "h100", "--csv", "x"}),
            "--gpu needs --html FILE (the occupancy plot is on the page)");
  EXPECT_EQ(refusal(parse_sweep, {"--sizes", "100"}), "--tiles LIST is required (see warpdiv sweep --help)");
  // --help needs none of the required flags.
  EXPECT_NE(parse_sweep({"--help"}).help.find("usage: warpdiv sweep --sizes"), std::string::npos);
}

TEST(RunSweepLecture, RowsInThePlansOrder) {
  analysis::SweepPlan plan;
  plan.sizes = {100, 4097};
  plan.tiles = {16, 32};
  std::vector<analysis::SweepRow> rows;
  const std::size_t done = run_sweep_lecture(
      plan, [&](const analysis::SweepRow& row) { rows.push_back(row); }, [] { return false; });
  EXPECT_EQ(done, 4u);
  ASSERT_EQ(rows.size(), 16u);  // four conditions per launch
  EXPECT_EQ(rows[0].rows, 100);
  EXPECT_EQ(rows[4].tile, 32);
  // 4097 = 128 * 32 + 1, T = 32: grid 129 x 129, 32 warps (one row each), 129 phases:
  // 129^2 * 32 * 129 = 68694048 warp-phases. The last phase (tx < 1) splits every warp whose row
  // is in range: 128 * 129 blocks * 32 warps + the bottom row's warp 0 in 129 blocks = 528513.
  const analysis::SweepRow& load_m = rows[12];
  EXPECT_EQ(load_m.rows, 4097);
  EXPECT_EQ(load_m.tile, 32);
  EXPECT_EQ(load_m.condition, lecture::Condition::load_M);
  EXPECT_EQ(load_m.warp_phases, 68694048u);
  EXPECT_EQ(load_m.divergent_warp_phases, 528513u);
}

TEST(RunSweepLecture, StopsBetweenChunks) {
  analysis::SweepPlan plan;
  plan.sizes = {100};
  plan.tiles = {16};
  std::size_t taken = 0;
  EXPECT_EQ(run_sweep_lecture(
                plan, [&](const analysis::SweepRow&) { ++taken; }, [] { return true; }),
            0u);
  EXPECT_EQ(taken, 0u);
}

// ---- sweep FILE.cu ------------------------------------------------------------------------

TEST(ParseSweepSource, LaunchesBlocksOutermostTheLastArgFastest) {
  const SweepSourceRequest r =
      parse_sweep_source({kSaxpy, "--grid", "(n+block_x-1)/block_x", "--block", "64,128", "--arg",
                          "n=1000:3000:1000", "--arg", "a=2", "--csv", "s.csv"});
  ASSERT_EQ(r.launches(), 6u);  // 2 blocks x 3 values of n x 1 of a
  ArgValues values;
  const analysis::SourceSweepLaunch first = r.launch(0, values);
  EXPECT_EQ(first.args, (std::vector<std::int64_t>{1000, 2}));
  EXPECT_EQ(first.block.x, 64u);
  EXPECT_EQ(first.grid.x, 16u);  // (1000 + 63) / 64
  EXPECT_EQ(values.at("block_x").value, 64);
  const analysis::SourceSweepLaunch last = r.launch(5, values);
  EXPECT_EQ(last.args, (std::vector<std::int64_t>{3000, 2}));
  EXPECT_EQ(last.block.x, 128u);
  EXPECT_EQ(last.grid.x, 24u);  // (3000 + 127) / 128
  EXPECT_EQ(r.plan().arg_names, (std::vector<std::string>{"n", "a"}));
  EXPECT_EQ(r.plan().swept, (std::vector<std::string>{"n", "block"}));
}

TEST(ParseSweepSource, Refusals) {
  EXPECT_EQ(refusal(parse_sweep_source,
                    {kSaxpy, "--grid", "4", "--block", "64", "--arg", "block_x=1", "--csv", "x"}),
            "--arg block_x: the name is taken by the swept block's size");
  EXPECT_EQ(refusal(parse_sweep_source, {kSaxpy, "--grid", "4", "--block", "64,64", "--csv", "x"}),
            "--block names a block size more than once (got '64,64')");
  EXPECT_EQ(refusal(parse_sweep_source, {kSaxpy, "--grid", "4", "--csv", "x"}),
            "warpdiv sweep " + kSaxpy + " needs --block LIST (see warpdiv sweep FILE.cu --help)");
}

// ---- occupancy ----------------------------------------------------------------------------

TEST(ParseOccupancy, TheTiledLaunchByDefault) {
  const OccupancyRequest r = parse_occupancy({"--gpu", "h100"});
  // T = 16: 256 threads, 32 registers, 2 tiles of 16 x 16 floats = 2048 bytes.
  EXPECT_EQ(r.gpu.name, "h100");
  EXPECT_EQ(r.launch.threads_per_block, 256);
  EXPECT_EQ(r.launch.registers_per_thread, 32);
  EXPECT_EQ(r.launch.static_shared_bytes, 2048);
  EXPECT_EQ(r.launch.dynamic_shared_bytes, 0);
  EXPECT_FALSE(r.launch.carveout_percent);
  EXPECT_TRUE(r.source.file.empty());
}

TEST(ParseOccupancy, ThreadsAndTheOtherFlags) {
  const OccupancyRequest r =
      parse_occupancy({"--gpu", "h100", "--threads", "100", "--regs", "40", "--smem", "512", "--dynamic-smem",
                       "1000", "--carveout", "50", "--csv", "o.csv"});
  EXPECT_EQ(r.launch.threads_per_block, 100);
  EXPECT_EQ(r.launch.registers_per_thread, 40);
  EXPECT_EQ(r.launch.static_shared_bytes, 512);
  EXPECT_EQ(r.launch.dynamic_shared_bytes, 1000);
  EXPECT_EQ(r.launch.carveout_percent, 50);
  EXPECT_EQ(r.csv, "o.csv");
}

TEST(ParseOccupancy, AKernelFilesBlock) {
  const OccupancyRequest r =
      parse_occupancy({kSaxpy, "--gpu", "h100", "--block", "16,16", "-D", "N=4", "--regs", "20"});
  EXPECT_EQ(r.source.file, kSaxpy);
  EXPECT_EQ(r.source.defines, (std::vector<std::string>{"N=4"}));
  EXPECT_EQ(r.launch.threads_per_block, 256);
  EXPECT_EQ(r.gpu.registers, 20);  // overrides the compiler's figure
  EXPECT_FALSE(r.static_shared);
}

TEST(ParseOccupancy, Refusals) {
  EXPECT_EQ(refusal(parse_occupancy, {"--gpu", "h100", "--tile", "8", "--threads", "64"}),
            "--tile and --threads cannot be combined (--tile T means T*T threads)");
  EXPECT_EQ(refusal(parse_occupancy, {"--tile", "8"}),
            "--gpu NAME is required (warpdiv occupancy --gpu list prints the presets)");
  EXPECT_EQ(refusal(parse_occupancy, {kSaxpy, "--gpu", "h100", "--tile", "8"}),
            "--tile does not apply to a kernel file: give its launch's --block X[,Y[,Z]]");
  EXPECT_EQ(refusal(parse_occupancy, {"--gpu", "h100", "--block", "16"}),
            "--block applies to a kernel file: warpdiv occupancy FILE.cu --block X[,Y[,Z]] "
            "--gpu NAME");
}

// ---- validate FILE.cu ---------------------------------------------------------------------

TEST(ParseValidateSource, TheLaunchAndTheRecordLimit) {
  const ValidateSourceRequest r =
      parse_validate_source({kSaxpy, "--grid", "2", "--block", "64", "--arg", "n=100"});
  EXPECT_EQ(r.launch.grid.x, 2u);
  EXPECT_EQ(r.launch.block.x, 64u);
  EXPECT_EQ(r.launch.warp_size, 32);
  EXPECT_EQ(r.launch_text, "2 64");
  EXPECT_EQ(r.record_limit, 4000000);  // the default
  EXPECT_EQ(parse_validate_source({kSaxpy, "--grid", "2", "--block", "64", "--records", "0"}).record_limit,
            0);
}

TEST(ParseValidateSource, Refusals) {
  EXPECT_EQ(refusal(parse_validate_source, {kSaxpy, "--grid", "2", "--block", "64", "--warp-size", "16"}),
            "--warp-size must be 32 for a GPU run (got 16)");
  EXPECT_EQ(
      refusal(parse_validate_source, {kSaxpy, "--grid", "2", "--block", "64", "--records", "100000001"}),
      "--records must be an integer from 0 to 100000000 (got '100000001')");
  const std::string model = ::testing::TempDir() + "requests_test_validate_model.json";
  std::ofstream(model) << "{}";
  EXPECT_EQ(refusal(parse_validate_source, {"--model", model, "--block", "64"}),
            "warpdiv validate --model needs --grid X[,Y[,Z]] and --block X[,Y[,Z]] (a model has no "
            "host code to read the launch from)");
  std::remove(model.c_str());
}

TEST(ParseSourceLaunch, WithoutGridOrBlockTheLaunchComesFromTheHostCode) {
  const AnalyzeSourceRequest a = parse_analyze_source(
      {kSaxpy, "--block", "64", "--arg", "n=5", "--dynamic-smem", "128", "--launch", "2"});
  ASSERT_TRUE(a.from_host.has_value());
  EXPECT_TRUE(a.source.host_launches);
  EXPECT_FALSE(a.from_host->grid.has_value());
  EXPECT_EQ(a.from_host->block.value_or(""), "64");
  EXPECT_EQ(a.from_host->values.at("n").value, 5);
  EXPECT_EQ(a.from_host->dynamic_shared.value_or(-1), 128);
  EXPECT_EQ(a.from_host->launch.value_or(-1), 2);
  const AnalyzeSourceRequest both = parse_analyze_source({kSaxpy, "--grid", "4", "--block", "128"});
  EXPECT_FALSE(both.from_host.has_value());
  EXPECT_FALSE(both.source.host_launches);
  const ValidateSourceRequest v = parse_validate_source({kSaxpy, "-p", "build"});
  ASSERT_TRUE(v.from_host.has_value());
  EXPECT_EQ(v.source.build_dir, "build");
}

// ---- the outputs helper -------------------------------------------------------------------

TEST(CommandOutputs, AnnouncesWhatWasWrittenInTheOrderOpened) {
  const std::string dir = ::testing::TempDir();
  std::ostringstream out;
  {
    CommandOutputs outputs(out, {});
    EXPECT_EQ(outputs.open("--csv", std::nullopt, "CSV"), nullptr);  // not asked for
    outputs.open("--html", dir + "requests_test.html", "HTML")->stream() << "<p>";
    outputs.open("--csv", dir + "requests_test.csv", "CSV")->stream() << "a\n";
    outputs.commit();
    outputs.report() << "report\n";
    outputs.announce();
  }
  EXPECT_EQ(out.str(), "report\n\nHTML written to " + dir + "requests_test.html\nCSV written to " + dir +
                           "requests_test.csv\n");
  std::ostringstream none;
  CommandOutputs nothing(none, {});
  nothing.commit();
  nothing.announce();
  EXPECT_EQ(none.str(), "");  // no output: no blank line either
  std::remove((dir + "requests_test.html").c_str());
  std::remove((dir + "requests_test.csv").c_str());
}

TEST(CommandOutputs, AnOutputThatIsAnInputIsRefused) {
  std::ostringstream out;
  KernelSource source;
  source.file = kSaxpy;
  CommandOutputs outputs(out, run_inputs(source, std::nullopt));
  EXPECT_THROW(outputs.open("--csv", kSaxpy, "CSV"), InvalidInput);
}

}  // namespace
}  // namespace warpdiv::cli
