#include "jit/native_replay.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "sim/model/ir_json.hpp"
#include "sim/memory/ir_memory.hpp"
#include "sim/engine/ir_native.hpp"

#include "jit/native_codegen.hpp"
#include "jit/overflow_idioms.hpp"

namespace warpdiv::jit {

// The lane functions' bitcode (jit/ops_lanes.cpp, embedded by jit/embed_file.cmake).
extern const unsigned char kOpsBitcode[];
extern const unsigned long kOpsBitcode_size;

namespace {

using namespace native;

// ---------------------------------------------------------------------------------------------
// The compiled code, its workers, and the compiler's cache.

// A model's compiled warp function (shared by every launch of the model). Its machine code is
// freed with the last copy (its module's resource tracker removed from the JIT).
class Code {
 public:
  Code(WarpFunction compiled, std::vector<Slot> slots, llvm::orc::ResourceTrackerSP tracker)
      : function_(compiled), slots_(std::move(slots)), tracker_(std::move(tracker)) {}
  ~Code() {
    if (tracker_) llvm::consumeError(tracker_->remove());
  }
  Code(const Code&) = delete;
  Code& operator=(const Code&) = delete;
  WarpFunction function() const { return function_; }
  const std::vector<Slot>& slots() const { return slots_; }

 private:
  WarpFunction function_;
  std::vector<Slot> slots_;
  llvm::orc::ResourceTrackerSP tracker_;
};

// A map by string that keeps its `limit` most recently used entries: find and insert make an
// entry the most recent; an insert past the limit drops the least recent.
template <class V>
class LruMap {
 public:
  explicit LruMap(std::size_t limit) : limit_(limit) {}
  bool empty() const { return entries_.empty(); }

  // The entry of `key`, now the most recent, with its key as stored (valid while the entry is);
  // nulls when there is none.
  std::pair<const std::string*, V*> find(const std::string& key) {
    const auto found = entries_.find(key);
    if (found == entries_.end()) return {nullptr, nullptr};
    order_.splice(order_.begin(), order_, found->second.second);
    return {&found->first, &found->second.first};
  }
  // Inserts `value` under `key` (absent) as the most recent; returns its key as stored (valid
  // while the entry is) and how many entries were dropped.
  std::pair<const std::string*, std::size_t> insert(std::string key, V value) {
    const auto at = entries_.emplace(std::move(key), Entry{std::move(value), {}}).first;
    order_.push_front(&at->first);
    at->second.second = order_.begin();
    std::size_t dropped = 0;
    for (; entries_.size() > limit_; ++dropped) {
      entries_.erase(*order_.back());
      order_.pop_back();
    }
    return {&at->first, dropped};
  }

 private:
  using Entry = std::pair<V, std::list<const std::string*>::iterator>;
  std::size_t limit_;
  std::list<const std::string*> order_;  // the keys, most recent first
  std::map<std::string, Entry> entries_;
};

// One launch's plan with its model's code: what the compiler hands out.
class PlannedCode final : public detail::NativeCode {
 public:
  PlannedCode(std::shared_ptr<const Code> code, Program plan)
      : code_(std::move(code)), plan_(std::move(plan)) {}
  std::unique_ptr<detail::NativeWorker> worker(const detail::NativeRun& run) const override;

