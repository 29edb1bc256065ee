// Fibers (sim/support/fiber.hpp): the replay's warps of a block take turns between barriers on them.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/support/fiber.hpp"

namespace warpdiv::sim {
namespace {

// Three bodies that yield 1, 2 and 3 times, resumed round after round: the order of their steps
// is round by round, each round in fiber order, as the replay runs a block's warps phase by phase.
TEST(Fiber, RoundsInterleaveAsResumed) {
  std::vector<std::unique_ptr<Fiber>> f;
  std::string trace;
  for (int i = 0; i < 3; ++i) {
    f.push_back(std::make_unique<Fiber>(std::size_t{1} << 24));
    f.back()->start([&trace, i] {
      for (int k = 0; k <= i; ++k) {
        trace += static_cast<char>('a' + i);
        trace += static_cast<char>('0' + k);
        Fiber::yield();
      }
      trace += static_cast<char>('A' + i);
    });
  }
  std::vector<bool> running(3, true);
  int rounds = 0;
  for (bool any = true; any; ++rounds) {
    any = false;
    for (int i = 0; i < 3; ++i)
      if (running[i]) any = (running[i] = f[i]->resume()) || any;
  }
  EXPECT_EQ(trace, "a0b0c0Ab1c1Bc2C");
  EXPECT_EQ(rounds, 4);
  EXPECT_FALSE(f[0]->resume());  // ended: nothing more to run
}

// An exception a body throws ends it and comes out of resume(); a suspended body that is
// cancelled is unwound (its locals destroyed), and the fiber takes a new body after.
TEST(Fiber, ExceptionsComeOutAndCancelUnwinds) {
  Fiber f(std::size_t{1} << 24);
  f.start([] {
    Fiber::yield();
    throw std::runtime_error("out of the body");
  });
  EXPECT_TRUE(f.resume());
  EXPECT_THROW(f.resume(), std::runtime_error);
  auto alive = std::make_shared<int>(7);
  std::weak_ptr<int> watch = alive;
  f.start([held = std::move(alive)] {
    const std::shared_ptr<int> copy = held;
    Fiber::yield();
    ADD_FAILURE() << "a cancelled body went on";
  });
  EXPECT_TRUE(f.resume());
  EXPECT_TRUE(f.suspended());
  f.cancel();
  EXPECT_FALSE(f.suspended());
  f.start([] {});  // the old body and its copy are gone
  EXPECT_TRUE(watch.expired());
  EXPECT_FALSE(f.resume());
  EXPECT_THROW(Fiber::yield(), std::logic_error);  // not inside a fiber
}

}  // namespace
}  // namespace warpdiv::sim
