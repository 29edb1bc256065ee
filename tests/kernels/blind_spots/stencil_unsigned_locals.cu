// stencil_unsigned.cu with unsigned locals: the index itself wraps (0 - 1 = 2^32 - 1).
//   warpdiv analyze tests/kernels/blind_spots/stencil_unsigned_locals.cu --grid 376,376,376 --block 8,8,8 --arg N=3000
__global__ void stencil_unsigned_locals(const float *in, float *out, unsigned int N)
{
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x - 1;
  unsigned j = blockIdx.y * blockDim.y + threadIdx.y - 1;
  unsigned k = blockIdx.z * blockDim.z + threadIdx.z - 1;
  if (i < N && j < N && k < N) {
    out[(k * N + j) * N + i] = in[(k * N + j) * N + i];
  }
}
