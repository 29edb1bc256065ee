// The HTML report's text: figures worked out by hand (in the comments) and from the lecture, the
// page's structure (one map per class and condition), self-containment, and its size at the
// largest launch. tests/tools/browser_test.cpp renders the pages in Chromium.
#include <gtest/gtest.h>

#include <string>

#include "analysis/html.hpp"
#include "analysis/lecture/html_report.hpp"
#include "analysis/lecture/lecture_source.hpp"
#include "tests/text_helpers.hpp"

namespace warpdiv::analysis {
namespace {

using warpdiv::testing::contains;
using warpdiv::testing::count_occurrences;
using warpdiv::testing::element;

std::string render(const lecture::LaunchConfig& config, const DivergenceHtmlOptions& options = {}) {
  return render_divergence_html(analysis::lecture_counts(config), options);
}

// A result whose every count has the most digits a 128-bit count can have (39): the page can
// only be larger than this through its figures, whose size does not depend on the counts.
lecture::DivergenceResult widest_counts(const lecture::LaunchConfig& config) {
  lecture::DivergenceResult result;
  result.config = config;
  for (auto& row : result.table)
    for (auto& cell : row) cell = {sim::kMaxCount, sim::kMaxCount, sim::kMaxCount, sim::kMaxCount};
  result.barrier_hazard_blocks = sim::kMaxCount;
  return result;
}

TEST(Html, Escape) {
  EXPECT_EQ(html::escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  EXPECT_EQ(html::escape("plain"), "plain");
  // UTF-8 is kept; a byte that is not part of it (Latin-1 0xE9, a cut sequence) becomes U+FFFD.
  EXPECT_EQ(html::escape("caf\xC3\xA9 \xE2\x82\xAC"), "caf\xC3\xA9 \xE2\x82\xAC");
  EXPECT_EQ(html::escape("caf\xE9 <d\xE9>\xC3"), "caf\xEF\xBF\xBD &lt;d\xEF\xBF\xBD&gt;\xEF\xBF\xBD");
}

TEST(Html, Coordinates) {
  EXPECT_EQ(html::coord(12.0), "12");
  EXPECT_EQ(html::coord(3.5), "3.5");
  EXPECT_EQ(html::coord(0.254), "0.25");
  EXPECT_EQ(html::coord(-0.001), "0");
  EXPECT_EQ(html::coord(-7.125), "-7.13");
}

TEST(Html, GroupDigits) {
  EXPECT_EQ(html::group_digits("1234567"), "1,234,567");
  EXPECT_EQ(html::group_digits("123"), "123");
  EXPECT_EQ(html::group_digits("1000"), "1,000");
}

TEST(DivergenceHtml, LectureFigures) {
  const std::string page = render(lecture::LaunchConfig::square(100));
  ASSERT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(page.substr(page.size() - 8), "</html>\n");
  // The lecture: Type 1 blocks 336 of 2,352 warp-phases, Type 2 14 of 392; 350 of 2,744 in all.
  EXPECT_TRUE(contains(page, "336/2,352 (14.29%)"));
  EXPECT_TRUE(contains(page, "14/392 (3.57%)"));
  EXPECT_TRUE(contains(page, "350/2,744 (12.76%)"));
  // load_N (the exercise): all 350 in the right block-column, 7 blocks of 56 warp-phases.
  EXPECT_TRUE(contains(page, "350/392 (89.29%)"));
  EXPECT_TRUE(contains(page, "2,352 + 392 = 2,744"));  // the slide's slip, corrected
  // Barrier: the last block-row and block-column, 7 + 7 - 1 = 13 of 49 blocks.
  EXPECT_TRUE(contains(element(page, "section", "barrier"), "13 of 49 blocks"));
  EXPECT_FALSE(contains(page, "id=\"occupancy\""));
}

TEST(DivergenceHtml, LectureSectionsAndFigures) {
  const std::string page = render(lecture::LaunchConfig::square(100));
  for (const char* id : {"grid", "maps", "warps", "summary", "barrier"})
    EXPECT_TRUE(contains(page, std::string("<section id=\"") + id + "\"")) << id;
  // A 7 x 7 grid has all four classes: one coloured region each, one map per class and condition.
  EXPECT_EQ(count_occurrences(element(page, "svg", "block-grid"), "data-class="), 4u);
  EXPECT_EQ(count_occurrences(page, "<figure class=\"map\""), 16u);
  for (const char* k : {"interior", "right_edge", "bottom_edge", "corner"})
    for (const char* c : {"load_M", "load_N", "compute", "store"})
      EXPECT_TRUE(contains(page, std::string("id=\"map-") + k + "-" + c + "\"")) << k << c;
  // Warp table: 8 warps of two rows each (T = 16, S = 32).
  const std::string table = element(page, "table", "warp-layout");
  EXPECT_EQ(count_occurrences(table, "<tr>"), 9u);  // header + 8 warps
  EXPECT_TRUE(contains(table, "<td>w3</td><td>32</td><td>ty 6–7</td><td>tx 0–15</td>"));
}

TEST(DivergenceHtml, LectureMapsByHand) {
  const std::string page = render(lecture::LaunchConfig::square(100));
  // Interior, load_M: only phase 6 (96 + tx < 100) splits the warps: one divergent run (column p6,
  // warps 0..7) and one uniform-true run per other column. 8 of 8 * 7 = 56 per block, 36 blocks.
  const std::string interior = element(page, "figure", "map-interior-load_M");
  EXPECT_EQ(count_occurrences(interior, "class=\"d\""), 1u);
  EXPECT_EQ(count_occurrences(interior, "class=\"t\""), 6u);
  EXPECT_EQ(count_occurrences(interior, "class=\"f\""), 0u);
  EXPECT_TRUE(contains(interior, "8 of 56 warp-phases diverge in each such block; × 36 blocks = 288"));
  // Bottom edge, load_M: warps 0, 1 (ty < 4) load; 2..7 never do. Columns p0..p5: a true run and a
  // false run each; p6: a divergent run and a false run. 2 per block, 6 blocks = 12.
  const std::string bottom = element(page, "figure", "map-bottom_edge-load_M");
  EXPECT_EQ(count_occurrences(bottom, "class=\"d\""), 1u);
  EXPECT_EQ(count_occurrences(bottom, "class=\"t\""), 6u);
  EXPECT_EQ(count_occurrences(bottom, "class=\"f\""), 7u);
  EXPECT_TRUE(contains(bottom, "2 of 56 warp-phases diverge in each such block; × 6 blocks = 12"));
  // Right edge, load_N: 6 * 8 + 2 = 50 per block, 6 blocks = 300.
  EXPECT_TRUE(contains(element(page, "figure", "map-right_edge-load_N"),
                       "50 of 56 warp-phases diverge in each such block; × 6 blocks = 300"));
  // Corner, store: one column; warps 0 and 1 hold rows 96..99, split at column 100.
  const std::string store = element(page, "figure", "map-corner-store");
  EXPECT_TRUE(contains(store, ">after</text>"));
  EXPECT_TRUE(contains(store, "2 of 8 warp-phases diverge in each such block; × 1 block = 2"));
}

TEST(DivergenceHtml, SelfContained) {
  for (const lecture::LaunchConfig& config :
       {lecture::LaunchConfig::square(100), lecture::LaunchConfig::shape(50, 37, 70, 12),
        lecture::LaunchConfig::square(5)}) {
    const std::string page = render(config);
    for (const char* fetch : {"http:", "https:", "//", "src=", "<link", "@import", "<script"})
      EXPECT_FALSE(contains(page, fetch)) << fetch;
    // url() only to patterns in the page itself.
    for (auto at = page.find("url("); at != std::string::npos; at = page.find("url(", at + 1))
      EXPECT_EQ(page[at + 4], '#');
  }
}

TEST(DivergenceHtml, OnlyTheClassesThatExist) {
  // One block (5 x 5 x 5, T = 16): it is the corner; one map per condition.
  const std::string single = render(lecture::LaunchConfig::square(5));
  EXPECT_EQ(count_occurrences(single, "<figure class=\"map\""), 4u);
  EXPECT_EQ(count_occurrences(element(single, "svg", "block-grid"), "data-class="), 1u);
  EXPECT_TRUE(contains(single, "id=\"map-corner-load_M\""));
  EXPECT_FALSE(contains(single, "id=\"maps-interior\""));
  // One block-row of three (J = 5, L = 40): bottom_edge and corner.
  const std::string row = render(lecture::LaunchConfig::shape(5, 40, 40, 16));
  EXPECT_EQ(count_occurrences(row, "<figure class=\"map\""), 8u);
  EXPECT_TRUE(contains(row, "id=\"maps-bottom_edge\""));
  EXPECT_FALSE(contains(row, "id=\"maps-right_edge\""));
}

TEST(DivergenceHtml, PartialWarpAndCrossingRows) {
  // T = 12, S = 32: 144 threads = 4 full warps and one of 16 lanes; warp 0 ends at (7, 2).
  const std::string page = render(lecture::LaunchConfig::shape(50, 37, 70, 12));
  EXPECT_TRUE(contains(page, "last warp partial: 16 of 32 lanes"));
  const std::string table = element(page, "table", "warp-layout");
  EXPECT_TRUE(contains(table, "<td>w0</td><td>32</td><td>ty 0–2</td>"));
  EXPECT_TRUE(contains(table, "<td>(7, 2)</td>"));
  EXPECT_TRUE(contains(table, "<td>w4</td><td>16</td><td>ty 10–11</td>"));
}

TEST(DivergenceHtml, ManyPhasesGetTwoColumns) {
  // K = 1000, T = 16: 63 phases; 0..61 share their outcomes, 62 is the last (1000 - 992 = 8 < 16).
  const std::string page = render(lecture::LaunchConfig::shape(40, 1000, 40, 16));
  EXPECT_TRUE(contains(page, "With 63 phases, the first column stands for every phase but the last"));
  const std::string map = element(page, "figure", "map-interior-load_M");
  EXPECT_TRUE(contains(map, ">61</text>"));
  EXPECT_TRUE(contains(map, ">last p</text>"));
  EXPECT_TRUE(contains(map, ">62</text>"));
  // Interior: the last phase splits all 8 warps: 8 of 8 * 63 = 504 per block.
  EXPECT_TRUE(contains(map, "8 of 504 warp-phases diverge in each such block"));
}

TEST(DivergenceHtml, NoLectureNoteElsewhere) {
  EXPECT_FALSE(contains(render(lecture::LaunchConfig::square(200)), "2,944"));
}

TEST(DivergenceHtml, OccupancySectionIsEscaped) {
  DivergenceHtmlOptions options;
  options.occupancy = HtmlSection{
      "Occupancy on <my GPU>", {{"active blocks", "6 & more", "a<b"}}, {"limited by \"threads\""}};
  const std::string page = render(lecture::LaunchConfig::square(100), options);
  const std::string section = element(page, "section", "occupancy");
  EXPECT_TRUE(contains(section, "<h2>Occupancy on &lt;my GPU&gt;</h2>"));
  EXPECT_TRUE(contains(section, "<td>active blocks</td><td>6 &amp; more</td>"));
  EXPECT_TRUE(contains(section, ">a&lt;b</td>"));
  EXPECT_TRUE(contains(section, "limited by &quot;threads&quot;"));
}

TEST(DivergenceHtml, LargestLaunchStaysSmall) {
  // The 2^31-1 cube, T = 32: 67,108,864 blocks a side and 67,108,864 phases. The warp size sets
  // how many rows each map has: 32 warps of a row each, or 1024 warps of one lane (the most).
  constexpr std::size_t kTwoMegabytes = 2u * 1024u * 1024u;
  for (int warp_size : {32, 1, 64}) {
    const lecture::LaunchConfig config =
        lecture::LaunchConfig::shape(2147483647, 2147483647, 2147483647, 32, warp_size);
    const std::string page = render_divergence_html(widest_counts(config));
    SCOPED_TRACE(warp_size);
    EXPECT_LT(page.size(), kTwoMegabytes);
    EXPECT_EQ(count_occurrences(page, "<figure class=\"map\""), 16u);
    EXPECT_TRUE(contains(page, "67,108,864 × 67,108,864 = 4,503,599,627,370,496 blocks"));
    EXPECT_TRUE(contains(page, ">67,108,862</text>"));  // phases 0 .. 2^26 - 2 in one column
    EXPECT_TRUE(contains(page, "Not to scale"));
  }
}

}  // namespace
}  // namespace warpdiv::analysis
