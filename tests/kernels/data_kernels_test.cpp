// The data-driven kernels of kernels/zoo/data/ on the samples of data/samples/ (made by
// tools/make-samples), replayed with their buffers' values (Launch::buffer_data, issue 22):
// CSR SpMV with one thread per row, whose loop runs from row_ptr[row] to row_ptr[row + 1].
//   - spmv_tiny by hand: one warp over 5 rows of 2, 0, 3, 1 and 4 nonzeros (worked out below);
//   - the 2,000-row sample against a second implementation: plain loops over blocks, warps and
//     lanes that read only the CSR arrays (never the kernel model or any code of sim/);
//   - row_ptr one element short: the last row's row_ptr[row + 1] is out of bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/npy.hpp"
#include "kernels/probe.hpp"
#include "kernels/probe_source.hpp"
#include "kernels/frontend/frontend.hpp"
#include "sim/count.hpp"
#include "sim/errors.hpp"
#include "sim/ir.hpp"
#include "sim/ir_replay.hpp"

namespace warpdiv::sim::ir {
namespace {

const std::string kRoot = WARPDIV_SOURCE_DIR;
const std::string kKernel = kRoot + "/kernels/zoo/data/spmv_csr_scalar.cu";

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// One .npy file: its bytes as the buffer's values, and its elements decoded here.
struct Array {
  std::shared_ptr<const std::string> bytes;
  std::uint64_t count = 0;
};

Array load_npy(const std::string& path, const std::string& descr) {
  const analysis::NpyArray a = analysis::parse_npy(read_all(path), path);
  EXPECT_EQ(a.descr, descr) << path;
  EXPECT_EQ(a.shape.size(), 1u) << path;
  EXPECT_EQ(a.data.size(), a.count * 4) << path;
  return Array{std::make_shared<const std::string>(a.data), a.count};
}

std::vector<std::int32_t> ints(const Array& a) {
  std::vector<std::int32_t> v(a.count);
  for (std::uint64_t i = 0; i < a.count; ++i) {  // little-endian, whatever the host
    const auto* b = reinterpret_cast<const unsigned char*>(a.bytes->data() + 4 * i);
    v[i] = static_cast<std::int32_t>(std::uint32_t{b[0]} | std::uint32_t{b[1]} << 8 |
                                     std::uint32_t{b[2]} << 16 | std::uint32_t{b[3]} << 24);
  }
  return v;
}

struct Csr {
  Array row_ptr, col_idx, values, x;
  std::int32_t rows() const { return static_cast<std::int32_t>(row_ptr.count) - 1; }
};

Csr load_csr(const std::string& sample) {
  const std::string dir = kRoot + "/data/samples/" + sample + "/";
  Csr m{load_npy(dir + "row_ptr.npy", "<i4"), load_npy(dir + "col_idx.npy", "<i4"),
        load_npy(dir + "values.npy", "<f4"), load_npy(dir + "x.npy", "<f4")};
  // A well-formed CSR matrix (else the figures below would not mean what they say).
  const std::vector<std::int32_t> rp = ints(m.row_ptr), ci = ints(m.col_idx);
  EXPECT_EQ(rp.front(), 0) << sample;
  EXPECT_TRUE(std::is_sorted(rp.begin(), rp.end())) << sample;
  EXPECT_EQ(static_cast<std::uint64_t>(rp.back()), m.col_idx.count) << sample;
  EXPECT_EQ(m.values.count, m.col_idx.count) << sample;
  for (const std::int32_t c : ci)
    EXPECT_TRUE(c >= 0 && static_cast<std::uint64_t>(c) < m.x.count) << sample << ": column " << c;
  return m;
}

Kernel load_kernel() {
  frontend::FrontendOptions o;
  o.file = kKernel;
  return frontend::load_kernel(o);
}

std::int32_t parameter(const Kernel& k, const std::string& name) {
  for (std::size_t i = 0; i < k.parameters.size(); ++i)
    if (k.parameters[i].name == name) return static_cast<std::int32_t>(i);
  ADD_FAILURE() << "no parameter " << name;
  return -1;
}

/// The launch over `m` with num_rows = `num_rows`, every buffer's size and row_ptr's and col_idx's
/// values (and values' and x's, which decide nothing); y: its size, no values.
Launch launch_of(const Kernel& k, const Csr& m, std::int32_t num_rows, std::uint32_t grid,
                 std::uint32_t block) {
  Launch l;
  l.grid = Dim3{grid, 1, 1};
  l.block = Dim3{block, 1, 1};
  for (const Parameter& p : k.parameters)
    l.arguments.push_back(p.scalar ? Value::of(p.type, p.name == "num_rows" ? num_rows : 0) : Value{});
  l.buffer_bytes.assign(k.parameters.size(), 0);
  l.buffer_data.assign(k.parameters.size(), nullptr);
  const auto give = [&](const std::string& name, const Array& a) {
    const std::int32_t p = parameter(k, name);
    l.buffer_bytes[static_cast<std::size_t>(p)] = a.bytes->size();
    l.buffer_data[static_cast<std::size_t>(p)] = a.bytes;
  };
  give("row_ptr", m.row_ptr);
  give("col_idx", m.col_idx);
  give("values", m.values);
  give("x", m.x);
  l.buffer_bytes[static_cast<std::size_t>(parameter(k, "y"))] = 4 * static_cast<std::uint64_t>(num_rows);
  return l;
}

/// The 1-based line of the kernel's source that contains `text` (the only one).
std::uint32_t line_of(const std::string& text) {
  std::istringstream in(read_all(kKernel));
  std::string line;
  std::uint32_t n = 0, found = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.find(text) != std::string::npos && line.find("//") != 0) {
      EXPECT_EQ(found, 0u) << "'" << text << "' on two lines";
      found = n;
    }
  }
  EXPECT_NE(found, 0u) << "no line with '" << text << "'";
  return found;
}

