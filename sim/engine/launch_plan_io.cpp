// The launch plan's serialised form (sim/engine/launch_plan.hpp): a header, the model as JSON, then
// every field of the plan in one order, which one list per structure (fields()) gives the writer,
// the reader and the comparison alike. Integers little-endian in their own width, enums in their
// underlying type's, Int128 as two 64-bit halves, strings and vectors after their length.
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "sim/engine/launch_plan.hpp"
#include "sim/model/ir_json.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::sim::ir::detail {

namespace {

__extension__ typedef unsigned __int128 UInt128;

constexpr char kMagic[8] = {'w', 'd', '-', 'p', 'l', 'a', 'n', '\0'};

[[noreturn]] void malformed(const std::string& what) {
  throw InvalidInput(Diag::file_format, "the launch plan does not read: " + what);
}

// ---------------------------------------------------------------------------------------------
// The fields of each structure, in their serialised order: f(field, ...) for each.

template <class F>
void fields(F& f, Dim3& d) {
  f(d.x, d.y, d.z);
}
template <class F>
void fields(F& f, Value& v) {
  f(v.type, v.bits);
}
template <class F>
void fields(F& f, PlanOptions::Shift& s) {
  f(s.count, s.step);
}
template <class F>
void fields(F& f, WarpThreads& w) {
  f(w.existing, w.lanes, w.index, w.uniform);
}
template <class F>
void fields(F& f, CompiledExpr& e) {
  f(e.kind, e.type, e.builtin, e.unary_op, e.binary_op, e.logical_op, e.signed_operands, e.narrow_operands);
  f(e.floating_operands, e.from, e.intrinsic, e.warp_op, e.index, e.operands, e.constant, e.recorded);
}
template <class F>
void fields(F& f, CompiledAccess& a) {
  f(a.id, a.base, a.offset, a.guard, a.width, a.shared, a.load, a.kind, a.statement, a.shifts, a.shift_step);
  f(a.shifted_at, a.affine, a.same_as, a.capture, a.parameter, a.value, a.atomic, a.type, a.compare);
  f(a.after_atomics, a.address_after_atomics, a.turns);
}
template <class F>
void fields(F& f, FloatOps& o) {
  f(o.operations, o.guard);
}
template <class F>
void fields(F& f, KeptAccess& a) {
  f(a.id, a.base, a.kind, a.offset, a.guard, a.value, a.width, a.global, a.local, a.atomic, a.type,
    a.compare);
}
template <class F>
void fields(F& f, StatementMemory& m) {
  f(m.accesses, m.flops, m.kept);
}
template <class F>
void fields(F& f, AffineLeaf& l) {
  f(l.kind, l.index, l.type);
}
template <class F>
void fields(F& f, LinearForm& l) {
  f(l.constant, l.coefficient);
}
template <class F>
void fields(F& f, ValueRange& r) {
  f(r.low, r.high);
}
template <class F>
void fields(F& f, RangeCheck& c) {
  f(c.form, c.range);
}
template <class F>
void fields(F& f, SmallCheck& c) {
  f(c.constant, c.coefficient, c.low, c.high);
}
template <class F>
void fields(F& f, AffineOffset& a) {
  f(a.leaves, a.leaf, a.form, a.checks, a.small, a.small_form, a.small_checks);
}
// The launch without its data, the options, then the compiled tables.
template <class F>
void plan_fields(F& f, LaunchPlan& p) {
  Launch& l = p.launch;
  f(l.grid, l.block, l.warp_size, l.arguments, l.buffer_bytes, l.dynamic_shared_bytes);
  PlanOptions& o = p.options;
  f(o.by_iteration, o.memory, o.affine_offsets, o.capture_stores, o.shared_addresses, o.shifts, o.recorded);
  f(p.warp_size, p.warps_per_block, p.threads_per_block, p.warps, p.exprs, p.innermost_loop, p.barrier);
  f(p.barriers, p.skip_value, p.checks, p.has_memory, p.memory, p.affine_offsets, p.base_bytes,
    p.shared_values);
  f(p.shared_at, p.shared_size, p.global_values, p.global_at, p.global_size, p.local_at, p.followed);
  f(p.local_size, p.shifted_size, p.stores_not_captured, p.kept, p.kept_locals, p.canonical, p.arguments);
}

// ---------------------------------------------------------------------------------------------
// Writing and reading.

template <class T>
constexpr bool kScalar = std::is_integral_v<T> || std::is_enum_v<T>;

struct Writer {
  std::string out;

