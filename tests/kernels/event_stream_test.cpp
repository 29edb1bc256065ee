// The interpreter's event stream (sim/engine/ir_events.hpp) on tests/kernels/memory/request_split.cu at
// grid 1 x block 64, every event worked out by hand: the warps in order, the if's lane masks, each
// memory request with its kind, lanes and (lane by lane) addresses; and the per-line split that
// an observer of these events adds up against the one a finished count's totals give.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/frontend/frontend.hpp"
#include "sim/engine/ir_events.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir {
namespace {

const std::string kKernel = std::string(WARPDIV_SOURCE_DIR) + "/tests/kernels/memory/request_split.cu";

// Everything it is told, in order (one replay thread).
class Recording final : public EventObserver {
 public:
  explicit Recording(const Kernel& k) : k_(k) {}
  void on(const WarpEvent& e) override { log.push_back("warp " + std::to_string(e.warp)); }
  void on(const StatementEvent& e) override { log.push_back(where(e.site) + " statement " + hex(e.active)); }
  void on(const BranchEvent& e) override {
    log.push_back(where(e.site) + " branch " + hex(e.active) + " taken " + hex(e.taken) +
                  (e.divergent ? " divergent" : ""));
  }
  void on(const LoopHeadEvent& e) override { log.push_back(where(e.site) + " loop " + hex(e.active)); }
  void on(const BarrierEvent& e) override { log.push_back(where(e.site) + " barrier"); }
  void on(const AccessEvent& e) override {
    log.push_back(where(e.statement) + " " + name(e.kind) + " " + name(e.space) + " " + hex(e.lanes) +
                  " requests " + to_decimal(e.requests) + " sectors " + to_decimal(e.sectors) + " bytes " +
                  to_decimal(e.bytes));
    if (e.addresses != nullptr) {
      std::vector<std::int64_t> lanes;
      for (int l = 0; l < 64; ++l)
        if (e.lanes >> l & 1) lanes.push_back(e.addresses[l]);
      addresses[{e.site, static_cast<int>(requests[e.site])}] = lanes;
    }
    ++requests[e.site];
  }
  std::vector<std::string> log;
  std::map<std::int32_t, int> requests;
  std::map<std::pair<std::int32_t, int>, std::vector<std::int64_t>> addresses;  // (access, request)

 private:
  std::string where(StmtId s) const {
    return "line " + std::to_string(k_.stmts[static_cast<std::size_t>(s)].range.line);
  }
  static std::string hex(std::uint64_t m) {
    char b[24];
    std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(m));
    return b;
  }
  const Kernel& k_;
};

// Global requests per source line by operation, from whatever emits AccessEvents.
struct LineSplit : IgnoreEvents {
  using IgnoreEvents::on;
  const Kernel& k;
  std::map<std::uint32_t, std::tuple<Count, Count, Count>> by_line;
  explicit LineSplit(const Kernel& kernel) : k(kernel) {}
  void on(const AccessEvent& e) {
    if (e.space != AddressSpace::Global) return;
    auto& [load, store, atomic] = by_line[k.stmts[static_cast<std::size_t>(e.statement)].range.line];
    (e.kind == AccessKind::Load ? load : e.kind == AccessKind::Store ? store : atomic) += e.requests;
  }
  void on(const Kernel& kernel, const std::vector<AccessCounts>& totals) {
    for (std::size_t s = 0; s < kernel.stmts.size(); ++s)
      emit_access_totals(kernel, totals, static_cast<StmtId>(s), *this);
  }
};
// LineSplit's `on` for AccessEvent, callable from EventObserver.
class LineSplitRelay final : public EventObserver {
 public:
  explicit LineSplitRelay(LineSplit& split) : split_(split) {}
  void on(const AccessEvent& e) override { split_.on(e); }

 private:
  LineSplit& split_;
};

Kernel load() {
  frontend::FrontendOptions o;
  o.file = kKernel;
  return frontend::load_kernel(o);
}

Launch launch64(const Kernel& k) {
  Launch l;
  l.grid = Dim3{1, 1, 1};
  l.block = Dim3{64, 1, 1};
  l.arguments.assign(k.parameters.size(), Value{});
  return l;
}

