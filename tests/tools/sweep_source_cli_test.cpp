// `warpdiv sweep FILE.cu` through the real binary: lists and ranges of --arg and of the block size,
// one CSV row per launch and statement with figures worked out by hand, the bad-input contract
// (exit 2, one line, no file), the HTML page, and Ctrl-C (a real SIGINT: exit 130, finished rows
// kept).
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/tools/child_process.hpp"
#include "tests/tools/cli_runner.hpp"
#include "tests/tools/pty_runner.hpp"

namespace warpdiv::testing {
namespace {

const std::string kZoo = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/";
const std::string kSaxpy = kZoo + "grid_stride_loop.cu";

bool reads_sources() {
  static const bool reads = [] {
    TempDir dir;
    const CliResult r = run_warpdiv({"analyze", kSaxpy, "--save-model", dir.file("m.json")});
    return !contains(r.err, "without the Clang front-end");
  }();
  return reads;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(field);
  return fields;
}

class SweepSource : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  }
  TempDir dir_;
};

TEST_F(SweepSource, OneRowPerLaunchAndStatementWithHandWorkedCounts) {
  const std::string csv = dir_.file("s.csv");
  const CliResult r = run_warpdiv({"sweep", kSaxpy, "--grid", "4", "--block", "64,128", "--arg",
                                   "n=1000,1010", "--arg", "a=2", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;  // not a terminal: no bar
  EXPECT_TRUE(contains(r.out, "4 launches, 16 rows written to " + csv)) << r.out;
  const std::vector<std::string> lines = lines_of(read_file(csv));
  ASSERT_EQ(lines.size(), 17u);
  EXPECT_EQ(lines[0],
            "n,a,block_x,block_y,block_z,grid_x,grid_y,grid_z,warp_size,file,line,column,kind,"
            "iteration,warp_evaluations,divergent,active_lanes,taken_lanes,block_executions,"
            "partial_block_executions,global_requests,global_sectors,global_bytes,"
            "global_load_requests,global_store_requests,global_atomic_requests,shared_requests,"
            "shared_wavefronts,shared_bank_conflicts,flops,accesses_not_counted,simd_efficiency,statement,"
            "inlined_at,"
            "complete");
  // Order: block outermost, then n. Row 1: n = 1000, 4 x 64 = 256 threads, warps of 32. Thread t
  // takes i = t, t+256, t+512, t+768 (< 1000 for t < 232): warps 0..6 test the loop 5 times (4
  // true, 1 false), warp 7 (t = 224..255) too, its 4th test split (8 lanes stay): 40 tests, 1
  // divergent; lanes tested: 256 * 4 + 232 = 1256, of which 1000 stay in.
  std::vector<std::string> f = fields_of(lines[1]);
  ASSERT_GE(f.size(), 20u);
  EXPECT_EQ(f[0], "1000");
  EXPECT_EQ(f[2], "64");
  EXPECT_EQ(f[5], "4");
  EXPECT_EQ(f[12], "for");
  EXPECT_EQ(f[14], "40");
  EXPECT_EQ(f[15], "1");
  EXPECT_EQ(f[16], "1256");
  EXPECT_EQ(f[17], "1000");
  // Launch 3: n = 1000, block 128: 512 threads, t < 488 take two elements: 16 warps test 3
  // times, warp 15 (t = 480..511) splits on its 2nd test: 48 tests, 1 divergent.
  f = fields_of(lines[9]);
  EXPECT_EQ(f[0], "1000");
  EXPECT_EQ(f[2], "128");
  EXPECT_EQ(f[12], "for");
  EXPECT_EQ(f[14], "48");
  EXPECT_EQ(f[15], "1");
  // The body runs once per element: n warp-lanes in total, whatever the block.
  for (std::size_t row : {4u, 8u, 12u, 16u}) {
    f = fields_of(lines[row]);
    EXPECT_EQ(f[16], f[0]) << lines[row];
  }
}

// --data NAME=FILE,FILE sweeps a buffer's files (the last dimension, one CSV column
// data_NAME). The CSR SpMV with num_rows = 5, one warp: on spmv_tiny (row lengths 2, 0, 3, 1, 4)
// the loop is evaluated 5 times, 4 divergent, 15 lanes active, 10 taken (worked in
// analyze_source_cli_test); its Matrix Market view gives the same; the 2,000-row sample's first
// five rows (row_ptr 0 1 1 5 9 14: lengths 1, 0, 4, 4, 5) keep the warp 6 evaluations with
// 5, 4, 3, 3, 3, 1 lanes (19), taking 14, divergent at k = 0 (row 1 leaves), 1 (row 0 leaves) and
// 4 (rows 2, 3 leave, row 4 stays): 3.
TEST_F(SweepSource, DataFilesAreSweptLikeArguments) {
  const std::string root = std::string(WARPDIV_SOURCE_DIR);
  const std::string tiny = root + "/data/samples/spmv_tiny/", sample = root + "/data/samples/spmv/";
  const std::string csv = dir_.file("d.csv");
  const CliResult r =
      run_warpdiv({"sweep", root + "/kernels/zoo/data/spmv_csr_scalar.cu", "--grid", "1", "--block", "32",
                   "--arg", "num_rows=5", "--data",
                   "row_ptr=" + tiny + "row_ptr.npy," + tiny + "A.mtx:csr.row_ptr," + sample + "row_ptr.npy",
                   "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "3 launches, ")) << r.out;
  const std::vector<std::string> lines = lines_of(read_file(csv));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].rfind("num_rows,data_row_ptr,block_x,", 0), 0u) << lines[0];
  std::vector<std::vector<std::string>> loops;  // the for rows, in launch order
  for (const std::string& line : lines)
    if (contains(line, ",for,")) loops.push_back(fields_of(line));
  ASSERT_EQ(loops.size(), 3u);
  const auto figures = [](const std::vector<std::string>& f) {
    return f.at(14) + " " + f.at(15) + " " + f.at(16) + " " + f.at(17);  // evals, divergent, active, taken
  };
  EXPECT_EQ(loops[0][1], tiny + "row_ptr.npy");
  EXPECT_EQ(figures(loops[0]), "5 4 15 10");
  EXPECT_EQ(loops[1][1], tiny + "A.mtx:csr.row_ptr");
  EXPECT_EQ(figures(loops[1]), "5 4 15 10");
  EXPECT_EQ(loops[2][1], sample + "row_ptr.npy");
  EXPECT_EQ(figures(loops[2]), "6 3 19 14");
  // A list of files cannot be an axis of the page.
  const CliResult html = run_warpdiv({"sweep", root + "/kernels/zoo/data/spmv_csr_scalar.cu", "--grid", "1",
                                      "--block", "32", "--arg", "num_rows=5", "--data",
                                      "row_ptr=" + tiny + "row_ptr.npy," + sample + "row_ptr.npy", "--html",
                                      dir_.file("d.html")});
  EXPECT_EQ(html.status, 2);
  EXPECT_TRUE(
      contains(html.err, "--html plots against numbers: --data row_ptr with several files needs --csv alone"))
      << html.err;
}

TEST_F(SweepSource, GridFollowsTheSweptBlockAndRangesIncludeStop) {
  // grid = ceil(n / block_x): one element per thread, so the loop runs once per thread that has
  // one; n = 100, 200, 300 with 64 and 256 threads per block.
  const std::string csv = dir_.file("g.csv");
  const CliResult r = run_warpdiv({"sweep", kSaxpy, "--grid", "(n+block_x-1)/block_x", "--block",
                                   "64:256:192", "--arg", "n=100:300:100", "--arg", "a=1", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = lines_of(read_file(csv));
  ASSERT_EQ(lines.size(), 1u + 6u * 4u);
  // n = 100, block 64: 2 blocks, grid x = 2; n = 300, block 256: 2 blocks.
  EXPECT_EQ(fields_of(lines[1])[5], "2");
  EXPECT_EQ(fields_of(lines[1 + 5 * 4])[5], "2");
  EXPECT_EQ(fields_of(lines[1 + 5 * 4])[2], "256");
  EXPECT_EQ(fields_of(lines[1 + 5 * 4])[0], "300");
}

TEST_F(SweepSource, HtmlPlotsEachBranchAgainstTheSweptValue) {
  const std::string html = dir_.file("s.html");
  const CliResult r = run_warpdiv({"sweep", kSaxpy, "--grid", "4", "--block", "64,128,256", "--arg",
                                   "n=1000:100000:1000", "--arg", "a=2", "--html", html});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(html);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_FALSE(contains(page, "<script"));
  EXPECT_FALSE(contains(page, "http://"));
  EXPECT_TRUE(contains(page, "id=\"branch-1\"")) << "one plot for the one loop";
  EXPECT_FALSE(contains(page, "id=\"branch-2\""));
  EXPECT_TRUE(contains(page, "block 256 threads"));
  EXPECT_TRUE(contains(page, "300 launches"));
  EXPECT_LT(page.size(), 100'000u);
}

TEST_F(SweepSource, HtmlPlotsFractionsInPercent) {
  // The interleaved reduction (t % stride == 0, 256 threads, 8 warps): the if diverges in
  // 188 of its 288 warp evaluations (65.3%) at n = 2048 and at n = 4096 alike (per block the
  // same), so its plot's axis reaches past 60% and its curve is flat there.
  const std::string html = dir_.file("r.html");
  const CliResult r = run_warpdiv({"sweep", kZoo + "reduction_interleaved.cu", "--grid", "n/(2*block_x)",
                                   "--block", "256", "--arg", "n=2048,4096", "--html", html});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(html);
  EXPECT_TRUE(contains(page, ">60%</text>")) << page;
}

class SweepSourceFlags : public ::testing::TestWithParam<BadInput> {};

TEST_P(SweepSourceFlags, ExitsTwoWithOneLineAndNoFile) {
  expect_refused_leaving_no_file("sweep", GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Launch, SweepSourceFlags,
    ::testing::Values(BadInput{{kSaxpy, "--block", "64", "--arg", "n=5"}, "needs --grid"},
                      BadInput{{kSaxpy, "--grid", "4", "--arg", "n=5"}, "needs --block"},
                      BadInput{{kSaxpy, "--grid", "4", "--block", "64,2000", "--arg", "n=5"},
                               "--block must be an integer from 1 to 1024"},
                      BadInput{{kSaxpy, "--grid", "4", "--block", "64,64", "--arg", "n=5"},
                               "--block names a block size more than once"},
                      BadInput{{kSaxpy, "--grid", "4", "--block", "64x64", "--arg", "n=5"},
                               "--block 64,64,1 has 4096 threads"},
                      BadInput{{kSaxpy, "--grid", "4", "--block", "64", "--arg", "n=9:1:1"},
                               "--arg n START:STOP:STEP must be integers"},
                      BadInput{{kSaxpy, "--grid", "4", "--block", "64", "--arg", "block_x=3"},
                               "the name is taken by the swept block's size"},
                      // The last launch's grid is 0: refused before anything runs.
                      BadInput{{kSaxpy, "--grid", "(n-99)/100", "--block", "64", "--arg", "n=500,99", "--arg",
                                "a=1"},
                               "--grid x must be from 1 to 2147483647"},
                      BadInput{{kSaxpy, "--grid", "4", "--block", "64", "--arg", "n=1:2000000:1"},
                               "above the limit of 1000000"},
                      BadInput{{kZoo + "missing.cu", "--grid", "4", "--block", "64"}, "cannot read"}));

TEST_F(SweepSource, MissingArgIsNamedBeforeAnyRow) {
  const CliResult r =
      run_warpdiv({"sweep", kSaxpy, "--grid", "4", "--block", "64", "--csv", dir_.file("x.csv")});
  expect_refusal(r, {{}, "parameter n (int32) needs a value: give --arg n=VALUE"});
  EXPECT_TRUE(dir_.entries().empty());
}

TEST_F(SweepSource, CtrlCKeepsEveryFinishedLaunch) {
  // 100,000 launches (far more than the test waits for); SIGINT once rows reach the disk.
  const std::string csv = dir_.file("c.csv");
  const std::string err = dir_.file("stderr.txt");
  ChildSetup setup;
  setup.stdout_path = err;  // stdout too: the summary would go there
  setup.stderr_path = err;
  const pid_t pid = spawn_warpdiv({"sweep", kSaxpy, "--grid", "4", "--block", "64", "--arg", "n=1:100000:1",
                                   "--arg", "a=1", "--csv", csv},
                                  setup);
  ASSERT_GT(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (temp_file_size(dir_) < 16 * 1024 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_GE(temp_file_size(dir_), 16 * 1024) << "the sweep wrote nothing";
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  const ChildEnd end = wait_for(pid);
  ASSERT_EQ(end.signal, 0) << "killed by a signal instead of stopping cleanly";
  EXPECT_EQ(end.exit_status, 130);
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"c.csv", "stderr.txt"}));
  const std::string text = read_file(csv);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const std::vector<std::string> lines = lines_of(text);
  // Whole launches of four statements each, n = 1, 2, 3 ... in order.
  ASSERT_GT(lines.size(), 1u);
  EXPECT_LT(lines.size(), 1u + 400000u);
  EXPECT_EQ((lines.size() - 1) % 4, 0u);
  for (std::size_t i = 1; i < lines.size(); ++i)
    ASSERT_EQ(fields_of(lines[i])[0], std::to_string((i - 1) / 4 + 1)) << i;
  const std::string note = read_file(err);
  EXPECT_TRUE(contains(note, "warpdiv sweep: interrupted: " + csv + " holds the ")) << note;
}

TEST_F(SweepSource, ProgressBarOnATerminal) {
  const PtyRun run = run_on_pty({WARPDIV_BINARY, "sweep", kSaxpy, "--grid", "4", "--block", "32,64", "--arg",
                                 "n=1:500:1", "--arg", "a=1", "--csv", dir_.file("p.csv")});
  EXPECT_EQ(run.status, 0) << run.screen;
  EXPECT_TRUE(contains(run.screen, "\rsweep [")) << run.screen;
  EXPECT_TRUE(contains(run.screen, "] 100% 1000/1000 launches")) << run.screen;
}

}  // namespace
}  // namespace warpdiv::testing

namespace warpdiv::testing {
namespace {

// A launch whose store runs past the buffer --alloc gives (n = 1000 into 500 elements: element
// 500 first, in block 7, thread 52) is refused as analyze refuses it: exit 2, no file.
TEST_F(SweepSource, ALaunchThatStoresOutOfItsBufferStopsTheSweep) {
  const std::string file = dir_.file("k.cu");
  write_file(file,
             "__global__ void k(int *o, int n) {\n"
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  if (i < n) o[i] = 1;\n"
             "}\n");
  const CliResult r = run_warpdiv({"sweep", file, "--grid", "(n+63)/64", "--block", "64", "--arg",
                                   "n=10,1000", "--alloc", "o=500", "--csv", dir_.file("s.csv")});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.err, "out of bounds: 'o[i]' writes element 500 of 'o'")) << r.err;
  EXPECT_FALSE(file_exists(dir_.file("s.csv")));
}

}  // namespace
}  // namespace warpdiv::testing