/// The statement of kind `kind` (any kind but Block when `any`) on the line with `text`.
StmtId stmt_at(const Kernel& k, const std::string& text, StmtKind kind, bool any = false) {
  const std::uint32_t line = line_of(text);
  StmtId found = kNone;
  for (std::size_t i = 0; i < k.stmts.size(); ++i) {
    const Stmt& s = k.stmts[i];
    if (s.range.file != 0 || s.range.line != line) continue;
    if (any ? s.kind == StmtKind::Block : s.kind != kind) continue;
    EXPECT_EQ(found, kNone) << "two statements on line " << line << " ('" << text << "')";
    found = static_cast<StmtId>(i);
  }
  EXPECT_NE(found, kNone) << "no " << (any ? "statement" : name(kind)) << " on line " << line;
  return found;
}

struct Figures {
  std::uint64_t warp_evaluations = 0, active_lanes = 0, taken_lanes = 0, divergent = 0;
};

Figures figures(const ReplayResult& r, StmtId s) {
  if (s == kNone) return {};
  const StatementCounts& c = r.statements.at(static_cast<std::size_t>(s));
  return Figures{static_cast<std::uint64_t>(c.warp_evaluations), static_cast<std::uint64_t>(c.active_lanes),
                 static_cast<std::uint64_t>(c.taken_lanes), static_cast<std::uint64_t>(c.divergent)};
}

void expect_same(const Figures& want, const Figures& got, const std::string& what) {
  EXPECT_EQ(got.warp_evaluations, want.warp_evaluations) << what << ": warp_evaluations";
  EXPECT_EQ(got.active_lanes, want.active_lanes) << what << ": active_lanes";
  EXPECT_EQ(got.taken_lanes, want.taken_lanes) << what << ": taken_lanes";
  EXPECT_EQ(got.divergent, want.divergent) << what << ": divergent";
}

/// The statements the tests look at.
struct Statements {
  StmtId guard, loop, body, store;
};

Statements statements_of(const Kernel& k) {
  return Statements{stmt_at(k, "if (row < num_rows)", StmtKind::If),
                    stmt_at(k, "for (int jj = row_start; jj < row_end; jj++)", StmtKind::Loop),
                    stmt_at(k, "dot += values[jj] * x[col_idx[jj]];", StmtKind::Work, true),
                    stmt_at(k, "y[row] = dot;", StmtKind::Work, true)};
}

void expect_no_faults(const ReplayResult& r) {
  for (std::size_t a = 0; a < r.access_faults.size(); ++a)
    EXPECT_EQ(r.access_faults[a], "") << "access " << a;
  for (std::size_t a = 0; a < r.access_out_of_bounds.size(); ++a)
    EXPECT_FALSE(r.access_out_of_bounds[a]) << "access " << a;
}

