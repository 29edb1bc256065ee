// Frame (host_evaluator.hpp): a host function followed statement by statement, and the integer
// and dim3 expressions evaluated in it (host_launch.cpp says what is computed and what refused).
#include "kernels/frontend/host_evaluator.hpp"

#include "kernels/frontend/prelude_text.hpp"

namespace warpdiv::frontend::detail::host_eval {

// --- Following the function ---------------------------------------------------------------------

void Frame::walk(const clang::Stmt* s) {
  using namespace clang;
  if (!state_.blocked.empty() || isa<Expr>(s) || isa<DeclStmt>(s) || isa<ReturnStmt>(s))
    return evaluate_in(s);
  if (const auto* c = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt* child : c->body()) {
      if (holds(child)) branch(child);
      // Whether the function always leaves at `child`, from the values before it.
      const std::string leaves = state_.unreached.empty() ? leaves_at(child) : "";
      if (!state_.frozen) exec(child);
      if (!leaves.empty()) state_.unreached = leaves;
    }
    return;
  }
  const std::string at = f_.where(s->getBeginLoc());
  const std::string in_loop = "changes inside the loop at " + at;
  std::vector<const Stmt*> walked;  // the children walked into; targets elsewhere in `s` come last
  std::vector<std::string> never;   // for each walked child: why the program never gets there
  bool walked_done = false;         // the walked children are walked into already
  if (const auto* i = dyn_cast<IfStmt>(s)) {
    exec(i->getInit());
    if (i->getConditionVariableDeclStmt() != nullptr) {
      exec(i->getConditionVariableDeclStmt());
    } else {
      const std::string taken = truth(i->getCond());
      never = {taken == "false" ? condition_text(i->getCond(), "if", at, "false") : "",
               taken == "true" ? condition_text(i->getCond(), "if", at, "true") : ""};
      invalidate(i->getCond(), "changes in the condition at " + at);
    }
    walked = {i->getThen(), i->getElse()};
  } else if (const auto* l = dyn_cast<ForStmt>(s)) {
    exec(l->getInit());
    if (l->getCond() != nullptr && l->getConditionVariableDeclStmt() == nullptr &&
        truth(l->getCond()) == "false")
      never = {condition_text(l->getCond(), "for", at, "false") + " before the first iteration"};
    invalidate(l->getCond(), in_loop);
    invalidate(l->getInc(), in_loop);
    invalidate(l->getBody(), in_loop);
    if (l->getConditionVariableDeclStmt() != nullptr) invalidate(l->getConditionVariableDeclStmt(), in_loop);
    walked = {l->getBody()};
  } else if (const auto* w = dyn_cast<WhileStmt>(s)) {
    if (w->getConditionVariableDeclStmt() == nullptr && truth(w->getCond()) == "false")
      never = {condition_text(w->getCond(), "while", at, "false") + " before the first iteration"};
    invalidate(w->getCond(), in_loop);
    invalidate(w->getBody(), in_loop);
    walked = {w->getBody()};
  } else if (const auto* d = dyn_cast<DoStmt>(s)) {
    invalidate(d->getCond(), in_loop);
    invalidate(d->getBody(), in_loop);
    walked = {d->getBody()};
  } else if (const auto* r = dyn_cast<CXXForRangeStmt>(s)) {
    exec(r->getInit());
    exec(r->getRangeStmt());
    invalidate(r->getBody(), in_loop);
    set_unknown(r->getLoopVariable(), -1,
                "is the variable of the loop at " + at + ", different in each iteration");
    walked = {r->getBody()};
  } else if (const auto* sw = dyn_cast<SwitchStmt>(s)) {
    exec(sw->getInit());
    if (sw->getConditionVariableDeclStmt() != nullptr) exec(sw->getConditionVariableDeclStmt());
    const SwitchEntry entry = switch_entry(sw);
    invalidate(sw->getCond(), "changes in the condition at " + at);
    invalidate(sw->getBody(), "changes inside the switch at " + at);
    state_.frozen = true;
    walked = {sw->getBody()};
    if (entry.known) {
      // The body's statements one by one: those the value skips are never reached.
      const auto* body = cast<CompoundStmt>(sw->getBody());
      for (std::size_t c = 0; c < body->size(); ++c)
        if (holds(body->body_begin()[c])) branch(body->body_begin()[c], entry.never[c]);
      walked_done = true;
    }
  } else if (const auto* c = dyn_cast<SwitchCase>(s)) {
    walked = {c->getSubStmt()};
  } else if (const auto* label = dyn_cast<LabelStmt>(s)) {
    walked = {label->getSubStmt()};
  } else if (const auto* a = dyn_cast<AttributedStmt>(s)) {
    walked = {a->getSubStmt()};
  } else if (const auto* t = dyn_cast<CXXTryStmt>(s)) {
    walked = {t->getTryBlock()};
  }
  for (std::size_t c = 0; c < walked.size() && !walked_done; ++c)
    if (holds(walked[c])) branch(walked[c], c < never.size() ? never[c] : "");
  // The rest (a condition, an initialiser, a handler, a statement not followed): at the values here.
  const bool followed = !walked.empty() && !isa<CXXTryStmt>(s);
  for (const Stmt* child : s->children()) {
    if (!holds(child) || std::find(walked.begin(), walked.end(), child) != walked.end()) continue;
    if (!followed && state_.blocked.empty())
      state_.blocked = "the launch is inside " + std::string(s->getStmtClassName()) + " at " + at +
                       ", which is not followed";
    evaluate_in(child);
  }
}

void Frame::branch(const clang::Stmt* s, const std::string& never) {
  using namespace clang;
  State outside = state_;
  if (state_.unreached.empty()) state_.unreached = never;
  if (isa<Expr>(s) || isa<DeclStmt>(s) || isa<ReturnStmt>(s))
    evaluate_in(s);
  else
    walk(s);
  state_ = std::move(outside);
}

// --- Where the program never gets -----------------------------------------------------------------

std::string Frame::truth(const clang::Expr* condition) {
  if (!state_.blocked.empty()) return "";
  const Val v = eval(condition);
  if (!v.known) return "";
  return v.v.isZero() ? "false" : "true";
}

std::string Frame::condition_text(const clang::Expr* condition, const char* kind, const std::string& at,
                                  const char* value) const {
  return "the condition '" + f_.quoted(condition) + "' of the " + kind + " at " + at + " is " + value;
}

/// Whether running `s` always leaves the function (a return, or a call that does not return, such
/// as exit()), not counting a break, continue or goto before it, which may go elsewhere.
bool Frame::always_leaves(const clang::Stmt* s) {
  using namespace clang;
  if (s == nullptr) return false;
  if (isa<ReturnStmt>(s) || isa<clang::CXXThrowExpr>(s)) return true;
  if (const auto* e = dyn_cast<Expr>(s)) {
    if (isa<CXXThrowExpr>(e->IgnoreImplicit())) return true;
    const auto* call = dyn_cast<CallExpr>(e->IgnoreImplicit());
    return call != nullptr && call->getDirectCallee() != nullptr && call->getDirectCallee()->isNoReturn();
  }
  if (const auto* c = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt* child : c->body()) {
      if (jumps(child)) return false;
      if (always_leaves(child)) return true;
    }
  }
  return false;
}

