// Exch, CAS, inc, dec and float atomicAdd where each thread has its own elements (the results do
// not depend on the threads' order, so the GPU's outputs must equal the model's bit for bit), and
// two where all threads share one element (left out of the comparison: their order decides).
// Float atomicAdd flushes a subnormal operand to zero on global memory (PTX atom.add.f32 .ftz),
// not on shared memory: `tiny` is subnormal for i % 7 != 0, so ftiny[i] ends +0 and stiny[i] keeps it.
// tools/device-validate-atomics runs it on the GPU:
// warpdiv validate per_thread.cu --grid '(n+127)/128' --block 128 --arg n=1000 --alloc fsum=1000 \
//   --alloc ftiny=1000 --alloc stiny=1000 --alloc swapped=1000 --alloc cas=1000 --alloc ctr=1000 \
//   --alloc last=1 --alloc total=1
__global__ void per_thread(float *fsum, float *ftiny, float *stiny, int *swapped, int *cas, unsigned *ctr,
                           int *last, float *total, int n) {
  __shared__ float s[128];
  s[threadIdx.x] = 0.0f;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float tiny = (float)(i % 7) * 1.0e-40f;
    atomicAdd(&fsum[i], tiny);
    atomicAdd(&fsum[i], 1.5f);
    atomicAdd(&ftiny[i], tiny);
    atomicAdd(&s[threadIdx.x], tiny);
    stiny[i] = s[threadIdx.x];
    swapped[i] = atomicExch(&cas[i], i * 3);
    atomicCAS(&cas[i], i * 3, i + 1);
    atomicCAS(&cas[i], 0, -5);
    atomicInc(&ctr[i], 2u);
    atomicInc(&ctr[i], 2u);
    atomicInc(&ctr[i], 2u);
    atomicDec(&ctr[i], 5u);
    atomicExch(last, i);
    atomicAdd(total, 0.1f);
  }
}
