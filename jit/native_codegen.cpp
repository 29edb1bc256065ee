// The native replay's code generation: one function `i32 (i8* context)` per kernel model, running one
// warp over 32-lane vectors (jit/native_codegen.hpp).
#include "jit/native_codegen.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "jit/ops_lanes.hpp"
#include "sim/engine/control_walk.hpp"
#include "sim/memory/ir_memory.hpp"
#include "sim/model/ir_ops.hpp"

namespace warpdiv::jit::native {
namespace {

// ---------------------------------------------------------------------------------------------
// Code generation: one function `i32 (i8* context)` per model, running one warp; it returns
// HandOverReason::None when it finished, else why it hands the launch over.

// The control flow is sim/engine/control_walk.hpp's, this class its backend: masks are i32 values
// (<32 x i1> as bits), mask variables allocas, "only where a lane runs" conditional branches.
class Codegen : public detail::ControlWalk<Codegen, llvm::Value*, llvm::AllocaInst*> {
 public:
  Codegen(const Kernel& k, const Program& p, llvm::Module& m, std::vector<Slot>& slots)
      : Walk(p), k_(k), p_(p), c_(m.getContext()), m_(m), b_(c_), slots_(slots) {}

  llvm::Function* build(const std::string& name) {
    i1_ = llvm::Type::getInt1Ty(c_);
    i8_ = llvm::Type::getInt8Ty(c_);
    i32_ = llvm::Type::getInt32Ty(c_);
    i64_ = llvm::Type::getInt64Ty(c_);
    auto* type = llvm::FunctionType::get(i32_, {i8_->getPointerTo()}, false);
    f_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, m_);
    f_->addFnAttr(llvm::Attribute::NoUnwind);
    ctx_ = f_->getArg(0);
    auto* entry = llvm::BasicBlock::Create(c_, "entry", f_);
    auto* body = llvm::BasicBlock::Create(c_, "body", f_);
    b_.SetInsertPoint(entry);
    entry_ = b_.CreateBr(body);
    b_.SetInsertPoint(body);

    values_.assign(k_.locals.size(), nullptr);
    defined_.assign(k_.locals.size(), nullptr);
    for (std::size_t i = 0; i < k_.locals.size(); ++i) {
      values_[i] = alloca(vector_type(k_.locals[i].type));
      defined_[i] = alloca(i32_);
      in_entry([&](llvm::IRBuilder<>& e) { e.CreateStore(llvm::ConstantInt::get(i32_, 0), defined_[i]); });
    }
    evaluations_ = alloca(i64_);
    in_entry([&](llvm::IRBuilder<>& e) { e.CreateStore(llvm::ConstantInt::get(i64_, 0), evaluations_); });
    offsets_ = alloca(llvm::ArrayType::get(i64_, kLanes));
    limit_ = in_entry_value(i64_, offsetof(WarpContext, evaluation_limit));
    existing_ = in_entry_value(i32_, offsetof(WarpContext, existing));
    alive_ = alloca(i32_);
    in_entry([&](llvm::IRBuilder<>& e) { e.CreateStore(existing_, alive_); });

