// The output policy through the real binary, for every command that writes files: device nodes
// (clones of /dev/null and /dev/full made in the test's own folder, never the machine's /dev),
// FIFOs and symbolic links written through, modes kept, one file named twice refused, outputs
// committed together, signals during a long sweep or replay, the longest names, and standard output
// (`-`, a link to it, a write error on it), and no output replacing an input of the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <csignal>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/tools/child_process.hpp"
#include "tests/tools/cli_runner.hpp"
#include "tests/tools/special_files.hpp"

namespace warpdiv::testing {
namespace {

// The schemas, as the README documents them.
const std::string kDivergenceHeader =
    "condition,block_class,blocks,warps,warp_phases,divergent_warp_phases\n";
const std::string kSweepHeader =
    "rows,inner,cols,tile,warp_size,condition,warp_phases,divergent_warp_phases,fraction\n";
// The lecture's launch (100^3, T = 16): 49 blocks of 8 warps, 7 phases; load_M diverges in 350 of
// the 2,744 warp-phases.
const std::string kLectureLoadM = "load_M,all,49,392,2744,350\n";
const std::string kLectureSweepLoadM = "100,100,100,16,32,load_M,2744,350,";

/// One command line of each command that writes files, with `--csv FILE` or `--html FILE` last
/// but for its file.
struct Writer {
  std::string label;
  std::vector<std::string> args;  // "@" stands for the file
};
const std::vector<Writer> kWriters = {
    {"analyze --csv", {"analyze", "--csv", "@"}},
    {"analyze --html", {"analyze", "--html", "@"}},
    {"sweep --csv", {"sweep", "--sizes", "100,200", "--tiles", "16", "--csv", "@"}},
    {"sweep --html", {"sweep", "--sizes", "100,200", "--tiles", "16", "--html", "@"}},
    {"occupancy --csv", {"occupancy", "--gpu", "lecture-16k", "--regs", "16", "--tile", "16", "--csv", "@"}},
};

std::vector<std::string> with_file(std::vector<std::string> args, const std::string& file) {
  for (std::string& a : args)
    if (a == "@") a = file;
  return args;
}

TEST(OutputFilesCli, CharacterDeviceIsWrittenInPlaceNeverReplaced) {
  TempDir dir;
  if (!make_char_device(dir.file("null"), 1, 3)) GTEST_SKIP() << "mknod not permitted";
  for (const Writer& w : kWriters) {
    SCOPED_TRACE(w.label);
    const CliResult r = run_warpdiv(with_file(w.args, dir.file("null")));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(is_char_device(dir.file("null")));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"null"});
  }
}

TEST(OutputFilesCli, FullDeviceIsAWriteErrorAndStaysADevice) {
  TempDir dir;
  if (!make_char_device(dir.file("full"), 1, 7)) GTEST_SKIP() << "mknod not permitted";
  for (const Writer& w : kWriters) {
    SCOPED_TRACE(w.label);
    const CliResult r = run_warpdiv(with_file(w.args, dir.file("full")));
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, "No space left on device")) << r.err;
    EXPECT_TRUE(is_char_device(dir.file("full")));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"full"});
  }
}

TEST(OutputFilesCli, OneFailedOutputLeavesTheOtherExistingFileUntouched) {
  TempDir dir;
  if (!make_char_device(dir.file("full"), 1, 7)) GTEST_SKIP() << "mknod not permitted";
  write_file(dir.file("keep"), "precious\n");
  const std::vector<std::vector<std::string>> runs = {
      {"analyze", "--csv", dir.file("keep"), "--html", dir.file("full")},
      {"analyze", "--csv", dir.file("full"), "--html", dir.file("keep")},
      {"sweep", "--sizes", "100,200", "--tiles", "16", "--csv", dir.file("keep"), "--html", dir.file("full")},
      {"sweep", "--sizes", "100,200", "--tiles", "16", "--csv", dir.file("full"), "--html", dir.file("keep")},
  };
  for (const std::vector<std::string>& args : runs) {
    SCOPED_TRACE(args[0] + " " + args[args.size() - 4] + " " + args[args.size() - 3]);
    const CliResult r = run_warpdiv(args);
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, "No space left on device")) << r.err;
    EXPECT_EQ(read_file(dir.file("keep")), "precious\n");
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"full", "keep"}));
  }
}

TEST(OutputFilesCli, SymbolicLinkChainStaysALinkAndItsTargetIsWritten) {
  // csv -> (absolute) hop -> (relative) real/data.csv, a 0600 file; a dangling link for the page.
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.file("real").c_str(), 0755), 0);
  write_file(dir.file("real/data.csv"), "old\n");
  ASSERT_EQ(::chmod(dir.file("real/data.csv").c_str(), 0600), 0);
  ASSERT_EQ(::symlink("real/data.csv", dir.file("hop").c_str()), 0);
  ASSERT_EQ(::symlink(dir.file("hop").c_str(), dir.file("csv").c_str()), 0);
  ASSERT_EQ(::symlink("real/page.html", dir.file("html").c_str()), 0);
  const CliResult r = run_warpdiv({"analyze", "--csv", dir.file("csv"), "--html", dir.file("html")});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string csv = read_file(dir.file("real/data.csv"));
  EXPECT_EQ(csv.substr(0, kDivergenceHeader.size()), kDivergenceHeader);
  EXPECT_TRUE(contains(csv, kLectureLoadM)) << csv;
  EXPECT_EQ(file_mode(dir.file("real/data.csv")) & 07777, 0600u);
  EXPECT_TRUE(contains(read_file(dir.file("real/page.html")), "</html>"));
  EXPECT_TRUE(is_symlink(dir.file("csv")));
  EXPECT_TRUE(is_symlink(dir.file("hop")));
  EXPECT_TRUE(is_symlink(dir.file("html")));
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"csv", "hop", "html", "real"}));
  EXPECT_TRUE(temporary_files(dir.file("real")).empty());
}

