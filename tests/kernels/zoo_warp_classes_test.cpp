// Warp classes (a block's warps run by classes, as its blocks are found): on launches whose blocks
// hold several warps, the class engine must give what it gives when it runs every warp (an
// observer on the run turns warp classes off: it wants every warp's evaluations) in every figure
// it reports: the counts, the block classes, each warp's outcomes, the iteration classes with
// their outcomes per warp. The counts are also compared with the replay of every block, and the
// engine must run fewer warps than there are. Kernels where a condition is not affine in the
// warp's index fall back to running every warp.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "sim/support/count.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/zoo_launches.hpp"

namespace warpdiv::sim::ir {
namespace {

// Turns warp classes off without changing anything else.
struct Silent : EvaluationObserver {
  void evaluation(const Dim3&, std::uint32_t, StmtId, std::uint64_t, std::uint64_t) override {}
};

void expect_same_classes(const ClassReplayResult& want, const ClassReplayResult& got) {
  ASSERT_EQ(want.statements.size(), got.statements.size());
  for (std::size_t s = 0; s < want.statements.size(); ++s)
    EXPECT_TRUE(want.statements[s] == got.statements[s]) << "statement " << s;
  EXPECT_EQ(to_decimal(want.warps), to_decimal(got.warps));
  EXPECT_EQ(to_decimal(want.warp_statement_evaluations), to_decimal(got.warp_statement_evaluations));
  ASSERT_EQ(want.classes.size(), got.classes.size());
  for (std::size_t c = 0; c < want.classes.size(); ++c) {
    const BlockClass& a = want.classes[c];
    const BlockClass& b = got.classes[c];
    SCOPED_TRACE("class " + a.definition);
    EXPECT_EQ(a.definition, b.definition);
    EXPECT_EQ(to_decimal(a.blocks), to_decimal(b.blocks));
    EXPECT_EQ(a.warps, b.warps);
    EXPECT_TRUE(a.statements == b.statements);
    EXPECT_TRUE(a.outcomes == b.outcomes);
    ASSERT_EQ(a.iteration_classes.size(), b.iteration_classes.size());
    for (std::size_t i = 0; i < a.iteration_classes.size(); ++i) {
      const IterationClass& x = a.iteration_classes[i];
      const IterationClass& y = b.iteration_classes[i];
      EXPECT_EQ(x.loop, y.loop);
      EXPECT_EQ(x.first, y.first);
      EXPECT_EQ(x.last, y.last);
      EXPECT_EQ(x.definition, y.definition);
      EXPECT_EQ(x.merged, y.merged);
      EXPECT_TRUE(x.statements == y.statements) << x.definition;
      EXPECT_TRUE(x.outcomes == y.outcomes) << x.definition;
    }
  }
}

// Blocks of several warps whose threads fall into warps affinely (1-D blocks of whole warps, or
// rows that fit a warp a whole number of times), and some that do not.
Launch warp_launch(const Kernel& k, std::mt19937_64& rng, std::string& what) {
  const auto pick = [&](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(rng);
  };
  Launch l;
  l.warp_size = pick(0, 1) == 0 ? 32 : 1 << pick(2, 4);
  const std::uint32_t w = l.warp_size;
  switch (pick(0, 3)) {
    case 0:
      l.block = Dim3{w * static_cast<std::uint32_t>(pick(3, 8)), 1, 1};
      break;
    case 1: {
      const std::uint32_t bx = w >> pick(0, 2);
      const std::uint32_t rows = w / bx;
      l.block = Dim3{bx, rows * static_cast<std::uint32_t>(pick(3, 6)), 1};
      break;
    }
    case 2:
      l.block = Dim3{w, static_cast<std::uint32_t>(pick(3, 6)), 1};
      break;
    default:  // not affine in the warp: every warp runs
      l.block =
          Dim3{static_cast<std::uint32_t>(pick(w + 1, 2 * w + 3)), static_cast<std::uint32_t>(pick(1, 3)), 1};
  }
  l.grid = Dim3{static_cast<std::uint32_t>(pick(1, 9)), static_cast<std::uint32_t>(pick(1, 4)),
                static_cast<std::uint32_t>(pick(1, 2))};
  what = k.files[0].path + " grid " + to_string(l.grid) + " block " + to_string(l.block) + " warp " +
         std::to_string(l.warp_size);
  for (const Parameter& p : k.parameters) {
    const std::int64_t v = is_signed(p.type) ? pick(-3, 150) : pick(0, 150);
    l.arguments.push_back(p.scalar ? Value::of(p.type, v) : Value{});
    if (p.scalar) what += " " + p.name + "=" + std::to_string(v);
  }
  return l;
}

TEST(ZooWarpClasses, SameFiguresAsRunningEveryWarp) {
  std::mt19937_64 rng(20261122);
  std::vector<Kernel> kernels;
  for (const std::string& f : zoo::files()) kernels.push_back(zoo::load(f));
  ASSERT_GE(kernels.size(), 10u);
  int compared = 0, fewer = 0;
  for (int i = 0; i < 600; ++i) {
    const Kernel& k = kernels[static_cast<std::size_t>(i) % kernels.size()];
    std::string what;
    const Launch l = warp_launch(k, rng, what);
    SCOPED_TRACE(what);
    ReplayOptions o;
    o.threads = 1;
    const std::optional<ReplayResult> want = zoo::replay_unless_refused(k, l, o);
    const ClassPlan plan = plan_classes(k, l);
    ASSERT_TRUE(plan.ok()) << plan.refusal->message();
    Silent silent;
    ReplayOptions every = o;
    every.observer = &silent;
    if (!want) {
      EXPECT_THROW(class_replay(k, l, plan, o), InvalidInput);
      continue;
    }
    const ClassReplayResult all = class_replay(k, l, plan, every);
    const ClassReplayResult got = class_replay(k, l, plan, o);
    for (std::size_t s = 0; s < got.statements.size(); ++s)
      EXPECT_TRUE(want->statements[s] == got.statements[s]) << "statement " << s;
    expect_same_classes(all, got);
    // Running every warp: each block replayed runs all of its warps once.
    const Count warps_per_block = (l.block.volume() + l.warp_size - 1) / l.warp_size;
    EXPECT_EQ(to_decimal(all.warps_replayed), to_decimal(checked_mul(all.blocks_replayed, warps_per_block)));
    if (got.warps_replayed < all.warps_replayed) ++fewer;
    ++compared;
    if (::testing::Test::HasFailure()) break;
  }
  std::printf("compared %d, fewer warps run in %d\n", compared, fewer);
  EXPECT_GT(compared, 500);
  // Most launches' warps fall into classes (a fourth of the blocks are not affine in the warp).
  EXPECT_GT(fewer, compared / 3);
}

// The lecture's blur at its largest launch (blockDim 16 x 16: 8 warps of two rows each): warp 0
// alone holds row 0 (the window's row -1 is outside the image in block row 0), and the other
// warps fall into one class, so far fewer warps run than the 16 replayed blocks hold.
TEST(ZooWarpClasses, BlurAtItsLargestLaunch) {
  const Kernel k = zoo::load("image_blur.cu");
  Launch l;
  l.grid = Dim3{134217728, 65535, 1};
  l.block = Dim3{16, 16, 1};
  for (const Parameter& p : k.parameters)
    l.arguments.push_back(p.scalar ? Value::of(p.type, p.name == "w" ? 2147483647 : 1048560) : Value{});
  const ClassPlan plan = plan_classes(k, l);
  ASSERT_TRUE(plan.ok());
  Silent silent;
  ReplayOptions every;
  every.observer = &silent;
  const ClassReplayResult all = class_replay(k, l, plan, every);
  const ClassReplayResult got = class_replay(k, l, plan);
  expect_same_classes(all, got);
  EXPECT_EQ(to_decimal(all.warps_replayed), to_decimal(checked_mul(all.blocks_replayed, Count{8})));
  EXPECT_LT(got.warps_replayed * 2, all.warps_replayed);
}

}  // namespace
}  // namespace warpdiv::sim::ir
