// The kernel model (IR): a CUDA kernel's control flow as a small structured program over integer
// scalars with C's semantics. It owns no kernel: the Clang front-end (kernels/) lowers a source file
// to it, JSON (sim/model/ir_json.hpp) saves and loads it, and the replay engine (sim/engine/ir_replay.hpp)
// runs it warp by warp. Nothing here knows Clang, CUDA or a particular kernel.
//
// Shape: a Kernel holds flat arenas of expressions and statements referenced by index (ExprId,
// StmtId), so a statement's id is stable (results are indexed by it) and the model is trivially
// serialised. The front-end makes every conversion explicit, as Clang's ImplicitCastExpr does:
//   - arithmetic, bitwise and comparison operands have one type, one of int32, uint32, int64,
//     uint64 (C's promoted types); the result has that type (bool for comparisons);
//   - a shift's right operand may have another of those four types; the result has the left's type;
//   - !, &&, || and the condition of ?: take bool and give bool (C++ rules: CUDA is C++);
//   - Cast converts between any two scalar types (to bool: != 0; to a narrower type: modulo 2^n;
//     from bool: 0 or 1).
// Undefined behaviour (signed overflow, division by zero, INT_MIN / -1, a shift by a negative
// amount or by >= the width, a negative left operand of <<, reading a local never assigned, a
// floating-point value converted to an integer type that cannot hold its truncation) is an error
// naming the source location, never a computed value.
//
// Floating point (float32, float64): IEEE 754 binary32 / binary64 in round-to-nearest-even, as a
// GPU computes them under nvcc's default flags (no flush to zero, IEEE division and square root):
//   - + - * / and comparisons take two operands of one floating type (comparisons give bool; NaN
//     compares unequal to everything); unary - flips the sign; % << >> & | ^ ~ do not apply;
//   - Intrinsic fma(a, b, c) is a*b + c rounded once (what nvcc makes of `a*b + c` when it
//     contracts: the front-end decides where, sim/ knows only the result), sqrt and fabs;
//   - Cast converts integers to floating types rounding to nearest, between float32 and float64
//     rounding to nearest, and floating to integer types truncating toward zero (undefined when
//     the truncation does not fit, or for NaN), to bool: != 0.
//
// Opaque values (a read from memory, an atomic's result, a math function the GPU does not round
// correctly, a pointer parameter ...) may flow into locals and work, but a condition that depends
// on one, directly or through locals, is data-dependent: validate() refuses it before any launch
// (static taint through locals, flow-insensitive: a local is tainted if any assignment to it is).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/support/errors.hpp"

namespace warpdiv::sim::ir {

// ---------------------------------------------------------------------------------------------
// Scalar types and values

/// CUDA's integer scalars: int = int32, unsigned = uint32, long / long long = int64,
/// size_t / unsigned long = uint64 (LP64).
enum class ScalarType : std::uint8_t { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };
constexpr int kScalarTypeCount = 11;

/// "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32",
/// "float64".
std::string name(ScalarType type);
/// Inverse of name(); throws InvalidInput naming the allowed names.
ScalarType scalar_type_from_name(const std::string& text);
/// 1 for bool, else 8, 16, 32 or 64.
int bit_width(ScalarType type);
/// Signed integer types (not the floating ones).
bool is_signed(ScalarType type);
/// float32 and float64.
bool is_floating(ScalarType type);
/// An integer type's smallest and largest values (bool: 0 and 1), and "MIN to MAX".
std::int64_t min_of(ScalarType type);
std::uint64_t max_of(ScalarType type);
std::string range_text(ScalarType type);
/// int32, uint32, int64 or uint64: the types arithmetic, bitwise and comparison operators take.
bool is_promoted(ScalarType type);

/// A scalar of a given type. `bits` holds the value normalised to 64 bits: sign-extended for
/// signed types, zero-extended for unsigned ones, 0 or 1 for bool; for float32 the binary32
/// pattern in the low 32 bits (the rest 0), for float64 the binary64 pattern.
struct Value {
  ScalarType type = ScalarType::I32;
  std::uint64_t bits = 0;

