// The class engine's iteration log (sim/classes/ir_class_recorder.hpp): per accelerated loop, the
// iterations of a block cut into pieces that behave alike, with their counts and outcomes.
#include "sim/classes/ir_class_recorder.hpp"

#include <algorithm>
#include <string>

namespace warpdiv::sim::ir::detail {

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

WarpOutcome outcome_of(const StatementCounts& c) {
  if (c.warp_evaluations == 0) return WarpOutcome::NotReached;
  if (c.divergent > 0) return WarpOutcome::Divergent;
  if (c.taken_lanes == c.active_lanes) return WarpOutcome::AllTrue;
  if (c.taken_lanes == 0) return WarpOutcome::AllFalse;
  return WarpOutcome::Mixed;
}

WarpOutcome combine(WarpOutcome a, WarpOutcome b) {
  if (a == WarpOutcome::NotReached) return b;
  if (b == WarpOutcome::NotReached) return a;
  if (a == WarpOutcome::Divergent || b == WarpOutcome::Divergent) return WarpOutcome::Divergent;
  return a == b ? a : WarpOutcome::Mixed;
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
      for (StatementCounts& c : tail.counts) {
        const StatementCounts each = c;
        c = StatementCounts{};
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

void ClassRecorder::log_start(int shape, LaneMask in) {
  LoopLog& log = log_->loops[static_cast<std::size_t>(shape)];
  const LocalState& v =
      m_.local(c_.accelerated[c_.loop_shapes[static_cast<std::size_t>(shape)].loop]->variable);
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
void ClassRecorder::log_segment(int shape, std::uint64_t first, std::uint64_t last, std::size_t slot,
                                std::size_t class_depth) {
  const ClassProgram::LoopShape& sh = c_.loop_shapes[static_cast<std::size_t>(shape)];
  const auto& before = log_before_[slot];
  const std::uint64_t n = last - first + 1;
  segment_.resize(sh.statements.size());
  for (std::size_t i = 0; i < sh.statements.size(); ++i) {
    const StatementCounts& now = m_.counts()[sh.statements[i]];
    StatementCounts total;
    total.warp_evaluations = now.warp_evaluations - before[i].warp_evaluations;
    total.divergent = now.divergent - before[i].divergent;
    total.active_lanes = now.active_lanes - before[i].active_lanes;
    total.taken_lanes = now.taken_lanes - before[i].taken_lanes;
    if (n == 1) {
      segment_[i] = total;
      continue;
    }
    // A class: iteration first's counts (iteration_class's snapshots around it), n times.
    const StatementCounts& a = snapshots_[2 * class_depth][i];  // the same loop's snapshots, by position
    const StatementCounts& b = snapshots_[2 * class_depth + 1][i];
    StatementCounts each;
    each.warp_evaluations = b.warp_evaluations - a.warp_evaluations;
    each.divergent = b.divergent - a.divergent;
    each.active_lanes = b.active_lanes - a.active_lanes;
    each.taken_lanes = b.taken_lanes - a.taken_lanes;
    StatementCounts expected;
    add_scaled(expected, each, n);
    if (!(expected == total))
      throw IterationClassMismatch(location(m_.kernel(), m_.kernel().stmts[sh.loop].range) + ": iterations " +
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
void ClassRecorder::journal(int shape, std::uint64_t first, std::uint64_t last,
                            const std::vector<StatementCounts>& each,
                            const std::vector<WarpOutcome>& outcomes, std::uint64_t times) {
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
void ClassRecorder::log_add(int shape, std::uint64_t first, std::uint64_t last,
                            const std::vector<StatementCounts>& each,
                            const std::vector<WarpOutcome>& outcomes, std::uint64_t times) {
  const ClassProgram::LoopShape& sh = c_.loop_shapes[static_cast<std::size_t>(shape)];
  const std::size_t nc = sh.conditions.size();
  std::vector<IterationPiece>& pieces = log_->loops[static_cast<std::size_t>(shape)].pieces;
  const std::size_t outcome_cells = sh.outcomes ? std::size_t(m_.program().warps_per_block) * nc : 0;
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
    for (std::size_t j = 0; j < each.size(); ++j)
      add_scaled(p.counts[j], each[j], product(times, log_copies_));
    if (!p.outcomes.empty()) {
      for (std::uint32_t copy = 0; copy < log_copies_; ++copy) {
        WarpOutcome* row = p.outcomes.data() + (std::size_t(m_.warp()) + copy) * nc;
        for (std::size_t j = 0; j < nc; ++j) row[j] = combine(row[j], outcomes[j]);
      }
    }
  }
  if (pieces.size() > kMaxIterationClasses) compact(log_->loops[static_cast<std::size_t>(shape)]);
}

}  // namespace warpdiv::sim::ir::detail
