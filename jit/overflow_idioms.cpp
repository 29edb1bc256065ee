// The signed-overflow idioms of sim/model/ir_ops.hpp as LLVM's overflow intrinsics
// (jit/overflow_idioms.hpp).
#include "jit/overflow_idioms.hpp"

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

}  // namespace

llvm::PreservedAnalyses OverflowIdioms::run(llvm::Function& f, llvm::FunctionAnalysisManager&) {
  std::vector<std::pair<llvm::Instruction*, llvm::Value*>> found;
  for (llvm::BasicBlock& block : f)
    for (llvm::Instruction& i : block) {
      llvm::Value *p = nullptr, *q = nullptr, *s = nullptr, *t = nullptr;
      llvm::ICmpInst::Predicate predicate{};
      if (!match(&i, m_ICmp(predicate, m_And(m_Xor(m_Value(p), m_Value(q)), m_Xor(m_Value(s), m_Value(t))),
                            m_Zero())) ||
          predicate != llvm::ICmpInst::ICMP_SLT)
        continue;
      llvm::IRBuilder<> at(&i);
      if (llvm::Value* overflow = overflow_of(p, q, s, t, at)) found.emplace_back(&i, overflow);
    }
  for (auto& [test, overflow] : found) {
    test->replaceAllUsesWith(overflow);
    test->eraseFromParent();
  }
  return found.empty() ? llvm::PreservedAnalyses::all() : llvm::PreservedAnalyses::none();
}

}  // namespace warpdiv::jit::native
