// The front-end's memory accesses (sim/model/ir.hpp, MemoryAccess): each load, store and atomic of a
// CUDA snippet with its base and byte offset, written out by hand from the C types (sizeof,
// member offsets, the index's conversion to a 64-bit byte count) as an s-expression
// (tests/kernels/model_text.hpp), and what the model cannot place with its reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/ir_replay.hpp"
#include "sim/model/ir_json.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/source_dir.hpp"
#include "tests/text_helpers.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

class FrontendMemory : public SnippetTest {
 protected:
  FrontendMemory() : SnippetTest("warpdiv_frontend_memory_") {}

  /// The counts of the if on `line` in a launch of one block of 32 threads.
  static ir::StatementCounts branch_at(const ir::Kernel& k, std::uint32_t line) {
    ir::Launch l;
    l.grid = ir::Dim3{1, 1, 1};
    l.block = ir::Dim3{32, 1, 1};
    l.arguments.assign(k.parameters.size(), ir::Value{});
    return ir::replay(k, l).statements.at(statement_at(k, line, ir::StmtKind::If));
  }

  /// Floating-point operations per statement with their guard, "N" or "N if guard", in id order.
  static std::vector<std::string> flops(const ir::Kernel& k) {
    std::vector<std::string> out;
    for (const ir::Stmt& s : k.stmts)
      for (const ir::FloatOps& f : s.flops)
        out.push_back(std::to_string(f.operations) +
                      (f.guard != ir::kNone ? " if " + sexpr(k, f.guard) : ""));
    return out;
  }
};

using Lines = std::vector<std::string>;

// A member operator[] returning an element of its object's array (rodinia dwt2d's transform
// buffer): a write through it is memory the model cannot place, in the space of the object it is
// called on (through `this` too), never a refusal; a write through a call that may return a
// local is.
TEST_F(FrontendMemory, WritesThroughAnAccessorReturningAnElementAreUnplacedInTheObjectsSpace) {
  const std::string accessor = R"(
struct Buf {
  int data[64];
  __device__ int &operator[](const int i) { return data[i]; }
  __device__ void fill(int i, int v) { (*this)[i] = v; }
};
)";
  const ir::Kernel k = load(accessor + R"(
__global__ void k(int *out) {
  __shared__ Buf buffer;
  int t = threadIdx.x;
  buffer[t] = t;
  buffer.fill(t, 1);
  buffer[t] += 2;
}
)");
  const std::string why = " not placed: written through the reference that 'operator[]' returns";
  Lines stores;
  for (const std::string& a : accesses(k))
    if (a.find(why) != std::string::npos) stores.push_back(a);
  EXPECT_EQ(stores, (Lines{"store shared 1 buffer[t]" + why, "store shared 1 (*this)[i]" + why,
                           "load shared 1 buffer[t]" + why, "store shared 1 buffer[t]" + why}));
  // Its values are then not followed: a branch on them names the write.
  EXPECT_PRED2(warpdiv::testing::contains, refusal(accessor + R"(
__global__ void k(int *out) {
  __shared__ Buf buffer;
  int t = threadIdx.x;
  buffer.data[t] = 0;
  buffer[t] = t;
  __syncthreads();
  if (buffer.data[t] < 16) out[t] = 1;
}
)"),
               "the kernel writes shared memory where the model cannot place it ('buffer[t]' at ");
  EXPECT_PRED2(warpdiv::testing::contains, refusal(R"(
__device__ int &pick(int *p, int &a) { if (p) return p[0]; return a; }
__global__ void k(int *out) {
  int m = 0;
  pick(out, m) = 16;
  if (threadIdx.x < m) out[0] = 1;
}
)"),
               "not supported");
}

