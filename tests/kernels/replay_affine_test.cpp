// The replay's fast path for access offsets (sim/engine/ir_lane_pattern.hpp: offsets as a base plus a
// lane pattern, each pattern's sectors and wavefronts counted once per address residue) against
// the lane-by-lane evaluation it stands in for (ReplayOptions::affine_offsets = false): every
// figure, every fault message and every extent equal, on random zoo launches (arguments up to
// 2^31 - 1, so index arithmetic overflows in some lanes) and on a kernel written to reach each
// case where the fast path must hand over: a wrap of unsigned arithmetic, a narrowing cast, a
// signed overflow in some lanes only, a misaligned vector access, a zero coefficient, a local
// assigned in some lanes only, 8- and 16-byte shared accesses, an offset before the buffer.
// The per-lane oracle of zoo_memory_test.cpp checks the figures themselves (with the fast path,
// the default); this file checks that the two paths cannot differ.
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <optional>
#include <random>
#include <string>

#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"
#include "sim/engine/ir_lane_pattern.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/replay_compare.hpp"
#include "tests/kernels/source_dir.hpp"
#include "tests/kernels/zoo_launches.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

std::string str(sim::Count c) { return sim::to_decimal(c); }

ReplayOutcome run(const ir::Kernel& k, const ir::Launch& l, bool affine) {
  ir::ReplayOptions o;
  o.threads = 1;
  o.affine_offsets = affine;
  o.native = ir::NativeReplay::Off;  // the interpreter's two paths
  return replay_outcome(k, l, o);
}

// Compares the two paths on one launch; adds the requests counted and those the fast path took.
int out_of_bounds = 0;  // faults compared that were accesses outside their buffers

void expect_same(const ir::Kernel& k, const ir::Launch& l, sim::Count& requests, sim::Count& affine) {
  const ReplayOutcome fast = run(k, l, true);
  const ReplayOutcome lanes = run(k, l, false);
  ASSERT_EQ(fast.refusal, lanes.refusal);
  if (!fast.result) return;
  const ir::ReplayResult& x = *fast.result;
  const ir::ReplayResult& y = *lanes.result;
  EXPECT_EQ(str(y.affine_requests), "0");
  expect_same_figures(k, x, y);
  for (std::size_t a = 0; a < y.accesses.size(); ++a) {
    out_of_bounds += y.access_out_of_bounds[a] ? 1 : 0;
    requests += y.accesses[a].requests;
  }
  affine += x.affine_requests;
}

TEST(ReplayAffine, SameAsLaneByLaneOnRandomZooLaunches) {
  std::mt19937_64 rng(20261125);
  std::vector<ir::Kernel> kernels;
  for (const std::string& f : ir::zoo::files()) kernels.push_back(ir::zoo::load(f));
  ASSERT_GE(kernels.size(), 15u);
  sim::Count requests = 0, affine = 0;
  for (int i = 0; i < 1500; ++i) {
    const ir::Kernel& k = kernels[static_cast<std::size_t>(i) % kernels.size()];
    std::string what;
    // One launch in four with arguments up to 2^31 - 1: index products overflow in some lanes.
    ir::Launch l = ir::zoo::random_launch(k, rng, i % 5 == 0 ? 20 : 4, 3, i % 4 == 0 ? 2147483647 : 60, what);
    // One launch in three with buffers of 1 to 2,000 elements: some accesses fall outside;
    // every launch of kernels without __shared__ arrays: with buffers, the replay follows a
    // kernel's shared memory by value, and an access outside its buffer in a value stored there
    // stops the run (the same refusal on both paths) instead of counting as a fault.
    const bool shared = std::any_of(k.bases.begin(), k.bases.end(), [](const ir::MemoryBase& b) {
      return b.parameter == ir::kNone && b.space == ir::AddressSpace::Shared;
    });
    if (i % 3 == 0 || !shared) ir::zoo::random_buffers(k, l, rng, what);
    SCOPED_TRACE(what);
    expect_same(k, l, requests, affine);
    if (::testing::Test::HasFailure()) break;
  }
  // The fast path took most requests (else this compared the slow path with itself), and
  // accesses outside their buffers were among the faults compared.
  EXPECT_GT(affine * 10, requests * 9) << str(affine) << " of " << str(requests);
  EXPECT_GT(out_of_bounds, 50);
}

class ReplayAffineSnippet : public SnippetTest {
 protected:
  ReplayAffineSnippet() : SnippetTest("warpdiv_replay_affine_") {}
};