// spmv_tiny, grid 1, block 32: one warp. Lane t has row t; lanes 0..4 are rows 0..4 of lengths
// L = 2, 0, 3, 1, 4 (row_ptr = [0, 2, 2, 5, 6, 10]); lanes 5..31 fail row < num_rows.
//   if (row < num_rows): 1 warp evaluation, 32 lanes active, 5 taken, divergent (5 of 32): 1.
//   for's condition jj < row_end: lane r is in the loop at its k-th evaluation (k = 0, 1, ...)
//   while L[r] >= k, and stays in when L[r] > k. The warp evaluates it while >= 1 lane is in:
//     k  active (L >= k)              taken (L > k)              divergent
//     0  rows 0,1,2,3,4   = 5        rows 0,2,3,4 = 4           yes (4 of 5)
//     1  rows 0,2,3,4     = 4        rows 0,2,4   = 3           yes
//     2  rows 0,2,4       = 3        rows 2,4     = 2           yes
//     3  rows 2,4         = 2        row 4        = 1           yes
//     4  row 4            = 1        none         = 0           no (all agree: leave)
//   so 5 evaluations (max L + 1), active 5+4+3+2+1 = 15, taken 4+3+2+1+0 = 10, divergent 4.
//   dot += ...: runs in the lanes taken at k = 0..3 (k = 4 takes none): 4 warp evaluations,
//   active 4+3+2+1 = 10 lanes (the 10 nonzeros).
//   y[row] = dot: after the loop all 5 lanes reconverge: 1 evaluation, 5 lanes.
TEST(DataKernelsTest, SpmvTinyByHand) {
  const Kernel k = load_kernel();
  const Csr m = load_csr("spmv_tiny");
  ASSERT_EQ(ints(m.row_ptr), (std::vector<std::int32_t>{0, 2, 2, 5, 6, 10}));
  const Statements s = statements_of(k);
  const ReplayResult r = replay(k, launch_of(k, m, 5, 1, 32), ReplayOptions{});
  expect_same(Figures{1, 32, 5, 1}, figures(r, s.guard), "if (row < num_rows)");
  expect_same(Figures{5, 15, 10, 4}, figures(r, s.loop), "jj < row_end");
  EXPECT_EQ(figures(r, s.body).warp_evaluations, 4u);
  EXPECT_EQ(figures(r, s.body).active_lanes, 10u);
  EXPECT_EQ(figures(r, s.store).warp_evaluations, 1u);
  EXPECT_EQ(figures(r, s.store).active_lanes, 5u);
  EXPECT_EQ(static_cast<std::uint64_t>(r.warps), 1u);
  expect_no_faults(r);
}

/// The second implementation: per warp (32 consecutive threads of a block; the last one partial
/// when the block is not a multiple of 32), the lanes with row < num_rows and their row lengths
/// from row_ptr; the loop's condition is evaluated max length + 1 times, at evaluation k by the
/// lanes with length >= k, of which those with length > k stay in.
struct Oracle {
  Figures guard, loop, body, store;
};

Oracle oracle(const std::vector<std::int32_t>& row_ptr, std::int64_t num_rows, std::int64_t grid,
              std::int64_t block) {
  Oracle o;
  for (std::int64_t b = 0; b < grid; ++b)
    for (std::int64_t first = 0; first < block; first += 32) {
      const std::int64_t lanes = std::min<std::int64_t>(32, block - first);
      std::vector<std::int64_t> lengths;  // of the lanes that enter the if
      for (std::int64_t t = first; t < first + lanes; ++t) {
        const std::int64_t row = b * block + t;
        if (row < num_rows) lengths.push_back(row_ptr[static_cast<std::size_t>(row) + 1] - row_ptr[static_cast<std::size_t>(row)]);
      }
      const auto in = static_cast<std::uint64_t>(lengths.size());
      o.guard.warp_evaluations += 1;
      o.guard.active_lanes += static_cast<std::uint64_t>(lanes);
      o.guard.taken_lanes += in;
      o.guard.divergent += in > 0 && in < static_cast<std::uint64_t>(lanes) ? 1 : 0;
      if (in == 0) continue;
      const std::int64_t longest = *std::max_element(lengths.begin(), lengths.end());
      for (std::int64_t kk = 0; kk <= longest; ++kk) {
        std::uint64_t active = 0, taken = 0;
        for (const std::int64_t len : lengths) {
          active += len >= kk ? 1 : 0;
          taken += len > kk ? 1 : 0;
        }
        o.loop.warp_evaluations += 1;
        o.loop.active_lanes += active;
        o.loop.taken_lanes += taken;
        o.loop.divergent += taken > 0 && taken < active ? 1 : 0;
        if (taken > 0) {
          o.body.warp_evaluations += 1;
          o.body.active_lanes += taken;
        }
      }
      o.store.warp_evaluations += 1;
      o.store.active_lanes += in;
    }
  return o;
}

