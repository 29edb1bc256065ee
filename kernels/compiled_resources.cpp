#include "kernels/compiled_resources.hpp"
#include "kernels/nvrtc_library.hpp"
#include "sim/support/signals.hpp"

#include <cxxabi.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace warpdiv::kernels {

namespace {

constexpr int kMaxErrorLines = 6;  // of the compiler's output, in an InvalidInput message

std::string arch_name(int major, int minor) { return "sm_" + std::to_string(major) + std::to_string(minor); }

// A kernel name as compared: no spaces, integer suffixes dropped (Clang prints red<16U>, the
// demangler red<16u>).
std::string comparable(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  static const std::regex suffix("([0-9])[uUlL]+([,>])");
  return std::regex_replace(s, suffix, "$1$2");
}

std::string demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? std::string(text.get()) : mangled;
}

// The first lines of a compiler's output that say "error", else its first lines.
std::string first_errors(const std::string& output) {
  std::istringstream in(output);
  std::string line, errors, any;
  int n_errors = 0, n_any = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (n_any < kMaxErrorLines) any += (n_any++ ? "; " : "") + line;
    if (line.find("error") != std::string::npos && n_errors < kMaxErrorLines)
      errors += (n_errors++ ? "; " : "") + line;
  }
  return errors.empty() ? any : errors;
}

// The longest one compile may take (nvcc on a large source takes a minute or two).
constexpr int kCompilerSeconds = 300;

struct ProcessResult {
  int status = -1;     // exit status, -1 when it could not run or was killed
  std::string output;  // stdout and stderr together
};

// Ctrl-C, SIGTERM and SIGHUP while a compiler runs: noted here, acted on by run_process.
std::atomic<int> stop_signal{0};
extern "C" void note_stop_signal(int signal) { stop_signal.store(signal); }
// The signal that stopped the last compile (stop_signal is reset when the next one starts).
std::atomic<int> compile_stopped_by{0};

