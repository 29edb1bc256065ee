// Runs Clang on a CUDA file as device code, with the prelude and stub headers served from memory.
#include "kernels/frontend/clang_parse.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <array>
#include <fstream>
#include <set>
#include <system_error>

#include "kernels/frontend/compile_database.hpp"
#include "kernels/frontend/prelude_text.hpp"
#include "kernels/frontend/reach.hpp"

namespace warpdiv::frontend::detail {
namespace {

void add_builtin_files(llvm::vfs::InMemoryFileSystem& memory) {
  memory.addFile(kPreludePath, 0, llvm::MemoryBuffer::getMemBuffer(kPreludeText));
  for (const char* header : kStubHeaders) {
    memory.addFile(std::string(kStubIncludeDir) + "/" + header, 0,
                   llvm::MemoryBuffer::getMemBuffer("// warpdiv: the prelude declares this.\n"));
  }
  memory.addFile(std::string(kStubIncludeDir) + "/" + kCooperativeGroupsHeader, 0,
                 llvm::MemoryBuffer::getMemBuffer(kCooperativeGroupsText));
  for (const char* part : kCooperativeGroupsParts) {
    memory.addFile(std::string(kStubIncludeDir) + "/" + part, 0,
                   llvm::MemoryBuffer::getMemBuffer("#include <cooperative_groups.h>\n"));
  }
}

/// Where the toolkit route is, once the choice is made (resolve_route).
struct Route {
  bool toolkit = false;
  std::string cuda_path;  // the toolkit's folder (toolkit route only)
  int cuda_version = 0;   // cuda.h's CUDA_VERSION (13000), 0 when not found
};

/// The toolkit's folder: options.cuda_path, else $CUDA_PATH, else /usr/local/cuda.
std::string cuda_path_of(const FrontendOptions& options) {
  if (!options.cuda_path.empty()) return options.cuda_path;
  if (const char* env = std::getenv("CUDA_PATH"); env != nullptr && *env != '\0') return env;
  return "/usr/local/cuda";
}

bool exists(const std::string& path) {
  std::error_code error;
  return std::filesystem::exists(path, error);
}

int read_cuda_version(const std::string& cuda_h) {
  std::ifstream in(cuda_h);
  std::string line;
  while (std::getline(in, line)) {
    const std::string key = "#define CUDA_VERSION ";
    if (line.rfind(key, 0) == 0) return std::atoi(line.c_str() + key.size());
  }
  return 0;
}

Route resolve_route(const FrontendOptions& options) {
  if (!is_cuda_headers_choice(options.cuda_headers))
    throw InvalidInput(Diag::flag_value, "unknown CUDA headers '" + options.cuda_headers +
                                             "' (choose one of " + kCudaHeadersChoices + ")");
  Route route;
  if (options.cuda_headers == "builtin") return route;
  const std::string path = cuda_path_of(options);
  // What Clang 14's driver needs of an installation it is given: its headers, bin/ and
  // libdevice (a headers-only folder, such as a Python wheel's, is refused by it).
  std::string missing;
  for (const char* part : {"/include/cuda_runtime.h", "/bin", "/nvvm/libdevice/libdevice.10.bc"})
    if (missing.empty() && !exists(path + part)) missing = path + part;
  if (!missing.empty()) {
    if (options.cuda_headers == "auto") return route;
    throw InvalidInput(Diag::flag_value,
                       "no CUDA Toolkit at " + path + " (" + missing +
                           " is missing; Clang needs the toolkit's include/, bin/ and "
                           "nvvm/libdevice/): give its folder with --cuda-path DIR, or read the file "
                           "with warpdiv's own headers (--cuda-headers builtin)");
  }
  route.toolkit = true;
  route.cuda_path = path;
  route.cuda_version = read_cuda_version(path + "/include/cuda.h");
  return route;
}

/// The toolkit route's in-memory headers: a quote folder searched first for the wrapper's
/// #include "...", so that a user -I folder holding its own cuda.h (Rodinia's b+tree) cannot hide
/// the toolkit's (each forwards to the toolkit's file by its absolute path, as a system header),
/// and the shims of docs/toolkit-headers.md: T (texture_fetch_functions.h, which CUDA 12.x dropped),
/// R (a stand-in texture reference template for Clang 14's texture intrinsics; CUDA 12 dropped
/// the template) and M (host min/max: nvcc's host pass has them, Clang's headers only device ones).
constexpr const char* kToolkitQuoteDir = "/__warpdiv__/toolkit";
constexpr const char* kToolkitShimPath = "/__warpdiv__/toolkit_host_minmax.h";
/// What Clang 14's CUDA wrapper headers (__clang_cuda_*.h) #include "..." from the toolkit.
constexpr const char* kWrapperQuotedHeaders[] = {"cuda.h",
                                                 "host_defines.h",
                                                 "driver_types.h",
                                                 "host_config.h",
                                                 "cuda_runtime.h",
                                                 "crt/device_runtime.h",
                                                 "crt/host_runtime.h",
                                                 "crt/device_functions.hpp",
                                                 "crt/device_double_functions.hpp",
                                                 "crt/math_functions.hpp",
                                                 "crt/sm_70_rt.hpp",
                                                 "device_functions.hpp",
                                                 "math_functions.hpp",
                                                 "math_functions_dbl_ptx3.hpp",
                                                 "device_atomic_functions.h",
                                                 "device_atomic_functions.hpp",
                                                 "device_double_functions.h",
                                                 "sm_20_atomic_functions.hpp",
                                                 "sm_20_intrinsics.hpp",
                                                 "sm_32_atomic_functions.hpp",
                                                 "sm_60_atomic_functions.hpp",
                                                 "sm_61_intrinsics.hpp",
                                                 "texture_fetch_functions.h",
                                                 "texture_indirect_functions.h",
                                                 "curand_mtgp32_kernel.h"};
/// The newest CUDA version Clang 14 knows: the SDK version that makes <<<>>> call
/// __cudaPushCallConfiguration (shim S; the driver gives the device side none).
constexpr const char* kClangKnownCudaVersion = "11.5";

constexpr const char* kHostMinMax = R"(// warpdiv: host min/max (shim M)
#pragma clang system_header
#define WARPDIV_MINMAX(T) \
  static inline __host__ T min(T a, T b) { return a < b ? a : b; } \
  static inline __host__ T max(T a, T b) { return a > b ? a : b; }
WARPDIV_MINMAX(int)
WARPDIV_MINMAX(unsigned int)
WARPDIV_MINMAX(long)
WARPDIV_MINMAX(unsigned long)
WARPDIV_MINMAX(long long)
WARPDIV_MINMAX(unsigned long long)
WARPDIV_MINMAX(float)
WARPDIV_MINMAX(double)
#undef WARPDIV_MINMAX
)";

/// Clang's -D/-I take the value in the same argument; a value that starts with '-' is the user's.
std::vector<std::string> clang_arguments(const FrontendOptions& options, const Route& route,
                                         std::vector<std::string>& database_files) {
  std::vector<std::string> args = {WARPDIV_CLANG_EXECUTABLE, "-x", "cuda", "--cuda-device-only",
                                   "--cuda-gpu-arch=sm_70", "-nocudalib", "-fsyntax-only", "-std=c++17", "-w",
                                   // Old code writes "%d"FMT, a macro right after a string (C++03
                                   // style): Clang's error by default, a warning from nvcc 13 (its
                                   // host compiler's -Wliteral-suffix), which reads it as the
                                   // string followed by the macro. So does Clang without it.
                                   "-Wno-reserved-user-defined-literal", "-fno-color-diagnostics", "-Xclang",
                                   "-fcuda-allow-variadic-functions", "-resource-dir",
                                   WARPDIV_CLANG_RESOURCE_DIR};
  if (route.toolkit) {
    args.insert(args.end(), {"--cuda-path=" + route.cuda_path, "-Xclang",
                             std::string("-target-sdk-version=") + kClangKnownCudaVersion, "-iquote",
                             kToolkitQuoteDir, "-D__WARPDIV__=1", "-include", kToolkitShimPath});
    // libcu++ (cooperative groups' <cuda/std/...>): CUDA 13 keeps it under include/cccl (shim C).
    if (exists(route.cuda_path + "/include/cccl"))
      args.push_back("-isystem" + route.cuda_path + "/include/cccl");
  } else {
    // No CUDA installation is looked for or used: the prelude stands in for its headers.
    args.insert(args.end(), {"-nocudainc", "--cuda-path=/__warpdiv__/no-cuda", "-isystem", kStubIncludeDir,
                             "-include", kPreludePath});
  }
  // The database's flags first, so that the command line's -D and -I come after them.
  if (!options.compile_commands_dir.empty())
    for (std::string& arg : database_arguments(options.compile_commands_dir, options.file, &database_files))
      args.push_back(std::move(arg));
  for (const auto& define : options.defines) args.push_back("-D" + define);
  for (const auto& dir : options.include_dirs) args.push_back("-I" + dir);
  args.push_back(options.file);
  return args;
}

void add_toolkit_files(llvm::vfs::InMemoryFileSystem& memory, const Route& route) {
  const std::string include = route.cuda_path + "/include/";
  for (const char* header : kWrapperQuotedHeaders) {
    const std::string name = header;
    std::string text = "// warpdiv: the toolkit's " + name + "\n#pragma clang system_header\n";
    if (exists(include + name)) {
      text += "#include \"" + include + name + "\"\n";
    } else if (name != "texture_fetch_functions.h") {  // shim T: an empty one
      continue;  // the wrapper includes it only where the toolkit has it
    }
    if (name == "sm_61_intrinsics.hpp" && route.cuda_version >= 12000) {  // shim R
      text +=
          "template <class T, int dim = 1, enum cudaTextureReadMode mode = "
          "cudaReadModeElementType> struct texture {};\n";
    }
    memory.addFile(std::string(kToolkitQuoteDir) + "/" + name, 0, llvm::MemoryBuffer::getMemBufferCopy(text));
  }
  memory.addFile(kToolkitShimPath, 0, llvm::MemoryBuffer::getMemBuffer(kHostMinMax));
}

/// The message of an #include that names something other than a regular file.
class NotRegularFileCategory : public std::error_category {
 public:
  const char* name() const noexcept override { return "warpdiv"; }
  std::string message(int code) const override {
    if (code == 2)
      return "it says it has 0 bytes but holds data (a file of /proc or /sys, which Clang would "
             "read as empty), so it is not read";
    return "not a regular file (a FIFO, a device or a socket; Clang would wait on it or read it "
           "without end), so it is not read";
  }
};

/// Whether a file whose size is 0 yields a byte when read.
bool holds_data(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char byte = 0;
  return in && in.get(byte);
}

/// The real file system, except that only regular files and folders are opened: an #include
/// of a FIFO would wait for a writer until the front-end's time limit, and /dev/zero never ends.
class RegularFilesOnly : public llvm::vfs::ProxyFileSystem {
 public:
  using llvm::vfs::ProxyFileSystem::ProxyFileSystem;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine& path) override {
    llvm::ErrorOr<llvm::vfs::Status> status = getUnderlyingFS().status(path);
    static const NotRegularFileCategory category;
    if (status && !status->isRegularFile() && !status->isDirectory()) return std::error_code(1, category);
    // A file of /proc or /sys says it has 0 bytes and holds some: Clang would read it as empty.
    if (status && status->isRegularFile() && status->getSize() == 0 && holds_data(path.str()))
      return std::error_code(2, category);
    return llvm::vfs::ProxyFileSystem::openFileForRead(path);
  }
};

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> file_system(const Route& route) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  if (route.toolkit) {
    add_toolkit_files(*memory, route);
  } else {
    add_builtin_files(*memory);
  }
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::makeIntrusiveRefCnt<RegularFilesOnly>(llvm::vfs::getRealFileSystem()));
  overlay->pushOverlay(memory);
  return overlay;
}

