// Floating point read from CUDA source: float and double locals, parameters, literals,
// conversions, math functions, and where multiplies and adds contract into FMAs as nvcc 13 does
// on sm_90 by default (-fmad=true). The expected contractions are nvcc's own, read from the PTX and
// SASS it made of the same statements (data/validation/fma-contraction/README.md: kernels k1..k9,
// e1..e9, m1, m3), not from the code under test.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/model_text.hpp"
#include "tests/kernels/source_dir.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

class FrontendFloat : public SnippetTest {
 protected:
  FrontendFloat() : SnippetTest("warpdiv_frontend_float_") {}

  /// The value the local `name` is given by its last Declare or Assign, as an s-expression.
  static std::string given(const ir::Kernel& k, const std::string& name) {
    std::string out = "(not given)";
    for (const ir::Stmt& s : k.stmts)
      if ((s.kind == ir::StmtKind::Declare || s.kind == ir::StmtKind::Assign) && s.local != ir::kNone &&
          k.locals.at(static_cast<std::size_t>(s.local)).name == name && s.value != ir::kNone)
        out = sexpr(k, s.value);
    return out;
  }

  /// `body` in a kernel of float parameters a, b, c, d and an int n; `o` decides a branch so
  /// that it is not dead.
  /// Why kernel(body) is refused ("" where it is not).
  std::string why_refused(const std::string& body) {
    try {
      kernel(body);
    } catch (const InvalidInput& e) {
      return e.what();
    }
    return "";
  }

  ir::Kernel kernel(const std::string& body, bool fmad = true) {
    frontend::FrontendOptions o =
        options("__global__ void k(int* out, float a, float b, float c, float d, int n) {\n" + body +
                "\n  if (o > 0.0f) out[threadIdx.x] = 1;\n}\n");
    o.fmad = fmad;
    return frontend::load_kernel(o);
  }
};

TEST_F(FrontendFloat, ProductsFeedingOneAddContract) {
  // k1, and the product on the right: FFMA.
  EXPECT_EQ(given(kernel("  float o = a * b + c;"), "o"), "fma(param:a, param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = c + a * b;"), "o"), "fma(param:a, param:b, param:c)");
  // k6: a*b - c is FFMA(a, b, -c); k5: c - a*b is FFMA(-a, b, c).
  EXPECT_EQ(given(kernel("  float o = a * b - c;"), "o"), "fms(param:a, param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = c - a * b;"), "o"), "fnma(param:a, param:b, param:c)");
  // k2: through a local read once, across statements.
  const ir::Kernel k2 = kernel("  float t = a * b;\n  float o = t + c;");
  EXPECT_EQ(given(k2, "o"), "fma(param:a, param:b, param:c)");
  EXPECT_EQ(given(k2, "t"), "(param:a * param:b)");
  // m3: the product's single use under an if (nvcc moves the multiply there).
  EXPECT_EQ(given(kernel("  float t = a * b;\n  float o = 0.0f;\n  if (n > 3) o = t + c;"), "o"),
            "fma(param:a, param:b, param:c)");
  // e1: a*b does not change in the loop; PTX computes it once before the loop, but ptxas, every
  // use being a sum, makes each add an FFMA (the SASS: one FFMA per unrolled iteration).
  EXPECT_EQ(given(kernel("  float o = c;\n  for (int i = 0; i < n; ++i) o = o + a * b;"), "o"),
            "fma(param:a, param:b, o)");
  // e2: the same through a local given the product outside the loop.
  EXPECT_EQ(
      given(kernel("  float o = c;\n  float t = a * b;\n  for (int i = 0; i < n; ++i) o = o + t;"), "o"),
      "fma(param:a, param:b, o)");
  // A product used by two sums: contracted into both, one or neither as more than the source
  // decides (uses/u19 kept it for c + p and e - p, u04 fused it for two additions, later runs on
  // the same H200 otherwise): a branch on either sum is refused.
  for (const char* second : {"d - t", "d + t"})
    EXPECT_NE(why_refused("  float t = a * b;\n  float o = t + c;\n  float o2 = " + std::string(second) +
                          ";\n  if (o2 > 0.0f) return;")
                  .find("of a product that 2 sums use"),
              std::string::npos)
        << second;
  // -fmad=false: every operation rounded on its own.
  EXPECT_EQ(given(kernel("  float o = a * b + c;", false), "o"), "((param:a * param:b) + param:c)");
}

