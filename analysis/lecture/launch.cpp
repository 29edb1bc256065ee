#include "analysis/lecture/launch.hpp"

#include <sstream>

#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::lecture {

using sim::checked_mul;

LaunchConfig LaunchConfig::shape(std::int64_t rows, std::int64_t inner, std::int64_t cols, int tile,
                                 int warp_size) {
  LaunchConfig c;
  c.rows = rows;
  c.inner = inner;
  c.cols = cols;
  c.tile = tile;
  c.warp_size = warp_size;
  return c;
}

LaunchConfig LaunchConfig::square(std::int64_t width, int tile, int warp_size) {
  return shape(width, width, width, tile, warp_size);
}

bool operator==(const LaunchConfig& a, const LaunchConfig& b) {
  return a.rows == b.rows && a.inner == b.inner && a.cols == b.cols && a.tile == b.tile &&
         a.warp_size == b.warp_size;
}

bool is_power_of_two(int value) { return value > 0 && (value & (value - 1)) == 0; }

namespace {
void check_size(const char* name, std::int64_t value) {
  if (value < limits::kMinSize || value > limits::kMaxSize) {
    std::ostringstream msg;
    msg << name << " must be an integer from " << limits::kMinSize << " to " << limits::kMaxSize << " (got "
        << value << ")";
    throw InvalidInput(Diag::flag_value, msg.str());
  }
}
}  // namespace

void validate(const LaunchConfig& config) {
  check_size("rows (J)", config.rows);
  check_size("inner (K)", config.inner);
  check_size("cols (L)", config.cols);
  if (config.tile < limits::kMinTile || config.tile > limits::kMaxTile) {
    throw InvalidInput(Diag::flag_value,
                       "tile must be an integer from 1 to 32 (T*T <= 1024 threads per block; got " +
                           std::to_string(config.tile) + ")");
  }
  if (config.warp_size < limits::kMinWarpSize || config.warp_size > limits::kMaxWarpSize ||
      !is_power_of_two(config.warp_size)) {
    throw InvalidInput(Diag::flag_value, "warp size must be a power of two from 1 to 64 (got " +
                                             std::to_string(config.warp_size) + ")");
  }
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

Geometry::Geometry(const LaunchConfig& c) : config(c) {
  validate(c);
  grid_x = ceil_div(c.cols, c.tile);
  grid_y = ceil_div(c.rows, c.tile);
  phases = ceil_div(c.inner, c.tile);
  threads_per_block = c.tile * c.tile;
  warps_per_block = static_cast<int>(ceil_div(threads_per_block, c.warp_size));
  lanes_in_last_warp = threads_per_block - (warps_per_block - 1) * c.warp_size;
}

int Geometry::lanes_in_warp(int warp) const {
  return warp == warps_per_block - 1 ? lanes_in_last_warp : config.warp_size;
}

std::string describe(const LaunchConfig& c) {
  std::ostringstream s;
  s << "M[" << c.rows << " x " << c.inner << "] * N[" << c.inner << " x " << c.cols << "], tile " << c.tile
    << " x " << c.tile << ", warp size " << c.warp_size;
  return s.str();
}

Count Geometry::warp_phases() const {
  return checked_mul(checked_mul(checked_mul(static_cast<Count>(grid_x), grid_y), phases),
                     static_cast<Count>(warps_per_block));
}

}  // namespace warpdiv::lecture
