// Line plots: ticks and labels worked out by hand, thinning of long series, and the SVG's parts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/svg_plot.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::analysis {
namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

void expect_ticks(const std::vector<double>& ticks, const std::vector<double>& expected) {
  ASSERT_EQ(ticks.size(), expected.size());
  for (std::size_t i = 0; i < ticks.size(); ++i) EXPECT_NEAR(ticks[i], expected[i], 1e-9) << i;
}

TEST(AxisTicks, Linear) {
  // 0..100: a fifth of the range is 20 = 2 x 10, a nice step.
  expect_ticks(axis_ticks(0, 100, false), {0, 20, 40, 60, 80, 100});
  // 0..14.29: a fifth is 2.858, rounded to the nice step 2.
  expect_ticks(axis_ticks(0, 14.29, false), {0, 2, 4, 6, 8, 10, 12, 14});
  // 1..32 (tile widths): a fifth is 6.2 -> 5.
  expect_ticks(axis_ticks(1, 32, false), {5, 10, 15, 20, 25, 30});
}

TEST(AxisTicks, Logarithmic) {
  // Three decades or more: powers of ten only.
  expect_ticks(axis_ticks(100, 1e5, true), {100, 1000, 1e4, 1e5});
  // Fewer: 2 and 5 as well.
  expect_ticks(axis_ticks(100, 1000, true), {100, 200, 500, 1000});
}

TEST(TickLabels, Forms) {
  EXPECT_EQ(tick_label(1e6, true, false), "10⁶");
  EXPECT_EQ(tick_label(1e10, true, false), "10¹⁰");
  EXPECT_EQ(tick_label(1000, true, false), "1,000");
  EXPECT_EQ(tick_label(2e6, true, false), "2,000,000");
  EXPECT_EQ(tick_label(12.5, false, true), "12.5%");
  EXPECT_EQ(tick_label(0, false, true), "0%");
  EXPECT_EQ(tick_label(2.5, false, false), "2.5");
  EXPECT_EQ(tick_label(16, false, false), "16");
}

TEST(ThinPoints, KeepsTheExtremesOfEachBucket) {
  // A saw-tooth (y = x mod 7) over 10,000 points into 100 buckets: at most 200 points remain, and
  // the lowest (0) and highest (6) values are among them.
  std::vector<PlotPoint> points;
  for (int x = 1; x <= 10000; ++x) points.push_back({static_cast<double>(x), double(x % 7)});
  const auto thinned = thin_points(points, 100, false);
  EXPECT_LE(thinned.size(), 200u);
  EXPECT_GE(thinned.size(), 100u);
  int lows = 0, highs = 0;
  for (const PlotPoint& p : thinned) {
    lows += p.y == 0;
    highs += p.y == 6;
  }
  EXPECT_GE(lows, 99);  // every bucket of 100 consecutive x holds a 0 and a 6
  EXPECT_GE(highs, 99);
  // Few points are kept as they are.
  EXPECT_EQ(thin_points({{1, 2}, {3, 4}}, 100, false).size(), 2u);
}

LinePlot sample_plot() {
  LinePlot plot;
  plot.id = "sample";
  plot.title = "divergent <fraction>";
  plot.x = {"matrix size (elements)", true, false, {}, {}};
  plot.y = {"divergent warp-phases (%)", false, true, {}, {}};
  plot.series = {{"T = 16", {{100, 12.76}, {1000, 1.5}, {10000, 0.15}}},
                 {"T = 32", {{100, 3.1}, {1000, 3.0}, {10000, 0.3}}}};
  return plot;
}

TEST(LinePlot, HasAxesLegendAndSeries) {
  const std::string svg = render_line_plot(sample_plot());
  EXPECT_EQ(svg.rfind("<svg class=\"plot\" id=\"sample\"", 0), 0u);
  EXPECT_EQ(count(svg, "<g class=\"series\""), 2u);
  EXPECT_EQ(count(svg, "<polyline"), 2u);
  EXPECT_NE(svg.find(">divergent &lt;fraction&gt;</text>"), std::string::npos);  // escaped title
  EXPECT_NE(svg.find(">matrix size (elements)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">divergent warp-phases (%)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">T = 16</text>"), std::string::npos);
  EXPECT_NE(svg.find(">T = 32</text>"), std::string::npos);
  // x from 100 to 10,000 (two decades): ticks 100, 200, 500, 1,000, ..., 10⁴.
  EXPECT_NE(svg.find(">1,000</text>"), std::string::npos);
  EXPECT_NE(svg.find(">10⁴</text>"), std::string::npos);
  // y from 0 to 12.76: ticks every 2 %, the top one 14 %.
  EXPECT_NE(svg.find(">14%</text>"), std::string::npos);
}

TEST(LinePlot, LogAxisRefusesZero) {
  LinePlot plot = sample_plot();
  plot.series[0].points.push_back({0, 1});
  EXPECT_THROW(render_line_plot(plot), InvalidInput);
}

TEST(LinePlot, EmptySaysSo) {
  LinePlot plot = sample_plot();
  plot.series.clear();
  EXPECT_NE(render_line_plot(plot).find(">no data</text>"), std::string::npos);
}

TEST(LinePlot, AMillionPointsStaySmall) {
  LinePlot plot = sample_plot();
  plot.series.resize(1);
  plot.series[0].points.clear();
  for (int x = 1; x <= 1000000; ++x)
    plot.series[0].points.push_back({static_cast<double>(x), 100.0 / (x % 97 + 1)});
  const std::string svg = render_line_plot(plot);
  EXPECT_LT(svg.size(), 100u * 1024u);
  EXPECT_EQ(count(svg, "<circle"), 1u);  // the legend's marker only: too many points for markers
}

}  // namespace
}  // namespace warpdiv::analysis
