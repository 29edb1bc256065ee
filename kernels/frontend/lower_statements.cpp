// Statements: blocks, declarations, if, for, while, do, switch, return, break, continue and
// expressions as statements. Calls hoisted out of a statement's expressions run first; changes
// of locals inside an expression the model does not evaluate run after it (Deferred).
#include "kernels/frontend/lowerer.hpp"

namespace warpdiv::frontend::detail::lowering {

/// Lowers one statement; calls hoisted out of its expressions run first (a Block around them).
/// kNone: nothing to model (a null statement, a __shared__ declaration).
ir::StmtId Lowerer::lower_stmt(const clang::Stmt* s) {
  const Deeper deeper(*this, s);
  std::vector<ir::StmtId> hoisted;
  Deferred deferred;
  std::vector<ir::StmtId>* outer = hoisted_;
  Deferred* outer_deferred = deferred_;
  hoisted_ = &hoisted;
  deferred_ = &deferred;
  Pending pending;
  Pending* outer_pending = pending_;
  pending_ = &pending;
  std::vector<Guard> outer_guards;
  outer_guards.swap(guards_);
  ir::StmtId lowered = lower_stmt_here(s);
  pending_ = outer_pending;
  guards_.swap(outer_guards);
  lowered = attach(pending, lowered, s);
  hoisted_ = outer;
  deferred_ = outer_deferred;
  const bool returns = llvm::isa<clang::ReturnStmt>(s);
  if (!deferred.updates.empty() && !llvm::isa<clang::Expr>(s) && !llvm::isa<clang::DeclStmt>(s) && !returns)
    refuse(deferred.first, "'" + text(deferred.first) +
                               "' changes a local inside a condition: not supported (write it "
                               "as its own statement)");
  if (hoisted.empty() && deferred.updates.empty()) return lowered;
  // After a return nothing runs: its changes go before it (the value it returns was opaque,
  // so their order does not matter to it).
  if (returns) hoisted.insert(hoisted.end(), deferred.updates.begin(), deferred.updates.end());
  if (lowered != ir::kNone) hoisted.push_back(lowered);
  if (!returns) hoisted.insert(hoisted.end(), deferred.updates.begin(), deferred.updates.end());
  return k_.block(hoisted, range(s));
}

/// Defers `at`'s change of `local` when that is allowed here; false when it is not.
bool Lowerer::defer(const clang::Expr* at, ir::LocalId local, bool assignment) {
  if (deferred_ == nullptr || no_hoist_ != nullptr) return false;
  if (deferred_->changed.count(local) != 0 || deferred_->assignment ||
      (assignment && !deferred_->updates.empty()))
    return false;
  const ir::SourceRange where = range(at);
  ir::ExprId value = ir::kNone;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(at)) value = assigned_value(op, local);
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(at)) value = incremented(op, local);
  deferred_->updates.push_back(k_.assign(local, value, where));
  deferred_->changed.insert(local);
  deferred_->assignment = assignment;
  if (deferred_->first == nullptr) deferred_->first = at;
  return true;
}

/// A statement where one is required (a loop body, a branch): an empty Block for kNone.
ir::StmtId Lowerer::lower_required(const clang::Stmt* s) {
  const ir::StmtId lowered = lower_stmt(s);
  return lowered != ir::kNone ? lowered : k_.block({}, range(s));
}

