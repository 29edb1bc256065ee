#define TILE 32
__global__ void transpose(float *out, const float *in, int width, int height)
{
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height)
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width)
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
