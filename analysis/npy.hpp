// A reader of NumPy's .npy files (format versions 1.0, 2.0 and 3.0, as numpy.lib.format writes
// them): the magic string "\x93NUMPY", the version, the header's length (2 bytes, or 4 from
// version 2.0), a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...), }
// padded with spaces to a multiple of 64 bytes and ended by '\n', then the raw data. For
// `warpdiv analyze --data NAME=FILE.npy` (issue 22): the data's element type must match the
// pointer parameter's pointee (npy_matches()).
//
// No Debian package reads .npy from C++ (apt-cache search npy: none; cnpy is not packaged); the
// format is small and fully specified (numpy.lib.format's documentation).
//
// Strict: a file that is not .npy, a header that is not that dict, a byte order other than
// little-endian ('<', or '|' for 1-byte types), Fortran order, or a data size other than shape's
// product times the element size is refused (InvalidInput naming the file and what is wrong).
#pragma once

#include <cstdint>
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

/// Parses the bytes of a .npy file (`source` names it in messages).
NpyArray parse_npy(const std::string& bytes, const std::string& source);

/// Whether the array's elements are the C type `pointee` ("float", "double", "char",
/// "unsigned char", "signed char", "short", "unsigned short", "int", "unsigned int", "long",
/// "unsigned long", "long long", "unsigned long long", int8_t ... uint64_t); "" when they are,
/// else why not ("the file holds float64 (<f8) but the parameter points to float (float32)").
std::string npy_matches(const NpyArray& array, const std::string& pointee);

}  // namespace warpdiv::analysis
