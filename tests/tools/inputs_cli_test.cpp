// Input files through the real binary: --gpu-file, --ncu-csv and --validate-csv never
// hang and are never read without bound; values are strict and refusals name the file and the
// line an editor shows; BOMs and RFC 4180 fields are read; ncu-check refuses a CSV of another
// launch. Every run goes through `timeout`, so a hang fails the test instead of stalling CI.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

constexpr int kTimeoutSeconds = 30;  // far above the 2 s a FIFO with no writer is given
constexpr int kTimedOut = 124;       // timeout(1)'s status

// A bash command line under timeout(1).
CliResult run_bash(const std::string& bash_command) {
  return run_shell("timeout -k 5 " + std::to_string(kTimeoutSeconds) + " bash -c " +
                   shell_quote(bash_command));
}

CliResult run(const std::vector<std::string>& args) {
  std::string command = "exec " + shell_quote(warpdiv_binary());
  for (const std::string& a : args) command += " " + shell_quote(a);
  return run_bash(command);
}

std::string recorded(const std::string& name) {
  return std::string(WARPDIV_SOURCE_DIR) + "/data/validation/ncu/nvidia-h200/" + name;
}
const std::string kNcu = recorded("ncu_100x100x100_T16.csv");
const std::string kValidate = recorded("validate_100x100x100_T16.csv");
const std::string kGpus = std::string(WARPDIV_SOURCE_DIR) + "/data/gpus.csv";

// data/gpus.csv up to and including its header line (line 8, after 7 comment lines).
std::string gpu_file_head() {
  const std::string text = read_file(kGpus);
  const std::size_t header = text.find("\nname,") + 1;
  return text.substr(0, text.find('\n', header) + 1);
}

void expect_refused(const CliResult& r, const std::vector<std::string>& phrases) {
  EXPECT_NE(r.status, kTimedOut) << "timed out";
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "warpdiv: error: ")) << r.err;
  for (const std::string& p : phrases) EXPECT_TRUE(contains(r.err, p)) << p << " in " << r.err;
  EXPECT_FALSE(contains(r.err, "line -1")) << r.err;
}

// The three flags that read a file, each in a command line that is otherwise valid.
std::vector<std::pair<std::string, std::vector<std::string>>> with_input(const std::string& file) {
  return {{"--gpu-file", {"occupancy", "--gpu", "h100", "--gpu-file", file}},
          {"--ncu-csv", {"ncu-check", "--ncu-csv", file, "--width", "100"}},
          {"--validate-csv", {"ncu-check", "--ncu-csv", kNcu, "--validate-csv", file}}};
}

TEST(InputsCli, AFifoWithNoWriterIsRefusedAfterABoundedWait) {
  TempDir dir;
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  for (const auto& [flag, args] : with_input(dir.file("fifo")))
    expect_refused(run(args), {flag, "fifo' is a FIFO that no process writes to"});
}

TEST(InputsCli, PipesAreRead) {
  // Process substitution: /dev/fd/N, a pipe with a writer.
  const CliResult r = run_bash("exec " + shell_quote(warpdiv_binary()) + " ncu-check --ncu-csv <(cat " +
                               shell_quote(kNcu) + ") --validate-csv <(cat " + shell_quote(kValidate) + ")");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "ncu-check: ncu agrees with the calculator")) << r.out;
}

TEST(InputsCli, AnEndlessPipeIsCutAt64MiB) {
  const CliResult r = run_bash("exec " + shell_quote(warpdiv_binary()) +
                               " ncu-check --width 100 --ncu-csv <(yes '\"ID\",\"x\"')");
  expect_refused(r, {"--ncu-csv", "is larger than 64 MiB, the limit for an input file"});
}

TEST(InputsCli, ACharacterDeviceIsRefusedAtOnce) {
  TempDir dir;
  // Our own zero device (major 1, minor 5) in a private folder, never the machine's /dev.
  if (::mknod(dir.file("zero").c_str(), S_IFCHR | 0600, makedev(1, 5)) != 0)
    GTEST_SKIP() << "mknod needs CAP_MKNOD (run as root) to create a character device";
  for (const auto& [flag, args] : with_input(dir.file("zero")))
    expect_refused(run(args), {flag, "zero' is a character device, not a CSV file"});
}

