// The global requests split into loads, stores and atomics per source line (ncu's
// smsp__sass_inst_executed_op_global_ld, _st, _atom + _red), through the real binary, in the text
// report, the CSV and the HTML page, counted by the replay and by the class engine, and compared
// by --engine all. Kernel: tests/kernels/memory/request_split.cu.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/csv.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

const std::string kKernel = std::string(WARPDIV_SOURCE_DIR) + "/tests/kernels/memory/request_split.cu";

bool reads_sources() {
  static const bool reads = [] {
    const CliResult r = run_warpdiv({"analyze", kKernel, "--grid", "1", "--block", "32"});
    return !contains(r.err, "without the Clang front-end");
  }();
  return reads;
}

// The split of one source line: loads, stores, atomics.
struct Split {
  std::string load, store, atomic;
  bool operator==(const Split& o) const { return load == o.load && store == o.store && atomic == o.atomic; }
};
std::ostream& operator<<(std::ostream& os, const Split& s) {
  return os << "{" << s.load << ", " << s.store << ", " << s.atomic << "}";
}

// The CSV's split per "line:kind" (the statement rows; a line's if and the atomic inside it have a
// row each).
std::map<std::string, Split> csv_split(const std::string& text) {
  analysis::CsvTokenizer csv(text, "out.csv");
  const std::vector<std::string> header = csv.next().fields;
  std::map<std::string, std::size_t> at;
  for (std::size_t i = 0; i < header.size(); ++i) at[header[i]] = i;
  std::map<std::string, Split> split;
  while (!csv.at_end()) {
    const std::vector<std::string> f = csv.next().fields;
    split[f[at.at("line")] + ":" + f[at.at("kind")]] = {f[at.at("global_load_requests")],
                                                        f[at.at("global_store_requests")],
                                                        f[at.at("global_atomic_requests")]};
  }
  return split;
}

// The text report's memory line of source line `line`, as words.
std::vector<std::string> text_memory_line(const std::string& report, int line) {
  const std::size_t table = report.find(" line  global req");
  if (table == std::string::npos) return {};
  std::istringstream in(report.substr(table));
  std::string text;
  while (std::getline(in, text)) {
    std::istringstream words(text);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (!w.empty() && w[0] == std::to_string(line)) return w;
    if (w.empty()) break;
  }
  return {};
}

// Grid 1 x block 64: warps 0 and 1 each run every line once.
//   line 6  in[i]:            2 load requests (one per warp), 4 + 4 sectors of 128 bytes read
//   line 7  out[2*i]:         2 store requests, lanes 8 bytes apart: 8 + 8 sectors
//   line 8  atomicAdd(count): warp 0 (32 lanes) and warp 1 (lanes 32..39): 2 atomic requests,
//                             one address, its lanes taking turns: 32 + 8 = 40 sectors, 160
//                             bytes asked of 1,280 (12.5%)
//   line 9  in[i], out[2*i+1]: 2 loads (8 sectors) and 2 stores (16 sectors); 64 float adds
// The text's columns: line, global req, sectors, effic., ld req, st req, atom req, shared req,
// wavefronts, conflicts, flops.
const std::map<int, std::vector<std::string>> kText64 = {
    {6, {"6", "2", "8", "100.0%", "2", "0", "0", "-", "-", "-", "0"}},
    {7, {"7", "2", "16", "50.0%", "0", "2", "0", "-", "-", "-", "0"}},
    {8, {"8", "2", "40", "12.5%", "0", "0", "2", "-", "-", "-", "0"}},
    {9, {"9", "4", "24", "66.7%", "2", "2", "0", "-", "-", "-", "64"}},
};
const std::map<std::string, Split> kCsv64 = {
    {"5:statement", {"", "", ""}}, {"6:statement", {"2", "0", "0"}}, {"7:statement", {"0", "2", "0"}},
    {"8:if", {"", "", ""}},        {"8:statement", {"0", "0", "2"}}, {"9:statement", {"2", "2", "0"}},
};
// The HTML listing's cells after the costs: global req, sectors, bytes asked, ld req, st req,
// atom req, shared req, wavefronts, flops.
const std::map<int, std::string> kHtml64 = {
    {6, "<td>2</td><td>8</td><td>256</td><td>2</td><td>0</td><td>0</td><td>-</td><td>-</td><td>0</td>"},
    {7, "<td>2</td><td>16</td><td>256</td><td>0</td><td>2</td><td>0</td><td>-</td><td>-</td><td>0</td>"},
    {8, "<td>2</td><td>40</td><td>160</td><td>0</td><td>0</td><td>2</td><td>-</td><td>-</td><td>0</td>"},
    {9, "<td>4</td><td>24</td><td>512</td><td>2</td><td>2</td><td>0</td><td>-</td><td>-</td><td>64</td>"},
};

