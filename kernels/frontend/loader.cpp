// frontend.hpp for the warpdiv CLI: loads the front-end plugin (libwarpdiv-frontend.so, Clang and
// LLVM inside) on first use and talks to it through plugin_abi.hpp's JSON requests. The plugin is
// looked for beside the binary (the build folder, a copied bundle), then where `cmake --install`
// puts it relative to the binary; WARPDIV_FRONTEND_PLUGIN names another file.
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/frontend/frontend.hpp"
#include "kernels/frontend/plugin_abi.hpp"
#include "sim/ir_json.hpp"

namespace warpdiv::frontend {

namespace {

namespace fs = std::filesystem;
namespace abi = plugin_abi;
using nlohmann::json;

struct Plugin {
  abi::RequestFunction request = nullptr;
  abi::FreeFunction free = nullptr;
};

std::vector<std::string> plugin_candidates() {
  if (const char* path = std::getenv("WARPDIV_FRONTEND_PLUGIN"); path != nullptr && *path != '\0')
    return {path};
  std::vector<std::string> candidates;
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    candidates.push_back((exe.parent_path() / abi::kFileName).string());
    candidates.push_back(
        (exe.parent_path() / WARPDIV_INSTALLED_PLUGIN_FROM_BIN / abi::kFileName).lexically_normal().string());
  }
  return candidates;
}

const Plugin& plugin() {
  static const Plugin loaded = [] {
    std::string looked;
    for (const std::string& path : plugin_candidates()) {
      std::error_code error;
      if (!fs::exists(path, error)) {
        looked += (looked.empty() ? "" : ", ") + path;
        continue;
      }
      // Kept loaded for the life of the process (never dlclose'd: LLVM's static state).
      void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr)
        throw InvalidInput("cannot load the Clang front-end " + path + ": " + ::dlerror());
      const auto version =
          reinterpret_cast<abi::VersionFunction>(::dlsym(handle, abi::kVersionSymbol));
      Plugin p;
      p.request = reinterpret_cast<abi::RequestFunction>(::dlsym(handle, abi::kRequestSymbol));
      p.free = reinterpret_cast<abi::FreeFunction>(::dlsym(handle, abi::kFreeSymbol));
      if (version == nullptr || p.request == nullptr || p.free == nullptr ||
          version() != abi::kVersion)
        throw InvalidInput("the Clang front-end " + path +
                           " does not belong to this warpdiv (rebuild or reinstall both)");
      return p;
    }
    throw InvalidInput("this warpdiv cannot read CUDA sources: its Clang front-end (" +
                       std::string(abi::kFileName) + ") is missing (looked at " + looked +
                       "); read the kernel where warpdiv was built with Clang, save it with "
                       "--save-model K.json and use --model K.json");
  }();
  return loaded;
}

json ask(const char* op, const FrontendOptions& options) {
  const Plugin& p = plugin();
  const json request{{"op", op},
                     {"file", options.file},
                     {"kernel", options.kernel},
                     {"defines", options.defines},
                     {"include_dirs", options.include_dirs},
                     {"cuda_headers", options.cuda_headers},
                     {"cuda_path", options.cuda_path}};
  const std::unique_ptr<char, abi::FreeFunction> reply(p.request(request.dump().c_str()), p.free);
  if (!reply) throw std::runtime_error("the Clang front-end gave no reply (out of memory?)");
  json answer = json::parse(reply.get());
  if (const auto e = answer.find("error"); e != answer.end()) {
    const std::string kind = e->at("kind").get<std::string>();
    const std::string message = e->at("message").get<std::string>();
    if (kind == "clang") throw ClangDiagnostics(message);
    if (kind == "input") throw InvalidInput(message);
    throw std::runtime_error("Clang front-end: " + message);
  }
  return answer;
}

}  // namespace

std::vector<KernelInfo> list_kernels(const FrontendOptions& options) {
  std::vector<KernelInfo> kernels;
  for (const json& k : ask("list", options).at("kernels"))
    kernels.push_back(KernelInfo{k.at("name").get<std::string>(), k.at("location").get<std::string>(),
                                 k.at("uninstantiated_template").get<bool>()});
  return kernels;
}

sim::ir::Kernel load_kernel(const FrontendOptions& options, std::vector<std::string>* notes,
                            std::vector<std::string>* files_read) {
  const json answer = ask("load", options);
  if (notes != nullptr) *notes = answer.value("notes", std::vector<std::string>());
  if (files_read != nullptr)
    *files_read = answer.value("files_read", std::vector<std::string>());
  return sim::ir::kernel_from_json(answer.at("model").dump());
}

}  // namespace warpdiv::frontend
