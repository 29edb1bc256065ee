// The CSV writer read back with the CSV parser library (libfccp), and the escape function.
#include <gtest/gtest.h>

#include <limits>  // libfccp's csv.h uses std::numeric_limits without including it
#include <libfccp/csv.h>

#include <sstream>
#include <string>
#include <vector>

#include "analysis/csv.hpp"
#include "analysis/lecture/divergence_report.hpp"
#include "analysis/lecture/lecture_source.hpp"

namespace warpdiv::analysis {
namespace {

TEST(Csv, EscapesPerRfc4180) {
  EXPECT_EQ(csv_escape("plain"), "plain");
  EXPECT_EQ(csv_escape("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_escape("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_escape("two\nlines"), "\"two\nlines\"");
}

// One record of a made-up CSV: a name with a comma, so that header and fields are escaped alike.
struct Pair {
  std::string name;
  int value;
};

TEST(CsvColumns, HeaderAndRowsFromOneList) {
  CsvColumns<Pair> columns = {{"name", [](const Pair& p) { return p.name; }}};
  columns.add("value, doubled", [](const Pair& p) { return std::to_string(2 * p.value); });
  EXPECT_EQ(columns.header(), "name,\"value, doubled\"");
  EXPECT_EQ(columns.names(), (std::vector<std::string>{"name", "value, doubled"}));
  std::ostringstream out;
  columns.write(out, std::vector<Pair>{{"a", 1}, {"b,c", 21}});
  EXPECT_EQ(out.str(), "name,\"value, doubled\"\na,2\n\"b,c\",42\n");
  // Columns of a part of a wider row, after that row's own.
  struct Wide {
    Pair pair;
    std::string extra;
  };
  CsvColumns<Wide> wide = {{"extra", [](const Wide& w) { return w.extra; }}};
  wide.add_all(columns, [](const Wide& w) -> const Pair& { return w.pair; });
  EXPECT_EQ(wide.header(), "extra,name,\"value, doubled\"");
  EXPECT_EQ(wide.fields(Wide{{"x", 4}, "e"}), (std::vector<std::string>{"e", "x", "8"}));
}

// Once a write has failed (a full disk; Ctrl-C's flag on an output), no more rows are formatted:
// nothing would reach the file.
TEST(CsvColumns, WritingStopsOnceTheStreamHasFailed) {
  int formatted = 0;
  CsvColumns<Pair> columns = {{"name", [&](const Pair& p) {
                                 ++formatted;
                                 return p.name;
                               }}};
  std::ostringstream out;
  columns.write(out, std::vector<Pair>{{"a", 1}, {"b", 2}});
  EXPECT_EQ(formatted, 2);
  out.setstate(std::ios::badbit);
  columns.write(out, std::vector<Pair>(1000, Pair{"c", 3}));
  EXPECT_EQ(formatted, 2);
}

TEST(DivergenceCsv, HeaderPinned) {
  std::ostringstream text;
  write_divergence_csv(text, analysis::lecture_counts(lecture::LaunchConfig::square(5)));
  EXPECT_EQ(text.str().substr(0, text.str().find('\n')),
            "condition,block_class,blocks,warps,warp_phases,divergent_warp_phases");
}

TEST(DivergenceCsv, ReadBackWithFccp) {
  const lecture::DivergenceResult result = analysis::lecture_counts(lecture::LaunchConfig::square(100));
  std::ostringstream text;
  write_divergence_csv(text, result);
  const std::string csv = text.str();
  std::istringstream stream(csv);
  io::CSVReader<6> reader("lecture.csv", stream);
  reader.read_header(io::ignore_no_column, "condition", "block_class", "blocks", "warps", "warp_phases",
                     "divergent_warp_phases");
  std::string condition, block_class;
  unsigned long long blocks, warps, phases, divergent;
  int rows = 0;
  const char* expected_conditions[] = {"load_M", "load_N", "compute", "store"};
  const char* expected_classes[] = {"interior", "right_edge", "bottom_edge", "corner", "all"};
  unsigned long long load_m_divergent = 0;
  while (reader.read_row(condition, block_class, blocks, warps, phases, divergent)) {
    EXPECT_EQ(condition, expected_conditions[rows / 5]);
    EXPECT_EQ(block_class, expected_classes[rows % 5]);
    if (condition == "load_M" && block_class != "all") load_m_divergent += divergent;
    if (block_class == "all") {
      EXPECT_EQ(blocks, 49u);
      EXPECT_EQ(warps, 392u);
      // The lecture: 2744 warp-phases per phase-loop check, 392 for the store (once per warp).
      EXPECT_EQ(phases, condition == "store" ? 392u : 2744u);
    }
    ++rows;
  }
  EXPECT_EQ(rows, 20);
  EXPECT_EQ(load_m_divergent, 336u + 14u);
}

TEST(DivergenceCsv, ClassesWithoutBlocksAreZeros) {
  // A single block is a corner; the other classes have no blocks.
  const lecture::DivergenceResult result = analysis::lecture_counts(lecture::LaunchConfig::square(5));
  std::ostringstream text;
  write_divergence_csv(text, result);
  EXPECT_NE(text.str().find("\nload_M,interior,0,0,0,0\n"), std::string::npos);
  EXPECT_NE(text.str().find("\nload_M,corner,1,8,8,"), std::string::npos);
}

TEST(Percent, TwoDecimals) {
  EXPECT_EQ(percent(350, 2744), "12.76%");
  EXPECT_EQ(percent(0, 0), "0.00%");
  EXPECT_EQ(percent(0, 5), "0.00%");
  EXPECT_EQ(percent(5, 5), "100.00%");
  // 1 in a million is 0.0001%, 999999 in a million 99.9999%: neither may read as none or all.
  EXPECT_EQ(percent(1, 1000000), "<0.01%");
  EXPECT_EQ(percent(999999, 1000000), ">99.99%");
  EXPECT_EQ(percent(1, 10000), "0.01%");
}

}  // namespace
}  // namespace warpdiv::analysis
