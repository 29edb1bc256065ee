// Speed of the IR replay (sim/engine/ir_replay.hpp) on a tiled matrix multiply written as IR
// (tests/sim/tiled_matmul_ir.hpp). Target: at least 1e8 warp-statement evaluations per
// second on the 2-core machine at 2048^3, T = 32. Counted: every statement but `{ }` blocks, so
// the figure is the rows a report shows, not padded by grouping.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "sim/engine/ir_replay.hpp"
#include "tests/sim/tiled_matmul_ir.hpp"

namespace {

using namespace warpdiv::sim::ir;

// Args: width (J = K = L), tile, threads (0 = all cores).
void BM_IrReplayTiled(benchmark::State& state) {
  const auto width = static_cast<std::int32_t>(state.range(0));
  const auto tile = static_cast<std::uint32_t>(state.range(1));
  const testing::TiledMatmulIr t = testing::tiled_matmul_ir(static_cast<int>(tile));
  Launch launch;
  launch.block = Dim3{tile, tile, 1};
  const auto blocks = static_cast<std::uint32_t>((width + tile - 1) / tile);
  launch.grid = Dim3{blocks, blocks, 1};
  launch.warp_size = 32;
  launch.arguments.resize(t.kernel.parameters.size());
  for (int p :
       {testing::TiledMatmulIr::kParamJ, testing::TiledMatmulIr::kParamK, testing::TiledMatmulIr::kParamL})
    launch.arguments[p] = Value::of(ScalarType::I32, width);
  ReplayOptions options;
  options.threads = static_cast<unsigned>(state.range(2));
  double evaluations = 0;
  for (auto _ : state) {
    const ReplayResult r = replay(t.kernel, launch, options);
    evaluations = 0;
    for (std::size_t i = 0; i < r.statements.size(); ++i)
      if (t.kernel.stmts[i].kind != StmtKind::Block)
        evaluations += warpdiv::sim::to_double(r.statements[i].warp_evaluations);
    benchmark::DoNotOptimize(r);
  }
  state.counters["warp_statement_evaluations"] = evaluations;
  state.counters["evaluations_per_s"] =
      benchmark::Counter(evaluations * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(std::to_string(width) + "^3 T=" + std::to_string(tile) +
                 (state.range(2) == 0 ? " all cores" : " threads=" + std::to_string(state.range(2))));
}
BENCHMARK(BM_IrReplayTiled)
    ->Args({2048, 32, 0})
    ->Args({2048, 32, 1})
    ->Args({1024, 32, 1})
    ->Args({1000, 16, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