/// Catches the stop signals for its lifetime (restoring what was there before), without
/// SA_RESTART so that a wait returns at once.
class StopSignals {
 public:
  StopSignals() {
    stop_signal.store(0);
    struct sigaction action {};
    action.sa_handler = note_stop_signal;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < kSignals.size(); ++i)
      caught_[i] = sim::catch_unless_ignored(kSignals[i], action, previous_[i]);
  }
  ~StopSignals() {
    for (std::size_t i = 0; i < kSignals.size(); ++i)
      if (caught_[i]) sigaction(kSignals[i], &previous_[i], nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  static constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> previous_{};
  std::array<bool, 3> caught_{};
};

// Runs argv[0] (searched on PATH when it has no '/') without a shell, in a process group of its
// own, with `temp_dir` (when given) as its TMPDIR so that what it leaves there goes with it. A
// stop signal kills the group and throws Interrupted; past `seconds`, the group is killed and
// InvalidInput names the limit.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& temp_dir = "",
                          int seconds = kCompilerSeconds) {
  ProcessResult result;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return result;
  const StopSignals signals;
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return result;
  }
  if (pid == 0) {
    setpgid(0, 0);
    if (!temp_dir.empty()) setenv("TMPDIR", temp_dir.c_str(), 1);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  setpgid(pid, pid);  // (either side may run first)
  close(fds[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  bool timed_out = false;
  char buffer[4096];
  for (;;) {
    if (stop_signal.load() != 0) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      timed_out = true;
      break;
    }
    pollfd ready{fds[0], POLLIN, 0};
    if (::poll(&ready, 1, 100) <= 0) continue;  // a signal, or nothing yet: checked above
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the compiler closed its end: done
    result.output.append(buffer, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  const bool stopped = stop_signal.load() != 0;
  if (stopped || timed_out) kill(-pid, SIGKILL);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (stopped) {
    compile_stopped_by.store(stop_signal.load());
    throw Interrupted("interrupted while " + argv[0] + " ran; it was stopped");
  }
  if (timed_out)
    throw InvalidInput(Diag::time_budget, argv[0] + " did not finish within " + std::to_string(seconds) +
                                              " s, the limit for one compile; it was stopped");
  if (WIFEXITED(wstatus)) result.status = WEXITSTATUS(wstatus);
  return result;
}

bool is_executable(const fs::path& p) {
  std::error_code error;
  return fs::is_regular_file(p, error) && access(p.c_str(), X_OK) == 0;
}

// nvcc: $WARPDIV_NVCC, PATH, then the usual toolkit homes. Empty when none; `looked` lists them.
/// Where a CUDA Toolkit may be: $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, in that order.
std::vector<fs::path> toolkit_roots() {
  std::vector<fs::path> roots;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* home = std::getenv(var); home != nullptr && *home != '\0') roots.push_back(home);
  roots.push_back("/usr/local/cuda");
  return roots;
}

std::string find_nvcc(std::string& looked) {
  if (const char* env = std::getenv("WARPDIV_NVCC")) return env;  // as asked, even if wrong
  std::vector<fs::path> candidates;
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (!dir.empty()) candidates.push_back(fs::path(dir) / "nvcc");
  }
  for (const fs::path& root : toolkit_roots()) candidates.push_back(root / "bin" / "nvcc");
  looked = "PATH, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda/bin";
  for (const fs::path& p : candidates)
    if (is_executable(p)) return p.string();
  return "";
}

// A temporary folder, removed with its contents on destruction.
class TempDir {
 public:
  // Under $TMPDIR (else /tmp): one that is not a writable folder is the user's to fix.
  TempDir() {
    std::error_code error;
    const fs::path base = fs::temp_directory_path(error);
    const char* named = std::getenv("TMPDIR");
    const std::string where = error ? std::string(named != nullptr ? named : "") : base.string();
    std::string pattern = (fs::path(where) / "warpdiv-compile-XXXXXX").string();
    if (error || !mkdtemp(pattern.data()))
      throw InvalidInput(Diag::environment_value,
                         "cannot create the compile's temporary folder in '" + where + "'" +
                             (named != nullptr && *named != '\0' ? " (TMPDIR)" : "") + ": " +
                             (error ? error.message() : std::string(std::strerror(errno))) +
                             "; set TMPDIR to a writable folder");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string directory_of(const std::string& file) {
  const fs::path dir = fs::path(file).parent_path();
  return dir.empty() ? "." : dir.string();
}

// "nvcc 13.0": the release from `nvcc --version`.
std::string nvcc_version(const std::string& nvcc, const std::string& temp_dir) {
  const ProcessResult r = run_process({nvcc, "--version"}, temp_dir);
  std::smatch m;
  if (r.status == 0 && std::regex_search(r.output, m, std::regex("release ([0-9]+\\.[0-9]+)")))
    return "nvcc " + m[1].str();
  return "nvcc";
}

std::vector<CompiledResources> compile_with_nvcc(const std::string& nvcc, const CompileRequest& request,
                                                 const std::string& arch, std::string& compiler) {
  TempDir temp;  // nvcc writes temporary files even to answer --version
  compiler = nvcc_version(nvcc, temp.path().string());
  const ProcessResult codes = run_process({nvcc, "--list-gpu-code"}, temp.path().string());
  if (codes.status != 0)
    throw NoCompiler(
        "needs nvcc or NVRTC: " + nvcc + " does not run (" +
        (codes.output.empty() ? "exit status " + std::to_string(codes.status) : first_errors(codes.output)) +
        "); give --regs R and --smem BYTES");
  if (!std::regex_search(codes.output, std::regex("(^|\\s)" + arch + "(\\s|$)"))) {
    std::istringstream words(codes.output);
    std::string listed, word;
    while (words >> word) listed += (listed.empty() ? "" : ", ") + word;
    throw NoCompiler(compiler + " cannot compile for " + arch + " (cc " + std::to_string(request.cc_major) +
                     "." + std::to_string(request.cc_minor) + "; it targets " + listed +
                     "); give --regs R and --smem BYTES");
  }
  std::string input = request.file;
  std::vector<std::string> argv = {nvcc,         "-cubin", "-arch=" + arch,
                                   "-Xptxas=-v", "-o",     (temp.path() / "kernel.cubin").string()};
  if (!request.source.empty()) {
    input = (temp.path() / fs::path(request.file.empty() ? "kernel.cu" : request.file).filename()).string();
    std::ofstream(input) << request.source;
    argv.push_back("-I" + directory_of(request.file));
  }
  for (const std::string& d : request.defines) argv.push_back("-D" + d);
  for (const std::string& i : request.include_dirs) argv.push_back("-I" + i);
  const fs::path dependencies = temp.path() / "kernel.d";
  argv.insert(argv.end(), {"-MD", "-MF", dependencies.string(), input});
  const ProcessResult r = run_process(argv, temp.path().string());
  if (r.status != 0)
    throw InvalidInput(Diag::source_errors, compiler + " cannot compile " + request.file + " for " + arch +
                                                ": " + first_errors(r.output));
  std::vector<CompiledResources> functions = parse_ptxas_report(r.output);
  std::ifstream rule(dependencies);
  std::ostringstream text;
  text << rule.rdbuf();
  std::vector<std::string> read = parse_dependency_rule(text.str());
  if (!request.source.empty()) read.erase(std::remove(read.begin(), read.end(), input), read.end());
  for (CompiledResources& f : functions) {
    f.files_read = read;
    f.compiler_file = nvcc;
  }
  return functions;
}

std::vector<CompiledResources> compile_with_nvrtc(const NvrtcLibrary& nvrtc, const CompileRequest& request,
                                                  const std::string& arch, std::string& compiler,
                                                  std::string& lowered) {
  int major = 0, minor = 0;
  nvrtc.version(&major, &minor);
  compiler = "NVRTC " + std::to_string(major) + "." + std::to_string(minor);
  int count = 0;
  nvrtc.num_archs(&count);
  std::vector<int> archs(static_cast<std::size_t>(std::max(count, 0)));
  if (count > 0) nvrtc.archs(archs.data());
  const int wanted = std::stoi(arch.substr(3));
  if (std::find(archs.begin(), archs.end(), wanted) == archs.end()) {
    std::string listed;
    for (int a : archs) listed += (listed.empty() ? "sm_" : ", sm_") + std::to_string(a);
    throw NoCompiler(compiler + " cannot compile for " + arch + " (it targets " + listed +
                     "); give --regs R and --smem BYTES");
  }
  std::string source = request.source;
  if (source.empty()) {
    std::ifstream in(request.file);
    if (!in)
      throw InvalidInput(Diag::file_unreadable,
                         "cannot read " + request.file + ": no such file or not readable");
    std::ostringstream text;
    text << in.rdbuf();
    source = text.str();
  }
  NvrtcLibrary::Program program = nullptr;
  if (nvrtc.create(&program, source.c_str(), request.file.c_str(), 0, nullptr, nullptr) != 0)
    throw InternalError("NVRTC could not create a program");
  const std::unique_ptr<NvrtcLibrary::Program, std::function<void(NvrtcLibrary::Program*)>> guard(
      &program, [&nvrtc](NvrtcLibrary::Program* p) { nvrtc.destroy(p); });
  // A name expression; an overloaded kernel named by its signature ("ov(float *)") is no
  // expression, and is found among the compiled functions by that signature instead.
  const bool by_signature = request.kernel.find('(') != std::string::npos;
  if (!request.kernel.empty() && !by_signature) nvrtc.add_name(program, request.kernel.c_str());
  std::vector<std::string> options = {"-arch=" + arch, "-Xptxas=-v", "-I" + directory_of(request.file)};
  for (const std::string& d : request.defines) options.push_back("-D" + d);
  for (const std::string& i : request.include_dirs) options.push_back("-I" + i);
  for (const std::string& i : toolkit_include_dirs()) options.push_back("-I" + i);
  std::vector<const char*> pointers;
  for (const std::string& o : options) pointers.push_back(o.c_str());
  const int status = nvrtc.compile(program, static_cast<int>(pointers.size()), pointers.data());
  std::size_t size = 0;
  nvrtc.log_size(program, &size);
  std::string log(size, '\0');
  if (size > 0) nvrtc.log(program, log.data());
  if (status != 0)
    throw InvalidInput(Diag::source_errors, compiler + " cannot compile " + request.file + " for " + arch +
                                                ": " + first_errors(log) +
                                                " (NVRTC compiles device code only: hide host code "
                                                "with #ifndef __CUDACC_RTC__)");
  const char* name = nullptr;
  if (!request.kernel.empty() && !by_signature &&
      nvrtc.lowered_name(program, request.kernel.c_str(), &name) == 0 && name)
    lowered = name;
  std::vector<CompiledResources> functions = parse_ptxas_report(log);
  for (CompiledResources& f : functions) f.compiler_file = nvrtc.path;
  if (request.source.empty()) {
    std::vector<std::string> dirs = request.include_dirs;
    dirs.insert(dirs.begin(), directory_of(request.file));
    std::vector<std::string> read = included_files(request.file, dirs);
    // NVRTC names no dependencies: also what the sources' text names, which a macro may include.
    const std::vector<std::string> named = mentioned_files(read, request.include_dirs, request.defines);
    read.insert(read.end(), named.begin(), named.end());
    for (CompiledResources& f : functions) f.files_read = read;
  }
  return functions;
}

std::string names_of(const std::vector<CompiledResources>& functions) {
  std::string names;
  for (const CompiledResources& f : functions) names += (names.empty() ? "" : ", ") + function_name(f.kernel);
  return names;
}

}  // namespace

/// The toolkit's include folders for NVRTC, which searches none by default (nvcc adds them
/// itself): <cooperative_groups.h> and the libcu++ headers it includes (include/cccl in CUDA 13).
/// The first toolkit root that has include/cuda_runtime.h.
std::vector<std::string> toolkit_include_dirs() {
  std::error_code error;
  for (const fs::path& root : toolkit_roots()) {
    if (!fs::exists(root / "include" / "cuda_runtime.h", error)) continue;
    std::vector<std::string> dirs = {(root / "include").string()};
    if (fs::exists(root / "include" / "cccl", error)) dirs.push_back((root / "include" / "cccl").string());
    return dirs;
  }
  return {};
}

std::vector<std::string> parse_dependency_rule(const std::string& rule) {
  std::vector<std::string> names;
  std::string name;
  bool target = true;  // the first name, up to its ':', is the rule's target
  const auto end_name = [&] {
    if (!name.empty() && !target) names.push_back(name);
    name.clear();
  };
  for (std::size_t i = 0; i < rule.size(); ++i) {
    const char c = rule[i];
    if (c == '\\' && i + 1 < rule.size() && (rule[i + 1] == ' ' || rule[i + 1] == '#')) {
      name += rule[++i];
    } else if (c == '\\' && i + 1 < rule.size() && rule[i + 1] == '\n') {
      ++i;
      end_name();
    } else if (c == '$' && i + 1 < rule.size() && rule[i + 1] == '$') {
      name += rule[++i];
    } else if (c == ' ' || c == '\t' || c == '\n') {
      end_name();
    } else if (c == ':' && target && (i + 1 == rule.size() || rule[i + 1] == ' ' || rule[i + 1] == '\n')) {
      name.clear();
      target = false;
    } else {
      name += c;
    }
  }
  end_name();
  return names;
}

namespace {

// `text` as the preprocessor's directives see it: line splices (a backslash ending a line)
// joined, comments outside string and character literals made one space (a `//` comment to
// the end of its line).
std::string directive_text(const std::string& raw) {
  std::string text;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const std::size_t next = raw.compare(i, 3, "\\\r\n") == 0 ? 3 : raw.compare(i, 2, "\\\n") == 0 ? 2 : 0;
    if (next != 0) {
      i += next - 1;
      continue;
    }
    text += raw[i];
  }
  std::string out;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == quote || c == '\n')
        quote = 0;
    } else if (text.compare(i, 2, "//") == 0) {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (text.compare(i, 2, "/*") == 0) {
      const std::size_t close = text.find("*/", i + 2);
      i = close == std::string::npos ? text.size() : close + 1;
      out += ' ';
    } else {
      if (c == '"' || c == '\'') quote = c;
      out += c;
    }
  }
  return out;
}