/// One error Clang reported, with the notes that followed it.
struct ReportedError {
  clang::SourceLocation location;
  std::string message;    // Clang's message alone: "use of undeclared identifier 'x'"
  std::string text;       // as Clang printed it: location, message, source line, caret, notes
  FirstClangError first;  // its place as Clang prints it (line 0: none), and its message
};

/// The place Clang prints for a diagnostic at `loc`: its expansion's presumed file, line and
/// column (bytes, from 1); line 0 when it has none.
SourceLocation printed_place(const clang::SourceManager& sources, clang::SourceLocation loc) {
  if (loc.isInvalid()) return {};
  const clang::PresumedLoc presumed = sources.getPresumedLoc(sources.getExpansionLoc(loc));
  if (presumed.isInvalid()) return {};
  return {presumed.getFilename(), presumed.getLine(), presumed.getColumn()};
}

/// Prints every diagnostic as Clang's TextDiagnosticPrinter does (into one text) and keeps each
/// error apart, with its place and its notes, so that errors can be judged one by one.
class RecordingConsumer : public clang::DiagnosticConsumer {
 public:
  explicit RecordingConsumer(clang::DiagnosticOptions* options) : printer_(stream_, options) {}

  void BeginSourceFile(const clang::LangOptions& language, const clang::Preprocessor* preprocessor) override {
    printer_.BeginSourceFile(language, preprocessor);
  }
  void EndSourceFile() override { printer_.EndSourceFile(); }

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    stream_.flush();
    const std::size_t before = text_.size();
    printer_.HandleDiagnostic(level, info);
    stream_.flush();
    const std::string printed = text_.substr(before);
    if (level >= clang::DiagnosticsEngine::Error) {
      llvm::SmallString<128> message;
      info.FormatDiagnostic(message);
      std::string line(message.str());
      for (char& c : line)
        if (c == '\n') c = ' ';
      const SourceLocation place = info.hasSourceManager()
                                       ? printed_place(info.getSourceManager(), info.getLocation())
                                       : SourceLocation{};
      errors.push_back(ReportedError{info.getLocation(), line, printed, FirstClangError{place, line}});
    } else if (level == clang::DiagnosticsEngine::Note && !errors.empty()) {
      errors.back().text += printed;
    }
  }

  /// Everything printed, without the trailing newline.
  std::string text() {
    stream_.flush();
    return text_;
  }
  llvm::raw_ostream& stream() { return stream_; }

  std::vector<ReportedError> errors;

 private:
  std::string text_;
  llvm::raw_string_ostream stream_{text_};
  clang::TextDiagnosticPrinter printer_;
};

