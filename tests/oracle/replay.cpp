#include "tests/oracle/replay.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <thread>
#include <vector>

#include "tests/oracle/lane_masks.hpp"
#include "analysis/lecture/conditions.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::sim {

namespace {

// Each extra thread must get at least this many warp-phases (about 0.25 ms of work at 1e9 per
// second): starting a thread costs tens of microseconds, so smaller launches stay on one.
constexpr Count kWarpPhasesPerExtraThread = 1u << 18;

constexpr int kDisjointClasses = 4;  // interior, right_edge, bottom_edge, corner

// Counts of one worker over its block-rows. 64 bits suffice: the whole launch is at most
// kReplayHardLimit warp-phases per condition. Cache-line aligned so that two workers never write
// to the same line.
struct alignas(64) Partial {
  std::array<std::uint64_t, kDisjointClasses> blocks{};
  std::array<std::uint64_t, kDisjointClasses> warps{};
  // [condition][class]: warp-phases visited and divergent ones.
  std::array<std::array<std::uint64_t, kDisjointClasses>, kConditionCount> warp_phases{};
  std::array<std::array<std::uint64_t, kDisjointClasses>, kConditionCount> divergent{};
  std::uint64_t barrier_hazard_blocks = 0;
};

// The lane table rearranged so that one bound's masks of all warps are contiguous:
// tx_below[a][w] and ty_below[b][w]; the inner loop then walks warps with unit stride.
struct BoundMasks {
  int warps = 0;
  std::vector<LaneMask> existing;
  std::vector<LaneMask> tx_below;  // (T + 1) rows of `warps` masks
  std::vector<LaneMask> ty_below;

  BoundMasks(const WarpLaneTable& table, int tile) : warps(table.warps()) {
    existing.resize(warps);
    tx_below.resize(static_cast<std::size_t>(tile + 1) * warps);
    ty_below.resize(static_cast<std::size_t>(tile + 1) * warps);
    for (int w = 0; w < warps; ++w) {
      existing[w] = table.existing(w);
      for (int a = 0; a <= tile; ++a) {
        tx_below[static_cast<std::size_t>(a) * warps + w] = table.tx_below(w, a);
        ty_below[static_cast<std::size_t>(a) * warps + w] = table.ty_below(w, a);
      }
    }
  }
  const LaneMask* tx(int a) const { return tx_below.data() + static_cast<std::size_t>(a) * warps; }
  const LaneMask* ty(int b) const { return ty_below.data() + static_cast<std::size_t>(b) * warps; }
};

// The phase loop of one block: every phase, every warp, the three phase-loop checks. This is the
// hot loop: one warp's lanes are one mask, a check is an AND and two compares, and the warps of a
// phase are contiguous. Compiled twice (AVX2 and the baseline) and picked at load time, so the
// binary stays portable.
struct BlockDivergence {
  std::uint64_t warp_phases = 0;  // visited, per check
  std::uint64_t load_m = 0, load_n = 0, compute = 0;
};

__attribute__((target_clones("avx2", "default"))) BlockDivergence divergent_in_block(
    const BoundMasks& masks, std::int64_t phases, std::int64_t inner, int tile, const LaneMask* rows_in,
    const LaneMask* cols_in) {
  const int warps = masks.warps;
  const LaneMask* existing = masks.existing.data();
  BlockDivergence d;
  for (std::int64_t p = 0; p < phases; ++p) {
    const int inner_in = lanes_below(inner, p * tile, tile);  // t passing p*T + t < K
    const LaneMask* inner_tx = masks.tx(inner_in);
    const LaneMask* inner_ty = masks.ty(inner_in);
    for (int w = 0; w < warps; ++w) {
      const LaneMask all = existing[w];
      const LaneMask m = inner_tx[w] & rows_in[w];  // load_M: p*T + tx < K && Row < J
      const LaneMask n = inner_ty[w] & cols_in[w];  // load_N: p*T + ty < K && Col < L
      const LaneMask c = cols_in[w] & rows_in[w];   // compute: Row < J && Col < L
      d.load_m += static_cast<std::uint64_t>((m != 0) & (m != all));
      d.load_n += static_cast<std::uint64_t>((n != 0) & (n != all));
      d.compute += static_cast<std::uint64_t>((c != 0) & (c != all));
    }
    d.warp_phases += static_cast<std::uint64_t>(warps);
  }
  return d;
}

// Replays block-rows [row_begin, row_end) of the grid into `out`.
void replay_rows(const Geometry& g, const BoundMasks& masks, std::int64_t row_begin, std::int64_t row_end,
                 Partial& out) {
  const LaunchConfig& c = g.config;
  const int T = c.tile;
  const int warps = masks.warps;
  const auto load_m = static_cast<int>(Condition::load_M);
  const auto load_n = static_cast<int>(Condition::load_N);
  const auto compute = static_cast<int>(Condition::compute);
  const auto store = static_cast<int>(Condition::store);
  for (std::int64_t by = row_begin; by < row_end; ++by) {
    const int rows_in = lanes_below(c.rows, by * T, T);  // ty passing Row < J
    const LaneMask* row_masks = masks.ty(rows_in);
    for (std::int64_t bx = 0; bx < g.grid_x; ++bx) {
      const int k = static_cast<int>(classify_block(g, bx, by));
      const int cols_in = lanes_below(c.cols, bx * T, T);  // tx passing Col < L
      const LaneMask* col_masks = masks.tx(cols_in);
      out.blocks[k] += 1;
      out.warps[k] += static_cast<std::uint64_t>(warps);

      // store: evaluated once per warp, after the tile loop.
      bool barrier_hazard = false;
      for (int w = 0; w < warps; ++w) {
        const LaneMask passing = col_masks[w] & row_masks[w];
        out.warp_phases[store][k] += 1;
        out.divergent[store][k] += is_divergent(passing, masks.existing[w]) ? 1 : 0;
        if (passing != masks.existing[w]) barrier_hazard = true;
      }
      if (barrier_hazard) out.barrier_hazard_blocks += 1;

      const BlockDivergence d = divergent_in_block(masks, g.phases, c.inner, T, row_masks, col_masks);
      for (int cond : {load_m, load_n, compute}) out.warp_phases[cond][k] += d.warp_phases;
      out.divergent[load_m][k] += d.load_m;
      out.divergent[load_n][k] += d.load_n;
      out.divergent[compute][k] += d.compute;
    }
  }
}

unsigned worker_count(const ReplayOptions& options, const Geometry& g, Count total) {
  unsigned wanted = options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
  wanted = std::max(1u, wanted);
  // Enough work for each thread, and at least one block-row each.
  const Count by_work = total / kWarpPhasesPerExtraThread + 1;
  if (by_work < wanted) wanted = static_cast<unsigned>(by_work);
  if (static_cast<Count>(g.grid_y) < wanted) wanted = static_cast<unsigned>(g.grid_y);
  return wanted;
}

}  // namespace

