// Lowers a __global__ function's Clang AST to the kernel model, in one recursive walk over its
// statements and expressions. __device__ functions are inlined at each call; every implicit
// conversion becomes an explicit Cast; what the model does not compute becomes an Opaque value or a
// Work statement with a description; what it cannot represent is refused with its location.
// This file holds the walk's entry (lower_kernel), source locations and the kernel's
// parameters; lowerer.hpp lists the files that hold the rest.
#include "kernels/frontend/lower.hpp"
#include "kernels/frontend/lowerer.hpp"

#include <clang/AST/RecordLayout.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cstring>
#include <functional>

namespace warpdiv::frontend::detail::lowering {

/// The kernel parameters that the body assigns (or may assign, through a reference or a
/// pointer): they become locals, as the model's parameters are read-only.
class Lowerer::AssignmentFinder : public clang::RecursiveASTVisitor<Lowerer::AssignmentFinder> {
 public:
  explicit AssignmentFinder(std::set<const clang::VarDecl*>& out) : out_(out) {}
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp()) note(op->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp() || op->getOpcode() == clang::UO_AddrOf)
      note(op->getSubExpr());
    return true;
  }

  /// int& r = n: r may assign n.
  bool VisitVarDecl(clang::VarDecl* var) {
    const clang::QualType type = var->getType();
    if (type->isLValueReferenceType() && !type.getNonReferenceType().isConstQualified() &&
        var->getInit() != nullptr)
      note(var->getInit());
    return true;
  }

  /// f(x) where f takes int& x: f may assign it.
  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr) return true;
    const auto args = call_arguments(call, callee);
    for (unsigned i = 0; i < callee->getNumParams() && i < args.size(); ++i) {
      const clang::QualType type = callee->getParamDecl(i)->getType();
      if (type->isLValueReferenceType() && !type.getNonReferenceType().isConstQualified())
        note(args[i]);
    }
    return true;
  }

 private:
  void note(const clang::Expr* target) {
    if (const auto* var = named_variable(target))
      if (llvm::isa<clang::ParmVarDecl>(var)) out_.insert(var);
  }
  std::set<const clang::VarDecl*>& out_;
};

/// Float and double variables whose address is taken (&x handed to sincosf, modff ...): the
/// model cannot follow writes through the pointer, so they stay unmodelled values.
class Lowerer::AddressFinder : public clang::RecursiveASTVisitor<Lowerer::AddressFinder> {
 public:
  explicit AddressFinder(std::set<const clang::VarDecl*>& out) : out_(out) {}
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->getOpcode() != clang::UO_AddrOf) return true;
    if (const auto* var = named_variable(op->getSubExpr())) {
      const auto type = scalar_type(var->getType());
      if (type && ir::is_floating(*type)) out_.insert(var);
    }
    return true;
  }

 private:
  std::set<const clang::VarDecl*>& out_;
};

void Lowerer::lower(const clang::FunctionDecl& kernel) {
  const clang::FunctionDecl* definition = nullptr;
  kernel.hasBody(definition);
  main_file_ = sources_.getFileID(sources_.getExpansionLoc(definition->getLocation()));
  file_index(main_file_);
  find_assigned_parameters(*definition);
  for (const clang::ParmVarDecl* param : definition->parameters()) {
    const std::string name = param->getNameAsString();
    const auto type = scalar_type(param->getType());
    if (!type || ir::is_floating(*type) || param->getType()->isReferenceType()) {
      const clang::QualType canonical = param->getType().getCanonicalType();
      const int floating = canonical->isSpecificBuiltinType(clang::BuiltinType::Float)    ? 32
                           : canonical->isSpecificBuiltinType(clang::BuiltinType::Double) ? 64
                                                                                         : 0;
      const std::int32_t index = k_.add_opaque_parameter(name, param->getType().getAsString(), floating);
      if (canonical->isPointerType()) {
        const clang::QualType pointee = canonical->getPointeeType();
        if (!pointee->isIncompleteType() && !pointee->isDependentType()) {
          k_.parameters[static_cast<std::size_t>(index)].element_bytes =
              static_cast<std::uint64_t>(context_.getTypeSizeInChars(pointee).getQuantity());
          k_.parameters[static_cast<std::size_t>(index)].element_type =
              pointee.getUnqualifiedType().getAsString();
        }
      }
      if (param->getType()->isPointerType()) bind_parameter_pointer(index, param);
      if (type && ir::is_floating(*type) && !param->getType()->isReferenceType())
        bind_floating_parameter(param, index);
      continue;
    }
    const std::int32_t index = k_.add_parameter(name, *type);
    if (assigned_parameters_.count(param) == 0) {
      bindings_[param] = Binding{Binding::Param, index};
      continue;
    }
    // Assigned in the body: a local holding a copy, declared first thing.
    const ir::SourceRange where = range(param->getSourceRange());
    const ir::LocalId local = k_.add_local(name, *type, where);
    bindings_[param] = Binding{Binding::Local, local};
    parameter_copies_.push_back(k_.declare(local, k_.param(index, where), where));
  }
  call_stack_.push_back(definition);
  std::vector<ir::StmtId> body = parameter_copies_;
  const ir::StmtId statements = lower_stmt(definition->getBody());
  body.push_back(statements);
  if (parameter_copies_.empty()) {
    k_.root = statements;
  } else {
    k_.root = k_.block(body, range(definition->getBody()->getSourceRange()));
  }
}

std::uint32_t Lowerer::file_index(clang::FileID file) {
  const auto found = files_.find(file);
  if (found != files_.end()) return found->second;
  ir::SourceFile source;
  source.path = std::string(sources_.getFilename(sources_.getLocForStartOfFile(file)));
  const llvm::StringRef text = sources_.getBufferData(file);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == llvm::StringRef::npos) end = text.size();
    std::string line = text.substr(start, end - start).str();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    source.lines.push_back(line);
    start = end + 1;
  }
  k_.files.push_back(source);
  const auto index = static_cast<std::uint32_t>(k_.files.size() - 1);
  files_[file] = index;
  return index;
}

ir::SourceRange Lowerer::range(clang::SourceRange source) {
  ir::SourceRange result;
  if (source.isInvalid()) return result;
  const clang::CharSourceRange expansion = sources_.getExpansionRange(source);
  const clang::SourceLocation begin = expansion.getBegin();
  const clang::SourceLocation end = expansion.getEnd();
  result.file = file_index(sources_.getFileID(begin));
  result.line = sources_.getExpansionLineNumber(begin);
  result.column = sources_.getExpansionColumnNumber(begin);
  if (sources_.getFileID(end) == sources_.getFileID(begin)) {
    // Clang's range ends at the last token's start: end inclusive at its last character.
    const unsigned length =
        clang::Lexer::MeasureTokenLength(end, sources_, context_.getLangOpts());
    result.end_line = sources_.getExpansionLineNumber(end);
    result.end_column = sources_.getExpansionColumnNumber(end) + (length > 0 ? length - 1 : 0);
  } else {
    result.end_line = result.line;
    result.end_column = result.column;
  }
  return result;
}

ir::SourceRange Lowerer::range(const clang::Stmt* s) { return range(s->getSourceRange()); }

std::string Lowerer::location(clang::SourceLocation loc) const { return location_of(sources_, loc); }

/// The source text of a node, on one line ("A[Row * Width + k]").
std::string Lowerer::text(const clang::Stmt* s) const { return source_text(context_, s); }

[[noreturn]] void Lowerer::refuse(const clang::Stmt* at, const std::string& what) const {
  throw InvalidInput(location(at->getBeginLoc()) + ": " + what);
}

/// Declared in the prelude or another of warpdiv's built-in headers (<cooperative_groups.h>),
/// by any of its declarations (math.h may declare sqrtf again).
bool Lowerer::in_prelude(const clang::Decl* decl) const {
  for (const clang::Decl* redeclaration : decl->redecls()) {
    const clang::SourceLocation loc = sources_.getExpansionLoc(redeclaration->getLocation());
    if (sources_.getFilename(loc).startswith(kBuiltinDir)) return true;
  }
  return false;
}

/// Part of the CUDA API: declared in warpdiv's built-in headers (in_prelude) or, on the toolkit
/// route, in a system header of the toolkit or of Clang's CUDA wrapper headers (api_dirs_), by
/// any of its declarations.
bool Lowerer::is_cuda_api(const clang::Decl* decl) const {
  for (const clang::Decl* redeclaration : decl->redecls()) {
    const clang::SourceLocation loc = sources_.getExpansionLoc(redeclaration->getLocation());
    const llvm::StringRef file = sources_.getFilename(loc);
    if (file.startswith(kBuiltinDir)) return true;
    if (api_dirs_.empty() || !sources_.isInSystemHeader(loc)) continue;
    for (const std::string& dir : api_dirs_)
      if (file.startswith(dir)) return true;
  }
  return false;
}

bool Lowerer::address_taken_float(const clang::VarDecl* var) {
  const auto* function = llvm::dyn_cast<clang::FunctionDecl>(var->getDeclContext());
  if (function == nullptr || function->getBody() == nullptr) return false;
  if (address_scanned_.insert(function).second) {
    AddressFinder finder(address_taken_floats_);
    finder.TraverseStmt(function->getBody());
  }
  return address_taken_floats_.count(var) != 0;
}

