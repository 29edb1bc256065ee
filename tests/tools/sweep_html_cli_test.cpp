// `warpdiv sweep --html` through the real binary: the page with or without a CSV, the occupancy
// plot with --gpu, refusals (one line, exit 2, no file), and Ctrl-C (a real SIGINT).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(SweepHtmlCli, PageWithoutCsv) {
  TempDir dir;
  const std::string page = dir.file("sweep.html");
  const CliResult r = run_warpdiv({"sweep", "--sizes", "100,1000", "--tiles", "16,32", "--html", page});
  ASSERT_EQ(r.status, 0) << r.err;
  // No CSV: the summary must not say the page holds the rows as a CSV would.
  EXPECT_EQ(r.out, "warpdiv sweep: 4 launches plotted in " + page +
                       " (no CSV written: add --csv FILE for the 16 rows)\n");
  const std::string html = read_file(page);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(html, "<svg class=\"plot\""), 4u);  // one plot per check, no occupancy plot
  // 100 x 100 x 100 with T = 16 is the lecture's launch: 350 of 2,744 for load_M.
  EXPECT_TRUE(contains(html, "<td>load_M</td><td>2,744</td><td>350</td><td>12.76%</td>"));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"sweep.html"});
}

TEST(SweepHtmlCli, PageAndCsvWithGpu) {
  TempDir dir;
  const CliResult r = run_warpdiv({"sweep", "--sizes", "100", "--tiles", "16,32", "--csv", dir.file("s.csv"),
                                   "--html", dir.file("s.html"), "--gpu", "lecture-16k", "--regs", "16"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"s.csv", "s.html"}));
  EXPECT_EQ(count_lines(read_file(dir.file("s.csv"))), 1u + 8u);
  const std::string html = read_file(dir.file("s.html"));
  EXPECT_EQ(count(html, "<svg class=\"plot\""), 5u);
  // The lecture: a 32 x 32 tile on its SM is limited to 1 block (1,024 of 1,536 threads), 32 of
  // 48 warps = 66.67%.
  EXPECT_TRUE(contains(html,
                       "<tr class=\"swept\"><td>32</td><td>1024</td><td>8,192</td><td>1</td>"
                       "<td>32</td><td>66.67%</td>"));
}

class SweepHtmlBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(SweepHtmlBadInput, ExitsTwoWithOneLineAndNoFile) {
  TempDir dir;
  std::vector<std::string> args = {"sweep", "--tiles", "16"};
  const auto& extra = GetParam().args;
  if (std::find(extra.begin(), extra.end(), "--sizes") == extra.end()) {
    args.push_back("--sizes");
    args.push_back("100");
  }
  for (std::string a : extra) {
    if (a == "@html") a = dir.file("out.html");
    args.push_back(a);
  }
  const CliResult r = run_warpdiv(args);
  expect_refusal(r, GetParam());
  EXPECT_TRUE(dir.entries().empty());
}

INSTANTIATE_TEST_SUITE_P(
    Flags, SweepHtmlBadInput,
    ::testing::Values(
        BadInput{{}, "needs --csv FILE, --html FILE or both"},
        BadInput{{"--gpu", "h100", "--csv", "@html"}, "--gpu needs --html FILE"},
        BadInput{{"--html", "@html", "--gpu", "no-such-gpu"}, "--gpu"},
        BadInput{{"--html", "@html", "--regs", "16"}, "--regs and --gpu-file need --gpu NAME"},
        BadInput{{"--html", "@html", "--gpu", "h100", "--regs", "x"}, "--regs must be an integer"},
        BadInput{{"--html", "@html", "--gpu", "h100", "--warp-size", "16"}, "warp size"},
        BadInput{{"--html", "@html", "--sizes", "1:200000:1"}, "--html plots at most 100000 launches"},
        BadInput{{"--html", "/proc/warpdiv/sweep.html"}, "--html"}));

// Size of the CSV's temporary file in `dir`, or 0: the largest ".wd.XXXXXX" (the page's stays
// empty until the end).
off_t temp_csv_size(const TempDir& dir) {
  off_t largest = 0;
  for (const std::string& name : dir.entries()) {
    if (name.rfind(".wd.", 0) != 0) continue;
    struct stat info {};
    if (::stat(dir.file(name).c_str(), &info) == 0 && info.st_size > largest) largest = info.st_size;
  }
  return largest;
}

TEST(SweepHtmlCli, CtrlCStillWritesThePage) {
  // 100,000 launches (about a second); SIGINT once the CSV's first rows reach the disk. The page
  // is written from the launches finished, and says the sweep was interrupted.
  TempDir dir;
  const std::string csv = dir.file("c.csv"), page = dir.file("c.html");
  std::vector<std::string> args = {WARPDIV_BINARY, "sweep", "--sizes", "1:100000:1", "--tiles",
                                   "32",           "--csv", csv,       "--html",     page};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int fd = ::open("/dev/null", O_WRONLY);
    ::dup2(fd, STDERR_FILENO);
    ::dup2(fd, STDOUT_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (temp_csv_size(dir) < 64 * 1024 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_GE(temp_csv_size(dir), 64 * 1024) << "the sweep wrote nothing";
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"c.csv", "c.html"}));
  const std::string html = read_file(page);
  EXPECT_TRUE(contains(html, "id=\"interrupted\"")) << html.substr(0, 2000);
  EXPECT_EQ(html.substr(html.size() - 8), "</html>\n");
  EXPECT_EQ(count(html, "<svg class=\"plot\""), 4u);
}

}  // namespace
}  // namespace warpdiv::testing
