// Device memory and events owned by one object each, for every runner in kernels/ (the probe and
// the lecture's kernel): allocated through WARPDIV_CUDA, so a failure is a CudaError naming the
// call; freed on every path without throwing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cuda_check.cuh"
#include "sim/support/errors.hpp"

namespace warpdiv::kernels::detail {

/// `count` elements of T on the current device, zero-filled.
template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t count) : count_(count) {
    if (count_ > 0) {
      WARPDIV_CUDA(cudaMalloc(&data_, bytes()));
      WARPDIV_CUDA(cudaMemset(data_, 0, bytes()));
    }
  }
  ~DeviceArray() {
    if (data_ != nullptr) (void)cudaFree(data_);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& other) noexcept { *this = std::move(other); }
  DeviceArray& operator=(DeviceArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }

  T* get() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  /// Copies `host`, which must hold size() elements, into the array.
  void upload(const std::vector<T>& host) {
    if (host.size() != count_)
      throw InternalError("DeviceArray::upload: " + std::to_string(host.size()) +
                                  " elements for an array of " + std::to_string(count_));
    if (count_ > 0) WARPDIV_CUDA(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ > 0) WARPDIV_CUDA(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  /// Sets every byte to `byte` (e.g. 0xFF, a NaN in every float, to see what a kernel leaves unwritten).
  void fill_bytes(unsigned char byte) {
    if (count_ > 0) WARPDIV_CUDA(cudaMemset(data_, byte, bytes()));
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

/// A CUDA event, for timing launches on the default stream.
class Event {
 public:
  Event() { WARPDIV_CUDA(cudaEventCreate(&event_)); }
  ~Event() { (void)cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_{};
};

}  // namespace warpdiv::kernels::detail
