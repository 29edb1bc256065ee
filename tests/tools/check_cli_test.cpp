// `warpdiv check CONFIG` through the binary, on zoo kernels whose figures are worked out by hand
// here from their launches (the launches in the kernels' top comments).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
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
         "[kernel.limits]\n" +
         limits;
}

// early_return_3d at grid (3, 2, 2), block (8, 8, 4), ny = 12, nz = 6: 6 statements (x, y, z on
// lines 11 .. 13, line 14 `if (x >= nx || y >= ny || z >= nz)`, the return, line 16 the store). A warp is 4
// rows (y) of 8 x in one z-slice: warp w of a block has z = 4 bz + w / 2, y = 8 by + 4 (w % 2) .. + 3.
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
         "block = [8, 8, 4]\nargs = { nx = " +
         std::to_string(nx) + ", ny = 12, nz = 6 }\n";
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

// `root` names the folder findings are relative to: one that is not there is a mistake, refused.
TEST(CheckCli, ARootThatIsNotAFolderIsRefused) {
  TempDir dir;
  std::string config = strided("max_divergent_fraction = 0.05\n");
  config.replace(config.find(kRoot), kRoot.size(), "/nonexistent");
  const CliResult r = check(dir, config);
  EXPECT_EQ(r.status, 2) << r.out;
  // At its value's place (`root = "..."` opens the file: line 1, column 8), as other bad values are.
  EXPECT_EQ(r.err, dir.file("c.toml") +
                       ":1:8: error: root '/nonexistent' is not a folder "
                       "(findings, baselines and SARIF name files relative to it; give an existing folder) "
                       "[warpdiv-file-content]\n");
  EXPECT_EQ(r.out, "");
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
  const CliResult lifted = check(dir, volume(20) +
                                          "limits = { max_divergent_fraction = 0.1 }\n"
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
  write_file(dir.file("c.toml"), "root = \"" + kRoot + "\"\n[[kernel]]\nname = \"guard\"\nfile = \"" + kRoot +
                                     "/kernels/zoo/tiled_matmul_barrier_in_guard.cu\"\n"
                                     "grid = \"(Width-1)/16+1,(Width-1)/16+1\"\nblock = [16, 16]\n"
                                     "args = { Width = 100 }\n");
  const CliResult r = run_warpdiv({"check", dir.file("c.toml")});
  EXPECT_EQ(r.status, 1) << r.err;
  std::size_t found = 0;
  for (std::size_t at = 0; (at = r.out.find("only part of the block reaches this barrier in 91 block "
                                            "executions (undefined behaviour), limit 0 (check "
                                            "'guard') [partial-barrier]",
                                            at)) != std::string::npos;
       ++at)
    ++found;
  EXPECT_EQ(found, 2u) << r.out;
}

TEST(CheckCli, BaselineWrittenThenCheckedThenRegressed) {
  TempDir dir;
  const std::string with_baseline = "baseline = \"base.csv\"\n";
  const CliResult wrote = check(dir, volume(24, with_baseline), {"--write-baseline", dir.file("base.csv")});
  EXPECT_EQ(wrote.status, 0) << wrote.err;
  EXPECT_EQ(wrote.out,
            "warpdiv check: 1 kernel, 6 statements: 0 limits crossed: passed\n"
            "Baseline written to " +
                dir.file("base.csv") + "\n");
  const std::string csv = read_file(dir.file("base.csv"));
  EXPECT_NE(csv.find("volume,scale_volume,if (x >= nx || y >= ny || z >= nz),1,if,"
                     "kernels/zoo/early_return_3d.cu,14,3,32,96,3072,96,0,"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("volume,scale_volume,data[(z * ny + y) * nx + x] *= 2.0f,1,statement,"
                     "kernels/zoo/early_return_3d.cu,16,3,32,54,1728,,,"),
            std::string::npos)
      << csv;
  // The same launch against it: nothing regressed.
  const CliResult same = check(dir, volume(24, with_baseline));
  EXPECT_EQ(same.status, 0) << same.out << same.err;
  EXPECT_EQ(same.out, "warpdiv check: 1 kernel, 6 statements: 0 limits crossed, 0 regressions: passed\n");
  // nx = 20 diverges at the x edge: 18 of 96, and the body's lanes fall to 83.33%.
  const CliResult worse = check(dir, volume(20, with_baseline));
  EXPECT_EQ(worse.status, 1) << worse.err;
  EXPECT_NE(worse.out.find("kernels/zoo/early_return_3d.cu:14:3: warning: branch diverges in 18.75% "
                           "of its warp evaluations (18 of 96), 0% in the baseline (0 of 96) (check "
                           "'volume') [divergence-regressed]\n"),
            std::string::npos)
      << worse.out;
  EXPECT_NE(worse.out.find("kernels/zoo/early_return_3d.cu:16:3: warning: statement runs at 83.33% "
                           "SIMD efficiency (1440 of 1728 lanes), 100% in the baseline (1728 of "
                           "1728) (check 'volume') [simd-efficiency-regressed]\n"),
            std::string::npos)
      << worse.out;
  EXPECT_NE(worse.out.find("regressions: FAILED\n"), std::string::npos) << worse.out;
  // --no-baseline ignores it.
  EXPECT_EQ(check(dir, volume(20, with_baseline), {"--no-baseline"}).status, 0);
}

TEST(CheckCli, ConfigErrorsAreOneLineWithThePlaceAndWriteNothing) {
  TempDir dir;
  const std::string sarif = dir.file("out.sarif");
  const CliResult unknown =
      check(dir, volume(20) + "limits = { max_divergence = 0.1 }\n", {"--sarif", sarif});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err.rfind(dir.file("c.toml") +
                                  ":8:12: error: unknown key 'max_divergence' in [kernel.limits]; did you "
                                  "mean 'max_divergent'?",
                              0),
            0u)
      << unknown.err;
  EXPECT_EQ(unknown.out, "");
  EXPECT_FALSE(file_exists(sarif));
  // A launch expression's refusal points at the grid.
  const CliResult grid = check(dir,
                               "[[kernel]]\nfile = \"" + kRoot +
                                   "/kernels/zoo/strided_load.cu\"\n"
                                   "grid = \"(n+\"\nblock = 128\nargs = { n = 1000, stride = 3 }\n",
                               {"--sarif", sarif});
  EXPECT_EQ(grid.status, 2);
  EXPECT_EQ(grid.err.rfind(dir.file("c.toml") + ":3:8: error: grid ", 0), 0u) << grid.err;
  EXPECT_FALSE(file_exists(sarif));
  // A missing kernel file is a finding (the gate goes on: CheckCli.AnUnreadableKernelAmong...);
  // a baseline that is not there is bad input.
  const CliResult missing = check(dir, "[[kernel]]\nfile = \"nope.cu\"\ngrid = 1\nblock = 1\n");
  EXPECT_EQ(missing.status, 1);
  EXPECT_EQ(missing.out, "nope.cu: error: cannot check this kernel: file '" + dir.file("nope.cu") +
                             "' is not a readable regular file (check 'nope') [warpdiv-file-unreadable]\n"
                             "warpdiv check: 0 kernels, 0 statements: 1 kernel unreadable, 0 limits "
                             "crossed: FAILED\n");
  const CliResult no_base = check(dir, "baseline = \"none.csv\"\n" + volume(20));
  EXPECT_EQ(no_base.status, 2);
  EXPECT_EQ(no_base.err.rfind(dir.file("c.toml") + ":1:12: error: baseline: '", 0), 0u) << no_base.err;
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
  EXPECT_EQ(run_warpdiv({"check", dir.file("c.toml"), "--write-baseline", dir.file("b.csv"), "--no-baseline"})
                .status,
            2);
}

// The double-buffer swap through float*& parameters: in is b + 1 after it, so the store covers
// bytes 4..131 of b, 5 sectors for 128 bytes (80%), below the limit of 90%. The model cannot see
// the swap: the store is not counted, and the gate says the limit cannot be judged there.
TEST(CheckCli, AStatementWhoseAccessesAreNotCountedFailsAMemoryLimit) {
  TempDir dir;
  write_file(dir.file("swap.cu"),
             "__device__ void swp(float *&x, float *&y) { float *t = x; x = y; y = t; }\n"
             "__global__ void k(float *a, float *b) {\n"
             "  float *in = a, *out = b + 1;\n"
             "  swp(in, out);\n"
             "  in[threadIdx.x] = 1.0f;\n"
             "}\n");
  const std::string kernel =
      "[[kernel]]\nfile = \"swap.cu\"\ngrid = 1\nblock = 32\nalloc = { a = 40, b = 40 }\n";
  const CliResult r = check(dir, "[limits]\nmin_sector_efficiency = 0.9\n" + kernel);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("swap.cu:5:3: warning: 1 of this statement's accesses is not counted, so its memory "
                       "limits cannot be judged: "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("store 'in[threadIdx.x]': it could not be placed: the pointer 'in' is bound to a "
                       "reference in 'swp(in, out)'"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("[memory-not-counted]\nwarpdiv check: 1 kernel, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 limits crossed, 1 statement not judged: FAILED\n"), std::string::npos) << r.out;
  // Without a memory limit nothing is to be judged on memory: it passes.
  EXPECT_EQ(check(dir, "[limits]\nmax_divergent_fraction = 0.5\n" + kernel).status, 0);
}

// A kernel that cannot be read is a finding and the gate goes on to write its outputs: they must
// still never replace what that kernel read, the header Clang read before the missing one, its
// source, the compilation database, the response file and -include file the database names.
TEST(CheckCli, OutputsNeverReplaceTheFilesOfAKernelThatCouldNotBeRead) {
  TempDir dir;
  write_file(dir.file("good.h"), "#define GOOD 1\n");
  write_file(dir.file("g.cu"),
             "#include \"good.h\"\n#include \"missing.h\"\n__global__ void g(int* o) { o[0] = GOOD; }\n");
  write_file(dir.file("r.rsp"), "-DY=1\n");
  write_file(dir.file("pre.h"), "#define P 1\n");
  write_file(dir.file("g2.cu"), "#include \"missing.h\"\n__global__ void g(int* o) { o[0] = 1; }\n");
  std::filesystem::create_directory(dir.file("build"));
  const std::string database = dir.file("build/compile_commands.json");
  write_file(database, "[{\"directory\": \"" + dir.file("") + "\", \"file\": \"" + dir.file("g2.cu") +
                           "\", \"command\": \"nvcc -include pre.h @r.rsp -c g2.cu\"}]");
  const std::string one = "[[kernel]]\nfile = \"g.cu\"\ngrid = 1\nblock = 32\n";
  const std::string two =
      "[[kernel]]\nfile = \"g2.cu\"\ncompile_commands = \"build\"\ngrid = 1\nblock = 32\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {one, "good.h"}, {one, "g.cu"}, {two, "r.rsp"}, {two, "pre.h"}, {two, "build/compile_commands.json"}};
  for (const auto& [config, target] : cases) {
    const std::string before = read_file(dir.file(target));
    const CliResult r = check(dir, config, {"--sarif", dir.file(target)});
    EXPECT_EQ(r.status, 2) << target << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("is the same file as"), std::string::npos) << target << "\n" << r.err;
    EXPECT_EQ(read_file(dir.file(target)), before) << target;
  }
  // Elsewhere the SARIF is written, with the kernel's finding.
  const CliResult r = check(dir, one, {"--sarif", dir.file("out.sarif")});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(read_file(dir.file("out.sarif")).find("\"ruleId\": \"warpdiv-"), std::string::npos);
}

TEST(CheckCli, AKernelThatCannotBeModelledIsAFindingWithTheFrontEndsReason) {
  TempDir dir;
  // A branch on a float read from memory the launch gives no values for: data-dependent.
  write_file(dir.file("bad.cu"),
             "__global__ void bad(const float *x, int *out) {\n"
             "  int i = threadIdx.x;\n"
             "  if (x[i] > 0.5f) out[i] = 1;\n"
             "}\n");
  const CliResult r = check(dir, "[[kernel]]\nfile = \"bad.cu\"\ngrid = 1\nblock = 32\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out.rfind("bad.cu:3:3: warning: cannot check this kernel: data-dependent branch", 0), 0u)
      << r.out;
  EXPECT_NE(
      r.out.find("(check 'bad') [warpdiv-data-dependent-branch]\nwarpdiv check: 0 kernels, 0 statements: "
                 "1 kernel unreadable, 0 limits crossed: FAILED\n"),
      std::string::npos)
      << r.out;
}

TEST(CheckCli, ASavedModelChecksAsItsSource) {
  TempDir dir;
  // The strided load saved with --save-model, checked with `model`: the same findings as from
  // the .cu file (its rows keep the source's places).
  const CliResult saved = run_warpdiv(
      {"analyze", kRoot + "/kernels/zoo/strided_load.cu", "--save-model", dir.file("strided.json")});
  ASSERT_EQ(saved.status, 0) << saved.err;
  const std::string limits = "[kernel.limits]\nmax_divergent = 0\n";
  const CliResult from_model = check(dir, "root = \"" + kRoot +
                                              "\"\n[[kernel]]\nname = \"strided\"\n"
                                              "model = \"strided.json\"\ngrid = 8\nblock = 128\n"
                                              "args = { n = 1000, stride = 3 }\n" +
                                              limits);
  const CliResult from_source = check(dir, strided("max_divergent = 0\n"));
  EXPECT_EQ(from_model.status, 1) << from_model.err;
  EXPECT_EQ(from_model.out, from_source.out);
  EXPECT_NE(from_model.out.find("kernels/zoo/strided_load.cu:9:3: warning: branch diverges in 1 of its "
                                "32 warp evaluations"),
            std::string::npos)
      << from_model.out;
  // Compiler keys mean nothing for a model.
  const CliResult refused = check(dir,
                                  "[[kernel]]\nmodel = \"strided.json\"\ngrid = 8\nblock = 128\n"
                                  "defines = [\"X\"]\n");
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.err, dir.file("c.toml") +
                             ":5:11: error: defines applies to a source "
                             "file; a model holds one kernel already read [warpdiv-file-content]\n");
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
             "[{\"directory\": \"" + dir.path() +
                 "\", \"command\": \"/usr/local/cuda/bin/nvcc "
                 "-Iinclude -DSCALE=2.0f -c hw.cu -o hw.o\", \"file\": \"hw.cu\"}]\n");
  const std::string table = "[[kernel]]\nname = \"hw\"\nfile = \"hw.cu\"\ncompile_commands = \"build\"\n";
  const CliResult r = check(dir, table + "[kernel.limits]\nmax_divergent_fraction = 0.15\n");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out,
            "hw.cu:5:3: warning: branch diverges in 17.86% of its warp evaluations (50 of 280), "
            "limit 15% (check 'hw') [divergent-branch]\n"
            "warpdiv check: 1 kernel, 4 statements: 1 limit crossed: FAILED\n");
  EXPECT_EQ(r.err,
            "warpdiv: note: hw: launch from main() at " + dir.file("hw.cu") +
                ":15:3: grid (5, 7, 1), block (16, 16, 1); rows = 100, cols = 70 [warpdiv-host-launch]\n");
  // The table's args override main()'s, one by one, and the host code follows them.
  const CliResult rows16 = check(dir, table + "args = { rows = 16 }\n[kernel.limits]\nmax_divergent = 8\n");
  EXPECT_EQ(rows16.status, 0) << rows16.out << rows16.err;
  const CliResult rows16_fail =
      check(dir, table + "args = { rows = 16 }\n[kernel.limits]\nmax_divergent = 7\n");
  EXPECT_EQ(rows16_fail.status, 1);
  EXPECT_NE(rows16_fail.out.find("branch diverges in 8 of its 40 warp evaluations, limit 7"),
            std::string::npos)
      << rows16_fail.out;
  // Without the database the header is not found: the front-end's refusal (Clang's diagnostics
  // on stderr), a finding.
  const CliResult no_db = check(dir, "[[kernel]]\nname = \"hw\"\nfile = \"hw.cu\"\n");
  EXPECT_EQ(no_db.status, 1);
  EXPECT_NE(no_db.err.find("sizes.h"), std::string::npos) << no_db.err;
  EXPECT_NE(
      no_db.out.find("hw.cu:1:10: error: cannot check this kernel: Clang refused it: 'sizes.h' file not "
                     "found (its diagnostics on stderr)"),
      std::string::npos)
      << no_db.out;
  // A second launch must be chosen with launch = N.
  std::string twice = kHomework;
  twice.replace(twice.find("  return 0;"), 0, "  add<<<1, 256>>>(a, c, 1, 256);\n");
  write_file(dir.file("hw.cu"), twice);
  const CliResult several = check(dir, table);
  EXPECT_EQ(several.status, 1);
  EXPECT_NE(several.out.find("choose one with launch N (1 .. 2)"), std::string::npos) << several.out;
  // Launch 2: one block of 256 threads, rows 1, cols 256: every lane inside, nothing diverges.
  const CliResult second = check(dir, table + "launch = 2\n[kernel.limits]\nmax_divergent = 0\n");
  EXPECT_EQ(second.status, 0) << second.out << second.err;
}

