// Inside the class engine (sim/classes/ir_classes.hpp): what its files share. The analysis (ir_class_
// analysis.cpp: affine forms of the kernel's values) and the plan built from it (ir_class_plan.cpp:
// accelerated loops, tracked comparisons, refusals); the runs of one block with the recorder
// (ir_class_block.cpp), the refinement of the partition of the grid (ir_class_replay.cpp) and
// the assembly of the result (ir_class_assemble.cpp).
#pragma once

#include <array>
#include <map>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/classes/ir_class_recorder.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_engine.hpp"

namespace warpdiv::sim::ir::detail {

__extension__ typedef __int128 Wide;

// The abstract value of an expression. Symbols are the three block indices and the variables of
// the candidate loops. The expression's mathematical value M is sum(coefficient[s] * s) + r,
// where r does not change with a symbol s that is not `wild` (for the same path: the same
// outcomes of every condition so far); M lies in [low, high]; `exact`: the value the kernel
// computes is M itself (else it is M reduced modulo 2^width of the type: an unsigned wrap).
struct Form {
  std::vector<Wide> coefficient;
  std::uint64_t wild = 0;  // bit s: depends on symbol s in a way that is not affine
  Wide low = 0, high = 0;
  bool exact = true;
  ExprId wild_origin = kNone;  // where the first non-affine dependence arose
  bool assigned = false;       // locals: some assignment seen
};

struct ClassAnalysis {
  std::vector<std::optional<TrackedComparison>> tracked;    // [ExprId]
  std::vector<std::optional<AcceleratedLoop>> accelerated;  // [StmtId]
  /// The warps of a block fall into classes too: threadIdx is affine in the warp's index and no
  /// condition depends on it otherwise (tracked comparisons then carry a warp coefficient).
  bool warp_classes = false;
  /// Memory figures: "" when the class engine can count them exactly, else why not
  /// ("FILE:LINE:COL: the address of 'A[i % n]' depends on blockIdx.x through ..."); each
  /// access's residues (AccessShift, [access id]); whether some access (or its lanes, or a
  /// statement's flops' lanes) moves other than affinely from warp to warp, or from iteration to
  /// iteration of these accelerated loops (those then run one by one when memory is counted).
  std::string memory_refusal;
  std::vector<AccessShift> shifts;
  bool memory_warp_wild = false;
  std::vector<StmtId> memory_wild_loops;
};

// Symbols: blockIdx.x, y, z; the warp's index in its block; then the candidate loops' variables.
constexpr int kBlockSymbols = 3;
constexpr int kWarpSymbol = 3;
constexpr int kLoopSymbols = 4;
constexpr int kMaxSymbols = 64;                                    // Form::wild has a bit per symbol
constexpr std::size_t kMaxClasses = 4096;                          // boxes of the partition, at most
constexpr std::size_t kMaxLoggedOutcomes = std::size_t{64} << 20;  // bytes, over all block runs
constexpr int kMaxRounds = 24;                                     // refinements of the partition, at most

constexpr Wide kHuge = Wide{1} << 100;  // ranges past this are treated as unknown

/// An operand of a comparison (of type t) whose form is not exact (its value is M reduced
/// modulo 2^width) but spans less than 2^width: the comparison stays affine on each side of the
/// one point where M wraps around (a WrapGuard records it). `wrap` is set to that point, the
/// multiple of 2^width in (low, high], or to low when there is none (then the value is M plus the
/// same multiple of 2^width everywhere).
bool wraps_once(const Form& f, ScalarType t, Wide* wrap = nullptr);

/// The mathematical range of a type.
Wide type_min(ScalarType t);
Wide type_max(ScalarType t);
/// "blockIdx.x", "blockIdx.y", "blockIdx.z".
std::string dim_name(int d);
/// The step `x = x + e` / `x = x - e` that statement `t` is (an Assign to x of x's type, e not
/// reading x): e's id, or kNone.
ExprId counter_step(const Kernel& k, const Stmt& t);

/// The affine forms of a kernel's values (ir_class_analysis.cpp): symbols are the block indices,
/// the warp index (with `warp_steps`: d threadIdx.{x, y, z} / d warp, 0 where none) and the
/// variables of the candidate `loops`.
class Analyser {
 public:
  Analyser(const Kernel& k, const Launch& l, std::vector<StmtId> loops,
           std::array<std::int64_t, 3> warp_steps);
  ~Analyser();
  Analyser(const Analyser&) = delete;
  Analyser& operator=(const Analyser&) = delete;
  // Forms of every local (fixed point) and then of every evaluated expression.
  void run();
  const Form& form(ExprId id) const;
  bool evaluated(ExprId id) const;
  const std::vector<StmtId>& loops() const;
  int symbols() const;
  // The innermost candidate loop (or kNone) whose body, condition or step holds the expression.
  StmtId context(ExprId id) const;
  std::vector<StmtId> enclosing(ExprId id) const;
  /// When `origin` (a Form's wild_origin) is the value of an assignment that made its local
  /// non-affine (a local reassigned in a branch or loop): what the refusal says of it; else "".
  std::string reassignment(ExprId origin) const;

