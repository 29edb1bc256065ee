// What a kernel reaches, and where Clang's errors lie with respect to it (see reach.hpp).
#include "kernels/frontend/reach.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/OperatorKinds.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/Support/raw_ostream.h>

#include <map>
#include <set>
#include <vector>

namespace warpdiv::frontend::detail {
namespace {

using namespace clang;

/// The declaration that stands for `decl` in the reach: a template's pattern for its
/// instantiations and the template itself, the first declaration for redeclarations.
const Decl* key_of(const Decl* decl) {
  if (const auto* t = dyn_cast<TemplateDecl>(decl); t != nullptr && t->getTemplatedDecl() != nullptr)
    decl = t->getTemplatedDecl();
  if (const auto* f = dyn_cast<FunctionDecl>(decl)) {
    if (const FunctionDecl* pattern = f->getTemplateInstantiationPattern(/*ForDefinition=*/false))
      decl = pattern;
  } else if (const auto* r = dyn_cast<CXXRecordDecl>(decl)) {
    if (const CXXRecordDecl* pattern = r->getTemplateInstantiationPattern()) decl = pattern;
  } else if (const auto* v = dyn_cast<VarDecl>(decl)) {
    if (const VarDecl* pattern = v->getTemplateInstantiationPattern()) decl = pattern;
  } else if (const auto* e = dyn_cast<EnumDecl>(decl)) {
    if (const EnumDecl* pattern = e->getTemplateInstantiationPattern()) decl = pattern;
  }
  return decl->getCanonicalDecl();
}

/// A declaration errors can be attributed to: one at namespace or class scope that declares a
/// function, a variable, a type, or a template of one.
bool attributable(const Decl* decl) {
  return isa<FunctionDecl, FunctionTemplateDecl, VarDecl, VarTemplateDecl, TagDecl, ClassTemplateDecl,
             TypedefNameDecl, TypeAliasTemplateDecl>(decl);
}

struct Region {
  FileID file;
  unsigned begin = 0;
  unsigned end = 0;  // the offset of the last token's start
  const Decl* decl = nullptr;
  const Decl* key = nullptr;
};

}  // namespace

struct KernelReach::State : RecursiveASTVisitor<KernelReach::State> {
  ASTContext& context;
  const SourceManager& sources;
  std::set<const Decl*> reached;   // keys
  std::set<const Decl*> expanded;  // canonical declarations already followed
  std::set<const Type*> types_seen;
  std::vector<const Decl*> to_walk;  // definitions whose text is still to be walked
  bool broken = false;
  std::string reason;  // why broken
  std::vector<Region> regions;

  explicit State(ASTContext& c) : context(c), sources(c.getSourceManager()) {}

  // --- the reach -------------------------------------------------------------------------

  bool shouldVisitImplicitCode() const { return true; }
  bool shouldVisitTemplateInstantiations() const { return false; }  // reached ones are walked

  std::string where(SourceLocation location) const {
    const PresumedLoc presumed = sources.getPresumedLoc(sources.getExpansionLoc(location));
    if (presumed.isInvalid()) return "<unknown>";
    return std::string(presumed.getFilename()) + ":" + std::to_string(presumed.getLine()) + ":" +
           std::to_string(presumed.getColumn());
  }

  void set_broken(const std::string& why) {
    if (broken) return;
    broken = true;
    reason = why;
  }

  void check_valid(const Decl* decl) {
    if (decl == nullptr || !decl->isInvalidDecl()) return;
    const std::string name = name_of(decl);
    set_broken("uses " + (name.empty() ? std::string("a declaration") : "'" + name + "'") + " (" +
               where(decl->getLocation()) + "), which the errors above left invalid");
  }

