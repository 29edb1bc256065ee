// Row-wise softmax, one thread per row of a rows x C matrix: each thread walks its own row
// three times (the maximum, the sum of exponentials, the normalised write) through two row
// pointers set once from its row index. Neighbouring lanes are C floats apart, so every load
// and store of a warp touches a sector of its own once C >= 8.
//
// Meant for: rows = 100, C = 64, blockDim 32, gridDim 4 (the last block's lanes past row 99 idle):
//   warpdiv analyze kernels/zoo/softmax_rows.cu --grid 4 --block 32 --arg rows=100 --arg C=64
__global__ void softmax_rows(float* out, const float* inp, int rows, int C)
{
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    const float* x = inp + row * C;
    float* o = out + row * C;
    float largest = x[0];
    for (int j = 1; j < C; j++) {
      largest = fmaxf(largest, x[j]);
    }
    float total = 0.0f;
    for (int j = 0; j < C; j++) {
      float e = expf(x[j] - largest);
      o[j] = e;
      total += e;
    }
    for (int j = 0; j < C; j++) {
      o[j] = o[j] / total;
    }
  }
}
