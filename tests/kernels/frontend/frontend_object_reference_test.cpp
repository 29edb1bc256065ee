// A reference of a class type (`const P& p`, `P& p`, a parameter or a local) bound to an element of
// global or shared memory: that element's address, as an int& is, so a member read through it is
// the member's load and a member write its store, where they run (inlined calls, operators, nested
// calls, the object a member function runs on, a member of the reference a call returns); one the
// front-end cannot place reports its accesses not counted, with the reason. Figures
// worked out by hand from the C layout (sizeof, member offsets), 32-byte sectors, 32 banks of 4
// bytes, warps of 32 threads, buffers aligned to 256 bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/source_dir.hpp"
#include "tests/text_helpers.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;
using Lines = std::vector<std::string>;
using Figures = std::vector<std::uint64_t>;

class FrontendObjectReference : public SnippetTest {
 protected:
  FrontendObjectReference() : SnippetTest("warpdiv_frontend_object_reference_") {}

  /// A replay of one block of `threads` threads, each buffer parameter `bytes` long.
  static ir::ReplayResult run(const ir::Kernel& k, std::uint32_t threads, std::uint64_t bytes = 2048) {
    ir::Launch l;
    l.grid = ir::Dim3{1, 1, 1};
    l.block = ir::Dim3{threads, 1, 1};
    l.arguments.assign(k.parameters.size(), ir::Value{});
    l.buffer_bytes.assign(k.parameters.size(), bytes);
    return ir::replay(k, l);
  }

  /// Access `i`'s requests, sectors (global) or wavefronts and conflicts (shared), and bytes asked.
  static Figures figures(const ir::Kernel& k, const ir::ReplayResult& r, std::size_t i) {
    const ir::AccessCounts& c = r.accesses.at(i);
    const bool shared = k.accesses.at(i).space == ir::AddressSpace::Shared;
    if (shared)
      return {static_cast<std::uint64_t>(c.requests), static_cast<std::uint64_t>(c.wavefronts),
              static_cast<std::uint64_t>(c.conflicts), static_cast<std::uint64_t>(c.bytes)};
    return {static_cast<std::uint64_t>(c.requests), static_cast<std::uint64_t>(c.sectors),
            static_cast<std::uint64_t>(c.bytes)};
  }

  /// The counts of the if on `line`: warp evaluations, divergent ones, lanes that take it.
  static Figures branch(const ir::Kernel& k, const ir::ReplayResult& r, std::uint32_t line) {
    const ir::StatementCounts& c = r.statements.at(statement_at(k, line, ir::StmtKind::If));
    return {static_cast<std::uint64_t>(c.warp_evaluations), static_cast<std::uint64_t>(c.divergent),
            static_cast<std::uint64_t>(c.taken_lanes)};
  }
};

// P is 16 bytes (a at 0, b at 4, c at 8): in[t].a of 32 lanes spans 512 bytes, one 4-byte word
// in every other 16 bytes: 16 sectors a warp, 2 warps. get(in[t]) reads it in get's body, as the
// local reference r does in the kernel's.
TEST_F(FrontendObjectReference, AConstReferenceParameterGivenAGlobalElementReadsItsMember) {
  const std::string head =
      "struct P { int a; short b; double c; };\n"
      "__device__ int get(const P &p) { return p.a; }\n"
      "__global__ void k(const P *in, int *o) {\n  int t = threadIdx.x;\n";
  for (const char* read : {"  int v = get(in[t]);\n", "  const P &r = in[t];\n  int v = r.a;\n"}) {
    const ir::Kernel k = load(head + read + "  o[t] = v;\n}\n");
    ASSERT_EQ(k.accesses.size(), 2u) << read << ::testing::PrintToString(accesses(k));
    EXPECT_EQ(k.accesses[0].kind, ir::AccessKind::Load) << read;
    EXPECT_EQ(k.accesses[0].reason, "") << read;
    EXPECT_EQ(k.bases.at(static_cast<std::size_t>(k.accesses[0].base)).name, "in") << read;
    const ir::ReplayResult r = run(k, 64);
    EXPECT_EQ(figures(k, r, 0), (Figures{2, 32, 256})) << read;
    EXPECT_EQ(figures(k, r, 1), (Figures{2, 8, 256})) << read;  // o[t]: 128 bytes a warp
  }
}

