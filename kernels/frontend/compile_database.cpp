// A compilation database's entry as Clang arguments (compile_database.hpp).
#include "kernels/frontend/compile_database.hpp"

#include <cctype>
#include <clang/Tooling/JSONCompilationDatabase.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/StringSaver.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "sim/support/errors.hpp"
#include "sim/support/json_check.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::frontend::detail {
namespace {

namespace fs = std::filesystem;

/// How deep response files may name other response files.
constexpr std::size_t kMaxResponseDepth = 8;
/// The most bytes of response files one command line reads, every reading counted (files that
/// name each other several times would otherwise grow without bound).
constexpr std::uintmax_t kMaxResponseBytes = std::uintmax_t{4} << 20;
/// The most bytes of a compile_commands.json (the input policy's bound on every file read), and
/// how deep its arrays and objects may nest (an array of objects with "arguments" arrays: 3).
constexpr std::uintmax_t kMaxDatabaseBytes = std::uintmax_t{64} << 20;
constexpr int kMaxDatabaseDepth = 16;

/// A command line as one text, its words separated by spaces.
std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : " ") + w;
  return text;
}

/// What each taken flag becomes for Clang, and whether its value is a path.
struct Taken {
  const char* clang;  // "-I", "-D" ...
  bool path;
};

/// Flags taken, by every spelling gcc, Clang and nvcc give them.
const std::map<std::string, Taken>& taken_flags() {
  static const std::map<std::string, Taken> flags = {
      {"-I", {"-I", true}},
      {"--include-path", {"-I", true}},
      {"-isystem", {"-isystem", true}},
      {"--system-include", {"-isystem", true}},
      {"-iquote", {"-iquote", true}},
      {"-idirafter", {"-idirafter", true}},
      {"-D", {"-D", false}},
      {"--define-macro", {"-D", false}},
      {"-U", {"-U", false}},
      {"--undefine-macro", {"-U", false}},
      {"-include", {"-include", true}},
      {"--pre-include", {"-include", true}},
      {"-std", {"-std=", false}},
      {"--std", {"-std=", false}},
  };
  return flags;
}

/// Flags left out whose value is the next argument when not joined (so that the value, which may
/// start with '-', is not read as a flag): nvcc's and the host compiler's.
const std::set<std::string>& skipped_with_value() {
  static const std::set<std::string> flags = {"-o",
                                              "-x",
                                              "-MF",
                                              "-MT",
                                              "-MQ",
                                              "-Xcompiler",
                                              "--compiler-options",
                                              "-Xlinker",
                                              "--linker-options",
                                              "-Xptxas",
                                              "--ptxas-options",
                                              "-Xnvlink",
                                              "--nvlink-options",
                                              "-Xarchive",
                                              "--archive-options",
                                              "-Xcudafe",
                                              "-Xfatbin",
                                              "-ccbin",
                                              "--compiler-bindir",
                                              "-arch",
                                              "--gpu-architecture",
                                              "-code",
                                              "--gpu-code",
                                              "-gencode",
                                              "--generate-code",
                                              "--output-file",
                                              "-odir",
                                              "--output-directory",
                                              "-t",
                                              "--threads",
                                              "-Xclang",
                                              "-target",
                                              "--target",
                                              "-ldir",
                                              "-L",
                                              "-l",
                                              "--library",
                                              "--library-path",
                                              "-maxrregcount",
                                              "--maxrregcount",
                                              "-rdc",
                                              "--relocatable-device-code",
                                              "-dlto"};
  return flags;
}

/// A response file that is not a regular file (a FIFO would wait for a writer, a folder or a
/// device has no arguments to give) is refused before it is opened, naming it.
void require_regular_file(const std::string& what, const fs::path& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status))
    throw InvalidInput(Diag::file_unreadable,
                       what + " " + path.string() + " of the compile command cannot be read");
  if (!fs::is_regular_file(status))
    throw InvalidInput(Diag::file_unreadable,
                       what + " " + path.string() +
                           " of the compile command is not a regular file (a FIFO, a folder or a "
                           "device); give a file");
}

