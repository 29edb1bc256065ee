// The lecture's tiled multiply run for real on GPU 0: the kernel of kernels/zoo/tiled_matmul_rect.cu,
// the very file the lecture's model is read from, compiled by nvcc into warpdiv (tiled_matmul.cu
// includes it), so the modelled kernel and the run one cannot drift apart. Launched as the model's
// launch: grid ((L-1)/T+1, (J-1)/T+1), block (T, T). Plain C++ header: no CUDA type appears here, so
// tools/ and tests/ stay host-compiled. In a build without nvcc every call throws NoDevice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/device.hpp"

namespace warpdiv::kernels {

/// The kernel's name in the source, as profilers print it.
constexpr const char* kMatmulFunction = "TiledMatMul";
/// The largest tile: the kernel's shared arrays are MAX_TILE x MAX_TILE.
constexpr int kMatmulMaxTile = 32;

/// P[J x L] = M[J x K] * N[K x L] with tile width T.
struct MatmulShape {
  std::int64_t rows = 0;   // J
  std::int64_t inner = 0;  // K
  std::int64_t cols = 0;   // L
  int tile = 0;            // T, 1 .. kMatmulMaxTile
};

/// What the CUDA runtime reports for the kernel.
struct KernelResources {
  int registers_per_thread = 0;         // cudaFuncGetAttributes numRegs
  std::size_t static_shared_bytes = 0;  // sharedSizeBytes
  std::size_t local_bytes = 0;          // localSizeBytes (spills)
  int max_threads_per_block = 0;
  int binary_version = 0;  // 90 = sm_90 machine code
  /// cudaOccupancyMaxActiveBlocksPerMultiprocessor for blockDim T*T and no dynamic shared memory.
  int blocks_per_multiprocessor = 0;
};

/// Bytes of GPU memory a TiledMatmul of this shape allocates (M, N and P). Exact, saturating at
/// 2^64 - 1.
std::uint64_t device_bytes_needed(const MatmulShape& shape);

/// One shape on GPU 0: owns the device buffers.
class TiledMatmul {
 public:
  /// Checks the shape against the device (grid limits, free memory) before allocating anything:
  /// InvalidInput when it cannot run there, NoDevice without a device.
  explicit TiledMatmul(const MatmulShape& shape);
  ~TiledMatmul();
  TiledMatmul(const TiledMatmul&) = delete;
  TiledMatmul& operator=(const TiledMatmul&) = delete;

  /// Copies M (J x K) and N (K x L), row-major, to the device.
  void upload(const std::vector<float>& m, const std::vector<float>& n);
  /// Fills P with NaN, runs the kernel once, returns P (J x L).
  std::vector<float> run();
  /// One warm-up launch, then `repeats` launches timed with CUDA events, in milliseconds.
  std::vector<double> time(int repeats);
  /// The runtime's figures for the kernel at this shape's tile.
  KernelResources resources() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace warpdiv::kernels
