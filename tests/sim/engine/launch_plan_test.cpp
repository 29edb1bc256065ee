// The launch plan (sim/engine/launch_plan.hpp) as a value: serialised and read back, every field
// is the original's and the interpreter counts the same on it as on the original and as replay();
// bytes of another version, cut short or followed by more are refused; a plan holds its model and
// none of a launch's data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/launch_plan.hpp"
#include "sim/model/ir_json.hpp"
#include "sim/support/errors.hpp"
#include "tests/kernels/replay_compare.hpp"
#include "tests/kernels/zoo_launches.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;
namespace detail = sim::ir::detail;

ir::ReplayOptions interpreted() {
  ir::ReplayOptions o;
  o.native = ir::NativeReplay::Off;
  o.threads = 1;
  o.max_evaluations = 500000;
  return o;
}

// The interpreter's figures on `plan`, or the refusal's message.
ReplayOutcome run(const detail::LaunchPlan& plan, const ir::Launch& l, const ir::ReplayOptions& o) {
  ReplayOutcome out;
  try {
    out.result = detail::replay_plan(plan, l, o);
  } catch (const InvalidInput& e) {
    out.refusal = e.what();
  }
  return out;
}

// The fields read back compared one by one with the original's (not through the bytes).
void expect_same_fields(const detail::LaunchPlan& a, const detail::LaunchPlan& b) {
  EXPECT_EQ(ir::to_json(a.kernel), ir::to_json(b.kernel));
  EXPECT_EQ(a.launch.grid, b.launch.grid);
  EXPECT_EQ(a.launch.block, b.launch.block);
  EXPECT_EQ(a.launch.buffer_bytes, b.launch.buffer_bytes);
  EXPECT_EQ(a.options.memory, b.options.memory);
  EXPECT_EQ(a.options.capture_stores, b.options.capture_stores);
  EXPECT_EQ(a.warps_per_block, b.warps_per_block);
  EXPECT_EQ(a.threads_per_block, b.threads_per_block);
  ASSERT_EQ(a.warps.size(), b.warps.size());
  for (std::size_t w = 0; w < a.warps.size(); ++w) {
    EXPECT_EQ(a.warps[w].existing, b.warps[w].existing);
    EXPECT_EQ(a.warps[w].index, b.warps[w].index);
    EXPECT_EQ(a.warps[w].uniform, b.warps[w].uniform);
  }
  ASSERT_EQ(a.exprs.size(), b.exprs.size());
  for (std::size_t i = 0; i < a.exprs.size(); ++i) {
    EXPECT_EQ(a.exprs[i].kind, b.exprs[i].kind) << i;
    EXPECT_EQ(a.exprs[i].constant, b.exprs[i].constant) << i;
    EXPECT_EQ(a.exprs[i].index, b.exprs[i].index) << i;
    EXPECT_EQ(a.exprs[i].binary, b.exprs[i].binary) << i;
    EXPECT_EQ(a.exprs[i].binary_lanes, b.exprs[i].binary_lanes) << i;
    EXPECT_EQ(a.exprs[i].cast_lanes, b.exprs[i].cast_lanes) << i;
  }
  EXPECT_EQ(a.barrier, b.barrier);
  EXPECT_EQ(a.skip_value, b.skip_value);
  EXPECT_EQ(a.checks, b.checks);
  EXPECT_EQ(a.has_memory, b.has_memory);
  ASSERT_EQ(a.memory.size(), b.memory.size());
  for (std::size_t s = 0; s < a.memory.size(); ++s) {
    ASSERT_EQ(a.memory[s].accesses.size(), b.memory[s].accesses.size());
    for (std::size_t i = 0; i < a.memory[s].accesses.size(); ++i) {
      EXPECT_EQ(a.memory[s].accesses[i].id, b.memory[s].accesses[i].id);
      EXPECT_EQ(a.memory[s].accesses[i].affine, b.memory[s].accesses[i].affine);
      EXPECT_EQ(a.memory[s].accesses[i].same_as, b.memory[s].accesses[i].same_as);
    }
    EXPECT_EQ(a.memory[s].flops.size(), b.memory[s].flops.size());
    EXPECT_EQ(a.memory[s].kept.size(), b.memory[s].kept.size());
  }
  ASSERT_EQ(a.affine_offsets.size(), b.affine_offsets.size());
  for (std::size_t i = 0; i < a.affine_offsets.size(); ++i) {
    EXPECT_TRUE(a.affine_offsets[i].form.constant == b.affine_offsets[i].form.constant);
    EXPECT_EQ(a.affine_offsets[i].checks.size(), b.affine_offsets[i].checks.size());
    EXPECT_EQ(a.affine_offsets[i].small_form.coefficient, b.affine_offsets[i].small_form.coefficient);
  }
  EXPECT_EQ(a.base_bytes, b.base_bytes);
  EXPECT_EQ(a.shared_at, b.shared_at);
  EXPECT_EQ(a.global_at, b.global_at);
  EXPECT_EQ(a.local_at, b.local_at);
  EXPECT_EQ(a.followed, b.followed);
  EXPECT_EQ(a.kept, b.kept);
  EXPECT_EQ(a.kept_locals, b.kept_locals);
  EXPECT_EQ(a.canonical, b.canonical);
  EXPECT_EQ(a.arguments, b.arguments);
  EXPECT_EQ(a.stores_not_captured, b.stores_not_captured);
}

