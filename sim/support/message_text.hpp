// Text for messages and reports: a user's value shown on one line and bounded, a whole message
// made safe for one line, long lists summarised, and counts with the right noun ("1 warp").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/support/count.hpp"

namespace warpdiv::sim {

namespace message_limits {
constexpr std::size_t kMaxValueBytes = 60;      // of a user's value shown in a message
constexpr std::size_t kMaxMessageBytes = 1000;  // of a whole one-line message
constexpr std::size_t kMaxListedItems = 10;     // items of a list named in a message
}  // namespace message_limits

/// Length of the well-formed UTF-8 sequence starting at text[at] (1 to 4; at < text.size()) and its code
/// point, or 0 when the bytes there are not one (RFC 3629: no overlong forms, surrogates or values above
/// U+10FFFF).
std::size_t utf8_sequence(std::string_view text, std::size_t at, unsigned& code_point);

/// `text` with what could break or hijack a terminal line escaped: \n, \r, \t, other control
/// characters and DEL as \xNN (ESC is \x1b), C1 controls and U+2028/U+2029 as \uNNNN, and bytes
/// that are not UTF-8 as \xNN. Printable text (UTF-8 included) is kept as it is.
std::string escape_controls(std::string_view text);

/// A user's value for a message, in single quotes: escaped, and cut after 60 bytes with a note of
/// its length: 'abc', 'a\nb', 'xxxx…' (10485760 bytes).
std::string quote_value(std::string_view value);

/// A message made safe for one line: escaped, and cut after 1000 bytes with a note of its length.
std::string one_line(std::string_view message);

/// "a, b, c", or the first 10 then "… and N more"; each item escaped and cut as `quote_value`
/// does, without the quotes.
std::string listed(const std::vector<std::string>& items);

/// "1 warp", "0 warps", "8 warps"; the plural is `singular` + "s" unless given.
std::string counted(Count n, std::string_view singular);
std::string counted(Count n, std::string_view singular, std::string_view plural);

/// The name in `known` nearest to `typed` (case-insensitive optimal string alignment distance: at
/// most two edits, and at least half the name intact), or "" when none is close: for "did you mean".
std::string closest_name(const std::string& typed, const std::vector<std::string>& known);

}  // namespace warpdiv::sim
