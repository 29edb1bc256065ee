// The launch plan: one kernel model compiled for one launch, the value every engine consumes (the
// interpreter, WarpMachine in sim/engine/ir_engine.hpp; the class engine, sim/classes/; native
// code, jit/). Plain data computed from (model, launch, options): the thread layout, the compiled
// expressions, per-statement tables, the memory accesses counted and followed, the arguments and
// buffer sizes, the layouts of the values followed. It holds its model (shared, never the
// caller's) and nothing of a run: the launch's data, the evaluation budget and the counters the
// workers share are a RunContext, which the engines own and pass beside the plan.
//
// Serialised (serialize, deserialize) it crosses the shared-object boundary of the native replay's
// plugin (jit/plugin.cpp): its form is versioned (kLaunchPlanVersion), so the plugin depends on
// that version, never on this header's struct layouts. The function pointers of a CompiledExpr are
// the interpreter's choice for the process that holds the plan: made again on deserialising.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model/ir.hpp"
#include "sim/engine/ir_lane_pattern.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir::detail {

/// The serialised form's version: bumped by hand whenever the form (serialize), the plan's
/// fields, or the plain data the native replay's interface passes (sim/engine/ir_native.hpp:
/// NativeRun, NativeTally, the virtual calls) change. A plan or plugin of another version is refused.
constexpr std::uint32_t kLaunchPlanVersion = 3;

/// The lowest lane of a non-empty mask, and the mask of one lane.
inline int lowest_lane(LaneMask m) { return __builtin_ctzll(m); }
inline LaneMask bit(int lane) { return LaneMask{1} << lane; }

using BinaryLaneFn = bool (*)(const std::uint64_t*, const std::uint64_t*, std::uint64_t*, int, LaneMask);
using CompareLaneFn = LaneMask (*)(const std::uint64_t*, const std::uint64_t*, int);
using UnaryLaneFn = bool (*)(const std::uint64_t*, std::uint64_t*, int, LaneMask);
using CastLaneFn = void (*)(const std::uint64_t*, std::uint64_t*, int);

/// The fields of an Expr the hot loops read (a compact copy: an Expr also carries strings and
/// source ranges), plus the functions picked for its operator and operand type.
struct CompiledExpr {
  ExprKind kind = ExprKind::Constant;
  ScalarType type = ScalarType::I32;
  Builtin builtin = Builtin::ThreadIdxX;
  UnaryOp unary_op = UnaryOp::Neg;
  BinaryOp binary_op = BinaryOp::Add;
  LogicalOp logical_op = LogicalOp::And;
  bool signed_operands = false;          // Binary: the operands' type is signed
  bool narrow_operands = false;          // Binary: the operands' type has at most 32 bits
  bool floating_operands = false;        // Binary: the operands' type is float32 or float64
  ScalarType from = ScalarType::I32;     // Cast: the operand's type
  Intrinsic intrinsic = Intrinsic::Fma;  // Intrinsic
  WarpOp warp_op = WarpOp::Shfl;         // Warp (a shuffle's width: constant)
  std::int32_t index = kNone;
  ExprId operands[3] = {kNone, kNone, kNone};
  std::uint64_t constant = 0;
  std::uint64_t (*binary)(std::uint64_t, std::uint64_t, bool&) = nullptr;
  std::uint64_t (*unary)(std::uint64_t, bool&) = nullptr;
  std::array<BinaryLaneFn, 3> binary_lanes{};  // [both varying, left uniform, right uniform]
  std::array<CompareLaneFn, 3> compare_lanes{};
  UnaryLaneFn unary_lanes = nullptr;
  CastLaneFn cast_lanes = nullptr;
  bool recorded = false;  // a comparison the Recorder is told of (a ComparisonEvent)
};

/// threadIdx of each lane of one warp, and whether a component is the same in all its lanes.
struct WarpThreads {
  LaneMask existing = 0;
  int lanes = 0;
  std::array<std::array<std::uint64_t, kMaxLanes>, 3> index{};  // [x, y, z][lane]
  std::array<bool, 3> uniform{};
};

