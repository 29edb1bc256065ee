// spmv_csr_scalar.cu with its nonzero loop kept rolled (#pragma unroll 1): nvcc unrolls that loop by
// 4 (a remainder loop of length % 4 iterations first, then 4 iterations' loads per pass), so the
// hardware groups lanes into load requests by its unrolled passes, not by source iterations;
// rolled, each source iteration is one pass, as the model counts (tools/device-ncu-data compares
// both with Nsight Compute; data/validation/data/ncu/README.md).
// Sparse matrix-vector product y = A x, A in CSR (compressed sparse row: row_ptr[r] .. row_ptr[r+1]
// are the positions in col_idx and values of row r's nonzeros), one thread per row: the "CSR
// scalar" kernel of Bell & Garland, "Efficient Sparse Matrix-Vector Multiplication on CUDA"
// (NVIDIA Technical Report NVR-2008-004), as Kirk & Hwu's "Programming Massively Parallel
// Processors" (chapter on sparse matrix computation) teach it. Written as they write it.
//
// The loop's bounds are loaded from row_ptr, so how many times each lane runs it (and where a
// warp diverges) depends on the matrix: the model needs the data, `--data row_ptr=FILE` (and
// col_idx for the gather x[col_idx[jj]]; values and x only for the memory figures). Without it
// the loop is refused as data-dependent. Kept out of kernels/zoo/ itself, whose kernels the zoo
// tests run on random launches without data.
//
// Meant for the sample of data/samples/spmv/ (2,000 rows, made by tools/make-samples):
//   warpdiv analyze kernels/zoo/data/spmv_csr_scalar.cu --grid '(num_rows+127)/128' --block 128
//     --arg num_rows=2000 --data row_ptr=data/samples/spmv/row_ptr.npy
//     --data col_idx=data/samples/spmv/col_idx.npy --data values=data/samples/spmv/values.npy
//     --data x=data/samples/spmv/x.npy --alloc y=2000
__global__ void spmv_csr_scalar_rolled(int num_rows, const int *row_ptr, const int *col_idx, const float *values, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < num_rows) {
    float dot = 0.0f;
    int row_start = row_ptr[row];
    int row_end = row_ptr[row + 1];
#pragma unroll 1
    for (int jj = row_start; jj < row_end; jj++)
      dot += values[jj] * x[col_idx[jj]];
    y[row] = dot;
  }
}
