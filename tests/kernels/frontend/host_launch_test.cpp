// The kernel's launches in the file's host code (kernels/frontend/host_launch.cpp): homework-style
// files written to temporary files; every expected size and argument is worked out by hand in a
// comment, every refusal's reason written out in full.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "kernels/frontend/frontend.hpp"
#include "tests/kernels/source_dir.hpp"

namespace {

using warpdiv::frontend::HostLaunch;
using warpdiv::frontend::HostValue;

class HostLaunchTest : public warpdiv::testing::SnippetTest {
 protected:
  HostLaunchTest() : SnippetTest("warpdiv_host_launch_") {}

  std::vector<HostLaunch> launches(const std::string& source, const std::string& kernel = "") {
    warpdiv::frontend::FrontendOptions o = options(source, kernel);
    o.host_launches = true;
    std::vector<HostLaunch> found;
    warpdiv::frontend::load_kernel(o, nullptr, nullptr, &found);
    return found;
  }
  /// The same, with values given for the kernel's parameters (FrontendOptions::host_arguments).
  std::vector<HostLaunch> given(const std::string& source, const std::map<std::string, std::string>& values,
                                const std::string& kernel = "") {
    warpdiv::frontend::FrontendOptions o = options(source, kernel);
    o.host_launches = true;
    o.host_arguments = values;
    std::vector<HostLaunch> found;
    warpdiv::frontend::load_kernel(o, nullptr, nullptr, &found);
    return found;
  }
  /// The same, with --grid and --block given (FrontendOptions::host_grid, host_block).
  std::vector<HostLaunch> sized(const std::string& source, const std::vector<std::string>& grid,
                                const std::vector<std::string>& block,
                                const std::map<std::string, std::string>& values = {}) {
    warpdiv::frontend::FrontendOptions o = options(source, "");
    o.host_launches = true;
    o.host_arguments = values;
    o.host_grid = grid;
    o.host_block = block;
    std::vector<HostLaunch> found;
    warpdiv::frontend::load_kernel(o, nullptr, nullptr, &found);
    return found;
  }
  /// "DIR/k.cu:LINE:COL".
  std::string at(int line, int column) const {
    return (dir_ / "k.cu").string() + ":" + std::to_string(line) + ":" + std::to_string(column);
  }
};

/// The three values as "x,y,z" ("?" for one not computable).
std::string dims(const HostValue (&v)[3]) {
  std::string text;
  for (int i = 0; i < 3; ++i) text += (i ? "," : "") + (v[i].known ? v[i].value : std::string("?"));
  return text;
}

// A homework file.
constexpr const char* kHomework = R"(#define BLOCK 16
__global__ void scale(float *m, int rows, int cols) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows && c < cols) m[r * cols + c] *= 2;
}
int main() {
  const int rows = 100, cols = 70;
  int n = rows * cols;
  float *d; cudaMalloc(&d, n * sizeof(float));
  dim3 block(BLOCK, BLOCK);
  dim3 grid((cols + BLOCK - 1) / BLOCK, (rows + BLOCK - 1) / BLOCK);
  scale<<<grid, block>>>(d, rows, cols);
}
)";

TEST_F(HostLaunchTest, TheHomeworkFile) {
  const auto found = launches(kHomework);
  ASSERT_EQ(found.size(), 1u);
  const HostLaunch& l = found[0];
  EXPECT_EQ(l.function, "main");
  EXPECT_EQ(l.location, at(13, 3));
  // grid: x = (70 + 16 - 1) / 16 = 85 / 16 = 5, y = (100 + 15) / 16 = 115 / 16 = 7, z = 1 (dim3's
  // default); block (16, 16, 1).
  EXPECT_EQ(dims(l.grid), "5,7,1");
  EXPECT_EQ(dims(l.block), "16,16,1");
  EXPECT_EQ(l.grid[0].where, at(13, 11));
  EXPECT_EQ(l.block[0].where, at(13, 17));
  EXPECT_TRUE(l.dynamic_shared.known);
  EXPECT_EQ(l.dynamic_shared.value, "0");
  ASSERT_EQ(l.arguments.size(), 3u);
  EXPECT_FALSE(l.arguments[0].known);  // the pointer: no value, and no reason either
  EXPECT_EQ(l.arguments[0].reason, "");
  EXPECT_EQ(l.arguments[1].value, "100");
  EXPECT_EQ(l.arguments[2].value, "70");
  EXPECT_EQ(l.arguments[2].where, at(13, 35));
}

TEST_F(HostLaunchTest, ExpressionsConstantsAndStraightLineLocals) {
  const auto found = launches(R"(#define THREADS 128
enum { kWide = 4 };
constexpr int kScale = 3;
__global__ void k(int *a, int n, unsigned u, float s, long long big) { a[0] = n; }
int main() {
  int *a;
  int n = 10;
  n += 5;
  n *= kScale;
  ++n;
  n--;
  n = n + 1;
  unsigned u = 0;
  u = u - 1;
  dim3 g;
  g.x = n / kWide;
  g.y = 2;
  long long big = 1LL << 40;
  k<<<g, THREADS, kWide * sizeof(int)>>>(a, n, u, 1.5f, big);
  k<<<(n + 255) / 256, 256>>>(a, -n, u / 2, 0.1, big * 4);
}
)");
  ASSERT_EQ(found.size(), 2u);
  // n: 10, += 5 -> 15, *= 3 -> 45, ++ -> 46, -- -> 45, + 1 -> 46. u: 0 - 1 wraps to 2^32 - 1.
  // g: (46 / 4 = 11, 2, 1); block 128; shared 4 * 4 = 16 bytes; big = 2^40 = 1099511627776.
  EXPECT_EQ(dims(found[0].grid), "11,2,1");
  EXPECT_EQ(dims(found[0].block), "128,1,1");
  EXPECT_EQ(found[0].dynamic_shared.value, "16");
  EXPECT_EQ(found[0].arguments[1].value, "46");
  EXPECT_EQ(found[0].arguments[2].value, "4294967295");
  EXPECT_EQ(found[0].arguments[3].value, "1.5");
  EXPECT_EQ(found[0].arguments[4].value, "1099511627776");
  // (46 + 255) / 256 = 301 / 256 = 1; -n = -46; (2^32 - 1) / 2 = 2147483647; 0.1 rounded to float
  // then printed to 17 digits: 0.10000000149011612; 2^40 * 4 = 2^42 = 4398046511104.
  EXPECT_EQ(dims(found[1].grid), "1,1,1");
  EXPECT_EQ(dims(found[1].block), "256,1,1");
  EXPECT_EQ(found[1].arguments[1].value, "-46");
  EXPECT_EQ(found[1].arguments[2].value, "2147483647");
  EXPECT_EQ(found[1].arguments[3].value, "0.10000000149011612");
  EXPECT_EQ(found[1].arguments[4].value, "4398046511104");
}