const clang::Stmt* Frame::endless(const clang::Stmt* s) const {
  using namespace clang;
  const Expr* condition = nullptr;
  const Stmt* body = nullptr;
  if (const auto* l = dyn_cast<ForStmt>(s)) {
    if (l->getConditionVariableDeclStmt() != nullptr) return nullptr;
    condition = l->getCond();
    body = l->getBody();
  } else if (const auto* w = dyn_cast<WhileStmt>(s)) {
    if (w->getConditionVariableDeclStmt() != nullptr) return nullptr;
    condition = w->getCond();
    body = w->getBody();
  } else if (const auto* d = dyn_cast<DoStmt>(s)) {
    condition = d->getCond();
    body = d->getBody();
  } else {
    return nullptr;
  }
  bool always = true;  // for (;;)
  if (condition != nullptr &&
      (condition->isValueDependent() || !condition->EvaluateAsBooleanCondition(always, ctx_) || !always))
    return nullptr;
  return breaks_out(body) ? nullptr : s;
}

bool Frame::breaks_out(const clang::Stmt* s) {
  using namespace clang;
  if (s == nullptr) return false;
  if (isa<BreakStmt>(s) || isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s)) return true;
  // A break inside an inner loop or switch leaves that one (a goto there still counts).
  const bool inner =
      isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) || isa<SwitchStmt>(s);
  for (const Stmt* child : s->children())
    if (inner ? find_goto(child) != nullptr : breaks_out(child)) return true;
  return false;
}

const clang::Stmt* Frame::stops(const clang::Stmt* s, bool& leaves_function) {
  using namespace clang;
  while (s != nullptr) {
    if (const auto* c = dyn_cast<SwitchCase>(s))
      s = c->getSubStmt();
    else if (const auto* l = dyn_cast<LabelStmt>(s))
      s = l->getSubStmt();
    else if (const auto* a = dyn_cast<AttributedStmt>(s))
      s = a->getSubStmt();
    else
      break;
  }
  if (s == nullptr) return nullptr;
  leaves_function = false;
  if (isa<BreakStmt>(s) || isa<ContinueStmt>(s)) return s;
  if (const auto* c = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt* child : c->body())
      if (const Stmt* stop = stops(child, leaves_function)) return stop;
    return nullptr;
  }
  leaves_function = always_leaves(s);
  return leaves_function ? s : nullptr;
}

Frame::SwitchEntry Frame::switch_entry(const clang::SwitchStmt* sw) {
  using namespace clang;
  SwitchEntry entry;
  const auto* body = dyn_cast<CompoundStmt>(sw->getBody());
  if (body == nullptr || !state_.blocked.empty()) return entry;
  const Val value = eval(sw->getCond());
  if (!value.known) return entry;
  const SwitchCase* selected = nullptr;
  const SwitchCase* fallback = nullptr;  // default:
  for (const SwitchCase* c = sw->getSwitchCaseList(); c != nullptr; c = c->getNextSwitchCase()) {
    const auto* one = dyn_cast<CaseStmt>(c);
    if (one == nullptr) {
      fallback = c;
      continue;
    }
    bool known = true;
    const auto label = [&](const Expr* e) {
      Expr::EvalResult r;
      if (e->isValueDependent() || !e->EvaluateAsInt(r, ctx_) || !r.Val.isInt()) known = false;
      APSInt v = known ? r.Val.getInt().extOrTrunc(value.v.getBitWidth()) : value.v;
      v.setIsUnsigned(value.v.isUnsigned());
      return v;
    };
    const APSInt low = label(one->getLHS());
    const APSInt high = one->getRHS() != nullptr ? label(one->getRHS()) : low;  // case 1 ... 5:
    if (!known) return entry;
    if (low <= value.v && value.v <= high) selected = c;
  }
  if (selected == nullptr) selected = fallback;
  // The body's statement the label heads (case 4: case 5: x heads x); none when the label is
  // inside another statement (the walk then says nothing of what the value skips).
  std::size_t index = body->size();
  for (std::size_t c = 0; c < body->size() && selected != nullptr && index == body->size(); ++c)
    for (const Stmt* head = body->body_begin()[c]; const auto* label = dyn_cast_or_null<SwitchCase>(head);
         head = label->getSubStmt())
      if (label == selected) index = c;
  if (selected != nullptr && index == body->size()) return entry;
  const std::string value_text =
      condition_text(sw->getCond(), "switch", f_.where(sw->getBeginLoc()), decimal(value.v).c_str());
  const std::string enters = selected == nullptr
                                 ? value_text + ", which no case matches"
                                 : value_text + ", which enters it at " + f_.where(selected->getBeginLoc());
  entry.known = true;
  entry.never.assign(body->size(), "");
  std::string stopped;  // where control leaves the body before the statements from here on
  for (std::size_t c = 0; c < body->size(); ++c) {
    if (c < index) entry.never[c] = enters + (selected == nullptr ? "" : ", after this");
    if (c < index) continue;
    if (!stopped.empty()) entry.never[c] = enters + ", and " + stopped + " before this";
    bool function = false;
    const Stmt* stop = stopped.empty() ? stops(body->body_begin()[c], function) : nullptr;
    if (stop == nullptr) continue;
    const std::string stop_at = f_.where(stop->getBeginLoc());
    stopped = function ? "the function leaves at " + stop_at : "it leaves the switch at " + stop_at;
    if (function) entry.leaves = stop_at + " (" + enters + ")";
  }
  return entry;
}

bool Frame::jumps(const clang::Stmt* s) {
  using namespace clang;
  if (s == nullptr) return false;
  if (isa<BreakStmt>(s) || isa<ContinueStmt>(s) || isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s) ||
      isa<SwitchCase>(s) || isa<LabelStmt>(s) || isa<CXXTryStmt>(s))
    return true;
  for (const Stmt* child : s->children())
    if (jumps(child)) return true;
  return false;
}

