// Collatz trajectories in place: each thread steps its own element of v (n -> n / 2 if n is
// even, 3n + 1 if odd) until it reaches 1, then writes how many steps it took. The loop's test
// reads v[i], which the loop itself writes: the model follows the buffer by value (a buffer the
// kernel writes), and since each thread reads only what it wrote itself, nothing depends on the
// threads' order. Lanes take from 0 to a few hundred steps: divergence that only the data decides.
//
// Meant for the sample of data/samples/collatz/ (made by tools/make-samples; starts 1 .. 10,000,
// whose trajectories stay below 2^32):
//   warpdiv analyze kernels/zoo/data/collatz_inplace.cu --grid '(n+127)/128' --block 128 --arg n=4096
//     --data v=data/samples/collatz/start.npy --alloc steps=4096
__global__ void collatz(unsigned int *v, int n, unsigned int *steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned int s = 0;
  while (v[i] != 1u) {
    if (v[i] % 2u == 0u)
      v[i] = v[i] / 2u;
    else
      v[i] = 3u * v[i] + 1u;
    s = s + 1u;
  }
  steps[i] = s;
}
