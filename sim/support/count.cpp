#include "sim/support/count.hpp"

#include <algorithm>
#include <stdexcept>

namespace warpdiv::sim {

std::string to_decimal(Count value) {
  if (value == 0) return "0";
  std::string digits;
  while (value != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(value % 10)));
    value /= 10;
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

Count parse_count(const std::string& text) {
  if (text.empty()) throw std::invalid_argument("empty count");
  Count value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') throw std::invalid_argument("not a decimal count: '" + text + "'");
    value = checked_add(checked_mul(value, 10), static_cast<Count>(c - '0'));
  }
  return value;
}

Count checked_mul(Count a, Count b) {
  if (a != 0 && b > kMaxCount / a) throw std::overflow_error("128-bit count overflow (multiplication)");
  return a * b;
}

Count checked_add(Count a, Count b) {
  if (b > kMaxCount - a) throw std::overflow_error("128-bit count overflow (addition)");
  return a + b;
}

}  // namespace warpdiv::sim