std::string Frame::leaves_at(const clang::Stmt* s) {
  using namespace clang;
  const std::string at = f_.where(s->getBeginLoc());
  const std::string leaves = "the function " + f_.name(function_) + " leaves before it, at ";
  if (const auto* e = dyn_cast<Expr>(s); e != nullptr && isa<CXXThrowExpr>(e->IgnoreImplicit()))
    return "an exception is thrown before it, at " + at;
  if (always_leaves(s)) return leaves + at;
  if (endless(s) != nullptr)
    return "the function " + f_.name(function_) + " never gets past the loop at " + at +
           " (its condition is always true and nothing breaks out of it)";
  if (const auto* sw = dyn_cast<SwitchStmt>(s);
      sw != nullptr && sw->getInit() == nullptr && sw->getConditionVariableDeclStmt() == nullptr) {
    const SwitchEntry entry = switch_entry(sw);
    return entry.leaves.empty() ? "" : leaves + entry.leaves;
  }
  if (const auto* e = dyn_cast<Expr>(s)) {
    // c ? void(0) : abort(), as assert(c) expands: the arm the condition takes leaves.
    const auto* c = dyn_cast<ConditionalOperator>(e->IgnoreParenImpCasts());
    const std::string taken = c != nullptr ? truth(c->getCond()) : "";
    const Expr* arm = taken == "true" ? c->getTrueExpr() : taken == "false" ? c->getFalseExpr() : nullptr;
    if (arm == nullptr || !always_leaves(arm->IgnoreParenImpCasts())) return "";
    const SourceManager& sources = ctx_.getSourceManager();
    if (c->getBeginLoc().isMacroID() &&
        Lexer::getImmediateMacroName(c->getBeginLoc(), sources, ctx_.getLangOpts()) == "assert")
      return leaves + at + " (the assertion '" + f_.quoted(c) + "' fails)";
    return leaves + f_.where(arm->getBeginLoc()) + " (" +
           condition_text(c->getCond(), "?:", f_.where(c->getBeginLoc()), taken.c_str()) + ")";
  }
  const auto* i = dyn_cast<IfStmt>(s);
  if (i == nullptr || i->getInit() != nullptr || i->getConditionVariableDeclStmt() != nullptr) return "";
  const std::string taken = truth(i->getCond());
  const Stmt* branch = taken == "true" ? i->getThen() : taken == "false" ? i->getElse() : nullptr;
  if (branch == nullptr || !always_leaves(branch)) return "";
  return leaves + f_.where(branch->getBeginLoc()) + " (" +
         condition_text(i->getCond(), "if", at, taken.c_str()) + ")";
}

void Frame::evaluate_in(const clang::Stmt* s, const clang::Stmt* lambda) {
  if (!holds(s)) return;
  if (lambda == nullptr && (llvm::isa<clang::LambdaExpr>(s) || llvm::isa<clang::BlockExpr>(s))) lambda = s;
  if (targets_.count(s) != 0) {
    if (lambda != nullptr) {
      const std::string outside = state_.blocked;
      state_.blocked = "the launch is inside the lambda at " + f_.where(lambda->getBeginLoc()) +
                       ", whose calls are not followed";
      (*at_target_)(*this, s);
      state_.blocked = outside;
    } else {
      (*at_target_)(*this, s);
    }
  }
  for (const clang::Stmt* child : s->children()) evaluate_in(child, lambda);
}

void Frame::exec(const clang::Stmt* s) {
  using namespace clang;
  if (s == nullptr) return;
  if (const auto* c = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt* child : c->body()) exec(child);
    for (const Stmt* child : c->body())
      if (const auto* d = dyn_cast<DeclStmt>(child)) destroy(d, c->getRBracLoc());
    return;
  }
  if (const auto* d = dyn_cast<DeclStmt>(s)) {
    for (const Decl* decl : d->decls())
      if (const auto* v = dyn_cast<VarDecl>(decl)) declare(v);
    return;
  }
  if (const auto* e = dyn_cast<Expr>(s)) return assign(e);
  if (isa<NullStmt>(s)) return;
  const std::string at = f_.where(s->getBeginLoc());
  if (isa<IfStmt>(s)) return invalidate(s, "changes inside the if at " + at);
  if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s))
    return invalidate(s, "changes inside the loop at " + at);
  if (isa<SwitchStmt>(s)) return invalidate(s, "changes inside the switch at " + at);
  invalidate(s, "changes at " + at);
}

void Frame::declare(const clang::VarDecl* v) {
  const clang::Expr* init = v->getInit();
  const std::string at = f_.where(v->getLocation());
  if (v->getType()->isReferenceType()) {
    // int& r = n: writes through r are not followed, so n is not computable from here on.
    if (init != nullptr && !v->getType().getNonReferenceType().isConstQualified()) {
      const auto [bound, component] = target_of(init);
      (void)component;
      escape(bound, "is bound to the reference '" + v->getNameAsString() + "' at " + at);
    }
    if (init != nullptr) invalidate(init, "changes at " + at);
    return;
  }
  if (is_dim3(v->getType())) {
    Dim d;
    if (init != nullptr) d = eval_dim(init);
    for (int c = 0; c < 3; ++c) d.c[c] = assigned(v, d.c[c], c);
    if (init != nullptr) invalidate(init, "changes at " + at);
    if (const Dim* pin = pinned_dim(v)) d = *pin;
    state_.dims[v] = d;
    return;
  }
  if (!is_integer(v->getType())) {
    if (init != nullptr) invalidate(init, "changes at " + at);
    return;
  }
  Val value = init != nullptr ? assigned(v, eval(init)) : Val::unknown(named(v) + " has no initial value");
  invalidate(init, "changes inside the expression at " + at);
  if (const Val* pin = pinned(v)) value = *pin;
  state_.ints[v] = value;
}

void Frame::assign(const clang::Expr* e) {
  using namespace clang;
  e = e->IgnoreParens();
  if (const auto* cleanups = dyn_cast<ExprWithCleanups>(e)) e = cleanups->getSubExpr()->IgnoreParens();
  const std::string at = f_.where(e->getBeginLoc());
  if (const auto* b = dyn_cast<BinaryOperator>(e); b != nullptr && b->isAssignmentOp()) {
    const auto [v, component] = target_of(b->getLHS());
    if (v != nullptr && !v->getType()->isReferenceType()) {
      Val value = eval(b->getRHS());
      invalidate(b->getRHS(), "changes inside the expression at " + at);
      if (const auto* compound = dyn_cast<CompoundAssignOperator>(b)) {
        const Val old = component >= 0 ? lookup_dim(v).c[component] : lookup(v);
        const Val lhs = convert(old, compound->getComputationLHSType());
        value = convert(arithmetic(BinaryOperator::getOpForCompoundAssignment(b->getOpcode()), lhs, value,
                                   compound->getComputationResultType(), e),
                        b->getLHS()->getType());
      }
      if (state_.escaped.count(v) != 0) return;
      if (component >= 0) {
        lookup_dim(v);
        state_.dims[v].c[component] = assigned(v, value, component);
      } else {
        state_.ints[v] = assigned(v, value);
      }
      return;
    }
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e); u != nullptr && u->isIncrementDecrementOp()) {
    const auto [v, component] = target_of(u->getSubExpr());
    if (v != nullptr && !v->getType()->isReferenceType() && state_.escaped.count(v) == 0) {
      Val old = component >= 0 ? lookup_dim(v).c[component] : lookup(v);
      Val result = old;
      if (old.known) {
        APSInt one(old.v.getBitWidth(), old.v.isUnsigned());
        one = 1;
        result = arithmetic(u->isIncrementOp() ? BO_Add : BO_Sub, old, Val::of(one),
                            u->getSubExpr()->getType(), e);
      }
      if (component >= 0) {
        lookup_dim(v);
        state_.dims[v].c[component] = result;
      } else {
        state_.ints[v] = result;
      }
      return;
    }
  }
  if (const auto* op = dyn_cast<CXXOperatorCallExpr>(e);
      op != nullptr && op->getOperator() == OO_Equal && op->getNumArgs() == 2) {
    const auto [v, component] = target_of(op->getArg(0));
    if (v != nullptr && component < 0 && is_dim3(v->getType())) {
      Dim d = eval_dim(op->getArg(1));
      invalidate(op->getArg(1), "changes inside the expression at " + at);
      if (state_.escaped.count(v) != 0) return;
      for (int c = 0; c < 3; ++c) d.c[c] = assigned(v, d.c[c], c);
      state_.dims[v] = d;
      return;
    }
  }
  invalidate(e, "changes inside the expression at " + at);
}

