// `warpdiv check`'s library part: the configuration's reader, the limits, the baseline and the
// text formatter, on hand-made rows whose figures are worked out in the comments.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "analysis/check.hpp"
#include "analysis/check_config.hpp"
#include "sim/errors.hpp"

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
      "grid = [\"(n+127)/128\", 2]\nblock = 128\nargs = { n = 1000, a = 2.5, big = \"18446744073709551615\" }\n"
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

TEST(CheckConfig, RefusalsNameThePlaceTheKeyAndTheRange) {
  // Line 2 column 1 is the key; a value's place is where the value starts.
  EXPECT_EQ(refusal("[limits]\nmax_divergent_fractoin = 0.1\n" + kKernel),
            "ci/c.toml:2:1: unknown key 'max_divergent_fractoin' in [limits]; did you mean "
            "'max_divergent_fraction'? (allowed: max_divergent_fraction, max_divergent, "
            "min_simd_efficiency, partial_barriers, min_sector_efficiency, "
            "max_sectors_per_request, max_bank_conflicts_per_request, max_bank_conflicts)");
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
            "ci/c.toml:6:10: engine must be auto, exact or replay, got 'fast'");
  EXPECT_EQ(refusal(kKernel + "[[kernel.line]]\ncolumn = 3\n"),
            "ci/c.toml:6:1: [[kernel.line]] needs line = N (the source line its limits are for)");
  EXPECT_EQ(refusal(kKernel + kKernel),
            "ci/c.toml:6:1: two [[kernel]] tables are named 'k': give each a unique name = \"...\"");
  EXPECT_EQ(refusal("root = \".\"\n"),
            "ci/c.toml: no [[kernel]] table: nothing to check (each names a file, a grid and a block)");
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
            "fail_on_stale_baseline, limits, kernel)");
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
  r.divergent = divergent;
  r.active_lanes = evaluations * 32;
  r.text = "if (i < n)";
  return r;
}

CheckKernel kernel_with(const CheckLimits& limits) {
  CheckKernel k;
  k.name = "k";
  k.file = "/src/k.cu";
  k.limits = limits;
  return k;
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
  EXPECT_EQ(f[0].message,
            "branch diverges in 37.5% of its warp evaluations (24 of 64), limit 10%");
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
  const std::vector<Finding> unused = unused_line_limits(k, "/src/ci/c.toml", "/src");
  ASSERT_EQ(unused.size(), 1u);
  EXPECT_EQ(unused[0].file, "ci/c.toml");
  EXPECT_FALSE(unused[0].fails);
  EXPECT_EQ(unused[0].message, "no statement starts on line 99 of k.cu: these limits apply to nothing");
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
  CheckRow s;  // 1000 active lanes in 32 warp evaluations: 1000 / 1024 = 97.65625%, passes
  s.check = "k";
  s.file = "k.cu";
  s.line = 10;
  s.column = 5;
  s.kind = "statement";
  s.warp_evaluations = 32;
  s.active_lanes = 1000;
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
  CheckRow barrier;  // 91 partial block executions (the barrier-in-guard kernel's) > 0
  barrier.check = "k";
  barrier.file = "k.cu";
  barrier.line = 20;
  barrier.column = 7;
  barrier.kind = "barrier";
  barrier.barrier = true;
  barrier.warp_evaluations = 2744;
  barrier.active_lanes = 2744 * 32;
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

TEST(CheckBaseline, WrittenThenReadBack) {
  CheckRow b = branch(12, 64, 24);
  b.text = "if (a, \"b\")";  // quoted in the CSV
  CheckRow s;
  s.check = "k";
  s.file = "k.cu";
  s.line = 13;
  s.column = 5;
  s.kind = "statement";
  s.warp_evaluations = 32;
  s.active_lanes = 1000;
  MemoryFigures m;
  m.has_global = true;
  m.global_requests = 64;
  m.global_sectors = 500;
  m.global_bytes = 8000;
  s.memory = m;
  s.text = "out[i] = in[i * stride];";
  std::ostringstream csv;
  write_baseline(csv, {b, s});
  EXPECT_EQ(csv.str(),
            "check,file,line,column,kind,warp_size,warp_evaluations,divergent,active_lanes,"
            "partial_block_executions,global_requests,global_sectors,global_bytes,shared_requests,"
            "shared_wavefronts,shared_bank_conflicts,statement\n"
            "k,k.cu,12,3,if,32,64,24,2048,,,,,,,,\"if (a, \"\"b\"\")\"\n"
            "k,k.cu,13,5,statement,32,32,,1000,,64,500,8000,,,,out[i] = in[i * stride];\n");
  const std::vector<CheckRow> back = read_baseline(csv.str(), "b.csv");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].text, "if (a, \"b\")");
  EXPECT_TRUE(back[0].condition);
  EXPECT_EQ(back[0].divergent, 24u);
  EXPECT_FALSE(back[0].memory);
  EXPECT_FALSE(back[1].condition);
  ASSERT_TRUE(back[1].memory);
  EXPECT_TRUE(back[1].memory->has_global);
  EXPECT_FALSE(back[1].memory->has_shared);
  EXPECT_EQ(back[1].memory->global_sectors, 500u);
  EXPECT_EQ(back[1].baseline_line, 3u);
}

