// Fuzz target: the reader of NumPy .npy files for `--data` (analysis/npy.cpp), given the whole
// input, then the element-type check against every C type it names. Refusals are InvalidInput;
// anything else is a bug, and so is an accepted array whose data is not its shape's product
// times its element size, or a bool element other than 0 or 1.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "analysis/npy.hpp"
#include "fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace an = warpdiv::analysis;
  using warpdiv::fuzz::expect_no_surprise;
  const std::string text(reinterpret_cast<const char*>(data), size);
  expect_no_surprise([&] {
    const an::NpyArray a = an::parse_npy(text, "fuzz.npy");
    std::uint64_t count = 1;
    for (const std::uint64_t n : a.shape) count *= n;  // no wrap: the reader checked the product
    if (count != a.count || a.data.size() != a.count * static_cast<std::uint64_t>(a.item_size)) std::abort();
    if (a.kind == 'b')
      for (const char c : a.data)
        if (c != 0 && c != 1) std::abort();
    for (const char* type : {"float", "double", "char", "unsigned char", "bool", "_Bool", "int",
                             "unsigned int", "long", "short", "uint64_t"})
      (void)an::npy_matches(a, type);
  });
  return 0;
}
