// Warp functions (sim/model/ir.hpp, WarpOp) read from CUDA source and run by the replay: shuffles,
// ballot, any, all, activemask; values worked out by hand, and CUDA's undefined cases refused.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/source_dir.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

class WarpFunctions : public SnippetTest {
 protected:
  WarpFunctions() : SnippetTest("warpdiv_warp_functions_") {}

  ir::ReplayResult run(const ir::Kernel& k, std::uint32_t threads, std::uint32_t blocks = 1) {
    ir::Launch l;
    l.grid = ir::Dim3{blocks, 1, 1};
    l.block = ir::Dim3{threads, 1, 1};
    l.arguments.assign(k.parameters.size(), ir::Value{});
    ir::ReplayOptions o;
    o.capture_stores = true;
    return ir::replay(k, l, o);
  }
  static std::int32_t word(const ir::ReplayResult& r, std::size_t parameter, std::size_t element) {
    std::int32_t v = 0;
    std::memcpy(&v, r.stored[parameter].bytes.data() + 4 * element, 4);
    return v;
  }
};

// A warp's sum of threadIdx.x by __shfl_down_sync (16, 8, 4, 2, 1): lane 0 of warp 0 holds
// 0 + ... + 31 = 496, of warp 1 32 + ... + 63 = 1520. __shfl_xor_sync in groups of 8: every lane
// holds its group's sum (lane 9: 8 + ... + 15 = 92).
TEST_F(WarpFunctions, ShuffleReductionsByHand) {
  const ir::Kernel k = load(R"(
__global__ void k(int* sums, int* groups) {
  int v = threadIdx.x;
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0) sums[threadIdx.x / 32] = v;
  int g = threadIdx.x;
  for (int m = 4; m > 0; m /= 2)
    g += __shfl_xor_sync(0xffffffff, g, m, 8);
  groups[threadIdx.x] = g;
}
)");
  const ir::ReplayResult r = run(k, 64);
  EXPECT_EQ(word(r, 0, 0), 496);
  EXPECT_EQ(word(r, 0, 1), 1520);
  EXPECT_EQ(word(r, 1, 9), 92);
  EXPECT_EQ(word(r, 1, 63), 56 + 57 + 58 + 59 + 60 + 61 + 62 + 63);
}

// __ballot_sync over threadIdx.x % 3 == 0 in a warp of 32: lanes 0, 3, ..., 30 (11 lanes).
// `__popc(b) > 10` holds in every lane (not divergent); `(b >> x) & 2` holds for lanes
// 2, 5, ..., 29 (10 of 32: divergent); __any_sync(x > 30) is 1 and __all_sync(x < 31) is 0 in
// every lane; __activemask() under `x < 5` is 0x1f.
TEST_F(WarpFunctions, BallotAnyAllActiveMaskByHand) {
  const ir::Kernel k = load(R"(
__global__ void k(int* out) {
  unsigned x = threadIdx.x;
  unsigned b = __ballot_sync(0xffffffff, x % 3 == 0);
  if (__popc(b) > 10) out[0] = 1;
  if ((b >> x) & 2u) out[1] = 1;
  int any = __any_sync(0xffffffff, x > 30);
  int all = __all_sync(0xffffffff, x < 31);
  out[2 + x] = any * 2 + all;
  if (x < 5) out[40 + x] = __activemask();
}
)");
  const ir::ReplayResult r = run(k, 32);
  const ir::StatementCounts& popc = r.statements[statement_at(k, 5, ir::StmtKind::If)];
  EXPECT_EQ(sim::to_decimal(popc.divergent), "0");
  EXPECT_EQ(sim::to_decimal(popc.taken_lanes), "32");
  const ir::StatementCounts& bit = r.statements[statement_at(k, 6, ir::StmtKind::If)];
  EXPECT_EQ(sim::to_decimal(bit.divergent), "1");
  EXPECT_EQ(sim::to_decimal(bit.taken_lanes), "10");
  EXPECT_EQ(word(r, 0, 2), 2);
  EXPECT_EQ(word(r, 0, 33), 2);
  EXPECT_EQ(word(r, 0, 42), 0x1f);
}

// CUDA's undefined cases: a lane reading a lane that does not run the shuffle, and lanes of the
// mask that do not run it.
TEST_F(WarpFunctions, UndefinedCasesAreRefusedNamingTheLane) {
  const ir::Kernel reads_inactive = load(R"(
__global__ void k(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16) v = __shfl_down_sync(0x0000ffff, v, 8);
  out[threadIdx.x] = v;
}
)");
  try {
    run(reads_inactive, 32);
    FAIL() << "accepted";
  } catch (const InvalidInput& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("undefined behaviour: shfl_down reads lane 16, which does not run it"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("thread (8, 0, 0)"), std::string::npos) << m;
  }
  const ir::Kernel partial = load(R"(
__global__ void k(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16) v = __shfl_sync(0xffffffff, v, 0);
  out[threadIdx.x] = v;
}
)");
  try {
    run(partial, 32);
    FAIL() << "accepted";
  } catch (const InvalidInput& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("a lane named in the mask of shfl has not exited and does not run it"),
              std::string::npos)
        << m;
  }
}

}  // namespace
}  // namespace warpdiv::testing
