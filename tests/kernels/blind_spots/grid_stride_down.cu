// A grid-stride loop that counts down, its body guarded by the index.
//   warpdiv analyze tests/kernels/blind_spots/grid_stride_down.cu --grid 100 --block 256 --arg n=1000000 --arg m=30
__global__ void down(int n, int m, int *out)
{
  for (int i = n - 1 - (int)(blockIdx.x * blockDim.x + threadIdx.x); i >= 0; i -= blockDim.x * gridDim.x) {
    if (i > m)
      out[i] = 1;
  }
}
