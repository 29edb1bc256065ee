// jit/overflow_idioms.hpp: the templates' branch-free signed-overflow tests become LLVM's overflow
// intrinsics, with the same truth values (checked through LLVM's constant folding on operands
// whose overflow is worked out by hand), and LLVM then drops a test whose operands cannot overflow
// (sign-extended int32 values added in int64), which it does not without the pass.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>

#include "jit/overflow_idioms.hpp"

namespace warpdiv::testing {
namespace {

// @test(a, b): the sign bit of the template's formula, over `type`, for r = a OP b:
// add: (r ^ a) & (r ^ b); sub: (a ^ b) & (a ^ r).
std::string idiom(const std::string& type, const std::string& op) {
  const std::string mask = op == "add" ? "%x = xor " + type + " %r, %a\n  %y = xor " + type + " %r, %b\n"
                                       : "%x = xor " + type + " %a, %b\n  %y = xor " + type + " %a, %r\n";
  const std::string i1 = type[0] == '<' ? "<4 x i1>" : "i1";
  return "define " + i1 + " @test(" + type + " %a, " + type + " %b) {\n  %r = " + op + " " + type +
         " %a, %b\n  " + mask + "  %m = and " + type + " %x, %y\n  %c = icmp slt " + type +
         " %m, zeroinitializer\n  ret " + i1 + " %c\n}\n";
}

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext& c, const std::string& text) {
  llvm::SMDiagnostic error;
  auto m = llvm::parseAssemblyString(text, error, c);
  EXPECT_NE(m, nullptr) << error.getMessage().str();
  return m;
}

// The module through LLVM's O2 pipeline, with the pass at the peephole points as the native
// replay runs it (or without).
void optimise(llvm::Module& m, bool with_pass) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder passes;
  passes.registerModuleAnalyses(mam);
  passes.registerCGSCCAnalyses(cgam);
  passes.registerFunctionAnalyses(fam);
  passes.registerLoopAnalyses(lam);
  passes.crossRegisterProxies(lam, fam, cgam, mam);
  if (with_pass)
    passes.registerPeepholeEPCallback([](llvm::FunctionPassManager& fpm, llvm::OptimizationLevel) {
      fpm.addPass(jit::native::OverflowIdioms());
    });
  passes.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(m, mam);
}

int calls_to(const llvm::Function& f, llvm::Intrinsic::ID id) {
  int n = 0;
  for (const llvm::BasicBlock& b : f)
    for (const llvm::Instruction& i : b)
      if (const auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&i); call && call->getIntrinsicID() == id)
        ++n;
  return n;
}

// What @test of `text` returns called with `operands` ("i64 5, i64 7"), after O2 with the pass
// (-1: not a constant).
int returned(const std::string& text, const std::string& operands) {
  llvm::LLVMContext c;
  auto m = parse(c, text + "define i1 @use() {\n  %v = call i1 @test(" + operands + ")\n  ret i1 %v\n}\n");
  optimise(*m, true);
  const auto* ret = llvm::cast<llvm::ReturnInst>(m->getFunction("use")->getEntryBlock().getTerminator());
  const auto* value = llvm::dyn_cast<llvm::ConstantInt>(ret->getReturnValue());
  return value == nullptr ? -1 : static_cast<int>(value->getZExtValue());
}

// What @test of `text` returns for constant operands a and b of `type` (see returned).
int folded(const std::string& text, const std::string& type, const std::string& a, const std::string& b) {
  return returned(text, type + " " + a + ", " + type + " " + b);
}

TEST(OverflowIdioms, TheAddAndSubFormulasBecomeTheIntrinsics) {
  for (const std::string op : {"add", "sub"})
    for (const std::string type : {"i64", "<4 x i32>"}) {
      llvm::LLVMContext c;
      auto m = parse(c, idiom(type, op));
      llvm::FunctionAnalysisManager fam;
      jit::native::OverflowIdioms().run(*m->getFunction("test"), fam);
      const auto id = op == "add" ? llvm::Intrinsic::sadd_with_overflow : llvm::Intrinsic::ssub_with_overflow;
      EXPECT_EQ(calls_to(*m->getFunction("test"), id), 1) << op << " " << type;
    }
}

