extern "C" __global__ void p1(float* o, float a, float b, float c, float d) { o[0] = a * b + c * d; }
extern "C" __global__ void p2(float* o, float a, float b, float c, float d) { float x = threadIdx.x; o[0] = a * x + c * d; }
extern "C" __global__ void p3(float* o, float a, float b, float c, float d) { float x = threadIdx.x; o[0] = a * b + x * x; }
extern "C" __global__ void p4(float* o, float a, float b, float c, float d) { float x = threadIdx.x, y = threadIdx.y; o[0] = x * x + y * y; }
extern "C" __global__ void p5(float* o, float a, float b, float c, float d) { float x = threadIdx.x * a, y = threadIdx.y * b; o[0] = x * x + y * y; }
extern "C" __global__ void p6(float* o, const float* p, float c, float d) { float x = p[threadIdx.x], y = p[threadIdx.y]; o[0] = x * x + y * y; }
extern "C" __global__ void p7(float* o, float a, float b, float c, float d) { float x = threadIdx.x, y = threadIdx.y; o[0] = (x * a + b) * c + y * y; }
extern "C" __global__ void p8(float* o, float a, float b, float c, float d) { float x = threadIdx.x, y = threadIdx.y; o[0] = y * y + (x * a + b) * c; }
extern "C" __global__ void p9(float* o, float a, float b, float c, float d) { o[0] = a * b - c * d; }
extern "C" __global__ void p10(float* o, const float* p) { float dx = p[threadIdx.x] - 0.5f, dy = p[threadIdx.y] - 0.25f; o[threadIdx.x] = dx * dx + dy * dy; }
extern "C" __global__ void p11(float* o, float a, float b) { float dx = threadIdx.x - a, dy = threadIdx.y - b; o[threadIdx.x] = (dx * dx + dy * dy < 100.0f) ? 1.0f : 0.0f; }
