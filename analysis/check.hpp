// `warpdiv check CONFIG`, the divergence gate for CI, as data: a launch's report rows
// (analysis/source_report.hpp) become check rows, the configuration's limits
// (analysis/check_config.hpp) and a baseline of earlier rows turn them into findings, and the
// formatters print them as compilers print diagnostics ("FILE:LINE:COL: warning: ... [rule]")
// or write them as SARIF 2.1.0 (analysis/check_sarif.hpp). Nothing here runs a kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "analysis/check_config.hpp"
#include "analysis/csv.hpp"
#include "analysis/source_report.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/count.hpp"
#include "sim/model/ir.hpp"

namespace warpdiv::analysis {

enum class FindingLevel { error, warning, note };

/// What the check found at one statement (or at a line of the configuration or the baseline).
struct Finding {
  std::string rule;  // "divergent-branch" (check_rules() lists them)
  FindingLevel level = FindingLevel::warning;
  bool fails = true;  // counts against the exit status
  /// A `// warpdiv: allow(...)` comment allows it: not printed, not failing, SARIF's suppression.
  bool suppressed = false;
  std::string check;
  std::string file;                                                  // relative to the root
  std::uint32_t line = 0, column = 0, end_line = 0, end_column = 0;  // end inclusive, 0 unknown
  std::string message;  // one line, without the place and the rule
  /// The figures behind it, for SARIF's properties: name and decimal number (or text).
  std::vector<std::pair<std::string, std::string>> figures;
};

/// A rule of the check: its id, a short description, and the configuration key it enforces.
struct CheckRule {
  const char* id;
  const char* summary;
  const char* key;  // "" for regressions and notes
  FindingLevel level;
};
const std::vector<CheckRule>& check_rules();

/// One source statement's figures as the check sees them, with its place relative to the
/// configuration's root. Also one row of a baseline. A statement is keyed by its function, its
/// text and its ordinal (StatementKey), never by its line: an edit elsewhere leaves the key as it
/// was. A report row of a loop's init, test or step counts for the loop; the copies of a
/// __device__ function's statement inlined at several calls count once, summed.
struct CheckRow {
  std::string check;          // the [[kernel]]'s name
  std::string function;       // the function the statement is written in (the kernel or a __device__ one)
  std::string statement;      // its source text, whitespace-normalised ("if (tid == 0)", "for (...)")
  std::uint32_t ordinal = 1;  // 1 + the statements of the same text before it in the function
  std::string file;           // relative to the root ("kernels/zoo/foo.cu")
  std::uint32_t line = 0, column = 0;
  std::uint32_t end_line = 0, end_column = 0;  // inclusive; 0 when unknown (baselines)
  std::string kind;                            // sim::ir::report_kind: if, for, barrier ...
  /// The texts of the if, loop and switch statements of its function that hold it, outermost
  /// first, " > " between them, each followed by " else" in that if's else ("if (i < n) >
  /// for (int k = 0; k < 4; ++k)"); empty at the function's top. None for a row of a baseline
  /// written without the column.
  std::optional<std::string> within = std::string();
  bool condition = false, barrier = false;
  int warp_size = 32;
  /// Every part and copy of the statement: SIMD efficiency is active_lanes / (warp_evaluations x
  /// warp_size).
  sim::Count warp_evaluations = 0, active_lanes = 0;
  /// Its condition's evaluations (if, loop test, switch), divergent ones and lanes that took it.
  sim::Count branch_evaluations = 0, divergent = 0, taken_lanes = 0;
  sim::Count block_executions = 0, partial_block_executions = 0;  // a barrier's
  /// Memory figures, when the count has them (MemoryFigures' has_global / has_shared say which).
  std::optional<MemoryFigures> memory;
  /// The statement's memory accesses the count has no figures for: "FILE:LINE:COL: load 'x[i]':
  /// why", each once (the memory figures above leave them out).
  std::vector<std::string> not_counted;
  /// Those of them the run met undefined behaviour in (AccessRow::undefined), likewise.
  std::vector<std::string> undefined;
  std::size_t copies = 1;  // report rows summed into this one
  /// "LINE:COL" of the single-lane branch (single_lane_branch()) the statement is, or lies in the
  /// taken side of; empty otherwise.
  std::string single_lane;
  /// The rule ids a `// warpdiv: allow(...)` comment allows on the statement (check_rules()).
  std::vector<std::string> allowed;
  std::size_t baseline_line = 0;  // the CSV line a baseline row was read from
  /// Another function's row has the statement's place (the instantiations of one template have a
  /// row each): its findings name the function.
  bool place_shared = false;
};

/// A condition true for exactly one lane of every warp evaluation that splits on it, and never
/// for a whole warp (`if (threadIdx.x == 0)`, `if (lane == 0)`): an `if` whose taken lanes equal
/// its divergent evaluations, at least one. (Each divergent evaluation takes at least one lane
/// and each uniformly taken one at least one more, so equality holds exactly then.)
bool single_lane_branch(const CheckRow& row);

/// The check rows of a report (its whole-kernel rows, one per source statement, in source order):
/// `root` is the absolute folder paths are made relative to; the end of each range comes from the
/// kernel's statements (a condition's from its condition, a for's from its header); the source
/// text from the kernel's files (their lines, else read from disk). A suppression comment is a
/// real comment (analysis/check_source.hpp: never text in a literal) whose text starts
/// `warpdiv:`; one not of the form `warpdiv: allow(NAMES)`, or naming an unknown rule, is
/// reported once in `notes` (rule bad-suppression).
std::vector<CheckRow> make_check_rows(const std::string& check, const SourceReport& report,
                                      const sim::ir::Kernel& kernel, int warp_size, const std::string& root,
                                      std::vector<Finding>& notes);

/// The rule ids an in-source comment `warpdiv: allow(NAMES)` names: each NAME a rule id or a
/// group (check_suppression_groups()); `unknown` receives the names that are neither.
std::vector<std::string> allowed_rules(const std::string& names, std::vector<std::string>& unknown);
/// The groups a suppression may name, each with its rules (comma-separated).
const std::vector<std::pair<std::string, std::string>>& check_suppression_groups();

/// `path` relative to `root` (both made absolute and normal first), with '/' separators.
std::string relative_to_root(const std::string& path, const std::string& root);

/// The limits of `kernel` (its own, overlaid by every [[kernel.statement]] and [[kernel.line]]
/// table matching the row) applied to each row: one finding per limit crossed, in the order
/// branch, SIMD efficiency, barrier, global, shared. Marks the tables that matched a row
/// (`used`); a line table without `file` applies to the kernel's own file (CheckKernel::file);
/// `root` is the folder the rows' files are relative to. A finding on a statement of a
/// single-lane branch (CheckRow::single_lane) has the rule single-lane-branch; one a comment
/// allows is suppressed.
std::vector<Finding> check_limits(CheckKernel& kernel, const std::vector<CheckRow>& rows,
                                  const std::string& root);

/// Notes for the [[kernel.statement]] and [[kernel.line]] tables no statement matched (their
/// limits apply to nothing), and for each line table that matched, the [[kernel.statement]] to
/// write instead (a line number moves with every edit above it). `rows` are the kernel's.
std::vector<Finding> config_table_notes(const CheckKernel& kernel, const std::vector<CheckRow>& rows,
                                        const std::string& config_file, const std::string& root);

/// How rows are compared with a baseline.
struct BaselineComparison {
  std::vector<std::string> checks;  // the kernels counted now (other checks' rows are not stale)
  std::vector<std::string> unread;  // kernels that could not be read (their rows are not stale)
  bool stale_fails = false;         // a baseline row no statement matches fails
  /// A fraction must get worse by more than this to regress (0: any worsening, exactly).
  double tolerance = 0.0;
};

/// For each row, the baseline row it is compared with, within each check and function: first
/// those of one kind, text and `within` (the statements that hold it), then the rest by kind and
/// text alone; among several of one such key now or before, in source order, the copies left
/// unpaired chosen so that the most paired ones keep the same neighbours (the kind and text of the
/// statements just before and after), the earliest first. A statement moved, added or removed
/// elsewhere, even one of the same text, leaves the others paired with their own rows; none for a
/// statement the baseline does not have.
std::vector<std::optional<std::size_t>> paired_with_baseline(const std::vector<CheckRow>& rows,
                                                             const std::vector<CheckRow>& baseline);

/// The rows against a baseline's, matched by paired_with_baseline(). A
/// matched row whose fractions got worse (divergent evaluations / branch evaluations, SIMD
/// efficiency, sector efficiency, bank conflicts per shared request, partial / all block
/// executions of a barrier: compared exactly, so a launch of another size is no regression by
/// itself) is a failing finding; a baseline row no statement matches is a note (failing with
/// `stale_fails`).
std::vector<Finding> compare_with_baseline(const std::vector<CheckRow>& rows,
                                           const std::vector<CheckRow>& baseline,
                                           const BaselineComparison& how);

/// The baseline CSV's columns: check,function,statement,ordinal,kind,file,line,column,warp_size,
/// warp_evaluations,active_lanes,branch_evaluations,divergent,block_executions,
/// partial_block_executions,global_requests,global_sectors,global_bytes,shared_requests,
/// shared_wavefronts,shared_bank_conflicts,within (the branch, barrier and memory columns empty
/// where the statement has none). file, line and column say where the statement was; they key
/// nothing. A baseline without the last column (an older warpdiv's) is read too.
const CsvColumns<CheckRow>& baseline_columns();
void write_baseline(std::ostream& out, const std::vector<CheckRow>& rows);
/// Reads a baseline written by write_baseline; `source` names it in refusals
/// (InvalidInput "SOURCE:LINE: ...": another header, one keyed by line numbers, a number outside
/// its column's range (counts 0 .. 2^128 - 1), a missing field, figures of a row that cannot hold
/// together (divergent > branch_evaluations, ...), a statement given twice).
std::vector<CheckRow> read_baseline(const std::string& text, const std::string& source);

/// A [[kernel]] whose kernel could not be read or counted: a finding under the diagnostic's rule
/// (warpdiv-ID) and level (finding_level), at the diagnostic's place when it has one (relative to
/// `root`), else at `file`, with the reason (one line).
Finding unreadable_kernel(const std::string& check, const std::string& file, const Diagnostic& reason,
                          const std::string& root);
/// The level of a finding that a diagnostic of this category stopped: a warning where warpdiv
/// could not model the kernel (unsupported, an unknown value, a budget), else an error.
FindingLevel finding_level(Category category);

/// What a check found, and whether it passes.
struct CheckOutcome {
  std::size_t kernels = 0, statements = 0;
  std::vector<Finding> findings;
  bool baseline = false;
  /// Findings in single-lane branches left out (report_single_lane not set).
  std::size_t single_lane_hidden = 0;
  std::size_t failing() const;
  bool passed() const { return failing() == 0; }
};

/// One line per finding a comment does not allow, "FILE:LINE:COL: warning: MESSAGE (check NAME)
/// [RULE]" ("FILE: error: ..." without a line), then the summary line "warpdiv check: N kernels,
/// M statements: ..." ending in "passed" or "FAILED".
void write_check_text(std::ostream& out, const CheckOutcome& outcome);

/// A fraction as a percentage: up to two decimals, trailing zeros dropped ("37.5%", "10%").
std::string percent(double fraction);

}  // namespace warpdiv::analysis
