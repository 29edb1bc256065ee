// The Clang front-end on C++ as real suites write it: members of structs and class templates,
// operators, constructors, references, objects followed member by member, bit intrinsics.
// Expected models and counts are written out by hand (as in frontend_test.cpp).
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
  // A warp function stored or given to an atomic, run by lanes 0 .. 7: lanes 8 .. 15 of the mask
  // 0xffff never run it (the first named is thread 8); with the mask 0xff, lane 0 reads lane 12,
  // which does not run it. Run by the whole warp, reading lane i + 1 (mod 32) is defined.
  const std::string not_running = " has not exited and does not run it in block (0, 0, 0), thread (8, 0, 0)";
  EXPECT_EQ(error("  if (i < 8) o[i] = __shfl_sync(0xffffu, i, 0);"),
            "k.cu:3:21: undefined behaviour: a lane named in the mask of shfl" + not_running);
  EXPECT_EQ(error("  if (i < 8) o[i] = __shfl_sync(0xffu, i, 12);"),
            "k.cu:3:21: undefined behaviour: shfl reads lane 12, which does not run it in block (0, 0, 0), "
            "thread (0, 0, 0)");
  EXPECT_EQ(error("  if (i < 8) atomicAdd(&o[0], __ballot_sync(0xffffu, i > n));"),
            "k.cu:3:31: undefined behaviour: a lane named in the mask of ballot" + not_running);
  EXPECT_EQ(error("  o[i] = __shfl_sync(0xffffffffu, i, i + 1);"), "");
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

/// How many statements of `kind` the model has on `line`.
std::size_t statements_on(const ir::Kernel& k, std::uint32_t line, ir::StmtKind kind) {
  std::size_t n = 0;
  for (const auto& s : k.stmts) n += s.kind == kind && s.range.line == line ? 1 : 0;
  return n;
}

// An object initialised from a temporary is that temporary, followed member by member as one
// written with braces is: P{...}, a function or a free or member operator returning the class by
// value (each `return` initialises it), P{p} of its own class, braces with a base, a const
// reference bound to a temporary; an assignment from one copies it once it is whole.
TEST_F(FrontendTest, AnObjectInitialisedFromATemporaryIsFollowedMemberByMember) {
  const ir::Kernel k = load(R"(struct P { int a; int b; };
struct D : P { int c; };
__device__ P mk(int t) { P r; r.a = t; r.b = 2 * t; return r; }
__device__ P operator+(const P &x, const P &y) { P r; r.a = x.a + y.a; r.b = x.b + y.b; return r; }
__device__ P pick(int t) { if (t % 4 == 0) return P{t, 100}; return mk(t + 1); }
__device__ P swap(const P &p) { return P{p.b, p.a}; }
struct Q { int v; __device__ Q(int x) : v(x) {} __device__ Q operator-(const Q &o) const { return Q(v - o.v); } };
__global__ void k(int *o) {
  int t = threadIdx.x;
  P w1 = P{t, 2 * t};
  if (w1.b > 5) o[0] = 1;
  P w2 = mk(t);
  if (w2.b > 9) o[1] = 1;
  P x{t, 0}, y{0, 3 * t};
  P w3 = x + y;
  if (w3.a + w3.b > 12) o[2] = 1;
  P w4 = pick(t);
  if (w4.b > 6) o[3] = 1;
  Q q = Q(10) - Q(t);
  if (q.v < 7) o[4] = 1;
  w1 = swap(w1);
  if (w1.b > 4) o[5] = 1;
  const P &r = mk(t + 2);
  if (r.a > 5) o[6] = 1;
  P w5{mk(t)};
  if (w5.b == 6) o[7] = 1;
  D d{{t, 1}, 5};
  if (d.a + d.c > 10) o[8] = 1;
}
)");
  // 8 threads t = 0 .. 7, one warp of 8; every if below is divergent.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {}));
  const auto taken = [&](std::uint32_t line, std::uint64_t lanes) {
    EXPECT_EQ(counts(r, statement_at(k, line, ir::StmtKind::If)),
              (std::vector<std::uint64_t>{1, 1, 8, lanes}))
        << "line " << line;
  };
  taken(5, 2);   // pick: t % 4 == 0 for t = 0, 4
  taken(11, 5);  // w1.b = 2t > 5: t = 3 .. 7
  taken(13, 3);  // w2.b = 2t > 9: t = 5, 6, 7
  taken(16, 4);  // w3 = {t, 3t}: 4t > 12 for t = 4 .. 7
  taken(18, 6);  // w4.b: 100 for t = 0, 4; else 2(t + 1) > 6 for t = 3, 5, 6, 7
  taken(20, 4);  // q.v = 10 - t < 7: t = 4 .. 7
  taken(22, 3);  // w1 = {2t, t} after the swap (not {2t, 2t}): t > 4 for t = 5, 6, 7
  taken(24, 4);  // r.a = t + 2 > 5: t = 4 .. 7
  taken(26, 1);  // w5.b = 2t == 6: t = 3
  taken(28, 2);  // d.a + d.c = t + 5 > 10: t = 6, 7
}

