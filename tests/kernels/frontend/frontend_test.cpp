// The Clang front-end: CUDA snippets written to temporary files, parsed and lowered. Expected
// models are written out by hand from C's conversion rules (as an s-expression, printed by
// tests/kernels/model_text.hpp), never taken from the code under test.
#include "kernels/frontend/frontend.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include "sim/model/ir_json.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/source_dir.hpp"
#include "tests/text_helpers.hpp"

namespace {

namespace fs = std::filesystem;
namespace ir = warpdiv::sim::ir;
using warpdiv::InvalidInput;
using warpdiv::frontend::ClangDiagnostics;
using warpdiv::frontend::FrontendOptions;
using warpdiv::frontend::list_kernels;
using warpdiv::frontend::load_kernel;
using warpdiv::testing::body;
using warpdiv::testing::sexpr;
using warpdiv::testing::sstmt;
using warpdiv::testing::statement_at;

class FrontendTest : public warpdiv::testing::SnippetTest {
 protected:
  FrontendTest() : SnippetTest("warpdiv_frontend_") {}
};

/// The id of the first statement of `kind` (the front-end adds children before parents).
ir::StmtId first_id(const ir::Kernel& k, ir::StmtKind kind) {
  for (std::size_t i = 0; i < k.stmts.size(); ++i)
    if (k.stmts[i].kind == kind) return static_cast<ir::StmtId>(i);
  throw std::runtime_error("no statement of kind " + ir::name(kind));
}

/// The first statement of `kind` in id order (the front-end adds children before parents).
const ir::Stmt& first(const ir::Kernel& k, ir::StmtKind kind) {
  for (const auto& s : k.stmts)
    if (s.kind == kind) return s;
  throw std::runtime_error("no statement of kind " + ir::name(kind));
}

// ---------------------------------------------------------------------------------------------
// Choosing the kernel

constexpr const char* kTwoKernels = R"(
__global__ void scale(float* a, int n) { int i = threadIdx.x; if (i < n) a[i] *= 2; }
__device__ int helper(int x) { return x + 1; }
__global__ void clear(float* a) { a[threadIdx.x] = 0; }
)";

TEST_F(FrontendTest, ListsTheGlobalFunctionsInSourceOrder) {
  const auto kernels = list_kernels(options(kTwoKernels));
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "scale");
  EXPECT_EQ(kernels[1].name, "clear");
  EXPECT_EQ(kernels[0].location, (dir_ / "k.cu").string() + ":2:17");
  EXPECT_EQ(kernels[1].location, (dir_ / "k.cu").string() + ":4:17");
}

TEST_F(FrontendTest, PicksTheOnlyKernelWithoutKernelOption) {
  const ir::Kernel k = load("__global__ void only(int* a) { a[0] = 1; }\n");
  EXPECT_EQ(k.name, "only");
  ASSERT_EQ(k.parameters.size(), 1u);
  EXPECT_FALSE(k.parameters[0].scalar);
  EXPECT_EQ(k.files.at(0).path, (dir_ / "k.cu").string());
  EXPECT_EQ(k.files[0].lines.at(0), "__global__ void only(int* a) { a[0] = 1; }");
}

TEST_F(FrontendTest, SourceLinesEndWhereClangEndsThemAtLfCrLfOrALoneCr) {
  // Four lines, ended in turn by "\r", "\r\n", "\n" and "\r": Clang numbers the store on line 3, and
  // the model keeps the four texts without their line ends.
  const ir::Kernel k = load("__global__ void k(int* a) {\r  int t = threadIdx.x;\r\n  a[t] = 1;\n}\r");
  const std::vector<std::string> lines = {"__global__ void k(int* a) {", "  int t = threadIdx.x;",
                                          "  a[t] = 1;", "}"};
  EXPECT_EQ(k.files.at(0).lines, lines);
}

TEST_F(FrontendTest, SeveralKernelsWithoutKernelOptionListsThem) {
  const std::string message = refusal(kTwoKernels);
  EXPECT_NE(message.find("defines 2 __global__ functions (scale, clear): choose one with --kernel NAME"),
            std::string::npos)
      << message;
}

TEST_F(FrontendTest, KernelOptionPicksOneAndAnUnknownNameListsThem) {
  EXPECT_EQ(load(kTwoKernels, "clear").name, "clear");
  const std::string message = refusal(kTwoKernels, "nope");
  EXPECT_NE(message.find("no __global__ function named 'nope' (defined: scale, clear)"), std::string::npos)
      << message;
}

TEST_F(FrontendTest, NoKernelAtAll) {
  EXPECT_NE(refusal("__device__ int f() { return 1; }\n").find("no __global__ function is defined"),
            std::string::npos);
}

TEST_F(FrontendTest, TemplateKernelsAreUsedThroughTheirInstantiations) {
  const std::string source = R"(
template <int B> __global__ void red(int* a) { if (threadIdx.x < B) a[0] = 1; }
template <int B> __global__ void unused(int* a) { a[0] = B; }
namespace ops { template <typename T> __global__ void fill(T* a) { a[threadIdx.x] = T(1); } }
template __global__ void ops::fill<short>(short*);
int main() { red<16><<<1, 32>>>(0); red<8><<<1, 32>>>(0); }
)";
  const auto kernels = list_kernels(options(source));
  ASSERT_EQ(kernels.size(), 4u);
  EXPECT_EQ(kernels[0].name, "red<16>");
  EXPECT_EQ(kernels[1].name, "red<8>");
  EXPECT_EQ(kernels[2].name, "unused");
  EXPECT_TRUE(kernels[2].uninstantiated_template);
  EXPECT_EQ(kernels[3].name, "ops::fill<short>");  // an explicit instantiation
  EXPECT_EQ(load(source, "fill").name, "ops::fill<short>");
  const ir::Kernel k = load(source, "red<8>");
  EXPECT_EQ(sexpr(k, first(k, ir::StmtKind::If).value), "(threadIdx.x < (uint32)8:int32)");
  EXPECT_NE(refusal(source, "red").find("matches 2 kernels (red<16>, red<8>)"), std::string::npos);
  EXPECT_NE(refusal(source, "unused").find("has no instantiation in this file"), std::string::npos);
}

// Template arguments as the source writes them: Clang prints an unsigned or long argument with its
// suffix (reduce4<int, 256U>), the source and the user write 256.
TEST_F(FrontendTest, TemplateArgumentsNameAKernelAsTheSourceWritesThem) {
  const std::string source = R"(
template <typename T, unsigned B> __global__ void reduce4(T* a) { if (threadIdx.x < B) a[0] = 1; }
template <typename T, unsigned long B, bool F> __global__ void r6(T* a) { if (F && threadIdx.x < B) a[0] = 1; }
template <int N> __global__ void grid2(int* a) { a[0] = N; }
int main() { reduce4<int, 256><<<1, 32>>>(0); reduce4<int, 25><<<1, 32>>>(0); r6<float, 64, true><<<1, 32>>>(0);
             grid2<2><<<1, 32>>>(0); }
)";
  const auto kernels = list_kernels(options(source));
  ASSERT_EQ(kernels.size(), 4u);
  EXPECT_EQ(kernels[0].name, "reduce4<int, 256U>");  // as Clang prints it
  EXPECT_EQ(load(source, "reduce4<int, 256>").name, "reduce4<int, 256U>");
  EXPECT_EQ(load(source, "reduce4<int,256u>").name, "reduce4<int, 256U>");
  EXPECT_EQ(load(source, "reduce4<int, 25>").name, "reduce4<int, 25U>");
  EXPECT_EQ(load(source, "r6<float, 64, true>").name, "r6<float, 64UL, true>");
  EXPECT_EQ(load(source, "grid2<2>").name, "grid2<2>");
  // A number is a whole token: 2 is not 25, nor the 2 of a name.
  EXPECT_NE(refusal(source, "reduce4<int, 2>").find("no __global__ function named 'reduce4<int, 2>'"),
            std::string::npos);
}

TEST_F(FrontendTest, IfConstexprKeepsOnlyTheBranchTheCompilerKeeps) {
  const std::string source = R"(
template <int B> __global__ void k(int* a) {
  if constexpr (B > 8) { if (threadIdx.x < B) a[0] = 1; } else { a[1] = 2; }
}
template __global__ void k<8>(int*);
template __global__ void k<16>(int*);
)";
  EXPECT_EQ(body(load(source, "k<8>")), "{ { work[a[1] = 2]; } }");
  EXPECT_EQ(body(load(source, "k<16>")),
            "{ { if (threadIdx.x < (uint32)16:int32) work[a[0] = 1]; else - } }");
}

// ---------------------------------------------------------------------------------------------
// Clang's diagnostics, -D and -I

TEST_F(FrontendTest, SyntaxErrorGivesClangsDiagnosticWithLocation) {
  const FrontendOptions o = options("__global__ void k(int* a) {\n  a[0] = 1\n}\n");
  try {
    load_kernel(o);
    FAIL() << "no error";
  } catch (const ClangDiagnostics& e) {
    const std::string text = e.what();
    EXPECT_EQ(text.rfind(o.file + ":2:11: error: expected ';' after expression", 0), 0u) << text;
    EXPECT_NE(text.find("  a[0] = 1\n"), std::string::npos) << text;  // the source line, as Clang prints it
    EXPECT_NE(text.back(), '\n');
  }
}

TEST_F(FrontendTest, MissingFileIsOneLine) {
  FrontendOptions o;
  o.file = (dir_ / "absent.cu").string();
  try {
    load_kernel(o);
    FAIL() << "no error";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read " + o.file + ": no such file or not readable");
  }
}

// ---------------------------------------------------------------------------------------------
// Clang's errors outside the kernel's reach are notes; inside it they fail the load.

