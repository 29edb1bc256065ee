// A model as text (s-expressions), for tests that compare the front-end's output with
// hand-written expectations.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/model/ir.hpp"

namespace warpdiv::testing {

/// The statement of `kind` whose range starts on `line` of the kernel's own file (throws when
/// there is none).
inline sim::ir::StmtId statement_at(const sim::ir::Kernel& k, std::uint32_t line, sim::ir::StmtKind kind) {
  for (std::size_t i = 0; i < k.stmts.size(); ++i)
    if (k.stmts[i].kind == kind && k.stmts[i].range.file == 0 && k.stmts[i].range.line == line)
      return static_cast<sim::ir::StmtId>(i);
  throw std::runtime_error("no " + sim::ir::name(kind) + " on line " + std::to_string(line));
}

namespace model_text_detail {
namespace ir = sim::ir;
inline std::string sexpr(const ir::Kernel& k, ir::ExprId id) {
  const ir::Expr& e = k.exprs.at(id);
  auto op = [&](int i) { return sexpr(k, e.operands[i]); };
  switch (e.kind) {
    case ir::ExprKind::Constant:
      return ir::to_string(ir::Value{e.type, e.constant}) + ":" + ir::name(e.type);
    case ir::ExprKind::Param:
      return "param:" + k.parameters.at(e.index).name;
    case ir::ExprKind::Builtin:
      return ir::name(e.builtin);
    case ir::ExprKind::Local:
      return k.locals.at(e.index).name;
    case ir::ExprKind::Opaque:
      return "opaque:" + ir::name(e.type) + "{" + e.description + "}";
    case ir::ExprKind::Cast:
      return "(" + ir::name(e.type) + ")" + op(0);
    case ir::ExprKind::Unary:
      return "(" + ir::name(e.unary_op) + op(0) + ")";
    case ir::ExprKind::Binary:
      return "(" + op(0) + " " + ir::name(e.binary_op) + " " + op(1) + ")";
    case ir::ExprKind::Logical:
      return "(" + op(0) + " " + ir::name(e.logical_op) + " " + op(1) + ")";
    case ir::ExprKind::Select:
      return "(" + op(0) + " ? " + op(1) + " : " + op(2) + ")";
    case ir::ExprKind::Warp: {
      std::string text = ir::name(e.warp_op) + "(";
      for (int i = 0; i < ir::operand_count(e.warp_op); ++i) text += (i > 0 ? ", " : "") + op(i);
      return text + ")";
    }
    case ir::ExprKind::Intrinsic: {
      std::string text = ir::name(e.intrinsic) + "(" + op(0);
      for (int i = 1; i < ir::operand_count(e.intrinsic); ++i) text += ", " + op(i);
      return text + ")";
    }
  }
  return "?";
}

inline std::string sstmt(const ir::Kernel& k, ir::StmtId id) {
  if (id == ir::kNone) return "-";
  const ir::Stmt& s = k.stmts.at(id);
  auto value = [&] { return s.value == ir::kNone ? std::string("-") : sexpr(k, s.value); };
  auto list = [&](const std::vector<ir::StmtId>& ids) {
    std::string out;
    for (const auto c : ids) out += " " + sstmt(k, c);
    return out;
  };
  switch (s.kind) {
    case ir::StmtKind::Block:
      return "{" + list(s.children) + " }";
    case ir::StmtKind::Declare:
      return "decl " + k.locals.at(s.local).name + " = " + value() + ";";
    case ir::StmtKind::Assign:
      return k.locals.at(s.local).name + " = " + value() + ";";
    case ir::StmtKind::Work:
      return "work[" + s.description + "];";
    case ir::StmtKind::If:
      return "if " + value() + " " + sstmt(k, s.then_stmt) + " else " + sstmt(k, s.else_stmt);
    case ir::StmtKind::Loop:
      return ir::name(s.loop_kind) + "(" + sstmt(k, s.init) + "; " + value() + "; " + sstmt(k, s.step) +
             ") " + sstmt(k, s.body);
    case ir::StmtKind::Break:
      return "break;";
    case ir::StmtKind::Continue:
      return "continue;";
    case ir::StmtKind::Return:
      return "return " + value() + ";";
    case ir::StmtKind::Barrier:
      return "barrier;";
    case ir::StmtKind::InlinedCall:
      return "call " + s.description + "->" + (s.local == ir::kNone ? "-" : k.locals.at(s.local).name) + " " +
             sstmt(k, s.body);
    case ir::StmtKind::Switch: {
      std::string cases;
      for (const auto& c : s.cases) cases += " " + std::to_string(c.value) + "@" + std::to_string(c.child);
      return "switch " + value() + " [" + cases + " default@" + std::to_string(s.default_child) + " ]" +
             list(s.children);
    }
  }
  return "?";
}

inline std::string body(const ir::Kernel& k) { return sstmt(k, k.root); }

/// A memory access as text: "load global 4 M @ (offset) if (guard)", or "store shared 4
/// s[i] not placed: reason".
inline std::string saccess(const ir::Kernel& k, std::int32_t id) {
  const ir::MemoryAccess& a = k.accesses.at(static_cast<std::size_t>(id));
  std::string out = ir::name(a.kind) + " " + ir::name(a.space) + " " + std::to_string(a.width) + " ";
  if (a.base == ir::kNone) return out + a.text + " not placed: " + a.reason;
  out += k.bases.at(static_cast<std::size_t>(a.base)).name + " @ " + sexpr(k, a.offset);
  if (a.guard != ir::kNone) out += " if " + sexpr(k, a.guard);
  return out;
}

/// Every access of the kernel, in id order.
inline std::vector<std::string> accesses(const ir::Kernel& k) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < k.accesses.size(); ++i) out.push_back(saccess(k, static_cast<std::int32_t>(i)));
  return out;
}
}  // namespace model_text_detail

using model_text_detail::accesses;
using model_text_detail::body;
using model_text_detail::saccess;
using model_text_detail::sexpr;
using model_text_detail::sstmt;

}  // namespace warpdiv::testing
