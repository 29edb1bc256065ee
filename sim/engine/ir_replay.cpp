#include "sim/engine/ir_replay.hpp"

#include <algorithm>
#include <queue>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <tuple>
#include <array>

#include "sim/support/errors.hpp"
#include "sim/engine/ir_prerun.hpp"
#include "sim/engine/ir_engine.hpp"
#include "sim/engine/ir_native.hpp"
#include "sim/memory/shared_races.hpp"
#include "sim/model/ir_fold.hpp"
#include "sim/model/ir_ops.hpp"
#include "sim/support/parallel.hpp"

namespace warpdiv::sim::ir {

using detail::LaunchPlan;
using detail::RunContext;
using detail::StoreWrite;
using detail::Tally;
using detail::WarpMachine;

bool operator==(const Dim3& a, const Dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

std::string to_string(const Dim3& d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

bool operator==(const StatementCounts& a, const StatementCounts& b) {
  return a.warp_evaluations == b.warp_evaluations && a.divergent == b.divergent &&
         a.active_lanes == b.active_lanes && a.taken_lanes == b.taken_lanes &&
         a.block_executions == b.block_executions &&
         a.partial_block_executions == b.partial_block_executions &&
         a.blocks_with_partial == b.blocks_with_partial;
}

StatementCounts& operator+=(StatementCounts& a, const StatementCounts& b) {
  a.warp_evaluations = checked_add(a.warp_evaluations, b.warp_evaluations);
  a.divergent = checked_add(a.divergent, b.divergent);
  a.active_lanes = checked_add(a.active_lanes, b.active_lanes);
  a.taken_lanes = checked_add(a.taken_lanes, b.taken_lanes);
  a.block_executions = checked_add(a.block_executions, b.block_executions);
  a.partial_block_executions = checked_add(a.partial_block_executions, b.partial_block_executions);
  a.blocks_with_partial = checked_add(a.blocks_with_partial, b.blocks_with_partial);
  return a;
}

namespace {

void check_range(const std::string& what, std::uint64_t value, std::uint64_t low, std::uint64_t high) {
  if (value < low || value > high)
    throw InvalidInput(Diag::flag_value, what + " must be from " + std::to_string(low) + " to " +
                                             std::to_string(high) + " (got " + std::to_string(value) + ")");
}

// Blocks sampled to estimate a run: the first, the last and evenly spaced ones between.
constexpr std::uint64_t kSampleBlocks = 8;

std::array<std::uint32_t, 3> block_of(const Dim3& grid, std::uint64_t linear) {
  return {static_cast<std::uint32_t>(linear % grid.x), static_cast<std::uint32_t>(linear / grid.x % grid.y),
          static_cast<std::uint32_t>(linear / (std::uint64_t{grid.x} * grid.y))};
}

Tally make_tally(const Kernel& kernel) {
  Tally t;
  t.statements.resize(kernel.stmts.size());
  t.iterations.resize(kernel.stmts.size());
  t.accesses.resize(kernel.accesses.size());
  t.flops.resize(kernel.stmts.size());
  t.faults.resize(kernel.accesses.size() + kernel.stmts.size());
  t.extents.resize(kernel.accesses.size());
  return t;
}

// The blocks a run visits: only_block, only_blocks, or the whole grid.
BlockRange blocks_of(const Launch& launch, const ReplayOptions& options) {
  if (options.only_block) return BlockRange{*options.only_block, *options.only_block};
  if (options.only_blocks) return *options.only_blocks;
  return BlockRange{Dim3{0, 0, 0}, Dim3{launch.grid.x - 1, launch.grid.y - 1, launch.grid.z - 1}};
}

// Replays block `linear` (in x, y, z order) of the run's blocks with one machine into `tally`.
void replay_block(const ReplayOptions& options, const BlockRange& range, WarpMachine& machine,
                  std::uint64_t linear, Tally& tally) {
  const Dim3 extent{range.last.x - range.first.x + 1, range.last.y - range.first.y + 1,
                    range.last.z - range.first.z + 1};
  const auto [x, y, z] = block_of(extent, linear);
  machine.begin_block(range.first.x + x, range.first.y + y, range.first.z + z);
  machine.run_warps(tally, options.only_warp);
  machine.end_block(tally);
}

void check_options(const Launch& launch, const ReplayOptions& options, int warps_per_block) {
  if (options.only_block) {
    const Dim3& b = *options.only_block;
    if (b.x >= launch.grid.x || b.y >= launch.grid.y || b.z >= launch.grid.z)
      throw InvalidInput(Diag::flag_value,
                         "block " + to_string(b) + " is outside the grid " + to_string(launch.grid) +
                             " (allowed: each index below the grid's size in that dimension)");
  }
  if (options.only_blocks) {
    const BlockRange& r = *options.only_blocks;
    if (options.only_block)
      throw InvalidInput(Diag::flag_usage, "only one of a block and a range of blocks can be replayed");
    if (r.first.x > r.last.x || r.first.y > r.last.y || r.first.z > r.last.z || r.last.x >= launch.grid.x ||
        r.last.y >= launch.grid.y || r.last.z >= launch.grid.z)
      throw InvalidInput(Diag::flag_value,
                         "blocks " + to_string(r.first) + " to " + to_string(r.last) +
                             " are not a range of the grid " + to_string(launch.grid) +
                             " (allowed: first <= last < the grid's size in each dimension)");
  }
  if (options.only_warp && *options.only_warp >= static_cast<std::uint32_t>(warps_per_block))
    throw InvalidInput(Diag::flag_value,
                       "warp " + std::to_string(*options.only_warp) + " does not exist (a block of " +
                           std::to_string(launch.block.volume()) + " threads has warps 0 to " +
                           std::to_string(warps_per_block - 1) + ")");
}

std::uint64_t to_u64_saturated(Count c) {
  return c > Count{~std::uint64_t{0} >> 1} ? ~std::uint64_t{0} >> 1 : static_cast<std::uint64_t>(c);
}

ReplayEstimate sample(const LaunchPlan& program, RunContext& run, const ReplayOptions& options,
                      const BlockRange& range) {
  const Count blocks = range.volume();
  ReplayEstimate e;
  e.blocks = blocks;
  const std::uint64_t samples = blocks < kSampleBlocks ? static_cast<std::uint64_t>(blocks) : kSampleBlocks;
  WarpMachine machine(program, run);
  Tally tally = make_tally(program.kernel);
  run.evaluation_cap = to_u64_saturated(options.max_evaluations);
  run.sampling = true;
  for (std::uint64_t i = 0; i < samples; ++i) {
    const std::uint64_t linear =
        samples <= 1 ? 0 : static_cast<std::uint64_t>((blocks - 1) * i / (samples - 1));
    replay_block(options, range, machine, linear, tally);
  }
  run.sampling = false;
  e.warp_statement_evaluations = samples == 0 ? 0 : checked_mul(Count{tally.evaluations}, blocks) / samples;
  Count stores = 0;
  for (std::size_t a = 0; a < tally.accesses.size() && a < program.kernel.accesses.size(); ++a) {
    const MemoryAccess& m = program.kernel.accesses[a];
    const bool parameter =
        m.base != kNone && program.kernel.bases[static_cast<std::size_t>(m.base)].parameter >= 0;
    if (parameter && m.kind != AccessKind::Load) stores += tally.accesses[a].lanes;
  }
  e.lane_stores = samples == 0 ? 0 : checked_mul(stores, blocks) / samples;
  return e;
}

ReplayResult to_result(const Kernel& kernel, const std::vector<Tally>& tallies, bool program_memory) {
  ReplayResult r;
  r.statements.resize(kernel.stmts.size());
  r.iterations.resize(kernel.stmts.size());
  r.memory_counted = program_memory;
  r.accesses.resize(kernel.accesses.size());
  r.flops.resize(kernel.stmts.size(), 0);
  for (const Tally& t : tallies) {
    for (std::size_t i = 0; i < kernel.stmts.size(); ++i) {
      r.statements[i] += t.statements[i];
      const auto& per_k = t.iterations[i];
      if (r.iterations[i].size() < per_k.size()) r.iterations[i].resize(per_k.size());
      for (std::size_t k = 0; k < per_k.size(); ++k) r.iterations[i][k] += per_k[k];
    }
    for (std::size_t a = 0; a < kernel.accesses.size(); ++a) r.accesses[a] += t.accesses[a];
    for (std::size_t i = 0; i < kernel.stmts.size(); ++i) r.flops[i] = checked_add(r.flops[i], t.flops[i]);
    r.blocks = checked_add(r.blocks, t.blocks);
    r.warps = checked_add(r.warps, t.warps);
    r.warp_statement_evaluations = checked_add(r.warp_statement_evaluations, t.evaluations);
    r.affine_requests = checked_add(r.affine_requests, Count{t.affine_requests});
  }
  // Faults: the one in the lowest block wins; a faulted figure is not counted.
  const std::size_t accesses = kernel.accesses.size();
  r.access_faults.assign(accesses, "");
  r.access_out_of_bounds.assign(accesses, false);
  r.flop_faults.assign(kernel.stmts.size(), "");
  for (std::size_t item = 0; item < accesses + kernel.stmts.size(); ++item) {
    const detail::MemoryFault* first = nullptr;
    for (const Tally& t : tallies) {
      const detail::MemoryFault& f = t.faults[item];
      if (f.met && (first == nullptr || f.block < first->block)) first = &f;
    }
    if (first == nullptr) continue;
    if (item < accesses) {
      r.access_faults[item] = first->message;
      r.access_out_of_bounds[item] = first->out_of_bounds;
      r.accesses[item] = AccessCounts{};
    } else {
      r.flop_faults[item - accesses] = first->message;
      r.flops[item - accesses] = 0;
    }
  }
  // Each base's extent: the bytes its counted accesses touched (a faulted access is not counted,
  // whichever of its requests each worker ran before its fault).
  r.extents.assign(kernel.bases.size(), BaseExtent{});
  for (std::size_t a = 0; a < accesses; ++a) {
    const std::int32_t base = kernel.accesses[a].base;
    if (base == kNone || !r.access_faults[a].empty()) continue;
    for (const Tally& t : tallies)
      if (a < t.extents.size()) merge(r.extents[static_cast<std::size_t>(base)], t.extents[a]);
  }
  return r;
}

// Thrown on a worker thread when native code hands the launch over (sim/engine/ir_native.hpp).
struct HandOver {
  const char* reason;
};

// Marks the end of a worker's blocks in run_blocks (its machine then finishes its tally).
constexpr std::uint64_t kFinish = ~std::uint64_t{0};

// Runs blocks 0 .. total-1 of a run on `workers` threads, one tally each (`tallies`, made here):
// each worker gets a block runner from make_runner and blocks in chunks from one counter, so
// uneven blocks balance out; the runner is last called with kFinish. `shared` gathers finished
// blocks' evaluations (the budget's), `done` the blocks (added to the caller's progress too).
void run_blocks(const Kernel& kernel, const ReplayOptions& options, std::uint64_t total, unsigned workers,
                std::atomic<std::uint64_t>& shared, std::atomic<std::uint64_t>& done,
                std::vector<Tally>& tallies,
                const std::function<std::function<void(std::uint64_t, Tally&)>()>& make_runner) {
  const std::uint64_t chunk =
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(64, total / (workers * 16ull) + 1));
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> failed{false};  // a block's error stops the others before their next chunk
  // The error of the lowest block that failed: the one a run on one thread would meet first
  // (chunks go out in order, so every lower block has been handed out and runs to its end).
  std::mutex mutex;
  std::uint64_t failed_block = ~std::uint64_t{0};
  std::exception_ptr error;
  tallies.assign(workers, make_tally(kernel));
  // One item per worker, each with a runner of its own, taking chunks until none is left.
  parallel_for(workers, workers, [&](std::size_t item, unsigned) {
    std::uint64_t b = kFinish;
    try {
      const std::function<void(std::uint64_t, Tally&)> run = make_runner();
      Tally& tally = tallies[item];
      for (;;) {
        // A chunk taken is run whole, even after another block failed: a block below the one
        // that failed may be in it.
        const std::uint64_t first = failed.load() ? total : next.fetch_add(chunk);
        if (first >= total) {
          b = kFinish;
          run(kFinish, tally);
          return;
        }
        const std::uint64_t end = std::min(total, first + chunk);
        for (b = first; b < end; ++b) {
          const std::uint64_t before = tally.evaluations;
          run(b, tally);
          shared.fetch_add(tally.evaluations - before, std::memory_order_relaxed);
          done.fetch_add(1, std::memory_order_relaxed);
          if (options.blocks_done != nullptr) options.blocks_done->fetch_add(1);
        }
        if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed))
          throw Interrupted("replay interrupted");
      }
    } catch (...) {
      failed = true;
      const std::lock_guard<std::mutex> lock(mutex);
      if (error == nullptr || b < failed_block) {
        failed_block = b;
        error = std::current_exception();
      }
    }
  });
  if (error != nullptr) std::rethrow_exception(error);
}

void prepare(const Kernel& kernel, const Launch& launch, const ReplayOptions& options) {
  validate(kernel);
  validate(launch, kernel, options.grid_limits);
  const auto warps = static_cast<int>((launch.block.volume() + launch.warp_size - 1) / launch.warp_size);
  check_options(launch, options, warps);
}

}  // namespace

