// Cooperative groups (<cooperative_groups.h>, declared in cooperative_groups.cuh).
//
// A group object holds nothing the model needs beyond what it is: each group variable (and
// each group parameter of an inlined function) is bound to a Group found from its initialiser
// (this_thread_block(), tiled_partition<N>(parent), this_grid(), another group) or, failing
// that, from its type. Ranks and sizes are computed from the launch built-ins as the toolkit
// computes them; a block's sync is a barrier; shuffles, votes and reductions are opaque values.
#include "kernels/frontend/lowerer.hpp"

namespace warpdiv::frontend::detail::lowering {

namespace {

// The launch built-ins' x, y and z.
constexpr ir::Builtin kThreadIdx[] = {ir::Builtin::ThreadIdxX, ir::Builtin::ThreadIdxY,
                                      ir::Builtin::ThreadIdxZ};
constexpr ir::Builtin kBlockIdx[] = {ir::Builtin::BlockIdxX, ir::Builtin::BlockIdxY, ir::Builtin::BlockIdxZ};
constexpr ir::Builtin kBlockDim[] = {ir::Builtin::BlockDimX, ir::Builtin::BlockDimY, ir::Builtin::BlockDimZ};
constexpr ir::Builtin kGridDim[] = {ir::Builtin::GridDimX, ir::Builtin::GridDimY, ir::Builtin::GridDimZ};

}  // namespace

const clang::CXXRecordDecl* Lowerer::record_of(clang::QualType type) {
  type = type.getNonReferenceType();
  if (const auto* pointer = type->getAs<clang::PointerType>()) type = pointer->getPointeeType();
  return type->getAsCXXRecordDecl();
}

/// A declaration of the cooperative_groups namespace (or one inside it: the toolkit's
/// cooperative_groups::__v1, ::details) in warpdiv's <cooperative_groups.h> or the toolkit's.
bool Lowerer::in_group_namespace(const clang::Decl* decl) const {
  for (const clang::DeclContext* context = decl->getDeclContext(); context != nullptr;
       context = context->getParent()) {
    const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(context);
    if (ns != nullptr && ns->getName() == "cooperative_groups") return is_cuda_api(decl);
  }
  return false;
}

bool Lowerer::is_group_type(clang::QualType type) const {
  const clang::CXXRecordDecl* record = record_of(type);
  if (record == nullptr || !in_group_namespace(record)) return false;
  const GroupName name = group_name(record->getNameAsString());
  return name == GroupName::BlockType || name == GroupName::TileType || name == GroupName::GridType ||
         name == GroupName::OtherGroupType;
}

/// Template argument `index` of a class template specialisation, as an unsigned constant.
std::optional<std::uint32_t> Lowerer::template_constant(const clang::CXXRecordDecl* record, unsigned index) {
  const auto* specialisation = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(record);
  if (specialisation == nullptr || specialisation->getTemplateArgs().size() <= index) return std::nullopt;
  const clang::TemplateArgument& arg = specialisation->getTemplateArgs()[index];
  if (arg.getKind() != clang::TemplateArgument::Integral) return std::nullopt;
  return static_cast<std::uint32_t>(arg.getAsIntegral().getZExtValue());
}

Lowerer::Group Lowerer::tile_of(std::uint32_t size, const Group& parent) const {
  Group tile;
  tile.kind = Group::Tile;
  tile.size = size;
  tile.parent_size = parent.kind == Group::Tile ? parent.size : 0;
  // A tile of a tile, or of a group the model does not know, has a meta-group rank the model
  // cannot compute exactly unless the parent is the block or a tile of it.
  if (parent.kind != Group::Block && parent.kind != Group::Tile) tile.kind = Group::Other;
  return tile;
}

Lowerer::Group Lowerer::group_of_type(clang::QualType type) const {
  const clang::CXXRecordDecl* record = record_of(type);
  Group group;
  if (record == nullptr || !in_group_namespace(record)) return group;
  const GroupName name = group_name(record->getNameAsString());
  if (name == GroupName::BlockType) group.kind = Group::Block;
  if (name == GroupName::GridType) group.kind = Group::Grid;
  // A tile or one of the toolkit's tile bases: N is its first template argument, P (the parent
  // tile, when there) the second.
  if (name == GroupName::TileType || name == GroupName::TileBase) {
    const auto size = template_constant(record, 0);
    if (!size) return group;
    Group parent;  // thread_block_tile<N> (no parent type): partitioned from the block
    parent.kind = Group::Block;
    const auto& args = llvm::cast<clang::ClassTemplateSpecializationDecl>(record)->getTemplateArgs();
    if (args.size() > 1 && args[1].getKind() == clang::TemplateArgument::Type &&
        !args[1].getAsType()->isVoidType())
      parent = group_of_type(args[1].getAsType());
    return tile_of(*size, parent);
  }
  if (group.kind == Group::Other && record->hasDefinition()) {  // a class derived from a group
    for (const clang::CXXBaseSpecifier& base : record->bases()) {
      const Group found = group_of_type(base.getType());
      if (found.kind != Group::Other) return found;
    }
  }
  return group;
}

/// The group an expression denotes: a bound variable, a call that makes one, or its type.
Lowerer::Group Lowerer::group_of(const clang::Expr* e) const {
  e = e->IgnoreParenImpCasts();
  if (const auto* cleanups = llvm::dyn_cast<clang::ExprWithCleanups>(e))
    return group_of(cleanups->getSubExpr());
  if (const auto* temp = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e))
    return group_of(temp->getSubExpr());
  if (const auto* bind = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e)) return group_of(bind->getSubExpr());
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e)) {
    if (construct->getNumArgs() == 1 && is_group_type(construct->getArg(0)->getType())) {
      Group copied = group_of(construct->getArg(0));  // a copy, or a tile<N, P> as tile<N>
      return copied.kind != Group::Other ? copied : group_of_type(e->getType());
    }
  }
  if (const auto* var = named_variable(e)) {
    const auto found = groups_.find(var);
    if (found != groups_.end()) return found->second;
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e)) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee != nullptr && in_group_namespace(callee)) {
      const GroupName name = group_name(callee->getNameAsString());
      if (name == GroupName::MakeBlock) {
        Group block;
        block.kind = Group::Block;
        return block;
      }
      if (name == GroupName::MakeGrid) {
        Group grid;
        grid.kind = Group::Grid;
        return grid;
      }
      if (name == GroupName::Partition && call->getNumArgs() == 1) {
        const clang::TemplateArgumentList* args = callee->getTemplateSpecializationArgs();
        if (args != nullptr && args->size() >= 1 &&
            args->get(0).getKind() == clang::TemplateArgument::Integral)
          return tile_of(static_cast<std::uint32_t>(args->get(0).getAsIntegral().getZExtValue()),
                         group_of(call->getArg(0)));
      }
      if (name == GroupName::Partition && call->getNumArgs() == 2) {
        clang::Expr::EvalResult size;
        if (call->getArg(1)->EvaluateAsInt(size, context_)) {
          const std::uint64_t n = size.Val.getInt().getZExtValue();
          if (n >= 1 && n <= 32 && (n & (n - 1)) == 0)
            return tile_of(static_cast<std::uint32_t>(n), group_of(call->getArg(0)));
        }
        return Group{};  // a tile size the model does not know
      }
    }
  }
  return group_of_type(e->getType());
}

