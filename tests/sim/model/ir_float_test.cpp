// Floating point in the model: IEEE binary32 / binary64 values, operators, conversions and
// intrinsics, checked against values worked out by hand (bit patterns from the IEEE formats), and
// a branch on a float counted by the replay (lanes by hand).
#include <gtest/gtest.h>

#include <cstring>

#include "sim/support/errors.hpp"
#include "sim/model/ir_json.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir {
namespace {

constexpr ScalarType F = ScalarType::F32;
constexpr ScalarType D = ScalarType::F64;
constexpr ScalarType I = ScalarType::I32;

std::uint64_t bits_of(float f) {
  std::uint32_t b = 0;
  std::memcpy(&b, &f, sizeof b);
  return b;
}
std::uint64_t bits_of(double d) {
  std::uint64_t b = 0;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

struct K {
  Kernel k;
  K() {
    k.name = "test";
    k.files.push_back(SourceFile{"test.cu", {}});
  }
  ExprId f(float v) { return k.floating_constant(F, v); }
  ExprId d(double v) { return k.floating_constant(D, v); }
  // Evaluates `e` (its operands are constants) before any launch.
  Value eval(ExprId e) { return evaluate_uniform(k, e, {}); }
};

TEST(IrFloat, ArithmeticRoundsOnceToNearestEven) {
  K t;
  // 0.1f = 0x3DCCCCCD, 0.2f = 0x3E4CCCCD; their exact sum 0.300000004470348... lies between
  // 0x3E999999 and 0x3E99999A and rounds to 0x3E99999A (= 0.3f).
  EXPECT_EQ(t.eval(t.k.binary(BinaryOp::Add, t.f(0.1f), t.f(0.2f))).bits, 0x3E99999Au);
  // 1/3 = 0x3EAAAAAB in binary32 (0.0101..., the last kept bit rounded up).
  EXPECT_EQ(t.eval(t.k.binary(BinaryOp::Div, t.f(1.0f), t.f(3.0f))).bits, 0x3EAAAAABu);
  // 1.0 - 2^-24 * ... : 16777216 + 1 is not a float: (float)16777217 = 16777216 (ties to even).
  EXPECT_EQ(t.eval(t.k.cast(F, t.k.constant(I, 16777217))).bits, bits_of(16777216.0f));
  // 16777219 -> 16777220 (ties to even: ...219 is halfway between ...218 and ...220).
  EXPECT_EQ(t.eval(t.k.cast(F, t.k.constant(I, 16777219))).bits, bits_of(16777220.0f));
  // Doubles: 0.1 + 0.2 = 0x3FD3333333333334 (not 0.3 = 0x3FD3333333333333).
  EXPECT_EQ(t.eval(t.k.binary(BinaryOp::Add, t.d(0.1), t.d(0.2))).bits, 0x3FD3333333333334ull);
  // Division by zero is IEEE's infinity, not an error (the GPU computes it).
  EXPECT_EQ(t.eval(t.k.binary(BinaryOp::Div, t.f(1.0f), t.f(0.0f))).bits, 0x7F800000u);
  // Unary minus flips the sign bit: -(0.0f) is -0.0f.
  EXPECT_EQ(t.eval(t.k.unary(UnaryOp::Neg, t.f(0.0f))).bits, 0x80000000u);
}

TEST(IrFloat, FmaRoundsOnceWhereMultiplyThenAddRoundsTwice) {
  K t;
  // 0.1f * 10 = 1.0000000149011612 exactly; rounded to binary32 that is 1.0f (the next float
  // above 1 is 1 + 2^-23), so (0.1f * 10) - 1 = 0, while fma(0.1f, 10, -1) keeps 2^-26.
  const ExprId product = t.k.binary(BinaryOp::Mul, t.f(0.1f), t.f(10.0f));
  EXPECT_EQ(t.eval(t.k.binary(BinaryOp::Sub, product, t.f(1.0f))).bits, 0u);
  EXPECT_EQ(t.eval(t.k.intrinsic(Intrinsic::Fma, {t.f(0.1f), t.f(10.0f), t.f(-1.0f)})).bits,
            bits_of(0x1p-26f));
  EXPECT_EQ(t.eval(t.k.intrinsic(Intrinsic::Fms, {t.f(0.1f), t.f(10.0f), t.f(1.0f)})).bits,
            bits_of(0x1p-26f));
  EXPECT_EQ(t.eval(t.k.intrinsic(Intrinsic::Fnma, {t.f(0.1f), t.f(10.0f), t.f(1.0f)})).bits,
            bits_of(-0x1p-26f));
  // sqrt(2) = 1.41421354 = 0x3FB504F3 in binary32 (correctly rounded); fabs clears the sign.
  EXPECT_EQ(t.eval(t.k.intrinsic(Intrinsic::Sqrt, {t.f(2.0f)})).bits, 0x3FB504F3u);
  EXPECT_EQ(t.eval(t.k.intrinsic(Intrinsic::Fabs, {t.f(-2.5f)})).bits, bits_of(2.5f));
}

TEST(IrFloat, ConversionsTruncateAndRefuseWhatDoesNotFit) {
  K t;
  EXPECT_EQ(t.eval(t.k.cast(I, t.f(2.9f))).as_signed(), 2);
  EXPECT_EQ(t.eval(t.k.cast(I, t.f(-2.9f))).as_signed(), -2);
  EXPECT_EQ(t.eval(t.k.cast(ScalarType::U8, t.f(255.5f))).bits, 255u);
  EXPECT_EQ(t.eval(t.k.cast(ScalarType::Bool, t.f(-0.0f))).bits, 0u);
  // 3e10 does not fit int32, nor does 256 fit uint8, nor NaN anything: undefined behaviour.
  EXPECT_THROW(t.eval(t.k.cast(I, t.f(3e10f))), InvalidInput);
  EXPECT_THROW(t.eval(t.k.cast(ScalarType::U8, t.f(256.0f))), InvalidInput);
  const ExprId nan = t.k.binary(BinaryOp::Div, t.f(0.0f), t.f(0.0f));
  EXPECT_THROW(t.eval(t.k.cast(I, nan)), InvalidInput);
  // 2^64 - 1 as a float: the nearest is 2^64.
  EXPECT_EQ(t.eval(t.k.cast(F, t.k.constant(ScalarType::U64, -1))).bits, bits_of(0x1p64f));
  // float -> double is exact: 0.1f is 0.100000001490116119384765625.
  EXPECT_EQ(t.eval(t.k.cast(D, t.f(0.1f))).bits, bits_of(0.100000001490116119384765625));
  // double -> float rounds: 0.1 (double) -> 0.1f.
  EXPECT_EQ(t.eval(t.k.cast(F, t.d(0.1))).bits, bits_of(0.1f));
}

TEST(IrFloat, ComparisonsFollowIeee) {
  K t;
  const ExprId nan = t.k.binary(BinaryOp::Div, t.f(0.0f), t.f(0.0f));
  const ExprId nan2 = t.k.binary(BinaryOp::Div, t.f(0.0f), t.f(0.0f));
  EXPECT_EQ(t.eval(t.k.binary(BinaryOp::Lt, nan, t.f(1.0f))).bits, 0u);
  EXPECT_EQ(t.eval(t.k.binary(BinaryOp::Ne, nan2, t.f(1.0f))).bits, 1u);
  EXPECT_EQ(t.eval(t.k.binary(BinaryOp::Eq, t.f(0.0f), t.f(-0.0f))).bits, 1u);
  EXPECT_EQ(t.eval(t.k.binary(BinaryOp::Le, t.f(4.0f), t.f(4.0f))).bits, 1u);
}

TEST(IrFloat, ValidateRefusesIntegerOperatorsOnFloats) {
  K t;
  const ExprId rem = t.k.binary(BinaryOp::Rem, t.f(5.0f), t.f(2.0f));
  t.k.root = t.k.block({t.k.declare(t.k.add_local("r", F), rem)});
  try {
    validate(t.k);
    FAIL() << "accepted % on floats";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("operator % on float32"), std::string::npos) << e.what();
  }
}

// One warp of 8 lanes: x = tx * 0.1f; `if (x * 10 - 1 > 0)`. Exactly, tx*0.1*10 - 1 > 0 for
// tx >= 2. In binary32 (products and differences rounded one by one, no FMA in this model):
// tx = 1: 0.1f*10 rounds to 1 -> 0, not > 0; tx = 2..7: 2*0.1f = 0.2f, *10 = 2.0000000298 ->
// 2.0f ... all > 0. So 6 of 8 lanes take the branch: one divergent evaluation.
TEST(IrFloat, ReplayCountsABranchOnFloats) {
  K t;
  const LocalId x = t.k.add_local("x", F);
  const ExprId tx = t.k.cast(F, t.k.cast(I, t.k.builtin(Builtin::ThreadIdxX)));
  const StmtId declare = t.k.declare(x, t.k.binary(BinaryOp::Mul, tx, t.f(0.1f)));
  const ExprId scaled = t.k.binary(BinaryOp::Mul, t.k.local(x), t.f(10.0f));
  const ExprId condition = t.k.binary(BinaryOp::Gt, t.k.binary(BinaryOp::Sub, scaled, t.f(1.0f)), t.f(0.0f));
  const StmtId then_work = t.k.work("taken", SourceRange{0, 3, 1, 3, 5});
  const StmtId branch = t.k.if_(condition, then_work);
  t.k.root = t.k.block({declare, branch});
  validate(t.k);
  Launch l;
  l.grid = Dim3{1, 1, 1};
  l.block = Dim3{8, 1, 1};
  const ReplayResult r = replay(t.k, l, ReplayOptions{});
  EXPECT_EQ(to_decimal(r.statements[branch].warp_evaluations), "1");
  EXPECT_EQ(to_decimal(r.statements[branch].divergent), "1");
  EXPECT_EQ(to_decimal(r.statements[branch].taken_lanes), "6");
  EXPECT_EQ(to_decimal(r.statements[then_work].active_lanes), "6");
}

TEST(IrFloat, JsonKeepsFloatingConstantsAndIntrinsicsExactly) {
  K t;
  const LocalId x = t.k.add_local("x", F);
  const ExprId third = t.k.binary(BinaryOp::Div, t.f(1.0f), t.f(3.0f));
  const ExprId fused = t.k.intrinsic(Intrinsic::Fnma, {third, t.f(0.1f), t.f(-0.0f)});
  t.k.root = t.k.block({t.k.declare(x, fused)});
  validate(t.k);
  const Kernel back = kernel_from_json(to_json(t.k));
  ASSERT_EQ(back.exprs.size(), t.k.exprs.size());
  for (std::size_t i = 0; i < back.exprs.size(); ++i) {
    EXPECT_EQ(back.exprs[i].kind, t.k.exprs[i].kind);
    EXPECT_EQ(back.exprs[i].constant, t.k.exprs[i].constant) << "expression " << i;
  }
  EXPECT_EQ(back.exprs[fused].intrinsic, Intrinsic::Fnma);
  EXPECT_EQ(back.locals[0].type, F);
}

}  // namespace
}  // namespace warpdiv::sim::ir
