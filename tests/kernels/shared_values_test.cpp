// Shared memory followed by value: the replay keeps each block's __shared__ arrays,
// runs its warps phase by phase between barriers, and reports reads of memory never written and
// races between warps. Figures worked out by hand in the comments; the reduction's sums also
// against the class engine's counts of the same launch without values.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/npy.hpp"
#include "kernels/probe.hpp"
#include "kernels/probe_source.hpp"
#include "sim/support/errors.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/source_dir.hpp"
#include "tests/kernels/zoo_launches.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

class SharedValues : public SnippetTest {
 protected:
  SharedValues() : SnippetTest("warpdiv_shared_values_") {}

  static ir::Launch launch(const ir::Kernel& k, std::uint32_t threads, std::uint32_t blocks = 1) {
    ir::Launch l;
    l.grid = ir::Dim3{blocks, 1, 1};
    l.block = ir::Dim3{threads, 1, 1};
    l.arguments.assign(k.parameters.size(), ir::Value{});
    return l;
  }
  static ir::ReplayResult run(const ir::Kernel& k, const ir::Launch& l, unsigned threads = 0) {
    ir::ReplayOptions o;
    o.capture_stores = true;
    o.threads = threads;
    return ir::replay(k, l, o);
  }
  // The message the replay stops with ("" when it does not), paths relative to the folder.
  std::string error(const ir::Kernel& k, const ir::Launch& l) const {
    std::string text;
    try {
      run(k, l);
    } catch (const InvalidInput& e) {
      text = e.what();
    }
    const std::string folder = dir_.string() + "/";
    for (std::size_t at = text.find(folder); at != std::string::npos; at = text.find(folder))
      text.erase(at, folder.size());
    return text;
  }
  static std::int32_t word(const ir::ReplayResult& r, std::size_t parameter, std::size_t element) {
    std::int32_t v = 0;
    std::memcpy(&v, r.stored[parameter].bytes.data() + 4 * element, 4);
    return v;
  }
  static bool written(const ir::ReplayResult& r, std::size_t parameter, std::size_t element) {
    const ir::StoredBuffer& b = r.stored[parameter];
    return 4 * element + 3 < b.state.size() && b.state[4 * element] == ir::StoredBuffer::kWritten;
  }
};

// The probe's source compiles with NVRTC (for an H100) where NVRTC is installed; else nothing to
// check here (the run itself is on a GPU: tools/device-validate-shared).
void expect_compiles(const std::string& source) {
  try {
    const std::vector<char> cubin = kernels::compile_probe(source, "sm_90");
    EXPECT_EQ(std::string(cubin.data() + 1, 3), "ELF");
  } catch (const NoDevice&) {
  }
}

constexpr const char* kMirror = R"(__global__ void mirror(int* out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = (t * 7) % 5;
  __syncthreads();
  if (s[255 - t] < 2) {
    out[blockIdx.x * 256 + t] = s[255 - t];
  }
}
)";

// Each thread reads the element the mirror thread stored before the barrier, in another warp.
// With u = 255 - t, s[u] = 7u mod 5 = 2u mod 5, below 2 exactly when u mod 5 is 0 or 3: 52 + 51
// = 103 of the 256 values of u in each block; every warp's 32 consecutive u meet all residues,
// so each of the 8 warps of both blocks diverges.
TEST_F(SharedValues, ABranchOnAnotherWarpsStoreByHand) {
  const ir::Kernel k = load(kMirror);
  const ir::Launch l = launch(k, 256, 2);
  // No value in the model comes from outside: the class engine leaves it to the replay.
  const ir::ClassPlan plan = ir::plan_classes(k, l);
  ASSERT_TRUE(plan.refusal.has_value());
  EXPECT_NE(plan.refusal->reason.find("a value in shared memory, which the replay follows"),
            std::string::npos)
      << plan.refusal->message();
  for (const unsigned threads : {1u, 2u}) {
    const ir::ReplayResult r = run(k, l, threads);
    const ir::StatementCounts& c = r.statements[statement_at(k, 6, ir::StmtKind::If)];
    EXPECT_EQ(c.warp_evaluations, 16u);
    EXPECT_EQ(c.divergent, 16u);
    EXPECT_EQ(c.active_lanes, 512u);
    EXPECT_EQ(c.taken_lanes, 206u);
    ASSERT_TRUE(r.stores_not_captured.empty()) << r.stores_not_captured;
    // t = 255: u = 0, s[0] = 0; t = 252: u = 3, s[3] = 21 mod 5 = 1; t = 254: u = 1, s[1] = 2 (not
    // taken); block 1, t = 250: u = 5, s[5] = 0.
    EXPECT_TRUE(written(r, 0, 255));
    EXPECT_EQ(word(r, 0, 255), 0);
    EXPECT_EQ(word(r, 0, 252), 1);
    EXPECT_FALSE(written(r, 0, 254));
    EXPECT_TRUE(written(r, 0, 256 + 250));
    EXPECT_EQ(word(r, 0, 256 + 250), 0);
  }
}

// Global memory passes values between warps of a block across __syncthreads() too: the replay
// runs a block's warps up to each barrier in turn, as the GPU must. After the barrier buf[63 - t]
// holds 63 - t, below 10 for t = 54 .. 63: warp 1's lanes 22 .. 31 (10 lanes, it diverges), none
// of warp 0's. (Warp after warp through the whole kernel, warp 0 would read the zeros of the
// buffer before warp 1 wrote them: 42 lanes.)
TEST_F(SharedValues, GlobalMemoryPassesValuesAcrossABarrierInItsOrder) {
  const ir::Kernel k = load(R"(__global__ void mirror(int* buf, int* out) {
  int t = threadIdx.x;
  buf[t] = t;
  __syncthreads();
  if (buf[63 - t] < 10) out[t] = 1;
}
)");
  ir::Launch l = launch(k, 64);
  l.buffer_bytes = {256, 256};
  const ir::ReplayResult r = run(k, l);
  const ir::StatementCounts& c = r.statements[statement_at(k, 5, ir::StmtKind::If)];
  EXPECT_EQ(c.warp_evaluations, 2u);
  EXPECT_EQ(c.divergent, 1u);
  EXPECT_EQ(c.taken_lanes, 10u);
}

// A statement that reads and writes the same elements is checked and placed from what they held
// before it: s[t] <<= 20 shifts t + 1 (at most 64 << 20 = 67,108,864, no overflow; shifting the
// new value again would overflow), s[t] * 40,000 is at most 64 x 40,000; s[s[t]] = 1,000 writes
// element s[t] = t (not element 1,000) and s[t] = tab[s[t]] reads tab[t] (not tab[1,000 + t]).
// Then u[t] = (t + 1) << 20 passes 32 << 20 for t >= 32, v[t] = 41,001 (t + 1) passes
// 41,001 x 32 for t >= 32, w[t] = 1,000 and x[t] = tab[t] = 2t: 32 of the 64 lanes each.
TEST_F(SharedValues, AStatementReadsWhatItsElementsHeldBeforeItsStores) {
  const ir::Kernel k = load(R"(__global__ void k(int* o) {
  __shared__ int u[64], v[64], w[64], x[64], tab[64];
  int t = threadIdx.x;
  u[t] = t + 1; v[t] = t + 1; w[t] = t; x[t] = t; tab[t] = 2 * t;
  __syncthreads();
  u[t] <<= 20;
  atomicAdd(&v[t], v[t] * 41000);
  w[w[t]] = 1000;
  x[t] = tab[x[t]];
  __syncthreads();
  int n = 0;
  if (u[t] > (32 << 20)) n++;
  if (v[t] > 41001 * 32) n++;
  if (w[t] == 1000 && t >= 32) n++;
  if (x[t] == 2 * t && t < 32) n++;
  o[t] = n;
}
)");
  const ir::ReplayResult r = run(k, launch(k, 64));
  // Every access placed inside its array (w[w[t]] placed after its store would be w[1000]).
  for (std::size_t a = 0; a < r.access_faults.size(); ++a) EXPECT_EQ(r.access_faults[a], "") << a;
  for (const int line : {12, 13, 14, 15}) {
    SCOPED_TRACE(line);
    const ir::StatementCounts& c = r.statements[statement_at(k, line, ir::StmtKind::If)];
    EXPECT_EQ(c.warp_evaluations, 2u);
    EXPECT_EQ(c.taken_lanes, 32u);
  }
}

