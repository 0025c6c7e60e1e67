// The device primitives on CUB, for the CUDA build (nvcc only): the contract of
// device_primitives.h, as thrust_primitives.h, so the device models run unchanged
// (cuda_device.cu checks it at compile time).
//
// Everything is enqueued on the calling thread's default stream (the CUDA sources are compiled
// with --default-stream per-thread, so Thrust's copies share it and each host thread, one per
// cross-validation fold, has its own) and nothing waits for the host: CUB's algorithms
// write their results to device memory, and the flag-gated reduction and scan read their flag
// on the device (kernels of our own whose blocks return at once where the flag is 0, so a
// coordinate that needs no exact sums costs two empty launches, not an O(N) pass; the gated
// scan and foldThen's one-launch fold are in cub_gated_kernels.cuh), so a coordinate's
// launches queue back to back. Grow-only buffers serve every call; they are sized on first
// use. Run on an H100 and an H200 (bench/RESULTS.md, the device table).
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/reverse_iterator.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <new>
#include <vector>
#include <stdexcept>
#include <string>
#include <utility>
#include <type_traits>

#include "common/host_device.h"
#include "device/cub_gated_kernels.cuh"

namespace argus {

// An allocation the device could not serve: a std::bad_alloc, as thrust's own, so that the
// dispatch point can tell running out of memory (a batch of fits then runs one by one) from
// other device errors.
class CudaOutOfMemory : public std::bad_alloc {
 public:
  explicit CudaOutOfMemory(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

inline void cudaCheck(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  const std::string message = std::string("CUDA ") + what + ": " + cudaGetErrorString(e);
  if (e == cudaErrorMemoryAllocation) throw CudaOutOfMemory(message);
  throw std::runtime_error(message);
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

template <typename F>
__global__ void forEachKernel(std::int64_t n, F f) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) f(i);
}

}  // namespace cub_detail

class CubPrimitives {
 public:
  // On a GPU an exact survival cycle is cheap against the host's sweeps of the majorized
  // start (Cox 1e6 continuous: 0.49 s a cycle, against 4.8 s on a CPU core and about 0.5 s
  // a host sweep): "auto" leaves the start out; "always" still takes it.
  static constexpr double kExactCycleCostScale = 0.0;
  CubPrimitives() = default;
  CubPrimitives(const CubPrimitives&) = delete;
  CubPrimitives& operator=(const CubPrimitives&) = delete;
  ~CubPrimitives() {
    dropGraphs();
    if (scratch_) cudaFree(scratch_);
    if (staging_) cudaFree(staging_);
    if (fold_) cudaFree(fold_);
    if (ticket_) cudaFree(ticket_);
    if (segments_) cudaFree(segments_);
  }

  // A plain grid-stride launch: CUB's DeviceFor dispatch cost more host time per call.
  template <typename F>
  void forEach(std::int64_t n, F f) const {
    if (n <= 0) return;
    const std::int64_t wanted = (n + cub_detail::kThreads - 1) / cub_detail::kThreads;
    const int blocks = static_cast<int>(wanted < (1 << 20) ? wanted : (1 << 20));
    cub_detail::forEachKernel<<<blocks, cub_detail::kThreads, 0, stream_>>>(n, f);
    cudaCheck(cudaGetLastError(), "forEach");
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
    grow(&staging_, &stagingBytes_, bytes);
    T* partials = static_cast<T*>(staging_);
    const std::int64_t wanted = (n + cub_detail::kThreads - 1) / cub_detail::kThreads;
    const int blocks = static_cast<int>(wanted < 1 ? 1 : (wanted < cub_detail::kMaxBlocks ? wanted : cub_detail::kMaxBlocks));
    cub_detail::gatedPartials<<<blocks, cub_detail::kThreads, 0, stream_>>>(flag, first, n, init, op, partials);
    cudaCheck(cudaGetLastError(), "gatedPartials");
    cub_detail::gatedFinish<<<1, cub_detail::kThreads, 0, stream_>>>(flag, partials, blocks, init, op, out);
    cudaCheck(cudaGetLastError(), "gatedFinish");
  }

