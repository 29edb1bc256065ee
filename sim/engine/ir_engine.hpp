// Inside the replay (sim/engine/ir_replay.hpp): the machine that runs one warp at a time (WarpMachine)
// over a launch plan (sim/engine/launch_plan.hpp) and its run's context. Internal to sim/;
// the tests use WarpMachine::evaluate to check C's semantics on lane arrays. The machine knows
// nothing of the engines built on it. What it observes it emits as events keyed by source site
// (sim/engine/ir_events.hpp): to the observers compiled in (LineCounter: the per-line counts;
// AccessFigures: the memory figures), then to the one chosen at run time, if any, for the events
// it wants: a trace, a test's, or the class engine's Recorder (sim/engine/ir_recorder.hpp), which
// also steers the loops it chooses; the plain replay leaves it unset.
//
// Speed: values that are the same in every active lane (constants, parameters, blockIdx, locals
// assigned such values, and threadIdx components that happen to be constant over a warp) are kept
// as one scalar and computed once per warp, as GPU compilers scalarise them; the others are lane
// arrays computed in tight loops specialised per operator and type. Conditions become lane masks.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/support/fiber.hpp"
#include "sim/model/ir.hpp"
#include "sim/engine/control_walk.hpp"
#include "sim/engine/ir_lane_pattern.hpp"
#include "sim/engine/launch_plan.hpp"
#include "sim/engine/ir_recorder.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir::detail {

/// Heads of one loop instance before WarpMachine watches it for a repeated state (never ending).
constexpr std::uint64_t kRepeatWatchStart = std::uint64_t{1} << 12;

/// Throws InvalidInput: "the counts of one block pass 2^64" (the u64 totals: evaluations, flops)
/// or "... 2^128" (`wide`: the statement and memory counts).
[[noreturn]] void counts_overflow(bool wide = false);
/// a * n, checked (inline: the class engine's hot loops scale counts).
inline std::uint64_t product(std::uint64_t a, std::uint64_t n) {
  std::uint64_t r = 0;
  if (__builtin_mul_overflow(a, n, &r)) counts_overflow();
  return r;
}
inline Count product(Count a, std::uint64_t n) {
  Count r = 0;
  if (__builtin_mul_overflow(a, Count{n}, &r)) counts_overflow(true);
  return r;
}
/// target += a * n, checked.
inline void add_product(std::uint64_t& target, std::uint64_t a, std::uint64_t n) {
  if (__builtin_add_overflow(target, product(a, n), &target)) counts_overflow();
}
inline void add_product(Count& target, Count a, std::uint64_t n) {
  if (__builtin_add_overflow(target, product(a, n), &target)) counts_overflow(true);
}
/// a += c * n, field by field (warp evaluations, divergent, active and taken lanes), checked.
inline void add_scaled(StatementCounts& a, const StatementCounts& c, std::uint64_t n) {
  add_product(a.warp_evaluations, c.warp_evaluations, n);
  add_product(a.divergent, c.divergent, n);
  add_product(a.active_lanes, c.active_lanes, n);
  add_product(a.taken_lanes, c.taken_lanes, n);
}

/// The first undefined behaviour (or misaligned address) met while placing an access or
/// choosing the lanes of a statement's floating-point operations: that figure is then not
/// counted. `block` (linear) orders faults of several workers, so the one reported is the same
/// however the blocks were shared out.
struct MemoryFault {
  bool met = false;
  std::uint64_t block = 0;
  std::string message;
  bool out_of_bounds = false;  // an access outside its buffer (Launch::buffer_bytes)
};

/// One lane's store (ReplayOptions::capture_stores): `known` when the model holds its value.
struct StoreWrite {
  std::int32_t parameter = kNone;
  std::int64_t offset = 0;
  std::uint64_t bits = 0;
  std::uint64_t thread = 0;    // linear over the grid: block (x, y, z order) x threads per block + thread
  std::uint64_t sequence = 0;  // the machine's store count: program order within a thread
  std::int32_t access = kNone;
  std::uint8_t width = 0;
  bool known = false;
  AtomicOp atomic = AtomicOp::Other;  // an atomic combined with the buffer (Other: a plain store)
  ScalarType type = ScalarType::U64;  // the value's type (when known)
  std::uint64_t compare = 0;          // a cas's compared value (when known)
};

