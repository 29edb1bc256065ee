// The report of `warpdiv analyze FILE.cu`: a source kernel's replay counts as data rows (one per
// statement, or per statement and iteration of its innermost loop), and two formatters: the
// annotated listing of the kernel's source and the CSV.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "analysis/csv.hpp"
#include "analysis/line_columns.hpp"
#include "analysis/memory_report.hpp"
#include "sim/model/ir.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::analysis {

struct SourceRow {
  sim::ir::StmtId statement = sim::ir::kNone;
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  /// Where the statement ends: two statements starting at one place (`buffer[t] = t`, whose
  /// operator[] call starts where the assignment does) are told apart by it.
  std::uint32_t end_line = 0, end_column = 0;
  std::string kind;                        // sim::ir::report_kind
  std::optional<std::uint64_t> iteration;  // 1 = the first iteration (only with --by-iteration)
  bool condition = false;                  // if, loop or switch: taken_lanes means something
  bool barrier = false;                    // block_executions and partial_... mean something
  sim::ir::StatementCounts counts;
  /// active lanes / (warp evaluations x warp size), in [0, 1]; 0 when never evaluated.
  double simd_efficiency = 0.0;
  std::string text;  // the statement's first source line, trimmed, or the model's description
  /// Memory figures (whole-kernel rows of a count that has them; analysis/memory_report.hpp).
  std::optional<MemoryFigures> memory;
  /// For a statement of an inlined __device__ function: where the function was called,
  /// "FILE:LINE:COL", innermost call first, then the calls around it ("a.cu:9:13 < a.cu:20:5");
  /// "" outside inlined functions. A function called from two places has a row for each call.
  std::string inlined_at;
  /// Rows summed over call sites (SourceReport::summed): how many rows were summed (1 for a
  /// statement outside inlined functions or called from one place).
  std::uint32_t call_sites = 1;
  /// False when some figure of the launch is not counted (SourceReport::incomplete says which):
  /// the CSV's per-launch `complete` column.
  bool launch_complete = true;
};

/// A barrier some block reaches only in part (undefined behaviour).
struct PartialBarrier {
  std::string where;  // "FILE:LINE:COL"
  std::uint32_t line = 0;
  sim::Count block_executions = 0;
  sim::Count partial_block_executions = 0;
  /// Blocks with at least one partial execution.
  std::optional<sim::Count> blocks_with_partial;
};

/// A line of the annotated listing.
struct ListingLine {
  std::string label;  // the line number; "FILE:LINE" for a line of another file
  std::string text;   // the source line (or, without source text, the statement's description)
  /// Index into SourceReport::summed of the statement the line shows: the one that starts first
  /// on it (a condition or barrier before a plain statement at the same column), summed over the
  /// calls of its function; none for a line without statements. With by_iteration its
  /// per-iteration rows follow it in `summed`.
  std::optional<std::size_t> row;
  /// The memory figures of every statement that starts on the line, summed (`if (c) a[i] = x;`
  /// is two); none for a line without statements, or where memory was not counted.
  std::optional<MemoryFigures> memory;
  /// Indices into SourceReport::memory.accesses of the accesses of those statements that are
  /// not counted (AccessRow::not_counted says why).
  std::vector<std::size_t> accesses_not_counted;
};

/// A class of iterations of an accelerated loop in one block class (sim::ir::IterationClass):
/// rows for the statements inside the loop (at any depth), in the order of SourceReport::rows.
/// Barrier rows carry no block executions (those are per block: see the class's own rows).
struct IterationSection {
  sim::ir::StmtId loop = sim::ir::kNone;
  std::uint32_t line = 0;   // the loop's line
  std::string kind;         // "for", "while"
  std::string variable;     // "p"
  std::string definition;   // "p = 6 (last)"
  std::uint64_t first = 0;  // 1-based, as SourceRow::iteration
  std::uint64_t iterations = 0;
  bool exit = false;  // only the loop's last check (no lane stays)
  bool merged = false;
  std::vector<SourceRow> rows;
  std::vector<SourceRow> summed;  // rows summed over call sites (SourceReport::summed)
};

