// Stream compaction within each block through shared memory, in order (no atomics): each thread
// flags its element if it is greater than `threshold`, the block scans the flags (Hillis-Steele,
// ping-ponging between two shared arrays with a barrier per step), and each flagged thread
// writes its element to out at its block's start plus its rank; the last thread writes the
// block's count.
//
// Two branches depend on values in shared memory: `if (flag[t])` on the data (in[i], given with
// --data), and the scan's stores on what other warps stored a barrier before; the address
// out[...] depends on the scan. The model follows the block's shared memory by value (phases
// between barriers; races and reads of memory never written are errors). Blocks of at most 256
// threads (BLOCK): a larger block writes past flag[] (exit 2, naming the thread).
//
// Meant for the sample of data/samples/compaction/ (made by tools/make-samples):
//   warpdiv analyze kernels/zoo/data/block_compaction.cu --grid '(n+255)/256' --block 256
//     --arg n=5000 --arg threshold=0 --data in=data/samples/compaction/in.npy
//     --alloc out=5120 --alloc block_counts=20
#define BLOCK 256

__global__ void block_compaction(const int *in, int *out, int *block_counts, int n, int threshold) {
  __shared__ int flag[BLOCK];
  __shared__ int scan[2][BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  flag[t] = (i < n && in[i] > threshold) ? 1 : 0;
  scan[0][t] = flag[t];
  __syncthreads();
  int from = 0;
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    int to = 1 - from;
    if (t >= offset)
      scan[to][t] = scan[from][t] + scan[from][t - offset];
    else
      scan[to][t] = scan[from][t];
    __syncthreads();
    from = to;
  }
  if (flag[t])
    out[blockIdx.x * blockDim.x + scan[from][t] - 1] = in[i];
  if (t == blockDim.x - 1)
    block_counts[blockIdx.x] = scan[from][t];
}
