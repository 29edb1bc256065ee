// `warpdiv check CONFIG`'s configuration, read with toml++ (header-only here: the one file that
// includes it, so its compile cost and its names stay in this file).
#include "analysis/check_config.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <set>
#include <sstream>

// toml++ 3.3 (Debian 12's) checks some of its parser's preconditions with assertions that bad
// input can break (a table header starting with '}', a comma in the wrong place in an array:
// found by fuzz/check_config.cpp); with NDEBUG they become __builtin_assume(), undefined
// behaviour where the compiler has it. Past each one the parser reports the input's error, so
// they are compiled as nothing here, NDEBUG or not.
#ifdef NDEBUG
#define WARPDIV_NDEBUG_WAS_SET
#undef NDEBUG
#endif
#define TOML_ASSERT(expr) static_cast<void>(0)
#include <toml++/toml.h>
#ifdef WARPDIV_NDEBUG_WAS_SET
#define NDEBUG
#undef WARPDIV_NDEBUG_WAS_SET
#endif

#include "analysis/check_source.hpp"
#include "analysis/source_flags.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::analysis {

namespace fs = std::filesystem;

std::string config_message(const std::string& config, const ConfigPlace& place, const std::string& what) {
  if (place.line == 0) return config + ": " + what;
  return config + ":" + std::to_string(place.line) + ":" + std::to_string(place.column) + ": " + what;
}

InvalidInput config_error(Diag diag, const std::string& config, const ConfigPlace& place,
                          const std::string& what) {
  if (place.line == 0) return InvalidInput(diag, config + ": " + what);
  return InvalidInput(diag, SourceLocation{config, place.line, place.column}, what);
}

CheckLimits overlay(const CheckLimits& base, const CheckLimits& over) {
  CheckLimits r = base;
  const auto take = [](auto& into, const auto& from) {
    if (from) into = from;
  };
  take(r.max_divergent_fraction, over.max_divergent_fraction);
  take(r.max_divergent, over.max_divergent);
  take(r.min_simd_efficiency, over.min_simd_efficiency);
  take(r.partial_barriers, over.partial_barriers);
  take(r.min_sector_efficiency, over.min_sector_efficiency);
  take(r.max_sectors_per_request, over.max_sectors_per_request);
  take(r.max_bank_conflicts_per_request, over.max_bank_conflicts_per_request);
  take(r.max_bank_conflicts, over.max_bank_conflicts);
  take(r.report_single_lane, over.report_single_lane);
  return r;
}

std::string normalise_statement(const std::string& text) {
  // Line splices (a backslash ending a line) are nothing, as the compiler reads them.
  std::string joined;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\') {
      std::size_t next = i + 1;
      if (next < text.size() && text[next] == '\r') ++next;
      if (next < text.size() && text[next] == '\n') {
        i = next;
        continue;
      }
    }
    joined += text[i];
  }
  // Runs of whitespace made one space, except in a string or character literal, whose text is
  // kept as written ("a  b" is not "a b").
  std::string out;
  bool space = false;
  const std::vector<SourceToken> tokens = source_tokens(joined);
  auto token = tokens.begin();
  for (std::size_t i = 0; i < joined.size(); ++i) {
    while (token != tokens.end() && token->end <= i) ++token;
    const bool literal =
        token != tokens.end() && token->kind == SourceToken::Kind::literal && token->begin == i;
    if (!literal && std::isspace(static_cast<unsigned char>(joined[i]))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    if (literal) {
      out.append(joined, i, token->end - i);
      i = token->end - 1;
    } else {
      out += joined[i];
    }
  }
  return out;
}