TEST(OutputFilesCli, FifoIsWrittenThroughNotReplaced) {
  for (const Writer& w : {kWriters[0], kWriters[2]}) {
    SCOPED_TRACE(w.label);
    TempDir dir;
    FifoReader reader(dir.file("fifo"));
    const CliResult r = run_warpdiv(with_file(w.args, dir.file("fifo")));
    EXPECT_EQ(r.status, 0) << r.err;
    const std::string text = reader.text();
    if (w.args[0] == "analyze") {
      EXPECT_EQ(text.substr(0, kDivergenceHeader.size()), kDivergenceHeader);
      EXPECT_EQ(count_lines(text), 21u) << text;  // the header and 4 checks x 5 classes
    } else {
      EXPECT_EQ(text.substr(0, kSweepHeader.size()), kSweepHeader);
      EXPECT_TRUE(contains(text, kLectureSweepLoadM)) << text;
      EXPECT_EQ(count_lines(text), 9u) << text;  // the header and 2 launches x 4 checks
    }
    EXPECT_TRUE(is_fifo(dir.file("fifo")));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"fifo"});
  }
}

TEST(OutputFilesCli, ModeAndOwnerOfAnExistingFileAreKept) {
  TempDir dir;
  const std::string csv = dir.file("secret.csv");
  write_file(csv, "old\n");
  ASSERT_EQ(::chmod(csv.c_str(), 0600), 0);
  const bool root = ::geteuid() == 0;
  if (root) {
    ASSERT_EQ(::chown(csv.c_str(), 1234, 4321), 0);
  }
  const CliResult r = run_warpdiv({"analyze", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(read_file(csv), kLectureLoadM));
  struct stat info {};
  ASSERT_EQ(::stat(csv.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0600u);
  if (root) {
    EXPECT_EQ(info.st_uid, 1234u);
    EXPECT_EQ(info.st_gid, 4321u);
  }
}

TEST(OutputFilesCli, WriteProtectedFileIsRefused) {
  // Refused for root too, although the shell's `>` would rewrite it for root.
  for (const Writer& w : kWriters) {
    SCOPED_TRACE(w.label);
    TempDir dir;
    write_file(dir.file("ro"), "read only\n");
    ASSERT_EQ(::chmod(dir.file("ro").c_str(), 0444), 0);
    const CliResult r = run_warpdiv(with_file(w.args, dir.file("ro")));
    expect_refusal(r, BadInput{{}, "is write-protected (mode 0444)"});
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(read_file(dir.file("ro")), "read only\n");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"ro"});
  }
}

TEST(OutputFilesCli, TwoOutputsNamingOneFileAreRefused) {
  TempDir dir;
  write_file(dir.file("x"), "precious\n");
  ASSERT_EQ(::symlink("x", dir.file("link").c_str()), 0);
  ASSERT_EQ(::symlink("/proc/self/fd/1", dir.file("stdout").c_str()), 0);
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {dir.file("a"), dir.path() + "/./a"},  // a new file
      {dir.file("x"), dir.file("link")},     // an existing file and a link to it
      {"-", dir.file("stdout")},             // standard output, named twice
  };
  for (const auto& [csv, html] : pairs) {
    for (const std::string command : {"analyze", "sweep"}) {
      SCOPED_TRACE(command + (" --csv " + csv + " --html " + html));
      std::vector<std::string> args = {command, "--csv", csv, "--html", html};
      if (command == "sweep") args.insert(args.end(), {"--sizes", "100", "--tiles", "16"});
      const CliResult r = run_warpdiv(args);
      expect_refusal(r, BadInput{{}, "--html '" + html + "' names the same file as --csv '" + csv + "'"});
      EXPECT_TRUE(r.out.empty()) << r.out;
    }
  }
  EXPECT_EQ(read_file(dir.file("x")), "precious\n");
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"link", "stdout", "x"}));
}

