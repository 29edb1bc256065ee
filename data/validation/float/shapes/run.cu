// kernels/zoo/data/fma_shapes.cu compiled by nvcc as a user builds it (-O3, -fmad=true by default)
// and run at the four launches of tools/device-validate-float; each stored float against the same
// arithmetic computed here on the host with std::fmaf where the model contracts (one product, one
// use) and rounded products nowhere else, bit for bit. Prints per launch the elements, how many
// are equal, and how many would differ had every product been rounded first (that the run can
// tell). Built and run by tools/device-fma-shapes.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../../../../kernels/zoo/data/fma_shapes.cu"

struct Case {
  const char* name;
  int grid, block;
  float a, b, c;
  int n;
};

int main() {
  const Case cases[] = {{"shapes-b64", 4, 64, 1.1f, 2.3f, -0.7f, 5},
                        {"shapes-b100-n0", 3, 100, 0.3f, -7.9f, 1e-3f, 0},
                        {"shapes-b100-n7", 3, 100, -2.5f, 0.1f, 3.3f, 7},
                        {"shapes-b1024", 8, 1024, 1e-3f, 1e3f, -1.0f, 33}};
  int failed = 0;
  for (const Case& k : cases) {
    const int threads = k.grid * k.block, count = 4 * threads;
    float* d = nullptr;
    cudaMalloc(&d, count * sizeof(float));
    cudaMemset(d, 0, count * sizeof(float));
    fma_shapes<<<k.grid, k.block>>>(d, k.a, k.b, k.c, k.n);
    std::vector<float> got(count);
    if (cudaMemcpy(got.data(), d, count * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) {
      std::printf("%s: CUDA error %s\n", k.name, cudaGetErrorString(cudaGetLastError()));
      return 1;
    }
    cudaFree(d);
    int equal = 0, rounded_differs = 0;
    for (int i = 0; i < threads; ++i) {
      const float x = std::fmaf(static_cast<float>(i), 0.37f, k.a);
      float s = k.c;
      for (int j = 0; j < k.n; ++j) s = std::fmaf(k.a, k.b, s);
      const float u = std::fmaf(x, k.b, k.c);
      const float w = std::fmaf(x, x, s);
      const float w2 = std::fmaf(-x, k.a, s);
      const float expected[4] = {s, u, w > 100.0f ? 0.0f : w + w2, std::fmaf(x, k.c, k.a)};
      const volatile float xb = x * k.b, xc = x * k.c;  // products rounded first
      for (int e = 0; e < 4; ++e) equal += std::memcmp(&got[4 * i + e], &expected[e], 4) == 0;
      rounded_differs += (xb + k.c != u) + (xc + k.a != expected[3]);
    }
    std::printf("%s: %d elements, %d equal, %d results that rounded products would change\n", k.name, count,
                equal, rounded_differs);
    failed += equal != count;
  }
  return failed == 0 ? 0 : 1;
}
