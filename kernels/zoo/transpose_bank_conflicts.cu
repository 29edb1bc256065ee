// The shared-memory transpose of NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++" before its
// last step: the tile is TILE_DIM x TILE_DIM, not padded, so reading a column of it asks one bank
// for 32 different words (a 32-way bank conflict per warp); tiled_transpose.cu is the padded one.
//
// Meant for: a 64 x 64 matrix, tiles of 32 x 32 with blocks of 32 x 8:
//   warpdiv analyze kernels/zoo/transpose_bank_conflicts.cu --grid 2,2 --block 32,8 \
//     --arg width=64 --arg height=64
#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeNoPadding(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];

  __syncthreads();

  int xo = blockIdx.y * TILE_DIM + threadIdx.x;
  int yo = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (xo < height && yo + j < width)
      odata[(yo + j) * height + xo] = tile[threadIdx.x][threadIdx.y + j];
}
