// The class engine's recorder on the warp machine: tracked comparisons and their breakpoints,
// and accelerated loops run as classes of iterations (sim/classes/ir_class_recorder.hpp).
#include "sim/classes/ir_class_recorder.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "sim/support/errors.hpp"

namespace warpdiv::sim::ir::detail {

namespace {
__extension__ typedef __int128 Wide;
Wide floor_div(Wide n, Wide d) {
  // Mostly 64-bit operands: a 64-bit division is many times faster than a 128-bit one.
  constexpr Wide kLow = std::numeric_limits<std::int64_t>::min(),
                 kHigh = std::numeric_limits<std::int64_t>::max();
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
  std::int64_t below = std::numeric_limits<std::int64_t>::min(),
               above = std::numeric_limits<std::int64_t>::max();
};
template <bool kNearest>
__attribute__((always_inline)) inline LaneScan scan_lanes(const std::int64_t* d, int lanes, LaneMask active) {
  LaneMask lt = 0, gt = 0;
  std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
  std::int64_t below = std::numeric_limits<std::int64_t>::min(),
               above = std::numeric_limits<std::int64_t>::max();
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

// ---------------------------------------------------------------------------------------------
// ClassProgram

PlanOptions class_plan_options(const ReplayOptions& options,
                               const std::vector<std::optional<TrackedComparison>>& tracked,
                               const std::vector<AccessShift>& shifts) {
  PlanOptions o = plan_options(options);
  o.recorded.resize(tracked.size());
  for (std::size_t i = 0; i < tracked.size(); ++i) o.recorded[i] = tracked[i].has_value();
  o.shifts.resize(shifts.size());
  for (std::size_t a = 0; a < shifts.size(); ++a)
    o.shifts[a] = PlanOptions::Shift{shifts[a].count, shifts[a].step};
  return o;
}

ClassProgram::ClassProgram(const LaunchPlan& p, const RunContext& run_,
                           std::vector<std::optional<TrackedComparison>> comparisons,
                           std::vector<std::optional<AcceleratedLoop>> loops, bool warp_classes_,
                           bool memory_, std::vector<AccessShift> shifts_)
    : program(p),
      run(run_),
      tracked(std::move(comparisons)),
      accelerated(std::move(loops)),
      warp_classes(warp_classes_),
      memory(memory_),
      shifts(std::move(shifts_)) {
  const Kernel& kernel = p.kernel;
  // The compiled accesses (the residues each follows, and where the tally keeps them).
  compiled.assign(kernel.accesses.size(), nullptr);
  for (const StatementMemory& m : p.memory)
    for (const CompiledAccess& a : m.accesses) compiled[static_cast<std::size_t>(a.id)] = &a;
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
    for (StmtId l = p.innermost_loop[s]; l != kNone; l = outer[static_cast<std::size_t>(l)]) {
      const std::int32_t shape = loop_shape[static_cast<std::size_t>(l)];
      if (shape < 0) continue;
      LoopShape& sh = loop_shapes[static_cast<std::size_t>(shape)];
      const StmtKind kind = kernel.stmts[s].kind;
      if (kind == StmtKind::If || kind == StmtKind::Loop || kind == StmtKind::Switch)
        sh.conditions.push_back(static_cast<std::uint32_t>(sh.statements.size()));
      sh.statements.push_back(static_cast<StmtId>(s));
      for (const CompiledAccess& a : p.memory[s].accesses) sh.accesses.push_back(a.id);
    }
  }
  for (LoopShape& sh : loop_shapes)
    sh.outcomes =
        std::size_t(p.warps_per_block) * sh.conditions.size() * kMaxIterationClasses <= kMaxOutcomeCells;
}

void ClassTrace::compact_breakpoints() {
  for (std::size_t i = 0; i < 4; ++i) {
    std::vector<std::uint64_t>& points = i < 3 ? breakpoints[i] : warp_breakpoints;
    if (points.size() < std::max(compact_at[i], kCompactFrom)) continue;
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    compact_at[i] = 2 * points.size();
  }
}

bool operator==(const TraceEntry& a, const TraceEntry& b) {
  return a.id == b.id && a.active == b.active && a.lt == b.lt && a.gt == b.gt;
}

// ---------------------------------------------------------------------------------------------
// ClassRecorder

ClassRecorder::ClassRecorder(const ClassProgram& classes, WarpMachine& machine) : c_(classes), m_(machine) {
  m_.set_recorder(this);
}

ClassRecorder::~ClassRecorder() { m_.set_recorder(nullptr); }

void ClassRecorder::on(const WarpEvent&) {
  class_frames_.clear();
  log_depth_ = 0;
  if (log_ != nullptr && m_.counted() && !log_->outcomes.empty())
    warp_start_.assign(m_.counts(), m_.counts() + m_.kernel().stmts.size());
}

// The warp's outcome of each condition over its whole run, into the log's rows (of every warp it
// stands for).
void ClassRecorder::on(const WarpEndEvent&) {
  if (log_ == nullptr || !m_.counted() || log_->outcomes.empty()) return;
  const Kernel& k = m_.kernel();
  const StatementCounts* counts = m_.counts();
  for (std::size_t i = 0; i < k.stmts.size(); ++i) {
    const StmtKind kind = k.stmts[i].kind;
    if (kind != StmtKind::If && kind != StmtKind::Loop && kind != StmtKind::Switch) continue;
    StatementCounts c = counts[i];
    c.warp_evaluations -= warp_start_[i].warp_evaluations;
    c.divergent -= warp_start_[i].divergent;
    c.active_lanes -= warp_start_[i].active_lanes;
    c.taken_lanes -= warp_start_[i].taken_lanes;
    for (std::uint32_t copy = 0; copy < log_copies_; ++copy)
      log_->outcomes[(std::size_t(m_.warp()) + copy) * k.stmts.size() + i] = outcome_of(c);
  }
}

// Accelerated loops (not do loops) run here while a trace is set; a logged one's instance also
// notes its variable's start.
bool ClassRecorder::loop_begin(StmtId loop, LaneMask in) {
  const auto id = static_cast<std::size_t>(loop);
  if (trace_ == nullptr || c_.accelerated.empty() || !c_.accelerated[id].has_value() ||
      m_.kernel().stmts[id].loop_kind == LoopKind::Do)
    return false;
  const int shape = log_ != nullptr && m_.counted() ? c_.loop_shape[id] : -1;
  if (shape >= 0 && in != 0) log_start(shape, in);
  return true;
}

LaneMask ClassRecorder::iterations(StmtId id, std::size_t frame, LaneMask in, LaneMask& exits,
                                   std::uint64_t& k) {
  const Stmt& s = m_.kernel().stmts[static_cast<std::size_t>(id)];
  const int shape = log_ != nullptr && m_.counted() ? c_.loop_shape[static_cast<std::size_t>(id)] : -1;
  if (shape >= 0) return logged_iterations(shape, id, s, frame, in, exits, k);
  return m_.by_iteration() ? m_.iteration(id, s, frame, in, exits)
                           : iteration_class(id, s, frame, in, exits, k);
}

// A logged loop: the counts before the iteration (or class of iterations), then its segment.
LaneMask ClassRecorder::logged_iterations(int shape, StmtId id, const Stmt& s, std::size_t frame, LaneMask in,
                                          LaneMask& exits, std::uint64_t& k) {
  const std::size_t slot = log_depth_++;
  if (log_before_.size() <= slot) log_before_.resize(slot + 1);
  const auto& statements = c_.loop_shapes[static_cast<std::size_t>(shape)].statements;
  auto& before = log_before_[slot];
  before.resize(statements.size());
  for (std::size_t i = 0; i < statements.size(); ++i) before[i] = m_.counts()[statements[i]];
  const std::uint64_t first = k;
  const std::size_t class_depth = class_frames_.size();
  const std::size_t journal_start = journal_used_;
  in =
      m_.by_iteration() ? m_.iteration(id, s, frame, in, exits) : iteration_class(id, s, frame, in, exits, k);
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
        std::vector<StatementCounts> counts_e = entry.counts;
        std::vector<WarpOutcome> outcomes_e = entry.outcomes;
        journal(shape_e, first_e, last_e, counts_e, outcomes_e, more);
      }
    }
  }
  log_segment(shape, first, k, slot, class_depth);
  if (log_depth_ == 0) journal_used_ = 0;
  return in;
}

