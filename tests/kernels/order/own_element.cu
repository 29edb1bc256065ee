// Order dependence per access: thread i reads only its own element at line 9, which
// no other thread writes; threads 0 and 1 both write flag[32], which line 10 reads. Only line 10
// is order-dependent. Launch: --grid 1 --block 32 --alloc flag=33 --alloc out=32
// (tests/kernels/shared_values_test.cpp, tests/tools/atomics_cli_test.cpp).
__global__ void own_element(int *flag, int *out) {
  int i = threadIdx.x;
  flag[i] = i;
  if (i < 2) flag[32] = i + 5;
  if (flag[i] > 3) out[i] = 1;
  if (flag[32] == 6) out[i] = 2;
}
