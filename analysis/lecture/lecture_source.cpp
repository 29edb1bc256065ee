#include "analysis/lecture/lecture_source.hpp"

#include <algorithm>
#include <array>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <set>
#include <tuple>
#include <vector>

#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"
#include "sim/model/ir_json.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/engine/ir_trace.hpp"
#include "sim/session.hpp"

namespace warpdiv::analysis {

namespace ir = sim::ir;
using lecture::BlockClass;
using lecture::Condition;
using sim::Count;

sim::ir::Launch lecture_source_launch(const ir::Kernel& model, const lecture::LaunchConfig& config) {
  const lecture::Geometry g(config);
  ir::Launch launch;
  const auto dim = [](std::int64_t v) { return static_cast<std::uint32_t>(v); };
  launch.grid = {dim(g.grid_x), dim(g.grid_y), 1};
  launch.block = {dim(config.tile), dim(config.tile), 1};
  launch.warp_size = config.warp_size;
  for (const ir::Parameter& p : model.parameters) {
    if (!p.scalar) {
      launch.arguments.emplace_back();
      continue;
    }
    const std::int64_t value = p.name == "J" ? config.rows : p.name == "K" ? config.inner : config.cols;
    launch.arguments.push_back(ir::Value::of(p.type, value));
  }
  return launch;
}

namespace detail {
extern const char* const kLectureModelJson;
}

const ir::Kernel& lecture_model() {
  static const ir::Kernel model = ir::kernel_from_json(detail::kLectureModelJson);
  return model;
}

namespace {

// The class engine's counts of the lecture's launch (the model's grid limits: y past 65,535).
ir::ClassReplayResult lecture_classes(const lecture::LaunchConfig& config, unsigned threads) {
  const ir::Kernel& model = lecture_model();
  sim::CountRequest request;
  request.engine = sim::Engine::exact;
  request.options.threads = threads;
  request.options.grid_limits = ir::GridLimits::Model;
  request.memory_replay_budget = 0;  // the lecture's table has no memory figures
  return sim::class_engine_result(sim::count_launch(model, lecture_source_launch(model, config), request));
}

}  // namespace

lecture::DivergenceResult lecture_counts(const lecture::LaunchConfig& config, unsigned threads) {
  return lecture_result(lecture_model(), config, lecture_classes(config, threads));
}

namespace {

// The four checks: the model's ifs in source order (load_M, load_N, compute, store).
std::array<ir::StmtId, lecture::kConditionCount> lecture_ifs(const ir::Kernel& model) {
  std::vector<ir::StmtId> ifs;
  for (std::size_t id = 0; id < model.stmts.size(); ++id)
    if (model.stmts[id].kind == ir::StmtKind::If) ifs.push_back(static_cast<ir::StmtId>(id));
  std::sort(ifs.begin(), ifs.end(), [&](ir::StmtId a, ir::StmtId b) {
    const ir::SourceRange& ra = model.stmts[static_cast<std::size_t>(a)].range;
    const ir::SourceRange& rb = model.stmts[static_cast<std::size_t>(b)].range;
    return std::tie(ra.line, ra.column) < std::tie(rb.line, rb.column);
  });
  if (ifs.size() != lecture::kConditionCount)
    throw InternalError(
        "the lecture model must have four if statements (load_M, load_N, compute, "
        "store); it has " +
        std::to_string(ifs.size()));
  return {ifs[0], ifs[1], ifs[2], ifs[3]};
}

}  // namespace

lecture::DivergenceResult lecture_result(const ir::Kernel& model, const lecture::LaunchConfig& config,
                                         const ir::ClassReplayResult& counts) {
  const auto ifs = lecture_ifs(model);
  const lecture::Geometry g(config);
  const auto last_x = static_cast<std::uint32_t>(g.grid_x - 1);
  const auto last_y = static_cast<std::uint32_t>(g.grid_y - 1);
  lecture::DivergenceResult result;
  result.config = config;
  for (const ir::BlockClass& c : counts.classes) {
    if (c.blocks == 0) continue;
    const ir::DimensionInterval& x = c.intervals[0];
    const ir::DimensionInterval& y = c.intervals[1];
    const Count x_last = x.last == last_x ? 1 : 0, y_last = y.last == last_y ? 1 : 0;
    const Count x_other = Count{x.size()} - x_last, y_other = Count{y.size()} - y_last;
    const std::pair<BlockClass, Count> shares[] = {{BlockClass::interior, x_other * y_other},
                                                   {BlockClass::right_edge, x_last * y_other},
                                                   {BlockClass::bottom_edge, x_other * y_last},
                                                   {BlockClass::corner, x_last * y_last}};
    // Every block of a class has the class's counts / its size.
    const auto per_block = [&](Count total) {
      if (total % c.blocks != 0) throw InternalError("a class's counts are not a multiple of its size");
      return total / c.blocks;
    };
    const ir::StatementCounts& store = c.statements[static_cast<std::size_t>(ifs[3])];
    const bool hazard = per_block(store.taken_lanes) < per_block(store.active_lanes);
    for (const auto& [block_class, blocks] : shares) {
      if (blocks == 0) continue;
      for (int k = 0; k < lecture::kConditionCount; ++k) {
        const ir::StatementCounts& s =
            c.statements[static_cast<std::size_t>(ifs[static_cast<std::size_t>(k)])];
        lecture::ClassCounts& cell = result.at(static_cast<Condition>(k), block_class);
        cell.blocks = sim::checked_add(cell.blocks, blocks);
        cell.warps =
            sim::checked_add(cell.warps, sim::checked_mul(blocks, static_cast<Count>(g.warps_per_block)));
        cell.warp_phases =
            sim::checked_add(cell.warp_phases, sim::checked_mul(per_block(s.warp_evaluations), blocks));
        cell.divergent_warp_phases =
            sim::checked_add(cell.divergent_warp_phases, sim::checked_mul(per_block(s.divergent), blocks));
      }
      if (hazard) result.barrier_hazard_blocks = sim::checked_add(result.barrier_hazard_blocks, blocks);
    }
  }
  result.sum_all_classes();
  return result;
}

namespace {

ir::ReplayOptions lecture_options(ir::ReplayOptions options) {
  if (options.only_block || options.only_warp || options.only_blocks || options.by_iteration)
    throw std::logic_error(
        "lecture replay: only_block, only_warp, only_blocks and by_iteration "
        "must be unset");
  options.grid_limits = ir::GridLimits::Model;
  return options;
}

// Blocks in which some warp reaches the store's guard with lanes for which it is false.
class HazardObserver : public ir::EvaluationObserver {
 public:
  explicit HazardObserver(ir::StmtId store) : store_(store) {}
  void evaluation(const ir::Dim3& block, std::uint32_t, ir::StmtId statement, std::uint64_t active,
                  std::uint64_t taken) override {
    if (statement != store_ || taken == active) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    blocks_.insert({block.x, block.y, block.z});
  }
  sim::Count blocks() const { return blocks_.size(); }