// The lecture's contiguous reduction on 2,048 floats i / 2: block b sums elements 512b .. 512b +
// 511, 0.5 x (512 x 512b + 511 x 512 / 2) = 131,072 b + 65,408, every partial sum a multiple of
// 0.5 below 2^23 (exact in float in any order). The tree's `partialSum[t] += partialSum[t+stride]`
// reads what other warps stored a phase before. Its statement counts are the class engine's for
// the same launch without values.
TEST_F(SharedValues, TheReductionsSumsByHandAndItsCountsAgainstTheClassEngine) {
  const ir::Kernel k = ir::zoo::load("reduction_contiguous.cu");
  ir::Launch bare = launch(k, 256, 4);
  const ir::ClassPlan plan = ir::plan_classes(k, bare);
  ASSERT_FALSE(plan.refusal.has_value()) << plan.refusal->message();
  const ir::ClassReplayResult classes = ir::class_replay(k, bare, plan);

  ir::Launch l = bare;
  std::string input(2048 * 4, '\0');
  for (int i = 0; i < 2048; ++i) {
    const float v = 0.5f * static_cast<float>(i);
    std::memcpy(&input[static_cast<std::size_t>(4 * i)], &v, 4);
  }
  l.buffer_bytes = {2048 * 4, 4 * 4};
  l.buffer_data = {std::make_shared<const std::string>(input), nullptr};
  EXPECT_TRUE(ir::plan_classes(k, l).refusal.has_value());
  const ir::ReplayResult r = run(k, l);
  ASSERT_TRUE(r.stores_not_captured.empty()) << r.stores_not_captured;
  for (int b = 0; b < 4; ++b) {
    float sum = 0;
    ASSERT_TRUE(written(r, 1, static_cast<std::size_t>(b)));
    std::memcpy(&sum, r.stored[1].bytes.data() + 4 * b, 4);
    EXPECT_EQ(sum, 131072.0f * static_cast<float>(b) + 65408.0f) << "block " << b;
  }
  ASSERT_EQ(r.statements.size(), classes.statements.size());
  for (std::size_t s = 0; s < r.statements.size(); ++s)
    EXPECT_TRUE(r.statements[s] == classes.statements[s]) << "statement " << s;
}

// Warps 0 .. 3 read elements that warps 7 .. 4 store in the same phase (no barrier): in the
// replay's order warp 4 is the first to read an element already stored, s[127], by warp 3.
TEST_F(SharedValues, AReadOfAnotherWarpsStoreWithoutABarrierIsARace) {
  const ir::Kernel k = load(R"(__global__ void racy(int* out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = t;
  if (s[255 - t] < 100) out[t] = 1;
}
)");
  EXPECT_EQ(
      error(k, launch(k, 256)),
      "k.cu:5:7: shared-memory race: 's[255 - t]' reads bytes 508 to 511 of 's' in warp 4, which warp 3 "
      "wrote ('s[t]' at k.cu:4:3) with no __syncthreads() between them, in block (0, 0, 0), thread (128, 0, "
      "0)");
  // Within one warp, program order holds (the model's warps run in lock step).
  EXPECT_EQ(error(k, launch(k, 32)).find("race"), std::string::npos);
}

// After the barrier warp 0 reads s[32 .. 63] and stores s[0 .. 31]; warp 1 then stores s[32 ..
// 63], which warp 0 read in the same phase: a write after another warp's read.
TEST_F(SharedValues, AStoreOverAnotherWarpsReadWithoutABarrierIsARace) {
  const ir::Kernel k = load(R"(__global__ void war(int* out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  int v = s[(t + 32) % 256];
  s[t] = v + 1;
  __syncthreads();
  if (s[t] > 100) out[t] = 1;
}
)");
  EXPECT_EQ(
      error(k, launch(k, 256)),
      "k.cu:7:3: shared-memory race: 's[t]' writes bytes 128 to 131 of 's' in warp 1, which warp 0 read "
      "('s[(t + 32) % 256]' at k.cu:6:11) with no __syncthreads() between them, in block (0, 0, 0), "
      "thread (32, 0, 0)");
}

TEST_F(SharedValues, AReadOfMemoryNoThreadWroteIsAnError) {
  const ir::Kernel k = load(R"(__global__ void unwritten(int* out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t < 200) s[t] = t;
  __syncthreads();
  if (s[t] < 100) out[t] = 1;
}
)");
  EXPECT_EQ(
      error(k, launch(k, 256)),
      "k.cu:6:7: read of shared memory never written: 's[t]' reads bytes 800 to 803 of 's', and no thread of "
      "the block writes byte 800 before it, in block (0, 0, 0), thread (200, 0, 0)");
  EXPECT_EQ(error(k, launch(k, 200)), "");
}

// Lane 0 of each of the 4 warps stores 7 into f: the same value in any order, not a race. The
// branch is uniform: 4 evaluations, none divergent, 128 lanes taken. Storing threadIdx.x instead
// (0 from warp 0, 32 from warp 1) is.
TEST_F(SharedValues, TheSameValueFromSeveralWarpsIsNotARaceADifferentOneIs) {
  const std::string same = R"(__global__ void flag(int* out) {
  __shared__ int f;
  if (threadIdx.x % 32 == 0) f = 7;
  __syncthreads();
  if (f == 7) out[threadIdx.x] = 1;
}
)";
  const ir::Kernel k = load(same);
  const ir::ReplayResult r = run(k, launch(k, 128));
  const ir::StatementCounts& c = r.statements[statement_at(k, 5, ir::StmtKind::If)];
  EXPECT_EQ(c.warp_evaluations, 4u);
  EXPECT_EQ(c.divergent, 0u);
  EXPECT_EQ(c.taken_lanes, 128u);
  std::string different = same;
  different.replace(different.find("f = 7"), 5, "f = threadIdx.x");
  const ir::Kernel d = load(different);
  EXPECT_EQ(
      error(d, launch(d, 128)),
      "k.cu:3:30: shared-memory race: 'f' writes bytes 0 to 3 of 'f' in warp 1, which warp 0 wrote ('f' at "
      "k.cu:3:30) with no __syncthreads() between them, in block (0, 0, 0), thread (32, 0, 0)");
}

// Lanes 0 .. 31 of one warp store 0 .. 31 into one word: which value stays is undefined on the
// GPU, so a branch on it is refused.
TEST_F(SharedValues, ADecisionOnAWordLanesOfOneWarpWroteDifferentlyIsRefused) {
  const ir::Kernel k = load(R"(__global__ void lanes(int* out) {
  __shared__ int f;
  if (threadIdx.x < 32) f = threadIdx.x;
  __syncthreads();
  if (f > 5) out[threadIdx.x] = 1;
}
)");
  const std::string e = error(k, launch(k, 64));
  EXPECT_NE(
      e.find("k.cu:5:7: the value 'f' reads (bytes 0 to 3 of 'f') is not known: 'f' at k.cu:3:25 stored "
             "different values there from lanes of one warp"),
      std::string::npos)
      << e;
}

