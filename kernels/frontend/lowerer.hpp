// The front-end's lowering of a __global__ function to the kernel model: the Lowerer class, its
// state and its methods, which are defined by concern across lower.cpp (the walk's entry, source
// locations, the kernel's parameters), lower_statements.cpp, lower_expressions.cpp, lower_calls.cpp
// (the CUDA built-ins, from the table in lower_builtins.def), lower_cxx.cpp (inlined functions,
// references, objects), lower_objects.cpp (objects made from temporaries, whole copies),
// lower_groups.cpp (cooperative groups), lower_memory.cpp (memory accesses),
// lower_pointers.cpp (pointers followed by value) and lower_work.cpp (opaque values and work).
// Private to the front-end (Clang types throughout); lower.hpp is the interface.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kernels/frontend/clang_parse.hpp"
#include "kernels/frontend/frontend.hpp"
#include "kernels/frontend/prelude_text.hpp"
#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"

namespace warpdiv::frontend::detail::lowering {

namespace ir = sim::ir;

/// The model's type for a C integer type (after typedefs and enums), float or double; nullopt for
/// anything else (half, pointers, structs ...).
std::optional<ir::ScalarType> scalar_type(clang::QualType type);

/// The type C's integer promotion gives (bool, char and short become int; float and double stay).
inline ir::ScalarType promoted(ir::ScalarType type) {
  return ir::is_promoted(type) || ir::is_floating(type) ? type : ir::ScalarType::I32;
}

inline const clang::Expr* strip(const clang::Expr* e) { return e->IgnoreParenImpCasts(); }
const clang::Expr* lvalue_base(const clang::Expr* e);

/// Whether evaluating `e` can neither fail, read memory, call nor change anything: names of
/// local variables and parameters, literals, comparisons, logical and bitwise operators.
bool harmless(const clang::Expr* e);

/// The lvalue that `e` designates, seen through parentheses, casts to a reference of its own
/// type (static_cast<int &>(x), (int &)x, reinterpret_cast<int &>(x), static_cast<int &&>(x),
/// const_cast) and a ?: whose arms name the same variable and whose condition is harmless
/// (c ? x : x is x); `e` itself otherwise.
const clang::Expr* written_lvalue(const clang::Expr* e);

/// The variable an lvalue expression names directly (x, (x), a cast of x to a reference of its
/// own type, c ? x : x), or null.
inline const clang::VarDecl* named_variable(const clang::Expr* e) {
  const clang::Expr* bare = written_lvalue(e->IgnoreParenImpCasts())->IgnoreParenImpCasts();
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(bare))
    return llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
  return nullptr;
}

/// How the lowering treats a CUDA built-in: the KIND column of lower_builtins.def.
enum class BuiltinKind {
  None,              // not a built-in the front-end knows by name
  LaunchVariable,    // threadIdx.x ... gridDim.z, warpSize: an ir::Builtin
  Barrier,           // __syncthreads(): the model's barrier
  BarrierWithValue,  // __syncthreads_count / _and / _or: refused
  Warp,              // shuffles and votes: an ir::WarpOp
  Math,              // correctly rounded math: an ir::Intrinsic
  FusedMultiplyAdd,  // a family of fused multiply-adds: two floating-point operations
  Minimum,           // min of integers
  Maximum,           // max of integers
  PopCount,          // the set bits of an integer
  FindFirstSet,      // 1 + the index of the lowest set bit
  ReverseBits,       // the bits of an integer in reverse order
  LeadingZeros,      // the zero bits above the highest set bit
  Multiply24,        // the product of the low 24 bits
  Abs,               // the absolute value of an integer
  Atomic,            // a read-modify-write of *p: an ir::AtomicOp
  Load,              // a load of *p through a cache hint
  Store,             // a store to *p through a cache hint
  Texture,           // a texture read
  Surface,           // a surface read
  Classify,          // isnan (0), isinf (1), isfinite (2) of a floating-point value
};

/// A BUILTIN row of lower_builtins.def: its name, kind, operation (as an int) and arity.
struct BuiltinFunction {
  const char* name;
  BuiltinKind kind;
  int operation;
  int arity;
};

/// The built-in named exactly `name` (a function, or a launch variable as "threadIdx.x"), or null.
const BuiltinFunction* builtin_named(llvm::StringRef name);
/// The kind of the built-in family whose prefix `name` begins with; None for none.
BuiltinKind builtin_family(llvm::StringRef name);