TEST_F(FrontendMemory, SubscriptsOfParametersAndSharedArrays) {
  const ir::Kernel k = load(R"(
__global__ void k(float* a, const float* b, int n, unsigned u, size_t z) {
  __shared__ float s[4][8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = b[u] + b[z];
  s[threadIdx.y][threadIdx.x] = a[i + 1];
}
)");
  EXPECT_EQ(
      accesses(k),
      (Lines{// a[i] = ...: an int index, 4-byte floats.
             "store global 4 a @ ((int64)i * 4:int64)",
             // unsigned and size_t indices convert to the 64-bit byte count as C converts them.
             "load global 4 b @ ((int64)param:u * 4:int64)", "load global 4 b @ ((int64)param:z * 4:int64)",
             // float[4][8]: a row is 8 x 4 = 32 bytes.
             "store shared 4 s @ (((int64)threadIdx.y * 32:int64) + ((int64)threadIdx.x * 4:int64))",
             "load global 4 a @ ((int64)(i + 1:int32) * 4:int64)"}));
  ASSERT_EQ(k.bases.size(), 3u);          // the pointer parameters a, b (in order), then s
  EXPECT_EQ(k.bases[0].alignment, 256u);  // cudaMalloc's guarantee
  EXPECT_EQ(k.bases[2].name, "s");
  EXPECT_EQ(k.bases[2].bytes, 128u);  // 4 x 8 floats
  EXPECT_EQ(ir::name(k.bases[2].space), "shared");
  EXPECT_EQ(flops(k), (Lines{"1"}));  // b[u] + b[z]
}

TEST_F(FrontendMemory, PointersTheModelFollows) {
  const ir::Kernel k = load(R"(
__device__ float get(const float* p, int j) { return p[j]; }
__global__ void k(float* a, const float* b, int n) {
  int i = threadIdx.x;
  const float* row = b + i * n;
  float acc = 0;
  for (int c = 0; c < n; ++c) acc += row[c];
  float* p = a + 2;
  p += n;
  p[0] = acc;
  ++p;
  *p = get(b, i + 3);
}
)");
  EXPECT_EQ(accesses(k), (Lines{// row holds b's offset i * n * 4 (its declaration); row[c] adds c * 4.
                                "load global 4 b @ (row + ((int64)c * 4:int64))",
                                // p = a + 2, then p += n, ++p: p[0] and *p at p's offset.
                                "store global 4 a @ p",
                                // get's p is b (offset 0), j = i + 3.
                                "load global 4 b @ (p + ((int64)j * 4:int64))", "store global 4 a @ p"}));
  // The offsets' locals: row = (int64)(i * n) * 4 ...
  std::vector<std::string> declared;
  for (const ir::Stmt& s : k.stmts)
    if (s.kind == ir::StmtKind::Declare && k.locals[s.local].type == ir::ScalarType::I64)
      declared.push_back(k.locals[s.local].name + " = " + sexpr(k, s.value));
  EXPECT_EQ(declared, (Lines{"row = ((int64)(i * param:n) * 4:int64)", "p = 8:int64", "p = 0:int64"}));
  std::vector<std::string> assigned;
  for (const ir::Stmt& s : k.stmts)
    if (s.kind == ir::StmtKind::Assign && k.locals[s.local].type == ir::ScalarType::I64)
      assigned.push_back(k.locals[s.local].name + " = " + sexpr(k, s.value));
  EXPECT_EQ(assigned, (Lines{"p = (p + ((int64)param:n * 4:int64))", "p = (p + 4:int64)"}));
}

TEST_F(FrontendMemory, MembersVectorsAtomicsAndGuards) {
  const ir::Kernel k = load(R"(
struct P { float x; float y; int tag; };
__global__ void k(float* a, const float* b, P* pts, int* hist, int n) {
  int i = threadIdx.x;
  a[0] = pts[i].y;
  atomicAdd(&hist[i % 16], 1);
  float v = (i < n) ? a[i] : 0.0f;
  a[i] = fmaf(v, v, 1.0f) * 2.0f;
  float w = reinterpret_cast<const float4*>(b)[i].z;
  a[i + 1] = w;
}
)");
  EXPECT_EQ(accesses(k), (Lines{"store global 4 a @ 0:int64",
                                // sizeof(P) = 12, y at 4.
                                "load global 4 pts @ (((int64)i * 12:int64) + 4:int64)",
                                "atomic global 4 hist @ ((int64)(i % 16:int32) * 4:int64)",
                                // Only the lanes with i < n read a[i].
                                "load global 4 a @ ((int64)i * 4:int64) if (i < param:n)",
                                "store global 4 a @ ((int64)i * 4:int64)",
                                // float4 is 16 bytes, z at 8.
                                "load global 4 b @ (((int64)i * 16:int64) + 8:int64)",
                                "store global 4 a @ ((int64)(i + 1:int32) * 4:int64)"}));
  // fmaf is 2, the multiply 1.
  EXPECT_EQ(flops(k), (Lines{"3"}));
}

// A load under && and || whose guards themselves hold && (cuda-samples' mergeSort binary search):
// each guard is the conditions before it, the inner ones lowered with guards of their own.
TEST_F(FrontendMemory, AGuardHoldingLogicalOperatorsGuardsTheLoadsAfterIt) {
  const ir::Kernel k = load(R"(
__global__ void k(unsigned *d, unsigned v, unsigned s) {
  unsigned i = threadIdx.x;
  if ((s && (d[i] < v)) || (!s && (d[i + 1] > v))) d[i] = 0;
}
)");
  // d[i] where s holds (the left of s && ...); d[i + 1] where the left of || failed and !s holds.
  EXPECT_EQ(accesses(k),
            (Lines{"store global 4 d @ ((int64)i * 4:int64)",
                   "load global 4 d @ ((int64)i * 4:int64) if (bool)param:s",
                   "load global 4 d @ ((int64)(i + (uint32)1:int32) * 4:int64) if ((!((bool)param:s && "
                   "(opaque:uint32{d[i] (global memory)} < param:v))) && (!(bool)param:s))"}));
}

TEST_F(FrontendMemory, WholeObjectsMoveAsTheCompilerMovesThem) {
  const ir::Kernel k = load(R"(
struct P { float x; float y; int tag; };
struct Q { float x, y; };
__global__ void k(float* a, const float* b, P* pts, Q* qs) {
  int i = threadIdx.x;
  float4 v4 = reinterpret_cast<const float4*>(b)[i];
  reinterpret_cast<float4*>(a)[i] = v4;
  float2 v2 = reinterpret_cast<const float2*>(b)[i];
  P q = pts[i];
  Q r = qs[i];
  qs[i + 1] = r;
}
)");
  EXPECT_EQ(
      accesses(k),
      (Lines{// float4 and float2: size = alignment, one 16- and one 8-byte access.
             "load global 16 b @ ((int64)i * 16:int64)", "store global 16 a @ ((int64)i * 16:int64)",
             "load global 8 b @ ((int64)i * 8:int64)",
             // P (12 bytes, aligned to 4) and Q (8 bytes, aligned to 4): member by member.
             "load global 4 pts @ ((int64)i * 12:int64)",
             "load global 4 pts @ (((int64)i * 12:int64) + 4:int64)",
             "load global 4 pts @ (((int64)i * 12:int64) + 8:int64)",
             "load global 4 qs @ ((int64)i * 8:int64)", "load global 4 qs @ (((int64)i * 8:int64) + 4:int64)",
             "store global 4 qs @ ((int64)(i + 1:int32) * 8:int64)",
             "store global 4 qs @ (((int64)(i + 1:int32) * 8:int64) + 4:int64)"}));
}

TEST_F(FrontendMemory, WhatCannotBePlacedSaysWhy) {
  const ir::Kernel k = load(R"(
__global__ void k(float* a, float** ptrs, int n) {
  extern __shared__ float dyn[];
  int i = threadIdx.x;
  float* q = a;
  if (i > 2) q = a + i;
  a[i] = (i < n ? a : a + 1)[0] + ptrs[i][1] + q[0];
  dyn[i] = 1.0f;
}
)");
  EXPECT_EQ(accesses(k),
            (Lines{"store global 4 a @ ((int64)i * 4:int64)",
                   "load global 4 (i < n ? a : a + 1)[0] not placed: the pointer is chosen by a condition",
                   "load global 4 ptrs[i][1] not placed: the pointer 'ptrs[i]' is read from memory",
                   // ptrs[i] itself: an 8-byte pointer.
                   "load global 8 ptrs @ ((int64)i * 8:int64)",
                   // q = a, then a + i on one path: a's buffer either way, at q's offset.
                   "load global 4 a @ q",
                   // extern __shared__: a base of 0 bytes, sized at launch.
                   "store shared 4 dyn @ ((int64)i * 4:int64)"}));
  EXPECT_EQ(k.bases.back().name, "dyn");
  EXPECT_EQ(k.bases.back().bytes, 0u);
}

// A pointer reassigned from affine values is followed by the value it has at each access: its
// buffer along each path, its offset in its local; only the accesses where it cannot be followed
// (a value read from memory, two buffers meeting at a join) are not placed, never earlier ones.
TEST_F(FrontendMemory, PointersFollowedByValue) {
  const ir::Kernel k = load(R"(
__global__ void k(float* out, const float* in, float** ptrs, int C) {
  int idx = threadIdx.x;
  float* x;
  x = out + idx * C;
  x[0] = 1.0f;
  x = out + 2;
  x[1] = 2.0f;
  if (idx > 3) x = out + idx; else x = out + 5;
  x[2] = 3.0f;
  if (idx > 4) x = (float*)in;
  x[3] = 4.0f;
  x = ptrs[idx];
  x[4] = 5.0f;
  x = out;
  x[5] = 6.0f;
  float* y = out;
  for (int j = 0; j < C; ++j) {
    y[j] = 7.0f;
    y = out + j;
  }
  y[0] = 8.0f;
  float* z = out;
  for (int j = 0; j < C; ++j) {
    z[j] = 9.0f;
    z = (float*)in + j;
  }
}
)");
  EXPECT_EQ(accesses(k),
            (Lines{// x = out + idx * C: out's buffer at x's offset; element 1 of out + 2 and so on.
                   "store global 4 out @ x", "store global 4 out @ (x + 4:int64)",
                   // Both branches point into out.
                   "store global 4 out @ (x + 8:int64)",
                   // out on one path and in on the other: this access alone is lost.
                   "store global 4 x[3] not placed: the pointer 'x' points into 'in' on one path and into "
                   "'out' on another, which meet after the if at line 11",
                   // The pointer read from memory: its load is counted, the access through it is not.
                   "load global 8 ptrs @ ((int64)idx * 8:int64)",
                   "store global 4 x[4] not placed: the pointer 'x' is set to 'ptrs[idx]': the pointer "
                   "'ptrs[idx]' is read from memory",
                   // Set again from out: followed again.
                   "store global 4 out @ (x + 20:int64)",
                   // A loop whose every value of y points into out: followed inside and after it.
                   "store global 4 out @ (y + ((int64)j * 4:int64))", "store global 4 out @ y",
                   // A loop that moves z into in after an iteration: out and in meet at its head.
                   "store global 4 z[j] not placed: the pointer 'z' points into 'out' on one path and into "
                   "'in' on another, which meet at the head of the for loop at line 24"}));
  std::vector<std::string> offsets;
  for (const ir::Stmt& s : k.stmts)
    if ((s.kind == ir::StmtKind::Declare || s.kind == ir::StmtKind::Assign) && s.local != ir::kNone &&
        k.locals[s.local].name == "x")
      offsets.push_back(s.value == ir::kNone ? "(none)" : sexpr(k, s.value));
  // Declared without a value; idx * C is an int product converted to the 64-bit byte count.
  EXPECT_EQ(offsets, (Lines{"(none)", "((int64)(idx * param:C) * 4:int64)", "8:int64",
                            "((int64)idx * 4:int64)", "20:int64", "0:int64", "0:int64"}));
}

// A pointer bound to a reference through which it may change (a T*& parameter, a T*& local) is
// not followed: the callee or the reference may move it where the model cannot see. A T* const&
// cannot move it, and an int& moves only an integer the model follows.
TEST_F(FrontendMemory, APointerBoundToAChangingReferenceIsNotPlaced) {
  const ir::Kernel k = load(R"(
__device__ void advance(float*& p, int k) { p += k; }
__device__ float first(float* const& p) { return p[0]; }
__device__ void step(int& i, int k) { i += k; }
__global__ void k(float* a, float* b, float* c, float* out) {
  int t = threadIdx.x;
  float* p = a;
  advance(p, t);
  out[0] = *p;
  float* q = b;
  float*& r = q;
  r = r + 32;
  out[1] = q[0];
  float* s = c;
  out[2] = first(s);
  int i = 0;
  step(i, t);
  out[3] = s[i];
}
)");
  const std::string why =
      "' (the model follows a pointer changed only by statements of their own: "
      "p = q + k, p += k, p -= k, ++p, p++)";
  EXPECT_EQ(
      accesses(k),
      (Lines{
          // Each store's access comes first, then the loads of its value.
          "store global 4 out @ 0:int64",
          "load global 4 *p not placed: the pointer 'p' is bound to a reference in 'advance(p, t)" + why,
          "store global 4 out @ 4:int64",
          "load global 4 q[0] not placed: the pointer 'q' is bound to a reference in 'float*& r = q;" + why,
          // first(s) reads c's element 0 through its T* const& parameter, in the call, which runs
          // before the statement's own accesses.
          "load global 4 c @ p", "store global 4 out @ 8:int64", "store global 4 out @ 12:int64",
          "load global 4 c @ (s + ((int64)i * 4:int64))"}));
}

TEST_F(FrontendMemory, APointerWrittenThroughACastOrAConditionalIsFollowed) {
  const ir::Kernel k = load(R"(
__global__ void k(float* a, float* b, int c) {
  float* p = a;
  reinterpret_cast<float*&>(p) = b + 1;
  p[0] = 1.0f;
  (c > 0 ? p : p) = b + 2;
  p[1] = 2.0f;
  const_cast<float*&>(static_cast<float* const&>(p)) = a + 3;
  p[2] = 3.0f;
  float* q = (c & 1) ? a : b;
  q[0] = 4.0f;
}
)");
  EXPECT_EQ(
      accesses(k),
      (Lines{"store global 4 b @ p", "store global 4 b @ (p + 4:int64)", "store global 4 a @ (p + 8:int64)",
             "store global 4 q[0] not placed: the pointer 'q' is set to '(c & 1) ? a : b': "
             "the pointer is chosen by a condition"}));
  // p's offsets: b + 1 is byte 4 of b, b + 2 byte 8, a + 3 byte 12 of a.
  EXPECT_PRED2(contains, body(k), "decl p = 0:int64; p = 4:int64; work[p[0] = 1.0f]; p = 8:int64;");
  EXPECT_PRED2(contains, body(k), "work[p[1] = 2.0f]; p = 12:int64; work[p[2] = 3.0f];");
}

TEST_F(FrontendMemory, AConstReferenceToMemoryIsItsAddressAndToATemporaryACopy) {
  const ir::Kernel k = load(R"(
__device__ int get(const int& x, int* s) { s[threadIdx.x] = 8; return x; }
__global__ void k(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = 0;
  __syncthreads();
  const int& c = s[t];
  s[t] = 16;
  if (t < c) out[t] = 1;
  int v = get(s[t], s);
  if (t < v) out[t] = 2;
  int u = 4;
  const int& w = u + 1;
  u = 20;
  if (t < w) out[t] = 3;
}
)");
  // c is s[t], read where the if reads it: 16 by then. x is s[t] too: get() writes 8 there
  // before it reads x. w is bound to the temporary u + 1 = 5, which u = 20 does not change.
  ir::Launch l;
  l.grid = ir::Dim3{1, 1, 1};
  l.block = ir::Dim3{32, 1, 1};
  l.arguments.assign(k.parameters.size(), ir::Value{});
  const ir::ReplayResult r = ir::replay(k, l);
  for (const auto& [line, taken] : std::vector<std::pair<int, std::uint64_t>>{{10, 16}, {12, 8}, {16, 5}}) {
    const ir::StatementCounts& c = r.statements.at(statement_at(k, line, ir::StmtKind::If));
    EXPECT_EQ(c.warp_evaluations, 1u) << line;
    EXPECT_EQ(c.divergent, 1u) << line;
    EXPECT_EQ(c.taken_lanes, taken) << line;
  }
}

// memset(&s[t], 1, 1) makes s[t] 1 on the GPU; a model that let it pass would count `if (s[t] > 0)`
// with s[t] = 0 (no lane), reported complete. A function it neither inlines nor models, given a
// pointer to writable memory, is refused where it is called, whatever the pointer points to.
// A const int& parameter of a function that writes no memory cannot change while it runs: read
// once where it is bound, as nvcc reads it (one load for x + x), not once per read.
TEST_F(FrontendMemory, AConstReferenceParameterOfAFunctionThatWritesNothingIsReadOnce) {
  const ir::Kernel k = load(R"(
__device__ int twice(const int& x) { return x + x; }
__global__ void k(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = twice(s[t]);
}
)");
  const Lines all = accesses(k);
  EXPECT_EQ(std::count(all.begin(), all.end(), "load shared 4 s @ ((int64)t * 4:int64)"), 1)
      << ::testing::PrintToString(all);
  EXPECT_EQ(all.size(), 3u) << ::testing::PrintToString(all);  // and the stores to s and out
}

TEST_F(FrontendMemory, AReferenceToAnArrayIsTheArray) {
  const ir::Kernel k = load(R"(
__global__ void k(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = 0;
  __syncthreads();
  int (&rs)[32] = s;
  rs[t] = 16;
  int a[2] = {0, 0};
  int (&ra)[2] = a;
  ra[1] = 4;
  if (t < s[t] + a[1]) out[t] = 1;
}
)");
  // rs[t] is s[t] (byte 4t of s), ra[1] is a[1] (byte 4 of a): s[t] + a[1] = 20 for every thread.
  EXPECT_EQ(accesses(k),
            (Lines{"store shared 4 s @ ((int64)t * 4:int64)", "store shared 4 s @ ((int64)t * 4:int64)",
                   "store local 4 a @ 0:int64", "store local 4 a @ 4:int64", "store local 4 a @ 4:int64",
                   "store global 4 out @ ((int64)t * 4:int64)", "load shared 4 s @ ((int64)t * 4:int64)",
                   "load local 4 a @ 4:int64"}));
  const ir::StatementCounts c = branch_at(k, 12);
  EXPECT_EQ(c.warp_evaluations, 1u);
  EXPECT_EQ(c.divergent, 1u);
  EXPECT_EQ(c.taken_lanes, 20u);
}

// p = (t & 1) ? s : u writes s[t] = 16 in the odd threads; a model that dropped the store would
// count `if (t < s[t])` with s[t] = 0 (no lane) where 8 threads take it. The write is shared
// memory's (the kernel reads shared memory), so a branch on s is refused, naming the write. So is
// one through a pointer held in a local whose address is taken (`int **pp = &p`: s[t] = 16, 16
// lanes taken on the GPU); one read from a kernel's buffer (global memory) points into global
// memory.
TEST_F(FrontendMemory, AWriteThatCannotBePlacedMakesTheMemoryReadUnknown) {
  const std::string head =
      "__global__ void k(int* out, int** ptrs) {\n  __shared__ int s[32], u[32];\n  int t = threadIdx.x;\n"
      "  s[t] = 0;\n  u[t] = 0;\n  __syncthreads();\n";
  ir::Launch l;
  l.grid = ir::Dim3{1, 1, 1};
  l.block = ir::Dim3{32, 1, 1};
  const auto replayed = [&](const std::string& body) {
    try {  // the load checks the model, the replay the run
      const ir::Kernel k = load(head + body);
      l.arguments.assign(k.parameters.size(), ir::Value{});
      ir::replay(k, l);
    } catch (const std::exception& e) {  // the unknown value's diagnostic
      return std::string(e.what());
    }
    return std::string("(counted)");
  };
  const std::string why = "the kernel writes shared memory where the model cannot place it ('p[t]' at ";
  EXPECT_PRED2(contains,
               replayed("  int *p = (t & 1) ? s : u;\n  p[t] = 16;\n  __syncthreads();\n"
                        "  if (t < s[t]) out[t] = 1;\n}\n"),
               why);
  EXPECT_PRED2(contains, replayed("  int *p = s + t;\n  *p++ = 16;\n  if (t < s[t]) out[t] = 1;\n}\n"),
               "the kernel writes shared memory where the model cannot place it ('*p++' at ");
  EXPECT_PRED2(
      contains,
      replayed("  int *p = s;\n  int **pp = &p;\n  (*pp)[t] = 16;\n  if (t < s[t]) out[t] = 1;\n}\n"),
      "('(*pp)[t]' at ");
  EXPECT_PRED2(
      contains,
      replayed("  int *p = s;\n  int **pp = &p;\n  (*pp)[t] = 16;\n  if (t < s[t]) out[t] = 1;\n}\n"),
      "k.cu:9:3: the pointer '*pp' is read from where the model does not follow it (not global memory");
  EXPECT_EQ(replayed("  int *p = ptrs[t];\n  p[t] = 16;\n  if (t < s[t]) out[t] = 1;\n}\n"), "(counted)");
  // Shared values that no branch or address uses: counted, the write not counted as before.
  EXPECT_EQ(replayed("  int *p = (t & 1) ? s : u;\n  p[t] = 16;\n  __syncthreads();\n  out[t] = s[t];\n}\n"),
            "(counted)");
}

// `const int &r = pick(s[t])` where pick returns its reference parameter is s[t] itself: the
// store s[t] = 16 after it is what `if (t < r)` reads, 16 lanes of 32 taken (1 divergent
// evaluation); a copy made at the binding (s[t] = 0) would take none. A call returning a reference
// other than its parameter (here the smaller of two) is refused, naming the call.
TEST_F(FrontendMemory, AConstReferenceReturnedByACallIsTheArgumentItReturns) {
  const ir::Kernel k = load(R"(
__device__ const int& pick(const int& a) { return a; }
__global__ void k(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = 0;
  __syncthreads();
  const int& r = pick(s[t]);
  s[t] = 16;
  if (t < r) out[t] = 1;
}
)");
  const ir::StatementCounts c = branch_at(k, 10);
  EXPECT_EQ(c.warp_evaluations, 1u);
  EXPECT_EQ(c.divergent, 1u);
  EXPECT_EQ(c.taken_lanes, 16u);
  EXPECT_PRED2(contains, refusal(R"(
__device__ const int& least(const int& a, const int& b) { return b < a ? b : a; }
__global__ void k(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  const int& r = least(s[t], s[0]);
  if (t < r) out[t] = 1;
}
)"),
               "k.cu:6:18: the const reference 'r' is bound to the reference that 'least' returns, which the "
               "model does not follow");
}

// A const int& parameter bound to the element a member operator[] of a shared object returns: a
// copy where it is bound when the callee writes nothing of shared memory while it runs (its writes
// reach out, global, and its own object's member), as rodinia's dwt2d writers are called: read, and
// the callee counted (its if: lanes 0 .. 15 of 32, 1 divergent evaluation). A callee that writes
// the shared object through its own operator[] could change what the reference names: refused.
TEST_F(FrontendMemory, AConstReferenceToAnAccessorsElementIsACopyWhereTheCalleeCannotChangeIt) {
  const ir::Kernel k = load(R"(
struct Buf { int data[64]; __device__ int& operator[](int i) { return data[i]; } };
struct Writer {
  int next;
  __device__ void put(int* o, const int& v, int t) {
    o[next] = v;
    next += 32;
    if (t < 16) o[t] = 1;
  }
};
__global__ void k(int* out) {
  __shared__ Buf b;
  Writer w;
  w.next = threadIdx.x;
  int t = threadIdx.x;
  b[t] = 16;
  __syncthreads();
  w.put(out, b[t], t);
}
)");
  const ir::StatementCounts c = branch_at(k, 8);
  EXPECT_EQ(c.warp_evaluations, 1u);
  EXPECT_EQ(c.divergent, 1u);
  EXPECT_EQ(c.taken_lanes, 16u);
  EXPECT_PRED2(contains, refusal(R"(
struct Buf { int data[64]; __device__ int& operator[](int i) { return data[i]; } };
__device__ void put(int* o, Buf& s, const int& v, int t) {
  s[t] = 0;
  if (t < v) o[t] = 1;
}
__global__ void k(int* out) {
  __shared__ Buf b;
  int t = threadIdx.x;
  b[t] = 16;
  __syncthreads();
  put(out, b, b[t], t);
}
)"),
               "the const reference 'v' is bound to the reference that 'operator[]' returns, which the "
               "model does not follow");
}

// A load or store through a null pointer stops the kernel on the GPU (an illegal address): undefined
// behaviour, named at the access, in the lanes that make it and only there. The null pointer is a
// base of its own (MemoryBase::null); a pointer null in some lanes only (`p = o` in lane 31) splits
// its access in two by its null flag: o's where it is 0, the null pointer's where it is 1.
TEST_F(FrontendMemory, AnAccessThroughANullPointerIsUndefinedInTheLanesThatMakeIt) {
  ir::Launch l;
  l.grid = ir::Dim3{1, 1, 1};
  l.block = ir::Dim3{32, 1, 1};
  l.buffer_bytes = {128};
  const auto run = [&](const std::string& body, ir::Kernel& k) {
    k = load("__global__ void k(int* o) {\n  int t = threadIdx.x;\n" + body + "}\n");
    l.arguments.assign(k.parameters.size(), ir::Value{});
    return ir::replay(k, l);
  };
  ir::Kernel k;
  // Every lane stores through null: thread 0 is the first to fault.
  ir::ReplayResult r = run("  int *p = nullptr;\n  p[t] = 1;\n", k);
  EXPECT_EQ(accesses(k), (Lines{"store global 4 nullptr @ (p + ((int64)t * 4:int64))"}));
  EXPECT_PRED2(
      contains, r.access_faults.at(0),
      "k.cu:4:3: null pointer: 'p[t]' writes 4 bytes through a null pointer (the GPU stops the kernel "
      "there) in block (0, 0, 0), thread (0, 0, 0)");
  // A load through `int *p = 0` in threads 0 .. 4; o[t] itself is stored by those 5 lanes.
  r = run("  int *p = 0;\n  if (t < 5) o[t] = *p;\n", k);
  ASSERT_EQ(k.accesses.size(), 2u);
  EXPECT_PRED2(contains, r.access_faults.at(1), "null pointer: '*p' reads 4 bytes through a null pointer");
  EXPECT_EQ(r.accesses.at(0).lanes, 5u);
  // Set to null after o, in a branch no lane takes (t > 40 in a block of 32): no fault.
  r = run("  int *p = o;\n  p = nullptr;\n  if (t > 40) p[t] = 1;\n", k);
  EXPECT_EQ(r.access_faults.at(0), "");
  // Null in lanes 0 .. 30, o in lane 31: o's store by lane 31 (1 request, 1 lane, 4 bytes), the
  // null pointer's by lanes 0 .. 30, thread 0 the first.
  r = run("  int *p = nullptr;\n  if (t == 31) p = o;\n  p[t] = 1;\n", k);
  ASSERT_EQ(k.accesses.size(), 2u);
  EXPECT_EQ(k.bases[static_cast<std::size_t>(k.accesses[0].base)].name, "o");
  EXPECT_EQ(r.access_faults.at(0), "");
  EXPECT_EQ(r.accesses.at(0).requests, 1u);
  EXPECT_EQ(r.accesses.at(0).lanes, 1u);
  EXPECT_EQ(r.accesses.at(0).bytes, 4u);
  EXPECT_PRED2(
      contains, r.access_faults.at(1),
      "k.cu:5:3: null pointer: 'p[t]' writes 4 bytes through a null pointer (the GPU stops the kernel "
      "there) in block (0, 0, 0), thread (0, 0, 0)");
  // A copy of such a pointer takes its null flag with it: the same split, the same fault.
  r = run("  int *p = nullptr;\n  if (t == 31) p = o;\n  int *q = p;\n  q[t] = 1;\n", k);
  EXPECT_EQ(r.accesses.at(0).lanes, 1u);
  EXPECT_PRED2(contains, r.access_faults.at(1), "k.cu:6:3: null pointer: 'q[t]' writes 4 bytes");
  r = run("  int *p = nullptr;\n  if (t == 31) p = o;\n  p[t] = 1;\n", k);
  // A value the model cannot follow on one path (a pointer made from an integer) and o on the
  // other: not placed, naming that value; no read of an offset never assigned.
  const ir::Kernel joined = load(
      "__global__ void k(int* o, long long a) {\n  int t = threadIdx.x;\n  int *p = (int *)a;\n"
      "  if (t == 31) p = o;\n  p[t] = 1;\n}\n");
  EXPECT_EQ(accesses(joined),
            (Lines{"store global 4 p[t] not placed: the pointer 'p' is set to '(int *)a': a "
                   "pointer made from an integer"}));
  // Saved and loaded (--model), the null pointer stays one: the same fault.
  const ir::Kernel again = ir::kernel_from_json(ir::to_json(k));
  EXPECT_TRUE(again.bases.at(static_cast<std::size_t>(again.accesses.at(1).base)).null);
  EXPECT_EQ(ir::replay(again, l).access_faults.at(1), r.access_faults.at(1));
  // The same store made by lane 31 alone: o's, and no fault.
  r = run("  int *p = nullptr;\n  if (t == 31) p = o;\n  if (t == 31) p[t] = 1;\n", k);
  EXPECT_EQ(r.access_faults.at(1), "");
  EXPECT_EQ(r.accesses.at(0).lanes, 1u);
  // `if (p)` with p null in threads 0 .. 30 and o in 31: thread 31 alone takes it (1 divergent
  // evaluation, 1 lane) and stores; no fault. A pointer into a declared array is never null
  // (`p == nullptr`: no lane); a kernel's buffer may be (the host passes it): not known.
  r = run("  int *p = nullptr;\n  if (t == 31) p = o;\n  if (p) p[t] = 1;\n", k);
  const ir::StatementCounts& guarded = r.statements.at(statement_at(k, 5, ir::StmtKind::If));
  EXPECT_EQ(guarded.divergent, 1u);
  EXPECT_EQ(guarded.taken_lanes, 1u);
  EXPECT_EQ(r.access_faults.at(1), "");
  r = run("  __shared__ int s[32];\n  int *p = s;\n  if (p == nullptr) o[t] = 1;\n", k);
  EXPECT_EQ(r.statements.at(statement_at(k, 5, ir::StmtKind::If)).taken_lanes, 0u);
  EXPECT_EQ(r.statements.at(statement_at(k, 5, ir::StmtKind::If)).warp_evaluations, 1u);
  EXPECT_PRED2(contains, refusal("__global__ void k(int* o) {\n  if (o) o[threadIdx.x] = 1;\n}\n"),
               "depends on o (pointer)");
}

TEST_F(FrontendMemory, ACallThatMayWriteMemoryUnseenIsRefused) {
  const std::string head =
      "__global__ void k(int* out, float* f) {\n  __shared__ int s[32], u[32];\n  int t = threadIdx.x;\n";
  EXPECT_PRED2(contains, refusal(head + "  memset(&s[t], 1, 1);\n  if (s[t] > 0) out[t] = 1;\n}\n"),
               "k.cu:4:3: 'memset' may write through its argument '&s[t]', which the model cannot follow: "
               "not supported");
  EXPECT_PRED2(contains, refusal(head + "  memcpy(s, u, sizeof(s));\n  if (s[t] > 0) out[t] = 1;\n}\n"),
               "'memcpy' may write through its argument 's'");
  EXPECT_PRED2(contains, refusal(head + "  if (memcpy(out, u, 4) != 0) out[t] = 1;\n}\n"),
               "'memcpy' may write through its argument 'out'");
  EXPECT_PRED2(contains, refusal(head + "  sincosf(f[t], &f[t], &f[t + 1]);\n}\n"),
               "'sincosf' may write through its argument '&f[t]'");
  // Reading through a pointer (a const parameter, printf's extra arguments) and free() write nothing.
  EXPECT_EQ(refusal(head + "  printf(\"%p %d\", s, s[t]);\n  free(f);\n  out[t] = s[t];\n}\n"), "");
}

// An index holding a call that writes nothing (min, max, abs, __umul24, a shuffle, a group's
// thread_rank(), a __device__ function that computes a value) is placed as the same value through
// a local is: counted, and bounds-checked; so is an access guarded by a condition holding one. Figures by
// hand for one block of 32 threads, n = 20, 4-byte ints in 256-byte aligned buffers (32-byte sectors: 8
// elements each).
TEST_F(FrontendMemory, AnIndexHoldingACallThatWritesNothingIsPlaced) {
  const ir::Kernel k = load(R"(#include <cooperative_groups.h>
__device__ int idx(int x) { int r = 0; for (int i = 0; i < 2; ++i) r += x; return r; }
__global__ void k(int *o, const int *in, int n) {
  int t = threadIdx.x;
  o[min(t, n - 1)] = in[max(t - 1, 0)];
  o[abs(t - 16)] = 2;
  o[t] = in[__umul24(t, 2u)];
  o[idx(t)] += 3;
  __shared__ int s[64];
  s[__shfl_sync(0xffffffffu, t, 0) + 40] = 1;
  s[cooperative_groups::this_thread_block().thread_rank()] = 2;
  o[t] = min(t, 5) > 2 ? in[t] : 0;
}
)");
  for (const ir::MemoryAccess& a : k.accesses) EXPECT_EQ(a.reason, "") << a.text;
  ir::Launch l;
  l.grid = ir::Dim3{1, 1, 1};
  l.block = ir::Dim3{32, 1, 1};
  l.arguments = {ir::Value{}, ir::Value{}, ir::Value::of(ir::ScalarType::I32, 20)};
  l.buffer_bytes = {256, 256};
  const ir::ReplayResult r = ir::replay(k, l);
  ASSERT_EQ(r.accesses.size(), 11u);
  // (requests, sectors or wavefronts) per access, in source order.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> figures;
  for (std::size_t i = 0; i < r.accesses.size(); ++i) {
    const ir::AccessCounts& c = r.accesses[i];
    const bool shared =
        k.bases[static_cast<std::size_t>(k.accesses[i].base)].space == ir::AddressSpace::Shared;
    figures.emplace_back(static_cast<std::uint64_t>(c.requests),
                         static_cast<std::uint64_t>(shared ? c.wavefronts : c.sectors));
    EXPECT_EQ(r.access_faults[i], "") << k.accesses[i].text;
  }
  EXPECT_EQ(figures, (std::vector<std::pair<std::uint64_t, std::uint64_t>>{
                         {1, 3},  // o[min(t, 19)]: elements 0 .. 19, bytes 0 .. 79
                         {1, 4},  // in[max(t - 1, 0)]: elements 0 .. 30, bytes 0 .. 123
                         {1, 3},  // o[abs(t - 16)]: elements 0 .. 16, bytes 0 .. 67
                         {1, 4},  // o[t]
                         {1, 8},  // in[2 t]: elements 0 .. 62, bytes 0 .. 251
                         {1, 8},  // o[idx(t)] += 3, its load: o[2 t]
                         {1, 8},  // and its store
                         {1, 1},  // s[0 + 40] in every lane: one word, broadcast
                         {1, 1},  // s[t]: 32 banks, one each
                         {1, 4},  // o[t]
                         {1, 4},  // in[t] where min(t, 5) > 2: threads 3 .. 31, bytes 12 .. 127
                     }));
  EXPECT_EQ(r.accesses[10].lanes, 29u);
  // The call is inlined once, before the statement, though its index is lowered twice (+=).
  EXPECT_EQ(std::count_if(k.stmts.begin(), k.stmts.end(),
                          [](const ir::Stmt& st) { return st.kind == ir::StmtKind::InlinedCall; }),
            1);
}

// An index holding a call that writes something (a local through a reference, memory through an
// atomic, directly or in a __device__ function) is not placed, the reason naming the call and what
// it writes; one whose function writes only its own locals is.
TEST_F(FrontendMemory, AnIndexHoldingACallThatWritesIsNotPlacedNamingTheCall) {
  const ir::Kernel k = load(R"(
__device__ int bump(int &j) { j += 1; return j; }
__device__ int next(int *c) { return atomicAdd(c, 1); }
__device__ int pure(int x) { int a[2] = {x, 2 * x}; a[0] += 1; return a[1]; }
__global__ void k(int *o) {
  int j = threadIdx.x;
  o[bump(j)] = 1;
  o[next(o)] = 2;
  o[atomicAdd(o, 1) + j] = 3;
  o[pure(j)] = 4;
}
)");
  const std::string effects = " not placed: the index '";
  Lines memory;  // o's accesses, not the atomics' or the local array's
  for (const std::string& a : accesses(k))
    if (a.find(" o[") != std::string::npos || a.find("store global 4 o @") == 0) memory.push_back(a);
  EXPECT_EQ(memory,
            (Lines{"store local 4 o[bump(j)]" + effects + "bump(j)' has side effects: 'bump(j)' writes 'j'",
                   "store local 4 o[next(o)]" + effects +
                       "next(o)' has side effects: 'next(o)' calls 'atomicAdd(c, 1)', which writes memory",
                   "store local 4 o[atomicAdd(o, 1) + j]" + effects +
                       "atomicAdd(o, 1) + j' has side effects: 'atomicAdd(o, 1)' writes memory",
                   "store global 4 o @ ((int64)pure() * 4:int64)"}));
}

// An index out of bounds through min or a shuffle is named as through a local: the element and the
// first thread that makes it.
TEST_F(FrontendMemory, AnIndexOutOfBoundsThroughACallIsNamed) {
  // The replay's message for the one statement `body` (at line 5) in a block of 32, o 32 ints.
  const auto fault = [&](const std::string& body) {
    const ir::Kernel k = load(
        "__global__ void k(int *o) {\n  int t = threadIdx.x;\n  __shared__ int s[32];\n"
        "  int a[4] = {0, 0, 0, 0};\n" +
        body + "\n  o[t] = a[0];\n}\n");
    ir::Launch l;
    l.grid = ir::Dim3{1, 1, 1};
    l.block = ir::Dim3{32, 1, 1};
    l.arguments.assign(k.parameters.size(), ir::Value{});
    l.buffer_bytes = {128};
    try {
      std::string faults;
      for (const std::string& f : ir::replay(k, l).access_faults) faults += f;
      return faults;
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  };
  EXPECT_PRED2(
      contains, fault("  s[__shfl_sync(0xffffffffu, t, 0) + 40] = 1;"),
      "k.cu:5:3: out of bounds: 's[__shfl_sync(0xffffffffu, t, 0) + 40]' writes element 40 of 's', which "
      "holds 32 elements of 4 bytes (0 to 31), in block (0, 0, 0), thread (0, 0, 0)");
  EXPECT_PRED2(contains, fault("  a[min(t, 5)] = 1;"),
               "k.cu:5:3: out of bounds: 'a[min(t, 5)]' writes element 4 of 'a', which holds 4 elements of 4 "
               "bytes (0 to 3), in block (0, 0, 0), thread (4, 0, 0)");
  EXPECT_PRED2(
      contains, fault("  o[min(t + 1, 40)] = 2;"),
      "k.cu:5:3: out of bounds: 'o[min(t + 1, 40)]' writes element 32 of 'o', which holds 32 elements "
      "of 4 bytes (0 to 31), in block (0, 0, 0), thread (31, 0, 0)");
}

TEST_F(FrontendMemory, AReferenceToMemoryIsItsAddress) {
  const ir::Kernel k = load(R"(
__device__ void set(int& x, int v) { x = v; }
__global__ void k(int* out) {
  int t = threadIdx.x;
  __shared__ int cnt;
  __shared__ int arr[4];
  if (t == 0) set(cnt, 16);
  if (t < 4) { int& r = arr[t]; r = t; }
  int m[2];
  int& q = m[1];
  q = 5;
  __syncthreads();
  if (t < cnt + arr[2] + q) out[t] = 1;
}
)");
  EXPECT_EQ(accesses(k),
            (Lines{// x is cnt (byte 0), r is arr[t] (its offset held by the local &r), q is m[1]
                   "store shared 4 cnt @ 0:int64", "store shared 4 arr @ &r", "store local 4 m @ 4:int64",
                   // the if's body, then its condition's loads
                   "store global 4 out @ ((int64)t * 4:int64)", "load shared 4 cnt @ 0:int64",
                   "load shared 4 arr @ 8:int64", "load local 4 m @ 4:int64"}));
  EXPECT_PRED2(contains, body(k), "decl &r = ((int64)t * 4:int64); work[r = t];");
  EXPECT_PRED2(contains, body(k), "opaque:int32{q (local array)}");
  // cnt = 16, arr[2] = 2, m[1] = 5: t < 23 for 23 of 32 threads, no read of memory never written.
  ir::Launch l;
  l.grid = ir::Dim3{1, 1, 1};
  l.block = ir::Dim3{32, 1, 1};
  l.arguments.assign(k.parameters.size(), ir::Value{});
  const ir::ReplayResult r = ir::replay(k, l);
  const ir::StatementCounts& c = r.statements.at(statement_at(k, 13, ir::StmtKind::If));
  EXPECT_EQ(c.warp_evaluations, 1u);
  EXPECT_EQ(c.divergent, 1u);
  EXPECT_EQ(c.taken_lanes, 23u);
}

TEST_F(FrontendMemory, ModelsSaveAndLoadWithTheirAccesses) {
  const ir::Kernel k = load(R"(
__global__ void k(float* a, int n) {
  __shared__ float s[64];
  int i = threadIdx.x;
  s[i] = (i < n) ? a[i] * 2.0f : 0.0f;
  __syncthreads();
  a[i] = s[63 - i];
}
)");
  const ir::Kernel again = ir::kernel_from_json(ir::to_json(k));
  EXPECT_EQ(accesses(again), accesses(k));
  EXPECT_EQ(flops(again), flops(k));
  EXPECT_EQ(flops(k), (Lines{"1 if (i < param:n)"}));
  ASSERT_EQ(again.bases.size(), k.bases.size());
  for (std::size_t b = 0; b < k.bases.size(); ++b) {
    EXPECT_EQ(again.bases[b].name, k.bases[b].name);
    EXPECT_EQ(again.bases[b].bytes, k.bases[b].bytes);
    EXPECT_EQ(again.bases[b].alignment, k.bases[b].alignment);
    EXPECT_EQ(again.bases[b].parameter, k.bases[b].parameter);
  }
  EXPECT_EQ(ir::to_json(again), ir::to_json(k));
}

}  // namespace
}  // namespace warpdiv::testing