// Values stored from a buffer the launch gives no values for: the branch on them is refused with
// why (the model's usual data-dependence refusal), and computed once the buffer has values.
TEST_F(SharedValues, StoresOfUnknownValuesLeaveTheArrayUnknown) {
  const ir::Kernel k = load(R"(__global__ void copy(const int* in, int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (s[63 - threadIdx.x] > 0) out[threadIdx.x] = 1;
}
)");
  ir::Launch l = launch(k, 64);
  const std::string e = error(k, l);
  EXPECT_NE(e.find("k.cu:5:3: data-dependent branch: the condition of this if depends on s[63 - threadIdx.x] "
                   "(shared memory)"),
            std::string::npos)
      << e;
  EXPECT_NE(
      e.find("the values of shared memory ('s') are not known: the value of 's[threadIdx.x]' at k.cu:3:3 "
             "depends on in[threadIdx.x] (global memory) (k.cu:3:20)"),
      std::string::npos)
      << e;
  // in[i] = i - 31: positive for i >= 32, so threads t <= 31 (reading in[63 - t]) take the branch.
  std::string in(64 * 4, '\0');
  for (int i = 0; i < 64; ++i) {
    const std::int32_t v = i - 31;
    std::memcpy(&in[static_cast<std::size_t>(4 * i)], &v, 4);
  }
  l.buffer_bytes = {64 * 4, 64 * 4};
  l.buffer_data = {std::make_shared<const std::string>(in), nullptr};
  const ir::ReplayResult r = run(k, l);
  const ir::StatementCounts& c = r.statements[statement_at(k, 5, ir::StmtKind::If)];
  EXPECT_EQ(c.warp_evaluations, 2u);
  EXPECT_EQ(c.divergent, 0u);
  EXPECT_EQ(c.taken_lanes, 32u);
}

// extern __shared__, sized by the launch: buf[u] = 2u, and 2u is a multiple of 4 for even u, so
// half of each warp takes the branch. 128 bytes are too few for 64 threads.
TEST_F(SharedValues, ExternSharedSizedByTheLaunch) {
  const ir::Kernel k = load(R"(__global__ void ext(int* out) {
  extern __shared__ int buf[];
  buf[threadIdx.x] = threadIdx.x * 2;
  __syncthreads();
  if (buf[blockDim.x - 1 - threadIdx.x] % 4 == 0) out[threadIdx.x] = 1;
}
)");
  ir::Launch l = launch(k, 64);
  l.dynamic_shared_bytes = 256;
  const ir::ReplayResult r = run(k, l);
  const ir::StatementCounts& c = r.statements[statement_at(k, 5, ir::StmtKind::If)];
  EXPECT_EQ(c.warp_evaluations, 2u);
  EXPECT_EQ(c.divergent, 2u);
  EXPECT_EQ(c.taken_lanes, 32u);
  l.dynamic_shared_bytes = 128;
  EXPECT_NE(error(k, l).find(
                "k.cu:3:3: out of bounds: 'buf[threadIdx.x]' writes element 32 of 'buf', which holds 32 "
                "elements of 4 bytes (0 to 31), in block (0, 0, 0), thread (32, 0, 0)"),
            std::string::npos)
      << error(k, l);
  // No dynamic shared memory (the launch's default): no element at all, and where its size comes from.
  l.dynamic_shared_bytes = 0;
  EXPECT_NE(
      error(k, l).find("k.cu:3:3: out of bounds: 'buf[threadIdx.x]' writes bytes 0 to 3 of 'buf', which "
                       "holds no bytes (an extern __shared__ array: the launch's dynamic shared memory, "
                       "the third <<< >>> argument, is 0 bytes; give it with --dynamic-smem BYTES), in "
                       "block (0, 0, 0), thread (0, 0, 0)"),
      std::string::npos)
      << error(k, l);
}

// ---------------------------------------------------------------------------------------------
// The block compaction (kernels/zoo/data/block_compaction.cu): a branch on a flag in shared
// memory, a scan across warps, stores at addresses from the scan.

std::string int_buffer(const std::vector<std::int32_t>& v) {
  std::string bytes(v.size() * 4, '\0');
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}

