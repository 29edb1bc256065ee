#include "tools/cli/terminal.hpp"

#include <iostream>

#include <unistd.h>

#include "sim/support/signals.hpp"

namespace warpdiv::cli {

namespace {

/// Redraw the progress bar at most this often.
constexpr auto kProgressInterval = std::chrono::milliseconds(100);
constexpr std::uint64_t kProgressBarWidth = 30;

// A lock-free atomic may be stored from a signal handler.
std::atomic<bool> interrupted_flag{false};
static_assert(std::atomic<bool>::is_always_lock_free, "SIGINT's flag must be lock-free");
extern "C" void on_sigint(int) { interrupted_flag.store(true); }

}  // namespace

SigintHandler::SigintHandler() {
  interrupted_flag.store(false);
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  installed_ = sim::catch_unless_ignored(SIGINT, action, previous_);
}

SigintHandler::~SigintHandler() {
  if (installed_) ::sigaction(SIGINT, &previous_, nullptr);
}

bool SigintHandler::interrupted() const { return interrupted_flag.load(); }

const std::atomic<bool>* SigintHandler::flag() const { return &interrupted_flag; }

ProgressBar::ProgressBar(std::string label, std::string unit, std::uint64_t total)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(::isatty(STDERR_FILENO) == 1) {}

void ProgressBar::update(std::uint64_t done) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (done != total_ && drawn_ && now - last_ < kProgressInterval) return;
  last_ = now;
  drawn_ = true;
  const std::uint64_t filled = total_ == 0 ? kProgressBarWidth : done * kProgressBarWidth / total_;
  std::string bar(filled, '#');
  bar.resize(kProgressBarWidth, '.');
  std::cerr << '\r' << label_ << " [" << bar << "] " << (total_ == 0 ? 100 : done * 100 / total_) << "% "
            << done << '/' << total_ << ' ' << unit_ << std::flush;
}

void ProgressBar::finish() {
  if (enabled_ && drawn_) std::cerr << '\n' << std::flush;
  drawn_ = false;
}

void print_note(Diag note, const std::string& text, std::ostream& err) {
  err << format_note(note, text) << '\n';
}

}  // namespace warpdiv::cli
