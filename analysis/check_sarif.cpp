#include "analysis/check_sarif.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/support/errors.hpp"

namespace warpdiv::analysis {

using nlohmann::json;

std::string uri_path(const std::string& path) {
  std::string out;
  for (const unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

std::uint32_t utf16_column(const std::string& line, std::uint32_t byte_column) {
  std::uint32_t units = 0;
  const std::size_t end = byte_column == 0 ? 0 : byte_column - 1;
  std::size_t i = 0;
  while (i < end) {
    if (i >= line.size()) {
      units += static_cast<std::uint32_t>(end - i);
      break;
    }
    const auto c = static_cast<unsigned char>(line[i]);
    // The sequence's length from its lead byte, then its continuation bytes checked (and the
    // overlong, surrogate and past-U+10FFFF forms refused, as UTF-8 does).
    std::size_t length = c < 0x80                 ? 1
                         : c >= 0xC2 && c <= 0xDF ? 2
                         : c >= 0xE0 && c <= 0xEF ? 3
                         : c >= 0xF0 && c <= 0xF4 ? 4
                                                  : 0;
    bool valid = length > 0 && i + length <= line.size();
    for (std::size_t k = 1; valid && k < length; ++k)
      valid = (static_cast<unsigned char>(line[i + k]) & 0xC0) == 0x80;
    if (valid && length >= 3) {
      const auto second = static_cast<unsigned char>(line[i + 1]);
      valid = !(c == 0xE0 && second < 0xA0) && !(c == 0xED && second >= 0xA0) &&
              !(c == 0xF0 && second < 0x90) && !(c == 0xF4 && second >= 0x90);
    }
    if (!valid) length = 1;
    units += valid && length == 4 ? 2 : 1;  // past U+FFFF: a surrogate pair
    i += length;
  }
  return units + 1;
}

namespace {

const char* level_name(FindingLevel level) {
  return level == FindingLevel::error ? "error" : level == FindingLevel::warning ? "warning" : "note";
}

// Scans source text for parentheses outside comments and literals, line by line.
class ParenthesisScan {
 public:
  explicit ParenthesisScan(const std::vector<std::string>& lines) : lines_(lines) {}
  /// Steps over lines[line - 1] from byte column `from` to `to` (1-based, inclusive); returns
  /// the column of the ')' that brings the depth back to 0, or 0.
  std::uint32_t scan(std::uint32_t line, std::uint32_t from, std::uint32_t to) {
    const std::string& text = lines_[line - 1];
    for (std::size_t i = from - 1; i < text.size() && i < to; ++i) {
      const char c = text[i], next = i + 1 < text.size() ? text[i + 1] : '\0';
      if (comment_) {
        if (c == '*' && next == '/') comment_ = false, ++i;
      } else if (quote_ != 0) {
        if (c == '\\')
          ++i;
        else if (c == quote_)
          quote_ = 0;
      } else if (c == '/' && next == '/') {
        break;
      } else if (c == '/' && next == '*') {
        comment_ = true, ++i;
      } else if (c == '"' || c == '\'') {
        quote_ = c;
      } else if (c == '(') {
        ++depth_;
      } else if (c == ')' && depth_ > 0 && --depth_ == 0 && closing_) {
        return static_cast<std::uint32_t>(i + 1);
      }
    }
    quote_ = 0;  // a literal does not go on past its line
    return 0;
  }
  int depth() const { return depth_; }
  void look_for_close() { closing_ = true; }

 private:
  const std::vector<std::string>& lines_;
  int depth_ = 0;
  bool comment_ = false, closing_ = false;
  char quote_ = 0;
};

// A region that opens more parentheses than it closes (an if's, for's, while's or switch's ends
// with its condition) ends at the ')' that closes them; a balanced one, or one whose ')' is not in
// the file, as it is.
void close_parentheses(const std::vector<std::string>& lines, const Finding& f, std::uint32_t& end_line,
                       std::uint32_t& end_column) {
  ParenthesisScan scan(lines);
  for (std::uint32_t n = f.line; n <= f.end_line && n <= lines.size(); ++n)
    scan.scan(n, n == f.line ? f.column : 1, n == f.end_line ? f.end_column : ~std::uint32_t{0});
  if (scan.depth() == 0) return;
  scan.look_for_close();
  for (std::uint32_t n = f.end_line; n <= lines.size(); ++n) {
    const std::uint32_t from = n == f.end_line ? f.end_column + 1 : 1;
    if (const std::uint32_t at = scan.scan(n, from, ~std::uint32_t{0}); at != 0) {
      end_line = n;
      end_column = at;
      return;
    }
  }
}

// The finding's region with UTF-16 columns where its file's lines are known; none without a line.
json region_of(const Finding& f, const SourceLinesByFile& sources) {
  json region = json::object();
  if (f.line == 0) return region;
  region["startLine"] = f.line;
  const auto file = sources.find(f.file);
  const auto line = [&](std::uint32_t n) -> const std::string* {
    if (file == sources.end() || n == 0 || n > file->second.size()) return nullptr;
    return &file->second[n - 1];
  };
  const std::string* start = line(f.line);
  if (f.column > 0 && start) region["startColumn"] = utf16_column(*start, f.column);
  std::uint32_t end_line = f.end_line, end_column = f.end_column;
  if (f.end_line >= f.line && f.end_column > 0 && f.column > 0 && start && line(f.end_line))
    close_parentheses(file->second, f, end_line, end_column);
  const std::string* end = line(end_line);
  if (end_line >= f.line && end_column > 0 && start && end) {
    region["endLine"] = end_line;
    // SARIF's end column is the one after the region: after the last character's last byte.
    region["endColumn"] = utf16_column(*end, end_column + 1);
  }
  return region;
}

// A figure as a JSON number where it is one (counts and fractions the check wrote), else text.
json figure_value(const std::string& text) {
  bool numeric = !text.empty();
  for (const char c : text)
    numeric = numeric &&
              (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == '-' || c == '+');
  if (numeric) {
    const json parsed = json::parse(text, nullptr, false);
    if (!parsed.is_discarded() && parsed.is_number()) return parsed;
  }
  return text;
}

}  // namespace

namespace {

// The check's rules, then the diagnostics (warpdiv-ID) that stopped a kernel in this outcome: ids
// and summaries from sim/support/diagnostics.def, levels from their categories.
std::vector<CheckRule> rules_of(const CheckOutcome& outcome) {
  std::vector<CheckRule> all = check_rules();
  static const std::vector<std::string> tags = [] {
    std::vector<std::string> t;
    for (const DiagnosticInfo& d : diagnostic_table()) t.push_back(diagnostic_tag(d.diag));
    return t;
  }();
  for (const DiagnosticInfo& d : diagnostic_table()) {
    const std::string& tag = tags[static_cast<std::size_t>(d.diag)];
    const bool used = std::any_of(outcome.findings.begin(), outcome.findings.end(),
                                  [&](const Finding& f) { return f.rule == tag; });
    if (used) all.push_back({tag.c_str(), d.meaning, "", finding_level(d.category)});
  }
  return all;
}

}  // namespace

void write_check_sarif(std::ostream& out, const CheckOutcome& outcome, const std::string& root,
                       const std::string& version, const SourceLinesByFile& sources) {
  json rules = json::array();
  const std::vector<CheckRule> all = rules_of(outcome);
  for (const CheckRule& r : all) {
    json rule = {{"id", r.id},
                 {"shortDescription", {{"text", r.summary}}},
                 {"defaultConfiguration", {{"level", level_name(r.level)}}}};
    if (*r.key) rule["properties"] = {{"configurationKey", r.key}};
    rules.push_back(rule);
  }
  json results = json::array();
  for (const Finding& f : outcome.findings) {
    std::size_t index = 0;
    while (index < all.size() && f.rule != all[index].id) ++index;
    json properties = {{"check", f.check}};
    for (const auto& [name, value] : f.figures) properties[name] = figure_value(value);
    json location = {{"artifactLocation", {{"uri", uri_path(f.file)}, {"uriBaseId", "%SRCROOT%"}}}};
    const json region = region_of(f, sources);
    if (!region.empty()) location["region"] = region;
    json result = {{"ruleId", f.rule},
                   {"level", level_name(f.level)},
                   {"message", {{"text", f.message + " (check '" + f.check + "')"}}},
                   {"locations", json::array({{{"physicalLocation", location}}})},
                   {"properties", properties}};
    if (index < all.size()) result["ruleIndex"] = index;
    if (f.suppressed)
      result["suppressions"] =
          json::array({{{"kind", "inSource"}, {"justification", "a warpdiv: allow(...) comment"}}});
    results.push_back(result);
  }
  std::string base = uri_path(root);
  if (base.empty() || base.back() != '/') base += '/';
  const json sarif = {
      {"$schema",
       "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       json::array({{{"tool", {{"driver", {{"name", "warpdiv"}, {"version", version}, {"rules", rules}}}}},
                     {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", "file://" + base}}}}},
                     {"columnKind", "utf16CodeUnits"},
                     {"results", results},
                     {"properties",
                      {{"kernels", outcome.kernels},
                       {"statements", outcome.statements},
                       {"passed", outcome.passed()}}}}})}};
  out << sarif.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
}

}  // namespace warpdiv::analysis