// A product under a sign contracts as the product (data/validation/fma-contraction/signs/: one
// FFMA on the H200 for each form below, the negation folded into an operand, the multiply by 1
// dropped). -(a*b) + c = c - a*b = fnma(a, b, c); -(a*b) - c = (-a)*b - c = fms(-a, b, c).
TEST_F(FrontendFloat, ProductsUnderASignContractAsTheProduct) {
  EXPECT_EQ(given(kernel("  float o = -(a * b) + c;"), "o"), "fma((-param:a), param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = c + -(a * b);"), "o"), "fma((-param:a), param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = c - -(a * b);"), "o"), "fnma((-param:a), param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = -(a * b) - c;"), "o"), "fms((-param:a), param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = -(-(a * b)) - c;"), "o"), "fms(param:a, param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = a * b * 1.0f - c;"), "o"), "fms(param:a, param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = c - 1.0f * (a * b);"), "o"), "fnma(param:a, param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = c + (a * b) / -1.0f;"), "o"), "fma((-param:a), param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = c + (a * b) * -1.0f;"), "o"), "fma((-param:a), param:b, param:c)");
  // A zero added that LLVM folds away (p - 0.0 is p, p + -0.0 too; p + 0.0 is not: -0 + 0 = +0).
  EXPECT_EQ(given(kernel("  float o = c - (a * b - 0.0f);"), "o"), "fnma(param:a, param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = c - (-0.0f + a * b);"), "o"), "fnma(param:a, param:b, param:c)");
  EXPECT_EQ(given(kernel("  float o = c - (a * b + 0.0f);"), "o"),
            "(param:c - fma(param:a, param:b, 0:float32))");
  // Through a local: the local keeps its value, the sum reads the operands again.
  const ir::Kernel local = kernel("  float m = -(a * b);\n  float o = m + c;");
  EXPECT_EQ(given(local, "o"), "fma((-param:a), param:b, param:c)");
  EXPECT_EQ(given(local, "m"), "(-(param:a * param:b))");
  // The sign's product with another use does not contract; fabsf is no sign (FMUL, FADD).
  EXPECT_EQ(given(kernel("  float m = -(a * b);\n  float o = m + c;\n  if (m > 0.0f) return;"), "o"),
            "(m + param:c)");
  EXPECT_EQ(given(kernel("  float o = fabsf(a * b) - c;"), "o"), "(fabs((param:a * param:b)) - param:c)");
}

