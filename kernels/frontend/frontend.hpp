// The Clang front-end: reads a CUDA source file with Clang (as device code, without the CUDA
// Toolkit) and lowers one __global__ function to the kernel model (sim/model/ir.hpp). No Clang type
// crosses this header; only kernels/frontend/*.cpp include Clang.
//
// Available when the build defines WARPDIV_HAVE_FRONTEND; off in the statically linked GPU bundle.
// Two implementations of this header: warpdiv_frontend (Clang itself, linked into the front-end's
// tests and into the plugin libwarpdiv-frontend.so) and warpdiv_frontend_loader (loader.cpp, what
// the warpdiv CLI links), which loads that plugin on first use, so that a warpdiv run that reads no
// source (a built-in kernel, --model, occupancy) never pays for loading LLVM (tens of ms per start).
//
// What Clang sees: the file as `clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -std=c++17
// -nocudainc -nocudalib -w`, after a built-in prelude (prelude.cuh, prelude_runtime.cuh,
// prelude_device.cuh, compiled in as one text: the CUDA keywords and launch built-ins, the
// runtime API as CUDA 13's cuda_runtime_api.h declares it plus the calls CUDA 13 removed
// (cudaThreadSynchronize, texture references, cudaDeviceProp's old fields), the math, intrinsic,
// atomic, warp, texture and surface functions, the vector types, and at its end the C and C++
// headers nvcc's cuda_runtime.h includes), with stub cuda_runtime.h, cuda.h ... and a built-in
// <cooperative_groups.h> (cooperative_groups.cuh). tests/kernels/frontend/prelude_drift_test.cpp checks
// the prelude's declarations against the installed toolkit's. Host code in the file (main,
// cudaMalloc, <<<...>>>) parses; it is read only for the kernel's launches, when asked
// (FrontendOptions::host_launches, HostLaunch: host_launch.cpp computes the launches' sizes and
// scalar arguments from constants and straight-line integer locals, and says why where it cannot).
// With FrontendOptions::compile_commands_dir (-p BUILD_DIR) the file's entry in
// compile_commands.json gives include folders, macros and -std (compile_database.hpp), before
// `defines` and `include_dirs`. Warnings are off. Defined macros: __CUDACC__,
// __NVCC__, __CUDA_ARCH__ (700), __WARPDIV__, and the toolkit headers' guards
// (__CUDA_RUNTIME_H__, __DRIVER_TYPES_H__ ...) that helper headers test.
//
// With FrontendOptions::cuda_headers "toolkit" (or "auto" where <cuda_path>/include/cuda_runtime.h
// exists) Clang reads the CUDA Toolkit's own headers instead, as `clang -x cuda --cuda-path=DIR`
// does: Clang's CUDA wrapper headers (its resource folder) include the toolkit's, plus the shims
// of docs/toolkit-headers.md served from memory (T: an empty texture_fetch_functions.h where the
// toolkit has none; R: a stand-in texture<T, dim, mode> for CUDA >= 12; C: -isystem
// include/cccl; S: -target-sdk-version=11.5 so that <<<>>> calls __cudaPushCallConfiguration;
// V: -fcuda-allow-variadic-functions; M: host min/max). The headers the wrapper includes as
// "cuda.h" ... are forwarded from an -iquote folder in memory, so a user -I folder with its own
// cuda.h does not hide the toolkit's. Defined: __WARPDIV__ (Clang defines __CUDACC__ and
// __CUDA_ARCH__; __NVCC__ is not defined). The same kernels give the same model on both routes
// (tests/kernels/frontend/frontend_toolkit_test.cpp); a parse takes ~0.45 s instead of ~0.04 s (1.8 s
// with <cooperative_groups.h>).
//
// Clang's errors: only the chosen kernel and what it reaches must be clean (reach.hpp). Its reach
// is the kernel's definition and, transitively, the functions it calls (constructors, operators,
// member functions and template instantiations included) and the variables and types it uses. An
// error inside a declaration outside the reach (host code such as main calling an API the prelude
// does not declare, another kernel, an unused helper or global) is a note: load_kernel returns one
// line per such error and the kernel loads. These fail the load with Clang's text of those errors
// (ClangDiagnostics): an error in the reach; one that cannot be attributed to a declaration (file
// scope: a stray token, a preprocessor error, a file-scope static_assert or using-directive); an
// error in a template the kernel uses, whichever instantiation it came from. A kernel that reaches
// a declaration Clang marked invalid, or names one, fails with all of Clang's errors and a note
// naming it: Clang drops a use of an invalid declaration silently (`a[0] = vbo;` with `GLuint vbo;`
// undeclared leaves no trace in the kernel), so the name alone counts. A fatal error (a missing
// #include: Clang stops there, and the header's macros could have changed the kernel) always
// fails, with all of Clang's text; give -I a folder holding the header or a stub of it, or hide
// host code with #ifndef __WARPDIV__.
//
// What is modelled (see the lower*.cpp files): integer and bool scalars (char ... long long,
// size_t, enums) with every implicit conversion made explicit; the launch built-ins; the kernel's
// scalar integer parameters (by index); if/else, ?:, &&, ||, for/while/do, break, continue, return,
// switch; __syncthreads(); min/max/abs (and std::min/std::max) on integers; calls of __device__
// functions defined in the source (inlined), member functions and operators of the file's
// structs and class templates included; integer references (int& aliases the local it is bound
// to); local objects of struct and class type member by member (constructors, copies,
// assignments, temporaries: braces, calls and operators returning the class by value);
// constexpr calls with constant arguments and `if constexpr` folded as the compiler folds them;
// cooperative groups (a block's sync is a barrier; ranks and sizes of
// blocks, tiles and grids computed from the launch built-ins). Memory reads are Opaque values
// described as written, with their memory space ("A[i] (global memory)", "tile[ty][tx] (shared
// memory)", "tex1Dfetch(t, i) (texture memory)"); memory writes, floating-point work and other
// calls are Work statements; shuffles, votes and cg::reduce are Opaque values. A condition
// depending on an Opaque value is refused by sim::ir::validate() (data-dependent branch); goto,
// recursion, inline asm, function pointers, calls without a body, virtual calls, grid-wide
// syncs, side effects on modelled locals inside larger expressions, taking a tracked local's
// or object's address, and calls of __device__ functions where they would not run exactly once
// (loop conditions, &&/||/?: arms) are refused with file:line:col and the reason.
//
// Templates: a __global__ function template is usable through its instantiations in the file
// (explicit, or implied by a launch `k<16><<<g, b>>>(...)`); they are listed as "k<16>". A template
// without an instantiation is listed but refused by load_kernel with a hint.
//
// Overloads: kernels sharing a name are told apart by their signatures, "ov(float *)" (the
// parameter types as Clang prints them); --kernel takes one (spaces ignored), and a bare name
// shared by several is refused listing them.
//
// Limits (each refused with one line, InvalidInput, exit 2; a normal kernel, its prelude and the
// toolkit's headers stay far below them): kMaxSourceBytes per file, kMaxTokens for the
// preprocessor, kMaxChain for what Clang's parser and Sema follow (Sema is quadratic in the length
// of a chain like a || b || c ...: Stmt::getBeginLoc walks the left spine at every operator), and
// kMaxNesting for the lowering (lower*.cpp). Clang runs on a thread with a large stack
// (sim/support/large_stack.hpp);
// the CLI runs it in a child process as well (loader.cpp), so that a crash or a runaway parse ends
// in a one-line refusal.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"

