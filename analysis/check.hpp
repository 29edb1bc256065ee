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
#include "sim/count.hpp"
#include "sim/ir.hpp"

namespace warpdiv::analysis {

/// One statement's figures as the check sees them (a whole-kernel SourceRow), with its place
/// relative to the configuration's root. Also one row of a baseline.
struct CheckRow {
  std::string check;  // the [[kernel]]'s name
  std::string file;   // relative to the root ("kernels/zoo/foo.cu")
  std::uint32_t line = 0, column = 0;
  std::uint32_t end_line = 0, end_column = 0;  // inclusive; 0 when unknown (baselines)
  std::string kind;                            // sim::ir::report_kind: if, for, barrier ...
  bool condition = false, barrier = false;
  int warp_size = 32;
  sim::Count warp_evaluations = 0, divergent = 0, active_lanes = 0;
  sim::Count partial_block_executions = 0;
  /// Memory figures, when the count has them (MemoryFigures' has_global / has_shared say which).
  std::optional<MemoryFigures> memory;
  std::string text;  // the statement's first source line, trimmed
  std::size_t baseline_line = 0;  // the CSV line a baseline row was read from
};

/// The check rows of a report (its whole-kernel rows, in order): `root` is the absolute folder
/// paths are made relative to; the end of each range comes from the kernel's statements (a
/// condition's from its condition expression).
std::vector<CheckRow> make_check_rows(const std::string& check, const SourceReport& report,
                                      const sim::ir::Kernel& kernel, int warp_size,
                                      const std::string& root);

/// `path` relative to `root` (both made absolute and normal first), with '/' separators.
std::string relative_to_root(const std::string& path, const std::string& root);

enum class FindingLevel { warning, note };

/// What the check found at one statement (or at a line of the configuration or the baseline).
struct Finding {
  std::string rule;  // "divergent-branch" (check_rules() lists them)
  FindingLevel level = FindingLevel::warning;
  bool fails = true;  // counts against the exit status
  std::string check;
  std::string file;  // relative to the root
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

/// The limits of `kernel` (its own, overlaid by every [[kernel.line]] table matching the row)
/// applied to each row: one finding per limit crossed, in the order branch, SIMD efficiency,
/// barrier, global, shared. Marks the line tables that matched a row (LineLimits::used); a line
/// table without `file` applies to the kernel's own file (CheckKernel::file); `root` is the folder
/// the rows' files are relative to.
std::vector<Finding> check_limits(CheckKernel& kernel, const std::vector<CheckRow>& rows,
                                  const std::string& root);

/// Notes for the [[kernel.line]] tables no statement matched (the limits apply to nothing).
std::vector<Finding> unused_line_limits(const CheckKernel& kernel, const std::string& config_file,
                                        const std::string& root);

/// The rows against a baseline's: rows are matched by check, file, line, column and kind; the
/// rest by check, file, kind and statement text in order (a statement that moved, a note). A
/// matched row whose divergent evaluations, SIMD efficiency (exact, as a fraction), global
/// sectors, shared bank conflicts or partial barrier executions got worse is a failing finding;
/// a baseline row no statement matches is a note (failing with `stale_fails`); `checks` are the
/// configuration's kernel names (a row of another check belongs to a kernel no longer checked).
std::vector<Finding> compare_with_baseline(const std::vector<CheckRow>& rows,
                                           const std::vector<CheckRow>& baseline,
                                           const std::vector<std::string>& checks,
                                           bool stale_fails);

/// The baseline CSV's columns: check,file,line,column,kind,warp_size,warp_evaluations,divergent,
/// active_lanes,partial_block_executions,global_requests,global_sectors,global_bytes,
/// shared_requests,shared_wavefronts,shared_bank_conflicts,statement (the memory columns empty
/// where the statement has no counted access of that space).
const CsvColumns<CheckRow>& baseline_columns();
void write_baseline(std::ostream& out, const std::vector<CheckRow>& rows);
/// Reads a baseline written by write_baseline; `source` names it in refusals
/// (InvalidInput "SOURCE:LINE: ...": another header, a bad number, a missing field).
std::vector<CheckRow> read_baseline(const std::string& text, const std::string& source);

/// What a check found, and whether it passes.
struct CheckOutcome {
  std::size_t kernels = 0, statements = 0;
  std::vector<Finding> findings;
  bool baseline = false;
  std::size_t failing() const;
  bool passed() const { return failing() == 0; }
};

/// One line per finding, "FILE:LINE:COL: warning: MESSAGE (check NAME) [RULE]", then the summary
/// line "warpdiv check: N kernels, M statements: ..." ending in "passed" or "FAILED".
void write_check_text(std::ostream& out, const CheckOutcome& outcome);

/// A fraction as a percentage: up to two decimals, trailing zeros dropped ("37.5%", "10%").
std::string percent(double fraction);

}  // namespace warpdiv::analysis
