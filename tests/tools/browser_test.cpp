// The HTML reports rendered by a real browser (headless Chromium, offline, fresh profile): the DOM
// Chromium builds holds the expected sections, figures and lecture figures, the screenshot shows
// the figures' colours, and at every size nothing overprints in a narrow or a wide window. Skips
// only where Chromium is not installed (tools/test installs it).
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "analysis/html.hpp"
#include "tests/tools/chromium.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

namespace colour = analysis::html::colour;

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The serialised element that starts with `start_tag`, up to the first `end_tag` after it.
std::string between(const std::string& text, const std::string& start_tag, const std::string& end_tag) {
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
  const CliResult r = run_warpdiv({"analyze", "--gpu", "lecture-16k", "--regs", "16", "--html", page});
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
  EXPECT_GT(image.count(parse_colour(colour::kClass1)), 40000u);
  EXPECT_GT(image.count(parse_colour(colour::kClass2)), 4000u);
  EXPECT_GT(image.count(parse_colour(colour::kClass3)), 4000u);
  EXPECT_GT(image.count(parse_colour(colour::kClass4)), 700u);
  // The interior maps: load_M's last phase is a divergent column of 8 warps (18 x 128 px), and
  // load_N's last phase leaves warps 2..7 idle (18 x 96 px).
  EXPECT_GT(image.count(parse_colour(colour::kDivergent)), 1500u);
  EXPECT_GT(image.count(parse_colour(colour::kUniformTrue)), 10000u);
  EXPECT_GT(image.count(parse_colour(colour::kUniformFalse)), 1000u);
}

TEST_F(Browser, LargestLaunchReport) {
  // The 2^31-1 cube, T = 32 (counts by hand in tests/tools/html_cli_test.cpp): load_M diverges in
  // 2^26 * (2^31 - 1) of 2^83 warp-phases.
  const std::string page = dir_.file("cube.html");
  const CliResult r = run_warpdiv({"analyze", "--width", "2147483647", "--tile", "32", "--html", page});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_LT(read_file(page).size(), 2u * 1024u * 1024u);

  const std::string dom = chromium_dump_dom(chromium_, page);
  const std::string maps = between(dom, "<section id=\"maps\">", "</section>");
  EXPECT_EQ(count(maps, "<figure class=\"map\""), 16u);
  EXPECT_TRUE(contains(dom, "67,108,864 × 67,108,864 = 4,503,599,627,370,496 blocks"));
  EXPECT_TRUE(contains(dom, "144,115,188,008,747,008/9,671,406,556,917,033,397,649,408"));

  const std::string png = dir_.file("cube.png");
  chromium_screenshot(chromium_, page, png, 1150, 1400);
  const Image image = read_png(png);
  // Not to scale: the interior band is 300 x 300 px, the edge blocks 64 x 300 px, the corner
  // 64 x 64 px (P covers 31 of its 32 rows and columns). The interior maps: every warp is
  // uniformly true before the last phase and divergent in it (load_M).
  EXPECT_GT(image.count(parse_colour(colour::kClass1)), 40000u);
  EXPECT_GT(image.count(parse_colour(colour::kClass2)), 12000u);
  EXPECT_GT(image.count(parse_colour(colour::kClass3)), 12000u);
  EXPECT_GT(image.count(parse_colour(colour::kClass4)), 2500u);
  EXPECT_GT(image.count(parse_colour(colour::kUniformTrue)), 10000u);
  EXPECT_GT(image.count(parse_colour(colour::kDivergent)), 5000u);
}

TEST_F(Browser, SweepReport) {
  const std::string page = dir_.file("sweep.html");
  const CliResult r = run_warpdiv({"sweep", "--sizes", "100,150,200,300,500,1000,2000,5000", "--tiles",
                                   "8,16,32", "--gpu", "lecture-16k", "--regs", "16", "--html", page});
  ASSERT_EQ(r.status, 0) << r.err;

  const std::string dom = chromium_dump_dom(chromium_, page);
  const std::string fraction = between(dom, "<section id=\"fraction\">", "</section>");
  EXPECT_EQ(count(fraction, "<svg class=\"plot\""), 4u);
  EXPECT_EQ(count(fraction, "<g class=\"series\""), 12u);  // 4 plots x 3 tile widths
  EXPECT_EQ(count(fraction, ">T = 16</text>"), 4u);        // each plot's legend
  EXPECT_EQ(count(fraction, ">matrix size W = J = K = L (elements, log scale)</text>"), 4u);
  const std::string occupancy = between(dom, "<section id=\"occupancy\">", "</section>");
  EXPECT_TRUE(contains(occupancy, "<svg class=\"plot\" id=\"plot-occupancy\""));
  // The lecture's SM: T = 16 gives 6 blocks of 8 warps = 48 of 48 warps (100%).
  EXPECT_TRUE(contains(occupancy,
                       "<tr class=\"swept\"><td>16</td><td>256</td><td>2,048</td>"
                       "<td>6</td><td>48</td><td>100.00%</td>"));

  const std::string png = dir_.file("sweep.png");
  chromium_screenshot(chromium_, page, png, 1150, 1300);
  const Image image = read_png(png);
  // The three curves of the four plots in the series colours: 8 markers of about 25 px each per
  // curve and plot (4 x 8 x 25 = 800 px) besides the lines, whose anti-aliased edges are not
  // counted (and the third curve is dotted). A page without the curves has none.
  EXPECT_GT(image.count(parse_colour("#0072B2")), 500u);
  EXPECT_GT(image.count(parse_colour("#D55E00")), 500u);
  EXPECT_GT(image.count(parse_colour("#009E73")), 500u);
  EXPECT_GT(image.non_white(), 50000u);
}