void Lowerer::find_assigned_parameters(const clang::FunctionDecl& function) {
  AssignmentFinder finder(assigned_parameters_);
  finder.TraverseStmt(function.getBody());
}

/// A local array initialised by a list of scalars (`int idx[4] = {3, 1, 2, 0}`): one store per
/// element (missing ones 0, as C++ value-initialises them), so that the model can follow the
/// array by value. Another initialiser of a local array is a write the model cannot place (the
/// array is then not followed). False for anything else.
bool Lowerer::local_array_initialised(const clang::VarDecl* var, const clang::Stmt* s, std::vector<ir::StmtId>& declared) {
  if (var->hasGlobalStorage() || var->hasAttr<clang::CUDASharedAttr>() || var->getInit() == nullptr ||
      pending_ == nullptr || quiet_ > 0)
    return false;
  const clang::ConstantArrayType* array = context_.getAsConstantArrayType(var->getType());
  if (array == nullptr) return false;
  const ir::SourceRange where = range(var->getSourceRange());
  const auto element = scalar_type(array->getElementType());
  const auto* list = llvm::dyn_cast<clang::InitListExpr>(var->getInit()->IgnoreParens());
  const std::uint64_t n = array->getSize().getZExtValue();
  if (!element || *element == ir::ScalarType::Bool || list == nullptr || n > 1024 || list->getNumInits() > n) {
    scan_work(var->getInit());
    ir::MemoryAccess a;
    a.kind = ir::AccessKind::Store;
    a.space = ir::AddressSpace::Local;
    a.text = var->getNameAsString();
    a.range = where;
    pending_->accesses.push_back(unplaced(a, "an initialiser the model does not split into stores"));
    declared.push_back(k_.work(text(s), where));
    return true;
  }
  const auto width = static_cast<std::uint32_t>(std::max(1, ir::bit_width(*element) / 8));
  const std::int32_t base = variable_base(var);
  for (std::uint64_t i = 0; i < n; ++i) {
    ir::MemoryAccess a;
    a.kind = ir::AccessKind::Store;
    a.space = ir::AddressSpace::Local;
    a.base = base;
    a.width = width;
    a.text = var->getNameAsString() + "[" + std::to_string(i) + "]";
    a.range = where;
    a.value = i < list->getNumInits() ? convert(lower_int(list->getInit(static_cast<unsigned>(i))), *element, where)
                                      : k_.constant(*element, 0, where);
    a.offset = offset_expr(Offset{ir::kNone, static_cast<std::int64_t>(i * width)}, where);
    a.guard = guard_expr(guards_, where);
    pending_->accesses.push_back(a);
  }
  declared.push_back(k_.work(text(s), where));
  return true;
}

/// A float or double parameter: read as itself, or (assigned in the body) through a local copy
/// declared first thing, as integer parameters are.
void Lowerer::bind_floating_parameter(const clang::ParmVarDecl* param, std::int32_t index) {
  if (address_taken_float(param)) return;  // read as an unmodelled value
  if (assigned_parameters_.count(param) == 0) {
    bindings_[param] = Binding{Binding::Param, index};
    return;
  }
  const ir::SourceRange where = range(param->getSourceRange());
  const ir::ExprId value = k_.param(index, where);
  const ir::LocalId local = k_.add_local(param->getNameAsString(), k_.exprs[value].type, where);
  bindings_[param] = Binding{Binding::Local, local};
  parameter_copies_.push_back(k_.declare(local, value, where));
}

/// Where a region's paths meet: "at the head of the for loop at line 7", "in the switch at ...".
std::string Lowerer::region_text(const char* what, const clang::Stmt* s) {
  return std::string(std::strcmp(what, "switch") == 0 ? "in the " : "at the head of the ") + what +
         " at line " + std::to_string(range(s).line);
}

ir::ExprId Lowerer::i64(std::int64_t value, ir::SourceRange where) {
  return k_.constant(ir::ScalarType::I64, value, where);
}

ir::ExprId Lowerer::offset_expr(const Offset& o, ir::SourceRange where) {
  if (o.expr == ir::kNone) return i64(o.constant, where);
  if (o.constant == 0) return o.expr;
  return k_.binary(ir::BinaryOp::Add, o.expr, i64(o.constant, where), where);
}

Lowerer::Offset Lowerer::add(Offset a, const Offset& b, ir::SourceRange where) {
  if (__builtin_add_overflow(a.constant, b.constant, &a.constant))
    throw Unplaced{"a constant offset past 2^63 bytes"};
  if (b.expr != ir::kNone)
    a.expr = a.expr == ir::kNone ? b.expr : k_.binary(ir::BinaryOp::Add, a.expr, b.expr, where);
  return a;
}

std::int64_t Lowerer::size_of(clang::QualType type, const clang::Expr* at) const {
  if (type->isIncompleteType() || type->isDependentType() || type->isFunctionType())
    throw Unplaced{"the size of " + type.getAsString() + " is not known"};
  (void)at;
  return context_.getTypeSizeInChars(type).getQuantity();
}

/// index * size in bytes, index an integer expression of the source.
Lowerer::Offset Lowerer::scaled(const clang::Expr* index, std::int64_t size, bool negate, ir::SourceRange where) {
  if (!scalar_type(index->getType())) throw Unplaced{"the index is not an integer"};
  if (index->HasSideEffects(context_))
    throw Unplaced{"the index '" + text(index) + "' has side effects"};
  clang::Expr::EvalResult constant;
  if (index->EvaluateAsInt(constant, context_)) {
    const llvm::APSInt v = constant.Val.getInt();
    if (v.getMinSignedBits() > 63) throw Unplaced{"the index is past 2^63"};
    std::int64_t bytes = 0;
    const std::int64_t value = v.isSigned() ? v.getExtValue() : static_cast<std::int64_t>(v.getZExtValue());
    if (__builtin_mul_overflow(value, size, &bytes) || (negate && bytes == INT64_MIN))
      throw Unplaced{"a constant offset past 2^63 bytes"};
    return Offset{ir::kNone, negate ? -bytes : bytes};
  }
  ir::ExprId e = k_.cast(ir::ScalarType::I64, lower_int(index), where);
  if (size != 1) e = k_.binary(ir::BinaryOp::Mul, e, i64(size, where), where);
  if (negate) e = k_.unary(ir::UnaryOp::Neg, e, where);
  return Offset{e, 0};
}

/// The base of a declared variable (a __shared__, __device__ or __constant__ variable, or a
/// local array), made on first use.
std::int32_t Lowerer::variable_base(const clang::VarDecl* var) {
  const auto found = variable_bases_.find(var);
  if (found != variable_bases_.end()) return found->second;
  ir::MemoryBase base;
  base.name = var->getNameAsString();
  if (var->hasAttr<clang::CUDASharedAttr>()) {
    base.space = ir::AddressSpace::Shared;
  } else if (var->hasAttr<clang::CUDAConstantAttr>()) {
    base.space = ir::AddressSpace::Constant;
  } else if (var->hasGlobalStorage()) {
    base.space = ir::AddressSpace::Global;
  } else {
    base.space = ir::AddressSpace::Local;
  }
  const clang::QualType type = var->getType();
  base.bytes = type->isIncompleteType() ? 0
                                        : static_cast<std::uint64_t>(
                                              context_.getTypeSizeInChars(type).getQuantity());
  base.alignment = static_cast<std::uint32_t>(context_.getDeclAlign(var).getQuantity());
  base.declared = range(var->getSourceRange());
  const std::int32_t id = k_.add_base(base);
  variable_bases_[var] = id;
  return id;
}

/// A kernel pointer parameter's buffer (256-byte aligned, as cudaMalloc returns it).
std::int32_t Lowerer::parameter_base(std::int32_t index, const clang::ParmVarDecl* param) {
  const auto found = parameter_bases_.find(index);
  if (found != parameter_bases_.end()) return found->second;
  ir::MemoryBase base;
  base.name = param->getNameAsString();
  base.space = ir::AddressSpace::Global;
  base.parameter = index;
  base.alignment = 256;
  base.declared = range(param->getSourceRange());
  const std::int32_t id = k_.add_base(base);
  parameter_bases_[index] = id;
  return id;
}