TEST(CheckCli, TheExampleConfigurationPasses) {
  // examples/ci/warpdiv-check.toml, as the README and docs/guide/check.md run it (from the
  // repository root): every limit there holds, its comments say why.
  const CliResult r = run_in(kRoot, warpdiv_binary(), {"check", "examples/ci/warpdiv-check.toml"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "warpdiv check: 4 kernels, 30 statements: 0 limits crossed: passed\n");
  // From its own folder, CONFIG a bare name (its folder is then the current one).
  const CliResult here = run_in(kRoot + "/examples/ci", warpdiv_binary(), {"check", "warpdiv-check.toml"});
  EXPECT_EQ(here.status, 0) << here.out << here.err;
  EXPECT_EQ(here.out, r.out);
}

// A kernel whose one `if (tid == 0)` guards a loop: grid 4, block 64 (2 warps a block).
// - `if (threadIdx.x == 0)`: 8 warp evaluations; warp 0 of each block splits (lane 0 in): 4
//   divergent, 4 lanes taken, one per split: the single-lane idiom.
// - the for (init, 5 tests, 4 steps, run by one lane) and its body (4 runs of one lane), in the
//   taken side: SIMD efficiency 1 / 32.
// - `if (i < n)` (n = 100, i = blockIdx.x * 64 + threadIdx.x): warp 3 (i 96 .. 127) splits: 1 of 8.
constexpr const char* kIdiom =
    "__global__ void idiom(int *out, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (threadIdx.x == 0) {\n"
    "    for (int k = 0; k < 4; ++k)\n"
    "      out[blockIdx.x * 4 + k] = k;\n"
    "  }\n"
    "  if (i < n)\n"
    "    out[i] += 1;\n"
    "}\n";

std::string idiom_config(const std::string& extra) {
  return "[[kernel]]\nfile = \"idiom.cu\"\ngrid = 4\nblock = 64\nargs = { n = 100 }\n"
         "alloc = { out = 256 }\n" +
         extra;
}

TEST(CheckCli, AnAddedCommentLineKeepsTheExemptionAndTheBaselineOnTheirStatement) {
  TempDir dir;
  write_file(dir.file("idiom.cu"), kIdiom);
  // `if (i < n)` diverges in 1 of 8 (12.5%): over the kernel's 10%, under its own table's 20%.
  const std::string config = idiom_config(
      "[kernel.limits]\nmax_divergent_fraction = 0.1\n"
      "[[kernel.statement]]\nfunction = \"idiom\"\nstatement = \"if (i   <  n)\"\n"
      "max_divergent_fraction = 0.2\n");
  const std::string with_baseline = "baseline = \"base.csv\"\n" + config;
  const CliResult wrote = check(dir, with_baseline, {"--write-baseline", dir.file("base.csv")});
  EXPECT_EQ(wrote.status, 0) << wrote.out << wrote.err;
  EXPECT_NE(read_file(dir.file("base.csv")).find("\nidiom,idiom,if (i < n),1,if,idiom.cu,7,3,32,8,256,8,1,"),
            std::string::npos)
      << read_file(dir.file("base.csv"));
  // One comment line added above everything: every statement one line down.
  write_file(dir.file("idiom.cu"), std::string("// a comment\n") + kIdiom);
  const CliResult after = check(dir, with_baseline);
  EXPECT_EQ(after.status, 0) << after.out << after.err;
  EXPECT_EQ(after.out,
            "warpdiv check: 1 kernel, 6 statements: 0 limits crossed, 0 regressions, 1 "
            "in single-lane branches not reported: passed\n");
  // Made worse on `out[i] += 1` (n = 90): its load and store use 12 sectors each (warps 0 .. 2,
  // the third's 26 lanes 104 bytes in 4 sectors), 720 bytes in 24 sectors = 93.75%; the baseline
  // (n = 100) 13 each (warp 3's 4 lanes in 1), 800 in 26 = 96.15%: the baseline's row compared at
  // the statement's new line.
  std::string worse = with_baseline;
  worse.replace(worse.find("n = 100"), 7, "n = 90");
  const CliResult r = check(dir, worse);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "idiom.cu:9:5: warning: global accesses use 93.75% of their sectors (720 bytes in "
            "24 sectors), 96.15% in the baseline (800 in 26) (check 'idiom') "
            "[sector-efficiency-regressed]\n"
            "warpdiv check: 1 kernel, 6 statements: 0 limits crossed, 1 regression, 1 in "
            "single-lane branches not reported: FAILED\n");
}

