// spmv_csr_vector.cu with its nonzero loop kept rolled (#pragma unroll 1): nvcc unrolls that loop by
// 4 (a remainder loop of length % 4 iterations first, then 4 iterations' loads per pass), so the
// hardware groups lanes into load requests by its unrolled passes, not by source iterations;
// rolled, each source iteration is one pass, as the model counts (tools/device-ncu-data compares
// both with Nsight Compute; data/validation/data/ncu/README.md).
// Sparse matrix-vector product y = A x, A in CSR, one warp per row: the "CSR vector" kernel of
// Bell & Garland, "Efficient Sparse Matrix-Vector Multiplication on CUDA" (NVIDIA Technical Report
// NVR-2008-004), with the warp's partial sums reduced by shuffles (__shfl_down_sync) instead of
// the report's shared-memory reduction, as current CUDA code writes it.
//
// The 32 lanes of a warp stride through one row's nonzeros, so a row of L nonzeros keeps the warp
// in the loop ceil(L / 32) times, with L mod 32 lanes busy in the last pass: short rows waste most
// lanes, unlike the one-thread-per-row kernel (spmv_csr_scalar.cu), which wastes lanes on rows of
// unequal lengths. The loop's bounds come from row_ptr: `--data row_ptr=FILE` (and col_idx for the
// gather's memory figures). Meant for data/samples/spmv/ (2,000 rows, tools/make-samples):
//   warpdiv analyze kernels/zoo/data/spmv_csr_vector.cu --grid '(num_rows*32+127)/128' --block 128
//     --arg num_rows=2000 --data row_ptr=data/samples/spmv/row_ptr.npy
//     --data col_idx=data/samples/spmv/col_idx.npy
__global__ void spmv_csr_vector_rolled(int num_rows, const int *row_ptr, const int *col_idx, const float *values,
                                const float *x, float *y) {
  int thread_id = blockDim.x * blockIdx.x + threadIdx.x;
  int warp_id = thread_id / 32;
  int lane = thread_id & 31;
  int row = warp_id;
  if (row < num_rows) {
    int row_start = row_ptr[row];
    int row_end = row_ptr[row + 1];
    float sum = 0.0f;
#pragma unroll 1
    for (int jj = row_start + lane; jj < row_end; jj += 32)
      sum += values[jj] * x[col_idx[jj]];
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (lane == 0)
      y[row] = sum;
  }
}