// A macro as `#define` gives it: object-like (no parameters) or function-like.
struct Macro {
  bool function_like = false;
  std::vector<std::string> parameters;
  std::string body;
};

// `body` with each parameter replaced by its argument and `#parameter` by the argument as a
// string literal (the argument's own text, trimmed).
std::string substituted(const Macro& m, const std::vector<std::string>& arguments) {
  std::string out;
  for (std::size_t i = 0; i < m.body.size();) {
    const bool stringify = m.body[i] == '#';
    std::size_t at = stringify ? m.body.find_first_not_of(" \t", i + 1) : i;
    if (at == std::string::npos) at = m.body.size();
    if (at < m.body.size() && (std::isalpha(static_cast<unsigned char>(m.body[at])) || m.body[at] == '_')) {
      std::size_t end = at;
      while (end < m.body.size() &&
             (std::isalnum(static_cast<unsigned char>(m.body[end])) || m.body[end] == '_'))
        ++end;
      const auto p = std::find(m.parameters.begin(), m.parameters.end(), m.body.substr(at, end - at));
      if (p != m.parameters.end()) {
        const std::string& a = arguments[static_cast<std::size_t>(p - m.parameters.begin())];
        out += stringify ? "\"" + a + "\"" : a;
      } else {
        out += m.body.substr(i, end - i);
      }
      i = end;
      continue;
    }
    out += m.body[i++];
  }
  return out;
}

