#include "tools/cli/launch_expression.hpp"

#include <cctype>
#include <limits>

#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::cli {

bool is_identifier_start(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalpha(u) || c == '_' || u >= 0x80;
}
bool is_identifier_char(char c) {
  return is_identifier_start(c) || std::isdigit(static_cast<unsigned char>(c));
}
bool is_identifier(const std::string& name) {
  if (name.empty() || !is_identifier_start(name[0])) return false;
  for (const char c : name)
    if (!is_identifier_char(c)) return false;
  return true;
}

ArgValue ArgValue::above_int64(std::uint64_t bits) {
  ArgValue v(static_cast<std::int64_t>(bits));
  v.above_ = true;
  return v;
}
ArgValue ArgValue::decimal(std::string text) {
  ArgValue v;
  v.decimal_ = std::move(text);
  return v;
}
std::string ArgValue::text() const {
  if (!integer()) return decimal_;
  return above_ ? std::to_string(bits()) : std::to_string(value);
}
bool operator==(const ArgValue& a, const ArgValue& b) {
  return a.integer() == b.integer() && a.fits_int64() == b.fits_int64() && a.value == b.value &&
         a.text() == b.text();
}

namespace {

// A decimal number as C++ writes a floating literal's digits: an optional sign, digits with at
// most one point (at least one digit), an optional exponent e or E with optional sign and digits.
bool is_decimal_number(const std::string& text) {
  std::size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  std::size_t digits = 0;
  bool point = false;
  for (; i < text.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++digits;
    } else if (text[i] == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    const std::size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == start) return false;
  }
  return i == text.size();
}

// Recursive descent over C's grammar for + - * / % and parentheses:
//   sum := product (('+' | '-') product)*
//   product := unary (('*' | '/' | '%') unary)*
//   unary := ('+' | '-') unary | '(' sum ')' | NUMBER | NAME
// Each unary sign and parenthesis is one level of recursion: depth_ bounds them
// (expression_limits::kMaxNesting), so that no text exhausts the stack.
void check_length(const std::string& flag, const std::string& text) {
  if (text.size() > expression_limits::kMaxTextBytes)
    throw InvalidInput(Diag::flag_value, flag + " " + sim::quote_value(text) + " is longer than " +
                                             std::to_string(expression_limits::kMaxTextBytes) +
                                             " bytes, the limit for a launch expression");
}

class ExpressionParser {
 public:
  ExpressionParser(const std::string& flag, const std::string& text, const ArgValues& values)
      : flag_(flag), text_(text), values_(values) {}

  std::int64_t parse() {
    check_length(flag_, text_);
    const std::int64_t value = sum();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + text_.substr(pos_, 1) + "'");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidInput(Diag::flag_value, flag_ + " " + sim::quote_value(text_) + ": " + what);
  }
  [[noreturn]] void overflow() const { fail("the value does not fit in a 64-bit signed integer"); }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  std::int64_t sum() {
    std::int64_t value = product();
    while (true) {
      std::int64_t result = 0;
      if (accept('+')) {
        if (__builtin_add_overflow(value, product(), &result)) overflow();
      } else if (accept('-')) {
        if (__builtin_sub_overflow(value, product(), &result)) overflow();
      } else {
        return value;
      }
      value = result;
    }
  }

  std::int64_t product() {
    std::int64_t value = unary();
    while (true) {
      if (accept('*')) {
        std::int64_t result = 0;
        if (__builtin_mul_overflow(value, unary(), &result)) overflow();
        value = result;
      } else if (accept('/') || accept('%')) {
        const bool remainder = text_[pos_ - 1] == '%';
        const std::int64_t divisor = unary();
        if (divisor == 0) fail(remainder ? "remainder by zero" : "division by zero");
        if (value == std::numeric_limits<std::int64_t>::min() && divisor == -1) overflow();
        value = remainder ? value % divisor : value / divisor;
      } else {
        return value;
      }
    }
  }

  // One level deeper for a sign or a parenthesis; the level ends with the object.
  class Level {
   public:
    explicit Level(ExpressionParser& parser) : parser_(parser) {
      if (++parser_.depth_ > expression_limits::kMaxNesting)
        throw InvalidInput(Diag::flag_value, "nesting deeper than " +
                                                 std::to_string(expression_limits::kMaxNesting) + " in " +
                                                 parser_.flag_ + " " + sim::quote_value(parser_.text_) +
                                                 " (parentheses and unary signs)");
    }
    ~Level() { --parser_.depth_; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;

   private:
    ExpressionParser& parser_;
  };

  std::int64_t unary() {
    if (accept('-')) {
      const Level level(*this);
      const std::int64_t operand = unary();
      if (operand == std::numeric_limits<std::int64_t>::min()) overflow();
      return -operand;
    }
    if (accept('+')) {
      const Level level(*this);
      return unary();
    }
    if (accept('(')) {
      const Level level(*this);
      const std::int64_t value = sum();
      if (!accept(')')) fail("missing ')'");
      return value;
    }
    skip_space();
    const std::size_t begin = pos_;
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      std::int64_t value = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        if (__builtin_mul_overflow(value, 10, &value) ||
            __builtin_add_overflow(value, text_[pos_] - '0', &value))
          overflow();
        ++pos_;
      }
      if (pos_ < text_.size() && (is_identifier_start(text_[pos_]) || text_[pos_] == '.'))
        fail("'" + text_.substr(begin, pos_ + 1 - begin) +
             "' is not a decimal integer (only + - * / % ( ), integers and --arg names)");
      return value;
    }
    if (pos_ < text_.size() && is_identifier_start(text_[pos_]))
      while (pos_ < text_.size() && is_identifier_char(text_[pos_])) ++pos_;
    if (pos_ == begin) {
      if (pos_ == text_.size()) fail("expression ends early");
      fail("unexpected '" + text_.substr(pos_, 1) + "' (only + - * / % ( ), integers and --arg names)");
    }
    const std::string name = text_.substr(begin, pos_ - begin);
    const auto found = values_.find(name);
    if (found == values_.end())
      fail("unknown name " + sim::quote_value(name) + " (give its value with --arg " +
           (name.size() <= 60 ? name : std::string("NAME")) + "=VALUE)");
    if (!found->second.integer())
      fail(sim::quote_value(name) + " = " + found->second.text() +
           " is not an integer (--grid and --block compute with integers)");
    if (!found->second.fits_int64())
      fail(sim::quote_value(name) + " = " + found->second.text() +
           " is above 9223372036854775807, the largest value --grid and --block compute with");
    return found->second.value;
  }

  const std::string& flag_;
  const std::string& text_;
  const ArgValues& values_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

