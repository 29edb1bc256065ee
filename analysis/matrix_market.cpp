#include "analysis/matrix_market.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "analysis/input_file.hpp"
#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::analysis {

namespace {

namespace lim = matrix_market_limits;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

struct Token {
  std::size_t begin = 0, end = 0;  // offsets in the text
};

// The lines of the text, one at a time, with their number; the tokens of the current one.
class Lines {
 public:
  Lines(const std::string& text, const std::string& source) : text_(text), source_(source) {}

  /// The next line, or false at the end of the text. Refuses a line longer than the format allows.
  bool next() {
    if (at_ >= text_.size()) return false;
    begin_ = at_;
    const void* nl = std::memchr(text_.data() + at_, '\n', text_.size() - at_);
    end_ = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text_.data()) : text_.size();
    at_ = nl ? end_ + 1 : text_.size();
    ++number_;
    std::size_t length = end_ - begin_;
    if (length > 0 && text_[end_ - 1] == '\r') --length;
    if (length > lim::kMaxLineBytes)
      fail(begin_ + lim::kMaxLineBytes, "the line is " + std::to_string(length) +
                                            " characters long; Matrix Market lines hold at most " +
                                            std::to_string(lim::kMaxLineBytes));
    count_ = 0;
    std::size_t i = begin_;
    while (true) {
      while (i < end_ && is_blank(text_[i])) ++i;
      if (i >= end_) break;
      const std::size_t b = i;
      while (i < end_ && !is_blank(text_[i])) ++i;
      if (count_ < kKept) tokens_[count_] = Token{b, i};
      ++count_;
    }
    return true;
  }

  bool is_comment() const { return begin_ < end_ && text_[begin_] == '%'; }
  bool is_empty() const { return count_ == 0; }
  std::size_t count() const { return count_; }
  const Token& token(std::size_t k) const { return tokens_[k]; }
  std::string text(const Token& t) const { return text_.substr(t.begin, t.end - t.begin); }
  std::string line_text() const { return text_.substr(begin_, end_ - begin_); }
  const char* data() const { return text_.data(); }
  std::uint64_t number() const { return number_; }

  [[noreturn]] void fail(std::size_t offset, const std::string& what) const {
    throw InvalidInput(Diag::file_format,
                       sim::one_line(source_ + " line " + std::to_string(number_) + ", column " +
                                     std::to_string(offset - begin_ + 1) + ": " + what));
  }
  [[noreturn]] void fail(const Token& t, const std::string& what) const { fail(t.begin, what); }
  [[noreturn]] void fail_line(const std::string& what) const {
    throw InvalidInput(Diag::file_format,
                       sim::one_line(source_ + " line " + std::to_string(number_) + ": " + what));
  }

 private:
  static constexpr std::size_t kKept = 5;
  const std::string& text_;
  const std::string& source_;
  std::size_t at_ = 0, begin_ = 0, end_ = 0;
  std::uint64_t number_ = 0;
  Token tokens_[kKept];
  std::size_t count_ = 0;
};

