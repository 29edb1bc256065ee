// Speed of the Clang front-end (the target is the whole `warpdiv analyze` of
// kernels/zoo/tiled_matmul.cu under 0.5 s, Clang included): parse and lower a ~100-line kernel
// file with host code.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "kernels/frontend/frontend.hpp"

namespace {

// A tiled matrix multiply with a host main, as a course would hand it out (~100 lines).
constexpr const char* kTiledSource = R"(#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define TILE_WIDTH 16

__device__ int clamp_index(int i, int n) {
  if (i < 0) return 0;
  if (i >= n) return n - 1;
  return i;
}

__global__ void MatrixMulKernel(float* M, float* N, float* P, int J, int K, int L) {
  __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
  __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int ph = 0; ph < (K - 1) / TILE_WIDTH + 1; ++ph) {
    if (Row < J && ph * TILE_WIDTH + tx < K) {
      ds_M[ty][tx] = M[Row * K + ph * TILE_WIDTH + tx];
    } else {
      ds_M[ty][tx] = 0;
    }
    if (ph * TILE_WIDTH + ty < K && Col < L) {
      ds_N[ty][tx] = N[(ph * TILE_WIDTH + ty) * L + Col];
    } else {
      ds_N[ty][tx] = 0;
    }
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) {
      Pvalue += ds_M[ty][k] * ds_N[k][tx];
    }
    __syncthreads();
  }
  if (Row < J && Col < L) {
    P[clamp_index(Row, J) * L + Col] = Pvalue;
  }
}

static void fill(float* a, int n) {
  for (int i = 0; i < n; ++i) a[i] = (float)(rand() % 100) / 10.0f;
}

static int check(const float* M, const float* N, const float* P, int J, int K, int L) {
  int errors = 0;
  for (int r = 0; r < J; ++r) {
    for (int c = 0; c < L; ++c) {
      float sum = 0;
      for (int k = 0; k < K; ++k) sum += M[r * K + k] * N[k * L + c];
      float diff = sum - P[r * L + c];
      if (diff > 1e-2f || diff < -1e-2f) ++errors;
    }
  }
  return errors;
}

int main(int argc, char** argv) {
  int J = argc > 1 ? atoi(argv[1]) : 100;
  int K = argc > 2 ? atoi(argv[2]) : 100;
  int L = argc > 3 ? atoi(argv[3]) : 100;
  float* hM = (float*)malloc(sizeof(float) * J * K);
  float* hN = (float*)malloc(sizeof(float) * K * L);
  float* hP = (float*)malloc(sizeof(float) * J * L);
  fill(hM, J * K);
  fill(hN, K * L);
  float *dM, *dN, *dP;
  cudaMalloc(&dM, sizeof(float) * J * K);
  cudaMalloc(&dN, sizeof(float) * K * L);
  cudaMalloc(&dP, sizeof(float) * J * L);
  cudaMemcpy(dM, hM, sizeof(float) * J * K, cudaMemcpyHostToDevice);
  cudaMemcpy(dN, hN, sizeof(float) * K * L, cudaMemcpyHostToDevice);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  dim3 dimGrid((L - 1) / TILE_WIDTH + 1, (J - 1) / TILE_WIDTH + 1, 1);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(dM, dN, dP, J, K, L);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "launch failed: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaMemcpy(hP, dP, sizeof(float) * J * L, cudaMemcpyDeviceToHost);
  int errors = check(hM, hN, hP, J, K, L);
  printf("%d errors\n", errors);
  cudaFree(dM);
  cudaFree(dN);
  cudaFree(dP);
  free(hM);
  free(hN);
  free(hP);
  return errors == 0 ? 0 : 1;
}
)";

void BM_FrontendLoadTiled(benchmark::State& state) {
  const std::string path = "/tmp/warpdiv_frontend_bench_" + std::to_string(::getpid()) + ".cu";
  std::ofstream(path) << kTiledSource;
  warpdiv::frontend::FrontendOptions options;
  options.file = path;
  for (auto _ : state) benchmark::DoNotOptimize(warpdiv::frontend::load_kernel(options));
  std::remove(path.c_str());
}
BENCHMARK(BM_FrontendLoadTiled)->Unit(benchmark::kMillisecond);

// A main() of N launches `k<<<1,32>>>(a, i);`, read with the kernel's launches (FILE.cu without
// --grid): the walk of main() is shared by the launches, so the time grows linearly with N.
// state.range(1) = 1: with --arg i=3 given (the host code followed with i pinned).
void BM_FrontendHostLaunches(benchmark::State& state) {
  const std::string path = "/tmp/warpdiv_frontend_bench_launches_" + std::to_string(::getpid()) + ".cu";
  {
    std::ofstream file(path);
    file << "__global__ void k(int *a, int i) { if (threadIdx.x < i) a[threadIdx.x] = i; }\n"
            "int main() {\n  int *a;\n  int i = 7;\n";
    for (std::int64_t n = 0; n < state.range(0); ++n) file << "  k<<<1,32>>>(a, i);\n";
    file << "}\n";
  }
  warpdiv::frontend::FrontendOptions options;
  options.file = path;
  options.host_launches = true;
  if (state.range(1) != 0) options.host_arguments = {{"i", "3"}};
  std::vector<warpdiv::frontend::HostLaunch> launches;
  for (auto _ : state) {
    benchmark::DoNotOptimize(warpdiv::frontend::load_kernel(options, nullptr, nullptr, &launches));
    if (launches.size() != static_cast<std::size_t>(state.range(0))) state.SkipWithError("launches missing");
  }
  std::remove(path.c_str());
}
BENCHMARK(BM_FrontendHostLaunches)
    ->ArgsProduct({{2000, 10000}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();  // load_kernel works on a thread of its own (a large stack): wall time

}  // namespace

BENCHMARK_MAIN();
