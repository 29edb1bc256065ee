// The work of `warpdiv sweep FILE.cu`: a source kernel's launches one by one.
#include <algorithm>
#include <iostream>
#include <thread>

#include "sim/support/errors.hpp"
#include "sim/support/parallel.hpp"
#include "tools/cli/runs.hpp"
#include "tools/cli/terminal.hpp"

namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

std::size_t SweepSourceRequest::launches() const {
  std::size_t total = blocks.size();
  for (const SweptArg& a : args) total *= a.values.size();
  for (const SweptData& d : data) total *= d.files.size();
  return total;
}

analysis::SourceSweepLaunch SweepSourceRequest::launch(std::size_t i, ArgValues& values) const {
  std::size_t rest = i;
  analysis::SourceSweepLaunch l;
  l.data.resize(data.size());
  for (std::size_t k = data.size(); k-- > 0;) {
    const auto& files = data[k].files;
    l.data[k] = files[rest % files.size()];
    rest /= files.size();
  }
  l.args.resize(args.size());
  for (std::size_t k = args.size(); k-- > 0;) {
    const auto& v = args[k].values;
    l.args[k] = v[rest % v.size()];
    values[args[k].name] = l.args[k];
    rest /= v.size();
  }
  const Extent3& block = blocks[rest];
  values[kSweepBlockNames[0]] = block.x;
  values[kSweepBlockNames[1]] = block.y;
  values[kSweepBlockNames[2]] = block.z;
  const Extent3 grid = parse_extent("--grid", grid_text, values);
  check_grid("--grid", grid);
  l.grid = to_dim3(grid);
  l.block = to_dim3(block);
  l.warp_size = warp_size;
  return l;
}

analysis::SourceSweepPlan SweepSourceRequest::plan() const {
  analysis::SourceSweepPlan plan;
  for (const SweptArg& a : args) {
    plan.arg_names.push_back(a.name);
    if (a.values.size() > 1) plan.swept.push_back(a.name);
  }
  for (const SweptData& d : data) plan.data_names.push_back(d.name);
  if (blocks.size() > 1) plan.swept.push_back("block");
  return plan;
}

namespace {

// Launch i of the sweep, bound to the kernel; `described` receives its values. Made twice
// (checked, then counted) rather than held: a million launches would hold hundreds of MB.
ir::Launch sweep_launch(const SweepSourceRequest& request, const ir::Kernel& kernel, std::size_t i,
                        analysis::SourceSweepLaunch& described) {
  ArgValues values;
  described = request.launch(i, values);
  ir::Launch launch;
  launch.grid = described.grid;
  launch.block = described.block;
  launch.warp_size = request.warp_size;
  // `values` also holds the swept block's sizes (block_x ...) for --grid; they name no parameter.
  launch.arguments = bind_arguments(
      kernel, values,
      request.grid_text + " " + kSweepBlockNames[0] + " " + kSweepBlockNames[1] + " " + kSweepBlockNames[2]);
  launch.buffer_bytes = bind_allocs(kernel, request.allocs);
  std::vector<std::string> data;
  for (std::size_t k = 0; k < request.data.size(); ++k)
    data.push_back(request.data[k].name + "=" + described.data[k]);
  bind_data(kernel, data, launch);
  ir::validate(launch, kernel);
  return launch;
}

}  // namespace

void check_sweep_launches(const SweepSourceRequest& request, const ir::Kernel& kernel) {
  analysis::SourceSweepLaunch described;
  for (std::size_t i = 0; i < request.launches(); ++i) {
    const ir::Launch launch = sweep_launch(request, kernel, i, described);
    if (i == 0) {  // every launch gives the same parameters
      ArgValues values;
      request.launch(i, values);
      ir::check_floating_values(kernel, given_parameters(kernel, values),
                                ir::buffers_with_values(kernel, launch));
    }
  }
}

SourceSweepOutcome run_sweep_source(
    const SweepSourceRequest& request, const ir::Kernel& kernel,
    const std::function<void(const analysis::SourceSweepLaunch&, const analysis::SourceReport&)>& take,
    const std::atomic<bool>* stop, const std::function<bool()>& failed) {
  ir::ReplayOptions replay_options;
  replay_options.stop = stop;
  replay_options.max_evaluations = request.max_evaluations;
  const analysis::SourceReportOptions report_options;
  const std::size_t total = request.launches();
  ProgressBar progress("sweep", "launches", total);
  SourceSweepOutcome outcome;
  bool noted = false;  // the fallback to the replay is said once, not per launch
  for (; outcome.launches < total && !failed() && !stop->load(); ++outcome.launches) {
    analysis::SourceSweepLaunch described;
    const ir::Launch launch = sweep_launch(request, kernel, outcome.launches, described);
    analysis::SourceReport report;
    try {
      SourceCounts counts = count_source(kernel, launch, replay_options, request.engine);
      check_bounds(kernel, launch, counts);  // an access out of a given buffer: exit 2, no file
      report = analysis::make_source_report(kernel, launch, counts.result, report_options);
      if ((!counts.note.empty() || !counts.result.races_unchecked.empty()) && !noted) {
        progress.finish();
        print_count_notes(counts);
        noted = true;
      }
    } catch (const Interrupted&) {
      break;  // the launch in hand is dropped; the finished ones stay
    }
    take(described, report);
    for (const analysis::SourceRow& r : report.rows) outcome.rows += r.iteration ? 0 : 1;
    progress.update(outcome.launches + 1);
  }
  progress.finish();
  return outcome;
}

}  // namespace warpdiv::cli
