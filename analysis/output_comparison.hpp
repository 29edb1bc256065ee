// The real kernel's output buffers against what the model's stores leave in them
// (sim::ir::ReplayResult::stored): element by element where the model holds every byte of the
// element, integers and floats bit for bit. This is what catches arithmetic the model got wrong
// (an FMA contraction nvcc made differently, a rounding): the probe computes as the model does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/model/ir.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::analysis {

struct BufferComparison {
  std::string parameter;            // "out"
  std::uint64_t element_bytes = 0;  // 4 for int*
  std::uint64_t compared = 0;       // elements whose every byte the model holds
  std::uint64_t differing = 0;
  std::uint64_t unknown = 0;      // elements written with a value the model does not hold
  std::uint64_t conflicting = 0;  // threads wrote different values: order-dependent, not compared
  std::uint64_t ordered = 0;      // left by atomics of several threads in an order that decides them
                                  // (exch, cas, inc, dec, float add): not compared
  std::string first_difference;   // "out[1234]: model 17, GPU 18" ("" when none)
};

struct OutputComparison {
  std::vector<BufferComparison> buffers;  // the pointer parameters the kernel stores to
  std::string not_compared;               // why nothing is compared ("" when the buffers are)
  bool agree() const;
  /// One line: "out: 65536 elements equal" or the first difference.
  std::string summary() const;
};

/// Compares `gpu` ([parameter]: its buffer after the real kernel's run, from the pointer it got)
/// with the model's `stored` values. `not_captured`: ReplayResult::stores_not_captured.
OutputComparison compare_outputs(const sim::ir::Kernel& kernel,
                                 const std::vector<sim::ir::StoredBuffer>& stored,
                                 const std::string& not_captured,
                                 const std::vector<std::vector<std::uint8_t>>& gpu);

}  // namespace warpdiv::analysis
