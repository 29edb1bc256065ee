// The class engine's memory figures through the CLI: exact at a launch far
// past what the replay could count, and per block class in the --by-class CSV, every figure
// worked out by hand from the naive multiply's loop (kernels/zoo/naive_matmul.cu).
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "tests/text_helpers.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

const std::string kNaive = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/naive_matmul.cu";

// Width = 46340, 16 x 16 blocks, grid 2897 x 2897 (8.4 million blocks; 3.1 x 10^12 warp loads of
// each matrix). Warps with a lane inside P: 23170 row pairs x 2897 block columns = 67,123,490,
// each running k = 0 .. 46339. M[Row*Width+k]: one word per row of the warp, 2 sectors per
// request. N[k*Width+Col]: row k starts at 185,360k = 16k bytes (mod 32): a full block column's
// 16 floats cover 2 sectors for even k and 3 for odd k (115,850 per warp), the last column's 4
// floats 1 (46,340 per warp). Loads: 2 x 67,123,490 x 46340 = 6,221,005,053,200 requests;
// sectors 6,221,005,053,200 (M) + 23170 x (2896 x 115,850 + 46,340) = 7,774,645,769,800 (N).
// FLOP: 2 per k and thread: 2 x 46340^3 = 199,020,624,208,000.
TEST(MemoryClassesCli, NaiveMultiplyAtScaleByHand) {
  const CliResult r =
      run_warpdiv({"analyze", kNaive, "--grid", "2897,2897", "--block", "16,16", "--arg", "Width=46340"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Block classes (found by the class engine")) << r.out;
  EXPECT_TRUE(contains(r.out, "global loads:   6221005053200 requests, 13995650823000 sectors")) << r.out;
  EXPECT_TRUE(contains(r.out, "floating-point operations: 199020624208000")) << r.out;
  EXPECT_FALSE(contains(r.out + r.err, "not counted")) << r.out << r.err;
}

// Width = 17, grid 2 x 2: four classes of one block each. Line 18 (M and N) per block, by hand
// (N's row k starts at 68k = 4k bytes mod 32: 16 floats cover 2 sectors for k = 0, 8, 16 and 3
// for the 14 others: 48 per warp-row pair; 1 float (column 16) 1 sector):
//   (0, 0): 8 warps: N 8 x 48 = 384, M 8 x 17 k x 2 rows = 272          -> 656
//   (1, 0): 8 warps, column 16 only: N 8 x 17 = 136, M 272              -> 408
//   (0, 1): warp 0, row 16 only: N 48, M 17                             -> 65
//   (1, 1): one lane (16, 16): N 17, M 17                               -> 34
// and their sum, 1,163, is the whole launch's.
TEST(MemoryClassesCli, ByClassCsvHasEachClassesSectors) {
  TempDir dir;
  const std::string csv = dir.file("c.csv"), whole = dir.file("w.csv");
  CliResult r = run_warpdiv({"analyze", kNaive, "--grid", "2,2", "--block", "16,16", "--arg", "Width=17",
                             "--by-class", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_warpdiv(
      {"analyze", kNaive, "--grid", "2,2", "--block", "16,16", "--arg", "Width=17", "--csv", whole});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(read_file(csv));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = csv_fields(line);
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t sectors = column("global_sectors"), at = column("line"), rep = column("representative");
  const std::size_t loop_line = column("loop_line");
  std::map<std::string, std::string> by_block;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = csv_fields(line);
    ASSERT_EQ(f.size(), header.size()) << line;
    if (f[at] == "18" && f[loop_line].empty()) by_block[f[rep]] = f[sectors];
  }
  ASSERT_EQ(by_block.size(), 4u);
  EXPECT_EQ(by_block["(0, 0, 0)"], "656");
  EXPECT_EQ(by_block["(1, 0, 0)"], "408");
  EXPECT_EQ(by_block["(0, 1, 0)"], "65");
  EXPECT_EQ(by_block["(1, 1, 0)"], "34");
  std::istringstream w(read_file(whole));
  std::getline(w, line);
  bool found = false;
  while (std::getline(w, line)) {
    const std::vector<std::string> f = csv_fields(line);
    if (f[at] != "18" || f[column("kind")] == "if") continue;
    EXPECT_EQ(f[sectors], "1163") << line;
    found = true;
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace warpdiv::testing

namespace warpdiv::testing {
namespace {

// ncu-check refuses, before looking for a GPU (exit 2, one line, no file), a launch it cannot
// compare: a global access the model cannot place (a pointer read from memory), or an address
// that is undefined (an index overflowing int), and a --dynamic-smem past the GPU's room.
TEST(MemoryClassesCli, NcuCheckRefusesWhatItCannotCompare) {
  TempDir dir;
  write_file(dir.file("gather.cu"),
             "__global__ void gather(float **rows, float *out) {\n"
             "  out[threadIdx.x] = rows[threadIdx.x][0];\n"
             "}\n");
  write_file(dir.file("big.cu"),
             "__global__ void big(float *a, int n) {\n"
             "  int i = threadIdx.x;\n"
             "  a[i * n] = 1.0f;\n"
             "}\n");
  const std::string save = dir.file("ncu.csv");
  const std::string spmv = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/data/spmv_csr_scalar.cu";
  const std::string tiny = std::string(WARPDIV_SOURCE_DIR) + "/data/samples/spmv_tiny/";
  const std::vector<BadInput> bad = {
      {{"ncu-check", dir.file("gather.cu"), "--grid", "1", "--block", "32", "--save-ncu", save},
       "gather.cu:2:22: error: ncu-check cannot compare this launch: the access 'rows[threadIdx.x][0]' is "
       "not counted"},
      {{"ncu-check", dir.file("big.cu"), "--grid", "1", "--block", "32", "--arg", "n=2147483647",
        "--save-ncu", save},
       "undefined behaviour"},
      // --alloc: a[i * 3] reaches element 93 at thread 31; 64 elements end at thread 22 (66).
      {{"ncu-check", dir.file("big.cu"), "--grid", "1", "--block", "32", "--arg", "n=3", "--alloc", "a=64",
        "--save-ncu", save},
       "big.cu:3:3: error: out of bounds: 'a[i * n]' writes element 66 of 'a', which holds 64 elements of 4 "
       "bytes (0 to "
       "63), in block (0, 0, 0), thread (22, 0, 0); ncu-check does not run a launch the model finds "
       "undefined"},
      // The CSR SpMV's loop needs row_ptr's values, its gather x[col_idx[jj]] col_idx's.
      {{"ncu-check", spmv, "--grid", "1", "--block", "32", "--arg", "num_rows=5", "--save-ncu", save},
       "give the values of 'row_ptr' with --data row_ptr=FILE"},
      {{"ncu-check", spmv, "--grid", "1", "--block", "32", "--arg", "num_rows=5", "--data",
        "row_ptr=" + tiny + "row_ptr.npy", "--save-ncu", save},
       "spmv_csr_scalar.cu:25:27: error: ncu-check cannot compare this launch: the access 'x[col_idx[jj]]' "
       "is not counted "
       "(its address depends on col_idx[jj] (global memory))"},
  };
  for (const BadInput& b : bad) {
    SCOPED_TRACE(b.must_mention);
    expect_refusal(run_warpdiv(b.args), b);
    EXPECT_FALSE(file_exists(save));
  }
}

// ncu-check end to end without a GPU: a stand-in ncu prints what the real one printed for the
// naive multiply at Width 100 on the H100 (data/validation/memory/nvidia-h100/ncu-check-naive-w100/:
// the raw metrics page, then with --per-line the source page). The figures are the ones worked
// out by hand in tests/analysis/ncu_csv_test.cpp and lecture_memory_cli_test.cpp: 150,000 sectors
// on line 18 and 1,600 on line 20. --save-ncu keeps both pages byte for byte, and is refused (exit
// 2, before ncu runs) where it would replace the kernel's source.
TEST(MemoryClassesCli, NcuCheckWithARecordedNcu) {
  TempDir dir;
  const std::string recorded =
      std::string(WARPDIV_SOURCE_DIR) + "/data/validation/memory/nvidia-h100/ncu-check-naive-w100/";
  const std::string ncu = dir.file("ncu");
  write_file(ncu, "#!/bin/sh\ncase \"$*\" in *'--page source'*) cat " + shell_quote(recorded + "source.csv") +
                      " ;; *) cat " + shell_quote(recorded + "raw.csv") + " ;; esac\n");
  ASSERT_EQ(::chmod(ncu.c_str(), 0755), 0);
  const std::string save = dir.file("n.csv");
  const std::vector<std::string> launch = {kNaive, "--grid", "7,7", "--block", "16,16", "--arg", "Width=100"};
  std::vector<std::string> args = {"ncu-check"};
  args.insert(args.end(), launch.begin(), launch.end());
  for (const std::string& a :
       {std::string("--ncu"), ncu, std::string("--per-line"), std::string("--save-ncu"), save})
    args.push_back(a);
  const CliResult r = run_warpdiv(args);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "    18          150000          150000  equal")) << r.out;
  EXPECT_TRUE(contains(r.out, "    20            1600            1600  equal")) << r.out;
  EXPECT_TRUE(contains(r.out, "2 of 2 lines equal.")) << r.out;
  EXPECT_TRUE(contains(r.out, "Global requests and sectors agree.")) << r.out;
  EXPECT_EQ(read_file(save), read_file(recorded + "raw.csv"));
  EXPECT_EQ(read_file(save + ".source.csv"), read_file(recorded + "source.csv"));

  args.back() = kNaive;  // --save-ncu over the kernel's own source
  const CliResult refused = run_warpdiv(args);
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_EQ(count_lines(refused.err), 1u) << refused.err;
  EXPECT_TRUE(contains(refused.err, "the kernel source")) << refused.err;
}

}  // namespace
}  // namespace warpdiv::testing
