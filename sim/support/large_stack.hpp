// Running work on a thread with a large stack. A kernel's statements and expressions nest (an
// else-if chain of 100,000 branches is a chain 100,000 deep in Clang's AST and in the model) and
// the parser, the model's checks and the engines follow that nesting recursively; on a default
// 8 MiB stack they would overflow long before the model's limits (sim/model/ir.hpp: kMaxNesting,
// kMaxDepth) are reached. The stack is reserved address space: only the pages a run touches are
// committed.
#pragma once

#include <cstddef>
#include <functional>

namespace warpdiv::sim {

/// The stack run_with_large_stack() asks for first (1 GiB), and the smaller one it falls back to.
constexpr std::size_t kLargeStackBytes = std::size_t{1} << 30;
constexpr std::size_t kFallbackStackBytes = std::size_t{256} << 20;

/// Runs `work` on a new thread with a large stack and waits for it; an exception `work` throws is
/// rethrown here. Signals stay blocked on the calling thread meanwhile, so that a signal (Ctrl-C,
/// a closed pipe) reaches the thread doing the work, with the caller's signal mask. When no such
/// thread can be made (address space or thread limits), `work` runs on the calling thread.
void run_with_large_stack(const std::function<void()>& work);

}  // namespace warpdiv::sim
