// What long-running commands share: a clean stop on Ctrl-C and a progress bar on a terminal.
#pragma once

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <iostream>
#include <string>

#include "sim/support/errors.hpp"

namespace warpdiv::cli {

/// A note on `err`: "warpdiv: note: TEXT [warpdiv-ID]" (format_note), the one way a command says one.
void print_note(Diag note, const std::string& text, std::ostream& err = std::cerr);

/// Exit status after Ctrl-C, as a shell reports a process ended by SIGINT (128 + 2).
constexpr int kInterruptedStatus = exit_status(Category::interrupted);

/// While alive, SIGINT sets a flag instead of ending the process; the previous handler comes back
/// on destruction. One at a time.
class SigintHandler {
 public:
  SigintHandler();
  ~SigintHandler();
  SigintHandler(const SigintHandler&) = delete;
  SigintHandler& operator=(const SigintHandler&) = delete;

  bool interrupted() const;
  /// The flag itself, for code that polls it (e.g. sim::ir::ReplayOptions::stop).
  const std::atomic<bool>* flag() const;

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

/// A one-line bar redrawn with '\r' on stderr, only when stderr is a terminal: piped or redirected
/// output (logs, CI) gets nothing. "LABEL [#####.....] 50% 5/10 UNIT".
class ProgressBar {
 public:
  ProgressBar(std::string label, std::string unit, std::uint64_t total);
  void update(std::uint64_t done);
  /// Ends the bar's line so that what follows starts on a fresh one.
  void finish();

 private:
  std::string label_;
  std::string unit_;
  std::uint64_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace warpdiv::cli
