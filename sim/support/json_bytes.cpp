#include "sim/support/json_bytes.hpp"

#include "sim/support/message_text.hpp"

namespace warpdiv::sim {

namespace {

constexpr unsigned kEscapeBase = 0x10FF00;  // + a byte from 0x80: U+10FF80..U+10FFFF
constexpr unsigned kFirstEscape = kEscapeBase + 0x80;

bool is_escape(unsigned code_point) { return code_point >= kFirstEscape; }  // U+10FFFF is the last

/// U+10FF00 + `byte` in UTF-8: F4 8F BE/BF xx.
void append_escape(std::string& out, unsigned char byte) {
  const unsigned code_point = kEscapeBase + byte;
  out += static_cast<char>(0xF0 | (code_point >> 18));
  out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
  out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
  out += static_cast<char>(0x80 | (code_point & 0x3F));
}

}  // namespace

std::string escape_bytes(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size();) {
    unsigned code_point = 0;
    const std::size_t length = utf8_sequence(bytes, i, code_point);
    if (length == 0) {
      append_escape(out, static_cast<unsigned char>(bytes[i]));
      ++i;
      continue;
    }
    if (is_escape(code_point))
      for (std::size_t b = 0; b < length; ++b) append_escape(out, static_cast<unsigned char>(bytes[i + b]));
    else
      out.append(bytes.substr(i, length));
    i += length;
  }
  return out;
}

std::string unescape_bytes(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    unsigned code_point = 0;
    std::size_t length = utf8_sequence(text, i, code_point);
    if (length == 0) length = 1;  // not from a JSON parser: kept as it is
    if (length == 4 && is_escape(code_point))
      out += static_cast<char>(code_point - kEscapeBase);
    else
      out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

}  // namespace warpdiv::sim
