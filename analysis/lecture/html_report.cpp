#include "analysis/lecture/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "analysis/lecture/divergence_report.hpp"
#include "analysis/gpu_presets.hpp"
#include "analysis/html.hpp"
#include "analysis/lecture/lecture_source.hpp"
#include "analysis/occupancy_report.hpp"
#include "analysis/lecture/warp_map.hpp"

namespace warpdiv::analysis {

using html::coord;
using html::escape;
using lecture::BlockClass;
using lecture::ClassCounts;
using lecture::Condition;
using sim::Count;

namespace {

namespace layout {
constexpr std::int64_t kToScaleBlocks = 40;  // up to this many blocks an axis is drawn to scale
constexpr double kGridSpan = 360;            // px of a to-scale grid's longer side
constexpr double kMaxCell = 44;              // px of one block at most
constexpr double kBandSpan = 300;            // px standing for all but the last block (not to scale)
constexpr double kLastSpan = 64;             // px of the last block (not to scale)
constexpr double kFont = 11;                 // px, labels of the maps
constexpr double kPageFont = 14;             // px, other figure text (the page's font size)
constexpr double kCharWidth = 0.62;          // of the font size, DejaVu Sans' average advance
constexpr double kLayoutSpan = 320;          // px of the thread-layout figure's side
constexpr double kMapHeight = 256;           // px of a warp x phase map with many warps
constexpr double kMaxRow = 16;               // px of one warp's row at most
constexpr double kMinRow = 0.5;              // px of one warp's row at least (1024 warps of 1)
}  // namespace layout

// Styles of this page only (the map cells use classes to keep large maps short).
constexpr const char* kReportStyle =
    "<style>#class-legend{max-width:440px}#fig-grid figcaption,#fig-layout figcaption{max-width:440px}"
    "figure.map figcaption{max-width:250px}"
    // White labels on class colours and hatching, with a dark halo so they read on both.
    "svg text.on-colour{fill:#fff;stroke:#000;stroke-opacity:.6;stroke-width:3px;"
    "paint-order:stroke;stroke-linejoin:round}"
    ".row-note{text-align:left;color:#444;white-space:normal}"
    ".t{fill:#56B4E9}.f{fill:#E6E6E6}.d{fill:#D55E00}"
    ".sep{stroke:#fff;stroke-width:1}.grid-line{stroke:#fff;stroke-width:1.5}"
    ".p-edge{fill:none;stroke:#111;stroke-width:2;stroke-dasharray:6 3}"
    ".outside{fill:url(#outside-hatch)}</style>\n";

std::string count_text(Count value) { return html::group_digits(sim::to_decimal(value)); }

std::string blocks_text(Count blocks) { return count_text(blocks) + (blocks == 1 ? " block" : " blocks"); }

std::string ratio_text(Count part, Count whole) {
  return count_text(part) + "/" + count_text(whole) + " (" + percent(part, whole) + ")";
}

double text_width(const std::string& text, double font = layout::kFont) {
  return static_cast<double>(text.size()) * font * layout::kCharWidth;
}

const char* class_colour(BlockClass k) {
  switch (k) {
    case BlockClass::interior:
      return html::colour::kClass1;
    case BlockClass::right_edge:
      return html::colour::kClass2;
    case BlockClass::bottom_edge:
      return html::colour::kClass3;
    case BlockClass::corner:
      return html::colour::kClass4;
    case BlockClass::all:
      break;
  }
  return "#999999";
}

const char* outcome_class(lecture::WarpOutcome outcome) {
  switch (outcome) {
    case lecture::WarpOutcome::uniform_true:
      return "t";
    case lecture::WarpOutcome::uniform_false:
      return "f";
    case lecture::WarpOutcome::divergent:
      return "d";
  }
  return "f";
}

std::string text_element(double x, double y, const std::string& text, const char* anchor = "start",
                         const std::string& extra = "") {
  return "<text x=\"" + coord(x) + "\" y=\"" + coord(y) + "\" text-anchor=\"" + anchor + "\"" + extra + ">" +
         escape(text) + "</text>";
}

std::string rect_element(double x, double y, double w, double h, const std::string& attributes) {
  return "<rect x=\"" + coord(x) + "\" y=\"" + coord(y) + "\" width=\"" + coord(w) + "\" height=\"" +
         coord(h) + "\" " + attributes + "/>";
}

// One axis of the block grid: blocks 0 .. n-2 fill a band, the last block follows it. To scale
// when there are few blocks; otherwise the band is compressed so the edge block stays visible.
struct GridAxis {
  std::int64_t blocks = 1;
  double band = 0;  // px of blocks 0 .. n-2
  double last = 0;  // px of block n-1
  bool to_scale = true;
  double cell() const { return last; }
  double span() const { return band + last; }
};

GridAxis grid_axis(std::int64_t blocks, double to_scale_cell) {
  GridAxis axis;
  axis.blocks = blocks;
  if (blocks <= layout::kToScaleBlocks) {
    axis.band = static_cast<double>(blocks - 1) * to_scale_cell;
    axis.last = to_scale_cell;
  } else {
    axis.to_scale = false;
    axis.band = layout::kBandSpan;
    axis.last = layout::kLastSpan;
  }
  return axis;
}

// Lines between blocks: every boundary on a to-scale axis, only the band's end otherwise.
std::string grid_lines(const GridAxis& axis, bool vertical, double length) {
  std::string path;
  const auto line = [&](double at) {
    path += vertical ? "M" + coord(at) + " 0V" + coord(length) : "M0 " + coord(at) + "H" + coord(length);
  };
  if (axis.to_scale) {
    for (std::int64_t i = 1; i < axis.blocks; ++i) line(static_cast<double>(i) * axis.cell());
  } else {
    line(axis.band);
  }
  return path;
}

// A zig-zag across a compressed band, the usual mark for "not to scale".
std::string break_mark(const GridAxis& axis, bool vertical, double length) {
  if (axis.to_scale) return "";
  const double at = axis.band * 0.3;  // off the centre, where the class label sits
  std::string d;
  const int steps = std::max(2, static_cast<int>(length / 10));
  for (int i = 0; i <= steps; ++i) {
    const double along = length * i / steps;
    const double across = at + (i % 2 == 0 ? -4 : 4);
    d += (i == 0 ? "M" : "L") +
         (vertical ? coord(across) + " " + coord(along) : coord(along) + " " + coord(across));
  }
  return "<path d=\"" + d +
         "\" fill=\"none\" stroke=\"#fff\" stroke-width=\"4\"/>"
         "<path d=\"" +
         d + "\" fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>";
}

std::string class_label(BlockClass k, double x, double y, double w, double h) {
  const std::string label = lecture::name(k);
  const double width = text_width(label, layout::kPageFont);
  if (w >= width + 6 && h >= layout::kFont + 4)
    return text_element(x + w / 2, y + h / 2 + 4, label, "middle", " class=\"on-colour\"");
  return "";  // too small: the legend below the figure names it
}

std::string block_grid_figure(const lecture::DivergenceResult& result, const lecture::Geometry& g) {
  const lecture::LaunchConfig& c = result.config;
  const double cell =
      std::min(layout::kMaxCell, layout::kGridSpan / static_cast<double>(std::max(g.grid_x, g.grid_y)));
  const GridAxis x =
      grid_axis(g.grid_x, std::min(layout::kMaxCell, layout::kGridSpan / static_cast<double>(g.grid_x)));
  const GridAxis y =
      grid_axis(g.grid_y, std::min(layout::kMaxCell, layout::kGridSpan / static_cast<double>(g.grid_y)));
  // Both axes to scale: one cell size, so blocks are square.
  GridAxis gx = x, gy = y;
  if (x.to_scale && y.to_scale) {
    gx = grid_axis(g.grid_x, cell);
    gy = grid_axis(g.grid_y, cell);
  }
  // Room on the left for the last block-row's index and the rotated axis title.
  const double left =
      std::max(58.0, text_width(html::group_digits(std::to_string(g.grid_y - 1)), layout::kPageFont) + 40);
  const double top = 46, right = 16, bottom = 16;
  const double width = left + gx.span() + right, height = top + gy.span() + bottom;

  std::ostringstream svg;
  svg << "<svg id=\"block-grid\" width=\"" << coord(width) << "\" height=\"" << coord(height)
      << "\" viewBox=\"0 0 " << coord(width) << " " << coord(height)
      << "\" role=\"img\" aria-label=\"grid of blocks by class\">";
  // Threads outside P: white hatching over the class colour, so the class still shows.
  svg << "<defs><pattern id=\"outside-hatch\" width=\"6\" height=\"6\" "
         "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
         "<rect width=\"3\" height=\"6\" fill=\"#fff\" fill-opacity=\"0.6\"/></pattern></defs>";
  svg << "<g transform=\"translate(" << coord(left) << " " << coord(top) << ")\">";
  struct Region {
    BlockClass k;
    double x, y, w, h;
    bool exists;
  };
  const Region regions[] = {
      {BlockClass::interior, 0, 0, gx.band, gy.band, g.grid_x >= 2 && g.grid_y >= 2},
      {BlockClass::right_edge, gx.band, 0, gx.last, gy.band, g.grid_y >= 2},
      {BlockClass::bottom_edge, 0, gy.band, gx.band, gy.last, g.grid_x >= 2},
      {BlockClass::corner, gx.band, gy.band, gx.last, gy.last, true},
  };
  for (const Region& r : regions) {
    if (!r.exists) continue;
    svg << rect_element(
        r.x, r.y, r.w, r.h,
        "fill=\"" + std::string(class_colour(r.k)) + "\" data-class=\"" + lecture::name(r.k) + "\"");
  }
  svg << "<path class=\"grid-line\" d=\"" << grid_lines(gx, true, gy.span())
      << grid_lines(gy, false, gx.span()) << "\"/>";
  svg << break_mark(gx, true, gy.span()) << break_mark(gy, false, gx.span());
  // The edge of P: the last block holds (L - (gx-1)*T) of its T columns, drawn to scale inside it.
  const double p_width = gx.band + gx.last * static_cast<double>(c.cols - (g.grid_x - 1) * c.tile) / c.tile;
  const double p_height = gy.band + gy.last * static_cast<double>(c.rows - (g.grid_y - 1) * c.tile) / c.tile;
  std::string outside;
  if (p_width < gx.span())
    outside +=
        "M" + coord(p_width) + " 0H" + coord(gx.span()) + "V" + coord(gy.span()) + "H" + coord(p_width) + "Z";
  if (p_height < gy.span())
    outside += "M0 " + coord(p_height) + "H" + coord(p_width) + "V" + coord(gy.span()) + "H0Z";
  if (!outside.empty()) svg << "<path class=\"outside\" d=\"" << outside << "\"/>";
  svg << rect_element(0, 0, p_width, p_height, "class=\"p-edge\"");
  for (const Region& r : regions)
    if (r.exists) svg << class_label(r.k, r.x, r.y, r.w, r.h);
  // Block indices along the top and the left.
  const auto index_label = [](std::int64_t i) { return html::group_digits(std::to_string(i)); };
  // Block 0 is labelled at its centre when drawn to scale, at the band's start otherwise; with one
  // block the last block's label is block 0's.
  if (g.grid_x >= 2)
    svg << (gx.to_scale ? text_element(gx.cell() / 2, -6, "0", "middle") : text_element(0, -6, "0", "start"));
  svg << text_element(gx.band + gx.last / 2, -6, index_label(g.grid_x - 1), "middle");
  if (!gx.to_scale) svg << text_element(gx.band / 2, -6, "…", "middle");
  svg << text_element(gx.span() / 2, -24,
                      "bx: " + html::group_digits(std::to_string(g.grid_x)) +
                          " block-columns (L = " + html::group_digits(std::to_string(c.cols)) + ")",
                      "middle");
  if (g.grid_y >= 2) svg << text_element(-6, gy.to_scale ? gy.cell() / 2 + 4 : 10, "0", "end");
  svg << text_element(-6, gy.band + gy.last / 2 + 4, index_label(g.grid_y - 1), "end");
  if (!gy.to_scale) svg << text_element(-6, gy.band / 2 + 4, "⋮", "end");
  {
    const double cx = -left + 14, cy = gy.span() / 2;
    svg << text_element(cx, cy,
                        "by: " + html::group_digits(std::to_string(g.grid_y)) +
                            " block-rows (J = " + html::group_digits(std::to_string(c.rows)) + ")",
                        "middle", " transform=\"rotate(-90 " + coord(cx) + " " + coord(cy) + ")\"");
  }
  svg << "</g></svg>";

  std::ostringstream caption;
  caption << "The grid of " << html::group_digits(std::to_string(g.grid_x)) << " × "
          << html::group_digits(std::to_string(g.grid_y)) << " = "
          << html::group_digits(std::to_string(g.blocks())) << " blocks of " << c.tile << " × " << c.tile
          << " threads, coloured by class. Dashed line: the edge of P ("
          << html::group_digits(std::to_string(c.rows)) << " × " << html::group_digits(std::to_string(c.cols))
          << "); threads in the hatched part lie outside P.";
  if (!gx.to_scale || !gy.to_scale)
    caption << " Not to scale: the band before the zig-zag stands for all blocks but the last "
               "of each row or column; the last block is drawn to scale.";

  std::ostringstream out;
  out << "<figure id=\"fig-grid\">" << svg.str() << "<figcaption>" << escape(caption.str())
      << "</figcaption></figure>\n";
  out << "<div class=\"legend\" id=\"class-legend\">";
  for (BlockClass k : lecture::kDisjointBlockClasses) {
    out << "<span><span class=\"swatch\" style=\"background:" << class_colour(k) << "\"></span>"
        << lecture::name(k) << ": " << blocks_text(result.at(Condition::load_M, k).blocks) << "</span>";
  }
  out << "</div>\n";
  return out.str();
}

// "ty 2–3" style ranges.
std::string range_text(int first, int last) {
  return first == last ? std::to_string(first) : std::to_string(first) + "–" + std::to_string(last);
}

std::string warp_rows_text(const lecture::WarpLayout& w) { return "ty " + range_text(w.first_ty, w.last_ty); }

std::string warp_columns_text(const lecture::WarpLayout& w, int tile) {
  if (w.first_ty == w.last_ty) return "tx " + range_text(w.first_tx, w.last_tx);
  if (w.first_tx == 0 && w.last_tx == tile - 1) return "tx " + range_text(0, tile - 1);
  return "tx " + std::to_string(w.first_tx) + "–" + std::to_string(tile - 1) + " of ty " +
         std::to_string(w.first_ty) + " … tx 0–" + std::to_string(w.last_tx) + " of ty " +
         std::to_string(w.last_ty);
}

std::string thread_layout_figure(const lecture::Geometry& g, const std::vector<lecture::WarpLayout>& warps) {
  const int T = g.config.tile;
  const double cell = std::clamp(std::floor(layout::kLayoutSpan / T), 6.0, 24.0);
  const double left = 40, top = 34;
  const double side = cell * T;
  std::ostringstream svg;
  svg << "<svg id=\"thread-layout\" width=\"" << coord(left + side + 8) << "\" height=\""
      << coord(top + side + 8) << "\" role=\"img\" aria-label=\"threads of a block by warp\">";
  svg << "<g transform=\"translate(" << coord(left) << " " << coord(top) << ")\">";
  for (const lecture::WarpLayout& w : warps) {
    // The warp's threads split into row segments; full rows merge into one rectangle.
    const int first = w.first_ty * T + w.first_tx;
    const int last = w.last_ty * T + w.last_tx;
    struct Piece {
      int tx0, ty0, tx1, ty1;
    };
    std::vector<Piece> pieces;
    for (int a = first; a <= last;) {
      const int row = a / T;
      const int end = std::min(last, row * T + T - 1);
      const Piece piece{a % T, row, end % T, row};
      if (!pieces.empty() && pieces.back().tx0 == 0 && pieces.back().tx1 == T - 1 && piece.tx0 == 0 &&
          piece.tx1 == T - 1) {
        pieces.back().ty1 = row;
      } else {
        pieces.push_back(piece);
      }
      a = end + 1;
    }
    const char* fill = w.warp % 2 == 0 ? "#B9D7EE" : "#6FA8D6";
    const Piece* largest = &pieces.front();
    for (const Piece& p : pieces) {
      const double pw = (p.tx1 - p.tx0 + 1) * cell, ph = (p.ty1 - p.ty0 + 1) * cell;
      svg << rect_element(p.tx0 * cell, p.ty0 * cell, pw, ph,
                          std::string("fill=\"") + fill + "\" stroke=\"#fff\" stroke-width=\"" +
                              (cell >= 8 ? "1" : "0.5") + "\"");
      if (pw * ph > (largest->tx1 - largest->tx0 + 1) * (largest->ty1 - largest->ty0 + 1) * cell * cell)
        largest = &p;
    }
    const std::string label = "w" + std::to_string(w.warp);
    const double lw = (largest->tx1 - largest->tx0 + 1) * cell;
    const double lh = (largest->ty1 - largest->ty0 + 1) * cell;
    const double font = std::min(13.0, lh - 1);
    if (font >= 8 && lw >= text_width(label, font) + 4)
      svg << text_element(largest->tx0 * cell + lw / 2, largest->ty0 * cell + lh / 2 + font / 3, label,
                          "middle", " font-size=\"" + coord(font) + "\"");
  }
  svg << text_element(side / 2, -20, "tx →", "middle");
  svg << text_element(cell / 2, -6, "0", "middle")
      << text_element(side - cell / 2, -6, std::to_string(T - 1), "middle");
  svg << text_element(-6, cell / 2 + 4, "0", "end")
      << text_element(-6, side - cell / 2 + 4, std::to_string(T - 1), "end");
  svg << text_element(-6, -20, "ty ↓", "end");
  svg << "</g></svg>";

  std::ostringstream out;
  out << "<figure id=\"fig-layout\">" << svg.str() << "<figcaption>"
      << escape("The " + std::to_string(T * T) + " threads of a block in the order ty·T + tx, " +
                "in which the hardware forms warps: warp w holds lanes w·S … w·S + S − 1 (S = " +
                std::to_string(g.config.warp_size) + ").")
      << "</figcaption></figure>\n";
  return out.str();
}

std::string warp_layout_table(const lecture::Geometry& g, const std::vector<lecture::WarpLayout>& warps) {
  std::ostringstream out;
  const bool long_table = warps.size() > 32;
  if (long_table) out << "<details><summary>Threads of all " << warps.size() << " warps</summary>";
  out << "<div class=\"table-box\"><table id=\"warp-layout\"><thead><tr><th>warp</th>"
         "<th>lanes</th><th>rows</th><th>columns</th><th>first thread (tx, ty)</th>"
         "<th>last thread (tx, ty)</th></tr></thead><tbody>";
  for (const lecture::WarpLayout& w : warps) {
    out << "<tr><td>w" << w.warp << "</td><td>" << w.lanes << "</td><td>" << escape(warp_rows_text(w))
        << "</td><td>" << escape(warp_columns_text(w, g.config.tile)) << "</td><td>(" << w.first_tx << ", "
        << w.first_ty << ")</td><td>(" << w.last_tx << ", " << w.last_ty << ")</td></tr>";
  }
  out << "</tbody></table></div>";
  if (long_table) out << "</details>";
  out << '\n';
  return out.str();
}

std::vector<std::string> column_label(const lecture::PhaseColumn& column, bool summary) {
  if (column.once_per_warp) return {"after", "loop"};
  if (!summary) return {"p" + std::to_string(column.first)};
  if (column.first == column.last) return {"last p", html::group_digits(std::to_string(column.first))};
  return {"p 0 –", html::group_digits(std::to_string(column.last))};
}

// Per block of the class: divergent warp-phases and all warp-phases the map stands for.
std::pair<Count, Count> map_totals(const lecture::WarpPhaseMap& map) {
  Count divergent = 0, all = 0;
  for (int w = 0; w < map.warps; ++w) {
    for (std::size_t i = 0; i < map.columns.size(); ++i) {
      const auto phases = static_cast<Count>(map.columns[i].phases());
      all += phases;
      if (map.at(w, i) == lecture::WarpOutcome::divergent) divergent += phases;
    }
  }
  return {divergent, all};
}

std::string warp_phase_map_figure(const lecture::WarpPhaseMap& map,
                                  const std::vector<lecture::WarpLayout>& warps, bool summary, bool with_rows,
                                  const ClassCounts& counts) {
  const double row = std::clamp(layout::kMapHeight / map.warps, layout::kMinRow, layout::kMaxRow);
  const double column_width = map.columns.front().once_per_warp ? 40 : summary ? 66 : 20;
  // Row labels: every k-th warp so that labels never overlap.
  const int every = std::max(1, static_cast<int>(std::ceil((layout::kFont + 1) / row)));
  double label_width = 0;
  for (int w = 0; w < map.warps; w += every) {
    std::string label = "w" + std::to_string(w);
    if (with_rows) label += " " + warp_rows_text(warps[static_cast<std::size_t>(w)]);
    label_width = std::max(label_width, text_width(label));
  }
  const double left = label_width + 8;
  const double top = summary || map.columns.front().once_per_warp ? 30 : 18;
  const double cells_width = column_width * static_cast<double>(map.columns.size());
  const double cells_height = row * map.warps;
  const double width = left + cells_width + 4, height = top + cells_height + 4;

  const std::string id = "map-" + lecture::name(map.block.block_class) + "-" + lecture::name(map.condition);
  std::ostringstream svg;
  svg << "<svg class=\"map\" width=\"" << coord(width) << "\" height=\"" << coord(height)
      << "\" role=\"img\" aria-label=\"" << escape(lecture::name(map.condition) + " warp x phase map")
      << "\"><g transform=\"translate(" << coord(left) << " " << coord(top) << ")\">";
  // Runs of warps with the same outcome in a column are one rectangle.
  for (std::size_t i = 0; i < map.columns.size(); ++i) {
    int start = 0;
    for (int w = 1; w <= map.warps; ++w) {
      if (w < map.warps && map.at(w, i) == map.at(start, i)) continue;
      svg << rect_element(column_width * static_cast<double>(i), row * start, column_width - 2,
                          row * (w - start),
                          std::string("class=\"") + outcome_class(map.at(start, i)) + "\"");
      start = w;
    }
  }
  if (row >= 4 && map.warps > 1) {
    svg << "<path class=\"sep\" d=\"";
    for (int w = 1; w < map.warps; ++w) svg << "M0 " << coord(row * w) << "H" << coord(cells_width);
    svg << "\"/>";
  }
  for (std::size_t i = 0; i < map.columns.size(); ++i) {
    const auto lines = column_label(map.columns[i], summary);
    const double cx = column_width * static_cast<double>(i) + (column_width - 2) / 2;
    for (std::size_t l = 0; l < lines.size(); ++l)
      svg << text_element(cx, -5 - 12.0 * static_cast<double>(lines.size() - 1 - l), lines[l], "middle",
                          " font-size=\"10\"");
  }
  for (int w = 0; w < map.warps; w += every) {
    std::string label = "w" + std::to_string(w);
    if (with_rows) label += " " + warp_rows_text(warps[static_cast<std::size_t>(w)]);
    svg << text_element(-5, row * w + std::min(row * every, 14.0) / 2 + 4, label, "end", " font-size=\"11\"");
  }
  svg << "</g></svg>";

  const auto [divergent, all] = map_totals(map);
  std::ostringstream caption;
  caption << "<b>" << lecture::name(map.condition) << "</b>: " << count_text(divergent) << " of "
          << count_text(all) << " warp-phases diverge in each such block; × " << blocks_text(counts.blocks)
          << " = " << count_text(counts.divergent_warp_phases);
  std::ostringstream out;
  out << "<figure class=\"map\" id=\"" << id << "\">" << svg.str() << "<figcaption>" << caption.str()
      << "</figcaption></figure>";
  return out.str();
}

std::string outcome_legend() {
  std::ostringstream out;
  out << "<div class=\"legend\" id=\"outcome-legend\">"
      << "<span><span class=\"swatch\" style=\"background:" << html::colour::kUniformTrue
      << "\"></span>uniform true (every lane passes)</span>"
      << "<span><span class=\"swatch\" style=\"background:" << html::colour::kUniformFalse
      << "\"></span>uniform false (no lane passes)</span>"
      << "<span><span class=\"swatch\" style=\"background:" << html::colour::kDivergent
      << "\"></span>divergent (the lanes disagree)</span></div>\n";
  return out.str();
}

std::string maps_section(const lecture::DivergenceResult& result, const lecture::Geometry& g,
                         const std::vector<lecture::WarpLayout>& warps,
                         const DivergenceHtmlOptions& options) {
  const auto columns = lecture::phase_columns(g, options.max_phase_columns);
  const std::vector<lecture::WarpPhaseMap> maps = lecture_warp_maps(result.config, columns);
  const bool summary = static_cast<std::int64_t>(columns.size()) < g.phases;
  std::ostringstream out;
  out << "<section id=\"maps\"><h2>Warps × phases, by block class</h2>\n";
  out << "<p>Each map shows one block of the class (every block of a class behaves the same): a "
         "row per warp, a column per phase of the tile loop (the store runs once, after it).";
  if (summary)
    out << " With " << count_text(static_cast<Count>(g.phases))
        << " phases, the first column stands for every phase but the last: in all of them "
           "p·T + t &lt; K holds for every t &lt; T, so only the last phase can differ.";
  out << "</p>\n" << outcome_legend();
  for (const lecture::RepresentativeBlock& block : lecture::representative_blocks(g)) {
    const std::string class_name = lecture::name(block.block_class);
    out << "<div class=\"class-maps\" id=\"maps-" << class_name << "\"><h3>"
        << "<span class=\"swatch\" style=\"display:inline-block;width:12px;height:12px;"
           "margin-right:6px;background:"
        << class_colour(block.block_class) << "\"></span>" << class_name << ": "
        << blocks_text(result.at(Condition::load_M, block.block_class).blocks) << ", each like block (bx "
        << html::group_digits(std::to_string(block.bx)) << ", by "
        << html::group_digits(std::to_string(block.by)) << ")</h3>\n"
        << "<div class=\"figure-row\">";
    bool first = true;
    for (const lecture::WarpPhaseMap& map : maps) {
      if (map.block.block_class != block.block_class) continue;
      out << warp_phase_map_figure(map, warps, summary, first, result.at(map.condition, block.block_class));
      first = false;
    }
    out << "</div></div>\n";
  }
  out << "</section>\n";
  return out.str();
}

std::string condition_table(const lecture::DivergenceResult& result, Condition c) {
  std::ostringstream out;
  out << "<div><h3>" << lecture::name(c) << ": <code>" << escape(condition_expression(c))
      << "</code></h3><div class=\"table-box\"><table id=\"table-" << lecture::name(c)
      << "\"><thead><tr><th>class</th><th>blocks</th><th>warps</th><th>warp-phases</th>"
         "<th>divergent</th><th>fraction</th></tr></thead><tbody>";
  for (BlockClass k : lecture::kBlockClasses) {
    const ClassCounts& cell = result.at(c, k);
    out << "<tr" << (k == BlockClass::all ? " class=\"all\"" : "") << "><td>" << lecture::name(k)
        << "</td><td>" << count_text(cell.blocks) << "</td><td>" << count_text(cell.warps) << "</td><td>"
        << count_text(cell.warp_phases) << "</td><td>" << count_text(cell.divergent_warp_phases)
        << "</td><td>" << percent(cell.divergent_warp_phases, cell.warp_phases) << "</td></tr>";
  }
  out << "</tbody></table></div>";
  if (c == Condition::load_M || c == Condition::load_N) {
    const LectureTypes view = lecture_types(result, c);
    out << "<p class=\"lecture-view\">Lecture view: ";
    for (const LectureType* type : {&view.type1, &view.type2}) {
      out << (type == &view.type2 ? "<br>" : "") << escape(type->label) << ": "
          << count_text(type->counts.blocks) << " blocks, "
          << ratio_text(type->counts.divergent_warp_phases, type->counts.warp_phases)
          << " warp-phases diverge.";
    }
    out << "</p>";
  }
  out << "</div>\n";
  return out.str();
}

std::string summary_section(const lecture::DivergenceResult& result) {
  std::ostringstream out;
  out << "<section id=\"summary\"><h2>Summary</h2>\n<div class=\"tables\">\n";
  for (Condition c : lecture::kConditions) out << condition_table(result, c);
  out << "</div>\n<h3>Bound on the performance impact</h3><p>Divergent / all warp-phases of each "
         "check:</p><div class=\"table-box\"><table id=\"bound\"><tbody>";
  for (Condition c : lecture::kConditions) {
    const ClassCounts& all = result.at(c, BlockClass::all);
    out << "<tr><td>" << lecture::name(c) << "</td><td>"
        << ratio_text(all.divergent_warp_phases, all.warp_phases) << "</td></tr>";
  }
  out << "</tbody></table></div>\n";
  if (is_lecture_default(result.config)) {
    const ClassCounts& all = result.at(Condition::load_M, BlockClass::all);
    out << "<p class=\"note\" id=\"lecture-slip\">The lecture's summary “less than 12% "
           "(350/2,944)” has an arithmetic slip: 2,352 + 392 = 2,744, so the bound is "
        << ratio_text(all.divergent_warp_phases, all.warp_phases) << ".</p>\n";
  }
  out << "</section>\n";
  return out.str();
}

std::string occupancy_section(const HtmlSection& section) {
  std::ostringstream out;
  out << "<section id=\"occupancy\"><h2>" << escape(section.heading) << "</h2>\n"
      << "<div class=\"table-box\"><table id=\"occupancy-table\"><tbody>";
  for (const HtmlRow& row : section.rows)
    out << "<tr><td>" << escape(row.label) << "</td><td>" << escape(row.value)
        << "</td><td class=\"row-note\">" << escape(row.note) << "</td></tr>";
  out << "</tbody></table></div>\n";
  for (const std::string& note : section.notes) out << "<p>" << escape(note) << "</p>\n";
  out << "</section>\n";
  return out.str();
}

std::string barrier_section(const lecture::DivergenceResult& result, const lecture::Geometry& g) {
  std::ostringstream out;
  out << "<section id=\"barrier\"><h2>Barrier note</h2>\n<p class=\"note"
      << (result.barrier_hazard_blocks > 0 ? " hazard" : "") << "\">"
      << count_text(result.barrier_hazard_blocks) << " of " << count_text(static_cast<Count>(g.blocks()))
      << " blocks have threads outside P (Row ≥ J or Col ≥ L). ";
  if (result.barrier_hazard_blocks == 0) {
    out << "Every thread passes the compute guard, so a <code>__syncthreads()</code> inside it is "
           "safe here.";
  } else {
    out << "The lecture's guarded inner product puts <code>__syncthreads()</code> inside "
           "<code>if (Row &lt; J &amp;&amp; Col &lt; L)</code>: in those blocks only part of the "
           "block reaches the barrier, which is undefined behaviour (a hang or wrong results). "
           "Keep every <code>__syncthreads()</code> outside the guards, as warpdiv's own kernels "
           "do.";
  }
  out << "</p>\n</section>\n";
  return out.str();
}

}  // namespace

HtmlSection occupancy_html_section(const GpuSpec& gpu, const LaunchResources& launch,
                                   const OccupancyResult& r) {
  const auto str = [](std::int64_t v) { return std::to_string(v); };
  HtmlSection section;
  section.heading =
      "Occupancy on " + gpu.name + " (" + (gpu.description.empty() ? "" : gpu.description + ", ") + "cc " +
      compute_capability_text(gpu) + (gpu.sm_count > 0 ? ", " + str(gpu.sm_count) + " SMs" : "") + ")";
  section.rows = {
      {"Block size", str(launch.threads_per_block),
       "threads = " + str(r.warps_per_block) + " warps of " + str(gpu.warp_size)},
      {"Registers per thread", str(launch.registers_per_thread),
       str(r.registers_per_warp) + " per warp after rounding, " + str(r.registers_per_block) + " per block"},
      {"Static shared memory per block", str(launch.static_shared_bytes), "bytes: two T × T float tiles"},
      {"Shared memory allocated per block", str(r.shared_bytes_per_block),
       "bytes, with the driver's " + str(gpu.reserved_shared_memory_per_block) + " reserved, in units of " +
           str(gpu.shared_memory_allocation_unit)},
      {"Shared memory configuration", str(r.shared_memory_config), "bytes per SM"},
      {"Block limit SM", limit_text(r.limit_blocks), "resident blocks per SM"},
      {"Block limit registers", limit_text(r.limit_registers), ""},
      {"Block limit shared memory", limit_text(r.limit_shared_mem), ""},
      {"Block limit warps", limit_text(r.limit_warps),
       str(gpu.max_warps_per_sm) + " warps per SM / " + str(r.warps_per_block) + " per block"},
  };
  if (gpu.barriers_per_sm > 0)
    section.rows.push_back({"Block limit barriers", limit_text(r.limit_barriers),
                            str(gpu.barriers_per_sm) + " barriers per SM"});
  section.rows.push_back({"Theoretical active blocks per SM", str(r.active_blocks), ""});
  section.rows.push_back(
      {"Theoretical active warps per SM", str(r.active_warps), "of " + str(gpu.max_warps_per_sm)});
  section.rows.push_back({"Theoretical occupancy", occupancy_text(r) + "%", ""});
  section.rows.push_back({"Limiter", limiter_text(r, ", "), ""});
  if (!r.can_run()) section.notes.push_back("Cannot run: " + r.reason);
  return section;
}

std::string render_divergence_html(const lecture::DivergenceResult& result,
                                   const DivergenceHtmlOptions& options) {
  const lecture::Geometry g(result.config);
  const auto warps = lecture::warp_layouts(g);
  std::ostringstream out;
  out << html::page_start("warpdiv: " + lecture::describe(result.config)) << kReportStyle;
  out << "<header><h1>Warp divergence of the tiled matrix multiply</h1>\n<p class=\"config\">"
      << escape(lecture::describe(result.config)) << "<br>grid "
      << html::group_digits(std::to_string(g.grid_x)) << " × " << html::group_digits(std::to_string(g.grid_y))
      << " blocks (" << html::group_digits(std::to_string(g.blocks())) << "), " << g.threads_per_block
      << " threads = " << g.warps_per_block << " warps per block";
  if (g.lanes_in_last_warp != result.config.warp_size)
    out << " (last warp partial: " << g.lanes_in_last_warp << " of " << result.config.warp_size << " lanes)";
  out << ", " << html::group_digits(std::to_string(g.phases)) << " phases</p>\n<p id=\"headline\">";
  bool first = true;
  for (Condition c : lecture::kConditions) {
    const ClassCounts& all = result.at(c, BlockClass::all);
    out << (first ? "" : " · ") << "<b>" << lecture::name(c) << "</b> "
        << ratio_text(all.divergent_warp_phases, all.warp_phases);
    first = false;
  }
  out << " warp-phases diverge.</p></header>\n";

  out << "<section id=\"grid\"><h2>Blocks by class</h2>\n<div class=\"figure-row\">"
      << "<div>" << block_grid_figure(result, g) << "</div>"
      << "<div>" << thread_layout_figure(g, warps) << "</div></div>\n</section>\n";
  out << maps_section(result, g, warps, options);
  out << "<section id=\"warps\"><h2>Threads of each warp</h2>\n"
      << warp_layout_table(g, warps) << "</section>\n";
  out << summary_section(result);
  if (options.occupancy) out << occupancy_section(*options.occupancy);
  out << barrier_section(result, g);
  out << html::page_end();
  return out.str();
}

}  // namespace warpdiv::analysis