namespace {

// D = a - b of lanes 0 .. lanes-1 into d, when every lane's D fits in 64 bits: always for 32-bit
// operands (normalised to 64 bits, so both signednesses read as int64); for 64-bit ones when no
// lane's subtraction overflows (lanes that are not active may make it fail: then the caller takes
// the 128-bit path, which is exact anyway).
bool d_fits_64(const CompiledExpr& e, const Operand& a, const Operand& b, int lanes,
               std::array<std::int64_t, kMaxLanes>& d) {
  const std::uint64_t* pa = a.lanes;
  const std::uint64_t* pb = b.lanes;
  const std::uint64_t av = a.value, bv = b.value;
  if (e.narrow_operands) {
    for (int l = 0; l < lanes; ++l)
      d[l] = static_cast<std::int64_t>(pa != nullptr ? pa[l] : av) -
             static_cast<std::int64_t>(pb != nullptr ? pb[l] : bv);
    return true;
  }
  bool fits = true;
  if (e.signed_operands) {
    for (int l = 0; l < lanes; ++l) {
      long long r = 0;
      fits &= !__builtin_sub_overflow(static_cast<long long>(pa != nullptr ? pa[l] : av),
                                      static_cast<long long>(pb != nullptr ? pb[l] : bv), &r);
      d[l] = r;
    }
  } else {
    for (int l = 0; l < lanes; ++l) {
      const std::uint64_t x = pa != nullptr ? pa[l] : av, y = pb != nullptr ? pb[l] : bv;
      fits &= ((x | y) >> 63) == 0;  // both below 2^63: x - y cannot overflow int64
      d[l] = static_cast<std::int64_t>(x - y);
    }
  }
  return fits;
}

// D = a - b of one lane, exactly.
struct Difference {
  const Operand& a;
  const Operand& b;
  bool signed_operands;
  Wide operator()(int l) const {
    const std::uint64_t x = a.lanes != nullptr ? a.lanes[l] : a.value;
    const std::uint64_t y = b.lanes != nullptr ? b.lanes[l] : b.value;
    return signed_operands ? Wide{static_cast<std::int64_t>(x)} - static_cast<std::int64_t>(y)
                           : Wide{x} - Wide{y};
  }
};

// Per lane: the outcome; over the active lanes: the extremes of D, and (`nearest`) those nearest 0
// on each side (the first iteration where some lane's outcome changes comes from one of them).
struct Extremes {
  LaneMask lt = 0, gt = 0;
  Wide low = 0, high = 0, below = 0, above = 0;
  bool any = false, any_below = false, any_above = false, zero = false;
};

// Extremes of D = diff(lane) over the active lanes, lane by lane in 128 bits (D past 64 bits, or a
// wrap guard's distance to its wrap point); with `nearest` also those nearest 0.
template <class Diff>
Extremes scan_wide(LaneMask active, const Diff& diff, bool nearest) {
  Extremes x;
  for (LaneMask m = active; m != 0; m &= m - 1) {
    const int l = lowest_lane(m);
    const Wide d = diff(l);
    x.lt |= static_cast<LaneMask>(d < 0) << l;
    x.gt |= static_cast<LaneMask>(d > 0) << l;
    if (!x.any || d < x.low) x.low = d;
    if (!x.any || d > x.high) x.high = d;
    x.any = true;
    if (!nearest) continue;
    if (d < 0 && (!x.any_below || d > x.below)) {
      x.below = d;
      x.any_below = true;
    }
    if (d > 0 && (!x.any_above || d < x.above)) {
      x.above = d;
      x.any_above = true;
    }
    x.zero |= d == 0;
  }
  return x;
}

__attribute__((always_inline)) inline Extremes extremes(const CompiledExpr& e, const Difference& diff,
                                                        int lanes, LaneMask active, bool nearest) {
  const Operand& a = diff.a;
  const Operand& b = diff.b;
  Extremes x;
  if (a.lanes == nullptr && b.lanes == nullptr) {
    const Wide d = diff(0);
    x.any = active != 0;
    x.lt = d < 0 ? active : 0;
    x.gt = d > 0 ? active : 0;
    x.low = x.high = d;
    x.below = x.above = d;
    x.any_below = d < 0;
    x.any_above = d > 0;
    x.zero = d == 0;
    return x;
  }
  if (std::array<std::int64_t, kMaxLanes> d64; d_fits_64(e, a, b, lanes, d64)) {
    // D of every lane in 64 bits (always for 32-bit operands, nearly always for 64-bit ones):
    // every lane is computed, branch-free, and the inactive ones masked out.
    // With a running class of iterations, also the active lanes' D nearest 0 on each side.
    const LaneScan sc =
        nearest ? scan_lanes<true>(d64.data(), lanes, active) : scan_lanes<false>(d64.data(), lanes, active);
    x.lt = sc.lt & active;
    x.gt = sc.gt & active;
    x.any = active != 0;
    x.low = sc.lo;
    x.high = sc.hi;
    if (nearest) {
      x.any_below = x.lt != 0;
      x.any_above = x.gt != 0;
      x.below = sc.below;
      x.above = sc.above;
      x.zero = (active & ~x.lt & ~x.gt) != 0;
    }
    return x;
  }
  return scan_wide(active, diff, nearest);
}

}  // namespace

