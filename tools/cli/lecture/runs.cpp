// The work of the lecture's forms: its table (analyze), its launches spread over the cores
// (sweep), and its validation on GPU 0 (validate).
#include "tools/cli/lecture/runs.hpp"

#include <algorithm>
#include <random>
#include <thread>
#include <vector>

#include "analysis/lecture/lecture_source.hpp"
#include "kernels/lecture/tiled_matmul.hpp"
#include "sim/support/parallel.hpp"
#include "tools/cli/lecture/device_occupancy.hpp"
#include "tools/cli/runs.hpp"
#include "tools/cli/terminal.hpp"

namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

namespace {

/// The lecture's launches compared warp by warp: up to this many warp evaluations.
constexpr std::int64_t kLectureWarpRecords = 32'000'000;

}  // namespace

lecture::DivergenceResult run_analyze(const AnalyzeRequest& request, std::string& note) {
  switch (request.engine) {
    case LectureEngine::exact:
      return analysis::lecture_counts(request.config);
    case LectureEngine::replay:
      return analysis::lecture_replay(request.config, ir::ReplayOptions{});
    case LectureEngine::all:
      break;
  }
  return analysis::lecture_all_engines(request.config, note);
}

std::size_t run_sweep_lecture(const analysis::SweepPlan& plan,
                              const std::function<void(const analysis::SweepRow&)>& take,
                              const std::function<bool()>& stop) {
  ProgressBar progress("sweep", "launches", plan.launches());
  // Launches are counted in chunks, each chunk's launches spread over the cores, and taken in
  // order; a stop is seen between chunks (a chunk takes well under a second).
  const std::size_t workers = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t chunk = 16 * workers;
  std::vector<std::vector<analysis::SweepRow>> results(chunk);
  std::size_t done = 0;
  while (done < plan.launches() && !stop()) {
    const std::size_t n = std::min(chunk, plan.launches() - done);
    sim::parallel_for(n, static_cast<unsigned>(workers), [&](std::size_t i, unsigned) {
      results[i] = analysis::sweep_rows(analysis::lecture_counts(plan.launch(done + i), 1));
    });
    for (std::size_t i = 0; i < n; ++i)
      for (const analysis::SweepRow& row : results[i]) take(row);
    done += n;
    progress.update(done);
  }
  progress.finish();
  return done;
}

analysis::ValidationRecord run_validate(const ValidateRequest& request, const std::atomic<bool>* stop) {
  const lecture::LaunchConfig& config = request.config;
  const ir::Kernel& model = analysis::lecture_model();
  const ir::Launch launch = analysis::lecture_source_launch(model, config);
  ValidateSourceRequest probe_request;
  // Up to 32 M warp evaluations (512 MB of records each side) the lecture's table of the GPU is
  // built, warp by warp; beyond, the statements' totals are compared.
  probe_request.record_limit = kLectureWarpRecords;
  probe_request.compare_outputs = false;  // the real kernel runs below, on random inputs
  probe_request.max_evaluations = ir::ReplayOptions{}.max_evaluations;
  const ValidateSourceReport probe = run_validate_source(probe_request, model, launch, stop);

  analysis::ValidationRecord record;
  record.device = probe.record.device;
  record.compute_capability = probe.record.compute_capability;
  record.driver = probe.record.driver;
  record.runtime = probe.record.runtime;
  record.date = probe.record.date;
  record.seed = request.seed;
  record.repeats = request.repeats;
  record.model = analysis::lecture_counts(config);
  if (probe.warp_by_warp) {
    record.hardware = analysis::lecture_table(model, config, probe.gpu.warps);
    record.count_differences = analysis::compare_counts(record.model, *record.hardware);
  }
  record.probe.nvrtc = probe.gpu.nvrtc_version;
  record.probe.warp_by_warp = probe.warp_by_warp;
  record.probe.comparison = probe.record.comparison;
  record.probe.outcome = probe.record.outcome;

  // The real kernel, on inputs drawn from the seed.
  kernels::TiledMatmul gpu({config.rows, config.inner, config.cols, config.tile});
  std::mt19937_64 rng(request.seed);
  const std::vector<float> m = analysis::random_matrix(config.rows, config.inner, rng);
  const std::vector<float> n = analysis::random_matrix(config.inner, config.cols, rng);
  gpu.upload(m, n);
  record.product = analysis::check_product(config, m, n, gpu.run(), rng);
  record.occupancy = occupancy_both_ways(device_spec(probe.device), gpu.resources(), config.tile);
  record.kernel_ms = analysis::median(gpu.time(request.repeats));
  return record;
}

}  // namespace warpdiv::cli
