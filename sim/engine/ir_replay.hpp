// The SIMT replay engine over the kernel IR (sim/model/ir.hpp): every block, every warp, lane masks.
//
// Threads form warps in linear order x + y*Bx + z*Bx*By; the last warp of a block may be partial
// (its missing lanes do not exist). Within a warp, a branch splits the active mask and the halves
// reconverge at the end of the statement; a loop's k-th condition is evaluated by the lanes still
// in it; break, continue and return remove lanes until the end of their loop, iteration or call.
// Warps of a block only meet at barriers, and control flow never depends on memory (validate()
// refuses data-dependent conditions), so each warp is replayed on its own.
//
// Counts per statement (indexed by StmtId), 128-bit:
//   warp_evaluations  warps reaching the statement with >= 1 active lane (for a Loop: each
//                     evaluation of its condition, i.e. each time a warp reaches its head)
//   divergent         conditions (If, Loop, Switch): the active lanes disagree
//   active_lanes      active lanes summed over the warp evaluations
//   taken_lanes       conditions: lanes for which it is true (If: then; Loop: stay in; Switch: a
//                     case label matches)
//   block_executions  barriers: (block, instance) pairs that at least one thread reaches
//   partial_block_executions  barriers: those that not every thread of the block reaches
//   blocks_with_partial       barriers: blocks with at least one such instance
// A barrier's instance j in a block is the (j+1)-th arrival of each thread, as the hardware
// counts arrivals: block_executions = max over the block's threads of its arrivals, partial =
// max - min (threads that arrive fewer times miss the last instances).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/support/count.hpp"
#include "sim/model/ir.hpp"
#include "sim/engine/ir_events.hpp"
#include "sim/memory/ir_memory.hpp"