/// One worker's counts (the statement and memory counts in 128 bits, as the result's).
struct Tally {
  std::vector<StatementCounts> statements;               // [StmtId]
  std::vector<AccessCounts> accesses;                    // [access id]; empty: not counted
  std::vector<std::uint64_t> flops;                      // [StmtId]; empty: not counted
  std::vector<MemoryFault> faults;                       // [access id, then accesses + StmtId (flops)]
  std::vector<BaseExtent> extents;                       // [access id]: the bytes each access touched
  std::vector<std::uint64_t> shifted;                    // class engine: CompiledAccess::shifts
  std::uint64_t affine_requests = 0;                     // requests counted from lane patterns
  std::vector<std::vector<StatementCounts>> iterations;  // [StmtId][k], with by_iteration
  std::uint64_t evaluations = 0;                         // all warp-statement evaluations
  std::uint64_t blocks = 0;
  std::uint64_t warps = 0;
  std::deque<StoreWrite> stores;            // with capture_stores (in blocks: growing never copies them)
  std::vector<std::int32_t> communicating;  // WarpMachine::finish: bases
  std::vector<std::int32_t> order_reads;    // WarpMachine::finish: accesses
  std::vector<std::int32_t> order_atomics;  // shared atomics and loads whose values depend on order
  std::string store_fault;                  // the first undefined behaviour in a stored value
};

/// One byte of a block's shared memory as the replay follows it (LaunchPlan::shared_values): which
/// warp wrote and read it in which phase (the stretch between two barriers; phases are numbered
/// on across blocks, so a byte last written before the block's first phase was never written in
/// it), and whether its value is known.
struct SharedByte {
  std::uint64_t write_phase = 0, read_phase = 0;
  std::uint64_t request = 0;  // the store request that wrote it last
  std::int32_t write_access = kNone, read_access = kNone;
  std::int32_t writer = -1, reader = -1;  // warps
  bool unknown = false;                   // lanes of one request wrote different values, or an undefined one
  bool unheld = false;                    // its last write's value is not held (followed by address)
  // Another warp that read it in read_phase (-1: none), and by which access.
  std::int32_t other_reader = -1, other_read_access = kNone;
  bool atomic = false;  // its last write was an atomic's
  // Atomics on it in atomic_phase: the first one's thread (linear + 1; kManyThreads after a
  // second thread's) and access, whose returned values then depend on the threads' order.
  std::uint64_t atomic_phase = 0, atomic_thread = 0;
  std::int32_t atomic_access = kNone;
  // Its value was left by atomics of several threads in an order that decides it (exch, cas,
  // inc, dec, float add, or different operations): what reads it depends on the order.
  bool order_dependent = false;
};

/// A block's shared memory (the bases of LaunchPlan::shared_at) and its bookkeeping, shared by the
/// machines that run the block's warps.
struct SharedState {
  std::vector<std::uint8_t> bytes;
  std::vector<SharedByte> state;
  std::uint64_t phase = 0;        // the current phase
  std::uint64_t block_phase = 0;  // the current block's first phase
  std::uint64_t request = 0;      // store requests so far
  std::uint64_t changes = 0;      // writes that changed a byte (a loop's repeat watch)
  // A read of bytes not written yet in the block stops its warp; the other warps finish the phase:
  // one of them writing those bytes makes it a race (named with both accesses), else the read
  // is of memory never written (`message`).
  bool pending = false;
  std::size_t pending_start = 0, pending_end = 0;  // the bytes read
  std::int32_t pending_warp = -1, pending_access = kNone;
  std::string pending_message;
};

/// The buffers the kernel writes that the replay follows by value (LaunchPlan::global_values), one
/// after the other, and which threads touched each byte: `writer` / `reader` 0 none, the
/// thread's linear index + 1, or kManyThreads; `read_by` the access (a load, or an atomic, which
/// returns the byte) that read it: kNone, its id, or kManyAccesses. A byte written by one thread
/// and read or written by another, at any time of the launch (before or after the read in the
/// replay's order), carries values between threads, whose order the GPU does not fix: the
/// accesses that read it then read an order-dependent value (WarpMachine::finish).
constexpr std::uint64_t kManyThreads = ~std::uint64_t{0};
constexpr std::int32_t kManyAccesses = -2;
struct GlobalByte {
  std::uint64_t writer = 0, reader = 0;
  std::int32_t read_by = kNone;
};
struct GlobalState {
  std::vector<std::uint8_t> bytes;
  std::vector<GlobalByte> state;
  std::uint64_t changes = 0;  // writes that changed a byte (a loop's repeat watch)
};

/// Thrown inside a warp by a read of unwritten shared memory (SharedState::pending).
struct UnwrittenRead {};

class WarpMachine : public LaneMaskWalk<WarpMachine> {
 public:
  /// A machine for runs of `plan` in `run` (both outlive it; the run's fields may change between
  /// blocks: its budget, sampling).
  WarpMachine(const LaunchPlan& plan, const RunContext& run);
  /// A machine for one more warp of `lead`'s block, run phase by phase beside it: it shares the
  /// lead's shared and followed global memory (it keeps no copy of its own).
  WarpMachine(const LaunchPlan& plan, const RunContext& run, WarpMachine& lead);