DivergenceResult replay(const LaunchConfig& config, const ReplayOptions& options) {
  const Geometry g(config);
  const Count total = g.warp_phases();
  const Count limit = std::min(options.max_warp_phases, kReplayHardLimit);
  if (total > limit) {
    throw InvalidInput(Diag::evaluation_budget, "the replay engine would visit " + to_decimal(total) +
                                                    " warp-phases, above its limit of " + to_decimal(limit) +
                                                    "; use smaller sizes or the exact engine");
  }
  const WarpLaneTable table(g);
  const BoundMasks masks(table, config.tile);

  // Contiguous bands of block-rows, one per worker; each worker fills its own Partial, so no
  // counter is shared, and the partials are summed once at the end.
  const unsigned workers = worker_count(options, g, total);
  std::vector<Partial> partials(workers);
  const auto band = [&](unsigned i) { return g.grid_y * i / workers; };
  if (workers == 1) {
    replay_rows(g, masks, 0, g.grid_y, partials[0]);
  } else {
    std::vector<std::thread> threads;
    threads.reserve(workers - 1);
    try {
      for (unsigned i = 1; i < workers; ++i)
        threads.emplace_back(replay_rows, std::cref(g), std::cref(masks), band(i), band(i + 1),
                             std::ref(partials[i]));
      replay_rows(g, masks, band(0), band(1), partials[0]);
    } catch (...) {
      for (std::thread& t : threads) t.join();
      throw;
    }
    for (std::thread& t : threads) t.join();
  }

  DivergenceResult result;
  result.config = config;
  for (const Partial& part : partials) {
    for (BlockClass block_class : kDisjointBlockClasses) {
      const int k = static_cast<int>(block_class);
      for (Condition c : kConditions) {
        const int i = static_cast<int>(c);
        ClassCounts& cell = result.at(c, block_class);
        cell.blocks = checked_add(cell.blocks, part.blocks[k]);
        cell.warps = checked_add(cell.warps, part.warps[k]);
        cell.warp_phases = checked_add(cell.warp_phases, part.warp_phases[i][k]);
        cell.divergent_warp_phases = checked_add(cell.divergent_warp_phases, part.divergent[i][k]);
      }
    }
    result.barrier_hazard_blocks = checked_add(result.barrier_hazard_blocks, part.barrier_hazard_blocks);
  }
  result.sum_all_classes();
  return result;
}

}  // namespace warpdiv::sim
