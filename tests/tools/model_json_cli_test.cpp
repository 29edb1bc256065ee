// `warpdiv analyze --model` on models at the nesting limit (sim/ir.hpp) and beyond, through
// the real binary: at the limit every output is made on the default stack; beyond it, and for the
// crash of issue 19 (ifs 30,000 deep), one line and exit status 2.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "sim/ir_json.hpp"
#include "tests/sim/nested_model.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

using sim::ir::testing::nested_model;
constexpr int kLimit = sim::ir::kMaxNesting;

TEST(ModelJsonCli, ModelAtTheNestingLimitIsAnalysed) {
  TempDir dir;
  write_file(dir.file("deep.json"), sim::ir::to_json(nested_model(kLimit + 1, kLimit)));
  const CliResult r = run_warpdiv({"analyze", "--model", dir.file("deep.json"), "--grid", "2",
                                   "--block", "64", "--csv", dir.file("out.csv"), "--html",
                                   dir.file("out.html")});
  EXPECT_EQ(r.status, 0) << r.err.substr(0, 2000);
  EXPECT_TRUE(contains(read_file(dir.file("out.csv")), "\n")) << "no CSV written";
  EXPECT_TRUE(contains(read_file(dir.file("out.html")), "</html>")) << "no HTML written";
}

TEST(ModelJsonCli, ModelsTooDeepAreRefusedWithOneLine) {
  TempDir dir;
  for (const auto& [stmts, exprs, where] :
       {std::tuple{kLimit + 2, 3, std::string("(statements within statements; warpdiv follows at most 1000 levels) (/kernel/stmts/0)")},
        std::tuple{3, kLimit + 1, std::string("(operands within an expression; warpdiv follows at most 1000 levels) (/kernel/exprs/1001)")},
        std::tuple{30000, 3, std::string("(statements within statements; warpdiv follows at most 1000 levels) (/kernel/stmts/28998)")}}) {
    write_file(dir.file("deep.json"), sim::ir::to_json(nested_model(stmts, exprs)));
    const CliResult r =
        run_warpdiv({"analyze", "--model", dir.file("deep.json"), "--grid", "1", "--block", "32"});
    expect_refusal(r, BadInput{{}, "kernel model JSON: nesting deeper than 1000 " + where});
  }
}

}  // namespace
}  // namespace warpdiv::testing
