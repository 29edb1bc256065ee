// The kernel zoo (kernels/zoo/*.cu) through `warpdiv analyze FILE.cu`, at the launch each file's
// header names. Every expected figure is worked out here without the model: by hand (the
// derivation is in the comments) or by a small loop over the threads of the launch written
// directly in C++ (count_warps below), which knows nothing of the IR or the replay engine.
//
// Vocabulary (DESIGN.md): a warp evaluation is one warp reaching a statement with at least one
// active lane; it is divergent when the active lanes disagree on the condition; warps are formed
// in linear thread order x + y*Bx + z*Bx*By; a loop's condition is evaluated each time a warp
// reaches the loop's head (so a loop of n iterations is evaluated n + 1 times by each warp).
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

const std::string kZoo = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/";

// ---------------------------------------------------------------------------------------------
// The independent oracle: a loop over every thread of a launch.

struct Dim {
  int x = 1, y = 1, z = 1;
};
struct Thread {
  int bx, by, bz, tx, ty, tz;
};
struct Figures {
  std::uint64_t warp_evaluations = 0, divergent = 0, active_lanes = 0, taken_lanes = 0;
};

/// One evaluation of a condition by every warp of the launch: `active` says whether a thread
/// reaches it, `condition` what it decides there.
Figures count_warps(Dim grid, Dim block, int warp_size, const std::function<bool(const Thread&)>& active,
                    const std::function<bool(const Thread&)>& condition) {
  Figures f;
  const int threads = block.x * block.y * block.z;
  for (int bz = 0; bz < grid.z; ++bz)
    for (int by = 0; by < grid.y; ++by)
      for (int bx = 0; bx < grid.x; ++bx)
        for (int first = 0; first < threads; first += warp_size) {
          int lanes = 0, taken = 0;
          for (int linear = first; linear < first + warp_size && linear < threads; ++linear) {
            const Thread t{
                bx, by, bz, linear % block.x, linear / block.x % block.y, linear / (block.x * block.y)};
            if (!active(t)) continue;
            ++lanes;
            if (condition(t)) ++taken;
          }
          if (lanes == 0) continue;
          f.warp_evaluations += 1;
          f.active_lanes += static_cast<std::uint64_t>(lanes);
          f.taken_lanes += static_cast<std::uint64_t>(taken);
          if (taken != 0 && taken != lanes) f.divergent += 1;
        }
  return f;
}

Figures& operator+=(Figures& a, const Figures& b) {
  a.warp_evaluations += b.warp_evaluations;
  a.divergent += b.divergent;
  a.active_lanes += b.active_lanes;
  a.taken_lanes += b.taken_lanes;
  return a;
}

// ---------------------------------------------------------------------------------------------
// Running warpdiv and reading its CSV.

/// The 1-based line of `file` holding `snippet` (which must occur exactly once).
std::uint32_t line_of(const std::string& file, const std::string& snippet) {
  std::ifstream in(kZoo + file);
  std::string line;
  std::uint32_t number = 0, found = 0;
  int hits = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find(snippet) != std::string::npos) {
      found = number;
      ++hits;
    }
  }
  EXPECT_EQ(hits, 1) << snippet << " in " << file;
  return found;
}

using CsvRow = std::map<std::string, std::string>;

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

struct Analysis {
  CliResult result;
  std::vector<CsvRow> rows;

  /// The row of the statement of `kind` on `line` (and `iteration`: "" = the whole run).
  CsvRow row(std::uint32_t line, const std::string& kind, const std::string& iteration = "") const {
    const CsvRow* match = nullptr;
    int hits = 0;
    for (const CsvRow& r : rows) {
      if (r.at("line") == std::to_string(line) && r.at("kind") == kind && r.at("iteration") == iteration) {
        match = &r;
        ++hits;
      }
    }
    EXPECT_EQ(hits, 1) << kind << " on line " << line << " iteration '" << iteration << "'";
    return match ? *match : CsvRow{};
  }
};