// The arguments of a function-like macro's use, `text` starting at its '(' (commas within nested
// parentheses kept), trimmed, and where the use ends; nullopt when its ')' is missing.
std::optional<std::pair<std::vector<std::string>, std::size_t>> macro_arguments(const std::string& text) {
  std::vector<std::string> arguments(1);
  int depth = 0;
  for (std::size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ')' && depth == 0) {
      for (std::string& a : arguments) {
        a.erase(0, a.find_first_not_of(" \t"));
        a.erase(a.find_last_not_of(" \t") + 1);
      }
      return std::make_pair(arguments, i + 1);
    }
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0)
      arguments.emplace_back();
    else
      arguments.back() += c;
  }
  return std::nullopt;
}

// The operand of `#include` on a directive line ("name" or <name>, or macros that expand to one:
// object-like, empty ones around it, function-like with # of a parameter), with its delimiter;
// empty when it is none of these.
std::pair<char, std::string> include_operand(std::string operand,
                                             const std::map<std::string, Macro>& macros) {
  for (int expansions = 0; expansions < 16; ++expansions) {
    operand.erase(0, operand.find_first_not_of(" \t"));
    if (operand.empty()) return {};
    const char open = operand[0];
    if (open == '"' || open == '<') {
      const std::size_t close = operand.find(open == '"' ? '"' : '>', 1);
      if (close == std::string::npos || close == 1) return {};
      return {open, operand.substr(1, close - 1)};
    }
    std::size_t end = 0;
    while (end < operand.size() &&
           (std::isalnum(static_cast<unsigned char>(operand[end])) || operand[end] == '_'))
      ++end;
    const auto macro = macros.find(operand.substr(0, end));
    if (end == 0 || macro == macros.end()) return {};
    if (!macro->second.function_like) {
      operand = macro->second.body + " " + operand.substr(end);
      continue;
    }
    const std::size_t open_paren = operand.find_first_not_of(" \t", end);
    if (open_paren == std::string::npos || operand[open_paren] != '(') return {};
    const auto arguments = macro_arguments(operand.substr(open_paren));
    if (!arguments || arguments->first.size() != std::max<std::size_t>(macro->second.parameters.size(), 1))
      return {};
    operand =
        substituted(macro->second, arguments->first) + " " + operand.substr(open_paren + arguments->second);
  }
  return {};
}

