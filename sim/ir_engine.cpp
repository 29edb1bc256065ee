#include "sim/ir_engine.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>

#include "sim/errors.hpp"
#include "sim/ir_ops.hpp"

namespace warpdiv::sim::ir::detail {

namespace {

// ---------------------------------------------------------------------------------------------
// Lane loops. Every lane is computed whatever the active mask (inactive lanes hold garbage that is
// never read); faults count only in active lanes. AU / BU: the operand is uniform (one value).

template <BinaryOp OP, ScalarType T, bool AU, bool BU>
bool binary_lanes(const std::uint64_t* a, const std::uint64_t* b, std::uint64_t* out, int n,
                  LaneMask active) {
  std::uint64_t faults = 0;
  for (int l = 0; l < n; ++l) {
    bool fault = false;
    out[l] = ops::binary<OP, T>(a[AU ? 0 : l], b[BU ? 0 : l], fault);
    faults |= static_cast<std::uint64_t>(fault) << l;
  }
  return (faults & active) != 0;
}

template <BinaryOp OP, ScalarType T, bool AU, bool BU>
LaneMask compare_lanes(const std::uint64_t* a, const std::uint64_t* b, int n) {
  LaneMask m = 0;
  for (int l = 0; l < n; ++l) {
    bool fault = false;  // comparisons never fault
    m |= ops::binary<OP, T>(a[AU ? 0 : l], b[BU ? 0 : l], fault) << l;
  }
  return m;
}

template <UnaryOp OP, ScalarType T>
bool unary_lanes(const std::uint64_t* a, std::uint64_t* out, int n, LaneMask active) {
  std::uint64_t faults = 0;
  for (int l = 0; l < n; ++l) {
    bool fault = false;
    out[l] = ops::unary<OP, T>(a[l], fault);
    faults |= static_cast<std::uint64_t>(fault) << l;
  }
  return (faults & active) != 0;
}

template <ScalarType To>
std::uint64_t convert(std::uint64_t bits) {
  if constexpr (To == ScalarType::Bool) return bits != 0 ? 1 : 0;
  if constexpr (To == ScalarType::I8)
    return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int8_t>(bits)});
  if constexpr (To == ScalarType::U8) return bits & 0xFFu;
  if constexpr (To == ScalarType::I16)
    return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int16_t>(bits)});
  if constexpr (To == ScalarType::U16) return bits & 0xFFFFu;
  if constexpr (To == ScalarType::I32)
    return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(bits)});
  if constexpr (To == ScalarType::U32) return bits & 0xFFFFFFFFu;
  return bits;
}

template <ScalarType To>
void cast_lanes(const std::uint64_t* a, std::uint64_t* out, int n) {
  for (int l = 0; l < n; ++l) out[l] = convert<To>(a[l]);
}

CastLaneFn cast_fn(ScalarType to) {
  switch (to) {
    case ScalarType::Bool: return &cast_lanes<ScalarType::Bool>;
    case ScalarType::I8: return &cast_lanes<ScalarType::I8>;
    case ScalarType::U8: return &cast_lanes<ScalarType::U8>;
    case ScalarType::I16: return &cast_lanes<ScalarType::I16>;
    case ScalarType::U16: return &cast_lanes<ScalarType::U16>;
    case ScalarType::I32: return &cast_lanes<ScalarType::I32>;
    case ScalarType::U32: return &cast_lanes<ScalarType::U32>;
    case ScalarType::I64: return &cast_lanes<ScalarType::I64>;
    case ScalarType::U64: return &cast_lanes<ScalarType::U64>;
  }
  return &cast_lanes<ScalarType::U64>;
}

template <BinaryOp OP, ScalarType T>
void set_binary(CompiledExpr& c) {
  c.binary_lanes = {&binary_lanes<OP, T, false, false>, &binary_lanes<OP, T, true, false>,
                    &binary_lanes<OP, T, false, true>};
  if constexpr (OP >= BinaryOp::Lt)
    c.compare_lanes = {&compare_lanes<OP, T, false, false>, &compare_lanes<OP, T, true, false>,
                       &compare_lanes<OP, T, false, true>};
}

template <BinaryOp OP>
void set_binary_for(CompiledExpr& c, ScalarType t) {
  switch (t) {
    case ScalarType::I32: set_binary<OP, ScalarType::I32>(c); break;
    case ScalarType::U32: set_binary<OP, ScalarType::U32>(c); break;
    case ScalarType::I64: set_binary<OP, ScalarType::I64>(c); break;
    case ScalarType::U64: set_binary<OP, ScalarType::U64>(c); break;
    default: break;  // validate() allows only the four promoted types
  }
}

void compile_binary(CompiledExpr& c, BinaryOp op, ScalarType t) {
  switch (op) {
    case BinaryOp::Add: set_binary_for<BinaryOp::Add>(c, t); break;
    case BinaryOp::Sub: set_binary_for<BinaryOp::Sub>(c, t); break;
    case BinaryOp::Mul: set_binary_for<BinaryOp::Mul>(c, t); break;
    case BinaryOp::Div: set_binary_for<BinaryOp::Div>(c, t); break;
    case BinaryOp::Rem: set_binary_for<BinaryOp::Rem>(c, t); break;
    case BinaryOp::Shl: set_binary_for<BinaryOp::Shl>(c, t); break;
    case BinaryOp::Shr: set_binary_for<BinaryOp::Shr>(c, t); break;
    case BinaryOp::BitAnd: set_binary_for<BinaryOp::BitAnd>(c, t); break;
    case BinaryOp::BitOr: set_binary_for<BinaryOp::BitOr>(c, t); break;
    case BinaryOp::BitXor: set_binary_for<BinaryOp::BitXor>(c, t); break;
    case BinaryOp::Lt: set_binary_for<BinaryOp::Lt>(c, t); break;
    case BinaryOp::Le: set_binary_for<BinaryOp::Le>(c, t); break;
    case BinaryOp::Gt: set_binary_for<BinaryOp::Gt>(c, t); break;
    case BinaryOp::Ge: set_binary_for<BinaryOp::Ge>(c, t); break;
    case BinaryOp::Eq: set_binary_for<BinaryOp::Eq>(c, t); break;
    case BinaryOp::Ne: set_binary_for<BinaryOp::Ne>(c, t); break;
  }
  c.binary = ops::binary_fn(op, t);
}

UnaryLaneFn unary_lane_fn(UnaryOp op, ScalarType t) {
  switch (op) {
    case UnaryOp::Neg:
      switch (t) {
        case ScalarType::I32: return &unary_lanes<UnaryOp::Neg, ScalarType::I32>;
        case ScalarType::U32: return &unary_lanes<UnaryOp::Neg, ScalarType::U32>;
        case ScalarType::I64: return &unary_lanes<UnaryOp::Neg, ScalarType::I64>;
        default: return &unary_lanes<UnaryOp::Neg, ScalarType::U64>;
      }
    case UnaryOp::BitNot:
      switch (t) {
        case ScalarType::I32: return &unary_lanes<UnaryOp::BitNot, ScalarType::I32>;
        case ScalarType::U32: return &unary_lanes<UnaryOp::BitNot, ScalarType::U32>;
        case ScalarType::I64: return &unary_lanes<UnaryOp::BitNot, ScalarType::I64>;
        default: return &unary_lanes<UnaryOp::BitNot, ScalarType::U64>;
      }
    case UnaryOp::LogicalNot: return &unary_lanes<UnaryOp::LogicalNot, ScalarType::Bool>;
  }
  return nullptr;
}

// Without -mpopcnt (the binary stays portable) __builtin_popcountll is a library call; this is
// the branch-free SWAR count, inlined.
int popcount(LaneMask m) {
  m = m - ((m >> 1) & 0x5555555555555555ULL);
  m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
  m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((m * 0x0101010101010101ULL) >> 56);
}
// A comparison of two uniform values, inline (the common loop condition `k < T`).
inline bool compare(BinaryOp op, bool is_signed_type, std::uint64_t a, std::uint64_t b) {
  if (is_signed_type) {
    const auto x = static_cast<std::int64_t>(a), y = static_cast<std::int64_t>(b);
    switch (op) {
      case BinaryOp::Lt: return x < y;
      case BinaryOp::Le: return x <= y;
      case BinaryOp::Gt: return x > y;
      case BinaryOp::Ge: return x >= y;
      case BinaryOp::Eq: return x == y;
      default: return x != y;
    }
  }
  switch (op) {
    case BinaryOp::Lt: return a < b;
    case BinaryOp::Le: return a <= b;
    case BinaryOp::Gt: return a > b;
    case BinaryOp::Ge: return a >= b;
    case BinaryOp::Eq: return a == b;
    default: return a != b;
  }
}

int lowest_lane(LaneMask m) { return __builtin_ctzll(m); }
LaneMask bit(int lane) { return LaneMask{1} << lane; }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Program

