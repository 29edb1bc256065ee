// The HTML page of `warpdiv analyze FILE.cu --html`: the annotated source (each line shaded by
// its divergence and SIMD efficiency; with memory figures, per line the sector efficiency and the
// bank conflicts before the source, the efficiency cell shaded blue where it is below 100% (from
// 50%, from 25%, below: classes mg1-3), the conflicts cell reddish purple by conflicts per request
// (up to 1, up to 3, more: ms1-3), and after the source the global requests, sectors and bytes
// asked, shared requests and wavefronts, and flops), the block classes on the grid, and, per
// class, a warp x iteration map of each branch. Self-contained (inline CSS and SVG, no script) and bounded in
// size whatever the launch: the grid is drawn by class intervals, the maps are capped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/source_report.hpp"
#include "sim/model/ir.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::analysis {

/// A half-open range [begin, end) of block indices in one grid dimension.
struct IndexInterval {
  std::uint32_t begin = 0, end = 1;
};

/// A set of blocks whose warps behave alike: a box of intervals of blockIdx.x, .y, .z.
struct BlockClassView {
  std::string name;        // "class 1"
  std::string definition;  // "blockIdx.x = 6 (last), blockIdx.y < 6"
  IndexInterval x, y, z;
  sim::Count blocks = 0;
  sim::ir::Dim3 representative;  // a block of the class, replayed for its maps
};

/// Per warp (rows) and iteration of the branch's innermost loop (columns; one column outside
/// loops): what the warp's active lanes did there.
enum class WarpCell : std::uint8_t { NotReached, AllTrue, AllFalse, Divergent, Mixed };
struct WarpIterationMap {
  sim::ir::StmtId statement = sim::ir::kNone;
  std::string label;                                 // "line 7: if (i < n)"
  std::uint32_t warps = 0, iterations = 0;           // shown
  bool more_warps = false, more_iterations = false;  // capped
  std::vector<WarpCell> cells;                       // warps x iterations, row-major
  /// When the columns are iteration classes of a loop (class_iteration_maps): each column's
  /// definition ("p < 6", "p = 6 (last)"), one per column; empty: column k is iteration k + 1.
  std::vector<std::string> columns;
};

/// The class grid of a 3-D launch draws one x-y panel per segment of blockIdx.z, at most this many.
constexpr std::size_t kMaxGridPanels = 16;
/// Maps show at most this many warps and iterations, and at most this many classes get maps.
constexpr std::uint32_t kMaxMapWarps = 64;
constexpr std::uint32_t kMaxMapIterations = 64;
constexpr std::size_t kMaxMapClasses = 8;
/// A map's replay of one warp stops past this many warp-statement evaluations (milliseconds);
/// the block then gets no maps, and a note.
constexpr std::uint64_t kMaxMapEvaluationsPerWarp = 1'000'000;

/// The maps of every branch (if, loop, switch) of `kernel` in block `block`: one replay per warp
/// shown, with by_iteration. None when a warp's replay runs past kMaxMapEvaluationsPerWarp (or
/// a loop past by_iteration's limit); `note` then says so.
std::vector<WarpIterationMap> warp_iteration_maps(const sim::ir::Kernel& kernel,
                                                  const sim::ir::Launch& launch, const sim::ir::Dim3& block,
                                                  std::string* note);

/// The maps of a block class the class engine found (from its run alone, at any size): a branch
/// inside accelerated loops gets one map per such loop, its columns the loop's iteration classes
/// (BlockClass::iteration_classes: in one iteration of each class, what each warp did); a branch
/// outside loops one column (BlockClass::outcomes); a branch in other loops the per-iteration
/// map of warp_iteration_maps() (a replay of the representative), or, when that replay is too
/// big, one column over all its iterations (`note` then says so).
std::vector<WarpIterationMap> class_iteration_maps(const sim::ir::Kernel& kernel,
                                                   const sim::ir::Launch& launch,
                                                   const sim::ir::BlockClass& block_class, std::string* note);

struct SourceHtmlPage {
  /// The classes the engine found; empty when it did not find them (the replay fallback).
  std::vector<BlockClassView> classes;
  std::string engine_note;  // one line on how the counts were made
  /// One line on how the memory figures were made ("" when the engine that counted made them).
  std::string memory_note;
  /// Per class (or, without classes, per representative block), its maps.
  struct Maps {
    std::string title;  // "class 1: blockIdx.x = 6 (last) (6 blocks), block (6, 0, 0)"
    std::vector<WarpIterationMap> maps;
    std::string note;  // why there are none
  };
  std::vector<Maps> maps;
  /// The launch's totals as the text report words them (memory, arithmetic intensity, the
  /// roofline bound, and with --gpu the occupancy): shown preformatted; "" for none.
  std::string launch_summary;
};

/// The whole page, "<!DOCTYPE html>" to "</html>".
std::string render_source_html(const SourceReport& report, const SourceHtmlPage& page);

}  // namespace warpdiv::analysis