/// The group a call on a group acts on: the object of obj.f() / p->f(), the first argument
/// of cg::sync(g), cg::thread_rank(g) ..., or the class of cg::thread_block::sync().
Lowerer::Group Lowerer::called_group(const clang::CallExpr* call) const {
  if (const clang::Expr* object = call_object(call)) return group_of(object);
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(callee))
    return group_of_type(clang::QualType(method->getParent()->getTypeForDecl(), 0));
  if (call->getNumArgs() > 0 && is_group_type(call->getArg(0)->getType())) return group_of(call->getArg(0));
  return Group{};
}

bool Lowerer::is_group_sync(const clang::CallExpr* call) const {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr || !in_group_namespace(callee)) return false;
  return group_name(callee->getNameAsString()) == GroupName::Sync;
}

/// g.sync(), cg::sync(g), cg::wait(g): a block's is a barrier; a warp tile's is a warp
/// barrier (work for the model: a warp's lanes run together); a grid's is refused.
ir::StmtId Lowerer::lower_group_sync(const clang::CallExpr* call) {
  const Group group = called_group(call);
  const ir::SourceRange where = range(call);
  switch (group.kind) {
    case Group::Block:
      return k_.barrier(where);
    case Group::Grid:
      refuse(call,
             "a grid-wide sync is not supported: the model has no barrier across blocks "
             "(it needs a cooperative launch)");
    case Group::Tile:
      if (group.size > 32)
        refuse(call, "the sync of a tile of " + std::to_string(group.size) +
                         " threads is not supported: the model has no barrier over part of a "
                         "block");
      return warp_barrier(call, tile_mask(group.size, where));
    case Group::Other:
      break;
  }
  refuse(call, "'" + text(call) + "' is not supported: the model cannot tell which threads this group holds");
}