std::vector<std::int32_t> sample_ints(const std::string& file) {
  std::ifstream in(std::string(WARPDIV_SOURCE_DIR) + "/data/samples/" + file, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  const analysis::NpyArray a = analysis::parse_npy(bytes.str(), file);
  std::vector<std::int32_t> v(a.count);
  std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
}

struct Compaction {
  ir::ReplayResult result;
  ir::StatementCounts flagged;  // if (flag[t])
};

Compaction compact(const ir::Kernel& k, const std::vector<std::int32_t>& in, std::int32_t n,
                   std::int32_t threshold, std::uint32_t block) {
  const std::uint32_t grid = static_cast<std::uint32_t>((n + static_cast<std::int32_t>(block) - 1) /
                                                        static_cast<std::int32_t>(block));
  ir::Launch l;
  l.grid = ir::Dim3{grid, 1, 1};
  l.block = ir::Dim3{block, 1, 1};
  for (const ir::Parameter& p : k.parameters)
    l.arguments.push_back(!p.scalar ? ir::Value{} : ir::Value::of(p.type, p.name == "n" ? n : threshold));
  l.buffer_bytes = {in.size() * 4, std::uint64_t{grid} * block * 4, std::uint64_t{grid} * 4, 0, 0};
  l.buffer_data = {std::make_shared<const std::string>(int_buffer(in)), nullptr, nullptr, nullptr, nullptr};
  ir::ReplayOptions o;
  o.capture_stores = true;
  Compaction c;
  c.result = ir::replay(k, l, o);
  c.flagged = c.result.statements[statement_at(k, 37, ir::StmtKind::If)];
  return c;
}

std::int32_t element(const ir::ReplayResult& r, std::size_t parameter, std::size_t i) {
  std::int32_t v = 0;
  std::memcpy(&v, r.stored[parameter].bytes.data() + 4 * i, 4);
  return v;
}

// data/samples/compaction/tiny.npy holds i % 10 - 5 (i = 0 .. 39); with n = 36 and threshold 0,
// blocks of 32: block 0 flags i % 10 in 6 .. 9 of i = 0 .. 31 (12 elements: 1, 2, 3, 4 three
// times), block 1 (i = 32 .. 35: -3 .. 0) none. The flag's if: 2 evaluations, warp 0 divergent.
TEST_F(SharedValues, BlockCompactionByHand) {
  const ir::Kernel k = ir::zoo::load("data/block_compaction.cu");
  const Compaction c = compact(k, sample_ints("compaction/tiny.npy"), 36, 0, 32);
  EXPECT_EQ(c.flagged.warp_evaluations, 2u);
  EXPECT_EQ(c.flagged.divergent, 1u);
  EXPECT_EQ(c.flagged.taken_lanes, 12u);
  ASSERT_TRUE(c.result.stores_not_captured.empty()) << c.result.stores_not_captured;
  EXPECT_EQ(element(c.result, 2, 0), 12);
  EXPECT_EQ(element(c.result, 2, 1), 0);
  for (std::size_t j = 0; j < 12; ++j)
    EXPECT_EQ(element(c.result, 1, j), static_cast<std::int32_t>(j % 4 + 1)) << j;
}

// On the 5,000-element sample, against a loop written here: per block the flagged count, each
// flagged element at its rank, and how many warps see both flagged and unflagged lanes.
TEST_F(SharedValues, BlockCompactionAgainstALoopOnTheSample) {
  const ir::Kernel k = ir::zoo::load("data/block_compaction.cu");
  const std::vector<std::int32_t> in = sample_ints("compaction/in.npy");
  const std::int32_t n = 5000;
  for (const std::uint32_t block : {32u, 100u, 256u})
    for (const std::int32_t threshold : {0, 500, -1000}) {
      SCOPED_TRACE("block " + std::to_string(block) + ", threshold " + std::to_string(threshold));
      const Compaction c = compact(k, in, n, threshold, block);
      const std::uint32_t grid = static_cast<std::uint32_t>((n + static_cast<std::int32_t>(block) - 1) /
                                                            static_cast<std::int32_t>(block));
      std::uint64_t taken = 0, divergent = 0, evaluations = 0;
      for (std::uint32_t b = 0; b < grid; ++b) {
        std::int32_t rank = 0;
        for (std::uint32_t t = 0; t < block; ++t) {
          const std::int64_t i = std::int64_t{b} * block + t;
          if (i < n && in[static_cast<std::size_t>(i)] > threshold) {
            ASSERT_EQ(
                element(c.result, 1, static_cast<std::size_t>(b) * block + static_cast<std::size_t>(rank)),
                in[static_cast<std::size_t>(i)]);
            ++rank;
          }
        }
        EXPECT_EQ(element(c.result, 2, b), rank) << "block " << b;
        for (std::uint32_t w = 0; w * 32 < block; ++w) {
          int yes = 0, lanes = 0;
          for (std::uint32_t t = w * 32; t < std::min(block, w * 32 + 32); ++t, ++lanes) {
            const std::int64_t i = std::int64_t{b} * block + t;
            yes += i < n && in[static_cast<std::size_t>(i)] > threshold ? 1 : 0;
          }
          ++evaluations;
          taken += static_cast<std::uint64_t>(yes);
          divergent += yes != 0 && yes != lanes ? 1 : 0;
        }
      }
      EXPECT_EQ(c.flagged.warp_evaluations, evaluations);
      EXPECT_EQ(c.flagged.taken_lanes, taken);
      EXPECT_EQ(c.flagged.divergent, divergent);
      EXPECT_GT(divergent, 0u);
    }
}

// ---------------------------------------------------------------------------------------------
// Buffers the kernel writes, followed by value in the replay's order (blocks, warps and lanes
// ascending), and what depends on that order marked.

ir::Launch with_ints(ir::Launch l, const ir::Kernel& k,
                     const std::vector<std::vector<std::int32_t>>& buffers) {
  l.buffer_bytes.assign(k.parameters.size(), 0);
  l.buffer_data.assign(k.parameters.size(), nullptr);
  for (std::size_t p = 0; p < buffers.size() && p < k.parameters.size(); ++p) {
    l.buffer_bytes[p] = buffers[p].size() * 4;
    l.buffer_data[p] = std::make_shared<const std::string>(int_buffer(buffers[p]));
  }
  return l;
}

// Each block's thread 0 takes a ticket from done; the block with the last ticket (in the replay's
// order, block 4 of 5) takes the branch: 10 warp evaluations of the if, 64 lanes taken (block
// 4's two warps), none divergent. The branch and the ticket's value depend on the order the GPU
// runs the atomics in: marked, and the buffers' contents are then not known.
TEST_F(SharedValues, TheLastBlockByItsTicketIsOrderDependent) {
  const ir::Kernel k = load(R"(__global__ void last_block(unsigned int *done, int *winner) {
  __shared__ unsigned int ticket;
  if (threadIdx.x == 0) ticket = atomicAdd(done, 1u);
  __syncthreads();
  if (ticket == gridDim.x - 1) {
    if (threadIdx.x == 0) winner[0] = blockIdx.x;
  }
}
)");
  const ir::Launch l = with_ints(launch(k, 64, 5), k, {{0}, {-1}});
  const ir::ReplayResult r = run(k, l);
  const ir::StatementCounts& c = r.statements[statement_at(k, 5, ir::StmtKind::If)];
  EXPECT_EQ(c.warp_evaluations, 10u);
  EXPECT_EQ(c.taken_lanes, 64u);
  EXPECT_EQ(c.divergent, 0u);
  EXPECT_EQ(r.statements[statement_at(k, 6, ir::StmtKind::If)].warp_evaluations, 2u);
  const std::vector<ir::OrderDependence> order = ir::order_dependence(k, l, r);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_TRUE(order[0].condition);
  EXPECT_NE(order[0].message.find(":5:3: the condition of this if depends on ticket (shared memory)"),
            std::string::npos)
      << order[0].message;
  EXPECT_NE(order[1].message.find(
                ":3:25: the value 'ticket' stores depends on atomicAdd(done, 1u) (atomic result)"),
            std::string::npos)
      << order[1].message;
  EXPECT_FALSE(written(r, 1, 0));  // which block writes winner depends on the order
  EXPECT_THROW(kernels::check_probe_supports(k, l.buffer_bytes), InvalidInput);
  // Without done's values the branch is refused, and the hint goes down to the buffer to give.
  const std::string e = error(k, launch(k, 64, 5));
  EXPECT_NE(
      e.find("the value of 'ticket' at k.cu:3:25 depends on atomicAdd(done, 1u) (atomic result) (k.cu:3:34) "
             "(give the values of 'done' with --data done=FILE (or --alloc done=COUNT for zeros))"),
      std::string::npos)
      << e;
}

// A thread's own elements, read after it wrote them: no value passes between threads, nothing is
// order-dependent. data[i] = i, then i + 3, and the if takes i + 3 > 4: all but threads 0 and 1.
TEST_F(SharedValues, AThreadsOwnElementsAreNotOrderDependent) {
  const ir::Kernel k = load(R"(__global__ void bump(int *data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = data[i] + 3;
  if (data[i] > 4) data[i] = 0;
}
)");
  std::vector<std::int32_t> data(64);
  for (int i = 0; i < 64; ++i) data[static_cast<std::size_t>(i)] = i;
  const ir::Launch l = with_ints(launch(k, 32, 2), k, {data});
  const ir::ReplayResult r = run(k, l);
  const ir::StatementCounts& c = r.statements[statement_at(k, 4, ir::StmtKind::If)];
  EXPECT_EQ(c.warp_evaluations, 2u);
  EXPECT_EQ(c.taken_lanes, 62u);
  EXPECT_EQ(c.divergent, 1u);
  EXPECT_TRUE(r.communicating.empty());
  EXPECT_TRUE(ir::order_dependence(k, l, r).empty());
  EXPECT_EQ(word(r, 0, 0), 3);
  EXPECT_EQ(word(r, 0, 1), 4);
  EXPECT_EQ(word(r, 0, 2), 0);
  EXPECT_EQ(word(r, 0, 63), 0);
  // The probe makes the same stores on its own copy of data, so it checks the branch too.
  EXPECT_NO_THROW(kernels::check_probe_supports(k, l.buffer_bytes));
  const std::string source = kernels::probe_source(k, l.buffer_bytes);
  EXPECT_NE(source.find("wd_gstore<int>(p0, "), std::string::npos) << source;
  expect_compiles(source);
}

// Thread 0 raises a flag the others read without ordering: in the replay's order warp 0 stores it
// before either warp reads it, so all 64 lanes take the branch; on the GPU warp 1 may read first.
TEST_F(SharedValues, AFlagAnotherThreadSetsIsOrderDependent) {
  const ir::Kernel k = load(R"(__global__ void relay(int *flag, int *out) {
  int i = threadIdx.x;
  if (i == 0) flag[0] = 7;
  if (flag[0] == 7) out[i] = 1;
}
)");
  const ir::Launch l = with_ints(launch(k, 64), k, {{0}, std::vector<std::int32_t>(64, 0)});
  const ir::ReplayResult r = run(k, l);
  EXPECT_EQ(r.statements[statement_at(k, 4, ir::StmtKind::If)].taken_lanes, 64u);
  ASSERT_EQ(r.communicating.size(), 1u);
  EXPECT_EQ(k.bases[static_cast<std::size_t>(r.communicating[0])].name, "flag");
  const std::vector<ir::OrderDependence> order = ir::order_dependence(k, l, r);
  ASSERT_EQ(order.size(), 1u);
  EXPECT_NE(order[0].message.find(":4:3: the condition of this if depends on flag[0] (global memory)"),
            std::string::npos)
      << order[0].message;
  // Without the flag's values the branch is refused, with the hint.
  EXPECT_NE(error(k, launch(k, 64)).find("give the values of 'flag' with --data flag=FILE"),
            std::string::npos)
      << error(k, launch(k, 64));
}