  // The ordered fold into *out, then then(0) in one thread that sees *out, all in one launch:
  // the blocks' results are folded by the last block to finish (cub_gated_kernels.cuh,
  // orderedFoldThen). One item per thread, for every caller: an item may be costly (the
  // survival model's items, its only caller's, are its chunks' scans, computed as the fold
  // reads them); cheap items would fold faster several to a thread.
  template <typename It, typename T, typename Op, typename Then>
  void foldThen(It first, std::int64_t n, T identity, Op op, T* out, Then then) const {
    constexpr std::int64_t kOneLevel = cub_detail::kThreads;
    if (n <= kOneLevel) {
      cub_detail::orderedFoldThen<cub_detail::kThreads><<<1, cub_detail::kThreads, 0, stream_>>>(
          first, n, kOneLevel, identity, op, static_cast<T*>(nullptr), static_cast<unsigned*>(nullptr), out, then);
      cudaCheck(cudaGetLastError(), "orderedFoldThen");
      return;
    }
    const std::int64_t blocks = (n + cub_detail::kThreads - 1) / cub_detail::kThreads;
    grow(&fold_, &foldBytes_, static_cast<std::size_t>(blocks) * sizeof(T));
    if (!ticket_) {
      cudaCheck(cudaMalloc(&ticket_, sizeof(unsigned)), "cudaMalloc");
      cudaCheck(cudaMemset(ticket_, 0, sizeof(unsigned)), "cudaMemset");
      ++generation_;
    }
    const unsigned grid = static_cast<unsigned>(blocks);
    cub_detail::orderedFoldThen<cub_detail::kThreads><<<grid, cub_detail::kThreads, 0, stream_>>>(
        first, n, cub_detail::kThreads, identity, op, static_cast<T*>(fold_), ticket_, out, then);
    cudaCheck(cudaGetLastError(), "orderedFoldThen");
  }

  template <typename It, typename T, typename Op>
  void segmentedReduceTo(It first, const std::int64_t* offsets, std::int64_t segments, T init, Op op,
                         T* out) const {
    if (segments <= 0) return;
    std::size_t bytes = 0;
    cudaCheck(cub::DeviceSegmentedReduce::Reduce(nullptr, bytes, first, out, segments, offsets, offsets + 1, op,
                                                 init, stream_),
              "SegmentedReduce (size)");
    ensure(bytes);
    cudaCheck(cub::DeviceSegmentedReduce::Reduce(scratch_, bytes, first, out, segments, offsets, offsets + 1, op,
                                                 init, stream_),
              "SegmentedReduce");
  }

  // CUB's radix sort: stable and deterministic. Its bits are the keys' 31 low ones (row
  // indices are never negative).
  void sortByKey(const std::int32_t* keys, const std::int64_t* values, std::int64_t n, std::int32_t* keysOut,
                 std::int64_t* valuesOut) const {
    if (n <= 0) return;
    std::size_t bytes = 0;
    cudaCheck(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, keysOut, values, valuesOut, n, 0, 31, stream_),
              "SortPairs (size)");
    ensure(bytes);
    cudaCheck(cub::DeviceRadixSort::SortPairs(scratch_, bytes, keys, keysOut, values, valuesOut, n, 0, 31, stream_),
              "SortPairs");
  }

