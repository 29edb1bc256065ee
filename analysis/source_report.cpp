#include "analysis/source_report.hpp"
#include "analysis/statement_text.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <map>
#include <sstream>
#include <tuple>

#include "analysis/csv.hpp"
#include "analysis/line_columns.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::analysis {

namespace ir = sim::ir;
using sim::Count;
using sim::to_decimal;

namespace {

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

const std::string* source_line(const ir::Kernel& kernel, const ir::SourceRange& range) {
  if (range.file >= kernel.files.size()) return nullptr;
  const auto& lines = kernel.files[range.file].lines;
  if (range.line == 0 || range.line > lines.size()) return nullptr;
  return &lines[range.line - 1];
}

double simd_efficiency(const ir::StatementCounts& counts, int warp_size) {
  if (counts.warp_evaluations == 0) return 0.0;
  return sim::to_double(counts.active_lanes) / (sim::to_double(counts.warp_evaluations) * warp_size);
}

bool is_condition(ir::StmtKind kind) {
  return kind == ir::StmtKind::If || kind == ir::StmtKind::Loop || kind == ir::StmtKind::Switch;
}

SourceRow make_row(const ir::Kernel& kernel, ir::StmtId id, const ir::StatementCounts& counts,
                   int warp_size) {
  const ir::Stmt& stmt = kernel.stmts[static_cast<std::size_t>(id)];
  SourceRow row;
  row.statement = id;
  row.file = stmt.range.file < kernel.files.size() ? kernel.files[stmt.range.file].path : "";
  row.line = stmt.range.line;
  row.column = stmt.range.column;
  row.end_line = stmt.range.end_line;
  row.end_column = stmt.range.end_column;
  row.kind = ir::report_kind(stmt);
  row.condition = is_condition(stmt.kind);
  row.barrier = stmt.kind == ir::StmtKind::Barrier;
  row.counts = counts;
  row.simd_efficiency = simd_efficiency(counts, warp_size);
  // Its own text (the model's lines, never a file on disk that may have changed since); a do
  // loop's runs from `do` to the end of its line (its condition comes last).
  SourceLines lines(kernel, false);
  row.text = statement_text(lines, kernel, stmt);
  if (!row.text.empty()) return row;
  if (const std::string* line = source_line(kernel, stmt.range))
    row.text =
        trim(stmt.range.column > 0 && stmt.range.column <= line->size() ? line->substr(stmt.range.column - 1)
                                                                        : *line);
  else
    row.text = stmt.description;
  return row;
}

// The kernel's lines: from the last line at or above the body's first that names the kernel (its
// signature), to the body's last line. {0, 0} when the model has no source text.
std::pair<std::uint32_t, std::uint32_t> kernel_lines(const ir::Kernel& kernel) {
  if (kernel.root == ir::kNone || kernel.files.empty()) return {0, 0};
  const ir::SourceRange& body = kernel.stmts[static_cast<std::size_t>(kernel.root)].range;
  const auto& lines = kernel.files[0].lines;
  if (body.file != 0 || body.line == 0 || body.end_line < body.line || body.end_line > lines.size())
    return {0, 0};
  std::uint32_t first = body.line;
  constexpr std::uint32_t kSignatureSearch = 12;  // lines above the body to look for the name
  for (std::uint32_t l = body.line; l >= 1 && body.line - l <= kSignatureSearch; --l) {
    if (lines[l - 1].find(kernel.name) != std::string::npos) {
      first = l;
      break;
    }
  }
  // Keep the signature's declaration specifiers written on the line above (`__global__`).
  if (first > 1 && trim(lines[first - 2]).rfind("__global__", 0) == 0 &&
      lines[first - 1].find("__global__") == std::string::npos)
    --first;
  return {first, body.end_line};
}

std::string dim3_text(const ir::Dim3& d) { return ir::to_string(d); }

std::string percent_text(double fraction) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100.0 * fraction);
  return buffer;
}

std::string efficiency_text(const SourceRow& row) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%.4f", row.simd_efficiency);
  return buffer;
}

// Figures of one row for the listing: warp evaluations, divergent (conditions), SIMD efficiency.
struct Figures {
  std::string evaluations, divergent, efficiency;
};
Figures figures(const SourceRow& row) {
  Figures f;
  f.evaluations = to_decimal(row.counts.warp_evaluations);
  f.divergent = row.condition ? to_decimal(row.counts.divergent) : "-";
  f.efficiency = row.counts.warp_evaluations == 0 ? "-" : percent_text(row.simd_efficiency);
  return f;
}

// Which statement a listing line shows: the one that starts first on the line; a condition or a
// barrier before a plain statement starting at the same column (`for` before its init).
bool shows_before(const SourceRow& a, const SourceRow& b) {
  if (a.column != b.column) return a.column < b.column;
  const bool a_special = a.condition || a.barrier, b_special = b.condition || b.barrier;
  if (a_special != b_special) return a_special;
  return a.statement < b.statement;
}

// The statement a row counts, wherever its function was inlined, and the row's iteration.
using StatementKey = std::tuple<std::string, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t,
                                std::string, std::uint64_t>;
StatementKey statement_key(const SourceRow& r) {
  return {r.file, r.line, r.column, r.end_line, r.end_column, r.kind, r.iteration ? *r.iteration : 0};
}

