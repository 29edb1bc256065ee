// The source page (render_source_html) on reports and classes written by hand (no engine): the
// block-class picture (a 2-D grid is one picture; a grid whose classes cut blockIdx.z gets one
// x-y panel per segment of z, each showing the classes of that segment only, at most
// kMaxGridPanels), and the memory columns of the annotated source with their shading.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "analysis/source_html.hpp"
#include "tests/text_helpers.hpp"

namespace warpdiv::analysis {
namespace {

using warpdiv::testing::contains;
using warpdiv::testing::count_occurrences;
using warpdiv::testing::element;
using warpdiv::testing::kNoMemoryCells;
using warpdiv::testing::source_memory_cells;

BlockClassView view(const std::string& name, const std::string& definition, IndexInterval x, IndexInterval y,
                    IndexInterval z) {
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
                             std::string(x_def[x]) + ", " + y_def[y], {x, x + 1}, {y, y + 1}, {0, 1}));
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
                               std::string(x_def[x]) + ", " + y_def[y] + ", " + z_def[z], xs[x], ys[y],
                               zs[z]));
  const std::string page = page_of(classes, "grid (3, 2, 8), block (8, 8, 4)");
  const std::string grid = grid_section(page);
  // Three panels of 2 x 2 cells, each 270 x 82 px, each with its class numbers (12 classes,
  // eight colours), captioned with the classes' own z definitions.
  EXPECT_EQ(count_occurrences(grid, "<svg"), 3u);
  EXPECT_FALSE(contains(grid, "<svg id=\"class-grid\""));
  EXPECT_TRUE(contains(grid, "<figure id=\"class-grid\">"));
  EXPECT_EQ(count_occurrences(grid, "<rect"), 12u);
  EXPECT_EQ(count_occurrences(grid, "width=\"270\" height=\"82\""), 3u);
  EXPECT_TRUE(contains(grid,
                       "<figcaption style=\"font-weight:600\">blockIdx.z &lt; 6</figcaption>"
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
    classes.push_back(view("class " + std::to_string(z + 1), "blockIdx.z = " + std::to_string(z), {0, 1},
                           {0, 1}, {z, z + 1}));
  const std::string grid = grid_section(page_of(classes, "grid (1, 1, 4096)"));
  EXPECT_EQ(kMaxGridPanels, 16u);
  EXPECT_EQ(count_occurrences(grid, "<svg"), 16u);
  EXPECT_EQ(count_occurrences(grid, "<rect"), 16u);
  EXPECT_TRUE(contains(grid, "id=\"class-grid-z16\""));
  EXPECT_FALSE(contains(grid, "id=\"class-grid-z17\""));
  EXPECT_TRUE(contains(grid, ">blockIdx.z = 15</figcaption>"));
  EXPECT_TRUE(contains(grid,
                       "<p class=\"note\">Only the first 16 of the 4,096 segments of "
                       "blockIdx.z are drawn: 4,080 left out (blockIdx.z 16-4095); the "
                       "table lists every class.</p>"))
      << grid;
  EXPECT_LT(grid.size(), 20'000u);
}

// ---------------------------------------------------------------------------------------------
// Memory in the annotated source: one listing line per entry, each a statement of its own (its
// source text names the line) with the given figures.

struct MemoryLine {
  std::string text;
  std::optional<MemoryFigures> memory;  // none: a line without a statement
};

// Global loads: requests, sectors, bytes asked.
MemoryFigures global(sim::Count requests, sim::Count sectors, sim::Count bytes) {
  MemoryFigures m;
  m.has_global = true;
  m.global_requests = requests;
  m.global_load_requests = requests;
  m.global_sectors = sectors;
  m.global_bytes = bytes;
  return m;
}

MemoryFigures shared(sim::Count requests, sim::Count wavefronts, sim::Count conflicts) {
  MemoryFigures m;
  m.has_shared = true;
  m.shared_requests = requests;
  m.shared_wavefronts = wavefronts;
  m.shared_bank_conflicts = conflicts;
  return m;
}

SourceReport memory_report(const std::vector<MemoryLine>& lines) {
  SourceReport report;
  report.kernel = "k";
  report.file = "k.cu";
  report.launch = "grid (1, 1, 1), block (32, 1, 1), warp size 32";
  report.memory.counted = true;
  for (const MemoryLine& l : lines) {
    ListingLine line{std::to_string(report.listing.size() + 1), l.text, std::nullopt, l.memory, {}};
    if (l.memory) {
      SourceRow row;
      row.line = static_cast<std::uint32_t>(report.listing.size() + 1);
      row.counts.warp_evaluations = 1;
      row.counts.active_lanes = 32;
      row.simd_efficiency = 1;
      row.memory = l.memory;
      row.text = l.text;
      line.row = report.rows.size();
      report.rows.push_back(row);
    }
    report.listing.push_back(line);
  }
  report.summed = report.rows;  // no inlined function: the listing's rows are the statements'
  return report;
}

TEST(SourceHtmlMemory, GlobalLinesAreShadedBySectorEfficiency) {
  // 32 lanes x 4 bytes = 128 bytes asked per request. In 4 sectors: 100%, no shade; in 2 (each
  // half-warp reads one word): 200%, no shade; 127 of 128 bytes: 99.2%, the first step; 64 bytes
  // in 4 sectors, 50.0%, still the first; 63, 49.2%, the second; 32, 25.0%, the second; in 32
  // sectors (a stride of 8 floats), 12.5%, the third.
  const std::string page = render_source_html(memory_report({{"full();", global(1, 4, 128)},
                                                             {"broadcast();", global(1, 2, 128)},
                                                             {"almost();", global(1, 4, 127)},
                                                             {"half();", global(1, 4, 64)},
                                                             {"below_half();", global(1, 4, 63)},
                                                             {"quarter();", global(1, 4, 32)},
                                                             {"strided();", global(1, 32, 128)},
                                                             {"no_access();", MemoryFigures{}},
                                                             {"// a comment", std::nullopt}}),
                                              SourceHtmlPage{});
  // Every figure before the source, which wraps (so that they all fit a 1,400-pixel window).
  EXPECT_TRUE(contains(page,
                       "<th>SIMD</th><th>sector eff.</th><th>conflicts</th><th>global req</th>"
                       "<th>sectors</th><th>bytes asked</th><th>ld req</th><th>st req</th>"
                       "<th>atom req</th><th>shared req</th>"
                       "<th>wavefronts</th><th>flops</th><th class=\"src\">source</th></tr>"))
      << page;
  // The sector efficiency cell, then requests, sectors and bytes (all before the source).
  const auto cells = [&](const std::string& text) { return source_memory_cells(page, text); };
  const auto want = [](const std::string& efficiency, const std::string& sectors, const std::string& bytes) {
    return efficiency + "<td>-</td><td>1</td><td>" + sectors + "</td><td>" + bytes +
           "</td><td>1</td><td>0</td><td>0</td><td>-</td><td>-</td><td>0</td>";
  };
  EXPECT_EQ(cells("full();"), want("<td>100.0%</td>", "4", "128"));
  EXPECT_EQ(cells("broadcast();"), want("<td>200.0%</td>", "2", "128"));
  EXPECT_EQ(cells("almost();"), want("<td class=\"mg1\">99.2%</td>", "4", "127"));
  EXPECT_EQ(cells("half();"), want("<td class=\"mg1\">50.0%</td>", "4", "64"));
  EXPECT_EQ(cells("below_half();"), want("<td class=\"mg2\">49.2%</td>", "4", "63"));
  EXPECT_EQ(cells("quarter();"), want("<td class=\"mg2\">25.0%</td>", "4", "32"));
  EXPECT_EQ(cells("strided();"), want("<td class=\"mg3\">12.5%</td>", "32", "128"));
  // A statement without an access, a line without a statement: empty cells, no shade.
  EXPECT_EQ(cells("no_access();"), kNoMemoryCells);
  EXPECT_EQ(cells("// a comment"), kNoMemoryCells);
  // The legend names the three steps of each shade, with their colours.
  EXPECT_TRUE(contains(page, "rgba(0,114,178,0.2)\"></span>global: sector efficiency 50% to 100%</span>"))
      << page;
  EXPECT_TRUE(contains(page, "rgba(204,121,167,0.9)\"></span>more than 3</span>")) << page;
  EXPECT_TRUE(contains(page, "td.mg3{background:rgba(0,114,178,0.7)}"));
  // 4 of the lines shaded, once each; the shared shades on none.
  EXPECT_EQ(count_occurrences(page, "class=\"mg1\""), 2u);
  EXPECT_EQ(count_occurrences(page, "class=\"mg2\""), 2u);
  EXPECT_EQ(count_occurrences(page, "class=\"mg3\""), 1u);
  EXPECT_EQ(count_occurrences(page, "class=\"ms"), 0u);
}

TEST(SourceHtmlMemory, SharedLinesAreShadedByConflictsPerRequest) {
  // 32 requests each: no conflict, no shade; 32 conflicts (1 per request, 2-way), the first
  // step; 33 and 96 (3 per request), the second; 97 and 992 (the unpadded transpose's column
  // read: 31 per request), the third. A line with a global and a shared access shades both cells.
  MemoryFigures both = global(8, 32, 1024);  // 1024 / (32 x 32) = 100%
  both.has_shared = true;
  both.shared_requests = 8;
  both.shared_wavefronts = 64;
  both.shared_bank_conflicts = 56;  // 7 per request
  both.flops = 512;
  const std::string page = render_source_html(memory_report({{"none();", shared(32, 32, 0)},
                                                             {"two_way();", shared(32, 64, 32)},
                                                             {"past_two();", shared(32, 65, 33)},
                                                             {"four_way();", shared(32, 128, 96)},
                                                             {"past_four();", shared(32, 129, 97)},
                                                             {"column();", shared(32, 1024, 992)},
                                                             {"tile[ty][tx] = M[i] * 2;", both}}),
                                              SourceHtmlPage{});
  const auto cells = [&](const std::string& text) { return source_memory_cells(page, text); };
  // The bank conflicts cell (before the source), then requests and wavefronts after it.
  const auto want = [](const std::string& conflicts, const std::string& wavefronts) {
    return "<td>-</td>" + conflicts +
           "<td>-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>32</td><td>" + wavefronts +
           "</td><td>0</td>";
  };
  EXPECT_EQ(cells("none();"), want("<td>0</td>", "32"));
  EXPECT_EQ(cells("two_way();"), want("<td class=\"ms1\">32</td>", "64"));
  EXPECT_EQ(cells("past_two();"), want("<td class=\"ms2\">33</td>", "65"));
  EXPECT_EQ(cells("four_way();"), want("<td class=\"ms2\">96</td>", "128"));
  EXPECT_EQ(cells("past_four();"), want("<td class=\"ms3\">97</td>", "129"));
  EXPECT_EQ(cells("column();"), want("<td class=\"ms3\">992</td>", "1,024"));
  EXPECT_EQ(cells("tile[ty][tx] = M[i] * 2;"),
            "<td>100.0%</td><td class=\"ms3\">56</td><td>8</td><td>32</td><td>1,024</td><td>8</td><td>0</td>"
            "<td>0</td><td>8</td><td>64</td><td>512</td>");
  EXPECT_EQ(count_occurrences(page, "class=\"mg"), 0u);
}

TEST(SourceHtmlMemory, WhatIsNotCountedIsSaidInOneLineEach) {
  // A gather's load is not counted (its address depends on a value read from memory): its line
  // has no figures of its own, so its sector efficiency cell says so; the access and the statement whose
  // flops are not counted get a line each under the listing, escaped.
  SourceReport report =
      memory_report({{"y[i] = x[col[i]] < 0 ? a : b;", MemoryFigures{}}, {"z[i] = 1;", global(1, 4, 128)}});
  AccessRow gather;
  gather.statement = 0;
  gather.where = "k.cu:1:8";
  gather.line = 1;
  gather.text = "x[col[i]]";
  gather.kind = "load";
  gather.space = "global";
  gather.not_counted = "its address depends on a value read from memory (<col>)";
  report.memory.accesses.push_back(gather);
  report.listing[0].accesses_not_counted = {0};
  report.memory.flops_not_counted.push_back("k.cu:1:8: calls 'expf' & co.");
  const std::string page = render_source_html(report, SourceHtmlPage{});
  EXPECT_EQ(
      source_memory_cells(page, "y[i] = x[col[i]] &lt; 0 ? a : b;"),
      "<td>not "
      "counted</td><td></td><td>?</td><td>?</td><td>?</td><td>?</td><td>?</td><td>?</td><td></td><td></td>"
      "<td></td>");
  EXPECT_TRUE(contains(page,
                       "<p class=\"note\">Not counted: k.cu:1:8: load &#39;x[col[i]]&#39;: its "
                       "address depends on a value read from memory (&lt;col&gt;)</p>"))
      << page;
  EXPECT_TRUE(contains(page,
                       "<p class=\"note\">Floating-point operations not counted at k.cu:1:8: "
                       "calls &#39;expf&#39; &amp; co.</p>"))
      << page;
  EXPECT_EQ(count_occurrences(page, "Not counted: "), 1u);
  EXPECT_FALSE(contains(page, "Memory figures: not counted"));
}

TEST(SourceHtmlMemory, UncountedLaunchIsOneLineAndNoColumns) {
  // The class engine counted and the replay for memory would be too long: no memory columns, no
  // legend, one line saying why (escaped).
  SourceReport report = memory_report({{"z[i] = 1;", std::nullopt}});
  report.memory.counted = false;
  report.memory.not_counted = "replaying it would take 10 > 2 evaluations";
  AccessRow store;
  store.statement = 0;
  store.where = "k.cu:1:1";
  store.text = "z[i]";
  store.kind = "store";
  store.space = "global";
  report.memory.accesses.push_back(store);
  const std::string page = render_source_html(report, SourceHtmlPage{});
  EXPECT_TRUE(contains(page,
                       "<p class=\"note\">Memory figures: not counted (replaying it would "
                       "take 10 &gt; 2 evaluations).</p>"))
      << page;
  EXPECT_EQ(count_occurrences(page, "not counted"), 1u);
  EXPECT_FALSE(contains(page, "<th>global req</th>"));
  EXPECT_FALSE(contains(page, "sector efficiency 50% to 100%"));
  EXPECT_TRUE(contains(page, "<th>SIMD</th><th class=\"src\">source</th></tr>"));
}

TEST(SourceHtmlMemory, KernelWithoutMemoryWorkHasNoMemoryColumnsOrNotes) {
  // Counted, but no line has an access or floating-point work (and nothing is not counted).
  const std::string page =
      render_source_html(memory_report({{"if (i < n) return;", MemoryFigures{}}}), SourceHtmlPage{});
  EXPECT_FALSE(contains(page, "<th>global req</th>"));
  EXPECT_FALSE(contains(page, "sector efficiency 50% to 100%"));
  EXPECT_FALSE(contains(page, "not counted"));
  EXPECT_TRUE(contains(page, "<td class=\"src\">if (i &lt; n) return;</td>"));
}

}  // namespace
}  // namespace warpdiv::analysis