Program::Program(const Kernel& k, const Launch& l, const ReplayOptions& o)
    : kernel(k), launch(l), options(o), warp_size(l.warp_size) {
  threads_per_block = l.block.volume();
  warps_per_block = static_cast<int>((threads_per_block + warp_size - 1) / warp_size);
  warps.resize(warps_per_block);
  const std::uint64_t bx = l.block.x, bxy = std::uint64_t{l.block.x} * l.block.y;
  for (int w = 0; w < warps_per_block; ++w) {
    WarpThreads& wt = warps[w];
    wt.lanes = warp_size;
    for (int lane = 0; lane < warp_size; ++lane) {
      const std::uint64_t t = std::uint64_t(w) * warp_size + lane;
      if (t >= threads_per_block) break;
      wt.existing |= bit(lane);
      wt.index[0][lane] = t % bx;
      wt.index[1][lane] = (t / bx) % l.block.y;
      wt.index[2][lane] = t / bxy;
    }
    for (int d = 0; d < 3; ++d) {
      bool same = true;
      for (int lane = 1; lane < warp_size; ++lane)
        if ((wt.existing >> lane & 1) && wt.index[d][lane] != wt.index[d][0]) same = false;
      wt.uniform[d] = same;
    }
  }
  exprs.resize(k.exprs.size());
  for (std::size_t i = 0; i < k.exprs.size(); ++i) {
    const Expr& e = k.exprs[i];
    CompiledExpr& c = exprs[i];
    c.kind = e.kind;
    c.type = e.type;
    c.builtin = e.builtin;
    c.unary_op = e.unary_op;
    c.binary_op = e.binary_op;
    c.logical_op = e.logical_op;
    c.index = e.index;
    std::copy(std::begin(e.operands), std::end(e.operands), std::begin(c.operands));
    c.constant = e.constant;
    if (e.kind == ExprKind::Binary) {
      c.signed_operands = is_signed(k.exprs[e.operands[0]].type);
      c.narrow_operands = bit_width(k.exprs[e.operands[0]].type) <= 32;
    }
    switch (e.kind) {
      case ExprKind::Binary: compile_binary(c, e.binary_op, k.exprs[e.operands[0]].type); break;
      case ExprKind::Unary:
        c.unary = ops::unary_fn(e.unary_op, k.exprs[e.operands[0]].type);
        c.unary_lanes = unary_lane_fn(e.unary_op, k.exprs[e.operands[0]].type);
        break;
      case ExprKind::Cast: c.cast_lanes = cast_fn(e.type); break;
      default: break;
    }
  }
  innermost_loop = innermost_loops(k);
  barrier.assign(k.stmts.size(), kNone);
  for (std::size_t i = 0; i < k.stmts.size(); ++i)
    if (k.stmts[i].kind == StmtKind::Barrier) barrier[i] = barriers++;
  const std::vector<ExprId> origins = opaque_origins(k);
  skip_value.assign(k.stmts.size(), 0);
  for (std::size_t i = 0; i < k.stmts.size(); ++i) {
    const Stmt& s = k.stmts[i];
    skip_value[i] = s.value != kNone && origins[s.value] != kNone ? 1 : 0;
  }
  arguments.resize(k.parameters.size(), 0);
  for (std::size_t i = 0; i < k.parameters.size() && i < l.arguments.size(); ++i)
    arguments[i] = l.arguments[i].bits;
  evaluation_cap = ~std::uint64_t{0};
}

void Program::track(std::vector<std::optional<TrackedComparison>> comparisons,
                    std::vector<std::optional<AcceleratedLoop>> loops) {
  tracked = std::move(comparisons);
  accelerated = std::move(loops);
  for (std::size_t i = 0; i < exprs.size() && i < tracked.size(); ++i)
    exprs[i].tracked = tracked[i].has_value();
  loop_shapes.clear();
  loop_shape.assign(kernel.stmts.size(), -1);
  // A statement is inside loop L when L is among its enclosing loops: its innermost loop, then
  // the loop around each loop in turn (a loop's init is outside it).
  std::vector<StmtId> outer(kernel.stmts.size(), kNone);  // [loop]: the loop around it
  const auto mark = [&](const auto& self, StmtId id, StmtId around) -> void {
    if (id == kNone) return;
    const Stmt& st = kernel.stmts[static_cast<std::size_t>(id)];
    const bool loop = st.kind == StmtKind::Loop;
    if (loop) outer[static_cast<std::size_t>(id)] = around;
    const StmtId inside = loop ? id : around;
    self(self, st.init, around);
    for (StmtId c : st.children) self(self, c, inside);
    for (StmtId c : {st.then_stmt, st.else_stmt, st.body, st.step}) self(self, c, inside);
  };
  mark(mark, kernel.root, kNone);
  for (std::size_t i = 0; i < accelerated.size() && i < kernel.stmts.size(); ++i) {
    if (!accelerated[i]) continue;
    loop_shape[i] = static_cast<std::int32_t>(loop_shapes.size());
    LoopShape shape;
    shape.loop = static_cast<StmtId>(i);
    loop_shapes.push_back(shape);
  }
  for (std::size_t s = 0; s < kernel.stmts.size(); ++s) {
    for (StmtId l = innermost_loop[s]; l != kNone; l = outer[static_cast<std::size_t>(l)]) {
      const std::int32_t shape = loop_shape[static_cast<std::size_t>(l)];
      if (shape < 0) continue;
      LoopShape& sh = loop_shapes[static_cast<std::size_t>(shape)];
      const StmtKind kind = kernel.stmts[s].kind;
      if (kind == StmtKind::If || kind == StmtKind::Loop || kind == StmtKind::Switch)
        sh.conditions.push_back(static_cast<std::uint32_t>(sh.statements.size()));
      sh.statements.push_back(static_cast<StmtId>(s));
    }
  }
  for (LoopShape& sh : loop_shapes)
    sh.outcomes = std::size_t(warps_per_block) * sh.conditions.size() * kMaxIterationClasses <=
                  kMaxOutcomeCells;
}

bool operator==(const TraceEntry& a, const TraceEntry& b) {
  return a.id == b.id && a.active == b.active && a.lt == b.lt && a.gt == b.gt;
}

// ---------------------------------------------------------------------------------------------
// WarpMachine

WarpMachine::WarpMachine(const Program& program)
    : p_(program), k_(program.kernel), by_iteration_(program.options.by_iteration) {
  locals_.resize(k_.locals.size());
  local_lanes_.assign(k_.locals.size() * kMaxLanes, 0);
  scratch_.assign(k_.exprs.size() * kMaxLanes, 0);
  frames_.reserve(k_.stmts.size() + 1);
  loop_iteration_.assign(k_.stmts.size(), 0);
  sink_.resize(k_.stmts.size());
  sink_iterations_.resize(k_.stmts.size());
  full_arrivals_.assign(p_.barriers, 0);
  lane_arrivals_.assign(std::size_t(p_.barriers) * kMaxLanes, 0);
  block_max_.assign(p_.barriers, 0);
  block_min_.assign(p_.barriers, 0);
  warp_iteration_arrivals_.resize(p_.barriers);
  block_iteration_arrivals_.resize(p_.barriers);
  builtins_[static_cast<int>(Builtin::BlockDimX)] = p_.launch.block.x;
  builtins_[static_cast<int>(Builtin::BlockDimY)] = p_.launch.block.y;
  builtins_[static_cast<int>(Builtin::BlockDimZ)] = p_.launch.block.z;
  builtins_[static_cast<int>(Builtin::GridDimX)] = p_.launch.grid.x;
  builtins_[static_cast<int>(Builtin::GridDimY)] = p_.launch.grid.y;
  builtins_[static_cast<int>(Builtin::GridDimZ)] = p_.launch.grid.z;
  builtins_[static_cast<int>(Builtin::WarpSize)] = static_cast<std::uint64_t>(p_.warp_size);
  begin_block(0, 0, 0);
  start_warp(0);
}

void WarpMachine::begin_block(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  block_index_ = {x, y, z};
  block_start_evaluations_ = evaluations_;
  builtins_[static_cast<int>(Builtin::BlockIdxX)] = x;
  builtins_[static_cast<int>(Builtin::BlockIdxY)] = y;
  builtins_[static_cast<int>(Builtin::BlockIdxZ)] = z;
  std::fill(block_max_.begin(), block_max_.end(), 0);
  std::fill(block_min_.begin(), block_min_.end(), ~std::uint64_t{0});
  for (auto& per_k : block_iteration_arrivals_) per_k.clear();
}

void WarpMachine::start_warp(int warp) {
  warp_ = warp;
  threads_ = &p_.warps[warp];
  lanes_ = threads_->lanes;
  alive_ = threads_->existing;
  for (LocalState& l : locals_) l = LocalState{};
  frames_.clear();
  std::fill(full_arrivals_.begin(), full_arrivals_.end(), 0);
  std::fill(lane_arrivals_.begin(), lane_arrivals_.end(), 0);
  for (auto& per_k : warp_iteration_arrivals_) per_k.clear();
}

void WarpMachine::run_warp(int warp, Tally& tally, bool counted) {
  start_warp(warp);
  if (counted) {
    counts_ = tally.statements.data();
    iterations_ = &tally.iterations;
  } else {
    counts_ = sink_.data();
    iterations_ = &sink_iterations_;
  }
  const std::uint64_t before = evaluations_;
  skipped_evaluations_ = 0;
  class_frames_.clear();
  counted_ = counted;
  log_depth_ = 0;
  const bool log_outcomes = log_ != nullptr && counted && !log_->outcomes.empty();
  if (log_outcomes) warp_start_.assign(counts_, counts_ + k_.stmts.size());
  exec(k_.root, threads_->existing);
  if (log_outcomes) {
    for (std::size_t i = 0; i < k_.stmts.size(); ++i) {
      const StmtKind kind = k_.stmts[i].kind;
      if (kind != StmtKind::If && kind != StmtKind::Loop && kind != StmtKind::Switch) continue;
      Counts64 c = counts_[i];
      c.evaluations -= warp_start_[i].evaluations;
      c.divergent -= warp_start_[i].divergent;
      c.active -= warp_start_[i].active;
      c.taken -= warp_start_[i].taken;
      for (std::uint32_t copy = 0; copy < log_copies_; ++copy)
        log_->outcomes[(std::size_t(warp) + copy) * k_.stmts.size() + i] = outcome_of(c);
    }
  }
  if (counted) {
    tally.evaluations += evaluations_ - before + skipped_evaluations_;
    tally.warps += 1;
  }
  // This warp's threads' barrier arrivals, into the block's extremes.
  for (int b = 0; b < p_.barriers; ++b) {
    std::uint64_t most = 0, fewest = ~std::uint64_t{0};
    for (int lane = 0; lane < lanes_; ++lane) {
      if (!(threads_->existing >> lane & 1)) continue;
      const std::uint64_t c = full_arrivals_[b] + lane_arrivals_[std::size_t(b) * kMaxLanes + lane];
      most = std::max(most, c);
      fewest = std::min(fewest, c);
    }
    block_max_[b] = std::max(block_max_[b], most);
    block_min_[b] = std::min(block_min_[b], fewest);
    auto& block_k = block_iteration_arrivals_[b];
    const auto& warp_k = warp_iteration_arrivals_[b];
    if (block_k.size() < warp_k.size()) block_k.resize(warp_k.size());
    for (std::size_t k = 0; k < warp_k.size(); ++k) {
      for (int lane = 0; lane < lanes_; ++lane) {
        if (!(threads_->existing >> lane & 1)) continue;
        const std::uint64_t c = warp_k[k].lanes[lane];
        block_k[k].max = std::max(block_k[k].max, c);
        block_k[k].min = std::min(block_k[k].min, c);
        block_k[k].threads += 1;
      }
    }
  }
}