// A tracked comparison: its outcome per lane (less, greater) into the trace, and where along each
// block index (and each accelerated loop's iterations) some lane's outcome changes. For one lane,
// a - b = D now and D + c * delta at a block index (iteration) delta further on: its sign changes
// at delta = ceil(-D / c) (to or from 0) and floor(-D / c) + 1 (past 0).
void ClassRecorder::on(const ComparisonEvent& event) {
  if (trace_ == nullptr) return;  // between blocks: nothing to record into
  const ExprId id = event.site;
  const LaneMask active = event.active;
  const Operand& a = event.a;
  const Operand& b = event.b;
  const CompiledExpr& e = m_.program().exprs[id];
  const TrackedComparison& t = *c_.tracked[id];
  const Difference diff{a, b, e.signed_operands};
  const bool nearest = !t.loop_coefficients.empty() && !class_frames_.empty();
  const Extremes x = extremes(e, diff, m_.lanes(), active, nearest);
  if (__builtin_expect(trace_->entries.size() >= kMaxTraceEntries, 0)) too_many_records(id);
  trace_->entries.push_back(TraceEntry{id, active, x.lt, x.gt});
  if (__builtin_expect(!t.guards.empty(), 0))
    for (const WrapGuard& g : t.guards) guard(g, id, active, g.side == 0 ? a : b);
  if (!x.any) return;
  breakpoints(t, x, active, diff);
}

