// Small text searches shared by the tests (outputs, CSV and HTML pages).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace warpdiv::testing {

/// True when `part` occurs in `text`.
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// Number of '\n' in `text` (a one-line error message has 1).
inline std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// Number of (possibly overlapping) occurrences of `part` in `text`.
inline std::size_t count_occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

/// The markup of the `tag` element with id `id`, up to its closing tag (no nesting of that tag);
/// "" when there is none.
inline std::string element(const std::string& page, const std::string& tag, const std::string& id) {
  const auto start = page.find("id=\"" + id + "\"");
  if (start == std::string::npos) return "";
  const auto open = page.rfind("<" + tag, start);
  const auto close = page.find("</" + tag + ">", start);
  return page.substr(open, close - open);
}

/// The fields of one CSV line, split at commas outside double quotes (the quotes dropped; the
/// CSVs of the tests do not escape quotes inside fields).
inline std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      fields.emplace_back();
    else
      fields.back() += c;
  }
  return fields;
}

/// On the source page of `warpdiv analyze FILE.cu --html`: the eleven memory cells of the listing
/// line whose source text is `text` (escaped as on the page), in the order of the table: the two
/// before its source cell (sector efficiency, bank conflicts), then the nine after it (global
/// requests, sectors, bytes asked, load, store and atomic requests, shared requests, wavefronts,
/// flops); "no line TEXT" when there is none.
inline std::string source_memory_cells(const std::string& page, const std::string& text) {
  const std::string source = "<td class=\"src\">" + text + "</td>";
  const auto at = page.find(source);
  if (at == std::string::npos) return "no line " + text;
  std::size_t costs = page.rfind("<tr", at);
  for (int cell = 0; cell < 4; ++cell) costs = page.find("</td>", costs) + 5;  // line .. SIMD
  const auto figures = at + source.size();
  return page.substr(costs, at - costs) + page.substr(figures, page.find("</tr>", figures) - figures);
}

/// The memory cells of a line without figures (the cells between SIMD and the source).
inline const std::string kNoMemoryCells =
    "<td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td>";

}  // namespace warpdiv::testing