// c ? x : y of two objects the model follows is a select of each member (no branch: a condition
// the model cannot compute only makes the members unknown); of anything else an if, whose arm
// alone runs its call.
// Each temporary arm of c ? P{...} : P{...} is computed in the lanes that pick it alone, as C++
// evaluates the chosen arm only: thread 3 takes P{7, 1} and never divides by t - 3. w.a + w.b > 10:
// t != 3 gives 1 + 100 / (t - 3), at least 11 for t = 4 .. 13 (10 lanes; t < 3 negative, t = 14
// gives 1 + 9); thread 3 gives 8. One warp of 32.
TEST_F(FrontendTest, ATemporaryArmOfAConditionalRunsInTheLanesThatPickIt) {
  const ir::Kernel k = load(R"(struct P { int a; int b; };
__global__ void k(int *o) {
  int t = threadIdx.x;
  P w = t != 3 ? P{1, 100 / (t - 3)} : P{7, 1};
  if (w.a + w.b > 10) o[t] = 1;
}
)");
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {32, 1, 1}, 32, {}));
  EXPECT_EQ(counts(r, statement_at(k, 5, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 32, 10}));
}

// A member of braces where nothing can run before the statement (the right operand of &&, an arm
// of ?: in a condition, a loop's condition) is its braces' item: P{t, 1}.a > 5 holds for t = 6
// .. 63, and t > 1 && ... for the same 58 lanes; thread 3 never divides by t - 3 (t != 3 first):
// 100 / (t - 3) > 0 for t = 4 .. 63 (60 lanes of 64, t < 3 negative); the loop runs while t < 40.
TEST_F(FrontendTest, AMemberOfBracesInAConditionIsItsItem) {
  const ir::Kernel k = load(R"(struct P { int a; int b; };
__global__ void k(int *o) {
  int t = threadIdx.x;
  if (t > 1 && P{t, 1}.a > 5) o[t] = 1;
  if (t > 1 ? P{t, 1}.a > 5 : false) o[t] = 2;
  if (t != 3 && P{1, 100 / (t - 3)}.b > 0) o[t] = 3;
  while (t < 64 && P{t, 1}.a < 40) t += 32;
}
)");
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {64, 1, 1}, 32, {}));
  EXPECT_EQ(r.statements[statement_at(k, 4, ir::StmtKind::If)].taken_lanes, 58u);
  EXPECT_EQ(r.statements[statement_at(k, 5, ir::StmtKind::If)].taken_lanes, 58u);
  EXPECT_EQ(r.statements[statement_at(k, 6, ir::StmtKind::If)].taken_lanes, 60u);
  EXPECT_EQ(r.statements[statement_at(k, 7, ir::StmtKind::Loop)].taken_lanes, 48u);  // 40, then 8
}

