// The shapes of FMA contraction that decide how the model rounds (sim/model/ir_contract.hpp, measured
// in data/validation/fma-contraction/), each result stored so that `warpdiv validate` compares
// the real kernel's output with the model's bit for bit, and one branch on a float.
//   warpdiv validate kernels/zoo/data/fma_shapes.cu --grid 4 --block 64 --arg a=1.1 --arg b=2.3
//     --arg c=-0.7 --arg n=5 --alloc out=1024
__global__ void fma_shapes(float *out, float a, float b, float c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i * 0.37f + a;           // one product, one use: an FMA
  float s = c;
  for (int k = 0; k < n; ++k)
    s = s + a * b;                   // a*b never changes: an FMA in every iteration all the same
  float t = x * b;
  float u = t + c;                   // through a local read once: an FMA
  float w = x * x + s;               // an FMA
  float w2 = s - x * a;              // a product subtracted: an FMA of -x
  float p = x * c;
  float q = p;                       // a copy is no use: q + a is an FMA
  out[4 * i] = s;
  out[4 * i + 1] = u;
  out[4 * i + 2] = w + w2;
  out[4 * i + 3] = q + a;
  if (w > 100.0f) out[4 * i + 2] = 0.0f;   // x > 9.4: lanes from i = 23 on
}
