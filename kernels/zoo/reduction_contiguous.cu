// The lecture's improved sum reduction ("A better reduction kernel"): stride starts at
// blockDim.x and halves, and the threads below stride add, so the active threads stay packed at
// the front and only the last five iterations (stride 16 .. 1, fewer than 32 threads) diverge.
//
// Meant for: 2,048 inputs, blockDim 256 (= BLOCK_SIZE), gridDim 4:
//   warpdiv analyze kernels/zoo/reduction_contiguous.cu --grid 'n/(2*256)' --block 256 --arg n=2048
// (n is not a parameter of the kernel: it only sizes the grid.) Written as the slide writes it.
#define BLOCK_SIZE 256

__global__ void reduce(float *input, float *output) {
  __shared__ float partialSum[2*BLOCK_SIZE];

  unsigned int t = threadIdx.x;
  unsigned int start = 2*blockIdx.x*blockDim.x;
  partialSum[t] = input[start + t];
  partialSum[blockDim.x+t] = input[start + blockDim.x+t];

  for (unsigned int stride = blockDim.x; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride)
      partialSum[t] += partialSum[t+stride];
  }
  if (t == 0)
    output[blockIdx.x] = partialSum[0];
}
