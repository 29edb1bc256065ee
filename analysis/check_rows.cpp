// `warpdiv check`'s rows: a report's rows made one per source statement, keyed by function, text
// and ordinal, with the single-lane branches and the in-source suppressions they carry.
#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "analysis/check.hpp"
#include "analysis/check_source.hpp"
#include "analysis/statement_text.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::analysis {

namespace ir = sim::ir;
using sim::Count;

bool single_lane_branch(const CheckRow& row) {
  return row.kind == "if" && row.divergent > 0 && row.taken_lanes == row.divergent;
}

const std::vector<std::pair<std::string, std::string>>& check_suppression_groups() {
  static const std::vector<std::pair<std::string, std::string>> groups = {
      {"divergence", "divergent-branch,divergent-evaluations,divergence-regressed"},
      {"simd", "simd-efficiency,simd-efficiency-regressed"},
      {"memory",
       "sector-efficiency,sectors-per-request,bank-conflicts-per-request,bank-conflicts,"
       "sector-efficiency-regressed,bank-conflicts-regressed,memory-not-counted,undefined-behaviour"},
      {"barrier", "partial-barrier,partial-barrier-regressed"},
      {"single-lane", "single-lane-branch"},
      {"all",
       "divergent-branch,divergent-evaluations,divergence-regressed,simd-efficiency,"
       "simd-efficiency-regressed,sector-efficiency,sectors-per-request,"
       "bank-conflicts-per-request,bank-conflicts,sector-efficiency-regressed,"
       "bank-conflicts-regressed,memory-not-counted,undefined-behaviour,partial-barrier,"
       "partial-barrier-regressed,single-lane-branch"},
  };
  return groups;
}

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::string item;
  for (const char c : text + separator) {
    if (c != separator) {
      item += c;
      continue;
    }
    out.push_back(normalise_statement(item));
    item.clear();
  }
  return out;
}

}  // namespace

std::vector<std::string> allowed_rules(const std::string& names, std::vector<std::string>& unknown) {
  std::vector<std::string> rules;
  for (const std::string& name : split(names, ',')) {
    bool known = false;
    for (const auto& [group, members] : check_suppression_groups())
      if (name == group) {
        for (const std::string& r : split(members, ',')) rules.push_back(r);
        known = true;
      }
    for (const CheckRule& r : check_rules())
      if (name == r.id && r.level != FindingLevel::note) {
        rules.emplace_back(r.id);
        known = true;
      }
    if (!known) unknown.push_back(name);
  }
  return rules;
}

namespace {

// Where each statement of the kernel sits: its function (the kernel's, or the innermost inlined
// __device__ function's), the statement findings count it for (a loop for its init and step, a
// statement for its parts: statement_parts), the innermost `if` whose taken side holds it, and the
// innermost if, loop or switch of its function that holds it (`in_else`: in that if's else).
struct Place {
  std::string function;
  ir::StmtId owner = ir::kNone;
  ir::StmtId then_of = ir::kNone;
  ir::StmtId parent = ir::kNone;
  bool in_else = false;
};

class Placer {
 public:
  explicit Placer(const ir::Kernel& k) : kernel_(k), places_(k.stmts.size()), parts_(statement_parts(k)) {}
  std::vector<Place> run() {
    Context top;
    top.function = top.caller = kernel_.name;
    visit(kernel_.root, top);
    return std::move(places_);
  }

 private:
  struct Context {
    std::string function, caller;  // the innermost function, and the one calling it
    ir::StmtId owner = ir::kNone, then_of = ir::kNone, parent = ir::kNone;
    bool in_else = false;
  };

