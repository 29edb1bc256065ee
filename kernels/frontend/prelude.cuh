// warpdiv's CUDA prelude: what nvcc makes visible in every .cu file, declared for Clang's syntax-only
// parse of device code without the CUDA Toolkit. Included before the user's file (-include).
// Declarations only: the front-end recognises these by name and by this file, never runs them.
#pragma once

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
// Empty, not __attribute__((noinline)): libstdc++ writes __attribute__((__noinline__)), which must
// stay valid (an empty attribute list is), and inlining is no matter for the model.
#define __noinline__
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
// nvcc's macros (Clang defines __CUDA_ARCH__ itself), and one of ours so that a file can hide code
// from warpdiv: #ifndef __WARPDIV__ ... #endif.
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#define __NVCC__ 1
#define __WARPDIV__ 1
#define CUDART_VERSION 12000
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0

typedef __SIZE_TYPE__ size_t;

struct uint3 { unsigned int x, y, z; };
struct int2 { int x, y; };
struct int3 { int x, y, z; };
struct int4 { int x, y, z, w; };
struct uint2 { unsigned int x, y; };
struct uint4 { unsigned int x, y, z, w; };
struct float2 { float x, y; };
struct float3 { float x, y, z; };
struct float4 { float x, y, z, w; };
struct double2 { double x, y; };
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
__host__ __device__ inline int2 make_int2(int x, int y) { return int2{x, y}; }
__host__ __device__ inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }
__host__ __device__ inline float2 make_float2(float x, float y) { return float2{x, y}; }
__host__ __device__ inline float3 make_float3(float x, float y, float z) { return float3{x, y, z}; }
__host__ __device__ inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }

// The launch built-ins (recognised by name in this file).
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

// Barriers, warp functions, fences.
extern "C" __device__ void __syncthreads();
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
extern "C" __device__ void __syncwarp(unsigned mask = 0xffffffffu);
extern "C" __device__ void __threadfence();
extern "C" __device__ void __threadfence_block();
__device__ unsigned __ballot_sync(unsigned mask, int predicate);
__device__ int __all_sync(unsigned mask, int predicate);
__device__ int __any_sync(unsigned mask, int predicate);
__device__ unsigned __activemask();
__device__ int __shfl_sync(unsigned mask, int var, int lane, int width = 32);
__device__ unsigned __shfl_sync(unsigned mask, unsigned var, int lane, int width = 32);
__device__ float __shfl_sync(unsigned mask, float var, int lane, int width = 32);
__device__ int __shfl_down_sync(unsigned mask, int var, unsigned delta, int width = 32);
__device__ unsigned __shfl_down_sync(unsigned mask, unsigned var, unsigned delta, int width = 32);
__device__ float __shfl_down_sync(unsigned mask, float var, unsigned delta, int width = 32);
__device__ int __shfl_up_sync(unsigned mask, int var, unsigned delta, int width = 32);
__device__ float __shfl_up_sync(unsigned mask, float var, unsigned delta, int width = 32);
__device__ int __shfl_xor_sync(unsigned mask, int var, int lane_mask, int width = 32);
__device__ float __shfl_xor_sync(unsigned mask, float var, int lane_mask, int width = 32);
template <class T> __device__ T __ldg(const T* p);
extern "C" __device__ long long clock64();
extern "C" __device__ int clock();

// Atomics.
#define WARPDIV_ATOMIC2(name, T) __device__ T name(T* address, T val);
#define WARPDIV_ATOMIC_INT(name) WARPDIV_ATOMIC2(name, int) WARPDIV_ATOMIC2(name, unsigned int) \
  WARPDIV_ATOMIC2(name, unsigned long long)
WARPDIV_ATOMIC_INT(atomicAdd) WARPDIV_ATOMIC2(atomicAdd, float) WARPDIV_ATOMIC2(atomicAdd, double)
WARPDIV_ATOMIC_INT(atomicSub) WARPDIV_ATOMIC_INT(atomicExch) WARPDIV_ATOMIC2(atomicExch, float)
WARPDIV_ATOMIC_INT(atomicMin) WARPDIV_ATOMIC_INT(atomicMax)
WARPDIV_ATOMIC_INT(atomicAnd) WARPDIV_ATOMIC_INT(atomicOr) WARPDIV_ATOMIC_INT(atomicXor)
#undef WARPDIV_ATOMIC_INT
#undef WARPDIV_ATOMIC2
__device__ unsigned int atomicInc(unsigned int* address, unsigned int val);
__device__ unsigned int atomicDec(unsigned int* address, unsigned int val);
__device__ int atomicCAS(int* address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int* address, unsigned int compare, unsigned int val);
__device__ unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare,
                                        unsigned long long val);