  void bytes(std::uint64_t v, std::size_t n) {
    char b[8];
    for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<char>(v >> (8 * i));
    out.append(b, n);
  }
  template <class... T>
  void operator()(const T&... v) {
    (one(v), ...);
  }
  template <class T>
  void one(const T& v) {
    if constexpr (std::is_same_v<T, Int128>) {
      bytes(static_cast<std::uint64_t>(v), 8);
      bytes(static_cast<std::uint64_t>(static_cast<UInt128>(v) >> 64), 8);
    } else if constexpr (std::is_enum_v<T>) {
      bytes(static_cast<std::uint64_t>(static_cast<std::underlying_type_t<T>>(v)), sizeof(T));
    } else if constexpr (kScalar<T>) {
      bytes(static_cast<std::uint64_t>(v), sizeof(T));
    } else {
      fields(*this, const_cast<T&>(v));  // the writer only reads
    }
  }
  void one(const std::string& s) {
    bytes(s.size(), 8);
    out += s;
  }
  template <class T, std::size_t N>
  void one(const std::array<T, N>& a) {
    for (const T& x : a) one(x);
  }
  template <class T, std::size_t N>
  void one(const T (&a)[N]) {
    for (const T& x : a) one(x);
  }
  template <class T>
  void one(const std::vector<T>& v) {
    bytes(v.size(), 8);
    for (const auto& x : v) one(static_cast<const T&>(x));
  }
  void one(const std::vector<bool>& v) {
    bytes(v.size(), 8);
    for (const bool x : v) one(x);
  }
};

struct Reader {
  std::string_view in;
  std::size_t at = 0;