TEST_F(Browser, ZooKernelSourcePage) {
  // The image blur of the lecture at its launch (40 x 20 image, blocks of 16 x 16).
  const std::string page = dir_.file("blur.html");
  const CliResult r =
      run_warpdiv({"analyze", std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/image_blur.cu", "--grid", "3,2",
                   "--block", "16,16", "--arg", "w=40", "--arg", "h=20", "--html", page});
  if (contains(r.err, "without the Clang front-end")) GTEST_SKIP() << "no Clang front-end";
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string dom = chromium_dump_dom(chromium_, page);
  // The listing has a row per source line of the kernel (10 .. 36), and the maps are drawn.
  const std::string listing = between(dom, "<table id=\"source\">", "</table>");
  EXPECT_EQ(count(listing, "<tr"), 1u + 27u);
  EXPECT_GE(count(dom, "<svg id=\"map-"), 8u);

  const std::string png = dir_.file("blur.png");
  chromium_screenshot(chromium_, page, png, 1150, 2600);
  const Image image = read_png(png);
  // SIMD bars (sky blue) on 14 lines, divergent cells in the maps (vermillion), and the shading
  // of the two divergent lines.
  EXPECT_GT(image.count(parse_colour(colour::kUniformTrue)), 3000u);
  EXPECT_GT(image.count(parse_colour(colour::kDivergent)), 100u);
}

TEST_F(Browser, ZooKernel3dSourcePagePanels) {
  // early_return_3d.cu on a grid (3, 2, 8) with nz = 26: its classes cut blockIdx.z into z < 6,
  // z = 6 (half the slices in) and z = 7 (none in), so the grid is three x-y panels of 2 x 2
  // segments (tests/tools/analyze_source_cli_test.cpp works the classes out).
  const std::string page = dir_.file("volume.html");
  const CliResult r = run_warpdiv(
      {"analyze", std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/early_return_3d.cu", "--grid", "3,2,8",
       "--block", "8,8,4", "--arg", "nx=20", "--arg", "ny=12", "--arg", "nz=26", "--html", page});
  if (contains(r.err, "without the Clang front-end")) GTEST_SKIP() << "no Clang front-end";
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string dom = chromium_dump_dom(chromium_, page);
  const std::string grid = between(dom, "<figure id=\"class-grid\">", "<table id=\"classes\">");
  EXPECT_EQ(count(grid, "<svg id=\"class-grid-z"), 3u);
  EXPECT_EQ(count(grid, "<rect "), 12u);
  EXPECT_TRUE(contains(grid, ">blockIdx.z = 7 (last)</figcaption>")) << grid;
}

// ---- Layout: nothing overprints or runs off the window, at any size ----

// A small laptop's window and a wide screen's, px.
constexpr int kWindowWidths[] = {800, 1400};

std::string joined(const std::vector<std::string>& lines, std::size_t show = 12) {
  std::string text;
  for (std::size_t i = 0; i < lines.size() && i < show; ++i) text += "\n  " + lines[i];
  if (lines.size() > show) text += "\n  ... " + std::to_string(lines.size() - show) + " more";
  return text;
}

TEST_F(Browser, LayoutCheckFindsOverprintingAndOverflow) {
  // The check itself, on a page built to fail it the ways the reports once did: two tables in
  // grid columns narrower than the left table (it runs under the right one), a paragraph wider
  // than the window, and an SVG label running out of its figure.
  const std::string page = dir_.file("bad.html");
  write_file(page,
             "<!DOCTYPE html><html><body>"
             "<div style=\"display:grid;grid-template-columns:200px 200px\">"
             "<table><tr><td>9,671,406,556,917,033,397,649,408</td></tr></table>"
             "<table><tr><td>right</td></tr></table></div>"
             "<p style=\"width:1200px\">wide</p>"
             "<svg width=\"100\" height=\"40\"><text x=\"60\" y=\"20\">a long label</text>"
             "</svg></body></html>");
  const LayoutCheck check = chromium_layout_check(chromium_, page, 800);
  EXPECT_EQ(check.window_width, 800);
  EXPECT_EQ(check.checked, 4);  // two cells, the paragraph, the label
  const std::string found = joined(check.problems);
  EXPECT_TRUE(contains(found,
                       "overlap: <td> \"9,671,406,556,917,033,397,649,408\" and <td> "
                       "\"right\""))
      << found;
  EXPECT_TRUE(contains(found, "the page is wider than the window: ")) << found;
  EXPECT_TRUE(contains(found, "label outside its figure: <text> \"a long label\"")) << found;
}

