// The kernel zoo for the tests that compare engines on it: every kernels/zoo/*.cu (found in the
// folder, so a kernel added there is tested with no other change), read by the Clang front-end,
// and small random launches of them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "kernels/frontend/frontend.hpp"
#include "sim/model/ir.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir::zoo {

inline std::string folder() { return std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/"; }

/// The .cu files of `dir` (names only), sorted.
inline std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".cu") out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// The zoo's .cu files (names only), sorted.
inline std::vector<std::string> files() { return files_in(folder()); }

/// A .cu file of `dir` (default: the zoo), read by the front-end.
inline Kernel load(const std::string& file, const std::string& dir = folder()) {
  frontend::FrontendOptions o;
  o.file = dir + file;
  return frontend::load_kernel(o);
}

/// Every .cu file of `dir` (ending in '/'), read by the front-end, in name order.
inline std::vector<Kernel> load_all(const std::string& dir) {
  std::vector<Kernel> out;
  for (const std::string& f : files_in(dir)) out.push_back(load(f, dir));
  return out;
}

/// A random small launch of `k`: blocks up to 24 x 4 x 2 threads (at most 1,024), grids up to
/// max_grid_x x 3 x 2 (x from 1), warp sizes 1 .. 64 (32 most often), scalar arguments from -3
/// (signed) or 0 up to max_argument. `what` describes it for SCOPED_TRACE.
inline Launch random_launch(const Kernel& k, std::mt19937_64& rng, std::int64_t max_grid_x,
                            std::int64_t max_grid_y, std::int64_t max_argument, std::string& what) {
  const auto pick = [&](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(rng);
  };
  Launch l;
  do {
    l.block = Dim3{static_cast<std::uint32_t>(pick(1, 24)), static_cast<std::uint32_t>(pick(1, 4)),
                   static_cast<std::uint32_t>(pick(1, 2))};
  } while (l.block.volume() > 1024);
  l.grid = Dim3{static_cast<std::uint32_t>(pick(1, max_grid_x)),
                static_cast<std::uint32_t>(pick(1, max_grid_y)), static_cast<std::uint32_t>(pick(1, 2))};
  l.warp_size = pick(0, 2) == 0 ? 1 << pick(0, 6) : 32;
  what = k.files[0].path + " grid " + to_string(l.grid) + " block " + to_string(l.block) + " warp " +
         std::to_string(l.warp_size);
  for (const Parameter& p : k.parameters) {
    const std::int64_t v = is_signed(p.type) ? pick(-3, max_argument) : pick(0, max_argument);
    l.arguments.push_back(p.scalar ? Value::of(p.type, v) : Value{});
    if (p.scalar) what += " " + p.name + "=" + std::to_string(v);
  }
  return l;
}

/// Gives each pointer parameter of `l` a buffer of 1 to 2,000 elements (Launch::buffer_bytes):
/// some accesses then fall outside. `what` says so.
inline void random_buffers(const Kernel& k, Launch& l, std::mt19937_64& rng, std::string& what) {
  l.buffer_bytes.assign(k.parameters.size(), 0);
  for (std::size_t p = 0; p < k.parameters.size(); ++p)
    if (k.parameters[p].element_bytes != 0)
      l.buffer_bytes[p] =
          std::uniform_int_distribution<std::uint64_t>(1, 2000)(rng) * k.parameters[p].element_bytes;
  what += " with buffers";
}

/// The replay of `l`, or nothing when the replay refuses it (undefined behaviour in some lane):
/// the class engine must then refuse it too.
/// `why` (if given) receives the refusal.
inline std::optional<ReplayResult> replay_unless_refused(const Kernel& k, const Launch& l,
                                                         const ReplayOptions& o, std::string* why = nullptr) {
  try {
    return replay(k, l, o);
  } catch (const InvalidInput& e) {
    if (why != nullptr) *why = e.what();
    return std::nullopt;
  }
}

}  // namespace warpdiv::sim::ir::zoo
