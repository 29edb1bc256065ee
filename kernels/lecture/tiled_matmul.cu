// The lecture's kernel on GPU 0 (kernels/lecture/tiled_matmul.hpp): device buffers, launches, timings.
#include "kernels/lecture/tiled_matmul.hpp"

#include <cuda_runtime.h>

#include <limits>
#include <sstream>
#include <utility>
#include <stdexcept>

#include "kernels/cuda_check.cuh"
#include "kernels/device_memory.cuh"
#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"

// The kernel itself: the file the lecture's model is read from, compiled as it stands.
#include "kernels/zoo/tiled_matmul_rect.cu"

namespace warpdiv::kernels {

namespace {

constexpr unsigned char kPoisonByte = 0xFF;  // 0xFFFFFFFF is a NaN as a float

using detail::DeviceArray;
using detail::Event;

std::size_t elements(std::int64_t a, std::int64_t b) {
  return static_cast<std::size_t>(a) * static_cast<std::size_t>(b);
}

std::string gib(std::uint64_t bytes) {
  std::ostringstream s;
  s.precision(2);
  s << std::fixed << static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0) << " GiB";
  return s.str();
}

std::int64_t blocks_along(std::int64_t size, int tile) { return (size - 1) / tile + 1; }

}  // namespace

struct TiledMatmul::State {
  MatmulShape shape;
  dim3 grid, block;
  DeviceArray<float> m, n, p;  // J x K, K x L, J x L

  void launch() const {
    TiledMatMul<<<grid, block>>>(m.get(), n.get(), p.get(), static_cast<int>(shape.rows),
                                 static_cast<int>(shape.inner), static_cast<int>(shape.cols));
    WARPDIV_CUDA_LAUNCH("TiledMatMul");
  }
};

TiledMatmul::TiledMatmul(const MatmulShape& shape) {
  constexpr std::int64_t kMaxSize = std::numeric_limits<int>::max();  // the kernel's int J, K, L
  if (shape.rows < 1 || shape.inner < 1 || shape.cols < 1 || shape.rows > kMaxSize ||
      shape.inner > kMaxSize || shape.cols > kMaxSize || shape.tile < 1 ||
      shape.tile > kMatmulMaxTile)
    throw InternalError("TiledMatmul: J, K and L must be 1 .. 2^31 - 1 and T 1 .. 32");
  const DeviceInfo device = query_device();
  const std::int64_t grid_x = blocks_along(shape.cols, shape.tile);
  const std::int64_t grid_y = blocks_along(shape.rows, shape.tile);
  if (grid_x > device.max_grid_x || grid_y > device.max_grid_y)
    throw InvalidInput(Diag::launch_invalid, "the grid of " + std::to_string(grid_x) + " x " + std::to_string(grid_y) +
                       " blocks exceeds " + device.name + "'s limit of " +
                       std::to_string(device.max_grid_x) + " x " +
                       std::to_string(device.max_grid_y) + " (--rows / --cols too large for T = " +
                       std::to_string(shape.tile) + ")");
  const std::uint64_t needed = device_bytes_needed(shape);
  if (needed > device.free_memory_bytes)
    throw InvalidInput(Diag::memory_budget, "the launch needs " + gib(needed) + " of GPU memory (M, N and P) but " +
                       device.name + " has " + gib(device.free_memory_bytes) +
                       " free; use smaller sizes");
  auto state = std::make_unique<State>();
  state->shape = shape;
  state->grid = dim3(static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y));
  state->block = dim3(static_cast<unsigned>(shape.tile), static_cast<unsigned>(shape.tile));
  state->m = DeviceArray<float>(elements(shape.rows, shape.inner));
  state->n = DeviceArray<float>(elements(shape.inner, shape.cols));
  state->p = DeviceArray<float>(elements(shape.rows, shape.cols));
  state_ = std::move(state);
}

TiledMatmul::~TiledMatmul() = default;

void TiledMatmul::upload(const std::vector<float>& m, const std::vector<float>& n) {
  State& s = *state_;
  if (m.size() != elements(s.shape.rows, s.shape.inner) ||
      n.size() != elements(s.shape.inner, s.shape.cols))
    throw InternalError("TiledMatmul::upload: M must hold J*K and N K*L elements");
  s.m.upload(m);
  s.n.upload(n);
}

std::vector<float> TiledMatmul::run() {
  State& s = *state_;
  s.p.fill_bytes(kPoisonByte);
  s.launch();
  WARPDIV_CUDA(cudaDeviceSynchronize());
  return s.p.download();
}

std::vector<double> TiledMatmul::time(int repeats) {
  const State& s = *state_;
  s.launch();  // warm-up: module load, caches, clocks
  WARPDIV_CUDA(cudaDeviceSynchronize());
  Event start, stop;
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    WARPDIV_CUDA(cudaEventRecord(start.get()));
    s.launch();
    WARPDIV_CUDA(cudaEventRecord(stop.get()));
    WARPDIV_CUDA(cudaEventSynchronize(stop.get()));
    float ms = 0.0f;
    WARPDIV_CUDA(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    times.push_back(static_cast<double>(ms));
  }
  return times;
}

KernelResources TiledMatmul::resources() const {
  cudaFuncAttributes attributes{};
  WARPDIV_CUDA(cudaFuncGetAttributes(&attributes, TiledMatMul));
  KernelResources r;
  r.registers_per_thread = attributes.numRegs;
  r.static_shared_bytes = attributes.sharedSizeBytes;
  r.local_bytes = attributes.localSizeBytes;
  r.max_threads_per_block = attributes.maxThreadsPerBlock;
  r.binary_version = attributes.binaryVersion;
  const int tile = state_->shape.tile;
  WARPDIV_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.blocks_per_multiprocessor,
                                                             TiledMatMul, tile * tile, 0));
  return r;
}

}  // namespace warpdiv::kernels