/// A block class the class engine found, with its own per-statement rows (whole-kernel rows in
/// the order of SourceReport::rows; with by_iteration, per-iteration rows follow theirs), and the
/// iteration classes of its accelerated loops (by loop in source order, then by iteration).
struct ClassSection {
  std::string name;        // "class 1"
  std::string definition;  // "blockIdx.x = 6 (last), blockIdx.y < 6" ("all blocks")
  sim::Count blocks = 0;
  sim::ir::Dim3 representative;
  std::vector<SourceRow> rows;
  std::vector<SourceRow> summed;  // rows summed over call sites (SourceReport::summed)
  std::vector<IterationSection> iterations;
};

struct SourceReport {
  std::string kernel;
  std::string file;
  std::string launch;     // "grid (7, 7, 1), block (16, 16, 1), warp size 32"
  std::string arguments;  // "Width = 100" ("" without scalar parameters)
  std::string scope;      // "" (all blocks), "block (0, 0, 0)", "warp 1 of block (0, 0, 0)" ...
  sim::Count blocks = 0;
  sim::Count warps = 0;
  bool by_iteration = false;
  int warp_size = 32;
  /// Whole-kernel rows (iteration empty) in source order; with by_iteration, each statement inside
  /// a loop is followed by its per-iteration rows. A statement of a __device__ function inlined at
  /// several calls has a row per call (SourceRow::inlined_at).
  std::vector<SourceRow> rows;
  /// `rows` with the rows of one source statement summed over the calls of its function (one row
  /// per source statement, inlined_at empty, call_sites the number summed), in the same order:
  /// what the listing, the text and the HTML show.
  std::vector<SourceRow> summed;
  /// With by_call_site, the text listing shows each call's figures under a line summed over
  /// several calls.
  bool by_call_site = false;
  /// Why the report's figures are not all counted, one line each ("3 of 7 memory accesses not
  /// counted"); empty when every figure of the launch is counted. Derived figures (arithmetic
  /// intensity, the roofline bound) are withheld when it is not empty.
  std::vector<std::string> incomplete;
  /// The kernel's source lines, from its signature to its closing brace (empty when the model
  /// carries no source text), each with the statement it shows, if any.
  std::vector<ListingLine> listing;
  /// Lines with statements outside those (inlined __device__ functions, headers; every statement's
  /// line when the model has no source text), in file and line order.
  std::vector<ListingLine> elsewhere;
  std::vector<SourceRow> barriers;  // the barrier rows (whole kernel), in source order
  std::vector<PartialBarrier> partial_barriers;
  /// The block classes, when the class engine counted (empty from the replay).
  std::vector<ClassSection> classes;
  /// Loads, stores, traffic and flops of the launch.
  MemorySection memory;
  /// Figures counted for the replay's order only (sim::ir::order_dependence), one line each.
  std::vector<std::string> order_dependent;
};

struct SourceReportOptions {
  bool by_iteration = false;
  bool by_call_site = false;
  /// Why the count has no memory figures, when it has none (the engine's note).
  std::string memory_not_counted;
  std::optional<sim::ir::Dim3> only_block;
  std::optional<std::uint32_t> only_warp;
  /// Ctrl-C's flag: once it is set, make_source_report stops (Interrupted) between rows.
  const std::atomic<bool>* stop = nullptr;
};

/// The spaces with a column (global, shared) in which some access of a listing line is not
/// counted; constant and local memory, which have no column, mark none (the report lists them).
struct LineGaps {
  bool global = false, shared = false;
};
LineGaps line_gaps(const SourceReport& report, const ListingLine& line);
/// A line's cell for `column` as the text and the HTML show it: the figure (`figure`, already
/// formatted; "" where the line has none), "?" where the line has none but some of the space's
/// accesses are not counted, the figure and "?" ("2?") where it leaves some out, "-" for none.
std::string line_cell(const LineColumn& column, const LineGaps& gaps, const std::string& figure);
/// The legend of "?" under a listing that shows one (two lines; the HTML joins them).
extern const char* const kLineGapLegend;

