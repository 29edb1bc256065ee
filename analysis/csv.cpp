#include "analysis/csv.hpp"

#include <cstdio>
#include <map>

#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::analysis {

std::string csv_escape(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
  std::string quoted = "\"";
  for (char c : field) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

void write_csv_row(std::ostream& out, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out << ',';
    out << csv_escape(fields[i]);
  }
  out << '\n';
}

namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Control characters other than tab, CR and LF do not occur in CSV text: binary data.
bool is_binary(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\t' && c != '\r' && c != '\n') || u == 0x7f;
}

}  // namespace

CsvTokenizer::CsvTokenizer(std::string_view text, std::string source)
    : text_(text), source_(std::move(source)) {
  if (text_.substr(0, kUtf8Bom.size()) == kUtf8Bom) at_ = kUtf8Bom.size();
}

void CsvTokenizer::fail(std::size_t line, const std::string& what) const {
  throw InvalidInput(Diag::file_format, source_ + ":" + std::to_string(line) + ": " + what);
}

std::string_view CsvTokenizer::rest_of_line() const {
  std::size_t end = text_.find('\n', at_);
  if (end == std::string_view::npos) end = text_.size();
  std::string_view rest = text_.substr(at_, end - at_);
  if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
  return rest;
}

void CsvTokenizer::skip_line() {
  const std::size_t end = text_.find('\n', at_);
  at_ = end == std::string_view::npos ? text_.size() : end + 1;
  ++line_;
}

CsvRecord CsvTokenizer::next() {
  CsvRecord record;
  record.line = line_;
  const auto check = [&](char c) {
    if (is_binary(c)) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      fail(line_, std::string("holds the control byte ") + code + ": binary data, not CSV text");
    }
  };
  while (true) {  // one field per pass
    std::string field;
    while (at_ < text_.size() && is_blank(text_[at_])) ++at_;
    if (at_ < text_.size() && text_[at_] == '"') {
      const std::size_t opened = line_;
      ++at_;
      while (true) {
        if (at_ >= text_.size())
          fail(opened, "a quoted field is not closed (it runs to the end of the file)");
        const char c = text_[at_++];
        if (c == '"') {
          if (at_ < text_.size() && text_[at_] == '"') {
            field += '"';
            ++at_;
            continue;
          }
          break;
        }
        check(c);
        if (c == '\n') ++line_;
        field += c;
      }
      while (at_ < text_.size() && is_blank(text_[at_])) ++at_;
      if (at_ < text_.size() && text_[at_] != ',' && text_[at_] != '\n' &&
          !(text_[at_] == '\r' && at_ + 1 < text_.size() && text_[at_ + 1] == '\n'))
        fail(line_,
             "text after the closing quote of a field (a quote inside a quoted field is "
             "written \"\")");
    } else {
      while (at_ < text_.size() && text_[at_] != ',' && text_[at_] != '\n') {
        const char c = text_[at_];
        if (c == '"')
          fail(line_,
               "a quote inside an unquoted field (quote the whole field and double the "
               "quote)");
        if (c == '\r' && at_ + 1 < text_.size() && text_[at_ + 1] == '\n') break;
        check(c);
        field += c;
        ++at_;
      }
      while (!field.empty() && is_blank(field.back())) field.pop_back();
    }
    record.fields.push_back(std::move(field));
    if (at_ < text_.size() && text_[at_] == ',') {
      ++at_;
      continue;
    }
    if (at_ < text_.size() && text_[at_] == '\r') ++at_;
    if (at_ < text_.size()) {  // '\n'
      ++at_;
      ++line_;
    }
    return record;
  }
}

void refuse_duplicate_columns(const std::vector<std::string>& header, const std::string& source,
                              std::size_t line) {
  std::map<std::string, std::size_t> first;  // name -> column, from 1
  for (std::size_t i = 0; i < header.size(); ++i) {
    const auto [it, fresh] = first.emplace(header[i], i + 1);
    if (!fresh)
      throw InvalidInput(Diag::file_format, source + ":" + std::to_string(line) + ": header: column " +
                                                sim::quote_value(header[i]) + " appears twice (columns " +
                                                std::to_string(it->second) + " and " + std::to_string(i + 1) +
                                                "; every column name must be unique)");
  }
}

std::optional<std::int64_t> parse_decimal_integer(std::string_view text, std::int64_t min, std::int64_t max) {
  const bool negative = !text.empty() && text[0] == '-' && min < 0;
  const std::string_view digits = text.substr(negative ? 1 : 0);
  if (digits.empty() || digits.size() > 19) return std::nullopt;
  // Accumulate towards the sign so that INT64_MIN is reachable; 19 digits cannot overflow
  // uint64.
  std::uint64_t magnitude = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    magnitude = magnitude * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (negative) {
    if (magnitude > static_cast<std::uint64_t>(INT64_MAX) + 1) return std::nullopt;
    const std::int64_t value = magnitude == static_cast<std::uint64_t>(INT64_MAX) + 1
                                   ? INT64_MIN
                                   : -static_cast<std::int64_t>(magnitude);
    if (value < min || value > max) return std::nullopt;
    return value;
  }
  if (magnitude > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
  const auto value = static_cast<std::int64_t>(magnitude);
  if (value < min || value > max) return std::nullopt;
  return value;
}

}  // namespace warpdiv::analysis