    exec(k_.root, existing_);
    // Counts kept in registers go to the context's arrays (StatementCounts: seven 128-bit fields).
    llvm::Type* i128 = llvm::Type::getInt128Ty(c_);
    for (const auto& [id, fields] : counters_) {
      llvm::Value* row =
          b_.CreateGEP(i128, counts_pointer(), llvm::ConstantInt::get(i64_, std::uint64_t(id) * 7));
      for (int f = 0; f < 4; ++f) {
        if (fields[f] == nullptr) continue;
        llvm::Value* at = b_.CreateGEP(i128, row, llvm::ConstantInt::get(i64_, std::uint64_t(f)));
        llvm::Value* add = b_.CreateZExt(b_.CreateLoad(i64_, fields[f]), i128);
        b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i128, at), add), at);
      }
    }
    for (const auto& [id, counter] : flop_counters_) {
      llvm::Value* at = b_.CreateGEP(i64_, pointer_field(offsetof(WarpContext, flops), i64_),
                                     llvm::ConstantInt::get(i64_, std::uint64_t(id)));
      b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, at), b_.CreateLoad(i64_, counter)), at);
    }
    b_.CreateStore(b_.CreateLoad(i64_, evaluations_), field(offsetof(WarpContext, evaluations), i64_));
    b_.CreateRet(llvm::ConstantInt::get(i32_, static_cast<std::uint64_t>(HandOverReason::None)));
    return f_;
  }

 private:
  using Walk = detail::ControlWalk<Codegen, llvm::Value*, llvm::AllocaInst*>;
  friend Walk;

  // ---- Helpers

  template <typename F>
  void in_entry(F&& f) {
    llvm::IRBuilder<> e(entry_);
    f(e);
  }
  llvm::AllocaInst* alloca(llvm::Type* type) {
    llvm::AllocaInst* a = nullptr;
    in_entry([&](llvm::IRBuilder<>& e) { a = e.CreateAlloca(type); });
    return a;
  }
  llvm::Value* field(std::size_t offset, llvm::Type* type) {
    llvm::Value* p = b_.CreateConstInBoundsGEP1_64(i8_, ctx_, offset);
    return b_.CreateBitCast(p, type->getPointerTo());
  }
  // A context field read once, in the entry block.
  llvm::Value* in_entry_value(llvm::Type* type, std::size_t offset) {
    llvm::Value* v = nullptr;
    in_entry([&](llvm::IRBuilder<>& e) {
      llvm::Value* p = e.CreateBitCast(e.CreateConstInBoundsGEP1_64(i8_, ctx_, offset), type->getPointerTo());
      v = e.CreateLoad(type, p);
    });
    return v;
  }
  // A pointer field (to elements of `element`), read once.
  llvm::Value* pointer_field(std::size_t offset, llvm::Type* element) {
    auto it = pointers_.find(offset);
    if (it != pointers_.end()) return it->second;
    return pointers_[offset] = in_entry_value(element->getPointerTo(), offset);
  }
  llvm::Value* counts_pointer() {
    return pointer_field(offsetof(WarpContext, counts), llvm::Type::getInt128Ty(c_));
  }

  llvm::Type* scalar_type(ScalarType t) {
    switch (t) {
      case ScalarType::Bool:
        return i1_;
      case ScalarType::I8:
      case ScalarType::U8:
        return i8_;
      case ScalarType::I16:
      case ScalarType::U16:
        return llvm::Type::getInt16Ty(c_);
      case ScalarType::I32:
      case ScalarType::U32:
        return i32_;
      case ScalarType::I64:
      case ScalarType::U64:
        return i64_;
      case ScalarType::F32:
        return llvm::Type::getFloatTy(c_);
      case ScalarType::F64:
        return llvm::Type::getDoubleTy(c_);
    }
    return i64_;
  }
  llvm::Type* vector_type(ScalarType t) { return llvm::FixedVectorType::get(scalar_type(t), kLanes); }
  llvm::Value* splat(llvm::Value* v) { return b_.CreateVectorSplat(kLanes, v); }
  llvm::Value* splat_int(ScalarType t, std::uint64_t bits) {
    return llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(kLanes),
                                          llvm::ConstantInt::get(scalar_type(t), bits));
  }
  llvm::Value* to_mask(llvm::Value* bools) { return b_.CreateBitCast(bools, i32_); }
  llvm::Value* to_bools(llvm::Value* mask) {
    return b_.CreateBitCast(mask, llvm::FixedVectorType::get(i1_, kLanes));
  }
  llvm::Value* zero() { return llvm::ConstantInt::get(i32_, 0); }
  llvm::BasicBlock* block(const char* name) { return llvm::BasicBlock::Create(c_, name, f_); }

  // Hands the launch over, for `why`, when `condition` (i1) holds.
  void fail_if(llvm::Value* condition, HandOverReason why) {
    llvm::BasicBlock*& hand_over = hand_overs_[why];
    if (hand_over == nullptr) {
      hand_over = llvm::BasicBlock::Create(c_, "hand_over", f_);
      llvm::IRBuilder<> ret(hand_over);
      ret.CreateRet(llvm::ConstantInt::get(i32_, static_cast<std::uint64_t>(why)));
    }
    auto* ok = block("ok");
    llvm::MDBuilder md(c_);
    b_.CreateCondBr(condition, hand_over, ok, md.createBranchWeights(1, 1 << 20));
    b_.SetInsertPoint(ok);
  }
  // Hands over when a lane of `mask` is `bad` (<32 x i1>): undefined behaviour there.
  void fault_if(llvm::Value* bad, llvm::Value* mask, HandOverReason why) {
    fail_if(b_.CreateICmpNE(b_.CreateAnd(to_mask(bad), mask), zero()), why);
  }
  llvm::Value* popcount(llvm::Value* mask) {
    return b_.CreateZExt(b_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, mask), i64_);
  }
  llvm::AllocaInst* counter() {
    llvm::AllocaInst* a = alloca(i64_);
    in_entry([&](llvm::IRBuilder<>& e) { e.CreateStore(llvm::ConstantInt::get(i64_, 0), a); });
    return a;
  }
  void add(llvm::AllocaInst* to, llvm::Value* v) {
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, to), v), to);
  }
  llvm::AllocaInst* mask_variable(llvm::Value* initial) {
    llvm::AllocaInst* a = alloca(i32_);
    b_.CreateStore(initial, a);
    return a;
  }
  llvm::Value* load_mask(llvm::AllocaInst* a) { return b_.CreateLoad(i32_, a); }
  void or_into(llvm::AllocaInst* a, llvm::Value* m) { b_.CreateStore(b_.CreateOr(load_mask(a), m), a); }

  // ---- Counting (StatementCounts fields 0..3: warp evaluations, divergent, active and taken lanes)

  llvm::AllocaInst* count_field(StmtId id, int f) {
    auto& fields = counters_[id];
    if (fields[f] == nullptr) fields[f] = counter();
    return fields[f];
  }
  void count(StmtId id, llvm::Value* active) {
    add(count_field(id, 0), llvm::ConstantInt::get(i64_, 1));
    add(count_field(id, 2), popcount(active));
    add(evaluations_, llvm::ConstantInt::get(i64_, 1));
  }
  // A condition's evaluation (an if's, a loop head's, a switch's): its taken lanes and divergence.
  void count_branch(StmtId id, llvm::Value* active, llvm::Value* taken, llvm::Value* divergent) {
    count(id, active);
    add(count_field(id, 1), b_.CreateZExt(divergent, i64_));
    add(count_field(id, 3), popcount(taken));
  }
  void count_loop_head(StmtId id, llvm::Value* active, llvm::Value* stay, llvm::Value* divergent) {
    count_branch(id, active, stay, divergent);
  }

  // ---- Expressions: a <32 x T> vector of every lane; lanes outside `mask` hold anything and
  // never fault.

  llvm::Value* constant(ScalarType t, std::uint64_t bits) {
    if (t == ScalarType::F32 || t == ScalarType::F64) {
      const bool single = t == ScalarType::F32;
      llvm::APFloat value(single ? llvm::APFloat::IEEEsingle() : llvm::APFloat::IEEEdouble(),
                          llvm::APInt(single ? 32 : 64, bits));
      return llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(kLanes),
                                            llvm::ConstantFP::get(c_, value));
    }
    return splat_int(t, t == ScalarType::Bool ? (bits & 1) : bits);
  }

  llvm::Value* from_bits(ScalarType t, llvm::Value* bits64, llvm::IRBuilder<>& e) {
    if (t == ScalarType::F32) return e.CreateBitCast(e.CreateTrunc(bits64, i32_), scalar_type(t));
    if (t == ScalarType::F64) return e.CreateBitCast(bits64, scalar_type(t));
    return e.CreateTrunc(bits64, scalar_type(t));
  }

  llvm::Value* parameter(const Expr& e) {
    const auto key = std::make_pair(e.index, e.type);
    auto it = parameters_.find(key);
    if (it != parameters_.end()) return it->second;
    llvm::Value* v = nullptr;
    in_entry([&](llvm::IRBuilder<>& entry) {
      llvm::Value* args = entry.CreateLoad(
          i64_->getPointerTo(),
          entry.CreateBitCast(entry.CreateConstInBoundsGEP1_64(i8_, ctx_, offsetof(WarpContext, arguments)),
                              i64_->getPointerTo()->getPointerTo()));
      llvm::Value* bits =
          entry.CreateLoad(i64_, entry.CreateGEP(i64_, args, entry.getInt64(std::uint64_t(e.index))));
      v = entry.CreateVectorSplat(kLanes, from_bits(e.type, bits, entry));
    });
    return parameters_[key] = v;
  }

  llvm::Value* builtin(Builtin which) {
    const int i = static_cast<int>(which);
    auto it = builtins_.find(i);
    if (it != builtins_.end()) return it->second;
    llvm::Value* v = nullptr;
    in_entry([&](llvm::IRBuilder<>& e) {
      const auto at = [&](std::size_t offset, llvm::Type* t) {
        return e.CreateBitCast(e.CreateConstInBoundsGEP1_64(i8_, ctx_, offset), t->getPointerTo());
      };
      if (which <= Builtin::ThreadIdxZ) {
        llvm::Type* vt = llvm::FixedVectorType::get(i32_, kLanes);
        llvm::Value* p =
            e.CreateLoad(i32_->getPointerTo(),
                         at(offsetof(WarpContext, thread) + sizeof(void*) * i, i32_->getPointerTo()));
        v = e.CreateAlignedLoad(vt, e.CreateBitCast(p, vt->getPointerTo()), llvm::Align(4));
      } else if (which <= Builtin::BlockIdxZ) {
        const int d = i - static_cast<int>(Builtin::BlockIdxX);
        v = e.CreateVectorSplat(kLanes, e.CreateLoad(i32_, at(offsetof(WarpContext, block) + 4 * d, i32_)));
      } else {
        llvm::Value* bits = e.CreateLoad(i64_, at(offsetof(WarpContext, builtins) + 8 * i, i64_));
        v = e.CreateVectorSplat(kLanes, e.CreateTrunc(bits, i32_));
      }
    });
    return builtins_[i] = v;
  }

  llvm::Value* expr(ExprId id, llvm::Value* mask) {
    const Expr& e = k_.exprs[static_cast<std::size_t>(id)];
    switch (e.kind) {
      case ExprKind::Constant:
        return constant(e.type, e.constant);
      case ExprKind::Param:
        return parameter(e);
      case ExprKind::Builtin:
        return builtin(e.builtin);
      case ExprKind::Local: {
        const auto l = static_cast<std::size_t>(e.index);
        llvm::Value* defined = b_.CreateLoad(i32_, defined_[l]);
        fail_if(b_.CreateICmpNE(b_.CreateAnd(mask, b_.CreateNot(defined)), zero()),
                HandOverReason::UndefinedLocal);
        return b_.CreateLoad(vector_type(e.type), values_[l]);
      }
      case ExprKind::Cast:
        return cast(e, expr(e.operands[0], mask), mask);
      case ExprKind::Unary:
        return unary(e, mask);
      case ExprKind::Binary:
        return binary(e, mask);
      case ExprKind::Logical: {
        llvm::Value* left = expr(e.operands[0], mask);
        llvm::Value* lm = to_mask(left);
        // The right operand runs in the lanes the left one does not decide.
        llvm::Value* rest =
            e.logical_op == LogicalOp::And ? b_.CreateAnd(mask, lm) : b_.CreateAnd(mask, b_.CreateNot(lm));
        llvm::Value* right = expr(e.operands[1], rest);
        return e.logical_op == LogicalOp::And ? b_.CreateAnd(left, right) : b_.CreateOr(left, right);
      }
      case ExprKind::Select: {
        llvm::Value* condition = expr(e.operands[0], mask);
        llvm::Value* cm = to_mask(condition);
        llvm::Value* yes = expr(e.operands[1], b_.CreateAnd(mask, cm));
        llvm::Value* no = expr(e.operands[2], b_.CreateAnd(mask, b_.CreateNot(cm)));
        return b_.CreateSelect(condition, yes, no);
      }
      case ExprKind::Intrinsic:
        return intrinsic(e, mask);
      case ExprKind::Opaque:
        if (p_.exprs[static_cast<std::size_t>(id)].index != kNone)
          return load(e, p_.exprs[static_cast<std::size_t>(id)].index, mask);
        throw Unsupported{location(k_, e.range) + ": an opaque value (" + e.description + ") is evaluated"};
      case ExprKind::Warp:
        return warp(e, mask);
    }
    throw Unsupported{"unknown expression kind"};
  }

  // ---- Operations: sim/model/ir_ops.hpp's semantics, the lane functions of jit/ops_lanes.cpp (linked
  // into the module from their bitcode, then inlined): no operation is restated here.

  // A <32 x T> vector as the lane functions' arrays hold it (jit/ops_lanes.hpp): integers as they
  // are, floating values as their bits, bools as bytes; and back.
  llvm::Type* stored_type(ScalarType t) {
    if (t == ScalarType::Bool) return llvm::FixedVectorType::get(i8_, kLanes);
    if (is_floating(t)) return llvm::FixedVectorType::get(b_.getIntNTy(bit_width(t)), kLanes);
    return vector_type(t);
  }
  llvm::Value* to_stored(llvm::Value* v, ScalarType t) {
    if (t == ScalarType::Bool) return b_.CreateZExt(v, stored_type(t));
    return is_floating(t) ? b_.CreateBitCast(v, stored_type(t)) : v;
  }
  llvm::Value* from_stored(llvm::Value* v, ScalarType t) {
    if (t == ScalarType::Bool) return b_.CreateTrunc(v, vector_type(t));
    return is_floating(t) ? b_.CreateBitCast(v, vector_type(t)) : v;
  }
  // A promoted integer's normalised 64-bit bits (a shift's amount).
  llvm::Value* normalised(llvm::Value* v, ScalarType t) {
    if (bit_width(t) == 64) return v;
    return is_signed(t) ? b_.CreateSExt(v, vector_type(ScalarType::U64))
                        : b_.CreateZExt(v, vector_type(ScalarType::U64));
  }
  // The array of operand `position` for values of `type` (one per position and type, for every
  // call: each is written whole before it is read, so that the optimiser keeps them in registers
  // once the functions are inlined).
  llvm::Value* lane_array(int position, llvm::Type* type) {
    llvm::AllocaInst*& a = lane_arrays_[{position, type}];
    if (a == nullptr) a = alloca(type);
    return b_.CreateBitCast(a, i8_->getPointerTo());
  }

  // The lane function `name` (jit/ops_lanes.hpp) on `operands` of their types, its result of type
  // `result`; hands over, for `why`, where it faults in a lane of `mask` (unless it never faults).
  llvm::Value* apply(const std::string& name,
                     const std::vector<std::pair<llvm::Value*, ScalarType>>& operands, ScalarType result,
                     llvm::Value* mask, bool may_fault,
                     HandOverReason why = HandOverReason::UndefinedOperation) {
    llvm::Type* p8 = i8_->getPointerTo();
    auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(c_), {p8, p8, p8, p8, p8}, false);
    const llvm::FunctionCallee fn = m_.getOrInsertFunction(name, type);
    std::vector<llvm::Value*> args;
    for (std::size_t i = 0; i < operands.size(); ++i) {
      llvm::Value* v = to_stored(operands[i].first, operands[i].second);
      llvm::Value* at = lane_array(static_cast<int>(i), v->getType());
      b_.CreateStore(v, b_.CreateBitCast(at, v->getType()->getPointerTo()));
      args.push_back(at);
    }
    while (args.size() < 3) args.push_back(args.front());  // operands it does not take
    llvm::Type* r_type = stored_type(result);
    llvm::Type* faults_type = llvm::FixedVectorType::get(i8_, kLanes);
    llvm::Value* r = lane_array(3, r_type);
    llvm::Value* faults = lane_array(4, faults_type);
    args.push_back(r);
    args.push_back(faults);
    b_.CreateCall(fn, args);
    if (may_fault) {
      llvm::Value* f = b_.CreateLoad(faults_type, b_.CreateBitCast(faults, faults_type->getPointerTo()));
      fault_if(b_.CreateICmpNE(f, llvm::Constant::getNullValue(faults_type)), mask, why);
    }
    return from_stored(b_.CreateLoad(r_type, b_.CreateBitCast(r, r_type->getPointerTo())), result);
  }

  llvm::Value* cast(const Expr& e, llvm::Value* a, llvm::Value* mask) {
    const ScalarType from = k_.exprs[static_cast<std::size_t>(e.operands[0])].type, to = e.type;
    if (from == to) return a;
    return apply(ops_lanes::convert(from, to), {{a, from}}, to, mask, is_floating(from) && !is_floating(to));
  }

  llvm::Value* unary(const Expr& e, llvm::Value* mask) {
    const ScalarType t = k_.exprs[static_cast<std::size_t>(e.operands[0])].type;
    llvm::Value* a = expr(e.operands[0], mask);
    return apply(ops_lanes::unary(e.unary_op, t), {{a, t}}, e.type, mask,
                 fault_rule(e.unary_op) != FaultRule::None);
  }

  llvm::Value* binary(const Expr& e, llvm::Value* mask) {
    const ScalarType t = k_.exprs[static_cast<std::size_t>(e.operands[0])].type;
    const ScalarType tb = k_.exprs[static_cast<std::size_t>(e.operands[1])].type;
    llvm::Value* a = expr(e.operands[0], mask);
    llvm::Value* b = expr(e.operands[1], mask);
    if (is_floating(t) && !ops::floating_operator(e.binary_op))
      throw Unsupported{"operator " + name(e.binary_op) + " on a floating type"};
    const bool shift = e.binary_op == BinaryOp::Shl || e.binary_op == BinaryOp::Shr;
    return apply(ops_lanes::binary(e.binary_op, t),
                 {{a, t}, shift ? std::pair{normalised(b, tb), ScalarType::U64} : std::pair{b, tb}}, e.type,
                 mask, fault_rule(e.binary_op) != FaultRule::None && !is_floating(t));
  }

  llvm::Value* intrinsic(const Expr& e, llvm::Value* mask) {
    std::vector<std::pair<llvm::Value*, ScalarType>> x;
    for (int i = 0; i < operand_count(e.intrinsic); ++i) x.emplace_back(expr(e.operands[i], mask), e.type);
    return apply(ops_lanes::intrinsic(e.intrinsic, e.type), x, e.type, mask, false);
  }

  // A load's value from the launch's read-only data (WarpMachine::read_data): each lane's element
  // read by the helper at the access's offset; outside the buffer or misaligned: hand over.
  llvm::Value* load(const Expr& e, std::int32_t access, llvm::Value* mask) {
    const MemoryAccess& a = k_.accesses[static_cast<std::size_t>(access)];
    if (k_.exprs[static_cast<std::size_t>(a.offset)].type != ScalarType::I64 &&
        k_.exprs[static_cast<std::size_t>(a.offset)].type != ScalarType::U64)
      throw Unsupported{"a load offset of type " + name(k_.exprs[static_cast<std::size_t>(a.offset)].type)};
    llvm::Value* offsets = expr(a.offset, mask);
    b_.CreateAlignedStore(offsets, b_.CreateBitCast(offsets_, vector_type(ScalarType::I64)->getPointerTo()),
                          llvm::Align(8));
    if (values_read_ == nullptr) values_read_ = alloca(llvm::ArrayType::get(i64_, kLanes));
    auto* fn_type = llvm::FunctionType::get(
        i32_, {i8_->getPointerTo(), i32_, i32_, i64_->getPointerTo(), i64_->getPointerTo()}, false);
    llvm::Value* fn =
        b_.CreateLoad(fn_type->getPointerTo(), field(offsetof(WarpContext, read), fn_type->getPointerTo()));
    llvm::Value* worker =
        b_.CreateLoad(i8_->getPointerTo(), field(offsetof(WarpContext, worker), i8_->getPointerTo()));
    llvm::Value* r = b_.CreateCall(fn_type, fn,
                                   {worker, llvm::ConstantInt::get(i32_, std::uint64_t(access)), mask,
                                    b_.CreateBitCast(offsets_, i64_->getPointerTo()),
                                    b_.CreateBitCast(values_read_, i64_->getPointerTo())});
    fail_if(b_.CreateICmpNE(r, zero()), HandOverReason::Load);
    // The elements' bytes, zero-extended: the value of the element's type.
    llvm::Value* bits = b_.CreateAlignedLoad(
        vector_type(ScalarType::U64),
        b_.CreateBitCast(values_read_, vector_type(ScalarType::U64)->getPointerTo()), llvm::Align(8));
    if (e.type == ScalarType::Bool) return b_.CreateICmpNE(bits, splat_int(ScalarType::U64, 0));
    const int width = bit_width(e.type);
    llvm::Value* v = width == 64
                         ? bits
                         : b_.CreateTrunc(bits, llvm::FixedVectorType::get(
                                                    b_.getIntNTy(static_cast<unsigned>(width)), kLanes));
    return is_floating(e.type) ? b_.CreateBitCast(v, vector_type(e.type)) : v;
  }

  // A warp-level function (WarpMachine::eval_warp): its mask as ops::warp_mask_faults requires, a
  // shuffle's source lanes by ops::shuffle_read (the lane functions of jit/ops_lanes.cpp), else
  // undefined.
  llvm::Value* warp(const Expr& e, llvm::Value* active) {
    if (e.warp_op == WarpOp::ActiveMask) return splat(active);
    // Run only by some lane (an operand of && or ?: that no lane reaches runs nowhere).
    return if_any(active, llvm::Constant::getNullValue(vector_type(e.type)),
                  [&] { return warp_lanes(e, active); });
  }

  // make()'s value where `mask` has a lane, else `otherwise` (make() then runs nowhere).
  template <typename Make>
  llvm::Value* if_any(llvm::Value* mask, llvm::Value* otherwise, Make&& make) {
    llvm::AllocaInst* result = alloca(otherwise->getType());
    b_.CreateStore(otherwise, result);
    auto* run = block("run");
    auto* after = block("after");
    b_.CreateCondBr(b_.CreateICmpNE(mask, zero()), run, after);
    b_.SetInsertPoint(run);
    b_.CreateStore(make(), result);
    b_.CreateBr(after);
    b_.SetInsertPoint(after);
    return b_.CreateLoad(otherwise->getType(), result);
  }

  llvm::Value* warp_lanes(const Expr& e, llvm::Value* active) {
    const auto u32 = [&](llvm::Value* v) { return std::pair{v, ScalarType::U32}; };
    llvm::Value* present = b_.CreateAnd(load_mask(alive_), existing_);
    apply(ops_lanes::kWarpMask, {u32(expr(e.operands[0], active)), u32(splat(active)), u32(splat(present))},
          ScalarType::U32, llvm::ConstantInt::get(i32_, 0xFFFFFFFFu), true, HandOverReason::WarpMask);
    if (e.warp_op == WarpOp::SyncWarp) return splat_int(ScalarType::U32, 0);
    if (e.warp_op == WarpOp::Ballot || e.warp_op == WarpOp::Any || e.warp_op == WarpOp::All) {
      llvm::Value* holds = condition(e.operands[1], active);
      if (e.warp_op == WarpOp::Ballot) return splat(holds);
      llvm::Value* yes =
          e.warp_op == WarpOp::Any ? b_.CreateICmpNE(holds, zero()) : b_.CreateICmpEQ(holds, active);
      return splat(b_.CreateZExt(yes, i32_));
    }
    llvm::Value* value = expr(e.operands[1], active);
    llvm::Value* arg = expr(e.operands[2], active);  // int32: its bits as unsigned
    llvm::Value* source =
        apply(ops_lanes::shuffle(e.warp_op),
              {u32(arg), u32(splat_int(ScalarType::U32, static_cast<std::uint64_t>(e.constant))),
               u32(splat(active))},
              ScalarType::U32, active, true, HandOverReason::WarpSource);
    // Each lane's value from its source lane (every source is a lane, 0 .. 31).
    llvm::Type* element = value->getType()->getScalarType();
    const bool bits = element->isIntegerTy(1);
    if (bits) value = b_.CreateZExt(value, llvm::FixedVectorType::get(i8_, kLanes));
    llvm::Value* out = llvm::UndefValue::get(value->getType());
    for (unsigned l = 0; l < kLanes; ++l)
      out =
          b_.CreateInsertElement(out, b_.CreateExtractElement(value, b_.CreateExtractElement(source, l)), l);
    return bits ? b_.CreateTrunc(out, llvm::FixedVectorType::get(i1_, kLanes)) : out;
  }

  // The lanes of `mask` where the bool expression holds.
  llvm::Value* condition(ExprId id, llvm::Value* mask) { return b_.CreateAnd(to_mask(expr(id, mask)), mask); }

  void write(LocalId local, llvm::Value* v, llvm::Value* mask) {
    const auto l = static_cast<std::size_t>(local);
    llvm::Value* old = b_.CreateLoad(v->getType(), values_[l]);
    b_.CreateStore(b_.CreateSelect(to_bools(mask), v, old), values_[l]);
    or_into(defined_[l], mask);
  }

  // ---- Memory: the statement's floating-point operations and accesses (WarpMachine::memory).

  void memory(StmtId id, llvm::Value* active) {
    if (!p_.has_memory[static_cast<std::size_t>(id)]) return;
    const detail::StatementMemory& m = p_.memory[static_cast<std::size_t>(id)];
    for (const FloatOps& f : m.flops) {
      llvm::Value* lanes = f.guard != kNone ? condition(f.guard, active) : active;
      llvm::AllocaInst*& flops = flop_counters_[id];
      if (flops == nullptr) flops = counter();
      add(flops, b_.CreateMul(popcount(lanes), llvm::ConstantInt::get(i64_, f.operations)));
    }
    for (std::size_t position = 0; position < m.accesses.size(); ++position) {
      const CompiledAccess& a = m.accesses[position];
      llvm::Value* lanes = a.guard != kNone ? condition(a.guard, active) : active;
      if (!p_.options.memory) continue;
      const ScalarType type = k_.exprs[static_cast<std::size_t>(a.offset)].type;
      if (type != ScalarType::I64 && type != ScalarType::U64)
        throw Unsupported{"an access offset of type " + name(type)};
      auto* run = block("access");
      auto* after = block("after_access");
      b_.CreateCondBr(b_.CreateICmpNE(lanes, zero()), run, after);
      b_.SetInsertPoint(run);
      llvm::Value* offsets = expr(a.offset, lanes);
      llvm::Value* at = b_.CreateBitCast(offsets_, vector_type(ScalarType::I64)->getPointerTo());
      b_.CreateAlignedStore(offsets, at, llvm::Align(8));
      const auto slot = static_cast<std::int32_t>(slots_.size());
      slots_.push_back(Slot{id, static_cast<int>(position), a.id});
      auto* fn_type =
          llvm::FunctionType::get(i32_, {i8_->getPointerTo(), i32_, i32_, i64_->getPointerTo()}, false);
      llvm::Value* fn = b_.CreateLoad(fn_type->getPointerTo(),
                                      field(offsetof(WarpContext, access), fn_type->getPointerTo()));
      llvm::Value* worker =
          b_.CreateLoad(i8_->getPointerTo(), field(offsetof(WarpContext, worker), i8_->getPointerTo()));
      llvm::Value* r = b_.CreateCall(fn_type, fn,
                                     {worker, llvm::ConstantInt::get(i32_, std::uint64_t(slot)), lanes,
                                      b_.CreateBitCast(offsets_, i64_->getPointerTo())});
      fail_if(b_.CreateICmpNE(r, zero()), HandOverReason::Access);
      b_.CreateBr(after);
      b_.SetInsertPoint(after);
    }
  }

  // ---- The control walk's backend (sim/engine/control_walk.hpp): mask primitives and the
  // statement-level leaves, emitted as IR.

  llvm::Value* or_(llvm::Value* a, llvm::Value* b) { return b_.CreateOr(a, b); }
  llvm::Value* and_not(llvm::Value* a, llvm::Value* b) { return b_.CreateAnd(a, b_.CreateNot(b)); }
  llvm::AllocaInst* variable(llvm::Value* initial) { return mask_variable(initial); }
  llvm::Value* get(llvm::AllocaInst* a) { return load_mask(a); }
  void set(llvm::AllocaInst* a, llvm::Value* m) { b_.CreateStore(m, a); }
  llvm::Value* divergent(llvm::Value* active, llvm::Value* taken) {
    return b_.CreateAnd(b_.CreateICmpNE(taken, zero()), b_.CreateICmpNE(taken, active));
  }
  llvm::Value* several(const std::vector<llvm::Value*>& masks) {
    llvm::Value* points = llvm::ConstantInt::get(i64_, 0);
    for (llvm::Value* m : masks)
      points = b_.CreateAdd(points, b_.CreateZExt(b_.CreateICmpNE(m, zero()), i64_));
    return b_.CreateICmpUGT(points, llvm::ConstantInt::get(i64_, 1));
  }
  template <typename Make>
  llvm::Value* when_any(llvm::Value* mask, Make&& make) {
    return if_any(mask, zero(), std::forward<Make>(make));
  }
  // A sequence's lanes left: each step stores them and branches to the end when none is left.
  struct Lanes {
    Codegen& g;
    llvm::AllocaInst* left;
    llvm::BasicBlock* done;
    llvm::Value* now() { return g.load_mask(left); }
    bool go_on(llvm::Value* m) {
      g.b_.CreateStore(m, left);
      auto* next = g.block("next");
      g.b_.CreateCondBr(g.b_.CreateICmpEQ(m, g.zero()), done, next);
      g.b_.SetInsertPoint(next);
      return true;  // the steps after it are emitted (they run where a lane is left)
    }
    llvm::Value* end() {
      g.b_.CreateBr(done);
      g.b_.SetInsertPoint(done);
      return g.load_mask(left);
    }
  };
  Lanes sequence(llvm::Value* m) { return Lanes{*this, mask_variable(m), block("lanes_end")}; }
  // A loop instance: head, iteration and end blocks; past the head limit or the budget the
  // interpreter takes the launch over.
  template <typename Iteration>
  void repeat(StmtId, std::size_t, llvm::AllocaInst* in, llvm::AllocaInst*, Iteration&& iteration) {
    llvm::AllocaInst* heads = alloca(i64_);
    b_.CreateStore(llvm::ConstantInt::get(i64_, 0), heads);
    auto* head = block("loop_head");
    auto* body = block("loop_iteration");
    auto* end = block("loop_end");
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    b_.CreateCondBr(b_.CreateICmpEQ(load_mask(in), zero()), end, body);
    b_.SetInsertPoint(body);
    llvm::Value* h = b_.CreateAdd(b_.CreateLoad(i64_, heads), llvm::ConstantInt::get(i64_, 1));
    b_.CreateStore(h, heads);
    fail_if(b_.CreateOr(b_.CreateICmpUGT(h, llvm::ConstantInt::get(i64_, kMaxNativeHeads)),
                        b_.CreateICmpUGT(b_.CreateLoad(i64_, evaluations_), limit_)),
            HandOverReason::LoopLimit);
    b_.CreateStore(iteration(load_mask(in)), in);
    b_.CreateBr(head);
    b_.SetInsertPoint(end);
  }
  void assign(LocalId local, ExprId value, llvm::Value* active) { write(local, expr(value, active), active); }
  void check(ExprId value, llvm::Value* active) { expr(value, active); }  // its undefined behaviour only
  void undefine(LocalId local, llvm::Value* active) {
    llvm::AllocaInst* d = defined_[static_cast<std::size_t>(local)];
    b_.CreateStore(b_.CreateAnd(load_mask(d), b_.CreateNot(active)), d);
  }
  void exit_kernel(llvm::Value* active) {
    b_.CreateStore(b_.CreateAnd(load_mask(alive_), b_.CreateNot(active)), alive_);
  }
  llvm::Value* switch_value(ExprId value, llvm::Value* active) { return expr(value, active); }
  llvm::Value* case_lanes(llvm::Value* v, ExprId value, std::uint64_t c, llvm::Value* active) {
    const ScalarType type = k_.exprs[static_cast<std::size_t>(value)].type;
    return b_.CreateAnd(to_mask(b_.CreateICmpEQ(v, constant(type, c))), active);
  }
  // A barrier's arrivals: the whole warp's in its counter, single lanes' through the runtime.
  void arrive(StmtId id, llvm::Value* active) {
    const std::int32_t index = p_.barrier[static_cast<std::size_t>(id)];
    auto* full = block("full");
    auto* partial = block("partial");
    auto* after = block("arrived");
    b_.CreateCondBr(b_.CreateICmpEQ(active, existing_), full, partial);
    b_.SetInsertPoint(full);
    llvm::Value* at = b_.CreateGEP(i64_, pointer_field(offsetof(WarpContext, full_arrivals), i64_),
                                   llvm::ConstantInt::get(i64_, std::uint64_t(index)));
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, at), llvm::ConstantInt::get(i64_, 1)), at);
    b_.CreateBr(after);
    b_.SetInsertPoint(partial);
    auto* fn_type =
        llvm::FunctionType::get(llvm::Type::getVoidTy(c_), {i8_->getPointerTo(), i32_, i32_}, false);
    llvm::Value* fn =
        b_.CreateLoad(fn_type->getPointerTo(), field(offsetof(WarpContext, arrive), fn_type->getPointerTo()));
    b_.CreateCall(fn_type, fn, {ctx_, llvm::ConstantInt::get(i32_, std::uint64_t(index)), active});
    b_.CreateBr(after);
    b_.SetInsertPoint(after);
  }

  const Kernel& k_;
  const Program& p_;
  llvm::LLVMContext& c_;
  llvm::Module& m_;
  llvm::IRBuilder<> b_;
  std::vector<Slot>& slots_;
  llvm::Type *i1_ = nullptr, *i8_ = nullptr, *i32_ = nullptr, *i64_ = nullptr;
  llvm::Function* f_ = nullptr;
  llvm::Value* ctx_ = nullptr;
  std::map<HandOverReason, llvm::BasicBlock*> hand_overs_;  // a `ret reason` block each
  // apply()'s arrays by position (operands a, b, c, result, faults) and type
  std::map<std::pair<int, llvm::Type*>, llvm::AllocaInst*> lane_arrays_;
  llvm::Instruction* entry_ = nullptr;  // the entry block's terminator: hoisted reads go before it
  std::vector<llvm::AllocaInst*> values_, defined_;
  llvm::AllocaInst* evaluations_ = nullptr;
  llvm::AllocaInst* offsets_ = nullptr;
  llvm::AllocaInst* values_read_ = nullptr;  // a load's elements (load())
  llvm::Value* limit_ = nullptr;
  llvm::Value* existing_ = nullptr;
  llvm::AllocaInst* alive_ = nullptr;  // lanes that have not left the kernel
  std::map<std::size_t, llvm::Value*> pointers_;
  std::map<std::pair<std::int32_t, ScalarType>, llvm::Value*> parameters_;
  std::map<int, llvm::Value*> builtins_;
  std::map<StmtId, std::array<llvm::AllocaInst*, 4>> counters_;
  std::map<StmtId, llvm::AllocaInst*> flop_counters_;
};

}  // namespace

const char* hand_over_text(HandOverReason why) {
  switch (why) {
    case HandOverReason::None:
      return "";
    case HandOverReason::UndefinedOperation:
      return "undefined behaviour in an operation";
    case HandOverReason::UndefinedLocal:
      return "a local read where it holds no value";
    case HandOverReason::Load:
      return "a load outside its buffer or misaligned";
    case HandOverReason::Access:
      return "an access outside its buffer or misaligned";
    case HandOverReason::WarpMask:
      return "a warp function's mask that its lanes do not agree on";
    case HandOverReason::WarpSource:
      return "a shuffle reading a lane that does not run it";
    case HandOverReason::LoopLimit:
      return "a loop past the native code's head limit or the budget";
    case HandOverReason::Budget:
      return "the warp's evaluations past the budget";
    case HandOverReason::Mismatch:
      return "the launch's accesses are not the compiled ones";
  }
  return "an unknown reason";
}

llvm::Function* generate_warp_function(const Program& p, llvm::Module& module, std::vector<Slot>& slots,
                                       const std::string& name) {
  Codegen codegen(p.kernel, p, module, slots);
  return codegen.build(name);
}

}  // namespace warpdiv::jit::native
