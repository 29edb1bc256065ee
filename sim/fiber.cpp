#include "sim/fiber.hpp"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <new>
#include <stdexcept>

namespace warpdiv::sim {

namespace {

thread_local Fiber* current = nullptr;

// Thrown inside a body by yield() when its fiber is cancelled; caught by the trampoline.
struct Unwind {};

}  // namespace

Fiber::Fiber(std::size_t stack_bytes) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  for (std::size_t size = stack_bytes; size >= (std::size_t{1} << 20); size /= 4) {
    const std::size_t total = size + page;
    void* p = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) continue;
    ::mprotect(p, page, PROT_NONE);  // the guard page: an overflow faults instead of corrupting
    stack_ = p;
    mapped_ = total;
    break;
  }
  if (stack_ == nullptr) throw std::bad_alloc();
  context_ = new ucontext_t;
  caller_ = new ucontext_t;
}

Fiber::~Fiber() {
  cancel();
  delete static_cast<ucontext_t*>(context_);
  delete static_cast<ucontext_t*>(caller_);
  if (stack_ != nullptr) ::munmap(stack_, mapped_);
}

void Fiber::trampoline(unsigned low, unsigned high) {
  Fiber* f = reinterpret_cast<Fiber*>((static_cast<std::uintptr_t>(high) << 32) | low);
  try {
    f->body_();
  } catch (const Unwind&) {
  } catch (...) {
    f->error_ = std::current_exception();
  }
  f->state_ = State::Done;
  // uc_link returns to resume()'s caller.
}

void Fiber::start(std::function<void()> body) {
  cancel();
  body_ = std::move(body);
  error_ = nullptr;
  auto* c = static_cast<ucontext_t*>(context_);
  ::getcontext(c);
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  c->uc_stack.ss_sp = static_cast<char*>(stack_) + page;
  c->uc_stack.ss_size = mapped_ - page;
  c->uc_link = static_cast<ucontext_t*>(caller_);
  const auto self = reinterpret_cast<std::uintptr_t>(this);
  ::makecontext(c, reinterpret_cast<void (*)()>(&Fiber::trampoline), 2, static_cast<unsigned>(self & 0xFFFFFFFFu),
                static_cast<unsigned>(self >> 32));
  state_ = State::Ready;
}

bool Fiber::resume() {
  if (state_ != State::Ready && state_ != State::Suspended) return false;
  Fiber* outer = current;
  current = this;
  state_ = State::Running;
  ::swapcontext(static_cast<ucontext_t*>(caller_), static_cast<ucontext_t*>(context_));
  current = outer;
  if (state_ == State::Done) {
    body_ = nullptr;
    if (error_) {
      std::exception_ptr e = error_;
      error_ = nullptr;
      std::rethrow_exception(e);
    }
    return false;
  }
  return true;
}

void Fiber::yield() {
  Fiber* f = current;
  if (f == nullptr) throw std::logic_error("Fiber::yield outside a fiber");
  f->state_ = State::Suspended;
  ::swapcontext(static_cast<ucontext_t*>(f->context_), static_cast<ucontext_t*>(f->caller_));
  if (f->cancelling_) throw Unwind{};
}

void Fiber::cancel() {
  if (state_ == State::Ready) {
    body_ = nullptr;
    state_ = State::Idle;
    return;
  }
  if (state_ != State::Suspended) return;
  cancelling_ = true;
  try {
    resume();
  } catch (...) {
  }
  cancelling_ = false;
  state_ = State::Idle;
  body_ = nullptr;
}

}  // namespace warpdiv::sim
