#include "analysis/lecture/divergence.hpp"

namespace warpdiv::lecture {

using sim::checked_add;
using sim::to_double;

bool operator==(const ClassCounts& a, const ClassCounts& b) {
  return a.blocks == b.blocks && a.warps == b.warps && a.warp_phases == b.warp_phases &&
         a.divergent_warp_phases == b.divergent_warp_phases;
}

void DivergenceResult::sum_all_classes() {
  for (Condition c : kConditions) {
    ClassCounts total;
    for (BlockClass k : kDisjointBlockClasses) {
      const ClassCounts& part = at(c, k);
      total.blocks = checked_add(total.blocks, part.blocks);
      total.warps = checked_add(total.warps, part.warps);
      total.warp_phases = checked_add(total.warp_phases, part.warp_phases);
      total.divergent_warp_phases = checked_add(total.divergent_warp_phases, part.divergent_warp_phases);
    }
    at(c, BlockClass::all) = total;
  }
}

double DivergenceResult::divergent_fraction(Condition condition, BlockClass block_class) const {
  const ClassCounts& cell = at(condition, block_class);
  if (cell.warp_phases == 0) return 0.0;
  return to_double(cell.divergent_warp_phases) / to_double(cell.warp_phases);
}

bool operator==(const DivergenceResult& a, const DivergenceResult& b) {
  return a.config == b.config && a.table == b.table && a.barrier_hazard_blocks == b.barrier_hazard_blocks;
}

}  // namespace warpdiv::lecture
