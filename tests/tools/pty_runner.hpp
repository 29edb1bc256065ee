// Runs a program with its terminal a pseudo-terminal: for progress bars and a real Ctrl-C.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace warpdiv::testing {

/// argv for execv: pointers into `args`, then nullptr.
std::vector<char*> argv_of(std::vector<std::string>& args);

/// What a program printed on a pseudo-terminal, and how it ended.
struct PtyRun {
  int status = -1;  // exit status, or -1 if it did not exit normally
  std::string screen;
};

/// Runs `args` (args[0] the program) with its terminal a pseudo-terminal; after each read,
/// `on_output(screen, master)` may type into the terminal by writing to `master`.
PtyRun run_on_pty(std::vector<std::string> args,
                  const std::function<void(const std::string&, int)>& on_output = {});

}  // namespace warpdiv::testing
