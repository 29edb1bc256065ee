// The replay's shortcuts, each against values worked out by hand: operators over few active lanes
// (WarpMachine::sparse: at most kSparseLanes of a warp's 32) run lane by lane over those lanes
// only, over more over the whole warp (the same kernel with 2, 4, 5 and 32 active lanes: the same
// values and the same first fault); a load from read-only data whose offset's locals did not change
// is not read again (WarpMachine::kept_load_), and is read again when they did; an expression over
// such a load (`idx[j + t] * 2`, a gather's offset) is computed again when the load's offset's
// locals change (LaunchPlan::kept); an expression takes the kept lanes of another of the same
// operators over the same locals (LaunchPlan::canonical), and only while those are unchanged; a
// condition's lanes are kept likewise (WarpMachine::kept_mask_).
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sim/support/errors.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/source_dir.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

class SparseLanes : public SnippetTest {
 protected:
  SparseLanes() : SnippetTest("warpdiv_sparse_lanes_") {}
};

// Threads t < active store (long)(base + t) * 3 (an int addition, a conversion, a 64-bit
// multiply), the compare t < active and a float t * 0.5f + 1 (contracted into an FMA).
constexpr const char* kKernel = R"(__global__ void k(long long *out, float *f, int base, int active) {
  int t = threadIdx.x;
  if (t < active) {
    int v = base + t;
    out[t] = (long long)v * 3;
    f[t] = t * 0.5f + 1.0f;
  }
}
)";

ir::Launch launch(int base, int active) {
  ir::Launch l;
  l.grid = ir::Dim3{1, 1, 1};
  l.block = ir::Dim3{32, 1, 1};
  l.arguments = {ir::Value{}, ir::Value{}, ir::Value::of(ir::ScalarType::I32, base),
                 ir::Value::of(ir::ScalarType::I32, active)};
  l.buffer_bytes = {32 * 8, 32 * 4, 0, 0};
  l.buffer_data.assign(4, nullptr);
  return l;
}

// n ints f(0) .. f(n - 1), little-endian, as a buffer's contents.
std::shared_ptr<const std::string> ints(int n, int (*f)(int)) {
  std::string s(static_cast<std::size_t>(n) * 4, '\0');
  for (int i = 0; i < n; ++i) {
    const std::int32_t v = f(i);
    std::memcpy(&s[4 * static_cast<std::size_t>(i)], &v, 4);
  }
  return std::make_shared<const std::string>(s);
}

// One block of `threads` threads; every parameter a pointer, buffer i of bytes[i] bytes holding
// data[i] (null: zeros).
ir::Launch one_block(unsigned threads, std::vector<std::shared_ptr<const std::string>> data,
                     std::vector<std::uint64_t> bytes) {
  ir::Launch l;
  l.grid = ir::Dim3{1, 1, 1};
  l.block = ir::Dim3{threads, 1, 1};
  l.arguments.assign(data.size(), ir::Value{});
  l.buffer_data = std::move(data);
  l.buffer_bytes = std::move(bytes);
  return l;
}

// The replay with the stores kept; the int that thread t stored into parameter `buffer`.
ir::ReplayResult replay_stores(const ir::Kernel& k, const ir::Launch& l) {
  ir::ReplayOptions o;
  o.capture_stores = true;
  return ir::replay(k, l, o);
}
std::int32_t stored_int(const ir::ReplayResult& r, std::size_t buffer, int t) {
  std::int32_t got = 0;
  std::memcpy(&got, r.stored[buffer].bytes.data() + 4 * t, 4);
  return got;
}

TEST_F(SparseLanes, FewOrAllLanesComputeTheSameValues) {
  const ir::Kernel k = load(kKernel);
  for (const int active : {2, 4, 5, 32}) {
    ir::ReplayOptions o;
    o.capture_stores = true;
    const ir::ReplayResult r = ir::replay(k, launch(1000, active), o);
    for (int t = 0; t < active; ++t) {
      long long v = 0;
      float x = 0;
      std::memcpy(&v, r.stored[0].bytes.data() + 8 * t, 8);
      std::memcpy(&x, r.stored[1].bytes.data() + 4 * t, 4);
      EXPECT_EQ(v, (1000LL + t) * 3) << active << " " << t;
      EXPECT_EQ(x, static_cast<float>(t) * 0.5f + 1.0f) << active << " " << t;  // exact: halves
    }
    // The branch: one evaluation of the warp, `active` lanes taken of 32, divergent below 32.
    bool found = false;
    for (std::size_t s = 0; s < k.stmts.size(); ++s)
      if (k.stmts[s].kind == ir::StmtKind::If) {
        EXPECT_EQ(r.statements[s].taken_lanes, static_cast<std::uint64_t>(active));
        EXPECT_EQ(r.statements[s].divergent, active < 32 ? 1u : 0u);
        found = true;
      }
    EXPECT_TRUE(found);
  }
}