TEST_F(ReplayAffineSnippet, EveryHandOverCaseSameAsLaneByLane) {
  const ir::Kernel k = load(R"(
__global__ void k(float* a, float2* b, int n, unsigned u, long long big) {
  __shared__ float s[256];
  __shared__ float2 s2[128];
  __shared__ float4 s4[64];
  int t = threadIdx.x;
  a[n - t] = 0;                        // a negative coefficient; before the buffer for t > n
  a[t * n] = 1;                        // int overflow in the lanes where t * n passes 2^31 - 1
  a[u - t] = 2;                        // unsigned: wraps past 2^32 where t > u
  a[(short)(t * 1000)] = 3;            // the narrowing cast wraps from t = 33
  a[t * 0 + 5] = 4;                    // a zero coefficient: one address, lanes still vary
  s[t % 4] = 5;                        // not linear: lane by lane
  s2[t * 0] = make_float2(0, 0);       // 8-byte broadcast
  s2[t / 2 + n] = make_float2(0, 0);   // not linear
  s2[t + n] = make_float2(0, 0);       // 8-byte, half-warps
  s4[t * 3 + n] = make_float4(0, 0, 0, 0);  // 16-byte, quarter-warps, conflicts
  if (t & 1) {
    int v = t * 3;                     // assigned in the odd lanes only
    a[v + n] = 6;
  }
  reinterpret_cast<float2*>(a + n)[t] = make_float2(0, 0);  // misaligned where n is odd
  b[blockIdx.x * 7 + t - 3] = make_float2(0, 0);            // a block index, negative at the start
  long long w = big * t;
  a[w] = 7;                            // int64 overflow where big * t passes 2^63 - 1
  a[t + threadIdx.y + blockIdx.y + blockIdx.x + n * threadIdx.z] = 8;  // five leaves: lane by lane
}
)");
  sim::Count requests = 0, affine = 0;
  const std::int64_t ns[] = {-5, 0, 3, 7, 46341, 2147483647};
  const std::int64_t us[] = {0, 10, 40};
  const std::int64_t bigs[] = {1, std::int64_t{1} << 40, std::int64_t{1} << 62};
  const ir::Dim3 blocks[] = {{37, 2, 1}, {64, 1, 1}, {5, 3, 2}};
  const int warps[] = {32, 8, 64};
  int launch = 0;
  for (const std::int64_t n : ns)
    for (const std::int64_t u : us)
      for (const std::int64_t big : bigs) {
        ir::Launch l;
        l.block = blocks[launch % 3];
        l.grid = ir::Dim3{3, 2, 1};
        l.warp_size = warps[(launch / 3) % 3];
        ++launch;
        l.arguments = {ir::Value{}, ir::Value{}, ir::Value::of(ir::ScalarType::I32, n),
                       ir::Value::of(ir::ScalarType::U32, u), ir::Value::of(ir::ScalarType::I64, big)};
        if (launch % 2 == 0) l.buffer_bytes = {70 * 4, 100 * 8, 0, 0, 0};  // a: 70 floats, b: 100 float2
        SCOPED_TRACE("n " + std::to_string(n) + " u " + std::to_string(u) + " big " + std::to_string(big) +
                     " block " + ir::to_string(l.block) + " warp " + std::to_string(l.warp_size));
        expect_same(k, l, requests, affine);
        if (::testing::Test::HasFailure()) return;
      }
  EXPECT_GT(affine * 2, requests) << str(affine) << " of " << str(requests);
  EXPECT_LT(affine, requests);  // and some went lane by lane
}

// A check implied by another is dropped: in `a[(t + n) * 64 + t]` the int sum t + n is in range
// whenever 64 * (t + n) is, so of the three intermediate values (t + n, 64 * (t + n), and the
// whole sum) two stay checked. Where t + n or 64 * (t + n) overflows in some lanes, the two paths
// still agree and the overflow is reported.
TEST_F(ReplayAffineSnippet, ImpliedChecksAreDroppedAndTheVerdictStays) {
  const ir::Kernel k = load(R"(
__global__ void k(float* a, int n, int m) {
  int t = threadIdx.x;
  a[(t + n) * 64 + t] = 1;
  a[(t + m) * 2 + m] = 2;
}
)");
  ir::Launch l;
  l.block = {64, 1, 1};
  l.grid = {2, 1, 1};
  const auto checks = [&](std::size_t access, std::int64_t n) {
    l.arguments = {ir::Value{}, ir::Value::of(ir::ScalarType::I32, n), ir::Value::of(ir::ScalarType::I32, n)};
    std::vector<std::uint64_t> arguments = {0, l.arguments[1].bits, l.arguments[2].bits};
    sim::ir::detail::AffineOffset f;
    EXPECT_TRUE(sim::ir::detail::compile_affine(k, l, arguments, k.accesses[access].offset, f));
    return f.checks.size();
  };
  ASSERT_EQ(k.accesses.size(), 2u);
  // t is a local (any int to the compiled form): n = m = 5 leaves t + 5, 64t + 320 and 65t + 320
  // to check, of which t + 5 goes; and of t + 5, 2t + 10 and 2t + 15, t + 5 goes.
  EXPECT_EQ(checks(0, 5), 2u);
  EXPECT_EQ(checks(1, 5), 2u);
  // With m = 0, 2 * (t + 0) + 0 is the same form as 2 * (t + 0): one of the two stays (and t + 0
  // is t, in range by its type).
  EXPECT_EQ(checks(1, 0), 1u);
  sim::Count requests = 0, affine = 0;
  // 2^31 / 64 - 10: 64 * (t + n) overflows from t = 10; 2^31 - 20: t + n itself from t = 20.
  for (const std::int64_t n :
       {std::int64_t{5}, std::int64_t{33554422}, std::int64_t{2147483627}, std::int64_t{-33554442}}) {
    l.arguments = {ir::Value{}, ir::Value::of(ir::ScalarType::I32, n), ir::Value::of(ir::ScalarType::I32, 7)};
    SCOPED_TRACE("n " + std::to_string(n));
    expect_same(k, l, requests, affine);
    // The overflow is reported (the fast path handed the access over), as lane by lane does.
    const ReplayOutcome fast = run(k, l, true);
    ASSERT_TRUE(fast.result.has_value());
    EXPECT_EQ(fast.result->access_faults[0].find("overflow") != std::string::npos, n != 5)
        << fast.result->access_faults[0];
  }
  EXPECT_GT(affine, 0);
}

}  // namespace
}  // namespace warpdiv::testing
