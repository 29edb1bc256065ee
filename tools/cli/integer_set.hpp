// "LIST" (a,b,c) or "START:STOP:STEP" (START, START+STEP, ... <= STOP): the values a sweep goes
// through, parsed but not expanded, so that a huge range is counted and refused without
// allocating it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpdiv::cli {

struct IntegerSet {
  std::vector<std::int64_t> values;  // a list
  bool is_range = false;
  std::int64_t start = 0, stop = 0, step = 1;

  std::uint64_t count() const;
  std::vector<std::int64_t> expand() const;
};

/// Each value in [min, max], each at most once; a range has START <= STOP and STEP >= 1. Throws
/// InvalidInput quoting `flag` and the text, with the allowed range.
IntegerSet parse_integer_set(const std::string& flag, const std::string& text, std::int64_t min,
                             std::int64_t max);

/// `text` cut at each `separator` (empty parts kept).
std::vector<std::string> split(const std::string& text, char separator);

}  // namespace warpdiv::cli
