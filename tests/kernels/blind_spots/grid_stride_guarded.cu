// A grid-stride loop over int indices whose body decides by the index: each lane's trip count
// and the guard's outcome change along the loop.
//   warpdiv analyze tests/kernels/blind_spots/grid_stride_guarded.cu --grid 100 --block 256 --arg n=1000000 --arg m=700000
__global__ void guarded(int n, int m, int *out)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (i < m)
      out[i] = i;
  }
}