TEST_F(HostLaunchTest, AHelperFunctionTakesItsArgumentsFromItsOneCallSite) {
  const auto found = launches(R"(__global__ void k(int *a, int n) { a[0] = n; }
void launch(int *a, int n, dim3 block) {
  k<<<(n + block.x - 1) / block.x, block>>>(a, n);
}
void twice(int *a, int n) { k<<<1, 32>>>(a, n); }
int main() {
  int *a;
  int n = 1000;
  launch(a, n + 24, dim3(64));
  twice(a, 1);
  twice(a, 2);
}
)");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].function, "launch");
  // n = 1000 + 24 = 1024; block (64, 1, 1); grid (1024 + 63) / 64 = 1087 / 64 = 16.
  EXPECT_EQ(dims(found[0].grid), "16,1,1");
  EXPECT_EQ(dims(found[0].block), "64,1,1");
  EXPECT_EQ(found[0].arguments[1].value, "1024");
  EXPECT_EQ(found[1].function, "twice");
  EXPECT_FALSE(found[1].arguments[1].known);
  EXPECT_EQ(found[1].arguments[1].reason,
            "'n' (" + at(5, 24) + ") is a parameter of twice(), which is called from 2 places in the file");
}

TEST_F(HostLaunchTest, ALaunchInALoopTakesItsInvariantValuesOnly) {
  const auto found = launches(R"(__global__ void k(int *a, int n) { a[0] = n; }
int main() {
  int *a;
  int n = 64;
  for (int i = 0; i < 4; ++i) {
    k<<<n / 32, 32>>>(a, n);
    k<<<i + 1, 32>>>(a, n);
  }
  int m = 1;
  while (m < 100) {
    m = 3;
    k<<<m, 32>>>(a, m);
    m = m * 50;
  }
}
)");
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(dims(found[0].grid), "2,1,1");  // 64 / 32, n unchanged by the loop
  EXPECT_EQ(found[0].arguments[1].value, "64");
  EXPECT_EQ(dims(found[1].grid), "?,1,1");
  EXPECT_EQ(found[1].grid[0].reason, "'i' (" + at(5, 12) + ") changes inside the loop at " + at(5, 3));
  // m is set to 3 before the launch in every iteration: 3, whatever the loop did before.
  EXPECT_EQ(dims(found[2].grid), "3,1,1");
}

// A variable written through a cast to a reference or as either side of an lvalue ?: is not
// known after it; read through ?: it keeps its value.
TEST_F(HostLaunchTest, WritesThroughReferenceCastsAndConditionalLvaluesAreSeen) {
  const auto found = launches(R"(__global__ void k(int *a, int n) { a[0] = n; }
int main(int argc, char **argv) {
  int *a;
  int n = 100, m = 1, q = 7, r = 8;
  (int&)n = 9;
  k<<<1, 32>>>(a, n);
  ++static_cast<int&>(m);
  k<<<1, 32>>>(a, m);
  (argc > 1 ? q : r) = 3;
  k<<<1, 32>>>(a, q);
  k<<<1, 32>>>(a, r);
  int s = 5, t = 6;
  int x = argc > 1 ? s : t;
  k<<<1, 32>>>(a, s);
}
)");
  ASSERT_EQ(found.size(), 5u);
  EXPECT_EQ(found[0].arguments[1].reason,
            "'n' (" + at(4, 7) + ") changes inside the expression at " + at(5, 3));
  EXPECT_EQ(found[1].arguments[1].reason,
            "'m' (" + at(4, 16) + ") changes inside the expression at " + at(7, 3));
  EXPECT_EQ(found[2].arguments[1].reason,
            "'q' (" + at(4, 23) + ") changes inside the expression at " + at(9, 3));
  EXPECT_EQ(found[3].arguments[1].reason,
            "'r' (" + at(4, 30) + ") changes inside the expression at " + at(9, 3));
  EXPECT_TRUE(found[4].arguments[1].known);
  EXPECT_EQ(found[4].arguments[1].value, "5");
}

// A reference to a local held in an object (a pair, a reference_wrapper, a tuple, a struct's
// reference member) or made writable by const_cast: writes through it are not followed, so the
// local is not computable from the binding on, naming its place; a const reference is a read.
TEST_F(HostLaunchTest, AReferenceHeldInAnObjectOrConstCastMakesTheLocalNotComputable) {
  const auto found = launches(R"(#include <algorithm>
#include <functional>
#include <tuple>
#include <utility>
__global__ void k(int *a, int n) { a[0] = n; }
int main() {
  int *a = 0;
  int n = 100;
  std::pair<int&, int> p(n, 1);
  p.first = 9;
  k<<<1, 32>>>(a, n);
  int w0 = 100;
  std::reference_wrapper<int> w = w0;
  w.get() = 9;
  k<<<1, 32>>>(a, w0);
  int s0 = 100;
  struct S { int &r; } s = {s0};
  s.r += 1;
  k<<<1, 32>>>(a, s0);
  int t0 = 100;
  auto t = std::tuple<int&>(t0);
  std::get<0>(t) = 9;
  k<<<1, 32>>>(a, t0);
  int m = 100;
  ++const_cast<int&>(std::min(m, m));
  k<<<1, 32>>>(a, m);
  int x = 100;
  const_cast<int&>(std::max(x, 3)) = 9;
  k<<<1, 32>>>(a, x);
  int c0 = 100;
  const int &c = c0;
  const_cast<int&>(c) = 9;
  k<<<1, 32>>>(a, c0);
  int r0 = 5;
  const int &rc = r0;
  int lo = std::min(r0, 7);
  k<<<1, 32>>>(a, r0 + lo);
  int h0 = 4;
  struct H { const int &r; } hs = {h0};
  const_cast<int&>(hs.r) = 9;
  k<<<1, 32>>>(a, h0);
  int e0 = 6, e1 = 8;
  const int &em = std::min(e0, e1);
  const_cast<int&>(em) = 1;
  k<<<1, 32>>>(a, e0);
}
)");
  ASSERT_EQ(found.size(), 10u);
  EXPECT_EQ(found[0].arguments[1].reason, "'n' (" + at(8, 7) +
                                              ") is bound to a reference by the constructor of a "
                                              "std::pair<int &, int> at " +
                                              at(9, 24));
  EXPECT_EQ(found[1].arguments[1].reason, "'w0' (" + at(12, 7) +
                                              ") is bound to a reference by the constructor of a "
                                              "std::reference_wrapper<int> at " +
                                              at(13, 35));
  EXPECT_EQ(found[2].arguments[1].reason,
            "'s0' (" + at(16, 7) + ") is bound to the reference member 'r' at " + at(17, 28));
  EXPECT_EQ(found[3].arguments[1].reason, "'t0' (" + at(20, 7) +
                                              ") is bound to a reference by the constructor of a "
                                              "std::tuple<int &> at " +
                                              at(21, 12));
  const std::string cast = " (it may be written through the result)";
  EXPECT_EQ(found[4].arguments[1].reason,
            "'m' (" + at(24, 7) + ") has its constness cast away at " + at(25, 5) + cast);
  EXPECT_EQ(found[5].arguments[1].reason,
            "'x' (" + at(27, 7) + ") has its constness cast away at " + at(28, 3) + cast);
  EXPECT_EQ(found[6].arguments[1].reason,
            "'c0' (" + at(30, 7) + ") has its constness cast away at " + at(32, 3) + cast);
  // r0 = 5, lo = min(5, 7) = 5: 10.
  EXPECT_EQ(found[7].arguments[1].value, "10");
  // A const reference an object holds, then its constness cast away through the object; a const
  // reference to what std::min returns, cast.
  EXPECT_EQ(found[8].arguments[1].reason,
            "'h0' (" + at(38, 7) + ") is bound to a const reference an object may hold at " + at(39, 35) +
                ", and the cast at " + at(40, 3) + " casts the constness of an object away");
  EXPECT_EQ(found[9].arguments[1].reason,
            "'e0' (" + at(42, 7) + ") has its constness cast away at " + at(44, 3) + cast);
}

