// Host side of the kernels: GPU 0's properties, device buffers, launches, timings.
#include "kernels/tiled_matmul.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <sstream>

#include "kernels/cuda_check.cuh"
#include "kernels/launchers.cuh"
#include "sim/count.hpp"
#include "sim/errors.hpp"

namespace warpdiv::kernels {

namespace {

constexpr unsigned char kPoisonByte = 0xFF;       // 0xFFFFFFFF is a NaN as a float
constexpr unsigned char kUnwrittenRecord = 0xFF;  // not a valid record: unwritten stays visible

/// Device memory owned by one object; freed without throwing.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes > 0) WARPDIV_CUDA(cudaMalloc(&pointer_, bytes));
  }
  ~DeviceBuffer() {
    if (pointer_ != nullptr) cudaFree(pointer_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    swap(other);
    return *this;
  }
  template <typename T>
  T* as() const {
    return static_cast<T*>(pointer_);
  }
  std::size_t bytes() const { return bytes_; }

 private:
  void swap(DeviceBuffer& other) noexcept {
    std::swap(pointer_, other.pointer_);
    std::swap(bytes_, other.bytes_);
  }
  void* pointer_ = nullptr;
  std::size_t bytes_ = 0;
};

class Event {
 public:
  Event() { WARPDIV_CUDA(cudaEventCreate(&event_)); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_{};
};

sim::Count elements(std::int64_t a, std::int64_t b) {
  return sim::checked_mul(static_cast<sim::Count>(a), static_cast<sim::Count>(b));
}

std::string gib(std::uint64_t bytes) {
  std::ostringstream s;
  s.precision(2);
  s << std::fixed << static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0) << " GiB";
  return s.str();
}

std::size_t to_size(sim::Count value) { return static_cast<std::size_t>(value); }

}  // namespace

KernelResources kernel_resources(Kernel kernel, int tile) {
  const void* function = nullptr;
  switch (kernel) {
    case Kernel::checked: function = detail::checked_function(tile); break;
    case Kernel::instrumented: function = detail::instrumented_function(tile); break;
    case Kernel::unchecked: function = detail::unchecked_function(tile); break;
  }
  open_device();
  cudaFuncAttributes attributes{};
  WARPDIV_CUDA(cudaFuncGetAttributes(&attributes, function));
  KernelResources r;
  r.registers_per_thread = attributes.numRegs;
  r.static_shared_bytes = attributes.sharedSizeBytes;
  r.local_bytes = attributes.localSizeBytes;
  r.max_threads_per_block = attributes.maxThreadsPerBlock;
  r.binary_version = attributes.binaryVersion;
  WARPDIV_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.blocks_per_multiprocessor,
                                                             function, tile * tile, 0));
  return r;
}

struct TiledMatmul::State {
  lecture::LaunchConfig config;
  lecture::LaunchConfig padded_config;
  lecture::Geometry geometry;
  bool with_records = false;
  DeviceBuffer m, n, p;                       // J x K, K x L, J x L
  DeviceBuffer m_padded, n_padded, p_padded;  // the same, padded to multiples of T with zeros
  DeviceBuffer counters;
  DeviceBuffer phase_records, store_records;

  State(const lecture::LaunchConfig& c, bool records)
      : config(c), padded_config(padded(c)), geometry(c), with_records(records) {}

  detail::MatmulArgs args(bool padded_sizes) const {
    const lecture::LaunchConfig& s = padded_sizes ? padded_config : config;
    detail::MatmulArgs a;
    a.m = padded_sizes ? m_padded.as<float>() : m.as<float>();
    a.n = padded_sizes ? n_padded.as<float>() : n.as<float>();
    a.p = padded_sizes ? p_padded.as<float>() : p.as<float>();
    a.rows = s.rows;
    a.inner = s.inner;
    a.cols = s.cols;
    a.grid_x = static_cast<unsigned>(geometry.grid_x);
    a.grid_y = static_cast<unsigned>(geometry.grid_y);
    return a;
  }

  std::vector<float> download_product() const {
    std::vector<float> host(to_size(elements(config.rows, config.cols)));
    WARPDIV_CUDA(cudaMemcpy(host.data(), p.as<float>(), host.size() * sizeof(float),
                            cudaMemcpyDeviceToHost));
    return host;
  }
};

