// C's integer semantics of the IR against the host compiler: random expression trees evaluated by
// the IR (the uniform evaluator, the replay's lane arrays with lane-varying values and random
// active masks, and every engine that counts a launch: the interpreter, the class engine and
// native code) and by a reference written with native C++ types and operators in this file.
// Undefined behaviour is decided here independently, on exact 128-bit values, before the native
// operator runs (which must then never see it).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <type_traits>

#include "sim/support/errors.hpp"
#include "sim/engine/ir_engine.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/session.hpp"

namespace warpdiv::sim::ir {
namespace {

__extension__ typedef __int128 Wide;
constexpr ScalarType kTypes[] = {ScalarType::Bool, ScalarType::I8,  ScalarType::U8,
                                 ScalarType::I16,  ScalarType::U16, ScalarType::I32,
                                 ScalarType::U32,  ScalarType::I64, ScalarType::U64};
constexpr ScalarType kPromoted[] = {ScalarType::I32, ScalarType::U32, ScalarType::I64, ScalarType::U64};

// ---------------------------------------------------------------------------------------------
// The reference: values are exact integers (Wide) of a type; operators run on native types.

template <class F>
auto with_native(ScalarType t, F f) {
  switch (t) {
    case ScalarType::Bool:
      return f(bool{});
    case ScalarType::I8:
      return f(std::int8_t{});
    case ScalarType::U8:
      return f(std::uint8_t{});
    case ScalarType::I16:
      return f(std::int16_t{});
    case ScalarType::U16:
      return f(std::uint16_t{});
    case ScalarType::I32:
      return f(std::int32_t{});
    case ScalarType::U32:
      return f(std::uint32_t{});
    case ScalarType::I64:
      return f(std::int64_t{});
    case ScalarType::U64:
      return f(std::uint64_t{});
    case ScalarType::F32:
    case ScalarType::F64:
      break;  // the integer reference only
  }
  return f(std::int64_t{});
}

Wide lowest(ScalarType t) {
  return with_native(t, [](auto x) { return static_cast<Wide>(std::numeric_limits<decltype(x)>::min()); });
}
Wide highest(ScalarType t) {
  return with_native(t, [](auto x) { return static_cast<Wide>(std::numeric_limits<decltype(x)>::max()); });
}

// C++'s conversion of an exact value to type `to` (done by the compiler: static_cast).
Wide native_cast(ScalarType to, ScalarType from, Wide v) {
  return with_native(from, [&](auto f) {
    const auto source = static_cast<decltype(f)>(v);
    return with_native(to, [&](auto t) { return static_cast<Wide>(static_cast<decltype(t)>(source)); });
  });
}

struct Ref {
  const Kernel& k;
  // Leaf values: parameters (uniform mode) or locals (lane mode) by index.
  const std::vector<Wide>& leaves;
  bool ub = false;

  Wide eval(ExprId id) {
    if (ub) return 0;
    const Expr& e = k.exprs[id];
    switch (e.kind) {
      case ExprKind::Constant:
        return is_signed(e.type) ? Wide{static_cast<std::int64_t>(e.constant)} : Wide{e.constant};
      case ExprKind::Param:
      case ExprKind::Local:
        return leaves[e.index];
      case ExprKind::Cast:
        return native_cast(e.type, k.exprs[e.operands[0]].type, eval(e.operands[0]));
      case ExprKind::Unary:
        return unary(e, eval(e.operands[0]));
      case ExprKind::Binary: {
        const Wide a = eval(e.operands[0]);
        const Wide b = eval(e.operands[1]);
        return ub ? 0 : binary(e, a, b);
      }
      case ExprKind::Logical: {
        const bool a = eval(e.operands[0]) != 0;
        if (e.logical_op == LogicalOp::And) return a && eval(e.operands[1]) != 0;
        return a || eval(e.operands[1]) != 0;
      }
      case ExprKind::Select:
        return eval(e.operands[0]) != 0 ? eval(e.operands[1]) : eval(e.operands[2]);
      default:
        ADD_FAILURE() << "unexpected leaf";
        return 0;
    }
  }

