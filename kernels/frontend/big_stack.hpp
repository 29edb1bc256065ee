// Runs the front-end's work on a thread with a large stack. Clang's parser recurses once per level
// of a statement (an else-if chain of 100,000 branches is 100,000 levels of ParseIfStatement), far
// past the 8 MB of a main thread. No Clang type here: loader-free code may use it.
#pragma once

#include <cstddef>
#include <functional>

namespace warpdiv::frontend::detail {

/// The stack asked for first: 1 GiB of address space; pages are committed only when touched, so a
/// normal kernel costs a few hundred KB of it. Halved down to kMinBigStackBytes where the system
/// refuses the reservation (vm.overcommit_memory=2, a small RLIMIT_AS).
constexpr std::size_t kBigStackBytes = std::size_t{1} << 30;
constexpr std::size_t kMinBigStackBytes = std::size_t{64} << 20;

/// Runs `work` on a new thread with the largest stack of kBigStackBytes, its halves ... down to
/// kMinBigStackBytes that can be had (the caller's thread when none can), waits for it, and
/// rethrows what it threw.
void run_on_big_stack(const std::function<void()>& work);

}  // namespace warpdiv::frontend::detail
