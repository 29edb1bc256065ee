// A reader of NumPy's .npy files (format versions 1.0, 2.0 and 3.0, as numpy.lib.format writes
// them): the magic string "\x93NUMPY", the version, the header's length (2 bytes, or 4 from
// version 2.0), a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...), }
// padded with spaces to a multiple of 64 bytes and ended by '\n', then the raw data. For
// `warpdiv analyze --data NAME=FILE.npy`: the data's element type must match the
// pointer parameter's pointee (npy_matches()).
//
// No Debian package reads .npy from C++ (apt-cache search npy: none; cnpy is not packaged); the
// format is small and fully specified (numpy.lib.format's documentation).
//
// Strict, as the format's specification reads: the version 1.0, 2.0 or 3.0; the header ends at a
// multiple of 64 bytes from the file's start, with '\n'; it is the dict with exactly the keys
// 'descr', 'fortran_order' and 'shape', each once (no other key, no key twice), Python literals
// without escapes, the shape a tuple ((), (n,), (n, m) ...) of dimensions of at most 2^63 - 1
// (numpy's intp), then only spaces; the element type one of npy_element_types() (little-endian
// '<', '|' for one byte); C order; the shape's product times the element size (checked for
// overflow) exactly the bytes after the header; each bool (|b1) element the byte 0 or 1.
// Anything else is refused: InvalidInput "SOURCE (a NumPy .npy file): what is wrong", with the
// byte offset in the file and the allowed values where there are some.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpdiv::analysis {

struct NpyArray {
  std::string descr;                 // "<f4", "|u1", "<i8" ...
  char kind = 0;                     // 'f' float, 'i' signed, 'u' unsigned, 'b' bool
  int item_size = 0;                 // bytes per element
  std::vector<std::uint64_t> shape;  // () for a scalar: one element
  std::uint64_t count = 0;           // elements: the product of shape
  std::string data;                  // count x item_size bytes, little-endian
};

/// The element types (descr) read, as numpy writes them: <f4, <f8, |i1, |u1, |b1, <i2, <u2, <i4,
/// <u4, <i8, <u8.
const std::vector<std::string>& npy_element_types();
/// The same as text: "<f4, <f8, |i1, ...".
std::string npy_element_types_text();

/// The first byte of `bytes` that is no bool (a bool element is the byte 0 or 1: another is
/// undefined behaviour, and nvcc's code reads the byte as it is); nullopt when all are.
std::optional<std::size_t> first_non_bool(const std::string& bytes);

/// Parses the bytes of a .npy file (`source` names it in messages).
NpyArray parse_npy(const std::string& bytes, const std::string& source);

/// Whether the array's elements are the C type `pointee` ("float", "double", "char",
/// "unsigned char", "signed char", "bool" (or "_Bool"), "short", "unsigned short", "int", "unsigned int",
/// "long", "unsigned long", "long long", "unsigned long long", int8_t ... uint64_t); "" when they are, else
/// why not ("the file holds float64 (<f8) but the parameter points to float (float32)").
std::string npy_matches(const NpyArray& array, const std::string& pointee);

}  // namespace warpdiv::analysis