/// True when this warpdiv reads source files (it was built with the Clang front-end).
bool reads_sources() {
  static const bool reads = [] {
    TempDir dir;
    const CliResult r =
        run_warpdiv({"analyze", kZoo + "naive_matmul.cu", "--save-model", dir.file("model.json")});
    return !contains(r.err, "without the Clang front-end");
  }();
  return reads;
}

/// The line of `text` that holds `part` ("" when none).
std::string line_containing(const std::string& text, const std::string& part) {
  const auto at = text.find(part);
  if (at == std::string::npos) return "";
  const auto begin = text.rfind('\n', at);
  const auto end = text.find('\n', at);
  return text.substr(begin == std::string::npos ? 0 : begin + 1,
                     end == std::string::npos ? std::string::npos : end - begin - 1);
}

Analysis analyze(const std::string& file, std::vector<std::string> launch) {
  TempDir dir;
  std::vector<std::string> args = {"analyze", kZoo + file};
  args.insert(args.end(), launch.begin(), launch.end());
  args.insert(args.end(), {"--csv", dir.file("out.csv")});
  Analysis a;
  a.result = run_warpdiv(args);
  EXPECT_EQ(a.result.status, 0) << a.result.err;
  std::istringstream csv(file_exists(dir.file("out.csv")) ? read_file(dir.file("out.csv")) : "");
  std::string line;
  std::vector<std::string> header;
  while (std::getline(csv, line)) {
    const std::vector<std::string> fields = split_csv_line(line);
    if (header.empty()) {
      header = fields;
      continue;
    }
    CsvRow row;
    for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i) row[header[i]] = fields[i];
    a.rows.push_back(row);
  }
  return a;
}

void expect_figures(const CsvRow& row, const Figures& f) {
  EXPECT_EQ(row.at("warp_evaluations"), std::to_string(f.warp_evaluations));
  EXPECT_EQ(row.at("divergent"), std::to_string(f.divergent));
  EXPECT_EQ(row.at("active_lanes"), std::to_string(f.active_lanes));
  EXPECT_EQ(row.at("taken_lanes"), std::to_string(f.taken_lanes));
}

class Zoo : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  }
};

// ---------------------------------------------------------------------------------------------
// naive_matmul.cu: Width 100, blockDim (16, 16), gridDim (7, 7): 49 blocks x 8 warps = 392 warps.
// A warp is two rows (ty, ty+1) of 16 columns.

TEST_F(Zoo, NaiveMatmul) {
  const Analysis a = analyze("naive_matmul.cu", {"--grid", "(Width-1)/16+1,(Width-1)/16+1", "--block",
                                                 "16,16", "--arg", "Width=100"});
  // if ((Row < Width) && (Col < Width)): every warp once, 392 evaluations of 32 lanes (12,544).
  // Col = 16 bx + tx: block column bx = 6 holds columns 96..111, of which 96..99 are in, so every
  // warp there with rows in is divergent; rows never split a warp (96+2w, 97+2w are both < 100
  // for w = 0, 1 and both >= 100 for w >= 2). Divergent: bx = 6, by < 6: 6 x 8 = 48 warps;
  // bx = 6, by = 6: warps 0 and 1: 2; in all 50 of 392. Taken: the 100 x 100 threads of P.
  expect_figures(a.row(line_of("naive_matmul.cu", "if ((Row < Width) && (Col < Width))"), "if"),
                 {392, 50, 12544, 10000});
  // for (k < Width): the warps with a lane inside P (36 x 8 + 6 x 8 + 6 x 2 + 2 = 350) each test
  // it 101 times, never divergent; 10,000 lanes x 101 tests, 10,000 x 100 of them true.
  expect_figures(a.row(line_of("naive_matmul.cu", "for (int k = 0"), "for"), {35350, 0, 1010000, 1000000});
  // The store: those 350 warps, 10,000 lanes: SIMD efficiency 10000 / (350 x 32) = 0.8929.
  const CsvRow store = a.row(line_of("naive_matmul.cu", "P[Row*Width+Col] = Pvalue;"), "statement");
  EXPECT_EQ(store.at("warp_evaluations"), "350");
  EXPECT_EQ(store.at("active_lanes"), "10000");
  EXPECT_EQ(store.at("simd_efficiency"), "0.8929");
  // The listing shows the guard's line with its figures.
  const std::string guard = line_containing(a.result.out, "if ((Row < Width) && (Col < Width))");
  EXPECT_TRUE(contains(guard, " 392 ") && contains(guard, " 50 ") && contains(guard, "100.0%"))
      << a.result.out;
}

