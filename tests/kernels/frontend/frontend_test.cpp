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

#include "tests/kernels/frontend/frontend_test_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace warpdiv::testing::frontend_tests;

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

// A const scalar at namespace scope (or a static constexpr member) with a constant initialiser is
// a value nvcc puts in the code, whatever its memory space (nvcc 13 -O2 -ptx of `t * C1` with
// `__constant__ const float C1 = 4.0f`: `mul.f32 %f2, %f1, 0f40800000`, no ld.const; the same for
// `const`, `__device__ const`, `__device__ constexpr`, `static __device__ const`): no access, the
// value itself. A `__constant__` that is not const is read (`ld.const.u32 %r2, [C2]`).
TEST_F(FrontendTest, ANamespaceScopeConstScalarIsItsValueNotMemory) {
  const ir::Kernel k = load(R"(
const float SCALE = 2.5f;
constexpr double HALF = 0.5;
struct P { static constexpr float f = 0.25f; };
__constant__ const float C1 = 4.0f;
__device__ const int D1 = 3;
__device__ constexpr int D2 = 5;
static __device__ const int D3 = 7;
__constant__ int C2 = 9;
__global__ void k(float* out, int* q) {
  float v = SCALE * threadIdx.x + HALF + P::f;
  out[threadIdx.x] = v + C1;
  q[threadIdx.x] = D1 + D2 + D3 + C2;
}
)");
  EXPECT_EQ(
      sexpr(k, first(k, ir::StmtKind::Declare).value),
      "(float32)(((float64)(2.5:float32 * (float32)threadIdx.x) + 0.5:float64) + (float64)0.25:float32)");
  std::string read;
  for (const ir::MemoryAccess& a : k.accesses)
    if (a.kind == ir::AccessKind::Load)
      read += k.bases[static_cast<std::size_t>(a.base)].name +
              (a.space == ir::AddressSpace::Constant ? " (constant)" : "");
  EXPECT_EQ(read, "C2 (constant)");
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
                    "  char idx[3] = \"ab\";\n  if (idx[threadIdx.x % 2]) a[0] = 1;", ":4:3",
                    "idx[threadIdx.x % 2] (local array)"},
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

}  // namespace
