// The front-end's two routes: the same kernels read with warpdiv's built-in prelude and
// with the CUDA Toolkit's own headers (FrontendOptions::cuda_headers) must give the same model, as
// seen by the replay: equal counts for every statement, on several launches. Skips, with the
// reason, where no toolkit is installed at /usr/local/cuda.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kernels/frontend/frontend.hpp"
#include "tests/kernels/source_dir.hpp"
#include "sim/model/ir.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/zoo_launches.hpp"

namespace {

namespace fs = std::filesystem;
namespace ir = warpdiv::sim::ir;
using warpdiv::InvalidInput;
using warpdiv::frontend::ClangDiagnostics;
using warpdiv::frontend::FrontendOptions;
using warpdiv::frontend::load_kernel;

constexpr const char* kToolkit = "/usr/local/cuda";

bool have_toolkit() { return fs::exists(std::string(kToolkit) + "/include/cuda_runtime.h"); }

#define SKIP_WITHOUT_TOOLKIT() \
  if (!have_toolkit()) GTEST_SKIP() << "no CUDA Toolkit: " << kToolkit << "/include/cuda_runtime.h is missing"

class ToolkitRouteTest : public warpdiv::testing::SourceDirTest {
 protected:
  ToolkitRouteTest() : SourceDirTest("warpdiv_toolkit_") {}

  static FrontendOptions options(const std::string& file, const std::string& headers) {
    FrontendOptions o;
    o.file = file;
    o.cuda_headers = headers;
    o.cuda_path = kToolkit;
    return o;
  }
};

/// Replays `launch` on both models and expects the same counts, statement by statement.
void expect_same_counts(const ir::Kernel& builtin, const ir::Kernel& toolkit, const ir::Launch& launch) {
  // The statements match one for one; expressions may not (the prelude's constexpr size() folds
  // to one constant where the toolkit's size() is computed as a group query).
  ASSERT_EQ(builtin.stmts.size(), toolkit.stmts.size());
  // The same accesses placed: a read of a launch built-in (a property on the toolkit's route) is
  // no side effect of an index.
  ASSERT_EQ(builtin.accesses.size(), toolkit.accesses.size());
  for (std::size_t i = 0; i < builtin.accesses.size(); ++i)
    EXPECT_EQ(builtin.accesses[i].base == ir::kNone, toolkit.accesses[i].base == ir::kNone)
        << builtin.accesses[i].text << ": " << builtin.accesses[i].reason << " / "
        << toolkit.accesses[i].reason;
  const ir::ReplayResult a = ir::replay(builtin, launch);
  const ir::ReplayResult b = ir::replay(toolkit, launch);
  ASSERT_EQ(a.statements.size(), b.statements.size());
  for (std::size_t i = 0; i < a.statements.size(); ++i)
    EXPECT_TRUE(a.statements[i] == b.statements[i]) << "statement " << i;
  EXPECT_EQ(a.warp_statement_evaluations, b.warp_statement_evaluations);
  EXPECT_GT(a.warp_statement_evaluations, 0u);
}

ir::Launch launch_of(ir::Dim3 grid, ir::Dim3 block, const ir::Kernel& k, std::vector<std::int64_t> scalars) {
  ir::Launch l;
  l.grid = grid;
  l.block = block;
  std::size_t next = 0;
  for (const ir::Parameter& p : k.parameters) {
    if (!p.scalar) {
      l.arguments.push_back(ir::Value{});
      continue;
    }
    l.arguments.push_back(ir::Value::of(p.type, next < scalars.size() ? scalars[next++] : 0));
  }
  return l;
}

struct Case {
  const char* name;
  const char* source;
  std::vector<std::pair<ir::Dim3, ir::Dim3>> launches;
  std::vector<std::int64_t> scalars;
};

const Case kCases[] = {
    {"guarded matmul",
     R"(
#include <cuda_runtime.h>
__global__ void matmul(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float sum = 0;
    for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
  }
}
int main() {
  float* d;
  cudaMalloc(&d, 64);
  matmul<<<dim3(2, 2), dim3(16, 16)>>>(d, d, d, 20);
  cudaDeviceSynchronize();
}
)",
     {{ir::Dim3{2, 2, 1}, ir::Dim3{16, 16, 1}}, {ir::Dim3{3, 1, 1}, ir::Dim3{8, 4, 2}}},
     {20}},
    {"an index of built-ins through pointer arithmetic (rodinia gaussian's Fan1)",
     R"(
__global__ void fan1(float* m, float* a, int size, int t) {
  if (threadIdx.x + blockIdx.x * blockDim.x >= size - 1 - t) return;
  *(m + size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) =
      *(a + size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) / *(a + size * t + t);
}
)",
     {{ir::Dim3{1, 1, 1}, ir::Dim3{32, 1, 1}}},
     {16, 0}},
    {"2-D block with threadIdx.y and gridDim",
     R"(
__global__ void k2(int* out, int w) {
  int x = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * 7;
  if (threadIdx.y % 2 == 1 && x < w) out[x] = gridDim.x + gridDim.y + blockDim.z;
  else if (blockIdx.y > 0) out[0] = 2;
}
)",
     {{ir::Dim3{2, 3, 1}, ir::Dim3{8, 6, 2}}},
     {30}},
    {"reduction with __syncthreads",
     R"(
__global__ void reduce(const int* in, int* out, unsigned n) {
  extern __shared__ int s[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
)",
     {{ir::Dim3{4, 1, 1}, ir::Dim3{128, 1, 1}}, {ir::Dim3{1, 1, 1}, ir::Dim3{64, 1, 1}}},
     {300}},
    {"min, max, abs and warpSize",
     R"(
__global__ void mm(int* out, int n, unsigned u) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lo = min(i, n);
  int hi = max(i - 40, 3);
  unsigned m = min(u, (unsigned)i);
  int a = abs(i - 50);
  int lane = i % warpSize;
  if (lo < hi && a > 10 && m < 60 && lane < 16) out[i] = lo;
}
)",
     {{ir::Dim3{3, 1, 1}, ir::Dim3{64, 1, 1}}},
     {70, 90}},
    {"cooperative groups with tiled_partition<32>",
     R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void cgr(const int* in, int* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int r = block.thread_rank();
  int v = r < n ? in[r] : 0;
  block.sync();
  int lane = warp.thread_rank();
  int w = warp.meta_group_rank();
  int ws = warp.meta_group_size();
  auto quarter = cg::tiled_partition<8>(warp);
  if (quarter.thread_rank() == 0 && quarter.meta_group_rank() < 2) out[r] = v;
  if (lane == 0 && w < ws - 1) out[w] = cg::reduce(warp, v, cg::plus<int>());
  cg::sync(block);
  if (cg::thread_rank(block) < warp.size() && block.size() > 64) out[0] = 1;
}
)",
     {{ir::Dim3{2, 1, 1}, ir::Dim3{128, 1, 1}}, {ir::Dim3{1, 1, 1}, ir::Dim3{32, 3, 1}}},
     {100}},
    {"a __device__ helper",
     R"(
__device__ int clamp_index(int i, int n) {
  if (i >= n) return n - 1;
  return i;
}
__device__ void store(int* out, int i) { out[i] = i; }
__global__ void helpers(int* out, int n) {
  int i = clamp_index(blockIdx.x * blockDim.x + threadIdx.x, n);
  if (i % 3 == 0) store(out, i);
}
)",
     {{ir::Dim3{2, 1, 1}, ir::Dim3{96, 1, 1}}},
     {150}},
};