 private:
  std::shared_ptr<const Code> code_;
  Program plan_;
};

}  // namespace

namespace native {

class Worker final : public detail::NativeWorker {
 public:
  Worker(const Program& program, const Code& code, const detail::NativeRun& run)
      : p_(program), code_(code), run_(run) {
    const auto warps = static_cast<std::size_t>(p_.warps_per_block);
    threads_.assign(warps * 3 * kLanes, 0);
    for (std::size_t w = 0; w < warps; ++w)
      for (int d = 0; d < 3; ++d)
        for (unsigned l = 0; l < kLanes; ++l)
          threads_[(w * 3 + static_cast<std::size_t>(d)) * kLanes + l] =
              static_cast<std::uint32_t>(p_.warps[w].index[static_cast<std::size_t>(d)][l]);
    for (const Slot& slot : code_.slots()) {
      const auto& accesses = p_.memory[static_cast<std::size_t>(slot.statement)].accesses;
      const auto at = static_cast<std::size_t>(slot.position);
      // A launch whose counted accesses are not the compiled ones (none known) is handed over.
      if (at >= accesses.size() || accesses[at].id != slot.access) {
        mismatch_ = true;
        break;
      }
      slots_.push_back(&accesses[at]);
    }
    shapes_.resize(slots_.size());
    full_.assign(static_cast<std::size_t>(p_.barriers), 0);
    lanes_.assign(static_cast<std::size_t>(p_.barriers) * kLanes, 0);
    block_max_.assign(static_cast<std::size_t>(p_.barriers), 0);
    block_min_.assign(static_cast<std::size_t>(p_.barriers), 0);
    ctx_.arguments = p_.arguments.data();
    for (int b = 0; b < kBuiltinCount; ++b) {
      std::uint64_t bits = 0;
      if (launch_constant(p_.launch, static_cast<Builtin>(b), bits)) ctx_.builtins[b] = bits;
    }
    ctx_.full_arrivals = full_.data();
    ctx_.lane_arrivals = lanes_.data();
    ctx_.access = &Worker::access;
    ctx_.read = &Worker::read;
    ctx_.arrive = &Worker::arrive;
    ctx_.worker = this;
  }

  detail::NativeOutcome run_block(std::uint32_t x, std::uint32_t y, std::uint32_t z,
                                  detail::NativeTally& tally) override {
    if (mismatch_) return hand_over(HandOverReason::Mismatch);
    tally_ = &tally;
    ctx_.block[0] = x;
    ctx_.block[1] = y;
    ctx_.block[2] = z;
    ctx_.counts = tally.statements;
    ctx_.flops = tally.flops;
    std::fill(block_max_.begin(), block_max_.end(), 0);
    std::fill(block_min_.begin(), block_min_.end(), ~std::uint64_t{0});
    const std::uint64_t done =
        run_.shared_evaluations != nullptr ? run_.shared_evaluations->load(std::memory_order_relaxed) : 0;
    std::uint64_t block_evaluations = 0;
    for (int w = 0; w < p_.warps_per_block; ++w) {
      const detail::WarpThreads& wt = p_.warps[static_cast<std::size_t>(w)];
      for (int d = 0; d < 3; ++d) ctx_.thread[d] = &threads_[(std::size_t(w) * 3 + std::size_t(d)) * kLanes];
      ctx_.existing = static_cast<std::uint32_t>(wt.existing);
      const std::uint64_t used = done + block_evaluations;
      ctx_.evaluation_limit = run_.evaluation_cap > used ? run_.evaluation_cap - used : 0;
      ctx_.evaluations = 0;
      std::fill(full_.begin(), full_.end(), 0);
      std::fill(lanes_.begin(), lanes_.end(), 0);
      const HandOverReason why = code_.function()(&ctx_);
      if (why != HandOverReason::None) return hand_over(why);
      if (ctx_.evaluations > ctx_.evaluation_limit) return hand_over(HandOverReason::Budget);
      block_evaluations += ctx_.evaluations;
      tally.evaluations += ctx_.evaluations;
      tally.warps += 1;
      // The warp's threads' arrivals, into the block's extremes (WarpMachine::run_warp).
      for (int b = 0; b < p_.barriers; ++b) {
        std::uint64_t most = 0, fewest = ~std::uint64_t{0};
        for (unsigned lane = 0; lane < kLanes; ++lane) {
          if (!(wt.existing >> lane & 1)) continue;
          const std::uint64_t c = full_[std::size_t(b)] + lanes_[std::size_t(b) * kLanes + lane];
          most = std::max(most, c);
          fewest = std::min(fewest, c);
        }
        block_max_[std::size_t(b)] = std::max(block_max_[std::size_t(b)], most);
        block_min_[std::size_t(b)] = std::min(block_min_[std::size_t(b)], fewest);
      }
    }
    tally.blocks += 1;
    for (std::size_t i = 0; i < p_.barrier.size(); ++i) {
      const std::int32_t b = p_.barrier[i];
      if (b == kNone) continue;
      StatementCounts& c = tally.statements[i];
      c.block_executions += block_max_[std::size_t(b)];
      c.partial_block_executions += block_max_[std::size_t(b)] - block_min_[std::size_t(b)];
      c.blocks_with_partial += block_max_[std::size_t(b)] != block_min_[std::size_t(b)] ? 1 : 0;
    }
    return detail::NativeOutcome::done();
  }

