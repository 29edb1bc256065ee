#include "sim/memory/shared_races.hpp"

#include <algorithm>
#include <memory>

#include "sim/engine/ir_engine.hpp"
#include "sim/engine/launch_plan.hpp"
#include "sim/memory/shared_phases.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::sim::ir {

namespace {

// Whether `e` has one value in every thread: constants and scalar parameters, and what is
// computed from them alone.
bool same_in_every_thread(const Kernel& kernel, ExprId e) {
  const Expr& x = kernel.exprs[static_cast<std::size_t>(e)];
  switch (x.kind) {
    case ExprKind::Constant:
    case ExprKind::Param:
      return true;
    case ExprKind::Cast:
    case ExprKind::Unary:
    case ExprKind::Binary:
    case ExprKind::Select:
    case ExprKind::Intrinsic:
      for (const ExprId o : x.operands)
        if (o != kNone && !same_in_every_thread(kernel, o)) return false;
      return true;
    default:
      return false;
  }
}

// What the check's run keeps of each access: nothing (its address or lanes not known), the
// access with its value, or a write whose value it does not hold.
enum class Kept : std::uint8_t { Absent, Held, Unheld };

// Whether some pair of `pairs` may race in the check's run: both accesses kept, of an array
// followed by address (`by_address` [shared_array], empty: any), and not two stores of which one
// has no value (stores of values not held are not named), nor one store of a value every thread
// has (warps store the same bytes).
bool may_race(const Kernel& kernel, const std::vector<Kept>& kept,
              const std::vector<std::uint8_t>& by_address,
              const std::vector<std::pair<std::int32_t, std::int32_t>>& pairs) {
  for (const auto& [x, y] : pairs) {
    const MemoryAccess& a = kernel.accesses[static_cast<std::size_t>(x)];
    const MemoryAccess& b = kernel.accesses[static_cast<std::size_t>(y)];
    const Kept p = kept[static_cast<std::size_t>(x)], q = kept[static_cast<std::size_t>(y)];
    if (p == Kept::Absent || q == Kept::Absent) continue;
    const std::int32_t array = shared_array(kernel, a.base);
    if (!by_address.empty() && (array == kNone || !by_address[static_cast<std::size_t>(array)])) continue;
    if (x == y && a.value != kNone && same_in_every_thread(kernel, a.value)) continue;
    const bool stores = a.kind == AccessKind::Store && b.kind == AccessKind::Store;
    if (!stores || (p == Kept::Held && q == Kept::Held)) return true;
  }
  return false;
}

// Before any plan: what a run may keep, taking every load the launch may compute as computed
// (more addresses placed and more values held than the run has, never fewer).
std::vector<Kept> may_keep(const Kernel& kernel, const Launch& launch) {
  const std::vector<bool> values = buffers_with_values(kernel, launch);
  const std::vector<ExprId> origins = opaque_origins(kernel, computed_loads(kernel, &values));
  const auto known = [&](ExprId e) { return e == kNone || origins[static_cast<std::size_t>(e)] == kNone; };
  std::vector<Kept> kept(kernel.accesses.size(), Kept::Absent);
  for (std::size_t i = 0; i < kernel.accesses.size(); ++i) {
    const MemoryAccess& a = kernel.accesses[i];
    if (a.space != AddressSpace::Shared || a.offset == kNone || !known(a.offset) || !known(a.guard)) continue;
    const bool held = a.kind == AccessKind::Load || (a.value != kNone && known(a.value) && known(a.compare));
    kept[i] = held ? Kept::Held : Kept::Unheld;
  }
  return kept;
}

// What the plan's run keeps, and the arrays it follows by address (a write whose value it does
// not hold).
std::vector<Kept> kept_by(const Kernel& kernel, const detail::LaunchPlan& plan,
                          std::vector<std::uint8_t>& by_address) {
  std::vector<Kept> kept(kernel.accesses.size(), Kept::Absent);
  by_address.assign(kernel.bases.size() + 1, 0);
  for (const detail::StatementMemory& m : plan.memory)
    for (const detail::KeptAccess& a : m.kept) {
      if (a.global || a.local) continue;
      const bool unheld = a.kind != AccessKind::Load && a.value == kNone;
      kept[static_cast<std::size_t>(a.id)] = unheld ? Kept::Unheld : Kept::Held;
      const std::int32_t array = shared_array(kernel, kernel.accesses[static_cast<std::size_t>(a.id)].base);
      if (unheld && array != kNone) by_address[static_cast<std::size_t>(array)] = 1;
    }
  return kept;
}

// The arrays followed by address, named ("'s'", "'s' and 't'", "the extern shared arrays").
std::string array_names(const Kernel& kernel, const std::vector<std::uint8_t>& by_address) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < by_address.size(); ++i)
    if (by_address[i] != 0)
      names.push_back(i < kernel.bases.size() ? "'" + kernel.bases[i].name + "'"
                                              : "the extern shared arrays");
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

