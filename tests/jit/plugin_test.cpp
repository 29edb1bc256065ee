// The native replay's plugin (libwarpdiv-jit.so) as the CLI meets it, loaded into a process of its
// own copy of sim/ (this test links no LLVM): its entry point hands nothing out for another version
// of the launch plan, and for this one a compiler that reads this process's serialised plans,
// whose code counts as this process's interpreter.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/ir_native.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/support/count.hpp"
#include "sim/model/ir_json.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;
namespace detail = sim::ir::detail;

using Entry = void* (*)(std::uint64_t);

Entry entry_point() {
  void* handle = ::dlopen(WARPDIV_JIT_PLUGIN, RTLD_NOW | RTLD_LOCAL);  // kept loaded (its code lives in it)
  if (handle == nullptr) ADD_FAILURE() << ::dlerror();
  return handle == nullptr ? nullptr : reinterpret_cast<Entry>(::dlsym(handle, "warpdiv_native_compiler"));
}

TEST(NativePlugin, RefusesAnotherVersionAndCountsThisOnesPlans) {
  const Entry entry = entry_point();
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry(detail::kLaunchPlanVersion + 1), nullptr);
  EXPECT_EQ(entry(detail::kLaunchPlanVersion - 1), nullptr);
  const auto compile = reinterpret_cast<detail::NativePlanCompiler>(entry(detail::kLaunchPlanVersion));
  ASSERT_NE(compile, nullptr);
  // The zoo's tiled multiply (its saved model; tiles of 16): P = M x N of 64 x 64 matrices, 4 x 4
  // blocks of 256 threads (8 warps).
  const ir::Kernel kernel =
      ir::load_kernel(std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/tiled_matmul_rect.json");
  ir::Launch l;
  l.block = {16, 16, 1};
  l.grid = {4, 4, 1};
  for (const ir::Parameter& p : kernel.parameters)
    l.arguments.push_back(p.scalar ? ir::Value::of(p.type, 64) : ir::Value{});
  ir::ReplayOptions o;
  o.native = ir::NativeReplay::Off;
  const ir::ReplayResult reference = ir::replay(kernel, l, o);
  const detail::LaunchPlan plan(std::make_shared<const ir::Kernel>(kernel), l, detail::plan_options(o));
  const std::string bytes = detail::serialize(plan);
  const detail::NativeCompiled compiled = compile(bytes.data(), bytes.size(), true);
  ASSERT_NE(compiled.code, nullptr) << compiled.refusal;
  const std::vector<const char*> data(kernel.bases.size(), nullptr);
  detail::NativeRun run;
  run.data = data.data();
  const std::unique_ptr<detail::NativeWorker> worker = compiled.code->worker(run);
  std::vector<ir::StatementCounts> statements(kernel.stmts.size());
  std::vector<ir::AccessCounts> accesses(kernel.accesses.size());
  std::vector<std::uint64_t> flops(kernel.stmts.size());
  std::vector<ir::BaseExtent> extents(kernel.accesses.size());
  detail::NativeTally tally{statements.data(), accesses.data(), flops.data(), extents.data()};
  for (std::uint32_t y = 0; y < 4; ++y)
    for (std::uint32_t x = 0; x < 4; ++x)
      ASSERT_EQ(worker->run_block(x, y, 0, tally).kind, detail::NativeOutcome::Kind::Done);
  EXPECT_EQ(tally.blocks, 16u);
  EXPECT_EQ(tally.warps, 16u * 8u);
  EXPECT_EQ(sim::to_decimal(tally.evaluations), sim::to_decimal(reference.warp_statement_evaluations));
  for (std::size_t s = 0; s < statements.size(); ++s)
    EXPECT_TRUE(statements[s] == reference.statements[s]) << "statement " << s;
  for (std::size_t a = 0; a < accesses.size(); ++a) EXPECT_TRUE(accesses[a] == reference.accesses[a]) << a;
  // Bytes of another version: refused with the reason, the launch left to the interpreter.
  std::string other = bytes;
  other[8] = static_cast<char>(other[8] + 1);
  const detail::NativeCompiled refused = compile(other.data(), other.size(), true);
  EXPECT_EQ(refused.code, nullptr);
  EXPECT_STREQ(refused.refusal, "the launch plan is of another version than the native replay reads");
}

}  // namespace
}  // namespace warpdiv::testing
