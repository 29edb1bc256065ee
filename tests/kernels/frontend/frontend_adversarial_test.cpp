// The front-end against sources made to break it: an else-if chain of 10,000
// branches (analysed), deep nesting and endless chains (refused with "nesting deeper than N at
// FILE:LINE"), a macro that expands without end, a source above the size limit, and overloaded
// kernels chosen by signature. The sources are generated here; expected figures are worked out by
// hand in the comments. Each case runs in a second or two (the test's TIMEOUT is generous).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <string>

#include "sim/support/large_stack.hpp"
#include "kernels/frontend/frontend.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/source_dir.hpp"

namespace {

namespace ir = warpdiv::sim::ir;
using warpdiv::frontend::list_kernels;

class FrontendAdversarialTest : public warpdiv::testing::SnippetTest {
 protected:
  FrontendAdversarialTest() : SnippetTest("warpdiv_adversarial_") {}

  /// The path options() writes the source to.
  std::string file() const { return (dir_ / "k.cu").string(); }
};

/// if (t == 0) r = 1; else if (t == 1) r = 2; ... with `branches` links, one per line from line 4.
std::string else_if_chain(int branches) {
  std::string source = "__global__ void k(int* out) {\n  int t = threadIdx.x;\n  int r = 0;\n";
  for (int i = 0; i < branches; ++i)
    source += std::string(i == 0 ? "  " : "  else ") + "if (t == " + std::to_string(i) +
              ") r = " + std::to_string(i + 1) + ";\n";
  return source + "  out[t] = r;\n}\n";
}

/// `depth` if's nested without braces, one per line from line 3.
std::string nested_ifs(int depth) {
  std::string source = "__global__ void k(int* out) {\n  int t = threadIdx.x; int r = 0;\n";
  for (int i = 0; i < depth; ++i) source += "  if (t > " + std::to_string(i % 7) + ")\n";
  return source + "  r = 1;\n  out[t] = r;\n}\n";
}

/// if (t == 0 || t == 2 || ...) on line 3, with `terms` even numbers.
std::string or_condition(int terms) {
  std::string source = "__global__ void k(int* out) {\n  int t = threadIdx.x; int r = 0;\n  if (";
  for (int i = 0; i < terms; ++i)
    source += std::string(i == 0 ? "" : " || ") + "t == " + std::to_string(2 * i);
  return source + ") r = 1;\n  out[t] = r;\n}\n";
}

/// One block of 64 threads (two warps of 32) for a kernel with one (pointer) parameter, replayed
/// on a large stack (the replay recurses over the model's nesting as the lowering does).
ir::ReplayResult replay_one_block_of_64(const ir::Kernel& kernel) {
  ir::Launch launch;
  launch.grid = {1, 1, 1};
  launch.block = {64, 1, 1};
  launch.arguments.resize(1);
  ir::ReplayResult result;
  warpdiv::sim::run_with_large_stack([&] { result = ir::replay(kernel, launch); });
  return result;
}

// 10,000 links: past the 8 MB stack of a main thread (Clang's parser recurses per link), and what
// Clang 14 reads in seconds: its Sema is quadratic in the chain (each link opens two scopes and
// each name lookup walks them all: 30,000 links take over a minute, 100,000 some ten).
TEST_F(FrontendAdversarialTest, AnElseIfChainOf10000BranchesIsAnalysed) {
  constexpr int kBranches = 10'000;
  ir::Kernel kernel;
  warpdiv::sim::run_with_large_stack([&] { kernel = load(else_if_chain(kBranches)); });
  const ir::ReplayResult result = replay_one_block_of_64(kernel);
  // By hand, one block of 64 threads = warp 0 (t 0..31) and warp 1 (t 32..63). Thread t tests
  // t == 0, ..., t == t and stops at its own branch, so the link `t == i` (line 4 + i) is
  // reached by the threads t >= i: 64 - i lanes for i <= 63, none after.
  //   warp 0 reaches links 0..31; at link i its active lanes are t = i..31, one of them (t = i)
  //     taken: divergent for i = 0..30, uniform at i = 31 (its one lane takes it);
  //   warp 1 reaches links 0..63: at i <= 31 all 32 lanes, none taken (uniform); at
  //     i = 32..62 lanes t = i..63 with one taken (divergent); at i = 63 one lane, taken.
  // So per link i: warp evaluations 2 (i <= 31), 1 (32..63), 0 (>= 64); one divergent one for
  // i in 0..30 and 32..62 (62 in all); one lane taken for i <= 63; active lanes 64 - i.
  int ifs = 0;
  warpdiv::sim::Count evaluations = 0, divergent = 0, taken = 0, active = 0;
  for (std::size_t id = 0; id < kernel.stmts.size(); ++id) {
    const ir::Stmt& s = kernel.stmts[id];
    if (s.kind != ir::StmtKind::If) continue;
    ++ifs;
    const int i = static_cast<int>(s.range.line) - 4;
    ASSERT_GE(i, 0);
    ASSERT_LT(i, kBranches);
    const ir::StatementCounts& c = result.statements[id];
    const warpdiv::sim::Count want_evaluations = i <= 31 ? 2 : i <= 63 ? 1 : 0;
    const warpdiv::sim::Count want_divergent = (i <= 30 || (i >= 32 && i <= 62)) ? 1 : 0;
    if (i < 70 || i == kBranches - 1) {
      EXPECT_EQ(c.warp_evaluations, want_evaluations) << "link " << i;
      EXPECT_EQ(c.divergent, want_divergent) << "link " << i;
      EXPECT_EQ(c.taken_lanes, i <= 63 ? 1u : 0u) << "link " << i;
      EXPECT_EQ(c.active_lanes, i <= 63 ? static_cast<warpdiv::sim::Count>(64 - i) : 0u) << "link " << i;
    }
    evaluations += c.warp_evaluations;
    divergent += c.divergent;
    taken += c.taken_lanes;
    active += c.active_lanes;
  }
  EXPECT_EQ(ifs, kBranches);
  EXPECT_EQ(evaluations, 32u * 2 + 32u * 1);
  EXPECT_EQ(divergent, 62u);
  EXPECT_EQ(taken, 64u);
  EXPECT_EQ(active, 64u * 65 / 2);  // sum of 64 - i over i = 0..63
}

TEST_F(FrontendAdversarialTest, NestingDeeperThanTheLoweringFollowsIsRefusedWithItsLine) {
  // The lowering counts the body (1), if number k (line 2 + k) one level below the previous
  // (depth k + 1), its condition t > c (k + 2), the condition's read of t, an implicit
  // lvalue-to-rvalue cast (k + 3), and t itself (k + 4): the first level past 1000 is the t of
  // if number 997, on line 999.
  const std::string message = refusal(nested_ifs(997));
  EXPECT_EQ(message.rfind("nesting deeper than 1000 at " + file() + ":999:", 0), 0u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  // 996 if's, 1000 levels deep in all, are followed.
  EXPECT_EQ(refusal(nested_ifs(996)), "");
}

TEST_F(FrontendAdversarialTest, ThirtyThousandNestedIfsAreRefusedBeforeClangRecursesIntoThem) {
  // Counted as the tokens arrive: the 1,001st if in a row (no ';' or '}' between) is on line
  // 2 + 1,001.
  const std::string message = refusal(nested_ifs(30'000));
  EXPECT_EQ(message.rfind("nesting deeper than 1000 at " + file() + ":1003:", 0), 0u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST_F(FrontendAdversarialTest, AConditionOf100000TermsIsRefusedBeforeClangsQuadraticCost) {
  // 100,000 terms t == 2i joined by ||: the 10,001st == of the chain stops the parse, on line 3.
  const std::string message = refusal(or_condition(100'000));
  EXPECT_EQ(message.rfind("nesting deeper than 10000 at " + file() + ":3:", 0), 0u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST_F(FrontendAdversarialTest, AConditionOf400TermsIsCountedAndOf1200IsTooDeepForTheLowering) {
  // t == 0 || t == 2 || ... || t == 798: true for the even threads. With 64 threads, each warp
  // has 16 even lanes of 32: both warps divergent, 32 lanes taken of 64.
  const ir::Kernel kernel = load(or_condition(400));
  const ir::ReplayResult result = replay_one_block_of_64(kernel);
  int ifs = 0;
  for (std::size_t id = 0; id < kernel.stmts.size(); ++id) {
    if (kernel.stmts[id].kind != ir::StmtKind::If) continue;
    ++ifs;
    EXPECT_EQ(result.statements[id].warp_evaluations, 2u);
    EXPECT_EQ(result.statements[id].divergent, 2u);
    EXPECT_EQ(result.statements[id].taken_lanes, 32u);
  }
  EXPECT_EQ(ifs, 1);
  // 1,200 terms: 1,199 ||'s nest 1,199 deep, below the 10,000 Clang is given, past the lowering's
  // 1,000.
  EXPECT_EQ(refusal(or_condition(1'200)).rfind("nesting deeper than 1000 at " + file() + ":3:", 0), 0u)
      << refusal(or_condition(1'200));
}

TEST_F(FrontendAdversarialTest, AMacroThatExpandsWithoutEndIsRefused) {
  // A30 would expand to 2^30 tokens: A_i has two A_(i-1).
  std::string defines = "#define A0 x\n";
  for (int i = 1; i <= 30; ++i)
    defines +=
        "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" + std::to_string(i - 1) + "\n";
  for (const std::string use : {"int y = A30;", "int y = F(A30);"}) {  // F: inside an argument
    const std::string message = refusal(defines +
                                        "#define F(v) v\n__global__ void k(int* out) {\n"
                                        "  int x = 0; " +
                                        use + " out[0] = y;\n}\n");
    EXPECT_NE(message.find("the preprocessor produced more than 20000000 tokens"), std::string::npos)
        << message;
    EXPECT_NE(message.find("macro"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST_F(FrontendAdversarialTest, SourcesAboveFourMebibytesAreRefused) {
  const std::string kernel = "__global__ void k(int* out) { out[threadIdx.x] = 1; }\n";
  // 10 MiB of comment lines of 64 bytes, then the kernel's 54: 10,485,760 + 54 bytes.
  std::string big;
  for (std::size_t i = 0; i < (10u << 20) / 64; ++i) big += "//" + std::string(61, 'x') + "\n";
  big += kernel;
  ASSERT_EQ(big.size(), 10'485'760u + 54u);
  EXPECT_EQ(refusal(big), file() +
                              " is 10485814 bytes, above the front-end's limit of 4194304 "
                              "bytes (4 MiB) for a source file");
  // A header just above the limit: 4 MiB + 1 byte.
  const std::string header = write("big.h", std::string((4u << 20), ' ') + "\n");
  const std::string message = refusal("#include \"big.h\"\n" + kernel);
  EXPECT_EQ(message, header +
                         " is 4194305 bytes, above the front-end's limit of 4194304 bytes "
                         "(4 MiB) for a source file or a header it includes")
      << message;
  // Exactly 4 MiB is read.
  write("big.h", std::string((4u << 20) - 1, ' ') + "\n");
  EXPECT_EQ(refusal("#include \"big.h\"\n" + kernel), "");
}

TEST_F(FrontendAdversarialTest, AnIncludeOfAFifoOrADeviceIsRefusedAtOnce) {
  // A FIFO nobody writes to would hold Clang until the front-end's time limit; /dev/zero never
  // ends. Both are refused when opened, naming the include (not after the time limit, whose
  // message is another).
  const std::string kernel = "__global__ void k(int* out) { out[threadIdx.x] = 1; }\n";
  ASSERT_EQ(::mkfifo((dir_ / "pipe.h").c_str(), 0600), 0);
  for (const std::string include : {"pipe.h", "/dev/zero"}) {
    const std::string message = refusal("#include \"" + include + "\"\n" + kernel);
    const std::string path = include == "pipe.h" ? (dir_ / "pipe.h").string() : include;
    EXPECT_NE(message.find("cannot open file '" + path + "': not a regular file"), std::string::npos)
        << message;
  }
  // A file of /proc says it has 0 bytes and holds some: not read as empty.
  const std::string message = refusal("#include \"/proc/self/status\"\n" + kernel);
  EXPECT_NE(message.find("cannot open file '/proc/self/status': it says it has 0 bytes but holds data"),
            std::string::npos)
      << message;
}

TEST_F(FrontendAdversarialTest, OverloadedKernelsAreChosenBySignature) {
  const std::string source =
      "__global__ void ov(int* p) { p[threadIdx.x] = 1; }\n"
      "__global__ void ov(float* p, int n) { if (threadIdx.x < n) p[0] = 2; }\n";
  const auto kernels = list_kernels(options(source));
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].signature, "ov(int *)");
  EXPECT_EQ(kernels[1].signature, "ov(float *, int)");
  EXPECT_EQ(refusal(source, "ov"),
            file() +
                ": --kernel ov names 2 overloaded kernels (ov(int *), ov(float *, int)): "
                "choose one by its parameter types, as --kernel 'ov(float *, int)'");
  EXPECT_EQ(refusal(source), file() +
                                 " defines 2 __global__ functions (ov(int *), ov(float *, int)): choose one "
                                 "with --kernel NAME");
  // Spaces do not matter.
  const ir::Kernel second = load(source, "ov(float*,int)");
  ASSERT_EQ(second.parameters.size(), 2u);
  EXPECT_EQ(second.parameters[1].name, "n");
  const ir::Kernel first = load(source, " ov ( int * ) ");
  EXPECT_EQ(first.parameters.size(), 1u);
  EXPECT_EQ(refusal(source, "ov(double*)"),
            file() +
                ": no __global__ function has the signature 'ov(double*)' (defined: "
                "ov(int *), ov(float *, int))");
}

TEST_F(FrontendAdversarialTest, AFileThatIncludesItselfShowsClangsIncludeDepthErrorFirst) {
  // Clang follows the self-include until its depth limit of 200, so the one kernel is defined once
  // per inclusion; the reason, "#include nested too deeply" at line 1, column 10, comes before
  // the refusal, which says the one kernel is defined again and again.
  const std::string message = refusal("#include \"k.cu\"\n__global__ void k(int* a) { a[0] = 1; }\n");
  const std::size_t depth = message.find("k.cu:1:10: error: #include nested too deeply");
  const std::size_t count = message.find(
      "warpdiv: error: " + file() +
      " defines the __global__ function k(int *) 200 times: the file is included again and again (it "
      "includes itself, or a header without an include guard does), as Clang's errors above say "
      "[warpdiv-kernel-choice]");
  ASSERT_NE(depth, std::string::npos) << message.substr(0, 2000);
  ASSERT_NE(count, std::string::npos) << message.substr(message.size() > 2000 ? message.size() - 2000 : 0);
  EXPECT_LT(depth, count);
}

}  // namespace
