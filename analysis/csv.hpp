// CSV, RFC 4180: the writer of every CSV the tool writes, and the tokenizer of every CSV it reads.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace warpdiv::analysis {

std::string csv_escape(std::string_view field);

/// Writes one record: escaped fields joined by commas, ended by "\n".
void write_csv_row(std::ostream& out, const std::vector<std::string>& fields);

/// One record of a CSV text and the physical line (1-based, as a text editor numbers it) on
/// which it starts.
struct CsvRecord {
  std::size_t line = 0;
  std::vector<std::string> fields;
};

/// Splits a CSV text into records, RFC 4180: fields separated by commas, records by LF or CRLF;
/// a quoted field may hold commas, doubled quotes ("") and line breaks. Spaces and tabs around a
/// field are dropped. A UTF-8 byte-order mark at the start is skipped. Every error is
/// InvalidInput "SOURCE:LINE: ..." naming the physical line.
///
/// Written by hand rather than with libfccp: libfccp splits the text into lines before it
/// unquotes, so a quoted field cannot hold a line break there, and its line numbers go wrong
/// (or -1) on such text and after lines the caller skipped (ncu's progress lines).
class CsvTokenizer {
 public:
  CsvTokenizer(std::string_view text, std::string source);

  bool at_end() const { return at_ >= text_.size(); }
  /// The physical line on which the next record starts.
  std::size_t line() const { return line_; }
  /// The rest of the current line (without its line break), to recognise comments and lines
  /// that are no CSV records (ncu's progress lines) before reading or skipping them.
  std::string_view rest_of_line() const;
  void skip_line();
  /// The next record; at_end() must be false.
  CsvRecord next();

  const std::string& source() const { return source_; }

 private:
  [[noreturn]] void fail(std::size_t line, const std::string& what) const;

  std::string_view text_;
  std::string source_;
  std::size_t at_ = 0;
  std::size_t line_ = 1;
};

/// A decimal integer of digits only (an optional leading '-' where `min` < 0) in [min, max];
/// nullopt for anything else: "1.5", "1e3", "+1", " 1", "", and values out of range (no
/// wrap-around, no saturation).
std::optional<std::int64_t> parse_decimal_integer(std::string_view text, std::int64_t min,
                                                  std::int64_t max);

}  // namespace warpdiv::analysis
