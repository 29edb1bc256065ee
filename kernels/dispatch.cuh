// A table indexed by the tile width, built once from a template on T, so a run-time T reaches
// the kernel compiled for it (T is a template parameter: the shared tiles are sized statically
// and the inner product unrolls).
#pragma once

#include <array>
#include <string>
#include <utility>

#include "kernels/cuda_check.cuh"
#include "kernels/launchers.cuh"
#include "kernels/tiled_matmul.hpp"
#include "sim/errors.hpp"
#include "analysis/lecture/launch.hpp"

namespace warpdiv::kernels::detail {

constexpr int kTileCount = lecture::limits::kMaxTile;  // T = 1 .. 32

/// make_tile_table<Entry, Maker>(): {Maker::template make<1>(), ..., Maker::template make<32>()}.
template <typename Entry, typename Maker, int... Index>
std::array<Entry, sizeof...(Index)> make_tile_table(std::integer_sequence<int, Index...>) {
  return {Maker::template make<Index + 1>()...};
}

template <typename Entry, typename Maker>
const Entry& tile_entry(int tile) {
  static const std::array<Entry, kTileCount> table =
      make_tile_table<Entry, Maker>(std::make_integer_sequence<int, kTileCount>{});
  if (tile < lecture::limits::kMinTile || tile > lecture::limits::kMaxTile)
    throw InvalidInput("tile must be an integer from 1 to 32 (got " + std::to_string(tile) + ")");
  return table[static_cast<std::size_t>(tile - 1)];
}

/// The per-T table of one kernel of tiled_kernels.cuh: a launcher and the host-side handle for
/// each T. `Kernel` provides `kLaunchName` ("launch of tiled_matmul_checked") and
/// `template <int T> static auto function()` returning &kernel<T>; `Extra` are the arguments the
/// kernel takes after (M, N, P, J, K, L).
template <typename Kernel, typename... Extra>
struct KernelTable {
  struct Entry {
    void (*launch)(const MatmulArgs&, const Extra&...);
    const void* function;
  };
  struct Maker {
    template <int T>
    static void launch(const MatmulArgs& a, const Extra&... extra) {
      Kernel::template function<T>()<<<dim3(a.grid_x, a.grid_y), dim3(T, T)>>>(
          a.m, a.n, a.p, a.rows, a.inner, a.cols, extra...);
      check_cuda(cudaGetLastError(), Kernel::kLaunchName, __FILE__, __LINE__);
    }
    template <int T>
    static Entry make() {
      return {&launch<T>, reinterpret_cast<const void*>(Kernel::template function<T>())};
    }
  };
  static const Entry& at(int tile) { return tile_entry<Entry, Maker>(tile); }
};

}  // namespace warpdiv::kernels::detail