// Throws Interrupted once Ctrl-C's flag `stop` (if any) is set.
void stop_if_set(const std::atomic<bool>* stop) {
  if (stop != nullptr && stop->load(std::memory_order_relaxed))
    throw Interrupted("interrupted: no file written");
}

// `rows` with the rows of one source statement summed over the calls of its function, at the
// place of its first row (the copies of a statement sort next to each other, each followed by
// its iteration rows, so a later copy's extra iterations land after the first copy's). Throws
// Interrupted once `stop` is set.
std::vector<SourceRow> sum_call_sites(const std::vector<SourceRow>& rows, int warp_size,
                                      const std::atomic<bool>* stop = nullptr) {
  std::vector<SourceRow> out;
  std::map<StatementKey, std::size_t> index;
  for (const SourceRow& r : rows) {
    stop_if_set(stop);
    const auto [it, fresh] = index.emplace(statement_key(r), out.size());
    if (fresh) {
      out.push_back(r);
      out.back().inlined_at.clear();
      continue;
    }
    SourceRow& sum = out[it->second];
    sum.counts += r.counts;
    sum.simd_efficiency = simd_efficiency(sum.counts, warp_size);
    if (!r.iteration) ++sum.call_sites;
    if (r.memory) {
      if (sum.memory)
        *sum.memory += *r.memory;
      else
        sum.memory = r.memory;
    }
  }
  return out;
}

// True when `r` lies within `of` (both ranges of one file, `r` placed).
bool inside(const ir::SourceRange& r, const ir::SourceRange& of) {
  const auto before = [](std::uint32_t l1, std::uint32_t c1, std::uint32_t l2, std::uint32_t c2) {
    return l1 < l2 || (l1 == l2 && c1 <= c2);
  };
  return r.file == of.file && r.line != 0 && before(of.line, of.column, r.line, r.column) &&
         before(r.end_line, r.end_column, of.end_line, of.end_column);
}

// One row per statement but blocks and parts of statements (statement_parts), in display order;
// a part's memory figures are added to its whole's row.
template <typename RowOf>
std::vector<SourceRow> statement_rows(const ir::Kernel& kernel, const ir::ReplayResult& result,
                                      const std::vector<StatementPart>& parts, const RowOf& row_of) {
  const std::vector<std::string> not_counted = analysis::accesses_not_counted(kernel, result);
  const std::size_t count = std::min(kernel.stmts.size(), result.statements.size());
  constexpr std::size_t kNoRow = static_cast<std::size_t>(-1);
  std::vector<SourceRow> rows;
  std::vector<std::size_t> row_of_statement(count, kNoRow);
  for (std::size_t id = 0; id < count; ++id) {
    if (kernel.stmts[id].kind == ir::StmtKind::Block || parts[id].whole != ir::kNone) continue;
    row_of_statement[id] = rows.size();
    rows.push_back(row_of(static_cast<ir::StmtId>(id), result.statements[id]));
    if (result.memory_counted)
      rows.back().memory = statement_memory(kernel, result, not_counted, ir::StmtId(id));
  }
  for (std::size_t id = 0; result.memory_counted && id < count; ++id) {
    const ir::StmtId whole = parts[id].whole;
    if (whole == ir::kNone || kernel.stmts[id].kind == ir::StmtKind::Block ||
        static_cast<std::size_t>(whole) >= count ||
        row_of_statement[static_cast<std::size_t>(whole)] == kNoRow)
      continue;
    *rows[row_of_statement[static_cast<std::size_t>(whole)]].memory +=
        statement_memory(kernel, result, not_counted, ir::StmtId(id));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const SourceRow& a, const SourceRow& b) {
    if (a.file != b.file) return a.file < b.file;
    if (a.line != b.line) return a.line < b.line;
    return shows_before(a, b);
  });
  return rows;
}

bool same_range(const ir::SourceRange& a, const ir::SourceRange& b) {
  return std::tie(a.file, a.line, a.column, a.end_line, a.end_column) ==
         std::tie(b.file, b.line, b.column, b.end_line, b.end_column);
}

// Whether `s` is a part of `next`, which follows it in their block, at the same place: the Work
// statement the front-end puts before a statement that holds no memory accesses, to hold them;
// or one of several plain statements one source statement is lowered to (`const int *p =
// nullptr`: the pointer's offset and whether it is null; `int *q{o}`: its declaration and the
// work of its initialiser).
bool holds_accesses_of(const ir::Stmt& s, const ir::Stmt& next) {
  static constexpr ir::StmtKind kHolders[] = {ir::StmtKind::Declare, ir::StmtKind::Assign, ir::StmtKind::Work,
                                              ir::StmtKind::Return, ir::StmtKind::Block};
  static constexpr ir::StmtKind kPlain[] = {ir::StmtKind::Declare, ir::StmtKind::Assign, ir::StmtKind::Work};
  const auto plain = [](const ir::Stmt& x) {
    return std::find(std::begin(kPlain), std::end(kPlain), x.kind) != std::end(kPlain);
  };
  if (s.range.line == 0 || !same_range(s.range, next.range)) return false;
  if (plain(s) && plain(next)) return true;
  return s.kind == ir::StmtKind::Work &&
         std::find(std::begin(kHolders), std::end(kHolders), next.kind) == std::end(kHolders);
}

}  // namespace

