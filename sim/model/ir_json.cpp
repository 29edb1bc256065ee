#include "sim/model/ir_json.hpp"

#include <map>
#include <algorithm>
#include <fstream>
#include <limits>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "sim/support/errors.hpp"
#include "sim/support/json_check.hpp"
#include "sim/model/ir_limits.hpp"
#include "sim/support/json_bytes.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::sim::ir {

namespace {

// The size of a C scalar type as nvcc lays it out on Linux (LP64), by the names Clang prints
// (element_type); 0 for another name (a struct, a vector type).
int scalar_c_type_bytes(const std::string& name) {
  static const std::map<std::string, int> kBytes = {
      {"bool", 1},  {"_Bool", 1},          {"char", 1},      {"signed char", 1},        {"unsigned char", 1},
      {"short", 2}, {"unsigned short", 2}, {"int", 4},       {"unsigned int", 4},       {"float", 4},
      {"long", 8},  {"unsigned long", 8},  {"long long", 8}, {"unsigned long long", 8}, {"double", 8}};
  const auto found = kBytes.find(name);
  return found != kBytes.end() ? found->second : 0;
}

using Json = nlohmann::ordered_json;

// ---------------------------------------------------------------------------------------------
// Writing

Json range_json(const SourceRange& r) {
  return Json::array({r.file, r.line, r.column, r.end_line, r.end_column});
}

Json typed_number(ScalarType type, std::uint64_t bits) {
  // A floating constant as its shortest round-trip decimal text ("0.1", "inf", "nan"): exact, and
  // JSON numbers hold no inf or NaN. (A NaN's payload is not kept: the GPU's is its own.)
  if (is_floating(type)) return Json(to_string(Value{type, bits}));
  if (is_signed(type)) return Json(static_cast<std::int64_t>(bits));
  return Json(bits);
}

Json expr_json(const Expr& e) {
  Json j;
  j["kind"] = name(e.kind);
  j["type"] = name(e.type);
  switch (e.kind) {
    case ExprKind::Constant:
      j["value"] = typed_number(e.type, e.constant);
      break;
    case ExprKind::Param:
    case ExprKind::Local:
      j["index"] = e.index;
      break;
    case ExprKind::Builtin:
      j["builtin"] = name(e.builtin);
      break;
    case ExprKind::Opaque:
      j["description"] = e.description;
      if (e.access != kNone) j["access"] = e.access;
      if (!e.reads.empty()) j["reads"] = e.reads;
      break;
    case ExprKind::Cast:
      j["operands"] = Json::array({e.operands[0]});
      break;
    case ExprKind::Unary:
      j["op"] = name(e.unary_op);
      j["operands"] = Json::array({e.operands[0]});
      break;
    case ExprKind::Binary:
      j["op"] = name(e.binary_op);
      j["operands"] = Json::array({e.operands[0], e.operands[1]});
      break;
    case ExprKind::Logical:
      j["op"] = name(e.logical_op);
      j["operands"] = Json::array({e.operands[0], e.operands[1]});
      break;
    case ExprKind::Select:
      j["operands"] = Json::array({e.operands[0], e.operands[1], e.operands[2]});
      break;
    case ExprKind::Warp: {
      j["function"] = name(e.warp_op);
      if (e.warp_op <= WarpOp::ShflXor) j["width"] = e.constant;
      Json ops = Json::array();
      for (int i = 0; i < operand_count(e.warp_op); ++i) ops.push_back(e.operands[i]);
      j["operands"] = ops;
      break;
    }
    case ExprKind::Intrinsic: {
      j["function"] = name(e.intrinsic);
      Json ops = Json::array();
      for (int i = 0; i < operand_count(e.intrinsic); ++i) ops.push_back(e.operands[i]);
      j["operands"] = ops;
      break;
    }
  }
  if (e.check != kNone) j["check"] = e.check;
  j["range"] = range_json(e.range);
  return j;
}

Json stmt_json(const Kernel& k, const Stmt& s) {
  Json j;
  j["kind"] = name(s.kind);
  j["range"] = range_json(s.range);
  const auto optional = [&](const char* key, std::int32_t id) {
    if (id != kNone) j[key] = id;
  };
  switch (s.kind) {
    case StmtKind::Block:
      j["children"] = s.children;
      break;
    case StmtKind::Declare:
    case StmtKind::Assign:
      j["local"] = s.local;
      optional("value", s.value);
      break;
    case StmtKind::Work:
      j["description"] = s.description;
      break;
    case StmtKind::If:
      j["value"] = s.value;
      j["then"] = s.then_stmt;
      optional("else", s.else_stmt);
      break;
    case StmtKind::Loop:
      j["loop"] = name(s.loop_kind);
      optional("init", s.init);
      optional("value", s.value);
      optional("step", s.step);
      j["body"] = s.body;
      break;
    case StmtKind::Return:
      optional("value", s.value);
      break;
    case StmtKind::InlinedCall:
      j["callee"] = s.description;
      optional("local", s.local);
      j["body"] = s.body;
      break;
    case StmtKind::Switch: {
      j["value"] = s.value;
      j["children"] = s.children;
      Json cases = Json::array();
      const ScalarType t = s.value >= 0 && static_cast<std::size_t>(s.value) < k.exprs.size()
                               ? k.exprs[s.value].type
                               : ScalarType::I64;
      for (const SwitchCase& c : s.cases)
        cases.push_back(Json{{"value", typed_number(t, c.value)}, {"child", c.child}});
      j["cases"] = cases;
      optional("default", s.default_child);
      break;
    }
    case StmtKind::Break:
    case StmtKind::Continue:
    case StmtKind::Barrier:
      break;
  }
  if (!s.accesses.empty()) j["accesses"] = s.accesses;
  if (!s.flops.empty()) {
    Json flops = Json::array();
    for (const FloatOps& f : s.flops) {
      Json one{{"operations", f.operations}};
      if (f.guard != kNone) one["guard"] = f.guard;
      flops.push_back(one);
    }
    j["flops"] = flops;
  }
  if (!s.flops_not_counted.empty()) j["flops_not_counted"] = s.flops_not_counted;
  return j;
}

Json base_json(const MemoryBase& b) {
  Json j{{"name", b.name}, {"space", name(b.space)}};
  if (b.parameter != kNone) j["parameter"] = b.parameter;
  j["bytes"] = b.bytes;
  j["alignment"] = b.alignment;
  j["range"] = range_json(b.declared);
  if (b.null) j["null"] = true;
  return j;
}

Json access_json(const MemoryAccess& a) {
  Json j{{"kind", name(a.kind)}, {"space", name(a.space)}, {"width", a.width}, {"text", a.text}};
  if (a.base != kNone) {
    j["base"] = a.base;
    j["offset"] = a.offset;
    if (a.guard != kNone) j["guard"] = a.guard;
    if (a.value != kNone) j["value"] = a.value;
    if (a.compare != kNone) j["compare"] = a.compare;
    if (a.atomic != AtomicOp::Other) j["atomic"] = name(a.atomic);
  } else {
    j["reason"] = a.reason;
  }
  j["range"] = range_json(a.range);
  return j;
}

// ---------------------------------------------------------------------------------------------
// Reading: every access names its JSON path in errors, and every number its range.

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw InvalidInput(Diag::model_invalid, "kernel model JSON: " + path + ": " + what);
}