// ---------------------------------------------------------------------------------------------
// tiled_matmul.cu at the lecture's launch: Width 100, T 16: 7 phases (p = 0 .. 6), 392 warps,
// 2,744 warp-phases per check.

TEST_F(Zoo, TiledMatmulLectureFigures) {
  const Analysis a = analyze("tiled_matmul.cu", {"--grid", "(Width-1)/16+1,(Width-1)/16+1", "--block",
                                                 "16,16", "--arg", "Width=100", "--by-iteration"});
  const std::string f = "tiled_matmul.cu";
  // load of M: Row < Width && p*16+tx < Width. A warp's two rows agree (see NaiveMatmul), so it
  // diverges only in phase p = 6, where tx 0..3 load and 4..15 do not, in every warp with its
  // rows in: 7 block columns x 50 = 350 of 2,744. Taken: rows 0..99 of the 112 thread rows, all
  // 112 thread columns for p < 6 and 7 x 4 = 28 of them for p = 6: 100 x (6 x 112 + 28) = 70,000.
  expect_figures(a.row(line_of(f, "if (Row < Width && p*TILE_WIDTH+tx < Width)"), "if"),
                 {2744, 350, 87808, 70000});
  // load of N (the mirror): p < 6: the 8 warps of the 7 blocks of column bx = 6 diverge on Col:
  // 56 a phase, 336; p = 6: rows p*16+ty < 100 only for ty < 4, i.e. warps 0 and 1; they diverge
  // in bx = 6 only: 7 x 2 = 14. In all 350 of 2,744; taken 70,000 as for M.
  const std::uint32_t load_n = line_of(f, "if (p*TILE_WIDTH+ty < Width && Col < Width)");
  expect_figures(a.row(load_n, "if"), {2744, 350, 87808, 70000});
  // Per phase (--by-iteration, iteration k is phase p = k - 1): 56 in phases 1..6, 14 in 7.
  EXPECT_EQ(a.row(load_n, "if", "1").at("divergent"), "56");
  EXPECT_EQ(a.row(load_n, "if", "6").at("divergent"), "56");
  EXPECT_EQ(a.row(load_n, "if", "7").at("divergent"), "14");
  EXPECT_EQ(a.row(load_n, "if", "7").at("warp_evaluations"), "392");
  // The guarded inner product: the naive kernel's guard, once a phase: 7 x 50 = 350 of 2,744.
  expect_figures(a.row(line_of(f, "    if (Row < Width && Col < Width)"), "if"), {2744, 350, 87808, 70000});
  // The phase loop: 8 tests by each of 392 warps, none divergent; 7 x 12,544 lanes stay in.
  expect_figures(a.row(line_of(f, "for (int p = 0;"), "for"), {3136, 0, 100352, 87808});
  // Both barriers: reached by every thread of the 49 blocks in each of 7 phases: 343, none partial.
  for (const CsvRow& r : a.rows) {
    if (r.at("kind") != "barrier" || !r.at("iteration").empty()) continue;
    EXPECT_EQ(r.at("block_executions"), "343");
    EXPECT_EQ(r.at("partial_block_executions"), "0");
  }
  const std::string load_m = line_containing(a.result.out, "if (Row < Width && p*TILE_WIDTH+tx");
  EXPECT_TRUE(contains(load_m, " 2744 ") && contains(load_m, " 350 ")) << a.result.out;
  EXPECT_FALSE(contains(a.result.out, "partial barrier")) << a.result.out;
}

