// The HTML reports rendered by a real browser (headless Chromium, offline, fresh profile): the DOM
// Chromium builds holds the expected sections, figures and lecture figures, and the screenshot
// shows the figures' colours. Skips only where Chromium is not installed (tools/test installs it).
#include <gtest/gtest.h>

#include <string>

#include "analysis/atomic_file.hpp"
#include "analysis/html.hpp"
#include "analysis/html_report.hpp"
#include "tests/tools/chromium.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

namespace colour = analysis::html::colour;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The serialised element that starts with `start_tag`, up to the first `end_tag` after it.
std::string between(const std::string& text, const std::string& start_tag,
                    const std::string& end_tag) {
  const auto start = text.find(start_tag);
  if (start == std::string::npos) return "";
  return text.substr(start, text.find(end_tag, start) - start);
}

class Browser : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = find_chromium();
    if (chromium_.empty())
      GTEST_SKIP() << "Chromium is not installed (no chromium on PATH, WARPDIV_CHROMIUM unset); "
                      "tools/test installs it with apt-get where it can";
  }
  std::string chromium_;
  TempDir dir_;
};

TEST_F(Browser, LectureReport) {
  const std::string page = dir_.file("lecture.html");
  const CliResult r =
      run_warpdiv({"analyze", "--gpu", "lecture-16k", "--regs", "16", "--html", page});
  ASSERT_EQ(r.status, 0) << r.err;

  const std::string dom = chromium_dump_dom(chromium_, page);
  // Chromium parsed the page into the expected sections, each holding its figures.
  for (const char* id : {"grid", "maps", "warps", "summary", "occupancy", "barrier"})
    EXPECT_TRUE(contains(dom, std::string("<section id=\"") + id + "\">")) << id;
  const std::string grid = between(dom, "<section id=\"grid\">", "</section>");
  EXPECT_TRUE(contains(grid, "<svg id=\"block-grid\""));
  EXPECT_TRUE(contains(grid, "<svg id=\"thread-layout\""));
  // 7 x 7 blocks: four classes, a map per class and condition, all inside the maps section.
  const std::string maps = between(dom, "<section id=\"maps\">", "</section>");
  EXPECT_EQ(count(maps, "<figure class=\"map\""), 16u);
  EXPECT_EQ(count(maps, "<svg class=\"map\""), 16u);
  // The lecture's figures: Type 1 336 of 2,352, Type 2 14 of 392, 350 of 2,744 in all; the
  // barrier hazard in the last block-row and block-column, 7 + 7 - 1 = 13 of 49 blocks.
  const std::string summary = between(dom, "<section id=\"summary\">", "</section>");
  EXPECT_TRUE(contains(summary, "336/2,352 (14.29%)"));
  EXPECT_TRUE(contains(summary, "14/392 (3.57%)"));
  EXPECT_TRUE(contains(summary, "350/2,744 (12.76%)"));
  EXPECT_TRUE(contains(between(dom, "<section id=\"barrier\">", "</section>"), "13 of 49 blocks"));
  // The lecture's SM: 1,536 threads / 256 per block = 6 active blocks (shared memory allows 8).
  EXPECT_TRUE(contains(between(dom, "<section id=\"occupancy\">", "</section>"),
                       "<td>Theoretical active blocks per SM</td><td>6</td>"));

  const std::string png = dir_.file("lecture.png");
  chromium_screenshot(chromium_, page, png, 1150, 1700);
  const Image image = read_png(png);
  ASSERT_EQ(image.width, 1150);
  ASSERT_EQ(image.height, 1700);
  // The grid is drawn to scale at 44 px a block: the interior is 6 x 6 blocks (264 x 264 px less
  // the grid lines); the edge blocks hold 100 - 96 = 4 of 16 rows or columns of P, an 11 x 264 px
  // strip in full colour, and the hatching keeps about half of the rest (33 x 264 px) coloured;
  // the corner is 44 x 44 px, its 11 x 11 px inside P plus half the rest. Each class also has a
  // 12 x 12 px legend swatch. A blank or broken page has none of these colours.
  EXPECT_GT(image.count(parse_colour(colour::kInterior)), 40000u);
  EXPECT_GT(image.count(parse_colour(colour::kRightEdge)), 4000u);
  EXPECT_GT(image.count(parse_colour(colour::kBottomEdge)), 4000u);
  EXPECT_GT(image.count(parse_colour(colour::kCorner)), 700u);
  // The interior maps: load_M's last phase is a divergent column of 8 warps (18 x 128 px), and
  // load_N's last phase leaves warps 2..7 idle (18 x 96 px).
  EXPECT_GT(image.count(parse_colour(colour::kDivergent)), 1500u);
  EXPECT_GT(image.count(parse_colour(colour::kUniformTrue)), 10000u);
  EXPECT_GT(image.count(parse_colour(colour::kUniformFalse)), 1000u);
}

TEST_F(Browser, LargestLaunchReport) {
  // The 2^31-1 cube, T = 32, with one-lane warps: the most rows a map can have (1024). Until the
  // exact engine computes its counts, the page is rendered from counts of the widest possible
  // form (39 digits), which can only make it larger.
  sim::LaunchConfig config = sim::LaunchConfig::square(2147483647, 32, 1);
  sim::DivergenceResult result;
  result.config = config;
  for (auto& row : result.table)
    for (auto& cell : row) cell = {sim::kMaxCount, sim::kMaxCount, sim::kMaxCount, sim::kMaxCount};
  const std::string page = dir_.file("huge.html");
  {
    analysis::AtomicFile file(page, "--html");
    file.stream() << analysis::render_divergence_html(result);
    file.commit();
  }
  EXPECT_LT(read_file(page).size(), 2u * 1024u * 1024u);

  const std::string dom = chromium_dump_dom(chromium_, page);
  const std::string maps = between(dom, "<section id=\"maps\">", "</section>");
  EXPECT_EQ(count(maps, "<figure class=\"map\""), 16u);
  EXPECT_TRUE(contains(dom, "67,108,864 × 67,108,864 = 4,503,599,627,370,496 blocks"));

  const std::string png = dir_.file("huge.png");
  chromium_screenshot(chromium_, page, png, 1150, 1400);
  const Image image = read_png(png);
  // Not to scale: the interior band is 300 x 300 px, the edge blocks 64 x 300 px, the corner
  // 64 x 64 px (P covers 31 of its 32 rows and columns).
  EXPECT_GT(image.count(parse_colour(colour::kInterior)), 40000u);
  EXPECT_GT(image.count(parse_colour(colour::kRightEdge)), 12000u);
  EXPECT_GT(image.count(parse_colour(colour::kBottomEdge)), 12000u);
  EXPECT_GT(image.count(parse_colour(colour::kCorner)), 2500u);
  EXPECT_GT(image.count(parse_colour(colour::kUniformTrue)), 10000u);
}

TEST(Png, RefusesWhatIsNotAPng) {
  // The decoder itself, on a file that is not a PNG.
  TempDir dir;
  write_file(dir.file("x.png"), "not a png");
  EXPECT_THROW(read_png(dir.file("x.png")), std::runtime_error);
  EXPECT_EQ(parse_colour("#D55E00").r, 0xD5);
  EXPECT_EQ(parse_colour("#D55E00").g, 0x5E);
  EXPECT_EQ(parse_colour("#D55E00").b, 0x00);
}

}  // namespace
}  // namespace warpdiv::testing