std::pair<const clang::VarDecl*, int> Frame::target_of(const clang::Expr* e) const {
  using namespace clang;
  e = e->IgnoreParenImpCasts();
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(d->getDecl());
    if (v != nullptr && (is_integer(v->getType()) || is_dim3(v->getType()))) return {v, -1};
    return {nullptr, -1};
  }
  if (const auto* m = dyn_cast<MemberExpr>(e)) {
    const auto* base = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
    const auto* v = base != nullptr ? dyn_cast<VarDecl>(base->getDecl()) : nullptr;
    if (v == nullptr || m->isArrow() || !is_dim3(v->getType())) return {nullptr, -1};
    const std::string member = m->getMemberDecl()->getNameAsString();
    if (member == "x") return {v, 0};
    if (member == "y") return {v, 1};
    if (member == "z") return {v, 2};
    return {v, -1};
  }
  return {nullptr, -1};
}

std::vector<std::pair<const clang::VarDecl*, int>> Frame::targets_of(const clang::Expr* e) const {
  using namespace clang;
  e = e->IgnoreParenImpCasts();
  if (const auto* cast = dyn_cast<ExplicitCastExpr>(e); cast != nullptr && cast->isGLValue())
    return targets_of(cast->getSubExpr());
  if (const auto* c = dyn_cast<AbstractConditionalOperator>(e); c != nullptr && c->isGLValue()) {
    std::vector<std::pair<const VarDecl*, int>> both = targets_of(c->getTrueExpr());
    const std::vector<std::pair<const VarDecl*, int>> other = targets_of(c->getFalseExpr());
    both.insert(both.end(), other.begin(), other.end());
    return both;
  }
  const std::pair<const VarDecl*, int> one = target_of(e);
  if (one.first == nullptr) return {};
  return {one};
}

void Frame::set_unknown(const clang::VarDecl* v, int component, const std::string& tail) {
  if (v == nullptr) return;
  if (is_dim3(v->getType())) {
    lookup_dim(v);
    for (int c = 0; c < 3; ++c)
      if (component < 0 || component == c) state_.dims[v].c[c] = Val::unknown(named(v, c) + " " + tail);
  } else if (is_integer(v->getType())) {
    state_.ints[v] = Val::unknown(named(v) + " " + tail);
  }
}

void Frame::escape_held(const clang::Stmt* s, const std::string& at) {
  using namespace clang;
  if (const auto* construct = dyn_cast<CXXConstructExpr>(s)) {
    // std::pair<int&, int> p(n, 1), std::reference_wrapper<int> w = n, std::tuple<int&>(n): the
    // object may hold a reference to n, and writes through it are not followed.
    const CXXConstructorDecl* constructor = construct->getConstructor();
    const std::string made = "a " + construct->getType().getUnqualifiedType().getAsString();
    for (unsigned i = 0; i < construct->getNumArgs(); ++i) {
      if (binds_writable(constructor, i, construct->getArg(i)))
        for (const auto& target : targets_of(construct->getArg(i)))
          escape(target.first, "is bound to a reference by the constructor of " + made + " at " + at);
      else if (i < constructor->getNumParams() && constructor->getParamDecl(i)->getType()->isReferenceType())
        hold(construct->getArg(i), at);  // a const reference the object may keep
    }
  } else if (const auto* list = dyn_cast<InitListExpr>(s)) {
    // struct S { int &r; } s = {n}: the member r refers to n.
    const CXXRecordDecl* record = list->getType()->getAsCXXRecordDecl();
    if (record != nullptr && record->hasDefinition() && !record->isUnion()) {
      unsigned i = record->getNumBases();  // a C++17 aggregate's bases come first
      for (const FieldDecl* field : record->fields()) {
        if (i >= list->getNumInits()) break;
        const Expr* init = list->getInit(i++);
        const QualType type = field->getType();
        if (type->isReferenceType() && !type.getNonReferenceType().isConstQualified())
          for (const auto& target : targets_of(init))
            escape(target.first,
                   "is bound to the reference member '" + field->getNameAsString() + "' at " + at);
        else if (type->isReferenceType())
          hold(init, at);
      }
    }
  } else if (const auto* cast = dyn_cast<ExplicitCastExpr>(s); cast != nullptr && casts_away_const(cast)) {
    // const_cast<int&>(std::min(n, n)): whatever the operand refers to may be written through it.
    std::set<const VarDecl*> mentioned;
    mentions(cast->getSubExpr(), mentioned);
    for (const VarDecl* v : mentioned)
      escape(v, "has its constness cast away at " + at + " (it may be written through the result)");
    // const_cast<int&>(s.r), s holding a const reference to n: what objects hold escapes.
    if (names_object(cast->getSubExpr())) {
      const std::map<const VarDecl*, std::string> held = state_.held;
      for (const auto& [v, bound] : held)
        escape(v, "is bound to a const reference an object may hold at " + bound + ", and the cast at " + at +
                      " casts the constness of an object away");
    }
  }
}

