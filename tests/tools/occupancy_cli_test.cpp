// `warpdiv occupancy` and `warpdiv analyze --gpu` through the real binary: the lecture's figures,
// the CSV, the presets file found from anywhere, and every bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

namespace fs = std::filesystem;

// "  Block Limit Warps     6   ..." -> the value after the label.
std::string value_of(const std::string& report, const std::string& label) {
  const std::regex re("\\n  " + label + " +([^ \\n]+)");
  std::smatch m;
  return std::regex_search(report, m, re) ? m[1].str() : "(missing)";
}

TEST(OccupancyCli, LectureTile16) {
  // The lecture: 16 KB / 2 KB = 8 blocks by shared memory, 1536 / 256 = 6 by threads: 6 active.
  const CliResult r = run_warpdiv({"occupancy", "--gpu", "lecture-16k", "--regs", "16", "--tile", "16"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(value_of(r.out, "Block Limit Shared Mem"), "8") << r.out;
  EXPECT_EQ(value_of(r.out, "Block Limit Warps"), "6") << r.out;
  EXPECT_EQ(value_of(r.out, "Theoretical Active Blocks per SM"), "6") << r.out;
  EXPECT_EQ(value_of(r.out, "Theoretical Active Warps per SM"), "48") << r.out;
  EXPECT_EQ(value_of(r.out, "Limiter"), "warps") << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(OccupancyCli, LectureTile32) {
  // 16 KB / 8 KB = 2 blocks by shared memory, 1536 / 1024 = 1 by threads: 1 active, 32 of 48 warps.
  const CliResult r = run_warpdiv({"occupancy", "--gpu", "lecture-16k", "--regs", "16", "--tile", "32"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(value_of(r.out, "Block Limit Shared Mem"), "2") << r.out;
  EXPECT_EQ(value_of(r.out, "Block Limit Warps"), "1") << r.out;
  EXPECT_EQ(value_of(r.out, "Theoretical Active Blocks per SM"), "1") << r.out;
  EXPECT_EQ(value_of(r.out, "Theoretical Occupancy"), "66.67") << r.out;
}

TEST(OccupancyCli, CsvHasTheSchemaAndReplacesAtomically) {
  TempDir dir;
  const std::string csv = dir.file("occ.csv");
  write_file(csv, "old\n");
  const CliResult r =
      run_warpdiv({"occupancy", "--gpu", "lecture-16k", "--regs", "16", "--tile", "32", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(csv),
            "gpu,threads_per_block,regs_per_thread,smem_per_block,limit_warps,limit_blocks,"
            "limit_registers,limit_shared_mem,active_blocks,active_warps,occupancy_pct,limiter\n"
            "lecture-16k,1024,16,8192,1,8,2,2,1,32,66.67,warps\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"occ.csv"});
}

TEST(OccupancyCli, ThreadsSmemDynamicAndCarveout) {
  // H100, 128 threads, 40 registers = 1280 per warp: 12 warps per partition, 48 / 4 = 12 blocks.
  // 4096 static + 8192 dynamic + 1024 reserved = 13312; carveout 50% -> 132 KB: 135168 / 13312 = 10.
  const CliResult r = run_warpdiv({"occupancy", "--gpu", "H100", "--threads", "128", "--regs", "40", "--smem",
                                   "4096", "--dynamic-smem", "8192", "--carveout", "50"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(value_of(r.out, "Block Limit Registers"), "12") << r.out;
  EXPECT_EQ(value_of(r.out, "Shared Memory Configuration Size"), "135168") << r.out;
  EXPECT_EQ(value_of(r.out, "Block Limit Shared Mem"), "10") << r.out;
  EXPECT_EQ(value_of(r.out, "Theoretical Active Blocks per SM"), "10") << r.out;
  EXPECT_EQ(value_of(r.out, "Limiter"), "shared_memory") << r.out;
}

TEST(OccupancyCli, SmemOverridesTheTilesStaticFigure) {
  // T = 16 with --smem 0 on the lecture SM: no shared memory, so warps (6) limit alone.
  const CliResult r =
      run_warpdiv({"occupancy", "--gpu", "lecture-16k", "--regs", "16", "--tile", "16", "--smem", "0"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(value_of(r.out, "Block Limit Shared Mem"), "unlimited") << r.out;
}

TEST(OccupancyCli, ALaunchThatCannotRunIsAResult) {
  TempDir dir;
  const std::string csv = dir.file("occ.csv");
  const CliResult r = run_warpdiv({"occupancy", "--gpu", "h100", "--threads", "2048", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Cannot run: a block of 2048 threads exceeds the 1024 threads per block"))
      << r.out;
  // Registers 32: 1024 per warp, 64 warps for the SM / 64 per block = 1; warps 0.
  EXPECT_TRUE(contains(read_file(csv), "\nh100,2048,32,0,0,32,1,228,0,0,0.00,warps\n")) << read_file(csv);
}

TEST(OccupancyCli, ListsThePresets) {
  const CliResult r = run_warpdiv({"occupancy", "--gpu", "list"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* name : {"lecture-16k", "fermi", "kepler", "maxwell", "pascal", "volta", "turing", "a100",
                           "rtx3090", "rtx4090", "h100", "h200", "b200", "rtx5090"})
    EXPECT_TRUE(contains(r.out, std::string("\n  ") + name + " ")) << name << r.out;
}

TEST(OccupancyCli, FindsThePresetsFromAnyFolderAndBesideACopiedBinary) {
  TempDir elsewhere;
  // From another working directory.
  CliResult r = run_in(elsewhere.path(), WARPDIV_BINARY, {"occupancy", "--gpu", "h100"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(value_of(r.out, "Theoretical Active Blocks per SM"), "8") << r.out;
  // A copy of the binary with its own gpus.csv beside it uses that file.
  const std::string copy = elsewhere.file("warpdiv");
  fs::copy_file(WARPDIV_BINARY, copy);
  std::string presets = read_file(WARPDIV_SOURCE_DIR "/data/gpus.csv");
  const std::string h100_row = presets.substr(presets.find("\nh100,") + 1);
  presets += "mine" + h100_row.substr(4, h100_row.find('\n') - 4) + "\n";
  write_file(elsewhere.file("gpus.csv"), presets);
  r = run_in("/", copy, {"occupancy", "--gpu", "list"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, elsewhere.file("gpus.csv"))) << r.out;
  EXPECT_TRUE(contains(r.out, "\n  mine ")) << r.out;
  // Without it, the copy falls back to the source tree's data/gpus.csv.
  fs::remove(elsewhere.file("gpus.csv"));
  r = run_in("/", copy, {"occupancy", "--gpu", "list"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "data/gpus.csv")) << r.out;
}

TEST(OccupancyCli, GpuFileLoadsAUsersPresets) {
  TempDir dir;
  const std::string file = dir.file("my gpus.csv");
  std::string presets = read_file(WARPDIV_SOURCE_DIR "/data/gpus.csv");
  write_file(file, presets);
  const CliResult r =
      run_warpdiv({"occupancy", "--gpu-file", file, "--gpu", "lecture-16k", "--regs", "16", "--tile", "16"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(value_of(r.out, "Theoretical Active Blocks per SM"), "6") << r.out;
}

TEST(AnalyzeCli, GpuAddsTheOccupancyOfTheAnalysedLaunch) {
  const CliResult r = run_warpdiv({"analyze", "--gpu", "lecture-16k", "--regs", "16", "--tile", "32"});
  ASSERT_EQ(r.status, 0) << r.err;
  // The report itself, for 100 x 100 with T = 32: 4 x 4 blocks of 32 one-row warps, 4 phases,
  // 16 * 32 * 4 = 2048 warp-phases. Only the last phase (columns 96..99) splits tx < 4, in every
  // warp whose row is in range: 3 full block-rows of 32 warps plus rows 96..99 (4 warps), times 4
  // block-columns = 400.
  EXPECT_TRUE(contains(r.out, "\n  load_M   400/2048 (19.53%)\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "Occupancy on lecture-16k")) << r.out;
  EXPECT_EQ(value_of(r.out, "Block Limit Shared Mem"), "2") << r.out;
  EXPECT_EQ(value_of(r.out, "Theoretical Active Blocks per SM"), "1") << r.out;
  // Without --gpu there is no occupancy block.
  EXPECT_FALSE(contains(run_warpdiv({"analyze"}).out, "Occupancy on"));
}

// ---------------------------------------------------------------------------------------------
// A kernel file: compiled for the preset's architecture (the registers themselves are checked
// against the cubin in tests/kernels/compiled_resources_test.cpp).

const std::string kZoo = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/";
const char* const kNvcc = "/usr/local/cuda/bin/nvcc";

// `warpdiv ARGS` with $WARPDIV_NVCC naming a compiler that does not exist.
CliResult run_without_nvcc(const std::string& args) {
  return run_shell("WARPDIV_NVCC=/nonexistent/nvcc '" + warpdiv_binary() + "' " + args);
}

TEST(OccupancyCli, KernelFileTakesTheCompiledFigures) {
  if (!fs::exists(kNvcc)) GTEST_SKIP() << kNvcc << " is absent";
  const CliResult r =
      run_warpdiv({"occupancy", kZoo + "tiled_matmul.cu", "--block", "16,16", "--gpu", "h100"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out,
                       "\n  Kernel MatrixMulKernel(float*, float*, float*, int): 0 bytes "
                       "local memory per thread (0 bytes spill stores), 1 barrier, for sm_90\n"))
      << r.out;
  // Two 16 x 16 float tiles: 2*16*16*4 = 2048 bytes, + 1 KB reserve = 3072; 233472 / 3072 = 76.
  EXPECT_EQ(value_of(r.out, "Static Shared Memory Per Block"), "2048") << r.out;
  EXPECT_TRUE(contains(r.out, "bytes, from nvcc ")) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("Registers Per Thread +[0-9]+   from nvcc [0-9.]+ "
                                                  "for sm_90 \\(ptxas\\); ")))
      << r.out;
  EXPECT_EQ(value_of(r.out, "Block Limit Shared Mem"), "76") << r.out;
  EXPECT_EQ(value_of(r.out, "Block Size"), "256") << r.out;
  // The same kernel for an RTX 3090 (cc 8.6): 102400 / 3072 = 33 blocks by shared memory.
  const CliResult ampere =
      run_warpdiv({"occupancy", kZoo + "tiled_matmul.cu", "--block", "16,16", "--gpu", "rtx3090"});
  ASSERT_EQ(ampere.status, 0) << ampere.err;
  EXPECT_TRUE(contains(ampere.out, "for sm_86 (ptxas)")) << ampere.out;
  EXPECT_EQ(value_of(ampere.out, "Block Limit Shared Mem"), "33") << ampere.out;
}

TEST(OccupancyCli, RegsAndSmemNeedNoCompiler) {
  // 64 registers: 2048 per warp; 65536 / 4 partitions = 16384 = 8 warps each, 32 in all; / 8
  // warps per block (16 x 16) = 4 blocks. 4096 + 1024 bytes: 233472 / 5120 = 45.
  const CliResult r = run_without_nvcc("occupancy '" + kZoo +
                                       "tiled_matmul.cu' --block 16,16 "
                                       "--gpu h100 --regs 64 --smem 4096");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "from --regs; -> 2048 per warp")) << r.out;
  EXPECT_TRUE(contains(r.out, "4096   bytes, from --smem")) << r.out;
  EXPECT_EQ(value_of(r.out, "Block Limit Registers"), "4") << r.out;
  EXPECT_EQ(value_of(r.out, "Block Limit Shared Mem"), "45") << r.out;
}

TEST(OccupancyCli, WithoutACompilerExitsThreeWithOneLine) {
  for (const std::string& args :
       {"occupancy '" + kZoo + "tiled_matmul.cu' --block 16,16 --gpu h100 --regs 32",
        "analyze '" + kZoo + "naive_matmul.cu' --grid 1 --block 32 --arg Width=8 --gpu h100"}) {
    SCOPED_TRACE(args);
    const CliResult r = run_without_nvcc(args);
    EXPECT_EQ(r.status, 3) << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(contains(r.err, "needs nvcc or NVRTC")) << r.err;
    EXPECT_TRUE(contains(r.err, "--regs R and --smem BYTES")) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;  // refused before the replay
  }
}

// WARPDIV_NVRTC naming what is not NVRTC is bad input naming it, never a silent fall back to the
// system's libnvrtc (WARPDIV_NVCC empty: no nvcc, so NVRTC compiles).
TEST(OccupancyCli, AWrongWarpdivNvrtcIsRefusedNamingIt) {
  TempDir dir;
  write_file(dir.file("text.so"), "not a library\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {dir.file("missing.so"), "it cannot be opened"},
      {dir.file("text.so"), "it is not an ELF shared object"},
      {"/dev/zero", "it is not a regular file"}};
  for (const auto& [library, why] : cases) {
    SCOPED_TRACE(library);
    const CliResult r = run_shell("WARPDIV_NVCC= WARPDIV_NVRTC='" + library + "' '" + warpdiv_binary() +
                                  "' occupancy '" + kZoo + "tiled_matmul.cu' --block 16,16 --gpu h100");
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(contains(r.err, "WARPDIV_NVRTC names " + library + ": " + why)) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(AnalyzeCli, KernelFileWithGpuAddsItsCompiledOccupancy) {
  if (!fs::exists(kNvcc)) GTEST_SKIP() << kNvcc << " is absent";
  const CliResult r = run_warpdiv(
      {"analyze", kZoo + "reduction_contiguous.cu", "--grid", "4", "--block", "256", "--gpu", "rtx3090"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Occupancy on rtx3090")) << r.out;
  // partialSum[2*BLOCK_SIZE] floats: 2*256*4 = 2048 bytes; 1536 threads / 256 = 6 blocks by warps.
  EXPECT_EQ(value_of(r.out, "Static Shared Memory Per Block"), "2048") << r.out;
  EXPECT_EQ(value_of(r.out, "Block Limit Warps"), "6") << r.out;
  EXPECT_TRUE(contains(r.out, "\n  Kernel reduce(float*, float*): ")) << r.out;
}

class OccupancyBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(OccupancyBadInput, ExitsTwoWithOneLineAndNoFile) {
  TempDir dir;
  const std::string csv = dir.file("out.csv");
  write_file(csv, "precious\n");
  std::vector<std::string> args = GetParam().args;
  for (std::string& a : args)
    if (a.rfind("@", 0) == 0) {  // "@name:contents" -> a file in dir
      const std::size_t colon = a.find(':');
      write_file(dir.file(a.substr(1, colon - 1)), a.substr(colon + 1));
      a = dir.file(a.substr(1, colon - 1));
    }
  args.push_back("--csv");
  args.push_back(csv);
  const CliResult r = run_warpdiv(args);
  expect_refusal(r, GetParam());
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(read_file(csv), "precious\n");
}

const std::string kHeader =
    "name,description,cc,sm_count,warp_size,max_threads_per_block,max_threads_per_sm,"
    "max_blocks_per_sm,registers_per_sm,registers_per_block,max_registers_per_thread,"
    "register_allocation_unit,warp_allocation_granularity,shared_memory_per_sm,"
    "shared_memory_per_block,shared_memory_per_block_optin,shared_memory_allocation_unit,"
    "reserved_shared_memory_per_block,shared_memory_carveouts_kb,barriers_per_sm,source\n";
const std::string kRow =
    "x,X,9.0,132,32,1024,2048,32,65536,65536,255,256,4,233472,49152,232448,128,"
    "1024,0;8;16;32;64;100;132;164;196;228,64,s\n";

INSTANTIATE_TEST_SUITE_P(
    Flags, OccupancyBadInput,
    ::testing::Values(
        BadInput{{"occupancy"}, "--gpu NAME is required"},
        BadInput{{"occupancy", "--gpu", "h300"}, "--gpu must name a GPU of"},
        BadInput{{"occupancy", "--gpu", "h100", "--tile", "0"}, "--tile must be an integer from 1 to 256"},
        BadInput{{"occupancy", "--gpu", "h100", "--tile", "257"}, "--tile must be an integer from 1 to 256"},
        BadInput{{"occupancy", "--gpu", "h100", "--threads", "0"},
                 "--threads must be an integer from 1 to 65536"},
        BadInput{{"occupancy", "--gpu", "h100", "--threads", "1e3"}, "--threads must be an integer"},
        BadInput{{"occupancy", "--gpu", "h100", "--tile", "16", "--threads", "256"}, "cannot be combined"},
        BadInput{{"occupancy", "--gpu", "h100", "--regs", "-1"}, "--regs must be an integer from 0 to 1024"},
        BadInput{{"occupancy", "--gpu", "h100", "--regs", "1025"},
                 "--regs must be an integer from 0 to 1024"},
        BadInput{{"occupancy", "--gpu", "h100", "--smem", "lots"},
                 "--smem must be an integer from 0 to 1073741824"},
        BadInput{{"occupancy", "--gpu", "h100", "--dynamic-smem", "-5"},
                 "--dynamic-smem must be an integer from 0"},
        BadInput{{"occupancy", "--gpu", "h100", "--carveout", "101"},
                 "--carveout must be an integer from 0 to 100"},
        BadInput{{"occupancy", "--gpu", "h100", "--bogus"}, "unrecognised option '--bogus'"},
        BadInput{{"occupancy", "--gpu", "h100", "--gpu-file", "/nonexistent.csv"},
                 "--gpu-file: '/nonexistent.csv' cannot be read"},
        BadInput{{"occupancy", "--gpu", "x", "--gpu-file",
                  "@a.csv:" + kHeader +
                      "x,X,9.0,132,32,1024,2048,32,many"
                      ",65536,255,256,4,233472,49152,232448,128,1024,0;228,64,s\n"},
                 "a.csv:2: column 'registers_per_sm': 'many' is not a non-negative integer"},
        BadInput{{"occupancy", "--gpu", "x", "--gpu-file", "@b.csv:" + kHeader + kRow + "X" + kRow.substr(1)},
                 "b.csv:3: column 'name': duplicate name 'X'"},
        BadInput{{"occupancy", "--gpu", "x", "--gpu-file",
                  "@c.csv:# note\n" + kHeader + "x,X,9.0,-132" + kRow.substr(11)},
                 "c.csv:3: column 'sm_count': '-132' is negative"},
        BadInput{{"occupancy", "--gpu", "x", "--gpu-file",
                  "@d.csv:" + kHeader.substr(kHeader.find(',') + 1) + kRow.substr(2)},
                 "d.csv:1: header: column 'name' is missing"},
        BadInput{{"occupancy", kZoo + "tiled_matmul.cu", "--gpu", "h100"}, "needs --block X[,Y[,Z]]"},
        BadInput{{"occupancy", kZoo + "tiled_matmul.cu", "--gpu", "h100", "--block", "16,16", "--tile", "16"},
                 "--tile does not apply to a kernel file"},
        BadInput{{"occupancy", kZoo + "tiled_matmul.cu", "--gpu", "h100", "--block", "32,33"}, "--block"},
        BadInput{{"occupancy", "--gpu", "h100", "--block", "16,16"}, "--block applies to a kernel file"},
        BadInput{{"occupancy", "/nonexistent/k.cu", "--gpu", "h100", "--block", "16"},
                 "cannot read /nonexistent/k.cu"},
        BadInput{{"analyze", kZoo + "naive_matmul.cu", "--grid", "1", "--block", "32", "--arg", "Width=8",
                  "--regs", "16"},
                 "--regs needs --gpu NAME"},
        BadInput{{"analyze", "--regs", "16"}, "--regs and --gpu-file need --gpu NAME"},
        BadInput{{"analyze", "--gpu", "h100", "--warp-size", "16"},
                 "--warp-size 16 differs from the warp size 32"},
        BadInput{{"analyze", "--gpu", "nope"}, "--gpu must name a GPU of"},
        BadInput{{"analyze", "--gpu", "h100", "--regs", "x"}, "--regs must be an integer from 0 to 1024"}));

}  // namespace
}  // namespace warpdiv::testing
