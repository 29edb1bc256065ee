// `warpdiv analyze FILE.cu` on sources made to break the front-end, through the real
// binary: what is analysed prints its counts, what is refused exits 2 with one line naming the
// limit; nothing crashes or hangs (the test's TIMEOUT is a generous bound). Expected figures are
// worked out by hand in the comments.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

bool reads_sources() {
  static const bool reads = [] {
    TempDir dir;
    write_file(dir.file("k.cu"), "__global__ void k(int* p) { p[threadIdx.x] = 1; }\n");
    const CliResult r = run_warpdiv({"analyze", dir.file("k.cu"), "--grid", "1", "--block", "32"});
    return !contains(r.err, "without the Clang front-end");
  }();
  return reads;
}

#define SKIP_WITHOUT_FRONTEND() \
  if (!reads_sources()) GTEST_SKIP() << "warpdiv was built without the Clang front-end"

const std::vector<std::string> kLaunch = {"--grid", "1", "--block", "64"};

CliResult analyze(const std::string& file, std::vector<std::string> more = {}) {
  std::vector<std::string> args = {"analyze", file};
  args.insert(args.end(), kLaunch.begin(), kLaunch.end());
  args.insert(args.end(), more.begin(), more.end());
  return run_warpdiv(args);
}

/// Exit 2, nothing on stdout, one line on stderr starting with "warpdiv: error: " + `start`.
void expect_one_line_refusal(const CliResult& r, const std::string& start) {
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_EQ(r.err.rfind("warpdiv: error: " + start, 0), 0u) << r.err;
}

// 10,000 links: past a main thread's stack in Clang's parser; Clang 14's Sema is quadratic in the
// chain (two scopes per link, walked by every name lookup), so 100,000 would take minutes.
TEST(AdversarialFrontendCli, AnElseIfChainOf10000BranchesIsAnalysed) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  std::string source = "__global__ void k(int* out) {\n  int t = threadIdx.x;\n  int r = 0;\n";
  for (int i = 0; i < 10'000; ++i)
    source += std::string(i == 0 ? "  " : "  else ") + "if (t == " + std::to_string(i) +
              ") r = " + std::to_string(i + 1) + ";\n";
  write_file(dir.file("chain.cu"), source + "  out[t] = r;\n}\n");
  const CliResult r = analyze(dir.file("chain.cu"));
  ASSERT_EQ(r.status, 0) << r.err;
  // Link i (t == i, line 4 + i) is reached by threads t >= i of warps 0 (t < 32) and 1: warp
  // evaluations 2 for i <= 31, 1 for i <= 63, then none; divergent unless one active lane is
  // left (i = 31 in warp 0, i = 63 in warp 1) or none of the warp's lanes is i (warp 1, i <= 31);
  // SIMD efficiency (64 - i) / (evaluations x 32).
  EXPECT_TRUE(contains(r.out, "\n    4            2           1   100.0%    if (t == 0) r = 1;\n"))
      << r.out.substr(0, 2000);
  EXPECT_TRUE(contains(r.out, "\n   34            2           1    53.1%    else if (t == 30) r = 31;\n"));
  EXPECT_TRUE(contains(r.out, "\n   35            2           0    51.6%    else if (t == 31) r = 32;\n"));
  EXPECT_TRUE(contains(r.out, "\n   36            1           1   100.0%    else if (t == 32) r = 33;\n"));
  EXPECT_TRUE(contains(r.out, "\n   67            1           0     3.1%    else if (t == 63) r = 64;\n"));
  EXPECT_TRUE(contains(r.out, "\n   68            0           0        -    else if (t == 64) r = 65;\n"));
  EXPECT_TRUE(
      contains(r.out, "\n10003            0           0        -    else if (t == 9999) r = 10000;\n"));
}