  std::uint64_t bytes(std::size_t n) {
    if (in.size() - at < n) malformed("it ends early, at byte " + std::to_string(in.size()));
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{static_cast<unsigned char>(in[at + i])} << (8 * i);
    at += n;
    return v;
  }
  // A length of at most the bytes left (every element takes one at least).
  std::size_t length() {
    const std::uint64_t n = bytes(8);
    if (n > in.size() - at) malformed("a length of " + std::to_string(n) + " passes its end");
    return static_cast<std::size_t>(n);
  }
  template <class... T>
  void operator()(T&... v) {
    (one(v), ...);
  }
  template <class T>
  void one(T& v) {
    if constexpr (std::is_same_v<T, Int128>) {
      const std::uint64_t low = bytes(8);
      const std::uint64_t high = bytes(8);
      v = static_cast<Int128>((static_cast<UInt128>(high) << 64) | low);
    } else if constexpr (std::is_same_v<T, bool>) {
      const std::uint64_t b = bytes(1);
      if (b > 1) malformed("a flag of " + std::to_string(b));
      v = b != 0;
    } else if constexpr (std::is_enum_v<T>) {
      v = static_cast<T>(static_cast<std::underlying_type_t<T>>(bytes(sizeof(T))));
    } else if constexpr (kScalar<T>) {
      v = static_cast<T>(bytes(sizeof(T)));
    } else {
      fields(*this, v);
    }
  }
  void one(std::string& s) {
    const std::size_t n = length();
    s.assign(in.substr(at, n));
    at += n;
  }
  template <class T, std::size_t N>
  void one(std::array<T, N>& a) {
    for (T& x : a) one(x);
  }
  template <class T, std::size_t N>
  void one(T (&a)[N]) {
    for (T& x : a) one(x);
  }
  // Element by element, so that memory grows with the bytes read, never with a length claimed.
  template <class T>
  void one(std::vector<T>& v) {
    const std::size_t n = length();
    v.clear();
    for (std::size_t i = 0; i < n; ++i) one(v.emplace_back());
  }
  void one(std::vector<bool>& v) {
    const std::size_t n = length();
    v.clear();
    for (std::size_t i = 0; i < n; ++i) {
      bool b = false;
      one(b);
      v.push_back(b);
    }
  }
};

// The names of plan_fields' fields, in its order: a refusal names the field that differs.
constexpr const char* kPlanFieldNames[] = {"launch.grid",
                                           "launch.block",
                                           "launch.warp_size",
                                           "launch.arguments",
                                           "launch.buffer_bytes",
                                           "launch.dynamic_shared_bytes",
                                           "options.by_iteration",
                                           "options.memory",
                                           "options.affine_offsets",
                                           "options.capture_stores",
                                           "options.shared_addresses",
                                           "options.shifts",
                                           "options.recorded",
                                           "warp_size",
                                           "warps_per_block",
                                           "threads_per_block",
                                           "warps",
                                           "exprs",
                                           "innermost_loop",
                                           "barrier",
                                           "barriers",
                                           "skip_value",
                                           "checks",
                                           "has_memory",
                                           "memory",
                                           "affine_offsets",
                                           "base_bytes",
                                           "shared_values",
                                           "shared_at",
                                           "shared_size",
                                           "global_values",
                                           "global_at",
                                           "global_size",
                                           "local_at",
                                           "followed",
                                           "local_size",
                                           "shifted_size",
                                           "stores_not_captured",
                                           "kept",
                                           "kept_locals",
                                           "canonical",
                                           "arguments"};

template <class T>
struct IsVector : std::false_type {};
template <class T, class A>
struct IsVector<std::vector<T, A>> : std::true_type {};

// Each field of a plan as the bytes serialize writes, a vector's element by element.
struct FieldBytes {
  std::vector<std::vector<std::string>> fields;  // [field][element] (not a vector: one element)
  std::vector<bool> indexed;                     // [field]: a vector, its elements named by index

  template <class... T>
  void operator()(T&... v) {
    (one(v), ...);
  }
  template <class T>
  static std::string bytes_of(const T& v) {
    Writer w;
    w.one(v);
    return std::move(w.out);
  }
  template <class T>
  void one(T& v) {
    std::vector<std::string> parts;
    if constexpr (IsVector<T>::value) {
      for (const auto& x : v) parts.push_back(bytes_of(static_cast<const typename T::value_type&>(x)));
    } else {
      parts.push_back(bytes_of(v));
    }
    fields.push_back(std::move(parts));
    indexed.push_back(IsVector<T>::value);
  }
};

// Refuses `read` unless every field is what its model compiles to for its launch and options
// (`compiled`): every index in its tables (expressions, statements, locals, bases, accesses,
// barriers, affine offsets, their operands and kinds) is then one the engines can follow.
void check_compiled(LaunchPlan& read, LaunchPlan& compiled) {
  FieldBytes a, b;
  plan_fields(a, read);
  plan_fields(b, compiled);
  constexpr std::size_t kNames = sizeof kPlanFieldNames / sizeof kPlanFieldNames[0];
  if (a.fields.size() != kNames) throw InternalError("kPlanFieldNames does not list plan_fields");
  for (std::size_t f = 0; f < kNames; ++f) {
    const std::vector<std::string>&x = a.fields[f], &y = b.fields[f];
    if (x.size() != y.size())
      malformed(std::string("its ") + kPlanFieldNames[f] + " has " + std::to_string(x.size()) +
                " entries, its model and launch compile to " + std::to_string(y.size()));
    for (std::size_t i = 0; i < x.size(); ++i)
      if (x[i] != y[i])
        malformed(std::string("its ") + kPlanFieldNames[f] +
                  (a.indexed[f] ? "[" + std::to_string(i) + "]" : std::string()) +
                  " is not what its model compiles to for its launch");
  }
}

// Every table sized as its model says: a plan whose tables do not fit its model is refused, not
// run (check_compiled then compares their contents).
void check_fits(const LaunchPlan& p) {
  const Kernel& k = p.kernel;
  const auto sized = [](const auto& table, std::size_t n, const char* what) {
    if (table.size() != n)
      malformed(std::string(what) + " has " + std::to_string(table.size()) + " entries, its model " +
                std::to_string(n));
  };
  sized(p.innermost_loop, k.stmts.size(), "innermost_loop");
  sized(p.barrier, k.stmts.size(), "barrier");
  sized(p.skip_value, k.stmts.size(), "skip_value");
  sized(p.checks, k.stmts.size(), "checks");
  sized(p.has_memory, k.stmts.size(), "has_memory");
  sized(p.memory, k.stmts.size(), "memory");
  sized(p.exprs, k.exprs.size(), "exprs");
  sized(p.kept, k.exprs.size(), "kept");
  sized(p.kept_locals, k.exprs.size(), "kept_locals");
  sized(p.canonical, k.exprs.size(), "canonical");
  sized(p.base_bytes, k.bases.size(), "base_bytes");
  sized(p.followed, k.bases.size(), "followed");
  sized(p.arguments, k.parameters.size(), "arguments");
  sized(p.warps, static_cast<std::size_t>(p.warps_per_block), "warps");
}

}  // namespace