bool same_statement(const SourceRow& a, const SourceRow& b) { return statement_key(a) == statement_key(b); }

LineGaps line_gaps(const SourceReport& report, const ListingLine& line) {
  LineGaps gaps;
  for (const std::size_t i : line.accesses_not_counted) {
    const std::string& space = report.memory.accesses[i].space;
    if (space == "shared") gaps.shared = true;
    if (space == "global") gaps.global = true;
  }
  return gaps;
}

std::string line_cell(const LineColumn& column, const LineGaps& gaps, const std::string& figure) {
  const bool gap = (column.needs == LineColumn::Needs::Global && gaps.global) ||
                   (column.needs == LineColumn::Needs::Shared && gaps.shared);
  if (figure.empty()) return gap ? "?" : "-";
  return gap ? figure + "?" : figure;
}

const char* const kLineGapLegend =
    "?: not counted on this line; a figure and ? (2?): the line's other accesses of that kind not\n"
    "counted (the accesses and why are listed below); -: none.";

std::vector<StatementPart> statement_parts(const ir::Kernel& kernel) {
  std::vector<StatementPart> parts(kernel.stmts.size());
  struct Visit {
    ir::StmtId id;
    ir::StmtId call;  // the innermost inlined call whose body holds the statement (kNone: none)
  };
  std::vector<Visit> todo{{kernel.root, ir::kNone}};
  while (!todo.empty()) {
    const Visit v = todo.back();
    todo.pop_back();
    if (v.id < 0 || static_cast<std::size_t>(v.id) >= kernel.stmts.size()) continue;
    const ir::Stmt& s = kernel.stmts[static_cast<std::size_t>(v.id)];
    if (v.call != ir::kNone) {
      const StatementPart& call = parts[static_cast<std::size_t>(v.call)];  // set before its body is visited
      const ir::SourceRange& range = kernel.stmts[static_cast<std::size_t>(v.call)].range;
      if (range.line != 0 && inside(s.range, range))
        parts[static_cast<std::size_t>(v.id)] = {call.argument ? call.whole : v.call, true};
    }
    for (std::size_t i = 0; i + 1 < s.children.size(); ++i) {
      const auto part = static_cast<std::size_t>(s.children[i]),
                 next = static_cast<std::size_t>(s.children[i + 1]);
      if (std::max(part, next) < kernel.stmts.size() &&
          holds_accesses_of(kernel.stmts[part], kernel.stmts[next]))
        parts[part] = {s.children[i + 1], false};
    }
    for (const ir::StmtId c : s.children) todo.push_back({c, v.call});
    for (const ir::StmtId c : {s.init, s.then_stmt, s.else_stmt, s.step}) todo.push_back({c, v.call});
    todo.push_back({s.body, s.kind == ir::StmtKind::InlinedCall ? v.id : v.call});
  }
  // A part of a part (the statement holding an argument's accesses) is part of that one's whole.
  for (StatementPart& p : parts)
    while (p.whole != ir::kNone && parts[static_cast<std::size_t>(p.whole)].whole != ir::kNone)
      p.whole = parts[static_cast<std::size_t>(p.whole)].whole;
  return parts;
}

namespace {

// The CSV's columns: the statement's, the per-line memory columns (line_columns()), the rest.
CsvColumns<SourceRow> make_source_csv_columns() {
  CsvColumns<SourceRow> columns = {
      {"file", [](const SourceRow& r) { return r.file; }},
      {"line", [](const SourceRow& r) { return std::to_string(r.line); }},
      {"column", [](const SourceRow& r) { return std::to_string(r.column); }},
      {"kind", [](const SourceRow& r) { return r.kind; }},
      {"iteration", [](const SourceRow& r) { return r.iteration ? std::to_string(*r.iteration) : ""; }},
      {"warp_evaluations", [](const SourceRow& r) { return to_decimal(r.counts.warp_evaluations); }},
      {"divergent", [](const SourceRow& r) { return r.condition ? to_decimal(r.counts.divergent) : "0"; }},
      {"active_lanes", [](const SourceRow& r) { return to_decimal(r.counts.active_lanes); }},
      {"taken_lanes", [](const SourceRow& r) { return r.condition ? to_decimal(r.counts.taken_lanes) : ""; }},
      {"block_executions",
       [](const SourceRow& r) { return r.barrier ? to_decimal(r.counts.block_executions) : ""; }},
      {"partial_block_executions",
       [](const SourceRow& r) { return r.barrier ? to_decimal(r.counts.partial_block_executions) : ""; }},
  };
  for (const LineColumn& c : line_columns()) {
    if (c.csv.empty()) continue;
    columns.add(c.csv, [&c](const SourceRow& r) -> std::string {
      const std::optional<Count> figure = r.memory ? line_count(c, *r.memory) : std::nullopt;
      return figure ? to_decimal(*figure) : "";
    });
  }
  columns.add("accesses_not_counted", [](const SourceRow& r) {
    return r.memory ? to_decimal(r.memory->accesses_not_counted) : std::string();
  });
  columns.add("simd_efficiency", efficiency_text);
  columns.add("statement", [](const SourceRow& r) { return r.text; });
  columns.add("inlined_at", [](const SourceRow& r) { return r.inlined_at; });
  columns.add("complete", [](const SourceRow& r) { return r.launch_complete ? "yes" : "no"; });
  return columns;
}

}  // namespace

