// Internal to kernels/: where the instrumented kernel adds up its counts (plain C++, shared by the
// device code and the host-only sources).
#pragma once

#include "analysis/lecture/conditions.hpp"

namespace warpdiv::kernels::detail {

/// counters[((condition * 4 + block class) * 4 + field)], then one for barrier-hazard blocks.
constexpr int kBlocksField = 0;
constexpr int kWarpsField = 1;
constexpr int kWarpPhasesField = 2;
constexpr int kDivergentField = 3;
constexpr int kCounterFields = 4;
constexpr int kDisjointClasses = 4;
constexpr int kHazardIndex = lecture::kConditionCount * kDisjointClasses * kCounterFields;
constexpr int kCounterCount = kHazardIndex + 1;

#ifdef __CUDACC__
__host__ __device__
#endif
constexpr int counter_index(int condition, int block_class, int field) {
  return (condition * kDisjointClasses + block_class) * kCounterFields + field;
}

}  // namespace warpdiv::kernels::detail
