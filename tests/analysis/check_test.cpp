// `warpdiv check`'s library part: the configuration's reader, the limits, the baseline and the
// text formatter, on hand-made rows whose figures are worked out in the comments.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/check.hpp"
#include "analysis/check_sarif.hpp"
#include "analysis/check_config.hpp"
#include "analysis/check_source.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::analysis {
namespace {

const std::string kKernel =
    "[[kernel]]\nfile = \"k.cu\"\ngrid = \"(n+127)/128\"\nblock = 128\nargs = { n = 1000 }\n";

std::string refusal(const std::string& text) {
  try {
    parse_check_config(text, "ci/c.toml");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(CheckConfig, AKernelWithItsLaunchLimitsAndLines) {
  const CheckConfig c = parse_check_config(
      "root = \"..\"\nbaseline = \"base.csv\"\n"
      "[limits]\nmax_divergent_fraction = 0.25\nmin_simd_efficiency = 0.5\n"
      "[[kernel]]\nname = \"saxpy\"\nfile = \"../k/a.cu\"\nkernel = \"saxpy\"\n"
      "grid = [\"(n+127)/128\", 2]\nblock = 128\nargs = { n = 1000, a = 2.5, big = \"18446744073709551615\" "
      "}\n"
      "defines = [\"T=4\"]\ninclude_dirs = [\"inc\"]\nengine = \"replay\"\nwarp_size = 16\n"
      "dynamic_smem = 1024\nalloc = { x = 1000 }\nfmad = false\n"
      "[kernel.limits]\nmin_simd_efficiency = 0.75\n"
      "[[kernel.line]]\nline = 12\ncolumn = 7\nmax_divergent_fraction = 1\n",
      "ci/c.toml");
  ASSERT_EQ(c.kernels.size(), 1u);
  const CheckKernel& k = c.kernels[0];
  EXPECT_EQ(k.name, "saxpy");
  EXPECT_EQ(k.file, "k/a.cu");  // ci/../k/a.cu
  EXPECT_EQ(k.grid, "(n+127)/128,2");
  EXPECT_EQ(k.block, "128");
  // toml++ keeps a table's keys in name order.
  EXPECT_EQ(k.args, (std::vector<std::string>{"a=2.5", "big=18446744073709551615", "n=1000"}));
  EXPECT_EQ(k.include_dirs, std::vector<std::string>{"ci/inc"});
  EXPECT_EQ(k.engine, "replay");
  EXPECT_EQ(k.warp_size, 16);
  EXPECT_EQ(k.dynamic_smem, 1024);
  EXPECT_EQ(k.allocs, std::vector<std::string>{"x=1000"});
  EXPECT_FALSE(k.fmad);
  // The file's [limits], then the kernel's over them; partial barriers 0 unless set.
  EXPECT_EQ(k.limits.max_divergent_fraction, 0.25);
  EXPECT_EQ(k.limits.min_simd_efficiency, 0.75);
  EXPECT_EQ(k.limits.partial_barriers, 0u);
  EXPECT_FALSE(k.limits.min_sector_efficiency);
  ASSERT_EQ(k.lines.size(), 1u);
  EXPECT_EQ(k.lines[0].line, 12u);
  EXPECT_EQ(k.lines[0].column, 7u);
  EXPECT_EQ(k.lines[0].limits.max_divergent_fraction, 1.0);
  EXPECT_EQ(c.baseline, "ci/base.csv");
  EXPECT_EQ(c.root.back() == '/', false);
}

TEST(CheckConfig, StatementTablesSingleLaneAndTolerance) {
  const CheckConfig c = parse_check_config(
      "regression_tolerance = 0\n[limits]\nreport_single_lane = true\n" + kKernel +
          "[[kernel.statement]]\nstatement = \"  if (i <\\n  n)\"\nfunction = \"f\"\nordinal = 2\n"
          "max_divergent = 3\n[[kernel.statement]]\nstatement = \"x = 1\"\n",
      "ci/c.toml");
  EXPECT_EQ(c.regression_tolerance, 0.0);
  const CheckKernel& k = c.kernels[0];
  EXPECT_EQ(k.limits.report_single_lane, true);
  ASSERT_EQ(k.statements.size(), 2u);
  EXPECT_EQ(k.statements[0].statement, "if (i < n)");  // whitespace normalised
  EXPECT_EQ(k.statements[0].function, "f");
  EXPECT_EQ(k.statements[0].ordinal, 2u);
  EXPECT_EQ(k.statements[0].limits.max_divergent, 3u);
  EXPECT_FALSE(k.statements[1].function);
  EXPECT_FALSE(k.statements[1].ordinal);
  EXPECT_EQ(parse_check_config(kKernel, "c.toml").regression_tolerance, 0.02);  // the default
  EXPECT_EQ(refusal("regression_tolerance = 2\n" + kKernel),
            "ci/c.toml:1:24: regression_tolerance must be a fraction (0.01 is one percentage point) "
            "from 0 to 1, got 2");
  EXPECT_EQ(refusal(kKernel + "[[kernel.statement]]\nfunction = \"f\"\n"),
            "ci/c.toml:6:1: [[kernel.statement]] needs statement = \"TEXT\" (the statement's source "
            "text, as findings and baselines show it)");
  EXPECT_EQ(refusal(kKernel + "[[kernel.statement]]\nstatement = \"x\"\nreport_single_lane = true\n"),
            "ci/c.toml:8:22: report_single_lane applies to a kernel ([limits] or [kernel.limits]), "
            "not to one statement");
}

TEST(CheckConfig, RefusalsNameThePlaceTheKeyAndTheRange) {
  // Line 2 column 1 is the key; a value's place is where the value starts.
  EXPECT_EQ(refusal("[limits]\nmax_divergent_fractoin = 0.1\n" + kKernel),
            "ci/c.toml:2:1: unknown key 'max_divergent_fractoin' in [limits]; did you mean "
            "'max_divergent_fraction'? (allowed: max_divergent_fraction, max_divergent, "
            "min_simd_efficiency, partial_barriers, min_sector_efficiency, "
            "max_sectors_per_request, max_bank_conflicts_per_request, max_bank_conflicts, "
            "report_single_lane)");
  EXPECT_EQ(refusal("[limits]\nmax_divergent_fraction = 1.5\n" + kKernel),
            "ci/c.toml:2:26: max_divergent_fraction must be a fraction (0.1 is 10%) from 0 to 1, "
            "got 1.5");
  EXPECT_EQ(refusal("[limits]\npartial_barriers = -1\n" + kKernel),
            "ci/c.toml:2:20: partial_barriers must be an integer from 0 to 9223372036854775807, "
            "got -1");
  EXPECT_EQ(refusal("[limits]\nmin_simd_efficiency = \"50%\"\n" + kKernel),
            "ci/c.toml:2:23: min_simd_efficiency must be a fraction (0.1 is 10%) from 0 to 1, "
            "got '50%'");
  EXPECT_EQ(refusal("[[kernel]]\nfile = \"k.cu\"\ngrid = 1\nblock = true\n"),
            "ci/c.toml:4:9: block must be an expression of the args (a string such as "
            "\"(n+127)/128\" or an integer), or an array of one to three of them; got true");
  EXPECT_EQ(refusal("[[kernel]]\nfile = \"k.cu\"\ngrid = [1, 2, 3, 4]\nblock = 1\n"),
            "ci/c.toml:3:8: grid must have one to three components (x, y, z), got 4");
  // A file without grid or block takes its launch from its host code; a model has none.
  EXPECT_EQ(refusal("[[kernel]]\nmodel = \"k.json\"\nblock = 1\n"),
            "ci/c.toml:1:1: [[kernel]] with a model needs grid and block (expressions of the args, "
            "as --grid and --block take them): a model has no host code to read the launch from");
  EXPECT_EQ(refusal("[[kernel]]\nmodel = \"k.json\"\ngrid = 1\nblock = 1\nlaunch = 2\n"),
            "ci/c.toml:5:10: launch applies to a source file; a model holds one kernel already read");
  EXPECT_EQ(refusal("[[kernel]]\nfile = \"k.cu\"\ngrid = 1\nblock = 1\nlaunch = 2\n"),
            "ci/c.toml:5:10: launch chooses a launch in the file's host code, which grid and block "
            "given together replace: leave out launch, or one of them");
  EXPECT_EQ(refusal("[[kernel]]\nfile = \"k.cu\"\nlaunch = 0\n"),
            "ci/c.toml:3:10: launch must be an integer from 1 to 2147483647, got 0");
  EXPECT_EQ(refusal(kKernel + "warp_size = 48\n"),
            "ci/c.toml:6:13: warp_size must be a power of two from 1 to 64, got 48");
  EXPECT_EQ(refusal(kKernel + "engine = \"fast\"\n"),
            "ci/c.toml:6:10: engine must be auto, exact, replay or all, got 'fast'");
  // A define as -D takes it: "=1" has no name (column 19: the quote that opens the second item).
  EXPECT_EQ(
      refusal(kKernel + "defines = [\"N=1\", \"=1\"]\n"),
      "ci/c.toml:6:19: defines item '=1': a macro definition starts with its name, an identifier (NAME, "
      "NAME=VALUE or NAME(PARAMETERS)=VALUE)");
  EXPECT_EQ(refusal(kKernel + "defines = [\"F(x=1\"]\n"),
            "ci/c.toml:6:12: defines item 'F(x=1': the parameter list of macro 'F' is not closed");
  EXPECT_EQ(refusal(kKernel + "[[kernel.line]]\ncolumn = 3\n"),
            "ci/c.toml:6:1: [[kernel.line]] needs line = N (the source line its limits are for)");
  EXPECT_EQ(refusal(kKernel + kKernel),
            "ci/c.toml:6:1: two [[kernel]] tables are named 'k': give each a unique name = \"...\"");
  EXPECT_EQ(refusal("root = \"/\"\n"),
            "ci/c.toml: no [[kernel]] table: nothing to check (each names a file, a grid and a block)");
  // A root that is no folder, at its value's place (ci/ is none here).
  EXPECT_EQ(refusal("root = \".\"\n"),
            "ci/c.toml:1:8: root 'ci/' is not a folder (findings, baselines and SARIF name files relative "
            "to it; give an existing folder)");
  // What TOML forbids and toml++ 3.3 is unsafe on (fuzz/check_config.cpp found each) is refused
  // before it parses: control characters, a header toml++ asserts on, and non-ASCII text outside
  // comments (in a string it is spelt \uXXXX).
  EXPECT_EQ(refusal(std::string("[\t\0mits]\n", 10)),
            "ci/c.toml:1:3: a control character (0x00), which TOML allows nowhere unescaped");
  EXPECT_EQ(refusal("[\x06limits]\n"),
            "ci/c.toml:1:2: a control character (0x06), which TOML allows nowhere unescaped");
  EXPECT_EQ(refusal("root = \".\"\n[ }ta\n"),
            "ci/c.toml:2:3: a table header's name must start with a letter, digit, '_', '-' or a quote");
  EXPECT_EQ(refusal("[\nkernel]\n"),
            "ci/c.toml:1:2: a table header's name must start with a letter, digit, '_', '-' or a quote");
  EXPECT_EQ(refusal("root = [\n[ ], [\"a\"] ]\n"),
            "ci/c.toml:1:8: root must be a string (the folder paths are relative to), got an array");
  const std::string outside =
      "a non-ASCII character outside a string or comment (TOML keys with one are quoted, and "
      "spelt \\uXXXX here)";
  const std::string inside =
      "a non-ASCII character in a string: write it as \\uXXXX in a \"...\" string (toml++ 3.3, "
      "Debian 12's TOML parser, is unsafe on raw ones)";
  EXPECT_EQ(refusal("# caf\xc3\xa9\n[\xc3\xa9]\n"), "ci/c.toml:2:2: " + outside);
  EXPECT_EQ(refusal("root = \"caf\xc3\xa9\"\n"), "ci/c.toml:1:12: " + inside);
  EXPECT_EQ(refusal("root = \"\"\"a \\\n  \xc3\xa9\"\"\"\n"), "ci/c.toml:2:3: " + inside);
  EXPECT_EQ(refusal("rme = ++5'\xc9\x93\n"), "ci/c.toml:1:11: " + inside);
  // In comments (quotes and all) it is text, and escapes spell it in strings: this file is
  // refused only for its unknown key, after toml++ read every string.
  EXPECT_EQ(refusal("# caf\xc3\xa9 \"\nroot = \"caf\\u00e9 \\\" #\"\nbaseline = '''\n#'''\n"
                    "x = \"\"\"\n\\u00e9 \\\"\"\" \"\"\" # \xc3\xa9 '\n"),
            "ci/c.toml:5:1: unknown key 'x' in the top level (allowed: root, baseline, "
            "fail_on_stale_baseline, regression_tolerance, limits, kernel)");
  // TOML's own syntax errors, with toml++'s place and description.
  EXPECT_EQ(refusal("[limits\n").rfind("ci/c.toml:1:", 0), 0u);
}

// A condition row: `divergent` of `evaluations` warp evaluations diverge.
CheckRow branch(std::uint32_t line, sim::Count evaluations, sim::Count divergent) {
  CheckRow r;
  r.check = "k";
  r.file = "k.cu";
  r.line = line;
  r.column = 3;
  r.kind = "if";
  r.condition = true;
  r.warp_evaluations = evaluations;
  r.branch_evaluations = evaluations;
  r.divergent = divergent;
  r.taken_lanes = evaluations * 16;
  r.active_lanes = evaluations * 32;
  r.function = "k";
  r.statement = "if (i < n)";
  return r;
}

// TOML's \u0000 puts a NUL into a string; no file name or compiler argument can hold one (the
// path would be cut there, naming another file): refused at the value's place, naming the key.
// A check's name is no file: it may hold any character.
TEST(CheckConfig, ANulInAFileNameOrAnArgumentIsRefused) {
  const std::string launch = "grid = 1\nblock = 1\n";
  EXPECT_EQ(refusal("[[kernel]]\nfile = \"k.cu\\u0000.bak\"\n" + launch),
            "ci/c.toml:2:8: file holds a NUL character (\\u0000), which a file name cannot hold (the "
            "kernel's .cu file, relative to this file's folder)");
  EXPECT_EQ(refusal("baseline = \"base.csv\\u0000.old\"\n" + kKernel),
            "ci/c.toml:1:12: baseline holds a NUL character (\\u0000), which a file name cannot hold (a "
            "CSV written by --write-baseline)");
  EXPECT_EQ(refusal("root = \"..\\u0000x\"\n" + kKernel),
            "ci/c.toml:1:8: root holds a NUL character (\\u0000), which a file name cannot hold (the "
            "folder paths are relative to)");
  EXPECT_EQ(refusal("[[kernel]]\nmodel = \"m.json\\u0000\"\n" + launch)
                .rfind("ci/c.toml:2:9: model holds a NUL", 0),
            0u);
  EXPECT_EQ(refusal(kKernel + "compile_commands = \"b\\u0000\"\n")
                .rfind("ci/c.toml:6:20: compile_commands holds", 0),
            0u);
  EXPECT_EQ(
      refusal(kKernel + "data = { in = \"in.npy\\u0000.old\" }\n"),
      "ci/c.toml:6:15: data.in holds a NUL character (\\u0000), which a file name cannot hold (a file)");
  EXPECT_EQ(refusal(kKernel + "defines = [\"FAST\\u0000=1\"]\n"),
            "ci/c.toml:6:12: defines item holds a NUL character (\\u0000), which a compiler's argument "
            "cannot hold (NAME or NAME=VALUE, as -D takes)");
  EXPECT_EQ(refusal(kKernel + "include_dirs = [\"inc\", \"inc\\u0000zz\"]\n"),
            "ci/c.toml:6:24: include_dirs item holds a NUL character (\\u0000), which a folder name "
            "cannot hold (folders, as -I takes)");
  EXPECT_EQ(refusal(kKernel + "[[kernel.line]]\nline = 3\nfile = \"h\\u0000.cuh\"\nmax_divergent = 0\n")
                .rfind("ci/c.toml:8:8: file holds a NUL character", 0),
            0u);
  EXPECT_EQ(refusal("[[kernel]]\nname = \"a\\u0000b\"\nfile = \"k.cu\"\n" + launch), "(accepted)");
  EXPECT_EQ(
      refusal(kKernel + "data = { in = \"in.npy\" }\ndefines = [\"FAST=1\"]\ninclude_dirs = [\"inc\"]\n"),
      "(accepted)");
}

// A plain statement row: `lanes` active lanes in `evaluations` warp evaluations.
CheckRow plain(std::uint32_t line, std::uint32_t column, sim::Count evaluations, sim::Count lanes,
               const std::string& text = "x = 1") {
  CheckRow r;
  r.check = "k";
  r.function = "k";
  r.statement = text;
  r.file = "k.cu";
  r.line = line;
  r.column = column;
  r.kind = "statement";
  r.warp_evaluations = evaluations;
  r.active_lanes = lanes;
  return r;
}

CheckKernel kernel_with(const CheckLimits& limits) {
  CheckKernel k;
  k.name = "k";
  k.file = "/src/k.cu";
  k.limits = limits;
  return k;
}

// -0.0 is the limit 0 (printed "0%", not "-0%").
TEST(CheckConfig, ANegativeZeroLimitIsZero) {
  const CheckConfig c = parse_check_config(
      "[limits]\nmax_divergent_fraction = -0.0\n[[kernel]]\nfile = \"k.cu\"\ngrid = 1\nblock = 32\n",
      "c.toml");
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].limits.max_divergent_fraction, 0.0);
  EXPECT_FALSE(std::signbit(*c.kernels[0].limits.max_divergent_fraction));
}

TEST(CheckLimits, DivergentFractionAndCountPerBranch) {
  CheckLimits l;
  l.max_divergent_fraction = 0.1;
  l.max_divergent = 20;
  CheckKernel k = kernel_with(l);
  // 24 of 64 = 37.5% > 10%, and 24 > 20; 6 of 64 = 9.375% and 6 pass; 0 of 0 is never evaluated.
  const std::vector<Finding> f =
      check_limits(k, {branch(12, 64, 24), branch(20, 64, 6), branch(30, 0, 0)}, "/src");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].rule, "divergent-branch");
  EXPECT_EQ(f[0].message, "branch diverges in 37.5% of its warp evaluations (24 of 64), limit 10%");
  EXPECT_EQ(f[1].rule, "divergent-evaluations");
  EXPECT_EQ(f[1].message, "branch diverges in 24 of its 64 warp evaluations, limit 20");
  // The limit holds at equality: 6.4 of 64 is not possible, but 1 of 10 is exactly 10%.
  EXPECT_TRUE(check_limits(k, {branch(12, 10, 1)}, "/src").empty());
}