TiledMatmul::TiledMatmul(const lecture::LaunchConfig& config, bool with_records) {
  lecture::validate(config);
  if (config.warp_size != kWarpSize)
    throw InvalidInput("the CUDA kernels run with warps of " + std::to_string(kWarpSize) +
                       " lanes (got warp size " + std::to_string(config.warp_size) + ")");
  const DeviceInfo device = query_device();
  if (device.warp_size != kWarpSize)
    throw CudaError(device.name + " reports a warp size of " + std::to_string(device.warp_size) +
                    "; the instrumented kernel's ballots assume " + std::to_string(kWarpSize));
  auto state = std::make_unique<State>(config, with_records);
  const lecture::Geometry& g = state->geometry;
  if (g.grid_x > device.max_grid_x || g.grid_y > device.max_grid_y) {
    throw InvalidInput("the grid of " + std::to_string(g.grid_x) + " x " +
                       std::to_string(g.grid_y) + " blocks exceeds " + device.name +
                       "'s limit of " + std::to_string(device.max_grid_x) + " x " +
                       std::to_string(device.max_grid_y) + " (--rows / --cols too large for T = " +
                       std::to_string(config.tile) + ")");
  }
  const std::uint64_t needed = device_bytes_needed(config, with_records);
  if (needed > device.free_memory_bytes) {
    throw InvalidInput("the launch needs " + gib(needed) + " of GPU memory (M, N, P and their " +
                       "padded copies) but " + device.name + " has " +
                       gib(device.free_memory_bytes) + " free; use smaller sizes");
  }
  const lecture::LaunchConfig& p = state->padded_config;
  state->m = DeviceBuffer(to_size(elements(config.rows, config.inner)) * sizeof(float));
  state->n = DeviceBuffer(to_size(elements(config.inner, config.cols)) * sizeof(float));
  state->p = DeviceBuffer(to_size(elements(config.rows, config.cols)) * sizeof(float));
  state->m_padded = DeviceBuffer(to_size(elements(p.rows, p.inner)) * sizeof(float));
  state->n_padded = DeviceBuffer(to_size(elements(p.inner, p.cols)) * sizeof(float));
  state->p_padded = DeviceBuffer(to_size(elements(p.rows, p.cols)) * sizeof(float));
  state->counters = DeviceBuffer(detail::kCounterCount * sizeof(unsigned long long));
  if (with_records) {
    const std::size_t warps = to_size(elements(g.grid_x, g.grid_y)) * g.warps_per_block;
    state->phase_records = DeviceBuffer(warps * static_cast<std::size_t>(g.phases));
    state->store_records = DeviceBuffer(warps);
  }
  state_ = std::move(state);
}

TiledMatmul::~TiledMatmul() = default;

const lecture::LaunchConfig& TiledMatmul::config() const { return state_->config; }
bool TiledMatmul::with_records() const { return state_->with_records; }

void TiledMatmul::upload(const std::vector<float>& m, const std::vector<float>& n) {
  State& s = *state_;
  const std::size_t J = to_size(s.config.rows);
  const std::size_t K = to_size(s.config.inner);
  const std::size_t L = to_size(s.config.cols);
  if (m.size() != J * K || n.size() != K * L)
    throw std::invalid_argument("TiledMatmul::upload: M must hold J*K and N K*L elements");
  WARPDIV_CUDA(cudaMemcpy(s.m.as<float>(), m.data(), s.m.bytes(), cudaMemcpyHostToDevice));
  WARPDIV_CUDA(cudaMemcpy(s.n.as<float>(), n.data(), s.n.bytes(), cudaMemcpyHostToDevice));
  // Padded copies: zeros outside, so the padded product's top-left J x L equals P.
  const std::size_t Kp = to_size(s.padded_config.inner);
  const std::size_t Lp = to_size(s.padded_config.cols);
  WARPDIV_CUDA(cudaMemset(s.m_padded.as<float>(), 0, s.m_padded.bytes()));
  WARPDIV_CUDA(cudaMemset(s.n_padded.as<float>(), 0, s.n_padded.bytes()));
  WARPDIV_CUDA(cudaMemcpy2D(s.m_padded.as<float>(), Kp * sizeof(float), s.m.as<float>(),
                            K * sizeof(float), K * sizeof(float), J, cudaMemcpyDeviceToDevice));
  WARPDIV_CUDA(cudaMemcpy2D(s.n_padded.as<float>(), Lp * sizeof(float), s.n.as<float>(),
                            L * sizeof(float), L * sizeof(float), K, cudaMemcpyDeviceToDevice));
  WARPDIV_CUDA(cudaDeviceSynchronize());
}

std::vector<float> TiledMatmul::run_checked() {
  State& s = *state_;
  WARPDIV_CUDA(cudaMemset(s.p.as<float>(), kPoisonByte, s.p.bytes()));
  detail::launch_checked(s.config.tile, s.args(false));
  WARPDIV_CUDA(cudaDeviceSynchronize());
  return s.download_product();
}

