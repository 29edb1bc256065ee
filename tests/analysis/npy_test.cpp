// The .npy reader (analysis/npy.hpp) on files built here byte by byte as numpy.lib.format's
// documentation lays them out (magic, version, little-endian header length, the dict padded with
// spaces to a multiple of 64 bytes with the preamble, '\n', then the data).
#include <gtest/gtest.h>

#include <cstring>
#include <iterator>
#include <utility>
#include <string>

#include "analysis/npy.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::analysis {
namespace {

// A version-1.0 file: header `dict`, then `data`.
std::string npy_v1(const std::string& dict, const std::string& data) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

std::string floats(std::initializer_list<float> values) {
  std::string out;
  for (float v : values) {
    char b[4];
    std::memcpy(b, &v, 4);  // the host is little-endian, as the files are
    out.append(b, 4);
  }
  return out;
}

TEST(Npy, ReadsFloat32VectorAndMatrix) {
  const NpyArray a = parse_npy(
      npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", floats({1.5f, -2.0f, 0.25f})),
      "a.npy");
  EXPECT_EQ(a.descr, "<f4");
  EXPECT_EQ(a.kind, 'f');
  EXPECT_EQ(a.item_size, 4);
  ASSERT_EQ(a.shape.size(), 1u);
  EXPECT_EQ(a.count, 3u);
  float second = 0;
  std::memcpy(&second, a.data.data() + 4, 4);
  EXPECT_EQ(second, -2.0f);
  const NpyArray m = parse_npy(
      npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", floats({1, 2, 3, 4, 5, 6})),
      "m.npy");
  EXPECT_EQ(m.count, 6u);
  // A scalar: shape () holds one element.
  EXPECT_EQ(parse_npy(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", floats({7})), "s.npy")
                .count,
            1u);
}

TEST(Npy, Version2HasAFourByteHeaderLength) {
  std::string header = "{'descr': '|u1', 'fortran_order': False, 'shape': (4,), }";
  while ((12 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string file = std::string("\x93NUMPY\x02\x00", 8);
  for (int i = 0; i < 4; ++i) file += static_cast<char>(header.size() >> (8 * i) & 0xff);
  file += header + std::string("\x01\x02\x03\xff", 4);
  const NpyArray a = parse_npy(file, "b.npy");
  EXPECT_EQ(a.count, 4u);
  EXPECT_EQ(static_cast<unsigned char>(a.data[3]), 0xffu);
}

TEST(Npy, TypesMatchThePointee) {
  const NpyArray f4 =
      parse_npy(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", floats({1})), "f");
  EXPECT_EQ(npy_matches(f4, "float"), "");
  EXPECT_EQ(npy_matches(f4, "double"),
            "the file holds float32 (<f4) but the parameter points to double (float64)");
  EXPECT_EQ(npy_matches(f4, "int"), "the file holds float32 (<f4) but the parameter points to int (int32)");
  const NpyArray u1 =
      parse_npy(npy_v1("{'descr': '|u1', 'fortran_order': False, 'shape': (1,), }", "x"), "c");
  EXPECT_EQ(npy_matches(u1, "char"), "");  // char is int8 or uint8 as the platform has it
  EXPECT_EQ(npy_matches(u1, "unsigned char"), "");
  EXPECT_NE(npy_matches(u1, "signed char"), "");
  const NpyArray i8 = parse_npy(
      npy_v1("{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0')), "l");
  EXPECT_EQ(npy_matches(i8, "long long"), "");
  EXPECT_EQ(npy_matches(i8, "int64_t"), "");
  EXPECT_NE(npy_matches(i8, "int"), "");
}

// The message of parsing `bytes`, or "accepted".
std::string message(const std::string& bytes) {
  try {
    parse_npy(bytes, "x.npy");
  } catch (const InvalidInput& e) {
    return std::string(e.what());
  }
  return std::string("accepted");
}

// A file with the header exactly as given (no padding added): magic, version, length, header.
std::string npy_raw(int major, const std::string& header, const std::string& data) {
  std::string out = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
  const int length_bytes = major == 1 ? 2 : 4;
  for (int i = 0; i < length_bytes; ++i) out += static_cast<char>(header.size() >> (8 * i) & 0xff);
  return out + header + data;
}

const std::string kPrefix = "x.npy (a NumPy .npy file): ";
const std::string kNotTheDict = "is not the dict {'descr': ..., 'fortran_order': ..., 'shape': (...)}: ";

TEST(Npy, RefusesWhatItCannotRead) {
  EXPECT_EQ(message("PK\x03\x04 not numpy"), kPrefix + "it does not start with the magic string \\x93NUMPY");
  EXPECT_EQ(message(npy_v1("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", floats({1}))),
            kPrefix +
                "the element type (descr) '>f4' is not read (allowed: <f4, <f8, |i1, |u1, |b1, <i2, <u2, "
                "<i4, <u4, <i8, <u8)");
  EXPECT_EQ(message(npy_v1("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", floats({1}))),
            kPrefix + "the array is in Fortran order; save it in C order (numpy.ascontiguousarray)");
  // Data of 8 bytes where 3 x 4 are needed, and 16 where 12 are.
  EXPECT_EQ(
      message(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", floats({1, 2}))),
      kPrefix +
          "the shape (3,) of <f4 elements needs 12 bytes of data, but the file holds 8 after its header");
  EXPECT_EQ(
      message(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", floats({1, 2, 3, 4}))),
      kPrefix +
          "the shape (3,) of <f4 elements needs 12 bytes of data, but the file holds 16 after its header");
  EXPECT_EQ(message(npy_v1("{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }", "ab")),
            kPrefix +
                "the element type (descr) '<f2' is not read (allowed: <f4, <f8, |i1, |u1, |b1, <i2, <u2, "
                "<i4, <u4, <i8, <u8)");
  // A 33-byte dict: the header is padded to bytes 10 to 63, the '\n' at byte 63 where the keys
  // are counted.
  EXPECT_EQ(message(npy_v1("{'descr': '<f4', 'shape': (1,), }", floats({1}))),
            kPrefix + "the header (bytes 10 to 63) " + kNotTheDict +
                "the key 'fortran_order' is missing at byte 63");
  // The 57-byte dict of three keys is padded to 118 bytes (10 + 57 + 1 = 68, up to 128); cut to
  // 20 bytes, the file ends before them.
  const std::string whole = npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", floats({1}));
  EXPECT_EQ(message(whole.substr(0, 20)),
            kPrefix + "the header of 118 bytes from byte 10 runs past the end of the file (20 bytes)");
}

TEST(Npy, ShapesWhoseByteCountPasses2To64AreRefused) {
  // 2^62 elements of 8 bytes: 2^65 bytes, which wraps to 0 in 64 bits; the file holds none.
  EXPECT_EQ(
      message(npy_v1("{'descr': '<i8', 'fortran_order': False, 'shape': (4611686018427387904,), }", "")),
      kPrefix +
          "the shape (4611686018427387904,) of <i8 elements needs more than 2^64 - 1 bytes of data, "
          "but the file holds 0 after its header");
  // 2^32 x 2^32 one-byte elements: the element count itself wraps to 0.
  EXPECT_EQ(
      message(npy_v1("{'descr': '|u1', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", "")),
      kPrefix +
          "the shape (4294967296, 4294967296) of |u1 elements needs more than 2^64 - 1 bytes of data, "
          "but the file holds 0 after its header");
  // 2^61 x 4 bytes: 2^63 bytes, no wrap, but the file holds 4.
  EXPECT_EQ(message(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (2305843009213693952,), }",
                           floats({1}))),
            kPrefix +
                "the shape (2305843009213693952,) of <f4 elements needs 9223372036854775808 bytes of data, "
                "but the file holds 4 after its header");
  // 10,000 dimensions of 1: the shape is shown by its first 8 and its length, so that the reason
  // fits the one-line message.
  std::string ones;
  for (int i = 0; i < 10000; ++i) ones += "1, ";
  EXPECT_EQ(message(npy_v1("{'descr': '<i8', 'fortran_order': False, 'shape': (" + ones + "), }", "")),
            kPrefix +
                "the shape (1, 1, 1, 1, 1, 1, 1, 1, ... 10000 dimensions) of <i8 elements needs 8 bytes "
                "of data, but the file holds 0 after its header");
  // A zero dimension makes no elements, whatever the others are.
  const NpyArray empty = parse_npy(npy_v1("{'descr': '<i8', 'fortran_order': False, 'shape': (0, "
                                          "9223372036854775807, 9223372036854775807), }",
                                          ""),
                                   "e.npy");
  EXPECT_EQ(empty.count, 0u);
  // numpy's dimensions are int64: 2^63 is past them. "{'descr': '<i8', 'fortran_order': False,
  // 'shape': (" is 51 bytes, the 19 digits end at byte 10 + 51 + 19 = 80.
  EXPECT_EQ(
      message(npy_v1("{'descr': '<i8', 'fortran_order': False, 'shape': (9223372036854775808,), }", "")),
      kPrefix + "the header (bytes 10 to 127) " + kNotTheDict +
          "the dimension 9223372036854775808 is past 2^63 - 1, numpy's largest at byte 80");
}

TEST(Npy, TheHeaderIsExactlyTheThreeKeysOnce) {
  // "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'shape'" is 63 bytes: the second
  // 'shape' ends at byte 10 + 63 = 73.
  EXPECT_EQ(
      message(
          npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'shape': (2,), }", floats({1}))),
      kPrefix + "the header (bytes 10 to 127) " + kNotTheDict + "the key 'shape' is given twice at byte 73");
  EXPECT_EQ(
      message(
          npy_v1("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", floats({1}))),
      kPrefix + "the header (bytes 10 to 127) " + kNotTheDict + "the key 'descr' is given twice at byte 34");
  // "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x'" is 59 bytes: byte 69.
  EXPECT_EQ(message(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1, }", floats({1}))),
            kPrefix + "the header (bytes 10 to 127) " + kNotTheDict +
                "the key 'x' is not one of 'descr', 'fortran_order', 'shape' at byte 69");
  // (3) is the number 3 in Python, not a tuple: after "3" at byte 10 + 52 = 62, no comma. These
  // dicts are over 53 bytes: padded to 128 in all, the header is bytes 10 to 127.
  EXPECT_EQ(message(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (3), }", floats({1, 2, 3}))),
            kPrefix + "the header (bytes 10 to 127) " + kNotTheDict +
                "a shape of one dimension is written (n,), with its comma at byte 62");
  EXPECT_EQ(message(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (03,), }", floats({1, 2, 3}))),
            kPrefix + "the header (bytes 10 to 127) " + kNotTheDict +
                "the dimension '03' has a leading zero at byte 63");
  EXPECT_EQ(message(npy_v1("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }", floats({1}))),
            kPrefix + "the header (bytes 10 to 63) " + kNotTheDict +
                "fortran_order is '0', not True or False at byte 45");
  // After the dict, spaces only: the 57-byte dict ends at byte 66, "x" is at byte 68.
  EXPECT_EQ(
      message(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } x", floats({1}))),
      kPrefix + "the header (bytes 10 to 127) " + kNotTheDict + "more than spaces after the dict at byte 68");
  // The padding is spaces (0x20): a tab after the dict at byte 67 is not (inside it, a tab is
  // Python whitespace, and read).
  EXPECT_EQ(
      message(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }\t", floats({1}))),
      kPrefix + "the header (bytes 10 to 127) " + kNotTheDict + "more than spaces after the dict at byte 67");
  EXPECT_EQ(message(npy_v1("{'descr':\t'<f4', 'fortran_order': False, 'shape': (1,), }", floats({1}))),
            "accepted");
  // The string's opening quote is byte 10 + 10.
  EXPECT_EQ(message(npy_v1("{'descr': '<f\\x34', 'fortran_order': False, 'shape': (1,), }", floats({1}))),
            kPrefix + "the header (bytes 10 to 127) " + kNotTheDict +
                "a string without its closing quote (or with an escape) at byte 20");
}

TEST(Npy, ThePreambleIsStrict) {
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }";
  // Version 1.1 and 4.0 are not known; 3.0 (a UTF-8 header) is read as 2.0 is.
  std::string v11 = npy_v1(dict, floats({1}));
  v11[7] = 1;
  EXPECT_EQ(message(v11), kPrefix + "the format version 1.1 is not known (allowed: 1.0, 2.0, 3.0)");
  const std::string header = dict + std::string(128 - 12 - dict.size() - 1, ' ') + "\n";  // 12 + 116 = 128
  EXPECT_EQ(parse_npy(npy_raw(3, header, floats({1})), "v3.npy").count, 1u);
  EXPECT_EQ(message(npy_raw(4, header, floats({1}))),
            kPrefix + "the format version 4.0 is not known (allowed: 1.0, 2.0, 3.0)");
  // A header of 42 bytes: it ends at byte 10 + 42 = 52, not a multiple of 64.
  EXPECT_EQ(message(npy_raw(1, "{'descr': '|u1', 'fortran_order': False, \n", "")),
            kPrefix +
                "the header ends at byte 52, not a multiple of 64 (the format pads it with spaces to a "
                "multiple of 64 bytes)");
  // 128 bytes in all (10 + 118), but the last is a space, not '\n'.
  EXPECT_EQ(message(npy_raw(1, dict + std::string(118 - dict.size(), ' '), floats({1}))),
            kPrefix + "the header does not end with a newline at byte 127");
  EXPECT_EQ(message(std::string("\x93NUMPY\x01", 7)),
            kPrefix + "the file ends inside its version (bytes 6 and 7)");
  EXPECT_EQ(message(std::string("\x93NUMPY\x02\x00\x40\x00", 10)),
            kPrefix + "the file ends inside its header length (bytes 8 to 11)");
}

TEST(Npy, BoolsAreReadForBoolPointersAndHoldZeroOrOne) {
  const NpyArray b = parse_npy(
      npy_v1("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", std::string("\x01\x00\x01", 3)),
      "b.npy");
  EXPECT_EQ(b.kind, 'b');
  EXPECT_EQ(b.count, 3u);
  EXPECT_EQ(npy_matches(b, "bool"), "");
  EXPECT_EQ(npy_matches(b, "_Bool"), "");  // Clang's default spelling of bool
  EXPECT_EQ(npy_matches(b, "unsigned char"),
            "the file holds bool (|b1) but the parameter points to unsigned char (uint8)");
  // The 57-byte dict pads the header to byte 128: the data starts there, element 2 is byte 130.
  EXPECT_EQ(message(npy_v1("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                           std::string("\x01\x00\x02", 3))),
            kPrefix + "element 2 (byte 130 of the file) is 2; a bool (|b1) element is 0 or 1");
}

TEST(Npy, EveryListedElementTypeIsReadAndMatchesItsCType) {
  // Each descr of the documented list with the C types it fills (one of each).
  const std::pair<const char*, const char*> pairs[] = {
      {"<f4", "float"},        {"<f8", "double"}, {"|i1", "signed char"},    {"|u1", "unsigned char"},
      {"|b1", "bool"},         {"<i2", "short"},  {"<u2", "unsigned short"}, {"<i4", "int"},
      {"<u4", "unsigned int"}, {"<i8", "long"},   {"<u8", "unsigned long"}};
  ASSERT_EQ(npy_element_types().size(), std::size(pairs));
  for (const auto& [descr, type] : pairs) {
    const int bytes = descr[2] - '0';
    const NpyArray a =
        parse_npy(npy_v1(std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (2,), }",
                         std::string(2 * static_cast<std::size_t>(bytes), '\0')),
                  "t.npy");
    EXPECT_EQ(a.item_size, bytes) << descr;
    EXPECT_EQ(npy_matches(a, type), "") << descr;
  }
}

}  // namespace
}  // namespace warpdiv::analysis