std::vector<bool> buffers_with_values(const Kernel& kernel, const Launch& launch) {
  std::vector<bool> values(kernel.parameters.size(), false);
  for (std::size_t i = 0; i < values.size() && i < launch.buffer_bytes.size(); ++i)
    values[i] = launch.buffer_bytes[i] != 0;
  return values;
}

void validate(const Launch& launch, const Kernel& kernel) {
  using namespace launch_limits;
  check_range("grid x", launch.grid.x, 1, kMaxGridX);
  check_range("grid y", launch.grid.y, 1, kMaxGridYZ);
  check_range("grid z", launch.grid.z, 1, kMaxGridYZ);
  check_range("block x", launch.block.x, 1, kMaxBlockXY);
  check_range("block y", launch.block.y, 1, kMaxBlockXY);
  check_range("block z", launch.block.z, 1, kMaxBlockZ);
  if (launch.block.volume() > kMaxThreadsPerBlock)
    throw InvalidInput(Diag::launch_invalid,
                       "a block must have at most 1024 threads (got " + std::to_string(launch.block.x) +
                           " x " + std::to_string(launch.block.y) + " x " + std::to_string(launch.block.z) +
                           " = " + std::to_string(launch.block.volume()) + ")");
  const int s = launch.warp_size;
  if (s < kMinWarpSize || s > kMaxWarpSize || (s & (s - 1)) != 0)
    throw InvalidInput(Diag::flag_value,
                       "warp size must be a power of two from 1 to 64 (got " + std::to_string(s) + ")");
  if (launch.arguments.size() != kernel.parameters.size())
    throw InvalidInput(Diag::launch_invalid,
                       "kernel " + kernel.name + " takes " + std::to_string(kernel.parameters.size()) +
                           " arguments (got " + std::to_string(launch.arguments.size()) + ")");
  for (std::size_t i = 0; i < kernel.parameters.size(); ++i) {
    const Parameter& p = kernel.parameters[i];
    if (p.scalar && launch.arguments[i].type != p.type)
      throw InvalidInput(Diag::launch_invalid, "argument '" + p.name + "' has type " +
                                                   name(launch.arguments[i].type) +
                                                   ", the parameter has type " + name(p.type));
  }
  // Buffers with values (Launch::buffer_data: buffer_bytes of them, or zeros).
  const std::vector<bool> values = buffers_with_values(kernel, launch);
  for (std::size_t i = 0; i < kernel.parameters.size() && i < launch.buffer_bytes.size(); ++i) {
    if (i < launch.buffer_data.size() && launch.buffer_data[i] != nullptr &&
        launch.buffer_data[i]->size() != launch.buffer_bytes[i])
      throw InvalidInput(Diag::launch_invalid, "the data of '" + kernel.parameters[i].name + "' has " +
                                                   std::to_string(launch.buffer_data[i]->size()) +
                                                   " bytes, its buffer " +
                                                   std::to_string(launch.buffer_bytes[i]));
  }
  check_data_dependence(kernel, values);
}

