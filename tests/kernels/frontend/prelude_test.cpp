// The front-end's prelude stands in for the CUDA Toolkit's headers: real-world host code (the
// runtime API as CUDA 11 to 13 declare it, nvcc's implicitly included C headers, the samples'
// helper_cuda.h guard) parses around a kernel, and device code that reads textures, calls the math
// API and intrinsics loads, with every such call an opaque value. Snippets are written to
// temporary files, as frontend_test.cpp does.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "kernels/frontend/frontend.hpp"
#include "tests/kernels/source_dir.hpp"

namespace {

namespace fs = std::filesystem;
namespace ir = warpdiv::sim::ir;
using warpdiv::InvalidInput;
using warpdiv::frontend::FrontendOptions;
using warpdiv::frontend::load_kernel;

class PreludeTest : public warpdiv::testing::SnippetTest {
 protected:
  PreludeTest() : SnippetTest("warpdiv_prelude_") {}
};

/// The Work statements' descriptions, in statement order.
std::string works(const ir::Kernel& k) {
  std::string out;
  for (const auto& s : k.stmts)
    if (s.kind == ir::StmtKind::Work) out += "[" + s.description + "]";
  return out;
}

TEST_F(PreludeTest, HostCodeUsesTheRuntimeApiAndTheImplicitCHeaders) {
  // No #include at all: nvcc's cuda_runtime.h brings stdio.h, stdlib.h, string.h, math.h, time.h
  // and assert.h; the host code calls what they declare next to the runtime API, deprecated
  // calls included.
  const ir::Kernel k = load(R"(
__global__ void k(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}
int main(int argc, char** argv) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("%s %zu %d %zu %d %d\n", prop.name, prop.memPitch, prop.deviceOverlap,
         prop.textureAlignment, prop.clockRate, prop.kernelExecTimeoutEnabled);
  int value = 0;
  cudaDeviceGetAttribute(&value, cudaDevAttrMaxThreadsPerBlock, 0);
  cudaFuncSetCacheConfig(k, cudaFuncCachePreferL1);
  cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
  float* host = (float*)malloc(64 * sizeof(float));
  memset(host, 0, 64 * sizeof(float));
  char name[16];
  strcpy(name, "run");
  double x = fabs(-2.0) + sqrt(4.0) + floor(1.5);
  clock_t start = clock();
  srand(time(NULL));
  assert(host != NULL);
  float* d = 0;
  cudaMalloc((void**)&d, 64 * sizeof(float));
  cudaMemcpy(d, host, 64 * sizeof(float), cudaMemcpyHostToDevice);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreateWithFlags(&e1, cudaEventDisableTiming);
  cudaEventRecord(e0, stream);
  k<<<dim3(2), dim3(32), 0, stream>>>(d, 64);
  cudaThreadSynchronize();
  cudaThreadExit();
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) fprintf(stderr, "%s: %s\n", cudaGetErrorName(err), cudaGetErrorString(err));
  size_t pitch;
  cudaMallocPitch((void**)&d, &pitch, 64, 4);
  cudaMemcpy2DAsync(d, pitch, host, 64, 64, 4, cudaMemcpyHostToDevice, stream);
  cudaHostAlloc((void**)&host, 64, cudaHostAllocMapped);
  cudaSetDeviceFlags(cudaDeviceMapHost);
  int2 a = make_int2(1, 2);
  uchar4 c = make_uchar4(1, 2, 3, 4);
  double2 dd = make_double2(1.0, 2.0);
  ulonglong2 u = make_ulonglong2(1, 2);
  cudaFree(d);
  free(host);
  return (int)x + a.x + c.w + (int)dd.y + (int)u.x + (int)(clock() - start) + value;
}
)");
  EXPECT_EQ(k.name, "k");
  EXPECT_EQ(k.parameters.size(), 2u);
}

