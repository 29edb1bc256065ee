// The work of the lecture's forms of analyze, sweep and validate, from their requests
// (tools/cli/lecture/requests.hpp) to a report, as tools/cli/runs.hpp does for any kernel.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

#include "analysis/lecture/divergence.hpp"
#include "analysis/lecture/sweep_report.hpp"
#include "analysis/lecture/validation.hpp"
#include "tools/cli/lecture/requests.hpp"

namespace warpdiv::cli {

/// The lecture's table: the class engine, or the replay of every warp (--engine replay).
/// With --engine all, `note` says that the engines agree (Mismatch where they do not).
lecture::DivergenceResult run_analyze(const AnalyzeRequest& request, std::string& note);

/// Counts the plan's launches with the class engine, spread over the cores in chunks, and hands
/// each row to `take` in the plan's order, a chunk at a time; between chunks it stops once
/// `stop()` is true (Ctrl-C, a failed output). A progress bar of launches on a terminal. Returns
/// the number of launches done, all of whose rows were taken.
std::size_t run_sweep_lecture(const analysis::SweepPlan& plan,
                              const std::function<void(const analysis::SweepRow&)>& take,
                              const std::function<bool()>& stop);

/// The lecture on GPU 0 through the general path: the probe of lecture_model() at the lecture's
/// launch (run_validate_source), its warp trace seen as the lecture's table beside the model's, and
/// the real kernel (kernels/zoo/tiled_matmul_rect.cu, compiled in) run on random inputs, its P
/// checked against the host's product, its occupancy and time measured. Throws NoDevice (exit 3),
/// InvalidInput (a launch the GPU or this host cannot hold), Interrupted.
analysis::ValidationRecord run_validate(const ValidateRequest& request, const std::atomic<bool>* stop);

}  // namespace warpdiv::cli