// What a JSON value is, short and on one line, for "(got ...)": a scalar as written, a string
// quoted and cut, an array or object by its kind only (never dumped: it may be large or deep).
std::string got(const Json& j) {
  switch (j.type()) {
    case Json::value_t::string:
      return "the string " + quote_value(j.get_ref<const std::string&>());
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::discarded:
      return "nothing";
    default:
      return j.dump();  // null, true, false or a number: short
  }
}

std::string range_text(std::int64_t low, std::int64_t high) {
  return std::to_string(low) + " to " + std::to_string(high);
}

class Reader {
 public:
  Reader(const Json& j, std::string path) : j_(j), path_(std::move(path)) {}

  const std::string& path() const { return path_; }
  const Json& json() const { return j_; }

  bool has(const char* key) const { return j_.is_object() && j_.contains(key); }

  Reader at(const char* key) const {
    if (!j_.is_object()) bad(path_, "expected an object (got " + got(j_) + ")");
    if (!j_.contains(key)) bad(path_ + "/" + key, "missing");
    return Reader(j_.at(key), path_ + "/" + key);
  }
  Reader at(std::size_t i) const { return Reader(j_.at(i), path_ + "/" + std::to_string(i)); }

  std::size_t size() const {
    if (!j_.is_array()) bad(path_, "expected an array (got " + got(j_) + ")");
    return j_.size();
  }