/// An access the machine counts (sim/memory/ir_memory.hpp): its offset and guard, width and space.
struct CompiledAccess {
  std::int32_t id = kNone;
  std::int32_t base = kNone;
  ExprId offset = kNone;
  ExprId guard = kNone;
  int width = 4;
  bool shared = false;  // shared memory (wavefronts), else global (sectors)
  bool load = false;    // a load (shared: its lanes may pair up, sim/memory/ir_memory.hpp)
  AccessKind kind = AccessKind::Load;
  StmtId statement = kNone;  // the statement that makes it
  /// A global atomic: its lanes on one address take turns (sim/memory/ir_memory.hpp, sectors).
  bool global_atomic() const { return !shared && kind == AccessKind::Atomic; }
  /// A shared atomic: the wavefronts of each lane's turn on its word (sim/memory/ir_memory.hpp:
  /// 1, a compare-and-swap 2); 0 where lanes on one word share it (loads, stores, an unused
  /// increment by 1, which nvcc makes ATOMS.POPC.INC).
  int turns = 0;
  /// The class engine's address residues (sim/classes/ir_class_memory.cpp): with shifts > 1 the machine
  /// also counts the access's sectors (wavefronts) as if every lane's address were shift_step x s
  /// bytes further on, s = 1 .. shifts - 1, into Tally::shifted[shifted_at + s - 1].
  int shifts = 1;
  std::int64_t shift_step = 0;
  std::uint32_t shifted_at = 0;
  // The offset's linear form in LaunchPlan::affine_offsets (kNone: lane by lane only).
  std::int32_t affine = kNone;
  // The latest earlier access of the statement (its position in StatementMemory::accesses) with
  // the same offset expression, guard, width and space (`values[jj]` and `col_idx[jj]`): its
  // addresses are this one's, so are its sectors or wavefronts (kNone: none).
  std::int32_t same_as = kNone;
  // ReplayOptions::capture_stores: a store or atomic into a pointer parameter's buffer is kept
  // (capture), with its value where the model computes it (value; kNone: unknown).
  bool capture = false;
  std::int32_t parameter = kNone;
  ExprId value = kNone;
  AtomicOp atomic = AtomicOp::Other;   // a modelled atomic with its operand in `value`
  ScalarType type = ScalarType::U64;   // `value`'s type
  ExprId compare = kNone;              // a cas's compared value
  bool after_atomics = false;          // `value` reads what an atomic of its statement returns
  bool address_after_atomics = false;  // so does its offset or guard: placed after the statement's stores
};

/// An access to memory whose values the replay follows: shared memory (LaunchPlan::shared_values)
/// or a buffer the kernel writes (LaunchPlan::global_values, `global`).
struct KeptAccess {
  std::int32_t id = kNone;
  std::int32_t base = kNone;
  AccessKind kind = AccessKind::Load;  // Load, Store, or (global) Atomic
  ExprId offset = kNone;
  ExprId guard = kNone;
  ExprId value = kNone;  // a store's value, an atomic's operand
  int width = 4;
  bool global = false;
  bool local = false;  // a local array (each lane's own)
  AtomicOp atomic = AtomicOp::Other;
  ScalarType type = ScalarType::I32;  // the value's (element's) type
  ExprId compare = kNone;             // a cas's compared value
};

/// A statement's memory work: its counted accesses and floating-point operations.
struct StatementMemory {
  std::vector<CompiledAccess> accesses;
  std::vector<FloatOps> flops;   // those whose lanes the model knows
  std::vector<KeptAccess> kept;  // shared memory followed by value: its loads, then its stores
};

/// The options a plan is compiled for (the rest of ReplayOptions is the run's: RunContext, and
/// the blocks and warps the caller runs).
struct PlanOptions {
  bool by_iteration = false;    // counts by iteration (ReplayOptions::by_iteration)
  bool memory = true;           // memory figures counted (ReplayOptions::memory)
  bool affine_offsets = true;   // offsets as lane patterns where they allow (ReplayOptions::affine_offsets)
  bool capture_stores = false;  // stores kept (ReplayOptions::capture_stores)
  /// Shared arrays whose values are not followed but whose every access the model places are
  /// followed by address (sim/memory/shared_races.hpp): their stores keep no value, their loads
  /// stay opaque, and the races and reads of memory never written among them are checked.
  bool shared_addresses = false;
  /// The class engine's (sim/classes/): [access id] the address residues each counted access
  /// follows (CompiledAccess::shifts, shift_step; count <= 1: none), empty for none; [ExprId] the
  /// comparisons its recorder is told of (CompiledExpr::recorded), empty for none.
  struct Shift {
    int count = 1;
    std::int64_t step = 0;
  };
  std::vector<Shift> shifts;
  std::vector<bool> recorded;
};
PlanOptions plan_options(const ReplayOptions& options);

