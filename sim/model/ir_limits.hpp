// Bounds on the JSON text of a kernel model (sim/model/ir_json.hpp). The model's own bounds (nesting
// of statements and expressions, sizes) are sim/model/ir.hpp's kMaxNesting ..., which validate() checks
// for every model, read from JSON or lowered from source, before anything recurses over it.
#pragma once

namespace warpdiv::sim::ir::model_limits {

/// Arrays and objects in one another in the JSON text of a model. A model needs 6 (the document,
/// "kernel", "stmts", a statement, its "cases", a case); anything much deeper is not a model.
constexpr int kMaxJsonDepth = 64;

}  // namespace warpdiv::sim::ir::model_limits