ir::StmtId Lowerer::lower_stmt_here(const clang::Stmt* s) {
  using clang::dyn_cast;
  if (const auto* compound = dyn_cast<clang::CompoundStmt>(s)) {
    std::vector<ir::StmtId> children;
    for (const clang::Stmt* child : compound->body()) {
      const ir::StmtId lowered = lower_stmt(child);
      if (lowered != ir::kNone) children.push_back(lowered);
    }
    return k_.block(children, range(s));
  }
  if (llvm::isa<clang::NullStmt>(s)) return ir::kNone;
  if (const auto* attributed = dyn_cast<clang::AttributedStmt>(s))  // #pragma unroll ...
    return lower_stmt_here(attributed->getSubStmt());
  if (const auto* decl = dyn_cast<clang::DeclStmt>(s)) return lower_decl_stmt(decl);
  if (const auto* branch = dyn_cast<clang::IfStmt>(s)) return lower_if(branch);
  if (const auto* loop = dyn_cast<clang::ForStmt>(s)) return lower_for(loop);
  if (const auto* loop = dyn_cast<clang::WhileStmt>(s)) {
    if (loop->getConditionVariable() != nullptr)
      refuse(s, "a declaration in a while condition is not supported");
    const PointerRegion region(*this, {loop->getCond(), loop->getBody()}, region_text("while loop", s));
    const ir::ExprId condition = lower_loop_condition(loop->getCond());
    const ir::StmtId body = lower_required(loop->getBody());
    return k_.loop(ir::LoopKind::While, ir::kNone, condition, ir::kNone, body, range(s));
  }
  if (const auto* loop = dyn_cast<clang::DoStmt>(s)) {
    const PointerRegion region(*this, {loop->getCond(), loop->getBody()}, region_text("do loop", s));
    const ir::StmtId body = lower_required(loop->getBody());
    const ir::ExprId condition = lower_loop_condition(loop->getCond());
    return k_.loop(ir::LoopKind::Do, ir::kNone, condition, ir::kNone, body, range(s));
  }
  if (llvm::isa<clang::BreakStmt>(s)) return k_.break_(range(s));
  if (llvm::isa<clang::ContinueStmt>(s)) return k_.continue_(range(s));
  if (const auto* ret = dyn_cast<clang::ReturnStmt>(s)) return lower_return(ret);
  if (const auto* sw = dyn_cast<clang::SwitchStmt>(s)) return lower_switch(sw);
  if (const auto* e = dyn_cast<clang::Expr>(s)) return lower_expr_stmt(e);
  if (llvm::isa<clang::GotoStmt>(s) || llvm::isa<clang::IndirectGotoStmt>(s))
    refuse(s, "goto is not supported: the model follows structured control flow only");
  if (llvm::isa<clang::LabelStmt>(s))
    refuse(s,
           "a label (a goto target) is not supported: the model follows structured control "
           "flow only");
  if (llvm::isa<clang::AsmStmt>(s))
    refuse(s, "inline asm is not supported: the model cannot tell what it does");
  if (llvm::isa<clang::SwitchCase>(s))
    refuse(s, "a case label outside the top level of its switch's braces is not supported");
  if (llvm::isa<clang::CXXForRangeStmt>(s)) refuse(s, "a range-based for loop is not supported");
  if (llvm::isa<clang::CXXTryStmt>(s)) refuse(s, "try/catch is not supported");
  refuse(s, std::string("this statement (") + s->getStmtClassName() + ") is not supported");
}

