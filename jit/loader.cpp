#include "jit/loader.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sim/errors.hpp"
#include "sim/ir_native.hpp"
#include "sim/plugin_file.hpp"

namespace warpdiv::jit {
namespace {

namespace fs = std::filesystem;
namespace detail = sim::ir::detail;

constexpr const char* kFileName = "libwarpdiv-jit.so";

std::vector<std::string> candidates() {
  if (const char* path = std::getenv("WARPDIV_NATIVE_PLUGIN"); path != nullptr && *path != '\0') return {path};
  std::vector<std::string> out;
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    out.push_back((exe.parent_path() / kFileName).string());
    out.push_back((exe.parent_path() / WARPDIV_INSTALLED_JIT_FROM_BIN / kFileName).lexically_normal().string());
  }
  return out;
}

// The plugin's compiler, or null where there is none to load (looked for once).
detail::NativeCompiler load() {
  using Entry = void* (*)(std::uint64_t);
  for (const std::string& path : candidates()) {
    std::error_code error;
    if (!fs::exists(path, error)) continue;
    // A FIFO would hang dlopen and a truncated file end in SIGBUS: the file is checked first.
    if (const std::string problem = sim::plugin_file_problem(path); !problem.empty())
      throw InvalidInput("the native replay's plugin " + path + " cannot be loaded: " + problem +
                         "; reinstall warpdiv, or set WARPDIV_NATIVE=off to interpret every replay");
    // Kept loaded for the life of the process (compiled code lives in it).
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) return nullptr;
    const auto entry = reinterpret_cast<Entry>(::dlsym(handle, "warpdiv_native_compiler"));
    if (entry == nullptr) return nullptr;
    return reinterpret_cast<detail::NativeCompiler>(entry(detail::kNativeAbi));
  }
  return nullptr;
}

std::once_flag loaded;
detail::NativeCompiler plugin = nullptr;
std::atomic<bool> ready{false};

std::shared_ptr<const detail::NativeCode> stand_in(const detail::Program& program, bool compile) {
  // Nothing to reuse before the plugin is loaded: load it only for a launch worth compiling.
  if (!ready.load() && !compile) return nullptr;
  std::call_once(loaded, [] {
    plugin = load();
    ready = true;
  });
  return plugin != nullptr ? plugin(program, compile) : nullptr;
}

}  // namespace

void install_native_loader() { detail::set_native_compiler(&stand_in); }

}  // namespace warpdiv::jit