// 32 threads of one block, flag (33 ints) and out (32 ints) zeros.
ir::Launch flag_and_out(const ir::Kernel& k) {
  ir::Launch l;
  l.grid = ir::Dim3{1, 1, 1};
  l.block = ir::Dim3{32, 1, 1};
  l.arguments.assign(k.parameters.size(), ir::Value{});
  return with_ints(l, k, {std::vector<std::int32_t>(33, 0), std::vector<std::int32_t>(32, 0)});
}

// Order dependence per access: only the loads that read a byte another thread writes
// (at any time of the launch) carry a value between threads, not every load of the buffer.
//
// 32 threads, flag 33 zeros, out 32 zeros. Thread i stores i into flag[i]; threads 0 and 1 also
// store 5 and 6 into flag[32] (lanes ascending: 6 stays). Line 5 reads only the thread's own
// element: i > 3 for i = 4 .. 31, 28 lanes, 1 divergent evaluation, and nothing another thread
// writes: not order-dependent. Line 6 reads flag[32], which threads 0 and 1 both write: 6 in the
// replay's order, so all 32 lanes take it (not divergent); on the GPU it may read 0, 5 or 6.
// Exactly one load is order-dependent, flag[32] at line 6 (the buffer-wide rule listed line 5 too).
TEST_F(SharedValues, AThreadsOwnElementBesideASharedWordIsNotOrderDependent) {
  const ir::Kernel k = load(R"(__global__ void own(int *flag, int *out) {
  int i = threadIdx.x;
  flag[i] = i;
  if (i < 2) flag[32] = i + 5;
  if (flag[i] > 3) out[i] = 1;
  if (flag[32] == 6) out[i] = 2;
}
)");
  const ir::Launch l = flag_and_out(k);
  const ir::ReplayResult r = run(k, l);
  const ir::StatementCounts& own = r.statements[statement_at(k, 5, ir::StmtKind::If)];
  EXPECT_EQ(own.warp_evaluations, 1u);
  EXPECT_EQ(own.taken_lanes, 28u);
  EXPECT_EQ(own.divergent, 1u);
  const ir::StatementCounts& shared = r.statements[statement_at(k, 6, ir::StmtKind::If)];
  EXPECT_EQ(shared.warp_evaluations, 1u);
  EXPECT_EQ(shared.taken_lanes, 32u);
  EXPECT_EQ(shared.divergent, 0u);
  ASSERT_EQ(r.communicating.size(), 1u);
  EXPECT_EQ(k.bases[static_cast<std::size_t>(r.communicating[0])].name, "flag");
  ASSERT_EQ(r.order_reads.size(), 1u);
  const ir::MemoryAccess& read = k.accesses[static_cast<std::size_t>(r.order_reads[0])];
  EXPECT_EQ(read.text, "flag[32]");
  EXPECT_EQ(read.range.line, 6u);
  const std::vector<ir::OrderDependence> order = ir::order_dependence(k, l, r);
  ASSERT_EQ(order.size(), 1u);
  EXPECT_TRUE(order[0].condition);
  EXPECT_NE(order[0].message.find(":6:3: the condition of this if depends on flag[32] (global memory)"),
            std::string::npos)
      << order[0].message;
}

// The same without the read of the shared word: flag[32] still passes between threads 0 and 1
// (flag communicates), but no load reads it, so nothing is order-dependent, and out's writes are
// known: out[i] = 1 for i = 4 .. 31 (flag[i] = i > 3), out[0 .. 3] stay 0 (not written).
TEST_F(SharedValues, ASharedWordNobodyReadsLeavesTheOwnElementsBranchExact) {
  const ir::Kernel k = load(R"(__global__ void own(int *flag, int *out) {
  int i = threadIdx.x;
  flag[i] = i;
  if (i < 2) flag[32] = i + 5;
  if (flag[i] > 3) out[i] = 1;
}
)");
  const ir::Launch l = flag_and_out(k);
  const ir::ReplayResult r = run(k, l);
  EXPECT_EQ(r.statements[statement_at(k, 5, ir::StmtKind::If)].taken_lanes, 28u);
  ASSERT_EQ(r.communicating.size(), 1u);
  EXPECT_TRUE(r.order_reads.empty());
  EXPECT_TRUE(ir::order_dependence(k, l, r).empty());
  EXPECT_FALSE(written(r, 1, 3));
  EXPECT_TRUE(written(r, 1, 4));
  EXPECT_EQ(word(r, 1, 4), 1);
  EXPECT_TRUE(written(r, 1, 31));
  EXPECT_EQ(word(r, 1, 31), 1);
  EXPECT_EQ(word(r, 0, 7), 7);  // flag[7]: thread 7's alone
}

// Thread i reads a[i + 1], which thread i + 1 writes: 64 threads (2 warps), a 65 zeros. Warp 0
// runs first, in lock step: threads 0 .. 30 read i + 1 (written just before, the same warp),
// thread 31 reads a[32] before warp 1 writes it: 0. Taken (> 10): i = 10 .. 30, 21 lanes. Warp 1:
// threads 32 .. 62 read 33 .. 63 (31 lanes taken), thread 63 reads a[64], never written: 0. 2
// evaluations, both divergent, 52 lanes. The load read bytes other threads write, whichever came
// first here: the branch is order-dependent, naming it and the load.
TEST_F(SharedValues, AReadOfTheNextThreadsElementIsOrderDependent) {
  const ir::Kernel k = load(R"(__global__ void next(int *a, int *out) {
  int i = threadIdx.x;
  a[i] = i;
  if (a[i + 1] > 10) out[i] = 1;
}
)");
  const ir::Launch l =
      with_ints(launch(k, 64), k, {std::vector<std::int32_t>(65, 0), std::vector<std::int32_t>(64, 0)});
  const ir::ReplayResult r = run(k, l);
  const ir::StatementCounts& c = r.statements[statement_at(k, 4, ir::StmtKind::If)];
  EXPECT_EQ(c.warp_evaluations, 2u);
  EXPECT_EQ(c.taken_lanes, 52u);
  EXPECT_EQ(c.divergent, 2u);
  ASSERT_EQ(r.order_reads.size(), 1u);
  EXPECT_EQ(k.accesses[static_cast<std::size_t>(r.order_reads[0])].text, "a[i + 1]");
  const std::vector<ir::OrderDependence> order = ir::order_dependence(k, l, r);
  ASSERT_EQ(order.size(), 1u);
  EXPECT_NE(order[0].message.find(":4:3: the condition of this if depends on a[i + 1] (global memory) ("),
            std::string::npos)
      << order[0].message;
  EXPECT_NE(order[0].message.find(":4:7), a value other threads change"), std::string::npos)
      << order[0].message;
  EXPECT_FALSE(written(r, 1, 20));  // an order-dependent branch decides which threads write out
}

