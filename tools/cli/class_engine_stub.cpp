// Built only while sim/ir_classes.cpp does not exist (see tools/CMakeLists.txt): the class
// engine's contract (sim/ir_classes.hpp) with every plan refused, so that the CLI builds and
// `--engine auto` falls back to the replay until the engine lands. Delete with the engine merged.
#include "sim/ir_classes.hpp"

namespace warpdiv::sim::ir {

std::string ClassRefusal::message() const {
  return location + ": the class engine cannot prove the block classes: " + what + " " + reason;
}

ClassesUnproven::ClassesUnproven(ClassRefusal refusal)
    : InvalidInput(refusal.message()), refusal_(std::move(refusal)) {}

ClassPlan plan_classes(const Kernel& kernel, const Launch& launch) {
  validate(launch, kernel);
  ClassPlan plan;
  plan.refusal = ClassRefusal{{}, "<build>", "this warpdiv", "was built without the class engine"};
  return plan;
}

ClassReplayResult class_replay(const Kernel&, const Launch&, const ClassPlan& plan,
                               const ReplayOptions&) {
  throw ClassesUnproven(*plan.refusal);
}

ClassReplayResult class_replay(const Kernel& kernel, const Launch& launch,
                               const ReplayOptions& options) {
  return class_replay(kernel, launch, plan_classes(kernel, launch), options);
}

}  // namespace warpdiv::sim::ir
