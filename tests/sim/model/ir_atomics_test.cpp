// Atomics beyond the order-independent integer ones: exch, cas, inc, dec and floating
// add. Their arithmetic against the bits an H100 gave (data/validation/atomics/, one thread per
// atomic), the model's checks of their operands, and a model with them through JSON and back,
// replayed by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "sim/support/errors.hpp"
#include "sim/model/ir_json.hpp"
#include "sim/model/ir_ops.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir {
namespace {

std::uint64_t run(AtomicOp op, ScalarType type, std::uint64_t old, std::uint64_t x, std::uint64_t compare = 0,
                  AddressSpace space = AddressSpace::Global) {
  return ops::atomic(op, type, bit_width(type) / 8, old, x, compare, space);
}

// data/validation/atomics/nvidia-h100-result.txt: atomicAdd(float *) on global memory flushes a
// subnormal element, operand or result to the zero of its sign (ATOMG.E.ADD.F32.FTZ.RN); on
// shared memory it keeps them.
TEST(Atomics, FloatAddFlushesSubnormalsOnGlobalMemoryAsTheH100) {
  constexpr ScalarType F = ScalarType::F32;
  // 0x00400000 (a subnormal) + 0: global 0, shared 0x00400000.
  EXPECT_EQ(run(AtomicOp::Add, F, 0x00400000, 0), 0u);
  EXPECT_EQ(run(AtomicOp::Add, F, 0x00400000, 0, 0, AddressSpace::Shared), 0x00400000u);
  // 0 + 0x00000001 (the smallest subnormal): global 0, shared 0x00000001.
  EXPECT_EQ(run(AtomicOp::Add, F, 0, 1), 0u);
  EXPECT_EQ(run(AtomicOp::Add, F, 0, 1, 0, AddressSpace::Shared), 1u);
  // 1.5 FLT_MIN (0x00C00000) + -FLT_MIN (0x80800000) = 0.5 FLT_MIN, a subnormal result: global 0,
  // shared 0x00400000.
  EXPECT_EQ(run(AtomicOp::Add, F, 0x00C00000, 0x80800000), 0u);
  EXPECT_EQ(run(AtomicOp::Add, F, 0x00C00000, 0x80800000, 0, AddressSpace::Shared), 0x00400000u);
  // -0x00400000 + -0: the element flushes to -0, and -0 + -0 = -0 (0x80000000); shared keeps it.
  EXPECT_EQ(run(AtomicOp::Add, F, 0x80400000, 0x80000000), 0x80000000u);
  EXPECT_EQ(run(AtomicOp::Add, F, 0x80400000, 0x80000000, 0, AddressSpace::Shared), 0x80400000u);
  // Normal values round to nearest even: 2^24 + 1 is 2^24 (16777216 + 1 -> 16777216).
  const float big = 16777216.0f, one = 1.0f;
  std::uint32_t b = 0, o = 0;
  std::memcpy(&b, &big, 4);
  std::memcpy(&o, &one, 4);
  EXPECT_EQ(run(AtomicOp::Add, F, b, o), b);
  // double keeps subnormals: 4.9e-324 (bits 1) + 0 stays; 1.5 DBL_MIN - DBL_MIN = 0.5 DBL_MIN.
  EXPECT_EQ(run(AtomicOp::Add, ScalarType::F64, 1, 0), 1u);
  EXPECT_EQ(run(AtomicOp::Add, ScalarType::F64, 0x0018000000000000ULL, 0x8010000000000000ULL),
            0x0008000000000000ULL);
}

// The rest of the H100's figures, and PTX's definitions: inc(r, s) = r >= s ? 0 : r + 1,
// dec(r, s) = (r == 0 || r > s) ? s : r - 1, cas(r, c, v) = r == c ? v : r, exch(r, v) = v.
TEST(Atomics, IncDecCasExchAsTheH100) {
  constexpr ScalarType U = ScalarType::U32;
  EXPECT_EQ(run(AtomicOp::Inc, U, 5, 5), 0u);
  EXPECT_EQ(run(AtomicOp::Inc, U, 4, 5), 5u);
  EXPECT_EQ(run(AtomicOp::Inc, U, 9, 5), 0u);
  EXPECT_EQ(run(AtomicOp::Dec, U, 0, 7), 7u);
  EXPECT_EQ(run(AtomicOp::Dec, U, 9, 7), 7u);
  EXPECT_EQ(run(AtomicOp::Dec, U, 3, 7), 2u);
  EXPECT_EQ(run(AtomicOp::Cas, U, 7, 9, 7), 9u);
  EXPECT_EQ(run(AtomicOp::Cas, U, 9, 11, 7), 9u);
  EXPECT_EQ(run(AtomicOp::Exch, U, 9, 13), 13u);
  // An int element -1 (bits 0xFFFFFFFF in memory) compares equal to the normalised int -1; a
  // 16-bit unsigned CAS compares the low 16 bits.
  const std::uint64_t minus_one = normalise(ScalarType::I32, 0xFFFFFFFFu);
  EXPECT_EQ(run(AtomicOp::Cas, ScalarType::I32, 0xFFFFFFFFu, 4, minus_one), 4u);
  EXPECT_EQ(run(AtomicOp::Cas, ScalarType::U16, 0xABCD, 0x1234, 0xABCD), 0x1234u);
  EXPECT_EQ(run(AtomicOp::Cas, ScalarType::U16, 0xABCD, 0x1234, 0xABCE), 0xABCDu);
  // Exch of a float moves its bits (a NaN's payload too).
  EXPECT_EQ(run(AtomicOp::Exch, ScalarType::F32, 0x3F800000, 0x7FC00001), 0x7FC00001u);
}

TEST(Atomics, WhichOnesDependOnTheOrder) {
  EXPECT_FALSE(ordered_atomic(AtomicOp::Add, ScalarType::I32));
  EXPECT_TRUE(ordered_atomic(AtomicOp::Add, ScalarType::F32));
  EXPECT_TRUE(ordered_atomic(AtomicOp::Add, ScalarType::F64));
  for (const AtomicOp op : {AtomicOp::Exch, AtomicOp::Cas, AtomicOp::Inc, AtomicOp::Dec})
    EXPECT_TRUE(ordered_atomic(op, ScalarType::U32)) << name(op);
  EXPECT_TRUE(atomics_commute(AtomicOp::Add, AtomicOp::Sub, ScalarType::I32));
  EXPECT_TRUE(atomics_commute(AtomicOp::Max, AtomicOp::Max, ScalarType::I64));
  EXPECT_FALSE(atomics_commute(AtomicOp::Max, AtomicOp::Min, ScalarType::I32));
  EXPECT_FALSE(atomics_commute(AtomicOp::Add, AtomicOp::Add, ScalarType::F32));
  EXPECT_FALSE(atomics_commute(AtomicOp::Exch, AtomicOp::Exch, ScalarType::I32));
  for (int i = 0; i < kAtomicOpCount; ++i)
    EXPECT_EQ(atomic_op_from_name(name(static_cast<AtomicOp>(i))), static_cast<AtomicOp>(i));
}

// __global__ void k(int* x) {             x: 4 bytes, zeros (--alloc x=1)
//   int t = threadIdx.x;
//   int old = atomicCAS(&x[0], 0, t + 1);
//   if (old == 0) { winner }
// }
// 64 threads, in the replay's order (warps, then lanes ascending): thread 0 finds 0 and stores 1,
// every other thread finds 1. The if: warp 0 lane 0 alone taken (divergent), warp 1 none (not
// divergent): 2 evaluations, 64 active lanes, 1 taken, 1 divergent; the if is order-dependent (the
// GPU may let any thread win), so what the launch leaves in x is not known.
struct CasKernel {
  Kernel k;
  std::int32_t cas = kNone;
};

CasKernel cas_kernel() {
  CasKernel c;
  Kernel& k = c.k;
  k.name = "cas";
  k.files.push_back(SourceFile{"cas.cu", {}});
  const std::int32_t x = k.add_opaque_parameter("x", "int *");
  k.parameters[static_cast<std::size_t>(x)].element_bytes = 4;
  const std::int32_t base = k.add_base(MemoryBase{"x", AddressSpace::Global, x, 0, 256, {}});
  const LocalId t = k.add_local("t", ScalarType::I32);
  const LocalId old = k.add_local("old", ScalarType::I32);
  const StmtId declare_t = k.declare(t, k.cast(ScalarType::I32, k.builtin(Builtin::ThreadIdxX)));
  MemoryAccess a;
  a.kind = AccessKind::Atomic;
  a.base = base;
  a.offset = k.constant(ScalarType::I64, 0);
  a.compare = k.constant(ScalarType::I32, 0);
  a.value = k.binary(BinaryOp::Add, k.local(t), k.constant(ScalarType::I32, 1));
  a.atomic = AtomicOp::Cas;
  a.text = "x";
  c.cas = k.add_access(a);
  const ExprId result = k.opaque(ScalarType::I32, "atomicCAS(&x[0], 0, t + 1) (atomic result)");
  k.exprs[static_cast<std::size_t>(result)].access = c.cas;
  const StmtId declare_old = k.declare(old, result);
  k.stmts[static_cast<std::size_t>(declare_old)].accesses.push_back(c.cas);
  const StmtId branch =
      k.if_(k.binary(BinaryOp::Eq, k.local(old), k.constant(ScalarType::I32, 0)), k.work("winner"));
  k.root = k.block({declare_t, declare_old, branch});
  return c;
}

Launch cas_launch() {
  Launch l;
  l.grid = {1, 1, 1};
  l.block = {64, 1, 1};
  l.arguments = {Value{}};
  l.buffer_bytes = {4};
  l.buffer_data = {nullptr};
  return l;
}

TEST(Atomics, ACasModelThroughJsonAndItsReplayByHand) {
  const CasKernel c = cas_kernel();
  validate(c.k);
  const std::string text = to_json(c.k);
  EXPECT_NE(text.find("\"atomic\": \"cas\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"compare\": "), std::string::npos) << text;
  EXPECT_NE(text.find("\"version\": 4"), std::string::npos);
  const Kernel back = kernel_from_json(text);
  EXPECT_EQ(to_json(back), text);
  ReplayOptions o;
  o.capture_stores = true;
  for (const Kernel* k : {&c.k, &back}) {
    const ReplayResult r = replay(*k, cas_launch(), o);
    const StatementCounts& branch = r.statements[r.statements.size() - 2];  // the if, before its work
    EXPECT_EQ(branch.warp_evaluations, 2u);
    EXPECT_EQ(branch.active_lanes, 64u);
    EXPECT_EQ(branch.taken_lanes, 1u);
    EXPECT_EQ(branch.divergent, 1u);
    // A branch depends on the order, so which threads write what varies: every write unknown.
    ASSERT_EQ(r.stored[0].bytes.size(), 4u);
    EXPECT_EQ(r.stored[0].state[0], StoredBuffer::kUnknown);
    // The if depends on the CAS's result, which other threads change: order-dependent.
    const std::vector<OrderDependence> order = order_dependence(*k, cas_launch(), r);
    ASSERT_EQ(order.size(), 1u);
    EXPECT_TRUE(order[0].condition);
    EXPECT_NE(order[0].message.find("depends on atomicCAS(&x[0], 0, t + 1) (atomic result)"),
              std::string::npos)
        << order[0].message;
  }
}

std::string invalid(const Kernel& k) {
  try {
    validate(k);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}

TEST(Atomics, TheModelRefusesOperandsPtxDoesNotHave) {
  {
    CasKernel c = cas_kernel();
    c.k.accesses[static_cast<std::size_t>(c.cas)].compare = kNone;
    EXPECT_NE(invalid(c.k).find("is an atomic cas without the value it compares with"), std::string::npos)
        << invalid(c.k);
  }
  {
    CasKernel c = cas_kernel();
    c.k.accesses[static_cast<std::size_t>(c.cas)].atomic = AtomicOp::Exch;
    EXPECT_NE(invalid(c.k).find("has a compare operand but is not an atomic cas"), std::string::npos)
        << invalid(c.k);
  }
  {
    CasKernel c = cas_kernel();  // inc on an int element: PTX has atom.inc.u32 only
    c.k.accesses[static_cast<std::size_t>(c.cas)].compare = kNone;
    c.k.accesses[static_cast<std::size_t>(c.cas)].atomic = AtomicOp::Inc;
    EXPECT_NE(invalid(c.k).find("an atomic's (inc: a uint32 element)"), std::string::npos) << invalid(c.k);
  }
  {
    CasKernel c = cas_kernel();  // a cas comparing with an unsigned value
    c.k.accesses[static_cast<std::size_t>(c.cas)].compare = c.k.constant(ScalarType::U32, 0);
    EXPECT_NE(invalid(c.k).find("compares with a value of type uint32, expected its operand's int32"),
              std::string::npos)
        << invalid(c.k);
  }
}

}  // namespace
}  // namespace warpdiv::sim::ir
