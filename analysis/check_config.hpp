// The configuration of `warpdiv check CONFIG` (docs/guide/check.md): a TOML file listing kernels,
// their launches and the limits their figures must hold, read with toml++ (the only file that
// includes it). Every refusal is one line "CONFIG:LINE:COL: ..." naming the key, what it takes and
// what it got (InvalidInput, exit 2). Paths are resolved against the configuration's folder here;
// launch expressions and argument values stay text, evaluated by the command (tools/cli) with the
// place they came from, so that their refusals point into the file too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/support/errors.hpp"

namespace warpdiv::analysis {

/// A place in the configuration (1-based line and column; 0 where unknown).
struct ConfigPlace {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

/// "CONFIG:LINE:COL: what" (without the place when it is unknown).
std::string config_message(const std::string& config, const ConfigPlace& place, const std::string& what);

/// A refusal at a place of the configuration (its location; none when the place is unknown).
InvalidInput config_error(Diag diag, const std::string& config, const ConfigPlace& place,
                          const std::string& what);

/// The limits one statement's figures must hold; an unset limit is not checked.
struct CheckLimits {
  /// Per branch (if, loop, switch condition): divergent evaluations / warp evaluations, 0 .. 1.
  std::optional<double> max_divergent_fraction;
  /// Per branch: divergent evaluations, at most this many.
  std::optional<std::uint64_t> max_divergent;
  /// Per statement evaluated: active lanes / (warp evaluations x warp size), 0 .. 1.
  std::optional<double> min_simd_efficiency;
  /// Per barrier: block executions only part of the block reaches (undefined behaviour).
  std::optional<std::uint64_t> partial_barriers;
  /// Per statement with a counted global access: bytes asked / bytes of the sectors, 0 .. 1.
  std::optional<double> min_sector_efficiency;
  /// Per statement with a counted global access: sectors / requests, 1 .. 32.
  std::optional<double> max_sectors_per_request;
  /// Per statement with a counted shared access: bank conflicts / requests, 0 .. 1024.
  std::optional<double> max_bank_conflicts_per_request;
  /// Per statement with a counted shared access: bank conflicts, at most this many.
  std::optional<std::uint64_t> max_bank_conflicts;
  /// Report the findings in single-lane branches (rule single-lane-branch); left out by default.
  std::optional<bool> report_single_lane;
};
/// `over`'s limits where set, else `base`'s.
CheckLimits overlay(const CheckLimits& base, const CheckLimits& over);

/// `text` with its line splices removed and every run of whitespace made one space, none at either
/// end, a string or character literal's text kept as written (the form statements are keyed by).
std::string normalise_statement(const std::string& text);

/// A `[[kernel.statement]]` table: other limits for a statement, keyed as findings and baselines
/// key it (analysis/check.hpp's CheckRow): its text, its function, its ordinal.
struct StatementLimits {
  std::string statement;                 // normalised
  std::optional<std::string> function;   // none: any function of the kernel
  std::optional<std::uint32_t> ordinal;  // none: every statement of that text
  CheckLimits limits;                    // only those set here
  ConfigPlace place;
  bool used = false;  // set by the check: a table no statement matched is reported
};

/// A `[[kernel.line]]` table (read as before, each match noted with the [[kernel.statement]] to
/// write instead): other limits for the statements starting on one line.
struct LineLimits {
  std::string file;  // resolved; empty: the kernel's own file
  std::uint32_t line = 0;
  std::optional<std::uint32_t> column;  // only the statement starting at this column
  CheckLimits limits;                   // only those set here
  ConfigPlace place;
  bool used = false;  // set by the check: a line table no statement matched is reported
};

/// One `[[kernel]]` table: a kernel, a launch, and its limits.
struct CheckKernel {
  std::string name;  // `name`, else `kernel`, else the file's stem; unique in the file
  ConfigPlace place;
  std::string file;   // resolved against the configuration's folder; empty with `model`
  std::string model;  // a model saved with --save-model (a build without Clang reads only these)
  std::optional<std::string> kernel;
  /// Expressions of the args, as --grid and --block take them. Either left out (`file` only):
  /// the launch comes from the file's host code (`launch = N` picks one of several), the given
  /// one, the args and dynamic_smem overriding it, as `warpdiv analyze FILE.cu` does.
  std::optional<std::string> grid, block;
  ConfigPlace grid_place, block_place;
  std::optional<std::int64_t> launch;  // `launch = N`: the Nth launch in the host code (1 = first)
  ConfigPlace launch_place;
  /// `compile_commands`: a build folder holding compile_commands.json (as -p), resolved; empty: none.
  std::string build_dir;
  std::vector<std::string> args;  // "NAME=VALUE"
  ConfigPlace args_place;
  /// Each args value's place and its text as written (`20.0`, `0x10`), in the order of `args`.
  std::vector<ConfigPlace> arg_places;
  std::vector<std::string> arg_texts;
  std::vector<std::string> defines;       // "NAME[=VALUE]"
  std::vector<std::string> include_dirs;  // resolved
  std::optional<std::string> cuda_headers;
  bool fmad = true;
  std::string engine = "auto";  // auto, exact, replay
  int warp_size = 32;
  std::optional<std::int64_t> dynamic_smem;  // extern __shared__ bytes; default 0 (or the host launch's)
  std::vector<std::string> allocs;           // "NAME=COUNT"
  std::vector<std::string> data;             // "NAME=FILE", FILE resolved
  ConfigPlace buffers_place;                 // of `alloc` or `data`
  std::optional<std::int64_t> max_evaluations;
  CheckLimits limits;  // the file's [limits], then the kernel's, partial_barriers 0 by default
  std::vector<StatementLimits> statements;
  std::vector<LineLimits> lines;
};

struct CheckConfig {
  std::string path;  // as given
  /// Paths in findings, baselines and SARIF are relative to this folder (`root`, default the
  /// configuration's folder); absolute, normalised.
  std::string root;
  std::optional<std::string> baseline;  // resolved
  ConfigPlace baseline_place;
  /// A baseline row that vanished or moved fails the check (else it is a note).
  bool fail_on_stale_baseline = false;
  /// A fraction must get worse than the baseline's by more than this to regress (0 .. 1; 0:
  /// any worsening). Two percentage points by default: a launch one element larger adds a partly
  /// filled warp or row of warps, which moves the shares by about that much.
  double regression_tolerance = 0.02;
  std::vector<CheckKernel> kernels;
};

/// Parses a configuration's text (`path` names it in messages and anchors relative paths).
/// Throws InvalidInput "PATH:LINE:COL: ..." for TOML syntax, unknown keys (with the nearest known
/// one), wrong types, values out of range (naming the range), a missing required key, or two
/// kernels of one name.
CheckConfig parse_check_config(const std::string& text, const std::string& path);

}  // namespace warpdiv::analysis
