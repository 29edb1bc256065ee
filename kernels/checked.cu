// The checked kernel for every T in 1..32.
// One translation unit per kernel, so nvcc builds them in parallel.
#include "kernels/dispatch.cuh"
#include "kernels/tiled_kernels.cuh"

namespace warpdiv::kernels::detail {

namespace {
struct CheckedKernel {
  static constexpr const char* kLaunchName = "launch of tiled_matmul_checked";
  template <int T>
  static auto function() { return &tiled_matmul_checked<T>; }
};
using Table = KernelTable<CheckedKernel>;
}  // namespace

void launch_checked(int tile, const MatmulArgs& args) {
  Table::at(tile).launch(args);
}
const void* checked_function(int tile) { return Table::at(tile).function; }

}  // namespace warpdiv::kernels::detail