  void visit(ir::StmtId id, const Context& c) {
    if (id < 0 || static_cast<std::size_t>(id) >= kernel_.stmts.size()) return;
    const ir::Stmt& s = kernel_.stmts[id];
    const StatementPart& part = parts_[id];
    if (part.argument) {  // part of the call, in the caller
      places_[id] = {c.caller, part.whole, c.then_of, c.parent, c.in_else};
      for (const ir::StmtId child : s.children) visit(child, c);
      if (s.kind == ir::StmtKind::InlinedCall) visit_call(id, s, c);
      return;
    }
    places_[id] = {c.function,
                   part.whole != ir::kNone ? part.whole
                   : c.owner == ir::kNone  ? id
                                           : c.owner,
                   c.then_of, c.parent, c.in_else};
    Context inner = c, nested = c;  // its parts; the statements it holds
    nested.parent = id;
    nested.in_else = false;
    switch (s.kind) {
      case ir::StmtKind::If:
        nested.then_of = id;
        visit(s.then_stmt, nested);
        nested.then_of = c.then_of;
        nested.in_else = true;
        visit(s.else_stmt, nested);
        break;
      case ir::StmtKind::Loop:
        inner.owner = id;
        visit(s.init, inner);
        visit(s.step, inner);
        visit(s.body, nested);
        break;
      case ir::StmtKind::InlinedCall:
        visit_call(id, s, c);
        break;
      default:
        for (const ir::StmtId child : s.children) visit(child, s.kind == ir::StmtKind::Switch ? nested : c);
    }
  }
  void visit_call(ir::StmtId id, const ir::Stmt& s, const Context& c) {
    Context inner = c;
    inner.caller = places_[id].function;
    inner.function = s.description.empty() ? c.function : s.description;
    if (inner.function != c.function) {
      inner.parent = ir::kNone;
      inner.in_else = false;
    }
    visit(s.body, inner);
  }
  const ir::Kernel& kernel_;
  std::vector<Place> places_;
  std::vector<StatementPart> parts_;
};

// The `warpdiv: allow(NAMES)` comments of the kernel's files: a comment (`//` or `/* */`, never
// text in a string or character literal) whose text starts with `warpdiv:`, read once per file.
class Suppressions {
 public:
  explicit Suppressions(SourceLines& lines) : lines_(lines) {}

  // The rules the comments on the statement's line, or alone on the line above, allow; each
  // malformed one reported once in `notes` (bad-suppression).
  void read(const ir::SourceRange& at, CheckRow& row, std::vector<Finding>& notes) {
    File& file = of(at.file);
    for (const std::uint32_t n : {at.line, at.line - 1}) {
      if (n == 0 || (n != at.line && file.code_lines.count(n))) continue;  // code above
      const auto it = file.by_line.find(n);
      if (it == file.by_line.end()) continue;
      for (Comment& c : it->second) {
        row.allowed.insert(row.allowed.end(), c.rules.begin(), c.rules.end());
        for (const std::string& problem : c.problems) notes.push_back(note(row, c, problem));
        c.problems.clear();  // reported once, whichever statement reads it first
      }
    }
  }

 private:
  struct Comment {
    std::uint32_t line = 0, column = 0;  // where its `warpdiv:` starts
    std::vector<std::string> rules;
    std::vector<std::string> problems;  // not yet reported
  };
  struct File {
    std::map<std::uint32_t, std::vector<Comment>> by_line;  // by the line the comment starts on
    std::set<std::uint32_t> code_lines;                     // lines holding more than comments
  };

  File& of(std::uint32_t index) {
    const auto cached = files_.find(index);
    if (cached != files_.end()) return cached->second;
    File& file = files_[index];
    std::string text;
    for (const std::string& line : lines_.of(index)) text += line + "\n";
    for (const SourceToken& t : source_tokens(text)) {
      if (t.kind != SourceToken::Kind::comment) {
        for (std::uint32_t n = t.line; n <= t.end_line; ++n) file.code_lines.insert(n);
        continue;
      }
      if (std::optional<Comment> c = comment(text, t)) file.by_line[t.line].push_back(std::move(*c));
    }
    return file;
  }

  static std::optional<Comment> comment(const std::string& text, const SourceToken& t) {
    const std::size_t body = t.begin + 2;  // after `//` or `/*`
    std::size_t end = t.end;
    if (text.compare(t.begin, 2, "/*") == 0 && end - body >= 2 && text.compare(end - 2, 2, "*/") == 0)
      end -= 2;
    const std::size_t mark = text.find_first_not_of(" \t\r\n", body);
    if (mark >= end || text.compare(mark, 8, "warpdiv:") != 0) return std::nullopt;
    Comment c;
    c.line = t.line;
    c.column = t.column;
    for (std::size_t i = t.begin; i < mark; ++i) {
      if (text[i] == '\n') {
        c.column = 1;
        ++c.line;
      } else {
        ++c.column;
      }
    }
    static const std::string kForm = "warpdiv: allow(";
    const std::size_t close = text.find(')', mark);
    if (text.compare(mark, kForm.size(), kForm) != 0 || mark + kForm.size() > end)
      c.problems.push_back(
          "a comment starting 'warpdiv:' must read 'warpdiv: allow(NAME, ...)': "
          "it allows nothing");
    else if (close >= end)
      c.problems.push_back("warpdiv: allow( is not closed by ')' in its comment: it allows nothing");
    else
      unknown_names(text.substr(mark + kForm.size(), close - mark - kForm.size()), c);
    return c;
  }