/// What a name of the cooperative_groups namespace is: the KIND column of GROUP rows.
enum class GroupName {
  None,            // a name the lowering does not know (shfl, reduce, is_valid ...)
  BlockType,       // thread_block
  GridType,        // grid_group
  TileType,        // thread_block_tile<N, P>
  OtherGroupType,  // thread_group, coalesced_group
  TileBase,        // a base class of the toolkit's tiles (its first template argument: N)
  MakeBlock,       // this_thread_block()
  MakeGrid,        // this_grid()
  Partition,       // tiled_partition<N>(g), tiled_partition(g, n)
  Sync,            // a group's sync or wait
  ThreadRank,      // thread_rank()
  Size,            // size(), num_threads(), group_size()
  MetaGroupRank,   // a tile's meta_group_rank()
  MetaGroupSize,   // a tile's meta_group_size()
  BlockRank,       // a grid's block_rank()
  NumBlocks,       // a grid's num_blocks()
  GroupIndex,      // a block's group_index() (blockIdx)
  ThreadIndex,     // a block's thread_index() (threadIdx)
  GroupDim,        // a block's group_dim(), dim_threads() (blockDim)
  BlockIndex,      // a grid's block_index() (blockIdx)
  DimBlocks,       // a grid's dim_blocks() (gridDim)
};

/// What `name` is in the cooperative_groups namespace; None for a name without a GROUP row.
GroupName group_name(llvm::StringRef name);

class Lowerer {
 public:
  Lowerer(clang::ASTContext& context, ir::Kernel& out, const std::vector<std::string>& api_dirs)
      : context_(context), sources_(context.getSourceManager()), k_(out), api_dirs_(api_dirs) {}

  /// Lowers `kernel` into the model given to the constructor.
  void lower(const clang::FunctionDecl& kernel);

 private:
  struct Binding {
    // Memory: a reference to memory (int& c = a[i]): an address, fixed where the reference is
    // bound: `base`, the int64 local `offset` holding its byte offset (kNone: none) plus
    // `constant`. Base kNone:
    // the model cannot place it (`unplaced` says why); its accesses are then not counted.
    enum Kind { Local, Param, Memory } kind = Local;
    Binding() = default;
    Binding(Kind k, std::int32_t i) : kind(k), id(i) {}
    std::int32_t id = ir::kNone;
    std::int32_t base = ir::kNone;
    ir::LocalId offset = ir::kNone;
    std::int64_t constant = 0;            // Memory: the offset's constant part
    const clang::Expr* target = nullptr;  // Memory: the lvalue bound (for its memory space)
    std::string unplaced;
  };

  class AssignmentFinder;

  class AddressFinder;

  /// Changes to modelled locals inside an expression the model does not evaluate (a[i++] = v;
  /// s[t] = sum = sum + s[t + k]): they run after the statement, as the work between does not
  /// touch locals. Distinct locals only, and an assignment (whose value may read others) alone.
  struct Deferred {
    std::vector<ir::StmtId> updates;
    std::set<ir::LocalId> changed;
    bool assignment = false;
    const clang::Stmt* first = nullptr;
  };

  static constexpr int kUnknownObject = -1;

  struct Object {
    std::string name;                                                  // its members' locals: name.member
    std::unordered_map<const clang::FieldDecl*, ir::LocalId> scalars;  // integer members
    std::unordered_map<const clang::FieldDecl*, int> records;          // member objects
  };

  struct Group {
    enum Kind { Block, Tile, Grid, Other } kind = Other;
    std::uint32_t size = 0;         // Tile: its threads (a power of two)
    std::uint32_t parent_size = 0;  // Tile: the parent tile's threads; 0 when the parent is the block
  };

  /// A byte offset under construction: expr (int64, kNone = 0) + constant.
  struct Offset {
    ir::ExprId expr = ir::kNone;
    std::int64_t constant = 0;
  };

  /// A base (null_base(): the null pointer) and offset; `null`, an int32 local that is 1 in the
  /// lanes where the pointer is null when that differs from lane to lane (kNone otherwise).
  struct Address {
    std::int32_t base = ir::kNone;
    Offset offset;
    ir::LocalId null = ir::kNone;
  };

  /// A pointer variable the model follows, at the statement being lowered: its buffer, and the
  /// int64 local holding its offset (kNone: always 0, a kernel parameter never changed). Base
  /// kNone: no value yet (declared without one). `lost`: why the model cannot follow it here (a
  /// value it cannot place, or two buffers meeting at a join); a later assignment of a value it
  /// can place follows it again.
  /// `null`: an int32 local, 1 in the lanes where the pointer is null, for a pointer some
  /// definition sets to null (kNone otherwise); `base` is then the other buffer where the two meet.
  struct PointerBinding {
    std::int32_t base = ir::kNone;
    ir::LocalId offset = ir::kNone;
    std::string lost;
    ir::LocalId null = ir::kNone;
  };

  using PointerState = std::unordered_map<const clang::VarDecl*, PointerBinding>;

  /// Lanes that make an access inside `c ? x : y` or `a && b`: those where condition == holds.
  struct Guard {
    const clang::Expr* condition;
    bool holds;
  };

  /// A member of an object moved member by member: its offset in the object, its width, and
  /// its path for the access's text (".x", ".m[2]").
  struct Part {
    std::int64_t offset = 0;
    std::int64_t width = 0;
    std::string path;
  };

  /// Thrown while placing an access the model cannot place: why (caught by record_access,
  /// try_pointer_value and the others that place one).
  struct Unplaced {
    std::string reason;
  };