ir::StmtId Lowerer::lower_decl_stmt(const clang::DeclStmt* s) {
  std::vector<ir::StmtId> declared;
  for (const clang::Decl* decl : s->decls()) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
    if (var == nullptr) continue;                         // a typedef, a local struct ...
    if (var->hasAttr<clang::CUDASharedAttr>()) continue;  // shared memory: nothing runs
    if (var->isStaticLocal() || var->hasExternalStorage())
      refuse(s, "the static or extern local '" + var->getNameAsString() + "' is not supported");
    if (const auto* record = trackable(var->getType())) {
      object_vars_.erase(var);
      if (var->getType()->isReferenceType()) {  // S& r = s: s itself
        const int object = var->getInit() != nullptr ? object_of(var->getInit()) : kUnknownObject;
        if (object != kUnknownObject) {
          object_vars_[var] = object;
          continue;
        }
        if (var->getInit() != nullptr && binds_temporary(var->getInit())) {  // const S& r = mk(t)
          object_vars_[var] = temporary_object(record, var->getInit(), var->getNameAsString(), declared);
          continue;
        }
      } else {
        const ir::SourceRange where = range(var->getSourceRange());
        const int object = make_object(record, var->getNameAsString(), where, declared);
        object_vars_[var] = object;
        if (var->getInit() != nullptr) initialise(object, var->getInit(), declared);
        continue;
      }
    }
    if (is_group_type(var->getType())) {  // cg::thread_block b = cg::this_thread_block(); ...
      groups_[var] = var->getInit() != nullptr ? group_of(var->getInit()) : group_of_type(var->getType());
      continue;
    }
    const auto type = scalar_type(var->getType());
    if (var->getType()->isReferenceType() && var->getInit() != nullptr) {
      const clang::Expr* init = var->getInit();
      const bool constant = var->getType().getNonReferenceType().isConstQualified();
      std::optional<Binding> shared;  // const int& r = s[t]: s[t] itself, as int& r would be
      if (type && constant) shared = const_reference_binding(init, *type, var->getNameAsString(), declared);
      if (shared) {
        bindings_[var] = *shared;
        continue;
      }
      if (type && constant) {  // const int& r = a + b: a copy of the value
        const ir::LocalId local = k_.add_local(var->getNameAsString(), *type, range(var->getSourceRange()));
        bindings_[var] = Binding{Binding::Local, local};
        declared.push_back(k_.declare(local, lower_int(init), range(var->getSourceRange())));
        continue;
      }
      if (type) {
        const auto binding = reference_binding(init, *type, var->getNameAsString(), declared);
        if (!binding)
          refuse(s, "the reference '" + var->getNameAsString() + "' is bound to '" + text(init) +
                        "', which the model cannot change through it");
        bindings_[var] = *binding;
        continue;
      }
      // int (&r)[32] = s, float4& v = a[i]: that memory itself where its address is known, as
      // for an int&; else (float*& r = q ...) its accesses are not counted, with the reason.
      if (var->getType().getNonReferenceType()->isRecordType()) {  // P& r = a[i]: as a parameter is
        const bool writable = !var->getType().getNonReferenceType().isConstQualified();
        if (const auto memory = object_reference(init, var->getNameAsString(), writable, declared))
          bindings_[var] = *memory;
        else
          scan_work(init);
        continue;
      }
      const Binding memory = memory_binding(init, var->getNameAsString(), declared);
      if (memory.base != ir::kNone) bindings_[var] = memory;
      continue;
    }
    if (var->getType()->isReferenceType())
      refuse(s, "the reference '" + var->getNameAsString() + "' is not supported");
    if (type && ir::is_floating(*type) && address_taken_float(var)) {
      if (const clang::Expr* init = var->getInit()) {  // unmodelled: opaque work, as before floats
        scan_work(init);
        declared.push_back(k_.work(text(s), range(var->getSourceRange())));
      }
      continue;
    }
    if (type) {
      const ir::LocalId local = k_.add_local(var->getNameAsString(), *type, range(var->getSourceRange()));
      ir::ExprId value = ir::kNone;
      if (const clang::Expr* init = var->getInit()) {
        if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(init->IgnoreParens()))
          init = list->getNumInits() == 1 ? list->getInit(0) : nullptr;
        value = init != nullptr ? lower_int(init) : k_.constant(*type, 0, range(var->getSourceRange()));
      }
      bindings_[var] = Binding{Binding::Local, local};
      declared.push_back(k_.declare(local, value, range(var->getSourceRange())));
      continue;
    }
    if (var->getType()->isPointerType() &&
        bind_pointer(var, var->getInit(), range(var->getSourceRange()), declared))
      continue;
    if (local_array_initialised(var, s, declared)) continue;
    // Floats, pointers, arrays, structs: opaque work when initialised.
    if (const clang::Expr* init = var->getInit()) {
      scan_work(init);
      declared.push_back(k_.work(text(s), range(var->getSourceRange())));
    }
  }
  if (declared.empty()) return ir::kNone;
  if (declared.size() == 1) return declared[0];
  return k_.block(declared, range(s));
}