  void reach(const Decl* decl) {
    if (decl == nullptr) return;
    check_valid(decl);
    const Decl* key = key_of(decl);
    check_valid(key);
    reached.insert(key);
    // Each instantiation of a template is followed (their calls and types differ).
    if (!expanded.insert(decl->getCanonicalDecl()).second) return;
    if (const auto* t = dyn_cast<TemplateDecl>(decl)) {
      reach(t->getTemplatedDecl());
      return;
    }
    // A member: its class; a class nested in another: the outer one.
    if (const auto* record = dyn_cast<RecordDecl>(decl->getDeclContext())) reach(record);
    if (const auto* f = dyn_cast<FunctionDecl>(decl)) {
      for (const FunctionDecl* redecl : f->redecls()) check_valid(redecl);
      const FunctionDecl* definition = nullptr;
      if (f->hasBody(definition) && definition != nullptr) {
        check_valid(definition);
        to_walk.push_back(definition);
      } else {
        to_walk.push_back(f);  // the parameters' types and default arguments
      }
      if (const auto* d = dyn_cast<CXXDestructorDecl>(f)) reach(d->getParent());
    } else if (const auto* v = dyn_cast<VarDecl>(decl)) {
      if (!v->isLocalVarDeclOrParm()) {
        for (const VarDecl* redecl : v->redecls()) check_valid(redecl);
        const VarDecl* definition = v->getDefinition();
        to_walk.push_back(definition != nullptr ? definition : v);
      }
    } else if (const auto* tag = dyn_cast<TagDecl>(decl)) {
      const TagDecl* definition = tag->getDefinition();
      if (definition == nullptr) return;
      check_valid(definition);
      if (const auto* record = dyn_cast<CXXRecordDecl>(definition)) {
        for (const CXXBaseSpecifier& base : record->bases()) reach_type(base.getType());
        for (const FieldDecl* field : record->fields()) {
          reach_type(field->getType());
          if (field->hasInClassInitializer()) to_walk.push_back(field);
        }
        if (const CXXDestructorDecl* destructor = record->getDestructor()) reach(destructor);
        if (const auto* s = dyn_cast<ClassTemplateSpecializationDecl>(record))
          for (const TemplateArgument& argument : s->getTemplateArgs().asArray())
            if (argument.getKind() == TemplateArgument::Type) reach_type(argument.getAsType());
      }
    } else if (const auto* typedef_decl = dyn_cast<TypedefNameDecl>(decl)) {
      reach_type(typedef_decl->getUnderlyingType());
    } else if (const auto* constant = dyn_cast<EnumConstantDecl>(decl)) {
      reach(dyn_cast<EnumDecl>(constant->getDeclContext()));
    } else if (const auto* field = dyn_cast<FieldDecl>(decl)) {
      reach(field->getParent());
    } else if (const auto* indirect = dyn_cast<IndirectFieldDecl>(decl)) {
      reach(indirect->getAnonField());
    }
  }

  void reach_type(QualType type) {
    while (!type.isNull()) {
      const Type* t = type.getTypePtr();
      if (!types_seen.insert(t).second) return;
      if (const auto* typedef_type = dyn_cast<TypedefType>(t)) reach(typedef_type->getDecl());
      if (const auto* tag = dyn_cast<TagType>(t)) {
        reach(tag->getDecl());
        return;
      }
      if (const auto* special = dyn_cast<TemplateSpecializationType>(t)) {
        if (const TemplateDecl* d = special->getTemplateName().getAsTemplateDecl()) reach(d);
      }
      if (const auto* function = dyn_cast<FunctionProtoType>(t)) {
        for (QualType parameter : function->getParamTypes()) reach_type(parameter);
        type = function->getReturnType();
        continue;
      }
      if (const auto* member = dyn_cast<MemberPointerType>(t)) reach_type(QualType(member->getClass(), 0));
      // Sugar first (typedefs, elaborated names), then what a pointer, reference or array holds.
      const QualType desugared = t->getLocallyUnqualifiedSingleStepDesugaredType();
      if (desugared.getTypePtr() != t) {
        type = desugared;
      } else if (!t->getPointeeType().isNull()) {
        type = t->getPointeeType();
      } else if (const ArrayType* array = t->getAsArrayTypeUnsafe()) {
        type = array->getElementType();
      } else {
        return;
      }
    }
  }

  bool VisitDecl(Decl* decl) {
    check_valid(decl);
    return true;
  }
  bool VisitValueDecl(ValueDecl* decl) {
    reach_type(decl->getType());
    return true;
  }
  bool VisitTypeLoc(TypeLoc type) {
    reach_type(type.getType());
    return true;
  }
  bool VisitExpr(Expr* expr) {
    if (expr->containsErrors())
      set_broken("holds an expression Clang could not build (" + where(expr->getExprLoc()) + ")");
    reach_type(expr->getType());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr* expr) {
    reach(expr->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr* expr) {
    reach(expr->getMemberDecl());
    return true;
  }
  bool VisitCallExpr(CallExpr* expr) {
    reach(expr->getCalleeDecl());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr* expr) {
    reach(expr->getConstructor());
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr* expr) {
    reach(expr->getOperatorNew());
    reach(expr->getOperatorDelete());
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr* expr) {
    reach(expr->getOperatorDelete());
    reach_type(expr->getDestroyedType());
    return true;
  }
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr* expr) {
    reach(expr->getTemporary()->getDestructor());
    return true;
  }

