#include "sim/model/ir.hpp"

#include <algorithm>
#include <functional>
#include <array>
#include <charconv>
#include <cstring>
#include <limits>
#include <sstream>

#include "sim/support/errors.hpp"
#include "sim/model/ir_ops.hpp"

namespace warpdiv::sim::ir {

namespace {

constexpr std::array<const char*, kScalarTypeCount> kTypeNames = {
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"};
constexpr std::array<const char*, kBuiltinCount> kBuiltinNames = {
    "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y", "blockIdx.z", "blockDim.x",
    "blockDim.y",  "blockDim.z",  "gridDim.x",   "gridDim.y",  "gridDim.z",  "warpSize"};
constexpr std::array<const char*, kBinaryOpCount> kBinaryNames = {
#define WARPDIV_BINARY_OP(Enum, spelling, operands, fault, flops) spelling,
#include "sim/model/ir_ops.def"
};
constexpr std::array<const char*, kExprKindCount> kExprKindNames = {
    "constant", "param",  "builtin", "local",  "opaque",    "cast",
    "unary",    "binary", "logical", "select", "intrinsic", "warp"};
constexpr std::array<const char*, kWarpOpCount> kWarpOpNames = {
#define WARPDIV_WARP_OP(Enum, name, operands) name,
#include "sim/model/ir_ops.def"
};
constexpr std::array<const char*, kIntrinsicCount> kIntrinsicNames = {
#define WARPDIV_INTRINSIC(Enum, name, operands, flops) name,
#include "sim/model/ir_ops.def"
};
constexpr std::array<const char*, kAtomicOpCount> kAtomicNames = {
#define WARPDIV_ATOMIC_OP(Enum, name, order) name,
#include "sim/model/ir_ops.def"
};
// The columns of sim/model/ir_ops.def, by operation.
constexpr OperandClass kBinaryOperands[] = {
#define WARPDIV_BINARY_OP(Enum, spelling, operands, fault, flops) OperandClass::operands,
#include "sim/model/ir_ops.def"
};
constexpr FaultRule kBinaryFaults[] = {
#define WARPDIV_BINARY_OP(Enum, spelling, operands, fault, flops) FaultRule::fault,
#include "sim/model/ir_ops.def"
};
constexpr int kBinaryFlops[] = {
#define WARPDIV_BINARY_OP(Enum, spelling, operands, fault, flops) flops,
#include "sim/model/ir_ops.def"
};
constexpr OperandClass kUnaryOperands[] = {
#define WARPDIV_UNARY_OP(Enum, spelling, operands, fault) OperandClass::operands,
#include "sim/model/ir_ops.def"
};
constexpr FaultRule kUnaryFaults[] = {
#define WARPDIV_UNARY_OP(Enum, spelling, operands, fault) FaultRule::fault,
#include "sim/model/ir_ops.def"
};
constexpr int kIntrinsicFlops[] = {
#define WARPDIV_INTRINSIC(Enum, name, operands, flops) flops,
#include "sim/model/ir_ops.def"
};
constexpr int kIntrinsicOperands[] = {
#define WARPDIV_INTRINSIC(Enum, name, operands, flops) operands,
#include "sim/model/ir_ops.def"
};
constexpr int kWarpOperands[] = {
#define WARPDIV_WARP_OP(Enum, name, operands) operands,
#include "sim/model/ir_ops.def"
};
// How an atomic's final element depends on the threads' order (sim/model/ir_ops.def).
enum class AtomicOrder : std::uint8_t { Commutes, OrderedOnFloat, Ordered };
constexpr std::array<AtomicOrder, kAtomicOpCount> kAtomicOrders = {
#define WARPDIV_ATOMIC_OP(Enum, name, order) AtomicOrder::order,
#include "sim/model/ir_ops.def"
};
constexpr std::array<const char*, kStmtKindCount> kStmtKindNames = {"block",  "declare", "assign", "work",
                                                                    "if",     "loop",    "break",  "continue",
                                                                    "return", "barrier", "call",   "switch"};

}  // namespace

std::string name(ScalarType type) { return kTypeNames[static_cast<int>(type)]; }

ScalarType scalar_type_from_name(const std::string& text) {
  for (int i = 0; i < kScalarTypeCount; ++i)
    if (text == kTypeNames[i]) return static_cast<ScalarType>(i);
  throw InvalidInput(Diag::flag_value,
                     "unknown scalar type '" + text +
                         "' (allowed: bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, "
                         "float32, float64)");
}

int bit_width(ScalarType type) {
  switch (type) {
    case ScalarType::Bool:
      return 1;
    case ScalarType::I8:
    case ScalarType::U8:
      return 8;
    case ScalarType::I16:
    case ScalarType::U16:
      return 16;
    case ScalarType::I32:
    case ScalarType::U32:
    case ScalarType::F32:
      return 32;
    case ScalarType::I64:
    case ScalarType::U64:
    case ScalarType::F64:
      return 64;
  }
  return 64;
}

bool is_floating(ScalarType type) { return type == ScalarType::F32 || type == ScalarType::F64; }

std::int64_t min_of(ScalarType t) {
  if (t == ScalarType::Bool || !is_signed(t)) return 0;
  return -(std::int64_t{1} << (bit_width(t) - 2)) * 2;  // -2^(w-1) without overflow
}
std::uint64_t max_of(ScalarType t) {
  const int w = bit_width(t);
  if (is_signed(t)) return (std::uint64_t{1} << (w - 1)) - 1;
  return w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
}
std::string range_text(ScalarType t) {
  return std::to_string(min_of(t)) + " to " + std::to_string(max_of(t));
}

bool is_signed(ScalarType type) {
  return type == ScalarType::I8 || type == ScalarType::I16 || type == ScalarType::I32 ||
         type == ScalarType::I64;
}

bool is_promoted(ScalarType type) {
  return type == ScalarType::I32 || type == ScalarType::U32 || type == ScalarType::I64 ||
         type == ScalarType::U64;
}

std::uint64_t normalise(ScalarType type, std::uint64_t bits) {
  switch (type) {
#define WARPDIV_SCALAR_TYPE(T) \
  case ScalarType::T:          \
    return ops::wrap<ScalarType::T>(bits);
    WARPDIV_SCALAR_TYPES
#undef WARPDIV_SCALAR_TYPE
  }
  return bits;
}

Value Value::of(ScalarType type, std::int64_t value) {
  const bool fits = value >= min_of(type) && (value < 0 || static_cast<std::uint64_t>(value) <= max_of(type));
  if (!fits) {
    throw InvalidInput(Diag::flag_value, "value " + std::to_string(value) + " does not fit in " + name(type) +
                                             " (allowed: " + range_text(type) + ")");
  }
  return Value{type, normalise(type, static_cast<std::uint64_t>(value))};
}

Value Value::of_unsigned(ScalarType type, std::uint64_t value) {
  if (value > max_of(type)) {
    throw InvalidInput(Diag::flag_value, "value " + std::to_string(value) + " does not fit in " + name(type) +
                                             " (allowed: " + range_text(type) + ")");
  }
  return Value{type, value};
}

bool operator==(const Value& a, const Value& b) { return a.type == b.type && a.bits == b.bits; }

namespace {

template <typename F>
Value parse_floating(ScalarType type, const std::string& text) {
  F value = 0;
  if (text == "inf" || text == "-inf" || text == "nan") {
    value = text == "nan" ? std::numeric_limits<F>::quiet_NaN()
                          : (text[0] == '-' ? -1 : 1) * std::numeric_limits<F>::infinity();
  } else {
    const char* first = text.data();
    // from_chars takes no '+', and reads "inf", "nan" and hexadecimal forms C++ literals don't.
    const bool plain = !text.empty() && text.find_first_of("xXnN") == std::string::npos &&
                       text.find_first_not_of("0123456789.eE+-") == std::string::npos && text[0] != '+';
    const auto r = std::from_chars(first, first + text.size(), value);
    if (!plain || r.ptr != first + text.size() ||
        (r.ec != std::errc() && r.ec != std::errc::result_out_of_range))
      throw InvalidInput(Diag::flag_value, "'" + text + "' is not a decimal number (allowed: " + name(type) +
                                               ", as C++ writes it: 2.5, -1e-3)");
    if (r.ec == std::errc::result_out_of_range)
      throw InvalidInput(Diag::flag_value,
                         "'" + text + "' is outside " + name(type) + "'s finite nonzero range");
  }
  std::uint64_t bits = 0;
  if constexpr (sizeof(F) == 4) {
    std::uint32_t low = 0;
    std::memcpy(&low, &value, sizeof low);
    bits = low;
  } else {
    std::memcpy(&bits, &value, sizeof bits);
  }
  return Value{type, bits};
}

template <typename F>
std::string floating_text(std::uint64_t bits) {
  F value = 0;
  if constexpr (sizeof(F) == 4) {
    const auto low = static_cast<std::uint32_t>(bits);
    std::memcpy(&value, &low, sizeof value);
  } else {
    std::memcpy(&value, &bits, sizeof value);
  }
  if (value != value) return "nan";
  char text[64];
  const auto r = std::to_chars(text, text + sizeof text, value);
  return std::string(text, r.ptr);
}

}  // namespace

Value parse_value(ScalarType type, const std::string& text) {
  if (type == ScalarType::F32) return parse_floating<float>(type, text);
  if (type == ScalarType::F64) return parse_floating<double>(type, text);
  const std::string allowed = " (allowed: an integer from " + range_text(type) + ")";
  if (type == ScalarType::Bool) {
    if (text == "true" || text == "1") return Value{type, 1};
    if (text == "false" || text == "0") return Value{type, 0};
    throw InvalidInput(Diag::flag_value, "'" + text + "' is not a bool (allowed: true, false, 1, 0)");
  }
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  if (i == text.size()) throw InvalidInput(Diag::flag_value, "'" + text + "' is not an integer" + allowed);
  std::uint64_t magnitude = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9')
      throw InvalidInput(Diag::flag_value, "'" + text + "' is not an integer" + allowed);
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
      throw InvalidInput(Diag::flag_value, "'" + text + "' is out of range for " + name(type) + allowed);
    magnitude = magnitude * 10 + digit;
  }
  if (!negative) {
    if (magnitude > max_of(type))
      throw InvalidInput(Diag::flag_value, "'" + text + "' is out of range for " + name(type) + allowed);
    return Value{type, magnitude};
  }
  // -magnitude must be >= min_of(type), i.e. magnitude <= 2^(w-1) for signed, 0 for unsigned.
  const std::uint64_t limit = is_signed(type) ? max_of(type) + 1 : 0;
  if (magnitude > limit)
    throw InvalidInput(Diag::flag_value, "'" + text + "' is out of range for " + name(type) + allowed);
  return Value{type, normalise(type, ~magnitude + 1)};
}

std::string to_string(const Value& value) {
  if (value.type == ScalarType::Bool) return value.bits != 0 ? "true" : "false";
  if (value.type == ScalarType::F32) return floating_text<float>(value.bits);
  if (value.type == ScalarType::F64) return floating_text<double>(value.bits);
  if (is_signed(value.type)) return std::to_string(value.as_signed());
  return std::to_string(value.bits);
}

std::string argument_text(const Parameter& parameter, const Value& value) {
  if (parameter.scalar) return to_string(value);
  if (parameter.floating == 0) return "";
  return parameter.floating == 32 ? floating_text<float>(value.bits) : floating_text<double>(value.bits);
}

bool operator==(const SourceRange& a, const SourceRange& b) {
  return a.file == b.file && a.line == b.line && a.column == b.column && a.end_line == b.end_line &&
         a.end_column == b.end_column;
}

std::string name(Builtin builtin) { return kBuiltinNames[static_cast<int>(builtin)]; }
std::string name(UnaryOp op) {
  switch (op) {
#define WARPDIV_UNARY_OP(Enum, spelling, operands, fault) \
  case UnaryOp::Enum:                                     \
    return spelling;
#include "sim/model/ir_ops.def"
  }
  return "?";
}
OperandClass operand_class(BinaryOp op) { return kBinaryOperands[static_cast<std::size_t>(op)]; }
OperandClass operand_class(UnaryOp op) { return kUnaryOperands[static_cast<std::size_t>(op)]; }
FaultRule fault_rule(BinaryOp op) { return kBinaryFaults[static_cast<std::size_t>(op)]; }
FaultRule fault_rule(UnaryOp op) { return kUnaryFaults[static_cast<std::size_t>(op)]; }
int float_operations(BinaryOp op) { return kBinaryFlops[static_cast<std::size_t>(op)]; }
int float_operations(Intrinsic intrinsic) { return kIntrinsicFlops[static_cast<std::size_t>(intrinsic)]; }
std::string name(BinaryOp op) { return kBinaryNames[static_cast<int>(op)]; }
std::string name(LogicalOp op) { return op == LogicalOp::And ? "&&" : "||"; }
std::string name(ExprKind kind) { return kExprKindNames[static_cast<int>(kind)]; }
std::string name(Intrinsic intrinsic) { return kIntrinsicNames[static_cast<int>(intrinsic)]; }
Intrinsic intrinsic_from_name(const std::string& text) {
  for (int i = 0; i < kIntrinsicCount; ++i)
    if (text == kIntrinsicNames[i]) return static_cast<Intrinsic>(i);
  throw InvalidInput(Diag::flag_value,
                     "unknown intrinsic '" + text + "' (allowed: fma, fms, fnma, sqrt, fabs)");
}
std::string name(WarpOp op) { return kWarpOpNames[static_cast<int>(op)]; }
int operand_count(WarpOp op) { return kWarpOperands[static_cast<std::size_t>(op)]; }
int operand_count(Intrinsic intrinsic) { return kIntrinsicOperands[static_cast<std::size_t>(intrinsic)]; }
std::string name(StmtKind kind) { return kStmtKindNames[static_cast<int>(kind)]; }
std::string name(LoopKind kind) {
  switch (kind) {
    case LoopKind::For:
      return "for";
    case LoopKind::While:
      return "while";
    case LoopKind::Do:
      return "do";
  }
  return "?";
}

std::string name(AddressSpace space) {
  switch (space) {
    case AddressSpace::Global:
      return "global";
    case AddressSpace::Shared:
      return "shared";
    case AddressSpace::Local:
      return "local";
    case AddressSpace::Constant:
      return "constant";
  }
  return "?";
}

AddressSpace address_space_from_name(const std::string& text) {
  for (AddressSpace s :
       {AddressSpace::Global, AddressSpace::Shared, AddressSpace::Local, AddressSpace::Constant})
    if (name(s) == text) return s;
  throw InvalidInput(Diag::flag_value,
                     "unknown address space '" + text + "' (allowed: global, shared, local, constant)");
}

std::string name(AccessKind kind) {
  switch (kind) {
    case AccessKind::Load:
      return "load";
    case AccessKind::Store:
      return "store";
    case AccessKind::Atomic:
      return "atomic";
  }
  return "?";
}

std::string name(AtomicOp op) { return kAtomicNames[static_cast<std::size_t>(op)]; }

AtomicOp atomic_op_from_name(const std::string& text) {
  for (int i = 0; i < kAtomicOpCount; ++i)
    if (name(static_cast<AtomicOp>(i)) == text) return static_cast<AtomicOp>(i);
  throw InvalidInput(Diag::flag_value,
                     "unknown atomic operation '" + text +
                         "' (allowed: other, add, sub, min, max, and, or, xor, exch, cas, inc, dec)");
}

bool atomics_commute(AtomicOp a, AtomicOp b, ScalarType type) {
  const auto additive = [](AtomicOp op) { return op == AtomicOp::Add || op == AtomicOp::Sub; };
  return !ordered_atomic(a, type) && !ordered_atomic(b, type) && (a == b || (additive(a) && additive(b)));
}

bool ordered_atomic(AtomicOp op, ScalarType type) {
  const auto i = static_cast<std::size_t>(op);
  if (i >= kAtomicOrders.size()) return true;
  const AtomicOrder order = kAtomicOrders[i];
  return order == AtomicOrder::Ordered || (order == AtomicOrder::OrderedOnFloat && is_floating(type));
}

AccessKind access_kind_from_name(const std::string& text) {
  for (AccessKind k : {AccessKind::Load, AccessKind::Store, AccessKind::Atomic})
    if (name(k) == text) return k;
  throw InvalidInput(Diag::flag_value, "unknown access kind '" + text + "' (allowed: load, store, atomic)");
}

ScalarType builtin_type(Builtin builtin) {
  return builtin == Builtin::WarpSize ? ScalarType::I32 : ScalarType::U32;
}

bool is_comparison(BinaryOp op) { return operand_class(op) == OperandClass::Comparison; }

// ---------------------------------------------------------------------------------------------
// Builders

ExprId Kernel::add(const Expr& expr) {
  exprs.push_back(expr);
  return static_cast<ExprId>(exprs.size() - 1);
}

StmtId Kernel::add(const Stmt& stmt) {
  stmts.push_back(stmt);
  return static_cast<StmtId>(stmts.size() - 1);
}

LocalId Kernel::add_local(const std::string& local_name, ScalarType type, SourceRange declared) {
  locals.push_back(Local{local_name, type, declared});
  return static_cast<LocalId>(locals.size() - 1);
}

std::int32_t Kernel::add_parameter(const std::string& parameter_name, ScalarType type) {
  parameters.push_back(Parameter{parameter_name, type, true, ir::name(type)});
  return static_cast<std::int32_t>(parameters.size() - 1);
}

std::int32_t Kernel::add_opaque_parameter(const std::string& parameter_name, const std::string& type_spelling,
                                          int floating) {
  parameters.push_back(Parameter{parameter_name, ScalarType::I32, false, type_spelling, floating});
  return static_cast<std::int32_t>(parameters.size() - 1);
}

std::int32_t Kernel::add_base(const MemoryBase& base) {
  bases.push_back(base);
  return static_cast<std::int32_t>(bases.size() - 1);
}

std::int32_t Kernel::add_access(const MemoryAccess& access) {
  accesses.push_back(access);
  return static_cast<std::int32_t>(accesses.size() - 1);
}

namespace {
Expr make_expr(ExprKind kind, ScalarType type, SourceRange range) {
  Expr e;
  e.kind = kind;
  e.type = type;
  e.range = range;
  return e;
}
Stmt make_stmt(StmtKind kind, SourceRange range) {
  Stmt s;
  s.kind = kind;
  s.range = range;
  return s;
}
}  // namespace

ExprId Kernel::constant(ScalarType type, std::int64_t value, SourceRange range) {
  Expr e = make_expr(ExprKind::Constant, type, range);
  e.constant = normalise(type, static_cast<std::uint64_t>(value));
  return add(e);
}

ExprId Kernel::floating_constant(ScalarType type, double value, SourceRange range) {
  Expr e = make_expr(ExprKind::Constant, type, range);
  if (type == ScalarType::F32) {
    const auto f = static_cast<float>(value);
    std::uint32_t low = 0;
    std::memcpy(&low, &f, sizeof low);
    e.constant = low;
  } else {
    std::memcpy(&e.constant, &value, sizeof value);
  }
  return add(e);
}

ExprId Kernel::param(std::int32_t index, SourceRange range) {
  const bool known = index >= 0 && static_cast<std::size_t>(index) < parameters.size();
  ScalarType type = known ? parameters[index].type : ScalarType::I32;
  if (known && parameters[index].floating != 0)
    type = parameters[index].floating == 32 ? ScalarType::F32 : ScalarType::F64;
  Expr e = make_expr(ExprKind::Param, type, range);
  e.index = index;
  return add(e);
}

ExprId Kernel::builtin(Builtin which, SourceRange range) {
  Expr e = make_expr(ExprKind::Builtin, builtin_type(which), range);
  e.builtin = which;
  return add(e);
}

ExprId Kernel::local(LocalId id, SourceRange range) {
  const bool known = id >= 0 && static_cast<std::size_t>(id) < locals.size();
  Expr e = make_expr(ExprKind::Local, known ? locals[id].type : ScalarType::I32, range);
  e.index = id;
  return add(e);
}

ExprId Kernel::opaque(ScalarType type, const std::string& description, SourceRange range) {
  Expr e = make_expr(ExprKind::Opaque, type, range);
  e.description = description;
  return add(e);
}

namespace {
ScalarType type_of(const Kernel& k, ExprId id) {
  return id >= 0 && static_cast<std::size_t>(id) < k.exprs.size() ? k.exprs[id].type : ScalarType::I32;
}
}  // namespace

ExprId Kernel::cast(ScalarType to, ExprId operand, SourceRange range) {
  Expr e = make_expr(ExprKind::Cast, to, range);
  e.operands[0] = operand;
  return add(e);
}

ExprId Kernel::unary(UnaryOp op, ExprId operand, SourceRange range) {
  Expr e = make_expr(ExprKind::Unary, op == UnaryOp::LogicalNot ? ScalarType::Bool : type_of(*this, operand),
                     range);
  e.unary_op = op;
  e.operands[0] = operand;
  return add(e);
}

ExprId Kernel::binary(BinaryOp op, ExprId lhs, ExprId rhs, SourceRange range) {
  Expr e = make_expr(ExprKind::Binary, is_comparison(op) ? ScalarType::Bool : type_of(*this, lhs), range);
  e.binary_op = op;
  e.operands[0] = lhs;
  e.operands[1] = rhs;
  return add(e);
}

ExprId Kernel::logical(LogicalOp op, ExprId lhs, ExprId rhs, SourceRange range) {
  Expr e = make_expr(ExprKind::Logical, ScalarType::Bool, range);
  e.logical_op = op;
  e.operands[0] = lhs;
  e.operands[1] = rhs;
  return add(e);
}

ExprId Kernel::select(ExprId condition, ExprId if_true, ExprId if_false, SourceRange range) {
  Expr e = make_expr(ExprKind::Select, type_of(*this, if_true), range);
  e.operands[0] = condition;
  e.operands[1] = if_true;
  e.operands[2] = if_false;
  return add(e);
}

ExprId Kernel::intrinsic(Intrinsic which, std::vector<ExprId> operands, SourceRange range) {
  Expr e =
      make_expr(ExprKind::Intrinsic, operands.empty() ? ScalarType::F32 : type_of(*this, operands[0]), range);
  e.intrinsic = which;
  for (std::size_t i = 0; i < operands.size() && i < 3; ++i) e.operands[i] = operands[i];
  return add(e);
}

ExprId Kernel::warp(WarpOp op, std::vector<ExprId> operands, int width, SourceRange range) {
  ScalarType type = ScalarType::U32;
  if (op == WarpOp::Any || op == WarpOp::All) type = ScalarType::I32;
  if (op <= WarpOp::ShflXor) type = operands.size() > 1 ? type_of(*this, operands[1]) : ScalarType::I32;
  Expr e = make_expr(ExprKind::Warp, type, range);
  e.warp_op = op;
  e.constant = static_cast<std::uint64_t>(width);
  for (std::size_t i = 0; i < operands.size() && i < 3; ++i) e.operands[i] = operands[i];
  return add(e);
}

StmtId Kernel::block(std::vector<StmtId> children, SourceRange range) {
  Stmt s = make_stmt(StmtKind::Block, range);
  s.children = std::move(children);
  return add(s);
}

StmtId Kernel::declare(LocalId target, ExprId value, SourceRange range) {
  Stmt s = make_stmt(StmtKind::Declare, range);
  s.local = target;
  s.value = value;
  return add(s);
}

StmtId Kernel::assign(LocalId target, ExprId value, SourceRange range) {
  Stmt s = make_stmt(StmtKind::Assign, range);
  s.local = target;
  s.value = value;
  return add(s);
}

StmtId Kernel::work(const std::string& description, SourceRange range) {
  Stmt s = make_stmt(StmtKind::Work, range);
  s.description = description;
  return add(s);
}

StmtId Kernel::if_(ExprId condition, StmtId then_stmt, StmtId else_stmt, SourceRange range) {
  Stmt s = make_stmt(StmtKind::If, range);
  s.value = condition;
  s.then_stmt = then_stmt;
  s.else_stmt = else_stmt;
  return add(s);
}

StmtId Kernel::loop(LoopKind kind, StmtId init, ExprId condition, StmtId step, StmtId body,
                    SourceRange range) {
  Stmt s = make_stmt(StmtKind::Loop, range);
  s.loop_kind = kind;
  s.init = init;
  s.value = condition;
  s.step = step;
  s.body = body;
  return add(s);
}

StmtId Kernel::break_(SourceRange range) { return add(make_stmt(StmtKind::Break, range)); }
StmtId Kernel::continue_(SourceRange range) { return add(make_stmt(StmtKind::Continue, range)); }

StmtId Kernel::return_(ExprId value, SourceRange range) {
  Stmt s = make_stmt(StmtKind::Return, range);
  s.value = value;
  return add(s);
}

StmtId Kernel::barrier(SourceRange range) { return add(make_stmt(StmtKind::Barrier, range)); }

StmtId Kernel::inlined_call(const std::string& callee, LocalId result, StmtId body, SourceRange range) {
  Stmt s = make_stmt(StmtKind::InlinedCall, range);
  s.description = callee;
  s.local = result;
  s.body = body;
  return add(s);
}

StmtId Kernel::switch_(ExprId condition, std::vector<StmtId> children, std::vector<SwitchCase> cases,
                       std::int32_t default_child, SourceRange range) {
  Stmt s = make_stmt(StmtKind::Switch, range);
  s.value = condition;
  s.children = std::move(children);
  s.cases = std::move(cases);
  s.default_child = default_child;
  return add(s);
}

// ---------------------------------------------------------------------------------------------
// Queries

std::string location(const Kernel& kernel, const SourceRange& range) {
  if (range.line == 0) return "<unknown>";
  const std::string path =
      range.file < kernel.files.size() ? kernel.files[range.file].path : std::string("<unknown>");
  return path + ":" + std::to_string(range.line) + ":" + std::to_string(range.column);
}

SourceLocation source_location(const Kernel& kernel, const SourceRange& range) {
  SourceLocation where;
  if (range.line == 0) return where;
  where.file = range.file < kernel.files.size() ? kernel.files[range.file].path : std::string("<unknown>");
  where.line = range.line;
  where.column = range.column;
  return where;
}

namespace {

// The digits of `text` from `at` up to `end_char`, as a line or column; `at` moves past end_char.
std::optional<std::uint32_t> number_before(const std::string& text, std::size_t& at, char end_char) {
  std::uint64_t value = 0;
  const std::size_t start = at;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9' && at - start < 9)
    value = value * 10 + static_cast<std::uint64_t>(text[at++] - '0');
  if (at == start || at >= text.size() || text[at] != end_char || value == 0) return std::nullopt;
  ++at;
  return static_cast<std::uint32_t>(value);
}

}  // namespace

std::vector<std::string> call_sites(const Kernel& kernel) {
  std::vector<std::string> at(kernel.stmts.size());
  std::vector<std::pair<StmtId, std::string>> todo{{kernel.root, ""}};
  while (!todo.empty()) {
    auto [id, chain] = std::move(todo.back());
    todo.pop_back();
    if (id == kNone || static_cast<std::size_t>(id) >= kernel.stmts.size()) continue;
    const Stmt& s = kernel.stmts[static_cast<std::size_t>(id)];
    at[static_cast<std::size_t>(id)] = chain;
    for (const StmtId c : s.children) todo.emplace_back(c, chain);
    for (const StmtId c : {s.init, s.then_stmt, s.else_stmt, s.step}) todo.emplace_back(c, chain);
    if (s.kind != StmtKind::InlinedCall) {
      todo.emplace_back(s.body, chain);
      continue;
    }
    const std::string here = location(kernel, s.range);
    todo.emplace_back(s.body, chain.empty() ? here : here + " < " + chain);
  }
  return at;
}

std::string inlined_at_statement(const Kernel& kernel, StmtId statement) {
  if (statement == kNone || static_cast<std::size_t>(statement) >= kernel.stmts.size()) return "";
  const std::string chain = call_sites(kernel)[static_cast<std::size_t>(statement)];
  return chain.empty() ? "" : " (inlined at " + chain + ")";
}

std::string inlined_at_expression(const Kernel& kernel, ExprId expression) {
  // The first statement whose expressions (its value, its accesses' and flops') reach it.
  std::vector<bool> seen(kernel.exprs.size(), false);
  const auto reaches = [&](ExprId root) {
    std::vector<ExprId> todo{root};
    while (!todo.empty()) {
      const ExprId e = todo.back();
      todo.pop_back();
      if (e == expression) return true;
      if (e == kNone || static_cast<std::size_t>(e) >= kernel.exprs.size() ||
          seen[static_cast<std::size_t>(e)])
        continue;
      seen[static_cast<std::size_t>(e)] = true;
      for (const ExprId o : kernel.exprs[static_cast<std::size_t>(e)].operands) todo.push_back(o);
    }
    return false;
  };
  for (std::size_t s = 0; s < kernel.stmts.size(); ++s) {
    const Stmt& stmt = kernel.stmts[s];
    std::vector<ExprId> roots{stmt.value};
    for (const std::int32_t a : stmt.accesses) {
      const MemoryAccess& m = kernel.accesses[static_cast<std::size_t>(a)];
      roots.insert(roots.end(), {m.offset, m.guard, m.value, m.compare});
    }
    for (const FloatOps& f : stmt.flops) roots.push_back(f.guard);
    for (const ExprId r : roots)
      if (r != kNone && reaches(r)) return inlined_at_statement(kernel, static_cast<StmtId>(s));
  }
  return "";
}

std::string inlined_at_access(const Kernel& kernel, std::int32_t access) {
  for (std::size_t s = 0; s < kernel.stmts.size(); ++s)
    for (const std::int32_t a : kernel.stmts[s].accesses)
      if (a == access) return inlined_at_statement(kernel, static_cast<StmtId>(s));
  return "";
}

InvalidInput located(Diag diag, const Kernel& kernel, const std::string& text) {
  for (const SourceFile& file : kernel.files) {
    if (file.path.empty() || text.compare(0, file.path.size() + 1, file.path + ":") != 0) continue;
    std::size_t at = file.path.size() + 1;
    const std::optional<std::uint32_t> line = number_before(text, at, ':');
    const std::optional<std::uint32_t> column = line ? number_before(text, at, ':') : std::nullopt;
    if (!column || at >= text.size() || text[at] != ' ') continue;
    return InvalidInput(diag, SourceLocation{file.path, *line, *column}, text.substr(at + 1));
  }
  return InvalidInput(diag, text);
}

std::string report_kind(const Stmt& stmt) {
  switch (stmt.kind) {
    case StmtKind::If:
      return "if";
    case StmtKind::Loop:
      return name(stmt.loop_kind);
    case StmtKind::Switch:
      return "switch";
    case StmtKind::Return:
      return "return";
    case StmtKind::Break:
      return "break";
    case StmtKind::Continue:
      return "continue";
    case StmtKind::Barrier:
      return "barrier";
    default:
      return "statement";
  }
}

namespace {
void mark_loops(const Kernel& k, StmtId id, StmtId loop, std::vector<StmtId>& out) {
  if (id == kNone) return;
  const Stmt& s = k.stmts[id];
  out[id] = loop;
  switch (s.kind) {
    case StmtKind::Block:
    case StmtKind::Switch:
      for (StmtId c : s.children) mark_loops(k, c, loop, out);
      break;
    case StmtKind::If:
      mark_loops(k, s.then_stmt, loop, out);
      mark_loops(k, s.else_stmt, loop, out);
      break;
    case StmtKind::Loop:
      out[id] = id;
      mark_loops(k, s.init, loop, out);
      mark_loops(k, s.body, id, out);
      mark_loops(k, s.step, id, out);
      break;
    case StmtKind::InlinedCall:
      mark_loops(k, s.body, loop, out);
      break;
    default:
      break;
  }
}
}  // namespace

std::vector<bool> statements_inside(const Kernel& kernel, StmtId loop) {
  std::vector<bool> inside(kernel.stmts.size(), false);
  if (loop < 0 || static_cast<std::size_t>(loop) >= kernel.stmts.size()) return inside;
  std::vector<StmtId> todo;
  const Stmt& l = kernel.stmts[static_cast<std::size_t>(loop)];
  inside[static_cast<std::size_t>(loop)] = true;
  for (StmtId c : {l.body, l.step}) todo.push_back(c);
  while (!todo.empty()) {
    const StmtId id = todo.back();
    todo.pop_back();
    if (id == kNone || inside[static_cast<std::size_t>(id)]) continue;
    inside[static_cast<std::size_t>(id)] = true;
    const Stmt& s = kernel.stmts[static_cast<std::size_t>(id)];
    todo.insert(todo.end(), s.children.begin(), s.children.end());
    for (StmtId c : {s.init, s.then_stmt, s.else_stmt, s.body, s.step}) todo.push_back(c);
  }
  return inside;
}

std::vector<LocalId> locals_written(const Kernel& kernel, const std::vector<StmtId>& roots) {
  std::vector<bool> seen(kernel.locals.size(), false);
  std::vector<LocalId> written;
  std::vector<StmtId> open(roots.rbegin(), roots.rend());
  while (!open.empty()) {
    const StmtId id = open.back();
    open.pop_back();
    if (id == kNone) continue;
    const Stmt& s = kernel.stmts[static_cast<std::size_t>(id)];
    const bool writes =
        s.kind == StmtKind::Declare || s.kind == StmtKind::Assign || s.kind == StmtKind::InlinedCall;
    if (writes && s.local != kNone && !seen[static_cast<std::size_t>(s.local)]) {
      seen[static_cast<std::size_t>(s.local)] = true;
      written.push_back(s.local);
    }
    open.insert(open.end(), s.children.begin(), s.children.end());
    for (StmtId c : {s.then_stmt, s.else_stmt, s.init, s.body, s.step}) open.push_back(c);
  }
  return written;
}

namespace {

// Marks `e`'s tree live; the locals it reads become live (`locals`, and `added` when new).
void mark_live(const Kernel& kernel, ExprId e, std::vector<bool>& live, std::vector<bool>& locals,
               bool& added) {
  std::vector<ExprId> open{e};
  while (!open.empty()) {
    const ExprId id = open.back();
    open.pop_back();
    if (id == kNone || live[static_cast<std::size_t>(id)]) continue;
    live[static_cast<std::size_t>(id)] = true;
    const Expr& x = kernel.exprs[static_cast<std::size_t>(id)];
    if (x.kind == ExprKind::Local && !locals[static_cast<std::size_t>(x.index)]) {
      locals[static_cast<std::size_t>(x.index)] = true;
      added = true;
    }
    for (const ExprId o : x.operands) open.push_back(o);
  }
}

}  // namespace

std::vector<bool> live_values(const Kernel& kernel) {
  std::vector<bool> live(kernel.exprs.size(), false), locals(kernel.locals.size(), false);
  // The local each statement gives a value to: its own, or for a return the inlined call's result.
  std::vector<LocalId> gives(kernel.stmts.size(), kNone);
  const std::function<void(StmtId, LocalId)> walk = [&](StmtId id, LocalId call) {
    if (id == kNone) return;
    const Stmt& s = kernel.stmts[static_cast<std::size_t>(id)];
    if (s.kind == StmtKind::Declare || s.kind == StmtKind::Assign)
      gives[static_cast<std::size_t>(id)] = s.local;
    if (s.kind == StmtKind::Return) gives[static_cast<std::size_t>(id)] = call;
    const LocalId inner = s.kind == StmtKind::InlinedCall ? s.local : call;
    for (const StmtId c : s.children) walk(c, inner);
    for (const StmtId c : {s.then_stmt, s.else_stmt, s.init, s.body, s.step}) walk(c, inner);
  };
  if (kernel.root != kNone) walk(kernel.root, kNone);
  bool added = false;
  for (std::size_t i = 0; i < kernel.stmts.size(); ++i) {
    const Stmt& s = kernel.stmts[i];
    const bool condition = s.kind == StmtKind::If || s.kind == StmtKind::Loop || s.kind == StmtKind::Switch;
    if (condition) mark_live(kernel, s.value, live, locals, added);
  }
  for (const MemoryAccess& a : kernel.accesses)
    for (const ExprId e : {a.offset, a.guard, a.value, a.compare}) mark_live(kernel, e, live, locals, added);
  for (const Stmt& s : kernel.stmts)
    for (const FloatOps& f : s.flops) mark_live(kernel, f.guard, live, locals, added);
  while (added) {
    added = false;
    for (std::size_t i = 0; i < kernel.stmts.size(); ++i) {
      const LocalId l = gives[i];
      if (l != kNone && locals[static_cast<std::size_t>(l)] && kernel.stmts[i].value != kNone)
        mark_live(kernel, kernel.stmts[i].value, live, locals, added);
    }
  }
  return live;
}

std::vector<StmtId> innermost_loops(const Kernel& kernel) {
  std::vector<StmtId> out(kernel.stmts.size(), kNone);
  if (kernel.root >= 0 && static_cast<std::size_t>(kernel.root) < kernel.stmts.size())
    mark_loops(kernel, kernel.root, kNone, out);
  return out;
}

bool may_fault(const Kernel& kernel, ExprId id) {
  const Expr& e = kernel.exprs[static_cast<std::size_t>(id)];
  const auto integer = [&](ExprId operand) { return !is_floating(kernel.exprs[operand].type); };
  // Signed overflow only in a signed type; division by zero and shifts in any integer type.
  const auto faults = [&](FaultRule rule) {
    return rule != FaultRule::None && integer(e.operands[0]) &&
           (rule != FaultRule::SignedOverflow || is_signed(kernel.exprs[e.operands[0]].type));
  };
  if (e.kind == ExprKind::Binary && faults(fault_rule(e.binary_op))) return true;
  if (e.kind == ExprKind::Unary && faults(fault_rule(e.unary_op))) return true;
  if (e.kind == ExprKind::Cast && !is_floating(e.type) && !integer(e.operands[0])) return true;
  if (e.kind == ExprKind::Warp && e.warp_op != WarpOp::ActiveMask) return true;
  for (const ExprId operand : e.operands)
    if (operand != kNone && may_fault(kernel, operand)) return true;
  return false;
}

namespace {

bool same_tree(const Kernel& k, ExprId a, ExprId b) {
  if (a == b) return true;
  if (a == kNone || b == kNone) return false;
  const Expr& x = k.exprs[static_cast<std::size_t>(a)];
  const Expr& y = k.exprs[static_cast<std::size_t>(b)];
  if (x.kind != y.kind || x.type != y.type || x.constant != y.constant || x.index != y.index ||
      x.builtin != y.builtin || x.unary_op != y.unary_op || x.binary_op != y.binary_op ||
      x.logical_op != y.logical_op || x.intrinsic != y.intrinsic || x.warp_op != y.warp_op ||
      x.access != y.access || (x.kind == ExprKind::Opaque && x.access == kNone))
    return false;
  for (int n = 0; n < 3; ++n)
    if (!same_tree(k, x.operands[n], y.operands[n])) return false;
  return true;
}

// The largest parts of `id` the model computes that may be undefined, into `out` (`id` itself
// where it computes it).
void computed_parts(const Kernel& k, const std::vector<ExprId>& origins, ExprId id,
                    std::vector<ExprId>& out) {
  if (id == kNone) return;
  const Expr& e = k.exprs[static_cast<std::size_t>(id)];
  if (origins[static_cast<std::size_t>(id)] == kNone) {
    if (may_fault(k, id) &&
        std::none_of(out.begin(), out.end(), [&](ExprId x) { return same_tree(k, x, id); }))
      out.push_back(id);
    return;
  }
  const bool chosen =
      e.kind == ExprKind::Select || e.kind == ExprKind::Logical;  // runs only operand 0 surely
  for (int n = 0; n < (chosen ? 1 : 3); ++n) computed_parts(k, origins, e.operands[n], out);
  // What its other operands make undefined, whatever the value not known.
  if (e.check != kNone && origins[static_cast<std::size_t>(e.check)] == kNone &&
      std::none_of(out.begin(), out.end(), [&](ExprId x) { return same_tree(k, x, e.check); }))
    out.push_back(e.check);
}

}  // namespace

namespace {

// A copy of the expression tree at `id` (the model's expressions form trees).
ExprId copy_tree(Kernel& k, ExprId id) {
  if (id == kNone) return kNone;
  Expr e = k.exprs[static_cast<std::size_t>(id)];
  for (ExprId& op : e.operands) op = copy_tree(k, op);
  e.check = kNone;
  k.exprs.push_back(e);
  return static_cast<ExprId>(k.exprs.size() - 1);
}

// The operand of `e` whose value add_undefined_checks replaces by a constant, or -1: the value a
// warp function shuffles or votes on. (A division's divisor alone would make a loop's counter
// read where it divides after the loop, `sum / count`, which keeps the class engine from running
// the loop as classes: a zero divisor is found where the dividend is known.)
int data_operand(const Expr& e) {
  if (e.kind != ExprKind::Warp) return -1;
  if (e.warp_op <= WarpOp::ShflXor) return 1;
  if (e.warp_op == WarpOp::Ballot || e.warp_op == WarpOp::Any || e.warp_op == WarpOp::All) return 1;
  return -1;
}

}  // namespace

void add_undefined_checks(Kernel& kernel) {
  const std::size_t count = kernel.exprs.size();
  for (std::size_t i = 0; i < count; ++i) {
    const int data = data_operand(kernel.exprs[i]);
    if (data < 0) continue;
    const ExprId operand = kernel.exprs[i].operands[data];
    if (operand == kNone || kernel.exprs[static_cast<std::size_t>(operand)].kind == ExprKind::Constant)
      continue;
    Expr constant;  // before the copy: operands come before what uses them
    constant.kind = ExprKind::Constant;
    constant.type = kernel.exprs[static_cast<std::size_t>(operand)].type;
    constant.range = kernel.exprs[static_cast<std::size_t>(operand)].range;
    kernel.exprs.push_back(constant);
    const auto constant_id = static_cast<ExprId>(kernel.exprs.size() - 1);
    Expr c = kernel.exprs[i];
    for (int n = 0; n < 3; ++n) c.operands[n] = n == data ? constant_id : copy_tree(kernel, c.operands[n]);
    c.check = kNone;
    kernel.exprs.push_back(c);
    kernel.exprs[i].check = static_cast<ExprId>(kernel.exprs.size() - 1);
  }
}

std::vector<std::vector<ExprId>> checked_values(const Kernel& kernel, const std::vector<ExprId>& origins) {
  std::vector<std::vector<ExprId>> out(kernel.stmts.size());
  for (std::size_t i = 0; i < kernel.stmts.size(); ++i) {
    const Stmt& s = kernel.stmts[i];
    if (s.kind != StmtKind::Declare && s.kind != StmtKind::Assign && s.kind != StmtKind::Work &&
        s.kind != StmtKind::Return)
      continue;
    // A value the statement computes (its own) is evaluated whole: only its parts otherwise.
    const bool own = s.value != kNone && origins[static_cast<std::size_t>(s.value)] == kNone;
    if (!own) computed_parts(kernel, origins, s.value, out[i]);
    for (const std::int32_t a : s.accesses) {
      const MemoryAccess& m = kernel.accesses[static_cast<std::size_t>(a)];
      if (m.kind == AccessKind::Load || m.guard != kNone) continue;
      for (const ExprId v : {m.value, m.compare})
        if (v != kNone && !(own && same_tree(kernel, v, s.value))) computed_parts(kernel, origins, v, out[i]);
    }
  }
  return out;
}

}  // namespace warpdiv::sim::ir
