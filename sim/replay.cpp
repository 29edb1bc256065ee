#include "sim/replay.hpp"

#include "sim/conditions.hpp"
#include "sim/errors.hpp"

namespace warpdiv::sim {

Count warp_phases_per_condition(const Geometry& g) {
  return checked_mul(checked_mul(checked_mul(static_cast<Count>(g.grid_x), g.grid_y), g.phases),
                     static_cast<Count>(g.warps_per_block));
}

DivergenceResult replay(const LaunchConfig& config, const ReplayOptions& options) {
  const Geometry g(config);
  const Count total = warp_phases_per_condition(g);
  if (total > options.max_warp_phases) {
    throw InvalidInput("the replay engine would visit " + to_decimal(total) +
                       " warp-phases, above its limit of " + to_decimal(options.max_warp_phases) +
                       "; use smaller sizes or the exact engine");
  }
  const WarpLaneTable lanes(g);
  DivergenceResult result;
  result.config = config;
  for (std::int64_t by = 0; by < g.grid_y; ++by) {
    for (std::int64_t bx = 0; bx < g.grid_x; ++bx) {
      const BlockClass block_class = classify_block(g, bx, by);
      bool barrier_hazard = false;
      for (Condition c : kConditions) {
        ClassCounts& cell = result.at(c, block_class);
        cell.blocks += 1;
        cell.warps += static_cast<Count>(g.warps_per_block);
      }
      for (int w = 0; w < g.warps_per_block; ++w) {
        const LaneMask existing = lanes.existing(w);
        // store: evaluated once per warp, after the tile loop.
        const LaneMask store = lanes.condition_mask(Condition::store, bx, by, 0, w);
        ClassCounts& store_cell = result.at(Condition::store, block_class);
        store_cell.warp_phases += 1;
        store_cell.divergent_warp_phases += is_divergent(store, existing) ? 1 : 0;
        if (store != existing) barrier_hazard = true;
        for (std::int64_t p = 0; p < g.phases; ++p) {
          for (Condition c : {Condition::load_M, Condition::load_N, Condition::compute}) {
            ClassCounts& cell = result.at(c, block_class);
            cell.warp_phases += 1;
            cell.divergent_warp_phases +=
                is_divergent(lanes.condition_mask(c, bx, by, p, w), existing) ? 1 : 0;
          }
        }
      }
      if (barrier_hazard) result.barrier_hazard_blocks += 1;
    }
  }
  result.sum_all_classes();
  return result;
}

}  // namespace warpdiv::sim
