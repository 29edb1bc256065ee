// Typed diagnostics through the binary: one real input per category gives its id, its exit status
// and its printed form (the place first when the source has one); `warpdiv check` carries the id
// into SARIF; `warpdiv diagnostics` and docs/guide/diagnostics.md list the table of
// sim/support/diagnostics.def.
#include <gtest/gtest.h>

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
// reach, the fallback to the replay, --engine all; in analyze, sweep, check, validate, ncu-check
// and the lecture's analyze) prints its note with its id from the table, and every note of the
// table is met.
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
  const std::vector<std::vector<std::string>> runs = {
      {"analyze", dir.file("host.cu")},
      {"analyze", dir.file("host.cu"), "--engine", "all"},
      {"sweep", dir.file("host.cu"), "--grid", "7", "--block", "64,128", "--csv", dir.file("s.csv")},
      {"check", dir.file("check.toml")},
      {"analyze", "--engine", "all"}};
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
}

}  // namespace
}  // namespace warpdiv::testing
