// The real kernel's buffers against the model's stores, on buffers written here by hand.
#include "analysis/output_comparison.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace warpdiv::analysis {
namespace {

namespace ir = sim::ir;

ir::Kernel two_buffers() {
  ir::Kernel k;
  k.name = "k";
  for (const char* name : {"out", "f"}) {
    const std::int32_t p = k.add_opaque_parameter(name, std::string(name) == "out" ? "int *" : "float *");
    k.parameters[static_cast<std::size_t>(p)].element_bytes = 4;
    k.parameters[static_cast<std::size_t>(p)].element_type = std::string(name) == "out" ? "int" : "float";
  }
  return k;
}

std::vector<std::uint8_t> ints(std::initializer_list<std::int32_t> values) {
  std::vector<std::uint8_t> bytes(values.size() * 4);
  std::size_t i = 0;
  for (std::int32_t v : values) std::memcpy(bytes.data() + 4 * i++, &v, 4);
  return bytes;
}

TEST(OutputComparison, ComparesHeldElementsOnlyAndNamesTheFirstDifference) {
  const ir::Kernel k = two_buffers();
  std::vector<ir::StoredBuffer> stored(2);
  // out: elements 0, 1, 3 written; 2 never; element 4 order-dependent; element 5 unknown.
  stored[0].bytes = ints({5, 6, 0, 8, 1, 2});
  stored[0].element = ir::ScalarType::I32;
  stored[0].state.assign(24, ir::StoredBuffer::kWritten);
  for (int i = 8; i < 12; ++i) stored[0].state[i] = ir::StoredBuffer::kUnwritten;
  for (int i = 16; i < 20; ++i) stored[0].state[i] = ir::StoredBuffer::kConflict;
  for (int i = 20; i < 24; ++i) stored[0].state[i] = ir::StoredBuffer::kUnknown;
  // The GPU agrees on 0 and 1, differs on 3 (9, not 8); element 2 and 4, 5 do not matter.
  const std::vector<std::vector<std::uint8_t>> gpu = {ints({5, 6, 77, 9, 3, 4}), {}};
  const OutputComparison c = compare_outputs(k, stored, "", gpu);
  ASSERT_EQ(c.buffers.size(), 1u);  // f has no store
  EXPECT_EQ(c.buffers[0].compared, 3u);
  EXPECT_EQ(c.buffers[0].differing, 1u);
  EXPECT_EQ(c.buffers[0].conflicting, 1u);
  EXPECT_EQ(c.buffers[0].unknown, 1u);
  EXPECT_EQ(c.buffers[0].first_difference, "out[3]: model 8, GPU 9");
  EXPECT_FALSE(c.agree());
  const std::vector<std::vector<std::uint8_t>> same = {ints({5, 6, 77, 8, 3, 4}), {}};
  EXPECT_TRUE(compare_outputs(k, stored, "", same).agree());
  EXPECT_EQ(
      compare_outputs(k, stored, "", same).summary(),
      "outputs: out: 3 elements equal, 1 not held by the model, 1 written differently by several threads");
}

TEST(OutputComparison, FloatsBitForBitAndReasonsWhyNot) {
  const ir::Kernel k = two_buffers();
  std::vector<ir::StoredBuffer> stored(2);
  const float model = 0.1f, gpu_value = 0.100000009f;  // one ulp apart
  stored[1].bytes.resize(4);
  stored[1].element = ir::ScalarType::F32;
  std::memcpy(stored[1].bytes.data(), &model, 4);
  stored[1].state.assign(4, ir::StoredBuffer::kWritten);
  std::vector<std::vector<std::uint8_t>> gpu(2, std::vector<std::uint8_t>(4));
  std::memcpy(gpu[1].data(), &gpu_value, 4);
  const OutputComparison c = compare_outputs(k, stored, "", gpu);
  ASSERT_EQ(c.buffers.size(), 1u);
  EXPECT_EQ(c.buffers[0].first_difference, "f[0]: model 0.1, GPU 0.10000001");
  const OutputComparison why = compare_outputs(k, stored, "k.cu:3:5: 'out[pos]' depends on an atomic", gpu);
  EXPECT_TRUE(why.agree());
  EXPECT_EQ(why.summary(), "outputs not compared: k.cu:3:5: 'out[pos]' depends on an atomic");
}

// Elements left by atomics of several threads whose order decides them (exch, CAS, float add:
// StoredBuffer::kOrdered) are left out with their own note, whatever their bytes.
TEST(OutputComparison, ElementsAnOrderOfAtomicsDecidesAreLeftOut) {
  const ir::Kernel k = two_buffers();
  std::vector<ir::StoredBuffer> stored(2);
  // f: element 0 one thread's float atomicAdd (known, 1.5), elements 1 and 2 several threads'.
  const float sums[3] = {1.5f, 64.0f, 3.0f};
  stored[1].bytes.resize(12);
  std::memcpy(stored[1].bytes.data(), sums, 12);
  stored[1].element = ir::ScalarType::F32;
  stored[1].state.assign(12, ir::StoredBuffer::kOrdered);
  for (int i = 0; i < 4; ++i) stored[1].state[static_cast<std::size_t>(i)] = ir::StoredBuffer::kWritten;
  const float gpu_sums[3] = {1.5f, 61.0f, 3.0f};  // the GPU summed element 1 in another order
  std::vector<std::vector<std::uint8_t>> gpu(2, std::vector<std::uint8_t>(12));
  std::memcpy(gpu[1].data(), gpu_sums, 12);
  const OutputComparison c = compare_outputs(k, stored, "", gpu);
  ASSERT_EQ(c.buffers.size(), 1u);
  EXPECT_EQ(c.buffers[0].compared, 1u);
  EXPECT_EQ(c.buffers[0].ordered, 2u);
  EXPECT_TRUE(c.agree());
  EXPECT_EQ(c.summary(),
            "outputs: f: 1 elements equal, 2 left by atomics of several threads whose order decides them");
}

}  // namespace
}  // namespace warpdiv::analysis