void validate(const Launch& launch, const Kernel& kernel, GridLimits limits) {
  if (limits == GridLimits::Cuda) return validate(launch, kernel);
  Launch cuda = launch;
  for (std::uint32_t* d : {&cuda.grid.y, &cuda.grid.z}) {
    if (*d > launch_limits::kMaxGridX)
      throw InvalidInput(Diag::launch_invalid, "grid " + std::string(d == &cuda.grid.y ? "y" : "z") +
                                                   " must be from 1 to 2147483647 (got " +
                                                   std::to_string(*d) + ")");
    *d = std::min(*d, launch_limits::kMaxGridYZ);
  }
  validate(cuda, kernel);
}

std::size_t capture_record_bytes() { return sizeof(StoreWrite); }

ReplayEstimate estimate(const Kernel& kernel, const Launch& launch, const ReplayOptions& options) {
  prepare(kernel, launch, options);
  const auto model = std::make_shared<const Kernel>(kernel);
  const LaunchPlan program(model, launch, detail::plan_options(options));
  const Count followed =
      program.global_values ? checked_mul(Count{program.global_size}, 1 + sizeof(detail::GlobalByte)) : 0;
  // The buffers followed for the stores' contents alone are not allocated to sample: the samples'
  // counts do not depend on them (conditions and addresses follow what they read either way).
  detail::PlanOptions counting = program.options;
  counting.capture_stores = false;
  const LaunchPlan plain(model, launch, counting);
  const LaunchPlan& sampled = options.capture_stores ? plain : program;
  RunContext run = detail::run_context(sampled, launch, options);
  ReplayEstimate e = sample(sampled, run, options, blocks_of(launch, options));
  e.followed_bytes = followed;
  return e;
}