/// Where an lvalue of the source lives; throws Unplaced.
Lowerer::Address Lowerer::address_of(const clang::Expr* e) {
  e = e->IgnoreParens();
  const ir::SourceRange where = range(e);
  if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
    Address a = pointer_value(subscript->getBase());
    a.offset = add(a.offset, scaled(subscript->getIdx(), size_of(e->getType(), e), false, where), where);
    return a;
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e);
      op != nullptr && op->getOpcode() == clang::UO_Deref)
    return pointer_value(op->getSubExpr());
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
    const clang::ValueDecl* decl = member->getMemberDecl();
    const auto* field = llvm::dyn_cast<clang::FieldDecl>(decl);
    if (field != nullptr && field->isBitField()) throw Unplaced{"a bit-field"};
    if (field == nullptr && !llvm::isa<clang::IndirectFieldDecl>(decl))
      throw Unplaced{"a static member"};
    const clang::Expr* object = member->getBase();
    if (llvm::isa<clang::CXXThisExpr>(object->IgnoreParenImpCasts()))
      throw Unplaced{"a member of an object the model does not place ('this')"};
    Address a = member->isArrow() ? pointer_value(object) : address_of(object);
    a.offset.constant += static_cast<std::int64_t>(context_.getFieldOffset(decl) / 8);
    return a;
  }
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) {
    if (cast->getCastKind() == clang::CK_NoOp) return address_of(cast->getSubExpr());
    if (cast->getCastKind() == clang::CK_UncheckedDerivedToBase ||
        cast->getCastKind() == clang::CK_DerivedToBase) {
      Address a = address_of(cast->getSubExpr());
      a.offset.constant += base_class_offset(cast);
      return a;
    }
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr) throw Unplaced{"not a variable"};
    const auto bound = bindings_.find(var);
    if (bound != bindings_.end() && bound->second.kind == Binding::Memory)
      throw Unplaced{"reached through the reference '" + var->getNameAsString() + "'"};
    if (var->getType()->isReferenceType())
      throw Unplaced{"reached through the reference '" + var->getNameAsString() + "'"};
    if (!var->hasGlobalStorage() && !var->getType()->isArrayType())
      throw Unplaced{"'" + var->getNameAsString() + "' is a local variable, not memory"};
    return Address{variable_base(var), {}};
  }
  throw Unplaced{"the model does not follow '" + text(e) + "' to an address"};
}

std::int64_t Lowerer::base_class_offset(const clang::CastExpr* cast) const {
  std::int64_t offset = 0;
  const clang::CXXRecordDecl* derived =
      cast->getSubExpr()->getType()->getAsCXXRecordDecl();
  for (const clang::CXXBaseSpecifier* base : cast->path()) {
    if (base->isVirtual()) throw Unplaced{"a virtual base class"};
    const clang::CXXRecordDecl* parent = base->getType()->getAsCXXRecordDecl();
    if (derived == nullptr || parent == nullptr) throw Unplaced{"a base class"};
    offset += context_.getASTRecordLayout(derived).getBaseClassOffset(parent).getQuantity();
    derived = parent;
  }
  return offset;
}

/// The address a pointer-valued expression holds; throws Unplaced.
Lowerer::Address Lowerer::pointer_value(const clang::Expr* e) {
  e = e->IgnoreParens();
  const ir::SourceRange where = range(e);
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(e)) {
    switch (cast->getCastKind()) {
      case clang::CK_ArrayToPointerDecay: return address_of(cast->getSubExpr());
      case clang::CK_NoOp:
      case clang::CK_BitCast:
      case clang::CK_AddressSpaceConversion: return pointer_value(cast->getSubExpr());
      case clang::CK_LValueToRValue: {
        const clang::Expr* sub = cast->getSubExpr()->IgnoreParens();
        const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(sub);
        const auto* var = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
        if (var == nullptr)
          throw Unplaced{"the pointer '" + text(sub) + "' is read from memory"};
        const auto found = pointers_.find(var);
        if (found == pointers_.end()) {
          const auto why = unfollowed_pointers_.find(var);
          throw Unplaced{why != unfollowed_pointers_.end()
                             ? why->second
                             : "the model does not follow the pointer '" +
                                   var->getNameAsString() + "'"};
        }
        const PointerBinding& bound = found->second;
        if (!bound.lost.empty()) throw Unplaced{bound.lost};
        if (bound.base == ir::kNone)
          throw Unplaced{"the pointer '" + var->getNameAsString() + "' has no value here"};
        Address a{bound.base, {}};
        if (bound.offset != ir::kNone) a.offset.expr = k_.local(bound.offset, where);
        return a;
      }
      case clang::CK_NullToPointer: throw Unplaced{"a null pointer"};
      case clang::CK_IntegralToPointer: throw Unplaced{"a pointer made from an integer"};
      default: break;
    }
    if (llvm::isa<clang::ExplicitCastExpr>(cast) && cast->getSubExpr()->getType()->isPointerType())
      return pointer_value(cast->getSubExpr());
    throw Unplaced{"the model does not follow the pointer '" + text(e) + "'"};
  }
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(e)) {
    const clang::BinaryOperatorKind kind = op->getOpcode();
    if (kind == clang::BO_Add || kind == clang::BO_Sub) {
      const bool left = op->getLHS()->getType()->isPointerType();
      const clang::Expr* pointer = left ? op->getLHS() : op->getRHS();
      const clang::Expr* index = left ? op->getRHS() : op->getLHS();
      if (!index->getType()->isIntegerType()) throw Unplaced{"a pointer difference"};
      Address a = pointer_value(pointer);
      const std::int64_t size = size_of(pointer->getType()->getPointeeType(), e);
      a.offset = add(a.offset, scaled(index, size, kind == clang::BO_Sub, where), where);
      return a;
    }
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e);
      op != nullptr && op->getOpcode() == clang::UO_AddrOf)
    return address_of(op->getSubExpr());
  if (llvm::isa<clang::ConditionalOperator>(e) || llvm::isa<clang::BinaryConditionalOperator>(e))
    throw Unplaced{"the pointer is chosen by a condition"};
  if (llvm::isa<clang::CallExpr>(e)) throw Unplaced{"the pointer is returned by a call"};
  throw Unplaced{"the model does not follow the pointer '" + text(e) + "'"};
}

/// Whether an lvalue is memory the model counts accesses to (not a modelled local, a launch
/// built-in or a compile-time constant).
bool Lowerer::is_memory(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (!e->isGLValue() || dereferenced_local(e)) return false;
  if (llvm::isa<clang::ArraySubscriptExpr>(e)) return true;
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e))
    return op->getOpcode() == clang::UO_Deref;
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
    if (field_local(member)) return false;
    const clang::Expr* base = strip(member->getBase());
    if (launch_builtin(base, member->getMemberDecl()->getNameAsString())) return false;
    if (llvm::isa<clang::CXXThisExpr>(base))
      return this_stack_.empty() || this_stack_.back() == kUnknownObject;
    return member->isArrow() || is_memory(member->getBase());
  }
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(e))
    return cast->isGLValue() && is_memory(cast->getSubExpr());
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr) return false;
    const auto bound = bindings_.find(var);
    if (bound != bindings_.end()) return bound->second.kind == Binding::Memory;
    if (!var->hasGlobalStorage() || is_cuda_api(var)) return false;
    return var->hasAttr<clang::CUDASharedAttr>() || var->hasAttr<clang::CUDAConstantAttr>() ||
           var->hasAttr<clang::CUDADeviceAttr>();
  }
  return false;
}

/// The space an access the model cannot place is in, as far as the source tells.
ir::AddressSpace Lowerer::guessed_space(const clang::Expr* e) const {
  const std::string space = memory_space(e);
  if (space == "shared memory") return ir::AddressSpace::Shared;
  if (space == "constant memory") return ir::AddressSpace::Constant;
  if (space == "local array") return ir::AddressSpace::Local;
  return ir::AddressSpace::Global;
}

/// Records an access of `kind` to the lvalue `e` (or, with `pointer`, to what the pointer
/// expression `e` points to) in the statement being lowered. True when it was placed: its
/// address's subexpressions are then lowered (their own loads recorded) and need no scan.
/// `again`: the address was lowered before (the load of `a[i] += v`): loads inside it are
/// not recorded a second time.
/// `part`: only this member of the object (a copy moved member by member).
bool Lowerer::record_access(ir::AccessKind kind, const clang::Expr* e, bool pointer,
                   bool again, const Part* part) {
  if (pending_ == nullptr || quiet_ > 0) return false;
  const clang::QualType type = pointer ? e->getType()->getPointeeType() : e->getType();
  ir::MemoryAccess access;
  access.kind = kind;
  access.text = text(e) + (part != nullptr ? part->path : "");
  access.range = range(e);
  access.space = pointer ? ir::AddressSpace::Global : guessed_space(e);
  const std::size_t exprs = k_.exprs.size();
  const std::size_t pending = pending_->accesses.size();
  try {
    if (type->isIncompleteType() || type->isVoidType()) throw Unplaced{"an access of unknown size"};
    const std::int64_t width =
        part != nullptr ? part->width : context_.getTypeSizeInChars(type).getQuantity();
    access.width = static_cast<std::uint32_t>(width);
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
      throw Unplaced{"a " + std::to_string(width) +
                     "-byte object, which the compiler moves in several accesses"};
    std::optional<Quiet> quiet;
    if (again) quiet.emplace(*this);
    Address a = pointer ? pointer_value(e) : address_of(e);
    quiet.reset();
    if (part != nullptr) a.offset.constant += part->offset;
    access.base = a.base;
    access.space = k_.bases[a.base].space;
    access.offset = offset_expr(a.offset, access.range);
    access.guard = guard_expr(guards_, access.range);
  } catch (const Unplaced& why) {
    rollback(exprs, pending);
    access = unplaced(access, why.reason);
    pending_->accesses.push_back(access);
    return false;
  } catch (const InvalidInput& why) {
    rollback(exprs, pending);
    access = unplaced(access, std::string("its address is not an integer expression the model "
                                          "follows: ") + why.what());
    pending_->accesses.push_back(access);
    return false;
  }
  pending_->accesses.push_back(access);
  if (kind == ir::AccessKind::Load && part == nullptr) pending_->load_at[e] = pending_->accesses.size() - 1;
  return true;
}