TEST(CheckCli, ALargerLaunchInMainIsNoRegression) {
  TempDir dir;
  write_file(dir.file("hw.cu"), kHomework);
  ASSERT_EQ(::system(("mkdir -p '" + dir.file("include") + "'").c_str()), 0);
  write_file(dir.file("include/sizes.h"), "#define TILE 16\n#define SCALE 2.0f\n");
  const std::string config =
      "baseline = \"base.csv\"\n[[kernel]]\nname = \"hw\"\nfile = \"hw.cu\"\n"
      "include_dirs = [\"include\"]\n";
  ASSERT_EQ(check(dir, config, {"--write-baseline", dir.file("base.csv")}).status, 0);
  std::string bigger = kHomework;
  bigger.replace(bigger.find("rows = 100"), 10, "rows = 101");
  write_file(dir.file("hw.cu"), bigger);
  // rows 101: block row 6 gains a warp (rows 100, 101) that splits on the row in each of the 5
  // block columns: 55 of 280 warp evaluations diverge (50 before: 17.86% -> 19.64%); the store
  // runs 7070 lanes in 255 warps (87.5% -> 86.64%). Both within the default tolerance of two
  // percentage points.
  const CliResult r = check(dir, config);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "warpdiv check: 1 kernel, 4 statements: 0 limits crossed, 0 regressions: passed\n");
  // Exactly (no tolerance), both shares are worse.
  const CliResult exact = check(dir, "regression_tolerance = 0\n" + config);
  EXPECT_EQ(exact.status, 1);
  EXPECT_EQ(exact.out,
            "hw.cu:5:3: warning: branch diverges in 19.64% of its warp evaluations (55 of 280), "
            "17.86% in the baseline (50 of 280) (check 'hw') [divergence-regressed]\n"
            "hw.cu:6:5: warning: statement runs at 86.64% SIMD efficiency (7070 of 8160 lanes), "
            "87.5% in the baseline (7000 of 8000) (check 'hw') [simd-efficiency-regressed]\n"
            "warpdiv check: 1 kernel, 4 statements: 0 limits crossed, 2 regressions: FAILED\n");
}

TEST(CheckCli, ASuppressionCommentAllowsItsRulesOnItsStatement) {
  TempDir dir;
  std::string source = kIdiom;
  source.replace(source.find("  if (i < n)"), 0, "  // warpdiv: allow(divergence)\n");
  write_file(dir.file("idiom.cu"), source);
  const std::string limits = "[kernel.limits]\nmax_divergent_fraction = 0.1\n";
  const CliResult r = check(dir, idiom_config(limits), {"--sarif", dir.file("o.sarif")});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out,
            "warpdiv check: 1 kernel, 6 statements: 0 limits crossed, 1 allowed by comments, "
            "1 in single-lane branches not reported: passed\nSARIF written to " +
                dir.file("o.sarif") + "\n");
  EXPECT_NE(read_file(dir.file("o.sarif")).find("\"kind\": \"inSource\""), std::string::npos);
  // A comment after code on the line above is that line's: it allows nothing here.
  source = kIdiom;
  source.replace(source.find("\n  if (i < n)"), 0, "  // warpdiv: allow(divergence)");
  write_file(dir.file("idiom.cu"), source);
  const CliResult above = check(dir, idiom_config(limits));
  EXPECT_EQ(above.status, 1);
  EXPECT_NE(above.out.find("idiom.cu:7:3: warning: branch diverges in 12.5% "), std::string::npos)
      << above.out;
  // Another rule's name does not allow it; an unknown one is a note.
  source = kIdiom;
  source.replace(source.find("    out[i] += 1;"), 0, "");
  source.replace(source.find("  if (i < n)"), 0, "  // warpdiv: allow(simd, divergense)\n");
  write_file(dir.file("idiom.cu"), source);
  const CliResult other = check(dir, idiom_config(limits));
  EXPECT_EQ(other.status, 1);
  EXPECT_NE(other.out.find("idiom.cu:7:6: note: warpdiv: allow(...) names 'divergense', neither a "
                           "rule nor a group"),
            std::string::npos)
      << other.out;
  EXPECT_NE(other.out.find("[divergent-branch]"), std::string::npos) << other.out;
}

