#include "analysis/lecture_source.hpp"

#include <algorithm>
#include <tuple>
#include <vector>

#include "sim/count.hpp"
#include "sim/errors.hpp"
#include "sim/ir_json.hpp"
#include "sim/ir_replay.hpp"

namespace warpdiv::analysis {

namespace ir = sim::ir;
using sim::BlockClass;
using sim::Condition;
using sim::Count;

sim::ir::Launch lecture_source_launch(const ir::Kernel& model, const sim::LaunchConfig& config) {
  const sim::Geometry g(config);
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
    const std::int64_t value = p.name == "J" ? config.rows : p.name == "K" ? config.inner
                                                                           : config.cols;
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

sim::DivergenceResult lecture_counts(const sim::LaunchConfig& config) {
  const ir::Kernel& model = lecture_model();
  const ir::Launch launch = lecture_source_launch(model, config);
  return lecture_result(model, config,
                        ir::class_replay(model, launch, {}, ir::GridLimits::Model));
}

sim::DivergenceResult lecture_result(const ir::Kernel& model, const sim::LaunchConfig& config,
                                     const ir::ClassReplayResult& counts) {
  // The four checks: the model's ifs in source order.
  std::vector<std::size_t> ifs;
  for (std::size_t id = 0; id < model.stmts.size(); ++id)
    if (model.stmts[id].kind == ir::StmtKind::If) ifs.push_back(id);
  std::sort(ifs.begin(), ifs.end(), [&](std::size_t a, std::size_t b) {
    const ir::SourceRange& ra = model.stmts[a].range;
    const ir::SourceRange& rb = model.stmts[b].range;
    return std::tie(ra.line, ra.column) < std::tie(rb.line, rb.column);
  });
  if (ifs.size() != sim::kConditionCount)
    throw InvalidInput("the lecture model must have four if statements (load_M, load_N, compute, "
                       "store); it has " + std::to_string(ifs.size()));
  const sim::Geometry g(config);
  const auto last_x = static_cast<std::uint32_t>(g.grid_x - 1);
  const auto last_y = static_cast<std::uint32_t>(g.grid_y - 1);
  sim::DivergenceResult result;
  result.config = config;
  for (const ir::BlockClass& c : counts.classes) {
    if (c.blocks == 0) continue;
    const ir::DimensionInterval& x = c.intervals[0];
    const ir::DimensionInterval& y = c.intervals[1];
    const Count x_last = x.last == last_x ? 1 : 0, y_last = y.last == last_y ? 1 : 0;
    const Count x_other = Count{x.size()} - x_last, y_other = Count{y.size()} - y_last;
    const std::pair<BlockClass, Count> shares[] = {
        {BlockClass::interior, x_other * y_other},
        {BlockClass::right_edge, x_last * y_other},
        {BlockClass::bottom_edge, x_other * y_last},
        {BlockClass::corner, x_last * y_last}};
    // Every block of a class has the class's counts / its size.
    const auto per_block = [&](Count total) {
      if (total % c.blocks != 0) throw InvalidInput("a class's counts are not a multiple of its size");
      return total / c.blocks;
    };
    const ir::StatementCounts& store = c.statements[ifs[3]];
    const bool hazard = per_block(store.taken_lanes) < per_block(store.active_lanes);
    for (const auto& [block_class, blocks] : shares) {
      if (blocks == 0) continue;
      for (int k = 0; k < sim::kConditionCount; ++k) {
        const ir::StatementCounts& s = c.statements[ifs[static_cast<std::size_t>(k)]];
        sim::ClassCounts& cell = result.at(static_cast<Condition>(k), block_class);
        cell.blocks = sim::checked_add(cell.blocks, blocks);
        cell.warps = sim::checked_add(
            cell.warps, sim::checked_mul(blocks, static_cast<Count>(g.warps_per_block)));
        cell.warp_phases = sim::checked_add(
            cell.warp_phases, sim::checked_mul(per_block(s.warp_evaluations), blocks));
        cell.divergent_warp_phases = sim::checked_add(
            cell.divergent_warp_phases, sim::checked_mul(per_block(s.divergent), blocks));
      }
      if (hazard) result.barrier_hazard_blocks = sim::checked_add(result.barrier_hazard_blocks, blocks);
    }
  }
  result.sum_all_classes();
  return result;
}

}  // namespace warpdiv::analysis