/// A copy of a whole object from or to memory (`float4 v = p4[i]`, `qs[i] = q`): one access
/// when the object moves in one instruction (its size is its alignment: float2, float4,
/// int4, double2 ...), else one per scalar member at its offset, as nvcc moves a struct of
/// smaller alignment. True when placed.
bool Lowerer::record_object(ir::AccessKind kind, const clang::Expr* e) {
  if (pending_ == nullptr || quiet_ > 0) return false;
  if (moves_whole(e->getType())) return record_access(kind, e);
  std::vector<Part> parts;
  if (!members_of(e->getType(), 0, "", parts) || parts.size() > 64) {
    ir::MemoryAccess access;
    access.kind = kind;
    access.text = text(e);
    access.range = range(e);
    access.space = guessed_space(e);
    pending_->accesses.push_back(unplaced(
        access, "a copy of a " + e->getType().getAsString() + " the model does not split into accesses"));
    return false;
  }
  bool placed = true;
  for (std::size_t i = 0; i < parts.size(); ++i)
    placed = record_access(kind, e, false, /*again=*/i > 0, &parts[i]) && placed;
  return placed;
}

bool Lowerer::moves_whole(clang::QualType type) const {
  if (type->isIncompleteType()) return false;
  const std::int64_t size = context_.getTypeSizeInChars(type).getQuantity();
  const std::int64_t align = context_.getTypeAlignInChars(type).getQuantity();
  return size == align && (size == 1 || size == 2 || size == 4 || size == 8 || size == 16);
}

/// The scalar members (and whole-moving member objects) of `type` at `offset`, recursively;
/// false for what the model does not split (a union, a bit-field, a virtual base).
bool Lowerer::members_of(clang::QualType type, std::int64_t offset, const std::string& path,
                std::vector<Part>& out) const {
  if (type->isIncompleteType() || out.size() > 64) return false;
  if (type->isScalarType() || (type->isRecordType() && moves_whole(type) && !path.empty())) {
    out.push_back(Part{offset, context_.getTypeSizeInChars(type).getQuantity(), path});
    return true;
  }
  if (const auto* array = context_.getAsConstantArrayType(type)) {
    const std::int64_t stride = context_.getTypeSizeInChars(array->getElementType()).getQuantity();
    for (std::uint64_t i = 0; i < array->getSize().getZExtValue(); ++i)
      if (!members_of(array->getElementType(), offset + static_cast<std::int64_t>(i) * stride,
                      path + "[" + std::to_string(i) + "]", out))
        return false;
    return true;
  }
  const auto* record = type->getAsCXXRecordDecl();
  if (record == nullptr || !record->hasDefinition() || record->isUnion() ||
      record->getNumVBases() > 0)
    return false;
  record = record->getDefinition();
  const clang::ASTRecordLayout& layout = context_.getASTRecordLayout(record);
  for (const clang::CXXBaseSpecifier& base : record->bases()) {
    const clang::CXXRecordDecl* parent = base.getType()->getAsCXXRecordDecl();
    if (parent == nullptr ||
        !members_of(base.getType(), offset + layout.getBaseClassOffset(parent).getQuantity(), path, out))
      return false;
  }
  for (const clang::FieldDecl* field : record->fields()) {
    if (field->isBitField()) return false;
    const auto at = static_cast<std::int64_t>(layout.getFieldOffset(field->getFieldIndex()) / 8);
    if (!members_of(field->getType(), offset + at, path + "." + field->getNameAsString(), out))
      return false;
  }
  return true;
}

ir::MemoryAccess Lowerer::unplaced(ir::MemoryAccess access, const std::string& reason) {
  access.base = ir::kNone;
  access.offset = ir::kNone;
  access.guard = ir::kNone;
  access.reason = reason;
  if (access.width != 1 && access.width != 2 && access.width != 4 && access.width != 8 &&
      access.width != 16)
    access.width = 1;  // an object moved in several accesses: its width says nothing
  return access;
}

/// Forgets the expressions (and loads inside them) of an attempt that failed.
void Lowerer::rollback(std::size_t exprs, std::size_t pending) {
  k_.exprs.resize(exprs);
  if (pending_ == nullptr) return;
  pending_->accesses.resize(pending);
  auto& loads = pending_->loads;
  loads.erase(std::remove_if(loads.begin(), loads.end(),
                             [&](const auto& l) {
                               return static_cast<std::size_t>(l.first) >= exprs || l.second >= pending;
                             }),
              loads.end());
}

/// Gives the collected accesses their ids in statement `target` and links the loads whose
/// values are opaque expressions to them.
void Lowerer::carry_accesses(Pending& p, ir::StmtId target) {
  const auto first = static_cast<std::int32_t>(k_.accesses.size());
  for (ir::MemoryAccess& a : p.accesses) k_.stmts[target].accesses.push_back(k_.add_access(a));
  for (const auto& [expr, index] : p.loads) k_.exprs[expr].access = first + static_cast<std::int32_t>(index);
  p.accesses.clear();
  p.loads.clear();
}

/// The conjunction of the guards, lowered afresh (each access owns its expressions); kNone
/// without guards. Throws Unplaced when a condition cannot be lowered again.
ir::ExprId Lowerer::guard_expr(const std::vector<Guard>& guards, ir::SourceRange where) {
  ir::ExprId all = ir::kNone;
  const Quiet quiet(*this);  // the condition's own loads and flops were counted where it ran
  for (const Guard& g : guards) {
    if (g.condition->HasSideEffects(context_))
      throw Unplaced{"it is made only where '" + text(g.condition) +
                     "' holds, a condition with side effects"};
    ir::ExprId c = lower_int(g.condition);
    if (k_.exprs[c].type != ir::ScalarType::Bool) c = k_.cast(ir::ScalarType::Bool, c, where);
    if (!g.holds) c = k_.unary(ir::UnaryOp::LogicalNot, c, where);
    all = all == ir::kNone ? c : k_.logical(ir::LogicalOp::And, all, c, where);
  }
  return all;
}

/// Floating-point operations of one expression node, counted in the statement being lowered.
void Lowerer::count_flops(std::uint32_t operations) {
  if (pending_ == nullptr || quiet_ > 0 || operations == 0) return;
  pending_->flops.push_back(PendingFlops{operations, guards_});
}

/// add, sub, mul, div and their compound assignments, ++ and -- on a float: 1; fma: 2.
std::uint32_t Lowerer::float_operations(const clang::Stmt* s) {
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(s)) {
    const bool arithmetic = op->getOpcode() == clang::BO_Add || op->getOpcode() == clang::BO_Sub ||
                            op->getOpcode() == clang::BO_Mul || op->getOpcode() == clang::BO_Div ||
                            op->getOpcode() == clang::BO_AddAssign ||
                            op->getOpcode() == clang::BO_SubAssign ||
                            op->getOpcode() == clang::BO_MulAssign ||
                            op->getOpcode() == clang::BO_DivAssign;
    const clang::QualType type = llvm::isa<clang::CompoundAssignOperator>(op)
                                     ? llvm::cast<clang::CompoundAssignOperator>(op)->getComputationResultType()
                                     : op->getType();
    return arithmetic && type->isRealFloatingType() ? 1 : 0;
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(s))
    return op->isIncrementDecrementOp() && op->getType()->isRealFloatingType() ? 1 : 0;
  return 0;
}

/// Moves the statement's floating-point operations into `target`, each group with the guard
/// of its lanes.
void Lowerer::carry_flops(Pending& p, ir::StmtId target, const clang::Stmt* s) {
  std::uint32_t unguarded = 0;
  for (const PendingFlops& f : p.flops) {
    if (f.guards.empty()) {
      unguarded += f.operations;
      continue;
    }
    const std::size_t exprs = k_.exprs.size();
    try {
      const ir::ExprId guard = guard_expr(f.guards, range(s));
      k_.stmts[target].flops.push_back(ir::FloatOps{f.operations, guard});
    } catch (const Unplaced& why) {
      k_.exprs.resize(exprs);
      k_.stmts[target].flops_not_counted = why.reason;
    } catch (const InvalidInput& why) {
      k_.exprs.resize(exprs);
      k_.stmts[target].flops_not_counted = why.what();
    }
  }
  if (unguarded != 0) {
    auto& flops = k_.stmts[target].flops;
    flops.insert(flops.begin(), ir::FloatOps{unguarded, ir::kNone});
  }
}