TEST(LaunchPlan, ReadBackEqualAndCountsTheSameOnZooKernels) {
  std::mt19937_64 rng(20261129);
  int compared = 0;
  for (const std::string& f : ir::zoo::files()) {
    const ir::Kernel k = ir::zoo::load(f);
    for (int i = 0; i < 4; ++i) {
      std::string what;
      ir::Launch l = ir::zoo::random_launch(k, rng, 4, 2, 40, what);
      if (i % 2 == 1) ir::zoo::random_buffers(k, l, rng, what);  // shared memory followed by value
      ir::ReplayOptions o = interpreted();
      o.memory = i != 2;
      o.capture_stores = i == 3;
      SCOPED_TRACE(what);
      try {
        ir::validate(l, k);
      } catch (const InvalidInput&) {
        continue;  // a launch the kernel does not take (a data-dependent branch without buffers)
      }
      const detail::LaunchPlan plan(std::make_shared<const ir::Kernel>(k), l, detail::plan_options(o));
      const std::string bytes = detail::serialize(plan);
      const detail::LaunchPlan back = detail::deserialize(bytes);
      expect_same_fields(plan, back);
      EXPECT_TRUE(plan == back);
      EXPECT_EQ(detail::serialize(back), bytes);
      const ReplayOutcome original = run(plan, l, o), read_back = run(back, l, o);
      const ReplayOutcome reference = replay_outcome(k, l, o);
      EXPECT_EQ(read_back.refusal, original.refusal);
      EXPECT_EQ(original.refusal, reference.refusal);
      if (original.result && read_back.result) {
        expect_same_figures(k, *read_back.result, *original.result);
        expect_same_figures(k, *original.result, *reference.result);
        ++compared;
      }
      if (::testing::Test::HasFailure()) return;
    }
  }
  EXPECT_GT(compared, 30);  // most launches run (else this compared refusals only)
}

// A plan of the zoo's vector copy and its bytes.
struct VectorCopy {
  ir::Kernel kernel = ir::zoo::load("vector_copy.cu");
  ir::Launch launch;
  std::string bytes;
  VectorCopy() {
    launch.grid = ir::Dim3{3, 1, 1};
    launch.block = ir::Dim3{64, 1, 1};
    for (const ir::Parameter& p : kernel.parameters)
      launch.arguments.push_back(p.scalar ? ir::Value::of(p.type, 150) : ir::Value{});
    bytes = detail::serialize(detail::LaunchPlan(std::make_shared<const ir::Kernel>(kernel), launch, {}));
  }
};

// The message deserialize refuses `bytes` with ("" when it reads them), with its diagnostic.
std::string refusal(const std::string& bytes) {
  try {
    (void)detail::deserialize(bytes);
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.diag(), Diag::file_format);
    return e.what();
  }
  return "";
}

