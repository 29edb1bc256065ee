// `warpdiv sweep` through the real binary: the CSV, strict parsing of LIST and START:STOP:STEP,
// the progress bar (on a pseudo-terminal only), and Ctrl-C (a real SIGINT to a running sweep).
#include <gtest/gtest.h>

#include <limits>  // libfccp's csv.h uses std::numeric_limits without including it
#include <libfccp/csv.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/tools/cli_runner.hpp"
#include "tests/tools/pty_runner.hpp"

namespace warpdiv::testing {
namespace {

// A parsed sweep CSV.
struct Row {
  long long rows = 0, inner = 0, cols = 0;
  int tile = 0, warp_size = 0;
  std::string condition;
  std::string warp_phases, divergent;  // text: may exceed 64 bits
  double fraction = 0;
};

std::vector<Row> read_sweep_csv(const std::string& path) {
  io::CSVReader<9> reader(path);
  reader.read_header(io::ignore_no_column, "rows", "inner", "cols", "tile", "warp_size", "condition",
                     "warp_phases", "divergent_warp_phases", "fraction");
  std::vector<Row> rows;
  Row r;
  while (reader.read_row(r.rows, r.inner, r.cols, r.tile, r.warp_size, r.condition, r.warp_phases,
                         r.divergent, r.fraction))
    rows.push_back(r);
  return rows;
}

TEST(SweepCli, WritesOneRowPerLaunchAndCondition) {
  TempDir dir;
  const std::string csv = dir.file("sweep.csv");
  const CliResult r = run_warpdiv(
      {"sweep", "--sizes", "100,4097", "--tiles", "16,32", "--inner", "100,2147483647", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;  // stderr is not a terminal: no progress bar
  EXPECT_TRUE(contains(r.out, "8 launches, 32 rows written to " + csv)) << r.out;
  EXPECT_EQ(read_file(csv).substr(0, read_file(csv).find('\n')),
            "rows,inner,cols,tile,warp_size,condition,warp_phases,divergent_warp_phases,fraction");
  const std::vector<Row> rows = read_sweep_csv(csv);
  ASSERT_EQ(rows.size(), 32u);
  // Order: size, inner, tile, condition. Row 0: 100 x 100 x 100, T = 16: the lecture, 350 of 2744.
  EXPECT_EQ(rows[0].condition, "load_M");
  EXPECT_EQ(rows[0].warp_phases, "2744");
  EXPECT_EQ(rows[0].divergent, "350");
  EXPECT_NEAR(rows[0].fraction, 350.0 / 2744, 1e-9);
  EXPECT_EQ(rows[3].condition, "store");
  EXPECT_EQ(rows[3].warp_phases, "392");
  EXPECT_EQ(rows[3].divergent, "50");
  // Rows 4..7: T = 32: grid 4 x 4, 32 warps, 4 phases = 2048; 100 = 3 * 32 + 4: load_M's last
  // phase (tx < 4) splits every warp with its row in range: 12 blocks * 32 + 4 bottom blocks * 4
  // warps (rows 96..99) = 400.
  EXPECT_EQ(rows[4].tile, 32);
  EXPECT_EQ(rows[4].warp_phases, "2048");
  EXPECT_EQ(rows[4].divergent, "400");
  // Rows 8..11: K = 2^31 - 1, T = 16, J = L = 100: 49 blocks * 8 warps * 2^27 phases =
  // 52613349376 warp-phases; the last phase holds 15 indices (tx < 15) and splits the 8 (top
  // blocks) or 2 (bottom blocks) warps in range: 42 * 8 + 7 * 2 = 350 again.
  EXPECT_EQ(rows[8].inner, 2147483647);
  EXPECT_EQ(rows[8].warp_phases, "52613349376");
  EXPECT_EQ(rows[8].divergent, "350");
  // The last launch: 4097, K = 2^31 - 1, T = 32: 129^2 blocks * 32 warps * 2^26 phases =
  // 532512 * 67108864 = 35736275386368 per check. store: 129^2 * 32 = 532512 warps; in the last
  // block-column (4097 = 128 * 32 + 1: tx < 1) every warp with its row in range splits: 128
  // blocks * 32 warps + the corner's warp 0 = 4097.
  EXPECT_EQ(rows[31].condition, "store");
  EXPECT_EQ(rows[31].warp_phases, "532512");
  EXPECT_EQ(rows[31].divergent, "4097");
  EXPECT_EQ(rows[30].warp_phases, "35736275386368");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"sweep.csv"});
}

TEST(SweepCli, RangesIncludeStopAndWarpSizeIsRecorded) {
  TempDir dir;
  const std::string csv = dir.file("r.csv");
  const CliResult r =
      run_warpdiv({"sweep", "--sizes", "10:40:15", "--tiles", "2:8:3", "--warp-size", "64", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<Row> rows = read_sweep_csv(csv);
  // Sizes 10, 25, 40; tiles 2, 5, 8: 9 launches, 36 rows.
  ASSERT_EQ(rows.size(), 36u);
  EXPECT_EQ(rows[0].rows, 10);
  EXPECT_EQ(rows[0].tile, 2);
  EXPECT_EQ(rows[4].tile, 5);
  EXPECT_EQ(rows[35].rows, 40);
  EXPECT_EQ(rows[35].inner, 40);
  EXPECT_EQ(rows[35].tile, 8);
  for (const Row& row : rows) EXPECT_EQ(row.warp_size, 64);
  // 40 x 40, T = 8: multiples of the tile never diverge.
  EXPECT_EQ(rows[35].divergent, "0");
}

TEST(SweepCli, HelpNeedsNoOtherFlag) {
  const CliResult r = run_warpdiv({"sweep", "--help"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* flag : {"--sizes", "--tiles", "--inner", "--warp-size", "--csv", "130"})
    EXPECT_TRUE(contains(r.out, flag)) << flag;
}

class SweepBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(SweepBadInput, ExitsTwoWithOneLineAndNoFile) { expect_refused_leaving_no_file("sweep", GetParam()); }

const std::string kSizesList =
    "--sizes must be a comma-separated list of integers from 1 to 2147483647, or START:STOP:STEP";
const std::string kSizesRange =
    "--sizes START:STOP:STEP must be integers from 1 to 2147483647 with START <= STOP and STEP >= 1";

INSTANTIATE_TEST_SUITE_P(
    Flags, SweepBadInput,
    ::testing::Values(
        BadInput{{"--sizes", "100", "--tiles", "16", "--sizes", "200"}, "more than once"},
        BadInput{{"--tiles", "16"}, "--sizes LIST is required"},
        BadInput{{"--sizes", "100"}, "--tiles LIST is required"},
        BadInput{{"--sizes", "", "--tiles", "16"}, kSizesList + " (got '')"},
        BadInput{{"--sizes", "0", "--tiles", "16"}, kSizesList + " (got '0')"},
        BadInput{{"--sizes", "100,,200", "--tiles", "16"}, kSizesList + " (got '100,,200')"},
        BadInput{{"--sizes", "100,", "--tiles", "16"}, kSizesList},
        BadInput{{"--sizes", ",100", "--tiles", "16"}, kSizesList},
        BadInput{{"--sizes", "1e3", "--tiles", "16"}, kSizesList},
        BadInput{{"--sizes", "100 200", "--tiles", "16"}, kSizesList},
        BadInput{{"--sizes", "2147483648", "--tiles", "16"}, kSizesList},
        BadInput{{"--sizes", "-5", "--tiles", "16"}, kSizesList},
        BadInput{{"--sizes", "1:10", "--tiles", "16"}, kSizesRange + " (got '1:10')"},
        BadInput{{"--sizes", "1:10:1:1", "--tiles", "16"}, kSizesRange},
        BadInput{{"--sizes", "10:1:1", "--tiles", "16"}, kSizesRange + " (got '10:1:1')"},
        BadInput{{"--sizes", "1:10:0", "--tiles", "16"}, kSizesRange},
        BadInput{{"--sizes", "1:10:-1", "--tiles", "16"}, kSizesRange},
        BadInput{{"--sizes", "0:10:1", "--tiles", "16"}, kSizesRange},
        BadInput{{"--sizes", "1::1", "--tiles", "16"}, kSizesRange},
        BadInput{{"--sizes", "100", "--tiles", "33"},
                 "--tiles must be a comma-separated list of integers from 1 to 32"},
        BadInput{{"--sizes", "100", "--tiles", "0:32:1"},
                 "--tiles START:STOP:STEP must be integers from 1 to 32"},
        BadInput{{"--sizes", "100", "--tiles", "16", "--inner", "x"},
                 "--inner must be a comma-separated list of integers from 1 to 2147483647"},
        BadInput{{"--sizes", "100", "--tiles", "16", "--warp-size", "48"},
                 "--warp-size must be a power of two from 1 to 64"},
        // 1000 sizes * 32 tiles * 100 inner sizes = 3,200,000 launches: refused before any work.
        BadInput{{"--sizes", "1:1000:1", "--tiles", "1:32:1", "--inner", "1:100:1"},
                 "give 3200000 launches, above the limit of 1000000"},
        BadInput{{"--sizes", "1:2147483647:1", "--tiles", "32"}, "give 2147483647 launches"},
        BadInput{{"--sizes", "100", "--tiles", "16", "stray"}, "positional"}));

TEST(SweepCli, UnwritableCsvIsRefusedAndFailedRunKeepsTheOldFile) {
  TempDir dir;
  const CliResult r =
      run_warpdiv({"sweep", "--sizes", "100", "--tiles", "16", "--csv", dir.file("no/such.csv")});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "--csv")) << r.err;
  const std::string keep = dir.file("keep.csv");
  write_file(keep, "precious\n");
  const CliResult bad = run_warpdiv({"sweep", "--sizes", "100", "--tiles", "99", "--csv", keep});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(read_file(keep), "precious\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.csv"});
}

TEST(SweepCli, ProgressBarOnATerminal) {
  // stderr (and stdout) on a pseudo-terminal: the bar is drawn with '\r' and ends at 100%.
  TempDir dir;
  const PtyRun run = run_on_pty(
      {WARPDIV_BINARY, "sweep", "--sizes", "1:20000:1", "--tiles", "16,32", "--csv", dir.file("p.csv")});
  const std::string& screen = run.screen;
  EXPECT_EQ(run.status, 0) << screen;
  EXPECT_TRUE(contains(screen, "\rsweep [")) << screen;
  EXPECT_TRUE(contains(screen, "] 100% 40000/40000 launches")) << screen;
  EXPECT_TRUE(contains(screen, "40000 launches, 160000 rows written")) << screen;
  EXPECT_EQ(read_sweep_csv(dir.file("p.csv")).size(), 160000u);
}

TEST(SweepCli, CtrlCTypedOnTheTerminal) {
  // The real keystroke: ^C written to the pseudo-terminal's master becomes SIGINT for the sweep
  // (the terminal's foreground process). The bar's line is ended before the one-line note.
  TempDir dir;
  bool sent = false;
  const PtyRun run = run_on_pty(
      {WARPDIV_BINARY, "sweep", "--sizes", "1:1000000:1", "--tiles", "32", "--csv", dir.file("t.csv")},
      [&sent](const std::string& screen, int master) {
        if (!sent && contains(screen, " launches")) {  // the bar is up: the sweep is running
          const char ctrl_c = '\x03';
          EXPECT_EQ(::write(master, &ctrl_c, 1), 1);
          sent = true;
        }
      });
  const std::string& screen = run.screen;
  EXPECT_EQ(run.status, 130) << screen;
  // The terminal echoes "^C" after the bar; the note starts on a line of its own.
  EXPECT_TRUE(contains(screen, "\r\nwarpdiv sweep: interrupted: ")) << screen;
  const std::vector<Row> rows = read_sweep_csv(dir.file("t.csv"));
  EXPECT_EQ(rows.size() % 4, 0u);
  EXPECT_LT(rows.size(), 4000000u);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"t.csv"});
}