ir::StmtId Lowerer::lower_if(const clang::IfStmt* s) {
  if (s->isConstexpr() && s->getInit() == nullptr) {  // only the branch the compiler keeps
    const bool condition = s->getCond()->EvaluateKnownConstInt(context_).getBoolValue();
    const clang::Stmt* kept = condition ? s->getThen() : s->getElse();
    return kept != nullptr ? lower_stmt_here(kept) : ir::kNone;
  }
  // An else-if chain is lowered link by link in this loop, not by recursion: its length is not
  // nesting (100,000 branches are fine), and each link's range ends where the chain ends
  // (Clang's IfStmt::getEndLoc walks the rest of the chain: quadratic over the links).
  struct Link {
    const clang::IfStmt* s;
    std::vector<ir::StmtId> before;  // the link's init statement
    ir::ExprId condition = ir::kNone;
    ir::StmtId then_stmt = ir::kNone;
    std::vector<ir::StmtId> hoisted;  // calls in an else-if's condition (as lower_stmt hoists)
    Pending loads;                    // the condition's loads, carried by the link's If
  };
  std::vector<Link> chain;
  const clang::Stmt* rest = nullptr;  // the last else, when it is not a link
  PointerState ends;                  // the pointers' values where the branches end, joined
  for (const clang::IfStmt* link = s; link != nullptr;) {
    if (link->isConstexpr()) refuse(link, "if constexpr with an initialiser is not supported");
    if (link->getConditionVariable() != nullptr)
      refuse(link, "a declaration in an if condition is not supported");
    Link lowered{link, {}, ir::kNone, ir::kNone, {}, {}};
    // An else-if's condition runs in its own statement, as lower_stmt(else) would run it.
    std::vector<ir::StmtId>* outer = hoisted_;
    Deferred* outer_deferred = deferred_;
    Deferred deferred;
    if (link != s) {
      hoisted_ = &lowered.hoisted;
      deferred_ = &deferred;
    }
    if (link->getInit() != nullptr) {
      const ir::StmtId init = lower_stmt(link->getInit());
      if (init != ir::kNone) lowered.before.push_back(init);
    }
    Pending* outer_pending = pending_;
    pending_ = &lowered.loads;
    lowered.condition = lower_int(link->getCond());
    pending_ = outer_pending;
    const PointerState path = pointers_;  // the path that reaches this branch and the next
    lowered.then_stmt = lower_required(link->getThen());
    join_pointers(ends, pointers_, "after the if at line " + std::to_string(range(s).line));
    pointers_ = path;
    hoisted_ = outer;
    deferred_ = outer_deferred;
    if (!deferred.updates.empty())
      refuse(deferred.first, "'" + text(deferred.first) +
                                 "' changes a local inside a condition: not supported (write it "
                                 "as its own statement)");
    chain.push_back(std::move(lowered));
    const auto* next = llvm::dyn_cast_or_null<clang::IfStmt>(link->getElse());
    if (next != nullptr && next->isConstexpr() && next->getInit() == nullptr) next = nullptr;
    if (next == nullptr) rest = link->getElse();
    link = next;
  }
  ir::StmtId else_stmt = rest != nullptr ? lower_required(rest) : ir::kNone;
  join_pointers(ends, pointers_, "after the if at line " + std::to_string(range(s).line));
  pointers_ = std::move(ends);
  const clang::IfStmt* last = chain.back().s;
  const clang::SourceLocation end =
      (last->getElse() != nullptr ? last->getElse() : last->getThen())->getEndLoc();
  for (std::size_t i = chain.size(); i-- > 0;) {
    Link& link = chain[i];
    const ir::SourceRange where = range(clang::SourceRange(link.s->getBeginLoc(), end));
    ir::StmtId branch = k_.if_(link.condition, link.then_stmt, else_stmt, where);
    carry_accesses(link.loads, branch);
    carry_flops(link.loads, branch, link.s->getCond());
    if (!link.before.empty()) {
      link.before.push_back(branch);
      branch = k_.block(link.before, where);
    }
    if (!link.hoisted.empty()) {
      link.hoisted.push_back(branch);
      branch = k_.block(link.hoisted, where);
    }
    else_stmt = branch;
  }
  return else_stmt;
}