TEST(OverflowIdioms, SameTruthValues) {
  // 2^63 - 1 + 1 and -2^63 - 1 overflow int64; 5 + 7, -3 - 5, 2^62 + 2^62 - 1 do not.
  EXPECT_EQ(folded(idiom("i64", "add"), "i64", "9223372036854775807", "1"), 1);
  EXPECT_EQ(folded(idiom("i64", "add"), "i64", "5", "7"), 0);
  EXPECT_EQ(folded(idiom("i64", "add"), "i64", "4611686018427387904", "4611686018427387903"), 0);
  EXPECT_EQ(folded(idiom("i64", "sub"), "i64", "-9223372036854775808", "1"), 1);
  EXPECT_EQ(folded(idiom("i64", "sub"), "i64", "-3", "5"), 0);
  EXPECT_EQ(folded(idiom("i64", "sub"), "i64", "0", "-9223372036854775808"), 1);
}

// @test(x, y): whether the int32 product x * y overflows, as sim/model/ir_ops.hpp computes it: the
// exact product in int64 compared with its own low 32 bits sign-extended.
const char* const kProduct =
    "define i1 @test(i32 %x, i32 %y) {\n  %a = sext i32 %x to i64\n  %b = sext i32 %y to i64\n"
    "  %p = mul i64 %a, %b\n  %t = trunc i64 %p to i32\n  %e = sext i32 %t to i64\n"
    "  %c = icmp ne i64 %e, %p\n  ret i1 %c\n}\n";

TEST(OverflowIdioms, TheProductTestBecomesTheIntrinsic) {
  for (const bool with_pass : {true, false}) {
    llvm::LLVMContext c;
    auto m = parse(c, kProduct);
    optimise(*m, with_pass);
    EXPECT_EQ(calls_to(*m->getFunction("test"), llvm::Intrinsic::smul_with_overflow), with_pass ? 1 : 0);
  }
  // 65536 * 32768 = 2^31 and -46341 * 46341 < -2^31 overflow int32; -65536 * 32768 = -2^31 and
  // 46341 * 46340 = 2147441940 do not.
  EXPECT_EQ(folded(kProduct, "i32", "65536", "32768"), 1);
  EXPECT_EQ(folded(kProduct, "i32", "-46341", "46341"), 1);
  EXPECT_EQ(folded(kProduct, "i32", "-65536", "32768"), 0);
  EXPECT_EQ(folded(kProduct, "i32", "46341", "46340"), 0);
}

// @test(a): the template's formula for r = a + C, C a constant of `type` (i32, or a splat over
// <4 x i32>): the sign bit of (r ^ a) & (r ^ C).
std::string constant_idiom(const std::string& type, const std::string& c) {
  const std::string constant =
      type[0] == '<' ? "<i32 " + c + ", i32 " + c + ", i32 " + c + ", i32 " + c + ">" : c;
  const std::string i1 = type[0] == '<' ? "<4 x i1>" : "i1";
  return "define " + i1 + " @test(" + type + " %a) {\n  %r = add " + type + " %a, " + constant +
         "\n  %x = xor " + type + " %r, %a\n  %y = xor " + type + " %r, " + constant + "\n  %m = and " +
         type + " %x, %y\n  %c = icmp slt " + type + " %m, zeroinitializer\n  ret " + i1 + " %c\n}\n";
}

int count_of(const llvm::Function& f, unsigned opcode) {
  int n = 0;
  for (const llvm::BasicBlock& b : f)
    for (const llvm::Instruction& i : b) n += i.getOpcode() == opcode ? 1 : 0;
  return n;
}

// What @test of `text` returns for the constant int32 operand a (see returned).
int folded_one(const std::string& text, const std::string& a) { return returned(text, "i32 " + a); }

