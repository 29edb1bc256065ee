// A block's sum by warp shuffles, in two levels: each warp adds its 32 values with
// __shfl_down_sync (offsets 16, 8, 4, 2, 1), lane 0 of each warp leaves its warp's sum in shared
// memory, and warp 0 adds those with the same __device__ function, which is therefore inlined at
// two calls; lane 0 of warp 0 adds the block's sum to *out.
//
// Meant for: n = 4096 floats, blockDim 256, gridDim 16:
//   warpdiv analyze kernels/zoo/warp_shuffle_reduction.cu --grid '(n+255)/256' --block 256 --arg n=4096
__device__ float warp_reduce_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  float v = (i < n) ? in[i] : 0.0f;
  v = warp_reduce_sum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = (lane < blockDim.x / 32) ? partial[lane] : 0.0f;
    v = warp_reduce_sum(v);
    if (lane == 0) atomicAdd(out, v);
  }
}