 private:
  ir::StmtId store_;
  std::mutex mutex_;
  std::set<std::array<std::uint32_t, 3>> blocks_;
};

}  // namespace

sim::Count lecture_replay_cost(const lecture::LaunchConfig& config) {
  // The class engine counts the work exactly (a sampled estimate would replay whole blocks of
  // 2^26 phases at the largest sizes).
  return lecture_classes(config, 0).warp_statement_evaluations;
}

lecture::DivergenceResult lecture_replay(const lecture::LaunchConfig& config,
                                         const ir::ReplayOptions& options) {
  const ir::Kernel& model = lecture_model();
  const ir::Launch launch = lecture_source_launch(model, config);
  ir::ReplayOptions run = lecture_options(options);
  const sim::Count cost = lecture_replay_cost(config);
  if (cost > run.max_evaluations)
    throw InvalidInput(Diag::evaluation_budget, "the replay would make " + sim::to_decimal(cost) +
                                                    " warp-statement evaluations, above its limit of " +
                                                    sim::to_decimal(run.max_evaluations));
  const auto ifs = lecture_ifs(model);
  HazardObserver hazard(ifs[3]);
  run.observer = &hazard;
  const lecture::Geometry g(config);
  const auto last_x = static_cast<std::uint32_t>(g.grid_x - 1);
  const auto last_y = static_cast<std::uint32_t>(g.grid_y - 1);
  // Columns 0 .. last-1 and the last one; rows likewise (the "other" range is empty for one).
  struct Range {
    BlockClass block_class;
    bool last_column, last_row;
  };
  const Range ranges[] = {{BlockClass::interior, false, false},
                          {BlockClass::right_edge, true, false},
                          {BlockClass::bottom_edge, false, true},
                          {BlockClass::corner, true, true}};
  lecture::DivergenceResult result;
  result.config = config;
  for (const Range& r : ranges) {
    if ((!r.last_column && last_x == 0) || (!r.last_row && last_y == 0)) continue;
    ir::BlockRange blocks;
    blocks.first = {r.last_column ? last_x : 0, r.last_row ? last_y : 0, 0};
    blocks.last = {r.last_column ? last_x : last_x - 1, r.last_row ? last_y : last_y - 1, 0};
    run.only_blocks = blocks;
    run.memory = false;  // the lecture's report has no memory figures
    sim::CountRequest request;
    request.engine = sim::Engine::replay;
    request.options = run;
    const ir::ReplayResult counts = sim::count_launch(model, launch, request).result;
    for (int k = 0; k < lecture::kConditionCount; ++k) {
      const ir::StatementCounts& s =
          counts.statements[static_cast<std::size_t>(ifs[static_cast<std::size_t>(k)])];
      lecture::ClassCounts& cell = result.at(static_cast<Condition>(k), r.block_class);
      cell.blocks = counts.blocks;
      cell.warps = counts.warps;
      cell.warp_phases = s.warp_evaluations;
      cell.divergent_warp_phases = s.divergent;
    }
  }
  result.barrier_hazard_blocks = hazard.blocks();
  result.sum_all_classes();
  return result;
}

std::string lecture_table_difference(const lecture::DivergenceResult& a, const std::string& a_name,
                                     const lecture::DivergenceResult& b, const std::string& b_name) {
  const auto differs = [&](const std::string& where, const char* field, Count x, Count y) {
    return x == y ? std::string()
                  : where + ": " + field + " is " + sim::to_decimal(x) + " by " + a_name + ", " +
                        sim::to_decimal(y) + " by " + b_name;
  };
  const std::pair<const char*, Count lecture::ClassCounts::*> fields[] = {
      {"blocks", &lecture::ClassCounts::blocks},
      {"warps", &lecture::ClassCounts::warps},
      {"warp_phases", &lecture::ClassCounts::warp_phases},
      {"divergent_warp_phases", &lecture::ClassCounts::divergent_warp_phases}};
  for (const Condition k : lecture::kConditions)
    for (const BlockClass c : lecture::kBlockClasses)
      for (const auto& [field, member] : fields)
        if (std::string d = differs(lecture::name(k) + ", " + lecture::name(c), field, a.at(k, c).*member,
                                    b.at(k, c).*member);
            !d.empty())
          return d;
  return differs("the barrier hazard", "blocks", a.barrier_hazard_blocks, b.barrier_hazard_blocks);
}

lecture::DivergenceResult lecture_all_engines(const lecture::LaunchConfig& config, std::string& note,
                                              const ir::ReplayOptions& options) {
  const lecture::DivergenceResult classes = lecture_counts(config);
  lecture::DivergenceResult replay = lecture_replay(config, options);
  const std::string d = lecture_table_difference(classes, "the class engine", replay, "the replay");
  if (!d.empty()) throw Mismatch("the engines disagree: " + d);
  note = "all 2 engines agree (the class engine, the replay)";
  return replay;
}

lecture::DivergenceResult lecture_table(const ir::Kernel& model, const lecture::LaunchConfig& config,
                                        const ir::WarpTrace& trace) {
  const ir::Launch launch = lecture_source_launch(model, config);
  const auto ifs = lecture_ifs(model);
  const lecture::Geometry g(config);
  const std::uint64_t warps_per_block = ir::warps_per_block(launch);
  if (trace.warps() != launch.grid.volume() * warps_per_block || trace.offsets.size() != trace.warps() + 1)
    throw std::invalid_argument("lecture_table: the trace does not have the launch's warps");
  lecture::DivergenceResult result;
  result.config = config;
  for (std::uint64_t w = 0; w < trace.warps(); w += warps_per_block) {
    ir::Dim3 block;
    std::uint32_t first_warp = 0;
    ir::split_global_warp(launch, w, block, first_warp);
    const BlockClass block_class = lecture::classify_block(g, block.x, block.y);
    bool hazard = false;
    for (int k = 0; k < lecture::kConditionCount; ++k) {
      lecture::ClassCounts& cell = result.at(static_cast<Condition>(k), block_class);
      cell.blocks += 1;
      cell.warps += warps_per_block;
    }
    for (std::uint64_t v = w; v < w + warps_per_block; ++v) {
      const std::uint64_t end = trace.offsets[v] + std::min(trace.counts[v], trace.capacity(v));
      for (std::uint64_t e = trace.offsets[v]; e < end; ++e) {
        const ir::WarpEvaluation& evaluation = trace.evaluations[e];
        const auto k =
            static_cast<std::size_t>(std::find(ifs.begin(), ifs.end(), evaluation.statement) - ifs.begin());
        if (k == ifs.size()) continue;
        lecture::ClassCounts& cell = result.at(static_cast<Condition>(k), block_class);
        cell.warp_phases += 1;
        if (evaluation.taken != 0 && evaluation.taken != evaluation.active) cell.divergent_warp_phases += 1;
        if (static_cast<Condition>(k) == Condition::store && evaluation.taken != evaluation.active)
          hazard = true;
      }
    }
    if (hazard) result.barrier_hazard_blocks += 1;
  }
  result.sum_all_classes();
  return result;
}

namespace {

lecture::WarpOutcome map_outcome(ir::WarpOutcome o) {
  switch (o) {
    case ir::WarpOutcome::AllTrue:
      return lecture::WarpOutcome::uniform_true;
    case ir::WarpOutcome::AllFalse:
      return lecture::WarpOutcome::uniform_false;
    case ir::WarpOutcome::Divergent:
      return lecture::WarpOutcome::divergent;
    case ir::WarpOutcome::NotReached:
    case ir::WarpOutcome::Mixed:
      break;
  }
  throw std::logic_error(
      "lecture maps: a warp of a representative block did not evaluate a check "
      "alike in every phase of a column");
}

const ir::BlockClass& class_of(const ir::ClassReplayResult& r, std::int64_t bx, std::int64_t by) {
  for (const ir::BlockClass& c : r.classes)
    if (c.intervals[0].first <= bx && bx <= c.intervals[0].last && c.intervals[1].first <= by &&
        by <= c.intervals[1].last)
      return c;
  throw std::logic_error("lecture maps: no class holds block (" + std::to_string(bx) + ", " +
                         std::to_string(by) + ")");
}

}  // namespace

std::vector<lecture::WarpPhaseMap> lecture_warp_maps(const lecture::LaunchConfig& config,
                                                     const std::vector<lecture::PhaseColumn>& columns) {
  const ir::Kernel& model = lecture_model();
  const ir::ClassReplayResult r = lecture_classes(config, 0);
  const auto ifs = lecture_ifs(model);
  const std::size_t n = model.stmts.size();
  const lecture::Geometry g(config);
  std::vector<lecture::WarpPhaseMap> maps;
  for (const lecture::RepresentativeBlock& block : lecture::representative_blocks(g)) {
    const ir::BlockClass& c = class_of(r, block.bx, block.by);
    if (c.outcomes.empty() || c.warps != static_cast<std::uint32_t>(g.warps_per_block))
      throw std::logic_error("lecture maps: the class engine kept no outcomes per warp");
    for (const Condition k : lecture::kConditions) {
      const auto id = static_cast<std::size_t>(ifs[static_cast<std::size_t>(k)]);
      lecture::WarpPhaseMap map;
      map.condition = k;
      map.block = block;
      map.warps = g.warps_per_block;
      map.columns = k == Condition::store ? std::vector<lecture::PhaseColumn>{{0, 0, true}} : columns;
      // The iteration classes of the phase loop (the loop around the check) in this class.
      std::vector<const ir::IterationClass*> phases;
      for (const ir::IterationClass& ic : c.iteration_classes)
        if (!ic.exit && ic.statements[id].warp_evaluations != 0) phases.push_back(&ic);
      for (std::size_t w = 0; w < static_cast<std::size_t>(map.warps); ++w) {
        for (const lecture::PhaseColumn& column : map.columns) {
          if (k == Condition::store) {
            map.outcomes.push_back(map_outcome(c.outcomes[w * n + id]));
            continue;
          }
          std::optional<ir::WarpOutcome> outcome;
          for (const ir::IterationClass* ic : phases) {
            if (ic->last < static_cast<std::uint64_t>(column.first) ||
                ic->first > static_cast<std::uint64_t>(column.last))
              continue;
            if (ic->outcomes.empty())
              throw std::logic_error("lecture maps: the class engine kept no outcomes per warp");
            const ir::WarpOutcome o = ic->outcomes[w * n + id];
            if (outcome && *outcome != o)
              outcome = ir::WarpOutcome::Mixed;
            else
              outcome = o;
          }
          map.outcomes.push_back(map_outcome(outcome.value_or(ir::WarpOutcome::NotReached)));
        }
      }
      maps.push_back(std::move(map));
    }
  }
  return maps;
}

}  // namespace warpdiv::analysis