namespace warpdiv::frontend {

/// The largest source file, and header outside the system folders, the front-end reads: 4 MiB
/// (kernels are a few KB; the largest Rodinia file is 60 KB).
constexpr std::uint64_t kMaxSourceBytes = std::uint64_t{4} << 20;
/// The most tokens the preprocessor may produce: those the parser reads plus those macro
/// expansions produce (a kernel with its headers: far fewer). Above it a macro expands without
/// end (#define A1 A0 A0, #define A2 A1 A1 ...).
constexpr std::uint64_t kMaxTokens = 20'000'000;
/// The longest chain Clang is given: operators of one precedence at one level of brackets in one
/// statement (a || b || ..., !!!...x), counted as the tokens arrive; beyond it "nesting deeper
/// than 10000 at FILE:LINE" before Clang's parser recursion and Sema's quadratic cost on such
/// chains set in. Control statements nested without braces (if (a) if (b) ...) are counted so
/// too, up to kMaxNesting (Clang's name lookup walks every enclosing scope).
constexpr int kMaxChain = 10'000;
/// The deepest statement or expression nesting the lowering follows (lower*.cpp): the model's own
/// limit (sim/model/ir.hpp), refused as the lowering meets it with "nesting deeper than 1000 at
/// FILE:LINE". An else-if chain is not nesting (its length is free).
constexpr int kMaxNesting = sim::ir::kMaxNesting;
/// The CLI's wall-time limit for one front-end request (loader.cpp's child process): a kernel
/// takes ~0.05 s (2 s with the toolkit's <cooperative_groups.h>).
constexpr int kFrontendSeconds = 60;

/// What to read and how.
struct FrontendOptions {
  std::string file;                       // the .cu file
  std::string kernel;                     // the __global__ function; empty: the file's only one
  std::vector<std::string> defines;       // "NAME" or "NAME=VALUE", passed as -D
  std::vector<std::string> include_dirs;  // passed as -I, in order
  /// Which headers declare CUDA for Clang (cuda_headers_choices()):
  ///   "builtin": warpdiv's prelude and <cooperative_groups.h> (no toolkit needed; the default);
  ///   "toolkit": the CUDA Toolkit's own headers at cuda_path, through Clang's CUDA wrapper headers
  ///              (as `clang -x cuda --cuda-path=...`), with the shims docs/toolkit-headers.md
  ///              lists; a toolkit without include/cuda_runtime.h is refused (InvalidInput);
  ///   "auto":    "toolkit" where <cuda_path>/include/cuda_runtime.h exists, else "builtin".
  std::string cuda_headers = "builtin";
  /// The toolkit's folder; empty: $CUDA_PATH when set, else /usr/local/cuda.
  std::string cuda_path;
  /// nvcc's -fmad: true (its default) contracts floating-point multiplies and adds into FMAs where
  /// nvcc does (sim/model/ir_contract.hpp); false keeps every operation rounded on its own.
  bool fmad = true;
  /// A build folder holding compile_commands.json (`-p BUILD_DIR`, as clang-tidy -p reads it):
  /// the entry for `file` (by absolute path) gives include folders, macros and language flags
  /// (compile_database.cpp lists what is taken), passed before `defines` and `include_dirs`.
  /// Empty: none. A missing or malformed database, or no entry for the file, is InvalidInput.
  std::string compile_commands_dir;
  /// Whether load_kernel also reads the kernel's launches from the file's host code (HostLaunch).
  bool host_launches = false;
  /// Values given for the kernel's integer parameters (`--arg NAME=VALUE`, by parameter name,
  /// decimal): where a launch passes a host variable that nothing writes after its declaration
  /// (a local, a parameter of the host function, a const variable), the host code is followed
  /// with that variable holding the value, so what it computes from it (the grid, the block,
  /// other arguments) follows (HostLaunch::followed); otherwise only the argument changes
  /// (HostLaunch::unfollowed says why).
  std::map<std::string, std::string> host_arguments;
  /// The grid and the block given on the command line (`--grid`, `--block`) over the launch read
  /// from the host code: x, y, z as decimal integers, {"?"} when computed from values the source
  /// gives, empty when not given. The variable the launch passes for that size (an integer for x,
  /// a dim3), where nothing writes it after its declaration, holds the value throughout, so what
  /// the host code computes from it (the dynamic shared memory, the other size, arguments)
  /// follows (HostLaunch::followed); otherwise what reads the variables of the size's expression
  /// is not computable (HostLaunch::unfollowed says why), never the source's value.
  std::vector<std::string> host_grid, host_block;
};

/// The values FrontendOptions::cuda_headers takes, for messages: "builtin, toolkit, auto".
constexpr const char* kCudaHeadersChoices = "builtin, toolkit, auto";
/// Whether `value` is one of them.
inline bool is_cuda_headers_choice(const std::string& value) {
  return value == "builtin" || value == "toolkit" || value == "auto";
}

/// A __global__ function defined in the file.
struct KernelInfo {
  std::string name;                      // "k", "ns::k", or a template instantiation "k<16>"
  std::string location;                  // "FILE:LINE:COL" of its name
  bool uninstantiated_template = false;  // a template with no instantiation: cannot be loaded
  /// The name with its parameter types as Clang prints them: "ov(float *)", "k<16>(int *, int)";
  /// --kernel takes it (spaces ignored) to choose among overloads.
  std::string signature;
};

/// One value of a launch written in the file's host code (a size of its grid or block, the dynamic
/// shared memory, a kernel argument), computed from constants and integer locals (host_launch.cpp).
struct HostValue {
  bool known = false;
  /// Decimal text when known: an integer ("-3", "18446744073709551615"), or for a float or
  /// double argument a decimal that rounds back to the value ("2.5", "1e-07").
  std::string value;
  std::string where;  // "FILE:LINE:COL" of the expression giving it
  /// Why it cannot be computed, when !known and the value is an integer or floating one:
  /// "'cols' (hw.cu:30:7) is set from atoi(argv[2])". Empty for a value the model takes none
  /// of (a pointer, a struct).
  std::string reason;
  /// Not empty (with !known): the source's value is not to be taken, and why: its expression holds
  /// an error Clang reports ("Clang rejects it: FILE:LINE:COL: error: <Clang's message>"), or its
  /// value does not fit the type it is converted to (dim3's unsigned int, the parameter's type:
  /// "'4294967296' (FILE:LINE:COL) is 4294967296, outside unsigned int's range 0 .. 4294967295").
  std::string refused;
};

/// A launch of the chosen kernel, `kernel<<<grid, block, shared>>>(args)`, in host code.
struct HostLaunch {
  std::string location;  // "FILE:LINE:COL" of the kernel's name in the launch
  std::string function;  // the host function it is written in: "main", "run_scale"
  HostValue grid[3], block[3];
  HostValue dynamic_shared;          // the third <<< >>> argument ("0" when not written)
  std::vector<HostValue> arguments;  // one per kernel parameter, in order
  /// FrontendOptions::host_arguments the host code was followed with: "'rows' (hw.cu:9:13) = 8".
  std::vector<std::string> followed;
  /// Those it could not be: "rows: 'rows' (hw.cu:9:13) is assigned at hw.cu:12:3 as well".
  std::vector<std::string> unfollowed;
  /// Not empty: the program never makes this launch, and why ("the condition 'n == 7' of the if at
  /// hw.cu:7:3 is false").
  std::string never_made;
};

/// Clang's first error among those a ClangDiagnostics shows: its place, from Clang's source
/// manager (the file as Clang names it, the line, the column in bytes from 1, as Clang prints
/// them; line 0 for an error without a place, such as a bad flag), and Clang's message alone.
struct FirstClangError {
  SourceLocation at;
  std::string message;  // "expected expression"; "" when Clang reported no error
};

/// Clang reported errors: what() is Clang's text, as Clang prints it (one or more lines, each
/// diagnostic "FILE:LINE:COL: error: ...", with the source line and caret), without a trailing
/// newline. The CLI prints it as it is (no "warpdiv: error: " prefix) and exits 2. first() is the
/// first of those errors, structured.
class ClangDiagnostics : public InvalidInput {
 public:
  explicit ClangDiagnostics(const std::string& text, FirstClangError first = {})
      : InvalidInput(Diag::source_errors, text), first_(std::move(first)) {}
  const FirstClangError& first() const { return first_; }