  static void unknown_names(const std::string& names, Comment& c) {
    std::vector<std::string> unknown;
    c.rules = allowed_rules(names, unknown);
    std::string groups;
    for (const auto& group : check_suppression_groups()) groups += group.first + ", ";
    for (const std::string& name : unknown)
      c.problems.push_back("warpdiv: allow(...) names " + sim::quote_value(name) +
                           ", neither a rule nor a group (" + groups + "or a rule id): it allows nothing");
  }

  static Finding note(const CheckRow& row, const Comment& c, const std::string& message) {
    Finding f;
    f.rule = "bad-suppression";
    f.level = FindingLevel::note;
    f.fails = false;
    f.check = row.check;
    f.file = row.file;
    f.line = c.line;
    f.column = c.column;
    f.message = message;
    return f;
  }

  SourceLines& lines_;
  std::map<std::uint32_t, File> files_;
};

void add_counts(CheckRow& c, const SourceRow& r, bool own) {
  c.warp_evaluations += r.counts.warp_evaluations;
  c.active_lanes += r.counts.active_lanes;
  if (r.condition && own) {
    c.condition = true;
    c.branch_evaluations += r.counts.warp_evaluations;
    c.divergent += r.counts.divergent;
    c.taken_lanes += r.counts.taken_lanes;
  }
  if (r.barrier) {
    c.barrier = true;
    c.block_executions += r.counts.block_executions;
    c.partial_block_executions += r.counts.partial_block_executions;
  }
  if (r.memory) {
    if (c.memory)
      *c.memory += *r.memory;
    else
      c.memory = r.memory;
  }
}

}  // namespace

namespace {

std::string place_text(const CheckRow& row) {
  return std::to_string(row.line) + ":" + std::to_string(row.column);
}

// The report's rows gathered one per source statement of each function: a statement's key is its
// owner's place (a loop for its init and step), kind and function, so that copies and parts land in
// one group whether the report gives them one row each or one row in all, while the instantiations
// of a template, which share its statements' places, keep a row each under their own names.
class RowBuilder {
 public:
  RowBuilder(const std::string& check, const ir::Kernel& kernel, int warp_size, const std::string& root,
             std::vector<Finding>& notes)
      : check_(check),
        kernel_(kernel),
        warp_size_(warp_size),
        root_(root),
        notes_(notes),
        places_(Placer(kernel).run()),
        lines_(kernel),
        suppressions_(lines_) {}

  void add(const SourceRow& r) {
    if (r.iteration || !known(r.statement)) return;
    const std::size_t g = group(r.statement, r);
    ++groups_[g].row.copies;
    add_counts(groups_[g].row, r, r.statement == owner(r.statement));
  }

  // The accesses the count has no figures for, each on its statement's row.
  void add_not_counted(const MemorySection& memory) {
    for (const AccessRow& a : memory.accesses) {
      if (a.not_counted.empty() || !known(a.statement)) continue;
      const auto found = index_.find(key(a.statement));
      if (found == index_.end()) continue;
      CheckRow& row = groups_[found->second].row;
      const std::string text = a.where + ": " + a.kind + " '" + a.text + "': " + a.not_counted;
      for (std::vector<std::string>* list : {&row.not_counted, a.undefined ? &row.undefined : nullptr})
        if (list != nullptr && std::find(list->begin(), list->end(), text) == list->end())
          list->push_back(text);
    }
  }

  // Each statement every copy of which lies in the taken side of a single-lane branch, marked.
  std::vector<CheckRow> rows(const SourceReport& report) {
    for (const SourceRow& r : report.rows) {
      if (r.iteration || !known(r.statement)) continue;
      for (ir::StmtId at = places_[r.statement].then_of; at != ir::kNone; at = places_[at].then_of) {
        const auto branch = index_.find(key(at));
        if (branch == index_.end() || !single_lane_branch(groups_[branch->second].row)) continue;
        Group& g = groups_[index_.at(key(r.statement))];
        ++g.in_single_lane;
        g.single_lane = place_text(groups_[branch->second].row);
        break;
      }
    }
    for (Group& g : groups_) g.row.within = enclosing(g.id);
    std::vector<CheckRow> out;
    for (Group& g : groups_) {
      if (single_lane_branch(g.row))
        g.row.single_lane = place_text(g.row);
      else if (g.in_single_lane == g.row.copies)
        g.row.single_lane = g.single_lane;
      out.push_back(std::move(g.row));
    }
    return out;
  }