// s[(3 t) % 64].a: 16-byte elements, so word 4 idx, bank 4 (idx % 8). Warp 0 reads idx 0, 3 .. 63
// and 2, 5 .. 29; warp 1 idx 32, 35 .. 62 and 1, 4 .. 61: in each warp every residue of idx mod 8
// four times, 4 wavefronts (3 conflicts) a warp. k = s[t].a: idx % 8 four times each too. v =
// (3 t) % 64 + t < 40 for t 0 .. 9 and 22 .. 25: 14 lanes, all in warp 0.
TEST_F(FrontendObjectReference, AConstReferenceParameterGivenASharedElementIsCountedAndFollowed) {
  const ir::Kernel k = load(R"(struct P { int a; short b; double c; };
__device__ int get(const P &p, const int &k) { return p.a + k; }
__global__ void k(int *o) {
  __shared__ P s[64];
  int t = threadIdx.x;
  s[t].a = t; s[t].b = 1; s[t].c = 2.0;
  __syncthreads();
  int v = get(s[(t * 3) % 64], s[t].a);
  o[t] = v;
  if (v < 40) o[t] = 0;
}
)");
  for (const ir::MemoryAccess& a : k.accesses) EXPECT_EQ(a.reason, "") << a.text;
  const ir::ReplayResult r = run(k, 64);
  std::vector<Figures> loads;
  for (std::size_t i = 0; i < k.accesses.size(); ++i)
    if (k.accesses[i].kind == ir::AccessKind::Load) loads.push_back(figures(k, r, i));
  // k's copy (s[t].a, at the call), then p.a where get reads it.
  EXPECT_EQ(loads, (std::vector<Figures>{{2, 8, 6, 256}, {2, 8, 6, 256}}));
  EXPECT_EQ(branch(k, r, 10), (Figures{2, 1, 14}));
}

// set(s[t], 100) stores 100 in s[t].a: P is 8 bytes, s[t].a is word 2 t, bank (2 t) % 32, two lanes
// a bank: 2 wavefronts a warp. The branch then reads 100 in every lane, as after `s[t].a = 100;`.
// set(in[t], t) stores in[t].a, 8-byte stride: 256 bytes, 8 sectors a warp.
TEST_F(FrontendObjectReference, AWriteThroughAReferenceParameterIsTheMembersStore) {
  const ir::Kernel k = load(R"(struct P { int a; int b; };
__device__ void set(P &p, int v) { p.a = v; }
__global__ void k(P *in, int *o) {
  __shared__ P s[64];
  int t = threadIdx.x;
  s[t].a = 0;
  __syncthreads();
  set(s[t], 100);
  if (s[t].a > 50) o[t] = 1;
  set(in[t], t);
}
)");
  ASSERT_EQ(accesses(k).size(), 5u) << ::testing::PrintToString(accesses(k));
  const ir::ReplayResult r = run(k, 64);
  EXPECT_EQ(branch(k, r, 9), (Figures{2, 0, 64}));
  std::vector<Figures> stores;
  for (std::size_t i = 0; i < k.accesses.size(); ++i) {
    EXPECT_EQ(k.accesses[i].reason, "") << k.accesses[i].text;
    if (k.accesses[i].kind == ir::AccessKind::Store) stores.push_back(figures(k, r, i));
  }
  // s[t].a = 0, p.a = 100 (s[t]), o[t] = 1 (4-byte stride: 4 sectors a warp), p.a = t (in[t]).
  EXPECT_EQ(stores, (std::vector<Figures>{{2, 4, 2, 256}, {2, 4, 2, 256}, {2, 8, 256}, {2, 16, 256}}));
}

// An operator's operands, a reference passed on to a nested call, a local reference passed on:
// each member read is a load of the element's member. P is 8 bytes: a member of 32 consecutive
// elements spans 256 bytes, 8 sectors, 128 bytes asked, a request a warp.
TEST_F(FrontendObjectReference, OperatorsAndNestedCallsReadTheElementsMembers) {
  const std::string head = R"(struct P { int a; int b; };
__device__ P operator+(const P &x, const P &y) { P r; r.a = x.a + y.a; r.b = x.b + y.b; return r; }
__device__ int geta(const P &p) { return p.a; }
__device__ int sum(const P &q) { return geta(q) + q.b; }
__global__ void k(P *in, int *o) {
  int t = threadIdx.x;
)";
  // Body, loads from `in` (all member reads of 64 threads: 8 sectors each).
  const std::vector<std::pair<std::string, std::uint64_t>> cases = {
      {"  P r = in[t] + in[t + 64];\n  o[t] = r.a;\n", 4},  // x.a, y.a, x.b, y.b
      {"  P &r = in[t];\n  o[t] = geta(r);\n", 1},
      {"  o[t] = geta(in[t]) + geta(in[t + 64]);\n", 2},
      {"  o[t] = sum(in[t]);\n", 2},  // q.a through geta, q.b
  };
  for (const auto& [code, loads] : cases) {
    const ir::Kernel k = load(head + code + "}\n");
    const ir::ReplayResult r = run(k, 64);
    Figures total{0, 0, 0};
    for (std::size_t i = 0; i < k.accesses.size(); ++i) {
      EXPECT_EQ(k.accesses[i].reason, "") << code << k.accesses[i].text;
      if (k.accesses[i].kind != ir::AccessKind::Load) continue;
      const Figures f = figures(k, r, i);
      EXPECT_EQ(f, (Figures{2, 16, 256})) << code << k.accesses[i].text;
      for (std::size_t j = 0; j < 3; ++j) total[j] += f[j];
    }
    EXPECT_EQ(total, (Figures{2 * loads, 16 * loads, 256 * loads})) << code;
  }
}