/// True when `a` and `b` count the same source statement (file, line, column, kind) in the same
/// iteration, wherever its function was inlined: the rows SourceReport::summed adds up.
bool same_statement(const SourceRow& a, const SourceRow& b);

/// A statement of the model that is part of another source statement, whose row counts it: its
/// memory figures are that row's, its evaluations (the same warps and lanes) are not added.
struct StatementPart {
  sim::ir::StmtId whole = sim::ir::kNone;  // the statement whose row counts it; kNone: a row of its own
  bool argument = false;                   // an argument bound to a parameter: counted in the caller
};

/// Per statement of `kernel`, the statement it is part of:
/// - an argument of a call to a __device__ function, which the front-end lowers as a statement at
///   the argument inside the call's body (a statement there within the call's source range): the
///   call's ("a call's arguments are part of the call's statement"); in an argument that is
///   itself a call, the outermost call's;
/// - the Work statement the front-end puts just before a statement that holds no memory accesses
///   (a call) to hold that statement's (the same source range, next in its block): that one's.
/// The reports and `warpdiv check` give such a statement no row of its own.
std::vector<StatementPart> statement_parts(const sim::ir::Kernel& kernel);

/// Builds the rows from a replay of `kernel` at `launch` (made with the same by_iteration,
/// only_block and only_warp). Block statements (braces) get no row: their children do. Nor do
/// the parts of statements (statement_parts): the whole's row carries their memory figures.
/// Throws Interrupted once options.stop is set (checked at every row: millions by iteration).
SourceReport make_source_report(const sim::ir::Kernel& kernel, const sim::ir::Launch& launch,
                                const sim::ir::ReplayResult& result, const SourceReportOptions& options);

/// Adds the classes of a class-engine count (made with the same options) to the report: their
/// sizes, definitions and per-statement rows.
void add_block_classes(SourceReport& report, const sim::ir::Kernel& kernel, const sim::ir::Launch& launch,
                       const std::vector<sim::ir::BlockClass>& classes, const SourceReportOptions& options);

/// The annotated listing: each source line of the kernel with the figures of the statement that
/// starts it (warp evaluations, divergent evaluations for conditions, SIMD efficiency), then the
/// barrier findings.
void write_source_text(std::ostream& out, const SourceReport& report);

/// The CSV's header: file,line,column,kind,iteration,warp_evaluations,divergent,active_lanes,
/// taken_lanes,block_executions,partial_block_executions (the first columns, in this order), then
/// the memory columns global_requests,global_sectors,global_bytes,shared_requests,
/// shared_wavefronts,shared_bank_conflicts,flops (empty where not counted: a row by iteration or
/// by iteration class, a row by class whose figures came from a replay rather than the class
/// engine, or a count without memory figures; the global and shared ones also for a statement
/// without such an access), then simd_efficiency and statement. Header and rows come from one
/// column list.
std::string source_csv_header();
/// The CSV's column list, for CSVs that add columns to it (the class CSV, the source sweep's).
const CsvColumns<SourceRow>& source_csv_columns();

/// The header, then one row per SourceRow: iteration empty without --by-iteration, taken_lanes
/// empty for non-conditions, the two block columns empty for non-barriers.
void write_source_csv(std::ostream& out, const SourceReport& report);

/// --by-class: source_csv_header()'s columns, then class,class_blocks,class_definition,
/// representative,loop_line,first_iteration,iterations,iteration_class; per class (in the
/// engine's order) one row per statement (the last four empty), then per iteration class of each
/// accelerated loop one row per statement inside the loop: the loop's line, the class's first
/// iteration (1-based), its number of iterations and its definition ("p = 6 (last)"); the
/// barrier columns are empty there.
std::string source_class_csv_header();
void write_source_class_csv(std::ostream& out, const SourceReport& report);

}  // namespace warpdiv::analysis
