#include <cstdio>
#include "uses.cu"
int main() {
  int *o; float *of; double *od; cudaMalloc(&o, 4096); cudaMalloc(&of, 4096); cudaMalloc(&od, 8192); int hbuf[32];
  cudaMemset(o, 0, 4096); u01<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u01 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u02<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u02 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u03<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u03 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u04<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u04 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u05<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u05 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u06<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u06 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u07<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u07 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u08<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u08 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u09<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u09 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u10<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u10 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u11<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u11 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u12<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u12 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u13<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u13 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u14<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u14 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u15<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u15 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u16<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u16 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u17<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u17 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u18<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u18 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u19<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u19 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u20<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u20 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u21<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u21 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u22<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u22 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u23<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u23 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u24<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u24 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u25<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u25 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u26<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u26 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u27<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u27 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u28<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u28 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u29<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u29 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u30<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u30 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u31<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u31 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u32<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u32 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u33<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u33 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u34<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u34 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u35<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u35 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u36<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u36 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u37<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u37 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u38<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u38 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u39<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u39 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u40<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u40 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u41<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u41 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u43<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u43 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u44<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u44 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u45<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u45 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u47<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u47 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u48<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u48 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u49<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u49 %d\n", cnt); }
  cudaMemset(o, 0, 4096); u50<<<1, 32>>>(o, of, od, (float)0x1.001p+0, (float)0x1.001p+0, (float)-0x1.002p+0, 0.5f, 0.25f); cudaMemcpy(hbuf, o, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  { int cnt = 0; for (int i = 0; i < 32; ++i) if (hbuf[i]) cnt++; printf("u50 %d\n", cnt); }
  cudaError_t e = cudaDeviceSynchronize(); printf("err %s\n", cudaGetErrorString(e)); }
