// Speed of the lecture shorthand (targets in BENCHMARKS.md): the lecture source counted by the
// class engine per launch at any size, by the SIMT replay in warp-phases per second, and `warpdiv
// analyze` on the 2^31-1 cube as a whole process. (The hand-written lecture engines that these
// replaced are test oracles now: tests/oracle/.)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/lecture/lecture_source.hpp"

namespace {

using warpdiv::lecture::LaunchConfig;

constexpr std::int64_t kMaxSize = warpdiv::lecture::limits::kMaxSize;  // 2^31 - 1

// Args: width, tile, warp size. Target: under 1 ms per launch at any size.
void BM_LectureCounts(benchmark::State& state) {
  const LaunchConfig config = LaunchConfig::square(state.range(0), static_cast<int>(state.range(1)),
                                                   static_cast<int>(state.range(2)));
  for (auto _ : state) benchmark::DoNotOptimize(warpdiv::analysis::lecture_counts(config));
  state.SetLabel(std::to_string(state.range(0)) + "^3 T=" + std::to_string(state.range(1)) +
                 " S=" + std::to_string(state.range(2)));
}
BENCHMARK(BM_LectureCounts)
    ->Args({100, 16, 32})
    ->Args({100, 32, 32})
    ->Args({4097, 16, 32})
    ->Args({4097, 32, 32})
    ->Args({kMaxSize, 16, 32})
    ->Args({kMaxSize, 32, 32})
    // The most warps a block can have: T = 32 with one-lane warps, 1024 warps per block.
    ->Args({kMaxSize, 32, 1})
    ->Unit(benchmark::kMicrosecond);

// Args: width, tile, threads (0 = all cores). Reports warp-phases per second (one warp-phase =
// one warp in one phase: its three phase-loop checks and every other statement of the phase, the
// T iterations of the inner product included) and warp-statement evaluations per second.
void BM_LectureReplay(benchmark::State& state) {
  const LaunchConfig config = LaunchConfig::square(state.range(0), static_cast<int>(state.range(1)));
  warpdiv::sim::ir::ReplayOptions options;
  options.threads = static_cast<unsigned>(state.range(2));
  const double warp_phases = warpdiv::sim::to_double(warpdiv::lecture::Geometry(config).warp_phases());
  const double evaluations = warpdiv::sim::to_double(warpdiv::analysis::lecture_replay_cost(config));
  for (auto _ : state) benchmark::DoNotOptimize(warpdiv::analysis::lecture_replay(config, options));
  state.counters["warp_phases_per_s"] =
      benchmark::Counter(warp_phases * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["evaluations_per_s"] =
      benchmark::Counter(evaluations * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(std::to_string(state.range(0)) + "^3 T=" + std::to_string(state.range(1)) +
                 (state.range(2) == 0 ? " all cores" : " threads=" + std::to_string(state.range(2))));
}
BENCHMARK(BM_LectureReplay)
    ->Args({1000, 32, 0})
    ->Args({1000, 32, 1})
    ->Args({2000, 16, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();  // the replay's worker threads do not show in the main thread's CPU time

// `warpdiv analyze --rows 2147483647 --inner 2147483647 --cols 2147483647 --tile 32 --csv F` as a
// whole process: start, parse, exact engine, report, CSV, exit. Target: under 50 ms.
void BM_AnalyzeProcess(benchmark::State& state) {
  char csv_template[] = "/tmp/warpdiv-bench-XXXXXX";
  const int fd = ::mkstemp(csv_template);
  if (fd < 0) {
    state.SkipWithError("mkstemp failed");
    return;
  }
  ::close(fd);
  std::vector<std::string> args = {WARPDIV_BINARY, "analyze",    "--rows", "2147483647",
                                   "--inner",      "2147483647", "--cols", "2147483647",
                                   "--tile",       "32",         "--csv",  csv_template};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  for (auto _ : state) {
    pid_t pid = 0;
    if (::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
      state.SkipWithError("cannot start " WARPDIV_BINARY);
      break;
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("warpdiv analyze failed");
      break;
    }
  }
  posix_spawn_file_actions_destroy(&actions);
  ::unlink(csv_template);
}
BENCHMARK(BM_AnalyzeProcess)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
