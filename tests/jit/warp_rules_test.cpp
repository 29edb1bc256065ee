// CUDA's rules for warp functions (sim/model/ir_ops.hpp) on the interpreter and native code alike.
// Warp shuffles of each kind (shfl, up, down, xor) at every width and with arguments in and out of
// range, each lane's value compared with a reference written here from PTX's shfl.sync
// pseudocode, which CUDA's __shfl*_sync compile to; the reference itself checked against the lanes
// an H200 read (data/validation/shuffles/). With lanes gone, a lane reading one of them is
// undefined behaviour: refused by the interpreter, handed over by native code. A warp function's
// masks, case by case as CUDA's rule gives them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "jit/native_replay.hpp"
#include "sim/engine/ir_native.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/support/count.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/replay_compare.hpp"
#include "tests/kernels/source_dir.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

const char* const kKinds[4] = {"shfl", "up", "down", "xor"};
const std::uint32_t kWidths[6] = {1, 2, 4, 8, 16, 32};
// Those of the H200's table (data/validation/shuffles/nvidia-h200.txt).
const std::uint32_t kArguments[16] = {0,  1,  2,  3,  5,  7,  15,          16,
                                      17, 31, 32, 33, 63, 64, 0x80000000u, 0xFFFFFFFFu};

// The lane whose value `lane` receives, as the PTX ISA writes shfl.sync ("Parallel
// Synchronization and Communication Instructions: shfl.sync"):
//   bval = b[4:0]; cval = c[4:0]; segmask = c[12:8];
//   maxLane = (lane & segmask) | (cval & ~segmask); minLane = lane & segmask;
//   up: j = lane - bval, pval = j >= maxLane;   down: j = lane + bval, pval = j <= maxLane;
//   bfly: j = lane ^ bval, pval = j <= maxLane;  idx: j = minLane | (bval & ~segmask), pval = j <= maxLane;
//   if (!pval) j = lane;
// with c as CUDA's headers pass it: (32 - width) << 8, or'ed with 0x1f except for up.
int reference(const std::string& kind, std::uint32_t width, std::uint32_t b, int lane) {
  const int bval = static_cast<int>(b & 0x1f);
  const int segmask = static_cast<int>(32 - width) & 0x1f;
  const int cval = kind == "up" ? 0 : 0x1f;
  const int max_lane = (lane & segmask) | (cval & ~segmask & 0x1f);
  const int min_lane = lane & segmask;
  int j = lane;
  bool pval = false;
  if (kind == "up") {
    j = lane - bval;
    pval = j >= max_lane;
  } else if (kind == "down") {
    j = lane + bval;
    pval = j <= max_lane;
  } else if (kind == "xor") {
    j = lane ^ bval;
    pval = j <= max_lane;
  } else {
    j = min_lane | (bval & ~segmask & 0x1f);
    pval = j <= max_lane;
  }
  return pval ? j : lane;
}

TEST(WarpShuffleReference, IsWhatAnH200Computed) {
  std::ifstream table(std::string(WARPDIV_SOURCE_DIR) + "/data/validation/shuffles/nvidia-h200.txt");
  ASSERT_TRUE(table.good());
  std::string line;
  int cases = 0;
  while (std::getline(table, line)) {
    std::istringstream in(line);
    std::string kind, colon;
    std::uint32_t width = 0;
    std::uint64_t b = 0;
    in >> kind >> width >> b;
    ASSERT_EQ(in.get(), ':') << line;
    for (int lane = 0; lane < 32; ++lane) {
      int read = -1;
      in >> read;
      EXPECT_EQ(reference(kind, width, static_cast<std::uint32_t>(b), lane), read)
          << line << ", lane " << lane;
    }
    ++cases;
  }
  EXPECT_EQ(cases, 16 * 6 * 4);
}

class WarpShuffle : public SnippetTest {
 protected:
  WarpShuffle() : SnippetTest("warpdiv_warp_shuffle_") {}