// tiled_matmul_barrier_in_guard.cu: the slide's mistake. The 13 blocks of the last block row or
// column (7 + 7 - 1) hold threads outside P that skip the whole phase loop.
TEST_F(Zoo, BarrierInGuardIsPartialIn13Of49Blocks) {
  const std::string f = "tiled_matmul_barrier_in_guard.cu";
  const Analysis a =
      analyze(f, {"--grid", "(Width-1)/16+1,(Width-1)/16+1", "--block", "16,16", "--arg", "Width=100"});
  int barriers = 0;
  for (const CsvRow& r : a.rows) {
    if (r.at("kind") != "barrier") continue;
    ++barriers;
    // Every block has threads in P (bx = 6 still has columns 96..99), so each barrier executes in
    // 49 blocks x 7 phases = 343; partly in 13 x 7 = 91.
    EXPECT_EQ(r.at("block_executions"), "343");
    EXPECT_EQ(r.at("partial_block_executions"), "91");
  }
  EXPECT_EQ(barriers, 2);
  EXPECT_TRUE(contains(a.result.out, "in 91 of 343 block executions, in 13 of 49 blocks")) << a.result.out;
  EXPECT_TRUE(contains(a.result.out, "undefined behaviour")) << a.result.out;
  // Inside the guard only the threads of P run the loads. The load of M diverges in phase 6 in
  // the warps of block columns 0..5 (tx 4..15 fail there): 6 x 50 = 300; in column 6 only
  // tx 0..3 are active and they all load. 350 warps with a lane in P x 7 phases = 2,450.
  expect_figures(a.row(line_of(f, "if (Row < Width && p*TILE_WIDTH+tx < Width)"), "if"),
                 {2450, 300, 70000, 62800});
  // (Lanes: the 10,000 threads of P in each of 7 phases. Taken: all of them in phases 0 .. 5,
  // 60,000, and in phase 6 those with tx < 4: 7 block columns x 4 x 100 rows = 2,800.)
  // The load of N: Col < Width holds for every active lane, and in phase 6 the rows ty < 4 fill
  // warps 0 and 1 exactly: never divergent. Taken: 60,000 + 7 x 4 thread rows x 100 = 62,800.
  expect_figures(a.row(line_of(f, "if (p*TILE_WIDTH+ty < Width && Col < Width)"), "if"),
                 {2450, 0, 70000, 62800});
}

// ---------------------------------------------------------------------------------------------
// image_blur.cu: a 40 x 20 image, blockDim (16, 16), gridDim (3, 2), BLUR_SIZE 1.

TEST_F(Zoo, ImageBlur) {
  const std::string f = "image_blur.cu";
  const Analysis a =
      analyze(f, {"--grid", "(w-1)/16+1,(h-1)/16+1", "--block", "16,16", "--arg", "w=40", "--arg", "h=20"});
  const Dim grid{3, 2, 1}, block{16, 16, 1};
  const auto col = [](const Thread& t) { return t.bx * 16 + t.tx; };
  const auto row = [](const Thread& t) { return t.by * 16 + t.ty; };
  const auto in_image = [&](const Thread& t) { return col(t) < 40 && row(t) < 20; };
  // The outer guard by hand: 48 warps; block column 2 (columns 32..47) splits every warp with a
  // row in the image (8 in block row 0, 2 in block row 1): 10 divergent; 800 pixels taken.
  const Figures guard = count_warps(
      grid, block, 32, [](const Thread&) { return true; }, in_image);
  EXPECT_EQ(guard.divergent, 10u);
  EXPECT_EQ(guard.taken_lanes, 800u);
  expect_figures(a.row(line_of(f, "if (Col < w && Row < h)"), "if"), guard);
  // The window check, for each of the 9 offsets, evaluated by the lanes in the image.
  Figures window;
  for (int dr = -1; dr <= 1; ++dr)
    for (int dc = -1; dc <= 1; ++dc)
      window += count_warps(grid, block, 32, in_image, [&](const Thread& t) {
        const int r = row(t) + dr, c = col(t) + dc;
        return r > -1 && r < 20 && c > -1 && c < 40;
      });
  // By hand: 30 warps with a pixel x 9 offsets; taken = (3 x 20 - 2) x (3 x 40 - 2) = 58 x 118.
  EXPECT_EQ(window.warp_evaluations, 270u);
  EXPECT_EQ(window.taken_lanes, 6844u);
  expect_figures(a.row(line_of(f, "if(curRow > -1 && curRow < h && curCol > -1 && curCol < w)"), "if"),
                 window);
}