TEST(InputsCli, DirectoryAndEmptyFileAreToldApart) {
  TempDir dir;
  write_file(dir.file("empty.csv"), "");
  for (const auto& [flag, args] : with_input(dir.path()))
    expect_refused(run(args), {flag + ": '" + dir.path() + "' is a directory"});
  for (const auto& [flag, args] : with_input(dir.file("empty.csv")))
    expect_refused(run(args), {flag + ": '" + dir.file("empty.csv") + "' is empty (read as a CSV file)"});
}

TEST(InputsCli, EachRefusalNamesTheFormatItsFlagReads) {
  TempDir dir;
  const std::string spmv = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/data/spmv_csr_scalar.cu";
  const auto data = [&](const std::string& value) {
    return std::vector<std::string>{"analyze", spmv,    "--grid",     "1",      "--block",
                                    "32",      "--arg", "num_rows=5", "--data", "row_ptr=" + value};
  };
  // Folders named as each format's file: the refusal says which format was expected.
  for (const char* name : {"x.npy", "A.mtx", "c.toml", "m.json", "gpus.csv"})
    ASSERT_EQ(::mkdir(dir.file(name).c_str(), 0700), 0) << name;
  expect_refused(run(data(dir.file("x.npy"))),
                 {"--data row_ptr: '" + dir.file("x.npy") + "' is a directory, not a NumPy .npy file"});
  expect_refused(run(data(dir.file("A.mtx") + ":csr.row_ptr")),
                 {"--data row_ptr: '" + dir.file("A.mtx") + "' is a directory, not a Matrix Market file"});
  expect_refused(run({"check", dir.file("c.toml")}),
                 {"CONFIG: '" + dir.file("c.toml") + "' is a directory, not a TOML file"});
  expect_refused(run({"analyze", "--model", dir.file("m.json"), "--grid", "1", "--block", "1"}),
                 {"--model: '" + dir.file("m.json") + "' is a directory, not a kernel model JSON file"});
  expect_refused(run({"occupancy", "--gpu", "h100", "--gpu-file", dir.file("gpus.csv")}),
                 {"--gpu-file: '" + dir.file("gpus.csv") + "' is a directory, not a CSV file"});
  // Files of the wrong content: the reader names its format.
  write_file(dir.file("text.npy"), "hello\n");
  write_file(dir.file("text.mtx"), "hello\n");
  expect_refused(run(data(dir.file("text.npy"))),
                 {"--data row_ptr: '" + dir.file("text.npy") +
                  "' (a NumPy .npy file): it does not start with the magic string \\x93NUMPY"});
  expect_refused(run(data(dir.file("text.mtx") + ":csr.row_ptr")),
                 {"--data row_ptr: '" + dir.file("text.mtx") +
                  "' (a Matrix Market file): its first line does not start with %%MatrixMarket"});
}

TEST(InputsCli, BinaryGarbageNamesARealLine) {
  TempDir dir;
  // Each file's own header (the GPU file's on line 10, after 9 comment lines; the validate CSV's
  // on line 1), then bytes no CSV holds.
  const std::string garbage("\x01\x7f\xfe\0\x02,\xff\n\x03", 9);
  write_file(dir.file("gpus.csv"), gpu_file_head() + garbage);
  expect_refused(run({"occupancy", "--gpu", "h100", "--gpu-file", dir.file("gpus.csv")}),
                 {"gpus.csv:11: holds the control byte 0x01: binary data, not CSV text"});
  const std::string validate = read_file(kValidate);
  write_file(dir.file("v.csv"), validate.substr(0, validate.find('\n') + 1) + garbage);
  expect_refused(run({"ncu-check", "--ncu-csv", kNcu, "--validate-csv", dir.file("v.csv")}),
                 {"v.csv:2: holds the control byte 0x01"});
  write_file(dir.file("ncu.csv"), garbage + garbage);
  expect_refused(run({"ncu-check", "--width", "100", "--ncu-csv", dir.file("ncu.csv")}),
                 {"ncu.csv: no ncu CSV header"});
}