  Wide unary(const Expr& e, Wide a) {
    const ScalarType t = e.type;
    if (e.unary_op == UnaryOp::LogicalNot) return !static_cast<bool>(a);
    if (e.unary_op == UnaryOp::Neg && is_signed(t) && -a > highest(t)) {
      ub = true;
      return 0;
    }
    return with_native(t, [&](auto x) {
      using T = decltype(x);
      const T v = static_cast<T>(a);
      // Promoted types only (the IR allows no other here): no integer promotion changes these.
      if constexpr (std::is_same_v<T, bool>)
        return Wide{0};
      else
        return e.unary_op == UnaryOp::Neg ? static_cast<Wide>(static_cast<T>(-v))
                                          : static_cast<Wide>(static_cast<T>(~v));
    });
  }

  Wide binary(const Expr& e, Wide a, Wide b) {
    const ScalarType t = k.exprs[e.operands[0]].type;
    const int width = bit_width(t);
    const bool sig = is_signed(t);
    // Undefined behaviour, decided on exact values.
    switch (e.binary_op) {
      case BinaryOp::Add:
        ub = sig && (a + b < lowest(t) || a + b > highest(t));
        break;
      case BinaryOp::Sub:
        ub = sig && (a - b < lowest(t) || a - b > highest(t));
        break;
      case BinaryOp::Mul:
        ub = sig && (a * b < lowest(t) || a * b > highest(t));
        break;
      case BinaryOp::Div:
      case BinaryOp::Rem:
        ub = b == 0 || (sig && a == lowest(t) && b == -1);
        break;
      case BinaryOp::Shl:
        ub = b < 0 || b >= width || (sig && (a < 0 || (a << static_cast<int>(b)) > (Wide{1} << width) - 1));
        break;
      case BinaryOp::Shr:
        ub = b < 0 || b >= width;
        break;
      default:
        break;
    }
    if (ub) return 0;
    return with_native(t, [&](auto x) -> Wide {
      using T = decltype(x);
      const T p = static_cast<T>(a);
      const T q = static_cast<T>(b);
      const int s = static_cast<int>(b);
      switch (e.binary_op) {
        case BinaryOp::Add:
          return static_cast<T>(p + q);
        case BinaryOp::Sub:
          return static_cast<T>(p - q);
        case BinaryOp::Mul:
          return static_cast<T>(p * q);
        case BinaryOp::Div:
          return static_cast<T>(p / q);
        case BinaryOp::Rem:
          return static_cast<T>(p % q);
        case BinaryOp::Shl:
          return static_cast<T>(p << s);
        case BinaryOp::Shr:
          return static_cast<T>(p >> s);
        case BinaryOp::BitAnd:
          return static_cast<T>(p & q);
        case BinaryOp::BitOr:
          return static_cast<T>(p | q);
        case BinaryOp::BitXor:
          return static_cast<T>(p ^ q);
        case BinaryOp::Lt:
          return p < q;
        case BinaryOp::Le:
          return p <= q;
        case BinaryOp::Gt:
          return p > q;
        case BinaryOp::Ge:
          return p >= q;
        case BinaryOp::Eq:
          return p == q;
        case BinaryOp::Ne:
          return p != q;
      }
      return 0;
    });
  }
};

// ---------------------------------------------------------------------------------------------
// Random expressions

struct Generator {
  Kernel& k;
  std::mt19937_64& rng;
  bool lanes;  // leaves are locals (lane mode) or parameters
  std::vector<std::int32_t> leaf_of_type[9];

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }

  Wide random_value(ScalarType t) {
    if (t == ScalarType::Bool) return pick(2);
    switch (pick(6)) {
      case 0:
        return lowest(t);
      case 1:
        return highest(t);
      case 2:
        return std::max(lowest(t), Wide{-1});
      default: {
        const Wide v = std::uniform_int_distribution<int>(-40, 40)(rng);
        return v < lowest(t) ? -v : v;
      }
    }
  }

  ExprId leaf(ScalarType t) {
    if (pick(3) == 0) {
      const Wide v = random_value(t);
      return k.constant(t, static_cast<std::int64_t>(static_cast<std::uint64_t>(v)));
    }
    const auto& of = leaf_of_type[static_cast<int>(t)];
    const std::int32_t index = of[static_cast<std::size_t>(pick(static_cast<int>(of.size())))];
    return lanes ? k.local(index) : k.param(index);
  }