// `#define NAME BODY` or `#define NAME(P, Q) BODY` (its rest after `define`) as a macro; nullopt for
// what is neither.
std::optional<std::pair<std::string, Macro>> definition_of(const std::string& rest) {
  static const std::regex object(R"(^[ \t]+([A-Za-z_]\w*)(?:[ \t]+(.*))?$)");
  static const std::regex function(R"(^[ \t]+([A-Za-z_]\w*)\(([^)]*)\)[ \t]*(.*)$)");
  std::smatch m;
  Macro macro;
  if (std::regex_match(rest, m, function)) {
    macro.function_like = true;
    std::istringstream list(m[2].str());
    for (std::string p; std::getline(list, p, ',');) {
      p.erase(0, p.find_first_not_of(" \t"));
      p.erase(p.find_last_not_of(" \t") + 1);
      if (!p.empty()) macro.parameters.push_back(p);
    }
    macro.body = m[3].str();
    return std::make_pair(m[1].str(), macro);
  }
  if (!std::regex_match(rest, m, object)) return std::nullopt;
  macro.body = m[2].str();
  return std::make_pair(m[1].str(), macro);
}

}  // namespace

std::vector<std::string> included_files(const std::string& file,
                                        const std::vector<std::string>& include_dirs) {
  // A directive: `#` (or `%:`) first on its line, then its name and the rest.
  static const std::regex directive(R"(^[ \t]*(?:#|%:)[ \t]*(include_next|include|import|define)\b(.*)$)");
  constexpr std::size_t kMaxFiles = 10000;  // a bound on what one scan follows
  std::vector<std::string> files = {file};
  std::map<std::string, Macro> macros;  // in the order the scan meets them
  std::error_code error;
  for (std::size_t next = 0; next < files.size() && files.size() < kMaxFiles; ++next) {
    std::ifstream in(files[next], std::ios::binary);
    std::ostringstream raw;
    raw << in.rdbuf();
    std::istringstream lines(directive_text(raw.str()));
    std::string line;
    std::smatch match;
    while (std::getline(lines, line)) {
      if (!std::regex_search(line, match, directive)) continue;
      const std::string rest = match[2].str();
      if (match[1] == "define") {
        if (auto d = definition_of(rest)) macros[d->first] = std::move(d->second);
        continue;
      }
      const auto [open, name] = include_operand(rest, macros);
      if (name.empty()) continue;
      std::vector<fs::path> candidates;
      if (open == '"') candidates.push_back(fs::path(files[next]).parent_path() / name);
      for (const std::string& dir : include_dirs) candidates.push_back(fs::path(dir) / name);
      for (const fs::path& candidate : candidates) {
        const fs::file_status status = fs::status(candidate, error);
        if (!fs::exists(status) || fs::is_directory(status)) continue;
        if (!fs::is_regular_file(status))
          throw InvalidInput(Diag::file_unreadable,
                             files[next] + ": #include " + open + name + (open == '<' ? ">" : "\"") +
                                 " names " + candidate.string() +
                                 ", which is not a regular file (a FIFO, a device or a socket: the "
                                 "compiler would wait on it or read it without end)");
        const std::string found = candidate.lexically_normal().string();
        if (std::find(files.begin(), files.end(), found) == files.end()) files.push_back(found);
        // #include_next reads a later directory's file of that name: each is taken.
        if (match[1] != "include_next") break;
      }
    }
  }
  return files;
}