class ReachTest : public FrontendTest {
 protected:
  /// Loads `source`'s `kernel`, returning its notes (the test fails if the load throws).
  std::vector<std::string> notes(const std::string& source, const std::string& kernel = "") {
    std::vector<std::string> found;
    try {
      load_kernel(options(source, kernel), &found);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not loaded: " << e.what();
    }
    return found;
  }
  /// Clang's text load_kernel fails `source`'s `kernel` with ("" when it does not).
  std::string clang_failure(const std::string& source, const std::string& kernel = "") {
    try {
      load_kernel(options(source, kernel));
    } catch (const ClangDiagnostics& e) {
      return e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a Clang failure: " << e.what();
    }
    return "";
  }
  std::string file() const { return (dir_ / "k.cu").string(); }
};

TEST_F(ReachTest, AnErrorInMainIsANoteNamingMainAndTheLine) {
  const std::string source = R"(
__global__ void k(int* a) { if (threadIdx.x < 4) a[0] = 1; }
int main() {
  k<<<1, 32>>>(0);
  glewInit();
  glutMainLoop();
}
)";
  const std::vector<std::string> found = notes(source);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0], file() +
                          ":5:3: error in host code the kernel does not reach (main): use of "
                          "undeclared identifier 'glewInit'");
  EXPECT_EQ(found[1], file() +
                          ":6:3: error in host code the kernel does not reach (main): use of "
                          "undeclared identifier 'glutMainLoop'");
  EXPECT_EQ(load(source).name, "k");
  ASSERT_EQ(list_kernels(options(source)).size(), 1u);
}

TEST_F(ReachTest, ABrokenSecondKernelIsANoteUnlessItIsChosen) {
  const std::string source = R"(
__global__ void good(int* a) { a[0] = 1; }
__global__ void bad(int* a) { a[0] = nope; }
int main() { glewInit(); }
)";
  const std::vector<std::string> found = notes(source, "good");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0], file() +
                          ":3:38: error in code the kernel does not reach (bad): use of "
                          "undeclared identifier 'nope'");
  EXPECT_NE(found[1].find("(main)"), std::string::npos) << found[1];
  const std::string text = clang_failure(source, "bad");
  // Clang's text of the chosen kernel's error alone: main's error is not the kernel's.
  EXPECT_EQ(text.rfind(file() + ":3:38: error: use of undeclared identifier 'nope'", 0), 0u) << text;
  EXPECT_NE(text.find("  ^"), std::string::npos) << text;
  EXPECT_EQ(text.find("glewInit"), std::string::npos) << text;
  // Both are listed; without --kernel the choice is asked for as usual.
  const auto kernels = list_kernels(options(source));
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[1].name, "bad");
  EXPECT_NE(refusal(source).find("choose one with --kernel NAME"), std::string::npos);
}

TEST_F(ReachTest, AnErrorInAHelperFailsOnlyWhenTheKernelCallsIt) {
  const std::string called = R"(
__device__ int helper(int x) { return x + undeclared_value; }
__global__ void k(int* a) { a[0] = helper(threadIdx.x); }
)";
  EXPECT_EQ(clang_failure(called).rfind(file() + ":2:43: error: use of undeclared identifier "
                                                 "'undeclared_value'",
                                        0),
            0u);
  // Called through another helper, a member function, a constructor or an operator: still reached.
  EXPECT_NE(clang_failure(R"(
__device__ int helper(int x) { return x + undeclared_value; }
__device__ int middle(int x) { return helper(x); }
__global__ void k(int* a) { a[0] = middle(threadIdx.x); }
)")
                .find("'undeclared_value'"),
            std::string::npos);
  EXPECT_NE(clang_failure(R"(
struct S {
  __device__ S(int v) : x(v + missing) {}
  __device__ int operator+(int y) const { return x + y + other_missing; }
  __device__ int get() const { return x + third_missing; }
  int x;
};
__global__ void k(int* a) { S s(1); a[0] = s + 1; a[1] = s.get(); }
)")
                .find("third_missing"),
            std::string::npos);
  const std::vector<std::string> found = notes(R"(
__device__ int unused(int x) { return x + undeclared_value; }
struct S {
  int used;
  __device__ int unused_member() const { return nope; }
};
__global__ void k(S* s) { s->used = 1; }
)");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0], file() +
                          ":2:43: error in code the kernel does not reach (unused): use of "
                          "undeclared identifier 'undeclared_value'");
  EXPECT_NE(found[1].find("(S::unused_member): use of undeclared identifier 'nope'"), std::string::npos)
      << found[1];
}

TEST_F(ReachTest, AFileScopeDeclarationIsJudgedByWhetherTheKernelUsesIt) {
  const std::string unused = R"(
PFNGLGENBUFFERSPROC vbo;
__constant__ int table[4];
const char* names[] = {"default", "blocking", NOT_DECLARED};
__global__ void k(int* a) { a[0] = table[threadIdx.x % 4]; }
)";
  const std::vector<std::string> found = notes(unused);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0], file() +
                          ":2:1: error in a declaration the kernel does not use (vbo): "
                          "unknown type name 'PFNGLGENBUFFERSPROC'");
  // Clang leaves the initializer it could not build out of the variable's range: the error is
  // still the variable's.
  EXPECT_EQ(found[1], file() +
                          ":4:47: error in a declaration the kernel does not use (names): "
                          "use of undeclared identifier 'NOT_DECLARED'");
  // Used by the kernel: Clang drops `a[0] = vbo;` without a word (vbo is invalid), so the name
  // alone breaks the kernel.
  const std::string used = clang_failure(R"(
PFNGLGENBUFFERSPROC vbo;
__global__ void k(int* a) { a[0] = vbo; }
)");
  EXPECT_EQ(used.rfind(file() + ":2:1: error: unknown type name 'PFNGLGENBUFFERSPROC'", 0), 0u) << used;
  EXPECT_NE(
      used.find("\nnote: the kernel k uses 'vbo' (" + file() + ":2:21), which the errors above left invalid"),
      std::string::npos)
      << used;
  // The same for a function whose declaration is invalid, and an invalid operator.
  EXPECT_NE(clang_failure(R"(
__device__ int helper(Missing m);
__device__ int other(int x) { return x; }
__global__ void k(int* a) { a[0] = other(1); a[1] = helper(1); }
)")
                .find("uses 'helper'"),
            std::string::npos);
  EXPECT_NE(clang_failure(R"(
struct V { int x; };
__device__ int operator+(V v, Missing m);
__global__ void k(V* v, int* a) { a[0] = *v + 1; }
)")
                .find("unknown type name 'Missing'"),
            std::string::npos);
  // An invalid host function's name elsewhere in the file does not matter.
  ASSERT_EQ(notes(R"(
void upload(GLuint buffer) {}
__global__ void k(int* a) { a[0] = 1; }
int main() { upload(0); }
)")
                .size(),
            1u);
  // A type the kernel uses, through a typedef and a field.
  EXPECT_NE(clang_failure(R"(
struct Inner { Missing m; };
struct Outer { Inner i; int x; };
typedef Outer Alias;
__global__ void k(Alias* a) { a->x = 1; }
)")
                .find("unknown type name 'Missing'"),
            std::string::npos);
  // What cannot be attributed to a declaration fails.
  EXPECT_NE(clang_failure(R"(
static_assert(sizeof(int) == 8, "an int is not 8 bytes");
__global__ void k(int* a) { a[0] = 1; }
)")
                .find("an int is not 8 bytes"),
            std::string::npos);
}

TEST_F(ReachTest, MacrosCountWhereTheyAreExpanded) {
  const std::string source = R"(
#define INIT_GL() glewInit()
#define LIMIT undeclared_limit
__global__ void k(int* a) { if (threadIdx.x < 4) a[0] = 1; }
int main() { INIT_GL(); }
__global__ void other(int* a) { a[0] = LIMIT; }
)";
  const std::vector<std::string> found = notes(source, "k");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rfind(file() + ":5:14: error in host code the kernel does not reach (main)", 0), 0u)
      << found[0];
  EXPECT_NE(found[1].find("(other): use of undeclared identifier 'undeclared_limit'"), std::string::npos)
      << found[1];
  EXPECT_NE(clang_failure(source, "other").find("undeclared_limit"), std::string::npos);
}

TEST_F(ReachTest, TemplatesInstantiatedFromHostCode) {
  // Instantiated from main only: a note.
  const std::vector<std::string> found = notes(R"(
template <typename T> void host_only(T x) { x.frob(); }
__global__ void k(int* a) { a[0] = 1; }
int main() { host_only(1); }
)");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].find(":2:46: error in host code the kernel does not reach (host_only)"),
            std::string::npos)
      << found[0];
  // A template the kernel uses too: the error in its text counts against the kernel, whichever
  // instantiation it came from.
  EXPECT_NE(clang_failure(R"(
template <typename T> __host__ __device__ int size_of(T x) { return x.size(); }
struct Box { __host__ __device__ int size() const { return 4; } };
__global__ void k(int* a) { a[0] = size_of(Box()); }
int main() { return size_of(1); }
)")
                .find("member reference base type 'int' is not a structure or union"),
            std::string::npos);
}

TEST_F(ReachTest, EveryErrorIsReportedAndAMissingIncludeFails) {
  std::string many = "__global__ void k(int* a) { a[0] = 1; }\nint main() {\n";
  for (int i = 0; i < 30; ++i) many += "  host_api_" + std::to_string(i) + "();\n";
  many += "}\n";
  EXPECT_EQ(notes(many).size(), 30u);  // no "too many errors emitted"
  // A header no machine has (GL/glew.h, the usual one, may be installed).
  const std::string missing = R"(
#include <warpdiv_absent/glew.h>
__global__ void k(int* a) { a[0] = 1; }
int main() { glewInit(); }
)";
  const std::string text = clang_failure(missing);
  EXPECT_NE(text.find("fatal error: 'warpdiv_absent/glew.h' file not found"), std::string::npos) << text;
  EXPECT_THROW(list_kernels(options(missing)), ClangDiagnostics);
}

TEST_F(ReachTest, NoKernelFoundInAFileWithErrorsShowsTheErrors) {
  const std::string text = clang_failure(R"(
__global__ void k(int* a) { a[0] = 1; }
int main() { glewInit(); }
)",
                                         "kk");
  EXPECT_NE(text.find("error: use of undeclared identifier 'glewInit'"), std::string::npos) << text;
  EXPECT_NE(text.find("\nwarpdiv: error: " + file() +
                      ": no __global__ function named 'kk' "
                      "(defined: k)"),
            std::string::npos)
      << text;
}

