// Lowers a __global__ function's Clang AST to the kernel model, in one recursive walk over its
// statements and expressions. __device__ functions are inlined at each call; every implicit
// conversion becomes an explicit Cast; what the model does not compute becomes an Opaque value or a
// Work statement with a description; what it cannot represent is refused with its location.
// This file holds the walk's entry (lower_kernel), source locations and the kernel's
// parameters; lowerer.hpp lists the files that hold the rest.
#include "kernels/frontend/lower.hpp"
#include "kernels/frontend/lowerer.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

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
    if (op->isIncrementDecrementOp() || op->getOpcode() == clang::UO_AddrOf) note(op->getSubExpr());
    return true;
  }

  /// int& r = n, int&& r = static_cast<int&&>(n): r may assign n.
  bool VisitVarDecl(clang::VarDecl* var) {
    const clang::QualType type = var->getType();
    if (type->isReferenceType() && !type.getNonReferenceType().isConstQualified() &&
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
      if (type->isLValueReferenceType() && !type.getNonReferenceType().isConstQualified()) note(args[i]);
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
  explicit AddressFinder(std::map<const clang::VarDecl*, const clang::Expr*>& out) : out_(out) {}
  /// A call given the address (sincosf(x, &s, &c)): the call, met before its arguments.
  bool VisitCallExpr(clang::CallExpr* call) {
    for (const clang::Expr* arg : call->arguments()) add(arg->IgnoreParenImpCasts(), call);
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    add(op, op);
    return true;
  }

 private:
  void add(const clang::Expr* e, const clang::Expr* where) {
    const auto* op = llvm::dyn_cast<clang::UnaryOperator>(e);
    if (op == nullptr || op->getOpcode() != clang::UO_AddrOf) return;
    if (const auto* var = named_variable(op->getSubExpr())) {
      const auto type = scalar_type(var->getType());
      if (type && ir::is_floating(*type)) out_.emplace(var, where);
    }
  }
  std::map<const clang::VarDecl*, const clang::Expr*>& out_;
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
  unchecked_stored_values();
  refuse_unmodelled_conditions();
  mark_unplaced_writes();
}

/// A store or atomic the model cannot place through a pointer is taken as global (its space is
/// not known), yet it may write shared memory or a local array, whose values the model follows:
/// what it writes there would go unseen, and branches and addresses made from that memory be
/// counted with the old values. Where the kernel reads one of the two, the write is marked as
/// that memory's, so that its values are not known after it (a branch on them is refused, naming
/// the write); where it reads both, it is refused. A pointer read from global memory, or one made
/// from an integer, points into neither.
void Lowerer::mark_unplaced_writes() {
  bool shared = false, local = false;
  for (const ir::MemoryAccess& a : k_.accesses) {
    if (a.base == ir::kNone || a.kind == ir::AccessKind::Store) continue;
    shared |= a.space == ir::AddressSpace::Shared;
    local |= a.space == ir::AddressSpace::Local;
  }
  if (!shared && !local) return;
  for (ir::MemoryAccess& a : k_.accesses) {
    if (a.base != ir::kNone || a.kind == ir::AccessKind::Load || a.space != ir::AddressSpace::Global)
      continue;
    const auto says = [&](const char* text) { return a.reason.find(text) != std::string::npos; };
    if (says("is read from memory") || says("a pointer made from an integer")) continue;
    if (shared && local)
      throw InvalidInput(Diag::unsupported_construct, ir::source_location(k_, a.range),
                         "'" + a.text + "' writes where the model cannot place it (" + a.reason +
                             "), and the kernel reads both shared memory and local arrays, whose values "
                             "the model follows: what it writes there would go unseen; not supported");
    a.space = shared ? ir::AddressSpace::Shared : ir::AddressSpace::Local;
  }
}

/// A condition that depends on a value the model does not evaluate by construction (an
/// intrinsic it does not model, a pointer comparison, a member of an object it does not follow)
/// is an unsupported construct, not a value the launch could give: refused naming it.
void Lowerer::refuse_unmodelled_conditions() {
  if (unmodelled_.empty()) return;
  const std::vector<ir::ExprId> origins = ir::opaque_origins(k_);
  for (const ir::Stmt& s : k_.stmts) {
    const bool condition =
        s.kind == ir::StmtKind::If || s.kind == ir::StmtKind::Loop || s.kind == ir::StmtKind::Switch;
    if (!condition || s.value == ir::kNone) continue;
    const auto found = unmodelled_.find(origins[static_cast<std::size_t>(s.value)]);
    if (found == unmodelled_.end()) continue;
    const ir::Expr& value = k_.exprs[static_cast<std::size_t>(found->first)];
    throw InvalidInput(Diag::unsupported_construct, ir::source_location(k_, s.range),
                       "the condition of this " + ir::report_kind(s) + " depends on " + value.description +
                           " (" + ir::location(k_, value.range) + "), " + found->second + ": not supported");
  }
}

/// A stored value (an atomic's operand) evaluated as a local's value is (lower_expr_stmt) where it
/// depends on a value the model does not hold: its statement is work again, as the engines
/// would skip the value (opaque_origins), and evaluating it would only hold the loop summaries
/// back.
void Lowerer::unchecked_stored_values() {
  if (stored_values_.empty()) return;
  const std::vector<ir::ExprId> origins = ir::opaque_origins(k_);
  for (const auto& [id, what] : stored_values_) {
    ir::Stmt& s = k_.stmts[static_cast<std::size_t>(id)];
    if (origins[static_cast<std::size_t>(s.value)] == ir::kNone) continue;
    s.kind = ir::StmtKind::Work;
    s.value = ir::kNone;
    s.local = ir::kNone;
    s.description = what;
  }
}

std::uint32_t Lowerer::file_index(clang::FileID file) {
  const auto found = files_.find(file);
  if (found != files_.end()) return found->second;
  ir::SourceFile source;
  source.path = std::string(sources_.getFilename(sources_.getLocForStartOfFile(file)));
  const llvm::StringRef text = sources_.getBufferData(file);
  // Lines end as Clang counts them: at "\n", "\r\n" or a lone "\r".
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find_first_of("\r\n", start);
    if (end == llvm::StringRef::npos) end = text.size();
    source.lines.push_back(text.substr(start, end - start).str());
    start = end + (text.substr(end, 2) == "\r\n" ? 2 : 1);
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
    const unsigned length = clang::Lexer::MeasureTokenLength(end, sources_, context_.getLangOpts());
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
  refuse(Diag::unsupported_construct, at, what);
}

[[noreturn]] void Lowerer::refuse(Diag diag, const clang::Stmt* at, const std::string& what) const {
  // Something without a place of its own (an implicit value): the innermost around it that has one.
  const clang::SourceLocation place =
      at->getBeginLoc().isValid() || places_.empty() ? at->getBeginLoc() : places_.back()->getBeginLoc();
  throw InvalidInput(diag, source_location_of(sources_, place), what);
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
