#include "analysis/npy.hpp"

#include <cctype>
#include <map>

#include "sim/errors.hpp"
#include "sim/message_text.hpp"

namespace warpdiv::analysis {

namespace {


// A cursor over the header dict.
struct Header {
  const std::string& text;
  const std::string& source;
  std::size_t at = 0;
  void skip_spaces() {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\n' || text[at] == '\t')) ++at;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidInput(source + ": not a .npy header: " + what + " at byte " + std::to_string(at) +
                       " of the header " + sim::quote_value(text));
  }
  void expect(char c) {
    skip_spaces();
    if (at >= text.size() || text[at] != c) fail(std::string("expected '") + c + "'");
    ++at;
  }
  bool accept(char c) {
    skip_spaces();
    if (at < text.size() && text[at] == c) {
      ++at;
      return true;
    }
    return false;
  }
  std::string quoted() {
    skip_spaces();
    if (at >= text.size() || (text[at] != '\'' && text[at] != '"')) fail("expected a quoted string");
    const char q = text[at++];
    const std::size_t end = text.find(q, at);
    if (end == std::string::npos) fail("an unterminated string");
    std::string s = text.substr(at, end - at);
    at = end + 1;
    return s;
  }
  std::string word() {
    skip_spaces();
    const std::size_t begin = at;
    while (at < text.size() && std::isalnum(static_cast<unsigned char>(text[at]))) ++at;
    if (begin == at) fail("expected a value");
    return text.substr(begin, at - begin);
  }
};

std::uint64_t read_le(const std::string& bytes, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  return v;
}

}  // namespace

NpyArray parse_npy(const std::string& bytes, const std::string& source) {
  static const std::string kMagic = std::string("\x93NUMPY", 6);
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic) != 0)
    throw InvalidInput(source + ": not a .npy file (it does not start with \\x93NUMPY)");
  const int major = static_cast<unsigned char>(bytes[6]);
  if (major < 1 || major > 3)
    throw InvalidInput(source + ": .npy format version " + std::to_string(major) + "." +
                       std::to_string(static_cast<unsigned char>(bytes[7])) + " is not known (allowed: 1.0, 2.0, 3.0)");
  const int length_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8u + static_cast<std::size_t>(length_bytes))
    throw InvalidInput(source + ": the .npy file ends inside its header");
  const std::uint64_t header_length = read_le(bytes, 8, length_bytes);
  const std::size_t data_at = 8 + static_cast<std::size_t>(length_bytes) + header_length;
  if (header_length > bytes.size() || data_at > bytes.size())
    throw InvalidInput(source + ": the .npy header's length (" + std::to_string(header_length) +
                       " bytes) runs past the end of the file");
  const std::string text = bytes.substr(8 + static_cast<std::size_t>(length_bytes), header_length);
  Header h{text, source};
  NpyArray out;
  bool have_descr = false, have_order = false, have_shape = false;
  h.expect('{');
  while (!h.accept('}')) {
    const std::string key = h.quoted();
    h.expect(':');
    if (key == "descr") {
      out.descr = h.quoted();
      have_descr = true;
    } else if (key == "fortran_order") {
      const std::string v = h.word();
      if (v != "False" && v != "True") h.fail("fortran_order must be True or False");
      if (v == "True")
        throw InvalidInput(source + ": the array is in Fortran order; save it in C order (numpy.ascontiguousarray)");
      have_order = true;
    } else if (key == "shape") {
      h.expect('(');
      while (!h.accept(')')) {
        const std::string v = h.word();
        for (char c : v)
          if (!std::isdigit(static_cast<unsigned char>(c))) h.fail("a dimension that is not a number");
        if (v.size() > 19) h.fail("a dimension too large");
        out.shape.push_back(std::stoull(v));
        if (!h.accept(',')) {
          h.expect(')');
          break;
        }
      }
      have_shape = true;
    } else {
      h.fail("an unknown key " + sim::quote_value(key));
    }
    if (!h.accept(',')) {
      h.expect('}');
      break;
    }
  }
  if (!have_descr || !have_order || !have_shape) h.fail("'descr', 'fortran_order' and 'shape' are all needed");
  const std::string& d = out.descr;
  if (d.size() < 3 || (d[0] != '<' && d[0] != '|' && d[0] != '=') || std::string("fiub").find(d[1]) == std::string::npos)
    throw InvalidInput(source + ": the element type " + sim::quote_value(d) +
                       " is not a little-endian number (allowed: <f4, <f8, |i1, |u1, |b1, <i2, <u2, <i4, <u4, <i8, <u8)");
  out.kind = d[1];
  const std::string size = d.substr(2);
  if (size != "1" && size != "2" && size != "4" && size != "8")
    throw InvalidInput(source + ": the element type " + sim::quote_value(d) + " has a size other than 1, 2, 4 or 8 bytes");
  out.item_size = std::stoi(size);
  if (out.item_size > 1 && d[0] == '|')
    throw InvalidInput(source + ": the element type " + sim::quote_value(d) + " gives no byte order");
  if (out.kind == 'f' && out.item_size < 4)
    throw InvalidInput(source + ": the element type " + sim::quote_value(d) + " (float16) has no C type on the host");
  out.count = 1;
  for (const std::uint64_t n : out.shape) {
    if (n != 0 && out.count > (std::uint64_t{1} << 62) / n)
      throw InvalidInput(source + ": the shape's product passes 2^62 elements");
    out.count *= n;
  }
  const std::uint64_t want = out.count * static_cast<std::uint64_t>(out.item_size);
  if (bytes.size() - data_at != want)
    throw InvalidInput(source + ": the data holds " + std::to_string(bytes.size() - data_at) +
                       " bytes where the shape needs " + std::to_string(want));
  out.data = bytes.substr(data_at);
  return out;
}

