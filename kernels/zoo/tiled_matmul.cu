// The lecture's tiled matrix multiply with boundary checks (GPU Teaching Kit, "Tiled matrix
// multiplication kernel: handling arbitrary matrix sizes"): P = M * N, Width x Width matrices,
// blockDim (TILE_WIDTH, TILE_WIDTH), one phase per tile of M's row and N's column.
//
// The lecture's launch: Width = 100, TILE_WIDTH = 16 (-D TILE_WIDTH=32 picks another), grid (7, 7):
//   warpdiv analyze kernels/zoo/tiled_matmul.cu --grid 7,7 --block 16,16 --arg Width=100
// Written as the slide writes it; both barriers sit outside every guard (the slide that puts them
#ifndef TILE_WIDTH  // inside `if (Row < Width && Col < Width)` is tiled_matmul_barrier_in_guard.cu)
#define TILE_WIDTH 16
#endif

__global__ void MatrixMulKernel(float* M, float* N, float* P, int Width)
{
  __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
  __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x; int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;

  int Row = by * blockDim.y + ty;
  int Col = bx * blockDim.x + tx;
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

    if (Row < Width && Col < Width)
      for (int i = 0; i < TILE_WIDTH; ++i)
        Pvalue += ds_M[ty][i] * ds_N[i][tx];
    __syncthreads();
  }
  if (Row < Width && Col < Width)
    P[Row*Width + Col] = Pvalue;
}
