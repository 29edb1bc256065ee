// The native replay as a plugin (libwarpdiv-jit.so): jit/ and LLVM in one shared object beside the
// binary, which the CLI loads only when a replay is worth compiling (jit/loader.hpp), so that
// warpdiv starts without loading LLVM. Its one entry point hands out the compiler of serialised
// launch plans (sim/engine/ir_native.hpp's NativePlanCompiler) when the caller reads and writes the
// same version of them (sim/engine/launch_plan.hpp's kLaunchPlanVersion); everything else is hidden
// (-fvisibility=hidden, --exclude-libs), so the plugin's copy of sim/ never meets the binary's:
// the plan crosses as bytes, which the compiler checks again (their header's version).
#include <cstdint>

#include "jit/native_replay.hpp"

extern "C" __attribute__((visibility("default"))) void* warpdiv_native_compiler(std::uint64_t version) {
  if (version != warpdiv::sim::ir::detail::kLaunchPlanVersion) return nullptr;
  return reinterpret_cast<void*>(warpdiv::jit::plan_compiler());
}