  // One `if` a line from line 6 on, case c = 6 * kind + width's index, run where which == c by the
  // lanes below n: it holds in the lanes whose shuffle of 100 + lane gives `want`'s element.
  static std::string source() {
    std::string s =
        "__global__ void k(const int* want, unsigned arg, int which, int n, int* out) {\n"
        "  int lane = threadIdx.x;\n"
        "  if (lane >= n) return;\n"
        "  unsigned mask = __activemask();\n"
        "  int v = 100 + lane;\n";
    for (int kind = 0; kind < 4; ++kind)
      for (const std::uint32_t width : kWidths) {
        const std::string call = kind == 0 ? "__shfl_sync" : std::string("__shfl_") + kKinds[kind] + "_sync";
        s += "  if (which == " + std::to_string(case_of(kind, width)) + " && " + call + "(mask, v, arg, " +
             std::to_string(width) + ") == want[lane]) out[lane] = 1;\n";
      }
    return s + "}\n";
  }
  static int case_of(int kind, std::uint32_t width) {
    int w = 0;
    while (kWidths[w] != width) ++w;
    return 6 * kind + w;
  }

  // A launch on one warp with `arguments`, the first parameter's buffer holding `data`.
  static ir::Launch launch(const ir::Kernel& k, std::vector<ir::Value> arguments,
                           const std::vector<std::int32_t>& data) {
    ir::Launch l;
    l.block = {32, 1, 1};
    l.grid = {1, 1, 1};
    l.arguments = std::move(arguments);
    std::string bytes(4 * data.size(), '\0');
    std::memcpy(bytes.data(), data.data(), bytes.size());
    l.buffer_bytes.assign(k.parameters.size(), 0);
    l.buffer_data.assign(k.parameters.size(), nullptr);
    l.buffer_bytes[0] = bytes.size();
    l.buffer_data[0] = std::make_shared<const std::string>(std::move(bytes));
    return l;
  }
  // Case `which` (source()) with argument `arg`, lanes 0 .. n-1 running it, `want` each lane's
  // expected value.
  static ir::Launch shuffle_launch(const ir::Kernel& k, std::uint32_t arg, int which, int n,
                                   const std::vector<std::int32_t>& want) {
    return launch(
        k,
        {ir::Value{}, ir::Value::of(ir::ScalarType::U32, arg), ir::Value::of(ir::ScalarType::I32, which),
         ir::Value::of(ir::ScalarType::I32, n), ir::Value{}},
        want);
  }
  // The ballot kernel's launch (WarpMask): lanes from `gone` on exited, from n on not running it.
  static ir::Launch mask_launch(const ir::Kernel& k, int gone, int n,
                                const std::vector<std::int32_t>& masks) {
    return launch(k,
                  {ir::Value{}, ir::Value::of(ir::ScalarType::I32, gone),
                   ir::Value::of(ir::ScalarType::I32, n), ir::Value{}},
                  masks);
  }

  static ReplayOutcome run(const ir::Kernel& k, const ir::Launch& l, ir::NativeReplay native) {
    jit::install_native_replay();
    ir::ReplayOptions o;
    o.threads = 1;
    o.native = native;
    return replay_outcome(k, l, o);
  }
};

// A full warp: every lane holds its reference value on both engines (the case's `if` taken in all
// 32 lanes), for every kind, width and argument.
TEST_F(WarpShuffle, EveryLaneAsTheReferenceOnBothEngines) {
  const ir::Kernel k = load(source());
  int native = 0;
  for (int kind = 0; kind < 4; ++kind)
    for (const std::uint32_t width : kWidths)
      for (const std::uint32_t arg : kArguments) {
        std::vector<std::int32_t> want(32);
        for (int lane = 0; lane < 32; ++lane) want[lane] = 100 + reference(kKinds[kind], width, arg, lane);
        const int which = case_of(kind, width);
        const ir::StmtId at = statement_at(k, static_cast<std::uint32_t>(6 + which), ir::StmtKind::If);
        const ir::Launch l = shuffle_launch(k, arg, which, 32, want);
        for (const ir::NativeReplay engine : {ir::NativeReplay::Off, ir::NativeReplay::Always}) {
          const bool on_native = engine == ir::NativeReplay::Always;
          SCOPED_TRACE(std::string(kKinds[kind]) + " width " + std::to_string(width) + " argument " +
                       std::to_string(arg) + (on_native ? " (native code)" : " (interpreter)"));
          const ReplayOutcome r = run(k, l, engine);
          ASSERT_TRUE(r.result.has_value()) << r.refusal;
          EXPECT_EQ(r.result->native, on_native);
          native += r.result->native ? 1 : 0;
          EXPECT_EQ(sim::to_decimal(r.result->statements[at].active_lanes), "32");
          EXPECT_EQ(sim::to_decimal(r.result->statements[at].taken_lanes), "32") << "lanes off the reference";
        }
      }
  EXPECT_EQ(native, 4 * 6 * 16);
}

