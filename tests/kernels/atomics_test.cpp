// atomicExch, atomicCAS, atomicInc/Dec and floating-point atomicAdd from the source:
// lowered with their operands, run by the replay in its documented order (blocks, warps and
// lanes ascending, each atomic seeing the element the one before left), what depends on that
// order listed, and what the launch leaves in the buffers. Figures worked out by hand in the
// comments; the float sum against a plain loop over the inputs written here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kernels/probe_source.hpp"
#include "sim/support/errors.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/source_dir.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

class Atomics : public SnippetTest {
 protected:
  Atomics() : SnippetTest("warpdiv_atomics_") {}

  // grid x block threads; every pointer parameter a buffer of `elements` zeros unless `data` has
  // its bytes.
  static ir::Launch launch(const ir::Kernel& k, std::uint32_t grid, std::uint32_t block,
                           std::uint64_t elements,
                           const std::vector<std::pair<std::string, std::string>>& data = {}) {
    ir::Launch l;
    l.grid = ir::Dim3{grid, 1, 1};
    l.block = ir::Dim3{block, 1, 1};
    l.arguments.assign(k.parameters.size(), ir::Value{});
    l.buffer_bytes.assign(k.parameters.size(), 0);
    l.buffer_data.assign(k.parameters.size(), nullptr);
    for (std::size_t p = 0; p < k.parameters.size(); ++p) {
      if (k.parameters[p].element_bytes == 0) continue;
      l.buffer_bytes[p] = elements * k.parameters[p].element_bytes;
      for (const auto& [name, bytes] : data)
        if (name == k.parameters[p].name) {
          l.buffer_bytes[p] = bytes.size();
          l.buffer_data[p] = std::make_shared<const std::string>(bytes);
        }
    }
    return l;
  }
  static ir::ReplayResult run(const ir::Kernel& k, const ir::Launch& l, std::uint64_t budget = 0) {
    ir::ReplayOptions o;
    o.capture_stores = true;
    if (budget != 0) o.max_evaluations = budget;
    return ir::replay(k, l, o);
  }
  static std::string error(const ir::Kernel& k, const ir::Launch& l, std::uint64_t budget = 0) {
    try {
      run(k, l, budget);
    } catch (const InvalidInput& e) {
      return e.what();
    }
    return "";
  }
  static std::vector<std::string> order(const ir::Kernel& k, const ir::Launch& l, const ir::ReplayResult& r) {
    std::vector<std::string> lines;
    for (const ir::OrderDependence& o : ir::order_dependence(k, l, r)) lines.push_back(o.message);
    return lines;
  }
  template <typename T>
  static T element(const ir::ReplayResult& r, std::size_t parameter, std::size_t i) {
    T v{};
    std::memcpy(&v, r.stored[parameter].bytes.data() + sizeof(T) * i, sizeof(T));
    return v;
  }
  static int state(const ir::ReplayResult& r, std::size_t parameter, std::size_t byte) {
    return r.stored[parameter].state.at(byte);
  }
  // A branch's warp evaluations, active and taken lanes, divergent evaluations.
  static void expect_counts(const ir::StatementCounts& c, std::uint64_t evaluations, std::uint64_t active,
                            std::uint64_t taken, std::uint64_t divergent) {
    EXPECT_EQ(c.warp_evaluations, evaluations);
    EXPECT_EQ(c.active_lanes, active);
    EXPECT_EQ(c.taken_lanes, taken);
    EXPECT_EQ(c.divergent, divergent);
  }
};

