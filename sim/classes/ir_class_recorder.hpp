// The class engine's recorder (sim/engine/ir_recorder.hpp): what it adds to a replay of one block on the
// warp machine. It records the comparisons the analysis proved affine (their outcomes and where
// along each block index, the warp index and each accelerated loop's iterations they change: the
// class engine's breakpoints), runs accelerated loops as classes of iterations (the first and
// last of a class, the ones between added without running them), and keeps the iteration log of
// a block that may represent a class. Internal to the class engine (sim/ir_class_*.cpp).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_engine.hpp"
#include "sim/engine/ir_recorder.hpp"

namespace warpdiv::sim::ir::detail {

/// How a value moves along the block indices, the warp index and the variables of accelerated
/// loops (zero coefficients for the others).
struct AffineCoefficients {
  std::array<std::int64_t, 3> block_coefficient{};                 // d / d blockIdx.{x, y, z}
  std::int64_t warp_coefficient = 0;                               // d / d (warp index), with warp classes
  std::vector<std::pair<StmtId, std::int64_t>> loop_coefficients;  // (loop, d / d variable)
};

/// An operand of a tracked comparison whose value is its affine mathematical value M reduced
/// modulo 2^width (an int converted to unsigned, an unsigned subtraction that may go below 0):
/// M lies in [low, low + 2^width), so M = low + ((bits - low) mod 2^width), and the value the
/// comparison sees is M + a constant multiple of 2^width on each side of `wrap` (the one multiple
/// of 2^width in (low, high]). The recorder records where M - wrap changes sign, as for a
/// comparison M < wrap: within those breakpoints the comparison is affine.
struct WrapGuard {
  int side = 0;    // the comparison's operand 0 or 1
  int width = 64;  // bits of the operand's type
  __extension__ __int128 low = 0, wrap = 0;
  AffineCoefficients coefficients;  // dM / d symbol
};

/// A comparison a - b whose operands the class engine proved affine in the block indices and in
/// the variables of accelerated loops (`guards`: except where an operand wraps around).
struct TrackedComparison : AffineCoefficients {  // d(a - b) / d symbol
  std::vector<WrapGuard> guards;
};

/// A loop run as classes of iterations: its variable (uniform at entry) steps by `step`.
struct AcceleratedLoop {
  LocalId variable = kNone;
  std::int64_t step = 0;
  /// Counters: locals declared outside the loop that its body only steps (`x = x + e`, `x = x -
  /// e`, e the same in every iteration) and that nothing but those steps reads. A class of
  /// iterations sets them, lane by lane, to the value they reach before its last iteration.
  std::vector<LocalId> counters;
};

/// How an access's address moves from the run that the class engine replays to the runs it
/// stands for without replaying them (the other blocks of a class, warps of a class, iterations of
/// a class): its byte offset's coefficients along the block indices, the warp index and the
/// accelerated loops' variables (exact: the rest of the offset is the same in all of them),
/// reduced modulo `modulus`. An access's sectors do not change when every lane's address moves by
/// a multiple of 32 bytes (sectors are 32-byte aligned), nor its shared wavefronts when they move
/// by whole 4-byte words (the banks rotate: the same words meet in each bank): modulus 32 for
/// global accesses, 4 for shared ones. `count` residues, multiples of `step`, are followed.
struct AccessShift {
  std::int64_t modulus = 1;
  std::int64_t step = 1;                               // the gcd of modulus and the coefficients
  int count = 1;                                       // modulus / step
  std::array<std::int64_t, 3> block{};                 // bytes per block index, in [0, modulus)
  std::int64_t warp = 0;                               // bytes per warp, in [0, modulus)
  std::vector<std::pair<StmtId, std::int64_t>> loops;  // (loop, bytes per iteration, in [0, modulus))
};
/// c reduced modulo `modulus`, in [0, modulus).
__extension__ typedef __int128 Signed;
std::int64_t residue(Signed c, std::int64_t modulus);
__extension__ typedef unsigned __int128 Unsigned;
/// Runs per residue of an access (AccessShift::count of them, at most its modulus, 32): a fixed
/// array, so that the class engine makes none on the heap per class.
struct ResidueHistogram {
  static constexpr std::size_t kMost = 32;
  explicit ResidueHistogram(std::size_t residues) : size(residues) {
    for (std::size_t r = 0; r < size; ++r) runs[r] = 0;  // (only those: the rest is never read)
  }
  std::size_t size;
  std::array<Unsigned, kMost> runs;
  Unsigned& operator[](std::size_t r) { return runs[r]; }
  const Unsigned& operator[](std::size_t r) const { return runs[r]; }
};
/// hist[r] (r < a.count): how many j in [from, to] move the address by j x c bytes onto residue
/// r x a.step (mod a.modulus); c in [0, a.modulus), a multiple of a.step.
ResidueHistogram residue_histogram(const AccessShift& a, std::int64_t c, std::uint64_t from,
                                   std::uint64_t to);
/// The histogram of the sums (mod count) of a residue from `h` and one from `g`.
ResidueHistogram combine_histograms(const ResidueHistogram& h, const ResidueHistogram& g);
/// The figures of the runs that `d` (sectors or wavefronts at residue 0; `d_shifted`: at
/// residues 1 .. count - 1) stands for, moved by each residue of `hist` as many times as it
/// holds, added to `target` (and its residues to `target_shifted`; both residue pointers at the
/// access's own, Tally::shifted + a.shifted_at). Throws InvalidInput past 2^64.
void add_residues(const CompiledAccess& a, AccessCounts& target, std::uint64_t* target_shifted,
                  const AccessCounts& d, const std::uint64_t* d_shifted, const ResidueHistogram& hist);
/// The same, residue 0 only, as a launch's totals (128-bit, checked).
AccessCounts residue_totals(const CompiledAccess& a, const AccessCounts& d, const std::uint64_t* d_shifted,
                            const ResidueHistogram& hist);

/// One recorded comparison (id >= 0: its ExprId; lt / gt: the active lanes where a < b / a > b),
/// or (id < 0) a class of iterations of loop -(id + 1): iterations active .. lt run as one.
struct TraceEntry {
  std::int64_t id = 0;
  LaneMask active = 0;
  LaneMask lt = 0;
  LaneMask gt = 0;
};
bool operator==(const TraceEntry& a, const TraceEntry& b);

/// The most comparisons one block's runs record (32 bytes each; one trace, or its warps' traces
/// together with warp classes): past it (a long loop that does not run as classes of iterations
/// records every iteration) the class engine refuses the launch, so that its memory stays bounded,
/// and the replay counts it. kMaxStoredTraceEntries bounds the records that the runs kept for the
/// partition hold together.
constexpr std::size_t kMaxTraceEntries = std::size_t{1} << 21;
/// A loop whose variable differs by lane runs its first iterations without the bookkeeping that
/// a jump over iterations needs (ClassRecorder::iteration_class): 4.
constexpr std::uint64_t kByLaneFirstJump = 4;
constexpr std::size_t kMaxStoredTraceEntries = std::size_t{1} << 23;

/// What one block's replay recorded for the class engine.
struct ClassTrace {
  std::vector<TraceEntry> entries;
  /// Per grid dimension: block indices where some lane's outcome of some comparison can change
  /// (the first index of a new interval), unsorted, with repeats.
  std::array<std::vector<std::uint64_t>, 3> breakpoints;
  /// With warp classes: the warp indices where some lane's outcome can change, and for every
  /// recorded comparison with a block coefficient, in order, the range of block indices its
  /// active lanes' thresholds span (from the extremes of a - b; not clipped to the grid).
  std::vector<std::uint64_t> warp_breakpoints;
  struct BlockRange {
    int dim;
    __extension__ __int128 from, to;
  };
  std::vector<BlockRange> block_ranges;
  /// Sizes at which breakpoints / warp_breakpoints are next sorted and their repeats dropped
  /// (compact_breakpoints), so that a loop recording the same thresholds again and again does
  /// not grow them.
  std::array<std::size_t, 4> compact_at{};
  /// Empties every record, keeping the vectors' storage.
  void clear() {
    entries.clear();
    for (auto& b : breakpoints) b.clear();
    warp_breakpoints.clear();
    block_ranges.clear();
    compact_at = {};
  }
  /// Sorts the breakpoints that grew past their mark (kCompactFrom points at least) and drops the
  /// repeats; called as a vector reaches kCompactFrom points or more.
  void compact_breakpoints();
  static constexpr std::size_t kCompactFrom = 4096;
};

/// The class engine's record of one block's accelerated loops (ClassRecorder::set_log): per loop,
/// iterations 0 .. N cut into consecutive pieces in which every counted warp's per-iteration
/// counts of the statements inside the loop stay the same (summed over the loop's instances).
struct IterationPiece {
  std::uint64_t first = 0, last = 0;
  bool merged = false;                  // past kMaxIterationClasses pieces: totals only
  std::vector<StatementCounts> counts;  // [LoopShape position]: one iteration's (merged: the total)
  std::vector<WarpOutcome> outcomes;    // [warp * conditions + j]; empty when not kept or merged
};
struct LoopLog {
  std::vector<IterationPiece> pieces;  // consecutive, from iteration 0
  bool started = false;
  bool by_value = true;     // every instance started with the same uniform value
  std::uint64_t start = 0;  // the variable's bits at iteration 0
};
struct IterationLog {
  std::vector<LoopLog> loops;         // [index into ClassProgram::loop_shapes]
  std::vector<WarpOutcome> outcomes;  // [warp * stmts + StmtId] over the whole run, or empty
};
/// Merges neighbouring pieces that behave alike, and past kMaxIterationClasses pieces the last
/// ones into one merged piece (its counts the totals).
void compact(LoopLog& log);
/// The outcome of one warp's evaluations summed in `c` (NotReached when none).
WarpOutcome outcome_of(const StatementCounts& c);
/// The outcome of two sets of evaluations together.
WarpOutcome combine(WarpOutcome a, WarpOutcome b);

/// A class of iterations that did not behave as its first iteration (the analysis was wrong):
/// the class engine turns it into a refusal.
class IterationClassMismatch : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// The class engine's additions to a launch plan, shared (read-only) by every recorder of a run.
struct ClassProgram {
  /// Finds the shapes of the accelerated loops of `program`, a plan compiled with
  /// class_plan_options (its tracked comparisons recorded, its accesses following their residues),
  /// run in `run`. `warp_classes`: record warp breakpoints and block ranges.
  ClassProgram(const LaunchPlan& program, const RunContext& run,
               std::vector<std::optional<TrackedComparison>> comparisons,
               std::vector<std::optional<AcceleratedLoop>> loops, bool warp_classes, bool memory = false,
               std::vector<AccessShift> shifts = {});

