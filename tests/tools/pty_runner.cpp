#include "tests/tools/pty_runner.hpp"

#include <gtest/gtest.h>

#include <cerrno>

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

namespace warpdiv::testing {

std::vector<char*> argv_of(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

PtyRun run_on_pty(std::vector<std::string> args,
                  const std::function<void(const std::string&, int)>& on_output) {
  std::vector<char*> argv = argv_of(args);
  PtyRun run;
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) {
    ADD_FAILURE() << "forkpty failed";
    return run;
  }
  if (pid == 0) {
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n > 0)
      run.screen.append(buffer, static_cast<std::size_t>(n));
    else if (n < 0 && errno == EINTR)
      continue;
    else
      break;  // EIO once the child has closed the terminal
    if (on_output) on_output(run.screen, master);
  }
  ::close(master);
  int status = 0;
  if (::waitpid(pid, &status, 0) == pid && WIFEXITED(status)) run.status = WEXITSTATUS(status);
  return run;
}

}  // namespace warpdiv::testing