  /// The value as a signed 64-bit integer (exact for every type but uint64 above 2^63 - 1).
  std::int64_t as_signed() const { return static_cast<std::int64_t>(bits); }
  /// Throws InvalidInput when `value` is outside the range of `type` ("N must be ... from A to B").
  static Value of(ScalarType type, std::int64_t value);
  static Value of_unsigned(ScalarType type, std::uint64_t value);
};
bool operator==(const Value& a, const Value& b);
/// Parses a decimal integer (optionally signed) into `type`; throws InvalidInput when it is not a
/// number or out of the type's range (the message names the range). For a floating type: a
/// decimal as C++ writes a literal's digits ("-2.0", "1e-3"), rounded once to the type; "inf",
/// "-inf" and "nan" too (as the model's JSON writes them).
Value parse_value(ScalarType type, const std::string& text);
/// Decimal text of the value as its type reads it ("-1", "4294967295", "true"); for a floating
/// type the shortest decimal that reads back to the same value ("0.1", "-0", "inf", "nan").
std::string to_string(const Value& value);
/// `bits` reduced to `type` (C's conversion: modulo 2^n, or != 0 for bool).
std::uint64_t normalise(ScalarType type, std::uint64_t bits);

// ---------------------------------------------------------------------------------------------
// Source locations

/// A source range, 1-based lines and columns, end inclusive as Clang reports it. `file` indexes
/// Kernel::files (0 = the kernel's own file). line 0 = unknown.
struct SourceRange {
  std::uint32_t file = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t end_line = 0;
  std::uint32_t end_column = 0;
};
bool operator==(const SourceRange& a, const SourceRange& b);

// ---------------------------------------------------------------------------------------------
// Expressions

using ExprId = std::int32_t;
using StmtId = std::int32_t;
using LocalId = std::int32_t;
constexpr std::int32_t kNone = -1;

enum class ExprKind : std::uint8_t {
  Constant,   // value
  Param,      // index = kernel parameter (a scalar one)
  Builtin,    // builtin
  Local,      // index = local variable
  Opaque,     // a value the model cannot compute; description says what it is
  Cast,       // operands[0] converted to type
  Unary,      // unary_op operands[0]
  Binary,     // operands[0] binary_op operands[1]
  Logical,    // operands[0] && / || operands[1], short-circuit (logical_op)
  Select,     // operands[0] ? operands[1] : operands[2], only the chosen arm is evaluated
  Intrinsic,  // intrinsic(operands ...): fma, fms, fnma, sqrt, fabs of a floating type (operands of `type`)
  Warp,       // warp_op(operands ...): a warp-level function of the active lanes (WarpOp)
};
constexpr int kExprKindCount = 12;

/// CUDA's warp-level functions, computed over the lanes that run them:
///   shfl, shfl_up, shfl_down, shfl_xor (mask uint32, value, lane or delta int32): lane l gets
///     `value` of its source lane in groups of `constant` (the width: 1, 2, 4, 8, 16 or 32) lanes
///     (shfl: (l & ~(w-1)) + (lane & (w-1)); up: l - delta; down: l + delta; xor: l ^ mask), its
///     own where the source is outside its group (xor: a later group); result of value's type;
///   ballot (mask, bool) uint32: the lanes whose predicate holds; any, all (mask, bool) int32;
///   activemask () uint32: the lanes running it.
/// A lane whose source lane does not run the call, an active lane outside the mask, or a lane
/// of the mask that has not exited and does not run it, is undefined behaviour (an error).
enum class WarpOp : std::uint8_t {
#define WARPDIV_WARP_OP(Enum, name, operands) Enum,
#include "sim/model/ir_ops.def"
};
constexpr int kWarpOpCount = 0
#define WARPDIV_WARP_OP(Enum, name, operands) +1
#include "sim/model/ir_ops.def"
    ;
/// "shfl", "shfl_up", "shfl_down", "shfl_xor", "ballot", "any", "all", "activemask".
std::string name(WarpOp op);
/// 3 for the shuffles, 2 for ballot, any and all, 0 for activemask.
int operand_count(WarpOp op);

/// Functions of floating-point values the GPU computes correctly rounded under nvcc's default
/// flags: fma(a, b, c) = a*b + c rounded once, fms(a, b, c) = a*b - c and fnma(a, b, c) =
/// c - a*b rounded once (what nvcc makes of a contracted subtraction), sqrt (-prec-sqrt=true),
/// fabs.
enum class Intrinsic : std::uint8_t {
#define WARPDIV_INTRINSIC(Enum, name, operands, flops) Enum,
#include "sim/model/ir_ops.def"
};
constexpr int kIntrinsicCount = 0
#define WARPDIV_INTRINSIC(Enum, name, operands, flops) +1
#include "sim/model/ir_ops.def"
    ;
/// "fma", "fms", "fnma", "sqrt", "fabs"; the inverse throws InvalidInput naming the allowed names.
std::string name(Intrinsic intrinsic);
Intrinsic intrinsic_from_name(const std::string& text);
/// 3 for fma, fms and fnma, 1 for sqrt and fabs.
int operand_count(Intrinsic intrinsic);

/// threadIdx, blockIdx, blockDim, gridDim (uint32, CUDA's unsigned int) and warpSize (int32).
enum class Builtin : std::uint8_t {
  ThreadIdxX,
  ThreadIdxY,
  ThreadIdxZ,
  BlockIdxX,
  BlockIdxY,
  BlockIdxZ,
  BlockDimX,
  BlockDimY,
  BlockDimZ,
  GridDimX,
  GridDimY,
  GridDimZ,
  WarpSize,
};
constexpr int kBuiltinCount = 13;

// C's operators (sim/model/ir_ops.def: operands, result, undefined behaviour; sim/model/ir_ops.hpp:
// semantics).
enum class UnaryOp : std::uint8_t {
#define WARPDIV_UNARY_OP(Enum, spelling, operands, fault) Enum,
#include "sim/model/ir_ops.def"
};
enum class BinaryOp : std::uint8_t {
#define WARPDIV_BINARY_OP(Enum, spelling, operands, fault, flops) Enum,
#include "sim/model/ir_ops.def"
};
constexpr int kBinaryOpCount = 0
#define WARPDIV_BINARY_OP(Enum, spelling, operands, fault, flops) +1
#include "sim/model/ir_ops.def"
    ;
/// The operands a binary operator takes (sim/model/ir_ops.def): Arithmetic (promoted integer and
/// floating), Integer (promoted integer), Comparison (promoted integer and floating, result bool).
enum class OperandClass : std::uint8_t { Arithmetic, Integer, Comparison, Negatable, Bool };
/// The undefined behaviour of an operator (sim/model/ir_ops.def).
enum class FaultRule : std::uint8_t { None, SignedOverflow, Division, Shift };
OperandClass operand_class(BinaryOp op);
OperandClass operand_class(UnaryOp op);
FaultRule fault_rule(BinaryOp op);
FaultRule fault_rule(UnaryOp op);
/// Floating-point operations of one evaluation on floating operands (sim/model/ir_ops.def).
int float_operations(BinaryOp op);
int float_operations(Intrinsic intrinsic);
enum class LogicalOp : std::uint8_t { And, Or };

/// Names used in JSON and messages: "threadIdx.x" ..., "warpSize"; "-", "~", "!"; "+", "-", "*",
/// "/", "%", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=", "==", "!="; "&&", "||";
/// "constant", "param", "builtin", "local", "opaque", "cast", "unary", "binary", "logical", "select",
/// "intrinsic".
std::string name(Builtin builtin);
std::string name(UnaryOp op);
std::string name(BinaryOp op);
std::string name(LogicalOp op);
std::string name(ExprKind kind);
/// The type of a builtin: uint32, or int32 for warpSize.
ScalarType builtin_type(Builtin builtin);
/// True for <, <=, >, >=, ==, != (result bool).
bool is_comparison(BinaryOp op);

struct Expr {
  ExprKind kind = ExprKind::Constant;
  ScalarType type = ScalarType::I32;  // the result type
  std::uint64_t constant = 0;         // Constant: the value's bits, normalised to `type`
  std::int32_t index = kNone;         // Param: parameter index; Local: local id
  Builtin builtin = Builtin::ThreadIdxX;
  UnaryOp unary_op = UnaryOp::Neg;
  BinaryOp binary_op = BinaryOp::Add;
  LogicalOp logical_op = LogicalOp::And;
  Intrinsic intrinsic = Intrinsic::Fma;
  WarpOp warp_op = WarpOp::Shfl;  // Warp; a shuffle's width is in `constant`
  ExprId operands[3] = {kNone, kNone, kNone};
  std::string description;  // Opaque: what the value is, e.g. "A[i] (read from global memory)"
  /// Opaque: the load (Kernel::accesses) whose value this is, when the value is exactly the
  /// element that access reads (a scalar of `type`, `width` bytes), or the atomic (of a modelled
  /// AtomicOp) whose returned value it is (the element before it); else kNone. With the buffer's
  /// values given at launch (Launch::buffer_bytes, buffer_data) the replay computes it
  /// (computed_loads says when).
  std::int32_t access = kNone;
  /// Opaque: the floating-point locals whose values it reads (`expf(p)`, `fmaxf(p, d)`: their
  /// arguments), in source order. The engines never look at them; nvcc's contraction
  /// (ir_contract) counts them as uses of what the locals hold.
  std::vector<std::int32_t> reads;
  /// A warp function: a copy whose data operand (the value shuffled or voted on) is a constant,
  /// which checked_values evaluates for the undefined behaviour the other operands decide (a
  /// source lane that does not run the shuffle, a mask naming lanes that do not run it) where the
  /// data is not known; kNone: none (add_undefined_checks).
  ExprId check = kNone;
  SourceRange range;
};

// ---------------------------------------------------------------------------------------------
// Statements

enum class StmtKind : std::uint8_t {
  Block,        // children, in order
  Declare,      // local = value (value may be kNone: declared, not initialised)
  Assign,       // local = value
  Work,         // opaque work (memory access, float math, a call the model need not follow):
                // counted, decides nothing; description says what
  If,           // if (value) then_stmt else else_stmt (else_stmt may be kNone)
  Loop,         // loop_kind; init; while (value) { body; step } (value kNone = forever)
  Break,        // leaves the innermost Loop or Switch
  Continue,     // goes to the step of the innermost Loop
  Return,       // leaves the innermost InlinedCall (value, if any, goes to its local) or the kernel
  Barrier,      // __syncthreads()
  InlinedCall,  // a __device__ function's body (body); a Return inside assigns local and leaves it
  Switch,       // switch (value) over children with case labels (cases, default_child)
};
constexpr int kStmtKindCount = 12;

enum class LoopKind : std::uint8_t { For, While, Do };

/// "block", "declare", "assign", "work", "if", "loop", "break", "continue", "return", "barrier",
/// "call", "switch"; "for", "while", "do".
std::string name(StmtKind kind);
std::string name(LoopKind kind);

/// A case label of a Switch: lanes whose condition equals `value` enter at children[child].
struct SwitchCase {
  std::uint64_t value = 0;  // bits normalised to the condition's type
  std::int32_t child = 0;   // index into Stmt::children (children.size() = after the last)
};

/// Floating-point operations a statement runs per lane, in the lanes where `guard` holds.
struct FloatOps {
  std::uint32_t operations = 0;
  ExprId guard = kNone;  // bool, or kNone: every active lane
};

struct Stmt {
  StmtKind kind = StmtKind::Work;
  SourceRange range;
  ExprId value = kNone;          // Declare/Assign: value; If/Loop/Switch: condition; Return: result
  LocalId local = kNone;         // Declare/Assign: target; InlinedCall: result local (kNone: void)
  std::vector<StmtId> children;  // Block and Switch: statements in order
  StmtId then_stmt = kNone;      // If
  StmtId else_stmt = kNone;      // If (kNone: no else)
  LoopKind loop_kind = LoopKind::For;
  StmtId init = kNone;                 // Loop: runs once before the first condition (kNone: none)
  StmtId body = kNone;                 // Loop and InlinedCall
  StmtId step = kNone;                 // Loop: runs after the body and after continue (kNone: none)
  std::vector<SwitchCase> cases;       // Switch
  std::int32_t default_child = kNone;  // Switch: child index of `default:` (kNone: none)
  std::string description;             // Work: what it does ("P[Row*Width+Col] = Pvalue"); InlinedCall:
                                       // the callee's name
  /// Memory accesses the statement makes (indexes into Kernel::accesses), in source order.
  /// Declare, Assign, Work and Return carry them, each run once per warp execution of the
  /// statement, in its active lanes where its guard holds; If, Loop and Switch carry the loads of
  /// their condition, run at each evaluation of it (a branch on loaded values).
  std::vector<std::int32_t> accesses;
  /// Floating-point operations per lane (add, sub, mul, div 1; fma 2), each group with the
  /// guard of the lanes that run it (kNone: every active lane). Declare, Assign, Work, Return.
  std::vector<FloatOps> flops;
  /// Non-empty when some of the statement's floating-point operations could not be placed (their
  /// guard is a condition the model cannot follow): why. `flops` then counts the others.
  std::string flops_not_counted;
};

// ---------------------------------------------------------------------------------------------
// Kernel

/// A kernel parameter. Scalar integer parameters have values in a launch (Launch::arguments), and
/// so do float and double ones (`floating`: read as a Param expression of type float32 / float64,
/// their bits in Launch::arguments); the others (pointers, structs) are opaque: reading one is an
/// Opaque expression.
struct Parameter {
  std::string name;
  ScalarType type = ScalarType::I32;
  bool scalar = true;         // false: opaque (pointer, float ...); `type` is then meaningless
  std::string type_spelling;  // the source type as written ("int", "const float *")
  /// 32 (float) or 64 (double): a floating-point scalar, whatever its spelling (`real_t`); 0
  /// otherwise. `scalar` stays false (it takes a decimal, not an integer); its value
  /// (Launch::arguments' bits: the binary32 / binary64 pattern) is read by Param expressions of
  /// type float32 / float64 and goes to the GPU runs.
  int floating = 0;
  /// A pointer parameter's element size in bytes (`float *`: 4); 0 for others and for `void *`.
  std::uint64_t element_bytes = 0;
  /// A pointer parameter's element type as C spells it, unqualified and canonical ("int",
  /// "unsigned int", "float", "char"), for matching data files against it; "" when unknown.
  std::string element_type;
};

/// A parameter's argument as reports show it: the integer for a scalar, the shortest decimal that
/// reads back to the same float or double for a floating-point one ("1.5", "0.1"); "" for the
/// others (pointers ...).
std::string argument_text(const Parameter& parameter, const Value& value);

// ---------------------------------------------------------------------------------------------
// Memory: where loads and stores go. An access's address is a base (a buffer) plus a byte offset
// computed per lane by an ordinary integer expression of the model; its value stays opaque (the
// engines count requests, sectors and wavefronts, not data).

/// CUDA's state spaces an access can name.
enum class AddressSpace : std::uint8_t { Global, Shared, Local, Constant };
/// "global", "shared", "local", "constant".
std::string name(AddressSpace space);
AddressSpace address_space_from_name(const std::string& text);

/// A buffer: a pointer parameter's (parameter >= 0; cudaMalloc's allocations start 256-byte
/// aligned) or a declared variable (a __shared__ array, extern __shared__ with bytes 0 = sized at
/// launch, a __device__ / __constant__ variable, a local array).
struct MemoryBase {
  std::string name;  // "A", "ds_M"
  AddressSpace space = AddressSpace::Global;
  std::int32_t parameter = kNone;  // the pointer parameter, or kNone for a variable
  std::uint64_t bytes = 0;         // a variable's size (0 for a parameter's buffer / extern)
  std::uint32_t alignment = 256;   // the start's alignment in bytes (a power of two)
  SourceRange declared;
  /// The null pointer (no parameter, 0 bytes): no memory at all. An access to it by a lane that
  /// makes it is undefined behaviour (the GPU stops the kernel there); one no lane makes is none.
  bool null = false;
};

enum class AccessKind : std::uint8_t { Load, Store, Atomic };
/// What an atomic does with its operand (MemoryAccess::value), as PTX's atom defines it: add (an
/// integer, or IEEE binary32 / binary64 rounded to nearest even; binary32 on global memory
/// flushes subnormal inputs and result to a zero of their sign), sub, min, max, and, or, xor,
/// exch (the operand), cas (the operand where the element equals MemoryAccess::compare, else
/// the element), inc ((old >= v) ? 0 : old + 1) and dec ((old == 0 || old > v) ? v : old - 1) on
/// uint32. Other: not modelled. Integer add, sub, min, max, and, or, xor leave a final element
/// that does not depend on the threads' order (ordered_atomic() is false); the others do.
enum class AtomicOp : std::uint8_t {
#define WARPDIV_ATOMIC_OP(Enum, name, order) Enum,
#include "sim/model/ir_ops.def"
};
constexpr int kAtomicOpCount = 0
#define WARPDIV_ATOMIC_OP(Enum, name, order) +1
#include "sim/model/ir_ops.def"
    ;
/// "other", "add", "sub", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec"; the
/// inverse throws InvalidInput.
std::string name(AtomicOp op);
/// Whether the element several threads leave with atomics of `op` on elements of `type` depends
/// on the order they run in: exch, cas, inc, dec, and add on floating types (rounding).
bool ordered_atomic(AtomicOp op, ScalarType type);
/// Whether atomics of operations a and b on one element of `type` leave the same value in either
/// order: neither is ordered_atomic, and they are the same operation or add and sub.
bool atomics_commute(AtomicOp a, AtomicOp b, ScalarType type);
AtomicOp atomic_op_from_name(const std::string& text);
/// "load", "store", "atomic".
std::string name(AccessKind kind);
AccessKind access_kind_from_name(const std::string& text);

/// One load, store or atomic read-modify-write as the source writes it. A warp executing it with
/// at least one participating lane makes one request.
struct MemoryAccess {
  AccessKind kind = AccessKind::Load;
  AddressSpace space = AddressSpace::Global;
  std::int32_t base = kNone;  // Kernel::bases; kNone: not lowered (`reason` says why)
  ExprId offset = kNone;      // int64 bytes from the base's start, per lane
  ExprId guard = kNone;       // bool: the lanes that make the access (kNone: all active lanes);
                              // `c ? A[i] : 0`, `i < n && A[i] > 0`
  /// A store: the value it writes, of the element's scalar type (`width` bytes), where the
  /// source's right-hand side is an expression the model holds; an atomic of `atomic` op other
  /// than Other: its operand (atomicAdd(&h[b], 1): 1; atomicCAS(p, c, v): v), of the element's
  /// type. kNone otherwise (and for loads).
  /// What the replay leaves in the buffer (ReplayOptions::capture_stores).
  ExprId value = kNone;
  /// An atomic of op Cas: the value the element is compared with (atomicCAS(p, c, v): c), of the
  /// element's type; kNone for every other access.
  ExprId compare = kNone;
  AtomicOp atomic = AtomicOp::Other;
  std::uint32_t width = 4;  // bytes per lane: 1, 2, 4, 8 or 16
  std::string text;         // the source of the access ("A[Row * Width + k]")
  std::string reason;       // not lowered: why ("the pointer is chosen by a branch")
  SourceRange range;
};

struct Local {
  std::string name;
  ScalarType type = ScalarType::I32;
  SourceRange declared;
};

struct SourceFile {
  std::string path;
  std::vector<std::string> lines;  // optional: the text, one entry per line, for listings
};

struct Kernel {
  std::string name;
  std::vector<SourceFile> files;  // files[0]: the kernel's own file
  std::vector<Parameter> parameters;
  std::vector<Local> locals;
  std::vector<Expr> exprs;
  std::vector<Stmt> stmts;
  StmtId root = kNone;  // the body (a Block)
  std::vector<MemoryBase> bases;
  std::vector<MemoryAccess> accesses;  // each belongs to exactly one statement (Stmt::accesses)

