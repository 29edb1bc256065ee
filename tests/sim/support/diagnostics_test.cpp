// The diagnostics' table, the exit status each category gives, and the printed form, against the
// exit statuses and the form docs/DESIGN.md ("Errors") and the task's specification state.
#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>

#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"

namespace warpdiv {
namespace {

// Written from the policy, not from the code: bad input, unsupported, unknown values, undefined
// behaviour and budgets 2; no GPU 3; a mismatch, a failed write, a bug 1; Ctrl-C 130.
TEST(Diagnostics, TheExitStatusFollowsTheCategory) {
  EXPECT_EQ(exit_status(Category::input), 2);
  EXPECT_EQ(exit_status(Category::unsupported), 2);
  EXPECT_EQ(exit_status(Category::unknown), 2);
  EXPECT_EQ(exit_status(Category::undefined), 2);
  EXPECT_EQ(exit_status(Category::budget), 2);
  EXPECT_EQ(exit_status(Category::no_device), 3);
  EXPECT_EQ(exit_status(Category::mismatch), 1);
  EXPECT_EQ(exit_status(Category::write), 1);
  EXPECT_EQ(exit_status(Category::interrupted), 130);
  EXPECT_EQ(exit_status(Category::internal), 1);
}

TEST(Diagnostics, TheTypedErrorsKeepTheirCategories) {
  EXPECT_EQ(exit_status(NoDevice("no CUDA device").category()), 3);
  EXPECT_EQ(exit_status(Mismatch("the engines disagree").category()), 1);
  EXPECT_EQ(exit_status(WriteFailed("disk full").category()), 1);
  EXPECT_EQ(exit_status(Interrupted("stopped").category()), 130);
  EXPECT_EQ(exit_status(InternalError("a bug").category()), 1);
  EXPECT_EQ(InvalidInput(Diag::out_of_bounds, "x").category(), Category::undefined);
  EXPECT_EQ(InvalidInput(Diag::unsupported_construct, "x").category(), Category::unsupported);
  EXPECT_EQ(InvalidInput(Diag::data_dependent_branch, "x").category(), Category::unknown);
  EXPECT_EQ(InvalidInput(Diag::evaluation_budget, "x").category(), Category::budget);
  EXPECT_EQ(InvalidInput(Diag::flag_value, "x").category(), Category::input);
  // Catch sites that stop on any refusal still catch every InvalidInput.
  EXPECT_THROW(throw InvalidInput(Diag::shared_race, "x"), Diagnostic);
}

// Ids are stable names: unique, lower case words joined by '-', each found by its name.
TEST(Diagnostics, EveryIdIsUniqueAndFoundByName) {
  std::set<std::string> seen;
  for (const DiagnosticInfo& d : diagnostic_table()) {
    const std::string id = d.id;
    EXPECT_TRUE(seen.insert(id).second) << id;
    ASSERT_FALSE(id.empty());
    for (const char c : id) EXPECT_TRUE(std::islower(static_cast<unsigned char>(c)) || c == '-') << id;
    EXPECT_EQ(&info(d.diag), &d) << id;
    EXPECT_EQ(diagnostic_named(id), d.diag) << id;
    EXPECT_FALSE(std::string(d.meaning).empty()) << id;
  }
  EXPECT_EQ(diagnostic_named("no-such-id"), std::nullopt);
  EXPECT_EQ(diagnostic_tag(Diag::out_of_bounds), "warpdiv-out-of-bounds");
}

TEST(Diagnostics, ThePrintedFormPutsThePlaceFirstAndTheIdLast) {
  const InvalidInput located(Diag::out_of_bounds, SourceLocation{"k.cu", 3, 7}, "out of bounds: 'a[i]'");
  EXPECT_EQ(format_diagnostic(located), "k.cu:3:7: error: out of bounds: 'a[i]' [warpdiv-out-of-bounds]");
  EXPECT_EQ(format_diagnostic(located, Severity::warning),
            "k.cu:3:7: warning: out of bounds: 'a[i]' [warpdiv-out-of-bounds]");
  EXPECT_EQ(std::string(located.what()), "k.cu:3:7: out of bounds: 'a[i]'");  // as before, for rewording
  EXPECT_EQ(located.message(), "out of bounds: 'a[i]'");
  const InvalidInput plain(Diag::flag_value, "--tile must be an integer from 1 to 32 (got '33')");
  EXPECT_EQ(format_diagnostic(plain),
            "warpdiv: error: --tile must be an integer from 1 to 32 (got '33') [warpdiv-flag-value]");
  // One line whatever the message holds.
  EXPECT_EQ(format_diagnostic(InvalidInput(Diag::file_format, "a\nb")),
            "warpdiv: error: a\\nb [warpdiv-file-format]");
}

// A fault kept as text by an engine ("FILE:LINE:COL: ...") gets its place apart when FILE is one
// of the kernel's files, also a file name holding ':' and digits; never from other text.
TEST(Diagnostics, AFaultKeptAsTextGetsItsPlaceBack) {
  sim::ir::Kernel k;
  k.files.push_back(sim::ir::SourceFile{});
  k.files[0].path = "dir:12:3/k.cu";
  const InvalidInput a = sim::ir::located(Diag::undefined_arithmetic, k,
                                          "dir:12:3/k.cu:40:9: undefined behaviour: signed overflow");
  EXPECT_EQ(a.location().file, "dir:12:3/k.cu");
  EXPECT_EQ(a.location().line, 40u);
  EXPECT_EQ(a.location().column, 9u);
  EXPECT_EQ(a.message(), "undefined behaviour: signed overflow");
  const InvalidInput b = sim::ir::located(Diag::undefined_arithmetic, k, "other.cu:4:1: something");
  EXPECT_FALSE(b.location().known());
  EXPECT_EQ(b.message(), "other.cu:4:1: something");
  const InvalidInput c = sim::ir::located(Diag::undefined_arithmetic, k, "dir:12:3/k.cu:x:1: y");
  EXPECT_FALSE(c.location().known());
}

}  // namespace
}  // namespace warpdiv