void Frame::invalidate(const clang::Stmt* s, const std::string& how) {
  using namespace clang;
  if (s == nullptr) return;
  const std::string at = f_.where(s->getBeginLoc());
  escape_held(s, at);
  clobber(f_.effects.of_node(s), doing(s));
  if (const auto* b = dyn_cast<BinaryOperator>(s); b != nullptr && b->isAssignmentOp()) {
    for (const auto& [v, component] : targets_of(b->getLHS())) set_unknown(v, component, how);
    clobber(HostEffects::of_target(b->getLHS()), doing(s));
  } else if (const auto* u = dyn_cast<UnaryOperator>(s)) {
    if (u->isIncrementDecrementOp()) {
      for (const auto& [v, component] : targets_of(u->getSubExpr())) set_unknown(v, component, how);
      clobber(HostEffects::of_target(u->getSubExpr()), doing(s));
    } else if (u->getOpcode() == UO_AddrOf) {
      for (const auto& target : targets_of(u->getSubExpr()))
        escape(target.first, "has its address taken at " + at + " (it may be set through a pointer)");
    }
  } else if (const auto* call = dyn_cast<CallExpr>(s)) {
    const FunctionDecl* callee = call->getDirectCallee();
    const std::string called = callee != nullptr ? f_.name(callee) : "a function";
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      if (binds_writable(callee, i, call->getArg(i)))
        for (const auto& target : targets_of(call->getArg(i)))
          escape(target.first, "is passed by reference to " + called + " at " + at);
    }
    if (const auto* op = dyn_cast<CXXOperatorCallExpr>(call);
        op != nullptr && op->isAssignmentOp() && op->getNumArgs() > 0) {
      for (const auto& [v, component] : targets_of(op->getArg(0))) set_unknown(v, component, how);
      clobber(HostEffects::of_target(op->getArg(0)), doing(s));
    }
    if (const auto* member = dyn_cast<CXXMemberCallExpr>(call))
      if (const auto* object = member->getImplicitObjectArgument())
        escape(target_of(object).first, "has " + called + " called on it at " + at);
  } else if (const auto* lambda = dyn_cast<LambdaExpr>(s)) {
    for (const LambdaCapture& capture : lambda->captures())
      if (capture.capturesVariable() && capture.getCaptureKind() == LCK_ByRef)
        escape(dyn_cast<VarDecl>(capture.getCapturedVar()),
               "is captured by reference by the lambda at " + at);
  } else if (const auto* d = dyn_cast<DeclStmt>(s)) {
    destroy(d, d->getEndLoc());
    for (const Decl* decl : d->decls())
      if (const auto* v = dyn_cast<VarDecl>(decl); v != nullptr && v->getType()->isReferenceType() &&
                                                   v->getInit() != nullptr &&
                                                   !v->getType().getNonReferenceType().isConstQualified())
        for (const auto& target : targets_of(v->getInit()))
          escape(target.first, "is bound to the reference '" + v->getNameAsString() + "' at " + at);
  }
  if (const auto* argument = dyn_cast<CXXDefaultArgExpr>(s)) invalidate(argument->getExpr(), how);
  if (const auto* init = dyn_cast<CXXDefaultInitExpr>(s)) invalidate(init->getExpr(), how);
  for (const Stmt* child : s->children()) invalidate(child, how);
}

void Frame::run_calls(const clang::Stmt* s) {
  if (s == nullptr) return;
  clobber(f_.effects.of_node(s), doing(s));
  for (const clang::Stmt* child : s->children()) run_calls(child);
}

void Frame::clobber(const Writes& writes, const std::string& what) {
  if (writes.empty()) return;
  const auto why = [&](const clang::VarDecl* v) -> std::string {
    if (!v->hasGlobalStorage()) return "";
    if (!writes.any.empty()) return "may be written by " + what + " (" + writes.any + ")";
    if (writes.by_name.count(v->getCanonicalDecl()) != 0) return "may be written by " + what;
    const std::string bound = writes.indirect ? f_.effects.bound(v) : "";
    return bound.empty() ? ""
                         : "has a pointer or reference bound to it at " + bound +
                               ", and may be written through one by " + what;
  };
  std::vector<std::pair<const clang::VarDecl*, std::string>> hit;
  for (const auto& [v, value] : state_.ints)
    if (value.known)
      if (std::string w = why(v); !w.empty()) hit.emplace_back(v, std::move(w));
  for (const auto& [v, dim] : state_.dims)
    if (dim.c[0].known || dim.c[1].known || dim.c[2].known)
      if (std::string w = why(v); !w.empty()) hit.emplace_back(v, std::move(w));
  for (const auto& [v, w] : hit) set_unknown(v, -1, w);
}

std::string Frame::doing(const clang::Stmt* s) const {
  using namespace clang;
  const std::string at = " at " + f_.where(s->getBeginLoc());
  if (const auto* call = dyn_cast<CallExpr>(s)) {
    const auto* method = dyn_cast_or_null<CXXMethodDecl>(call->getDirectCallee());
    if (method != nullptr && method->getParent()->isLambda())
      return "the call of the lambda (" + f_.where(method->getParent()->getLocation()) + ")" + at;
    return call->getDirectCallee() != nullptr ? "the call of " + f_.name(call->getDirectCallee()) + at
                                              : "the call" + at;
  }
  if (const auto* construct = dyn_cast<CXXConstructExpr>(s))
    return "the construction of a " + construct->getType().getUnqualifiedType().getAsString() + at;
  if (isa<CXXNewExpr>(s)) return "the new" + at;
  if (isa<CXXDeleteExpr>(s)) return "the delete" + at;
  if (const auto* temporary = dyn_cast<CXXBindTemporaryExpr>(s))
    return "the destruction of a temporary " + temporary->getType().getUnqualifiedType().getAsString() + at;
  if (isa<CXXDefaultArgExpr>(s) || isa<CXXDefaultInitExpr>(s)) return "the default value" + at;
  return "'" + f_.quoted(s) + "'" + at;
}

void Frame::destroy(const clang::DeclStmt* d, clang::SourceLocation end) {
  for (const clang::Decl* decl : d->decls())
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(decl); v != nullptr && v->hasLocalStorage())
      clobber(f_.effects.of_destruction(v->getType()),
              "the destruction of '" + v->getNameAsString() + "' at " + f_.where(end));
}

bool Frame::binds_writable(const clang::FunctionDecl* callee, unsigned i, const clang::Expr* argument) {
  if (!argument->isGLValue()) return false;
  if (callee == nullptr || i >= callee->getNumParams()) return true;
  const clang::QualType type = callee->getParamDecl(i)->getType();
  return type->isReferenceType() && !type.getNonReferenceType().isConstQualified();
}

bool Frame::casts_away_const(const clang::ExplicitCastExpr* cast) {
  if (llvm::isa<clang::CXXConstCastExpr>(cast)) return true;
  if (cast->getCastKind() != clang::CK_NoOp) return false;
  const clang::QualType to = cast->getTypeAsWritten();
  const clang::QualType from = cast->getSubExpr()->getType();
  if (to->isReferenceType()) return from.isConstQualified() && !to.getNonReferenceType().isConstQualified();
  if (to->isPointerType() && from->isPointerType())
    return from->getPointeeType().isConstQualified() && !to->getPointeeType().isConstQualified();
  return false;
}

void Frame::mentions(const clang::Stmt* s, std::set<const clang::VarDecl*>& out) {
  if (s == nullptr) return;
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(s))
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getDecl());
        v != nullptr && (is_integer(v->getType()) || is_dim3(v->getType())))
      out.insert(v);
  for (const clang::Stmt* child : s->children()) mentions(child, out);
}

