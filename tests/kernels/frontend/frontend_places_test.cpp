// What a refusal or undefined behaviour names, and values with no source text of their own: a
// struct's members left out of `S v{}` are zero, the fault of an inlined function names the call
// that met it, an overflow that a loop's counter reaches names the iteration. Figures and places
// worked out by hand in the comments.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "sim/classes/ir_classes.hpp"
#include "sim/support/errors.hpp"
#include "tests/kernels/frontend/frontend_test_support.hpp"

namespace {

using namespace warpdiv::testing::frontend_tests;
using warpdiv::InvalidInput;

// The message a run stops with from "k.cu:" on, every path shortened to its name ("" when it
// does not stop).
template <typename Run>
std::string stop(Run run) {
  try {
    run();
  } catch (const InvalidInput& e) {
    return std::regex_replace(e.what(), std::regex("[^ (]*/k\\.cu"), "k.cu");
  }
  return "";
}

// `S v{}` value-initialises every member: v.b is 0.0f and v.a is 0, so `v.b < 1.0f` holds in
// all 64 lanes and `v.a != 0` in none; `S w{x}` sets a = x (1) and leaves b 0.0f: w.b == 0 in all 64.
TEST_F(FrontendTest, MembersLeftOutOfABraceInitialiserAreZero) {
  const ir::Kernel k = load(
      "struct S { int a; float b; };\n"
      "__global__ void k(float* o) {\n"
      "  S v{};\n"
      "  int x = 1;\n"
      "  S w{x};\n"
      "  if (v.b < 1.0f) o[threadIdx.x] = 1;\n"
      "  if (v.a != 0) o[threadIdx.x] = 2;\n"
      "  if (w.b == 0.0f && w.a == 1) o[threadIdx.x] = 3;\n"
      "}\n");
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {64, 1, 1}, 32, {}));
  EXPECT_EQ(counts(r, statement_at(k, 6, ir::StmtKind::If)), (std::vector<std::uint64_t>{2, 0, 64, 64}));
  EXPECT_EQ(counts(r, statement_at(k, 7, ir::StmtKind::If)), (std::vector<std::uint64_t>{2, 0, 64, 0}));
  EXPECT_EQ(counts(r, statement_at(k, 8, ir::StmtKind::If)), (std::vector<std::uint64_t>{2, 0, 64, 64}));
}

// f(t + 20) divides by zero in thread 20 (t + 20 - 40 = 0) before f(t) would in thread 40 (not
// in the launch): the call on line 7 met it. A store out of bounds in put() at its second call:
// put(s, t + 1) writes s[32] in thread 31.
TEST_F(FrontendTest, UndefinedBehaviourInAnInlinedFunctionNamesTheCall) {
  const ir::Kernel k = load(
      "__device__ int f(int x) {\n"
      "  return 100 / (x - 40);\n"
      "}\n"
      "__global__ void k(int* o) {\n"
      "  int t = threadIdx.x;\n"
      "  int a = f(t);\n"
      "  int b = f(t + 20);\n"
      "  o[t] = a + b;\n"
      "}\n");
  const ir::Launch l = launch(k, {1, 1, 1}, {32, 1, 1}, 32, {});
  const std::string expected =
      "k.cu:2:10: undefined behaviour: division by zero in '/' (int32) in block (0, 0, 0), thread (20, 0, 0) "
      "(inlined at k.cu:7:11)";
  EXPECT_EQ(stop([&] { ir::replay(k, l); }), expected);
  EXPECT_EQ(stop([&] { ir::class_replay(k, l); }), expected);
  const ir::Kernel put = load(
      "__device__ void put(int* s, int i) {\n"
      "  s[i] = 1;\n"
      "}\n"
      "__global__ void k(int* o) {\n"
      "  __shared__ int s[32];\n"
      "  int t = threadIdx.x;\n"
      "  put(s, t);\n"
      "  put(s, t + 1);\n"
      "  o[t] = s[t];\n"
      "}\n");
  EXPECT_EQ(stop([&] {
              ir::replay(put, launch(put, {1, 1, 1}, {32, 1, 1}, 32, {}));
            }),
            "k.cu:2:3: out of bounds: 's[i]' writes element 32 of 's', which holds 32 elements of 4 bytes "
            "(0 to 31), in block (0, 0, 0), thread (31, 0, 0) (inlined at k.cu:8:3)");
}

// A race whose earlier access is in an inlined function names that access's call too: warp 0
// reads s[63 - t] = s[32..63] in the second call of get (line 7, column 11) before warp 1's
// threads 32..63 write s[t] (line 6) with no barrier between: thread 32 writes bytes 128 to 131
// (s[32]), which warp 0's thread 31 read.
TEST_F(FrontendTest, ARaceNamesTheCallOfEachAccessInAnInlinedFunction) {
  const ir::Kernel k = load(
      "__device__ int get(const int *p, int i) { return p[i]; }\n"
      "__global__ void k(int *out, const int *in) {\n"
      "  __shared__ int s[64];\n"
      "  int t = threadIdx.x;\n"
      "  int a = get(s, t);\n"
      "  s[t] = in[t];\n"
      "  int b = get(s, 63 - t);\n"
      "  out[t] = a + b;\n"
      "}\n");
  EXPECT_EQ(
      stop([&] {
        ir::replay(k, launch(k, {1, 1, 1}, {64, 1, 1}, 32, {}));
      }),
      "k.cu:6:3: shared-memory race: 's[t]' writes bytes 128 to 131 of 's' in warp 1, which warp 0 read "
      "('p[i]' at k.cu:1:50 (inlined at k.cu:7:11)) with no __syncthreads() between them, in block (0, 0, "
      "0), thread (32, 0, 0)");
}

// x grows by 1,100,000 an iteration, blockIdx.x iterations: 1952 * 1100000 = 2,147,200,000 fits
// in int32, 1953 * 1100000 = 2,148,300,000 does not, so the 1953rd iteration (i = 1952) overflows
// in the blocks that run it. The class engine jumps the counter over the loop and names it. (The
// continue, never taken, keeps the probes from stepping x themselves: they would name the block
// first, see prerun_test.cpp.)
TEST_F(FrontendTest, AnOverflowOfALoopsCounterNamesItsIteration) {
  const ir::Kernel k = load(
      "__global__ void k(int* o) {\n"
      "  int x = 0;\n"
      "  for (int i = 0; i < blockIdx.x; i++) {\n"
      "    if (i < 0) continue;\n"
      "    x += 1100000;\n"
      "  }\n"
      "  o[blockIdx.x] = x;\n"
      "}\n");
  const std::string message = stop([&] { ir::class_replay(k, launch(k, {2000, 1, 1}, {32, 1, 1}, 32, {})); });
  EXPECT_EQ(
      message.substr(0, message.find(", in block")),
      "k.cu:3:3: undefined behaviour: x overflows its type (int32) in iteration 1953 of this loop (counted "
      "from 1)");
}

}  // namespace