 private:
  FirstClangError first_;
};

/// Where the front-end plugin is looked for, in order (WARPDIV_FRONTEND_PLUGIN's file alone, made
/// absolute, when it is set): inputs of every run, which no output may replace.
std::vector<std::string> plugin_files();

/// The __global__ functions of options.file, in source order (options.kernel is ignored), also
/// when Clang reported errors in the file (a kernel among them then fails to load). Throws
/// ClangDiagnostics when Clang stopped (a fatal error), InvalidInput when the file cannot be read.
std::vector<KernelInfo> list_kernels(const FrontendOptions& options);

/// Parses options.file and lowers the chosen kernel to the model, then sim::ir::validate()s it.
/// files[0] is options.file (as given), with its lines; headers the kernel uses follow.
/// `notes`, when given, receives one line per Clang error outside the kernel's reach, in Clang's
/// order: "FILE:LINE:COL: error in host code the kernel does not reach (main): <Clang's message>"
/// ("code" for another kernel or a __device__ function, "a declaration the kernel does not use
/// (NAME)" for a variable or a type).
/// Throws ClangDiagnostics (Clang's errors in the kernel's reach, or a fatal error; when no kernel
/// is found in a file with errors, all of them and then "warpdiv: error: <why>"), InvalidInput
/// (unreadable file; no kernel, an unknown --kernel or several kernels without one, the message
/// listing them; an unsupported construct or a data-dependent condition: "FILE:LINE:COL: ..." with
/// the reason).
/// `files_read`, when given, receives every real file read for the kernel (the source, all it
/// includes, the compilation database and its response files), also when the load fails once
/// Clang has read the source (then before the exception leaves), so that a caller can keep
/// its outputs off them.
/// `launches`, when given and options.host_launches is set, receives the kernel's launches in the
/// file's host code, in source order (host_launch.cpp says what is computed and what refused).
sim::ir::Kernel load_kernel(const FrontendOptions& options, std::vector<std::string>* notes = nullptr,
                            std::vector<std::string>* files_read = nullptr,
                            std::vector<HostLaunch>* launches = nullptr);

/// One line naming the kernels, for messages: "a, b<16>, ns::c"; overloads (kernels sharing a
/// name) by their signatures: "ov(int *), ov(float *)".
inline std::string kernel_names(const std::vector<KernelInfo>& kernels) {
  std::string names;
  for (const auto& kernel : kernels) {
    bool overloaded = false;
    for (const auto& other : kernels)
      overloaded = overloaded || (&other != &kernel && other.name == kernel.name);
    const std::string& shown = overloaded && !kernel.signature.empty() ? kernel.signature : kernel.name;
    names += (names.empty() ? "" : ", ") + shown;
  }
  return names;
}

}  // namespace warpdiv::frontend
