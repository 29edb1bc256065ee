#include "sim/session.hpp"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::sim {

NativeMode native_mode_from_environment() {
  const char* native = std::getenv("WARPDIV_NATIVE");
  if (native == nullptr) return NativeMode::automatic;
  const std::string value = native;
  if (value.empty() || value == "auto") return NativeMode::automatic;
  if (value == "off") return NativeMode::off;
  throw InvalidInput(
      Diag::environment_value,
      "WARPDIV_NATIVE must be auto or off, or empty or unset for auto (got " + quote_value(value) + ")");
}

namespace {

// The replay's options: the request's, with the native decision made here.
ir::ReplayOptions replay_options(const CountRequest& request, bool native_always) {
  ir::ReplayOptions options = request.options;
  const NativeMode mode = request.native ? *request.native : native_mode_from_environment();
  options.native = mode == NativeMode::off ? ir::NativeReplay::Off
                   : native_always         ? ir::NativeReplay::Always
                                           : ir::NativeReplay::Auto;
  options.native_min_evaluations = request.native_min_evaluations;
  return options;
}

bool has_memory_work(const ir::Kernel& kernel) {
  if (!kernel.accesses.empty()) return true;
  return std::any_of(kernel.stmts.begin(), kernel.stmts.end(),
                     [](const ir::Stmt& s) { return !s.flops.empty(); });
}

// Whether some access's lanes or address, or the lanes of some floating-point operations, depend
// on loads whose values the launch gives (--data): the replay computes them, the class engine,
// which reads no memory, leaves them not counted.
bool memory_follows_given_loads(const ir::Kernel& kernel, const ir::Launch& launch) {
  const std::vector<bool> values = ir::buffers_with_values(kernel, launch);
  const std::vector<bool> loaded = ir::computed_loads(kernel, &values);
  if (std::none_of(loaded.begin(), loaded.end(), [](bool b) { return b; })) return false;
  const std::vector<ir::ExprId> unknown = ir::opaque_origins(kernel),
                                given = ir::opaque_origins(kernel, loaded);
  const auto follows = [&](ir::ExprId e) {
    return e != ir::kNone && unknown[static_cast<std::size_t>(e)] != ir::kNone &&
           given[static_cast<std::size_t>(e)] == ir::kNone;
  };
  for (const ir::MemoryAccess& a : kernel.accesses)
    if (follows(a.offset) || follows(a.guard)) return true;
  for (const ir::Stmt& s : kernel.stmts)
    for (const ir::FloatOps& f : s.flops)
      if (follows(f.guard)) return true;
  return false;
}

// Adds the memory figures of a class-engine count that lacks them by a replay within the budget
// (else memory_note says why not).
void add_memory_from_replay(const ir::Kernel& kernel, const ir::Launch& launch, const CountRequest& request,
                            EngineCounts& counts) {
  if (counts.result.memory_counted || !has_memory_work(kernel) || request.memory_replay_budget == 0) return;
  ir::ReplayOptions memory = replay_options(request, false);
  memory.by_iteration = false;
  memory.blocks_done = nullptr;
  memory.observer = nullptr;
  memory.max_evaluations = request.memory_replay_budget;
  // The class engine counted every evaluation the replay would make: no sample needed.
  const Count evaluations = counts.result.warp_statement_evaluations;
  if (counts.class_memory_unproven.empty()) counts.class_memory_unproven = "not asked to";
  if (evaluations > request.memory_replay_budget) {
    counts.memory_note = "the class engine cannot prove them: " + counts.class_memory_unproven +
                         "; replaying this launch for them would take " + to_decimal(evaluations) +
                         " warp-statement evaluations, above " + to_decimal(request.memory_replay_budget) +
                         ": use --engine replay for them, or a smaller launch";
    return;
  }
  const ir::ReplayResult r = ir::replay(kernel, launch, memory);
  counts.result.memory_counted = true;
  counts.result.accesses = r.accesses;
  counts.result.flops = r.flops;
  counts.result.access_faults = r.access_faults;
  counts.result.access_out_of_bounds = r.access_out_of_bounds;
  counts.result.flop_faults = r.flop_faults;
  counts.result.extents = r.extents;
  counts.memory_line = "Memory figures counted by the replay engine (the class engine cannot prove them: " +
                       counts.class_memory_unproven + ").";
}

// The class engine's counts, or why it cannot count this launch.
std::optional<ir::ClassRefusal> count_by_classes(const ir::Kernel& kernel, const ir::Launch& launch,
                                                 const CountRequest& request, EngineCounts& counts) {
  const ir::ReplayOptions options = replay_options(request, false);
  const ir::ClassPlan plan = ir::plan_classes(kernel, launch, options.grid_limits);
  if (!plan.ok()) return plan.refusal;
  try {
    ir::ClassReplayResult r = ir::class_replay(kernel, launch, plan, options);
    counts.classes = std::move(r.classes);
    counts.blocks_replayed = r.blocks_replayed;
    counts.warps_replayed = r.warps_replayed;
    counts.engine_line =
        "Counted by the class engine: " + counted(counts.classes.size(), "block class", "block classes") +
        ", " + counted(r.blocks_replayed, "block") + " replayed.";
    counts.class_memory_unproven = r.memory_unproven;
    counts.class_memory_out_of_bounds = r.memory_out_of_bounds;
    counts.result = std::move(static_cast<ir::ReplayResult&>(r));
    if (counts.result.memory_counted && memory_follows_given_loads(kernel, launch)) {
      counts.result.memory_counted = false;
      counts.class_memory_unproven = "the lanes or addresses of some accesses depend on memory --data gives";
    }
  } catch (const ir::ClassesUnproven& e) {
    if (request.engine == Engine::exact) throw;
    return e.refusal();
  }
  add_memory_from_replay(kernel, launch, request, counts);
  // Every block is counted: the progress bar ends at 100% as after a replay.
  if (options.blocks_done) options.blocks_done->store(options.only_block ? 1 : launch.grid.volume());
  return std::nullopt;
}

void count_by_replay(const ir::Kernel& kernel, const ir::Launch& launch, const CountRequest& request,
                     EngineCounts& counts) {
  counts.result = ir::replay(kernel, launch, replay_options(request, request.engine == Engine::native));
  if (request.engine == Engine::native && !counts.result.native)
    throw InvalidInput(
        Diag::native_unavailable,
        "the native replay cannot count this launch: " +
            std::string(replay_options(request, true).native == ir::NativeReplay::Off ? "WARPDIV_NATIVE=off"
                        : !counts.result.native_hand_over.empty()
                            ? "native code handed it over (" + counts.result.native_hand_over + ")"
                            : "no native code was available for it (the plugin is missing, or the "
                              "launch is outside its scope)") +
            "; use --engine replay");
  counts.engine_line = std::string("Counted by the replay engine: every warp of every block") +
                       (counts.result.native ? ", as native code." : ".");
}

EngineCounts count_every_engine(const ir::Kernel& kernel, const ir::Launch& launch,
                                const CountRequest& request);

}  // namespace

