// Strided loads: thread i reads element i * stride, so a warp's 32 loads spread over 32 * stride
// floats (stride 1: 4 sectors per request; stride 8 or more: one sector per lane, 32 per
// request) while its stores stay coalesced.
//
// Meant for: n = 1000 outputs, stride 3, blocks of 128:
//   warpdiv analyze kernels/zoo/strided_load.cu --grid 8 --block 128 --arg n=1000 --arg stride=3
__global__ void strided_load(const float *in, float *out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * stride];
}
