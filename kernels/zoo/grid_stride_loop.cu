// A grid-stride loop (NVIDIA's "CUDA Pro Tip: Write Flexible Kernels with Grid-Stride Loops"):
// SAXPY over n elements with however many threads the grid has; each thread steps by the whole
// grid, blockDim.x * gridDim.x.
//
// Meant for: n = 1000, blockDim 128, gridDim 4 (512 threads, so each thread takes one or two
// elements):
//   warpdiv analyze kernels/zoo/grid_stride_loop.cu --grid 4 --block 128 --arg n=1000 --arg a=2
// Written as the blog writes it.
__global__
void saxpy(int n, float a, float *x, float *y)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x;
       i < n;
       i += blockDim.x * gridDim.x)
  {
    y[i] = a * x[i] + y[i];
  }
}
