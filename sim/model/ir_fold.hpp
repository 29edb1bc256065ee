#pragma once
// One constant folder over the model's expressions, on the one table of operations (ir_ops):
// the engines' launch constants, the atomic operands nvcc folds and the uniform evaluator all
// compute through it, each giving the values of its own leaves.

#include <functional>
#include <optional>
#include <string>

#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir {

struct FoldRules {
  /// Integer identities that hold whatever the unknown operand is, as compilers fold them:
  /// x * 0 and x & 0 are 0; x - x, x % x and x ^ x are 0 and x / x is 1 (x a parameter, built-in
  /// or local read twice); c ? a : a is a.
  bool identities = false;
  /// Intrinsics (__popc, __fmaf_rn, ...) computed where their operands are known.
  bool intrinsics = true;
  /// Deeper expressions (counting the leaves' own definitions) are unknown; a model's own
  /// expressions are never deeper than kMaxNesting (validate checks it).
  int max_depth = kMaxNesting;
};

/// Where folding met undefined behaviour or a malformed model: the expression and what happened
/// ("division by zero in int32", "expression 7: bad operand").
struct FoldFault {
  ExprId expr = kNone;
  std::string what;
  bool model_invalid = false;
};

/// The value of a leaf that is not a constant (a parameter, built-in, local, warp value or loaded
/// value) at `depth`; nullopt where it is not known.
using FoldLeaf = std::function<std::optional<Value>(ExprId expr, int depth)>;

/// The value of `e` computed from constants and what `leaf` gives; nullopt where a value it needs
/// is unknown or a step is undefined (`fault`, where given, then names the first such step).
std::optional<Value> fold(const Kernel& k, ExprId e, const FoldLeaf& leaf, const FoldRules& rules,
                          FoldFault* fault = nullptr, int depth = 0);

}  // namespace warpdiv::sim::ir