// A decimal integer of digits only (no sign), or fail naming `what`.
std::uint64_t unsigned_token(const Lines& lines, const Token& t, const std::string& what) {
  std::uint64_t v = 0;
  for (std::size_t i = t.begin; i < t.end; ++i) {
    const char c = lines.data()[i];
    if (!is_digit(c))
      lines.fail(t, what + " " + sim::quote_value(lines.text(t)) + " is not a whole number of digits");
    if (v > (std::uint64_t{1} << 60))
      lines.fail(t, what + " " + sim::quote_value(lines.text(t)) + " is too large");
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return v;
}

// An integer field's value: [+-]digits, at most 2^53 in magnitude (exact as a double).
void check_integer_value(const Lines& lines, const Token& t) {
  const char* s = lines.data();
  std::size_t i = t.begin;
  if (s[i] == '+' || s[i] == '-') ++i;
  if (i == t.end) lines.fail(t, "the value " + sim::quote_value(lines.text(t)) + " is not an integer");
  while (i < t.end && s[i] == '0') ++i;
  const std::size_t first = i;
  for (; i < t.end; ++i)
    if (!is_digit(s[i])) lines.fail(t, "the value " + sim::quote_value(lines.text(t)) + " is not an integer");
  const std::size_t digits = t.end - first;
  static const std::string kTwoTo53 = "9007199254740992";
  if (digits > kTwoTo53.size() || (digits == kTwoTo53.size() && std::string(s + first, digits) > kTwoTo53))
    lines.fail(t, "the integer " + sim::quote_value(lines.text(t)) +
                      " is past 2^53 in magnitude, where a double (which the reader keeps) is not exact");
}

// A real field's value: [+-](digits[.digits]|.digits)[(e|E)[+-]digits], or inf, infinity, nan.
void check_real_value(const Lines& lines, const Token& t) {
  const char* s = lines.data();
  const auto bad = [&]() {
    lines.fail(t, "the value " + sim::quote_value(lines.text(t)) +
                      " is not a decimal number (digits, a point, an exponent with e or E; inf or nan)");
  };
  std::size_t i = t.begin;
  if (s[i] == '+' || s[i] == '-') ++i;
  if (i < t.end && (s[i] == 'i' || s[i] == 'I' || s[i] == 'n' || s[i] == 'N')) {
    const std::string rest = lower(std::string(s + i, t.end - i));
    if (rest == "inf" || rest == "infinity" || rest == "nan") return;
    bad();
  }
  // Digits before and after the point, for the decimal magnitude of the first significant digit.
  bool significant = false, any = false;
  long integer_digits = 0, leading_fraction_zeros = 0;
  for (; i < t.end && is_digit(s[i]); ++i) {
    any = true;
    if (s[i] != '0' || significant) {
      significant = true;
      ++integer_digits;
    }
  }
  if (i < t.end && s[i] == '.') {
    ++i;
    for (; i < t.end && is_digit(s[i]); ++i) {
      any = true;
      if (!significant) {
        if (s[i] == '0')
          ++leading_fraction_zeros;
        else
          significant = true;
      }
    }
  }
  if (!any) bad();
  long exponent = 0;
  if (i < t.end && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < t.end && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    if (i == t.end) bad();
    for (; i < t.end && is_digit(s[i]); ++i)
      if (exponent < 100000) exponent = exponent * 10 + (s[i] - '0');
    if (negative) exponent = -exponent;
  }
  if (i != t.end) bad();
  if (!significant) return;  // zero
  const long magnitude = (integer_digits > 0 ? integer_digits - 1 : -(leading_fraction_zeros + 1)) + exponent;
  if (magnitude >= 308) {
    // Past the largest double, strtod gives an infinity: only `inf` may mean one.
    const double v = std::strtod(lines.text(t).c_str(), nullptr);
    if (std::isinf(v))
      lines.fail(t, "the value " + sim::quote_value(lines.text(t)) +
                        " is past the largest double (about 1.8e308); write inf if an infinity is meant");
  }
}

struct Header {
  std::string field, symmetry;
  std::uint64_t rows = 0, cols = 0, stored = 0;  // stored: the entry lines
};

// One entry as read: 0-based (rows and columns are at most 2^26).
struct Entry {
  std::uint32_t row, col;
  double value;
};

// The banner: %%MatrixMarket matrix coordinate FIELD SYMMETRY.
Header check_banner(Lines& lines, const std::string& text, const std::string& source) {
  // At the very start: a file without this line is not one.
  if (text.compare(0, 14, "%%MatrixMarket") != 0 || !lines.next() ||
      lines.text(lines.token(0)) != "%%MatrixMarket")
    throw InvalidInput(Diag::file_format,
                       sim::one_line(source + ": its first line does not start with %%MatrixMarket"));
  if (lines.count() != 5)
    lines.fail_line("the header " + sim::quote_value(lines.line_text()) +
                    " needs 5 words: %%MatrixMarket matrix coordinate FIELD SYMMETRY");
  const std::string object = lower(lines.text(lines.token(1)));
  const std::string format = lower(lines.text(lines.token(2)));
  Header h;
  h.field = lower(lines.text(lines.token(3)));
  h.symmetry = lower(lines.text(lines.token(4)));
  if (object != "matrix")
    lines.fail(lines.token(1), "the object " + sim::quote_value(object) + " is not read (allowed: matrix)");
  if (format == "array")
    lines.fail(lines.token(2), "the array (dense) format is not read; write the matrix in coordinate format");
  if (format != "coordinate")
    lines.fail(lines.token(2),
               "the format " + sim::quote_value(format) + " is not known (allowed: coordinate)");
  if (h.field == "complex")
    lines.fail(lines.token(3),
               "complex values are refused: the model has no complex numbers (allowed: real, "
               "integer, pattern)");
  if (h.field != "real" && h.field != "integer" && h.field != "pattern")
    lines.fail(lines.token(3), "the field " + sim::quote_value(h.field) +
                                   " is not known (allowed: real, integer, "
                                   "pattern)");
  if (h.symmetry == "hermitian")
    lines.fail(lines.token(4), "hermitian matrices have complex values, which are refused");
  if (h.symmetry != "general" && h.symmetry != "symmetric" && h.symmetry != "skew-symmetric")
    lines.fail(lines.token(4), "the symmetry " + sim::quote_value(h.symmetry) +
                                   " is not known (allowed: general, "
                                   "symmetric, skew-symmetric)");
  if (h.field == "pattern" && h.symmetry == "skew-symmetric")
    lines.fail(lines.token(4), "a pattern file cannot be skew-symmetric (its entries have no sign)");
  return h;
}

// The size line, after comments and blank lines: ROWS COLUMNS ENTRIES, within the limits.
void check_size_line(Lines& lines, Header& h) {
  while (lines.next()) {
    if (lines.is_comment() || lines.is_empty()) continue;
    if (lines.count() != 3)
      lines.fail_line("the size line " + sim::quote_value(lines.line_text()) +
                      " needs 3 numbers: ROWS COLUMNS ENTRIES");
    h.rows = unsigned_token(lines, lines.token(0), "the row count");
    h.cols = unsigned_token(lines, lines.token(1), "the column count");
    h.stored = unsigned_token(lines, lines.token(2), "the entry count");
    if (h.rows > lim::kMaxDimension || h.cols > lim::kMaxDimension)
      lines.fail(lines.token(h.rows > lim::kMaxDimension ? 0 : 1),
                 std::to_string(h.rows) + " x " + std::to_string(h.cols) + " is too large: at most 2^26 (" +
                     std::to_string(lim::kMaxDimension) + ") rows and columns are read");
    if (h.stored > lim::kMaxEntries)
      lines.fail(lines.token(2),
                 std::to_string(h.stored) + " entries is too many: at most 2^31 - 1 are read");
    if (h.symmetry != "general" && h.rows != h.cols)
      lines.fail_line("a " + h.symmetry + " matrix must be square, not " + std::to_string(h.rows) + " x " +
                      std::to_string(h.cols));
    return;
  }
  lines.fail_line("the file ends before its size line (ROWS COLUMNS ENTRIES)");
}

// One entry line, checked against the header; its value as C's strtod reads it (pattern: 1).
Entry read_entry(const Lines& lines, const Header& h) {
  const std::size_t want = h.field == "pattern" ? 2 : 3;
  if (lines.count() != want)
    lines.fail_line("the entry " + sim::quote_value(lines.line_text()) + " needs " + std::to_string(want) +
                    " numbers in a " + h.field + " file: " + (want == 2 ? "ROW COLUMN" : "ROW COLUMN VALUE"));
  const std::uint64_t i = unsigned_token(lines, lines.token(0), "the row");
  const std::uint64_t j = unsigned_token(lines, lines.token(1), "the column");
  if (i < 1 || i > h.rows)
    lines.fail(lines.token(0), "the row " + std::to_string(i) + " is outside 1 .. " + std::to_string(h.rows) +
                                   " (Matrix Market indices start at 1)");
  if (j < 1 || j > h.cols)
    lines.fail(lines.token(1), "the column " + std::to_string(j) + " is outside 1 .. " +
                                   std::to_string(h.cols) + " (Matrix Market indices start at 1)");
  if (h.symmetry == "symmetric" && i < j)
    lines.fail_line("the entry (" + std::to_string(i) + ", " + std::to_string(j) +
                    ") is above the diagonal; a symmetric file stores the lower triangle (row >= column)");
  if (h.symmetry == "skew-symmetric" && i <= j)
    lines.fail_line("the entry (" + std::to_string(i) + ", " + std::to_string(j) +
                    ") is not below the diagonal; a skew-symmetric file stores the strictly lower triangle "
                    "(row > column)");
  if (h.field == "integer") check_integer_value(lines, lines.token(2));
  if (h.field == "real") check_real_value(lines, lines.token(2));
  const double value = want == 2 ? 1.0 : std::strtod(lines.text(lines.token(2)).c_str(), nullptr);
  return Entry{static_cast<std::uint32_t>(i - 1), static_cast<std::uint32_t>(j - 1), value};
}

// The entries, exactly as many as the size line gives, then nothing but comments and blank lines.
// Memory grows with the entries read, never with what the size line claims.
std::vector<Entry> read_entries(Lines& lines, const Header& h, std::size_t text_bytes) {
  std::vector<Entry> entries;
  entries.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(h.stored, text_bytes / 4 + 1)));
  while (entries.size() < h.stored && lines.next())
    if (!lines.is_comment() && !lines.is_empty()) entries.push_back(read_entry(lines, h));
  if (entries.size() < h.stored)
    lines.fail_line("the file ends after " + std::to_string(entries.size()) + " of the " +
                    std::to_string(h.stored) + " entries its size line gives");
  while (lines.next())
    if (!lines.is_comment() && !lines.is_empty())
      lines.fail_line("more entries than the " + std::to_string(h.stored) + " the size line gives");
  return entries;
}

