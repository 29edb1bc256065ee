// The native replay (jit/native_replay.hpp) against the interpreter it stands in for
// (ReplayOptions::native = Off, the reference): every figure equal (statement counts, barrier
// counts, memory figures, floating-point operations, extents, faults, refusals) on random zoo
// launches, with arguments up to 2^31 - 1 (index arithmetic overflows in some lanes: native code
// must hand those launches over) and buffers of random sizes (accesses outside them: hand-overs
// too); and on kernels written to reach each case native code must decide or hand over.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <memory>
#include <string>
#include <vector>

#include "jit/native_replay.hpp"
#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"
#include "sim/engine/ir_native.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/replay_compare.hpp"
#include "tests/kernels/source_dir.hpp"
#include "tests/kernels/zoo_launches.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

using Outcome = ReplayOutcome;

Outcome run(const ir::Kernel& k, const ir::Launch& l, ir::NativeReplay native, unsigned threads = 1) {
  jit::install_native_replay();
  ir::ReplayOptions o;
  o.threads = threads;
  o.native = native;
  return replay_outcome(k, l, o);
}

// Expects every figure of two runs of one launch equal.
void expect_equal(const ir::Kernel& k, const Outcome& native, const Outcome& reference) {
  EXPECT_EQ(native.refusal, reference.refusal);
  if (native.result && reference.result) expect_same_figures(k, *native.result, *reference.result);
}

// Compares native code with the interpreter on one launch; returns whether native code ran it.
bool expect_same(const ir::Kernel& k, const ir::Launch& l, unsigned threads = 1) {
  const Outcome native = run(k, l, ir::NativeReplay::Always, threads);
  const Outcome reference = run(k, l, ir::NativeReplay::Off, threads);
  expect_equal(k, native, reference);
  if (reference.result) {
    EXPECT_FALSE(reference.result->native);
  }
  return native.result && native.result->native;
}

TEST(NativeReplay, SameAsInterpreterOnRandomZooLaunches) {
  std::mt19937_64 rng(20261127);
  std::vector<ir::Kernel> kernels;
  for (const std::string& f : ir::zoo::files()) kernels.push_back(ir::zoo::load(f));
  ASSERT_GE(kernels.size(), 15u);
  int launches = 0, native = 0, warp32 = 0;
  for (int i = 0; i < 1500; ++i) {
    const ir::Kernel& k = kernels[static_cast<std::size_t>(i) % kernels.size()];
    std::string what;
    // One launch in four with arguments up to 2^31 - 1: index products overflow in some lanes.
    ir::Launch l = ir::zoo::random_launch(k, rng, i % 5 == 0 ? 20 : 4, 3, i % 4 == 0 ? 2147483647 : 60, what);
    // One launch in three with buffers of 1 to 2,000 elements (accesses outside them: faults). With
    // buffers a kernel's shared memory is followed by value (outside the native scope).
    if (i % 3 == 0) ir::zoo::random_buffers(k, l, rng, what);
    SCOPED_TRACE(what);
    ++launches;
    warp32 += l.warp_size == 32 ? 1 : 0;
    native += expect_same(k, l, i % 2 == 0 ? 1u : 2u) ? 1 : 0;
    if (::testing::Test::HasFailure()) break;
  }
  // Native code ran most launches of 32-lane warps (else this compared the interpreter with itself).
  EXPECT_GT(native * 2, warp32) << native << " of " << warp32 << " (" << launches << " launches)";
  EXPECT_GT(native, 400);
}