TEST_F(FrontendTest, DefinesAndIncludeDirectoriesReachClang) {
  write("inc/tile.cuh", "#define TILE_FROM_HEADER 8\n__device__ int twice(int x) { return 2 * x; }\n");
  FrontendOptions o = options(R"(
#include "tile.cuh"
__global__ void k(int* a) {
#ifdef USE_TWICE
  if (threadIdx.x < TILE_FROM_HEADER * WIDTH) a[0] = twice(3);
#endif
}
)");
  o.defines = {"USE_TWICE", "WIDTH=4"};
  o.include_dirs = {(dir_ / "inc").string()};
  const ir::Kernel k = load_kernel(o);
  EXPECT_EQ(sexpr(k, first(k, ir::StmtKind::If).value), "(threadIdx.x < (uint32)(8:int32 * 4:int32))");
  ASSERT_EQ(k.files.size(), 2u);  // the header holds twice()'s body
  EXPECT_EQ(k.files[1].path, (dir_ / "inc" / "tile.cuh").string());
  o.defines = {};
  const ir::Kernel without = load_kernel(o);
  EXPECT_EQ(body(without), "{ }");
  // nvcc's macros are defined, and __WARPDIV__ hides what warpdiv should not read.
  EXPECT_EQ(body(load("#if defined(__CUDACC__) && __CUDA_ARCH__ >= 700 && __WARPDIV__\n"
                      "__global__ void k(int* a) { a[0] = 1; }\n"
                      "#endif\n"
                      "#ifndef __WARPDIV__\n"
                      "int main() { undeclared_host_api(); }\n"
                      "#endif\n")),
            "{ work[a[0] = 1]; }");
}

TEST_F(FrontendTest, HostCodeAndCudaHeadersParseWithoutTheToolkit) {
  const ir::Kernel k = load(R"(
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <assert.h>
#include <vector>
__noinline__ __device__ float twice(float x) { return 2 * x; }
__global__ void k(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = sqrtf(fabsf(in[i])) + __expf(1.0f) + min(i, 3);
  __syncthreads();
  if (i == 0) { printf("%d\n", warpSize); atomicAdd(out, 1.0f); }
}
int main() {
  float* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(float));
  dim3 grid(2), block(32);
  k<<<grid, block>>>(d, d, 64);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); exit(1); }
  cudaMemcpy(d, d, 4, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::vector<float> host(64);
  return host.empty() ? 1 : 0;
}
)");
  EXPECT_EQ(k.parameters.size(), 3u);
  EXPECT_TRUE(k.parameters[2].scalar);
  EXPECT_EQ(k.parameters[2].type, ir::ScalarType::I32);
  EXPECT_EQ(first(k, ir::StmtKind::Barrier).range.line, 13u);
}

// ---------------------------------------------------------------------------------------------
// Lowering: conversions, operators, control flow

TEST_F(FrontendTest, ImplicitConversionsAreExplicit) {
  const ir::Kernel k = load(R"(
__global__ void k(int* a, short s, unsigned char c, long n, unsigned long long big) {
  unsigned u = threadIdx.x;
  if (u - 1 < 5) a[0] = 1;
  if (s + c > n) a[1] = 1;
  size_t z = blockIdx.x;
  if (z < big) a[2] = 1;
  bool b = n;
  if (b) a[3] = 1;
}
)");
  // u - 1 < 5 is computed in unsigned: 0 - 1 wraps to 4294967295.
  EXPECT_EQ(body(k),
            "{ decl u = threadIdx.x;"
            " if ((u - (uint32)1:int32) < (uint32)5:int32) work[a[0] = 1]; else -"
            // short + unsigned char is int + int; the sum is converted to long for the comparison.
            " if ((int64)((int32)param:s + (int32)param:c) > param:n) work[a[1] = 1]; else -"
            " decl z = (uint64)blockIdx.x;"
            " if (z < param:big) work[a[2] = 1]; else -"
            " decl b = (bool)param:n;"
            " if b work[a[3] = 1]; else - }");
}

TEST_F(FrontendTest, ShortCircuitSelectAndUnaryOperators) {
  const ir::Kernel k = load(R"(
__global__ void k(int* a, int w) {
  int r = blockIdx.y * 16 + threadIdx.y;
  if (r < w && -r != ~w || !(w % 3)) a[0] = r > 4 ? r / 2 : w << 1;
  int m = r >= w ? 1 : 0;
  a[m] = 0;
}
)");
  EXPECT_EQ(sexpr(k, first(k, ir::StmtKind::If).value),
            "(((r < param:w) && ((-r) != (~param:w))) || (!(bool)(param:w % 3:int32)))");
  EXPECT_NE(body(k).find("decl r = (int32)((blockIdx.y * (uint32)16:int32) + threadIdx.y);"),
            std::string::npos)
      << body(k);
  EXPECT_NE(body(k).find("decl m = ((r >= param:w) ? 1:int32 : 0:int32);"), std::string::npos) << body(k);
}

TEST_F(FrontendTest, LoopsBreakContinueReturnAndSwitch) {
  const ir::Kernel k = load(R"(
__global__ void k(int* a, int n) {
  for (int i = 0; i < n; ++i) {
    if (i == 3) continue;
    if (i > 5) break;
    a[i] = i;
  }
  int j = 0;
  while (j < 4) j += 2;
  do { j--; } while (j > 0);
  switch (threadIdx.x % 4) {
    case 0: a[0] = 0; break;
    case 1:
    case 2: a[1] = 0;
    default: return;
  }
  for (;;) { break; }
}
)");
  EXPECT_EQ(body(k),
            "{ for(decl i = 0:int32;; (i < param:n); i = (i + 1:int32);)"
            " { if (i == 3:int32) continue; else - if (i > 5:int32) break; else - work[a[i] = i]; }"
            " decl j = 0:int32;"
            " while(-; (j < 4:int32); -) j = (j + 2:int32);"
            " do(-; (j > 0:int32); -) { j = (j - 1:int32); }"
            " switch (threadIdx.x % (uint32)4:int32) [ 0@0 1@2 2@2 default@3 ]"
            " work[a[0] = 0]; break; work[a[1] = 0]; return -;"
            " for(-; -; -) { break; } }");
}

TEST_F(FrontendTest, MinMaxAbsOnIntegersAreModelled) {
  const ir::Kernel k = load(R"(
#include <algorithm>
#include <limits>
constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }
__global__ void k(int* a, int n) {
  int i = threadIdx.x;
  int lo = min(i, n);
  unsigned hi = max(threadIdx.x, 3u);
  int s = std::max(i, n - 1);
  int d = abs(i - n);
  int c = std::numeric_limits<short>::max() + ceil_div(100, 16);
  a[0] = lo + hi + s + d + c;
}
)");
  EXPECT_EQ(body(k),
            "{ decl i = (int32)threadIdx.x;"
            " decl lo = ((i < param:n) ? i : param:n);"
            " decl hi = ((threadIdx.x > 3:uint32) ? threadIdx.x : 3:uint32);"
            " decl s = ((i > (param:n - 1:int32)) ? i : (param:n - 1:int32));"
            " decl d = (((i - param:n) < 0:int32) ? (-(i - param:n)) : (i - param:n));"
            // constexpr calls with constant arguments are folded: 32767 (as int) + 7.
            " decl c = ((int32)32767:int16 + 7:int32);"
            " work[a[0] = lo + hi + s + d + c]; }");
}

TEST_F(FrontendTest, DeviceFunctionsAreInlinedWithEarlyReturn) {
  const ir::Kernel k = load(R"(
__device__ int clampi(int v, int hi) {
  if (v > hi) return hi;
  return v;
}
__device__ void mark(float* a, unsigned i) { if (i % 2 == 0) a[i] = 1.0f; }
__global__ void k(float* a, int n) {
  int c = clampi(threadIdx.x, n) + 1;
  mark(a, c);
  if (clampi(c, 4) == 4) a[0] = 0;
}
)");
  EXPECT_EQ(body(k),
            "{ { call clampi(int, int)->clampi() { decl v = (int32)threadIdx.x; decl hi = param:n;"
            " { if (v > hi) return hi; else - return v; } }"
            " decl c = (clampi() + 1:int32); }"
            // mark's pointer parameter: an int64 local holding its byte offset into a's buffer.
            " call mark(float *, unsigned int)->- { decl a = 0:int64; decl i = (uint32)c;"
            " { if ((i % (uint32)2:int32) == (uint32)0:int32)"
            " work[a[i] = 1.0f]; else - } }"
            " { call clampi(int, int)->clampi() { decl v = c; decl hi = 4:int32;"
            " { if (v > hi) return hi; else - return v; } }"
            " if (clampi() == 4:int32) work[a[0] = 0]; else - } }");
}

TEST_F(FrontendTest, MemoryReadsAreOpaqueWithTheirMemorySpace) {
  const ir::Kernel k = load(R"(
__constant__ int table[4];
__global__ void k(const int* A, float* out) {
  __shared__ int tile[2][32];
  tile[threadIdx.y][threadIdx.x] = A[threadIdx.x];
  int v = tile[threadIdx.y][threadIdx.x] + table[1] + A[2];
  out[0] = v;
}
)");
  EXPECT_EQ(sexpr(k, first(k, ir::StmtKind::Declare).value),
            "((opaque:int32{tile[threadIdx.y][threadIdx.x] (shared memory)} + "
            "opaque:int32{table[1] (constant memory)}) + opaque:int32{A[2] (global memory)})");
}

TEST_F(FrontendTest, KernelParameterAssignedInTheBodyBecomesALocalCopy) {
  const ir::Kernel k = load(R"(
__global__ void k(int* a, int n) { n -= 1; if (threadIdx.x < n) a[0] = 1; }
)");
  EXPECT_EQ(body(k),
            "{ decl n = param:n; { n = (n - 1:int32);"
            // unsigned < int compares as unsigned
            " if (threadIdx.x < (uint32)n) work[a[0] = 1]; else - } }");
}

