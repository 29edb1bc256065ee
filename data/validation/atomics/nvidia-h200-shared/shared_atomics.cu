#include <cstdio>
__global__ void k000(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 16], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k001(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[t % 16], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k002(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 16], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k003(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[t % 16], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k004(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[t % 16], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k005(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[t % 16], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k006(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 8], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k007(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[t % 8], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k008(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 8], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k009(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[t % 8], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k010(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[t % 8], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k011(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[t % 8], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k012(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 4], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k013(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[t % 4], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k014(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 4], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k015(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[t % 4], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k016(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[t % 4], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k017(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[t % 4], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k018(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t / 2], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k019(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[t / 2], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k020(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t / 2], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k021(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[t / 2], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k022(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[t / 2], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k023(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[t / 2], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k024(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[5], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k025(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[5], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k026(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[5], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k027(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[5], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k028(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[5], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k029(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[5], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k030(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 2) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k031(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(t % 2) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k032(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 2) * 32], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k033(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[(t % 2) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k034(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[(t % 2) * 32], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k035(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[(t % 2) * 32], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k036(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 4) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k037(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(t % 4) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k038(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 4) * 32], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k039(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[(t % 4) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k040(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[(t % 4) * 32], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k041(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[(t % 4) * 32], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k042(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 8) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k043(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(t % 8) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k044(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 8) * 32], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k045(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[(t % 8) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k046(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[(t % 8) * 32], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k047(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[(t % 8) * 32], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k048(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 2) * 32 + t / 16], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k049(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(t % 2) * 32 + t / 16], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k050(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 2) * 32 + t / 16], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k051(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[(t % 2) * 32 + t / 16], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k052(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[(t % 2) * 32 + t / 16], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k053(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[(t % 2) * 32 + t / 16], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k054(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k055(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[t * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k056(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t * 32], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k057(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[t * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k058(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[t * 32], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k059(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[t * 32], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k060(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t * 32) % 256], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k061(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(t * 32) % 256], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k062(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t * 32) % 256], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k063(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[(t * 32) % 256], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k064(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[(t * 32) % 256], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k065(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[(t * 32) % 256], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k066(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k067(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[t], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k068(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k069(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[t], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k070(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[t], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k071(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[t], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k072(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 4) * 33], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k073(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(t % 4) * 33], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k074(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 4) * 33], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k075(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[(t % 4) * 33], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k076(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[(t % 4) * 33], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k077(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[(t % 4) * 33], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k078(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t / 8) * 32 + t % 2], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k079(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(t / 8) * 32 + t % 2], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k080(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t / 8) * 32 + t % 2], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k081(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[(t / 8) * 32 + t % 2], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k082(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[(t / 8) * 32 + t % 2], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k083(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[(t / 8) * 32 + t % 2], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k084(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 16) atomicAdd(&s[(t % 2) * 64], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k085(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 16) res[t] = (int)atomicAdd(&s[(t % 2) * 64], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k086(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 16) atomicAdd(&s[(t % 2) * 64], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k087(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 16) atomicMax(&s[(t % 2) * 64], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k088(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 16) atomicExch(&s[(t % 2) * 64], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k089(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 16) res[t] = (int)atomicCAS(&s[(t % 2) * 64], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k090(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) atomicAdd(&s[t / 6], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k091(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) res[t] = (int)atomicAdd(&s[t / 6], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k092(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) atomicAdd(&s[t / 6], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k093(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) atomicMax(&s[t / 6], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k094(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) atomicExch(&s[t / 6], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k095(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) res[t] = (int)atomicCAS(&s[t / 6], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k096(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 3) * 32 + (t % 5)], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k097(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(t % 3) * 32 + (t % 5)], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k098(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 3) * 32 + (t % 5)], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k099(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[(t % 3) * 32 + (t % 5)], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k100(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[(t % 3) * 32 + (t % 5)], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k101(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[(t % 3) * 32 + (t % 5)], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k102(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 5) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k103(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(t % 5) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k104(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 5) * 32], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k105(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[(t % 5) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k106(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[(t % 5) * 32], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k107(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[(t % 5) * 32], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k108(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 5], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k109(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[t % 5], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k110(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 5], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k111(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[t % 5], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k112(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[t % 5], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k113(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[t % 5], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k114(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t * 7) % 3], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k115(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(t * 7) % 3], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k116(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t * 7) % 3], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k117(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[(t * 7) % 3], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k118(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicExch(&s[(t * 7) % 3], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k119(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicCAS(&s[(t * 7) % 3], (unsigned int)0, (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k120(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicSub(&s[t % 4], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k121(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicSub(&s[(t % 4) * 32], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k122(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicSub(&s[t], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k123(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMin(&s[t % 4], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k124(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMin(&s[(t % 4) * 32], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k125(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMin(&s[t], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k126(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicOr(&s[t % 4], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k127(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicOr(&s[(t % 4) * 32], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k128(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicOr(&s[t], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k129(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAnd(&s[t % 4], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k130(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAnd(&s[(t % 4) * 32], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k131(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAnd(&s[t], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k132(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicXor(&s[t % 4], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k133(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicXor(&s[(t % 4) * 32], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k134(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicXor(&s[t], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k135(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicInc(&s[t % 4], 100u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k136(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicInc(&s[(t % 4) * 32], 100u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k137(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicInc(&s[t], 100u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k138(int *o, int *res, const int *in) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t], (float)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k139(int *o, int *res, const int *in) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 4], (float)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k140(int *o, int *res, const int *in) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t * 3) % 64], (float)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k141(int *o, int *res, const int *in) {
  __shared__ unsigned long long s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t], (unsigned long long)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k142(int *o, int *res, const int *in) {
  __shared__ unsigned long long s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 4], (unsigned long long)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k143(int *o, int *res, const int *in) {
  __shared__ unsigned long long s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t * 3) % 64], (unsigned long long)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k144(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[t % 4], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k145(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 4], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k146(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 4], (int)2);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k147(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicSub(&s[t % 4], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k148(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicSub(&s[t % 4], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k149(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(t % 4) * 32], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k150(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 4) * 32], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k151(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 4) * 32], (int)2);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k152(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicSub(&s[(t % 4) * 32], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k153(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicSub(&s[(t % 4) * 32], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k154(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[t], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k155(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k156(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t], (int)2);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k157(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicSub(&s[t], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k158(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicSub(&s[t], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k159(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[5], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k160(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[5], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k161(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[5], (int)2);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k162(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicSub(&s[5], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k163(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicSub(&s[5], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k164(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) res[t] = (int)atomicAdd(&s[t / 6], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k165(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) atomicAdd(&s[t / 6], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k166(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) atomicAdd(&s[t / 6], (int)2);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k167(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) atomicSub(&s[t / 6], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k168(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) res[t] = (int)atomicSub(&s[t / 6], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k169(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 16], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k170(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 4) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k171(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t % 16], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k172(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 4) * 32], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k173(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(8 * t + 6) % 188], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k174(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicAdd(&s[(3 * t + 40) % 299], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k175(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 6 == 0) atomicAdd(&s[(1 * t + 37) % 293], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k176(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 11) != 0) res[t] = (int)atomicOr(&s[t / 6], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k177(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMax(&s[(t % 5) * 32], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k178(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 12) != 0) res[t] = (int)atomicExch(&s[(9 * t + 51) % 234], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k179(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 23) res[t] = (int)atomicExch(&s[(0 * t + 60) % 237], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k180(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 30) != 0) res[t] = (int)atomicOr(&s[(t * 18) % 700], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k181(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) atomicMax(&s[(t * 32) % 700], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k182(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicExch(&s[(7 * t + 57) % 287], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k183(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(5 * t + 38) % 27], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k184(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 5) res[t] = (int)atomicMin(&s[(t % 4) * 32], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k185(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 24) atomicAdd(&s[(t * 2) % 700], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k186(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 2 == 1) res[t] = (int)atomicAdd(&s[t / 9], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k187(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 17) res[t] = (int)atomicMin(&s[(t * 17) % 700], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k188(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 3 == 0) atomicAdd(&s[(5 * t + 13) % 248], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k189(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 26) != 0) atomicAdd(&s[t / 3], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k190(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 22) atomicMin(&s[t / 3], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k191(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 4 == 0) res[t] = (int)atomicAdd(&s[(t * 27) % 700], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k192(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 6) * 10], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k193(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicOr(&s[(t % 2) * 7], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k194(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 9) != 0) atomicAdd(&s[t / 9], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k195(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 5 == 1) atomicAdd(&s[t / 5], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k196(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 2 == 1) res[t] = (int)atomicAdd(&s[t / 9], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k197(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 18) != 0) atomicOr(&s[(7 * t + 45) % 10], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k198(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 4 == 1) atomicAdd(&s[(t % 13) * 10], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k199(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 29) res[t] = (int)atomicAdd(&s[(t * 6) % 700], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k200(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 30) atomicAdd(&s[(t * 16) % 700], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k201(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 4 == 0) atomicAdd(&s[t / 5], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k202(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 27) != 0) atomicAdd(&s[(t % 7) * 9], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k203(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(1 * t + 42) % 196], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k204(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 9) res[t] = (int)atomicAdd(&s[t / 1], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k205(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 5 == 1) res[t] = (int)atomicAdd(&s[(t % 3) * 10], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k206(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 4 == 0) res[t] = (int)atomicAdd(&s[t / 8], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k207(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicOr(&s[(t * 2) % 700], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k208(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 2 == 0) res[t] = (int)atomicExch(&s[(7 * t + 16) % 2], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k209(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 4 == 0) atomicMin(&s[(t * 25) % 700], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k210(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 9) atomicExch(&s[(t * 31) % 700], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k211(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 15) != 0) res[t] = (int)atomicMax(&s[(1 * t + 57) % 282], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k212(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 6 == 1) atomicMin(&s[t / 2], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k213(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 29) != 0) res[t] = (int)atomicAdd(&s[(t * 32) % 700], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k214(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicMax(&s[(t * 8) % 700], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k215(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 30) != 0) res[t] = (int)atomicMax(&s[t / 5], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k216(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 12) != 0) atomicExch(&s[(t % 3) * 4], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k217(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 4 == 1) atomicMin(&s[(t * 19) % 700], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k218(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 6 == 1) atomicMax(&s[(t % 15) * 22], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k219(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[(t % 1) * 27], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k220(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 16) res[t] = (int)atomicAdd(&s[t / 9], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k221(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) res[t] = (int)atomicMax(&s[(t % 1) * 5], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k222(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicMin(&s[(7 * t + 5) % 283], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k223(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t / 9], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k224(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 5 == 1) atomicAdd(&s[(t * 16) % 700], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k225(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 8) != 0) atomicMax(&s[(t % 14) * 24], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k226(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 6 == 0) res[t] = (int)atomicOr(&s[(t * 30) % 700], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k227(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (true) atomicAdd(&s[t / 1], 1u);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k228(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 15) res[t] = (int)atomicAdd(&s[(t % 6) * 34], 1);
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k229(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t % 5 == 1) res[t] = (int)atomicOr(&s[(1 * t + 0) % 41], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k230(int *o, int *res, const int *in) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 2) != 0) res[t] = (int)atomicMin(&s[(t % 11) * 24], (int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k231(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if ((t & 2) != 0) res[t] = (int)atomicMin(&s[(t * 13) % 700], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
__global__ void k232(int *o, int *res, const int *in) {
  __shared__ unsigned int s[1024];
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = 0;
  __syncthreads();
  if (t < 24) res[t] = (int)atomicExch(&s[(t % 8) * 7], (unsigned int)(in[t] + 1));
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) o[i] = (int)s[i];
}
int main() {
  int *o, *res, *in;
  cudaMalloc(&o, 4096); cudaMalloc(&res, 4096); cudaMalloc(&in, 4096);
  cudaMemset(in, 0, 4096);
  k000<<<1, 32>>>(o, res, in);
  k001<<<1, 32>>>(o, res, in);
  k002<<<1, 32>>>(o, res, in);
  k003<<<1, 32>>>(o, res, in);
  k004<<<1, 32>>>(o, res, in);
  k005<<<1, 32>>>(o, res, in);
  k006<<<1, 32>>>(o, res, in);
  k007<<<1, 32>>>(o, res, in);
  k008<<<1, 32>>>(o, res, in);
  k009<<<1, 32>>>(o, res, in);
  k010<<<1, 32>>>(o, res, in);
  k011<<<1, 32>>>(o, res, in);
  k012<<<1, 32>>>(o, res, in);
  k013<<<1, 32>>>(o, res, in);
  k014<<<1, 32>>>(o, res, in);
  k015<<<1, 32>>>(o, res, in);
  k016<<<1, 32>>>(o, res, in);
  k017<<<1, 32>>>(o, res, in);
  k018<<<1, 32>>>(o, res, in);
  k019<<<1, 32>>>(o, res, in);
  k020<<<1, 32>>>(o, res, in);
  k021<<<1, 32>>>(o, res, in);
  k022<<<1, 32>>>(o, res, in);
  k023<<<1, 32>>>(o, res, in);
  k024<<<1, 32>>>(o, res, in);
  k025<<<1, 32>>>(o, res, in);
  k026<<<1, 32>>>(o, res, in);
  k027<<<1, 32>>>(o, res, in);
  k028<<<1, 32>>>(o, res, in);
  k029<<<1, 32>>>(o, res, in);
  k030<<<1, 32>>>(o, res, in);
  k031<<<1, 32>>>(o, res, in);
  k032<<<1, 32>>>(o, res, in);
  k033<<<1, 32>>>(o, res, in);
  k034<<<1, 32>>>(o, res, in);
  k035<<<1, 32>>>(o, res, in);
  k036<<<1, 32>>>(o, res, in);
  k037<<<1, 32>>>(o, res, in);
  k038<<<1, 32>>>(o, res, in);
  k039<<<1, 32>>>(o, res, in);
  k040<<<1, 32>>>(o, res, in);
  k041<<<1, 32>>>(o, res, in);
  k042<<<1, 32>>>(o, res, in);
  k043<<<1, 32>>>(o, res, in);
  k044<<<1, 32>>>(o, res, in);
  k045<<<1, 32>>>(o, res, in);
  k046<<<1, 32>>>(o, res, in);
  k047<<<1, 32>>>(o, res, in);
  k048<<<1, 32>>>(o, res, in);
  k049<<<1, 32>>>(o, res, in);
  k050<<<1, 32>>>(o, res, in);
  k051<<<1, 32>>>(o, res, in);
  k052<<<1, 32>>>(o, res, in);
  k053<<<1, 32>>>(o, res, in);
  k054<<<1, 32>>>(o, res, in);
  k055<<<1, 32>>>(o, res, in);
  k056<<<1, 32>>>(o, res, in);
  k057<<<1, 32>>>(o, res, in);
  k058<<<1, 32>>>(o, res, in);
  k059<<<1, 32>>>(o, res, in);
  k060<<<1, 32>>>(o, res, in);
  k061<<<1, 32>>>(o, res, in);
  k062<<<1, 32>>>(o, res, in);
  k063<<<1, 32>>>(o, res, in);
  k064<<<1, 32>>>(o, res, in);
  k065<<<1, 32>>>(o, res, in);
  k066<<<1, 32>>>(o, res, in);
  k067<<<1, 32>>>(o, res, in);
  k068<<<1, 32>>>(o, res, in);
  k069<<<1, 32>>>(o, res, in);
  k070<<<1, 32>>>(o, res, in);
  k071<<<1, 32>>>(o, res, in);
  k072<<<1, 32>>>(o, res, in);
  k073<<<1, 32>>>(o, res, in);
  k074<<<1, 32>>>(o, res, in);
  k075<<<1, 32>>>(o, res, in);
  k076<<<1, 32>>>(o, res, in);
  k077<<<1, 32>>>(o, res, in);
  k078<<<1, 32>>>(o, res, in);
  k079<<<1, 32>>>(o, res, in);
  k080<<<1, 32>>>(o, res, in);
  k081<<<1, 32>>>(o, res, in);
  k082<<<1, 32>>>(o, res, in);
  k083<<<1, 32>>>(o, res, in);
  k084<<<1, 32>>>(o, res, in);
  k085<<<1, 32>>>(o, res, in);
  k086<<<1, 32>>>(o, res, in);
  k087<<<1, 32>>>(o, res, in);
  k088<<<1, 32>>>(o, res, in);
  k089<<<1, 32>>>(o, res, in);
  k090<<<1, 32>>>(o, res, in);
  k091<<<1, 32>>>(o, res, in);
  k092<<<1, 32>>>(o, res, in);
  k093<<<1, 32>>>(o, res, in);
  k094<<<1, 32>>>(o, res, in);
  k095<<<1, 32>>>(o, res, in);
  k096<<<1, 32>>>(o, res, in);
  k097<<<1, 32>>>(o, res, in);
  k098<<<1, 32>>>(o, res, in);
  k099<<<1, 32>>>(o, res, in);
  k100<<<1, 32>>>(o, res, in);
  k101<<<1, 32>>>(o, res, in);
  k102<<<1, 32>>>(o, res, in);
  k103<<<1, 32>>>(o, res, in);
  k104<<<1, 32>>>(o, res, in);
  k105<<<1, 32>>>(o, res, in);
  k106<<<1, 32>>>(o, res, in);
  k107<<<1, 32>>>(o, res, in);
  k108<<<1, 32>>>(o, res, in);
  k109<<<1, 32>>>(o, res, in);
  k110<<<1, 32>>>(o, res, in);
  k111<<<1, 32>>>(o, res, in);
  k112<<<1, 32>>>(o, res, in);
  k113<<<1, 32>>>(o, res, in);
  k114<<<1, 32>>>(o, res, in);
  k115<<<1, 32>>>(o, res, in);
  k116<<<1, 32>>>(o, res, in);
  k117<<<1, 32>>>(o, res, in);
  k118<<<1, 32>>>(o, res, in);
  k119<<<1, 32>>>(o, res, in);
  k120<<<1, 32>>>(o, res, in);
  k121<<<1, 32>>>(o, res, in);
  k122<<<1, 32>>>(o, res, in);
  k123<<<1, 32>>>(o, res, in);
  k124<<<1, 32>>>(o, res, in);
  k125<<<1, 32>>>(o, res, in);
  k126<<<1, 32>>>(o, res, in);
  k127<<<1, 32>>>(o, res, in);
  k128<<<1, 32>>>(o, res, in);
  k129<<<1, 32>>>(o, res, in);
  k130<<<1, 32>>>(o, res, in);
  k131<<<1, 32>>>(o, res, in);
  k132<<<1, 32>>>(o, res, in);
  k133<<<1, 32>>>(o, res, in);
  k134<<<1, 32>>>(o, res, in);
  k135<<<1, 32>>>(o, res, in);
  k136<<<1, 32>>>(o, res, in);
  k137<<<1, 32>>>(o, res, in);
  k138<<<1, 32>>>(o, res, in);
  k139<<<1, 32>>>(o, res, in);
  k140<<<1, 32>>>(o, res, in);
  k141<<<1, 32>>>(o, res, in);
  k142<<<1, 32>>>(o, res, in);
  k143<<<1, 32>>>(o, res, in);
  k144<<<1, 32>>>(o, res, in);
  k145<<<1, 32>>>(o, res, in);
  k146<<<1, 32>>>(o, res, in);
  k147<<<1, 32>>>(o, res, in);
  k148<<<1, 32>>>(o, res, in);
  k149<<<1, 32>>>(o, res, in);
  k150<<<1, 32>>>(o, res, in);
  k151<<<1, 32>>>(o, res, in);
  k152<<<1, 32>>>(o, res, in);
  k153<<<1, 32>>>(o, res, in);
  k154<<<1, 32>>>(o, res, in);
  k155<<<1, 32>>>(o, res, in);
  k156<<<1, 32>>>(o, res, in);
  k157<<<1, 32>>>(o, res, in);
  k158<<<1, 32>>>(o, res, in);
  k159<<<1, 32>>>(o, res, in);
  k160<<<1, 32>>>(o, res, in);
  k161<<<1, 32>>>(o, res, in);
  k162<<<1, 32>>>(o, res, in);
  k163<<<1, 32>>>(o, res, in);
  k164<<<1, 32>>>(o, res, in);
  k165<<<1, 32>>>(o, res, in);
  k166<<<1, 32>>>(o, res, in);
  k167<<<1, 32>>>(o, res, in);
  k168<<<1, 32>>>(o, res, in);
  k169<<<1, 64>>>(o, res, in);
  k170<<<1, 64>>>(o, res, in);
  k171<<<1, 50>>>(o, res, in);
  k172<<<1, 50>>>(o, res, in);
  k173<<<1, 32>>>(o, res, in);
  k174<<<1, 32>>>(o, res, in);
  k175<<<1, 32>>>(o, res, in);
  k176<<<1, 32>>>(o, res, in);
  k177<<<1, 32>>>(o, res, in);
  k178<<<1, 32>>>(o, res, in);
  k179<<<1, 32>>>(o, res, in);
  k180<<<1, 32>>>(o, res, in);
  k181<<<1, 32>>>(o, res, in);
  k182<<<1, 32>>>(o, res, in);
  k183<<<1, 32>>>(o, res, in);
  k184<<<1, 32>>>(o, res, in);
  k185<<<1, 32>>>(o, res, in);
  k186<<<1, 32>>>(o, res, in);
  k187<<<1, 32>>>(o, res, in);
  k188<<<1, 32>>>(o, res, in);
  k189<<<1, 32>>>(o, res, in);
  k190<<<1, 32>>>(o, res, in);
  k191<<<1, 32>>>(o, res, in);
  k192<<<1, 32>>>(o, res, in);
  k193<<<1, 32>>>(o, res, in);
  k194<<<1, 32>>>(o, res, in);
  k195<<<1, 32>>>(o, res, in);
  k196<<<1, 32>>>(o, res, in);
  k197<<<1, 32>>>(o, res, in);
  k198<<<1, 32>>>(o, res, in);
  k199<<<1, 32>>>(o, res, in);
  k200<<<1, 32>>>(o, res, in);
  k201<<<1, 32>>>(o, res, in);
  k202<<<1, 32>>>(o, res, in);
  k203<<<1, 32>>>(o, res, in);
  k204<<<1, 32>>>(o, res, in);
  k205<<<1, 32>>>(o, res, in);
  k206<<<1, 32>>>(o, res, in);
  k207<<<1, 32>>>(o, res, in);
  k208<<<1, 32>>>(o, res, in);
  k209<<<1, 32>>>(o, res, in);
  k210<<<1, 32>>>(o, res, in);
  k211<<<1, 32>>>(o, res, in);
  k212<<<1, 32>>>(o, res, in);
  k213<<<1, 32>>>(o, res, in);
  k214<<<1, 32>>>(o, res, in);
  k215<<<1, 32>>>(o, res, in);
  k216<<<1, 32>>>(o, res, in);
  k217<<<1, 32>>>(o, res, in);
  k218<<<1, 32>>>(o, res, in);
  k219<<<1, 32>>>(o, res, in);
  k220<<<1, 32>>>(o, res, in);
  k221<<<1, 32>>>(o, res, in);
  k222<<<1, 32>>>(o, res, in);
  k223<<<1, 32>>>(o, res, in);
  k224<<<1, 32>>>(o, res, in);
  k225<<<1, 32>>>(o, res, in);
  k226<<<1, 32>>>(o, res, in);
  k227<<<1, 32>>>(o, res, in);
  k228<<<1, 32>>>(o, res, in);
  k229<<<1, 32>>>(o, res, in);
  k230<<<1, 32>>>(o, res, in);
  k231<<<1, 32>>>(o, res, in);
  k232<<<1, 32>>>(o, res, in);
  cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