/// The text of a compilation database, refused (one line, naming the file) where it is larger than
/// kMaxDatabaseBytes, not valid JSON (its line and column), or gives a key twice in one object:
/// Clang's reader (a YAML parser) prints its own multi-line diagnostic and keeps one of two keys.
std::string checked_database_text(const std::string& database) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(database, error);
  if (!error && size > kMaxDatabaseBytes)
    throw InvalidInput(Diag::file_unreadable, database + " holds " + std::to_string(size) +
                                                  " bytes; a compilation database may hold at most " +
                                                  std::to_string(kMaxDatabaseBytes) + " (64 MiB)");
  std::ifstream in(database, std::ios::binary);
  std::string text;
  if (in) text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) throw InvalidInput(Diag::file_unreadable, database + " cannot be read");
  const std::optional<sim::JsonProblem> p = sim::json_problem(text, kMaxDatabaseDepth);
  const std::string format = "not a JSON compilation database: ";
  if (!p) {
    const std::string shape = sim::compile_database_shape_problem(text);
    if (!shape.empty()) throw InvalidInput(Diag::file_format, database + ": " + format + shape);
    return text;
  }
  switch (p->kind) {
    case sim::JsonProblem::Kind::duplicate_key:
      throw InvalidInput(
          Diag::file_format,
          database + ": " + format + "the key " + sim::quote_value(p->detail) + " appears twice in " +
              (p->pointer.empty() ? std::string("one object") : "the object at " + p->pointer) +
              " (each key at most once)");
    case sim::JsonProblem::Kind::too_deep:
      throw InvalidInput(Diag::file_format, database + ": " + format +
                                                "arrays and objects nested deeper than " +
                                                std::to_string(kMaxDatabaseDepth) + " (a database needs 3)");
    default:
      throw InvalidInput(Diag::file_format, database + ":" + std::to_string(p->line) + ":" +
                                                std::to_string(p->column) + ": " + format + p->detail);
  }
}

/// What the expansion of one command line's response files has read so far.
struct Expansion {
  std::vector<std::string> open;   // the response files being expanded, outermost first (canonical)
  std::vector<std::string> names;  // the same, as named
  std::uintmax_t bytes = 0;        // read in all, every reading counted
  std::vector<std::string>* files_read = nullptr;
};

/// The text of the response file `path`, within the limits on its nesting, on a cycle and on the
/// bytes read in all.
std::string read_response_file(const fs::path& path, Expansion& expansion) {
  const std::string name = path.string();
  require_regular_file("the response file", path);
  std::error_code ignored;
  std::string canonical = fs::canonical(path, ignored).string();
  if (canonical.empty()) canonical = name;
  for (const std::string& open : expansion.open)
    if (open == canonical)
      throw InvalidInput(Diag::file_content,
                         "the response file " + name +
                             " of the compile command names itself (through the response files it "
                             "names): a cycle");
  if (expansion.open.size() >= kMaxResponseDepth)
    throw InvalidInput(Diag::file_content, "the response file " + name +
                                               " of the compile command nests response files more than " +
                                               std::to_string(kMaxResponseDepth) + " deep");
  const auto refuse_bytes = [&] {
    return InvalidInput(Diag::file_unreadable,
                        "the response file " + name +
                            " of the compile command takes the response files read past " +
                            std::to_string(kMaxResponseBytes >> 20) + " MiB in all");
  };
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  if (!error && size > kMaxResponseBytes - expansion.bytes) throw refuse_bytes();
  std::ifstream in(path, std::ios::binary);
  std::string content;
  if (!error && in) content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (error || !in.is_open() || in.bad())
    throw InvalidInput(Diag::file_unreadable,
                       "the response file " + name + " of the compile command cannot be read");
  if (content.size() > kMaxResponseBytes - expansion.bytes) throw refuse_bytes();  // it grew
  expansion.bytes += content.size();
  if (expansion.files_read != nullptr) expansion.files_read->push_back(name);
  expansion.open.push_back(canonical);
  expansion.names.push_back(name);
  return content;
}

