#include "analysis/check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "analysis/check_source.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"

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

}  // namespace

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
      {"sector-efficiency",
       "A statement's global accesses use less of their 32-byte sectors than "
       "the limit asks",
       "min_sector_efficiency", FindingLevel::warning},
      {"sectors-per-request",
       "A statement's global requests touch more sectors than the limit "
       "allows",
       "max_sectors_per_request", FindingLevel::warning},
      {"bank-conflicts-per-request",
       "A statement's shared requests meet more bank conflicts per "
       "request than the limit allows",
       "max_bank_conflicts_per_request", FindingLevel::warning},
      {"bank-conflicts",
       "A statement's shared requests meet more bank conflicts than the limit "
       "allows",
       "max_bank_conflicts", FindingLevel::warning},
      {"single-lane-branch",
       "A finding at a branch only one lane of a warp takes (if (tid == 0)) "
       "or in its taken side: reported with report_single_lane = true",
       "report_single_lane", FindingLevel::warning},
      {"divergence-regressed",
       "A branch diverges in a larger share of its warp evaluations than "
       "in the baseline",
       "", FindingLevel::warning},
      {"simd-efficiency-regressed", "A statement's SIMD efficiency is lower than in the baseline", "",
       FindingLevel::warning},
      {"sector-efficiency-regressed",
       "A statement's global accesses use less of their sectors than "
       "in the baseline",
       "", FindingLevel::warning},
      {"bank-conflicts-regressed",
       "A statement's shared requests meet more bank conflicts per "
       "request than in the baseline",
       "", FindingLevel::warning},
      {"partial-barrier-regressed",
       "A larger share of a barrier's block executions reach it only "
       "in part than in the baseline",
       "", FindingLevel::warning},
      {"memory-not-counted",
       "A statement under a memory limit has accesses the model cannot place: "
       "the limit cannot be judged there",
       "", FindingLevel::warning},
      {"undefined-behaviour",
       "A statement's access meets undefined behaviour at this launch (an address that overflows, "
       "a misaligned address: the GPU stops the kernel there), whatever the limits",
       "", FindingLevel::error},
      {"baseline-vanished",
       "A statement of the baseline has no statement now: write the baseline "
       "again",
       "", FindingLevel::note},
      {"unused-line-limits",
       "A [[kernel.statement]] or [[kernel.line]] table matches no "
       "statement: its limits apply to nothing",
       "", FindingLevel::note},
      {"line-keyed-limits",
       "A [[kernel.line]] table keys limits by a line number, which edits "
       "move: write the [[kernel.statement]] the note gives",
       "", FindingLevel::note},
      {"bad-suppression", "A warpdiv: allow(...) comment names neither a rule nor a group", "",
       FindingLevel::note},
  };
  return rules;
}

namespace {

bool allows(const CheckRow& row, const std::string& rule) {
  return std::find(row.allowed.begin(), row.allowed.end(), rule) != row.allowed.end();
}

// A finding at a row: in a single-lane branch, under that rule; allowed by a comment, suppressed.
Finding at_row(const CheckRow& row, const char* rule, std::string message) {
  Finding f;
  f.rule = rule;
  if (!row.single_lane.empty() && std::string(rule).find("baseline") == std::string::npos) {
    f.rule = "single-lane-branch";
    message = (row.single_lane == std::to_string(row.line) + ":" + std::to_string(row.column)
                   ? "single-lane branch: "
                   : "in the single-lane branch at " + row.single_lane + ": ") +
              message + " [" + rule + "]";
    f.figures.emplace_back("rule", rule);
  }
  f.suppressed = allows(row, rule) || allows(row, f.rule);
  f.fails = !f.suppressed;
  f.check = row.check;
  f.file = row.file;
  f.line = row.line;
  f.column = row.column;
  f.end_line = row.end_line;
  f.end_column = row.end_column;
  f.message = row.place_shared ? "in " + sim::quote_value(row.function) + ": " + message : std::move(message);
  f.figures.emplace_back("kind", row.kind);
  return f;
}

bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return a == b;
  return fs::absolute(a).lexically_normal() == fs::absolute(b).lexically_normal();
}

// `key` without the bracketed group it ends with ("f(int *, int)" -> "f", "g<16>" -> "g"), or
// itself when it does not end with `close`.
std::string without_last_group(const std::string& key, char open, char close) {
  if (key.empty() || key.back() != close) return key;
  int depth = 0;
  for (std::size_t i = key.size(); i-- > 0;) {
    if (key[i] == close) ++depth;
    if (key[i] == open && --depth == 0) return key.substr(0, i);
  }
  return key;
}

bool function_matches(const std::string& configured, const std::string& key) {
  if (configured == key) return true;
  const std::string qualified = without_last_group(without_last_group(key, '(', ')'), '<', '>');
  if (configured == qualified) return true;
  const std::size_t scope = qualified.rfind("::");
  return scope != std::string::npos && configured == qualified.substr(scope + 2);
}

bool matches(const StatementLimits& s, const CheckRow& row) {
  return statement_token_key(s.statement) == statement_token_key(row.statement) &&
         (!s.function || function_matches(*s.function, row.function)) &&
         (!s.ordinal || *s.ordinal == row.ordinal);
}

// The [[kernel.line]] tables of the row's line (a table without `file` is for the kernel's own).
std::vector<LineLimits*> line_tables(CheckKernel& kernel, const CheckRow& row, const std::string& root) {
  std::vector<LineLimits*> out;
  const std::string absolute = (fs::path(root) / row.file).string();
  for (LineLimits& line : kernel.lines) {
    if (line.line != row.line || (line.column && *line.column != row.column)) continue;
    if (same_file(line.file.empty() ? kernel.file : line.file, absolute)) out.push_back(&line);
  }
  return out;
}

