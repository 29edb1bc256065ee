#include "sim/engine/ir_engine.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <type_traits>

#include "sim/engine/event_relays.hpp"
#include "sim/support/errors.hpp"
#include "sim/memory/ir_memory.hpp"
#include "sim/model/ir_ops.hpp"

namespace warpdiv::sim::ir::detail {

namespace {

// A comparison of two uniform values, inline (the common loop condition `k < T`).
inline bool compare(BinaryOp op, bool is_signed_type, std::uint64_t a, std::uint64_t b) {
  if (is_signed_type) {
    const auto x = static_cast<std::int64_t>(a), y = static_cast<std::int64_t>(b);
    switch (op) {
      case BinaryOp::Lt:
        return x < y;
      case BinaryOp::Le:
        return x <= y;
      case BinaryOp::Gt:
        return x > y;
      case BinaryOp::Ge:
        return x >= y;
      case BinaryOp::Eq:
        return x == y;
      default:
        return x != y;
    }
  }
  switch (op) {
    case BinaryOp::Lt:
      return a < b;
    case BinaryOp::Le:
      return a <= b;
    case BinaryOp::Gt:
      return a > b;
    case BinaryOp::Ge:
      return a >= b;
    case BinaryOp::Eq:
      return a == b;
    default:
      return a != b;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// WarpMachine

WarpMachine::WarpMachine(const LaunchPlan& program, const RunContext& run, WarpMachine& lead)
    : WarpMachine(program, run, &lead) {}

WarpMachine::WarpMachine(const LaunchPlan& program, const RunContext& run)
    : WarpMachine(program, run, nullptr) {}

WarpMachine::WarpMachine(const LaunchPlan& program, const RunContext& run, WarpMachine* lead)
    : LaneMaskWalk(program),
      p_(program),
      run_(run),
      k_(program.kernel),
      patterns_(program.warp_size),
      by_iteration_(program.options.by_iteration) {
  if (run_.observer != nullptr) relay_ = std::make_unique<EvaluationRelay>(*run_.observer, run_.events);
  dynamic_ = relay_ ? relay_.get() : run_.events;
  local_pattern_.resize(k_.locals.size());
  thread_pattern_.resize(static_cast<std::size_t>(p_.warps_per_block) * 3);
  affine_cache_.resize(k_.accesses.size());
  locals_.resize(k_.locals.size());
  local_lanes_.assign(k_.locals.size() * kMaxLanes, 0);
  scratch_.assign(k_.exprs.size() * kMaxLanes, 0);
  kept_.resize(k_.exprs.size());
  kept_load_.resize(k_.exprs.size());
  kept_mask_.resize(k_.exprs.size());
  local_version_.assign(k_.locals.size(), 0);
  frames_.reserve(k_.stmts.size() + 1);
  loop_iteration_.assign(k_.stmts.size(), 0);
  sink_.resize(k_.stmts.size());
  sink_accesses_.resize(k_.accesses.size());
  sink_flops_.resize(k_.stmts.size());
  sink_faults_.resize(k_.accesses.size() + k_.stmts.size());
  sink_extents_.resize(k_.accesses.size());
  sink_shifted_.resize(p_.shifted_size);
  sink_iterations_.resize(k_.stmts.size());
  full_arrivals_.assign(p_.barriers, 0);
  lane_arrivals_.assign(std::size_t(p_.barriers) * kMaxLanes, 0);
  block_max_.assign(p_.barriers, 0);
  block_min_.assign(p_.barriers, 0);
  warp_iteration_arrivals_.resize(p_.barriers);
  block_iteration_arrivals_.resize(p_.barriers);
  for (int b = static_cast<int>(Builtin::BlockDimX); b < kBuiltinCount; ++b)
    launch_constant(p_.launch, static_cast<Builtin>(b), builtins_[static_cast<std::size_t>(b)]);
  if (lead != nullptr) {
    lead_ = lead;
    global_ = lead->global_;
    shared_ = lead->shared_;
  } else if (p_.global_values) {
    own_global_ = std::make_unique<GlobalState>();
    own_global_->bytes.assign(p_.global_size, 0);
    own_global_->state.assign(p_.global_size, GlobalByte{});
    for (std::size_t b = 0; b < k_.bases.size(); ++b)
      if (p_.global_at[b] >= 0 && run_.base_data[b] != nullptr)
        std::memcpy(own_global_->bytes.data() + p_.global_at[b], run_.base_data[b]->data(),
                    std::min<std::size_t>(run_.base_data[b]->size(), p_.base_bytes[b]));
    global_ = own_global_.get();
  }
  if (p_.global_values || p_.shared_values) atomic_old_.assign(k_.accesses.size() * kMaxLanes, 0);
  if (p_.local_size > 0) {
    local_bytes_.assign(p_.local_size * kMaxLanes, 0);
    local_written_.assign(p_.local_size * kMaxLanes, 0);
  }
  if (p_.shared_values && lead == nullptr) {
    own_shared_ = std::make_unique<SharedState>();
    own_shared_->bytes.assign(p_.shared_size, 0);
    own_shared_->state.assign(p_.shared_size, SharedByte{});
    shared_ = own_shared_.get();
  }
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
  std::fill(local_written_.begin(), local_written_.end(),
            std::uint8_t{0});  // each thread's arrays: not written
  warp_stamp_ = ++stamp_;      // values kept in an earlier warp are stale
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
  const bool memory_counted =
      counted && tally.accesses.size() == k_.accesses.size() && tally.flops.size() == k_.stmts.size() &&
      tally.faults.size() == k_.accesses.size() + k_.stmts.size() &&
      tally.extents.size() == k_.accesses.size() && tally.shifted.size() == p_.shifted_size;
  memory_counted_ = memory_counted;
  access_counts_ = memory_counted ? tally.accesses.data() : sink_accesses_.data();
  stores_ = counted ? &tally.stores : &sink_stores_;
  order_atomics_ = &tally.order_atomics;  // (uncounted warps' atomics decide results all the same)
  store_fault_ = counted ? &tally.store_fault : &sink_store_fault_;
  sink_stores_.clear();
  shifted_counts_ = memory_counted ? tally.shifted.data() : sink_shifted_.data();
  flop_counts_ = memory_counted ? tally.flops.data() : sink_flops_.data();
  faults_ = memory_counted ? tally.faults.data() : sink_faults_.data();
  extents_ = memory_counted ? tally.extents.data() : sink_extents_.data();
  const std::uint64_t before = evaluations_;
  const std::uint64_t affine_before = affine_requests_;
  skipped_evaluations_ = 0;
  counted_ = counted;
  // estimate()'s sample blocks are replayed again for real: no observer sees them (a recorder, which
  // steers the run, always does).
  events_ = run_.sampling ? recorder_ : dynamic_;
  wanted_ = events_ != nullptr ? events_->wants() : 0;
  emit_warp();
  exec(k_.root, threads_->existing);
  emit_warp_end();
  if (counted) {
    tally.evaluations += evaluations_ - before + skipped_evaluations_;
    tally.warps += 1;
    if (memory_counted) tally.affine_requests += affine_requests_ - affine_before;
  }
  // This warp's threads' barrier arrivals, into the block's extremes (the lead machine's when
  // the block's warps run on several).
  WarpMachine& block = lead_ != nullptr ? *lead_ : *this;
  for (int b = 0; b < p_.barriers; ++b) {
    std::uint64_t most = 0, fewest = ~std::uint64_t{0};
    for (int lane = 0; lane < lanes_; ++lane) {
      if (!(threads_->existing >> lane & 1)) continue;
      const std::uint64_t c = full_arrivals_[b] + lane_arrivals_[std::size_t(b) * kMaxLanes + lane];
      most = std::max(most, c);
      fewest = std::min(fewest, c);
    }
    block.block_max_[b] = std::max(block.block_max_[b], most);
    block.block_min_[b] = std::min(block.block_min_[b], fewest);
    auto& block_k = block.block_iteration_arrivals_[b];
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

void WarpMachine::run_warps(Tally& tally, const std::optional<std::uint32_t>& only) {
  if (p_.shared_values) shared_->block_phase = ++shared_->phase;
  // Values passed between warps through memory the replay follows: a block's warps run phase by
  // phase, as its barriers order them on the GPU.
  if ((p_.shared_values || p_.global_values) && p_.barriers > 0) return run_phased(tally, only);
  for (int w = 0; w < p_.warps_per_block; ++w) {
    const bool counted = !only || *only == static_cast<std::uint32_t>(w);
    // Warps that are not counted still run when the block has barriers (their arrivals count)
    // or shared memory is followed (their stores count).
    if (!counted && p_.barriers == 0 && !p_.shared_values) continue;
    try {
      run_warp(w, tally, counted);
    } catch (const UnwrittenRead&) {  // the other warps may still make it a race
    }
  }
  if (p_.shared_values) finish_phase();
}

// Each warp on a machine and fiber of its own (warp 0 on this machine): round after round, every
// warp that has not ended runs up to its next barrier; a round is a phase.
void WarpMachine::run_phased(Tally& tally, const std::optional<std::uint32_t>& only) {
  const auto warps = static_cast<std::size_t>(p_.warps_per_block);
  if (!crew_) {
    crew_ = std::make_unique<Crew>();
    crew_->machines.resize(warps);
    crew_->fibers.resize(warps);
  }
  // Each fiber's stack: reserved address space, committed as the warp's statements nest.
  constexpr std::size_t kFiberStack = std::size_t{256} << 20;
  for (std::size_t w = 0; w < warps; ++w) {
    if (w > 0 && !crew_->machines[w]) crew_->machines[w] = std::make_unique<WarpMachine>(p_, run_, *this);
    WarpMachine& m = w == 0 ? *this : *crew_->machines[w];
    if (w > 0) {
      m.shared_ = shared_;
      m.global_ = global_;
      m.lead_ = this;
      m.begin_block(static_cast<std::uint32_t>(block_index_[0]), static_cast<std::uint32_t>(block_index_[1]),
                    static_cast<std::uint32_t>(block_index_[2]));
    }
    m.phased_ = true;
    if (!crew_->fibers[w]) crew_->fibers[w] = std::make_unique<Fiber>(kFiberStack);
    const bool counted = !only || *only == static_cast<std::uint32_t>(w);
    const int warp = static_cast<int>(w);
    crew_->fibers[w]->start([&m, &tally, warp, counted] { m.run_warp(warp, tally, counted); });
  }
  std::vector<char> running(warps, 1);
  std::size_t left = warps;
  try {
    while (left > 0) {
      for (std::size_t w = 0; w < warps; ++w) {
        if (!running[w]) continue;
        bool yielded = false;
        try {
          yielded = crew_->fibers[w]->resume();
        } catch (const UnwrittenRead&) {  // the other warps may still make it a race
        }
        if (!yielded) {
          running[w] = 0;
          --left;
        }
      }
      if (p_.shared_values) {
        finish_phase();
        ++shared_->phase;
      }
    }
  } catch (...) {
    for (auto& f : crew_->fibers) f->cancel();
    phased_ = false;
    throw;
  }
  phased_ = false;
}

void WarpMachine::end_block(Tally& tally) {
  tally.blocks += 1;
  for (std::size_t i = 0; i < k_.stmts.size(); ++i) {
    const int b = p_.barrier[i];
    if (b == kNone) continue;
    StatementCounts& c = tally.statements[i];
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
  changed(local);
}

void WarpMachine::evaluate(ExprId expr, LaneMask active, std::uint64_t* out) {
  const Val v = eval(expr, active);
  for (int l = 0; l < kMaxLanes; ++l) out[l] = v.lanes != nullptr ? v.lanes[l] : v.value;
}

// ---------------------------------------------------------------------------------------------
// Counting

StatementCounts* WarpMachine::iteration_counts(StmtId id) {
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

__attribute__((always_inline)) inline void WarpMachine::count(StmtId id, LaneMask active) {
  evaluations_ += 1;
  emit(StatementEvent{id, active});
}

__attribute__((always_inline)) inline void WarpMachine::count_branch(StmtId id, LaneMask active,
                                                                     LaneMask taken, bool divergent) {
  evaluations_ += 1;
  emit(BranchEvent{id, active, taken, divergent});
}

__attribute__((always_inline)) inline void WarpMachine::count_loop_head(StmtId id, LaneMask active,
                                                                        LaneMask stay, bool divergent) {
  evaluations_ += 1;
  emit(LoopHeadEvent{id, active, stay, divergent});
}

void WarpMachine::emit_warp() {
  if ((wanted_ & kWarpEvents) != 0)
    events_->on(
        WarpEvent{{static_cast<std::uint32_t>(block_index_[0]), static_cast<std::uint32_t>(block_index_[1]),
                   static_cast<std::uint32_t>(block_index_[2])},
                  static_cast<std::uint32_t>(warp_)});
}

void WarpMachine::emit_warp_end() {
  if ((wanted_ & kWarpEndEvents) != 0)
    events_->on(WarpEndEvent{
        {static_cast<std::uint32_t>(block_index_[0]), static_cast<std::uint32_t>(block_index_[1]),
         static_cast<std::uint32_t>(block_index_[2])},
        static_cast<std::uint32_t>(warp_)});
}

void WarpMachine::set_recorder(Recorder* recorder) {
  recorder_ = recorder;
  EventObserver* observer = relay_ ? relay_.get() : run_.events;
  tee_.reset();
  if (recorder != nullptr && observer != nullptr) tee_ = std::make_unique<EventTee>(*recorder, *observer);
  dynamic_ = tee_ ? tee_.get() : recorder != nullptr ? recorder : observer;
}

void WarpMachine::arrive(StmtId id, LaneMask active) {
  emit(BarrierEvent{id, active});
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
  if (phased_) {
    Fiber::yield();  // the other warps run up to this barrier too
    emit_warp();
  }
}

void WarpMachine::too_many_iterations(StmtId loop) const {
  throw InvalidInput(Diag::iteration_budget, source_location(k_, k_.stmts[loop].range),
                     "the " + report_kind(k_.stmts[loop]) + " loop runs more than " +
                         std::to_string(kMaxIterationsByIteration) +
                         " iterations, the most that counts by iteration keep");
}

void WarpMachine::check_limits() {
  if (run_.stop != nullptr && run_.stop->load(std::memory_order_relaxed))
    throw Interrupted("replay interrupted");
  const std::uint64_t done =
      run_.shared_evaluations != nullptr ? run_.shared_evaluations->load(std::memory_order_relaxed) : 0;
  if (done + (evaluations_ - block_start_evaluations_) > run_.evaluation_cap) {
    if (run_.sampling)
      throw InvalidInput(Diag::evaluation_budget,
                         "one block of the replay alone makes more than " +
                             std::to_string(run_.evaluation_cap) +
                             " warp-statement evaluations, the budget for a whole run (--max-evaluations)" +
                             running_loop() + "; a loop that does not end?");
    throw InvalidInput(Diag::evaluation_budget,
                       "the run passed " + std::to_string(run_.evaluation_cap) +
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
  throw InvalidInput(Diag::undefined_arithmetic, source_location(k_, k_.exprs[expr].range),
                     "undefined behaviour: " + what + " in " + block_and_thread(lowest_lane(lanes)) +
                         inlined_at_expression(k_, expr));
}

void WarpMachine::check(ExprId value, LaneMask active) {
  try {
    eval(value, active);
  } catch (const InvalidInput& e) {
    if (e.diag() != Diag::out_of_bounds && e.diag() != Diag::misaligned_access &&
        e.diag() != Diag::null_pointer)
      throw;
  }
}

std::string WarpMachine::inlined_at(const MemoryAccess& access) const {
  return inlined_at_access(k_, static_cast<std::int32_t>(&access - k_.accesses.data()));
}

// ---------------------------------------------------------------------------------------------
// Expressions

inline bool WarpMachine::uniform_leaf(ExprId id, LaneMask active, std::uint64_t& value) const {
  const CompiledExpr& e = p_.exprs[id];
  switch (e.kind) {
    case ExprKind::Constant:
      value = e.constant;
      return true;
    case ExprKind::Param:
      value = p_.arguments[e.index];
      return true;
    case ExprKind::Local: {
      const LocalState& l = locals_[e.index];
      value = l.value;
      return l.uniform && (active & ~l.defined) == 0;
    }
    default:
      return false;
  }
}

inline WarpMachine::Val WarpMachine::operand(ExprId id, LaneMask active) {
  const CompiledExpr& e = p_.exprs[id];
  switch (e.kind) {
    case ExprKind::Binary: {
      // Two uniform leaves (`i + 1`, `p * T`): computed here; a fault goes to eval() to report.
      std::uint64_t a = 0, b = 0;
      if (e.recorded && recorder_ != nullptr) break;
      if (uniform_leaf(e.operands[0], active, a) && uniform_leaf(e.operands[1], active, b)) {
        bool fault = false;
        const std::uint64_t r = e.binary_op == BinaryOp::Add && e.type == ScalarType::I32
                                    ? ops::binary<BinaryOp::Add, ScalarType::I32>(a, b, fault)
                                    : e.binary(a, b, fault);
        if (!fault) return {nullptr, r};
      }
      break;
    }
    case ExprKind::Constant:
      return {nullptr, e.constant};
    case ExprKind::Param:
      return {nullptr, p_.arguments[e.index]};
    case ExprKind::Local: {
      const LocalState& l = locals_[e.index];
      if ((active & ~l.defined) == 0) {
        if (l.uniform) return Val{nullptr, l.value};
        return single(active) ? Val{nullptr, local_lanes(e.index)[lowest_lane(active)]}
                              : Val{local_lanes(e.index), 0};
      }
      break;  // eval() reports the read of an unassigned local
    }
    default:
      break;
  }
  return eval(id, active);
}

inline WarpMachine::Val WarpMachine::eval_cast(ExprId id, const CompiledExpr& e, LaneMask active) {
  if (e.cast_lanes == nullptr) return eval_conversion(id, e, active);
  const Val a = operand(e.operands[0], active);
  if (a.lanes == nullptr) return {nullptr, normalise(e.type, a.value)};
  // To a 64-bit type the normalised bits stay as they are (int32 values are kept
  // sign-extended, uint32 ones zero-extended): the operand's lanes are the result.
  if (e.type == ScalarType::I64 || e.type == ScalarType::U64) return a;
  std::uint64_t* out = scratch(id);
  if (sparse(active)) {
    for (LaneMask m = active; m != 0; m &= m - 1)
      out[lowest_lane(m)] = normalise(e.type, a.lanes[lowest_lane(m)]);
    return {out, 0};
  }
  e.cast_lanes(a.lanes, out, lanes_);
  return {out, 0};
}

WarpMachine::Val WarpMachine::eval(ExprId id, LaneMask active) {
  const CompiledExpr& e = p_.exprs[id];
  const CompiledExpr& c = e;
  switch (e.kind) {
    case ExprKind::Constant:
      return {nullptr, e.constant};
    case ExprKind::Param:
      return {nullptr, p_.arguments[e.index]};
    case ExprKind::Builtin: {
      const int b = static_cast<int>(e.builtin);
      if (b <= static_cast<int>(Builtin::ThreadIdxZ)) {
        if (threads_->uniform[b]) return {nullptr, threads_->index[b][0]};
        if (single(active))
          return {nullptr, threads_->index[b][static_cast<std::size_t>(lowest_lane(active))]};
        return {threads_->index[b].data(), 0};
      }
      return {nullptr, builtins_[b]};
    }
    case ExprKind::Local: {
      const LocalState& l = locals_[e.index];
      if ((active & ~l.defined) != 0)
        undefined(id, "'" + k_.locals[e.index].name + "' is read before it is assigned", active & ~l.defined);
      if (l.uniform) return {nullptr, l.value};
      if (single(active)) return {nullptr, local_lanes(e.index)[lowest_lane(active)]};
      return {local_lanes(e.index), 0};
    }
    case ExprKind::Opaque:
      if (e.index != kNone) return load(id, e, active);
      break;
    case ExprKind::Cast:
      return eval_cast(id, e, active);
    case ExprKind::Unary:
      return eval_unary(id, e, active);
    case ExprKind::Binary: {
      if (e.recorded && recorder_ != nullptr) {  // a comparison as a value: through compare_mask
        const LaneMask m = compare_mask(e, active);
        std::uint64_t* out = scratch(id);
        for (int l = 0; l < lanes_; ++l) out[l] = m >> l & 1;
        kept_[id].stamp = 0;  // the scratch no longer holds kept lanes
        return {out, 0};
      }
      // Kept lanes: computed for a superset of these lanes from locals not written since.
      const std::uint8_t kept = p_.kept[id];
      if (kept != LaunchPlan::kNotKept && recorder_ == nullptr) {
        if (still_kept(id, kept_[id].stamp, kept_[id].active, active)) return {scratch(id), 0};
        const ExprId same = p_.canonical[id];  // the same operators over the same leaves
        if (same != id && still_kept(same, kept_[same].stamp, kept_[same].active, active))
          return {scratch(same), 0};
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
      // Few active lanes: those alone, lane by lane; else the whole warp's loop, and where it
      // reports a fault the active lanes again, lane by lane, for the first that faults.
      if (sparse(active) || c.binary_lanes[variant](pa, pb, out, lanes_, active)) {
        for (LaneMask m = active; m != 0; m &= m - 1) {
          const int l = lowest_lane(m);
          const std::uint64_t x = pa[a.lanes != nullptr ? l : 0], y = pb[b.lanes != nullptr ? l : 0];
          bool fault = false;
          out[l] = c.binary(x, y, fault);
          if (fault)
            undefined(id, ops::describe_fault(e.binary_op, k_.exprs[e.operands[0]].type, x, y), bit(l));
        }
      }
      if (kept != LaunchPlan::kNotKept) kept_[id] = Kept{++stamp_, active};
      return {out, 0};
    }
    case ExprKind::Logical:
    case ExprKind::Select:
      return eval_select(id, e, active);
    case ExprKind::Intrinsic:
      return eval_intrinsic(id, e, active);
    case ExprKind::Warp:
      return eval_warp(id, e, active);
  }
  throw InternalError("replay: an opaque value reached evaluation (" + location(k_, k_.exprs[id].range) +
                      ")");
}

// A conversion from or to a floating type, value by value (a fault in an active lane: a floating
// value whose truncation the integer type cannot hold, undefined behaviour).
WarpMachine::Val WarpMachine::eval_conversion(ExprId id, const CompiledExpr& e, LaneMask active) {
  const Val a = operand(e.operands[0], active);
  bool fault = false;
  if (a.lanes == nullptr) {
    const std::uint64_t r = ops::convert(e.from, e.type, a.value, fault);
    if (fault) undefined(id, ops::describe_conversion_fault(e.from, e.type, a.value), active);
    return {nullptr, r};
  }
  std::uint64_t* out = scratch(id);
  const bool few = sparse(active);
  if (!few && e.type == ScalarType::F32 && (e.from == ScalarType::I32 || e.from == ScalarType::U32)) {
    // An int or unsigned index to float (the usual one), exact to nearest, never a fault.
    for (int l = 0; l < lanes_; ++l)
      out[l] = ops::from_float<ScalarType::F32>(
          e.from == ScalarType::I32 ? static_cast<float>(static_cast<std::int64_t>(a.lanes[l]))
                                    : static_cast<float>(a.lanes[l]));
    return {out, 0};
  }
  for (LaneMask m = few ? active : lanes_mask(); m != 0; m &= m - 1) {
    const int l = lowest_lane(m);
    bool lane_fault = false;
    out[l] = ops::convert(e.from, e.type, a.lanes[l], lane_fault);
    if (lane_fault && (active >> l & 1))
      undefined(id, ops::describe_conversion_fault(e.from, e.type, a.lanes[l]), bit(l));
  }
  return {out, 0};
}

namespace {

// A float FMA over n lanes, each operand a pointer and a stride (0: one value for every lane):
// correctly rounded either way; with the CPU's FMA instruction where it has one (chosen at run
// time: libm's fmaf in software costs tens of cycles a lane).
template <bool Hardware>
inline void fma_f32_lanes_body(const std::uint64_t* const* p, const int* step, std::uint64_t* out, int n) {
  constexpr ScalarType T = ScalarType::F32;
  for (int l = 0; l < n; ++l) {
    const float a = ops::to_float<T>(p[0][l * step[0]]), b = ops::to_float<T>(p[1][l * step[1]]),
                c = ops::to_float<T>(p[2][l * step[2]]);
    out[l] = ops::from_float<T>(Hardware ? __builtin_fmaf(a, b, c) : std::fma(a, b, c));
  }
}
__attribute__((target("fma"))) void fma_f32_lanes_hardware(const std::uint64_t* const* p, const int* step,
                                                           std::uint64_t* out, int n) {
  fma_f32_lanes_body<true>(p, step, out, n);
}
void fma_f32_lanes(const std::uint64_t* const* p, const int* step, std::uint64_t* out, int n) {
  static const bool hardware = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") != 0;
  }();
  if (hardware)
    fma_f32_lanes_hardware(p, step, out, n);
  else
    fma_f32_lanes_body<false>(p, step, out, n);
}

}  // namespace

// fma, sqrt, fabs: value by value (never a fault).
WarpMachine::Val WarpMachine::eval_intrinsic(ExprId id, const CompiledExpr& e, LaneMask active) {
  const int n = operand_count(e.intrinsic);
  Val v[3] = {{nullptr, 0}, {nullptr, 0}, {nullptr, 0}};
  bool uniform = true;
  for (int i = 0; i < n; ++i) {
    v[i] = operand(e.operands[i], active);
    // A later operand's evaluation may reuse scratch only of its own expression: the lanes
    // of v[i] stay valid.
    uniform = uniform && v[i].lanes == nullptr;
  }
  if (uniform) return {nullptr, ops::intrinsic(e.intrinsic, e.type, v[0].value, v[1].value, v[2].value)};
  std::uint64_t* out = scratch(id);
  const auto at = [&](const Val& x, int l) { return x.lanes != nullptr ? x.lanes[l] : x.value; };
  const bool few = sparse(active);
  if (!few && e.intrinsic == Intrinsic::Fma && e.type == ScalarType::F32) {  // the common one
    // Each operand as a pointer and a stride (0: one value for every lane).
    const std::uint64_t* p[3];
    int step[3];
    for (int i = 0; i < 3; ++i) {
      p[i] = v[i].lanes != nullptr ? v[i].lanes : &v[i].value;
      step[i] = v[i].lanes != nullptr ? 1 : 0;
    }
    fma_f32_lanes(p, step, out, lanes_);
    return {out, 0};
  }
  for (LaneMask m = few ? active : lanes_mask(); m != 0; m &= m - 1) {
    const int l = lowest_lane(m);
    out[l] = ops::intrinsic(e.intrinsic, e.type, at(v[0], l), at(v[1], l), at(v[2], l));
  }
  return {out, 0};
}

namespace {

// Each lane of `active` its shuffle source's value (ops::shuffle_read, shuffle OP of width `width`;
// `values` and `args` each lane's, or one for all where null); returns the lowest lane that reads a
// lane not running the call (its source in `source`), else -1.
template <WarpOp OP>
int shuffle_lanes(const std::uint64_t* values, std::uint64_t value, const std::uint64_t* args,
                  std::uint64_t arg, std::uint32_t width, LaneMask active, int lanes, std::uint64_t* out,
                  std::uint32_t& source) {
  const auto running = static_cast<std::uint32_t>(active);
  for (int l = 0; l < lanes; ++l) {
    if (!(active >> l & 1)) continue;
    bool fault = false;
    source = ops::shuffle_read<OP>(static_cast<std::uint32_t>(l),
                                   static_cast<std::uint32_t>(args != nullptr ? args[l] : arg), width,
                                   running, fault);
    if (fault) return l;
    out[l] = values != nullptr ? values[source] : value;
  }
  return -1;
}

}  // namespace

// A warp function over the lanes that run it (sim/model/ir.hpp, WarpOp), with CUDA's undefined cases
// (ops::warp_mask_faults: a lane outside the mask, a lane of the mask that does not run it; a
// shuffle's source lane that does not run it, ops::shuffle_read) reported as undefined behaviour.
WarpMachine::Val WarpMachine::eval_warp(ExprId id, const CompiledExpr& e, LaneMask active) {
  // A warp barrier's 32-bit mask names no lanes of another warp size: nothing to check.
  if (e.warp_op == WarpOp::SyncWarp && p_.warp_size != 32) return {nullptr, 0};
  if (p_.warp_size != 32)
    throw InvalidInput(
        Diag::unsupported_launch, source_location(k_, k_.exprs[id].range),
        name(e.warp_op) + " needs warps of 32 lanes (this launch has " + std::to_string(p_.warp_size) + ")");
  if (e.warp_op == WarpOp::ActiveMask) return {nullptr, active & 0xFFFFFFFFULL};
  check_warp_mask(id, e, active);
  if (e.warp_op == WarpOp::SyncWarp) return {nullptr, 0};  // the lanes run together: a check alone
  if (e.warp_op == WarpOp::Ballot || e.warp_op == WarpOp::Any || e.warp_op == WarpOp::All) {
    const LaneMask holds = eval_mask(e.operands[1], active);
    if (e.warp_op == WarpOp::Ballot) return {nullptr, holds};
    if (e.warp_op == WarpOp::Any) return {nullptr, holds != 0 ? 1u : 0u};
    return {nullptr, holds == active ? 1u : 0u};
  }
  const Val value = operand(e.operands[1], active);
  const Val lane = operand(e.operands[2], active);
  const auto width = static_cast<std::uint32_t>(e.constant);
  std::uint64_t* out = scratch(id);
  std::uint32_t source = 0;
  const auto run = [&](auto shuffle) {
    return shuffle(value.lanes, value.value, lane.lanes, lane.value, width, active, lanes_, out, source);
  };
  const int bad = e.warp_op == WarpOp::Shfl       ? run(shuffle_lanes<WarpOp::Shfl>)
                  : e.warp_op == WarpOp::ShflUp   ? run(shuffle_lanes<WarpOp::ShflUp>)
                  : e.warp_op == WarpOp::ShflDown ? run(shuffle_lanes<WarpOp::ShflDown>)
                                                  : run(shuffle_lanes<WarpOp::ShflXor>);
  if (bad >= 0)
    undefined(id, name(e.warp_op) + " reads lane " + std::to_string(source) + ", which does not run it",
              bit(bad));
  return {out, 0};
}

// A warp function's mask (its first operand) as CUDA requires it (ops::warp_mask_faults), else
// undefined behaviour: the first lane whose mask names a lane running it with another mask, else the
// running lanes their masks leave out, else the lanes a mask names that wait.
void WarpMachine::check_warp_mask(ExprId id, const CompiledExpr& e, LaneMask active) {
  const Val m = operand(e.operands[0], active);
  const auto running = static_cast<std::uint32_t>(active);
  const auto present = static_cast<std::uint32_t>(alive_ & threads_->existing);
  ops::WarpMaskFaults f{};
  if (m.lanes == nullptr) {
    f = ops::warp_mask_faults(static_cast<std::uint32_t>(m.value), running, present);
  } else {
    std::uint32_t masks[32] = {};
    for (int l = 0; l < lanes_; ++l) masks[l] = static_cast<std::uint32_t>(m.lanes[l]);
    f = ops::warp_mask_faults(masks, running, present);
  }
  if ((f.different | f.outside | f.waiting) == 0) return;
  const std::string what = name(e.warp_op);
  if (f.different != 0)
    undefined(id, "a lane's mask names a lane running " + what + " with another mask",
              bit(lowest_lane(f.different)));
  if (f.outside != 0) undefined(id, "a lane runs " + what + " outside its mask", f.outside);
  undefined(id, "a lane named in the mask of " + what + " has not exited and does not run it", f.waiting);
}

// A unary operator, lane by lane (a fault in an active lane is undefined behaviour).
WarpMachine::Val WarpMachine::eval_unary(ExprId id, const CompiledExpr& e, LaneMask active) {
  const CompiledExpr& c = e;
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

// && and || (always), and ?: of a bool, as masks spread into lanes; ?: of an integer by lanes.
WarpMachine::Val WarpMachine::eval_select(ExprId id, const CompiledExpr& e, LaneMask active) {
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

inline LaneMask WarpMachine::compare_mask(const CompiledExpr& e, LaneMask active) {
  // A comparison over lanes whose locals did not change since (`xIndex < width` in a loop): the
  // lanes it gave then.
  const auto id = static_cast<ExprId>(&e - p_.exprs.data());
  const std::uint8_t kept = recorder_ == nullptr ? p_.kept[id] : LaunchPlan::kNotKept;
  if (kept != LaunchPlan::kNotKept) {
    const KeptValue& k = kept_mask_[static_cast<std::size_t>(id)];
    if (still_kept(id, k.stamp, k.active, active)) return k.value & active;
  }
  const Val a = operand(e.operands[0], active);
  const Val b = operand(e.operands[1], active);
  if (e.recorded && recorder_ != nullptr) emit(ComparisonEvent{id, active, a, b});
  if (a.lanes == nullptr && b.lanes == nullptr) {
    if (e.floating_operands) {
      bool fault = false;
      return e.binary(a.value, b.value, fault) != 0 ? active : 0;
    }
    return compare(e.binary_op, e.signed_operands, a.value, b.value) ? active : 0;
  }
  if (sparse(active)) {
    LaneMask m = 0;
    for (LaneMask l = active; l != 0; l &= l - 1) {
      const int lane = lowest_lane(l);
      bool fault = false;  // comparisons never fault
      if (e.binary(a.lanes != nullptr ? a.lanes[lane] : a.value, b.lanes != nullptr ? b.lanes[lane] : b.value,
                   fault) != 0)
        m |= bit(lane);
    }
    return m;
  }
  const int variant = a.lanes == nullptr ? 1 : b.lanes == nullptr ? 2 : 0;
  const LaneMask m = e.compare_lanes[variant](a.lanes != nullptr ? a.lanes : &a.value,
                                              b.lanes != nullptr ? b.lanes : &b.value, lanes_);
  if (kept != LaunchPlan::kNotKept) kept_mask_[static_cast<std::size_t>(id)] = KeptValue{++stamp_, active, m};
  return m & active;
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
    default:
      break;
  }
  const Val v = eval(id, active);
  if (v.lanes == nullptr) return v.value != 0 ? active : 0;
  LaneMask m = 0;
  for (int l = 0; l < lanes_; ++l) m |= static_cast<LaneMask>(v.lanes[l] != 0) << l;
  return m & active;
}

inline void WarpMachine::assign(LocalId local, ExprId value, LaneMask active) {
  write(local, operand(value, active), active);
}

void WarpMachine::write(LocalId local, Val v, LaneMask mask) {
  changed(local);
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
    for (LaneMask m = mask; m != 0; m &= m - 1) lanes[lowest_lane(m)] = v.value;
  } else if (kept == 0) {
    if (v.lanes != lanes) std::copy(v.lanes, v.lanes + lanes_, lanes);
  } else {
    if (st.uniform) std::fill(lanes, lanes + lanes_, st.value);
    // The written lanes one by one (a loop some lanes have left: no branch per lane to mispredict).
    for (LaneMask m = mask; m != 0; m &= m - 1) lanes[lowest_lane(m)] = v.lanes[lowest_lane(m)];
  }
  st.uniform = false;
  st.defined = (kept == 0 ? 0 : st.defined) | mask;
}

// ---------------------------------------------------------------------------------------------
// Statements

void WarpMachine::fault(std::size_t item, const std::string& message, bool out_of_bounds) {
  if (run_.fault_flag != nullptr) run_.fault_flag->store(true, std::memory_order_relaxed);
  MemoryFault& f = faults_[item];
  const std::uint64_t block =
      block_index_[0] +
      p_.launch.grid.x * (block_index_[1] + std::uint64_t{p_.launch.grid.y} * block_index_[2]);
  if (f.met && f.block <= block) return;
  f.met = true;
  f.block = block;
  f.message = message;
  f.out_of_bounds = out_of_bounds;
}

void counts_overflow(bool wide) {
  throw InvalidInput(Diag::count_budget,
                     std::string("the counts of one block pass 2^") + (wide ? "128" : "64"));
}

template <class F>
inline void WarpMachine::repeat(StmtId id, std::size_t frame, LaneMask& in, LaneMask& exits, F&& iteration) {
  // A recorder may run this instance's iterations its own way (the class engine: by classes).
  const bool recorded = recorder_ != nullptr && recorder_->loop_begin(id, in);
  std::unique_ptr<RepeatWatch> watch;
  std::uint64_t heads = 0;
  for (std::uint64_t k = 0; in != 0; ++k) {
    if (++heads >= kRepeatWatchStart) watch_repeat(id, watch, heads, in);
    loop_iteration_[id] = k;
    in = recorded ? recorder_->iterations(id, frame, in, exits, k) : iteration(in);
    if ((++ticks_ & 0x3FFF) == 0) check_limits();
  }
}

LaneMask WarpMachine::iteration(StmtId id, const Stmt& s, std::size_t frame, LaneMask in, LaneMask& exits) {
  return loop_iteration(id, s, frame, in, exits);
}

namespace {

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

void WarpMachine::never_ends(StmtId loop, LaneMask in, std::uint64_t period) const {
  throw InvalidInput(
      Diag::endless_loop, source_location(k_, k_.stmts[loop].range),
      "the " + report_kind(k_.stmts[loop]) + " loop never ends: warp " + std::to_string(warp_) + " (lanes " +
          lane_ranges(in) + ") is back in the state it had " + std::to_string(period) + " iteration" +
          (period == 1 ? "" : "s") +
          " before, so it repeats forever (first thread: " + block_and_thread(lowest_lane(in)) + ")");
}

LaneMask WarpMachine::case_lanes(const Val& v, ExprId, std::uint64_t c, LaneMask active) const {
  if (v.lanes == nullptr) return v.value == c ? active : 0;
  LaneMask m = 0;
  for (int l = 0; l < lanes_; ++l) m |= static_cast<LaneMask>(v.lanes[l] == c) << l;
  return m & active;
}

}  // namespace warpdiv::sim::ir::detail
