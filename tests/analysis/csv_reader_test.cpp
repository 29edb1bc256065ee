// The RFC 4180 tokenizer every CSV reader uses, and the strict integer parser. The expected
// fields and line numbers are read off the literal texts (RFC 4180, section 2).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/csv.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::analysis {
namespace {

std::vector<CsvRecord> all_records(const std::string& text) {
  CsvTokenizer csv(text, "t.csv");
  std::vector<CsvRecord> records;
  while (!csv.at_end()) records.push_back(csv.next());
  return records;
}

std::string error_of(const std::string& text) {
  try {
    all_records(text);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CsvTokenizer, QuotedCommasDoubledQuotesAndLineBreaks) {
  // Record 1 on line 1; record 2 starts on line 2 and its second field holds two line breaks,
  // so record 3 starts on line 5.
  const std::vector<CsvRecord> r = all_records(
      "a,\"b,c\",\"say \"\"hi\"\"\"\n"
      "x,\"one\ntwo\r\nthree\",z\n"
      "last,  padded  ,\"\"\n");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].line, 1u);
  EXPECT_EQ(r[0].fields, (std::vector<std::string>{"a", "b,c", "say \"hi\""}));
  EXPECT_EQ(r[1].line, 2u);
  EXPECT_EQ(r[1].fields, (std::vector<std::string>{"x", "one\ntwo\r\nthree", "z"}));
  EXPECT_EQ(r[2].line, 5u);
  EXPECT_EQ(r[2].fields, (std::vector<std::string>{"last", "padded", ""}));
}

TEST(CsvTokenizer, CrLfAndNoFinalLineBreak) {
  const std::vector<CsvRecord> r = all_records("h1,h2\r\n1,2");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].fields, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(r[1].line, 2u);
}

TEST(CsvTokenizer, SkipsAUtf8ByteOrderMark) {
  const std::vector<CsvRecord> r = all_records("\xEF\xBB\xBFname,cc\nh100,9.0\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].fields[0], "name");  // not "\xEF\xBB\xBFname"
}

TEST(CsvTokenizer, ErrorsNameThePhysicalLine) {
  // The quote opened on line 3 runs to the end: the message names line 3, never -1.
  EXPECT_EQ(error_of("a,b\nc,d\ne,\"open\nmore\n"),
            "t.csv:3: a quoted field is not closed (it runs to the end of the file)");
  EXPECT_NE(error_of("a\n\"x\"y\n").find("t.csv:2: text after the closing quote"), std::string::npos);
  EXPECT_NE(error_of("a\nb\nx\"y\n").find("t.csv:3: a quote inside an unquoted field"), std::string::npos);
  // Binary data: a NUL byte on line 2 (after a quoted line break on line 1).
  EXPECT_EQ(error_of(std::string("\"a\nb\",c\nok,\0x\n", 14)),
            "t.csv:3: holds the control byte 0x00: binary data, not CSV text");
}

TEST(CsvTokenizer, RestOfLineAndSkip) {
  CsvTokenizer csv("==PROF== progress \"quoted\n\"ID\",\"x\"\n", "t.csv");
  EXPECT_EQ(csv.rest_of_line(), "==PROF== progress \"quoted");
  csv.skip_line();
  EXPECT_EQ(csv.line(), 2u);
  EXPECT_EQ(csv.next().fields, (std::vector<std::string>{"ID", "x"}));
  EXPECT_TRUE(csv.at_end());
}

TEST(DecimalInteger, StrictAndRangeChecked) {
  EXPECT_EQ(parse_decimal_integer("31", 0, 255), 31);
  EXPECT_EQ(parse_decimal_integer("0", 0, 255), 0);
  EXPECT_EQ(parse_decimal_integer("255", 0, 255), 255);
  EXPECT_EQ(parse_decimal_integer("9223372036854775807", 0, INT64_MAX), INT64_MAX);
  EXPECT_EQ(parse_decimal_integer("-9223372036854775808", INT64_MIN, 0), INT64_MIN);
  for (const char* bad :
       {"1e300", "1.5", "31.9", "", "+1", " 1", "1 ", "0x10", "-1", "256", "9223372036854775808",
        "18446744073709551616", "123456789012345678901234567890123456789012345678901234567890"})
    EXPECT_FALSE(parse_decimal_integer(bad, 0, 255).has_value()) << bad;
  EXPECT_FALSE(parse_decimal_integer("9223372036854775808", 0, INT64_MAX).has_value());
  EXPECT_FALSE(parse_decimal_integer("-9223372036854775809", INT64_MIN, 0).has_value());
}

}  // namespace
}  // namespace warpdiv::analysis
