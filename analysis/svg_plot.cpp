#include "analysis/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "analysis/html.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::analysis {

using html::coord;
using html::escape;

namespace {

namespace frame {
constexpr double kMinHeight = 360;        // px; more when the legend needs it
constexpr double kLeft = 74;              // px for the y tick labels and the y axis label
constexpr double kLegendSample = 46;      // px of a legend entry's line sample and gap
constexpr double kLegendChar = 7.2;       // px per character of a 12 px legend label
constexpr double kMinPlotWidth = 160;     // px of the plotting area at least
constexpr double kTop = 34;               // px for the title
constexpr double kBottom = 56;            // px for the x tick labels and the x axis label
constexpr double kLegendRow = 19;         // px per legend entry
constexpr std::size_t kMarkersUpTo = 40;  // points per series that still get markers
}  // namespace frame

// Okabe-Ito colours (no yellow: too light on paper), dash patterns and markers, cycled separately
// so that neighbouring series differ in all three.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000"};
constexpr const char* kDashes[] = {"", "7 4", "2 3", "9 3 2 3"};
constexpr int kMarkerKinds = 5;

std::string format_number(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  std::string text = buffer;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  if (text == "-0") text = "0";
  return text;
}

double transform(double v, bool log) { return log ? std::log10(v) : v; }

// The data range of an axis, widened to something readable.
std::pair<double, double> axis_range(const PlotAxis& axis, double lo, double hi) {
  if (axis.min) lo = *axis.min;
  if (axis.max) hi = *axis.max;
  if (axis.log) {
    if (hi <= lo) return {lo / 2, hi * 2};
    const double decades = std::log10(hi) - std::log10(lo);
    if (decades >= 1) {  // whole decades: the ends get labels
      if (!axis.min) lo = std::pow(10.0, std::floor(std::log10(lo) + 1e-9));
      if (!axis.max) hi = std::pow(10.0, std::ceil(std::log10(hi) - 1e-9));
    } else {
      const double pad = decades * 0.05;
      if (!axis.min) lo = std::pow(10.0, std::log10(lo) - pad);
      if (!axis.max) hi = std::pow(10.0, std::log10(hi) + pad);
    }
    return {lo, hi};
  }
  if (hi <= lo) {
    const double pad = lo == 0 ? 1 : std::abs(lo) / 2;
    return {axis.min ? lo : lo - pad, axis.max ? hi : hi + pad};
  }
  // Extend to whole tick steps.
  const auto ticks = axis_ticks(lo, hi, false);
  if (ticks.size() >= 2) {
    const double step = ticks[1] - ticks[0];
    if (!axis.min) lo = std::floor(lo / step + 1e-9) * step;
    if (!axis.max) hi = std::ceil(hi / step - 1e-9) * step;
  }
  return {lo, hi};
}

std::string marker(int kind, double x, double y, const char* colour) {
  const std::string fill = std::string(" fill=\"") + colour + "\"";
  switch (kind) {
    case 0:
      return "<circle cx=\"" + coord(x) + "\" cy=\"" + coord(y) + "\" r=\"3.5\"" + fill + "/>";
    case 1:
      return "<rect x=\"" + coord(x - 3.2) + "\" y=\"" + coord(y - 3.2) + "\" width=\"6.4\" height=\"6.4\"" +
             fill + "/>";
    case 2:
      return "<path d=\"M" + coord(x) + " " + coord(y - 4.5) + "L" + coord(x + 4) + " " + coord(y + 3) + "H" +
             coord(x - 4) + "Z\"" + fill + "/>";
    case 3:
      return "<path d=\"M" + coord(x) + " " + coord(y - 4.5) + "L" + coord(x + 4.5) + " " + coord(y) + "L" +
             coord(x) + " " + coord(y + 4.5) + "L" + coord(x - 4.5) + " " + coord(y) + "Z\"" + fill + "/>";
    default:  // hollow circle
      return "<circle cx=\"" + coord(x) + "\" cy=\"" + coord(y) +
             "\" r=\"3.5\" fill=\"#fff\" stroke-width=\"1.6\" stroke=\"" + colour + "\"/>";
  }
}

}  // namespace

std::vector<double> axis_ticks(double lo, double hi, bool log) {
  std::vector<double> ticks;
  if (!(hi > lo)) return {lo};
  if (log) {
    const int first = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
    const int last = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
    const bool few_decades = last - first < 3;
    for (int k = first; k <= last; ++k) {
      const double decade = std::pow(10.0, k);
      for (double m : {1.0, 2.0, 5.0}) {
        if (m != 1.0 && !few_decades) continue;
        const double v = m * decade;
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) ticks.push_back(v);
      }
    }
    return ticks;
  }
  const double raw = (hi - lo) / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double normal = raw / magnitude;
  const double step = (normal < 1.5 ? 1 : normal < 3.5 ? 2 : normal < 7.5 ? 5 : 10) * magnitude;
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
    ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
  return ticks;
}