  void walk(const FunctionDecl& kernel) {
    reach(&kernel);
    to_walk.push_back(&kernel);  // an instantiation whose pattern was reached above is walked too
    std::set<const Decl*> walked;
    while (!to_walk.empty()) {
      const Decl* decl = to_walk.back();
      to_walk.pop_back();
      if (!walked.insert(decl).second) continue;
      if (const auto* field = dyn_cast<FieldDecl>(decl)) {
        TraverseStmt(const_cast<Expr*>(field->getInClassInitializer()));
      } else {
        TraverseDecl(const_cast<Decl*>(decl));
      }
    }
  }

  // --- where errors lie --------------------------------------------------------------------

  /// The offset of the ';' that ends the declaration whose last token starts at `offset` in
  /// `file` (skipping brackets); `offset` itself when there is none. Clang leaves out of a
  /// variable's range an initializer it could not build: `const char* s[] = {"a", NULL};`
  /// without NULL ends at "s[]".
  unsigned statement_end(FileID file, unsigned offset) const {
    bool invalid = false;
    const llvm::StringRef buffer = sources.getBufferData(file, &invalid);
    if (invalid || offset >= buffer.size()) return offset;
    Lexer lexer(sources.getLocForStartOfFile(file), context.getLangOpts(), buffer.begin(),
                buffer.begin() + offset, buffer.end());
    Token token;
    lexer.LexFromRawLexer(token);  // the declaration's last token
    int depth = 0;
    for (;;) {
      const bool at_end = lexer.LexFromRawLexer(token);
      if (token.is(tok::eof)) break;
      if (token.isOneOf(tok::l_paren, tok::l_square, tok::l_brace)) {
        ++depth;
      } else if (token.isOneOf(tok::r_paren, tok::r_square, tok::r_brace)) {
        if (--depth < 0) break;  // the enclosing scope closes: no ';' of its own
      } else if (token.is(tok::semi) && depth == 0) {
        return sources.getFileOffset(token.getLocation());
      }
      if (at_end) break;
    }
    return offset;
  }

  void add_region(const Decl* decl) {
    const SourceRange range = decl->getSourceRange();
    if (range.isInvalid()) return;
    const SourceLocation begin = sources.getExpansionRange(range.getBegin()).getBegin();
    const SourceLocation end = sources.getExpansionRange(range.getEnd()).getEnd();
    const auto [begin_file, begin_offset] = sources.getDecomposedLoc(begin);
    auto [end_file, end_offset] = sources.getDecomposedLoc(end);
    if (begin_file.isInvalid() || begin_file != end_file || end_offset < begin_offset) return;
    if (isa<VarDecl>(decl)) end_offset = statement_end(end_file, end_offset);
    regions.push_back(Region{begin_file, begin_offset, end_offset, decl, key_of(decl)});
  }

  void collect_regions(const DeclContext& context_decl) {
    for (const Decl* decl : context_decl.decls()) {
      if (decl->isImplicit()) continue;
      if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(decl)) {
        collect_regions(*cast<DeclContext>(decl));
        continue;
      }
      if (const auto* friend_decl = dyn_cast<FriendDecl>(decl)) {
        if (const NamedDecl* named = friend_decl->getFriendDecl()) decl = named;
      }
      if (!attributable(decl)) continue;
      add_region(decl);
      if (const auto* t = dyn_cast<ClassTemplateDecl>(decl)) {
        collect_regions(*t->getTemplatedDecl());
      } else if (const auto* record = dyn_cast<RecordDecl>(decl)) {
        collect_regions(*record);
      }
    }
  }

  /// The innermost region holding `location`'s expansion; null when none does.
  const Region* innermost(SourceLocation location) const {
    if (location.isInvalid()) return nullptr;
    const auto [file, offset] = sources.getDecomposedExpansionLoc(location);
    const Region* inner = nullptr;
    for (const Region& region : regions) {
      if (region.file != file || offset < region.begin || offset > region.end) continue;
      if (inner == nullptr || region.end - region.begin < inner->end - inner->begin) inner = &region;
    }
    return inner;
  }

