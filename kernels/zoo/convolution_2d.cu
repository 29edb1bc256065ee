// A tiled 2-D convolution with a halo (the textbook's "input tile = block" strategy, as in
// Programming Massively Parallel Processors, ch. 7): each 16 x 16 block loads a 16 x 16 input tile,
// halo included (zeros outside the image), waits at the barrier, and its inner 14 x 14 threads each
// compute one output pixel from the 3 x 3 filter. The book keeps the filter in __constant__ memory;
// here it is a parameter F, so the file needs nothing beyond the kernel's own arguments.
//
// Meant for: a 30 x 20 image (width = 30, height = 20), blockDim (16, 16), gridDim (3, 2):
//   warpdiv analyze kernels/zoo/convolution_2d.cu --grid '(width-1)/14+1,(height-1)/14+1' \
//       --block 16,16 --arg width=30 --arg height=20
#define FILTER_RADIUS 1
#define IN_TILE_DIM 16
#define OUT_TILE_DIM ((IN_TILE_DIM) - 2*(FILTER_RADIUS))

__global__ void convolution_tiled_2D_kernel(float *N, float *F, float *P, int width, int height) {
  int col = blockIdx.x*OUT_TILE_DIM + threadIdx.x - FILTER_RADIUS;
  int row = blockIdx.y*OUT_TILE_DIM + threadIdx.y - FILTER_RADIUS;
  // Loading input tile, halo included
  __shared__ float N_s[IN_TILE_DIM][IN_TILE_DIM];
  if (row >= 0 && row < height && col >= 0 && col < width) {
    N_s[threadIdx.y][threadIdx.x] = N[row*width + col];
  } else {
    N_s[threadIdx.y][threadIdx.x] = 0.0;
  }
  __syncthreads();
  // Calculating output elements
  int tileCol = threadIdx.x - FILTER_RADIUS;
  int tileRow = threadIdx.y - FILTER_RADIUS;
  // Turning off the threads at the edges of the block
  if (col >= 0 && col < width && row >= 0 && row < height) {
    if (tileCol >= 0 && tileCol < OUT_TILE_DIM && tileRow >= 0 && tileRow < OUT_TILE_DIM) {
      float Pvalue = 0.0f;
      for (int fRow = 0; fRow < 2*FILTER_RADIUS+1; fRow++) {
        for (int fCol = 0; fCol < 2*FILTER_RADIUS+1; fCol++) {
          Pvalue += F[fRow*(2*FILTER_RADIUS+1) + fCol]*N_s[tileRow+fRow][tileCol+fCol];
        }
      }
      P[row*width + col] = Pvalue;
    }
  }
}
