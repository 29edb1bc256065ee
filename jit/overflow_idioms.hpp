// A pass of the native replay's pipeline (jit/native_replay.cpp): the branch-free tests of signed
// overflow that sim/model/ir_ops.hpp's templates compute for + and - (the sign bit of
// (a ^ r) & (b ^ r) for r = a + b, of (a ^ b) & (a ^ r) for r = a - b) and for int32 * (the exact
// int64 product against its low 32 bits) rewritten as llvm.sadd/ssub/smul.with.overflow, the same
// predicates in the form LLVM reasons about: InstCombine then drops a test where the operands'
// sign bits prove that no overflow occurs (an int32 index widened to int64, as every access offset
// is), and the target lowers the rest. Private to jit/.
#pragma once

#include <llvm/IR/Function.h>
#include <llvm/IR/PassManager.h>

namespace warpdiv::jit::native {

struct OverflowIdioms : llvm::PassInfoMixin<OverflowIdioms> {
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager&);
};

}  // namespace warpdiv::jit::native
