// One event stream for everything the engines observe, keyed by source site: warps' starts and
// ends, statements, branches and loop heads (with lane masks), barriers, memory requests (with
// their access's kind, address space, lanes and, where the engine has them, addresses) and the
// comparisons the class engine tracks (with their operands). Engines emit; observers consume: the
// per-line counts, the memory figures, traces, the class engine's recorder, and any per-line
// figure a report adds. An observer chosen at run time says which events it takes (wants()), and
// the machine tests that bit before its virtual call, as it tests a null pointer when there is none.
//
// Two producers, one vocabulary:
//   - the warp machine (sim/engine/ir_engine.hpp) emits each warp's events as it runs them, into the
//     observers it is compiled with (the per-line counts and memory figures: no virtual call) and,
//     when one is set, an EventObserver (one virtual call per event, never per lane; a null pointer
//     tested otherwise);
//   - a finished count (the replay, native code or the class engine, which stand for many warps at
//     once) emits its totals per site (emit_access_totals): the same AccessEvent with `requests`
//     the access's total. An observer that adds `requests` (and the other figures) is thus exact
//     over every engine, as the per-line report needs.
// As LLVM's pass instrumentation calls the callbacks registered around each pass, none when
// nobody asked.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "sim/support/count.hpp"
#include "sim/model/ir.hpp"
#include "sim/memory/ir_memory.hpp"

namespace warpdiv::sim::ir {

/// A warp starts: the events that follow, until the next WarpEvent, are its own.
struct WarpEvent {
  std::uint32_t block[3];  // blockIdx x, y, z
  std::uint32_t warp;      // the warp's index within its block
};
/// The warp the last WarpEvent named has run its last statement.
struct WarpEndEvent {
  std::uint32_t block[3];
  std::uint32_t warp;
};
/// A value in a warp: one per lane (`lanes`, up to 64 of them), or the same in every lane
/// (`lanes` null, `value`).
struct Operand {
  const std::uint64_t* lanes;
  std::uint64_t value;
};
/// A comparison the class engine tracks (CompiledExpr::recorded) is evaluated in the lanes
/// `active`, with operands a and b (before the machine computes its outcome).
struct ComparisonEvent {
  ExprId site;
  std::uint64_t active;
  Operand a, b;
};
/// A warp reaches a statement that decides nothing (work, return, break ...) with lanes `active`.
struct StatementEvent {
  StmtId site;
  std::uint64_t active;
};
/// A warp evaluates an if's or a switch's condition in the lanes `active`; `taken`: those for
/// which it holds (switch: a case label matches); `divergent`: the lanes go more than one way
/// (switch: enter at more than one point).
struct BranchEvent {
  StmtId site;
  std::uint64_t active;
  std::uint64_t taken;
  bool divergent;
};
/// A warp reaches a loop's head (its condition) with the lanes `active`; `taken`: those that stay.
struct LoopHeadEvent {
  StmtId site;
  std::uint64_t active;
  std::uint64_t taken;
  bool divergent;  // some lanes stay, some leave
};
/// The lanes `arriving` of a warp reach a barrier (__syncthreads()).
struct BarrierEvent {
  StmtId site;
  std::uint64_t arriving;
};
/// Requests of one access (`site`: its index in Kernel::accesses) of statement `statement`: one
/// warp's request (requests 1, `lanes` its participating lanes), or a finished count's total for
/// the access (lanes 0). The figures are those sim/memory/ir_memory.hpp defines.
struct AccessEvent {
  std::int32_t site;
  StmtId statement;
  AccessKind kind;  // load, store, atomic (ncu's op_global_ld, _st, _atom and _red)
  AddressSpace space;
  std::uint32_t width;  // bytes per lane
  std::uint64_t lanes;  // a warp's request: the lanes that take part; a total: 0
  /// A warp's request: each lane's byte offset from the base where the engine evaluated them lane
  /// by lane, else null (one address for every lane: `lowest`; or a lane pattern).
  const std::int64_t* addresses;
  std::int64_t lowest, highest;  // a warp's request: the lowest and highest lane's byte offset
  Count requests;
  Count lane_count;  // participating lanes, summed
  Count bytes;       // lane_count x width
  Count sectors;     // global: distinct 32-byte sectors
  Count wavefronts;  // shared
  Count conflicts;   // shared: wavefronts beyond one per phase with a lane
};

/// Which events an observer chosen at run time takes (EventObserver::wants): a bit per event type.
enum EventKinds : unsigned {
  kWarpEvents = 1u << 0,
  kWarpEndEvents = 1u << 1,
  kStatementEvents = 1u << 2,
  kBranchEvents = 1u << 3,
  kLoopHeadEvents = 1u << 4,
  kBarrierEvents = 1u << 5,
  kAccessEvents = 1u << 6,
  kComparisonEvents = 1u << 7,
  kAllEvents = (1u << 8) - 1,
};
template <class Event>
constexpr unsigned kEventBit = 0;
template <>
constexpr unsigned kEventBit<WarpEvent> = kWarpEvents;
template <>
constexpr unsigned kEventBit<WarpEndEvent> = kWarpEndEvents;
template <>
constexpr unsigned kEventBit<StatementEvent> = kStatementEvents;
template <>
constexpr unsigned kEventBit<BranchEvent> = kBranchEvents;
template <>
constexpr unsigned kEventBit<LoopHeadEvent> = kLoopHeadEvents;
template <>
constexpr unsigned kEventBit<BarrierEvent> = kBarrierEvents;
template <>
constexpr unsigned kEventBit<AccessEvent> = kAccessEvents;
template <>
constexpr unsigned kEventBit<ComparisonEvent> = kComparisonEvents;

/// The base of an observer known at compile time: it ignores every event it does not handle
/// itself (an observer writes `using IgnoreEvents::on;` and the on() it wants).
struct IgnoreEvents {
  template <class Event>
  void on(const Event&) {}
};

/// Observers known at compile time, each told of every event in their order (inline calls).
template <class... Observers>
class EventFanout {
 public:
  explicit EventFanout(Observers&... observers) : observers_(observers...) {}
  template <class Event>
  void operator()(const Event& e) {
    std::apply([&e](Observers&... o) { (o.on(e), ...); }, observers_);
  }