  /// Starts block (x, y, z): resets the block's barrier arrivals.
  void begin_block(std::uint32_t x, std::uint32_t y, std::uint32_t z);
  /// Runs warp w of the current block. Counts go to `tally` when `counted`, else nowhere (the
  /// warp still arrives at barriers).
  void run_warp(int warp, Tally& tally, bool counted);
  /// Runs the current block's warps (all of them, counting `only`'s or every warp's): one after
  /// the other, or phase by phase on fibers when the program follows shared memory by value.
  void run_warps(Tally& tally, const std::optional<std::uint32_t>& only);
  /// Ends the block: adds its barrier executions to `tally`.
  void end_block(Tally& tally);
  /// After the machine's last block: the bases whose followed bytes carried values between
  /// threads (Tally::communicating), and the loads and atomics that read such a byte
  /// (Tally::order_reads; every one of the base's when several accesses read the byte).
  void finish(Tally& tally) const;
  /// The recorder told of this machine's runs (sim/engine/ir_recorder.hpp); nullptr = none (a plain replay).
  /// The recorder that steers this machine's loops and observes its events (null: none), beside
  /// ReplayOptions::events or ::observer where one is set (each told of the events it wants).
  void set_recorder(Recorder* recorder);

  // For tests: evaluate an expression in warp 0 of block (0, 0, 0) with the given lane values of
  // locals (lanes beyond the warp's existing ones are ignored). Throws InvalidInput on UB.
  void set_local(LocalId local, const std::uint64_t* lanes, LaneMask defined);
  void evaluate(ExprId expr, LaneMask active, std::uint64_t* out);

  // ---- For a Recorder: the state of the warp being run, read and changed between statements.
  using Val = Operand;
  struct LocalState {
    bool uniform = true;
    std::uint64_t value = 0;
    LaneMask defined = 0;
  };
  const LaunchPlan& program() const { return p_; }
  const RunContext& run() const { return run_; }
  const Kernel& kernel() const { return k_; }
  int warp() const { return warp_; }
  const std::array<std::uint64_t, 3>& block_index() const { return block_index_; }
  int lanes() const { return lanes_; }
  LaneMask alive() const { return alive_; }  // lanes that have not returned from the kernel
  bool counted() const { return counted_; }  // the current warp's counts are kept
  bool by_iteration() const { return by_iteration_; }
  /// The current warp's counts, [StmtId] (the counted tally's, or a sink).
  StatementCounts* counts() { return counts_; }
  /// The current warp's memory figures (the counted tally's, or sinks): [access id], [StmtId],
  /// Tally::shifted; memory_counted() when they are a tally's.
  AccessCounts* access_counts() { return access_counts_; }
  std::uint64_t* flop_counts() { return flop_counts_; }
  std::uint64_t* shifted_counts() { return shifted_counts_; }
  bool memory_counted() const { return memory_counted_; }
  /// Evaluations this machine made, and those of iterations a recorder stood for without running
  /// them in the current warp (added to the tally's evaluations with it).
  std::uint64_t evaluations() const { return evaluations_; }
  std::uint64_t& skipped_evaluations() { return skipped_evaluations_; }
  LocalState& local(LocalId local) { return locals_[static_cast<std::size_t>(local)]; }
  std::uint64_t* local_lanes(LocalId local) { return local_lanes_.data() + std::size_t(local) * kMaxLanes; }
  const std::uint64_t* local_lanes(LocalId local) const {
    return local_lanes_.data() + std::size_t(local) * kMaxLanes;
  }
  void write(LocalId local, Val value, LaneMask mask);
  /// The current warp's barrier arrivals: [barrier] by the whole warp, [barrier * kMaxLanes +
  /// lane] by single lanes.
  std::vector<std::uint64_t>& full_arrivals() { return full_arrivals_; }
  std::vector<std::uint64_t>& lane_arrivals() { return lane_arrivals_; }
  void set_loop_iteration(StmtId loop, std::uint64_t k) {
    loop_iteration_[static_cast<std::size_t>(loop)] = k;
  }
  /// One iteration of a loop: the condition (before the body, or after it for do), the body, the
  /// step. Returns the lanes that go on to the next iteration; lanes that leave join `exits`.
  LaneMask iteration(StmtId id, const Stmt& s, std::size_t frame, LaneMask in, LaneMask& exits);