// A thread's own element written under an order-dependent branch: which threads zero theirs
// (line 5) depends on what they read of flag[32] (0, 5 or 6 on the GPU), so the branch on the own
// element (line 6) is order-dependent too, though no other thread writes flag[i]. In the replay's
// order every thread reads 6 and zeroes its element: line 6 takes no lane.
TEST_F(SharedValues, AnOwnElementWrittenUnderAnOrderDependentBranchIsOrderDependent) {
  const ir::Kernel k = load(R"(__global__ void own(int *flag, int *out) {
  int i = threadIdx.x;
  flag[i] = i;
  if (i < 2) flag[32] = i + 5;
  if (flag[32] == 6) flag[i] = 0;
  if (flag[i] > 3) out[i] = 1;
}
)");
  const ir::Launch l = flag_and_out(k);
  const ir::ReplayResult r = run(k, l);
  EXPECT_EQ(r.statements[statement_at(k, 6, ir::StmtKind::If)].taken_lanes, 0u);
  const std::vector<ir::OrderDependence> order = ir::order_dependence(k, l, r);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_NE(order[0].message.find(":5:3: the condition of this if depends on flag[32] (global memory)"),
            std::string::npos)
      << order[0].message;
  EXPECT_NE(order[1].message.find(":6:3: the condition of this if depends on flag[i] (global memory)"),
            std::string::npos)
      << order[1].message;
}

// A return under an order-dependent branch: what runs after it varies, so every load of a buffer
// the kernel writes counts (line 6's own element too). In the replay's order flag[32] is 6 and
// every thread returns: line 6 is never evaluated.
TEST_F(SharedValues, AReturnUnderAnOrderDependentBranchMakesLaterLoadsOrderDependent) {
  const ir::Kernel k = load(R"(__global__ void own(int *flag, int *out) {
  int i = threadIdx.x;
  flag[i] = i;
  if (i < 2) flag[32] = i + 5;
  if (flag[32] == 6) return;
  if (flag[i] > 3) out[i] = 1;
}
)");
  const ir::Launch l = flag_and_out(k);
  const ir::ReplayResult r = run(k, l);
  EXPECT_EQ(r.statements[statement_at(k, 6, ir::StmtKind::If)].warp_evaluations, 0u);
  const std::vector<ir::OrderDependence> order = ir::order_dependence(k, l, r);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_NE(order[1].message.find(":6:3: the condition of this if depends on flag[i] (global memory)"),
            std::string::npos)
      << order[1].message;
}

// Collatz trajectories in place (kernels/zoo/data/collatz_inplace.cu) on the 4,096 starts of the
// sample, against a loop written here: each lane's step count c, and per warp the while's test
// at k = 0 .. max c (lanes with c >= k run it, those with c > k stay: divergent when some but not
// all stay); v ends all ones, steps holds each c; no value passes between threads.
TEST_F(SharedValues, CollatzInPlaceAgainstALoop) {
  const ir::Kernel k = ir::zoo::load("data/collatz_inplace.cu");
  std::ifstream in(std::string(WARPDIV_SOURCE_DIR) + "/data/samples/collatz/start.npy", std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  const analysis::NpyArray a = analysis::parse_npy(bytes.str(), "start.npy");
  ASSERT_EQ(a.count, 4096u);
  std::vector<std::uint32_t> start(a.count);
  std::memcpy(start.data(), a.data.data(), a.data.size());
  for (const std::uint32_t block : {128u, 96u})
    for (const std::int32_t n : {4096, 3000}) {
      SCOPED_TRACE("block " + std::to_string(block) + ", n " + std::to_string(n));
      const std::uint32_t grid = (static_cast<std::uint32_t>(n) + block - 1) / block;
      ir::Launch l = launch(k, block, grid);
      l.arguments[1] = ir::Value::of(ir::ScalarType::I32, n);
      l.buffer_bytes = {a.data.size(), 0, 4096 * 4};
      l.buffer_data = {std::make_shared<const std::string>(a.data), nullptr, nullptr};
      const ir::ReplayResult r = run(k, l);
      std::vector<std::uint32_t> steps(start.size(), 0);
      for (std::size_t i = 0; i < start.size(); ++i)
        for (std::uint64_t x = start[i]; x != 1; x = x % 2 == 0 ? x / 2 : 3 * x + 1) ++steps[i];
      std::uint64_t evaluations = 0, divergent = 0, taken = 0;
      for (std::uint32_t b = 0; b < grid; ++b)
        for (std::uint32_t w = 0; w * 32 < block; ++w) {
          std::vector<std::uint32_t> c;
          for (std::uint32_t t = w * 32; t < std::min(block, w * 32 + 32); ++t)
            if (static_cast<std::int64_t>(b) * block + t < n) c.push_back(steps[std::size_t{b} * block + t]);
          if (c.empty()) continue;
          const std::uint32_t most = *std::max_element(c.begin(), c.end());
          for (std::uint32_t s = 0; s <= most; ++s) {
            std::uint64_t running = 0, staying = 0;
            for (std::uint32_t x : c) {
              running += x >= s ? 1 : 0;
              staying += x > s ? 1 : 0;
            }
            ++evaluations;
            taken += staying;
            divergent += staying != 0 && staying != running ? 1 : 0;
          }
        }
      const ir::StatementCounts& loop = r.statements[statement_at(k, 15, ir::StmtKind::Loop)];
      EXPECT_EQ(loop.warp_evaluations, evaluations);
      EXPECT_EQ(loop.taken_lanes, taken);
      EXPECT_EQ(loop.divergent, divergent);
      EXPECT_TRUE(r.communicating.empty());
      for (std::size_t i = 0; i < static_cast<std::size_t>(n); i += 97) {
        EXPECT_EQ(word(r, 2, i), static_cast<std::int32_t>(steps[i])) << i;
        EXPECT_EQ(word(r, 0, i), 1) << i;
      }
    }
}

// ---------------------------------------------------------------------------------------------
// Local arrays: each thread's own, followed by value.

// idx starts {3, 1, 2, 0}; thread t writes t into idx[t % 4] and reads idx[(t + 1) % 4], which it
// has not changed: 1, 2, 0, 3 for t % 4 = 0, 1, 2, 3, above 1 for t % 4 = 1 and 3: 16 of 32 lanes.
TEST_F(SharedValues, ALocalArrayByHand) {
  const ir::Kernel k = load(R"(__global__ void loc(int *out) {
  int idx[4] = {3, 1, 2, 0};
  int t = threadIdx.x;
  idx[t % 4] = t;
  if (idx[(t + 1) % 4] > 1) out[t] = 1;
}
)");
  const ir::Launch l = launch(k, 32);
  const ir::ReplayResult r = run(k, l);
  const ir::StatementCounts& c = r.statements[statement_at(k, 5, ir::StmtKind::If)];
  EXPECT_EQ(c.warp_evaluations, 1u);
  EXPECT_EQ(c.divergent, 1u);
  EXPECT_EQ(c.taken_lanes, 16u);
  const std::string source = kernels::probe_source(k);
  EXPECT_NE(source.find("unsigned char wd_local[16];"), std::string::npos) << source;
  expect_compiles(source);
}

