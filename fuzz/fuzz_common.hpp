// Shared by the fuzz targets: what counts as a normal outcome. The project's typed errors
// (sim/support/errors.hpp) are answers to bad input; each must be one short line. Anything else (another
// exception, a crash, a sanitizer report, a leak, a hang) is a finding.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "sim/support/errors.hpp"

namespace warpdiv::fuzz {

/// The most a message of the readers may hold: sim::one_line() cuts at 1000 bytes, plus a note.
constexpr std::size_t kMaxMessageBytes = 1100;

/// How strictly a message is checked: one bounded line, or (for code that quotes a user's value
/// raw and leaves the escaping to the CLI's sim::one_line()) bounded only.
/// `any`: Clang's own diagnostics, which the CLI prints as Clang prints them (several lines).
enum class Message { one_line, bounded, any };

/// Aborts (a finding) when an expected error's message breaks `rule`.
inline void check_message(const std::exception& e, Message rule) {
  if (rule == Message::any) return;
  const char* what = e.what();
  const std::size_t length = std::strlen(what);
  if (length > kMaxMessageBytes || (rule == Message::one_line && std::strpbrk(what, "\n\r") != nullptr)) {
    std::fprintf(stderr, "fuzz: a message that is not one bounded line (%zu bytes): %.300s\n", length, what);
    std::abort();
  }
}

/// Runs `f`, taking the project's expected errors as normal outcomes.
template <class F>
void expect_no_surprise(F f, Message rule = Message::one_line) {
  try {
    f();
  } catch (const InvalidInput& e) {
    check_message(e, rule);
  } catch (const NoDevice& e) {
    check_message(e, rule);
  } catch (const Interrupted& e) {
    check_message(e, rule);
  } catch (const Mismatch& e) {
    check_message(e, rule);
  } catch (const WriteFailed& e) {
    check_message(e, rule);
  }
}

}  // namespace warpdiv::fuzz