// Through an inlined function's return (its body's own braces around the return), a member
// function's, and a sign applied there: the product contracts as written out (nvcc inlines
// first). Two products through a helper are two products: refused as `x*x + y*y` is. A product
// stored into a local array and read back into a sum: nvcc may keep the array in registers and
// contract, or not: refused, naming the element.
TEST_F(FrontendFloat, ProductsThroughCallsContractAndThroughLocalArraysAreRefused) {
  const std::string mulf = "__device__ float mulf(float u, float v) { return u * v; }\n";
  const std::string neg = "__device__ float neg(float u) { return -u; }\n";
  const std::string sq = "__device__ float sq(float u) { return u * u; }\n";
  const auto with = [&](const std::string& functions, const std::string& body) {
    frontend::FrontendOptions o =
        options(functions + "__global__ void k(int* out, float a, float b, float c, float d) {\n" + body +
                "\n  if (o > 0.0f) out[threadIdx.x] = 1;\n}\n");
    return frontend::load_kernel(o);
  };
  EXPECT_EQ(given(with(mulf, "  float o = c - mulf(a, b);"), "o"), "fnma(u, v, param:c)");
  EXPECT_EQ(given(with(mulf, "  float o = mulf(a, b) - c;"), "o"), "fms(u, v, param:c)");
  EXPECT_EQ(given(with(neg, "  float o = neg(a * b) + c;"), "o"), "fma((-param:a), param:b, param:c)");
  const auto refused = [&](const std::string& functions, const std::string& body) {
    try {
      with(functions, body);
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string two = refused(sq, "  float o = sq(a) + sq(b);");
  EXPECT_NE(two.find("of two products, either of which nvcc may contract into an FMA"), std::string::npos)
      << two;
  const std::string array = refused("", "  float r[2];\n  r[0] = a * b;\n  float o = c - r[0];");
  EXPECT_NE(array.find("of 'r[0]', a local array element given a product"), std::string::npos) << array;
  // Not a product: no refusal.
  EXPECT_EQ(given(with("", "  float r[2];\n  r[0] = a + b;\n  float o = c - r[0];"), "o"),
            "(param:c - opaque:float32{r[0] (local array)})");
}

// A product's other use in dead code (a local nothing reads, as nvcc deletes it) is no use: the
// sum contracts (the H200 ran `float z = p * 2.0f;` never read beside `x - p` as one FFMA). A
// read of that local makes the use live again.
TEST_F(FrontendFloat, AUseInDeadCodeIsNoUse) {
  EXPECT_EQ(given(kernel("  float p = a * b;\n  float z = p * 2.0f;\n  float o = c - p;"), "o"),
            "fnma(param:a, param:b, param:c)");
  EXPECT_EQ(
      given(kernel("  float p = a * b;\n  float z = p * 2.0f;\n  z = z + 1.0f;\n  float o = c - p;"), "o"),
      "fnma(param:a, param:b, param:c)");
  EXPECT_EQ(given(kernel("  float p = a * b;\n  float z = p * 2.0f;\n  float o = c - p + z;"), "o"),
            "fma(p, 2:float32, (param:c - p))");  // p has a use that is no sum: not fused
}

// The H200's figure for the forms above in a launch (signs/run.txt): with a = 0.1f * (t + 1) and
// x = t + 1, x - 10a rounded once is not 0 in 52 of 64 lanes (rounded twice, in 9).
TEST_F(FrontendFloat, ANegatedProductBranchesAsTheH200Does) {
  for (const char* form :
       {"-(a * 10.0f) + x", "x + -(a * 10.0f)", "a * 10.0f * 1.0f - x", "(-x) - (-(a * 10.0f))"}) {
    SCOPED_TRACE(form);
    const ir::Kernel k = load(std::string("__global__ void k(int *o) {\n  int t = threadIdx.x;\n"
                                          "  float a = 0.1f * (t + 1);\n  float x = (float)(t + 1);\n"
                                          "  float y = ") +
                              form + ";\n  if (y != 0.0f) o[t] = 1;\n}\n");
    ir::Launch l;
    l.grid = {1, 1, 1};
    l.block = {64, 1, 1};
    l.arguments.assign(k.parameters.size(), ir::Value{});
    const ir::ReplayResult r = ir::replay(k, l);
    EXPECT_EQ(r.statements[statement_at(k, 6, ir::StmtKind::If)].taken_lanes, 52u);
  }
}

// isnan, isinf and isfinite are exact comparisons of |x| with infinity. With x = (t - 32) / 4 over
// 64 threads and z = 0: x / x is NaN only at t = 32 (0 / 0): 1 lane; x / z is infinite in the
// other 63 and finite in none. signbit is not computed: a branch on it is refused as unsupported,
// naming the function (no launch value would settle it).
TEST_F(FrontendFloat, IsnanIsinfIsfiniteAreComputedSignbitIsRefused) {
  const auto taken = [&](const std::string& condition) {
    const ir::Kernel k = load(
        "#include <cmath>\n__global__ void k(int *o, float z) {\n  int t = threadIdx.x;\n"
        "  float x = (float)(t - 32) * 0.25f;\n  if (" +
        condition + ") o[t] = 1;\n}\n");
    ir::Launch l;
    l.grid = {1, 1, 1};
    l.block = {64, 1, 1};
    l.arguments.assign(k.parameters.size(), ir::Value{});
    l.arguments[1] = ir::Value{ir::ScalarType::F32, 0};  // z = +0.0f
    return ir::replay(k, l).statements[statement_at(k, 5, ir::StmtKind::If)].taken_lanes;
  };
  EXPECT_EQ(taken("isnan(x / x)"), 1u);
  EXPECT_EQ(taken("std::isnan(x / x)"), 1u);
  EXPECT_EQ(taken("__isnanf(x / x)"), 1u);
  EXPECT_EQ(taken("isinf(x / z)"), 63u);
  EXPECT_EQ(taken("isfinite(x / z)"), 0u);
  EXPECT_EQ(taken("isfinite(x)"), 64u);
  const std::string why = refusal(
      "#include <cmath>\n__global__ void k(int *o) {\n  float x = threadIdx.x - 3.0f;\n"
      "  if (signbit(x)) o[0] = 1;\n}\n");
  EXPECT_NE(why.find("'std::signbit' is a library function the model does not evaluate: not supported"),
            std::string::npos)
      << why;
}

TEST_F(FrontendFloat, ProductsWithAnotherUseDoNotContract) {
  // k3: the product also used on its own.
  EXPECT_EQ(
      given(kernel("  float t = a * b;\n  float o = t + c;\n  float o2 = t;\n  if (o2 > 1.0f) return;"), "o"),
      "(t + param:c)");
  // k9: one use is a stored copy (here compared), the other a sum.
  EXPECT_EQ(given(kernel("  float t = a * b;\n  float o = 0.0f;\n  if (t > 0.0f) o = t + c;"), "o"),
            "(t + param:c)");
  // A copy to another local is no use (SSA): the product has two uses, both sums (r and o),
  // whose contraction nvcc decides as more than the source shows: a branch on them is refused.
  EXPECT_NE(why_refused("  float p = a * b;\n  float q = p;\n  float r = p + c;\n  float o = q + r;")
                .find("of a product that 2 sums use"),
            std::string::npos);
  // m1: x*x and y*y in the loop's condition and again in its body are one value each.
  const ir::Kernel m1 = kernel(
      "  float x = a, y = b, o = 0.0f;\n"
      "  while (n > 0 && x * x + y * y <= 4.0f) {\n"
      "    float xt = x * x - y * y + c;\n"
      "    y = 2.0f * x * y + d;\n"
      "    x = xt;\n"
      "    o = o + 1.0f;\n"
      "  }");
  EXPECT_EQ(given(m1, "xt"), "(((x * x) - (y * y)) + param:c)");
  EXPECT_EQ(given(m1, "y"), "fma((2:float32 * x), y, param:d)");
}

// The other uses of a product, as nvcc 13 treats them on the H200
// (data/validation/fma-contraction/uses: kernel uNN of uses.cu): a store of (int)p keeps the
// multiply (u01), and so does an argument of a library call (fmaxf(p, d), u22). A product that
// several sums use is contracted into all, some or none of them: on the H200 a difference with a
// variable (u03, u12), p + p (u25) and a fifth sum (u09) kept it, p - 1.0f (u18) and four sums
// (u10) fused, and products of parameters and of per-thread values measured since fused or kept
// it against those rules: a branch on such a sum is refused, naming it.
TEST_F(FrontendFloat, AProductsOtherUsesDecideItsContractionAsOnTheH200) {
  const auto q = [&](const std::string& body) { return given(kernel("  float p = a * b;\n" + body), "q"); };
  const std::string kept = "(p + param:c)";
  EXPECT_EQ(q("  out[64] = (int)p;\n  float q = p + c;\n  float o = q;"), kept);  // u01
  EXPECT_EQ(q("  float m = fmaxf(p, d);\n  out[64] = (int)m;\n  float q = p + c;\n  float o = q;"),
            kept);                                                                   // u22
  for (const std::string& other : {"  float r = p - d;\n  out[64] = (int)r;\n",      // u03
                                   "  float r = d - p;\n  out[64] = (int)r;\n",      // u12
                                   "  float r = p + p;\n  out[64] = (int)r;\n",      // u25
                                   "  float r = p - 1.0f;\n  out[64] = (int)r;\n"})  // u18
    EXPECT_NE(why_refused("  float p = a * b;\n" + other + "  float q = p + c;\n  float o = q;")
                  .find(" sums use, which nvcc contracts into some of them or none"),
              std::string::npos)
        << other;
  EXPECT_NE(
      why_refused("  float p = a * b;\n  out[64] = (int)((p + d) * (p + 2.0f) * (p + 3.0f) * (p + 4.0f));\n"
                  "  float q = p + c;\n  float o = q;")
          .find("of a product that 5 sums use"),
      std::string::npos);  // u09
  // A product of expressions kept in a local is read again where nothing it reads has changed:
  // (float)n * b + c is one FMA; after p *= 2.0f the sum's product is no longer the source's, and a
  // branch on it is an unsupported construct (not data).
  EXPECT_EQ(given(kernel("  float x = (float)n * b;\n  float o = x + c;"), "o"),
            "fma((float32)param:n, param:b, param:c)");
  const std::string why = refusal(
      "__global__ void k(int* out, float a, float b, float c, float d) {\n"
      "  float p = a * b; p += c; p *= 2.0f; p -= d;\n  if (p > 0.0f) out[0] = 1;\n}\n");
  EXPECT_NE(why.find("which nvcc contracts with a product whose operands have changed since: not supported"),
            std::string::npos)
      << why;
}

// 2.0f * 3.0f is a constant the compiler folds before any contraction, and 1.0f * c is c (an
// exact identity LLVM folds): neither is a second product, so a * b fuses with it.
TEST_F(FrontendFloat, ProductsTheCompilerFoldsAreNoProducts) {
  EXPECT_EQ(given(kernel("  float o = a * b + 2.0f * 3.0f;"), "o").rfind("fma(param:a, param:b, ", 0), 0u);
  EXPECT_EQ(given(kernel("  float o = a * b + 1.0f * c;"), "o").rfind("fma(param:a, param:b, ", 0), 0u);
  EXPECT_EQ(given(kernel("  float o = c * 1.0f - a * b;"), "o").rfind("fnma(param:a, param:b, ", 0), 0u);
}

TEST_F(FrontendFloat, TwoContractibleProductsAreNotGuessed) {
  // k4 fused the left product, e9 the right one: the model does not choose; a branch on the sum
  // is refused with the reason.
  const std::string why = refusal(
      "__global__ void k(int* out, float a, float b, float c, float d) {\n"
      "  float o = a * b + c * d;\n"
      "  if (o > 0.0f) out[0] = 1;\n}\n");
  EXPECT_NE(why.find("of two products, either of which nvcc may contract into an FMA"), std::string::npos)
      << why;
}

TEST_F(FrontendFloat, LiteralsConversionsAndMathFunctions) {
  const ir::Kernel k = load(R"(
__global__ void k(int* out, float a, double w) {
  float x = threadIdx.x * 0.5f;
  double z = sqrt(w) + fabs(-w);
  float r = sqrtf(a) + fabsf(x);
  int i = (int)x;
  float e = expf(a);
  if (x < 3.0f && i > 0 && z > 1.0 && r > 0.0f) out[i] = 1;
}
)");
  EXPECT_EQ(given(k, "x"), "((float32)threadIdx.x * 0.5:float32)");
  EXPECT_EQ(given(k, "z"), "(sqrt(param:w) + fabs((-param:w)))");
  EXPECT_EQ(given(k, "r"), "(sqrt(param:a) + fabs(x))");
  EXPECT_EQ(given(k, "i"), "(int32)x");
  // expf is not correctly rounded on the GPU: opaque, so a branch on it is refused, as an
  // intrinsic the model does not evaluate (no launch could give its value).
  EXPECT_NE(given(k, "e").find("opaque:float32{expf(a)"), std::string::npos) << given(k, "e");
  const std::string why =
      refusal("__global__ void k(int* out, float a) {\n  if (expf(a) > 2.0f) out[0] = 1;\n}\n");
  EXPECT_NE(why.find("k.cu:2:3: the condition of this if depends on expf(a) (result of expf) ("),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("k.cu:2:7), expf is an intrinsic the model does not evaluate: not supported"),
            std::string::npos)
      << why;
}

// INFINITY (math.h's __builtin_inff() or __builtin_huge_valf()), NAN and the other builtins Clang
// folds are the IEEE constants nvcc folds them to: +inf is 0x7f800000, -inf 0xff800000 (binary32),
// the quiet NaN __builtin_nanf("") 0x7fc00000; fabsf(-2.5f) is 2.5.
TEST_F(FrontendFloat, BuiltinConstantsAreTheirIeeeValues) {
  const ir::Kernel k = load(R"(
#include <math.h>
__global__ void k(int* out, float a) {
  float m = -INFINITY;
  float h = __builtin_huge_valf();
  double d = __builtin_inf();
  float q = __builtin_nanf("");
  float f = __builtin_fabsf(-2.5f);
  if (a > m && a < h && a < d && q != q && f > 2.0f) out[threadIdx.x] = 1;
}
)");
  EXPECT_EQ(given(k, "m"), "(-inf:float32)");
  EXPECT_EQ(given(k, "h"), "inf:float32");
  EXPECT_EQ(given(k, "d"), "inf:float64");
  EXPECT_EQ(given(k, "q"), "nan:float32");
  EXPECT_EQ(given(k, "f"), "2.5:float32");
  // A builtin Clang does not fold (its operand a parameter) is no constant: a branch on it is refused.
  const std::string why =
      refusal("__global__ void k(int* out, float a) {\n  if (__builtin_fabsf(a) > 1.0f) out[0] = 1;\n}\n");
  EXPECT_NE(why.find("'__builtin_fabsf' is a library function the model does not evaluate"),
            std::string::npos)
      << why;
}

// Stored values (MemoryAccess::value) and what the replay's stores leave in the buffers
// (capture_stores), worked by hand for one block of 4 threads: a[i] = 3i; b[0] = i from every
// thread (order-dependent); b[1] = 7 from every thread (the same value); c[i] = i * 0.5f; a[4 + i]
// = in[i], a load the launch gives no values for (unknown).
TEST_F(FrontendFloat, StoresLeaveTheirValuesInTheBuffers) {
  const ir::Kernel k = load(R"(
__global__ void k(int* a, int* b, float* c, const int* in, int n) {
  int i = threadIdx.x;
  a[i] = i * 3;
  b[0] = i;
  b[1] = 7;
  c[i] = i * 0.5f;
  a[n + i] = in[i];
}
)");
  ir::Launch l;
  l.grid = ir::Dim3{1, 1, 1};
  l.block = ir::Dim3{4, 1, 1};
  l.arguments.assign(5, ir::Value{});
  l.arguments[4] = ir::Value::of(ir::ScalarType::I32, 4);
  ir::ReplayOptions o;
  o.capture_stores = true;
  const ir::ReplayResult r = ir::replay(k, l, o);
  EXPECT_EQ(r.stores_not_captured, "");
  const auto word = [&](std::size_t parameter, std::size_t element) {
    std::int32_t v = 0;
    std::memcpy(&v, r.stored[parameter].bytes.data() + element * 4, 4);
    return v;
  };
  const auto state = [&](std::size_t parameter, std::size_t element) {
    return static_cast<int>(r.stored[parameter].state[element * 4]);
  };
  ASSERT_EQ(r.stored[0].bytes.size(), 32u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(state(0, i), ir::StoredBuffer::kWritten);
    EXPECT_EQ(word(0, i), 3 * i);
    EXPECT_EQ(state(0, 4 + i), ir::StoredBuffer::kUnknown);
  }
  EXPECT_EQ(state(1, 0), ir::StoredBuffer::kConflict);
  EXPECT_EQ(state(1, 1), ir::StoredBuffer::kWritten);
  EXPECT_EQ(word(1, 1), 7);
  for (int i = 0; i < 4; ++i) {
    float f = 0;
    std::memcpy(&f, r.stored[2].bytes.data() + i * 4, 4);
    EXPECT_EQ(f, 0.5f * static_cast<float>(i));
  }
  EXPECT_TRUE(r.stored[3].bytes.empty());  // `in` is only read
}

// Atomics whose final results do not depend on the threads' order are combined with the buffer
// (zeros here), by hand for 4 threads: atomicMax(&a[0], i - 2) over -2 .. 1 from 0 gives 1
// (signed), atomicMin(&a[1], i - 2) gives -2, atomicOr(&u[0], 1u << i) gives 15; an element both
// stored and updated (m[0]) is unknown; an atomicExch by the 4 threads (m[1]) leaves the last
// thread's i, 3, in the replay's order (threads ascending), which the GPU does not keep: kOrdered.
TEST_F(FrontendFloat, OrderIndependentAtomicsAreCombined) {
  const ir::Kernel k = load(R"(
__global__ void k(int* a, unsigned* u, int* m) {
  int i = threadIdx.x;
  atomicMax(&a[0], i - 2);
  atomicMin(&a[1], i - 2);
  atomicOr(&u[0], 1u << i);
  atomicAdd(&m[0], 1);
  m[0] = 5;
  atomicExch(&m[1], i);
}
)");
  ir::Launch l;
  l.grid = ir::Dim3{1, 1, 1};
  l.block = ir::Dim3{4, 1, 1};
  l.arguments.assign(3, ir::Value{});
  ir::ReplayOptions o;
  o.capture_stores = true;
  const ir::ReplayResult r = ir::replay(k, l, o);
  const auto word = [&](std::size_t p, std::size_t e) {
    std::int32_t v = 0;
    std::memcpy(&v, r.stored[p].bytes.data() + 4 * e, 4);
    return v;
  };
  EXPECT_EQ(word(0, 0), 1);
  EXPECT_EQ(word(0, 1), -2);
  EXPECT_EQ(word(1, 0), 15);
  EXPECT_EQ(r.stored[0].state[0], ir::StoredBuffer::kWritten);
  EXPECT_EQ(r.stored[2].state[0], ir::StoredBuffer::kUnknown);
  EXPECT_EQ(r.stored[2].state[4], ir::StoredBuffer::kOrdered);
  EXPECT_EQ(word(2, 1), 3);
}

}  // namespace
}  // namespace warpdiv::testing
