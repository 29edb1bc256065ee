#include "tools/cli/integer_set.hpp"

#include <algorithm>

#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
#include "tools/cli/options.hpp"

namespace warpdiv::cli {

std::uint64_t IntegerSet::count() const {
  if (!is_range) return values.size();
  // Unsigned difference: exact for any START <= STOP of 64 bits.
  return (static_cast<std::uint64_t>(stop) - static_cast<std::uint64_t>(start)) /
             static_cast<std::uint64_t>(step) +
         1;
}

std::vector<std::int64_t> IntegerSet::expand() const {
  if (!is_range) return values;
  std::vector<std::int64_t> out;
  const std::uint64_t n = count();
  out.reserve(n);
  // By index, so that the last value + STEP never overflows.
  for (std::uint64_t i = 0; i < n; ++i)
    out.push_back(
        static_cast<std::int64_t>(static_cast<std::uint64_t>(start) + i * static_cast<std::uint64_t>(step)));
  return out;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string::size_type begin = 0;
  while (true) {
    const auto end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}

IntegerSet parse_integer_set(const std::string& flag, const std::string& text, std::int64_t min,
                             std::int64_t max) {
  const std::string expected = flag + " must be a comma-separated list of integers from " +
                               std::to_string(min) + " to " + std::to_string(max) +
                               ", or START:STOP:STEP (got " + sim::quote_value(text) + ")";
  // parse_integer's own message names one element; the user gave the whole text, so name that.
  const auto number = [&](const std::string& part, std::int64_t lo, std::int64_t hi) {
    try {
      return parse_integer(flag, part, lo, hi);
    } catch (const InvalidInput&) {
      throw InvalidInput(Diag::flag_value, expected);
    }
  };
  IntegerSet set;
  if (text.find(':') != std::string::npos) {
    const std::string range = flag + " START:STOP:STEP must be integers from " + std::to_string(min) +
                              " to " + std::to_string(max) + " with START <= STOP and STEP >= 1 (got " +
                              sim::quote_value(text) + ")";
    const std::vector<std::string> parts = split(text, ':');
    if (parts.size() != 3) throw InvalidInput(Diag::flag_value, range);
    set.is_range = true;
    try {
      set.start = parse_integer(flag, parts[0], min, max);
      set.stop = parse_integer(flag, parts[1], min, max);
      set.step = parse_integer(flag, parts[2], 1, max);
    } catch (const InvalidInput&) {
      throw InvalidInput(Diag::flag_value, range);
    }
    if (set.start > set.stop) throw InvalidInput(Diag::flag_value, range);
    return set;
  }
  for (const std::string& part : split(text, ',')) set.values.push_back(number(part, min, max));
  // A repeated value would only repeat rows (and curves): refuse it rather than guess.
  std::vector<std::int64_t> sorted = set.values;
  std::sort(sorted.begin(), sorted.end());
  const auto repeated = std::adjacent_find(sorted.begin(), sorted.end());
  if (repeated != sorted.end())
    throw InvalidInput(Diag::flag_usage, flag + " names " + std::to_string(*repeated) +
                                             " more than once; give each value once (got " +
                                             sim::quote_value(text) + ")");
  return set;
}

}  // namespace warpdiv::cli