TEST(LaunchPlan, AnotherVersionIsRefused) {
  const VectorCopy v;
  EXPECT_EQ(detail::plan_version(v.bytes), detail::kLaunchPlanVersion);
  std::string other = v.bytes;
  other[8] = static_cast<char>(other[8] + 1);  // the version's low byte, after the 8-byte magic
  EXPECT_EQ(detail::plan_version(other), detail::kLaunchPlanVersion + 1);
  EXPECT_EQ(refusal(other), "the launch plan does not read: it is of version " +
                                std::to_string(detail::kLaunchPlanVersion + 1) +
                                ", this build reads version " + std::to_string(detail::kLaunchPlanVersion));
  EXPECT_EQ(refusal("not a plan at all"),
            "the launch plan does not read: it is not a launch plan (no header)");
  EXPECT_EQ(detail::plan_version("not a plan at all"), 0u);
}

TEST(LaunchPlan, TruncatedOrTrailingBytesAreRefused) {
  const VectorCopy v;
  ASSERT_EQ(refusal(v.bytes), "");
  // Cut anywhere (the header, the model, each field of the tables at the end): refused.
  for (std::size_t cut = 0; cut < v.bytes.size(); cut += cut < 16 || cut + 200 > v.bytes.size() ? 1 : 97)
    EXPECT_NE(refusal(v.bytes.substr(0, cut)), "") << "cut at " << cut << " of " << v.bytes.size();
  EXPECT_EQ(refusal(v.bytes.substr(0, v.bytes.size() - 1)),
            "the launch plan does not read: it ends early, at byte " + std::to_string(v.bytes.size() - 1));
  EXPECT_EQ(refusal(v.bytes + "xy"), "the launch plan does not read: 2 bytes follow its end (at byte " +
                                         std::to_string(v.bytes.size()) + ")");
}

// Zoo plans whose every index is set, in turn, out of its range (past its table's end, far past
// it, the largest int32, below kNone): each such plan is refused as a file-format error that names
// the field, and none crashes. (Sizes per kernel: exprs, statements, locals, accesses, bases,
// barriers, affine offsets, parameters of its model.)
struct Corruption {
  std::string field;                                     // the name the refusal gives
  std::function<std::int32_t*(detail::LaunchPlan&)> at;  // the index in a copy of the plan
  std::int32_t size;                                     // its table's size: the first value out of range
};

std::vector<Corruption> index_fields(const detail::LaunchPlan& plan) {
  std::vector<Corruption> all;
  const auto n = [](std::size_t size) { return static_cast<std::int32_t>(size); };
  const ir::Kernel& k = plan.kernel;
  for (std::size_t i = 0; i < plan.exprs.size(); ++i) {
    const detail::CompiledExpr& e = plan.exprs[i];
    for (int o = 0; o < 3; ++o)
      if (e.operands[o] != ir::kNone)
        all.push_back({"exprs[" + std::to_string(i) + "]", [=](auto& p) { return &p.exprs[i].operands[o]; },
                       n(k.exprs.size())});
    if (e.index != ir::kNone)
      all.push_back({"exprs[" + std::to_string(i) + "]", [=](auto& p) { return &p.exprs[i].index; },
                     n(k.locals.size() + k.parameters.size() + k.accesses.size())});
    all.push_back({"canonical[" + std::to_string(i) + "]", [=](auto& p) { return &p.canonical[i]; },
                   n(k.exprs.size())});
    for (int j = 0; j < detail::LaunchPlan::kKeptLocals; ++j)
      all.push_back({"kept_locals[" + std::to_string(i) + "]",
                     [=](auto& p) { return &p.kept_locals[i][static_cast<std::size_t>(j)]; },
                     n(k.locals.size())});
  }
  for (std::size_t s = 0; s < plan.memory.size(); ++s) {
    const std::string where = "memory[" + std::to_string(s) + "]";
    all.push_back({"innermost_loop[" + std::to_string(s) + "]", [=](auto& p) { return &p.innermost_loop[s]; },
                   n(k.stmts.size())});
    all.push_back(
        {"barrier[" + std::to_string(s) + "]", [=](auto& p) { return &p.barrier[s]; }, plan.barriers});
    for (std::size_t a = 0; a < plan.memory[s].accesses.size(); ++a) {
      const auto access = [=](auto& p) -> detail::CompiledAccess& { return p.memory[s].accesses[a]; };
      for (auto member : {&detail::CompiledAccess::offset, &detail::CompiledAccess::guard,
                          &detail::CompiledAccess::statement, &detail::CompiledAccess::value,
                          &detail::CompiledAccess::compare})
        all.push_back({where, [=](auto& p) { return &(access(p).*member); }, n(k.exprs.size())});
      for (auto member : {&detail::CompiledAccess::base, &detail::CompiledAccess::affine,
                          &detail::CompiledAccess::same_as, &detail::CompiledAccess::parameter})
        all.push_back({where, [=](auto& p) { return &(access(p).*member); },
                       n(std::max({k.bases.size(), plan.affine_offsets.size(), k.parameters.size(),
                                   plan.memory[s].accesses.size()}))});
      all.push_back({where, [=](auto& p) { return &access(p).id; }, n(k.accesses.size())});
    }
    for (std::size_t f = 0; f < plan.memory[s].flops.size(); ++f)
      all.push_back({where, [=](auto& p) { return &p.memory[s].flops[f].guard; }, n(k.exprs.size())});
    for (std::size_t a = 0; a < plan.memory[s].kept.size(); ++a)
      for (auto member :
           {&detail::KeptAccess::id, &detail::KeptAccess::base, &detail::KeptAccess::offset,
            &detail::KeptAccess::guard, &detail::KeptAccess::value, &detail::KeptAccess::compare})
        all.push_back({where, [=](auto& p) { return &(p.memory[s].kept[a].*member); },
                       n(std::max({k.exprs.size(), k.accesses.size(), k.bases.size()}))});
  }
  return all;
}