void WarpMachine::end_block(Tally& tally) {
  tally.blocks += 1;
  for (std::size_t i = 0; i < k_.stmts.size(); ++i) {
    const int b = p_.barrier[i];
    if (b == kNone) continue;
    Counts64& c = tally.statements[i];
    c.block_executions += block_max_[b];
    c.partial_block_executions += block_max_[b] - block_min_[b];
    c.blocks_with_partial += block_max_[b] != block_min_[b] ? 1 : 0;
    const auto& block_k = block_iteration_arrivals_[b];
    if (block_k.empty()) continue;
    auto& per_k = tally.iterations[i];
    if (per_k.size() < block_k.size()) per_k.resize(block_k.size());
    for (std::size_t k = 0; k < block_k.size(); ++k) {
      const std::uint64_t fewest = block_k[k].threads < p_.threads_per_block ? 0 : block_k[k].min;
      per_k[k].block_executions += block_k[k].max;
      per_k[k].partial_block_executions += block_k[k].max - fewest;
      per_k[k].blocks_with_partial += block_k[k].max != fewest ? 1 : 0;
    }
  }
}

void WarpMachine::set_local(LocalId local, const std::uint64_t* lanes, LaneMask defined) {
  std::copy(lanes, lanes + kMaxLanes, local_lanes(local));
  bool same = true;
  for (int l = 1; l < lanes_; ++l) same = same && lanes[l] == lanes[0];
  locals_[local] = LocalState{same, lanes[0], defined};
}

void WarpMachine::evaluate(ExprId expr, LaneMask active, std::uint64_t* out) {
  const Val v = eval(expr, active);
  for (int l = 0; l < kMaxLanes; ++l) out[l] = v.lanes != nullptr ? v.lanes[l] : v.value;
}

// ---------------------------------------------------------------------------------------------
// Counting

Counts64* WarpMachine::iteration_counts(StmtId id) {
  const StmtId loop = p_.innermost_loop[id];
  if (loop == kNone) return nullptr;
  const std::uint64_t k = loop_iteration_[loop];
  auto& per_k = (*iterations_)[id];
  if (per_k.size() <= k) {
    if (k >= kMaxIterationsByIteration) too_many_iterations(loop);
    per_k.resize(k + 1);
  }
  return &per_k[k];
}

__attribute__((always_inline)) inline std::uint64_t WarpMachine::lanes_of(LaneMask mask) {
  if (mask != counted_mask_) {
    counted_mask_ = mask;
    counted_lanes_ = static_cast<std::uint64_t>(popcount(mask));
  }
  return counted_lanes_;
}

__attribute__((always_inline)) inline void WarpMachine::count(StmtId id, LaneMask active) {
  Counts64& c = counts_[id];
  const std::uint64_t lanes = lanes_of(active);
  c.evaluations += 1;
  c.active += lanes;
  evaluations_ += 1;
  if (p_.options.observer != nullptr) observe(id, active, 0);
  if (by_iteration_) {
    if (Counts64* it = iteration_counts(id)) {
      it->evaluations += 1;
      it->active += lanes;
    }
  }
}

__attribute__((always_inline)) inline void WarpMachine::count_condition(StmtId id, LaneMask active,
                                                                  LaneMask taken) {
  Counts64& c = counts_[id];
  const auto divergent = static_cast<std::uint64_t>(taken != 0 && taken != active);
  const std::uint64_t lanes = lanes_of(active);
  const std::uint64_t taken_lanes = taken == active ? lanes : static_cast<std::uint64_t>(popcount(taken));
  c.evaluations += 1;
  c.active += lanes;
  c.taken += taken_lanes;
  c.divergent += divergent;
  evaluations_ += 1;
  if (p_.options.observer != nullptr) observe(id, active, taken);
  if (by_iteration_) {
    if (Counts64* it = iteration_counts(id)) {
      it->evaluations += 1;
      it->active += lanes;
      it->taken += taken_lanes;
      it->divergent += divergent;
    }
  }
}

void WarpMachine::observe(StmtId id, LaneMask active, LaneMask taken) {
  if (p_.sampling) return;  // estimate()'s sample blocks are replayed again for real
  const Dim3 block{static_cast<std::uint32_t>(block_index_[0]),
                   static_cast<std::uint32_t>(block_index_[1]),
                   static_cast<std::uint32_t>(block_index_[2])};
  p_.options.observer->evaluation(block, static_cast<std::uint32_t>(warp_), id, active, taken);
}

void WarpMachine::arrive(StmtId id, LaneMask active) {
  const int b = p_.barrier[id];
  if (active == threads_->existing) {
    full_arrivals_[b] += 1;
  } else {
    for (LaneMask m = active; m != 0; m &= m - 1)
      lane_arrivals_[std::size_t(b) * kMaxLanes + lowest_lane(m)] += 1;
  }
  if (by_iteration_ && p_.innermost_loop[id] != kNone) {
    const std::uint64_t k = loop_iteration_[p_.innermost_loop[id]];
    auto& per_k = warp_iteration_arrivals_[b];
    if (per_k.size() <= k) {
      if (k >= kMaxIterationsByIteration) too_many_iterations(p_.innermost_loop[id]);
      per_k.resize(k + 1);
    }
    for (LaneMask m = active; m != 0; m &= m - 1) per_k[k].lanes[lowest_lane(m)] += 1;
  }
}

namespace {
__extension__ typedef __int128 Wide;
Wide floor_div(Wide n, Wide d) {
  // Mostly 64-bit operands: a 64-bit division is many times faster than a 128-bit one.
  constexpr Wide kLow = std::numeric_limits<std::int64_t>::min(), kHigh = std::numeric_limits<std::int64_t>::max();
  if (n > kLow && n <= kHigh && d > kLow && d <= kHigh) {
    const auto a = static_cast<std::int64_t>(n), b = static_cast<std::int64_t>(d);
    std::int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) --q;
    return q;
  }
  Wide q = n / d;
  if (n % d != 0 && ((n < 0) != (d < 0))) --q;
  return q;
}
Wide ceil_div(Wide n, Wide d) { return -floor_div(-n, d); }
}  // namespace

// D of lanes 0 .. lanes-1 in one branch-free pass: the signs of every lane; over the active
// ones, the extremes and (kNearest) the values nearest 0 on each side. A function of its own with
// local accumulators, so that they stay in registers.
namespace {
struct LaneScan {
  LaneMask lt = 0, gt = 0;
  std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
  std::int64_t below = std::numeric_limits<std::int64_t>::min(), above = std::numeric_limits<std::int64_t>::max();
};
template <bool kNearest>
__attribute__((always_inline)) inline LaneScan scan_lanes(const std::int64_t* d, int lanes, LaneMask active) {
  LaneMask lt = 0, gt = 0;
  std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
  std::int64_t below = std::numeric_limits<std::int64_t>::min(), above = std::numeric_limits<std::int64_t>::max();
  for (int l = 0; l < lanes; ++l) {
    const bool on = (active >> l & 1) != 0;
    lt |= static_cast<LaneMask>(d[l] < 0) << l;
    gt |= static_cast<LaneMask>(d[l] > 0) << l;
    lo = std::min(lo, on ? d[l] : lo);
    hi = std::max(hi, on ? d[l] : hi);
    if constexpr (kNearest) {
      below = std::max(below, on && d[l] < 0 ? d[l] : below);
      above = std::min(above, on && d[l] > 0 ? d[l] : above);
    }
  }
  return LaneScan{lt, gt, lo, hi, below, above};
}
}  // namespace

// A tracked comparison: its outcome per lane (less, greater) into the trace, and where along each
// block index (and each accelerated loop's iterations) some lane's outcome changes. For one lane,
// a - b = D now and D + c * delta at a block index (iteration) delta further on: its sign changes
// at delta = ceil(-D / c) (to or from 0) and floor(-D / c) + 1 (past 0).
// D = a - b of lanes 0 .. lanes_-1 into d, when every lane's D fits in 64 bits: always for 32-bit
// operands (normalised to 64 bits, so both signednesses read as int64); for 64-bit ones when no
// lane's subtraction overflows (lanes that are not active may make it fail: then the caller takes
// the 128-bit path, which is exact anyway).
bool WarpMachine::d_fits_64(const CompiledExpr& e, const Val& a, const Val& b,
                            std::array<std::int64_t, kMaxLanes>& d) const {
  const std::uint64_t* pa = a.lanes;
  const std::uint64_t* pb = b.lanes;
  const std::uint64_t av = a.value, bv = b.value;
  if (e.narrow_operands) {
    for (int l = 0; l < lanes_; ++l)
      d[l] = static_cast<std::int64_t>(pa != nullptr ? pa[l] : av) -
             static_cast<std::int64_t>(pb != nullptr ? pb[l] : bv);
    return true;
  }
  bool fits = true;
  if (e.signed_operands) {
    for (int l = 0; l < lanes_; ++l) {
      long long r = 0;
      fits &= !__builtin_sub_overflow(static_cast<long long>(pa != nullptr ? pa[l] : av),
                                      static_cast<long long>(pb != nullptr ? pb[l] : bv), &r);
      d[l] = r;
    }
  } else {
    for (int l = 0; l < lanes_; ++l) {
      const std::uint64_t x = pa != nullptr ? pa[l] : av, y = pb != nullptr ? pb[l] : bv;
      fits &= ((x | y) >> 63) == 0;  // both below 2^63: x - y cannot overflow int64
      d[l] = static_cast<std::int64_t>(x - y);
    }
  }
  return fits;
}

