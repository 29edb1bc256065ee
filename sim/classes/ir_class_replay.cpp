// class_replay(): the partition of the grid into boxes, refined at the breakpoints that the
// corners' runs find until every box's corners agree; the corner runs fanned out to helpers.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sim/classes/ir_class_detail.hpp"
#include "sim/engine/ir_prerun.hpp"
#include "sim/memory/shared_races.hpp"
#include "sim/support/parallel.hpp"

namespace warpdiv::sim::ir {

namespace {

using detail::BlockRun;
using detail::Box;
using detail::ClassMachine;
using detail::ClassProgram;
using detail::Corner;
using detail::IterationLog;
using detail::kMaxClasses;
using detail::kMaxLoggedOutcomes;
using detail::kMaxRounds;

// A round's corner runs go to the helper threads as well when they are estimated (from the longest
// run so far) to take at least this long in all: waking a helper and giving it a machine of its
// own costs some tens of microseconds.
constexpr std::chrono::steady_clock::duration kParallelRoundWork = std::chrono::microseconds(150);

// The corners of a box (each once where the box is one block wide).
std::vector<Corner> corners(const Box& b) {
  std::vector<Corner> out;
  for (int m = 0; m < 8; ++m) {
    Corner c{};
    bool duplicate = false;
    for (int d = 0; d < 3; ++d) {
      const bool high = (m >> d & 1) != 0;
      if (high && b.first[d] == b.last[d]) duplicate = true;
      c[d] = static_cast<std::uint32_t>(high ? b.last[d] : b.first[d]);
    }
    if (!duplicate) out.push_back(c);
  }
  return out;
}

// The partition of the grid into boxes, refined at the breakpoints its corners' runs find until
// every box's corners agree (then every block of a box behaves as its corners do).
class Refinement {
 public:
  Refinement(const ClassProgram& classes, const ReplayOptions& options, ClassMachine& machine)
      : classes_(classes),
        options_(options),
        grid_{classes.program.launch.grid.x, classes.program.launch.grid.y, classes.program.launch.grid.z},
        workers_(std::max(1u, options.threads != 0 ? options.threads : std::thread::hardware_concurrency())),
        machine_(machine),
        own_(workers_) {
    for (auto& s : starts_) s.insert(0);
  }
  // Refines the partition for at most kMaxRounds rounds; false when it does not settle.
  bool settle();
  // Runs the representatives that ran without a log (a later breakpoint made them a start) again.
  void log_representatives();
  const std::vector<Box>& boxes() const { return boxes_; }
  std::map<Corner, BlockRun>& runs() { return runs_; }
  std::uint64_t warps_replayed() const { return warps_replayed_; }

 private:
  void run_all(const std::vector<Corner>& wanted);
  std::vector<BlockRun> prepare_logs(const std::vector<Corner>& missing);
  const BlockRun& run(const Corner& c) {
    if (runs_.count(c) == 0) run_all({c});
    return runs_.at(c);
  }
  std::vector<std::pair<std::uint64_t, std::uint64_t>> intervals(int d) const;
  bool grow();
  bool uniform();