TEST(AdversarialFrontendCli, ThirtyThousandNestedIfsAreRefusedWithTheNestingLine) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  std::string source = "__global__ void k(int* out) {\n  int t = threadIdx.x; int r = 0;\n";
  for (int i = 0; i < 30'000; ++i) source += "  if (t > " + std::to_string(i % 7) + ")\n";
  write_file(dir.file("nested.cu"), source + "  r = 1;\n  out[t] = r;\n}\n");
  // The 1,001st if in a row, on line 2 + 1,001.
  expect_one_line_refusal(analyze(dir.file("nested.cu")),
                          "nesting deeper than 1000 at " + dir.file("nested.cu") + ":1003:");
}

TEST(AdversarialFrontendCli, AConditionOf100000TermsIsRefusedWithTheNestingLine) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  std::string condition;
  for (int i = 0; i < 100'000; ++i)
    condition += std::string(i == 0 ? "" : " || ") + "t == " + std::to_string(i);
  write_file(dir.file("or.cu"),
             "__global__ void k(int* out) {\n  int t = threadIdx.x; int r = 0;\n"
             "  if (" +
                 condition + ") r = 1;\n  out[t] = r;\n}\n");
  expect_one_line_refusal(analyze(dir.file("or.cu")),
                          "nesting deeper than 10000 at " + dir.file("or.cu") + ":3:");
}

TEST(AdversarialFrontendCli, AMacroBombIsRefusedNamingTheTokenLimit) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  std::string source = "#define A0 x\n";
  for (int i = 1; i <= 30; ++i)
    source +=
        "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" + std::to_string(i - 1) + "\n";
  write_file(dir.file("bomb.cu"),
             source + "__global__ void k(int* out) { int x = 0; int y = A30; out[0] = y; }\n");
  const CliResult r = analyze(dir.file("bomb.cu"));
  expect_one_line_refusal(r, "the preprocessor produced more than 20000000 tokens");
  EXPECT_TRUE(contains(r.err, "macro")) << r.err;
}

TEST(AdversarialFrontendCli, ATenMebibyteSourceIsRefusedNamingTheSizeLimit) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  // 163,840 comment lines of 64 bytes (10 MiB), then a kernel of 54 bytes.
  std::string source;
  for (int i = 0; i < 163'840; ++i) source += "//" + std::string(61, 'x') + "\n";
  write_file(dir.file("big.cu"), source + "__global__ void k(int* out) { out[threadIdx.x] = 1; }\n");
  expect_one_line_refusal(analyze(dir.file("big.cu")),
                          dir.file("big.cu") +
                              " is 10485814 bytes, above the front-end's limit "
                              "of 4194304 bytes (4 MiB) for a source file [warpdiv-file-unreadable]\n");
}

TEST(AdversarialFrontendCli, OverloadedKernelsAreListedBySignatureAndChosenByIt) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  const std::string file = dir.file("ov.cu");
  write_file(file,
             "__global__ void ov(int* p) { p[threadIdx.x] = 1; }\n"
             "__global__ void ov(float* p) { if (threadIdx.x < 40) p[threadIdx.x] = 2; }\n");
  expect_one_line_refusal(analyze(file, {"--kernel", "ov"}),
                          file +
                              ": --kernel ov names 2 overloaded kernels (ov(int *), "
                              "ov(float *)): choose one by its parameter types, as --kernel "
                              "'ov(float *)' [warpdiv-kernel-choice]\n");
  // ov(float*): threads 0..39 pass; warp 0 all of its 32, warp 1 8 of 32: divergent once.
  const CliResult r = analyze(file, {"--kernel", "ov(float*)"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "warpdiv analyze: ov(float *) in ")) << r.out;
}

/// A folder with k.cu and b/compile_commands.json whose command for k.cu is `command`.
void database_for(const TempDir& dir, const std::string& command) {
  ASSERT_EQ(::mkdir(dir.file("b").c_str(), 0755), 0);
  write_file(dir.file("k.cu"), "__global__ void k(int* p) { p[threadIdx.x] = 1; }\n");
  write_file(dir.file("b/compile_commands.json"), "[{\"directory\": \"" + dir.path() + "\", \"command\": \"" +
                                                      command + "\", \"file\": \"k.cu\"}]\n");
}