// ---------------------------------------------------------------------------------------------
// Refusals: each names the location and the reason

TEST_F(FrontendTest, DataDependentBranchNamesLocationAndValue) {
  // A float loaded from a buffer the kernel only reads: counted where the launch gives the
  // buffer's values (--data), refused at a launch that does not, with the hint.
  const FrontendOptions o = options(R"(
__global__ void k(const float* data, int* out) {
  int i = threadIdx.x;
  if (data[i] > 0.5f) out[i] = 1;
}
)");
  const ir::Kernel k = load_kernel(o);
  try {
    ir::check_data_dependence(k, std::vector<bool>(k.parameters.size(), false));
    FAIL() << "no error";
  } catch (const InvalidInput& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(o.file + ":4:3: data-dependent branch", 0), 0u) << message;
    EXPECT_NE(message.find("data[i] (global memory)"), std::string::npos) << message;
    EXPECT_NE(message.find("--data data="), std::string::npos) << message;
  }
  // A value the model computes from no launch (an atomic's result on a __device__ variable,
  // whose values are not modelled) is refused on loading.
  const FrontendOptions atomic = options(R"(__device__ float total;
__global__ void k(int* out) {
  if (atomicAdd(&total, 1.0f) > 0.5f) out[threadIdx.x] = 1;
}
)");
  try {
    load_kernel(atomic);
    FAIL() << "no error";
  } catch (const InvalidInput& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(atomic.file + ":3:3: data-dependent branch", 0), 0u) << message;
    EXPECT_NE(message.find("atomic result"), std::string::npos) << message;
  }
}

// A branch on a value loaded from a buffer the kernel also writes: the launch's to decide (the
// replay follows the buffer by value); without its values, refused with the hint.
TEST_F(FrontendTest, DataDependentThroughALocal) {
  const ir::Kernel k = load(R"(
__global__ void k(int* data, int* out) {
  int v = data[threadIdx.x];
  while (v > 0) v = v / 2;
  data[threadIdx.x] = v;
}
)");
  std::string message;
  try {
    ir::check_data_dependence(k, std::vector<bool>(k.parameters.size(), false));
  } catch (const InvalidInput& e) {
    message = e.what();
  }
  EXPECT_NE(message.find(":4:3: data-dependent branch"), std::string::npos) << message;
  EXPECT_NE(message.find("data[threadIdx.x] (global memory) through 'v'"), std::string::npos) << message;
  EXPECT_NE(message.find("give the values of 'data' with --data data=FILE"), std::string::npos) << message;
  EXPECT_NO_THROW(ir::check_data_dependence(k, {true, false}));
}

// A branch on a value loaded from a read-only buffer is the launch's to decide: the
// model is read, the load linked to its access; a launch without the buffer's values is refused
// with the flag that gives them; with them, the loop runs on the values. data = {5, 0, 1, 8} for
// threads 0..3 of one 4-thread warp: lane 0 tests v = 5, 2, 1, 0 (k = 0..3), lane 1 v = 0 (k = 0),
// lane 2 v = 1, 0 (k = 0, 1), lane 3 v = 8, 4, 2, 1, 0 (k = 0..4). The warp evaluates `v > 0`
// 5 times with lanes {0,1,2,3}, {0,2,3}, {0,3}, {0,3}, {3}: 12 active; taken = the halvings,
// 3 + 0 + 1 + 4 = 8; divergent at k = 0 (lane 1 false), k = 1 (lane 2 false) and k = 3 (lane 0
// false, lane 3 true), not at k = 2 (both true) nor k = 4 (lane 3 alone, false).
TEST_F(FrontendTest, DataDependentBranchOnAReadOnlyBufferIsTheLaunchs) {
  const ir::Kernel k = load(R"(
__global__ void k(const int* data, int* out) {
  int v = data[threadIdx.x];
  while (v > 0) v = v / 2;
  out[threadIdx.x] = v;
}
)");
  const ir::MemoryAccess* load_access = nullptr;
  for (const ir::Expr& e : k.exprs)
    if (e.kind == ir::ExprKind::Opaque && e.access != ir::kNone) load_access = &k.accesses[e.access];
  ASSERT_NE(load_access, nullptr);
  EXPECT_EQ(load_access->text, "data[threadIdx.x]");
  ir::Launch launch;
  launch.grid = {1, 1, 1};
  launch.block = {4, 1, 1};
  launch.arguments = {ir::Value{}, ir::Value{}};
  try {
    ir::replay(k, launch, ir::ReplayOptions{});
    FAIL() << "a branch on data without values must be refused";
  } catch (const InvalidInput& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(":4:3: data-dependent branch"), std::string::npos) << m;
    EXPECT_NE(m.find("give the values of 'data' with --data data=FILE (or --alloc data=COUNT for zeros)"),
              std::string::npos)
        << m;
  }
  const std::int32_t values[] = {5, 0, 1, 8};
  launch.buffer_bytes = {sizeof values, 0};
  launch.buffer_data = {
      std::make_shared<const std::string>(reinterpret_cast<const char*>(values), sizeof values), nullptr};
  const ir::ReplayResult r = ir::replay(k, launch, ir::ReplayOptions{});
  const ir::StatementCounts& loop = r.statements[static_cast<std::size_t>(first_id(k, ir::StmtKind::Loop))];
  EXPECT_EQ(loop.warp_evaluations, 5u);
  EXPECT_EQ(loop.active_lanes, 4u + 3u + 2u + 2u + 1u);
  EXPECT_EQ(loop.taken_lanes, 3u + 0u + 1u + 4u);
  EXPECT_EQ(loop.divergent, 3u);
  // Zeros (--alloc): no lane enters the loop.
  launch.buffer_data = {};
  const ir::ReplayResult zeros = ir::replay(k, launch, ir::ReplayOptions{});
  const ir::StatementCounts& z = zeros.statements[static_cast<std::size_t>(first_id(k, ir::StmtKind::Loop))];
  EXPECT_EQ(z.warp_evaluations, 1u);
  EXPECT_EQ(z.taken_lanes, 0u);
}

struct Unsupported {
  const char* name;
  const char* body;      // the kernel's body, starting on line 3 of the file
  const char* location;  // ":LINE:COL"
  const char* reason;
};

void PrintTo(const Unsupported& u, std::ostream* out) { *out << u.name; }

class RefusalTest : public FrontendTest, public ::testing::WithParamInterface<Unsupported> {};

TEST_P(RefusalTest, NamesLocationAndReason) {
  const Unsupported& u = GetParam();
  const FrontendOptions o = options(std::string("__device__ int f(int x) { return x > 0 ? f(x - 1) : 0; } "
                                                "__device__ int g2(int x) { return x; } "
                                                "__device__ int undefined_fn(int);\n") +
                                    "__global__ void k(int* a, int n) {\n" + u.body + "\n}\n");
  try {
    load_kernel(o);
    FAIL() << "accepted: " << u.body;
  } catch (const ClangDiagnostics& e) {
    FAIL() << "Clang refused the snippet: " << e.what();
  } catch (const InvalidInput& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(o.file + u.location + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(u.reason), std::string::npos) << message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Constructs, RefusalTest,
    ::testing::Values(
        Unsupported{"goto", "  if (n) goto end;\n  a[0] = 1;\nend:\n  a[1] = 2;", ":3:10",
                    "goto is not supported"},
        Unsupported{"recursion", "  a[0] = f(n);", ":1:42", "recursion is not supported: 'f' calls itself"},
        Unsupported{"inline_asm", "  asm(\"exit;\");", ":3:3", "inline asm is not supported"},
        Unsupported{"function_pointer", "  int (*g)(int) = nullptr;\n  a[0] = g(n);", ":4:10",
                    "a call through a function pointer is not supported"},
        // (On a pointer the model cannot place: atomicExch(a, 1) itself is the launch's to decide.)
        Unsupported{"atomic_steers_branch", "  if (atomicExch(n > 0 ? a : a + 1, 1) == 0) a[1] = 1;", ":3:3",
                    "atomicExch(n > 0 ? a : a + 1, 1) (atomic result)"},
        Unsupported{"local_array_in_condition",
                    "  int idx[2][2] = {{0, 1}, {1, 0}};\n  if (idx[threadIdx.x % 2][0]) a[0] = 1;", ":4:3",
                    "idx[threadIdx.x % 2][0] (local array)"},
        Unsupported{"pointer_in_condition", "  int* p = a + n;\n  if (p > a) a[0] = 1;", ":4:3",
                    "p > a (pointer)"},
        Unsupported{"assignment_in_condition", "  int i = 0;\n  if ((i = n) > 2) a[0] = 1;", ":4:8",
                    "assigns inside a larger expression"},
        Unsupported{"increment_twice", "  int i = 0;\n  a[i++] = i++;", ":4:12",
                    "changes a local inside a larger expression"},
        Unsupported{"address_of_local", "  int i = 0;\n  atomicAdd(&i, 1);", ":4:13",
                    "taking the address of the local 'i'"},
        Unsupported{"call_in_loop_condition", "  for (int i = 0; i < g2(n); ++i) a[i] = 0;", ":3:23",
                    "calling a __device__ function in a loop condition"},
        Unsupported{"no_body", "  a[0] = undefined_fn(n);", ":3:10",
                    "'undefined_fn' has no body in this file"},
        Unsupported{"barrier_count", "  int c = __syncthreads_count(n);", ":3:11",
                    "__syncthreads_count is not supported"},
        Unsupported{"static_local", "  static int count = 0;", ":3:3",
                    "the static or extern local 'count' is not supported"},
        Unsupported{"lambda", "  auto g = [](int x) { return x; };", ":3:12",
                    "a lambda or statement expression is not supported"},
        Unsupported{"range_for", "  int v[2] = {1, 2};\n  for (int x : v) a[x] = 0;", ":4:3",
                    "a range-based for loop is not supported"},
        Unsupported{"case_range", "  switch (n) { case 1 ... 3: a[0] = 1; }", ":3:16",
                    "a case range (a ... b) is not supported"},
        Unsupported{"nested_case", "  switch (n) { case 0: { a[0] = 0; case 1: a[1] = 1; } }", ":3:36",
                    "a case label outside the top level"}),
    [](const ::testing::TestParamInfo<Unsupported>& p) { return std::string(p.param.name); });

// ---------------------------------------------------------------------------------------------
// Through the replay engine: counts worked out by hand for small launches

/// warp evaluations, divergent, active lanes, taken lanes (as 64-bit numbers, for messages).
std::vector<std::uint64_t> counts(const ir::ReplayResult& r, ir::StmtId id) {
  const auto& c = r.statements.at(id);
  return {static_cast<std::uint64_t>(c.warp_evaluations), static_cast<std::uint64_t>(c.divergent),
          static_cast<std::uint64_t>(c.active_lanes), static_cast<std::uint64_t>(c.taken_lanes)};
}

ir::Launch launch(const ir::Kernel& k, ir::Dim3 grid, ir::Dim3 block, int warp_size,
                  const std::vector<std::int64_t>& scalar_arguments) {
  ir::Launch l;
  l.grid = grid;
  l.block = block;
  l.warp_size = warp_size;
  std::size_t next = 0;
  for (const auto& p : k.parameters)
    l.arguments.push_back(p.scalar ? ir::Value::of(p.type, scalar_arguments.at(next++)) : ir::Value{});
  return l;
}

constexpr const char* kNaiveMatmul = R"(
__global__ void MatrixMulKernel(float* M, float* N, float* P, int Width) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if ((Row < Width) && (Col < Width)) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Row * Width + Col] = Pvalue;
  }
}
)";