TEST(DataKernelsTest, SpmvSampleAgainstLoops) {
  const Kernel k = load_kernel();
  const Csr m = load_csr("spmv");
  const std::vector<std::int32_t> row_ptr = ints(m.row_ptr);
  const std::int32_t rows = m.rows();
  ASSERT_EQ(rows, 2000);
  // The sample is as irregular as meant: empty rows and long ones.
  std::int32_t empty = 0, longest = 0;
  for (std::int32_t r = 0; r < rows; ++r) {
    empty += row_ptr[static_cast<std::size_t>(r) + 1] == row_ptr[static_cast<std::size_t>(r)] ? 1 : 0;
    longest = std::max(longest, row_ptr[static_cast<std::size_t>(r) + 1] - row_ptr[static_cast<std::size_t>(r)]);
  }
  EXPECT_GT(empty, 0);
  EXPECT_GE(longest, 50);
  const Statements s = statements_of(k);
  // Blocks of 128 (the sample's launch: the last block half empty), of 100 (a partial warp of 4
  // lanes in each block) and of 1,024 at a smaller num_rows (rows past it are never read).
  struct Case {
    std::int32_t num_rows;
    std::uint32_t block;
  };
  for (const Case c : {Case{rows, 128}, Case{rows, 100}, Case{1500, 1024}}) {
    const std::uint32_t grid = (static_cast<std::uint32_t>(c.num_rows) + c.block - 1) / c.block;
    const std::string what = "num_rows " + std::to_string(c.num_rows) + ", grid " + std::to_string(grid) +
                             ", block " + std::to_string(c.block);
    SCOPED_TRACE(what);
    const Oracle want = oracle(row_ptr, c.num_rows, grid, c.block);
    EXPECT_GT(want.loop.divergent, 0u);  // not vacuous
    const ReplayResult r = replay(k, launch_of(k, m, c.num_rows, grid, c.block), ReplayOptions{});
    expect_same(want.guard, figures(r, s.guard), "if (row < num_rows)");
    expect_same(want.loop, figures(r, s.loop), "jj < row_end");
    EXPECT_EQ(figures(r, s.body).warp_evaluations, want.body.warp_evaluations) << "dot += ...";
    EXPECT_EQ(figures(r, s.body).active_lanes, want.body.active_lanes) << "dot += ...";
    EXPECT_EQ(figures(r, s.store).warp_evaluations, want.store.warp_evaluations) << "y[row] = dot";
    EXPECT_EQ(figures(r, s.store).active_lanes, want.store.active_lanes) << "y[row] = dot";
    expect_no_faults(r);
  }
}

// row_ptr one element short (5 elements for 5 rows): row 4 (lane 4) reads row_ptr[5], past it.
TEST(DataKernelsTest, SpmvRowPtrShortIsOutOfBounds) {
  const Kernel k = load_kernel();
  const Csr m = load_csr("spmv_tiny");
  Launch l = launch_of(k, m, 5, 1, 32);
  const auto p = static_cast<std::size_t>(parameter(k, "row_ptr"));
  l.buffer_bytes[p] = 5 * 4;
  l.buffer_data[p] = std::make_shared<const std::string>(m.row_ptr.bytes->substr(0, 5 * 4));
  try {
    replay(k, l, ReplayOptions{});
    FAIL() << "row_ptr[row + 1] past a 5-element row_ptr was not refused";
  } catch (const InvalidInput& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("row_ptr"), std::string::npos) << message;
    EXPECT_NE(message.find("out of bounds"), std::string::npos) << message;
  }
}

// The GPU probe of a launch with data reads the loads that decide control flow from the device
// buffers (args holds their addresses), as the kernel does; lanes the model does not run read 0
// rather than outside a buffer. Compiled with NVRTC where it is installed (the run is on a GPU:
// tools/device-validate-data).
TEST(DataKernelsTest, ProbeReadsTheLoadsThatDecideControlFlow) {
  const Kernel k = load_kernel();
  const Csr m = load_csr("spmv_tiny");
  const Launch l = launch_of(k, m, 5, 1, 32);
  const std::string source = kernels::probe_source(k, l.buffer_bytes);
  const std::string row_ptr = std::to_string(parameter(k, "row_ptr"));
  EXPECT_NE(source.find("const wd_u64 p" + row_ptr + " = args[" + row_ptr + "];  // row_ptr (device address)"),
            std::string::npos)
      << source;
  // row_ptr[row] and row_ptr[row + 1]: 6 elements of 4 bytes = 24 bytes.
  EXPECT_NE(source.find("wd_load<int>(p" + row_ptr + ", "), std::string::npos) << source;
  EXPECT_NE(source.find(", 24ull)"), std::string::npos) << source;
  // Without the buffers' values the probe reads nothing (the model would refuse such a launch).
  EXPECT_EQ(kernels::probe_source(k).find("wd_load<int>(p"), std::string::npos);
  try {
    const std::vector<char> cubin = kernels::compile_probe(source, "sm_90");
    ASSERT_GT(cubin.size(), 4u);
    EXPECT_EQ(std::string(cubin.data() + 1, 3), "ELF");
  } catch (const NoDevice& e) {
    GTEST_SKIP() << "no NVRTC here: " << e.what();
  }
}

}  // namespace
}  // namespace warpdiv::sim::ir