TEST_F(HostLaunchTest, WhatCannotBeComputedSaysWhy) {
  const auto found = launches(R"(#include <cstdlib>
#include <cstdio>
__global__ void k(int *a, int n) { a[0] = n; }
int f();
int main(int argc, char **argv) {
  int *a;
  int c = atoi(argv[2]);
  k<<<c, 32>>>(a, 1);
  int s; scanf("%d", &s);
  k<<<1, 32>>>(a, s);
  int m = 5;
  if (argc > 2) m = 7;
  k<<<m, 32>>>(a, 0);
  int p = *a;
  k<<<p, f()>>>(a, argc);
  int big = 2147483647;
  k<<<big + 1, 32>>>(a, 10 / (big - big));
}
)");
  ASSERT_EQ(found.size(), 5u);
  EXPECT_EQ(found[0].grid[0].reason, "'c' (" + at(7, 7) + ") is set from atoi(argv[2])");
  EXPECT_EQ(found[0].grid[0].where, at(8, 7));
  EXPECT_EQ(found[1].arguments[1].reason, "'s' (" + at(9, 7) + ") has its address taken at " + at(9, 22) +
                                              " (it may be set through a pointer)");
  EXPECT_EQ(found[2].grid[0].reason, "'m' (" + at(11, 7) + ") changes inside the if at " + at(12, 3));
  EXPECT_EQ(found[3].grid[0].reason, "'p' (" + at(14, 7) + ") is set from *a");
  EXPECT_EQ(found[3].block[0].reason, "it is computed from f()");
  EXPECT_EQ(found[3].arguments[1].reason, "'argc' (" + at(5, 14) + ") is a parameter of main()");
  EXPECT_EQ(found[4].grid[0].reason, "big + 1 overflows its type, int (at " + at(17, 7) + ")");
  EXPECT_EQ(found[4].arguments[1].reason, "10 / (big - big) divides by zero (at " + at(17, 25) + ")");
}

TEST_F(HostLaunchTest, ALambdaOrAGotoStopsEverything) {
  const auto found = launches(R"(__global__ void k(int *a, int n) { a[0] = n; }
int main() {
  int *a;
  int n = 5;
  auto run = [&] { k<<<n, 32>>>(a, n); };
  n = 7;
  run();
}
void jumps(int *a) {
  int n = 1;
again:
  k<<<n, 32>>>(a, n);
  if (++n < 3) goto again;
}
)");
  // The lambda runs when called, with n = 7 by then: its launch is not followed at all.
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].grid[0].reason,
            "the launch is inside the lambda at " + at(5, 14) + ", whose calls are not followed");
  EXPECT_EQ(found[0].block[0].reason, found[0].grid[0].reason);
  EXPECT_EQ(found[1].grid[0].reason,
            "jumps() uses goto (" + at(13, 16) + "), so the order of its statements is not followed");
}

// A helper whose address is taken (a pointer or a reference bound to it) or that a global's
// initialiser calls has call sites the walk cannot list: its parameters are not computable.
TEST_F(HostLaunchTest, AHelperCalledThroughAPointerOrBeforeMainHasNoOneCallSite) {
  const auto found = launches(R"(__global__ void k(int *a, int n) { a[0] = n; }
void by_pointer(int *a, int n) { k<<<1, 32>>>(a, n); }
void by_reference(int *a, int n) { k<<<1, 32>>>(a, n); }
int before_main(int *a, int n) { k<<<1, 32>>>(a, n); return 0; }
int g = before_main(0, 300);
int main() {
  int *a = 0;
  void (*f)(int *, int) = by_pointer;
  f(a, 300);
  by_pointer(a, 100);
  void (&r)(int *, int) = by_reference;
  r(a, 300);
  by_reference(a, 100);
  before_main(a, 100);
}
)");
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].arguments[1].reason,
            "'n' (" + at(2, 29) +
                ") is a parameter of by_pointer(), which may also be called through a "
                "pointer or reference, bound at " +
                at(8, 27));
  EXPECT_EQ(found[1].arguments[1].reason,
            "'n' (" + at(3, 31) +
                ") is a parameter of by_reference(), which may also be called through a "
                "pointer or reference, bound at " +
                at(11, 27));
  EXPECT_EQ(found[2].arguments[1].reason,
            "'n' (" + at(4, 29) +
                ") is a parameter of before_main(), which is also called from the "
                "initialiser of the global 'g' at " +
                at(5, 9));
}

// A launch in a function template is followed in each instantiation, with its arguments.
TEST_F(HostLaunchTest, ALaunchInAFunctionTemplateIsFollowedInEachInstantiation) {
  const auto found = launches(R"(__global__ void k(int *a, int n) { a[0] = n; }
template <int N> void templated(int *a) { k<<<(N + 63) / 64, 64>>>(a, N); }
int main() {
  int *a = 0;
  templated<300>(a);
  templated<64>(a);
}
)");
  ASSERT_EQ(found.size(), 2u);
  // templated<300>: grid (300 + 63) / 64 = 5, block 64, n = 300; templated<64>: 127 / 64 = 1.
  EXPECT_EQ(found[0].location, at(2, 43));
  EXPECT_EQ(dims(found[0].grid), "5,1,1");
  EXPECT_EQ(dims(found[0].block), "64,1,1");
  EXPECT_EQ(found[0].arguments[1].value, "300");
  EXPECT_EQ(found[1].location, at(2, 43));
  EXPECT_EQ(dims(found[1].grid), "1,1,1");
  EXPECT_EQ(found[1].arguments[1].value, "64");
}

TEST_F(HostLaunchTest, OnlyTheChosenKernelsLaunchesAndATemplatesInstantiation) {
  const auto found = launches(R"(template <int N> __global__ void t(int *a) { a[0] = N; }
__global__ void other(int *a) { a[0] = 0; }
int main() {
  int *a;
  other<<<9, 9>>>(a);
  t<64><<<2, 64>>>(a);
  t<32><<<3, 32>>>(a);
}
)",
                              "t<64>");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(dims(found[0].grid), "2,1,1");
  EXPECT_EQ(found[0].location, at(6, 3));
}

}  // namespace