// ---------------------------------------------------------------------------------------------
// The two reductions: 2,048 inputs, blockDim 256, gridDim 4: 8 warps a block, 32 in all.
// stride takes 9 values (1 .. 256 or 256 .. 1); the loop head is tested 10 times by each warp.

TEST_F(Zoo, ReductionInterleaved) {
  const std::string f = "reduction_interleaved.cu";
  const Analysis a =
      analyze(f, {"--grid", "n/(2*256)", "--block", "256", "--arg", "n=2048", "--by-iteration"});
  // if (t % stride == 0), per block: stride 1: all true; 2 .. 32: every warp split (5 x 8 = 40);
  // 64: warps 0, 2, 4, 6 (lane 0 true, the rest false), 128: warps 0, 4; 256: warp 0: 4 + 2 + 1.
  // 47 a block, 188 of 4 x 72 = 288. Taken: 256/stride summed = 511 a block, 2,044.
  const std::uint32_t line = line_of(f, "if (t % stride == 0)");
  expect_figures(a.row(line, "if"), {288, 188, 9216, 2044});
  EXPECT_EQ(a.row(line, "if", "1").at("divergent"), "0");   // stride 1
  EXPECT_EQ(a.row(line, "if", "6").at("divergent"), "32");  // stride 32
  EXPECT_EQ(a.row(line, "if", "7").at("divergent"), "16");  // stride 64
  EXPECT_EQ(a.row(line, "if", "9").at("divergent"), "4");   // stride 256
  expect_figures(a.row(line_of(f, "for (unsigned int stride = 1;"), "for"), {320, 0, 10240, 9216});
  // if (t == 0): warp 0 of each block splits (1 lane of 32).
  expect_figures(a.row(line_of(f, "if (t == 0)"), "if"), {32, 4, 1024, 4});
  const CsvRow barrier = a.row(line_of(f, "__syncthreads();"), "barrier");
  EXPECT_EQ(barrier.at("block_executions"), "36");  // 4 blocks x 9 iterations
  EXPECT_EQ(barrier.at("partial_block_executions"), "0");
}

TEST_F(Zoo, ReductionContiguous) {
  const std::string f = "reduction_contiguous.cu";
  const Analysis a =
      analyze(f, {"--grid", "n/(2*256)", "--block", "256", "--arg", "n=2048", "--by-iteration"});
  // if (t < stride): strides 256 .. 32 leave whole warps in or out; 16 .. 1 split warp 0 only:
  // 5 of 72 a block, 20 of 288; taken 511 a block as before.
  const std::uint32_t line = line_of(f, "if (t < stride)");
  expect_figures(a.row(line, "if"), {288, 20, 9216, 2044});
  EXPECT_EQ(a.row(line, "if", "4").at("divergent"), "0");  // stride 32
  EXPECT_EQ(a.row(line, "if", "5").at("divergent"), "4");  // stride 16
  EXPECT_EQ(a.row(line, "if", "9").at("divergent"), "4");  // stride 1
  // Same answers from the brute-force loop, stride by stride.
  Figures loop;
  for (int stride = 256; stride > 0; stride /= 2)
    loop += count_warps(
        {4, 1, 1}, {256, 1, 1}, 32, [](const Thread&) { return true; },
        [stride](const Thread& t) { return t.tx < stride; });
  expect_figures(a.row(line, "if"), loop);
}

// ---------------------------------------------------------------------------------------------
// convolution_2d.cu: a 30 x 20 image, 16 x 16 blocks computing 14 x 14 outputs, gridDim (3, 2).

