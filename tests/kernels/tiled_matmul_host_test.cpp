// The parts of kernels/ that need no GPU, and the no-device behaviour.
#include <gtest/gtest.h>

#include <limits>

#include "kernels/lecture/tiled_matmul.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::kernels {
namespace {

TEST(DeviceBytes, LectureByHand) {
  // M, N and P of 100 x 100 x 100: 3 * 10,000 floats = 120,000 bytes.
  EXPECT_EQ(device_bytes_needed({100, 100, 100, 16}), 120000u);
  // 1000 x 10 x 20: 10,000 + 200 + 20,000 floats = 120,800 bytes.
  EXPECT_EQ(device_bytes_needed({1000, 10, 20, 8}), 120800u);
}

TEST(DeviceBytes, HugeLaunchesSaturateInsteadOfWrapping) {
  constexpr std::int64_t kMax = 2147483647;
  // (2^31 - 1)^2 * 4 bytes * 3 matrices is about 5.5e19, above 2^64 = 1.8e19.
  EXPECT_EQ(device_bytes_needed({kMax, kMax, kMax, 1}), std::numeric_limits<std::uint64_t>::max());
}

TEST(Kernel, TheLecturesKernelAsProfilersPrintIt) {
  // The __global__ function of kernels/zoo/tiled_matmul_rect.cu.
  EXPECT_STREQ(kMatmulFunction, "TiledMatMul");
}

TEST(NoDevice, OneLineReason) {
  try {
    query_device();
    GTEST_SKIP() << "a CUDA device is present: nothing to check here";
  } catch (const NoDevice& e) {
    const std::string what = e.what();
    EXPECT_FALSE(what.empty());
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    if (!built_with_cuda()) {
      EXPECT_NE(what.find("built without CUDA"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace warpdiv::kernels