std::string statement_words(const CheckRow& row) {
  if (row.kind == "statement") return "statement";
  if (row.condition) return row.kind + " condition";
  return row.kind;
}

bool has_memory_limit(const CheckLimits& l) {
  return l.min_sector_efficiency || l.max_sectors_per_request || l.max_bank_conflicts_per_request ||
         l.max_bank_conflicts;
}

// A statement under a memory limit whose accesses are not all counted: the limit cannot be
// judged, so the gate does not pass it silently.
Finding not_counted(const CheckRow& row) {
  std::string why;
  for (const std::string& access : row.not_counted) why += (why.empty() ? "" : "; ") + access;
  Finding f = at_row(row, "memory-not-counted",
                     std::to_string(row.not_counted.size()) + " of this statement's accesses " +
                         (row.not_counted.size() == 1 ? "is" : "are") +
                         " not counted, so its memory limits cannot be judged: " + why);
  f.figures.emplace_back("accesses_not_counted", std::to_string(row.not_counted.size()));
  return f;
}

// A statement whose access meets undefined behaviour: a defect whatever the limits, never
// folded into the single-lane idiom's rule.
Finding undefined_behaviour(const CheckRow& row) {
  CheckRow plain = row;
  plain.single_lane.clear();
  std::string why;
  for (const std::string& access : row.undefined) why += (why.empty() ? "" : "; ") + access;
  Finding f = at_row(plain, "undefined-behaviour", "undefined behaviour in an access: " + why);
  f.level = FindingLevel::error;
  f.figures.emplace_back("accesses", std::to_string(row.undefined.size()));
  return f;
}

}  // namespace

std::vector<Finding> check_limits(CheckKernel& kernel, const std::vector<CheckRow>& rows,
                                  const std::string& root) {
  std::vector<Finding> out;
  for (const CheckRow& row : rows) {
    CheckLimits l = kernel.limits;
    for (StatementLimits& s : kernel.statements) {
      if (!matches(s, row)) continue;
      s.used = true;
      l = overlay(l, s.limits);
    }
    for (LineLimits* line : line_tables(kernel, row, root)) {
      line->used = true;
      l = overlay(l, line->limits);
    }
    const Count evals = row.branch_evaluations;
    if (row.condition && evals > 0) {
      const double fraction = ratio(row.divergent, evals);
      const std::string of = "(" + to_decimal(row.divergent) + " of " + to_decimal(evals) + ")";
      if (l.max_divergent_fraction && fraction > *l.max_divergent_fraction) {
        Finding f = at_row(row, "divergent-branch",
                           "branch diverges in " + percent(fraction) + " of its warp evaluations " + of +
                               ", limit " + percent(*l.max_divergent_fraction));
        f.figures.insert(f.figures.end(), {{"divergent", to_decimal(row.divergent)},
                                           {"warp_evaluations", to_decimal(evals)},
                                           {"divergent_fraction", number(fraction)},
                                           {"limit", number(*l.max_divergent_fraction)}});
        out.push_back(std::move(f));
      }
      if (l.max_divergent && row.divergent > Count{*l.max_divergent}) {
        Finding f =
            at_row(row, "divergent-evaluations",
                   "branch diverges in " + to_decimal(row.divergent) + " of its " + to_decimal(evals) +
                       " warp evaluations, limit " + std::to_string(*l.max_divergent));
        f.figures.insert(f.figures.end(), {{"divergent", to_decimal(row.divergent)},
                                           {"warp_evaluations", to_decimal(evals)},
                                           {"limit", std::to_string(*l.max_divergent)}});
        out.push_back(std::move(f));
      }
    }
    const Count runs = row.warp_evaluations;
    if (runs > 0 && l.min_simd_efficiency) {
      const double simd = ratio(row.active_lanes, runs * static_cast<Count>(row.warp_size));
      if (simd < *l.min_simd_efficiency) {
        Finding f = at_row(row, "simd-efficiency",
                           statement_words(row) + " runs at " + percent(simd) + " SIMD efficiency (" +
                               to_decimal(row.active_lanes) + " active lanes in " + to_decimal(runs) +
                               " warp evaluations of " + std::to_string(row.warp_size) + "), limit " +
                               percent(*l.min_simd_efficiency));
        f.figures.insert(f.figures.end(), {{"simd_efficiency", number(simd)},
                                           {"active_lanes", to_decimal(row.active_lanes)},
                                           {"warp_evaluations", to_decimal(runs)},
                                           {"limit", number(*l.min_simd_efficiency)}});
        out.push_back(std::move(f));
      }
    }
    if (row.barrier && l.partial_barriers && row.partial_block_executions > Count{*l.partial_barriers}) {
      Finding f = at_row(
          row, "partial-barrier",
          "only part of the block reaches this barrier in " + to_decimal(row.partial_block_executions) +
              " block executions (undefined behaviour), limit " + std::to_string(*l.partial_barriers));
      f.figures.insert(f.figures.end(),
                       {{"partial_block_executions", to_decimal(row.partial_block_executions)},
                        {"limit", std::to_string(*l.partial_barriers)}});
      out.push_back(std::move(f));
    }
    if (!row.not_counted.empty() && has_memory_limit(l)) out.push_back(not_counted(row));
    if (!row.undefined.empty()) out.push_back(undefined_behaviour(row));
    if (!row.memory) continue;
    const MemoryFigures& m = *row.memory;
    if (m.has_global && m.global_requests > 0) {
      const std::optional<double> eff = sector_efficiency(m);
      if (eff && l.min_sector_efficiency && *eff < *l.min_sector_efficiency) {
        Finding f =
            at_row(row, "sector-efficiency",
                   "global accesses use " + percent(*eff) + " of their sectors (" +
                       to_decimal(m.global_bytes) + " bytes asked in " + to_decimal(m.global_sectors) +
                       " sectors of 32 bytes), limit " + percent(*l.min_sector_efficiency));
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
                               to_decimal(m.global_sectors) + " sectors in " + to_decimal(m.global_requests) +
                               " requests), limit " + number(*l.max_sectors_per_request));
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
                           "shared requests meet " + number(per_request) + " bank conflicts each (" +
                               to_decimal(m.shared_bank_conflicts) + " in " + to_decimal(m.shared_requests) +
                               " requests), limit " + number(*l.max_bank_conflicts_per_request));
        f.figures.insert(f.figures.end(), {{"bank_conflicts_per_request", number(per_request)},
                                           {"shared_bank_conflicts", to_decimal(m.shared_bank_conflicts)},
                                           {"shared_requests", to_decimal(m.shared_requests)},
                                           {"limit", number(*l.max_bank_conflicts_per_request)}});
        out.push_back(std::move(f));
      }
      if (l.max_bank_conflicts && m.shared_bank_conflicts > Count{*l.max_bank_conflicts}) {
        Finding f = at_row(row, "bank-conflicts",
                           "shared requests meet " + to_decimal(m.shared_bank_conflicts) +
                               " bank conflicts (in " + to_decimal(m.shared_requests) + " requests), limit " +
                               std::to_string(*l.max_bank_conflicts));
        f.figures.insert(f.figures.end(), {{"shared_bank_conflicts", to_decimal(m.shared_bank_conflicts)},
                                           {"shared_requests", to_decimal(m.shared_requests)},
                                           {"limit", std::to_string(*l.max_bank_conflicts)}});
        out.push_back(std::move(f));
      }
    }
  }
  return out;
}

