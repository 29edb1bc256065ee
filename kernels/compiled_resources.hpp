// A kernel's resources as the CUDA compiler allocates them: registers per thread, static shared
// memory, local memory (stack frame), spills and barriers, for one architecture (sm_XY). No GPU
// is needed: the kernel is compiled, not run.
//
// How: the source is compiled for that architecture with nvcc (`nvcc -cubin -arch=sm_XY
// -Xptxas=-v`; found as $WARPDIV_NVCC, on PATH, or under $CUDA_HOME, $CUDA_PATH, /usr/local/cuda;
// WARPDIV_NVCC set empty means "no nvcc")
// or, where nvcc is absent, with NVRTC (libnvrtc.so, loaded at run time; no host code allowed in
// the file), and the figures are read from ptxas's own resource report (`ptxas info : Used N
// registers, used B barriers, S bytes smem` and `F bytes stack frame`), which both print for every
// entry function. That report is ptxas's documented `-v` output and has kept its wording since
// CUDA 2; the cubin's ELF attributes (.nv.info) are undocumented and change between releases (the
// .nv.shared section of an sm_90 cubin includes the 1 KB system reserve), so they are not read.
//
// Plain C++: no CUDA header or type; the build needs no CUDA Toolkit (nvcc is run as a process,
// NVRTC is opened with dlopen).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"

namespace warpdiv::kernels {

/// The compiler is missing or cannot target the architecture: exit status 3, like a missing GPU.
class NoCompiler : public NoDevice {
 public:
  using NoDevice::NoDevice;
};

enum class CompilerChoice { any, nvcc, nvrtc };  // any: nvcc when found, else NVRTC

struct CompileRequest {
  std::string file;    // the .cu file (read by nvcc; named in messages)
  std::string source;  // its text; when set, compiled in place of reading file
  std::string kernel;  // "k", "ns::k", "red<16>"; empty: the file's only kernel
  int cc_major = 9;    // the architecture: sm_<major><minor>
  int cc_minor = 0;
  std::vector<std::string> defines;  // "NAME" or "NAME=VALUE"
  std::vector<std::string> include_dirs;
  CompilerChoice compiler = CompilerChoice::any;
};

/// One entry function as ptxas reports it.
struct CompiledResources {
  std::string kernel;    // demangled: "MatrixMulKernel(float*, float*, float*, int)"
  std::string mangled;   // as in the cubin: "_Z15MatrixMulKernelPfS_S_i"
  std::string arch;      // "sm_90"
  std::string compiler;  // "nvcc 13.0" or "NVRTC 13.0"
  int registers_per_thread = 0;
  std::int64_t static_shared_bytes = 0;  // __shared__ arrays, per block
  std::int64_t local_bytes = 0;          // stack frame per thread (local arrays, spills)
  std::int64_t spill_store_bytes = 0;
  std::int64_t spill_load_bytes = 0;
  int barriers = 0;  // named barriers the kernel uses (__syncthreads: 1)
  /// The files the compiler read: nvcc's own dependency list (-MD), or for NVRTC, which gives
  /// none, the file and the headers its #include lines name (resolved as the compiler would).
  std::vector<std::string> files_read;
  /// The compiler run: the nvcc program, or the NVRTC library loaded.
  std::string compiler_file;

  /// "nvcc 13.0 for sm_90 (ptxas)": where the figures come from.
  std::string origin() const;
};

/// Compiles request.kernel (or the file's only kernel) for sm_<cc_major><cc_minor> and returns
/// its resources. Throws NoCompiler when neither compiler is found or the one found cannot target
/// the architecture (the message says which and suggests --regs / --smem), InvalidInput when the
/// source does not compile (the compiler's first error lines) or the kernel is not among the
/// compiled ones (the message lists them).
CompiledResources compile_resources(const CompileRequest& request);

/// The CUDA Toolkit's include folders (include/ and include/cccl of the first toolkit found),
/// which NVRTC does not search by itself: <cooperative_groups.h> needs them. Empty without one.
std::vector<std::string> toolkit_include_dirs();

/// The request for a kernel model: its file, its text where the model holds it, its name.
/// For a GPU run: compile_resources(compile_request(kernel, major, minor)) gives what
/// cudaFuncGetAttributes reports as numRegs, sharedSizeBytes and localSizeBytes for the kernel
/// built by the same compiler (set request.compiler = CompilerChoice::nvrtc where the run loads an
/// NVRTC-compiled kernel: nvcc and NVRTC may differ by a few registers).
CompileRequest compile_request(const sim::ir::Kernel& kernel, int cc_major, int cc_minor);

/// Parses ptxas's -v report (as nvcc or NVRTC's log print it) into one entry per entry function,
/// in order, with `compiler` and `arch` left empty and `kernel` demangled. Exposed for tests.
std::vector<CompiledResources> parse_ptxas_report(const std::string& report);

/// The make rule nvcc -MD writes ("target: a.cu \\\n b.h ...", spaces in names as "\\ ") as its
/// prerequisites, in order. Exposed for tests.
std::vector<std::string> parse_dependency_rule(const std::string& rule);

/// The signal (SIGINT, SIGTERM or SIGHUP) that stopped the last compile, 0 when none did: the
/// program ends by it once its temporaries are gone, so that a shell reports 128 + N, as for the
/// other commands (Ctrl-C: exit 130 either way).
int compile_stop_signal();

/// `file` and every file its #include lines name, followed recursively: a quoted name beside the
/// including file first, then in `include_dirs`; an angled one in `include_dirs` only. Names
/// not found there (system headers) are left out; one that is there but not a regular file (a
/// FIFO, a device) is refused, InvalidInput naming it. Exposed for tests.
std::vector<std::string> included_files(const std::string& file,
                                        const std::vector<std::string>& include_dirs);

/// Files a preprocessor may read that included_files cannot follow (a name built by macros it
/// does not expand: `#include XSTR(NAME)`, `-DH="h.cuh"`, a macro of an earlier header): every
/// regular file, beside one of `files` or in `include_dirs`, whose name (with its folders, as
/// written) appears in the text of `files` or in `defines`. A superset, for keeping outputs off
/// what NVRTC, which names no dependencies, may have read.
std::vector<std::string> mentioned_files(const std::vector<std::string>& files,
                                         const std::vector<std::string>& include_dirs,
                                         const std::vector<std::string>& defines);

/// "void red<16>(float*)" -> "red<16>"; "ns::k(int)" -> "ns::k": the name a --kernel flag uses.
std::string function_name(const std::string& demangled);

}  // namespace warpdiv::kernels
