// stencil_unsigned.cu with long indices: the unsigned bound converts to long, a signed comparison.
//   warpdiv analyze tests/kernels/blind_spots/stencil_long.cu --grid 376,376,376 --block 8,8,8 --arg N=3000
__global__ void stencil_long(const float *in, float *out, unsigned int N)
{
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x - 1;
  long j = (long)blockIdx.y * blockDim.y + threadIdx.y - 1;
  long k = (long)blockIdx.z * blockDim.z + threadIdx.z - 1;
  if (i < N && j < N && k < N) {
    out[(k * N + j) * N + i] = in[(k * N + j) * N + i];
  }
}
