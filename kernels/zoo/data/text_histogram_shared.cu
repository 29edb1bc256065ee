// Text histogram privatised per block: the seven letter groups a-d, e-h, ..., y-z counted in a
// __shared__ copy with atomicAdd, then each block adds its non-empty bins to the global ones:
// the "histo_private_kernel" of Kirk & Hwu, "Programming Massively Parallel Processors" (4th ed.,
// chapter 9, privatization). Written as they write it.
//
// Whether a lane counts depends on its character (--data data=FILE.txt); whether a block adds a
// bin depends on the block's shared counts, which the model follows by value: atomics of several
// warps on one bin are no race, and the sums they leave after the barrier do not depend on the
// order (no atomic's returned value is used). Kept out of kernels/zoo/ itself, whose kernels the
// zoo tests run on random launches without data.
//
// Meant for the sample of data/samples/text/ (made by tools/make-samples):
//   warpdiv analyze kernels/zoo/data/text_histogram_shared.cu --grid '(length+127)/128' --block 128
//     --arg length=20000 --data data=data/samples/text/sample.txt --alloc histo=7
#define NUM_BINS 7

__global__ void histo_private_kernel(const char *data, unsigned int length, unsigned int *histo) {
  __shared__ unsigned int histo_s[NUM_BINS];
  for (unsigned int bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) {
    histo_s[bin] = 0u;
  }
  __syncthreads();
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < length) {
    int alphabet_position = data[i] - 'a';
    if (alphabet_position >= 0 && alphabet_position < 26) {
      atomicAdd(&(histo_s[alphabet_position / 4]), 1);
    }
  }
  __syncthreads();
  for (unsigned int bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) {
    unsigned int binValue = histo_s[bin];
    if (binValue > 0) {
      atomicAdd(&(histo[bin]), binValue);
    }
  }
}