TEST_F(PreludeTest, HelperCudaStyleCodeSeesTheRuntimeHeaderGuard) {
  // cuda-samples' helper_cuda.h defines checkCudaErrors only where cuda_runtime.h was included
  // (#ifdef __CUDA_RUNTIME_H__): nvcc includes it before the file.
  const ir::Kernel k = load(R"(
#include <cuda_profiler_api.h>
#ifndef __CUDA_RUNTIME_H__
#error "cuda_runtime.h's guard is not defined"
#endif
#ifdef __CUDA_RUNTIME_H__
static const char* _cudaGetErrorEnum(cudaError_t error) { return cudaGetErrorName(error); }
template <typename T>
void check(T result, char const* const func, const char* const file, int const line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line,
            static_cast<unsigned int>(result), _cudaGetErrorEnum(result), func);
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
inline int findCudaDevice() {
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  checkCudaErrors(cudaSetDevice(0));
  return 0;
}
#endif
__global__ void k(int* out) { out[threadIdx.x] = threadIdx.x; }
int main() {
  findCudaDevice();
  int* d;
  checkCudaErrors(cudaMalloc(&d, 128));
  checkCudaErrors(cudaProfilerStart());
  k<<<1, 32>>>(d);
  checkCudaErrors(cudaProfilerStop());
  checkCudaErrors(cudaDeviceSynchronize());
  return 0;
}
)");
  EXPECT_EQ(k.name, "k");
}

TEST_F(PreludeTest, LegacyTextureReferenceReadsAreOpaqueValues) {
  const std::string source = R"(
texture<float, 1, cudaReadModeElementType> tex;
texture<float4, 2> tex2;
texture<unsigned char, 2, cudaReadModeNormalizedFloat> image;
__global__ void k(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(tex, i) + tex2D(tex2, i, 0.5f).x + tex2D(image, 0.0f, 1.0f);
}
__global__ void branchy(float* out) {
  int i = threadIdx.x;
  if (tex1Dfetch(tex, i) > 0.0f) out[i] = 1.0f;
}
int main() {
  float* d;
  cudaMalloc(&d, 64 * sizeof(float));
  cudaBindTexture(0, tex, d, 64 * sizeof(float));
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4>();
  cudaChannelFormatDesc bytes = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
  cudaArray* array;
  cudaMallocArray(&array, &desc, 16, 16);
  cudaMemcpyToArray(array, 0, 0, d, 64, cudaMemcpyDeviceToDevice);
  tex2.addressMode[0] = cudaAddressModeWrap;
  tex2.filterMode = cudaFilterModeLinear;
  tex2.normalized = true;
  cudaBindTextureToArray(tex2, array, desc);
  k<<<2, 32>>>(d, 64);
  cudaUnbindTexture(tex);
  cudaUnbindTexture(tex2);
  cudaFreeArray(array);
  return bytes.x;
}
)";
  const ir::Kernel k = load(source, "k");
  EXPECT_NE(works(k).find("tex1Dfetch(tex, i)"), std::string::npos) << works(k);
  const std::string message = refusal(source, "branchy");
  EXPECT_NE(message.find(":11:3: data-dependent branch"), std::string::npos) << message;
  EXPECT_NE(message.find("tex1Dfetch(tex, i)"), std::string::npos) << message;
}

TEST_F(PreludeTest, TextureAndSurfaceObjectReadsAreOpaqueValues) {
  const std::string source = R"(
__global__ void k(float* out, cudaTextureObject_t obj, cudaTextureObject_t layered,
                  cudaSurfaceObject_t surface, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 v = tex2D<float4>(obj, i + 0.5f, 0.5f);
  out[i] = tex1Dfetch<float>(obj, i) + v.x + tex3D<float>(obj, 0.5f, 0.5f, 0.5f) +
           tex2DLayered<float>(layered, 0.5f, 0.5f, 1) + tex1D<float>(obj, 0.25f);
  float r = surf2Dread<float>(surface, i * 4, 0);
  surf2Dwrite(r * 2.0f, surface, i * 4, 0);
}
__global__ void branchy(int* out, cudaTextureObject_t obj) {
  int i = threadIdx.x;
  if (tex1Dfetch<int>(obj, i) != 0) out[i] = 1;
}
int main() {
  cudaArray_t array;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaMallocArray(&array, &desc, 64, 1, cudaArraySurfaceLoadStore);
  cudaResourceDesc resource;
  memset(&resource, 0, sizeof(resource));
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc texture;
  memset(&texture, 0, sizeof(texture));
  texture.addressMode[0] = cudaAddressModeClamp;
  texture.filterMode = cudaFilterModePoint;
  texture.readMode = cudaReadModeElementType;
  texture.normalizedCoords = 0;
  cudaTextureObject_t obj = 0;
  cudaCreateTextureObject(&obj, &resource, &texture, NULL);
  cudaSurfaceObject_t surface = 0;
  cudaCreateSurfaceObject(&surface, &resource);
  float* d;
  cudaMalloc(&d, 64 * sizeof(float));
  k<<<1, 64>>>(d, obj, obj, surface, 64);
  cudaDestroyTextureObject(obj);
  cudaDestroySurfaceObject(surface);
  return 0;
}
)";
  const ir::Kernel k = load(source, "k");
  EXPECT_NE(works(k).find("surf2Dwrite(r * 2.0f, surface, i * 4, 0)"), std::string::npos) << works(k);
  const std::string message = refusal(source, "branchy");
  EXPECT_NE(message.find(":14:3: data-dependent branch"), std::string::npos) << message;
  EXPECT_NE(message.find("tex1Dfetch<int>(obj, i)"), std::string::npos) << message;
}