// Per-thread bins (kernels/zoo/data/local_bins.cu) on data/samples/dense/ints.npy, against a loop
// written here: each thread's counts of its 8 inputs' residues mod 4, and the search's branch
// `bins[b] > bins[best]` per warp and b (one address for every lane, each lane's own copy).
TEST_F(SharedValues, LocalBinsAgainstALoop) {
  const ir::Kernel k = ir::zoo::load("data/local_bins.cu");
  const std::vector<std::int32_t> in = sample_ints("dense/ints.npy");
  const std::int32_t n = 40000;
  for (const std::uint32_t block : {128u, 96u}) {
    SCOPED_TRACE("block " + std::to_string(block));
    const std::uint32_t threads = static_cast<std::uint32_t>(n / 8);
    const std::uint32_t grid = (threads + block - 1) / block;
    ir::Launch l = launch(k, block, grid);
    l.arguments[1] = ir::Value::of(ir::ScalarType::I32, n);
    l.buffer_bytes = {in.size() * 4, 0, std::uint64_t{threads} * 4};
    l.buffer_data = {std::make_shared<const std::string>(int_buffer(in)), nullptr, nullptr};
    const ir::ReplayResult r = run(k, l);
    std::uint64_t evaluations = 0, taken = 0, divergent = 0;
    std::vector<std::int32_t> fullest(threads);
    for (std::uint32_t first = 0; first < threads; first += 32) {  // warps that reach the search
      // (warps of a block are 32 consecutive threads, blocks too: block is a multiple of 32)
      const std::uint32_t last = std::min(threads, first + 32);
      std::vector<std::array<int, 4>> bins(last - first, std::array<int, 4>{});
      std::vector<int> best(last - first, 0);
      for (std::uint32_t t = first; t < last; ++t)
        for (int j = static_cast<int>(t) * 8; j < static_cast<int>(t) * 8 + 8; ++j)
          ++bins[t - first][static_cast<std::size_t>(in[static_cast<std::size_t>(j)] & 3)];
      for (int b = 1; b < 4; ++b) {
        std::uint64_t yes = 0;
        for (std::size_t x = 0; x < bins.size(); ++x)
          if (bins[x][static_cast<std::size_t>(b)] > bins[x][static_cast<std::size_t>(best[x])]) {
            best[x] = b;
            ++yes;
          }
        ++evaluations;
        taken += yes;
        divergent += yes != 0 && yes != bins.size() ? 1 : 0;
      }
      for (std::uint32_t t = first; t < last; ++t) fullest[t] = best[t - first];
    }
    const ir::StatementCounts& c = r.statements[statement_at(k, 19, ir::StmtKind::If)];
    EXPECT_EQ(c.warp_evaluations, evaluations);
    EXPECT_EQ(c.taken_lanes, taken);
    EXPECT_EQ(c.divergent, divergent);
    EXPECT_GT(divergent, 0u);
    for (std::size_t t = 0; t < threads; t += 37) EXPECT_EQ(word(r, 2, t), fullest[t]) << t;
  }
}

// An element no store of the thread has written (a partial initialiser list zero-fills: C++
// value-initialisation; a declared array without one is indeterminate): an error naming it.
TEST_F(SharedValues, AReadOfALocalElementNeverWrittenIsAnError) {
  const ir::Kernel zeros = load(R"(__global__ void loc(int *out) {
  int a[4] = {7};
  if (a[threadIdx.x % 4] == 0) out[threadIdx.x] = 1;
}
)");
  const ir::ReplayResult r = run(zeros, launch(zeros, 32));
  EXPECT_EQ(r.statements[statement_at(zeros, 3, ir::StmtKind::If)].taken_lanes, 24u);
  const ir::Kernel k = load(R"(__global__ void loc(int *out) {
  int a[4];
  a[0] = 1;
  if (a[threadIdx.x % 4] == 0) out[threadIdx.x] = 1;
}
)");
  EXPECT_EQ(error(k, launch(k, 32)),
            "k.cu:4:7: read of local memory never written: 'a[threadIdx.x % 4]' reads bytes 4 to 7 of 'a', "
            "which this "
            "thread has not written, in block (0, 0, 0), thread (1, 0, 0)");
}

// Arrays of structs and vector types declared without an initialiser (a trivial default
// construction) are followed as arrays of scalars are: a[t % 3].x writes element 2 of 2 in
// thread 2 (byte 16 = element 4 of the 4 floats), a[1].y (bytes 12 to 15) is read unwritten, and
// b[1].y = 2 > 1 in all 32 lanes.
TEST_F(SharedValues, ArraysOfStructsWithoutAnInitialiserAreFollowed) {
  const ir::Kernel past = load(R"(struct A { float x, y; };
__global__ void k(int *o) {
  int t = threadIdx.x;
  A a[2];
  a[t % 3].x = 1.0f;
  o[t] = (int)a[0].x;
}
)");
  EXPECT_EQ(
      error(past, launch(past, 32)),
      "k.cu:5:3: out of bounds: 'a[t % 3].x' writes element 4 of 'a', which holds 4 elements of 4 bytes "
      "(0 to 3), in block (0, 0, 0), thread (2, 0, 0)");
  const ir::Kernel unwritten = load(R"(struct A { float x, y; };
__global__ void k(int *o) {
  int t = threadIdx.x;
  A a[2];
  a[0].x = 1.0f;
  o[t] = (int)a[1].y;
}
)");
  EXPECT_EQ(error(unwritten, launch(unwritten, 32)),
            "k.cu:6:15: read of local memory never written: 'a[1].y' reads bytes 12 to 15 of 'a', which this "
            "thread has not written, in block (0, 0, 0), thread (0, 0, 0)");
  const ir::Kernel vectors = load(R"(__global__ void k(int *o) {
  float2 b[2];
  b[0].x = 1.0f; b[1].y = 2.0f;
  if (b[1].y > 1.0f) o[threadIdx.x] = 1;
}
)");
  EXPECT_EQ(
      run(vectors, launch(vectors, 32)).statements[statement_at(vectors, 4, ir::StmtKind::If)].taken_lanes,
      32u);
}

// Arrays of structs and of arrays initialised by braces are stored member by member (missing
// ones 0): a[t % 3].x in thread 2 writes past the end (byte 16 = element 4 of the 4 floats);
// a[1].x + a[0].y = 3 + 2 > 4.5 in all 32 lanes; b[1][1] + b[0][2] = 0 + 3 == 3 in all 32;
// a[1].y = t > 10 in 21 lanes (t = 11 .. 31) after `= {}`.
TEST_F(SharedValues, ArraysOfStructsInitialisedByBracesAreFollowed) {
  const ir::Kernel past = load(R"(struct A { float x, y; };
__global__ void k(int *o) {
  int t = threadIdx.x;
  A a[2] = {{1, 2}, {3, 4}};
  a[t % 3].x = 1.0f;
  o[t] = (int)a[0].x;
}
)");
  EXPECT_EQ(
      error(past, launch(past, 32)),
      "k.cu:5:3: out of bounds: 'a[t % 3].x' writes element 4 of 'a', which holds 4 elements of 4 bytes "
      "(0 to 3), in block (0, 0, 0), thread (2, 0, 0)");
  const ir::Kernel values = load(R"(struct A { float x, y; };
__global__ void k(int *o) {
  int t = threadIdx.x;
  A a[2] = {{1, 2}, {3, 4}};
  if (a[1].x + a[0].y > 4.5f) o[t] = 1;
  int b[2][3] = {{1, 2, 3}, {4}};
  if (b[1][1] + b[0][2] == 3) o[t] = 2;
  A c[2] = {};
  c[1].y = t;
  if (c[1].y > 10.0f) o[t] = 3;
}
)");
  const ir::ReplayResult r = run(values, launch(values, 32));
  EXPECT_EQ(r.statements[statement_at(values, 5, ir::StmtKind::If)].taken_lanes, 32u);
  EXPECT_EQ(r.statements[statement_at(values, 7, ir::StmtKind::If)].taken_lanes, 32u);
  EXPECT_EQ(r.statements[statement_at(values, 10, ir::StmtKind::If)].taken_lanes, 21u);
}

// ---------------------------------------------------------------------------------------------
// Atomics on shared memory.

