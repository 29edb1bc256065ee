// The unchecked kernel (padded sizes) for every T in 1..32.
#include "kernels/cuda_check.cuh"
#include "kernels/dispatch.cuh"
#include "kernels/launchers.cuh"
#include "kernels/tiled_kernels.cuh"

namespace warpdiv::kernels::detail {

namespace {
struct Entry {
  void (*launch)(const MatmulArgs&);
  const void* function;
};

struct Maker {
  template <int T>
  static void launch(const MatmulArgs& a) {
    tiled_matmul_unchecked<T><<<dim3(a.grid_x, a.grid_y), dim3(T, T)>>>(
        a.m, a.n, a.p, a.rows, a.inner, a.cols);
    WARPDIV_CUDA_LAUNCH("tiled_matmul_unchecked");
  }
  template <int T>
  static Entry make() {
    return {&launch<T>, reinterpret_cast<const void*>(&tiled_matmul_unchecked<T>)};
  }
};
}  // namespace

void launch_unchecked(int tile, const MatmulArgs& args) {
  tile_entry<Entry, Maker>(tile).launch(args);
}
const void* unchecked_function(int tile) { return tile_entry<Entry, Maker>(tile).function; }

}  // namespace warpdiv::kernels::detail
