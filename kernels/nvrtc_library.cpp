#include "kernels/nvrtc_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "sim/support/errors.hpp"
#include "sim/support/plugin_file.hpp"

namespace warpdiv::kernels {

namespace {

struct Loaded {
  NvrtcLibrary library;
  bool ok = false;
  std::string why;
  bool named_wrong = false;  // WARPDIV_NVRTC names a file that is not a usable libnvrtc: bad input
};

template <typename F>
bool bind(void* handle, const char* symbol, F& f, std::string& why) {
  f = reinterpret_cast<F>(dlsym(handle, symbol));
  if (f == nullptr) why = "libnvrtc lacks " + std::string(symbol);
  return f != nullptr;
}

// NVRTC opens its builtins library (libnvrtc-builtins.so.MAJOR.MINOR) by name when it compiles,
// so the dynamic loader looks for it only on the library path, which a CUDA Toolkit installed in
// /usr/local/cuda is not on without loader configuration. A library already loaded answers to
// its name: open the builtins that sit beside the libnvrtc just opened, by full path, first.
void load_builtins_beside(void* nvrtc) {
  char origin[4096] = {};
  if (dlinfo(nvrtc, RTLD_DI_ORIGIN, origin) != 0) return;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(origin, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("libnvrtc-builtins.so.", 0) == 0)
      dlopen(entry.path().c_str(), RTLD_NOW | RTLD_LOCAL);  // kept open, as libnvrtc is
  }
}

// Binds every function warpdiv calls; false with `l.why` naming the one missing.
bool bind_all(void* handle, Loaded& l) {
  NvrtcLibrary& n = l.library;
  return bind(handle, "nvrtcVersion", n.version, l.why) &&
         bind(handle, "nvrtcGetNumSupportedArchs", n.num_archs, l.why) &&
         bind(handle, "nvrtcGetSupportedArchs", n.archs, l.why) &&
         bind(handle, "nvrtcCreateProgram", n.create, l.why) &&
         bind(handle, "nvrtcAddNameExpression", n.add_name, l.why) &&
         bind(handle, "nvrtcCompileProgram", n.compile, l.why) &&
         bind(handle, "nvrtcGetProgramLogSize", n.log_size, l.why) &&
         bind(handle, "nvrtcGetProgramLog", n.log, l.why) &&
         bind(handle, "nvrtcGetLoweredName", n.lowered_name, l.why) &&
         bind(handle, "nvrtcGetCUBINSize", n.cubin_size, l.why) &&
         bind(handle, "nvrtcGetCUBIN", n.cubin, l.why) &&
         bind(handle, "nvrtcDestroyProgram", n.destroy, l.why) &&
         bind(handle, "nvrtcGetErrorString", n.error, l.why);
}

// The library WARPDIV_NVRTC names, and that one alone: a file that is not a shared object of
// this machine, or that dlopen refuses, is bad input naming it (not a silent fall back).
Loaded load_named(const std::string& path) {
  Loaded l;
  l.named_wrong = true;
  if (const std::string problem = sim::plugin_file_problem(path); !problem.empty()) {
    l.why =
        "WARPDIV_NVRTC names " + path + ": " + problem + " (name libnvrtc.so of a CUDA Toolkit, or unset it)";
    return l;
  }
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    l.why = "WARPDIV_NVRTC names " + path +
            ", which cannot be loaded: " + (error != nullptr ? error : "dlopen failed");
    return l;
  }
  l.library.path = path;
  load_builtins_beside(handle);
  l.ok = bind_all(handle, l);
  if (!l.ok) l.why = "WARPDIV_NVRTC names " + path + ", which is not NVRTC: " + l.why;
  l.named_wrong = !l.ok;
  return l;
}

Loaded load() {
  Loaded l;
  if (const char* path = std::getenv("WARPDIV_NVRTC"); path != nullptr && *path != '\0')
    return load_named(path);
  std::vector<std::string> names;
  for (const char* n : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}) names.emplace_back(n);
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* home = std::getenv(var); home != nullptr && *home != '\0')
      names.push_back((std::filesystem::path(home) / "lib64" / "libnvrtc.so").string());
  for (const char* n : {"/usr/local/cuda/lib64/libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so.13",
                        "/usr/local/cuda/lib64/libnvrtc.so.12"})
    names.emplace_back(n);
  void* handle = nullptr;
  for (const std::string& n : names)
    if ((handle = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) {
      l.library.path = n;
      break;
    }
  if (handle == nullptr) {
    l.why =
        "libnvrtc.so (CUDA Toolkit 12 or 13) not found; put its folder on LD_LIBRARY_PATH or "
        "name the file in WARPDIV_NVRTC";
    return l;
  }
  // Kept open for the life of the process.
  load_builtins_beside(handle);
  l.ok = bind_all(handle, l);
  return l;
}

}  // namespace

const NvrtcLibrary* nvrtc_library(std::string* why) {
  static const Loaded loaded = load();
  if (loaded.named_wrong) throw InvalidInput(Diag::environment_value, loaded.why);
  if (!loaded.ok && why != nullptr) *why = loaded.why;
  return loaded.ok ? &loaded.library : nullptr;
}

}  // namespace warpdiv::kernels