TEST(CheckCli, TheSingleLaneIdiomIsItsOwnRuleOffByDefaultOneFindingPerStatement) {
  TempDir dir;
  write_file(dir.file("idiom.cu"), kIdiom);
  const std::string limits = "[kernel.limits]\nmax_divergent_fraction = 0.2\nmin_simd_efficiency = 0.5\n";
  const CliResult hidden = check(dir, idiom_config(limits));
  EXPECT_EQ(hidden.status, 0) << hidden.out;
  EXPECT_EQ(hidden.out,
            "warpdiv check: 1 kernel, 6 statements: 0 limits crossed, 3 in single-lane "
            "branches not reported: passed\n");
  // Reported: the if (4 of 8 = 50%), the for (its init, tests and steps one statement: 10 runs of
  // one lane, 10 / 320) and its body (4 / 128); one finding each.
  const CliResult shown = check(dir, idiom_config(limits + "report_single_lane = true\n"));
  EXPECT_EQ(shown.status, 1);
  EXPECT_EQ(shown.out,
            "idiom.cu:3:3: warning: single-lane branch: branch diverges in 50% of its warp "
            "evaluations (4 of 8), limit 20% [divergent-branch] (check 'idiom') [single-lane-branch]\n"
            "idiom.cu:4:5: warning: in the single-lane branch at 3:3: for condition runs at 3.12% SIMD "
            "efficiency (40 active lanes in 40 warp evaluations of 32), limit 50% [simd-efficiency] "
            "(check 'idiom') [single-lane-branch]\n"
            "idiom.cu:5:7: warning: in the single-lane branch at 3:3: statement runs at 3.12% SIMD "
            "efficiency (16 active lanes in 16 warp evaluations of 32), limit 50% [simd-efficiency] "
            "(check 'idiom') [single-lane-branch]\n"
            "warpdiv check: 1 kernel, 6 statements: 3 limits crossed: FAILED\n");
}

TEST(CheckCli, AnUnreadableKernelAmongReadableOnesIsAFindingAndTheRestIsChecked) {
  TempDir dir;
  write_file(dir.file("idiom.cu"), kIdiom);
  write_file(dir.file("broken.cu"), "__global__ void broken(int *o) {\n  o[threadIdx.x] = ;\n}\n");
  const std::string config = "[[kernel]]\nfile = \"broken.cu\"\ngrid = 1\nblock = 32\n" +
                             idiom_config("[kernel.limits]\nmax_divergent_fraction = 0.1\n") +
                             "[[kernel]]\nname = \"gone\"\nfile = \"gone.cu\"\ngrid = 1\nblock = 32\n";
  const CliResult r = check(dir, config, {"--sarif", dir.file("o.sarif")});
  EXPECT_EQ(r.status, 1);
  // Clang's first error is the finding's place (broken.cu:2:20, the `;` where an expression
  // should be).
  EXPECT_EQ(r.out,
            "broken.cu:2:20: error: cannot check this kernel: Clang refused it: expected expression "
            "(its diagnostics on stderr) (check 'broken') [warpdiv-source-errors]\n"
            "gone.cu: error: cannot check this kernel: file '" +
                dir.file("gone.cu") +
                "' is not a readable regular file (check 'gone') [warpdiv-file-unreadable]\n"
                "idiom.cu:7:3: warning: branch diverges in 12.5% of its warp evaluations (1 of 8), "
                "limit 10% (check 'idiom') [divergent-branch]\n"
                "warpdiv check: 1 kernel, 6 statements: 2 kernels unreadable, 1 limit crossed, 1 in "
                "single-lane branches not reported: FAILED\nSARIF written to " +
                dir.file("o.sarif") + "\n");
  EXPECT_NE(r.err.find("broken.cu:2:20: error: expected expression\n"), std::string::npos) << r.err;
  const std::string sarif = read_file(dir.file("o.sarif"));
  EXPECT_NE(sarif.find("\"ruleId\": \"warpdiv-source-errors\""), std::string::npos);
  EXPECT_NE(sarif.find("\"ruleId\": \"warpdiv-file-unreadable\""), std::string::npos);
  EXPECT_NE(sarif.find("\"level\": \"error\""), std::string::npos);
  EXPECT_NE(sarif.find("\"startColumn\": 20,\n                  \"startLine\": 2"), std::string::npos)
      << sarif;
  // A baseline must hold every kernel: none is written, and one there is left as it was; the
  // SARIF asked for with it is written, with the unreadable kernels' findings.
  const CliResult none = check(dir, config, {"--write-baseline", dir.file("b.csv")});
  EXPECT_EQ(none.status, 1);
  EXPECT_FALSE(file_exists(dir.file("b.csv")));
  EXPECT_NE(
      none.err.find("\nwarpdiv check: --write-baseline: no baseline written to '" + dir.file("b.csv") +
                    "': a baseline needs every kernel, and 2 were not read (the error findings above)\n"),
      std::string::npos)
      << none.err;
  write_file(dir.file("old.csv"), "an earlier baseline\n");
  const CliResult both =
      check(dir, config, {"--sarif", dir.file("both.sarif"), "--write-baseline", dir.file("old.csv")});
  EXPECT_EQ(both.status, 1);
  EXPECT_EQ(read_file(dir.file("old.csv")), "an earlier baseline\n");
  const std::string written = read_file(dir.file("both.sarif"));
  EXPECT_NE(written.find("\"ruleId\": \"warpdiv-source-errors\""), std::string::npos) << written;
  EXPECT_NE(written.find("\"ruleId\": \"warpdiv-file-unreadable\""), std::string::npos) << written;
  EXPECT_NE(both.out.find("FAILED\nSARIF written to " + dir.file("both.sarif") + "\n"), std::string::npos)
      << both.out;
  EXPECT_EQ(both.out.find("Baseline written"), std::string::npos) << both.out;
  EXPECT_NE(both.err.find("no baseline written to '" + dir.file("old.csv") + "'"), std::string::npos)
      << both.err;
}

TEST(CheckCli, AFileNameThatIsNotUtf8IsPercentEncodedInSarif) {
  TempDir dir;
  write_file(dir.file("idiom.cu"), kIdiom);
  const std::string folder = dir.file("d\xE9");
  ASSERT_EQ(::system(("mkdir '" + folder + "'").c_str()), 0);
  write_file(folder + "/inside.cu", kIdiom);
  // The configuration in a folder named with byte 0xE9 (Latin-1's e acute): a kernel outside it
  // with a statement table that matches nothing (a note at the configuration), a kernel that is
  // not there (its name and message hold the byte), and one inside it whose `if (i < n)` (line 7)
  // splits 1 of its 8 warp evaluations (i = 96..127 around n = 100): 12.5%, past a limit of 10%.
  const std::string launch = "grid = 4\nblock = 64\nargs = { n = 100 }\nalloc = { out = 256 }\n";
  write_file(folder + "/c.toml", "root = \"..\"\n[[kernel]]\nfile = \"../idiom.cu\"\n" + launch +
                                     "[[kernel.statement]]\nstatement = \"nothing()\"\n"
                                     "[[kernel]]\nname = \"gone\"\nfile = \"gone.cu\"\n" +
                                     launch + "[[kernel]]\nname = \"inside\"\nfile = \"inside.cu\"\n" +
                                     launch + "[kernel.limits]\nmax_divergent_fraction = 0.1\n");
  const CliResult r = run_warpdiv({"check", folder + "/c.toml", "--sarif", dir.file("o.sarif")});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  const std::string sarif = read_file(dir.file("o.sarif"));
  EXPECT_NE(sarif.find("\"uri\": \"d%E9/c.toml\""), std::string::npos) << sarif;
  EXPECT_NE(sarif.find("\"uri\": \"d%E9/gone.cu\""), std::string::npos) << sarif;
  // The kernel inside is read through the front-end and checked.
  EXPECT_NE(sarif.find("\"uri\": \"d%E9/inside.cu\""), std::string::npos) << sarif;
  EXPECT_NE(
      r.out.find("d\xE9/inside.cu:7:3: warning: branch diverges in 12.5% of its warp evaluations (1 of 8)"),
      std::string::npos)
      << r.out;
  // Messages quote paths with the byte escaped (analysis's SARIF test writes raw bytes too).
  EXPECT_NE(sarif.find("/d\\\\xe9/gone.cu' is not a readable regular file"), std::string::npos) << sarif;
}

