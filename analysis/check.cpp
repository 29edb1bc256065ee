#include "analysis/check.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <tuple>

#include "sim/errors.hpp"
#include "sim/message_text.hpp"

namespace warpdiv::analysis {

namespace fs = std::filesystem;
namespace ir = sim::ir;
using sim::Count;
using sim::to_decimal;

std::string relative_to_root(const std::string& path, const std::string& root) {
  if (path.empty() || root.empty()) return path;
  const fs::path p = fs::absolute(path).lexically_normal();
  const fs::path r = fs::absolute(root).lexically_normal();
  fs::path rel = p.lexically_relative(r);
  if (rel.empty()) rel = p;
  return rel.generic_string();
}

std::string percent(double fraction) {
  char text[64];
  std::snprintf(text, sizeof text, "%.2f", fraction * 100.0);
  std::string s = text;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s + "%";
}

namespace {

std::string number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

double ratio(Count a, Count b) { return b == 0 ? 0.0 : sim::to_double(a) / sim::to_double(b); }

// The rows' range ends: a condition's from its condition (the statement's own range covers its
// body), anything else from the statement.
void set_end(CheckRow& row, const ir::Kernel& kernel, ir::StmtId statement) {
  if (statement < 0 || static_cast<std::size_t>(statement) >= kernel.stmts.size()) return;
  const ir::Stmt& s = kernel.stmts[statement];
  ir::SourceRange end = s.range;
  if (row.condition && s.value != ir::kNone && static_cast<std::size_t>(s.value) < kernel.exprs.size()) {
    const ir::SourceRange& c = kernel.exprs[s.value].range;
    if (c.file == s.range.file && c.end_line != 0) end = c;
  }
  const bool after = end.end_line > row.line || (end.end_line == row.line && end.end_column >= row.column);
  if (end.file == s.range.file && end.end_line != 0 && after) {
    row.end_line = end.end_line;
    row.end_column = end.end_column;
  }
}

}  // namespace

std::vector<CheckRow> make_check_rows(const std::string& check, const SourceReport& report,
                                      const ir::Kernel& kernel, int warp_size,
                                      const std::string& root) {
  std::vector<CheckRow> rows;
  for (const SourceRow& r : report.rows) {
    if (r.iteration) continue;
    CheckRow c;
    c.check = check;
    c.file = r.file.empty() ? "" : relative_to_root(r.file, root);
    c.line = r.line;
    c.column = r.column;
    c.kind = r.kind;
    c.condition = r.condition;
    c.barrier = r.barrier;
    c.warp_size = warp_size;
    c.warp_evaluations = r.counts.warp_evaluations;
    c.divergent = r.counts.divergent;
    c.active_lanes = r.counts.active_lanes;
    c.partial_block_executions = r.counts.partial_block_executions;
    c.memory = r.memory;
    c.text = r.text;
    set_end(c, kernel, r.statement);
    rows.push_back(std::move(c));
  }
  return rows;
}

const std::vector<CheckRule>& check_rules() {
  static const std::vector<CheckRule> rules = {
      {"divergent-branch", "A branch diverges in more of its warp evaluations than the limit allows",
       "max_divergent_fraction", FindingLevel::warning},
      {"divergent-evaluations", "A branch diverges in more warp evaluations than the limit allows",
       "max_divergent", FindingLevel::warning},
      {"simd-efficiency", "A statement runs with fewer active lanes per warp than the limit asks",
       "min_simd_efficiency", FindingLevel::warning},
      {"partial-barrier", "Only part of a block reaches a __syncthreads() (undefined behaviour)",
       "partial_barriers", FindingLevel::warning},
      {"sector-efficiency", "A statement's global accesses use less of their 32-byte sectors than "
       "the limit asks", "min_sector_efficiency", FindingLevel::warning},
      {"sectors-per-request", "A statement's global requests touch more sectors than the limit "
       "allows", "max_sectors_per_request", FindingLevel::warning},
      {"bank-conflicts-per-request", "A statement's shared requests meet more bank conflicts per "
       "request than the limit allows", "max_bank_conflicts_per_request", FindingLevel::warning},
      {"bank-conflicts", "A statement's shared requests meet more bank conflicts than the limit "
       "allows", "max_bank_conflicts", FindingLevel::warning},
      {"divergence-regressed", "A branch diverges in more warp evaluations than in the baseline",
       "", FindingLevel::warning},
      {"simd-efficiency-regressed", "A statement's SIMD efficiency is lower than in the baseline",
       "", FindingLevel::warning},
      {"sectors-regressed", "A statement's global accesses touch more sectors than in the baseline",
       "", FindingLevel::warning},
      {"bank-conflicts-regressed", "A statement's shared accesses meet more bank conflicts than in "
       "the baseline", "", FindingLevel::warning},
      {"partial-barrier-regressed", "A barrier is reached in part by more block executions than in "
       "the baseline", "", FindingLevel::warning},
      {"baseline-moved", "A statement of the baseline now starts elsewhere (compared all the same)",
       "", FindingLevel::note},
      {"baseline-vanished", "A statement of the baseline has no statement now: write the baseline "
       "again", "", FindingLevel::note},
      {"unused-line-limits", "A [[kernel.line]] table matches no statement: its limits apply to "
       "nothing", "", FindingLevel::note},
  };
  return rules;
}

namespace {

Finding at_row(const CheckRow& row, const char* rule, std::string message) {
  Finding f;
  f.rule = rule;
  f.check = row.check;
  f.file = row.file;
  f.line = row.line;
  f.column = row.column;
  f.end_line = row.end_line;
  f.end_column = row.end_column;
  f.message = std::move(message);
  f.figures.emplace_back("kind", row.kind);
  return f;
}

bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return a == b;
  return fs::absolute(a).lexically_normal() == fs::absolute(b).lexically_normal();
}

std::string statement_words(const CheckRow& row) {
  if (row.kind == "statement") return "statement";
  if (row.condition) return row.kind + " condition";
  return row.kind;
}

}  // namespace

