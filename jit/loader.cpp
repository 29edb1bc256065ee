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

#include "sim/support/errors.hpp"
#include "sim/engine/ir_native.hpp"
#include "sim/support/plugin_file.hpp"

namespace warpdiv::jit {
namespace {

namespace fs = std::filesystem;
namespace detail = sim::ir::detail;

constexpr const char* kFileName = "libwarpdiv-jit.so";

/// WARPDIV_NATIVE_PLUGIN's file, or "" when it is not set.
std::string named_plugin() {
  const char* path = std::getenv("WARPDIV_NATIVE_PLUGIN");
  if (path == nullptr || *path == '\0') return "";
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);  // dlopen would search a bare name elsewhere
  return error ? std::string(path) : absolute.string();
}

std::vector<std::string> candidates() {
  if (const std::string named = named_plugin(); !named.empty()) return {named};
  std::vector<std::string> out;
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    out.push_back((exe.parent_path() / kFileName).string());
    out.push_back(
        (exe.parent_path() / WARPDIV_INSTALLED_JIT_FROM_BIN / kFileName).lexically_normal().string());
  }
  return out;
}

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw InvalidInput(Diag::plugin_unavailable,
                     "the native replay's plugin " + path + " cannot be loaded: " + why +
                         "; reinstall warpdiv, or set WARPDIV_NATIVE=off to interpret every replay");
}

// The plugin's compiler, or null where there is none to load (looked for once). A plugin that
// is there but cannot be loaded is refused; one of another version of the launch plan
// (kLaunchPlanVersion) is refused where WARPDIV_NATIVE_PLUGIN names it, and otherwise left alone
// (the replay interprets).
detail::NativePlanCompiler load() {
  using Entry = void* (*)(std::uint64_t);
  const bool named = !named_plugin().empty();
  for (const std::string& path : candidates()) {
    std::error_code error;
    if (!fs::exists(path, error)) {
      if (named) refuse(path, "there is no such file (WARPDIV_NATIVE_PLUGIN names it)");
      continue;
    }
    // A FIFO would hang dlopen and a truncated file end in SIGBUS: the file is checked first.
    if (const std::string problem = sim::plugin_file_problem(path); !problem.empty()) refuse(path, problem);
    // Kept loaded for the life of the process (compiled code lives in it).
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) refuse(path, ::dlerror());
    const auto entry = reinterpret_cast<Entry>(::dlsym(handle, "warpdiv_native_compiler"));
    if (entry == nullptr)
      refuse(path, "it has no warpdiv_native_compiler (not warpdiv's native-replay plugin)");
    const auto compiler = reinterpret_cast<detail::NativePlanCompiler>(entry(detail::kLaunchPlanVersion));
    if (compiler == nullptr && named)
      refuse(path, "it reads another version of the launch plan than this warpdiv (version " +
                       std::to_string(detail::kLaunchPlanVersion) + ")");
    return compiler;
  }
  return nullptr;
}

std::once_flag loaded;
detail::NativePlanCompiler plugin = nullptr;
std::atomic<bool> ready{false};

detail::NativeCompiled stand_in(const detail::LaunchPlan& plan, bool compile) {
  // Nothing to reuse before the plugin is loaded: load it only for a launch worth compiling.
  if (!ready.load() && !compile) return {};
  std::call_once(loaded, [] {
    plugin = load();
    ready = true;
  });
  if (plugin == nullptr) return {};
  const std::string bytes = detail::serialize(plan);  // the plan crosses as bytes, never as a struct
  return plugin(bytes.data(), bytes.size(), compile);
}

}  // namespace

void install_native_loader() { detail::set_native_compiler(&stand_in); }

std::vector<std::string> plugin_files() { return candidates(); }

}  // namespace warpdiv::jit
