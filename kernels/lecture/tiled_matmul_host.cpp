// The part of kernels/lecture/tiled_matmul.hpp that needs no GPU: the memory a shape needs. Built with and
// without CUDA.
#include <limits>
#include <stdexcept>

#include "kernels/lecture/tiled_matmul.hpp"
#include "sim/support/count.hpp"

namespace warpdiv::kernels {

std::uint64_t device_bytes_needed(const MatmulShape& shape) {
  using sim::checked_add;
  using sim::checked_mul;
  using sim::Count;
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  const auto elements = [](std::int64_t a, std::int64_t b) {
    return checked_mul(static_cast<Count>(a), static_cast<Count>(b));
  };
  try {
    const Count floats =
        checked_add(checked_add(elements(shape.rows, shape.inner), elements(shape.inner, shape.cols)),
                    elements(shape.rows, shape.cols));
    const Count bytes = checked_mul(floats, sizeof(float));
    return bytes > kMax ? kMax : static_cast<std::uint64_t>(bytes);
  } catch (const std::overflow_error&) {
    return kMax;
  }
}

}  // namespace warpdiv::kernels