  struct PendingFlops {
    std::uint32_t operations;
    std::vector<Guard> guards;
  };

  /// What lower_stmt collects for the statement it lowers.
  struct Pending {
    std::vector<ir::MemoryAccess> accesses;
    std::vector<PendingFlops> flops;
    /// Opaque values that are exactly a load's element: (expression, index in `accesses`),
    /// linked (Expr::access) when the accesses get their ids.
    std::vector<std::pair<ir::ExprId, std::size_t>> loads;
    /// The load recorded for each memory expression (index in `accesses`): an expression lowered
    /// again (a stored value) links its opaque values to them.
    std::map<const clang::Expr*, std::size_t> load_at;
    /// The access recorded for each call of a memory intrinsic (__ldg, atomicAdd ...): its value
    /// (the element loaded, the element before the atomic) links to it.
    std::map<const clang::Expr*, std::size_t> intrinsic_at;
    /// (index in `accesses`, its twin through the null pointer: split_null), after them.
    std::vector<std::pair<std::size_t, ir::MemoryAccess>> null_twins;
    /// The local holding each inlined call's result (inlined_result): an expression lowered again
    /// reads it, and the call runs once.
    std::map<const clang::CallExpr*, ir::LocalId> results;
    /// The object made for each temporary whose member the statement reads (mk(t).b), likewise.
    std::map<const clang::Expr*, int> temporaries;
  };

  /// While alive, loads and flops met are not recorded (an expression lowered a second time).
  struct Quiet {
    explicit Quiet(Lowerer& l) : l_(l) { ++l_.quiet_; }
    ~Quiet() { --l_.quiet_; }
    Quiet(const Quiet&) = delete;
    Quiet& operator=(const Quiet&) = delete;
    Lowerer& l_;
  };

  class GuardScope {
   public:
    GuardScope(Lowerer& l, const clang::Expr* condition, bool holds) : l_(l) {
      l_.guards_.push_back(Guard{condition, holds});
    }
    ~GuardScope() { l_.guards_.pop_back(); }
    GuardScope(const GuardScope&) = delete;
    GuardScope& operator=(const GuardScope&) = delete;

   private:
    Lowerer& l_;
  };

  /// While alive, the followed pointers hold their values at a region's head (a loop, a
  /// switch's body); at its end they are those joined with the values where the region ended.
  class PointerRegion {
   public:
    PointerRegion(Lowerer& l, std::initializer_list<const clang::Stmt*> parts, const std::string& where)
        : l_(l), where_(where) {
      l_.enter_region(parts, where);
      head_ = l_.pointers_;
    }
    ~PointerRegion() {
      PointerState out = head_;
      l_.join_pointers(out, l_.pointers_, where_);
      l_.pointers_ = std::move(out);
    }
    PointerRegion(const PointerRegion&) = delete;
    PointerRegion& operator=(const PointerRegion&) = delete;

   private:
    Lowerer& l_;
    std::string where_;
    PointerState head_;
  };

  /// One level deeper into statements or expressions while alive (lower_stmt, lower_int,
  /// scan_work: the walks a user's nesting drives, inlined calls included); past kMaxNesting
  /// the kernel is refused, before the walk's recursion (or the engines' over the model) could
  /// exhaust the stack.
  struct Deeper {
    Deeper(Lowerer& lowerer, const clang::Stmt* at) : lowerer_(lowerer) {
      if (++lowerer_.depth_ > kMaxNesting) too_deep(at);
      // Where a refusal of something without a place of its own (an implicit value) is put.
      if (at->getBeginLoc().isValid()) {
        lowerer_.places_.push_back(at);
        placed_ = true;
      }
    }
    ~Deeper() {
      --lowerer_.depth_;
      if (placed_) lowerer_.places_.pop_back();
    }
    Deeper(const Deeper&) = delete;
    Deeper& operator=(const Deeper&) = delete;
    [[noreturn]] void too_deep(const clang::Stmt* at) {
      const auto presumed =
          lowerer_.sources_.getPresumedLoc(lowerer_.sources_.getExpansionLoc(at->getBeginLoc()));
      const std::string where = presumed.isInvalid() ? std::string("<unknown>")
                                                     : std::string(presumed.getFilename()) + ":" +
                                                           std::to_string(presumed.getLine());
      --lowerer_.depth_;
      throw InvalidInput(Diag::model_too_large,
                         "nesting deeper than " + std::to_string(kMaxNesting) + " at " + where +
                             ": the front-end follows statements and expressions (inlined calls "
                             "included) at most " +
                             std::to_string(kMaxNesting) + " levels deep");
    }
    Lowerer& lowerer_;
    bool placed_ = false;
  };

