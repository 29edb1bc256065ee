#include "sim/support/parallel.hpp"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

namespace warpdiv::sim {

namespace {

// One call's shared state. A helper that wakes after the caller took the last index does
// nothing, and the caller does not wait for it: the job outlives the call (shared), and `work`
// (which refers to the caller's frame) is called only for an index taken before all were done.
struct Job {
  std::size_t items = 0;
  const std::function<void(std::size_t, unsigned)>* work = nullptr;
  const std::atomic<bool>* stop = nullptr;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::size_t done = 0;      // indices run or skipped, under mutex
  std::exception_ptr error;  // of the lowest index that threw, under mutex
  std::size_t error_index = 0;
  std::mutex mutex;
  std::condition_variable finished;

  bool halted() const {
    return failed.load(std::memory_order_relaxed) ||
           (stop != nullptr && stop->load(std::memory_order_relaxed));
  }
  void finish(std::size_t n, std::size_t index, std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mutex);
    if (e && (!error || index < error_index)) {
      error = std::move(e);
      error_index = index;
    }
    done += n;
    if (done == items) finished.notify_all();
  }
};

// Takes indices until none is left; once the job is halted, the next taker skips every index
// not yet handed out (each index is accounted for once: by its taker, or by that exchange).
void take(Job& job, unsigned worker) {
  for (;;) {
    const std::size_t i = job.next.fetch_add(1);
    if (i >= job.items) return;
    if (job.halted()) {
      const std::size_t rest = job.next.exchange(job.items);
      job.finish(1 + (rest < job.items ? job.items - rest : 0), i, nullptr);
      return;
    }
    std::exception_ptr error;
    try {
      (*job.work)(i, worker);
    } catch (...) {
      error = std::current_exception();
      job.failed = true;
    }
    job.finish(1, i, std::move(error));
  }
}

// Helper threads started once per process and kept waiting: a class engine's corner runs take
// tens of microseconds each, about what starting a thread costs.
class Helpers {
 public:
  static Helpers& get() {
    static Helpers* helpers = new Helpers;  // never destroyed: helpers may still wait at exit
    return *helpers;
  }
  // Runs `job` on the caller (worker 0) and up to `helpers` helper threads (workers 1 ..).
  void run(const std::shared_ptr<Job>& job, unsigned helpers) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      start(helpers);
      job_ = job;
      ++generation_;
      wanted_ = helpers;
    }
    wake_.notify_all();
    take(*job, 0);
    std::unique_lock<std::mutex> lock(job->mutex);
    job->finished.wait(lock, [&] { return job->done == job->items; });
    std::lock_guard<std::mutex> clear(mutex_);
    if (job_ == job) job_.reset();
  }

 private:
  // Starts helpers up to `helpers` (under mutex_). Helpers take no signals: they outlive the runs
  // that start them, and a signal handled on one would not be held back where the caller blocks
  // signals (output files do, while they list a temporary file). They inherit the mask they
  // start with.
  void start(unsigned helpers) {
    if (threads_ >= helpers) return;
    sigset_t all, previous;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &previous);
    try {
      while (threads_ < helpers) {
        std::thread([this, id = threads_ + 1] { serve(id); }).detach();
        ++threads_;
      }
    } catch (...) {
      ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
      throw;
    }
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  }
  void serve(unsigned id) {
    std::uint64_t seen = 0;
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        if (id > wanted_) continue;
        job = job_;
      }
      if (job) take(*job, id);
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::shared_ptr<Job> job_;
  std::uint64_t generation_ = 0;
  unsigned threads_ = 0;
  unsigned wanted_ = 0;
};

}  // namespace

unsigned parallel_workers(std::size_t count, unsigned threads) {
  const unsigned wanted = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(wanted, count)));
}

void parallel_for(std::size_t count, unsigned threads,
                  const std::function<void(std::size_t index, unsigned worker)>& fn,
                  const std::atomic<bool>* stop) {
  if (count == 0) return;
  auto job = std::make_shared<Job>();
  job->items = count;
  job->work = &fn;
  job->stop = stop;
  const unsigned workers = parallel_workers(count, threads);
  if (workers == 1)
    take(*job, 0);
  else
    Helpers::get().run(job, workers - 1);
  if (job->error) std::rethrow_exception(job->error);
}

}  // namespace warpdiv::sim