// A __device__ function inlined at two calls, and two statements of one text: grid 4, block 32,
// n = 100 (i = 0 .. 127).
// - `if (v >= n)` in clampit, once per call and warp: 8 warp evaluations. Call 1 (v = i) splits
//   warp 3 (i 96 .. 127, 100 and up past n); call 2 (v = i + 7) splits warp 2 (71 .. 102) and
//   takes warp 3 whole (103 .. 134): 2 divergent, one row for both copies.
// - the two `if (i < n)` in twice: warp 3 splits, 1 of 4 each; ordinals 1 and 2.
constexpr const char* kCalls =
    "__device__ int clampit(int v, int n) {\n"
    "  if (v >= n)\n"
    "    return n - 1;\n"
    "  return v;\n"
    "}\n"
    "__global__ void twice(int *out, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[clampit(i, n)] = 1;\n"
    "  out[clampit(i + 7, n)] = 2;\n"
    "  if (i < n) out[i] += 1;\n"
    "  if (i < n) out[i] += 1;\n"
    "}\n";

TEST(CheckCli, InlinedCopiesAreOneStatementOfTheirFunctionAndOrdinalsTellTextsApart) {
  TempDir dir;
  write_file(dir.file("calls.cu"), kCalls);
  const std::string config =
      "[[kernel]]\nfile = \"calls.cu\"\ngrid = 4\nblock = 32\nargs = { n = 100 }\nalloc = { out = 128 }\n"
      "limits = { max_divergent = 0 }\n"
      "[[kernel.statement]]\nfunction = \"twice\"\nstatement = \"if (i < n)\"\nordinal = 2\nmax_divergent = "
      "1\n";
  const CliResult r = check(dir, config, {"--write-baseline", dir.file("b.csv")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "calls.cu:2:3: warning: branch diverges in 2 of its 8 warp evaluations, limit 0 (check "
            "'calls') [divergent-evaluations]\n"
            "calls.cu:10:3: warning: branch diverges in 1 of its 4 warp evaluations, limit 0 (check "
            "'calls') [divergent-evaluations]\n"
            "warpdiv check: 1 kernel, 12 statements: 2 limits crossed: FAILED\n"
            "Baseline written to " +
                dir.file("b.csv") + "\n");
  const std::string csv = read_file(dir.file("b.csv"));
  EXPECT_NE(csv.find("\ncalls,\"clampit(int, int)\",if (v >= n),1,if,calls.cu,2,3,32,8,256,8,2,"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\ncalls,twice,if (i < n),2,if,calls.cu,11,3,32,4,128,4,1,"), std::string::npos) << csv;
  // Each call is one warp evaluation per warp (4, all 128 lanes); its arguments' bindings are part
  // of it, no row of their own and no evaluation added.
  EXPECT_NE(csv.find("\ncalls,twice,\"clampit(i, n)\",1,statement,calls.cu,8,7,32,4,128,"), std::string::npos)
      << csv;
  EXPECT_EQ(csv.find(",i + 7,"), std::string::npos) << csv;
}

// A call whose argument loads memory (`a[t]`, bound to a float parameter) is one statement reached
// once per warp: two warps of 32 lanes, 2 warp evaluations and 64 active lanes, with the load's
// figures (per warp one request for 128 contiguous bytes, 4 sectors); the arguments have no rows.
TEST(CheckCli, ACallWithALoadInAnArgumentIsOneEvaluationPerWarp) {
  TempDir dir;
  write_file(dir.file("a.cu"),
             "__device__ void st(float *p, int i, float v) { p[i] = v; }\n"
             "__global__ void k(float *out, const float *a) {\n"
             "  int t = threadIdx.x;\n"
             "  st(out, t, a[t]);\n"
             "}\n");
  const CliResult r = check(dir, "[[kernel]]\nfile = \"a.cu\"\ngrid = 1\nblock = 64\n",
                            {"--write-baseline", dir.file("b.csv")});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "warpdiv check: 1 kernel, 3 statements: 0 limits crossed: passed");
  EXPECT_NE(read_file(dir.file("b.csv"))
                .find("\na,k,\"st(out, t, a[t])\",1,statement,a.cu,4,3,32,2,64,,,,,2,8,256,,,,\n"),
            std::string::npos)
      << read_file(dir.file("b.csv"));
}

// Two functions of one name (a::f and b::f, the same body) keyed by their qualified names and
// parameter types: moving one above the other changes no key. In the baseline, a::f's `if (i & 2)`
// runs in lanes 0 .. 3 (i < 4) of the one warp, b::f's in all 32 (i + 1 over lanes 0 .. 31);
// swapped, each statement is compared with its own row, so nothing regressed. A statement table
// names a function by its key, its qualified name or its name.
TEST(CheckCli, FunctionsOfOneNameKeepTheirKeysWhereverTheyMove) {
  TempDir dir;
  const std::string a = "namespace a { __device__ void f(int *p, int i) { if (i & 2) p[i] = 2; } }\n";
  const std::string b = "namespace b { __device__ void f(int *p, int i) { if (i & 2) p[i] = 2; } }\n";
  const std::string kernel =
      "__global__ void k(int *o, int n) {\n  int i = threadIdx.x;\n  if (i < 4) a::f(o, i);\n"
      "  b::f(o, i + n);\n}\n";
  write_file(dir.file("mv.cu"), a + b + kernel);
  const std::string config =
      "baseline = \"base.csv\"\n[[kernel]]\nfile = \"mv.cu\"\ngrid = 1\nblock = 32\nargs = { n = 1 }\n";
  ASSERT_EQ(check(dir, config, {"--write-baseline", dir.file("base.csv")}).status, 0);
  const std::string csv = read_file(dir.file("base.csv"));
  EXPECT_NE(csv.find("\nmv,\"a::f(int *, int)\",if (i & 2),1,if,mv.cu,1,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nmv,\"b::f(int *, int)\",if (i & 2),1,if,mv.cu,2,"), std::string::npos) << csv;
  write_file(dir.file("mv.cu"), b + a + kernel);
  const CliResult moved = check(dir, config);
  EXPECT_EQ(moved.status, 0) << moved.out << moved.err;
  for (const char* name : {"a::f(int *, int)", "a::f", "f"}) {
    SCOPED_TRACE(name);
    const CliResult r = check(dir, config + "[[kernel.statement]]\nfunction = \"" + name +
                                       "\"\nstatement = \"if (i & 2)\"\nmax_divergent = 0\n");
    // a::f's branch: lanes 0 .. 3 in, 2 and 3 take it: divergent once; b::f's (i + 1 = 1 .. 32,
    // bit 1 set in half of them) too, where the name matches it.
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("mv.cu:2:"), std::string::npos) << r.out;  // a::f, now on line 2
    EXPECT_EQ(r.out.find("mv.cu:1:") != std::string::npos, std::string(name) == "f") << r.out;
  }
}

// A backslash-newline inside a statement is nothing, as the compiler reads it: the key is the
// joined text, the same as the statement written on one line.
TEST(CheckCli, ALineSpliceInsideAStatementIsPartOfItsKey) {
  TempDir dir;
  write_file(dir.file("s.cu"),
             "__global__ void k(int *o) {\n  int i = threadIdx.x;\n  if (i % 3 == \\\n0) o[i] = 1;\n"
             "  if (i % 3 == \\\n1) o[i] = 2;\n}\n");
  const std::string config = "baseline = \"base.csv\"\n[[kernel]]\nfile = \"s.cu\"\ngrid = 1\nblock = 32\n";
  ASSERT_EQ(check(dir, config, {"--write-baseline", dir.file("base.csv")}).status, 0);
  const std::string csv = read_file(dir.file("base.csv"));
  EXPECT_NE(csv.find("\ns,k,if (i % 3 == 0),1,if,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\ns,k,if (i % 3 == 1),1,if,"), std::string::npos) << csv;
  write_file(dir.file("s.cu"),
             "__global__ void k(int *o) {\n  int i = threadIdx.x;\n  if (i % 3 == 0) o[i] = 1;\n"
             "  if (i % 3 == 1) o[i] = 2;\n}\n");
  const CliResult r = check(dir, config);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("vanished"), std::string::npos) << r.out;
}