void ClassRecorder::too_many_records(ExprId id) const {
  ClassRefusal why;
  why.range = m_.kernel().exprs[id].range;
  why.location = location(m_.kernel(), why.range);
  why.what = "this comparison";
  why.reason = "is recorded more than " + std::to_string(kMaxTraceEntries) +
               " times in one block (a loop around it does not run as classes of iterations), "
               "more than the class engine keeps";
  throw ClassesUnproven(why);
}

// A wrap guard: where the operand's mathematical value M crosses the wrap point, as a comparison
// M < wrap would record it (its outcome per lane into the trace, its breakpoints).
void ClassRecorder::guard(const WrapGuard& g, ExprId id, LaneMask active, const Operand& value) {
  const std::uint64_t mask = g.width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << g.width) - 1;
  const auto diff = [&](int l) {
    const std::uint64_t bits = value.lanes != nullptr ? value.lanes[l] : value.value;
    return g.low + Wide{(bits - static_cast<std::uint64_t>(g.low)) & mask} - g.wrap;
  };
  const Extremes x = scan_wide(active, diff, true);
  trace_->entries.push_back(TraceEntry{kGuardEntries + std::int64_t{id} * 2 + g.side, active, x.lt, x.gt});
  if (x.any) breakpoints(g.coefficients, x, active, diff);
}