/// A warp barrier over the lanes of `mask` (uint32): __syncwarp(mask), a warp tile's sync(). The
/// model's warp runs its lanes together, so the barrier is the check of its mask that CUDA requires
/// (ops::warp_mask_faults), a SyncWarp warp function whose value (0) a local takes.
ir::StmtId Lowerer::warp_barrier(const clang::CallExpr* call, ir::ExprId mask) {
  const ir::SourceRange where = range(call);
  const ir::ExprId sync = k_.warp(ir::WarpOp::SyncWarp, {mask}, 32, where);
  return k_.declare(k_.add_local(text(call), ir::ScalarType::U32, where), sync, where);
}

/// The lanes of the calling thread's tile of `size` threads (a power of two up to 32) in its warp:
/// size bits from (lane & ~(size - 1)), the lane the thread's rank in its block modulo 32.
ir::ExprId Lowerer::tile_mask(std::uint32_t size, ir::SourceRange where) {
  using ir::BinaryOp;
  const auto u32 = [&](std::uint32_t v) { return u32_constant(v, where); };
  const std::uint32_t bits = size >= 32 ? 0xFFFFFFFFu : (1u << size) - 1u;
  const ir::ExprId first = k_.binary(BinaryOp::BitAnd, block_rank(where), u32(32u - size), where);
  return k_.binary(BinaryOp::Shl, u32(bits), first, where);
}

ir::ExprId Lowerer::builtin_as(ir::Builtin builtin, ir::ScalarType type, ir::SourceRange where) {
  return convert(k_.builtin(builtin, where), type, where);
}

ir::ExprId Lowerer::u32_constant(std::uint32_t value, ir::SourceRange where) {
  return k_.constant(ir::ScalarType::U32, value, where);
}

/// (index.z * dim.y + index.y) * dim.x + index.x of launch built-ins ({x, y, z} each), in
/// `type`: a thread's rank in its block, a block's in the grid.
ir::ExprId Lowerer::linear_rank(const ir::Builtin* index, const ir::Builtin* dim, ir::ScalarType type,
                                ir::SourceRange where) {
  using ir::BinaryOp;
  const auto as = [&](ir::Builtin b) { return builtin_as(b, type, where); };
  const ir::ExprId zy = k_.binary(BinaryOp::Add, k_.binary(BinaryOp::Mul, as(index[2]), as(dim[1]), where),
                                  as(index[1]), where);
  return k_.binary(BinaryOp::Add, k_.binary(BinaryOp::Mul, zy, as(dim[0]), where), as(index[0]), where);
}

/// dim.x * dim.y * dim.z of launch built-ins ({x, y, z}), in `type`.
ir::ExprId Lowerer::volume(const ir::Builtin* dim, ir::ScalarType type, ir::SourceRange where) {
  using ir::BinaryOp;
  const auto as = [&](ir::Builtin b) { return builtin_as(b, type, where); };
  return k_.binary(BinaryOp::Mul, k_.binary(BinaryOp::Mul, as(dim[0]), as(dim[1]), where), as(dim[2]), where);
}

/// A thread's rank in its block, in unsigned int as thread_block::thread_rank() computes it.
ir::ExprId Lowerer::block_rank(ir::SourceRange where) {
  return linear_rank(kThreadIdx, kBlockDim, ir::ScalarType::U32, where);
}

/// The block's threads (unsigned int).
ir::ExprId Lowerer::block_size(ir::SourceRange where) {
  return volume(kBlockDim, ir::ScalarType::U32, where);
}

/// The rank of the calling thread's block in the grid, and the grid's blocks, in unsigned long
/// long.
ir::ExprId Lowerer::grid_block_rank(ir::SourceRange where) {
  return linear_rank(kBlockIdx, kGridDim, ir::ScalarType::U64, where);
}
ir::ExprId Lowerer::grid_blocks(ir::SourceRange where) {
  return volume(kGridDim, ir::ScalarType::U64, where);
}