InstrumentedRun TiledMatmul::run_instrumented() {
  State& s = *state_;
  WARPDIV_CUDA(cudaMemset(s.p.as<float>(), kPoisonByte, s.p.bytes()));
  WARPDIV_CUDA(cudaMemset(s.counters.as<void>(), 0, s.counters.bytes()));
  detail::TwinOutputs outputs;
  outputs.counters = s.counters.as<unsigned long long>();
  if (s.with_records) {
    WARPDIV_CUDA(cudaMemset(s.phase_records.as<void>(), kUnwrittenRecord, s.phase_records.bytes()));
    WARPDIV_CUDA(cudaMemset(s.store_records.as<void>(), kUnwrittenRecord, s.store_records.bytes()));
    outputs.phase_records = s.phase_records.as<std::uint8_t>();
    outputs.store_records = s.store_records.as<std::uint8_t>();
  }
  detail::launch_instrumented(s.config.tile, s.args(false), outputs);
  WARPDIV_CUDA(cudaDeviceSynchronize());

  InstrumentedRun run;
  run.product = s.download_product();
  std::vector<unsigned long long> counters(detail::kCounterCount);
  WARPDIV_CUDA(cudaMemcpy(counters.data(), s.counters.as<void>(), s.counters.bytes(),
                          cudaMemcpyDeviceToHost));
  run.counts.config = s.config;
  for (lecture::Condition c : lecture::kConditions) {
    for (lecture::BlockClass k : lecture::kDisjointBlockClasses) {
      const auto at = [&](int field) {
        return static_cast<sim::Count>(counters[static_cast<std::size_t>(
            detail::counter_index(static_cast<int>(c), static_cast<int>(k), field))]);
      };
      lecture::ClassCounts& cell = run.counts.at(c, k);
      cell.blocks = at(detail::kBlocksField);
      cell.warps = at(detail::kWarpsField);
      cell.warp_phases = at(detail::kWarpPhasesField);
      cell.divergent_warp_phases = at(detail::kDivergentField);
    }
  }
  run.counts.sum_all_classes();
  run.counts.barrier_hazard_blocks = counters[detail::kHazardIndex];
  if (s.with_records) {
    run.phase_records.resize(s.phase_records.bytes());
    run.store_records.resize(s.store_records.bytes());
    WARPDIV_CUDA(cudaMemcpy(run.phase_records.data(), s.phase_records.as<void>(),
                            run.phase_records.size(), cudaMemcpyDeviceToHost));
    WARPDIV_CUDA(cudaMemcpy(run.store_records.data(), s.store_records.as<void>(),
                            run.store_records.size(), cudaMemcpyDeviceToHost));
  }
  return run;
}

std::vector<float> TiledMatmul::run_unchecked() {
  State& s = *state_;
  WARPDIV_CUDA(cudaMemset(s.p_padded.as<float>(), kPoisonByte, s.p_padded.bytes()));
  detail::launch_unchecked(s.config.tile, s.args(true));
  WARPDIV_CUDA(cudaDeviceSynchronize());
  const std::size_t J = to_size(s.config.rows);
  const std::size_t L = to_size(s.config.cols);
  const std::size_t Lp = to_size(s.padded_config.cols);
  std::vector<float> host(J * L);
  WARPDIV_CUDA(cudaMemcpy2D(host.data(), L * sizeof(float), s.p_padded.as<float>(),
                            Lp * sizeof(float), L * sizeof(float), J, cudaMemcpyDeviceToHost));
  return host;
}

KernelTimes TiledMatmul::time_kernels(int repeats) {
  State& s = *state_;
  const detail::MatmulArgs checked = s.args(false);
  const detail::MatmulArgs unchecked = s.args(true);
  const int tile = s.config.tile;
  detail::launch_checked(tile, checked);  // warm-up: module load, caches, clocks
  detail::launch_unchecked(tile, unchecked);
  WARPDIV_CUDA(cudaDeviceSynchronize());
  Event start, stop;
  const auto time_one = [&](auto&& launch) {
    WARPDIV_CUDA(cudaEventRecord(start.get()));
    launch();
    WARPDIV_CUDA(cudaEventRecord(stop.get()));
    WARPDIV_CUDA(cudaEventSynchronize(stop.get()));
    float ms = 0.0f;
    WARPDIV_CUDA(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    return static_cast<double>(ms);
  };
  KernelTimes times;
  for (int i = 0; i < repeats; ++i) {
    // Alternating keeps clock and thermal drift from favouring either kernel.
    times.checked_ms.push_back(time_one([&] { detail::launch_checked(tile, checked); }));
    times.unchecked_ms.push_back(time_one([&] { detail::launch_unchecked(tile, unchecked); }));
  }
  return times;
}

}  // namespace warpdiv::kernels