namespace {

// An element's value after atomics: the buffer's value before the launch (its --data,
// or zeros) updated by each atomic in the replay's order (threads ascending, each thread's in
// program order). Where one thread made them, or several made atomics that commute (integer add
// and sub, or one of min, max, and, or, xor), that is the GPU's result; several threads' atomics
// that do not commute (exch, cas, inc, dec, float add, different operations) leave a result that
// depends on their order (kOrdered). An element also written by a plain store, or by atomics of
// different widths, is unknown.
void combine_atomics(const Launch& launch, std::vector<const StoreWrite*>& atomics, ReplayResult& result) {
  std::sort(atomics.begin(), atomics.end(), [](const StoreWrite* a, const StoreWrite* b) {
    return std::tie(a->parameter, a->offset, a->thread, a->sequence) <
           std::tie(b->parameter, b->offset, b->thread, b->sequence);
  });
  for (std::size_t i = 0; i < atomics.size();) {
    std::size_t j = i;
    const StoreWrite& first = *atomics[i];
    bool mixed = false, several = false, commute = true;
    while (j < atomics.size() && atomics[j]->parameter == first.parameter &&
           atomics[j]->offset == first.offset) {
      mixed = mixed || atomics[j]->width != first.width || atomics[j]->type != first.type;
      several = several || atomics[j]->thread != first.thread;
      commute = commute && atomics_commute(first.atomic, atomics[j]->atomic, first.type);
      ++j;
    }
    const auto p = static_cast<std::size_t>(first.parameter);
    StoredBuffer& buffer = result.stored[p];
    const auto end = static_cast<std::size_t>(first.offset) + first.width;
    if (buffer.bytes.size() < end) {
      buffer.bytes.resize(end, 0);
      buffer.state.resize(end, StoredBuffer::kUnwritten);
    }
    const auto at = static_cast<std::size_t>(first.offset);
    bool stored = false;
    for (std::size_t b = at; b < end; ++b) stored = stored || buffer.state[b] != StoredBuffer::kUnwritten;
    std::uint64_t value = 0;  // the element before the launch, little-endian
    const std::string* data = p < launch.buffer_data.size() ? launch.buffer_data[p].get() : nullptr;
    if (data != nullptr && end <= data->size()) std::memcpy(&value, data->data() + at, first.width);
    for (std::size_t k = i; k < j && !mixed; ++k)
      value = ops::atomic(atomics[k]->atomic, first.type, static_cast<int>(first.width), value,
                          atomics[k]->bits, atomics[k]->compare, AddressSpace::Global);
    const std::uint8_t state = stored || mixed       ? StoredBuffer::kUnknown
                               : several && !commute ? StoredBuffer::kOrdered
                                                     : StoredBuffer::kWritten;
    for (std::size_t b = at; b < end; ++b) {
      buffer.bytes[b] = static_cast<std::uint8_t>(value >> (8 * (b - at)));
      buffer.state[b] = state;
    }
    i = j;
  }
}

// Set in StoredBuffer::state while one thread's writes are assembled: that thread wrote the byte.
constexpr std::uint8_t kThisThread = 0x80;

bool store_order(const StoreWrite& a, const StoreWrite& b) {
  return std::tie(a.parameter, a.thread, a.sequence) < std::tie(b.parameter, b.thread, b.sequence);
}

// One plain write (or an atomic whose value the model does not hold) into its buffer: the first
// write of a byte or a later one of the same thread replaces it; another thread's leaves the byte
// conflicting where the values differ.
void assemble_write(const StoreWrite& w, StoredBuffer& buffer) {
  const auto end = static_cast<std::size_t>(w.offset) + w.width;
  if (buffer.bytes.size() < end) {
    buffer.bytes.resize(end, 0);
    buffer.state.resize(end, StoredBuffer::kUnwritten);
  }
  for (std::size_t i = 0; i < w.width; ++i) {
    const std::size_t at = static_cast<std::size_t>(w.offset) + i;
    const auto byte = static_cast<std::uint8_t>(w.bits >> (8 * i));
    const std::uint8_t state = w.known ? StoredBuffer::kWritten : StoredBuffer::kUnknown;
    std::uint8_t& flagged = buffer.state[at];
    const bool mine = (flagged & kThisThread) != 0;
    std::uint8_t now = flagged & static_cast<std::uint8_t>(~kThisThread);
    if (now == StoredBuffer::kUnwritten || mine) {  // first, or the same thread later
      if (now != StoredBuffer::kConflict) now = state;
      buffer.bytes[at] = byte;
    } else if (now != StoredBuffer::kConflict) {  // another thread
      if (now == StoredBuffer::kUnknown || !w.known)
        now = StoredBuffer::kUnknown;
      else if (buffer.bytes[at] != byte)
        now = StoredBuffer::kConflict;
    }
    flagged = now | kThisThread;
  }
}

// What the captured stores leave in each parameter's buffer: each thread's writes in program
// order (the last one stays), then the threads' results byte by byte; where two threads leave
// different values (or one a value the model does not hold), the byte's final value depends on
// their order on the GPU and is marked, not guessed. Each worker's writes are sorted where they
// are and merged, threads ascending: no second copy of them, and no per-byte record of the writer
// (a flag in the state marks the bytes of the thread being assembled).
void assemble_stores(const Kernel& kernel, const Launch& launch, const LaunchPlan& program,
                     std::vector<Tally>& tallies, ReplayResult& result) {
  result.stored.assign(kernel.parameters.size(), StoredBuffer{});
  result.stores_not_captured = program.stores_not_captured;
  for (const Tally& t : tallies)
    if (result.stores_not_captured.empty() && !t.store_fault.empty())
      result.stores_not_captured = t.store_fault;
  using Cursor = std::pair<std::deque<StoreWrite>::const_iterator,
                           std::deque<StoreWrite>::const_iterator>;  // next, end of one worker's writes
  const auto later = [](const Cursor& a, const Cursor& b) { return store_order(*b.first, *a.first); };
  std::priority_queue<Cursor, std::vector<Cursor>, decltype(later)> heads(later);
  for (Tally& t : tallies) {
    std::sort(t.stores.begin(), t.stores.end(), store_order);
    if (!t.stores.empty()) heads.emplace(t.stores.cbegin(), t.stores.cend());
  }
  std::vector<const StoreWrite*> atomics;  // order-independent atomics, combined below
  std::vector<const StoreWrite*> thread;   // the plain writes of the thread being assembled
  const auto end_thread = [&]() {
    for (const StoreWrite* w : thread)
      for (std::size_t i = 0; i < w->width; ++i)
        result.stored[static_cast<std::size_t>(w->parameter)]
            .state[static_cast<std::size_t>(w->offset) + i] &= static_cast<std::uint8_t>(~kThisThread);
    thread.clear();
  };
  while (!heads.empty()) {
    Cursor c = heads.top();
    heads.pop();
    const StoreWrite& w = *c.first;
    if (++c.first != c.second) heads.push(c);
    if (w.offset < 0) continue;  // outside the buffer: a fault the figures report
    if (!thread.empty() && (thread.back()->parameter != w.parameter || thread.back()->thread != w.thread))
      end_thread();
    if (w.known) result.stored[static_cast<std::size_t>(w.parameter)].element = w.type;
    if (w.atomic != AtomicOp::Other && w.known) {
      atomics.push_back(&w);
      continue;
    }
    assemble_write(w, result.stored[static_cast<std::size_t>(w.parameter)]);
    thread.push_back(&w);
  }
  end_thread();
  combine_atomics(launch, atomics, result);
  for (Tally& t : tallies) std::deque<StoreWrite>().swap(t.stores);
}

}  // namespace