std::vector<std::string> mentioned_files(const std::vector<std::string>& files,
                                         const std::vector<std::string>& include_dirs,
                                         const std::vector<std::string>& defines) {
  static const std::regex name(R"([A-Za-z_][A-Za-z0-9_+./-]*\.[A-Za-z0-9_]+)");
  std::set<std::string> names;
  const auto collect = [&](const std::string& text) {
    for (auto it = std::sregex_iterator(text.begin(), text.end(), name); it != std::sregex_iterator(); ++it)
      names.insert(it->str());
  };
  std::set<std::string> dirs(include_dirs.begin(), include_dirs.end());
  for (const std::string& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    collect(text.str());
    dirs.insert(fs::path(f).parent_path().string());
  }
  for (const std::string& d : defines) collect(d);
  std::vector<std::string> found;
  std::error_code error;
  for (const std::string& dir : dirs)
    for (const std::string& n : names) {
      const fs::path candidate = fs::path(dir) / n;
      if (!fs::is_regular_file(candidate, error)) continue;
      const std::string path = candidate.lexically_normal().string();
      if (std::find(files.begin(), files.end(), path) == files.end() &&
          std::find(found.begin(), found.end(), path) == found.end())
        found.push_back(path);
    }
  return found;
}

std::string CompiledResources::origin() const { return compiler + " for " + arch + " (ptxas)"; }