  std::string string() const {
    if (!j_.is_string()) bad(path_, "expected a string (got " + got(j_) + ")");
    return unescape_bytes(j_.get_ref<const std::string&>());  // the bytes to_json escaped
  }

  // An integer in [low, high]; `what` says what it counts, for the message.
  std::int64_t integer(std::int64_t low, std::int64_t high, const std::string& what = "") const {
    const auto refuse = [&] {
      bad(path_, "expected " + (what.empty() ? std::string("an integer") : what) + " from " +
                     range_text(low, high) + " (got " + got(j_) + ")");
    };
    if (!j_.is_number_integer()) refuse();
    if (j_.is_number_unsigned()) {  // nlohmann reads every non-negative integer as unsigned
      const auto v = j_.get<std::uint64_t>();
      if (v > static_cast<std::uint64_t>(high) || (low > 0 && v < static_cast<std::uint64_t>(low))) refuse();
    } else {
      const auto v = j_.get<std::int64_t>();
      if (v < low || v > high) refuse();
    }
    return j_.get<std::int64_t>();
  }

  // An id into an arena of `count` entries.
  std::int32_t id(std::size_t count, const char* what) const {
    if (count == 0)
      bad(path_, "refers to " + std::string(what) + " " + got(j_) + ", but the model has no " + what + "s");
    return static_cast<std::int32_t>(
        integer(0, static_cast<std::int64_t>(count) - 1, std::string("a ") + what + " id"));
  }

  bool boolean() const {
    if (!j_.is_boolean()) bad(path_, "expected true or false (got " + got(j_) + ")");
    return j_.get<bool>();
  }

  template <class F>
  auto wrap(F f) const {
    try {
      return f();
    } catch (const InvalidInput& e) {
      bad(path_, e.what());
    }
  }

  ScalarType type() const {
    const std::string s = string();
    return wrap([&] { return scalar_type_from_name(s); });
  }

  std::uint64_t value_of(ScalarType type) const {
    if (type == ScalarType::Bool && j_.is_boolean()) return j_.get<bool>() ? 1 : 0;
    if (is_floating(type)) {
      if (!j_.is_string())
        bad(path_, "expected a " + name(type) +
                       " value as a decimal string (\"0.5\", \"inf\", \"nan\"; got " + got(j_) + ")");
      const std::string text = j_.get<std::string>();
      return wrap([&] { return parse_value(type, text).bits; });
    }
    if (!j_.is_number_integer())
      bad(path_, "expected an integer value of type " + name(type) + " (got " + got(j_) + ")");
    if (j_.is_number_unsigned())
      return wrap([&] { return Value::of_unsigned(type, j_.get<std::uint64_t>()).bits; });
    return wrap([&] { return Value::of(type, j_.get<std::int64_t>()).bits; });
  }

  SourceRange range(std::size_t files) const {
    if (size() != 5)
      bad(path_,
          "expected [file, line, column, end_line, end_column] (got " + std::to_string(size()) + " entries)");
    SourceRange r;
    constexpr std::int64_t kMax = 0xFFFFFFFF;
    r.file = static_cast<std::uint32_t>(files == 0 ? at(std::size_t{0}).integer(0, kMax, "a file index")
                                                   : at(std::size_t{0}).id(files, "file"));
    r.line = static_cast<std::uint32_t>(at(1).integer(0, kMax, "a line number"));
    r.column = static_cast<std::uint32_t>(at(2).integer(0, kMax, "a column number"));
    r.end_line = static_cast<std::uint32_t>(at(3).integer(0, kMax, "a line number"));
    r.end_column = static_cast<std::uint32_t>(at(4).integer(0, kMax, "a column number"));
    return r;
  }

 private:
  const Json& j_;
  std::string path_;
};

template <class E, std::size_t N, class NameOf>
E enum_from(const Reader& r, const char* what, NameOf name_of) {
  const std::string s = r.string();
  std::string allowed;
  for (std::size_t i = 0; i < N; ++i) {
    const auto e = static_cast<E>(i);
    if (name_of(e) == s) return e;
    allowed += (i == 0 ? "" : ", ") + name_of(e);
  }
  bad(r.path(), "unknown " + std::string(what) + " " + quote_value(s) + " (allowed: " + allowed + ")");
}

