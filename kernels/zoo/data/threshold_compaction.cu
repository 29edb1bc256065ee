// Stream compaction with an atomic counter: the elements of `in` greater than `threshold` are
// copied to `out`, each at the slot an atomicAdd on `count` hands its thread, one thread per
// element (the order of `out` is the order in which the atomics happen to run).
//
// Whether a lane takes the if depends on in[i], loaded from data: the model needs the values,
// `--data in=FILE.npy` (int32). The store out[pos] is at an address that depends on the atomic's
// result: with `--alloc count=1` the replay runs the atomics in its documented order (blocks,
// warps and lanes ascending) and counts out[pos] for that order, marked order-dependent in the
// report (the GPU hands the slots out in another order); the branch itself depends on in[i]
// only. Kept out of kernels/zoo/ itself, whose kernels the zoo tests run on random launches
// without data.
//
// Meant for the sample of data/samples/compaction/ (made by tools/make-samples):
//   warpdiv analyze kernels/zoo/data/threshold_compaction.cu --grid '(n+127)/128' --block 128
//     --arg n=5000 --arg threshold=0 --data in=data/samples/compaction/in.npy
//     --alloc out=5000 --alloc count=1
__global__ void compact(const int *in, int n, int threshold, int *out, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > threshold) {
    int pos = atomicAdd(count, 1);
    out[pos] = in[i];
  }
}