// Response files that name each other 8 times each grew to gigabytes before Clang ran out of
// memory; a cycle is now refused at once, naming the file that comes round again.
TEST(AdversarialFrontendCli, ResponseFilesThatNameEachOtherAreACycle) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  database_for(dir, "nvcc @a.rsp -c k.cu");
  std::string a, b;
  for (int i = 0; i < 8; ++i) {
    a += "@b.rsp -DA" + std::to_string(i) + "\n";
    b += "@a.rsp -DB" + std::to_string(i) + "\n";
  }
  write_file(dir.file("a.rsp"), a);
  write_file(dir.file("b.rsp"), b);
  expect_one_line_refusal(
      analyze(dir.file("k.cu"), {"-p", dir.file("b")}),
      "the response file " + dir.file("a.rsp") +
          " of the compile command names itself (through the response files it names): a cycle");
}

// Without a cycle, 8 files each naming the next 8 times would be read 8^7 times (2 million
// readings of 1 KiB): refused once 4 MiB have been read in all, naming the file that crossed it.
TEST(AdversarialFrontendCli, ResponseFilesAreBoundedInBytesAndDepth) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  database_for(dir, "nvcc @r0.rsp -c k.cu");
  const std::string padding = "-DPAD=" + std::string(1000, 'x') + "\n";
  for (int level = 0; level < 7; ++level) {
    std::string text = padding;
    for (int i = 0; i < 8; ++i) text += "@r" + std::to_string(level + 1) + ".rsp\n";
    write_file(dir.file("r" + std::to_string(level) + ".rsp"), text);
  }
  write_file(dir.file("r7.rsp"), padding);
  const CliResult wide = analyze(dir.file("k.cu"), {"-p", dir.file("b")});
  expect_one_line_refusal(wide, "the response file ");
  EXPECT_TRUE(contains(wide.err, " of the compile command takes the response files read past 4 MiB in all"))
      << wide.err;
  // A chain of 10 response files, each naming the next once: past the depth of 8.
  TempDir deep;
  database_for(deep, "nvcc @d0.rsp -c k.cu");
  for (int i = 0; i < 10; ++i)
    write_file(deep.file("d" + std::to_string(i) + ".rsp"), "@d" + std::to_string(i + 1) + ".rsp\n");
  write_file(deep.file("d10.rsp"), "-DDEEP=1\n");
  expect_one_line_refusal(analyze(deep.file("k.cu"), {"-p", deep.file("b")}),
                          "the response file " + deep.file("d8.rsp") +
                              " of the compile command nests response files more than 8 deep");
}

// A FIFO named by the database, as a response file or as an -include file, would be opened and
// waited on (by the front-end, or by Clang) with no name given: refused at once, naming it.
TEST(AdversarialFrontendCli, AFifoNamedByTheDatabaseIsRefusedNamingIt) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir;
  database_for(dir, "nvcc -include pre.h @r.rsp -c k.cu");
  ASSERT_EQ(::mkfifo(dir.file("pre.h").c_str(), 0600), 0);
  write_file(dir.file("r.rsp"), "-DX=1\n");
  const auto start = std::chrono::steady_clock::now();
  expect_one_line_refusal(analyze(dir.file("k.cu"), {"-p", dir.file("b")}),
                          "-include " + dir.file("pre.h") + " of the compile command is not a regular file");
  ASSERT_EQ(::unlink(dir.file("pre.h").c_str()), 0);
  write_file(dir.file("pre.h"), "#define Y 2\n");
  ASSERT_EQ(::unlink(dir.file("r.rsp").c_str()), 0);
  ASSERT_EQ(::mkfifo(dir.file("r.rsp").c_str(), 0600), 0);
  expect_one_line_refusal(
      analyze(dir.file("k.cu"), {"-p", dir.file("b")}),
      "the response file " + dir.file("r.rsp") + " of the compile command is not a regular file");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