TEST(CheckLimits, LineTablesOverrideTheKernelsLimits) {
  CheckLimits l;
  l.max_divergent_fraction = 0.1;
  CheckKernel k = kernel_with(l);
  LineLimits relaxed;
  relaxed.line = 12;
  relaxed.limits.max_divergent_fraction = 0.5;
  LineLimits elsewhere;
  elsewhere.line = 99;
  k.lines = {relaxed, elsewhere};
  // Line 12's 37.5% is under its own 50%; line 20's 20% is over the kernel's 10%.
  const std::vector<Finding> f = check_limits(k, {branch(12, 64, 24), branch(20, 10, 2)}, "/src");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].line, 20u);
  EXPECT_TRUE(k.lines[0].used);
  EXPECT_FALSE(k.lines[1].used);
  // Line 12's table matched: a note gives the [[kernel.statement]] to write instead; line 99's
  // matched nothing.
  const std::vector<Finding> notes =
      config_table_notes(k, {branch(12, 64, 24), branch(20, 10, 2)}, "/src/ci/c.toml", "/src");
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].rule, "line-keyed-limits");
  EXPECT_EQ(notes[0].message,
            "[[kernel.line]] keys these limits by line 12 of k.cu, which an edit "
            "above moves: write [[kernel.statement]] with function = 'k', "
            "statement = 'if (i < n)' instead");
  EXPECT_EQ(notes[1].rule, "unused-line-limits");
  EXPECT_EQ(notes[1].file, "ci/c.toml");
  EXPECT_FALSE(notes[1].fails);
  EXPECT_EQ(notes[1].message, "no statement starts on line 99 of k.cu: these limits apply to nothing");
}

