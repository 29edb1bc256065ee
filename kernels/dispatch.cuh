// A table indexed by the tile width, built once from a template on T, so a run-time T reaches
// the kernel compiled for it (T is a template parameter: the shared tiles are sized statically
// and the inner product unrolls).
#pragma once

#include <array>
#include <string>
#include <utility>

#include "kernels/tiled_matmul.hpp"
#include "sim/errors.hpp"
#include "sim/launch.hpp"

namespace warpdiv::kernels::detail {

constexpr int kTileCount = sim::limits::kMaxTile;  // T = 1 .. 32

/// make_tile_table<Entry, Maker>(): {Maker::template make<1>(), ..., Maker::template make<32>()}.
template <typename Entry, typename Maker, int... Index>
std::array<Entry, sizeof...(Index)> make_tile_table(std::integer_sequence<int, Index...>) {
  return {Maker::template make<Index + 1>()...};
}

template <typename Entry, typename Maker>
const Entry& tile_entry(int tile) {
  static const std::array<Entry, kTileCount> table =
      make_tile_table<Entry, Maker>(std::make_integer_sequence<int, kTileCount>{});
  if (tile < sim::limits::kMinTile || tile > sim::limits::kMaxTile)
    throw InvalidInput("tile must be an integer from 1 to 32 (got " + std::to_string(tile) + ")");
  return table[static_cast<std::size_t>(tile - 1)];
}

}  // namespace warpdiv::kernels::detail