/// Moves what the statement collected into `id` (a Declare, Assign, Work or Return); for
/// another statement, into a Work statement placed before it.
ir::StmtId Lowerer::attach(Pending& p, ir::StmtId id, const clang::Stmt* s) {
  if (p.accesses.empty() && p.flops.empty()) return id;
  const auto carries = [&](ir::StmtId at) {
    const ir::StmtKind kind = k_.stmts[at].kind;
    return kind == ir::StmtKind::Declare || kind == ir::StmtKind::Assign ||
           kind == ir::StmtKind::Work || kind == ir::StmtKind::Return;
  };
  // A condition's loads and floating-point operations run at each evaluation of it: the
  // statement carries them (an if's loads were carried link by link in lower_if).
  const bool condition = id != ir::kNone && (k_.stmts[id].kind == ir::StmtKind::If ||
                                             k_.stmts[id].kind == ir::StmtKind::Loop ||
                                             k_.stmts[id].kind == ir::StmtKind::Switch);
  ir::StmtId target = id;
  if (!condition && (id == ir::kNone || !carries(id))) target = k_.work(text(s), range(s));
  if (!condition || k_.stmts[id].kind != ir::StmtKind::If) carry_accesses(p, target);
  carry_flops(p, target, s);
  if (target == id) return id;
  if (id == ir::kNone) return target;
  if (k_.stmts[id].kind == ir::StmtKind::Block) {
    auto& children = k_.stmts[id].children;
    children.insert(children.begin(), target);
    return id;
  }
  return k_.block({target, id}, range(s));
}

/// `lvalue op= v`, `lvalue = v`, `++lvalue` ...: a load (when `load`) and a store of one
/// address; the loads inside the address are recorded once. True when placed.
bool Lowerer::load_and_store(const clang::Expr* lvalue, bool load) {
  if (pending_ == nullptr || quiet_ > 0) return false;
  if (load && !record_access(ir::AccessKind::Load, lvalue)) {
    record_unplaced(ir::AccessKind::Store, lvalue);
    return false;
  }
  return record_access(ir::AccessKind::Store, lvalue, false, /*again=*/load);
}

/// `a[i] = v` where v is a scalar expression the model holds: the store's value (converted to
/// the element's type, as the assignment converts it), lowered once more without recording
/// its loads or flops (scan_work did) and without calls (they would run twice). Anything the
/// model does not hold leaves the value unknown.
void Lowerer::stored_value(const clang::BinaryOperator* op, std::size_t store) {
  const auto type = scalar_type(op->getLHS()->getType());
  if (!type || *type == ir::ScalarType::Bool || pending_->accesses[store].kind != ir::AccessKind::Store ||
      pending_->accesses[store].width != static_cast<std::uint32_t>(ir::bit_width(*type) / 8))
    return;
  if (const auto value = lowered_again(op->getRHS(), *type, "a stored value"))
    pending_->accesses[store].value = *value;
}

/// atomicAdd / Sub / Min / Max / And / Or / Xor / Exch / CAS / Inc / Dec (and their _block,
/// _system forms) on a scalar element: the operation and its operand (a CAS's compared value
/// too), as PTX's atom has them: add and exch also on float and double, inc and dec on
/// unsigned int. The replay runs them in its documented order (sim/ir.hpp AtomicOp); others,
/// or an operand the model does not hold, stay Other.
void Lowerer::atomic_operand(const clang::CallExpr* call, const clang::FunctionDecl* callee, std::size_t access) {
  static const std::map<std::string, ir::AtomicOp> ops = {
      {"atomicAdd", ir::AtomicOp::Add},   {"atomicSub", ir::AtomicOp::Sub}, {"atomicMin", ir::AtomicOp::Min},
      {"atomicMax", ir::AtomicOp::Max},   {"atomicAnd", ir::AtomicOp::And}, {"atomicOr", ir::AtomicOp::Or},
      {"atomicXor", ir::AtomicOp::Xor},   {"atomicExch", ir::AtomicOp::Exch}, {"atomicCAS", ir::AtomicOp::Cas},
      {"atomicInc", ir::AtomicOp::Inc},   {"atomicDec", ir::AtomicOp::Dec}};
  std::string name = callee->getNameAsString();
  for (const std::string scope : {"_block", "_system"})
    if (name.size() > scope.size() && name.compare(name.size() - scope.size(), std::string::npos, scope) == 0)
      name.resize(name.size() - scope.size());
  const auto found = ops.find(name);
  const auto type = scalar_type(call->getArg(0)->getType()->getPointeeType());
  if (found == ops.end() || !type || *type == ir::ScalarType::Bool ||
      pending_->accesses[access].width != static_cast<std::uint32_t>(ir::bit_width(*type) / 8))
    return;
  const ir::AtomicOp op = found->second;
  const unsigned operands = op == ir::AtomicOp::Cas ? 3 : 2;
  if (call->getNumArgs() != operands || (ir::is_floating(*type) && op != ir::AtomicOp::Add && op != ir::AtomicOp::Exch) ||
      ((op == ir::AtomicOp::Inc || op == ir::AtomicOp::Dec) && *type != ir::ScalarType::U32))
    return;
  const std::size_t exprs = k_.exprs.size();
  const std::size_t loads = pending_->loads.size();
  std::optional<ir::ExprId> compare;
  if (op == ir::AtomicOp::Cas && !(compare = lowered_again(call->getArg(1), *type, "a CAS's compared value")))
    return;
  if (const auto value = lowered_again(call->getArg(operands - 1), *type, "an atomic's operand")) {
    pending_->accesses[access].value = *value;
    if (compare) pending_->accesses[access].compare = *compare;
    pending_->accesses[access].atomic = op;
    return;
  }
  k_.exprs.resize(exprs);  // the compared value's expressions, unused
  pending_->loads.resize(loads);
}

/// `e`, already scanned as work, lowered once more as a value of `type` without recording its
/// loads or flops again and without calls (they would run twice); nullopt, and nothing added
/// to the model, where the model does not hold it.
std::optional<ir::ExprId> Lowerer::lowered_again(const clang::Expr* e, ir::ScalarType type, const char* what) {
  if (calls_code(e)) return std::nullopt;
  const std::size_t exprs = k_.exprs.size();
  const std::size_t loads = pending_->loads.size();
  try {
    const Quiet quiet(*this);
    NoHoist no_hoist(*this, what);
    return convert(lower_int(e), type, range(e));
  } catch (const InvalidInput&) {
  } catch (const Unplaced&) {
  }
  k_.exprs.resize(exprs);
  pending_->loads.resize(loads);
  return std::nullopt;
}

/// `a[i] op= v`, `a[i]++` ...: the value the store writes, from the element the load before
/// it read (load `store - 1`), as for a local (assigned_value, incremented); unknown where the
/// model does not hold it.
void Lowerer::updated_value(const clang::Expr* op, std::size_t store) {
  const clang::Expr* target = nullptr;
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(op)) target = b->getLHS();
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(op)) target = u->getSubExpr();
  const auto type = scalar_type(target->getType());
  if (store == 0 || !type || *type == ir::ScalarType::Bool ||
      pending_->accesses[store].kind != ir::AccessKind::Store ||
      pending_->accesses[store - 1].kind != ir::AccessKind::Load ||
      pending_->accesses[store].width != static_cast<std::uint32_t>(ir::bit_width(*type) / 8))
    return;
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(op); b != nullptr && calls_code(b->getRHS())) return;
  const std::size_t exprs = k_.exprs.size();
  const std::size_t loads = pending_->loads.size();
  try {
    const Quiet quiet(*this);
    NoHoist no_hoist(*this, "a stored value");
    const ir::ExprId old = k_.opaque(*type, describe(target), range(target));
    link_load(old, store - 1, target->getType());
    if (pending_->loads.size() == loads) throw InvalidInput("the element is not loaded whole");
    ir::ExprId value = ir::kNone;
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(op)) value = assigned_value(b, old, *type);
    else value = incremented(llvm::cast<clang::UnaryOperator>(op), old, *type);
    pending_->accesses[store].value = value;
    return;
  } catch (const InvalidInput&) {
  } catch (const Unplaced&) {
  }
  k_.exprs.resize(exprs);
  pending_->loads.resize(loads);
}

/// Whether `s` calls a function the model would inline, or constructs an object.
bool Lowerer::calls_code(const clang::Stmt* s) const {
  if (s == nullptr) return false;
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s)) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr || inlinable(callee)) return true;
  }
  if (llvm::isa<clang::CXXConstructExpr>(s) || llvm::isa<clang::LambdaExpr>(s)) return true;
  for (const clang::Stmt* child : s->children())
    if (calls_code(child)) return true;
  return false;
}

/// The store half of an access whose load could not be placed: the same reason.
void Lowerer::record_unplaced(ir::AccessKind kind, const clang::Expr* lvalue) {
  (void)lvalue;
  ir::MemoryAccess copy = pending_->accesses.back();
  copy.kind = kind;
  pending_->accesses.push_back(copy);
}

/// Its store (when `a` is memory) and the load of `b` (when `b` is memory).
void Lowerer::object_store(const clang::CallExpr* call) {
  const clang::Expr* target = call->getArg(0);
  const clang::Expr* source = call->getArg(1);
  if (!(is_memory(target) && record_object(ir::AccessKind::Store, target))) scan_work(target);
  if (!(is_memory(source) && record_object(ir::AccessKind::Load, source))) scan_work(source);
}

/// The pointer variable an lvalue names (p, (p)), or null.
const clang::VarDecl* Lowerer::pointer_variable(const clang::Expr* e) {
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto* var = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var != nullptr && var->getType()->isPointerType() ? var : nullptr;
}

