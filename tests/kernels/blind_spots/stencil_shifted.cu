__global__ void stencil7(const float *in, float *out, unsigned int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i - 1 < N - 2 && j - 1 < N - 2 && k - 1 < N - 2) {
    out[(k * N + j) * N + i] = in[(k * N + j) * N + i];
  }
}
