// Speed of the class engine (the target: under 1 ms per launch for every zoo kernel at its
// largest legal size): plan_classes() + class_replay() of each kernels/zoo/*.cu, read once by the
// Clang front-end (not timed), at the largest launch its header's grid formula allows within
// CUDA's limits (grid x up to 2^31 - 1, y and z up to 65,535) and without the index arithmetic
// wrapping around.
// BM_ReplayMemory: the replay with memory figures as native code (jit/), warp accesses
// (requests) per second, on the zoo kernels that access memory most; the interpreter with its
// fast path for offsets (BM_ReplayMemoryInterpreted) and lane by lane (BM_ReplayMemoryLanes);
// native code without memory (BM_ReplayNoMemory); what compiling a model costs (BM_NativeCompile).
#include <cstring>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/frontend/frontend.hpp"
#include "sim/support/errors.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#ifdef WARPDIV_HAVE_NATIVE_REPLAY
#include "jit/native_replay.hpp"
#endif

namespace {

using namespace warpdiv::sim::ir;

struct ZooLaunch {
  const char* file;
  Dim3 grid;
  Dim3 block;
  std::map<std::string, std::int64_t> arguments;  // scalar parameters by name
  const char* folder = "/kernels/zoo/";           // under the source tree
};

constexpr std::int64_t kIntMax = 2147483647;
constexpr const char* kBlindSpots = "/tests/kernels/blind_spots/";

// The launches (derivations beside each).
const ZooLaunch kLaunches[] = {
    // grid ((width-1)/14+1, (height-1)/14+1): width = 2^31-1 gives 153,391,689 block columns;
    // height = 65,535 * 14 gives 65,535 block rows.
    {"convolution_2d.cu", {153391689, 65535, 1}, {16, 16, 1}, {{"width", kIntMax}, {"height", 917490}}},
    // grid ((nx+7)/8, (ny+7)/8, (nz+3)/4) with nx + 7 <= 2^31 - 1: nx = 2^31 - 8.
    {"early_return_3d.cu",
     {268435455, 65535, 65535},
     {8, 8, 4},
     {{"nx", kIntMax - 7}, {"ny", 524273}, {"nz", 262137}}},
    // n + blockDim.x * gridDim.x <= 2^31 keeps i += stride from wrapping: n = 2^30, 2^22 blocks
    // of 128 (two elements per thread).
    {"grid_stride_loop.cu", {4194304, 1, 1}, {128, 1, 1}, {{"n", 1073741824}, {"a", 2}}},
    // grid ((w-1)/16+1, (h-1)/16+1): w = 2^31 - 1, h = 65,535 * 16.
    {"image_blur.cu", {134217728, 65535, 1}, {16, 16, 1}, {{"w", kIntMax}, {"h", 1048560}}},
    // Width = 2^31 - 1: 134,217,728 block columns; the first 65,535 block rows (CUDA's limit).
    {"naive_matmul.cu", {134217728, 65535, 1}, {16, 16, 1}, {{"Width", kIntMax}}},
    {"reduction_contiguous.cu", {2147483647, 1, 1}, {256, 1, 1}, {}},
    {"reduction_interleaved.cu", {2147483647, 1, 1}, {256, 1, 1}, {}},
    // 134,217,728 phases per block.
    {"tiled_matmul.cu", {134217728, 65535, 1}, {16, 16, 1}, {{"Width", kIntMax}}},
    {"tiled_matmul_barrier_in_guard.cu", {134217728, 65535, 1}, {16, 16, 1}, {{"Width", kIntMax}}},
    // The rectangular tiled multiply, at its header's 16 x 16 blocks: L = K = 2^31 - 1, J = 65,535 * 16.
    {"tiled_matmul_rect.cu",
     {134217728, 65535, 1},
     {16, 16, 1},
     {{"J", 1048560}, {"K", kIntMax}, {"L", kIntMax}}},
    // The memory kernels. grid (n+511)/512: n = 2^31 (unsigned: i + blockDim.x stays below
    // 2^32).
    {"cg_reduction.cu", {4194304, 1, 1}, {256, 1, 1}, {{"n", 2147483648}}},
    // i * stride within int: n = (2^31 - 1) / 3 with stride 3, grid (n + 127) / 128.
    {"strided_load.cu", {5592406, 1, 1}, {128, 1, 1}, {{"n", 715827882}, {"stride", 3}}},
    // (y + j) * width + x within int: width 1,024, height 65,535 * 32 (grid y at CUDA's limit).
    {"tiled_transpose.cu", {32, 65535, 1}, {32, 8, 1}, {{"width", 1024}, {"height", 2097120}}},
    {"transpose_bank_conflicts.cu", {32, 65535, 1}, {32, 8, 1}, {{"width", 1024}, {"height", 2097120}}},
    // n4 = 2^31 - 1 float4s, blocks of 128.
    {"vector_copy.cu", {16777216, 1, 1}, {128, 1, 1}, {{"n4", kIntMax}}},
    // The class engine's former blind spots (tests/kernels/blind_spots/): the grid-stride loop at the largest
    // grid and n = 2^63 - 1 (each lane 2^22 or 2^22 + 1 iterations); the unsigned stencils at
    // N = 3,000 (grid 376^3 of 8^3); the transpose that reassigns its indices at 46,336^2 (the
    // largest multiple of 32 whose square stays an int).
    {"grid_stride_fill.cu", {2147483647, 1, 1}, {1024, 1, 1}, {{"n", 9223372036854775807}}, kBlindSpots},
    {"stencil_unsigned.cu", {376, 376, 376}, {8, 8, 8}, {{"N", 3000}}, kBlindSpots},
    {"stencil_shifted.cu", {376, 376, 376}, {8, 8, 8}, {{"N", 3000}}, kBlindSpots},
    {"transpose_reassigned.cu",
     {1448, 1448, 1},
     {32, 32, 1},
     {{"width", 46336}, {"height", 46336}},
     kBlindSpots},
    // The unsigned 5-point stencil at N = 40,000 (its bounds check keeps (i - 1) * N + j from
    // wrapping); the row softmax with rows = 2^31 - 1 and C = 1: grid 2^31 - 1 / 32 blocks of 32.
    {"stencil_2d.cu", {2500, 2500, 1}, {16, 16, 1}, {{"N", 40000}}},
    {"softmax_rows.cu", {67108864, 1, 1}, {32, 1, 1}, {{"rows", kIntMax}, {"C", 1}}},
};

Launch launch_of(const Kernel& kernel, const ZooLaunch& z) {
  Launch launch;
  launch.grid = z.grid;
  launch.block = z.block;
  for (const Parameter& p : kernel.parameters) {
    const auto it = z.arguments.find(p.name);
    launch.arguments.push_back(p.scalar ? Value::of(p.type, it != z.arguments.end() ? it->second : 0)
                                        : Value{});
  }
  return launch;
}

// With memory figures (the default; counter memory_counted 1 where the class engine proved
// them) or without (BM_ClassEngineNoMemory: memory should cost at most 2x).
void BM_ClassEngine(benchmark::State& state, const ZooLaunch& z, bool memory) {
  warpdiv::frontend::FrontendOptions o;
  o.file = std::string(WARPDIV_SOURCE_DIR) + z.folder + z.file;
  const Kernel kernel = warpdiv::frontend::load_kernel(o);
  const Launch launch = launch_of(kernel, z);
  ReplayOptions options;
  options.memory = memory;
  std::size_t classes = 0;
  double replayed = 0, warps = 0, counted = 0;
  for (auto _ : state) {
    const ClassPlan plan = plan_classes(kernel, launch);
    if (!plan.ok()) {
      state.SkipWithError(plan.refusal->message().c_str());
      return;
    }
    const ClassReplayResult r = class_replay(kernel, launch, plan, options);
    classes = r.classes.size();
    replayed = static_cast<double>(r.blocks_replayed);
    warps = static_cast<double>(r.warps_replayed);
    counted = r.memory_counted ? 1 : 0;
    benchmark::DoNotOptimize(r.warp_statement_evaluations);
  }
  state.counters["classes"] = static_cast<double>(classes);
  state.counters["blocks_replayed"] = replayed;
  state.counters["warps_replayed"] = warps;
  if (memory) state.counters["memory_counted"] = counted;
}

// Launches for the replay's memory figures: every warp of every block, each access evaluated
// lane by lane.
const ZooLaunch kReplayLaunches[] = {
    // 32 x 32 blocks of 16 x 16 at Width 512: 8,192 warps x 512 k x 2 loads.
    {"naive_matmul.cu", {32, 32, 1}, {16, 16, 1}, {{"Width", 512}}},
    // 32 phases of 2 global and 2 x 16 shared loads per warp.
    {"tiled_matmul.cu", {32, 32, 1}, {16, 16, 1}, {{"Width", 512}}},
    // 2,048 x 2,048 floats through a padded 32 x 33 tile.
    {"tiled_transpose.cu", {64, 64, 1}, {32, 8, 1}, {{"width", 2048}, {"height", 2048}}},
    {"convolution_2d.cu", {74, 74, 1}, {16, 16, 1}, {{"width", 1024}, {"height", 1024}}},
};

// kMemory: native code (jit/native_replay.hpp; ReplayOptions::native Always: compiled in the first
// iteration, compile_ms says how long that took); kInterpreted: the interpreter with its fast path
// for offsets (sim/engine/ir_lane_pattern.hpp); kLanes: the interpreter with every offset lane by lane
// (ReplayOptions::affine_offsets = false, the reference); kNoMemory: native code with no access
// evaluated (the statements alone, the floor under the others).
enum class ReplayMode { kMemory, kInterpreted, kLanes, kNoMemory };

void BM_ReplayMemory(benchmark::State& state, const ZooLaunch& z, ReplayMode mode) {
  warpdiv::frontend::FrontendOptions o;
  o.file = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/" + z.file;
  const Kernel kernel = warpdiv::frontend::load_kernel(o);
  const Launch launch = launch_of(kernel, z);
  ReplayOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.memory = mode != ReplayMode::kNoMemory;
  options.affine_offsets = mode != ReplayMode::kLanes;
  const bool interpreted = mode == ReplayMode::kInterpreted || mode == ReplayMode::kLanes;
  options.native = interpreted ? NativeReplay::Off : NativeReplay::Always;
#ifdef WARPDIV_HAVE_NATIVE_REPLAY
  const double compiled_before = warpdiv::jit::native_stats().compile_seconds;
#endif
  const auto requests_of = [](const ReplayResult& r) {
    double n = 0;
    for (const AccessCounts& c : r.accesses) n += warpdiv::sim::to_double(c.requests);
    return n;
  };
  double requests = 0, evaluations = 0, affine = 0;
  bool native = false;
  // Without memory the requests are the launch's all the same (counted once, untimed): the
  // rate then says how fast the statements alone go, in the same unit.
  if (mode == ReplayMode::kNoMemory) requests = requests_of(replay(kernel, launch, ReplayOptions{}));
  for (auto _ : state) {
    const ReplayResult r = replay(kernel, launch, options);
    if (mode != ReplayMode::kNoMemory) requests = requests_of(r);
    evaluations = warpdiv::sim::to_double(r.warp_statement_evaluations);
    affine = warpdiv::sim::to_double(r.affine_requests);
    native = r.native;
    benchmark::DoNotOptimize(r);
  }
  state.counters["native"] = native ? 1 : 0;
#ifdef WARPDIV_HAVE_NATIVE_REPLAY
  if (!native && !interpreted) state.SetLabel(warpdiv::jit::native_stats().last_refusal);
  if (!interpreted)
    state.counters["compile_ms"] = 1000 * (warpdiv::jit::native_stats().compile_seconds - compiled_before);
#endif
  state.counters["warp_accesses"] = requests;
  if (mode == ReplayMode::kInterpreted) state.counters["affine_share"] = requests > 0 ? affine / requests : 0;
  state.counters["warp_accesses_per_s"] =
      benchmark::Counter(requests * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["evaluations_per_s"] =
      benchmark::Counter(evaluations * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

#ifdef WARPDIV_HAVE_NATIVE_REPLAY
// BM_NativeCompile: what compiling a kernel model for the native replay costs (once per model and
// process): each iteration renames the kernel, so that the compiler's cache misses, and replays
// one block of the launch as native code.
void BM_NativeCompile(benchmark::State& state, const ZooLaunch& z) {
  warpdiv::frontend::FrontendOptions o;
  o.file = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/" + z.file;
  Kernel kernel = warpdiv::frontend::load_kernel(o);
  Launch launch = launch_of(kernel, z);
  launch.grid = {1, 1, 1};
  ReplayOptions options;
  options.threads = 1;
  options.native = NativeReplay::Always;
  const std::string name = kernel.name;
  static int renamed = 0;
  bool native = true;
  for (auto _ : state) {
    kernel.name = name + "_" + std::to_string(++renamed);
    native = native && replay(kernel, launch, options).native;
  }
  state.counters["native"] = native ? 1 : 0;
}
#endif

// BM_ReplayData: the replay with values, on a CSR matrix of about 10^6
// nonzeros made here (200,000 rows of 1 to 9 nonzeros, a few of 300: lengths from a fixed linear
// congruential sequence, so every run counts the same launch), read by the CSR SpMV kernels of
// kernels/zoo/data/: one thread per row (blocks of 128) and one warp per row. Rate: warp-statement
// evaluations per second (the target: 5 x 10^7 on 2 cores).
struct CsrBench {
  std::shared_ptr<const std::string> row_ptr, col_idx;
  std::int32_t rows = 0;
};

const CsrBench& csr_bench() {
  static const CsrBench m = [] {
    CsrBench c;
    c.rows = 200000;
    std::string rp, ci;
    std::uint64_t state = 12345;
    const auto next = [&] {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return state >> 33;
    };
    const auto put = [](std::string& s, std::int32_t v) {
      for (int b = 0; b < 4; ++b)
        s.push_back(static_cast<char>((static_cast<std::uint32_t>(v) >> (8 * b)) & 0xFF));
    };
    std::int32_t nnz = 0;
    put(rp, 0);
    for (std::int32_t r = 0; r < c.rows; ++r) {
      const std::uint64_t pick = next() % 1000;
      const std::int32_t length = pick < 3 ? 300 : static_cast<std::int32_t>(1 + pick % 9);
      for (std::int32_t j = 0; j < length; ++j)
        put(ci, static_cast<std::int32_t>(next() % static_cast<std::uint64_t>(c.rows)));
      nnz += length;
      put(rp, nnz);
    }
    c.row_ptr = std::make_shared<const std::string>(std::move(rp));
    c.col_idx = std::make_shared<const std::string>(std::move(ci));
    return c;
  }();
  return m;
}

// Replays `launch` once per iteration (native code per `native`: Auto, the default, interprets a
// launch this small unless its model is compiled); the counter is warp-statement evaluations per
// second.
void replay_rate(benchmark::State& state, const Kernel& kernel, const Launch& launch,
                 NativeReplay native = NativeReplay::Auto) {
  ReplayOptions options;
  options.native = native;
  double evaluations = 0;
  bool ran_native = false;
  for (auto _ : state) {
    const ReplayResult r = replay(kernel, launch, options);
    evaluations = warpdiv::sim::to_double(r.warp_statement_evaluations);
    ran_native = r.native;
    benchmark::DoNotOptimize(r);
  }
  state.counters["native"] = ran_native ? 1 : 0;
  state.counters["evaluations_per_s"] =
      benchmark::Counter(evaluations * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_ReplayData(benchmark::State& state, const char* file, bool warp_per_row,
                   NativeReplay native = NativeReplay::Auto) {
  warpdiv::frontend::FrontendOptions o;
  o.file = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/data/" + file;
  const Kernel kernel = warpdiv::frontend::load_kernel(o);
  const CsrBench& m = csr_bench();
  Launch launch;
  const std::uint64_t threads = std::uint64_t{static_cast<std::uint32_t>(m.rows)} * (warp_per_row ? 32 : 1);
  launch.grid = {static_cast<std::uint32_t>((threads + 127) / 128), 1, 1};
  launch.block = {128, 1, 1};
  launch.buffer_bytes.assign(kernel.parameters.size(), 0);
  launch.buffer_data.assign(kernel.parameters.size(), nullptr);
  for (std::size_t i = 0; i < kernel.parameters.size(); ++i) {
    const Parameter& p = kernel.parameters[i];
    launch.arguments.push_back(p.scalar ? Value::of(p.type, m.rows) : Value{});
    if (p.name == "row_ptr" || p.name == "col_idx") {
      launch.buffer_data[i] = p.name == "row_ptr" ? m.row_ptr : m.col_idx;
      launch.buffer_bytes[i] = launch.buffer_data[i]->size();
    }
  }
  state.counters["nonzeros"] = static_cast<double>(m.col_idx->size() / 4);
  replay_rate(state, kernel, launch, native);
}

// BM_ReplayFloat: the replay with floating-point values deciding control flow:
// Mandelbrot (kernels/zoo/data/mandelbrot.cu) over the whole set at 512 x 512, blocks of 16 x 16,
// 256 iterations at most. Rate: warp-statement evaluations per second.
void BM_ReplayFloat(benchmark::State& state) {
  warpdiv::frontend::FrontendOptions o;
  o.file = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/data/mandelbrot.cu";
  const Kernel kernel = warpdiv::frontend::load_kernel(o);
  const auto f32 = [](float f) {
    std::uint32_t b = 0;
    std::memcpy(&b, &f, sizeof b);
    return Value{ScalarType::F32, b};
  };
  Launch launch;
  launch.grid = {32, 32, 1};
  launch.block = {16, 16, 1};
  launch.arguments = {Value{},
                      Value::of(ScalarType::I32, 512),
                      Value::of(ScalarType::I32, 512),
                      f32(-2.0f),
                      f32(-1.5f),
                      f32(0.005859375f),
                      f32(0.005859375f),
                      Value::of(ScalarType::I32, 256)};
  replay_rate(state, kernel, launch);
}

// What the replay's probes before the run cost (sim/engine/ir_prerun.hpp): the naive multiply on 2^31 - 1
// x 65,535 blocks with Width = 2^31 - 1, refused at once (the overflow in M's address and the
// budget) where the replay's sample blocks ran into the budget after 81 s.
void BM_ReplayRefusedBeforeRunning(benchmark::State& state) {
  warpdiv::frontend::FrontendOptions o;
  o.file = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/naive_matmul.cu";
  const Kernel kernel = warpdiv::frontend::load_kernel(o);
  const Launch launch =
      launch_of(kernel, {"naive_matmul.cu", {2147483647, 65535, 1}, {16, 16, 1}, {{"Width", kIntMax}}});
  for (auto _ : state) {
    try {
      replay(kernel, launch);
      state.SkipWithError("the replay ran");
    } catch (const warpdiv::InvalidInput&) {
    }
  }
}

int register_all() {
  benchmark::RegisterBenchmark("BM_ReplayRefusedBeforeRunning/naive_matmul", BM_ReplayRefusedBeforeRunning)
      ->Unit(benchmark::kMillisecond);
#ifdef WARPDIV_HAVE_NATIVE_REPLAY
  warpdiv::jit::install_native_replay();
#endif
  for (const ZooLaunch& z : kLaunches)
    benchmark::RegisterBenchmark((std::string("BM_ClassEngine/") + z.file).c_str(), [&z](
                                                                                        benchmark::State& s) {
      BM_ClassEngine(s, z, true);
    })->Unit(benchmark::kMicrosecond);
  for (const ZooLaunch& z : kLaunches)
    benchmark::RegisterBenchmark((std::string("BM_ClassEngineNoMemory/") + z.file).c_str(),
                                 [&z](benchmark::State& s) { BM_ClassEngine(s, z, false); })
        ->Unit(benchmark::kMicrosecond);
  const std::pair<const char*, ReplayMode> modes[] = {
      {"BM_ReplayMemory/", ReplayMode::kMemory},
      {"BM_ReplayMemoryInterpreted/", ReplayMode::kInterpreted},
      {"BM_ReplayMemoryLanes/", ReplayMode::kLanes},
      {"BM_ReplayNoMemory/", ReplayMode::kNoMemory}};
  for (const auto& [name, mode] : modes)
    for (const ZooLaunch& z : kReplayLaunches)
      benchmark::RegisterBenchmark((std::string(name) + z.file).c_str(),
                                   [&z, mode = mode](benchmark::State& s) { BM_ReplayMemory(s, z, mode); })
          ->Arg(0)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
#ifdef WARPDIV_HAVE_NATIVE_REPLAY
  for (const ZooLaunch& z : kReplayLaunches)
    benchmark::RegisterBenchmark((std::string("BM_NativeCompile/") + z.file).c_str(),
                                 [&z](benchmark::State& s) { BM_NativeCompile(s, z); })
        ->Unit(benchmark::kMillisecond);
#endif
  benchmark::RegisterBenchmark("BM_ReplayData/spmv_csr_scalar",
                               [](benchmark::State& s) { BM_ReplayData(s, "spmv_csr_scalar.cu", false); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("BM_ReplayFloat/mandelbrot", BM_ReplayFloat)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("BM_ReplayData/spmv_csr_vector",
                               [](benchmark::State& s) { BM_ReplayData(s, "spmv_csr_vector.cu", true); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  // The same with native code (its loads of row_ptr and col_idx read from the launch's data).
  benchmark::RegisterBenchmark(
      "BM_ReplayDataNative/spmv_csr_scalar",
      [](benchmark::State& s) { BM_ReplayData(s, "spmv_csr_scalar.cu", false, NativeReplay::Always); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark(
      "BM_ReplayDataNative/spmv_csr_vector",
      [](benchmark::State& s) { BM_ReplayData(s, "spmv_csr_vector.cu", true, NativeReplay::Always); })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  return 0;
}
const int registered = register_all();

}  // namespace

BENCHMARK_MAIN();