/// Finds, once per function, the pointer variables changed other than by a statement of its
/// own `p = q + k`, `p += k`, `p -= k`, `++p`, `p++`, `--p`, `p--` (or whose address is taken):
/// the model does not follow those (unfollowed_pointers_ says why).
void Lowerer::scan_pointer_writes(const clang::FunctionDecl* function) {
  if (function == nullptr || !pointer_writes_scanned_.insert(function).second) return;
  const clang::FunctionDecl* definition = nullptr;
  if (!function->hasBody(definition)) return;
  std::function<void(const clang::Stmt*, bool)> walk = [&](const clang::Stmt* s, bool statement) {
    if (s == nullptr) return;
    const clang::VarDecl* target = nullptr;
    bool followed = false;
    if (const auto* e = llvm::dyn_cast<clang::Expr>(s)) {
      const clang::Expr* bare = e->IgnoreParens();
      if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(bare); op && op->isAssignmentOp()) {
        target = pointer_variable(op->getLHS());
        const auto kind = op->getOpcode();
        followed = statement && target != nullptr &&
                   (kind == clang::BO_Assign || kind == clang::BO_AddAssign ||
                    kind == clang::BO_SubAssign);
      } else if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(bare)) {
        if (unary->isIncrementDecrementOp()) {
          target = pointer_variable(unary->getSubExpr());
          followed = statement;
        } else if (unary->getOpcode() == clang::UO_AddrOf) {
          target = pointer_variable(unary->getSubExpr());
        }
      }
    }
    if (target != nullptr && !followed && unfollowed_pointers_.count(target) == 0)
      unfollowed_pointers_[target] =
          "the pointer '" + target->getNameAsString() + "' is changed by '" +
          text(llvm::cast<clang::Expr>(s)) +
          "' (the model follows a pointer changed only by statements of their own: p = q + k, "
          "p += k, p -= k, ++p, p++)";
    const bool comma = statement && llvm::isa<clang::BinaryOperator>(s) &&
                       llvm::cast<clang::BinaryOperator>(s)->getOpcode() == clang::BO_Comma;
    for (const clang::Stmt* child : s->children()) {
      bool child_statement = llvm::isa<clang::CompoundStmt>(s) || comma;
      if (const auto* loop = llvm::dyn_cast<clang::ForStmt>(s))
        child_statement = child == loop->getInc() || child == loop->getBody() || child == loop->getInit();
      if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(s))
        child_statement = child == branch->getThen() || child == branch->getElse() ||
                          child == branch->getInit();
      if (const auto* loop = llvm::dyn_cast<clang::WhileStmt>(s)) child_statement = child == loop->getBody();
      if (const auto* loop = llvm::dyn_cast<clang::DoStmt>(s)) child_statement = child == loop->getBody();
      if (const auto* sw = llvm::dyn_cast<clang::SwitchStmt>(s)) child_statement = child == sw->getBody();
      if (llvm::isa<clang::CaseStmt>(s) || llvm::isa<clang::DefaultStmt>(s) ||
          llvm::isa<clang::AttributedStmt>(s))
        child_statement = true;
      walk(child, child_statement);
    }
  };
  walk(definition->getBody(), true);
}

/// A kernel's pointer parameter: its buffer; an offset local (declared 0 first thing) when the
/// body moves it.
void Lowerer::bind_parameter_pointer(std::int32_t index, const clang::ParmVarDecl* param) {
  if (!followed_pointer(param)) return;
  const std::int32_t base = parameter_base(index, param);
  bool moved = false;
  std::function<void(const clang::Stmt*)> find = [&](const clang::Stmt* s) {
    if (s == nullptr || moved) return;
    const clang::VarDecl* target = nullptr;
    if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(s); op && op->isAssignmentOp())
      target = pointer_variable(op->getLHS());
    if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(s); op && op->isIncrementDecrementOp())
      target = pointer_variable(op->getSubExpr());
    if (target == param) moved = true;
    for (const clang::Stmt* child : s->children()) find(child);
  };
  const auto* function = llvm::cast<clang::FunctionDecl>(param->getDeclContext());
  const clang::FunctionDecl* definition = nullptr;
  if (function->hasBody(definition)) find(definition->getBody());
  if (!moved) {
    pointers_[param] = PointerBinding{base, ir::kNone, ""};
    return;
  }
  const ir::SourceRange where = range(param->getSourceRange());
  const ir::LocalId local = k_.add_local(param->getNameAsString(), ir::ScalarType::I64, where);
  parameter_copies_.push_back(k_.declare(local, i64(0, where), where));
  pointers_[param] = PointerBinding{base, local, ""};
}

/// Whether the model follows the pointer variable (the function declaring it is scanned first).
bool Lowerer::followed_pointer(const clang::VarDecl* var) {
  const auto* function =
      llvm::dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod());
  scan_pointer_writes(function);
  return unfollowed_pointers_.count(var) == 0;
}

/// `into` joined with `other` where two paths meet (`where`: "after the if at line 7").
void Lowerer::join_pointers(PointerState& into, const PointerState& other, const std::string& where) const {
  for (const auto& [var, b] : other) {
    const auto found = into.find(var);
    if (found == into.end()) {
      into.emplace(var, b);
      continue;
    }
    PointerBinding& a = found->second;
    if (!a.lost.empty() || b.base == ir::kNone || a.base == b.base) continue;
    if (!b.lost.empty()) a.lost = b.lost;
    else if (a.base == ir::kNone) a.base = b.base;
    else
      a.lost = "the pointer '" + var->getNameAsString() + "' points into '" +
               k_.bases[a.base].name + "' on one path and into '" + k_.bases[b.base].name +
               "' on another, which meet " + where;
  }
}

/// The buffer a pointer expression points into, as a binding (its offset not made): base
/// kNone with `lost` set where the model cannot tell.
Lowerer::PointerBinding Lowerer::pointer_root(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(e)) {
    if (cast->getCastKind() == clang::CK_ArrayToPointerDecay) return lvalue_root(cast->getSubExpr());
    if (cast->getCastKind() == clang::CK_LValueToRValue) {
      const clang::VarDecl* var = pointer_variable(cast->getSubExpr());
      const auto found = var != nullptr ? pointers_.find(var) : pointers_.end();
      if (found != pointers_.end()) return found->second;
    } else if (cast->getSubExpr()->getType()->isPointerType()) {
      return pointer_root(cast->getSubExpr());
    }
  } else if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(e);
             op != nullptr && (op->getOpcode() == clang::BO_Add || op->getOpcode() == clang::BO_Sub)) {
    return pointer_root(op->getLHS()->getType()->isPointerType() ? op->getLHS() : op->getRHS());
  } else if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(e);
             unary != nullptr && unary->getOpcode() == clang::UO_AddrOf) {
    return lvalue_root(unary->getSubExpr());
  }
  return PointerBinding{ir::kNone, ir::kNone, "the model does not follow '" + text(e) + "'"};
}

Lowerer::PointerBinding Lowerer::lvalue_root(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e))
    return pointer_root(subscript->getBase());
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e))
    return member->isArrow() ? pointer_root(member->getBase()) : lvalue_root(member->getBase());
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(e);
      unary != nullptr && unary->getOpcode() == clang::UO_Deref)
    return pointer_root(unary->getSubExpr());
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e);
  const auto* var = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (var != nullptr && (var->hasGlobalStorage() || var->getType()->isArrayType()) &&
      !var->getType()->isReferenceType() && bindings_.count(var) == 0)
    return PointerBinding{variable_base(var), ir::kNone, ""};
  return PointerBinding{ir::kNone, ir::kNone, "the model does not follow '" + text(e) + "'"};
}

/// The pointer values a region (a loop's parts, a switch's body) gives: (variable, value)
/// for each declaration with a value and each assignment `p = ...` as a statement.
void Lowerer::pointer_definitions(const clang::Stmt* s,
                         std::vector<std::pair<const clang::VarDecl*, const clang::Expr*>>& out) {
  if (s == nullptr) return;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(s);
      op != nullptr && op->getOpcode() == clang::BO_Assign) {
    if (const clang::VarDecl* var = pointer_variable(op->getLHS())) out.emplace_back(var, op->getRHS());
  }
  if (const auto* decls = llvm::dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl* d : decls->decls())
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(d);
          var != nullptr && var->getType()->isPointerType() && var->getInit() != nullptr)
        out.emplace_back(var, var->getInit());
  }
  for (const clang::Stmt* child : s->children()) pointer_definitions(child, out);
}

/// Sets the followed pointers to their values at the head of a region of `parts` entered at
/// `where`: the values before joined with those its definitions may give, to a fixed point.
void Lowerer::enter_region(std::initializer_list<const clang::Stmt*> parts, const std::string& where) {
  std::vector<std::pair<const clang::VarDecl*, const clang::Expr*>> definitions;
  for (const clang::Stmt* part : parts) pointer_definitions(part, definitions);
  std::vector<const clang::VarDecl*> inner;  // declared in the region: bound by their declaration
  for (const auto& definition : definitions)
    if (pointers_.count(definition.first) == 0 && followed_pointer(definition.first)) {
      pointers_[definition.first] = PointerBinding{};
      inner.push_back(definition.first);
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [var, value] : definitions) {
      const auto found = pointers_.find(var);
      if (found == pointers_.end()) continue;
      const PointerBinding before = found->second;
      PointerBinding given = pointer_root(value);
      if (!given.lost.empty())
        given.lost = lost_value(var, text(value), given.lost);
      PointerState into{{var, before}};
      join_pointers(into, PointerState{{var, given}}, where);
      const PointerBinding& after = into.at(var);
      changed |= after.base != before.base || after.lost != before.lost;
      pointers_[var].base = after.base;
      pointers_[var].lost = after.lost;
    }
  }
  for (const clang::VarDecl* var : inner) pointers_.erase(var);
}

