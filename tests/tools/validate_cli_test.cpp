// `warpdiv validate` through the real binary, without a GPU: bad input (exit 2) and, where there
// is no CUDA device or driver, the one-line answer [warpdiv-no-device] (exit 3).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/lecture/tiled_matmul.hpp"
#include "sim/support/errors.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

bool device_present() {
  try {
    kernels::query_device();
    return true;
  } catch (const NoDevice&) {
    return false;
  }
}

TEST(ValidateCli, WithoutAGpuExitsThreeWithOneLine) {
  if (device_present()) GTEST_SKIP() << "a CUDA device is present (see the gpu-labelled tests)";
  TempDir dir;
  const std::string csv = dir.file("v.csv");
  const CliResult r = run_warpdiv({"validate", "--csv", csv});
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("warpdiv: error: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find(" [warpdiv-no-device]\n"), r.err.size() - 21) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(dir.entries().empty());  // no CSV, no temporary file
}

TEST(ValidateCli, HelpListsEveryFlag) {
  const CliResult r = run_warpdiv({"validate", "--help"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* flag : {"--width", "--rows", "--inner", "--cols", "--tile", "--repeat", "--seed", "--csv"})
    EXPECT_TRUE(contains(r.out, flag)) << flag;
}

TEST(ValidateCli, ListedInTheCommands) {
  const CliResult r = run_warpdiv({"--help"});
  ASSERT_EQ(r.status, 0);
  EXPECT_TRUE(contains(r.out, "validate")) << r.out;
}

class ValidateBadInput : public ::testing::TestWithParam<BadInput> {};

// Bad input is refused before any GPU work, so these hold with and without a device.
TEST_P(ValidateBadInput, ExitsTwoWithOneLineAndNoFile) {
  TempDir dir;
  const std::string csv = dir.file("out.csv");
  std::vector<std::string> args = {"validate"};
  args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
  args.push_back("--csv");
  args.push_back(csv);
  const CliResult r = run_warpdiv(args);
  expect_refusal(r, GetParam());
  EXPECT_FALSE(file_exists(csv));
}

INSTANTIATE_TEST_SUITE_P(
    Flags, ValidateBadInput,
    ::testing::Values(BadInput{{"--tile", "0"}, "--tile must be an integer from 1 to 32 (got '0')"},
                      BadInput{{"--tile", "33"}, "--tile must be an integer from 1 to 32"},
                      BadInput{{"--repeat", "0"}, "--repeat must be an integer from 1 to 10000 (got '0')"},
                      BadInput{{"--repeat", "1e3"}, "--repeat must be an integer from 1 to 10000"},
                      BadInput{{"--seed", "-1"}, "--seed must be an integer from 0 to 9223372036854775807"},
                      BadInput{{"--width", "0"}, "--width must be an integer from 1 to 2147483647"},
                      BadInput{{"--width", "10", "--rows", "10"}, "--width cannot be combined"},
                      BadInput{{"--rows", "10", "--cols", "10"}, "must be given together"},
                      BadInput{{"--warp-size", "32"}, "warp-size"},  // the GPU's warp size is not a choice
                      // A positional argument is a kernel source (warpdiv validate FILE.cu): it must exist.
                      BadInput{{"extra"}, "cannot read 'extra': no such file"}));

TEST(ValidateCli, UnwritableCsvIsRefusedBeforeTheGpu) {
  const CliResult r = run_warpdiv({"validate", "--csv", "/nonexistent-folder/v.csv"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--csv")) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
}

// ---- warpdiv ncu-check on the ncu CSV recorded on an H200 ------------------------------------

std::string recorded(const std::string& name) {
  return std::string(WARPDIV_SOURCE_DIR) + "/data/validation/ncu/nvidia-h200/" + name;
}

TEST(NcuCheckCli, RecordedLectureAgrees) {
  const CliResult r = run_warpdiv({"ncu-check", "--ncu-csv", recorded("ncu_100x100x100_T16.csv"),
                                   "--validate-csv", recorded("validate_100x100x100_T16.csv")});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "ncu-check: ncu agrees with the calculator")) << r.out;
  EXPECT_TRUE(contains(r.out, "divergent branch targets 350 of 5488")) << r.out;
}

TEST(NcuCheckCli, ADifferingFigureExitsOne) {
  TempDir dir;
  std::string text = read_file(recorded("ncu_100x100x100_T16.csv"));
  // Claim 7 registers more for every checked launch (31 per thread in the recorded run): ncu's
  // registers then differ from the runtime's.
  const std::string from = "\"31\",";
  ASSERT_NE(text.find(from), std::string::npos);
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 1))
    text.replace(at, from.size(), "\"38\",");
  write_file(dir.file("ncu.csv"), text);
  const CliResult r = run_warpdiv({"ncu-check", "--ncu-csv", dir.file("ncu.csv"), "--validate-csv",
                                   recorded("validate_100x100x100_T16.csv")});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "DIFFER")) << r.out;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
}

TEST(NcuCheckCli, BadInputExitsTwo) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"ncu-check"},
        std::vector<std::string>{"ncu-check", "--ncu-csv", "/nonexistent/ncu.csv"},
        std::vector<std::string>{"ncu-check", "--ncu-csv", recorded("ncu_100x100x100_T16.csv"), "--tile",
                                 "32"},
        std::vector<std::string>{"ncu-check", "--ncu-csv", recorded("validate_100x100x100_T16.csv")}}) {
    const CliResult r = run_warpdiv(args);
    EXPECT_EQ(r.status, 2) << args.back() << ": " << r.out << r.err;
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  }
}

}  // namespace
}  // namespace warpdiv::testing