TEST(OutputFilesCli, AnOutputNeverReplacesAnInput) {
  // The kernel's source, --model and --gpu-file named as outputs, directly or through `./`, `..`,
  // a symbolic link, a hard link and a linked folder: exit 2 naming both, the input untouched.
  TempDir dir;
  const std::string source = read_file(std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/naive_matmul.cu");
  write_file(dir.file("nm.cu"), source);
  write_file(dir.file("gpus.csv"), read_file(std::string(WARPDIV_SOURCE_DIR) + "/data/gpus.csv"));
  ASSERT_EQ(::symlink("nm.cu", dir.file("link.cu").c_str()), 0);
  ASSERT_EQ(::link(dir.file("nm.cu").c_str(), dir.file("hard.cu").c_str()), 0);
  ASSERT_EQ(::symlink(".", dir.file("here").c_str()), 0);
  const std::vector<std::string> launch = {"--grid", "7,7", "--block", "16,16", "--arg", "Width=100"};
  const auto expect_refused = [&](std::vector<std::string> args, const std::string& output,
                                  const std::string& input) {
    SCOPED_TRACE(args.front() + " ... " + args[args.size() - 2] + " " + output);
    const CliResult r = run_warpdiv(args);
    expect_refusal(r,
                   BadInput{{}, "'" + output + "' is the same file as " + input + ", an input of this run"});
  };
  for (const std::string& name :
       {dir.file("nm.cu"), dir.path() + "/./nm.cu",
        dir.path() + "/../" + dir.path().substr(dir.path().rfind('/') + 1) + "/nm.cu", dir.file("link.cu"),
        dir.file("hard.cu"), dir.file("here/nm.cu")}) {
    for (const std::string flag : {"--csv", "--html", "--save-model"}) {
      std::vector<std::string> args = {"analyze", dir.file("nm.cu")};
      args.insert(args.end(), launch.begin(), launch.end());
      args.insert(args.end(), {flag, name});
      expect_refused(args, name, "the kernel source '" + dir.file("nm.cu") + "'");
    }
  }
  expect_refused({"sweep", dir.file("nm.cu"), "--grid", "7,7", "--block", "256", "--arg", "Width=100",
                  "--csv", dir.file("link.cu")},
                 dir.file("link.cu"), "the kernel source '" + dir.file("nm.cu") + "'");
  ASSERT_EQ(run_warpdiv({"analyze", dir.file("nm.cu"), "--save-model", dir.file("m.json")}).status, 0);
  const std::string model = read_file(dir.file("m.json"));
  std::vector<std::string> from_model = {"analyze", "--model", dir.file("m.json")};
  from_model.insert(from_model.end(), launch.begin(), launch.end());
  from_model.insert(from_model.end(), {"--csv", dir.file("here/m.json")});
  expect_refused(from_model, dir.file("here/m.json"), "--model '" + dir.file("m.json") + "'");
  expect_refused({"occupancy", "--gpu", "h100", "--gpu-file", dir.file("gpus.csv"), "--threads", "128",
                  "--regs", "40", "--csv", dir.file("gpus.csv")},
                 dir.file("gpus.csv"), "--gpu-file '" + dir.file("gpus.csv") + "'");
  // A header the kernel's statements come from is an input too.
  write_file(dir.file("guard.cuh"), "__device__ bool inside(int i, int n) { return i < n; }\n");
  write_file(dir.file("k.cu"),
             "#include \"guard.cuh\"\n__global__ void k(int* a, int n) {\n"
             "  if (inside(threadIdx.x, n)) a[threadIdx.x] = 0;\n}\n");
  expect_refused({"analyze", dir.file("k.cu"), "--grid", "1", "--block", "32", "--arg", "n=5", "--csv",
                  dir.file("guard.cuh")},
                 dir.file("guard.cuh"), "a file the kernel was read from '" + dir.file("guard.cuh") + "'");
  EXPECT_EQ(read_file(dir.file("guard.cuh")), "__device__ bool inside(int i, int n) { return i < n; }\n");
  // ... and so is one it only includes (no statement of the kernel comes from a #define).
  write_file(dir.file("sizes.h"), "#define LIMIT 5\n");
  write_file(dir.file("d.cu"),
             "#include \"sizes.h\"\n__global__ void k(int* a) {\n"
             "  if (threadIdx.x < LIMIT) a[threadIdx.x] = 0;\n}\n");
  expect_refused({"analyze", dir.file("d.cu"), "--grid", "1", "--block", "32", "--csv", dir.file("sizes.h")},
                 dir.file("sizes.h"), "a file the kernel was read from '" + dir.file("sizes.h") + "'");
  EXPECT_EQ(read_file(dir.file("sizes.h")), "#define LIMIT 5\n");
  // occupancy FILE.cu compiles with nvcc or NVRTC: what the compiler read is an input.
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc")) {
    expect_refused(
        {"occupancy", dir.file("d.cu"), "--block", "128", "--gpu", "h100", "--csv", dir.file("sizes.h")},
        dir.file("sizes.h"), "a file the compiler read '" + dir.file("sizes.h") + "'");
    EXPECT_EQ(read_file(dir.file("sizes.h")), "#define LIMIT 5\n");
  }
  EXPECT_EQ(read_file(dir.file("nm.cu")), source);
  EXPECT_EQ(read_file(dir.file("m.json")), model);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"d.cu", "gpus.csv", "guard.cuh", "hard.cu", "here",
                                                     "k.cu", "link.cu", "m.json", "nm.cu", "sizes.h"}));
}