TEST(CheckBaseline, RefusesAnotherHeaderAndBadNumbers) {
  const auto refused = [](const std::string& text) {
    try {
      read_baseline(text, "b.csv");
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(refused("file,line\n").rfind("b.csv:1: the header is not 'check,file,line,", 0), 0u);
  std::ostringstream csv;
  write_baseline(csv, {branch(12, 64, 24)});
  std::string text = csv.str();
  text.replace(text.find(",64,24,"), 7, ",6x,24,");
  EXPECT_EQ(refused(text), "b.csv:2: warp_evaluations must be a count (decimal digits), got '6x'");
  EXPECT_EQ(refused(csv.str() + "k,k.cu,1\n"), "b.csv:3: 3 fields, the header has 17");
}

TEST(CheckBaseline, WorseFiguresAreRegressionsMovedAndVanishedRowsNotes) {
  // The baseline: line 12 diverged in 0 of 96, line 16 ran at 1728 of 54 x 32 lanes (100%),
  // line 30 was a statement that is gone now.
  CheckRow if_then = branch(12, 96, 0);
  CheckRow body;
  body.check = "k";
  body.file = "k.cu";
  body.line = 16;
  body.column = 3;
  body.kind = "statement";
  body.warp_evaluations = 54;
  body.active_lanes = 1728;
  body.text = "data[i] *= 2.0f;";
  CheckRow gone = body;
  gone.line = 30;
  gone.text = "gone();";
  gone.baseline_line = 4;
  // Now: 18 of 96 diverge, and the body moved down two lines running 1440 of 1728 lanes (83.33%).
  CheckRow if_now = branch(12, 96, 18);
  CheckRow body_now = body;
  body_now.line = 18;
  body_now.active_lanes = 1440;
  const std::vector<Finding> f =
      compare_with_baseline({if_now, body_now}, {if_then, body, gone}, {"k"}, false);
  std::vector<std::string> lines;
  for (const Finding& x : f)
    lines.push_back(std::to_string(x.line) + " " + x.rule + (x.fails ? " fails: " : " note: ") + x.message);
  EXPECT_EQ(lines,
            (std::vector<std::string>{
                "18 baseline-moved note: statement 'data[i] *= 2.0f;' was at 16:3 in the baseline; "
                "compared with that row",
                "12 divergence-regressed fails: branch diverges in 18 warp evaluations, 0 in the "
                "baseline (baseline 96 warp evaluations, now 96)",
                "18 simd-efficiency-regressed fails: statement runs at 83.33% SIMD efficiency, 100% "
                "in the baseline (baseline 54 warp evaluations, now 54)",
                "30 baseline-vanished note: statement 'gone();' of the baseline (its line 4) has no "
                "statement now at 30:3 or elsewhere: write the baseline again"}));
  // The same figures again regress nothing; a stale baseline fails when asked to.
  EXPECT_TRUE(compare_with_baseline({if_then}, {if_then}, {"k"}, true).empty());
  const std::vector<Finding> stale = compare_with_baseline({}, {if_then}, {"other"}, true);
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_TRUE(stale[0].fails);
  EXPECT_EQ(stale[0].message, "if condition 'if (i < n)' of the baseline (its line 0) belongs to "
                              "no [[kernel]] now (check 'k'): write the baseline again");
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

}  // namespace
}  // namespace warpdiv::analysis
