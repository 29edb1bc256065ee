#include "analysis/npy.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>

#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::analysis {

const std::vector<std::string>& npy_element_types() {
  static const std::vector<std::string> kTypes = {"<f4", "<f8", "|i1", "|u1", "|b1", "<i2",
                                                  "<u2", "<i4", "<u4", "<i8", "<u8"};
  return kTypes;
}

std::string npy_element_types_text() {
  std::string s;
  for (const std::string& t : npy_element_types()) s += (s.empty() ? "" : ", ") + t;
  return s;
}

namespace {

constexpr std::uint64_t kMaxDimension = (std::uint64_t{1} << 63) - 1;  // numpy's intp

[[noreturn]] void refuse(const std::string& source, const std::string& what) {
  throw InvalidInput(Diag::file_format, sim::one_line(source + " (a NumPy .npy file): " + what));
}

std::uint64_t read_le(const std::string& bytes, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i)
    v = v << 8 | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  return v;
}

// Where the header dict lies: bytes [at, at + length), the data from at + length on.
struct Preamble {
  std::size_t at = 0, length = 0;
};

// The magic string, the version, the header's length, and the 64-byte alignment the format gives.
Preamble read_preamble(const std::string& bytes, const std::string& source) {
  static const std::string kMagic = std::string("\x93NUMPY", 6);
  if (bytes.compare(0, 6, kMagic) != 0) refuse(source, "it does not start with the magic string \\x93NUMPY");
  if (bytes.size() < 8) refuse(source, "the file ends inside its version (bytes 6 and 7)");
  const int major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0)
    refuse(source, "the format version " + std::to_string(major) + "." + std::to_string(minor) +
                       " is not known (allowed: 1.0, 2.0, 3.0)");
  const int length_bytes = major == 1 ? 2 : 4;
  Preamble p;
  p.at = 8 + static_cast<std::size_t>(length_bytes);
  if (bytes.size() < p.at)
    refuse(source, "the file ends inside its header length (bytes 8 to " + std::to_string(p.at - 1) + ")");
  p.length = static_cast<std::size_t>(read_le(bytes, 8, length_bytes));
  if (p.length > bytes.size() - p.at)
    refuse(source, "the header of " + std::to_string(p.length) + " bytes from byte " + std::to_string(p.at) +
                       " runs past the end of the file (" + std::to_string(bytes.size()) + " bytes)");
  if ((p.at + p.length) % 64 != 0)
    refuse(source, "the header ends at byte " + std::to_string(p.at + p.length) +
                       ", not a multiple of 64 (the format pads it with spaces to a multiple of 64 bytes)");
  if (p.length == 0 || bytes[p.at + p.length - 1] != '\n')
    refuse(source, "the header does not end with a newline at byte " + std::to_string(p.at + p.length - 1));
  return p;
}

// A cursor over the header: the Python dict literal numpy writes, then spaces, then '\n'.
class Header {
 public:
  Header(const std::string& bytes, const Preamble& p, const std::string& source)
      : bytes_(bytes), begin_(p.at), at_(p.at), end_(p.at + p.length - 1), source_(source) {}

  [[noreturn]] void fail(const std::string& what) const {
    refuse(source_, "the header (bytes " + std::to_string(begin_) + " to " + std::to_string(end_) +
                        ") is not the dict {'descr': ..., 'fortran_order': ..., 'shape': (...)}: " + what +
                        " at byte " + std::to_string(at_));
  }
  // Whitespace inside the dict (a Python literal: spaces and tabs).
  void skip_spaces() {
    while (at_ < end_ && (bytes_[at_] == ' ' || bytes_[at_] == '\t')) ++at_;
  }
  // The padding after the dict: spaces (0x20) alone, as the format lays it out.
  void skip_padding() {
    while (at_ < end_ && bytes_[at_] == ' ') ++at_;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }
  bool accept(char c) {
    skip_spaces();
    if (at_ >= end_ || bytes_[at_] != c) return false;
    ++at_;
    return true;
  }
  bool at_end() const { return at_ == end_; }
  // A Python string literal without escapes, in single or double quotes.
  std::string quoted() {
    skip_spaces();
    if (at_ >= end_ || (bytes_[at_] != '\'' && bytes_[at_] != '"')) fail("expected a quoted string");
    const char q = bytes_[at_];
    std::size_t end = at_ + 1;
    while (end < end_ && bytes_[end] != q && bytes_[end] != '\\') ++end;
    if (end >= end_ || bytes_[end] != q) fail("a string without its closing quote (or with an escape)");
    std::string s = bytes_.substr(at_ + 1, end - at_ - 1);
    at_ = end + 1;
    return s;
  }
  // A run of letters and digits (True, False, a dimension).
  std::string word() {
    skip_spaces();
    const std::size_t begin = at_;
    while (at_ < end_ && (std::isalnum(static_cast<unsigned char>(bytes_[at_])) || bytes_[at_] == '_')) ++at_;
    if (begin == at_) fail("expected a value");
    return bytes_.substr(begin, at_ - begin);
  }