// The front-end gives each atomic its operation and operands (a CAS its compared value), and
// links the returned value to the access; floating add and exch keep their element's type.
TEST_F(Atomics, TheFrontEndLowersEachAtomicWithItsOperands) {
  const ir::Kernel k = load(R"(
__global__ void k(int* i, unsigned* u, unsigned long long* w, unsigned short* h, float* f, double* d) {
  int t = threadIdx.x;
  int a = atomicExch(&i[t], t);
  int b = atomicCAS(&i[t], a, t + 1);
  unsigned c = atomicInc(&u[t], 7u);
  unsigned e = atomicDec_block(&u[t], 7u);
  unsigned long long g = atomicCAS_system(&w[t], 1ull, 2ull);
  unsigned short s = atomicCAS(&h[t], (unsigned short)1, (unsigned short)2);
  float x = atomicAdd(&f[t], 0.5f);
  double y = atomicAdd(&d[t], 0.25);
  float z = atomicExch(&f[t], x);
  if (a + b + (int)c + (int)e + (int)g + s > 0 && x + z < 1.0f && y < 1.0) i[t] = 0;
}
)");
  std::vector<std::pair<ir::AtomicOp, ir::ScalarType>> seen;
  for (const ir::MemoryAccess& a : k.accesses) {
    if (a.kind != ir::AccessKind::Atomic) continue;
    ASSERT_NE(a.value, ir::kNone) << a.text;
    EXPECT_EQ(a.compare != ir::kNone, a.atomic == ir::AtomicOp::Cas) << a.text;
    seen.emplace_back(a.atomic, k.exprs[static_cast<std::size_t>(a.value)].type);
  }
  using Op = ir::AtomicOp;
  using T = ir::ScalarType;
  const std::vector<std::pair<Op, T>> want = {{Op::Exch, T::I32}, {Op::Cas, T::I32}, {Op::Inc, T::U32},
                                              {Op::Dec, T::U32},  {Op::Cas, T::U64}, {Op::Cas, T::U16},
                                              {Op::Add, T::F32},  {Op::Add, T::F64}, {Op::Exch, T::F32}};
  EXPECT_EQ(seen, want);
  // Every returned value is linked to its atomic: with the buffers' values, the branch is counted.
  const ir::Launch l = launch(k, 1, 32, 32);
  EXPECT_NO_THROW(run(k, l));
}

// 64 threads in 2 blocks of 32 exchange their index into x[0] (0 before): in the replay's order
// thread t finds t - 1 (thread 0 finds the 0 the buffer held).
//   if (old > 40): t - 1 > 40 for t = 42 .. 63: block 0 none (not divergent), block 1 22 of 32
//   (divergent): 2 evaluations, 64 active, 22 taken, 1 divergent.
//   if (old == t - 1): every thread but 0: block 0 31 of 32 (divergent), block 1 all: 63 taken.
// Both branches depend on the order (another thread's exchange decides what each finds).
TEST_F(Atomics, ExchangeSeesThePreviousThreadsIndexByHand) {
  const ir::Kernel k = load(R"(__global__ void k(int* x, int* out) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  int old = atomicExch(&x[0], t);
  if (old > 40)
    out[t] = 1;
  if (old == t - 1)
    out[t] = 2;
}
)");
  const ir::Launch l = launch(k, 2, 32, 64);
  const ir::ReplayResult r = run(k, l);
  expect_counts(r.statements[statement_at(k, 4, ir::StmtKind::If)], 2, 64, 22, 1);
  expect_counts(r.statements[statement_at(k, 6, ir::StmtKind::If)], 2, 64, 63, 1);
  const std::vector<std::string> lines = order(k, l, r);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(
      lines[0].find("k.cu:4:3: the condition of this if depends on atomicExch(&x[0], t) (atomic result) ("),
      std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("k.cu:3:13), a value other threads change"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("k.cu:6:3: the condition of this if"), std::string::npos) << lines[1];
}

// A lock-free increment: do { old = *p; } while (atomicCAS(p, old, old + 1) != old);
// In lock step one warp's lanes all read the same old, then the CAS runs lane by lane: the lowest
// lane still in the loop wins, the others find old + 1 and go round again. A warp of 32 lanes
// takes 32 iterations, with 32, 31, ..., 1 lanes: the do's condition is evaluated 32 times per
// warp, divergent in the first 31 (one lane leaves, the rest stay), not the last (its one lane
// leaves); 2 warps: 64 evaluations, 62 divergent, active lanes 2 x (32 + 31 + ... + 1) = 1,056.
// *p ends at 64 (every thread added one), but the loop's branch depends on the order, so what
// the launch leaves is not claimed.
TEST_F(Atomics, ALockFreeIncrementByHand) {
  const ir::Kernel k = load(R"(__global__ void k(int* p) {
  int old;
  do {
    old = *p;
  } while (atomicCAS(p, old, old + 1) != old);
}
)");
  const ir::Launch l = launch(k, 1, 64, 1);
  const ir::ReplayResult r = run(k, l);
  // (taken: the lanes that stay, 1,056 - 64 leaving)
  expect_counts(r.statements[statement_at(k, 3, ir::StmtKind::Loop)], 64, 1056, 992, 62);
  const std::vector<std::string> lines = order(k, l, r);
  ASSERT_GE(lines.size(), 1u);
  EXPECT_NE(lines[0].find("the condition of this do depends on atomicCAS(p, old, old + 1) (atomic result)"),
            std::string::npos)
      << lines[0];
  EXPECT_EQ(state(r, 0, 0), ir::StoredBuffer::kUnknown);
}