TEST_F(FrontendTest, NaiveMatmulGuardCountsByHand) {
  // Width 5, 2x2 blocks of 4x4 threads, warps of 8 (rows y = 0,1 and y = 2,3 of each block).
  // Block (0,0): all 16 threads valid. Block (1,0): Col 4..7, only x = 0 valid: both warps split.
  // Block (0,1): Row 4..7, only y = 0 valid: warp 0 splits, warp 1 all false. Block (1,1): only
  // thread (0,0) valid: warp 0 splits, warp 1 all false. Valid threads: 5 x 5 = 25.
  const ir::Kernel k = load(kNaiveMatmul);
  const ir::ReplayResult r = ir::replay(k, launch(k, {2, 2, 1}, {4, 4, 1}, 8, {5}));
  EXPECT_EQ(counts(r, statement_at(k, 5, ir::StmtKind::If)), (std::vector<std::uint64_t>{8, 4, 64, 25}));
  // The store runs in warps with at least one valid thread: 2 + 2 + 1 + 1.
  EXPECT_EQ(counts(r, statement_at(k, 8, ir::StmtKind::Work)), (std::vector<std::uint64_t>{6, 0, 25, 0}));
  // The k loop's condition: 6 times per valid thread and per warp with valid threads (k = 0..5).
  EXPECT_EQ(counts(r, statement_at(k, 7, ir::StmtKind::Loop)), (std::vector<std::uint64_t>{36, 0, 150, 125}));
}

TEST_F(FrontendTest, ModelSurvivesTheJsonRoundTripWithItsCounts) {
  // A model read here is analysed elsewhere (the GPU machine has no Clang): same model, same counts.
  const ir::Kernel k = load(kNaiveMatmul);
  const ir::Kernel back = ir::kernel_from_json(ir::to_json(k));
  EXPECT_EQ(body(back), body(k));
  EXPECT_EQ(back.files.at(0).lines, k.files.at(0).lines);
  const ir::ReplayResult r = ir::replay(back, launch(back, {2, 2, 1}, {4, 4, 1}, 8, {5}));
  EXPECT_EQ(counts(r, statement_at(back, 5, ir::StmtKind::If)), (std::vector<std::uint64_t>{8, 4, 64, 25}));
}

TEST_F(FrontendTest, ReductionCountsByHand) {
  const ir::Kernel k = load(R"(
__global__ void reduce(float* s) {
  unsigned t = threadIdx.x;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    if (t % (2 * stride) == 0) s[t] += s[t + stride];
  }
}
)");
  // One block of 16 threads, warps of 8: stride 1, 2, 4, 8 (four iterations, five tests).
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {16, 1, 1}, 8, {}));
  EXPECT_EQ(counts(r, statement_at(k, 4, ir::StmtKind::Loop)), (std::vector<std::uint64_t>{10, 0, 80, 64}));
  // Taken: 8 + 4 + 2 + 1 threads. Divergent: both warps at strides 1, 2, 4 (lanes 0 and 8 are the
  // only true ones at 4), only warp 0 at stride 8.
  EXPECT_EQ(counts(r, statement_at(k, 6, ir::StmtKind::If)), (std::vector<std::uint64_t>{8, 7, 64, 15}));
  const auto& barrier = r.statements.at(statement_at(k, 5, ir::StmtKind::Barrier));
  EXPECT_EQ(static_cast<std::uint64_t>(barrier.block_executions), 4u);
  EXPECT_EQ(static_cast<std::uint64_t>(barrier.partial_block_executions), 0u);
}

TEST_F(FrontendTest, BarrierInsideTheGuardIsPartialInEdgeBlocks) {
  const ir::Kernel k = load(R"(
__global__ void k(int Width) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if ((Row < Width) && (Col < Width)) {
    __syncthreads();
  }
}
)");
  // As in the naive matmul above: every block has a valid thread; all but block (0,0) have
  // invalid ones too.
  const ir::ReplayResult r = ir::replay(k, launch(k, {2, 2, 1}, {4, 4, 1}, 8, {5}));
  const auto& barrier = r.statements.at(statement_at(k, 6, ir::StmtKind::Barrier));
  EXPECT_EQ(static_cast<std::uint64_t>(barrier.block_executions), 4u);
  EXPECT_EQ(static_cast<std::uint64_t>(barrier.partial_block_executions), 3u);
}

TEST_F(FrontendTest, UnsignedWrapAndInlinedEarlyReturnCountsByHand) {
  const ir::Kernel k = load(R"(
__device__ int f(int x) {
  if (x < 3) return 0;
  return x;
}
__global__ void k(int* a) {
  unsigned u = threadIdx.x;
  if (u - 1 < 5) a[0] = 1;
  int v = f(threadIdx.x);
  if (v > 5) a[1] = 1;
}
)");
  // 8 threads, one warp. u - 1 wraps to 4294967295 for u = 0: true for u = 1..5 only.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {}));
  EXPECT_EQ(counts(r, statement_at(k, 8, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 5}));
  // f: x < 3 for lanes 0..2, which return early; lanes 3..7 reach `return x`.
  EXPECT_EQ(counts(r, statement_at(k, 3, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 3}));
  EXPECT_EQ(counts(r, statement_at(k, 4, ir::StmtKind::Return)), (std::vector<std::uint64_t>{1, 0, 5, 0}));
  // v = 0, 0, 0, 3, 4, 5, 6, 7: v > 5 for lanes 6 and 7.
  EXPECT_EQ(counts(r, statement_at(k, 10, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 2}));
}

// ---------------------------------------------------------------------------------------------
// Cooperative groups: ranks and sizes from the launch built-ins, a block's sync a barrier

TEST_F(FrontendTest, CooperativeGroupsReductionCountsByHand) {
  const ir::Kernel k = load(R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void reduce(const int* in, int* out, unsigned n) {
  cg::thread_block cta = cg::this_thread_block();
  extern __shared__ int sdata[];
  unsigned tid = cta.thread_rank();
  unsigned i = blockIdx.x * cta.size() + tid;
  sdata[tid] = (i < n) ? in[i] : 0;
  cg::sync(cta);
  for (unsigned s = cta.size() / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    cta.sync();
  }
  if (cta.thread_rank() == 0) out[blockIdx.x] = sdata[0];
}
)");
  // 2 blocks of 64 threads, warps of 32: s = 32, 16, 8, 4, 2, 1 (six iterations, seven tests).
  const ir::ReplayResult r = ir::replay(k, launch(k, {2, 1, 1}, {64, 1, 1}, 32, {100}));
  // Loop: 2 warps x 7 tests x 2 blocks; taken 6 iterations x 64 threads x 2 blocks.
  EXPECT_EQ(counts(r, statement_at(k, 10, ir::StmtKind::Loop)),
            (std::vector<std::uint64_t>{28, 0, 896, 768}));
  // tid < s: per block 32 + 16 + 8 + 4 + 2 + 1 threads; warp 0 splits at s = 16 .. 1 (5 times),
  // warp 1 is never true.
  EXPECT_EQ(counts(r, statement_at(k, 11, ir::StmtKind::If)), (std::vector<std::uint64_t>{24, 10, 768, 126}));
  EXPECT_EQ(counts(r, statement_at(k, 14, ir::StmtKind::If)), (std::vector<std::uint64_t>{4, 2, 128, 2}));
  const auto& first_sync = r.statements.at(statement_at(k, 9, ir::StmtKind::Barrier));
  EXPECT_EQ(static_cast<std::uint64_t>(first_sync.block_executions), 2u);
  const auto& loop_sync = r.statements.at(statement_at(k, 12, ir::StmtKind::Barrier));
  EXPECT_EQ(static_cast<std::uint64_t>(loop_sync.block_executions), 12u);
  EXPECT_EQ(static_cast<std::uint64_t>(loop_sync.partial_block_executions), 0u);
}