// Lanes n .. 31 gone: where a running lane's reference reads one of them the call is undefined
// (the interpreter names the lowest such lane's source; native code hands the launch over, to the
// same refusal), else every running lane holds its reference value.
TEST_F(WarpShuffle, ReadingAGoneLaneIsUndefinedOnBothEngines) {
  const ir::Kernel k = load(source());
  int undefined = 0, defined = 0;
  for (const int n : {7, 20, 31})
    for (int kind = 0; kind < 4; ++kind)
      for (const std::uint32_t width : kWidths)
        for (const std::uint32_t arg : {1u, 3u, 17u, 33u, 0xFFFFFFFFu}) {
          std::vector<std::int32_t> want(32, 0);
          int gone = -1;  // the source lane of the lowest lane reading a gone one
          for (int lane = 0; lane < n; ++lane) {
            const int source = reference(kKinds[kind], width, arg, lane);
            want[lane] = 100 + source;
            if (source >= n && gone < 0) gone = source;
          }
          const int which = case_of(kind, width);
          const ir::StmtId at = statement_at(k, static_cast<std::uint32_t>(6 + which), ir::StmtKind::If);
          SCOPED_TRACE(std::string(kKinds[kind]) + " width " + std::to_string(width) + " argument " +
                       std::to_string(arg) + " lanes " + std::to_string(n));
          const ir::Launch l = shuffle_launch(k, arg, which, n, want);
          const ReplayOutcome reference_run = run(k, l, ir::NativeReplay::Off);
          const ReplayOutcome native_run = run(k, l, ir::NativeReplay::Always);
          EXPECT_EQ(native_run.refusal, reference_run.refusal);
          if (gone >= 0) {
            ++undefined;
            const std::string name = kind == 0 ? "shfl" : std::string("shfl_") + kKinds[kind];
            EXPECT_NE(reference_run.refusal.find("undefined behaviour: " + name + " reads lane " +
                                                 std::to_string(gone) + ", which does not run it"),
                      std::string::npos)
                << reference_run.refusal;
            EXPECT_FALSE(native_run.result.has_value());
            continue;
          }
          ++defined;
          for (const ReplayOutcome* r : {&reference_run, &native_run}) {
            ASSERT_TRUE(r->result.has_value()) << r->refusal;
            EXPECT_EQ(sim::to_decimal(r->result->statements[at].taken_lanes), std::to_string(n));
          }
          EXPECT_TRUE(native_run.result->native);
        }
  // Both outcomes reached, each in at least a fifth of the 360 cases.
  EXPECT_GT(undefined, 72);
  EXPECT_GT(defined, 72);
}

// __ballot_sync with each lane's mask read from `masks`, lanes from `gone` on exited and lanes from n
// on not running it: CUDA C++ Programming Guide, warp functions: "Each calling thread must have its
// own bit set in the mask and all non-exited threads named in mask must execute the same intrinsic
// with the same mask".
class WarpMask : public WarpShuffle {};