const CsvColumns<SourceRow>& source_csv_columns() {
  static const CsvColumns<SourceRow> columns = make_source_csv_columns();
  return columns;
}

namespace {

// The report's heading: the kernel, its launch and arguments, the scope counted, and the figures
// that depend on the replay's order.
void describe_launch(SourceReport& report, const ir::Kernel& kernel, const ir::Launch& launch,
                     const ir::ReplayResult& result, const SourceReportOptions& options) {
  for (const ir::OrderDependence& o : ir::order_dependence(kernel, launch, result)) {
    // The message without its closing clause (said once in the section's heading).
    const std::string clause = ", a value other threads change: counted with";
    const std::size_t cut = o.message.find(clause);
    report.order_dependent.push_back(
        cut == std::string::npos ? o.message : o.message.substr(0, cut) + ", a value other threads change");
  }
  report.kernel = kernel.name;
  report.file = kernel.files.empty() ? "" : kernel.files[0].path;
  report.launch = "grid " + dim3_text(launch.grid) + ", block " + dim3_text(launch.block) + ", warp size " +
                  std::to_string(launch.warp_size);
  for (std::size_t i = 0; i < kernel.parameters.size() && i < launch.arguments.size(); ++i) {
    const std::string text = ir::argument_text(kernel.parameters[i], launch.arguments[i]);
    if (text.empty()) continue;
    report.arguments += (report.arguments.empty() ? "" : ", ") + kernel.parameters[i].name + " = " + text;
  }
  if (options.only_warp)
    report.scope = "warp " + std::to_string(*options.only_warp) + " of " +
                   (options.only_block ? "block " + dim3_text(*options.only_block) : "every block");
  else if (options.only_block)
    report.scope = "block " + dim3_text(*options.only_block);
  report.blocks = result.blocks;
  report.warps = result.warps;
  report.by_iteration = options.by_iteration;
}

}  // namespace

SourceReport make_source_report(const ir::Kernel& kernel, const ir::Launch& launch,
                                const ir::ReplayResult& result, const SourceReportOptions& options) {
  SourceReport report;
  describe_launch(report, kernel, launch, result, options);
  report.by_call_site = options.by_call_site;
  report.warp_size = launch.warp_size;
  report.memory = make_memory_section(kernel, result, options.memory_not_counted);
  report.incomplete = incomplete_memory(report.memory);

  const std::vector<std::string> inlined_at = ir::call_sites(kernel);
  const auto row_of = [&](ir::StmtId id, const ir::StatementCounts& counts) {
    SourceRow row = make_row(kernel, id, counts, launch.warp_size);
    row.inlined_at = inlined_at[static_cast<std::size_t>(id)];
    row.launch_complete = report.incomplete.empty();
    return row;
  };
  const std::vector<StatementPart> parts = statement_parts(kernel);
  for (const SourceRow& row : statement_rows(kernel, result, parts, row_of)) {
    stop_if_set(options.stop);
    report.rows.push_back(row);
    if (row.barrier) report.barriers.push_back(row);
    const auto id = static_cast<std::size_t>(row.statement);
    if (!options.by_iteration || id >= result.iterations.size()) continue;
    const auto& per_iteration = result.iterations[id];
    for (std::size_t k = 0; k < per_iteration.size(); ++k) {
      stop_if_set(options.stop);
      SourceRow iteration = row_of(row.statement, per_iteration[k]);
      iteration.iteration = k + 1;
      report.rows.push_back(iteration);
    }
  }
  report.summed = sum_call_sites(report.rows, launch.warp_size, options.stop);
  for (const SourceRow& b : report.barriers) {
    if (b.counts.partial_block_executions == 0) continue;
    PartialBarrier partial;
    partial.where = ir::location(kernel, kernel.stmts[static_cast<std::size_t>(b.statement)].range) +
                    (b.inlined_at.empty() ? "" : " (inlined at " + b.inlined_at + ")");
    partial.line = b.line;
    partial.block_executions = b.counts.block_executions;
    partial.partial_block_executions = b.counts.partial_block_executions;
    partial.blocks_with_partial = b.counts.blocks_with_partial;
    report.partial_barriers.push_back(partial);
  }
  // The line each whole-kernel row starts, and the (summed) row that line shows.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> shown;  // (file, line) -> row
  for (std::size_t i = 0; i < report.summed.size(); ++i) {
    const SourceRow& row = report.summed[i];
    if (row.iteration) continue;
    const ir::SourceRange& range = kernel.stmts[static_cast<std::size_t>(row.statement)].range;
    shown.emplace(std::make_pair(range.file, range.line), i);  // rows are in display order
  }
  // Per line, the memory figures of the statements starting on it and their accesses not counted.
  const auto line_of = [&](ir::StmtId statement) {  // a part's is its whole's
    const ir::StmtId whole = parts[static_cast<std::size_t>(statement)].whole;
    const ir::SourceRange& range =
        kernel.stmts[static_cast<std::size_t>(whole != ir::kNone ? whole : statement)].range;
    return std::make_pair(range.file, range.line);
  };
  std::map<std::pair<std::uint32_t, std::uint32_t>, MemoryFigures> memory;
  for (const SourceRow& row : report.rows)
    if (!row.iteration && row.memory) memory[line_of(row.statement)] += *row.memory;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::size_t>> skipped;
  for (std::size_t i = 0; i < report.memory.accesses.size(); ++i) {
    const AccessRow& a = report.memory.accesses[i];
    if (!a.not_counted.empty() && a.statement != ir::kNone) skipped[line_of(a.statement)].push_back(i);
  }
  const auto listing_line = [&](std::string label, std::string text,
                                std::pair<std::uint32_t, std::uint32_t> where,
                                std::optional<std::size_t> row) {
    ListingLine line{std::move(label), std::move(text), row, std::nullopt, {}};
    if (!row) return line;
    if (const auto m = memory.find(where); m != memory.end()) line.memory = m->second;
    if (const auto s = skipped.find(where); s != skipped.end()) line.accesses_not_counted = s->second;
    return line;
  };
  const auto [first, last] = kernel_lines(kernel);
  for (std::uint32_t l = first; first != 0 && l <= last; ++l) {
    const auto found = shown.find({0, l});
    report.listing.push_back(
        listing_line(std::to_string(l), kernel.files[0].lines[l - 1], {0, l},
                     found != shown.end() ? std::optional<std::size_t>(found->second) : std::nullopt));
  }
  for (const auto& [where, index] : shown) {
    if (where.first == 0 && first != 0 && where.second >= first && where.second <= last) continue;
    const ir::SourceRange range{where.first, where.second, 0, 0, 0};
    const std::string* text = source_line(kernel, range);
    const std::string label = where.first == 0
                                  ? std::to_string(where.second)
                                  : report.summed[index].file + ":" + std::to_string(where.second);
    report.elsewhere.push_back(listing_line(label, text ? *text : report.summed[index].text, where, index));
  }
  return report;
}

