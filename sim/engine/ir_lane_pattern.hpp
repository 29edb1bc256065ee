// The replay's fast path for access offsets (sim/engine/ir_engine.cpp, WarpMachine::affine_access):
// an integer value of a warp held as base + pattern, where the pattern is the lanes' distances
// from the lowest lane (its lowest entry 0). Index arithmetic moves the base and reuses the
// pattern: `Row*Width + k` in iteration k is iteration 0's pattern with a base k higher, so an
// access's sectors and wavefronts, which depend on the pattern, the lanes that take part and the
// base only modulo 128 (a sector is 32 bytes, 32 banks of 4 bytes make 128), are counted once per
// residue and looked up afterwards. Patterns are interned per machine (one per thread), so every
// warp whose lanes stand alike shares the counts.
//
// Exactness: an operation is taken on patterns only when the C result is the mathematical one in
// every lane the pattern holds (no signed overflow, no unsigned wrap, casts that keep the value);
// anything else (other operators, a value out of range, a read of an unassigned local) leaves the
// access to the lane-by-lane evaluation, which reports faults as before. ReplayOptions::
// affine_offsets = false turns the fast path off; tests compare the two.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "sim/model/ir.hpp"
#include "sim/engine/ir_recorder.hpp"
#include "sim/engine/ir_replay.hpp"

namespace warpdiv::sim::ir::detail {

__extension__ typedef __int128 Int128;

/// Residues an access's counts are kept at: 128 bytes = 4 sectors = 32 banks of 4 bytes.
constexpr int kPatternResidues = 128;

struct LanePattern {
  std::array<std::int64_t, kMaxLanes> delta{};  // [lane], lowest 0
  std::int64_t max = 0;                         // highest delta

  /// One access's figures at this pattern, for one set of participating lanes and one width.
  struct Counts {
    LaneMask mask = 0;
    int width = 0;
    bool shared = false;
    bool load = false;    // shared: a load, whose lanes may pair up (sim/memory/ir_memory.hpp)
    bool atomic = false;  // global: an atomic, whose lanes on one address take turns
    int turns = 0;        // shared: an atomic's (CompiledAccess::turns)
    std::int64_t lowest = 0, highest = 0;               // of the participating lanes' deltas
    std::uint64_t bits = 0;                             // their OR (alignment)
    std::array<std::int32_t, kPatternResidues> count;   // sectors or wavefronts; -1 not yet
    std::array<std::int32_t, kPatternResidues> phases;  // shared: phases with a lane
  };
  std::vector<std::unique_ptr<Counts>> counts;

  /// Derived patterns (scaled, summed) already made from this one.
  struct Derived {
    std::int64_t by = 0;                // scale factor (with == nullptr)
    const LanePattern* with = nullptr;  // the other summand
    LanePattern* result = nullptr;
    std::int64_t shift = 0;  // lowest lane of the raw result (added to the base)
  };
  std::vector<Derived> derived;
};

/// A warp's integer value: every lane `base` (pattern null: uniform) or base + pattern->delta[lane],
/// mathematically (the bits are that value normalised to the expression's type).
struct AffineValue {
  std::int64_t base = 0;
  LanePattern* pattern = nullptr;
};

class PatternStore {
 public:
  explicit PatternStore(int lanes) : lanes_(lanes) {}
  /// The pattern with these deltas (lanes_ of them, lowest 0), made once.
  LanePattern* intern(const std::int64_t* delta);
  /// Pattern of `values` (lanes_ of them; lanes outside `defined` count as the lowest):
  /// base = the lowest defined value. nullptr if the spread does not fit int64.
  LanePattern* of(const std::int64_t* values, LaneMask defined, std::int64_t& base);
  /// p scaled by `by`: lanes delta * by, less their lowest (`shift`). nullptr on overflow.
  LanePattern* scaled(LanePattern* p, std::int64_t by, std::int64_t& shift);
  /// p + q lane by lane, less the lowest (`shift`). nullptr on overflow.
  LanePattern* sum(LanePattern* p, const LanePattern* q, std::int64_t& shift);
  /// Counts of `mask` and `width` at pattern p (made on first use, residues not yet counted).
  LanePattern::Counts& counts(LanePattern* p, LaneMask mask, int width, bool shared, bool load, bool atomic,
                              int turns = 0);

  /// Past its bound (patterns or counts tables made): clear() it at a point where no pattern or
  /// table is held (tables are never dropped one by one: callers keep pointers to them).
  bool full() const { return patterns_.size() > kMaxPatterns || counts_made_ > kMaxPatterns; }
  /// Forgets every pattern (callers holding one must check generation()).
  void clear();
  std::uint64_t generation() const { return generation_; }
  int lanes() const { return lanes_; }

 private:
  static constexpr std::size_t kMaxPatterns = 4096;
  int lanes_;
  std::uint64_t generation_ = 1;
  std::size_t counts_made_ = 0;
  std::deque<LanePattern> patterns_;
  std::unordered_multimap<std::uint64_t, LanePattern*> index_;
};

/// Distinct non-constant leaves an offset's linear form may have.
constexpr int kAffineLeaves = 4;

/// A leaf of a linear form: a local, or a thread or block index (a parameter, blockDim, gridDim,
/// warpSize and constants are the launch's constants, folded in).
struct AffineLeaf {
  enum class Kind : std::uint8_t { Local, ThreadIndex, BlockIndex };
  Kind kind = Kind::Local;
  std::int32_t index = 0;  // LocalId, or dimension 0 .. 2
  ScalarType type = ScalarType::I32;
};

/// constant + sum of coefficient[i] * leaf i, exactly (no wrap).
struct LinearForm {
  Int128 constant = 0;
  std::array<Int128, kAffineLeaves> coefficient{};
};

/// Values [low, high], mathematically.
struct ValueRange {
  Int128 low = 0, high = 0;
  bool holds(Int128 value) const { return value >= low && value <= high; }
};
/// A type's values as an AffineValue holds them (min_of .. max_of; uint64 only up to INT64_MAX).
ValueRange range_of(ScalarType type);
constexpr ValueRange kInt64Range{-(Int128{1} << 63), (Int128{1} << 63) - 1};

/// A value the C expression computes on its way (an arithmetic result or a conversion) that must
/// lie in its type's `range` for the form to be the C result; kept only where the launch's sizes
/// do not prove it.
struct RangeCheck {
  LinearForm form;
  ValueRange range;
};

/// A LinearForm and its range in 64-bit integers (the evaluator's fast path: int128 arithmetic
/// costs several times more, and most forms fit).
struct SmallCheck {
  std::int64_t constant = 0;
  std::array<std::int64_t, kAffineLeaves> coefficient{};
  std::int64_t low = 0, high = 0;
};

/// An access offset as a linear form of at most kAffineLeaves leaves with constant coefficients.
struct AffineOffset {
  int leaves = 0;
  std::array<AffineLeaf, kAffineLeaves> leaf{};
  LinearForm form;
  std::vector<RangeCheck> checks;
  /// The form (range unused) and the checks in int64, when every figure of them fits (small).
  bool small = false;
  SmallCheck small_form;
  std::vector<SmallCheck> small_checks;
};

/// The linear form of `expr` at this launch (its scalar arguments `arguments`, bits per
/// parameter), or false where the expression is not linear in its leaves with constant
/// coefficients (a product of two non-constant values, a division, a select ...).
bool compile_affine(const Kernel& kernel, const Launch& launch, const std::vector<std::uint64_t>& arguments,
                    ExprId expr, AffineOffset& out);

}  // namespace warpdiv::sim::ir::detail