TEST(LaunchPlan, EveryIndexOutOfRangeIsRefusedNamingItsField) {
  std::mt19937_64 rng(20261129);
  std::size_t refused = 0;
  for (const char* file : {"tiled_transpose.cu", "convolution_2d.cu", "spmv_csr_scalar.cu"}) {
    const ir::Kernel k = std::string(file) == "spmv_csr_scalar.cu"
                             ? ir::zoo::load(file, ir::zoo::folder() + "data/")
                             : ir::zoo::load(file);
    std::string what;
    ir::Launch l = ir::zoo::random_launch(k, rng, 2, 2, 40, what);
    ir::zoo::random_buffers(k, l, rng, what);
    SCOPED_TRACE(std::string(file) + ": " + what);
    ir::ReplayOptions o = interpreted();
    o.capture_stores = true;
    const detail::LaunchPlan plan(std::make_shared<const ir::Kernel>(k), l, detail::plan_options(o));
    ASSERT_EQ(refusal(detail::serialize(plan)), "");
    for (const Corruption& c : index_fields(plan))
      for (const std::int32_t bad : {c.size, std::numeric_limits<std::int32_t>::max(), -2}) {
        detail::LaunchPlan copy(plan);
        std::int32_t* index = c.at(copy);
        if (*index == bad) continue;
        *index = bad;
        const std::string why = refusal(detail::serialize(copy));
        ASSERT_NE(why, "") << c.field << " set to " << bad;
        EXPECT_NE(why.find(c.field), std::string::npos) << why;
        ++refused;
      }
  }
  EXPECT_GT(refused, 1000u);
}

// Every byte of a plan's fields (after its model) set to 0xFF, 0x80 and 0x01 in turn: each plan
// read is refused as a file-format error or is one that serialises back to its own bytes; none
// crashes or reads out of its bytes.
TEST(LaunchPlan, EveryByteCorruptedIsRefusedOrReadsBackExactly) {
  const VectorCopy v;
  // The magic (8 bytes), the version (4), the model's length (8) and its JSON.
  const std::size_t fields_at = 8 + 4 + 8 + ir::to_json(v.kernel).size();
  ASSERT_LT(fields_at, v.bytes.size());
  std::size_t refused = 0;
  for (std::size_t at = fields_at; at < v.bytes.size(); ++at)
    for (const unsigned char value : {0xFF, 0x80, 0x01}) {
      std::string bytes = v.bytes;
      if (static_cast<unsigned char>(bytes[at]) == value) continue;
      bytes[at] = static_cast<char>(value);
      try {
        const detail::LaunchPlan back = detail::deserialize(bytes);
        EXPECT_EQ(detail::serialize(back), bytes) << "byte " << at;
      } catch (const InvalidInput& e) {
        EXPECT_EQ(e.diag(), Diag::file_format);
        ++refused;
      }
    }
  EXPECT_GT(refused, v.bytes.size() - fields_at);
}