void add_block_classes(SourceReport& report, const ir::Kernel& kernel, const ir::Launch& launch,
                       const std::vector<ir::BlockClass>& classes, const SourceReportOptions& options) {
  std::map<ir::StmtId, std::vector<bool>> inside;  // per accelerated loop
  for (std::size_t i = 0; i < classes.size(); ++i) {
    const ir::BlockClass& c = classes[i];
    ir::ReplayResult part;
    part.statements = c.statements;
    part.iterations = c.iterations;
    part.blocks = c.blocks;
    if (!c.accesses.empty()) {  // the class engine counted the class's memory figures
      part.memory_counted = true;
      part.accesses = c.accesses;
      part.flops = c.flops;
      part.access_faults.assign(c.accesses.size(), "");
      part.flop_faults.assign(c.flops.size(), "");
    }
    const SourceReport one = make_source_report(kernel, launch, part, options);
    ClassSection section{
        "class " + std::to_string(i + 1), c.definition, c.blocks, c.representative, one.rows, one.summed, {}};
    for (const ir::IterationClass& ic : c.iteration_classes) {
      if (!inside.count(ic.loop)) inside[ic.loop] = ir::statements_inside(kernel, ic.loop);
      const std::vector<bool>& in = inside[ic.loop];
      const ir::Stmt& loop = kernel.stmts[static_cast<std::size_t>(ic.loop)];
      IterationSection it;
      it.loop = ic.loop;
      it.line = loop.range.line;
      it.kind = ir::report_kind(loop);
      it.variable = ir::loop_variable(kernel, ic.loop);
      it.definition = ic.definition;
      it.first = ic.first + 1;
      it.iterations = ic.size();
      it.exit = ic.exit;
      it.merged = ic.merged;
      for (const SourceRow& row : report.rows) {
        if (row.iteration || !in[static_cast<std::size_t>(row.statement)]) continue;
        SourceRow r = make_row(kernel, row.statement, ic.statements[static_cast<std::size_t>(row.statement)],
                               launch.warp_size);
        r.inlined_at = row.inlined_at;
        r.launch_complete = row.launch_complete;
        r.barrier = false;  // block executions are per block, not per iteration class
        it.rows.push_back(std::move(r));
      }
      it.summed = sum_call_sites(it.rows, launch.warp_size);
      section.iterations.push_back(std::move(it));
    }
    report.classes.push_back(std::move(section));
  }
}