// A symmetric file's upper triangle (a skew-symmetric one's negated), after the entries as read.
void mirror(std::vector<Entry>& entries, const Header& h, const std::string& source) {
  if (h.symmetry == "general") return;
  const std::size_t stored = entries.size();
  std::size_t off_diagonal = 0;
  for (const Entry& e : entries) off_diagonal += e.row != e.col;
  if (stored + off_diagonal > lim::kMaxEntries)
    throw InvalidInput(Diag::memory_budget,
                       sim::one_line(source + ": " + std::to_string(stored + off_diagonal) +
                                     " entries with both triangles is too many: at most 2^31 - 1 are read"));
  entries.reserve(stored + off_diagonal);
  const double sign = h.symmetry == "skew-symmetric" ? -1.0 : 1.0;
  for (std::size_t k = 0; k < stored; ++k)
    if (entries[k].row != entries[k].col)
      entries.push_back(Entry{entries[k].col, entries[k].row, sign * entries[k].value});
}

// Sorted by (row, column), each position once: duplicates summed in the order the file gives them.
void assemble(std::vector<Entry>& entries, SparseMatrix& m) {
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  std::size_t distinct = 0;
  for (std::size_t k = 0; k < entries.size(); ++k)
    distinct += k == 0 || entries[k].row != entries[k - 1].row || entries[k].col != entries[k - 1].col;
  m.row.reserve(distinct);
  m.col.reserve(distinct);
  m.values.reserve(distinct);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (k > 0 && entries[k].row == entries[k - 1].row && entries[k].col == entries[k - 1].col) {
      m.values.back() += entries[k].value;
      continue;
    }
    m.row.push_back(entries[k].row);
    m.col.push_back(entries[k].col);
    m.values.push_back(entries[k].value);
  }
}

}  // namespace