EngineCounts count_launch(const ir::Kernel& kernel, const ir::Launch& launch, const CountRequest& request) {
  if (request.engine == Engine::all) return count_every_engine(kernel, launch, request);
  EngineCounts counts;
  if (request.engine == Engine::automatic || request.engine == Engine::exact) {
    const std::optional<ir::ClassRefusal> refusal = count_by_classes(kernel, launch, request, counts);
    if (!refusal) return counts;
    if (request.engine == Engine::exact) throw ir::ClassesUnproven(*refusal);
    counts.note = refusal->message() + "; counting every block with the replay instead";
  }
  count_by_replay(kernel, launch, request, counts);
  return counts;
}

ir::ClassReplayResult class_engine_result(EngineCounts counts) {
  ir::ClassReplayResult r;
  static_cast<ir::ReplayResult&>(r) = std::move(counts.result);
  r.classes = std::move(counts.classes);
  r.blocks_replayed = counts.blocks_replayed;
  r.warps_replayed = counts.warps_replayed;
  r.memory_unproven = std::move(counts.class_memory_unproven);
  r.memory_out_of_bounds = counts.class_memory_out_of_bounds;
  return r;
}

namespace {

// "FILE:LINE:COL (if): FIELD is A by NAME_A, B by NAME_B", or "" where a == b.
std::string differs(const std::string& where, const char* field, Count a, Count b, const std::string& a_name,
                    const std::string& b_name) {
  if (a == b) return "";
  return where + ": " + field + " is " + to_decimal(a) + " by " + a_name + ", " + to_decimal(b) + " by " +
         b_name;
}

std::string statement_difference(const std::string& where, const ir::StatementCounts& a,
                                 const ir::StatementCounts& b, const std::string& a_name,
                                 const std::string& b_name) {
  const std::pair<const char*, Count ir::StatementCounts::*> fields[] = {
      {"warp_evaluations", &ir::StatementCounts::warp_evaluations},
      {"divergent", &ir::StatementCounts::divergent},
      {"active_lanes", &ir::StatementCounts::active_lanes},
      {"taken_lanes", &ir::StatementCounts::taken_lanes},
      {"block_executions", &ir::StatementCounts::block_executions},
      {"partial_block_executions", &ir::StatementCounts::partial_block_executions},
      {"blocks_with_partial", &ir::StatementCounts::blocks_with_partial}};
  for (const auto& [name, field] : fields)
    if (std::string d = differs(where, name, a.*field, b.*field, a_name, b_name); !d.empty()) return d;
  return "";
}

std::string access_difference(const std::string& where, const ir::AccessCounts& a, const ir::AccessCounts& b,
                              const std::string& a_name, const std::string& b_name) {
  const std::pair<const char*, Count ir::AccessCounts::*> fields[] = {
      {"requests", &ir::AccessCounts::requests},     {"lanes", &ir::AccessCounts::lanes},
      {"bytes", &ir::AccessCounts::bytes},           {"sectors", &ir::AccessCounts::sectors},
      {"wavefronts", &ir::AccessCounts::wavefronts}, {"conflicts", &ir::AccessCounts::conflicts}};
  for (const auto& [name, field] : fields)
    if (std::string d = differs(where, name, a.*field, b.*field, a_name, b_name); !d.empty()) return d;
  return "";
}

std::string statement_place(const ir::Kernel& kernel, std::size_t id) {
  const ir::Stmt& s = kernel.stmts[id];
  return ir::location(kernel, s.range) + " (" + ir::report_kind(s) + ")";
}

std::string memory_difference(const ir::Kernel& kernel, const std::string& a_name, const ir::ReplayResult& a,
                              const std::string& b_name, const ir::ReplayResult& b) {
  if (!a.memory_counted || !b.memory_counted) return "";
  if (a.accesses.size() != b.accesses.size() || a.flops.size() != b.flops.size())
    return "the memory figures have " + std::to_string(a.accesses.size()) + " accesses by " + a_name + ", " +
           std::to_string(b.accesses.size()) + " by " + b_name;
  for (std::size_t i = 0; i < a.accesses.size(); ++i) {
    const ir::MemoryAccess& m = kernel.accesses[i];
    const std::string where = ir::location(kernel, m.range) + " ('" + m.text + "')";
    if (std::string d = access_difference(where, a.accesses[i], b.accesses[i], a_name, b_name); !d.empty())
      return d;
  }
  for (std::size_t i = 0; i < a.flops.size(); ++i)
    if (std::string d = differs(statement_place(kernel, i), "flops", a.flops[i], b.flops[i], a_name, b_name);
        !d.empty())
      return d;
  return "";
}

}  // namespace

