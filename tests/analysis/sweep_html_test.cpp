// The sweep page: a plot per condition with a curve per tile width, the occupancy plot and table
// for a GPU (the lecture's SM, figures from the lecture), the rows table, self-containment.
#include <gtest/gtest.h>

#include <string>

#include "analysis/gpu_presets.hpp"
#include "analysis/lecture/lecture_source.hpp"
#include "analysis/lecture/sweep_html.hpp"
#include "tests/text_helpers.hpp"

namespace warpdiv::analysis {
namespace {

using warpdiv::testing::contains;
using warpdiv::testing::count_occurrences;
using warpdiv::testing::element;

std::vector<SweepRow> sweep(std::vector<std::int64_t> sizes, std::vector<int> tiles,
                            std::vector<std::int64_t> inners = {}) {
  SweepPlan plan;
  plan.sizes = std::move(sizes);
  plan.tiles = std::move(tiles);
  plan.inners = std::move(inners);
  std::vector<SweepRow> rows;
  for (std::size_t i = 0; i < plan.launches(); ++i)
    for (const SweepRow& row : sweep_rows(lecture_counts(plan.launch(i)))) rows.push_back(row);
  return rows;
}

GpuSpec lecture_sm() {
  const auto gpus = load_gpu_file(WARPDIV_SOURCE_DIR "/data/gpus.csv");
  return find_gpu(gpus, "lecture-16k", "--gpu", "gpus.csv");
}

TEST(SweepHtml, APlotPerConditionACurvePerTile) {
  const std::string page = render_sweep_html(sweep({100, 1000}, {16, 32}), {});
  ASSERT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* c : {"load_M", "load_N", "compute", "store"}) {
    const std::string plot = element(page, "svg", std::string("plot-") + c);
    ASSERT_FALSE(plot.empty()) << c;
    EXPECT_EQ(count_occurrences(plot, "<g class=\"series\""), 2u) << c;
    EXPECT_TRUE(contains(plot, ">T = 16</text>")) << c;
    EXPECT_TRUE(contains(plot, ">T = 32</text>")) << c;
    EXPECT_TRUE(contains(plot, ">divergent warp-phases (% of all)</text>")) << c;
    // 100 .. 1000 is less than the ratio 20: a linear axis.
    EXPECT_TRUE(contains(plot, ">matrix size W = J = K = L (elements)</text>")) << c;
  }
  EXPECT_FALSE(contains(page, "id=\"occupancy\""));
  // The lecture's launch in the rows table: 350 of 2,744 (12.76%) for load_M.
  EXPECT_TRUE(contains(element(page, "table", "sweep-table"),
                       "<tr><td>100</td><td>100</td><td>16</td><td>load_M</td><td>2,744</td>"
                       "<td>350</td><td>12.76%</td></tr>"));
  EXPECT_TRUE(contains(page, "4 launches: sizes 100, 1,000 (J = K = L)"));
}

TEST(SweepHtml, WideSizeRangeIsLogarithmicAndInnerSizesMakeCurves) {
  const std::string page = render_sweep_html(sweep({16, 4096, 2147483647}, {32}, {64, 100}), {});
  const std::string plot = element(page, "svg", "plot-load_M");
  EXPECT_TRUE(contains(plot, ">matrix size W = J = L (elements, log scale)</text>"));
  EXPECT_TRUE(contains(plot, ">T = 32, K = 64</text>"));
  EXPECT_TRUE(contains(plot, ">T = 32, K = 100</text>"));
  EXPECT_TRUE(contains(plot, ">10⁹</text>"));
  EXPECT_TRUE(contains(page, "inner sizes K 64, 100"));
}

TEST(SweepHtml, OccupancyOnTheLectureSm) {
  // The lecture's SM, 16 registers a thread: T = 16 -> 256 threads, 2 KB: shared memory allows
  // 16 KB / 2 KB = 8 blocks, threads 1,536 / 256 = 6, so 6 (48 warps of 48, 100%), limited by
  // warps. T = 32 -> 1,024 threads, 8 KB: shared memory 2, threads 1, so 1 (32 warps, 66.67%).
  SweepHtmlOptions options;
  options.gpu = lecture_sm();
  options.registers_per_thread = 16;
  const std::string page = render_sweep_html(sweep({100}, {16, 32}), options);
  const std::string table = element(page, "table", "occupancy-table");
  EXPECT_TRUE(contains(table,
                       "<tr class=\"swept\"><td>16</td><td>256</td><td>2,048</td><td>6</td>"
                       "<td>48</td><td>100.00%</td><td>warps</td></tr>"));
  EXPECT_TRUE(contains(table,
                       "<tr class=\"swept\"><td>32</td><td>1024</td><td>8,192</td><td>1</td>"
                       "<td>32</td><td>66.67%</td>"));
  EXPECT_EQ(count_occurrences(table, "<tr class=\"swept\">"), 2u);
  EXPECT_EQ(count_occurrences(table, "<tr"), 33u);  // header + T = 1 .. 32
  const std::string plot = element(page, "svg", "plot-occupancy");
  EXPECT_TRUE(contains(plot, ">tile width T (blockDim T × T, threads per block = T²)</text>"));
  EXPECT_TRUE(contains(plot, ">theoretical occupancy (% of max warps per SM)</text>"));
  EXPECT_TRUE(contains(plot, ">100%</text>"));
}

TEST(SweepHtml, ManyRowsAreNotListedAndTheSizeStaysBounded) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t w = 1; w <= 20000; ++w) sizes.push_back(w);
  const std::string page = render_sweep_html(sweep(sizes, {8, 16, 32}), {});
  EXPECT_FALSE(contains(page, "id=\"sweep-table\""));
  EXPECT_TRUE(contains(page, "240,000 rows, too many to list here"));
  // 60,000 launches: each curve is thinned to two points per pixel column of the plot.
  EXPECT_LT(page.size(), 1024u * 1024u);
}

TEST(SweepHtml, InterruptedSweepSaysSo) {
  const std::string page = render_sweep_html(sweep({100}, {16}), {}, true);
  EXPECT_TRUE(contains(page, "id=\"interrupted\""));
}

TEST(SweepHtml, SelfContained) {
  SweepHtmlOptions options;
  options.gpu = lecture_sm();
  const std::string page = render_sweep_html(sweep({100, 1000}, {16}), options);
  for (const char* fetch : {"http:", "https:", "//", "src=", "<link", "@import", "<script"})
    EXPECT_FALSE(contains(page, fetch)) << fetch;
}

}  // namespace
}  // namespace warpdiv::analysis
