// Typed diagnostics through the binary: one real input per category gives its id, its exit status
// and its printed form (the place first when the source has one); `warpdiv check` carries the id
// into SARIF; `warpdiv diagnostics` and docs/guide/diagnostics.md list the table of
// sim/support/diagnostics.def.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/support/errors.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

const std::string kRoot = WARPDIV_SOURCE_DIR;

// Each kernel's faulting line is worked out by hand: line 2, the statement's first column 3.
const char* const kOutOfBounds = "__global__ void k(int *a) {\n  a[threadIdx.x + 1] = 1;\n}\n";
const char* const kOverflow =
    "__global__ void k(int *a) {\n  int x = (int)threadIdx.x + 2147483647;\n  a[threadIdx.x] = x;\n}\n";
const char* const kInlineAsm = "__global__ void k(int *a) {\n  asm(\"nop;\");\n  a[threadIdx.x] = 1;\n}\n";
const char* const kDataDependent =
    "__global__ void k(int *a) {\n  if (a[threadIdx.x] > 0) a[threadIdx.x] = 1;\n}\n";

CliResult analyze(const TempDir& dir, const std::string& source, const std::vector<std::string>& flags) {
  write_file(dir.file("k.cu"), source);
  std::vector<std::string> args = {"analyze", dir.file("k.cu"), "--grid", "1", "--block", "32"};
  args.insert(args.end(), flags.begin(), flags.end());
  return run_warpdiv(args);
}

TEST(DiagnosticsCli, UndefinedBehaviourIsNamedAtItsPlace) {
  TempDir dir;
  // Thread 31 writes a[32] of 32 elements.
  const CliResult oob = analyze(dir, kOutOfBounds, {"--alloc", "a=32"});
  EXPECT_EQ(oob.status, 2);
  EXPECT_EQ(oob.err,
            dir.file("k.cu") +
                ":2:3: error: out of bounds: 'a[threadIdx.x + 1]' writes element 32 "
                "of 'a', which holds 32 elements of 4 bytes (0 to 31), in block (0, 0, 0), thread (31, 0, 0) "
                "[warpdiv-out-of-bounds]\n");
  // Thread 1: 1 + 2147483647 passes INT_MAX; the '+' is at column 11.
  const CliResult overflow = analyze(dir, kOverflow, {"--alloc", "a=32"});
  EXPECT_EQ(overflow.status, 2);
  EXPECT_EQ(
      overflow.err.rfind(dir.file("k.cu") + ":2:11: error: undefined behaviour: signed overflow in '+'", 0),
      0u)
      << overflow.err;
  EXPECT_NE(overflow.err.find("[warpdiv-undefined-arithmetic]\n"), std::string::npos) << overflow.err;
}

// A NumPy .npy file of int32 values (format 1.0, its header padded to 64 bytes).
std::string int32_npy(const std::vector<std::int32_t>& values) {
  std::string header =
      "{'descr': '<i4', 'fortran_order': False, 'shape': (" + std::to_string(values.size()) + ",), }";
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  for (const std::int32_t v : values)
    for (int b = 0; b < 4; ++b) out += static_cast<char>(static_cast<std::uint32_t>(v) >> (8 * b) & 0xff);
  return out;
}

