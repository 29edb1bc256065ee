// Fuzz target: the Matrix Market reader for `--data NAME=A.mtx:VIEW` (analysis/matrix_market.cpp),
// given the whole input, then every view as int, long, short, float and double. Refusals are
// InvalidInput; anything else is a bug, and so is an accepted matrix whose entries are not sorted
// by (row, column) once each and within its size.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

#include "analysis/matrix_market.hpp"
#include "fuzz/fuzz_common.hpp"

namespace {

void check_entries(const warpdiv::analysis::SparseMatrix& m) {
  if (m.row.size() != m.entries() || m.col.size() != m.entries()) std::abort();
  for (std::size_t k = 0; k < m.entries(); ++k) {
    if (m.row[k] < 0 || m.col[k] < 0 || static_cast<std::uint64_t>(m.row[k]) >= m.rows ||
        static_cast<std::uint64_t>(m.col[k]) >= m.cols)
      std::abort();
    if (k > 0 && std::make_pair(m.row[k - 1], m.col[k - 1]) >= std::make_pair(m.row[k], m.col[k]))
      std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace an = warpdiv::analysis;
  using warpdiv::fuzz::expect_no_surprise;
  const std::string text(reinterpret_cast<const char*>(data), size);
  expect_no_surprise([&] {
    const an::SparseMatrix m = an::parse_matrix_market(text, "'fuzz.mtx'");
    check_entries(m);
    const std::pair<const char*, std::uint64_t> types[] = {
        {"int", 4}, {"long", 8}, {"short", 2}, {"float", 4}, {"double", 8}};
    for (const std::string& view : an::matrix_market_views()) {
      // csr.row_ptr holds ROWS + 1 elements, as the kernel's buffer must: up to 2^26 of them, too
      // slow to build for every input of a fuzzing run; the entry views follow the file.
      if (view == "csr.row_ptr" && m.rows > (1u << 16)) continue;
      for (const auto& type : types)  // not a structured binding: C++17 lambdas cannot capture one
        expect_no_surprise(
            [&] { (void)an::matrix_market_view(m, view, type.first, type.second, "--data fuzz"); });
    }
  });
  return 0;
}
