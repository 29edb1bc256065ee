// Where nvcc contracts a floating-point multiply and add into one FMA (its default, -fmad=true),
// applied to a kernel model: the model must round as the GPU does, and an FMA rounds once where a
// multiply and an add round twice.
//
// The rules, each measured on sm_90 with nvcc 13 (data/validation/fma-contraction/, PTX and SASS):
//   1. a + b*c, b*c + a, b*c - a and a - b*c contract when the product has no other use: fma,
//      fms, fnma. A product stored in a local and read once contracts too, also under an if
//      (nvcc moves the multiply to its single use), but not into a loop that does not contain it.
//   2. A product with another use does not contract. Products the compiler computes once count as
//      one: the same operands with the same values, where the first dominates the other (`x*x`
//      in a loop's condition and again in its body, before x changes) — value numbering here.
//   3. A product whose operands do not change in the loop that holds it is computed once before
//      the loop (loop-invariant code motion) and does not contract with an add inside it.
//   4. Where both operands of a sum are products that could contract, which one nvcc fuses depends
//      on more than the source shows (the left one in `a*b + c*d`, the right one in
//      `(x*a + b)*c + x*x`): the sum becomes an opaque value naming why, so a branch on it is
//      refused rather than guessed. So does a product read through a local whose operands have
//      changed since (the model would have to keep the old values).
// Explicit calls (fmaf, __fmaf_rn) are Intrinsic expressions already and are left alone.
#pragma once

#include <vector>

#include "sim/ir.hpp"

namespace warpdiv::sim::ir {

struct ContractionResult {
  std::vector<ExprId> contracted;  // sums now fma, fms or fnma
  std::vector<ExprId> unmodelled;  // sums now opaque (their description says why)
};

/// Rewrites, in place, the floating-point sums nvcc contracts (the rules above). The model must be
/// structurally valid; it stays so (a rewritten sum keeps its id; its operands come before it).
ContractionResult contract_floating(Kernel& kernel);

}  // namespace warpdiv::sim::ir