// Undefined behaviour in an operation whose operands the model holds is named wherever it
// stands: in a value stored to memory beside a load (with the load's values given or not), in
// the right operand of a compound assignment to memory or to a local, in the compound operation
// itself where the element's value is followed; by the replay (with native code), the class
// engine and all of them compared alike. `t` is threadIdx.x of one block of 64 threads; each
// thread and column is worked out by hand.
TEST(DiagnosticsCli, UndefinedBehaviourInAWrittenValueIsNamedWhereItsOperandsAreHeld) {
  TempDir dir;
  write_file(dir.file("zeros.npy"), int32_npy(std::vector<std::int32_t>(64, 0)));
  std::vector<std::int32_t> counting(64);
  for (std::int32_t i = 0; i < 64; ++i) counting[static_cast<std::size_t>(i)] = i;
  write_file(dir.file("counting.npy"), int32_npy(counting));
  struct Case {
    std::string statement;  // line 3
    std::vector<std::string> flags;
    std::string expected;  // "COLUMN: WHAT in '<op>' (int32) ... thread (N, 0, 0)", or "" for none
  };
  const std::string zeros = "in=" + dir.file("zeros.npy");
  const std::string div3 = "division by zero in '/' (int32) in block (0, 0, 0), thread (3, 0, 0)";
  const std::vector<Case> cases = {
      // t + 2147483647 passes INT_MAX from t = 1; the '+' of the parentheses at column 19.
      {"  o[t] = in[t] + (t + 2147483647);",
       {"--data", zeros},
       "3:19: error: undefined behaviour: signed overflow in '+' (int32) in block (0, 0, 0), thread (1, 0, "
       "0)"},
      // 1 << t: t = 32 is the first shift out of 0..31; the `1` at column 19.
      {"  o[t] = in[t] + (1 << t);",
       {"--data", zeros},
       "3:19: error: undefined behaviour: shift amount out of range 0..31 in '<<' (int32) in block (0, 0, "
       "0), "
       "thread (32, 0, 0)"},
      // 100 / (t - 3) divides by zero at t = 3, with or without the values of in[].
      {"  o[t] = in[t] + 100 / (t - 3);", {"--data", zeros}, "3:18: error: undefined behaviour: " + div3},
      {"  o[t] = in[t] + 100 / (t - 3);", {}, "3:18: error: undefined behaviour: " + div3},
      {"  atomicAdd(&o[0], in[t] + 100 / (t - 3));", {}, "3:28: error: undefined behaviour: " + div3},
      // Compound assignments to memory: the right operand starts at column 11.
      {"  o[t] += 100 / (t - 3);", {}, "3:11: error: undefined behaviour: " + div3},
      {"  o[t] -= 100 % (t - 3);",
       {},
       "3:11: error: undefined behaviour: division by zero in '%' (int32) in block (0, 0, 0), thread (3, 0, "
       "0)"},
      // 1 << (t + 1): the shift by 32 at t = 31.
      {"  o[t] |= 1 << (t + 1);",
       {},
       "3:11: error: undefined behaviour: shift amount out of range 0..31 in '<<' (int32) in block (0, 0, "
       "0), "
       "thread (31, 0, 0)"},
      // t * 100000000: 21 * 10^8 < 2^31 - 1 < 22 * 10^8.
      {"  o[t] += t * 100000000;",
       {},
       "3:11: error: undefined behaviour: signed overflow in '*' (int32) in block (0, 0, 0), thread (22, 0, "
       "0)"},
      // The last iteration (i = 9) divides by zero in every thread: thread 0 first; column 40.
      {"  for (int i = 0; i < 10; i++) o[t] += 100 / (9 - i);",
       {},
       "3:40: error: undefined behaviour: division by zero in '/' (int32) in block (0, 0, 0), thread (0, 0, "
       "0)"},
      // The same on the last of 100000 iterations (the class engine cannot step over it); column 44.
      {"  for (int i = 0; i < 100000; i++) o[t] += 100 / (99999 - i);",
       {},
       "3:44: error: undefined behaviour: division by zero in '/' (int32) in block (0, 0, 0), thread (0, 0, "
       "0)"},
      // i * 30000 passes INT_MAX from i = 71583 (71582 * 30000 = 2147460000 < 2147483647 <
      // 2147490000) in every thread: thread 0; the '*' at column 44, at 52 beside a load.
      {"  for (int i = 0; i < 100000; i++) o[t] += i * 30000;",
       {},
       "3:44: error: undefined behaviour: signed overflow in '*' (int32) in block (0, 0, 0), thread (0, 0, "
       "0)"},
      {"  for (int i = 0; i < 100000; i++) o[t] += in[i] + i * 30000;",
       {},
       "3:52: error: undefined behaviour: signed overflow in '*' (int32) in block (0, 0, 0), thread (0, 0, "
       "0)"},
      // A local whose sum the model does not hold: its right operand still is; column 23.
      {"  int s = in[t]; s += 100 / (t - 3); o[t] = s;", {}, "3:23: error: undefined behaviour: " + div3},
      {"  int s = in[t] + 100 / (t - 3); o[t] = s;", {}, "3:19: error: undefined behaviour: " + div3},
      // o[t] followed by value (a branch reads it): o[1] + 2147483647 passes INT_MAX; the
      // compound assignment from column 18.
      {"  if (o[t] >= 0) o[t] += 2147483647;",
       {"--data", "o=" + dir.file("counting.npy")},
       "3:18: error: undefined behaviour: signed overflow in '+' (int32) in block (0, 0, 0), thread (1, 0, "
       "0)"},
      // Not evaluated where it is undefined: thread 3 skips the statement; the arm of a ?: that
      // no thread chooses (in[] is 0), or whose choice the model does not hold.
      {"  if (t != 3) o[t] += 100 / (t - 3);", {}, ""},
      {"  o[t] = in[t] != 0 ? 100 / (t - 3) : 0;", {"--data", zeros}, ""},
      {"  o[t] = in[t] != 0 ? 100 / (t - 3) : 0;", {}, ""},
  };
  for (const Case& c : cases) {
    const std::string source =
        "__global__ void k(int *o, const int *in) {\n  int t = threadIdx.x;\n" + c.statement + "\n}\n";
    write_file(dir.file("k.cu"), source);
    for (const std::string engine : {"replay", "exact", "all"}) {
      // The class engine leaves memory the kernel writes and reads by value to the replay.
      if (engine == "exact" && c.statement.find("if (o[t]") != std::string::npos) continue;
      std::vector<std::string> args = {"analyze", dir.file("k.cu"), "--grid", "1", "--block",
                                       "64",      "--engine",       engine};
      args.insert(args.end(), c.flags.begin(), c.flags.end());
      const CliResult r = run_warpdiv(args);
      if (c.expected.empty()) {
        EXPECT_EQ(r.status, 0) << c.statement << " " << engine << ": " << r.err;
        continue;
      }
      EXPECT_EQ(r.status, 2) << c.statement << " " << engine;
      EXPECT_EQ(r.err, dir.file("k.cu") + ":" + c.expected + " [warpdiv-undefined-arithmetic]\n")
          << c.statement << " " << engine;
    }
  }
  // A returned value beside a load: the division in f (line 1, column 57) at x = t = 3, in the
  // call on line 4 (column 10).
  write_file(dir.file("k.cu"),
             "__device__ int f(const int *in, int x) { return in[x] + 100 / (x - 3); }\n"
             "__global__ void k(int *o, const int *in) {\n  int t = threadIdx.x;\n  o[t] = f(in, t);\n}\n");
  for (const std::string engine : {"replay", "exact", "all"}) {
    const CliResult r =
        run_warpdiv({"analyze", dir.file("k.cu"), "--grid", "1", "--block", "64", "--engine", engine});
    EXPECT_EQ(r.status, 2) << engine;
    EXPECT_EQ(r.err, dir.file("k.cu") + ":1:57: error: undefined behaviour: " + div3 + " (inlined at " +
                         dir.file("k.cu") + ":4:10) [warpdiv-undefined-arithmetic]\n")
        << engine;
  }
  // Over 2000 blocks: blockIdx.x * 2000000 passes INT_MAX from block 1074 (1073 * 2000000 =
  // 2146000000 < 2147483647 < 2148000000), which the class engine proves from its corners; the
  // division by zero in block 1500 only, which it cannot (as for a local, it leaves it to the replay).
  const std::vector<std::pair<std::string, std::string>> blocks = {
      {"  o[t] += (int)blockIdx.x * 2000000;", "signed overflow in '*' (int32) in block (1074, 0, 0)"},
      {"  o[t] += 100 / ((int)blockIdx.x - 1500);", "division by zero in '/' (int32) in block (1500, 0, 0)"},
  };
  for (const auto& [statement, what] : blocks) {
    write_file(dir.file("k.cu"),
               "__global__ void k(int *o, const int *in) {\n  int t = threadIdx.x;\n" + statement + "\n}\n");
    for (const std::string engine : {"replay", "exact", "auto", "all"}) {
      if (engine == "exact" && statement.find("1500") != std::string::npos) continue;
      const CliResult r =
          run_warpdiv({"analyze", dir.file("k.cu"), "--grid", "2000", "--block", "64", "--engine", engine});
      EXPECT_EQ(r.status, 2) << statement << " " << engine;
      EXPECT_EQ(r.err, dir.file("k.cu") + ":3:11: error: undefined behaviour: " + what +
                           ", thread (0, 0, 0) [warpdiv-undefined-arithmetic]\n")
          << statement << " " << engine;
    }
  }
  // `check` names it as a finding about the kernel.
  write_file(
      dir.file("k.cu"),
      "__global__ void k(int *o, const int *in) {\n  int t = threadIdx.x;\n  o[t] += 100 / (t - 3);\n}\n");
  write_file(dir.file("c.toml"), "[[kernel]]\nfile = \"k.cu\"\ngrid = 1\nblock = 64\n");
  const CliResult check = run_warpdiv({"check", dir.file("c.toml")});
  EXPECT_EQ(check.status, 1) << check.out << check.err;
  EXPECT_NE(check.out.find("k.cu:3:11: error: the kernel stops: undefined behaviour: " + div3),
            std::string::npos)
      << check.out;
}