 private:
  WarpMachine(const LaunchPlan& plan, const RunContext& run, WarpMachine* lead);
  // ---- The control walk's backend (sim/engine/control_walk.hpp): LaneMaskWalk's primitives, the
  // loop's hooks and the machine's own leaves.
  using Walk = ControlWalk<WarpMachine, LaneMask, LaneMask>;
  friend Walk;
  // A loop instance's iterations, with its hooks at each head: the recorder that runs them its
  // own way, the repeat watch, the iteration by number, the limits' ticks.
  template <class F>
  void repeat(StmtId loop, std::size_t frame, LaneMask& in, LaneMask& exits, F&& iteration);
  void count_branch(StmtId id, LaneMask active, LaneMask taken, bool divergent);
  void count_loop_head(StmtId id, LaneMask active, LaneMask stay, bool divergent);
  inline void assign(LocalId local, ExprId value, LaneMask active);
  // `value` evaluated for its undefined behaviour only; a load in it that faults is the access's
  // fault, which the statement's accesses (run before) have met and reported as the run reports them.
  void check(ExprId value, LaneMask active);
  void undefine(LocalId local, LaneMask active) {
    locals_[local].defined &= ~active;  // declared without a value: indeterminate again
    changed(local);
  }
  void exit_kernel(LaneMask active) { alive_ &= ~active; }
  Val switch_value(ExprId value, LaneMask active) { return eval(value, active); }
  LaneMask case_lanes(const Val& v, ExprId value, std::uint64_t c, LaneMask active) const;

