extern "C" __global__ void m1(int* out, int w, int h, float x0, float y0, float dx, float dy, int max_iter) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  float cx = x0 + px * dx;
  float cy = y0 + py * dy;
  float x = 0.0f, y = 0.0f;
  int iter = 0;
  while (iter < max_iter && x * x + y * y <= 4.0f) {
    float xt = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = xt;
    ++iter;
  }
  out[py * w + px] = iter;
}
extern "C" __global__ void m2(int* out, int w, int h, float x0, float y0, float dx, float dy, int max_iter) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  float cx = x0 + px * dx;
  float cy = y0 + py * dy;
  float x = 0.0f, y = 0.0f;
  int iter = 0;
  for (; iter < max_iter; ++iter) {
    float x2 = x * x, y2 = y * y;
    if (x2 + y2 > 4.0f) break;
    y = 2.0f * x * y + cy;
    x = x2 - y2 + cx;
  }
  out[py * w + px] = iter;
}
extern "C" __global__ void m3(int* out, float a, float b, float c) {
  float t = a * b;
  if (threadIdx.x > 3) out[0] = (int)(t + c);
}
