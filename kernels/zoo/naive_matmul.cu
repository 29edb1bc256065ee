// The lecture's simple matrix multiply (GPU Teaching Kit, "Matrix multiplication kernel"): one
// thread per element of P = M * N, Width x Width matrices, no tiling.
//
// Meant for the lecture's launch: Width = 100, blockDim (16, 16), gridDim (7, 7):
//   warpdiv analyze kernels/zoo/naive_matmul.cu --grid '(Width-1)/16+1,(Width-1)/16+1' \
//       --block 16,16 --arg Width=100
// Written as the slide writes it.
__global__ void MatrixMulKernel(float* M, float* N, float* P, int Width)
{
  // Calculate the row index of the P element and M
  int Row = blockIdx.y*blockDim.y+threadIdx.y;
  // Calculate the column index of P and N
  int Col = blockIdx.x*blockDim.x+threadIdx.x;
  if ((Row < Width) && (Col < Width)) {
    float Pvalue = 0;
    // each thread computes one element of the block sub-matrix
    for (int k = 0; k < Width; ++k) {
      Pvalue += M[Row*Width+k]*N[k*Width+Col];
    }
    P[Row*Width+Col] = Pvalue;
  }
}