  void start_warp(int warp);
  Val eval(ExprId id, LaneMask active);
  Val eval_unary(ExprId id, const CompiledExpr& e, LaneMask active);
  inline Val eval_cast(ExprId id, const CompiledExpr& e, LaneMask active);
  Val eval_conversion(ExprId id, const CompiledExpr& e, LaneMask active);
  Val eval_intrinsic(ExprId id, const CompiledExpr& e, LaneMask active);
  Val eval_warp(ExprId id, const CompiledExpr& e, LaneMask active);
  void check_warp_mask(ExprId id, const CompiledExpr& e, LaneMask active);
  Val eval_select(ExprId id, const CompiledExpr& e, LaneMask active);
  // eval() with the leaves (constants, parameters, builtins, locals) inlined: most operands are
  // leaves, and a call per leaf was a third of the replay's time.
  inline Val operand(ExprId id, LaneMask active);
  inline bool uniform_leaf(ExprId id, LaneMask active, std::uint64_t& value) const;
  inline bool still_kept(ExprId expr, std::uint64_t stamp, LaneMask kept_active, LaneMask active) const;
  /// Every lane of the warp (lanes_ of them).
  LaneMask lanes_mask() const { return lanes_ >= 64 ? ~LaneMask{0} : (LaneMask{1} << lanes_) - 1; }
  /// Few active lanes (a loop that most lanes of the warp have left): operators then run lane by
  /// lane over those only, instead of over all of the warp's lanes (the replay alone; the class
  /// engine's recorder reads every lane).
  static constexpr int kSparseLanes = 4;
  bool sparse(LaneMask active) const {
    return recorder_ == nullptr && lanes_ > 2 * kSparseLanes && popcount(active) <= kSparseLanes;
  }
  /// One active lane: a varying local or thread index is read as that lane's value alone, a
  /// uniform value (Val without lanes), so the operators over it run once, as scalars (the
  /// replay alone; the class engine's recorder reads every lane).
  bool single(LaneMask active) const {
    return recorder_ == nullptr && active != 0 && (active & (active - 1)) == 0;
  }
  LaneMask eval_mask(ExprId id, LaneMask active);
  inline LaneMask compare_mask(const CompiledExpr& e, LaneMask active);
  inline LaneMask condition(ExprId id, LaneMask active);  // eval_mask, comparisons inline
  std::uint64_t* scratch(ExprId id) { return scratch_.data() + std::size_t(id) * kMaxLanes; }
  void count(StmtId id, LaneMask active);
  void memory(StmtId id, LaneMask active);
  // memory()'s parts: values followed (captures and kept accesses), floating-point operations,
  // and each access's figures: those of the access before it with the same offset and lanes
  // (CompiledAccess::same_as), one address for every lane, or each lane's own.
  /// The figures of the last access counted lane by lane without a fault.
  struct FiguredAccess {
    std::int32_t at = kNone;  // its position in StatementMemory::accesses
    LaneMask lanes = 0;
    std::int64_t lowest = 0, highest = 0;
    std::uint64_t figure = 0, conflicts = 0;  // sectors, or wavefronts and conflicts
  };
  void follow_values(const StatementMemory& m, StmtId id, LaneMask active);
  void count_flops(const StatementMemory& m, StmtId id, LaneMask active);
  bool count_as_figured(const CompiledAccess& a, LaneMask lanes, std::size_t position,
                        FiguredAccess& figured);
  enum class Placed { Any, BeforeStores, AfterStores };
  void count_accesses(const StatementMemory& m, LaneMask active, FiguredAccess& figured, Placed placed);
  void count_one_address(const CompiledAccess& a, LaneMask lanes, std::uint64_t bits, std::size_t position,
                         FiguredAccess& figured);
  void count_lane_addresses(const CompiledAccess& a, LaneMask lanes, const std::uint64_t* offsets,
                            std::size_t position, FiguredAccess& figured);
  void capture(const CompiledAccess& a, LaneMask lanes);
  // Shared memory followed by value (LaunchPlan::shared_values).
  void keep(StmtId id, LaneMask active);
  void keep_read(const KeptAccess& a, std::int64_t at, int lane);
  void keep_write(const KeptAccess& a, std::int64_t at, int lane, std::uint64_t bits, bool known);
  void keep_atomic(const KeptAccess& a, std::int64_t at, int lane, std::uint64_t operand,
                   std::uint64_t compare, bool held = true);
  void keep_unheld(const KeptAccess& a, LaneMask lanes, const Val& offset);
  // Writes to memory followed by value that changed a byte so far (GlobalState, SharedState and
  // this warp's local arrays): a loop's state includes memory, so a repeat is one only if none.
  std::uint64_t memory_changes() const;
  std::uint64_t local_changes_ = 0;
  void order_dependent_value(std::int32_t access);      // its value depends on the threads' order
  std::vector<std::int32_t>* order_atomics_ = nullptr;  // the counted tally's (or a sink)
  std::vector<std::int32_t> sink_order_atomics_;
  [[noreturn]] void race(const KeptAccess& a, std::int64_t at, int lane, bool writes,
                         std::int32_t other_access, std::int32_t other_warp, bool other_writes) const;
  std::uint64_t shared_load(const MemoryAccess& a, std::int64_t at, int lane, ScalarType type) const;
  std::string shared_element(std::int32_t base, std::int64_t at, int width) const;
  [[noreturn]] void unwritten(const MemoryAccess& a, std::int64_t at, int byte, int lane);
  void finish_phase();  // the error of a pending read (SharedState::pending), if any
  void run_phased(Tally& tally, const std::optional<std::uint32_t>& only);
  void keep_global(const KeptAccess& a, LaneMask lanes, const Val& offset);
  void keep_local(const KeptAccess& a, LaneMask lanes, const Val& offset);
  std::uint64_t local_load(const MemoryAccess& a, std::int64_t at, int lane, ScalarType type) const;
  std::vector<std::uint8_t> local_bytes_, local_written_;  // [lane * local_size + byte], this warp's
  void check_place(const KeptAccess& a, std::int64_t at, int lane, const char* verb) const;
  std::uint64_t global_load(const MemoryAccess& a, std::int64_t at, int lane, ScalarType type) const;
  std::uint64_t thread_of(int lane) const;  // linear over the grid
  std::unique_ptr<GlobalState> own_global_;
  GlobalState* global_ = nullptr;          // own_global_, or the lead's
  std::vector<std::uint64_t> atomic_old_;  // [access * kMaxLanes + lane]: what the atomic returned
  std::unique_ptr<SharedState> own_shared_;
  SharedState* shared_ = nullptr;  // own_shared_, or the lead's
  WarpMachine* lead_ = nullptr;    // the machine whose block this one's warp belongs to
  bool phased_ = false;            // barriers yield (Fiber::yield)
  struct Crew {
    std::vector<std::unique_ptr<WarpMachine>> machines;  // [warp]; [0] unused (this machine)
    std::vector<std::unique_ptr<Fiber>> fibers;          // [warp]
  };
  std::unique_ptr<Crew> crew_;
  std::deque<StoreWrite>* stores_ = nullptr;  // the counted tally's, or a sink
  std::deque<StoreWrite> sink_stores_;
  std::string* store_fault_ = nullptr;
  std::string sink_store_fault_;
  std::uint64_t store_sequence_ = 0;
  void misaligned(const CompiledAccess& a, int lane, std::int64_t offset);
  /// Whether `a` goes through the null pointer (MemoryBase::null); then the fault is kept for
  /// `lanes`, the lanes that make it (null_fault). Inline: every access asks.
  bool null_access(const CompiledAccess& a, LaneMask lanes) {
    return k_.bases[static_cast<std::size_t>(a.base)].null && null_fault(a, lanes);
  }
  bool null_fault(const CompiledAccess& a, LaneMask lanes);
  InvalidInput null_pointer_error(const MemoryAccess& access, int lane) const;
  std::string out_of_bounds_text(const MemoryAccess& access, std::int64_t at, int lane) const;
  InvalidInput out_of_bounds_error(const MemoryAccess& access, std::int64_t at, int lane) const;
  Val load(ExprId id, const CompiledExpr& e, LaneMask active);
  Val read_data(ExprId id, const CompiledExpr& e, const MemoryAccess& a, const Val& offset, LaneMask active);
  // An access reaching past its buffer (LaunchPlan::base_bytes): the lowest such lane's fault.
  void out_of_bounds(const CompiledAccess& a, LaneMask lanes, const std::int64_t* addresses,
                     std::int64_t uniform);
  // The fast path (sim/engine/ir_lane_pattern.hpp): counts the access made by `lanes` and returns true,
  // or returns false having changed nothing (the lane-by-lane path then does it).
  bool affine_access(const CompiledAccess& a, LaneMask lanes);
  bool affine_offset(const AffineOffset& f, std::size_t access, LaneMask active, AffineValue& out);
  // affine_offset's parts: each leaf's value in the warp's first lane and its lane pattern, the
  // value and its range checks in int128, and the lanes' pattern (cached per access).
  struct AffineLeaves {
    std::array<std::int64_t, kAffineLeaves> base{};
    std::array<LanePattern*, kAffineLeaves> pattern{};
    bool varying = false;  // some leaf differs between lanes
  };
  inline bool affine_leaf(const AffineLeaf& leaf, std::uint64_t generation, LaneMask active,
                          AffineLeaves& leaves, std::size_t i);
  bool wide_affine_value(const AffineOffset& f, const AffineLeaves& leaves, Int128& value) const;
  bool affine_lanes(const AffineOffset& f, std::size_t access, const AffineLeaves& leaves,
                    std::uint64_t generation, Int128 value, AffineValue& out);
  // affine_offset's range checks and value in int64 (AffineOffset::small): 1 every check holds
  // (the value in small_value_), 0 one fails, -1 an int64 overflow on the way (int128 decides).
  int small_forms(const AffineOffset& f, const std::array<std::int64_t, kAffineLeaves>& base,
                  const std::array<LanePattern*, kAffineLeaves>& pattern);
  std::int64_t small_value_ = 0;
  struct PatternOf;
  // t becomes the pattern of `lanes` (the defined ones, values of `type`); false where they do
  // not fit an AffineValue.
  bool pattern_of_lanes(PatternOf& t, const std::uint64_t* lanes, LaneMask defined, ScalarType type);
  // ---- The event stream (sim/engine/ir_events.hpp): each event goes to the observers compiled in
  // (inline), then to events_ (one virtual call per event; a null pointer tested when none).
  struct LineCounter;    // statements, branches, loop heads: counts_ (and by iteration)
  struct AccessFigures;  // memory requests: access_counts_, extents_
  template <class Event>
  void emit(const Event& e);
  void emit_warp();      // a WarpEvent for the warp now running
  void emit_warp_end();  // a WarpEndEvent for it
  void request(const CompiledAccess& a, LaneMask lanes, const std::int64_t* addresses, std::int64_t lowest,
               std::int64_t highest, std::uint64_t figure, std::uint64_t conflicts);
  EventObserver* events_ = nullptr;       // dynamic_, but none while estimate() samples
  unsigned wanted_ = 0;                   // events_->wants(), 0 without events_
  EventObserver* dynamic_ = nullptr;      // ReplayOptions::events, or relay_
  std::unique_ptr<EventObserver> relay_;  // ReplayOptions::observer's evaluations
  std::unique_ptr<EventObserver> tee_;    // the recorder and relay_ or ReplayOptions::events
  StatementCounts* iteration_counts(StmtId id);
  void arrive(StmtId id, LaneMask active);  // a barrier's arrivals (phased: then the other warps')
  void check_limits();
  [[noreturn]] void too_many_iterations(StmtId loop) const;
  // A loop whose warp comes back to a state it was in at its head never ends (a warp runs on its
  // own and deterministically): past kRepeatWatchStart heads, the state (the lanes in the loop and
  // the locals the loop writes) is saved at heads 2^j and compared with later heads (Brent).
  struct RepeatWatch {
    std::uint64_t heads = 0, saved_at = 0;
    LaneMask in = 0;
    const std::vector<LocalId>* written = nullptr;  // written_in(loop)
    std::vector<std::uint64_t> values;              // [written][lane], undefined lanes 0
    std::vector<LaneMask> defined;                  // [written]
    std::uint64_t memory = 0;                       // memory_changes() when saved
  };
  void watch_repeat(StmtId loop, std::unique_ptr<RepeatWatch>& watch, std::uint64_t heads, LaneMask in);
  // The locals a loop's body, condition and step write, found once per loop (when first watched).
  const std::vector<LocalId>& written_in(StmtId loop);
  std::vector<std::unique_ptr<std::vector<LocalId>>> written_in_;  // [StmtId], made on demand
  void save_state(RepeatWatch& w, LaneMask in);
  bool same_state(const RepeatWatch& w, LaneMask in) const;
  [[noreturn]] void never_ends(StmtId loop, LaneMask in, std::uint64_t period) const;
  std::string block_and_thread(int lane) const;
  /// " (inlined at CALLS)" for an access of an inlined function's body (ir::inlined_at_access), "".
  std::string inlined_at(const MemoryAccess& access) const;
  std::string running_loop() const;  // " in the for loop at FILE:LINE:COL (block ..., warp N)"
  [[noreturn]] void undefined(ExprId expr, const std::string& what, LaneMask lanes) const;

