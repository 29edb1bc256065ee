// `warpdiv validate FILE.cu | --model FILE` through the real binary without a GPU: bad input
// (exit 2, one line, no file) and, where there is no CUDA device, driver or NVRTC, the one-line
// answer with exit 3. (The GPU side: tests/kernels/probe_gpu_test.cpp and tools/device-validate-zoo.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/probe.hpp"
#include "sim/support/errors.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

const std::string kNaive = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/naive_matmul.cu";

bool probe_ready() {
  try {
    kernels::open_probe_device();
    return true;
  } catch (const NoDevice&) {
    return false;
  }
}

// The naive matrix multiply's model, saved by a warpdiv that has the Clang front-end; empty
// where this build has none.
std::string saved_model(const TempDir& dir) {
  const std::string path = dir.file("naive.json");
  const CliResult r = run_warpdiv({"analyze", kNaive, "--save-model", path});
  return r.status == 0 ? path : std::string();
}

void expect_no_gpu_line(const std::vector<std::string>& args, const TempDir& dir, std::size_t files_before) {
  const CliResult r = run_warpdiv(args);
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("warpdiv: error: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find(" [warpdiv-no-device]\n"), r.err.size() - 21) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(dir.entries().size(), files_before);  // no CSV, no temporary file
}

TEST(ValidateSourceCli, WithoutAGpuExitsThreeWithOneLine) {
  if (probe_ready()) GTEST_SKIP() << "a CUDA device and NVRTC are present (see the gpu tests)";
  TempDir dir;
  const std::string model = saved_model(dir);
  if (model.empty()) GTEST_SKIP() << "this warpdiv has no Clang front-end to save a model with";
  expect_no_gpu_line({"validate", kNaive, "--grid", "7,7", "--block", "16,16", "--arg", "Width=100", "--csv",
                      dir.file("v.csv")},
                     dir, 1);
  expect_no_gpu_line({"validate", "--model", model, "--grid", "7,7", "--block", "16,16", "--arg", "Width=100",
                      "--csv", dir.file("v.csv")},
                     dir, 1);
}

TEST(ValidateSourceCli, HelpListsEveryFlag) {
  const CliResult r = run_warpdiv({"validate", kNaive, "--help"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* flag : {"--model", "--kernel", "--define", "--include-dir", "--grid", "--block", "--arg",
                           "--warp-size", "--records", "--csv"})
    EXPECT_TRUE(contains(r.out, flag)) << flag;
}

class ValidateSourceBadInput : public ::testing::TestWithParam<BadInput> {};

// Refused before any GPU work, so these hold with and without a device.
TEST_P(ValidateSourceBadInput, ExitsTwoWithOneLineAndNoFile) {
  std::vector<std::string> args = {"validate"};
  for (const std::string& a : GetParam().args) args.push_back(a == "NAIVE" ? kNaive : a);
  TempDir dir;
  args.push_back("--csv");
  args.push_back(dir.file("out.csv"));
  const CliResult r = run_warpdiv(args);
  expect_refusal(r, GetParam());
  EXPECT_TRUE(dir.entries().empty());
}

INSTANTIATE_TEST_SUITE_P(
    Flags, ValidateSourceBadInput,
    ::testing::Values(
        BadInput{{"NAIVE", "--grid", "7,7", "--block", "16,16", "--arg", "Width=100", "--warp-size", "16"},
                 "--warp-size must be 32 for a GPU run (got 16)"},
        BadInput{{"NAIVE", "--grid", "7", "--block", "16", "--arg", "Width=100", "--records", "-1"},
                 "--records must be an integer from 0 to 100000000"},
        BadInput{{"/nonexistent/kernel.cu", "--grid", "1", "--block", "1"},
                 "cannot read '/nonexistent/kernel.cu'"},
        BadInput{{"NAIVE", "--model", "NAIVE", "--grid", "1", "--block", "1"},
                 "give FILE.cu or --model FILE, not both"},
        BadInput{{"NAIVE", "--grid", "1", "--block", "2000", "--arg", "Width=1"}, "--block"},
        BadInput{{"--model", "NAIVE", "--grid", "1", "--block", "1"}, "kernel model JSON: not valid JSON"}));

TEST(ValidateSourceCli, AMissingArgumentIsNamed) {
  TempDir dir;
  const std::string model = saved_model(dir);
  if (model.empty()) GTEST_SKIP() << "this warpdiv has no Clang front-end to save a model with";
  const CliResult r = run_warpdiv({"validate", "--model", model, "--grid", "7,7", "--block", "16,16"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "needs a value: give --arg Width=VALUE")) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
}

}  // namespace
}  // namespace warpdiv::testing