  /// While alive, calls of __device__ functions are refused (they would not run exactly once).
  struct NoHoist {
    NoHoist(Lowerer& lowerer, const char* where) : lowerer_(lowerer), outer_(lowerer.no_hoist_) {
      if (outer_ == nullptr) lowerer_.no_hoist_ = where;
    }
    ~NoHoist() { lowerer_.no_hoist_ = outer_; }
    NoHoist(const NoHoist&) = delete;
    NoHoist& operator=(const NoHoist&) = delete;
    Lowerer& lowerer_;
    const char* outer_;
  };

  // lower.cpp: Locations and text, the CUDA API's declarations, the kernel's parameters
  std::uint32_t file_index(clang::FileID file);
  ir::SourceRange range(clang::SourceRange source);
  ir::SourceRange range(const clang::Stmt* s);
  std::string location(clang::SourceLocation loc) const;
  std::string text(const clang::Stmt* s) const;
  /// Throws InvalidInput at `at`'s place: unsupported_construct, or the diagnostic given.
  [[noreturn]] void refuse(const clang::Stmt* at, const std::string& what) const;
  [[noreturn]] void refuse(Diag diag, const clang::Stmt* at, const std::string& what) const;
  bool in_prelude(const clang::Decl* decl) const;
  bool is_cuda_api(const clang::Decl* decl) const;
  bool address_taken_float(const clang::VarDecl* var);
  void find_assigned_parameters(const clang::FunctionDecl& function);
  void bind_floating_parameter(const clang::ParmVarDecl* param, std::int32_t index);
  void unchecked_stored_values();
  void refuse_unmodelled_conditions();
  void mark_unplaced_writes();

  // lower_statements.cpp
  ir::StmtId lower_stmt(const clang::Stmt* s);
  bool defer(const clang::Expr* at, ir::LocalId local, bool assignment);
  ir::StmtId lower_required(const clang::Stmt* s);
  ir::StmtId lower_stmt_here(const clang::Stmt* s);
  ir::StmtId lower_decl_stmt(const clang::DeclStmt* s);
  ir::StmtId lower_if(const clang::IfStmt* s);
  ir::StmtId lower_for(const clang::ForStmt* s);
  ir::ExprId lower_loop_condition(const clang::Expr* condition);
  ir::StmtId lower_return(const clang::ReturnStmt* s);
  ir::StmtId lower_switch(const clang::SwitchStmt* s);
  ir::StmtId lower_expr_stmt(const clang::Expr* e);
  ir::ExprId written_value(std::size_t first) const;
  ir::ExprId copied(ir::ExprId id);
  bool holds_unknown(ir::ExprId id);
  bool depends_on_unknown(ir::ExprId id) const;

  // lower_expressions.cpp
  std::optional<ir::LocalId> dereferenced_local(const clang::Expr* e) const;
  std::optional<ir::LocalId> bound_local(const clang::Expr* target);
  ir::ExprId assigned_value(const clang::BinaryOperator* op, ir::LocalId local);
  ir::ExprId assigned_value(const clang::BinaryOperator* op, ir::ExprId current, ir::ScalarType type);
  ir::ExprId incremented(const clang::UnaryOperator* op, ir::LocalId local);
  ir::ExprId incremented(const clang::UnaryOperator* op, ir::ExprId current, ir::ScalarType type);
  std::optional<ir::ExprId> folded_builtin(const clang::CallExpr* call, ir::ScalarType type);
  ir::ExprId convert(ir::ExprId value, ir::ScalarType to, ir::SourceRange where);
  ir::ExprId lower_int(const clang::Expr* e);
  ir::ExprId constant(ir::ScalarType type, const llvm::APSInt& value, ir::SourceRange where);
  ir::ExprId evaluated(const clang::Expr* e, ir::ScalarType type);
  ir::ExprId lower_cast(const clang::CastExpr* cast, ir::ScalarType type);
  ir::ExprId lower_ref(const clang::DeclRefExpr* ref, ir::ScalarType type);
  /// The value of a namespace-scope or static const scalar with a constant initialiser, in any
  /// memory space but shared (`const`, `__device__ const`, `__constant__ const`, `constexpr`):
  /// nvcc puts the value in the code (NVVM makes the variable an LLVM constant), so no memory is
  /// read; null for any other variable (a `__constant__` that is not const is read).
  const clang::APValue* folded_constant(const clang::VarDecl* var) const;
  ir::ExprId lower_member(const clang::MemberExpr* member, ir::ScalarType type);
  ir::ExprId lower_property(const clang::PseudoObjectExpr* e, ir::ScalarType type);
  ir::ExprId lower_unary(const clang::UnaryOperator* op, ir::ScalarType type);
  ir::BinaryOp binary_op(const clang::Stmt* at, clang::BinaryOperatorKind kind) const;
  ir::ExprId lower_binary(const clang::BinaryOperator* op, ir::ScalarType type);