 private:
  class State;
  std::unique_ptr<State> s_;
};

// ---------------------------------------------------------------------------------------------
// Running blocks (ir_class_block.cpp)

using Corner = std::array<std::uint32_t, 3>;

/// A machine with the class engine's recorder attached (one per worker).
struct ClassMachine {
  explicit ClassMachine(const ClassProgram& classes) : ClassMachine(classes, classes.run) {}
  /// One running in `run` instead of the run's context (outliving it).
  ClassMachine(const ClassProgram& classes, const RunContext& run)
      : machine(classes.program, run), recorder(classes, machine) {}
  WarpMachine machine;
  ClassRecorder recorder;
};

/// What one block's run recorded.
struct BlockRun {
  Tally tally;
  ClassTrace trace;
  IterationLog log;     // iterations of accelerated loops and outcomes (attach_log)
  bool logged = false;  // run with `log` (only blocks that may represent a class are)
  std::uint64_t warps_run = 0;
};

/// A fresh log for one block.
IterationLog new_log(const Kernel& kernel, const ClassProgram& classes);
/// Runs block `c` with a trace (and, when given, an iteration log) on `m`: its warps by classes
/// where the program allows, else (or when they do not fall into classes) one by one. Throws
/// ClassesUnproven when a loop's iterations do not fall into classes.
BlockRun run_block(ClassMachine& m, const ClassProgram& classes, const ReplayOptions& options,
                   const Corner& c, IterationLog* log);

// ---------------------------------------------------------------------------------------------
// Assembling the result (ir_class_assemble.cpp)

/// "blockIdx.x < 6" and the like (DimensionInterval::definition) of [first, last] in a dimension
/// of `size` blocks.
std::string interval_definition(int d, std::uint64_t first, std::uint64_t last, std::uint64_t size);
/// The per-warp outcomes and iteration classes of a class whose representative ran with `log`.
void attach_log(BlockClass& c, const ClassProgram& classes, IterationLog& log);
/// The result of a run of one block (ReplayOptions::only_block), replayed: one class of one block.
ClassReplayResult one_block(const Kernel& kernel, const Launch& launch, const ReplayOptions& options);
/// A box of the partition of the grid: one interval per dimension.
struct Box {
  std::array<std::uint64_t, 3> first, last;
  // The block that represents the box's class: its lowest corner.
  Corner representative() const {
    return {static_cast<std::uint32_t>(first[0]), static_cast<std::uint32_t>(first[1]),
            static_cast<std::uint32_t>(first[2])};
  }
};
/// The classes of the settled partition `boxes`, from their representatives' runs.
ClassReplayResult assemble(const ClassProgram& classes, const std::vector<Box>& boxes,
                           std::map<Corner, BlockRun>& runs);

}  // namespace warpdiv::sim::ir::detail
