// The parts of kernels/ that need no GPU, and the no-device behaviour.
#include <gtest/gtest.h>

#include "kernels/tiled_matmul.hpp"
#include "sim/errors.hpp"

namespace warpdiv::kernels {
namespace {

TEST(Padded, RoundsEachSizeUpToTheTile) {
  EXPECT_EQ(padded(lecture::LaunchConfig::square(100)), lecture::LaunchConfig::shape(112, 112, 112, 16));  // 7 tiles of 16
  EXPECT_EQ(padded(lecture::LaunchConfig::shape(5, 3, 7, 16)), lecture::LaunchConfig::shape(16, 16, 16, 16));
  EXPECT_EQ(padded(lecture::LaunchConfig::shape(64, 48, 80, 16)), lecture::LaunchConfig::shape(64, 48, 80, 16));  // already multiples
  EXPECT_EQ(padded(lecture::LaunchConfig::shape(33, 1, 65, 32)), lecture::LaunchConfig::shape(64, 32, 96, 32));
}

TEST(DeviceBytes, LectureByHand) {
  // 100^3 and its padding 112^3: 3 * 10000 + 3 * 12544 = 67632 floats = 270528 bytes, plus
  // 4 * 4 * 4 + 1 = 65 counters of 8 bytes = 520: 271048.
  EXPECT_EQ(device_bytes_needed(lecture::LaunchConfig::square(100), false), 271048u);
  // Records: 49 blocks * 8 warps = 392 warps, * 7 phases = 2744 bytes, + 392 store bytes.
  EXPECT_EQ(device_bytes_needed(lecture::LaunchConfig::square(100), true), 271048u + 2744u + 392u);
}

TEST(DeviceBytes, HugeLaunchesSaturateInsteadOfWrapping) {
  const lecture::LaunchConfig huge = lecture::LaunchConfig::square(2147483647, 1);
  // (2^31 - 1)^2 * 4 bytes * 6 matrices is about 1.1e20, above 2^64 = 1.8e19.
  EXPECT_EQ(device_bytes_needed(huge, false), std::numeric_limits<std::uint64_t>::max());
}

TEST(Names, KernelsAsProfilersPrintThem) {
  EXPECT_STREQ(name(Kernel::checked), "checked");
  EXPECT_STREQ(function_name(Kernel::instrumented), "tiled_matmul_instrumented");
  EXPECT_STREQ(function_name(Kernel::unchecked), "tiled_matmul_unchecked");
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