  // lower_calls.cpp
  bool is_syncthreads(const clang::FunctionDecl* callee) const;
  bool is_syncwarp(const clang::FunctionDecl* callee) const;
  std::optional<ir::Builtin> launch_builtin(const clang::Expr* base, const std::string& field) const;
  bool inlinable(const clang::FunctionDecl* callee) const;
  void check_callee(const clang::CallExpr* call, const clang::FunctionDecl* callee);
  void check_function(const clang::Expr* call, const clang::FunctionDecl* callee);
  ir::ExprId lower_call(const clang::CallExpr* call, ir::ScalarType type);
  ir::ExprId lower_builtin_call(const clang::CallExpr* call, ir::ScalarType type);
  std::optional<ir::ExprId> classify_float(const clang::CallExpr* call, const BuiltinFunction& builtin);
  ir::ExprId unevaluated_call(const clang::CallExpr* call, ir::ScalarType type);
  ir::ExprId min_max(const clang::CallExpr* call, bool minimum, ir::ScalarType result_type);
  ir::ExprId absolute(const clang::CallExpr* call, ir::ScalarType type);
  std::optional<ir::ExprId> warp_function(const clang::CallExpr* call, const BuiltinFunction& builtin);
  std::optional<ir::ExprId> math_function(const clang::CallExpr* call, const BuiltinFunction& builtin);
  ir::ExprId multiply_24(const clang::CallExpr* call, bool is_signed);
  ir::ExprId bit_count(const clang::CallExpr* call, bool find_first_set, bool wide);
  std::function<ir::ExprId()> copies(const clang::Expr* arg, ir::ScalarType u, ir::SourceRange where);
  ir::ExprId reverse_bits(const clang::CallExpr* call, bool wide);
  ir::ExprId leading_zeros(const clang::CallExpr* call, bool wide);
  void hoist(const clang::Stmt* at, ir::StmtId statement);
  ir::LocalId inlined_result(const clang::CallExpr* call, const clang::FunctionDecl* callee,
                             ir::ScalarType type);
  void hoist_calls(const clang::Stmt* s);
  std::string call_effect(const clang::CallExpr* call, std::vector<const clang::FunctionDecl*>& seen) const;
  std::string body_effect(const clang::Stmt* s, std::vector<const clang::FunctionDecl*>& seen) const;
  static bool is_fma(const clang::FunctionDecl* callee);
  std::optional<ir::AccessKind> memory_intrinsic(const clang::FunctionDecl* callee) const;