void WarpMachine::record(ExprId id, LaneMask active, Val a, Val b) {
  const CompiledExpr& e = p_.exprs[id];
  const TrackedComparison& t = *p_.tracked[id];
  const auto diff = [&](int l) {
    const std::uint64_t x = a.lanes != nullptr ? a.lanes[l] : a.value;
    const std::uint64_t y = b.lanes != nullptr ? b.lanes[l] : b.value;
    return e.signed_operands ? Wide{static_cast<std::int64_t>(x)} - static_cast<std::int64_t>(y)
                             : Wide{x} - Wide{y};
  };
  // Per lane: the outcome; over the lanes: the extremes of D, and those nearest 0 on each side
  // (the first iteration where some lane's outcome changes comes from one of them).
  LaneMask lt = 0, gt = 0;
  Wide low = 0, high = 0, below = 0, above = 0;
  bool any = false, any_below = false, any_above = false, zero = false;
  bool lanes_scanned = false;  // below, above and zero already found
  if (a.lanes == nullptr && b.lanes == nullptr) {
    const Wide d = diff(0);
    any = active != 0;
    lt = d < 0 ? active : 0;
    gt = d > 0 ? active : 0;
    low = high = d;
    below = above = d;
    any_below = d < 0;
    any_above = d > 0;
    zero = d == 0;
  } else if (std::array<std::int64_t, kMaxLanes> d64; d_fits_64(e, a, b, d64)) {
    // D of every lane in 64 bits (always for 32-bit operands, nearly always for 64-bit ones):
    // every lane is computed, branch-free, and the inactive ones masked out.
    // With a running class of iterations, also the active lanes' D nearest 0 on each side.
    const bool nearest = !t.loop_coefficients.empty() && !class_frames_.empty();
    const LaneScan sc = nearest ? scan_lanes<true>(d64.data(), lanes_, active)
                                : scan_lanes<false>(d64.data(), lanes_, active);
    lt = sc.lt & active;
    gt = sc.gt & active;
    any = active != 0;
    low = sc.lo;
    high = sc.hi;
    if (nearest) {
      any_below = lt != 0;
      any_above = gt != 0;
      below = sc.below;
      above = sc.above;
      zero = (active & ~lt & ~gt) != 0;
      lanes_scanned = true;
    }
  } else {
    for (LaneMask m = active; m != 0; m &= m - 1) {
      const int l = lowest_lane(m);
      const Wide d = diff(l);
      lt |= static_cast<LaneMask>(d < 0) << l;
      gt |= static_cast<LaneMask>(d > 0) << l;
      if (!any || d < low) low = d;
      if (!any || d > high) high = d;
      any = true;
    }
  }
  if (!t.loop_coefficients.empty() && !class_frames_.empty() && !lanes_scanned &&
      !(a.lanes == nullptr && b.lanes == nullptr)) {
    for (LaneMask m = active; m != 0; m &= m - 1) {
      const Wide d = diff(lowest_lane(m));
      if (d < 0 && (!any_below || d > below)) { below = d; any_below = true; }
      if (d > 0 && (!any_above || d < above)) { above = d; any_above = true; }
      zero |= d == 0;
    }
  }
  trace_->entries.push_back(TraceEntry{id, active, lt, gt});
  if (!any) return;
  const std::uint64_t grid[3] = {p_.launch.grid.x, p_.launch.grid.y, p_.launch.grid.z};
  // The indices along a block (warp) index where some active lane's outcome changes, the index
  // now b0 and a - b changing by c per step, into `out` when within (0, size); returns the range
  // they span (unclipped).
  const auto thresholds = [&](Wide c, Wide b0, std::uint64_t size, std::vector<std::uint64_t>& out) {
    const auto add = [&](Wide at) {
      if (at > 0 && at < Wide{size}) out.push_back(static_cast<std::uint64_t>(at));
    };
    // Thresholds are monotonic in D: those of the lanes lie between those of the extremes.
    const Wide t1 = b0 + ceil_div(-low, c), t2 = b0 + ceil_div(-high, c);
    const Wide u1 = b0 + floor_div(-low, c) + 1, u2 = b0 + floor_div(-high, c) + 1;
    const Wide from = std::min(std::min(t1, t2), std::min(u1, u2));
    const Wide to = std::max(std::max(t1, t2), std::max(u1, u2));
    if (to - from <= 8) {
      for (Wide at = from; at <= to; ++at) add(at);
    } else {
      for (LaneMask m = active; m != 0; m &= m - 1) {
        const Wide d = diff(lowest_lane(m));
        add(b0 + ceil_div(-d, c));
        add(b0 + floor_div(-d, c) + 1);
      }
    }
    return std::pair<Wide, Wide>{from, to};
  };
  for (int dim = 0; dim < 3; ++dim) {
    const Wide c = t.block_coefficient[dim];
    if (c == 0) continue;
    const auto [from, to] = thresholds(c, Wide{block_index_[dim]}, grid[dim], trace_->breakpoints[dim]);
    if (p_.warp_classes) trace_->block_ranges.push_back(ClassTrace::BlockRange{dim, from, to});
  }
  if (p_.warp_classes && t.warp_coefficient != 0)
    thresholds(Wide{t.warp_coefficient}, Wide{warp_}, static_cast<std::uint64_t>(p_.warps_per_block),
               trace_->warp_breakpoints);
  for (const auto& [loop, coefficient] : t.loop_coefficients) {
    for (std::size_t i = class_frames_.size(); i-- > 0;) {
      ClassFrame& f = class_frames_[i];
      if (f.loop != loop) continue;
      const Wide c = Wide{coefficient} * p_.accelerated[loop]->step;
      if (c == 0) break;
      // Thresholds after k0 come from the lanes whose D has the sign opposite to c (or is 0):
      // the nearest such D gives the nearest threshold.
      const Wide k0 = f.k;
      Wide next = f.next;
      const auto consider = [&](Wide d) {
        for (const Wide at : {k0 + ceil_div(-d, c), k0 + floor_div(-d, c) + 1})
          if (at > k0 && at < next) next = at;
      };
      if (c > 0 && any_below) consider(below);
      if (c < 0 && any_above) consider(above);
      if (zero) consider(0);
      f.next = static_cast<std::uint64_t>(next);
      break;
    }
  }
}

void WarpMachine::too_many_iterations(StmtId loop) const {
  throw InvalidInput(location(k_, k_.stmts[loop].range) + ": the " + report_kind(k_.stmts[loop]) +
                     " loop runs more than " + std::to_string(kMaxIterationsByIteration) +
                     " iterations, the most that counts by iteration keep");
}

void WarpMachine::check_limits() {
  if (p_.options.stop != nullptr && p_.options.stop->load(std::memory_order_relaxed))
    throw Interrupted("replay interrupted");
  const std::uint64_t done =
      p_.shared_evaluations != nullptr ? p_.shared_evaluations->load(std::memory_order_relaxed) : 0;
  if (done + (evaluations_ - block_start_evaluations_) > p_.evaluation_cap) {
    if (p_.sampling)
      throw InvalidInput("one block of the replay alone makes more than " +
                         std::to_string(p_.evaluation_cap) +
                         " warp-statement evaluations, the budget for a whole run (--max-evaluations)" +
                         running_loop() + "; a loop that does not end?");
    throw InvalidInput("the run passed " + std::to_string(p_.evaluation_cap) +
                       " warp-statement evaluations (its budget, --max-evaluations) and was stopped" +
                       running_loop() + "; a loop that does not end, or a launch bigger than estimated");
  }
}