std::vector<Finding> check_limits(CheckKernel& kernel, const std::vector<CheckRow>& rows,
                                  const std::string& root) {
  std::vector<Finding> out;
  const std::string own = kernel.file;
  for (const CheckRow& row : rows) {
    CheckLimits l = kernel.limits;
    const std::string absolute = (fs::path(root) / row.file).string();
    for (LineLimits& line : kernel.lines) {
      if (line.line != row.line || (line.column && *line.column != row.column)) continue;
      if (!same_file(line.file.empty() ? own : line.file, absolute)) continue;
      line.used = true;
      l = overlay(l, line.limits);
    }
    const Count evals = row.warp_evaluations;
    if (row.condition && evals > 0) {
      const double fraction = ratio(row.divergent, evals);
      const std::string of = "(" + to_decimal(row.divergent) + " of " + to_decimal(evals) + ")";
      if (l.max_divergent_fraction && fraction > *l.max_divergent_fraction) {
        Finding f = at_row(row, "divergent-branch",
                           "branch diverges in " + percent(fraction) + " of its warp evaluations " +
                               of + ", limit " + percent(*l.max_divergent_fraction));
        f.figures.insert(f.figures.end(), {{"divergent", to_decimal(row.divergent)},
                                           {"warp_evaluations", to_decimal(evals)},
                                           {"divergent_fraction", number(fraction)},
                                           {"limit", number(*l.max_divergent_fraction)}});
        out.push_back(std::move(f));
      }
      if (l.max_divergent && row.divergent > Count{*l.max_divergent}) {
        Finding f = at_row(row, "divergent-evaluations",
                           "branch diverges in " + to_decimal(row.divergent) + " of its " +
                               to_decimal(evals) + " warp evaluations, limit " +
                               std::to_string(*l.max_divergent));
        f.figures.insert(f.figures.end(), {{"divergent", to_decimal(row.divergent)},
                                           {"warp_evaluations", to_decimal(evals)},
                                           {"limit", std::to_string(*l.max_divergent)}});
        out.push_back(std::move(f));
      }
    }
    if (evals > 0 && l.min_simd_efficiency) {
      const double simd = ratio(row.active_lanes, evals * static_cast<Count>(row.warp_size));
      if (simd < *l.min_simd_efficiency) {
        Finding f = at_row(row, "simd-efficiency",
                           statement_words(row) + " runs at " + percent(simd) +
                               " SIMD efficiency (" + to_decimal(row.active_lanes) +
                               " active lanes in " + to_decimal(evals) + " warp evaluations of " +
                               std::to_string(row.warp_size) + "), limit " +
                               percent(*l.min_simd_efficiency));
        f.figures.insert(f.figures.end(), {{"simd_efficiency", number(simd)},
                                           {"active_lanes", to_decimal(row.active_lanes)},
                                           {"warp_evaluations", to_decimal(evals)},
                                           {"limit", number(*l.min_simd_efficiency)}});
        out.push_back(std::move(f));
      }
    }
    if (row.barrier && l.partial_barriers && row.partial_block_executions > Count{*l.partial_barriers}) {
      Finding f = at_row(row, "partial-barrier",
                         "only part of the block reaches this barrier in " +
                             to_decimal(row.partial_block_executions) +
                             " block executions (undefined behaviour), limit " +
                             std::to_string(*l.partial_barriers));
      f.figures.insert(f.figures.end(),
                       {{"partial_block_executions", to_decimal(row.partial_block_executions)},
                        {"limit", std::to_string(*l.partial_barriers)}});
      out.push_back(std::move(f));
    }
    if (!row.memory) continue;
    const MemoryFigures& m = *row.memory;
    if (m.has_global && m.global_requests > 0) {
      const std::optional<double> eff = sector_efficiency(m);
      if (eff && l.min_sector_efficiency && *eff < *l.min_sector_efficiency) {
        Finding f = at_row(row, "sector-efficiency",
                           "global accesses use " + percent(*eff) + " of their sectors (" +
                               to_decimal(m.global_bytes) + " bytes asked in " +
                               to_decimal(m.global_sectors) + " sectors of 32 bytes), limit " +
                               percent(*l.min_sector_efficiency));
        f.figures.insert(f.figures.end(), {{"sector_efficiency", number(*eff)},
                                           {"global_bytes", to_decimal(m.global_bytes)},
                                           {"global_sectors", to_decimal(m.global_sectors)},
                                           {"limit", number(*l.min_sector_efficiency)}});
        out.push_back(std::move(f));
      }
      const double per_request = ratio(m.global_sectors, m.global_requests);
      if (l.max_sectors_per_request && per_request > *l.max_sectors_per_request) {
        Finding f = at_row(row, "sectors-per-request",
                           "global requests touch " + number(per_request) + " sectors each (" +
                               to_decimal(m.global_sectors) + " sectors in " +
                               to_decimal(m.global_requests) + " requests), limit " +
                               number(*l.max_sectors_per_request));
        f.figures.insert(f.figures.end(), {{"sectors_per_request", number(per_request)},
                                           {"global_sectors", to_decimal(m.global_sectors)},
                                           {"global_requests", to_decimal(m.global_requests)},
                                           {"limit", number(*l.max_sectors_per_request)}});
        out.push_back(std::move(f));
      }
    }
    if (m.has_shared && m.shared_requests > 0) {
      const double per_request = ratio(m.shared_bank_conflicts, m.shared_requests);
      if (l.max_bank_conflicts_per_request && per_request > *l.max_bank_conflicts_per_request) {
        Finding f = at_row(row, "bank-conflicts-per-request",
                           "shared requests meet " + number(per_request) +
                               " bank conflicts each (" + to_decimal(m.shared_bank_conflicts) +
                               " in " + to_decimal(m.shared_requests) + " requests), limit " +
                               number(*l.max_bank_conflicts_per_request));
        f.figures.insert(f.figures.end(), {{"bank_conflicts_per_request", number(per_request)},
                                           {"shared_bank_conflicts", to_decimal(m.shared_bank_conflicts)},
                                           {"shared_requests", to_decimal(m.shared_requests)},
                                           {"limit", number(*l.max_bank_conflicts_per_request)}});
        out.push_back(std::move(f));
      }
      if (l.max_bank_conflicts && m.shared_bank_conflicts > Count{*l.max_bank_conflicts}) {
        Finding f = at_row(row, "bank-conflicts",
                           "shared requests meet " + to_decimal(m.shared_bank_conflicts) +
                               " bank conflicts (in " + to_decimal(m.shared_requests) +
                               " requests), limit " + std::to_string(*l.max_bank_conflicts));
        f.figures.insert(f.figures.end(), {{"shared_bank_conflicts", to_decimal(m.shared_bank_conflicts)},
                                           {"shared_requests", to_decimal(m.shared_requests)},
                                           {"limit", std::to_string(*l.max_bank_conflicts)}});
        out.push_back(std::move(f));
      }
    }
  }
  return out;
}