namespace {

Finding config_note(const CheckKernel& kernel, const char* rule, const ConfigPlace& place,
                    const std::string& config_file, const std::string& root, std::string message) {
  Finding f;
  f.rule = rule;
  f.level = FindingLevel::note;
  f.fails = false;
  f.check = kernel.name;
  f.file = relative_to_root(config_file, root);
  f.line = place.line;
  f.column = place.column;
  f.message = std::move(message);
  return f;
}

}  // namespace

namespace {

std::string statement_key_text(const CheckRow& row) {
  return "function = " + sim::quote_value(row.function) + ", statement = " + sim::quote_value(row.statement) +
         (row.ordinal > 1 ? ", ordinal = " + std::to_string(row.ordinal) : std::string());
}

// "; did you mean 'TEXT'?" for the statement of the table's function whose text is nearest the
// table's, or "" when none is near.
std::string nearest_statement(const StatementLimits& s, const std::vector<CheckRow>& rows) {
  std::vector<std::string> texts;
  for (const CheckRow& row : rows)
    if (!s.function || function_matches(*s.function, row.function)) texts.push_back(row.statement);
  const std::string near = sim::closest_name(s.statement, texts);
  return near.empty() ? "" : "; did you mean " + sim::quote_value(near) + "?";
}

}  // namespace

std::vector<Finding> config_table_notes(const CheckKernel& kernel, const std::vector<CheckRow>& rows,
                                        const std::string& config_file, const std::string& root) {
  std::vector<Finding> out;
  for (const StatementLimits& s : kernel.statements) {
    if (s.used) continue;
    out.push_back(config_note(
        kernel, "unused-line-limits", s.place, config_file, root,
        "no statement " + sim::quote_value(s.statement) +
            (s.function ? " in " + sim::quote_value(*s.function) : std::string()) +
            (s.ordinal ? " (the " + std::to_string(*s.ordinal) + ". of that text)" : std::string()) +
            " (statements are compared token by token, whitespace aside): these "
            "limits apply to nothing" +
            nearest_statement(s, rows)));
  }
  CheckKernel copy = kernel;  // line_tables() hands out tables to mark
  for (std::size_t i = 0; i < kernel.lines.size(); ++i) {
    const LineLimits& line = kernel.lines[i];
    const std::string where = "line " + std::to_string(line.line) +
                              (line.column ? ", column " + std::to_string(*line.column) : std::string()) +
                              " of " + relative_to_root(line.file.empty() ? kernel.file : line.file, root);
    std::string keys;
    for (const CheckRow& row : rows)
      for (LineLimits* l : line_tables(copy, row, root))
        if (l == &copy.lines[i]) keys += std::string(keys.empty() ? "" : "; ") + statement_key_text(row);
    if (keys.empty())
      out.push_back(config_note(kernel, "unused-line-limits", line.place, config_file, root,
                                "no statement starts on " + where + ": these limits apply to nothing"));
    else
      out.push_back(config_note(kernel, "line-keyed-limits", line.place, config_file, root,
                                "[[kernel.line]] keys these limits by " + where +
                                    ", which an edit above moves: write [[kernel.statement]] with " + keys +
                                    " instead"));
  }
  return out;
}

// ---- baselines ------------------------------------------------------------------------------