namespace {

// Values given for the kernel's parameters (--arg) are followed through the host code where the
// launch passes a variable nothing writes after its declaration: what the host code computes from
// it follows. Each case by hand.
TEST_F(HostLaunchTest, GivenValuesAreFollowedThroughTheHostCode) {
  // From atoi (not computable alone): n = 1000 gives grid (1000 + 255) / 256 = 4.
  const char* from_argv = R"(#include <cstdlib>
__global__ void k(int *a, int n) { a[0] = n; }
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int *a;
  k<<<(n + 255) / 256, 256>>>(a, n);
}
)";
  EXPECT_EQ(dims(launches(from_argv)[0].grid), "?,1,1");
  auto found = given(from_argv, {{"n", "1000"}});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(dims(found[0].grid), "4,1,1");
  EXPECT_EQ(found[0].arguments[1].value, "1000");
  EXPECT_EQ(found[0].followed, std::vector<std::string>{"'n' (" + at(4, 7) + ") = 1000"});
  EXPECT_TRUE(found[0].unfollowed.empty());

  // A const local under another name, a helper's parameter, a const global: rows = 8 gives grid
  // y (8 + 15) / 16 = 1; the helper's count 300 gives (300 + 127) / 128 = 3 blocks; a const global
  // of 4096 given 100 gives its own launch's grid 100 / 4 = 25.
  const char* names = R"(__global__ void k(int *a, int rows, int cols) { a[0] = rows + cols; }
__global__ void h(int *a, int count) { a[0] = count; }
const int kTotal = 4096;
void helper(int *a, int count) { h<<<(count + 127) / 128, 128>>>(a, count); }
int main() {
  const int nrows = 100, ncols = 70;
  int *a;
  k<<<dim3((ncols + 15) / 16, (nrows + 15) / 16), dim3(16, 16)>>>(a, nrows, ncols);
  helper(a, 5000);
  h<<<kTotal / 4, 4>>>(a, kTotal);
}
)";
  found = given(names, {{"rows", "8"}}, "k");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(dims(found[0].grid), "5,1,1");
  EXPECT_EQ(found[0].arguments[1].value, "8");
  EXPECT_EQ(found[0].arguments[2].value, "70");
  EXPECT_EQ(found[0].followed, std::vector<std::string>{"'nrows' (" + at(6, 13) + ") = 8"});
  const std::vector<HostLaunch> h = given(names, {{"count", "300"}}, "h");
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(dims(h[0].grid), "3,1,1");  // (without: (5000 + 127) / 128 = 40)
  EXPECT_EQ(h[0].followed, std::vector<std::string>{"'count' (" + at(4, 25) + ") = 300"});
  EXPECT_EQ(dims(h[1].grid), "75,1,1");  // 300 / 4 (without: 4096 / 4 = 1024)
  EXPECT_EQ(h[1].followed, std::vector<std::string>{"'kTotal' (" + at(3, 11) + ") = 300"});

  // Not followed, each with its reason; the argument alone takes the value (the CLI's), the grid
  // stays the source's: a variable written again (grid (1000 + 24 + 255) / 256 = 1279 / 256 = 4), one whose
  // address is taken, an expression, a value the variable's type cannot hold, one variable given
  // two values.
  const char* not_followed = R"(#include <cstdio>
__global__ void k(int *a, int n, int m) { a[0] = n + m; }
int main() {
  int n = 1000, m = 7;
  short s = 3;
  int *a;
  n += 24;
  scanf("%d", &m);
  k<<<(n + 255) / 256, 256>>>(a, n, m);
  k<<<1, 32>>>(a, n * 2, s);
  k<<<1, 32>>>(a, s, s);
}
)";
  found = given(not_followed, {{"n", "64"}, {"m", "70000"}});
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(dims(found[0].grid), "4,1,1");
  EXPECT_TRUE(found[0].followed.empty());
  EXPECT_EQ(found[0].unfollowed,
            (std::vector<std::string>{"n: 'n' (" + at(4, 7) + ") is written at " + at(7, 3) + " as well",
                                      "m: 'm' (" + at(4, 17) + ") is written at " + at(8, 15) + " as well"}));
  EXPECT_EQ(
      found[1].unfollowed,
      (std::vector<std::string>{"n: the launch passes n * 2 (" + at(10, 19) + "), not a variable of its own",
                                "m: 70000 does not fit 's' (" + at(5, 9) + ") (short)"}));
  found = given(not_followed, {{"n", "64"}, {"m", "65"}});
  EXPECT_TRUE(found[2].followed.empty());
  EXPECT_EQ(found[2].unfollowed,
            (std::vector<std::string>{"'s' (" + at(5, 9) +
                                      ") is passed for several parameters given different values"}));
  // The same value for both: followed once.
  found = given(not_followed, {{"n", "9"}, {"m", "9"}});
  EXPECT_EQ(found[2].followed, std::vector<std::string>{"'s' (" + at(5, 9) + ") = 9"});
  EXPECT_TRUE(found[2].unfollowed.empty());
}

TEST_F(HostLaunchTest, ManyLaunchesInOneFunctionEachSeeTheValuesAtItsPlace) {
  // One walk of main() follows every launch: what a statement holding a launch changes reaches
  // the launches after it as that statement executed (the if's assignment makes n not computable),
  // never as the walk into it left the values (n = 1).
  const auto found = launches(R"(__global__ void k(int *a, int n) { a[0] = n; }
int main(int argc, char **argv) {
  int *a;
  int n = 10;
  k<<<n, 32>>>(a, n);
  n += 5;
  k<<<n, 32>>>(a, n);
  if (argc > 1) {
    int m = n * 2;
    k<<<m, 32>>>(a, m);
    n = 1;
  }
  k<<<n, 32>>>(a, n);
  for (int i = 0; i < 3; ++i) {
    k<<<i + 1, 32>>>(a, 7);
  }
  k<<<4, 32>>>(a, 8);
  switch (argc) {
    case 2: k<<<2, 32>>>(a, 2); break;
  }
  int z = 3;
  k<<<z, 32>>>(a, z);
}
)");
  ASSERT_EQ(found.size(), 8u);
  EXPECT_EQ(dims(found[0].grid), "10,1,1");
  EXPECT_EQ(found[0].arguments[1].value, "10");
  EXPECT_EQ(dims(found[1].grid), "15,1,1");  // 10 + 5
  EXPECT_EQ(dims(found[2].grid), "30,1,1");  // m = 15 * 2, inside the if
  EXPECT_EQ(found[3].grid[0].reason, "'n' (" + at(4, 7) + ") changes inside the if at " + at(8, 3));
  EXPECT_EQ(found[4].grid[0].reason, "'i' (" + at(14, 12) + ") changes inside the loop at " + at(14, 3));
  EXPECT_EQ(found[4].arguments[1].value, "7");
  EXPECT_EQ(dims(found[5].grid), "4,1,1");
  EXPECT_EQ(dims(found[6].grid), "2,1,1");
  // Inside the switch, statements before a launch are not followed; after it, they are again.
  EXPECT_EQ(dims(found[7].grid), "3,1,1");

  // 300 launches, n one more before each: launch j (0-based) has grid 5 + j.
  std::string many =
      "__global__ void k(int *a, int n) { a[0] = n; }\nint main() {\n  int *a;\n  int n = 5;\n";
  for (int j = 0; j < 300; ++j) many += "  k<<<n, 32>>>(a, n);\n  ++n;\n";
  many += "}\n";
  const auto all = launches(many);
  ASSERT_EQ(all.size(), 300u);
  for (int j = 0; j < 300; ++j) {
    EXPECT_EQ(all[j].grid[0].value, std::to_string(5 + j)) << j;
    EXPECT_EQ(all[j].location, at(5 + 2 * j, 3)) << j;
  }
}