// Integer helpers (min/max/abs on integers are modelled; the rest are opaque values).
__host__ __device__ int min(int a, int b);
__host__ __device__ unsigned int min(unsigned int a, unsigned int b);
__host__ __device__ long long min(long long a, long long b);
__host__ __device__ unsigned long long min(unsigned long long a, unsigned long long b);
__host__ __device__ float min(float a, float b);
__host__ __device__ double min(double a, double b);
__host__ __device__ int max(int a, int b);
__host__ __device__ unsigned int max(unsigned int a, unsigned int b);
__host__ __device__ long long max(long long a, long long b);
__host__ __device__ unsigned long long max(unsigned long long a, unsigned long long b);
__host__ __device__ float max(float a, float b);
__host__ __device__ double max(double a, double b);
static __device__ int abs(int);
__device__ long long llabs(long long);
__device__ int __popc(unsigned int);
__device__ int __popcll(unsigned long long);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ int __mul24(int, int);
__device__ unsigned __umul24(unsigned, unsigned);
__device__ unsigned __brev(unsigned);

// Floating point (opaque work for the model).
#define WARPDIV_MATH1(name) static __device__ float name##f(float); \
  static __device__ double name(double);
#define WARPDIV_MATH2(name) static __device__ float name##f(float, float); \
  static __device__ double name(double, double);
WARPDIV_MATH1(sqrt) WARPDIV_MATH1(exp) WARPDIV_MATH1(exp2) WARPDIV_MATH1(log) WARPDIV_MATH1(log2)
WARPDIV_MATH1(log10) WARPDIV_MATH1(sin) WARPDIV_MATH1(cos) WARPDIV_MATH1(tan) WARPDIV_MATH1(tanh)
WARPDIV_MATH1(fabs) WARPDIV_MATH1(floor) WARPDIV_MATH1(ceil) WARPDIV_MATH1(round) WARPDIV_MATH1(trunc)
WARPDIV_MATH1(cbrt) WARPDIV_MATH1(atan) WARPDIV_MATH1(asin) WARPDIV_MATH1(acos)
WARPDIV_MATH2(pow) WARPDIV_MATH2(fmin) WARPDIV_MATH2(fmax) WARPDIV_MATH2(fmod) WARPDIV_MATH2(atan2)
#undef WARPDIV_MATH1
#undef WARPDIV_MATH2
static __device__ float fmaf(float, float, float);
static __device__ float rsqrtf(float);
static __device__ float __expf(float);
static __device__ float __logf(float);
static __device__ float __sinf(float);
static __device__ float __cosf(float);
static __device__ float __powf(float, float);
__device__ float __fdividef(float, float);
__device__ float __saturatef(float);
__device__ int __float2int_rn(float);
__device__ int __float2int_rz(float);
__device__ float __int2float_rn(int);

// The C library in device code: static device overloads declared before the system headers' host
// declarations (Clang overloads on __host__/__device__), so that <stdio.h> etc. parse as they are.
static __device__ int printf(const char*, ...);
static __device__ void* malloc(size_t);
static __device__ void free(void*);
static __device__ void* memcpy(void*, const void*, size_t);
static __device__ void* memset(void*, int, size_t);
static __device__ void __assert_fail(const char*, const char*, unsigned, const char*);

// Host API: enough for host code in a kernel file to parse; never called by the model.
enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2 };
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
};
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock, totalConstMem, sharedMemPerMultiprocessor;
  size_t sharedMemPerBlockOptin, reservedSharedMemPerBlock;
  int regsPerBlock, regsPerMultiprocessor, warpSize, maxThreadsPerBlock, maxThreadsDim[3];
  int maxGridSize[3], clockRate, memoryClockRate, memoryBusWidth, l2CacheSize;
  int major, minor, multiProcessorCount, maxThreadsPerMultiProcessor, maxBlocksPerMultiProcessor;
};
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, maxDynamicSharedSizeBytes;
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
cudaError_t cudaMalloc(void** devPtr, size_t size);
template <class T> cudaError_t cudaMalloc(T** devPtr, size_t size);
cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned flags = 1);
template <class T> cudaError_t cudaMallocManaged(T** devPtr, size_t size, unsigned flags = 1);
cudaError_t cudaMallocHost(void** ptr, size_t size);
template <class T> cudaError_t cudaMallocHost(T** ptr, size_t size);
cudaError_t cudaFree(void* devPtr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
template <class T> cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count,
                                                  size_t offset = 0,
                                                  cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* devPtr, int value, size_t count);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaMemGetInfo(size_t* free, size_t* total);
template <class T> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, T* function);
template <class T> cudaError_t cudaFuncSetAttribute(T* function, cudaFuncAttribute attribute, int value);
template <class T> cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int* blocks, T* function, int block_size, size_t dynamic_shared_bytes);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
// What Clang's Sema calls for kernel<<<grid, block, shared, stream>>>(...) (old and new ABI).
extern "C" int cudaConfigureCall(dim3 gridSize, dim3 blockSize, size_t sharedSize = 0,
                                 cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridSize, dim3 blockSize,
                                                size_t sharedSize = 0, cudaStream_t stream = 0);
