// A launch replayed as native code (for the replay's speed): the hook through which replay() (sim/
// ir_replay.cpp) runs a launch compiled to machine code instead of interpreting the kernel model
// warp by warp. sim/ knows only this interface; jit/ (LLVM) implements it and installs itself.
// Internal to sim/ and jit/: the tests and the CLI see only ReplayOptions::native and
// ReplayResult::native.
//
// Exactness: the interpreter (WarpMachine) is the reference. Native code decides only what it
// does itself; at the first thing it does not (undefined behaviour, a fault in an access, a
// loop past its head limit, a run past its budget) it hands the launch over, and replay()
// replays the whole launch again with the interpreter, which reports it as it always has.
//
// The interface crosses a shared object (the CLI loads jit/ as a plugin, jit/plugin.cpp): what
// crosses it is the launch plan serialised (sim/engine/launch_plan.hpp, versioned by
// kLaunchPlanVersion), plain data whose layout that version covers (NativeRun, NativeTally and
// the counts they point to), plain virtual calls and return values; no exception is thrown
// across it. A plugin of another version is refused, not called.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "sim/engine/launch_plan.hpp"
#include "sim/memory/ir_memory.hpp"

namespace warpdiv::sim::ir::detail {

/// What native code did with a block: Done, or HandOver(reason), the launch then left to the
/// interpreter. The reason is static text of the plugin (one line, never freed).
struct NativeOutcome {
  enum class Kind { Done, HandOver };
  Kind kind = Kind::Done;
  const char* reason = "";
  static NativeOutcome done() { return {}; }
  static NativeOutcome hand_over(const char* why) { return {Kind::HandOver, why}; }
};

/// What a run of a plan gives native code besides the plan (RunContext's part it reads): read
/// at each block, so the caller may change the budget between blocks.
struct NativeRun {
  const char* const* data =
      nullptr;  // [base]: the launch's bytes of its buffer (plan's base_bytes), or null: zeros
  std::uint64_t evaluation_cap = ~std::uint64_t{0};                // the run stops past this many evaluations
  const std::atomic<std::uint64_t>* shared_evaluations = nullptr;  // finished blocks' evaluations
};

/// Where native code adds one worker's counts (a Tally's vectors, as plain arrays): [StmtId],
/// [access id], [StmtId], [access id]; and its totals.
struct NativeTally {
  StatementCounts* statements = nullptr;
  AccessCounts* accesses = nullptr;
  std::uint64_t* flops = nullptr;
  BaseExtent* extents = nullptr;
  std::uint64_t evaluations = 0;
  std::uint64_t blocks = 0;
  std::uint64_t warps = 0;
};

/// One worker thread's share of a native run: its own scratch, one block at a time.
class NativeWorker {
 public:
  virtual ~NativeWorker() = default;
  /// Replays block (x, y, z) of the launch into `tally`, as WarpMachine's begin_block,
  /// run_warps and end_block would (statement counts, barrier counts, memory figures, blocks,
  /// warps, evaluations); HandOver: the launch goes to the interpreter (`tally` is then partial).
  virtual NativeOutcome run_block(std::uint32_t x, std::uint32_t y, std::uint32_t z, NativeTally& tally) = 0;
};

/// A launch plan compiled for native replay (its code shared by every launch of the model).
class NativeCode {
 public:
  virtual ~NativeCode() = default;
  /// A worker for one run of the plan (`run` outlives it).
  virtual std::unique_ptr<NativeWorker> worker(const NativeRun& run) const = 0;
};

/// What a native compiler made of a plan: code, or none and why ("": outside the native
/// replay's scope, or not compiled before when compiling was not asked for; else one line: a
/// plan it cannot read, its compiling failed).
struct NativeCompiled {
  std::shared_ptr<const NativeCode> code;
  const char* refusal = "";  // static text of the compiler
};

/// The plan `bytes` (serialize()) compiled for native replay (compiled now when `compile` and not
/// compiled before). What the native-replay plugin hands out (jit/plugin.cpp).
using NativePlanCompiler = NativeCompiled (*)(const char* bytes, std::size_t size, bool compile);

/// The compiler replay() calls, in process: jit/ compiled in (it serialises the plan and calls its
/// NativePlanCompiler), or the CLI's loader (which does so with the plugin's).
using NativeCompiler = NativeCompiled (*)(const LaunchPlan& plan, bool compile);

/// Installs the compiler replay() uses (null: none, the interpreter alone). jit/ calls it.
void set_native_compiler(NativeCompiler compiler);
NativeCompiler native_compiler();

}  // namespace warpdiv::sim::ir::detail
