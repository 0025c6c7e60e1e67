// The device primitives: the whole interface the device models (device_*_likelihood.h and
// their helpers) are written against, with what each call guarantees. Two backends implement
// it: ThrustPrimitives (thrust_primitives.h: g++ on Thrust's CPP and OMP systems, the emulated
// device) and CubPrimitives (cub_primitives.cuh: nvcc, the GPU). Each backend's translation
// unit (emulated_device.cpp, cuda_device.cu) static_asserts satisfiesDevicePrimitives<Backend>(),
// so a backend that lacks a call, or takes other arguments, or returns a value, does not build.
// This header needs no CCCL: tests/cpp/primitives_contract_test.cpp checks the check.
//
// The calls (`first`, `keys`, `values`: random-access iterators or pointers into device
// memory; `out`: device memory; `flag`: a device int, or null where allowed):
//
//   forEach(n, f)
//       f(i) once for every i in [0, n), in any order, possibly concurrently: f must not
//       depend on another index's call. forEach(1, f) is the one-thread step that reads the
//       results of the calls before it and decides the next (nothing comes back to the host).
//   reduceTo(first, n, init, op, out)
//       *out = init op first[0] op ... op first[n-1], for an associative op. Grouping: on CPP
//       left to right (the CPU loops' order, so the emulated device repeats the CPU bit for
//       bit where a model sums as the CPU does); on OMP and CUDA a tree whose shape depends
//       on n alone (equal to the CPU to rounding, and to itself from run to run).
//   reduceToIf(flag, first, n, init, op, out)
//       reduceTo where *flag != 0, nothing read or written otherwise. `init` must be op's
//       identity (a backend may start every thread from it).
//   foldThen(first, n, identity, op, out, then)
//       *out = identity op first[0] op ... op first[n-1] for an op that is associative but
//       not commutative: items are grouped (by n alone), never reordered; then then(0), once,
//       in one thread that sees *out. An item may be costly (it may be computed as the fold
//       reads it). On CUDA all in one launch.
//   segmentedReduceTo(first, offsets, segments, init, op, out)
//       out[s] = init op first[offsets[s]] op ... op first[offsets[s + 1] - 1] for every
//       segment s (offsets: device memory, segments + 1 of them); within a segment in order.
//   scanByKeyIf<Descending, Exclusive>(flag, keys, values, n, op, out)
//       where *flag != 0 (flag null: always), out[k] = the op-sum of values over k's run of
//       equal keys (int32) up to k: from the run's top when Descending, without values[k]
//       when Exclusive (T{}, which must be op's identity, at the run's start). The grouping
//       of a sum depends on n alone (never on timing: CUB's DeviceScan look-back does, and
//       was replaced for that).
//   sortByKey(keys, values, n, keysOut, valuesOut)
//       keysOut, valuesOut = the n (int32 key, int64 value) pairs sorted by key, ascending and
//       stable (equal keys keep their order): a radix sort on CUB, deterministic. The inputs
//       are left as they are. Used once per design (all_coordinates_build.h: the row-major copy).
//   replay(key, enqueue)
//       enqueue() enqueues the calls of one sweep. A backend may record them under `key` and
//       replay the recording (CUB: a CUDA graph), so the calls must depend on nothing but
//       the key and buffers that stay put.
//   kExactCycleCostScale (static constexpr double)
//       What an exact survival cycle costs on this backend relative to the CPU's, for the
//       majorized start's "auto" rule (solver/majorized_start.h): 1 on the host systems, 0 on
//       a GPU (the start's host sweeps never pay there).
//
// Every call is enqueued and returns void: results stay in device memory, so a sequence of
// calls never waits for the host. The host reads a result back only once per cycle, or where
// a model's once-per-cycle call returns a scalar.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/host_device.h"

