// Typed diagnostics shared by every layer. Library code throws; only the CLI prints them and maps
// them to exit codes. Every diagnostic has a stable id and a category from the one table,
// sim/support/diagnostics.def; the category decides the exit status (exit_status), nothing else does.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpdiv {

/// What kind of problem a diagnostic names.
enum class Category {
  input,        // bad input: a flag, a size, a file
  unsupported,  // a construct or launch warpdiv cannot model
  unknown,      // a value the model cannot know
  undefined,    // undefined behaviour in the kernel
  budget,       // a time, memory or evaluation limit
  no_device,    // no GPU, driver or CUDA tool
  mismatch,     // the model and the GPU (or two engines) disagree
  write,        // an output could not be written in full
  interrupted,  // stopped by Ctrl-C
  internal,     // a bug in warpdiv
};

/// The diagnostics' ids, one per entry of sim/support/diagnostics.def (errors, then notes).
enum class Diag {
#define WARPDIV_DIAGNOSTIC(name, id, category, meaning) name,
#define WARPDIV_NOTE(name, id, category, meaning) name,
#include "sim/support/diagnostics.def"
#undef WARPDIV_NOTE
#undef WARPDIV_DIAGNOSTIC
};

/// An error stops the run (its category sets the exit status); a note is said by a run that goes on.
enum class Level { error, note };

/// One entry of the table.
struct DiagnosticInfo {
  Diag diag;
  const char* id;  // "flag-value"
  Category category;
  const char* meaning;
  Level level;
};

/// The whole table, in its order.
const std::vector<DiagnosticInfo>& diagnostic_table();
const DiagnosticInfo& info(Diag diag);
/// "input", "unsupported", "unknown-value", "undefined-behaviour", "budget", ...
const char* category_name(Category category);
/// The exit status of a run that stops on a diagnostic of this category: 2 for bad input,
/// unsupported constructs, unknown values, undefined behaviour and budgets; 3 without a device;
/// 1 for a mismatch, a failed write or an internal error; 130 when interrupted.
constexpr int exit_status(Category category) {
  switch (category) {
    case Category::input:
    case Category::unsupported:
    case Category::unknown:
    case Category::undefined:
    case Category::budget:
      return 2;
    case Category::no_device:
      return 3;
    case Category::interrupted:
      return 130;
    case Category::mismatch:
    case Category::write:
    case Category::internal:
      return 1;
  }
  return 1;
}
/// The diagnostic whose id is `id` ("flag-value"), if any.
std::optional<Diag> diagnostic_named(const std::string& id);
/// "warpdiv-flag-value": the tag printed in brackets and SARIF's rule id.
std::string diagnostic_tag(Diag diag);

/// A place in a source file; line 0: unknown.
struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  bool known() const { return line != 0; }
  std::string text() const;  // "FILE:LINE:COL" ("FILE:LINE" without a column)
};

enum class Severity { error, warning };

/// A diagnostic: its id (hence category), where in the source when known, and its one-line
/// message. what() is "FILE:LINE:COL: MESSAGE" when located, else the message.
class Diagnostic : public std::runtime_error {
 public:
  Diagnostic(Diag diag, const std::string& message);
  Diagnostic(Diag diag, SourceLocation location, const std::string& message);
  Diag diag() const { return diag_; }
  Category category() const { return info(diag_).category; }
  const SourceLocation& location() const { return location_; }
  const std::string& message() const { return message_; }

 private:
  Diag diag_;
  SourceLocation location_;
  std::string message_;
};

/// The printed form: "FILE:LINE:COL: error: MESSAGE [warpdiv-ID]" when located, else
/// "warpdiv: error: MESSAGE [warpdiv-ID]" ("warning:" for a warning). One line: the message is
/// escaped and bounded (sim/message_text).
std::string format_diagnostic(const Diagnostic& d, Severity severity = Severity::error);

/// A note's printed form: "warpdiv: note: TEXT [warpdiv-ID]". `note` is a note of the table
/// (Level::note; InternalError otherwise); the text is printed as it is (it names places itself).
std::string format_note(Diag note, const std::string& text);

/// A run refused before or while counting, exit status 2: bad input, an unsupported construct,
/// an unknown value, undefined behaviour, a budget. Catch sites that stop on any refusal catch it.
class InvalidInput : public Diagnostic {
 public:
  using Diagnostic::Diagnostic;
};

/// No usable CUDA device or driver, or a build without CUDA: exit status 3.
class NoDevice : public Diagnostic {
 public:
  explicit NoDevice(const std::string& message) : Diagnostic(Diag::no_device, message) {}
};

/// A long run stopped on request (Ctrl-C): exit status 130, no partial output.
class Interrupted : public Diagnostic {
 public:
  explicit Interrupted(const std::string& message) : Diagnostic(Diag::interrupted, message) {}
};

/// The model and the hardware (or another oracle) disagree: exit status 1.
class Mismatch : public Diagnostic {
 public:
  explicit Mismatch(const std::string& message) : Diagnostic(Diag::mismatch, message) {}
};

/// An output could not be written in full (disk full, a device error, a closed pipe): exit status 1.
class WriteFailed : public Diagnostic {
 public:
  explicit WriteFailed(const std::string& message) : Diagnostic(Diag::write_failed, message) {}
};

/// An internal check failed (a bug): exit status 1.
class InternalError : public Diagnostic {
 public:
  explicit InternalError(const std::string& message) : Diagnostic(Diag::internal, message) {}
};

}  // namespace warpdiv
