// `warpdiv validate` through the real binary on GPU 0 (ctest label gpu; skips without a device).
#include <gtest/gtest.h>

#include <regex>

#include <algorithm>
#include <string>

#include "analysis/lecture/validation.hpp"
#include "kernels/lecture/tiled_matmul.hpp"
#include "sim/support/errors.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

std::string no_device_reason() {
  try {
    kernels::query_device();
    return "";
  } catch (const NoDevice& e) {
    return e.what();
  }
}

TEST(ValidateGpuCli, LectureAgreesAndWritesTheRow) {
  const std::string why = no_device_reason();
  if (!why.empty()) GTEST_SKIP() << "no CUDA device: " << why;
  TempDir dir;
  const std::string csv = dir.file("lecture.csv");
  const CliResult r = run_warpdiv({"validate", "--repeat", "3", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("validate: everything agrees"), std::string::npos) << r.out;
  const std::string text = read_file(csv);
  ASSERT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
  // The constant is pinned as literal text, and against the recorded H200 run, in
  // tests/analysis/validation_test.cpp (this binary also runs where the source tree is absent).
  EXPECT_EQ(text.substr(0, text.find('\n')), analysis::kValidationCsvHeader);
  // The lecture's figures (hand-derived, see tests/analysis/validation_test.cpp), model and GPU;
  // then the probe: every statement, the 49 x 8 = 392 warps and their evaluations one by one,
  // none differing.
  EXPECT_TRUE(std::regex_search(
      text, std::regex(",100,100,100,16,49,8,7,2744,350,350,350,350,350,350,50,50,13,13,0,[0-9]+,"
                       "392,[0-9]+,0,yes,")))
      << text;
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"lecture.csv"});
}

TEST(ValidateGpuCli, TooLargeForTheGpuIsRefused) {
  const std::string why = no_device_reason();
  if (!why.empty()) GTEST_SKIP() << "no CUDA device: " << why;
  // 200000^2 floats per matrix is 160 GB: more than the host's memory (M, N, P) or the GPU's.
  const CliResult r =
      run_warpdiv({"validate", "--rows", "200000", "--inner", "200000", "--cols", "200000", "--tile", "32"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("memory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("use smaller sizes"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace warpdiv::testing