std::vector<Finding> unused_line_limits(const CheckKernel& kernel, const std::string& config_file,
                                        const std::string& root) {
  std::vector<Finding> out;
  for (const LineLimits& line : kernel.lines) {
    if (line.used) continue;
    Finding f;
    f.rule = "unused-line-limits";
    f.level = FindingLevel::note;
    f.fails = false;
    f.check = kernel.name;
    f.file = relative_to_root(config_file, root);
    f.line = line.place.line;
    f.column = line.place.column;
    f.message = "no statement starts on line " + std::to_string(line.line) +
                (line.column ? ", column " + std::to_string(*line.column) : std::string()) +
                " of " + relative_to_root(line.file.empty() ? kernel.file : line.file, root) +
                ": these limits apply to nothing";
    out.push_back(std::move(f));
  }
  return out;
}

// ---- baselines ------------------------------------------------------------------------------

namespace {

std::string count_field(const std::optional<MemoryFigures>& m, bool global,
                        Count MemoryFigures::*field) {
  if (!m || !(global ? m->has_global : m->has_shared)) return "";
  return to_decimal((*m).*field);
}

// a / (b x wa) < c / (d x wc), exactly where the products fit in 128 bits.
bool fraction_below(Count a, Count b, Count c, Count d) {
  try {
    return sim::checked_mul(a, d) < sim::checked_mul(c, b);
  } catch (const std::overflow_error&) {
    return sim::to_double(a) / sim::to_double(b) < sim::to_double(c) / sim::to_double(d);
  }
}

std::string where(const CheckRow& row) {
  return std::to_string(row.line) + ":" + std::to_string(row.column);
}

}  // namespace

