// The device code: the tiled kernel with boundary checks, its ballot-instrumented twin, and the
// unchecked kernel for padded sizes, each a template on the tile width T (blockDim (T, T)).
//
// Written as the lecture's kernel but correct: the loop variable is p (not t), every
// __syncthreads() is outside every guard so the whole block reaches it, and element offsets are
// 64-bit, so Row*K cannot overflow. The checks themselves compare 32-bit unsigned values: J, K and
// L are at most 2^31 - 1 and p*T + tx <= K - 1 + 31 < 2^32, so nothing wraps. (64-bit comparisons
// cost 7 more registers per thread on sm_90 — 39 against the unchecked kernel's 32 — which halves
// the blocks per SM at T = 32 and would be charged to the checks.)
#pragma once

#include <cstdint>

#include "kernels/launchers.cuh"
#include "analysis/lecture/lane_agreement.hpp"

namespace warpdiv::kernels {

template <int T>
__global__ void tiled_matmul_checked(const float* __restrict__ M, const float* __restrict__ N,
                                     float* __restrict__ P, long long J, long long K, long long L) {
  __shared__ float Ms[T][T];
  __shared__ float Ns[T][T];
  const unsigned tx = threadIdx.x;
  const unsigned ty = threadIdx.y;
  const unsigned rows = static_cast<unsigned>(J);
  const unsigned inner = static_cast<unsigned>(K);
  const unsigned cols = static_cast<unsigned>(L);
  const unsigned row = blockIdx.y * T + ty;
  const unsigned col = blockIdx.x * T + tx;
  const unsigned phases = (inner - 1) / T + 1;
  // Offsets of this thread's element of M and N in phase p; they advance by T and T*L a phase.
  std::size_t m_offset = static_cast<std::size_t>(row) * inner + tx;
  std::size_t n_offset = static_cast<std::size_t>(ty) * cols + col;
  const std::size_t n_step = static_cast<std::size_t>(T) * cols;
  float value = 0.0f;
  for (unsigned p = 0; p < phases; ++p, m_offset += T, n_offset += n_step) {
    const unsigned m_col = p * T + tx;  // column of M this thread loads
    const unsigned n_row = p * T + ty;  // row of N this thread loads
    if (row < rows && m_col < inner)
      Ms[ty][tx] = M[m_offset];
    else
      Ms[ty][tx] = 0.0f;
    if (n_row < inner && col < cols)
      Ns[ty][tx] = N[n_offset];
    else
      Ns[ty][tx] = 0.0f;
    __syncthreads();
    if (row < rows && col < cols) {
#pragma unroll
      for (int k = 0; k < T; ++k) value += Ms[ty][k] * Ns[k][tx];
    }
    __syncthreads();
  }
  if (row < rows && col < cols) P[static_cast<std::size_t>(row) * cols + col] = value;
}

/// No checks: J, K and L must be multiples of T (the padded sizes), so every access is in range.
/// Indexed like tiled_matmul_checked (32-bit sizes — padded ones stay below 2^32 — and 64-bit
/// offsets advanced a phase at a time), so the two differ only by the checks.
template <int T>
__global__ void tiled_matmul_unchecked(const float* __restrict__ M, const float* __restrict__ N,
                                       float* __restrict__ P, long long J, long long K,
                                       long long L) {
  __shared__ float Ms[T][T];
  __shared__ float Ns[T][T];
  (void)J;
  const unsigned tx = threadIdx.x;
  const unsigned ty = threadIdx.y;
  const unsigned inner = static_cast<unsigned>(K);
  const unsigned cols = static_cast<unsigned>(L);
  const unsigned row = blockIdx.y * T + ty;
  const unsigned col = blockIdx.x * T + tx;
  const unsigned phases = inner / T;
  std::size_t m_offset = static_cast<std::size_t>(row) * inner + tx;
  std::size_t n_offset = static_cast<std::size_t>(ty) * cols + col;
  const std::size_t n_step = static_cast<std::size_t>(T) * cols;
  float value = 0.0f;
  for (unsigned p = 0; p < phases; ++p, m_offset += T, n_offset += n_step) {
    Ms[ty][tx] = M[m_offset];
    Ns[ty][tx] = N[n_offset];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k) value += Ms[ty][k] * Ns[k][tx];
    __syncthreads();
  }
  P[static_cast<std::size_t>(row) * cols + col] = value;
}

namespace detail {

// The device and the model must index conditions and classes the same way.
static_assert(static_cast<int>(lecture::Condition::load_M) == 0 &&
              static_cast<int>(lecture::Condition::load_N) == 1 &&
              static_cast<int>(lecture::Condition::compute) == 2 &&
              static_cast<int>(lecture::Condition::store) == 3);
static_assert(static_cast<int>(lecture::BlockClass::interior) == 0 &&
              static_cast<int>(lecture::BlockClass::right_edge) == 1 &&
              static_cast<int>(lecture::BlockClass::bottom_edge) == 2 &&
              static_cast<int>(lecture::BlockClass::corner) == 3);

__device__ inline int block_class_of_this_block() {
  const bool right = blockIdx.x == gridDim.x - 1;
  const bool bottom = blockIdx.y == gridDim.y - 1;
  return right && bottom ? 3 : right ? 1 : bottom ? 2 : 0;
}

}  // namespace detail