// The inputs a compilation database brings and the files a Matrix Market view reads: every one is
// refused as an output, by whatever path names it (relative, ./, a hard link), before anything is
// written; the input is untouched and no temporary file is left.
TEST(OutputFilesCli, EveryInputOfTheRunIsRefusedAsAnOutput) {
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.file("b").c_str(), 0755), 0);
  // LIMIT comes from pre.h, which the response file r.rsp includes with -include.
  write_file(dir.file("k.cu"),
             "__global__ void k(int* a) {\n  if (threadIdx.x < LIMIT) a[threadIdx.x] = 1;\n}\n");
  write_file(dir.file("pre.h"), "#define LIMIT 5\n");
  write_file(dir.file("r.rsp"), "-include pre.h -DUNUSED=1\n");
  const std::string database = "[{\"directory\": \"" + dir.path() +
                               "\", \"command\": \"nvcc @r.rsp -c k.cu -o k.o\", \"file\": \"k.cu\"}]\n";
  write_file(dir.file("b/compile_commands.json"), database);
  const std::string tiny = std::string(WARPDIV_SOURCE_DIR) + "/data/samples/spmv_tiny/A.mtx";
  const std::string matrix = read_file(tiny);
  write_file(dir.file("A.mtx"), matrix);
  ASSERT_EQ(::link(dir.file("A.mtx").c_str(), dir.file("hard.csv").c_str()), 0);
  const std::vector<std::string> analyze_k = {"analyze", "k.cu", "-p", "b", "--grid", "1", "--block", "32"};
  // The database's flags are used: LIMIT 5 gives 5 of 32 lanes in the if.
  const CliResult used = run_in(dir.path(), warpdiv_binary(), analyze_k);
  ASSERT_EQ(used.status, 0) << used.err;
  const auto refused = [&](std::vector<std::string> args, const std::string& output,
                           const std::string& input) {
    SCOPED_TRACE(args[args.size() - 2] + " " + output);
    const CliResult r = run_in(dir.path(), warpdiv_binary(), args);
    expect_refusal(r,
                   BadInput{{}, "'" + output + "' is the same file as " + input + ", an input of this run"});
    EXPECT_TRUE(r.out.empty()) << r.out;
  };
  const auto with = [](std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  refused(with(analyze_k, {"--csv", "b/compile_commands.json"}), "b/compile_commands.json",
          "the compilation database 'b/compile_commands.json'");
  refused(with(analyze_k, {"--html", "./b/../b/compile_commands.json"}), "./b/../b/compile_commands.json",
          "the compilation database 'b/compile_commands.json'");
  refused(with(analyze_k, {"--csv", "r.rsp"}), "r.rsp",
          "a file the kernel was read from '" + dir.file("r.rsp") + "'");
  refused(with(analyze_k, {"--save-model", "./pre.h"}), "./pre.h",
          "a file the kernel was read from '" + dir.file("pre.h") + "'");
  // The file a Matrix Market view reads (FILE.mtx:VIEW), by ./ and by a hard link.
  const std::vector<std::string> spmv = {
      "analyze", std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/data/spmv_csr_scalar.cu",
      "--grid",  "1",
      "--block", "32",
      "--arg",   "num_rows=5",
      "--data",  "row_ptr=A.mtx:csr.row_ptr",
      "--data",  "col_idx=A.mtx:csr.col_idx"};
  refused(with(spmv, {"--html", "./A.mtx"}), "./A.mtx", "--data 'A.mtx'");
  refused(with(spmv, {"--csv", "hard.csv"}), "hard.csv", "--data 'A.mtx'");
  // ... for sweep's lists of --data files too.
  std::vector<std::string> sweep_spmv = spmv;
  sweep_spmv[0] = "sweep";
  refused(with(sweep_spmv, {"--csv", "./A.mtx"}), "./A.mtx", "--data 'A.mtx'");
  refused(with(sweep_spmv, {"--html", "hard.csv"}), "hard.csv", "--data 'A.mtx'");
  // check: the database and a data file, for --sarif and --write-baseline alike.
  write_file(dir.file("c.toml"),
             "[[kernel]]\nname = \"k\"\nfile = \"k.cu\"\ncompile_commands = \"b\"\ngrid = 1\nblock = 32\n"
             "[[kernel]]\nname = \"spmv\"\nfile = \"" +
                 spmv[1] +
                 "\"\ngrid = 1\nblock = 32\n"
                 "args = { num_rows = 5 }\ndata = { row_ptr = \"" +
                 dir.file("A.mtx") + ":csr.row_ptr\", col_idx = \"" + dir.file("A.mtx") +
                 ":csr.col_idx\" }\n");
  const CliResult checked = run_in(dir.path(), warpdiv_binary(), {"check", "c.toml"});
  ASSERT_EQ(checked.status, 0) << checked.out << checked.err;
  for (const std::string flag : {"--sarif", "--write-baseline"}) {
    const auto check_refused = [&](const std::string& output, const std::string& input) {
      SCOPED_TRACE(flag + " " + output);
      const CliResult r = run_in(dir.path(), warpdiv_binary(), {"check", "c.toml", flag, output});
      expect_refusal(
          r,
          BadInput{{}, flag + " '" + output + "' is the same file as an input of the check '" + input + "'"});
    };
    check_refused("b/compile_commands.json", "b/compile_commands.json");  // as the configuration names it
    check_refused("./A.mtx", dir.file("A.mtx"));
    check_refused("r.rsp", dir.file("r.rsp"));
  }
  EXPECT_EQ(read_file(dir.file("b/compile_commands.json")), database);
  EXPECT_EQ(read_file(dir.file("r.rsp")), "-include pre.h -DUNUSED=1\n");
  EXPECT_EQ(read_file(dir.file("pre.h")), "#define LIMIT 5\n");
  EXPECT_EQ(read_file(dir.file("A.mtx")), matrix);
  EXPECT_EQ(dir.entries(),
            (std::vector<std::string>{"A.mtx", "b", "c.toml", "hard.csv", "k.cu", "pre.h", "r.rsp"}));
}

TEST(OutputFilesCli, DashAndALinkToStandardOutputCarryTheOutputAlone) {
  TempDir dir;
  ASSERT_EQ(::symlink("/proc/self/fd/1", dir.file("stdout").c_str()), 0);
  for (const std::string& target : {std::string("-"), dir.file("stdout")}) {
    SCOPED_TRACE(target);
    const CliResult analyze = run_warpdiv({"analyze", "--csv", target});
    ASSERT_EQ(analyze.status, 0) << analyze.err;
    EXPECT_EQ(analyze.out.substr(0, kDivergenceHeader.size()), kDivergenceHeader);
    EXPECT_EQ(count_lines(analyze.out), 21u) << analyze.out;  // no text report after the CSV
    EXPECT_TRUE(contains(analyze.out, kLectureLoadM));
    EXPECT_TRUE(analyze.err.empty()) << analyze.err;

    const CliResult sweep = run_warpdiv({"sweep", "--sizes", "100", "--tiles", "16", "--csv", target});
    ASSERT_EQ(sweep.status, 0) << sweep.err;
    EXPECT_EQ(sweep.out.substr(0, kSweepHeader.size()), kSweepHeader);
    EXPECT_EQ(count_lines(sweep.out), 5u) << sweep.out;
    EXPECT_TRUE(contains(sweep.out, kLectureSweepLoadM));

    const CliResult page = run_warpdiv({"analyze", "--html", target, "--csv", dir.file("a.csv")});
    ASSERT_EQ(page.status, 0) << page.err;
    EXPECT_EQ(page.out.rfind("<!DOCTYPE html>", 0), 0u) << page.out.substr(0, 200);
    EXPECT_TRUE(contains(read_file(dir.file("a.csv")), kLectureLoadM));

    const CliResult occupancy =
        run_warpdiv({"occupancy", "--gpu", "lecture-16k", "--regs", "16", "--tile", "16", "--csv", target});
    ASSERT_EQ(occupancy.status, 0) << occupancy.err;
    EXPECT_EQ(occupancy.out.rfind("gpu,threads_per_block,", 0), 0u) << occupancy.out;
    EXPECT_EQ(count_lines(occupancy.out), 2u) << occupancy.out;
  }
  EXPECT_TRUE(is_symlink(dir.file("stdout")));
}

