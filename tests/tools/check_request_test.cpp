// tools/cli/check_command.hpp without the binary: parse_check's request and refusals, and the
// request a [[kernel]] table makes (what `warpdiv analyze FILE.cu` would make of the same flags).
#include <gtest/gtest.h>

#include <string>

#include "analysis/check_config.hpp"
#include "sim/support/errors.hpp"
#include "tools/cli/check_command.hpp"

namespace warpdiv::cli {
namespace {

template <class Parse>
std::string refusal(Parse parse) {
  try {
    parse();
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}

TEST(ParseCheck, TheRequest) {
  const CheckRequest r = parse_check({"ci.toml", "--sarif", "out.sarif", "--baseline", "b.csv"});
  EXPECT_EQ(r.config, "ci.toml");
  EXPECT_EQ(r.sarif, "out.sarif");
  EXPECT_EQ(r.baseline, "b.csv");
  EXPECT_FALSE(r.write_baseline);
  EXPECT_FALSE(r.no_baseline);
  EXPECT_TRUE(parse_check({"ci.toml", "--no-baseline"}).no_baseline);
  EXPECT_EQ(parse_check({"ci.toml", "--write-baseline", "b.csv"}).write_baseline, "b.csv");
  EXPECT_NE(parse_check({"--help"}).help.find("usage: warpdiv check CONFIG"), std::string::npos);
}

TEST(ParseCheck, Refusals) {
  EXPECT_EQ(refusal([] { parse_check({}); }),
            "warpdiv check needs CONFIG, a TOML file of kernels, launches and limits (see warpdiv "
            "check --help)");
  EXPECT_EQ(refusal([] {
              parse_check({"c.toml", "--write-baseline", "b.csv", "--baseline", "a.csv"});
            }),
            "--write-baseline records the figures afresh and compares with no baseline: drop "
            "--baseline");
  EXPECT_EQ(refusal([] {
              parse_check({"c.toml", "--baseline", "a.csv", "--no-baseline"});
            }),
            "give --baseline FILE or --no-baseline, not both");
  EXPECT_EQ(refusal([] {
              parse_check({"c.toml", "--write-baseline", "x", "--sarif", "x"});
            }),
            "--write-baseline and --sarif name the same file 'x'");
  EXPECT_NE(refusal([] { parse_check({"c.toml", "--csv", "x"}); }), "");
}

TEST(CheckKernelRequest, TheLaunchOfATable) {
  const std::string root = WARPDIV_SOURCE_DIR;
  const analysis::CheckConfig c = analysis::parse_check_config(
      "[[kernel]]\nfile = \"" + root +
          "/kernels/zoo/early_return_3d.cu\"\n"
          "grid = \"(nx+7)/8,(ny+7)/8,(nz+3)/4\"\nblock = [8, 8, 4]\nargs = { nx = 20, ny = 12, nz = 6 }\n"
          "engine = \"replay\"\nwarp_size = 16\ndynamic_smem = 64\ndefines = [\"X=1\"]\n",
      "c.toml");
  const AnalyzeSourceRequest r = check_kernel_request(c, c.kernels[0]);
  // (20+7)/8 = 3, (12+7)/8 = 2, (6+3)/4 = 2.
  EXPECT_EQ(r.launch.grid.x, 3u);
  EXPECT_EQ(r.launch.grid.y, 2u);
  EXPECT_EQ(r.launch.grid.z, 2u);
  EXPECT_EQ(r.launch.block.z, 4u);
  EXPECT_EQ(r.launch.warp_size, 16);
  EXPECT_EQ(r.engine, SourceEngine::replay);
  EXPECT_EQ(r.dynamic_shared, 64);
  EXPECT_EQ(r.source.defines, std::vector<std::string>{"X=1"});
  EXPECT_EQ(r.values.at("nx").value, 20);
  // A block past CUDA's limits is refused at the block's place.
  const analysis::CheckConfig big =
      analysis::parse_check_config("[[kernel]]\nfile = \"" + root +
                                       "/kernels/zoo/early_return_3d.cu\"\ngrid = 1\n"
                                       "block = [64, 32]\nargs = { nx = 1, ny = 1, nz = 1 }\n",
                                   "c.toml");
  EXPECT_EQ(refusal([&] { check_kernel_request(big, big.kernels[0]); }).rfind("c.toml:4:9: block", 0), 0u)
      << refusal([&] { check_kernel_request(big, big.kernels[0]); });
}

}  // namespace
}  // namespace warpdiv::cli