// Where along each block index (and the warp index, and each running class of iterations) some
// active lane's outcome of a recorded comparison (D = a - b per lane, `diff`) changes. For one
// lane, D now and D + c * delta at a block index (iteration) delta further on: its sign changes
// at delta = ceil(-D / c) (to or from 0) and floor(-D / c) + 1 (past 0).
template <class Extremes, class Diff>
void ClassRecorder::breakpoints(const AffineCoefficients& t, const Extremes& x, LaneMask active,
                                const Diff& diff) {
  const Wide low = x.low, high = x.high;
  const std::uint64_t grid[3] = {m_.program().launch.grid.x, m_.program().launch.grid.y,
                                 m_.program().launch.grid.z};
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
    if (out.size() >= ClassTrace::kCompactFrom) trace_->compact_breakpoints();
    return std::pair<Wide, Wide>{from, to};
  };
  for (int dim = 0; dim < 3; ++dim) {
    const Wide c = t.block_coefficient[dim];
    if (c == 0) continue;
    const auto [from, to] = thresholds(c, Wide{m_.block_index()[dim]}, grid[dim], trace_->breakpoints[dim]);
    if (c_.warp_classes) trace_->block_ranges.push_back(ClassTrace::BlockRange{dim, from, to});
  }
  if (c_.warp_classes && t.warp_coefficient != 0)
    thresholds(Wide{t.warp_coefficient}, Wide{m_.warp()},
               static_cast<std::uint64_t>(m_.program().warps_per_block), trace_->warp_breakpoints);
  for (const auto& [loop, coefficient] : t.loop_coefficients) {
    for (std::size_t i = class_frames_.size(); i-- > 0;) {
      ClassFrame& f = class_frames_[i];
      if (f.loop != loop) continue;
      const Wide c = Wide{coefficient} * c_.accelerated[loop]->step;
      if (c == 0) break;
      // Thresholds after k0 come from the lanes whose D has the sign opposite to c (or is 0):
      // the nearest such D gives the nearest threshold.
      const Wide k0 = f.k;
      Wide next = f.next;
      const auto consider = [&](Wide d) {
        for (const Wide at : {k0 + ceil_div(-d, c), k0 + floor_div(-d, c) + 1})
          if (at > k0 && at < next) next = at;
      };
      if (c > 0 && x.any_below) consider(x.below);
      if (c < 0 && x.any_above) consider(x.above);
      if (x.zero) consider(0);
      f.next = static_cast<std::uint64_t>(next);
      break;
    }
  }
}

