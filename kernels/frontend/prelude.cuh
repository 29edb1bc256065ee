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
#define __grid_constant__
// nvcc's macros (Clang defines __CUDA_ARCH__ itself), and one of ours so that a file can hide code
// from warpdiv: #ifndef __WARPDIV__ ... #endif.
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#define __NVCC__ 1
#define __WARPDIV__ 1
#define CUDART_VERSION 12000
// The include guards of cuda_runtime.h and what it includes: nvcc includes it before the file, so
// code that tests them (the samples' helper_cuda.h: #ifdef __DRIVER_TYPES_H__) sees them defined.
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __DRIVER_FUNCTIONS_H__
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __TEXTURE_TYPES_H__
#define __SURFACE_TYPES_H__
#define __CHANNEL_DESCRIPTOR_H__
#define __DEVICE_TYPES_H__
#define __LIBRARY_TYPES_H__
#define __HOST_DEFINES_H__
#define __BUILTIN_TYPES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __CUDA_API_VERSION 12000
#define __CUDA_API_VER_MAJOR__ 12
#define __CUDA_API_VER_MINOR__ 0
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0

typedef __SIZE_TYPE__ size_t;

// The vector types (vector_types.h): 1 to 4 components of each scalar; make_* in prelude_device.
#define WARPDIV_VECTOR(T, name, a2, a4) \
  struct name##1 { T x; }; \
  struct __attribute__((aligned(a2))) name##2 { T x, y; }; \
  struct name##3 { T x, y, z; }; \
  struct __attribute__((aligned(a4))) name##4 { T x, y, z, w; };
WARPDIV_VECTOR(signed char, char, 2, 4) WARPDIV_VECTOR(unsigned char, uchar, 2, 4)
WARPDIV_VECTOR(short, short, 4, 8) WARPDIV_VECTOR(unsigned short, ushort, 4, 8)
WARPDIV_VECTOR(int, int, 8, 16) WARPDIV_VECTOR(unsigned int, uint, 8, 16)
WARPDIV_VECTOR(long, long, 16, 16) WARPDIV_VECTOR(unsigned long, ulong, 16, 16)
WARPDIV_VECTOR(long long, longlong, 16, 16) WARPDIV_VECTOR(unsigned long long, ulonglong, 16, 16)
WARPDIV_VECTOR(float, float, 8, 16) WARPDIV_VECTOR(double, double, 16, 16)
#undef WARPDIV_VECTOR
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
typedef struct dim3 dim3;

// The launch built-ins (recognised by name in this file).
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

// Barriers (recognised by name). The warp functions, fences and the rest: prelude_device.cuh.
extern "C" __device__ void __syncthreads();
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);

// min/max/abs/llabs on integers are modelled (recognised by name; both arguments converted to
// the result type, as math_functions.hpp converts them: min(int, unsigned) compares unsigned);
// on floating point they are opaque values. The overloads follow math_functions.h.
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
#define WARPDIV_MIN_MAX(R, A, B) __host__ __device__ R min(A a, B b); __host__ __device__ R max(A a, B b);
WARPDIV_MIN_MAX(long, long, long) WARPDIV_MIN_MAX(unsigned long, unsigned long, unsigned long)
WARPDIV_MIN_MAX(double, float, double) WARPDIV_MIN_MAX(double, double, float)
WARPDIV_MIN_MAX(unsigned int, int, unsigned int) WARPDIV_MIN_MAX(unsigned int, unsigned int, int)
WARPDIV_MIN_MAX(unsigned long, long, unsigned long)
WARPDIV_MIN_MAX(unsigned long, unsigned long, long)
WARPDIV_MIN_MAX(unsigned long long, long long, unsigned long long)
WARPDIV_MIN_MAX(unsigned long long, unsigned long long, long long)
#undef WARPDIV_MIN_MAX
static __device__ int abs(int);
__device__ long long llabs(long long);

// The C library in device code: static device overloads declared before the system headers' host
// declarations (Clang overloads on __host__/__device__; the headers come at the end of the
// prelude, as nvcc's cuda_runtime.h includes them).
static __device__ int printf(const char*, ...);
static __device__ void* malloc(size_t);
static __device__ void free(void*);
static __device__ void* memcpy(void*, const void*, size_t);
static __device__ void* memset(void*, int, size_t);
static __device__ long clock();
static __device__ void __assert_fail(const char*, const char*, unsigned, const char*);