// A spin lock never ends in lock step: lane 0 takes the lock and waits at the loop's exit for
// lanes 1-31, whose CAS finds 1 every time; nothing changes, so the warp is back in a state it
// had. Exit 2 naming the loop, well before the budget.
TEST_F(Atomics, ASpinLockIsNamedAsALoopThatNeverEnds) {
  frontend::FrontendOptions o;
  o.file = std::string(WARPDIV_SOURCE_DIR) + "/tests/kernels/atomics/spin_lock.cu";
  const ir::Kernel k = frontend::load_kernel(o);
  const std::string e = error(k, launch(k, 1, 32, 1));
  EXPECT_NE(
      e.find("spin_lock.cu:5:3: the while loop never ends: warp 0 (lanes 1-31) is back in the state it had"),
      std::string::npos)
      << e;
}

// A loop whose progress is only in memory is not mistaken for one that never ends: one thread's
// atomicAdd returns 0, 1, ..., 10000; the condition holds for 0 .. 9999, so it is evaluated
// 10,001 times (well past the repeat watch's start at 4,096 heads, with no local changing), and
// c ends at 10,001 (one thread: its own order). A loop that changes memory without end stops at
// the budget, naming the loop.
TEST_F(Atomics, ALoopThatProgressesInMemoryRunsToItsEndOrTheBudget) {
  const ir::Kernel k = load(R"(__global__ void k(unsigned* c, unsigned* d) {
  while (atomicAdd(&c[0], 1u) < 10000u) {
  }
  if (threadIdx.x == 1)
    while (atomicAdd(&d[0], 1u) != 0xFFFFFFFFu) {
    }
}
)");
  const ir::Launch l = launch(k, 1, 1, 1);
  const ir::ReplayResult r = run(k, l);
  EXPECT_EQ(r.statements[statement_at(k, 2, ir::StmtKind::Loop)].warp_evaluations, 10001u);
  EXPECT_EQ(state(r, 0, 0), ir::StoredBuffer::kWritten);
  EXPECT_EQ(element<std::uint32_t>(r, 0, 0), 10001u);
  const std::string e = error(k, launch(k, 1, 2, 1), 1000000);
  EXPECT_NE(e.find("k.cu:5:5"), std::string::npos) << e;
  EXPECT_NE(e.find("while"), std::string::npos) << e;
}

// binary32 with subnormals flushed, as atomicAdd on global memory makes them (written here, from
// the PTX ISA's words, not from the model's code).
float flushed(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

std::string bytes_of(const std::vector<float>& v) {
  std::string s(v.size() * 4, '\0');
  std::memcpy(&s[0], v.data(), s.size());
  return s;
}

// 64 threads (2 blocks of 32) add in[t] into sum[0] and into their own mine[t]: in[t] = 1 but
// in[5], a subnormal that atomicAdd on global memory flushes, in[62] = 1e8 and in[63] = -1e8.
// Threads ascending: 61 ones make 61; 61 + 1e8 = 100000061 rounds to 100000064 (binary32 steps
// by 8 there: 61 is 5 above 100000056 and 3 below 100000064); minus 1e8 leaves 64. Descending:
// -1e8 + 1e8 = 0, then the ones: 61. sum[0]: several threads, an order-dependent result
// (kOrdered) whose bytes are the sum in the replay's order, threads ascending (also the loop
// below). mine[t]: one thread each, 0 + in[t] exact (mine[5] = +0, flushed): known.
TEST_F(Atomics, FloatAddInTheReplaysOrderAndFlushed) {
  const ir::Kernel k = load(R"(__global__ void k(const float* in, float* sum, float* mine) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  atomicAdd(&sum[0], in[t]);
  atomicAdd(&mine[t], in[t]);
}
)");
  std::vector<float> in(64, 1.0f);
  in[62] = 1.0e8f;
  in[63] = -1.0e8f;
  std::uint32_t subnormal = 5;
  std::memcpy(&in[5], &subnormal, 4);
  float ascending = 0.0f, descending = 0.0f;
  for (int t = 0; t < 64; ++t)
    ascending = flushed(flushed(ascending) + flushed(in[static_cast<std::size_t>(t)]));
  for (int t = 63; t >= 0; --t)
    descending = flushed(flushed(descending) + flushed(in[static_cast<std::size_t>(t)]));
  ASSERT_EQ(ascending, 64.0f);
  ASSERT_EQ(descending, 61.0f);
  const ir::Launch l = launch(k, 2, 32, 64, {{"in", bytes_of(in)}});
  const ir::ReplayResult r = run(k, l);
  EXPECT_EQ(state(r, 1, 0), ir::StoredBuffer::kOrdered);
  EXPECT_EQ(element<float>(r, 1, 0), ascending);
  for (std::size_t t = 0; t < 64; ++t) {
    EXPECT_EQ(state(r, 2, 4 * t), ir::StoredBuffer::kWritten) << t;
    const float want = t == 5 ? 0.0f : in[t];
    EXPECT_EQ(element<float>(r, 2, t), want) << t;
  }
  EXPECT_FALSE(std::signbit(element<float>(r, 2, 5)));
  EXPECT_TRUE(order(k, l, r).empty());  // nothing reads the sums back
}

