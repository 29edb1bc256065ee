// Which shared-memory accesses may run in one phase (sim/memory/shared_phases): kernels read by
// the front-end, each pair worked out by hand from where the barriers are.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/memory/shared_phases.hpp"
#include "tests/kernels/source_dir.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

class SharedPhases : public SnippetTest {
 protected:
  SharedPhases() : SnippetTest("warpdiv_shared_phases_") {}

  // Each pair as "TEXT:LINE KIND / TEXT:LINE KIND" (kind l, s or a; the lesser first), sorted.
  std::vector<std::string> pairs(const std::string& source) {
    const ir::Kernel k = load(source);
    const auto name = [&](std::int32_t i) {
      const ir::MemoryAccess& a = k.accesses[static_cast<std::size_t>(i)];
      const char kind = a.kind == ir::AccessKind::Load ? 'l' : a.kind == ir::AccessKind::Store ? 's' : 'a';
      return a.text + ":" + std::to_string(a.range.line) + " " + kind;
    };
    std::vector<std::string> out;
    for (const auto& [a, b] : ir::concurrent_shared_conflicts(k))
      out.push_back(std::min(name(a), name(b)) + " / " + std::max(name(a), name(b)));
    std::sort(out.begin(), out.end());
    return out;
  }
};

using Pairs = std::vector<std::string>;

// The tiled multiply: each phase either stores the tiles or reads them (the loop's second
// barrier comes before the next iteration's stores). Only each store with itself, by two warps,
// may race; the loads of ds_M and the stores of ds_N are of different arrays.
TEST_F(SharedPhases, TheTiledMultiplyStoresAndReadsInDifferentPhases) {
  EXPECT_EQ(pairs(R"(__global__ void k(const float *M, float *P, int n) {
  __shared__ float a[16][16];
  __shared__ float b[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  float v = 0;
  for (int p = 0; p < n; ++p) {
    a[ty][tx] = M[p * 16 + tx];
    b[ty][tx] = M[p * 16 + ty];
    __syncthreads();
    for (int i = 0; i < 16; ++i) v += a[ty][i] * b[i][tx];
    __syncthreads();
  }
  P[ty * 16 + tx] = v;
}
)"),
            (Pairs{"a[ty][tx]:7 s / a[ty][tx]:7 s", "b[ty][tx]:8 s / b[ty][tx]:8 s"}));
}

// The tree reduction: the loop's read of s[t + stride] and its store of s[t] run in one phase
// with or without the barrier in the loop (a phase from that barrier runs the next iteration's
// body to it); so does the read of s[0] after the loop (the phase from the loop's barrier may
// leave the loop: the walk does not know that every thread leaves it together). The first store
// (line 4) runs before the first barrier, alone.
TEST_F(SharedPhases, TheReductionsLoopReadsAndStoresInOnePhase) {
  const std::string fenced = R"(__global__ void sum(float *out, const float *in) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (t < stride) s[t] = s[t] + s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
)";
  EXPECT_EQ(pairs(fenced), (Pairs{"s[0]:10 l / s[t]:7 s", "s[t + stride]:7 l / s[t]:7 s",
                                  "s[t]:4 s / s[t]:4 s", "s[t]:7 l / s[t]:7 s", "s[t]:7 s / s[t]:7 s"}));
  std::string racy = fenced;
  racy.erase(racy.find("    __syncthreads();\n  }"), std::string("    __syncthreads();\n").size());
  EXPECT_EQ(pairs(racy), (Pairs{"s[0]:9 l / s[t]:7 s", "s[t + stride]:7 l / s[t]:7 s", "s[t]:4 s / s[t]:4 s",
                                "s[t]:7 l / s[t]:7 s", "s[t]:7 s / s[t]:7 s"}));
}

// A store in one branch and a load in the other: one thread takes each, in one phase.
TEST_F(SharedPhases, BothArmsOfABranchAreInOnePhase) {
  EXPECT_EQ(pairs(R"(__global__ void k(float *out, const float *in) {
  __shared__ float s[64];
  int t = threadIdx.x;
  if (t < 32) s[t] = in[t];
  else out[t] = s[t - 32];
}
)"),
            (Pairs{"s[t - 32]:5 l / s[t]:4 s", "s[t]:4 s / s[t]:4 s"}));
}

// A break, a return from an inlined function and a switch's case each lead past a barrier: the
// load after them runs in the store's phase too. Without them it does not.
TEST_F(SharedPhases, PathsPastABarrierKeepTheirPhase) {
  const std::string head =
      "__global__ void k(float *out, const float *in, int n) {\n"
      "  __shared__ float s[64];\n"
      "  int t = threadIdx.x;\n"
      "  s[t] = in[t];\n";
  const std::string tail = "  out[t] = s[63 - t];\n}\n";
  const Pairs self{"s[t]:4 s / s[t]:4 s"};
  const Pairs raced{"s[63 - t]:6 l / s[t]:4 s", "s[t]:4 s / s[t]:4 s"};
  EXPECT_EQ(pairs(head + "  do { __syncthreads(); } while (n > 5);\n" + tail), self);
  EXPECT_EQ(pairs(head + "  do { if (n > 0) break; __syncthreads(); } while (n > 5);\n" + tail), raced);
  EXPECT_EQ(
      pairs(head + "  switch (n) { case 0: __syncthreads(); break; default: __syncthreads(); }\n" + tail),
      self);
  EXPECT_EQ(pairs(head + "  switch (n) { case 0: __syncthreads(); break; case 1: break; }\n" + tail), raced);
  const std::string wait = "__device__ void wait(int n) {\n  if (n > 0) return;\n  __syncthreads();\n}\n";
  const std::string call = "  wait(n);\n";
  EXPECT_EQ(pairs(wait + head + call + tail), (Pairs{"s[63 - t]:10 l / s[t]:8 s", "s[t]:8 s / s[t]:8 s"}));
  const std::string no_return = "__device__ void wait(int n) {\n  n = n + 1;\n  __syncthreads();\n}\n";
  EXPECT_EQ(pairs(no_return + head + call + tail), (Pairs{"s[t]:8 s / s[t]:8 s"}));
}

// Atomics do not race with atomics; one does with a load of its array in its phase.
TEST_F(SharedPhases, AtomicsRaceWithLoadsNotWithAtomics) {
  EXPECT_EQ(pairs(R"(__global__ void k(int *out, const int *in) {
  __shared__ int h[8];
  int t = threadIdx.x;
  atomicAdd(&h[in[t] & 7], 1);
  atomicAdd(&h[t & 7], 2);
  out[t] = h[t & 7];
}
)"),
            (Pairs{"&h[in[t] & 7]:4 a / h[t & 7]:6 l", "&h[t & 7]:5 a / h[t & 7]:6 l"}));
}

}  // namespace
}  // namespace warpdiv::testing