/// Clang's text without the trailing newlines (never empty).
std::string trimmed(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (text.empty()) text = "error: Clang could not read the file";
  return text;
}

/// "NAME(T1, T2)": the kernel's name and its parameter types as Clang prints them.
std::string signature_of(const std::string& name, const clang::FunctionDecl& function,
                         const clang::ASTContext& context) {
  std::string signature = name + "(";
  for (unsigned i = 0; i < function.getNumParams(); ++i) {
    if (i != 0) signature += ", ";
    signature += function.getParamDecl(i)->getType().getAsString(context.getPrintingPolicy());
  }
  return signature + ")";
}

/// Finds __global__ definitions outside system headers and the prelude, in source order.
class KernelFinder : public clang::RecursiveASTVisitor<KernelFinder> {
 public:
  explicit KernelFinder(clang::ASTContext& context) : context_(context) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (!function->hasAttr<clang::CUDAGlobalAttr>() || !function->doesThisDeclarationHaveABody()) return true;
    const auto& sources = context_.getSourceManager();
    if (sources.isInSystemHeader(sources.getExpansionLoc(function->getLocation()))) return true;
    if (!seen_.insert(function).second) return true;  // an instantiation can be reached twice
    FoundKernel kernel;
    kernel.info.location = location_of(sources, function->getLocation());
    std::string name;
    llvm::raw_string_ostream out(name);
    function->getNameForDiagnostic(out, context_.getPrintingPolicy(), /*Qualified=*/true);
    out.flush();
    kernel.info.name = name;
    kernel.info.signature = signature_of(name, *function, context_);
    if (function->getDescribedFunctionTemplate() != nullptr) {
      kernel.info.uninstantiated_template = true;
      // Listed once; dropped below when an instantiation exists.
    } else {
      kernel.decl = function;
    }
    found.push_back(kernel);
    return true;
  }

  std::vector<FoundKernel> found;

 private:
  clang::ASTContext& context_;
  std::set<const clang::FunctionDecl*> seen_;
};

