// A matrix transpose through a shared tile, in the style of NVIDIA's cuda-samples (transpose,
// transposeCoalesced): 32 x 32 tiles, blocks of 32 x 8 threads that each copy four rows, a padded
// tile against bank conflicts, and cooperative groups for the barrier. Bounds checks make it
// correct for any width and height (the sample assumes multiples of 32).
//
// Meant for: a width x height input, gridDim (ceil(width/32), ceil(height/32)), blockDim (32, 8):
//   warpdiv analyze kernels/zoo/tiled_transpose.cu --grid '(width+31)/32,(height+31)/32' \
//     --block 32,8 --arg width=40 --arg height=20
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeCoalesced(float *odata, const float *idata, int width, int height) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (xIndex < width && yIndex + j < height)
      tile[threadIdx.y + j][threadIdx.x] = idata[(yIndex + j) * width + xIndex];
  }

  cg::sync(cta);

  int xOut = blockIdx.y * TILE_DIM + threadIdx.x;
  int yOut = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (xOut < height && yOut + j < width)
      odata[(yOut + j) * height + xOut] = tile[threadIdx.x][threadIdx.y + j];
  }
}
