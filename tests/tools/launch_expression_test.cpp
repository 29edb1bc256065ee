// The --grid / --block expressions and --arg values of `warpdiv analyze FILE.cu`. Expected values
// are C's own: each expression is also written below as a C++ expression the compiler evaluates.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "sim/support/errors.hpp"
#include "tests/text_helpers.hpp"
#include "tools/cli/launch_expression.hpp"

namespace warpdiv::cli {
namespace {

using warpdiv::testing::contains;

std::string refusal(const std::string& text, const ArgValues& values) {
  try {
    evaluate_expression("--grid", text, values);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(LaunchExpression, CArithmetic) {
  const ArgValues v{{"N", 1024}, {"Width", 100}, {"neg", -7}};
  constexpr std::int64_t N = 1024, Width = 100, neg = -7;
  EXPECT_EQ(evaluate_expression("--grid", "(N+127)/128", v), (N + 127) / 128);
  EXPECT_EQ(evaluate_expression("--grid", "(Width-1)/16+1", v), (Width - 1) / 16 + 1);
  EXPECT_EQ(evaluate_expression("--grid", " 2 + 3 * 4 - 10 / 3 % 2 ", v), 2 + 3 * 4 - 10 / 3 % 2);
  EXPECT_EQ(evaluate_expression("--grid", "neg / 2", v), neg / 2);  // truncates toward zero: -3
  EXPECT_EQ(evaluate_expression("--grid", "neg % 4", v), neg % 4);  // sign of the dividend: -3
  EXPECT_EQ(evaluate_expression("--grid", "-(-N)", v), N);
  EXPECT_EQ(evaluate_expression("--grid", "+N - -1", v), N + 1);
  EXPECT_EQ(evaluate_expression("--grid", "9223372036854775807", v), INT64_MAX);
  EXPECT_EQ(evaluate_expression("--grid", "N*N*N/N/N", v), N);
}

TEST(LaunchExpression, RefusesWhatCannotBeComputed) {
  const ArgValues v{{"N", 1024}, {"zero", 0}, {"big", INT64_MAX}};
  EXPECT_TRUE(contains(refusal("N/zero", v), "division by zero")) << refusal("N/zero", v);
  EXPECT_TRUE(contains(refusal("N%(N-1024)", v), "remainder by zero"));
  EXPECT_TRUE(contains(refusal("big+1", v), "does not fit in a 64-bit"));
  EXPECT_TRUE(contains(refusal("-big-2", v), "does not fit in a 64-bit"));
  EXPECT_TRUE(contains(refusal("big*2", v), "does not fit in a 64-bit"));
  EXPECT_TRUE(contains(refusal("9223372036854775808", v), "does not fit in a 64-bit"));
  EXPECT_TRUE(contains(refusal("(-big-1)/-1", v), "does not fit in a 64-bit"));
  EXPECT_EQ(refusal("(M+1)/2", v), "--grid '(M+1)/2': unknown name 'M' (give its value with --arg M=VALUE)");
  EXPECT_TRUE(contains(refusal("(N+1", v), "missing ')'"));
  EXPECT_TRUE(contains(refusal("N+", v), "ends early"));
  EXPECT_TRUE(contains(refusal("", v), "ends early"));
  EXPECT_TRUE(contains(refusal("N 2", v), "unexpected '2'"));
  EXPECT_TRUE(contains(refusal("N<<2", v), "unexpected '<'"));
  EXPECT_TRUE(contains(refusal("1e3", v), "'1e' is not a decimal integer"));
  EXPECT_TRUE(contains(refusal("0x10", v), "'0x' is not a decimal integer"));
  EXPECT_TRUE(contains(refusal("2.5", v), "'2.' is not a decimal integer"));
}

// Nesting and length are bounded (expression_limits): 256 levels of parentheses or unary signs
// are accepted, 257 are refused with one short line; a text over 1,024 bytes is refused before
// it is parsed, so that 60,000 parentheses neither exhaust the stack nor make a 60 KB message.
TEST(LaunchExpression, NestingAndLengthAreBounded) {
  const ArgValues v{{"N", 5}};
  const auto parens = [](int n) { return std::string(n, '(') + "N" + std::string(n, ')'); };
  EXPECT_EQ(evaluate_expression("--grid", parens(256), v), 5);
  EXPECT_EQ(evaluate_expression("--grid", std::string(256, '-') + "N", v), 5);  // even: +5
  EXPECT_EQ(evaluate_expression("--grid", std::string(255, '-') + "N", v), -5);
  EXPECT_EQ(evaluate_expression("--grid", std::string(128, '+') + std::string(128, '-') + "N", v),
            5);  // 128 negations
  // 257 levels: 515 and 258 bytes, under the length limit.
  const std::string deep = refusal(parens(257), v);
  EXPECT_EQ(deep.rfind("nesting deeper than 256 in --grid '((((", 0), 0u) << deep;
  EXPECT_TRUE(contains(deep, "(515 bytes)")) << deep;
  EXPECT_LT(deep.size(), 200u) << deep;
  EXPECT_TRUE(contains(refusal(std::string(257, '-') + "N", v), "nesting deeper than 256 in --grid"));
  EXPECT_TRUE(contains(refusal("(" + std::string(256, '+') + "N)", v), "nesting deeper than 256"));
  // 1,024 bytes are accepted: 1 then 511 times "+1" is 1,023 bytes; one more space is 1,024.
  std::string sum = "1";
  for (int i = 0; i < 511; ++i) sum += "+1";
  EXPECT_EQ(evaluate_expression("--grid", sum + " ", v), 512);
  const std::string too_long = refusal(sum + "  ", v);
  EXPECT_TRUE(contains(too_long,
                       "(1025 bytes) is longer than 1024 bytes, the limit for a launch "
                       "expression"))
      << too_long;
  // Inputs that once crashed the parser: 60,000 parentheses or minus signs, through both entry points.
  for (const std::string& text : {parens(60000), std::string(60000, '-') + "1"}) {
    const std::string message = refusal(text, v);
    EXPECT_TRUE(contains(message, "is longer than 1024 bytes")) << message.substr(0, 200);
    EXPECT_LT(message.size(), 200u);
    EXPECT_THROW(parse_extent("--grid", text + ",1", v), InvalidInput);
  }
  EXPECT_THROW(parse_extent("--block", "1," + parens(257), v), InvalidInput);
}

TEST(LaunchExpression, ExtentsDefaultToOne) {
  const ArgValues v{{"Width", 100}};
  const Extent3 g = parse_extent("--grid", "(Width-1)/16+1,(Width-1)/16+1", v);
  EXPECT_EQ(g.x, 7);
  EXPECT_EQ(g.y, 7);
  EXPECT_EQ(g.z, 1);
  const Extent3 b = parse_extent("--block", "8, 8, 4", v);
  EXPECT_EQ(b.x * b.y * b.z, 256);
  EXPECT_THROW(parse_extent("--block", "1,1,1,1", v), InvalidInput);
  EXPECT_THROW(parse_extent("--block", "16,", v), InvalidInput);
}

std::string limit_refusal(bool block, Extent3 e) {
  try {
    if (block)
      check_block("--block", e);
    else
      check_grid("--grid", e);
  } catch (const InvalidInput& ex) {
    return ex.what();
  }
  return "(accepted)";
}

TEST(LaunchExpression, CudaLimits) {
  // Accepted at every limit (CUDA C Programming Guide, "Technical Specifications per Compute
  // Capability": 1024 x 1024 x 64 block, 1024 threads, grid (2^31 - 1) x 65535 x 65535).
  EXPECT_EQ(limit_refusal(true, {1024, 1, 1}), "(accepted)");
  EXPECT_EQ(limit_refusal(true, {1, 1024, 1}), "(accepted)");
  EXPECT_EQ(limit_refusal(true, {16, 1, 64}), "(accepted)");
  EXPECT_EQ(limit_refusal(false, {2147483647, 65535, 65535}), "(accepted)");
  EXPECT_EQ(limit_refusal(true, {32, 33, 1}),
            "--block 32,33,1 has 1056 threads, above CUDA's limit of 1024 per block");
  EXPECT_EQ(limit_refusal(true, {1025, 1, 1}), "--block x must be from 1 to 1024 (CUDA's limit; got 1025)");
  EXPECT_EQ(limit_refusal(true, {1, 1, 65}), "--block z must be from 1 to 64 (CUDA's limit; got 65)");
  EXPECT_EQ(limit_refusal(true, {0, 1, 1}), "--block x must be from 1 to 1024 (CUDA's limit; got 0)");
  EXPECT_EQ(limit_refusal(false, {2147483648, 1, 1}),
            "--grid x must be from 1 to 2147483647 (CUDA's limit; got 2147483648)");
  EXPECT_EQ(limit_refusal(false, {1, 65536, 1}),
            "--grid y must be from 1 to 65535 (CUDA's limit; got 65536)");
  EXPECT_EQ(limit_refusal(false, {1, 1, -3}), "--grid z must be from 1 to 65535 (CUDA's limit; got -3)");
}

TEST(LaunchExpression, ArgValues) {
  const ArgValues v = parse_arg_values({"N=1024", "neg=-5", "_x1=+3", "min=-9223372036854775808"});
  EXPECT_EQ(v.at("N"), 1024);
  EXPECT_EQ(v.at("neg"), -5);
  EXPECT_EQ(v.at("_x1"), 3);
  EXPECT_EQ(v.at("min"), INT64_MIN);
  for (const char* bad : {"N", "=3", "1N=3", "N=", "N=0x10", "N=-", "N-1=2", "N=1e", "N=e3", "N=.", "N=1.2.3",
                          "N=inf", "N=nan", "N=1e+", "N=--1", "N=1 ", "N=0x1p3"})
    EXPECT_THROW(parse_arg_values({bad}), InvalidInput) << bad;
  try {
    parse_arg_values({"N=0x10"});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(),
                 "--arg 'N' must be a decimal integer from -9223372036854775808 to "
                 "18446744073709551615 (the parameter's type narrows it), or for a float "
                 "or double parameter a decimal number such as -2.5 or 1e-3 (got '0x10')");
  }
}

// Decimals that are not 64-bit integers are kept as written, for float and double
// parameters (which round them once, when bound); --grid and --block refuse them.
TEST(LaunchExpression, DecimalsAreKeptAsWrittenForFloatingPointParameters) {
  const ArgValues v = parse_arg_values({"a=1.5", "b=-2e-3", "c=1E30", "d=.5", "e=5.",
                                        "f=18446744073709551616", "g=-9223372036854775809", "n=7"});
  for (const char* name : {"a", "b", "c", "d", "e", "f", "g"}) EXPECT_FALSE(v.at(name).integer()) << name;
  EXPECT_EQ(v.at("b").text(), "-2e-3");
  EXPECT_EQ(v.at("f").text(), "18446744073709551616");
  EXPECT_TRUE(v.at("n").integer());
  EXPECT_EQ(evaluate_expression("--grid", "n * 2", v), 14);
  try {
    evaluate_expression("--block", "a + 1", v);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(),
                 "--block 'a + 1': 'a' = 1.5 is not an integer (--grid and --block compute "
                 "with integers)");
  }
}

// Every 64-bit type's range (2^64 - 1 for an unsigned long long), and Unicode names
// (UTF-8), as C++ allows them.
// Found by fuzz_launch_expression: a name of 450 bytes >= 0x80 (identifier bytes since names may be
// Unicode) was quoted whole; and by fuzz_model_json: nlohmann's parse error quoted 1,500 bytes.
TEST(LaunchExpression, ALongUnknownNameIsQuotedShort) {
  const std::string name(450, '\xfa');
  try {
    evaluate_expression("--grid", "((" + name + "))", {});
    FAIL();
  } catch (const InvalidInput& e) {
    const std::string what = e.what();
    EXPECT_LT(what.size(), 1100u) << what;  // each byte escaped as \xfa: 4 characters
    EXPECT_NE(what.find("unknown name '"), std::string::npos) << what;
    EXPECT_NE(what.find("(give its value with --arg NAME=VALUE)"), std::string::npos) << what;
  }
}

TEST(LaunchExpression, ArgValuesTakeTheWholeRangeAndUnicodeNames) {
  const ArgValues v = parse_arg_values(
      {"u=18446744073709551615", "big=9223372036854775808", "top=9223372036854775807", "\xc3\xb1=5"});
  EXPECT_FALSE(v.at("u").fits_int64());
  EXPECT_EQ(v.at("u").bits(), UINT64_MAX);
  EXPECT_EQ(v.at("u").text(), "18446744073709551615");
  EXPECT_FALSE(v.at("big").fits_int64());
  EXPECT_EQ(v.at("big").bits(), std::uint64_t{1} << 63);
  EXPECT_TRUE(v.at("top").fits_int64());
  EXPECT_EQ(v.at("top").value, INT64_MAX);
  EXPECT_EQ(evaluate_expression("--grid", "\xc3\xb1 * 2 + 1", v), 11);
  try {
    evaluate_expression("--grid", "u / 2", v);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(),
                 "--grid 'u / 2': 'u' = 18446744073709551615 is above 9223372036854775807, "
                 "the largest value --grid and --block compute with");
  }
  try {
    parse_arg_values({"N=1", "N=2"});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "--arg N is given twice");
  }
}

}  // namespace
}  // namespace warpdiv::cli
