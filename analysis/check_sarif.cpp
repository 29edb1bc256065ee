#include "analysis/check_sarif.hpp"

#include <cctype>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

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

namespace {

const char* level_name(FindingLevel level) {
  return level == FindingLevel::warning ? "warning" : "note";
}

// A figure as a JSON number where it is one (counts and fractions the check wrote), else text.
json figure_value(const std::string& text) {
  bool numeric = !text.empty();
  for (const char c : text) numeric = numeric && (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == '-' || c == '+');
  if (numeric) {
    const json parsed = json::parse(text, nullptr, false);
    if (!parsed.is_discarded() && parsed.is_number()) return parsed;
  }
  return text;
}

}  // namespace

void write_check_sarif(std::ostream& out, const CheckOutcome& outcome, const std::string& root,
                       const std::string& version) {
  json rules = json::array();
  const std::vector<CheckRule>& all = check_rules();
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
    json region = {{"startLine", f.line == 0 ? 1 : f.line}};
    if (f.column > 0) region["startColumn"] = f.column;
    if (f.end_line >= f.line && f.end_line > 0 && f.end_column > 0) {
      region["endLine"] = f.end_line;
      region["endColumn"] = f.end_column + 1;  // SARIF's end column is the one after the region
    }
    json properties = {{"check", f.check}};
    for (const auto& [name, value] : f.figures) properties[name] = figure_value(value);
    json result = {{"ruleId", f.rule},
                   {"level", level_name(f.level)},
                   {"message", {{"text", f.message + " (check '" + f.check + "')"}}},
                   {"locations",
                    json::array({{{"physicalLocation",
                                   {{"artifactLocation",
                                     {{"uri", uri_path(f.file)}, {"uriBaseId", "%SRCROOT%"}}},
                                    {"region", region}}}}})},
                   {"properties", properties}};
    if (index < all.size()) result["ruleIndex"] = index;
    results.push_back(result);
  }
  std::string base = uri_path(root);
  if (base.empty() || base.back() != '/') base += '/';
  const json sarif = {
      {"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::array({{{"tool", {{"driver", {{"name", "warpdiv"},
                                                   {"version", version},
                                                   {"rules", rules}}}}},
                             {"originalUriBaseIds", {{"%SRCROOT%", {{"uri", "file://" + base}}}}},
                             {"columnKind", "unicodeCodePoints"},
                             {"results", results},
                             {"properties", {{"kernels", outcome.kernels},
                                             {"statements", outcome.statements},
                                             {"passed", outcome.passed()}}}}})}};
  out << sarif.dump(2) << '\n';
}

}  // namespace warpdiv::analysis