TEST_F(ToolkitRouteTest, SameKernelsGiveTheSameCountsThroughBothRoutes) {
  SKIP_WITHOUT_TOOLKIT();
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const std::string file = write("k.cu", c.source);
    const ir::Kernel builtin = load_kernel(options(file, "builtin"));
    const ir::Kernel toolkit = load_kernel(options(file, "toolkit"));
    for (const auto& [grid, block] : c.launches)
      expect_same_counts(builtin, toolkit, launch_of(grid, block, builtin, c.scalars));
  }
}

TEST_F(ToolkitRouteTest, TheZooGivesTheSameCountsThroughBothRoutes) {
  SKIP_WITHOUT_TOOLKIT();
  namespace zoo = ir::zoo;
  std::mt19937_64 rng(18);
  for (const std::string& name : zoo::files()) {
    SCOPED_TRACE(name);
    const ir::Kernel builtin = load_kernel(options(zoo::folder() + name, "builtin"));
    const ir::Kernel toolkit = load_kernel(options(zoo::folder() + name, "toolkit"));
    for (int i = 0; i < 4; ++i) {
      std::string what;
      const ir::Launch launch = zoo::random_launch(builtin, rng, 4, 2, 80, what);
      SCOPED_TRACE(what);
      const auto a = zoo::replay_unless_refused(builtin, launch, {});
      const auto b = zoo::replay_unless_refused(toolkit, launch, {});
      ASSERT_EQ(a.has_value(), b.has_value());
      if (!a) continue;
      ASSERT_EQ(a->statements.size(), b->statements.size());
      for (std::size_t s = 0; s < a->statements.size(); ++s)
        EXPECT_TRUE(a->statements[s] == b->statements[s]) << "statement " << s;
    }
  }
}

