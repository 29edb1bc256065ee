// The launch of a source kernel as the user writes it: --grid and --block are one to three
// integer expressions of the --arg names ("(N+127)/128,4"), checked against CUDA's limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpdiv::cli {

/// An --arg value: a decimal integer from -2^63 to 2^64 - 1 (every 64-bit type's range), held as
/// an int64 where it fits and as its unsigned bits above 2^63 - 1; or any other decimal number
/// ("-2.5", "1e-3", "1e30"), kept as written for a float or double parameter, which rounds it
/// once to its own type when bound (as a C++ literal of that type is rounded).
struct ArgValue {
  ArgValue(std::int64_t v = 0) : value(v) {}  // NOLINT: implicit, as the integers it holds
  static ArgValue above_int64(std::uint64_t bits);
  static ArgValue decimal(std::string text);
  /// An integer from -2^63 to 2^64 - 1 (false: a decimal only a floating-point parameter takes).
  bool integer() const { return decimal_.empty(); }
  /// The value as an int64; false above 2^63 - 1 and for a decimal.
  bool fits_int64() const { return integer() && !above_; }
  std::int64_t value = 0;  // fits_int64()
  std::uint64_t bits() const { return static_cast<std::uint64_t>(value); }
  /// Decimal text ("18446744073709551615"; a decimal as written).
  std::string text() const;

 private:
  bool above_ = false;
  std::string decimal_;
};
bool operator==(const ArgValue& a, const ArgValue& b);

/// --arg NAME=VALUE pairs, by name.
using ArgValues = std::map<std::string, ArgValue>;

/// A name as C++ spells identifiers: a letter or '_' first, then letters, digits and '_'; any
/// byte of a UTF-8 sequence (>= 0x80) counts as a letter (C++ allows Unicode identifiers: `ñ`).
bool is_identifier(const std::string& name);
bool is_identifier_start(char c);
bool is_identifier_char(char c);

/// Parses each "NAME=VALUE" (NAME an identifier, VALUE a decimal integer from -2^63 to 2^64 - 1,
/// optionally signed, or a decimal number: digits with an optional point and exponent, no
/// hexadecimal, inf or nan). A repeated name or a malformed pair throws InvalidInput naming it.
ArgValues parse_arg_values(const std::vector<std::string>& pairs);

/// Bounds on what --grid and --block take, so that no text can exhaust the parser's stack or make
/// a message of the whole text: at most kMaxTextBytes bytes (all three sizes together), and
/// parentheses and unary signs nested at most kMaxNesting deep ("((N))" is 2, "-(-N)" is 3).
namespace expression_limits {
constexpr std::size_t kMaxTextBytes = 1024;
constexpr int kMaxNesting = 256;
}  // namespace expression_limits

/// Evaluates an integer expression: decimal literals, names from `values`, + - * / % with C's
/// precedence and truncating division, unary + and -, parentheses. 64-bit arithmetic; overflow,
/// division by zero, an unknown name, a syntax error, a text longer than
/// expression_limits::kMaxTextBytes or nesting deeper than expression_limits::kMaxNesting throws
/// InvalidInput that quotes `flag` and `text` (cut after 60 bytes: sim::quote_value).
std::int64_t evaluate_expression(const std::string& flag, const std::string& text, const ArgValues& values);

/// A launch dimension (gridDim or blockDim).
struct Extent3 {
  std::int64_t x = 1, y = 1, z = 1;
};

/// "X[,Y[,Z]]" of expressions; missing components are 1. The limits above apply to the whole text.
Extent3 parse_extent(const std::string& flag, const std::string& text, const ArgValues& values);

/// CUDA's limits (compute capability 3.0 and later): blockDim x, y <= 1024, z <= 64, at most 1024
/// threads per block; gridDim x <= 2^31 - 1, y, z <= 65535; every component >= 1.
namespace cuda_limits {
constexpr std::int64_t kMaxBlockX = 1024;
constexpr std::int64_t kMaxBlockY = 1024;
constexpr std::int64_t kMaxBlockZ = 64;
constexpr std::int64_t kMaxThreadsPerBlock = 1024;
constexpr std::int64_t kMaxGridX = 2147483647;
constexpr std::int64_t kMaxGridYZ = 65535;
}  // namespace cuda_limits

/// Throws InvalidInput naming the component and its range when `block` breaks a limit.
void check_block(const std::string& flag, const Extent3& block);
void check_grid(const std::string& flag, const Extent3& grid);

}  // namespace warpdiv::cli