/// The problem with the text of a response file (a NUL byte, a quote not closed: Clang's reader
/// would drop the rest, or read on to the file's end, silently), with its line; "" when none.
std::string response_text_problem(const std::string& content) {
  std::size_t line = 1, quote_line = 0;
  char quote = 0;
  for (std::size_t i = 0; i < content.size(); ++i) {
    const char c = content[i];
    if (c == '\0') return "line " + std::to_string(line) + " holds a NUL byte (a response file is text)";
    if (c == '\n') ++line;
    if (c == '\\' && i + 1 < content.size()) {  // escapes the next character, quoted or not (LLVM's reader)
      if (content[i + 1] == '\n') ++line;
      if (content[i + 1] != '\0') ++i;
    } else if (quote == 0 && (c == '"' || c == '\'')) {
      // An argument that is only an empty quote: nvcc keeps it (an empty -I folder), LLVM's reader
      // drops it and the flag before it would take the next argument.
      const auto space = [&](std::size_t at) {
        return at >= content.size() || std::isspace(static_cast<unsigned char>(content[at]));
      };
      if ((i == 0 || space(i - 1)) && i + 1 < content.size() && content[i + 1] == c && space(i + 2))
        return "line " + std::to_string(line) + " gives an empty argument (" + std::string(2, c) +
               "), which Clang would drop: give the value";
      quote = c;
      quote_line = line;
    } else if (c == quote) {
      quote = 0;
    }
  }
  if (quote == 0) return "";
  return std::string("the quote (") + quote + ") opened on line " + std::to_string(quote_line) +
         " is not closed";
}

/// `command_line` with its response files (nvcc's --options-file FILE and -optf FILE, which CMake
/// uses for include folders; gcc's and Clang's @FILE) replaced by their arguments, read as a
/// shell would split them, relative to `directory`.
void expand(const std::vector<std::string>& command_line, std::size_t first, const std::string& directory,
            Expansion& expansion, std::vector<std::string>& out) {
  // Where the words come from, for a problem with one.
  const std::string from = expansion.names.empty()
                               ? "the compile command"
                               : "the response file " + expansion.names.back() + " of the compile command";
  for (std::size_t i = first; i < command_line.size(); ++i) {
    const std::string& a = command_line[i];
    std::string file;
    if (a == "--options-file" || a == "-optf") {
      if (i + 1 >= command_line.size())
        throw InvalidInput(Diag::file_format,
                           from + " ends with " + a + ", which needs a response file's name");
      file = command_line[++i];
    } else if (a.rfind("--options-file=", 0) == 0) {
      file = a.substr(std::string("--options-file=").size());
    } else if (!a.empty() && a[0] == '@') {
      file = a.substr(1);
    } else {
      out.push_back(a);
      continue;
    }
    if (file.empty())
      throw InvalidInput(Diag::file_format,
                         from + " gives '" + a + "' with no response file's name after it");
    const fs::path path = fs::path(file).is_relative() ? fs::path(directory) / file : fs::path(file);
    const std::string content = read_response_file(path, expansion);
    if (const std::string problem = response_text_problem(content); !problem.empty())
      throw InvalidInput(Diag::file_format,
                         "the response file " + path.string() + " of the compile command: " + problem);
    llvm::BumpPtrAllocator allocator;
    llvm::StringSaver saver(allocator);
    llvm::SmallVector<const char*, 32> tokens;
    llvm::cl::TokenizeGNUCommandLine(content, saver, tokens);
    const std::vector<std::string> inner(tokens.begin(), tokens.end());
    expand(inner, 0, directory, expansion, out);
    expansion.open.pop_back();
    expansion.names.pop_back();
  }
}

}  // namespace

