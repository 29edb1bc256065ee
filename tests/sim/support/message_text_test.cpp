// sim/message_text: what a message shows of a user's value (escaped, bounded), and counts with the
// right noun. Expected strings are written out by hand from the byte values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/support/message_text.hpp"

namespace warpdiv::sim {
namespace {

TEST(EscapeControls, LineBreaksTabsAndTerminalEscapesBecomeVisible) {
  EXPECT_EQ(escape_controls("a\nb\r\tc"), "a\\nb\\r\\tc");
  EXPECT_EQ(escape_controls("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(escape_controls(std::string("\x00\x01\x1f\x7f", 4)), "\\x00\\x01\\x1f\\x7f");
  EXPECT_EQ(escape_controls("plain path/to file.csv"), "plain path/to file.csv");
}

TEST(EscapeControls, KeepsUtf8AndEscapesWhatIsNotUtf8) {
  EXPECT_EQ(escape_controls("caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x99\x82"),
            "caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x99\x82");                  // é … 🙂
  EXPECT_EQ(escape_controls("\xff"), "\\xff");                             // never a UTF-8 byte
  EXPECT_EQ(escape_controls("\x80x"), "\\x80x");                           // lone continuation byte
  EXPECT_EQ(escape_controls("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(escape_controls("\xe2\x80"), "\\xe2\\x80");                    // cut short
  EXPECT_EQ(escape_controls("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // surrogate U+D800
  EXPECT_EQ(escape_controls("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  // C1 controls (U+009B is CSI on 8-bit terminals) and the Unicode line separators.
  EXPECT_EQ(escape_controls("\xc2\x9b"
                            "2J"),
            "\\u009b2J");
  EXPECT_EQ(escape_controls("a\xe2\x80\xa8"
                            "b\xe2\x80\xa9"),
            "a\\u2028b\\u2029");
}

TEST(Quoted, ShortValuesWhole) {
  EXPECT_EQ(quote_value("abc"), "'abc'");
  EXPECT_EQ(quote_value(""), "''");
  EXPECT_EQ(quote_value("5\n6"), "'5\\n6'");
  EXPECT_EQ(quote_value(std::string(60, 'x')), "'" + std::string(60, 'x') + "'");
}

TEST(Quoted, LongValuesCutAfterSixtyBytesWithTheirLength) {
  EXPECT_EQ(quote_value(std::string(61, 'x')), "'" + std::string(60, 'x') + "\xe2\x80\xa6' (61 bytes)");
  EXPECT_EQ(quote_value(std::string(10485760, 'y')),
            "'" + std::string(60, 'y') + "\xe2\x80\xa6' (10485760 bytes)");
  // 59 'a' then "é" (bytes 60 and 61): the cut backs off rather than split the character.
  const std::string value = std::string(59, 'a') + "\xc3\xa9" + std::string(20, 'b');
  EXPECT_EQ(quote_value(value), "'" + std::string(59, 'a') + "\xe2\x80\xa6' (81 bytes)");
  // Escaping comes after the cut: 60 newlines show as 60 "\n".
  std::string shown;
  for (int i = 0; i < 60; ++i) shown += "\\n";
  EXPECT_EQ(quote_value(std::string(100, '\n')), "'" + shown + "\xe2\x80\xa6' (100 bytes)");
}

TEST(OneLine, EscapesAndBoundsAWholeMessage) {
  EXPECT_EQ(one_line("bad value 'a\nb'"), "bad value 'a\\nb'");
  EXPECT_EQ(one_line(std::string(1000, 'm')), std::string(1000, 'm'));
  EXPECT_EQ(one_line(std::string(2000, 'm')), std::string(1000, 'm') + "\xe2\x80\xa6 (2000 bytes in all)");
}

TEST(Listed, TenItemsThenACount) {
  EXPECT_EQ(listed({}), "");
  EXPECT_EQ(listed({"a", "b\nc"}), "a, b\\nc");
  std::vector<std::string> names;
  for (int i = 0; i < 100000; ++i) names.push_back("gpu" + std::to_string(i));
  EXPECT_EQ(listed(names),
            "gpu0, gpu1, gpu2, gpu3, gpu4, gpu5, gpu6, gpu7, gpu8, gpu9, \xe2\x80\xa6 and 99990 more");
  EXPECT_EQ(listed({std::string(70, 'n')}), std::string(60, 'n') + "\xe2\x80\xa6");
}

TEST(Counted, SingularOnlyForOne) {
  EXPECT_EQ(counted(0, "warp"), "0 warps");
  EXPECT_EQ(counted(1, "warp"), "1 warp");
  EXPECT_EQ(counted(8, "warp"), "8 warps");
  EXPECT_EQ(counted(1, "launch", "launches"), "1 launch");
  EXPECT_EQ(counted(2, "launch", "launches"), "2 launches");
  EXPECT_EQ(counted(Count{1} << 100, "warp-phase"), "1267650600228229401496703205376 warp-phases");
}

}  // namespace
}  // namespace warpdiv::sim