namespace {

std::string count_field(const std::optional<MemoryFigures>& m, bool global, Count MemoryFigures::*field) {
  if (!m || !(global ? m->has_global : m->has_shared)) return "";
  return to_decimal((*m).*field);
}

// The tolerance as the decimal the configuration wrote, p / 10^k (0.02 is 2 / 100), for k up to 9;
// nullopt for a double no such decimal reads as.
std::optional<std::pair<Count, Count>> decimal_fraction(double tolerance) {
  Count q = 1;
  for (int k = 0; k <= 9; ++k, q *= 10) {
    const double scaled = std::round(tolerance * static_cast<double>(q));
    if (scaled / static_cast<double>(q) == tolerance) return std::make_pair(static_cast<Count>(scaled), q);
  }
  return std::nullopt;
}

// a / b < c / d - t (b, d > 0), exactly, with t the decimal the configuration gave, where the
// products fit in 128 bits (a * d * q + p * b * d < c * b * q for t = p / q); in doubles where not.
bool fraction_below(Count a, Count b, Count c, Count d, double tolerance) {
  const std::optional<std::pair<Count, Count>> t = decimal_fraction(tolerance);
  try {
    if (!t) throw std::overflow_error("no decimal");
    const auto [p, q] = *t;
    using sim::checked_mul;
    const Count left = checked_mul(checked_mul(a, d), q);
    const Count slack = checked_mul(checked_mul(p, b), d);
    if (left + slack < left) throw std::overflow_error("sum");  // wrapped
    return left + slack < checked_mul(checked_mul(c, b), q);
  } catch (const std::overflow_error&) {
    return ratio(a, b) < ratio(c, d) - tolerance;
  }
}

// What a baseline row is matched by: check, function, the statement's tokens, ordinal.
using BaselineKey = std::tuple<std::string, std::string, std::string, std::uint32_t>;
BaselineKey baseline_key(const CheckRow& row) {
  return {row.check, row.function, statement_token_key(row.statement), row.ordinal};
}

std::string key_words(const CheckRow& row) {
  return statement_words(row) + " " + sim::quote_value(row.statement) +
         (row.ordinal > 1 ? " (the " + std::to_string(row.ordinal) + ". of that text)" : std::string()) +
         " in " + sim::quote_value(row.function);
}

// The baseline's text columns (check, function, statement, kind, file, within) hold any byte: a
// byte the CSV reader takes as binary data (a control character other than tab, LF and CR; DEL),
// the escape character '`' itself, and a blank (space, tab) at either end of the text, which the
// reader trims, are written as '`' and two upper-case hex digits. Any other '`' reads as itself.
constexpr char kBaselineEscape = '`';

bool is_baseline_escaped(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f || c == kBaselineEscape;
}

std::string baseline_text(const std::string& text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool edge_blank = (c == ' ' || c == '\t') && (i == 0 || i + 1 == text.size());
    if (!is_baseline_escaped(c) && !edge_blank) {
      out += text[i];
      continue;
    }
    out += kBaselineEscape;
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

int upper_hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The text baseline_text wrote: each '`HH' it writes read back as its byte.
std::string baseline_text_read(const std::string& field) {
  std::string out;
  for (std::size_t i = 0; i < field.size(); ++i) {
    const int high = field[i] == kBaselineEscape && i + 2 < field.size() ? upper_hex_digit(field[i + 1]) : -1;
    const int low = high >= 0 ? upper_hex_digit(field[i + 2]) : -1;
    const auto byte = static_cast<unsigned char>(low >= 0 ? high * 16 + low : 0);
    if (low < 0 || !(is_baseline_escaped(byte) || byte == ' ' || byte == '\t')) {
      out += field[i];
      continue;
    }
    out += static_cast<char>(byte);
    i += 2;
  }
  return out;
}

}  // namespace

const CsvColumns<CheckRow>& baseline_columns() {
  static const CsvColumns<CheckRow> columns = {
      {"check", [](const CheckRow& r) { return baseline_text(r.check); }},
      {"function", [](const CheckRow& r) { return baseline_text(r.function); }},
      {"statement", [](const CheckRow& r) { return baseline_text(r.statement); }},
      {"ordinal", [](const CheckRow& r) { return std::to_string(r.ordinal); }},
      {"kind", [](const CheckRow& r) { return baseline_text(r.kind); }},
      {"file", [](const CheckRow& r) { return baseline_text(r.file); }},
      {"line", [](const CheckRow& r) { return std::to_string(r.line); }},
      {"column", [](const CheckRow& r) { return std::to_string(r.column); }},
      {"warp_size", [](const CheckRow& r) { return std::to_string(r.warp_size); }},
      {"warp_evaluations", [](const CheckRow& r) { return to_decimal(r.warp_evaluations); }},
      {"active_lanes", [](const CheckRow& r) { return to_decimal(r.active_lanes); }},
      {"branch_evaluations",
       [](const CheckRow& r) { return r.condition ? to_decimal(r.branch_evaluations) : ""; }},
      {"divergent", [](const CheckRow& r) { return r.condition ? to_decimal(r.divergent) : ""; }},
      {"block_executions", [](const CheckRow& r) { return r.barrier ? to_decimal(r.block_executions) : ""; }},
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
      {"shared_bank_conflicts",
       [](const CheckRow& r) { return count_field(r.memory, false, &MemoryFigures::shared_bank_conflicts); }},
      {"within", [](const CheckRow& r) { return baseline_text(r.within.value_or("")); }},
  };
  return columns;
}

void write_baseline(std::ostream& out, const std::vector<CheckRow>& rows) {
  baseline_columns().write(out, rows);
}

namespace {

// One baseline record as a row (its fields' count checked).
class BaselineRecord {
 public:
  BaselineRecord(const CsvRecord& r, const std::string& source)
      : r_(r), source_(source), names_(baseline_columns().names()) {}