void Frame::escape(const clang::VarDecl* v, const std::string& tail, int depth) {
  if (v == nullptr || state_.escaped.count(v) != 0) return;
  state_.escaped[v] = named(v) + " " + tail;
  // A reference: what it refers to escapes with it (const int &c = n; const_cast<int&>(c) = 9),
  // also through a call returning a reference to an argument (const int &c = std::min(n, m)).
  if (!v->getType()->isReferenceType() || v->getInit() == nullptr || depth >= kMaxCallDepth) return;
  const clang::Expr* init = v->getInit()->IgnoreParenImpCasts();
  std::vector<const clang::Expr*> referred{init};
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(init))
    referred.assign(call->arg_begin(), call->arg_end());
  for (const clang::Expr* e : referred)
    if (e->isGLValue())
      for (const auto& target : targets_of(e)) escape(target.first, tail, depth + 1);
}

void Frame::hold(const clang::Expr* argument, const std::string& at) {
  if (!argument->isGLValue()) return;
  for (const auto& target : targets_of(argument))
    if (target.first != nullptr) state_.held.emplace(target.first, at);
}

bool Frame::names_object(const clang::Stmt* s) {
  if (s == nullptr) return false;
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(s))
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getDecl());
        v != nullptr && v->getType().getNonReferenceType()->isRecordType() && !is_dim3(v->getType()))
      return true;
  for (const clang::Stmt* child : s->children())
    if (names_object(child)) return true;
  return false;
}

// --- Values -------------------------------------------------------------------------------------

std::unique_ptr<Frame> Frame::call_site(const clang::ParmVarDecl* p, std::string& why,
                                        const clang::Expr*& argument, const clang::Stmt*& call) const {
  const std::string who = named(p) + " is a parameter of " + f_.name(function_);
  if (function_->isMain()) {
    why = who;
    return nullptr;
  }
  if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function_);
      method != nullptr && method->isVirtual()) {
    why = who + ", which is virtual (it may be called through its base class)";
    return nullptr;
  }
  if (const auto other = f_.other_calls.find(function_->getCanonicalDecl()); other != f_.other_calls.end()) {
    why = who + ", which " + other->second;
    return nullptr;
  }
  const auto found = f_.callers.find(function_->getCanonicalDecl());
  const std::size_t sites = found == f_.callers.end() ? 0 : found->second.size();
  if (sites != 1) {
    why = who + (sites == 0 ? ", which nothing in the file calls"
                            : ", which is called from " + std::to_string(sites) + " places in the file");
    return nullptr;
  }
  if (depth_ >= kMaxCallDepth) {
    why = who + ", called through more than " + std::to_string(kMaxCallDepth) + " functions";
    return nullptr;
  }
  const CallSite& site = found->second.front();
  const unsigned index = p->getFunctionScopeIndex();
  if (index >= site.call->getNumArgs()) {
    why = who + ", not given at " + f_.where(site.call->getBeginLoc());
    return nullptr;
  }
  argument = site.call->getArg(index);
  call = site.call;
  return std::make_unique<Frame>(f_, site.caller, depth_ + 1, pins_);
}

Val Frame::lookup(const clang::VarDecl* v) {
  if (const Val* pin = pinned(v)) return *pin;
  if (const auto e = state_.escaped.find(v); e != state_.escaped.end()) return Val::unknown(e->second);
  if (const auto i = state_.ints.find(v); i != state_.ints.end()) return i->second;
  Val value;
  if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(v)) {
    std::string why;
    const clang::Expr* argument = nullptr;
    const clang::Stmt* call = nullptr;
    const std::unique_ptr<Frame> caller = call_site(p, why, argument, call);
    value = Val::unknown(why);
    if (caller)
      caller->follow({call}, [&](Frame& there, const clang::Stmt*) {
        value = assigned(v, there.fitted(argument, v->getType()));
      });
  } else if (!v->hasLocalStorage() || v->isStaticLocal()) {
    value = Val::unknown(named(v) + (v->getType().isConstQualified()
                                         ? " is not a constant"
                                         : " is a variable outside the function (not const), "
                                           "whose value at the launch is not followed"));
  } else {
    value = Val::unknown(named(v) + " is not followed here");
  }
  state_.ints[v] = value;
  return value;
}

Dim Frame::lookup_dim(const clang::VarDecl* v) {
  if (const Dim* pin = pinned_dim(v)) return *pin;
  if (const auto e = state_.escaped.find(v); e != state_.escaped.end()) {
    Dim d;
    for (Val& c : d.c) c = Val::unknown(e->second);
    return d;
  }
  if (const auto i = state_.dims.find(v); i != state_.dims.end()) return i->second;
  Dim d;
  if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(v)) {
    std::string why;
    const clang::Expr* argument = nullptr;
    const clang::Stmt* call = nullptr;
    const std::unique_ptr<Frame> caller = call_site(p, why, argument, call);
    if (caller)
      caller->follow({call}, [&](Frame& there, const clang::Stmt*) { d = there.eval_dim(argument); });
    for (int c = 0; c < 3; ++c) d.c[c] = caller ? assigned(v, d.c[c], c) : Val::unknown(why);
  } else {
    for (Val& c : d.c)
      c = Val::unknown(named(v) + " is not followed here (not a local of " + f_.name(function_) + ")");
  }
  state_.dims[v] = d;
  return d;
}

Val Frame::convert(Val x, clang::QualType type) const {
  if (!x.known) return x;
  type = type.getNonReferenceType().getCanonicalType();
  if (type->isBooleanType()) {
    APSInt b(1, true);
    b = x.v.isZero() ? 0 : 1;
    return Val::of(b);
  }
  if (!type->isIntegralOrEnumerationType()) return Val::unknown("a value of type " + type.getAsString());
  APSInt r = x.v.extOrTrunc(static_cast<uint32_t>(ctx_.getIntWidth(type)));
  r.setIsUnsigned(!type->isSignedIntegerOrEnumerationType());
  return Val::of(r);
}

Val Frame::fitted(const clang::Expr* e, clang::QualType type) {
  using namespace clang;
  type = type.getNonReferenceType().getCanonicalType();
  // What is converted: below the conversions Clang made implicit (an integer's own type).
  const Expr* inner = e->IgnoreParens();
  while (const auto* c = dyn_cast<ImplicitCastExpr>(inner)) {
    const CastKind kind = c->getCastKind();
    if ((kind != CK_IntegralCast && kind != CK_NoOp && kind != CK_LValueToRValue) ||
        !is_integer(c->getSubExpr()->getType()))
      break;
    inner = c->getSubExpr()->IgnoreParens();
  }
  const Val value = eval(inner);
  if (!value.known || !type->isIntegralOrEnumerationType() || type->isBooleanType())
    return convert(value, type);
  const unsigned bits = static_cast<unsigned>(ctx_.getIntWidth(type));
  const bool is_signed = type->isSignedIntegerOrEnumerationType();
  const APSInt low = is_signed ? APSInt::getMinValue(bits, false) : APSInt::getMinValue(bits, true);
  const APSInt high = is_signed ? APSInt::getMaxValue(bits, false) : APSInt::getMaxValue(bits, true);
  if (APSInt::compareValues(value.v, low) < 0 || APSInt::compareValues(value.v, high) > 0)
    return Val::refusal("'" + f_.quoted(inner) + "' (" + f_.where(inner->getBeginLoc()) + ") is " +
                        decimal(value.v) + ", outside " + type.getAsString() + "'s range " + decimal(low) +
                        " .. " + decimal(high));
  return convert(value, type);
}