 private:
  static detail::NativeOutcome hand_over(HandOverReason why) {
    return detail::NativeOutcome::hand_over(hand_over_text(why));
  }

  static void arrive(WarpContext* ctx, std::int32_t barrier, std::uint32_t lanes) {
    for (std::uint32_t m = lanes; m != 0; m &= m - 1)
      ctx->lane_arrivals[std::size_t(barrier) * kLanes + static_cast<std::size_t>(__builtin_ctz(m))] += 1;
  }

  // The figures of an access's requests by the shape of their addresses: the lanes, and each
  // lane's distance from the first lane's address. Requests of one shape whose first address has
  // the same residue (mod 32 for sectors, mod 128 for banks) have the same sectors or wavefronts,
  // as moving every address by a multiple of 32 (128) bytes moves whole sectors (bank rows).
  struct Shape {
    std::uint32_t lanes = 0;  // 0: none yet
    std::array<std::int64_t, kLanes> deltas{};
    std::int64_t low = 0, high = 0;          // the lowest and highest distance
    std::uint64_t bits = 0;                  // the distances' bits, ORed (alignment)
    std::array<std::int32_t, 128> figure{};  // by residue: sectors or wavefronts (-1: not yet)
    std::array<std::int32_t, 128> phases{};  // shared: phases with a participating lane
  };
  struct Shapes {
    std::array<Shape, 4> recent;
    std::size_t next = 0;  // the one to replace
    int churn = 0;         // up 2 a miss, down 1 a hit: past kChurnLimit, counted directly
  };
  // An access whose shapes keep changing (`x[col_idx[jj]]`) is counted directly from then on.
  static constexpr int kChurnLimit = 64;

  // The sectors or wavefronts of one request counted from its lanes' addresses (`phases`: the
  // phases with a participating lane, for shared memory).
  static int figure_of(const CompiledAccess& a, std::uint32_t lanes, const std::int64_t* addresses,
                       int* phases) {
    const AddressSpan span = address_span(addresses, lanes);
    *phases = 1;
    return a.shared ? shared_wavefronts(addresses, lanes, a.width, phases, 0, span, a.load, a.turns)
                    : global_sectors(addresses, lanes, a.width, 0, span, a.global_atomic());
  }

  // Records one request of `a` (WarpMachine::memory's lane by lane path) whose participating
  // lanes' addresses lie in [lowest, highest] with `bits` their OR, its sectors or wavefronts
  // from figure(&phases): 1 to hand over (outside the buffer, misaligned, an end past int64).
  template <typename Figure>
  static std::int32_t record(Worker* w, const CompiledAccess& a, std::uint32_t lanes, std::int64_t lowest,
                             std::int64_t highest, std::uint64_t bits, Figure&& figure) {
    const auto width = static_cast<std::uint64_t>(a.width);
    const std::uint64_t bound = w->p_.base_bytes[static_cast<std::size_t>(a.base)];
    if (bound != 0 && (lowest < 0 || static_cast<std::uint64_t>(highest) + width > bound)) return 1;
    if ((bits & (width - 1)) != 0) return 1;
    std::int64_t end = 0;
    if (__builtin_add_overflow(highest, a.width, &end)) return 1;
    AccessCounts& c = w->tally_->accesses[static_cast<std::size_t>(a.id)];
    const auto n = static_cast<std::uint64_t>(__builtin_popcount(lanes));
    c.requests += 1;
    c.lanes += n;
    c.bytes += n * width;
    merge(w->tally_->extents[static_cast<std::size_t>(a.id)], BaseExtent{true, lowest, end});
    int phases = 1;
    const auto counted = static_cast<std::uint64_t>(figure(&phases));
    if (a.shared) {
      c.wavefronts += counted;
      c.conflicts += counted - static_cast<std::uint64_t>(phases);
    } else {
      c.sectors += counted;
    }
    return 0;
  }

