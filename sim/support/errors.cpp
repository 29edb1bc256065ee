#include "sim/support/errors.hpp"

#include "sim/support/message_text.hpp"

namespace warpdiv {

namespace {

std::string located(const SourceLocation& location, const std::string& message) {
  return location.known() ? location.text() + ": " + message : message;
}

}  // namespace

const std::vector<DiagnosticInfo>& diagnostic_table() {
  static const std::vector<DiagnosticInfo> table = {
#define WARPDIV_DIAGNOSTIC(name, id, category, meaning) \
  {Diag::name, id, Category::category, meaning, Level::error},
#define WARPDIV_NOTE(name, id, category, meaning) {Diag::name, id, Category::category, meaning, Level::note},
#include "sim/support/diagnostics.def"
#undef WARPDIV_NOTE
#undef WARPDIV_DIAGNOSTIC
  };
  return table;
}

const DiagnosticInfo& info(Diag diag) { return diagnostic_table()[static_cast<std::size_t>(diag)]; }

std::optional<Diag> diagnostic_named(const std::string& id) {
  for (const DiagnosticInfo& d : diagnostic_table())
    if (id == d.id) return d.diag;
  return std::nullopt;
}

const char* category_name(Category category) {
  switch (category) {
    case Category::input:
      return "input";
    case Category::unsupported:
      return "unsupported";
    case Category::unknown:
      return "unknown-value";
    case Category::undefined:
      return "undefined-behaviour";
    case Category::budget:
      return "budget";
    case Category::no_device:
      return "no-device";
    case Category::mismatch:
      return "mismatch";
    case Category::write:
      return "write";
    case Category::interrupted:
      return "interrupted";
    case Category::internal:
      return "internal";
  }
  return "internal";
}

std::string diagnostic_tag(Diag diag) { return std::string("warpdiv-") + info(diag).id; }

std::string SourceLocation::text() const {
  return file + ":" + std::to_string(line) + (column != 0 ? ":" + std::to_string(column) : std::string());
}

Diagnostic::Diagnostic(Diag diag, const std::string& message) : Diagnostic(diag, SourceLocation{}, message) {}

Diagnostic::Diagnostic(Diag diag, SourceLocation location, const std::string& message)
    : std::runtime_error(located(location, message)),
      diag_(diag),
      location_(std::move(location)),
      message_(message) {}

std::string format_diagnostic(const Diagnostic& d, Severity severity) {
  const std::string level = severity == Severity::error ? "error" : "warning";
  const std::string prefix =
      d.location().known() ? sim::one_line(d.location().text()) : std::string("warpdiv");
  return prefix + ": " + level + ": " + sim::one_line(d.message()) + " [" + diagnostic_tag(d.diag()) + "]";
}

std::string format_note(Diag note, const std::string& text) {
  if (info(note).level != Level::note)
    throw InternalError(std::string("format_note given the error ") + diagnostic_tag(note));
  return "warpdiv: note: " + text + " [" + diagnostic_tag(note) + "]";
}

}  // namespace warpdiv
