// Line plots as inline SVG for the HTML reports: labelled axes with units, linear or logarithmic,
// a legend, and series told apart by colour, dash pattern and marker so that a grey-scale print
// still separates them. The size of the SVG is bounded: long series are thinned to the points
// that matter at the plot's resolution (each pixel column's lowest and highest).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace warpdiv::analysis {

struct PlotPoint {
  double x = 0;
  double y = 0;
};

struct PlotSeries {
  std::string label;
  std::vector<PlotPoint> points;  // drawn in x order
};

struct PlotAxis {
  std::string label;               // with its unit: "matrix size J = K = L (elements)"
  bool log = false;                // base-10 logarithmic (all values must be > 0)
  bool percent = false;            // tick labels as "12.5%"
  std::optional<double> min, max;  // fixed range; otherwise from the data
};

struct LinePlot {
  std::string id;  // the <svg> element's id
  std::string title;
  PlotAxis x, y;
  std::vector<PlotSeries> series;
  double width = 700;  // px of the whole figure, legend included
};

/// Ticks of an axis: "nice" steps (1, 2, 5 x 10^k) on a linear axis, decades (with 2 and 5 when
/// there are few) on a logarithmic one; all within [lo, hi].
std::vector<double> axis_ticks(double lo, double hi, bool log);

/// "0", "2.5", "1,000", "10⁶" (powers of ten from 10^4 on a log axis), "12.5%".
std::string tick_label(double value, bool log, bool percent);

/// At most two points (the lowest and the highest y) per bucket of x, `buckets` equal buckets
/// over the series' x range (in log space for a log axis); every point when there are few.
std::vector<PlotPoint> thin_points(const std::vector<PlotPoint>& points, int buckets, bool log_x);

/// The plot as one <svg> element. Throws InvalidInput for a log axis with a value <= 0.
std::string render_line_plot(const LinePlot& plot);

}  // namespace warpdiv::analysis
