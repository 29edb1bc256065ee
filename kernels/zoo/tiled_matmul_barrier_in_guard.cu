// The lecture slide's tiled matrix multiply that puts the whole phase loop, barriers included,
// inside `if (Row < Width && Col < Width)`: in a block that straddles the edge of P, the threads
// outside P skip the loop, so only part of the block reaches each __syncthreads() (undefined
// behaviour; the threads outside P also stop loading their zeros into the tiles).
//
// Meant for the lecture's launch: Width = 100, TILE_WIDTH = 16, gridDim (7, 7):
//   warpdiv analyze kernels/zoo/tiled_matmul_barrier_in_guard.cu \
//       --grid '(Width-1)/16+1,(Width-1)/16+1' --block 16,16 --arg Width=100
// warpdiv reports both barriers as partial in the 13 blocks of the last block row and column,
// 7 phases each: 91 of 343 block-phases.
#define TILE_WIDTH 16

__global__ void MatrixMulKernel(float* M, float* N, float* P, int Width)
{
  __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
  __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x; int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;

  int Row = by * blockDim.y + ty;
  int Col = bx * blockDim.x + tx;

  if (Row < Width && Col < Width) {
    float Pvalue = 0;
    // Loop over the M and N tiles required to compute the P element
    for (int p = 0; p < (Width-1)/TILE_WIDTH+1; ++p) {
      // Collaborative loading of M and N tiles into shared memory
      if (Row < Width && p*TILE_WIDTH+tx < Width) {
        ds_M[ty][tx] = M[Row*Width + p*TILE_WIDTH+tx];
      } else {
        ds_M[ty][tx] = 0.0;
      }
      if (p*TILE_WIDTH+ty < Width && Col < Width) {
        ds_N[ty][tx] = N[(p*TILE_WIDTH+ty)*Width + Col];
      } else {
        ds_N[ty][tx] = 0.0;
      }
      __syncthreads();
      for (int i = 0; i < TILE_WIDTH; ++i)
        Pvalue += ds_M[ty][i] * ds_N[i][tx];
      __syncthreads();
    }
    P[Row*Width + Col] = Pvalue;
  }
}