  // `count` random expressions of random types and depths 1 .. 4, and their types.
  void expressions(int count, std::vector<ExprId>& exprs, std::vector<ScalarType>& types) {
    for (int n = 0; n < count; ++n) {
      types.push_back(kTypes[pick(9)]);
      exprs.push_back(gen(types.back(), 1 + pick(4)));
    }
  }

  ScalarType any_promoted() { return kPromoted[pick(4)]; }
  ScalarType any_type() { return kTypes[pick(9)]; }

  ExprId gen(ScalarType t, int depth) {
    if (depth == 0 || pick(5) == 0) return leaf(t);
    if (t == ScalarType::Bool) {
      switch (pick(5)) {
        case 0: {
          const ScalarType o = any_promoted();
          const auto op = static_cast<BinaryOp>(static_cast<int>(BinaryOp::Lt) + pick(6));
          const ExprId a = gen(o, depth - 1);
          return k.binary(op, a, gen(o, depth - 1));
        }
        case 1: {
          const ExprId a = gen(t, depth - 1);
          return k.logical(pick(2) == 0 ? LogicalOp::And : LogicalOp::Or, a, gen(t, depth - 1));
        }
        case 2:
          return k.unary(UnaryOp::LogicalNot, gen(t, depth - 1));
        case 3:
          return k.cast(t, gen(any_type(), depth - 1));
        default: {
          const ExprId c = gen(ScalarType::Bool, depth - 1);
          const ExprId a = gen(t, depth - 1);
          return k.select(c, a, gen(t, depth - 1));
        }
      }
    }
    if (!is_promoted(t) || pick(4) == 0) {
      if (pick(3) == 0) {
        const ExprId c = gen(ScalarType::Bool, depth - 1);
        const ExprId a = gen(t, depth - 1);
        return k.select(c, a, gen(t, depth - 1));
      }
      return k.cast(t, gen(any_type(), depth - 1));
    }
    if (pick(6) == 0) return k.unary(pick(2) == 0 ? UnaryOp::Neg : UnaryOp::BitNot, gen(t, depth - 1));
    const auto op = static_cast<BinaryOp>(pick(10));  // Add .. BitXor
    const ExprId a = gen(t, depth - 1);
    const bool shift = op == BinaryOp::Shl || op == BinaryOp::Shr;
    return k.binary(op, a, gen(shift ? any_promoted() : t, depth - 1));
  }
};

// A kernel whose leaves are two parameters and two locals of each type.
Kernel leaf_kernel(std::vector<std::int32_t> (&params)[9], std::vector<std::int32_t> (&locals)[9]) {
  Kernel k;
  k.name = "semantics";
  k.files.push_back(SourceFile{"semantics.cu", {}});
  for (ScalarType t : kTypes) {
    for (int i = 0; i < 2; ++i) {
      params[static_cast<int>(t)].push_back(k.add_parameter(name(t) + "_p" + std::to_string(i), t));
      locals[static_cast<int>(t)].push_back(k.add_local(name(t) + "_l" + std::to_string(i), t));
    }
  }
  k.root = k.block({});
  return k;
}

TEST(IrSemantics, UniformEvaluatorMatchesNativeArithmetic) {
  std::vector<std::int32_t> params[9], locals[9];
  Kernel k = leaf_kernel(params, locals);
  std::mt19937_64 rng(11);
  Generator g{k, rng, false, {}};
  for (int t = 0; t < 9; ++t) g.leaf_of_type[t] = params[t];
  int defined = 0, undefined = 0;
  for (int n = 0; n < 20000; ++n) {
    const ScalarType type = kTypes[g.pick(9)];
    const ExprId e = g.gen(type, 1 + g.pick(4));
    std::vector<Wide> values(k.parameters.size());
    std::vector<Value> args(k.parameters.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = g.random_value(k.parameters[i].type);
      args[i] =
          Value{k.parameters[i].type, normalise(k.parameters[i].type, static_cast<std::uint64_t>(values[i]))};
    }
    Ref ref{k, values};
    const Wide want = ref.eval(e);
    if (ref.ub) {
      ++undefined;
      EXPECT_THROW(evaluate_uniform(k, e, args), InvalidInput) << "expression " << e;
    } else {
      ++defined;
      const Value got = evaluate_uniform(k, e, args);
      EXPECT_EQ(got.type, type);
      EXPECT_EQ(got.bits, normalise(type, static_cast<std::uint64_t>(want))) << "expression " << e;
    }
    if (HasFailure()) break;
  }
  // Both outcomes are exercised in quantity.
  EXPECT_GT(defined, 5000);
  EXPECT_GT(undefined, 1000);
}

TEST(IrSemantics, LaneArraysMatchNativeArithmetic) {
  std::vector<std::int32_t> params[9], locals[9];
  Kernel k = leaf_kernel(params, locals);
  std::mt19937_64 rng(12);
  Generator g{k, rng, true, {}};
  for (int t = 0; t < 9; ++t) g.leaf_of_type[t] = locals[t];
  std::vector<ExprId> exprs;
  std::vector<ScalarType> types;
  g.expressions(1500, exprs, types);
  Launch launch;
  launch.block = {64, 1, 1};
  launch.warp_size = 64;
  launch.arguments.resize(k.parameters.size());
  for (std::size_t i = 0; i < k.parameters.size(); ++i) launch.arguments[i] = Value{k.parameters[i].type, 0};
  const detail::LaunchPlan program(std::make_shared<const Kernel>(k), launch, detail::PlanOptions{});
  const detail::RunContext run = detail::run_context(program, launch, ReplayOptions{});
  detail::WarpMachine machine(program, run);
  int checked_lanes = 0, refused = 0;
  for (std::size_t n = 0; n < exprs.size(); ++n) {
    // Lane-varying leaves; some locals are the same in every lane (kept uniform by the engine).
    std::vector<std::vector<Wide>> lane_values(64, std::vector<Wide>(k.locals.size()));
    for (std::size_t l = 0; l < k.locals.size(); ++l) {
      const ScalarType t = k.locals[l].type;
      const bool same = g.pick(4) == 0;
      std::uint64_t bits[64];
      for (int lane = 0; lane < 64; ++lane) {
        lane_values[lane][l] = same && lane > 0 ? lane_values[0][l] : g.random_value(t);
        bits[lane] = normalise(t, static_cast<std::uint64_t>(lane_values[lane][l]));
      }
      machine.set_local(static_cast<LocalId>(l), bits, ~std::uint64_t{0});
    }
    const std::uint64_t active = g.pick(3) == 0 ? ~std::uint64_t{0} : rng() | 1;
    bool any_ub = false;
    std::vector<std::optional<Wide>> want(64);
    for (int lane = 0; lane < 64; ++lane) {
      if (!(active >> lane & 1)) continue;
      Ref ref{k, lane_values[lane]};
      const Wide v = ref.eval(exprs[n]);
      if (ref.ub)
        any_ub = true;
      else
        want[lane] = v;
    }
    std::uint64_t out[64];
    if (any_ub) {
      ++refused;
      EXPECT_THROW(machine.evaluate(exprs[n], active, out), InvalidInput) << "expression " << exprs[n];
      continue;
    }
    machine.evaluate(exprs[n], active, out);
    for (int lane = 0; lane < 64; ++lane) {
      if (!want[lane]) continue;
      ++checked_lanes;
      EXPECT_EQ(out[lane], normalise(types[n], static_cast<std::uint64_t>(*want[lane])))
          << "expression " << exprs[n] << " lane " << lane;
    }
    if (HasFailure()) break;
  }
  EXPECT_GT(checked_lanes, 10000);
  EXPECT_GT(refused, 100);
}

// Expressions of parameters and constants are computed once per launch (the launch plan folds them into
// constants): each must still give C's value, checked against native arithmetic on the same
// parameter values, and undefined behaviour must still be reported when a warp evaluates the
// expression (not when the launch is compiled, where no warp may ever reach it).
TEST(IrSemantics, FoldedLaunchConstantsMatchNativeArithmetic) {
  std::vector<std::int32_t> params[9], locals[9];
  Kernel k = leaf_kernel(params, locals);
  std::mt19937_64 rng(13);
  Generator g{k, rng, false, {}};
  for (int t = 0; t < 9; ++t) g.leaf_of_type[t] = params[t];
  std::vector<ExprId> exprs;
  std::vector<ScalarType> types;
  g.expressions(4000, exprs, types);
  std::vector<Wide> values(k.parameters.size());
  Launch launch;
  launch.block = {32, 1, 1};
  launch.arguments.resize(k.parameters.size());
  for (std::size_t i = 0; i < k.parameters.size(); ++i) {
    const ScalarType t = k.parameters[i].type;
    values[i] = g.random_value(t);
    launch.arguments[i] = Value{t, normalise(t, static_cast<std::uint64_t>(values[i]))};
  }
  // no fault is reported here
  const detail::LaunchPlan program(std::make_shared<const Kernel>(k), launch, detail::PlanOptions{});
  const detail::RunContext run = detail::run_context(program, launch, ReplayOptions{});
  detail::WarpMachine machine(program, run);
  int folded = 0, folded_checked = 0, refused = 0;
  for (std::size_t n = 0; n < exprs.size(); ++n) {
    const ExprId e = exprs[n];
    const bool was_folded = program.exprs[static_cast<std::size_t>(e)].kind == ExprKind::Constant &&
                            k.exprs[static_cast<std::size_t>(e)].kind != ExprKind::Constant;
    folded += was_folded ? 1 : 0;
    Ref ref{k, values};
    const Wide want = ref.eval(e);
    std::uint64_t out[64];
    if (ref.ub) {
      ++refused;
      EXPECT_FALSE(was_folded) << "expression " << e << " is undefined, yet folded";
      EXPECT_THROW(machine.evaluate(e, 0xFFFFFFFFu, out), InvalidInput) << "expression " << e;
      continue;
    }
    machine.evaluate(e, 0xFFFFFFFFu, out);
    folded_checked += was_folded ? 1 : 0;
    EXPECT_EQ(out[0], normalise(types[n], static_cast<std::uint64_t>(want))) << "expression " << e;
    if (HasFailure()) break;
  }
  EXPECT_GT(folded_checked, 1000);
  EXPECT_GT(refused, 100);
}

// ---------------------------------------------------------------------------------------------
// Every engine: each expression becomes a statement `if (run && e == want)` of one kernel, whose
// leaves are locals holding one value in lanes 0-15 and another in lanes 16-31 (parameters), as
// are `run` and `want`. Per launch, the reference gives each half's value of e, or its undefined
// behaviour: run is true exactly where e is defined, want is its value there. Every engine must
// then take every running lane and no other; and a launch that runs one undefined expression in
// one half must be refused as undefined behaviour by every engine.

struct HalfParams {
  std::int32_t low, high;  // parameters: lanes 0-15, lanes 16-31
};

struct EngineKernel {
  Kernel k;
  std::vector<HalfParams> leaves;  // by local
  std::vector<ExprId> exprs;       // the expressions under test
  std::vector<ScalarType> types;
  std::vector<HalfParams> run, want;  // by expression
  std::vector<StmtId> checks;         // by expression: its `if`
};

// lanes 0-15 ? low : high, of the parameters' type.
ExprId halves(Kernel& k, const HalfParams& p) {
  const ExprId low_half =
      k.binary(BinaryOp::Lt, k.builtin(Builtin::ThreadIdxX), k.constant(ScalarType::U32, 16));
  return k.select(low_half, k.param(p.low), k.param(p.high));
}

HalfParams half_params(Kernel& k, const std::string& name, ScalarType t) {
  return {k.add_parameter(name + "_lo", t), k.add_parameter(name + "_hi", t)};
}

// e == want, compared in a promoted type (bool and the narrow types widened to int64, exactly).
ExprId equals(Kernel& k, ScalarType t, ExprId e, ExprId want) {
  if (is_promoted(t)) return k.binary(BinaryOp::Eq, e, want);
  return k.binary(BinaryOp::Eq, k.cast(ScalarType::I64, e), k.cast(ScalarType::I64, want));
}

EngineKernel engine_kernel(int count, std::mt19937_64& rng) {
  EngineKernel ek;
  Kernel& k = ek.k;
  k.name = "semantics_engines";
  k.files.push_back(SourceFile{"semantics.cu", {}});
  std::vector<StmtId> body;
  Generator g{k, rng, true, {}};
  for (ScalarType t : kTypes) {
    for (int i = 0; i < 2; ++i) {
      const std::string n = name(t) + "_l" + std::to_string(i);
      const LocalId l = k.add_local(n, t);
      ek.leaves.push_back(half_params(k, n, t));
      body.push_back(k.declare(l, halves(k, ek.leaves.back())));
      g.leaf_of_type[static_cast<int>(t)].push_back(l);
    }
  }
  g.expressions(count, ek.exprs, ek.types);
  for (std::size_t i = 0; i < ek.exprs.size(); ++i) {
    const std::string n = "e" + std::to_string(i);
    ek.run.push_back(half_params(k, n + "_run", ScalarType::Bool));
    ek.want.push_back(half_params(k, n + "_want", ek.types[i]));
    const ExprId holds = equals(k, ek.types[i], ek.exprs[i], halves(k, ek.want.back()));
    ek.checks.push_back(k.if_(k.logical(LogicalOp::And, halves(k, ek.run.back()), holds), k.work("checked")));
    body.push_back(ek.checks.back());
  }
  k.root = k.block(body);
  return ek;
}

// One launch's values: each leaf's per half, and per expression and half its value (nullopt:
// undefined behaviour).
struct EngineLaunch {
  std::vector<Wide> leaf_values[2];
  std::vector<std::optional<Wide>> values[2];
};

EngineLaunch reference_launch(const EngineKernel& ek, Generator& g) {
  EngineLaunch el;
  for (int half = 0; half < 2; ++half) {
    std::vector<Wide>& leaves = el.leaf_values[half];
    for (std::size_t l = 0; l < ek.k.locals.size(); ++l)
      leaves.push_back(g.random_value(ek.k.locals[l].type));
    for (const ExprId e : ek.exprs) {
      Ref ref{ek.k, leaves};
      const Wide v = ref.eval(e);
      el.values[half].push_back(ref.ub ? std::nullopt : std::optional<Wide>(v));
    }
  }
  return el;
}

// The launch: one block of one warp, each expression run in the halves `runs` says.
Launch launch_of(const EngineKernel& ek, const EngineLaunch& el, const std::vector<bool> (&runs)[2]) {
  Launch launch;
  launch.block = {32, 1, 1};
  launch.arguments.assign(ek.k.parameters.size(), Value{});
  const auto set = [&](std::int32_t p, Wide v) {
    const ScalarType t = ek.k.parameters[static_cast<std::size_t>(p)].type;
    launch.arguments[static_cast<std::size_t>(p)] = Value{t, normalise(t, static_cast<std::uint64_t>(v))};
  };
  for (int half = 0; half < 2; ++half) {
    const auto pick = [&](const HalfParams& h) { return half == 0 ? h.low : h.high; };
    for (std::size_t l = 0; l < ek.leaves.size(); ++l) set(pick(ek.leaves[l]), el.leaf_values[half][l]);
    for (std::size_t i = 0; i < ek.exprs.size(); ++i) {
      set(pick(ek.run[i]), runs[half][i] ? 1 : 0);
      set(pick(ek.want[i]), el.values[half][i].value_or(0));
    }
  }
  return launch;
}

struct EngineChoice {
  const char* name;
  Engine engine;
  NativeMode native;
};
// Native code where jit/ is built (tests/native_install.cpp installs it).
constexpr EngineChoice kEngines[] = {
    {"interpreter", Engine::replay, NativeMode::off},
    {"class engine", Engine::exact, NativeMode::off},
#ifdef WARPDIV_HAVE_NATIVE_REPLAY
    {"native code", Engine::native, NativeMode::automatic},
#endif
};

EngineCounts count_with(const EngineChoice& engine, const Kernel& k, const Launch& launch) {
  CountRequest request;
  request.engine = engine.engine;
  request.native = engine.native;
  request.options.threads = 1;
  return count_launch(k, launch, request);
}

// The expected counts of one launch of `ek` (16 lanes per half where the expression is defined)
// on every engine.
void expect_every_engine_counts(const EngineKernel& ek, const EngineLaunch& el, int launch, int& defined) {
  std::vector<bool> runs[2];
  std::vector<int> expected(ek.exprs.size(), 0);
  for (int half = 0; half < 2; ++half)
    for (std::size_t i = 0; i < ek.exprs.size(); ++i) {
      runs[half].push_back(el.values[half][i].has_value());
      expected[i] += runs[half][i] ? 16 : 0;
      defined += runs[half][i] ? 1 : 0;
    }
  for (const EngineChoice& engine : kEngines) {
    const EngineCounts counts = count_with(engine, ek.k, launch_of(ek, el, runs));
    for (std::size_t i = 0; i < ek.exprs.size(); ++i)
      EXPECT_EQ(to_decimal(counts.result.statements[static_cast<std::size_t>(ek.checks[i])].taken_lanes),
                std::to_string(expected[i]))
          << engine.name << ", launch " << launch << ", expression " << ek.exprs[i];
  }
}

// Each expression undefined in a half of the launch, run alone there: refused as undefined
// behaviour by every engine (at most `limit` of them).
void expect_every_engine_refuses(const EngineKernel& ek, const EngineLaunch& el, int limit, int& refused) {
  for (int half = 0; half < 2 && limit > 0; ++half)
    for (std::size_t i = 0; i < ek.exprs.size() && limit > 0; ++i) {
      if (el.values[half][i]) continue;
      --limit;
      ++refused;
      std::vector<bool> alone[2] = {std::vector<bool>(ek.exprs.size()), std::vector<bool>(ek.exprs.size())};
      alone[half][i] = true;
      for (const EngineChoice& engine : kEngines) {
        try {
          count_with(engine, ek.k, launch_of(ek, el, alone));
          ADD_FAILURE() << engine.name << " counted expression " << ek.exprs[i] << ", undefined in half "
                        << half;
        } catch (const InvalidInput& e) {
          EXPECT_NE(std::string(e.what()).find("undefined behaviour"), std::string::npos)
              << engine.name << ": " << e.what();
        }
      }
    }
}

TEST(IrSemantics, EveryEngineMatchesNativeArithmetic) {
  std::mt19937_64 rng(14);
  Kernel scratch;  // random_value() only
  Generator values{scratch, rng, true, {}};
  int defined = 0, refused = 0;
  for (int kernel = 0; kernel < 4; ++kernel) {
    const EngineKernel ek = engine_kernel(40, rng);  // native code compiles each once
    for (int n = 0; n < 5; ++n) {
      const EngineLaunch el = reference_launch(ek, values);
      expect_every_engine_counts(ek, el, n, defined);
      expect_every_engine_refuses(ek, el, 4, refused);
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(defined, 600);
  EXPECT_GE(refused, 60);
}

// A few of the facts above, worked by hand.
TEST(IrSemantics, HandWorkedFacts) {
  Kernel k;
  const auto I = ScalarType::I32, U = ScalarType::U32;
  const auto eval = [&](ExprId e) { return evaluate_uniform(k, e, {}); };
  const auto c = [&](ScalarType t, std::int64_t v) { return k.constant(t, v); };
  EXPECT_EQ(eval(k.binary(BinaryOp::Div, c(I, -7), c(I, 2))), Value::of(I, -3));  // toward zero
  EXPECT_EQ(eval(k.binary(BinaryOp::Rem, c(I, -7), c(I, 2))), Value::of(I, -1));  // sign of a
  EXPECT_EQ(eval(k.binary(BinaryOp::Rem, c(I, 7), c(I, -2))), Value::of(I, 1));
  EXPECT_EQ(eval(k.binary(BinaryOp::Sub, c(U, 0), c(U, 1))), Value::of(U, 4294967295));  // wraps
  EXPECT_EQ(eval(k.cast(ScalarType::I8, c(I, 200))), Value::of(ScalarType::I8, -56));
  EXPECT_EQ(eval(k.cast(U, c(I, -1))), Value::of(U, 4294967295));
  EXPECT_EQ(eval(k.binary(BinaryOp::Shr, c(I, -8), c(I, 1))), Value::of(I, -4));  // arithmetic
  EXPECT_EQ(eval(k.binary(BinaryOp::Shl, c(I, 1), c(I, 31))), Value::of(I, -2147483647 - 1));
  // -1 < 0u is false in C: the front-end converts -1 to unsigned first.
  EXPECT_EQ(eval(k.binary(BinaryOp::Lt, k.cast(U, c(I, -1)), c(U, 0))), Value::of(ScalarType::Bool, 0));
  // 0 && 1 / 0: the right operand is never evaluated.
  EXPECT_EQ(eval(k.logical(LogicalOp::And, c(ScalarType::Bool, 0),
                           k.binary(BinaryOp::Eq, k.binary(BinaryOp::Div, c(I, 1), c(I, 0)), c(I, 0)))),
            Value::of(ScalarType::Bool, 0));
  for (ExprId bad :
       {k.binary(BinaryOp::Shl, c(I, 2), c(I, 31)), k.binary(BinaryOp::Shl, c(I, -1), c(I, 1)),
        k.binary(BinaryOp::Shl, c(U, 1), c(I, 32)), k.binary(BinaryOp::Div, c(I, INT32_MIN), c(I, -1)),
        k.binary(BinaryOp::Rem, c(I, INT32_MIN), c(I, -1)), k.unary(UnaryOp::Neg, c(I, INT32_MIN)),
        k.binary(BinaryOp::Mul, c(I, 65536), c(I, 32768)), k.binary(BinaryOp::Shr, c(I, 1), c(I, -1))})
    EXPECT_THROW(eval(bad), InvalidInput) << bad;
}

// The table of operations (sim/model/ir_ops.def) against C and the front-end's counting rules: which
// operators floating types take, which are undefined how, what an evaluation counts as FLOPs
// (+ - * / on floating values 1, fma 2), and which atomics depend on the threads' order.
TEST(IrSemantics, TableOfOperationsByHand) {
  EXPECT_EQ(name(BinaryOp::Shl), "<<");
  EXPECT_EQ(name(UnaryOp::BitNot), "~");
  EXPECT_EQ(kBinaryOpCount, 16);
  EXPECT_TRUE(is_comparison(BinaryOp::Ne));
  EXPECT_FALSE(is_comparison(BinaryOp::BitXor));
  EXPECT_EQ(fault_rule(BinaryOp::Rem), FaultRule::Division);
  EXPECT_EQ(fault_rule(BinaryOp::Shr), FaultRule::Shift);
  EXPECT_EQ(fault_rule(BinaryOp::Mul), FaultRule::SignedOverflow);
  EXPECT_EQ(fault_rule(BinaryOp::BitOr), FaultRule::None);
  EXPECT_EQ(fault_rule(UnaryOp::Neg), FaultRule::SignedOverflow);
  EXPECT_EQ(operand_class(BinaryOp::Rem), OperandClass::Integer);  // fmod is a call, not %
  EXPECT_EQ(operand_class(BinaryOp::Div), OperandClass::Arithmetic);
  EXPECT_EQ(float_operations(BinaryOp::Div), 1);
  EXPECT_EQ(float_operations(BinaryOp::Lt), 0);
  EXPECT_EQ(float_operations(Intrinsic::Fma), 2);
  EXPECT_EQ(float_operations(Intrinsic::Sqrt), 0);
  EXPECT_EQ(operand_count(Intrinsic::Fnma), 3);
  EXPECT_EQ(operand_count(WarpOp::Ballot), 2);
  EXPECT_FALSE(ordered_atomic(AtomicOp::Add, ScalarType::I32));
  EXPECT_TRUE(ordered_atomic(AtomicOp::Add, ScalarType::F32));
  EXPECT_TRUE(ordered_atomic(AtomicOp::Cas, ScalarType::U32));
  EXPECT_FALSE(ordered_atomic(AtomicOp::Max, ScalarType::I64));
}

}  // namespace
}  // namespace warpdiv::sim::ir