  // Builders for the front-end and tests: append a node, return its id. They do not validate
  // (validate() does, once the kernel is whole).
  ExprId add(const Expr& expr);
  StmtId add(const Stmt& stmt);
  LocalId add_local(const std::string& name, ScalarType type, SourceRange declared = {});
  std::int32_t add_parameter(const std::string& name, ScalarType type);
  std::int32_t add_opaque_parameter(const std::string& name, const std::string& type_spelling,
                                    int floating = 0);
  std::int32_t add_base(const MemoryBase& base);
  std::int32_t add_access(const MemoryAccess& access);

  // Expression shorthands (result types follow the rules at the top of this file).
  ExprId constant(ScalarType type, std::int64_t value, SourceRange range = {});
  /// A float32 / float64 constant: `value` rounded to the type.
  ExprId floating_constant(ScalarType type, double value, SourceRange range = {});
  ExprId param(std::int32_t index, SourceRange range = {});
  ExprId builtin(Builtin builtin, SourceRange range = {});
  ExprId local(LocalId id, SourceRange range = {});
  ExprId opaque(ScalarType type, const std::string& description, SourceRange range = {});
  ExprId cast(ScalarType to, ExprId operand, SourceRange range = {});
  ExprId unary(UnaryOp op, ExprId operand, SourceRange range = {});
  ExprId binary(BinaryOp op, ExprId lhs, ExprId rhs, SourceRange range = {});
  ExprId logical(LogicalOp op, ExprId lhs, ExprId rhs, SourceRange range = {});
  ExprId select(ExprId condition, ExprId if_true, ExprId if_false, SourceRange range = {});
  /// fma(a, b, c), fms(a, b, c), fnma(a, b, c), sqrt(a), fabs(a): the result has the first
  /// operand's type.
  ExprId intrinsic(Intrinsic intrinsic, std::vector<ExprId> operands, SourceRange range = {});
  /// A warp-level function: the result type is the value's for a shuffle (of `width` lanes),
  /// uint32 for ballot and activemask, int32 for any and all.
  ExprId warp(WarpOp op, std::vector<ExprId> operands, int width = 32, SourceRange range = {});