  [[noreturn]] void fail(std::size_t column, const std::string& what) const {
    throw InvalidInput(Diag::file_format, source_ + ":" + std::to_string(r_.line) + ": column '" +
                                              names_[column] + "': " + what);
  }
  std::optional<Count> count(std::size_t column) const {
    if (r_.fields[column].empty()) return std::nullopt;
    try {
      return sim::parse_count(r_.fields[column]);
    } catch (const std::exception&) {
      fail(column, "must be a count from 0 to 2^128 - 1 (" + to_decimal(sim::kMaxCount) +
                       "), in decimal digits, got " + sim::quote_value(r_.fields[column]));
    }
  }
  // `column`'s figure must be at most `bound_column`'s (`why` says why).
  void at_most(std::size_t column, Count value, std::size_t bound_column, Count bound,
               const std::string& why) const {
    if (value > bound)
      fail(column, to_decimal(value) + " is more than " + names_[bound_column] + " (" + to_decimal(bound) +
                       "): " + why);
  }
  Count required(std::size_t column) const {
    const std::optional<Count> c = count(column);
    if (!c) fail(column, "is empty");
    return *c;
  }
  std::int64_t small(std::size_t column, std::int64_t min, std::int64_t max) const {
    const auto v = parse_decimal_integer(r_.fields[column], min, max);
    if (!v)
      fail(column, "must be an integer from " + std::to_string(min) + " to " + std::to_string(max) +
                       ", got " + sim::quote_value(r_.fields[column]));
    return *v;
  }

  CheckRow row() const {
    CheckRow row;
    row.baseline_line = r_.line;
    row.check = baseline_text_read(r_.fields[0]);
    row.function = baseline_text_read(r_.fields[1]);
    row.statement = baseline_text_read(r_.fields[2]);
    row.ordinal = static_cast<std::uint32_t>(small(3, 1, 4294967295));
    row.kind = baseline_text_read(r_.fields[4]);
    row.file = baseline_text_read(r_.fields[5]);
    row.line = static_cast<std::uint32_t>(small(6, 0, 4294967295));
    row.column = static_cast<std::uint32_t>(small(7, 0, 4294967295));
    row.warp_size = static_cast<int>(small(8, 1, 64));
    row.warp_evaluations = required(9);
    row.active_lanes = required(10);
    const std::optional<Count> branch = count(11);
    row.condition = branch.has_value();
    row.branch_evaluations = branch.value_or(0);
    row.divergent = row.condition ? required(12) : 0;
    const std::optional<Count> blocks = count(13);
    row.barrier = blocks.has_value();
    row.block_executions = blocks.value_or(0);
    row.partial_block_executions = row.barrier ? required(14) : 0;
    MemoryFigures m;
    const std::optional<Count> gr = count(15), sr = count(18);
    m.has_global = gr.has_value();
    m.global_requests = gr.value_or(0);
    m.global_sectors = m.has_global ? required(16) : 0;
    m.global_bytes = m.has_global ? required(17) : 0;
    m.has_shared = sr.has_value();
    m.shared_requests = sr.value_or(0);
    m.shared_wavefronts = m.has_shared ? required(19) : 0;
    m.shared_bank_conflicts = m.has_shared ? required(20) : 0;
    if (m.has_global || m.has_shared) row.memory = m;
    if (r_.fields.size() > 21)
      row.within = baseline_text_read(r_.fields[21]);
    else
      row.within.reset();
    consistent(row, m);
    return row;
  }

  // The figures of one statement must hold together as a count makes them.
  void consistent(const CheckRow& row, const MemoryFigures& m) const {
    at_most(11, row.branch_evaluations, 9, row.warp_evaluations,
            "a condition's warp evaluations are some of its statement's");
    at_most(12, row.divergent, 11, row.branch_evaluations,
            "divergent warp evaluations are some of the branch's");
    Count lanes = sim::kMaxCount;  // warp_evaluations x warp_size, when it fits
    try {
      lanes = sim::checked_mul(row.warp_evaluations, static_cast<Count>(row.warp_size));
    } catch (const std::overflow_error&) {
    }
    if (row.active_lanes > lanes)
      fail(10, to_decimal(row.active_lanes) + " is more than warp_evaluations x warp_size (" +
                   to_decimal(lanes) + "): a warp evaluation has at most warp_size active lanes");
    if (row.active_lanes < row.warp_evaluations)
      fail(10, to_decimal(row.active_lanes) + " is less than warp_evaluations (" +
                   to_decimal(row.warp_evaluations) + "): a warp evaluation has at least one active lane");
    at_most(14, row.partial_block_executions, 13, row.block_executions,
            "partial block executions are some of the barrier's");
    at_most(15, m.global_requests, 16, m.global_sectors, "each global request touches a sector");
    at_most(18, m.shared_requests, 19, m.shared_wavefronts, "each shared request takes a wavefront");
    if (m.shared_bank_conflicts > m.shared_wavefronts - m.shared_requests)
      fail(20, to_decimal(m.shared_bank_conflicts) + " is more than shared_wavefronts - shared_requests (" +
                   to_decimal(m.shared_wavefronts - m.shared_requests) +
                   "): bank conflicts are the wavefronts beyond one per phase, a request at least one phase");
  }