namespace {

// What depends on the order threads run in, each through `on` (the value's origin among the
// order-dependent accesses, or kNone): conditions, then each access's address, lanes, value.
std::vector<OrderDependence> describe_order_dependence(const Kernel& kernel,
                                                       const std::function<ExprId(ExprId)>& on) {
  std::vector<OrderDependence> out;
  const auto add = [&](const SourceRange& range, bool condition, std::int32_t access, const std::string& what,
                       ExprId origin) {
    const Expr& o = kernel.exprs[static_cast<std::size_t>(origin)];
    out.push_back(
        OrderDependence{range, condition, access,
                        location(kernel, range) + ": " + what + " depends on " + o.description + " (" +
                            location(kernel, o.range) +
                            "), a value other threads change: counted with blocks, warps and lanes in "
                            "ascending order, a block's warps up to each barrier in turn (the GPU's order "
                            "varies from run to run)"});
  };
  for (const Stmt& s : kernel.stmts)
    if ((s.kind == StmtKind::If || s.kind == StmtKind::Loop || s.kind == StmtKind::Switch) &&
        on(s.value) != kNone)
      add(s.range, true, kNone, "the condition of this " + report_kind(s), on(s.value));
  for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
    const MemoryAccess& m = kernel.accesses[a];
    const auto id = static_cast<std::int32_t>(a);
    if (on(m.offset) != kNone)
      add(m.range, false, id, "the address of '" + m.text + "'", on(m.offset));
    else if (on(m.guard) != kNone)
      add(m.range, false, id, "the lanes of '" + m.text + "'", on(m.guard));
    else if (m.kind == AccessKind::Store && on(m.value) != kNone)
      add(m.range, false, id, "the value '" + m.text + "' stores", on(m.value));
    else if (m.kind == AccessKind::Atomic && on(m.value) != kNone)
      add(m.range, false, id, "the operand of the atomic " + name(m.atomic) + " on '" + m.text + "'",
          on(m.value));
    else if (on(m.compare) != kNone)
      add(m.range, false, id, "the value the atomic cas on '" + m.text + "' compares with", on(m.compare));
  }
  return out;
}

}  // namespace