TEST_F(ToolkitRouteTest, HostCodeWithLaunchesAndTheRuntimeApiParses) {
  SKIP_WITHOUT_TOOLKIT();
  const std::string file = write("host.cu", R"(
#include <cuda_runtime.h>
#include <cstdio>
__global__ void add(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1;
}
int main() {
  int* d = nullptr;
  cudaMalloc(&d, 1024 * sizeof(int));
  cudaMemset(d, 0, 1024 * sizeof(int));
  add<<<4, 256>>>(d, 1024);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  cudaFree(d);
  return 0;
}
)");
  std::vector<std::string> notes;
  const ir::Kernel k = load_kernel(options(file, "toolkit"), &notes);
  EXPECT_TRUE(notes.empty()) << notes.front();
  EXPECT_EQ(k.name, "add");
}

TEST_F(ToolkitRouteTest, RefusalsKeepFileLineColumn) {
  SKIP_WITHOUT_TOOLKIT();
  const std::string file = write("bad.cu", R"(
__global__ void bad(const float* a, int* out) {
  int i = threadIdx.x;
  if (atomicExch(i > 0 ? out : out + 1, 1) > 0) out[i] = 1;
}
)");
  try {
    load_kernel(options(file, "toolkit"));
    FAIL() << "a data-dependent branch must be refused";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()).rfind(file + ":4:3: data-dependent branch", 0), 0u) << e.what();
  }
  const std::string broken = write("broken.cu", "__global__ void k(int* a) {\n  a[0] = 1\n}\n");
  try {
    load_kernel(options(broken, "toolkit"));
    FAIL() << "a syntax error must be refused";
  } catch (const ClangDiagnostics& e) {
    EXPECT_NE(std::string(e.what()).find(broken + ":2:11: error: expected ';'"), std::string::npos)
        << e.what();
  }
}

TEST_F(ToolkitRouteTest, AUserFolderWithItsOwnCudaHDoesNotHideTheToolkits) {
  SKIP_WITHOUT_TOOLKIT();
  write("inc/cuda.h", "#error \"the user's cuda.h\"\n");
  const std::string file = write("k.cu", "__global__ void k(int* a) { a[threadIdx.x] = 1; }\n");
  FrontendOptions o = options(file, "toolkit");
  o.include_dirs = {(dir_ / "inc").string()};
  EXPECT_EQ(load_kernel(o).name, "k");
}

TEST_F(ToolkitRouteTest, ChoosingTheRoute) {
  const std::string file = write("k.cu", "__global__ void k(int* a) { a[threadIdx.x] = 1; }\n");
  FrontendOptions o = options(file, "nvcc");
  try {
    load_kernel(o);
    FAIL() << "an unknown route must be refused";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("builtin, toolkit, auto"), std::string::npos) << e.what();
  }
  // auto without a toolkit: the built-in prelude; toolkit without one: refused, naming the folder.
  o.cuda_headers = "auto";
  o.cuda_path = (dir_ / "no-cuda").string();
  EXPECT_EQ(load_kernel(o).name, "k");
  o.cuda_headers = "toolkit";
  try {
    load_kernel(o);
    FAIL() << "a missing toolkit must be refused";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("no CUDA Toolkit at " + o.cuda_path), std::string::npos) << e.what();
  }
  // Headers alone (a Python wheel's layout: include/ without bin/ or nvvm/libdevice/): not an
  // installation Clang takes. auto reads the file with the built-in prelude; toolkit refuses,
  // naming what is missing (Clang's own driver error would name neither).
  const std::filesystem::path headers = dir_ / "headers-only";
  std::filesystem::create_directories(headers / "include");
  std::ofstream(headers / "include" / "cuda_runtime.h") << "#error not read\n";
  o.cuda_path = headers.string();
  o.cuda_headers = "auto";
  EXPECT_EQ(load_kernel(o).name, "k");
  o.cuda_headers = "toolkit";
  try {
    load_kernel(o);
    FAIL() << "a headers-only folder must be refused";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("(" + o.cuda_path +
                                         "/bin is missing; Clang needs the toolkit's "
                                         "include/, bin/ and nvvm/libdevice/)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