/// The front-end's limits on what Clang reads (frontend.hpp): the size of every file outside the
/// system folders (kMaxSourceBytes), the tokens the preprocessor produces (kMaxTokens), and the
/// length of a chain of operators or of control statements nested without braces (kMaxChain).
/// Seeing one broken, it stops Clang where it stands: from then on every token the parser reads is
/// the end of the file (the parser's own way out of any state; nothing is unwound), and macros no
/// longer expand (so an expansion inside another's arguments ends too). message() says why.
class Limits : public clang::PPCallbacks {
 public:
  explicit Limits(clang::Preprocessor& preprocessor)
      : preprocessor_(preprocessor), sources_(preprocessor.getSourceManager()) {}

  bool stopped() const { return !message_.empty(); }
  const std::string& message() const { return message_; }

  /// Called for every token the parser reads; false when it was turned into the end of the file.
  bool see(const clang::Token& token) {
    if (!stopped()) {
      count(1, token.getLocation());
      chain(token);
    }
    if (!stopped()) return true;
    auto& parsers_token = const_cast<clang::Token&>(token);  // the parser's own, not const
    const clang::SourceLocation location = token.getLocation();
    parsers_token.startToken();
    parsers_token.setKind(clang::tok::eof);
    parsers_token.setLocation(location);
    return false;
  }

