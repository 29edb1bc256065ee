#include "analysis/output_comparison.hpp"

#include <cstring>

namespace warpdiv::analysis {

namespace ir = sim::ir;

namespace {

// An element's bytes as the type the model's stores write reads them ("17", "-0.5").
std::string element_text(ir::ScalarType type, const std::uint8_t* bytes, std::uint64_t size) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, bytes, static_cast<std::size_t>(std::min<std::uint64_t>(size, 8)));
  if (static_cast<std::uint64_t>(ir::bit_width(type) / 8) != size) type = ir::ScalarType::U64;
  return ir::to_string(ir::Value{type, ir::normalise(type, bits)});
}

}  // namespace

bool OutputComparison::agree() const {
  for (const BufferComparison& b : buffers)
    if (b.differing != 0) return false;
  return true;
}

std::string OutputComparison::summary() const {
  if (!not_compared.empty()) return "outputs not compared: " + not_compared;
  if (buffers.empty()) return "outputs: the kernel stores to no buffer";
  std::string text;
  for (const BufferComparison& b : buffers) {
    if (!text.empty()) text += "; ";
    text += b.parameter + ": ";
    text += b.differing == 0 ? std::to_string(b.compared) + " elements equal"
                             : std::to_string(b.differing) + " of " + std::to_string(b.compared) +
                                   " elements differ, first " + b.first_difference;
    if (b.unknown != 0) text += ", " + std::to_string(b.unknown) + " not held by the model";
    if (b.conflicting != 0)
      text += ", " + std::to_string(b.conflicting) + " written differently by several threads";
    if (b.ordered != 0)
      text +=
          ", " + std::to_string(b.ordered) + " left by atomics of several threads whose order decides them";
  }
  return "outputs: " + text;
}

OutputComparison compare_outputs(const ir::Kernel& kernel, const std::vector<ir::StoredBuffer>& stored,
                                 const std::string& not_captured,
                                 const std::vector<std::vector<std::uint8_t>>& gpu) {
  OutputComparison c;
  if (!not_captured.empty()) {
    c.not_compared = not_captured;
    return c;
  }
  for (std::size_t p = 0; p < stored.size() && p < kernel.parameters.size(); ++p) {
    const ir::StoredBuffer& s = stored[p];
    if (s.bytes.empty()) continue;
    const ir::Parameter& parameter = kernel.parameters[p];
    BufferComparison b;
    b.parameter = parameter.name;
    b.element_bytes = parameter.element_bytes != 0 ? parameter.element_bytes : 1;
    const std::vector<std::uint8_t>* real = p < gpu.size() ? &gpu[p] : nullptr;
    for (std::uint64_t at = 0; at < s.bytes.size(); at += b.element_bytes) {
      bool any = false, all = true, unknown = false, conflict = false, ordered = false;
      for (std::uint64_t i = at; i < at + b.element_bytes; ++i) {
        const std::uint8_t state = i < s.state.size() ? s.state[i] : ir::StoredBuffer::kUnwritten;
        any = any || state != ir::StoredBuffer::kUnwritten;
        all = all && state == ir::StoredBuffer::kWritten;
        unknown = unknown || state == ir::StoredBuffer::kUnknown;
        conflict = conflict || state == ir::StoredBuffer::kConflict;
        ordered = ordered || state == ir::StoredBuffer::kOrdered;
      }
      if (!any) continue;
      if (ordered && !conflict && !unknown) {
        ++b.ordered;
        continue;
      }
      if (conflict) {
        ++b.conflicting;
        continue;
      }
      if (unknown || !all) {
        ++b.unknown;
        continue;
      }
      ++b.compared;
      const bool present = real != nullptr && at + b.element_bytes <= real->size();
      if (present &&
          std::memcmp(real->data() + at, s.bytes.data() + at, static_cast<std::size_t>(b.element_bytes)) == 0)
        continue;
      if (++b.differing == 1)
        b.first_difference = parameter.name + "[" + std::to_string(at / b.element_bytes) + "]: model " +
                             element_text(s.element, s.bytes.data() + at, b.element_bytes) + ", GPU " +
                             (present ? element_text(s.element, real->data() + at, b.element_bytes)
                                      : std::string("(outside its buffer)"));
    }
    c.buffers.push_back(b);
  }
  return c;
}

}  // namespace warpdiv::analysis
