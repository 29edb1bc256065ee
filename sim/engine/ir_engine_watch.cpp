// The warp machine's watch for loops that never end (WarpMachine::watch_repeat, sim/engine/
// ir_engine.hpp): a loop's state (the lanes in it, the locals it writes, the memory it changed)
// saved at heads 2^j and compared with the later heads.
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/ir_engine.hpp"

namespace warpdiv::sim::ir::detail {

void WarpMachine::watch_repeat(StmtId loop, std::unique_ptr<RepeatWatch>& watch, std::uint64_t heads,
                               LaneMask in) {
  if (watch == nullptr) {
    watch = std::make_unique<RepeatWatch>();
    watch->written = &written_in(loop);
  } else if ((heads & (heads - 1)) != 0) {
    // Compared every 16th head: a cycle of period p is still found, within 16 p heads of a save.
    if (((heads - watch->saved_at) & 15) == 0 && same_state(*watch, in))
      never_ends(loop, in, heads - watch->saved_at);
    return;
  }
  if ((heads & (heads - 1)) == 0) {  // a power of two: the state to compare the next heads with
    save_state(*watch, in);
    watch->saved_at = heads;
  }
}

const std::vector<LocalId>& WarpMachine::written_in(StmtId loop) {
  if (written_in_.empty()) written_in_.resize(k_.stmts.size());
  auto& written = written_in_[static_cast<std::size_t>(loop)];
  if (written == nullptr)
    written = std::make_unique<std::vector<LocalId>>(locals_written(
        k_, {k_.stmts[static_cast<std::size_t>(loop)].body, k_.stmts[static_cast<std::size_t>(loop)].step}));
  return *written;
}

std::uint64_t WarpMachine::memory_changes() const {
  return local_changes_ + (global_ != nullptr ? global_->changes : 0) +
         (shared_ != nullptr ? shared_->changes : 0);
}

void WarpMachine::save_state(RepeatWatch& w, LaneMask in) {
  w.in = in;
  w.memory = memory_changes();
  w.values.assign(w.written->size() * std::size_t(lanes_), 0);
  w.defined.assign(w.written->size(), 0);
  for (std::size_t i = 0; i < w.written->size(); ++i) {
    const LocalState& st = locals_[(*w.written)[i]];
    const std::uint64_t* lanes = local_lanes((*w.written)[i]);
    w.defined[i] = st.defined;
    for (int l = 0; l < lanes_; ++l)
      if (st.defined >> l & 1) w.values[i * std::size_t(lanes_) + l] = st.uniform ? st.value : lanes[l];
  }
}

bool WarpMachine::same_state(const RepeatWatch& w, LaneMask in) const {
  if (in != w.in || memory_changes() != w.memory) return false;
  for (std::size_t i = 0; i < w.written->size(); ++i) {
    const LocalState& st = locals_[(*w.written)[i]];
    if (st.defined != w.defined[i]) return false;
    const std::uint64_t* lanes = local_lanes_.data() + std::size_t((*w.written)[i]) * kMaxLanes;
    for (int l = 0; l < lanes_; ++l)
      if ((st.defined >> l & 1) &&
          (st.uniform ? st.value : lanes[l]) != w.values[i * std::size_t(lanes_) + l])
        return false;
  }
  return true;
}

std::string WarpMachine::block_and_thread(int lane) const {
  const std::uint64_t t = std::uint64_t(warp_) * p_.warp_size + lane;
  const std::uint64_t bx = p_.launch.block.x, by = p_.launch.block.y;
  return "block (" + std::to_string(block_index_[0]) + ", " + std::to_string(block_index_[1]) + ", " +
         std::to_string(block_index_[2]) + "), thread (" + std::to_string(t % bx) + ", " +
         std::to_string(t / bx % by) + ", " + std::to_string(t / (bx * by)) + ")";
}

}  // namespace warpdiv::sim::ir::detail
