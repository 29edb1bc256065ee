// The lecture's first sum reduction ("A simple sum reduction kernel"): each block sums
// 2*blockDim.x inputs in place; in iteration k the threads whose index is a multiple of
// stride = 2^k add, so the active threads spread out and every warp diverges for strides 2 .. 32.
//
// Meant for: 2,048 inputs, blockDim 256 (= BLOCK_SIZE), gridDim 4:
//   warpdiv analyze kernels/zoo/reduction_interleaved.cu --grid 'n/(2*256)' --block 256 --arg n=2048
// (n is not a parameter of the kernel: it only sizes the grid.) Written as the slide writes it.
#define BLOCK_SIZE 256

__global__ void reduce(float *input, float *output) {
  __shared__ float partialSum[2*BLOCK_SIZE];

  unsigned int t = threadIdx.x;
  unsigned int start = 2*blockIdx.x*blockDim.x;
  partialSum[t] = input[start + t];
  partialSum[blockDim.x+t] = input[start + blockDim.x+t];

  for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
    __syncthreads();
    if (t % stride == 0)
      partialSum[2*t]+= partialSum[2*t+stride];
  }
  if (t == 0)
    output[blockIdx.x] = partialSum[0];
}
