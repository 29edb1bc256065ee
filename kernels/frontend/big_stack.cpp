#include "kernels/frontend/big_stack.hpp"

#include <pthread.h>

#include <exception>

namespace warpdiv::frontend::detail {
namespace {

struct Job {
  const std::function<void()>* work;
  std::exception_ptr thrown;
};

void* run_job(void* argument) {
  auto* job = static_cast<Job*>(argument);
  try {
    (*job->work)();
  } catch (...) {
    job->thrown = std::current_exception();
  }
  return nullptr;
}

}  // namespace

void run_on_big_stack(const std::function<void()>& work) {
  Job job{&work, nullptr};
  for (std::size_t size = kBigStackBytes; size >= kMinBigStackBytes; size /= 2) {
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) break;
    pthread_t thread;
    const bool started = pthread_attr_setstacksize(&attributes, size) == 0 &&
                         pthread_create(&thread, &attributes, run_job, &job) == 0;
    pthread_attr_destroy(&attributes);
    if (!started) continue;  // EAGAIN: no room for this stack; try half
    pthread_join(thread, nullptr);
    if (job.thrown) std::rethrow_exception(job.thrown);
    return;
  }
  work();  // no thread could be started: the caller's own stack
}

}  // namespace warpdiv::frontend::detail