TEST_F(FrontendTest, AnObjectInitialisedFromAConditionalTakesTheArmItsLanePicks) {
  const ir::Kernel k = load(R"(struct P { int a; int b; };
__device__ P mk(int t) { P r; r.a = t; r.b = 2 * t; return r; }
__global__ void k(const int *in, int *o) {
  int t = threadIdx.x;
  P x{t, 0}, y{0, 3 * t};
  P w = t % 2 ? x : y;
  if (w.a + w.b > 3) o[0] = 1;
  P v = t < 3 ? mk(t) : P{1, 1};
  if (v.b > 2) o[1] = 1;
  P u = in[t] > 0 ? x : y;
  o[t] = u.a;
  __shared__ P s[8];
  s[t] = P{t, 2 * t};
  __syncthreads();
  P m = t % 2 ? s[t] : s[7 - t];
  if (m.a > 3) o[2] = 1;
  P z = in[t] > 0 ? s[t] : x;
  o[t] = z.b;
}
)");
  for (const std::uint32_t line : {6u, 10u, 15u, 17u})
    EXPECT_EQ(statements_on(k, line, ir::StmtKind::If), 0u);
  // 8 threads, one warp of 8. w: x = {t, 0} for odd t, t > 3 for t = 5, 7; y = {0, 3t} for even
  // t, 3t > 3 for t = 2, 4, 6. v: mk(t) for t = 0, 1, 2, 2t > 2 for t = 2 alone; {1, 1} elsewhere.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {}));
  EXPECT_EQ(counts(r, statement_at(k, 7, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 5}));
  EXPECT_EQ(counts(r, statement_at(k, 8, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 3}));
  EXPECT_EQ(counts(r, statement_at(k, 9, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 1}));
  // m: s[t].a = t > 3 for odd t = 5, 7; s[7 - t].a = 7 - t > 3 for even t = 0, 2.
  EXPECT_EQ(counts(r, statement_at(k, 16, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 4}));
  // Each arm's loads, one a member, are made by the 4 lanes that pick it: 16 bytes each.
  std::vector<std::string> loads;
  for (std::size_t i = 0; i < k.accesses.size(); ++i) {
    if (k.accesses[i].range.line != 15) continue;
    loads.push_back(k.accesses[i].text);
    EXPECT_EQ(r.accesses.at(i).bytes, 16u) << k.accesses[i].text;
  }
  EXPECT_EQ(loads, (std::vector<std::string>{"s[t].a", "s[t].b", "s[7 - t].a", "s[7 - t].b"}));
}

// Undefined behaviour in an object made from a temporary is named where a thread meets it, as in
// the object written with braces (the first form): w.a - 3 is 0 in thread 3.
TEST_F(FrontendTest, UndefinedBehaviourInAnObjectMadeFromATemporaryIsNamed) {
  const std::string head =
      "struct P { int a; int b; };\n"
      "__device__ P mk(int t) { P r; r.a = t; r.b = 2 * t; return r; }\n"
      "__device__ P operator+(const P &x, const P &y) { P r; r.a = x.a + y.a; r.b = x.b + y.b; return r; }\n"
      "__global__ void k(int *o) {\n  int t = threadIdx.x;\n  P x{t, 0}, y{0, 2 * t};\n";
  for (const std::string made : {"P w{t, 2 * t};", "P w = P{t, 2 * t};", "P w = mk(t);", "P w = x + y;"}) {
    const ir::Kernel k = load(head + "  " + made + "\n  o[t] = 100 / (w.a - 3);\n}\n");
    try {
      ir::replay(k, launch(k, {1, 1, 1}, {32, 1, 1}, 32, {}));
      ADD_FAILURE() << made << ": the division by zero was not named";
    } catch (const InvalidInput& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.substr(what.find("k.cu:")),
                "k.cu:8:10: undefined behaviour: division by zero in '/' (int32) in block (0, 0, 0), thread "
                "(3, 0, 0)")
          << made;
    }
  }
}

