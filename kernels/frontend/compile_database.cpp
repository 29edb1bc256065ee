// A compilation database's entry as Clang arguments (compile_database.hpp).
#include "kernels/frontend/compile_database.hpp"

#include <clang/Tooling/JSONCompilationDatabase.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/StringSaver.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "sim/errors.hpp"

namespace warpdiv::frontend::detail {
namespace {

namespace fs = std::filesystem;

/// What each taken flag becomes for Clang, and whether its value is a path.
struct Taken {
  const char* clang;  // "-I", "-D" ...
  bool path;
};

/// Flags taken, by every spelling gcc, Clang and nvcc give them.
const std::map<std::string, Taken>& taken_flags() {
  static const std::map<std::string, Taken> flags = {
      {"-I", {"-I", true}},           {"--include-path", {"-I", true}},
      {"-isystem", {"-isystem", true}}, {"--system-include", {"-isystem", true}},
      {"-iquote", {"-iquote", true}},  {"-idirafter", {"-idirafter", true}},
      {"-D", {"-D", false}},           {"--define-macro", {"-D", false}},
      {"-U", {"-U", false}},           {"--undefine-macro", {"-U", false}},
      {"-include", {"-include", true}}, {"--pre-include", {"-include", true}},
      {"-std", {"-std=", false}},       {"--std", {"-std=", false}},
  };
  return flags;
}

/// Flags left out whose value is the next argument when not joined (so that the value, which may
/// start with '-', is not read as a flag): nvcc's and the host compiler's.
const std::set<std::string>& skipped_with_value() {
  static const std::set<std::string> flags = {
      "-o", "-x", "-MF", "-MT", "-MQ", "-Xcompiler", "--compiler-options", "-Xlinker",
      "--linker-options", "-Xptxas", "--ptxas-options", "-Xnvlink", "--nvlink-options",
      "-Xarchive", "--archive-options", "-Xcudafe", "-Xfatbin", "-ccbin", "--compiler-bindir",
      "-arch", "--gpu-architecture", "-code", "--gpu-code", "-gencode", "--generate-code",
      "--output-file", "-odir", "--output-directory", "-t", "--threads",
      "-Xclang", "-target", "--target", "-ldir", "-L", "-l", "--library", "--library-path",
      "-maxrregcount", "--maxrregcount", "-rdc", "--relocatable-device-code", "-dlto"};
  return flags;
}

/// How deep response files may name other response files.
constexpr int kMaxResponseDepth = 8;
/// The largest response file read.
constexpr std::uintmax_t kMaxResponseBytes = 1 << 20;

/// `command_line` with its response files (nvcc's --options-file FILE and -optf FILE, which CMake
/// uses for include folders; gcc's and Clang's @FILE) replaced by their arguments, read as a
/// shell would split them, relative to `directory`.
void expand(const std::vector<std::string>& command_line, std::size_t first, const std::string& directory,
            int depth, std::vector<std::string>& out) {
  for (std::size_t i = first; i < command_line.size(); ++i) {
    const std::string& a = command_line[i];
    std::string file;
    if ((a == "--options-file" || a == "-optf") && i + 1 < command_line.size()) {
      file = command_line[++i];
    } else if (a.rfind("--options-file=", 0) == 0) {
      file = a.substr(std::string("--options-file=").size());
    } else if (a.size() > 1 && a[0] == '@') {
      file = a.substr(1);
    } else {
      out.push_back(a);
      continue;
    }
    const fs::path path = fs::path(file).is_relative() ? fs::path(directory) / file : fs::path(file);
    std::error_code error;
    const std::uintmax_t size = fs::file_size(path, error);
    std::ifstream in(path);
    if (error || !in || size > kMaxResponseBytes || depth >= kMaxResponseDepth)
      throw InvalidInput("the response file " + path.string() + " of the compile command cannot be read" +
                         (depth >= kMaxResponseDepth ? " (response files nest too deeply)" : ""));
    std::ostringstream text;
    text << in.rdbuf();
    llvm::BumpPtrAllocator allocator;
    llvm::StringSaver saver(allocator);
    llvm::SmallVector<const char*, 32> tokens;
    const std::string content = text.str();
    llvm::cl::TokenizeGNUCommandLine(content, saver, tokens);
    std::vector<std::string> inner(tokens.begin(), tokens.end());
    expand(inner, 0, directory, depth + 1, out);
  }
}

}  // namespace

std::vector<std::string> usable_arguments(const std::vector<std::string>& given,
                                          const std::string& directory) {
  std::vector<std::string> command_line{std::string()};  // the compiler's place
  expand(given, 1, directory, 0, command_line);
  std::vector<std::string> args;
  const auto add = [&](const Taken& taken, std::string value) {
    if (taken.path && !value.empty() && fs::path(value).is_relative())
      value = (fs::path(directory) / value).lexically_normal().string();
    if (std::string(taken.clang) == "-include") {
      args.push_back("-include");
      args.push_back(value);
    } else {
      args.push_back(taken.clang + value);
    }
  };
  for (std::size_t i = 1; i < command_line.size(); ++i) {
    const std::string& a = command_line[i];
    if (a.empty() || a[0] != '-') continue;  // the source file, or a value of a flag left out
    const auto& taken = taken_flags();
    if (const auto found = taken.find(a); found != taken.end()) {
      if (i + 1 < command_line.size()) add(found->second, command_line[++i]);
      continue;
    }
    // Joined: --include-path=DIR, -std=c++17, -IDIR, -DNAME=1, -isystemDIR ...
    bool done = false;
    for (const auto& [flag, how] : taken) {
      if (a.rfind(flag + "=", 0) == 0) {
        add(how, a.substr(flag.size() + 1));
        done = true;
      } else if ((flag == "-I" || flag == "-D" || flag == "-U" || flag == "-isystem" ||
                  flag == "-iquote" || flag == "-idirafter") &&
                 a.size() > flag.size() && a.rfind(flag, 0) == 0 &&
                 !(flag == "-I" && (a.rfind("-isystem", 0) == 0 || a.rfind("-iquote", 0) == 0 ||
                                    a.rfind("-idirafter", 0) == 0 || a.rfind("-include", 0) == 0))) {
        add(how, a.substr(flag.size()));
        done = true;
      }
      if (done) break;
    }
    if (done) continue;
    if (skipped_with_value().count(a) != 0) ++i;  // its value goes with it
  }
  return args;
}

std::vector<std::string> database_arguments(const std::string& build_dir, const std::string& file) {
  const std::string database = (fs::path(build_dir) / "compile_commands.json").string();
  std::error_code error;
  if (!fs::is_directory(build_dir, error))
    throw InvalidInput("-p " + build_dir + ": no such folder (give the build folder that holds "
                       "compile_commands.json)");
  if (!fs::is_regular_file(database, error))
    throw InvalidInput("-p " + build_dir + ": no compile_commands.json in it (CMake writes one "
                       "when configured with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)");
  std::string message;
  const std::unique_ptr<clang::tooling::JSONCompilationDatabase> db =
      clang::tooling::JSONCompilationDatabase::loadFromFile(
          database, message, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (db == nullptr) {
    for (char& c : message)
      if (c == '\n') c = ' ';
    throw InvalidInput(database + " is not a compilation database: " + message);
  }
  const std::string absolute = fs::absolute(file, error).lexically_normal().string();
  std::vector<clang::tooling::CompileCommand> commands = db->getCompileCommands(absolute);
  if (commands.empty()) {
    // Through links: the database names files as the build saw them.
    const fs::path canonical = fs::canonical(file, error);
    if (!error) commands = db->getCompileCommands(canonical.string());
  }
  if (commands.empty())
    throw InvalidInput(database + " has no entry for " + absolute);
  return usable_arguments(commands.front().CommandLine, commands.front().Directory);
}

}  // namespace warpdiv::frontend::detail