  void FileChanged(clang::SourceLocation location, FileChangeReason reason,
                   clang::SrcMgr::CharacteristicKind kind, clang::FileID) override {
    if (stopped() || reason != EnterFile || kind != clang::SrcMgr::C_User) return;
    const clang::FileEntry* file = sources_.getFileEntryForID(sources_.getFileID(location));
    if (file == nullptr || static_cast<std::uint64_t>(file->getSize()) <= kMaxSourceBytes) return;
    stop(file->getName().str() + " is " + std::to_string(file->getSize()) +
         " bytes, above the front-end's limit of " + std::to_string(kMaxSourceBytes) +
         " bytes (4 MiB) for a source file or a header it includes");
  }

  void MacroExpands(const clang::Token& name, const clang::MacroDefinition& definition, clang::SourceRange,
                    const clang::MacroArgs*) override {
    const clang::MacroInfo* macro = definition.getMacroInfo();
    if (!stopped()) count(macro != nullptr ? macro->getNumTokens() : 1, name.getLocation());
  }

 private:
  void stop(const std::string& message) {
    message_ = message;
    preprocessor_.SetMacroExpansionOnlyInDirectives();
  }

  std::string place(clang::SourceLocation location) const {
    const auto presumed = sources_.getPresumedLoc(sources_.getExpansionLoc(location));
    if (presumed.isInvalid()) return "<unknown>";
    return std::string(presumed.getFilename()) + ":" + std::to_string(presumed.getLine());
  }

  void count(std::uint64_t tokens, clang::SourceLocation location) {
    tokens_ += tokens;
    if (tokens_ <= kMaxTokens) return;
    stop("the preprocessor produced more than " + std::to_string(kMaxTokens) +
         " tokens, the front-end's limit, by " + place(location) +
         ": does a macro expand without end (#define A2 A1 A1 ...)?");
  }

  /// The chains a token can lengthen: one per precedence level of C++'s operators (prefix
  /// operators, and control statements nested without braces, apart); -1 for any other token.
  static int chain_of(clang::tok::TokenKind kind) {
    using namespace clang::tok;
    switch (kind) {
      case pipepipe:
        return 0;
      case ampamp:
        return 1;
      case pipe:
        return 2;
      case caret:
        return 3;
      case amp:
        return 4;
      case equalequal:
      case exclaimequal:
        return 5;
      case less:
      case greater:
      case lessequal:
      case greaterequal:
      case spaceship:
        return 6;
      case lessless:
      case greatergreater:
        return 7;
      case plus:
      case minus:
        return 8;
      case star:
      case slash:
      case percent:
        return 9;
      case periodstar:
      case arrowstar:
        return 10;
      case equal:
      case plusequal:
      case minusequal:
      case starequal:
      case slashequal:
      case percentequal:
      case ampequal:
      case pipeequal:
      case caretequal:
      case lesslessequal:
      case greatergreaterequal:
        return 11;
      case question:
        return 12;
      case exclaim:
      case tilde:
      case plusplus:
      case minusminus:
        return 13;
      case kw_if:
      case kw_while:
      case kw_for:
      case kw_switch:
      case kw_do:
        return 14;
      default:
        return -1;
    }
  }
  static constexpr int kChains = 15;
  using Level = std::array<int, kChains>;

