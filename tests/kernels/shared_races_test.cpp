// Races in shared arrays whose values the model does not hold, named from the addresses alone
// (sim/memory/shared_races.hpp) in the first and last block of the replay and of the class
// engine, and the note where the check's budget stopped it. Figures worked out by hand in the
// comments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/memory/shared_races.hpp"
#include "sim/support/errors.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/source_dir.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

// Shared arrays whose values the model does not hold (stored from a buffer without --data, or
// updated by atomics of such values) are followed by address in the first and last block: a
// race needs only where each access goes.

// The replay's and the class engine's error ("" when none) on `source` at `blocks` blocks of
// `threads`, paths relative to the folder; with `barrier`, a __syncthreads() first put before it.
class ByAddress : public SnippetTest {
 protected:
  ByAddress() : SnippetTest("warpdiv_shared_races_") {}

  static ir::Launch launch(const ir::Kernel& k, std::uint32_t threads, std::uint32_t blocks,
                           std::vector<ir::Value> arguments = {}) {
    ir::Launch l;
    l.grid = ir::Dim3{blocks, 1, 1};
    l.block = ir::Dim3{threads, 1, 1};
    l.arguments = std::move(arguments);
    l.arguments.resize(k.parameters.size(), ir::Value{});
    return l;
  }
  std::string both_errors(std::string source, std::uint32_t threads, std::uint32_t blocks,
                          const std::string& barrier = "") {
    if (!barrier.empty()) source.insert(source.find(barrier), "  __syncthreads();\n");
    const ir::Kernel k = load(source);
    const ir::Launch l = launch(k, threads, blocks);
    std::string replayed, classed;
    try {
      ir::replay(k, l, ir::ReplayOptions{});
    } catch (const InvalidInput& e) {
      replayed = e.what();
    }
    try {
      ir::class_replay(k, l);
    } catch (const InvalidInput& e) {
      classed = e.what();
    }
    const std::string folder = dir_.string() + "/";
    for (std::string* text : {&replayed, &classed})
      for (std::size_t at = text->find(folder); at != std::string::npos; at = text->find(folder))
        text->erase(at, folder.size());
    return replayed == classed ? replayed : "replay: " + replayed + "; classes: " + classed;
  }
};

// The tile a block loads from `in` (no values) and reads reversed with no barrier. Blocks of 64
// threads are 2 warps, run in order in one phase: warp 0 stores tile[0 .. 31] and reads tile[63
// .. 32]; then warp 1's store of tile[32 .. 63], lane 0 (thread 32) first: tile[32], bytes 128
// to 131, which thread 31 of warp 0 read. With the barrier each read comes a phase after every
// store: no race.
TEST_F(ByAddress, ARaceIsNamedFromTheAddressesWithoutTheValues) {
  const std::string racy = R"(__global__ void k(float *out, const float *in) {
  __shared__ float tile[64];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 64 + t];
  out[blockIdx.x * 64 + t] = tile[63 - t];
}
)";
  EXPECT_EQ(
      both_errors(racy, 64, 2),
      "k.cu:4:3: shared-memory race: 'tile[t]' writes bytes 128 to 131 of 'tile' in warp 1, which warp 0 "
      "read ('tile[63 - t]' at k.cu:5:30) with no __syncthreads() between them, in block (0, 0, 0), "
      "thread (32, 0, 0)");
  // One warp: program order.
  EXPECT_EQ(both_errors(racy, 32, 2), "");
  EXPECT_EQ(both_errors(racy, 64, 2, "  out["), "");
  // 2 blocks of 2 warps reach the store after the barrier.
  std::string fenced = racy;
  fenced.insert(fenced.find("  out["), "  __syncthreads();\n");
  const ir::Kernel f = load(fenced);
  const ir::ReplayResult r = ir::replay(f, launch(f, 64, 2), ir::ReplayOptions{});
  EXPECT_EQ(r.statements[statement_at(f, 6, ir::StmtKind::Work)].warp_evaluations, 4u);
}