namespace {

// The keys each table takes (the messages list them; "did you mean" picks from them).
const std::vector<std::string> kTopKeys = {
    "root", "baseline", "fail_on_stale_baseline", "regression_tolerance", "limits", "kernel"};
const std::vector<std::string> kLimitKeys = {"max_divergent_fraction",
                                             "max_divergent",
                                             "min_simd_efficiency",
                                             "partial_barriers",
                                             "min_sector_efficiency",
                                             "max_sectors_per_request",
                                             "max_bank_conflicts_per_request",
                                             "max_bank_conflicts",
                                             "report_single_lane"};
const std::vector<std::string> kKernelKeys = {
    "name",     "file",         "model",           "kernel", "grid",   "block",     "args",
    "defines",  "include_dirs", "cuda_headers",    "fmad",   "engine", "warp_size", "dynamic_smem",
    "alloc",    "data",         "max_evaluations", "limits", "line",   "launch",    "compile_commands",
    "statement"};
const std::vector<std::string> kLineKeys = {"line", "column", "file"};
const std::vector<std::string> kStatementKeys = {"statement", "function", "ordinal"};

constexpr std::int64_t kMaxCount = std::numeric_limits<std::int64_t>::max();

ConfigPlace place_of(const toml::source_region& region) {
  return {static_cast<std::uint32_t>(region.begin.line), static_cast<std::uint32_t>(region.begin.column)};
}

std::string type_name(const toml::node& node) {
  std::ostringstream s;
  s << node.type();
  return s.str();
}

// The value as the file writes it, for "(got ...)".
std::string shown(const toml::node& node) {
  if (const auto* s = node.as_string()) return sim::quote_value(s->get());
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  if (const auto* f = node.as_floating_point()) {
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", f->get());
    return text;
  }
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  const std::string type = type_name(node);
  return (type.find_first_of("aeiou") == 0 ? "an " : "a ") + type;
}

// Shortest decimal text that reads back to the same double.
std::string decimal_text(double value) {
  char text[64];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

class Reader {
 public:
  Reader(std::string path, const std::string& text) : path_(std::move(path)), text_(text) {
    folder_ = fs::path(path_).parent_path();
    if (folder_.empty()) folder_ = ".";  // CONFIG in the current folder
  }

  [[noreturn]] void fail(const toml::source_region& at, const std::string& what) const {
    throw config_error(Diag::file_content, path_, place_of(at), what);
  }

  // Refuses keys not in `allowed` ("in [[kernel]]": where they were found).
  void check_keys(const toml::table& table, const std::vector<std::string>& allowed,
                  const std::vector<std::string>& also, const std::string& where) const {
    std::vector<std::string> known = allowed;
    known.insert(known.end(), also.begin(), also.end());
    for (auto&& [key, node] : table) {
      const std::string name(key.str());
      bool ok = false;
      for (const std::string& k : known) ok = ok || k == name;
      if (ok) continue;
      const std::string guess = sim::closest_name(name, known);
      fail(key.source(), "unknown key " + sim::quote_value(name) + " in " + where +
                             (guess.empty() ? "" : "; did you mean '" + guess + "'?") +
                             " (allowed: " + sim::listed(known) + ")");
    }
  }

  const toml::table& table(const toml::node& node, const std::string& key, const std::string& what) const {
    const auto* t = node.as_table();
    if (!t) fail(node.source(), key + " must be a table (" + what + "), got " + shown(node));
    return *t;
  }

  // An array of tables ([[kernel.KEY]]), `what` saying what each holds.
  std::vector<const toml::table*> tables(const toml::node& node, const std::string& key,
                                         const std::string& what) const {
    const auto* a = node.as_array();
    if (!a || !a->is_array_of_tables())
      fail(node.source(), key + " must be an array of tables (" + what + "), got " + shown(node));
    std::vector<const toml::table*> out;
    for (const toml::node& item : *a) out.push_back(item.as_table());
    return out;
  }

  std::string string(const toml::node& node, const std::string& key, const std::string& what) const {
    const auto* s = node.as_string();
    if (!s) fail(node.source(), key + " must be a string (" + what + "), got " + shown(node));
    if (s->get().empty()) fail(node.source(), key + " must not be empty (" + what + ")");
    return s->get();
  }

  bool boolean(const toml::node& node, const std::string& key) const {
    const auto* b = node.as_boolean();
    if (!b) fail(node.source(), key + " must be true or false, got " + shown(node));
    return b->get();
  }

  std::int64_t integer(const toml::node& node, const std::string& key, std::int64_t min,
                       std::int64_t max) const {
    const auto* i = node.as_integer();
    if (!i || i->get() < min || i->get() > max)
      fail(node.source(), key + " must be an integer from " + std::to_string(min) + " to " +
                              std::to_string(max) + ", got " + shown(node));
    return i->get();
  }

  // A number (integer or float) in [min, max]; `what` says what it is.
  double number(const toml::node& node, const std::string& key, double min, double max,
                const std::string& what) const {
    double value = std::nan("");
    if (const auto* i = node.as_integer()) value = static_cast<double>(i->get());
    if (const auto* f = node.as_floating_point()) value = f->get();
    if (!(value >= min && value <= max))
      fail(node.source(), key + " must be " + what + " from " + decimal_text(min) + " to " +
                              decimal_text(max) + ", got " + shown(node));
    return value + 0.0;  // -0.0 is 0
  }

  std::vector<std::string> strings(const toml::node& node, const std::string& key, const std::string& what,
                                   const std::string& thing) const {
    const auto* a = node.as_array();
    if (!a) fail(node.source(), key + " must be an array of strings (" + what + "), got " + shown(node));
    std::vector<std::string> values;
    for (const toml::node& item : *a) values.push_back(without_nul(item, key + " item", what, thing));
    return values;
  }

  // A string that is a file's name or a compiler's argument: neither can hold NUL (TOML's
  // \u0000), which would cut it there and name another file.
  std::string without_nul(const toml::node& node, const std::string& key, const std::string& what,
                          const std::string& thing) const {
    std::string s = string(node, key, what);
    if (s.find('\0') != std::string::npos)
      fail(node.source(),
           key + " holds a NUL character (\\u0000), which " + thing + " cannot hold (" + what + ")");
    return s;
  }

  // A path relative to this file's folder.
  std::string path(const toml::node& node, const std::string& key, const std::string& what) const {
    return resolve(without_nul(node, key, what, "a file name"));
  }

  std::string resolve(const std::string& relative) const {
    const fs::path p(relative);
    return (p.is_absolute() ? p : folder_ / p).lexically_normal().string();
  }

  // grid / block: an expression, an integer, or an array of one to three of them.
  std::string extent(const toml::node& node, const std::string& key) const {
    const auto component = [&](const toml::node& n) -> std::string {
      if (const auto* i = n.as_integer()) return std::to_string(i->get());
      if (const auto* s = n.as_string()) {
        if (s->get().empty()) fail(n.source(), key + " must not be empty");
        if (s->get().find(',') != std::string::npos && n.as_string() != node.as_string())
          fail(n.source(), key + "'s components are one expression each (no comma inside)");
        return s->get();
      }
      fail(n.source(), key +
                           " must be an expression of the args (a string such as \"(n+127)/128\" "
                           "or an integer), or an array of one to three of them; got " +
                           shown(n));
    };
    if (const auto* a = node.as_array()) {
      if (a->empty() || a->size() > 3)
        fail(node.source(),
             key + " must have one to three components (x, y, z), got " + std::to_string(a->size()));
      std::string text;
      for (const toml::node& item : *a) text += (text.empty() ? "" : ",") + component(item);
      return text;
    }
    return component(node);
  }

  CheckLimits limits(const toml::table& t, const std::vector<std::string>& also,
                     const std::string& where) const {
    check_keys(t, kLimitKeys, also, where);
    CheckLimits l;
    const std::string fraction = "a fraction (0.1 is 10%)";
    for (auto&& [key, node] : t) {
      const std::string k(key.str());
      if (k == "max_divergent_fraction") l.max_divergent_fraction = number(node, k, 0, 1, fraction);
      if (k == "min_simd_efficiency") l.min_simd_efficiency = number(node, k, 0, 1, fraction);
      if (k == "min_sector_efficiency") l.min_sector_efficiency = number(node, k, 0, 1, fraction);
      if (k == "max_sectors_per_request")
        l.max_sectors_per_request = number(node, k, 1, 32, "a number of sectors");
      if (k == "max_bank_conflicts_per_request")
        l.max_bank_conflicts_per_request = number(node, k, 0, 1024, "a number of conflicts");
      if (k == "max_divergent") l.max_divergent = integer(node, k, 0, kMaxCount);
      if (k == "partial_barriers") l.partial_barriers = integer(node, k, 0, kMaxCount);
      if (k == "max_bank_conflicts") l.max_bank_conflicts = integer(node, k, 0, kMaxCount);
      if (k == "report_single_lane") l.report_single_lane = boolean(node, k);
    }
    return l;
  }

  std::vector<std::string> pairs(const toml::node& node, const std::string& key, bool paths, std::int64_t min,
                                 std::int64_t max) const {
    const toml::table& t = table(node, key, paths ? "NAME = \"FILE\"" : "NAME = COUNT");
    std::vector<std::string> out;
    for (auto&& [name, value] : t) {
      const std::string n(name.str());
      out.push_back(n + "=" +
                    (paths ? path(value, key + "." + n, "a file")
                           : std::to_string(integer(value, key + "." + n, min, max))));
    }
    return out;
  }

  // The text of a value on one line as the file spells it (else `fallback`).
  std::string written(const toml::source_region& at, const std::string& fallback) const {
    if (at.begin.line != at.end.line || at.end.column <= at.begin.column) return fallback;
    std::size_t start = 0;
    for (toml::source_index line = 1; line < at.begin.line; ++line) {
      start = text_.find('\n', start);
      if (start == std::string::npos) return fallback;
      ++start;
    }
    const std::size_t from = start + at.begin.column - 1, to = start + at.end.column - 1;
    return to <= text_.size() ? text_.substr(from, to - from) : fallback;
  }

  std::vector<std::string> args(const toml::node& node, CheckKernel& k) const {
    const toml::table& t = table(node, "args", "NAME = VALUE for each scalar parameter");
    std::vector<std::string> out;
    for (auto&& [name, value] : t) {
      const std::string n(name.str());
      std::string text;
      if (const auto* i = value.as_integer())
        text = std::to_string(i->get());
      else if (const auto* f = value.as_floating_point())
        text = decimal_text(f->get());
      else if (const auto* s = value.as_string())
        text = s->get();
      else
        fail(value.source(), "args." + n +
                                 " must be an integer, a float or a string holding a "
                                 "decimal number, got " +
                                 shown(value));
      out.push_back(n + "=" + text);
      k.arg_places.push_back(place_of(value.source()));
      k.arg_texts.push_back(written(value.source(), text));
    }
    return out;
  }

  CheckKernel kernel(const toml::table& t, const CheckLimits& defaults) const {
    check_keys(t, kKernelKeys, {}, "[[kernel]]");
    CheckKernel k;
    k.place = place_of(t.source());
    k.limits = defaults;
    if (!k.limits.partial_barriers) k.limits.partial_barriers = 0;
    bool has_file = false, has_model = false, has_grid = false, has_block = false;
    for (auto&& [key, node] : t) {
      const std::string n(key.str());
      if (n == "name") k.name = string(node, n, "the check's name in findings and baselines");
      if (n == "file") {
        k.file = path(node, n, "the kernel's .cu file, relative to this file's folder");
        has_file = true;
      }
      if (n == "model") {
        k.model = path(node, n, "a model saved with --save-model, relative to this file's folder");
        has_model = true;
      }
      if (n == "kernel") k.kernel = string(node, n, "the __global__ function's name");
      if (n == "grid") {
        k.grid = extent(node, n);
        k.grid_place = place_of(node.source());
        has_grid = true;
      }
      if (n == "block") {
        k.block = extent(node, n);
        k.block_place = place_of(node.source());
        has_block = true;
      }
      if (n == "args") {
        k.args = args(node, k);
        k.args_place = place_of(node.source());
      }
      if (n == "defines") {
        k.defines = strings(node, n, "NAME or NAME=VALUE, as -D takes", "a compiler's argument");
        for (std::size_t i = 0; i < k.defines.size(); ++i)
          if (const std::string fault = define_fault(k.defines[i]); !fault.empty())
            fail((*node.as_array())[i].source(),
                 "defines item " + sim::quote_value(k.defines[i]) + ": " + fault);
      }
      if (n == "include_dirs")
        for (const std::string& d : strings(node, n, "folders, as -I takes", "a folder name"))
          k.include_dirs.push_back(resolve(d));
      if (n == "cuda_headers") {
        const std::string v = string(node, n, "builtin, toolkit or auto");
        if (v != "builtin" && v != "toolkit" && v != "auto")
          fail(node.source(), "cuda_headers must be builtin, toolkit or auto, got " + shown(node));
        k.cuda_headers = v;
      }
      if (n == "fmad") k.fmad = boolean(node, n);
      if (n == "engine") {
        k.engine = string(node, n, "auto, exact, replay or all");
        if (k.engine != "auto" && k.engine != "exact" && k.engine != "replay" && k.engine != "all")
          fail(node.source(), "engine must be auto, exact, replay or all, got " + shown(node));
      }
      if (n == "warp_size") {
        const std::int64_t w = integer(node, n, 1, 64);
        if ((w & (w - 1)) != 0)
          fail(node.source(), "warp_size must be a power of two from 1 to 64, got " + shown(node));
        k.warp_size = static_cast<int>(w);
      }
      if (n == "dynamic_smem") k.dynamic_smem = integer(node, n, 0, std::int64_t{1} << 30);
      if (n == "launch") {
        k.launch = integer(node, n, 1, std::numeric_limits<std::int32_t>::max());
        k.launch_place = place_of(node.source());
      }
      if (n == "compile_commands")
        k.build_dir = path(node, n,
                           "a build folder holding compile_commands.json, relative to "
                           "this file's folder");
      if (n == "alloc") {
        k.allocs = pairs(node, n, false, 1, std::int64_t{1} << 40);
        k.buffers_place = place_of(node.source());
      }
      if (n == "data") {
        k.data = pairs(node, n, true, 0, 0);
        k.buffers_place = place_of(node.source());
      }
      if (n == "max_evaluations") k.max_evaluations = integer(node, n, 1, kMaxCount);
      if (n == "limits")
        k.limits = overlay(k.limits, limits(table(node, n, "the kernel's limits"), {}, "[kernel.limits]"));
      if (n == "line")
        for (const toml::table* item : tables(node, n, "[[kernel.line]] with line = N and limits"))
          k.lines.push_back(line(*item));
      if (n == "statement")
        for (const toml::table* item :
             tables(node, n, "[[kernel.statement]] with statement = \"TEXT\" and limits"))
          k.statements.push_back(statement(*item));
    }
    if (has_file == has_model)
      fail(t.source(), has_file ? "[[kernel]] takes file or model, not both"
                                : "[[kernel]] needs file = \"FILE.cu\" (relative to this file's "
                                  "folder) or model = \"FILE.json\" (saved with --save-model)");
    if (has_model)
      for (const char* compiler :
           {"kernel", "defines", "include_dirs", "cuda_headers", "fmad", "compile_commands", "launch"})
        if (const toml::node* node = t.get(compiler))
          fail(node->source(), std::string(compiler) +
                                   " applies to a source file; a model holds one "
                                   "kernel already read");
    if (has_model && (!has_grid || !has_block))
      fail(t.source(),
           "[[kernel]] with a model needs grid and block (expressions of the args, as "
           "--grid and --block take them): a model has no host code to read the launch from");
    if (has_grid && has_block && k.launch)
      fail(t.get("launch")->source(),
           "launch chooses a launch in the file's host code, which grid and "
           "block given together replace: leave out launch, or one of them");
    if (k.name.empty()) k.name = k.kernel ? *k.kernel : fs::path(has_file ? k.file : k.model).stem().string();
    return k;
  }

  LineLimits line(const toml::table& t) const {
    LineLimits l;
    l.place = place_of(t.source());
    l.limits = limits(t, kLineKeys, "[[kernel.line]]");
    bool has_line = false;
    for (auto&& [key, node] : t) {
      const std::string n(key.str());
      if (n == "line") {
        l.line = static_cast<std::uint32_t>(integer(node, n, 1, std::numeric_limits<std::uint32_t>::max()));
        has_line = true;
      }
      if (n == "column")
        l.column = static_cast<std::uint32_t>(integer(node, n, 1, std::numeric_limits<std::uint32_t>::max()));
      if (n == "file") l.file = path(node, n, "the source file of the line, relative to this file's folder");
    }
    if (!has_line) fail(t.source(), "[[kernel.line]] needs line = N (the source line its limits are for)");
    return l;
  }

  StatementLimits statement(const toml::table& t) const {
    StatementLimits s;
    s.place = place_of(t.source());
    s.limits = limits(t, kStatementKeys, "[[kernel.statement]]");
    if (s.limits.report_single_lane)
      fail(t.get("report_single_lane")->source(),
           "report_single_lane applies to a kernel ([limits] or [kernel.limits]), not to one statement");
    for (auto&& [key, node] : t) {
      const std::string n(key.str());
      if (n == "statement")
        s.statement = normalise_statement(
            string(node, n, "the statement's source text as findings show it, e.g. \"if (tid == 0)\""));
      if (n == "function") s.function = string(node, n, "the function the statement is written in");
      if (n == "ordinal")
        s.ordinal =
            static_cast<std::uint32_t>(integer(node, n, 1, std::numeric_limits<std::uint32_t>::max()));
    }
    if (s.statement.empty())
      fail(t.source(),
           "[[kernel.statement]] needs statement = \"TEXT\" (the statement's source text, "
           "as findings and baselines show it)");
    return s;
  }

  CheckConfig config(const toml::table& top) const {
    check_keys(top, kTopKeys, {}, "the top level");
    CheckConfig c;
    c.path = path_;
    fs::path root = folder_;
    CheckLimits defaults;
    const toml::array* kernels = nullptr;
    for (auto&& [key, node] : top) {
      const std::string n(key.str());
      if (n == "root") {
        root = path(node, n, "the folder paths are relative to");
        std::error_code error;
        if (!fs::is_directory(root, error))
          fail(node.source(), "root " + sim::quote_value(root.string()) +
                                  " is not a folder (findings, baselines and SARIF name files relative "
                                  "to it; give an existing folder)");
      }
      if (n == "baseline") {
        c.baseline = path(node, n, "a CSV written by --write-baseline");
        c.baseline_place = place_of(node.source());
      }
      if (n == "fail_on_stale_baseline") c.fail_on_stale_baseline = boolean(node, n);
      if (n == "regression_tolerance")
        c.regression_tolerance = number(node, n, 0, 1, "a fraction (0.01 is one percentage point)");
      if (n == "limits") defaults = limits(table(node, n, "limits for every kernel"), {}, "[limits]");
      if (n == "kernel") {
        kernels = node.as_array();
        if (!kernels || !kernels->is_array_of_tables())
          fail(node.source(), "kernel must be an array of tables ([[kernel]]), got " + shown(node));
      }
    }
    if (!kernels || kernels->empty())
      throw InvalidInput(Diag::file_content,
                         path_ +
                             ": no [[kernel]] table: nothing to check (each names a file, a "
                             "grid and a block)");
    std::set<std::string> names;
    for (const toml::node& item : *kernels) {
      c.kernels.push_back(kernel(*item.as_table(), defaults));
      const CheckKernel& k = c.kernels.back();
      if (!names.insert(k.name).second)
        throw config_error(Diag::file_content, path_, k.place,
                           "two [[kernel]] tables are named " + sim::quote_value(k.name) +
                               ": give each a unique name = \"...\"");
    }
    fs::path absolute = fs::absolute(root).lexically_normal();
    if (absolute.filename().empty() && absolute != absolute.root_path()) absolute = absolute.parent_path();
    c.root = absolute.string();
    return c;
  }

 private:
  std::string path_;
  fs::path folder_;
  const std::string& text_;  // the configuration's text
};

// Refuses, before toml++ 3.3 (Debian 12's) sees them, what that parser is unsafe on (found by
// fuzz/check_config.cpp): its test for non-ASCII whitespace reaches __builtin_unreachable() for
// most non-ASCII characters (undefined behaviour), and it applies it to any character that follows
// a token, a backslash in a string or a line-ending backslash's blanks. So non-ASCII text is
// taken in comments only (which it reads without that test); a string spells it as \uXXXX.
// Also refused: control characters other than tab, LF and CR (TOML allows none), and a table
// header whose name starts with neither a key character nor a quote (it asserts there). Strings
// and comments are followed as TOML writes them; a quote anywhere outside a comment opens a
// string here, so that nothing toml++ could read as a string escapes the rule.
void check_lexically(const std::string& text, const std::string& path) {
  enum class In { code, comment, basic, literal, multi_basic, multi_literal };
  In in = In::code;
  std::uint32_t line = 1, column = 0;
  // Brackets and braces open in values (a table header starts a line outside them), whether the
  // line so far is blank, and whether it is a header.
  int depth = 0;
  bool blank = true, header = false;
  const auto bare_or_quote = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '"' || c == '\'';
  };
  const auto fail = [&](const std::string& what) {
    throw config_error(Diag::file_format, path, {line, column}, what);
  };
  const auto starts = [&](std::size_t i, const char* token) { return text.compare(i, 3, token) == 0; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      blank = true;
      header = false;
      if (in == In::comment || in == In::basic || in == In::literal) in = In::code;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7F) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02X", c);
      fail(std::string("a control character (") + code + "), which TOML allows nowhere unescaped");
    }
    if (c >= 0x80 && in == In::code)
      fail(
          "a non-ASCII character outside a string or comment (TOML keys with one are quoted, and "
          "spelt \\uXXXX here)");
    if (c >= 0x80 && in != In::comment)
      fail(
          "a non-ASCII character in a string: write it as \\uXXXX in a \"...\" string (toml++ 3.3, "
          "Debian 12's TOML parser, is unsafe on raw ones)");
    switch (in) {
      case In::code:
        if (c == '[' && blank && depth == 0) {
          // A table header ([a.b] or [[a.b]]): its first key must be bare or quoted (toml++ 3.3
          // asserts that it is rather than checking it).
          header = true;
          std::size_t k = i + 1;
          if (k < text.size() && text[k] == '[') ++k;
          while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
          const unsigned char first = k < text.size() ? static_cast<unsigned char>(text[k]) : 'a';
          // (Other control characters and non-ASCII ones are refused below, with their reason.)
          const bool later =
              first >= 0x80 || first == 0x7F || (first < 0x20 && first != '\n' && first != '\r');
          if (!bare_or_quote(static_cast<char>(first)) && !later) {
            column += static_cast<std::uint32_t>(k - i);
            fail("a table header's name must start with a letter, digit, '_', '-' or a quote");
          }
        } else if (!header) {
          if (c == '[' || c == '{') ++depth;
          if ((c == ']' || c == '}') && depth > 0) --depth;
        }
        if (c != ' ' && c != '\t' && c != '\r') blank = false;
        if (c == '#')
          in = In::comment;
        else if (c == '"' && starts(i, "\"\"\"")) {
          in = In::multi_basic;
          i += 2;
          column += 2;
        } else if (c == '"')
          in = In::basic;
        else if (c == '\'' && starts(i, "\'\'\'")) {
          in = In::multi_literal;
          i += 2;
          column += 2;
        } else if (c == '\'')
          in = In::literal;
        break;
      case In::basic:
      case In::multi_basic:
        if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') {
          ++i;
          ++column;
        } else if (in == In::basic && c == '"')
          in = In::code;
        else if (in == In::multi_basic && starts(i, "\"\"\"")) {
          while (i + 1 < text.size() && text[i + 1] == '"') {
            ++i;
            ++column;
          }  // up to 2 quotes more
          in = In::code;
        }
        break;
      case In::literal:
        if (c == '\'') in = In::code;
        break;
      case In::multi_literal:
        if (starts(i, "\'\'\'")) {
          while (i + 1 < text.size() && text[i + 1] == '\'') {
            ++i;
            ++column;
          }
          in = In::code;
        }
        break;
      case In::comment:
        break;
    }
  }
}

}  // namespace

CheckConfig parse_check_config(const std::string& text, const std::string& path) {
  check_lexically(text, path);
  toml::table top;
  try {
    top = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw config_error(Diag::file_format, path, place_of(e.source()), std::string(e.description()));
  }
  return Reader(path, text).config(top);
}

}  // namespace warpdiv::analysis