Expr read_expr(const Kernel& k, const Reader& r, std::size_t expr_count) {
  Expr e;
  e.kind = enum_from<ExprKind, kExprKindCount>(r.at("kind"), "expression kind",
                                               [](ExprKind x) { return name(x); });
  e.type = r.at("type").type();
  if (r.has("range")) e.range = r.at("range").range(k.files.size());
  const auto operands = [&](std::size_t n) {
    const Reader ops = r.at("operands");
    if (ops.size() != n) bad(ops.path(), "expected " + std::to_string(n) + " operands");
    for (std::size_t i = 0; i < n; ++i) e.operands[i] = ops.at(i).id(expr_count, "expression");
  };
  switch (e.kind) {
    case ExprKind::Constant:
      e.constant = r.at("value").value_of(e.type);
      break;
    case ExprKind::Param:
      e.index = r.at("index").id(k.parameters.size(), "parameter");
      break;
    case ExprKind::Local:
      e.index = r.at("index").id(k.locals.size(), "local");
      break;
    case ExprKind::Builtin:
      e.builtin =
          enum_from<Builtin, kBuiltinCount>(r.at("builtin"), "builtin", [](Builtin x) { return name(x); });
      break;
    case ExprKind::Opaque:
      e.description = r.at("description").string();
      if (r.has("access"))
        e.access = static_cast<std::int32_t>(r.at("access").integer(0, std::int64_t{1} << 30));
      if (r.has("reads")) {
        const Reader reads = r.at("reads");
        for (std::size_t i = 0; i < reads.size(); ++i)
          e.reads.push_back(reads.at(i).id(k.locals.size(), "local"));
      }
      break;
    case ExprKind::Cast:
      operands(1);
      break;
    case ExprKind::Unary:
      e.unary_op = enum_from<UnaryOp, 3>(r.at("op"), "unary operator", [](UnaryOp x) { return name(x); });
      operands(1);
      break;
    case ExprKind::Binary:
      e.binary_op = enum_from<BinaryOp, kBinaryOpCount>(r.at("op"), "binary operator",
                                                        [](BinaryOp x) { return name(x); });
      operands(2);
      break;
    case ExprKind::Logical:
      e.logical_op =
          enum_from<LogicalOp, 2>(r.at("op"), "logical operator", [](LogicalOp x) { return name(x); });
      operands(2);
      break;
    case ExprKind::Select:
      operands(3);
      break;
    case ExprKind::Warp:
      e.warp_op = enum_from<WarpOp, kWarpOpCount>(r.at("function"), "warp function",
                                                  [](WarpOp x) { return name(x); });
      if (e.warp_op <= WarpOp::ShflXor)
        e.constant = static_cast<std::uint64_t>(r.at("width").integer(1, 32, "a width"));
      operands(static_cast<std::size_t>(operand_count(e.warp_op)));
      break;
    case ExprKind::Intrinsic:
      e.intrinsic = enum_from<Intrinsic, kIntrinsicCount>(r.at("function"), "intrinsic",
                                                          [](Intrinsic x) { return name(x); });
      operands(static_cast<std::size_t>(operand_count(e.intrinsic)));
      break;
  }
  if (r.has("check")) e.check = r.at("check").id(expr_count, "expression");
  return e;
}

