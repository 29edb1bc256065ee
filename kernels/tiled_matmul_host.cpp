// The parts of kernels/tiled_matmul.hpp that need no GPU: names, padded sizes, memory needs.
// Built with and without CUDA.
#include <limits>
#include <stdexcept>

#include "kernels/counter_layout.hpp"
#include "kernels/tiled_matmul.hpp"
#include "sim/count.hpp"

namespace warpdiv::kernels {

namespace {
sim::Count elements(std::int64_t a, std::int64_t b) {
  return sim::checked_mul(static_cast<sim::Count>(a), static_cast<sim::Count>(b));
}
}  // namespace

const char* name(Kernel kernel) {
  switch (kernel) {
    case Kernel::checked: return "checked";
    case Kernel::instrumented: return "instrumented";
    case Kernel::unchecked: return "unchecked";
  }
  return "?";
}

const char* function_name(Kernel kernel) {
  switch (kernel) {
    case Kernel::checked: return "tiled_matmul_checked";
    case Kernel::instrumented: return "tiled_matmul_instrumented";
    case Kernel::unchecked: return "tiled_matmul_unchecked";
  }
  return "?";
}

lecture::LaunchConfig padded(const lecture::LaunchConfig& config) {
  const lecture::Geometry g(config);
  lecture::LaunchConfig p = config;
  p.rows = g.grid_y * config.tile;
  p.inner = g.phases * config.tile;
  p.cols = g.grid_x * config.tile;
  return p;
}

std::uint64_t device_bytes_needed(const lecture::LaunchConfig& config, bool with_records) {
  using sim::checked_add;
  using sim::checked_mul;
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  try {
    const lecture::Geometry g(config);
    const lecture::LaunchConfig p = padded(config);
    const sim::Count floats = checked_add(
        checked_add(checked_add(elements(config.rows, config.inner),
                                elements(config.inner, config.cols)),
                    checked_add(elements(config.rows, config.cols), elements(p.rows, p.inner))),
        checked_add(elements(p.inner, p.cols), elements(p.rows, p.cols)));
    sim::Count bytes = checked_add(checked_mul(floats, sizeof(float)),
                                   detail::kCounterCount * sizeof(unsigned long long));
    if (with_records) {
      // One byte per warp-phase and one per warp (the store).
      const sim::Count warps = checked_mul(elements(g.grid_x, g.grid_y), g.warps_per_block);
      bytes = checked_add(bytes, checked_add(checked_mul(warps, g.phases), warps));
    }
    return bytes > kMax ? kMax : static_cast<std::uint64_t>(bytes);
  } catch (const std::overflow_error&) {
    return kMax;
  }
}

}  // namespace warpdiv::kernels