/// The checked kernel plus, for each condition, a ballot over the warp's existing lanes (lanes
/// past the end of a partial last warp do not exist and are left out of the mask). The ballots
/// read the very predicates that guard the loads, the inner product and the store.
template <int T>
__global__ void tiled_matmul_instrumented(const float* __restrict__ M,
                                          const float* __restrict__ N, float* __restrict__ P,
                                          long long J, long long K, long long L,
                                          detail::TwinOutputs out) {
  using lecture::Agreement;
  using lecture::Condition;
  constexpr int kWarps = (T * T + kWarpSize - 1) / kWarpSize;
  __shared__ float Ms[T][T];
  __shared__ float Ns[T][T];
  // Per condition: warps, warp-phases, divergent warp-phases seen by this block's warps.
  __shared__ unsigned long long block_counts[lecture::kConditionCount][3];
  __shared__ int block_has_hazard;

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int linear = ty * T + tx;  // how CUDA numbers the threads of a (T, T) block
  const int warp = linear / kWarpSize;
  const int lane = linear % kWarpSize;
  const int lanes_in_warp = min(kWarpSize, T * T - warp * kWarpSize);
  const unsigned existing =
      lanes_in_warp == kWarpSize ? 0xffffffffu : ((1u << lanes_in_warp) - 1u);

  for (int i = linear; i < lecture::kConditionCount * 3; i += T * T) block_counts[i / 3][i % 3] = 0;
  if (linear == 0) block_has_hazard = 0;
  __syncthreads();

  // The same 32-bit checks as tiled_matmul_checked (see the top of this file).
  const unsigned rows = static_cast<unsigned>(J);
  const unsigned inner = static_cast<unsigned>(K);
  const unsigned cols = static_cast<unsigned>(L);
  const unsigned row = blockIdx.y * T + static_cast<unsigned>(ty);
  const unsigned col = blockIdx.x * T + static_cast<unsigned>(tx);
  const unsigned phases = (inner - 1) / T + 1;
  const std::size_t warp_index =
      (static_cast<std::size_t>(blockIdx.y) * gridDim.x + blockIdx.x) * kWarps + warp;
  unsigned long long phases_seen = 0;
  unsigned long long divergent[3] = {0, 0, 0};  // load_M, load_N, compute
  float value = 0.0f;
  for (unsigned p = 0; p < phases; ++p) {
    const unsigned m_col = p * T + static_cast<unsigned>(tx);
    const unsigned n_row = p * T + static_cast<unsigned>(ty);
    const bool load_m = row < rows && m_col < inner;
    const bool load_n = n_row < inner && col < cols;
    const bool compute = row < rows && col < cols;
    const Agreement a_m = lecture::agreement(__ballot_sync(existing, load_m), existing);
    const Agreement a_n = lecture::agreement(__ballot_sync(existing, load_n), existing);
    const Agreement a_c = lecture::agreement(__ballot_sync(existing, compute), existing);
    ++phases_seen;
    divergent[0] += a_m == Agreement::divergent;
    divergent[1] += a_n == Agreement::divergent;
    divergent[2] += a_c == Agreement::divergent;
    if (out.phase_records != nullptr && lane == 0)
      out.phase_records[warp_index * phases + p] = lecture::pack(a_m, a_n, a_c);

    if (load_m)
      Ms[ty][tx] = M[static_cast<std::size_t>(row) * inner + m_col];
    else
      Ms[ty][tx] = 0.0f;
    if (load_n)
      Ns[ty][tx] = N[static_cast<std::size_t>(n_row) * cols + col];
    else
      Ns[ty][tx] = 0.0f;
    __syncthreads();
    if (compute) {
#pragma unroll
      for (int k = 0; k < T; ++k) value += Ms[ty][k] * Ns[k][tx];
    }
    __syncthreads();
  }
  const bool store = row < rows && col < cols;
  const Agreement a_s = lecture::agreement(__ballot_sync(existing, store), existing);
  if (store) P[static_cast<std::size_t>(row) * cols + col] = value;

  if (lane == 0) {
    for (int c = 0; c < 3; ++c) {
      atomicAdd(&block_counts[c][0], 1ull);
      atomicAdd(&block_counts[c][1], phases_seen);
      atomicAdd(&block_counts[c][2], divergent[c]);
    }
    atomicAdd(&block_counts[3][0], 1ull);
    atomicAdd(&block_counts[3][1], 1ull);
    atomicAdd(&block_counts[3][2], a_s == Agreement::divergent ? 1ull : 0ull);
    // A warp whose lanes do not all pass the compute guard makes the lecture's barrier (inside
    // that guard) a hazard for the whole block.
    if (a_s != Agreement::all) atomicExch(&block_has_hazard, 1);
    if (out.store_records != nullptr) out.store_records[warp_index] = static_cast<std::uint8_t>(a_s);
  }
  __syncthreads();
  if (linear == 0) {
    const int block_class = detail::block_class_of_this_block();
    for (int c = 0; c < lecture::kConditionCount; ++c) {
      unsigned long long* cell = out.counters + detail::counter_index(c, block_class, 0);
      atomicAdd(cell + detail::kBlocksField, 1ull);
      atomicAdd(cell + detail::kWarpsField, block_counts[c][0]);
      atomicAdd(cell + detail::kWarpPhasesField, block_counts[c][1]);
      atomicAdd(cell + detail::kDivergentField, block_counts[c][2]);
    }
    if (block_has_hazard) atomicAdd(out.counters + detail::kHazardIndex, 1ull);
  }
}

}  // namespace warpdiv::kernels
