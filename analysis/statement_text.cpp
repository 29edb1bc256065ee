#include "analysis/statement_text.hpp"

#include <algorithm>
#include <fstream>

#include "analysis/check.hpp"
#include "analysis/check_source.hpp"

namespace warpdiv::analysis {

namespace ir = sim::ir;

const std::vector<std::string>& SourceLines::of(std::uint32_t file) {
  static const std::vector<std::string> none;
  if (file >= kernel_.files.size()) return none;
  if (!kernel_.files[file].lines.empty() || !from_disk_) return kernel_.files[file].lines;
  auto it = read_.find(file);
  if (it != read_.end()) return it->second;
  std::vector<std::string> lines;
  std::ifstream in(kernel_.files[file].path, std::ios::binary);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return read_.emplace(file, std::move(lines)).first->second;
}

const std::string* SourceLines::line(std::uint32_t file, std::uint32_t line) {
  const std::vector<std::string>& lines = of(file);
  return line >= 1 && line <= lines.size() ? &lines[line - 1] : nullptr;
}

bool within(const ir::SourceRange& r, const ir::SourceRange& of) {
  return r.file == of.file && r.end_line != 0 &&
         (r.end_line > of.line || (r.end_line == of.line && r.end_column >= of.column));
}

bool is_branch(const ir::Stmt& s) {
  return s.kind == ir::StmtKind::If || s.kind == ir::StmtKind::Switch || s.kind == ir::StmtKind::Loop;
}

// The end of what keys a statement: a condition's (if, while, switch), a for's header (its
// condition and step), anything else's own range.
ir::SourceRange statement_end(const ir::Kernel& k, const ir::Stmt& s) {
  if (!is_branch(s)) return s.range;
  ir::SourceRange end;
  bool found = false;
  const auto later = [&](const ir::SourceRange& c) {
    if (!within(c, s.range)) return;
    if (!found || c.end_line > end.end_line || (c.end_line == end.end_line && c.end_column > end.end_column))
      end = c;
    found = true;
  };
  if (s.value != ir::kNone && static_cast<std::size_t>(s.value) < k.exprs.size())
    later(k.exprs[s.value].range);
  if (s.kind == ir::StmtKind::Loop && s.loop_kind == ir::LoopKind::For) {
    if (s.init != ir::kNone) later(k.stmts[s.init].range);
    if (s.step != ir::kNone) later(k.stmts[s.step].range);
  }
  return found ? end : s.range;
}

namespace {

// The parentheses `text` leaves open (in its tokens: none in a literal or a comment).
std::size_t open_parens(const std::string& text) {
  std::size_t open = 0;
  for (const SourceToken& t : source_tokens(text)) {
    if (t.kind != SourceToken::Kind::punctuator || t.end != t.begin + 1) continue;
    if (text[t.begin] == '(') ++open;
    if (text[t.begin] == ')' && open > 0) --open;
  }
  return open;
}

// How many of the tokens after (line n, byte `at`) up to line `until`, comments aside, are ')' in a
// row, at most `open`: those closing a condition or a header (and parentheses around the condition).
std::size_t closing_parens(SourceLines& lines, std::uint32_t file, std::uint32_t n, std::size_t at,
                           std::uint32_t until, std::size_t open) {
  std::string rest;
  for (const std::string* line = lines.line(file, n); line && n <= until;
       line = lines.line(file, ++n), at = 0)
    rest += (at < line->size() ? line->substr(at) : std::string()) + "\n";
  std::size_t closing = 0;
  for (const SourceToken& t : source_tokens(rest)) {
    if (t.kind == SourceToken::Kind::comment) continue;
    if (closing == open || rest.compare(t.begin, t.end - t.begin, ")") != 0) break;
    ++closing;
  }
  return closing;
}

// The source text from the statement's start to `end` (inclusive, byte columns), lines joined,
// with the closing parentheses that follow a condition; empty when the lines are not known.
std::string text_to(SourceLines& lines, const ir::Stmt& s, const ir::SourceRange& end, bool branch) {
  // A token spelled across a line splice (a backslash ending the line): Clang's end column runs
  // past its line, into the next ones.
  std::uint32_t last = end.end_line;
  std::size_t last_column = end.end_column;
  for (const std::string* l = lines.line(s.range.file, last);
       l != nullptr && last_column > l->size() && !l->empty() && l->back() == '\\';
       l = lines.line(s.range.file, last)) {
    last_column -= l->size() + 1;
    ++last;
  }
  std::string text;
  for (std::uint32_t n = s.range.line; n != 0 && n <= last; ++n) {
    const std::string* line = lines.line(s.range.file, n);
    if (!line) return "";
    const std::size_t from = n == s.range.line ? s.range.column - 1 : 0;
    const std::size_t to = n == last ? std::min<std::size_t>(last_column, line->size()) : line->size();
    if (from > to) return "";
    text += (text.empty() ? "" : "\n") + line->substr(from, to - from);
  }
  if (branch && !text.empty())  // the ')' closing the condition or the header
    text.append(closing_parens(lines, s.range.file, last, last_column, s.range.end_line, open_parens(text)),
                ')');
  return normalise_statement(text);
}

}  // namespace

std::string statement_text(SourceLines& lines, const ir::Kernel& kernel, const ir::Stmt& s) {
  if (s.kind == ir::StmtKind::Loop && s.loop_kind == ir::LoopKind::Do) return "";
  return text_to(lines, s, statement_end(kernel, s), is_branch(s));
}

}  // namespace warpdiv::analysis