// A plan holds its model: the caller's copy gone, it still runs, and counts as replay().
TEST(LaunchPlan, HoldsItsModel) {
  const VectorCopy v;
  auto model = std::make_shared<ir::Kernel>(v.kernel);
  const detail::LaunchPlan plan(model, v.launch, detail::plan_options(interpreted()));
  model.reset();
  const ReplayOutcome own = run(plan, v.launch, interpreted());
  const ReplayOutcome reference = replay_outcome(v.kernel, v.launch, interpreted());
  ASSERT_TRUE(own.result && reference.result) << own.refusal << reference.refusal;
  expect_same_figures(v.kernel, *own.result, *reference.result);
  // 3 blocks of 64 threads: 6 warps, i = 0 .. 191. Each `if (i < n4)` with n4 = 150: 6 warp
  // evaluations, 150 lanes taken, one warp divided (i = 128 .. 159).
  EXPECT_EQ(sim::to_decimal(own.result->warps), "6");
  int ifs = 0;
  for (std::size_t s = 0; s < v.kernel.stmts.size(); ++s) {
    if (v.kernel.stmts[s].kind != ir::StmtKind::If) continue;
    ++ifs;
    EXPECT_EQ(sim::to_decimal(own.result->statements[s].warp_evaluations), "6");
    EXPECT_EQ(sim::to_decimal(own.result->statements[s].taken_lanes), "150");
    EXPECT_EQ(sim::to_decimal(own.result->statements[s].divergent), "1");
  }
  EXPECT_EQ(ifs, 2);
}

// A plan holds no data: one plan of the zoo's CSR product runs on two launches' row pointers
// (Launch::buffer_data, the run's), each counted as replay() counts it. 4 rows in one warp: rows
// of 2 entries each make 3 heads of the row loop (8 lanes staying in), one row of 8 entries
// (the others empty) 9 heads (8 lanes staying in).
TEST(LaunchPlan, OnePlanRunsOnEachLaunchsData) {
  const ir::Kernel k = ir::zoo::load("spmv_csr_scalar.cu", ir::zoo::folder() + "data/");
  ir::Launch l;
  l.block = {32, 1, 1};
  l.arguments = {ir::Value::of(ir::ScalarType::I32, 4), {}, {}, {}, {}, {}};
  l.buffer_bytes = {0, 5 * 4, 8 * 4, 8 * 4, 4 * 4, 4 * 4};
  l.buffer_data.resize(6);
  const auto rows = [](std::vector<std::int32_t> ptr) {
    return std::make_shared<const std::string>(reinterpret_cast<const char*>(ptr.data()), ptr.size() * 4);
  };
  ir::Launch even = l, one = l;
  even.buffer_data[1] = rows({0, 2, 4, 6, 8});
  one.buffer_data[1] = rows({0, 0, 0, 0, 8});
  const detail::LaunchPlan plan(std::make_shared<const ir::Kernel>(k), even,
                                detail::plan_options(interpreted()));
  ir::StmtId loop = ir::kNone;
  for (std::size_t s = 0; s < k.stmts.size(); ++s)
    if (k.stmts[s].kind == ir::StmtKind::Loop) loop = static_cast<ir::StmtId>(s);
  ASSERT_NE(loop, ir::kNone);
  for (const auto& [launch, heads] : {std::pair{&even, "3"}, std::pair{&one, "9"}}) {
    const ReplayOutcome own = run(plan, *launch, interpreted());
    const ReplayOutcome reference = replay_outcome(k, *launch, interpreted());
    ASSERT_TRUE(own.result && reference.result) << own.refusal << reference.refusal;
    expect_same_figures(k, *own.result, *reference.result);
    EXPECT_EQ(sim::to_decimal(own.result->statements[static_cast<std::size_t>(loop)].warp_evaluations),
              heads);
    EXPECT_EQ(sim::to_decimal(own.result->statements[static_cast<std::size_t>(loop)].taken_lanes), "8");
  }
}

}  // namespace
}  // namespace warpdiv::testing
