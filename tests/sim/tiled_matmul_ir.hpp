// The lecture's tiled matrix multiply written by hand as kernel IR (what the Clang front-end would
// produce from its source), for the comparison with the hand-written tiled engines and for the
// replay benchmark. Header-only; used by tests/sim and bench/.
//
//   __global__ void tiled(float* M, float* N, float* P, int J, int K, int L) {
//     __shared__ float Ms[T][T], Ns[T][T];
//     int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
//     int Row = by * T + ty;
//     int Col = bx * T + tx;
//     float Pvalue = 0;
//     for (int p = 0; p < (K - 1) / T + 1; ++p) {
//       if (Row < J && p * T + tx < K) Ms[ty][tx] = M[Row * K + p * T + tx];   // load_M
//       else Ms[ty][tx] = 0;
//       if (p * T + ty < K && Col < L) Ns[ty][tx] = N[(p * T + ty) * L + Col]; // load_N
//       else Ns[ty][tx] = 0;
//       __syncthreads();
//       if (Row < J && Col < L)                                                 // compute
//         for (int k = 0; k < T; ++k) Pvalue += Ms[ty][k] * Ns[k][tx];
//       __syncthreads();
//     }
//     if (Row < J && Col < L) P[Row * L + Col] = Pvalue;                        // store
//   }
// With barrier_in_guard, both __syncthreads() move inside the compute guard (the lecture slide's
// wrong variant): `if (Row < J && Col < L) { __syncthreads(); for (k ...) ...; __syncthreads(); }`.
#pragma once

#include "sim/model/ir.hpp"
#include "sim/engine/ir_replay.hpp"
#include "analysis/lecture/launch.hpp"