 private:
  using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::string, std::string>;
  struct Group {
    ir::StmtId id = ir::kNone;  // the statement (its owner)
    CheckRow row;
    std::size_t in_single_lane = 0;  // rows inside a single-lane branch's taken side
    std::string single_lane;
  };

  bool known(ir::StmtId id) const { return id >= 0 && static_cast<std::size_t>(id) < places_.size(); }
  ir::StmtId owner(ir::StmtId id) const { return places_[id].owner == ir::kNone ? id : places_[id].owner; }
  // The texts of the if, loop and switch statements of its function that hold the statement,
  // outermost first, each followed by " else" where it is in that if's else (CheckRow::within).
  std::string enclosing(ir::StmtId id) const {
    std::vector<std::string> texts;
    for (ir::StmtId at = id; places_[at].parent != ir::kNone; at = owner(places_[at].parent)) {
      const auto found = index_.find(key(places_[at].parent));
      const std::string text = found != index_.end()
                                   ? groups_[found->second].row.statement
                                   : ir::report_kind(kernel_.stmts[owner(places_[at].parent)]);
      texts.push_back(text + (places_[at].in_else ? " else" : ""));
    }
    std::string out;
    for (std::size_t k = texts.size(); k-- > 0;) out += texts[k] + (k > 0 ? " > " : "");
    return out;
  }
  Key key(ir::StmtId id) const {
    const ir::Stmt& s = kernel_.stmts[owner(id)];
    return Key{s.range.file, s.range.line, s.range.column, ir::report_kind(s), places_[owner(id)].function};
  }

  std::size_t group(ir::StmtId id, const SourceRow& r) {
    const auto [it, fresh] = index_.emplace(key(id), groups_.size());
    if (!fresh) return it->second;
    const ir::Stmt& s = kernel_.stmts[owner(id)];
    Group g;
    g.id = owner(id);
    CheckRow& c = g.row;
    c.check = check_;
    c.function = places_[owner(id)].function;
    c.file = s.range.file < kernel_.files.size() ? relative_to_root(kernel_.files[s.range.file].path, root_)
                                                 : r.file;
    c.line = s.range.line;
    c.column = s.range.column;
    c.kind = ir::report_kind(s);
    c.warp_size = warp_size_;
    c.copies = 0;
    const ir::SourceRange end = statement_end(kernel_, s);
    if (within(end, s.range)) {
      c.end_line = end.end_line;
      c.end_column = end.end_column;
    }
    c.statement = statement_text(lines_, kernel_, s);
    if (c.statement.empty()) c.statement = normalise_statement(r.text);
    suppressions_.read(s.range, c, notes_);
    groups_.push_back(std::move(g));
    return it->second;
  }

  const std::string& check_;
  const ir::Kernel& kernel_;
  int warp_size_;
  const std::string& root_;
  std::vector<Finding>& notes_;
  std::vector<Place> places_;
  SourceLines lines_;
  Suppressions suppressions_;
  std::map<Key, std::size_t> index_;
  std::vector<Group> groups_;
};

}  // namespace

std::vector<CheckRow> make_check_rows(const std::string& check, const SourceReport& report,
                                      const ir::Kernel& kernel, int warp_size, const std::string& root,
                                      std::vector<Finding>& notes) {
  RowBuilder builder(check, kernel, warp_size, root, notes);
  for (const SourceRow& r : report.rows) builder.add(r);
  builder.add_not_counted(report.memory);
  std::vector<CheckRow> rows = builder.rows(report);
  std::stable_sort(rows.begin(), rows.end(), [](const CheckRow& a, const CheckRow& b) {
    return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
  });
  std::map<std::pair<std::string, std::string>, std::uint32_t> seen;  // by function and tokens
  for (CheckRow& c : rows) c.ordinal = ++seen[{c.function, statement_token_key(c.statement)}];
  // The rows of one place and kind in several functions: the instantiations of a template.
  std::map<std::tuple<std::string, std::uint32_t, std::uint32_t, std::string>, std::set<std::string>>
      functions;
  for (const CheckRow& c : rows) functions[{c.file, c.line, c.column, c.kind}].insert(c.function);
  for (CheckRow& c : rows) c.place_shared = functions[{c.file, c.line, c.column, c.kind}].size() > 1;
  return rows;
}

}  // namespace warpdiv::analysis
