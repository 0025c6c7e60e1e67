// The device primitives on Thrust: for its CPP and OMP systems (plain g++, no GPU: the
// emulated device that CI and R users run) and its CUDA system.
//
// The contract, each call's signature and guarantees, is device_primitives.h; the emulated
// device's translation unit (emulated_device.cpp) checks this backend against it at compile
// time. CCCL is seen only by the device/ headers and the two translation units that
// instantiate them (emulated_device.cpp, cuda_device.cu); the rest of the engine, the bridge
// and R never include it.
#pragma once

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/functional.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

#include "common/host_device.h"

namespace argus {

namespace thrust_detail {
template <typename T>
struct Store {
  T* out;
  T value;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { *out = value; }
};
template <typename It, typename T, typename Op>
struct Fold {
  It first;
  std::int64_t n;
  T init;
  Op op;
  T* out;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {
    T acc = init;
    for (std::int64_t k = 0; k < n; ++k) acc = op(acc, first[k]);
    *out = acc;
  }
};
template <typename It, typename T, typename Op>
struct SegmentFold {
  It first;
  const std::int64_t* offsets;
  T init;
  Op op;
  T* out;
  ARGUS_HOST_DEVICE void operator()(std::int64_t s) const {
    T acc = init;
    for (std::int64_t k = offsets[s]; k < offsets[s + 1]; ++k) acc = op(acc, first[k]);
    out[s] = acc;
  }
};
inline bool flagSet(const int* flag) {
  if (!flag) return true;
  int set = 0;
  thrust::copy(thrust::device_pointer_cast(flag), thrust::device_pointer_cast(flag) + 1, &set);
  return set != 0;
}
}  // namespace thrust_detail

struct ThrustPrimitives {
  // An exact cycle here costs what it costs on the CPU: "auto" takes the survival models'
  // majorized start (solver/majorized_start.h) as the CPU does.
  static constexpr double kExactCycleCostScale = 1.0;
  template <typename F>
  void forEach(std::int64_t n, F f) const {
    if (n <= 0) return;
    thrust::for_each_n(thrust::device, thrust::counting_iterator<std::int64_t>(0), n, f);
  }

  // The CPP system folds left to right from init, as the CPU loops do, so the emulated device
  // reproduces the CPU's sums bit for bit; OMP and CUDA sum in a tree (~1e-16 relative).
  template <typename It, typename T, typename Op>
  void reduceTo(It first, std::int64_t n, T init, Op op, T* out) const {
    const T value = n > 0 ? thrust::reduce(thrust::device, first, first + n, init, op) : init;
    forEach(1, thrust_detail::Store<T>{out, value});
  }

  // The flag is read on the host: free on the host systems; with Thrust's CUDA system it is a
  // synchronization (the CUB backend tests it on the device instead).
  template <typename It, typename T, typename Op>
  void reduceToIf(const int* flag, It first, std::int64_t n, T init, Op op, T* out) const {
    if (thrust_detail::flagSet(flag)) reduceTo(first, n, init, op, out);
  }

  // The fold left to right in one thread: the emulated device's reference order.
  template <typename It, typename T, typename Op, typename Then>
  void foldThen(It first, std::int64_t n, T identity, Op op, T* out, Then then) const {
    forEach(1, thrust_detail::Fold<It, T, Op>{first, n, identity, op, out});
    forEach(1, then);
  }

  template <typename It, typename T, typename Op>
  void segmentedReduceTo(It first, const std::int64_t* offsets, std::int64_t segments, T init, Op op,
                         T* out) const {
    forEach(segments, thrust_detail::SegmentFold<It, T, Op>{first, offsets, init, op, out});
  }

  // On the host systems device memory is host memory: a stable sort of the pairs' order there
  // (Thrust's own sequential radix sort binds a device reference through a null pointer, which
  // UBSan reports); on Thrust's CUDA system its stable sort on copies.
  void sortByKey(const std::int32_t* keys, const std::int64_t* values, std::int64_t n, std::int32_t* keysOut,
                 std::int64_t* valuesOut) const {
    if (n <= 0) return;
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
    thrust::copy(thrust::device, keys, keys + n, keysOut);
    thrust::copy(thrust::device, values, values + n, valuesOut);
    thrust::stable_sort_by_key(thrust::device, keysOut, keysOut + n, valuesOut);
#else
    std::vector<std::int64_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return keys[a] < keys[b]; });
    for (std::int64_t i = 0; i < n; ++i) {
      keysOut[i] = keys[order[i]];
      valuesOut[i] = values[order[i]];
    }
#endif
  }

  template <typename Key, typename F>
  void replay(const Key&, F&& enqueue) const {
    enqueue();
  }

  // The flag is read on the host, as in reduceToIf.
  template <bool Descending, bool Exclusive, typename Keys, typename Values, typename Op, typename Out>
  void scanByKeyIf(const int* flag, Keys keys, Values values, std::int64_t n, Op op, Out out) const {
    if (n <= 0 || !thrust_detail::flagSet(flag)) return;
    using T = std::decay_t<decltype(op(values[0], values[0]))>;
    // Raw pointers or iterators over them (the policy names the system): a device_ptr's
    // element reference binds its system through a null pointer, which UBSan reports.
    Out to = out;
    if constexpr (Descending)
      scan<Exclusive, T>(thrust::make_reverse_iterator(keys + n), thrust::make_reverse_iterator(values + n), n, op,
                         thrust::make_reverse_iterator(to + n));
    else
      scan<Exclusive, T>(keys, values, n, op, to);
  }

 private:
  template <bool Exclusive, typename T, typename Keys, typename Values, typename Op, typename Out>
  static void scan(Keys keys, Values values, std::int64_t n, Op op, Out out) {
    if constexpr (Exclusive)
      thrust::exclusive_scan_by_key(thrust::device, keys, keys + n, values, out, T{},
                                    thrust::equal_to<std::int32_t>(), op);
    else
      thrust::inclusive_scan_by_key(thrust::device, keys, keys + n, values, out,
                                    thrust::equal_to<std::int32_t>(), op);
  }
};

}  // namespace argus
