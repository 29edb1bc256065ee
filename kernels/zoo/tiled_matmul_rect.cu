// The lecture's tiled matrix multiply with boundary checks (GPU Teaching Kit), for the general
// shapes `warpdiv analyze --rows J --inner K --cols L --tile T` models: P[J x L] = M[J x K] *
// N[K x L], blockDim (T, T), gridDim ((L-1)/T+1, (J-1)/T+1). The slide's kernel with its one
// Width split into J, K and L, and TILE_WIDTH read from blockDim.x (the tile is the block), so
// that one model serves every T; rows, columns and indices in 64 bits so that matrices up to
// 2^31 - 1 do not overflow (Row reaches J + T - 2).
// The four checks the lecture counts: load_M (line 32), load_N (line 37), compute (line 44) and
// store (line 49).
//
//   warpdiv analyze kernels/zoo/tiled_matmul_rect.cu --grid '(L-1)/16+1,(J-1)/16+1' \
//       --block 16,16 --arg J=100 --arg K=100 --arg L=100
// is `warpdiv analyze --width 100 --tile 16` (the lecture flags run this kernel's saved model,
// kernels/zoo/tiled_matmul_rect.json, built into warpdiv).
#define MAX_TILE 32

__global__ void TiledMatMul(float* M, float* N, float* P, int J, int K, int L)
{
  __shared__ float ds_M[MAX_TILE][MAX_TILE];
  __shared__ float ds_N[MAX_TILE][MAX_TILE];

  int T = blockDim.x;
  int bx = blockIdx.x; int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;

  long long Row = (long long)by * blockDim.y + ty;
  long long Col = (long long)bx * blockDim.x + tx;
  float Pvalue = 0;

  // Loop over the M and N tiles required to compute the P element
  for (int p = 0; p < (K-1)/T+1; ++p) {
    // Collaborative loading of M and N tiles into shared memory
    if (Row < J && (long long)p*T+tx < K) {
      ds_M[ty][tx] = M[Row*K + (long long)p*T+tx];
    } else {
      ds_M[ty][tx] = 0.0;
    }
    if ((long long)p*T+ty < K && Col < L) {
      ds_N[ty][tx] = N[((long long)p*T+ty)*L + Col];
    } else {
      ds_N[ty][tx] = 0.0;
    }
    __syncthreads();

    if (Row < J && Col < L)
      for (int i = 0; i < T; ++i)
        Pvalue += ds_M[ty][i] * ds_N[i][tx];
    __syncthreads();
  }
  if (Row < J && Col < L)
    P[Row*L + Col] = Pvalue;
}
