// `warpdiv check CONFIG` through the binary: what keys a statement (a template's instantiations, a
// string literal's text) and where a kernel that cannot be read is placed, figures by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

CliResult check(const TempDir& dir, const std::string& config, std::vector<std::string> flags = {}) {
  write_file(dir.file("c.toml"), config);
  std::vector<std::string> args = {"check", dir.file("c.toml")};
  args.insert(args.end(), flags.begin(), flags.end());
  return run_warpdiv(args);
}

// How many times `part` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// g's instantiations at grid 1, block 64 (2 warps), `if (v < 3)` at t.cu:1:44, `return 2` at 1:65:
// - called with v = t: lanes 0 .. 2 of warp 0 take the if, warp 1 none: 1 of 2 warp evaluations
//   diverge (50%); `return 2` runs on 29 + 32 = 61 of 64 lanes (95.31%);
// - called with v = t % 4: 3 lanes of every 4 take it, in both warps: 2 of 2 (100%); `return 2`
//   runs on lanes with t % 4 == 3, 8 per warp: 16 of 64 (25%).
const std::string kTemplate = "template <int K> __device__ int g(int v) { if (v < 3) return K; return 2; }\n";
std::string template_kernel(const std::string& v, const std::string& more = "") {
  return kTemplate + "__global__ void k(int *o) {\n  int t = threadIdx.x;\n" + more + "  o[t] = g<1>(" + v +
         ") + g<2>(" + v + ");\n}\n";
}

// Each instantiation of a template is a function of its own, keyed by its template arguments: a
// call of another instantiation added elsewhere (one that never runs) changes no key, so the
// baseline's rows stay paired, a regression in them is found, and an exemption keyed by one
// instantiation keeps applying to it alone.
TEST(CheckKeysCli, AnotherInstantiationCalledElsewhereChangesNoKey) {
  TempDir dir;
  write_file(dir.file("t.cu"), template_kernel("t"));
  const std::string config = "[[kernel]]\nfile = \"t.cu\"\ngrid = [1]\nblock = [64]\n";
  ASSERT_EQ(check(dir, config, {"--write-baseline", dir.file("b.csv")}).status, 0);
  const std::string before = read_file(dir.file("b.csv"));
  for (const char* f : {"g<1>(int)", "g<2>(int)"}) {
    SCOPED_TRACE(f);
    // if: 2 warp evaluations, 64 active lanes, 2 branch evaluations, 1 divergent.
    EXPECT_NE(before.find("\nt," + std::string(f) + ",if (v < 3),1,if,t.cu,1,44,32,2,64,2,1,"),
              std::string::npos)
        << before;
    EXPECT_NE(before.find("\nt," + std::string(f) + ",return 2,1,"), std::string::npos) << before;
  }
  // The same calls diverging, and a call of g<5> that never runs added above them.
  write_file(dir.file("t.cu"), template_kernel("t % 4", "  if (t == 64) o[0] = g<5>(t);\n"));
  const CliResult r = check(dir, config, {"--baseline", dir.file("b.csv")});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  for (const char* f : {"g<1>(int)", "g<2>(int)"}) {
    SCOPED_TRACE(f);
    EXPECT_NE(r.out.find("t.cu:1:44: warning: in '" + std::string(f) +
                         "': branch diverges in 100% of its warp evaluations (2 of 2), 50% in the baseline "
                         "(1 of 2) (check 't') [divergence-regressed]\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("t.cu:1:65: warning: in '" + std::string(f) +
                         "': return runs at 25% SIMD efficiency (16 of 64 lanes), 95.31% in the baseline "
                         "(61 of 64) (check 't') [simd-efficiency-regressed]\n"),
              std::string::npos)
        << r.out;
  }
  EXPECT_EQ(occurrences(r.out, "regressed]"), 4u) << r.out;
  // What vanished is the edited statement of k and its two calls, nothing of g.
  EXPECT_EQ(occurrences(r.out, "[baseline-vanished]"), 3u) << r.out;
  EXPECT_EQ(occurrences(r.out, "' in 'k' of the baseline"), 3u) << r.out;
  // g<5>'s statements have rows of their own (none ran), g<1>'s and g<2>'s keep theirs.
  ASSERT_EQ(check(dir, config, {"--write-baseline", dir.file("after.csv")}).status, 0);
  const std::string after = read_file(dir.file("after.csv"));
  EXPECT_NE(after.find("\nt,g<5>(int),if (v < 3),1,if,t.cu,1,44,32,0,0,0,0,"), std::string::npos) << after;
  for (const char* f : {"g<1>(int)", "g<2>(int)"})
    EXPECT_NE(after.find("\nt," + std::string(f) + ",if (v < 3),1,if,t.cu,1,44,32,2,64,2,2,"),
              std::string::npos)
        << after;
  // g<1>'s branch exempted up to 100%, g<2>'s under the kernel's 60%. 16 statements: the 3 of g
  // in each of 3 instantiations, and k's 7 (the declaration, the if, the 2 assignments, the 3 calls).
  const CliResult exempt = check(dir, config +
                                          "[kernel.limits]\nmax_divergent_fraction = 0.6\n"
                                          "[[kernel.statement]]\nfunction = \"g<1>(int)\"\n"
                                          "statement = \"if (v < 3)\"\nmax_divergent_fraction = 1\n");
  EXPECT_EQ(exempt.status, 1) << exempt.out << exempt.err;
  EXPECT_EQ(exempt.out,
            "t.cu:1:44: warning: in 'g<2>(int)': branch diverges in 100% of its warp evaluations (2 of 2), "
            "limit 60% (check 't') [divergent-branch]\n"
            "warpdiv check: 1 kernel, 16 statements: 1 limit crossed: FAILED\n");
}

