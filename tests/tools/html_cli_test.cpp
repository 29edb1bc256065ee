// `warpdiv analyze --html` through the real binary: the page, its atomic replacement, bad paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

TEST(HtmlCli, WritesTheLecturePageAndTheTextReport) {
  TempDir dir;
  const std::string page = dir.file("lecture.html");
  write_file(page, "old contents\n");
  const CliResult r = run_warpdiv({"analyze", "--html", page});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "336/2352")) << r.out;  // the text report is still printed
  EXPECT_TRUE(contains(r.out, "HTML written to " + page)) << r.out;
  const std::string html = read_file(page);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(contains(html, "336/2,352 (14.29%)"));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"lecture.html"});  // no temp file left
}

TEST(HtmlCli, WithCsvToo) {
  TempDir dir;
  const CliResult r = run_warpdiv({"analyze", "--csv", dir.file("a.csv"), "--html", dir.file("a.html")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"a.csv", "a.html"}));
}

TEST(HtmlCli, OccupancySectionWithGpu) {
  // The lecture's SM (lecture-16k, 16 registers a thread): a 16 x 16 tile is 256 threads = 8 warps
  // and 2 KB of shared memory; 16 KB / 2 KB = 8 blocks, 1,536 threads / 256 = 6 blocks, so 6 are
  // active (48 warps of 48: 100%), limited by warps.
  TempDir dir;
  const std::string page = dir.file("occupancy.html");
  const CliResult r = run_warpdiv({"analyze", "--gpu", "lecture-16k", "--regs", "16", "--html", page});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string html = read_file(page);
  EXPECT_TRUE(contains(html, "<section id=\"occupancy\"><h2>Occupancy on lecture-16k"));
  EXPECT_TRUE(contains(html, "<td>Block limit shared memory</td><td>8</td>"));
  EXPECT_TRUE(contains(html, "<td>Block limit warps</td><td>6</td>"));
  EXPECT_TRUE(contains(html, "<td>Theoretical active blocks per SM</td><td>6</td>"));
  EXPECT_TRUE(contains(html, "<td>Theoretical occupancy</td><td>100.00%</td>"));
  EXPECT_TRUE(contains(html, "<td>Limiter</td><td>warps</td>"));
  // Without --gpu, no such section.
  const CliResult plain = run_warpdiv({"analyze", "--html", page});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_FALSE(contains(read_file(page), "id=\"occupancy\""));
}

TEST(HtmlCli, LargestCubeStaysUnderTwoMegabytes) {
  // The 2^31-1 cube, T = 32: ceil((2^31 - 1) / 32) = 2^26 block-rows, block-columns and phases;
  // the last of each holds 31 of 32 rows, columns or k. Warp w is row ty = w.
  // load_M: outside the last block-row every warp splits in the last phase (tx < 31): 32 per
  // block; in the last block-row warps 0..30 do (warp 31 is past J): 31 per block. In all
  // 32 * (2^26 - 1) * 2^26 + 31 * 2^26 = 2^26 * (2^31 - 1) = 144,115,188,008,747,008 of
  // 2^52 blocks * 32 warps * 2^26 phases = 2^83 = 9,671,406,556,917,033,397,649,408.
  // Barrier hazard: the last block-row and block-column, 2 * 2^26 - 1 = 134,217,727 blocks.
  constexpr std::size_t kTwoMegabytes = 2u * 1024u * 1024u;
  TempDir dir;
  for (const char* warp_size : {"32", "1"}) {
    const std::string page = dir.file(std::string("cube-") + warp_size + ".html");
    const CliResult r = run_warpdiv(
        {"analyze", "--width", "2147483647", "--tile", "32", "--warp-size", warp_size, "--html", page});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string html = read_file(page);
    EXPECT_LT(html.size(), kTwoMegabytes) << warp_size;
    EXPECT_TRUE(contains(html, "134,217,727 of 4,503,599,627,370,496 blocks")) << warp_size;
  }
  const std::string html = read_file(dir.file("cube-32.html"));
  EXPECT_TRUE(contains(html,
                       "<b>load_M</b> 144,115,188,008,747,008/"
                       "9,671,406,556,917,033,397,649,408"));
}

TEST(HtmlCli, HelpMentionsHtml) {
  const CliResult r = run_warpdiv({"analyze", "--help"});
  ASSERT_EQ(r.status, 0);
  EXPECT_TRUE(contains(r.out, "--html")) << r.out;
}

TEST(HtmlCli, BadPathIsRefusedWithOneLine) {
  TempDir dir;
  for (const std::string& path : {dir.file("missing-folder/out.html"), dir.path(), std::string()}) {
    const CliResult r = run_warpdiv({"analyze", "--html", path});
    EXPECT_EQ(r.status, 2) << path << r.err;
    EXPECT_TRUE(contains(r.err, "--html")) << r.err;
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_TRUE(dir.entries().empty());
}

TEST(HtmlCli, FailedRunKeepsTheOldPage) {
  TempDir dir;
  const std::string page = dir.file("keep.html");
  write_file(page, "precious\n");
  const CliResult r = run_warpdiv({"analyze", "--tile", "0", "--html", page});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(read_file(page), "precious\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.html"});
}

}  // namespace
}  // namespace warpdiv::testing
