// What the warp machine (sim/engine/ir_engine.hpp) lets an engine built on top of it do: a
// Recorder observes the machine's event stream (sim/engine/ir_events.hpp: the warps' starts and
// ends and the comparisons it asked for, as any observer does) and steers one thing, the
// iterations of the loops it chooses, which it may run its own way (the class engine's recorder,
// sim/classes/ir_class_recorder.hpp, runs classes of iterations and keeps their counts). A plain
// replay has none, and then the machine's hot loops only test a null pointer.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/engine/ir_events.hpp"
#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir::detail {

using LaneMask = std::uint64_t;
constexpr int kMaxLanes = 64;

class WarpMachine;

class Recorder : public EventObserver {
 public:
  /// A for or while loop begins with the lanes `in` (after its init): true when the recorder runs
  /// this instance's iterations (iterations() below instead of WarpMachine::iteration()).
  virtual bool loop_begin(StmtId loop, LaneMask in) = 0;
  /// Runs iteration k of a loop instance loop_begin() took, as WarpMachine::iteration() does
  /// (`frame`: the loop's frame, passed on to it); may stand for more iterations and leave k at
  /// the last one it stood for. Returns the lanes that go on; those that leave join `exits`.
  virtual LaneMask iterations(StmtId loop, std::size_t frame, LaneMask in, LaneMask& exits,
                              std::uint64_t& k) = 0;
};

}  // namespace warpdiv::sim::ir::detail