 private:
  std::tuple<Observers&...> observers_;
};

/// An observer chosen at run time (a trace, a test, the class engine's recorder): one virtual call
/// per event it wants. The replay calls it from its worker threads: concurrently for different
/// blocks, never for two events of one block at once (with one thread, in the replay's order:
/// blocks, then warps, ascending).
class EventObserver {
 public:
  virtual ~EventObserver() = default;
  /// The events this observer takes (EventKinds); asked once per warp.
  virtual unsigned wants() const { return kAllEvents; }
  virtual void on(const WarpEvent&) {}
  virtual void on(const WarpEndEvent&) {}
  virtual void on(const ComparisonEvent&) {}
  virtual void on(const StatementEvent&) {}
  virtual void on(const BranchEvent&) {}
  virtual void on(const LoopHeadEvent&) {}
  virtual void on(const BarrierEvent&) {}
  virtual void on(const AccessEvent&) {}
};

/// A finished count's memory figures as events: for each access of `statement` (in
/// Stmt::accesses order), one AccessEvent holding its total (`accesses`: indexed as
/// Kernel::accesses, as ReplayResult::accesses).
template <class Observer>
void emit_access_totals(const Kernel& kernel, const std::vector<AccessCounts>& accesses, StmtId statement,
                        Observer& observer) {
  for (const std::int32_t a : kernel.stmts[static_cast<std::size_t>(statement)].accesses) {
    const auto i = static_cast<std::size_t>(a);
    const MemoryAccess& m = kernel.accesses[i];
    const AccessCounts& c = accesses[i];
    observer.on(AccessEvent{a, statement, m.kind, m.space, m.width, 0, nullptr, 0, 0, c.requests, c.lanes,
                            c.bytes, c.sectors, c.wavefronts, c.conflicts});
  }
}

}  // namespace warpdiv::sim::ir