std::string tick_label(double value, bool log, bool percent) {
  if (percent) return format_number(value, std::abs(value) < 10 ? 2 : 1) + "%";
  if (log && value >= 1e4) {
    const double exponent = std::log10(value);
    if (std::abs(exponent - std::round(exponent)) < 1e-9) {
      static const char* const kSuperscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
      std::string text = "10";
      for (char digit : std::to_string(static_cast<int>(std::round(exponent))))
        text += kSuperscripts[digit - '0'];
      return text;
    }
  }
  if (std::abs(value - std::round(value)) < 1e-9 && std::abs(value) < 1e15) {
    const long long whole = std::llround(value);
    const std::string digits = std::to_string(whole < 0 ? -whole : whole);
    return (whole < 0 ? "-" : "") + html::group_digits(digits);
  }
  return format_number(value, 3);
}

std::vector<PlotPoint> thin_points(const std::vector<PlotPoint>& points, int buckets, bool log_x) {
  if (buckets < 1 || points.size() <= static_cast<std::size_t>(2 * buckets)) return points;
  std::vector<PlotPoint> sorted = points;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const PlotPoint& a, const PlotPoint& b) { return a.x < b.x; });
  const double lo = transform(sorted.front().x, log_x);
  const double hi = transform(sorted.back().x, log_x);
  const double width = hi > lo ? (hi - lo) / buckets : 1;
  std::vector<PlotPoint> kept;
  std::size_t i = 0;
  while (i < sorted.size()) {
    const int bucket = std::min(buckets - 1, static_cast<int>((transform(sorted[i].x, log_x) - lo) / width));
    std::size_t lowest = i, highest = i, j = i;
    for (; j < sorted.size(); ++j) {
      const int b = std::min(buckets - 1, static_cast<int>((transform(sorted[j].x, log_x) - lo) / width));
      if (b != bucket) break;
      if (sorted[j].y < sorted[lowest].y) lowest = j;
      if (sorted[j].y > sorted[highest].y) highest = j;
    }
    // In x order, so the line runs through the bucket's extremes the way the data does.
    kept.push_back(sorted[std::min(lowest, highest)]);
    if (lowest != highest) kept.push_back(sorted[std::max(lowest, highest)]);
    i = j;
  }
  return kept;
}