namespace {

bool is_extern_shared(const Kernel& kernel, std::int32_t b) {
  const MemoryBase& base = kernel.bases[static_cast<std::size_t>(b)];
  return base.parameter == kNone && base.space == AddressSpace::Shared && base.bytes == 0;
}

// The bases the kernel writes; `extern_shared`: it writes an extern __shared__ array (every such
// array is one).
std::vector<bool> written_bases(const Kernel& kernel, bool& extern_shared) {
  std::vector<bool> written(kernel.bases.size(), false);
  for (const MemoryAccess& m : kernel.accesses)
    if (m.kind != AccessKind::Load && m.base != kNone) written[static_cast<std::size_t>(m.base)] = true;
  extern_shared = false;
  for (std::size_t b = 0; b < written.size(); ++b)
    extern_shared = extern_shared || (written[b] && is_extern_shared(kernel, static_cast<std::int32_t>(b)));
  return written;
}

}  // namespace

std::vector<OrderDependence> order_dependence(const Kernel& kernel, const Launch& launch,
                                              const ReplayResult& result) {
  if (result.order_reads.empty() && result.order_atomics.empty()) return {};
  const std::vector<bool> values = buffers_with_values(kernel, launch);
  const std::vector<bool> loaded = computed_loads(kernel, &values);
  const std::vector<ExprId> all = opaque_origins(kernel, loaded);
  // The accesses whose values are taken as unknown (a load's, an atomic's result).
  std::vector<bool> unknown(kernel.accesses.size(), false);
  for (std::int32_t a : result.order_reads) unknown[static_cast<std::size_t>(a)] = true;
  for (std::int32_t a : result.order_atomics) unknown[static_cast<std::size_t>(a)] = true;
  std::vector<ExprId> without;
  const auto on = [&](ExprId x) -> ExprId {
    return x != kNone && all[static_cast<std::size_t>(x)] == kNone ? without[static_cast<std::size_t>(x)]
                                                                   : kNone;
  };
  const auto extern_shared = [&](std::int32_t b) { return is_extern_shared(kernel, b); };
  // The replay saw which bytes each access read and wrote in its order only; which ones they are
  // on the GPU depends on the order where an address does (the taint carries it to the value
  // read; a write's blocks its memory in computed_loads), where an access's lanes do, and where a
  // branch decides whether the access runs. Such a load counts; so does every load of memory
  // such a write hits (the same base; every extern __shared__ array is one); and every load of
  // memory the kernel writes, when a break, continue or return runs under such a branch (what
  // runs after it varies). Local variables assigned under such a branch are not followed yet.
  bool changed = true;
  const auto mark = [&](std::size_t a) {
    if (!unknown[a]) changed = true;
    unknown[a] = true;
  };
  const auto reads_of = [&](const std::function<bool(std::int32_t)>& base) {
    for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
      const MemoryAccess& m = kernel.accesses[a];
      if (loaded[a] && m.kind != AccessKind::Store && m.base != kNone && base(m.base)) mark(a);
    }
  };
  bool writes_extern_shared = false;
  const std::vector<bool> written = written_bases(kernel, writes_extern_shared);
  bool jumps = false;
  const std::function<void(StmtId, bool)> walk = [&](StmtId id, bool under) {
    if (id == kNone) return;
    const Stmt& s = kernel.stmts[static_cast<std::size_t>(id)];
    const bool decides = (s.kind == StmtKind::If || s.kind == StmtKind::Loop || s.kind == StmtKind::Switch) &&
                         on(s.value) != kNone;
    const bool inside = under || decides;
    if (under && (s.kind == StmtKind::Break || s.kind == StmtKind::Continue || s.kind == StmtKind::Return))
      jumps = true;
    // An if's or switch's condition runs before it decides; a loop's again at each iteration.
    if (under || (decides && s.kind == StmtKind::Loop))
      for (std::int32_t a : s.accesses) {
        const MemoryAccess& m = kernel.accesses[static_cast<std::size_t>(a)];
        if (loaded[static_cast<std::size_t>(a)] && m.kind != AccessKind::Store)
          mark(static_cast<std::size_t>(a));
        if (m.kind != AccessKind::Load && m.base != kNone)
          reads_of(
              [&](std::int32_t b) { return b == m.base || (extern_shared(b) && extern_shared(m.base)); });
      }
    switch (s.kind) {
      case StmtKind::Block:
        for (StmtId c : s.children) walk(c, under);
        break;
      case StmtKind::Switch:
        for (StmtId c : s.children) walk(c, inside);
        break;
      case StmtKind::If:
        walk(s.then_stmt, inside);
        walk(s.else_stmt, inside);
        break;
      case StmtKind::Loop:
        walk(s.init, under);
        walk(s.body, inside);
        walk(s.step, inside);
        break;
      case StmtKind::InlinedCall:
        walk(s.body, under);
        break;
      default:
        break;
    }
  };
  while (changed) {
    std::vector<std::int32_t> accesses;
    for (std::size_t a = 0; a < unknown.size(); ++a)
      if (unknown[a]) accesses.push_back(static_cast<std::int32_t>(a));
    without = opaque_origins(kernel, computed_loads(kernel, &values, nullptr, nullptr, &accesses));
    changed = false;
    for (std::size_t a = 0; a < kernel.accesses.size(); ++a)
      if (loaded[a] && kernel.accesses[a].kind != AccessKind::Store && on(kernel.accesses[a].guard) != kNone)
        mark(a);
    walk(kernel.root, false);
    if (jumps)
      reads_of([&](std::int32_t b) {
        return written[static_cast<std::size_t>(b)] || (writes_extern_shared && extern_shared(b));
      });
  }
  return describe_order_dependence(kernel, on);
}

namespace detail {
namespace {
std::atomic<NativeCompiler> installed_compiler{nullptr};
}  // namespace
void set_native_compiler(NativeCompiler compiler) { installed_compiler = compiler; }
NativeCompiler native_compiler() { return installed_compiler.load(); }
}  // namespace detail

