// Mandelbrot (kernels/zoo/data/mandelbrot.cu): a loop whose trip count differs by pixel through
// binary32 arithmetic only. By hand on a line of five pixels, and against a second implementation
// (a plain loop per pixel written here, with the FMAs nvcc makes: cx, cy and the new y) on a 64 x
// 48 image, warp by warp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/frontend/frontend.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/model_text.hpp"

namespace warpdiv::sim::ir {
namespace {

Kernel mandelbrot() {
  frontend::FrontendOptions o;
  o.file = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/data/mandelbrot.cu";
  return frontend::load_kernel(o);
}

Value floating(float f) {
  std::uint32_t b = 0;
  std::memcpy(&b, &f, sizeof b);
  return Value{ScalarType::F32, b};
}

struct Image {
  int width, height;
  float x0, y0, dx, dy;
  int max_iter;
  Dim3 grid, block;
};

Launch launch_of(const Image& im) {
  Launch l;
  l.grid = im.grid;
  l.block = im.block;
  l.arguments = {Value{},
                 Value::of(ScalarType::I32, im.width),
                 Value::of(ScalarType::I32, im.height),
                 floating(im.x0),
                 floating(im.y0),
                 floating(im.dx),
                 floating(im.dy),
                 Value::of(ScalarType::I32, im.max_iter)};
  return l;
}

constexpr std::uint32_t kLoopLine = 21, kBodyLine = 22;

// c = -2, -1, 0, 1, 2 on one line, max_iter 10, one warp of 5 lanes. By hand: c = -2 (0, -2, 2,
// 2 ... |z|^2 = 4 <= 4 forever), -1 (0, -1, 0, -1 ...) and 0 never escape: 10 iterations; c = 1
// (0, 1, 2, 5: 25 > 4 at the 4th test) runs 3; c = 2 (0, 2, 6) runs 2. The loop test runs 11
// times: divergent at the 3rd (c = 2 leaves) and the 4th (c = 1 leaves); at the 11th the three
// remaining lanes all leave (iter < max_iter fails). Active lanes 5+5+5+4+3x7 = 40, taken
// 5+5+4+3+3x6 = 35 (= the body's lanes). Flops: x*x + y*y (3) where iter < max_iter held
// (5+5+5+4+3x6 = 37 lanes): 111; the body 4 + 3 per lane (x*x - y*y + cx; 2*x, then an FMA):
// 35 x 7 = 245; cx and cy one FMA each: 5 x 2 x 2 = 20.
TEST(MandelbrotKernel, FivePixelsByHand) {
  const Kernel k = mandelbrot();
  const Image im{5, 1, -2.0f, 0.0f, 1.0f, 0.0f, 10, Dim3{1, 1, 1}, Dim3{5, 1, 1}};
  const ReplayResult r = replay(k, launch_of(im), ReplayOptions{});
  const StatementCounts& loop = r.statements[testing::statement_at(k, kLoopLine, StmtKind::Loop)];
  EXPECT_EQ(to_decimal(loop.warp_evaluations), "11");
  EXPECT_EQ(to_decimal(loop.divergent), "2");
  EXPECT_EQ(to_decimal(loop.active_lanes), "40");
  EXPECT_EQ(to_decimal(loop.taken_lanes), "35");
  const StatementCounts& body = r.statements[testing::statement_at(k, kBodyLine, StmtKind::Declare)];
  EXPECT_EQ(to_decimal(body.warp_evaluations), "10");
  EXPECT_EQ(to_decimal(body.active_lanes), "35");
  ASSERT_FALSE(r.flops.empty());
  Count total = 0;
  for (const Count& f : r.flops) total += f;
  EXPECT_EQ(to_decimal(total), "376");
}

// The second implementation: each pixel's escape time as nvcc computes it, then the warp's loop
// tests (the most any lane runs, plus one), divergent tests (some lane leaves while another
// stays) and body runs.
struct Expected {
  std::uint64_t loop = 0, divergent = 0, body = 0;
};

int escape_time(const Image& im, int px, int py) {
  const float cx = std::fmaf(static_cast<float>(px), im.dx, im.x0);
  const float cy = std::fmaf(static_cast<float>(py), im.dy, im.y0);
  float x = 0.0f, y = 0.0f;
  int iter = 0;
  while (iter < im.max_iter) {
    const float x2 = x * x, y2 = y * y;  // one product each, shared by the test and the body
    if (!(x2 + y2 <= 4.0f)) break;
    const float xt = (x2 - y2) + cx;
    y = std::fmaf(2.0f * x, y, cy);
    x = xt;
    ++iter;
  }
  return iter;
}

Expected expected(const Image& im) {
  Expected e;
  const std::uint32_t bx = im.block.x, by = im.block.y, threads = bx * by;
  for (std::uint32_t gy = 0; gy < im.grid.y; ++gy)
    for (std::uint32_t gx = 0; gx < im.grid.x; ++gx)
      for (std::uint32_t w = 0; w * 32 < threads; ++w) {
        std::vector<int> iters;
        for (std::uint32_t t = w * 32; t < std::min(threads, w * 32 + 32); ++t) {
          const int px = static_cast<int>(gx * bx + t % bx), py = static_cast<int>(gy * by + t / bx);
          if (px < im.width && py < im.height) iters.push_back(escape_time(im, px, py));
        }
        if (iters.empty()) continue;
        const int most = *std::max_element(iters.begin(), iters.end());
        e.loop += static_cast<std::uint64_t>(most) + 1;
        e.body += static_cast<std::uint64_t>(most);
        for (int test = 0; test <= most; ++test) {
          bool leaves = false, stays = false;
          for (int it : iters) {
            leaves = leaves || it == test;
            stays = stays || it > test;
          }
          if (leaves && stays) ++e.divergent;
        }
      }
  return e;
}

TEST(MandelbrotKernel, ImageAgreesWithAPerPixelLoop) {
  const Kernel k = mandelbrot();
  // 64 x 48 pixels from (-2, -1.125) in steps of 3/64 (exact in binary32), blocks of 16 x 16 (a
  // warp is two rows of 16), and the same image cut by a grid that does not divide it.
  for (const Image& im :
       {Image{64, 48, -2.0f, -1.125f, 0.046875f, 0.046875f, 64, Dim3{4, 3, 1}, Dim3{16, 16, 1}},
        Image{50, 37, -2.0f, -1.125f, 0.06f, 0.06f, 100, Dim3{7, 5, 1}, Dim3{8, 8, 1}}}) {
    SCOPED_TRACE(std::to_string(im.width) + " x " + std::to_string(im.height));
    const ReplayResult r = replay(k, launch_of(im), ReplayOptions{});
    const Expected e = expected(im);
    const StatementCounts& loop = r.statements[testing::statement_at(k, kLoopLine, StmtKind::Loop)];
    EXPECT_EQ(to_decimal(loop.warp_evaluations), std::to_string(e.loop));
    EXPECT_EQ(to_decimal(loop.divergent), std::to_string(e.divergent));
    EXPECT_EQ(
        to_decimal(r.statements[testing::statement_at(k, kBodyLine, StmtKind::Declare)].warp_evaluations),
        std::to_string(e.body));
    EXPECT_GT(e.divergent, 0u);
  }
}

// The escape times the model's stores leave in `out` (ReplayOptions::capture_stores): pixel by
// pixel those of the per-pixel loop; pixels outside the image are never written.
TEST(MandelbrotKernel, StoredEscapeTimesAreThePerPixelLoops) {
  const Kernel k = mandelbrot();
  const Image im{50, 37, -2.0f, -1.125f, 0.06f, 0.06f, 100, Dim3{7, 5, 1}, Dim3{8, 8, 1}};
  ReplayOptions o;
  o.capture_stores = true;
  const ReplayResult r = replay(k, launch_of(im), o);
  EXPECT_EQ(r.stores_not_captured, "");
  ASSERT_EQ(r.stored.size(), k.parameters.size());
  const StoredBuffer& out = r.stored[0];
  ASSERT_EQ(out.bytes.size(), 50u * 37u * 4u);
  int wrong = 0;
  for (int py = 0; py < im.height; ++py)
    for (int px = 0; px < im.width; ++px) {
      const std::size_t at = (static_cast<std::size_t>(py) * im.width + px) * 4;
      std::int32_t stored = 0;
      std::memcpy(&stored, out.bytes.data() + at, 4);
      for (int i = 0; i < 4; ++i) EXPECT_EQ(out.state[at + i], StoredBuffer::kWritten);
      if (stored != escape_time(im, px, py)) ++wrong;
    }
  EXPECT_EQ(wrong, 0);
}

// kernels/zoo/data/fma_shapes.cu: each stored result against the same arithmetic written here
// with std::fmaf where nvcc contracts (the SASS in data/validation/fma-contraction/).
TEST(FmaShapesKernel, StoredResultsRoundAsNvccContracts) {
  frontend::FrontendOptions fo;
  fo.file = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/data/fma_shapes.cu";
  const Kernel k = frontend::load_kernel(fo);
  const float a = 1.1f, b = 2.3f, c = -0.7f;
  const int n = 5;
  Launch l;
  l.grid = Dim3{4, 1, 1};
  l.block = Dim3{64, 1, 1};
  l.arguments = {Value{}, floating(a), floating(b), floating(c), Value::of(ScalarType::I32, n)};
  ReplayOptions o;
  o.capture_stores = true;
  const ReplayResult r = replay(k, l, o);
  ASSERT_EQ(r.stored[0].bytes.size(), 256u * 16u);
  int wrong = 0, fused_differs = 0;
  for (int i = 0; i < 256; ++i) {
    const float x = std::fmaf(static_cast<float>(i), 0.37f, a);
    float s = c;
    for (int j = 0; j < n; ++j) s = std::fmaf(a, b, s);
    const float u = std::fmaf(x, b, c);
    const float w = std::fmaf(x, x, s);
    const float w2 = std::fmaf(-x, a, s);
    // q = p is a copy: q + a contracts (the real kernel on the H200, data/validation/float/shapes).
    const float expected[4] = {s, u, w > 100.0f ? 0.0f : w + w2, std::fmaf(x, c, a)};
    for (int e = 0; e < 4; ++e) {
      float got = 0;
      std::memcpy(&got, r.stored[0].bytes.data() + (4 * i + e) * 4, 4);
      if (std::memcmp(&got, &expected[e], 4) != 0) ++wrong;
    }
    // The test can tell: rounding the product first gives other bits in most lanes.
    if (x * b + c != u) ++fused_differs;
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(fused_differs, 20);
  EXPECT_EQ(to_decimal(r.statements[testing::statement_at(k, 22, StmtKind::If)].divergent), "1");
}

}  // namespace
}  // namespace warpdiv::sim::ir
