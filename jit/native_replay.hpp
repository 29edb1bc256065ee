// The native replay (for speed): each kernel model compiled once per process by LLVM's
// ORC JIT into a function that runs one warp over 32-lane vectors, installed as the replay's
// native compiler (sim/engine/ir_native.hpp). The only target of the project that links LLVM's code
// generator; sim/ knows it only through that hook.
//
// Scope (anything else is replayed by the interpreter, decided per launch): a plain replay (no
// observer, no counts by iteration, the whole grid, no captured stores, no memory followed by
// value: loads from read-only data are read, an atomic's returned value is not), warps of 32
// lanes, and a model of at most kMaxNativeStatements statements. Within it, every figure is the
// interpreter's: native code hands the launch back at the first thing it does not decide itself (undefined
// behaviour, a fault in an access, a loop instance past kMaxNativeHeads heads, the evaluation budget).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/engine/ir_native.hpp"

namespace warpdiv::jit {

/// Models bigger than this are not compiled (compiling would cost more than it saves).
constexpr std::size_t kMaxNativeStatements = 20000;
/// Heads of one loop instance in one warp past which native code hands the launch to the
/// interpreter (whose watch tells a loop that never ends from a long one).
constexpr std::uint64_t kMaxNativeHeads = std::uint64_t{1} << 16;

/// Installs the native compiler into the replay (idempotent). Linking this target installs it
/// too, before main() runs.
void install_native_replay();

/// The compiler of serialised launch plans (sim/engine/ir_native.hpp) that the plugin hands out
/// (jit/plugin.cpp); install_native_replay() installs one that serialises each plan and calls it.
sim::ir::detail::NativePlanCompiler plan_compiler();

/// The compiled models the compiler keeps (the least recently used dropped, its machine code
/// freed; a model dropped and met again is compiled again). A long run (a sweep, a check over many
/// kernels) meets one model per kernel and memory option, and each model's code with its JIT
/// state takes tens to hundreds of KiB: 64 keeps a check of 64 kernels compiled once, within tens of
/// MiB. The models read from plans are kept as many.
constexpr std::size_t kMaxCachedCodes = 64;

/// The most LLVM instructions a warp function may have to be compiled: optimising grows much
/// faster than the code (about 11,000 instructions, Rodinia's largest kernels but dwt2d, compile
/// in a third of a second; 130,000 in about 95 s; dwt2d's 9/7 kernels, 240,000 and 320,000, in
/// minutes), so a larger one is left to the interpreter, whatever the launch.
constexpr unsigned kMaxNativeInstructions = 30'000;

/// What the compiler did so far in this process (for benchmarks and tests).
struct NativeStats {
  std::uint64_t compiled = 0;    // kernel models compiled
  std::uint64_t cache_hits = 0;  // launches that found their model compiled
  std::uint64_t evicted = 0;     // compiled models dropped (kMaxCachedCodes)
  std::uint64_t refused = 0;     // launches outside the scope
  double compile_seconds = 0;    // spent compiling, in all
  std::string last_refusal;      // why the last refused launch was
};
NativeStats native_stats();

}  // namespace warpdiv::jit
