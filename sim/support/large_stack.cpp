#include "sim/support/large_stack.hpp"

#include <pthread.h>
#include <signal.h>

#include <exception>

namespace warpdiv::sim {

namespace {

struct Call {
  const std::function<void()>* work;
  sigset_t mask;  // the caller's signal mask, restored on the new thread
  std::exception_ptr error;
};

extern "C" void* run_call(void* argument) {
  Call& call = *static_cast<Call*>(argument);
  ::pthread_sigmask(SIG_SETMASK, &call.mask, nullptr);
  try {
    (*call.work)();
  } catch (...) {
    call.error = std::current_exception();
  }
  return nullptr;
}

}  // namespace

void run_with_large_stack(const std::function<void()>& work) {
  Call call{&work, {}, nullptr};
  sigset_t all;
  sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, &call.mask);
  bool ran = false;
  for (const std::size_t size : {kLargeStackBytes, kFallbackStackBytes}) {
    pthread_attr_t attributes;
    if (::pthread_attr_init(&attributes) != 0) break;
    pthread_t thread;
    const bool started = ::pthread_attr_setstacksize(&attributes, size) == 0 &&
                         ::pthread_create(&thread, &attributes, run_call, &call) == 0;
    ::pthread_attr_destroy(&attributes);
    if (started) {
      ::pthread_join(thread, nullptr);
      ran = true;
      break;
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &call.mask, nullptr);
  if (!ran) {
    work();
    return;
  }
  if (call.error) std::rethrow_exception(call.error);
}

}  // namespace warpdiv::sim