namespace warpdiv::sim::ir::testing {

using lecture::ceil_div;
using lecture::LaunchConfig;

struct TiledMatmulIr {
  Kernel kernel;
  StmtId load_m = kNone, load_n = kNone, compute = kNone, store = kNone;
  StmtId phase_loop = kNone, inner_loop = kNone;
  StmtId barrier_1 = kNone, barrier_2 = kNone;
  static constexpr int kParamJ = 3, kParamK = 4, kParamL = 5;
};

inline TiledMatmulIr tiled_matmul_ir(int tile, bool barrier_in_guard = false) {
  TiledMatmulIr t;
  Kernel& k = t.kernel;
  const ScalarType I = ScalarType::I32;
  k.name = "tiled";
  k.files.push_back(SourceFile{"tiled_matmul.cu", {}});
  k.add_opaque_parameter("M", "float *");
  k.add_opaque_parameter("N", "float *");
  k.add_opaque_parameter("P", "float *");
  const int J = k.add_parameter("J", I);
  const int K = k.add_parameter("K", I);
  const int L = k.add_parameter("L", I);
  const auto at = [](std::uint32_t line) { return SourceRange{0, line, 5, line, 40}; };
  const auto T = [&] { return k.constant(I, tile); };
  const auto read = [&](LocalId id) { return k.local(id); };

  const LocalId bx = k.add_local("bx", I), by = k.add_local("by", I);
  const LocalId tx = k.add_local("tx", I), ty = k.add_local("ty", I);
  const LocalId row = k.add_local("Row", I), col = k.add_local("Col", I);
  const LocalId p = k.add_local("p", I), kk = k.add_local("k", I);
  std::vector<StmtId> body;
  body.push_back(k.declare(bx, k.cast(I, k.builtin(Builtin::BlockIdxX)), at(3)));
  body.push_back(k.declare(by, k.cast(I, k.builtin(Builtin::BlockIdxY)), at(3)));
  body.push_back(k.declare(tx, k.cast(I, k.builtin(Builtin::ThreadIdxX)), at(3)));
  body.push_back(k.declare(ty, k.cast(I, k.builtin(Builtin::ThreadIdxY)), at(3)));
  body.push_back(
      k.declare(row, k.binary(BinaryOp::Add, k.binary(BinaryOp::Mul, read(by), T()), read(ty)), at(4)));
  body.push_back(
      k.declare(col, k.binary(BinaryOp::Add, k.binary(BinaryOp::Mul, read(bx), T()), read(tx)), at(5)));
  body.push_back(k.work("float Pvalue = 0", at(6)));

  // p * T + t < K
  const auto phase_bound = [&](LocalId t_local) {
    return k.binary(BinaryOp::Lt,
                    k.binary(BinaryOp::Add, k.binary(BinaryOp::Mul, read(p), T()), read(t_local)),
                    k.param(K));
  };
  const auto guard = [&] {  // Row < J && Col < L
    return k.logical(LogicalOp::And, k.binary(BinaryOp::Lt, read(row), k.param(J)),
                     k.binary(BinaryOp::Lt, read(col), k.param(L)));
  };

  std::vector<StmtId> phase;
  t.load_m =
      k.if_(k.logical(LogicalOp::And, k.binary(BinaryOp::Lt, read(row), k.param(J)), phase_bound(tx)),
            k.work("Ms[ty][tx] = M[Row * K + p * T + tx]", at(8)), k.work("Ms[ty][tx] = 0", at(9)), at(8));
  phase.push_back(t.load_m);
  t.load_n = k.if_(k.logical(LogicalOp::And, phase_bound(ty), k.binary(BinaryOp::Lt, read(col), k.param(L))),
                   k.work("Ns[ty][tx] = N[(p * T + ty) * L + Col]", at(10)), k.work("Ns[ty][tx] = 0", at(11)),
                   at(10));
  phase.push_back(t.load_n);
  t.barrier_1 = k.barrier(at(12));
  t.inner_loop =
      k.loop(LoopKind::For, k.declare(kk, k.constant(I, 0), at(14)), k.binary(BinaryOp::Lt, read(kk), T()),
             k.assign(kk, k.binary(BinaryOp::Add, read(kk), k.constant(I, 1)), at(14)),
             k.work("Pvalue += Ms[ty][k] * Ns[k][tx]", at(14)), at(14));
  t.barrier_2 = k.barrier(at(15));
  if (barrier_in_guard) {
    t.compute = k.if_(guard(), k.block({t.barrier_1, t.inner_loop, t.barrier_2}, at(13)), kNone, at(13));
    phase.push_back(t.compute);
  } else {
    phase.push_back(t.barrier_1);
    t.compute = k.if_(guard(), t.inner_loop, kNone, at(13));
    phase.push_back(t.compute);
    phase.push_back(t.barrier_2);
  }
  // p < (K - 1) / T + 1
  const ExprId phases = k.binary(
      BinaryOp::Add, k.binary(BinaryOp::Div, k.binary(BinaryOp::Sub, k.param(K), k.constant(I, 1)), T()),
      k.constant(I, 1));
  t.phase_loop = k.loop(
      LoopKind::For, k.declare(p, k.constant(I, 0), at(7)), k.binary(BinaryOp::Lt, read(p), phases),
      k.assign(p, k.binary(BinaryOp::Add, read(p), k.constant(I, 1)), at(7)), k.block(phase, at(7)), at(7));
  body.push_back(t.phase_loop);
  t.store = k.if_(guard(), k.work("P[Row * L + Col] = Pvalue", at(17)), kNone, at(17));
  body.push_back(t.store);
  k.root = k.block(body, at(2));
  return t;
}

/// The lecture's launch of the model: blockDim (T, T), grid (ceil(L/T), ceil(J/T)), J, K, L.
inline Launch tiled_launch(const TiledMatmulIr& t, const LaunchConfig& c) {
  Launch l;
  l.block = Dim3{static_cast<std::uint32_t>(c.tile), static_cast<std::uint32_t>(c.tile), 1};
  l.grid = Dim3{static_cast<std::uint32_t>(ceil_div(c.cols, c.tile)),
                static_cast<std::uint32_t>(ceil_div(c.rows, c.tile)), 1};
  l.warp_size = c.warp_size;
  l.arguments.resize(t.kernel.parameters.size());
  l.arguments[TiledMatmulIr::kParamJ] = Value::of(ScalarType::I32, c.rows);
  l.arguments[TiledMatmulIr::kParamK] = Value::of(ScalarType::I32, c.inner);
  l.arguments[TiledMatmulIr::kParamL] = Value::of(ScalarType::I32, c.cols);
  return l;
}

}  // namespace warpdiv::sim::ir::testing