TEST(OutputFilesCli, AFailedWriteToStandardOutputIsAnError) {
  TempDir dir, capture;
  if (!make_char_device(dir.file("full"), 1, 7)) GTEST_SKIP() << "mknod not permitted";
  const std::vector<std::vector<std::string>> runs = {
      {"analyze"},
      {"--help"},
      {"analyze", "--help"},
      {"occupancy", "--gpu", "list"},
      {"occupancy", "--gpu", "lecture-16k", "--regs", "16"},
      {"analyze", "--csv", "-"},
      {"sweep", "--sizes", "1:2000:1", "--tiles", "16", "--csv", "-"},  // fails half-way
  };
  for (const std::vector<std::string>& args : runs) {
    SCOPED_TRACE(args[0] + " " + args.back());
    ChildSetup setup;
    setup.stdout_path = dir.file("full");
    setup.stderr_path = capture.file("err");
    const ChildEnd end = wait_for(spawn_warpdiv(args, setup));
    EXPECT_EQ(end.exit_status, 1);
    const std::string err = read_file(capture.file("err"));
    EXPECT_EQ(count_lines(err), 1u) << err;
    EXPECT_TRUE(contains(err, "standard output failed")) << err;
    EXPECT_TRUE(is_char_device(dir.file("full")));
  }
}

TEST(OutputFilesCli, NamesOfUpTo255BytesAreAccepted) {
  TempDir dir;
  for (const std::size_t length : {244u, 250u, 254u, 255u}) {
    const std::string name(length, 'n');
    const CliResult r = run_warpdiv({"analyze", "--csv", dir.file(name)});
    EXPECT_EQ(r.status, 0) << length << r.err;
    EXPECT_TRUE(contains(read_file(dir.file(name)), kLectureLoadM)) << length;
  }
  EXPECT_EQ(dir.entries().size(), 4u);  // no temporary file left
  const CliResult r = run_warpdiv({"analyze", "--csv", dir.file(std::string(256, 'n'))});
  expect_refusal(r, BadInput{{}, "File name too long"});
}

/// Waits (up to two minutes: under a loaded ctest -j2 on two cores, the count and the rendering
/// before the write took over 30 s) until a temporary file in `dir` holds `bytes` or more.
bool temporary_file_grows_to(const TempDir& dir, off_t bytes) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    for (const std::string& name : temporary_files(dir.path())) {
      struct stat info {};
      if (::stat(dir.file(name).c_str(), &info) == 0 && info.st_size >= bytes) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// A million launches (about ten seconds) into an existing CSV.
const std::vector<std::string> kLongSweep = {"sweep", "--sizes", "1:1000000:1", "--tiles", "32", "--csv"};

/// Writes "precious\n" to DIR/c.csv and starts the long sweep into it (`pid`): true once its
/// temporary file holds 64 KiB.
bool long_sweep_writing(const TempDir& dir, pid_t& pid) {
  write_file(dir.file("c.csv"), "precious\n");
  std::vector<std::string> args = kLongSweep;
  args.push_back(dir.file("c.csv"));
  pid = spawn_warpdiv(args, ChildSetup{});
  return temporary_file_grows_to(dir, 64 * 1024);
}

// A FIFO that no process opens for reading: refused after the bounded wait, exit 2, one line.
TEST(OutputFilesCli, FifoThatNoProcessReadsIsRefused) {
  for (const Writer& w : {kWriters[0], kWriters[2]}) {
    SCOPED_TRACE(w.label);
    TempDir dir;
    ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
    const auto start = std::chrono::steady_clock::now();
    const CliResult r = run_warpdiv(with_file(w.args, dir.file("fifo")));
    const auto waited = std::chrono::steady_clock::now() - start;
    expect_refusal(r, BadInput{w.args, "is a FIFO that no process reads from (waited 2 s)"});
    EXPECT_LT(waited, std::chrono::seconds(8));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"fifo"});
  }
}

// A reader that opens the FIFO and never reads: once the pipe is full, the write fails after the
// bounded wait (exit 1, one line) instead of hanging.
TEST(OutputFilesCli, FifoWhoseReaderNeverReadsFailsTheWrite) {
  TempDir dir;
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  const int reader = ::open(dir.file("fifo").c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(reader, 0);
  std::vector<std::string> args = kLongSweep;
  args.push_back(dir.file("fifo"));
  const auto start = std::chrono::steady_clock::now();
  const CliResult r = run_warpdiv(args);
  const auto waited = std::chrono::steady_clock::now() - start;
  ::close(reader);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "writing failed: the process reading it took nothing for 10 s")) << r.err;
  EXPECT_GE(waited, std::chrono::seconds(10));
  EXPECT_LT(waited, std::chrono::seconds(40));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"fifo"});
}

