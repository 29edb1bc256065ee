// Launch geometry of the tiled matrix multiply P[J x L] = M[J x K] * N[K x L] with tile width T:
// blockDim = (T, T), grid = (ceil(L/T), ceil(J/T)), phases p = 0 .. ceil(K/T) - 1.
#pragma once

#include <cstdint>
#include <string>

#include "sim/support/count.hpp"

namespace warpdiv::lecture {

using sim::Count;

namespace limits {
constexpr std::int64_t kMinSize = 1;
constexpr std::int64_t kMaxSize = 2147483647;  // 2^31 - 1, per dimension (J, K, L)
constexpr int kMinTile = 1;
constexpr int kMaxTile = 32;  // T*T <= 1024 threads per block
constexpr int kMinWarpSize = 1;
constexpr int kMaxWarpSize = 64;  // lane masks are 64-bit
constexpr int kDefaultTile = 16;
constexpr int kDefaultWarpSize = 32;
constexpr std::int64_t kLectureWidth = 100;
}  // namespace limits

/// What the user asks about: matrix sizes, tile width and warp size.
struct LaunchConfig {
  std::int64_t rows = limits::kLectureWidth;   // J: rows of M and P
  std::int64_t inner = limits::kLectureWidth;  // K: columns of M, rows of N
  std::int64_t cols = limits::kLectureWidth;   // L: columns of N and P
  int tile = limits::kDefaultTile;             // T
  int warp_size = limits::kDefaultWarpSize;    // S

  /// A J x K x L launch (rows, inner, cols).
  static LaunchConfig shape(std::int64_t rows, std::int64_t inner, std::int64_t cols,
                            int tile = limits::kDefaultTile, int warp_size = limits::kDefaultWarpSize);
  /// A square W x W x W launch.
  static LaunchConfig square(std::int64_t width, int tile = limits::kDefaultTile,
                             int warp_size = limits::kDefaultWarpSize);
};

bool operator==(const LaunchConfig& a, const LaunchConfig& b);

/// Throws warpdiv::InvalidInput naming the first field out of range and the allowed range.
void validate(const LaunchConfig& config);

/// True when the warp size is a power of two (1, 2, 4, ... 64).
bool is_power_of_two(int value);

/// Quantities derived from a valid LaunchConfig.
struct Geometry {
  LaunchConfig config;
  std::int64_t grid_x = 0;     // block-columns, ceil(L / T)
  std::int64_t grid_y = 0;     // block-rows, ceil(J / T)
  std::int64_t phases = 0;     // tile-loop iterations, ceil(K / T)
  int threads_per_block = 0;   // T * T
  int warps_per_block = 0;     // ceil(T * T / S); the last one may be partial
  int lanes_in_last_warp = 0;  // existing lanes of the last warp (S when T*T is a multiple of S)

  explicit Geometry(const LaunchConfig& config);  // validates

  std::int64_t blocks() const { return grid_x * grid_y; }
  /// Warp-phases per phase-loop check: blocks * warps per block * phases (exact, 128-bit).
  Count warp_phases() const;
  /// Existing lanes of warp w of a block (S, or fewer for the last, partial warp).
  int lanes_in_warp(int warp) const;
};

std::int64_t ceil_div(std::int64_t a, std::int64_t b);

/// "100 x 100 x 100, T = 16, warp 32" style description for reports and messages.
std::string describe(const LaunchConfig& config);

}  // namespace warpdiv::lecture