// The recorded ncu CSV with the first occurrence of `from` replaced.
std::string ncu_with(const std::string& from, const std::string& to) {
  std::string text = read_file(kNcu);
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(InputsCli, StrictNumbersWithThePhysicalLine) {
  // The recorded file: 3 progress lines, the header on line 4, units on 5, launch 0 on line 6
  // (head -6 of the file shows it). Launch 0 uses 31 registers per thread: '"31",' is unique to
  // its registers column in that row.
  TempDir dir;
  struct Case {
    std::string from, to, phrase;
  };
  for (const Case& c :
       {Case{"\"0\",\"4303\"", "\"1e300\",\"4303\"",
             "ncu.csv:6: column 'ID': '1e300' is not a launch number"},
        Case{"\"0\",\"4303\"", "\"1.5\",\"4303\"", "ncu.csv:6: column 'ID': '1.5'"},
        Case{"\"31\",", "\"31.9\",",
             "ncu.csv:6: column 'launch__registers_per_thread': '31.9' is not an integer from 0 to "
             "2147483647"},
        Case{"\"31\",", "\"1e300\",", "ncu.csv:6: column 'launch__registers_per_thread': '1e300'"}}) {
    write_file(dir.file("ncu.csv"), ncu_with(c.from, c.to));
    expect_refused(run({"ncu-check", "--ncu-csv", dir.file("ncu.csv"), "--validate-csv", kValidate}),
                   {c.phrase});
  }
  std::string validate = read_file(kValidate);
  validate.replace(validate.find(",31,2048,"), 9, ",31.9,2048,");
  write_file(dir.file("v.csv"), validate);
  expect_refused(run({"ncu-check", "--ncu-csv", kNcu, "--validate-csv", dir.file("v.csv")}),
                 {"v.csv:2: column 'registers_checked': '31.9' is not an integer from 0 to 255"});
}

// A column named twice would let one of the two be read silently: refused, naming both positions.
// The recorded ncu CSV's header (line 4) has "Stream" as its 7th column and
// launch__registers_per_thread as its 220th; the validate CSV's (line 1) "date" 5th, "rows" 7th.
TEST(InputsCli, AColumnNamedTwiceIsRefused) {
  TempDir dir;
  write_file(dir.file("ncu.csv"), ncu_with("\"Stream\",", "\"launch__registers_per_thread\","));
  expect_refused(
      run({"ncu-check", "--ncu-csv", dir.file("ncu.csv"), "--validate-csv", kValidate}),
      {"ncu.csv:4: header: column 'launch__registers_per_thread' appears twice (columns 7 and 220;"});
  std::string validate = read_file(kValidate);
  validate.replace(validate.find(",date,"), 6, ",rows,");
  write_file(dir.file("v.csv"), validate);
  expect_refused(run({"ncu-check", "--ncu-csv", kNcu, "--validate-csv", dir.file("v.csv")}),
                 {"v.csv:1: header: column 'rows' appears twice (columns 5 and 7;"});
}

// A preset outside CUDA's limits or at odds with itself: data/gpus.csv's rtx3090 row (line 19:
// 9 comment lines, the header, then lecture-16k .. a100) with one figure changed. Its own figures:
// 1536 threads and 16 blocks per SM (48 warps), 65536 registers per SM and per block.
TEST(InputsCli, InconsistentPresetsAreRefused) {
  TempDir dir;
  const std::string shipped = read_file(kGpus);
  const std::string row = "rtx3090,NVIDIA GeForce RTX 3090,8.6,82,32,1024,1536,16,65536,65536,255,";
  ASSERT_NE(shipped.find("\n" + row), std::string::npos);
  struct Case {
    std::string to, phrase;
  };
  for (const Case& c :
       {Case{"rtx3090,NVIDIA GeForce RTX 3090,8.6,82,32,4096,1536,16,65536,65536,255,",
             "gpus.csv:19: column 'max_threads_per_block': 4096 is out of range for GPU 'rtx3090' (allowed: "
             "1 to 1024"},
        Case{"rtx3090,NVIDIA GeForce RTX 3090,8.6,82,32,1024,1536,16,65536,65536,100000,",
             "gpus.csv:19: column 'max_registers_per_thread': 100000 is out of range for GPU 'rtx3090' "
             "(allowed: 1 to 255"},
        Case{"rtx3090,NVIDIA GeForce RTX 3090,8.6,82,32,1024,1536,16,65536,131072,255,",
             "gpus.csv:19: column 'registers_per_block': 131072 is out of range for GPU 'rtx3090' (allowed: "
             "1 to 65536"},
        Case{"rtx3090,NVIDIA GeForce RTX 3090,8.6,82,32,1024,1536,49,65536,65536,255,",
             "gpus.csv:19: column 'max_blocks_per_sm': 49 is out of range for GPU 'rtx3090' (allowed: 1 to "
             "48"},
        Case{"rtx3090,NVIDIA GeForce RTX 3090,8.6,82,64,1024,1536,16,65536,65536,255,",
             "gpus.csv:19: column 'warp_size': 64 is out of range for GPU 'rtx3090' (allowed: 32"}}) {
    std::string text = shipped;
    write_file(dir.file("gpus.csv"), text.replace(text.find("\n" + row) + 1, row.size(), c.to));
    expect_refused(
        run({"occupancy", "--gpu", "rtx3090", "--gpu-file", dir.file("gpus.csv"), "--threads", "256"}),
        {c.phrase});
  }
}

// ncu-check's own flags take one value each, once, as every single-value flag; a missing ncu is
// warpdiv's one line (no shell's "not found" before it), exit 3.
TEST(InputsCli, NcuCheckOwnFlagsAreSingleValuedAndAMissingNcuIsOneLine) {
  TempDir dir;
  write_file(dir.file("k.cu"), "__global__ void k(int *out) { out[threadIdx.x] = 1; }\n");
  const std::vector<std::string> launch = {"ncu-check", dir.file("k.cu"), "--grid", "1", "--block", "32"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = launch;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  expect_refused(run(with({"--ncu", "a", "--ncu", "b"})),
                 {"option '--ncu' cannot be specified more than once"});
  expect_refused(run(with({"--save-ncu", dir.file("a1"), "--save-ncu", dir.file("a2")})),
                 {"option '--save-ncu' cannot be specified more than once"});
  expect_refused(run(with({"--ncu"})), {"--ncu needs a value (see warpdiv ncu-check --help)"});
  expect_refused(run(with({"--save-ncu", "--ncu", "x"})),
                 {"--save-ncu needs a value (see warpdiv ncu-check --help), not '--ncu'"});
  expect_refused(run(with({"--grid", "2"})),
                 {"option '--grid' cannot be specified more than once (see warpdiv ncu-check --help)"});
  std::string command = "PATH=/usr/bin:/bin exec " + shell_quote(warpdiv_binary());
  for (const std::string& a : with({"--ncu", "no-such-ncu"})) command += " " + shell_quote(a);
  const CliResult r = run_bash(command);
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_EQ(r.err,
            "warpdiv: error: no ncu: 'no-such-ncu' was not found (give --ncu PATH) [warpdiv-no-device]\n");
}

TEST(InputsCli, ByteOrderMarksAreAccepted) {
  TempDir dir;
  write_file(dir.file("ncu.csv"), "\xEF\xBB\xBF" + read_file(kNcu));
  write_file(dir.file("v.csv"), "\xEF\xBB\xBF" + read_file(kValidate));
  write_file(dir.file("gpus.csv"), "\xEF\xBB\xBF" + read_file(kGpus));
  const CliResult ncu =
      run({"ncu-check", "--ncu-csv", dir.file("ncu.csv"), "--validate-csv", dir.file("v.csv")});
  EXPECT_EQ(ncu.status, 0) << ncu.out << ncu.err;
  const CliResult gpu = run({"occupancy", "--gpu", "h100", "--gpu-file", dir.file("gpus.csv")});
  EXPECT_EQ(gpu.status, 0) << gpu.out << gpu.err;
}

TEST(InputsCli, QuotedMultiLineFieldInTheGpuFile) {
  TempDir dir;
  // The shipped file with h100's description spread over three lines (with a comma and a
  // doubled quote); then a row with a bad warp size, which must be named by its own line.
  std::string text = read_file(kGpus);
  const std::string from = "h100,NVIDIA H100 SXM5,";
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "h100,\"NVIDIA H100,\nthe \"\"SXM5\"\"\nboard\",");
  write_file(dir.file("gpus.csv"), text);
  const CliResult ok = run({"occupancy", "--gpu", "h100", "--gpu-file", dir.file("gpus.csv")});
  EXPECT_EQ(ok.status, 0) << ok.out << ok.err;
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  write_file(dir.file("bad.csv"), text +
                                      "x1,x,9.0,132,0,1024,2048,32,65536,65536,255,256,4,"
                                      "233472,49152,232448,128,1024,0;8,64,x,,,\n");
  expect_refused(run({"occupancy", "--gpu", "h100", "--gpu-file", dir.file("bad.csv")}),
                 {"bad.csv:" + std::to_string(lines + 1) + ": column 'warp_size'"});
}

TEST(InputsCli, NcuCheckRefusesAnotherLaunch) {
  // The recorded CSVs profile 100 x 100 x 100 with T = 16: a grid of ceil(100 / 16) = 7 x 7.
  const std::string other = recorded("ncu_257x129x63_T12.csv");
  struct Case {
    std::vector<std::string> args;
    std::string phrase;
  };
  for (const Case& c : {
           // 110 has the same 7 x 7 grid; the validate CSV says 100.
           Case{{"--ncu-csv", kNcu, "--validate-csv", kValidate, "--width", "110"},
                "validate_100x100x100_T16.csv:2 is the launch 100 x 100 x 100, T = 16, not the "
                "110 x 110 x 110, T = 16"},
           Case{{"--ncu-csv", kNcu, "--validate-csv", kValidate, "--tile", "8"}, "not the T = 8"},
           // 200 / 16 -> 13 x 13 blocks.
           Case{{"--ncu-csv", kNcu, "--width", "200"},
                "ncu_100x100x100_T16.csv:6: ncu launch 0 (void tiled_matmul_checked<16>"},
           Case{{"--ncu-csv", kNcu, "--width", "100", "--tile", "8"},
                "has blockDim (16, 16, 1), not the blockDim (8, 8, 1) of T = 8"},
           // The validate CSV of 100^3, T = 16 beside the ncu CSV of 257 x 129 x 63, T = 12.
           Case{{"--ncu-csv", other, "--validate-csv", kValidate},
                "has blockDim (12, 12, 1), not the blockDim (16, 16, 1) of T = 16"},
           // Nothing gives K: the sizes are required without --validate-csv.
           Case{{"--ncu-csv", kNcu}, "ncu-check needs the sizes of the profiled launch"},
           // A validation CSV of 54 launches needs the flags to choose one.
           Case{{"--ncu-csv", kNcu, "--validate-csv",
                 std::string(WARPDIV_SOURCE_DIR) + "/data/validation/nvidia-h200.csv"},
                "holds 54 launches"},
       }) {
    std::vector<std::string> args = {"ncu-check"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    expect_refused(run(args), {c.phrase});
  }
}

TEST(InputsCli, NcuCheckTakesTheLaunchFromTheCsvs) {
  // From the validate CSV: 257 x 129 x 63, T = 12 (the model's line names them).
  const CliResult both = run({"ncu-check", "--ncu-csv", recorded("ncu_257x129x63_T12.csv"), "--validate-csv",
                              recorded("validate_257x129x63_T12.csv")});
  EXPECT_EQ(both.status, 0) << both.out << both.err;
  EXPECT_TRUE(contains(both.out, "M[257 x 129] * N[129 x 63], tile 12 x 12")) << both.out;
  // T from ncu's blockDim (12, 12, 1) when only the sizes are given.
  const CliResult sizes = run({"ncu-check", "--ncu-csv", recorded("ncu_257x129x63_T12.csv"), "--rows", "257",
                               "--inner", "129", "--cols", "63"});
  EXPECT_EQ(sizes.status, 0) << sizes.out << sizes.err;
  EXPECT_TRUE(contains(sizes.out, "tile 12 x 12")) << sizes.out;
  // The sweep's validation CSV, one launch chosen by the flags.
  const CliResult chosen = run({"ncu-check", "--ncu-csv", kNcu, "--validate-csv",
                                std::string(WARPDIV_SOURCE_DIR) + "/data/validation/nvidia-h200.csv",
                                "--width", "100", "--tile", "16"});
  EXPECT_EQ(chosen.status, 0) << chosen.out << chosen.err;
}

TEST(InputsCli, UnknownGpuAmongManyPresetsIsOneShortLine) {
  TempDir dir;
  std::string text = read_file(kGpus);
  const std::size_t at = text.find("\nh100,");
  ASSERT_NE(at, std::string::npos);
  const std::size_t end = text.find('\n', at + 1);
  const std::string rest = text.substr(at + 5, end - at - 5);  // ",NVIDIA H100 SXM5,..."
  std::string many = gpu_file_head();
  for (int i = 0; i < 2000; ++i) many += "gpu" + std::to_string(i) + rest + "\n";
  write_file(dir.file("many.csv"), many);
  const CliResult r = run({"occupancy", "--gpu", "gpu12345", "--gpu-file", dir.file("many.csv")});
  expect_refused(r, {"and 1990 more (--gpu list prints them)"});
  EXPECT_LT(r.err.size(), 400u) << r.err;
}

}  // namespace
}  // namespace warpdiv::testing
