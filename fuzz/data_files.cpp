// Fuzz target: the readers of `--data` files (issue 22), each given the whole input: NumPy's .npy
// (then the element-type check against every C type it names), and Matrix Market text (then every
// view as int, long, short, float and double). Refusals are InvalidInput; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/matrix_market.hpp"
#include "analysis/npy.hpp"
#include "fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace an = warpdiv::analysis;
  using warpdiv::fuzz::expect_no_surprise;
  const std::string text(reinterpret_cast<const char*>(data), size);
  expect_no_surprise([&] {
    const an::NpyArray a = an::parse_npy(text, "fuzz.npy");
    for (const char* type : {"float", "double", "char", "unsigned char", "int", "unsigned int", "long", "short"})
      (void)an::npy_matches(a, type);
  });
  expect_no_surprise([&] {
    const an::SparseMatrix m = an::parse_matrix_market(text, "fuzz.mtx");
    const std::pair<const char*, std::uint64_t> types[] = {
        {"int", 4}, {"long", 8}, {"short", 2}, {"float", 4}, {"double", 8}};
    for (const std::string& view : an::matrix_market_views())
      for (const auto& [type, bytes] : types)
        expect_no_surprise([&] { (void)an::matrix_market_view(m, view, type, bytes, "--data fuzz"); });
  });
  return 0;
}
