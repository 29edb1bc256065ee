#include "analysis/lecture/conditions.hpp"

#include <algorithm>

#include "sim/support/errors.hpp"

namespace warpdiv::lecture {

std::string name(Condition condition) {
  switch (condition) {
    case Condition::load_M:
      return "load_M";
    case Condition::load_N:
      return "load_N";
    case Condition::compute:
      return "compute";
    case Condition::store:
      return "store";
  }
  return "?";
}

std::string name(BlockClass block_class) {
  switch (block_class) {
    case BlockClass::interior:
      return "interior";
    case BlockClass::right_edge:
      return "right_edge";
    case BlockClass::bottom_edge:
      return "bottom_edge";
    case BlockClass::corner:
      return "corner";
    case BlockClass::all:
      return "all";
  }
  return "?";
}

Condition condition_from_name(const std::string& text) {
  for (Condition c : kConditions)
    if (name(c) == text) return c;
  throw InvalidInput(Diag::flag_value,
                     "unknown condition '" + text + "' (allowed: load_M, load_N, compute, store)");
}

BlockClass block_class_from_name(const std::string& text) {
  for (BlockClass c : kBlockClasses)
    if (name(c) == text) return c;
  throw InvalidInput(Diag::flag_value, "unknown block class '" + text +
                                           "' (allowed: interior, right_edge, bottom_edge, corner, all)");
}

BlockClass classify_block(const Geometry& geometry, std::int64_t bx, std::int64_t by) {
  const bool right = bx == geometry.grid_x - 1;
  const bool bottom = by == geometry.grid_y - 1;
  if (right && bottom) return BlockClass::corner;
  if (right) return BlockClass::right_edge;
  if (bottom) return BlockClass::bottom_edge;
  return BlockClass::interior;
}

}  // namespace warpdiv::lecture
