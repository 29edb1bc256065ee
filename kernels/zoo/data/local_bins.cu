// Per-thread bins in a local array: each thread counts the residues mod 4 of its 8 inputs in
// `bins`, then finds its fullest bin (the first on ties) and writes it. The counts live in a
// local array the model follows by value (each thread's own copy), and the search's branch
// `bins[b] > bins[best]` depends on them, so on the data: the lanes of a warp disagree.
//
// Meant for data/samples/dense/ints.npy (made by tools/make-samples):
//   warpdiv analyze kernels/zoo/data/local_bins.cu --grid '(n/8+127)/128' --block 128 --arg n=40000
//     --data in=data/samples/dense/ints.npy --alloc fullest=5000
__global__ void local_bins(const int *in, int n, int *fullest) {
  int bins[4] = {0, 0, 0, 0};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i * 8 >= n) return;
  for (int k = 0; k < 8; ++k) {
    int j = i * 8 + k;
    if (j < n) bins[in[j] & 3] += 1;
  }
  int best = 0;
  for (int b = 1; b < 4; ++b) {
    if (bins[b] > bins[best]) best = b;
  }
  fullest[i] = best;
}