ir::StmtId Lowerer::lower_for(const clang::ForStmt* s) {
  if (s->getConditionVariable() != nullptr) refuse(s, "a declaration in a for condition is not supported");
  const ir::StmtId init = s->getInit() != nullptr ? lower_stmt(s->getInit()) : ir::kNone;
  const PointerRegion region(*this, {s->getCond(), s->getInc(), s->getBody()}, region_text("for loop", s));
  const ir::ExprId condition = s->getCond() != nullptr ? lower_loop_condition(s->getCond()) : ir::kNone;
  ir::StmtId step = ir::kNone;
  if (s->getInc() != nullptr) step = lower_stmt(s->getInc());  // a statement: calls may run first
  const ir::StmtId body = lower_required(s->getBody());
  return k_.loop(ir::LoopKind::For, init, condition, step, body, range(s));
}

ir::ExprId Lowerer::lower_loop_condition(const clang::Expr* condition) {
  NoHoist no_hoist(*this, "a loop condition");
  return lower_int(condition);
}

ir::StmtId Lowerer::lower_return(const clang::ReturnStmt* s) {
  const clang::Expr* value = s->getRetValue();
  const clang::QualType returned = call_stack_.back()->getReturnType();
  if (value != nullptr && returned->isLValueReferenceType() &&
      !returned.getNonReferenceType().isConstQualified() &&
      (bound_local(value) || object_of(value) != kUnknownObject))
    refuse(s, "returning a reference to '" + text(value) +
                  "' is not supported (the model cannot follow writes through it)");
  if (value == nullptr) return k_.return_(ir::kNone, range(s));
  if (const CallFrame* frame = current_frame(); frame != nullptr && frame->result != kUnknownObject) {
    std::vector<ir::StmtId> made;  // a class returned by value: the object the call initialises
    initialise(frame->result, value, made);
    made.push_back(k_.return_(ir::kNone, range(s)));
    return k_.block(made, range(s));
  }
  if (call_stack_.size() > 1 && scalar_type(value->getType())) {
    return k_.return_(lower_int(value), range(s));
  }
  scan_work(value);  // a float result: its work is opaque, the call's result unmodelled
  return k_.return_(ir::kNone, range(s));
}

ir::StmtId Lowerer::lower_switch(const clang::SwitchStmt* s) {
  if (s->getConditionVariable() != nullptr || s->getInit() != nullptr)
    refuse(s, "a declaration in a switch condition is not supported");
  const ir::ExprId condition = lower_int(s->getCond());
  const ir::ScalarType type = k_.exprs[condition].type;
  const auto* body = llvm::dyn_cast<clang::CompoundStmt>(s->getBody());
  if (body == nullptr) refuse(s, "a switch whose body is not a { } block is not supported");
  const PointerRegion region(*this, {body}, region_text("switch", s));
  std::vector<ir::StmtId> children;
  std::vector<ir::SwitchCase> cases;
  std::int32_t default_child = ir::kNone;
  for (const clang::Stmt* child : body->body()) {
    const clang::Stmt* statement = child;
    while (const auto* label = llvm::dyn_cast<clang::SwitchCase>(statement)) {
      const auto index = static_cast<std::int32_t>(children.size());
      if (const auto* c = llvm::dyn_cast<clang::CaseStmt>(label)) {
        if (c->caseStmtIsGNURange()) refuse(c, "a case range (a ... b) is not supported");
        const llvm::APSInt value = c->getLHS()->EvaluateKnownConstInt(context_);
        const auto bits = static_cast<std::uint64_t>(
            value.isSigned() ? value.getSExtValue() : static_cast<std::int64_t>(value.getZExtValue()));
        cases.push_back(ir::SwitchCase{ir::normalise(type, bits), index});
      } else {
        default_child = index;
      }
      statement = label->getSubStmt();
    }
    const ir::StmtId lowered = lower_stmt(statement);
    if (lowered != ir::kNone) children.push_back(lowered);
  }
  return k_.switch_(condition, children, cases, default_child, range(s));
}