TEST_F(HostLaunchTest, ValuesClangRejectsOrThatDoNotFitTheirTypeAreRefused) {
  const auto found = launches(R"(__global__ void k(int *a, int n) { a[0] = n; }
int main() {
  int *a;
  k<<<18446744073709551617, 32>>>(a, 4);
  k<<<4294967296, 32>>>(a, 3000000000);
  k<<<4294967295, 32>>>(a, -2147483648);
  long big = 1L << 40;
  dim3 g(big, 2);
  k<<<g, -1>>>(a, 1);
  unsigned long long wide = 18446744073709551615ull;
  k<<<1, 32, wide + 2>>>(a, 1);
}
)");
  ASSERT_EQ(found.size(), 5u);
  // Clang: "integer literal is too large to be represented in any integer type" (an error; it
  // would wrap the literal to 1).
  EXPECT_FALSE(found[0].grid[0].known);
  EXPECT_EQ(found[0].grid[0].refused,
            "Clang rejects it: " + at(4, 7) +
                ": error: integer literal is too large to be represented in any integer type");
  EXPECT_EQ(found[0].arguments[1].value, "4");
  // 2^32 does not fit dim3's unsigned int (C++ would make it 0); 3 x 10^9 does not fit int.
  EXPECT_EQ(found[1].grid[0].refused,
            "'4294967296' (" + at(5, 7) + ") is 4294967296, outside unsigned int's range 0 .. 4294967295");
  EXPECT_EQ(found[1].arguments[1].refused,
            "'3000000000' (" + at(5, 28) + ") is 3000000000, outside int's range -2147483648 .. 2147483647");
  // The largest values of each type are taken as they are (CUDA's limits are the CLI's).
  EXPECT_EQ(found[2].grid[0].value, "4294967295");
  EXPECT_EQ(found[2].arguments[1].value, "-2147483648");
  EXPECT_TRUE(found[2].grid[0].refused.empty());
  // 2^40 = 1099511627776 into dim3's x, at the declaration of g; -1 into the block's x.
  EXPECT_EQ(found[3].grid[0].refused,
            "'big' (" + at(8, 10) + ") is 1099511627776, outside unsigned int's range 0 .. 4294967295");
  EXPECT_EQ(found[3].grid[1].value, "2");
  EXPECT_EQ(found[3].block[0].refused,
            "'-1' (" + at(9, 10) + ") is -1, outside unsigned int's range 0 .. 4294967295");
  // Unsigned arithmetic wraps in C++ (2^64 - 1 + 2 = 1 as unsigned long long): taken as C++ computes it.
  EXPECT_EQ(found[4].dynamic_shared.value, "1");
}

TEST_F(HostLaunchTest, MinAndMaxOfTwoIntegersOfOneType) {
  const auto found = launches(R"(#include <algorithm>
__global__ void k(int *a, int n) { a[0] = n; }
__host__ __device__ long min(long a, long b) { return a; }
int main() {
  int *a;
  int n = 100000;
  int blocks = std::min((n + 255) / 256, 1024);
  k<<<blocks, 256>>>(a, n);
  k<<<max(n / 1000, 3), min(n, 128)>>>(a, std::max(n, 7));
  unsigned u = 5u;
  k<<<std::max(u, 2u), std::min(2 * n, n)>>>(a, std::min(n * 30000, 5));
  k<<<min(n, u), 32>>>(a, n);
  long p = 9, q = 4;
  k<<<min(p, q), 32>>>(a, n);
}
)");
  ASSERT_EQ(found.size(), 5u);
  // (100000 + 255) / 256 = 100255 / 256 = 391 (391 x 256 = 100096); min(391, 1024) = 391.
  EXPECT_EQ(dims(found[0].grid), "391,1,1");
  // max(100, 3) = 100, min(100000, 128) = 128, std::max(100000, 7) = 100000.
  EXPECT_EQ(dims(found[1].grid), "100,1,1");
  EXPECT_EQ(dims(found[1].block), "128,1,1");
  EXPECT_EQ(found[1].arguments[1].value, "100000");
  // max(5u, 2u) = 5; min(200000, 100000) = 100000; 100000 x 30000 = 3 x 10^9 overflows int.
  EXPECT_EQ(dims(found[2].grid), "5,1,1");
  EXPECT_EQ(found[2].block[0].value, "100000");
  EXPECT_EQ(found[2].arguments[1].reason, "n * 30000 overflows its type, int (at " + at(11, 58) + ")");
  // min(int, unsigned int): CUDA's min(unsigned, unsigned) after a conversion; not followed.
  EXPECT_EQ(found[3].grid[0].reason, "min(n, u) (at " + at(12, 7) +
                                         ") takes arguments of types int and unsigned int: min and max are "
                                         "followed for two integers of one type");
  // The file's own min (returning its first argument) is not the library's: 9 would be wrong.
  EXPECT_EQ(found[4].grid[0].reason, "it is computed from min(p, q)");
}

// std::min and std::max take const references: passing a variable is a read, so --arg and --block
// values are followed through them (n = 50: min(50, 64) = 50 blocks; --block 512: max(512, 128)
// x 4 = 2048 bytes).
TEST_F(HostLaunchTest, AVariableGivenToStdMinOrMaxIsFollowedWithTheValueGiven) {
  const char* source = R"(#include <algorithm>
__global__ void k(float *d, int n) { d[0] = n; }
int main() {
  int n = 100000;
  float *d;
  int threads = 256;
  int blocks = std::min(n, 64);
  int smem = std::max(threads, 128);
  k<<<blocks, threads, smem * sizeof(float)>>>(d, n);
}
)";
  auto found = given(source, {{"n", "50"}});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(dims(found[0].grid), "50,1,1");
  EXPECT_TRUE(found[0].unfollowed.empty()) << found[0].unfollowed.front();
  found = sized(source, {}, {"512", "1", "1"});
  EXPECT_EQ(found[0].dynamic_shared.value, "2048");
  EXPECT_EQ(dims(found[0].grid), "64,1,1");
}