SparseMatrix parse_matrix_market(const std::string& text, const std::string& source) {
  const std::string named = source + " (a Matrix Market file)";
  Lines lines(text, named);
  Header h = check_banner(lines, text, named);
  check_size_line(lines, h);
  std::vector<Entry> entries = read_entries(lines, h, text.size());
  mirror(entries, h, named);
  SparseMatrix m;
  m.rows = h.rows;
  m.cols = h.cols;
  m.field = h.field;
  m.symmetry = h.symmetry;
  m.pattern = h.field == "pattern";
  assemble(entries, m);
  return m;
}

SparseMatrix read_matrix_market(const std::string& path, const std::string& what) {
  const std::string text = read_input_file(path, what, InputFormat::matrix_market);
  return parse_matrix_market(text, what + ": " + sim::quote_value(path));
}

const std::vector<std::string>& matrix_market_views() {
  static const std::vector<std::string> kViews = {"csr.row_ptr", "csr.col_idx", "csr.values",
                                                  "coo.row",     "coo.col",     "coo.values"};
  return kViews;
}

namespace {

// The C element types a view can fill, as Clang spells them (x86-64 Linux, LP64, char signed).
struct ElementType {
  char kind;  // 'i' signed integer, 'u' unsigned integer, 'f' floating point
  std::uint64_t bytes;
  sim::ir::ScalarType scalar;  // the integers' range
};

const std::map<std::string, ElementType>& element_types() {
  using S = sim::ir::ScalarType;
  static const std::map<std::string, ElementType> kTypes = {{"char", {'i', 1, S::I8}},
                                                            {"signed char", {'i', 1, S::I8}},
                                                            {"unsigned char", {'u', 1, S::U8}},
                                                            {"short", {'i', 2, S::I16}},
                                                            {"unsigned short", {'u', 2, S::U16}},
                                                            {"int", {'i', 4, S::I32}},
                                                            {"unsigned int", {'u', 4, S::U32}},
                                                            {"long", {'i', 8, S::I64}},
                                                            {"unsigned long", {'u', 8, S::U64}},
                                                            {"long long", {'i', 8, S::I64}},
                                                            {"unsigned long long", {'u', 8, S::U64}},
                                                            {"float", {'f', 4, S::I32}},
                                                            {"double", {'f', 8, S::I64}}};
  return kTypes;
}

void put_le(std::string& out, std::uint64_t bits, std::uint64_t bytes) {
  for (std::uint64_t b = 0; b < bytes; ++b) out.push_back(static_cast<char>(bits >> (8 * b) & 0xff));
}

}  // namespace

