// The 5-point 2-D stencil as textbooks write it: one thread per point of an N x N grid, row i and
// column j from the block and thread indices (unsigned, as blockIdx * blockDim + threadIdx is),
// and a bounds check that keeps the border points out. (i - 1) * N + j would wrap around at
// i = 0; the check is what keeps every address in range.
//
// Meant for: N = 1000, blockDim (16, 16), gridDim (63, 63):
//   warpdiv analyze kernels/zoo/stencil_2d.cu --grid 63,63 --block 16,16 --arg N=1000
__global__ void stencil_2d(float* out, const float* in, unsigned int N)
{
  unsigned int i = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < N - 1 && j > 0 && j < N - 1) {
    out[i * N + j] = 0.2f * (in[i * N + j] + in[(i - 1) * N + j] + in[(i + 1) * N + j] +
                             in[i * N + j - 1] + in[i * N + j + 1]);
  }
}