// atomicInc and atomicDec wrap as PTX defines them; one thread per element: exact. With limit 2,
// three increments of 0 give 1, 2, 0 (returned 0, 1, 2); three decrements of 0 give 2, 1, 0.
TEST_F(Atomics, IncAndDecWrapByHand) {
  const ir::Kernel k = load(R"(__global__ void k(unsigned* u, unsigned* got) {
  unsigned t = threadIdx.x;
  got[3 * t] = atomicInc(&u[2 * t], 2u);
  got[3 * t + 1] = atomicInc(&u[2 * t], 2u);
  got[3 * t + 2] = atomicInc(&u[2 * t], 2u);
  atomicDec(&u[2 * t + 1], 2u);
  atomicDec(&u[2 * t + 1], 2u);
  atomicDec(&u[2 * t + 1], 2u);
}
)");
  const ir::Launch l = launch(k, 1, 4, 12);
  const ir::ReplayResult r = run(k, l);
  for (std::size_t t = 0; t < 4; ++t) {
    EXPECT_EQ(element<std::uint32_t>(r, 0, 2 * t), 0u) << t;      // 0 -> 1 -> 2 -> 0
    EXPECT_EQ(element<std::uint32_t>(r, 0, 2 * t + 1), 0u) << t;  // 0 -> 2 -> 1 -> 0
    EXPECT_EQ(state(r, 0, 8 * t), ir::StoredBuffer::kWritten);
    EXPECT_EQ(element<std::uint32_t>(r, 1, 3 * t), 0u);
    EXPECT_EQ(element<std::uint32_t>(r, 1, 3 * t + 1), 1u);
    EXPECT_EQ(element<std::uint32_t>(r, 1, 3 * t + 2), 2u);
  }
}

// Shared memory: 64 threads add 1 to one element between barriers. With integers the sum after
// the barrier does not depend on the order (64), and the branch on it is not order-dependent; with
// floats it does (rounding), so the branch on it is listed. An exchange by one thread per element
// is exact.
TEST_F(Atomics, SharedAtomicsAfterTheBarrier) {
  const std::string source = R"(__global__ void k(int* out) {
  __shared__ TYPE s;
  __shared__ int e[64];
  int t = threadIdx.x;
  if (t == 0) s = 0;
  e[t] = 0;
  __syncthreads();
  atomicAdd(&s, (TYPE)1);
  atomicExch(&e[t], t);
  __syncthreads();
  if (s > (TYPE)63)
    out[t] = 1;
  if (e[63 - t] == 63 - t)
    out[t] = 2;
}
)";
  for (const std::string type : {"int", "float"}) {
    std::string text = source;
    for (std::size_t at = text.find("TYPE"); at != std::string::npos; at = text.find("TYPE"))
      text.replace(at, 4, type);
    const ir::Kernel k = load(text);
    const ir::Launch l = launch(k, 1, 64, 64);
    const ir::ReplayResult r = run(k, l);
    // s = 64 in the replay's order either way (64 additions of 1 are exact in float): taken by all.
    EXPECT_EQ(r.statements[statement_at(k, 11, ir::StmtKind::If)].taken_lanes, 64u) << type;
    EXPECT_EQ(r.statements[statement_at(k, 13, ir::StmtKind::If)].taken_lanes, 64u) << type;
    const std::vector<std::string> lines = order(k, l, r);
    if (type == "int") {
      EXPECT_TRUE(lines.empty()) << lines.front();
    } else {
      ASSERT_EQ(lines.size(), 1u);
      EXPECT_NE(lines[0].find("k.cu:11:3: the condition of this if depends on s (floating point)"),
                std::string::npos)
          << lines[0];
    }
  }
}

