// A flag raised by compare-and-swap: the first thread to find it 0 wins and writes its index.
// Which thread wins depends on the GPU's order; warpdiv counts the branch for its documented
// order (blocks, warps, lanes ascending: thread 0 wins) and lists it as order-dependent.
// warpdiv analyze cas_flag.cu --grid 2 --block 32 --alloc flag=1 --alloc winner=1
__global__ void cas_flag(int *flag, int *winner) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (atomicCAS(flag, 0, 1) == 0)
    *winner = tid;
}