TEST_F(HostLaunchTest, AGivenGridOrBlockIsFollowedThroughTheHostCode) {
  const char* source = R"(__global__ void k(int *a, int n) { a[0] = n; }
int main() {
  int *a;
  int threads = 64;
  int blocks = (1000 + threads - 1) / threads;
  k<<<blocks, threads, threads * sizeof(float)>>>(a, threads);
  dim3 b(8, 4);
  k<<<2, b, b.x * b.y * sizeof(double)>>>(a, 1);
  int t = 32;
  t += 32;
  k<<<1, t, t * sizeof(int)>>>(a, 1);
}
)";
  // The source alone: grid (1000 + 63) / 64 = 16, 64 x 4 = 256 bytes; 8 x 4 x 8 = 256; 64 x 4 = 256.
  auto found = launches(source);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(dims(found[0].grid), "16,1,1");
  EXPECT_EQ(found[0].dynamic_shared.value, "256");
  EXPECT_EQ(found[1].dynamic_shared.value, "256");
  EXPECT_EQ(found[2].dynamic_shared.value, "256");
  // --block 128: threads = 128 throughout: grid (1000 + 127) / 128 = 8, 128 x sizeof(float) = 512
  // bytes, the argument 128.
  found = sized(source, {}, {"128", "1", "1"});
  EXPECT_EQ(dims(found[0].block), "128,1,1");
  EXPECT_EQ(dims(found[0].grid), "8,1,1");
  EXPECT_EQ(found[0].dynamic_shared.value, "512");
  EXPECT_EQ(found[0].arguments[1].value, "128");
  EXPECT_EQ(found[0].followed, std::vector<std::string>{"--block: 'threads' (" + at(4, 7) + ") = 128"});
  // --block 16,2 for the dim3 b: 16 x 2 x sizeof(double) = 256 ... as 16 x 2 x 8.
  found = sized(source, {}, {"16", "2", "1"});
  EXPECT_EQ(found[1].dynamic_shared.value, "256");
  found = sized(source, {}, {"16", "4", "1"});
  EXPECT_EQ(found[1].dynamic_shared.value, "512");  // 16 x 4 x 8
  EXPECT_EQ(found[1].followed, std::vector<std::string>{"--block: 'b' (" + at(7, 8) + ") = (16, 4, 1)"});
  // threads is an integer: a y of 4 is not its value, so what reads it is not computable.
  EXPECT_EQ(found[0].unfollowed,
            std::vector<std::string>{"--block: 'threads' (" + at(4, 7) +
                                     ") is an integer (the x alone), and --block gives y = 4, z = 1"});
  EXPECT_FALSE(found[0].dynamic_shared.known);
  EXPECT_FALSE(found[0].grid[0].known);
  // t is written again: its size is not followed, and the dynamic shared memory read from it is
  // not computable rather than the source's 256.
  const std::string why = "'t' (" + at(9, 7) + ") is written at " + at(10, 3) + " as well";
  EXPECT_EQ(found[2].unfollowed, std::vector<std::string>{"--block: " + why});
  EXPECT_EQ(found[2].dynamic_shared.reason,
            "'t' (" + at(9, 7) +
                ") gives the launch's block, which --block replaces, and the host "
                "code is not followed with --block's value: " +
                why);
  // --grid 3 for blocks (nothing reads it but the launch).
  found = sized(source, {"3", "1", "1"}, {});
  EXPECT_EQ(dims(found[0].grid), "3,1,1");
  EXPECT_EQ(found[0].dynamic_shared.value, "256");
  // A --block computed from values the source gives (the CLI passes "?"): not followed.
  found = sized(source, {}, {"?"});
  EXPECT_FALSE(found[0].dynamic_shared.known);
  EXPECT_EQ(found[0].unfollowed,
            std::vector<std::string>{"--block: --block is computed from values the source gives"});
}

// --block given for a dim3 built from integer locals flows back into them (dim3 b(threads):
// threads holds the x given throughout), so the grid and the dynamic shared memory computed from
// them follow; a dim3 built from anything else makes what it is built from not computable.
TEST_F(HostLaunchTest, AGivenBlockFlowsBackIntoTheIntegersItsDim3IsBuiltFrom) {
  const char* source = R"(__global__ void k(int *a, int n) { a[0] = n; }
int main() {
  int *a;
  int n = 1000;
  int threads = 64;
  dim3 g((n + threads - 1) / threads);
  dim3 b(threads);
  k<<<g, b, threads * sizeof(float)>>>(a, n);
  int w = 32, h = 4;
  dim3 b2(w, h);
  k<<<1, b2, w * h * sizeof(int)>>>(a, w);
  int t = 16;
  dim3 b3(t * 2);
  k<<<1, b3, t * sizeof(int)>>>(a, t);
}
)";
  // The source: grid (1000 + 63) / 64 = 16, 64 x 4 = 256 bytes; 32 x 4 x 4 = 512; block 32, 16 x 4 = 64.
  auto found = launches(source);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(dims(found[0].grid), "16,1,1");
  EXPECT_EQ(found[0].dynamic_shared.value, "256");
  EXPECT_EQ(found[1].dynamic_shared.value, "512");
  EXPECT_EQ(found[2].dynamic_shared.value, "64");
  // --block 128: threads = 128: grid (1000 + 127) / 128 = 8, 128 x 4 = 512 bytes; w = 128, h = 1:
  // 128 x 1 x 4 = 512 bytes, the argument 128.
  found = sized(source, {}, {"128", "1", "1"});
  EXPECT_EQ(dims(found[0].grid), "8,1,1");
  EXPECT_EQ(found[0].dynamic_shared.value, "512");
  EXPECT_EQ(found[0].followed,
            std::vector<std::string>{"--block: 'b' (" + at(7, 8) + ") = (128, 1, 1), 'threads' (" + at(5, 7) +
                                     ") = 128"});
  EXPECT_EQ(found[1].followed,
            std::vector<std::string>{"--block: 'b2' (" + at(10, 8) + ") = (128, 1, 1), 'w' (" + at(9, 7) +
                                     ") = 128, 'h' (" + at(9, 15) + ") = 1"});
  EXPECT_EQ(found[1].dynamic_shared.value, "512");
  EXPECT_EQ(found[1].arguments[1].value, "128");
  // --block 16,4: threads = 16 (b's y is its own): grid (1000 + 15) / 16 = 63, 16 x 4 = 64 bytes;
  // w = 16, h = 4: 16 x 4 x 4 = 256 bytes.
  found = sized(source, {}, {"16", "4", "1"});
  EXPECT_EQ(dims(found[0].grid), "63,1,1");
  EXPECT_EQ(found[0].dynamic_shared.value, "64");
  EXPECT_EQ(found[1].dynamic_shared.value, "256");
  EXPECT_EQ(found[1].arguments[1].value, "16");
  // b3 is built from t * 2: t cannot hold a value the block gives, so what reads it is not
  // computable (never the source's 16).
  const std::string why =
      "'b3' (" + at(13, 8) + ")'s x is computed from t * 2 (" + at(13, 11) + "), not a variable of its own";
  EXPECT_EQ(found[2].unfollowed, std::vector<std::string>{"--block: " + why});
  EXPECT_FALSE(found[2].dynamic_shared.known);
  EXPECT_EQ(found[2].arguments[1].reason, "'t' (" + at(12, 7) +
                                              ") gives the launch's block, which --block replaces, and the "
                                              "host code is not followed with --block's value: " +
                                              why);
}

