// Kernel models built by hand for the probe's tests: one small if/else whose figures are worked
// out by hand, and one that uses every construct of the IR (loops of the three kinds, break,
// continue, switch with fall-through and default, a call with returns, an early return, full and
// partial barriers, unsigned wrap-around, negative % and /, ?:, && and ||, an opaque value).
#pragma once

#include "sim/model/ir.hpp"

namespace warpdiv::testing {

namespace ir = sim::ir;

struct ProbeModel {
  ir::Kernel kernel;
  ir::StmtId branch = ir::kNone;  // if_else: the if
};

// if (threadIdx.x < 40) work; else work;
// On grid 3, block 64, warps of 32: warp 0 (tx 0..31) all take it, warp 1 (tx 32..63) splits
// 8 / 24: 6 evaluations, 3 divergent, 192 active lanes, 3 * (32 + 8) = 120 taken.
inline ProbeModel if_else_model() {
  ProbeModel m;
  ir::Kernel& k = m.kernel;
  k.name = "if_else";
  k.files.push_back(ir::SourceFile{"if_else.cu", {}});
  const ir::ExprId tx = k.cast(ir::ScalarType::I32, k.builtin(ir::Builtin::ThreadIdxX));
  const ir::ExprId cond =
      k.binary(ir::BinaryOp::Lt, tx, k.constant(ir::ScalarType::I32, 40), {0, 2, 7, 2, 30});
  const ir::StmtId then_work = k.work("then", {0, 3, 5, 3, 20});  // statement 0
  const ir::StmtId else_work = k.work("else", {0, 5, 5, 5, 20});  // statement 1
  m.branch = k.if_(cond, then_work, else_work, {0, 2, 3, 6, 1});  // statement 2
  k.root = k.block({m.branch}, {0, 1, 1, 7, 1});
  return m;
}

// Every construct; parameter n (int32) steers the loops, parameter data is opaque.
inline ir::Kernel all_constructs_model() {
  using T = ir::ScalarType;
  using B = ir::BinaryOp;
  ir::Kernel k;
  k.name = "all_constructs";
  k.files.push_back(ir::SourceFile{"all_constructs.cu", {}});
  std::uint32_t line = 1;
  const auto at = [&] {
    ++line;
    return ir::SourceRange{0, line, 3, line, 40};
  };
  k.add_opaque_parameter("data", "float *");
  const std::int32_t n = k.add_parameter("n", T::I32);
  const auto I = [&](std::int64_t v) { return k.constant(T::I32, v); };
  const auto tx = [&] { return k.cast(T::I32, k.builtin(ir::Builtin::ThreadIdxX)); };
  const auto ty = [&] { return k.cast(T::I32, k.builtin(ir::Builtin::ThreadIdxY)); };
  const auto tz = [&] { return k.cast(T::I32, k.builtin(ir::Builtin::ThreadIdxZ)); };
  const ir::LocalId s = k.add_local("s", T::I32);
  const ir::LocalId i = k.add_local("i", T::I32);
  const ir::LocalId u = k.add_local("u", T::U32);
  const ir::LocalId big = k.add_local("big", T::I64);
  const ir::LocalId r = k.add_local("r", T::I32);
  const ir::LocalId x = k.add_local("x", T::I32);
  std::vector<ir::StmtId> body;

  body.push_back(k.declare(s, I(0), at()));
  // x = data[tx] (opaque): assigned, never deciding anything.
  body.push_back(k.declare(x, k.opaque(T::I32, "(int)data[tx] (read from global memory)"), at()));
  // for (i = 0; i < tx % 5 + ty + n; ++i) { if (i == 2) continue; if (i * tx > 40) break; s += i; }
  {
    const ir::StmtId init = k.declare(i, I(0), at());
    const ir::ExprId bound =
        k.binary(B::Add, k.binary(B::Add, k.binary(B::Rem, tx(), I(5)), ty()), k.param(n));
    const ir::ExprId cond = k.binary(B::Lt, k.local(i), bound);
    const ir::StmtId step = k.assign(i, k.binary(B::Add, k.local(i), I(1)), at());
    const ir::StmtId skip = k.if_(k.binary(B::Eq, k.local(i), I(2)), k.continue_(at()), ir::kNone, at());
    const ir::StmtId stop =
        k.if_(k.binary(B::Gt, k.binary(B::Mul, k.local(i), tx()), I(40)), k.break_(at()), ir::kNone, at());
    const ir::StmtId add = k.assign(s, k.binary(B::Add, k.local(s), k.local(i)), at());
    const ir::StmtId w = k.work("data[i] += x", at());
    body.push_back(k.loop(ir::LoopKind::For, init, cond, step, k.block({skip, stop, add, w}, at()), at()));
  }
  // while (s > 3) s = s / 2;
  body.push_back(k.loop(ir::LoopKind::While, ir::kNone, k.binary(B::Gt, k.local(s), I(3)), ir::kNone,
                        k.assign(s, k.binary(B::Div, k.local(s), I(2)), at()), at()));
  // do { s = s - 1; } while (s > -2 && (tx % 3 == 0 || ty == 1));
  body.push_back(
      k.loop(ir::LoopKind::Do, ir::kNone,
             k.logical(ir::LogicalOp::And, k.binary(B::Gt, k.local(s), I(-2)),
                       k.logical(ir::LogicalOp::Or, k.binary(B::Eq, k.binary(B::Rem, tx(), I(3)), I(0)),
                                 k.binary(B::Eq, ty(), I(1)))),
             ir::kNone, k.assign(s, k.binary(B::Sub, k.local(s), I(1)), at()), at()));
  // switch (tx % 4) { case 0: work; break; case 1: work; case 2: work; break; default: work; }
  {
    std::vector<ir::StmtId> children = {k.work("case 0", at()), k.break_(at()), k.work("case 1", at()),
                                        k.work("case 2", at()), k.break_(at()), k.work("default", at())};
    body.push_back(k.switch_(k.binary(B::Rem, tx(), I(4)), children, {{0, 0}, {1, 2}, {2, 3}}, 5, at()));
  }
  // r = f(tx): if (tx & 1) return tx << 2; return (tx >> 1) - n;
  {
    const ir::StmtId odd = k.if_(k.cast(T::Bool, k.binary(B::BitAnd, tx(), I(1))),
                                 k.return_(k.binary(B::Shl, tx(), I(2)), at()), ir::kNone, at());
    const ir::StmtId even = k.return_(k.binary(B::Sub, k.binary(B::Shr, tx(), I(1)), k.param(n)), at());
    body.push_back(k.inlined_call("f", r, k.block({odd, even}, at()), at()));
    body.push_back(k.if_(k.binary(B::Gt, k.local(r), I(20)), k.work("r big", at()), ir::kNone, at()));
  }
  // u = (unsigned)tx - 5u; if (u > 100u) work;   (wraps for tx < 5)
  body.push_back(k.declare(
      u, k.binary(B::Sub, k.cast(T::U32, k.builtin(ir::Builtin::ThreadIdxX)), k.constant(T::U32, 5)), at()));
  body.push_back(
      k.if_(k.binary(B::Gt, k.local(u), k.constant(T::U32, 100)), k.work("wrapped", at()), ir::kNone, at()));
  // big = -(long)tx; if (big % 3 == -1 && big / 2 != -3) work;
  body.push_back(k.declare(big, k.unary(ir::UnaryOp::Neg, k.cast(T::I64, tx())), at()));
  body.push_back(k.if_(
      k.logical(
          ir::LogicalOp::And,
          k.binary(B::Eq, k.binary(B::Rem, k.local(big), k.constant(T::I64, 3)), k.constant(T::I64, -1)),
          k.binary(B::Ne, k.binary(B::Div, k.local(big), k.constant(T::I64, 2)), k.constant(T::I64, -3))),
      k.work("negative", at()), ir::kNone, at()));
  // if ((tx > 3 ? ty : 1) == 1 && ~tx != -8) work;
  body.push_back(k.if_(
      k.logical(ir::LogicalOp::And, k.binary(B::Eq, k.select(k.binary(B::Gt, tx(), I(3)), ty(), I(1)), I(1)),
                k.binary(B::Ne, k.unary(ir::UnaryOp::BitNot, tx()), I(-8))),
      k.work("select", at()), ir::kNone, at()));
  body.push_back(k.barrier(at()));  // full, where nobody returned yet
  // if (tz == 1) return;  then a barrier only the rest reach, and one inside a guard.
  body.push_back(k.if_(k.binary(B::Eq, tz(), I(1)), k.return_(ir::kNone, at()), ir::kNone, at()));
  body.push_back(k.barrier(at()));
  body.push_back(k.if_(k.binary(B::Lt, tx(), I(7)), k.barrier(at()), ir::kNone, at()));
  k.root = k.block(body, {0, 1, 1, line + 1, 1});
  return k;
}

}  // namespace warpdiv::testing