TEST(SweepCli, CtrlCKeepsEveryFinishedRow) {
  // A million launches (about ten seconds); SIGINT once the first rows reach the disk.
  TempDir dir;
  const std::string csv = dir.file("c.csv");
  const std::string err = dir.file("stderr.txt");
  std::vector<std::string> args = {WARPDIV_BINARY, "sweep", "--sizes", "1:1000000:1",
                                   "--tiles",      "32",    "--csv",   csv};
  std::vector<char*> argv = argv_of(args);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // stdout and stderr to files: not a terminal, so no progress bar.
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDERR_FILENO);
    ::dup2(fd, STDOUT_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (temp_file_size(dir) < 64 * 1024 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_GE(temp_file_size(dir), 64 * 1024) << "the sweep wrote nothing";
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal instead of stopping cleanly";
  EXPECT_EQ(WEXITSTATUS(status), 130);

  // Only the committed CSV is left, and it parses: header, then whole launches of four rows.
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"c.csv", "stderr.txt"}));
  const std::string text = read_file(csv);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const std::vector<Row> rows = read_sweep_csv(csv);
  ASSERT_GT(rows.size(), 0u);
  EXPECT_LT(rows.size(), 4000000u);
  EXPECT_EQ(rows.size() % 4, 0u);
  const char* conditions[] = {"load_M", "load_N", "compute", "store"};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].rows, static_cast<long long>(i / 4 + 1)) << i;
    ASSERT_EQ(rows[i].condition, conditions[i % 4]) << i;
  }
  // The first launch, 1 x 1 x 1 with T = 32: one block of 32 warps, one phase; only thread
  // (0, 0) passes any check, so warp 0 splits and the 31 others are uniformly false: 1 of 32.
  EXPECT_EQ(rows[0].warp_phases, "32");
  EXPECT_EQ(rows[0].divergent, "1");
  // One line on stderr saying how many rows were kept.
  const std::string note = read_file(err);
  EXPECT_EQ(count_lines(note), 1u) << note;
  EXPECT_TRUE(contains(note, "interrupted")) << note;
  EXPECT_TRUE(contains(note, "holds the " + std::to_string(rows.size()) + " rows")) << note;
}

}  // namespace
}  // namespace warpdiv::testing