// Bytes that are not UTF-8 in paths and sources (a folder or file named in Latin-1, a Latin-1
// comment or string literal, -I and -D values): analysed like any other, the text report and
// the CSV printing the bytes as they are, the HTML valid UTF-8 (U+FFFD for them), and the saved
// model giving the same report byte for byte.

/// Whether `path` is valid UTF-8, by iconv (a second implementation of the check).
bool is_utf8_file(const std::string& path) {
  return run_shell("iconv -f UTF-8 -t UTF-8 " + shell_quote(path) + " > /dev/null").status == 0;
}

/// `source` (with `more` flags) analysed with --csv, --html and --save-model into `out`: exit 0,
/// the HTML valid UTF-8, and --model on the saved model printing the same text report. Returns the
/// source's run.
CliResult analyze_and_reread(const std::string& source, const TempDir& out,
                             std::vector<std::string> more = {}) {
  more.insert(more.end(),
              {"--csv", out.file("o.csv"), "--html", out.file("o.html"), "--save-model", out.file("m.json")});
  CliResult r = analyze(source, more);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(is_utf8_file(out.file("o.html")));
  EXPECT_TRUE(contains(read_file(out.file("o.html")), "</html>"));
  const CliResult model =
      run_warpdiv({"analyze", "--model", out.file("m.json"), "--grid", "1", "--block", "64"});
  EXPECT_EQ(model.status, 0) << model.err;
  EXPECT_EQ(r.out, model.out + "\nCSV written to " + out.file("o.csv") + "\nHTML written to " +
                       out.file("o.html") + "\nModel written to " + out.file("m.json") + "\n");
  return r;
}

// `if (t % 4 == 0)` on 64 threads: both warps reach it and split (8 lanes of 32 pass), so
// 2 evaluations, 2 divergent; the store under it runs 16 of 64 lanes (25.0%), each warp's 8 ints
// 16 bytes apart spanning 4 sectors: 2 requests (stores), 8 sectors, 64 of 256 bytes (25.0%).
const std::string kIfKernel =
    "__global__ void k(int* p) {\n  int t = threadIdx.x;\n  if (t % 4 == 0)\n    p[t] = 1;\n}\n";

void expect_if_kernel_figures(const CliResult& r, const std::string& source, const TempDir& out) {
  EXPECT_TRUE(contains(r.out, "warpdiv analyze: k in " + source + "\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n    3            2           2   100.0%    if (t % 4 == 0)\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n    4            2           -    25.0%      p[t] = 1;\n"));
  EXPECT_TRUE(contains(
      r.out,
      "\n    4           2        8   25.0%       0       2         0           -           -          -"
      "      0  p[t] = 1;\n"));
  // file, line, column, kind, iteration, warp evaluations, divergent, active and taken lanes
  EXPECT_TRUE(contains(read_file(out.file("o.csv")), "\n" + source + ",3,3,if,,2,2,64,16,"))
      << read_file(out.file("o.csv"));
}

TEST(AdversarialFrontendCli, AKernelInAFolderNamedInLatin1IsAnalysed) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir, out;
  ASSERT_EQ(::mkdir(dir.file("d\xE9").c_str(), 0755), 0);
  const std::string source = dir.file("d\xE9/k.cu");
  write_file(source, kIfKernel);
  const CliResult r = analyze_and_reread(source, out);
  expect_if_kernel_figures(r, source, out);
  // The page names the folder with U+FFFD for the byte.
  EXPECT_TRUE(contains(read_file(out.file("o.html")), "d\xEF\xBF\xBD/k.cu"));
  // The source is an input of the run (st_dev/st_ino): never an output.
  const CliResult onto = analyze(source, {"--csv", source});
  EXPECT_EQ(onto.status, 2) << onto.err;
  EXPECT_EQ(read_file(source), kIfKernel);
}