TEST_F(WarpMask, CasesOfCudasRuleOnBothEngines) {
  const ir::Kernel k = load(
      "__global__ void k(const unsigned* masks, int gone, int n, int* out) {\n"
      "  int lane = threadIdx.x;\n"
      "  if (lane >= gone) return;\n"
      "  if (lane < n && __ballot_sync(masks[lane], lane % 3 == 0) != 0) out[lane] = 1;\n"
      "}\n");
  const ir::StmtId at = statement_at(k, 4, ir::StmtKind::If);
  struct Case {
    std::uint32_t mask, odd_mask;  // every lane's mask but lane `odd`'s
    int odd, gone, n;
    const char* refusal;  // "" where the call is defined
  };
  const std::string prefix = "undefined behaviour: ";
  const Case cases[] = {
      {0xFFFFFFFFu, 0, -1, 32, 32, ""},
      {0xFFFFFFFFu, 0, -1, 20, 20, ""},       // lanes 20 .. 31 named, but exited
      {0x000FFFFFu, 0, -1, 32, 20, ""},       // lanes 0 .. 19, all running
      {0x0000FFFFu, 0x1234, 20, 32, 16, ""},  // lane 20 does not run it: its mask is no one's
      {0xFFFFFFFFu, 0, -1, 32, 20, "a lane named in the mask of ballot has not exited and does not run it"},
      {0x0000FFFFu, 0, -1, 32, 20, "a lane runs ballot outside its mask"},  // lanes 16 .. 19
      {0xFFFFFFFFu, 0x7FFFFFFFu, 5, 32, 32, "a lane's mask names a lane running ballot with another mask"},
      {0xFFFFFFFFu, 0x0000FFFFu, 0, 32, 32, "a lane's mask names a lane running ballot with another mask"},
  };
  for (const Case& c : cases) {
    std::vector<std::int32_t> masks(32);
    for (int lane = 0; lane < 32; ++lane)
      masks[lane] = static_cast<std::int32_t>(lane == c.odd ? c.odd_mask : c.mask);
    const ir::Launch l = mask_launch(k, c.gone, c.n, masks);
    SCOPED_TRACE("mask " + std::to_string(c.mask) + ", lane " + std::to_string(c.odd) + "'s " +
                 std::to_string(c.odd_mask) + ", gone " + std::to_string(c.gone) + ", n " +
                 std::to_string(c.n));
    const ReplayOutcome reference_run = run(k, l, ir::NativeReplay::Off);
    const ReplayOutcome native_run = run(k, l, ir::NativeReplay::Always);
    EXPECT_EQ(native_run.refusal, reference_run.refusal);
    if (*c.refusal != '\0') {
      EXPECT_NE(reference_run.refusal.find(prefix + c.refusal), std::string::npos) << reference_run.refusal;
      EXPECT_FALSE(native_run.result.has_value());
      continue;
    }
    for (const ReplayOutcome* r : {&reference_run, &native_run}) {
      ASSERT_TRUE(r->result.has_value()) << r->refusal;
      // Lane 0 runs it and votes: the ballot is not 0 in every running lane.
      EXPECT_EQ(sim::to_decimal(r->result->statements[at].taken_lanes), std::to_string(c.n));
    }
    EXPECT_TRUE(native_run.result->native);
  }
  // The lane named: the lowest whose mask names a lane of another mask. Lane 0's 0xFFFF names
  // lanes 1 .. 15 (all ones); all ones name lane 5's 0x7FFFFFFF, lane 0 first.
  std::vector<std::int32_t> masks(32, -1);
  masks[0] = 0xFFFF;
  EXPECT_NE(run(k, mask_launch(k, 32, 32, masks), ir::NativeReplay::Off).refusal.find("thread (0, 0, 0)"),
            std::string::npos);
  masks[0] = -1;
  masks[5] = 0x7FFFFFFF;
  EXPECT_NE(run(k, mask_launch(k, 32, 32, masks), ir::NativeReplay::Off).refusal.find("thread (0, 0, 0)"),
            std::string::npos);
  // Two halves, each naming itself alone, are defined (each half's ballot has a yes vote: lanes 0
  // and 18): all 32 lanes take the branch, on both engines (native code hands the call over).
  for (int lane = 0; lane < 32; ++lane)
    masks[lane] = lane < 16 ? 0xFFFF : static_cast<std::int32_t>(0xFFFF0000u);
  for (const auto mode : {ir::NativeReplay::Off, ir::NativeReplay::Always}) {
    const ReplayOutcome halves = run(k, mask_launch(k, 32, 32, masks), mode);
    ASSERT_TRUE(halves.result.has_value()) << halves.refusal;
    EXPECT_EQ(sim::to_decimal(halves.result->statements[at].taken_lanes), "32");
  }
  // Lanes 16 .. 31 naming lanes 8 .. 31: lane 16's mask names lane 8, of the mask 0xFFFF.
  for (int lane = 16; lane < 32; ++lane) masks[lane] = static_cast<std::int32_t>(0xFFFFFF00u);
  for (const auto mode : {ir::NativeReplay::Off, ir::NativeReplay::Always})
    EXPECT_NE(run(k, mask_launch(k, 32, 32, masks), mode)
                  .refusal.find(prefix + "a lane's mask names a lane running "
                                         "ballot with another mask in block (0, 0, 0), "
                                         "thread (16, 0, 0)"),
              std::string::npos);
}

