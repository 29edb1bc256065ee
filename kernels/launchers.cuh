// Internal to kernels/: the layout of the instrumented kernel's outputs and the per-T dispatch of
// the three kernels (one translation unit each, so nvcc can build them in parallel).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/counter_layout.hpp"
#include "kernels/tiled_matmul.hpp"
#include "analysis/lecture/conditions.hpp"

namespace warpdiv::kernels::detail {

struct TwinOutputs {
  unsigned long long* counters = nullptr;  // kCounterCount, zeroed before the launch
  std::uint8_t* phase_records = nullptr;   // one per warp-phase, or null
  std::uint8_t* store_records = nullptr;   // one per warp, or null
};

/// One launch: device pointers, the sizes the kernel sees and the grid.
struct MatmulArgs {
  const float* m = nullptr;
  const float* n = nullptr;
  float* p = nullptr;
  long long rows = 0;   // J
  long long inner = 0;  // K
  long long cols = 0;   // L
  unsigned grid_x = 0;
  unsigned grid_y = 0;
};

// Each launches the kernel for tile width `tile` (1..32) on the default stream and checks the
// launch. Defined in checked.cu, instrumented.cu and unchecked.cu.
void launch_checked(int tile, const MatmulArgs& args);
void launch_instrumented(int tile, const MatmulArgs& args, const TwinOutputs& outputs);
void launch_unchecked(int tile, const MatmulArgs& args);

/// The host-side handle of a kernel for cudaFuncGetAttributes and the occupancy API.
const void* checked_function(int tile);
const void* instrumented_function(int tile);
const void* unchecked_function(int tile);

}  // namespace warpdiv::kernels::detail
