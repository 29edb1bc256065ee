// One block of the class engine, run on a machine with its recorder: its warps by classes where
// the analysis allows, else one by one.
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/classes/ir_class_detail.hpp"

namespace warpdiv::sim::ir::detail {

namespace {

// Thresholds of one record that warps not run may add, when the two ends' ranges span more block
// indices than this: the block's warps are run one by one instead.
constexpr Wide kMaxFilledThresholds = 16;

// `log` holds warp 0's run alone: it becomes that of warps 0 .. n-1 running alike (counts n
// times, warp 0's rows of outcomes copied to the others').
void copy_first_warp(IterationLog& log, std::uint64_t n, std::size_t warps) {
  if (n == 1) return;
  const auto copy_rows = [&](std::vector<WarpOutcome>& rows) {
    if (rows.empty()) return;
    const std::size_t width = rows.size() / warps;
    for (std::uint64_t w = 1; w < n; ++w)
      std::copy(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(width),
                rows.begin() + static_cast<std::ptrdiff_t>(w * width));
  };
  copy_rows(log.outcomes);
  for (LoopLog& loop : log.loops)
    for (IterationPiece& p : loop.pieces) {
      for (StatementCounts& c : p.counts) {
        const StatementCounts one = c;
        c = StatementCounts{};
        add_scaled(c, one, n);
      }
      copy_rows(p.outcomes);
    }
}

// A block's runs recorded more than kMaxTraceEntries comparisons.
[[noreturn]] void refuse_records() {
  ClassRefusal why;
  why.location = "<launch>";
  why.what = "a block's comparisons";
  why.reason = "are recorded more than " + std::to_string(kMaxTraceEntries) +
               " times (a loop that does not run as classes of iterations), more than the class engine keeps";
  throw ClassesUnproven(why);
}

// One warp's run in a block run by classes of warps.
struct WarpRun {
  bool ran = false;
  bool logged = false;  // ran with the log
  Tally tally;          // statements only: no counts by iteration with warp classes
  ClassTrace trace;
};
using Intervals = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

// The two ends of every interval of warps recorded the same trace and counts, and the block
// ranges of their records span few enough indices: those go into `filled` (the breakpoints of
// the warps between). False when the warps do not fall into classes that way.
bool ends_agree(const LaunchPlan& program, const std::vector<WarpRun>& runs, const Intervals& intervals,
                std::array<std::vector<std::uint64_t>, 3>& filled) {
  const std::uint64_t grid[3] = {program.launch.grid.x, program.launch.grid.y, program.launch.grid.z};
  for (const auto& [first, last] : intervals) {
    if (first == last) continue;
    const WarpRun& a = runs[first];
    const WarpRun& b = runs[last];
    if (!(a.trace.entries == b.trace.entries) || a.tally.evaluations != b.tally.evaluations) return false;
    for (std::size_t s = 0; s < program.kernel.stmts.size(); ++s)
      if (!(a.tally.statements[s] == b.tally.statements[s])) return false;
    if (last - first < 2) continue;
    const auto& ra = a.trace.block_ranges;
    const auto& rb = b.trace.block_ranges;
    if (ra.size() != rb.size()) return false;
    for (std::size_t i = 0; i < ra.size(); ++i) {
      if (ra[i].dim != rb[i].dim) return false;
      const int d = ra[i].dim;
      const Wide from = std::max<Wide>(std::min(ra[i].from, rb[i].from), 1);
      const Wide to = std::min<Wide>(std::max(ra[i].to, rb[i].to), Wide{grid[d]} - 1);
      if (to - from + 1 > kMaxFilledThresholds) return false;
      for (Wide at = from; at <= to; ++at)
        filled[static_cast<std::size_t>(d)].push_back(static_cast<std::uint64_t>(at));
    }
  }
  return true;
}

// Fills `r` from the warps run as running every warp would, but for the order of the
// breakpoints: each interval's first warp stands for the interval.
void add_warp_classes(const ClassProgram& classes, const std::vector<WarpRun>& runs,
                      const Intervals& intervals, const std::array<std::vector<std::uint64_t>, 3>& filled,
                      BlockRun& r) {
  const LaunchPlan& program = classes.program;
  const std::size_t stmts = program.kernel.stmts.size();
  std::size_t entries = 0;
  for (const auto& [first, last] : intervals)
    entries += runs[first].trace.entries.size() * (last - first + 1);
  if (entries > kMaxTraceEntries) refuse_records();
  r.trace.entries.reserve(entries);
  for (const auto& [first, last] : intervals) {
    const WarpRun& rep = runs[first];
    const std::uint64_t n = last - first + 1;
    for (std::size_t s = 0; s < stmts; ++s) add_scaled(r.tally.statements[s], rep.tally.statements[s], n);
    r.tally.evaluations += product(rep.tally.evaluations, n);
    r.tally.warps += n;
    if (classes.memory) {
      // Warp first + j stands for warps whose addresses are j x the warp coefficient further on.
      for (std::size_t a = 0; a < classes.compiled.size(); ++a) {
        const CompiledAccess* ca = classes.compiled[a];
        if (ca == nullptr) continue;
        const AccessShift& sh = classes.shifts[a];
        add_residues(*ca, r.tally.accesses[a], r.tally.shifted.data() + ca->shifted_at, rep.tally.accesses[a],
                     rep.tally.shifted.data() + ca->shifted_at, residue_histogram(sh, sh.warp, 0, n - 1));
      }
      for (std::size_t s = 0; s < stmts; ++s) add_product(r.tally.flops[s], rep.tally.flops[s], n);
    }
    for (std::uint64_t k = 0; k < n; ++k)
      r.trace.entries.insert(r.trace.entries.end(), rep.trace.entries.begin(), rep.trace.entries.end());
  }
  for (int w = 0; w < program.warps_per_block; ++w) {
    const WarpRun& x = runs[static_cast<std::size_t>(w)];
    if (!x.ran) continue;
    if (classes.memory) merge_faults_and_extents(r.tally, x.tally);
    for (int d = 0; d < 3; ++d)
      r.trace.breakpoints[d].insert(r.trace.breakpoints[d].end(), x.trace.breakpoints[d].begin(),
                                    x.trace.breakpoints[d].end());
  }
  for (int d = 0; d < 3; ++d)
    r.trace.breakpoints[d].insert(r.trace.breakpoints[d].end(), filled[d].begin(), filled[d].end());
}

// Warp 0's log stands for its class; the other classes' first warps run again with the log,
// each standing for its class, unless they ran with it (classes of one warp).
void log_warp_classes(ClassMachine& m, const std::vector<WarpRun>& runs, const Intervals& intervals,
                      IterationLog& log, BlockRun& r) {
  const LaunchPlan& program = m.machine.program();
  copy_first_warp(log, intervals.front().second + 1, static_cast<std::size_t>(program.warps_per_block));
  thread_local Tally scratch;
  thread_local ClassTrace trace;
  scratch.statements.resize(program.kernel.stmts.size());
  m.recorder.set_trace(&trace);
  m.recorder.set_log(&log);
  for (const auto& [first, last] : intervals) {
    if (first == 0 || runs[first].logged) continue;
    m.recorder.set_log_copies(static_cast<std::uint32_t>(last - first + 1));
    trace.clear();
    m.machine.run_warp(static_cast<int>(first), scratch, true);
    r.warps_run += 1;
  }
}

// The block's warps by classes, as its blocks are found: intervals of warp indices whose ends'
// comparisons put the next breakpoint (a lane's outcome changing) beyond them run their two ends
// only; equal ends stand for the warps between (every comparison in them is affine in the warp
// index, so each lane's outcome keeps its value from end to end). The block's breakpoints from
// those warps lie between the ends' (a - b of each lane is monotonic in the warp index): the
// whole range goes in. Fills `r` as running every warp would, but for the order of the
// breakpoints; false when the warps do not fall into classes that way (nothing in `r` changed
// but warps_run, and the log as it was).
bool run_warp_classes(ClassMachine& m, const ClassProgram& classes, IterationLog* log, BlockRun& r) {
  const LaunchPlan& program = m.machine.program();
  const int warps = program.warps_per_block;
  // [warp]; kept from block to block on each thread, so that their vectors keep their storage.
  thread_local std::vector<WarpRun> runs;
  if (runs.size() < static_cast<std::size_t>(warps)) runs.resize(static_cast<std::size_t>(warps));
  for (int w = 0; w < warps; ++w) runs[static_cast<std::size_t>(w)].ran = false;
  std::set<std::uint64_t> starts{0};
  std::size_t recorded = 0;  // the warps' records together
  // Warp 0 starts a class whatever the others do: it runs with the log, which is then its alone
  // (copy_first_warp makes it stand for its class). Once warp 0's class is warp 0 alone, a warp
  // that is a class by itself (intervals only split) runs with the log too.
  const auto alone = [&](std::uint64_t w) {
    return starts.count(w) != 0 && (w + 1 == static_cast<std::uint64_t>(warps) || starts.count(w + 1) != 0);
  };
  const auto run = [&](std::uint64_t w) -> const WarpRun& {
    WarpRun& x = runs[w];
    if (x.ran) return x;
    x.ran = true;
    x.logged = log != nullptr && (w == 0 || (alone(0) && alone(w)));
    x.tally.statements.assign(program.kernel.stmts.size(), StatementCounts{});
    size_memory(x.tally, classes);
    x.tally.evaluations = 0;
    x.tally.warps = 0;
    x.trace.clear();
    m.recorder.set_trace(&x.trace);
    m.recorder.set_log(x.logged ? log : nullptr);
    m.machine.run_warp(static_cast<int>(w), x.tally, true);
    r.warps_run += 1;
    recorded += x.trace.entries.size();
    if (recorded > kMaxTraceEntries) refuse_records();
    return x;
  };
  Intervals intervals;
  for (bool grew = true; grew;) {
    intervals.clear();
    for (auto it = starts.begin(); it != starts.end(); ++it) {
      const auto next = std::next(it);
      intervals.emplace_back(*it, (next == starts.end() ? static_cast<std::uint64_t>(warps) : *next) - 1);
    }
    grew = false;
    for (const auto& [first, last] : intervals)
      for (const std::uint64_t w : {first, last})
        for (const std::uint64_t at : run(w).trace.warp_breakpoints) grew |= starts.insert(at).second;
  }
  std::array<std::vector<std::uint64_t>, 3> filled;
  if (!ends_agree(program, runs, intervals, filled)) {
    // Not in classes: the log (which warp 0 ran with) is empty again, for the warps one by one.
    if (log != nullptr) {
      for (LoopLog& loop : log->loops) loop = LoopLog{};
      std::fill(log->outcomes.begin(), log->outcomes.end(), WarpOutcome::NotReached);
    }
    return false;
  }
  add_warp_classes(classes, runs, intervals, filled, r);
  if (log != nullptr) log_warp_classes(m, runs, intervals, *log, r);
  return true;
}

}  // namespace

IterationLog new_log(const Kernel& kernel, const ClassProgram& classes) {
  IterationLog log;
  log.loops.resize(classes.loop_shapes.size());
  const std::size_t cells = static_cast<std::size_t>(classes.program.warps_per_block) * kernel.stmts.size();
  if (cells <= kMaxOutcomeCells) log.outcomes.assign(cells, WarpOutcome::NotReached);
  return log;
}

BlockRun run_block(ClassMachine& m, const ClassProgram& classes, const ReplayOptions& options,
                   const Corner& c, IterationLog* log) {
  // The recorder records nothing after the block, whichever way it ends.
  struct Detach {
    ClassRecorder& r;
    ~Detach() {
      r.set_trace(nullptr);
      r.set_log(nullptr);
      r.set_log_copies(1);
    }
  } detach{m.recorder};
  const LaunchPlan& program = classes.program;
  BlockRun r;
  r.tally.statements.resize(program.kernel.stmts.size());
  r.tally.iterations.resize(program.kernel.stmts.size());
  size_memory(r.tally, classes);
  m.machine.begin_block(c[0], c[1], c[2]);
  try {
    if (classes.warp_classes && run_warp_classes(m, classes, log, r)) {
      m.machine.end_block(r.tally);
      return r;
    }
    m.recorder.set_trace(&r.trace);
    m.recorder.set_log(log);
    for (int w = 0; w < program.warps_per_block; ++w) {
      const bool counted = !options.only_warp || *options.only_warp == static_cast<std::uint32_t>(w);
      if (!counted && program.barriers == 0) continue;
      m.machine.run_warp(w, r.tally, counted);
      r.warps_run += 1;
    }
  } catch (const IterationClassMismatch& e) {
    ClassRefusal why;
    why.location = "<launch>";
    why.what = "a loop's iterations";
    why.reason = std::string("do not fall into classes: ") + e.what();
    throw ClassesUnproven(why);
  }
  m.machine.end_block(r.tally);
  return r;
}

}  // namespace warpdiv::sim::ir::detail