TEST_F(Zoo, Convolution2dHalo) {
  const std::string f = "convolution_2d.cu";
  const Analysis a = analyze(f, {"--grid", "(width-1)/14+1,(height-1)/14+1", "--block", "16,16", "--arg",
                                 "width=30", "--arg", "height=20"});
  const Dim grid{3, 2, 1}, block{16, 16, 1};
  const auto col = [](const Thread& t) { return t.bx * 14 + t.tx - 1; };
  const auto row = [](const Thread& t) { return t.by * 14 + t.ty - 1; };
  const auto all = [](const Thread&) { return true; };
  const auto in_image = [&](const Thread& t) {
    return row(t) >= 0 && row(t) < 20 && col(t) >= 0 && col(t) < 30;
  };
  const auto inner = [](const Thread& t) {
    return t.tx - 1 >= 0 && t.tx - 1 < 14 && t.ty - 1 >= 0 && t.ty - 1 < 14;
  };
  const Figures load = count_warps(grid, block, 32, all, in_image);
  // By hand: 6 x 8 = 48 warps, warp w of block row 0 holding rows 2w - 1, 2w and of block row 1
  // rows 13 + 2w, 14 + 2w. Block columns 0 (columns -1 .. 14) and 2 (27 .. 42) split every warp
  // with a row in the image: 8 + 4 each; block column 1 (13 .. 28) only where rows split a warp:
  // warp 0 of block row 0 (rows -1, 0) and warp 3 of block row 1 (rows 19, 20): 26 of 48.
  // Taken: image columns loaded 15 + 16 + 3 times, rows 15 + 7: 34 x 22 = 748.
  EXPECT_EQ(load.warp_evaluations, 48u);
  EXPECT_EQ(load.divergent, 26u);
  EXPECT_EQ(load.taken_lanes, 748u);
  expect_figures(a.row(line_of(f, "if (row >= 0 && row < height && col >= 0 && col < width)"), "if"), load);
  expect_figures(a.row(line_of(f, "if (col >= 0 && col < width && row >= 0 && row < height)"), "if"),
                 count_warps(grid, block, 32, all, in_image));
  const Figures tile = count_warps(grid, block, 32, in_image, inner);
  // Taken: every output pixel exactly once (the output tiles cover the image): 30 x 20 = 600.
  EXPECT_EQ(tile.taken_lanes, 600u);
  expect_figures(a.row(line_of(f, "if (tileCol >= 0 && tileCol < OUT_TILE_DIM"), "if"), tile);
  const CsvRow barrier = a.row(line_of(f, "__syncthreads();"), "barrier");
  EXPECT_EQ(barrier.at("block_executions"), "6");
  EXPECT_EQ(barrier.at("partial_block_executions"), "0");
}

// ---------------------------------------------------------------------------------------------
// grid_stride_loop.cu: n 1000, blockDim 128, gridDim 4: 512 threads (16 warps), stride 512.

TEST_F(Zoo, GridStrideLoop) {
  const std::string f = "grid_stride_loop.cu";
  const Analysis a = analyze(f, {"--grid", "4", "--block", "128", "--arg", "n=1000", "--by-iteration"});
  // Thread i0 = 0 .. 511 takes i0 and, when i0 + 512 < 1000 (i0 < 488), i0 + 512.
  // Head tests: 1st: 16 warps, all in (512 lanes); 2nd: 16 warps, 512 lanes, 488 stay: only
  // warp 15 (480 .. 511) splits; 3rd: the 488 lanes of warps 0 .. 15 (8 in warp 15), all out.
  // 48 evaluations, 1 divergent, 512 + 512 + 488 = 1,512 lanes, 1,000 taken.
  const std::uint32_t head = line_of(f, "for (int i = blockIdx.x");
  expect_figures(a.row(head, "for"), {48, 1, 1512, 1000});
  EXPECT_EQ(a.row(head, "for", "2").at("divergent"), "1");
  // The body: 16 warps of 32 lanes, then 16 warps with 488 lanes: 32 evaluations, 1,000 lanes.
  const CsvRow body = a.row(line_of(f, "y[i] = a * x[i] + y[i];"), "statement");
  EXPECT_EQ(body.at("warp_evaluations"), "32");
  EXPECT_EQ(body.at("active_lanes"), "1000");
}