// A histogram privatised per block: data[i] = i % 5 (40 bytes), 8 bins, blocks of 32. Block 0
// (i = 0 .. 31) counts 7, 7, 6, 6, 6 in bins 0 .. 4, block 1 (i = 32 .. 39) 1, 1, 2, 2, 2; after
// the barrier threads 0 .. 4 of each block see a non-empty bin (5 of 32 lanes: divergent) and add
// it to the global bins: 8 each. The sums do not depend on the order; no atomic's result is used.
TEST_F(SharedValues, AHistogramPrivatisedInSharedMemoryByHand) {
  const ir::Kernel k = load(R"(__global__ void hist(const unsigned char *data, int n, unsigned int *bins) {
  __shared__ unsigned int s[8];
  int t = threadIdx.x;
  if (t < 8) s[t] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) atomicAdd(&s[data[i] % 8], 1u);
  __syncthreads();
  if (t < 8 && s[t] > 0) atomicAdd(&bins[t], s[t]);
}
)");
  ir::Launch l = launch(k, 32, 2);
  l.arguments[1] = ir::Value::of(ir::ScalarType::I32, 40);
  std::string data(40, '\0');
  for (int i = 0; i < 40; ++i) data[static_cast<std::size_t>(i)] = static_cast<char>(i % 5);
  l.buffer_bytes = {40, 0, 8 * 4};
  l.buffer_data = {std::make_shared<const std::string>(data), nullptr, nullptr};
  const ir::ReplayResult r = run(k, l);
  const ir::StatementCounts& c = r.statements[statement_at(k, 9, ir::StmtKind::If)];
  EXPECT_EQ(c.warp_evaluations, 2u);
  EXPECT_EQ(c.taken_lanes, 10u);
  EXPECT_EQ(c.divergent, 2u);
  EXPECT_TRUE(ir::order_dependence(k, l, r).empty());
  for (std::size_t b = 0; b < 5; ++b) EXPECT_EQ(word(r, 2, b), 8) << "bin " << b;
  EXPECT_FALSE(written(r, 2, 5));
  EXPECT_NO_THROW(kernels::check_probe_supports(k, l.buffer_bytes));
  const std::string source = kernels::probe_source(k, l.buffer_bytes);
  EXPECT_NE(source.find("atomicAdd((unsigned int*)(wd_smem + 0 + at)"), std::string::npos) << source;
}

// Tickets from a shared counter: in the replay's order thread t draws t, so `mine < 40` holds for
// warp 0's 32 lanes and 8 of warp 1's. On the GPU the warps draw in another order: the branch and
// out[mine] are marked, and the probe cannot check the branch.
TEST_F(SharedValues, TicketsFromASharedCounterAreOrderDependent) {
  const ir::Kernel k = load(R"(__global__ void tickets(int *out) {
  __shared__ int next;
  if (threadIdx.x == 0) next = 0;
  __syncthreads();
  int mine = atomicAdd(&next, 1);
  if (mine < 40) out[mine] = threadIdx.x;
}
)");
  ir::Launch l = launch(k, 64);
  l.buffer_bytes = {64 * 4};
  l.buffer_data = {nullptr};
  const ir::ReplayResult r = run(k, l);
  const ir::StatementCounts& c = r.statements[statement_at(k, 6, ir::StmtKind::If)];
  EXPECT_EQ(c.taken_lanes, 40u);
  EXPECT_EQ(c.divergent, 1u);
  const std::vector<ir::OrderDependence> order = ir::order_dependence(k, l, r);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_NE(
      order[0].message.find(":6:3: the condition of this if depends on atomicAdd(&next, 1) (atomic result)"),
      std::string::npos)
      << order[0].message;
  EXPECT_NE(order[1].message.find("the address of 'out[mine]'"), std::string::npos) << order[1].message;
  EXPECT_FALSE(written(r, 0, 0));
  EXPECT_THROW(kernels::check_probe_supports(k, l.buffer_bytes), InvalidInput);
}

// Kirk & Hwu's privatised text histogram (kernels/zoo/data/text_histogram_shared.cu) on the
// 20,000-byte sample, against a count written here: the global bins, and per block the bins its
// shared copy leaves non-empty (the `binValue > 0` branch: one evaluation per block by lanes 0 ..
// 6, divergent where some bins stay empty).
TEST_F(SharedValues, ThePrivatisedTextHistogramAgainstACount) {
  const ir::Kernel k = ir::zoo::load("data/text_histogram_shared.cu");
  std::ifstream in(std::string(WARPDIV_SOURCE_DIR) + "/data/samples/text/sample.txt", std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  const std::string text = bytes.str();
  ASSERT_EQ(text.size(), 20000u);
  for (const std::uint32_t block : {32u, 128u, 1024u})
    for (const std::uint32_t length : {20000u, 15001u}) {
      SCOPED_TRACE("block " + std::to_string(block) + ", length " + std::to_string(length));
      const std::uint32_t grid = (length + block - 1) / block;
      ir::Launch l = launch(k, block, grid);
      l.arguments[1] = ir::Value::of(ir::ScalarType::U32, length);
      l.buffer_bytes = {text.size(), 0, 7 * 4};
      l.buffer_data = {std::make_shared<const std::string>(text), nullptr, nullptr};
      const ir::ReplayResult r = run(k, l);
      std::vector<std::int64_t> total(7, 0);
      std::uint64_t taken = 0, divergent = 0;
      for (std::uint32_t b = 0; b < grid; ++b) {
        std::vector<std::int64_t> bins(7, 0);
        for (std::uint32_t i = b * block; i < std::min(length, (b + 1) * block); ++i) {
          const int position = text[i] - 'a';
          if (position >= 0 && position < 26) ++bins[static_cast<std::size_t>(position / 4)];
        }
        int non_empty = 0;
        for (int x = 0; x < 7; ++x) {
          total[static_cast<std::size_t>(x)] += bins[static_cast<std::size_t>(x)];
          non_empty += bins[static_cast<std::size_t>(x)] > 0 ? 1 : 0;
        }
        taken += static_cast<std::uint64_t>(non_empty);
        divergent += non_empty > 0 && non_empty < 7 ? 1 : 0;
      }
      const ir::StatementCounts& c = r.statements[statement_at(k, 33, ir::StmtKind::If)];
      EXPECT_EQ(c.warp_evaluations, grid);
      EXPECT_EQ(c.taken_lanes, taken);
      EXPECT_EQ(c.divergent, divergent);
      EXPECT_TRUE(ir::order_dependence(k, l, r).empty());
      for (std::size_t x = 0; x < 7; ++x) EXPECT_EQ(word(r, 2, x), total[x]) << "bin " << x;
    }
}

// A plain read of a counter other warps update atomically in the same phase is a race.
TEST_F(SharedValues, APlainReadBesideOtherWarpsAtomicsIsARace) {
  const ir::Kernel k = load(R"(__global__ void mixed(int *out) {
  __shared__ int c;
  if (threadIdx.x == 0) c = 0;
  __syncthreads();
  atomicAdd(&c, 1);
  if (c > 100) out[threadIdx.x] = 1;
}
)");
  EXPECT_EQ(
      error(k, launch(k, 64)),
      "k.cu:5:13: shared-memory race: '&c' updates bytes 0 to 3 of 'c' in warp 1, which warp 0 read ('c' at "
      "k.cu:6:7) with no __syncthreads() between them, in block (0, 0, 0), thread (32, 0, 0)");
}

// The GPU probe keeps the same shared memory: it stores what the model stores, reads the element
// the model reads, and runs a real barrier where the kernel has one. Compiled with NVRTC where
// it is installed (the run itself is on a GPU: tools/device-validate-data).
TEST_F(SharedValues, TheProbeKeepsTheSameSharedMemory) {
  const ir::Kernel k = load(kMirror);
  const std::string source = kernels::probe_source(k);
  EXPECT_NE(source.find("__shared__ __align__(16) unsigned char wd_smem[1024];"), std::string::npos)
      << source;
  EXPECT_NE(source.find("wd_sstore<int>(wd_smem + 0, "), std::string::npos) << source;
  EXPECT_NE(source.find("wd_sload<int>(wd_smem + 0, "), std::string::npos) << source;
  std::size_t barriers = 0;
  for (std::size_t at = source.find("__syncthreads();"); at != std::string::npos;
       at = source.find("__syncthreads();", at + 1))
    ++barriers;
  EXPECT_EQ(barriers, 3u);  // the probe's start and end, and the kernel's one
  expect_compiles(source);
}

}  // namespace
}  // namespace warpdiv::testing
