// The class engine over the kernel IR: exact counts for any launch size by finding the classes of
// blocks (and of loop iterations) that behave identically, replaying one representative of each
// with the SIMT replay machinery (sim/engine/ir_engine.hpp) and multiplying by the class sizes (128-bit,
// overflow-checked).
//
// Why it is exact. plan_classes() proves, from the kernel alone, that every comparison whose
// operands depend on a block index is affine in the block indices (c . blockIdx + r, c known once
// the launch is, r the same for every block that follows the same path) and wrap-free, and that no
// operation that could be undefined (signed overflow, division, shifts) sees a non-affine
// block-dependent value. Then, for one lane and one dynamic instance, a comparison's outcome is a
// step function of each block index; the thresholds (breakpoints) come from the representative's
// operand values. class_replay() partitions each grid dimension at the breakpoints, replays the
// corners of every box of the partition with a trace of every such comparison, and accepts a box
// only when all its corners agree on every lane of every comparison: a linear function has the
// same sign at every point of a box when it has it at all corners, so every block of the box then
// follows the same path with the same masks (and, for the same reason, no signed operation
// overflows inside it when none does at the corners). Boxes whose corners disagree are split
// further; a kernel whose boxes do not settle (a condition such as blockIdx.x + blockIdx.y < n
// makes a staircase) is refused with ClassesUnproven rather than guessed.
//
// Iteration classes: a loop whose trip count is the same for every lane and block (its variable
// starts at a block-independent uniform value, steps by a constant, is compared against a
// loop-invariant bound, and the loop carries no other state) is run as classes of iterations in the
// same way (first, interior, last ...), so a launch at 2^31 - 1 does not replay 2^26 phases per
// representative block. Loops that depend on the lane, `%`, early returns and the like inside a
// representative are simply replayed. With by_iteration every iteration is replayed (a loop past
// kMaxIterationsByIteration iterations is refused as ir::replay refuses it).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir {

/// Why the class engine cannot prove a kernel's classes.
struct ClassRefusal {
  SourceRange range;     // of the expression (or statement) in question
  std::string location;  // "FILE:LINE:COL" ("<launch>" for a refusal found while replaying)
  std::string what;      // what it is: "the condition of this if", "'%'", "this comparison" ...
  std::string reason;    // why: "depends on blockIdx.x through '%', which is not affine"
  /// "FILE:LINE:COL: the class engine cannot prove the block classes: WHAT REASON".
  std::string message() const;
};

/// Thrown by class_replay() (and by plans that refused) when the classes cannot be proven; an
/// InvalidInput (exit 2 for `--engine exact`); `--engine auto` catches it and falls back to the
/// replay.
class ClassesUnproven : public InvalidInput {
 public:
  explicit ClassesUnproven(ClassRefusal refusal);
  const ClassRefusal& refusal() const { return refusal_; }

 private:
  ClassRefusal refusal_;
};

namespace detail {
struct ClassAnalysis;  // the static analysis behind a plan (sim/classes/ir_class_detail.hpp)
}

// GridLimits (sim/engine/ir_replay.hpp): the grid sizes the class engine accepts.

/// The outcome of the static analysis of one kernel and launch.
struct ClassPlan {
  /// Set when the kernel is outside what the class engine can prove (then class_replay throws
  /// ClassesUnproven with it).
  std::optional<ClassRefusal> refusal;
  bool ok() const { return !refusal.has_value(); }
  /// Loops run as iteration classes (StmtIds), for reports ("the phase loop at 24:3").
  std::vector<StmtId> accelerated_loops;
  GridLimits limits = GridLimits::Cuda;
  std::shared_ptr<const detail::ClassAnalysis> analysis;
};

/// Validates kernel and launch (InvalidInput as ir::replay does) and analyses the kernel. A
/// non-affine condition is not an exception: it is the plan's refusal.
ClassPlan plan_classes(const Kernel& kernel, const Launch& launch, GridLimits limits = GridLimits::Cuda);

/// One grid dimension's share of a block class: blockIdx.<dim> in [first, last].
struct DimensionInterval {
  std::uint32_t first = 0;
  std::uint32_t last = 0;
  /// "blockIdx.x = 6 (last)", "blockIdx.y < 6", "blockIdx.x in [3, 9]", "blockIdx.x = 0",
  /// "blockIdx.x > 3"; empty when the interval is the whole dimension.
  std::string definition;
  std::uint64_t size() const { return std::uint64_t{last} - first + 1; }
};