Stmt read_stmt(const Kernel& k, const Reader& r, std::size_t stmt_count) {
  Stmt s;
  s.kind =
      enum_from<StmtKind, kStmtKindCount>(r.at("kind"), "statement kind", [](StmtKind x) { return name(x); });
  if (r.has("range")) s.range = r.at("range").range(k.files.size());
  const std::size_t exprs = k.exprs.size();
  const auto stmt = [&](const char* key) { return r.at(key).id(stmt_count, "statement"); };
  const auto optional_stmt = [&](const char* key) { return r.has(key) ? stmt(key) : kNone; };
  const auto value = [&] { return r.at("value").id(exprs, "expression"); };
  const auto optional_value = [&] { return r.has("value") ? value() : kNone; };
  const auto children = [&] {
    const Reader c = r.at("children");
    std::vector<StmtId> out(c.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = c.at(i).id(stmt_count, "statement");
    return out;
  };
  switch (s.kind) {
    case StmtKind::Block:
      s.children = children();
      break;
    case StmtKind::Declare:
    case StmtKind::Assign:
      s.local = r.at("local").id(k.locals.size(), "local");
      s.value = s.kind == StmtKind::Assign ? value() : optional_value();
      break;
    case StmtKind::Work:
      s.description = r.at("description").string();
      break;
    case StmtKind::If:
      s.value = value();
      s.then_stmt = stmt("then");
      s.else_stmt = optional_stmt("else");
      break;
    case StmtKind::Loop:
      s.loop_kind = enum_from<LoopKind, 3>(r.at("loop"), "loop kind", [](LoopKind x) { return name(x); });
      s.init = optional_stmt("init");
      s.value = optional_value();
      s.step = optional_stmt("step");
      s.body = stmt("body");
      break;
    case StmtKind::Return:
      s.value = optional_value();
      break;
    case StmtKind::InlinedCall:
      s.description = r.at("callee").string();
      s.local = r.has("local") ? r.at("local").id(k.locals.size(), "local") : kNone;
      s.body = stmt("body");
      break;
    case StmtKind::Switch: {
      s.value = value();
      s.children = children();
      const ScalarType t = k.exprs[s.value].type;
      const Reader cases = r.at("cases");
      for (std::size_t i = 0; i < cases.size(); ++i) {
        const Reader c = cases.at(i);
        SwitchCase sc;
        sc.value = c.at("value").value_of(t);
        sc.child = static_cast<std::int32_t>(
            c.at("child").integer(0, static_cast<std::int64_t>(s.children.size()), "a child index"));
        s.cases.push_back(sc);
      }
      if (r.has("default"))
        s.default_child = static_cast<std::int32_t>(
            r.at("default").integer(0, static_cast<std::int64_t>(s.children.size()), "a child index"));
      break;
    }
    case StmtKind::Break:
    case StmtKind::Continue:
    case StmtKind::Barrier:
      break;
  }
  if (r.has("accesses")) {
    const Reader a = r.at("accesses");
    for (std::size_t i = 0; i < a.size(); ++i) s.accesses.push_back(a.at(i).id(k.accesses.size(), "access"));
  }
  if (r.has("flops")) {
    const Reader f = r.at("flops");
    for (std::size_t i = 0; i < f.size(); ++i) {
      FloatOps ops;
      ops.operations = static_cast<std::uint32_t>(
          f.at(i).at("operations").integer(0, 0xFFFFFFFF, "a number of operations"));
      if (f.at(i).has("guard")) ops.guard = f.at(i).at("guard").id(exprs, "expression");
      s.flops.push_back(ops);
    }
  }
  if (r.has("flops_not_counted")) s.flops_not_counted = r.at("flops_not_counted").string();
  return s;
}

MemoryBase read_base(const Kernel& k, const Reader& r) {
  MemoryBase b;
  b.name = r.at("name").string();
  const std::string space = r.at("space").string();
  b.space = r.at("space").wrap([&] { return address_space_from_name(space); });
  if (r.has("parameter")) b.parameter = r.at("parameter").id(k.parameters.size(), "parameter");
  b.bytes = static_cast<std::uint64_t>(
      r.at("bytes").integer(0, std::numeric_limits<std::int64_t>::max(), "a size in bytes"));
  b.alignment = static_cast<std::uint32_t>(r.at("alignment").integer(1, 1 << 30, "an alignment"));
  if (r.has("range")) b.declared = r.at("range").range(k.files.size());
  if (r.has("null")) b.null = r.at("null").boolean();
  return b;
}

MemoryAccess read_access(const Kernel& k, const Reader& r) {
  MemoryAccess a;
  const std::string kind = r.at("kind").string();
  a.kind = r.at("kind").wrap([&] { return access_kind_from_name(kind); });
  const std::string space = r.at("space").string();
  a.space = r.at("space").wrap([&] { return address_space_from_name(space); });
  a.width = static_cast<std::uint32_t>(r.at("width").integer(1, 16, "a width in bytes"));
  a.text = r.at("text").string();
  if (r.has("base")) {
    a.base = r.at("base").id(k.bases.size(), "base");
    a.offset = r.at("offset").id(k.exprs.size(), "expression");
    if (r.has("guard")) a.guard = r.at("guard").id(k.exprs.size(), "expression");
    if (r.has("value")) a.value = r.at("value").id(k.exprs.size(), "expression");
    if (r.has("compare")) a.compare = r.at("compare").id(k.exprs.size(), "expression");
    if (r.has("atomic"))
      a.atomic = r.at("atomic").wrap([&] { return atomic_op_from_name(r.at("atomic").string()); });
  } else {
    a.reason = r.at("reason").string();
  }
  if (r.has("range")) a.range = r.at("range").range(k.files.size());
  return a;
}

std::string short_text(const std::string& text) {
  constexpr std::size_t kMost = 300;
  return text.size() <= kMost ? text
                              : text.substr(0, kMost) + "... (" + std::to_string(text.size()) + " bytes)";
}

// A first pass (sim/json_check) refuses what the DOM parser would accept silently or fail on deep
// inside: a key given twice in one object (nlohmann keeps one of them), nesting deeper than
// model_limits::kMaxJsonDepth, a number beyond a double's range, and text that is not JSON.
void check_model_json(const std::string& text) {
  const std::optional<JsonProblem> p = json_problem(text, model_limits::kMaxJsonDepth);
  if (!p) return;
  const std::string at =
      "at line " + std::to_string(p->line) + ", column " + std::to_string(p->column) + ": ";
  switch (p->kind) {
    case JsonProblem::Kind::duplicate_key:
      throw InvalidInput(Diag::model_invalid, "kernel model JSON: the key " + quote_value(p->detail) +
                                                  " appears twice in one object" +
                                                  (p->pointer.empty() ? "" : " (" + p->pointer + ")"));
    case JsonProblem::Kind::too_deep:
      throw InvalidInput(Diag::model_invalid, "kernel model JSON: nesting deeper than " +
                                                  std::to_string(model_limits::kMaxJsonDepth) +
                                                  " arrays and objects (a kernel model needs 6)");
    case JsonProblem::Kind::number_out_of_range:
      throw InvalidInput(Diag::model_invalid,
                         "kernel model JSON: a number out of range (a double's range is about "
                         "-1.8e308 to 1.8e308): " +
                             at + p->detail);
    case JsonProblem::Kind::syntax:
      break;
  }
  throw InvalidInput(Diag::model_invalid, "kernel model JSON: not valid JSON: " + at + p->detail);
}

Json parse_model_json(const std::string& text) {
  check_model_json(text);
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // the check above has refused every error
    throw InvalidInput(Diag::model_invalid, "kernel model JSON: not valid JSON: " + short_text(e.what()));
  }
}

