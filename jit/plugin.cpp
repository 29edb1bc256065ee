// The native replay as a plugin (libwarpdiv-jit.so): jit/ and LLVM in one shared object beside the
// binary, which the CLI loads only when a replay is worth compiling (jit/loader.hpp), so that
// warpdiv starts without loading LLVM. Its one entry point hands out the compiler when the caller
// was built from the same sources (sim/engine/ir_native.hpp's kNativeAbi); everything else is hidden
// (-fvisibility=hidden, --exclude-libs), so the plugin's copy of sim/ never meets the binary's.
#include <cstdint>

#include "jit/native_replay.hpp"

extern "C" __attribute__((visibility("default"))) void* warpdiv_native_compiler(std::uint64_t abi) {
  if (abi != warpdiv::sim::ir::detail::kNativeAbi) return nullptr;
  return reinterpret_cast<void*>(warpdiv::jit::native_compiler());
}