TEST(CheckLimits, StatementTablesMatchTextFunctionAndOrdinal) {
  CheckLimits l;
  l.max_divergent_fraction = 0.1;
  CheckKernel k = kernel_with(l);
  // Two statements of one text in k: the table for the second relaxes only that one.
  CheckRow first = branch(12, 64, 24), second = branch(20, 64, 24);
  second.ordinal = 2;
  StatementLimits relaxed;
  relaxed.statement = "if (i < n)";
  relaxed.function = "k";
  relaxed.ordinal = 2;
  relaxed.limits.max_divergent_fraction = 0.5;
  StatementLimits elsewhere = relaxed;
  elsewhere.function = "other";
  k.statements = {relaxed, elsewhere};
  const std::vector<Finding> f = check_limits(k, {first, second}, "/src");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].line, 12u);
  // The same rows two lines further down (an edit above): the table still holds the second.
  first.line += 2;
  second.line += 2;
  const std::vector<Finding> moved = check_limits(k, {first, second}, "/src");
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].line, 14u);
  EXPECT_TRUE(k.statements[0].used);
  EXPECT_FALSE(k.statements[1].used);
  const std::vector<Finding> notes = config_table_notes(k, {first, second}, "/src/c.toml", "/src");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].message,
            "no statement 'if (i < n)' in 'other' (the 2. of that text) "
            "(statements are compared token by token, whitespace aside): these "
            "limits apply to nothing");
}

TEST(CheckLimits, StatementTablesCompareTokensNotWhitespace) {
  CheckLimits l;
  l.max_divergent_fraction = 0.1;
  CheckKernel k = kernel_with(l);
  StatementLimits tight;  // written without the spaces the finding shows
  tight.statement = "if(i<n )";
  tight.limits.max_divergent_fraction = 0.5;
  StatementLimits other;  // one token more: no statement of k
  other.statement = "if (i <= n)";
  k.statements = {tight, other};
  // 24 of 64 = 37.5%: over the kernel's 10%, under the table's 50%.
  EXPECT_TRUE(check_limits(k, {branch(12, 64, 24)}, "/src").empty());
  EXPECT_TRUE(k.statements[0].used);
  EXPECT_FALSE(k.statements[1].used);
  const std::vector<Finding> notes = config_table_notes(k, {branch(12, 64, 24)}, "/src/c.toml", "/src");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rule, "unused-line-limits");
  EXPECT_EQ(notes[0].message,
            "no statement 'if (i <= n)' (statements are compared token by token, "
            "whitespace aside): these limits apply to nothing; did you mean "
            "'if (i < n)'?");
}

TEST(CheckSource, StatementKeysIgnoreWhitespaceButNotTokenBoundaries) {
  EXPECT_EQ(statement_token_key("if (i<n)"), statement_token_key("if (i < n)"));
  EXPECT_EQ(statement_token_key("if (i<n)"), "if\n(\ni\n<\nn\n)");
  EXPECT_EQ(statement_token_key("p->x = a<<=2"), statement_token_key("p -> x=a <<= 2"));
  // Whitespace that separates tokens is not dropped from them: a - -b is no a--b, a + +b no
  // a++b, int x no intx, a - > b no a->b, and a string's spaces stay.
  EXPECT_NE(statement_token_key("x = a - -b"), statement_token_key("x = a--b"));
  EXPECT_EQ(statement_token_key("x = a - -b"), "x\n=\na\n-\n-\nb");
  EXPECT_NE(statement_token_key("x = a + +b"), statement_token_key("x = a++b"));
  EXPECT_NE(statement_token_key("int x = 1"), statement_token_key("intx = 1"));
  EXPECT_NE(statement_token_key("y = a - > b"), statement_token_key("y = a->b"));
  EXPECT_NE(statement_token_key("f(\"a b\")"), statement_token_key("f(\"ab\")"));
  EXPECT_EQ(statement_token_key("x = 1'000 + 1e+5"), "x\n=\n1'000\n+\n1e+5");
}

