#include "analysis/source_html.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <tuple>

#include "analysis/html.hpp"
#include "analysis/line_columns.hpp"
#include "analysis/memory_report.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
#include "sim/session.hpp"

namespace warpdiv::analysis {

namespace ir = sim::ir;
using html::coord;
using html::escape;

namespace {

constexpr double kCell = 8;                // px per cell of a warp x iteration map
constexpr double kClassCell = 24;          // px per column of a warp x iteration-class map
constexpr double kGridCell = 26;           // px per segment of the class grid
constexpr const char* kMixed = "#9AC8E6";  // uniform in each instance, not in all of them
// A class's colour: the report palette, then greys.
constexpr const char* kClassColours[] = {html::colour::kClass1,
                                         html::colour::kClass2,
                                         html::colour::kClass3,
                                         html::colour::kClass4,
                                         "#F0E442",
                                         "#56B4E9",
                                         "#999999",
                                         "#000000"};
// A class number written on each of those is white on the blue and the black (else the page's).
constexpr bool kWhiteClassNumber[] = {false, false, false, true, false, false, false, true};
static_assert(std::size(kWhiteClassNumber) == std::size(kClassColours));

const char* cell_colour(WarpCell c) {
  switch (c) {
    case WarpCell::AllTrue:
      return html::colour::kUniformTrue;
    case WarpCell::AllFalse:
      return html::colour::kUniformFalse;
    case WarpCell::Divergent:
      return html::colour::kDivergent;
    case WarpCell::Mixed:
      return kMixed;
    case WarpCell::NotReached:
      break;
  }
  return "#FFFFFF";
}

WarpCell cell_of(const ir::StatementCounts& c) {
  if (c.warp_evaluations == 0) return WarpCell::NotReached;
  if (c.divergent > 0) return WarpCell::Divergent;
  if (c.taken_lanes == c.active_lanes) return WarpCell::AllTrue;
  if (c.taken_lanes == 0) return WarpCell::AllFalse;
  return WarpCell::Mixed;
}

bool is_branch(const ir::Stmt& s) {
  return s.kind == ir::StmtKind::If || s.kind == ir::StmtKind::Loop || s.kind == ir::StmtKind::Switch;
}

std::string percent(double f) {
  char b[16];
  std::snprintf(b, sizeof b, "%.1f%%", 100.0 * f);
  return b;
}

std::string alpha(double f) {
  char b[16];
  std::snprintf(b, sizeof b, "%.2f", f);
  return b;
}

std::string legend(const std::vector<std::pair<const char*, std::string>>& items) {
  std::string out = "<div class=\"legend\">";
  for (const auto& [colour, text] : items)
    out += "<span><span class=\"swatch\" style=\"background:" + std::string(colour) + "\"></span>" +
           escape(text) + "</span>";
  return out + "</div>\n";
}

// The memory shades, three steps each, apart from the divergence's vermillion: global lines by
// their sector efficiency (blue), shared lines by bank conflicts per request (reddish purple).
constexpr const char* kGlobalShades[] = {"rgba(0,114,178,0.2)", "rgba(0,114,178,0.45)",
                                         "rgba(0,114,178,0.7)"};
constexpr const char* kSharedShades[] = {"rgba(204,121,167,0.3)", "rgba(204,121,167,0.6)",
                                         "rgba(204,121,167,0.9)"};

// 0 (none) at 100% or more, 1 from 50%, 2 from 25%, 3 below.
int global_shade(double efficiency) {
  return efficiency >= 1 ? 0 : efficiency >= 0.5 ? 1 : efficiency >= 0.25 ? 2 : 3;
}

// 0 (none) without conflicts, 1 up to one per request (2-way), 2 up to 3 (4-way), 3 above.
int shared_shade(double conflicts_per_request) {
  return conflicts_per_request <= 0 ? 0 : conflicts_per_request <= 1 ? 1 : conflicts_per_request <= 3 ? 2 : 3;
}

// A line with memory figures to show: a counted access or floating-point work.
bool has_memory_figures(const ListingLine& l) {
  return l.memory && (l.memory->has_global || l.memory->has_shared || l.memory->flops != 0);
}

bool shows_memory(const SourceReport& report) {
  if (!report.memory.counted) return false;
  const auto any = [](const std::vector<ListingLine>& lines) {
    return std::any_of(lines.begin(), lines.end(), has_memory_figures);
  };
  return any(report.listing) || any(report.elsewhere);
}

// The memory columns of the listing: the two costs, then the figures line_columns() gives the HTML.
std::size_t memory_columns() {
  const std::vector<LineColumn>& columns = line_columns();
  return 2 + static_cast<std::size_t>(std::count_if(columns.begin(), columns.end(),
                                                    [](const LineColumn& c) { return !c.html.empty(); }));
}

// The memory cells of a listing line: before its source, the costs (sector efficiency and bank
// conflicts, shaded), after it the figures (global requests, sectors, bytes asked, shared
// requests, wavefronts, flops). Empty for a line without figures; a space whose accesses on the
// line are all not counted says so in its cost cell.
struct MemoryCells {
  std::string costs, figures;
};

MemoryCells memory_cells(const SourceReport& report, const ListingLine& l) {
  const LineGaps gaps = line_gaps(report, l);
  MemoryCells out;
  const auto cell = [](std::string& to, const std::string& text, int shade = 0, const char* kind = "") {
    to += (shade ? "<td class=\"" + std::string(kind) + std::to_string(shade) + "\">" : "<td>") + text +
          "</td>";
  };
  const bool figures = has_memory_figures(l);
  const MemoryFigures m = figures ? *l.memory : MemoryFigures{};
  const auto digits = [](sim::Count c) { return html::group_digits(sim::to_decimal(c)); };
  const std::string blank = figures ? "-" : "";
  const auto marked = [](const std::string& figure, bool gap) { return gap ? figure + "?" : figure; };
  // Sector efficiency, shaded.
  const std::optional<double> e = sector_efficiency(m);
  cell(out.costs,
       e             ? marked(percent(*e), gaps.global)
       : gaps.global ? "not counted"
                     : blank,
       e ? global_shade(*e) : 0, "mg");
  // Bank conflicts, shaded.
  const std::optional<double> c = conflicts_per_request(m);
  cell(out.costs,
       m.has_shared  ? marked(digits(m.shared_bank_conflicts), gaps.shared)
       : gaps.shared ? "not counted"
                     : blank,
       c ? shared_shade(*c) : 0, "ms");
  for (const LineColumn& column : line_columns()) {
    if (column.html.empty()) continue;
    const std::optional<sim::Count> count = line_count(column, m);
    const std::string text = line_cell(column, gaps, figures && count ? digits(*count) : "");
    cell(out.figures, text == "-" ? blank : text);
  }
  return out;
}

// Under the listing: the memory figures not counted, one line each, as the text report says them.
std::string memory_notes(const SourceReport& report) {
  const MemorySection& m = report.memory;
  if (memory_section_empty(m)) return "";
  std::string out;
  if (!m.counted)
    out += "<p class=\"note\">Memory figures: not counted" +
           (m.not_counted.empty() ? std::string() : " (" + escape(m.not_counted) + ")") + ".</p>\n";
  bool gaps = false;
  for (const auto* lines : {&report.listing, &report.elsewhere})
    for (const ListingLine& l : *lines) {
      const LineGaps g = line_gaps(report, l);
      gaps = gaps || g.global || g.shared;
    }
  if (gaps) {
    std::string legend = kLineGapLegend;
    std::replace(legend.begin(), legend.end(), '\n', ' ');
    out += "<p class=\"note\">" + escape(legend) + "</p>\n";
  }
  for (const AccessRow& a : m.accesses)
    if (!a.not_counted.empty())
      out += "<p class=\"note\">Not counted: " + escape(not_counted_text(a)) + "</p>\n";
  for (const std::string& f : m.flops_not_counted)
    out += "<p class=\"note\">Floating-point operations not counted at " + escape(f) + "</p>\n";
  return out;
}

// A line summed over the calls of its inlined function: a tooltip with each call's figures.
std::string call_sites_title(const SourceReport& report, const SourceRow& shown) {
  if (shown.call_sites <= 1) return "";
  std::string title = "summed over " + std::to_string(shown.call_sites) + " calls:";
  for (const SourceRow& call : report.rows) {
    if (call.iteration || !same_statement(call, shown)) continue;
    title += "\ninlined at " + call.inlined_at + ": " + sim::to_decimal(call.counts.warp_evaluations) +
             " warp evals" +
             (call.condition ? ", " + sim::to_decimal(call.counts.divergent) + " divergent" : "");
  }
  return " title=\"" + escape(title) + "\"";
}

// The annotated source: divergent fraction shades the line (vermillion), SIMD efficiency is a bar;
// with memory figures, the sector efficiency and the bank conflicts (shaded), then the other
// figures, all before the source (which wraps), so that every figure fits a 1,400-pixel window.
std::string listing_html(const SourceReport& report) {
  const bool memory = shows_memory(report);
  std::string out =
      "<section><h2>Annotated source</h2>\n<p>Each line that starts a statement shows its warp "
      "evaluations, divergent evaluations (branches) and SIMD efficiency (active lanes / "
      "(evaluations &times; warp size)). The line is shaded by its divergent fraction; the bar "
      "shows its SIMD efficiency.</p>\n";
  if (memory) {
    out +=
        "<p>Memory, summed over the statements that start on the line: the sector efficiency "
        "of its global accesses (bytes the lanes ask for / (32-byte sectors &times; 32); over "
        "100% where lanes share words) and the bank conflicts of its shared ones, then global "
        "requests, sectors and bytes asked, shared requests and wavefronts, floating-point "
        "operations. The sector efficiency is shaded blue where it is "
        "below 100%, the bank conflicts reddish purple by conflicts per request; the stronger, "
        "the costlier.</p>\n";
    for (const LineColumn& column : line_columns())
      if (!column.note.empty() && !column.html.empty()) {
        std::string note = column.note;  // the text report's lines, joined
        std::replace(note.begin(), note.end(), '\n', ' ');
        out += "<p>" + escape(note) + "</p>\n";
      }
    out += legend({{kGlobalShades[0], "global: sector efficiency 50% to 100%"},
                   {kGlobalShades[1], "25% to 50%"},
                   {kGlobalShades[2], "below 25%"},
                   {kSharedShades[0], "shared: up to 1 bank conflict per request"},
                   {kSharedShades[1], "up to 3"},
                   {kSharedShades[2], "more than 3"}});
  }
  out +=
      "<div class=\"table-box\"><table id=\"source\">\n"
      "<tr><th>line</th><th>warp evals</th><th>divergent</th><th>SIMD</th>";
  if (memory) {
    out += "<th>sector eff.</th><th>conflicts</th>";
    for (const LineColumn& column : line_columns())
      if (!column.html.empty()) out += "<th>" + escape(column.html) + "</th>";
  }
  out += "<th class=\"src\">source</th></tr>\n";
  const auto line = [&](const ListingLine& l) {
    const MemoryCells cells = memory ? memory_cells(report, l) : MemoryCells{};
    if (!l.row) {
      out += "<tr><td>" + escape(l.label) + "</td><td></td><td></td><td></td>" + cells.costs + cells.figures +
             "<td class=\"src\">" + escape(l.text) + "</td></tr>\n";
      return;
    }
    const SourceRow& r = report.summed[*l.row];
    const double evals = sim::to_double(r.counts.warp_evaluations);
    const double divergent = r.condition && evals > 0 ? sim::to_double(r.counts.divergent) / evals : 0;
    out += "<tr class=\"stmt\" style=\"background:rgba(213,94,0," + alpha(0.6 * divergent) + ")\"><td" +
           call_sites_title(report, r) + ">" + escape(l.label) +
           (r.call_sites > 1 ? " <span class=\"calls\">&times;" + std::to_string(r.call_sites) + "</span>"
                             : "") +
           "</td><td>" + html::group_digits(sim::to_decimal(r.counts.warp_evaluations)) + "</td><td>" +
           (r.condition ? html::group_digits(sim::to_decimal(r.counts.divergent)) +
                              (evals > 0 ? " (" + percent(divergent) + ")" : "")
                        : "-") +
           "</td><td>";
    if (evals > 0)
      out += "<span class=\"bar\"><span style=\"width:" + coord(100 * r.simd_efficiency) +
             "%\"></span></span> " + percent(r.simd_efficiency);
    else
      out += "-";
    out += "</td>" + cells.costs + cells.figures + "<td class=\"src\">" + escape(l.text) + "</td></tr>\n";
  };
  for (const ListingLine& l : report.listing) line(l);
  if (!report.elsewhere.empty()) {
    out += "<tr><th colspan=\"" + std::to_string(memory ? 5 + memory_columns() : 5) +
           "\">statements outside the kernel's lines (inlined functions)</th></tr>\n";
    for (const ListingLine& l : report.elsewhere) line(l);
  }
  return out + "</table></div>\n" + memory_notes(report) + "</section>\n";
}

// The bounds of the classes' intervals in one dimension: they cut it into segments.
std::vector<std::uint32_t> bounds(const std::vector<BlockClassView>& classes,
                                  IndexInterval BlockClassView::*dim) {
  std::set<std::uint32_t> b;
  for (const BlockClassView& c : classes) {
    b.insert((c.*dim).begin);
    b.insert((c.*dim).end);
  }
  return {b.begin(), b.end()};
}

std::string index_range(std::uint32_t a, std::uint32_t b) {
  return b - a == 1 ? std::to_string(a) : std::to_string(a) + "-" + std::to_string(b - 1);
}

// A panel's label: the z part of the definition of a class whose z interval is the segment
// ("blockIdx.z < 6", "blockIdx.z = 7 (last)"; it is the last part, as dimensions go x, y, z);
// else the segment itself.
std::string z_label(const std::vector<BlockClassView>& classes, IndexInterval z, std::uint32_t grid_z) {
  for (const BlockClassView& c : classes) {
    const auto at = c.definition.find("blockIdx.z");
    if (c.z.begin == z.begin && c.z.end == z.end && at != std::string::npos) return c.definition.substr(at);
  }
  const std::string last = z.end == grid_z ? " (last)" : "";
  if (z.end - z.begin == 1) return "blockIdx.z = " + std::to_string(z.begin) + last;
  return "blockIdx.z in [" + std::to_string(z.begin) + ", " + std::to_string(z.end - 1) + "]" + last;
}

// One x-y picture of the classes whose z interval holds segment z: a cell per segment of x and
// y, coloured by the first class holding it. `z_title` ("" in a 2-D picture) ends each cell's title.
std::string grid_svg(const std::vector<BlockClassView>& classes, const std::vector<std::uint32_t>& xb,
                     const std::vector<std::uint32_t>& yb, IndexInterval z, const std::string& id,
                     const std::string& z_title) {
  const double left = 110, top = 20;
  // Wide enough for the axis label above a grid of few segments.
  const double width = std::max(left + kGridCell * static_cast<double>(xb.size() - 1) + 10, left + 160.0);
  const double height = top + kGridCell * static_cast<double>(yb.size() - 1) + 10;
  std::string out = "<svg id=\"" + id + "\" width=\"" + coord(width) + "\" height=\"" + coord(height) +
                    "\" role=\"img\" aria-label=\"block classes on the grid" + escape(z_title) + "\">\n";
  for (std::size_t j = 0; j + 1 < yb.size(); ++j) {
    out += "<text x=\"" + coord(left - 6) + "\" y=\"" +
           coord(top + kGridCell * (static_cast<double>(j) + 0.65)) +
           "\" text-anchor=\"end\" font-size=\"11\">y " + index_range(yb[j], yb[j + 1]) + "</text>\n";
    for (std::size_t i = 0; i + 1 < xb.size(); ++i) {
      const char* colour = "#FFFFFF";
      std::string name;
      std::size_t k = 0;
      for (; k < classes.size(); ++k) {
        const BlockClassView& c = classes[k];
        if (c.x.begin <= xb[i] && xb[i] < c.x.end && c.y.begin <= yb[j] && yb[j] < c.y.end &&
            c.z.begin <= z.begin && z.begin < c.z.end) {
          colour = kClassColours[k % std::size(kClassColours)];
          name = c.name;
          break;
        }
      }
      const double x = left + kGridCell * static_cast<double>(i),
                   y = top + kGridCell * static_cast<double>(j);
      out += "<rect x=\"" + coord(x) + "\" y=\"" + coord(y) + "\" width=\"" + coord(kGridCell - 2) +
             "\" height=\"" + coord(kGridCell - 2) + "\" fill=\"" + colour + "\"><title>" +
             escape(name + ": blockIdx.x " + index_range(xb[i], xb[i + 1]) + ", blockIdx.y " +
                    index_range(yb[j], yb[j + 1]) + z_title) +
             "</title></rect>\n";
      // More classes than colours: each cell also shows its class's number.
      if (k < classes.size() && classes.size() > std::size(kClassColours)) {
        const std::string number = std::to_string(k + 1);
        out += "<text x=\"" + coord(x + (kGridCell - 2) / 2) + "\" y=\"" + coord(y + 15.5) +
               "\" text-anchor=\"middle\" font-size=\"" + (number.size() > 3 ? "8" : "10") + "\"" +
               (kWhiteClassNumber[k % std::size(kClassColours)] ? " style=\"fill:#FFFFFF\"" : "") + ">" +
               number + "</text>\n";
      }
    }
  }
  out += "<text x=\"" + coord(left) + "\" y=\"12\" font-size=\"11\">blockIdx.x segments &#8594;</text>\n";
  return out + "</svg>";
}

// The grid, drawn by segments: the class intervals' bounds cut x and y into a few segments. When
// they cut z too, one x-y panel per segment of z (at most kMaxGridPanels), side by side.
std::string grid_html(const SourceReport& report, const SourceHtmlPage& page) {
  std::string out = "<section><h2>Block classes</h2>\n";
  if (page.classes.empty()) {
    out += "<p class=\"note\">" + escape(page.engine_note) + "</p>\n</section>\n";
    return out;
  }
  const std::vector<std::uint32_t> xb = bounds(page.classes, &BlockClassView::x),
                                   yb = bounds(page.classes, &BlockClassView::y),
                                   zb = bounds(page.classes, &BlockClassView::z);
  const std::size_t panels = zb.size() - 1;
  out += "<p>" + std::to_string(page.classes.size()) +
         " classes of blocks whose warps behave alike; each is counted once and multiplied by its "
         "size. The grid is drawn by segments of blockIdx (a segment may stand for many blocks)" +
         (panels > 1 ? ", one panel of blockIdx.x and .y per segment of blockIdx.z" : "") + ".</p>\n";
  if (panels == 1) {
    out += "<figure>" + grid_svg(page.classes, xb, yb, {zb[0], zb[1]}, "class-grid", "") + "<figcaption>" +
           escape(report.launch) + "</figcaption></figure>\n";
  } else {
    out += "<figure id=\"class-grid\"><div class=\"figure-row\">\n";
    for (std::size_t p = 0; p < panels && p < kMaxGridPanels; ++p) {
      const IndexInterval z{zb[p], zb[p + 1]};
      out += "<figure><figcaption style=\"font-weight:600\">" + escape(z_label(page.classes, z, zb.back())) +
             "</figcaption>" +
             grid_svg(page.classes, xb, yb, z, "class-grid-z" + std::to_string(p + 1),
                      ", blockIdx.z " + index_range(z.begin, z.end)) +
             "</figure>\n";
    }
    out += "</div><figcaption>" + escape(report.launch) + "</figcaption></figure>\n";
    if (panels > kMaxGridPanels)
      out += "<p class=\"note\">Only the first " + std::to_string(kMaxGridPanels) + " of the " +
             html::group_digits(std::to_string(panels)) + " segments of blockIdx.z are drawn: " +
             html::group_digits(std::to_string(panels - kMaxGridPanels)) + " left out (blockIdx.z " +
             index_range(zb[kMaxGridPanels], zb.back()) + "); the table lists every class.</p>\n";
  }
  out +=
      "<div class=\"table-box\"><table id=\"classes\"><tr><th>class</th><th>blocks</th><th>defined "
      "by</th><th>representative</th></tr>\n";
  for (std::size_t k = 0; k < page.classes.size(); ++k) {
    const BlockClassView& c = page.classes[k];
    out += "<tr><td><span class=\"swatch-inline\" style=\"background:" +
           std::string(kClassColours[k % std::size(kClassColours)]) + "\"></span>" + escape(c.name) +
           "</td><td>" + html::group_digits(sim::to_decimal(c.blocks)) +
           "</td><td style=\"text-align:left\">" + escape(c.definition) + "</td><td>" +
           escape(ir::to_string(c.representative)) + "</td></tr>\n";
  }
  out += "</table></div>\n</section>\n";
  return out;
}

std::string map_svg(const WarpIterationMap& m, const std::string& id) {
  const double left = 56, top = 16;
  // Iteration classes get wider columns (a few of them, each named in the caption).
  const double cell = m.columns.empty() ? kCell : kClassCell;
  // Wide enough for the axis label under a map of few iterations.
  const double width = std::max(left + cell * m.iterations + 8, left + 110.0);
  const double height = top + kCell * m.warps + 18;
  std::string out = "<figure><svg id=\"" + escape(id) + "\" width=\"" + coord(width) + "\" height=\"" +
                    coord(height) + "\" role=\"img\" aria-label=\"" + escape(m.label) + "\">\n";
  // One rect per run of equal cells in a row: the size follows the changes, not the cells.
  for (std::uint32_t w = 0; w < m.warps; ++w) {
    std::uint32_t k = 0;
    while (k < m.iterations) {
      const WarpCell c = m.cells[w * m.iterations + k];
      std::uint32_t e = k + 1;
      while (e < m.iterations && m.cells[w * m.iterations + e] == c) ++e;
      if (c != WarpCell::NotReached) {
        out += "<rect x=\"" + coord(left + cell * k) + "\" y=\"" + coord(top + kCell * w) + "\" width=\"" +
               coord(cell * (e - k)) + "\" height=\"" + coord(kCell - 1) + "\" fill=\"" + cell_colour(c) +
               "\"";
        if (m.columns.empty())
          out += "/>\n";
        else
          out += "><title>" +
                 escape("warp " + std::to_string(w) + ": " + m.columns[k] +
                        (e - k > 1 ? " .. " + m.columns[e - 1] : "")) +
                 "</title></rect>\n";
      }
      k = e;
    }
  }
  out += "<text x=\"" + coord(left - 4) + "\" y=\"" + coord(top + 7) +
         "\" text-anchor=\"end\" font-size=\"10\">warp 0</text>\n";
  if (m.warps > 1)
    out += "<text x=\"" + coord(left - 4) + "\" y=\"" + coord(top + kCell * (m.warps - 1) + 7) +
           "\" text-anchor=\"end\" font-size=\"10\">warp " + std::to_string(m.warps - 1) + "</text>\n";
  std::string axis = m.iterations > 1 ? "iteration 1 &#8594; " + std::to_string(m.iterations) : "once";
  std::string columns;
  if (!m.columns.empty()) {
    axis = std::to_string(m.iterations) + (m.iterations == 1 ? " class" : " classes") + " &#8594;";
    for (std::size_t j = 0; j < m.columns.size(); ++j) columns += (j ? " | " : "") + m.columns[j];
  }
  out += "<text x=\"" + coord(left) + "\" y=\"" + coord(top + kCell * m.warps + 13) + "\" font-size=\"10\">" +
         axis + "</text>\n</svg><figcaption>" + escape(m.label) +
         (columns.empty() ? "" : "<br>" + escape(columns)) +
         (m.more_warps ? "; first " + std::to_string(m.warps) + " warps" : "") +
         (m.more_iterations ? "; first " + std::to_string(m.iterations) + " iterations" : "") +
         "</figcaption></figure>\n";
  return out;
}

}  // namespace

std::vector<WarpIterationMap> warp_iteration_maps(const ir::Kernel& kernel, const ir::Launch& launch,
                                                  const ir::Dim3& block, std::string* note) {
  const auto warp_size = static_cast<std::uint64_t>(launch.warp_size);
  const std::uint64_t warps = (launch.block.volume() + warp_size - 1) / warp_size;
  const auto shown_warps = static_cast<std::uint32_t>(std::min<std::uint64_t>(warps, kMaxMapWarps));
  std::vector<ir::StmtId> branches;  // in source order
  for (std::size_t id = 0; id < kernel.stmts.size(); ++id)
    if (is_branch(kernel.stmts[id])) branches.push_back(static_cast<ir::StmtId>(id));
  std::stable_sort(branches.begin(), branches.end(), [&](ir::StmtId a, ir::StmtId b) {
    const ir::SourceRange& ra = kernel.stmts[static_cast<std::size_t>(a)].range;
    const ir::SourceRange& rb = kernel.stmts[static_cast<std::size_t>(b)].range;
    return std::tie(ra.file, ra.line, ra.column) < std::tie(rb.file, rb.line, rb.column);
  });
  std::vector<ir::ReplayResult> results;  // one replay per warp shown
  sim::CountRequest request;
  request.engine = sim::Engine::replay;
  ir::ReplayOptions& options = request.options;
  options.by_iteration = true;
  options.only_block = block;
  options.threads = 1;
  // The replay stops a run past twice its limit: a warp's replay stays small, whatever the loop.
  options.max_evaluations = kMaxMapEvaluationsPerWarp / 2;
  for (std::uint32_t w = 0; w < shown_warps; ++w) {
    options.only_warp = w;
    try {
      results.push_back(sim::count_launch(kernel, launch, request).result);
    } catch (const InvalidInput&) {
      if (note)
        *note = "No maps: a warp of this block makes more than " + std::to_string(kMaxMapEvaluationsPerWarp) +
                " statement evaluations (or a loop runs past the per-iteration limit); the "
                "counts above are exact.";
      return {};
    }
  }
  std::vector<WarpIterationMap> maps;
  for (ir::StmtId id : branches) {
    const auto i = static_cast<std::size_t>(id);
    const ir::Stmt& stmt = kernel.stmts[i];
    WarpIterationMap m;
    m.statement = id;
    m.label = "line " + std::to_string(stmt.range.line) + ": " + ir::report_kind(stmt);
    m.warps = shown_warps;
    m.more_warps = warps > shown_warps;
    std::size_t iterations = 1;
    bool in_loop = false;
    for (const ir::ReplayResult& r : results)
      if (i < r.iterations.size() && !r.iterations[i].empty()) {
        in_loop = true;
        iterations = std::max(iterations, r.iterations[i].size());
      }
    m.iterations = static_cast<std::uint32_t>(std::min<std::size_t>(iterations, kMaxMapIterations));
    m.more_iterations = iterations > m.iterations;
    m.cells.assign(std::size_t{m.warps} * m.iterations, WarpCell::NotReached);
    for (std::uint32_t w = 0; w < m.warps; ++w) {
      const ir::ReplayResult& r = results[w];
      for (std::uint32_t k = 0; k < m.iterations; ++k) {
        if (in_loop) {
          if (i < r.iterations.size() && k < r.iterations[i].size())
            m.cells[w * m.iterations + k] = cell_of(r.iterations[i][k]);
        } else {
          m.cells[w * m.iterations + k] = cell_of(r.statements[i]);
        }
      }
    }
    maps.push_back(std::move(m));
  }
  return maps;
}

namespace {

WarpCell cell_from(ir::WarpOutcome o) {
  switch (o) {
    case ir::WarpOutcome::AllTrue:
      return WarpCell::AllTrue;
    case ir::WarpOutcome::AllFalse:
      return WarpCell::AllFalse;
    case ir::WarpOutcome::Divergent:
      return WarpCell::Divergent;
    case ir::WarpOutcome::Mixed:
      return WarpCell::Mixed;
    case ir::WarpOutcome::NotReached:
      break;
  }
  return WarpCell::NotReached;
}

std::string branch_label(const ir::Stmt& stmt) {
  return "line " + std::to_string(stmt.range.line) + ": " + ir::report_kind(stmt);
}

}  // namespace

std::vector<WarpIterationMap> class_iteration_maps(const ir::Kernel& kernel, const ir::Launch& launch,
                                                   const ir::BlockClass& block_class, std::string* note) {
  const std::size_t stmts = kernel.stmts.size();
  const std::uint32_t warps = block_class.warps;
  const std::uint32_t shown_warps = std::min(warps, kMaxMapWarps);
  // The accelerated loops with classes, in source order, and the statements inside each.
  std::vector<ir::StmtId> loops;
  for (const ir::IterationClass& c : block_class.iteration_classes)
    if (std::find(loops.begin(), loops.end(), c.loop) == loops.end()) loops.push_back(c.loop);
  std::vector<std::vector<bool>> inside;
  for (ir::StmtId l : loops) inside.push_back(ir::statements_inside(kernel, l));
  const std::vector<ir::StmtId> innermost = ir::innermost_loops(kernel);
  std::vector<ir::StmtId> branches;  // in source order
  for (std::size_t id = 0; id < stmts; ++id)
    if (is_branch(kernel.stmts[id])) branches.push_back(static_cast<ir::StmtId>(id));
  std::stable_sort(branches.begin(), branches.end(), [&](ir::StmtId a, ir::StmtId b) {
    const ir::SourceRange& ra = kernel.stmts[static_cast<std::size_t>(a)].range;
    const ir::SourceRange& rb = kernel.stmts[static_cast<std::size_t>(b)].range;
    return std::tie(ra.file, ra.line, ra.column) < std::tie(rb.file, rb.line, rb.column);
  });
  const auto in_classes = [&](ir::StmtId id) {
    for (const auto& in : inside)
      if (in[static_cast<std::size_t>(id)]) return true;
    return false;
  };
  // Branches in loops that do not run as classes: their per-iteration maps from a replay.
  std::vector<WarpIterationMap> replayed;
  if (std::any_of(branches.begin(), branches.end(), [&](ir::StmtId id) {
        return innermost[static_cast<std::size_t>(id)] != ir::kNone && !in_classes(id);
      }))
    replayed = warp_iteration_maps(kernel, launch, block_class.representative, nullptr);
  const auto whole_run = [&](ir::StmtId id, const std::string& label) {
    WarpIterationMap m;
    m.statement = id;
    m.label = label;
    m.warps = shown_warps;
    m.more_warps = warps > shown_warps;
    m.iterations = 1;
    m.cells.assign(shown_warps, WarpCell::NotReached);
    for (std::uint32_t w = 0; w < shown_warps; ++w)
      m.cells[w] = cell_from(block_class.outcomes[w * stmts + static_cast<std::size_t>(id)]);
    return m;
  };
  std::vector<WarpIterationMap> maps;
  bool degraded = false;
  for (const ir::StmtId id : branches) {
    const ir::Stmt& stmt = kernel.stmts[static_cast<std::size_t>(id)];
    bool drawn = false;
    for (std::size_t l = 0; l < loops.size(); ++l) {
      if (!inside[l][static_cast<std::size_t>(id)]) continue;
      std::vector<const ir::IterationClass*> columns;
      for (const ir::IterationClass& c : block_class.iteration_classes)
        if (c.loop == loops[l] && columns.size() < kMaxMapIterations) columns.push_back(&c);
      if (std::all_of(columns.begin(), columns.end(),
                      [](const ir::IterationClass* c) { return c->outcomes.empty(); }))
        continue;  // outcomes not kept (past their bound)
      const ir::Stmt& loop = kernel.stmts[static_cast<std::size_t>(loops[l])];
      const std::string variable = ir::loop_variable(kernel, loops[l]);
      WarpIterationMap m;
      m.statement = id;
      m.label = branch_label(stmt) + ", per iteration class of " +
                (variable.empty() ? std::string("the loop") : variable) + " (line " +
                std::to_string(loop.range.line) + ")";
      m.warps = shown_warps;
      m.more_warps = warps > shown_warps;
      m.iterations = static_cast<std::uint32_t>(columns.size());
      m.cells.assign(std::size_t{m.warps} * m.iterations, WarpCell::NotReached);
      for (std::uint32_t j = 0; j < m.iterations; ++j) {
        const ir::IterationClass& c = *columns[j];
        m.columns.push_back(c.definition +
                            (c.size() > 1 ? " (" + std::to_string(c.size()) + " iterations)" : ""));
        if (c.outcomes.empty()) continue;
        for (std::uint32_t w = 0; w < m.warps; ++w)
          m.cells[w * m.iterations + j] = cell_from(c.outcomes[w * stmts + static_cast<std::size_t>(id)]);
      }
      maps.push_back(std::move(m));
      drawn = true;
    }
    if (drawn) continue;
    if (block_class.outcomes.size() != std::size_t{warps} * stmts) continue;  // past the bound
    if (innermost[static_cast<std::size_t>(id)] == ir::kNone) {
      maps.push_back(whole_run(id, branch_label(stmt)));
      continue;
    }
    const auto found = std::find_if(replayed.begin(), replayed.end(),
                                    [&](const WarpIterationMap& m) { return m.statement == id; });
    if (found != replayed.end()) {
      maps.push_back(*found);
    } else {
      maps.push_back(whole_run(id, branch_label(stmt) + ", all iterations together"));
      degraded = true;
    }
  }
  if (degraded && note)
    *note = "Maps marked 'all iterations together': a warp of this block makes more than " +
            std::to_string(kMaxMapEvaluationsPerWarp) +
            " statement evaluations (or a loop runs past the per-iteration limit), too many to "
            "replay per iteration; the counts above are exact.";
  return maps;
}

std::string render_source_html(const SourceReport& report, const SourceHtmlPage& page) {
  std::string out = html::page_start("warpdiv analyze: " + report.kernel);
  out +=
      "<style>.bar{display:inline-block;width:60px;height:9px;border:1px solid #777;"
      "vertical-align:-1px;background:#fff}.bar>span{display:block;height:100%;background:" +
      std::string(html::colour::kUniformTrue) +
      "}#source th{white-space:normal;vertical-align:bottom}#source th,#source td{padding:2px 6px}"
      "#source th.src{text-align:left}td.src{text-align:left;font-family:\"DejaVu Sans "
      "Mono\",monospace;white-space:pre-wrap;"
      "overflow-wrap:anywhere;min-width:40ch}"
      ".swatch-inline{display:inline-block;width:11px;height:11px;margin-right:5px;"
      "border:1px solid #777}";
  for (int k = 0; k < 3; ++k)
    out += "td.mg" + std::to_string(k + 1) + "{background:" + kGlobalShades[k] + "}td.ms" +
           std::to_string(k + 1) + "{background:" + kSharedShades[k] + "}";
  out += "</style>\n";
  out += "<h1>warpdiv analyze: " + escape(report.kernel) + "</h1>\n<p class=\"config\">" +
         escape(report.file) + "; launch: " + escape(report.launch) +
         (report.arguments.empty() ? "" : "; " + escape(report.arguments)) + "; counted " +
         html::group_digits(sim::to_decimal(report.blocks)) + " blocks, " +
         html::group_digits(sim::to_decimal(report.warps)) + " warps" +
         (report.scope.empty() ? "" : " (" + escape(report.scope) + " only)") + ".</p>\n";
  if (!page.engine_note.empty() && !page.classes.empty())
    out += "<p class=\"config\">" + escape(page.engine_note) + "</p>\n";
  if (!page.memory_note.empty()) out += "<p class=\"config\">" + escape(page.memory_note) + "</p>\n";
  if (!report.incomplete.empty())
    out +=
        "<p class=\"note hazard\" id=\"incomplete\">Incomplete: " + escape(sim::listed(report.incomplete)) +
        " (listed under the annotated source).</p>\n";
  out += listing_html(report);
  if (!page.launch_summary.empty())
    out += "<section><h2>The launch</h2>\n<pre style=\"white-space:pre-wrap\">" +
           escape(page.launch_summary) + "</pre></section>\n";
  for (const PartialBarrier& p : report.partial_barriers)
    out += "<p class=\"note hazard\">" + escape(p.where) +
           ": partial barrier: only part of the block reaches this __syncthreads() in " +
           html::group_digits(sim::to_decimal(p.partial_block_executions)) + " of " +
           html::group_digits(sim::to_decimal(p.block_executions)) +
           " block executions (undefined behaviour).</p>\n";
  if (!report.order_dependent.empty()) {
    out +=
        "<p class=\"note hazard\">Order-dependent (threads pass values through memory the kernel writes; "
        "counted with blocks, warps and lanes in ascending order, a block's warps up to each barrier in "
        "turn, which the GPU does not keep):</p>\n<ul>\n";
    for (const std::string& line : report.order_dependent) out += "<li>" + escape(line) + "</li>\n";
    out += "</ul>\n";
  }
  out += grid_html(report, page);
  out +=
      "<section><h2>Warp &times; iteration maps</h2>\n<p>For each branch, one row per warp "
      "of the block named, one column per iteration of the branch's innermost loop; inside a "
      "loop the class engine runs as classes of iterations, one column per iteration class "
      "(what the warp does in each iteration of the class), named under the map.</p>\n";
  out += legend({{html::colour::kUniformTrue, "every active lane true"},
                 {html::colour::kUniformFalse, "every active lane false"},
                 {html::colour::kDivergent, "divergent (the active lanes disagree)"},
                 {kMixed, "uniform in each instance, not the same in all"},
                 {"#FFFFFF", "not reached"}});
  std::size_t n = 0;
  for (const SourceHtmlPage::Maps& group : page.maps) {
    out += "<h3>" + escape(group.title) + "</h3>\n<div class=\"figure-row\">\n";
    for (const WarpIterationMap& m : group.maps) out += map_svg(m, "map-" + std::to_string(++n));
    if (group.maps.empty())
      out += "<p>" + escape(group.note.empty() ? "No branch." : group.note) + "</p>\n";
    else if (!group.note.empty())
      out += "<p class=\"note\">" + escape(group.note) + "</p>\n";
    out += "</div>\n";
  }
  if (page.classes.size() > page.maps.size())
    out += "<p class=\"note\" id=\"maps-limit\">Maps are drawn for the first " +
           std::to_string(page.maps.size()) + " of the " +
           html::group_digits(std::to_string(page.classes.size())) + " block classes (at most " +
           std::to_string(kMaxMapClasses) + "); the counts and the table above cover every class.</p>\n";
  out += "</section>\n";
  return out + html::page_end();
}

}  // namespace warpdiv::analysis