// Bound to `t > 3 ? in[t] : in[t + 1]`, the reference is memory the front-end cannot place: its
// reads and writes are not counted, naming the reference and why; never dropped. Bound to one of
// two objects the model follows member by member, a write through it is refused.
TEST_F(FrontendObjectReference, AReferenceTheFrontEndCannotPlaceIsNotCountedWithTheReason) {
  const std::string head = R"(struct P { int a; int b; };
__device__ void set(P &p, int v) { p.a = v; }
__device__ int geta(const P &p) { return p.a; }
__global__ void k(P *in, int *o) {
  int t = threadIdx.x;
)";
  const std::string why = " (the model does not follow 't > 3 ? in[t] : in[t + 1]' to an address)";
  const ir::Kernel k = load(head + R"(  set(t > 3 ? in[t] : in[t + 1], 2);
  o[t] = geta(t > 3 ? in[t] : in[t + 1]);
  P &r = t > 3 ? in[t] : in[t + 1];
  r.b = o[t];
}
)");
  // geta runs before the statement that calls it: its load before the store to o[t].
  EXPECT_EQ(accesses(k), (Lines{"store global 4 p.a not placed: reached through the reference 'p'" + why,
                                "load global 4 p.a not placed: reached through the reference 'p'" + why,
                                "store global 4 o @ ((int64)t * 4:int64)",
                                "store global 4 r.b not placed: reached through the reference 'r'" + why,
                                "load global 4 o @ ((int64)t * 4:int64)"}));
  EXPECT_PRED2(contains, refusal(head + "  P x, y;\n  x.a = 1;\n  y.a = 2;\n  set(t > 3 ? x : y, 3);\n}\n"),
               "k.cu:9:7: the reference 'p' is bound to 't > 3 ? x : y', which the model cannot change "
               "through it");
}