bool Frame::is_min_max(const clang::CallExpr* call) const {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr || call->getNumArgs() != 2 || callee->getIdentifier() == nullptr) return false;
  const llvm::StringRef name = callee->getName();
  if (name != "min" && name != "max") return false;
  if (!callee->isInStdNamespace() && !callee->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  // The library's or the prelude's (every declaration of it), not a function of the file's own
  // that happens to share the name.
  const clang::SourceManager& sources = ctx_.getSourceManager();
  for (const clang::FunctionDecl* declaration : callee->redecls()) {
    const clang::SourceLocation at = sources.getExpansionLoc(declaration->getLocation());
    if (!sources.isInSystemHeader(at) && !sources.getFilename(at).startswith(kBuiltinDir)) return false;
  }
  return true;
}

Val Frame::min_max(const clang::CallExpr* call) {
  using namespace clang;
  // The arguments' own types, as written (below a temporary bound to std::min's const T&, and
  // below the conversions to the parameters' types).
  const auto written = [](const Expr* a) {
    a = a->IgnoreParens();
    if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(a)) a = m->getSubExpr();
    return a->IgnoreParenImpCasts()->getType().getCanonicalType().getUnqualifiedType();
  };
  const QualType first = written(call->getArg(0)), second = written(call->getArg(1));
  const QualType type = call->getType().getNonReferenceType();
  // std::min<int>(n / 64, 7): the type given converts both arguments to it.
  const auto* callee = dyn_cast<DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts());
  const bool given = callee != nullptr && callee->hasExplicitTemplateArgs() && is_integer(type);
  if (!given && (first != second || !is_integer(first) || !is_integer(type)))
    return Val::unknown(f_.quoted(call) + " (at " + f_.where(call->getBeginLoc()) +
                        ") takes arguments of types " + first.getAsString() + " and " + second.getAsString() +
                        ": min and max are followed for two integers of one type");
  const Val a = convert(eval(call->getArg(0)), type);
  if (!a.known) return a;
  const Val b = convert(eval(call->getArg(1)), type);
  if (!b.known) return b;
  const bool is_max = call->getDirectCallee()->getName() == "max";
  // std::min(a, b) is (b < a) ? b : a; std::max(a, b) is (a < b) ? b : a.
  return is_max ? (a.v < b.v ? b : a) : (b.v < a.v ? b : a);
}

Val Frame::arithmetic(clang::BinaryOperatorKind op, const Val& a, const Val& b, clang::QualType type,
                      const clang::Expr* at) const {
  using namespace clang;
  if (!a.known) return a;
  if (!b.known) return b;
  if (op == BO_Shl || op == BO_Shr) {  // n <<= k: the count keeps its type
    const Val x = convert(a, type);
    return x.known ? shift(op, x, b, type, at) : x;
  }
  const Val x = convert(a, type), y = convert(b, type);
  if (!x.known) return x;
  const APSInt& l = x.v;
  const APSInt& r = y.v;
  const bool is_signed = l.isSigned();
  bool overflow = false;
  APSInt result = l;
  const auto fail = [&](const std::string& what) {
    return Val::unknown(f_.quoted(at) + " " + what + " (at " + f_.where(at->getBeginLoc()) + ")");
  };
  switch (op) {
    case BO_Add:
      result = APSInt(is_signed ? l.sadd_ov(r, overflow) : l + r, !is_signed);
      break;
    case BO_Sub:
      result = APSInt(is_signed ? l.ssub_ov(r, overflow) : l - r, !is_signed);
      break;
    case BO_Mul:
      result = APSInt(is_signed ? l.smul_ov(r, overflow) : l * r, !is_signed);
      break;
    case BO_Div:
    case BO_Rem:
      if (r.isZero()) return fail("divides by zero");
      if (op == BO_Div)
        result = APSInt(is_signed ? l.sdiv_ov(r, overflow) : l.udiv(r), !is_signed);
      else if (is_signed && l.isMinSignedValue() && r.isAllOnes())
        overflow = true;
      else
        result = APSInt(is_signed ? l.srem(r) : l.urem(r), !is_signed);
      break;
    case BO_And:
      result = APSInt(l & r, !is_signed);
      break;
    case BO_Or:
      result = APSInt(l | r, !is_signed);
      break;
    case BO_Xor:
      result = APSInt(l ^ r, !is_signed);
      break;
    default:
      return fail("is not an integer operation the evaluator computes");
  }
  if (overflow) return fail("overflows its type, " + type.getAsString());
  return Val::of(result);
}

Val Frame::binary(const clang::BinaryOperator* b) {
  using namespace clang;
  const BinaryOperatorKind op = b->getOpcode();
  const QualType type = b->getType();
  if (op == BO_LAnd || op == BO_LOr) {
    const Val l = eval(b->getLHS());
    if (!l.known) return l;
    if (l.v.isZero() == (op == BO_LAnd))
      return convert(Val::of(APSInt(llvm::APInt(32, op == BO_LOr ? 1 : 0), false)), type);
    const Val r = eval(b->getRHS());
    if (!r.known) return r;
    return convert(Val::of(APSInt(llvm::APInt(32, r.v.isZero() ? 0 : 1), false)), type);
  }
  if (op == BO_Comma || b->isAssignmentOp()) return leaf(b);
  const Val l = eval(b->getLHS());
  if (!l.known) return l;
  const Val r = eval(b->getRHS());
  if (!r.known) return r;
  if (b->isComparisonOp()) {
    // Both operands carry their common type already (Clang's implicit conversions).
    const Val rc = convert(r, b->getLHS()->getType());
    if (!rc.known) return rc;
    const APSInt& x = l.v;
    const APSInt& y = rc.v;
    bool truth = false;
    switch (op) {
      case BO_LT:
        truth = x < y;
        break;
      case BO_GT:
        truth = x > y;
        break;
      case BO_LE:
        truth = x <= y;
        break;
      case BO_GE:
        truth = x >= y;
        break;
      case BO_EQ:
        truth = x == y;
        break;
      case BO_NE:
        truth = x != y;
        break;
      default:
        return leaf(b);
    }
    return convert(Val::of(APSInt(llvm::APInt(32, truth ? 1 : 0), false)), type);
  }
  if (op == BO_Shl || op == BO_Shr) return shift(op, l, r, type, b);
  return arithmetic(op, l, r, type, b);
}