namespace {

std::string fraction_text(const SourceRow& row) {
  if (!row.condition) return "-";
  return to_decimal(row.counts.divergent) + "/" + to_decimal(row.counts.warp_evaluations);
}

// The classes' sizes and definitions, then a table: per statement (rows), divergent / warp
// evaluations of each class (columns, a few at a time so that lines stay readable).
void write_class_text(std::ostream& out, const SourceReport& report) {
  constexpr std::size_t kClassesPerTable = 4;
  out << "\nBlock classes (found by the class engine; each counted once and multiplied by its "
         "size):\n";
  std::size_t width = 10;
  for (const ClassSection& c : report.classes) width = std::max(width, c.name.size());
  // Blocks per class: at most 2^31-1 x 65535 x 65535, 23 digits.
  out << "  " << std::left << std::setw(static_cast<int>(width)) << "class" << std::right << std::setw(24)
      << "blocks"
      << "  defined by\n";
  for (const ClassSection& c : report.classes)
    out << "  " << std::left << std::setw(static_cast<int>(width)) << c.name << std::right << std::setw(24)
        << to_decimal(c.blocks) << "  " << c.definition << ", e.g. block " << dim3_text(c.representative)
        << "\n";
  int cell_width = 26;  // "divergent/evaluations" of the widest cell, and room between
  for (const ClassSection& c : report.classes)
    for (const SourceRow& row : c.summed)
      if (!row.iteration && row.condition)
        cell_width = std::max(cell_width, static_cast<int>(fraction_text(row).size()) + 2);
  for (std::size_t first = 0; first < report.classes.size(); first += kClassesPerTable) {
    const std::size_t last = std::min(report.classes.size(), first + kClassesPerTable);
    out << "\nDivergent / warp evaluations of each branch, per class:\n"
        << std::right << std::setw(5) << "line" << std::setw(10) << "kind";
    for (std::size_t k = first; k < last; ++k) out << std::setw(cell_width) << report.classes[k].name;
    out << '\n';
    for (std::size_t r = 0; r < report.summed.size(); ++r) {
      const SourceRow& row = report.summed[r];
      if (row.iteration || !row.condition) continue;
      out << std::setw(5) << row.line << std::setw(10) << row.kind;
      for (std::size_t k = first; k < last; ++k) {
        const auto& rows = report.classes[k].summed;
        out << std::setw(cell_width) << (r < rows.size() ? fraction_text(rows[r]) : "");
      }
      out << '\n';
    }
  }
}

// Per accelerated loop, a table: a row per (block class, iteration class) with the class's
// iterations and definition, then divergent / warp evaluations of each branch inside the loop
// (columns, as many as fit in about 120 characters per table). The loops' last checks (exit
// classes: the loop's condition only, no lane stays) are named below the table, not shown.
void write_iteration_text(std::ostream& out, const SourceReport& report) {
  std::vector<std::pair<ir::StmtId, const IterationSection*>> loops;  // first section of each loop
  for (const ClassSection& c : report.classes)
    for (const IterationSection& it : c.iterations)
      if (std::none_of(loops.begin(), loops.end(), [&](const auto& l) { return l.first == it.loop; }))
        loops.emplace_back(it.loop, &it);
  if (loops.empty()) return;
  std::stable_sort(loops.begin(), loops.end(),
                   [](const auto& a, const auto& b) { return a.second->line < b.second->line; });
  out << "\nIteration classes (the iterations of a loop that behave alike, each class run once and "
         "multiplied by\nits size): per block class, divergent / warp evaluations of each branch "
         "inside the loop.\n";
  constexpr std::size_t kTableWidth = 120;
  for (const auto& [loop, first] : loops) {
    out << "\n"
        << first->kind << " loop at line " << first->line
        << (first->variable.empty() ? "" : " (" + first->variable + ")") << ":\n";
    // The branch columns: the condition rows inside the loop, in report order.
    std::vector<std::size_t> columns;
    for (std::size_t r = 0; r < first->summed.size(); ++r)
      if (first->summed[r].condition) columns.push_back(r);
    std::size_t name_width = 5, definition_width = 10;
    int cell_width = 10;
    std::vector<std::string> exits;
    for (const ClassSection& c : report.classes)
      for (const IterationSection& it : c.iterations) {
        if (it.loop != loop) continue;
        if (it.exit) {
          if (std::find(exits.begin(), exits.end(), it.definition) == exits.end())
            exits.push_back(it.definition);
          continue;
        }
        name_width = std::max(name_width, c.name.size());
        definition_width = std::max(definition_width, it.definition.size());
        for (std::size_t col : columns)
          cell_width = std::max(cell_width, static_cast<int>(fraction_text(it.summed[col]).size()) + 2);
      }
    const std::size_t fixed = 2 + name_width + 12 + 2 + definition_width;
    const std::size_t per_table = std::max<std::size_t>(
        1, kTableWidth > fixed ? (kTableWidth - fixed) / static_cast<std::size_t>(cell_width) : 1);
    for (std::size_t from = 0; from < columns.size() || from == 0; from += per_table) {
      const std::size_t to = std::min(columns.size(), from + per_table);
      const auto lead = [&](const std::string& name, const std::string& count, const std::string& def) {
        out << "  " << std::left << std::setw(static_cast<int>(name_width)) << name << std::right
            << std::setw(12) << count << "  " << std::left << std::setw(static_cast<int>(definition_width))
            << def << std::right;
      };
      lead("", "", "");
      for (std::size_t k = from; k < to; ++k)
        out << std::setw(cell_width) << "line " + std::to_string(first->summed[columns[k]].line);
      out << '\n';
      lead("class", "iterations", "defined by");
      for (std::size_t k = from; k < to; ++k) out << std::setw(cell_width) << first->summed[columns[k]].kind;
      out << '\n';
      for (const ClassSection& c : report.classes)
        for (const IterationSection& it : c.iterations) {
          if (it.loop != loop || it.exit) continue;
          lead(c.name, std::to_string(it.iterations), it.definition);
          for (std::size_t k = from; k < to; ++k)
            out << std::setw(cell_width) << fraction_text(it.summed[columns[k]]);
          out << '\n';
        }
      if (columns.empty()) break;
    }
    if (!exits.empty()) {
      out << "  Not shown: the loop's last check in each instance (no lane stays): ";
      for (std::size_t i = 0; i < exits.size(); ++i) out << (i ? ", " : "") << exits[i];
      out << ".\n";
    }
  }
}

// The memory figures of each line that has some (a counted access or floating-point work).
void write_memory_listing(std::ostream& out, const SourceReport& report) {
  if (!report.memory.counted) return;
  struct Line {
    std::string label, text;
    std::vector<std::string> cells;
  };
  std::vector<Line> lines;
  bool uncounted = false;
  const auto add = [&](const std::vector<ListingLine>& listing) {
    for (const ListingLine& l : listing) {
      // A space whose accesses on the line are not counted shows '?', not '-' (none).
      const LineGaps gaps = line_gaps(report, l);
      const MemoryFigures m = l.memory ? *l.memory : MemoryFigures{};
      if (!m.has_global && !m.has_shared && m.flops == 0 && !gaps.global && !gaps.shared) continue;
      Line line{l.label, l.text, {}};
      for (const LineColumn& c : line_columns()) {
        if (c.text.empty()) continue;
        const std::optional<double> ratio = c.ratio ? c.ratio(m) : std::nullopt;
        const std::optional<Count> count = line_count(c, m);
        line.cells.push_back(line_cell(c, gaps,
                                       ratio   ? percent_text(*ratio)
                                       : count ? to_decimal(*count)
                                               : ""));
        uncounted = uncounted || line.cells.back().back() == '?';
      }
      lines.push_back(std::move(line));
    }
  };
  add(report.listing);
  add(report.elsewhere);
  if (lines.empty()) return;
  out << "\nMemory per statement: global requests and 32-byte sectors (efficiency: bytes the lanes\n"
         "ask for / bytes of the sectors), shared requests, wavefronts and bank conflicts\n"
         "(wavefronts beyond one per request, per half- or quarter-warp for 8 and 16 bytes),\n"
         "and floating-point operations.\n";
  std::vector<std::string> titles;
  for (const LineColumn& c : line_columns()) {
    if (c.text.empty()) continue;
    titles.push_back(c.text);
    if (!c.note.empty()) out << c.note << '\n';
  }
  if (uncounted) out << kLineGapLegend << '\n';
  out << '\n';
  std::vector<int> widths;
  for (std::size_t c = 0; c < titles.size(); ++c) {
    std::size_t w = titles[c].size();
    for (const Line& l : lines) w = std::max(w, l.cells[c].size());
    widths.push_back(static_cast<int>(w) + 2);
  }
  out << std::right << std::setw(5) << "line";
  for (std::size_t c = 0; c < titles.size(); ++c) out << std::setw(widths[c]) << titles[c];
  out << "  source\n";
  for (const Line& l : lines) {
    out << std::setw(5) << l.label;
    for (std::size_t c = 0; c < l.cells.size(); ++c) out << std::setw(widths[c]) << l.cells[c];
    out << "  " << trim(l.text) << '\n';
  }
}

}  // namespace