// Appends a "lines" entry as the lines Clang numbers: an entry that holds a line break (\r\n, \r or
// \n: a file with CR line ends in a model saved by an earlier warpdiv, whose front-end split at LF
// alone) is as many lines, a break at its end ending the last one. Statements' line numbers are Clang's, so
// their text is found on the right line.
void add_lines(std::vector<std::string>& lines, const std::string& entry) {
  std::size_t start = 0;
  while (true) {
    const std::size_t end = entry.find_first_of("\r\n", start);
    lines.push_back(entry.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return;
    start = end + (entry.compare(end, 2, "\r\n") == 0 ? 2 : 1);
    if (start == entry.size()) return;
  }
}

// A statement's text is its lines of its file: where a file's "lines" are given (`given`), every
// line a statement spans must be among them.
void check_statement_lines(const Kernel& k, const std::vector<bool>& given) {
  for (std::size_t i = 0; i < k.stmts.size(); ++i) {
    const SourceRange& r = k.stmts[i].range;
    if (r.line == 0 || r.file >= k.files.size() || !given[r.file]) continue;  // no place, or no text kept
    const std::size_t lines = k.files[r.file].lines.size();
    const std::uint32_t last = std::max(r.line, r.end_line);
    if (last > lines)
      bad("/kernel/stmts/" + std::to_string(i) + "/range",
          "statement " + std::to_string(i) + " spans line " + std::to_string(last) + " of /kernel/files/" +
              std::to_string(r.file) + " (" + quote_value(k.files[r.file].path) + "), which holds " +
              (lines == 0 ? std::string("no lines")
                          : std::to_string(lines) + " line" + (lines == 1 ? "" : "s") + " (lines 1 to " +
                                std::to_string(lines) + " allowed)"));
  }
}

}  // namespace