namespace argus {

namespace primitives_contract {

// Archetypes of the arguments the device models pass: pointers as iterators, a binary op on
// doubles, a one-index functor, a sweep's enqueue and its key (device_common.h, SweepKey).
struct Op {
  ARGUS_HOST_DEVICE double operator()(double a, double b) const { return a + b; }
};
struct Step {
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const {}
};
struct Enqueue {
  void operator()() const {}
};
using Key = std::vector<std::uint64_t>;

template <typename P>
using ForEach = decltype(std::declval<const P&>().forEach(std::int64_t{}, Step{}));
template <typename P>
using ReduceTo = decltype(std::declval<const P&>().reduceTo(std::declval<const double*>(), std::int64_t{}, 0.0,
                                                            Op{}, std::declval<double*>()));
template <typename P>
using ReduceToIf = decltype(std::declval<const P&>().reduceToIf(std::declval<const int*>(),
                                                                std::declval<const double*>(), std::int64_t{},
                                                                0.0, Op{}, std::declval<double*>()));
template <typename P>
using FoldThen = decltype(std::declval<const P&>().foldThen(std::declval<const double*>(), std::int64_t{}, 0.0,
                                                            Op{}, std::declval<double*>(), Step{}));
template <typename P>
using SegmentedReduceTo = decltype(std::declval<const P&>().segmentedReduceTo(
    std::declval<const double*>(), std::declval<const std::int64_t*>(), std::int64_t{}, 0.0, Op{},
    std::declval<double*>()));
template <bool Descending, bool Exclusive>
struct ScanByKeyIf {
  template <typename P>
  using Call = decltype(std::declval<const P&>().template scanByKeyIf<Descending, Exclusive>(
      std::declval<const int*>(), std::declval<const std::int32_t*>(), std::declval<const double*>(),
      std::int64_t{}, Op{}, std::declval<double*>()));
};
template <typename P>
using SortByKey = decltype(std::declval<const P&>().sortByKey(std::declval<const std::int32_t*>(),
                                                              std::declval<const std::int64_t*>(), std::int64_t{},
                                                              std::declval<std::int32_t*>(),
                                                              std::declval<std::int64_t*>()));
template <typename P>
using Replay = decltype(std::declval<const P&>().replay(std::declval<const Key&>(), Enqueue{}));

// Whether P has the call (Call<P> well formed) and it returns void.
template <template <typename> class Call, typename P, typename = void>
struct Provides : std::false_type {};
template <template <typename> class Call, typename P>
struct Provides<Call, P, std::void_t<Call<P>>> : std::is_void<Call<P>> {};

template <typename P, typename = void>
struct HasCostScale : std::false_type {};
template <typename P>
struct HasCostScale<P, std::void_t<decltype(P::kExactCycleCostScale)>>
    : std::is_same<std::remove_cv_t<decltype(P::kExactCycleCostScale)>, double> {};

}  // namespace primitives_contract

// Whether P provides every call of the contract above with its arguments, each returning void.
template <typename P>
inline constexpr bool isDevicePrimitives =
    std::is_default_constructible_v<P> && primitives_contract::Provides<primitives_contract::ForEach, P>::value &&
    primitives_contract::Provides<primitives_contract::ReduceTo, P>::value &&
    primitives_contract::Provides<primitives_contract::ReduceToIf, P>::value &&
    primitives_contract::Provides<primitives_contract::FoldThen, P>::value &&
    primitives_contract::Provides<primitives_contract::SegmentedReduceTo, P>::value &&
    primitives_contract::Provides<primitives_contract::ScanByKeyIf<false, false>::Call, P>::value &&
    primitives_contract::Provides<primitives_contract::ScanByKeyIf<false, true>::Call, P>::value &&
    primitives_contract::Provides<primitives_contract::ScanByKeyIf<true, false>::Call, P>::value &&
    primitives_contract::Provides<primitives_contract::ScanByKeyIf<true, true>::Call, P>::value &&
    primitives_contract::Provides<primitives_contract::SortByKey, P>::value &&
    primitives_contract::Provides<primitives_contract::Replay, P>::value &&
    primitives_contract::HasCostScale<P>::value;

// isDevicePrimitives<P>, naming the first call P lacks: static_assert(satisfiesDevicePrimitives<P>()).
template <typename P>
constexpr bool satisfiesDevicePrimitives() {
  using namespace primitives_contract;
  static_assert(std::is_default_constructible_v<P>, "device primitives: default-constructible");
  static_assert(Provides<ForEach, P>::value, "device primitives: void forEach(n, f)");
  static_assert(Provides<ReduceTo, P>::value, "device primitives: void reduceTo(first, n, init, op, out)");
  static_assert(Provides<ReduceToIf, P>::value, "device primitives: void reduceToIf(flag, first, n, init, op, out)");
  static_assert(Provides<FoldThen, P>::value, "device primitives: void foldThen(first, n, identity, op, out, then)");
  static_assert(Provides<SegmentedReduceTo, P>::value,
                "device primitives: void segmentedReduceTo(first, offsets, segments, init, op, out)");
  static_assert(Provides<ScanByKeyIf<false, false>::Call, P>::value &&
                    Provides<ScanByKeyIf<false, true>::Call, P>::value &&
                    Provides<ScanByKeyIf<true, false>::Call, P>::value &&
                    Provides<ScanByKeyIf<true, true>::Call, P>::value,
                "device primitives: void scanByKeyIf<Descending, Exclusive>(flag, keys, values, n, op, out)");
  static_assert(Provides<SortByKey, P>::value,
                "device primitives: void sortByKey(keys, values, n, keysOut, valuesOut)");
  static_assert(Provides<Replay, P>::value, "device primitives: void replay(key, enqueue)");
  static_assert(HasCostScale<P>::value, "device primitives: static constexpr double kExactCycleCostScale");
  return isDevicePrimitives<P>;
}

}  // namespace argus