  // A sweep makes a dozen small launches per coordinate, each costing the host more than the
  // GPU; recorded as a graph, the whole sweep is one launch. The first time a key comes it
  // runs as is (which also sizes every scratch buffer), the second time it is recorded and
  // launched, then replayed. A scratch buffer that moves (generation_) retires every graph.
  template <typename F>
  void replay(const std::vector<std::uint64_t>& key, F&& enqueue) const {
    auto it = graphs_.find(key);
    if (it != graphs_.end() && it->second.generation != generation_) {
      if (it->second.exec) cudaGraphExecDestroy(it->second.exec);
      graphs_.erase(it);
      it = graphs_.end();
    }
    if (it == graphs_.end()) {
      if (graphs_.size() >= kMaxGraphs) dropGraphs();
      graphs_[key] = Graph{nullptr, generation_, false};
      enqueue();
      return;
    }
    if (it->second.unrecordable) {
      enqueue();
      return;
    }
    if (!it->second.exec) {
      cudaGraph_t graph = nullptr;
      cudaCheck(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
      try {
        enqueue();
      } catch (...) {
        cudaStreamEndCapture(stream_, &graph);
        if (graph) cudaGraphDestroy(graph);
        throw;
      }
      cudaCheck(cudaStreamEndCapture(stream_, &graph), "cudaStreamEndCapture");
      cudaGraphExec_t exec = nullptr;
      const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
      cudaGraphDestroy(graph);
      if (made != cudaSuccess) {
        // Not recordable (a driver limit, say): this sweep runs as is from now on.
        cudaGetLastError();
        it->second.unrecordable = true;
        enqueue();
        return;
      }
      it->second.exec = exec;
    }
    cudaCheck(cudaGraphLaunch(it->second.exec, stream_), "cudaGraphLaunch");
  }

  // scanByKeyIf where *flag is set (flag null: always), on our own kernels at every length
  // (cub_gated_kernels.cuh): one launch up to kOneBlockTiles tiles, beyond that three (tile
  // aggregates, their scan, the tiles again). Not CUB's DeviceScan: its decoupled look-back
  // takes a predecessor's inclusive prefix or only its aggregate, whichever is ready, so the
  // grouping of a floating-point sum, and the fit's last bits and even its cycle count, varied
  // from run to run (Cox 1e6 continuous on an H200: 17 or 18 cycles; CCCL documents DeviceScan
  // as not deterministic for floating-point sums). Ours group by n alone.
  template <bool Descending, bool Exclusive, typename Keys, typename Values, typename Op, typename Out>
  void scanByKeyIf(const int* flag, Keys keys, Values values, std::int64_t n, Op op, Out out) const {
    if (n <= 0) return;
    using T = std::decay_t<decltype(op(values[0], values[0]))>;
    if constexpr (Descending)
      gatedScan<Exclusive, T>(flag, thrust::make_reverse_iterator(keys + n), thrust::make_reverse_iterator(values + n),
                              n, op, thrust::make_reverse_iterator(out + n));
    else
      gatedScan<Exclusive, T>(flag, keys, values, n, op, out);
  }

 private:
  template <bool Exclusive, typename T, typename Keys, typename Values, typename Op, typename Out>
  void gatedScan(const int* flag, Keys keys, Values values, std::int64_t n, Op op, Out out) const {
    using Seg = cub_detail::Seg<T>;
    const cub_detail::SegCombine<T, Op> combine{op};
    const cub_detail::KeyedItem<Keys, Values, T> at{keys, values};
    const cub_detail::EmitScan<Exclusive, T, Op, Out> emit{combine, out};
    const std::int64_t tiles = (n + cub_detail::kScanTile - 1) / cub_detail::kScanTile;
    if (tiles <= cub_detail::kOneBlockTiles) {
      cub_detail::gatedOneBlockScan<<<1, cub_detail::kScanThreads, 0, stream_>>>(flag, at, n, combine, emit);
      cudaCheck(cudaGetLastError(), "gatedOneBlockScan");
      return;
    }
    const std::size_t bytes = 2 * static_cast<std::size_t>(tiles) * sizeof(Seg);
    grow(&segments_, &segmentsBytes_, bytes);
    Seg* aggregates = static_cast<Seg*>(segments_);
    Seg* carries = aggregates + tiles;
    cub_detail::gatedTileAggregates<<<static_cast<unsigned>(tiles), cub_detail::kScanThreads, 0, stream_>>>(
        flag, at, n, combine, aggregates);
    cudaCheck(cudaGetLastError(), "gatedTileAggregates");
    cub_detail::gatedTileCarries<<<1, cub_detail::kScanThreads, 0, stream_>>>(flag, aggregates, tiles, combine,
                                                                              carries);
    cudaCheck(cudaGetLastError(), "gatedTileCarries");
    cub_detail::gatedTileScan<<<static_cast<unsigned>(tiles), cub_detail::kScanThreads, 0, stream_>>>(
        flag, at, n, combine, carries, emit);
    cudaCheck(cudaGetLastError(), "gatedTileScan");
  }

  // A grow-only buffer: reallocated (and every recorded graph retired) only to grow.
  void grow(void** buffer, std::size_t* have, std::size_t bytes) const {
    if (*have >= bytes) return;
    if (*buffer) cudaFree(*buffer);
    *buffer = nullptr;
    cudaCheck(cudaMalloc(buffer, bytes), "cudaMalloc");
    *have = bytes;
    ++generation_;
  }
  void ensure(std::size_t bytes) const { grow(&scratch_, &scratchBytes_, bytes); }
  void dropGraphs() const {
    for (auto& g : graphs_)
      if (g.second.exec) cudaGraphExecDestroy(g.second.exec);
    graphs_.clear();
  }

  struct Graph {
    cudaGraphExec_t exec;  // null: seen once, not recorded yet
    std::uint64_t generation;
    bool unrecordable;
  };
  static constexpr std::size_t kMaxGraphs = 8;
  cudaStream_t stream_ = cudaStreamPerThread;
  mutable std::map<std::vector<std::uint64_t>, Graph> graphs_;
  mutable std::uint64_t generation_ = 0;
  mutable void* scratch_ = nullptr;
  mutable std::size_t scratchBytes_ = 0;
  mutable void* staging_ = nullptr;
  mutable std::size_t stagingBytes_ = 0;
  mutable void* fold_ = nullptr;  // foldThen's blocks' results
  mutable std::size_t foldBytes_ = 0;
  mutable unsigned* ticket_ = nullptr;  // foldThen's count of finished blocks (0 between calls)
  mutable void* segments_ = nullptr;    // scanByKeyIf's tile aggregates and carries
  mutable std::size_t segmentsBytes_ = 0;
};

}  // namespace argus