  const LaunchPlan& program;
  const RunContext& run;
  std::vector<std::optional<TrackedComparison>> tracked;    // [ExprId]
  std::vector<std::optional<AcceleratedLoop>> accelerated;  // [StmtId]
  bool warp_classes = false;
  /// The class engine counts memory figures (ReplayOptions::memory, and the plan proves them).
  bool memory = false;
  /// Set by the first fault any machine of the run meets (RunContext::fault_flag, with `memory`).
  mutable std::atomic<bool> memory_faulted{false};
  /// [access id] with `memory` (the program's accesses then follow their residues:
  /// CompiledAccess::shifts); empty without.
  std::vector<AccessShift> shifts;
  /// [access id]: the compiled access (its residues), for the accesses the machine counts.
  std::vector<const CompiledAccess*> compiled;
  // Per accelerated loop (in StmtId order), the statements inside it (condition, body and step,
  // at any depth) and the positions of the conditions among them.
  struct LoopShape {
    StmtId loop = kNone;
    std::vector<StmtId> statements;
    std::vector<std::uint32_t> conditions;
    std::vector<std::int32_t> accesses;  // the counted accesses of `statements` (with shifts)
    bool outcomes = false;               // warps x conditions x kMaxIterationClasses within kMaxOutcomeCells
  };
  std::vector<LoopShape> loop_shapes;
  std::vector<std::int32_t> loop_shape;  // [StmtId]: index into loop_shapes, or -1
};

/// The plan options of a class engine's run: `options`' with the comparisons `tracked` recorded and
/// the residues of `shifts` ([access id]; empty: none) followed.
PlanOptions class_plan_options(const ReplayOptions& options,
                               const std::vector<std::optional<TrackedComparison>>& tracked,
                               const std::vector<AccessShift>& shifts);

/// Sizes (and zeroes) a tally's memory figures for `classes.program` with classes.memory; else
/// empties them (the machine then counts none).
void size_memory(Tally& t, const ClassProgram& classes);
/// Adds `from`'s faults (the lowest block's kept) and extents to `into`.
void merge_faults_and_extents(Tally& into, const Tally& from);

/// Records one machine's runs for the class engine; attaches itself to the machine for its life.
class ClassRecorder final : public Recorder {
 public:
  ClassRecorder(const ClassProgram& classes, WarpMachine& machine);
  ~ClassRecorder() override;
  ClassRecorder(const ClassRecorder&) = delete;
  ClassRecorder& operator=(const ClassRecorder&) = delete;