std::string function_name(const std::string& demangled) {
  // The parameter list: the last '(' at template depth 0 whose ')' closes the name.
  int depth = 0;
  std::size_t open = std::string::npos, start = 0;
  for (std::size_t i = 0; i < demangled.size(); ++i) {
    const char c = demangled[i];
    if (c == '<')
      ++depth;
    else if (c == '>')
      --depth;
    else if (c == ' ' && depth == 0 && open == std::string::npos)
      start = i + 1;  // after "void "
    else if (c == '(' && depth == 0) {
      open = i;
      break;
    }
  }
  return demangled.substr(start, open == std::string::npos ? std::string::npos : open - start);
}

namespace {

// A figure of ptxas's report, from 0 to `most` (a compiler that prints another is refused).
std::int64_t report_figure(const std::string& digits, const char* what, std::int64_t most) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size() || value > most)
    throw InvalidInput(Diag::source_errors, "the compiler's report (ptxas -v) gives " + digits + " " + what +
                                                ", outside 0 .. " + std::to_string(most));
  return value;
}

}  // namespace

std::vector<CompiledResources> parse_ptxas_report(const std::string& report) {
  constexpr std::int64_t kMostBytes = std::int64_t{1} << 40;
  static const std::regex entry("Compiling entry function '([^']+)' for '([^']+)'");
  static const std::regex stack(
      "([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores, "
      "([0-9]+) bytes spill loads");
  static const std::regex used("Used ([0-9]+) registers");
  static const std::regex barriers("used ([0-9]+) barriers");
  static const std::regex smem("([0-9]+) bytes smem");
  std::vector<CompiledResources> functions;
  std::istringstream in(report);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry)) {
      CompiledResources f;
      f.mangled = m[1];
      f.kernel = demangle(f.mangled);
      functions.push_back(f);
      continue;
    }
    if (functions.empty()) continue;
    CompiledResources& f = functions.back();
    if (std::regex_search(line, m, stack)) {
      f.local_bytes = report_figure(m[1], "bytes of stack frame", kMostBytes);
      f.spill_store_bytes = report_figure(m[2], "bytes of spill stores", kMostBytes);
      f.spill_load_bytes = report_figure(m[3], "bytes of spill loads", kMostBytes);
    }
    if (std::regex_search(line, m, used)) {
      f.registers_per_thread = static_cast<int>(report_figure(m[1], "registers per thread", 255));
      if (std::regex_search(line, m, barriers))
        f.barriers = static_cast<int>(report_figure(m[1], "barriers", 16));
      if (std::regex_search(line, m, smem))
        f.static_shared_bytes = report_figure(m[1], "bytes of shared memory", kMostBytes);
    }
  }
  return functions;
}