std::string to_json(const Kernel& kernel) {
  Json k;
  k["name"] = kernel.name;
  Json files = Json::array();
  // "lines" is left out where the text is not kept; given, it is the whole file.
  for (const SourceFile& f : kernel.files)
    files.push_back(f.lines.empty() ? Json{{"path", f.path}} : Json{{"path", f.path}, {"lines", f.lines}});
  k["files"] = files;
  Json params = Json::array();
  for (const Parameter& p : kernel.parameters) {
    Json j{{"name", p.name}, {"scalar", p.scalar}, {"spelling", p.type_spelling}};
    if (p.scalar) j["type"] = name(p.type);
    if (p.floating != 0) j["floating"] = p.floating;
    if (p.element_bytes != 0) j["element_bytes"] = p.element_bytes;
    if (!p.element_type.empty()) j["element_type"] = p.element_type;
    params.push_back(j);
  }
  k["parameters"] = params;
  Json locals = Json::array();
  for (const Local& l : kernel.locals)
    locals.push_back(Json{{"name", l.name}, {"type", name(l.type)}, {"range", range_json(l.declared)}});
  k["locals"] = locals;
  Json exprs = Json::array();
  for (const Expr& e : kernel.exprs) exprs.push_back(expr_json(e));
  k["exprs"] = exprs;
  Json stmts = Json::array();
  for (const Stmt& s : kernel.stmts) stmts.push_back(stmt_json(kernel, s));
  k["stmts"] = stmts;
  k["root"] = kernel.root;
  Json bases = Json::array();
  for (const MemoryBase& b : kernel.bases) bases.push_back(base_json(b));
  k["bases"] = bases;
  Json accesses = Json::array();
  for (const MemoryAccess& a : kernel.accesses) accesses.push_back(access_json(a));
  k["accesses"] = accesses;
  Json doc;
  doc["format"] = kModelFormat;
  doc["version"] = kModelVersion;
  doc["kernel"] = k;
  map_json_strings(doc, escape_bytes);  // paths and source lines need not be UTF-8
  return doc.dump(2) + "\n";
}

namespace {

// A kernel parameter's object (its name's uniqueness is the kernel's to check).
Parameter read_parameter(const Reader& p) {
  Parameter param;
  param.name = p.at("name").string();
  param.scalar = p.at("scalar").boolean();
  if (param.scalar) param.type = p.at("type").type();
  if (p.has("spelling")) param.type_spelling = p.at("spelling").string();
  if (p.has("element_bytes"))
    param.element_bytes = static_cast<std::uint64_t>(p.at("element_bytes").integer(1, std::int64_t{1} << 40));
  if (p.has("element_type")) param.element_type = p.at("element_type").string();
  if (const int bytes = scalar_c_type_bytes(param.element_type);
      bytes != 0 && param.element_bytes != 0 && param.element_bytes != static_cast<std::uint64_t>(bytes))
    bad(p.at("element_bytes").path(), "element_bytes is " + std::to_string(bytes) + " for element_type " +
                                          quote_value(param.element_type) + " (got " +
                                          std::to_string(param.element_bytes) + ")");
  if (p.has("floating")) {
    const Reader f = p.at("floating");
    param.floating = static_cast<int>(f.integer(0, 64));
    if (param.scalar || (param.floating != 32 && param.floating != 64))
      bad(f.path(), "floating is 32 or 64, on a parameter that is not scalar (got " +
                        std::to_string(param.floating) + ")");
  }
  return param;
}

}  // namespace

