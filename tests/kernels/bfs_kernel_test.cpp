// The BFS level step (kernels/zoo/data/bfs_step.cu): by hand on a six-node graph, and on the
// sample graph (data/samples/spmv's CSR, levels of data/samples/bfs) against a second
// implementation written here: per warp, the frontier test, the edge loop's tests and the
// neighbour test counted from the arrays, and next_level against the BFS levels one deeper.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/npy.hpp"
#include "kernels/frontend/frontend.hpp"
#include "sim/support/count.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/model_text.hpp"

namespace warpdiv::sim::ir {
namespace {

const std::string kRoot = WARPDIV_SOURCE_DIR;

Kernel bfs_kernel() {
  frontend::FrontendOptions o;
  o.file = kRoot + "/kernels/zoo/data/bfs_step.cu";
  return frontend::load_kernel(o);
}

std::shared_ptr<const std::string> bytes_of(const std::vector<std::int32_t>& v) {
  std::string s(v.size() * 4, '\0');
  std::memcpy(s.data(), v.data(), s.size());  // little-endian host, as the GPU
  return std::make_shared<const std::string>(std::move(s));
}

std::vector<std::int32_t> npy_ints(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const analysis::NpyArray a = analysis::parse_npy(text.str(), path);
  std::vector<std::int32_t> v(a.count);
  std::memcpy(v.data(), a.data.data(), v.size() * 4);
  return v;
}

struct Graph {
  std::vector<std::int32_t> row_ptr, col_idx;
  int nodes() const { return static_cast<int>(row_ptr.size()) - 1; }
};

// Parameters: num_nodes, row_ptr, col_idx, level, depth, next_level.
Launch launch_of(const Kernel& k, const Graph& g, const std::vector<std::int32_t>& level, int depth,
                 std::uint32_t block) {
  Launch l;
  l.block = Dim3{block, 1, 1};
  l.grid = Dim3{static_cast<std::uint32_t>((g.nodes() + block - 1) / block), 1, 1};
  l.arguments.assign(k.parameters.size(), Value{});
  l.arguments[0] = Value::of(ScalarType::I32, g.nodes());
  l.arguments[4] = Value::of(ScalarType::I32, depth);
  l.buffer_bytes.assign(k.parameters.size(), 0);
  l.buffer_data.assign(k.parameters.size(), nullptr);
  const std::vector<std::int32_t>* arrays[] = {nullptr, &g.row_ptr, &g.col_idx, &level};
  for (int p = 1; p <= 3; ++p) {
    l.buffer_data[p] = bytes_of(*arrays[p]);
    l.buffer_bytes[p] = l.buffer_data[p]->size();
  }
  l.buffer_bytes[5] = static_cast<std::uint64_t>(g.nodes()) * 4;  // next_level: zeros
  return l;
}

constexpr std::uint32_t kFrontier = 18, kEdges = 19, kNeighbour = 21;

// Six nodes: 0 -> 1, 2; 1 -> 3; 2 -> 3, 4; 3 -> 5; 4 -> (none); 5 -> 0. Levels known to depth 1:
// 0 at 0, 1 and 2 at 1. One warp of 6 lanes: the frontier test holds in lanes 1 and 2
// (divergent). Lane 1 scans one edge, lane 2 two: the edge loop's test runs 3 times (both in,
// then lane 1 leaves: divergent, then lane 2 leaves), its body twice (lanes 1 and 2, then lane
// 2). The neighbour test: 3 and 3 unreached, then 4: true every time. next_level: 3 and 4 get
// 2 (3 from two lanes, the same value), the others stay 0.
TEST(BfsStep, SixNodesByHand) {
  const Kernel k = bfs_kernel();
  const Graph g{{0, 2, 3, 5, 6, 6, 7}, {1, 2, 3, 3, 4, 5, 0}};
  ReplayOptions o;
  o.capture_stores = true;
  const ReplayResult r = replay(k, launch_of(k, g, {0, 1, 1, -1, -1, -1}, 1, 32), o);
  const StatementCounts& frontier = r.statements[testing::statement_at(k, kFrontier, StmtKind::If)];
  EXPECT_EQ(to_decimal(frontier.warp_evaluations), "1");
  EXPECT_EQ(to_decimal(frontier.divergent), "1");
  EXPECT_EQ(to_decimal(frontier.taken_lanes), "2");
  const StatementCounts& edges = r.statements[testing::statement_at(k, kEdges, StmtKind::Loop)];
  EXPECT_EQ(to_decimal(edges.warp_evaluations), "3");
  EXPECT_EQ(to_decimal(edges.divergent), "1");
  EXPECT_EQ(to_decimal(edges.taken_lanes), "3");
  const StatementCounts& neighbour = r.statements[testing::statement_at(k, kNeighbour, StmtKind::If)];
  EXPECT_EQ(to_decimal(neighbour.warp_evaluations), "2");
  EXPECT_EQ(to_decimal(neighbour.divergent), "0");
  EXPECT_EQ(to_decimal(neighbour.taken_lanes), "3");
  std::vector<std::int32_t> next(6);
  ASSERT_EQ(r.stored[5].bytes.size(), 20u);  // up to node 4's element
  std::memcpy(next.data(), r.stored[5].bytes.data(), 20);
  EXPECT_EQ(next, (std::vector<std::int32_t>{0, 0, 0, 2, 2, 0}));
  EXPECT_EQ(r.stored[5].state[12], StoredBuffer::kWritten);  // written twice, the same value
}

TEST(BfsStep, SampleGraphAgreesWithLoopsOverTheArrays) {
  const Kernel k = bfs_kernel();
  const std::string dir = kRoot + "/data/samples/";
  const Graph g{npy_ints(dir + "spmv/row_ptr.npy"), npy_ints(dir + "spmv/col_idx.npy")};
  const std::vector<std::int32_t> full = npy_ints(dir + "bfs/level5.npy");
  for (int depth = 0; depth <= 4; ++depth) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    const std::vector<std::int32_t> level = npy_ints(dir + "bfs/level" + std::to_string(depth) + ".npy");
    for (std::uint32_t block : {32u, 100u, 256u}) {
      ReplayOptions o;
      o.capture_stores = true;
      const ReplayResult r = replay(k, launch_of(k, g, level, depth, block), o);
      // The second implementation, warp by warp.
      std::uint64_t frontier_evals = 0, frontier_divergent = 0, edge_evals = 0, edge_divergent = 0,
                    neighbour_evals = 0;
      const int n = g.nodes();
      const int b = static_cast<int>(block);
      for (int first = 0; first < (n + b - 1) / b * b;
           first = (first % b + 32 >= b) ? first / b * b + b : first + 32) {
        const int end = std::min(first + 32, first / b * b + b);
        std::vector<int> degrees;  // of the frontier lanes
        int lanes = 0;
        for (int u = first; u < end; ++u) {
          ++lanes;
          if (u < n && level[u] == depth) degrees.push_back(g.row_ptr[u + 1] - g.row_ptr[u]);
        }
        if (lanes == 0) continue;
        ++frontier_evals;
        if (!degrees.empty() && static_cast<int>(degrees.size()) < lanes) ++frontier_divergent;
        if (degrees.empty()) continue;
        const int most = *std::max_element(degrees.begin(), degrees.end());
        edge_evals += static_cast<std::uint64_t>(most) + 1;
        neighbour_evals += static_cast<std::uint64_t>(most);
        for (int t = 0; t < most; ++t) {  // test t + 1 splits when some lane leaves there
          const bool leaves = std::any_of(degrees.begin(), degrees.end(), [&](int d) { return d == t + 1; });
          const bool stays = std::any_of(degrees.begin(), degrees.end(), [&](int d) { return d > t + 1; });
          if (leaves && stays) ++edge_divergent;
        }
        const bool first_leaves = std::any_of(degrees.begin(), degrees.end(), [](int d) { return d == 0; });
        if (first_leaves && most > 0) ++edge_divergent;
      }
      EXPECT_EQ(to_decimal(r.statements[testing::statement_at(k, kFrontier, StmtKind::If)].warp_evaluations),
                std::to_string(frontier_evals));
      EXPECT_EQ(to_decimal(r.statements[testing::statement_at(k, kFrontier, StmtKind::If)].divergent),
                std::to_string(frontier_divergent));
      EXPECT_EQ(to_decimal(r.statements[testing::statement_at(k, kEdges, StmtKind::Loop)].warp_evaluations),
                std::to_string(edge_evals));
      EXPECT_EQ(to_decimal(r.statements[testing::statement_at(k, kEdges, StmtKind::Loop)].divergent),
                std::to_string(edge_divergent));
      EXPECT_EQ(to_decimal(r.statements[testing::statement_at(k, kNeighbour, StmtKind::If)].warp_evaluations),
                std::to_string(neighbour_evals));
      // next_level: depth + 1 exactly where the BFS put the nodes one level deeper.
      int wrong = 0, marked = 0;
      for (int v = 0; v < n; ++v) {
        std::int32_t got = 0;
        if (static_cast<std::size_t>(4 * v + 4) <= r.stored[5].bytes.size())
          std::memcpy(&got, r.stored[5].bytes.data() + 4 * v, 4);
        const std::int32_t expected = full[v] == depth + 1 ? depth + 1 : 0;
        if (got != expected) ++wrong;
        if (expected != 0) ++marked;
      }
      EXPECT_EQ(wrong, 0);
      if (depth < 4) {
        EXPECT_GT(marked, 0);
      }
    }
  }
}

}  // namespace
}  // namespace warpdiv::sim::ir