// The tree reduction of 256 values from `in` without the barrier in its loop. After the first
// barrier warps run one after the other through the whole loop: warp 0 (threads 0 .. 31) reads
// s[t + 128], s[t + 64] and s[t + 32] (s[32 .. 63], bytes 128 to 255) and then its own; warp 1
// at stride 128 stores s[32 .. 63], lane 0 (thread 32) first: s[32], bytes 128 to 131, which warp
// 0 read. With the barrier in the loop every read comes a phase after the store it reads.
TEST_F(ByAddress, AReductionMissingItsLoopBarrierRacesWithoutTheValues) {
  const std::string racy = R"(__global__ void sum(float *out, const float *in) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
)";
  EXPECT_EQ(
      both_errors(racy, 256, 3),
      "k.cu:7:21: shared-memory race: 's[t]' writes bytes 128 to 131 of 's' in warp 1, which warp 0 read "
      "('s[t + stride]' at k.cu:7:29) with no __syncthreads() between them, in block (0, 0, 0), thread "
      "(32, 0, 0)");
  EXPECT_EQ(both_errors(racy, 256, 3, "  }\n  if (t == 0)"), "");  // the barrier ends the loop's body
}

// Atomics of several warps on one element are no race, whatever their operands; stores of values
// the model does not hold into one word from several warps may be of the same value: not named.
// A plain read of the histogram in the phase of the atomics is a race: warp 0 adds to h[0 .. 15]
// (its lanes 16 .. 31 too) and reads h[t % 16] = h[0 .. 15] after them; warp 1's atomic from
// lane 0 (thread 32) on h[0], bytes 0 to 3, comes after that read.
TEST_F(ByAddress, AtomicsAndStoresOfUnheldValuesAreNoRaceAReadBesideAtomicsIs) {
  const std::string racy = R"(__global__ void hist(int *out, const int *in) {
  __shared__ int h[16];
  __shared__ int first;
  int t = threadIdx.x;
  if (t < 16) h[t] = 0;
  if (t % 32 == 0) first = in[0];
  __syncthreads();
  atomicAdd(&h[t % 16], in[t]);
  out[t] = h[t % 16] + first;
}
)";
  EXPECT_EQ(both_errors(racy, 128, 2, "  out[t]"), "");
  EXPECT_EQ(
      both_errors(racy, 128, 2),
      "k.cu:8:13: shared-memory race: '&h[t % 16]' updates bytes 0 to 3 of 'h' in warp 1, which warp 0 "
      "read ('h[t % 16]' at k.cu:9:12) with no __syncthreads() between them, in block (0, 0, 0), thread "
      "(32, 0, 0)");
}

// A tile read reversed with no barrier, after a loop of n iterations over `in` in every thread.
// At n = 0 the check replays both blocks whole and names the race as above (warp 1's store of
// tile[32], bytes 128 to 131, after warp 0 read it). At n = 10,000 each warp's loop alone makes
// more than 10,000 warp-statement evaluations, past the check's 16,384 for a block of two warps:
// the check stops in both blocks before the stores, the race is not named, and both engines say
// so. With a barrier before the read no pair of accesses can race: nothing to check, no note.
TEST_F(ByAddress, ACheckItsBudgetStoppedIsSaidWithTheArraysAndBlocks) {
  const std::string racy = R"(__global__ void k(float *out, const float *in, int n) {
  __shared__ float tile[64];
  int t = threadIdx.x;
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) acc += in[i];
  tile[t] = in[t];
  out[blockIdx.x * 64 + t] = tile[63 - t] + acc;
}
)";
  const auto notes = [&](const std::string& source, std::int32_t n) {
    const ir::Kernel k = load(source);
    const ir::Launch l = launch(k, 64, 2, {ir::Value{}, ir::Value{}, ir::Value::of(ir::ScalarType::I32, n)});
    const std::string replayed = ir::replay(k, l, ir::ReplayOptions{}).races_unchecked;
    const std::string classed = ir::class_replay(k, l).races_unchecked;
    return replayed == classed ? replayed : "replay: " + replayed + "; classes: " + classed;
  };
  EXPECT_EQ(both_errors(racy, 64, 2),  // n = 0
            "k.cu:6:3: shared-memory race: 'tile[t]' writes bytes 128 to 131 of 'tile' in warp 1, which warp "
            "0 read ('tile[63 - t]' at k.cu:7:30) with no __syncthreads() between them, in block (0, 0, 0), "
            "thread (32, 0, 0)");
  EXPECT_EQ(notes(racy, 10000),
            "shared-memory races on 'tile' (followed by address: the values stored are not known) were "
            "checked in block (0, 0, 0) and block (1, 0, 0) only until the check's budget of 16384 "
            "warp-statement evaluations a block stopped it; a race after that is not named");
  std::string fenced = racy;
  fenced.insert(fenced.find("  out["), "  __syncthreads();\n");
  EXPECT_EQ(notes(fenced, 10000), "");
}

}  // namespace
}  // namespace warpdiv::testing