TEST(OutputFilesCli, SignalsDuringALongSweepLeaveNoTemporaryFile) {
  for (const int signal_number : {SIGTERM, SIGHUP, SIGQUIT}) {
    SCOPED_TRACE(strsignal(signal_number));
    TempDir dir;
    pid_t pid = 0;
    ASSERT_TRUE(long_sweep_writing(dir, pid)) << "the sweep wrote nothing";
    ASSERT_EQ(::kill(pid, signal_number), 0);
    const ChildEnd end = wait_for(pid);
    EXPECT_EQ(end.signal, signal_number) << "exit status " << end.exit_status;
    EXPECT_EQ(read_file(dir.file("c.csv")), "precious\n");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"c.csv"});
  }
}

TEST(OutputFilesCli, CtrlCDuringALongSweepStillCommitsTheFinishedRows) {
  TempDir dir;
  pid_t pid = 0;
  ASSERT_TRUE(long_sweep_writing(dir, pid)) << "the sweep wrote nothing";
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  const ChildEnd end = wait_for(pid);
  EXPECT_EQ(end.exit_status, 130);
  const std::string csv = read_file(dir.file("c.csv"));
  EXPECT_EQ(csv.substr(0, kSweepHeader.size()), kSweepHeader);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"c.csv"});
}

TEST(OutputFilesCli, FileSizeLimitDuringASweepLeavesNoTemporaryFile) {
  // SIGXFSZ: the temporary file grows past RLIMIT_FSIZE (256 KiB).
  TempDir dir;
  write_file(dir.file("c.csv"), "precious\n");
  std::vector<std::string> args = kLongSweep;
  args.push_back(dir.file("c.csv"));
  ChildSetup setup;
  setup.file_size_limit = 256 * 1024;
  const ChildEnd end = wait_for(spawn_warpdiv(args, setup));
  EXPECT_EQ(end.signal, SIGXFSZ) << "exit status " << end.exit_status;
  EXPECT_EQ(read_file(dir.file("c.csv")), "precious\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"c.csv"});
}

TEST(OutputFilesCli, SigtermDuringASweepWithAPageLeavesNeitherFile) {
  TempDir dir;
  const pid_t pid = spawn_warpdiv({"sweep", "--sizes", "1:100000:1", "--tiles", "32", "--csv",
                                   dir.file("c.csv"), "--html", dir.file("c.html")},
                                  ChildSetup{});
  ASSERT_TRUE(temporary_file_grows_to(dir, 64 * 1024)) << "the sweep wrote nothing";
  ASSERT_EQ(::kill(pid, SIGTERM), 0);
  EXPECT_EQ(wait_for(pid).signal, SIGTERM);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(OutputFilesCli, ClosedPipeOnStandardOutputLeavesNoTemporaryFile) {
  // `warpdiv sweep --csv - --html page.html | head -1`: SIGPIPE when the reader has gone.
  TempDir dir;
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  ::close(pipe_ends[0]);  // nobody will read
  ChildSetup setup;
  setup.stdout_fd = pipe_ends[1];
  const pid_t pid = spawn_warpdiv(
      {"sweep", "--sizes", "1:100000:1", "--tiles", "32", "--csv", "-", "--html", dir.file("page.html")},
      setup);
  ::close(pipe_ends[1]);
  EXPECT_EQ(wait_for(pid).signal, SIGPIPE);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(OutputFilesCli, SignalsDuringALongReplayLeaveNoTemporaryFile) {
  // --engine replay on 3000^3 with T = 32 visits 94^3 * 32 = 26,578,688 warp-phases, each some 70
  // warp-statement evaluations: about 15 s on two cores.
  for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
    SCOPED_TRACE(strsignal(signal_number));
    TempDir dir;
    write_file(dir.file("r.csv"), "precious\n");
    const pid_t pid = spawn_warpdiv({"analyze", "--engine", "replay", "--width", "3000", "--tile", "32",
                                     "--csv", dir.file("r.csv"), "--html", dir.file("r.html")},
                                    ChildSetup{});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (temporary_files(dir.path()).size() < 2 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_EQ(temporary_files(dir.path()).size(), 2u);
    ASSERT_EQ(::kill(pid, signal_number), 0);
    EXPECT_EQ(wait_for(pid).signal, signal_number);
    EXPECT_EQ(read_file(dir.file("r.csv")), "precious\n");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"r.csv"});
  }
}

// A signal ignored when warpdiv started (nohup, a script's background job) stays ignored while the
// replay runs (which catches Ctrl-C itself): the run ends as if it had not come, exit 0, its file
// written. The replay of 4,096,000 threads through 300 iterations takes some 3 s on one core.
TEST(OutputFilesCli, SignalsIgnoredAtTheStartStayIgnoredDuringAReplay) {
  // SIGTERM and SIGHUP are caught only by the output files, which leave an ignored one ignored.
  for (const int signal_number : {SIGINT}) {
    SCOPED_TRACE(strsignal(signal_number));
    TempDir dir;
    write_file(dir.file("k.cu"),
               "__global__ void k(int *o, int n) {\n  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  for (int i = 0; i < n; i++)\n    if ((t + i) % 3 == 0) o[t] += i;\n}\n");
    write_file(dir.file("r.csv"), "precious\n");
    ChildSetup setup;
    setup.ignored = {signal_number};
    const pid_t pid = spawn_warpdiv({"analyze", dir.file("k.cu"), "--grid", "4000", "--block", "1024",
                                     "--arg", "n=300", "--engine", "replay", "--csv", dir.file("r.csv")},
                                    setup);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (temporary_files(dir.path()).empty() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_EQ(temporary_files(dir.path()).size(), 1u);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    ASSERT_EQ(::kill(pid, signal_number), 0);
    const ChildEnd end = wait_for(pid);
    EXPECT_EQ(end.exit_status, 0) << "signal " << end.signal;
    EXPECT_EQ(read_file(dir.file("r.csv")).rfind("file,line,", 0), 0u);
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"k.cu", "r.csv"}));
  }
}