// main() sets the global N = 700 before the launch; what runs between may set it to 900 (grid
// (900 + 63) / 64 = 15), so N is not computable there (never 700, grid 11), naming what may write it.
TEST_F(HostLaunchTest, AGlobalThatSomethingBetweenMayWriteIsNotComputable) {
  // Line 2 declares ext(), line 3 the globals, line 6 sets N, line 7 runs `between`, line 8 launches.
  const auto launch = [&](const std::string& globals, const std::string& between) {
    const auto found = launches("__global__ void k(int *a, int n) { a[0] = n; }\nvoid ext();\n" + globals +
                                "\nint main(int argc, char **argv) {\n  int *a;\n  N = 700;\n  " + between +
                                "\n  k<<<(N + 63) / 64, 64>>>(a, N);\n}\n");
    EXPECT_EQ(found.size(), 1u) << globals << " / " << between;
    return found.empty() ? HostLaunch{} : found[0];
  };
  const auto reason = [&](const std::string& globals, const std::string& between) {
    const HostLaunch l = launch(globals, between);
    EXPECT_FALSE(l.grid[0].known) << between;
    return l.arguments.size() == 2 ? l.arguments[1].reason : "";
  };
  const std::string n = "'N' (" + at(3, 5) + ")";
  EXPECT_EQ(reason("int N = 500; void bump() { N = 900; }", "bump();"),
            n + " may be written by the call of bump() at " + at(7, 3));
  // Through the functions it calls, and a write under a condition the callee cannot know.
  EXPECT_EQ(reason("int N = 500; void set() { N = 900; } void bump() { set(); }", "bump();"),
            n + " may be written by the call of bump() at " + at(7, 3));
  EXPECT_EQ(reason("int N = 500; void init(int c) { if (c > 1) N = 900; }", "init(argc);"),
            n + " may be written by the call of init() at " + at(7, 3));
  // Defined elsewhere (directly or below bump()), called through a pointer, a virtual function.
  EXPECT_EQ(reason("int N = 500;", "ext();"), n + " may be written by the call of ext() at " + at(7, 3) +
                                                  " (ext() is not defined in the file)");
  EXPECT_EQ(
      reason("int N = 500; void bump() { ext(); }", "bump();"),
      n + " may be written by the call of bump() at " + at(7, 3) + " (ext() is not defined in the file)");
  EXPECT_EQ(reason("int N = 500; void bump() { N = 900; } void (*fp)() = bump;", "fp();"),
            n + " may be written by the call at " + at(7, 3) + " (the function called through a pointer at " +
                at(7, 3) + " may be any)");
  EXPECT_EQ(
      reason(
          "int N = 500; struct B { virtual void f() {} }; struct D : B { void f() override { N = 900; } };",
          "D d; B *b = &d; b->f();"),
      n + " may be written by the call of B::f() at " + at(7, 19) +
          " (the virtual function B::f() called at " + at(7, 19) + " may be any override)");
  EXPECT_EQ(reason("int N = 500;", "asm volatile(\"\" : : : \"memory\");"),
            n + " may be written by 'asm volatile(\"\" : : : \"memory\")' at " + at(7, 3) +
                " (inline assembly may write anything)");
  // A destructor at the end of its scope, a lambda.
  EXPECT_EQ(reason("int N = 500; struct G { ~G() { N = 900; } };", "{ G g; }"),
            n + " may be written by the destruction of 'g' at " + at(7, 10));
  EXPECT_EQ(reason("int N = 500; auto f = [] { N = 900; };", "f();"),
            n + " may be written by the call of the lambda (" + at(3, 23) + ") at " + at(7, 3));
  // A namespace's variable.
  EXPECT_EQ(reason("namespace cfg { int N = 500; void bump() { N = 900; } } using namespace cfg;", "bump();"),
            "'N' (" + at(3, 21) + ") may be written by the call of cfg::bump() at " + at(7, 3));
  // A pointer or writable reference bound to N (at namespace scope here, N at column `column`): a
  // write through one, or any call, may write it.
  const auto through = [&](int column, const std::string& by) {
    return n + " has a pointer or reference bound to it at " + at(3, column) +
           ", and may be written through one by " + by + " at " + at(7, 3);
  };
  EXPECT_EQ(reason("int N = 500; int *P = &N;", "*P = 900;"), through(24, "'*P = 900'"));
  EXPECT_EQ(reason("int N = 500; int &R = N;", "R = 900;"), through(23, "'R = 900'"));
  EXPECT_EQ(reason("int N = 500; int *P = &N; void bump() { *P = 900; }", "bump();"),
            through(24, "the call of bump()"));
  EXPECT_EQ(reason("int N = 500; int *P = &N;", "printf(\"x\");"), through(24, "the call of printf()"));

  // Right as before: nothing between may write N (a library call, a function writing it called
  // before the assignment, a constructor that runs before main(), a pointer bound and no write, a
  // function writing a local of the same name): (700 + 63) / 64 = 11.
  for (const auto& [globals, between] : std::vector<std::pair<std::string, std::string>>{
           {"int N = 500; void bump() { N = 900; }", "printf(\"%d\", N);"},
           {"int N = 500; struct I { I() { N = 900; } } init;", ""},
           {"int N = 500; int *P = &N;", "int m = N + 1; (void)m;"},
           {"int N = 500; void other() { int N = 3; N = 900; }", "other();"}}) {
    const HostLaunch l = launch(globals, between);
    EXPECT_EQ(dims(l.grid), "11,1,1") << globals << " / " << between;
    EXPECT_EQ(l.arguments.size() == 2 ? l.arguments[1].value : "", "700") << globals << " / " << between;
  }
}

// The launch's configuration runs before its arguments (and its values in no order): a call in it
// that may write N makes N not computable for the sizes and the arguments.
TEST_F(HostLaunchTest, ACallInTheLaunchsConfigurationMayWriteWhatTheLaunchReads) {
  const auto found = launches(R"(__global__ void k(int *a, int n) { a[0] = n; }
int N = 500;
int threads() { N = 900; return 64; }
int main() {
  int *a;
  N = 700;
  k<<<(N + 63) / 64, threads()>>>(a, N);
}
)");
  ASSERT_EQ(found.size(), 1u);
  const std::string reason = "'N' (" + at(2, 5) + ") may be written by the call of threads() at " + at(7, 22);
  EXPECT_EQ(found[0].grid[0].reason, reason);
  EXPECT_EQ(found[0].arguments[1].reason, reason);
}

// A library's code (the standard library's, the CUDA runtime's) names none of the file's globals:
// printing N, growing a vector keep N = 700; it calls the file's code back only where the file
// hands it over: std::sort calls Cmp, which sets N = 900.
TEST_F(HostLaunchTest, LibraryCodeWritesAGlobalOnlyThroughWhatTheFileHandsIt) {
  const auto found = launches(R"(#include <algorithm>
#include <iostream>
#include <vector>
__global__ void k(int *a, int n) { a[0] = n; }
int N = 500;
struct Cmp { bool operator()(int x, int y) const { N = 900; return x < y; } };
int main() {
  int *a;
  std::vector<int> v(3);
  N = 700;
  std::cout << N << std::endl;
  v.push_back(N);
  cudaMalloc(&a, N * sizeof(int));
  k<<<(N + 63) / 64, 64>>>(a, N);
  std::sort(v.begin(), v.end(), Cmp());
  k<<<(N + 63) / 64, 64>>>(a, N);
}
)");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(dims(found[0].grid), "11,1,1");  // (700 + 63) / 64
  EXPECT_EQ(found[0].arguments[1].value, "700");
  EXPECT_EQ(found[1].arguments[1].reason,
            "'N' (" + at(5, 5) + ") may be written by the call of std::sort() at " + at(15, 3));
}