/// An expression used as a statement.
ir::StmtId Lowerer::lower_expr_stmt(const clang::Expr* e) {
  const clang::Expr* bare = e->IgnoreParens();
  if (const auto* cleanups = llvm::dyn_cast<clang::ExprWithCleanups>(bare))
    bare = cleanups->getSubExpr()->IgnoreParens();
  if (const auto* cast = llvm::dyn_cast<clang::CStyleCastExpr>(bare)) {
    if (cast->getType()->isVoidType()) bare = cast->getSubExpr()->IgnoreParens();  // (void)x;
  }
  if (const auto assigned = object_assignment(bare)) {  // a = b; for an object the model tracks
    std::vector<ir::StmtId> copied;
    copy_object(assigned->first, assigned->second, copied);
    return k_.block(copied, range(e));
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(bare); call != nullptr && trivial_assignment(call)) {
    object_store(call);
    return k_.work(text(e), range(e));
  }
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(bare)) {
    if (op->getOpcode() == clang::BO_Comma) {
      const ir::StmtId first = lower_stmt(op->getLHS());
      const ir::StmtId second = lower_stmt(op->getRHS());
      std::vector<ir::StmtId> both;
      if (first != ir::kNone) both.push_back(first);
      if (second != ir::kNone) both.push_back(second);
      return k_.block(both, range(e));
    }
    if (op->isAssignmentOp()) {
      if (const auto local = bound_local(op->getLHS())) {
        // x = y = e: y's assignment first, then x from y.
        const auto* inner = llvm::dyn_cast<clang::BinaryOperator>(op->getRHS()->IgnoreParenImpCasts());
        if (op->getOpcode() == clang::BO_Assign && inner != nullptr && inner->isAssignmentOp() &&
            bound_local(inner->getLHS())) {
          const ir::StmtId first = lower_expr_stmt(inner);
          const ir::LocalId source = *bound_local(inner->getLHS());
          const ir::SourceRange where = range(e);
          const ir::ExprId value = convert(k_.local(source, where), k_.locals[*local].type, where);
          return k_.block({first, k_.assign(*local, value, where)}, where);
        }
        return k_.assign(*local, assigned_value(op, *local), range(e));
      }
    }
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(bare)) {
    if (op->isIncrementDecrementOp()) {
      if (const auto local = bound_local(op->getSubExpr()))
        return k_.assign(*local, incremented(op, *local), range(e));
    }
  }
  if (const auto* conditional = llvm::dyn_cast<clang::ConditionalOperator>(bare)) {
    if (conditional->getType()->isVoidType()) {  // c ? f() : g();  (assert() expands to this)
      const ir::ExprId condition = lower_int(conditional->getCond());
      const ir::StmtId then_stmt = lower_required(conditional->getTrueExpr());
      const ir::StmtId else_stmt = lower_required(conditional->getFalseExpr());
      return k_.if_(condition, then_stmt, else_stmt, range(e));
    }
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(bare)) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee != nullptr && is_syncthreads(callee)) return k_.barrier(range(e));
    if (callee != nullptr && is_syncwarp(callee) && call->getNumArgs() == 1)
      return warp_barrier(call, convert(lower_int(call->getArg(0)), ir::ScalarType::U32, range(call)));
    if (callee != nullptr && is_group_sync(call)) return lower_group_sync(call);
    if (callee != nullptr && inlinable(callee)) {
      check_callee(call, callee);
      // A result nobody uses still has a local for the callee's return to assign.
      const auto type = scalar_type(callee->getReturnType());
      const ir::LocalId result =
          type ? k_.add_local(callee->getNameAsString() + "()", *type, range(call)) : ir::kNone;
      return inline_call(call, callee, result);
    }
  }
  if (const auto update = pointer_update(bare)) return *update;

  // Anything else (a memory write, float work, printf, an atomic ...) is opaque work; a value it
  // stores (or an atomic's operand) that the model computes is evaluated as a local's value is,
  // so that undefined behaviour in it is named.
  const std::size_t first = pending_ != nullptr ? pending_->accesses.size() : 0;
  scan_work(bare);
  if (const ir::ExprId value = written_value(first);
      value != ir::kNone && ir::may_fault(k_, value) && !holds_unknown(value)) {
    const ir::SourceRange where = range(e);
    if (const ir::ExprId copy = copied(value); copy != ir::kNone) {
      const ir::StmtId id =
          k_.declare(k_.add_local("stored value", k_.exprs[value].type, where), copy, where);
      stored_values_.emplace_back(id, text(e));
      return id;
    }
  }
  return k_.work(text(e), range(e));
}