 private:
  const CsvRecord& r_;
  const std::string& source_;
  std::vector<std::string> names_;
};

}  // namespace

std::vector<CheckRow> read_baseline(const std::string& text, const std::string& source) {
  CsvTokenizer csv(text, source);
  if (csv.at_end())
    throw InvalidInput(Diag::file_format, source + ": empty: not a baseline written by --write-baseline");
  const std::string expected = baseline_columns().header();
  const CsvRecord header = csv.next();
  std::string got;
  for (std::size_t i = 0; i < header.fields.size(); ++i) got += (i ? "," : "") + header.fields[i];
  if (got.rfind("check,file,line,column,kind,", 0) == 0)
    throw InvalidInput(Diag::file_format,
                       source + ":" + std::to_string(header.line) +
                           ": a baseline keyed by line and column (an older warpdiv's), which edits "
                           "move: write it again with warpdiv check CONFIG --write-baseline " +
                           source);
  const std::string without_within = expected.substr(0, expected.rfind(','));
  if (got != expected && got != without_within)
    throw InvalidInput(Diag::file_format, source + ":" + std::to_string(header.line) +
                                              ": the header is not " + sim::quote_value(expected) +
                                              " (write the baseline with warpdiv check "
                                              "CONFIG --write-baseline FILE)");
  const std::size_t fields = header.fields.size();
  std::vector<CheckRow> rows;
  std::map<BaselineKey, std::size_t> lines;  // the line each statement's row was read from
  while (!csv.at_end()) {
    const CsvRecord r = csv.next();
    if (r.fields.size() == 1 && r.fields[0].empty()) continue;  // a blank line
    if (r.fields.size() != fields)
      throw InvalidInput(Diag::file_format, source + ":" + std::to_string(r.line) + ": " +
                                                std::to_string(r.fields.size()) + " fields, the header has " +
                                                std::to_string(fields));
    rows.push_back(BaselineRecord(r, source).row());
    const auto [first, fresh] = lines.emplace(baseline_key(rows.back()), r.line);
    if (!fresh)
      throw InvalidInput(Diag::file_content,
                         source + ":" + std::to_string(r.line) + ": " + key_words(rows.back()) +
                             " of check " + sim::quote_value(rows.back().check) +
                             " is given twice, on lines " + std::to_string(first->second) + " and " +
                             std::to_string(r.line) + " (one row per statement: write the baseline again)");
  }
  return rows;
}

namespace {

// The findings of one statement against its baseline row: each fraction that got worse.
void compare_row(const CheckRow& r, const CheckRow& b, double tolerance, std::vector<Finding>& out) {
  const auto worse = [&](Count a, Count ab, Count c, Count cd) {  // a/ab above c/cd
    return ab > 0 && cd > 0 && fraction_below(c, cd, a, ab, tolerance);
  };
  const auto lower = [&](Count a, Count ab, Count c, Count cd) {  // a/ab below c/cd
    return ab > 0 && cd > 0 && fraction_below(a, ab, c, cd, tolerance);
  };
  const auto share = [](Count a, Count of) { return to_decimal(a) + " of " + to_decimal(of); };
  if (r.condition && b.condition &&
      worse(r.divergent, r.branch_evaluations, b.divergent, b.branch_evaluations)) {
    Finding f = at_row(r, "divergence-regressed",
                       "branch diverges in " + percent(ratio(r.divergent, r.branch_evaluations)) +
                           " of its warp evaluations (" + share(r.divergent, r.branch_evaluations) + "), " +
                           percent(ratio(b.divergent, b.branch_evaluations)) + " in the baseline (" +
                           share(b.divergent, b.branch_evaluations) + ")");
    f.figures.insert(f.figures.end(),
                     {{"divergent_fraction", number(ratio(r.divergent, r.branch_evaluations))},
                      {"baseline_divergent_fraction", number(ratio(b.divergent, b.branch_evaluations))}});
    out.push_back(std::move(f));
  }
  const Count now_lanes = r.warp_evaluations * static_cast<Count>(r.warp_size);
  const Count then_lanes = b.warp_evaluations * static_cast<Count>(b.warp_size);
  if (lower(r.active_lanes, now_lanes, b.active_lanes, then_lanes)) {
    const double now = ratio(r.active_lanes, now_lanes), then = ratio(b.active_lanes, then_lanes);
    Finding f = at_row(r, "simd-efficiency-regressed",
                       statement_words(r) + " runs at " + percent(now) + " SIMD efficiency (" +
                           share(r.active_lanes, now_lanes) + " lanes), " + percent(then) +
                           " in the baseline (" + share(b.active_lanes, then_lanes) + ")");
    f.figures.insert(f.figures.end(),
                     {{"simd_efficiency", number(now)}, {"baseline_simd_efficiency", number(then)}});
    out.push_back(std::move(f));
  }
  if (r.barrier && b.barrier &&
      worse(r.partial_block_executions, r.block_executions, b.partial_block_executions, b.block_executions)) {
    Finding f = at_row(r, "partial-barrier-regressed",
                       "only part of the block reaches this barrier in " +
                           share(r.partial_block_executions, r.block_executions) + " block executions, " +
                           share(b.partial_block_executions, b.block_executions) + " in the baseline");
    f.figures.insert(f.figures.end(),
                     {{"partial_block_executions", to_decimal(r.partial_block_executions)},
                      {"baseline_partial_block_executions", to_decimal(b.partial_block_executions)}});
    out.push_back(std::move(f));
  }
  if (!r.memory || !b.memory) return;
  const MemoryFigures& m = *r.memory;
  const MemoryFigures& o = *b.memory;
  if (m.has_global && o.has_global &&
      lower(m.global_bytes, m.global_sectors * 32, o.global_bytes, o.global_sectors * 32)) {
    const double now = ratio(m.global_bytes, m.global_sectors * 32),
                 then = ratio(o.global_bytes, o.global_sectors * 32);
    Finding f = at_row(r, "sector-efficiency-regressed",
                       "global accesses use " + percent(now) + " of their sectors (" +
                           to_decimal(m.global_bytes) + " bytes in " + to_decimal(m.global_sectors) +
                           " sectors), " + percent(then) + " in the baseline (" + to_decimal(o.global_bytes) +
                           " in " + to_decimal(o.global_sectors) + ")");
    f.figures.insert(f.figures.end(),
                     {{"sector_efficiency", number(now)}, {"baseline_sector_efficiency", number(then)}});
    out.push_back(std::move(f));
  }
  if (m.has_shared && o.has_shared &&
      worse(m.shared_bank_conflicts, m.shared_requests, o.shared_bank_conflicts, o.shared_requests)) {
    Finding f = at_row(r, "bank-conflicts-regressed",
                       "shared requests meet " + number(ratio(m.shared_bank_conflicts, m.shared_requests)) +
                           " bank conflicts each (" + share(m.shared_bank_conflicts, m.shared_requests) +
                           "), " + number(ratio(o.shared_bank_conflicts, o.shared_requests)) +
                           " in the baseline (" + share(o.shared_bank_conflicts, o.shared_requests) + ")");
    f.figures.insert(
        f.figures.end(),
        {{"bank_conflicts_per_request", number(ratio(m.shared_bank_conflicts, m.shared_requests))},
         {"baseline_bank_conflicts_per_request", number(ratio(o.shared_bank_conflicts, o.shared_requests))}});
    out.push_back(std::move(f));
  }
}

// The indices of `rows` grouped by check and function, each group in source order (file, line,
// column; a baseline's rows by where the statement was), with each statement's kind and text (its
// tokens) and the statements that hold it (their tokens; none where a baseline does not say).
struct FunctionRows {
  std::vector<std::size_t> index;
  std::vector<std::string> text;
  std::vector<std::optional<std::string>> within;
};
std::map<std::pair<std::string, std::string>, FunctionRows> by_function(const std::vector<CheckRow>& rows) {
  std::vector<std::size_t> order(rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(rows[a].file, rows[a].line, rows[a].column, rows[a].ordinal) <
           std::tie(rows[b].file, rows[b].line, rows[b].column, rows[b].ordinal);
  });
  std::map<std::pair<std::string, std::string>, FunctionRows> groups;
  for (const std::size_t i : order) {
    FunctionRows& g = groups[{rows[i].check, rows[i].function}];
    g.index.push_back(i);
    g.text.push_back(rows[i].kind + '\n' + statement_token_key(rows[i].statement));
    g.within.push_back(rows[i].within ? std::optional<std::string>(statement_token_key(*rows[i].within))
                                      : std::nullopt);
  }
  return groups;
}

// The largest table pair_copies() builds (16 Mi cells, 64 MiB); beyond it, copies pair in order.
constexpr std::size_t kMaxPairingCells = std::size_t{1} << 24;

// One side of a pairing: a function's statements and which of them are paired.
struct PairingSide {
  const FunctionRows& rows;
  std::vector<bool> paired;
  // The kind and text of the statement `step` (-1, 1) away from the k-th, "" past either end.
  std::string neighbour(std::size_t k, int step) const {
    if ((step < 0 && k == 0) || (step > 0 && k + 1 >= rows.text.size())) return "";
    return rows.text[step < 0 ? k - 1 : k + 1];
  }
};

// Pairs copies of one key, `a` now and `b` before (positions in source order): as many as the
// smaller side has, in order, the copies left unpaired chosen so that the most pairs keep their
// neighbours, the earliest copies first where several choices are as good.
void pair_copies(PairingSide& now, const std::vector<std::size_t>& a, PairingSide& before,
                 const std::vector<std::size_t>& b, std::vector<std::optional<std::size_t>>& pairs) {
  const std::size_t p = a.size(), q = b.size();
  const bool table = (p + 1) * (q + 1) <= kMaxPairingCells;
  const auto kept = [&](std::size_t i, std::size_t j) {
    if (!table) return 0;
    return int{now.neighbour(a[i], -1) == before.neighbour(b[j], -1)} +
           int{now.neighbour(a[i], 1) == before.neighbour(b[j], 1)};
  };
  // best[i][j]: the most neighbours kept pairing a from i on with b from j on.
  std::vector<std::vector<int>> best(table ? p + 1 : 1, std::vector<int>(table ? q + 1 : 1, 0));
  for (std::size_t i = p; table && i-- > 0;)
    for (std::size_t j = q; j-- > 0;) {
      int v = kept(i, j) + best[i + 1][j + 1];
      if (p - i > q - j) v = std::max(v, best[i + 1][j]);
      if (q - j > p - i) v = std::max(v, best[i][j + 1]);
      best[i][j] = v;
    }
  for (std::size_t i = 0, j = 0; i < p && j < q;) {
    if (!table || p - i == q - j || kept(i, j) + best[i + 1][j + 1] == best[i][j]) {
      pairs[now.rows.index[a[i]]] = before.rows.index[b[j]];
      now.paired[a[i++]] = before.paired[b[j++]] = true;
    } else if (p - i > q - j) {
      ++i;
    } else {
      ++j;
    }
  }
}

// Pairs the statements of one function now with those of the baseline: those of one kind, text and
// `within` first, then the rest by kind and text (a statement whose enclosing if was edited), each
// key's copies by pair_copies(). A statement moved, added or removed elsewhere, even one of the
// same text, leaves the others paired with their own rows.
void pair_function(const FunctionRows& now, const FunctionRows& before,
                   std::vector<std::optional<std::size_t>>& pairs) {
  PairingSide sides[2] = {{now, std::vector<bool>(now.text.size(), false)},
                          {before, std::vector<bool>(before.text.size(), false)}};
  for (const bool by_within : {true, false}) {
    std::map<std::pair<std::string, std::string>, std::array<std::vector<std::size_t>, 2>> copies;
    for (int side = 0; side < 2; ++side) {
      const FunctionRows& rows = sides[side].rows;
      for (std::size_t k = 0; k < rows.text.size(); ++k) {
        if (sides[side].paired[k] || (by_within && !rows.within[k])) continue;
        copies[{rows.text[k], by_within ? *rows.within[k] : ""}][side].push_back(k);
      }
    }
    for (const auto& [key, at] : copies) pair_copies(sides[0], at[0], sides[1], at[1], pairs);
  }
}

bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::vector<std::optional<std::size_t>> paired_with_baseline(const std::vector<CheckRow>& rows,
                                                             const std::vector<CheckRow>& baseline) {
  std::vector<std::optional<std::size_t>> pairs(rows.size());
  const auto before = by_function(baseline);
  for (const auto& [function, now] : by_function(rows)) {
    const auto found = before.find(function);
    if (found != before.end()) pair_function(now, found->second, pairs);
  }
  return pairs;
}

std::vector<Finding> compare_with_baseline(const std::vector<CheckRow>& rows,
                                           const std::vector<CheckRow>& baseline,
                                           const BaselineComparison& how) {
  std::vector<Finding> out;
  std::vector<bool> used(baseline.size(), false);
  const std::vector<std::optional<std::size_t>> pairs = paired_with_baseline(rows, baseline);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!pairs[i]) continue;
    used[*pairs[i]] = true;
    compare_row(rows[i], baseline[*pairs[i]], how.tolerance, out);
  }
  for (std::size_t j = 0; j < baseline.size(); ++j) {
    const CheckRow& b = baseline[j];
    if (used[j] || listed(how.unread, b.check)) continue;
    const bool known = listed(how.checks, b.check);
    Finding f = at_row(b, "baseline-vanished",
                       key_words(b) + " of the baseline (its line " + std::to_string(b.baseline_line) + ") " +
                           (known ? "is not among the statements now" : "belongs to no [[kernel]] now") +
                           ": write the baseline again");
    f.level = how.stale_fails ? FindingLevel::warning : FindingLevel::note;  // a failure is no note
    f.fails = how.stale_fails;
    out.push_back(std::move(f));
  }
  return out;
}