TEST_F(FrontendTest, CooperativeGroupsTileRanksInATwoDimensionalBlock) {
  const ir::Kernel k = load(R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ unsigned lane_of(const cg::thread_block_tile<4>& t) { return t.thread_rank(); }
__global__ void k(int* out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<4> t = cg::tiled_partition<4>(b);
  if (lane_of(t) == 0) out[0] = 1;
  if (t.meta_group_rank() % 3 == 0) out[1] = 1;
  if (b.thread_index().y == 1) out[2] = 1;
  if (t.meta_group_size() == 8 && t.size() == 4 && b.size() == 32) out[3] = 1;
  auto pair = cg::tiled_partition<2>(t);
  if (pair.meta_group_rank() == 1) out[4] = 1;
}
)");
  // One block of 8 x 4 threads, warps of 8: rank = y * 8 + x, warp w holds ranks 8w .. 8w + 7.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 4, 1}, 8, {}));
  // rank % 4 == 0: lanes 0 and 4 of every warp.
  EXPECT_EQ(counts(r, statement_at(k, 7, ir::StmtKind::If)), (std::vector<std::uint64_t>{4, 4, 32, 8}));
  // rank / 4 in {0, 3, 6}: warp 0 lanes 0-3, warp 1 lanes 4-7, warp 3 lanes 0-3; warp 2 none.
  EXPECT_EQ(counts(r, statement_at(k, 8, ir::StmtKind::If)), (std::vector<std::uint64_t>{4, 3, 32, 12}));
  // threadIdx.y == 1 is warp 1 whole.
  EXPECT_EQ(counts(r, statement_at(k, 9, ir::StmtKind::If)), (std::vector<std::uint64_t>{4, 0, 32, 8}));
  // (32 + 3) / 4 = 8 tiles of 4 in a block of 32: true everywhere.
  EXPECT_EQ(counts(r, statement_at(k, 10, ir::StmtKind::If)), (std::vector<std::uint64_t>{4, 0, 32, 32}));
  // A tile of 2 in a tile of 4: meta rank (rank % 4) / 2 == 1 for ranks 2, 3 of every 4.
  EXPECT_EQ(counts(r, statement_at(k, 12, ir::StmtKind::If)), (std::vector<std::uint64_t>{4, 4, 32, 16}));
}

TEST_F(FrontendTest, CooperativeGroupsGridStrideLoopCountsByHand) {
  const ir::Kernel k = load(R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void fill(int* out, unsigned long long n) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) out[i] = 0;
}
)");
  // 3 blocks of 8 threads, warps of 8: 24 threads; n = 50. Threads 0 and 1 run i = r, r + 24,
  // r + 48 (3 iterations), threads 2 .. 23 two. Warp 0 tests 4 times (the 4th for lanes 0, 1
  // only), warps 1 and 2 three times; only warp 0's third test splits.
  const ir::ReplayResult r = ir::replay(k, launch(k, {3, 1, 1}, {8, 1, 1}, 8, {50}));
  EXPECT_EQ(counts(r, statement_at(k, 5, ir::StmtKind::Loop)), (std::vector<std::uint64_t>{10, 1, 74, 50}));
}

TEST_F(FrontendTest, CooperativeGroupsWhatTheModelCannotDoIsRefusedWithTheReason) {
  const std::string head = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n";
  EXPECT_PRED2(warpdiv::testing::contains, refusal(head + R"(__global__ void k(int* a) {
  cg::grid_group g = cg::this_grid();
  a[0] = 1;
  g.sync();
})"),
               "k.cu:6:3: a grid-wide sync is not supported");
  EXPECT_PRED2(warpdiv::testing::contains, refusal(head + R"(__global__ void k(int* a) {
  auto t = cg::tiled_partition<64>(cg::this_thread_block());
  t.sync();
})"),
               "k.cu:5:3: the sync of a tile of 64 threads is not supported");
  // A shuffle's value is data: a branch on it is refused, naming it.
  EXPECT_PRED2(warpdiv::testing::contains, refusal(head + R"(__global__ void k(int* a) {
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
  int v = w.shfl_down((int)threadIdx.x, 1);
  if (v > 3) a[0] = 1;
})"),
               "w.shfl_down(");
  EXPECT_PRED2(warpdiv::testing::contains, refusal(head + R"(__global__ void k(int* a, int n) {
  auto t = cg::tiled_partition(cg::this_thread_block(), n);
  t.sync();
})"),
               "k.cu:5:3: 't.sync()' is not supported: the model cannot tell which threads");
}

// ---------------------------------------------------------------------------------------------
// C++ as real suites write it: members of structs and class templates, operators, constructors

TEST_F(FrontendTest, MemberFunctionsOperatorsAndConstructorsAreInlined) {
  const ir::Kernel k = load(R"(
template <int N> struct Tiles {
  static __device__ int row(int t) { return t / N; }
  __device__ int col(int t) const { return t % N; }
};
struct V { float x, y; };
__device__ V operator+(V a, V b) { V r; r.x = a.x + b.x; r.y = a.y + b.y; return r; }
struct Acc {
  float sum;
  __device__ Acc() : sum(0) {}
  __device__ void add(float v, int t) { if (t % 2 == 0) sum += v; }
};
__global__ void k(float* out) {
  int t = threadIdx.x;
  Tiles<4> tiles;
  if (Tiles<4>::row(t) == 1) out[0] = 1;
  if (tiles.col(t) == 3) out[1] = 1;
  V a{1, 2};
  V b = a + a;
  Acc acc;
  acc.add(b.x, t);
  out[2] = acc.sum;
}
)");
  // 8 threads, one warp of 8.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {}));
  // t / 4 == 1 for t = 4 .. 7; t % 4 == 3 for t = 3, 7; t % 2 == 0 for 4 threads.
  EXPECT_EQ(counts(r, statement_at(k, 16, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 4}));
  EXPECT_EQ(counts(r, statement_at(k, 17, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 2}));
  EXPECT_EQ(counts(r, statement_at(k, 11, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 4}));
}

TEST_F(FrontendTest, AMemberReadThroughThisIsData) {
  // The object's members are memory the model does not know: a branch on one is refused.
  EXPECT_PRED2(warpdiv::testing::contains, refusal(R"(
struct Range {
  int lo, hi;
  __device__ bool contains(int i) const { return i >= lo && i < hi; }
};
__global__ void k(Range r, int* out) {
  if (r.contains(threadIdx.x)) out[0] = 1;
}
)"),
               "lo");
  EXPECT_PRED2(warpdiv::testing::contains, refusal(R"(
struct Base { virtual __device__ int f() const { return 1; } };
__global__ void k(const Base* b, int* out) { out[0] = b->f(); }
)"),
               "virtual function 'f' is not supported");
}

TEST_F(FrontendTest, IntegerReferenceParametersChangeTheCallersLocal) {
  const ir::Kernel k = load(R"(
__device__ int mirror(int& d, const int& size) {
  if (d < 0) d = -d;
  if (d >= size) d = 2 * size - 2 - d;
  return d;
}
__global__ void k(int* out, int n) {
  int x = (int)threadIdx.x - 2;
  mirror(x, n);
  if (x == 1) out[0] = 1;
  mirror(n, 3);
  if (n == -2) out[1] = 1;
}
)");
  // 8 threads, one warp of 8, n = 6: x = -2 .. 5 mirrored to 2, 1, 0, 1, 2, 3, 4, 5 (x == 1 for
  // threads 1 and 3); n itself mirrored at 3: 6 >= 3, so n = 2 * 3 - 2 - 6 = -2 for every thread.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {6}));
  EXPECT_EQ(counts(r, statement_at(k, 10, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 2}));
  EXPECT_EQ(counts(r, statement_at(k, 12, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 0, 8, 8}));
  // A call whose int result is discarded still runs (mirror(x, n) and mirror(n, 3) are statements).
  // d < 0 in the first call (each call inlines its own statements): true for threads 0 and 1.
  EXPECT_EQ(counts(r, statement_at(k, 3, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 2}));
}

TEST_F(FrontendTest, ReferenceLocalsAliasLocalsAndReadMemoryAsData) {
  const ir::Kernel k = load(R"(
__global__ void k(int* out, int n) {
  int x = threadIdx.x;
  int& r = x;
  r = r + 1;
  const int& c = x;
  x = x * 2;
  if (c == 4) out[0] = 1;
  int& m = n;
  m = 3;
  if (n == 3) out[1] = 1;
}
)");
  // 8 threads, n = 0: c is x itself, (t + 1) * 2 == 4 for t = 1 only; n becomes 3 through m.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {0}));
  EXPECT_EQ(counts(r, statement_at(k, 8, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 1}));
  EXPECT_EQ(counts(r, statement_at(k, 11, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 0, 8, 8}));
}

TEST_F(FrontendTest, AConstReferenceParameterIsTheLocalItNames) {
  const ir::Kernel k = load(R"(
__device__ void add(int& y, const int& x) { y = 0; y += x; y += 16; }
__global__ void k(int* out) {
  int t = threadIdx.x;
  int m = 8;
  add(m, m);
  if (t < m) out[t] = 1;
}
)");
  // x is m, which y = 0 clears first: m = 0 + 0 + 16 (a copy of m would make it 24).
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {32, 1, 1}, 32, {}));
  EXPECT_EQ(counts(r, statement_at(k, 7, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 32, 16}));
}

TEST_F(FrontendTest, AnObjectPassedByValueIsCopiedMemberByMember) {
  const ir::Kernel k = load(R"(
struct P { int lo, hi; };
__device__ bool in(P q, int x) { return x >= q.lo && x < q.hi; }
__device__ int width(P q) { q.hi -= q.lo; return q.hi; }
__global__ void k(int* out) {
  P p{4, 8};
  int t = threadIdx.x;
  if (in(p, t)) out[t] = 1;
  if (t < width(p) + p.hi) out[t] = 2;
}
)");
  // 32 threads: 4 <= t < 8 for 4 of them; width() changes its own copy: 4 + 8 = 12 threads.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {32, 1, 1}, 32, {}));
  EXPECT_EQ(counts(r, statement_at(k, 8, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 32, 4}));
  EXPECT_EQ(counts(r, statement_at(k, 9, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 32, 12}));
}