const CsvColumns<CheckRow>& baseline_columns() {
  static const CsvColumns<CheckRow> columns = {
      {"check", [](const CheckRow& r) { return r.check; }},
      {"file", [](const CheckRow& r) { return r.file; }},
      {"line", [](const CheckRow& r) { return std::to_string(r.line); }},
      {"column", [](const CheckRow& r) { return std::to_string(r.column); }},
      {"kind", [](const CheckRow& r) { return r.kind; }},
      {"warp_size", [](const CheckRow& r) { return std::to_string(r.warp_size); }},
      {"warp_evaluations", [](const CheckRow& r) { return to_decimal(r.warp_evaluations); }},
      {"divergent", [](const CheckRow& r) { return r.condition ? to_decimal(r.divergent) : ""; }},
      {"active_lanes", [](const CheckRow& r) { return to_decimal(r.active_lanes); }},
      {"partial_block_executions",
       [](const CheckRow& r) { return r.barrier ? to_decimal(r.partial_block_executions) : ""; }},
      {"global_requests",
       [](const CheckRow& r) { return count_field(r.memory, true, &MemoryFigures::global_requests); }},
      {"global_sectors",
       [](const CheckRow& r) { return count_field(r.memory, true, &MemoryFigures::global_sectors); }},
      {"global_bytes",
       [](const CheckRow& r) { return count_field(r.memory, true, &MemoryFigures::global_bytes); }},
      {"shared_requests",
       [](const CheckRow& r) { return count_field(r.memory, false, &MemoryFigures::shared_requests); }},
      {"shared_wavefronts",
       [](const CheckRow& r) { return count_field(r.memory, false, &MemoryFigures::shared_wavefronts); }},
      {"shared_bank_conflicts", [](const CheckRow& r) {
         return count_field(r.memory, false, &MemoryFigures::shared_bank_conflicts);
       }},
      {"statement", [](const CheckRow& r) { return r.text; }},
  };
  return columns;
}