  const LaunchPlan& p_;
  const RunContext& run_;
  const Kernel& k_;
  Recorder* recorder_ = nullptr;
  bool counted_ = false;                   // the current warp's counts are kept
  std::uint64_t skipped_evaluations_ = 0;  // this warp's evaluations of iterations not run
  std::array<std::uint64_t, 3> block_index_{};
  std::array<std::uint64_t, kBuiltinCount> builtins_{};  // uniform builtins of this block
  int warp_ = 0;
  const WarpThreads* threads_ = nullptr;
  int lanes_ = 0;       // lanes to loop over (the warp size)
  LaneMask alive_ = 0;  // lanes that have not returned from the kernel
  std::vector<LocalState> locals_;
  std::vector<std::uint64_t> local_lanes_;
  std::vector<std::uint64_t> scratch_;
  // Lane values kept (LaunchPlan::kept): an expression's scratch holds its value for the lanes of
  // `active` as computed at `stamp`; still so while no local it reads has been written since
  // (local_version_ < stamp) within the warp (stamp > warp_stamp_). Off with a recorder.
  struct Kept {
    std::uint64_t stamp = 0;
    LaneMask active = 0;
  };
  std::vector<Kept> kept_;
  /// A value kept like kept_'s lanes, with one word of its own: `value`.
  struct KeptValue {
    std::uint64_t stamp = 0;
    LaneMask active = 0;
    std::uint64_t value = 0;
    bool uniform = false;
  };
  /// A load from the launch's read-only data whose offset is a kept expression (`col_idx[jj]`):
  /// its lanes (in scratch), or its one value (uniform), kept from the offset's locals.
  std::vector<KeptValue> kept_load_;
  /// A comparison's lanes over more than kSparseLanes lanes (compare_mask): value is the mask.
  std::vector<KeptValue> kept_mask_;
  std::vector<std::uint64_t> local_version_;  // [LocalId]: the stamp of its last change
  std::uint64_t stamp_ = 0;
  std::uint64_t warp_stamp_ = 0;
  void changed(LocalId local) { local_version_[static_cast<std::size_t>(local)] = ++stamp_; }
  std::vector<std::uint64_t> loop_iteration_;  // [StmtId of a loop]
  StatementCounts* counts_ = nullptr;          // statements of the counted tally, or a sink
  std::vector<std::vector<StatementCounts>>* iterations_ = nullptr;
  std::vector<StatementCounts> sink_;
  AccessCounts* access_counts_ = nullptr;  // the counted tally's, or a sink
  std::uint64_t* flop_counts_ = nullptr;
  MemoryFault* faults_ = nullptr;
  std::vector<MemoryFault> sink_faults_;
  BaseExtent* extents_ = nullptr;
  std::vector<BaseExtent> sink_extents_;
  void fault(std::size_t item, const std::string& message, bool out_of_bounds = false);
  std::vector<AccessCounts> sink_accesses_;
  std::uint64_t* shifted_counts_ = nullptr;
  std::vector<std::uint64_t> sink_shifted_;
  bool memory_counted_ = false;
  PatternStore patterns_;
  std::uint64_t affine_requests_ = 0;  // requests affine_access() counted, all warps
  struct PatternOf {                   // a local's (or thread index's) lanes as a pattern
    std::uint64_t generation = 0;
    LaneMask defined = 0;       // locals: the lanes the pattern was made from
    std::uint64_t version = 0;  // local_version_ (locals) / unused (thread indices)
    LanePattern* pattern = nullptr;
    std::int64_t base = 0;
  };
  std::vector<PatternOf> local_pattern_;   // [LocalId]
  std::vector<PatternOf> thread_pattern_;  // [warp * 3 + dimension]
  struct AffineCache {  // [access id]: its last pattern (sum of coefficient x leaf pattern)
    std::uint64_t generation = 0;
    std::array<const LanePattern*, kAffineLeaves> leaves{};
    LanePattern* pattern = nullptr;
    std::int64_t shift = 0;
    // and that pattern's counts for the last set of lanes
    std::uint64_t counts_generation = 0;
    const LanePattern* counted = nullptr;
    LaneMask mask = 0;
    LanePattern::Counts* counts = nullptr;
    // Patterns that rarely repeat (lanes from loaded data: `values[jj]` with jj = row_ptr[row] + k)
    // cost more than they save: each new pattern or set of lanes raises `churn` by 2, each reuse
    // lowers it by 1; past kChurnLimit the access goes lane by lane for the rest of the run
    // (exact either way).
    std::uint32_t churn = 0;
    bool off = false;
  };
  static constexpr std::uint32_t kChurnLimit = 64;
  std::vector<AffineCache> affine_cache_;
  std::vector<std::uint64_t> sink_flops_;
  std::vector<std::vector<StatementCounts>> sink_iterations_;
  bool by_iteration_ = false;
  // Active-lane counts of the last mask counted: consecutive statements mostly share one mask.
  LaneMask counted_mask_ = 0;
  std::uint64_t counted_lanes_ = 0;
  std::uint64_t lanes_of(LaneMask mask) {
    if (mask != counted_mask_) {
      counted_mask_ = mask;
      counted_lanes_ = static_cast<std::uint64_t>(popcount(mask));
    }
    return counted_lanes_;
  }
  std::uint64_t evaluations_ = 0;              // this machine's, all blocks
  std::uint64_t block_start_evaluations_ = 0;  // evaluations_ when the current block began
  std::uint64_t ticks_ = 0;
  // Barrier arrivals of the current warp: full-warp arrivals, and per lane for partial ones.
  std::vector<std::uint64_t> full_arrivals_;
  std::vector<std::uint64_t> lane_arrivals_;  // [barrier][lane]
  // Per barrier over the block's threads so far: most and fewest arrivals of a thread.
  std::vector<std::uint64_t> block_max_, block_min_;
  // With by_iteration: arrivals per (barrier, iteration): per lane in the warp, and per block
  // (max, min over threads that arrived at least once, how many threads did).
  struct IterationArrivals {
    std::array<std::uint32_t, kMaxLanes> lanes{};
  };
  struct IterationBlock {
    std::uint64_t max = 0, min = ~std::uint64_t{0}, threads = 0;
  };
  std::vector<std::vector<IterationArrivals>> warp_iteration_arrivals_;  // [barrier][k]
  std::vector<std::vector<IterationBlock>> block_iteration_arrivals_;    // [barrier][k]
};