void write_source_text(std::ostream& out, const SourceReport& report) {
  out << "warpdiv analyze: " << report.kernel << " in " << report.file << '\n' << "launch: " << report.launch;
  if (!report.arguments.empty()) out << "; " << report.arguments;
  out << '\n'
      << "counted: " << sim::counted(report.blocks, "block") << ", " << sim::counted(report.warps, "warp")
      << (report.scope.empty() ? "" : " (" + report.scope + " only)") << "\n";
  if (!report.incomplete.empty())
    out << "incomplete: " << sim::listed(report.incomplete)
        << " (see \"Memory of the launch\"; derived figures withheld)\n";
  out << '\n';
  out << "Per statement: warp evaluations (a warp reaching it with at least one active lane),\n"
         "divergent evaluations of conditions (the active lanes disagree), and SIMD efficiency\n"
         "(active lanes / (evaluations x warp size)).\n\n";

  // Columns as wide as their longest figure (counts reach 39 digits), at least the usual width.
  int evals_width = 13, divergent_width = 12;
  for (const SourceRow& row : report.summed) {
    const Figures f = figures(row);
    evals_width = std::max(evals_width, static_cast<int>(f.evaluations.size()) + 2);
    divergent_width = std::max(divergent_width, static_cast<int>(f.divergent.size()) + 2);
  }
  const auto header = [&] {
    out << std::right << std::setw(5) << "line" << std::setw(evals_width) << "warp evals"
        << std::setw(divergent_width) << "divergent" << std::setw(9) << "SIMD"
        << "  source\n";
  };
  const auto figure_line = [&](const std::string& label, const SourceRow& row, const std::string& text) {
    const Figures f = figures(row);
    out << std::right << std::setw(5) << label << std::setw(evals_width) << f.evaluations
        << std::setw(divergent_width) << f.divergent << std::setw(9) << f.efficiency << "  " << text << '\n';
  };
  const auto print = [&](const std::vector<ListingLine>& lines) {
    for (const ListingLine& line : lines) {
      if (!line.row) {
        out << std::right << std::setw(5) << line.label << std::setw(evals_width + divergent_width + 9) << ""
            << "  " << line.text << '\n';
        continue;
      }
      const SourceRow& shown = report.summed[*line.row];
      figure_line(line.label, shown, line.text);
      if (report.by_call_site && shown.call_sites > 1)
        for (const SourceRow& call : report.rows)
          if (!call.iteration && same_statement(call, shown))
            figure_line(
                "", call,
                line.text.substr(0, line.text.find_first_not_of(" \t")) + "  inlined at " + call.inlined_at);
      for (std::size_t j = *line.row + 1; j < report.summed.size() && report.summed[j].iteration; ++j)
        figure_line("", report.summed[j], "  iteration " + std::to_string(*report.summed[j].iteration));
    }
  };
  header();
  print(report.listing);
  if (!report.elsewhere.empty()) {
    if (!report.listing.empty())
      out << "\nStatements outside the kernel's lines (inlined functions, summed over their calls"
          << (report.by_call_site ? "" : "; --by-call-site shows each call") << "):\n";
    print(report.elsewhere);
  }

  if (!report.classes.empty()) {
    write_class_text(out, report);
    write_iteration_text(out, report);
  }
  write_memory_listing(out, report);
  write_memory_totals(out, report.memory);

  if (!report.order_dependent.empty()) {
    out << "\nOrder-dependent (threads pass values through memory the kernel writes; counted with blocks,\n"
           "warps and lanes in ascending order, a block's warps up to each barrier in turn, which the\n"
           "GPU does not keep):\n";
    for (const std::string& line : report.order_dependent) out << "  " << line << "\n";
  }

  out << "\nBarriers (__syncthreads): ";
  if (report.barriers.empty()) {
    out << "none\n";
    return;
  }
  out << "(block, instance) executions that at least one thread reaches\n";
  // Summed over the calls of an inlined function, as the table; each call with --by-call-site.
  std::vector<const SourceRow*> shown;
  for (const SourceRow& b : report.by_call_site ? report.barriers : report.summed)
    if (b.barrier && !b.iteration) shown.push_back(&b);
  for (const SourceRow* row : shown) {
    const SourceRow& b = *row;
    out << "  line " << b.line
        << (report.by_call_site && !b.inlined_at.empty() ? " (inlined at " + b.inlined_at + ")" : "") << ": "
        << to_decimal(b.counts.block_executions) << " block executions, ";
    if (b.counts.partial_block_executions == 0)
      out << "every thread of the block reaches each\n";
    else
      out << to_decimal(b.counts.partial_block_executions) << " of them partial\n";
  }
  for (const PartialBarrier& p : report.partial_barriers) {
    out << "\n"
        << p.where << ": partial barrier: only part of the block reaches this "
        << "__syncthreads() in " << to_decimal(p.partial_block_executions) << " of "
        << to_decimal(p.block_executions) << " block executions";
    if (p.blocks_with_partial)
      out << ", in " << to_decimal(*p.blocks_with_partial) << " of " << to_decimal(report.blocks)
          << " blocks";
    out << '.';
  }
  if (!report.partial_barriers.empty())
    out << "\nThat is undefined behaviour: move the barrier out of the branch so that every\n"
           "thread of the block reaches it.\n";
}