namespace {

// What probes of single threads prove before the run (sim/engine/ir_prerun.hpp): undefined behaviour in a
// value, where the launch has many blocks (a small one meets it at once itself) or more
// evaluations than its budget, and a run over its budget, named with the overflow in an address
// a probe met. The trial before a refusal runs for kTrialEvaluations.

// The first block of a run about to be refused (where the probes found no overflow to name), run
// for a moment (at most its budget): undefined behaviour in a value, or a loop that never ends, met that
// early is what the replay would name, rather than its budget. (The run is refused after it: what the trial
// leaves in followed memory does not matter.)
void trial_run(const LaunchPlan& program, RunContext& run, const ReplayOptions& options,
               const BlockRange& range) {
  WarpMachine machine(program, run);
  Tally tally = make_tally(program.kernel);
  run.evaluation_cap = std::min(kTrialEvaluations, to_u64_saturated(options.max_evaluations));
  run.sampling = true;
  try {
    replay_block(options, range, machine, 0, tally);
  } catch (const InvalidInput& e) {
    if (e.diag() == Diag::undefined_arithmetic || e.diag() == Diag::endless_loop) throw;
  }
  run.sampling = false;
}

// `search`: look for the lowest block where a probe meets undefined behaviour (a launch of more
// than one block), which the replay's threads would meet in any block.
void refuse_before_running(const LaunchPlan& program, RunContext& run, const Launch& launch,
                           const ReplayOptions& options, const BlockRange& range, bool search) {
  const Kernel& kernel = program.kernel;
  const PreRun pre = pre_run(kernel, launch, range, options.only_warp, search);
  if (!pre.undefined.empty()) throw located(Diag::undefined_arithmetic, kernel, pre.undefined);
  if (pre.least_evaluations <= options.max_evaluations) return;
  const PreRun named = search ? pre : pre_run(kernel, launch, range, options.only_warp, true);
  if (!named.undefined.empty()) throw located(Diag::undefined_arithmetic, kernel, named.undefined);
  if (named.address_undefined.empty()) trial_run(program, run, options, range);
  throw InvalidInput(Diag::evaluation_budget,
                     (named.address_undefined.empty() ? std::string() : named.address_undefined + "; and ") +
                         "the replay would make at least " + to_decimal(pre.least_evaluations) +
                         " warp-statement evaluations" + pre.longest_loop + ", above its budget of " +
                         to_decimal(options.max_evaluations) + " (--max-evaluations)");
}

// Runs blocks of `range` as native code where a compiler is installed and takes the plan
// (sim/engine/ir_native.hpp): true when it ran them all into `tallies`; false with `hand_over` the
// reason where native code handed the launch over (or its compiler refused the plan with one),
// the run then left to the interpreter, from the start.
bool run_native(const LaunchPlan& program, RunContext& run, const ReplayOptions& options,
                const BlockRange& range, unsigned workers, bool worth, std::atomic<std::uint64_t>& shared,
                std::vector<Tally>& tallies, std::string& hand_over) {
  // The run's parts native code does not do: observers, part of the grid.
  if (options.native == NativeReplay::Off || options.events != nullptr || options.observer != nullptr ||
      options.only_block || options.only_warp || options.only_blocks || detail::native_compiler() == nullptr)
    return false;
  // An access through the null pointer faults in the interpreter only (WarpMachine::null_access).
  if (std::any_of(program.kernel.bases.begin(), program.kernel.bases.end(),
                  [](const MemoryBase& b) { return b.null; })) {
    hand_over = "an access through a null pointer";
    return false;
  }
  const detail::NativeCompiled compiled = detail::native_compiler()(program, worth);
  if (compiled.code == nullptr) {
    hand_over = compiled.refusal;
    return false;
  }
  std::vector<const char*> data(run.base_data.size(), nullptr);
  for (std::size_t b = 0; b < data.size(); ++b)
    if (run.base_data[b] != nullptr) data[b] = run.base_data[b]->data();
  detail::NativeRun native_run;
  native_run.data = data.data();
  native_run.evaluation_cap = run.evaluation_cap;
  native_run.shared_evaluations = run.shared_evaluations;
  std::atomic<std::uint64_t> done{0};
  try {
    run_blocks(program.kernel, options, range.volume(), workers, shared, done, tallies,
               [&]() -> std::function<void(std::uint64_t, Tally&)> {
                 std::shared_ptr<detail::NativeWorker> worker = compiled.code->worker(native_run);
                 return [worker, &range](std::uint64_t linear, Tally& tally) {
                   if (linear == kFinish) return;
                   const Dim3 extent{range.last.x - range.first.x + 1, range.last.y - range.first.y + 1,
                                     range.last.z - range.first.z + 1};
                   const auto [x, y, z] = block_of(extent, linear);
                   detail::NativeTally counts{tally.statements.data(), tally.accesses.data(),
                                              tally.flops.data(), tally.extents.data()};
                   const detail::NativeOutcome outcome =
                       worker->run_block(range.first.x + x, range.first.y + y, range.first.z + z, counts);
                   tally.evaluations += counts.evaluations;
                   tally.blocks += counts.blocks;
                   tally.warps += counts.warps;
                   if (outcome.kind == detail::NativeOutcome::Kind::HandOver) throw HandOver{outcome.reason};
                 };
               });
    return true;
  } catch (const HandOver& h) {
    hand_over = h.reason;
    shared = 0;
    if (options.blocks_done != nullptr) options.blocks_done->fetch_sub(done.load());
    return false;
  }
}

}  // namespace

ReplayResult replay(const Kernel& kernel, const Launch& launch, const ReplayOptions& options) {
  prepare(kernel, launch, options);
  const LaunchPlan program(std::make_shared<const Kernel>(kernel), launch, detail::plan_options(options));
  return detail::replay_plan(program, launch, options);
}

