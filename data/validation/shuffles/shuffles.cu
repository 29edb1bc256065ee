// Each lane's result of every warp shuffle kind, width and argument on the GPU, one line per case:
// "KIND WIDTH ARG: r0 r1 ... r31", lane l's value being l (so that r_l is the lane it read).
// Built and run as in README.md: nvcc -arch=sm_90 -o shuffles shuffles.cu && ./shuffles
#include <cstdio>

__device__ unsigned args_d[16];

__global__ void shuffles(int* out, int count) {
  const int lane = threadIdx.x;
  int c = 0;
  for (int a = 0; a < count; ++a) {
    const unsigned arg = args_d[a];  // read from memory: no case is folded at compile time
#define WIDTH(w)                                                       \
  out[(c++) * 32 + lane] = __shfl_sync(~0u, lane, (int)arg, w);        \
  out[(c++) * 32 + lane] = __shfl_up_sync(~0u, lane, arg, w);          \
  out[(c++) * 32 + lane] = __shfl_down_sync(~0u, lane, arg, w);        \
  out[(c++) * 32 + lane] = __shfl_xor_sync(~0u, lane, (int)arg, w);
    WIDTH(1) WIDTH(2) WIDTH(4) WIDTH(8) WIDTH(16) WIDTH(32)
  }
}

int main() {
  const unsigned args[16] = {0, 1, 2, 3, 5, 7, 15, 16, 17, 31, 32, 33, 63, 64, 0x80000000u, 0xFFFFFFFFu};
  cudaMemcpyToSymbol(args_d, args, sizeof args);
  const int cases = 16 * 6 * 4;
  int* d = nullptr;
  cudaMalloc(&d, cases * 32 * sizeof(int));
  shuffles<<<1, 32>>>(d, 16);
  static int h[cases * 32];
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  const char* kinds[4] = {"shfl", "up", "down", "xor"};
  int c = 0;
  for (int a = 0; a < 16; ++a)
    for (int w = 1; w <= 32; w *= 2)
      for (int k = 0; k < 4; ++k, ++c) {
        std::printf("%s %d %u:", kinds[k], w, args[a]);
        for (int l = 0; l < 32; ++l) std::printf(" %d", h[c * 32 + l]);
        std::printf("\n");
      }
  return 0;
}