TEST_F(FrontendTest, WritesThroughCastsAndConditionalLvaluesReachTheLocal) {
  const ir::Kernel k = load(R"(
__global__ void k(int* out) {
  int t = threadIdx.x;
  int a = 0, b = 0, c = 0, d = 0, e = 0;
  reinterpret_cast<int &>(a) = 3;
  static_cast<int &>(b) += 5;
  ++(int &)c;
  (t < 100 ? d : d) = 6;
  int &r = (t < 100) ? e : e;
  r = 2;
  int &&rr = static_cast<int &&>(a);
  rr += 1;
  const_cast<int &>(static_cast<const int &>(b)) = 7;
  if (t < a + b + c + d + e) out[t] = 1;
}
)");
  // a = 3 + 1, b = 7, c = 1, d = 6, e = 2: t < 20 for 20 of the 32 threads.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {32, 1, 1}, 32, {}));
  EXPECT_EQ(counts(r, statement_at(k, 14, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 32, 20}));
  // Writes the model cannot follow to one local are refused where they are, never dropped.
  const std::string head = "__global__ void k(int* out) {\n  int t = threadIdx.x, x = 0, y = 0;\n";
  EXPECT_PRED2(warpdiv::testing::contains, refusal(head + "  (t < 5 ? x : y) = 1;\n  out[t] = x + y;\n}\n"),
               "k.cu:3:3: '(t < 5 ? x : y) = 1' writes to '(t < 5 ? x : y)', which the model cannot follow");
  EXPECT_PRED2(warpdiv::testing::contains, refusal(head + "  (t / 2 ? x : x) = 1;\n  out[t] = x;\n}\n"),
               "k.cu:3:3: '(t / 2 ? x : x) = 1' writes to");
  EXPECT_PRED2(warpdiv::testing::contains,
               refusal(head + "  struct S { int &r; } s{x};\n  s.r = 16;\n  out[t] = x;\n}\n"),
               "k.cu:4:3: 's.r = 16' writes to 's.r', which the model cannot follow");
  EXPECT_PRED2(warpdiv::testing::contains,
               refusal(head + "  struct S { int &r; } s{x};\n  ++s.r;\n  out[t] = x;\n}\n"),
               "k.cu:4:3: '++s.r' writes to 's.r'");
  // A pointer member of an object the model follows is not held: writing it is no refusal.
  EXPECT_EQ(
      refusal(head + "  struct P { int *p; int n; } s;\n  s.p = out;\n  s.n = 1;\n  out[t] = s.n;\n}\n"), "");
}

TEST_F(FrontendTest, ACallIsOneStatementOfItsLineAndItsBindingsAreAtTheirArguments) {
  const ir::Kernel k = load(R"(
__device__ void st(int *p, int i, int v) { p[i] = v; }
__global__ void k(int *x) {
  st(x, threadIdx.x, 2);
}
)");
  // The statements (braces aside) starting on line 4, by column: the call at 3, the bindings of
  // p (x, column 6), i (threadIdx.x, column 9) and v (2, column 22).
  std::vector<std::uint32_t> columns;
  for (const ir::Stmt& s : k.stmts)
    if (s.kind != ir::StmtKind::Block && s.range.line == 4) columns.push_back(s.range.column);
  std::sort(columns.begin(), columns.end());
  EXPECT_EQ(columns, (std::vector<std::uint32_t>{3, 6, 9, 22}));
  // One warp calls it once: one evaluation of the call.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {32, 1, 1}, 32, {}));
  EXPECT_EQ(counts(r, statement_at(k, 4, ir::StmtKind::InlinedCall)),
            (std::vector<std::uint64_t>{1, 0, 32, 0}));
}

TEST_F(FrontendTest, UndefinedBehaviourInAStoredValueIsNamed) {
  // n = 3: 10 / (i - 5) divides by zero in thread 5; 1 << (i + n) shifts by 32 in thread 29;
  // atomicAdd's operand n / (i - 5) in thread 5. Each alone in its kernel, at its operator.
  const auto error = [&](const std::string& statement) {
    const ir::Kernel k =
        load("__global__ void k(int* o, int n) {\n  int i = threadIdx.x;\n" + statement + "\n}\n");
    try {
      ir::replay(k, launch(k, {1, 1, 1}, {32, 1, 1}, 32, {3}));
    } catch (const InvalidInput& e) {
      const std::string what = e.what();
      return what.substr(what.find("k.cu:"));
    }
    return std::string();
  };
  EXPECT_EQ(
      error("  o[i] = 10 / (i - 5);"),
      "k.cu:3:10: undefined behaviour: division by zero in '/' (int32) in block (0, 0, 0), thread (5, 0, 0)");
  EXPECT_EQ(
      error("  o[i] = 1 << (i + n);"),
      "k.cu:3:10: undefined behaviour: shift amount out of range 0..31 in '<<' (int32) in block (0, 0, 0), "
      "thread (29, 0, 0)");
  EXPECT_EQ(
      error("  atomicAdd(&o[0], n / (i - 5));"),
      "k.cu:3:20: undefined behaviour: division by zero in '/' (int32) in block (0, 0, 0), thread (5, 0, 0)");
  // Only the lanes that store compute the value: thread 5 does not.
  EXPECT_EQ(error("  if (i != 5) o[i] = 10 / (i - 5);"), "");
}

TEST_F(FrontendTest, ABranchOnWhatTheModelDoesNotEvaluateIsUnsupported) {
  const auto refused = [&](const std::string& lines) {
    std::string what =
        refusal("__global__ void k(int* o, float s) {\n  unsigned t = threadIdx.x;\n" + lines + "}\n");
    const std::string folder = dir_.string() + "/";
    for (std::size_t at = what.find(folder); at != std::string::npos; at = what.find(folder))
      what.erase(at, folder.size());
    return what;
  };
  // Through a local too: the condition's value comes from the intrinsic.
  EXPECT_EQ(
      refused("  int b = __float2int_rn((float)t);\n  if (b > 5) o[t] = 1;\n"),
      "k.cu:4:3: the condition of this if depends on __float2int_rn((float)t) (result of __float2int_rn) "
      "(k.cu:3:11), __float2int_rn is an intrinsic the model does not evaluate: not supported");
  EXPECT_EQ(
      refused("  while (__sinf((float)t) < 0.5f) o[t] = 1;\n"),
      "k.cu:3:3: the condition of this while depends on __sinf((float)t) (result of __sinf) (k.cu:3:10), "
      "__sinf is an intrinsic the model does not evaluate: not supported");
  EXPECT_PRED2(
      warpdiv::testing::contains, refused("  if (o + t - o > 3) o[t] = 1;\n"),
      "k.cu:3:3: the condition of this if depends on o + t - o (pointer) (k.cu:3:7), a comparison or "
      "difference of pointers, which the model does not compute: not supported");
  EXPECT_PRED2(warpdiv::testing::contains,
               refused("  float2 v = make_float2(s, s);\n  if (v.x > 1.5f) o[t] = 1;\n"),
               "depends on v.x (a local object of a CUDA or system type, which the model does not follow "
               "member by member) (k.cu:4:7), a member of a local object the model does not follow member by "
               "member: not supported");
  // Memory and atomics stay values the launch may give (or a data-dependent branch there).
  EXPECT_EQ(refused("  if (atomicAdd(o, 1) > 3) o[t] = 1;\n  if (o[t] > 3) o[t] = 2;\n"), "");
}

TEST_F(FrontendTest, LocalObjectsAreFollowedMemberByMember) {
  const ir::Kernel k = load(R"(
struct Loader {
  int last, stride, end;
  __device__ void init(int first, int step, int n) { last = first - step; stride = step; end = n; }
  __device__ int next() {
    last += stride;
    if (last == end) { last -= 2 * stride; stride = -stride; }
    return last;
  }
};
struct Base { int lo; __device__ Base(int l) : lo(l) {} };
struct Window : Base {
  int hi = 100;
  __device__ Window(int l, int h) : Base(l) { hi = h; }
  __device__ bool contains(int i) const { return i >= lo && i < hi; }
};
struct Pair { int a, b; };
__global__ void k(int* out, int n) {
  Loader l;
  l.init(threadIdx.x, 1, n);
  int v = 0;
  for (int i = 0; i < 3; ++i) v = l.next();
  if (v == 2) out[0] = 1;
  Window w(2, 6);
  if (w.contains(threadIdx.x)) out[1] = 1;
  Pair p = {(int)threadIdx.x, 3};
  Pair q = p;
  q.b = q.a + q.b;
  if (q.b > 7) out[2] = 1;
  Window c = w;
  c.hi = 4;
  if (c.contains(threadIdx.x)) out[3] = 1;
}
)");
  // 8 threads, one warp, n = 6. The loader starts at t - 1 and steps by 1 three times, turning
  // back by two at 6: t = 4, 5, 6 meet 6 at their third, second, first step (one lane each time)
  // and end at 4, 3, 2; t = 0 ends at 2, t = 7 at 9. v == 2 for t = 0 and 6.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {6}));
  EXPECT_EQ(counts(r, statement_at(k, 7, ir::StmtKind::If)), (std::vector<std::uint64_t>{3, 3, 24, 3}));
  EXPECT_EQ(counts(r, statement_at(k, 23, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 2}));
  // Window(2, 6): lo from the base's constructor, hi 100 from its initialiser, then 6: t = 2 .. 5.
  EXPECT_EQ(counts(r, statement_at(k, 25, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 4}));
  // q is a copy of {t, 3}: q.b = t + 3 > 7 for t = 5, 6, 7.
  EXPECT_EQ(counts(r, statement_at(k, 29, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 3}));
  // c is a copy of w with hi 4: t = 2, 3.
  EXPECT_EQ(counts(r, statement_at(k, 32, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 2}));
}

