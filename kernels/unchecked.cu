// The unchecked kernel (padded sizes) for every T in 1..32.
// One translation unit per kernel, so nvcc builds them in parallel.
#include "kernels/dispatch.cuh"
#include "kernels/tiled_kernels.cuh"

namespace warpdiv::kernels::detail {

namespace {
struct UncheckedKernel {
  static constexpr const char* kLaunchName = "launch of tiled_matmul_unchecked";
  template <int T>
  static auto function() { return &tiled_matmul_unchecked<T>; }
};
using Table = KernelTable<UncheckedKernel>;
}  // namespace

void launch_unchecked(int tile, const MatmulArgs& args) {
  Table::at(tile).launch(args);
}
const void* unchecked_function(int tile) { return Table::at(tile).function; }

}  // namespace warpdiv::kernels::detail