std::string matrix_market_view(const SparseMatrix& m, const std::string& view,
                               const std::string& element_type, std::uint64_t element_bytes,
                               const std::string& what) {
  const auto refuse = [&](const std::string& why) {
    return InvalidInput(Diag::file_content, sim::one_line(what + ": " + why));
  };
  const auto& views = matrix_market_views();
  bool known = false;
  for (const auto& v : views) known = known || v == view;
  if (!known) {
    const std::string near = sim::closest_name(view, views);
    throw refuse("the view " + sim::quote_value(view) + " is not known" +
                 (near.empty() ? "" : " (did you mean " + near + "?)") + "; allowed: " + sim::listed(views));
  }
  const auto it = element_types().find(element_type);
  if (it == element_types().end() || it->second.bytes != element_bytes)
    throw refuse(
        "the parameter points to " + sim::quote_value(element_type) + " (" + std::to_string(element_bytes) +
        " bytes), which no Matrix Market view fills (allowed: char, short, int, long, long long and their "
        "signed and unsigned forms, float, double)");
  const ElementType type = it->second;
  const bool index_view = view != "csr.values" && view != "coo.values";

  // The view's values, as doubles for the value views and as integers for the others.
  std::vector<std::int64_t> row_ptr;
  const std::vector<std::int64_t>* indices = nullptr;
  if (view == "csr.row_ptr") {
    row_ptr.assign(m.rows + 1, 0);
    for (const std::int64_t r : m.row) ++row_ptr[static_cast<std::size_t>(r) + 1];
    for (std::size_t r = 0; r < m.rows; ++r) row_ptr[r + 1] += row_ptr[r];
    indices = &row_ptr;
  } else if (view == "csr.col_idx" || view == "coo.col") {
    indices = &m.col;
  } else if (view == "coo.row") {
    indices = &m.row;
  }

  std::string out;
  if (index_view) {
    if (type.kind == 'f')
      throw refuse(view + " holds indices: the parameter must point to an integer type, not " + element_type);
    const std::uint64_t max = sim::ir::max_of(type.scalar);
    out.reserve(indices->size() * type.bytes);
    for (std::size_t k = 0; k < indices->size(); ++k) {
      const std::int64_t v = (*indices)[k];  // never negative
      if (static_cast<std::uint64_t>(v) > max)
        throw refuse("element " + std::to_string(k) + " of " + view + " is " + std::to_string(v) +
                     ", outside " + element_type + "'s range (" + sim::ir::range_text(type.scalar) + ")");
      put_le(out, static_cast<std::uint64_t>(v), type.bytes);
    }
    return out;
  }

  out.reserve(m.values.size() * type.bytes);
  if (type.kind == 'f') {
    for (std::size_t k = 0; k < m.values.size(); ++k) {
      const double v = m.values[k];
      if (type.bytes == 4) {
        const float f = static_cast<float>(v);  // round to nearest, as C converts
        if (std::isinf(f) && !std::isinf(v)) {
          char text[32];
          std::snprintf(text, sizeof text, "%.17g", v);
          throw refuse("element " + std::to_string(k) + " of " + view + " is " + text +
                       ", outside float's range (a finite value of magnitude at most 3.4028235e+38)");
        }
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        put_le(out, bits, 4);
      } else {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &v, 8);
        put_le(out, bits, 8);
      }
    }
    return out;
  }
  // An integer type takes the values of an integer or pattern file, each within its range.
  if (m.field == "real")
    throw refuse(view + " holds the file's real values: the parameter must point to float or double, not " +
                 element_type + " (an integer type takes the values of an integer or pattern file only)");
  const std::int64_t min = sim::ir::min_of(type.scalar);
  const std::uint64_t max = sim::ir::max_of(type.scalar);
  constexpr double kTwoTo53 = 9007199254740992.0;
  for (std::size_t k = 0; k < m.values.size(); ++k) {
    const double v = m.values[k];
    if (!(std::fabs(v) <= kTwoTo53))
      throw refuse("element " + std::to_string(k) + " of " + view + " sums to " +
                   sim::quote_value(std::to_string(v)) +
                   ", past 2^53 in magnitude, where the sum of its duplicates is not exact");
    const auto i = static_cast<std::int64_t>(v);
    if (i < min || (i > 0 && static_cast<std::uint64_t>(i) > max))
      throw refuse("element " + std::to_string(k) + " of " + view + " is " + std::to_string(i) +
                   ", outside " + element_type + "'s range (" + sim::ir::range_text(type.scalar) + ")");
    put_le(out, static_cast<std::uint64_t>(i), type.bytes);
  }
  return out;
}

}  // namespace warpdiv::analysis
