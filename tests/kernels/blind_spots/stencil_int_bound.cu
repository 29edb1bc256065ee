// stencil_unsigned.cu with the bound converted to int: a signed comparison, no wrap.
//   warpdiv analyze tests/kernels/blind_spots/stencil_int_bound.cu --grid 376,376,376 --block 8,8,8 --arg N=3000
__global__ void stencil_int_bound(const float *in, float *out, unsigned int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x - 1;
  int j = blockIdx.y * blockDim.y + threadIdx.y - 1;
  int k = blockIdx.z * blockDim.z + threadIdx.z - 1;
  if (i >= 0 && j >= 0 && k >= 0 && i < (int)N && j < (int)N && k < (int)N) {
    out[(k * N + j) * N + i] = in[(k * N + j) * N + i];
  }
}
