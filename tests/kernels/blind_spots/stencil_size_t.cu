// stencil_unsigned.cu with 64-bit indices compared with a size_t bound (long converted to
// unsigned long: -1 wraps to 2^64 - 1).
//   warpdiv analyze tests/kernels/blind_spots/stencil_size_t.cu --grid 376,376,376 --block 8,8,8 --arg N=3000
__global__ void stencil_size_t(const float *in, float *out, size_t N)
{
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x - 1;
  long j = (long)blockIdx.y * blockDim.y + threadIdx.y - 1;
  long k = (long)blockIdx.z * blockDim.z + threadIdx.z - 1;
  if (i < N && j < N && k < N) {
    out[(k * N + j) * N + i] = in[(k * N + j) * N + i];
  }
}