  /// Record tracked comparisons into `trace` and run accelerated loops as classes of iterations
  /// (not with by_iteration); nullptr = record nothing, and run every iteration.
  void set_trace(ClassTrace* trace) { trace_ = trace; }
  /// With a trace set: record the counted warps' iterations of accelerated loops into `log`
  /// (sized by the caller: one LoopLog per ClassProgram::loop_shapes), and their outcomes over
  /// the whole run into log->outcomes when it is sized; nullptr = none.
  void set_log(IterationLog* log) { log_ = log; }
  /// With a log: the warps run next stand for `copies` warps each (a class of warps of the block,
  /// the run one first): their counts go into the log `copies` times and their outcomes into the
  /// rows of all of them.
  void set_log_copies(std::uint32_t copies) { log_copies_ = copies; }

  /// Its events (the class engine never runs warps phase by phase: its plan refuses shared memory
  /// followed by value, so each WarpEvent starts a warp): the warps' starts and ends, the tracked
  /// comparisons.
  unsigned wants() const override { return kWarpEvents | kWarpEndEvents | kComparisonEvents; }
  void on(const WarpEvent&) override;
  void on(const WarpEndEvent&) override;
  void on(const ComparisonEvent& e) override;
  /// Trace entries of a comparison's wrap guards: ids from here on (guard g of comparison e:
  /// kGuardEntries + e * 2 + side).
  static constexpr std::int64_t kGuardEntries = std::int64_t{1} << 40;
  bool loop_begin(StmtId loop, LaneMask in) override;
  LaneMask iterations(StmtId loop, std::size_t frame, LaneMask in, LaneMask& exits,
                      std::uint64_t& k) override;

