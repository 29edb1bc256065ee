// The block-class picture of the source page (render_source_html), on classes written by hand
// (no engine): a 2-D grid is one picture; a grid whose classes cut blockIdx.z gets one x-y panel
// per segment of z, each showing the classes of that segment only, at most kMaxGridPanels.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/source_html.hpp"
#include "tests/text_helpers.hpp"

namespace warpdiv::analysis {
namespace {

using warpdiv::testing::contains;
using warpdiv::testing::count_occurrences;
using warpdiv::testing::element;

BlockClassView view(const std::string& name, const std::string& definition, IndexInterval x,
                    IndexInterval y, IndexInterval z) {
  BlockClassView c;
  c.name = name;
  c.definition = definition;
  c.x = x;
  c.y = y;
  c.z = z;
  c.blocks = sim::Count{x.end - x.begin} * (y.end - y.begin) * (z.end - z.begin);
  c.representative = sim::ir::Dim3{x.begin, y.begin, z.begin};
  return c;
}

std::string page_of(const std::vector<BlockClassView>& classes, const std::string& launch) {
  SourceReport report;
  report.kernel = "k";
  report.file = "k.cu";
  report.launch = launch;
  SourceHtmlPage page;
  page.classes = classes;
  page.engine_note = "Counted by the class engine.";
  return render_source_html(report, page);
}

// The section of the page that draws the classes (up to their table).
std::string grid_section(const std::string& page) {
  const auto start = page.find("<h2>Block classes</h2>");
  return page.substr(start, page.find("<table id=\"classes\"", start) - start);
}

TEST(SourceHtmlGrid, TwoDimensionalGridIsOnePicture) {
  // The blur's six classes on a 3 x 2 grid: x cut at 1 and 2, y at 1. One picture of 3 x 2
  // cells: 110 + 3 x 26 + 10 = 198 px, widened to 110 + 160 = 270 for the axis label; 20 + 2 x
  // 26 + 10 = 82 px high.
  std::vector<BlockClassView> classes;
  const char* x_def[] = {"blockIdx.x = 0 (first)", "blockIdx.x = 1", "blockIdx.x = 2 (last)"};
  const char* y_def[] = {"blockIdx.y = 0 (first)", "blockIdx.y = 1 (last)"};
  for (std::uint32_t y = 0; y < 2; ++y)
    for (std::uint32_t x = 0; x < 3; ++x)
      classes.push_back(view("class " + std::to_string(classes.size() + 1),
                             std::string(x_def[x]) + ", " + y_def[y], {x, x + 1}, {y, y + 1},
                             {0, 1}));
  const std::string grid = grid_section(page_of(classes, "grid (3, 2, 1), block (16, 16, 1)"));
  EXPECT_TRUE(contains(grid, "<svg id=\"class-grid\" width=\"270\" height=\"82\"")) << grid;
  EXPECT_EQ(count_occurrences(grid, "<svg"), 1u);
  EXPECT_EQ(count_occurrences(grid, "<rect"), 6u);
  EXPECT_FALSE(contains(grid, "class-grid-z"));
  EXPECT_TRUE(contains(grid, "<title>class 6: blockIdx.x 2, blockIdx.y 1</title>")) << grid;
  // Six classes, eight colours: no class numbers on the cells.
  EXPECT_FALSE(contains(grid, "text-anchor=\"middle\""));
  EXPECT_TRUE(contains(grid, "<figcaption>grid (3, 2, 1), block (16, 16, 1)</figcaption>"));
}

TEST(SourceHtmlGrid, ThreeDimensionalGridGetsAPanelPerSegmentOfZ) {
  // early_return_3d.cu's classes at grid (3, 2, 8), nz = 26 (blockDim.z 4): slices z < 6 are
  // whole, z = 6 half in, z = 7 out; x cut at 2, y at 1. Ordered by z, then y, then x: classes
  // 1-4 in z < 6, 5-8 in z = 6, 9-12 in z = 7 (last).
  std::vector<BlockClassView> classes;
  const IndexInterval xs[] = {{0, 2}, {2, 3}}, ys[] = {{0, 1}, {1, 2}}, zs[] = {{0, 6}, {6, 7}, {7, 8}};
  const char* x_def[] = {"blockIdx.x < 2", "blockIdx.x = 2 (last)"};
  const char* y_def[] = {"blockIdx.y = 0 (first)", "blockIdx.y = 1 (last)"};
  const char* z_def[] = {"blockIdx.z < 6", "blockIdx.z = 6", "blockIdx.z = 7 (last)"};
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x)
        classes.push_back(view("class " + std::to_string(classes.size() + 1),
                               std::string(x_def[x]) + ", " + y_def[y] + ", " + z_def[z], xs[x],
                               ys[y], zs[z]));
  const std::string page = page_of(classes, "grid (3, 2, 8), block (8, 8, 4)");
  const std::string grid = grid_section(page);
  // Three panels of 2 x 2 cells, each 270 x 82 px, each with its class numbers (12 classes,
  // eight colours), captioned with the classes' own z definitions.
  EXPECT_EQ(count_occurrences(grid, "<svg"), 3u);
  EXPECT_FALSE(contains(grid, "<svg id=\"class-grid\""));
  EXPECT_TRUE(contains(grid, "<figure id=\"class-grid\">"));
  EXPECT_EQ(count_occurrences(grid, "<rect"), 12u);
  EXPECT_EQ(count_occurrences(grid, "width=\"270\" height=\"82\""), 3u);
  EXPECT_TRUE(contains(grid, "<figcaption style=\"font-weight:600\">blockIdx.z &lt; 6</figcaption>"
                             "<svg id=\"class-grid-z1\""));
  EXPECT_TRUE(contains(grid, ">blockIdx.z = 6</figcaption><svg id=\"class-grid-z2\""));
  EXPECT_TRUE(contains(grid, ">blockIdx.z = 7 (last)</figcaption><svg id=\"class-grid-z3\""));
  EXPECT_TRUE(contains(grid, "<figcaption>grid (3, 2, 8), block (8, 8, 4)</figcaption>"));
  EXPECT_FALSE(contains(grid, "class-grid-z4"));
  EXPECT_FALSE(contains(grid, "class=\"note\""));  // nothing left out
  for (int panel = 0; panel < 3; ++panel) {
    const std::string svg = element(page, "svg", "class-grid-z" + std::to_string(panel + 1));
    const std::string z = panel == 0 ? "0-5" : std::to_string(panel + 5);
    for (int k = 1; k <= 12; ++k) {
      const bool here = (k - 1) / 4 == panel;
      EXPECT_EQ(contains(svg, "<title>class " + std::to_string(k) + ":"), here) << panel << " " << k;
      EXPECT_EQ(contains(svg, ">" + std::to_string(k) + "</text>"), here) << panel << " " << k;
    }
    // Class 4k + 1: x 0-1, y 0; class 4k + 4: x 2, y 1.
    EXPECT_TRUE(contains(svg, "<title>class " + std::to_string(4 * panel + 1) +
                                  ": blockIdx.x 0-1, blockIdx.y 0, blockIdx.z " + z + "</title>"))
        << svg;
    EXPECT_TRUE(contains(svg, "<title>class " + std::to_string(4 * panel + 4) +
                                  ": blockIdx.x 2, blockIdx.y 1, blockIdx.z " + z + "</title>"))
        << svg;
  }
  // Classes 4 and 12 share the blue (the eight colours go round), and 8 the black: white numbers.
  EXPECT_EQ(count_occurrences(grid, "style=\"fill:#FFFFFF\""), 3u);
}

TEST(SourceHtmlGrid, PanelWithoutAClassOfItsOwnIntervalIsLabelledBySegment) {
  // x = 0: z in [0, 0] and [1, 2]; x = 1: z in [0, 1] and [2, 2]. z is cut at 1 and 2; segment
  // z = 1 is no class's own z interval, so its label is the segment; the others take the
  // definitions of A and D. Panel z = 1 shows B (x = 0) and C (x = 1).
  const std::vector<BlockClassView> classes = {
      view("A", "blockIdx.x = 0 (first), blockIdx.z = 0 (first)", {0, 1}, {0, 1}, {0, 1}),
      view("B", "blockIdx.x = 0 (first), blockIdx.z >= 1", {0, 1}, {0, 1}, {1, 3}),
      view("C", "blockIdx.x = 1 (last), blockIdx.z < 2", {1, 2}, {0, 1}, {0, 2}),
      view("D", "blockIdx.x = 1 (last), blockIdx.z = 2 (last)", {1, 2}, {0, 1}, {2, 3})};
  const std::string page = page_of(classes, "grid (2, 1, 3)");
  EXPECT_TRUE(contains(page, ">blockIdx.z = 0 (first)</figcaption><svg id=\"class-grid-z1\""));
  EXPECT_TRUE(contains(page, ">blockIdx.z = 1</figcaption><svg id=\"class-grid-z2\""));
  EXPECT_TRUE(contains(page, ">blockIdx.z = 2 (last)</figcaption><svg id=\"class-grid-z3\""));
  const std::string middle = element(page, "svg", "class-grid-z2");
  EXPECT_TRUE(contains(middle, "<title>B: blockIdx.x 0, blockIdx.y 0, blockIdx.z 1</title>"));
  EXPECT_TRUE(contains(middle, "<title>C: blockIdx.x 1, blockIdx.y 0, blockIdx.z 1</title>"));
  EXPECT_EQ(count_occurrences(middle, "<rect"), 2u);
}

TEST(SourceHtmlGrid, PanelsAreCappedWithANote) {
  // 4,096 classes, one per slice z (the engine's most): 16 panels of one cell each, and a note
  // on the 4,080 slices left out.
  std::vector<BlockClassView> classes;
  for (std::uint32_t z = 0; z < 4096; ++z)
    classes.push_back(view("class " + std::to_string(z + 1), "blockIdx.z = " + std::to_string(z),
                           {0, 1}, {0, 1}, {z, z + 1}));
  const std::string grid = grid_section(page_of(classes, "grid (1, 1, 4096)"));
  EXPECT_EQ(kMaxGridPanels, 16u);
  EXPECT_EQ(count_occurrences(grid, "<svg"), 16u);
  EXPECT_EQ(count_occurrences(grid, "<rect"), 16u);
  EXPECT_TRUE(contains(grid, "id=\"class-grid-z16\""));
  EXPECT_FALSE(contains(grid, "id=\"class-grid-z17\""));
  EXPECT_TRUE(contains(grid, ">blockIdx.z = 15</figcaption>"));
  EXPECT_TRUE(contains(grid, "<p class=\"note\">Only the first 16 of the 4,096 segments of "
                             "blockIdx.z are drawn: 4,080 left out (blockIdx.z 16-4095); the "
                             "table lists every class.</p>"))
      << grid;
  EXPECT_LT(grid.size(), 20'000u);
}

}  // namespace
}  // namespace warpdiv::analysis