std::string WarpMachine::running_loop() const {
  for (std::size_t i = frames_.size(); i-- > 0;)
    if (frames_[i].kind == FrameKind::Loop && frames_[i].loop != kNone) {
      const Stmt& s = k_.stmts[static_cast<std::size_t>(frames_[i].loop)];
      return " in the " + report_kind(s) + " loop at " + location(k_, s.range) + " (block (" +
             std::to_string(block_index_[0]) + ", " + std::to_string(block_index_[1]) + ", " +
             std::to_string(block_index_[2]) + "), warp " + std::to_string(warp_) + ")";
    }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Errors

void WarpMachine::undefined(ExprId expr, const std::string& what, LaneMask lanes) const {
  throw InvalidInput(location(k_, k_.exprs[expr].range) + ": undefined behaviour: " + what + " in " +
                     block_and_thread(lowest_lane(lanes)));
}

// ---------------------------------------------------------------------------------------------
// Expressions

inline bool WarpMachine::uniform_leaf(ExprId id, LaneMask active, std::uint64_t& value) const {
  const CompiledExpr& e = p_.exprs[id];
  switch (e.kind) {
    case ExprKind::Constant: value = e.constant; return true;
    case ExprKind::Param: value = p_.arguments[e.index]; return true;
    case ExprKind::Local: {
      const LocalState& l = locals_[e.index];
      value = l.value;
      return l.uniform && (active & ~l.defined) == 0;
    }
    default: return false;
  }
}

inline WarpMachine::Val WarpMachine::operand(ExprId id, LaneMask active) {
  const CompiledExpr& e = p_.exprs[id];
  switch (e.kind) {
    case ExprKind::Binary: {
      // Two uniform leaves (`i + 1`, `p * T`): computed here; a fault goes to eval() to report.
      std::uint64_t a = 0, b = 0;
      if (e.tracked && trace_ != nullptr) break;
      if (uniform_leaf(e.operands[0], active, a) && uniform_leaf(e.operands[1], active, b)) {
        bool fault = false;
        const std::uint64_t r = e.binary_op == BinaryOp::Add && e.type == ScalarType::I32
                                    ? ops::binary<BinaryOp::Add, ScalarType::I32>(a, b, fault)
                                    : e.binary(a, b, fault);
        if (!fault) return {nullptr, r};
      }
      break;
    }
    case ExprKind::Constant: return {nullptr, e.constant};
    case ExprKind::Param: return {nullptr, p_.arguments[e.index]};
    case ExprKind::Local: {
      const LocalState& l = locals_[e.index];
      if ((active & ~l.defined) == 0) return l.uniform ? Val{nullptr, l.value} : Val{local_lanes(e.index), 0};
      break;  // eval() reports the read of an unassigned local
    }
    default: break;
  }
  return eval(id, active);
}

WarpMachine::Val WarpMachine::eval(ExprId id, LaneMask active) {
  const CompiledExpr& e = p_.exprs[id];
  const CompiledExpr& c = e;
  switch (e.kind) {
    case ExprKind::Constant: return {nullptr, e.constant};
    case ExprKind::Param: return {nullptr, p_.arguments[e.index]};
    case ExprKind::Builtin: {
      const int b = static_cast<int>(e.builtin);
      if (b <= static_cast<int>(Builtin::ThreadIdxZ)) {
        if (threads_->uniform[b]) return {nullptr, threads_->index[b][0]};
        return {threads_->index[b].data(), 0};
      }
      return {nullptr, builtins_[b]};
    }
    case ExprKind::Local: {
      const LocalState& l = locals_[e.index];
      if ((active & ~l.defined) != 0)
        undefined(id, "'" + k_.locals[e.index].name + "' is read before it is assigned",
                  active & ~l.defined);
      if (l.uniform) return {nullptr, l.value};
      return {local_lanes(e.index), 0};
    }
    case ExprKind::Opaque: break;
    case ExprKind::Cast: {
      const Val a = operand(e.operands[0], active);
      if (a.lanes == nullptr) return {nullptr, normalise(e.type, a.value)};
      std::uint64_t* out = scratch(id);
      c.cast_lanes(a.lanes, out, lanes_);
      return {out, 0};
    }
    case ExprKind::Unary: {
      const Val a = eval(e.operands[0], active);
      if (a.lanes == nullptr) {
        bool fault = false;
        const std::uint64_t r = c.unary(a.value, fault);
        if (fault) undefined(id, ops::describe_fault(e.unary_op, e.type), active);
        return {nullptr, r};
      }
      std::uint64_t* out = scratch(id);
      if (c.unary_lanes(a.lanes, out, lanes_, active)) {
        LaneMask bad = 0;
        for (int l = 0; l < lanes_; ++l) {
          bool fault = false;
          c.unary(a.lanes[l], fault);
          if (fault) bad |= bit(l);
        }
        undefined(id, ops::describe_fault(e.unary_op, e.type), bad & active);
      }
      return {out, 0};
    }
    case ExprKind::Binary: {
      if (e.tracked && trace_ != nullptr) {  // a comparison as a value: through compare_mask
        const LaneMask m = compare_mask(e, active);
        std::uint64_t* out = scratch(id);
        for (int l = 0; l < lanes_; ++l) out[l] = m >> l & 1;
        return {out, 0};
      }
      const Val a = operand(e.operands[0], active);
      const Val b = operand(e.operands[1], active);
      if (a.lanes == nullptr && b.lanes == nullptr) {
        bool fault = false;
        // `i + 1` on int, the usual loop step, inline; the rest through the operator's function.
        const std::uint64_t r = e.binary_op == BinaryOp::Add && e.type == ScalarType::I32
                                    ? ops::binary<BinaryOp::Add, ScalarType::I32>(a.value, b.value, fault)
                                    : c.binary(a.value, b.value, fault);
        if (fault)
          undefined(id, ops::describe_fault(e.binary_op, k_.exprs[e.operands[0]].type, a.value, b.value),
                    active);
        return {nullptr, r};
      }
      const int variant = a.lanes == nullptr ? 1 : b.lanes == nullptr ? 2 : 0;
      const std::uint64_t* pa = a.lanes != nullptr ? a.lanes : &a.value;
      const std::uint64_t* pb = b.lanes != nullptr ? b.lanes : &b.value;
      std::uint64_t* out = scratch(id);
      if (c.binary_lanes[variant](pa, pb, out, lanes_, active)) {
        for (int l = 0; l < lanes_; ++l) {
          if (!(active >> l & 1)) continue;
          const std::uint64_t x = pa[a.lanes != nullptr ? l : 0], y = pb[b.lanes != nullptr ? l : 0];
          bool fault = false;
          c.binary(x, y, fault);
          if (fault)
            undefined(id, ops::describe_fault(e.binary_op, k_.exprs[e.operands[0]].type, x, y), bit(l));
        }
      }
      return {out, 0};
    }
    case ExprKind::Logical:
    case ExprKind::Select: {
      if (e.kind == ExprKind::Logical || e.type == ScalarType::Bool) {
        // Computed as a mask (lazily), then spread into lanes.
        const LaneMask m = eval_mask(id, active);
        if (m == active) return {nullptr, 1};
        if (m == 0) return {nullptr, 0};
        std::uint64_t* out = scratch(id);
        for (int l = 0; l < lanes_; ++l) out[l] = m >> l & 1;
        return {out, 0};
      }
      const LaneMask m = eval_mask(e.operands[0], active);
      const LaneMask t = active & m, f = active & ~m;
      if (f == 0) return eval(e.operands[1], active);
      if (t == 0) return eval(e.operands[2], active);
      const Val x = eval(e.operands[1], t);
      const Val y = eval(e.operands[2], f);
      std::uint64_t* out = scratch(id);
      for (int l = 0; l < lanes_; ++l) {
        const std::uint64_t xv = x.lanes != nullptr ? x.lanes[l] : x.value;
        const std::uint64_t yv = y.lanes != nullptr ? y.lanes[l] : y.value;
        out[l] = (m >> l & 1) ? xv : yv;
      }
      return {out, 0};
    }
  }
  throw std::logic_error("replay: an opaque value reached evaluation (" +
                         location(k_, k_.exprs[id].range) + ")");
}

inline LaneMask WarpMachine::compare_mask(const CompiledExpr& e, LaneMask active) {
  const Val a = operand(e.operands[0], active);
  const Val b = operand(e.operands[1], active);
  if (e.tracked && trace_ != nullptr) record(static_cast<ExprId>(&e - p_.exprs.data()), active, a, b);
  if (a.lanes == nullptr && b.lanes == nullptr)
    return compare(e.binary_op, e.signed_operands, a.value, b.value) ? active : 0;
  const int variant = a.lanes == nullptr ? 1 : b.lanes == nullptr ? 2 : 0;
  return e.compare_lanes[variant](a.lanes != nullptr ? a.lanes : &a.value,
                                  b.lanes != nullptr ? b.lanes : &b.value, lanes_) &
         active;
}

inline LaneMask WarpMachine::condition(ExprId id, LaneMask active) {
  const CompiledExpr& e = p_.exprs[id];
  if (e.kind == ExprKind::Binary && is_comparison(e.binary_op)) return compare_mask(e, active);
  return eval_mask(id, active);
}

LaneMask WarpMachine::eval_mask(ExprId id, LaneMask active) {
  const CompiledExpr& e = p_.exprs[id];
  switch (e.kind) {
    case ExprKind::Binary:
      if (is_comparison(e.binary_op)) return compare_mask(e, active);
      break;
    case ExprKind::Logical: {
      const LaneMask left = eval_mask(e.operands[0], active);
      if (e.logical_op == LogicalOp::And) return left == 0 ? 0 : eval_mask(e.operands[1], left);
      const LaneMask rest = active & ~left;
      return rest == 0 ? left : left | eval_mask(e.operands[1], rest);
    }
    case ExprKind::Unary:
      if (e.unary_op == UnaryOp::LogicalNot) return active & ~eval_mask(e.operands[0], active);
      break;
    case ExprKind::Select:
      if (e.type == ScalarType::Bool) {
        const LaneMask m = eval_mask(e.operands[0], active);
        const LaneMask t = active & m, f = active & ~m;
        LaneMask r = 0;
        if (t != 0) r |= eval_mask(e.operands[1], t);
        if (f != 0) r |= eval_mask(e.operands[2], f);
        return r;
      }
      break;
    default: break;
  }
  const Val v = eval(id, active);
  if (v.lanes == nullptr) return v.value != 0 ? active : 0;
  LaneMask m = 0;
  for (int l = 0; l < lanes_; ++l) m |= static_cast<LaneMask>(v.lanes[l] != 0) << l;
  return m & active;
}

void WarpMachine::write(LocalId local, Val v, LaneMask mask) {
  LocalState& st = locals_[local];
  std::uint64_t* lanes = local_lanes(local);
  // Lanes that keep an older value and may still read it.
  const LaneMask kept = st.defined & alive_ & ~mask;
  if (v.lanes == nullptr) {
    if (kept == 0 || (st.uniform && st.value == v.value)) {
      st.uniform = true;
      st.value = v.value;
      st.defined = (kept == 0 ? 0 : st.defined) | mask;
      return;
    }
    if (st.uniform) std::fill(lanes, lanes + lanes_, st.value);
    for (int l = 0; l < lanes_; ++l)
      if (mask >> l & 1) lanes[l] = v.value;
  } else if (kept == 0) {
    if (v.lanes != lanes) std::copy(v.lanes, v.lanes + lanes_, lanes);
  } else {
    if (st.uniform) std::fill(lanes, lanes + lanes_, st.value);
    for (int l = 0; l < lanes_; ++l)
      if (mask >> l & 1) lanes[l] = v.lanes[l];
  }
  st.uniform = false;
  st.defined = (kept == 0 ? 0 : st.defined) | mask;
}

// ---------------------------------------------------------------------------------------------
// Statements

std::size_t WarpMachine::frame_for(FrameKind a, FrameKind b) const {
  for (std::size_t i = frames_.size(); i-- > 0;)
    if (frames_[i].kind == a || frames_[i].kind == b) return i;
  return frames_.size();  // none (validate() makes this impossible for break and continue)
}

LaneMask WarpMachine::exec(StmtId id, LaneMask active) {
  const Stmt& s = k_.stmts[id];
  switch (s.kind) {
    case StmtKind::Block:
      count(id, active);
      for (StmtId child : s.children) {
        // Work statements (a third of a typical kernel's) are only counted: no call for them.
        if (k_.stmts[child].kind == StmtKind::Work) {
          count(child, active);
          continue;
        }
        active = exec(child, active);
        if (active == 0) break;
      }
      return active;
    case StmtKind::Declare:
    case StmtKind::Assign:
      count(id, active);
      if (s.value == kNone) {
        locals_[s.local].defined &= ~active;  // declared without a value: indeterminate again
      } else if (!p_.skip_value[id]) {
        write(s.local, operand(s.value, active), active);
      }
      return active;
    case StmtKind::Work: count(id, active); return active;
    case StmtKind::If: {
      // An else-if chain runs as a loop, link by link: its length costs no stack.
      LaneMask out = 0;
      for (StmtId at = id;;) {
        const Stmt& link = k_.stmts[at];
        const LaneMask taken = condition(link.value, active);
        count_condition(at, active, taken);
        if (taken != 0) out |= exec(link.then_stmt, taken);
        active &= ~taken;
        if (active == 0) return out;
        if (link.else_stmt == kNone) return out | active;
        if (k_.stmts[link.else_stmt].kind != StmtKind::If) return out | exec(link.else_stmt, active);
        at = link.else_stmt;
      }
    }
    case StmtKind::Loop: return exec_loop(id, s, active);
    case StmtKind::Break:
      count(id, active);
      frames_[frame_for(FrameKind::Loop, FrameKind::Switch)].broken |= active;
      return 0;
    case StmtKind::Continue:
      count(id, active);
      frames_[frame_for(FrameKind::Loop, FrameKind::Loop)].continued |= active;
      return 0;
    case StmtKind::Return: {
      count(id, active);
      const std::size_t call = frame_for(FrameKind::Call, FrameKind::Call);
      if (call == frames_.size()) {
        alive_ &= ~active;  // leaves the kernel
        return 0;
      }
      if (s.value != kNone && !p_.skip_value[id]) {
        write(frames_[call].result, eval(s.value, active), active);
      }
      frames_[call].returned |= active;
      return 0;
    }
    case StmtKind::Barrier:
      count(id, active);
      arrive(id, active);
      return active;
    case StmtKind::InlinedCall: {
      count(id, active);
      Frame f{FrameKind::Call};
      f.result = s.local;
      frames_.push_back(f);
      const LaneMask out = exec(s.body, active) | frames_.back().returned;
      frames_.pop_back();
      return out;
    }
    case StmtKind::Switch: return exec_switch(id, s, active);
  }
  return active;
}

void counts_overflow() { throw InvalidInput("the counts of one block pass 2^64"); }

namespace {

// The piece that holds iteration k (pieces are consecutive from 0; k within them).
std::size_t piece_of(const std::vector<IterationPiece>& pieces, std::uint64_t k) {
  const auto it = std::upper_bound(pieces.begin(), pieces.end(), k,
                                   [](std::uint64_t v, const IterationPiece& p) { return v < p.first; });
  return static_cast<std::size_t>(it - pieces.begin()) - 1;
}

// Cuts the piece holding iteration k so that a piece starts at k (merged pieces stay whole).
void split_at(std::vector<IterationPiece>& pieces, std::uint64_t k) {
  if (pieces.empty() || k > pieces.back().last || k == 0) return;
  const std::size_t i = piece_of(pieces, k);
  if (pieces[i].first == k || pieces[i].merged) return;
  IterationPiece right = pieces[i];
  right.first = k;
  pieces[i].last = k - 1;
  pieces.insert(pieces.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(right));
}

}  // namespace

LaneMask WarpMachine::exec_loop(StmtId id, const Stmt& s, LaneMask active) {
  LaneMask in = active;
  if (s.init != kNone) in = exec(s.init, in);
  Frame loop_frame{FrameKind::Loop};
  loop_frame.loop = id;
  frames_.push_back(loop_frame);
  const std::size_t frame = frames_.size() - 1;
  LaneMask exits = 0;
  const bool accelerated = trace_ != nullptr && !p_.accelerated.empty() &&
                           p_.accelerated[id].has_value() && s.loop_kind != LoopKind::Do;
  const bool classes = accelerated && !by_iteration_;
  const int shape = accelerated && log_ != nullptr && counted_ ? p_.loop_shape[id] : -1;
  if (shape >= 0 && in != 0) log_start(shape, in);
  std::unique_ptr<RepeatWatch> watch;
  std::uint64_t heads = 0;
  for (std::uint64_t k = 0; in != 0; ++k) {
    if (++heads >= kRepeatWatchStart) watch_repeat(id, watch, heads, in);
    loop_iteration_[id] = k;
    if (shape >= 0) {
      // Logged: the counts before the iteration (or class of iterations), then the segment.
      const std::size_t slot = log_depth_++;
      if (log_before_.size() <= slot) log_before_.resize(slot + 1);
      const auto& statements = p_.loop_shapes[static_cast<std::size_t>(shape)].statements;
      auto& before = log_before_[slot];
      before.resize(statements.size());
      for (std::size_t i = 0; i < statements.size(); ++i) before[i] = counts_[statements[i]];
      const std::uint64_t first = k;
      const std::size_t class_depth = class_frames_.size();
      const std::size_t journal_start = journal_used_;
      in = classes ? iteration_class(id, s, frame, in, exits, k) : iteration(id, s, frame, in, exits);
      --log_depth_;
      if (k - first >= 2) {
        // A class: the nested loops' iterations logged in its first iteration stand for the
        // iterations between first and last as well (not run).
        const std::size_t mark = journal_mark_[class_depth];
        for (std::size_t e = journal_start; e < mark; ++e) {
          const std::uint64_t more = product(journal_[e].times, k - first - 1);
          log_add(journal_[e].shape, journal_[e].first, journal_[e].last, journal_[e].counts,
                  journal_[e].outcomes, more);
          if (log_depth_ > 0) {
            const LogEntry& entry = journal_[e];  // journal() may grow the vector: copy first
            const int shape_e = entry.shape;
            const std::uint64_t first_e = entry.first, last_e = entry.last;
            std::vector<Counts64> counts_e = entry.counts;
            std::vector<WarpOutcome> outcomes_e = entry.outcomes;
            journal(shape_e, first_e, last_e, counts_e, outcomes_e, more);
          }
        }
      }
      log_segment(shape, first, k, slot, class_depth);
      if (log_depth_ == 0) journal_used_ = 0;
    } else {
      in = classes ? iteration_class(id, s, frame, in, exits, k) : iteration(id, s, frame, in, exits);
    }
    if ((++ticks_ & 0x3FFF) == 0) check_limits();
  }
  frames_.pop_back();
  return exits;
}

namespace {

// Locals written inside a loop (its body, condition and step, at any depth), without recursion.
std::vector<LocalId> written_in_loop(const Kernel& k, StmtId loop) {
  std::vector<bool> seen(k.locals.size(), false);
  std::vector<LocalId> written;
  const Stmt& l = k.stmts[static_cast<std::size_t>(loop)];
  std::vector<StmtId> open{l.body, l.step};
  while (!open.empty()) {
    const StmtId id = open.back();
    open.pop_back();
    if (id == kNone) continue;
    const Stmt& s = k.stmts[static_cast<std::size_t>(id)];
    const bool writes = s.kind == StmtKind::Declare || s.kind == StmtKind::Assign ||
                        s.kind == StmtKind::InlinedCall;
    if (writes && s.local != kNone && !seen[static_cast<std::size_t>(s.local)]) {
      seen[static_cast<std::size_t>(s.local)] = true;
      written.push_back(s.local);
    }
    open.insert(open.end(), s.children.begin(), s.children.end());
    for (StmtId c : {s.then_stmt, s.else_stmt, s.init, s.body, s.step}) open.push_back(c);
  }
  return written;
}

std::string lane_ranges(LaneMask lanes) {
  std::string text;
  for (int l = 0; l < kMaxLanes; ++l) {
    if (!(lanes >> l & 1)) continue;
    int last = l;
    while (last + 1 < kMaxLanes && (lanes >> (last + 1) & 1)) ++last;
    text += (text.empty() ? "" : ", ") + std::to_string(l) + (last > l ? "-" + std::to_string(last) : "");
    l = last;
  }
  return text;
}

}  // namespace

void WarpMachine::watch_repeat(StmtId loop, std::unique_ptr<RepeatWatch>& watch, std::uint64_t heads,
                               LaneMask in) {
  if (watch == nullptr) {
    watch = std::make_unique<RepeatWatch>();
    watch->written = &written_in(loop);
  } else if ((heads & (heads - 1)) != 0) {
    // Compared every 16th head: a cycle of period p is still found, within 16 p heads of a save.
    if (((heads - watch->saved_at) & 15) == 0 && same_state(*watch, in))
      never_ends(loop, in, heads - watch->saved_at);
    return;
  }
  if ((heads & (heads - 1)) == 0) {  // a power of two: the state to compare the next heads with
    save_state(*watch, in);
    watch->saved_at = heads;
  }
}

const std::vector<LocalId>& WarpMachine::written_in(StmtId loop) {
  if (written_in_.empty()) written_in_.resize(k_.stmts.size());
  auto& written = written_in_[static_cast<std::size_t>(loop)];
  if (written == nullptr) written = std::make_unique<std::vector<LocalId>>(written_in_loop(k_, loop));
  return *written;
}

void WarpMachine::save_state(RepeatWatch& w, LaneMask in) {
  w.in = in;
  w.values.assign(w.written->size() * std::size_t(lanes_), 0);
  w.defined.assign(w.written->size(), 0);
  for (std::size_t i = 0; i < w.written->size(); ++i) {
    const LocalState& st = locals_[(*w.written)[i]];
    const std::uint64_t* lanes = local_lanes((*w.written)[i]);
    w.defined[i] = st.defined;
    for (int l = 0; l < lanes_; ++l)
      if (st.defined >> l & 1) w.values[i * std::size_t(lanes_) + l] = st.uniform ? st.value : lanes[l];
  }
}

bool WarpMachine::same_state(const RepeatWatch& w, LaneMask in) const {
  if (in != w.in) return false;
  for (std::size_t i = 0; i < w.written->size(); ++i) {
    const LocalState& st = locals_[(*w.written)[i]];
    if (st.defined != w.defined[i]) return false;
    const std::uint64_t* lanes = local_lanes_.data() + std::size_t((*w.written)[i]) * kMaxLanes;
    for (int l = 0; l < lanes_; ++l)
      if ((st.defined >> l & 1) && (st.uniform ? st.value : lanes[l]) != w.values[i * std::size_t(lanes_) + l])
        return false;
  }
  return true;
}

std::string WarpMachine::block_and_thread(int lane) const {
  const std::uint64_t t = std::uint64_t(warp_) * p_.warp_size + lane;
  const std::uint64_t bx = p_.launch.block.x, by = p_.launch.block.y;
  return "block (" + std::to_string(block_index_[0]) + ", " + std::to_string(block_index_[1]) + ", " +
         std::to_string(block_index_[2]) + "), thread (" + std::to_string(t % bx) + ", " +
         std::to_string(t / bx % by) + ", " + std::to_string(t / (bx * by)) + ")";
}

void WarpMachine::never_ends(StmtId loop, LaneMask in, std::uint64_t period) const {
  throw InvalidInput(location(k_, k_.stmts[loop].range) + ": the " + report_kind(k_.stmts[loop]) +
                     " loop never ends: warp " + std::to_string(warp_) + " (lanes " + lane_ranges(in) +
                     ") is back in the state it had " + std::to_string(period) + " iteration" +
                     (period == 1 ? "" : "s") + " before, so it repeats forever (first thread: " +
                     block_and_thread(lowest_lane(in)) + ")");
}

// One iteration of a loop: the condition (before the body, or after it for do), the body, the
// step. Returns the lanes that go on to the next iteration; lanes that leave join `exits`.
LaneMask WarpMachine::iteration(StmtId id, const Stmt& s, std::size_t frame, LaneMask in,
                                LaneMask& exits) {
  const bool check_first = s.loop_kind != LoopKind::Do;
  if (check_first) {
    const LaneMask stay = s.value != kNone ? condition(s.value, in) : in;
    count_condition(id, in, stay);
    exits |= in & ~stay;
    in = stay;
    if (in == 0) return 0;
  }
  frames_[frame].broken = 0;
  frames_[frame].continued = 0;
  LaneMask after = in;
  if (k_.stmts[s.body].kind == StmtKind::Work) count(s.body, in);
  else after = exec(s.body, in);
  after |= frames_[frame].continued;
  exits |= frames_[frame].broken;
  if (s.step != kNone && after != 0) {
    const Stmt& step = k_.stmts[s.step];
    if (step.kind == StmtKind::Assign && !p_.skip_value[s.step]) {  // `++i`, inline
      count(s.step, after);
      write(step.local, operand(step.value, after), after);
    } else {
      after = exec(s.step, after);
    }
  }
  in = after;
  if (!check_first && in != 0) {
    const LaneMask stay = s.value != kNone ? condition(s.value, in) : in;
    count_condition(id, in, stay);
    exits |= in & ~stay;
    in = stay;
  }
  return in;
}

// Class engine: runs iteration k of an accelerated loop and, when the comparisons recorded in it
// put the next breakpoint at `next` > k + 2, iteration next - 1 as well; when both record the same
// trace, the iterations between behave as they do (every comparison in them is affine in the
// loop variable alone and has the same outcome at both ends), so their counts are iteration k's,
// added without running them. k is left at the last iteration run.
LaneMask WarpMachine::iteration_class(StmtId id, const Stmt& s, std::size_t frame, LaneMask in,
                                      LaneMask& exits, std::uint64_t& k) {
  const AcceleratedLoop& acc = *p_.accelerated[id];
  LocalState& v = locals_[acc.variable];
  if (!v.uniform || (in & ~v.defined) != 0) return iteration(id, s, frame, in, exits);
  const std::uint64_t v0 = v.value;
  const std::size_t depth = class_frames_.size();
  if (snapshots_.size() < 2 * depth + 2) {
    snapshots_.resize(2 * depth + 2);
    arrival_snapshots_.resize(2 * depth + 2);
    counter_snapshots_.resize(2 * depth + 2);
  }
  const bool counters = !acc.counters.empty();
  if (counters) capture_counters(acc, counter_snapshots_[2 * depth]);
  // Only the statements inside the loop count in an iteration: those (in the loop shape's order),
  // then the warp's evaluations.
  const std::vector<StmtId>& inside = p_.loop_shapes[static_cast<std::size_t>(p_.loop_shape[id])].statements;
  const auto snapshot = [&](std::size_t slot) {
    std::vector<Counts64>& to = snapshots_[slot];
    to.resize(inside.size() + 1);
    for (std::size_t i = 0; i < inside.size(); ++i) to[i] = counts_[inside[i]];
    to.back() = Counts64{evaluations_ + skipped_evaluations_};
    std::vector<std::uint64_t>& a = arrival_snapshots_[slot];
    a.assign(full_arrivals_.begin(), full_arrivals_.end());
    a.insert(a.end(), lane_arrivals_.begin(), lane_arrivals_.end());
  };
  snapshot(2 * depth);
  class_frames_.push_back(ClassFrame{id, k, ~std::uint64_t{0}});
  const std::size_t start = trace_->entries.size();
  LaneMask out = iteration(id, s, frame, in, exits);
  const std::uint64_t next = class_frames_.back().next;
  class_frames_.pop_back();
  // The jump sets the variable as one value: it must still be one (lanes outside the loop that
  // keep another value make it a lane array).
  if (out != in || !v.uniform || (in & ~v.defined) != 0 || next == ~std::uint64_t{0} || next <= k + 2)
    return out;
  if (counters) {
    capture_counters(acc, counter_snapshots_[2 * depth + 1]);
    if (counter_snapshots_[2 * depth + 1].defined != counter_snapshots_[2 * depth].defined) return out;
  }
  snapshot(2 * depth + 1);
  if (log_ != nullptr) {
    if (journal_mark_.size() <= depth) journal_mark_.resize(depth + 1);
    journal_mark_[depth] = journal_used_;
  }
  const std::size_t middle = trace_->entries.size();
  const std::uint64_t last = next - 1;
  // The variable at iteration `last`: a value the loop reaches (the loop's own condition gives a
  // breakpoint at its exit), so modular arithmetic gives it exactly.
  v.value = normalise(k_.locals[acc.variable].type,
                      v0 + static_cast<std::uint64_t>(acc.step) * (last - k));
  loop_iteration_[id] = last;
  // Counters: each lane's step over iteration k, times the iterations up to `last` (the steps in
  // between are the same: the same path with the same operands), so that iteration `last` starts
  // from the value it has in the replay (its own steps then check overflow there, the largest or
  // smallest of the class). Passing the type's range on the way is signed overflow.
  if (counter_entering_.size() <= depth) counter_entering_.resize(depth + 1);
  std::vector<std::array<std::uint64_t, kMaxLanes>>& entering = counter_entering_[depth];
  if (counters) {
    const CounterSnapshot& a = counter_snapshots_[2 * depth];
    const CounterSnapshot& b = counter_snapshots_[2 * depth + 1];
    entering.resize(acc.counters.size());
    for (std::size_t c = 0; c < acc.counters.size(); ++c) {
      const LocalId x = acc.counters[c];
      const ScalarType type = k_.locals[x].type;
      const auto math = [&](std::uint64_t bits) {
        return is_signed(type) ? Wide{static_cast<std::int64_t>(bits)} : Wide{bits};
      };
      const int width = bit_width(type);
      const Wide low = is_signed(type) ? -(Wide{1} << (width - 1)) : 0;
      const Wide high = is_signed(type) ? (Wide{1} << (width - 1)) - 1 : (Wide{1} << width) - 1;
      for (int l = 0; l < lanes_; ++l) {
        entering[c][l] = b.values[c][l];
        if (!(a.defined[c] >> l & 1)) continue;
        const Wide step = math(b.values[c][l]) - math(a.values[c][l]);
        Wide value = math(a.values[c][l]) + step * Wide{last - k};
        if (is_signed(type) && (value < low || value > high))
          throw InvalidInput(location(k_, s.range) + ": undefined behaviour: " + k_.locals[x].name +
                             " overflows its type (" + name(type) + ") in iterations " +
                             std::to_string(k + 1) + " to " + std::to_string(last) +
                             " of this loop, in block (" + std::to_string(block_index_[0]) + ", " +
                             std::to_string(block_index_[1]) + ", " + std::to_string(block_index_[2]) +
                             ")");
        if (!is_signed(type)) value &= high;
        entering[c][l] = normalise(type, static_cast<std::uint64_t>(value));
      }
      write(x, Val{entering[c].data(), 0}, a.defined[c] & alive_);
    }
  }
  class_frames_.push_back(ClassFrame{id, last, ~std::uint64_t{0}});
  out = iteration(id, s, frame, in, exits);
  class_frames_.pop_back();
  if (counters) {
    // The steps of iteration `last` are iteration k's (defensive).
    CounterSnapshot& after = counter_after_;
    capture_counters(acc, after);
    const CounterSnapshot& a = counter_snapshots_[2 * depth];
    const CounterSnapshot& b = counter_snapshots_[2 * depth + 1];
    for (std::size_t c = 0; c < acc.counters.size(); ++c)
      for (int l = 0; l < lanes_; ++l)
        if ((a.defined[c] >> l & 1) &&
            after.values[c][l] - counter_entering_[depth][c][l] != b.values[c][l] - a.values[c][l])
          throw IterationClassMismatch(location(k_, s.range) + ": iterations " + std::to_string(k) +
                                       " and " + std::to_string(last) + " of this loop step " +
                                       k_.locals[acc.counters[c]].name + " differently");
  }
  const auto& e = trace_->entries;
  if (out != in || e.size() - middle != middle - start ||
      !std::equal(e.begin() + static_cast<std::ptrdiff_t>(start),
                  e.begin() + static_cast<std::ptrdiff_t>(middle),
                  e.begin() + static_cast<std::ptrdiff_t>(middle)))
    throw IterationClassMismatch(location(k_, s.range) + ": iterations " + std::to_string(k) +
                                 " and " + std::to_string(last) + " of this loop differ");
  scale_iteration(inside, snapshots_[2 * depth], snapshots_[2 * depth + 1], last - k - 1);
  const auto& a0 = arrival_snapshots_[2 * depth];
  const auto& a1 = arrival_snapshots_[2 * depth + 1];
  const std::size_t nb = full_arrivals_.size();
  for (std::size_t i = 0; i < a0.size(); ++i) {
    std::uint64_t& target = i < nb ? full_arrivals_[i] : lane_arrivals_[i - nb];
    std::uint64_t add = 0;
    if (__builtin_mul_overflow(a1[i] - a0[i], last - k - 1, &add) ||
        __builtin_add_overflow(target, add, &target))
      throw InvalidInput("the counts of one warp pass 2^64");
  }
  trace_->entries.push_back(TraceEntry{-static_cast<std::int64_t>(id) - 1, k, last, 0});
  k = last;
  return out;
}

// ---------------------------------------------------------------------------------------------
// The class engine's iteration log

WarpOutcome outcome_of(const Counts64& c) {
  if (c.evaluations == 0) return WarpOutcome::NotReached;
  if (c.divergent > 0) return WarpOutcome::Divergent;
  if (c.taken == c.active) return WarpOutcome::AllTrue;
  if (c.taken == 0) return WarpOutcome::AllFalse;
  return WarpOutcome::Mixed;
}

WarpOutcome combine(WarpOutcome a, WarpOutcome b) {
  if (a == WarpOutcome::NotReached) return b;
  if (b == WarpOutcome::NotReached) return a;
  if (a == WarpOutcome::Divergent || b == WarpOutcome::Divergent) return WarpOutcome::Divergent;
  return a == b ? a : WarpOutcome::Mixed;
}

bool operator==(const Counts64& a, const Counts64& b) {
  return a.evaluations == b.evaluations && a.divergent == b.divergent && a.active == b.active &&
         a.taken == b.taken && a.block_executions == b.block_executions &&
         a.partial_block_executions == b.partial_block_executions &&
         a.blocks_with_partial == b.blocks_with_partial;
}


void compact(LoopLog& log) {
  std::vector<IterationPiece>& pieces = log.pieces;
  std::vector<IterationPiece> out;
  out.reserve(pieces.size());
  for (IterationPiece& p : pieces) {
    if (!out.empty() && !out.back().merged && !p.merged && out.back().counts == p.counts &&
        out.back().outcomes == p.outcomes) {
      out.back().last = p.last;
      continue;
    }
    out.push_back(std::move(p));
  }
  if (out.size() > kMaxIterationClasses) {
    IterationPiece& tail = out[kMaxIterationClasses - 1];
    if (!tail.merged)
      for (Counts64& c : tail.counts) {
        const Counts64 each = c;
        c = Counts64{};
        add_scaled(c, each, tail.last - tail.first + 1);
      }
    tail.merged = true;
    tail.outcomes.clear();
    for (std::size_t i = kMaxIterationClasses; i < out.size(); ++i) {
      const IterationPiece& p = out[i];
      for (std::size_t j = 0; j < tail.counts.size(); ++j)
        add_scaled(tail.counts[j], p.counts[j], p.merged ? 1 : p.last - p.first + 1);
      tail.last = p.last;
    }
    out.resize(kMaxIterationClasses);
  }
  pieces = std::move(out);
}

void WarpMachine::log_start(int shape, LaneMask in) {
  LoopLog& log = log_->loops[static_cast<std::size_t>(shape)];
  const LocalState& v = locals_[p_.accelerated[p_.loop_shapes[static_cast<std::size_t>(shape)].loop]->variable];
  if (!v.uniform || (in & ~v.defined) != 0) {
    log.by_value = false;
  } else if (!log.started) {
    log.started = true;
    log.start = v.value;
  } else if (log.start != v.value) {
    log.by_value = false;
  }
}

// Iterations first .. last of a logged loop have run (one, or a class: iteration first, then
// last, the ones between added as first's): one iteration's counts of the statements inside the
// loop, checked alike in both runs of a class, go into the log's pieces.
void WarpMachine::log_segment(int shape, std::uint64_t first, std::uint64_t last, std::size_t slot,
                              std::size_t class_depth) {
  const Program::LoopShape& sh = p_.loop_shapes[static_cast<std::size_t>(shape)];
  const auto& before = log_before_[slot];
  const std::uint64_t n = last - first + 1;
  segment_.resize(sh.statements.size());
  for (std::size_t i = 0; i < sh.statements.size(); ++i) {
    const Counts64& now = counts_[sh.statements[i]];
    Counts64 total;
    total.evaluations = now.evaluations - before[i].evaluations;
    total.divergent = now.divergent - before[i].divergent;
    total.active = now.active - before[i].active;
    total.taken = now.taken - before[i].taken;
    if (n == 1) {
      segment_[i] = total;
      continue;
    }
    // A class: iteration first's counts (iteration_class's snapshots around it), n times.
    const Counts64& a = snapshots_[2 * class_depth][i];  // the same loop's snapshots, by position
    const Counts64& b = snapshots_[2 * class_depth + 1][i];
    Counts64 each;
    each.evaluations = b.evaluations - a.evaluations;
    each.divergent = b.divergent - a.divergent;
    each.active = b.active - a.active;
    each.taken = b.taken - a.taken;
    Counts64 expected;
    add_scaled(expected, each, n);
    if (!(expected == total))
      throw IterationClassMismatch(location(k_, k_.stmts[sh.loop].range) + ": iterations " +
                                   std::to_string(first) + " and " + std::to_string(last) +
                                   " of this loop count differently");
    segment_[i] = each;
  }
  const std::size_t nc = sh.conditions.size();
  segment_outcomes_.resize(nc);
  for (std::size_t j = 0; j < nc; ++j) segment_outcomes_[j] = outcome_of(segment_[sh.conditions[j]]);
  log_add(shape, first, last, segment_, segment_outcomes_, 1);
  // Inside an iteration of an enclosing logged loop: kept, in case that iteration stands for more.
  if (log_depth_ > 0) journal(shape, first, last, segment_, segment_outcomes_, 1);
}

// Keeps a logged segment in the journal (its entries' storage reused from run to run).
void WarpMachine::journal(int shape, std::uint64_t first, std::uint64_t last,
                          const std::vector<Counts64>& each, const std::vector<WarpOutcome>& outcomes,
                          std::uint64_t times) {
  if (journal_used_ == journal_.size()) journal_.emplace_back();
  LogEntry& e = journal_[journal_used_++];
  e.shape = shape;
  e.first = first;
  e.last = last;
  e.counts.assign(each.begin(), each.end());
  e.outcomes.assign(outcomes.begin(), outcomes.end());
  e.times = times;
}

// Adds `times` instances' iterations first .. last, each with counts `each` and outcomes
// `outcomes` (of the current warp), to a loop's pieces.
void WarpMachine::log_add(int shape, std::uint64_t first, std::uint64_t last,
                          const std::vector<Counts64>& each, const std::vector<WarpOutcome>& outcomes,
                          std::uint64_t times) {
  const Program::LoopShape& sh = p_.loop_shapes[static_cast<std::size_t>(shape)];
  const std::size_t nc = sh.conditions.size();
  std::vector<IterationPiece>& pieces = log_->loops[static_cast<std::size_t>(shape)].pieces;
  const std::size_t outcome_cells = sh.outcomes ? std::size_t(p_.warps_per_block) * nc : 0;
  const std::uint64_t end = pieces.empty() ? 0 : pieces.back().last + 1;
  if (last >= end) {
    if (!pieces.empty() && pieces.back().merged) {
      pieces.back().last = last;
    } else {
      IterationPiece fresh;
      fresh.first = end;
      fresh.last = last;
      fresh.counts.resize(sh.statements.size());
      fresh.outcomes.assign(outcome_cells, WarpOutcome::NotReached);
      pieces.push_back(std::move(fresh));
    }
  }
  split_at(pieces, first);
  split_at(pieces, last + 1);
  for (std::size_t i = piece_of(pieces, first); i < pieces.size() && pieces[i].first <= last; ++i) {
    IterationPiece& p = pieces[i];
    if (p.merged) {
      const std::uint64_t overlap = std::min(p.last, last) - std::max(p.first, first) + 1;
      for (std::size_t j = 0; j < each.size(); ++j)
        add_scaled(p.counts[j], each[j], product(product(overlap, times), log_copies_));
      continue;
    }
    for (std::size_t j = 0; j < each.size(); ++j) add_scaled(p.counts[j], each[j], product(times, log_copies_));
    if (!p.outcomes.empty()) {
      for (std::uint32_t copy = 0; copy < log_copies_; ++copy) {
        WarpOutcome* row = p.outcomes.data() + (std::size_t(warp_) + copy) * nc;
        for (std::size_t j = 0; j < nc; ++j) row[j] = combine(row[j], outcomes[j]);
      }
    }
  }
  if (pieces.size() > kMaxIterationClasses) compact(log_->loops[static_cast<std::size_t>(shape)]);
}

void WarpMachine::capture_counters(const AcceleratedLoop& acc, CounterSnapshot& into) {
  into.values.resize(acc.counters.size());
  into.defined.resize(acc.counters.size());
  for (std::size_t c = 0; c < acc.counters.size(); ++c) {
    const LocalState& st = locals_[acc.counters[c]];
    const std::uint64_t* lanes = local_lanes(acc.counters[c]);
    for (int l = 0; l < lanes_; ++l) into.values[c][l] = st.uniform ? st.value : lanes[l];
    into.defined[c] = st.defined;
  }
}

void WarpMachine::scale_iteration(const std::vector<StmtId>& statements,
                                  const std::vector<Counts64>& before,
                                  const std::vector<Counts64>& after, std::uint64_t times) {
  const auto add = [times](std::uint64_t& target, std::uint64_t b, std::uint64_t a) {
    std::uint64_t d = 0;
    if (__builtin_mul_overflow(a - b, times, &d) || __builtin_add_overflow(target, d, &target))
      throw InvalidInput("the counts of one warp pass 2^64");
  };
  for (std::size_t i = 0; i < statements.size(); ++i) {
    Counts64& c = counts_[statements[i]];
    add(c.evaluations, before[i].evaluations, after[i].evaluations);
    add(c.divergent, before[i].divergent, after[i].divergent);
    add(c.active, before[i].active, after[i].active);
    add(c.taken, before[i].taken, after[i].taken);
  }
  add(skipped_evaluations_, before.back().evaluations, after.back().evaluations);
}

LaneMask WarpMachine::exec_switch(StmtId id, const Stmt& s, LaneMask active) {
  const Val v = eval(s.value, active);
  // Entry point of each active lane: a case's child, the default's, or past the end (none).
  const auto n = static_cast<std::int32_t>(s.children.size());
  std::vector<LaneMask> entry(static_cast<std::size_t>(n) + 1, 0);
  LaneMask matched = 0;
  for (const SwitchCase& c : s.cases) {
    LaneMask m = 0;
    if (v.lanes == nullptr) {
      m = v.value == c.value ? active : 0;
    } else {
      for (int l = 0; l < lanes_; ++l) m |= static_cast<LaneMask>(v.lanes[l] == c.value) << l;
      m &= active;
    }
    entry[c.child] |= m;
    matched |= m;
  }
  const LaneMask unmatched = active & ~matched;
  entry[s.default_child != kNone ? s.default_child : n] |= unmatched;
  // Divergent when the active lanes enter at more than one point.
  int points = 0;
  for (LaneMask m : entry) points += m != 0;
  Counts64& c = counts_[id];
  c.evaluations += 1;
  c.active += static_cast<std::uint64_t>(popcount(active));
  c.taken += static_cast<std::uint64_t>(popcount(matched));
  c.divergent += points > 1;
  evaluations_ += 1;
  if (p_.options.observer != nullptr) observe(id, active, matched);
  if (by_iteration_) {
    if (Counts64* it = iteration_counts(id)) {
      it->evaluations += 1;
      it->active += static_cast<std::uint64_t>(popcount(active));
      it->taken += static_cast<std::uint64_t>(popcount(matched));
      it->divergent += points > 1;
    }
  }
  frames_.push_back(Frame{FrameKind::Switch});
  const std::size_t frame = frames_.size() - 1;
  LaneMask running = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    running |= entry[i];
    if (running != 0) running = exec(s.children[i], running);
  }
  running |= entry[n] | frames_[frame].broken;
  frames_.pop_back();
  return running;
}

}  // namespace warpdiv::sim::ir::detail