void expect_split_64(const std::string& engine) {
  TempDir dir;
  const CliResult r = run_warpdiv({"analyze", kKernel, "--grid", "1", "--block", "64", "--engine", engine,
                                   "--csv", dir.file("out.csv"), "--html", dir.file("out.html")});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const auto& [line, words] : kText64) {
    std::vector<std::string> shown = text_memory_line(r.out, line);
    if (shown.size() > words.size()) shown.resize(words.size());  // the source text follows
    EXPECT_EQ(shown, words) << engine << ", line " << line << "\n" << r.out;
  }
  EXPECT_TRUE(contains(r.out, "  global req  sectors  effic.  ld req  st req  atom req  shared req"))
      << r.out;
  EXPECT_EQ(csv_split(read_file(dir.file("out.csv"))), kCsv64) << engine;
  const std::string html = read_file(dir.file("out.html"));
  EXPECT_TRUE(contains(
      html, "<th>bytes asked</th><th>ld req</th><th>st req</th><th>atom req</th><th>shared req</th>"));
  for (const auto& [line, cells] : kHtml64) {
    // A statement's row: its shading's style, then the line number.
    const std::size_t at = html.find(")\"><td>" + std::to_string(line) + "</td>");
    ASSERT_NE(at, std::string::npos) << line;
    const std::size_t end = html.find("</tr>", at);
    EXPECT_TRUE(contains(html.substr(at, end - at), cells))
        << engine << ", line " << line << ": " << html.substr(at, end - at);
  }
}

TEST(RequestSplitCli, TheReplaySplitsACoalescedLoadAStridedStoreAndAnAtomic) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  expect_split_64("replay");
}

TEST(RequestSplitCli, TheClassEngineSplitsThemAlike) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  expect_split_64("exact");
}

// --engine all compares every engine's memory figures access by access (the split's source) and
// reports the replay's.
TEST(RequestSplitCli, EveryEngineAgrees) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  expect_split_64("all");
  const CliResult r = run_warpdiv({"analyze", kKernel, "--grid", "1", "--block", "64", "--engine", "all"});
  EXPECT_TRUE(contains(r.err, "engines agree")) << r.err;
}

// Grid 3 x block 128 (12 warps, 3 blocks the class engine counts by classes): every warp loads and
// stores on lines 6, 7 and 9 (12 requests each); only threads 0..39 (warp 0 whole, warp 1's
// first 8 lanes, in block 0) add to count: 2 atomic requests.
TEST(RequestSplitCli, TheClassEngineScalesTheSplitOverClassesOfBlocks) {
  if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  TempDir dir;
  const CliResult r = run_warpdiv(
      {"analyze", kKernel, "--grid", "3", "--block", "128", "--engine", "all", "--csv", dir.file("out.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "engines agree")) << r.err;
  const std::map<std::string, Split> expected = {
      {"5:statement", {"", "", ""}}, {"6:statement", {"12", "0", "0"}}, {"7:statement", {"0", "12", "0"}},
      {"8:if", {"", "", ""}},        {"8:statement", {"0", "0", "2"}},  {"9:statement", {"12", "12", "0"}},
  };
  EXPECT_EQ(csv_split(read_file(dir.file("out.csv"))), expected);
  const CliResult exact =
      run_warpdiv({"analyze", kKernel, "--grid", "3", "--block", "128", "--csv", dir.file("exact.csv")});
  ASSERT_EQ(exact.status, 0) << exact.err;
  EXPECT_EQ(csv_split(read_file(dir.file("exact.csv"))), expected);
}

}  // namespace
}  // namespace warpdiv::testing