ReplayResult detail::replay_plan(const LaunchPlan& program, const Launch& launch,
                                 const ReplayOptions& options) {
  const Kernel& kernel = program.kernel;
  RunContext run = detail::run_context(program, launch, options);
  const BlockRange range = blocks_of(launch, options);
  const std::string races_unchecked = check_shared_addresses(kernel, launch, options, range);
  const Count blocks = range.volume();
  const bool estimated = blocks > kSampleBlocks;
  refuse_before_running(program, run, launch, options, range, blocks > 1);
  ReplayEstimate e;
  if (estimated) {
    e = sample(program, run, options, range);
    if (e.warp_statement_evaluations > options.max_evaluations)
      throw InvalidInput(Diag::evaluation_budget,
                         "the replay would make about " + to_decimal(e.warp_statement_evaluations) +
                             " warp-statement evaluations (" + to_decimal(blocks) +
                             " blocks, estimated from " + std::to_string(kSampleBlocks) +
                             " sample blocks), above its budget of " + to_decimal(options.max_evaluations) +
                             " (--max-evaluations); use a smaller launch, restrict it to one block or "
                             "raise the budget");
  }
  std::atomic<std::uint64_t> shared{0};
  run.shared_evaluations = &shared;
  // The budget, as given: a run that an estimate from sample blocks let start stops there too.
  run.evaluation_cap = to_u64_saturated(options.max_evaluations);

  const auto total = static_cast<std::uint64_t>(blocks);
  // Buffers followed by value across blocks: one thread, blocks in ascending order.
  const unsigned workers = program.global_values ? 1u : parallel_workers(total, options.threads);
  std::vector<Tally> tallies;
  std::string hand_over;
  const bool worth = options.native == NativeReplay::Always ||
                     (estimated && e.warp_statement_evaluations >= options.native_min_evaluations);
  const bool native = run_native(program, run, options, range, workers, worth, shared, tallies, hand_over);
  if (!native) {
    std::atomic<std::uint64_t> done{0};
    run_blocks(kernel, options, total, workers, shared, done, tallies,
               [&]() -> std::function<void(std::uint64_t, Tally&)> {
                 auto machine = std::make_shared<WarpMachine>(program, run);
                 return [machine, &options, &range](std::uint64_t linear, Tally& tally) {
                   if (linear == kFinish) return machine->finish(tally);
                   replay_block(options, range, *machine, linear, tally);
                 };
               });
  }
  ReplayResult result = to_result(kernel, tallies, program.options.memory);
  result.native = native;
  result.native_hand_over = hand_over;
  result.races_unchecked = races_unchecked;
  const std::vector<bool> values = buffers_with_values(kernel, launch);
  result.computed_loads = computed_loads(kernel, &values);
  // The workers' lists of ids, each once, ascending.
  const auto gathered = [&](std::vector<std::int32_t> Tally::*list) {
    std::vector<std::int32_t> ids;
    for (const Tally& t : tallies) ids.insert(ids.end(), (t.*list).begin(), (t.*list).end());
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
  };
  result.communicating = gathered(&Tally::communicating);
  result.order_atomics = gathered(&Tally::order_atomics);
  result.order_reads = gathered(&Tally::order_reads);
  if (program.options.capture_stores) {
    // What the GPU's order decides is not known: the writes of an access whose address, lanes or
    // value depends on it, and every write when a branch does (which threads write then varies).
    const std::vector<OrderDependence> order = order_dependence(kernel, launch, result);
    const bool branch =
        std::any_of(order.begin(), order.end(), [](const OrderDependence& o) { return o.condition; });
    std::vector<bool> unknown(kernel.accesses.size(), branch);
    for (const OrderDependence& o : order)
      if (o.access != kNone) unknown[static_cast<std::size_t>(o.access)] = true;
    for (Tally& t : tallies)
      for (StoreWrite& w : t.stores)
        if (w.access != kNone && unknown[static_cast<std::size_t>(w.access)]) w.known = false;
    assemble_stores(kernel, launch, program, tallies, result);
  }
  return result;
}

Value evaluate_uniform(const Kernel& k, ExprId id, const std::vector<Value>& args) {
  const FoldLeaf leaf = [&](ExprId leaf_id, int) -> std::optional<Value> {
    const Expr& e = k.exprs[static_cast<std::size_t>(leaf_id)];
    if (e.kind != ExprKind::Param)
      throw InvalidInput(Diag::unknown_value, source_location(k, e.range),
                         "the expression reads a " + name(e.kind) +
                             ", which is not known before the launch (allowed: constants and integer "
                             "parameters)");
    if (e.index < 0 || static_cast<std::size_t>(e.index) >= args.size() ||
        static_cast<std::size_t>(e.index) >= k.parameters.size() ||
        (!k.parameters[e.index].scalar && k.parameters[e.index].floating == 0))
      throw InvalidInput(Diag::unknown_value, "expression reads parameter " + std::to_string(e.index) +
                                                  ", which has no integer or floating value");
    return Value{e.type, normalise(e.type, args[e.index].bits)};
  };
  FoldFault fault;
  const std::optional<Value> v = fold(k, id, leaf, FoldRules{}, &fault);
  if (v) return *v;
  if (fault.model_invalid) throw InvalidInput(Diag::model_invalid, fault.what);
  if (fault.expr != kNone)
    throw InvalidInput(Diag::undefined_arithmetic, source_location(k, k.exprs[fault.expr].range),
                       "undefined behaviour: " + fault.what);
  throw InvalidInput(Diag::unknown_value, "expression " + std::to_string(id) + " is nested too deeply");
}

}  // namespace warpdiv::sim::ir