 private:
  using LocalState = WarpMachine::LocalState;
  template <class Extremes, class Diff>
  void breakpoints(const AffineCoefficients& t, const Extremes& x, LaneMask active, const Diff& diff);
  __attribute__((noinline)) void guard(const WrapGuard& g, ExprId id, LaneMask active, const Operand& value);
  [[noreturn]] __attribute__((noinline, cold)) void too_many_records(ExprId id) const;
  LaneMask iteration_class(StmtId id, const Stmt& s, std::size_t frame, LaneMask in, LaneMask& exits,
                           std::uint64_t& k);
  LaneMask logged_iterations(int shape, StmtId id, const Stmt& s, std::size_t frame, LaneMask in,
                             LaneMask& exits, std::uint64_t& k);
  // Adds (after - before) x times to the counts of `statements` (before / after: theirs by
  // position, then the warp's evaluations).
  void scale_iteration(const std::vector<StmtId>& statements, const std::vector<StatementCounts>& before,
                       const std::vector<StatementCounts>& after, std::uint64_t times);
  void jump_counters(const AcceleratedLoop& acc, StmtId id, const Stmt& s, std::size_t depth, std::uint64_t k,
                     std::uint64_t last);
  void check_counters(const AcceleratedLoop& acc, const Stmt& s, std::size_t depth, std::uint64_t k,
                      std::uint64_t last);
  void add_arrivals(std::size_t depth, std::uint64_t times);
  void log_start(int shape, LaneMask in);
  void log_segment(int shape, std::uint64_t first, std::uint64_t last, std::size_t slot,
                   std::size_t class_depth);
  void log_add(int shape, std::uint64_t first, std::uint64_t last, const std::vector<StatementCounts>& each,
               const std::vector<WarpOutcome>& outcomes, std::uint64_t times);

