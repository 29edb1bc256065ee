// Fibers: a function run on a stack of its own that can stop in the middle (yield) and be resumed
// later, on one thread. The replay runs the warps of a block this way when it follows the block's
// shared memory (sim/engine/ir_engine.hpp): each warp runs up to its next __syncthreads(), yields, and
// goes on once every warp of the block has arrived there. Built on POSIX ucontext; the stack is
// reserved address space (only the pages a run touches are committed), with a guard page below.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>

namespace warpdiv::sim {

class Fiber {
 public:
  /// Reserves a stack of up to `stack_bytes` (smaller where the address space refuses it).
  explicit Fiber(std::size_t stack_bytes);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  /// Makes `body` the fiber's work, to begin at the next resume(). A fiber still suspended in an
  /// earlier body is unwound first (cancel()).
  void start(std::function<void()> body);
  /// Runs the body until it yields (returns true) or ends (returns false). An exception the body
  /// throws ends it and is rethrown here.
  bool resume();
  /// From inside a running fiber's body: back to its resume(), which returns true.
  static void yield();
  /// Unwinds a suspended body (yield() throws inside it and the body's frames are destroyed);
  /// nothing when it is not suspended.
  void cancel();
  bool suspended() const { return state_ == State::Suspended; }

 private:
  enum class State { Idle, Ready, Running, Suspended, Done };
  static void trampoline(unsigned low, unsigned high);
  void* stack_ = nullptr;  // the mapping (guard page first)
  std::size_t mapped_ = 0;
  void* context_ = nullptr;  // ucontext_t of the body
  void* caller_ = nullptr;   // ucontext_t of resume()'s caller
  std::function<void()> body_;
  std::exception_ptr error_;
  State state_ = State::Idle;
  bool cancelling_ = false;
};

}  // namespace warpdiv::sim
