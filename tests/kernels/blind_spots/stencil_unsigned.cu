__global__ void stencil7(const float *in, float *out, unsigned int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x - 1;
  int j = blockIdx.y * blockDim.y + threadIdx.y - 1;
  int k = blockIdx.z * blockDim.z + threadIdx.z - 1;
  if (i < N && j < N && k < N) {
    out[(k * N + j) * N + i] = in[(k * N + j) * N + i];
  }
}
