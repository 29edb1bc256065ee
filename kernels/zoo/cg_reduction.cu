// A sum reduction in the style of NVIDIA's cuda-samples (reduction, reduce4): cooperative groups
// throughout; each thread adds two inputs as it loads them, shared memory halves down to one
// warp, and the last warp finishes with shuffles on a thread_block_tile<32>. Sizes need not be
// multiples of anything: the loads are guarded.
//
// Meant for: n inputs, blockDim 256, two inputs per thread:
//   warpdiv analyze kernels/zoo/cg_reduction.cu --grid '(n+511)/512' --block 256 --arg n=1000
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void reduce_cg(const int *g_idata, int *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  extern __shared__ int sdata[];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  int mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  cg::sync(cta);

  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) {
      mySum = mySum + sdata[tid + s];
      sdata[tid] = mySum;
    }
    cta.sync();
  }

  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (blockDim.x >= 64) mySum += sdata[tid + 32];
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2) {
      mySum += tile32.shfl_down(mySum, offset);
    }
  }

  if (cta.thread_rank() == 0) g_odata[blockIdx.x] = mySum;
}