TEST_F(Browser, LayoutCheckFindsFiguresCutOffAt1400Pixels) {
  // The annotated source as it once was: a long source line before the figures, in a scrolling box.
  const std::string page = dir_.file("cut.html");
  write_file(page,
             "<!DOCTYPE html><html><body><div style=\"overflow-x:auto\"><table id=\"source\"><tr>"
             "<td>1</td><td class=\"src\" style=\"white-space:pre\">" +
                 std::string(300, 'x') + "</td><td>42</td></tr></table></div></body></html>");
  const LayoutCheck wide = chromium_layout_check(chromium_, page, 1400);
  EXPECT_TRUE(contains(joined(wide.problems), "cut off: <td> \"42\"")) << joined(wide.problems);
  EXPECT_FALSE(contains(joined(wide.problems), "cut off: <td> \"1\"")) << joined(wide.problems);
  // Below 1,400 px a scrolling table is allowed.
  const LayoutCheck narrow = chromium_layout_check(chromium_, page, 800);
  EXPECT_FALSE(contains(joined(narrow.problems), "cut off")) << joined(narrow.problems);
}

struct LayoutPage {
  std::string name;
  std::vector<std::string> args;  // a warpdiv command line without --html
  int min_checked = 100;          // elements the page holds at least (a page that failed holds none)
};
void PrintTo(const LayoutPage& page, std::ostream* os) { *os << page.name; }

class BrowserLayout : public Browser, public ::testing::WithParamInterface<LayoutPage> {};

TEST_P(BrowserLayout, NothingOverprintsInANarrowOrAWideWindow) {
  const std::string page = dir_.file("page.html");
  std::vector<std::string> args = GetParam().args;
  args.insert(args.end(), {"--html", page});
  const CliResult r = run_warpdiv(args);
  ASSERT_EQ(r.status, 0) << r.err;
  for (int width : kWindowWidths) {
    SCOPED_TRACE("window " + std::to_string(width) + " px wide");
    const LayoutCheck check = chromium_layout_check(chromium_, page, width);
    EXPECT_EQ(check.window_width, width);
    // Each page holds many headings, cells and labels (over 100; the source sweep's four plots,
    // over 40); a page that failed to render would hold none to compare.
    EXPECT_GT(check.checked, GetParam().min_checked);
    EXPECT_TRUE(check.problems.empty()) << check.problems.size() << " problems:" << joined(check.problems);
  }
}

const std::string kMaxSize = "2147483647";  // 2^31 - 1, the largest size the tool takes

INSTANTIATE_TEST_SUITE_P(
    Pages, BrowserLayout,
    ::testing::Values(
        LayoutPage{"Lecture", {"analyze", "--gpu", "lecture-16k", "--regs", "16"}},
        // Where the two summary tables once overprinted each other (numbers of 12 digits).
        LayoutPage{"Width50000", {"analyze", "--width", "50000"}},
        // The largest counts (31 digits) and the most map rows (1,024 one-lane warps).
        LayoutPage{"CubeWarpSize1",
                   {"analyze", "--rows", kMaxSize, "--inner", kMaxSize, "--cols", kMaxSize, "--tile", "32",
                    "--warp-size", "1"}},
        LayoutPage{"CubeWarpSize32",
                   {"analyze", "--rows", kMaxSize, "--inner", kMaxSize, "--cols", kMaxSize, "--tile", "32",
                    "--warp-size", "32", "--gpu", "h100"}},
        LayoutPage{"SweepToTheLargestSize",
                   {"sweep", "--sizes", "100," + kMaxSize, "--tiles", "1,32", "--gpu", "h100"}},
        // A zoo kernel's source page (the blur: nested loops, two shaded branches) and a source
        // sweep (a curve per block size).
        LayoutPage{"ZooImageBlur",
                   {"analyze", std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/image_blur.cu", "--grid",
                    "3,2", "--block", "16,16", "--arg", "w=40", "--arg", "h=20"}},
        // Every memory column with the source's long lines (the convolution's filter loop).
        LayoutPage{"ZooConvolutionMemory",
                   {"analyze", std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/convolution_2d.cu", "--grid",
                    "3,2", "--block", "16,16", "--arg", "width=30", "--arg", "height=20"}},
        // A 3-D grid's class panels, side by side or wrapped: the largest CUDA grid, whose 27
        // classes make three panels with long segment labels and class numbers on the cells.
        LayoutPage{"ZooEarlyReturn3dLargest",
                   {"analyze", std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/early_return_3d.cu", "--grid",
                    "268435455,65535,65535", "--block", "8,8,4", "--arg", "nx=2147483630", "--arg",
                    "ny=524270", "--arg", "nz=262130"}},
        LayoutPage{"ZooSweep",
                   {"sweep", std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/image_blur.cu", "--grid",
                    "(w+block_x-1)/block_x,(h+block_y-1)/block_y", "--block", "8x8,16x16,32x32", "--arg",
                    "w=8:400:8", "--arg", "h=20"},
                   40}),
    [](const ::testing::TestParamInfo<LayoutPage>& page) { return page.param.name; });

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