void write_baseline(std::ostream& out, const std::vector<CheckRow>& rows) {
  baseline_columns().write(out, rows);
}

std::vector<CheckRow> read_baseline(const std::string& text, const std::string& source) {
  CsvTokenizer csv(text, source);
  if (csv.at_end()) throw InvalidInput(source + ": empty: not a baseline written by --write-baseline");
  const std::string expected = baseline_columns().header();
  const CsvRecord header = csv.next();
  std::string got;
  for (std::size_t i = 0; i < header.fields.size(); ++i) got += (i ? "," : "") + header.fields[i];
  if (got != expected)
    throw InvalidInput(source + ":" + std::to_string(header.line) + ": the header is not " +
                       sim::quote_value(expected) + " (write the baseline with warpdiv check "
                       "CONFIG --write-baseline FILE)");
  const std::vector<std::string> names = baseline_columns().names();
  std::vector<CheckRow> rows;
  while (!csv.at_end()) {
    const CsvRecord r = csv.next();
    if (r.fields.size() == 1 && r.fields[0].empty()) continue;  // a blank line
    const auto fail = [&](std::size_t column, const std::string& what) {
      throw InvalidInput(source + ":" + std::to_string(r.line) + ": " + names[column] + " " +
                         what);
    };
    if (r.fields.size() != names.size())
      throw InvalidInput(source + ":" + std::to_string(r.line) + ": " +
                         std::to_string(r.fields.size()) + " fields, the header has " +
                         std::to_string(names.size()));
    const auto count = [&](std::size_t column) -> std::optional<Count> {
      if (r.fields[column].empty()) return std::nullopt;
      try {
        return sim::parse_count(r.fields[column]);
      } catch (const std::exception&) {
        fail(column, "must be a count (decimal digits), got " + sim::quote_value(r.fields[column]));
      }
      return std::nullopt;
    };
    const auto required = [&](std::size_t column) {
      const std::optional<Count> c = count(column);
      if (!c) fail(column, "is empty");
      return *c;
    };
    const auto small = [&](std::size_t column, std::int64_t min, std::int64_t max) {
      const auto v = parse_decimal_integer(r.fields[column], min, max);
      if (!v)
        fail(column, "must be an integer from " + std::to_string(min) + " to " +
                         std::to_string(max) + ", got " + sim::quote_value(r.fields[column]));
      return *v;
    };
    CheckRow row;
    row.baseline_line = r.line;
    row.check = r.fields[0];
    row.file = r.fields[1];
    row.line = static_cast<std::uint32_t>(small(2, 0, 4294967295));
    row.column = static_cast<std::uint32_t>(small(3, 0, 4294967295));
    row.kind = r.fields[4];
    row.warp_size = static_cast<int>(small(5, 1, 64));
    row.warp_evaluations = required(6);
    const std::optional<Count> divergent = count(7);
    row.condition = divergent.has_value();
    row.divergent = divergent.value_or(0);
    row.active_lanes = required(8);
    const std::optional<Count> partial = count(9);
    row.barrier = partial.has_value();
    row.partial_block_executions = partial.value_or(0);
    MemoryFigures m;
    const std::optional<Count> gr = count(10), gs = count(11), gb = count(12);
    const std::optional<Count> sr = count(13), sw = count(14), sc = count(15);
    m.has_global = gr.has_value();
    m.global_requests = gr.value_or(0);
    m.global_sectors = gs.value_or(0);
    m.global_bytes = gb.value_or(0);
    m.has_shared = sr.has_value();
    m.shared_requests = sr.value_or(0);
    m.shared_wavefronts = sw.value_or(0);
    m.shared_bank_conflicts = sc.value_or(0);
    if (m.has_global || m.has_shared) row.memory = m;
    row.text = r.fields[16];
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<Finding> compare_with_baseline(const std::vector<CheckRow>& rows,
                                           const std::vector<CheckRow>& baseline,
                                           const std::vector<std::string>& checks,
                                           bool stale_fails) {
  std::vector<Finding> out;
  using Key = std::tuple<std::string, std::string, std::uint32_t, std::uint32_t, std::string>;
  std::map<Key, std::size_t> exact;
  for (std::size_t i = 0; i < baseline.size(); ++i) {
    const CheckRow& b = baseline[i];
    exact.emplace(Key{b.check, b.file, b.line, b.column, b.kind}, i);
  }
  std::vector<bool> used(baseline.size(), false);
  std::vector<std::optional<std::size_t>> match(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CheckRow& r = rows[i];
    const auto it = exact.find(Key{r.check, r.file, r.line, r.column, r.kind});
    if (it != exact.end() && !used[it->second]) {
      match[i] = it->second;
      used[it->second] = true;
    }
  }
  // The rest by check, file, kind and text, in order: a statement that moved.
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (match[i]) continue;
    const CheckRow& r = rows[i];
    for (std::size_t j = 0; j < baseline.size(); ++j) {
      const CheckRow& b = baseline[j];
      if (used[j] || b.check != r.check || b.file != r.file || b.kind != r.kind || b.text != r.text)
        continue;
      match[i] = j;
      used[j] = true;
      Finding f = at_row(r, "baseline-moved",
                         statement_words(r) + " " + sim::quote_value(r.text) + " was at " +
                             where(b) + " in the baseline; compared with that row");
      f.level = FindingLevel::note;
      f.fails = false;
      f.figures.emplace_back("baseline_line", std::to_string(b.line));
      f.figures.emplace_back("baseline_column", std::to_string(b.column));
      out.push_back(std::move(f));
      break;
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!match[i]) continue;
    const CheckRow& r = rows[i];
    const CheckRow& b = baseline[*match[i]];
    const std::string was = " (baseline " + to_decimal(b.warp_evaluations) + " warp evaluations, now " +
                            to_decimal(r.warp_evaluations) + ")";
    if (r.condition && b.condition && r.divergent > b.divergent) {
      Finding f = at_row(r, "divergence-regressed",
                         "branch diverges in " + to_decimal(r.divergent) +
                             " warp evaluations, " + to_decimal(b.divergent) + " in the baseline" + was);
      f.figures.insert(f.figures.end(), {{"divergent", to_decimal(r.divergent)},
                                         {"baseline_divergent", to_decimal(b.divergent)}});
      out.push_back(std::move(f));
    }
    const Count now_lanes = r.warp_evaluations * static_cast<Count>(r.warp_size);
    const Count then_lanes = b.warp_evaluations * static_cast<Count>(b.warp_size);
    if (now_lanes > 0 && then_lanes > 0 &&
        fraction_below(r.active_lanes, now_lanes, b.active_lanes, then_lanes)) {
      const double now = ratio(r.active_lanes, now_lanes), then = ratio(b.active_lanes, then_lanes);
      Finding f = at_row(r, "simd-efficiency-regressed",
                         statement_words(r) + " runs at " + percent(now) +
                             " SIMD efficiency, " + percent(then) + " in the baseline" + was);
      f.figures.insert(f.figures.end(), {{"simd_efficiency", number(now)},
                                         {"baseline_simd_efficiency", number(then)}});
      out.push_back(std::move(f));
    }
    if (r.barrier && b.barrier && r.partial_block_executions > b.partial_block_executions) {
      Finding f = at_row(r, "partial-barrier-regressed",
                         "only part of the block reaches this barrier in " +
                             to_decimal(r.partial_block_executions) + " block executions, " +
                             to_decimal(b.partial_block_executions) + " in the baseline");
      f.figures.insert(f.figures.end(),
                       {{"partial_block_executions", to_decimal(r.partial_block_executions)},
                        {"baseline_partial_block_executions", to_decimal(b.partial_block_executions)}});
      out.push_back(std::move(f));
    }
    if (r.memory && b.memory) {
      const MemoryFigures& m = *r.memory;
      const MemoryFigures& o = *b.memory;
      if (m.has_global && o.has_global && m.global_sectors > o.global_sectors) {
        Finding f = at_row(r, "sectors-regressed",
                           "global accesses touch " + to_decimal(m.global_sectors) + " sectors in " +
                               to_decimal(m.global_requests) + " requests, " +
                               to_decimal(o.global_sectors) + " in " + to_decimal(o.global_requests) +
                               " in the baseline");
        f.figures.insert(f.figures.end(), {{"global_sectors", to_decimal(m.global_sectors)},
                                           {"baseline_global_sectors", to_decimal(o.global_sectors)}});
        out.push_back(std::move(f));
      }
      if (m.has_shared && o.has_shared && m.shared_bank_conflicts > o.shared_bank_conflicts) {
        Finding f = at_row(r, "bank-conflicts-regressed",
                           "shared requests meet " + to_decimal(m.shared_bank_conflicts) +
                               " bank conflicts, " + to_decimal(o.shared_bank_conflicts) +
                               " in the baseline");
        f.figures.insert(f.figures.end(),
                         {{"shared_bank_conflicts", to_decimal(m.shared_bank_conflicts)},
                          {"baseline_shared_bank_conflicts", to_decimal(o.shared_bank_conflicts)}});
        out.push_back(std::move(f));
      }
    }
  }
  for (std::size_t j = 0; j < baseline.size(); ++j) {
    if (used[j]) continue;
    const CheckRow& b = baseline[j];
    const bool known = std::find(checks.begin(), checks.end(), b.check) != checks.end();
    Finding f = at_row(b, "baseline-vanished",
                       statement_words(b) + " " + sim::quote_value(b.text) +
                           " of the baseline (its line " + std::to_string(b.baseline_line) +
                           ") " + (known ? "has no statement now at " + where(b) + " or elsewhere"
                                         : "belongs to no [[kernel]] now (check " +
                                               sim::quote_value(b.check) + ")") +
                           ": write the baseline again");
    f.level = FindingLevel::note;
    f.fails = stale_fails;
    out.push_back(std::move(f));
  }
  return out;
}

std::size_t CheckOutcome::failing() const {
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.fails; }));
}

void write_check_text(std::ostream& out, const CheckOutcome& outcome) {
  std::size_t limits = 0, regressions = 0, notes = 0;
  for (const Finding& f : outcome.findings) {
    out << f.file << ':' << f.line << ':' << f.column << ": "
        << (f.level == FindingLevel::warning ? "warning" : "note") << ": " << sim::one_line(f.message)
        << " (check " << sim::quote_value(f.check) << ") [" << f.rule << "]\n";
    if (f.level == FindingLevel::note) ++notes;
    else if (f.rule.find("regressed") != std::string::npos) ++regressions;
    else ++limits;
  }
  const auto plural = [](std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  out << "warpdiv check: " << plural(outcome.kernels, "kernel", "kernels") << ", "
      << plural(outcome.statements, "statement", "statements") << ": "
      << plural(limits, "limit crossed", "limits crossed");
  if (outcome.baseline) out << ", " << plural(regressions, "regression", "regressions");
  if (notes > 0) out << ", " << plural(notes, "note", "notes");
  out << ": " << (outcome.passed() ? "passed" : "FAILED") << '\n';
}

}  // namespace warpdiv::analysis
