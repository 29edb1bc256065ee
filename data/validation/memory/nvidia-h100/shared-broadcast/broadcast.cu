#include <cstdio>
__global__ void bcast4(float* out, int n) {
  __shared__ float s[128];
  for (int i = threadIdx.x; i < 128; i += blockDim.x) s[i] = i;
  __syncthreads();
  out[threadIdx.x] = s[n];
}
__global__ void bcast8(float2* out, int n) {
  __shared__ float2 s[128];
  for (int i = threadIdx.x; i < 128; i += blockDim.x) s[i] = make_float2(i, 1);
  __syncthreads();
  out[threadIdx.x] = s[n];
}
__global__ void bcast16(float4* out, int n) {
  __shared__ float4 s[128];
  for (int i = threadIdx.x; i < 128; i += blockDim.x) s[i] = make_float4(i, 1, 2, 3);
  __syncthreads();
  out[threadIdx.x] = s[n];
}
__global__ void half8(float2* out, int n) {  // lanes 0-15 one address, lanes 16-31 another
  __shared__ float2 s[128];
  for (int i = threadIdx.x; i < 128; i += blockDim.x) s[i] = make_float2(i, 1);
  __syncthreads();
  out[threadIdx.x] = s[n + threadIdx.x / 16];
}
__global__ void consecutive8(float2* out, int n) {
  __shared__ float2 s[128];
  for (int i = threadIdx.x; i < 128; i += blockDim.x) s[i] = make_float2(i, 1);
  __syncthreads();
  out[threadIdx.x] = s[n + threadIdx.x];
}
__global__ void consecutive16(float4* out, int n) {
  __shared__ float4 s[128];
  for (int i = threadIdx.x; i < 128; i += blockDim.x) s[i] = make_float4(i, 1, 2, 3);
  __syncthreads();
  out[threadIdx.x] = s[n + threadIdx.x];
}
// Lanes sharing addresses in groups: lane / G (G lanes read one element), and lane % M.
#define PATTERN(NAME, T, MAKE, INDEX)                                              \
  __global__ void NAME(T* out, int n) {                                            \
    __shared__ T s[512];                                                           \
    for (int i = threadIdx.x; i < 512; i += blockDim.x) s[i] = MAKE;               \
    __syncthreads();                                                               \
    const int lane = threadIdx.x;                                                  \
    out[threadIdx.x] = s[n + (INDEX)];                                             \
  }
PATTERN(pairs8, float2, make_float2(i, 1), lane / 2)
PATTERN(quads8, float2, make_float2(i, 1), lane / 4)
PATTERN(mod16_8, float2, make_float2(i, 1), lane % 16)
PATTERN(mod2_8, float2, make_float2(i, 1), lane % 2)
PATTERN(stride16_8, float2, make_float2(i, 1), (lane % 16) * 16)
PATTERN(pairs16, float4, make_float4(i, 1, 2, 3), lane / 2)
PATTERN(quads16, float4, make_float4(i, 1, 2, 3), lane / 4)
PATTERN(eights16, float4, make_float4(i, 1, 2, 3), lane / 8)
PATTERN(halves16, float4, make_float4(i, 1, 2, 3), lane / 16)
PATTERN(mod8_16, float4, make_float4(i, 1, 2, 3), lane % 8)
PATTERN(mod2_16, float4, make_float4(i, 1, 2, 3), lane % 2)
// Stores of the same shapes (the lanes writing one element write one value).
#define STORE(NAME, T, MAKE, INDEX)                                                \
  __global__ void NAME(T* out, int n) {                                            \
    __shared__ T s[512];                                                           \
    const int lane = threadIdx.x;                                                  \
    s[n + (INDEX)] = MAKE;                                                         \
    __syncthreads();                                                               \
    out[threadIdx.x] = s[threadIdx.x];                                             \
  }
