#include "sim/memory/shared_races.hpp"

#include <algorithm>
#include <memory>

#include "sim/engine/ir_engine.hpp"
#include "sim/engine/launch_plan.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::sim::ir {

void check_shared_addresses(const Kernel& kernel, const Launch& launch, const ReplayOptions& options,
                            const BlockRange& range) {
  const bool any = std::any_of(kernel.accesses.begin(), kernel.accesses.end(), [&](const MemoryAccess& a) {
    return a.space == AddressSpace::Shared && a.base != kNone &&
           kernel.bases[static_cast<std::size_t>(a.base)].parameter == kNone;
  });
  if (!any) return;
  detail::PlanOptions plan_options;
  plan_options.memory = false;
  plan_options.shared_addresses = true;
  const detail::LaunchPlan plan(std::make_shared<const Kernel>(kernel), launch, plan_options);
  // Only arrays followed by address: one the run follows by value is checked there, in every block.
  bool by_address = false;
  for (const detail::StatementMemory& m : plan.memory)
    for (const detail::KeptAccess& a : m.kept)
      by_address = by_address || (!a.global && !a.local && a.kind != AccessKind::Load && a.value == kNone);
  if (!plan.shared_values || !by_address) return;
  ReplayOptions quiet;  // no observers, no counts
  quiet.stop = options.stop;
  quiet.memory = false;
  detail::RunContext run = detail::run_context(plan, launch, quiet);
  // Each warp runs on a machine of its own, which counts its own evaluations: a share each.
  const std::uint64_t budget = options.max_evaluations > Count{kSharedRaceEvaluations}
                                   ? kSharedRaceEvaluations
                                   : static_cast<std::uint64_t>(options.max_evaluations);
  run.evaluation_cap = std::max<std::uint64_t>(1, budget / static_cast<std::uint64_t>(plan.warps_per_block));
  detail::WarpMachine machine(plan, run);
  detail::Tally tally;
  tally.statements.resize(kernel.stmts.size());
  tally.iterations.resize(kernel.stmts.size());
  const bool one = range.first == range.last;
  for (const Dim3& b : one ? std::vector<Dim3>{range.first} : std::vector<Dim3>{range.first, range.last}) {
    try {
      machine.begin_block(b.x, b.y, b.z);
      machine.run_warps(tally, std::nullopt);
      machine.end_block(tally);
    } catch (const InvalidInput& e) {
      if (e.diag() == Diag::shared_race) throw;
      return;
    }
  }
}

}  // namespace warpdiv::sim::ir