// Adding a constant: InstCombine first rewrites the formula with the constant's sign known
// ((r & ~a) <s 0 for C > 0, (a & ~r) <s 0 with ~r = (-C - 1) - a for C < 0), which the pass then
// reads as the intrinsic: one comparison of a with a constant is left (a >s 2^31 - 1 - C, or
// a <s -2^31 - C), where without the pass the add, the mask and the and stay.
TEST(OverflowIdioms, AddingAConstantBecomesOneComparison) {
  for (const std::string type : {"i32", "<4 x i32>"})
    for (const std::string constant : {"5", "1", "2147483647", "-1", "-7", "-2147483648"})
      for (const bool with_pass : {true, false}) {
        llvm::LLVMContext c;
        auto m = parse(c, constant_idiom(type, constant));
        optimise(*m, with_pass);
        const llvm::Function& f = *m->getFunction("test");
        if (with_pass) {
          EXPECT_EQ(count_of(f, llvm::Instruction::And), 0) << type << " + " << constant;
          EXPECT_EQ(count_of(f, llvm::Instruction::ICmp), 1) << type << " + " << constant;
        } else if (constant != "-2147483648") {  // (+ -2^31: a <s 0, which LLVM finds alone)
          EXPECT_EQ(count_of(f, llvm::Instruction::And), 1) << type << " + " << constant;
        }
      }
  // + 5 overflows int32 from 2^31 - 5 = 2147483643 up; + -7 below -2^31 + 7 = -2147483641.
  EXPECT_EQ(folded_one(constant_idiom("i32", "5"), "2147483642"), 0);
  EXPECT_EQ(folded_one(constant_idiom("i32", "5"), "2147483643"), 1);
  EXPECT_EQ(folded_one(constant_idiom("i32", "5"), "-2147483648"), 0);
  EXPECT_EQ(folded_one(constant_idiom("i32", "-7"), "-2147483642"), 1);
  EXPECT_EQ(folded_one(constant_idiom("i32", "-7"), "-2147483641"), 0);
  EXPECT_EQ(folded_one(constant_idiom("i32", "-7"), "2147483647"), 0);
  EXPECT_EQ(folded_one(constant_idiom("i32", "-2147483648"), "-1"), 1);
  EXPECT_EQ(folded_one(constant_idiom("i32", "-2147483648"), "0"), 0);
  EXPECT_EQ(folded_one(constant_idiom("i32", "2147483647"), "1"), 1);
  EXPECT_EQ(folded_one(constant_idiom("i32", "2147483647"), "0"), 0);
}

TEST(OverflowIdioms, OtherFormulasAreLeft) {
  // (r ^ a) & (r ^ c) with c not an operand of r = a + b tests nothing about the addition.
  llvm::LLVMContext c;
  auto m = parse(c,
                 "define i1 @test(i64 %a, i64 %b, i64 %c) {\n  %r = add i64 %a, %b\n  %x = xor i64 %r, %a\n"
                 "  %y = xor i64 %r, %c\n  %m = and i64 %x, %y\n  %t = icmp slt i64 %m, 0\n  ret i1 %t\n}\n");
  llvm::FunctionAnalysisManager fam;
  EXPECT_TRUE(jit::native::OverflowIdioms().run(*m->getFunction("test"), fam).areAllPreserved());
  EXPECT_EQ(calls_to(*m->getFunction("test"), llvm::Intrinsic::sadd_with_overflow), 0);
}

TEST(OverflowIdioms, SignExtendedIndicesNeverTestOverflow) {
  // sext(x) * 4 + sext(y) over int64, x and y int32: |sum| < 2^34, no overflow; the test is
  // dropped with the pass (the function returns false) and computed without it.
  const std::string text =
      "define i1 @test(i32 %x, i32 %y) {\n  %sx = sext i32 %x to i64\n  %a = shl i64 %sx, 2\n"
      "  %b = sext i32 %y to i64\n  %r = add i64 %a, %b\n  %p = xor i64 %r, %a\n  %q = xor i64 %r, %b\n"
      "  %m = and i64 %p, %q\n  %t = icmp slt i64 %m, 0\n  ret i1 %t\n}\n";
  for (const bool with_pass : {true, false}) {
    llvm::LLVMContext c;
    auto m = parse(c, text);
    optimise(*m, with_pass);
    const auto* ret = llvm::cast<llvm::ReturnInst>(m->getFunction("test")->getEntryBlock().getTerminator());
    EXPECT_EQ(llvm::isa<llvm::ConstantInt>(ret->getReturnValue()), with_pass);
  }
}

}  // namespace
}  // namespace warpdiv::testing