/// How one warp's active lanes evaluated a condition (If, Loop, Switch) over a set of its
/// evaluations: never (NotReached), true in every active lane each time (AllTrue), false in every
/// active lane each time (AllFalse), split at least once (Divergent), or uniform each time but
/// not the same every time (Mixed).
enum class WarpOutcome : std::uint8_t { NotReached, AllTrue, AllFalse, Divergent, Mixed };

/// Iteration classes kept per accelerated loop and block class: past this, the last class is
/// `merged` (it holds every later iteration; its counts are exact, it has no outcomes).
constexpr std::size_t kMaxIterationClasses = 64;
/// Outcomes are kept for a loop only while warps x (statements inside the loop) x
/// kMaxIterationClasses stays at most this (one byte each), and BlockClass::outcomes while warps x
/// statements does.
constexpr std::size_t kMaxOutcomeCells = std::size_t{1} << 20;

/// A class of iterations of an accelerated loop (ClassPlan::accelerated_loops) in one block
/// class: consecutive iterations that behave alike in the representative block (the same
/// per-iteration counts of every statement inside the loop, summed over the warps, and the same
/// outcome of each condition in each warp), recorded during the representative's run by classes
/// (no extra replay: the engine runs the first and last iteration of a class and multiplies;
/// iterations it ran one by one are classes of one iteration, merged with their neighbours when
/// they behave alike). Iteration k of a loop is counted as ReplayOptions::
/// by_iteration counts it: the k-th evaluation of the loop's condition in an instance (0-based),
/// then its body and step; an instance's last evaluation (every lane leaves) is the iteration
/// after its last body. Instances of the loop (a loop nested in another loop, and the warps of
/// the block) are summed: iteration k of a class is the k-th iteration of every instance; their
/// classes are refined to the common breakpoints. The classes of a loop partition iterations
/// 0 .. N of the block class, N the longest instance's last (exit) check.
/// Counts indexed by StmtId where only some statements have any (those inside one loop): stored
/// sparsely, so that a kernel of many loops keeps memory linear. Reading an id without counts
/// gives zeros.
class SparseCounts {
 public:
  SparseCounts() = default;
  explicit SparseCounts(std::size_t size) : size_(size) {}
  /// The counts of statement `id` (< size()); zeros where none were set.
  const StatementCounts& operator[](std::size_t id) const;
  /// Sets the counts of `id` (< size(); cheapest in increasing order of ids). Two tables are
  /// equal when they have the same size and the same ids set to the same counts.
  void set(std::size_t id, const StatementCounts& counts);
  /// The number of statements (kernel.stmts.size()).
  std::size_t size() const { return size_; }
  friend bool operator==(const SparseCounts& a, const SparseCounts& b);

 private:
  std::size_t size_ = 0;
  std::vector<std::pair<std::size_t, StatementCounts>> entries_;  // by id, increasing
};

struct IterationClass {
  StmtId loop = kNone;
  std::uint64_t first = 0, last = 0;  // 0-based iterations of `loop` in this class (inclusive)
  std::uint64_t size() const { return last - first + 1; }
  /// By the loop variable's values v0 + step * k when v0 is the same in every instance of the
  /// representative block (the loop's statements assign the variable only in its step): "p < 6",
  /// "p = 6 (last)", "p = 7 (exit)", "p >= 3", "p in [2, 5]", "i in [0, 15] (all)", "blurRow = -1
  /// (first)" (for a step other than +-1, "p <= 80" rather than "p < 81"); else by 1-based
  /// iteration numbers: "iterations 1 to 6", "iteration 7 (last)". "(last)": the class holds the last
  /// iteration with a body;
  /// "(exit)": only the loop's condition, false in every lane; " (merged)" when `merged`.
  std::string definition;
  bool exit = false;    // only the loop's condition is evaluated, false in every active lane
  bool merged = false;  // past kMaxIterationClasses: iterations that need not behave alike
  /// [StmtId]: totals over the block class's blocks and this class's iterations of the statements
  /// inside `loop` (its condition, body and step, at any depth: a nested loop's statements are
  /// summed over its iterations), zeros elsewhere; the sum over a loop's classes is the block
  /// class's count of each such statement. Barrier statements: warp evaluations and active lanes
  /// only (block_executions and the partial fields are per block: see BlockClass::statements).
  SparseCounts statements;
  /// [warp * kernel.stmts.size() + StmtId]: in ONE iteration of this class (every iteration of it
  /// alike), in the representative block, how warp w evaluated each condition inside `loop`
  /// (summed over the loop's instances: Mixed when they differ); NotReached elsewhere. Empty when
  /// merged, or past kMaxOutcomeCells (the engine's record: warps x conditions inside the loop x
  /// kMaxIterationClasses; these vectors: warps x statements x the loop's classes in the block
  /// class); under only_warp, only that warp's row is filled.
  std::vector<WarpOutcome> outcomes;
};