// A statement's key text: whitespace between tokens made one space and line splices dropped, a
// string or character literal's text kept byte for byte (its spaces, a raw tab, a raw string's
// newline), as the compiler reads it.
TEST(CheckSource, NormalisedStatementsKeepTheTextOfTheirLiterals) {
  EXPECT_EQ(normalise_statement("printf(\"a  b %d\",   i)"), "printf(\"a  b %d\", i)");
  EXPECT_NE(normalise_statement("printf(\"a  b\")"), normalise_statement("printf(\"a b\")"));
  EXPECT_EQ(normalise_statement("c = '\t' + L\"x\ty\""), "c = '\t' + L\"x\ty\"");  // raw tabs
  EXPECT_EQ(normalise_statement("f( \"a  b\"\t)"), "f( \"a  b\" )");
  EXPECT_EQ(normalise_statement("s = R\"(a\n  b)\"  ;"), "s = R\"(a\n  b)\" ;");
  EXPECT_EQ(normalise_statement("f(\"a\\\nb\")"), "f(\"ab\")");  // a splice inside a literal
  // Outside literals, as before: an apostrophe in a comment or a digit separator opens none.
  EXPECT_EQ(normalise_statement("  if (x  >=\t\\\nn)  "), "if (x >= n)");
  EXPECT_EQ(normalise_statement("x = 1'000;  /* don't   */  y"), "x = 1'000; /* don't */ y");
}

// The comments of `text`, each as "LINE:COL:TEXT".
std::vector<std::string> comments(const std::string& text) {
  std::vector<std::string> out;
  for (const SourceToken& t : source_tokens(text))
    if (t.kind == SourceToken::Kind::comment)
      out.push_back(std::to_string(t.line) + ":" + std::to_string(t.column) + ":" +
                    text.substr(t.begin, t.end - t.begin));
  return out;
}

TEST(CheckSource, CommentsAreNeverInsideLiterals) {
  using V = std::vector<std::string>;
  EXPECT_EQ(comments("const char *u = \"http://x/ warpdiv: allow(all)\"; f(u);"), V{});
  EXPECT_EQ(comments("s = \"a\\\"//\"; // real"), V{"1:14:// real"});  // an escaped quote
  EXPECT_EQ(comments("c = '\"'; d = '\\''; // real"), V{"1:20:// real"});
  EXPECT_EQ(comments("r = R\"x(a \")\" // no\n)x\"; /* real */"), V{"2:6:/* real */"});
  EXPECT_EQ(comments("r = u8R\"(//)\" L\"//\" u'/'; n = 1'0'0; // c"), V{"1:38:// c"});
  EXPECT_EQ(comments("a = 1; /* one\n // two */ b = 2;"), V{"1:8:/* one\n // two */"});
  EXPECT_EQ(comments("// spliced \\\n still a comment\nx = \"//\";"),
            V{"1:1:// spliced \\\n still a comment"});
  // Tokens after a multi-line literal or comment keep their lines and columns.
  const std::vector<SourceToken> t = source_tokens("a = R\"(1\n2)\";\n  b");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[2].line, 1u);
  EXPECT_EQ(t[2].end_line, 2u);
  EXPECT_EQ(t[4].line, 3u);
  EXPECT_EQ(t[4].column, 3u);
}

TEST(CheckLimits, CommentsSuppressAndSingleLaneBranchesHaveTheirRule) {
  CheckLimits l;
  l.max_divergent_fraction = 0.1;
  l.min_simd_efficiency = 0.5;
  CheckKernel k = kernel_with(l);
  CheckRow allowed = branch(12, 64, 24);
  std::vector<std::string> unknown;
  allowed.allowed = allowed_rules("divergence, nonsense", unknown);
  EXPECT_EQ(unknown, std::vector<std::string>{"nonsense"});
  // `if (tid == 0)` over 4 blocks of 2 warps: 8 evaluations, warp 0's 4 split, 1 lane each.
  CheckRow idiom = branch(20, 8, 4);
  idiom.taken_lanes = 4;
  idiom.single_lane = "20:3";
  CheckRow inside = plain(21, 5, 4, 4);  // its body: 4 evaluations of 1 lane, 1 / 32
  inside.single_lane = "20:3";
  const std::vector<Finding> f = check_limits(k, {allowed, idiom, inside}, "/src");
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].rule, "divergent-branch");
  EXPECT_TRUE(f[0].suppressed);
  EXPECT_FALSE(f[0].fails);
  EXPECT_EQ(f[1].rule, "single-lane-branch");
  EXPECT_EQ(f[1].message,
            "single-lane branch: branch diverges in 50% of its warp evaluations (4 "
            "of 8), limit 10% [divergent-branch]");
  EXPECT_EQ(f[2].rule, "single-lane-branch");
  EXPECT_EQ(f[2].message.rfind("in the single-lane branch at 20:3: statement runs at 3.12% SIMD", 0), 0u)
      << f[2].message;
  EXPECT_TRUE(single_lane_branch(idiom));
  EXPECT_FALSE(single_lane_branch(branch(12, 64, 24)));  // 1024 lanes took it in 24 splits
}

TEST(CheckLimits, SimdEfficiencyBarriersAndMemory) {
  CheckLimits l;
  l.min_simd_efficiency = 0.9;
  l.partial_barriers = 0;
  l.min_sector_efficiency = 0.6;
  l.max_sectors_per_request = 4;
  l.max_bank_conflicts_per_request = 1;
  l.max_bank_conflicts = 100;
  CheckKernel k = kernel_with(l);
  // 1000 active lanes in 32 warp evaluations: 1000 / 1024 = 97.65625%, passes
  CheckRow s = plain(10, 5, 32, 1000);
  MemoryFigures m;  // 8000 bytes in 500 sectors: 8000 / 16000 = 50% < 60%; 500 / 64 = 7.8125 > 4
  m.has_global = true;
  m.global_requests = 64;
  m.global_sectors = 500;
  m.global_bytes = 8000;
  m.has_shared = true;  // 160 conflicts in 64 requests: 2.5 each > 1, and 160 > 100
  m.shared_requests = 64;
  m.shared_bank_conflicts = 160;
  s.memory = m;
  CheckRow low = s;  // 640 of 1024 lanes: 62.5% < 90%
  low.line = 11;
  low.active_lanes = 640;
  low.memory.reset();
  // 91 partial block executions (the barrier-in-guard kernel's) > 0
  CheckRow barrier = plain(20, 7, 2744, 2744 * 32, "__syncthreads()");
  barrier.kind = "barrier";
  barrier.barrier = true;
  barrier.partial_block_executions = 91;
  const std::vector<Finding> f = check_limits(k, {s, low, barrier}, "/src");
  std::vector<std::string> messages;
  for (const Finding& x : f) messages.push_back(x.rule + ": " + x.message);
  EXPECT_EQ(messages,
            (std::vector<std::string>{
                "sector-efficiency: global accesses use 50% of their sectors (8000 bytes asked in "
                "500 sectors of 32 bytes), limit 60%",
                "sectors-per-request: global requests touch 7.8125 sectors each (500 sectors in 64 "
                "requests), limit 4",
                "bank-conflicts-per-request: shared requests meet 2.5 bank conflicts each (160 in "
                "64 requests), limit 1",
                "bank-conflicts: shared requests meet 160 bank conflicts (in 64 requests), limit 100",
                "simd-efficiency: statement runs at 62.5% SIMD efficiency (640 active lanes in 32 "
                "warp evaluations of 32), limit 90%",
                "partial-barrier: only part of the block reaches this barrier in 91 block "
                "executions (undefined behaviour), limit 0"}));
}