// Two printf statements differing only inside their literals, at grid 1, block 64, n = 40: each
// runs on the 32 lanes of warp 0 and 8 of warp 1, 40 of 64 (62.5%), as does line 5's store.
std::string printfs(const std::string& first, const std::string& second) {
  return "#include <cstdio>\n__global__ void k(int *o, int n) {\n  int i = threadIdx.x;\n  if (i < n) "
         "printf(\"" +
         first + "\", i); if (i < n) printf(\"" + second + "\", i);\n  if (i < n) o[i] = 1;\n}\n";
}

// A string literal's text is part of the statement's key, its whitespace too: `"a  b %d"` edited to
// `"a b %d"` is another statement, and a table for one of two statements that differ only there
// applies to that one.
TEST(CheckKeysCli, WhitespaceInsideALiteralIsPartOfTheKey) {
  TempDir dir;
  write_file(dir.file("k.cu"), printfs("a  b %d", "c %d"));
  const std::string config = "[[kernel]]\nfile = \"k.cu\"\ngrid = [1]\nblock = [64]\nargs = { n = 40 }\n";
  ASSERT_EQ(check(dir, config, {"--write-baseline", dir.file("b.csv")}).status, 0);
  EXPECT_NE(read_file(dir.file("b.csv")).find("\nk,k,\"printf(\"\"a  b %d\"\", i)\",1,statement,k.cu,4,14,"),
            std::string::npos)
      << read_file(dir.file("b.csv"));
  write_file(dir.file("k.cu"), printfs("a b %d", "c %d"));
  const CliResult edited = check(dir, config, {"--baseline", dir.file("b.csv")});
  EXPECT_EQ(edited.status, 0) << edited.out << edited.err;
  EXPECT_EQ(edited.out,
            "k.cu:4:14: note: statement 'printf(\"a  b %d\", i)' in 'k' of the baseline (its line 4) is not "
            "among the statements now: write the baseline again (check 'k') [baseline-vanished]\n"
            "warpdiv check: 1 kernel, 7 statements: 0 limits crossed, 0 regressions, 1 note: passed\n");
  write_file(dir.file("k.cu"), printfs("a  b %d", "a b %d"));
  const CliResult r =
      check(dir, config +
                     "[kernel.limits]\nmin_simd_efficiency = 0.7\n[[kernel.statement]]\n"
                     "statement = \"printf(\\\"a  b %d\\\", i)\"\nmin_simd_efficiency = 0.5\n");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const std::string limit =
      ": warning: statement runs at 62.5% SIMD efficiency (40 active lanes in 2 warp "
      "evaluations of 32), limit 70% (check 'k') [simd-efficiency]\n";
  EXPECT_EQ(r.out, "k.cu:4:47" + limit + "k.cu:5:14" + limit +
                       "warpdiv check: 1 kernel, 7 statements: 2 limits crossed: FAILED\n");
}