// ---------------------------------------------------------------------------------------------
// early_return_3d.cu: 20 x 12 x 6 volume, blockDim (8, 8, 4), gridDim (3, 2, 2): 12 blocks of 8
// warps. Warp w is slice z = w / 2 of the block, rows 4 (w % 2) .. 4 (w % 2) + 3 of 8 columns.

TEST_F(Zoo, EarlyReturn3d) {
  const std::string f = "early_return_3d.cu";
  const Analysis a = analyze(f, {"--grid", "(nx+7)/8,(ny+7)/8,(nz+3)/4", "--block", "8,8,4", "--arg", "nx=20",
                                 "--arg", "ny=12", "--arg", "nz=6"});
  // The guard: 96 warps. x (bx = 2: columns 16..23 of which 16..19 are in) splits a warp; y
  // (by = 1: rows 8..11 in, 12..15 out) and z (bz = 1: slices 4, 5 in, 6, 7 out) never do. So
  // the divergent warps are those of block column 2 not retired whole by y or z: blocks
  // (2, 0, 0): 8, (2, 1, 0): 4, (2, 0, 1): 4, (2, 1, 1): 2 = 18. Lanes returning: 3,072 threads
  // less the 20 x 12 x 6 = 1,440 cells = 1,632.
  expect_figures(a.row(line_of(f, "if (x >= nx || y >= ny || z >= nz)"), "if"), {96, 18, 3072, 1632});
  // The brute-force loop agrees.
  expect_figures(a.row(line_of(f, "if (x >= nx || y >= ny || z >= nz)"), "if"),
                 count_warps(
                     {3, 2, 2}, {8, 8, 4}, 32, [](const Thread&) { return true; },
                     [](const Thread& t) {
                       return t.bx * 8 + t.tx >= 20 || t.by * 8 + t.ty >= 12 || t.bz * 4 + t.tz >= 6;
                     }));
  // return: the warps with a lane leaving: block columns 0 and 1: 0 + 4 + 4 + 6 = 14 each;
  // column 2: all 32. 60 warps, 1,632 lanes.
  const CsvRow ret = a.row(line_of(f, "    return;"), "return");
  EXPECT_EQ(ret.at("warp_evaluations"), "60");
  EXPECT_EQ(ret.at("active_lanes"), "1632");
  // The store: the warps keeping a lane: 18 per block column, 54; 1,440 lanes:
  // SIMD efficiency 1440 / (54 x 32) = 0.8333.
  const CsvRow store = a.row(line_of(f, "data[(z * ny + y) * nx + x] *= 2.0f;"), "statement");
  EXPECT_EQ(store.at("warp_evaluations"), "54");
  EXPECT_EQ(store.at("active_lanes"), "1440");
  EXPECT_EQ(store.at("simd_efficiency"), "0.8333");
}

// ---------------------------------------------------------------------------------------------
// tiled_matmul_rect.cu: its saved model (read where there is no Clang, by
// tests/analysis/lecture_source_test.cpp) is what the front-end reads from it today.

TEST_F(Zoo, LectureSourceModelIsUpToDate) {
  TempDir dir;
  const std::string saved = dir.file("rect.json");
  const CliResult r = run_in(WARPDIV_SOURCE_DIR, warpdiv_binary(),
                             {"analyze", "kernels/zoo/tiled_matmul_rect.cu", "--save-model", saved});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(read_file(saved) == read_file(kZoo + "tiled_matmul_rect.json"))
      << "kernels/zoo/tiled_matmul_rect.json is stale: save it again from the .cu (from the "
         "repository's root: warpdiv analyze kernels/zoo/tiled_matmul_rect.cu --save-model "
         "kernels/zoo/tiled_matmul_rect.json)";
}

