// What the lecture's forms of analyze, sweep and validate ask for, as plain data: the lecture's
// counterparts of tools/cli/requests.hpp, parsed the same way (every flag and combination checked,
// each refusal one line, InvalidInput: exit 2) and tested without the binary
// (tests/tools/requests_test.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analysis/lecture/launch.hpp"
#include "analysis/lecture/sweep_report.hpp"
#include "tools/cli/requests.hpp"

namespace warpdiv::cli {

/// Which engine counts the lecture's launch (--engine of `warpdiv analyze` without a file).
enum class LectureEngine { exact, replay, all };

/// `warpdiv analyze [--width W | --rows J --inner K --cols L] ...`: the lecture's table.
struct AnalyzeRequest {
  std::string help;        // --help: the text to print, and nothing else to do
  bool list_gpus = false;  // --gpu list
  lecture::LaunchConfig config;
  LectureEngine engine = LectureEngine::exact;
  GpuRequest gpu;
  std::optional<std::string> csv, html;
};
AnalyzeRequest parse_analyze(const Args& args);

/// `warpdiv sweep --sizes ... --tiles ...`: the lecture's counts of many launches.
struct SweepRequest {
  std::string help;
  bool list_gpus = false;
  analysis::SweepPlan plan;
  GpuRequest gpu;  // with --html: the occupancy plot
  std::optional<std::string> csv, html;
};
SweepRequest parse_sweep(const Args& args);

/// `warpdiv validate [--width W | --rows J --inner K --cols L] [--tile T] ...`: the lecture on GPU 0.
struct ValidateRequest {
  std::string help;
  lecture::LaunchConfig config;  // warp size 32, the GPU's
  int repeats = 20;              // --repeat: timed launches
  std::uint64_t seed = 0;        // --seed, else drawn fresh
  std::optional<std::string> csv;
};
ValidateRequest parse_validate(const Args& args);

}  // namespace warpdiv::cli