/// The one value that the statement's stores and atomics from access `first` on write, when
/// every lane that runs the statement computes it (no guard); kNone otherwise.
ir::ExprId Lowerer::written_value(std::size_t first) const {
  if (pending_ == nullptr) return ir::kNone;
  ir::ExprId value = ir::kNone;
  for (std::size_t a = first; a < pending_->accesses.size(); ++a) {
    const ir::MemoryAccess& access = pending_->accesses[a];
    if (access.kind == ir::AccessKind::Load || access.value == ir::kNone) continue;
    if (access.guard != ir::kNone || (value != ir::kNone && value != access.value)) return ir::kNone;
    value = access.value;
  }
  return value;
}

}  // namespace warpdiv::frontend::detail::lowering

namespace warpdiv::frontend::detail::lowering {

/// A copy of the expression tree `id` (the model's expressions are trees), its opaque values
/// linked to the loads the originals are linked to. A warp function in it runs twice, over the
/// same lanes: it has no effect, so the second gives the same value and the same faults.
ir::ExprId Lowerer::copied(ir::ExprId id) {
  ir::Expr e = k_.exprs[static_cast<std::size_t>(id)];
  for (ir::ExprId& operand : e.operands) {
    if (operand == ir::kNone) continue;
    operand = copied(operand);
    if (operand == ir::kNone) return ir::kNone;
  }
  const ir::ExprId copy = k_.add(e);
  for (std::size_t i = 0, n = pending_->loads.size(); i < n; ++i)
    if (pending_->loads[i].first == id) pending_->loads.emplace_back(copy, pending_->loads[i].second);
  return copy;
}

}  // namespace warpdiv::frontend::detail::lowering

namespace warpdiv::frontend::detail::lowering {

/// Whether the value `id` depends on a value the model does not hold: an opaque value, or a
/// local assigned one in the statements lowered so far (or a call's result), as opaque_origins
/// finds over the whole kernel (the engines skip such values).
bool Lowerer::holds_unknown(ir::ExprId id) {
  for (; taint_checked_ < k_.stmts.size(); ++taint_checked_) {
    const ir::Stmt& s = k_.stmts[taint_checked_];
    unknown_locals_.resize(k_.locals.size(), false);
    if (s.kind == ir::StmtKind::InlinedCall && s.local != ir::kNone) unknown_locals_[s.local] = true;
    if ((s.kind == ir::StmtKind::Declare || s.kind == ir::StmtKind::Assign) && s.value != ir::kNone &&
        depends_on_unknown(s.value))
      unknown_locals_[s.local] = true;
  }
  return depends_on_unknown(id);
}

bool Lowerer::depends_on_unknown(ir::ExprId id) const {
  const ir::Expr& e = k_.exprs[static_cast<std::size_t>(id)];
  if (e.kind == ir::ExprKind::Opaque) return true;
  if (e.kind == ir::ExprKind::Local)
    return static_cast<std::size_t>(e.index) >= unknown_locals_.size() || unknown_locals_[e.index];
  for (const ir::ExprId operand : e.operands)
    if (operand != ir::kNone && depends_on_unknown(operand)) return true;
  return false;
}

}  // namespace warpdiv::frontend::detail::lowering
