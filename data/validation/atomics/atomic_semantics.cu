// What CUDA's atomics do with their operands on an sm_90 GPU, as warpdiv models them
// (sim/model/ir_ops.hpp ops::atomic): float atomicAdd's subnormals on global and shared memory
// (PTX's atom.add.f32 flushes them on global memory only), double atomicAdd's, atomicInc /
// atomicDec's wrap-around, atomicCAS and atomicExch. One thread makes each atomic, so nothing
// depends on the threads' order. Build and run: nvcc -arch=sm_90 -o a atomic_semantics.cu && ./a
#include <cstdio>
#include <cstring>

struct Case {
  const char* what;
  unsigned long long element, operand, compare, returned, result;
};

__device__ unsigned int g32[16];
__device__ unsigned long long g64[16];

__global__ void run(unsigned long long* out, const float* fin, const double* din) {
  __shared__ float s32[8];
  if (threadIdx.x != 0) return;
  int n = 0;
  // float add on global memory: returned value used (atom) and not (red)
  for (int i = 0; i < 4; ++i) {
    float* g = reinterpret_cast<float*>(&g32[i]);
    *g = fin[2 * i];
    const float old = atomicAdd(g, fin[2 * i + 1]);
    out[n++] = __float_as_uint(old);
    out[n++] = g32[i];
  }
  for (int i = 0; i < 4; ++i) {
    float* g = reinterpret_cast<float*>(&g32[4 + i]);
    *g = fin[2 * i];
    atomicAdd(g, fin[2 * i + 1]);
    out[n++] = g32[4 + i];
  }
  // float add on shared memory
  for (int i = 0; i < 4; ++i) {
    s32[i] = fin[2 * i];
    const float old = atomicAdd(&s32[i], fin[2 * i + 1]);
    out[n++] = __float_as_uint(old);
    out[n++] = __float_as_uint(s32[i]);
  }
  // double add on global memory
  for (int i = 0; i < 2; ++i) {
    double* g = reinterpret_cast<double*>(&g64[i]);
    *g = din[2 * i];
    atomicAdd(g, din[2 * i + 1]);
    out[n++] = g64[i];
  }
  // inc / dec
  const unsigned int inc[][2] = {{5, 5}, {4, 5}, {9, 5}}, dec[][2] = {{0, 7}, {9, 7}, {3, 7}};
  for (int i = 0; i < 3; ++i) {
    g32[8] = inc[i][0];
    out[n++] = atomicInc(&g32[8], inc[i][1]);
    out[n++] = g32[8];
    g32[9] = dec[i][0];
    out[n++] = atomicDec(&g32[9], dec[i][1]);
    out[n++] = g32[9];
  }
  // CAS (equal, not equal), exch
  g32[10] = 7;
  out[n++] = atomicCAS(&g32[10], 7u, 9u);
  out[n++] = g32[10];
  out[n++] = atomicCAS(&g32[10], 7u, 11u);
  out[n++] = g32[10];
  out[n++] = atomicExch(&g32[10], 13u);
  out[n++] = g32[10];
}

static float f(unsigned int bits) { float v; std::memcpy(&v, &bits, 4); return v; }
static double d(unsigned long long bits) { double v; std::memcpy(&v, &bits, 8); return v; }

int main() {
  // element, operand pairs: subnormal + 0, 0 + subnormal, 1.5 FLT_MIN - FLT_MIN (a subnormal sum),
  // -subnormal + -0
  const float fin[8] = {f(0x00400000u), 0.0f, 0.0f, f(0x00000001u), f(0x00C00000u), f(0x80800000u),
                        f(0x80400000u), f(0x80000000u)};
  const double din[4] = {d(0x0000000000000001ull), 0.0, d(0x0018000000000000ull), d(0x8010000000000000ull)};
  float* df; double* dd; unsigned long long* dout;
  cudaMalloc(&df, sizeof fin); cudaMalloc(&dd, sizeof din); cudaMalloc(&dout, 64 * 8);
  cudaMemcpy(df, fin, sizeof fin, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, din, sizeof din, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, 64 * 8);
  run<<<1, 32>>>(dout, df, dd);
  unsigned long long out[64];
  if (cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost) != cudaSuccess) { std::printf("CUDA error\n"); return 1; }
  int n = 0;
  const char* cases[] = {"sub(0x00400000)+0", "0+sub(0x00000001)", "1.5FLT_MIN-FLT_MIN", "-sub(0x80400000)+-0"};
  for (int i = 0; i < 4; ++i) { std::printf("global atom f32 %-22s returned %08llx element %08llx\n", cases[i], out[n], out[n + 1]); n += 2; }
  for (int i = 0; i < 4; ++i) { std::printf("global red  f32 %-22s element %08llx\n", cases[i], out[n]); n += 1; }
  for (int i = 0; i < 4; ++i) { std::printf("shared atom f32 %-22s returned %08llx element %08llx\n", cases[i], out[n], out[n + 1]); n += 2; }
  const char* dcases[] = {"sub(1)+0", "1.5DBL_MIN-DBL_MIN"};
  for (int i = 0; i < 2; ++i) { std::printf("global f64 %-22s element %016llx\n", dcases[i], out[n]); n += 1; }
  const char* incs[] = {"(5,5)", "(4,5)", "(9,5)"}, *decs[] = {"(0,7)", "(9,7)", "(3,7)"};
  for (int i = 0; i < 3; ++i) {
    std::printf("atomicInc%s returned %llu element %llu\n", incs[i], out[n], out[n + 1]); n += 2;
    std::printf("atomicDec%s returned %llu element %llu\n", decs[i], out[n], out[n + 1]); n += 2;
  }
  std::printf("atomicCAS(7: 7->9) returned %llu element %llu\n", out[n], out[n + 1]); n += 2;
  std::printf("atomicCAS(9: 7->11) returned %llu element %llu\n", out[n], out[n + 1]); n += 2;
  std::printf("atomicExch(9, 13) returned %llu element %llu\n", out[n], out[n + 1]); n += 2;
  return 0;
}
