// The data-driven kernels of kernels/zoo/data/ on the samples of data/samples/ (made by
// tools/make-samples), replayed with their buffers' values (Launch::buffer_data):
// CSR SpMV with one thread per row, whose loop runs from row_ptr[row] to row_ptr[row + 1].
//   - spmv_tiny by hand: one warp over 5 rows of 2, 0, 3, 1 and 4 nonzeros (worked out below);
//   - the 2,000-row sample against a second implementation: plain loops over blocks, warps and
//     lanes that read only the CSR arrays (never the kernel model or any code of sim/);
//   - row_ptr one element short: the last row's row_ptr[row + 1] is out of bounds.
// The text histogram (PMPP's histo_kernel: one thread per character, an if on whether it is a
// lowercase letter) and stream compaction with an atomic counter (an if on in[i] > threshold,
// the store at the slot the atomic hands out: not counted), each by hand on a tiny input and
// against plain loops over the sample's bytes or values.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "analysis/npy.hpp"
#include "kernels/probe.hpp"
#include "kernels/probe_source.hpp"
#include "kernels/frontend/frontend.hpp"
#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"
#include "sim/memory/ir_memory.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir {
namespace {

const std::string kRoot = WARPDIV_SOURCE_DIR;
const std::string kKernel = kRoot + "/kernels/zoo/data/spmv_csr_scalar.cu";
const std::string kHistogram = kRoot + "/kernels/zoo/data/text_histogram.cu";
const std::string kCompaction = kRoot + "/kernels/zoo/data/threshold_compaction.cu";

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

Kernel load_kernel(const std::string& file = kKernel) {
  frontend::FrontendOptions o;
  o.file = file;
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

/// The 1-based line of the kernel's source (`file`) that contains `text` (the only one).
std::uint32_t line_of(const std::string& text, const std::string& file = kKernel) {
  std::istringstream in(read_all(file));
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
  const std::uint32_t line = line_of(text, k.files.at(0).path);
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
        if (row < num_rows)
          lengths.push_back(row_ptr[static_cast<std::size_t>(row) + 1] -
                            row_ptr[static_cast<std::size_t>(row)]);
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
    longest =
        std::max(longest, row_ptr[static_cast<std::size_t>(r) + 1] - row_ptr[static_cast<std::size_t>(r)]);
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

// ---------------------------------------------------------------------------------------------
// spmv_csr_vector.cu: one warp per row (lane = thread_id & 31), the row's nonzeros strided by 32.

const std::string kVector = kRoot + "/kernels/zoo/data/spmv_csr_vector.cu";

struct VectorStatements {
  StmtId guard, loop, body, shuffle_loop, lane0;
};

VectorStatements vector_statements_of(const Kernel& k) {
  return VectorStatements{
      stmt_at(k, "if (row < num_rows)", StmtKind::If),
      stmt_at(k, "for (int jj = row_start + lane; jj < row_end; jj += 32)", StmtKind::Loop),
      stmt_at(k, "sum += values[jj] * x[col_idx[jj]];", StmtKind::Work, true),
      stmt_at(k, "for (int offset = 16; offset > 0; offset /= 2)", StmtKind::Loop),
      stmt_at(k, "if (lane == 0)", StmtKind::If)};
}

// spmv_tiny, grid 1, block 160: five warps, warp r holds row r (lengths L = 2, 0, 3, 1, 4).
//   if (row < num_rows): each warp once, all 32 lanes taken: 5 evaluations, 160 active, 160
//   taken, none divergent.
//   jj < row_end, jj = row_start + lane, += 32: every L <= 32, so a warp with L > 0 evaluates it
//   twice: k = 0 with 32 lanes, L taken (lanes 0 .. L-1), divergent (0 < L < 32); k = 1 with
//   those L lanes, none taken (jj + 32 >= row_end), not divergent. The empty row: once, 32
//   lanes, none taken, not divergent. Evaluations 4 x 2 + 1 = 9; active 4 x 32 + (2+3+1+4) + 32
//   = 170; taken 10; divergent 4.
//   sum += ...: the 4 warps with L > 0 once each, 10 lanes in all.
//   offset loop: 16, 8, 4, 2, 1, then 0 fails: 6 evaluations per warp, 30 in all, 160 x 6 = 960
//   active lanes, 160 x 5 = 800 taken, none divergent.
//   if (lane == 0): 5 evaluations, 160 active, 5 taken, all 5 divergent.
TEST(DataKernelsTest, SpmvVectorTinyByHand) {
  const Kernel k = load_kernel(kVector);
  const Csr m = load_csr("spmv_tiny");
  const ReplayResult r = replay(k, launch_of(k, m, 5, 1, 160), ReplayOptions{});
  const VectorStatements s = vector_statements_of(k);
  expect_same(Figures{5, 160, 160, 0}, figures(r, s.guard), "if (row < num_rows)");
  expect_same(Figures{9, 170, 10, 4}, figures(r, s.loop), "jj < row_end");
  EXPECT_EQ(figures(r, s.body).warp_evaluations, 4u);
  EXPECT_EQ(figures(r, s.body).active_lanes, 10u);
  expect_same(Figures{30, 960, 800, 0}, figures(r, s.shuffle_loop), "offset > 0");
  expect_same(Figures{5, 160, 5, 5}, figures(r, s.lane0), "if (lane == 0)");
  expect_no_faults(r);
}

// The sample, against loops over row_ptr alone: warp w (global) holds row w; it evaluates the
// strided loop at k = 0 .. ceil(L/32) with the lanes still in (all 32 at k = 0, then those taken
// at k - 1), taking min(32, max(0, L - 32 k)) lanes.
TEST(DataKernelsTest, SpmvVectorSampleAgainstLoops) {
  const Kernel k = load_kernel(kVector);
  const Csr m = load_csr("spmv");
  const std::vector<std::int32_t> rp = ints(m.row_ptr);
  const VectorStatements s = vector_statements_of(k);
  for (const auto& [num_rows, block] :
       {std::pair<std::int32_t, std::uint32_t>{2000, 128}, {1999, 96}, {1500, 1024}}) {
    SCOPED_TRACE("num_rows " + std::to_string(num_rows) + ", block " + std::to_string(block));
    const std::uint64_t threads = 32 * static_cast<std::uint64_t>(num_rows);
    const auto grid = static_cast<std::uint32_t>((threads + block - 1) / block);
    const ReplayResult r = replay(k, launch_of(k, m, num_rows, grid, block), ReplayOptions{});
    Figures guard, loop, body, lane0;
    const std::uint64_t warps_per_block = (block + 31) / 32;
    for (std::uint64_t b = 0; b < grid; ++b)
      for (std::uint64_t w = 0; w < warps_per_block; ++w) {
        const std::uint64_t first = b * block + w * 32;  // the warp's first thread
        const std::uint64_t lanes = std::min<std::uint64_t>(32, block - w * 32);
        const std::uint64_t row = first / 32;  // block is a multiple of 32 here: whole warps
        guard.warp_evaluations += 1;
        guard.active_lanes += lanes;
        if (row >= static_cast<std::uint64_t>(num_rows)) continue;
        guard.taken_lanes += lanes;
        const std::int64_t length = rp[row + 1] - rp[row];
        std::uint64_t active = lanes;
        for (std::int64_t pass = 0;; ++pass) {
          const auto taken = static_cast<std::uint64_t>(std::clamp<std::int64_t>(length - 32 * pass, 0, 32));
          loop.warp_evaluations += 1;
          loop.active_lanes += active;
          loop.taken_lanes += taken;
          loop.divergent += taken != 0 && taken != active ? 1 : 0;
          if (taken == 0) break;
          body.warp_evaluations += 1;
          body.active_lanes += taken;
          active = taken;
        }
        lane0.warp_evaluations += 1;
        lane0.active_lanes += lanes;
        lane0.taken_lanes += 1;
        lane0.divergent += 1;
      }
    expect_same(guard, figures(r, s.guard), "if (row < num_rows)");
    expect_same(loop, figures(r, s.loop), "jj < row_end");
    EXPECT_EQ(figures(r, s.body).warp_evaluations, body.warp_evaluations);
    EXPECT_EQ(figures(r, s.body).active_lanes, body.active_lanes);
    expect_same(lane0, figures(r, s.lane0), "if (lane == 0)");
    EXPECT_GT(loop.divergent, 0u);
    expect_no_faults(r);
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
  EXPECT_NE(
      source.find("const wd_u64 p" + row_ptr + " = args[" + row_ptr + "];  // row_ptr (device address)"),
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

// ---------------------------------------------------------------------------------------------
// The text histogram and the stream compaction: launches, statements, accesses.

/// A launch of `k` whose scalar parameters take `scalars` (by name; the others 0), with no buffer
/// sizes or values yet (give() adds them).
Launch bare_launch(const Kernel& k, std::uint32_t grid, std::uint32_t block,
                   const std::vector<std::pair<std::string, std::int64_t>>& scalars) {
  Launch l;
  l.grid = Dim3{grid, 1, 1};
  l.block = Dim3{block, 1, 1};
  for (const Parameter& p : k.parameters) {
    std::int64_t v = 0;
    for (const auto& [key, value] : scalars)
      if (key == p.name) v = value;
    l.arguments.push_back(p.scalar ? Value::of(p.type, v) : Value{});
  }
  l.buffer_bytes.assign(k.parameters.size(), 0);
  l.buffer_data.assign(k.parameters.size(), nullptr);
  return l;
}

/// Parameter `name`'s buffer: `bytes` long, with the values `data` (null: zeros, as --alloc).
void give(Launch& l, const Kernel& k, const std::string& name, std::uint64_t bytes,
          std::shared_ptr<const std::string> data = nullptr) {
  const auto p = static_cast<std::size_t>(parameter(k, name));
  l.buffer_bytes[p] = bytes;
  l.buffer_data[p] = std::move(data);
}

/// The access of kind `kind` on the line with `text` (the only one).
std::size_t access_at(const Kernel& k, const std::string& text, AccessKind kind) {
  const std::uint32_t line = line_of(text, k.files.at(0).path);
  std::size_t found = k.accesses.size();
  for (std::size_t a = 0; a < k.accesses.size(); ++a) {
    const MemoryAccess& m = k.accesses[a];
    if (m.range.file != 0 || m.range.line != line || m.kind != kind) continue;
    EXPECT_EQ(found, k.accesses.size()) << "two " << name(kind) << "s on line " << line;
    found = a;
  }
  EXPECT_NE(found, k.accesses.size()) << "no " << name(kind) << " on line " << line << " ('" << text << "')";
  return found;
}

/// The global traffic of one access: requests, lanes, 32-byte sectors.
struct Traffic {
  std::uint64_t requests = 0, lanes = 0, sectors = 0;
};

Traffic traffic(const ReplayResult& r, std::size_t a) {
  const AccessCounts& c = r.accesses.at(a);
  return Traffic{static_cast<std::uint64_t>(c.requests), static_cast<std::uint64_t>(c.lanes),
                 static_cast<std::uint64_t>(c.sectors)};
}

void expect_same(const Traffic& want, const Traffic& got, const std::string& what) {
  EXPECT_EQ(got.requests, want.requests) << what << ": requests";
  EXPECT_EQ(got.lanes, want.lanes) << what << ": lanes";
  EXPECT_EQ(got.sectors, want.sectors) << what << ": sectors";
}

/// Distinct values of `v` (the sectors a warp's lanes touch).
std::uint64_t distinct(std::vector<std::int64_t> v) {
  std::sort(v.begin(), v.end());
  return static_cast<std::uint64_t>(std::unique(v.begin(), v.end()) - v.begin());
}

// ---------------------------------------------------------------------------------------------
// Text histogram (kernels/zoo/data/text_histogram.cu): thread i reads byte i of the text; the
// outer if keeps i < length, the inner one the lowercase letters.

std::shared_ptr<const std::string> text_sample(const std::string& file) {
  return std::make_shared<const std::string>(read_all(kRoot + "/data/samples/text/" + file));
}

/// The launch over `text` with length = `length`; histo: 7 counters (a-d, ..., y-z), no values.
Launch histogram_launch(const Kernel& k, const std::shared_ptr<const std::string>& text, std::uint32_t length,
                        std::uint32_t grid, std::uint32_t block) {
  Launch l = bare_launch(k, grid, block, {{"length", length}});
  give(l, k, "data", text->size(), text);
  give(l, k, "histo", 7 * 4);
  return l;
}

struct HistogramStatements {
  StmtId guard, position, letter, add;
  std::size_t data, histo;  // accesses: the load data[i], the atomic on histo
};

HistogramStatements histogram_statements(const Kernel& k) {
  return HistogramStatements{
      stmt_at(k, "if (i < length)", StmtKind::If),
      stmt_at(k, "int alphabet_position = data[i] - 'a';", StmtKind::Work, true),
      stmt_at(k, "if (alphabet_position >= 0 && alphabet_position < 26)", StmtKind::If),
      stmt_at(k, "atomicAdd(&(histo[alphabet_position / 4]), 1);", StmtKind::Work, true),
      access_at(k, "int alphabet_position = data[i] - 'a';", AccessKind::Load),
      access_at(k, "atomicAdd(&(histo[alphabet_position / 4]), 1);", AccessKind::Atomic)};
}

struct HistogramFigures {
  Figures guard, position, letter, add;
  Traffic data, histo;
};

void expect_same(const HistogramFigures& want, const ReplayResult& r, const Kernel& k,
                 const HistogramStatements& s) {
  expect_same(want.guard, figures(r, s.guard), "if (i < length)");
  expect_same(want.position, figures(r, s.position), "int alphabet_position = ...");
  expect_same(want.letter, figures(r, s.letter), "if (alphabet_position >= 0 && alphabet_position < 26)");
  expect_same(want.add, figures(r, s.add), "atomicAdd(&(histo[...]), 1)");
  expect_same(want.data, traffic(r, s.data), "data[i]");
  expect_same(want.histo, traffic(r, s.histo), "histo[alphabet_position / 4]");
  ASSERT_EQ(r.computed_loads.size(), r.accesses.size());
  EXPECT_TRUE(r.computed_loads[s.data]) << "data[i] has values";
  // Both counted: histo's address is made from data[i], whose values the run computes.
  const std::vector<std::string> why = uncounted_accesses(k, r.computed_loads);
  EXPECT_EQ(why.at(s.data), "");
  EXPECT_EQ(why.at(s.histo), "");
  expect_no_faults(r);
}

// tiny.txt = "Hello, world! abc xyz" (21 bytes, no newline); thread i reads byte i:
//   i  0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
//      H e l l o , _ w o r l  d  !  _  a  b  c  _  x  y  z      (_: a space)
//   lowercase: i = 1-4, 7-11, 14-16, 18-20: 15 of the 21 ('H', ',', ' ', '!' are below 'a').
// (a) grid 1, block 32, length 21: one warp, lanes 0..31.
//   if (i < length): 1 evaluation, 32 active, 21 taken (i = 0..20), divergent 1.
//   int alphabet_position = ...: 1 evaluation, 21 lanes.
//   inner if: 1 evaluation, 21 active, 15 taken, divergent 1.
//   atomicAdd: 1 evaluation, 15 lanes.
//   data[i]: 1 request, 21 lanes, 1 sector (bytes 0..20 of a 256-byte-aligned buffer);
//   histo[...]: 1 request, 15 lanes; the 7 counters (28 bytes) lie in one sector, counted once
//   per lane on its busiest counter (an atomic's lanes on one address take turns): the letters
//   e l l o w o r l d a b c x y z fall in bins 1 2 2 3 5 3 4 2 0 0 0 0 5 6 6, bin 0 has 4: 4.
// (b) grid 2, block 16, length 21: each block is one partial warp of 16 lanes.
//   block 0, i = 0..15: all < 21 (16 of 16, not divergent); letters among them: 1-4, 7-11,
//     14-15 = 11 of 16, divergent.
//   block 1, i = 16..31: i = 16..20 < 21 (5 of 16, divergent); letters among "c xyz": 4 of 5,
//     divergent.
//   if (i < length): 2 evaluations, 32 active, 21 taken, divergent 1. alphabet_position: 2, 21.
//   inner if: 2 evaluations, 21 active, 15 taken, divergent 2. atomicAdd: 2, 15.
//   data[i]: 2 requests, 21 lanes, 2 sectors (one per block); histo: 2 requests, 15 lanes,
//   block 0's bins 1 2 2 3 5 3 4 2 0 0 0 (bins 0 and 2: 3 each) 3 + block 1's 0 5 6 6 (bin 6) 2: 5.
TEST(DataKernelsTest, TextHistogramTinyByHand) {
  const Kernel k = load_kernel(kHistogram);
  const auto text = text_sample("tiny.txt");
  ASSERT_EQ(*text, "Hello, world! abc xyz");
  const HistogramStatements s = histogram_statements(k);
  {
    SCOPED_TRACE("grid 1, block 32");
    const ReplayResult r = replay(k, histogram_launch(k, text, 21, 1, 32), ReplayOptions{});
    EXPECT_EQ(static_cast<std::uint64_t>(r.warps), 1u);
    expect_same(HistogramFigures{Figures{1, 32, 21, 1}, Figures{1, 21, 0, 0}, Figures{1, 21, 15, 1},
                                 Figures{1, 15, 0, 0}, Traffic{1, 21, 1}, Traffic{1, 15, 4}},
                r, k, s);
  }
  {
    SCOPED_TRACE("grid 2, block 16");
    const ReplayResult r = replay(k, histogram_launch(k, text, 21, 2, 16), ReplayOptions{});
    EXPECT_EQ(static_cast<std::uint64_t>(r.warps), 2u);
    expect_same(HistogramFigures{Figures{2, 32, 21, 1}, Figures{2, 21, 0, 0}, Figures{2, 21, 15, 2},
                                 Figures{2, 15, 0, 0}, Traffic{2, 21, 2}, Traffic{2, 15, 5}},
                r, k, s);
  }
}

// The bins the atomics leave (ReplayOptions::capture_stores): atomicAdd's final results do not
// depend on the threads' order, so the model combines them. By hand for the tiny text: the 15
// letters e l l o w o r l d a b c x y z fall in bins (position / 4) 1 2 2 3 5 3 4 2 0 0 0 0 5 6 6:
// 4, 1, 3, 2, 1, 2, 2. On the sample, against a count of its bytes written here.
TEST(DataKernelsTest, TextHistogramBinsFromTheAtomics) {
  const Kernel k = load_kernel(kHistogram);
  ReplayOptions o;
  o.capture_stores = true;
  const auto bins = [&](const ReplayResult& r) {
    std::vector<std::uint32_t> out(7, 0);
    EXPECT_EQ(r.stores_not_captured, "");
    EXPECT_EQ(r.stored[2].bytes.size(), 28u);
    for (std::size_t b = 0; b < 7 && 4 * b + 4 <= r.stored[2].bytes.size(); ++b) {
      EXPECT_EQ(r.stored[2].state[4 * b], StoredBuffer::kWritten) << b;
      std::memcpy(&out[b], r.stored[2].bytes.data() + 4 * b, 4);
    }
    return out;
  };
  const auto tiny = text_sample("tiny.txt");
  EXPECT_EQ(bins(replay(k, histogram_launch(k, tiny, 21, 2, 16), o)),
            (std::vector<std::uint32_t>{4, 1, 3, 2, 1, 2, 2}));
  const auto text = text_sample("sample.txt");
  std::vector<std::uint32_t> expected(7, 0);
  for (char c : *text)
    if (c >= 'a' && c <= 'z') ++expected[static_cast<std::size_t>((c - 'a') / 4)];
  const auto length = static_cast<std::uint32_t>(text->size());
  EXPECT_EQ(bins(replay(k, histogram_launch(k, text, length, (length + 255) / 256, 256), o)), expected);
}

/// The second implementation: per warp (32 consecutive threads of a block, the last one partial
/// when the block is not a multiple of 32), the lanes with i < length and, of those, the ones
/// whose byte is a lowercase letter ('a' <= c <= 'z'), read from the text's bytes.
HistogramFigures histogram_oracle(const std::string& text, std::int64_t length, std::int64_t grid,
                                  std::int64_t block) {
  HistogramFigures o;
  for (std::int64_t b = 0; b < grid; ++b)
    for (std::int64_t first = 0; first < block; first += 32) {
      const auto lanes = static_cast<std::uint64_t>(std::min<std::int64_t>(32, block - first));
      std::uint64_t in = 0, letters = 0;
      std::vector<std::int64_t> sectors;   // of data[i]: one byte per lane
      std::array<std::uint64_t, 7> bin{};  // the warp's letters per counter
      for (std::int64_t t = first; t < first + static_cast<std::int64_t>(lanes); ++t) {
        const std::int64_t i = b * block + t;
        if (i >= length) continue;
        ++in;
        sectors.push_back(i / 32);
        const char c = text[static_cast<std::size_t>(i)];
        letters += c >= 'a' && c <= 'z' ? 1 : 0;
        if (c >= 'a' && c <= 'z') ++bin[static_cast<std::size_t>((c - 'a') / 4)];
      }
      o.guard.warp_evaluations += 1;
      o.guard.active_lanes += lanes;
      o.guard.taken_lanes += in;
      o.guard.divergent += in > 0 && in < lanes ? 1 : 0;
      if (in == 0) continue;
      o.position.warp_evaluations += 1;
      o.position.active_lanes += in;
      o.letter.warp_evaluations += 1;
      o.letter.active_lanes += in;
      o.letter.taken_lanes += letters;
      o.letter.divergent += letters > 0 && letters < in ? 1 : 0;
      o.data.requests += 1;
      o.data.lanes += in;
      o.data.sectors += distinct(sectors);
      if (letters == 0) continue;
      o.add.warp_evaluations += 1;
      o.add.active_lanes += letters;
      o.histo.requests += 1;
      o.histo.lanes += letters;
      // The 7 counters lie in one sector, counted once per lane on the busiest one.
      o.histo.sectors += *std::max_element(bin.begin(), bin.end());
    }
  return o;
}

TEST(DataKernelsTest, TextHistogramSampleAgainstLoops) {
  const Kernel k = load_kernel(kHistogram);
  const auto text = text_sample("sample.txt");
  ASSERT_EQ(text->size(), 20000u);
  const HistogramStatements s = histogram_statements(k);
  // Blocks of 128 (the sample's launch: the last block's last warps past the text), of 100 (a
  // partial warp of 4 lanes in each block) and of 1,024 over the first 15,000 bytes.
  struct Case {
    std::uint32_t length, block;
  };
  for (const Case c : {Case{20000, 128}, Case{20000, 100}, Case{15000, 1024}}) {
    const std::uint32_t grid = (c.length + c.block - 1) / c.block;
    SCOPED_TRACE("length " + std::to_string(c.length) + ", grid " + std::to_string(grid) + ", block " +
                 std::to_string(c.block));
    const HistogramFigures want = histogram_oracle(*text, c.length, grid, c.block);
    // Not vacuous: warps split on the letters, and warps of figures or capitals take none.
    EXPECT_GT(want.letter.divergent, 0u);
    EXPECT_LT(want.add.warp_evaluations, want.letter.warp_evaluations);
    const ReplayResult r = replay(k, histogram_launch(k, text, c.length, grid, c.block), ReplayOptions{});
    expect_same(want, r, k, s);
  }
}

// ---------------------------------------------------------------------------------------------
// Threshold compaction (kernels/zoo/data/threshold_compaction.cu): thread i copies in[i] to the
// slot an atomicAdd on count hands it when i < n && in[i] > threshold.

Array compaction_sample(const std::string& file) {
  return load_npy(kRoot + "/data/samples/compaction/" + file, "<i4");
}

/// The launch over `in` with n and threshold; out: as many elements as in, count: 1; no values.
Launch compaction_launch(const Kernel& k, const Array& in, std::int32_t n, std::int32_t threshold,
                         std::uint32_t grid, std::uint32_t block) {
  Launch l = bare_launch(k, grid, block, {{"n", n}, {"threshold", threshold}});
  give(l, k, "in", in.bytes->size(), in.bytes);
  give(l, k, "out", in.bytes->size());
  give(l, k, "count", 4);
  return l;
}

struct CompactionStatements {
  StmtId guard, add, store;
  // accesses: in[i] in the condition, the atomic on count, in[i] and out[pos] in the copy
  std::size_t in_guard, count, in_copy, out;
};

CompactionStatements compaction_statements(const Kernel& k) {
  return CompactionStatements{stmt_at(k, "if (i < n && in[i] > threshold)", StmtKind::If),
                              stmt_at(k, "int pos = atomicAdd(count, 1);", StmtKind::Work, true),
                              stmt_at(k, "out[pos] = in[i];", StmtKind::Work, true),
                              access_at(k, "if (i < n && in[i] > threshold)", AccessKind::Load),
                              access_at(k, "int pos = atomicAdd(count, 1);", AccessKind::Atomic),
                              access_at(k, "out[pos] = in[i];", AccessKind::Load),
                              access_at(k, "out[pos] = in[i];", AccessKind::Store)};
}

struct CompactionFigures {
  Figures guard, add, store;
  Traffic in_guard, count, in_copy, out;
};

void expect_same(const CompactionFigures& want, const ReplayResult& r, const Kernel& k,
                 const CompactionStatements& s) {
  expect_same(want.guard, figures(r, s.guard), "if (i < n && in[i] > threshold)");
  expect_same(want.add, figures(r, s.add), "int pos = atomicAdd(count, 1)");
  expect_same(want.store, figures(r, s.store), "out[pos] = in[i]");
  expect_same(want.in_guard, traffic(r, s.in_guard), "in[i] (condition)");
  expect_same(want.count, traffic(r, s.count), "atomicAdd(count, 1)");
  expect_same(want.in_copy, traffic(r, s.in_copy), "in[i] (copy)");
  ASSERT_EQ(r.computed_loads.size(), r.accesses.size());
  EXPECT_TRUE(r.computed_loads[s.in_guard]) << "in[i] has values";
  // out[pos]: its address depends on the atomic's result, which the replay follows in its own
  // order (blocks, warps, lanes ascending: pos counts the flagged threads before); counted for
  // that order and marked as depending on it, the one figure that does.
  const std::vector<std::string> why = uncounted_accesses(k, r.computed_loads);
  for (const std::size_t a : {s.in_guard, s.count, s.in_copy, s.out})
    EXPECT_EQ(why.at(a), "") << "access " << a;
  expect_same(want.out, traffic(r, s.out), "out[pos]");
  expect_no_faults(r);
}

void expect_order_dependent_address(const Kernel& k, const Launch& l, const ReplayResult& r,
                                    const CompactionStatements& s) {
  const std::vector<OrderDependence> order = order_dependence(k, l, r);
  ASSERT_EQ(order.size(), 1u);
  EXPECT_FALSE(order[0].condition);
  EXPECT_EQ(order[0].access, static_cast<std::int32_t>(s.out));
  EXPECT_NE(order[0].message.find("the address of 'out[pos]' depends on atomicAdd(count, 1) (atomic result)"),
            std::string::npos)
      << order[0].message;
}

// tiny.npy: in[i] = i % 10 - 5 for i = 0..39 (-5 .. 4, four times).
// (a) grid 2, block 32, n = 36, threshold 0: lane i of block b is thread 32 b + i.
//   block 0, i = 0..31: all < 36; in[i] > 0 for i % 10 = 6..9 (i % 10 = 5 gives 0, not > 0):
//     i = 6-9, 16-19, 26-29: 12 of 32, divergent.
//   block 1, i = 32..63: i = 32..35 < 36 with in = -3, -2, -1, 0: none > 0; i = 36..39 fail
//     i < n (in the buffer), 40..63 too (past it: && must not read in[i] there): 0 of 32, all
//     agree, not divergent.
//   if: 2 evaluations, 64 active, 12 taken, divergent 1; int pos = ...: 1 evaluation, 12 lanes;
//   out[pos] = in[i]: 1 evaluation, 12 lanes.
//   in[i] (condition): 2 requests, 32 + 4 = 36 lanes, sectors (8 ints each) i / 8 = 0..3 and 4:
//   5. atomicAdd(count, 1): 1 request, 12 lanes on one address, 12 sectors (they take turns).
//   in[i] (copy): 1 request, 12 lanes,
//   sectors of i = 6-7 | 8-9 | 16-19 | 26-29: 4. out[pos]: pos = 0 .. 11 in the replay's order
//   (lanes ascending), 1 request, 12 lanes, bytes 0 .. 47: 2 sectors.
// (b) grid 1, block 64, n = 40, threshold -6: every value (>= -5) passes.
//   warp 0, i = 0..31: 32 of 32, not divergent. warp 1, i = 32..63: i = 32..39 < 40: 8 of 32,
//   divergent.
//   if: 2 evaluations, 64 active, 40 taken, divergent 1; int pos = ...: 2, 40; the copy: 2, 40.
//   in[i] (condition): 2 requests, 40 lanes, 4 + 1 = 5 sectors; atomicAdd: 2 requests, 40 lanes,
//   32 + 8 = 40 sectors; in[i] (copy): as the condition's, 2 requests, 40 lanes, 5 sectors; out[pos]:
//   warp 0 pos 0 .. 31 (4 sectors), warp 1 pos 32 .. 39 (1): 2 requests, 40 lanes, 5 sectors.
TEST(DataKernelsTest, ThresholdCompactionTinyByHand) {
  const Kernel k = load_kernel(kCompaction);
  const Array in = compaction_sample("tiny.npy");
  std::vector<std::int32_t> want_values;
  for (std::int32_t i = 0; i < 40; ++i) want_values.push_back(i % 10 - 5);
  ASSERT_EQ(ints(in), want_values);
  const CompactionStatements s = compaction_statements(k);
  {
    SCOPED_TRACE("grid 2, block 32, n 36, threshold 0");
    const Launch l = compaction_launch(k, in, 36, 0, 2, 32);
    const ReplayResult r = replay(k, l, ReplayOptions{});
    EXPECT_EQ(static_cast<std::uint64_t>(r.warps), 2u);
    expect_same(
        CompactionFigures{Figures{2, 64, 12, 1}, Figures{1, 12, 0, 0}, Figures{1, 12, 0, 0},
                          Traffic{2, 36, 5}, Traffic{1, 12, 12}, Traffic{1, 12, 4}, Traffic{1, 12, 2}},
        r, k, s);
    expect_order_dependent_address(k, l, r, s);
  }
  {
    SCOPED_TRACE("grid 1, block 64, n 40, threshold -6");
    const Launch l = compaction_launch(k, in, 40, -6, 1, 64);
    const ReplayResult r = replay(k, l, ReplayOptions{});
    EXPECT_EQ(static_cast<std::uint64_t>(r.warps), 2u);
    expect_same(
        CompactionFigures{Figures{2, 64, 40, 1}, Figures{2, 40, 0, 0}, Figures{2, 40, 0, 0},
                          Traffic{2, 40, 5}, Traffic{2, 40, 40}, Traffic{2, 40, 5}, Traffic{2, 40, 5}},
        r, k, s);
    expect_order_dependent_address(k, l, r, s);
  }
}

/// The second implementation: per warp, the lanes with i < n (they alone read in[i] in the
/// condition: && stops at i >= n) and, of those, the ones with in[i] > threshold; the if is one
/// statement, evaluated once per warp by all its lanes, taken by the second group.
CompactionFigures compaction_oracle(const std::vector<std::int32_t>& in, std::int64_t n,
                                    std::int64_t threshold, std::int64_t grid, std::int64_t block) {
  CompactionFigures o;
  std::int64_t next = 0;  // the count's value: the atomics run blocks, warps and lanes ascending
  for (std::int64_t b = 0; b < grid; ++b)
    for (std::int64_t first = 0; first < block; first += 32) {
      const auto lanes = static_cast<std::uint64_t>(std::min<std::int64_t>(32, block - first));
      std::uint64_t within = 0, above = 0;
      std::vector<std::int64_t> read, copied, written;  // sectors (8 ints each) of in[i], out[pos]
      for (std::int64_t t = first; t < first + static_cast<std::int64_t>(lanes); ++t) {
        const std::int64_t i = b * block + t;
        if (i >= n) continue;
        ++within;
        read.push_back(i / 8);
        if (in[static_cast<std::size_t>(i)] > threshold) {
          ++above;
          copied.push_back(i / 8);
          written.push_back(next++ / 8);
        }
      }
      o.guard.warp_evaluations += 1;
      o.guard.active_lanes += lanes;
      o.guard.taken_lanes += above;
      o.guard.divergent += above > 0 && above < lanes ? 1 : 0;
      if (within > 0) {
        o.in_guard.requests += 1;
        o.in_guard.lanes += within;
        o.in_guard.sectors += distinct(read);
      }
      if (above == 0) continue;
      o.add.warp_evaluations += 1;
      o.add.active_lanes += above;
      o.store.warp_evaluations += 1;
      o.store.active_lanes += above;
      o.count.requests += 1;
      o.count.lanes += above;
      o.count.sectors += above;  // one address: the lanes take turns
      o.in_copy.requests += 1;
      o.in_copy.lanes += above;
      o.in_copy.sectors += distinct(copied);
      o.out.requests += 1;
      o.out.lanes += above;
      o.out.sectors += distinct(written);
    }
  return o;
}

TEST(DataKernelsTest, ThresholdCompactionSampleAgainstLoops) {
  const Kernel k = load_kernel(kCompaction);
  const Array in = compaction_sample("in.npy");
  const std::vector<std::int32_t> values = ints(in);
  ASSERT_EQ(values.size(), 5000u);
  const CompactionStatements s = compaction_statements(k);
  // Blocks of 128 at threshold 0 (the sample's launch: the last block's last 3 warps past n), of
  // 100 (a partial warp of 4 lanes in each block), and of 1,024 at n = 4,500, threshold 500
  // (threads 4,500 .. 5,119: past n, and from 5,000 past the buffer, which && does not read).
  struct Case {
    std::int32_t n, threshold;
    std::uint32_t block;
  };
  for (const Case c : {Case{5000, 0, 128}, Case{5000, 0, 100}, Case{4500, 500, 1024}}) {
    const std::uint32_t grid = (static_cast<std::uint32_t>(c.n) + c.block - 1) / c.block;
    SCOPED_TRACE("n " + std::to_string(c.n) + ", threshold " + std::to_string(c.threshold) + ", grid " +
                 std::to_string(grid) + ", block " + std::to_string(c.block));
    const CompactionFigures want = compaction_oracle(values, c.n, c.threshold, grid, c.block);
    // Not vacuous: some warps split, others agree.
    EXPECT_GT(want.guard.divergent, 0u);
    EXPECT_LT(want.guard.divergent, want.guard.warp_evaluations);
    const ReplayResult r =
        replay(k, compaction_launch(k, in, c.n, c.threshold, grid, c.block), ReplayOptions{});
    expect_same(want, r, k, s);
  }
}

}  // namespace
}  // namespace warpdiv::sim::ir
