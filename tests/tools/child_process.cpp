#include "tests/tools/child_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <stdexcept>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace warpdiv::testing {

namespace {

void redirect(const std::string& path, int fd, int target) {
  if (!path.empty()) fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) fd = ::open("/dev/null", O_WRONLY);
  ::dup2(fd, target);
}

}  // namespace

pid_t spawn_warpdiv(const std::vector<std::string>& args, const ChildSetup& setup) {
  // WARPDIV_BINARY in the environment overrides the build's path, as in run_warpdiv().
  const char* binary = std::getenv("WARPDIV_BINARY");
  std::vector<std::string> words = {binary != nullptr && *binary != '\0' ? binary : WARPDIV_BINARY};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid > 0) return pid;
  redirect(setup.stdout_path, setup.stdout_fd, STDOUT_FILENO);
  redirect(setup.stderr_path, -1, STDERR_FILENO);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  if (setup.file_size_limit >= 0) {
    const auto bytes = static_cast<rlim_t>(setup.file_size_limit);
    const rlimit size{bytes, bytes};
    ::setrlimit(RLIMIT_FSIZE, &size);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ}) ::signal(s, SIG_DFL);
  for (int s : setup.ignored) ::signal(s, SIG_IGN);
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

ChildEnd wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ChildEnd end;
  if (WIFEXITED(status)) end.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) end.signal = WTERMSIG(status);
  return end;
}

}  // namespace warpdiv::testing