  /// Counts, at each level of brackets, the operators of each precedence since the statement or
  /// the list element began (n of them nest n deep: a || b || c is (a || b) || c), and control
  /// statements nested without braces (an else-if chain starts again at each ';' or '}').
  void chain(const clang::Token& token) {
    using namespace clang::tok;
    switch (token.getKind()) {
      case l_paren:
      case l_square:
      case l_brace:
        levels_.push_back(Level{});
        return;
      case r_paren:
      case r_square:
      case r_brace:
        if (levels_.size() > 1) levels_.pop_back();
        if (token.is(r_brace)) levels_.back() = Level{};
        return;
      case semi:
      case comma:
        levels_.back() = Level{};
        return;
      default:
        break;
    }
    // Statements nested without braces are refused at the lowering's own limit: Clang's name
    // lookup walks every enclosing scope, so parsing them is quadratic too.
    const int which = chain_of(token.getKind());
    const bool statement = which == kChains - 1;
    const int limit = statement ? kMaxNesting : kMaxChain;
    if (which < 0 || ++levels_.back()[which] <= limit) return;
    const clang::SourceLocation location = token.getLocation();
    if (sources_.isInSystemHeader(sources_.getExpansionLoc(location))) return;
    stop("nesting deeper than " + std::to_string(limit) + " at " + place(location) + ": more than " +
         std::to_string(limit) +
         (statement ? " statements nested without braces" : " operators of one precedence in a row") +
         " (the front-end's limit)");
  }

  clang::Preprocessor& preprocessor_;
  const clang::SourceManager& sources_;
  std::uint64_t tokens_ = 0;
  std::vector<Level> levels_{Level{}};
  std::string message_;
};

/// The qualified name of a template's pattern ("ns::k") for a found instantiation "ns::k<16>".
std::string template_base(const std::string& name) { return name.substr(0, name.find('<')); }

}  // namespace

std::string location_of(const clang::SourceManager& sources, clang::SourceLocation loc) {
  const auto presumed = sources.getPresumedLoc(sources.getExpansionLoc(loc));
  if (presumed.isInvalid()) return "<unknown>";
  return std::string(presumed.getFilename()) + ":" + std::to_string(presumed.getLine()) + ":" +
         std::to_string(presumed.getColumn());
}

SourceLocation source_location_of(const clang::SourceManager& sources, clang::SourceLocation loc) {
  SourceLocation where;
  const auto presumed = sources.getPresumedLoc(sources.getExpansionLoc(loc));
  if (presumed.isInvalid()) return where;
  where.file = presumed.getFilename();
  where.line = presumed.getLine();
  where.column = presumed.getColumn();
  return where;
}

std::string source_text(const clang::ASTContext& context, const clang::Stmt* s) {
  const auto& sources = context.getSourceManager();
  const clang::CharSourceRange expansion = sources.getExpansionRange(s->getSourceRange());
  const std::string raw = clang::Lexer::getSourceText(expansion, sources, context.getLangOpts()).str();
  std::string result;
  bool space = false;
  for (const char c : raw) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !result.empty();
    } else {
      if (space) result += ' ';
      space = false;
      result += c;
    }
  }
  return result;
}

struct ParsedSource::Clang {
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagnostic_options =
      llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  std::unique_ptr<RecordingConsumer> consumer;
  std::vector<SeenToken> tokens;  // what the parser read outside system headers (reach.hpp)
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> diagnostics;
  std::unique_ptr<clang::CompilerInstance> instance;
  std::unique_ptr<clang::SyntaxOnlyAction> action;
  Limits* limits = nullptr;  // owned by the preprocessor
  bool begun = false;

  ~Clang() {
    if (begun) action->EndSourceFile();
  }

