// `warpdiv check CONFIG` through the binary, on zoo kernels whose figures are worked out by hand
// here from their launches (the launches in the kernels' top comments).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

const std::string kRoot = WARPDIV_SOURCE_DIR;

// strided_load at grid 8, block 128, n = 1000, stride 3 (line 9 `if (i < n)`, line 10
// `out[i] = in[i * stride];`):
// - 1024 threads in 32 warps; only warp 31 (i = 992 .. 1023) holds both i < 1000 and i >= 1000:
//   the branch diverges in 1 of its 32 warp evaluations;
// - line 10 runs in all 32 warps with 1000 active lanes: SIMD efficiency 1000 / 1024 = 97.66%;
// - its load in[3 i] spans 32 x 12 = 384 bytes per full warp from offset 384 w (a multiple of
//   32), 12 sectors, every one touched (lanes 12 bytes apart); warp 31's 8 lanes reach bytes 0 .. 88
//   of theirs: 3 sectors. Its store out[i] is 4 sectors per full warp and 1 for warp 31's 32 bytes
//   at 3968 = 124 x 32. Requests 32 + 32 = 64, sectors 31 x 12 + 3 + 31 x 4 + 1 = 500, bytes asked
//   1000 x 4 x 2 = 8000: sector efficiency 8000 / (500 x 32) = 50%.
std::string strided(const std::string& limits) {
  return "root = \"" + kRoot + "\"\n[[kernel]]\nname = \"strided\"\nfile = \"" + kRoot +
         "/kernels/zoo/strided_load.cu\"\ngrid = 8\nblock = 128\nargs = { n = 1000, stride = 3 }\n"
         "[kernel.limits]\n" + limits;
}

// early_return_3d at grid (3, 2, 2), block (8, 8, 4), ny = 12, nz = 6: 6 statements (x, y, z on
// lines 11 .. 13, line 14 `if (x >= nx || y >= ny || z >= nz)`, the return, line 16 the store). A warp is 4 rows (y) of 8 x in one z-slice: warp w of
// a block has z = 4 bz + w / 2, y = 8 by + 4 (w % 2) .. + 3.
// - nx = 24: every x < 24, so no warp splits on x, and the y and z edges (y 12 .. 15, z 6, 7) take
//   whole warps: 0 of the 12 x 8 = 96 warp evaluations diverge. The body runs in the warps with y
//   and z inside: 3 block columns x (2 + 1) y halves x (4 + 2) slices = 54 warps, all 32 lanes:
//   1728 lanes, 100%.
// - nx = 20: in block column 2 (x 16 .. 23) the warps with y and z inside split 4 / 4 on x: 8 in
//   block (2, 0, 0), 4 in (2, 1, 0) (w even), 4 in (2, 0, 1) (w < 4), 2 in (2, 1, 1): 18 of 96 =
//   18.75%. The body runs in the same 54 warps, the 18 of column 2 with 16 lanes: 36 x 32 + 18 x 16
//   = 1440 lanes (20 x 12 x 6), 1440 / 1728 = 83.33%.
std::string volume(int nx, const std::string& extra = "") {
  return "root = \"" + kRoot + "\"\n" + extra + "[[kernel]]\nname = \"volume\"\nfile = \"" + kRoot +
         "/kernels/zoo/early_return_3d.cu\"\ngrid = \"(nx+7)/8,(ny+7)/8,(nz+3)/4\"\n"
         "block = [8, 8, 4]\nargs = { nx = " + std::to_string(nx) + ", ny = 12, nz = 6 }\n";
}

CliResult check(const TempDir& dir, const std::string& config, std::vector<std::string> flags = {}) {
  write_file(dir.file("c.toml"), config);
  std::vector<std::string> args = {"check", dir.file("c.toml")};
  args.insert(args.end(), flags.begin(), flags.end());
  return run_warpdiv(args);
}

TEST(CheckCli, StridedLoadWithinItsLimitsPasses) {
  TempDir dir;
  // 1 of 32 = 3.125% <= 5%; 97.66% >= 97%; 50% >= 50% (a limit holds at equality).
  const CliResult r = check(dir, strided("max_divergent_fraction = 0.05\nmin_simd_efficiency = 0.97\n"
                                         "min_sector_efficiency = 0.5\n"));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "warpdiv check: 1 kernel, 3 statements: 0 limits crossed: passed\n");
  EXPECT_EQ(r.err, "");
}