// The GPU probe makes the same atomics on its own copies of followed buffers (the CUDA calls
// below), and refuses a branch on an atomic's returned value, naming it, before anything runs.
TEST_F(Atomics, TheProbeMakesTheSameAtomicsOrRefuses) {
  const ir::Kernel k = load(R"(__global__ void k(int* x, float* f, unsigned* u, int* out) {
  int t = threadIdx.x;
  atomicCAS(&x[t], t, t + 1);
  atomicExch(&x[t + 32], t);
  atomicAdd(&f[t], 0.5f);
  atomicInc(&u[t], 3u);
  if (x[t] > 0 && f[t] > 0.0f && u[t] > 0u)
    out[t] = 1;
}
)");
  const std::vector<std::uint64_t> bytes = {256, 128, 128, 128};
  const std::string probe = kernels::probe_source(k, bytes, 0);
  EXPECT_NE(probe.find("atomicCAS((unsigned int*)(p0 + (wd_u64)at), (unsigned int)("), std::string::npos)
      << probe;
  EXPECT_NE(probe.find("atomicExch((unsigned int*)(p0 + (wd_u64)at), (unsigned int)("), std::string::npos);
  EXPECT_NE(probe.find("atomicAdd((float*)(p1 + (wd_u64)at), (float)("), std::string::npos);
  EXPECT_NE(probe.find("atomicInc((unsigned int*)(p2 + (wd_u64)at), (unsigned int)("), std::string::npos);

  frontend::FrontendOptions o;
  o.file = std::string(WARPDIV_SOURCE_DIR) + "/tests/kernels/atomics/cas_flag.cu";
  const ir::Kernel flag = frontend::load_kernel(o);
  try {
    kernels::check_probe_supports(flag, {4, 4});
    ADD_FAILURE() << "a branch on atomicCAS's result must be refused";
  } catch (const InvalidInput& e) {
    EXPECT_NE(
        std::string(e.what()).find("cas_flag.cu:7:3: the GPU probe cannot check this if yet: its condition "
                                   "depends on atomicCAS(flag, 0, 1) (atomic result)"),
        std::string::npos)
        << e.what();
  }
}

// tests/kernels/atomics/per_thread.cu, the kernel the GPU ran (data/validation/atomics/): what it
// leaves in each buffer, by hand. Thread i < n, on zeroed buffers: fsum[i] = (0 + flush(tiny)) +
// 1.5 = 1.5 and ftiny[i] = 0 + flush(tiny) = +0 (a float atomicAdd on global memory flushes a
// subnormal operand), stiny[i] = tiny (on shared memory it is kept), tiny = (float)(i % 7) *
// 1e-40f rounded once (the host's float multiply here, which keeps subnormals); swapped[i] = 0
// (cas[i] before the exch); cas[i] = 3i, then the CAS that finds 3i stores i + 1 and the one
// looking for 0 finds i + 1 and leaves it; ctr[i]: inc with bound 2 goes 1, 2, then wraps to 0,
// and dec with bound 5 from 0 gives 5. last and total take every thread's atomic: their order
// decides them (last = 999 in the replay's order: blocks, warps, lanes ascending).
TEST_F(Atomics, ThePerThreadKernelLeavesTheHandWorkedOutputs) {
  frontend::FrontendOptions o;
  o.file = std::string(WARPDIV_SOURCE_DIR) + "/tests/kernels/atomics/per_thread.cu";
  const ir::Kernel k = frontend::load_kernel(o);
  ir::Launch l = launch(k, 8, 128, 1000);
  l.arguments[8] = ir::Value::of(ir::ScalarType::I32, 1000);
  const ir::ReplayResult r = run(k, l);
  for (std::size_t i = 0; i < 1000; ++i) {
    const float tiny = static_cast<float>(i % 7) * 1.0e-40f;
    ASSERT_EQ(i % 7 != 0, std::fpclassify(tiny) == FP_SUBNORMAL);
    EXPECT_EQ(element<float>(r, 0, i), 1.5f) << i;
    const float flushed = element<float>(r, 1, i);
    EXPECT_EQ(flushed, 0.0f) << i;
    EXPECT_FALSE(std::signbit(flushed)) << i;
    EXPECT_EQ(element<float>(r, 2, i), tiny) << i;
    EXPECT_EQ(element<std::int32_t>(r, 3, i), 0) << i;
    EXPECT_EQ(element<std::int32_t>(r, 4, i), static_cast<std::int32_t>(i) + 1) << i;
    EXPECT_EQ(element<std::uint32_t>(r, 5, i), 5u) << i;
    for (std::size_t parameter = 0; parameter < 6; ++parameter)
      ASSERT_EQ(state(r, parameter, 4 * i), ir::StoredBuffer::kWritten) << parameter << " " << i;
  }
  EXPECT_EQ(element<std::int32_t>(r, 6, 0), 999);
  EXPECT_EQ(state(r, 6, 0), ir::StoredBuffer::kOrdered);
  EXPECT_EQ(state(r, 7, 0), ir::StoredBuffer::kOrdered);
}

}  // namespace
}  // namespace warpdiv::testing
