// Made by tools/device-validate-atomic-sectors.py: one global atomic statement per kernel.
__global__ void a0(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[956], 1);
}
__global__ void a1(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[956], 1.0f);
}
__global__ void a2(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[956], 1);
}
__global__ void a3(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[956], 1.0f);
}
__global__ void a4(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 19) atomicAdd(&out[214], 1);
}
__global__ void a5(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 19) atomicAdd(&out[214], 1.0f);
}
__global__ void a6(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 19) res[t] = atomicAdd(&out[214], 1);
}
__global__ void a7(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 19) res[t] = atomicAdd(&out[214], 1.0f);
}
__global__ void a8(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 8 == 0) atomicAdd(&out[430], 1);
}
__global__ void a9(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 8 == 0) atomicAdd(&out[430], 1.0f);
}
__global__ void a10(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 8 == 0) res[t] = atomicAdd(&out[430], 1);
}
__global__ void a11(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 8 == 0) res[t] = atomicAdd(&out[430], 1.0f);
}
__global__ void a12(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 7 == 0) atomicAdd(&out[9], 1);
}
__global__ void a13(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 7 == 0) atomicAdd(&out[9], 1.0f);
}
__global__ void a14(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 7 == 0) res[t] = atomicAdd(&out[9], 1);
}
__global__ void a15(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 7 == 0) res[t] = atomicAdd(&out[9], 1.0f);
}
__global__ void a16(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 2], 1);
}
__global__ void a17(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 2], 1.0f);
}
__global__ void a18(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 2], 1);
}
__global__ void a19(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 2], 1.0f);
}
__global__ void a20(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 3], 1);
}
__global__ void a21(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 3], 1.0f);
}
__global__ void a22(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 3], 1);
}
__global__ void a23(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 3], 1.0f);
}
__global__ void a24(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 4], 1);
}
__global__ void a25(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 4], 1.0f);
}
__global__ void a26(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 4], 1);
}
__global__ void a27(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 4], 1.0f);
}
__global__ void a28(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 8], 1);
}
__global__ void a29(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 8], 1.0f);
}
__global__ void a30(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 8], 1);
}
__global__ void a31(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 8], 1.0f);
}
__global__ void a32(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 16], 1);
}
__global__ void a33(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 16], 1.0f);
}
__global__ void a34(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 16], 1);
}
__global__ void a35(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 16], 1.0f);
}
__global__ void a36(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 30) atomicAdd(&out[t / 8], 1);
}
__global__ void a37(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 30) atomicAdd(&out[t / 8], 1.0f);
}
__global__ void a38(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 30) res[t] = atomicAdd(&out[t / 8], 1);
}
__global__ void a39(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 30) res[t] = atomicAdd(&out[t / 8], 1.0f);
}
__global__ void a40(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t % 2], 1);
}
__global__ void a41(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t % 2], 1.0f);
}
__global__ void a42(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t % 2], 1);
}
__global__ void a43(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t % 2], 1.0f);
}
__global__ void a44(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t % 4], 1);
}
__global__ void a45(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t % 4], 1.0f);
}
__global__ void a46(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t % 4], 1);
}
__global__ void a47(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t % 4], 1.0f);
}
__global__ void a48(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(t % 4) * 8], 1);
}
__global__ void a49(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(t % 4) * 8], 1.0f);
}
__global__ void a50(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[(t % 4) * 8], 1);
}
__global__ void a51(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[(t % 4) * 8], 1.0f);
}
__global__ void a52(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(t % 2) * 8], 1);
}
__global__ void a53(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(t % 2) * 8], 1.0f);
}
__global__ void a54(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[(t % 2) * 8], 1);
}
__global__ void a55(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[(t % 2) * 8], 1.0f);
}
__global__ void a56(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(t % 8) * 4], 1);
}
__global__ void a57(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(t % 8) * 4], 1.0f);
}
__global__ void a58(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[(t % 8) * 4], 1);
}
__global__ void a59(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[(t % 8) * 4], 1.0f);
}
__global__ void a60(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 6 == 0) atomicAdd(&out[(t % 10) * 3], 1);
}
__global__ void a61(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 6 == 0) atomicAdd(&out[(t % 10) * 3], 1.0f);
}
__global__ void a62(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 6 == 0) res[t] = atomicAdd(&out[(t % 10) * 3], 1);
}
__global__ void a63(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 6 == 0) res[t] = atomicAdd(&out[(t % 10) * 3], 1.0f);
}
__global__ void a64(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t], 1);
}
__global__ void a65(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t], 1.0f);
}
__global__ void a66(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t], 1);
}
__global__ void a67(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t], 1.0f);
}
__global__ void a68(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t * 8], 1);
}
__global__ void a69(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t * 8], 1.0f);
}
__global__ void a70(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t * 8], 1);
}
__global__ void a71(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t * 8], 1.0f);
}
__global__ void a72(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(t * 31) % 700], 1);
}
__global__ void a73(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(t * 31) % 700], 1.0f);
}
__global__ void a74(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[(t * 31) % 700], 1);
}
__global__ void a75(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[(t * 31) % 700], 1.0f);
}
__global__ void a76(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 24) atomicAdd(&out[t / 2], 1);
}
__global__ void a77(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 24) atomicAdd(&out[t / 2], 1.0f);
}
__global__ void a78(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 24) res[t] = atomicAdd(&out[t / 2], 1);
}
__global__ void a79(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 24) res[t] = atomicAdd(&out[t / 2], 1.0f);
}
__global__ void a80(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if ((t & 5) != 0) atomicAdd(&out[40 + t / 5], 1);
}
__global__ void a81(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if ((t & 5) != 0) atomicAdd(&out[40 + t / 5], 1.0f);
}
__global__ void a82(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if ((t & 5) != 0) res[t] = atomicAdd(&out[40 + t / 5], 1);
}
__global__ void a83(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if ((t & 5) != 0) res[t] = atomicAdd(&out[40 + t / 5], 1.0f);
}
__global__ void a84(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[956], 1.0);
}
__global__ void a85(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[956], 1.0);
}
__global__ void a86(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 8 == 0) atomicAdd(&out[430], 1.0);
}
__global__ void a87(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 8 == 0) res[t] = atomicAdd(&out[430], 1.0);
}
__global__ void a88(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 7 == 0) atomicAdd(&out[9], 1.0);
}
__global__ void a89(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 7 == 0) res[t] = atomicAdd(&out[9], 1.0);
}
__global__ void a90(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 3], 1.0);
}
__global__ void a91(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 3], 1.0);
}
__global__ void a92(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t % 4], 1.0);
}
__global__ void a93(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t % 4], 1.0);
}
__global__ void a94(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(t % 4) * 4], 1.0);
}
__global__ void a95(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[(t % 4) * 4], 1.0);
}
__global__ void a96(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[956], 1ull);
}
__global__ void a97(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[956], 1ull);
}
__global__ void a98(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 8 == 0) atomicAdd(&out[430], 1ull);
}
__global__ void a99(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 8 == 0) res[t] = atomicAdd(&out[430], 1ull);
}
__global__ void a100(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 7 == 0) atomicAdd(&out[9], 1ull);
}
__global__ void a101(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 7 == 0) res[t] = atomicAdd(&out[9], 1ull);
}
__global__ void a102(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 3], 1ull);
}
__global__ void a103(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 3], 1ull);
}
__global__ void a104(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t % 4], 1ull);
}
__global__ void a105(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t % 4], 1ull);
}
__global__ void a106(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(t % 4) * 4], 1ull);
}
__global__ void a107(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[(t % 4) * 4], 1ull);
}
__global__ void a108(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[77], (int)(t + 1));
}
__global__ void a109(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[77], (int)(t + 1));
}
__global__ void a110(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[77], (float)(t + 1));
}
__global__ void a111(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[77], (float)(t + 1));
}
__global__ void a112(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[77], (unsigned long long)(t + 1));
}
__global__ void a113(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[77], (unsigned long long)(t + 1));
}
__global__ void a114(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicMax(&out[5], (unsigned int)(t + 1));
}
__global__ void a115(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicMax(&out[5], (unsigned int)(t + 1));
}
__global__ void a116(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicMax(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a117(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicMax(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a118(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicMax(&out[t], (unsigned int)(t + 1));
}
__global__ void a119(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicMax(&out[t], (unsigned int)(t + 1));
}
__global__ void a120(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) atomicMax(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a121(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) res[t] = atomicMax(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a122(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicMin(&out[5], (unsigned int)(t + 1));
}
__global__ void a123(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicMin(&out[5], (unsigned int)(t + 1));
}
__global__ void a124(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicMin(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a125(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicMin(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a126(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicMin(&out[t], (unsigned int)(t + 1));
}
__global__ void a127(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicMin(&out[t], (unsigned int)(t + 1));
}
__global__ void a128(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) atomicMin(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a129(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) res[t] = atomicMin(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a130(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicOr(&out[5], (unsigned int)(t + 1));
}
__global__ void a131(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicOr(&out[5], (unsigned int)(t + 1));
}
__global__ void a132(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicOr(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a133(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicOr(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a134(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicOr(&out[t], (unsigned int)(t + 1));
}
__global__ void a135(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicOr(&out[t], (unsigned int)(t + 1));
}
__global__ void a136(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) atomicOr(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a137(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) res[t] = atomicOr(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a138(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAnd(&out[5], (unsigned int)(t + 1));
}
__global__ void a139(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAnd(&out[5], (unsigned int)(t + 1));
}
__global__ void a140(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAnd(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a141(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAnd(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a142(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAnd(&out[t], (unsigned int)(t + 1));
}
__global__ void a143(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAnd(&out[t], (unsigned int)(t + 1));
}
__global__ void a144(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) atomicAnd(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a145(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) res[t] = atomicAnd(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a146(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicSub(&out[5], (unsigned int)(t + 1));
}
__global__ void a147(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicSub(&out[5], (unsigned int)(t + 1));
}
__global__ void a148(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicSub(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a149(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicSub(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a150(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicSub(&out[t], (unsigned int)(t + 1));
}
__global__ void a151(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicSub(&out[t], (unsigned int)(t + 1));
}
__global__ void a152(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) atomicSub(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a153(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) res[t] = atomicSub(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a154(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicXor(&out[5], (unsigned int)(t + 1));
}
__global__ void a155(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicXor(&out[5], (unsigned int)(t + 1));
}
__global__ void a156(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicXor(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a157(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicXor(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a158(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicXor(&out[t], (unsigned int)(t + 1));
}
__global__ void a159(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicXor(&out[t], (unsigned int)(t + 1));
}
__global__ void a160(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) atomicXor(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a161(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) res[t] = atomicXor(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a162(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicExch(&out[5], (unsigned int)(t + 1));
}
__global__ void a163(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicExch(&out[5], (unsigned int)(t + 1));
}
__global__ void a164(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicExch(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a165(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicExch(&out[t / 4], (unsigned int)(t + 1));
}
__global__ void a166(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicExch(&out[t], (unsigned int)(t + 1));
}
__global__ void a167(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicExch(&out[t], (unsigned int)(t + 1));
}
__global__ void a168(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) atomicExch(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a169(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) res[t] = atomicExch(&out[(t % 3) * 8], (unsigned int)(t + 1));
}
__global__ void a170(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicCAS(&out[5], (unsigned int)0, (unsigned int)(t + 1));
}
__global__ void a171(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicCAS(&out[5], (unsigned int)0, (unsigned int)(t + 1));
}
__global__ void a172(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicCAS(&out[t / 4], (unsigned int)0, (unsigned int)(t + 1));
}
__global__ void a173(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicCAS(&out[t / 4], (unsigned int)0, (unsigned int)(t + 1));
}
__global__ void a174(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicCAS(&out[t], (unsigned int)0, (unsigned int)(t + 1));
}
__global__ void a175(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicCAS(&out[t], (unsigned int)0, (unsigned int)(t + 1));
}
__global__ void a176(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) atomicCAS(&out[(t % 3) * 8], (unsigned int)0, (unsigned int)(t + 1));
}
__global__ void a177(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) res[t] = atomicCAS(&out[(t % 3) * 8], (unsigned int)0, (unsigned int)(t + 1));
}
__global__ void a178(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicInc(&out[5], 100u);
}
__global__ void a179(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicInc(&out[5], 100u);
}
__global__ void a180(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicInc(&out[t / 4], 100u);
}
__global__ void a181(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicInc(&out[t / 4], 100u);
}
__global__ void a182(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicInc(&out[t], 100u);
}
__global__ void a183(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicInc(&out[t], 100u);
}
__global__ void a184(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) atomicInc(&out[(t % 3) * 8], 100u);
}
__global__ void a185(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) res[t] = atomicInc(&out[(t % 3) * 8], 100u);
}
__global__ void a186(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicCAS(&out[5], (unsigned long long)0, (unsigned long long)(t + 1));
}
__global__ void a187(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicCAS(&out[t / 4], (unsigned long long)0, (unsigned long long)(t + 1));
}
__global__ void a188(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicCAS(&out[t], (unsigned long long)0, (unsigned long long)(t + 1));
}
__global__ void a189(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicExch(&out[5], (float)(t + 1));
}
__global__ void a190(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicExch(&out[t / 4], (float)(t + 1));
}
__global__ void a191(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicExch(&out[t], (float)(t + 1));
}
__global__ void a192(long long *out, long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicMax(&out[5], (long long)(t + 1));
}
__global__ void a193(long long *out, long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicMax(&out[t / 4], (long long)(t + 1));
}
__global__ void a194(long long *out, long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicMax(&out[t], (long long)(t + 1));
}
__global__ void a195(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicExch(&out[5], (unsigned long long)(t + 1));
}
__global__ void a196(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicExch(&out[t / 4], (unsigned long long)(t + 1));
}
__global__ void a197(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicExch(&out[t], (unsigned long long)(t + 1));
}
__global__ void a198(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[11], 1);
}
__global__ void a199(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[11], 1.0f);
}
__global__ void a200(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 3], 1);
}
__global__ void a201(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 3], 1.0f);
}
__global__ void a202(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[11], 1);
}
__global__ void a203(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[11], 1.0f);
}
__global__ void a204(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 3], 1);
}
__global__ void a205(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 3], 1.0f);
}
__global__ void a206(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[11], 1);
}
__global__ void a207(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[11], 1.0f);
}
__global__ void a208(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 3], 1);
}
__global__ void a209(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 3], 1.0f);
}
__global__ void a210(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[11], 1);
}
__global__ void a211(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[11], 1.0f);
}
__global__ void a212(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 3], 1);
}
__global__ void a213(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 3], 1.0f);
}
__global__ void a214(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[threadIdx.y], 1);
}
__global__ void a215(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[threadIdx.y], 1.0f);
}
__global__ void a216(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[threadIdx.x % 4], 1);
}
__global__ void a217(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[threadIdx.x % 4], 1.0f);
}
__global__ void a218(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[11], 1);
}
__global__ void a219(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[11], 1.0f);
}
__global__ void a220(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 3], 1);
}
__global__ void a221(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 3], 1.0f);
}
__global__ void a222(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[threadIdx.y], 1);
}
__global__ void a223(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[threadIdx.y], 1.0f);
}
__global__ void a224(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[threadIdx.x % 4], 1);
}
__global__ void a225(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[threadIdx.x % 4], 1.0f);
}
__global__ void a226(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[11], 1);
}
__global__ void a227(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[11], 1.0f);
}
__global__ void a228(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 3], 1);
}
__global__ void a229(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 3], 1.0f);
}
__global__ void a230(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[threadIdx.y], 1);
}
__global__ void a231(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[threadIdx.y], 1.0f);
}
__global__ void a232(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[threadIdx.x % 4], 1);
}
__global__ void a233(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[threadIdx.x % 4], 1.0f);
}
__global__ void a234(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[11], 1);
}
__global__ void a235(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[11], 1.0f);
}
__global__ void a236(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 3], 1);
}
__global__ void a237(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[t / 3], 1.0f);
}
__global__ void a238(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[threadIdx.y], 1);
}
__global__ void a239(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[threadIdx.y], 1.0f);
}
__global__ void a240(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[threadIdx.x % 4], 1);
}
__global__ void a241(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAdd(&out[threadIdx.x % 4], 1.0f);
}
__global__ void a242(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicCAS(&out[788], (unsigned long long)0, (unsigned long long)(t + 1));
}
__global__ void a243(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(6 * t + 21) % 48], (unsigned long long)(t + 1));
}
__global__ void a244(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 3 == 1) atomicAdd(&out[(t * 24) % 700], 1ull);
}
__global__ void a245(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 24) res[t] = atomicOr(&out[(t * 1) % 700], (int)(t + 1));
}
__global__ void a246(long long *out, long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 4 == 0) res[t] = atomicMax(&out[251], 1ll);
}
__global__ void a247(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 31) res[t] = atomicMin(&out[(t % 4) * 5], 1u);
}
__global__ void a248(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 30) res[t] = atomicOr(&out[503], (unsigned int)(t + 1));
}
__global__ void a249(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 23) res[t] = atomicSub(&out[t / 5], 1);
}
__global__ void a250(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 30) atomicSub(&out[(9 * t + 0) % 217], (unsigned int)(t + 1));
}
__global__ void a251(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicXor(&out[t / 8], 1u);
}
__global__ void a252(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 8 == 1) res[t] = atomicAnd(&out[(t % 9) * 8], (unsigned int)(t + 1));
}
__global__ void a253(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 17) atomicAdd(&out[(t % 3) * 4], 1.0f);
}
__global__ void a254(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 4 == 1) res[t] = atomicExch(&out[409], 1u);
}
__global__ void a255(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 6 == 0) res[t] = atomicAdd(&out[(t % 8) * 4], 1.0f);
}
__global__ void a256(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicExch(&out[538], 1u);
}
__global__ void a257(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 4 == 0) atomicXor(&out[(t % 2) * 2], (unsigned int)(t + 1));
}
__global__ void a258(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 8) atomicAdd(&out[(1 * t + 30) % 40], 1ull);
}
__global__ void a259(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 21) atomicXor(&out[(t % 1) * 5], (unsigned int)(t + 1));
}
__global__ void a260(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) res[t] = atomicAnd(&out[(5 * t + 58) % 175], 1);
}
__global__ void a261(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if ((t & 19) != 0) res[t] = atomicAdd(&out[558], (double)(t + 1));
}
__global__ void a262(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 2) res[t] = atomicAdd(&out[t / 2], (float)(t + 1));
}
__global__ void a263(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 25) atomicMin(&out[(t % 10) * 6], (unsigned int)(t + 1));
}
__global__ void a264(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 3 == 0) res[t] = atomicAdd(&out[(1 * t + 12) % 195], (float)(t + 1));
}
__global__ void a265(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicSub(&out[(4 * t + 8) % 22], 1u);
}
__global__ void a266(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 3 == 0) atomicSub(&out[t / 8], (unsigned int)(t + 1));
}
__global__ void a267(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicSub(&out[11], (unsigned int)(t + 1));
}
__global__ void a268(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 22) res[t] = atomicExch(&out[(6 * t + 50) % 10], (float)(t + 1));
}
__global__ void a269(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if ((t & 26) != 0) atomicAdd(&out[(t % 9) * 8], 1.0);
}
__global__ void a270(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 6 == 1) res[t] = atomicXor(&out[(0 * t + 20) % 8], (unsigned int)(t + 1));
}
__global__ void a271(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 3) atomicAdd(&out[946], (unsigned int)(t + 1));
}
__global__ void a272(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 5 == 0) res[t] = atomicXor(&out[(t * 4) % 700], (unsigned int)(t + 1));
}
__global__ void a273(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 25) res[t] = atomicCAS(&out[(2 * t + 60) % 143], (unsigned int)0, (unsigned int)(t + 1));
}
__global__ void a274(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 12) res[t] = atomicOr(&out[758], (int)(t + 1));
}
__global__ void a275(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 5) res[t] = atomicAdd(&out[31], 1);
}
__global__ void a276(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 3 == 0) res[t] = atomicCAS(&out[t / 8], (int)0, 1);
}
__global__ void a277(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if ((t & 15) != 0) atomicXor(&out[(t % 8) * 7], 1u);
}
__global__ void a278(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 9) res[t] = atomicSub(&out[(t % 2) * 7], (unsigned int)(t + 1));
}
__global__ void a279(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 3 == 0) atomicAnd(&out[73], 1u);
}
__global__ void a280(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if ((t & 27) != 0) atomicMin(&out[(t % 3) * 7], 1u);
}
__global__ void a281(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if ((t & 20) != 0) res[t] = atomicSub(&out[(t * 1) % 700], (int)(t + 1));
}
__global__ void a282(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[t / 9], (int)(t + 1));
}
__global__ void a283(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 2 == 0) atomicAdd(&out[(t % 9) * 4], 1u);
}
__global__ void a284(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicMax(&out[t / 9], 1);
}
__global__ void a285(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[(t % 7) * 7], (float)(t + 1));
}
__global__ void a286(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 21) res[t] = atomicMax(&out[t / 1], (unsigned int)(t + 1));
}
__global__ void a287(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 24) res[t] = atomicCAS(&out[t / 7], (int)0, (int)(t + 1));
}
__global__ void a288(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 18) res[t] = atomicXor(&out[59], (unsigned int)(t + 1));
}
__global__ void a289(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 6 == 0) atomicAdd(&out[(t * 23) % 700], 1.0f);
}
__global__ void a290(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 2 == 1) res[t] = atomicAdd(&out[(t % 6) * 9], 1.0);
}
__global__ void a291(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 3 == 1) res[t] = atomicAdd(&out[(t % 4) * 2], (float)(t + 1));
}
__global__ void a292(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if ((t & 19) != 0) res[t] = atomicMin(&out[(t % 3) * 7], 1u);
}
__global__ void a293(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 2 == 0) res[t] = atomicSub(&out[(7 * t + 43) % 125], 1);
}
__global__ void a294(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 1) res[t] = atomicMin(&out[t / 8], (int)(t + 1));
}
__global__ void a295(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 19) res[t] = atomicExch(&out[(t * 15) % 700], (int)(t + 1));
}
__global__ void a296(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 4) res[t] = atomicXor(&out[(4 * t + 5) % 120], 1u);
}
__global__ void a297(double *out, double *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 7) atomicAdd(&out[(t * 7) % 700], (double)(t + 1));
}
__global__ void a298(float *out, float *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= 30) res[t] = atomicAdd(&out[(t % 13) * 5], 1.0f);
}
__global__ void a299(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (true) atomicAdd(&out[731], 1u);
}
__global__ void a300(int *out, int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 5 == 1) res[t] = atomicAdd(&out[(0 * t + 26) % 134], 1);
}
__global__ void a301(unsigned int *out, unsigned int *res) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t % 3 == 1) res[t] = atomicInc(&out[(3 * t + 15) % 170], 100u);
}
__global__ void a302(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.x;
  if (t % 7 == 0) atomicAdd(&out[9], 1ull);
}
__global__ void a303(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.x;
  if (t % 8 == 0) atomicAdd(&out[430], 1ull);
}
__global__ void a304(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.x;
  if (t < 19) atomicAdd(&out[430], 1ull);
}
__global__ void a305(unsigned long long *out, unsigned long long *res) {
  int t = threadIdx.x;
  if (true) atomicAdd(&out[430], 1ull);
}
__global__ void a306(int *out, int *res) {
  int t = threadIdx.x;
  if (t % 7 == 0) atomicAdd(&out[9], 1);
}
__global__ void a307(int *out, int *res) {
  int t = threadIdx.x;
  if (t % 8 == 0) atomicAdd(&out[430], 1);
}
__global__ void a308(int *out, int *res) {
  int t = threadIdx.x;
  if (t < 19) atomicAdd(&out[430], 1);
}
__global__ void a309(int *out, int *res) {
  int t = threadIdx.x;
  if (true) atomicAdd(&out[430], 1);
}
#ifndef __WARPDIV__
int main() {
  void *out, *res;
  cudaMalloc(&out, 65536);
  cudaMalloc(&res, 65536);
  cudaMemset(out, 0, 65536);
  cudaMemset(res, 0, 65536);
  a0<<<1, 32>>>((int *)out, (int *)res);
  a1<<<1, 32>>>((float *)out, (float *)res);
  a2<<<1, 32>>>((int *)out, (int *)res);
  a3<<<1, 32>>>((float *)out, (float *)res);
  a4<<<1, 32>>>((int *)out, (int *)res);
  a5<<<1, 32>>>((float *)out, (float *)res);
  a6<<<1, 32>>>((int *)out, (int *)res);
  a7<<<1, 32>>>((float *)out, (float *)res);
  a8<<<1, 32>>>((int *)out, (int *)res);
  a9<<<1, 32>>>((float *)out, (float *)res);
  a10<<<1, 32>>>((int *)out, (int *)res);
  a11<<<1, 32>>>((float *)out, (float *)res);
  a12<<<1, 32>>>((int *)out, (int *)res);
  a13<<<1, 32>>>((float *)out, (float *)res);
  a14<<<1, 32>>>((int *)out, (int *)res);
  a15<<<1, 32>>>((float *)out, (float *)res);
  a16<<<1, 32>>>((int *)out, (int *)res);
  a17<<<1, 32>>>((float *)out, (float *)res);
  a18<<<1, 32>>>((int *)out, (int *)res);
  a19<<<1, 32>>>((float *)out, (float *)res);
  a20<<<1, 32>>>((int *)out, (int *)res);
  a21<<<1, 32>>>((float *)out, (float *)res);
  a22<<<1, 32>>>((int *)out, (int *)res);
  a23<<<1, 32>>>((float *)out, (float *)res);
  a24<<<1, 32>>>((int *)out, (int *)res);
  a25<<<1, 32>>>((float *)out, (float *)res);
  a26<<<1, 32>>>((int *)out, (int *)res);
  a27<<<1, 32>>>((float *)out, (float *)res);
  a28<<<1, 32>>>((int *)out, (int *)res);
  a29<<<1, 32>>>((float *)out, (float *)res);
  a30<<<1, 32>>>((int *)out, (int *)res);
  a31<<<1, 32>>>((float *)out, (float *)res);
  a32<<<1, 32>>>((int *)out, (int *)res);
  a33<<<1, 32>>>((float *)out, (float *)res);
  a34<<<1, 32>>>((int *)out, (int *)res);
  a35<<<1, 32>>>((float *)out, (float *)res);
  a36<<<1, 32>>>((int *)out, (int *)res);
  a37<<<1, 32>>>((float *)out, (float *)res);
  a38<<<1, 32>>>((int *)out, (int *)res);
  a39<<<1, 32>>>((float *)out, (float *)res);
  a40<<<1, 32>>>((int *)out, (int *)res);
  a41<<<1, 32>>>((float *)out, (float *)res);
  a42<<<1, 32>>>((int *)out, (int *)res);
  a43<<<1, 32>>>((float *)out, (float *)res);
  a44<<<1, 32>>>((int *)out, (int *)res);
  a45<<<1, 32>>>((float *)out, (float *)res);
  a46<<<1, 32>>>((int *)out, (int *)res);
  a47<<<1, 32>>>((float *)out, (float *)res);
  a48<<<1, 32>>>((int *)out, (int *)res);
  a49<<<1, 32>>>((float *)out, (float *)res);
  a50<<<1, 32>>>((int *)out, (int *)res);
  a51<<<1, 32>>>((float *)out, (float *)res);
  a52<<<1, 32>>>((int *)out, (int *)res);
  a53<<<1, 32>>>((float *)out, (float *)res);
  a54<<<1, 32>>>((int *)out, (int *)res);
  a55<<<1, 32>>>((float *)out, (float *)res);
  a56<<<1, 32>>>((int *)out, (int *)res);
  a57<<<1, 32>>>((float *)out, (float *)res);
  a58<<<1, 32>>>((int *)out, (int *)res);
  a59<<<1, 32>>>((float *)out, (float *)res);
  a60<<<1, 32>>>((int *)out, (int *)res);
  a61<<<1, 32>>>((float *)out, (float *)res);
  a62<<<1, 32>>>((int *)out, (int *)res);
  a63<<<1, 32>>>((float *)out, (float *)res);
  a64<<<1, 32>>>((int *)out, (int *)res);
  a65<<<1, 32>>>((float *)out, (float *)res);
  a66<<<1, 32>>>((int *)out, (int *)res);
  a67<<<1, 32>>>((float *)out, (float *)res);
  a68<<<1, 32>>>((int *)out, (int *)res);
  a69<<<1, 32>>>((float *)out, (float *)res);
  a70<<<1, 32>>>((int *)out, (int *)res);
  a71<<<1, 32>>>((float *)out, (float *)res);
  a72<<<1, 32>>>((int *)out, (int *)res);
  a73<<<1, 32>>>((float *)out, (float *)res);
  a74<<<1, 32>>>((int *)out, (int *)res);
  a75<<<1, 32>>>((float *)out, (float *)res);
  a76<<<1, 32>>>((int *)out, (int *)res);
  a77<<<1, 32>>>((float *)out, (float *)res);
  a78<<<1, 32>>>((int *)out, (int *)res);
  a79<<<1, 32>>>((float *)out, (float *)res);
  a80<<<1, 32>>>((int *)out, (int *)res);
  a81<<<1, 32>>>((float *)out, (float *)res);
  a82<<<1, 32>>>((int *)out, (int *)res);
  a83<<<1, 32>>>((float *)out, (float *)res);
  a84<<<1, 32>>>((double *)out, (double *)res);
  a85<<<1, 32>>>((double *)out, (double *)res);
  a86<<<1, 32>>>((double *)out, (double *)res);
  a87<<<1, 32>>>((double *)out, (double *)res);
  a88<<<1, 32>>>((double *)out, (double *)res);
  a89<<<1, 32>>>((double *)out, (double *)res);
  a90<<<1, 32>>>((double *)out, (double *)res);
  a91<<<1, 32>>>((double *)out, (double *)res);
  a92<<<1, 32>>>((double *)out, (double *)res);
  a93<<<1, 32>>>((double *)out, (double *)res);
  a94<<<1, 32>>>((double *)out, (double *)res);
  a95<<<1, 32>>>((double *)out, (double *)res);
  a96<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a97<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a98<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a99<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a100<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a101<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a102<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a103<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a104<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a105<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a106<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a107<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a108<<<1, 32>>>((int *)out, (int *)res);
  a109<<<1, 32>>>((int *)out, (int *)res);
  a110<<<1, 32>>>((float *)out, (float *)res);
  a111<<<1, 32>>>((float *)out, (float *)res);
  a112<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a113<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a114<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a115<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a116<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a117<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a118<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a119<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a120<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a121<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a122<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a123<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a124<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a125<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a126<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a127<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a128<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a129<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a130<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a131<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a132<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a133<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a134<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a135<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a136<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a137<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a138<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a139<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a140<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a141<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a142<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a143<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a144<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a145<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a146<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a147<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a148<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a149<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a150<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a151<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a152<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a153<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a154<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a155<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a156<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a157<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a158<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a159<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a160<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a161<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a162<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a163<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a164<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a165<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a166<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a167<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a168<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a169<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a170<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a171<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a172<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a173<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a174<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a175<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a176<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a177<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a178<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a179<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a180<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a181<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a182<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a183<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a184<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a185<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a186<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a187<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a188<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a189<<<1, 32>>>((float *)out, (float *)res);
  a190<<<1, 32>>>((float *)out, (float *)res);
  a191<<<1, 32>>>((float *)out, (float *)res);
  a192<<<1, 32>>>((long long *)out, (long long *)res);
  a193<<<1, 32>>>((long long *)out, (long long *)res);
  a194<<<1, 32>>>((long long *)out, (long long *)res);
  a195<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a196<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a197<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a198<<<1, 20>>>((int *)out, (int *)res);
  a199<<<1, 20>>>((float *)out, (float *)res);
  a200<<<1, 20>>>((int *)out, (int *)res);
  a201<<<1, 20>>>((float *)out, (float *)res);
  a202<<<1, 45>>>((int *)out, (int *)res);
  a203<<<1, 45>>>((float *)out, (float *)res);
  a204<<<1, 45>>>((int *)out, (int *)res);
  a205<<<1, 45>>>((float *)out, (float *)res);
  a206<<<1, 70>>>((int *)out, (int *)res);
  a207<<<1, 70>>>((float *)out, (float *)res);
  a208<<<1, 70>>>((int *)out, (int *)res);
  a209<<<1, 70>>>((float *)out, (float *)res);
  a210<<<1, dim3(8, 4)>>>((int *)out, (int *)res);
  a211<<<1, dim3(8, 4)>>>((float *)out, (float *)res);
  a212<<<1, dim3(8, 4)>>>((int *)out, (int *)res);
  a213<<<1, dim3(8, 4)>>>((float *)out, (float *)res);
  a214<<<1, dim3(8, 4)>>>((int *)out, (int *)res);
  a215<<<1, dim3(8, 4)>>>((float *)out, (float *)res);
  a216<<<1, dim3(8, 4)>>>((int *)out, (int *)res);
  a217<<<1, dim3(8, 4)>>>((float *)out, (float *)res);
  a218<<<1, dim3(5, 7)>>>((int *)out, (int *)res);
  a219<<<1, dim3(5, 7)>>>((float *)out, (float *)res);
  a220<<<1, dim3(5, 7)>>>((int *)out, (int *)res);
  a221<<<1, dim3(5, 7)>>>((float *)out, (float *)res);
  a222<<<1, dim3(5, 7)>>>((int *)out, (int *)res);
  a223<<<1, dim3(5, 7)>>>((float *)out, (float *)res);
  a224<<<1, dim3(5, 7)>>>((int *)out, (int *)res);
  a225<<<1, dim3(5, 7)>>>((float *)out, (float *)res);
  a226<<<1, dim3(12, 3)>>>((int *)out, (int *)res);
  a227<<<1, dim3(12, 3)>>>((float *)out, (float *)res);
  a228<<<1, dim3(12, 3)>>>((int *)out, (int *)res);
  a229<<<1, dim3(12, 3)>>>((float *)out, (float *)res);
  a230<<<1, dim3(12, 3)>>>((int *)out, (int *)res);
  a231<<<1, dim3(12, 3)>>>((float *)out, (float *)res);
  a232<<<1, dim3(12, 3)>>>((int *)out, (int *)res);
  a233<<<1, dim3(12, 3)>>>((float *)out, (float *)res);
  a234<<<1, dim3(3, 11)>>>((int *)out, (int *)res);
  a235<<<1, dim3(3, 11)>>>((float *)out, (float *)res);
  a236<<<1, dim3(3, 11)>>>((int *)out, (int *)res);
  a237<<<1, dim3(3, 11)>>>((float *)out, (float *)res);
  a238<<<1, dim3(3, 11)>>>((int *)out, (int *)res);
  a239<<<1, dim3(3, 11)>>>((float *)out, (float *)res);
  a240<<<1, dim3(3, 11)>>>((int *)out, (int *)res);
  a241<<<1, dim3(3, 11)>>>((float *)out, (float *)res);
  a242<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a243<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a244<<<1, dim3(8, 4)>>>((unsigned long long *)out, (unsigned long long *)res);
  a245<<<1, dim3(8, 4)>>>((int *)out, (int *)res);
  a246<<<1, 50>>>((long long *)out, (long long *)res);
  a247<<<1, 64>>>((unsigned int *)out, (unsigned int *)res);
  a248<<<1, 64>>>((unsigned int *)out, (unsigned int *)res);
  a249<<<1, 32>>>((int *)out, (int *)res);
  a250<<<1, 64>>>((unsigned int *)out, (unsigned int *)res);
  a251<<<1, dim3(8, 4)>>>((unsigned int *)out, (unsigned int *)res);
  a252<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a253<<<1, dim3(6, 9)>>>((float *)out, (float *)res);
  a254<<<1, dim3(6, 9)>>>((unsigned int *)out, (unsigned int *)res);
  a255<<<1, dim3(6, 9)>>>((float *)out, (float *)res);
  a256<<<1, dim3(8, 4)>>>((unsigned int *)out, (unsigned int *)res);
  a257<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a258<<<1, dim3(6, 9)>>>((unsigned long long *)out, (unsigned long long *)res);
  a259<<<1, dim3(6, 9)>>>((unsigned int *)out, (unsigned int *)res);
  a260<<<1, 64>>>((int *)out, (int *)res);
  a261<<<1, dim3(8, 4)>>>((double *)out, (double *)res);
  a262<<<1, dim3(8, 4)>>>((float *)out, (float *)res);
  a263<<<1, dim3(6, 9)>>>((unsigned int *)out, (unsigned int *)res);
  a264<<<1, dim3(8, 4)>>>((float *)out, (float *)res);
  a265<<<1, dim3(6, 9)>>>((unsigned int *)out, (unsigned int *)res);
  a266<<<1, dim3(8, 4)>>>((unsigned int *)out, (unsigned int *)res);
  a267<<<1, dim3(8, 4)>>>((unsigned int *)out, (unsigned int *)res);
  a268<<<1, 32>>>((float *)out, (float *)res);
  a269<<<1, dim3(6, 9)>>>((double *)out, (double *)res);
  a270<<<1, 64>>>((unsigned int *)out, (unsigned int *)res);
  a271<<<1, dim3(8, 4)>>>((unsigned int *)out, (unsigned int *)res);
  a272<<<1, dim3(6, 9)>>>((unsigned int *)out, (unsigned int *)res);
  a273<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a274<<<1, 50>>>((int *)out, (int *)res);
  a275<<<1, 32>>>((int *)out, (int *)res);
  a276<<<1, 32>>>((int *)out, (int *)res);
  a277<<<1, dim3(6, 9)>>>((unsigned int *)out, (unsigned int *)res);
  a278<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a279<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a280<<<1, dim3(8, 4)>>>((unsigned int *)out, (unsigned int *)res);
  a281<<<1, 32>>>((int *)out, (int *)res);
  a282<<<1, 32>>>((int *)out, (int *)res);
  a283<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a284<<<1, 50>>>((int *)out, (int *)res);
  a285<<<1, dim3(8, 4)>>>((float *)out, (float *)res);
  a286<<<1, dim3(6, 9)>>>((unsigned int *)out, (unsigned int *)res);
  a287<<<1, dim3(8, 4)>>>((int *)out, (int *)res);
  a288<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a289<<<1, dim3(8, 4)>>>((float *)out, (float *)res);
  a290<<<1, 32>>>((double *)out, (double *)res);
  a291<<<1, 32>>>((float *)out, (float *)res);
  a292<<<1, 50>>>((unsigned int *)out, (unsigned int *)res);
  a293<<<1, 50>>>((int *)out, (int *)res);
  a294<<<1, 32>>>((int *)out, (int *)res);
  a295<<<1, 64>>>((int *)out, (int *)res);
  a296<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a297<<<1, dim3(6, 9)>>>((double *)out, (double *)res);
  a298<<<1, 50>>>((float *)out, (float *)res);
  a299<<<1, 64>>>((unsigned int *)out, (unsigned int *)res);
  a300<<<1, 64>>>((int *)out, (int *)res);
  a301<<<1, 32>>>((unsigned int *)out, (unsigned int *)res);
  a302<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a303<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a304<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a305<<<1, 32>>>((unsigned long long *)out, (unsigned long long *)res);
  a306<<<1, 32>>>((int *)out, (int *)res);
  a307<<<1, 32>>>((int *)out, (int *)res);
  a308<<<1, 32>>>((int *)out, (int *)res);
  a309<<<1, 32>>>((int *)out, (int *)res);
  cudaDeviceSynchronize();
  return 0;
}
#endif
