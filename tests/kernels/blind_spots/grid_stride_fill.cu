__global__ void fill(size_t n, int *out)
{
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
    out[i % 1024] = 1;
  }
}