// Class engine: runs iteration k of an accelerated loop and, when the comparisons recorded in it
// put the next breakpoint at `next` > k + 2, iteration next - 1 as well; when both record the same
// trace, the iterations between behave as they do (every comparison in them is affine in the
// loop variable alone and has the same outcome at both ends), so their counts are iteration k's,
// added without running them. k is left at the last iteration run.
LaneMask ClassRecorder::iteration_class(StmtId id, const Stmt& s, std::size_t frame, LaneMask in,
                                        LaneMask& exits, std::uint64_t& k) {
  const AcceleratedLoop& acc = *c_.accelerated[id];
  LocalState& v = m_.local(acc.variable);
  if ((in & ~v.defined) != 0) return m_.iteration(id, s, frame, in, exits);
  // The variable may differ from lane to lane (a grid-stride loop: each lane starts at its own
  // index and steps by the same constant): each lane jumps by the same number of steps.
  const bool by_lane = !v.uniform;
  // Most such loops end within a few iterations (a grid-stride loop whose grid covers the data
  // runs once or twice per lane): those run as they are, without the bookkeeping of a jump, which
  // an iteration that cannot jump (out != in, next <= k + 2) would pay for nothing.
  if (by_lane && k < kByLaneFirstJump) return m_.iteration(id, s, frame, in, exits);
  const std::uint64_t v0 = v.value;
  const std::size_t depth = class_frames_.size();
  if (by_lane) {
    if (variable_entering_.size() <= depth) variable_entering_.resize(depth + 1);
    const std::uint64_t* lanes = m_.local_lanes(acc.variable);
    std::copy(lanes, lanes + m_.lanes(), variable_entering_[depth].begin());
  }
  if (snapshots_.size() < 2 * depth + 2) {
    snapshots_.resize(2 * depth + 2);
    arrival_snapshots_.resize(2 * depth + 2);
    counter_snapshots_.resize(2 * depth + 2);
  }
  const bool counters = !acc.counters.empty();
  if (counters) capture_counters(acc, counter_snapshots_[2 * depth]);
  // Only the statements inside the loop count in an iteration: those (in the loop shape's order),
  // then the warp's evaluations.
  const std::vector<StmtId>& inside = c_.loop_shapes[static_cast<std::size_t>(c_.loop_shape[id])].statements;
  const auto snapshot = [&](std::size_t slot) {
    std::vector<StatementCounts>& to = snapshots_[slot];
    to.resize(inside.size() + 1);
    for (std::size_t i = 0; i < inside.size(); ++i) to[i] = m_.counts()[inside[i]];
    to.back() = StatementCounts{Count{m_.evaluations() + m_.skipped_evaluations()}};
    std::vector<std::uint64_t>& a = arrival_snapshots_[slot];
    a.assign(m_.full_arrivals().begin(), m_.full_arrivals().end());
    a.insert(a.end(), m_.lane_arrivals().begin(), m_.lane_arrivals().end());
  };
  snapshot(2 * depth);
  const ClassProgram::LoopShape& shape = c_.loop_shapes[static_cast<std::size_t>(c_.loop_shape[id])];
  const bool memory = c_.memory && m_.memory_counted();
  if (memory) {
    if (memory_snapshots_.size() < 2 * depth + 2) memory_snapshots_.resize(2 * depth + 2);
    capture_memory(shape, memory_snapshots_[2 * depth]);
  }
  class_frames_.push_back(ClassFrame{id, k, ~std::uint64_t{0}});
  const std::size_t start = trace_->entries.size();
  LaneMask out = m_.iteration(id, s, frame, in, exits);
  const std::uint64_t next = class_frames_.back().next;
  class_frames_.pop_back();
  // A uniform variable jumps as one value: it must still be one (lanes outside the loop that
  // keep another value make it a lane array); a variable by lane jumps lane by lane.
  if (out != in || (!by_lane && !v.uniform) || (in & ~v.defined) != 0 || next == ~std::uint64_t{0} ||
      next <= k + 2)
    return out;
  if (counters) {
    capture_counters(acc, counter_snapshots_[2 * depth + 1]);
    if (counter_snapshots_[2 * depth + 1].defined != counter_snapshots_[2 * depth].defined) return out;
  }
  snapshot(2 * depth + 1);
  if (memory) capture_memory(shape, memory_snapshots_[2 * depth + 1]);
  if (log_ != nullptr) {
    if (journal_mark_.size() <= depth) journal_mark_.resize(depth + 1);
    journal_mark_[depth] = journal_used_;
  }
  const std::size_t middle = trace_->entries.size();
  const std::uint64_t last = next - 1;
  // The variable at iteration `last`: a value the loop reaches (the loop's own condition gives a
  // breakpoint at its exit), so modular arithmetic gives it exactly.
  const ScalarType variable_type = m_.kernel().locals[acc.variable].type;
  const std::uint64_t jump = static_cast<std::uint64_t>(acc.step) * (last - k);
  if (by_lane) {
    std::array<std::uint64_t, kMaxLanes>& lanes = variable_entering_[depth];
    for (int l = 0; l < m_.lanes(); ++l) lanes[l] = normalise(variable_type, lanes[l] + jump);
    m_.write(acc.variable, Operand{lanes.data(), 0}, in);
  } else {
    v.value = normalise(variable_type, v0 + jump);
  }
  m_.set_loop_iteration(id, last);
  // Counters: set to the values they have before iteration `last`.
  if (counters) jump_counters(acc, id, s, depth, k, last);
  class_frames_.push_back(ClassFrame{id, last, ~std::uint64_t{0}});
  out = m_.iteration(id, s, frame, in, exits);
  class_frames_.pop_back();
  if (counters) check_counters(acc, s, depth, k, last);
  const auto& e = trace_->entries;
  if (out != in || e.size() - middle != middle - start ||
      !std::equal(e.begin() + static_cast<std::ptrdiff_t>(start),
                  e.begin() + static_cast<std::ptrdiff_t>(middle),
                  e.begin() + static_cast<std::ptrdiff_t>(middle)))
    throw IterationClassMismatch(location(m_.kernel(), s.range) + ": iterations " + std::to_string(k) +
                                 " and " + std::to_string(last) + " of this loop differ");
  scale_iteration(inside, snapshots_[2 * depth], snapshots_[2 * depth + 1], last - k - 1);
  if (memory)
    scale_memory(shape, memory_snapshots_[2 * depth], memory_snapshots_[2 * depth + 1], last - k - 1);
  add_arrivals(depth, last - k - 1);
  trace_->entries.push_back(TraceEntry{-static_cast<std::int64_t>(id) - 1, k, last, 0});
  k = last;
  return out;
}