TEST(CheckCli, StridedLoadPastItsLimitsFails) {
  TempDir dir;
  const CliResult r = check(dir, strided("max_divergent = 0\nmin_simd_efficiency = 0.98\n"
                                         "min_sector_efficiency = 0.6\nmax_sectors_per_request = 8\n"));
  EXPECT_EQ(r.status, 1) << r.err;
  // 500 sectors / 64 requests = 7.8125 <= 8 passes.
  EXPECT_EQ(r.out,
            "kernels/zoo/strided_load.cu:9:3: warning: branch diverges in 1 of its 32 warp "
            "evaluations, limit 0 (check 'strided') [divergent-evaluations]\n"
            "kernels/zoo/strided_load.cu:10:5: warning: statement runs at 97.66% SIMD efficiency "
            "(1000 active lanes in 32 warp evaluations of 32), limit 98% (check 'strided') "
            "[simd-efficiency]\n"
            "kernels/zoo/strided_load.cu:10:5: warning: global accesses use 50% of their sectors "
            "(8000 bytes asked in 500 sectors of 32 bytes), limit 60% (check 'strided') "
            "[sector-efficiency]\n"
            "warpdiv check: 1 kernel, 3 statements: 3 limits crossed: FAILED\n");
}

TEST(CheckCli, DivergentFractionOfTheVolumesEdge) {
  TempDir dir;
  EXPECT_EQ(check(dir, volume(20) + "limits = { max_divergent_fraction = 0.2 }\n").status, 0);
  const CliResult r = check(dir, volume(20) + "limits = { max_divergent_fraction = 0.1 }\n");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out,
            "kernels/zoo/early_return_3d.cu:14:3: warning: branch diverges in 18.75% of its warp "
            "evaluations (18 of 96), limit 10% (check 'volume') [divergent-branch]\n"
            "warpdiv check: 1 kernel, 6 statements: 1 limit crossed: FAILED\n");
  // A line table lifts the limit for line 14 only; one for line 99 matches nothing (a note).
  const CliResult lifted = check(dir, volume(20) + "limits = { max_divergent_fraction = 0.1 }\n"
                                                   "[[kernel.line]]\nline = 14\nmax_divergent_fraction = 0.2\n"
                                                   "[[kernel.line]]\nline = 99\nmin_simd_efficiency = 1\n");
  EXPECT_EQ(lifted.status, 0) << lifted.out << lifted.err;
  EXPECT_NE(lifted.out.find("c.toml:12:1: note: no statement starts on line 99 of "
                            "kernels/zoo/early_return_3d.cu: these limits apply to nothing (check "
                            "'volume') [unused-line-limits]\n"),
            std::string::npos)
      << lifted.out;
}

TEST(CheckCli, PartialBarriersFailByDefault) {
  TempDir dir;
  // The kernel's top comment: both barriers partial in the 13 blocks of the last block row and
  // column, 7 phases each: 91 block executions each. No limit given: 0 are allowed.
  write_file(dir.file("c.toml"), "root = \"" + kRoot + "\"\n[[kernel]]\nname = \"guard\"\nfile = \"" +
                                     kRoot + "/kernels/zoo/tiled_matmul_barrier_in_guard.cu\"\n"
                                     "grid = \"(Width-1)/16+1,(Width-1)/16+1\"\nblock = [16, 16]\n"
                                     "args = { Width = 100 }\n");
  const CliResult r = run_warpdiv({"check", dir.file("c.toml")});
  EXPECT_EQ(r.status, 1) << r.err;
  std::size_t found = 0;
  for (std::size_t at = 0; (at = r.out.find("only part of the block reaches this barrier in 91 block "
                                            "executions (undefined behaviour), limit 0 (check "
                                            "'guard') [partial-barrier]", at)) != std::string::npos;
       ++at)
    ++found;
  EXPECT_EQ(found, 2u) << r.out;
}

