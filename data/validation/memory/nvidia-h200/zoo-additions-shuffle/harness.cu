// Launches of the zoo's warp_shuffle_reduction (its warp sum inlined at two calls), each once on
// buffers of ones, for Nsight Compute's global request and sector counters (the metrics warpdiv
// ncu-check reads). Built with nvcc -arch=sm_90 -O3 (nvcc's defaults).
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#include "warp_shuffle_reduction.cu"

int main() {
  const int n_max = 70000;
  std::vector<float> ones(n_max, 1.0f);
  float *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, n_max * sizeof(float)) != cudaSuccess) return 1;
  if (cudaMalloc(&out, sizeof(float)) != cudaSuccess) return 1;
  cudaMemcpy(in, ones.data(), n_max * sizeof(float), cudaMemcpyHostToDevice);
  const int launches[][2] = {{4096, 256}, {1000, 256}, {70000, 512}, {100, 96}};
  for (const auto& nb : launches) {
    const int n = nb[0], b = nb[1];
    cudaMemset(out, 0, sizeof(float));
    block_sum<<<(n + b - 1) / b, b>>>(in, out, n);
    float sum = 0;
    cudaMemcpy(&sum, out, sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("n %d block %d: sum %.0f\n", n, b, sum);
  }
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
