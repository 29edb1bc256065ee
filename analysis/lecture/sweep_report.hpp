// A sweep over many launches: rows as plain data (one per launch and condition, over all blocks)
// plus the CSV writer. Renderers (text, HTML) consume the same std::vector<SweepRow>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <vector>

#include "analysis/lecture/conditions.hpp"
#include "sim/support/count.hpp"
#include "analysis/lecture/divergence.hpp"
#include "analysis/lecture/launch.hpp"

namespace warpdiv::analysis {

/// One condition of one launch, summed over every block (the `all` class).
struct SweepRow {
  std::int64_t rows = 0;   // J
  std::int64_t inner = 0;  // K
  std::int64_t cols = 0;   // L
  int tile = 0;            // T
  int warp_size = 0;       // S
  lecture::Condition condition = lecture::Condition::load_M;
  sim::Count warp_phases = 0;  // for `store`, each warp once
  sim::Count divergent_warp_phases = 0;

  /// divergent / warp-phases (0 when there are none).
  double fraction() const;
};
bool operator==(const SweepRow& a, const SweepRow& b);

/// The four rows of one launch, in the order load_M, load_N, compute, store.
std::vector<SweepRow> sweep_rows(const lecture::DivergenceResult& result);

/// What to sweep: J = L = each size ("square sizes"), K = the same size or, when `inners` is not
/// empty, each of them; every tile; one warp size. Launches are ordered size, inner, tile.
struct SweepPlan {
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> inners;  // empty: K = J = L
  std::vector<int> tiles;
  int warp_size = lecture::limits::kDefaultWarpSize;

  std::size_t launches() const;
  /// The launch at `index` (0 .. launches() - 1).
  lecture::LaunchConfig launch(std::size_t index) const;
};

/// The CSV header of `warpdiv sweep --csv`:
/// rows,inner,cols,tile,warp_size,condition,warp_phases,divergent_warp_phases,fraction
void write_sweep_csv_header(std::ostream& out);
/// One record; counts in decimal (128-bit), the fraction with 10 significant digits.
void write_sweep_csv_row(std::ostream& out, const SweepRow& row);
/// Header plus every row.
void write_sweep_csv(std::ostream& out, const std::vector<SweepRow>& rows);

}  // namespace warpdiv::analysis
