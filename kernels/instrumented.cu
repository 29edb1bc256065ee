// The ballot-instrumented twin for every T in 1..32.
#include "kernels/cuda_check.cuh"
#include "kernels/dispatch.cuh"
#include "kernels/launchers.cuh"
#include "kernels/tiled_kernels.cuh"

namespace warpdiv::kernels::detail {

namespace {
struct Entry {
  void (*launch)(const MatmulArgs&, const TwinOutputs&);
  const void* function;
};

struct Maker {
  template <int T>
  static void launch(const MatmulArgs& a, const TwinOutputs& outputs) {
    tiled_matmul_instrumented<T><<<dim3(a.grid_x, a.grid_y), dim3(T, T)>>>(
        a.m, a.n, a.p, a.rows, a.inner, a.cols, outputs);
    WARPDIV_CUDA_LAUNCH("tiled_matmul_instrumented");
  }
  template <int T>
  static Entry make() {
    return {&launch<T>, reinterpret_cast<const void*>(&tiled_matmul_instrumented<T>)};
  }
};
}  // namespace

void launch_instrumented(int tile, const MatmulArgs& args, const TwinOutputs& outputs) {
  tile_entry<Entry, Maker>(tile).launch(args, outputs);
}
const void* instrumented_function(int tile) { return tile_entry<Entry, Maker>(tile).function; }

}  // namespace warpdiv::kernels::detail