// A statement under a memory limit with an access the model cannot place is a failing finding
// naming the access; without a memory limit, or allowed by a comment, it is not.
TEST(CheckLimits, AccessesNotCountedUnderAMemoryLimitAreNotJudgedSilently) {
  CheckLimits l;
  l.min_sector_efficiency = 0.9;
  CheckKernel k = kernel_with(l);
  CheckRow s = plain(6, 3, 1, 32);
  s.not_counted = {"k.cu:6:3: store 'p[t]': it could not be placed: the pointer 'p' is read from memory"};
  const std::vector<Finding> f = check_limits(k, {s}, "/src");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, "memory-not-counted");
  EXPECT_TRUE(f[0].fails);
  EXPECT_EQ(f[0].message,
            "1 of this statement's accesses is not counted, so its memory limits cannot be "
            "judged: k.cu:6:3: store 'p[t]': it could not be placed: the pointer 'p' is "
            "read from memory");
  CheckKernel control = kernel_with(CheckLimits{});
  control.limits.min_simd_efficiency = 0.5;
  EXPECT_TRUE(check_limits(control, {s}, "/src").empty());
  s.allowed = {"memory-not-counted"};
  const std::vector<Finding> allowed = check_limits(k, {s}, "/src");
  ASSERT_EQ(allowed.size(), 1u);
  EXPECT_FALSE(allowed[0].fails);
}

TEST(CheckBaseline, WrittenThenReadBack) {
  CheckRow b = branch(12, 64, 24);
  b.statement = "if (a, \"b\")";  // quoted in the CSV
  CheckRow s = plain(13, 5, 32, 1000, "out[i] = in[i * stride]");
  MemoryFigures m;
  m.has_global = true;
  m.global_requests = 64;
  m.global_sectors = 500;
  m.global_bytes = 8000;
  s.memory = m;
  s.within = "for (int k = 0; k < 4; ++k) > if (i < n) else";
  std::ostringstream csv;
  write_baseline(csv, {b, s});
  EXPECT_EQ(csv.str(),
            "check,function,statement,ordinal,kind,file,line,column,warp_size,warp_evaluations,"
            "active_lanes,branch_evaluations,divergent,block_executions,partial_block_executions,"
            "global_requests,global_sectors,global_bytes,shared_requests,shared_wavefronts,"
            "shared_bank_conflicts,within\n"
            "k,k,\"if (a, \"\"b\"\")\",1,if,k.cu,12,3,32,64,2048,64,24,,,,,,,,,\n"
            "k,k,out[i] = in[i * stride],1,statement,k.cu,13,5,32,32,1000,,,,,64,500,8000,,,,"
            "for (int k = 0; k < 4; ++k) > if (i < n) else\n");
  const std::vector<CheckRow> back = read_baseline(csv.str(), "b.csv");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].within, std::optional<std::string>(""));
  EXPECT_EQ(back[1].within, std::optional<std::string>("for (int k = 0; k < 4; ++k) > if (i < n) else"));
  // A baseline of an older warpdiv, without the column, is read; its rows do not say what holds them.
  const std::vector<CheckRow> older = read_baseline(
      "check,function,statement,ordinal,kind,file,line,column,warp_size,warp_evaluations,active_lanes,"
      "branch_evaluations,divergent,block_executions,partial_block_executions,global_requests,"
      "global_sectors,global_bytes,shared_requests,shared_wavefronts,shared_bank_conflicts\n"
      "k,k,x = 1,1,statement,k.cu,13,5,32,32,1000,,,,,,,,,,\n",
      "b.csv");
  ASSERT_EQ(older.size(), 1u);
  EXPECT_EQ(older[0].within, std::nullopt);
  EXPECT_EQ(older[0].active_lanes, 1000u);
  EXPECT_EQ(back[0].statement, "if (a, \"b\")");
  EXPECT_TRUE(back[0].condition);
  EXPECT_EQ(back[0].branch_evaluations, 64u);
  EXPECT_EQ(back[0].divergent, 24u);
  EXPECT_FALSE(back[0].memory);
  EXPECT_FALSE(back[1].condition);
  ASSERT_TRUE(back[1].memory);
  EXPECT_TRUE(back[1].memory->has_global);
  EXPECT_FALSE(back[1].memory->has_shared);
  EXPECT_EQ(back[1].memory->global_sectors, 500u);
  EXPECT_EQ(back[1].baseline_line, 3u);
}

// Every byte the CSV reader refuses as binary data (0x00 .. 0x1F but tab, LF and CR; 0x7F), in a
// statement's text, its file's path, the check's name, the function and `within`, is written as
// '`' and two upper-case hex digits, as check.md defines, and read back as that byte; so are '`'
// itself and a blank at either end of a text (the reader trims those). Tab, LF and CR inside a
// text stay as they are (LF and CR quoted).
TEST(CheckBaseline, EveryControlByteIsEscapedAndReadBack) {
  std::vector<CheckRow> rows;
  for (int byte = 0; byte < 0x80; ++byte) {
    if (byte == 0x20) byte = 0x7f;
    const std::string b(1, static_cast<char>(byte));
    CheckRow r = plain(static_cast<std::uint32_t>(byte) + 1, 3, 1, 32, "s = 'x" + b + "[0m'");
    r.check = "c" + b + "k";
    r.function = "f" + b + "(int)";
    r.file = "dir" + b + "/k.cu";
    r.within = "if (s == '" + b + "')";
    rows.push_back(r);
  }
  CheckRow edges = plain(200, 3, 1, 32, "x = '`'; `1B`");
  edges.check = " c\t";
  edges.file = "\tk.cu ";
  edges.within = "";
  rows.push_back(edges);
  std::ostringstream csv;
  write_baseline(csv, rows);
  const std::string text = csv.str();
  EXPECT_NE(text.find("\nc`1Bk,f`1B(int),s = 'x`1B[0m',1,statement,dir`1B/k.cu,28,3,"), std::string::npos);
  EXPECT_NE(text.find("\nc`00k,f`00(int),s = 'x`00[0m',1,statement,dir`00/k.cu,1,3,"), std::string::npos);
  EXPECT_NE(text.find("\nc`7Fk,f`7F(int),s = 'x`7F[0m',1,statement,dir`7F/k.cu,128,3,"), std::string::npos);
  EXPECT_NE(text.find("\nc\tk,f\t(int),s = 'x\t[0m',1,statement,dir\t/k.cu,10,3,"), std::string::npos);
  EXPECT_NE(text.find("\n`20c`09,k,x = '`60'; `601B`60,1,statement,`09k.cu`20,200,3,"), std::string::npos);
  std::vector<CheckRow> back;
  ASSERT_NO_THROW(back = read_baseline(text, "b.csv"));
  ASSERT_EQ(back.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(back[i].check, rows[i].check);
    EXPECT_EQ(back[i].function, rows[i].function);
    EXPECT_EQ(back[i].statement, rows[i].statement);
    EXPECT_EQ(back[i].file, rows[i].file);
    EXPECT_EQ(back[i].within, rows[i].within);
  }
  // A '`' that starts no such escape (one of an older baseline) reads as itself.
  std::string older = text.substr(0, text.find('\n') + 1) +
                      "k,k,x = '`'; `1b `41 `2,1,statement,k.cu,1,3,32,1,32,,,,,,,,,,,\n";
  ASSERT_NO_THROW(back = read_baseline(older, "b.csv"));
  EXPECT_EQ(back.at(0).statement, "x = '`'; `1b `41 `2");
}

