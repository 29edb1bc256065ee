#include "sim/engine/ir_lane_pattern.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace warpdiv::sim::ir::detail {

namespace {

// Derived patterns remembered per pattern before the list starts again (a loop scaling by its
// variable makes a new one each iteration).
constexpr std::size_t kMaxDerived = 64;

std::uint64_t hash_of(const std::int64_t* delta, int lanes) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull;
  for (int l = 0; l < lanes; ++l) {
    h ^= static_cast<std::uint64_t>(delta[l]) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  }
  return h;
}

}  // namespace

ValueRange range_of(ScalarType type) {
  return ValueRange{min_of(type), std::min<Int128>(max_of(type), kInt64Range.high)};
}

LanePattern* PatternStore::intern(const std::int64_t* delta) {
  const std::uint64_t h = hash_of(delta, lanes_);
  const auto range = index_.equal_range(h);
  for (auto it = range.first; it != range.second; ++it)
    if (std::memcmp(it->second->delta.data(), delta,
                    sizeof(std::int64_t) * static_cast<std::size_t>(lanes_)) == 0)
      return it->second;
  LanePattern& p = patterns_.emplace_back();
  std::copy(delta, delta + lanes_, p.delta.begin());
  p.max = *std::max_element(delta, delta + lanes_);
  index_.emplace(h, &p);
  return &p;
}

LanePattern* PatternStore::of(const std::int64_t* values, LaneMask defined, std::int64_t& base) {
  std::int64_t lowest = std::numeric_limits<std::int64_t>::max();
  for (int l = 0; l < lanes_; ++l)
    if (defined >> l & 1) lowest = std::min(lowest, values[l]);
  if (defined == 0) lowest = 0;
  std::array<std::int64_t, kMaxLanes> delta{};
  for (int l = 0; l < lanes_; ++l) {
    if (!(defined >> l & 1)) continue;
    if (__builtin_sub_overflow(values[l], lowest, &delta[l])) return nullptr;
  }
  base = lowest;
  return intern(delta.data());
}

LanePattern* PatternStore::scaled(LanePattern* p, std::int64_t by, std::int64_t& shift) {
  for (const LanePattern::Derived& d : p->derived)
    if (d.with == nullptr && d.by == by) {
      shift = d.shift;
      return d.result;
    }
  std::array<std::int64_t, kMaxLanes> raw{};
  std::int64_t lowest = std::numeric_limits<std::int64_t>::max();
  for (int l = 0; l < lanes_; ++l) {
    if (__builtin_mul_overflow(p->delta[l], by, &raw[l])) return nullptr;
    lowest = std::min(lowest, raw[l]);
  }
  for (int l = 0; l < lanes_; ++l)
    if (__builtin_sub_overflow(raw[l], lowest, &raw[l])) return nullptr;
  LanePattern* r = intern(raw.data());
  if (p->derived.size() >= kMaxDerived) p->derived.clear();
  p->derived.push_back(LanePattern::Derived{by, nullptr, r, lowest});
  shift = lowest;
  return r;
}

LanePattern* PatternStore::sum(LanePattern* p, const LanePattern* q, std::int64_t& shift) {
  for (const LanePattern::Derived& d : p->derived)
    if (d.with == q) {
      shift = d.shift;
      return d.result;
    }
  std::array<std::int64_t, kMaxLanes> raw{};
  std::int64_t lowest = std::numeric_limits<std::int64_t>::max();
  for (int l = 0; l < lanes_; ++l) {
    if (__builtin_add_overflow(p->delta[l], q->delta[l], &raw[l])) return nullptr;
    lowest = std::min(lowest, raw[l]);
  }
  for (int l = 0; l < lanes_; ++l) raw[l] -= lowest;  // both summands >= 0: lowest >= 0
  LanePattern* r = intern(raw.data());
  if (p->derived.size() >= kMaxDerived) p->derived.clear();
  p->derived.push_back(LanePattern::Derived{0, q, r, lowest});
  shift = lowest;
  return r;
}

