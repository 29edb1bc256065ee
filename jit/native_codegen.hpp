// What the native replay's code generator (native_codegen.cpp) and its runtime (native_replay.cpp)
// share: the context one warp's code reads and writes, the accesses it hands to the runtime,
// and the function that generates a model's warp function. Private to jit/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include "jit/native_replay.hpp"
#include "sim/engine/ir_native.hpp"

namespace warpdiv::jit::native {

using namespace warpdiv::sim::ir;
using detail::CompiledAccess;
using Program = detail::LaunchPlan;  // the launch plan (sim/engine/launch_plan.hpp)

constexpr unsigned kLanes = 32;

class Worker;

// What one warp's native code reads and writes; the code reaches each field at its offsetof.
struct WarpContext {
  const std::uint32_t* thread[3];         // threadIdx.x, .y, .z of the warp's 32 lanes
  std::uint32_t block[3];                 // blockIdx
  std::uint32_t existing;                 // the warp's lanes
  std::uint64_t builtins[kBuiltinCount];  // blockDim, gridDim, warpSize by Builtin
  const std::uint64_t* arguments;         // normalised bits by parameter
  StatementCounts* counts;                // [StmtId]: the tally's
  std::uint64_t* flops;                   // [StmtId]
  std::uint64_t* full_arrivals;           // [barrier]: arrivals of the whole warp
  std::uint64_t* lane_arrivals;           // [barrier * 32 + lane]: arrivals of single lanes
  std::uint64_t evaluations;              // out: this warp's warp-statement evaluations
  std::uint64_t evaluation_limit;         // in: past this many, hand over
  std::int32_t (*access)(Worker*, std::int32_t, std::uint32_t, const std::int64_t*);
  std::int32_t (*read)(Worker*, std::int32_t, std::uint32_t, const std::int64_t*, std::uint64_t*);
  void (*arrive)(WarpContext*, std::int32_t, std::uint32_t);
  Worker* worker;
};

/// What one warp's code returns: None when it finished the warp, else why it hands the launch
/// over to the interpreter (which then replays the whole launch and reports what it finds).
enum class HandOverReason : std::int32_t {
  None = 0,
  UndefinedOperation,  // an operation's undefined behaviour in an active lane (sim/model/ir_ops.hpp)
  UndefinedLocal,      // a local read where it holds no value
  Load,                // a load outside its buffer or misaligned
  Access,              // an access outside its buffer, misaligned, or its end past int64
  WarpMask,            // a warp function whose mask differs between lanes, leaves out a running
                       // lane, or holds a lane that has not exited and does not run it
  WarpSource,          // a shuffle reading a lane that does not run it
  LoopLimit,           // a loop past the native head limit, or the run past its budget
  Budget,              // the warp's evaluations past the run's budget
  Mismatch,            // the launch's counted accesses are not the compiled ones
};
/// One line: "undefined behaviour in an operation", ...
const char* hand_over_text(HandOverReason why);

using WarpFunction = HandOverReason (*)(WarpContext*);

// An access the code passes to the helper: its statement, its position among the statement's
// counted accesses (LaunchPlan::memory), and its id (each launch's plan is checked against it).
struct Slot {
  StmtId statement = kNone;
  int position = 0;
  std::int32_t access = kNone;
};

// Raised while compiling: the model holds something native code does not run.
struct Unsupported {
  std::string why;
};

/// Generates `i32 name(i8* context)` for `p` in `module`, running one warp: a HandOverReason
/// (None when it finished); `slots` receives the accesses it hands to the runtime. Throws
/// Unsupported for what native code does not run.
llvm::Function* generate_warp_function(const Program& p, llvm::Module& module, std::vector<Slot>& slots,
                                       const std::string& name);

}  // namespace warpdiv::jit::native