TEST(CheckBaseline, RefusesAnotherHeaderALineKeyedOneAndBadNumbers) {
  const auto refused = [](const std::string& text) {
    try {
      read_baseline(text, "b.csv");
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(refused("file,line\n").rfind("b.csv:1: the header is not 'check,function,statement,", 0), 0u);
  EXPECT_EQ(refused("check,file,line,column,kind,warp_size,warp_evaluations,divergent\n"),
            "b.csv:1: a baseline keyed by line and column (an older warpdiv's), which edits move: "
            "write it again with warpdiv check CONFIG --write-baseline b.csv");
  std::ostringstream csv;
  write_baseline(csv, {branch(12, 64, 24)});
  std::string text = csv.str();
  text.replace(text.find(",64,2048,"), 9, ",6x,2048,");
  EXPECT_EQ(refused(text),
            "b.csv:2: column 'warp_evaluations': must be a count from 0 to 2^128 - 1 "
            "(340282366920938463463374607431768211455), in decimal digits, got '6x'");
  EXPECT_EQ(refused(csv.str() + "k,k.cu,1\n"), "b.csv:3: 3 fields, the header has 22");
}

// The row of branch(12, 64, 24) with `from` replaced by `to` in its figures (after the file).
std::string baseline_with(const std::string& from, const std::string& to) {
  std::ostringstream csv;
  write_baseline(csv, {branch(12, 64, 24)});
  std::string text = csv.str();
  const std::size_t at = text.find(from, text.find("k.cu,"));
  text.replace(at, from.size(), to);
  return text;
}

std::string baseline_refusal(const std::string& text) {
  try {
    read_baseline(text, "b.csv");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(CheckBaseline, CountsBeyond128BitsAreRefusedWithTheirRange) {
  // 2^128 - 1 is a count; 2^128 is not (no wrap-around to 0). The row is
  // k,k,if (i < n),1,if,k.cu,12,3,32,64,2048,64,24,,,...: warp_evaluations 64 is column 10.
  const std::string max = "340282366920938463463374607431768211455";
  EXPECT_EQ(baseline_refusal(baseline_with(",32,64,2048,64,24,", ",32," + max + "," + max + ",64,24,")),
            "(accepted)");
  EXPECT_EQ(
      baseline_refusal(baseline_with(",32,64,2048,", ",32,340282366920938463463374607431768211456,2048,")),
      "b.csv:2: column 'warp_evaluations': must be a count from 0 to 2^128 - 1 (" + max +
          "), in decimal digits, got '340282366920938463463374607431768211456'");
  EXPECT_EQ(baseline_refusal(baseline_with(",64,24,", ",64,-1,")),
            "b.csv:2: column 'divergent': must be a count from 0 to 2^128 - 1 (" + max +
                "), in decimal digits, got '-1'");
  EXPECT_EQ(baseline_refusal(baseline_with(",32,64,", ",65,64,")),
            "b.csv:2: column 'warp_size': must be an integer from 1 to 64, got '65'");
}

TEST(CheckBaseline, FiguresThatCannotHoldTogetherAreRefused) {
  // 2^64 + 1 divergent of 64 branch evaluations (no wrap-around to 1 either).
  EXPECT_EQ(baseline_refusal(baseline_with(",64,24,", ",64,18446744073709551617,")),
            "b.csv:2: column 'divergent': 18446744073709551617 is more than branch_evaluations "
            "(64): divergent warp evaluations are some of the branch's");
  EXPECT_EQ(baseline_refusal(baseline_with(",64,24,", ",64,65,")),
            "b.csv:2: column 'divergent': 65 is more than branch_evaluations (64): divergent warp "
            "evaluations are some of the branch's");
  EXPECT_EQ(baseline_refusal(baseline_with(",64,24,", ",64,64,")), "(accepted)");  // at equality
  EXPECT_EQ(baseline_refusal(baseline_with(",2048,64,24,", ",2048,65,24,")),
            "b.csv:2: column 'branch_evaluations': 65 is more than warp_evaluations (64): a "
            "condition's warp evaluations are some of its statement's");
  // 64 evaluations of 32 lanes hold at most 2048 active lanes.
  EXPECT_EQ(baseline_refusal(baseline_with(",2048,", ",2049,")),
            "b.csv:2: column 'active_lanes': 2049 is more than warp_evaluations x warp_size "
            "(2048): a warp evaluation has at most warp_size active lanes");
  // 64 evaluations hold at least 64 active lanes.
  EXPECT_EQ(baseline_refusal(baseline_with(",2048,", ",63,")),
            "b.csv:2: column 'active_lanes': 63 is less than warp_evaluations (64): a warp "
            "evaluation has at least one active lane");
  EXPECT_EQ(baseline_refusal(baseline_with(",2048,", ",64,")), "(accepted)");
  EXPECT_EQ(baseline_refusal(baseline_with(",24,,,,,,,,", ",24,5,6,,,,,,")),
            "b.csv:2: column 'partial_block_executions': 6 is more than block_executions (5): "
            "partial block executions are some of the barrier's");
  EXPECT_EQ(baseline_refusal(baseline_with(",24,,,,,,,,", ",24,,,10,9,288,,,")),
            "b.csv:2: column 'global_requests': 10 is more than global_sectors (9): each global "
            "request touches a sector");
  EXPECT_EQ(baseline_refusal(baseline_with(",24,,,,,,,,", ",24,,,,,,10,9,0")),
            "b.csv:2: column 'shared_requests': 10 is more than shared_wavefronts (9): each shared "
            "request takes a wavefront");
  // 10 requests in 14 wavefronts: at most 4 conflicts.
  EXPECT_EQ(baseline_refusal(baseline_with(",24,,,,,,,,", ",24,,,,,,10,14,4")), "(accepted)");
  EXPECT_EQ(baseline_refusal(baseline_with(",24,,,,,,,,", ",24,,,,,,10,14,5")),
            "b.csv:2: column 'shared_bank_conflicts': 5 is more than shared_wavefronts - "
            "shared_requests (4): bank conflicts are the wavefronts beyond one per phase, a request "
            "at least one phase");
}

TEST(CheckBaseline, AStatementGivenTwiceIsRefusedWithBothLines) {
  std::ostringstream csv;
  CheckRow second = branch(20, 64, 24);
  second.ordinal = 2;
  write_baseline(csv, {branch(12, 64, 24), second});
  const std::string text = csv.str();
  const std::string row =
      text.substr(text.find('\n') + 1, text.find("\nk,", text.find('\n') + 1) - text.find('\n'));
  // Line 2 again as line 4, and as line 4 again with other whitespace in its text.
  EXPECT_EQ(baseline_refusal(text + row),
            "b.csv:4: if condition 'if (i < n)' in 'k' of check 'k' is given twice, on lines 2 and 4 "
            "(one row per statement: write the baseline again)");
  std::string spaced = row;
  spaced.replace(spaced.find("if (i < n)"), 10, "if (i<n)");
  EXPECT_EQ(baseline_refusal(text + spaced)
                .rfind("b.csv:4: if condition 'if (i<n)' in 'k' of check 'k' "
                       "is given twice, on lines 2 and 4",
                       0),
            0u);
  EXPECT_EQ(baseline_refusal(text), "(accepted)");  // ordinals 1 and 2 are two statements
}

TEST(CheckBaseline, RowsMatchByKeyAndWorseFractionsRegress) {
  // The baseline: `if (i < n)` diverged in 1 of 4 warp evaluations; its body ran 100 of 128
  // lanes (78.125%); `gone()` is no statement now.
  CheckRow if_then = branch(12, 4, 1);
  CheckRow body = plain(13, 5, 4, 100, "data[i] *= 2.0f");
  CheckRow gone = body;
  gone.line = 30;
  gone.statement = "gone()";
  gone.baseline_line = 4;
  // A larger launch, two lines further down: 2 of 8 diverge (25%, as before) and the body runs
  // 202 of 256 lanes (78.9%, better): no regression, and no note for the move.
  CheckRow if_big = branch(14, 8, 2);
  CheckRow body_big = body;
  body_big.line = 15;
  body_big.warp_evaluations = 8;
  body_big.active_lanes = 202;
  BaselineComparison how;
  how.checks = {"k"};
  const std::vector<Finding> same = compare_with_baseline({if_big, body_big}, {if_then, body}, how);
  EXPECT_TRUE(same.empty()) << same[0].message;
  // Worse shares: 3 of 8 (37.5% > 25%) and 198 of 256 lanes (77.34% < 78.125%).
  CheckRow if_worse = branch(14, 8, 3);
  CheckRow body_worse = body_big;
  body_worse.active_lanes = 198;
  const std::vector<Finding> f = compare_with_baseline({if_worse, body_worse}, {if_then, body, gone}, how);
  std::vector<std::string> lines;
  for (const Finding& x : f)
    lines.push_back(std::to_string(x.line) + " " + x.rule + (x.fails ? " fails: " : " note: ") + x.message);
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "14 divergence-regressed fails: branch diverges in 37.5% of its warp evaluations "
                       "(3 of 8), 25% in the baseline (1 of 4)",
                       "15 simd-efficiency-regressed fails: statement runs at 77.34% SIMD efficiency (198 "
                       "of 256 lanes), 78.12% in the baseline (100 of 128)",
                       "30 baseline-vanished note: statement 'gone()' in 'k' of the baseline (its line 4) "
                       "is not among the statements now: write the baseline again"}));
  // Within a tolerance of one percentage point, 77.34% against 78.125% is no regression.
  how.tolerance = 0.01;
  EXPECT_EQ(compare_with_baseline({body_worse}, {body}, how).size(), 0u);
  // Worse by exactly the tolerance is no regression, whatever the doubles round to (0.23 - 0.02
  // is 0.21000000000000002 in doubles): d of 100 warp evaluations diverging, then d + 2 at 0.02,
  // d + 3 at 0.03, d + 5 at 0.05; one more is a regression.
  for (const auto& [tolerance, step] : {std::pair{0.02, 2}, {0.03, 3}, {0.05, 5}}) {
    how.tolerance = tolerance;
    for (std::uint64_t d : {1, 5, 11, 21, 22, 41, 42, 45, 50, 60, 70}) {
      const CheckRow before = branch(12, 100, d);
      EXPECT_TRUE(compare_with_baseline({branch(12, 100, d + step)}, {before}, how).empty())
          << d << " + " << step;
      EXPECT_EQ(compare_with_baseline({branch(12, 100, d + step + 1)}, {before}, how).size(), 1u)
          << d << " + " << step + 1;
    }
  }
  how.tolerance = 0;
  // The same figures again regress nothing; a stale baseline fails when asked to, but not for a
  // kernel that could not be read.
  how.stale_fails = true;
  EXPECT_TRUE(compare_with_baseline({if_then}, {if_then}, how).empty());
  how.checks = {"other"};
  const std::vector<Finding> stale = compare_with_baseline({}, {if_then}, how);
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_TRUE(stale[0].fails);
  EXPECT_EQ(stale[0].message,
            "if condition 'if (i < n)' in 'k' of the baseline (its line 0) belongs "
            "to no [[kernel]] now: write the baseline again");
  // A failing stale row is a warning (a note fails nothing), counted as such in the summary.
  EXPECT_EQ(stale[0].level, FindingLevel::warning);
  CheckOutcome o;
  o.kernels = 1;
  o.baseline = true;
  o.findings = stale;
  std::ostringstream text;
  write_check_text(text, o);
  EXPECT_EQ(text.str().substr(text.str().find("warpdiv check:")),
            "warpdiv check: 1 kernel, 0 statements: 0 limits crossed, 0 regressions, 1 stale baseline row: "
            "FAILED\n");
  how.stale_fails = false;
  EXPECT_EQ(compare_with_baseline({}, {if_then}, how)[0].level, FindingLevel::note);
  how.stale_fails = true;
  how.unread = {"k"};
  EXPECT_TRUE(compare_with_baseline({}, {if_then}, how).empty());
}

// A guarded store `o[i] = 1` under `if (i < 48)` in a block of 64 (2 warp evaluations, 48 lanes:
// 75%), and a copy of the same text under `if (i < 8)` (1 evaluation, 8 lanes: 25%).
CheckRow guard(std::uint32_t line, const std::string& text, sim::Count evaluations, sim::Count divergent) {
  CheckRow r = branch(line, evaluations, divergent);
  r.statement = text;
  return r;
}
CheckRow store(std::uint32_t line, sim::Count evaluations, sim::Count lanes, std::uint32_t ordinal) {
  CheckRow r = plain(line, 5, evaluations, lanes, "o[i] = 1");
  r.ordinal = ordinal;
  return r;
}

TEST(CheckBaseline, AStatementOfTheSameTextAddedOrRemovedElsewhereLeavesTheOthersPaired) {
  BaselineComparison how;
  how.checks = {"k"};
  // Baseline: the guard at line 3 and its store at line 4.
  const std::vector<CheckRow> before = {guard(3, "if (i < 48)", 2, 1), store(4, 2, 48, 1)};
  // A copy added above: the new store is the first of its text, the old one (line 7) the second.
  const std::vector<CheckRow> added = {guard(3, "if (i < 8)", 2, 1), store(4, 1, 8, 1),
                                       guard(6, "if (i < 48)", 2, 1), store(7, 2, 48, 2)};
  EXPECT_EQ(paired_with_baseline(added, before),
            (std::vector<std::optional<std::size_t>>{std::nullopt, std::nullopt, 0, 1}));
  const std::vector<Finding> none = compare_with_baseline(added, before, how);
  EXPECT_TRUE(none.empty()) << none[0].message;
  // The other way: the upper copy removed while the lower store drops to 32 of 64 lanes (50%):
  // compared with its own 75%, not with the removed copy's 25%.
  const std::vector<CheckRow> removed = {guard(3, "if (i < 48)", 2, 1), store(4, 2, 32, 1)};
  EXPECT_EQ(paired_with_baseline(removed, added), (std::vector<std::optional<std::size_t>>{2, 3}));
  std::vector<std::string> lines;
  for (const Finding& x : compare_with_baseline(removed, added, how))
    lines.push_back(std::to_string(x.line) + " " + x.rule + (x.fails ? " fails: " : " note: ") + x.message);
  EXPECT_EQ(lines,
            (std::vector<std::string>{
                "4 simd-efficiency-regressed fails: statement runs at 50% SIMD efficiency (32 of 64 "
                "lanes), 75% in the baseline (48 of 64)",
                "3 baseline-vanished note: if condition 'if (i < 8)' in 'k' of the baseline (its line "
                "0) is not among the statements now: write the baseline again",
                "4 baseline-vanished note: statement 'o[i] = 1' in 'k' of the baseline (its line 0) is "
                "not among the statements now: write the baseline again"}));
  // The same with other edits at both ends (nothing in common there): the table pairs them.
  const std::vector<Finding> inner = compare_with_baseline(
      {guard(3, "if (i < 8)", 2, 1), store(4, 1, 8, 1), guard(6, "if (i < 48)", 2, 1), store(7, 2, 48, 2),
       plain(8, 3, 2, 64, "y = 2")},
      {guard(3, "if (i < 48)", 2, 1), store(4, 2, 48, 1), plain(5, 3, 2, 64, "x = 1")}, how);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_EQ(inner[0].rule, "baseline-vanished");
  EXPECT_EQ(inner[0].line, 5u);
  // Statements of one text with nothing else changed pair in order, as their ordinals do.
  EXPECT_EQ(
      paired_with_baseline({store(4, 1, 8, 1), store(5, 1, 8, 2)}, {store(4, 1, 8, 1), store(5, 1, 8, 2)}),
      (std::vector<std::optional<std::size_t>>{0, 1}));
}

// A statement inside `if (...)`: the if's text is what holds it.
CheckRow held(std::uint32_t line, sim::Count lanes, const std::string& within) {
  CheckRow r = plain(line, 14, 1, lanes, "o[i] += 1");
  r.within = within;
  return r;
}

TEST(CheckBaseline, AMovedStatementPairsWithItsOwnRowWhateverOfItsTextMovesAroundIt) {
  BaselineComparison how;
  how.checks = {"k"};
  // o[i] += 1 (32 of 32 lanes) above `if (i < 8) o[i] += 1;` (8 of 32): texts [S, if, S].
  const std::vector<CheckRow> before = {plain(3, 3, 1, 32, "o[i] += 1"), guard(4, "if (i < 8)", 1, 1),
                                        held(4, 8, "if (i < 8)")};
  // The plain one moved below: [if, S, S]. Each keeps its row (the if its own), nothing regresses.
  const std::vector<CheckRow> moved = {guard(3, "if (i < 8)", 1, 1), held(3, 8, "if (i<8)"),
                                       plain(4, 3, 1, 32, "o[i] += 1")};
  EXPECT_EQ(paired_with_baseline(moved, before), (std::vector<std::optional<std::size_t>>{1, 2, 0}));
  const std::vector<Finding> none = compare_with_baseline(moved, before, how);
  EXPECT_TRUE(none.empty()) << none[0].message;
  // The if deleted: the plain store keeps its row; the if and the guarded store vanish.
  EXPECT_EQ(paired_with_baseline({plain(3, 3, 1, 32, "o[i] += 1")}, before),
            (std::vector<std::optional<std::size_t>>{0}));
  // The plain one duplicated below: the upper copy keeps the row (the same neighbours), the guarded
  // store keeps its own.
  EXPECT_EQ(paired_with_baseline({plain(3, 3, 1, 32, "o[i] += 1"), guard(4, "if (i < 8)", 1, 1),
                                  held(4, 8, "if (i < 8)"), plain(5, 3, 1, 32, "o[i] += 1")},
                                 before),
            (std::vector<std::optional<std::size_t>>{0, 1, 2, std::nullopt}));
  // The guard's condition edited: the store it holds pairs by its text, the new if with nothing.
  EXPECT_EQ(
      paired_with_baseline(
          {plain(3, 3, 1, 32, "o[i] += 1"), guard(4, "if (i < 9)", 1, 1), held(4, 9, "if (i < 9)")}, before),
      (std::vector<std::optional<std::size_t>>{0, std::nullopt, 2}));
  // A baseline that does not say what holds its rows pairs by text and order alone.
  std::vector<CheckRow> older = before;
  for (CheckRow& r : older) r.within.reset();
  EXPECT_EQ(paired_with_baseline(before, older), (std::vector<std::optional<std::size_t>>{0, 1, 2}));
}

TEST(CheckText, OneLinePerFindingThenTheSummary) {
  CheckOutcome o;
  o.kernels = 2;
  o.statements = 9;
  o.baseline = true;
  CheckKernel k = kernel_with({});
  k.limits.max_divergent_fraction = 0.1;
  o.findings = check_limits(k, {branch(12, 64, 24)}, "/src");
  std::ostringstream out;
  write_check_text(out, o);
  EXPECT_EQ(out.str(),
            "k.cu:12:3: warning: branch diverges in 37.5% of its warp evaluations (24 of 64), "
            "limit 10% (check 'k') [divergent-branch]\n"
            "warpdiv check: 2 kernels, 9 statements: 1 limit crossed, 0 regressions: FAILED\n");
  EXPECT_EQ(percent(1.0 / 3.0), "33.33%");
  EXPECT_EQ(percent(0.1), "10%");
  EXPECT_EQ(relative_to_root("/src/kernels/zoo/a.cu", "/src/"), "kernels/zoo/a.cu");
  EXPECT_EQ(relative_to_root("/other/a.cu", "/src"), "../other/a.cu");
}

TEST(CheckSarif, Utf16ColumnsOfByteColumns) {
  // "é" is 2 bytes and 1 UTF-16 unit, "𝄞" (U+1D11E) 4 bytes and 2 units (a surrogate pair),
  // byte 0xE9 alone is invalid UTF-8: 1 unit (U+FFFD).
  const std::string line = "/* \xC3\xA9\xF0\x9D\x84\x9E */ if (i)";
  // `if` starts at byte 3 + 2 + 4 + 4 + 1 = 14, after 3 + 1 + 2 + 4 = 10 units: column 11.
  EXPECT_EQ(line.substr(13, 2), "if");
  EXPECT_EQ(utf16_column(line, 14), 11u);
  EXPECT_EQ(utf16_column(line, 1), 1u);
  EXPECT_EQ(utf16_column("a\xE9"
                         "b",
                         3),
            3u);
  EXPECT_EQ(utf16_column("\xE9\xE9\xE9", 4), 4u);
  EXPECT_EQ(utf16_column("ab", 5), 5u);  // past the end: one unit a byte
}

TEST(CheckSarif, InvalidUtf8BecomesReplacementCharactersAndPercentEncodedUris) {
  CheckOutcome o;
  Finding f;
  f.rule = "divergent-branch";
  f.check = "k\xE9";
  f.file = "d\xE9/k.cu";
  f.line = 2;
  f.column = 10;
  f.end_line = 2;
  f.end_column = 15;  // the `f` of `if`
  f.message = "branch in d\xE9/k.cu";
  o.findings = {f};
  std::ostringstream out;
  // Line 2 of the file: 3 + 2 + 4 = 9 bytes before byte column 10, 3 + 1 + 2 = 6 units.
  write_check_sarif(out, o, "/src", "1", {{"d\xE9/k.cu", {"", "/* \xC3\xA9\xF0\x9D\x84\x9E */ if (i)"}}});
  const std::string sarif = out.str();
  EXPECT_NE(sarif.find("\"uri\": \"d%E9/k.cu\""), std::string::npos) << sarif;
  EXPECT_NE(sarif.find("\"text\": \"branch in d\xEF\xBF\xBD/k.cu (check 'k\xEF\xBF\xBD')\""),
            std::string::npos)
      << sarif;
  EXPECT_NE(sarif.find("\"columnKind\": \"utf16CodeUnits\""), std::string::npos);
  EXPECT_NE(sarif.find("\"startColumn\": 7"), std::string::npos) << sarif;
  // SARIF's end is the column after byte 15: 15 bytes before byte 16 are 3 + 1 + 2 + 6 = 12
  // units, column 13.
  EXPECT_NE(sarif.find("\"endColumn\": 13"), std::string::npos) << sarif;
  // A file whose lines are not known has no columns (rather than byte columns).
  std::ostringstream bare;
  write_check_sarif(bare, o, "/src", "1", {});
  EXPECT_EQ(bare.str().find("Column"), std::string::npos) << bare.str();
}

// The region of an if's, for's, while's or switch's finding comes from its header up to its
// condition; SARIF's region goes on to the ')' that closes the header (end columns one past it).
TEST(CheckSarif, AHeadersRegionEndsAfterItsClosingParenthesis) {
  const std::vector<std::string> lines = {
      "  if (t < limitvalue) o[t] = 1;",        // 1: ')' at byte 21
      "  for (int i = 0;",                      // 2
      "       i < n; /* ) */ i++) o[t] += 1;",  // 3: the comment's ')' skipped, ')' at byte 26
      "  if (c == ')' && (t < 3)) o[t] = 2;",   // 4: the literal's ')' skipped, ')' at byte 26
      "  o[t] = (t + 1) * 2;",                  // 5: balanced: ends where it ends (byte 20)
      "  while (f(t, \"(\")",                   // 6: the string's '(' skipped
      "         ) o[t] = 3;",                   // 7: ')' at byte 10
  };
  const auto region = [&](std::uint32_t line, std::uint32_t column, std::uint32_t end_line,
                          std::uint32_t end_column) {
    CheckOutcome o;
    Finding f;
    f.rule = "divergent-branch";
    f.file = "k.cu";
    f.line = line;
    f.column = column;
    f.end_line = end_line;
    f.end_column = end_column;
    o.findings = {f};
    std::ostringstream out;
    write_check_sarif(out, o, "/src", "1", {{"k.cu", lines}});
    const auto r = nlohmann::json::parse(
        out.str())["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    return std::to_string(r["endLine"].get<int>()) + ":" + std::to_string(r["endColumn"].get<int>());
  };
  EXPECT_EQ(region(1, 3, 1, 20), "1:22");  // `if (t < limitvalue` ends at its 'e', byte 20
  EXPECT_EQ(region(2, 3, 3, 25), "3:27");  // up to `i++`
  EXPECT_EQ(region(4, 3, 4, 25), "4:27");  // up to the ')' of (t < 3)
  EXPECT_EQ(region(5, 3, 5, 20), "5:21");
  EXPECT_EQ(region(6, 3, 6, 18), "7:11");  // up to the header's ')', on the next line
}

}  // namespace
}  // namespace warpdiv::analysis