/// The address a pointer expression holds, or nullopt with `why` set (the expressions and
/// accesses made on the way rolled back).
std::optional<Lowerer::Address> Lowerer::try_pointer_value(const clang::Expr* e, std::string& why) {
  const std::size_t exprs = k_.exprs.size();
  const std::size_t pending = pending_ != nullptr ? pending_->accesses.size() : 0;
  try {
    return pointer_value(e);
  } catch (const Unplaced& unplaced) {
    why = unplaced.reason;
  } catch (const InvalidInput&) {
    why = "the model does not follow it";
  }
  rollback(exprs, pending);
  return std::nullopt;
}

std::string Lowerer::lost_value(const clang::VarDecl* var, const std::string& value,
                              const std::string& why) {
  return "the pointer '" + var->getNameAsString() + "' is set to '" + value + "': " + why;
}

/// Binds a pointer variable to the address `init` holds (an int64 local `name` holding its
/// offset, declared in `out`; no value yet without `init`). False when the model cannot follow
/// the value (the binding then keeps why, until an assignment it can follow).
bool Lowerer::bind_pointer(const clang::VarDecl* var, const clang::Expr* init, ir::SourceRange where,
                  std::vector<ir::StmtId>& out) {
  pointers_.erase(var);
  if (!followed_pointer(var)) return false;
  const ir::LocalId local = k_.add_local(var->getNameAsString(), ir::ScalarType::I64, where);
  std::string why;
  const std::optional<Address> a =
      init != nullptr ? try_pointer_value(init, why) : std::optional<Address>();
  out.push_back(k_.declare(local, a ? offset_expr(a->offset, where) : ir::kNone, where));
  pointers_[var] = PointerBinding{a ? a->base : ir::kNone, local,
                                  a || init == nullptr ? "" : lost_value(var, text(init), why)};
  return a.has_value() || init == nullptr;
}

/// `p = q + k`, `p += k`, `p -= k`, `++p`, `p++`, `--p`, `p--` for a followed pointer: the
/// assignment of its offset local (an assignment moves the pointer to q's buffer); opaque work
/// where the model cannot follow the new value (the pointer is then lost until set again);
/// nullopt for anything else.
std::optional<ir::StmtId> Lowerer::pointer_update(const clang::Expr* e) {
  const clang::VarDecl* var = nullptr;
  const clang::Expr* amount = nullptr;
  bool negate = false;
  std::int64_t step = 0;
  const clang::Expr* assigned = nullptr;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(e); op && op->isAssignmentOp()) {
    var = pointer_variable(op->getLHS());
    if (op->getOpcode() == clang::BO_AddAssign || op->getOpcode() == clang::BO_SubAssign) {
      amount = op->getRHS();
      negate = op->getOpcode() == clang::BO_SubAssign;
    } else if (op->getOpcode() == clang::BO_Assign) {
      assigned = op->getRHS();
    }
  } else if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(e);
             unary && unary->isIncrementDecrementOp()) {
    var = pointer_variable(unary->getSubExpr());
    step = unary->isIncrementOp() ? 1 : -1;
  }
  if (var == nullptr) return std::nullopt;
  const auto found = pointers_.find(var);
  if (found == pointers_.end() || found->second.offset == ir::kNone) return std::nullopt;
  PointerBinding& bound = found->second;
  const ir::SourceRange where = range(e);
  std::string why;
  if (assigned != nullptr) {
    if (const auto a = try_pointer_value(assigned, why)) {
      bound.base = a->base;
      bound.lost.clear();
      return k_.assign(bound.offset, offset_expr(a->offset, where), where);
    }
    bound.lost = lost_value(var, text(assigned), why);
  } else if (bound.lost.empty() && bound.base == ir::kNone) {
    bound.lost = "the pointer '" + var->getNameAsString() + "' is moved by '" + text(e) +
                 "' before it has a value";
  } else if (bound.lost.empty()) {
    const std::size_t exprs = k_.exprs.size();
    const std::size_t pending = pending_ != nullptr ? pending_->accesses.size() : 0;
    try {
      const std::int64_t size = size_of(var->getType()->getPointeeType(), e);
      const Offset change = amount != nullptr ? scaled(amount, size, negate, where)
                                              : Offset{ir::kNone, step * size};
      const Offset now = add(Offset{k_.local(bound.offset, where), 0}, change, where);
      return k_.assign(bound.offset, offset_expr(now, where), where);
    } catch (const Unplaced& unplaced) {
      rollback(exprs, pending);
      bound.lost = "the pointer '" + var->getNameAsString() + "' is moved by '" + text(e) +
                   "': " + unplaced.reason;
    }
  }
  scan_work(e);
  return k_.work(text(e), where);
}

/// Where an lvalue lives: "global memory", "shared memory", "constant memory", "local array" ...
std::string Lowerer::memory_space(const clang::Expr* e) const {
  const clang::Expr* base = strip(e);
  while (true) {
    if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(base)) {
      base = strip(subscript->getBase());
    } else if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(base)) {
      base = strip(member->getBase());
    } else if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(base);
               op != nullptr && op->getOpcode() == clang::UO_Deref) {
      base = strip(op->getSubExpr());
    } else if (const auto* arith = llvm::dyn_cast<clang::BinaryOperator>(base);
               arith != nullptr && arith->getType()->isPointerType()) {
      base =
          strip(arith->getLHS()->getType()->isPointerType() ? arith->getLHS() : arith->getRHS());
    } else {
      break;
    }
  }
  const clang::VarDecl* var = named_variable(base);
  if (var == nullptr) return "memory";
  if (var->hasAttr<clang::CUDASharedAttr>()) return "shared memory";
  if (var->hasAttr<clang::CUDAConstantAttr>()) return "constant memory";
  if (var->hasGlobalStorage()) return "global memory";
  if (llvm::isa<clang::ParmVarDecl>(var) && var->getType()->isPointerType()) {
    const bool kernel_parameter = var->getDeclContext() == call_stack_.front();
    return kernel_parameter ? "global memory" : "memory";
  }
  if (var->getType()->isArrayType()) return "local array";
  if (var->getType()->isPointerType()) return "memory";
  if (llvm::isa<clang::ParmVarDecl>(var)) return "parameter";
  if (var->getType()->isRecordType() && trackable(var->getType()) == nullptr)
    return "a local object the model does not follow member by member (a union, bit-fields or "
           "virtual functions)";
  if (var->getType()->isRecordType()) return "a member the model does not compute";
  return "local variable";
}

/// What an opaque expression is, for messages: "A[i] (global memory)", "x > 0.5f (floating
/// point)", "atomicAdd(&n, 1) (atomic result)".
std::string Lowerer::describe(const clang::Expr* e) const {
  const clang::Expr* bare = strip(e);
  std::string what;
  if (llvm::isa<clang::ArraySubscriptExpr>(bare) || llvm::isa<clang::MemberExpr>(bare) ||
      (llvm::isa<clang::UnaryOperator>(bare) &&
       llvm::cast<clang::UnaryOperator>(bare)->getOpcode() == clang::UO_Deref)) {
    what = memory_space(bare);
  } else if (const auto* call = llvm::dyn_cast<clang::CallExpr>(bare)) {
    const auto* callee = call->getDirectCallee();
    const std::string name = callee != nullptr ? callee->getNameAsString() : "";
    const bool builtin = callee != nullptr && is_cuda_api(callee);
    if (name.rfind("atomic", 0) == 0) {
      what = "atomic result";
    } else if (builtin && name.rfind("tex", 0) == 0) {
      what = "texture memory";  // tex1Dfetch, tex2D ...: a load whose value the model lacks
    } else if (builtin && name.rfind("surf", 0) == 0) {
      what = "surface memory";
    } else {
      what = "result of " + name;
    }
  } else if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(bare)) {
    const clang::QualType operand = op->getLHS()->IgnoreParenImpCasts()->getType();
    what = operand->isRealFloatingType() ||
                   op->getRHS()->IgnoreParenImpCasts()->getType()->isRealFloatingType()
               ? "floating point"
           : operand->isPointerType() ? "pointer"
                                      : "unmodelled value";
  } else if (bare->getType()->isRealFloatingType()) {
    what = "floating point";
  } else if (bare->getType()->isPointerType()) {
    what = "pointer";
  } else if (const clang::VarDecl* var = named_variable(bare);
             var != nullptr && var->hasGlobalStorage()) {
    what = memory_space(bare);
  } else {
    what = "unmodelled value";
  }
  return text(e) + " (" + what + ")";
}