// `l << r` or `l >> r`: the result has the promoted left operand's type (`l` has it); the count
// is its own.
Val Frame::shift(clang::BinaryOperatorKind op, const Val& l, const Val& r, clang::QualType type,
                 const clang::Expr* at) const {
  using namespace clang;
  const unsigned width = l.v.getBitWidth();
  if (r.v.isNegative() || r.v.getZExtValue() >= width)
    return Val::unknown(f_.quoted(at) + " shifts by " + decimal(r.v) + ", outside 0 .. " +
                        std::to_string(width - 1) + " (at " + f_.where(at->getBeginLoc()) + ")");
  const unsigned count = static_cast<unsigned>(r.v.getZExtValue());
  if (op == BO_Shr)
    return Val::of(APSInt(l.v.isSigned() ? l.v.ashr(count) : l.v.lshr(count), l.v.isUnsigned()));
  if (l.v.isSigned()) {
    bool overflow = l.v.isNegative();
    const llvm::APInt shifted = l.v.sshl_ov(llvm::APInt(width, count), overflow);
    if (overflow || l.v.isNegative())
      return Val::unknown(f_.quoted(at) + " overflows its type, " + type.getAsString() + " (at " +
                          f_.where(at->getBeginLoc()) + ")");
    return Val::of(APSInt(shifted, false));
  }
  return Val::of(APSInt(l.v.shl(count), true));
}

Val Frame::eval(const clang::Expr* e) {
  using namespace clang;
  if (!state_.blocked.empty()) return Val::unknown(state_.blocked);
  if (e == nullptr) return Val::unknown("no expression");
  if (const ClangError* error = f_.error_in(e)) return rejected(*error);
  const QualType type = e->getType();
  if (!e->isValueDependent() && !e->isTypeDependent() && type->isIntegralOrEnumerationType() &&
      !mentions_pinned(e)) {
    Expr::EvalResult folded;
    if (e->EvaluateAsInt(folded, ctx_) && folded.Val.isInt()) return Val::of(folded.Val.getInt());
  }
  e = e->IgnoreParens();
  if (const auto* cleanups = dyn_cast<ExprWithCleanups>(e)) return eval(cleanups->getSubExpr());
  if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) return eval(m->getSubExpr());
  if (const auto* d = dyn_cast<CXXDefaultArgExpr>(e)) return eval(d->getExpr());
  if (const auto* call = dyn_cast<CallExpr>(e); call != nullptr && is_min_max(call)) return min_max(call);
  if (const auto* c = dyn_cast<CastExpr>(e)) {
    switch (c->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp:
      case CK_IntegralCast:
      case CK_IntegralToBoolean:
        return convert(eval(c->getSubExpr()), type);
      default:
        return leaf(e);
    }
  }
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
    if (const auto* v = dyn_cast<VarDecl>(d->getDecl()); v != nullptr && is_integer(v->getType()))
      return lookup(v);
    return leaf(e);
  }
  if (const auto* m = dyn_cast<MemberExpr>(e)) {
    const auto [v, component] = target_of(m);
    if (v != nullptr && component >= 0) return lookup_dim(v).c[component];
    return leaf(e);
  }
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    const UnaryOperatorKind op = u->getOpcode();
    if (op != UO_Plus && op != UO_Minus && op != UO_Not && op != UO_LNot) return leaf(e);
    const Val x = eval(u->getSubExpr());
    if (!x.known) return x;
    switch (u->getOpcode()) {
      case UO_Plus:
        return convert(x, type);
      case UO_Minus: {
        const Val zero = Val::of(APSInt(llvm::APInt(x.v.getBitWidth(), 0), x.v.isUnsigned()));
        return arithmetic(BO_Sub, zero, x, type, e);
      }
      case UO_Not:
        return convert(Val::of(APSInt(~x.v, x.v.isUnsigned())), type);
      case UO_LNot:
        return convert(Val::of(APSInt(llvm::APInt(32, x.v.isZero() ? 1 : 0), false)), type);
      default:
        return leaf(e);
    }
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e)) return binary(b);
  if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
    const Val condition = eval(c->getCond());
    if (!condition.known) return condition;
    return convert(eval(condition.v.isZero() ? c->getFalseExpr() : c->getTrueExpr()), type);
  }
  return leaf(e);
}

const clang::Expr* unwrap_dim3(const clang::Expr* e, Dim3Wrappers wrappers) {
  using namespace clang;
  while (e != nullptr) {
    e = wrappers.every_conversion ? e->IgnoreParenImpCasts() : e->IgnoreParens();
    if (const auto* x = dyn_cast<ExprWithCleanups>(e))
      e = x->getSubExpr();
    else if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else if (const auto* t = dyn_cast<CXXBindTemporaryExpr>(e))
      e = t->getSubExpr();
    else if (const auto* f = dyn_cast<CXXFunctionalCastExpr>(e); f != nullptr && wrappers.functional_casts)
      e = f->getSubExpr();
    else if (const auto* i = dyn_cast<ImplicitCastExpr>(e);
             i != nullptr && is_dim3(i->getSubExpr()->getType()))
      e = i->getSubExpr();
    else
      break;
  }
  return e;
}

Dim Frame::eval_dim(const clang::Expr* e) {
  using namespace clang;
  Dim d;
  if (!state_.blocked.empty()) {
    for (Val& c : d.c) c = Val::unknown(state_.blocked);
    return d;
  }
  if (const ClangError* error = f_.error_in(e)) {
    for (Val& c : d.c) c = rejected(*error);
    return d;
  }
  e = unwrap_dim3(e, {});
  if (is_integer(e->getType())) {
    d.c[0] = fitted(e, ctx_.UnsignedIntTy);
    for (int c = 1; c < 3; ++c) d.c[c] = Val::of(APSInt(llvm::APInt(32, 1), true));
    return d;
  }
  if (const auto* construct = dyn_cast<CXXConstructExpr>(e)) {
    const CXXConstructorDecl* constructor = construct->getConstructor();
    if (constructor->isCopyOrMoveConstructor() && construct->getNumArgs() >= 1)
      return eval_dim(construct->getArg(0));
    if (construct->getNumArgs() == 3 && is_integer(constructor->getParamDecl(0)->getType())) {
      for (unsigned c = 0; c < 3; ++c) d.c[c] = fitted(construct->getArg(c), ctx_.UnsignedIntTy);
      return d;
    }
    if (construct->getNumArgs() == 1 && is_integer(construct->getArg(0)->getType()))
      return eval_dim(construct->getArg(0));
  }
  if (const auto* ref = dyn_cast<DeclRefExpr>(e))
    if (const auto* v = dyn_cast<VarDecl>(ref->getDecl()); v != nullptr && is_dim3(v->getType()))
      return lookup_dim(v);
  for (Val& c : d.c) c = leaf(e);
  return d;
}

}  // namespace warpdiv::frontend::detail::host_eval