  // A load's elements from the launch's data (WarpMachine::read_data), each active lane's
  // `width` bytes zero-extended into values[lane]: 1 to hand over (outside the buffer, misaligned).
  static std::int32_t read(Worker* w, std::int32_t access, std::uint32_t lanes, const std::int64_t* offsets,
                           std::uint64_t* values) {
    const MemoryAccess& a = w->p_.kernel.accesses[static_cast<std::size_t>(access)];
    const char* data = w->run_.data[static_cast<std::size_t>(a.base)];
    const std::uint64_t bound = w->p_.base_bytes[static_cast<std::size_t>(a.base)];
    const std::uint64_t width = a.width;
    for (unsigned l = 0; l < kLanes; ++l) values[l] = 0;
    for (std::uint32_t m = lanes; m != 0; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const std::int64_t at = offsets[l];
      if (at < 0 || static_cast<std::uint64_t>(at) + width > bound ||
          (static_cast<std::uint64_t>(at) & (width - 1)) != 0)
        return 1;
      if (data != nullptr) std::memcpy(&values[l], data + at, width);  // little-endian, as on the GPU
    }
    return 0;
  }

  // One request of an access: counted directly where it has a few lanes (a loop that most
  // lanes have left) or its shapes keep changing (`x[col_idx[jj]]`), caching them costing more
  // than counting; else from the figures of its shape.
  static constexpr int kFewLanes = 4;
  static std::int32_t access(Worker* w, std::int32_t slot, std::uint32_t lanes,
                             const std::int64_t* addresses) {
    const CompiledAccess& a = *w->slots_[static_cast<std::size_t>(slot)];
    const std::int64_t base = addresses[__builtin_ctz(lanes)];
    const int n = __builtin_popcount(lanes);
    Shapes& shapes = w->shapes_[static_cast<std::size_t>(slot)];
    if (n <= kFewLanes || shapes.churn > kChurnLimit) {
      const AddressSpan span = address_span(addresses, lanes);
      return record(w, a, lanes, span.lowest, span.highest, span.bits,
                    [&](int* phases) { return figure_of(a, lanes, addresses, phases); });
    }
    // The shape among the access's last few (warps of one block often differ in their lanes:
    // the first and last rows of a tile), compared over the lanes without a branch per lane.
    Shape* found = nullptr;
    for (Shape& candidate : shapes.recent) {
      if (candidate.lanes != lanes) continue;
      const auto ubase = static_cast<std::uint64_t>(base);
      const auto* at = reinterpret_cast<const std::uint64_t*>(addresses);
      const auto* deltas = reinterpret_cast<const std::uint64_t*>(candidate.deltas.data());
      std::uint64_t differ = 0;
      if ((lanes & (lanes + 1)) == 0) {  // lanes 0 .. n-1 (the usual)
        for (int l = 0; l < n; ++l) differ |= (at[l] - ubase) ^ deltas[l];
      } else {
        for (std::uint32_t m = lanes; m != 0; m &= m - 1) {
          const int l = __builtin_ctz(m);
          differ |= (at[l] - ubase) ^ deltas[l];
        }
      }
      if (differ == 0) {
        found = &candidate;
        break;
      }
    }
    if (found != nullptr) {
      shapes.churn -= shapes.churn > 0 ? 1 : 0;
    } else {
      shapes.churn += 2;
      found = &shapes.recent[shapes.next];
      shapes.next = (shapes.next + 1) % shapes.recent.size();
      Shape& fresh = *found;
      fresh.lanes = lanes;
      fresh.low = fresh.high = 0;
      fresh.bits = 0;
      for (unsigned l = 0; l < kLanes; ++l) {
        std::int64_t d = 0;
        // A distance past int64: handed over (the interpreter names it; this worker ends with it).
        if ((lanes >> l & 1u) && __builtin_sub_overflow(addresses[l], base, &d)) return 1;
        fresh.deltas[l] = d;
        fresh.low = std::min(fresh.low, d);
        fresh.high = std::max(fresh.high, d);
        fresh.bits |= static_cast<std::uint64_t>(d);
      }
      fresh.figure.fill(-1);
    }
    Shape& shape = *found;
    std::int64_t lowest = 0, highest = 0;
    if (__builtin_add_overflow(base, shape.low, &lowest) ||
        __builtin_add_overflow(base, shape.high, &highest))
      return 1;
    const auto r = static_cast<std::size_t>(static_cast<std::uint64_t>(base) & (a.shared ? 127u : 31u));
    return record(w, a, lanes, lowest, highest, static_cast<std::uint64_t>(base) | shape.bits,
                  [&](int* phases) {
                    if (shape.figure[r] < 0)
                      shape.figure[r] = figure_of(a, lanes, addresses, &shape.phases[r]);
                    *phases = shape.phases[r];
                    return shape.figure[r];
                  });
  }