/// A kernel and launch, compiled once and shared (read-only) by every worker of every engine.
struct LaunchPlan {
  /// Compiles `model` for `launch` (its data, Launch::buffer_data, is not read: a plan holds
  /// only the buffers' sizes) and `options`.
  LaunchPlan(std::shared_ptr<const Kernel> model, const Launch& launch, const PlanOptions& options);
  /// A plan of `model` with every other field empty (deserialize fills them).
  struct Blank {};
  LaunchPlan(std::shared_ptr<const Kernel> model, Blank);
  LaunchPlan(const LaunchPlan&) = default;  // the model shared
  LaunchPlan(LaunchPlan&&) = default;
  LaunchPlan& operator=(const LaunchPlan&) = delete;

  std::shared_ptr<const Kernel> model;
  const Kernel& kernel;  // *model
  Launch launch;         // without its data (buffer_data empty)
  PlanOptions options;
  int warp_size = 32;
  int warps_per_block = 0;
  std::uint64_t threads_per_block = 0;
  std::vector<WarpThreads> warps;
  std::vector<CompiledExpr> exprs;
  std::vector<StmtId> innermost_loop;  // [StmtId]
  std::vector<std::int32_t> barrier;   // [StmtId]: barrier index, or kNone
  int barriers = 0;
  std::vector<std::uint8_t> skip_value;  // [StmtId]: the assigned value is opaque (not computed)
  /// [StmtId]: values the statement evaluates only for their undefined behaviour (checked_values).
  std::vector<std::vector<ExprId>> checks;
  std::vector<std::uint8_t> has_memory;      // [StmtId]: memory[id] has work
  std::vector<StatementMemory> memory;       // [StmtId]
  std::vector<AffineOffset> affine_offsets;  // CompiledAccess::affine
  std::vector<std::uint64_t> base_bytes;     // [base]: its buffer's size (0: not checked)
  /// Shared memory followed by value: some shared load's value is computed at this
  /// launch (sim/model/ir.hpp computed_loads). The replay then keeps each block's shared memory,
  /// runs its warps phase by phase between barriers (each warp up to its next __syncthreads()
  /// before any goes past it), and checks every kept access: a read of a byte never written in
  /// the block, and two warps touching a byte in one phase, one writing (a race), are errors.
  bool shared_values = false;
  std::vector<std::int64_t> shared_at;  // [base]: its start in SharedState::bytes, or -1
  std::uint64_t shared_size = 0;        // bytes of SharedState
  /// Buffers the kernel writes, followed by value: some load or atomic result of such a
  /// buffer is computed at this launch. The replay then runs blocks, warps and lanes in ascending
  /// order on one thread, a block's warps phase by phase between its barriers (as with
  /// shared_values), keeping the buffers (GlobalState) as that order leaves them.
  bool global_values = false;
  std::vector<std::int64_t> global_at;  // [base]: its start in GlobalState::bytes, or -1
  std::uint64_t global_size = 0;
  /// Local arrays followed by value: each lane's copy of them, one after the other.
  std::vector<std::int64_t> local_at;  // [base]: its start in a lane's local bytes, or -1
  /// [base]: its values are followed (shared memory, a local array or a buffer the kernel writes,
  /// above); a load of any other base reads the launch's data, which nothing changes.
  std::vector<std::uint8_t> followed;
  std::uint64_t local_size = 0;
  std::size_t shifted_size = 0;     // Tally::shifted's size (the class engine's residues)
  std::string stores_not_captured;  // capture_stores: why the buffers' contents are not known
  /// Binary expressions whose lane values the machine keeps for reuse while the locals they read
  /// are not written (in the same warp): kNotKept, or how many locals (up to kKeptLocals) the
  /// expression reads, listed in kept_locals[expr].
  static constexpr std::uint8_t kNotKept = 0xFF;
  static constexpr int kKeptLocals = 4;
  std::vector<std::uint8_t> kept;                             // [ExprId]
  std::vector<std::array<LocalId, kKeptLocals>> kept_locals;  // [ExprId]
  /// [ExprId]: the first expression of the same operators, types and operands (their
  /// representatives) over the same constants, parameters, builtins and locals; itself if none.
  std::vector<ExprId> canonical;
  std::vector<std::uint64_t> arguments;  // bits per parameter

