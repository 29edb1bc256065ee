// tools/cli/options: parse_integer's exact range checks at the int64 boundaries (no wrap-around,
// no saturation), and closest_name's near misses.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
#include "tools/cli/options.hpp"

namespace warpdiv::cli {
namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

TEST(ParseInteger, Int64BoundariesExactly) {
  EXPECT_EQ(parse_integer("--x", "9223372036854775807", kMin, kMax), kMax);   // 2^63 - 1
  EXPECT_EQ(parse_integer("--x", "-9223372036854775808", kMin, kMax), kMin);  // -2^63
  for (const char* beyond : {"9223372036854775808",                           // 2^63
                             "-9223372036854775809",                          // -2^63 - 1
                             "18446744073709551615",                          // 2^64 - 1
                             "18446744073709551616",  // 2^64: a 64-bit loop wraps it to 0
                             "18446744073709551626",  // 2^64 + 10: wraps to 10
                             "92233720368547758070",  // 2^63 * 10 - 10
                             "100000000000000000000000000000000000000000000000000000000000"}) {  // 60 digits
    EXPECT_THROW(parse_integer("--x", beyond, kMin, kMax), InvalidInput) << beyond;
  }
}

TEST(ParseInteger, SignsAndLeadingZerosSpellTheirValue) {
  EXPECT_EQ(parse_integer("--x", "-0", 0, 10), 0);
  EXPECT_EQ(parse_integer("--x", "+5", 0, 10), 5);
  EXPECT_EQ(parse_integer("--x", "007", 0, 10), 7);  // decimal, not octal
  EXPECT_EQ(parse_integer("--x", "010", 0, 10), 10);
  EXPECT_EQ(parse_integer("--x", "-3", -5, 5), -3);
  EXPECT_EQ(parse_integer("--x", "0000000000000000000000000000000000000000000001", 0, 10), 1);
}

TEST(ParseInteger, RefusalsNameTheRange) {
  for (const char* bad : {"", "+", "-", " 5", "5 ", "1e3", "0x10", "12abc", "1.0", "--5", "11"}) {
    try {
      parse_integer("--rows", bad, 1, 10);
      ADD_FAILURE() << bad;
    } catch (const InvalidInput& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("--rows must be an integer from 1 to 10 (got '") + bad + "')");
    }
  }
}

TEST(ClosestName, NearMissesOfTheCommands) {
  const std::vector<std::string> commands = {"analyze", "sweep", "occupancy", "validate", "ncu-check"};
  EXPECT_EQ(sim::closest_name("analyse", commands), "analyze");      // one substitution
  EXPECT_EQ(sim::closest_name("occupency", commands), "occupancy");  // one substitution
  EXPECT_EQ(sim::closest_name("valdiate", commands), "validate");    // one transposition
  EXPECT_EQ(sim::closest_name("ANALYZE", commands), "analyze");      // case
  EXPECT_EQ(sim::closest_name("swep", commands), "sweep");           // one deletion
  EXPECT_EQ(sim::closest_name("ncucheck", commands), "ncu-check");   // one insertion
  EXPECT_EQ(sim::closest_name("frobnicate", commands), "");
  EXPECT_EQ(sim::closest_name("x", commands), "");
  EXPECT_EQ(sim::closest_name("", commands), "");
}

}  // namespace
}  // namespace warpdiv::cli