// base = INT_MAX - 3: base + t overflows for t >= 4, first in thread 4. With 5 active lanes (the
// whole-warp path) thread 4 is named; with 4 (lane by lane) no lane overflows (t = 0..3).
TEST_F(SparseLanes, TheFirstFaultingLaneIsNamedEitherWay) {
  const ir::Kernel k = load(kKernel);
  const auto error = [&](int active) {
    try {
      ir::replay(k, launch(INT_MAX - 3, active), ir::ReplayOptions{});
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(4), "");
  for (const int active : {5, 32}) {
    const std::string e = error(active);
    EXPECT_NE(e.find("undefined behaviour"), std::string::npos) << e;
    EXPECT_NE(e.find("thread (4, 0, 0)"), std::string::npos) << e;
  }
  // base = INT_MAX - 1 with 3 lanes (the lane-by-lane path): thread 2 is the first to overflow.
  try {
    ir::replay(k, launch(INT_MAX - 1, 3), ir::ReplayOptions{});
    ADD_FAILURE() << "base + 2 overflows";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("thread (2, 0, 0)"), std::string::npos) << e.what();
  }
}

// Lane t sums a[j + t] for j = 0 .. t % 4 (lanes leave the loop after 1 to 4 iterations; the
// load's offset changes with j), then reads a[t] twice more across a write of an unrelated local
// (kept) and once after t2 = t + 1 (another offset). With a[i] = 10 i:
// s = 10 ((t % 4 + 1) t + (t % 4)(t % 4 + 1) / 2); out[t] = s + 2 * 10 t + 10 (t + 1).
TEST_F(SparseLanes, ALoadIsReadAgainOnlyWhenItsOffsetChanges) {
  const ir::Kernel k = load(R"(__global__ void k(const int *a, int *out) {
  int t = threadIdx.x;
  int s = 0;
  for (int j = 0; j < t % 4 + 1; ++j)
    s += a[j + t];
  int u = a[t];
  int w = 3;
  u += a[t];
  int t2 = t + 1;
  out[t] = s + u + a[t2] + w - 3;
}
)");
  const ir::ReplayResult r =
      replay_stores(k, one_block(32, {ints(64, [](int i) { return 10 * i; }), nullptr}, {64 * 4, 32 * 4}));
  for (int t = 0; t < 32; ++t) {
    const int m = t % 4;
    const int s = 10 * ((m + 1) * t + m * (m + 1) / 2);
    EXPECT_EQ(stored_int(r, 1, t), s + 2 * 10 * t + 10 * (t + 1)) << t;
  }
}

// Two warps; lane t sums b[idx[j + t] * 2] for j = 0 .. t % 4: the gather's offset
// `idx[j + t] * 2` is computed for the access's sectors and again for its value, and changes with
// j (a value kept across iterations, or from the first warp, would be stale). With
// idx[i] = 7 i mod 64 and b[i] = 3 i + 1: out[t] = sum over j of (6 idx[j + t] + 1).
TEST_F(SparseLanes, AGathersOffsetIsComputedAgainWhenItsLoadsOffsetChanges) {
  const ir::Kernel k = load(R"(__global__ void k(const int *idx, const int *b, int *out) {
  int t = blockDim.x * blockIdx.x + threadIdx.x;
  int s = 0;
  for (int j = 0; j < t % 4 + 1; ++j)
    s += b[idx[j + t] * 2];
  out[t] = s;
}
)");
  const ir::ReplayResult r = replay_stores(k, one_block(64,
                                                        {ints(68, [](int i) { return 7 * i % 64; }),
                                                         ints(128, [](int i) { return 3 * i + 1; }), nullptr},
                                                        {68 * 4, 128 * 4, 64 * 4}));
  for (int t = 0; t < 64; ++t) {
    int s = 0;
    for (int j = 0; j <= t % 4; ++j) s += 6 * (7 * (j + t) % 64) + 1;
    EXPECT_EQ(stored_int(r, 2, t), s) << t;
  }
}