TEST_F(HostLaunchTest, AStaticMemberThatAMemberFunctionWritesIsNotComputableAfterItsCall) {
  const auto found = launches(R"(__global__ void k(int *a, int n) { a[0] = n; }
struct C { static int N; static void bump() { N = 900; } };
int C::N = 500;
int main() {
  int *a;
  C::N = 700;
  k<<<(C::N + 63) / 64, 64>>>(a, C::N);
  C::bump();
  k<<<(C::N + 63) / 64, 64>>>(a, C::N);
}
)");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(dims(found[0].grid), "11,1,1");  // (700 + 63) / 64, nothing between
  EXPECT_EQ(found[1].arguments[1].reason,
            "'N' (" + at(3, 8) + ") may be written by the call of C::bump() at " + at(8, 3));
}

// A switch whose condition has a value enters its body at the label that value selects: what comes
// before that label, after a break or return on the way, or in a switch no case matches, is never
// reached; a helper whose every call is such a place is never called.
TEST_F(HostLaunchTest, ASwitchOrACallSiteThatIsNeverReachedMakesNoLaunch) {
  const auto found = launches(R"(__global__ void k(int *a, int n) { a[0] = n; }
void run(int *a, int n) { k<<<n, 32>>>(a, n); }
int main() {
  int *a;
  int n = 5;
  switch (n) { case 4: k<<<1, 32>>>(a, 1); break; case 5: k<<<2, 32>>>(a, 2); }
  switch (n) { case 5: break; default: k<<<3, 32>>>(a, 3); }
  switch (n + 1) { case 1: run(a, 4); }
  if (n == 4) run(a, 5);
  switch (n) { case 5: return 0; }
  k<<<4, 32>>>(a, 4);
}
)");
  ASSERT_EQ(found.size(), 5u);
  const std::string is5 = "the condition 'n' of the switch at ";
  EXPECT_EQ(found[0].location, at(2, 27));
  EXPECT_EQ(found[0].never_made, "the program never calls run() (its call at " + at(8, 28) +
                                     ": the condition 'n + 1' of the switch at " + at(8, 3) +
                                     " is 6, which no case matches; its call at " + at(9, 15) +
                                     ": the condition 'n == 4' of the if at " + at(9, 3) + " is false)");
  EXPECT_EQ(found[1].never_made, is5 + at(6, 3) + " is 5, which enters it at " + at(6, 51) + ", after this");
  EXPECT_EQ(found[2].never_made, "");  // case 5: the one the program makes
  EXPECT_EQ(dims(found[2].grid), "2,1,1");
  EXPECT_EQ(found[3].never_made, is5 + at(7, 3) + " is 5, which enters it at " + at(7, 16) +
                                     ", and it leaves the switch at " + at(7, 24) + " before this");
  EXPECT_EQ(found[4].never_made, "the function main() leaves before it, at " + at(10, 24) + " (" + is5 +
                                     at(10, 3) + " is 5, which enters it at " + at(10, 16) + ")");

  // The everyday shape: a mode chosen by a constant; only the other helper is called.
  const auto modes = launches(R"(__global__ void naive(int *a, int n) { a[0] = n; }
void run_naive(int *a, int n) { naive<<<(n + 255) / 256, 256>>>(a, n); }
void run_tiled(int *a, int n) { (void)a; (void)n; }
int main() {
  const int mode = 1;
  int n = 1000, *a;
  if (mode == 0) run_naive(a, n);
  else run_tiled(a, n);
}
)");
  ASSERT_EQ(modes.size(), 1u);
  EXPECT_EQ(modes[0].never_made, "the program never calls run_naive() (its call at " + at(7, 18) +
                                     ": the condition 'mode == 0' of the if at " + at(7, 3) + " is false)");
}

// A helper called where the walk cannot list every call (an override, called through its base
// class; an operator() that std::for_each calls) may be called there: its dead direct call does not
// make its launch one the program never makes.
TEST_F(HostLaunchTest, AHelperCalledThroughItsBaseClassOrByALibraryTemplateMayBeCalled) {
  const auto found = launches(R"(#include <algorithm>
#include <vector>
__global__ void k(int *a, int n) { a[0] = n; }
struct B { virtual void run(int *a) { (void)a; } };
struct D : B { void run(int *a) override { k<<<2, 32>>>(a, 5); } };
struct F { int *a; void operator()(int) { k<<<3, 32>>>(a, 6); } };
int main() {
  int *a, n = 5;
  D d;
  if (n == 4) d.run(a);
  B *b = &d;
  b->run(a);
  std::vector<int> v(3);
  F f{a};
  if (n == 4) f(1);
  std::for_each(v.begin(), v.end(), f);
}
)");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].never_made, "");
  EXPECT_EQ(dims(found[0].grid), "2,1,1");
  EXPECT_EQ(found[1].never_made, "");
  EXPECT_EQ(dims(found[1].grid), "3,1,1");
}

// What leaves main() before a launch besides return and exit(): a loop that never ends but by
// leaving, a throw, a failing assert; a loop with a break, an assert that holds and a throw caught
// before it do not.
TEST_F(HostLaunchTest, AnEndlessLoopAThrowOrAFailingAssertBeforeTheLaunchLeaves) {
  const auto never = [&](const std::string& statement) {
    const auto found =
        launches("__global__ void k(int *a, int n) { a[0] = n; }\nint main() {\n  int *a; int n = 5;\n  " +
                 statement + "\n  k<<<1, 32>>>(a, n);\n}\n");
    EXPECT_EQ(found.size(), 1u) << statement;
    return found.empty() ? "?" : found[0].never_made;
  };
  const std::string endless = " (its condition is always true and nothing breaks out of it)";
  EXPECT_EQ(never("for (;;) { return 0; }"),
            "the function main() never gets past the loop at " + at(4, 3) + endless);
  EXPECT_EQ(never("while (true) { for (;;) break; }"),
            "the function main() never gets past the loop at " + at(4, 3) + endless);
  EXPECT_EQ(never("throw 1;"), "an exception is thrown before it, at " + at(4, 3));
  EXPECT_EQ(never("assert(n == 4);"), "the function main() leaves before it, at " + at(4, 3) +
                                          " (the assertion 'assert(n == 4)' fails)");
  EXPECT_EQ(never("while (true) { if (n == 5) break; }"), "");
  EXPECT_EQ(never("assert(n == 5);"), "");
  EXPECT_EQ(never("try { throw 1; } catch (...) {}"), "");
}

}  // namespace
