// The signed-overflow idioms of sim/model/ir_ops.hpp as LLVM's overflow intrinsics
// (jit/overflow_idioms.hpp).
#include "jit/overflow_idioms.hpp"

#include <utility>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/PatternMatch.h>

namespace warpdiv::jit::native {
namespace {

using namespace llvm::PatternMatch;

// The overflow bit that `(p ^ q) & (s ^ t) <s 0` tests, as an intrinsic call's second result:
// r = a + b with the pairs {r, a} and {r, b}, or r = a - b with the pairs {a, b} and {a, r} (in
// any order). Null where it is neither.
llvm::Value* overflow_of(llvm::Value* p, llvm::Value* q, llvm::Value* s, llvm::Value* t,
                         llvm::IRBuilder<>& at) {
  for (llvm::Value* common : {p, q}) {
    if (common != s && common != t) continue;
    llvm::Value* x = common == p ? q : p;  // the first pair's other value
    llvm::Value* y = common == s ? t : s;  // the second's
    llvm::Value *a = nullptr, *b = nullptr;
    if (match(common, m_Add(m_Value(a), m_Value(b))) && ((x == a && y == b) || (x == b && y == a)))
      return at.CreateExtractValue(at.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_with_overflow, a, b), 1);
    if (match(y, m_Sub(m_Specific(common), m_Specific(x))) ||
        match(x, m_Sub(m_Specific(common), m_Specific(y)))) {
      llvm::Value* subtrahend = match(y, m_Sub(m_Specific(common), m_Specific(x))) ? x : y;
      return at.CreateExtractValue(
          at.CreateBinaryIntrinsic(llvm::Intrinsic::ssub_with_overflow, common, subtrahend), 1);
    }
  }
  return nullptr;
}

// `wide`'s value in `type` where `wide` is its sign extension (a sext from `type`, or a constant
// that fits it), else null.
llvm::Value* narrowed(llvm::Value* wide, llvm::Type* type) {
  llvm::Value* x = nullptr;
  if (match(wide, m_SExt(m_Value(x))) && x->getType() == type) return x;
  const llvm::APInt* c = nullptr;
  const unsigned bits = type->getScalarSizeInBits();
  if (match(wide, m_APInt(c)) && c->isSignedIntN(bits)) return llvm::ConstantInt::get(type, c->trunc(bits));
  return nullptr;
}

// The overflow bit of the n-bit product a * b that `test` computes from the exact one in at
// least 2n bits (p = sext(a) * sext(b), or sext(a) << s): whether p does not fit n bits, as
// InstCombine writes it, (p - 2^(n-1)) <u -2^n. Null where `test` is not that.
llvm::Value* product_overflow_of(llvm::Instruction& test, llvm::IRBuilder<>& at) {
  llvm::Value *p = nullptr, *x = nullptr, *y = nullptr, *a = nullptr, *b = nullptr;
  const llvm::APInt *low = nullptr, *high = nullptr, *shift = nullptr;
  llvm::ICmpInst::Predicate predicate{};
  if (!match(&test, m_ICmp(predicate, m_Add(m_Value(p), m_APInt(low)), m_APInt(high))) ||
      predicate != llvm::ICmpInst::ICMP_ULT)
    return nullptr;
  if (match(p, m_Mul(m_Value(x), m_Value(y)))) {
    llvm::Value* source = nullptr;
    if (!match(x, m_SExt(m_Value(source))) && !match(y, m_SExt(m_Value(source)))) return nullptr;
    a = narrowed(x, source->getType());
    b = narrowed(y, source->getType());
  } else if (match(p, m_Shl(m_SExt(m_Value(a)), m_APInt(shift)))) {
    const unsigned n = a->getType()->getScalarSizeInBits();
    if (shift->uge(n - 1)) return nullptr;
    b = llvm::ConstantInt::get(a->getType(),
                               llvm::APInt(n, 1).shl(static_cast<unsigned>(shift->getZExtValue())));
  }
  if (a == nullptr || b == nullptr) return nullptr;
  const unsigned n = a->getType()->getScalarSizeInBits(), w = p->getType()->getScalarSizeInBits();
  if (w < 2 * n || *low != llvm::APInt::getSignedMinValue(n).sext(w) ||
      *high != llvm::APInt::getHighBitsSet(w, w - n))
    return nullptr;
  return at.CreateExtractValue(at.CreateBinaryIntrinsic(llvm::Intrinsic::smul_with_overflow, a, b), 1);
}

// The overflow bit of a + or a - that `test` computes as the sign bit of (p ^ q) & (s ^ t).
llvm::Value* sum_overflow_of(llvm::Instruction& test, llvm::IRBuilder<>& at) {
  llvm::Value *p = nullptr, *q = nullptr, *s = nullptr, *t = nullptr;
  llvm::ICmpInst::Predicate predicate{};
  if (!match(&test, m_ICmp(predicate, m_And(m_Xor(m_Value(p), m_Value(q)), m_Xor(m_Value(s), m_Value(t))),
                           m_Zero())) ||
      predicate != llvm::ICmpInst::ICMP_SLT)
    return nullptr;
  return overflow_of(p, q, s, t, at);
}

// The overflow bit of r = a + C, C a constant (or a vector of one), in the form InstCombine leaves
// the sum's test in once C's sign is known: C > 0, (r & ~a) <s 0 (r negative, a not); C < 0,
// (a & ~r) <s 0 (a negative, r not), ~r written as (-C - 1) - a or r ^ -1. Null where `test` is
// neither.
llvm::Value* constant_sum_overflow_of(llvm::Instruction& test, llvm::IRBuilder<>& at) {
  llvm::Value *x = nullptr, *y = nullptr;
  llvm::ICmpInst::Predicate predicate{};
  if (!match(&test, m_ICmp(predicate, m_And(m_Value(x), m_Value(y)), m_Zero())) ||
      predicate != llvm::ICmpInst::ICMP_SLT)
    return nullptr;
  const auto sum_overflow = [&](llvm::Value* a, const llvm::APInt& c) {
    return at.CreateExtractValue(at.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_with_overflow, a,
                                                          llvm::ConstantInt::get(a->getType(), c)),
                                 1);
  };
  for (const auto& [u, v] : {std::pair{x, y}, std::pair{y, x}}) {
    llvm::Value* a = nullptr;
    const llvm::APInt* c = nullptr;
    if (match(u, m_Add(m_Value(a), m_APInt(c))) && c->isStrictlyPositive() && match(v, m_Not(m_Specific(a))))
      return sum_overflow(a, *c);
    if (match(v, m_Sub(m_APInt(c), m_Specific(u))) && c->isNonNegative()) return sum_overflow(u, -*c - 1);
    if (match(v, m_Not(m_Add(m_Specific(u), m_APInt(c)))) && c->isNegative()) return sum_overflow(u, *c);
  }
  return nullptr;
}

}  // namespace

llvm::PreservedAnalyses OverflowIdioms::run(llvm::Function& f, llvm::FunctionAnalysisManager&) {
  std::vector<std::pair<llvm::Instruction*, llvm::Value*>> found;
  for (llvm::BasicBlock& block : f)
    for (llvm::Instruction& i : block) {
      if (!llvm::isa<llvm::ICmpInst>(i)) continue;
      llvm::IRBuilder<> at(&i);
      llvm::Value* overflow = sum_overflow_of(i, at);
      if (overflow == nullptr) overflow = product_overflow_of(i, at);
      if (overflow == nullptr) overflow = constant_sum_overflow_of(i, at);
      if (overflow != nullptr) found.emplace_back(&i, overflow);
    }
  for (auto& [test, overflow] : found) {
    test->replaceAllUsesWith(overflow);
    test->eraseFromParent();
  }
  return found.empty() ? llvm::PreservedAnalyses::all() : llvm::PreservedAnalyses::none();
}

}  // namespace warpdiv::jit::native