 private:
  const std::string& bytes_;
  std::size_t begin_, at_, end_;  // the header's first byte, the cursor, its closing '\n'
  const std::string& source_;
};

// A dimension: digits without a sign, an underscore or a leading zero, at most 2^63 - 1.
std::uint64_t dimension(Header& h) {
  const std::string v = h.word();
  for (const char c : v)
    if (c < '0' || c > '9')
      h.fail("the dimension " + sim::quote_value(v) + " is not a whole number of digits");
  if (v.size() > 1 && v[0] == '0') h.fail("the dimension " + sim::quote_value(v) + " has a leading zero");
  if (v.size() > 19 || std::stoull(v) > kMaxDimension)
    h.fail("the dimension " + (v.size() > 20 ? sim::quote_value(v) : v) +
           " is past 2^63 - 1, numpy's largest");
  return std::stoull(v);
}

// A tuple of dimensions: (), (n,), (n, m) or (n, m,); (n) is a number, not a tuple.
std::vector<std::uint64_t> shape(Header& h) {
  std::vector<std::uint64_t> out;
  h.expect('(');
  while (!h.accept(')')) {
    out.push_back(dimension(h));
    if (h.accept(',')) continue;
    if (out.size() == 1) h.fail("a shape of one dimension is written (n,), with its comma");
    h.expect(')');
    break;
  }
  return out;
}

void read_value(Header& h, const std::string& key, NpyArray& out, const std::string& source) {
  if (key == "descr") {
    out.descr = h.quoted();
    const auto& allowed = npy_element_types();
    if (std::find(allowed.begin(), allowed.end(), out.descr) == allowed.end())
      refuse(source, "the element type (descr) " + sim::quote_value(out.descr) +
                         " is not read (allowed: " + npy_element_types_text() + ")");
  } else if (key == "fortran_order") {
    const std::string v = h.word();
    if (v != "False" && v != "True")
      h.fail("fortran_order is " + sim::quote_value(v) + ", not True or False");
    if (v == "True")
      refuse(source, "the array is in Fortran order; save it in C order (numpy.ascontiguousarray)");
  } else {
    out.shape = shape(h);
  }
}

// The header dict: exactly the keys 'descr', 'fortran_order' and 'shape', each once.
NpyArray read_header(const std::string& bytes, const Preamble& p, const std::string& source) {
  Header h(bytes, p, source);
  NpyArray out;
  std::map<std::string, bool> seen = {{"descr", false}, {"fortran_order", false}, {"shape", false}};
  h.expect('{');
  while (!h.accept('}')) {
    const std::string key = h.quoted();
    const auto it = seen.find(key);
    if (it == seen.end())
      h.fail("the key " + sim::quote_value(key) + " is not one of 'descr', 'fortran_order', 'shape'");
    if (it->second) h.fail("the key " + sim::quote_value(key) + " is given twice");
    it->second = true;
    h.expect(':');
    read_value(h, key, out, source);
    if (!h.accept(',')) {
      h.expect('}');
      break;
    }
  }
  h.skip_padding();
  if (!h.at_end()) h.fail("more than spaces after the dict");
  for (const auto& [key, given] : seen)
    if (!given) h.fail("the key '" + key + "' is missing");
  out.kind = out.descr[1];
  out.item_size = out.descr[2] - '0';
  return out;
}

// "(3,)", "(2, 3)", "()" as numpy writes the shape; past 8 dimensions the first 8, then how many
// there are (a message stays one bounded line and still says why).
std::string shape_text(const std::vector<std::uint64_t>& shape) {
  constexpr std::size_t kShown = 8;
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size() && i < kShown; ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() > kShown) return s + ", ... " + std::to_string(shape.size()) + " dimensions)";
  return s + (shape.size() == 1 ? ",)" : ")");
}

