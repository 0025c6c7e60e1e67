// Kernels of our own behind two CUB primitives (cub_primitives.cuh), nvcc only:
//
// - A segmented scan (scan by key) that reads a device flag and does nothing where it is 0.
//   CUB's DeviceScan takes its work from the host, so a refresh after a coordinate whose step
//   was 0 used to run in full (on an H100, three scans of 10 us each at Cox 1e6 with whole
//   days, for ~500 slots: latency, not work). Here a block scans a tile of kScanTile items:
//   each thread folds its contiguous items, a cub::BlockScan combines the threads, and the
//   thread writes its items from that prefix. Up to kOneBlockTiles tiles one block scans in
//   turn; longer inputs take three launches: tile aggregates, their exclusive scan in one
//   block, the tiles again with their carry. Runs are handled by the usual pair trick (value,
//   "a run starts in here"), whose combination is associative, so the grouping is fixed by n
//   alone: the same sums on every run, not the CPU's order (they agree to rounding).
// - An ordered fold whose last block to finish folds the blocks' results in block order and
//   hands the total to a one-thread functor: the fold's two levels and the step that reads
//   them in one launch (a ticket counter, reset by that last block, says which block is last).
#pragma once

#include <cub/block/block_scan.cuh>

#include <cstdint>

namespace argus {
namespace cub_detail {

constexpr int kScanThreads = 256;
constexpr int kScanItems = 8;
constexpr std::int64_t kScanTile = static_cast<std::int64_t>(kScanThreads) * kScanItems;

// A stretch of a keyed sequence: the op-sum from its last run start (or its beginning) to its
// end, and whether a run starts inside it.
template <typename T>
struct Seg {
  T value;
  int head;
};

// Requires T{} to be op's identity (the device models pass sums).
template <typename T, typename Op>
struct SegCombine {
  Op op;
  __device__ Seg<T> operator()(const Seg<T>& a, const Seg<T>& b) const {
    return Seg<T>{b.head ? b.value : op(a.value, b.value), a.head | b.head};
  }
};

// The item i of a keyed sequence as a Seg: its value, and whether its key differs from the one
// before.
template <typename Keys, typename Values, typename T>
struct KeyedItem {
  Keys keys;
  Values values;
  __device__ Seg<T> operator()(std::int64_t i) const {
    return Seg<T>{static_cast<T>(values[i]), i == 0 || !(keys[i] == keys[i - 1]) ? 1 : 0};
  }
};

template <typename T>
struct SegArray {
  const Seg<T>* at;
  __device__ Seg<T> operator()(std::int64_t i) const { return at[i]; }
};

// The block's items [begin, end), each thread `per` contiguous ones: emit(i, before, item)
// with `before` the scan of everything ahead of item i (carry first). Returns the block's
// aggregate (carry left out). For the tile aggregates' own scan (runtime `per`).
template <typename T, typename Op, typename At, typename Emit>
__device__ Seg<T> scanBlockItems(std::int64_t begin, std::int64_t end, std::int64_t per, Seg<T> carry,
                                 SegCombine<T, Op> combine, At at, Emit emit) {
  using BlockScan = cub::BlockScan<Seg<T>, kScanThreads>;
  __shared__ typename BlockScan::TempStorage temp;
  const Seg<T> none{T{}, 0};
  const std::int64_t b = begin + static_cast<std::int64_t>(threadIdx.x) * per;
  const std::int64_t e = b + per < end ? b + per : end;
  Seg<T> local = none;
  for (std::int64_t i = b; i < e; ++i) local = combine(local, at(i));
  Seg<T> before, aggregate;
  BlockScan(temp).ExclusiveScan(local, before, none, combine, aggregate);
  Seg<T> run = combine(carry, before);
  for (std::int64_t i = b; i < e; ++i) {
    const Seg<T> item = at(i);
    emit(i, run, item);
    run = combine(run, item);
  }
  return aggregate;
}

// The same for a tile of kScanItems per thread, its items read once into registers: all of a
// thread's loads issue together (a loop that read them one by one, twice, waited on memory
// at each: 9-17 us a scan on an H100 for a few thousand items).
template <typename T, typename Op, typename At, typename Emit>
__device__ Seg<T> scanTile(std::int64_t begin, std::int64_t end, Seg<T> carry, SegCombine<T, Op> combine, At at,
                           Emit emit) {
  using BlockScan = cub::BlockScan<Seg<T>, kScanThreads>;
  __shared__ typename BlockScan::TempStorage temp;
  const Seg<T> none{T{}, 0};
  const std::int64_t b = begin + static_cast<std::int64_t>(threadIdx.x) * kScanItems;
  Seg<T> items[kScanItems];
  Seg<T> local = none;
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    items[k] = b + k < end ? at(b + k) : none;
    local = combine(local, items[k]);
  }
  Seg<T> before, aggregate;
  BlockScan(temp).ExclusiveScan(local, before, none, combine, aggregate);
  Seg<T> run = combine(carry, before);
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    if (b + k < end) emit(b + k, run, items[k]);
    run = combine(run, items[k]);
  }
  __syncthreads();  // temp is used again by the next tile of a one-block scan
  return aggregate;
}

struct EmitNothing {
  template <typename S>
  __device__ void operator()(std::int64_t, const S&, const S&) const {}
};

template <typename T>
struct EmitCarry {
  Seg<T>* carry;
  __device__ void operator()(std::int64_t i, const Seg<T>& before, const Seg<T>&) const { carry[i] = before; }
};

template <bool Exclusive, typename T, typename Op, typename Out>
struct EmitScan {
  SegCombine<T, Op> combine;
  Out out;
  __device__ void operator()(std::int64_t i, const Seg<T>& before, const Seg<T>& item) const {
    if (Exclusive)
      out[i] = item.head ? T{} : before.value;
    else
      out[i] = combine(before, item).value;
  }
};

