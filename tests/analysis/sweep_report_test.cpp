// Sweep rows and their CSV: hand-derived counts, the plan's order, and the CSV read back with
// libfccp.
#include <gtest/gtest.h>

#include <limits>  // libfccp's csv.h uses std::numeric_limits without including it
#include <libfccp/csv.h>

#include <sstream>
#include <string>
#include <vector>

#include "analysis/lecture/sweep_report.hpp"
#include "analysis/lecture/lecture_source.hpp"

namespace warpdiv::analysis {
namespace {

using lecture::Condition;

TEST(SweepRows, LectureLaunchGivesFourRowsOverAllBlocks) {
  // 100^3, T = 16: 49 blocks * 8 warps * 7 phases = 2744 warp-phases per phase-loop check, 350
  // divergent (the lecture, load_N its exercise); store once per warp: 50 of 392.
  const std::vector<SweepRow> rows = sweep_rows(analysis::lecture_counts(lecture::LaunchConfig::square(100)));
  ASSERT_EQ(rows.size(), 4u);
  const Condition order[] = {Condition::load_M, Condition::load_N, Condition::compute, Condition::store};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(rows[i].condition, order[i]);
    EXPECT_EQ(rows[i].rows, 100);
    EXPECT_EQ(rows[i].inner, 100);
    EXPECT_EQ(rows[i].cols, 100);
    EXPECT_EQ(rows[i].tile, 16);
    EXPECT_EQ(rows[i].warp_size, 32);
  }
  EXPECT_EQ(rows[0].warp_phases, 2744u);
  EXPECT_EQ(rows[0].divergent_warp_phases, 350u);
  EXPECT_EQ(rows[3].warp_phases, 392u);
  EXPECT_EQ(rows[3].divergent_warp_phases, 50u);
  EXPECT_DOUBLE_EQ(rows[0].fraction(), 350.0 / 2744.0);
}

TEST(SweepPlan, OrdersSizeThenInnerThenTile) {
  SweepPlan plan;
  plan.sizes = {10, 20};
  plan.inners = {5, 6, 7};
  plan.tiles = {4, 8};
  plan.warp_size = 16;
  ASSERT_EQ(plan.launches(), 12u);
  EXPECT_EQ(plan.launch(0).rows, 10);
  EXPECT_EQ(plan.launch(0).inner, 5);
  EXPECT_EQ(plan.launch(0).tile, 4);
  EXPECT_EQ(plan.launch(1).tile, 8);
  EXPECT_EQ(plan.launch(2).inner, 6);
  const lecture::LaunchConfig last = plan.launch(11);
  EXPECT_EQ(last.rows, 20);
  EXPECT_EQ(last.cols, 20);
  EXPECT_EQ(last.inner, 7);
  EXPECT_EQ(last.tile, 8);
  EXPECT_EQ(last.warp_size, 16);
  // Without inner sizes the launches are square.
  plan.inners.clear();
  ASSERT_EQ(plan.launches(), 4u);
  EXPECT_EQ(plan.launch(3).inner, 20);
}

TEST(SweepCsv, ReadBackWithFccp) {
  SweepPlan plan;
  plan.sizes = {100, 4097};
  plan.tiles = {16, 32};
  std::vector<SweepRow> rows;  // the plan's launches in order, as `warpdiv sweep` writes them
  for (std::size_t i = 0; i < plan.launches(); ++i)
    for (const SweepRow& row : sweep_rows(analysis::lecture_counts(plan.launch(i)))) rows.push_back(row);
  ASSERT_EQ(rows.size(), 16u);
  std::ostringstream text;
  write_sweep_csv(text, rows);
  std::istringstream stream(text.str());
  io::CSVReader<9> reader("sweep.csv", stream);
  reader.read_header(io::ignore_no_column, "rows", "inner", "cols", "tile", "warp_size", "condition",
                     "warp_phases", "divergent_warp_phases", "fraction");
  long long j, k, l;
  int t, s;
  std::string condition;
  unsigned long long phases, divergent;
  double fraction;
  int read = 0;
  while (reader.read_row(j, k, l, t, s, condition, phases, divergent, fraction)) {
    EXPECT_EQ(j, plan.launch(static_cast<std::size_t>(read / 4)).rows);
    EXPECT_NEAR(fraction, static_cast<double>(divergent) / static_cast<double>(phases), 1e-9);
    if (j == 4097 && t == 32 && condition == "load_M") {
      // 4097 = 128 * 32 + 1: grid 129 x 129, 32 warps (one row each), 129 phases:
      // 129^2 * 32 * 129 = 68694048 warp-phases. The last phase (tx < 1) splits every warp whose
      // row is in range: 128 * 129 blocks * 32 warps + the bottom row's warp 0 in 129 blocks
      // = 528384 + 129 = 528513.
      EXPECT_EQ(phases, 68694048u);
      EXPECT_EQ(divergent, 528513u);
    }
    ++read;
  }
  EXPECT_EQ(read, 16);
}

TEST(SweepCsv, HeaderAndHugeCounts) {
  // The 2^31-1 cube with T = 32: 2^83 warp-phases (tests/oracle/exact_test.cpp derives every cell).
  std::ostringstream text;
  write_sweep_csv(text, sweep_rows(analysis::lecture_counts(lecture::LaunchConfig::square(2147483647, 32))));
  const std::string csv = text.str();
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "rows,inner,cols,tile,warp_size,condition,warp_phases,divergent_warp_phases,fraction");
  EXPECT_NE(csv.find("\n2147483647,2147483647,2147483647,32,32,load_M,9671406556917033397649408,"
                     "144115188008747008,"),
            std::string::npos)
      << csv;
}

}  // namespace
}  // namespace warpdiv::analysis
