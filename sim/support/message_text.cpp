#include "sim/support/message_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace warpdiv::sim {

namespace {

std::string hex_escape(const char* format, unsigned value) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

/// At most `max_bytes` of `text`, not cutting a UTF-8 sequence in two.
std::size_t cut_point(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text.size();
  std::size_t cut = max_bytes;
  for (int back = 0; back < 3 && cut > 0 && is_continuation(static_cast<unsigned char>(text[cut])); ++back)
    --cut;
  return cut;
}

/// The value escaped and cut; `cut` says whether it was.
std::string shown(std::string_view value, bool& cut) {
  const std::size_t keep = cut_point(value, message_limits::kMaxValueBytes);
  cut = keep < value.size();
  return escape_controls(value.substr(0, keep));
}

std::string length_note(std::size_t bytes) { return " (" + std::to_string(bytes) + " bytes)"; }

}  // namespace

std::size_t utf8_sequence(std::string_view text, std::size_t at, unsigned& code_point) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // bounds of the second byte
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  }
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code_point = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code_point = lead & 0x0Fu;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code_point = lead & 0x07u;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if (!is_continuation(byte(i))) return 0;
    code_point = code_point << 6 | (byte(i) & 0x3Fu);
  }
  return length;
}

std::string escape_controls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      out += hex_escape("\\x%02x", c);
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      unsigned code_point = 0;
      const std::size_t length = utf8_sequence(text, i, code_point);
      if (length == 0) {
        out += hex_escape("\\x%02x", c);
      } else {
        if ((code_point >= 0x80 && code_point <= 0x9F) || code_point == 0x2028 || code_point == 0x2029)
          out += hex_escape("\\u%04x", code_point);
        else
          out.append(text.substr(i, length));
        i += length;
        continue;
      }
    }
    ++i;
  }
  return out;
}

std::string quote_value(std::string_view value) {
  bool cut = false;
  const std::string text = shown(value, cut);
  return cut ? "'" + text + "…'" + length_note(value.size()) : "'" + text + "'";
}

std::string one_line(std::string_view message) {
  const std::string escaped = escape_controls(message);
  const std::size_t keep = cut_point(escaped, message_limits::kMaxMessageBytes);
  if (keep == escaped.size()) return escaped;
  return escaped.substr(0, keep) + "… (" + std::to_string(message.size()) + " bytes in all)";
}

std::string listed(const std::vector<std::string>& items) {
  std::string text;
  const std::size_t shown_items =
      items.size() <= message_limits::kMaxListedItems ? items.size() : message_limits::kMaxListedItems;
  for (std::size_t i = 0; i < shown_items; ++i) {
    bool cut = false;
    text += (i ? ", " : "") + shown(items[i], cut);
    if (cut) text += "…";
  }
  if (shown_items < items.size()) text += ", … and " + std::to_string(items.size() - shown_items) + " more";
  return text;
}

std::string counted(Count n, std::string_view singular) {
  return counted(n, singular, std::string(singular) + "s");
}

std::string counted(Count n, std::string_view singular, std::string_view plural) {
  return to_decimal(n) + " " + std::string(n == 1 ? singular : plural);
}

std::string closest_name(const std::string& typed, const std::vector<std::string>& known) {
  const auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  // Longer input cannot be a near miss of our short names; do not spend time on it.
  constexpr std::size_t kMaxTyped = 64;
  if (typed.size() > kMaxTyped) return "";
  const std::string a = lower(typed);
  std::string best;
  std::size_t best_distance = 3;  // at most two edits
  for (const std::string& name : known) {
    const std::string b = lower(name);
    // Optimal string alignment distance: insertions, deletions, substitutions, transpositions.
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
        d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
          d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
    const std::size_t distance = d[a.size()][b.size()];
    // Two edits of a four-letter name leave little of it: demand half the name intact.
    if (distance < best_distance && 2 * distance < b.size()) {
      best = name;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace warpdiv::sim
