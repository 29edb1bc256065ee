// Runs the real warpdiv binary as a child process the test controls: where its standard output and
// error go, a file-size limit, signals sent while it runs, and how it ended (exit status or signal).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace warpdiv::testing {

struct ChildSetup {
  std::string stdout_path;         // a file (created or truncated) for standard output, if not empty
  int stdout_fd = -1;              // else this descriptor (a pipe's end), if >= 0; else /dev/null
  std::string stderr_path;         // a file for standard error, if not empty; else /dev/null
  long long file_size_limit = -1;  // RLIMIT_FSIZE in bytes (SIGXFSZ beyond it), -1 for none
  std::vector<int> ignored;        // signals it starts with ignored (as nohup or a script's `&` leave them)
};

/// Starts warpdiv with `args`, signal dispositions at their defaults (but `setup.ignored`) and no
/// core dumps.
pid_t spawn_warpdiv(const std::vector<std::string>& args, const ChildSetup& setup);

struct ChildEnd {
  int exit_status = -1;  // when it exited
  int signal = 0;        // when a signal ended it
};
/// Waits for `pid` to end.
ChildEnd wait_for(pid_t pid);

}  // namespace warpdiv::testing
