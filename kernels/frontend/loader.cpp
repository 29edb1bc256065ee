// frontend.hpp for the warpdiv CLI: loads the front-end plugin (libwarpdiv-frontend.so, Clang and
// LLVM inside) on first use and talks to it through plugin_abi.hpp's JSON requests. The plugin is
// looked for beside the binary (the build folder, a copied bundle), then where `cmake --install`
// puts it relative to the binary; WARPDIV_FRONTEND_PLUGIN names another file. The file is checked
// before dlopen (sim/support/plugin_file.hpp: a FIFO or a truncated file refused, naming it), and the
// plugin's ABI version after (plugin_abi.hpp).
//
// Each request runs in a child process forked once the plugin is loaded (the plugin itself runs
// Clang on a thread with a large stack: sim/support/large_stack.hpp). The child sends the JSON reply back
// through a pipe; the parent waits at most kFrontendSeconds. So a crash inside Clang (a signal: a parse
// deeper than even the large stack, a Clang bug) or a runaway parse ends in a one-line refusal that
// names the file, not in a SIGSEGV or a hang of warpdiv, and whatever Clang allocated goes with
// the child (a sweep that reads several sources starts each from the loaded plugin's clean state).
// A fork costs ~1 ms next to a parse's ~40 ms. Where fork fails the request runs in this process.
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/frontend/frontend.hpp"
#include "kernels/frontend/plugin_abi.hpp"
#include "sim/model/ir_json.hpp"
#include "sim/support/json_bytes.hpp"
#include "sim/support/message_text.hpp"
#include "sim/support/plugin_file.hpp"

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
  std::error_code error;
  if (const char* path = std::getenv("WARPDIV_FRONTEND_PLUGIN"); path != nullptr && *path != '\0') {
    const fs::path absolute = fs::absolute(path, error);  // dlopen would search a bare name elsewhere
    return {error ? std::string(path) : absolute.string()};
  }
  std::vector<std::string> candidates;
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
      // A FIFO would hang dlopen and a truncated file end in SIGBUS: the file is checked first.
      if (const std::string problem = sim::plugin_file_problem(path); !problem.empty())
        throw InvalidInput(Diag::plugin_unavailable, "cannot load the Clang front-end " + path + ": " +
                                                         problem + " (rebuild or reinstall warpdiv)");
      // Kept loaded for the life of the process (never dlclose'd: LLVM's static state).
      void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr)
        throw InvalidInput(Diag::plugin_unavailable,
                           "cannot load the Clang front-end " + path + ": " + ::dlerror());
      const auto version = reinterpret_cast<abi::VersionFunction>(::dlsym(handle, abi::kVersionSymbol));
      Plugin p;
      p.request = reinterpret_cast<abi::RequestFunction>(::dlsym(handle, abi::kRequestSymbol));
      p.free = reinterpret_cast<abi::FreeFunction>(::dlsym(handle, abi::kFreeSymbol));
      if (version == nullptr || p.request == nullptr || p.free == nullptr || version() != abi::kVersion)
        throw InvalidInput(
            Diag::plugin_unavailable,
            "the Clang front-end " + path + " does not belong to this warpdiv (rebuild or reinstall both)");
      return p;
    }
    throw InvalidInput(Diag::plugin_unavailable,
                       "this warpdiv cannot read CUDA sources: its Clang front-end (" +
                           std::string(abi::kFileName) + ") is missing (looked at " + looked +
                           "); read the kernel where warpdiv was built with Clang, save it with "
                           "--save-model K.json and use --model K.json");
  }();
  return loaded;
}

/// The plugin's reply to `request`, asked in this process; empty when it gave none.
std::string ask_here(const Plugin& p, const std::string& request) {
  const std::unique_ptr<char, abi::FreeFunction> reply(p.request(request.c_str()), p.free);
  return reply ? std::string(reply.get()) : std::string();
}

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

/// The child's side: the request, the reply into `fd`, and out without running any of the
/// parent's exit handlers or flushing its buffers.
[[noreturn]] void answer_in_child(const Plugin& p, const std::string& request, int fd, pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive warpdiv (a killed test, Ctrl-C)
  if (::getppid() != parent) ::_exit(1);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);  // a crash leaves no core file of Clang's gigabytes
  const std::string reply = ask_here(p, request);
  write_all(fd, reply.data(), reply.size());
  ::_exit(reply.empty() ? 1 : 0);
}

/// The plugin's reply to `request`, asked in a child process (see the top of this file).
std::string ask_isolated(const Plugin& p, const std::string& request, const std::string& file) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return ask_here(p, request);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return ask_here(p, request);
  }
  if (child == 0) {
    ::close(fds[0]);
    answer_in_child(p, request, fds[1], parent);
  }
  ::close(fds[1]);
  std::string reply;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kFrontendSeconds);
  bool timed_out = false;
  char buffer[65536];
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd ready{fds[0], POLLIN, 0};
    const int polled = ::poll(&ready, 1, static_cast<int>(left.count()));
    if (polled < 0 && errno == EINTR) continue;
    if (polled == 0) continue;  // the deadline is checked above
    const ssize_t got = ::read(fds[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // the child closed its end: done, or dead
    reply.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fds[0]);
  if (timed_out) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out)
    throw InvalidInput(Diag::time_budget,
                       "Clang did not finish reading " + file + " within " +
                           std::to_string(kFrontendSeconds) +
                           " s, the front-end's time limit; it was stopped: the source (with what it "
                           "includes) is too large or too complex to read in that time");
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    throw InvalidInput(Diag::memory_budget,
                       "Clang could not read " + file + ": it stopped on signal " + std::to_string(signal) +
                           " (" + ::strsignal(signal) +
                           "); the source may nest too deeply or need more memory than there is");
  }
  return reply;
}

