// Kernel model JSON: round trips (text and replay results) and refusals of bad files.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#include "sim/support/errors.hpp"
#include "sim/model/ir_json.hpp"
#include "sim/support/json_bytes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/sim/nested_model.hpp"
#include "tests/sim/tiled_matmul_ir.hpp"

namespace warpdiv::sim::ir {
namespace {

constexpr ScalarType I = ScalarType::I32;

// A kernel with every kind of expression and statement.
Kernel every_kind() {
  Kernel k;
  k.name = "every_kind";
  k.files.push_back(SourceFile{"every.cu", {"__global__ void every_kind(float* A, unsigned n) {", "}"}});
  k.files.push_back(SourceFile{"helpers.cuh", {}});
  k.add_opaque_parameter("A", "float *");
  k.parameters[0].element_bytes = 4;
  const int n = k.add_parameter("n", ScalarType::U32);
  k.add_opaque_parameter("x", "real", 32);  // a float, spelt through a typedef
  const LocalId i = k.add_local("i", I, SourceRange{0, 2, 3, 2, 12});
  const LocalId r = k.add_local("r", ScalarType::I64);
  const LocalId u = k.add_local("u", ScalarType::U64);
  const LocalId f = k.add_local("f", I);
  const auto tx = [&] { return k.cast(I, k.builtin(Builtin::ThreadIdxX)); };
  std::vector<StmtId> body;
  body.push_back(k.declare(i, k.unary(UnaryOp::Neg, k.constant(I, -5)), SourceRange{1, 3, 1, 3, 9}));
  body.push_back(
      k.declare(u, k.cast(ScalarType::U64, k.binary(BinaryOp::Shl, k.param(n), k.constant(I, 2)))));
  body.push_back(k.declare(f, k.opaque(I, "A[i] (read from global memory)")));
  const StmtId sw =
      k.switch_(k.binary(BinaryOp::Rem, tx(), k.constant(I, 3)), {k.work("a"), k.break_(), k.work("b")},
                {SwitchCase{0, 0}, SwitchCase{normalise(I, static_cast<std::uint64_t>(-1)), 2}}, 2);
  body.push_back(sw);
  const StmtId call_body =
      k.block({k.if_(k.unary(UnaryOp::LogicalNot, k.binary(BinaryOp::Ge, tx(), k.constant(I, 2))),
                     k.return_(k.constant(ScalarType::I64, -7))),
               k.return_(k.cast(ScalarType::I64, k.unary(UnaryOp::BitNot, tx())))});
  body.push_back(k.inlined_call("helper", r, call_body));
  body.push_back(k.loop(
      LoopKind::Do, kNone,
      k.logical(LogicalOp::Or, k.binary(BinaryOp::Lt, k.local(i), k.constant(I, 7)),
                k.select(k.binary(BinaryOp::Eq, k.local(r), k.constant(ScalarType::I64, 0)),
                         k.constant(ScalarType::Bool, 1), k.constant(ScalarType::Bool, 0))),
      kNone,
      k.block({k.assign(i, k.binary(BinaryOp::Add, k.local(i), k.constant(I, 1))),
               k.if_(k.binary(BinaryOp::Gt, k.local(i), k.constant(I, 6)), k.continue_()), k.barrier()})));
  body.push_back(k.loop(LoopKind::While, kNone,
                        k.binary(BinaryOp::Ne, k.local(u), k.constant(ScalarType::U64, 0)), kNone,
                        k.assign(u, k.binary(BinaryOp::Shr, k.local(u), k.constant(ScalarType::U64, 1)))));
  body.push_back(k.if_(k.binary(BinaryOp::Lt, tx(), k.constant(I, 1)), k.return_(), k.work("rest")));
  k.root = k.block(body, SourceRange{0, 1, 1, 2, 1});
  return k;
}

Launch small_launch(const Kernel& k) {
  Launch l;
  l.grid = {2, 1, 1};
  l.block = {8, 1, 1};
  l.warp_size = 4;
  l.arguments.resize(k.parameters.size());
  l.arguments[1] = Value::of(ScalarType::U32, 5);
  return l;
}

TEST(IrJson, RoundTripKeepsTextAndCounts) {
  const Kernel k = every_kind();
  validate(k);
  const std::string text = to_json(k);
  const Kernel back = kernel_from_json(text);
  EXPECT_EQ(to_json(back), text);
  const ReplayResult a = replay(k, small_launch(k));
  const ReplayResult b = replay(back, small_launch(back));
  ASSERT_EQ(a.statements.size(), b.statements.size());
  for (std::size_t i = 0; i < a.statements.size(); ++i) EXPECT_EQ(a.statements[i], b.statements[i]) << i;
  EXPECT_EQ(back.files[0].lines[0], "__global__ void every_kind(float* A, unsigned n) {");
  EXPECT_EQ(back.locals[0].declared, (SourceRange{0, 2, 3, 2, 12}));
  EXPECT_FALSE(back.parameters[0].scalar);
  EXPECT_EQ(back.parameters[0].type_spelling, "float *");
  EXPECT_EQ(back.parameters[0].floating, 0);
  EXPECT_EQ(back.parameters[0].element_bytes, 4u);
  EXPECT_EQ(back.parameters[2].floating, 32);
}

TEST(IrJson, TiledKernelRoundTripAndFile) {
  const auto t = testing::tiled_matmul_ir(16, true);
  const std::string path = ::testing::TempDir() + "/tiled_model.json";
  {
    std::ofstream out(path);
    out << to_json(t.kernel);
  }
  const Kernel back = load_kernel(path);
  EXPECT_EQ(to_json(back), to_json(t.kernel));
  EXPECT_THROW(load_kernel(path + ".missing"), InvalidInput);
}

// The message of kernel_from_json on `text` (empty when it loads).
std::string refusal(const std::string& text) {
  try {
    kernel_from_json(text);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}

// every_kind() as JSON with one edit: `from` replaced by `to` (once).
std::string edited(const std::string& from, const std::string& to) {
  std::string text = to_json(every_kind());
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(IrJson, RefusesBadFilesNamingThePath) {
  EXPECT_EQ(refusal("{").rfind("kernel model JSON: not valid JSON", 0), 0u) << refusal("{");
  EXPECT_EQ(refusal(edited("\"version\": 4", "\"version\": 5")),
            "kernel model JSON: /version: version 5 is not supported (this warpdiv reads version 4)");
  // Versions 2 (before floating types) and 3 (before exch, cas, inc, dec and float atomics) read
  // as they were.
  EXPECT_EQ(refusal(edited("\"version\": 4", "\"version\": 2")), "");
  EXPECT_EQ(refusal(edited("\"version\": 4", "\"version\": 3")), "");
  // Models saved before memory accesses were modelled: the way to a new one.
  EXPECT_EQ(refusal(edited("\"version\": 4", "\"version\": 1")),
            "kernel model JSON: /version: version 1 was saved before the model knew memory "
            "accesses (this warpdiv reads version 4): save it again from its source with "
            "--save-model");
  EXPECT_EQ(refusal(edited("\"format\": \"warpdiv-kernel-model\"", "\"format\": \"other\"")),
            "kernel model JSON: /format: 'other' is not a warpdiv kernel model (expected "
            "'warpdiv-kernel-model')");
  const std::string goto_kind = refusal(edited("\"kind\": \"barrier\"", "\"kind\": \"goto\""));
  EXPECT_NE(goto_kind.find("/kernel/stmts/"), std::string::npos) << goto_kind;
  EXPECT_NE(goto_kind.find("/kind: unknown statement kind 'goto' (allowed: block, declare"),
            std::string::npos)
      << goto_kind;
  const std::string type = refusal(edited("\"type\": \"uint32\"", "\"type\": \"uint33\""));
  EXPECT_NE(type.find("/type: unknown scalar type 'uint33'"), std::string::npos) << type;
  const std::string local = refusal(edited("\"local\": 3", "\"local\": 9"));
  EXPECT_NE(local.find("/local: expected a local id from 0 to 3 (got 9)"), std::string::npos) << local;
  const std::string missing = refusal(edited("\"root\":", "\"rot\":"));
  EXPECT_EQ(missing, "kernel model JSON: /kernel/root: missing");
  const std::string constant = refusal(edited("\"value\": -5", "\"value\": 2147483648"));
  EXPECT_NE(constant.find("does not fit in int32"), std::string::npos) << constant;
  const std::string builtin = refusal(edited("\"builtin\": \"threadIdx.x\"", "\"builtin\": \"laneId\""));
  EXPECT_NE(builtin.find("unknown builtin 'laneId'"), std::string::npos) << builtin;
  // A floating-point parameter is float (32) or double (64), and not scalar.
  EXPECT_EQ(refusal(edited("\"floating\": 32", "\"floating\": 16")),
            "kernel model JSON: /kernel/parameters/2/floating: floating is 32 or 64, on a parameter "
            "that is not scalar (got 16)");
  {
    // The same parameter marked scalar (an int32) as well.
    std::string text = edited("\"spelling\": \"real\"", "\"spelling\": \"real\", \"type\": \"int32\"");
    const std::size_t at = text.rfind("\"scalar\": false", text.find("\"spelling\": \"real\""));
    ASSERT_NE(at, std::string::npos);
    text.replace(at, std::string("\"scalar\": false").size(), "\"scalar\": true");
    EXPECT_EQ(refusal(text),
              "kernel model JSON: /kernel/parameters/2/floating: floating is 32 or 64, on a "
              "parameter that is not scalar (got 32)");
  }
  // A structural fault found by validate() names the statement's JSON path.
  const std::string typed = refusal(edited("\"op\": \"<<\"", "\"op\": \"<\""));
  EXPECT_NE(typed.find("(/kernel/exprs/"), std::string::npos) << typed;
}

TEST(IrJson, RefusesADataDependentBranchOnLoad) {
  Kernel k = every_kind();
  // if (f > 0) where f was read from memory.
  const LocalId f = 3;
  k.stmts[k.root].children.push_back(k.if_(k.binary(BinaryOp::Gt, k.local(f), k.constant(I, 0)), k.work("x"),
                                           kNone, SourceRange{0, 9, 5, 9, 20}));
  const std::string text = to_json(k);
  EXPECT_NE(
      refusal(text).find("every.cu:9:5: data-dependent branch: the condition of this if depends on A[i]"),
      std::string::npos)
      << refusal(text);
}

// ---------------------------------------------------------------------------------------------
// Nesting (sim/model/ir.hpp): statements and expressions each at most kMaxNesting deep. A model
// at the limit in both loads, validates and replays on the default stack (this test runs on the
// 8 MiB main thread; the replay's workers get the same); one level more is refused, before any
// recursive walk, naming the first node too deep (testing::nested_model() gives the ids).

using testing::nested_model;
constexpr int kLimit = kMaxNesting;

TEST(IrJson, NestingAtTheLimitLoadsAndReplays) {
  const Kernel k = nested_model(kLimit + 1, kLimit);  // the work at level 1000
  const Kernel back = kernel_from_json(to_json(k));
  Launch l;
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  l.warp_size = 32;
  const ReplayResult r = replay(back, l);
  // One warp, every condition true: the work at the bottom is reached once, by all 32 lanes.
  EXPECT_EQ(r.statements[0].warp_evaluations, 1u);
  EXPECT_EQ(r.statements[0].active_lanes, 32u);
  EXPECT_EQ(r.statements[1].divergent, 0u);
}

TEST(IrJson, NestingDeeperThanTheLimitIsRefused) {
  const std::string statements = " (statements within statements; warpdiv follows at most 1000 levels)";
  EXPECT_EQ(refusal(to_json(nested_model(kLimit + 2, 3))),
            "kernel model JSON: nesting deeper than 1000" + statements + " (/kernel/stmts/0)");
  // The comparison is expression kLimit + 1, the first one too deep.
  EXPECT_EQ(refusal(to_json(nested_model(3, kLimit + 1))),
            "kernel model JSON: nesting deeper than 1000 (operands within an expression; warpdiv "
            "follows at most 1000 levels) (/kernel/exprs/1001)");
  // Ifs 30,000 deep: the reader's caller must not recurse off the stack (validate() once did).
  // The if at level 1001 is the first too deep: the outermost (level 1) is statement 29998.
  EXPECT_EQ(refusal(to_json(nested_model(30000, 3))),
            "kernel model JSON: nesting deeper than 1000" + statements + " (/kernel/stmts/28998)");
}

// Found by fuzz_model_json: nlohmann's parse error quotes the token it last read, here 1,500
// bytes; the message keeps one short line.
TEST(IrJson, AParseErrorOnALongTokenStaysShort) {
  const std::string message = refusal("{\"a\": \"x" + std::string(1500, '\t') + "\"}");
  EXPECT_EQ(message.rfind("kernel model JSON: not valid JSON: at line 1, column 9: syntax error", 0),
            0u)  // the tab, 9th byte
      << message;
  EXPECT_LT(message.size(), 450u) << message;
}

TEST(IrJson, DeepJsonIsRefusedWithoutRecursion) {
  // 64 arrays in one another are read (and refused for what they are); 65 are too deep. A million
  // costs nothing more: the parse stops at the 65th.
  EXPECT_EQ(refusal(std::string(64, '[') + std::string(64, ']')),
            "kernel model JSON: /: expected an object (got an array)");
  EXPECT_EQ(refusal(std::string(65, '[') + std::string(65, ']')),
            "kernel model JSON: nesting deeper than 64 arrays and objects (a kernel model needs 6)");
  EXPECT_EQ(refusal(std::string(1000000, '[')),
            "kernel model JSON: nesting deeper than 64 arrays and objects (a kernel model needs 6)");
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  EXPECT_TRUE(refusal(objects).find("nesting deeper than 64") != std::string::npos);
}

TEST(IrJson, DuplicateKeysAndParameterNamesAreRefused) {
  EXPECT_EQ(refusal(edited("\"name\": \"every_kind\"", "\"name\": \"every_kind\", \"name\": \"x\"")),
            "kernel model JSON: the key 'name' appears twice in one object (/kernel)");
  EXPECT_EQ(refusal(edited("\"root\":", "\"root\": 0, \"root\":")),
            "kernel model JSON: the key 'root' appears twice in one object (/kernel)");
  // The same key in two objects is fine (every statement has a "kind").
  EXPECT_EQ(refusal(to_json(every_kind())), "");
  EXPECT_EQ(refusal(edited("\"name\": \"n\"", "\"name\": \"A\"")),
            "kernel model JSON: /kernel/parameters/1/name: a second parameter named 'A' (parameter "
            "names are unique)");
  // Locals may share a name: C scopes (two loops' `int i`, a helper inlined twice) make them.
  EXPECT_EQ(refusal(edited("\"name\": \"r\"", "\"name\": \"i\"")), "");
}

// Every number the reader takes, given a bad value of each class, is refused naming the field
// (its JSON path) and the range. every_kind() has 2 files, 4 locals, 2 parameters; the switch has
// 3 children.
TEST(IrJson, NumbersOutOfRangeNameTheFieldAndTheRange) {
  const std::string root = R"("root": )" + std::to_string(every_kind().root);
  const std::string stmts = std::to_string(every_kind().stmts.size());
  const std::string last = std::to_string(every_kind().stmts.size() - 1);
  const std::string root_range = "kernel model JSON: /kernel/root: expected a statement id from 0 to " + last;
  EXPECT_EQ(refusal(edited(root, R"("root": -1)")), root_range + " (got -1)");
  EXPECT_EQ(refusal(edited(root, R"("root": )" + stmts)), root_range + " (got " + stmts + ")");
  EXPECT_EQ(refusal(edited(root, R"("root": 18446744073709551615)")),
            root_range + " (got 18446744073709551615)");
  EXPECT_EQ(refusal(edited(root, R"("root": 1.5)")), root_range + " (got 1.5)");
  EXPECT_EQ(refusal(edited(root, R"("root": 1e400)"))
                .rfind("kernel model JSON: a number out of range (a double's range is about -1.8e308 to "
                       "1.8e308)",
                       0),
            0u);
  EXPECT_EQ(refusal(edited(root, R"("root": "3")")), root_range + " (got the string '3')");
  EXPECT_EQ(refusal(edited(root, R"("root": true)")), root_range + " (got true)");
  EXPECT_EQ(refusal(edited(root, R"("root": null)")), root_range + " (got null)");
  EXPECT_EQ(refusal(edited(root, R"("root": [0])")), root_range + " (got an array)");
  // The version: any other number, of any size, and any other type.
  for (const char* version : {"1e400", "1.0", "-1", "18446744073709551616", "\"1\"", "[1]"}) {
    const std::string message = refusal(edited("\"version\": 4", std::string("\"version\": ") + version));
    EXPECT_NE(message, "") << version;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_EQ(refusal(edited("\"version\": 4", "\"version\": 1.0")),
            "kernel model JSON: /version: version 1.0 is not supported (this warpdiv reads version 4)");
  EXPECT_EQ(refusal(edited("\"version\": 4", "\"version\": [1]")),
            "kernel model JSON: /version: version an array is not supported (this warpdiv reads "
            "version 4)");
  // A line number: 0 to 2^32 - 1.
  EXPECT_EQ(refusal(edited("\"range\": [\n          0,\n          2,",
                           "\"range\": [\n          0,\n          -2,")),
            "kernel model JSON: /kernel/locals/0/range/1: expected a line number from 0 to "
            "4294967295 (got -2)");
  EXPECT_EQ(refusal(edited("\"range\": [\n          0,\n          2,",
                           "\"range\": [\n          0,\n          4294967296,")),
            "kernel model JSON: /kernel/locals/0/range/1: expected a line number from 0 to "
            "4294967295 (got 4294967296)");
  // A file index: the model has 2 files.
  EXPECT_EQ(
      refusal(edited("\"range\": [\n          0,\n          2,", "\"range\": [\n          2,\n          2,")),
      "kernel model JSON: /kernel/locals/0/range/0: expected a file id from 0 to 1 (got 2)");
  // A local index: 4 locals.
  EXPECT_EQ(refusal(edited("\"local\": 3", "\"local\": 4")),
            "kernel model JSON: /kernel/stmts/2/local: expected a local id from 0 to 3 (got 4)");
  // A constant against its type, and a float where an integer value is expected.
  EXPECT_NE(refusal(edited("\"value\": -5", "\"value\": 2147483648"))
                .find("value 2147483648 does not fit in int32 (allowed: "),
            std::string::npos);
  EXPECT_NE(refusal(edited("\"value\": -5", "\"value\": -5.5"))
                .find("/value: expected an integer value of type int32 (got -5.5)"),
            std::string::npos);
  // A case's child: the switch has 3 children, so 0 to 3 (3 = after the last).
  EXPECT_NE(refusal(edited("\"child\": 2", "\"child\": 4"))
                .find("/child: expected a child index from 0 to 3 (got 4)"),
            std::string::npos);
  // Other types where a name or a flag is expected.
  EXPECT_NE(
      refusal(edited("\"scalar\": true", "\"scalar\": 1")).find("/scalar: expected true or false (got 1)"),
      std::string::npos);
  EXPECT_NE(refusal(edited("\"op\": \"<<\"", "\"op\": 7")).find("/op: expected a string (got 7)"),
            std::string::npos);
}

}  // namespace
}  // namespace warpdiv::sim::ir

namespace warpdiv::sim::ir {
namespace {

// Version 3's additions round-trip: a float parameter read as a value, float constants (-0 and
// a NaN among them), an FMA, a shuffle of width 8, a ballot, and a store that carries its value;
// the replay of the saved model leaves the same bytes in the buffer as the original's.
TEST(IrJson, FloatsWarpFunctionsAndStoredValuesRoundTrip) {
  Kernel k;
  k.name = "v3";
  k.files.push_back(SourceFile{"v3.cu", {}});
  const std::int32_t out = k.add_opaque_parameter("out", "float *");
  k.parameters[static_cast<std::size_t>(out)].element_bytes = 4;
  const std::int32_t x = k.add_opaque_parameter("x", "float", 32);
  const std::int32_t base = k.add_base(MemoryBase{"out", AddressSpace::Global, out, 0, 256, {}});
  const ExprId tx = k.cast(ScalarType::I32, k.builtin(Builtin::ThreadIdxX));
  const LocalId f = k.add_local("f", ScalarType::F32);
  const StmtId declare = k.declare(
      f, k.intrinsic(Intrinsic::Fma,
                     {k.cast(ScalarType::F32, tx), k.param(x), k.floating_constant(ScalarType::F32, -0.0)}));
  const ExprId shuffled = k.warp(
      WarpOp::ShflXor, {k.constant(ScalarType::U32, -1), k.local(f), k.constant(ScalarType::I32, 1)}, 8);
  const ExprId ballot =
      k.warp(WarpOp::Ballot, {k.constant(ScalarType::U32, -1),
                              k.binary(BinaryOp::Lt, k.local(f), k.floating_constant(ScalarType::F32, 3.0))});
  const LocalId b = k.add_local("b", ScalarType::U32);
  const StmtId ballot_stmt = k.declare(b, ballot);
  MemoryAccess store;
  store.kind = AccessKind::Store;
  store.base = base;
  store.offset = k.binary(BinaryOp::Mul,
                          k.cast(ScalarType::I64, k.cast(ScalarType::I32, k.builtin(Builtin::ThreadIdxX))),
                          k.constant(ScalarType::I64, 4));
  store.value = shuffled;
  store.text = "out[threadIdx.x]";
  const StmtId work = k.work("out[threadIdx.x] = __shfl_xor_sync(~0u, f, 1, 8)");
  k.stmts[static_cast<std::size_t>(work)].accesses.push_back(k.add_access(store));
  const StmtId nan = k.declare(k.add_local("nan", ScalarType::F64),
                               k.binary(BinaryOp::Div, k.floating_constant(ScalarType::F64, 0.0),
                                        k.floating_constant(ScalarType::F64, 0.0)));
  k.root = k.block({declare, ballot_stmt, work, nan});
  validate(k);
  const std::string text = to_json(k);
  EXPECT_NE(text.find("\"function\": \"shfl_xor\""), std::string::npos);
  EXPECT_NE(text.find("\"width\": 8"), std::string::npos);
  EXPECT_NE(text.find("\"value\": \"-0\""), std::string::npos);
  const Kernel back = kernel_from_json(text);
  EXPECT_EQ(to_json(back), text);
  Launch l;
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  l.arguments = {Value{}, Value{ScalarType::F32, 0x3F000000}};  // x = 0.5
  ReplayOptions o;
  o.capture_stores = true;
  const ReplayResult a = replay(k, l, o), c = replay(back, l, o);
  ASSERT_EQ(a.stored[0].bytes.size(), 128u);
  EXPECT_EQ(a.stored[0].bytes, c.stored[0].bytes);
  float lane1 = 0;  // lane 1 holds lane 0's f: 0 * 0.5 + -0 = +0 (fma of +0 and -0 rounds to +0)
  std::memcpy(&lane1, a.stored[0].bytes.data() + 4, 4);
  EXPECT_EQ(lane1, 0.0f);
  float lane8 = 0;  // lane 8 holds lane 9's: 9 * 0.5 = 4.5
  std::memcpy(&lane8, a.stored[0].bytes.data() + 32, 4);
  EXPECT_EQ(lane8, 4.5f);
}

// Byte strings in JSON (sim/support/json_bytes.hpp). The escape of byte B is U+10FF00 + B in UTF-8: for
// B = 0xE9, U+10FFE9 = 100 001111 111111 101001 in bits, F4 8F BF A9; for B = 0x80..0xBF the third
// byte is BE (U+10FF80 = ...111110 000000), for 0xC0..0xFF it is BF.
const std::string kEscE9 = "\xF4\x8F\xBF\xA9";

TEST(JsonBytes, EscapesOnlyWhatIsNotUtf8) {
  EXPECT_EQ(escape_bytes("plain / ascii"), "plain / ascii");
  EXPECT_EQ(escape_bytes("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82"),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82");
  EXPECT_EQ(escape_bytes("d\xE9/k.cu"), "d" + kEscE9 + "/k.cu");
  EXPECT_EQ(escape_bytes("\xB5"), "\xF4\x8F\xBE\xB5");
  EXPECT_EQ(escape_bytes("\xFF"), "\xF4\x8F\xBF\xBF");
  // A cut sequence, an overlong NUL, a surrogate, a lone continuation byte: each byte escaped.
  EXPECT_EQ(escape_bytes("a\xC3"), "a\xF4\x8F\xBF\x83");
  EXPECT_EQ(escape_bytes("\xC0\x80"), "\xF4\x8F\xBF\x80\xF4\x8F\xBE\x80");
  EXPECT_EQ(escape_bytes("\xED\xA0\x80"), "\xF4\x8F\xBF\xAD\xF4\x8F\xBE\xA0\xF4\x8F\xBE\x80");
  // U+10FF7F, just below the escapes, is kept; U+10FFFF, an escape's code point present in the
  // text, is written as its four bytes F4 8F BF BF escaped.
  EXPECT_EQ(escape_bytes("\xF4\x8F\xBD\xBF"), "\xF4\x8F\xBD\xBF");
  EXPECT_EQ(escape_bytes("\xF4\x8F\xBF\xBF"),
            "\xF4\x8F\xBF\xB4\xF4\x8F\xBE\x8F\xF4\x8F\xBE\xBF\xF4\x8F\xBE\xBF");
  EXPECT_EQ(unescape_bytes("d" + kEscE9 + "/k.cu"), "d\xE9/k.cu");
  EXPECT_EQ(unescape_bytes("caf\xC3\xA9"), "caf\xC3\xA9");
}

TEST(JsonBytes, EveryByteStringRoundTripsThroughValidJson) {
  std::vector<std::string> strings;
  for (int a = 0; a < 256; ++a)
    for (int b = 0; b < 256; ++b) strings.push_back({static_cast<char>(a), static_cast<char>(b)});
  strings.push_back("\xF4\x8F\xBF\xBF\xF4\x8F\xBE\x80 \xE9\xF4\x8F\xBF");  // escapes' code points, cut
  std::uint32_t state = 12345;  // random strings of bytes 0x80..0xFF and a few ASCII
  for (int n = 0; n < 2000; ++n) {
    std::string s;
    for (int i = 0; i < 12; ++i) {
      state = state * 1103515245u + 12345u;
      const unsigned byte = (state >> 16) & 0xFF;
      s += static_cast<char>(byte < 0x30 ? 'a' : byte | 0x80);
    }
    strings.push_back(s);
  }
  for (const std::string& s : strings) {
    const std::string escaped = escape_bytes(s);
    // nlohmann's dump refuses text that is not UTF-8: a second check of the escaped form.
    const std::string dumped = nlohmann::json(escaped).dump();
    EXPECT_EQ(unescape_bytes(nlohmann::json::parse(dumped).get<std::string>()), s) << dumped;
  }
}

TEST(JsonBytes, MapsKeysAndValuesOfNestedJson) {
  nlohmann::json j{{"file", "d\xE9/k.cu"}, {"args", {{"N\xE9", "1\xB5"}}}, {"list", {"\xE9", 3, true}}};
  map_json_strings(j, escape_bytes);
  EXPECT_EQ(j.dump(), "{\"args\":{\"N" + kEscE9 + "\":\"1\xF4\x8F\xBE\xB5\"},\"file\":\"d" + kEscE9 +
                          "/k.cu\",\"list\":[\"" + kEscE9 + "\",3,true]}");
  map_json_strings(j, unescape_bytes);
  EXPECT_EQ(j.at("args").at("N\xE9"), "1\xB5");
  EXPECT_EQ(j.at("file"), "d\xE9/k.cu");
  EXPECT_EQ(j.at("list").at(0), "\xE9");
}

// A kernel read from a Latin-1 file in a folder named in Latin-1: saved as valid JSON with the
// escapes, read back byte for byte.
TEST(IrJson, PathsAndLinesThatAreNotUtf8RoundTrip) {
  Kernel k;
  k.name = "k";
  k.files.push_back(SourceFile{
      "d\xE9/k.cu", {"  int t = threadIdx.x; // caf\xE9, 5 \xB5s", "x = \"\xE9t\xE9\";", "caf\xC3\xA9"}});
  k.root = k.block({k.work("x = \"\xE9t\xE9\"")}, SourceRange{0, 1, 1, 3, 1});
  const std::string text = to_json(k);
  EXPECT_NE(text.find("\"path\": \"d" + kEscE9 + "/k.cu\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"  int t = threadIdx.x; // caf" + kEscE9 + ", 5 \xF4\x8F\xBE\xB5s\""),
            std::string::npos);
  EXPECT_NE(text.find("\"caf\xC3\xA9\""), std::string::npos);  // UTF-8 kept as it is
  EXPECT_TRUE(nlohmann::json::accept(text));                   // valid JSON, so valid UTF-8
  const Kernel back = kernel_from_json(text);
  EXPECT_EQ(back.files[0].path, k.files[0].path);
  EXPECT_EQ(back.files[0].lines, k.files[0].lines);
  for (const Stmt& s : back.stmts) {
    if (s.kind == StmtKind::Work) {
      EXPECT_EQ(s.description, "x = \"\xE9t\xE9\"");
    }
  }
  EXPECT_EQ(to_json(back), text);
}

// nlohmann reads every non-negative integer as unsigned: a range from 1 refuses 0 as it refuses -4.
TEST(IrJson, ZeroIsRefusedWhereTheRangeStartsAtOne) {
  const std::string bytes =
      "kernel model JSON: /kernel/parameters/0/element_bytes: expected an integer from 1 to " +
      std::to_string(std::int64_t{1} << 40);
  EXPECT_EQ(refusal(edited("\"element_bytes\": 4", "\"element_bytes\": 0")), bytes + " (got 0)");
  EXPECT_EQ(refusal(edited("\"element_bytes\": 4", "\"element_bytes\": -4")), bytes + " (got -4)");
  EXPECT_EQ(refusal(edited("\"element_bytes\": 4", "\"element_bytes\": 1")), "");
}

// A pointer's element size must be its element type's where that is a C scalar (LP64, as nvcc
// on Linux: float 4, long 8, unsigned short 2); another type (a struct) is not checked.
TEST(IrJson, AnElementSizeOtherThanItsScalarTypesIsRefused) {
  const auto with = [](const std::string& bytes, const std::string& type) {
    return refusal(edited("\"element_bytes\": 4",
                          "\"element_bytes\": " + bytes + ", \"element_type\": \"" + type + "\""));
  };
  EXPECT_EQ(
      with("3", "float"),
      "kernel model JSON: /kernel/parameters/0/element_bytes: element_bytes is 4 for element_type 'float' "
      "(got 3)");
  EXPECT_EQ(
      with("4", "long"),
      "kernel model JSON: /kernel/parameters/0/element_bytes: element_bytes is 8 for element_type 'long' "
      "(got 4)");
  EXPECT_EQ(with("4", "float"), "");
  EXPECT_EQ(with("2", "unsigned short"), "");
  EXPECT_EQ(with("12", "P"), "");
}

// A file's "lines" are its text: a statement on a line the file does not have is refused, naming
// the statement and the line; a file saved without "lines" (its text not kept) is not checked.
TEST(IrJson, StatementsOnLinesTheFileDoesNotHaveAreRefused) {
  Kernel k = every_kind();
  k.stmts[k.root].range = SourceRange{0, 1, 1, 2, 1};  // lines 1 and 2 of every.cu, which has both
  EXPECT_EQ(refusal(to_json(k)), "");
  const std::string root = "/kernel/stmts/" + std::to_string(k.root);
  k.files[0].lines.pop_back();  // every.cu of 1 line
  EXPECT_EQ(refusal(to_json(k)), "kernel model JSON: " + root + "/range: statement " +
                                     std::to_string(k.root) +
                                     " spans line 2 of /kernel/files/0 ('every.cu'), which holds 1 line "
                                     "(lines 1 to 1 allowed)");
  // "lines": [] is a file of no lines; no "lines" at all, a file whose text was not kept.
  std::string text = to_json(k);
  const std::string one_line =
      "\"lines\": [\n          \"__global__ void every_kind(float* A, unsigned n) {\"\n        ]";
  ASSERT_NE(text.find(one_line), std::string::npos) << text;
  EXPECT_EQ(refusal(text.replace(text.find(one_line), one_line.size(), "\"lines\": []")),
            "kernel model JSON: " + root + "/range: statement " + std::to_string(k.root) +
                " spans line 2 of /kernel/files/0 ('every.cu'), which holds no lines");
  k.files[0].lines.clear();
  EXPECT_EQ(to_json(k).find("\"lines\""), std::string::npos);
  EXPECT_EQ(refusal(to_json(k)), "");
}

// No path holds a NUL character: a model saying one does is refused (its echo would carry the NUL
// raw to the terminal).
TEST(IrJson, AFilePathWithANulIsRefused) {
  Kernel k = every_kind();
  k.files[0].path = std::string("every") + '\0' + ".cu";
  EXPECT_EQ(
      refusal(to_json(k)),
      "kernel model JSON: /kernel/files/0/path: a file path holds a NUL character, which no path can hold");
}

// A model saved by an earlier warpdiv, whose front-end split a file only at LF, holds a file with CR
// line ends as one entry, while its statements carry Clang's line numbers, which count CRs: the
// reader splits the entry at \r, \r\n and \n, a break at its end ending the last line, so the text
// is on the statements' lines.
TEST(IrJson, AnEntryHoldingLineBreaksIsTheLinesClangNumbers) {
  Kernel k = every_kind();
  k.files[0].lines = {"__global__ void every_kind(float* A, unsigned n) {\r  int i;\r\n  i = 1;\n}\r"};
  k.stmts[k.root].range = SourceRange{0, 4, 1, 4, 1};  // line 4: "}"
  const Kernel back = kernel_from_json(to_json(k));
  EXPECT_EQ(back.files[0].lines,
            (std::vector<std::string>{"__global__ void every_kind(float* A, unsigned n) {", "  int i;",
                                      "  i = 1;", "}"}));
}

}  // namespace
}  // namespace warpdiv::sim::ir