std::string first_difference(const ir::Kernel& kernel, const std::string& a_name, const ir::ReplayResult& a,
                             const std::string& b_name, const ir::ReplayResult& b) {
  if (a.statements.size() != b.statements.size())
    return "the counts have " + std::to_string(a.statements.size()) + " statements by " + a_name + ", " +
           std::to_string(b.statements.size()) + " by " + b_name;
  for (std::size_t i = 0; i < a.statements.size(); ++i)
    if (std::string d = statement_difference(statement_place(kernel, i), a.statements[i], b.statements[i],
                                             a_name, b_name);
        !d.empty())
      return d;
  const std::size_t loops = std::min(a.iterations.size(), b.iterations.size());
  for (std::size_t i = 0; i < loops; ++i) {
    const std::vector<ir::StatementCounts>& ai = a.iterations[i];
    const std::vector<ir::StatementCounts>& bi = b.iterations[i];
    if (ai.size() != bi.size())
      return statement_place(kernel, i) + ": " + std::to_string(ai.size()) + " iterations by " + a_name +
             ", " + std::to_string(bi.size()) + " by " + b_name;
    for (std::size_t k = 0; k < ai.size(); ++k)
      if (std::string d =
              statement_difference(statement_place(kernel, i) + " iteration " + std::to_string(k + 1), ai[k],
                                   bi[k], a_name, b_name);
          !d.empty())
        return d;
  }
  return memory_difference(kernel, a_name, a, b_name, b);
}

