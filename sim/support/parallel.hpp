// One small pool of helper threads for every fan-out of work: the replay's blocks, the class
// engine's corner runs (and, outside sim/, a sweep's launches and a validation's rows).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

namespace warpdiv::sim {

/// Calls fn(index, worker) for every index in [0, count), on the calling thread (worker 0) and on
/// up to min(threads, count) - 1 helper threads (workers 1 ..), and returns when every call that
/// began has returned. threads = 0 means one per core. Indices are handed out one at a time in
/// increasing order, each to whichever worker is free first; `worker` is below
/// parallel_workers(count, threads) and no two calls run on the same worker at once, so per-worker
/// state (a machine, a tally) indexed by it needs no lock.
///
/// Helpers are started once per process and kept waiting (starting a thread costs about what a
/// short item does); they run with every signal blocked, so that a signal (Ctrl-C, or the output
/// files' handlers of SIGTERM and the like) is taken by the calling threads only.
///
/// Stopping: once `stop` (when given) reads true, or a call has thrown, indices not yet handed
/// out are skipped. Indices are handed out in order, so every index below the lowest that threw
/// has run. After the calls that began have returned, the exception of the lowest index that
/// threw is rethrown (the one a sequential loop would have met first); a stop alone returns
/// normally: the caller checks its flag (and throws Interrupted, or keeps what was done).
///
/// Safe to call from several threads at once and from inside fn: every call completes, as its
/// caller takes indices too; the helpers serve the latest call.
void parallel_for(std::size_t count, unsigned threads,
                  const std::function<void(std::size_t index, unsigned worker)>& fn,
                  const std::atomic<bool>* stop = nullptr);

/// The number of workers parallel_for(count, threads, ...) uses: min(threads or one per core,
/// count), at least 1.
unsigned parallel_workers(std::size_t count, unsigned threads);

}  // namespace warpdiv::sim
