// The real tiled matrix-multiply kernels on GPU 0, behind a plain C++ interface: no CUDA type
// appears here, so tools/ and tests/ stay host-compiled. Three kernels, each for every T in 1..32:
//   checked      the lecture's kernel with its boundary checks, written correctly (barriers
//                outside every guard, 64-bit indexing so Row*K cannot overflow);
//   instrumented the same kernel plus a __ballot_sync over the warp's existing lanes for each
//                condition, counting divergent warp-phases per condition and block class and,
//                for small launches, recording the lanes' agreement for every warp-phase;
//   unchecked    no boundary checks at all, for sizes padded to multiples of T.
// In a build without nvcc every function here throws NoDevice ("built without CUDA").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/lecture/divergence.hpp"
#include "kernels/device.hpp"
#include "analysis/lecture/launch.hpp"

namespace warpdiv::kernels {

/// The kernels' ballots assume NVIDIA's 32-lane warp; a device reporting another size is refused.
constexpr int kWarpSize = 32;

enum class Kernel { checked, instrumented, unchecked };
constexpr std::array<Kernel, 3> kKernels = {Kernel::checked, Kernel::instrumented,
                                            Kernel::unchecked};
/// "checked", "instrumented", "unchecked".
const char* name(Kernel kernel);
/// The CUDA function name as profilers print it, e.g. "tiled_matmul_checked".
const char* function_name(Kernel kernel);

/// What the CUDA runtime reports for one kernel and tile width.
struct KernelResources {
  int registers_per_thread = 0;        // cudaFuncGetAttributes numRegs
  std::size_t static_shared_bytes = 0; // sharedSizeBytes
  std::size_t local_bytes = 0;         // localSizeBytes (spills)
  int max_threads_per_block = 0;
  int binary_version = 0;              // 90 = sm_90 machine code
  /// cudaOccupancyMaxActiveBlocksPerMultiprocessor for blockDim T*T and no dynamic shared memory.
  int blocks_per_multiprocessor = 0;
};

/// Throws InvalidInput for T outside 1..32, NoDevice without a device.
KernelResources kernel_resources(Kernel kernel, int tile);

/// The sizes padded up to multiples of T, which the unchecked kernel needs (same grid).
lecture::LaunchConfig padded(const lecture::LaunchConfig& config);

/// Launches with at most this many warp-phases (per condition) get the per-warp-phase record.
constexpr std::uint64_t kMaxRecordedWarpPhases = 8'000'000;

/// Bytes of GPU memory a TiledMatmul of this launch allocates (M, N, P, their padded copies,
/// counters, and records when asked for). Exact, saturating at 2^64 - 1.
std::uint64_t device_bytes_needed(const lecture::LaunchConfig& config, bool with_records);

/// The outcome of one launch of the instrumented kernel.
struct InstrumentedRun {
  /// The hardware's counts, from the per-class counters (barrier_hazard_blocks included).
  lecture::DivergenceResult counts;
  /// One byte per warp-phase (analysis/lecture/lane_agreement.hpp's packing), index
  /// ((by * grid_x + bx) * warps_per_block + warp) * phases + p. Empty unless recorded.
  std::vector<std::uint8_t> phase_records;
  /// One byte per warp for the store, index (by * grid_x + bx) * warps_per_block + warp.
  std::vector<std::uint8_t> store_records;
  /// P as the instrumented kernel computed it (J x L, row-major).
  std::vector<float> product;
};

/// Median-ready kernel times in milliseconds, one entry per repetition.
struct KernelTimes {
  std::vector<double> checked_ms;    // the checked kernel on J x K x L
  std::vector<double> unchecked_ms;  // the unchecked kernel on the padded sizes
};

/// One launch configuration on GPU 0: owns the device buffers.
class TiledMatmul {
 public:
  /// Checks the launch against the device (grid limits, free memory) before allocating anything:
  /// InvalidInput when it cannot run there, NoDevice without a device. The warp size of
  /// `config` must be kWarpSize.
  TiledMatmul(const lecture::LaunchConfig& config, bool with_records);
  ~TiledMatmul();
  TiledMatmul(const TiledMatmul&) = delete;
  TiledMatmul& operator=(const TiledMatmul&) = delete;

  const lecture::LaunchConfig& config() const;
  bool with_records() const;

  /// Copies M (J x K) and N (K x L), row-major, to the device, and their zero-padded copies.
  void upload(const std::vector<float>& m, const std::vector<float>& n);

  /// Fills P with NaN, runs the checked kernel once, returns P (J x L).
  std::vector<float> run_checked();
  /// Fills P with NaN, zeroes the counters (and records with an invalid value), runs the
  /// instrumented kernel once.
  InstrumentedRun run_instrumented();
  /// Fills the padded P with NaN, runs the unchecked kernel on the padded sizes, returns the
  /// top-left J x L of the padded P.
  std::vector<float> run_unchecked();
  /// One warm-up launch of each, then `repeats` timed launches of each, alternating (CUDA events).
  KernelTimes time_kernels(int repeats);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace warpdiv::kernels