// A copy of a whole object out of shared memory loads each member alone (P is 8 bytes of
// alignment 4), and each member holds its own load's value, as s[i].a read alone does. 64
// threads, two warps: s[i] = {i, {2i}}.
TEST_F(FrontendTest, AnObjectCopiedFromSharedMemoryHoldsTheValuesLoaded) {
  const ir::Kernel k = load(R"(struct In { int x; };
struct P { int a; In in; };
__global__ void k(int *o) {
  __shared__ P s[64];
  int t = threadIdx.x;
  s[t].a = t; s[t].in.x = 2 * t;
  __syncthreads();
  P q = s[(t + 32) % 64];
  if (q.a > 40) o[t] = 4;
  if (q.in.x > 100) o[t] = 5;
  q = s[(t + 16) % 64];
  if (q.a > 60) o[t] = 6;
}
)");
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {64, 1, 1}, 32, {}));
  // (t + 32) % 64 > 40 for t = 9 .. 31 (warp 0; warp 1 reads 0 .. 31).
  EXPECT_EQ(counts(r, statement_at(k, 9, ir::StmtKind::If)), (std::vector<std::uint64_t>{2, 1, 64, 23}));
  // 2 ((t + 32) % 64) > 100 for t = 19 .. 31.
  EXPECT_EQ(counts(r, statement_at(k, 10, ir::StmtKind::If)), (std::vector<std::uint64_t>{2, 1, 64, 13}));
  // (t + 16) % 64 > 60 for t = 45, 46, 47 (warp 1; warp 0 reads 16 .. 47).
  EXPECT_EQ(counts(r, statement_at(k, 12, ir::StmtKind::If)), (std::vector<std::uint64_t>{2, 1, 64, 3}));
}

// A copy of an object the model follows into shared memory stores each member alone, and each
// store writes that member's value: a local (s[t] = x) or a temporary made before the statement
// (u[t] = mk(63 - t)). 64 threads, two warps.
TEST_F(FrontendTest, AnObjectStoredToSharedMemoryStoresItsMembersValues) {
  const ir::Kernel k = load(R"(struct P { int a; int b; };
__device__ P mk(int t) { P r; r.a = t; r.b = 2 * t; return r; }
__global__ void k(int *o) {
  __shared__ P s[64], u[64];
  int t = threadIdx.x;
  P x{t, 3 * t};
  s[t] = x;
  u[t] = mk(63 - t);
  __syncthreads();
  if (s[(t + 1) % 64].b > 150) o[t] = 1;
  if (u[t].a + u[t].b < 30) o[t] = 2;
}
)");
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {64, 1, 1}, 32, {}));
  // 3 ((t + 1) % 64) > 150 for t + 1 = 51 .. 63: t = 50 .. 62, in warp 1.
  EXPECT_EQ(counts(r, statement_at(k, 10, ir::StmtKind::If)), (std::vector<std::uint64_t>{2, 1, 64, 13}));
  // u[t] = {63 - t, 2 (63 - t)}: 3 (63 - t) < 30 for t = 54 .. 63, in warp 1.
  EXPECT_EQ(counts(r, statement_at(k, 11, ir::StmtKind::If)), (std::vector<std::uint64_t>{2, 1, 64, 10}));
}

// A member of a temporary (mk(t).in.x, P{t, {1}}.a) is that member of an object made before the
// statement, as a local's member is: a branch on it is counted and an address holding it placed.
TEST_F(FrontendTest, AMemberOfATemporaryIsItsObjectsMember) {
  const ir::Kernel k = load(R"(struct In { int x; };
struct P { int a; In in; };
__device__ P mk(int t) { P r; r.a = t; r.in.x = 2 * t; return r; }
__global__ void k(int *o) {
  int t = threadIdx.x;
  if (mk(t).in.x > 5) o[0] = 1;
  int v = P{t, {1}}.a + mk(t).a;
  if (v > 4) o[1] = 1;
  o[mk(t).a] = 2;
}
)");
  ASSERT_EQ(k.accesses.size(), 3u);
  EXPECT_EQ(k.accesses[2].range.line, 9u);
  EXPECT_EQ(k.accesses[2].reason, "");
  // 8 threads, one warp of 8: 2t > 5 and t + t > 4 for t = 3 .. 7; o[t] is 32 bytes in one sector.
  const ir::ReplayResult r = ir::replay(k, launch(k, {1, 1, 1}, {8, 1, 1}, 8, {}));
  EXPECT_EQ(counts(r, statement_at(k, 6, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 5}));
  EXPECT_EQ(counts(r, statement_at(k, 8, ir::StmtKind::If)), (std::vector<std::uint64_t>{1, 1, 8, 5}));
  EXPECT_EQ(r.accesses.at(2).requests, 1u);
  EXPECT_EQ(r.accesses.at(2).sectors, 1u);
}