/// An Opaque value of `type` for `e` (its description) at `at`'s range (e's by default).
ir::ExprId Lowerer::opaque(const clang::Expr* e, ir::ScalarType type, const clang::Expr* at) {
  if (quiet_ > 0 && pending_ != nullptr && is_memory(e)) {  // lowered again: the load recorded before
    const ir::ExprId id = k_.opaque(type, describe(e), range(at != nullptr ? at : e));
    const auto found = pending_->load_at.find(e);
    if (found != pending_->load_at.end()) link_load(id, found->second, e->getType());
    return id;
  }
  const bool load = is_memory(e) && record_access(ir::AccessKind::Load, e);
  if (!load) scan_work(e);
  const ir::ExprId id = k_.opaque(type, describe(e), range(at != nullptr ? at : e));
  if (!load && pending_ != nullptr) {  // __ldg(p), atomicAdd(p, v) ...: the access it made
    const auto found = pending_->intrinsic_at.find(strip(e));
    if (found != pending_->intrinsic_at.end()) link_load(id, found->second, e->getType());
    return id;
  }
  // The value is the loaded element itself when its type is `type` and the access moves it whole.
  if (load && scalar_type(e->getType()) == type &&
      pending_->accesses.back().width == static_cast<std::uint32_t>(std::max(1, ir::bit_width(type) / 8)))
    pending_->loads.emplace_back(id, pending_->accesses.size() - 1);
  return id;
}

/// Links the opaque value `id` to load `index` of the statement when the load moves the value
/// whole (its type is the expression's, `type`).
/// Also an atomic's value (the element before it) where the model has its operation.
void Lowerer::link_load(ir::ExprId id, std::size_t index, clang::QualType type) {
  const ir::MemoryAccess& a = pending_->accesses[index];
  const bool atomic = a.kind == ir::AccessKind::Atomic && a.atomic != ir::AtomicOp::Other && a.value != ir::kNone;
  if ((a.kind == ir::AccessKind::Load || atomic) && scalar_type(type) == k_.exprs[id].type &&
      a.width == static_cast<std::uint32_t>(std::max(1, ir::bit_width(k_.exprs[id].type) / 8)))
    pending_->loads.emplace_back(id, index);
}

/// Checks an expression the model does not evaluate (work, or an opaque value): it must not
/// change a modelled local or take its address, nor hide a barrier; calls of __device__
/// functions in it are inlined before the statement.
void Lowerer::scan_work(const clang::Stmt* s) {
  if (s == nullptr) return;
  const Deeper deeper(*this, s);
  if (const auto* e = llvm::dyn_cast<clang::Expr>(s); e != nullptr && dereferenced_local(e))
    return;  // *p read where p points to a local: the model knows it
  count_flops(float_operations(s));
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(s);
      cast != nullptr && cast->getCastKind() == clang::CK_LValueToRValue &&
      is_memory(cast->getSubExpr())) {  // a load
    if (!record_access(ir::AccessKind::Load, cast->getSubExpr())) scan_work(cast->getSubExpr());
    return;
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(s)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var != nullptr && pointer_targets_.count(var) != 0)
      refuse(s, "the pointer '" + var->getNameAsString() +
                    "' to a local is used other than as *" + var->getNameAsString() + " or " +
                    var->getNameAsString() + "[0]: not supported (the model could not follow "
                    "writes through it)");
  }
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(s)) {
    if (op->isAssignmentOp() && bound_local(op->getLHS()) &&
        defer(op, *bound_local(op->getLHS()), /*assignment=*/true))
      return;
    if (op->isAssignmentOp() && bound_local(op->getLHS()))
      refuse(op,
             "'" + text(op) + "' changes the local '" + text(op->getLHS()) +
                 "' inside a larger expression: not supported (write it as its own statement)");
    if (op->isAssignmentOp() && is_memory(op->getLHS())) {  // a store (a load first for op=)
      const bool placed = load_and_store(op->getLHS(), op->isCompoundAssignmentOp());
      if (!placed) scan_work(op->getLHS());
      const std::size_t store = placed ? pending_->accesses.size() - 1 : 0;
      scan_work(op->getRHS());
      if (placed && op->getOpcode() == clang::BO_Assign) stored_value(op, store);
      if (placed && op->isCompoundAssignmentOp()) updated_value(op, store);
      return;
    }
    if (op->isLogicalOp()) {
      scan_work(op->getLHS());
      NoHoist no_hoist(*this, "the right operand of && or ||");
      const GuardScope guard(*this, op->getLHS(), op->getOpcode() == clang::BO_LAnd);
      scan_work(op->getRHS());
      return;
    }
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(s)) {
    if (op->isIncrementDecrementOp() && bound_local(op->getSubExpr()) &&
        defer(op, *bound_local(op->getSubExpr()), /*assignment=*/false))
      return;
    if (op->isIncrementDecrementOp() && bound_local(op->getSubExpr()))
      refuse(op, "'" + text(op) +
                     "' changes a local inside a larger expression: not supported "
                     "(write it as its own statement)");
    if (op->isIncrementDecrementOp() && is_memory(op->getSubExpr())) {
      if (!load_and_store(op->getSubExpr(), true)) scan_work(op->getSubExpr());
      else updated_value(op, pending_->accesses.size() - 1);
      return;
    }
    if (op->getOpcode() == clang::UO_AddrOf &&
        (bound_local(op->getSubExpr()) || object_of(op->getSubExpr()) != kUnknownObject))
      refuse(op, "taking the address of the local '" + text(op->getSubExpr()) +
                     "' is not supported (the model cannot follow writes through it)");
  }
  if (const auto* conditional = llvm::dyn_cast<clang::AbstractConditionalOperator>(s)) {
    scan_work(conditional->getCond());
    NoHoist no_hoist(*this, "an arm of ?:");
    {
      const GuardScope guard(*this, conditional->getCond(), true);
      scan_work(conditional->getTrueExpr());
    }
    const GuardScope guard(*this, conditional->getCond(), false);
    scan_work(conditional->getFalseExpr());
    return;
  }
  if (llvm::isa<clang::LambdaExpr>(s) || llvm::isa<clang::StmtExpr>(s))
    refuse(s, "a lambda or statement expression is not supported");
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(s)) {
    // this->n: a member read, not `this` handed on.
    if (llvm::isa<clang::CXXThisExpr>(member->getBase()->IgnoreParenImpCasts())) return;
  }
  if (llvm::isa<clang::CXXThisExpr>(s) && !this_stack_.empty() &&
      this_stack_.back() != kUnknownObject)
    refuse(s, "handing 'this' on is not supported: the model follows this object's members and "
              "could not follow writes through the pointer");
  if (const auto* e = llvm::dyn_cast<clang::Expr>(s); e != nullptr && object_assignment(e))
    refuse(s, "'" + text(s) + "' assigns an object inside a larger expression: not supported "
              "(write it as its own statement)");
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(s)) {
    // A user-written constructor runs as an inlined call on opaque object memory.
    const clang::CXXConstructorDecl* constructor = construct->getConstructor();
    if (constructor->isCopyOrMoveConstructor() && constructor->isTrivial() &&
        construct->getNumArgs() == 1 && is_memory(construct->getArg(0))) {  // a copy from memory
      if (!record_object(ir::AccessKind::Load, construct->getArg(0))) scan_work(construct->getArg(0));
      return;
    }
    if (!constructor->isTrivial() && inlinable(constructor) && constructor->hasBody()) {
      check_function(construct, constructor);
      std::vector<const clang::Expr*> args(construct->arg_begin(), construct->arg_end());
      hoist(construct, inline_function(construct, constructor, args, ir::kNone));
      return;
    }
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s)) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr) refuse(s, "a call through a function pointer is not supported");
    if (is_syncthreads(callee) ||
        (is_cuda_api(callee) && callee->getNameAsString().rfind("__syncthreads", 0) == 0) ||
        is_group_sync(call))
      refuse(s, "a barrier inside a larger expression is not supported");
    if (is_fma(callee)) count_flops(2);
    if (trivial_assignment(call)) {
      object_store(call);
      return;
    }
    if (const auto kind = memory_intrinsic(callee); kind && call->getNumArgs() > 0 &&
                                                    call->getArg(0)->getType()->isPointerType()) {
      const bool placed = record_access(*kind, call->getArg(0), /*pointer=*/true);
      const std::size_t access = placed ? pending_->accesses.size() - 1 : 0;
      for (unsigned i = placed ? 1 : 0; i < call->getNumArgs(); ++i) scan_work(call->getArg(i));
      if (placed && *kind == ir::AccessKind::Atomic) atomic_operand(call, callee, access);
      if (placed && *kind != ir::AccessKind::Store) pending_->intrinsic_at[call] = access;
      return;
    }
    if (inlinable(callee)) {
      check_callee(call, callee);
      const auto type = scalar_type(callee->getReturnType());
      const ir::LocalId result =
          type ? k_.add_local(callee->getNameAsString() + "()", *type, range(call)) : ir::kNone;
      hoist(call, inline_call(call, callee, result));
      return;
    }
  }
  for (const clang::Stmt* child : s->children()) scan_work(child);
}

}  // namespace warpdiv::frontend::detail::lowering

namespace warpdiv::frontend::detail {

sim::ir::Kernel lower_kernel(const clang::FunctionDecl& kernel, clang::ASTContext& context,
                             const std::string& name, const std::vector<std::string>& api_dirs) {
  sim::ir::Kernel result;
  result.name = name;
  lowering::Lowerer(context, result, api_dirs).lower(kernel);
  return result;
}

}  // namespace warpdiv::frontend::detail
