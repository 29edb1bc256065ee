#include "sim/support/fiber.hpp"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <new>
#include <stdexcept>

// AddressSanitizer (the fuzz build) must be told of each switch of stacks.
#if defined(__SANITIZE_ADDRESS__)
#define WARPDIV_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WARPDIV_ASAN_FIBERS 1
#endif
#endif
#ifdef WARPDIV_ASAN_FIBERS
extern "C" {
void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, std::size_t size);
void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old, std::size_t* size_old);
}
#endif

namespace warpdiv::sim {

namespace {

thread_local Fiber* current = nullptr;

// Around a switch from the caller's stack to the fiber's (into = true) or back.
struct SwitchNote {
#ifdef WARPDIV_ASAN_FIBERS
  void* fake = nullptr;
  SwitchNote(const void* bottom, std::size_t size) { __sanitizer_start_switch_fiber(&fake, bottom, size); }
  void arrived() { __sanitizer_finish_switch_fiber(fake, nullptr, nullptr); }
#else
  SwitchNote(const void*, std::size_t) {}
  void arrived() {}
#endif
};

#ifdef WARPDIV_ASAN_FIBERS
thread_local const void* caller_bottom = nullptr;
thread_local std::size_t caller_size = 0;
#endif

// Thrown inside a body by yield() when its fiber is cancelled; caught by the trampoline.
struct Unwind {};

}  // namespace

Fiber::Fiber(std::size_t stack_bytes) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  for (std::size_t size = stack_bytes; size >= (std::size_t{1} << 20); size /= 4) {
    const std::size_t total = size + page;
    void* p =
        ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
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
#ifdef WARPDIV_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(nullptr, &caller_bottom, &caller_size);
#endif
  try {
    f->body_();
  } catch (const Unwind&) {
  } catch (...) {
    f->error_ = std::current_exception();
  }
  f->state_ = State::Done;
#ifdef WARPDIV_ASAN_FIBERS
  __sanitizer_start_switch_fiber(nullptr, caller_bottom, caller_size);  // the fiber's frames end here
#endif
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
  ::makecontext(c, reinterpret_cast<void (*)()>(&Fiber::trampoline), 2,
                static_cast<unsigned>(self & 0xFFFFFFFFu), static_cast<unsigned>(self >> 32));
  state_ = State::Ready;
}

bool Fiber::resume() {
  if (state_ != State::Ready && state_ != State::Suspended) return false;
  Fiber* outer = current;
  current = this;
  state_ = State::Running;
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  SwitchNote note(static_cast<char*>(stack_) + page, mapped_ - page);
  ::swapcontext(static_cast<ucontext_t*>(caller_), static_cast<ucontext_t*>(context_));
  note.arrived();
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
#ifdef WARPDIV_ASAN_FIBERS
  SwitchNote note(caller_bottom, caller_size);
#else
  SwitchNote note(nullptr, 0);
#endif
  ::swapcontext(static_cast<ucontext_t*>(f->context_), static_cast<ucontext_t*>(f->caller_));
#ifdef WARPDIV_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(note.fake, &caller_bottom, &caller_size);
#endif
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
