// The ballot-instrumented twin for every T in 1..32.
// One translation unit per kernel, so nvcc builds them in parallel.
#include "kernels/dispatch.cuh"
#include "kernels/tiled_kernels.cuh"

namespace warpdiv::kernels::detail {

namespace {
struct InstrumentedKernel {
  static constexpr const char* kLaunchName = "launch of tiled_matmul_instrumented";
  template <int T>
  static auto function() { return &tiled_matmul_instrumented<T>; }
};
using Table = KernelTable<InstrumentedKernel, TwinOutputs>;
}  // namespace

void launch_instrumented(int tile, const MatmulArgs& args, const TwinOutputs& outputs) {
  Table::at(tile).launch(args, outputs);
}
const void* instrumented_function(int tile) { return Table::at(tile).function; }

}  // namespace warpdiv::kernels::detail