std::string npy_matches(const NpyArray& array, const std::string& pointee) {
  // The C types of the host (LP64, as nvcc on Linux) by kind and size.
  static const std::map<std::string, std::pair<char, int>> kTypes = {
      {"float", {'f', 4}},          {"double", {'f', 8}},
      {"char", {'i', 1}},           {"signed char", {'i', 1}},       {"unsigned char", {'u', 1}},
      {"bool", {'b', 1}},
      {"short", {'i', 2}},          {"unsigned short", {'u', 2}},
      {"int", {'i', 4}},            {"unsigned int", {'u', 4}},      {"unsigned", {'u', 4}},
      {"long", {'i', 8}},           {"unsigned long", {'u', 8}},
      {"long long", {'i', 8}},      {"unsigned long long", {'u', 8}},
      {"int8_t", {'i', 1}},         {"uint8_t", {'u', 1}},           {"int16_t", {'i', 2}},
      {"uint16_t", {'u', 2}},       {"int32_t", {'i', 4}},           {"uint32_t", {'u', 4}},
      {"int64_t", {'i', 8}},        {"uint64_t", {'u', 8}}};
  const auto name = [](char kind, int size) {
    const std::string bits = std::to_string(size * 8);
    return kind == 'f' ? "float" + bits : kind == 'u' ? "uint" + bits : kind == 'b' ? std::string("bool") : "int" + bits;
  };
  const auto it = kTypes.find(pointee);
  if (it == kTypes.end()) return "the parameter points to " + pointee + ", which no .npy element type matches";
  char kind = array.kind;
  // char's signedness is the platform's: either int8 or uint8 matches it.
  if (pointee == "char" && kind == 'u' && array.item_size == 1) kind = 'i';
  if (kind == it->second.first && array.item_size == it->second.second) return "";
  return "the file holds " + name(array.kind, array.item_size) + " (" + array.descr + ") but the parameter points to " +
         pointee + " (" + name(it->second.first, it->second.second) + ")";
}

}  // namespace warpdiv::analysis