Kernel kernel_from_json(const std::string& text) {
  const Json doc = parse_model_json(text);
  const Reader root(doc, "");
  if (!doc.is_object()) bad("/", "expected an object (got " + got(doc) + ")");
  const Reader format = root.at("format");
  if (format.string() != kModelFormat)
    bad(format.path(),
        quote_value(format.string()) + " is not a warpdiv kernel model (expected '" + kModelFormat + "')");
  const Reader version = root.at("version");
  if (version.json().is_number_integer() && version.json().get<std::int64_t>() == 1)
    bad(version.path(),
        "version 1 was saved before the model knew memory accesses (this "
        "warpdiv reads version " +
            std::to_string(kModelVersion) + "): save it again from its source with --save-model");
  // Version 3 added floating types and intrinsics, version 4 the atomics exch, cas (with their
  // "compare"), inc, dec and floating add; a version 2 or 3 model reads the same.
  const auto v = version.json().is_number_integer() ? version.json().get<std::int64_t>() : 0;
  if (!version.json().is_number_integer() || (v != kModelVersion && v != 2 && v != 3))
    bad(version.path(), "version " + got(version.json()) + " is not supported (this warpdiv reads version " +
                            std::to_string(kModelVersion) + ")");
  const Reader r = root.at("kernel");
  Kernel k;
  k.name = r.at("name").string();
  const Reader files = r.at("files");
  std::vector<bool> lines_given;  // of each file
  for (std::size_t i = 0; i < files.size(); ++i) {
    const Reader f = files.at(i);
    SourceFile file;
    file.path = f.at("path").string();
    if (file.path.find('\0') != std::string::npos)
      bad(f.at("path").path(), "a file path holds a NUL character, which no path can hold");
    lines_given.push_back(f.has("lines"));
    if (f.has("lines")) {
      const Reader lines = f.at("lines");
      for (std::size_t j = 0; j < lines.size(); ++j) add_lines(file.lines, lines.at(j).string());
    }
    k.files.push_back(std::move(file));
  }
  const Reader params = r.at("parameters");
  std::set<std::string> parameter_names;  // unnamed parameters ("") may repeat
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Reader p = params.at(i);
    const Parameter param = read_parameter(p);
    if (!param.name.empty() && !parameter_names.insert(param.name).second)
      bad(p.at("name").path(),
          "a second parameter named " + quote_value(param.name) + " (parameter names are unique)");
    k.parameters.push_back(param);
  }
  const Reader locals = r.at("locals");
  for (std::size_t i = 0; i < locals.size(); ++i) {
    const Reader l = locals.at(i);
    Local local;
    local.name = l.at("name").string();
    local.type = l.at("type").type();
    if (l.has("range")) local.declared = l.at("range").range(k.files.size());
    k.locals.push_back(local);
  }
  const Reader exprs = r.at("exprs");
  const std::size_t expr_count = exprs.size();
  for (std::size_t i = 0; i < expr_count; ++i) k.exprs.push_back(read_expr(k, exprs.at(i), expr_count));
  const Reader bases = r.at("bases");
  for (std::size_t i = 0; i < bases.size(); ++i) k.bases.push_back(read_base(k, bases.at(i)));
  const Reader accesses = r.at("accesses");
  for (std::size_t i = 0; i < accesses.size(); ++i) k.accesses.push_back(read_access(k, accesses.at(i)));
  const Reader stmts = r.at("stmts");
  const std::size_t stmt_count = stmts.size();
  for (std::size_t i = 0; i < stmt_count; ++i) k.stmts.push_back(read_stmt(k, stmts.at(i), stmt_count));
  k.root = r.at("root").id(stmt_count, "statement");
  try {
    validate(k);
  } catch (const InvalidInput& e) {
    std::string what = e.what();
    if (what.rfind("kernel model: ", 0) != 0) throw;  // a data-dependent branch: keep its message
    // Structural faults name the statement or expression: give their JSON paths instead.
    what = std::regex_replace(what.substr(14), std::regex(R"(\(statement (\d+)\))"), "(/kernel/stmts/$1)");
    what = std::regex_replace(what, std::regex(R"(\(expression (\d+)\))"), "(/kernel/exprs/$1)");
    throw InvalidInput(e.diag(), "kernel model JSON: " + what);
  }
  check_statement_lines(k, lines_given);
  return k;
}

Kernel load_kernel(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidInput(Diag::file_unreadable, "cannot read kernel model '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InvalidInput(Diag::file_unreadable, "cannot read kernel model '" + path + "'");
  try {
    return kernel_from_json(text.str());
  } catch (const InvalidInput& e) {
    throw InvalidInput(e.diag(), path + ": " + e.what());
  }
}

}  // namespace warpdiv::sim::ir