LanePattern::Counts& PatternStore::counts(LanePattern* p, LaneMask mask, int width, bool shared, bool load,
                                          bool atomic, int turns) {
  for (const auto& c : p->counts)
    if (c->mask == mask && c->width == width && c->shared == shared && c->load == load &&
        c->atomic == atomic && c->turns == turns)
      return *c;
  auto c = std::make_unique<LanePattern::Counts>();
  c->mask = mask;
  c->width = width;
  c->shared = shared;
  c->load = load;
  c->atomic = atomic;
  c->turns = turns;
  c->lowest = std::numeric_limits<std::int64_t>::max();
  c->highest = std::numeric_limits<std::int64_t>::min();
  for (LaneMask m = mask; m != 0; m &= m - 1) {
    const std::int64_t d = p->delta[static_cast<std::size_t>(__builtin_ctzll(m))];
    c->lowest = std::min(c->lowest, d);
    c->highest = std::max(c->highest, d);
    c->bits |= static_cast<std::uint64_t>(d);
  }
  ++counts_made_;
  c->count.fill(-1);
  c->phases.fill(0);
  p->counts.push_back(std::move(c));
  return *p->counts.back();
}

void PatternStore::clear() {
  patterns_.clear();
  index_.clear();
  counts_made_ = 0;
  ++generation_;
}