namespace warpdiv::sim::ir {

struct Dim3 {
  std::uint32_t x = 1;
  std::uint32_t y = 1;
  std::uint32_t z = 1;
  std::uint64_t volume() const { return std::uint64_t{x} * y * z; }
};
bool operator==(const Dim3& a, const Dim3& b);
/// "(x, y, z)".
std::string to_string(const Dim3& d);

namespace launch_limits {
// CUDA's limits (compute capability 3.0 .. 9.0).
constexpr std::uint32_t kMaxGridX = 2147483647;  // 2^31 - 1
constexpr std::uint32_t kMaxGridYZ = 65535;
constexpr std::uint32_t kMaxBlockXY = 1024;
constexpr std::uint32_t kMaxBlockZ = 64;
constexpr std::uint32_t kMaxThreadsPerBlock = 1024;
constexpr int kMinWarpSize = 1;
constexpr int kMaxWarpSize = 64;  // lane masks are 64-bit
}  // namespace launch_limits

/// Grid sizes an engine accepts: CUDA's (grid y and z up to 65,535), or the model's (every
/// dimension up to 2^31 - 1: a tiled multiply of a 2^31 - 1 cube with 32 x 32 tiles needs 2^26
/// block rows, which no single CUDA launch has).
enum class GridLimits { Cuda, Model };

struct Launch {
  Dim3 grid;
  Dim3 block;
  int warp_size = 32;
  /// One per kernel parameter, in order; the types must match the scalar parameters' types
  /// (Value::of / parse_value make them); entries of opaque parameters are ignored.
  std::vector<Value> arguments;
  /// [parameter]: a pointer parameter's buffer in bytes (`--alloc NAME=COUNT`: COUNT x its
  /// element size); every global access through it is then bounds-checked (ReplayResult::
  /// access_out_of_bounds). Empty or 0: not known, not checked.
  std::vector<std::uint64_t> buffer_bytes;
  /// [parameter]: the buffer's values (`--data NAME=FILE`), little-endian as on the GPU,
  /// buffer_bytes[p] bytes; null: zeros (`--alloc`). Loads of integer elements from a buffer of
  /// known size have values (Expr::access): a branch may depend on them.
  std::vector<std::shared_ptr<const std::string>> buffer_data;
  /// extern __shared__ bytes per block (`--dynamic-smem`): accesses to an extern __shared__
  /// array are bounds-checked against it; 0: not known, not checked.
  std::uint64_t dynamic_shared_bytes = 0;
};

/// The value of a builtin that is the same in every thread of the launch (blockDim, gridDim,
/// warpSize): true and `bits`; false for threadIdx and blockIdx.
inline bool launch_constant(const Launch& launch, Builtin builtin, std::uint64_t& bits) {
  switch (builtin) {
    case Builtin::BlockDimX:
      bits = launch.block.x;
      return true;
    case Builtin::BlockDimY:
      bits = launch.block.y;
      return true;
    case Builtin::BlockDimZ:
      bits = launch.block.z;
      return true;
    case Builtin::GridDimX:
      bits = launch.grid.x;
      return true;
    case Builtin::GridDimY:
      bits = launch.grid.y;
      return true;
    case Builtin::GridDimZ:
      bits = launch.grid.z;
      return true;
    case Builtin::WarpSize:
      bits = static_cast<std::uint64_t>(launch.warp_size);
      return true;
    default:
      return false;
  }
}

/// Throws InvalidInput naming the field and the allowed range: grid x 1..2^31-1, y and z
/// 1..65535; block x, y 1..1024, z 1..64, x*y*z <= 1024; warp size a power of two 1..64;
/// one argument per parameter, of the parameter's type.
void validate(const Launch& launch, const Kernel& kernel);
/// [parameter]: the pointer parameters whose buffers have values at this launch (a size in
/// Launch::buffer_bytes: the data of buffer_data, or zeros).
std::vector<bool> buffers_with_values(const Kernel& kernel, const Launch& launch);
/// As validate(), with grid y and z up to 2^31 - 1 under GridLimits::Model.
void validate(const Launch& launch, const Kernel& kernel, GridLimits limits);

/// The blocks first .. last (inclusive in each dimension) of a grid.
struct BlockRange {
  Dim3 first{0, 0, 0};
  Dim3 last{0, 0, 0};
  std::uint64_t volume() const {
    return std::uint64_t{last.x - first.x + 1} * (last.y - first.y + 1) * (last.z - first.z + 1);
  }
};

struct StatementCounts {
  Count warp_evaluations = 0;
  Count divergent = 0;
  Count active_lanes = 0;
  Count taken_lanes = 0;
  Count block_executions = 0;
  Count partial_block_executions = 0;
  /// Barriers: blocks in which at least one instance is partial ("13 of 49 blocks").
  Count blocks_with_partial = 0;
};
bool operator==(const StatementCounts& a, const StatementCounts& b);
StatementCounts& operator+=(StatementCounts& a, const StatementCounts& b);  // overflow-checked

/// Sees every warp evaluation of a replay, in each warp's own order (a probe's comparison keeps
/// them). Called from the replay's worker threads: concurrently for different blocks, never for
/// two evaluations of one block at once. Not called while estimate() samples.
class EvaluationObserver {
 public:
  virtual ~EvaluationObserver() = default;
  /// Warp `warp` (index within its block) of block `block` reached `statement` with lanes
  /// `active` (bit i = lane i); `taken`: for a condition (If, Loop, Switch), the lanes for which
  /// it holds (see taken_lanes), else 0.
  virtual void evaluation(const Dim3& block, std::uint32_t warp, StmtId statement, std::uint64_t active,
                          std::uint64_t taken) = 0;
};

/// A pre-run limit of about a minute on the 2-core machine (at >= 1e8 evaluations per second).
constexpr Count kDefaultMaxEvaluations = Count{6'000'000'000ULL};

/// With by_iteration, iterations of one loop counted separately at most (memory: one row each).
constexpr std::uint64_t kMaxIterationsByIteration = std::uint64_t{1} << 20;

/// When the replay runs a launch as native code (jit/native_replay.hpp) instead of interpreting the
/// kernel model. Native code compiles each model once per process (tens of milliseconds), so it
/// pays where the interpreter would take longer.
enum class NativeReplay {
  Off,     // the interpreter: the reference native code is tested against
  Auto,    // launches estimated at kNativeMinEvaluations or more, and those of a model compiled already
  Always,  // every launch within the native replay's scope (for tests)
};
/// Where compiling pays: a model compiles in 20 to 75 ms (BENCHMARKS.md, BM_NativeCompile), and
/// native code saves about 6 ns of two cores' time per evaluation (100 against 250 million
/// evaluations a second with memory figures), so about 0.15 s of the interpreter's work.
constexpr Count kNativeMinEvaluations = Count{20'000'000};

struct ReplayOptions {
  /// Also count per iteration of each statement's innermost loop (ReplayResult::iterations).
  /// A loop running past kMaxIterationsByIteration iterations then stops the run (InvalidInput).
  bool by_iteration = false;
  /// Replay only this block (blockIdx) / count only this warp (index within its block; with
  /// only_block unset, that warp of every block). Barrier counts stay per whole block.
  std::optional<Dim3> only_block;
  std::optional<std::uint32_t> only_warp;
  /// Replay only these blocks (a box of the grid; not with only_block): e.g. each block class of
  /// a tiled kernel (inner blocks, the last column, the last row, the corner) on its own.
  std::optional<BlockRange> only_blocks;
  /// Grid sizes accepted (GridLimits::Model: y and z up to 2^31 - 1, for launches past CUDA's).
  GridLimits grid_limits = GridLimits::Cuda;
  /// Worker threads; 0 = std::thread::hardware_concurrency().
  unsigned threads = 0;
  /// The run's budget of warp-statement evaluations: a launch of many blocks estimated above it
  /// (from sample blocks) is refused before it starts, and one that turns out bigger than twice
  /// it is stopped; a run of a few blocks (no estimate) is stopped past it. InvalidInput either
  /// way, naming the loop that was running.
  Count max_evaluations = kDefaultMaxEvaluations;
  /// Set by the caller (e.g. from SIGINT) to stop the run: replay() then throws Interrupted.
  const std::atomic<bool>* stop = nullptr;
  /// Progress: the engine adds each finished block (read it from another thread).
  std::atomic<std::uint64_t>* blocks_done = nullptr;
  /// Sees each warp evaluation (nullptr: none; the replay is then as fast as without).
  EvaluationObserver* observer = nullptr;
  /// Sees every event the interpreter emits (sim/engine/ir_events.hpp), as `observer` sees evaluations:
  /// each warp's events follow a WarpEvent naming it (again after each barrier where the warps of
  /// a block run phase by phase). nullptr: none. Set, the launch is interpreted (no native code).
  /// The replay's: the class engine, which stands for warps it does not run, emits none.
  EventObserver* events = nullptr;
  /// Count the memory figures (sim/memory/ir_memory.hpp). False: ReplayResult::memory_counted is false
  /// and no access is evaluated (control-flow counts alone and the class engine need none).
  bool memory = true;
  /// Evaluate access offsets as base + lane pattern where the index arithmetic allows, with
  /// each pattern's sectors and wavefronts counted once per address residue
  /// (sim/engine/ir_lane_pattern.hpp); false: every offset lane by lane (the reference it is tested
  /// against). The figures are the same either way.
  bool affine_offsets = true;
  /// Keep what the stores leave in the pointer parameters' buffers (ReplayResult::stored): each
  /// lane's address and, where the model holds the stored value (MemoryAccess::value), the value.
  bool capture_stores = false;
  /// When to run the launch as native code (jit/, where it is linked in; ReplayResult::native
  /// says whether it did). The counts are the same either way.
  NativeReplay native = NativeReplay::Auto;
  /// Under NativeReplay::Auto, the estimate from which a launch is worth compiling.
  Count native_min_evaluations = kNativeMinEvaluations;
};

/// What a launch's stores leave in one pointer parameter's buffer (ReplayOptions::capture_stores),
/// byte by byte from the buffer's start.
struct StoredBuffer {
  static constexpr std::uint8_t kUnwritten = 0;
  static constexpr std::uint8_t kWritten = 1;  // `bytes` holds what the stores leave
  static constexpr std::uint8_t kUnknown = 2;  // a store whose value the model does not hold, or an atomic
  static constexpr std::uint8_t kConflict =
      3;  // threads wrote different values: the result depends on their order
  /// Atomics of several threads whose operations do not commute (exch, cas, inc, dec, float add,
  /// different operations): `bytes` holds the result in the replay's order, which the GPU does not keep.
  static constexpr std::uint8_t kOrdered = 4;
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint8_t> state;
  ScalarType element = ScalarType::U64;  // the type the stores write (for messages)
};

struct ReplayResult {
  /// Indexed by StmtId.
  std::vector<StatementCounts> statements;
  /// With by_iteration: [StmtId][k] = counts of the statement in iteration k (0-based) of its
  /// innermost loop (innermost_loops()); empty for statements outside loops. Barrier fields are
  /// per iteration too (arrivals made in that iteration).
  std::vector<std::vector<StatementCounts>> iterations;
  /// Memory figures (sim/memory/ir_memory.hpp) of each access, indexed as Kernel::accesses, and the
  /// floating-point operations of each statement (lanes x operations), indexed by StmtId; with
  /// `memory_counted` false (an engine that does not count them) both are empty.
  bool memory_counted = false;
  std::vector<AccessCounts> accesses;
  std::vector<Count> flops;
  /// Undefined behaviour met in an access's address or its lanes' guard (an index that
  /// overflows int at this launch ...) or a misaligned address, in the first block (in x, y, z
  /// order) where it happens: the access is then not counted (its figures are 0) and this says
  /// why; "" for the others. `flop_faults`, by StmtId, likewise for the guard of a
  /// statement's floating-point operations.
  std::vector<std::string> access_faults;
  /// [access]: its fault is an address outside its buffer (Launch::buffer_bytes): bad input.
  std::vector<bool> access_out_of_bounds;
  std::vector<std::string> flop_faults;
  /// Per base (Kernel::bases): the bytes the counted accesses touched (to size the buffers of a
  /// GPU run of the real kernel).
  std::vector<BaseExtent> extents;
  Count blocks = 0;                      // blocks replayed
  Count warps = 0;                       // warps replayed (counted ones under only_warp)
  Count warp_statement_evaluations = 0;  // sum of warp_evaluations: the work done
  /// Of the requests counted, those the fast path counted from lane patterns
  /// (ReplayOptions::affine_offsets); the others were evaluated lane by lane.
  Count affine_requests = 0;
  /// [access]: loads whose values the run computed (sim/model/ir.hpp computed_loads).
  std::vector<bool> computed_loads;
  /// With capture_stores: [parameter] what the stores leave in its buffer (empty: no store);
  /// `stores_not_captured`: why a buffer's contents are not known ("" when they are): a store
  /// the model could not place, undefined behaviour in a stored value.
  std::vector<StoredBuffer> stored;
  std::string stores_not_captured;
  /// Buffers the kernel writes that the replay followed by value and through which
  /// values passed between threads (a byte one thread wrote and another read or wrote, at any
  /// time of the launch). [base ids]
  std::vector<std::int32_t> communicating;
  /// The loads and atomics of those buffers that read such a byte (each of the buffer's loads and
  /// atomics where several read one): their values were counted for the replay's order (blocks,
  /// warps, lanes ascending), which the GPU does not keep (order_dependence()); a load that read
  /// only bytes no other thread wrote (a thread's own element) is not among them. [access ids]
  std::vector<std::int32_t> order_reads;
  /// Atomics on shared memory that several threads of a block ran on one element between two
  /// barriers, whose returned values therefore depend on the order, and shared loads of an
  /// element that atomics of several threads left in an order that decides it (exch, cas, inc,
  /// dec, float add, different operations). [access ids]
  std::vector<std::int32_t> order_atomics;
  /// Where the check of shared-memory races by address (sim/memory/shared_races.hpp) covered
  /// its blocks only in part (its budget stopped it), one line saying what it left; else "".
  std::string races_unchecked;
  /// The run went through native code (ReplayOptions::native), not the interpreter.
  bool native = false;
  /// Why native code handed the launch over to the interpreter (one line), "" where it did not.
  std::string native_hand_over;
};

/// A figure of a replay that holds for its documented order only: a condition, an address, the
/// lanes of an access or a stored value that depends on a value another thread changes: read by a
/// load (or returned by an atomic) of ReplayResult::order_reads or order_atomics, or stored from
/// such a value into a buffer (each of whose loads then counts, sim/model/ir.hpp computed_loads).
/// A load whose lanes depend on the order counts too (it may read other bytes on the GPU), and
/// where a branch depends on it (which threads run which accesses then varies), every load of
/// every buffer followed by value that the kernel writes does.
struct OrderDependence {
  SourceRange range;
  bool condition = false;       // a branch (its counts depend on the order)
  std::int32_t access = kNone;  // else the access concerned
  /// "FILE:LINE:COL: the condition of this if depends on atomicAdd(count, 1) (atomic result)
  /// (FILE:LINE:COL), a value other threads change: counted with blocks, warps and lanes in
  /// ascending order, a block's warps up to each barrier in turn (the GPU's order varies from run
  /// to run)".
  std::string message;
};
std::vector<OrderDependence> order_dependence(const Kernel& kernel, const Launch& launch,
                                              const ReplayResult& result);

/// What a run would cost, estimated by replaying a few sample blocks (the first, the last and
/// some between) and scaling by the number of blocks.
struct ReplayEstimate {
  Count blocks = 0;
  Count warp_statement_evaluations = 0;
  /// Lanes of stores and atomics to pointer parameters' buffers (with ReplayOptions::memory): what
  /// capture_stores keeps a record of, one per lane.
  Count lane_stores = 0;
  /// Host bytes the run keeps for the buffers it follows by value (a value and the threads that
  /// wrote and read it, for each byte), 0 when it follows none; estimate() does not allocate them
  /// for capture_stores alone.
  Count followed_bytes = 0;
};
ReplayEstimate estimate(const Kernel& kernel, const Launch& launch, const ReplayOptions& options = {});
/// Host bytes capture_stores keeps for each lane store (ReplayEstimate::lane_stores) until the run's
/// buffers are assembled.
std::size_t capture_record_bytes();

/// Validates kernel and launch, refuses runs estimated above options.max_evaluations (InvalidInput
/// with the figure and the limit), then replays. Throws InvalidInput for undefined behaviour met on
/// the way ("FILE:LINE:COL: undefined behaviour: ... in block (x, y, z), thread (x, y, z)"), and
/// Interrupted when options.stop is set.
ReplayResult replay(const Kernel& kernel, const Launch& launch, const ReplayOptions& options = {});

/// Evaluates an expression that reads only constants and scalar parameters (no locals, no
/// builtins, no opaque values): e.g. a grid size written over the kernel's arguments. Throws
/// InvalidInput on undefined behaviour or on an expression that reads anything else.
Value evaluate_uniform(const Kernel& kernel, ExprId expr, const std::vector<Value>& arguments);

}  // namespace warpdiv::sim::ir