  /// The spelling a use of the operator `kind` starts with: "+", "(" for "()", "new" for "new[]".
  static std::string operator_token(OverloadedOperatorKind kind) {
    std::string spelling = getOperatorSpelling(kind);
    if (spelling == "()" || spelling == "[]") return spelling.substr(0, 1);
    for (const char* keyword : {"new", "delete"})
      if (spelling.rfind(keyword, 0) == 0) return keyword;
    return spelling;
  }

  /// Breaks the kernel when its reach holds the name of an invalid declaration (reach.hpp).
  void check_invalid_names(const std::vector<SeenToken>& tokens) {
    std::map<const IdentifierInfo*, const Decl*> names;
    std::map<std::string, const Decl*> symbols;  // operators
    for (const Region& region : regions) {
      const Decl* decl = region.decl;
      if (!decl->isInvalidDecl() || reached.count(region.key) != 0) continue;
      if (const auto* t = dyn_cast<TemplateDecl>(decl); t != nullptr && t->getTemplatedDecl())
        decl = t->getTemplatedDecl();
      const auto* named = dyn_cast<NamedDecl>(decl);
      if (named == nullptr) continue;
      if (isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(decl)) {
        const auto* record = cast<CXXRecordDecl>(decl->getDeclContext());
        if (reached.count(key_of(record)) != 0) {
          check_valid(decl);
          return;
        }
        named = record;
      }
      if (const auto* f = dyn_cast<FunctionDecl>(named);
          f != nullptr && f->getOverloadedOperator() != OO_None) {
        symbols.emplace(operator_token(f->getOverloadedOperator()), f);
      } else if (const IdentifierInfo* id = named->getIdentifier()) {
        names.emplace(id, named);
      }
    }
    if (names.empty() && symbols.empty()) return;
    for (const SeenToken& token : tokens) {
      const Decl* decl = nullptr;
      if (token.identifier != nullptr) {
        const auto found = names.find(token.identifier);
        if (found != names.end()) decl = found->second;
      } else if (!symbols.empty()) {
        const char* spelling = tok::getPunctuatorSpelling(token.kind);
        if (spelling == nullptr) spelling = tok::getKeywordSpelling(token.kind);
        if (spelling != nullptr) {
          const auto found = symbols.find(spelling);
          if (found != symbols.end()) decl = found->second;
        }
      }
      if (decl == nullptr) continue;
      const Region* region = innermost(token.location);
      if (region != nullptr && reached.count(region->key) != 0) {
        check_valid(decl);
        return;
      }
    }
  }

  static std::string name_of(const Decl* decl) {
    const auto* named = dyn_cast<NamedDecl>(decl);
    if (named == nullptr) return "";
    std::string name;
    llvm::raw_string_ostream out(name);
    named->getNameForDiagnostic(out, named->getASTContext().getPrintingPolicy(), /*Qualified=*/true);
    out.flush();
    if (name.empty() && isa<TagDecl>(decl)) name = "an unnamed type";
    return name;
  }

  static std::string kind_of(const Decl* decl) {
    if (const auto* t = dyn_cast<FunctionTemplateDecl>(decl)) decl = t->getTemplatedDecl();
    if (const auto* f = dyn_cast<FunctionDecl>(decl)) {
      const bool device = f->hasAttr<CUDADeviceAttr>() || f->hasAttr<CUDAGlobalAttr>();
      return device ? "code" : "host code";
    }
    return "a declaration";
  }
};

KernelReach::KernelReach(const FunctionDecl& kernel, ASTContext& context,
                         const std::vector<SeenToken>& tokens)
    : state_(std::make_unique<State>(context)) {
  state_->walk(kernel);
  state_->collect_regions(*context.getTranslationUnitDecl());
  if (!state_->broken) state_->check_invalid_names(tokens);
}

KernelReach::~KernelReach() = default;

bool KernelReach::broken() const { return state_->broken; }

std::string KernelReach::broken_reason() const { return state_->reason; }

ErrorPlace KernelReach::place(SourceLocation location) const {
  ErrorPlace place;
  const Region* innermost = state_->innermost(location);
  if (innermost == nullptr) return place;
  place.owner = State::name_of(innermost->decl);
  place.owner_kind = State::kind_of(innermost->decl);
  place.in_reach = state_->reached.count(innermost->key) != 0;
  return place;
}

}  // namespace warpdiv::frontend::detail