// Ctrl-C once the CSV of a --by-iteration count is being written (its temporary file past 4 MiB):
// the write stops, exit 130 with one line, and neither the output nor a temporary file is left.
// The kernel's loop runs 400,000 iterations, one CSV row per iteration for each of its statements
// (some 100 MB), so that the write lasts well beyond the moment the signal is sent.
TEST(OutputFilesCli, CtrlCWhileACsvIsWrittenLeavesNoFile) {
  TempDir dir;
  write_file(dir.file("loop.cu"),
             "__global__ void loop(int* a, int n) {\n  for (int i = 0; i < n; i++) {\n"
             "    if ((i & 1) == (threadIdx.x & 1)) a[threadIdx.x] += i;\n  }\n}\n");
  write_file(dir.file("c.csv"), "precious\n");
  ChildSetup setup;
  setup.stderr_path = dir.file("err.txt");
  const pid_t pid = spawn_warpdiv({"analyze", dir.file("loop.cu"), "--grid", "1", "--block", "32", "--arg",
                                   "n=400000", "--by-iteration", "--csv", dir.file("c.csv")},
                                  setup);
  ASSERT_TRUE(temporary_file_grows_to(dir, 4 << 20)) << "the CSV was not written";
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  const ChildEnd end = wait_for(pid);
  EXPECT_EQ(end.exit_status, 130) << "signal " << end.signal;
  EXPECT_EQ(read_file(dir.file("err.txt")),
            "warpdiv analyze: interrupted: no file written [warpdiv-interrupted]\n");
  EXPECT_EQ(read_file(dir.file("c.csv")), "precious\n");
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"c.csv", "err.txt", "loop.cu"}));
}

void make_old(const std::string& path) {
  const timespec old[2] = {{::time(nullptr) - 60, 0}, {::time(nullptr) - 60, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), old, 0), 0) << path;
}

// SIGKILL gives warpdiv no chance to remove its temporary file: the next run writing into that
// folder removes it, once its process is gone and it is older than 10 s. Files it cannot prove
// stale stay: a live process's (this test's own pid), a recent one, another host's, another name.
TEST(OutputFilesCli, ALaterRunRemovesTheTemporaryFilesOfAKilledOne) {
  TempDir dir;
  pid_t pid = 0;
  ASSERT_TRUE(long_sweep_writing(dir, pid)) << "the sweep wrote nothing";
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  EXPECT_EQ(wait_for(pid).signal, SIGKILL);
  const std::vector<std::string> left = temporary_files(dir.path());
  ASSERT_EQ(left.size(), 1u);
  // ".wd.HOST.PID.XXXXXX": this host's name, as the file names carry it, is read from it.
  const std::string pid_part = "." + std::to_string(pid) + ".";
  const std::size_t at = left[0].rfind(pid_part);
  ASSERT_TRUE(left[0].rfind(".wd.", 0) == 0 && at != std::string::npos && at > 4 &&
              at + pid_part.size() + 6 == left[0].size())
      << left[0];
  const std::string host = left[0].substr(4, at - 4);
  // Not yet 10 s old: kept.
  ASSERT_EQ(run_warpdiv({"analyze", "--csv", dir.file("a.csv")}).status, 0);
  EXPECT_EQ(temporary_files(dir.path()), left);
  make_old(dir.file(left[0]));
  const std::string live = ".wd." + host + "." + std::to_string(::getpid()) + ".abcdef";
  const std::string other_host = ".wd.elsewhere." + std::to_string(pid) + ".abcdef";
  const std::string unnamed = ".wd.abcdef";
  for (const std::string& name : {live, other_host, unnamed}) {
    write_file(dir.file(name), "x");
    make_old(dir.file(name));
  }
  ASSERT_EQ(run_warpdiv({"analyze", "--csv", dir.file("a.csv")}).status, 0);
  std::vector<std::string> kept = temporary_files(dir.path());
  std::vector<std::string> expected = {other_host, live, unnamed};
  std::sort(kept.begin(), kept.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(kept, expected);
  EXPECT_EQ(read_file(dir.file("c.csv")), "precious\n");
}

// The program itself, its plugins and its GPU presets are inputs of every run. Run from a copy of
// the build's binary, plugins and gpus.csv, so that a failure replaces nothing of the build.
TEST(OutputFilesCli, TheProgramItsPluginsAndItsPresetsAreNeverOutputs) {
  TempDir dir;
  const std::string built = std::filesystem::path(warpdiv_binary()).parent_path().string();
  for (const char* name : {"warpdiv", "libwarpdiv-frontend.so", "libwarpdiv-jit.so", "gpus.csv"}) {
    std::filesystem::copy_file(built + "/" + name, dir.file(name));
    ::chmod(dir.file(name).c_str(), 0755);
  }
  write_file(dir.file("k.cu"), "__global__ void k(int* a) { a[threadIdx.x] = 1; }\n");
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"warpdiv", "the warpdiv program"},
      {"libwarpdiv-frontend.so", "warpdiv's Clang front-end"},
      {"libwarpdiv-jit.so", "warpdiv's native-replay plugin"},
      {"gpus.csv", "warpdiv's GPU presets"}};
  for (const auto& [name, what] : inputs) {
    const std::string before = read_file(dir.file(name));
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"analyze", "k.cu", "--grid", "1", "--block", "32", "--csv", "./" + name},
          std::vector<std::string>{"occupancy", "--gpu", "h100", "--threads", "128", "--csv", name}}) {
      SCOPED_TRACE(args.front() + " " + name);
      const CliResult r = run_in(dir.path(), dir.file("warpdiv"), args);
      expect_refusal(r, BadInput{{},
                                 "'" + args.back() + "' is the same file as " + what + " '" + dir.file(name) +
                                     "', an input of this run"});
    }
    EXPECT_EQ(read_file(dir.file(name)), before) << name;
  }
}