TEST(CheckCli, BaselineWrittenThenCheckedThenRegressed) {
  TempDir dir;
  const std::string with_baseline = "baseline = \"base.csv\"\n";
  const CliResult wrote = check(dir, volume(24, with_baseline), {"--write-baseline", dir.file("base.csv")});
  EXPECT_EQ(wrote.status, 0) << wrote.err;
  EXPECT_EQ(wrote.out, "warpdiv check: 1 kernel, 6 statements: 0 limits crossed: passed\n"
                       "Baseline written to " + dir.file("base.csv") + "\n");
  const std::string csv = read_file(dir.file("base.csv"));
  EXPECT_NE(csv.find("volume,kernels/zoo/early_return_3d.cu,14,3,if,32,96,0,3072,"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find("volume,kernels/zoo/early_return_3d.cu,16,3,statement,32,54,,1728,"),
            std::string::npos)
      << csv;
  // The same launch against it: nothing regressed.
  const CliResult same = check(dir, volume(24, with_baseline));
  EXPECT_EQ(same.status, 0) << same.out << same.err;
  EXPECT_EQ(same.out, "warpdiv check: 1 kernel, 6 statements: 0 limits crossed, 0 regressions: passed\n");
  // nx = 20 diverges at the x edge: 18 of 96, and the body's lanes fall to 83.33%.
  const CliResult worse = check(dir, volume(20, with_baseline));
  EXPECT_EQ(worse.status, 1) << worse.err;
  EXPECT_NE(worse.out.find("kernels/zoo/early_return_3d.cu:14:3: warning: branch diverges in 18 "
                           "warp evaluations, 0 in the baseline (baseline 96 warp evaluations, now "
                           "96) (check 'volume') [divergence-regressed]\n"),
            std::string::npos)
      << worse.out;
  EXPECT_NE(worse.out.find("kernels/zoo/early_return_3d.cu:16:3: warning: statement runs at 83.33% "
                           "SIMD efficiency, 100% in the baseline (baseline 54 warp evaluations, "
                           "now 54) (check 'volume') [simd-efficiency-regressed]\n"),
            std::string::npos)
      << worse.out;
  EXPECT_NE(worse.out.find("regressions: FAILED\n"), std::string::npos) << worse.out;
  // --no-baseline ignores it.
  EXPECT_EQ(check(dir, volume(20, with_baseline), {"--no-baseline"}).status, 0);
}

TEST(CheckCli, ConfigErrorsAreOneLineWithThePlaceAndWriteNothing) {
  TempDir dir;
  const std::string sarif = dir.file("out.sarif");
  const CliResult unknown = check(dir, volume(20) + "limits = { max_divergence = 0.1 }\n", {"--sarif", sarif});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err.rfind("warpdiv: error: " + dir.file("c.toml") +
                                  ":8:12: unknown key 'max_divergence' in [kernel.limits]; did you "
                                  "mean 'max_divergent'?",
                              0),
            0u)
      << unknown.err;
  EXPECT_EQ(unknown.out, "");
  EXPECT_FALSE(file_exists(sarif));
  // A launch expression's refusal points at the grid.
  const CliResult grid = check(dir, "[[kernel]]\nfile = \"" + kRoot + "/kernels/zoo/strided_load.cu\"\n"
                                    "grid = \"(n+\"\nblock = 128\nargs = { n = 1000, stride = 3 }\n",
                               {"--sarif", sarif});
  EXPECT_EQ(grid.status, 2);
  EXPECT_EQ(grid.err.rfind("warpdiv: error: " + dir.file("c.toml") + ":3:8: grid ", 0), 0u) << grid.err;
  EXPECT_FALSE(file_exists(sarif));
  // A missing kernel file, and a baseline that is not there.
  const CliResult missing = check(dir, "[[kernel]]\nfile = \"nope.cu\"\ngrid = 1\nblock = 1\n");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "warpdiv: error: " + dir.file("c.toml") + ":1:1: [[kernel]] 'nope': file '" +
                             dir.file("nope.cu") + "' is not a readable regular file\n");
  const CliResult no_base = check(dir, "baseline = \"none.csv\"\n" + volume(20));
  EXPECT_EQ(no_base.status, 2);
  EXPECT_EQ(no_base.err.rfind("warpdiv: error: " + dir.file("c.toml") + ":1:12: baseline: '", 0), 0u)
      << no_base.err;
  // An output never replaces an input: the configuration, a kernel.
  const CliResult over_config = check(dir, volume(20), {"--sarif", dir.file("c.toml")});
  EXPECT_EQ(over_config.status, 2);
  EXPECT_NE(over_config.err.find("is the same file as"), std::string::npos) << over_config.err;
  EXPECT_EQ(read_file(dir.file("c.toml")), volume(20));
  const CliResult over_kernel =
      check(dir, volume(20), {"--write-baseline", kRoot + "/kernels/zoo/early_return_3d.cu"});
  EXPECT_EQ(over_kernel.status, 2);
  EXPECT_NE(over_kernel.err.find("is the same file as"), std::string::npos) << over_kernel.err;
  // Flags.
  EXPECT_EQ(run_warpdiv({"check"}).status, 2);
  EXPECT_EQ(run_warpdiv({"check", dir.file("c.toml"), "--write-baseline", dir.file("b.csv"),
                         "--no-baseline"}).status, 2);
}