STORE(st_bcast8, float2, make_float2(n, 1), 0)
STORE(st_pairs8, float2, make_float2(lane / 2, 1), lane / 2)
STORE(st_mod2_8, float2, make_float2(lane % 2, 1), lane % 2)
STORE(st_mod16_8, float2, make_float2(lane % 16, 1), lane % 16)
STORE(st_consecutive8, float2, make_float2(lane, 1), lane)
STORE(st_bcast16, float4, make_float4(n, 1, 2, 3), 0)
STORE(st_pairs16, float4, make_float4(lane / 2, 1, 2, 3), lane / 2)
STORE(st_consecutive16, float4, make_float4(lane, 1, 2, 3), lane)
// Loads by part of a warp: 20 lanes reading one element, 20 lanes reading consecutive ones, and
// lanes 0, 2, 4, ... (every partner n ^ 1 idle) reading one element.
__global__ void part_bcast8(float2* out, int n) {
  __shared__ float2 s[512];
  for (int i = threadIdx.x; i < 512; i += blockDim.x) s[i] = make_float2(i, 1);
  __syncthreads();
  if (threadIdx.x < 20) out[threadIdx.x] = s[n];
}
__global__ void part_consecutive8(float2* out, int n) {
  __shared__ float2 s[512];
  for (int i = threadIdx.x; i < 512; i += blockDim.x) s[i] = make_float2(i, 1);
  __syncthreads();
  if (threadIdx.x < 20) out[threadIdx.x] = s[n + threadIdx.x];
}
__global__ void even_consecutive8(float2* out, int n) {
  __shared__ float2 s[512];
  for (int i = threadIdx.x; i < 512; i += blockDim.x) s[i] = make_float2(i, 1);
  __syncthreads();
  if (threadIdx.x % 2 == 0) out[threadIdx.x] = s[n + threadIdx.x];
}
__global__ void even_consecutive16(float4* out, int n) {
  __shared__ float4 s[512];
  for (int i = threadIdx.x; i < 512; i += blockDim.x) s[i] = make_float4(i, 1, 2, 3);
  __syncthreads();
  if (threadIdx.x % 2 == 0) out[threadIdx.x] = s[n + threadIdx.x];
}
int main() {
  float4* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(float4));
  bcast4<<<1, 32>>>((float*)out, 5);
  bcast8<<<1, 32>>>((float2*)out, 5);
  bcast16<<<1, 32>>>(out, 5);
  half8<<<1, 32>>>((float2*)out, 5);
  consecutive8<<<1, 32>>>((float2*)out, 4);
  consecutive16<<<1, 32>>>(out, 4);
  pairs8<<<1, 32>>>((float2*)out, 0);
  quads8<<<1, 32>>>((float2*)out, 0);
  mod16_8<<<1, 32>>>((float2*)out, 0);
  mod2_8<<<1, 32>>>((float2*)out, 0);
  stride16_8<<<1, 32>>>((float2*)out, 0);
  pairs16<<<1, 32>>>(out, 0);
  quads16<<<1, 32>>>(out, 0);
  eights16<<<1, 32>>>(out, 0);
  halves16<<<1, 32>>>(out, 0);
  mod8_16<<<1, 32>>>(out, 0);
  mod2_16<<<1, 32>>>(out, 0);
  st_bcast8<<<1, 32>>>((float2*)out, 3);
  st_pairs8<<<1, 32>>>((float2*)out, 0);
  st_mod2_8<<<1, 32>>>((float2*)out, 0);
  st_mod16_8<<<1, 32>>>((float2*)out, 0);
  st_consecutive8<<<1, 32>>>((float2*)out, 0);
  st_bcast16<<<1, 32>>>(out, 3);
  st_pairs16<<<1, 32>>>(out, 0);
  st_consecutive16<<<1, 32>>>(out, 0);
  part_bcast8<<<1, 32>>>((float2*)out, 3);
  part_consecutive8<<<1, 32>>>((float2*)out, 0);
  even_consecutive8<<<1, 32>>>((float2*)out, 0);
  even_consecutive16<<<1, 32>>>(out, 0);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
