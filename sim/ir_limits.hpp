// Bounds on the shape of a kernel model (sim/ir.hpp) that every reader and producer keeps, so that
// the recursive walks over it (validate(), the replay engine, the reports) never run out of stack.
//
// kMaxNesting bounds, separately, how deep statements nest in statements (the root block is depth
// 1; an `if` inside it is depth 2 ...) and how deep expressions nest in expressions (a leaf is
// depth 1; `-x` is depth 2 ...). Real kernels stay far below it (tens of levels). Measured on the
// default 8 MiB stack (a Release build, `warpdiv analyze --model` with --csv and --html): the
// deepest walk, the class analysis over an expression, takes about 0.8 KiB per level and ran out
// of stack between 8,000 and 10,000 levels; statements alone between 20,000 and 30,000; 6,000 of
// both at once passed. 2,000 leaves a margin of four for other builds (Debug, sanitizers) and
// walks to come. tests/tools/model_json_cli_test.cpp runs a model at the limit in both.
// kernel_from_json() refuses a deeper model with one line,
// "kernel model JSON: nesting deeper than 2000 at /kernel/stmts/N".
#pragma once

namespace warpdiv::sim::ir::model_limits {

/// Statements in statements, and expressions in expressions (each on its own).
constexpr int kMaxNesting = 2000;

/// Arrays and objects in one another in the JSON text of a model. A model needs 6 (the document,
/// "kernel", "stmts", a statement, its "cases", a case); anything much deeper is not a model.
constexpr int kMaxJsonDepth = 64;

}  // namespace warpdiv::sim::ir::model_limits