// The per-line counts: each warp evaluation of a statement, condition or loop head into the
// counted tally's statements (and, with by_iteration, its iteration's).
struct WarpMachine::LineCounter : IgnoreEvents {
  using IgnoreEvents::on;
  WarpMachine& m;
  explicit LineCounter(WarpMachine& machine) : m(machine) {}
  void on(const StatementEvent& e) { add<false>(e.site, m.lanes_of(e.active), 0, false); }
  void on(const BranchEvent& e) { condition(e.site, e.active, e.taken, e.divergent); }
  void on(const LoopHeadEvent& e) { condition(e.site, e.active, e.taken, e.divergent); }
  void condition(StmtId id, LaneMask active, LaneMask taken, bool divergent) {
    const std::uint64_t lanes = m.lanes_of(active);
    add<true>(id, lanes, taken == active ? lanes : static_cast<std::uint64_t>(popcount(taken)), divergent);
  }
  // One evaluation of `lanes` active lanes (a condition's also its taken lanes and divergence).
  template <bool Condition>
  void add(StmtId id, std::uint64_t lanes, std::uint64_t taken_lanes, bool divergent) {
    add_to<Condition>(m.counts_[id], lanes, taken_lanes, divergent);
    if (m.by_iteration_) {
      if (StatementCounts* it = m.iteration_counts(id)) add_to<Condition>(*it, lanes, taken_lanes, divergent);
    }
  }
  template <bool Condition>
  static void add_to(StatementCounts& c, std::uint64_t lanes, std::uint64_t taken_lanes, bool divergent) {
    c.warp_evaluations += 1;
    c.active_lanes += lanes;
    if constexpr (Condition) {
      c.taken_lanes += taken_lanes;
      c.divergent += divergent;
    }
  }
};