// A temporary the model does not make member by member is refused, naming it and where it is.
TEST_F(FrontendTest, ATemporaryTheModelCannotFollowIsRefused) {
  EXPECT_PRED2(
      warpdiv::testing::contains,
      refusal("struct P { int a; int b; };\n__global__ void k(int *o) {\n  int t = threadIdx.x;\n"
              "  P w = (t > 1, P{t, t});\n  o[t] = w.a;\n}\n"),
      "k.cu:4:10: 't > 1, P{t, t}' makes a P the model does not follow member by member: not supported");
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

// A kernel's struct parameter (the Programming Guide's MatMulKernel(Matrix A, ...)): no flag gives
// its members values, so a branch on one is an unsupported construct that says so, not a branch
// on data.
TEST_F(FrontendTest, AMemberOfAStructParameterIsNamedUnsupported) {
  const std::string source = R"(
typedef struct { int width; int stride; float* elements; } Matrix;
__global__ void k(Matrix A, float* out) {
  float s = 0;
  for (int m = 0; m < A.width / 16; ++m) s += A.elements[m * A.stride + threadIdx.x];
  out[threadIdx.x] = s;
}
)";
  try {
    load(source);
    ADD_FAILURE() << "not refused";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.diag(), warpdiv::Diag::unsupported_construct) << e.what();
    EXPECT_PRED2(warpdiv::testing::contains, std::string(e.what()),
                 "a member of the kernel's struct parameter 'A': the model is given a kernel's scalar and "
                 "pointer parameters only");
  }
}

// sincosf(x, &s, &c) and modff(x, &s) write float locals through their addresses, which the model
// does not follow (it reads them as opaque): no refusal where they are only stored; a branch on one
// is refused as an unsupported construct naming the call given the address, as a branch on sinf
// names sinf. memset on memory the model may follow is refused, naming the call.
TEST_F(FrontendTest, AMathCallWritingFloatLocalsThroughTheirAddressIsNoRefusal) {
  const std::string head = "__global__ void k(float* o, int* d) {\n  int t = threadIdx.x;\n  float s, c;\n";
  EXPECT_EQ(refusal(head + "  sincosf(o[t], &s, &c);\n  o[t] = s + c;\n}\n"), "");
  const auto branch = [&](const std::string& call) {
    try {
      load(head + "  " + call + ";\n  if (s < 0.5f) o[t] = 1;\n}\n");
    } catch (const InvalidInput& e) {
      EXPECT_EQ(e.diag(), warpdiv::Diag::unsupported_construct) << e.what();
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string why = "), and the model does not follow what is written through it: not supported";
  for (const std::string call : {"sincosf(o[t], &s, &c)", "modff(o[t], &s)"}) {
    const std::string message = branch(call);
    EXPECT_PRED2(warpdiv::testing::contains, message,
                 "k.cu:5:3: the condition of this if depends on s (floating point) (");
    EXPECT_PRED2(warpdiv::testing::contains, message, "k.cu:5:7), its address is given to '" + call + "' (");
    EXPECT_PRED2(warpdiv::testing::contains, message, "k.cu:4:3" + why);
  }
  EXPECT_PRED2(warpdiv::testing::contains, refusal(head + "  memset(d + t, 0, 4);\n}\n"),
               "k.cu:4:3: 'memset' may write through its argument 'd + t', which the model cannot follow");
}

}  // namespace
