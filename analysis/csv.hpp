// CSV, RFC 4180: the writer of every CSV the tool writes, and the tokenizer of every CSV it reads.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace warpdiv::analysis {

std::string csv_escape(std::string_view field);

/// Writes one record: escaped fields joined by commas, ended by "\n".
void write_csv_row(std::ostream& out, const std::vector<std::string>& fields);

/// One column of a CSV the tool writes: its name in the header and its field in a row.
template <class Row>
struct CsvColumn {
  std::string name;
  std::function<std::string(const Row&)> field;
};

/// The columns of a CSV the tool writes, in order. Every CSV writer builds its header and its
/// rows from one such list, so that a column cannot be added, dropped or moved in one and not in
/// the other; the headers themselves are pinned as literal text by the tests. `Row` is whatever
/// one record is made from (a report's row, or a small struct of references for a record that
/// joins several things, such as a launch and a statement).
template <class Row>
class CsvColumns {
 public:
  CsvColumns() = default;
  CsvColumns(std::initializer_list<CsvColumn<Row>> columns) : columns_(columns) {}

  /// Adds a column after the others.
  CsvColumns& add(std::string name, std::function<std::string(const Row&)> field) {
    columns_.push_back({std::move(name), std::move(field)});
    return *this;
  }
  /// Adds every column of `other` after these, each field taken from the part of a row that
  /// `part` returns (a reference to a `Part`): a CSV that extends another's columns.
  template <class Part, class GetPart>
  CsvColumns& add_all(const CsvColumns<Part>& other, GetPart part) {
    for (const CsvColumn<Part>& c : other.columns())
      add(c.name, [field = c.field, part](const Row& row) { return field(part(row)); });
    return *this;
  }

  const std::vector<CsvColumn<Row>>& columns() const { return columns_; }
  std::vector<std::string> names() const {
    std::vector<std::string> names;
    for (const CsvColumn<Row>& c : columns_) names.push_back(c.name);
    return names;
  }
  /// The header line without its line break: the names, escaped, joined by commas.
  std::string header() const {
    std::string header;
    for (std::size_t i = 0; i < columns_.size(); ++i)
      header += (i == 0 ? "" : ",") + csv_escape(columns_[i].name);
    return header;
  }
  std::vector<std::string> fields(const Row& row) const {
    std::vector<std::string> fields;
    for (const CsvColumn<Row>& c : columns_) fields.push_back(c.field(row));
    return fields;
  }
  void write_header(std::ostream& out) const { write_csv_row(out, names()); }
  void write_row(std::ostream& out, const Row& row) const { write_csv_row(out, fields(row)); }
  /// The header, then one record per element of `rows`; it stops once a write to `out` has
  /// failed (a full disk; Ctrl-C's flag on an output file), since nothing more would reach it.
  template <class Rows>
  void write(std::ostream& out, const Rows& rows) const {
    write_header(out);
    for (const Row& row : rows) {
      if (!out) return;
      write_row(out, row);
    }
  }

 private:
  std::vector<CsvColumn<Row>> columns_;
};

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

/// Refuses a header that names a column twice (a reader would take one of the two silently):
/// InvalidInput "SOURCE:LINE: header: column 'NAME' appears twice (columns I and J)", columns
/// counted from 1 as a spreadsheet does.
void refuse_duplicate_columns(const std::vector<std::string>& header, const std::string& source,
                              std::size_t line);

/// A decimal integer of digits only (an optional leading '-' where `min` < 0) in [min, max];
/// nullopt for anything else: "1.5", "1e3", "+1", " 1", "", and values out of range (no
/// wrap-around, no saturation).
std::optional<std::int64_t> parse_decimal_integer(std::string_view text, std::int64_t min, std::int64_t max);

}  // namespace warpdiv::analysis