// The memory figures: each request into its access's counts and extent.
struct WarpMachine::AccessFigures : IgnoreEvents {
  using IgnoreEvents::on;
  WarpMachine& m;
  explicit AccessFigures(WarpMachine& machine) : m(machine) {}
  void on(const AccessEvent& e) {
    AccessCounts& c = m.access_counts_[e.site];
    c.requests += e.requests;
    c.lanes += e.lane_count;
    c.bytes += e.bytes;
    c.sectors += e.sectors;
    c.wavefronts += e.wavefronts;
    c.conflicts += e.conflicts;
    merge(m.extents_[e.site], BaseExtent{true, e.lowest, e.highest + static_cast<std::int64_t>(e.width)});
  }
};

template <class Event>
__attribute__((always_inline)) inline void WarpMachine::emit(const Event& e) {
  LineCounter(*this).on(e);
  AccessFigures(*this).on(e);
  if ((wanted_ & kEventBit<Event>) != 0) events_->on(e);
}

// Whether lanes kept at `stamp` for `kept_active` (of expression `expr`'s value, or of what was
// read at it) still hold for `active`: made in this warp, for a superset of these lanes, and
// none of the expression's locals written since.
inline bool WarpMachine::still_kept(ExprId expr, std::uint64_t stamp, LaneMask kept_active,
                                    LaneMask active) const {
  if (stamp <= warp_stamp_ || (active & ~kept_active) != 0) return false;
  const std::uint8_t locals = p_.kept[expr];
  for (int i = 0; i < locals; ++i)
    if (local_version_[static_cast<std::size_t>(p_.kept_locals[expr][i])] >= stamp) return false;
  return true;
}

}  // namespace warpdiv::sim::ir::detail