// Counters: each lane's step over iteration k, times the iterations up to `last` (the steps in
// between are the same: the same path with the same operands), so that iteration `last` starts
// from the value it has in the replay (its own steps then check overflow there, the largest or
// smallest of the class). Passing the type's range on the way is signed overflow.
void ClassRecorder::jump_counters(const AcceleratedLoop& acc, StmtId id, const Stmt& s, std::size_t depth,
                                  std::uint64_t k, std::uint64_t last) {
  if (counter_entering_.size() <= depth) counter_entering_.resize(depth + 1);
  std::vector<std::array<std::uint64_t, kMaxLanes>>& entering = counter_entering_[depth];
  const CounterSnapshot& a = counter_snapshots_[2 * depth];
  const CounterSnapshot& b = counter_snapshots_[2 * depth + 1];
  entering.resize(acc.counters.size());
  for (std::size_t c = 0; c < acc.counters.size(); ++c) {
    const LocalId x = acc.counters[c];
    const ScalarType type = m_.kernel().locals[x].type;
    const auto math = [&](std::uint64_t bits) {
      return is_signed(type) ? Wide{static_cast<std::int64_t>(bits)} : Wide{bits};
    };
    const int width = bit_width(type);
    const Wide low = is_signed(type) ? -(Wide{1} << (width - 1)) : 0;
    const Wide high = is_signed(type) ? (Wide{1} << (width - 1)) - 1 : (Wide{1} << width) - 1;
    for (int l = 0; l < m_.lanes(); ++l) {
      entering[c][l] = b.values[c][l];
      if (!(a.defined[c] >> l & 1)) continue;
      const Wide step = math(b.values[c][l]) - math(a.values[c][l]);
      Wide value = math(a.values[c][l]) + step * Wide{last - k};
      if (is_signed(type) && (value < low || value > high)) {
        // The first iteration to enter with a value past the range: the one before it (counted
        // from 1, the iteration it enters as counted from 0) passed it.
        const Wide start = math(a.values[c][l]);
        const Wide first = Wide{k} + (step > 0 ? (high - start) / step : (start - low) / -step) + 1;
        throw InvalidInput(
            Diag::undefined_arithmetic, source_location(m_.kernel(), s.range),
            "undefined behaviour: " + m_.kernel().locals[x].name + " overflows its type (" + name(type) +
                ") in iteration " + std::to_string(static_cast<std::uint64_t>(first)) +
                " of this loop (counted from 1), in block (" + std::to_string(m_.block_index()[0]) + ", " +
                std::to_string(m_.block_index()[1]) + ", " + std::to_string(m_.block_index()[2]) + ")" +
                inlined_at_statement(m_.kernel(), id));
      }
      if (!is_signed(type)) value &= high;
      entering[c][l] = normalise(type, static_cast<std::uint64_t>(value));
    }
    m_.write(x, Operand{entering[c].data(), 0}, a.defined[c] & m_.alive());
  }
}

// The counters' steps in iteration `last` must be iteration k's (defensive).
void ClassRecorder::check_counters(const AcceleratedLoop& acc, const Stmt& s, std::size_t depth,
                                   std::uint64_t k, std::uint64_t last) {
  CounterSnapshot& after = counter_after_;
  capture_counters(acc, after);
  const CounterSnapshot& a = counter_snapshots_[2 * depth];
  const CounterSnapshot& b = counter_snapshots_[2 * depth + 1];
  for (std::size_t c = 0; c < acc.counters.size(); ++c)
    for (int l = 0; l < m_.lanes(); ++l)
      if ((a.defined[c] >> l & 1) &&
          after.values[c][l] - counter_entering_[depth][c][l] != b.values[c][l] - a.values[c][l])
        throw IterationClassMismatch(location(m_.kernel(), s.range) + ": iterations " + std::to_string(k) +
                                     " and " + std::to_string(last) + " of this loop step " +
                                     m_.kernel().locals[acc.counters[c]].name + " differently");
}

// The barrier arrivals of iteration k (snapshots at `depth`), `times` more times.
void ClassRecorder::add_arrivals(std::size_t depth, std::uint64_t times) {
  const auto& a0 = arrival_snapshots_[2 * depth];
  const auto& a1 = arrival_snapshots_[2 * depth + 1];
  const std::size_t nb = m_.full_arrivals().size();
  for (std::size_t i = 0; i < a0.size(); ++i) {
    std::uint64_t& target = i < nb ? m_.full_arrivals()[i] : m_.lane_arrivals()[i - nb];
    std::uint64_t add = 0;
    if (__builtin_mul_overflow(a1[i] - a0[i], times, &add) || __builtin_add_overflow(target, add, &target))
      throw InvalidInput(Diag::count_budget, "the counts of one warp pass 2^64");
  }
}