 private:
  // The constructor's steps, in order.
  void lay_out_threads();  // warps: each lane's threadIdx, which lanes exist, uniform dimensions
  /// The loads whose values the machine computes at this launch ([access]).
  std::vector<bool> computed_loads_at_launch() const;
  void compile_exprs(const std::vector<bool>& loaded);
  void apply_class_options();  // CompiledAccess::shifts, CompiledExpr::recorded, shifted_size
  void find_canonical();       // canonical: one representative of expressions alike
  /// memory and has_memory: each statement's counted accesses and floating-point operations.
  void compile_memory(const std::vector<bool>& loaded, const std::vector<ExprId>& origins);
  void bind_launch();                                      // arguments (then fold_constants), base_bytes
  void lay_out_values(const std::vector<bool>& loaded);    // memory followed by value
  void keep_accesses(const std::vector<ExprId>& origins);  // StatementMemory::kept
  void choose_kept_expressions();                          // followed, kept, kept_locals
  void compile_affine_offsets();
  /// Integer expressions of constants, scalar parameters, blockDim, gridDim and warpSize
  /// (`2*FILTER_RADIUS+1`, `(unsigned)1`, `width * 4`) computed once for the launch: their
  /// CompiledExpr becomes a Constant. Comparisons stay (the class engine's recorder is told of
  /// them), and so does an expression whose value is undefined (the warp reaching it reports it).
  void fold_constants();
};

/// What a run of a plan holds besides it: the launch's data, the budget and the counters its
/// workers share, the caller's observers. Owned by the engine that runs the plan; its machines
/// read it (by reference) as it changes between a run's phases (sampling, trial, the run).
struct RunContext {
  std::vector<const std::string*> base_data;         // [base]: its values (Launch::buffer_data; null: zeros)
  std::uint64_t evaluation_cap = ~std::uint64_t{0};  // a run stops past this many evaluations
  const std::atomic<std::uint64_t>* shared_evaluations = nullptr;  // finished blocks' evaluations
  bool sampling = false;                    // estimating: passing the cap means the block is too big
  const std::atomic<bool>* stop = nullptr;  // ReplayOptions::stop
  EvaluationObserver* observer = nullptr;   // ReplayOptions::observer
  EventObserver* events = nullptr;          // ReplayOptions::events
  /// The class engine's: set by the first fault (undefined behaviour or a misaligned address in
  /// an access or its lanes) any machine of the run meets, which makes its memory figures
  /// unproven; once set, the machines count no more memory (nullptr: no flag).
  std::atomic<bool>* fault_flag = nullptr;
};
/// The context of a run of `plan` over `launch`'s data, with `options`' stop flag and observers.
RunContext run_context(const LaunchPlan& plan, const Launch& launch, const ReplayOptions& options);

/// Runs `plan` with the interpreter (and native code where ReplayOptions::native allows) as
/// replay() runs the plan it makes: `launch` gives the data (Launch::buffer_data), `options` the
/// run's part (the blocks, threads, budget, observers; its plan options are the plan's).
ReplayResult replay_plan(const LaunchPlan& plan, const Launch& launch, const ReplayOptions& options);

/// The plan as bytes: a header (magic, kLaunchPlanVersion), the model (sim/model/ir_json.hpp), then
/// every field, little-endian, each vector with its length.
std::string serialize(const LaunchPlan& plan);
/// Reads a plan's model from its JSON text (sim/model/ir_json.hpp): kernel_from_json, or a reader
/// that keeps the models it read (the native compiler, which meets one model in many launches).
using ModelReader = std::shared_ptr<const Kernel> (*)(const std::string& json, void* state);
/// The plan `bytes` hold. Throws InvalidInput (Diag::file_format) naming what is wrong: not a
/// plan, another version ("it is of version 2, this build reads version 1"), bytes missing, bytes
/// after its end, a model that does not read, a table that does not fit its model, a launch the
/// model does not take, or a field (an index in its tables: "its exprs[12] is not what ...") other
/// than what its model compiles to for its launch and options. The plan returned is that one,
/// compiled again (so its function pointers are this process's).
LaunchPlan deserialize(std::string_view bytes, ModelReader read_model = nullptr, void* state = nullptr);
/// The version a plan's bytes say they are of (their header), or 0 where they have no header.
std::uint32_t plan_version(std::string_view bytes);
/// Every field equal (the function pointers included), as serialize writes them.
bool operator==(const LaunchPlan& a, const LaunchPlan& b);

}  // namespace warpdiv::sim::ir::detail