std::vector<std::string> usable_arguments(const std::vector<std::string>& given, const std::string& directory,
                                          std::vector<std::string>* files_read) {
  // JSON's \u0000 gives a word a NUL, which no command line (nvcc's included) can carry: Clang
  // would read the word cut there, another argument than the entry's.
  for (std::size_t i = 1; i < given.size(); ++i)
    if (given[i].find('\0') != std::string::npos)
      throw InvalidInput(Diag::file_format, "the compile command's argument " + sim::quote_value(given[i]) +
                                                " holds a NUL character (\\u0000), which no command line "
                                                "can carry");
  if (directory.find('\0') != std::string::npos)
    throw InvalidInput(Diag::file_format,
                       "the compile command's directory " + sim::quote_value(directory) +
                           " holds a NUL character (\\u0000), which no folder name can hold");
  std::vector<std::string> command_line{std::string()};  // the compiler's place
  Expansion expansion;
  expansion.files_read = files_read;
  expand(given, 1, directory, expansion, command_line);
  std::vector<std::string> args;
  const auto add = [&](const Taken& taken, std::string value) {
    // nvcc takes an empty value as given (an empty -I folder); Clang drops it or reads the next
    // flag as the value: refused rather than read otherwise than nvcc reads it.
    if (value.empty())
      throw InvalidInput(Diag::file_format, "the compile command gives " + std::string(taken.clang) +
                                                " an empty value (give a folder, a name or a value)");
    if (taken.path && !value.empty() && fs::path(value).is_relative())
      value = (fs::path(directory) / value).lexically_normal().string();
    if (std::string(taken.clang) == "-include") {
      // Clang would wait on a FIFO for a writer: a file that is there must be a regular one.
      std::error_code error;
      if (fs::exists(fs::status(value, error))) require_regular_file("-include", value);
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
      } else if ((flag == "-I" || flag == "-D" || flag == "-U" || flag == "-isystem" || flag == "-iquote" ||
                  flag == "-idirafter") &&
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

std::vector<std::string> database_arguments(const std::string& build_dir, const std::string& file,
                                            std::vector<std::string>* files_read) {
  const std::string database = (fs::path(build_dir) / "compile_commands.json").string();
  std::error_code error;
  if (!fs::is_directory(build_dir, error))
    throw InvalidInput(Diag::flag_value, "-p " + build_dir +
                                             ": no such folder (give the build folder that holds "
                                             "compile_commands.json)");
  const fs::file_status status = fs::status(database, error);
  if (!fs::exists(status))
    throw InvalidInput(Diag::file_unreadable, "-p " + build_dir +
                                                  ": no compile_commands.json in it (CMake writes one "
                                                  "when configured with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)");
  if (!fs::is_regular_file(status))
    throw InvalidInput(Diag::file_unreadable,
                       database +
                           " is not a regular file (a FIFO, a folder or a device); "
                           "-p needs a build folder whose compile_commands.json is a file");
  std::string message;
  const std::unique_ptr<clang::tooling::JSONCompilationDatabase> db =
      clang::tooling::JSONCompilationDatabase::loadFromBuffer(
          checked_database_text(database), message, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (db == nullptr) {
    for (char& c : message)
      if (c == '\n') c = ' ';
    throw InvalidInput(Diag::file_format, database + " is not a compilation database: " + message);
  }
  const std::string absolute = fs::absolute(file, error).lexically_normal().string();
  std::vector<clang::tooling::CompileCommand> commands = db->getCompileCommands(absolute);
  if (commands.empty()) {
    // Through links: the database names files as the build saw them.
    const fs::path canonical = fs::canonical(file, error);
    if (!error) commands = db->getCompileCommands(canonical.string());
  }
  if (commands.empty()) throw InvalidInput(Diag::file_content, database + " has no entry for " + absolute);
  if (files_read != nullptr) files_read->push_back(database);
  // A file built by several targets has an entry for each: one reading when they agree on what
  // the front-end takes from them; otherwise no entry can be chosen for the user.
  // A problem with an entry's words ("the compile command ...") named with the database.
  const auto usable = [&](const clang::tooling::CompileCommand& c) {
    try {
      return usable_arguments(c.CommandLine, c.Directory, files_read);
    } catch (const InvalidInput& e) {
      if (e.diag() != Diag::file_format) throw;
      throw InvalidInput(Diag::file_format, database + ", the entry for " + absolute + ": " + e.what());
    }
  };
  const std::vector<std::string> first = usable(commands.front());
  for (std::size_t i = 1; i < commands.size(); ++i)
    if (usable(commands[i]) != first)
      throw InvalidInput(Diag::file_content,
                         database + " has " + std::to_string(commands.size()) + " entries for " + absolute +
                             " whose flags differ (" + sim::quote_value(join(commands.front().CommandLine)) +
                             " and " + sim::quote_value(join(commands[i].CommandLine)) +
                             "): which build to read cannot be told; give its flags (-D, -I, -include) "
                             "instead of -p");
  return first;
}

}  // namespace warpdiv::frontend::detail