/// The front-end's refusal as it threw it: its diagnostic, place and message (an id this warpdiv
/// does not know is the plugin's mistake: internal).
InvalidInput diagnostic_from_reply(const json& error) {
  const std::string id = error.value("diagnostic", std::string());
  const std::optional<Diag> diag = diagnostic_named(id);
  SourceLocation at;
  at.file = error.value("file", std::string());
  at.line = error.value("line", 0u);
  at.column = error.value("column", 0u);
  const std::string message = error.at("message").get<std::string>();
  if (!diag)
    return InvalidInput(
        Diag::frontend_failed, at,
        "the Clang front-end gave an unknown diagnostic " + sim::quote_value(id) + ": " + message);
  return InvalidInput(*diag, at, message);
}

/// The first of Clang's errors a "clang" error of the plugin's reply carries.
FirstClangError first_error_from_reply(const json& error) {
  FirstClangError first;
  const auto f = error.find("first");
  if (f == error.end()) return first;
  first.at.file = f->value("file", std::string());
  first.at.line = f->value("line", 0u);
  first.at.column = f->value("column", 0u);
  first.message = f->value("message", std::string());
  return first;
}

/// The plugin's reply to `op`; its error as an exception, `files_read` (when given) filled first
/// with the files it read before failing.
json ask(const char* op, const FrontendOptions& options, std::vector<std::string>* files_read = nullptr) {
  const Plugin& p = plugin();
  json request{{"op", op},
               {"file", options.file},
               {"kernel", options.kernel},
               {"defines", options.defines},
               {"include_dirs", options.include_dirs},
               {"cuda_headers", options.cuda_headers},
               {"cuda_path", options.cuda_path},
               {"fmad", options.fmad},
               {"compile_commands_dir", options.compile_commands_dir},
               {"host_launches", options.host_launches},
               {"host_arguments", options.host_arguments},
               {"host_grid", options.host_grid},
               {"host_block", options.host_block}};
  sim::map_json_strings(request, sim::escape_bytes);
  const std::string reply = ask_isolated(p, request.dump(), options.file);
  if (reply.empty())
    throw Diagnostic(Diag::frontend_failed, "the Clang front-end gave no reply (out of memory?)");
  json answer = json::parse(reply);
  // Every string back to its bytes but the model's, which kernel_from_json reads.
  for (auto& [key, value] : answer.items())
    if (key != "model") sim::map_json_strings(value, sim::unescape_bytes);
  if (const auto e = answer.find("error"); e != answer.end()) {
    if (files_read != nullptr) *files_read = answer.value("files_read", std::vector<std::string>());
    const std::string kind = e->at("kind").get<std::string>();
    const std::string message = e->at("message").get<std::string>();
    if (kind == "clang") throw ClangDiagnostics(message, first_error_from_reply(*e));
    if (kind == "input") throw diagnostic_from_reply(*e);
    throw Diagnostic(Diag::frontend_failed, "Clang front-end: " + message);
  }
  return answer;
}

}  // namespace

std::vector<KernelInfo> list_kernels(const FrontendOptions& options) {
  std::vector<KernelInfo> kernels;
  for (const json& k : ask("list", options).at("kernels"))
    kernels.push_back(KernelInfo{k.at("name").get<std::string>(), k.at("location").get<std::string>(),
                                 k.at("uninstantiated_template").get<bool>(),
                                 k.at("signature").get<std::string>()});
  return kernels;
}

namespace {

HostValue host_value(const json& v) {
  return HostValue{v.at("known").get<bool>(), v.at("value").get<std::string>(),
                   v.at("where").get<std::string>(), v.at("reason").get<std::string>(),
                   v.at("refused").get<std::string>()};
}

}  // namespace

sim::ir::Kernel load_kernel(const FrontendOptions& options, std::vector<std::string>* notes,
                            std::vector<std::string>* files_read, std::vector<HostLaunch>* launches) {
  const json answer = ask("load", options, files_read);
  if (notes != nullptr) *notes = answer.value("notes", std::vector<std::string>());
  if (files_read != nullptr) *files_read = answer.value("files_read", std::vector<std::string>());
  if (launches != nullptr) {
    launches->clear();
    for (const json& l : answer.value("launches", json::array())) {
      HostLaunch launch;
      launch.location = l.at("location").get<std::string>();
      launch.function = l.at("function").get<std::string>();
      for (int c = 0; c < 3; ++c) {
        launch.grid[c] = host_value(l.at("grid").at(c));
        launch.block[c] = host_value(l.at("block").at(c));
      }
      launch.dynamic_shared = host_value(l.at("dynamic_shared"));
      for (const json& a : l.at("arguments")) launch.arguments.push_back(host_value(a));
      launch.followed = l.value("followed", std::vector<std::string>());
      launch.unfollowed = l.value("unfollowed", std::vector<std::string>());
      launch.never_made = l.value("never_made", std::string());
      launches->push_back(std::move(launch));
    }
  }
  return sim::ir::kernel_from_json(answer.at("model").dump());
}

std::vector<std::string> plugin_files() { return plugin_candidates(); }

}  // namespace warpdiv::frontend
