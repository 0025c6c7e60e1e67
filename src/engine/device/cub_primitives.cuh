// The device primitives on CUB, for the CUDA build (nvcc only): the same interface as
// thrust_primitives.h, so the device models run unchanged.
//
// Everything is enqueued on one stream and nothing waits for the host: CUB's algorithms
// write their results to device memory, and the flag-gated reduction reads its flag on the
// device (a gated input that skips the inner iterator's loads where the flag is 0, then a
// one-thread copy into the output only where it is set), so a coordinate's launches queue
// back to back. One grow-only scratch buffer serves every call; it is sized on first use.
#pragma once

#include <cub/device/device_for.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/host_device.h"

namespace argus {

inline void cudaCheck(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA ") + what + ": " + cudaGetErrorString(e));
}

namespace cub_detail {
// first[k] where *flag is set, else init (no load from first).
template <typename It, typename T>
struct Gated {
  It first;
  const int* flag;
  T init;
  __host__ __device__ T operator()(std::int64_t k) const { return *flag ? T(first[k]) : init; }
};
template <typename T>
struct CopyIf {
  const int* flag;
  const T* from;
  T* to;
  __host__ __device__ void operator()(std::int64_t) const {
    if (*flag) *to = *from;
  }
};
}  // namespace cub_detail

class CubPrimitives {
 public:
  CubPrimitives() = default;
  CubPrimitives(const CubPrimitives&) = delete;
  CubPrimitives& operator=(const CubPrimitives&) = delete;
  ~CubPrimitives() {
    if (scratch_) cudaFree(scratch_);
    if (staging_) cudaFree(staging_);
  }

  template <typename F>
  void forEach(std::int64_t n, F f) const {
    if (n <= 0) return;
    cudaCheck(cub::DeviceFor::Bulk(n, f, stream_), "DeviceFor::Bulk");
  }

  template <typename It, typename T, typename Op>
  void reduceTo(It first, std::int64_t n, T init, Op op, T* out) const {
    std::size_t bytes = 0;
    cudaCheck(cub::DeviceReduce::Reduce(nullptr, bytes, first, out, n, op, init, stream_), "Reduce (size)");
    ensure(bytes);
    cudaCheck(cub::DeviceReduce::Reduce(scratch_, bytes, first, out, n, op, init, stream_), "Reduce");
  }

  template <typename It, typename T, typename Op>
  void reduceToIf(const int* flag, It first, std::int64_t n, T init, Op op, T* out) const {
    if (stagingBytes_ < sizeof(T)) {
      if (staging_) cudaFree(staging_);
      cudaCheck(cudaMalloc(&staging_, sizeof(T)), "cudaMalloc");
      stagingBytes_ = sizeof(T);
    }
    T* staged = static_cast<T*>(staging_);
    auto gated = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                 cub_detail::Gated<It, T>{first, flag, init});
    reduceTo(gated, n, init, op, staged);
    forEach(1, cub_detail::CopyIf<T>{flag, staged, out});
  }

 private:
  void ensure(std::size_t bytes) const {
    if (bytes <= scratchBytes_) return;
    if (scratch_) cudaFree(scratch_);
    cudaCheck(cudaMalloc(&scratch_, bytes), "cudaMalloc");
    scratchBytes_ = bytes;
  }

  cudaStream_t stream_ = 0;
  mutable void* scratch_ = nullptr;
  mutable std::size_t scratchBytes_ = 0;
  mutable void* staging_ = nullptr;
  mutable std::size_t stagingBytes_ = 0;
};

}  // namespace argus