void ClassRecorder::capture_counters(const AcceleratedLoop& acc, CounterSnapshot& into) {
  into.values.resize(acc.counters.size());
  into.defined.resize(acc.counters.size());
  for (std::size_t c = 0; c < acc.counters.size(); ++c) {
    const LocalState& st = m_.local(acc.counters[c]);
    const std::uint64_t* lanes = m_.local_lanes(acc.counters[c]);
    for (int l = 0; l < m_.lanes(); ++l) into.values[c][l] = st.uniform ? st.value : lanes[l];
    into.defined[c] = st.defined;
  }
}

void ClassRecorder::capture_memory(const ClassProgram::LoopShape& shape, MemorySnapshot& into) {
  into.accesses.resize(shape.accesses.size());
  into.shifted.clear();
  for (std::size_t i = 0; i < shape.accesses.size(); ++i) {
    const auto a = static_cast<std::size_t>(shape.accesses[i]);
    into.accesses[i] = m_.access_counts()[a];
    const CompiledAccess& ca = *c_.compiled[a];
    into.shifted.insert(into.shifted.end(), m_.shifted_counts() + ca.shifted_at,
                        m_.shifted_counts() + ca.shifted_at + (ca.shifts - 1));
  }
  into.flops.resize(shape.statements.size());
  for (std::size_t i = 0; i < shape.statements.size(); ++i)
    into.flops[i] = m_.flop_counts()[shape.statements[i]];
}

// The memory figures of iteration k (after - before), for the iterations k + 1 .. k + times: each
// access's addresses move by its coefficient x the loop's step per iteration.
void ClassRecorder::scale_memory(const ClassProgram::LoopShape& shape, const MemorySnapshot& before,
                                 const MemorySnapshot& after, std::uint64_t times) {
  std::size_t at = 0;  // the access's residues in the snapshots
  std::vector<std::uint64_t>& delta = memory_delta_;
  for (std::size_t i = 0; i < shape.accesses.size(); ++i) {
    const auto a = static_cast<std::size_t>(shape.accesses[i]);
    const CompiledAccess& ca = *c_.compiled[a];
    const AccessShift& sh = c_.shifts[a];
    const AccessCounts& b = before.accesses[i];
    const AccessCounts& e = after.accesses[i];
    const AccessCounts d{e.requests - b.requests, e.lanes - b.lanes,           e.bytes - b.bytes,
                         e.sectors - b.sectors,   e.wavefronts - b.wavefronts, e.conflicts - b.conflicts};
    delta.resize(static_cast<std::size_t>(ca.shifts - 1));
    for (std::size_t s = 0; s + 1 < static_cast<std::size_t>(ca.shifts); ++s)
      delta[s] = after.shifted[at + s] - before.shifted[at + s];
    at += static_cast<std::size_t>(ca.shifts - 1);
    std::int64_t per_iteration = 0;
    for (const auto& [loop, bytes] : sh.loops)
      if (loop == shape.loop) per_iteration = bytes;
    add_residues(ca, m_.access_counts()[a], m_.shifted_counts() + ca.shifted_at, d, delta.data(),
                 residue_histogram(sh, per_iteration, 1, times));
  }
  for (std::size_t i = 0; i < shape.statements.size(); ++i)
    add_product(m_.flop_counts()[shape.statements[i]], after.flops[i] - before.flops[i], times);
}

void ClassRecorder::scale_iteration(const std::vector<StmtId>& statements,
                                    const std::vector<StatementCounts>& before,
                                    const std::vector<StatementCounts>& after, std::uint64_t times) {
  const auto add = [times](Count& target, Count b, Count a) { add_product(target, a - b, times); };
  for (std::size_t i = 0; i < statements.size(); ++i) {
    StatementCounts& c = m_.counts()[statements[i]];
    add(c.warp_evaluations, before[i].warp_evaluations, after[i].warp_evaluations);
    add(c.divergent, before[i].divergent, after[i].divergent);
    add(c.active_lanes, before[i].active_lanes, after[i].active_lanes);
    add(c.taken_lanes, before[i].taken_lanes, after[i].taken_lanes);
  }
  // The warp's evaluations (u64, the budget's), kept in the snapshots' last entry.
  const Count skipped = product(after.back().warp_evaluations - before.back().warp_evaluations, times);
  if (skipped > ~std::uint64_t{0} ||
      __builtin_add_overflow(m_.skipped_evaluations(), static_cast<std::uint64_t>(skipped),
                             &m_.skipped_evaluations()))
    throw InvalidInput(Diag::count_budget, "the counts of one warp pass 2^64");
}

}  // namespace warpdiv::sim::ir::detail