  // lower_cxx.cpp
  std::optional<Binding> reference_binding(const clang::Expr* target, ir::ScalarType type,
                                           const std::string& name, std::vector<ir::StmtId>& out);
  Binding memory_binding(const clang::Expr* target, const std::string& name, std::vector<ir::StmtId>& out,
                         bool pointer = false);
  std::optional<Binding> object_reference(const clang::Expr* target, const std::string& name, bool writable,
                                          std::vector<ir::StmtId>& out);
  std::optional<Binding> this_binding(const clang::Expr* object, bool writable, std::vector<ir::StmtId>& out);
  Address bound_address(const Binding& binding, const std::string& what, ir::SourceRange where);
  Address this_address(ir::SourceRange where);
  static bool binds_temporary(const clang::Expr* init);
  bool may_write_memory(const clang::Stmt* s, std::vector<const clang::FunctionDecl*>& seen) const;
  struct CallFrame {  // a call about to be inlined: its callee's definition, arguments and object
    const clang::FunctionDecl* definition;
    const std::vector<const clang::Expr*>& args;
    const clang::Expr* object;
    const CallFrame* outer;       // the frame the arguments and object are written in; null: the caller's
    int result = kUnknownObject;  // the object its `return` initialises (a class returned by value)
  };
  std::string space_written(const clang::Expr* target, const CallFrame* frame) const;
  bool may_write_space(const clang::Stmt* s, const std::string& space, const CallFrame& frame) const;
  bool copies_returned_reference(const clang::Expr* arg, const CallFrame& frame) const;
  const CallFrame* current_frame() const;
  std::optional<Binding> const_reference_binding(const clang::Expr* init, ir::ScalarType type,
                                                 const std::string& name, std::vector<ir::StmtId>& out);
  const clang::Expr* forwarded_argument(const clang::CallExpr* call) const;
  bool holds_modelled(const clang::Expr* lvalue) const;
  bool writes_opaque_float(const clang::Expr* argument);
  bool returns_memory(const clang::CallExpr* call) const;
  bool may_return_local(const clang::CallExpr* call) const;
  bool unplaced_write_through(const clang::Expr* at, const clang::CallExpr* call);
  void check_write(const clang::Expr* at, const clang::Expr* target);
  std::optional<ir::LocalId> pointed_local(const clang::Expr* e);
  static std::vector<const clang::Expr*> call_arguments(const clang::CallExpr* call,
                                                        const clang::FunctionDecl* callee);
  static const clang::Expr* call_object(const clang::CallExpr* call);
  ir::StmtId inline_call(const clang::CallExpr* call, const clang::FunctionDecl* callee, ir::LocalId result,
                         int result_object = kUnknownObject);
  std::string function_key(const clang::FunctionDecl& f) const;
  ir::StmtId inline_function(const clang::Expr* call, const clang::FunctionDecl* callee,
                             const std::vector<const clang::Expr*>& args, ir::LocalId result,
                             int this_object = kUnknownObject, int result_object = kUnknownObject);
  const clang::CXXRecordDecl* trackable(clang::QualType type) const;
  static bool plain_layout(const clang::CXXRecordDecl* record);
  int make_object(const clang::CXXRecordDecl* record, const std::string& name, ir::SourceRange where,
                  std::vector<ir::StmtId>& out);
  void add_members(int id, const clang::CXXRecordDecl* record, const std::string& name, ir::SourceRange where,
                   std::vector<ir::StmtId>& out);
  int object_of(const clang::Expr* e) const;
  int member_base_object(const clang::MemberExpr* member) const;
  std::optional<ir::LocalId> field_local(const clang::MemberExpr* member) const;
  /// The accesses of a copy of an object from or to memory (record_object's): the memory's text,
  /// the index of the first in the statement's accesses, and the length of the local object's
  /// name in its members'.
  struct ObjectCopy {
    std::string text;
    std::size_t first;
    std::size_t prefix;
  };
  void forget(int object, const std::string& why, ir::SourceRange where, std::vector<ir::StmtId>& out,
              const ObjectCopy* loads = nullptr);
  std::optional<std::size_t> member_access(ir::LocalId local, const ObjectCopy& copy) const;
  void store_members(int object, const ObjectCopy& copy, ir::SourceRange where);
  // lower_objects.cpp
  int stored_object(const clang::Expr* source);
  std::optional<ir::LocalId> temporary_member(const clang::MemberExpr* member);
  std::optional<const clang::Expr*> braced_member(const clang::MemberExpr* member);
  void zero(int object, ir::SourceRange where, std::vector<ir::StmtId>& out);
  void copy_object(int dst, const clang::Expr* src, std::vector<ir::StmtId>& out);
  void copy_from_memory(int dst, const clang::Expr* src, std::vector<ir::StmtId>& out);
  void copy_temporary(int dst, const clang::Expr* value, std::vector<ir::StmtId>& out);
  [[noreturn]] void refuse_temporary(const clang::Expr* value) const;
  int temporary_object(const clang::CXXRecordDecl* record, const clang::Expr* value, const std::string& name,
                       std::vector<ir::StmtId>& out);
  static const clang::Expr* object_value(const clang::Expr* e);
  bool initialise_from_call(int object, const clang::CallExpr* call, std::vector<ir::StmtId>& out);
  void initialise_list(int object, const clang::InitListExpr* list, std::vector<ir::StmtId>& out);
  void initialise_conditional(int object, const clang::ConditionalOperator* conditional,
                              std::vector<ir::StmtId>& out);
  struct Pick {  // c ? x : y, member by member: the local holding c, and y
    ir::LocalId condition;
    int otherwise;
  };
  void copy_between(int dst, int from, const std::string& source, ir::SourceRange where,
                    std::vector<ir::StmtId>& out, const Pick* pick = nullptr);
  void run_statement_parts(const clang::Expr* e, std::vector<ir::StmtId>& out);
  ir::ExprId value_into(const clang::Expr* e, ir::ScalarType type, std::vector<ir::StmtId>& out);
  void initialise(int object, const clang::Expr* init, std::vector<ir::StmtId>& out);
  void initialise_field(int object, const clang::FieldDecl* field, const clang::Expr* init,
                        std::vector<ir::StmtId>& out);
  void initialise_member(const clang::CXXCtorInitializer* init, int object, std::vector<ir::StmtId>& out);
  std::optional<std::pair<int, const clang::Expr*>> object_assignment(const clang::Expr* e) const;
  static bool trivial_assignment(const clang::CallExpr* call);

  // lower_groups.cpp
  static const clang::CXXRecordDecl* record_of(clang::QualType type);
  bool in_group_namespace(const clang::Decl* decl) const;
  bool is_group_type(clang::QualType type) const;
  static std::optional<std::uint32_t> template_constant(const clang::CXXRecordDecl* record, unsigned index);
  Group tile_of(std::uint32_t size, const Group& parent) const;
  Group group_of_type(clang::QualType type) const;
  Group group_of(const clang::Expr* e) const;
  Group called_group(const clang::CallExpr* call) const;
  bool is_group_sync(const clang::CallExpr* call) const;
  ir::StmtId lower_group_sync(const clang::CallExpr* call);
  ir::StmtId warp_barrier(const clang::CallExpr* call, ir::ExprId mask);
  ir::ExprId tile_mask(std::uint32_t size, ir::SourceRange where);
  ir::ExprId builtin_as(ir::Builtin builtin, ir::ScalarType type, ir::SourceRange where);
  ir::ExprId u32_constant(std::uint32_t value, ir::SourceRange where);
  ir::ExprId linear_rank(const ir::Builtin* index, const ir::Builtin* dim, ir::ScalarType type,
                         ir::SourceRange where);
  ir::ExprId volume(const ir::Builtin* dim, ir::ScalarType type, ir::SourceRange where);
  ir::ExprId block_rank(ir::SourceRange where);
  ir::ExprId block_size(ir::SourceRange where);
  ir::ExprId grid_block_rank(ir::SourceRange where);
  ir::ExprId grid_blocks(ir::SourceRange where);
  ir::ExprId tile_query(const Group& tile, GroupName query, ir::SourceRange where);
  ir::ExprId grid_query(GroupName query, ir::SourceRange where);
  ir::ExprId lower_group_query(const clang::CallExpr* call, ir::ScalarType type);
  ir::ExprId lower_group_dim3(const clang::CallExpr* call, const clang::MemberExpr* member,
                              ir::ScalarType type);

