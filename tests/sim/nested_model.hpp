// A kernel model nested as deep as asked, for the nesting limit (sim/model/ir.hpp: kMaxNesting).
#pragma once

#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir::testing {

/// The root block holds `stmt_depth - 2` ifs inside one another around a work statement (at least
/// 3; as sim/model/ir.hpp counts nesting, the ifs are at levels 1 to stmt_depth - 2 and the work at
/// stmt_depth - 1: the body's block is no level). The innermost if's condition is -(-( ... -(1) ... )) > 0
/// with `expr_depth - 2` minus signs (at least 0): an expression `expr_depth` deep; the other ifs test the
/// constant true. With an even number of minus signs every condition holds. Ids, in the order they are made:
/// expressions: the constant 1 is 0, the minus signs 1 to expr_depth - 2, the constant 0 is expr_depth - 1,
/// the comparison expr_depth, then the constants true; statements: the work is 0, the innermost if 1, the
/// outermost if stmt_depth - 2, the root stmt_depth - 1.
inline Kernel nested_model(int stmt_depth, int expr_depth) {
  Kernel k;
  k.name = "nested";
  k.files.push_back(SourceFile{"nested.cu", {}});
  ExprId value = k.constant(ScalarType::I32, 1);
  for (int i = 0; i < expr_depth - 2; ++i) value = k.unary(UnaryOp::Neg, value);
  const ExprId deep = k.binary(BinaryOp::Gt, value, k.constant(ScalarType::I32, 0));
  StmtId inner = k.if_(deep, k.work("w"));
  for (int i = 0; i < stmt_depth - 3; ++i) inner = k.if_(k.constant(ScalarType::Bool, 1), inner);
  k.root = k.block({inner});
  return k;
}

}  // namespace warpdiv::sim::ir::testing
