__global__ void k1(float *o, const float *a, const float *b, const float *c) { int i = threadIdx.x; o[i] = a[i] * b[i] + c[i]; }
__global__ void k2(float *o, const float *a, const float *b, const float *c) { int i = threadIdx.x; float t = a[i] * b[i]; o[i] = t + c[i]; }
__global__ void k3(float *o, const float *a, const float *b, const float *c) { int i = threadIdx.x; float t = a[i] * b[i]; o[i] = t + c[i]; o[i + 64] = t; }
__global__ void k4(float *o, const float *a, const float *b, const float *c) { int i = threadIdx.x; o[i] = a[i] * b[i] + c[i] * a[i + 1]; }
__global__ void k5(float *o, const float *a, const float *b, const float *c) { int i = threadIdx.x; o[i] = c[i] - a[i] * b[i]; }
__global__ void k6(float *o, const float *a, const float *b, const float *c) { int i = threadIdx.x; o[i] = a[i] * b[i] - c[i]; }
__global__ void k7(double *o, const double *a, const double *b, const double *c) { int i = threadIdx.x; o[i] = a[i] * b[i] + c[i]; }
__global__ void k8(float *o, const float *a, const float *b, const float *c) { int i = threadIdx.x; float s = 0; for (int k = 0; k < 4; ++k) s += a[i + k] * b[k]; o[i] = s; }
__global__ void k9(float *o, const float *a, const float *b, const float *c) { int i = threadIdx.x; float t = a[i] * b[i]; if (c[i] > 0) o[i] = t + c[i]; else o[i] = t; }
