__device__ float mul(float a, float b) { return a * b; }
__global__ void u01(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; out[t + 64] = (int)p; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u02(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float m = p * 3.0f; out[t + 64] = (int)m; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u03(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float r = p - d; out[t + 64] = (int)r; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u04(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float r = p + d; out[t + 64] = (int)r; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u05(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; of[t] = p; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u06(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; if (p > 0.5f) out[t + 64] = 1; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u07(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float r = d / p; out[t + 64] = (int)r; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u08(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float r = sqrtf(p); of[t] = r; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u09(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float r1 = p + d; float r2 = p + 2.0f * d; float r3 = p + e; float r4 = p + 3.0f; of[t] = r1 + r2 + r3 + r4; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u10(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float r1 = p + d; float r2 = p + e; float r3 = p + 3.0f; of[t] = r1 * r2 * r3; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u11(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float r = -p; of[t] = r; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u12(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float r = d - p; of[t] = r; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u13(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; double r = p; od[t] = r; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u14(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float r = fabsf(p); of[t] = r; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u15(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; if (p + c > 0.0f) out[t] = 1; of[t] = p;
}
__global__ void u16(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; of[t] = p; if (q > 0.0f) out[t] = 1;
}
__global__ void u17(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; of[t] = p * p; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u18(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; float r = p - 1.0f; of[t] = r; if (q > 0.0f) out[t] = 1;
}
__global__ void u19(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = c + p; float r = e - p; of[t] = r; if (q > 0.0f) out[t] = 1;
}
__global__ void u20(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; if (t < 16) of[t] = p; if (q > 0.0f) out[t] = 1;
}
__global__ void u21(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; if (t < 16) { of[t] = p; } else { of[t] = 1.0f; } if (p + c > 0.0f) out[t] = 1;
}
__global__ void u22(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = fmaxf(p, d); of[t] = q; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u23(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; bool z = p != p; out[t + 64] = z; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u24(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; float s = q + p; of[t] = s; if (q > 0.0f) out[t] = 1;
}
__global__ void u25(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; float s = p + p; of[t] = s; if (q > 0.0f) out[t] = 1;
}
__global__ void u26(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; of[t] = p + d; of[t + 32] = p + e; of[t + 64] = p + 1.0f; of[t + 96] = p + 2.0f; if (q > 0.0f) out[t] = 1;
}
__global__ void u27(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; of[t] = p + d; of[t + 32] = p + e; of[t + 64] = p + 1.0f; if (q > 0.0f) out[t] = 1;
}
__global__ void u28(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  double p = (double)a * (double)b; p = p * (double)a; double q = p * (double)b; if (q + (double)c * 0.0 > 0.0) out[t] = 1;
}
__global__ void u29(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = mul(a, b); out[t + 64] = (int)p; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u30(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  double p = (double)a * (double)b; double q = p * p; out[t + 64] = (int)q; double r = p + (double)c; if (r > 0.0) out[t] = 1;
}
__global__ void u31(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; if (q > 0.0f) out[t] = 1; if (p > 2.0f) out[t + 64] = 1;
}
__global__ void u32(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = t < 40 ? p : 0.0f; of[t] = q; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u33(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float s = 0.0f; for (int i = 0; i < 2; ++i) s = s + p; of[t] = s; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u34(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; out[t + 64] = (int)(p * 1000.0f); if (p + c > 0.0f) out[t] = 1;
}
__global__ void u35(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; out[t + 64] = (int)(p + d); if (p + c > 0.0f) out[t] = 1;
}
__global__ void u36(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; out[t + 64] = (p + d > 0.0f); if (p + c > 0.0f) out[t] = 1;
}
__global__ void u37(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float dead = p * 3.0f; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u38(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  double p = (double)a * (double)b; p = p * p; double q = p * (double)a; out[t + 64] = (int)q; if (p + (double)c > 0.0) out[t] = 1;
}
__global__ void u39(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; of[t] = q * 2.0f + p; if (q > 0.0f) out[t] = 1;
}
__global__ void u40(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; out[t + 64] = (int)(q * p); if (q > 0.0f) out[t] = 1;
}
__global__ void u41(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; for (int i = 0; i < 2; ++i) { if (p + c > 0.0f) out[t] = 1; }
}
__global__ void u43(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; if (t < 16) out[t + 64] = (int)p; if (p + c > 0.0f) out[t] = 1;
}
__global__ void u44(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; if (t >= 0) { if (p + c > 0.0f) out[t] = 1; } else { out[t + 64] = (int)p; }
}
__global__ void u45(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; float r = p + c; out[t + 64] = (int)(q - r); if (q > 0.0f) out[t] = 1;
}
__global__ void u47(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; atomicAdd(of, p); if (p + c > 0.0f) out[t] = 1;
}
__global__ void u48(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; if (q > 0.0f) out[t] = 1; of[t] = p;
}
__global__ void u49(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; float q = p + c; if (q > 0.0f) out[t] = 1; out[t + 64] = (int)p;
}
__global__ void u50(int *out, float *of, double *od, float a, float b, float c, float d, float e) {
  int t = threadIdx.x;
  float p = a * b; out[t + 64] = (int)p; float q = p + c; if (q > 0.0f) out[t] = 1;
}