/// A tile's query: thread_rank is the block rank's low bits, meta_group_rank the parent's
/// rank / size; kNone for what the model does not compute. Builds only what it returns.
ir::ExprId Lowerer::tile_query(const Group& tile, GroupName query, ir::SourceRange where) {
  using ir::BinaryOp;
  const auto low_bits = [&](std::uint32_t size) {
    return k_.binary(BinaryOp::BitAnd, block_rank(where), u32_constant(size - 1, where), where);
  };
  const ir::ExprId n = u32_constant(tile.size, where);
  if (query == GroupName::ThreadRank) return low_bits(tile.size);
  if (query == GroupName::Size) return n;
  if (query == GroupName::MetaGroupRank) {
    const ir::ExprId parent_rank = tile.parent_size == 0 ? block_rank(where) : low_bits(tile.parent_size);
    return k_.binary(BinaryOp::Div, parent_rank, n, where);
  }
  if (query == GroupName::MetaGroupSize) {  // (parent size + size - 1) / size
    const ir::ExprId parent_size =
        tile.parent_size == 0 ? block_size(where) : u32_constant(tile.parent_size, where);
    return k_.binary(BinaryOp::Div,
                     k_.binary(BinaryOp::Add, parent_size, u32_constant(tile.size - 1, where), where), n,
                     where);
  }
  return ir::kNone;
}

/// A grid's query (unsigned long long): ranks and sizes of threads and blocks; kNone else.
ir::ExprId Lowerer::grid_query(GroupName query, ir::SourceRange where) {
  using ir::BinaryOp;
  const auto block_threads = [&] { return convert(block_size(where), ir::ScalarType::U64, where); };
  if (query == GroupName::ThreadRank)
    return k_.binary(BinaryOp::Add, k_.binary(BinaryOp::Mul, grid_block_rank(where), block_threads(), where),
                     convert(block_rank(where), ir::ScalarType::U64, where), where);
  if (query == GroupName::Size) return k_.binary(BinaryOp::Mul, grid_blocks(where), block_threads(), where);
  if (query == GroupName::BlockRank) return grid_block_rank(where);
  if (query == GroupName::NumBlocks) return grid_blocks(where);
  return ir::kNone;
}

/// A group's rank or size, as the toolkit computes it; anything else a group call returns
/// (shuffles, votes, reduce, is_valid ...) is a value the model does not know.
ir::ExprId Lowerer::lower_group_query(const clang::CallExpr* call, ir::ScalarType type) {
  const GroupName query = group_name(call->getDirectCallee()->getNameAsString());
  const ir::SourceRange where = range(call);
  if (query == GroupName::MakeGrid || query == GroupName::MakeBlock || query == GroupName::Partition)
    return opaque(call, type);
  const Group group = called_group(call);
  ir::ExprId value = ir::kNone;
  if (group.kind == Group::Block && query == GroupName::ThreadRank) value = block_rank(where);
  if (group.kind == Group::Block && query == GroupName::Size) value = block_size(where);
  if (group.kind == Group::Tile) value = tile_query(group, query, where);
  if (group.kind == Group::Grid) value = grid_query(query, where);
  if (value == ir::kNone) {
    if (const clang::Expr* object = call_object(call)) scan_work(object);
    return opaque(call, type);
  }
  return convert(value, type, where);
}

/// .x/.y/.z of a group's dim3: a block's group_index (blockIdx), thread_index (threadIdx),
/// group_dim and dim_threads (blockDim); a grid's block_index (blockIdx), dim_blocks (gridDim).
ir::ExprId Lowerer::lower_group_dim3(const clang::CallExpr* call, const clang::MemberExpr* member,
                                     ir::ScalarType type) {
  using ir::Builtin;
  const GroupName query = group_name(call->getDirectCallee()->getNameAsString());
  const std::string field = member->getMemberDecl()->getNameAsString();
  const Group group = called_group(call);
  const int axis = field == "x" ? 0 : field == "y" ? 1 : field == "z" ? 2 : -1;
  const ir::SourceRange where = range(member);
  const Builtin* row = nullptr;
  if (group.kind == Group::Block) {
    if (query == GroupName::GroupIndex) row = kBlockIdx;
    if (query == GroupName::ThreadIndex) row = kThreadIdx;
    if (query == GroupName::GroupDim) row = kBlockDim;
  } else if (group.kind == Group::Grid) {
    if (query == GroupName::BlockIndex) row = kBlockIdx;
    if (query == GroupName::DimBlocks) row = kGridDim;
  }
  if (row == nullptr || axis < 0) return opaque(member, type);
  return convert(k_.builtin(row[axis], where), type, where);
}

}  // namespace warpdiv::frontend::detail::lowering