TEST(CheckCli, AKernelThatCannotBeModelledIsRefusedWithTheFrontEndsReason) {
  TempDir dir;
  // A branch on a float read from memory the launch gives no values for: data-dependent.
  write_file(dir.file("bad.cu"),
             "__global__ void bad(const float *x, int *out) {\n"
             "  int i = threadIdx.x;\n"
             "  if (x[i] > 0.5f) out[i] = 1;\n"
             "}\n");
  const CliResult r = check(dir, "[[kernel]]\nfile = \"bad.cu\"\ngrid = 1\nblock = 32\n");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("warpdiv: error: " + dir.file("c.toml") + ":1:1: [[kernel]] 'bad': ", 0), 0u)
      << r.err;
  EXPECT_NE(r.err.find("bad.cu:3"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(CheckCli, ASavedModelChecksAsItsSource) {
  TempDir dir;
  // The strided load saved with --save-model, checked with `model`: the same findings as from
  // the .cu file (its rows keep the source's places).
  const CliResult saved = run_warpdiv({"analyze", kRoot + "/kernels/zoo/strided_load.cu", "--save-model",
                                       dir.file("strided.json")});
  ASSERT_EQ(saved.status, 0) << saved.err;
  const std::string limits = "[kernel.limits]\nmax_divergent = 0\n";
  const CliResult from_model = check(dir, "root = \"" + kRoot + "\"\n[[kernel]]\nname = \"strided\"\n"
                                          "model = \"strided.json\"\ngrid = 8\nblock = 128\n"
                                          "args = { n = 1000, stride = 3 }\n" + limits);
  const CliResult from_source = check(dir, strided("max_divergent = 0\n"));
  EXPECT_EQ(from_model.status, 1) << from_model.err;
  EXPECT_EQ(from_model.out, from_source.out);
  EXPECT_NE(from_model.out.find("kernels/zoo/strided_load.cu:9:3: warning: branch diverges in 1 of its "
                                "32 warp evaluations"),
            std::string::npos)
      << from_model.out;
  // Compiler keys mean nothing for a model.
  const CliResult refused = check(dir, "[[kernel]]\nmodel = \"strided.json\"\ngrid = 8\nblock = 128\n"
                                       "defines = [\"X\"]\n");
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.err, "warpdiv: error: " + dir.file("c.toml") + ":5:11: defines applies to a source "
                         "file; a model holds one kernel already read\n");
}

// A homework-style file: its launch in main(), its block size in a header of include/ and SCALE
// from -D, both given only by a compilation database (compile_commands = the build folder).
// rows = 100, cols = 70, TILE 16: grid (5, 7), block (16, 16), 35 blocks of 8 warps (two rows of
// 16 each): 280 warp evaluations of line 5's `if`. It splits only the warps whose 16 columns
// straddle col 70 (block column 4: 64 .. 79) and whose rows are inside: block rows 0 .. 5 take all
// 8 warps (48), block row 6 (rows 96 .. 111) the warps of rows 96 .. 99, warps 0 and 1 (2): 50 of
// 280 = 17.86%. With args rows = 16 over main()'s 100 (rows is written nowhere else, so the host
// code is followed with 16): grid (5, 1), 40 warp evaluations; block row 0 has every row inside,
// and only its block column 4 splits, 8 warps: 8 of 40.
constexpr const char* kHomework =
    "#include \"sizes.h\"\n"
    "__global__ void add(const float *a, float *c, int rows, int cols) {\n"
    "  int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "  if (row < rows && col < cols)\n"
    "    c[row * cols + col] = a[row * cols + col] * SCALE;\n"
    "}\n"
    "int main() {\n"
    "  int rows = 100, cols = 70;\n"
    "  float *a, *c;\n"
    "  cudaMalloc(&a, rows * cols * sizeof(float));\n"
    "  cudaMalloc(&c, rows * cols * sizeof(float));\n"
    "  dim3 block(TILE, TILE);\n"
    "  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);\n"
    "  add<<<grid, block>>>(a, c, rows, cols);\n"
    "  return 0;\n"
    "}\n";

TEST(CheckCli, TheLaunchFromHostCodeAndACompilationDatabase) {
  TempDir dir;
  write_file(dir.file("hw.cu"), kHomework);
  ASSERT_EQ(::system(("mkdir -p '" + dir.file("include") + "' '" + dir.file("build") + "'").c_str()), 0);
  write_file(dir.file("include/sizes.h"), "#define TILE 16\n");
  write_file(dir.file("build/compile_commands.json"),
             "[{\"directory\": \"" + dir.path() + "\", \"command\": \"/usr/local/cuda/bin/nvcc "
             "-Iinclude -DSCALE=2.0f -c hw.cu -o hw.o\", \"file\": \"hw.cu\"}]\n");
  const std::string table = "[[kernel]]\nname = \"hw\"\nfile = \"hw.cu\"\ncompile_commands = \"build\"\n";
  const CliResult r = check(dir, table + "[kernel.limits]\nmax_divergent_fraction = 0.15\n");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "hw.cu:5:3: warning: branch diverges in 17.86% of its warp evaluations (50 of 280), "
                   "limit 15% (check 'hw') [divergent-branch]\n"
                   "warpdiv check: 1 kernel, 4 statements: 1 limit crossed: FAILED\n");
  EXPECT_EQ(r.err, "warpdiv: note: hw: launch from main() at " + dir.file("hw.cu") +
                       ":15:3: grid (5, 7, 1), block (16, 16, 1); rows = 100, cols = 70\n");
  // The table's args override main()'s, one by one, and the host code follows them.
  const CliResult rows16 =
      check(dir, table + "args = { rows = 16 }\n[kernel.limits]\nmax_divergent = 8\n");
  EXPECT_EQ(rows16.status, 0) << rows16.out << rows16.err;
  const CliResult rows16_fail =
      check(dir, table + "args = { rows = 16 }\n[kernel.limits]\nmax_divergent = 7\n");
  EXPECT_EQ(rows16_fail.status, 1);
  EXPECT_NE(rows16_fail.out.find("branch diverges in 8 of its 40 warp evaluations, limit 7"), std::string::npos) << rows16_fail.out;
  // Without the database the header is not found: the front-end's refusal, exit 2.
  const CliResult no_db = check(dir, "[[kernel]]\nname = \"hw\"\nfile = \"hw.cu\"\n");
  EXPECT_EQ(no_db.status, 2);
  EXPECT_NE(no_db.err.find("sizes.h"), std::string::npos) << no_db.err;
  // A second launch must be chosen with launch = N.
  std::string twice = kHomework;
  twice.replace(twice.find("  return 0;"), 0, "  add<<<1, 256>>>(a, c, 1, 256);\n");
  write_file(dir.file("hw.cu"), twice);
  const CliResult several = check(dir, table);
  EXPECT_EQ(several.status, 2);
  EXPECT_EQ(several.err.rfind("warpdiv: error: " + dir.file("c.toml") + ":1:1: [[kernel]] 'hw': ", 0), 0u)
      << several.err;
  EXPECT_NE(several.err.find("choose one with launch N (1 .. 2)"), std::string::npos) << several.err;
  // Launch 2: one block of 256 threads, rows 1, cols 256: every lane inside, nothing diverges.
  const CliResult second = check(dir, table + "launch = 2\n[kernel.limits]\nmax_divergent = 0\n");
  EXPECT_EQ(second.status, 0) << second.out << second.err;
}

TEST(CheckCli, TheExampleConfigurationPasses) {
  // examples/ci/warpdiv-check.toml, as the README and docs/guide/check.md run it (from the
  // repository root): every limit there holds, its comments say why.
  const CliResult r =
      run_in(kRoot, warpdiv_binary(), {"check", "examples/ci/warpdiv-check.toml"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "warpdiv check: 4 kernels, 36 statements: 0 limits crossed: passed\n");
  // From its own folder, CONFIG a bare name (its folder is then the current one).
  const CliResult here = run_in(kRoot + "/examples/ci", warpdiv_binary(), {"check", "warpdiv-check.toml"});
  EXPECT_EQ(here.status, 0) << here.out << here.err;
  EXPECT_EQ(here.out, r.out);
}

}  // namespace
}  // namespace warpdiv::testing
