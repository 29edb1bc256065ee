// What the warp machine (sim/engine/ir_engine.hpp) shows an engine built on top of it: a Recorder is
// told of the comparisons it asked for, of every warp's start and end, and may run the
// iterations of the loops it chooses its own way (the class engine's recorder, sim/
// ir_class_recorder.hpp, runs classes of iterations and keeps their counts). A plain replay has
// none, and then the machine's hot loops only test a null pointer.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir::detail {

using LaneMask = std::uint64_t;
constexpr int kMaxLanes = 64;

/// A value in a warp: one per lane (`lanes`, kMaxLanes of them), or the same in every lane
/// (`lanes` null, `value`).
struct Operand {
  const std::uint64_t* lanes;
  std::uint64_t value;
};

class WarpMachine;

class Recorder {
 public:
  virtual ~Recorder() = default;
  /// Warp m.warp() of the current block starts (before its first statement) / has ended.
  virtual void warp_begin(WarpMachine& m) = 0;
  virtual void warp_end(WarpMachine& m) = 0;
  /// A comparison marked CompiledExpr::recorded was evaluated in the lanes `active` with operands
  /// a and b (before the machine computes its outcome).
  virtual void comparison(WarpMachine& m, ExprId id, LaneMask active, const Operand& a, const Operand& b) = 0;
  /// A for or while loop begins with the lanes `in` (after its init): true when the recorder runs
  /// this instance's iterations (iterations() below instead of WarpMachine::iteration()).
  virtual bool loop_begin(WarpMachine& m, StmtId loop, LaneMask in) = 0;
  /// Runs iteration k of a loop instance loop_begin() took, as WarpMachine::iteration() does
  /// (`frame`: the loop's frame, passed on to it); may stand for more iterations and leave k at
  /// the last one it stood for. Returns the lanes that go on; those that leave join `exits`.
  virtual LaneMask iterations(WarpMachine& m, StmtId loop, std::size_t frame, LaneMask in, LaneMask& exits,
                              std::uint64_t& k) = 0;
};

}  // namespace warpdiv::sim::ir::detail
