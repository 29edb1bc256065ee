// Unsigned 128-bit counts: a 2^31-1 cube with T = 32 has about 9.7e24 warp-phases, beyond 64 bits.
#pragma once

#include <cstdint>
#include <string>

namespace warpdiv::sim {

__extension__ typedef unsigned __int128 Count;

/// The largest value a Count holds (2^128 - 1).
constexpr Count kMaxCount = ~Count{0};

/// Decimal text of a 128-bit count ("0", "12345", ...).
std::string to_decimal(Count value);

/// Parses decimal digits into a Count; throws std::invalid_argument on anything else or overflow.
Count parse_count(const std::string& text);

/// a * b, throwing std::overflow_error if the product does not fit in 128 bits.
Count checked_mul(Count a, Count b);

/// a + b, throwing std::overflow_error if the sum does not fit in 128 bits.
Count checked_add(Count a, Count b);

/// The count as a double (for fractions and percentages).
inline double to_double(Count value) { return static_cast<double>(value); }

/// Set bits of m. Without -mpopcnt (the binary stays portable) __builtin_popcountll is a library
/// call; this is the branch-free SWAR count, inlined (lane masks, sector and word bitmaps).
inline int popcount(std::uint64_t m) {
  m = m - ((m >> 1) & 0x5555555555555555ULL);
  m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
  m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((m * 0x0101010101010101ULL) >> 56);
}

}  // namespace warpdiv::sim
