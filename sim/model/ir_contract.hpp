// Where nvcc contracts a floating-point multiply and add into one FMA (its default, -fmad=true),
// applied to a kernel model: the model must round as the GPU does, and an FMA rounds once where a
// multiply and an add round twice.
//
// The rules, each measured on sm_90 with nvcc 13 (data/validation/fma-contraction/: the PTX NVVM
// makes and the SASS ptxas makes of it, which is what runs):
//   1. A product every use of which is an operand of an add or subtract (of its type) contracts
//      into each of them: a + b*c, b*c + a, b*c - a and a - b*c become fma, fma, fms and fnma.
//      Through a local too, under an if, into a loop, and when it is used by several sums (the
//      multiply then disappears: `s = s + a*b` in a loop is one FFMA per iteration, e1, e2, e8).
//      A product under a sign counts as the product: `-(a*b)`, `a*b*1.0f`, `a*b / -1.0` (LLVM
//      folds the unit factors; the negation goes into the FMA, exactly): `-(a*b) + c` is
//      fnma(a, b, c) (signs/ in the data above).
//   2. A product with any other use (stored, compared, converted, multiplied) does not contract
//      (k3, k9). A copy to another local is no use (`q = p; ... q + r` contracts, as in SSA). Products the
//      compiler computes once count as one: the same operands with the same values, where the first dominates
//      the other (`x*x` in a loop's condition and again in its body, before x changes) — value numbering
//      here.
//   3. A sum of two products each used by more than one sum contracts neither (Mandelbrot's
//      x*x + y*y and x*x - y*y, m1).
//   4. A sum of two products otherwise fuses one of them, which one depending on more than the
//      source shows (the left one in `a*b + c*d`, the right one in `a*b + x*x`, p1, p3): the sum
//      becomes an opaque value naming why, so a branch on it is refused rather than guessed. So
//      does a product read through a local whose operands have changed since (the model would
//      have to keep the old values).
// Explicit calls (fmaf, __fmaf_rn) are Intrinsic expressions already and are left alone.
#pragma once

#include <vector>

#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir {

struct ContractionResult {
  std::vector<ExprId> contracted;  // sums now fma, fms or fnma
  std::vector<ExprId> unmodelled;  // sums now opaque (their description says why)
};

/// Rewrites, in place, the floating-point sums nvcc contracts (the rules above). The model must be
/// structurally valid; it stays so (operands come before their expression: where a product's
/// operands are copied into a sum, the expressions are renumbered, and the ids in the result with them).
ContractionResult contract_floating(Kernel& kernel);

/// Throws InvalidInput (unsupported_construct) for the first condition that depends on a sum
/// `result` left opaque: the source does not settle its rounding (no launch value would), and
/// the description says how to settle it.
void refuse_unsettled_branches(const Kernel& kernel, const ContractionResult& result);

}  // namespace warpdiv::sim::ir