// Ctrl-C while the compiler runs (occupancy FILE.cu): the compiler's process group is stopped and
// warpdiv's compile folder, the compiler's TMPDIR, goes with it; exit 130, no CSV.
// SIGINT ends with exit 130; SIGTERM and SIGHUP end warpdiv by the same signal, as every command
// does (a shell reports 128 + N: 143, 129), the folder gone just the same.
TEST(OutputFilesCli, CtrlCDuringACompileLeavesNoFolder) {
  for (const auto& [signal, status] :
       std::vector<std::pair<std::string, int>>{{"INT", 130}, {"TERM", 143}, {"HUP", 129}}) {
    SCOPED_TRACE(signal);
    TempDir dir;
    ASSERT_EQ(::mkdir(dir.file("tmp").c_str(), 0755), 0);
    write_file(dir.file("k.cu"), "__global__ void k(int* a) { a[threadIdx.x] = 1; }\n");
    // A compiler that answers the version questions and then compiles for 60 s, in TMPDIR.
    write_file(dir.file("nvcc"),
               "#!/bin/sh\ncase \"$1\" in\n--version) echo 'release 13.0';;\n"
               "--list-gpu-code) echo sm_90;;\n*) touch \"$TMPDIR/left\"; touch '" +
                   dir.file("started") + "'; sleep 60;;\nesac\n");
    ::chmod(dir.file("nvcc").c_str(), 0755);
    // warpdiv in the foreground (a background job of a script starts with SIGINT ignored, which
    // warpdiv then leaves ignored), signalled from a background loop once the compiler started.
    write_file(dir.file("run.sh"),
               "( for i in $(seq 200); do [ -e started ] && break; sleep 0.05; done; kill -" + signal +
                   " $$ ) &\nexec env TMPDIR='" + dir.file("tmp") + "' WARPDIV_NVCC='" + dir.file("nvcc") +
                   "' '" + warpdiv_binary() + "' occupancy k.cu --block 32 --gpu h100 --csv o.csv\n");
    const CliResult r = run_shell("cd '" + dir.path() + "' && sh run.sh");
    EXPECT_EQ(r.status, status) << r.err;
    EXPECT_TRUE(std::filesystem::exists(dir.file("started")));
    EXPECT_TRUE(std::filesystem::is_empty(dir.file("tmp")));
    EXPECT_FALSE(std::filesystem::exists(dir.file("o.csv")));
  }
}

// Standard output on an input of the commands that answer at once: the presets --gpu list lists,
// the ncu CSV the lecture's ncu-check reads. Refused, the file left as it was.
TEST(OutputFilesCli, StandardOutputOnWhatAListingOrTheLecturesCheckReads) {
  TempDir dir;
  const std::string presets = read_file(std::string(WARPDIV_SOURCE_DIR) + "/data/gpus.csv");
  write_file(dir.file("g.csv"), presets);
  write_file(dir.file("n.csv"), "\"ID\"\n");
  for (const std::string& command : {"occupancy --gpu list --gpu-file g.csv >> g.csv",
                                     "ncu-check --ncu-csv n.csv --width 64 --tile 16 >> n.csv"}) {
    const CliResult r = run_shell("(cd '" + dir.path() + "' && '" + warpdiv_binary() + "' " + command + ")");
    EXPECT_EQ(r.status, 2) << command << r.err;
    EXPECT_TRUE(contains(r.err, "standard output is the same file as")) << r.err;
  }
  EXPECT_EQ(read_file(dir.file("g.csv")), presets);
  EXPECT_EQ(read_file(dir.file("n.csv")), "\"ID\"\n");
}

// The compiler warpdiv runs (here a stand-in nvcc that prints ptxas's report) is an input:
// --csv onto it is refused and it stays.
TEST(OutputFilesCli, TheCompilerItRunsIsAnInput) {
  TempDir dir;
  write_file(dir.file("k.cu"), "__global__ void k(int* a) { a[threadIdx.x] = 1; }\n");
  const std::string compiler =
      "#!/bin/sh\ncase \"$1\" in\n--version) echo 'release 13.0';;\n--list-gpu-code) echo sm_90;;\n"
      "*) while [ $# -gt 0 ]; do [ \"$1\" = -MF ] && echo 'k.o: k.cu' > \"$2\"; shift; done\n"
      "   echo \"ptxas info    : Compiling entry function '_Z1kPi' for 'sm_90'\" >&2\n"
      "   echo 'ptxas info    : Used 8 registers, used 0 barriers, 0 bytes smem' >&2;;\nesac\n";
  write_file(dir.file("nvcc"), compiler);
  ::chmod(dir.file("nvcc").c_str(), 0755);
  const CliResult r = run_shell("cd '" + dir.path() + "' && WARPDIV_NVCC='" + dir.file("nvcc") + "' '" +
                                warpdiv_binary() + "' occupancy k.cu --gpu h100 --block 32 --csv nvcc");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "the compiler warpdiv ran")) << r.err;
  EXPECT_EQ(read_file(dir.file("nvcc")), compiler);
}

}  // namespace
}  // namespace warpdiv::testing