// A kernel whose launch main() makes cannot be read from it: the finding sits at the place the
// front-end's refusal names (the argument's expression, the launch), that place no longer repeated
// in its message, also in a folder whose name looks like a place; a refusal that names no place
// (no launch at all) stays at the kernel's file.
TEST(CheckKeysCli, ALaunchThatCannotBeReadFromMainIsAFindingAtItsPlace) {
  TempDir dir;
  const std::string k = "__global__ void k(float *o, int n) { if (threadIdx.x < n) o[threadIdx.x] = 1; }\n";
  ASSERT_EQ(run_shell("mkdir '" + dir.file("x:1:2") + "'").status, 0);
  write_file(dir.file("x:1:2/f.cu"),
             k + "#include <cstdlib>\nint main() {\n  float *o; int n = atoi(\"5\");\n"
                 "  k<<<1, 64>>>(o, n);\n}\n");
  write_file(dir.file("e.cu"),
             k + "int main() {\n  float *o; int n = 5;\n  if (n == 4) k<<<1, 64>>>(o, n);\n}\n");
  write_file(dir.file("none.cu"), k + "int main() { return 0; }\n");
  write_file(
      dir.file("c.toml"),
      "[[kernel]]\nfile = \"x:1:2/f.cu\"\n[[kernel]]\nfile = \"e.cu\"\n[[kernel]]\nfile = \"none.cu\"\n");
  const CliResult r = run_in(dir.path(), warpdiv_binary(), {"check", "c.toml", "--sarif", "o.sarif"});
  EXPECT_EQ(r.status, 1) << r.err;
  const std::string give = "give grid X[,Y[,Z]] and block X[,Y[,Z]]";
  // n's expression in the launch `  k<<<1, 64>>>(o, n);` (line 5) is at column 19; the launch's
  // kernel name in `  if (n == 4) k<<<...` (line 4) at column 15.
  EXPECT_EQ(r.out,
            "x:1:2/f.cu:5:19: warning: cannot check this kernel: the argument n is not computable from "
            "the source: 'n' (x:1:2/f.cu:4:17) is set from atoi(\"5\"); give args n=VALUE (check 'f') "
            "[warpdiv-host-value-unknown]\n"
            "e.cu:4:15: error: cannot check this kernel: the program never makes this launch of k: the "
            "condition 'n == 4' of the if at e.cu:4:3 is false; " +
                give +
                " (check 'e') [warpdiv-kernel-choice]\n"
                "none.cu: error: cannot check this kernel: none.cu launches k nowhere in its host code (no "
                "k<<<...>>>(...)): " +
                give +
                " (check 'none') [warpdiv-kernel-choice]\n"
                "warpdiv check: 0 kernels, 0 statements: 3 kernels unreadable, 0 limits crossed: FAILED\n"
                "SARIF written to o.sarif\n");
  const std::string sarif = read_file(dir.file("o.sarif"));
  for (const char* region : {"\"startColumn\": 19,\n                  \"startLine\": 5",
                             "\"startColumn\": 15,\n                  \"startLine\": 4"})
    EXPECT_NE(sarif.find(region), std::string::npos) << region << "\n" << sarif;
  EXPECT_EQ(occurrences(sarif, "\"region\""), 2u) << sarif;  // none.cu's finding has none
}

}  // namespace
}  // namespace warpdiv::testing