std::string source_csv_header() { return source_csv_columns().header(); }

namespace {

// One record of the --by-class CSV: a statement's row in a block class, and in one of its
// iteration classes (null for the class's own rows).
struct ClassCsvRow {
  const ClassSection& block_class;
  const IterationSection* iteration;
  const SourceRow& row;
};

// The iteration columns of a class's own rows are empty.
std::function<std::string(const ClassCsvRow&)> iteration_field(
    std::string (*field)(const IterationSection&)) {
  return [field](const ClassCsvRow& r) { return r.iteration ? field(*r.iteration) : ""; };
}

const CsvColumns<ClassCsvRow>& class_csv_columns() {
  using R = const ClassCsvRow&;
  using I = const IterationSection&;
  static const CsvColumns<ClassCsvRow> columns =
      CsvColumns<ClassCsvRow>()
          .add_all(source_csv_columns(), [](R r) -> const SourceRow& { return r.row; })
          .add("class", [](R r) { return r.block_class.name; })
          .add("class_blocks", [](R r) { return to_decimal(r.block_class.blocks); })
          .add("class_definition", [](R r) { return r.block_class.definition; })
          .add("representative", [](R r) { return dim3_text(r.block_class.representative); })
          .add("loop_line", iteration_field([](I it) { return std::to_string(it.line); }))
          .add("first_iteration", iteration_field([](I it) { return std::to_string(it.first); }))
          .add("iterations", iteration_field([](I it) { return std::to_string(it.iterations); }))
          .add("iteration_class", iteration_field([](I it) { return it.definition; }));
  return columns;
}

}  // namespace

std::string source_class_csv_header() { return class_csv_columns().header(); }

void write_source_class_csv(std::ostream& out, const SourceReport& report) {
  const CsvColumns<ClassCsvRow>& columns = class_csv_columns();
  columns.write_header(out);
  for (const ClassSection& c : report.classes) {
    for (const SourceRow& row : c.rows) columns.write_row(out, {c, nullptr, row});
    for (const IterationSection& it : c.iterations)
      for (const SourceRow& row : it.rows) columns.write_row(out, {c, &it, row});
  }
}

void write_source_csv(std::ostream& out, const SourceReport& report) {
  source_csv_columns().write(out, report.rows);
}

}  // namespace warpdiv::analysis