namespace {

// One engine of Engine::all, run on its own (no progress, no observer: the reference has them).
struct EngineRun {
  std::string name;
  EngineCounts counts;
};

std::optional<EngineRun> run_other(const ir::Kernel& kernel, const ir::Launch& launch,
                                   const CountRequest& request, Engine engine, std::string& why_not) {
  CountRequest one = request;
  one.engine = Engine::automatic;  // a refusal is a reason to leave the class engine out, not an error
  one.options.blocks_done = nullptr;
  one.options.observer = nullptr;
  one.memory_replay_budget = 0;  // the class engine's own figures only
  EngineRun run{engine == Engine::exact ? "the class engine" : "native code", {}};
  if (engine == Engine::exact) {
    if (const std::optional<ir::ClassRefusal> refusal = count_by_classes(kernel, launch, one, run.counts)) {
      why_not = "the class engine: " + refusal->message();
      return std::nullopt;
    }
    return run;
  }
  if (replay_options(one, true).native == ir::NativeReplay::Off) {
    why_not = "native code: WARPDIV_NATIVE=off";
    return std::nullopt;
  }
  run.counts.result = ir::replay(kernel, launch, replay_options(one, true));
  if (run.counts.result.native) return run;
  why_not = run.counts.result.native_hand_over.empty()
                ? "native code: none available for this launch"
                : "native code: handed the launch over (" + run.counts.result.native_hand_over + ")";
  return std::nullopt;
}

EngineCounts count_every_engine(const ir::Kernel& kernel, const ir::Launch& launch,
                                const CountRequest& request) {
  CountRequest reference = request;
  reference.engine = Engine::replay;
  reference.native = NativeMode::off;
  EngineCounts counts = count_launch(kernel, launch, reference);
  const std::string reference_name = "the replay";
  std::vector<std::string> agreeing{reference_name};
  std::vector<std::string> not_applied;
  for (const Engine engine : {Engine::exact, Engine::native}) {
    std::string why_not;
    const std::optional<EngineRun> run = run_other(kernel, launch, request, engine, why_not);
    if (!run) {
      not_applied.push_back(why_not);
      continue;
    }
    const std::string d =
        first_difference(kernel, run->name, run->counts.result, reference_name, counts.result);
    if (!d.empty()) throw Mismatch("the engines disagree: " + d);
    agreeing.push_back(run->name);
  }
  counts.note_id = Diag::engines_compared;
  counts.note = agreeing.size() == 1
                    ? "only the replay counts this launch (" + listed(not_applied) + "): nothing to compare"
                    : "all " + std::to_string(agreeing.size()) + " engines agree (" + listed(agreeing) + ")";
  return counts;
}

}  // namespace

}  // namespace warpdiv::sim