// A misaligned load (8-byte float2 elements from byte 4 of f: lane 0 reads bytes 4 .. 11) is
// undefined behaviour the GPU stops the kernel at: an error finding without any limit set.
TEST(CheckCli, AnAccessThatMeetsUndefinedBehaviourFailsWhateverTheLimits) {
  TempDir dir;
  write_file(dir.file("mis.cu"),
             "__global__ void k(int *o, float *f) {\n  int i = threadIdx.x;\n"
             "  float2 v = reinterpret_cast<float2 *>(f + 1)[i];\n  o[i] = (int)v.x;\n}\n");
  const CliResult r =
      check(dir, "[[kernel]]\nfile = \"mis.cu\"\ngrid = 1\nblock = 32\nalloc = { o = 32, f = 128 }\n");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("mis.cu:3:3: error: undefined behaviour in an access: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("moves 8 bytes at byte 4 of 'f', not a multiple of 8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[undefined-behaviour]\n"), std::string::npos) << r.out;
  // The comment allows it, as any rule.
  write_file(dir.file("mis.cu"),
             "__global__ void k(int *o, float *f) {\n  int i = threadIdx.x;\n"
             "  float2 v = reinterpret_cast<float2 *>(f + 1)[i];  // warpdiv: allow(undefined-behaviour)\n"
             "  o[i] = (int)v.x;\n}\n");
  const CliResult allowed =
      check(dir, "[[kernel]]\nfile = \"mis.cu\"\ngrid = 1\nblock = 32\nalloc = { o = 32, f = 128 }\n");
  EXPECT_EQ(allowed.status, 0) << allowed.out << allowed.err;
}

// `guard` at grid 1, block 32, n = 5: `if (i < n)` splits its one warp evaluation (lanes 0 .. 4
// in), 100% over the limit 0. `line` is the kernel's line 3, the branch alone on line 4.
std::string guard_source(const std::string& line, const std::string& branch = "  if (i < n) out[i] = 1;") {
  return "__global__ void guard(int *out, int n) {\n  int i = threadIdx.x;\n" + line + "\n" + branch +
         "\n}\n";
}
const std::string kGuardConfig =
    "[limits]\nmax_divergent_fraction = 0\n[[kernel]]\nfile = \"g.cu\"\n"
    "grid = 1\nblock = 32\nargs = { n = 5 }\n";
const std::string kGuardFinding =
    "g.cu:4:3: warning: branch diverges in 100% of its warp evaluations "
    "(1 of 1), limit 0% (check 'g') [divergent-branch]\n";

CliResult check_guard(const TempDir& dir, const std::string& source, std::vector<std::string> flags = {}) {
  write_file(dir.file("g.cu"), source);
  return check(dir, kGuardConfig, flags);
}

TEST(CheckCli, TextInLiteralsProseAndOtherCommentsSuppressNothing) {
  TempDir dir;
  const std::string failed = "warpdiv check: 1 kernel, 4 statements: 1 limit crossed: FAILED\n";
  // `//` in a string literal (also a raw one) on the statement's line is no comment.
  for (const std::string& literal :
       {std::string("\"http://x/ warpdiv: allow(all)\""), std::string("R\"(// warpdiv: allow(all))\""),
        std::string("\"\\\" // warpdiv: allow(all)\"")}) {
    const CliResult r =
        check_guard(dir, guard_source("  const char *u = " + literal + ";", "  if (i < n) out[i] = u[0];"));
    EXPECT_EQ(r.status, 1) << literal;
    EXPECT_EQ(r.out, kGuardFinding + failed) << literal;
  }
  // A comment that does not start `warpdiv:`: another tool's, or prose quoting one.
  const std::string three = "warpdiv check: 1 kernel, 3 statements: 1 limit crossed: FAILED\n";
  for (const std::string& comment :
       {std::string("  // not-a-warpdiv: allow(divergence)"),
        std::string("  // TODO: remove the old \"warpdiv: allow(divergence)\" comment"),
        std::string("  /* see warpdiv: allow(divergence) */")}) {
    const CliResult r = check_guard(dir, guard_source(comment));
    EXPECT_EQ(r.status, 1) << comment;
    EXPECT_EQ(r.out, kGuardFinding + three) << comment;
  }
  // `warpdiv:` but not the documented form: a note at its `warpdiv:`, and nothing allowed.
  const CliResult unclosed = check_guard(dir, guard_source("  // warpdiv: allow(divergence"));
  EXPECT_EQ(unclosed.status, 1);
  EXPECT_EQ(unclosed.out,
            "g.cu:3:6: note: warpdiv: allow( is not closed by ')' in its comment: it "
            "allows nothing (check 'g') [bad-suppression]\n" +
                kGuardFinding + "warpdiv check: 1 kernel, 3 statements: 1 limit crossed, 1 note: FAILED\n");
  const CliResult other = check_guard(dir, guard_source("  /*  warpdiv: ignore(divergence) */"));
  EXPECT_EQ(other.status, 1);
  EXPECT_EQ(other.out,
            "g.cu:3:7: note: a comment starting 'warpdiv:' must read 'warpdiv: "
            "allow(NAME, ...)': it allows nothing (check 'g') [bad-suppression]\n" +
                kGuardFinding + "warpdiv check: 1 kernel, 3 statements: 1 limit crossed, 1 note: FAILED\n");
}

TEST(CheckCli, TheDocumentedCommentSuppressesAndABadNameIsOneNote) {
  TempDir dir;
  const std::string allowed =
      "warpdiv check: 1 kernel, 3 statements: 0 limits crossed, 1 allowed by "
      "comments: passed\n";
  for (const std::string& source :
       {guard_source("  // warpdiv: allow(divergence)"), guard_source("  /* warpdiv: allow(all) */"),
        guard_source("", "  if (i < n) out[i] = 1;  //warpdiv: allow(divergent-branch) the guard"),
        guard_source("", "  /* warpdiv: allow(divergence) */ if (i < n) out[i] = 1;")}) {
    const CliResult r = check_guard(dir, source);
    EXPECT_EQ(r.status, 0) << source << r.out;
    EXPECT_EQ(r.out, allowed) << source;
  }
  // Two statements start on the commented line (the if and its store): the note once, in SARIF too.
  const CliResult bad =
      check_guard(dir, guard_source("", "  if (i < n) out[i] = 1; // warpdiv: allow(divergence, bogus-rule)"),
                  {"--sarif", dir.file("o.sarif")});
  EXPECT_EQ(bad.status, 0) << bad.out << bad.err;
  EXPECT_EQ(bad.out,
            "g.cu:4:29: note: warpdiv: allow(...) names 'bogus-rule', neither a rule nor a "
            "group (divergence, simd, memory, barrier, single-lane, all, or a rule id): it "
            "allows nothing (check 'g') [bad-suppression]\n"
            "warpdiv check: 1 kernel, 3 statements: 0 limits crossed, 1 note, 1 allowed by "
            "comments: passed\nSARIF written to " +
                dir.file("o.sarif") + "\n");
  const std::string sarif = read_file(dir.file("o.sarif"));
  EXPECT_EQ(sarif.find("\"ruleId\": \"bad-suppression\""), sarif.rfind("\"ruleId\": \"bad-suppression\""));
  EXPECT_NE(sarif.find("\"ruleId\": \"bad-suppression\""), std::string::npos);
}

TEST(CheckCli, ABaselineWhoseFiguresCannotBeIsRefusedAndNothingIsWritten) {
  TempDir dir;
  write_file(dir.file("g.cu"), guard_source(""));
  const std::string config = "baseline = \"b.csv\"\n" + kGuardConfig.substr(kGuardConfig.find("[[kernel]]"));
  ASSERT_EQ(check(dir, config, {"--write-baseline", dir.file("b.csv")}).status, 0);
  const std::string written = read_file(dir.file("b.csv"));
  // The branch's row: 1 warp evaluation of 32 lanes, 1 branch evaluation, 1 divergent.
  const std::string row = "g,guard,if (i < n),1,if,g.cu,4,3,32,1,32,1,1,";
  ASSERT_NE(written.find("\n" + row), std::string::npos) << written;
  const auto refused = [&](const std::string& text, const std::string& message) {
    write_file(dir.file("b.csv"), text);
    const CliResult r = check(dir, config, {"--sarif", dir.file("o.sarif")});
    EXPECT_EQ(r.status, 2) << text;
    EXPECT_EQ(r.err, dir.file("c.toml") + ":1:12: error: " + dir.file("b.csv") + ":3: " + message +
                         " [warpdiv-file-format]\n");
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(file_exists(dir.file("o.sarif")));
  };
  std::string text = written;
  refused(text.replace(text.find(row), row.size(), "g,guard,if (i < n),1,if,g.cu,4,3,32,1,32,1,1000,"),
          "column 'divergent': 1000 is more than branch_evaluations (1): divergent warp evaluations "
          "are some of the branch's");
  text = written;
  refused(
      text.replace(text.find(row), row.size(),
                   "g,guard,if (i < n),1,if,g.cu,4,3,32,1,32,1,"
                   "340282366920938463463374607431768211456,"),
      "column 'divergent': must be a count from 0 to 2^128 - 1 (340282366920938463463374607431768211455), "
      "in decimal digits, got '340282366920938463463374607431768211456'");
  // The branch's row again at the end (line 5), its text spaced otherwise.
  text = written + "g,guard,if (i<n),1,if,g.cu,4,3,32,1,32,1,1,,,,,,,,,\n";
  write_file(dir.file("b.csv"), text);
  const CliResult twice = check(dir, config);
  EXPECT_EQ(twice.status, 2);
  EXPECT_EQ(twice.err, dir.file("c.toml") + ":1:12: error: " + dir.file("b.csv") +
                           ":5: if condition 'if (i<n)' in "
                           "'guard' of check 'g' is given twice, on lines 3 and 5 (one row per statement: "
                           "write the baseline again) [warpdiv-file-content]\n");
}

TEST(CheckCli, AStatementTableMatchesWhateverWhitespaceAndAnUnmatchedOneIsANote) {
  TempDir dir;
  write_file(dir.file("g.cu"), guard_source(""));
  // `if (i<n)` is the branch `if (i < n)`: its 100% under the table's limit 1.
  const CliResult r = check(dir, kGuardConfig +
                                     "[[kernel.statement]]\nstatement = \"if (i<n)\"\n"
                                     "max_divergent_fraction = 1\n");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "warpdiv check: 1 kernel, 3 statements: 0 limits crossed: passed\n");
  // `if (i <= n)` is no statement of the kernel: a note, and the kernel's limit applies.
  const CliResult none = check(dir, kGuardConfig +
                                        "[[kernel.statement]]\nstatement = \"if (i <= n)\"\n"
                                        "max_divergent_fraction = 1\n");
  EXPECT_EQ(none.status, 1);
  EXPECT_EQ(none.out, kGuardFinding +
                          "c.toml:8:1: note: no statement 'if (i <= n)' (statements are compared token "
                          "by token, whitespace aside): these limits apply to nothing; did you mean "
                          "'if (i < n)'? (check 'g') [unused-line-limits]\n"
                          "warpdiv check: 1 kernel, 3 statements: 1 limit crossed, 1 note: FAILED\n");
}