  const Program& p_;
  const Code& code_;
  const detail::NativeRun& run_;
  detail::NativeTally* tally_ = nullptr;
  WarpContext ctx_{};
  std::vector<std::uint32_t> threads_;  // [warp][dimension][lane]
  std::vector<const CompiledAccess*> slots_;
  std::vector<Shapes> shapes_;  // [slot]
  bool mismatch_ = false;
  std::vector<std::uint64_t> full_, lanes_, block_max_, block_min_;
};

}  // namespace native

namespace {

std::unique_ptr<detail::NativeWorker> PlannedCode::worker(const detail::NativeRun& run) const {
  return std::make_unique<Worker>(plan_, *code_, run);
}

// Why a launch is outside the native replay's scope ("" when it is not).
std::string out_of_scope(const Program& p) {
  // (The run's observers and part of the grid are decided by the caller, sim/engine/ir_replay.cpp.)
  const detail::PlanOptions& o = p.options;
  if (o.by_iteration) return "counts by iteration";
  if (o.capture_stores) return "stores captured";
  if (p.warp_size != static_cast<int>(kLanes)) return "a warp size other than 32";
  if (p.shared_values || p.global_values || p.local_size > 0) return "memory followed by value";
  if (p.shifted_size != 0) return "the class engine's address residues";
  if (p.kernel.stmts.size() > kMaxNativeStatements)
    return "more than " + std::to_string(kMaxNativeStatements) + " statements";
  for (const detail::CompiledExpr& e : p.exprs)
    if (e.kind == ExprKind::Opaque && e.index != kNone &&
        p.kernel.accesses[static_cast<std::size_t>(e.index)].kind != AccessKind::Load)
      return "an atomic's returned value";
  return "";
}

struct Compiler {
  std::mutex mutex;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> machine;
  LruMap<std::shared_ptr<const Code>> cache{kMaxCachedCodes};     // null: refused
  LruMap<std::shared_ptr<const Kernel>> models{kMaxCachedCodes};  // by their JSON: each read once
  const std::string* model_text = nullptr;                        // the plan's being read
  NativeStats stats;
  std::uint64_t functions = 0;
};

Compiler& compiler() {
  static Compiler c;
  return c;
}

// Drops what a lane function's `restrict` pointers left (noalias arguments, their scopes): its body
// is straight-line vector code that needs none, and thousands of inlined scopes make the
// optimiser's walks over long blocks slow.
void drop_alias_scopes(llvm::Function& f) {
  for (llvm::Argument& a : f.args()) a.removeAttr(llvm::Attribute::NoAlias);
  std::vector<llvm::Instruction*> declarations;
  for (llvm::BasicBlock& block : f)
    for (llvm::Instruction& i : block) {
      if (const auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
          call != nullptr && call->getIntrinsicID() == llvm::Intrinsic::experimental_noalias_scope_decl)
        declarations.push_back(&i);
      i.setMetadata(llvm::LLVMContext::MD_alias_scope, nullptr);
      i.setMetadata(llvm::LLVMContext::MD_noalias, nullptr);
    }
  for (llvm::Instruction* i : declarations) i->eraseFromParent();
}

// Links the lane functions the generated code calls (jit/ops_lanes.hpp) from their embedded
// bitcode into `module` and inlines every call (so that the pipeline simplifies only the warp
// function, not each lane function, already optimised, before inlining it); none is left.
void link_lane_functions(llvm::Module& module) {
  auto buffer = llvm::MemoryBuffer::getMemBuffer(
      llvm::StringRef(reinterpret_cast<const char*>(kOpsBitcode), kOpsBitcode_size), "ops_lanes.bc", false);
  auto lanes = llvm::getOwningLazyBitcodeModule(std::move(buffer), module.getContext());
  if (!lanes)
    throw Unsupported{"the lane functions' bitcode does not load: " + llvm::toString(lanes.takeError())};
  (*lanes)->setDataLayout(module.getDataLayout());
  (*lanes)->setTargetTriple(module.getTargetTriple());
  std::vector<std::string> wanted;
  for (const llvm::Function& f : module)
    if (f.isDeclaration() && f.getName().startswith("warpdiv_")) wanted.push_back(f.getName().str());
  if (llvm::Linker::linkModules(module, std::move(*lanes), llvm::Linker::LinkOnlyNeeded))
    throw Unsupported{"the lane functions do not link"};
  std::vector<llvm::Function*> lanes_functions;
  for (const std::string& name : wanted) {
    llvm::Function* f = module.getFunction(name);
    if (f == nullptr || f->isDeclaration()) throw Unsupported{"no lane function " + name};
    drop_alias_scopes(*f);
    lanes_functions.push_back(f);
  }
  for (llvm::Function* f : lanes_functions) {
    std::vector<llvm::CallBase*> calls;
    for (llvm::User* u : f->users())
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(u)) calls.push_back(call);
    for (llvm::CallBase* call : calls) {
      llvm::InlineFunctionInfo info;
      if (!llvm::InlineFunction(*call, info, nullptr, /*InsertLifetime=*/false).isSuccess())
        throw Unsupported{"the lane function " + f->getName().str() + " does not inline"};
    }
    f->eraseFromParent();
  }
}

std::shared_ptr<const Code> compile(const Program& p, Compiler& c) {
  if (!c.jit) {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder) {
      llvm::consumeError(builder.takeError());
      return nullptr;
    }
    builder->setCodeGenOptLevel(llvm::CodeGenOpt::Default);
    auto machine = builder->createTargetMachine();
    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*builder).create();
    if (!machine || !jit) {
      if (!machine) llvm::consumeError(machine.takeError());
      if (!jit) llvm::consumeError(jit.takeError());
      return nullptr;
    }
    c.machine = std::move(*machine);
    c.jit = std::move(*jit);
  }
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("warpdiv", *context);
  module->setDataLayout(c.jit->getDataLayout());
  module->setTargetTriple(c.machine->getTargetTriple().str());
  const std::string name = "warpdiv_warp_" + std::to_string(++c.functions);
  std::vector<Slot> slots;
  llvm::Function* f = generate_warp_function(p, *module, slots, name);
  link_lane_functions(*module);
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (llvm::verifyFunction(*f, &out)) throw Unsupported{"the generated code does not verify: " + out.str()};
  if (f->getInstructionCount() > kMaxNativeInstructions)
    throw Unsupported{"its code is " + std::to_string(f->getInstructionCount()) +
                      " LLVM instructions, above the " + std::to_string(kMaxNativeInstructions) +
                      " that compile in seconds"};
  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder passes(c.machine.get());
    passes.registerModuleAnalyses(mam);
    passes.registerCGSCCAnalyses(cgam);
    passes.registerFunctionAnalyses(fam);
    passes.registerLoopAnalyses(lam);
    passes.crossRegisterProxies(lam, fam, cgam, mam);
    passes.registerPeepholeEPCallback(
        [](llvm::FunctionPassManager& fpm, llvm::OptimizationLevel) { fpm.addPass(OverflowIdioms()); });
    llvm::ModulePassManager mpm = passes.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
    mpm.run(*module, mam);
  }
  llvm::orc::ResourceTrackerSP tracker = c.jit->getMainJITDylib().createResourceTracker();
  if (llvm::Error e =
          c.jit->addIRModule(tracker, llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))) {
    llvm::consumeError(std::move(e));
    return nullptr;
  }
  auto symbol = c.jit->lookup(name);
  if (!symbol) {
    llvm::consumeError(symbol.takeError());
    llvm::consumeError(tracker->remove());
    return nullptr;
  }
  return std::make_shared<const Code>(reinterpret_cast<WarpFunction>(symbol->getAddress()), std::move(slots),
                                      std::move(tracker));
}

