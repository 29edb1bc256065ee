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
// The interface crosses a shared object (the CLI loads jit/ as a plugin, built from the same
// sources): plain virtual calls and return values, no exception thrown across it.
#pragma once

#include <cstdint>
#include <memory>

#include "sim/engine/ir_engine.hpp"

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

/// One worker thread's share of a native run: its own scratch, one block at a time.
class NativeWorker {
 public:
  virtual ~NativeWorker() = default;
  /// Replays block (x, y, z) of the launch into `tally`, as WarpMachine's begin_block,
  /// run_warps and end_block would (statement counts, barrier counts, memory figures, blocks,
  /// warps, evaluations); HandOver: the launch goes to the interpreter (`tally` is then partial).
  virtual NativeOutcome run_block(std::uint32_t x, std::uint32_t y, std::uint32_t z, Tally& tally) = 0;
};

/// A kernel model compiled for native replay (shared by every launch of it).
class NativeCode {
 public:
  virtual ~NativeCode() = default;
  /// A worker for one launch (the program: its arguments, block shape and buffers).
  virtual std::unique_ptr<NativeWorker> worker(const Program& program) const = 0;
};

/// A program's kernel compiled for native replay (compiled now when `compile` and not compiled
/// before), or null: the launch is outside the native replay's scope, compiling failed, or the
/// kernel is not compiled and `compile` is false. The interpreter then runs it.
using NativeCompiler = std::shared_ptr<const NativeCode> (*)(const Program& program, bool compile);

/// What a native compiler built into a plugin (jit/plugin.cpp) must agree on with the binary that
/// loads it: a version bumped by hand when this interface changes, and the sizes of the
/// structures it reads and writes (a plugin of another build is refused, not called).
constexpr std::uint64_t kNativeAbiVersion = 2;
constexpr std::uint64_t kNativeAbi =
    kNativeAbiVersion * 1000003 +
    (sizeof(Program) + 3 * sizeof(Tally) + 7 * sizeof(CompiledAccess) + 11 * sizeof(WarpThreads) +
     13 * sizeof(Kernel) + 17 * sizeof(Expr) + 19 * sizeof(Stmt) + 23 * sizeof(MemoryAccess) +
     29 * sizeof(StatementMemory) + 31 * sizeof(Launch) + 37 * sizeof(ReplayOptions) +
     41 * sizeof(StatementCounts) + 43 * sizeof(AccessCounts) + 47 * sizeof(BaseExtent)) *
        7919;

/// Installs the compiler replay() uses (null: none, the interpreter alone). jit/ calls it.
void set_native_compiler(NativeCompiler compiler);
NativeCompiler native_compiler();

}  // namespace warpdiv::sim::ir::detail