/// Blocks that behave identically: the product of one interval per dimension.
struct BlockClass {
  std::array<DimensionInterval, 3> intervals;  // x, y, z
  Count blocks = 0;                            // number of blocks in the class
  Dim3 representative;                         // the block replayed for it (its lowest corner)
  /// The non-empty interval definitions joined with ", " ("all blocks" when every one is empty).
  std::string definition;
  /// Totals over the class's blocks, indexed by StmtId (one block's counts times `blocks`).
  std::vector<StatementCounts> statements;
  /// With by_iteration: [StmtId][k], totals over the class's blocks, as ReplayResult::iterations.
  std::vector<std::vector<StatementCounts>> iterations;
  /// When the result counts memory (ReplayResult::memory_counted): the class's memory figures
  /// ([access id]) and floating-point operations ([StmtId]), totals over its blocks; else empty.
  std::vector<AccessCounts> accesses;
  std::vector<Count> flops;
  /// The iteration classes of each accelerated loop the representative reaches: by loop (in
  /// source order), then by first iteration.
  std::vector<IterationClass> iteration_classes;
  /// Warps per block: the rows of `outcomes` (and of IterationClass::outcomes).
  std::uint32_t warps = 0;
  /// [warp * kernel.stmts.size() + StmtId]: how warp w of the representative block evaluated each
  /// condition over the whole run (once for a condition outside loops; over every evaluation
  /// inside a loop); NotReached for other statements. Empty past kMaxOutcomeCells, or once the
  /// blocks the engine ran (corners included) hold 64 MiB of them together; under only_warp, only
  /// that warp's row is filled.
  std::vector<WarpOutcome> outcomes;
};

/// The name of an accelerated loop's variable (the local its step assigns); "" for other loops.
std::string loop_variable(const Kernel& kernel, StmtId loop);

/// What class_replay() returns: exactly what ir::replay() returns for the launch (same fields,
/// same figures), plus the classes it found.
struct ClassReplayResult : ReplayResult {
  /// Ordered by z, then y, then x of their intervals; their statements sum to `statements`.
  std::vector<BlockClass> classes;
  /// Blocks actually replayed (representatives and the corners that prove them).
  Count blocks_replayed = 0;
  /// Warps actually run in them: with warp classes, the ends of each class of a block's warps,
  /// and the first again for its log when the block represents a class.
  Count warps_replayed = 0;
  /// With ReplayOptions::memory, when memory_counted is false: why the class engine cannot give
  /// this launch's memory figures exactly ("FILE:LINE:COL: the address of 'A[i % n]' depends on
  /// blockIdx.x through '%', which is not affine in it", an access that faults ...); the counts
  /// of control flow are exact regardless.
  std::string memory_unproven;
  /// memory_unproven names an access outside its buffer (Launch::buffer_bytes): bad input.
  bool memory_out_of_bounds = false;
};

/// Counts the launch by block classes. The corner blocks of a round of the partition run on
/// options.threads workers (0: every core) when they take long enough to pay for the threads; the
/// result does not depend on it. Honours options.by_iteration (every iteration replayed),
/// only_warp (only that warp of each block counted; barriers stay per whole block), only_block
/// (that one block, replayed: one class of one block), stop (Interrupted) and max_evaluations (the
/// work actually done). Throws ClassesUnproven when the plan refused or the classes do not settle,
/// InvalidInput for undefined behaviour as ir::replay() does.
ClassReplayResult class_replay(const Kernel& kernel, const Launch& launch, const ClassPlan& plan,
                               const ReplayOptions& options = {});

/// plan_classes() then class_replay().
ClassReplayResult class_replay(const Kernel& kernel, const Launch& launch, const ReplayOptions& options = {},
                               GridLimits limits = GridLimits::Cuda);

}  // namespace warpdiv::sim::ir