void check_range(const std::string& flag, const char* component, std::int64_t value, std::int64_t max) {
  if (value < 1 || value > max)
    throw InvalidInput(Diag::launch_invalid, flag + " " + component + " must be from 1 to " +
                                                 std::to_string(max) + " (CUDA's limit; got " +
                                                 std::to_string(value) + ")");
}

}  // namespace

ArgValues parse_arg_values(const std::vector<std::string>& pairs) {
  ArgValues values;
  for (const std::string& pair : pairs) {
    const auto equals = pair.find('=');
    const std::string name = pair.substr(0, equals);
    if (equals == std::string::npos || !is_identifier(name))
      throw InvalidInput(Diag::flag_value, "--arg must be NAME=VALUE with NAME a C identifier (got " +
                                               sim::quote_value(pair) + ")");
    const std::string text = pair.substr(equals + 1);
    const bool negative = !text.empty() && text[0] == '-';
    std::size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
    bool digits = i < text.size();
    std::uint64_t magnitude = 0;
    for (; i < text.size() && digits; ++i) {
      const char c = text[i];
      if (c < '0' || c > '9' || __builtin_mul_overflow(magnitude, std::uint64_t{10}, &magnitude) ||
          __builtin_add_overflow(magnitude, static_cast<std::uint64_t>(c - '0'), &magnitude))
        digits = false;
    }
    constexpr std::uint64_t kMinMagnitude = std::uint64_t{1} << 63;  // of -2^63
    if (digits && negative && magnitude > kMinMagnitude) digits = false;
    if (!digits && !is_decimal_number(text))
      throw InvalidInput(Diag::flag_value,
                         "--arg " + sim::quote_value(name) + " must be a decimal integer from " +
                             std::to_string(std::numeric_limits<std::int64_t>::min()) + " to " +
                             std::to_string(std::numeric_limits<std::uint64_t>::max()) +
                             " (the parameter's type narrows it), or for a float or double parameter a "
                             "decimal number such as -2.5 or 1e-3 (got " +
                             sim::quote_value(text) + ")");
    const ArgValue value = !digits    ? ArgValue::decimal(text)
                           : negative ? ArgValue(static_cast<std::int64_t>(0 - magnitude))
                           : magnitude > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                               ? ArgValue::above_int64(magnitude)
                               : ArgValue(static_cast<std::int64_t>(magnitude));
    if (!values.emplace(name, value).second)
      throw InvalidInput(Diag::flag_usage, "--arg " + name + " is given twice");
  }
  return values;
}

std::int64_t evaluate_expression(const std::string& flag, const std::string& text, const ArgValues& values) {
  return ExpressionParser(flag, text, values).parse();
}

Extent3 parse_extent(const std::string& flag, const std::string& text, const ArgValues& values) {
  check_length(flag, text);
  std::vector<std::string> parts;
  std::string::size_type begin = 0;
  while (true) {
    const auto comma = text.find(',', begin);
    parts.push_back(text.substr(begin, comma - begin));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  if (parts.size() > 3)
    throw InvalidInput(Diag::flag_value,
                       flag + " takes X[,Y[,Z]]: at most three sizes (got " + sim::quote_value(text) + ")");
  std::int64_t component[3] = {1, 1, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) component[i] = evaluate_expression(flag, parts[i], values);
  return Extent3{component[0], component[1], component[2]};
}

void check_block(const std::string& flag, const Extent3& block) {
  namespace lim = cuda_limits;
  check_range(flag, "x", block.x, lim::kMaxBlockX);
  check_range(flag, "y", block.y, lim::kMaxBlockY);
  check_range(flag, "z", block.z, lim::kMaxBlockZ);
  const std::int64_t threads = block.x * block.y * block.z;  // <= 1024 * 1024 * 64: no overflow
  if (threads > lim::kMaxThreadsPerBlock)
    throw InvalidInput(Diag::launch_invalid, flag + " " + std::to_string(block.x) + "," +
                                                 std::to_string(block.y) + "," + std::to_string(block.z) +
                                                 " has " + std::to_string(threads) +
                                                 " threads, above CUDA's limit of " +
                                                 std::to_string(lim::kMaxThreadsPerBlock) + " per block");
}

void check_grid(const std::string& flag, const Extent3& grid) {
  namespace lim = cuda_limits;
  check_range(flag, "x", grid.x, lim::kMaxGridX);
  check_range(flag, "y", grid.y, lim::kMaxGridYZ);
  check_range(flag, "z", grid.z, lim::kMaxGridYZ);
}

}  // namespace warpdiv::cli
