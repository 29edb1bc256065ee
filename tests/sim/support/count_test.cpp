#include <gtest/gtest.h>

#include <stdexcept>

#include "sim/support/count.hpp"

namespace warpdiv::sim {
namespace {

TEST(Count, DecimalOfLargeValues) {
  EXPECT_EQ(to_decimal(0), "0");
  EXPECT_EQ(to_decimal(18446744073709551615ull), "18446744073709551615");
  // 2^64 = 18446744073709551616; 2^127 and 2^128 - 1 from their known decimal expansions.
  EXPECT_EQ(to_decimal(Count{1} << 64), "18446744073709551616");
  EXPECT_EQ(to_decimal(Count{1} << 127), "170141183460469231731687303715884105728");
  EXPECT_EQ(to_decimal(kMaxCount), "340282366920938463463374607431768211455");
}

TEST(Count, ParseRoundTripsAndRejects) {
  EXPECT_EQ(parse_count("340282366920938463463374607431768211455"), kMaxCount);
  EXPECT_EQ(parse_count("42"), 42u);
  EXPECT_THROW(parse_count("340282366920938463463374607431768211456"), std::overflow_error);
  EXPECT_THROW(parse_count("1e3"), std::invalid_argument);
  EXPECT_THROW(parse_count(""), std::invalid_argument);
}

TEST(Count, CheckedArithmetic) {
  EXPECT_EQ(checked_mul(Count{1} << 64, Count{1} << 63), Count{1} << 127);
  EXPECT_THROW(checked_mul(Count{1} << 64, Count{1} << 64), std::overflow_error);
  EXPECT_THROW(checked_add(kMaxCount, 1), std::overflow_error);
}

}  // namespace
}  // namespace warpdiv::sim
