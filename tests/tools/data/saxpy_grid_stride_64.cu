// kernels/zoo/grid_stride_loop.cu with a 64-bit n and index, for launches past 2^31 elements:
// SAXPY, y[i] = a * x[i] + y[i], each thread stepping by the whole grid.
//   warpdiv validate tests/tools/data/saxpy_grid_stride_64.cu --grid 1024 --block 256
//     --arg n=5000000000 --arg a=2 --alloc x=5000000000 --alloc y=5000000000
__global__
void saxpy(long long n, float a, float *x, float *y)
{
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
       i < n;
       i += (long long)blockDim.x * gridDim.x)
  {
    y[i] = a * x[i] + y[i];
  }
}
