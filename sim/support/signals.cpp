#include "sim/support/signals.hpp"

namespace warpdiv::sim {

bool catch_unless_ignored(int signal, const struct sigaction& action, struct sigaction& previous) {
  if (::sigaction(signal, nullptr, &previous) != 0) return false;
  if ((previous.sa_flags & SA_SIGINFO) == 0 && previous.sa_handler == SIG_IGN) return false;
  return ::sigaction(signal, &action, nullptr) == 0;
}

}  // namespace warpdiv::sim