// The shape's product times the element size, against the bytes after the header.
void check_size(NpyArray& a, std::uint64_t data_bytes, const std::string& source) {
  // A zero dimension makes no elements, whatever the others; else each product is checked.
  const bool empty = std::find(a.shape.begin(), a.shape.end(), 0) != a.shape.end();
  bool wraps = false;
  a.count = empty ? 0 : 1;
  for (const std::uint64_t n : a.shape) {
    if (empty) break;
    wraps = wraps || a.count > UINT64_MAX / n;
    a.count *= n;
  }
  const auto item = static_cast<std::uint64_t>(a.item_size);
  wraps = wraps || a.count > UINT64_MAX / item;
  const std::string need = wraps ? "more than 2^64 - 1" : std::to_string(a.count * item);
  if (wraps || a.count * item != data_bytes)
    refuse(source, "the shape " + shape_text(a.shape) + " of " + a.descr + " elements needs " + need +
                       " bytes of data, but the file holds " + std::to_string(data_bytes) +
                       " after its header");
}

void check_bools(const NpyArray& a, std::size_t data_at, const std::string& source) {
  if (const std::optional<std::size_t> k = first_non_bool(a.data))
    refuse(source, "element " + std::to_string(*k) + " (byte " + std::to_string(data_at + *k) +
                       " of the file) is " + std::to_string(static_cast<unsigned char>(a.data[*k])) +
                       "; a bool (|b1) element is 0 or 1");
}

}  // namespace

std::optional<std::size_t> first_non_bool(const std::string& bytes) {
  for (std::size_t k = 0; k < bytes.size(); ++k)
    if (static_cast<unsigned char>(bytes[k]) > 1) return k;
  return std::nullopt;
}

NpyArray parse_npy(const std::string& bytes, const std::string& source) {
  const Preamble p = read_preamble(bytes, source);
  NpyArray out = read_header(bytes, p, source);
  const std::size_t data_at = p.at + p.length;
  check_size(out, bytes.size() - data_at, source);
  out.data = bytes.substr(data_at);
  if (out.kind == 'b') check_bools(out, data_at, source);
  return out;
}

std::string npy_matches(const NpyArray& array, const std::string& pointee) {
  // The C types of the host (LP64, as nvcc on Linux) by kind and size. Clang spells C++'s bool
  // "_Bool" in its default printing policy, so both spellings are here.
  static const std::map<std::string, std::pair<char, int>> kTypes = {
      {"float", {'f', 4}},          {"double", {'f', 8}},
      {"char", {'i', 1}},           {"signed char", {'i', 1}},
      {"unsigned char", {'u', 1}},  {"bool", {'b', 1}},
      {"_Bool", {'b', 1}},          {"short", {'i', 2}},
      {"unsigned short", {'u', 2}}, {"int", {'i', 4}},
      {"unsigned int", {'u', 4}},   {"unsigned", {'u', 4}},
      {"long", {'i', 8}},           {"unsigned long", {'u', 8}},
      {"long long", {'i', 8}},      {"unsigned long long", {'u', 8}},
      {"int8_t", {'i', 1}},         {"uint8_t", {'u', 1}},
      {"int16_t", {'i', 2}},        {"uint16_t", {'u', 2}},
      {"int32_t", {'i', 4}},        {"uint32_t", {'u', 4}},
      {"int64_t", {'i', 8}},        {"uint64_t", {'u', 8}}};
  const auto name = [](char kind, int size) {
    const std::string bits = std::to_string(size * 8);
    return kind == 'f'   ? "float" + bits
           : kind == 'u' ? "uint" + bits
           : kind == 'b' ? std::string("bool")
                         : "int" + bits;
  };
  const auto it = kTypes.find(pointee);
  if (it == kTypes.end())
    return "the parameter points to " + pointee + ", which no .npy element type matches";
  char kind = array.kind;
  // char's signedness is the platform's: either int8 or uint8 matches it.
  if (pointee == "char" && kind == 'u' && array.item_size == 1) kind = 'i';
  if (kind == it->second.first && array.item_size == it->second.second) return "";
  return "the file holds " + name(array.kind, array.item_size) + " (" + array.descr +
         ") but the parameter points to " + pointee + " (" + name(it->second.first, it->second.second) + ")";
}

}  // namespace warpdiv::analysis