TEST_F(PreludeTest, MathApiIntrinsicsWarpFunctionsAndAtomicsAreDeclared) {
  const ir::Kernel k = load(R"(
__global__ void k(float* f, double* d, int* n, unsigned short* h, const float4* v4,
                  unsigned long long* u) {
  int i = threadIdx.x;
  float x = f[i];
  f[i] = __log2f(x) + __logf(x) + __exp10f(x) + __fdividef(x, 2.0f) + __saturatef(x) +
         __fmul_rn(x, x) + __fadd_rz(x, 1.0f) + __frcp_rn(x) + __int_as_float(i) + erff(x) +
         lgammaf(x) + rintf(x) + fmaf(x, x, x) + copysignf(x, -1.0f) + normcdff(x) +
         rsqrtf(x);
  sincospif(x, &x, &x);
  d[i] = fma(d[i], 2.0, 1.0) + erf(d[i]) + __dmul_rn(d[i], 2.0) + __longlong_as_double(u[i]) +
         rint(d[i]) + __shfl_down_sync(0xffffffffu, d[i], 1) + atomicAdd(d, 1.0);
  n[i] = __mulhi(i, 3) + __umulhi(i, 3u) + __sad(i, 3, 0u) + __usad(1u, 2u, 3u) +
         __byte_perm(1u, 2u, 0x3210u) + __funnelshift_l(1u, 2u, 3u) + __float_as_int(x) +
         __popc(i) + __clz(i) + __ffs(i) + __brev(i) + __float2int_rn(x) + isnan(x) +
         isinf(x) + isfinite(x) + signbit(x) + __match_any_sync(0xffffffffu, i) +
         __reduce_add_sync(0xffffffffu, (unsigned)i) + __shfl_xor_sync(0xffffffffu, i, 1) +
         __any_sync(0xffffffffu, i) + __ballot_sync(0xffffffffu, i) + __activemask();
  float4 w = __ldg(&v4[i]);
  f[i] += w.x + __ldg(&f[i]);
  atomicCAS(h, (unsigned short)1, (unsigned short)2);
  atomicMax(u, 3ull);
  atomicAdd(n, 1);
  atomicAdd_block(f, 1.0f);
  __syncwarp();
  __threadfence();
  long long t = clock64();
  n[i] += (int)t;
}
)");
  EXPECT_EQ(k.parameters.size(), 6u);
}

TEST_F(PreludeTest, MinMaxOnLongAreModelled) {
  // math_functions.h's min(long, long): a select in the model, like min(int, int).
  const ir::Kernel k = load(R"(
__global__ void k(long* out) {
  long m = max(min((long)threadIdx.x, 5L), 2L);
  out[threadIdx.x] = m;
}
)");
  std::size_t selects = 0;
  for (const auto& e : k.exprs) selects += e.kind == ir::ExprKind::Select ? 1 : 0;
  EXPECT_EQ(selects, 3u);  // max's select, and min's in each of max's two uses of its argument
}

}  // namespace