std::string serialize(const LaunchPlan& plan) {
  Writer w;
  w.out.append(kMagic, sizeof kMagic);
  w.bytes(kLaunchPlanVersion, 4);
  w.one(to_json(plan.kernel));
  plan_fields(w, const_cast<LaunchPlan&>(plan));  // the writer only reads
  return std::move(w.out);
}

std::uint32_t plan_version(std::string_view bytes) {
  if (bytes.size() < sizeof kMagic + 4 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return 0;
  Reader r{bytes, sizeof kMagic};
  return static_cast<std::uint32_t>(r.bytes(4));
}

LaunchPlan deserialize(std::string_view bytes, ModelReader read_model, void* state) {
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    malformed("it is not a launch plan (no header)");
  Reader r{bytes, sizeof kMagic};
  const std::uint64_t version = r.bytes(4);
  if (version != kLaunchPlanVersion)
    malformed("it is of version " + std::to_string(version) + ", this build reads version " +
              std::to_string(kLaunchPlanVersion));
  std::string model;
  r.one(model);
  std::shared_ptr<const Kernel> kernel;
  try {
    kernel = read_model != nullptr ? read_model(model, state)
                                   : std::make_shared<const Kernel>(kernel_from_json(model));
  } catch (const InvalidInput& e) {
    malformed(std::string("its model: ") + e.what());
  }
  LaunchPlan plan(std::move(kernel), LaunchPlan::Blank{});
  plan_fields(r, plan);
  if (r.at != bytes.size())
    malformed(std::to_string(bytes.size() - r.at) + " bytes follow its end (at byte " + std::to_string(r.at) +
              ")");
  check_fits(plan);
  try {
    validate(plan.launch, plan.kernel);
  } catch (const InvalidInput& e) {
    malformed(std::string("its launch: ") + e.what());
  }
  LaunchPlan compiled(plan.model, plan.launch, plan.options);
  check_compiled(plan, compiled);
  return compiled;
}

bool operator==(const LaunchPlan& a, const LaunchPlan& b) {
  if (a.exprs.size() != b.exprs.size()) return false;
  for (std::size_t i = 0; i < a.exprs.size(); ++i) {
    const CompiledExpr &x = a.exprs[i], &y = b.exprs[i];
    if (x.binary != y.binary || x.unary != y.unary || x.binary_lanes != y.binary_lanes ||
        x.compare_lanes != y.compare_lanes || x.unary_lanes != y.unary_lanes || x.cast_lanes != y.cast_lanes)
      return false;
  }
  return serialize(a) == serialize(b);
}

}  // namespace warpdiv::sim::ir::detail