// A plan's model from its JSON: read once, then the one read (under the compiler's lock).
std::shared_ptr<const Kernel> read_model(const std::string& json, void* state) {
  Compiler& c = *static_cast<Compiler*>(state);
  if (const auto [key, found] = c.models.find(json); found != nullptr) {
    c.model_text = key;
    return *found;
  }
  auto kernel = std::make_shared<const Kernel>(kernel_from_json(json));
  c.model_text = c.models.insert(json, kernel).first;
  return kernel;
}

// The code of plan `p` (its model's JSON `model`): from the cache, or compiled now (when
// `compile_new`); null when outside the scope or compiling failed. Under the compiler's lock.
std::shared_ptr<const Code> code_of(const Program& p, const std::string& model, bool compile_new,
                                    Compiler& c) {
  const std::string why = out_of_scope(p);
  if (!why.empty()) {
    ++c.stats.refused;
    c.stats.last_refusal = why;
    return nullptr;
  }
  // The model, and which loads' values the launch computes (they decide what the code reads).
  std::string key = std::string(p.options.memory ? "m" : "-") + model + "\nloads";
  for (std::size_t i = 0; i < p.exprs.size(); ++i)
    if (p.exprs[i].kind == ExprKind::Opaque && p.exprs[i].index != kNone) key += " " + std::to_string(i);
  if (const std::shared_ptr<const Code>* found = c.cache.find(key).second) {
    if (*found == nullptr)
      ++c.stats.refused;
    else
      ++c.stats.cache_hits;
    return *found;
  }
  if (!compile_new) return nullptr;
  const auto start = std::chrono::steady_clock::now();
  std::shared_ptr<const Code> code;
  try {
    code = compile(p, c);
  } catch (const Unsupported& u) {
    c.stats.last_refusal = u.why;
    ++c.stats.refused;
  }
  c.stats.compile_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (code != nullptr) ++c.stats.compiled;
  c.stats.evicted += c.cache.insert(std::move(key), code).second;
  return code;
}