  /// Clang's text as printed, without the trailing newline.
  std::string text() { return trimmed(consumer->text()); }
  /// Clang's first error, structured (none: an empty message).
  FirstClangError first() const {
    return consumer->errors.empty() ? FirstClangError{} : consumer->errors[0].first;
  }
  /// ClangDiagnostics of everything Clang printed, its first error structured.
  ClangDiagnostics refusal() { return ClangDiagnostics(text(), first()); }
};

ParsedSource::ParsedSource(const FrontendOptions& options, std::vector<std::string>* files_on_failure)
    : clang_(std::make_unique<Clang>()) {
  try {
    parse(options);
  } catch (...) {
    if (files_on_failure != nullptr) *files_on_failure = files_read();
    throw;
  }
}

void ParsedSource::parse(const FrontendOptions& options) {
  if (!std::ifstream(options.file)) {
    throw InvalidInput(Diag::file_unreadable,
                       "cannot read " + options.file + ": no such file or not readable");
  }
  std::error_code size_error;
  const std::uintmax_t size = std::filesystem::file_size(options.file, size_error);
  if (!size_error && size > kMaxSourceBytes)
    throw InvalidInput(Diag::file_unreadable, options.file + " is " + std::to_string(size) +
                                                  " bytes, above the front-end's limit of " +
                                                  std::to_string(kMaxSourceBytes) +
                                                  " bytes (4 MiB) for a source file");
  Clang& c = *clang_;
  c.diagnostic_options->ShowColors = false;
  c.consumer = std::make_unique<RecordingConsumer>(c.diagnostic_options.get());
  c.diagnostics = clang::CompilerInstance::createDiagnostics(c.diagnostic_options.get(), c.consumer.get(),
                                                             /*ShouldOwnClient=*/false);
  // Every error is reported (no "too many errors emitted"): host code can hold many.
  c.diagnostics->setErrorLimit(0);
  const Route route = resolve_route(options);
  if (route.toolkit) {
    api_dirs_ = {std::string(WARPDIV_CLANG_RESOURCE_DIR) + "/include/", route.cuda_path + "/include/",
                 std::string(kToolkitQuoteDir) + "/"};
  }
  const auto files = file_system(route);
  const std::vector<std::string> args = clang_arguments(options, route, database_files_);
  std::vector<const char*> argv;
  for (const auto& arg : args) argv.push_back(arg.c_str());
  std::shared_ptr<clang::CompilerInvocation> invocation =
      clang::createInvocationFromCommandLine(argv, c.diagnostics, files);
  if (!invocation || c.diagnostics->hasErrorOccurred()) throw c.refusal();
  invocation->getFrontendOpts().DisableFree = false;  // free the AST with this object
  // The command line's -w and -Wno-... configure the engine made before the invocation existed.
  clang::ProcessWarningOptions(*c.diagnostics, invocation->getDiagnosticOpts(),
                               /*ReportDiags=*/false);
  c.diagnostics->setErrorLimit(0);  // again: the driver's default -ferror-limit came with them

  c.instance = std::make_unique<clang::CompilerInstance>();
  c.instance->setInvocation(invocation);
  c.instance->setDiagnostics(c.diagnostics.get());
  c.instance->setVerboseOutputStream(c.consumer->stream());
  c.instance->createFileManager(files);
  c.instance->createSourceManager(c.instance->getFileManager());
  if (!c.instance->createTarget()) throw c.refusal();
  c.action = std::make_unique<clang::SyntaxOnlyAction>();
  if (c.instance->getFrontendOpts().Inputs.empty() ||
      !c.action->BeginSourceFile(*c.instance, c.instance->getFrontendOpts().Inputs[0])) {
    throw c.refusal();
  }
  c.begun = true;
  // The tokens, for the reach's check of names of invalid declarations (reach.hpp).
  const clang::SourceManager& sources = c.instance->getSourceManager();
  clang::Preprocessor& preprocessor = c.instance->getPreprocessor();
  auto limits = std::make_unique<Limits>(preprocessor);
  c.limits = limits.get();
  preprocessor.addPPCallbacks(std::move(limits));
  preprocessor.setTokenWatcher([&c, &sources](const clang::Token& token) {
    if (!c.limits->see(token)) return;
    if (!token.is(clang::tok::identifier) && !clang::tok::getPunctuatorSpelling(token.getKind()) &&
        !clang::tok::getKeywordSpelling(token.getKind()))
      return;
    const clang::SourceLocation location = token.getLocation();
    if (location.isInvalid() || sources.isInSystemHeader(sources.getExpansionLoc(location))) return;
    c.tokens.push_back(SeenToken{location, token.getKind(),
                                 token.is(clang::tok::identifier) ? token.getIdentifierInfo() : nullptr});
  });
  const bool executed = [&c] {
    llvm::Error error = c.action->Execute();
    const bool ok = !error;
    llvm::consumeError(std::move(error));
    return ok;
  }();
  if (c.limits->stopped())
    throw InvalidInput(Diag::time_budget, c.limits->message());  // Clang's errors after it are moot
  if (!executed) throw c.refusal();
  // A fatal error (a missing #include) stops Clang, and it reports nothing after it: what the
  // file would have declared is unknown, so no part of it can be trusted. Other errors are
  // judged against the chosen kernel (notes_for).
  if (c.diagnostics->hasFatalErrorOccurred()) throw c.refusal();

  KernelFinder finder(context());
  finder.TraverseDecl(context().getTranslationUnitDecl());
  // A template with instantiations is represented by them; one without stays listed, unusable.
  for (const auto& kernel : finder.found) {
    if (kernel.info.uninstantiated_template) {
      bool instantiated = false;
      for (const auto& other : finder.found) {
        instantiated = instantiated || (!other.info.uninstantiated_template &&
                                        other.info.name != template_base(other.info.name) &&
                                        template_base(other.info.name) == kernel.info.name);
      }
      if (instantiated) continue;
    }
    kernels_.push_back(kernel);
  }
}