FindingLevel finding_level(Category category) {
  switch (category) {
    case Category::unsupported:
    case Category::unknown:
    case Category::budget:
      return FindingLevel::warning;
    default:
      return FindingLevel::error;
  }
}

Finding unreadable_kernel(const std::string& check, const std::string& file, const Diagnostic& reason,
                          const std::string& root) {
  Finding f;
  f.rule = diagnostic_tag(reason.diag());
  f.level = finding_level(reason.category());
  f.check = check;
  f.file = file;
  if (reason.location().known()) {
    f.file = relative_to_root(reason.location().file, root);
    f.line = reason.location().line;
    f.column = reason.location().column;
  }
  // Undefined behaviour is a finding about the kernel; anything else, about what warpdiv could read.
  f.message = std::string(reason.category() == Category::undefined ? "the kernel stops: "
                                                                   : "cannot check this kernel: ") +
              sim::one_line(reason.message());
  f.figures.emplace_back("category", category_name(reason.category()));
  return f;
}

std::size_t CheckOutcome::failing() const {
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.fails; }));
}

void write_check_text(std::ostream& out, const CheckOutcome& outcome) {
  std::size_t limits = 0, regressions = 0, notes = 0, unreadable = 0, undefined = 0, suppressed = 0,
              unjudged = 0, stale = 0;
  static const char* const kLevels[] = {"error", "warning", "note"};
  for (const Finding& f : outcome.findings) {
    if (f.suppressed) {
      ++suppressed;
      continue;
    }
    out << f.file << ':';
    if (f.line > 0) out << f.line << ':' << f.column << ':';
    out << ' ' << kLevels[static_cast<int>(f.level)] << ": " << sim::one_line(f.message) << " (check "
        << sim::quote_value(f.check) << ") [" << f.rule << "]\n";
    if (f.rule.rfind("warpdiv-", 0) == 0)  // a diagnostic stopped the kernel
      ++(std::find(f.figures.begin(), f.figures.end(),
                   std::pair<std::string, std::string>("category", category_name(Category::undefined))) !=
                 f.figures.end()
             ? undefined
             : unreadable);
    else if (f.level == FindingLevel::note)
      ++notes;
    else if (f.rule.find("regressed") != std::string::npos)
      ++regressions;
    else if (f.rule == "memory-not-counted")
      ++unjudged;
    else if (f.rule == "baseline-vanished")
      ++stale;
    else
      ++limits;
  }
  const auto plural = [](std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  out << "warpdiv check: " << plural(outcome.kernels, "kernel", "kernels") << ", "
      << plural(outcome.statements, "statement", "statements") << ": ";
  if (undefined > 0)
    out << plural(undefined, "kernel with undefined behaviour", "kernels with undefined behaviour") << ", ";
  if (unreadable > 0) out << plural(unreadable, "kernel unreadable", "kernels unreadable") << ", ";
  out << plural(limits, "limit crossed", "limits crossed");
  if (unjudged > 0) out << ", " << plural(unjudged, "statement not judged", "statements not judged");
  if (outcome.baseline) out << ", " << plural(regressions, "regression", "regressions");
  if (stale > 0) out << ", " << plural(stale, "stale baseline row", "stale baseline rows");
  if (notes > 0) out << ", " << plural(notes, "note", "notes");
  if (suppressed > 0) out << ", " << suppressed << " allowed by comments";
  if (outcome.single_lane_hidden > 0)
    out << ", " << outcome.single_lane_hidden << " in single-lane branches not reported";
  out << ": " << (outcome.passed() ? "passed" : "FAILED") << '\n';
}

}  // namespace warpdiv::analysis