// Warp 0 (lanes 0..31, threads 0..31) and warp 1 (threads 32..63), each: the kernel's body (the
// block statement opened on line 4, which the reports leave out), line 5, the load of
// in[i] on line 6 (4 sectors: 128 bytes from 128 x warp), the store on line 7 (out[2 i]: 8-byte
// steps, 8 sectors), the if on line 8 (warp 0: every lane takes it; warp 1: threads 32..39, lanes
// 0..7: divergent), the atomic (one address: its lanes take turns, a sector each: 32, then 8),
// line 9's accesses in the
// model's order (Stmt::accesses: the assignment's target first, then its value's load).
TEST(EventStream, TheInterpretersEventsByHand) {
  const Kernel k = load();
  const Launch l = launch64(k);
  Recording recording(k);
  ReplayOptions o;
  o.threads = 1;
  o.events = &recording;
  o.affine_offsets = false;  // lane by lane: every request carries its lanes' addresses
  const ReplayResult r = replay(k, l, o);
  EXPECT_FALSE(r.native);
  const std::vector<std::string> warp = {
      "line 4 statement ffffffff", "line 5 statement ffffffff",
      "line 6 statement ffffffff", "line 6 load global ffffffff requests 1 sectors 4 bytes 128",
      "line 7 statement ffffffff", "line 7 store global ffffffff requests 1 sectors 8 bytes 128",
  };
  std::vector<std::string> expected = {"warp 0"};
  expected.insert(expected.end(), warp.begin(), warp.end());
  for (const char* s :
       {"line 8 branch ffffffff taken ffffffff", "line 8 statement ffffffff",
        "line 8 atomic global ffffffff requests 1 sectors 32 bytes 128", "line 9 statement ffffffff",
        "line 9 store global ffffffff requests 1 sectors 8 bytes 128",
        "line 9 load global ffffffff requests 1 sectors 4 bytes 128", "warp 1"})
    expected.push_back(s);
  expected.insert(expected.end(), warp.begin(), warp.end());
  for (const char* s : {"line 8 branch ffffffff taken ff divergent", "line 8 statement ff",
                        "line 8 atomic global ff requests 1 sectors 8 bytes 32", "line 9 statement ffffffff",
                        "line 9 store global ffffffff requests 1 sectors 8 bytes 128",
                        "line 9 load global ffffffff requests 1 sectors 4 bytes 128"})
    expected.push_back(s);
  EXPECT_EQ(recording.log, expected);
  // The addresses of warp 1's store out[2 * i]: thread 32 + n writes bytes 8 (32 + n) on.
  std::int32_t store = kNone;
  for (std::size_t a = 0; a < k.accesses.size(); ++a)
    if (k.accesses[a].kind == AccessKind::Store && k.accesses[a].range.line == 7)
      store = static_cast<std::int32_t>(a);
  ASSERT_NE(store, kNone);
  std::vector<std::int64_t> expected_addresses;
  for (int n = 0; n < 32; ++n) expected_addresses.push_back(8 * (32 + n));
  EXPECT_EQ(recording.addresses[std::make_pair(store, 1)], expected_addresses);
}

// An observer told only of what it wants: here the warps' starts and ends and the branches (the
// if on line 8: warp 0 all lanes taken, warp 1 lanes 0..7 of 32), nothing else (the statements
// and requests above would come between them).
class WarpsAndBranches final : public EventObserver {
 public:
  unsigned wants() const override { return kWarpEvents | kWarpEndEvents | kBranchEvents; }
  void on(const WarpEvent& e) override { log.push_back("warp " + std::to_string(e.warp)); }
  void on(const WarpEndEvent& e) override { log.push_back("end " + std::to_string(e.warp)); }
  void on(const BranchEvent& e) override {
    log.push_back("branch " + std::to_string(e.active) + " taken " + std::to_string(e.taken));
  }
  void on(const StatementEvent&) override { log.push_back("statement"); }
  void on(const AccessEvent&) override { log.push_back("access"); }
  std::vector<std::string> log;
};

TEST(EventStream, AnObserverIsToldOnlyTheEventsItWants) {
  const Kernel k = load();
  const Launch l = launch64(k);
  WarpsAndBranches observer;
  ReplayOptions o;
  o.threads = 1;
  o.events = &observer;
  replay(k, l, o);
  const std::vector<std::string> expected = {"warp 0", "branch 4294967295 taken 4294967295", "end 0",
                                             "warp 1", "branch 4294967295 taken 255",        "end 1"};
  EXPECT_EQ(observer.log, expected);
}

// The split an observer adds up from the warps' events is the one from the count's totals, and
// both are the hand-worked one: line 6 two loads; line 7 two stores; line 8 two atomics (one per
// warp); line 9 two loads and two stores.
TEST(EventStream, ThePerLineSplitFromTheWarpsEventsAndFromTheTotals) {
  const Kernel k = load();
  const Launch l = launch64(k);
  LineSplit live(k);
  LineSplitRelay relay(live);
  ReplayOptions o;
  o.threads = 1;
  o.events = &relay;
  const ReplayResult r = replay(k, l, o);
  LineSplit totals(k);
  totals.on(k, r.accesses);
  using S = std::tuple<Count, Count, Count>;
  const std::map<std::uint32_t, S> expected = {
      {6, S{2, 0, 0}}, {7, S{0, 2, 0}}, {8, S{0, 0, 2}}, {9, S{2, 2, 0}}};
  EXPECT_EQ(live.by_line, expected);
  EXPECT_EQ(totals.by_line, expected);
}

}  // namespace
}  // namespace warpdiv::sim::ir