  const ClassProgram& c_;
  WarpMachine& m_;
  ClassTrace* trace_ = nullptr;
  IterationLog* log_ = nullptr;
  std::uint32_t log_copies_ = 1;
  std::size_t log_depth_ = 0;                             // logged loops being run
  std::vector<std::vector<StatementCounts>> log_before_;  // [log_depth_]: counts before a segment
  std::vector<StatementCounts> warp_start_;               // counts when the warp began (log_->outcomes)
  std::vector<StatementCounts> segment_;                  // one iteration's counts (log_segment)
  std::vector<WarpOutcome> segment_outcomes_;
  // Segments logged inside iterations of enclosing logged loops, while one runs: an iteration
  // that turns out to stand for a class adds its nested segments again for the iterations not run.
  struct LogEntry {
    int shape;
    std::uint64_t first, last;
    std::vector<StatementCounts> counts;
    std::vector<WarpOutcome> outcomes;
    std::uint64_t times;
  };
  std::vector<LogEntry> journal_;
  std::size_t journal_used_ = 0;  // entries of journal_ in use
  void journal(int shape, std::uint64_t first, std::uint64_t last, const std::vector<StatementCounts>& each,
               const std::vector<WarpOutcome>& outcomes, std::uint64_t times);
  std::vector<std::size_t> journal_mark_;  // [class depth]: journal_used_ after a class's first iteration
  // Accelerated loops being run: the loop, its iteration, the first breakpoint found (in iterations).
  struct ClassFrame {
    StmtId loop;
    std::uint64_t k;
    std::uint64_t next;
  };
  std::vector<ClassFrame> class_frames_;
  // [depth * 2 + 0/1]: before / after iteration k, the counts of the statements inside the loop
  // (ClassProgram::LoopShape::statements, by position), then the warp's evaluations.
  std::vector<std::vector<StatementCounts>> snapshots_;
  // [depth * 2 + 0/1]: the memory figures of the loop's accesses (then their residues) and the
  // flops of its statements, before / after iteration k (with shifts, when the warp counts memory).
  struct MemorySnapshot {
    std::vector<AccessCounts> accesses;
    std::vector<std::uint64_t> shifted;
    std::vector<std::uint64_t> flops;
  };
  std::vector<MemorySnapshot> memory_snapshots_;
  void capture_memory(const ClassProgram::LoopShape& shape, MemorySnapshot& into);
  void scale_memory(const ClassProgram::LoopShape& shape, const MemorySnapshot& before,
                    const MemorySnapshot& after, std::uint64_t times);
  std::vector<std::uint64_t> memory_delta_;  // scale_memory's: one access's residues, after - before
  std::vector<std::vector<std::uint64_t>> arrival_snapshots_;
  // [depth * 2 + 0/1]: the accelerated loop's counters (lane values, defined lanes) before / after
  // iteration k.
  struct CounterSnapshot {
    std::vector<std::array<std::uint64_t, kMaxLanes>> values;
    std::vector<LaneMask> defined;
  };
  std::vector<CounterSnapshot> counter_snapshots_;
  CounterSnapshot counter_after_;
  std::vector<std::vector<std::array<std::uint64_t, kMaxLanes>>> counter_entering_;  // [depth]
  // [depth]: a loop variable that differs by lane, its lanes' values entering iteration k.
  std::vector<std::array<std::uint64_t, kMaxLanes>> variable_entering_;
  void capture_counters(const AcceleratedLoop& acc, CounterSnapshot& into);
};

}  // namespace warpdiv::sim::ir::detail