  // lower_memory.cpp
  bool local_array_initialised(const clang::VarDecl* var, const clang::Stmt* s,
                               std::vector<ir::StmtId>& declared);
  struct InitialisedScalar {  // a scalar of a local array its braces initialise
    std::int64_t offset;
    ir::ScalarType type;
    const clang::Expr* init;  // null: 0
    std::string text;         // a[1].y
  };
  bool initialised_scalars(clang::QualType type, const clang::Expr* init, std::int64_t offset,
                           const std::string& name, std::vector<InitialisedScalar>& out);
  ir::ExprId i64(std::int64_t value, ir::SourceRange where);
  ir::ExprId offset_expr(const Offset& o, ir::SourceRange where);
  Offset add(Offset a, const Offset& b, ir::SourceRange where);
  std::int64_t size_of(clang::QualType type, const clang::Expr* at) const;
  const clang::Expr* side_effect(const clang::Expr* e) const;
  std::string effect_reason(const clang::Expr* index, const clang::Expr* effect) const;
  Offset scaled(const clang::Expr* index, std::int64_t size, bool negate, ir::SourceRange where);
  std::int32_t variable_base(const clang::VarDecl* var);
  std::int32_t parameter_base(std::int32_t index, const clang::ParmVarDecl* param);
  Address address_of(const clang::Expr* e);
  std::int64_t base_class_offset(const clang::CastExpr* cast) const;
  bool is_memory(const clang::Expr* e);
  ir::AddressSpace guessed_space(const clang::Expr* e) const;
  bool record_access(ir::AccessKind kind, const clang::Expr* e, bool pointer = false, bool again = false,
                     const Part* part = nullptr);
  bool record_object(ir::AccessKind kind, const clang::Expr* e);
  bool moves_whole(clang::QualType type) const;
  bool members_of(clang::QualType type, std::int64_t offset, const std::string& path,
                  std::vector<Part>& out) const;
  static ir::MemoryAccess unplaced(ir::MemoryAccess access, const std::string& reason);
  void rollback(std::size_t exprs, std::size_t pending);
  void carry_accesses(Pending& p, ir::StmtId target);
  ir::ExprId guard_expr(const std::vector<Guard>& guards, ir::SourceRange where);
  void count_flops(std::uint32_t operations);
  static std::uint32_t float_operations(const clang::Stmt* s);
  void carry_flops(Pending& p, ir::StmtId target, const clang::Stmt* s);
  ir::StmtId attach(Pending& p, ir::StmtId id, const clang::Stmt* s);
  bool load_and_store(const clang::Expr* lvalue, bool load);
  void stored_value(const clang::BinaryOperator* op, std::size_t store);
  void atomic_operand(const clang::CallExpr* call, const clang::FunctionDecl* callee, std::size_t access);
  std::optional<ir::ExprId> lowered_again(const clang::Expr* e, ir::ScalarType type, const char* what);
  void updated_value(const clang::Expr* op, std::size_t store);
  bool calls_code(const clang::Stmt* s) const;
  void record_unplaced(ir::AccessKind kind, const clang::Expr* lvalue);
  void object_store(const clang::CallExpr* call);

  // lower_pointers.cpp
  std::string region_text(const char* what, const clang::Stmt* s);
  Address pointer_value(const clang::Expr* e);
  Address variable_value(const clang::Expr* e);
  static const clang::VarDecl* pointer_variable(const clang::Expr* e);
  static const clang::VarDecl* pointer_bound_to_reference(const clang::Stmt* s);
  void scan_pointer_writes(const clang::FunctionDecl* function);
  void bind_parameter_pointer(std::int32_t index, const clang::ParmVarDecl* param);
  bool followed_pointer(const clang::VarDecl* var);
  void join_pointers(PointerState& into, const PointerState& other, const std::string& where) const;
  PointerBinding pointer_root(const clang::Expr* e);
  PointerBinding lvalue_root(const clang::Expr* e);
  void pointer_definitions(const clang::Stmt* s,
                           std::vector<std::pair<const clang::VarDecl*, const clang::Expr*>>& out);
  void enter_region(std::initializer_list<const clang::Stmt*> parts, const std::string& where);
  std::optional<Address> try_pointer_value(const clang::Expr* e, std::string& why);
  static std::string lost_value(const clang::VarDecl* var, const std::string& value, const std::string& why);
  bool bind_pointer(const clang::VarDecl* var, const clang::Expr* init, ir::SourceRange where,
                    std::vector<ir::StmtId>& out);
  std::optional<ir::StmtId> pointer_update(const clang::Expr* e);
  std::int32_t null_base();
  std::optional<ir::ExprId> pointer_is_null(const clang::Expr* e);
  ir::ExprId null_test(ir::LocalId null, ir::SourceRange where);
  ir::MemoryAccess split_null(ir::MemoryAccess& access, ir::LocalId null);
  static bool null_value(const clang::Expr* e);
  bool set_to_null(const clang::VarDecl* var);
  ir::ExprId null_flag(const Address& a, ir::SourceRange where);
  void join_null(PointerBinding& a, const PointerBinding& b, const clang::VarDecl* var,
                 const std::string& where) const;
  ir::StmtId assign_pointer(PointerBinding& bound, const Address& a, const clang::VarDecl* var,
                            ir::SourceRange where);
  std::string read_from_memory(const clang::Expr* e);

