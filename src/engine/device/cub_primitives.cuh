// The device primitives on CUB, for the CUDA build (nvcc only): the same interface as
// thrust_primitives.h, so the device models run unchanged.
//
// Everything is enqueued on one stream and nothing waits for the host: CUB's algorithms
// write their results to device memory, and the flag-gated reduction reads its flag on the
// device (two small kernels of our own whose blocks return at once where the flag is 0, so
// a coordinate that needs no exact sums costs two empty launches, not an O(N) pass), so a
// coordinate's launches queue back to back. One grow-only scratch buffer serves every CUB
// call; it is sized on first use. Compiled by nvcc, never run on a GPU yet (DESIGN.md).
#pragma once

#include <cub/device/device_for.cuh>
#include <cub/block/block_reduce.cuh>
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

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

// Block partial sums of first[0, n), each block's written to partials[blockIdx.x]; nothing
// at all (no load) where *flag is 0. `init` must be op's identity: every thread starts from it.
template <typename It, typename T, typename Op>
__global__ void gatedPartials(const int* flag, It first, std::int64_t n, T init, Op op, T* partials) {
  if (!*flag) return;
  using BlockReduce = cub::BlockReduce<T, kThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  T acc = init;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kThreads;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x; k < n; k += stride)
    acc = op(acc, first[k]);
  const T total = BlockReduce(temp).Reduce(acc, op);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// *out = the sum of `count` partials, where *flag is set.
template <typename T, typename Op>
__global__ void gatedFinish(const int* flag, const T* partials, int count, T init, Op op, T* out) {
  if (!*flag) return;
  using BlockReduce = cub::BlockReduce<T, kThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  T acc = init;
  for (int k = threadIdx.x; k < count; k += kThreads) acc = op(acc, partials[k]);
  const T total = BlockReduce(temp).Reduce(acc, op);
  if (threadIdx.x == 0) *out = total;
}

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

  // Two kernels whose blocks return at once where *flag is 0: the launches are queued, the
  // data is not read. `init` must be op's identity (the device models pass zero sums).
  template <typename It, typename T, typename Op>
  void reduceToIf(const int* flag, It first, std::int64_t n, T init, Op op, T* out) const {
    const std::size_t bytes = cub_detail::kMaxBlocks * sizeof(T);
    if (stagingBytes_ < bytes) {
      if (staging_) cudaFree(staging_);
      cudaCheck(cudaMalloc(&staging_, bytes), "cudaMalloc");
      stagingBytes_ = bytes;
    }
    T* partials = static_cast<T*>(staging_);
    const std::int64_t wanted = (n + cub_detail::kThreads - 1) / cub_detail::kThreads;
    const int blocks = static_cast<int>(wanted < 1 ? 1 : (wanted < cub_detail::kMaxBlocks ? wanted : cub_detail::kMaxBlocks));
    cub_detail::gatedPartials<<<blocks, cub_detail::kThreads, 0, stream_>>>(flag, first, n, init, op, partials);
    cudaCheck(cudaGetLastError(), "gatedPartials");
    cub_detail::gatedFinish<<<1, cub_detail::kThreads, 0, stream_>>>(flag, partials, blocks, init, op, out);
    cudaCheck(cudaGetLastError(), "gatedFinish");
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
