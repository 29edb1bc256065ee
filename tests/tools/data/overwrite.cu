// Each thread overwrites its own element (the last value stays), and every thread writes out[0]
// (odd and even threads different values: the GPU's order decides it).
__global__ void overwrite(int *out)
{
  int i = threadIdx.x;
  out[i] = 1;
  out[i] = i + 2;
  out[0] = 7 + (i & 1);
}