std::string block_name(const Dim3& b) {
  return "(" + std::to_string(b.x) + ", " + std::to_string(b.y) + ", " + std::to_string(b.z) + ")";
}

}  // namespace

std::string check_shared_addresses(const Kernel& kernel, const Launch& launch, const ReplayOptions& options,
                                   const BlockRange& range) {
  // Only accesses that may run in one phase can race (their addresses aside).
  const std::vector<std::pair<std::int32_t, std::int32_t>> pairs = concurrent_shared_conflicts(kernel);
  if (pairs.empty() || !may_race(kernel, may_keep(kernel, launch), {}, pairs)) return "";
  detail::PlanOptions plan_options;
  plan_options.memory = false;
  plan_options.shared_addresses = true;
  const detail::LaunchPlan plan(std::make_shared<const Kernel>(kernel), launch, plan_options);
  // Only arrays followed by address: one the run follows by value is checked there, in every block.
  std::vector<std::uint8_t> by_address;
  if (!plan.shared_values) return "";
  const std::vector<Kept> kept = kept_by(kernel, plan, by_address);
  if (!may_race(kernel, kept, by_address, pairs)) return "";
  ReplayOptions quiet;  // no observers, no counts
  quiet.stop = options.stop;
  quiet.memory = false;
  detail::RunContext run = detail::run_context(plan, launch, quiet);
  // Each warp runs on a machine of its own, which counts its own evaluations: a share each.
  const std::uint64_t budget = options.max_evaluations > Count{kSharedRaceEvaluations}
                                   ? kSharedRaceEvaluations
                                   : static_cast<std::uint64_t>(options.max_evaluations);
  run.evaluation_cap = std::max<std::uint64_t>(1, budget / static_cast<std::uint64_t>(plan.warps_per_block));
  const bool one = range.first == range.last;
  std::vector<std::string> stopped;  // the blocks the budget stopped
  for (const Dim3& b : one ? std::vector<Dim3>{range.first} : std::vector<Dim3>{range.first, range.last}) {
    detail::WarpMachine machine(plan, run);  // a fresh one: a stopped block leaves its state
    detail::Tally tally;
    tally.statements.resize(kernel.stmts.size());
    tally.iterations.resize(kernel.stmts.size());
    try {
      machine.begin_block(b.x, b.y, b.z);
      machine.run_warps(tally, std::nullopt);
      machine.end_block(tally);
    } catch (const InvalidInput& e) {
      if (e.diag() == Diag::shared_race) throw;
      if (e.diag() != Diag::evaluation_budget) return "";
      stopped.push_back(block_name(b));
    }
  }
  if (stopped.empty()) return "";
  return "shared-memory races on " + array_names(kernel, by_address) +
         " (followed by address: the values stored are not known) were checked in block " +
         (stopped.size() == 1 ? stopped[0] : stopped[0] + " and block " + stopped[1]) +
         " only until the check's budget of " + to_decimal(Count{budget}) +
         " warp-statement evaluations a block stopped it; a race after that is not named";
}

}  // namespace warpdiv::sim::ir
