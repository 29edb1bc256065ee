// `warpdiv analyze --model` through the real binary: models at the nesting limit (sim/model/ir.hpp) and
// beyond (at the limit every output is made on the default stack; beyond it, and for ifs 30,000
// deep, one line and exit status 2); a model of a Latin-1 file, its bytes escaped in the JSON.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "sim/model/ir_json.hpp"
#include "tests/sim/nested_model.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

using namespace sim::ir;
using sim::ir::testing::nested_model;
constexpr int kLimit = sim::ir::kMaxNesting;

TEST(ModelJsonCli, ModelAtTheNestingLimitIsAnalysed) {
  TempDir dir;
  write_file(dir.file("deep.json"), sim::ir::to_json(nested_model(kLimit + 1, kLimit)));
  const CliResult r = run_warpdiv({"analyze", "--model", dir.file("deep.json"), "--grid", "2", "--block",
                                   "64", "--csv", dir.file("out.csv"), "--html", dir.file("out.html")});
  EXPECT_EQ(r.status, 0) << r.err.substr(0, 2000);
  EXPECT_TRUE(contains(read_file(dir.file("out.csv")), "\n")) << "no CSV written";
  EXPECT_TRUE(contains(read_file(dir.file("out.html")), "</html>")) << "no HTML written";
}

TEST(ModelJsonCli, ModelsTooDeepAreRefusedWithOneLine) {
  TempDir dir;
  for (const auto& [stmts, exprs, where] :
       {std::tuple{
            kLimit + 2, 3,
            std::string(
                "(statements within statements; warpdiv follows at most 1000 levels) (/kernel/stmts/0)")},
        std::tuple{
            3, kLimit + 1,
            std::string(
                "(operands within an expression; warpdiv follows at most 1000 levels) (/kernel/exprs/1001)")},
        std::tuple{30000, 3,
                   std::string("(statements within statements; warpdiv follows at most 1000 levels) "
                               "(/kernel/stmts/28998)")}}) {
    write_file(dir.file("deep.json"), sim::ir::to_json(nested_model(stmts, exprs)));
    const CliResult r =
        run_warpdiv({"analyze", "--model", dir.file("deep.json"), "--grid", "1", "--block", "32"});
    expect_refusal(r, BadInput{{}, "kernel model JSON: nesting deeper than 1000 " + where});
  }
}

// A Latin-1 source in a folder named in Latin-1: lines 3-4 are `if (threadIdx.x % 4 == 0)` and
// the work under it.
Kernel latin1_model() {
  Kernel k;
  k.name = "k";
  k.files.push_back(SourceFile{"d\xE9/k.cu",
                               {"__global__ void k() {", "  // caf\xE9", "  if (threadIdx.x % 4 == 0)",
                                "    work();  // 5 \xB5s", "}"}});
  const ExprId t = k.cast(ScalarType::I32, k.builtin(Builtin::ThreadIdxX));
  const ExprId zero = k.constant(ScalarType::I32, 0);
  const StmtId work = k.work("work()");
  k.stmts[static_cast<std::size_t>(work)].range = SourceRange{0, 4, 5, 4, 11};
  const StmtId branch =
      k.if_(k.binary(BinaryOp::Eq, k.binary(BinaryOp::Rem, t, k.constant(ScalarType::I32, 4)), zero), work);
  k.stmts[static_cast<std::size_t>(branch)].range = SourceRange{0, 3, 3, 4, 11};
  k.root = k.block({branch}, SourceRange{0, 1, 1, 5, 1});
  return k;
}

// On 64 threads both warps reach the if and split (8 of 32 lanes pass): 2 evaluations, 2
// divergent; the work runs 16 of 64 lanes: 25.0%. The text report and the CSV print the file's
// bytes; the HTML replaces them with U+FFFD.
TEST(ModelJsonCli, AModelOfALatin1SourceGivesItsBytesBack) {
  TempDir dir;
  const std::string json = to_json(latin1_model());
  // 0xE9 saved as U+10FFE9 (F4 8F BF A9), 0xB5 as U+10FFB5 (F4 8F BE B5): sim/support/json_bytes.hpp.
  ASSERT_TRUE(contains(json, "\"d\xF4\x8F\xBF\xA9/k.cu\"")) << json;
  ASSERT_TRUE(contains(json, "work();  // 5 \xF4\x8F\xBE\xB5s\""));
  write_file(dir.file("m.json"), json);
  const CliResult r = run_warpdiv({"analyze", "--model", dir.file("m.json"), "--grid", "1", "--block", "64",
                                   "--csv", dir.file("o.csv"), "--html", dir.file("o.html")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "warpdiv analyze: k in d\xE9/k.cu\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "\n    2                                      // caf\xE9\n"));
  EXPECT_TRUE(contains(r.out, "\n    3            2           2   100.0%    if (threadIdx.x % 4 == 0)\n"));
  EXPECT_TRUE(contains(r.out, "\n    4            2           -    25.0%      work();  // 5 \xB5s\n"));
  EXPECT_TRUE(contains(read_file(dir.file("o.csv")), "\nd\xE9/k.cu,3,3,if,,2,2,64,16,"))
      << read_file(dir.file("o.csv"));
  EXPECT_EQ(run_shell("iconv -f UTF-8 -t UTF-8 " + shell_quote(dir.file("o.html")) + " > /dev/null").status,
            0);
  EXPECT_TRUE(contains(read_file(dir.file("o.html")), "caf\xEF\xBF\xBD"));
}

}  // namespace
}  // namespace warpdiv::testing