ParsedSource::~ParsedSource() = default;

clang::ASTContext& ParsedSource::context() const { return clang_->instance->getASTContext(); }

bool ParsedSource::has_errors() const { return !clang_->consumer->errors.empty(); }

std::string ParsedSource::all_errors() const { return clang_->text(); }

FirstClangError ParsedSource::first_error() const { return clang_->first(); }

std::vector<std::string> ParsedSource::notes_for(const FoundKernel& kernel) const {
  const auto& errors = clang_->consumer->errors;
  if (errors.empty() || kernel.decl == nullptr) return {};
  const KernelReach reach(*kernel.decl, context(), clang_->tokens);
  const auto& sources = context().getSourceManager();
  std::string in_reach;
  FirstClangError first_in_reach;
  std::vector<std::string> notes;
  for (const ReportedError& error : errors) {
    const ErrorPlace place = reach.place(error.location);
    if (place.in_reach) {
      if (in_reach.empty()) first_in_reach = error.first;
      in_reach += error.text;
      continue;
    }
    const std::string where = place.owner_kind == "a declaration"
                                  ? "a declaration the kernel does not use"
                                  : place.owner_kind + " the kernel does not reach";
    notes.push_back(location_of(sources, error.location) + ": error in " + where + " (" + place.owner +
                    "): " + error.message);
  }
  if (!in_reach.empty()) throw ClangDiagnostics(trimmed(in_reach), first_in_reach);
  if (reach.broken()) {
    throw ClangDiagnostics(
        clang_->text() + "\nnote: the kernel " + kernel.info.name + " " + reach.broken_reason(),
        clang_->first());
  }
  return notes;
}

std::vector<ClangError> ParsedSource::errors() const {
  std::vector<ClangError> out;
  for (const ReportedError& error : clang_->consumer->errors)
    out.push_back(ClangError{error.location, error.message});
  return out;
}

std::vector<std::string> ParsedSource::files_read() const {
  if (!clang_->instance || !clang_->instance->hasSourceManager()) return database_files_;
  const clang::SourceManager& sources = clang_->instance->getSourceManager();
  std::vector<std::string> files;
  for (auto it = sources.fileinfo_begin(); it != sources.fileinfo_end(); ++it) {
    const std::string name = it->first->getName().str();
    if (name.rfind(kBuiltinDir, 0) != 0) files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  files.insert(files.end(), database_files_.begin(), database_files_.end());
  return files;
}

}  // namespace warpdiv::frontend::detail