namespace {

// Exact arithmetic on forms (false past the int128 range, far beyond any value checked).
bool add(Int128 a, Int128 b, Int128& r) { return !__builtin_add_overflow(a, b, &r); }
bool mul(Int128 a, Int128 b, Int128& r) { return !__builtin_mul_overflow(a, b, &r); }

Int128 floor_div(Int128 a, Int128 b) {  // b != 0
  const Int128 q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
Int128 ceil_div(Int128 a, Int128 b) { return -floor_div(-a, b); }

// Drops a check that another one implies: a form m times its own (m a nonzero integer) held in a
// range that, divided by m, lies within its range (`y + j` in int when 64 * (y + j) is). The
// verdict of the checks together is unchanged; one of two identical checks stays.
void drop_implied(std::vector<RangeCheck>& checks) {
  std::vector<bool> dropped(checks.size(), false);
  for (std::size_t a = 0; a < checks.size(); ++a) {
    const LinearForm& f = checks[a].form;
    for (std::size_t b = 0; b < checks.size() && !dropped[a]; ++b) {
      if (b == a || dropped[b]) continue;
      const LinearForm& g = checks[b].form;
      // m with g = m f: from the first nonzero figure of f, then checked on every figure.
      Int128 m = 0;
      bool ok = true;
      for (std::size_t i = 0; i <= kAffineLeaves && ok; ++i) {
        const Int128 x = i < kAffineLeaves ? f.coefficient[i] : f.constant;
        const Int128 y = i < kAffineLeaves ? g.coefficient[i] : g.constant;
        if (x == 0) {
          ok = y == 0;
        } else if (m == 0) {
          ok = y % x == 0 && y != 0;
          m = ok ? y / x : 0;
        } else {
          ok = y == m * x;
        }
      }
      if (!ok || m == 0) continue;
      const ValueRange& r = checks[b].range;
      const Int128 low = m > 0 ? ceil_div(r.low, m) : ceil_div(r.high, m);
      const Int128 high = m > 0 ? floor_div(r.high, m) : floor_div(r.low, m);
      if (low >= checks[a].range.low && high <= checks[a].range.high) dropped[a] = true;
    }
  }
  std::size_t kept = 0;
  for (std::size_t a = 0; a < checks.size(); ++a)
    if (!dropped[a]) checks[kept++] = checks[a];
  checks.resize(kept);
}

struct Builder {
  const Kernel& kernel;
  const Launch& launch;
  const std::vector<std::uint64_t>& arguments;
  AffineOffset& out;
  std::array<Int128, kAffineLeaves> low{}, high{};  // each leaf's range at this launch

  // The leaf's slot (added on first sight), or -1 when there are too many.
  int leaf(AffineLeaf::Kind kind, std::int32_t index, ScalarType type) {
    for (int i = 0; i < out.leaves; ++i)
      if (out.leaf[static_cast<std::size_t>(i)].kind == kind &&
          out.leaf[static_cast<std::size_t>(i)].index == index)
        return i;
    if (out.leaves == kAffineLeaves) return -1;
    const auto i = static_cast<std::size_t>(out.leaves++);
    out.leaf[i] = AffineLeaf{kind, index, type};
    const std::uint32_t dims[2][3] = {{launch.block.x, launch.block.y, launch.block.z},
                                      {launch.grid.x, launch.grid.y, launch.grid.z}};
    if (kind == AffineLeaf::Kind::Local) {
      low[i] = min_of(type);
      high[i] = max_of(type);
    } else {
      low[i] = 0;
      high[i] = Int128{dims[kind == AffineLeaf::Kind::BlockIndex ? 1 : 0][index]} - 1;
    }
    return static_cast<int>(i);
  }

  // Whether the launch's ranges of the leaves prove `f` within `range`.
  bool proven(const LinearForm& f, const ValueRange& range) const {
    Int128 lo = f.constant, hi = f.constant;
    for (std::size_t i = 0; i < kAffineLeaves; ++i) {
      const Int128 c = f.coefficient[i];
      if (c == 0) continue;
      Int128 a = 0, b = 0;
      if (!mul(c, low[i], a) || !mul(c, high[i], b)) return false;
      if (!add(lo, std::min(a, b), lo) || !add(hi, std::max(a, b), hi)) return false;
    }
    return range.holds(lo) && range.holds(hi);
  }

  void check(const LinearForm& f, ScalarType type) {
    const ValueRange range = range_of(type);
    if (!proven(f, range)) out.checks.push_back(RangeCheck{f, range});
  }

  bool constant(ScalarType type, std::uint64_t bits, LinearForm& f) {
    const auto v = static_cast<std::int64_t>(bits);
    if (type == ScalarType::U64 && v < 0) return false;
    f = LinearForm{};
    f.constant = v;
    return true;
  }

  bool form(ExprId id, LinearForm& f, int depth) {
    if (depth > 64) return false;
    const Expr& e = kernel.exprs[static_cast<std::size_t>(id)];
    if (is_floating(e.type)) return false;  // floating values: lane by lane
    switch (e.kind) {
      case ExprKind::Constant:
        return constant(e.type, e.constant, f);
      case ExprKind::Param:
        if (!kernel.parameters[static_cast<std::size_t>(e.index)].scalar ||
            static_cast<std::size_t>(e.index) >= arguments.size())
          return false;
        return constant(e.type, arguments[static_cast<std::size_t>(e.index)], f);
      case ExprKind::Builtin: {
        const int b = static_cast<int>(e.builtin);
        if (b <= static_cast<int>(Builtin::BlockIdxZ)) {
          const bool thread = b <= static_cast<int>(Builtin::ThreadIdxZ);
          const int slot = leaf(thread ? AffineLeaf::Kind::ThreadIndex : AffineLeaf::Kind::BlockIndex,
                                thread ? b : b - static_cast<int>(Builtin::BlockIdxX), e.type);
          if (slot < 0) return false;
          f = LinearForm{};
          f.coefficient[static_cast<std::size_t>(slot)] = 1;
          return true;
        }
        std::uint64_t value = 0;
        return launch_constant(launch, e.builtin, value) && constant(e.type, value, f);
      }
      case ExprKind::Local: {
        const int slot = leaf(AffineLeaf::Kind::Local, e.index, e.type);
        if (slot < 0) return false;
        f = LinearForm{};
        f.coefficient[static_cast<std::size_t>(slot)] = 1;
        return true;
      }
      case ExprKind::Cast:
        if (e.type == ScalarType::Bool || !form(e.operands[0], f, depth + 1)) return false;
        check(f, e.type);
        return true;
      case ExprKind::Binary: {
        if (e.binary_op != BinaryOp::Add && e.binary_op != BinaryOp::Sub && e.binary_op != BinaryOp::Mul)
          return false;
        LinearForm a, b;
        if (!form(e.operands[0], a, depth + 1) || !form(e.operands[1], b, depth + 1)) return false;
        f = LinearForm{};
        if (e.binary_op == BinaryOp::Mul) {
          const auto is_constant = [](const LinearForm& x) {
            for (const Int128 c : x.coefficient)
              if (c != 0) return false;
            return true;
          };
          // A constant times a form (the other side's leaves stay, with their coefficients).
          if (!is_constant(a) && !is_constant(b)) return false;
          const LinearForm& x = is_constant(a) ? b : a;
          const Int128 by = is_constant(a) ? a.constant : b.constant;
          if (!mul(x.constant, by, f.constant)) return false;
          for (std::size_t i = 0; i < kAffineLeaves; ++i)
            if (!mul(x.coefficient[i], by, f.coefficient[i])) return false;
        } else {
          const Int128 sign = e.binary_op == BinaryOp::Sub ? -1 : 1;
          if (!add(a.constant, sign * b.constant, f.constant)) return false;
          for (std::size_t i = 0; i < kAffineLeaves; ++i)
            if (!add(a.coefficient[i], sign * b.coefficient[i], f.coefficient[i])) return false;
        }
        check(f, e.type);
        return true;
      }
      default:
        return false;
    }
  }
};

}  // namespace

bool compile_affine(const Kernel& kernel, const Launch& launch, const std::vector<std::uint64_t>& arguments,
                    ExprId expr, AffineOffset& out) {
  out = AffineOffset{};
  Builder b{kernel, launch, arguments, out};
  // Coefficients below 2^60 and constants below 2^100 keep the evaluator's sums of at most
  // kAffineLeaves products (values below 2^64) inside int128 without checks.
  const auto small = [](const LinearForm& f) {
    if (f.constant >= (Int128{1} << 100) || f.constant <= -(Int128{1} << 100)) return false;
    for (const Int128 c : f.coefficient)
      if (c >= (Int128{1} << 60) || c <= -(Int128{1} << 60)) return false;
    return true;
  };
  bool ok = b.form(expr, out.form, 0) && small(out.form);
  for (const RangeCheck& c : out.checks) ok = ok && small(c.form);
  if (!ok) {
    out = AffineOffset{};
    return false;
  }
  drop_implied(out.checks);
  // The same figures in int64 where they fit (every range does: types are at most 64 bits).
  const auto fits = [](Int128 v) { return kInt64Range.holds(v); };
  const auto narrow = [&](const LinearForm& f, const ValueRange& r, SmallCheck& s) {
    if (!fits(f.constant) || !fits(r.low) || !fits(r.high)) return false;
    s.constant = static_cast<std::int64_t>(f.constant);
    s.low = static_cast<std::int64_t>(r.low);
    s.high = static_cast<std::int64_t>(r.high);
    for (std::size_t i = 0; i < kAffineLeaves; ++i) {
      if (!fits(f.coefficient[i])) return false;
      s.coefficient[i] = static_cast<std::int64_t>(f.coefficient[i]);
    }
    return true;
  };
  out.small = narrow(out.form, kInt64Range, out.small_form);
  for (const RangeCheck& c : out.checks) {
    SmallCheck s;
    out.small = out.small && narrow(c.form, c.range, s);
    out.small_checks.push_back(s);
  }
  return true;
}

}  // namespace warpdiv::sim::ir::detail