  const ClassProgram& classes_;
  const ReplayOptions& options_;
  const std::uint64_t grid_[3];
  // Per grid dimension, the first blocks of the intervals found so far.
  std::array<std::set<std::uint64_t>, 3> starts_;
  std::map<Corner, BlockRun> runs_;
  std::vector<Box> boxes_;
  std::uint64_t warps_replayed_ = 0;
  std::size_t stored_entries_ = 0;  // trace entries of runs_, all together
  std::size_t logged_outcomes_ = 0;
  std::chrono::steady_clock::duration longest_{0};  // the longest corner run so far
  unsigned workers_;
  ClassMachine& machine_;  // the caller's (worker 0)
  // [worker]: the helpers' machines, made when first needed (each by its worker) and kept for the
  // later rounds.
  std::vector<std::unique_ptr<ClassMachine>> own_;
};

// A corner that starts an interval in every dimension, or is the grid's last block in it (often a
// class of its own once the first breakpoints are in), may represent a class: it runs with a log,
// whose iterations and outcomes become its class's (the whole-run outcomes of all runs together
// stay within kMaxLoggedOutcomes bytes). The others only check that their boxes are uniform:
// their logs would be thrown away.
std::vector<BlockRun> Refinement::prepare_logs(const std::vector<Corner>& missing) {
  std::vector<BlockRun> done(missing.size());
  for (std::size_t i = 0; i < missing.size(); ++i) {
    BlockRun& r = done[i];
    r.logged = true;
    for (int d = 0; d < 3; ++d)
      r.logged = r.logged && (starts_[d].count(missing[i][d]) != 0 || missing[i][d] + 1 == grid_[d]);
    if (!r.logged) continue;
    r.log = detail::new_log(classes_.program.kernel, classes_);
    if (logged_outcomes_ + r.log.outcomes.size() > kMaxLoggedOutcomes) r.log.outcomes.clear();
    logged_outcomes_ += r.log.outcomes.size();
  }
  return done;
}

// Runs the corners of `wanted` that have not run yet. With more than one worker the runs also go
// to the helper threads (sim/support/parallel.hpp), each with a machine of its own (the program is shared
// read-only, as the replay shares it). Budgets, results and errors are taken in the corners'
// order, so the outcome is the sequential one whatever the timing.
void Refinement::run_all(const std::vector<Corner>& wanted) {
  std::vector<Corner> missing;
  for (const Corner& c : wanted)
    if (runs_.count(c) == 0 && std::find(missing.begin(), missing.end(), c) == missing.end())
      missing.push_back(c);
  std::vector<BlockRun> done = prepare_logs(missing);
  std::vector<std::chrono::steady_clock::duration> took(missing.size());
  const auto work = [&](std::size_t i, unsigned worker) {
    if (options_.stop != nullptr && options_.stop->load(std::memory_order_relaxed))
      throw Interrupted("replay interrupted");
    if (worker != 0 && !own_[worker]) own_[worker] = std::make_unique<ClassMachine>(classes_);
    ClassMachine& m = worker == 0 ? machine_ : *own_[worker];
    const auto began = std::chrono::steady_clock::now();
    const bool logged = done[i].logged;
    IterationLog log = std::move(done[i].log);
    done[i] = detail::run_block(m, classes_, options_, missing[i], logged ? &log : nullptr);
    done[i].log = std::move(log);
    done[i].logged = logged;
    took[i] = std::chrono::steady_clock::now() - began;
  };
  // The first run of all says how long a run takes; the rest go to the helpers as well when
  // they should take long enough in all to pay for waking them.
  std::size_t first = 0;
  if (longest_ == std::chrono::steady_clock::duration{0} && missing.size() >= 2 && workers_ >= 2) {
    work(0, 0);
    longest_ = took[0];
    first = 1;
  }
  const std::size_t rest = missing.size() - first;
  const bool parallel =
      workers_ >= 2 && rest >= 2 && longest_ * static_cast<long>(rest) >= kParallelRoundWork;
  parallel_for(rest, parallel ? workers_ : 1,
               [&](std::size_t i, unsigned worker) { work(first + i, worker); });
  for (const auto& t : took) longest_ = std::max(longest_, t);
  for (std::size_t i = 0; i < missing.size(); ++i) {
    warps_replayed_ += done[i].warps_run;
    stored_entries_ += done[i].trace.entries.size();
    runs_.emplace(missing[i], std::move(done[i]));
  }
  if (stored_entries_ > detail::kMaxStoredTraceEntries) {
    ClassRefusal why;
    why.location = "<launch>";
    why.what = "the blocks the class engine runs";
    why.reason =
        "record more than " + std::to_string(detail::kMaxStoredTraceEntries) +
        " comparisons together (long loops that do not run as classes of iterations), more than it keeps";
    throw ClassesUnproven(why);
  }
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> Refinement::intervals(int d) const {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (auto it = starts_[d].begin(); it != starts_[d].end(); ++it) {
    auto next = std::next(it);
    out.emplace_back(*it, (next == starts_[d].end() ? grid_[d] : *next) - 1);
  }
  return out;
}

// Adds the breakpoints the boxes' corners found; true when a new interval starts.
bool Refinement::grow() {
  bool grew = false;
  for (const Box& b : boxes_)
    for (const Corner& c : corners(b))
      for (int d = 0; d < 3; ++d)
        for (std::uint64_t at : run(c).trace.breakpoints[d]) grew |= starts_[d].insert(at).second;
  return grew;
}

// Every box's corners recorded the same trace (equal traces mean equal paths; equal counts are
// checked as well, defensively).
bool Refinement::uniform() {
  const std::size_t stmts = classes_.program.kernel.stmts.size();
  bool settled = true;
  for (const Box& b : boxes_) {
    const auto cs = corners(b);
    const BlockRun& first = run(cs.front());
    for (std::size_t i = 1; i < cs.size(); ++i) {
      const BlockRun& other = run(cs[i]);
      if (!(other.trace.entries == first.trace.entries)) settled = false;
      for (std::size_t s = 0; s < stmts && settled; ++s) {
        const StatementCounts& x = first.tally.statements[s];
        const StatementCounts& y = other.tally.statements[s];
        settled = x.warp_evaluations == y.warp_evaluations && x.divergent == y.divergent &&
                  x.active_lanes == y.active_lanes && x.taken_lanes == y.taken_lanes &&
                  x.block_executions == y.block_executions &&
                  x.partial_block_executions == y.partial_block_executions;
      }
    }
  }
  return settled;
}

bool Refinement::settle() {
  for (int round = 0; round < kMaxRounds; ++round) {
    const auto ix = intervals(0), iy = intervals(1), iz = intervals(2);
    if (ix.size() * iy.size() * iz.size() > kMaxClasses) return false;
    boxes_.clear();
    for (const auto& z : iz)
      for (const auto& y : iy)
        for (const auto& x : ix)
          boxes_.push_back(Box{{x.first, y.first, z.first}, {x.second, y.second, z.second}});
    std::vector<Corner> wanted;
    for (const Box& b : boxes_)
      for (const Corner& c : corners(b)) wanted.push_back(c);
    run_all(wanted);
    if (grow()) continue;
    return uniform();
  }
  return false;
}

void Refinement::log_representatives() {
  std::vector<Corner> unlogged;
  for (const Box& b : boxes_) {
    const Corner rep = b.representative();
    if (!runs_.at(rep).logged) unlogged.push_back(rep);
  }
  for (const Corner& c : unlogged) runs_.erase(c);
  if (!unlogged.empty()) run_all(unlogged);
}

// Why the memory figures are unproven when a run met a fault: its message. Block (0, 0, 0) runs
// first, alone, on the caller's machine: a fault it met is the run's first, whatever the threads
// did after. Else the corners run again one by one, in order, counting every access (on a
// machine without the flag that stops at the first fault), until one faults.
std::string fault_met(const ClassProgram& classes, const ReplayOptions& options, Refinement& refinement,
                      bool& out_of_bounds) {
  const auto with_reason = [&out_of_bounds](const detail::MemoryFault& f) {
    out_of_bounds = f.out_of_bounds;
    return f.message + ", and which block meets such a fault first takes the replay";
  };
  const auto first = [](const BlockRun& r) -> const detail::MemoryFault* {
    for (const detail::MemoryFault& f : r.tally.faults)
      if (f.met) return &f;
    return nullptr;
  };
  const auto zero = refinement.runs().find(Corner{0, 0, 0});
  if (zero != refinement.runs().end())
    if (const detail::MemoryFault* f = first(zero->second)) return with_reason(*f);
  detail::RunContext unflagged = classes.run;
  unflagged.fault_flag = nullptr;
  ClassMachine m(classes, unflagged);
  std::set<Corner> done;
  for (const Box& b : refinement.boxes())
    for (const Corner& c : corners(b)) {
      if (!done.insert(c).second) continue;
      const BlockRun r = detail::run_block(m, classes, options, c, nullptr);
      if (const detail::MemoryFault* f = first(r)) return with_reason(*f);
    }
  return "an access faults in some block, and which block meets such a fault first takes the replay";
}

}  // namespace

namespace {

// Undefined behaviour that probes of single threads (sim/engine/ir_prerun.hpp) find, named as the replay
// names the lowest block that meets it.
void name_probed_undefined(const Kernel& kernel, const Launch& launch, const ReplayOptions& options) {
  BlockRange grid;
  grid.last = Dim3{launch.grid.x - 1, launch.grid.y - 1, launch.grid.z - 1};
  const PreRun pre = pre_run(kernel, launch, grid, options.only_warp, true);
  if (!pre.undefined.empty()) throw located(Diag::undefined_arithmetic, kernel, pre.undefined);
}

// Undefined behaviour a corner run met (the corners are the grid's last blocks as often as its
// first): where the probes find it in a lower block, that one is named instead.
void name_first_undefined(const Kernel& kernel, const Launch& launch, const ReplayOptions& options,
                          const InvalidInput& met) {
  if (met.diag() == Diag::undefined_arithmetic) name_probed_undefined(kernel, launch, options);
}

// Each block the class engine runs has the whole budget; a launch whose first block alone makes
// more, as its probes prove (class_engine_floor), is refused before it runs, as the replay refuses
// one: undefined behaviour that the probes' search of the grid finds, or that the first block meets
// in a trial run of a moment, is named instead.
void refuse_before_running(const Kernel& kernel, const Launch& launch, const ReplayOptions& options,
                           detail::RunContext& run, const ClassProgram& classes, ClassMachine& machine) {
  std::vector<bool> compressed(kernel.stmts.size(), false);
  for (std::size_t i = 0; i < compressed.size() && i < classes.accelerated.size(); ++i)
    compressed[i] = classes.accelerated[i].has_value();
  // Warp 0 runs first in every block; with warps by classes, a warp of each class after it.
  const PreRun floor =
      class_engine_floor(kernel, launch, options.only_warp, compressed, !classes.warp_classes);
  if (floor.least_evaluations <= options.max_evaluations) return;
  const InvalidInput over(Diag::evaluation_budget,
                          "the class engine would make at least " + to_decimal(floor.least_evaluations) +
                              " warp-statement evaluations" + floor.longest_loop + ", above its budget of " +
                              to_decimal(options.max_evaluations) + " (--max-evaluations)");
  name_probed_undefined(kernel, launch, options);
  const std::uint64_t cap = run.evaluation_cap;
  run.evaluation_cap = std::min(kTrialEvaluations, cap);
  try {
    detail::run_block(machine, classes, options, Corner{0, 0, 0}, nullptr);
  } catch (const ClassesUnproven&) {
    throw;
  } catch (const InvalidInput& e) {
    if (e.diag() == Diag::undefined_arithmetic || e.diag() == Diag::endless_loop) throw;
  }
  run.evaluation_cap = cap;
  throw over;
}

}  // namespace

ClassReplayResult class_replay(const Kernel& kernel, const Launch& launch, const ClassPlan& plan,
                               const ReplayOptions& options) {
  if (!plan.ok()) throw ClassesUnproven(*plan.refusal);
  if (!plan.analysis) throw InternalError("class_replay: a plan without its analysis");
  validate(kernel);
  validate(launch, kernel, plan.limits);
  ClassReplayResult single;
  if (options.only_block) {
    ReplayOptions one = options;
    one.grid_limits = plan.limits;
    single = detail::one_block(kernel, launch, one);
  }
  // Memory figures where the plan proves them (the addresses affine in what the classes stand
  // for); else none, and the result says why.
  const detail::ClassAnalysis& analysis = *plan.analysis;
  const bool memory = options.memory && analysis.memory_refusal.empty();
  ReplayOptions run_options = options;
  run_options.memory = memory;
  run_options.events =
      nullptr;  // the runs stand for warps they are not: no event stream (ReplayOptions::events)
  const std::vector<detail::AccessShift> shifts =
      memory ? analysis.shifts : std::vector<detail::AccessShift>{};
  const detail::LaunchPlan program(std::make_shared<const Kernel>(kernel), launch,
                                   detail::class_plan_options(run_options, analysis.tracked, shifts));
  detail::RunContext run = detail::run_context(program, launch, run_options);
  if (options.only_warp && *options.only_warp >= static_cast<std::uint32_t>(program.warps_per_block))
    throw InvalidInput(Diag::flag_value,
                       "warp " + std::to_string(*options.only_warp) + " does not exist (a block of " +
                           std::to_string(launch.block.volume()) + " threads has warps 0 to " +
                           std::to_string(program.warps_per_block - 1) + ")");
  // Warps by classes, but not where each warp is wanted on its own (an observer, one warp, counts
  // by iteration). A block's barrier executions are the extremes of its warps' arrivals: the
  // warps run give them, as a class's warps arrive alike.
  // With memory figures, warps (loops) whose accesses move other than affinely from one to the
  // next run one by one.
  const bool warp_classes = analysis.warp_classes && options.observer == nullptr && !options.only_warp &&
                            !options.by_iteration && !(memory && analysis.memory_warp_wild);
  std::vector<std::optional<detail::AcceleratedLoop>> accelerated = analysis.accelerated;
  if (memory)
    for (const StmtId loop : analysis.memory_wild_loops) accelerated[static_cast<std::size_t>(loop)].reset();
  const ClassProgram classes(program, run, analysis.tracked, std::move(accelerated), warp_classes, memory,
                             shifts);
  if (memory) run.fault_flag = &classes.memory_faulted;
  run.evaluation_cap = options.max_evaluations > Count{~std::uint64_t{0} >> 2}
                           ? ~std::uint64_t{0} >> 2
                           : static_cast<std::uint64_t>(options.max_evaluations);
  ClassMachine machine(classes);
  if (!options.only_block) refuse_before_running(kernel, launch, options, run, classes, machine);
  if (options.only_block) {
    // The block was replayed; its run by classes gives its iteration classes (none when its
    // loops do not fall into classes).
    const Dim3 b = *options.only_block;
    IterationLog log = detail::new_log(kernel, classes);
    try {
      detail::run_block(machine, classes, options, Corner{b.x, b.y, b.z}, &log);
      detail::attach_log(single.classes.front(), classes, log);
    } catch (const ClassesUnproven&) {
    }
    return single;
  }
  Refinement refinement(classes, options, machine);
  bool settled = false;
  try {
    settled = refinement.settle();
  } catch (const InvalidInput& e) {
    name_first_undefined(kernel, launch, options, e);
    throw;
  }
  if (!settled) {
    ClassRefusal why;
    why.location = "<launch>";
    why.what = "the blocks";
    why.reason = "do not fall into at most " + std::to_string(kMaxClasses) +
                 " boxes of intervals per grid dimension (a condition that mixes block indices, "
                 "such as blockIdx.x + blockIdx.y < n?)";
    throw ClassesUnproven(why);
  }
  // A representative whose block ended an interval when it ran (a later breakpoint made it a
  // start) runs again, with its log.
  refinement.log_representatives();
  ClassReplayResult result = detail::assemble(classes, refinement.boxes(), refinement.runs());
  if (options.memory && !memory) result.memory_unproven = analysis.memory_refusal;
  if (memory && !result.memory_counted)
    result.memory_unproven = fault_met(classes, options, refinement, result.memory_out_of_bounds);
  result.blocks_replayed = refinement.runs().size();
  result.warps_replayed = refinement.warps_replayed();
  // Races by address in the first and last block.
  result.races_unchecked = check_shared_addresses(
      kernel, launch, options,
      BlockRange{Dim3{0, 0, 0}, Dim3{launch.grid.x - 1, launch.grid.y - 1, launch.grid.z - 1}});
  if (options.blocks_done != nullptr)
    options.blocks_done->fetch_add(static_cast<std::uint64_t>(result.blocks));
  return result;
}

ClassReplayResult class_replay(const Kernel& kernel, const Launch& launch, const ReplayOptions& options,
                               GridLimits limits) {
  return class_replay(kernel, launch, plan_classes(kernel, launch, limits), options);
}

}  // namespace warpdiv::sim::ir