// a[2 t] and b[2 t] in one statement share their addresses (CompiledAccess::same_as): 32 lanes
// 8 bytes apart cover bytes 0 .. 255, 8 sectors each, one request each. Each is still checked
// against its own buffer: with b of 40 ints, b[2 t] passes its end first at thread 20 (byte 160)
// while a is counted; with a of 40 ints a faults and b is counted. Both with the fast path for
// offsets and lane by lane (where the second access takes the first one's figures).
TEST_F(SparseLanes, AccessesWithTheSameOffsetShareSectorsButNotBounds) {
  const ir::Kernel k = load(R"(__global__ void k(const int *a, const int *b, int *out) {
  int t = threadIdx.x;
  out[t] = a[2 * t] + b[2 * t];
}
)");
  const auto access_of = [&](const std::string& base) {
    for (std::size_t i = 0; i < k.accesses.size(); ++i)
      if (k.bases[static_cast<std::size_t>(k.accesses[i].base)].name == base) return i;
    ADD_FAILURE() << base;
    return std::size_t{0};
  };
  const std::size_t a = access_of("a"), b = access_of("b");
  for (const bool affine : {true, false}) {
    SCOPED_TRACE(affine);
    const auto run = [&](std::uint64_t a_ints, std::uint64_t b_ints) {
      ir::ReplayOptions o;
      o.affine_offsets = affine;
      return ir::replay(k, one_block(32, {nullptr, nullptr, nullptr}, {a_ints * 4, b_ints * 4, 32 * 4}), o);
    };
    const ir::ReplayResult both = run(64, 64);
    for (const std::size_t i : {a, b}) {
      EXPECT_EQ(both.accesses[i].requests, 1u);
      EXPECT_EQ(both.accesses[i].sectors, 8u);
      EXPECT_EQ(both.accesses[i].bytes, 128u);
      EXPECT_EQ(both.access_faults[i], "");
    }
    const ir::ReplayResult short_b = run(64, 40);
    EXPECT_EQ(short_b.accesses[a].sectors, 8u);
    EXPECT_EQ(short_b.access_faults[a], "");
    EXPECT_NE(short_b.access_faults[b].find("thread (20, 0, 0)"), std::string::npos)
        << short_b.access_faults[b];
    const ir::ReplayResult short_a = run(40, 64);
    EXPECT_EQ(short_a.accesses[b].sectors, 8u);
    EXPECT_EQ(short_a.access_faults[b], "");
    EXPECT_NE(short_a.access_faults[a].find("thread (20, 0, 0)"), std::string::npos)
        << short_a.access_faults[a];
  }
}

// `t * 2` twice (the second after t changes) and `s * 2` once: with a[i] = i, x = 2 t, y = 2 t + 2
// and z = 2 t + 4 (the thread's first t): out = x + 100 y + 10000 z.
TEST_F(SparseLanes, TheSameExpressionOverOtherLocalsOrChangedOnesIsComputedAgain) {
  const ir::Kernel k = load(R"(__global__ void k(const int *a, int *out) {
  int t = threadIdx.x;
  int s = t + 1;
  int x = a[t * 2];
  int y = a[s * 2];
  t = t + 2;
  int z = a[t * 2];
  out[threadIdx.x] = x + 100 * y + 10000 * z;
}
)");
  const ir::ReplayResult r =
      replay_stores(k, one_block(32, {ints(80, [](int i) { return i; }), nullptr}, {80 * 4, 32 * 4}));
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(stored_int(r, 1, t), 2 * t + 100 * (2 * t + 2) + 10000 * (2 * t + 4)) << t;
}

// `t < lim` in a loop whose lim grows by 8 each iteration: thread t counts the j in 0 .. 3 with
// t < 8 (j + 1), 4 - t / 8 for t < 32 and 0 in the second warp. The branch runs 4 times per warp
// and takes 8, 16, 24 and 32 lanes of the first warp (divergent 3 times), none of the second.
TEST_F(SparseLanes, AConditionIsDecidedAgainWhenItsLocalsChange) {
  const ir::Kernel k = load(R"(__global__ void k(int *out) {
  int t = threadIdx.x;
  int lim = 8;
  int n = 0;
  for (int j = 0; j < 4; ++j) {
    if (t < lim) n += 1;
    lim += 8;
  }
  out[t] = n;
}
)");
  const ir::ReplayResult r = replay_stores(k, one_block(64, {nullptr}, {64 * 4}));
  for (int t = 0; t < 64; ++t) EXPECT_EQ(stored_int(r, 0, t), t < 32 ? 4 - t / 8 : 0) << t;
  bool found = false;
  for (std::size_t s = 0; s < k.stmts.size(); ++s)
    if (k.stmts[s].kind == ir::StmtKind::If) {
      EXPECT_EQ(r.statements[s].warp_evaluations, 8u);
      EXPECT_EQ(r.statements[s].taken_lanes, 8u + 16u + 24u + 32u);
      EXPECT_EQ(r.statements[s].divergent, 3u);
      found = true;
    }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace warpdiv::testing