CompileRequest compile_request(const sim::ir::Kernel& kernel, int cc_major, int cc_minor) {
  CompileRequest request;
  request.kernel = kernel.name;
  request.cc_major = cc_major;
  request.cc_minor = cc_minor;
  if (!kernel.files.empty()) {
    request.file = kernel.files[0].path;
    for (const std::string& line : kernel.files[0].lines) request.source += line + '\n';
  }
  return request;
}

CompiledResources compile_resources(const CompileRequest& request) {
  const std::string arch = arch_name(request.cc_major, request.cc_minor);
  std::string looked;
  const std::string nvcc = request.compiler == CompilerChoice::nvrtc ? "" : find_nvcc(looked);
  std::vector<CompiledResources> functions;
  std::string compiler, lowered;
  if (request.source.empty() && !request.file.empty()) {  // what the compiler would read, checked first
    std::vector<std::string> dirs = request.include_dirs;
    dirs.insert(dirs.begin(), directory_of(request.file));
    included_files(request.file, dirs);
  }
  if (!nvcc.empty()) {
    functions = compile_with_nvcc(nvcc, request, arch, compiler);
  } else {
    const NvrtcLibrary* nvrtc = request.compiler == CompilerChoice::nvcc ? nullptr : nvrtc_library();
    if (nvrtc == nullptr)
      throw NoCompiler(
          "compiling " + (request.file.empty() ? std::string("the kernel") : request.file) +
          " needs nvcc or NVRTC (CUDA Toolkit): " +
          (request.compiler == CompilerChoice::nvrtc ? "" : "no nvcc (looked at " + looked + "), ") +
          "no libnvrtc.so; give --regs R and --smem BYTES");
    functions = compile_with_nvrtc(*nvrtc, request, arch, compiler, lowered);
  }
  if (functions.empty())
    throw InvalidInput(Diag::kernel_choice, request.file + " has no __global__ function that " + compiler +
                                                " compiled for " + arch);

  const CompiledResources* chosen = nullptr;
  if (request.kernel.empty()) {
    if (functions.size() > 1)
      throw InvalidInput(Diag::kernel_choice, request.file + " defines several kernels (" +
                                                  names_of(functions) + "): choose one with --kernel NAME");
    chosen = &functions[0];
  } else {
    // By name, or, for an overloaded kernel the front-end names by its signature ("ov(float *)"),
    // by the demangled signature ("ov(float*)"; a template's starts with its return type).
    const std::string wanted = comparable(request.kernel);
    const bool by_signature = request.kernel.find('(') != std::string::npos;
    const auto without_void = [](const std::string& demangled) {
      return demangled.rfind("void ", 0) == 0 ? demangled.substr(5) : demangled;
    };
    const auto signature = [&](const std::string& demangled) { return comparable(without_void(demangled)); };
    std::vector<const CompiledResources*> named;
    for (const CompiledResources& f : functions)
      if (!lowered.empty() && f.mangled == lowered) named.push_back(&f);  // NVRTC's own answer to the name
    if (named.empty())
      for (const CompiledResources& f : functions)
        if ((by_signature ? signature(f.kernel) : comparable(function_name(f.kernel))) == wanted)
          named.push_back(&f);
    if (named.size() > 1) {
      std::string signatures;
      for (const CompiledResources* f : named)
        signatures += (signatures.empty() ? "" : ", ") + without_void(f->kernel);
      throw InvalidInput(Diag::kernel_choice, "kernel " + request.kernel + " is overloaded in " +
                                                  request.file + " (" + signatures +
                                                  "): name one by its signature, e.g. --kernel '" +
                                                  without_void(named.front()->kernel) + "'");
    }
    if (!named.empty()) chosen = named.front();
    if (!chosen)
      throw InvalidInput(Diag::kernel_choice,
                         "kernel " + request.kernel + " is not among those " + compiler + " compiled from " +
                             request.file + " (" + names_of(functions) +
                             "; a template is compiled for the instantiations the file uses)");
  }
  CompiledResources result = *chosen;
  result.arch = arch;
  result.compiler = compiler;
  return result;
}

int compile_stop_signal() { return compile_stopped_by.load(); }

}  // namespace warpdiv::kernels
