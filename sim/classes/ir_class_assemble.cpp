// The class engine's result from the settled partition: block classes, their definitions, their
// iteration classes and per-warp outcomes.
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "sim/classes/ir_class_detail.hpp"

namespace warpdiv::sim::ir {

namespace detail {

namespace {

StatementCounts scaled(const StatementCounts& c, Count times) {
  StatementCounts s;
  s.warp_evaluations = checked_mul(c.warp_evaluations, times);
  s.divergent = checked_mul(c.divergent, times);
  s.active_lanes = checked_mul(c.active_lanes, times);
  s.taken_lanes = checked_mul(c.taken_lanes, times);
  s.block_executions = checked_mul(c.block_executions, times);
  s.partial_block_executions = checked_mul(c.partial_block_executions, times);
  s.blocks_with_partial = checked_mul(c.blocks_with_partial, times);
  return s;
}

std::string value_text(ScalarType type, std::uint64_t bits) {
  return is_signed(type) ? std::to_string(static_cast<std::int64_t>(bits)) : std::to_string(bits);
}

// The definition of iterations first .. last of a loop whose last check (every lane leaves) is
// iteration `exit_at` (see IterationClass::definition).
std::string iteration_definition(const Kernel& kernel, const AcceleratedLoop& acc, const LoopLog& log,
                                 const IterationClass& c, std::uint64_t exit_at) {
  const std::uint64_t a = c.first, b = c.last;
  const std::uint64_t body_last = exit_at == 0 ? 0 : exit_at - 1;
  const bool whole = exit_at > 0 && a == 0 && b >= body_last && !c.exit;
  std::string text;
  if (log.by_value && log.started) {
    const Local& variable = kernel.locals[static_cast<std::size_t>(acc.variable)];
    const auto value = [&](std::uint64_t k) {
      return normalise(variable.type, log.start + static_cast<std::uint64_t>(acc.step) * k);
    };
    const auto v = [&](std::uint64_t k) { return value_text(variable.type, value(k)); };
    const std::string& n = variable.name;
    const bool up = acc.step > 0;
    if (a == b) {
      text = n + " = " + v(a) + (c.exit ? " (exit)" : a == body_last ? " (last)" : a == 0 ? " (first)" : "");
    } else if (whole || (a != 0 && b < body_last)) {
      const bool ascending = is_signed(variable.type)
                                 ? static_cast<std::int64_t>(value(a)) < static_cast<std::int64_t>(value(b))
                                 : value(a) < value(b);
      text = n + " in [" + (ascending ? v(a) : v(b)) + ", " + (ascending ? v(b) : v(a)) + "]" +
             (whole ? " (all)" : "");
    } else if (a == 0) {
      if (acc.step == 1 || acc.step == -1)
        text = n + (up ? " < " : " > ") + v(b + 1);
      else
        text = n + (up ? " <= " : " >= ") + v(b);
    } else {
      text = n + (up ? " >= " : " <= ") + v(a);
    }
  } else if (a == b) {
    text = "iteration " + std::to_string(a + 1) +
           (c.exit           ? " (exit)"
            : a == body_last ? " (last)"
            : a == 0         ? " (first)"
                             : "");
  } else {
    text = "iterations " + std::to_string(a + 1) + " to " + std::to_string(b + 1) + (whole ? " (all)" : "");
  }
  return c.merged ? text + " (merged)" : text;
}

// The iteration classes of one representative block's log, for a class of `blocks` blocks.
std::vector<IterationClass> iteration_classes(const ClassProgram& classes, IterationLog& log, Count blocks) {
  const Kernel& kernel = classes.program.kernel;
  std::vector<std::size_t> order(classes.loop_shapes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto where = [&](std::size_t i) {
    const SourceRange& r = kernel.stmts[static_cast<std::size_t>(classes.loop_shapes[i].loop)].range;
    return std::make_tuple(r.file, r.line, r.column, classes.loop_shapes[i].loop);
  };
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return where(x) < where(y); });
  const std::size_t stmts = kernel.stmts.size();
  const auto warps = static_cast<std::size_t>(classes.program.warps_per_block);
  std::vector<IterationClass> out;
  for (const std::size_t i : order) {
    const ClassProgram::LoopShape& shape = classes.loop_shapes[i];
    LoopLog& loop_log = log.loops[i];
    if (loop_log.pieces.empty()) continue;
    compact(loop_log);
    const auto& pieces = loop_log.pieces;
    const std::uint64_t exit_at = pieces.back().last;
    const bool outcomes = warps * stmts * pieces.size() <= kMaxOutcomeCells;
    std::size_t own = 0;  // the loop's own statement among the shape's
    while (shape.statements[own] != shape.loop) ++own;
    for (const IterationPiece& piece : pieces) {
      IterationClass c;
      c.loop = shape.loop;
      c.first = piece.first;
      c.last = piece.last;
      c.merged = piece.merged;
      const Count times = piece.merged ? blocks : checked_mul(Count{c.size()}, blocks);
      c.statements = SparseCounts(stmts);
      bool others = false;
      for (std::size_t j = 0; j < shape.statements.size(); ++j) {
        c.statements.set(static_cast<std::size_t>(shape.statements[j]), scaled(piece.counts[j], times));
        if (j != own && piece.counts[j].warp_evaluations != 0) others = true;
      }
      const StatementCounts& condition = piece.counts[own];
      c.exit = !piece.merged && !others && condition.warp_evaluations != 0 && condition.taken_lanes == 0;
      if (outcomes && !piece.outcomes.empty()) {
        c.outcomes.assign(warps * stmts, WarpOutcome::NotReached);
        const std::size_t nc = shape.conditions.size();
        for (std::size_t w = 0; w < warps; ++w)
          for (std::size_t j = 0; j < nc; ++j)
            c.outcomes[w * stmts + static_cast<std::size_t>(shape.statements[shape.conditions[j]])] =
                piece.outcomes[w * nc + j];
      }
      c.definition = iteration_definition(kernel, *classes.accelerated[static_cast<std::size_t>(shape.loop)],
                                          loop_log, c, exit_at);
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace

std::string interval_definition(int d, std::uint64_t first, std::uint64_t last, std::uint64_t size) {
  const std::string n = dim_name(d);
  if (first == 0 && last + 1 == size) return "";
  if (first == last) {
    const std::string where = last + 1 == size ? " (last)" : first == 0 ? " (first)" : "";
    return n + " = " + std::to_string(first) + where;
  }
  if (first == 0) return n + " < " + std::to_string(last + 1);
  if (last + 1 == size) return n + " >= " + std::to_string(first);
  return n + " in [" + std::to_string(first) + ", " + std::to_string(last) + "]";
}

void attach_log(BlockClass& c, const ClassProgram& classes, IterationLog& log) {
  c.warps = static_cast<std::uint32_t>(classes.program.warps_per_block);
  c.outcomes = log.outcomes;
  c.iteration_classes = iteration_classes(classes, log, c.blocks);
}

ClassReplayResult one_block(const Kernel& kernel, const Launch& launch, const ReplayOptions& options) {
  ClassReplayResult r;
  static_cast<ReplayResult&>(r) = replay(kernel, launch, options);
  BlockClass c;
  const Dim3 b = *options.only_block;
  const std::uint32_t at[3] = {b.x, b.y, b.z};
  const std::uint32_t size[3] = {launch.grid.x, launch.grid.y, launch.grid.z};
  std::string definition;
  for (int d = 0; d < 3; ++d) {
    c.intervals[static_cast<std::size_t>(d)] =
        DimensionInterval{at[d], at[d], interval_definition(d, at[d], at[d], size[d])};
    const std::string& def = c.intervals[static_cast<std::size_t>(d)].definition;
    if (!def.empty()) definition += (definition.empty() ? "" : ", ") + def;
  }
  c.definition = definition.empty() ? "all blocks" : definition;
  c.blocks = 1;
  c.representative = b;
  c.statements = r.statements;
  c.iterations = r.iterations;
  r.classes.push_back(c);
  r.blocks_replayed = 1;
  return r;
}

// One class per box: its blocks' counts are its representative's times their number.
namespace {
BlockClass box_class(const ClassProgram& classes, const Box& b, BlockRun& r) {
  const LaunchPlan& program = classes.program;
  const std::size_t stmts = program.kernel.stmts.size();
  const std::uint64_t grid[3] = {program.launch.grid.x, program.launch.grid.y, program.launch.grid.z};
  const Corner rep = b.representative();
  BlockClass c;
  Count size = 1;
  std::string definition;
  for (int d = 0; d < 3; ++d) {
    DimensionInterval& in = c.intervals[static_cast<std::size_t>(d)];
    in.first = static_cast<std::uint32_t>(b.first[d]);
    in.last = static_cast<std::uint32_t>(b.last[d]);
    in.definition = interval_definition(d, b.first[d], b.last[d], grid[d]);
    size = checked_mul(size, in.size());
    if (!in.definition.empty()) definition += (definition.empty() ? "" : ", ") + in.definition;
  }
  c.definition = definition.empty() ? "all blocks" : definition;
  c.blocks = size;
  c.representative = Dim3{rep[0], rep[1], rep[2]};
  c.statements.resize(stmts);
  c.iterations.resize(stmts);
  for (std::size_t i = 0; i < stmts; ++i) {
    c.statements[i] = scaled(r.tally.statements[i], size);
    const auto& per_k = r.tally.iterations[i];
    c.iterations[i].resize(per_k.size());
    for (std::size_t k = 0; k < per_k.size(); ++k) c.iterations[i][k] = scaled(per_k[k], size);
  }
  attach_log(c, classes, r.log);
  return c;
}

// A box's memory figures: its representative's, at the residues of the box's blocks (each
// block's addresses are the representative's moved by the access's block coefficients times
// the distance between them).
void add_box_memory(const ClassProgram& classes, const Box& b, const BlockRun& r, BlockClass& c,
                    ClassReplayResult& result) {
  const Kernel& k = classes.program.kernel;
  c.accesses.assign(k.accesses.size(), AccessCounts{});
  c.flops.assign(k.stmts.size(), 0);
  result.accesses.resize(k.accesses.size());
  result.flops.resize(k.stmts.size(), 0);
  for (std::size_t a = 0; a < k.accesses.size(); ++a) {
    const CompiledAccess* ca = classes.compiled[a];
    if (ca == nullptr) continue;
    const AccessShift& sh = classes.shifts[a];
    ResidueHistogram hist = residue_histogram(sh, sh.block[0], 0, b.last[0] - b.first[0]);
    for (int d = 1; d < 3; ++d)
      hist = combine_histograms(
          hist, residue_histogram(sh, sh.block[static_cast<std::size_t>(d)], 0, b.last[d] - b.first[d]));
    c.accesses[a] = residue_totals(*ca, r.tally.accesses[a], r.tally.shifted.data() + ca->shifted_at, hist);
    result.accesses[a] += c.accesses[a];
  }
  for (std::size_t s = 0; s < k.stmts.size(); ++s) {
    c.flops[s] = checked_mul(r.tally.flops[s], c.blocks);
    result.flops[s] = checked_add(result.flops[s], c.flops[s]);
  }
}

// The extents of every block run (the corners hold each access's extremes: its offset is affine
// in the block indices within a box).
void finish_memory(const ClassProgram& classes, const std::map<Corner, BlockRun>& runs,
                   ClassReplayResult& result) {
  const Kernel& k = classes.program.kernel;
  result.memory_counted = true;
  result.extents.assign(k.bases.size(), BaseExtent{});
  result.access_faults.assign(k.accesses.size(), "");
  result.access_out_of_bounds.assign(k.accesses.size(), false);
  result.flop_faults.assign(k.stmts.size(), "");
  for (const auto& [corner, run] : runs)
    for (std::size_t a = 0; a < k.accesses.size() && a < run.tally.extents.size(); ++a)
      if (k.accesses[a].base != kNone)
        merge(result.extents[static_cast<std::size_t>(k.accesses[a].base)], run.tally.extents[a]);
}

}  // namespace

ClassReplayResult assemble(const ClassProgram& classes, const std::vector<Box>& boxes,
                           std::map<Corner, BlockRun>& runs) {
  const std::size_t stmts = classes.program.kernel.stmts.size();
  // A fault met in any run makes the memory figures unproven (which block of a box meets it
  // first, the replay's report, is not known from the corners): class_replay says why.
  const bool memory = classes.memory && !classes.memory_faulted.load();
  ClassReplayResult result;
  result.statements.resize(stmts);
  result.iterations.resize(stmts);
  for (const Box& b : boxes) {
    BlockRun& r = runs.at(b.representative());
    BlockClass c = box_class(classes, b, r);
    for (std::size_t i = 0; i < stmts; ++i) {
      result.statements[i] += c.statements[i];
      if (result.iterations[i].size() < c.iterations[i].size())
        result.iterations[i].resize(c.iterations[i].size());
      for (std::size_t k = 0; k < c.iterations[i].size(); ++k) result.iterations[i][k] += c.iterations[i][k];
    }
    result.blocks = checked_add(result.blocks, c.blocks);
    result.warps = checked_add(result.warps, checked_mul(r.tally.warps, c.blocks));
    result.warp_statement_evaluations =
        checked_add(result.warp_statement_evaluations, checked_mul(r.tally.evaluations, c.blocks));
    if (memory) add_box_memory(classes, b, r, c, result);
    result.classes.push_back(std::move(c));
  }
  if (memory) finish_memory(classes, runs, result);
  return result;
}
}  // namespace detail

const StatementCounts& SparseCounts::operator[](std::size_t id) const {
  static const StatementCounts zero;
  const auto it =
      std::lower_bound(entries_.begin(), entries_.end(), id,
                       [](const auto& entry, std::size_t wanted) { return entry.first < wanted; });
  return it != entries_.end() && it->first == id ? it->second : zero;
}

void SparseCounts::set(std::size_t id, const StatementCounts& counts) {
  if (id >= size_) throw InternalError("SparseCounts: statement " + std::to_string(id) + " out of range");
  if (entries_.empty() || entries_.back().first < id) {  // the usual case: ids in increasing order
    entries_.emplace_back(id, counts);
    return;
  }
  const auto it =
      std::lower_bound(entries_.begin(), entries_.end(), id,
                       [](const auto& entry, std::size_t wanted) { return entry.first < wanted; });
  if (it != entries_.end() && it->first == id)
    it->second = counts;
  else
    entries_.emplace(it, id, counts);
}

bool operator==(const SparseCounts& a, const SparseCounts& b) {
  return a.size_ == b.size_ && a.entries_ == b.entries_;
}

std::string loop_variable(const Kernel& kernel, StmtId loop) {
  if (loop < 0 || static_cast<std::size_t>(loop) >= kernel.stmts.size()) return "";
  const Stmt& s = kernel.stmts[static_cast<std::size_t>(loop)];
  if (s.kind != StmtKind::Loop || s.step == kNone) return "";
  const Stmt& step = kernel.stmts[static_cast<std::size_t>(s.step)];
  if (step.kind != StmtKind::Assign || step.local < 0) return "";
  return kernel.locals[static_cast<std::size_t>(step.local)].name;
}

}  // namespace warpdiv::sim::ir