// ---------------------------------------------------------------------------------------------
// cg_reduction.cu: n 1000, blockDim 256, gridDim 2 (two inputs per thread): 16 warps.

TEST_F(Zoo, CooperativeGroupsReduction) {
  const std::string f = "cg_reduction.cu";
  const Analysis a = analyze(f, {"--grid", "(n+511)/512", "--block", "256", "--arg", "n=1000"});
  // i + 256 < 1000: block 0 (i = 0 .. 255) always; block 1 (i = 512 .. 767) for tid < 232:
  // warp 7 (tid 224 .. 255) splits. Taken 256 + 232.
  expect_figures(a.row(line_of(f, "if (i + blockDim.x < n)"), "if"), {16, 1, 512, 488});
  // s = 128, 64 (s > 32): three tests a warp, whole warps in or out of tid < s.
  expect_figures(a.row(line_of(f, "for (unsigned int s = blockDim.x / 2"), "for"), {48, 0, 1536, 1024});
  expect_figures(a.row(line_of(f, "if (tid < s) {"), "if"), {32, 0, 1024, 384});
  const CsvRow in_loop = a.row(line_of(f, "cta.sync();"), "barrier");
  EXPECT_EQ(in_loop.at("block_executions"), "4");
  EXPECT_EQ(in_loop.at("partial_block_executions"), "0");
  EXPECT_EQ(a.row(line_of(f, "cg::sync(cta);"), "barrier").at("block_executions"), "2");
  // thread_rank() < 32 is warp 0 of each block; tile32.size() is 32: offsets 16 .. 1, six tests.
  expect_figures(a.row(line_of(f, "if (cta.thread_rank() < 32)"), "if"), {16, 0, 512, 64});
  expect_figures(a.row(line_of(f, "for (int offset = tile32.size() / 2"), "for"), {12, 0, 384, 320});
  expect_figures(a.row(line_of(f, "if (cta.thread_rank() == 0)"), "if"), {16, 2, 512, 2});
}

// ---------------------------------------------------------------------------------------------
// tiled_transpose.cu: width 40, height 20, blockDim (32, 8), gridDim (2, 1): a warp is one row.

TEST_F(Zoo, TiledTranspose) {
  const std::string f = "tiled_transpose.cu";
  const Analysis a = analyze(f, {"--grid", "(width+31)/32,(height+31)/32", "--block", "32,8", "--arg",
                                 "width=40", "--arg", "height=20"});
  const Dim grid{2, 1, 1}, block{32, 8, 1};
  // Loads: row ty + j < 20 in 20 of 32 (warp, j) pairs per block; block 0's columns 0 .. 31 are
  // all inside, block 1's 32 .. 63 only for tx < 8: its 20 in-range pairs split. 40 x 20 taken.
  Figures load;
  for (int j = 0; j < 32; j += 8)
    load += count_warps(
        grid, block, 32, [](const Thread&) { return true; },
        [j](const Thread& t) { return t.bx * 32 + t.tx < 40 && t.ty + j < 20; });
  EXPECT_EQ(load.warp_evaluations, 64u);
  EXPECT_EQ(load.divergent, 20u);
  EXPECT_EQ(load.taken_lanes, 800u);
  expect_figures(a.row(line_of(f, "if (xIndex < width && yIndex + j < height)"), "if"), load);
  // Stores: columns tx < 20 of the output split every warp that is in range: all 32 pairs of
  // block 0 (rows 0 .. 31 of 40), only j = 0 in block 1 (rows 32 .. 39).
  expect_figures(a.row(line_of(f, "if (xOut < height && yOut + j < width)"), "if"), {64, 40, 2048, 800});
  const CsvRow barrier = a.row(line_of(f, "cg::sync(cta);"), "barrier");
  EXPECT_EQ(barrier.at("block_executions"), "2");
  EXPECT_EQ(barrier.at("partial_block_executions"), "0");
}

}  // namespace
}  // namespace warpdiv::testing