// A member function called on an element (`s[t].set(t)`, `in[t].sum()`, `q->sum()`, a member
// operator's left operand, a member function it calls) runs on that element's address: `a`,
// `this->b`, `(*this).a` are its members' accesses. P is 8 bytes: s[u].a is word 2 u, bank
// (2 u) % 32, 2 lanes a bank for 32 consecutive u: 2 wavefronts a warp; global members 8 sectors
// a warp. s[(t + 1) % 64].sum() = 2 u + 1 > 20 for u = (t + 1) % 64 >= 10: t = 9 .. 62, 54
// lanes, in both warps (warp 0: t < 9 not, warp 1: t = 63, u = 0, not).
TEST_F(FrontendObjectReference, AMemberFunctionOfAnElementRunsOnItsAddress) {
  const std::string head = R"(struct P {
  int a; int b;
  __device__ int sum() const { return a + b; }
  __device__ void set(int v) { a = v; this->b = v + 1; }
  __device__ int twice() const { return sum() + (*this).a; }
  __device__ P operator+(const P &o) const { P r; r.a = a + o.a; r.b = b + o.b; return r; }
};
__global__ void k(P *in, int *o) {
  int t = threadIdx.x;
)";
  const ir::Kernel k = load(head + R"(  __shared__ P s[64];
  s[t].set(t);
  __syncthreads();
  if (s[(t + 1) % 64].sum() > 20) o[t] = 1;
  o[t] = in[t].sum();
  P r = in[t] + in[t + 64];
  o[t] = r.a + in[t].twice();
  P *q = &in[t];
  o[t] = q->sum();
}
)");
  const ir::ReplayResult r = run(k, 64);
  EXPECT_EQ(branch(k, r, 13), (Figures{2, 2, 54}));
  std::vector<Figures> shared;
  Figures global_loads{0, 0, 0};
  for (std::size_t i = 0; i < k.accesses.size(); ++i) {
    EXPECT_EQ(k.accesses[i].reason, "") << k.accesses[i].text;
    const Figures f = figures(k, r, i);
    if (k.accesses[i].space == ir::AddressSpace::Shared) shared.push_back(f);
    if (k.accesses[i].space == ir::AddressSpace::Global && k.accesses[i].kind == ir::AccessKind::Load) {
      EXPECT_EQ(f, (Figures{2, 16, 256})) << k.accesses[i].text;
      for (std::size_t j = 0; j < 3; ++j) global_loads[j] += f[j];
    }
  }
  // set's a and b, sum's a and b.
  EXPECT_EQ(shared, (std::vector<Figures>(4, Figures{2, 4, 2, 256})));
  // in[t].sum(): 2 members; operator+: 4; twice(): sum's 2 and (*this).a; q->sum(): 2.
  EXPECT_EQ(global_loads, (Figures{2 * 11, 16 * 11, 256 * 11}));
  // On an element the front-end cannot place: not counted, naming 'this' and why.
  const ir::Kernel unplaced = load(head + "  o[t] = (t > 3 ? in[t] : in[t + 1]).sum();\n}\n");
  const std::string why =
      " not placed: reached through 'this' (the model does not follow 't > 3 ? in[t] : in[t + 1]' to an "
      "address)";
  EXPECT_EQ(accesses(unplaced), (Lines{"load global 4 a" + why, "load global 4 b" + why,
                                       "store global 4 o @ ((int64)t * 4:int64)"}));
}

// A member of the reference a call returns: where the call returns its argument, that argument's
// member (in[t].b: a store of 8 sectors a warp; x.a of a local the model follows, which the branch
// then reads as 5 in all 64 lanes); where the front-end cannot place what it returns, not counted
// with the reason; a write through an accessor of shared memory makes the shared values unknown,
// so a branch on them is refused naming it (never read as before the write).
TEST_F(FrontendObjectReference, AMemberOfAReturnedReferenceIsItsArgumentsOrNotCounted) {
  const std::string head = R"(struct P { int a; int b; };
__device__ const P &ref(const P *p, int i) { return p[i]; }
__device__ P &pick(P &a) { return a; }
__device__ int geta(const P &p) { return p.a; }
struct Buf { P d[64]; __device__ P &operator[](int i) { return d[i]; } };
__global__ void k(P *in, int *o) {
  int t = threadIdx.x;
)";
  const ir::Kernel k = load(head + R"(  o[t] = ref(in, t).a;
  pick(in[t]).b = 3;
  P x;
  x.a = 1;
  pick(x).a = 5;
  if (x.a > 4) o[t] = 1;
}
)");
  EXPECT_EQ(
      accesses(k),
      (Lines{"store global 4 o @ ((int64)t * 4:int64)",
             "load global 4 ref(in, t).a not placed: the model does not follow 'ref(in, t)' to an address",
             "store global 4 in @ (((int64)t * 8:int64) + 4:int64)",
             "store global 4 o @ ((int64)t * 4:int64)"}));
  const ir::ReplayResult r = run(k, 64);
  EXPECT_EQ(figures(k, r, 2), (Figures{2, 16, 256}));
  EXPECT_EQ(branch(k, r, 13), (Figures{2, 0, 64}));
  // Passed on to a const P& parameter, the same: geta's p.a is not counted, naming the call.
  EXPECT_EQ(
      accesses(load(head + "  o[t] = geta(ref(in, t));\n}\n")),
      (Lines{"load global 4 p.a not placed: reached through the reference 'p' (the model does not follow "
             "'ref(in, t)' to an address)",
             "store global 4 o @ ((int64)t * 4:int64)"}));
  const std::string refused = refusal(head + R"(  __shared__ Buf buf;
  buf.d[t].a = 0;
  __syncthreads();
  buf[t].a = t;
  __syncthreads();
  if (buf.d[t].a > 3) o[t] = 1;
}
)");
  EXPECT_PRED2(contains, refused,
               "the kernel writes shared memory where the model cannot place it ('buf[t].a' at ");
  EXPECT_PRED2(contains, refused, "k.cu:11:3: the model does not follow 'buf[t]' to an address)");
}

}  // namespace
}  // namespace warpdiv::testing
