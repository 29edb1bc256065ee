// jit/ops_lanes.hpp: the lane functions' bitcode as the plugin embeds it. Each function is
// straight-line code over whole 32-lane vectors (its loop vectorised, not unrolled into 32 scalar
// lanes), and its arrays hold each value in the width ops_lanes.hpp gives its type: an int32
// operation reads and writes <32 x i32>, a comparison writes bool bytes, a conversion to int64
// writes <32 x i64>, a shift reads its amount as 64-bit bits; the warp functions' (shuffles, the
// mask check) read and write <32 x i32>.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

namespace warpdiv::jit {
extern const unsigned char kOpsBitcode[];
extern const unsigned long kOpsBitcode_size;
}  // namespace warpdiv::jit

namespace warpdiv::testing {
namespace {

std::unique_ptr<llvm::Module> lane_functions(llvm::LLVMContext& c) {
  auto buffer = llvm::MemoryBuffer::getMemBuffer(
      llvm::StringRef(reinterpret_cast<const char*>(jit::kOpsBitcode), jit::kOpsBitcode_size), "ops_lanes.bc",
      false);
  auto m = llvm::parseBitcodeFile(*buffer, c);
  if (!m) {
    ADD_FAILURE() << llvm::toString(m.takeError());
    return nullptr;
  }
  return std::move(*m);
}

// "<32 x i32>" for a vector of 32 i32, "i32" for a scalar: the type a load reads or a store writes.
std::string accessed(const llvm::Instruction& i) {
  llvm::Type* t = nullptr;
  if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(&i)) t = load->getType();
  if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(&i)) t = store->getValueOperand()->getType();
  std::string text;
  llvm::raw_string_ostream out(text);
  if (t != nullptr) t->print(out);
  return out.str();
}

// The types the function's loads read (or its stores write), in order.
std::vector<std::string> accesses(const llvm::Function& f, unsigned opcode) {
  std::vector<std::string> types;
  for (const llvm::BasicBlock& b : f)
    for (const llvm::Instruction& i : b)
      if (i.getOpcode() == opcode) types.push_back(accessed(i));
  return types;
}
std::vector<std::string> loads(const llvm::Function& f) { return accesses(f, llvm::Instruction::Load); }
std::vector<std::string> stores(const llvm::Function& f) { return accesses(f, llvm::Instruction::Store); }

TEST(OpsLanes, EveryLaneFunctionIsOneBlockOfWholeVectors) {
  llvm::LLVMContext c;
  const auto m = lane_functions(c);
  ASSERT_NE(m, nullptr);
  int functions = 0;
  for (const llvm::Function& f : *m) {
    if (f.isDeclaration() || !f.getName().startswith("warpdiv_")) continue;
    ++functions;
    EXPECT_EQ(f.size(), 1u) << f.getName().str() << ": a loop left";
    for (const llvm::BasicBlock& b : f)
      for (const llvm::Instruction& i : b) {
        if (!llvm::isa<llvm::LoadInst>(i) && !llvm::isa<llvm::StoreInst>(i)) continue;
        const auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(
            llvm::isa<llvm::LoadInst>(i) ? i.getType()
                                         : llvm::cast<llvm::StoreInst>(i).getValueOperand()->getType());
        EXPECT_TRUE(vector != nullptr && vector->getNumElements() == 32)
            << f.getName().str() << " reads or writes " << accessed(i) << ", not 32 lanes at once";
      }
  }
  // ir_ops.def: 16 binary operators x 6 types, 3 unary x 7, 5 intrinsics x 2, 11 x 11 conversions;
  // 4 shuffles and the warp functions' mask.
  EXPECT_EQ(functions, 16 * 6 + 3 * 7 + 5 * 2 + 11 * 11 + 4 + 1);
}

TEST(OpsLanes, ArraysHoldEachValueInItsTypesWidth) {
  llvm::LLVMContext c;
  const auto m = lane_functions(c);
  ASSERT_NE(m, nullptr);
  const auto f = [&](const char* name) -> const llvm::Function& {
    const llvm::Function* found = m->getFunction(name);
    EXPECT_NE(found, nullptr) << name;
    return *found;
  };
  using Types = std::vector<std::string>;
  // int32 +: both operands and the result as int32, the fault bytes.
  EXPECT_EQ(loads(f("warpdiv_binary_Add_I32")), (Types{"<32 x i32>", "<32 x i32>"}));
  EXPECT_EQ(stores(f("warpdiv_binary_Add_I32")), (Types{"<32 x i32>", "<32 x i8>"}));
  // int32 <: a bool per lane, a byte.
  EXPECT_EQ(loads(f("warpdiv_binary_Lt_I32")), (Types{"<32 x i32>", "<32 x i32>"}));
  EXPECT_EQ(stores(f("warpdiv_binary_Lt_I32")), (Types{"<32 x i8>"}));
  // int32 <<: the amount as normalised 64-bit bits.
  EXPECT_EQ(loads(f("warpdiv_binary_Shl_I32")), (Types{"<32 x i32>", "<32 x i64>"}));
  // int32 -> int64, int64 -> int16.
  EXPECT_EQ(loads(f("warpdiv_convert_I32_I64")), (Types{"<32 x i32>"}));
  EXPECT_EQ(stores(f("warpdiv_convert_I32_I64")), (Types{"<32 x i64>"}));
  EXPECT_EQ(loads(f("warpdiv_convert_I64_I16")), (Types{"<32 x i64>"}));
  EXPECT_EQ(stores(f("warpdiv_convert_I64_I16")), (Types{"<32 x i16>"}));
  // A shuffle: its argument, width and running lanes as int32, the source lanes and fault bytes; the
  // warp functions' mask likewise (each lane's mask read twice: by the reduction that finds the
  // lowest running lane's, then by the one that finds the lanes of another mask).
  for (const char* shuffle : {"warpdiv_shuffle_Shfl", "warpdiv_shuffle_ShflUp", "warpdiv_shuffle_ShflDown",
                              "warpdiv_shuffle_ShflXor"}) {
    EXPECT_EQ(loads(f(shuffle)), (Types{"<32 x i32>", "<32 x i32>", "<32 x i32>"})) << shuffle;
    EXPECT_EQ(stores(f(shuffle)), (Types{"<32 x i32>", "<32 x i8>"})) << shuffle;
  }
  EXPECT_EQ(loads(f("warpdiv_warp_mask")), (Types{"<32 x i32>", "<32 x i32>", "<32 x i32>", "<32 x i32>"}));
  EXPECT_EQ(stores(f("warpdiv_warp_mask")), (Types{"<32 x i32>", "<32 x i8>"}));
}

}  // namespace
}  // namespace warpdiv::testing