// The compiler the plugin hands out (detail::NativePlanCompiler): the plan read back from its
// bytes (its version checked), then its code. Nothing is thrown across the plugin's boundary.
detail::NativeCompiled compile_plan(const char* bytes, std::size_t size, bool compile_new) noexcept {
  try {
    Compiler& c = compiler();
    const std::lock_guard<std::mutex> lock(c.mutex);
    if (!compile_new && c.cache.empty()) return {};  // nothing to find (and no plan to read)
    const std::string_view text(bytes, size);
    if (detail::plan_version(text) != detail::kLaunchPlanVersion)
      return {nullptr, "the launch plan is of another version than the native replay reads"};
    c.model_text = nullptr;
    Program plan = detail::deserialize(text, &read_model, &c);
    std::shared_ptr<const Code> code = code_of(plan, *c.model_text, compile_new, c);
    if (code == nullptr) return {};
    return {std::make_shared<const PlannedCode>(std::move(code), std::move(plan))};
  } catch (const std::exception&) {
    return {nullptr, "the native replay could not read or compile the launch plan"};
  }
}

// In process (jit/ linked in): the plan passed as the plugin passes it, serialised.
detail::NativeCompiled native_compile(const Program& p, bool compile_new) {
  const std::string bytes = detail::serialize(p);
  return compile_plan(bytes.data(), bytes.size(), compile_new);
}

// Installed when the target is linked in (before main()).
const bool installed = (install_native_replay(), true);

}  // namespace

void install_native_replay() { detail::set_native_compiler(&native_compile); }

detail::NativePlanCompiler plan_compiler() { return &compile_plan; }

NativeStats native_stats() {
  Compiler& c = compiler();
  const std::lock_guard<std::mutex> lock(c.mutex);
  return c.stats;
}

}  // namespace warpdiv::jit