// A comment between a condition and its ')' (on the line, or a `//` comment with the ')' on the
// next line) is no part of the key: the statement is `if (i < n)` as written without it, so a
// statement table names it and the baseline keeps its row.
TEST(CheckCli, ACommentBeforeAConditionsParenthesisLeavesTheKey) {
  const std::string config =
      "[[kernel]]\nfile = \"k.cu\"\ngrid = 1\nblock = 32\nargs = { n = 20 }\n"
      "[[kernel.statement]]\nstatement = \"if (i < n)\"\nmax_divergent_fraction = 0\n";
  const auto kernel = [](const std::string& branch) {
    return "__global__ void k(int *o, int n) {\n  int i = threadIdx.x;\n  " + branch + "\n}\n";
  };
  for (const std::string branch :
       {"if (i < n /* b */) o[i] = 1;", "if (i < n // b\n  ) o[i] = 1;", "if (i < n) o[i] = 1;"}) {
    TempDir dir;
    write_file(dir.file("k.cu"), kernel(branch));
    // Lanes 0 .. 19 take it, 20 .. 31 do not: 1 divergent evaluation of 1, over the table's 0.
    const CliResult r = check(dir, config);
    EXPECT_EQ(r.status, 1) << branch << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("k.cu:3:3: warning: branch diverges"), std::string::npos) << branch << "\n" << r.out;
    EXPECT_EQ(r.out.find("apply to nothing"), std::string::npos) << branch << "\n" << r.out;
    ASSERT_EQ(check(dir, config, {"--write-baseline", dir.file("b.csv")}).status, 1);
    EXPECT_NE(read_file(dir.file("b.csv")).find("\nk,k,if (i < n),1,if,"), std::string::npos) << branch;
  }
  // Parentheses around the condition are part of the key, all of them, a comment before them or not.
  for (const auto& [branch, key] :
       std::vector<std::pair<std::string, std::string>>{{"if ((i < n) /* b */) o[i] = 1;", "if ((i < n))"},
                                                        {"if (((i < n))) o[i] = 1;", "if (((i < n)))"}}) {
    TempDir dir;
    write_file(dir.file("k.cu"), kernel(branch));
    check(dir, config, {"--write-baseline", dir.file("b.csv")});
    EXPECT_NE(read_file(dir.file("b.csv")).find("\nk,k," + key + ",1,if,"), std::string::npos) << branch;
  }
}

// The kernel k(int *o) of one warp, i = threadIdx.x, then `body`, one statement a line from line 3.
std::string one_warp_kernel(const std::vector<std::string>& body) {
  std::string text = "__global__ void k(int *o) {\n  int i = threadIdx.x;\n";
  for (const std::string& line : body) text += "  " + line + "\n";
  return text + "}\n";
}

