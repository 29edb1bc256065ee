// A statement's own source text, as reports and `warpdiv check` name it: a condition's header up
// to the ')' that closes it (`if (t < 5)`, `for (int i = 0; i < n; ++i)`), anything else its own
// range (`out[t] = 1;` without what follows it on the line), whitespace and line splices
// normalised.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/model/ir.hpp"

namespace warpdiv::analysis {

/// The lines of a kernel's files: from the model, else (with `from_disk`) read from disk; empty
/// when neither has them.
class SourceLines {
 public:
  explicit SourceLines(const sim::ir::Kernel& kernel, bool from_disk = true)
      : kernel_(kernel), from_disk_(from_disk) {}
  const std::vector<std::string>& of(std::uint32_t file);
  const std::string* line(std::uint32_t file, std::uint32_t line);

 private:
  const sim::ir::Kernel& kernel_;
  bool from_disk_;
  std::map<std::uint32_t, std::vector<std::string>> read_;  // the files read from disk
};

/// Whether `r` ends at or after the start of `of`, in its file.
bool within(const sim::ir::SourceRange& r, const sim::ir::SourceRange& of);

/// An if, switch or loop.
bool is_branch(const sim::ir::Stmt& s);

/// Where a statement's text ends: a condition's (if, while, switch), a for's header (its
/// condition and step), anything else's own range.
sim::ir::SourceRange statement_end(const sim::ir::Kernel& kernel, const sim::ir::Stmt& s);

/// The statement's text from its start to statement_end(), lines joined, with the closing
/// parentheses that follow a condition, normalised (normalise_statement); "" when its lines are
/// not known, and for a do-while loop (its condition comes last).
std::string statement_text(SourceLines& lines, const sim::ir::Kernel& kernel, const sim::ir::Stmt& s);

}  // namespace warpdiv::analysis
