// Vector loads and stores: float4 (16 bytes) from and to global memory through a float2 (8-byte)
// stage in shared memory, where neighbouring lanes swap halves. A warp's float4 request covers
// 512 bytes, 16 sectors; its 8-byte shared accesses go as two half-warps (2 wavefronts).
//
// Meant for: 1,024 float4 (4,096 floats), blocks of 128:
//   warpdiv analyze kernels/zoo/vector_copy.cu --grid 8 --block 128 --arg n4=1024
__global__ void vector_copy(const float *in, float *out, int n4) {
  __shared__ float2 stage[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (i < n4) v = reinterpret_cast<const float4 *>(in)[i];
  stage[threadIdx.x] = make_float2(v.x, v.y);
  __syncthreads();
  float2 w = stage[threadIdx.x ^ 1];
  if (i < n4) reinterpret_cast<float4 *>(out)[i] = make_float4(w.x, w.y, v.z, v.w);
}