// A plain `o[i] += 1;` moved below `if (i < 8) o[i] += 1;` changes no figure (the plain store runs
// 32 of 32 lanes, the guarded one 8 of 32, wherever they are): the baseline written before the move
// pairs each with its own row, and the if is there.
TEST(CheckCli, AStatementMovedPastAnIfOfTheSameBodyKeepsItsRow) {
  TempDir dir;
  const std::string config =
      "baseline = \"b.csv\"\n[[kernel]]\nfile = \"k.cu\"\ngrid = [1, 1, 1]\nblock = [32, 1, 1]\n";
  write_file(dir.file("k.cu"), one_warp_kernel({"o[i] += 1;", "if (i < 8) o[i] += 1;"}));
  ASSERT_EQ(check(dir, config, {"--write-baseline", dir.file("b.csv")}).status, 0);
  const std::string csv = read_file(dir.file("b.csv"));
  EXPECT_NE(csv.find("\nk,k,o[i] += 1,1,statement,k.cu,3,3,32,1,32,,,,,2,8,256,,,,\n"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\nk,k,o[i] += 1,2,statement,k.cu,4,14,32,1,8,,,,,2,2,64,,,,if (i < 8)\n"),
            std::string::npos)
      << csv;
  write_file(dir.file("k.cu"), one_warp_kernel({"if (i < 8) o[i] += 1;", "o[i] += 1;"}));
  const CliResult moved = check(dir, config);
  EXPECT_EQ(moved.status, 0) << moved.out << moved.err;
  EXPECT_EQ(moved.out, "warpdiv check: 1 kernel, 4 statements: 0 limits crossed, 0 regressions: passed\n");
}

// Every edit of five lines (nine statements, texts repeated: `o[i] += 1` three times, `if (i < 8)`
// twice) that changes no figure of the statements it leaves alone: each line moved to each place,
// each duplicated, each deleted. Each edit is one [[kernel]] (e0 .. e29) checked against the
// baseline written before it: nothing regresses, and only the deleted line's statements vanish
// (one note each, at the line the baseline had them on).
TEST(CheckCli, MovedDuplicatedOrDeletedStatementsLeaveTheOthersPaired) {
  const std::vector<std::string> lines = {"o[i] += 1;", "if (i < 8) o[i] += 1;", "if (i < 16) o[i] += 1;",
                                          "o[i] += 2;", "if (i < 8) o[i] += 2;"};
  std::vector<std::vector<std::string>> edits;
  std::vector<int> deleted;  // the line each edit deleted, -1 for none
  for (std::size_t from = 0; from < lines.size(); ++from)
    for (std::size_t to = 0; to < lines.size(); ++to) {
      if (from == to) continue;
      std::vector<std::string> e = lines;
      e.erase(e.begin() + static_cast<std::ptrdiff_t>(from));
      e.insert(e.begin() + static_cast<std::ptrdiff_t>(to), lines[from]);
      edits.push_back(e);
      deleted.push_back(-1);
    }
  for (std::size_t k = 0; k < lines.size(); ++k) {
    std::vector<std::string> twice = lines, without = lines;
    twice.insert(twice.begin() + static_cast<std::ptrdiff_t>(k), lines[k]);
    without.erase(without.begin() + static_cast<std::ptrdiff_t>(k));
    edits.push_back(twice);
    deleted.push_back(-1);
    edits.push_back(without);
    deleted.push_back(static_cast<int>(k));
  }
  ASSERT_EQ(edits.size(), 30u);
  TempDir dir;
  std::string config = "baseline = \"b.csv\"\n";
  for (std::size_t e = 0; e < edits.size(); ++e) {
    const std::string name = "e" + std::to_string(e);
    config += "[[kernel]]\nname = \"" + name + "\"\nfile = \"" + name + ".cu\"\ngrid = 1\nblock = 32\n";
    write_file(dir.file(name + ".cu"), one_warp_kernel(lines));
  }
  ASSERT_EQ(check(dir, config, {"--write-baseline", dir.file("b.csv")}).status, 0);
  std::vector<std::string> expected;  // each note's place and the kind of statement it names
  for (std::size_t e = 0; e < edits.size(); ++e) {
    write_file(dir.file("e" + std::to_string(e) + ".cu"), one_warp_kernel(edits[e]));
    if (deleted[e] < 0) continue;
    const std::string at = "e" + std::to_string(e) + ".cu:" + std::to_string(deleted[e] + 3) + ":";
    expected.push_back(at + "3: statement");
    const std::size_t body = lines[deleted[e]].find(") ");  // the guarded store, after `if (...) `
    if (body != std::string::npos) {
      expected.back() = at + "3: if";
      expected.push_back(at + std::to_string(3 + body + 2) + ": statement");
    }
  }
  const CliResult r = check(dir, config);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  std::vector<std::string> got;  // likewise, or the whole line of any other finding
  std::size_t start = 0;
  for (std::size_t end; (end = r.out.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = r.out.substr(start, end - start);
    const std::size_t note = line.find(": note: ");
    if (line.rfind("warpdiv check:", 0) == 0) continue;
    if (line.find("[baseline-vanished]") == std::string::npos || note == std::string::npos)
      got.push_back(line);
    else
      got.push_back(line.substr(0, note + 1) +
                    (line.compare(note + 8, 3, "if ") == 0 ? " if" : " statement"));
  }
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected) << r.out;
}

// An args value the parameter's type cannot take is the configuration's error at the value, as
// written: int n takes -2^31 .. 2^31 - 1, unsigned m 0 .. 2^32 - 1, neither a decimal.
TEST(CheckCli, AnArgsValueOutsideItsParametersTypeIsRefusedAtTheValue) {
  TempDir dir;
  write_file(
      dir.file("k.cu"),
      "__global__ void k(int *o, int n, unsigned m) {\n  int i = threadIdx.x;\n  if (i < n) o[i] = m;\n}\n");
  const std::string head = "[[kernel]]\nfile = \"k.cu\"\ngrid = [1, 1, 1]\nblock = [32, 1, 1]\n";
  const std::string int_range =
      ": the parameter n of k is int32, which takes an integer from -2147483648 to 2147483647";
  const std::string unsigned_range =
      ": the parameter m of k is uint32, which takes an integer from 0 to 4294967295";
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"args = { n = 20.0, m = 1 }", "5:14: error: args.n = 20.0" + int_range},
           {"args = { n = 2e1, m = 1 }", "5:14: error: args.n = 2e1" + int_range},
           {"args = { n = 4294967296, m = 1 }", "5:14: error: args.n = 4294967296" + int_range},
           {"args = { n = 2147483648, m = 1 }", "5:14: error: args.n = 2147483648" + int_range},
           {"args = { n = -2147483649, m = 1 }", "5:14: error: args.n = -2147483649" + int_range},
           {"args = { n = 8, m = -1 }", "5:21: error: args.m = -1" + unsigned_range},
           {"args = { n = 8, m = 4294967296 }", "5:21: error: args.m = 4294967296" + unsigned_range},
           {"[kernel.args]\nn = 0x10\nm = 1.5", "7:5: error: args.m = 1.5" + unsigned_range}}) {
    const CliResult r = check(dir, head + args + "\n", {"--sarif", dir.file("o.sarif")});
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err, dir.file("c.toml") + ":" + message + " [warpdiv-flag-value]\n") << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_FALSE(file_exists(dir.file("o.sarif"))) << args;
  }
  const CliResult text = check(dir, head + "args = { n = 8, m = \"abc\" }\n");
  EXPECT_EQ(text.status, 2);
  EXPECT_EQ(text.err.rfind(dir.file("c.toml") + ":5:21: error: args 'm' must be a decimal integer", 0), 0u)
      << text.err;
  // The ends of the ranges are taken: lanes 0 .. 7 store, 1 divergent evaluation of 1.
  for (const std::string args : {"args = { n = 8, m = 4294967295 }", "args = { n = 8, m = 0 }"}) {
    const CliResult ok = check(dir, head + args + "\n");
    EXPECT_EQ(ok.status, 0) << args << ok.err;
    EXPECT_EQ(ok.out, "warpdiv check: 1 kernel, 3 statements: 0 limits crossed: passed\n") << args;
  }
  EXPECT_EQ(check(dir, head + "args = { n = -2147483648, m = 1 }\n").status, 0);
  EXPECT_EQ(check(dir, head + "args = { n = 2147483647, m = 1 }\n").status, 0);
}

}  // namespace
}  // namespace warpdiv::testing

namespace warpdiv::testing {
namespace {

// A configuration's args are the configuration's: a name that is no parameter (nor used by grid
// or block) and a float past its type's range are refused at the value, exit 2, as an int's
// range is; a launch read from main() names the keys it takes from the configuration.
TEST(CheckCli, ConfigurationArgsRefusedAtTheirPlaceAndNamedInTheNote) {
  TempDir dir;
  write_file(dir.file("k.cu"),
             "__global__ void k(int *o, int n, float f) { if (threadIdx.x < n) o[threadIdx.x] = 1; }\n"
             "int main() { int *d = 0; k<<<1, 64>>>(d, 7, 1.0f); }\n");
  const auto config = [&](const std::string& args) {
    write_file(dir.file("c.toml"), "[[kernel]]\nfile = \"k.cu\"\nargs = { " + args + " }\n");
    return run_warpdiv({"check", dir.file("c.toml")});
  };
  const CliResult unknown = config("g = 2");
  EXPECT_EQ(unknown.status, 2) << unknown.out;
  EXPECT_TRUE(contains(unknown.err, "c.toml:3:14: error: args.g: k has no parameter g")) << unknown.err;
  const CliResult far = config("f = 1e39");
  EXPECT_EQ(far.status, 2) << far.out;
  EXPECT_TRUE(contains(far.err, "c.toml:3:14: error: args.f = 1e39: ")) << far.err;
  EXPECT_TRUE(contains(far.err, "is outside float's range")) << far.err;
  const CliResult given = config("n = 40");
  EXPECT_EQ(given.status, 0) << given.out << given.err;
  EXPECT_TRUE(contains(given.err, "(from the configuration: args.n)")) << given.err;
}

}  // namespace
}  // namespace warpdiv::testing
