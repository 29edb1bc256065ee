// The .npy reader (analysis/npy.hpp) on files built here byte by byte as numpy.lib.format's
// documentation lays them out (magic, version, little-endian header length, the dict padded with
// spaces to a multiple of 64 bytes with the preamble, '\n', then the data).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "analysis/npy.hpp"
#include "sim/errors.hpp"

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
  const NpyArray a = parse_npy(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
                                      floats({1.5f, -2.0f, 0.25f})),
                               "a.npy");
  EXPECT_EQ(a.descr, "<f4");
  EXPECT_EQ(a.kind, 'f');
  EXPECT_EQ(a.item_size, 4);
  ASSERT_EQ(a.shape.size(), 1u);
  EXPECT_EQ(a.count, 3u);
  float second = 0;
  std::memcpy(&second, a.data.data() + 4, 4);
  EXPECT_EQ(second, -2.0f);
  const NpyArray m = parse_npy(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                                      floats({1, 2, 3, 4, 5, 6})),
                               "m.npy");
  EXPECT_EQ(m.count, 6u);
  // A scalar: shape () holds one element.
  EXPECT_EQ(parse_npy(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", floats({7})), "s.npy").count, 1u);
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
  const NpyArray f4 = parse_npy(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", floats({1})), "f");
  EXPECT_EQ(npy_matches(f4, "float"), "");
  EXPECT_EQ(npy_matches(f4, "double"), "the file holds float32 (<f4) but the parameter points to double (float64)");
  EXPECT_EQ(npy_matches(f4, "int"), "the file holds float32 (<f4) but the parameter points to int (int32)");
  const NpyArray u1 = parse_npy(npy_v1("{'descr': '|u1', 'fortran_order': False, 'shape': (1,), }", "x"), "c");
  EXPECT_EQ(npy_matches(u1, "char"), "");  // char is int8 or uint8 as the platform has it
  EXPECT_EQ(npy_matches(u1, "unsigned char"), "");
  EXPECT_NE(npy_matches(u1, "signed char"), "");
  const NpyArray i8 = parse_npy(npy_v1("{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0')), "l");
  EXPECT_EQ(npy_matches(i8, "long long"), "");
  EXPECT_EQ(npy_matches(i8, "int64_t"), "");
  EXPECT_NE(npy_matches(i8, "int"), "");
}

TEST(Npy, RefusesWhatItCannotRead) {
  const auto message = [](const std::string& bytes) {
    try {
      parse_npy(bytes, "x.npy");
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("PK\x03\x04 not numpy"), "x.npy: not a .npy file (it does not start with \\x93NUMPY)");
  EXPECT_EQ(message(npy_v1("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", floats({1}))),
            "x.npy: the element type '>f4' is not a little-endian number (allowed: <f4, <f8, |i1, |u1, |b1, "
            "<i2, <u2, <i4, <u4, <i8, <u8)");
  EXPECT_EQ(message(npy_v1("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", floats({1}))),
            "x.npy: the array is in Fortran order; save it in C order (numpy.ascontiguousarray)");
  EXPECT_EQ(message(npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", floats({1, 2}))),
            "x.npy: the data holds 8 bytes where the shape needs 12");
  EXPECT_EQ(message(npy_v1("{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }", "ab")),
            "x.npy: the element type '<f2' (float16) has no C type on the host");
  EXPECT_NE(message(npy_v1("{'descr': '<f4', 'shape': (1,), }", floats({1}))).find("'descr', 'fortran_order' and 'shape' are all needed"),
            std::string::npos);
  std::string truncated = npy_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", floats({1}));
  EXPECT_NE(message(truncated.substr(0, 20)).find("runs past the end of the file"), std::string::npos);
}

}  // namespace
}  // namespace warpdiv::analysis
