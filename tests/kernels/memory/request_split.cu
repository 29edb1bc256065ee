// Global requests split into loads, stores and atomics, worked by hand in
// tests/tools/request_split_cli_test.cpp: grid 1 x block 64 (two warps), every buffer from
// cudaMalloc (256-byte aligned).
__global__ void request_split(const float *in, float *out, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  out[2 * i] = v;
  if (i < 40) atomicAdd(count, 1);
  out[2 * i + 1] = in[i] + 1.0f;
}