  // lower_work.cpp
  std::string memory_space(const clang::Expr* e) const;
  std::string memory_space_in(const clang::Expr* e, std::size_t frames) const;
  std::string describe(const clang::Expr* e) const;
  ir::ExprId opaque(const clang::Expr* e, ir::ScalarType type, const clang::Expr* at = nullptr);
  std::vector<std::int32_t> floating_locals_read(const clang::Stmt* e) const;
  void link_load(ir::ExprId id, std::size_t index, clang::QualType type);
  void scan_work(const clang::Stmt* s);
  bool scan_binary(const clang::BinaryOperator* op);
  bool scan_unary(const clang::UnaryOperator* op);
  bool scan_object_code(const clang::Stmt* s);
  bool scan_call(const clang::CallExpr* call);
  void refuse_unseen_writes(const clang::CallExpr* call, const clang::FunctionDecl* callee);

  clang::ASTContext& context_;
  const clang::SourceManager& sources_;
  ir::Kernel& k_;
  const std::vector<std::string>& api_dirs_;
  clang::FileID main_file_;
  std::map<clang::FileID, std::uint32_t> files_;
  std::unordered_map<const clang::VarDecl*, Binding> bindings_;
  std::unordered_map<const clang::VarDecl*, Group> groups_;
  std::unordered_map<const clang::VarDecl*, ir::LocalId> pointer_targets_;  // int* p = &x
  std::vector<Object> objects_;
  std::unordered_map<const clang::VarDecl*, int> object_vars_;
  std::vector<int> this_stack_;  // the object of each inlined call (kUnknownObject: none known)
  // The address of each inlined call's object in memory (nullopt: none, or a tracked object).
  std::vector<std::optional<Binding>> this_bindings_;
  // The expression each inlined call's object is in its caller (null: none, or a constructor's).
  std::vector<const clang::Expr*> this_exprs_;
  std::deque<CallFrame> inline_frames_;  // the inlined calls being lowered, innermost last (stable addresses)
  std::set<const clang::VarDecl*> assigned_parameters_;
  std::vector<ir::StmtId> parameter_copies_;
  std::vector<const clang::FunctionDecl*> call_stack_;
  std::vector<ir::StmtId>* hoisted_ = nullptr;
  Deferred* deferred_ = nullptr;
  const char* no_hoist_ = nullptr;
  int depth_ = 0;                           // Deeper's count
  std::vector<const clang::Stmt*> places_;  // Deeper's statements and expressions that have a place
  Pending* pending_ = nullptr;              // what the statement being lowered accesses
  std::vector<Guard> guards_;               // the arms and right operands being scanned
  int quiet_ = 0;                           // Quiet's count
  std::unordered_map<const clang::VarDecl*, std::int32_t> variable_bases_;
  std::map<std::int32_t, std::int32_t> parameter_bases_;  // kernel parameter index -> base
  std::int32_t null_base_ = ir::kNone;                    // null_base()
  std::unordered_map<const clang::VarDecl*, PointerBinding> pointers_;
  std::unordered_map<const clang::VarDecl*, std::string> unfollowed_pointers_;  // why not
  std::set<const clang::FunctionDecl*> pointer_writes_scanned_;
  std::set<const clang::FunctionDecl*> address_scanned_;
  // Float locals whose address is taken: the call given it (sincosf(x, &s, &c)), or the '&s'.
  std::map<const clang::VarDecl*, const clang::Expr*> address_taken_floats_;
  std::vector<std::pair<ir::StmtId, std::string>> stored_values_;  // (statement, text): lower_expr_stmt
  std::map<ir::ExprId, std::string> unmodelled_;  // opaque values the model does not evaluate: why
  std::size_t taint_checked_ = 0;                 // holds_unknown: the statements looked at
  std::vector<bool> unknown_locals_;              // holds_unknown: locals assigned an unknown value so far
};

}  // namespace warpdiv::frontend::detail::lowering