TEST(DiagnosticsCli, AnUnsupportedConstructAndAnUnknownValueAreNamedAtTheirPlaces) {
  TempDir dir;
  const CliResult unsupported = analyze(dir, kInlineAsm, {});
  EXPECT_EQ(unsupported.status, 2);
  EXPECT_EQ(unsupported.err, dir.file("k.cu") +
                                 ":2:3: error: inline asm is not supported: the model cannot "
                                 "tell what it does [warpdiv-unsupported-construct]\n");
  const CliResult unknown = analyze(dir, kDataDependent, {});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(
      unknown.err.rfind(dir.file("k.cu") + ":2:3: error: data-dependent branch: the condition of this if", 0),
      0u)
      << unknown.err;
  EXPECT_NE(unknown.err.find("[warpdiv-data-dependent-branch]\n"), std::string::npos) << unknown.err;
}

TEST(DiagnosticsCli, BadInputAndBudgetsHaveNoPlace) {
  TempDir dir;
  const CliResult flag = analyze(dir, kOutOfBounds, {"--warp-size", "3"});
  EXPECT_EQ(flag.status, 2);
  EXPECT_EQ(
      flag.err,
      "warpdiv: error: --warp-size must be a power of two from 1 to 64 (got '3') [warpdiv-flag-value]\n");
  const CliResult missing = run_warpdiv({"analyze", dir.file("none.cu"), "--grid", "1", "--block", "32"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "warpdiv: error: cannot read '" + dir.file("none.cu") +
                             "': no such file or not readable [warpdiv-file-unreadable]\n");
  const CliResult command = run_warpdiv({"analyse"});
  EXPECT_EQ(command.status, 2);
  EXPECT_EQ(command.err,
            "warpdiv: error: unknown command 'analyse'; did you mean 'analyze'? (see warpdiv --help) "
            "[warpdiv-unknown-command]\n");
  // The replay of one warp over the kernel's statements: more than a budget of 1 evaluation.
  const CliResult budget =
      analyze(dir, kOutOfBounds, {"--alloc", "a=33", "--engine", "replay", "--max-evaluations", "1"});
  EXPECT_EQ(budget.status, 2);
  EXPECT_EQ(budget.err.rfind("warpdiv: error: ", 0), 0u) << budget.err;
  EXPECT_NE(budget.err.find("above its budget of 1 (--max-evaluations) [warpdiv-evaluation-budget]\n"),
            std::string::npos)
      << budget.err;
}

TEST(DiagnosticsCli, NoDeviceExitsThree) {
  const CliResult r = run_warpdiv({"validate", "--width", "16", "--tile", "4"});
  if (r.status != 3) GTEST_SKIP() << "a GPU answered: " << r.status;
  EXPECT_EQ(r.err.rfind("warpdiv: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(" [warpdiv-no-device]\n"), std::string::npos) << r.err;
}

TEST(DiagnosticsCli, CheckFindingsAndSarifCarryTheDiagnostic) {
  TempDir dir;
  write_file(dir.file("oob.cu"), kOutOfBounds);
  write_file(dir.file("dd.cu"), kDataDependent);
  write_file(dir.file("c.toml"),
             "[[kernel]]\nfile = \"oob.cu\"\ngrid = 1\nblock = 32\nalloc = { a = 32 }\n"
             "[[kernel]]\nfile = \"dd.cu\"\ngrid = 1\nblock = 32\n");
  const CliResult r = run_warpdiv({"check", dir.file("c.toml"), "--sarif", dir.file("o.sarif")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("oob.cu:2:3: error: the kernel stops: out of bounds: "
                       "'a[threadIdx.x + 1]'"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("(check 'oob') [warpdiv-out-of-bounds]\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dd.cu:2:3: warning: cannot check this kernel: data-dependent branch"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 kernel with undefined behaviour, 1 kernel unreadable, 0 limits crossed: FAILED"),
            std::string::npos)
      << r.out;
  const nlohmann::json sarif = nlohmann::json::parse(read_file(dir.file("o.sarif")));
  const nlohmann::json& run = sarif.at("runs").at(0);
  std::vector<std::string> rule_ids;
  for (const nlohmann::json& rule : run.at("tool").at("driver").at("rules"))
    rule_ids.push_back(rule.at("id"));
  ASSERT_EQ(run.at("results").size(), 2u);
  for (const nlohmann::json& result : run.at("results")) {
    const std::string id = result.at("ruleId");
    const bool oob = result.at("properties").at("check") == "oob";
    EXPECT_EQ(id, oob ? "warpdiv-out-of-bounds" : "warpdiv-data-dependent-branch");
    EXPECT_EQ(result.at("level"), oob ? "error" : "warning");
    EXPECT_EQ(result.at("properties").at("category"), oob ? "undefined-behaviour" : "unknown-value");
    const nlohmann::json& where = result.at("locations").at(0).at("physicalLocation");
    EXPECT_EQ(where.at("artifactLocation").at("uri"), oob ? "oob.cu" : "dd.cu");
    EXPECT_EQ(where.at("region").at("startLine"), 2);
    const std::size_t index = result.at("ruleIndex");
    ASSERT_LT(index, rule_ids.size());
    EXPECT_EQ(rule_ids[index], id);
  }
}

// A kernel Clang refuses is a finding at Clang's first error, taken from Clang's source manager:
// in the file itself, after a two-byte UTF-8 character (SARIF's columns are UTF-16 code units, as
// its run declares: one fewer there), and in an included header the kernel calls into.
TEST(DiagnosticsCli, AnUnreadableKernelIsFoundAtClangsFirstError) {
  TempDir dir;
  // Line 2: the ';' where an expression should be is byte 29 (the comment's 'é' takes bytes 23
  // and 24), UTF-16 code unit 28.
  write_file(dir.file("utf.cu"), "__global__ void k(int *o) {\n  o[threadIdx.x] = /* \xc3\xa9 */ ;\n}\n");
  // bad.h line 2: the ';' after 'x *' is column 42 (ASCII).
  write_file(dir.file("bad.h"), "// a helper\n__device__ int twice(int x) { return x * ; }\n");
  write_file(dir.file("hdr.cu"),
             "#include \"bad.h\"\n__global__ void k(int *o) { o[threadIdx.x] = twice(1); }\n");
  write_file(dir.file("c.toml"),
             "[[kernel]]\nname = \"utf\"\nfile = \"utf.cu\"\ngrid = 1\nblock = 32\n"
             "[[kernel]]\nname = \"hdr\"\nfile = \"hdr.cu\"\ngrid = 1\nblock = 32\n");
  const CliResult r = run_warpdiv({"check", dir.file("c.toml"), "--sarif", dir.file("o.sarif")});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("utf.cu:2:29: error: cannot check this kernel: Clang refused it: expected expression "
                       "(its diagnostics on stderr) (check 'utf') [warpdiv-source-errors]\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("bad.h:2:42: error: cannot check this kernel: Clang refused it: expected expression "
                       "(its diagnostics on stderr) (check 'hdr') [warpdiv-source-errors]\n"),
            std::string::npos)
      << r.out;
  const nlohmann::json sarif = nlohmann::json::parse(read_file(dir.file("o.sarif")));
  const nlohmann::json& run = sarif.at("runs").at(0);
  EXPECT_EQ(run.at("columnKind"), "utf16CodeUnits");
  ASSERT_EQ(run.at("results").size(), 2u);
  for (const nlohmann::json& result : run.at("results")) {
    EXPECT_EQ(result.at("ruleId"), "warpdiv-source-errors");
    const bool utf = result.at("properties").at("check") == "utf";
    const nlohmann::json& where = result.at("locations").at(0).at("physicalLocation");
    EXPECT_EQ(where.at("artifactLocation").at("uri"), utf ? "utf.cu" : "bad.h");
    EXPECT_EQ(where.at("region").at("startLine"), 2);
    EXPECT_EQ(where.at("region").at("startColumn"), utf ? 28 : 42);
  }
}

// Every "warpdiv: note: " line of `err` ends in " [warpdiv-ID]" with ID a note of the table; the ids
// seen are added to `seen`.
void expect_table_notes(const std::string& err, std::set<std::string>& seen) {
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("warpdiv: note: ", 0) != 0) continue;
    const std::size_t open = line.rfind(" [warpdiv-");
    ASSERT_NE(open, std::string::npos) << line;
    ASSERT_EQ(line.back(), ']') << line;
    const std::string id = line.substr(open + 10, line.size() - open - 11);
    const std::optional<Diag> diag = diagnostic_named(id);
    ASSERT_TRUE(diag.has_value()) << line;
    EXPECT_EQ(info(*diag).level, Level::note) << line;
    seen.insert(id);
  }
}

// Each path that notes something (the launch from host code, Clang's errors the kernel does not
// reach, the fallback to the replay, --engine all, a race check its budget stopped; in analyze, sweep, check,
// validate, ncu-check and the lecture's analyze) prints its note with its id from the table, and every note
// of the table is met.
TEST(DiagnosticsCli, EveryNoteCarriesAnIdOfTheTable) {
  TempDir dir;
  // Launched by main() with 7 blocks of 64 threads; blockIdx.x % 3 is not affine, so the class
  // engine hands over to the replay; glewInit is undeclared in host code the kernel does not reach.
  write_file(dir.file("host.cu"),
             "__global__ void k(int *a) {\n"
             "  if (blockIdx.x % 3 == 0) a[threadIdx.x] = 1;\n"
             "}\n"
             "int main() {\n"
             "  glewInit();\n"
             "  int *d = 0;\n"
             "  k<<<7, 64>>>(d);\n"
             "}\n");
  write_file(dir.file("check.toml"), "[[kernel]]\nname = \"k\"\nfile = \"host.cu\"\n");
  // A tile read reversed with no barrier after a loop of n = 10,000 iterations: the race check by
  // address stops at its budget before the stores (kernels_shared_races_test works it out).
  write_file(dir.file("race.cu"),
             "__global__ void k(float *out, const float *in, int n) {\n"
             "  __shared__ float tile[64];\n"
             "  int t = threadIdx.x;\n"
             "  float acc = 0.0f;\n"
             "  for (int i = 0; i < n; ++i) acc += in[i];\n"
             "  tile[t] = in[t];\n"
             "  out[blockIdx.x * 64 + t] = tile[63 - t] + acc;\n"
             "}\n");
  const std::vector<std::vector<std::string>> runs = {
      {"analyze", dir.file("host.cu")},
      {"analyze", dir.file("host.cu"), "--engine", "all"},
      {"sweep", dir.file("host.cu"), "--grid", "7", "--block", "64,128", "--csv", dir.file("s.csv")},
      {"check", dir.file("check.toml")},
      {"analyze", "--engine", "all"},
      {"analyze", dir.file("race.cu"), "--grid", "2", "--block", "64", "--arg", "n=10000"}};
  std::set<std::string> seen;
  for (const std::vector<std::string>& args : runs) {
    const CliResult r = run_warpdiv(args);
    EXPECT_EQ(r.status, 0) << args[0] << " " << args[1] << "\n" << r.err;
    EXPECT_NE(r.err.find("warpdiv: note: "), std::string::npos) << args[0] << " " << args[1];
    expect_table_notes(r.err, seen);
  }
  // validate and ncu-check note the launch before they look for a GPU or ncu (exit 3 without).
  for (const char* command : {"validate", "ncu-check"}) {
    const CliResult r = run_warpdiv({command, dir.file("host.cu")});
    EXPECT_NE(r.err.find("warpdiv: note: launch from main() at "), std::string::npos) << command << r.err;
    expect_table_notes(r.err, seen);
  }
  for (const DiagnosticInfo& d : diagnostic_table())
    if (d.level == Level::note) EXPECT_EQ(seen.count(d.id), 1u) << d.id;
}

// The rows of docs/guide/diagnostics.md's tables: id, category, exit status ("-" for a note),
// meaning.
std::vector<std::vector<std::string>> documented_rows() {
  std::ifstream in(kRoot + "/docs/guide/diagnostics.md");
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `warpdiv-", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream fields(line.substr(1));
    for (std::string cell; std::getline(fields, cell, '|');) {
      const std::size_t first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
      if (first != std::string::npos) cells.push_back(cell.substr(first, last - first + 1));
    }
    rows.push_back(cells);
  }
  return rows;
}

TEST(DiagnosticsCli, TheGuideAndTheListingShowTheTable) {
  const std::vector<std::vector<std::string>> documented = documented_rows();
  const std::vector<DiagnosticInfo>& table = diagnostic_table();
  ASSERT_EQ(documented.size(), table.size());
  const CliResult listing = run_warpdiv({"diagnostics"});
  EXPECT_EQ(listing.status, 0);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const DiagnosticInfo& d = table[i];
    const std::string exit = d.level == Level::note ? "-" : std::to_string(exit_status(d.category));
    const std::vector<std::string> expected = {"`" + diagnostic_tag(d.diag) + "`", category_name(d.category),
                                               exit, d.meaning};
    EXPECT_EQ(documented[i], expected);
    EXPECT_NE(listing.out.find(diagnostic_tag(d.diag) + " "), std::string::npos) << d.id;
    EXPECT_NE(listing.out.find(std::string(d.meaning) + "\n"), std::string::npos) << d.id;
  }
  EXPECT_EQ(run_warpdiv({"diagnostics", "x"}).status, 2);
  // --help (-h) says what it lists, in place of the table, and exits 0 as every command's does.
  for (const char* help : {"--help", "-h"}) {
    const CliResult r = run_warpdiv({"diagnostics", help});
    EXPECT_EQ(r.status, 0) << help;
    EXPECT_EQ(r.out.rfind("usage: warpdiv diagnostics\n", 0), 0u) << r.out;
    EXPECT_EQ(r.out.find("warpdiv-internal"), std::string::npos) << r.out;
    EXPECT_EQ(r.err, "");
  }
}

}  // namespace
}  // namespace warpdiv::testing