// __syncwarp(mask) and a tile's sync() are warp barriers under the same rule (PTX's bar.warp.sync:
// the executing lane in its mask, every non-exited lane it names executing one with the same mask),
// lanes from n on not running it; a tile of 16's mask is its own 16 lanes.
TEST_F(WarpMask, WarpBarriersOnBothEngines) {
  const ir::Kernel masked = load(
      "__global__ void k(const unsigned* masks, int n, int* out) {\n"
      "  int lane = threadIdx.x;\n"
      "  if (lane < n) __syncwarp(masks[lane]);\n"
      "  out[lane] = 1;\n"
      "}\n");
  const ir::Kernel tiled = load(
      "#include <cooperative_groups.h>\n"
      "namespace cg = cooperative_groups;\n"
      "__global__ void k(const unsigned* masks, int n, int* out) {\n"
      "  int lane = threadIdx.x;\n"
      "  auto tile = cg::tiled_partition<16>(cg::this_thread_block());\n"
      "  if (lane < n) tile.sync();\n"
      "  out[lane] = 1;\n"
      "}\n");
  const std::string outside = "a lane runs syncwarp outside its mask";
  const std::string waiting = "a lane named in the mask of syncwarp has not exited and does not run it";
  const auto refusal = [&](const ir::Kernel& k, int n, const std::vector<std::int32_t>& masks) {
    const ir::Launch l = launch(k, {ir::Value{}, ir::Value::of(ir::ScalarType::I32, n), ir::Value{}}, masks);
    const ReplayOutcome reference_run = run(k, l, ir::NativeReplay::Off);
    const ReplayOutcome native_run = run(k, l, ir::NativeReplay::Always);
    EXPECT_EQ(native_run.refusal, reference_run.refusal);
    EXPECT_EQ(native_run.result.has_value(), reference_run.result.has_value());
    return reference_run.refusal;
  };
  const auto all = [](std::int32_t mask) { return std::vector<std::int32_t>(32, mask); };
  const auto thread = [](int t) { return " in block (0, 0, 0), thread (" + std::to_string(t) + ", 0, 0)"; };
  const auto has = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  EXPECT_EQ(refusal(masked, 32, all(-1)), "");
  EXPECT_PRED2(has, refusal(masked, 32, all(0xFFFF)), outside + thread(16));
  EXPECT_EQ(refusal(masked, 16, all(0xFFFF)), "");
  EXPECT_PRED2(has, refusal(masked, 8, all(0xFFFF)), waiting + thread(8));
  std::vector<std::int32_t> halves(32);
  for (int lane = 0; lane < 32; ++lane)
    halves[lane] = lane < 16 ? 0xFFFF : static_cast<std::int32_t>(0xFFFF0000u);
  EXPECT_EQ(refusal(masked, 32, halves), "");
  // Tiles of 16: lanes 0 .. 15 and 16 .. 31, each whole or not at all, or a named lane waits.
  EXPECT_EQ(refusal(tiled, 32, all(0)), "");
  EXPECT_EQ(refusal(tiled, 16, all(0)), "");
  EXPECT_PRED2(has, refusal(tiled, 8, all(0)), waiting + thread(8));
  EXPECT_PRED2(has, refusal(tiled, 24, all(0)), waiting + thread(24));
}

}  // namespace
}  // namespace warpdiv::testing
