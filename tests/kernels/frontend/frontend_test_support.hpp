// The front-end tests' shared parts: the snippet fixture and helpers to find statements and
// replay small launches (tests/kernels/frontend/frontend_test.cpp, frontend_cxx_test.cpp).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/frontend/frontend.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/model/ir_json.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/source_dir.hpp"
#include "tests/text_helpers.hpp"

namespace warpdiv::testing::frontend_tests {

namespace ir = warpdiv::sim::ir;
using warpdiv::InvalidInput;
using warpdiv::frontend::ClangDiagnostics;
using warpdiv::frontend::FrontendOptions;
using warpdiv::frontend::list_kernels;
using warpdiv::frontend::load_kernel;
using warpdiv::testing::body;
using warpdiv::testing::sexpr;
using warpdiv::testing::sstmt;
using warpdiv::testing::statement_at;

class FrontendTest : public warpdiv::testing::SnippetTest {
 protected:
  FrontendTest() : SnippetTest("warpdiv_frontend_") {}
};

/// The id of the first statement of `kind` (the front-end adds children before parents).
inline ir::StmtId first_id(const ir::Kernel& k, ir::StmtKind kind) {
  for (std::size_t i = 0; i < k.stmts.size(); ++i)
    if (k.stmts[i].kind == kind) return static_cast<ir::StmtId>(i);
  throw std::runtime_error("no statement of kind " + ir::name(kind));
}

/// The first statement of `kind` in id order (the front-end adds children before parents).
inline const ir::Stmt& first(const ir::Kernel& k, ir::StmtKind kind) {
  for (const auto& s : k.stmts)
    if (s.kind == kind) return s;
  throw std::runtime_error("no statement of kind " + ir::name(kind));
}

/// warp evaluations, divergent, active lanes, taken lanes (as 64-bit numbers, for messages).
inline std::vector<std::uint64_t> counts(const ir::ReplayResult& r, ir::StmtId id) {
  const auto& c = r.statements.at(id);
  return {static_cast<std::uint64_t>(c.warp_evaluations), static_cast<std::uint64_t>(c.divergent),
          static_cast<std::uint64_t>(c.active_lanes), static_cast<std::uint64_t>(c.taken_lanes)};
}

inline ir::Launch launch(const ir::Kernel& k, ir::Dim3 grid, ir::Dim3 block, int warp_size,
                         const std::vector<std::int64_t>& scalar_arguments) {
  ir::Launch l;
  l.grid = grid;
  l.block = block;
  l.warp_size = warp_size;
  std::size_t next = 0;
  for (const auto& p : k.parameters)
    l.arguments.push_back(p.scalar ? ir::Value::of(p.type, scalar_arguments.at(next++)) : ir::Value{});
  return l;
}

}  // namespace warpdiv::testing::frontend_tests