// Per tile: its aggregate.
template <typename T, typename Op, typename At>
__global__ void gatedTileAggregates(const int* flag, At at, std::int64_t n, SegCombine<T, Op> combine,
                                    Seg<T>* aggregates) {
  if (flag && !*flag) return;
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * kScanTile;
  const std::int64_t end = begin + kScanTile < n ? begin + kScanTile : n;
  const Seg<T> total = scanTile(begin, end, Seg<T>{T{}, 0}, combine, at, EmitNothing{});
  if (threadIdx.x == 0) aggregates[blockIdx.x] = total;
}

// One block: each tile's carry, the exclusive scan of the aggregates before it.
template <typename T, typename Op>
__global__ void gatedTileCarries(const int* flag, const Seg<T>* aggregates, std::int64_t tiles,
                                 SegCombine<T, Op> combine, Seg<T>* carries) {
  if (flag && !*flag) return;
  const std::int64_t per = (tiles + kScanThreads - 1) / kScanThreads;
  scanBlockItems(0, tiles, per, Seg<T>{T{}, 0}, combine, SegArray<T>{aggregates}, EmitCarry<T>{carries});
}

// Per tile: its items written, from its carry.
template <typename T, typename Op, typename At, typename Emit>
__global__ void gatedTileScan(const int* flag, At at, std::int64_t n, SegCombine<T, Op> combine,
                              const Seg<T>* carries, Emit emit) {
  if (flag && !*flag) return;
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * kScanTile;
  const std::int64_t end = begin + kScanTile < n ? begin + kScanTile : n;
  scanTile(begin, end, carries[blockIdx.x], combine, at, emit);
}

// Inputs of up to kOneBlockTiles tiles: one block scans them in turn, carrying the sum.
constexpr std::int64_t kOneBlockTiles = 2;
template <typename T, typename Op, typename At, typename Emit>
__global__ void gatedOneBlockScan(const int* flag, At at, std::int64_t n, SegCombine<T, Op> combine, Emit emit) {
  if (flag && !*flag) return;
  Seg<T> carry{T{}, 0};
  for (std::int64_t begin = 0; begin < n; begin += kScanTile) {
    const std::int64_t end = begin + kScanTile < n ? begin + kScanTile : n;
    carry = combine(carry, scanTile(begin, end, carry, combine, at, emit));
  }
}

// A value another block wrote before its __threadfence(), read past this SM's L1.
template <typename T>
__device__ T loadFromL2(const T* p) {
  static_assert(sizeof(T) % sizeof(unsigned long long) == 0, "loadFromL2 copies 8-byte words");
  T value;
  const unsigned long long* from = reinterpret_cast<const unsigned long long*>(p);
  unsigned long long* to = reinterpret_cast<unsigned long long*>(&value);
  for (std::size_t k = 0; k < sizeof(T) / sizeof(unsigned long long); ++k) to[k] = __ldcg(from + k);
  return value;
}

// What orderedFoldThen folds: the input's items, or (the last block) the blocks' results.
// One type for both, so the kernel holds one shared-memory array, not two.
template <typename It, typename T>
struct FoldSource {
  It first;
  const T* partials;  // null: read `first`
  __device__ T operator()(std::int64_t k) const {
    return partials ? loadFromL2(partials + k) : static_cast<T>(first[k]);
  }
};

// The block's threads fold their shares (each `per` items from `begin`) in order, then the
// shares pairwise, left with right (op is associative, never commuted); every thread gets the
// result.
template <int Threads, typename T, typename Op, typename Load>
__device__ T foldInOrder(std::int64_t begin, std::int64_t end, std::int64_t per, T identity, Op op, Load load) {
  __shared__ __align__(16) unsigned char storage[Threads * sizeof(T)];
  T* share = reinterpret_cast<T*>(storage);
  const std::int64_t b = begin + static_cast<std::int64_t>(threadIdx.x) * per;
  const std::int64_t e = b + per < end ? b + per : end;
  T acc = identity;
  for (std::int64_t k = b; k < e; ++k) acc = op(acc, load(k));
  share[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned width = 1; width < Threads; width *= 2) {
    if (threadIdx.x % (2 * width) == 0) share[threadIdx.x] = op(share[threadIdx.x], share[threadIdx.x + width]);
    __syncthreads();
  }
  return share[0];
}

// Block b folds first[b * span, (b + 1) * span); the last block to finish folds the blocks'
// results in block order into *out and calls then(0). A single block needs no ticket.
template <int Threads, typename It, typename T, typename Op, typename Then>
__global__ void orderedFoldThen(It first, std::int64_t n, std::int64_t span, T identity, Op op, T* partials,
                                unsigned* ticket, T* out, Then then) {
  const std::int64_t begin = static_cast<std::int64_t>(blockIdx.x) * span;
  const std::int64_t end = begin + span < n ? begin + span : n;
  const T mine = foldInOrder<Threads>(begin, end, span / Threads, identity, op, FoldSource<It, T>{first, nullptr});
  if (gridDim.x == 1) {
    if (threadIdx.x == 0) {
      *out = mine;
      then(0);
    }
    return;
  }
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = mine;
    __threadfence();
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  const std::int64_t blocks = gridDim.x;
  const std::int64_t per = (blocks + Threads - 1) / Threads;
  const T total = foldInOrder<Threads>(0, blocks, per, identity, op, FoldSource<It, T>{first, partials});
  if (threadIdx.x == 0) {
    *ticket = 0;
    *out = total;
    then(0);
  }
}

}  // namespace cub_detail
}  // namespace argus