TEST(AdversarialFrontendCli, AFileNamedInLatin1IsAnalysed) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir, out;
  const std::string source = dir.file("caf\xE9.cu");
  write_file(source, kIfKernel);
  expect_if_kernel_figures(analyze_and_reread(source, out), source, out);
  // The saved model names the file with byte 0xE9 as U+10FFE9 (F4 8F BF A9), sim/support/json_bytes.hpp.
  EXPECT_TRUE(contains(read_file(out.file("m.json")), "caf\xF4\x8F\xBF\xA9.cu\""));
}

// A Latin-1 comment and string literal in the kernel, a header found through -I in a folder
// named in Latin-1 and included by a Latin-1 name, and -D TAG="\xE9": sizeof(TAG) is 2 only
// if the define reached Clang byte for byte (3 bytes of U+FFFD would make it 4, the 4 of an
// escape 5), so `t < sizeof(TAG) * 4` passes threads 0..7: warp 0 splits, warp 1 does not
// reach the store: 1 evaluation of 8 lanes (25.0%), 32 bytes in 1 sector.
TEST(AdversarialFrontendCli, Latin1CommentsLiteralsAndFlagsAreAnalysed) {
  SKIP_WITHOUT_FRONTEND();
  TempDir dir, out;
  ASSERT_EQ(::mkdir(dir.file("inc\xE9").c_str(), 0755), 0);
  const std::string header = dir.file("inc\xE9/h\xE9.cuh");
  write_file(header, "#define LIMIT (sizeof(TAG) * 4)  // \xB5s\n");
  const std::string source = dir.file("l.cu");
  write_file(source,
             "#include \"h\xE9.cuh\"\n"
             "__global__ void k(int* p) {\n"
             "  int t = threadIdx.x;  // caf\xE9, 5 \xB5s\n"
             "  if (t % 4 == 0)\n"
             "    p[t] = sizeof(\"\xE9t\xE9\");\n"
             "  if (t < LIMIT)\n"
             "    p[t] = 0;\n"
             "}\n");
  const std::vector<std::string> flags = {"-I", dir.file("inc\xE9"), "-D", "TAG=\"\xE9\""};
  const CliResult r = analyze_and_reread(source, out, flags);
  EXPECT_TRUE(contains(
      r.out, "\n    3            2           -   100.0%    int t = threadIdx.x;  // caf\xE9, 5 \xB5s\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "\n    4            2           2   100.0%    if (t % 4 == 0)\n"));
  EXPECT_TRUE(
      contains(r.out, "\n    5            2           -    25.0%      p[t] = sizeof(\"\xE9t\xE9\");\n"));
  EXPECT_TRUE(contains(r.out, "\n    6            2           1   100.0%    if (t < LIMIT)\n"));
  EXPECT_TRUE(contains(r.out, "\n    7            1           -    25.0%      p[t] = 0;\n"));
  EXPECT_TRUE(contains(
      r.out,
      "\n    7           1        1  100.0%       0       1         0           -           -          -"
      "      0  p[t] = 0;\n"));
  // The CSV's statement column holds the statement's own text, its Latin-1 bytes as they are.
  EXPECT_TRUE(contains(read_file(out.file("o.csv")), ",\"p[t] = sizeof(\"\"\xE9t\xE9\"\")\","));
  EXPECT_TRUE(contains(read_file(out.file("o.html")), "caf\xEF\xBF\xBD, 5 \xEF\xBF\xBDs"));
  // The header, read by Clang through the plugin, is an input of the run too.
  std::vector<std::string> onto = flags;
  onto.insert(onto.end(), {"--csv", header});
  EXPECT_EQ(analyze(source, onto).status, 2);
  EXPECT_EQ(read_file(header), "#define LIMIT (sizeof(TAG) * 4)  // \xB5s\n");
}

}  // namespace
}  // namespace warpdiv::testing