  // Statement shorthands.
  StmtId block(std::vector<StmtId> children, SourceRange range = {});
  StmtId declare(LocalId local, ExprId value, SourceRange range = {});
  StmtId assign(LocalId local, ExprId value, SourceRange range = {});
  StmtId work(const std::string& description, SourceRange range = {});
  StmtId if_(ExprId condition, StmtId then_stmt, StmtId else_stmt = kNone, SourceRange range = {});
  StmtId loop(LoopKind kind, StmtId init, ExprId condition, StmtId step, StmtId body, SourceRange range = {});
  StmtId break_(SourceRange range = {});
  StmtId continue_(SourceRange range = {});
  StmtId return_(ExprId value = kNone, SourceRange range = {});
  StmtId barrier(SourceRange range = {});
  StmtId inlined_call(const std::string& callee, LocalId result, StmtId body, SourceRange range = {});
  StmtId switch_(ExprId condition, std::vector<StmtId> children, std::vector<SwitchCase> cases,
                 std::int32_t default_child, SourceRange range = {});
};

// ---------------------------------------------------------------------------------------------
// Limits on a model's size and shape (validate() refuses a model past them, naming where).

/// Nesting as the source reads it: statements within statements (an else-if chain counts as one
/// level, however long), and operands within expressions.
constexpr int kMaxNesting = 1000;
/// Statements within statements counting each link of an else-if chain: the depth the checks and
/// engines recurse to (run them on a large stack: sim/support/large_stack.hpp). An else-if chain of
/// 100,000 branches is 100,000 deep.
constexpr int kMaxDepth = 1'000'000;
/// Statements, expressions and locals in one model.
constexpr std::size_t kMaxStatements = std::size_t{4} << 20;
constexpr std::size_t kMaxExpressions = std::size_t{16} << 20;
constexpr std::size_t kMaxLocals = std::size_t{1} << 20;

/// Checks the whole model: ids in range, every statement and expression reached once from the root
/// (a tree), operand types as the rules above say, break/continue inside a loop (or switch),
/// constants normalised, and no condition that depends on an opaque value. Throws InvalidInput:
/// for a structural fault, "kernel model: <what> (statement N / expression N)"; for a
/// data-dependent condition, "FILE:LINE:COL: data-dependent branch: the condition of this <kind>
/// depends on <description> (FILE:LINE:COL)"; past a limit above, "nesting deeper than N at
/// FILE:LINE:COL ..." or the size and its limit. The nesting is measured without recursion, before
/// anything else recurses over the model.
void validate(const Kernel& kernel);

/// For each expression, the Opaque expression its value depends on (directly, or through locals
/// assigned from one, flow-insensitively), or kNone when the model can compute it. Indexed by
/// ExprId. validate() refuses conditions with an origin; the engine skips assignments of such values.
std::vector<ExprId> opaque_origins(const Kernel& kernel, const std::vector<bool>& loaded = {});

/// Whether evaluating `id` may be undefined behaviour: an integer operation that can overflow (in
/// a signed type), divide by zero or shift too far, a conversion of a floating value to an
/// integer, or a warp function other than activemask, in it or in its operands.
bool may_fault(const Kernel& kernel, ExprId id);

/// [StmtId]: values a Declare, Assign, Work or Return statement evaluates, after its memory
/// accesses, in its active lanes only for their undefined behaviour (may_fault), as a local's
/// value is: of a value it assigns or returns, and of one that a store, or an atomic's operand
/// (or compared value), made in every lane of the statement writes, each largest part the model
/// computes (no origin in `origins`, from opaque_origins) where the whole depends on a value it
/// does not hold (of a ?: only its condition, of && and || only the left operand: the rest may
/// not run); a written value it computes whole, unless the statement assigns that same value.
std::vector<std::vector<ExprId>> checked_values(const Kernel& kernel, const std::vector<ExprId>& origins);

/// Gives each warp function whose data operand is not a constant its Expr::check: the undefined
/// behaviour that does not depend on that operand is then found where the operand's value is not
/// known (`__shfl_down_sync(0xffffffff, v, 8)` in a partial warp, v read from memory).
void add_undefined_checks(Kernel& kernel);

/// The loads (Kernel::accesses) whose values an engine computes, [access]: a load whose value is
/// an opaque expression (Expr::access) through a pointer parameter's buffer that no store or
/// atomic of the kernel writes, at a launch that gives that buffer's values
/// (`parameter_values` [parameter]; nullptr: as if every one did, which is what validate()
/// assumes, leaving the rest to the launch). `why_not` [access]: for a linked load without
/// values, "; " and what is missing (the buffer's values, or why they cannot be modelled).
/// `order_bases`: buffers whose values are taken as unknown (what passes between threads through
/// them: sim/engine/ir_replay.hpp order_dependence), with what is stored from them; `order_accesses`:
/// atomics whose returned values are taken as unknown.
std::vector<bool> computed_loads(const Kernel& kernel, const std::vector<bool>* parameter_values,
                                 std::vector<std::string>* why_not = nullptr,
                                 const std::vector<std::int32_t>* order_bases = nullptr,
                                 const std::vector<std::int32_t>* order_accesses = nullptr);

/// Memory followed by value, from the accesses with a computed load (`loaded`, from
/// computed_loads), as the replay and the GPU probe keep it:
///   shared_at [base]  a __shared__ array's first byte in one block's shared memory (-1: not
///                     followed; every extern __shared__ array at the same byte, sized
///                     `dynamic_shared_bytes`), shared_bytes the whole, any_shared whether any;
///   local_at [base]   a local array's first byte in one thread's copy, local_bytes the whole;
///   written [base]    a pointer parameter's buffer the kernel writes and reads back.
struct MemoryLayout {
  std::vector<std::int64_t> shared_at;
  std::uint64_t shared_bytes = 0;
  bool any_shared = false;
  std::vector<std::int64_t> local_at;
  std::uint64_t local_bytes = 0;
  std::vector<bool> written;
};
MemoryLayout memory_layout(const Kernel& kernel, const std::vector<bool>& loaded,
                           std::uint64_t dynamic_shared_bytes);

/// validate()'s data-dependence check at a launch whose pointer parameters with values are
/// `parameter_values`: throws the same InvalidInput for a condition that depends on an opaque
/// value the launch does not compute, with the hint of computed_loads.
void check_data_dependence(const Kernel& kernel, const std::vector<bool>& parameter_values);
/// The same check for a launch whose floating-point parameters have values where `given`
/// [parameter] says so: a condition that depends on one given none is refused, naming it and the
/// --arg to give (its 0.0 would decide the branch unseen).
void check_floating_values(const Kernel& kernel, const std::vector<bool>& given,
                           const std::vector<bool>& parameter_values);

/// "FILE:LINE:COL" of a range (the path from kernel.files; "<unknown>" without a location).
std::string location(const Kernel& kernel, const SourceRange& range);
/// The same place as a diagnostic's location (line 0, unknown, without one).
SourceLocation source_location(const Kernel& kernel, const SourceRange& range);
/// Per statement, where the __device__ function it belongs to was inlined: "FILE:LINE:COL" of the
/// innermost call, then the calls around it (" < "); "" outside inlined functions. By StmtId.
std::vector<std::string> call_sites(const Kernel& kernel);
/// " (inlined at CALLS)", as call_sites() writes them, for what a statement, an expression or an
/// access of an inlined function's body does (undefined behaviour met there: which call met it);
/// "" outside inlined functions.
std::string inlined_at_statement(const Kernel& kernel, StmtId statement);
std::string inlined_at_expression(const Kernel& kernel, ExprId expression);
std::string inlined_at_access(const Kernel& kernel, std::int32_t access);
/// A message kept as text and thrown later ("FILE:LINE:COL: undefined behaviour: ..."), as the
/// diagnostic `diag` with its place apart when it starts with location() of one of the kernel's
/// files; else whole, without a place.
InvalidInput located(Diag diag, const Kernel& kernel, const std::string& text);

/// For each statement, the innermost enclosing Loop (kNone outside loops); a loop's own condition,
/// body and step belong to it, its init does not. Indexed by StmtId.
std::vector<StmtId> innermost_loops(const Kernel& kernel);

/// For a loop, whether each statement is inside it: the loop itself (its condition), its body and
/// its step, at any depth (not its init). Indexed by StmtId.
std::vector<bool> statements_inside(const Kernel& kernel, StmtId loop);

/// The locals the statements `roots` write at any depth (a Declare's or Assign's local, an inlined
/// call's result), each once, in the order first found.
std::vector<LocalId> locals_written(const Kernel& kernel, const std::vector<StmtId>& roots);

/// [ExprId] whether the expression's value matters: it is (part of) a condition, an access's
/// address, guard, stored value or compare, or the value given to a local (or returned into an
/// inlined call's result) whose value matters in turn. A value only dead code reads (a local no
/// live expression reads) does not: the compiler deletes it.
std::vector<bool> live_values(const Kernel& kernel);

/// The CSV `kind` of a statement: if, for, while, do, switch, return, break, continue, barrier,
/// statement (Declare, Assign, Work, Block and InlinedCall are "statement").
std::string report_kind(const Stmt& stmt);

}  // namespace warpdiv::sim::ir