TEST_F(FrontendTest, WritesToAnObjectTheModelCannotFollowAreRefused) {
  const std::string s = "struct S { int n; __device__ int& get() { return n; } };\n";
  EXPECT_PRED2(warpdiv::testing::contains,
               refusal(s + "__global__ void k(int* out) { S s; s.n = 1; s.get() = 5; }"),
               "k.cu:1:43: returning a reference to 'n' is not supported");
  EXPECT_PRED2(warpdiv::testing::contains,
               refusal(s + "__global__ void k(int* out) { S s; S* p = &s; p->n = 2; }"),
               "taking the address of the local 's' is not supported");
  EXPECT_PRED2(warpdiv::testing::contains,
               refusal(s + "__device__ void set(S* p) { p->n = 3; }\n"
                           "struct T { int m; __device__ void f() { set(nullptr); g(this); }\n"
                           "  __device__ void g(T* t) { t->m = 1; } };\n"
                           "__global__ void k(int* out) { T t; t.f(); }"),
               "handing 'this' on is not supported");
  // A member read before it is written is undefined behaviour, named when a thread does it.
  const ir::Kernel k = load(s + "__global__ void k(int* out) { S s; if (s.n == 1) out[0] = 1; }");
  try {
    ir::replay(k, launch(k, {1, 1, 1}, {1, 1, 1}, 32, {}));
    ADD_FAILURE() << "reading s.n before it is written was accepted";
  } catch (const InvalidInput& e) {
    EXPECT_PRED2(warpdiv::testing::contains, e.what(), "s.n");
  }
}

TEST_F(FrontendTest, MixedSignMinMaxCompareInTheResultType) {
  const ir::Kernel k = load(R"(
__global__ void k(int* out, int n) {
  if (min(n, threadIdx.x) == threadIdx.x) out[0] = 1;
  if (max(threadIdx.x, n) == 4294967295u) out[1] = 1;
  if (umin(threadIdx.x, 3u) == 3u) out[2] = 1;
}
)");
  // n = -1: min(int, unsigned) converts -1 to 4294967295, so min is threadIdx.x for every thread
  // (a signed comparison would give -1) and max is 4294967295. umin(t, 3) == 3 for t = 3 .. 7.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {-1}));
  EXPECT_EQ(counts(r, statement_at(k, 3, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 0, 8, 8}));
  EXPECT_EQ(counts(r, statement_at(k, 4, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 0, 8, 8}));
  EXPECT_EQ(counts(r, statement_at(k, 5, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 5}));
}

TEST_F(FrontendTest, ChangesToLocalsInsideWorkRunAfterTheStatement) {
  const ir::Kernel k = load(R"(
__global__ void k(int* a, const int* b) {
  int j = 0;
  int sum = 0;
  for (int t = 0; t < 4; ++t) {
    a[j++] = b[t];
  }
  if (j == threadIdx.x) a[9] = 1;
  int x, y;
  x = y = threadIdx.x;
  if (x + y == 6) a[10] = 1;
  a[0] = sum = sum + 2;
  if (sum == 2) a[1] = 1;
}
)");
  // One warp of 8: j ends at 4 (thread 4 alone); x = y = t, 2t == 6 for t = 3; sum is 2 for all.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {}));
  EXPECT_EQ(counts(r, statement_at(k, 8, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 1}));
  EXPECT_EQ(counts(r, statement_at(k, 11, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 1}));
  EXPECT_EQ(counts(r, statement_at(k, 13, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 0, 8, 8}));
  // In a condition the change would run after the whole if: refused.
  EXPECT_PRED2(warpdiv::testing::contains, refusal(R"(
__global__ void k(int* a) {
  int j = 0;
  if (a[j++] == 1) a[5] = 2;
}
)"),
               "k.cu:4:9: 'j++' changes a local inside a condition");
}

TEST_F(FrontendTest, AMacroRightAfterAStringReadsAsNvccReadsIt) {
  // "%d"FMT: a C++11 literal suffix error in Clang by default, a warning in nvcc 13.
  const ir::Kernel k = load(R"(
#define FMT "%d"
__global__ void k(int n) {
  printf("node ("FMT")\n", n);
  if (threadIdx.x < 3) printf("x");
}
)");
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {0}));
  EXPECT_EQ(counts(r, statement_at(k, 5, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 3}));
}

TEST_F(FrontendTest, TwentyFourBitMultipliesAndChangesInAReturn) {
  const ir::Kernel k = load(R"(
__device__ float bump(int& c, float* a) { return a[c++]; }
__global__ void k(float* a, int n) {
  int c = threadIdx.x;
  bump(c, a);
  if (c == 3) a[0] = 1;
  if (__umul24(threadIdx.x, 0x1000001u) == threadIdx.x) a[1] = 1;
  if (__mul24(n, 2) == -2) a[2] = 1;
  if (__mul24(threadIdx.x, 0xFFFFFF) == -(int)threadIdx.x) a[3] = 1;
}
)");
  // One warp of 8, n = 0xFFFFFF. c++ in bump's return still happens: c = t + 1 == 3 for t = 2.
  // __umul24 keeps the low 24 bits (0x1000001 -> 1): t * 1 == t for all. __mul24 sign-extends
  // bit 23: 0xFFFFFF is -1, so -1 * 2 == -2 and t * -1 == -t for all.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {0xFFFFFF}));
  EXPECT_EQ(counts(r, statement_at(k, 6, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 1}));
  EXPECT_EQ(counts(r, statement_at(k, 7, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 0, 8, 8}));
  EXPECT_EQ(counts(r, statement_at(k, 8, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 0, 8, 8}));
  EXPECT_EQ(counts(r, statement_at(k, 9, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 0, 8, 8}));
}

TEST_F(FrontendTest, PopulationCountAndFindFirstSetAreComputed) {
  const ir::Kernel k = load(R"(
__global__ void k(int* a, unsigned long long big) {
  if (__popc(threadIdx.x * 5u) == 2) a[0] = 1;
  if (__ffs(threadIdx.x * 4) == 3) a[1] = 1;
  if (__ffs(threadIdx.x) == 0) a[2] = 1;
  if (__popcll(big) == 63 && __ffsll(big << 40) == 41) a[3] = 1;
  for (unsigned i = 0; i < __ffs(threadIdx.x); ++i) a[4] = i;
}
)");
  // One warp of 8, big = 2^63 - 1. 5t = 0, 5, 10, 15, 20, 25, 30, 35 has two set bits for
  // t = 1 (101), 2 (1010), 4 (10100) only (35 = 100011 has three): 3 lanes. __ffs(4t) == 3 for odd t;
  // __ffs(0) is 0 (t = 0 only). 63 bits set; big << 40 has bit 40 lowest: __ffsll 41.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {INT64_MAX}));
  EXPECT_EQ(counts(r, statement_at(k, 3, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 3}));
  EXPECT_EQ(counts(r, statement_at(k, 4, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 4}));
  EXPECT_EQ(counts(r, statement_at(k, 5, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 1}));
  EXPECT_EQ(counts(r, statement_at(k, 6, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 0, 8, 8}));
  // __ffs(t) = 0, 1, 2, 1, 3, 1, 2, 1 iterations: 11 taken; the warp tests 4 times (max 3 + 1).
  EXPECT_EQ(counts(r, statement_at(k, 7, ir::StmtKind::Loop)).at(3), 11u);
}

TEST_F(FrontendTest, BitReversalAndLeadingZerosAreComputed) {
  const ir::Kernel k = load(R"(
__global__ void k(int *o) {
  unsigned t = threadIdx.x;
  if (__brev(t) > 0x80000000u) o[t] = 1;
  if (__clz((int)t) < 30) o[t] = 2;
  if (__clzll((long long)t) < 62) o[t] = 3;
  if (__brevll((unsigned long long)t) >= 0x4000000000000000ull) o[t] = 4;
  if (__clz(0) == 32 && __clz(-1) == 0 && __brev(1u) == 0x80000000u) o[t] = 5;
}
)");
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {32, 1, 1}, 32, {}));
  // __brev(t) has bit 31 set for odd t, and is above 2^31 for odd t from 3: 15 of 32.
  EXPECT_EQ(counts(r, statement_at(k, 4, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 32, 15}));
  // clz: 32 for 0, 31 for 1, 30 for 2 and 3, 29 and fewer from 4 (62 and fewer in 64 bits): 28.
  EXPECT_EQ(counts(r, statement_at(k, 5, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 32, 28}));
  EXPECT_EQ(counts(r, statement_at(k, 6, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 32, 28}));
  // __brevll(t) >= 2^62 when bit 0 or bit 1 of t is set: 24 of 32.
  EXPECT_EQ(counts(r, statement_at(k, 7, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 32, 24}));
  EXPECT_EQ(counts(r, statement_at(k, 8, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 0, 32, 32}));
}

TEST_F(FrontendTest, APointerToALocalWritesTheLocal) {
  const ir::Kernel k = load(R"(
__device__ void split(int v, int* hi, int* lo) { *hi = v / 4; lo[0] = v % 4; }
__device__ void twice(int* c) { (*c)++; *c += 1; }
__global__ void k(int* a) {
  int h, l;
  split(threadIdx.x, &h, &l);
  if (h == 1 && l == 3) a[0] = 1;
  int c = threadIdx.x;
  twice(&c);
  if (c == 9) a[1] = 1;
  split(c, a, a + 1);
}
)");
  // One warp of 8: t = 7 is 1 * 4 + 3; c = t + 2 == 9 for t = 7. The last call writes memory.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {}));
  EXPECT_EQ(counts(r, statement_at(k, 7, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 1}));
  EXPECT_EQ(counts(r, statement_at(k, 10, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 1}));
  EXPECT_PRED2(warpdiv::testing::contains, refusal(R"(
__device__ void next(int* p) { p[1] = 0; }
__global__ void k(int* a) {
  int x = 0;
  next(&x);
}
)"),
               "k.cu:2:32: the pointer 'p' to a local is used other than as *p or p[0]");
}

TEST_F(FrontendTest, AMemberOfAnObjectTheModelDoesNotFollowIsNamedSo) {
  // A union's members overlap: the model keeps no locals for them, and says why a branch on one
  // is refused.
  EXPECT_PRED2(warpdiv::testing::contains, refusal(R"(
union Node { unsigned data; struct { unsigned char x, y, z, w; } c; };
__global__ void k(const unsigned* in, int* out) {
  Node n;
  n.data = in[threadIdx.x];
  if (n.c.x > 3) out[0] = 1;
}
)"),
               "n.c.x (a local object the model does not follow member by member (a union, "
               "bit-fields or virtual functions))");
}

}  // namespace
