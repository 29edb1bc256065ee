extern "C" __global__ void e1(float* out, float a, float b, int n) {
  float s = out[threadIdx.x];
  for (int i = 0; i < n; ++i) s = s + a * b;
  out[threadIdx.x] = s;
}
extern "C" __global__ void e2(float* out, float a, float b, int n) {
  float s = out[threadIdx.x];
  float t = a * b;
  for (int i = 0; i < n; ++i) s = s + t;
  out[threadIdx.x] = s;
}
extern "C" __global__ void e4(float* out, float a, float b, float c, float d) {
  out[threadIdx.x] = a * b - c * d;
}
extern "C" __global__ void e6(float* out, float a, float b, float c, float d) {
  float o;
  if (threadIdx.x > 5) o = a * b + c; else o = a * b + d;
  out[threadIdx.x] = o;
}
extern "C" __global__ void e7(float* out, float a, float b, float c, float d) {
  float o = 0;
  if (threadIdx.x > 5) o = a * b + c;
  if (threadIdx.x > 7) o = o + a * b + d;
  out[threadIdx.x] = o;
}
extern "C" __global__ void e8(float* out, float a, float b, float c) {
  float x = (float)threadIdx.x;
  float s = 0;
  for (int i = 0; i < 10; ++i) s = s + x * a;
  out[threadIdx.x] = s;
}
extern "C" __global__ void e9(float* out, float a, float b, float c) {
  float x = (float)threadIdx.x;
  out[threadIdx.x] = (x * a + b) * c + x * x;
}
