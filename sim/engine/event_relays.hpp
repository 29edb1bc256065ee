// The observers a warp machine (sim/engine/ir_engine.hpp) puts between its event stream and the
// ones chosen at run time: ReplayOptions::observer's relay, and the tee that lets the class
// engine's recorder and another observer both see one machine. Internal to sim/engine.
#pragma once

#include "sim/engine/ir_events.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir::detail {

// ReplayOptions::observer on the event stream: each statement, branch and loop head is an
// evaluation of the warp the last WarpEvent named; every event goes on to ReplayOptions::events,
// when that is set too.
class EvaluationRelay final : public EventObserver {
 public:
  EvaluationRelay(EvaluationObserver& observer, EventObserver* next) : observer_(observer), next_(next) {}
  void on(const WarpEvent& e) override {
    block_ = Dim3{e.block[0], e.block[1], e.block[2]};
    warp_ = e.warp;
    forward(e);
  }
  void on(const StatementEvent& e) override {
    observer_.evaluation(block_, warp_, e.site, e.active, 0);
    forward(e);
  }
  void on(const BranchEvent& e) override {
    observer_.evaluation(block_, warp_, e.site, e.active, e.taken);
    forward(e);
  }
  void on(const LoopHeadEvent& e) override {
    observer_.evaluation(block_, warp_, e.site, e.active, e.taken);
    forward(e);
  }
  void on(const BarrierEvent& e) override { forward(e); }
  void on(const AccessEvent& e) override { forward(e); }
  void on(const WarpEndEvent& e) override { forward(e); }
  void on(const ComparisonEvent& e) override { forward(e); }

 private:
  template <class Event>
  void forward(const Event& e) {
    if (next_ != nullptr && (next_->wants() & kEventBit<Event>) != 0) next_->on(e);
  }
  EvaluationObserver& observer_;
  EventObserver* next_;
  Dim3 block_;
  std::uint32_t warp_ = 0;
};

// Two observers of one machine (the class engine's recorder and an EvaluationObserver's relay):
// each event goes to each that wants it, the first one first.
class EventTee final : public EventObserver {
 public:
  EventTee(EventObserver& first, EventObserver& second)
      : first_(first), second_(second), first_wants_(first.wants()), second_wants_(second.wants()) {}
  unsigned wants() const override { return first_wants_ | second_wants_; }
  void on(const WarpEvent& e) override { forward(e); }
  void on(const WarpEndEvent& e) override { forward(e); }
  void on(const StatementEvent& e) override { forward(e); }
  void on(const BranchEvent& e) override { forward(e); }
  void on(const LoopHeadEvent& e) override { forward(e); }
  void on(const BarrierEvent& e) override { forward(e); }
  void on(const AccessEvent& e) override { forward(e); }
  void on(const ComparisonEvent& e) override { forward(e); }

 private:
  template <class Event>
  void forward(const Event& e) {
    if ((first_wants_ & kEventBit<Event>) != 0) first_.on(e);
    if ((second_wants_ & kEventBit<Event>) != 0) second_.on(e);
  }
  EventObserver& first_;
  EventObserver& second_;
  unsigned first_wants_, second_wants_;
};

}  // namespace warpdiv::sim::ir::detail