// The class engine's blind spots (tests/kernels/blind_spots/: unsigned and size_t stencils, long
// indices, grid-stride loops counting down) and the data kernels (kernels/zoo/data/: floats in
// branches, FMA shapes; without buffers the branches on loaded values are refused alike).
TEST(NativeReplay, SameAsInterpreterOnBlindSpotsAndDataKernels) {
  std::mt19937_64 rng(20261128);
  std::vector<ir::Kernel> kernels =
      ir::zoo::load_all(std::string(WARPDIV_SOURCE_DIR) + "/tests/kernels/blind_spots/");
  for (ir::Kernel& k : ir::zoo::load_all(ir::zoo::folder() + "data/")) kernels.push_back(std::move(k));
  ASSERT_GE(kernels.size(), 20u);
  int native = 0;
  for (int i = 0; i < 600; ++i) {
    const ir::Kernel& k = kernels[static_cast<std::size_t>(i) % kernels.size()];
    std::string what;
    const ir::Launch l =
        ir::zoo::random_launch(k, rng, i % 5 == 0 ? 20 : 4, 3, i % 4 == 0 ? 2147483647 : 60, what);
    SCOPED_TRACE(what);
    native += expect_same(k, l, i % 2 == 0 ? 1u : 2u) ? 1 : 0;
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GT(native, 150);
}

// The data kernels with their buffers' values (kernels/zoo/data/: CSR SpMV, BFS, compaction,
// histograms ...): branches on loaded values, which native code reads from the launch's data
// where the buffer is read-only (a buffer the kernel writes and reads back is followed by value:
// the interpreter's). Elements are small (0 .. 7, as the element's type) so that loops end.
TEST(NativeReplay, SameAsInterpreterOnLoadedValues) {
  std::mt19937_64 rng(20261129);
  const std::vector<ir::Kernel> kernels = ir::zoo::load_all(ir::zoo::folder() + "data/");
  ASSERT_GE(kernels.size(), 10u);
  int native = 0, loaded = 0;
  for (int i = 0; i < 400; ++i) {
    const ir::Kernel& k = kernels[static_cast<std::size_t>(i) % kernels.size()];
    std::string what;
    ir::Launch l = ir::zoo::random_launch(k, rng, 6, 2, 40, what);
    l.buffer_bytes.assign(k.parameters.size(), 0);
    l.buffer_data.assign(k.parameters.size(), nullptr);
    for (std::size_t p = 0; p < k.parameters.size(); ++p) {
      const ir::Parameter& param = k.parameters[p];
      if (param.element_bytes == 0 || param.element_bytes > 8) continue;
      const auto count = std::uniform_int_distribution<std::uint64_t>(64, 3000)(rng);
      std::string bytes;
      for (std::uint64_t e = 0; e < count; ++e) {
        const auto v = std::uniform_int_distribution<int>(0, 7)(rng);
        std::uint64_t bits = static_cast<std::uint64_t>(v);
        if (param.element_type == "float") {
          const float f = static_cast<float>(v);
          std::uint32_t b = 0;
          std::memcpy(&b, &f, 4);
          bits = b;
        } else if (param.element_type == "double") {
          const double d = static_cast<double>(v);
          std::memcpy(&bits, &d, 8);
        }
        for (std::uint64_t b = 0; b < param.element_bytes; ++b)
          bytes.push_back(static_cast<char>((bits >> (8 * b)) & 0xFF));
      }
      l.buffer_bytes[p] = bytes.size();
      l.buffer_data[p] = std::make_shared<const std::string>(std::move(bytes));
    }
    SCOPED_TRACE(what + " with data");
    const bool ran = expect_same(k, l, i % 2 == 0 ? 1u : 2u);
    native += ran ? 1 : 0;
    const ReplayOutcome reference = run(k, l, ir::NativeReplay::Off);
    if (ran && reference.result)
      loaded += std::count(reference.result->computed_loads.begin(), reference.result->computed_loads.end(),
                           true) > 0
                    ? 1
                    : 0;
    if (::testing::Test::HasFailure()) break;
  }
  // Native code ran many of them, and computed loaded values in most of those (140 and 98 when
  // written).
  EXPECT_GT(native, 100);
  EXPECT_GT(loaded, 80);
}

// A run's figures and errors do not depend on how many threads share its blocks: the error of
// the lowest failing block is reported (a shared-memory race in every block of the contiguous
// reduction at blocks of 7 x 3 x 2), and an access that faults is left out of its base's extent
// whichever of its requests each thread ran before the fault (the tiled multiply's `ds_N[i][tx]`
// reads past its 16 x 16 tile where tx reaches 21).
TEST(NativeReplay, ThreadsDoNotChangeTheResult) {
  struct Case {
    const char* file;
    ir::Dim3 grid, block;
    std::int64_t argument;
  };
  const Case cases[] = {{"reduction_contiguous.cu", {1, 3, 1}, {7, 3, 2}, 0},
                        {"tiled_matmul_barrier_in_guard.cu", {3, 3, 1}, {22, 3, 1}, 31}};
  for (const Case& c : cases) {
    const ir::Kernel k = ir::zoo::load(c.file);
    ir::Launch l;
    l.grid = c.grid;
    l.block = c.block;
    for (const ir::Parameter& p : k.parameters)
      l.arguments.push_back(p.scalar ? ir::Value::of(p.type, c.argument) : ir::Value{});
    // The reduction follows its shared memory by value where its buffer has values.
    l.buffer_bytes.assign(k.parameters.size(), 0);
    for (std::size_t p = 0; p < k.parameters.size(); ++p)
      if (k.parameters[p].element_bytes != 0 && c.argument == 0)
        l.buffer_bytes[p] = 4096 * k.parameters[p].element_bytes;
    SCOPED_TRACE(c.file);
    const Outcome one = run(k, l, ir::NativeReplay::Off, 1);
    if (c.argument == 0)
      EXPECT_NE(one.refusal.find("shared-memory race"), std::string::npos) << one.refusal;
    else
      EXPECT_TRUE(std::any_of(one.result->access_faults.begin(), one.result->access_faults.end(),
                              [](const std::string& f) { return !f.empty(); }));
    for (int repeat = 0; repeat < 20; ++repeat) {
      expect_equal(k, run(k, l, ir::NativeReplay::Off, 2), one);
      expect_equal(k, run(k, l, ir::NativeReplay::Always, 2), one);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

class NativeReplaySnippet : public SnippetTest {
 protected:
  NativeReplaySnippet() : SnippetTest("warpdiv_native_replay_") {}
};

// Each statement kind and operator native code compiles, with divergence in every construct:
// else-if chains, loops with break and continue, do-while, switch with fall-through and default,
// inlined calls with early returns, partial barriers, kernel-level return, selects and short
// circuits over lanes, every integer width and conversion, floating-point values in branches.
TEST_F(NativeReplaySnippet, EveryConstructSameAsInterpreter) {
  const ir::Kernel k = load(R"(
__device__ int clamp3(int v) {
  if (v < 0) return 0;
  if (v > 3) return 3;
  return v;
}
__global__ void k(float* a, int* h, int n, unsigned u, long long big, float x) {
  __shared__ float s[1024];
  __shared__ double d[512];
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  int lane = t % 32;
  if (t == n) return;
  if (lane < 3) a[t] = 1;
  else if (lane < 9) a[t + 1] = 2;
  else if (lane & 1) a[2 * t] = 3;
  else a[t * 3 % 7] = 4;
  for (int i = 0; i < lane % 5; ++i) {
    if (i == 2 && lane > 20) break;
    if ((i ^ lane) & 1) continue;
    s[(t + i * 33) % 1024] = 0;
  }
  int j = lane;
  do { j -= 7; h[j & 15] = j; } while (j > 0);
  switch (lane % 6) {
    case 0: h[0] = 1;
    case 1: h[1] = 2; break;
    case 3: { if (t > n) break; h[3] = 3; }
    default: h[4] = 4;
  }
  int c = clamp3(lane - 14) + clamp3(lane / 8);
  if (c > 2 && lane < 31) __syncthreads();
  __syncthreads();
  unsigned short w16 = (unsigned short)(t * 5000);
  signed char w8 = (signed char)(t * 9);
  long long wide = (long long)t * big + (unsigned long long)u;
  unsigned uu = u - (unsigned)t;
  int sh = (t << 3) >> (lane % 4);
  if (w16 > 30000 || w8 < 0) s[t % 1024] = 1;
  if (wide > 100 && (uu >> 31) == 0) d[t % 512] = 2.0;
  if (sh > 40 ? lane < 10 : lane > 25) a[lane] = 5;
  float f = x * (float)lane + 0.5f;
  if (f > 4.0f && (int)f % 3 == 1) a[t + 2] = 6;
  double g = (double)f / 3.0;
  if (g < 1.5 || sqrtf(f) > 2.0f) a[t + 3] = 7;
  int q = t / (lane + 1) - t % (lane + 2);
  if (q < 0 && !(lane == 5)) h[5] = q;
  a[t] = a[t] * 2.0f + 1.0f;
}
)");
  const std::int64_t ns[] = {-1, 5, 40, 1000};
  const std::int64_t bigs[] = {1, -3, 1000000};
  const ir::Dim3 blocks[] = {{32, 1, 1}, {37, 2, 1}, {16, 16, 1}, {24, 4, 2}};
  int launch = 0, native = 0;
  for (const std::int64_t n : ns)
    for (const std::int64_t big : bigs) {
      ir::Launch l;
      l.block = blocks[launch % 4];
      l.grid = ir::Dim3{static_cast<std::uint32_t>(1 + launch % 3), 2, 1};
      ++launch;
      float x = 0.37f * static_cast<float>(launch);
      std::uint32_t xb = 0;
      std::memcpy(&xb, &x, sizeof xb);
      l.arguments = {ir::Value{},
                     ir::Value{},
                     ir::Value::of(ir::ScalarType::I32, n),
                     ir::Value::of(ir::ScalarType::U32, 7 * launch),
                     ir::Value::of(ir::ScalarType::I64, big),
                     ir::Value{ir::ScalarType::F32, xb}};
      SCOPED_TRACE("n " + std::to_string(n) + " big " + std::to_string(big) + " block " +
                   ir::to_string(l.block));
      native += expect_same(k, l, 2) ? 1 : 0;
      if (::testing::Test::HasFailure()) return;
    }
  EXPECT_EQ(native, launch);  // none handed over: nothing here is undefined
}

// The control rules both engines walk (sim/engine/control_walk.hpp), checked against counts
// worked out by hand for one warp of 8 threads (t = 0 .. 7), in the interpreter and in native
// code: a kernel-level return, an else-if chain, a loop with break and continue (continued lanes
// rejoin at the step, broken ones leave), a switch with fall-through and default, a do-while, an
// inlined call whose early return rejoins its lanes with their value, a barrier after it.
TEST_F(NativeReplaySnippet, ControlFlowCountsAsWorkedOutByHand) {
  const ir::Kernel k = load(R"(
__device__ int pick(const int v) {
  if (v < 2) return 10;
  return v;
}
__global__ void k(int* h) {
  const int t = threadIdx.x;
  if (t == 7) return;
  if (t < 2) h[0] = 1;
  else if (t < 5) h[1] = 2;
  else h[2] = 3;
  int s = 0;
  for (int i = 0; i < t; ++i) {
    if (i == 3) break;
    if (i & 1) continue;
    s += i;
  }
  switch (t % 4) {
    case 0: h[3] = 4;
    case 1: h[4] = 5; break;
    case 2: h[5] = 6;
    default: h[6] = 7;
  }
  int j = t;
  do { j -= 3; } while (j > 0);
  int r = pick(t);
  if (r == 10) __syncthreads();
  h[7] = s + r;
}
)");
  using K = ir::StmtKind;
  struct Expected {
    std::uint32_t line;
    K kind;
    int evaluations, active, taken, divergent;  // taken and divergent: conditions only
  };
  const Expected expected[] = {
      {8, K::If, 1, 8, 1, 1},         // t == 7: lane 7 leaves the kernel
      {8, K::Return, 1, 1, 0, 0},     //
      {9, K::If, 1, 7, 2, 1},         // t < 2 of 0 .. 6
      {10, K::If, 1, 5, 3, 1},        // t < 5 of 2 .. 6
      {13, K::Loop, 4, 22, 18, 4},    // heads i = 0 .. 3: lanes 0..6, 1..6, 2..6, 3..6 in; t > i stay
      {14, K::If, 4, 18, 3, 0},       // i == 3 on 6, 5, 4, 3 lanes: all 3 at i = 3
      {14, K::Break, 1, 3, 0, 0},     //
      {15, K::If, 3, 15, 5, 0},       // i & 1 on 6, 5, 4 lanes (none left at i = 3): all 5 at i = 1
      {15, K::Continue, 1, 5, 0, 0},  //
      {16, K::Assign, 2, 10, 0, 0},   // s += i at i = 0 (6 lanes) and 2 (4 lanes)
      {13, K::Assign, 3, 15, 0, 0},   // ++i: continued lanes rejoin at i = 1; none after the break
      {18, K::Switch, 1, 7, 6, 1},    // t % 4: cases 0 {0, 4}, 1 {1, 5}, 2 {2, 6}; default {3}
      {19, K::Work, 1, 2, 0, 0},      // h[3] = 4 in lanes 0, 4
      {20, K::Work, 1, 4, 0, 0},      // case 0 falls through into case 1: 0, 4, 1, 5
      {20, K::Break, 1, 4, 0, 0},     //
      {21, K::Work, 1, 2, 0, 0},      // lanes 2, 6
      {22, K::Work, 1, 3, 0, 0},      // 2, 6 falling through, 3 by default
      {25, K::Loop, 2, 10, 3, 1},     // j = t - 3 > 0 for t = 4, 5, 6; then none
      {25, K::Assign, 2, 10, 0, 0},   //
      {3, K::If, 1, 7, 2, 1},         // v < 2
      {3, K::Return, 1, 2, 0, 0},     //
      {4, K::Return, 1, 5, 0, 0},     // the others
      {27, K::If, 1, 7, 2, 1},        // r == 10 in lanes 0, 1: the call's result, every lane back
      {27, K::Barrier, 1, 2, 0, 0},   //
      {28, K::Work, 1, 7, 0, 0},      // lanes 0 .. 6: all that did not leave the kernel
  };
  ir::Launch l;
  l.block = {8, 1, 1};
  l.grid = {1, 1, 1};
  l.arguments = {ir::Value{}};
  for (const ir::NativeReplay mode : {ir::NativeReplay::Off, ir::NativeReplay::Always}) {
    const Outcome o = run(k, l, mode);
    ASSERT_TRUE(o.result) << o.refusal;
    EXPECT_EQ(o.result->native, mode == ir::NativeReplay::Always);
    for (const Expected& e : expected) {
      const ir::StatementCounts& c = o.result->statements[statement_at(k, e.line, e.kind)];
      SCOPED_TRACE(std::string(mode == ir::NativeReplay::Off ? "interpreter" : "native") + ": line " +
                   std::to_string(e.line) + " " + ir::name(e.kind));
      EXPECT_EQ(sim::to_decimal(c.warp_evaluations), std::to_string(e.evaluations));
      EXPECT_EQ(sim::to_decimal(c.active_lanes), std::to_string(e.active));
      EXPECT_EQ(sim::to_decimal(c.taken_lanes), std::to_string(e.taken));
      EXPECT_EQ(sim::to_decimal(c.divergent), std::to_string(e.divergent));
    }
  }
}

// What native code does not decide itself it hands over, and the interpreter reports it as always:
// a signed overflow, a division by zero, a shift past the width and a float converted out of range
// in some lanes only, a read of a local never assigned, an access outside its buffer or
// misaligned, and a loop past kMaxNativeHeads heads (a long loop the interpreter then runs).
TEST_F(NativeReplaySnippet, HandsOverWhatItDoesNotDecide) {
  const ir::Kernel k = load(R"(
__global__ void k(float* a, int n, int m, int which, float x) {
  int t = threadIdx.x;
  int v;
  if (t > 3) v = t;
  if (which == 0 && t * n > 5) a[0] = 1;
  if (which == 1 && 100 / (t - n) > 1) a[1] = 1;
  if (which == 2 && (1 << (t - n)) > 2) a[2] = 1;
  if (which == 3 && (int)(x * (float)t) > 2) a[3] = 1;
  if (which == 4 && v > 2) a[4] = 1;
  if (which == 5) a[t * n] = 1;
  if (which == 6) reinterpret_cast<float2*>(a + n)[t] = make_float2(0, 0);
  if (which == 7) for (int i = 0; i < m; ++i) a[i % 4] = 2;
}
)");
  struct Case {
    int which;
    std::int64_t n, m;
    float x;
    std::uint64_t buffer;  // bytes of a (0: unknown)
    bool handed_over;      // native code gives it to the interpreter
  };
  const Case cases[] = {
      {0, 1, 0, 1, 0, false},      {0, 1 << 30, 0, 1, 0, true},  // overflow in lanes 2 ..
      {1, 40, 0, 1, 0, false},     {1, 17, 0, 1, 0, true},       // division by zero in lane 17
      {2, 0, 0, 1, 0, false},      {2, -2, 0, 1, 0, true},       // a shift by 32 and 33
      {3, 0, 0, 1e8f, 0, true},    {3, 0, 0, 2.5f, 0, false},    // 1e8 * 31 > 2^31
      {4, 0, 0, 1, 0, true},                                     // v unassigned in lanes 0 .. 3
      {5, 2, 0, 1, 64 * 4, false}, {5, 3, 0, 1, 64 * 4, true},   // a[93] outside 64 floats
      {6, 2, 0, 1, 0, false},      {6, 1, 0, 1, 0, true},        // misaligned float2
      {7, 0, 1000, 1, 0, false},   {7, 0, 70000, 1, 0, true},    // 70,001 heads
  };
  for (const Case& c : cases) {
    ir::Launch l;
    l.block = {32, 1, 1};
    l.grid = {2, 1, 1};
    std::uint32_t xb = 0;
    std::memcpy(&xb, &c.x, sizeof xb);
    l.arguments = {ir::Value{}, ir::Value::of(ir::ScalarType::I32, c.n),
                   ir::Value::of(ir::ScalarType::I32, c.m), ir::Value::of(ir::ScalarType::I32, c.which),
                   ir::Value{ir::ScalarType::F32, xb}};
    if (c.buffer != 0) l.buffer_bytes = {c.buffer, 0, 0, 0, 0};
    SCOPED_TRACE("case " + std::to_string(c.which) + " n " + std::to_string(c.n));
    const Outcome native = run(k, l, ir::NativeReplay::Always);
    const Outcome reference = run(k, l, ir::NativeReplay::Off);
    EXPECT_EQ(native.refusal, reference.refusal);
    if (native.result) {
      EXPECT_EQ(native.result->native, !c.handed_over);
      // Why it handed over, where the interpreter then counts the launch: the access outside its
      // buffer or misaligned (cases 5, 6), the loop's 70,001 heads (case 7).
      const char* why = !c.handed_over ? ""
                        : c.which == 7 ? "a loop past the native code's head limit or the budget"
                                       : "an access outside its buffer or misaligned";
      EXPECT_EQ(native.result->native_hand_over, why);
    }
    if (!c.handed_over) {
      EXPECT_TRUE(native.result.has_value()) << native.refusal;
    }
    expect_same(k, l);
  }
}

// Warp-level functions: shuffles of each kind and width over int, float and long values, ballot,
// any, all and activemask, in divergent code and after some lanes left the kernel; and what is
// undefined in them handed over (a source lane that does not run the call, an active lane outside
// the mask, a lane of the mask that has not exited and does not run it).
TEST_F(NativeReplaySnippet, WarpFunctionsSameAsInterpreter) {
  const ir::Kernel k = load(R"(
__global__ void k(int* a, int n, int which) {
  int t = threadIdx.x;
  int lane = t % 32;
  if (lane == n) return;
  unsigned alive = __activemask();
  int up = __shfl_up_sync(alive, t, 3, 16);
  int down = __shfl_down_sync(alive, t, 5, 8);
  float fx = __shfl_xor_sync(alive, (float)t * 0.5f, 6, 32);
  long long wide = __shfl_sync(alive, (long long)t << 33, lane + 7, 4);
  if (up > 40 || down % 3 == 0 || fx > 20.0f || wide > (34LL << 33)) a[t] = 1;
  unsigned votes = __ballot_sync(alive, t % 3 == 0);
  if (__popc(votes) > 6 && __any_sync(alive, t > 50) && !__all_sync(alive, t < 60)) a[t + 1] = 2;
  if (lane < 20) {
    unsigned inner = __activemask();
    int odd = __shfl_up_sync(inner, lane, 1);
    if (odd & 1) a[t + 2] = 3;
    if (which == 1 && __shfl_down_sync(inner, t, 2) > 0) a[t] = 4;   // lanes 18, 19 read 20, 21
    if (which == 2 && __shfl_sync(0xffff, t, 0) > 0) a[t] = 5;        // lanes 16 .. 19 outside the mask
  }
  if (which == 3 && lane < 31 && __shfl_sync(0xffffffff, t, 0) > 0) a[t] = 6;  // lane 31 has not exited
}
)");
  const ir::Dim3 blocks[] = {{64, 1, 1}, {48, 2, 1}, {32, 3, 1}};
  int native = 0, launches = 0;
  for (const std::int64_t n : {-1, 0, 9, 31})
    for (const std::int64_t which : {0, 1, 2, 3}) {
      ir::Launch l;
      l.block = blocks[launches % 3];
      l.grid = {2, 1, 1};
      ++launches;
      l.arguments = {ir::Value{}, ir::Value::of(ir::ScalarType::I32, n),
                     ir::Value::of(ir::ScalarType::I32, which)};
      SCOPED_TRACE("n " + std::to_string(n) + " which " + std::to_string(which));
      const bool ran = expect_same(k, l, 2);
      native += ran ? 1 : 0;
      // With no lane gone (n = -1) and which = 0 nothing is undefined; which = 1 .. 3, and lanes
      // read after they left (n = 0, 9, 31), are undefined: handed over, refused alike.
      EXPECT_EQ(ran, n == -1 && which == 0);
      if (n == -1 && which != 0) {
        EXPECT_NE(run(k, l, ir::NativeReplay::Off).refusal.find("undefined behaviour"), std::string::npos);
      }
      if (::testing::Test::HasFailure()) return;
    }
  EXPECT_EQ(native, 1);
}

// 8- and 16-byte shared loads whose lanes pair up, as Nsight Compute measured them on an H200
// (MemoryRules.WavefrontsOfPairedLoadsAsMeasuredOnAnH200): the same wavefronts whether the address
// is a warp-uniform value or computed by each lane, through the interpreter's fast path, lane by
// lane and native code.
TEST_F(NativeReplaySnippet, PairedSharedLoadsCountAsMeasured) {
  const ir::Kernel k = load(R"(
__global__ void k(float2* out, float4* out4, int n) {
  __shared__ float2 s2[128];
  __shared__ float4 s4[128];
  int t = threadIdx.x;
  float2 a = s2[n];
  float2 b = s2[t * 0 + n];
  float2 c = s2[t / 2];
  float2 d = s2[t % 16];
  float4 e = s4[n];
  float4 f = s4[t];
  s2[t / 2] = a;
  out[t] = make_float2(a.x + b.x, c.x + d.x);
  out4[t] = make_float4(e.x, f.x, 0, 0);
}
)");
  ir::Launch l;
  l.block = {32, 1, 1};
  l.grid = {3, 1, 1};
  l.arguments = {ir::Value{}, ir::Value{}, ir::Value::of(ir::ScalarType::I32, 5)};
  // Wavefronts per request of each shared access, in source order.
  const std::pair<const char*, int> expected[] = {{"s2[n]", 1},      {"s2[t * 0 + n]", 1}, {"s2[t / 2]", 1},
                                                  {"s2[t % 16]", 2}, {"s4[n]", 2},         {"s4[t]", 4},
                                                  {"s2[t / 2]", 2}};
  for (int mode = 0; mode < 3; ++mode) {
    ir::ReplayOptions o;
    o.native = mode == 2 ? ir::NativeReplay::Always : ir::NativeReplay::Off;
    o.affine_offsets = mode != 1;
    jit::install_native_replay();
    const ir::ReplayResult r = ir::replay(k, l, o);
    EXPECT_EQ(r.native, mode == 2);
    std::size_t next = 0;
    for (std::size_t a = 0; a < k.accesses.size(); ++a) {
      if (k.accesses[a].space != ir::AddressSpace::Shared) continue;
      ASSERT_LT(next, std::size(expected));
      SCOPED_TRACE("mode " + std::to_string(mode) + ": " + k.accesses[a].text);
      EXPECT_EQ(k.accesses[a].text, expected[next].first);
      EXPECT_EQ(sim::to_decimal(r.accesses[a].requests), "3");
      EXPECT_EQ(sim::to_decimal(r.accesses[a].wavefronts), std::to_string(3 * expected[next].second));
      EXPECT_EQ(sim::to_decimal(r.accesses[a].conflicts), "0");
      ++next;
    }
    EXPECT_EQ(next, std::size(expected));
  }
}

// Out of the native scope, decided per launch: warps of other than 32 lanes; and Auto leaves a
// small launch of a model never compiled to the interpreter, whose compile would cost more than
// it saves.
TEST_F(NativeReplaySnippet, ScopeIsDecidedPerLaunch) {
  ir::Launch l;
  l.block = {64, 1, 1};
  l.grid = {3, 1, 1};
  const ir::Kernel plain = load(R"(
__global__ void k(int* a, int n) {
  if (threadIdx.x < n) a[threadIdx.x] = 1;
}
)");
  l.arguments = {ir::Value{}, ir::Value::of(ir::ScalarType::I32, 20)};
  EXPECT_TRUE(run(plain, l, ir::NativeReplay::Always).result->native);
  ir::Launch other = l;
  other.warp_size = 16;
  EXPECT_FALSE(run(plain, other, ir::NativeReplay::Always).result->native);
  EXPECT_FALSE(run(plain, l, ir::NativeReplay::Off).result->native);
  // A model never compiled: Auto compiles it only for a launch estimated at 2 x 10^7 evaluations.
  const ir::Kernel fresh = load(R"(
__global__ void k(int* a, int n) {
  for (int i = 0; i < 4; ++i)
    if (threadIdx.x < n + i) a[threadIdx.x] = 2;
}
)");
  l.arguments = {ir::Value{}, ir::Value::of(ir::ScalarType::I32, 20)};
  EXPECT_FALSE(run(fresh, l, ir::NativeReplay::Auto).result->native);
  ir::Launch big = l;
  big.block = {1024, 1, 1};
  // 3.2 million warps of 15 evaluations or more each (the body, the loop's init, 5 heads, 4
  // conditions and 4 steps): 4.8 x 10^7, past 2 x 10^7.
  big.grid = {100000, 1, 1};
  jit::install_native_replay();
  ir::ReplayOptions o;
  o.native = ir::NativeReplay::Auto;
  EXPECT_TRUE(ir::replay(fresh, big, o).native);
  EXPECT_TRUE(run(fresh, l, ir::NativeReplay::Auto).result->native);  // compiled now
}

// The compiler keeps kMaxCachedCodes models: compiling that many more after one model drops it
// (the least recently used), and meeting it again compiles it again, to the same counts; a model
// used since stays (a cache hit). Each copy of one kernel under another name is another model.
TEST_F(NativeReplaySnippet, TheCompiledCodeCacheDropsTheLeastRecentlyUsed) {
  ir::Kernel k = load(R"(
__global__ void k(int* a, int n) {
  if (threadIdx.x < n) a[threadIdx.x] = 4;
}
)");
  ir::Launch l;
  l.block = {64, 1, 1};
  l.grid = {3, 1, 1};
  l.arguments = {ir::Value{}, ir::Value::of(ir::ScalarType::I32, 20)};
  const auto named = [&](std::size_t i) {
    ir::Kernel copy = k;
    copy.name = "cache_probe_" + std::to_string(i);
    return copy;
  };
  const auto compiled = [] { return jit::native_stats().compiled; };
  const ir::Kernel first = named(0);
  const jit::NativeStats before = jit::native_stats();
  const Outcome one = run(first, l, ir::NativeReplay::Always);
  ASSERT_TRUE(one.result && one.result->native) << one.refusal;
  // 3 blocks of 2 warps reach the if: warp 0's lanes 0 .. 19 take it (divergent), warp 1's none.
  for (std::size_t s = 0; s < k.stmts.size(); ++s)
    if (k.stmts[s].kind == ir::StmtKind::If) {
      EXPECT_EQ(sim::to_decimal(one.result->statements[s].warp_evaluations), "6");
      EXPECT_EQ(sim::to_decimal(one.result->statements[s].divergent), "3");
      EXPECT_EQ(sim::to_decimal(one.result->statements[s].taken_lanes), "60");
    }
  EXPECT_EQ(compiled(), before.compiled + 1);
  // A model used again: found, not compiled.
  const jit::NativeStats again = jit::native_stats();
  EXPECT_TRUE(run(first, l, ir::NativeReplay::Always).result->native);
  EXPECT_EQ(compiled(), again.compiled);
  EXPECT_EQ(jit::native_stats().cache_hits, again.cache_hits + 1);
  for (std::size_t i = 1; i <= jit::kMaxCachedCodes; ++i)
    ASSERT_TRUE(run(named(i), l, ir::NativeReplay::Always).result->native) << i;
  EXPECT_EQ(compiled(), before.compiled + 1 + jit::kMaxCachedCodes);
  EXPECT_GE(jit::native_stats().evicted, before.evicted + 1);
  // The last one stays; the first was dropped and compiles again, to the same counts.
  const jit::NativeStats after = jit::native_stats();
  EXPECT_TRUE(run(named(jit::kMaxCachedCodes), l, ir::NativeReplay::Always).result->native);
  EXPECT_EQ(compiled(), after.compiled);
  const Outcome back = run(first, l, ir::NativeReplay::Always);
  ASSERT_TRUE(back.result && back.result->native) << back.refusal;
  EXPECT_EQ(compiled(), after.compiled + 1);
  expect_same_figures(first, *back.result, *one.result);
  expect_equal(first, back, run(first, l, ir::NativeReplay::Off));
}

// What crosses the plugin's boundary is the plan serialised: its compiler reads the plan's bytes,
// refuses those of another version, cut short or not a plan, with a reason (the launch then
// interpreted), and the code of bytes it reads counts as the interpreter.
TEST_F(NativeReplaySnippet, ThePluginsCompilerChecksThePlansVersion) {
  const ir::Kernel k = load(R"(
__global__ void k(int* a, int n) {
  if (threadIdx.x < n) a[threadIdx.x] = 3;
}
)");
  ir::Launch l;
  l.block = {64, 1, 1};
  l.grid = {2, 1, 1};
  l.arguments = {ir::Value{}, ir::Value::of(ir::ScalarType::I32, 40)};
  const ir::detail::LaunchPlan plan(std::make_shared<const ir::Kernel>(k), l, ir::detail::PlanOptions{});
  const std::string bytes = ir::detail::serialize(plan);
  const ir::detail::NativePlanCompiler compile = jit::plan_compiler();
  const ir::detail::NativeCompiled good = compile(bytes.data(), bytes.size(), true);
  ASSERT_NE(good.code, nullptr) << good.refusal;
  std::string other = bytes;
  other[8] = static_cast<char>(other[8] + 1);  // the version, after the 8-byte magic
  const ir::detail::NativeCompiled refused = compile(other.data(), other.size(), true);
  EXPECT_EQ(refused.code, nullptr);
  EXPECT_STREQ(refused.refusal, "the launch plan is of another version than the native replay reads");
  const ir::detail::NativeCompiled cut = compile(bytes.data(), bytes.size() / 2, true);
  EXPECT_EQ(cut.code, nullptr);
  EXPECT_STREQ(cut.refusal, "the native replay could not read or compile the launch plan");
  // The code of the bytes read back: 2 blocks of 2 warps, `if (threadIdx.x < 40)` taken by 40
  // lanes a block (warp 1 divided: lanes 32 .. 39).
  const std::vector<const char*> data(k.bases.size(), nullptr);  // no buffer's data: zeros
  ir::detail::NativeRun native_run;
  native_run.data = data.data();
  const std::unique_ptr<ir::detail::NativeWorker> worker = good.code->worker(native_run);
  std::vector<ir::StatementCounts> statements(k.stmts.size());
  std::vector<ir::AccessCounts> accesses(k.accesses.size());
  std::vector<std::uint64_t> flops(k.stmts.size());
  std::vector<ir::BaseExtent> extents(k.accesses.size());
  ir::detail::NativeTally tally{statements.data(), accesses.data(), flops.data(), extents.data()};
  for (std::uint32_t b = 0; b < 2; ++b)
    EXPECT_EQ(worker->run_block(b, 0, 0, tally).kind, ir::detail::NativeOutcome::Kind::Done);
  EXPECT_EQ(tally.blocks, 2u);
  EXPECT_EQ(tally.warps, 4u);
  for (std::size_t s = 0; s < k.stmts.size(); ++s)
    if (k.stmts[s].kind == ir::StmtKind::If) {
      EXPECT_EQ(sim::to_decimal(statements[s].warp_evaluations), "4");
      EXPECT_EQ(sim::to_decimal(statements[s].taken_lanes), "80");
      EXPECT_EQ(sim::to_decimal(statements[s].divergent), "2");
    }
}

}  // namespace
// A model whose warp function is past kMaxNativeInstructions is not compiled (optimising it would
// take minutes): the interpreter counts the launch, and the refusal says why. 2,000 guarded
// updates of one local are well past it (each is a lane loop of some tens of instructions).
TEST_F(NativeReplaySnippet, AModelTooLargeToCompileQuicklyIsLeftToTheInterpreter) {
  std::string body = "__global__ void too_large(unsigned* a) {\n  int t = threadIdx.x;\n  unsigned x = 0;\n";
  for (int i = 0; i < 2000; ++i)
    body += "  if (t > " + std::to_string(i % 61) + ") x = x * 3u + " + std::to_string(i) + "u;\n";
  body += "  a[t] = x;\n}\n";
  const ir::Kernel k = load(body);
  ir::Launch l;
  l.block = {64, 1, 1};
  l.grid = {1, 1, 1};
  l.arguments = {ir::Value{}};
  const Outcome native = run(k, l, ir::NativeReplay::Always);
  ASSERT_TRUE(native.result) << native.refusal;
  EXPECT_FALSE(native.result->native);
  const std::string why = jit::native_stats().last_refusal;
  EXPECT_NE(why.find("LLVM instructions, above the 30000 that compile in seconds"), std::string::npos) << why;
  expect_equal(k, native, run(k, l, ir::NativeReplay::Off));
}

}  // namespace warpdiv::testing