std::string render_line_plot(const LinePlot& plot) {
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo;
  double y_lo = x_lo, y_hi = -x_lo;
  for (const PlotSeries& s : plot.series) {
    for (const PlotPoint& p : s.points) {
      if ((plot.x.log && !(p.x > 0)) || (plot.y.log && !(p.y > 0)))
        throw InvalidInput(Diag::flag_value,
                           "plot '" + plot.title + "': a logarithmic axis needs values above 0");
      x_lo = std::min(x_lo, p.x);
      x_hi = std::max(x_hi, p.x);
      y_lo = std::min(y_lo, p.y);
      y_hi = std::max(y_hi, p.y);
    }
  }
  const bool empty = !(x_lo <= x_hi);
  if (empty) {
    x_lo = plot.x.log ? 1 : 0;
    x_hi = plot.x.log ? 10 : 1;
    y_lo = plot.y.log ? 1 : 0;
    y_hi = plot.y.log ? 10 : 1;
  }
  // Fractions and occupancy read best from zero.
  if (!plot.y.log && !plot.y.min) y_lo = std::min(y_lo, 0.0);
  const auto [xa, xb] = axis_range(plot.x, x_lo, x_hi);
  const auto [ya, yb] = axis_range(plot.y, y_lo, y_hi);

  const double legend_height = frame::kLegendRow * static_cast<double>(plot.series.size()) + 24;
  const double height = std::max(frame::kMinHeight, frame::kTop + legend_height + frame::kBottom);
  // The legend takes what its longest label needs; the plotting area the rest.
  std::size_t longest = 0;
  for (const PlotSeries& s : plot.series) longest = std::max(longest, s.label.size());
  const double right = 16 + frame::kLegendSample + frame::kLegendChar * static_cast<double>(longest);
  const double width = std::max(plot.width, frame::kLeft + frame::kMinPlotWidth + right);
  const double plot_w = width - frame::kLeft - right;
  const double plot_h = height - frame::kTop - frame::kBottom;
  const double tx0 = transform(xa, plot.x.log), tx1 = transform(xb, plot.x.log);
  const double ty0 = transform(ya, plot.y.log), ty1 = transform(yb, plot.y.log);
  const auto px = [&](double x) {
    return frame::kLeft + (transform(x, plot.x.log) - tx0) / (tx1 - tx0) * plot_w;
  };
  const auto py = [&](double y) {
    return frame::kTop + plot_h - (transform(y, plot.y.log) - ty0) / (ty1 - ty0) * plot_h;
  };

  std::ostringstream svg;
  svg << "<svg class=\"plot\" id=\"" << escape(plot.id) << "\" width=\"" << coord(width) << "\" height=\""
      << coord(height) << "\" viewBox=\"0 0 " << coord(width) << " " << coord(height)
      << "\" role=\"img\" aria-label=\"" << escape(plot.title) << "\">";
  svg << "<text x=\"" << coord(frame::kLeft + plot_w / 2) << "\" y=\"20\" text-anchor=\"middle\" "
      << "font-size=\"14\" font-weight=\"bold\">" << escape(plot.title) << "</text>";
  // Grid and ticks.
  std::string grid, ticks_path;
  for (double t : axis_ticks(xa, xb, plot.x.log)) {
    const double x = px(t);
    grid += "M" + coord(x) + " " + coord(frame::kTop) + "V" + coord(frame::kTop + plot_h);
    ticks_path += "M" + coord(x) + " " + coord(frame::kTop + plot_h) + "v5";
    svg << "<text x=\"" << coord(x) << "\" y=\"" << coord(frame::kTop + plot_h + 18)
        << "\" text-anchor=\"middle\" font-size=\"11\">" << escape(tick_label(t, plot.x.log, plot.x.percent))
        << "</text>";
  }
  for (double t : axis_ticks(ya, yb, plot.y.log)) {
    const double y = py(t);
    grid += "M" + coord(frame::kLeft) + " " + coord(y) + "H" + coord(frame::kLeft + plot_w);
    ticks_path += "M" + coord(frame::kLeft) + " " + coord(y) + "h-5";
    svg << "<text x=\"" << coord(frame::kLeft - 8) << "\" y=\"" << coord(y + 4)
        << "\" text-anchor=\"end\" font-size=\"11\">" << escape(tick_label(t, plot.y.log, plot.y.percent))
        << "</text>";
  }
  svg << "<path d=\"" << grid << "\" stroke=\"#ddd\" stroke-width=\"1\" fill=\"none\"/>";
  svg << "<path d=\"" << ticks_path << "\" stroke=\"#111\" stroke-width=\"1\" fill=\"none\"/>";
  svg << "<rect x=\"" << coord(frame::kLeft) << "\" y=\"" << coord(frame::kTop) << "\" width=\""
      << coord(plot_w) << "\" height=\"" << coord(plot_h)
      << "\" fill=\"none\" stroke=\"#111\" stroke-width=\"1\"/>";
  // Axis labels.
  svg << "<text x=\"" << coord(frame::kLeft + plot_w / 2) << "\" y=\"" << coord(height - 12)
      << "\" text-anchor=\"middle\" font-size=\"12\">" << escape(plot.x.label) << "</text>";
  const double label_x = 16, label_y = frame::kTop + plot_h / 2;
  svg << "<text x=\"" << coord(label_x) << "\" y=\"" << coord(label_y)
      << "\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 " << coord(label_x) << " "
      << coord(label_y) << ")\">" << escape(plot.y.label) << "</text>";
  if (empty)
    svg << "<text x=\"" << coord(frame::kLeft + plot_w / 2) << "\" y=\"" << coord(frame::kTop + plot_h / 2)
        << "\" text-anchor=\"middle\">no data</text>";

  // Series, then the legend.
  const int buckets = static_cast<int>(plot_w);  // one per pixel column
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const PlotSeries& s = plot.series[i];
    const char* colour = kColours[i % std::size(kColours)];
    const char* dash = kDashes[i % std::size(kDashes)];
    std::vector<PlotPoint> points = thin_points(s.points, buckets, plot.x.log);
    std::stable_sort(points.begin(), points.end(),
                     [](const PlotPoint& a, const PlotPoint& b) { return a.x < b.x; });
    svg << "<g class=\"series\" data-label=\"" << escape(s.label) << "\">";
    if (points.size() >= 2) {
      svg << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\"";
      if (*dash) svg << " stroke-dasharray=\"" << dash << "\"";
      svg << " points=\"";
      for (std::size_t k = 0; k < points.size(); ++k)
        svg << (k ? " " : "") << coord(px(points[k].x)) << "," << coord(py(points[k].y));
      svg << "\"/>";
    }
    if (points.size() <= frame::kMarkersUpTo)
      for (const PlotPoint& p : points)
        svg << marker(static_cast<int>(i % kMarkerKinds), px(p.x), py(p.y), colour);
    svg << "</g>";
  }
  const double legend_x = frame::kLeft + plot_w + 16;
  double legend_y = frame::kTop + 8;
  svg << "<g class=\"legend\">";
  for (std::size_t i = 0; i < plot.series.size(); ++i, legend_y += frame::kLegendRow) {
    const char* colour = kColours[i % std::size(kColours)];
    const char* dash = kDashes[i % std::size(kDashes)];
    svg << "<path d=\"M" << coord(legend_x) << " " << coord(legend_y) << "h30\" stroke=\"" << colour
        << "\" stroke-width=\"2\"" << (*dash ? std::string(" stroke-dasharray=\"") + dash + "\"" : "") << "/>"
        << marker(static_cast<int>(i % kMarkerKinds), legend_x + 15, legend_y, colour) << "<text x=\""
        << coord(legend_x + 38) << "\" y=\"" << coord(legend_y + 4) << "\" font-size=\"12\">"
        << escape(plot.series[i].label) << "</text>";
  }
  svg << "</g></svg>";
  return svg.str();
}

}  // namespace warpdiv::analysis
