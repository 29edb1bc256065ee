// Memory figures of the replay (sim/memory/ir_memory.hpp) against an independent per-lane oracle: for
// each access of a zoo kernel, plain C++ loops over the blocks, warps and lanes of the launch
// say which threads make the access (in which instance of its loop) and at which byte address,
// and count requests, 32-byte sectors (a std::set per request) and shared wavefronts (a
// std::map from bank to its distinct words, per phase). Nothing here reads the kernel model
// beyond finding an access by its source text, and no code of sim/ computes a figure here.
// Hand-worked figures (small launches, worked out in the comments) pin the rules themselves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>

#include "sim/classes/ir_classes.hpp"
#include "sim/memory/ir_memory.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/source_dir.hpp"
#include "tests/kernels/zoo_launches.hpp"

namespace warpdiv::sim::ir {
namespace {

struct Thread {
  std::int64_t bx, by, bz, tx, ty, tz;
};

struct Figures {
  std::uint64_t requests = 0, lanes = 0, bytes = 0, sectors = 0, wavefronts = 0, conflicts = 0;
};

struct AccessModel {
  int instances = 1;  // loop iterations k = 0 .. instances-1, run in step by a warp's lanes
  std::function<bool(const Thread&, int k)> makes;
  std::function<std::int64_t(const Thread&, int k)> address;  // bytes from the base's start
  int width = 4;
  bool shared = false;
};

std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/// Shared wavefronts of one request by the rule as documented: 4-byte banks, 32 of them; a
/// word asked by several lanes counts once; 8-byte accesses in half-warps, 16-byte in
/// quarter-warps. `phases` gets the phases that have a lane (conflicts = wavefronts - phases).
std::uint64_t wavefronts(const std::map<int, std::int64_t>& lane_address, int width,
                         std::uint64_t& phases_used) {
  const int per_phase = width <= 4 ? 64 : 128 / width;
  std::map<int, std::map<std::int64_t, std::set<std::int64_t>>> phases;  // phase -> bank -> words
  for (const auto& [lane, address] : lane_address) {
    const int words = width < 4 ? 1 : width / 4;
    for (int j = 0; j < words; ++j) {
      const std::int64_t word = floor_div(address, 4) + j;
      phases[lane / per_phase][((word % 32) + 32) % 32].insert(word);
    }
  }
  std::uint64_t total = 0;
  phases_used = phases.size();
  for (const auto& [phase, banks] : phases) {
    std::size_t most = 0;
    for (const auto& [bank, words] : banks) most = std::max(most, words.size());
    total += most;
  }
  return total;
}

Figures oracle(Dim3 grid, Dim3 block, int warp_size, const AccessModel& m) {
  Figures f;
  const std::int64_t threads = block.x * block.y * block.z;
  for (std::int64_t bz = 0; bz < grid.z; ++bz)
    for (std::int64_t by = 0; by < grid.y; ++by)
      for (std::int64_t bx = 0; bx < grid.x; ++bx)
        for (std::int64_t first = 0; first < threads; first += warp_size)
          for (int k = 0; k < m.instances; ++k) {
            std::map<int, std::int64_t> lanes;
            for (std::int64_t t = first; t < first + warp_size && t < threads; ++t) {
              const Thread th{bx, by, bz, t % block.x, t / block.x % block.y, t / (block.x * block.y)};
              if (m.makes(th, k)) lanes[static_cast<int>(t - first)] = m.address(th, k);
            }
            if (lanes.empty()) continue;
            f.requests += 1;
            f.lanes += lanes.size();
            f.bytes += lanes.size() * static_cast<std::uint64_t>(m.width);
            if (m.shared) {
              std::uint64_t phases = 0;
              const std::uint64_t w = wavefronts(lanes, m.width, phases);
              f.wavefronts += w;
              f.conflicts += w - phases;
            } else {
              std::set<std::int64_t> sectors;
              for (const auto& [lane, address] : lanes) sectors.insert(floor_div(address, 32));
              f.sectors += sectors.size();
            }
          }
  return f;
}

/// The replay's figures of the access with the given source text and kind (the last one in
/// source order: the one inside the loop, where a statement before it has the same text).
Figures replayed(const Kernel& k, const ReplayResult& r, const std::string& text, AccessKind kind) {
  int found = -1;
  for (std::size_t i = 0; i < k.accesses.size(); ++i)
    if (k.accesses[i].text == text && k.accesses[i].kind == kind &&
        (found < 0 || k.accesses[i].range.line > k.accesses[static_cast<std::size_t>(found)].range.line))
      found = static_cast<int>(i);
  if (found < 0) {
    ADD_FAILURE() << "no " << name(kind) << " '" << text << "' in " << k.name;
    return {};
  }
  const AccessCounts& c = r.accesses[static_cast<std::size_t>(found)];
  return Figures{static_cast<std::uint64_t>(c.requests),   static_cast<std::uint64_t>(c.lanes),
                 static_cast<std::uint64_t>(c.bytes),      static_cast<std::uint64_t>(c.sectors),
                 static_cast<std::uint64_t>(c.wavefronts), static_cast<std::uint64_t>(c.conflicts)};
}

void expect_same(const Figures& want, const Figures& got, const std::string& what) {
  EXPECT_EQ(got.requests, want.requests) << what << ": requests";
  EXPECT_EQ(got.lanes, want.lanes) << what << ": lanes";
  EXPECT_EQ(got.bytes, want.bytes) << what << ": bytes";
  EXPECT_EQ(got.sectors, want.sectors) << what << ": sectors";
  EXPECT_EQ(got.wavefronts, want.wavefronts) << what << ": wavefronts";
  EXPECT_EQ(got.conflicts, want.conflicts) << what << ": conflicts";
}

Launch launch(const Kernel& k, Dim3 grid, Dim3 block, const std::map<std::string, std::int64_t>& args,
              int warp_size = 32) {
  Launch l;
  l.grid = grid;
  l.block = block;
  l.warp_size = warp_size;
  for (const Parameter& p : k.parameters)
    l.arguments.push_back(p.scalar ? Value::of(p.type, args.at(p.name)) : Value{});
  return l;
}

// ---------------------------------------------------------------------------------------------
// The naive multiply: M[Row*Width+k] (two rows per warp of 16 x 16 blocks: 2 sectors), N[k*Width+
// Col] (16 consecutive floats at (k*Width + 16*bx)*4 bytes: 2 sectors when that is a multiple
// of 32, 3 when it is 16 past one), P[Row*Width+Col].

TEST(ZooMemory, NaiveMatmulAgreesWithTheOracle) {
  const Kernel k = zoo::load("naive_matmul.cu");
  for (const std::int64_t width : {100, 64, 33, 7}) {
    const std::uint32_t g = static_cast<std::uint32_t>((width - 1) / 16 + 1);
    const Launch l = launch(k, {g, g, 1}, {16, 16, 1}, {{"Width", width}});
    ReplayOptions o;
    o.threads = 1;
    const ReplayResult r = replay(k, l, o);
    ASSERT_TRUE(r.memory_counted);
    const auto row = [](const Thread& t) { return t.by * 16 + t.ty; };
    const auto col = [](const Thread& t) { return t.bx * 16 + t.tx; };
    const auto inside = [&](const Thread& t, int) { return row(t) < width && col(t) < width; };
    const int w = static_cast<int>(width);
    const std::string at = " at Width " + std::to_string(width);
    expect_same(oracle(l.grid, l.block, 32,
                       {w, inside, [&](const Thread& t, int kk) { return (row(t) * width + kk) * 4; }}),
                replayed(k, r, "M[Row*Width+k]", AccessKind::Load), "M" + at);
    expect_same(oracle(l.grid, l.block, 32,
                       {w, inside, [&](const Thread& t, int kk) { return (kk * width + col(t)) * 4; }}),
                replayed(k, r, "N[k*Width+Col]", AccessKind::Load), "N" + at);
    expect_same(oracle(l.grid, l.block, 32,
                       {1, inside, [&](const Thread& t, int) { return (row(t) * width + col(t)) * 4; }}),
                replayed(k, r, "P[Row*Width+Col]", AccessKind::Store), "P" + at);
  }
}

// By hand, one 16 x 16 block at Width = 16: 8 warps, each two rows of 16 floats.
//   M[Row*16+k]: each half-warp reads one float (a broadcast): 2 sectors per request,
//     8 warps x 16 k = 128 requests, 256 sectors; 256 lanes x 16 k x 4 B = 16,384 bytes.
//   N[k*16+Col]: both half-warps read the same 64 aligned bytes: 2 sectors, 256 sectors.
//   P[Row*16+Col]: 2 rows x 64 bytes, each aligned: 4 sectors per warp, 32 sectors.
TEST(ZooMemory, NaiveMatmulByHand) {
  const Kernel k = zoo::load("naive_matmul.cu");
  const ReplayResult r = replay(k, launch(k, {1, 1, 1}, {16, 16, 1}, {{"Width", 16}}));
  const Figures m = replayed(k, r, "M[Row*Width+k]", AccessKind::Load);
  EXPECT_EQ(m.requests, 128u);
  EXPECT_EQ(m.sectors, 256u);
  EXPECT_EQ(m.bytes, 16384u);
  EXPECT_EQ(replayed(k, r, "N[k*Width+Col]", AccessKind::Load).sectors, 256u);
  const Figures p = replayed(k, r, "P[Row*Width+Col]", AccessKind::Store);
  EXPECT_EQ(p.requests, 8u);
  EXPECT_EQ(p.sectors, 32u);
  // Floating-point work: Pvalue += M*N is one multiply and one add per lane and k:
  // 256 lanes x 16 x 2 = 8,192.
  Count flops = 0;
  for (const Count f : r.flops) flops += f;
  EXPECT_EQ(static_cast<std::uint64_t>(flops), 8192u);
}

// Width = 17 (odd): N's row k starts at 68k bytes, so 16 floats from 68k + 64 bx cover 2 or 3
// sectors as (68k + 64bx) mod 32 = 4k mod 32 is 0 or not: of k = 0 .. 16, k = 0, 8 and 16 -> 2
// sectors, the other 14 -> 3; column block 1 has one active column (Col 16): 1 sector. Block
// (0, 0): 8 warps x (3 x 2 + 14 x 3) = 384 sectors; block (1, 0): 8 warps x 17 k x 1 = 136.
TEST(ZooMemory, NaiveMatmulSectorsAlternateByHand) {
  const Kernel k = zoo::load("naive_matmul.cu");
  const ReplayResult r = replay(k, launch(k, {2, 1, 1}, {16, 16, 1}, {{"Width", 17}}));
  EXPECT_EQ(replayed(k, r, "N[k*Width+Col]", AccessKind::Load).sectors, 384u + 136u);
}

// ---------------------------------------------------------------------------------------------
// The row softmax: one thread per row, every access through the row pointers x = inp + row * C
// and o = out + row * C. By hand at rows = 40, C = 4, 2 blocks of 32: element j of row r is at
// 16 r + 4 j bytes, so two rows share a 32-byte sector whatever j is. Block 0's warp (rows 0 ..
// 31) touches sectors 0 .. 15, block 1's (rows 32 .. 39, 8 lanes) sectors 16 .. 19: 2 requests,
// 20 sectors, 40 lanes and 160 bytes per access instance (one value of j).
//   x[0]: once; x[j] of the maximum: j = 1 .. 3, 3 instances; x[j] and o[j] = e of the sum:
//   4 each; o[j] read and written by the normalisation: 4 each.
// Launch: loads 1 + 3 + 4 + 4 = 12 instances = 24 requests, 240 sectors; stores 8 instances =
// 16 requests, 160 sectors. Both engines, and each access in its own buffer.
TEST(ZooMemory, SoftmaxRowsByHand) {
  const Kernel k = zoo::load("softmax_rows.cu");
  const Launch l = launch(k, {2, 1, 1}, {32, 1, 1}, {{"rows", 40}, {"C", 4}});
  const ReplayResult replayed_run = replay(k, l);
  const ClassReplayResult classes = class_replay(k, l);
  for (const ReplayResult* r : {&replayed_run, static_cast<const ReplayResult*>(&classes)}) {
    ASSERT_TRUE(r->memory_counted);
    Figures loads, stores;
    for (std::size_t i = 0; i < k.accesses.size(); ++i) {
      const MemoryAccess& a = k.accesses[i];
      ASSERT_NE(a.base, kNone) << a.text << ": " << a.reason;
      const bool load = a.kind == AccessKind::Load;
      EXPECT_EQ(k.bases[static_cast<std::size_t>(a.base)].name, load && a.text != "o[j]" ? "inp" : "out")
          << a.text;
      const AccessCounts& c = r->accesses[i];
      const std::uint64_t instances = a.range.line == 14 ? 1 : a.range.line == 16 ? 3 : 4;
      EXPECT_EQ(static_cast<std::uint64_t>(c.requests), 2 * instances) << a.text << " line " << a.range.line;
      EXPECT_EQ(static_cast<std::uint64_t>(c.sectors), 20 * instances) << a.text << " line " << a.range.line;
      EXPECT_EQ(static_cast<std::uint64_t>(c.bytes), 160 * instances) << a.text << " line " << a.range.line;
      Figures& f = load ? loads : stores;
      f.requests += static_cast<std::uint64_t>(c.requests);
      f.sectors += static_cast<std::uint64_t>(c.sectors);
    }
    EXPECT_EQ(loads.requests, 24u);
    EXPECT_EQ(loads.sectors, 240u);
    EXPECT_EQ(stores.requests, 16u);
    EXPECT_EQ(stores.sectors, 160u);
  }
}

// ---------------------------------------------------------------------------------------------
// The 5-point stencil (kernels/zoo/stencil_2d.cu) in unsigned arithmetic: (i - 1) * N + j wraps
// at i = 0, which the bounds check keeps out, so the class engine counts it at any size where the
// guarded values stay below 2^32.

struct StencilFigures {
  std::uint64_t requests, sectors;
};

/// The figures of the stencil's accesses (the store, then the loads in source order).
std::vector<StencilFigures> stencil_figures(const Kernel& k, const ReplayResult& r) {
  std::vector<StencilFigures> out;
  for (std::size_t i = 0; i < k.accesses.size(); ++i)
    out.push_back({static_cast<std::uint64_t>(r.accesses[i].requests),
                   static_cast<std::uint64_t>(r.accesses[i].sectors)});
  return out;
}

// By hand, N = 4, one 4 x 4 block (one warp of 16 lanes): the interior points i, j in {1, 2}
// are elements 5, 6, 9, 10 (one request per access, 4 lanes).
//   out[i*N+j] and in[i*N+j]: elements 5, 6, 9, 10 = bytes 20 .. 43: sectors 0 and 1;
//   in[(i-1)*N+j]: 1, 2, 5, 6 = bytes 4 .. 27: sector 0; in[(i+1)*N+j]: 9, 10, 13, 14 = bytes
//   36 .. 59: sector 1; in[i*N+j-1]: 4, 5, 8, 9 = bytes 16 .. 39: 2; in[i*N+j+1]: 6, 7, 10, 11
//   = bytes 24 .. 47: 2.
TEST(ZooMemory, StencilByHandSmall) {
  const Kernel k = zoo::load("stencil_2d.cu");
  ASSERT_EQ(k.accesses.size(), 6u);
  const Launch l = launch(k, {1, 1, 1}, {4, 4, 1}, {{"N", 4}});
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> want = {{1, 2}, {1, 2}, {1, 1},
                                                                     {1, 1}, {1, 2}, {1, 2}};
  const ReplayResult replayed_run = replay(k, l);
  const ClassReplayResult classes = class_replay(k, l);
  for (const ReplayResult* r : {&replayed_run, static_cast<const ReplayResult*>(&classes)}) {
    ASSERT_TRUE(r->memory_counted);
    const std::vector<StencilFigures> got = stencil_figures(k, *r);
    for (std::size_t a = 0; a < want.size(); ++a) {
      EXPECT_EQ(got[a].requests, want[a].first) << k.accesses[a].text;
      EXPECT_EQ(got[a].sectors, want[a].second) << k.accesses[a].text;
    }
  }
}

// N = 40,000 on 2,500 x 2,500 blocks of 16 x 16 (the replay's 35 s): every warp (two rows of 16
// columns) has an interior point, so each access makes 50,000,000 requests. Rows start at
// 160,000 i + 64 bx bytes, multiples of 32: a warp's row of 16 floats is 2 sectors, and the two
// row pairs {0, 1} and {39998, 39999} of each of the 2,500 block columns have one interior row:
// 4 x 5 x 10^7 - 2 x 2 x 2,500 = 199,990,000 sectors for the store and the loads at j. j - 1
// starts one float before the row's segment: 3 sectors a row, 2 in block column 0 (j - 1 >= 0
// there); j + 1 ends one float past it: 3, 2 in the last column (j + 1 <= 39,999). 39,998
// interior rows: 39,998 x (2 + 3 x 2,499) = 299,945,002 each.
TEST(ZooMemory, StencilAtNFortyThousandByTheClassEngine) {
  const Kernel k = zoo::load("stencil_2d.cu");
  const Launch l = launch(k, {2500, 2500, 1}, {16, 16, 1}, {{"N", 40000}});
  const ClassReplayResult r = class_replay(k, l);
  ASSERT_TRUE(r.memory_counted) << r.memory_unproven;
  const std::vector<StencilFigures> got = stencil_figures(k, r);
  const std::uint64_t aligned = 199990000, shifted = 299945002;
  const std::uint64_t want[6] = {aligned, aligned, aligned, aligned, shifted, shifted};
  for (std::size_t a = 0; a < 6; ++a) {
    EXPECT_EQ(got[a].requests, 50000000u) << k.accesses[a].text;
    EXPECT_EQ(got[a].sectors, want[a]) << k.accesses[a].text;
  }
}

// At N = 70,000 (4,375^2 blocks) i * N passes 2^32 for i >= 61,357 inside the bounds check: the
// guarded values do wrap, and the class engine still refuses to count them.
TEST(ZooMemory, StencilWhereTheIndexWrapsIsNotCounted) {
  const Kernel k = zoo::load("stencil_2d.cu");
  const ClassReplayResult r = class_replay(k, launch(k, {4375, 4375, 1}, {16, 16, 1}, {{"N", 70000}}));
  EXPECT_FALSE(r.memory_counted);
  EXPECT_NE(r.memory_unproven.find("a conversion to int64 that may wrap around"), std::string::npos)
      << r.memory_unproven;
}

// At a size the replay runs in a moment, every access's figures by both engines are the same; and
// the same kernel written with an early return (`if (border) return;`) is counted alike.
class Stencil : public testing::SourceDirTest {
 protected:
  Stencil() : SourceDirTest("warpdiv_stencil_") {}
};

TEST_F(Stencil, ClassEngineEqualsTheReplay) {
  frontend::FrontendOptions o;
  o.file = write("early_return.cu", R"(
__global__ void stencil_2d(float* out, const float* in, unsigned int N) {
  unsigned int i = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0 || i >= N - 1 || j == 0 || j >= N - 1) return;
  out[i * N + j] = 0.2f * (in[i * N + j] + in[(i - 1) * N + j] + in[(i + 1) * N + j] +
                           in[i * N + j - 1] + in[i * N + j + 1]);
}
)");
  for (const Kernel& k : {zoo::load("stencil_2d.cu"), frontend::load_kernel(o)}) {
    for (const std::int64_t n : {1000, 333}) {
      const std::uint32_t g = static_cast<std::uint32_t>((n + 15) / 16);
      const Launch l = launch(k, {g, g, 1}, {16, 16, 1}, {{"N", n}});
      const ReplayResult want = replay(k, l);
      const ClassReplayResult got = class_replay(k, l);
      ASSERT_TRUE(got.memory_counted) << got.memory_unproven;
      const std::vector<StencilFigures> a = stencil_figures(k, want), b = stencil_figures(k, got);
      for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(b[i].requests, a[i].requests) << k.accesses[i].text << " N " << n;
        EXPECT_EQ(b[i].sectors, a[i].sectors) << k.accesses[i].text << " N " << n;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Shared memory: the transpose's padded tile has no conflicts; the same kernel without the
// padding has 32 (every lane of a warp reads column threadIdx.y + j of its own row: one bank).

const char* kTranspose = R"(
#define TILE_DIM 32
#define BLOCK_ROWS 8
__global__ void transpose(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + PAD];
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (xIndex < width && yIndex + j < height)
      tile[threadIdx.y + j][threadIdx.x] = idata[(yIndex + j) * width + xIndex];
  __syncthreads();
  int xOut = blockIdx.y * TILE_DIM + threadIdx.x;
  int yOut = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (xOut < height && yOut + j < width)
      odata[(yOut + j) * height + xOut] = tile[threadIdx.x][threadIdx.y + j];
}
)";

class Transpose : public testing::SourceDirTest {
 protected:
  Transpose() : SourceDirTest("warpdiv_memory_") {}
  Kernel load(int pad) {
    frontend::FrontendOptions o;
    o.file = write("transpose" + std::to_string(pad) + ".cu",
                   "#define PAD " + std::to_string(pad) + "\n" + kTranspose);
    return frontend::load_kernel(o);
  }
};

TEST_F(Transpose, BankConflictsByHandAndByTheOracle) {
  for (const int pad : {0, 1}) {
    const Kernel k = load(pad);
    for (const auto& [width, height] : std::vector<std::pair<int, int>>{{32, 32}, {40, 20}, {64, 96}}) {
      const Dim3 grid{static_cast<std::uint32_t>((width + 31) / 32),
                      static_cast<std::uint32_t>((height + 31) / 32), 1};
      const Launch l = launch(k, grid, {32, 8, 1}, {{"width", width}, {"height", height}});
      const ReplayResult r = replay(k, l);
      const std::string what =
          "pad " + std::to_string(pad) + ", " + std::to_string(width) + " x " + std::to_string(height);
      const std::int64_t row = (32 + pad) * 4;
      const auto in_read = [&](const Thread& t, int j) {
        return t.bx * 32 + t.tx < width && t.by * 32 + t.ty + 8 * j < height;
      };
      const auto in_write = [&](const Thread& t, int j) {
        return t.by * 32 + t.tx < height && t.bx * 32 + t.ty + 8 * j < width;
      };
      const Figures stored = replayed(k, r, "tile[threadIdx.y + j][threadIdx.x]", AccessKind::Store);
      const Figures read = replayed(k, r, "tile[threadIdx.x][threadIdx.y + j]", AccessKind::Load);
      expect_same(oracle(grid, l.block, 32,
                         {4, in_read, [&](const Thread& t, int j) { return (t.ty + 8 * j) * row + t.tx * 4; },
                          4, true}),
                  stored, "tile store, " + what);
      expect_same(oracle(grid, l.block, 32,
                         {4, in_write,
                          [&](const Thread& t, int j) { return t.tx * row + (t.ty + 8 * j) * 4; }, 4, true}),
                  read, "tile load, " + what);
      expect_same(oracle(grid, l.block, 32,
                         {4, in_read,
                          [&](const Thread& t, int j) {
                            return ((t.by * 32 + t.ty + 8 * j) * width + t.bx * 32 + t.tx) * 4;
                          }}),
                  replayed(k, r, "idata[(yIndex + j) * width + xIndex]", AccessKind::Load), "idata, " + what);
      expect_same(oracle(grid, l.block, 32,
                         {4, in_write,
                          [&](const Thread& t, int j) {
                            return ((t.bx * 32 + t.ty + 8 * j) * height + t.by * 32 + t.tx) * 4;
                          }}),
                  replayed(k, r, "odata[(yOut + j) * height + xOut]", AccessKind::Store), "odata, " + what);
      if (width == 32 && height == 32) {
        // One block, 8 warps x 4 j = 32 requests each way. Stores: a row of 32 floats, no
        // conflict: 32 wavefronts. Loads: a column: 32-way without padding (1,024
        // wavefronts, 992 conflicts), none with it.
        EXPECT_EQ(stored.requests, 32u);
        EXPECT_EQ(stored.wavefronts, 32u);
        EXPECT_EQ(read.wavefronts, pad == 0 ? 1024u : 32u);
        EXPECT_EQ(read.conflicts, pad == 0 ? 992u : 0u);
        // Global: 128 contiguous bytes per warp, 4 sectors per request.
        EXPECT_EQ(replayed(k, r, "idata[(yIndex + j) * width + xIndex]", AccessKind::Load).sectors, 128u);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The reductions: partialSum[t] += partialSum[t+stride] (contiguous: no conflict) against
// partialSum[2*t] (interleaved: 2-way, then more, as the stride grows).

TEST(ZooMemory, ReductionsAgreeWithTheOracle) {
  for (const bool interleaved : {false, true}) {
    const Kernel k = zoo::load(interleaved ? "reduction_interleaved.cu" : "reduction_contiguous.cu");
    for (const std::uint32_t block : {256u, 64u, 96u}) {
      const Launch l = launch(k, {3, 1, 1}, {block, 1, 1}, {});
      const ReplayResult r = replay(k, l);
      const std::string what =
          std::string(interleaved ? "interleaved" : "contiguous") + ", block " + std::to_string(block);
      // Iteration k of the stride loop: contiguous stride = block >> k while it is > 0 (then t <
      // stride adds); interleaved stride = 1 << k while it is <= block (then t % stride == 0).
      int iterations = 0;
      for (std::uint32_t s = interleaved ? 1 : block; interleaved ? s <= block : s > 0;
           s = interleaved ? s * 2 : s / 2)
        ++iterations;
      const auto stride = [&](int kk) { return interleaved ? (1 << kk) : static_cast<int>(block >> kk); };
      const auto adds = [&](const Thread& t, int kk) {
        return interleaved ? t.tx % stride(kk) == 0 : t.tx < stride(kk);
      };
      const auto target = [&](const Thread& t, int) { return (interleaved ? 2 * t.tx : t.tx) * 4; };
      const auto source = [&](const Thread& t, int kk) {
        return ((interleaved ? 2 * t.tx : t.tx) + stride(kk)) * 4;
      };
      const std::string into = interleaved ? "partialSum[2*t]" : "partialSum[t]";
      const std::string from = interleaved ? "partialSum[2*t+stride]" : "partialSum[t+stride]";
      const Figures want_target = oracle(l.grid, l.block, 32, {iterations, adds, target, 4, true});
      expect_same(want_target, replayed(k, r, into, AccessKind::Store), into + " (store), " + what);
      expect_same(oracle(l.grid, l.block, 32, {iterations, adds, source, 4, true}),
                  replayed(k, r, from, AccessKind::Load), from + ", " + what);
      // input[start + t]: `block` consecutive floats per block, 128 bytes per full warp.
      const auto all = [](const Thread&, int) { return true; };
      expect_same(oracle(l.grid, l.block, 32,
                         {1, all, [&](const Thread& t, int) { return (2 * t.bx * block + t.tx) * 4; }}),
                  replayed(k, r, "input[start + t]", AccessKind::Load), "input, " + what);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The rules themselves, on addresses written out by hand.

TEST(MemoryRules, SectorsOfHandWrittenAddresses) {
  std::int64_t a[64] = {};
  for (int i = 0; i < 32; ++i) a[i] = 4 * i;  // 128 aligned bytes
  EXPECT_EQ(sectors_touched(a, 0xFFFFFFFFu, 4), 4);
  for (int i = 0; i < 32; ++i) a[i] = 4 * i + 16;  // shifted by half a sector
  EXPECT_EQ(sectors_touched(a, 0xFFFFFFFFu, 4), 5);
  for (int i = 0; i < 32; ++i) a[i] = 128 * i;  // a stride of 32 floats: one sector each
  EXPECT_EQ(sectors_touched(a, 0xFFFFFFFFu, 4), 32);
  EXPECT_EQ(sectors_touched(a, 0x1u, 4), 1);
  for (int i = 0; i < 32; ++i) a[i] = 16 * i;  // float4 per lane: 512 bytes
  EXPECT_EQ(sectors_touched(a, 0xFFFFFFFFu, 16), 16);
  a[0] = -4;  // before the buffer's start: sector -1
  a[1] = 0;
  EXPECT_EQ(sectors_touched(a, 0x3u, 4), 2);
  for (int i = 0; i < 64; ++i) a[i] = 1000000 * i;  // far apart, 64 lanes
  EXPECT_EQ(sectors_touched(a, ~std::uint64_t{0}, 4), 64);
}

// An atomic's lanes on one address take turns: each sector once per lane on its busiest address.
TEST(MemoryRules, AtomicSectorsOfHandWrittenAddresses) {
  std::int64_t a[64] = {};
  for (int i = 0; i < 32; ++i) a[i] = 3824;  // atomicAdd(&out[956], 1.0f) of a whole warp
  EXPECT_EQ(atomic_sectors(a, 0xFFFFFFFFu), 32);
  EXPECT_EQ(atomic_sectors(a, 0x7FFFFu), 19);  // lanes 0 .. 18
  EXPECT_EQ(global_sectors(a, 0x7FFFFu, 4, 0, address_span(a, 0x7FFFFu), true), 19);
  EXPECT_EQ(global_sectors(a, 0x7FFFFu, 4, 0, address_span(a, 0x7FFFFu), false), 1);
  EXPECT_EQ(one_address_sectors(0xF0u, true), 4);
  EXPECT_EQ(one_address_sectors(0xF0u, false), 1);
  for (int i = 0; i < 30; ++i) a[i] = 4 * (i / 8);  // bytes 0, 4, 8 (8 lanes each), 12 (6 lanes)
  EXPECT_EQ(atomic_sectors(a, 0x3FFFFFFFu), 8);
  EXPECT_EQ(atomic_sectors(a, 0x3FFFFFFFu, 16), 8);   // 16 .. 28: still one sector
  EXPECT_EQ(atomic_sectors(a, 0x3FFFFFFFu, 24), 16);  // 24, 28 | 32 (8 lanes), 36 (6 lanes)
  // (t % 10) * 3 ints where t % 6 == 0: lanes 0 and 30 at byte 0, then 72, 24, 96, 48.
  for (int i = 0; i < 32; ++i) a[i] = 4 * ((i % 10) * 3);
  EXPECT_EQ(atomic_sectors(a, 0x41041041u), 5);     // sector 0: 2 (byte 0) | 1 | 1 | 1
  for (int i = 0; i < 32; ++i) a[i] = 8 * (i / 3);  // t / 3 of 8 bytes: 3 lanes an address
  EXPECT_EQ(atomic_sectors(a, 0xFFFFFFFFu), 9);     // 3 sectors, 3 each
  for (int i = 0; i < 64; ++i) a[i] = 4 * i;        // distinct: the distinct sectors, 64 lanes
  EXPECT_EQ(atomic_sectors(a, ~std::uint64_t{0}), 8);
  for (int i = 0; i < 64; ++i) a[i] = i % 2 == 0 ? -4 : 1000000;  // before the buffer, and far
  EXPECT_EQ(atomic_sectors(a, ~std::uint64_t{0}), 64);
}

TEST(MemoryRules, WavefrontsOfHandWrittenAddresses) {
  std::int64_t a[64] = {};
  for (int i = 0; i < 32; ++i) a[i] = 4 * i;  // 32 banks, one word each
  EXPECT_EQ(shared_wavefronts(a, 0xFFFFFFFFu, 4), 1);
  for (int i = 0; i < 32; ++i) a[i] = 0;  // one word for all: a broadcast
  EXPECT_EQ(shared_wavefronts(a, 0xFFFFFFFFu, 4), 1);
  for (int i = 0; i < 32; ++i) a[i] = 8 * i;  // stride 2 words: 2-way
  EXPECT_EQ(shared_wavefronts(a, 0xFFFFFFFFu, 4), 2);
  for (int i = 0; i < 32; ++i) a[i] = 128 * i;  // one bank, 32 words
  EXPECT_EQ(shared_wavefronts(a, 0xFFFFFFFFu, 4), 32);
  for (int i = 0; i < 32; ++i) a[i] = i;  // bytes: 8 words in 8 banks
  EXPECT_EQ(shared_wavefronts(a, 0xFFFFFFFFu, 1), 1);
  int phases = 0;
  for (int i = 0; i < 32; ++i) a[i] = 8 * i;  // 8-byte, consecutive: two half-warps, no conflict
  EXPECT_EQ(shared_wavefronts(a, 0xFFFFFFFFu, 8, &phases), 2);
  EXPECT_EQ(phases, 2);
  EXPECT_EQ(shared_wavefronts(a, 0xFFFFu, 8, &phases), 1);  // only the first half-warp
  EXPECT_EQ(phases, 1);
  for (int i = 0; i < 32; ++i) a[i] = 16 * i;  // 16-byte, consecutive: four quarter-warps
  EXPECT_EQ(shared_wavefronts(a, 0xFFFFFFFFu, 16, &phases), 4);
  EXPECT_EQ(phases, 4);
  for (int i = 0; i < 32; ++i) a[i] = 256 * i;  // 16-byte at a 256-byte stride: 8 lanes per phase
  EXPECT_EQ(shared_wavefronts(a, 0xFFFFFFFFu, 16, &phases), 4 * 8);  // 28 conflicts
  EXPECT_EQ(phases, 4);
}

// 8- and 16-byte shared loads whose lanes pair up (lane n with n ^ 1, or n ^ 2) return two lanes'
// registers at once; stores do not. Each case is a kernel of tools/device-shared-broadcast, one warp
// and one request, with the wavefronts and bank conflicts Nsight Compute measured, the same on an
// NVIDIA H100 and an H200 (data/validation/memory/nvidia-h{100,200}/shared-broadcast/summary.txt).
TEST(MemoryRules, WavefrontsOfPairedLoadsAsMeasuredOnAnH200) {
  struct Case {
    const char* kernel;
    bool load;
    int width;
    std::int64_t (*element)(int lane);
    std::uint64_t lanes;
    int wavefronts, conflicts;
  };
  constexpr std::uint64_t all = 0xFFFFFFFFu, first20 = 0xFFFFFu, even = 0x55555555u;
  const Case cases[] = {
      {"bcast4", true, 4, [](int) { return std::int64_t{5}; }, all, 1, 0},
      {"bcast8", true, 8, [](int) { return std::int64_t{5}; }, all, 1, 0},
      {"bcast16", true, 16, [](int) { return std::int64_t{5}; }, all, 2, 0},
      {"half8", true, 8, [](int l) { return std::int64_t{5 + l / 16}; }, all, 1, 0},
      {"consecutive8", true, 8, [](int l) { return std::int64_t{4 + l}; }, all, 2, 0},
      {"consecutive16", true, 16, [](int l) { return std::int64_t{4 + l}; }, all, 4, 0},
      {"pairs8", true, 8, [](int l) { return std::int64_t{l / 2}; }, all, 1, 0},
      {"quads8", true, 8, [](int l) { return std::int64_t{l / 4}; }, all, 1, 0},
      {"mod16_8", true, 8, [](int l) { return std::int64_t{l % 16}; }, all, 2, 0},
      {"mod2_8", true, 8, [](int l) { return std::int64_t{l % 2}; }, all, 1, 0},
      {"stride16_8", true, 8, [](int l) { return std::int64_t{(l % 16) * 16}; }, all, 32, 30},
      {"pairs16", true, 16, [](int l) { return std::int64_t{l / 2}; }, all, 2, 0},
      {"quads16", true, 16, [](int l) { return std::int64_t{l / 4}; }, all, 2, 0},
      {"eights16", true, 16, [](int l) { return std::int64_t{l / 8}; }, all, 2, 0},
      {"halves16", true, 16, [](int l) { return std::int64_t{l / 16}; }, all, 2, 0},
      {"mod8_16", true, 16, [](int l) { return std::int64_t{l % 8}; }, all, 4, 0},
      {"mod2_16", true, 16, [](int l) { return std::int64_t{l % 2}; }, all, 2, 0},
      {"part_bcast8", true, 8, [](int) { return std::int64_t{3}; }, first20, 1, 0},
      {"part_consecutive8", true, 8, [](int l) { return std::int64_t{l}; }, first20, 2, 0},
      {"even_consecutive8", true, 8, [](int l) { return std::int64_t{l}; }, even, 2, 1},
      {"even_consecutive16", true, 16, [](int l) { return std::int64_t{l}; }, even, 4, 2},
      {"st_bcast8", false, 8, [](int) { return std::int64_t{3}; }, all, 2, 0},
      {"st_pairs8", false, 8, [](int l) { return std::int64_t{l / 2}; }, all, 2, 0},
      {"st_mod2_8", false, 8, [](int l) { return std::int64_t{l % 2}; }, all, 2, 0},
      {"st_mod16_8", false, 8, [](int l) { return std::int64_t{l % 16}; }, all, 2, 0},
      {"st_consecutive8", false, 8, [](int l) { return std::int64_t{l}; }, all, 2, 0},
      {"st_bcast16", false, 16, [](int) { return std::int64_t{3}; }, all, 4, 0},
      {"st_pairs16", false, 16, [](int l) { return std::int64_t{l / 2}; }, all, 4, 0},
      {"st_consecutive16", false, 16, [](int l) { return std::int64_t{l}; }, all, 4, 0},
  };
  for (const Case& c : cases) {
    std::int64_t a[64] = {};
    for (int l = 0; l < 32; ++l) a[l] = c.element(l) * c.width;
    int phases = 0;
    const int wavefronts = shared_wavefronts(a, c.lanes, c.width, &phases, 0, c.load);
    EXPECT_EQ(wavefronts, c.wavefronts) << c.kernel;
    EXPECT_EQ(wavefronts - phases, c.conflicts) << c.kernel;
    // The same at any address residue of a bank row (banks rotate), and for one address given
    // as a warp-uniform value (the replay's path for `s[n]`).
    EXPECT_EQ(shared_wavefronts(a, c.lanes, c.width, nullptr, 128 * 5 + c.width, c.load), c.wavefronts)
        << c.kernel;
    if (c.element(0) == c.element(31) && c.element(0) == c.element(17)) {
      EXPECT_EQ(one_address_wavefronts(c.lanes, c.width, c.load), c.wavefronts) << c.kernel;
    }
  }
}

// Random requests of every shape the counting takes a different road for (addresses in lane
// order or not, one run or rows, spans of a few bytes to megabytes, masks full or gappy, the
// class engine's shifts), against the rules counted byte by byte with sets: a sector is 32
// bytes, a word 4, bank = word mod 32 (floor_div: negative addresses count downwards).

int sectors_by_bytes(const std::int64_t* a, std::uint64_t mask, int width, std::int64_t shift) {
  std::set<std::int64_t> sectors;
  for (int l = 0; l < 64; ++l)
    if (mask >> l & 1)
      for (int b = 0; b < width; ++b) sectors.insert(floor_div(a[l] + shift + b, 32));
  return static_cast<int>(sectors.size());
}

int wavefronts_by_bytes(const std::int64_t* a, std::uint64_t mask, int width, std::int64_t shift,
                        int& phases) {
  const int per_phase = width <= 4 ? 64 : 128 / width;
  int total = 0;
  phases = 0;
  for (int first = 0; first < 64; first += per_phase) {
    std::map<std::int64_t, std::set<std::int64_t>> words_of_bank;
    for (int l = first; l < first + per_phase; ++l)
      if (mask >> l & 1)
        for (int b = 0; b < width; ++b) {
          const std::int64_t word = floor_div(a[l] + shift + b, 4);
          words_of_bank[word - 32 * floor_div(word, 32)].insert(word);
        }
    if (words_of_bank.empty()) continue;
    ++phases;
    std::size_t most = 0;
    for (const auto& [bank, words] : words_of_bank) most = std::max(most, words.size());
    total += static_cast<int>(most);
  }
  return total;
}

TEST(MemoryRules, RandomRequestsAgreeWithByteSets) {
  std::mt19937_64 random(21);
  const auto pick = [&](std::int64_t n) {
    return static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(n));
  };
  const int widths[] = {1, 2, 4, 8, 16};
  for (int trial = 0; trial < 20000; ++trial) {
    const int width = widths[pick(5)];
    const bool aligned = pick(4) != 0;  // sectors are defined for any address; wavefronts need alignment
    const std::int64_t base = (pick(2) != 0 ? -1 : 1) * pick(1 << 20) * (aligned ? width : 1);
    std::int64_t a[64];
    const int shape = static_cast<int>(pick(6));
    const std::int64_t stride = pick(40) * width * (pick(8) == 0 ? 37 : 1);
    const int row = 1 << pick(6);  // lanes per row: 1 .. 32
    const std::int64_t row_stride = (pick(3) - 1) * pick(3000) * width;
    for (int l = 0; l < 64; ++l) {
      switch (shape) {
        case 0:
          a[l] = base + l * stride;
          break;  // a progression
        case 1:
          a[l] = base + (l % row) * stride + (l / row) * row_stride;
          break;  // rows
        case 2:
          a[l] = base + pick(64) * width;
          break;  // a small span
        case 3:
          a[l] = base + pick(4000) * width;
          break;  // a wider span
        case 4:
          a[l] = base + pick(1 << 22) * width;
          break;  // anywhere
        default:
          a[l] = base + (63 - l) * stride;
          break;  // decreasing
      }
      if (!aligned) a[l] += pick(width);
    }
    if (shape == 3 && pick(2) == 0) std::sort(a, a + 64);
    std::uint64_t mask = pick(3) == 0 ? ~std::uint64_t{0} : pick(2) == 0 ? 0xFFFFFFFFu : random();
    if (pick(4) == 0) mask &= (std::uint64_t{1} << pick(64)) - 1;  // a prefix, maybe empty
    const std::int64_t shift = pick(3) == 0 ? 0 : pick(64) * width;
    const std::string what = "trial " + std::to_string(trial) + ", shape " + std::to_string(shape) +
                             ", width " + std::to_string(width) + ", shift " + std::to_string(shift);
    EXPECT_EQ(sectors_touched(a, mask, width, shift), sectors_by_bytes(a, mask, width, shift)) << what;
    if (!aligned) continue;
    int phases = -1, expected_phases = -1;
    EXPECT_EQ(shared_wavefronts(a, mask, width, &phases, shift),
              wavefronts_by_bytes(a, mask, width, shift, expected_phases))
        << what;
    EXPECT_EQ(phases, expected_phases) << what;
  }
}

}  // namespace
}  // namespace warpdiv::sim::ir
