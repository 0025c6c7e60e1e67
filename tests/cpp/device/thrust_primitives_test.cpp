// The Thrust backend (device/thrust_primitives.h) against the guarantees written in
// device/device_primitives.h, on the host system it was built for (CPP: serial; OMP:
// threads): what each call computes, that a fold keeps the order of a non-commutative op, that
// a gated call touches nothing while its flag is 0, and that a sort by key is stable. Compiled
// in the emulated builds only (THRUST_DEVICE_SYSTEM set); on a GPU the device suite runs the
// models on the CUB backend.
#if defined(THRUST_DEVICE_SYSTEM)
#include <gtest/gtest.h>

#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/host_vector.h>

#include <cstdint>
#include <string>
#include <vector>

#include "device/device_primitives.h"
#include "device/thrust_primitives.h"

namespace argus {
namespace {

template <typename T>
T* raw(thrust::device_vector<T>& v) {
  return thrust::raw_pointer_cast(v.data());
}
// Fills v from the host (an element reference, v[0] = x, binds its system through a null
// pointer, which UBSan reports).
template <typename T>
void set(thrust::device_vector<T>& v, T value) {
  thrust::fill(v.begin(), v.end(), value);
}
template <typename T>
std::vector<T> host(const thrust::device_vector<T>& v) {
  const thrust::host_vector<T> h = v;
  return std::vector<T>(h.begin(), h.end());
}

struct Plus {
  ARGUS_HOST_DEVICE double operator()(double a, double b) const { return a + b; }
};
// x -> a x + b, composed "first, then second": associative, not commutative, and exact on
// the small integers below whatever the grouping, so a result differs only by order.
struct Affine {
  double a = 1.0, b = 0.0;
};
struct Compose {
  ARGUS_HOST_DEVICE Affine operator()(const Affine& first, const Affine& second) const {
    return {first.a * second.a, first.b * second.a + second.b};
  }
};
struct Count {
  int* hits;
  ARGUS_HOST_DEVICE void operator()(std::int64_t i) const { hits[i] += 1; }
};
struct CopyResult {  // foldThen's one-thread step: sees the fold's result
  const Affine* result;
  Affine* copy;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { *copy = *result; }
};

static_assert(satisfiesDevicePrimitives<ThrustPrimitives>());

TEST(ThrustPrimitives, ForEachVisitsEveryIndexOnce) {
  thrust::device_vector<int> hits(1000, 0);
  ThrustPrimitives().forEach(1000, Count{raw(hits)});
  for (int h : host(hits)) ASSERT_EQ(h, 1);
}

TEST(ThrustPrimitives, ReductionsAndTheirGate) {
  const ThrustPrimitives prims;
  std::vector<double> values(999);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i + 1);
  thrust::device_vector<double> x(values.begin(), values.end()), out(1, -1.0);
  thrust::device_vector<int> flag(1, 0);
  prims.reduceTo(raw(x), 999, 0.0, Plus{}, raw(out));
  EXPECT_EQ(host(out)[0], 999.0 * 1000.0 / 2.0);
  set(out, -1.0);
  prims.reduceToIf(raw(flag), raw(x), 999, 0.0, Plus{}, raw(out));
  EXPECT_EQ(host(out)[0], -1.0) << "flag 0: nothing written";
  set(flag, 1);
  prims.reduceToIf(raw(flag), raw(x), 999, 0.0, Plus{}, raw(out));
  EXPECT_EQ(host(out)[0], 999.0 * 1000.0 / 2.0);
  set(out, -1.0);
  prims.reduceTo(raw(x), 0, 7.0, Plus{}, raw(out));
  EXPECT_EQ(host(out)[0], 7.0) << "no items: init";
}

TEST(ThrustPrimitives, FoldThenKeepsTheOrderOfANonCommutativeOp) {
  const std::int64_t n = 300;
  std::vector<Affine> items(n);
  Affine expected;  // the identity
  for (std::int64_t i = 0; i < n; ++i) {
    items[i] = {i % 5 == 0 ? -1.0 : 1.0, static_cast<double>(i % 7)};
    expected = Compose{}(expected, items[i]);
  }
  const Affine reversed = [&] {
    Affine r;
    for (std::int64_t i = n - 1; i >= 0; --i) r = Compose{}(r, items[i]);
    return r;
  }();
  ASSERT_NE(reversed.b, expected.b) << "the items must tell the order";
  thrust::device_vector<Affine> x(items.begin(), items.end()), out(2);
  ThrustPrimitives().foldThen(raw(x), n, Affine{}, Compose{}, raw(out), CopyResult{raw(out), raw(out) + 1});
  const std::vector<Affine> got = host(out);
  EXPECT_EQ(got[0].a, expected.a);
  EXPECT_EQ(got[0].b, expected.b);
  EXPECT_EQ(got[1].b, expected.b) << "then() sees the result";
}

TEST(ThrustPrimitives, SegmentedReduceToSumsEachSegmentFromInit) {
  const std::vector<double> values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const std::vector<std::int64_t> offsets = {0, 3, 3, 7, 10};
  thrust::device_vector<double> x(values.begin(), values.end()), out(4, -1.0);
  thrust::device_vector<std::int64_t> at(offsets.begin(), offsets.end());
  ThrustPrimitives().segmentedReduceTo(raw(x), raw(at), 4, 0.5, Plus{}, raw(out));
  EXPECT_EQ(host(out), (std::vector<double>{6.5, 0.5, 22.5, 27.5}));
}

// Per run of equal keys: inclusive or exclusive sums from the run's bottom or top.
std::vector<double> scanReference(const std::vector<std::int32_t>& keys, const std::vector<double>& values,
                                  bool descending, bool exclusive) {
  const std::size_t n = keys.size();
  std::vector<double> out(n);
  for (std::size_t step = 0; step < n; ++step) {
    const std::size_t k = descending ? n - 1 - step : step;
    const bool runStart = step == 0 || keys[k] != keys[descending ? k + 1 : k - 1];
    const double before = runStart ? 0.0 : (descending ? out[k + 1] + (exclusive ? values[k + 1] : 0.0)
                                                       : out[k - 1] + (exclusive ? values[k - 1] : 0.0));
    out[k] = exclusive ? before : before + values[k];
  }
  return out;
}

template <bool Descending, bool Exclusive>
void expectScan(const std::vector<std::int32_t>& keys, const std::vector<double>& values) {
  const ThrustPrimitives prims;
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  thrust::device_vector<std::int32_t> k(keys.begin(), keys.end());
  thrust::device_vector<double> v(values.begin(), values.end()), out(keys.size(), -1.0);
  thrust::device_vector<int> flag(1, 0);
  const std::string what = std::string(Descending ? "descending" : "ascending") + (Exclusive ? ", exclusive" : "");
  prims.template scanByKeyIf<Descending, Exclusive>(raw(flag), raw(k), raw(v), n, Plus{}, raw(out));
  EXPECT_EQ(host(out), std::vector<double>(keys.size(), -1.0)) << what << ": flag 0, nothing written";
  set(flag, 1);
  const std::vector<double> want = scanReference(keys, values, Descending, Exclusive);
  prims.template scanByKeyIf<Descending, Exclusive>(raw(flag), raw(k), raw(v), n, Plus{}, raw(out));
  EXPECT_EQ(host(out), want) << what;
  set(out, -1.0);
  prims.template scanByKeyIf<Descending, Exclusive>(nullptr, raw(k), raw(v), n, Plus{}, raw(out));
  EXPECT_EQ(host(out), want) << what << ": no flag, always";
}

TEST(ThrustPrimitives, ScanByKeyIfOverRunsOfKeysEveryWay) {
  const std::vector<std::int32_t> keys = {0, 0, 0, 1, 1, 2, 2, 2, 2, 5, 7, 7};
  const std::vector<double> values = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};
  expectScan<false, false>(keys, values);
  expectScan<false, true>(keys, values);
  expectScan<true, false>(keys, values);
  expectScan<true, true>(keys, values);
}

TEST(ThrustPrimitives, SortByKeyIsAscendingAndStableAndLeavesItsInputs) {
  const ThrustPrimitives prims;
  // Values are the pairs' positions: equal keys must keep them ascending (stable).
  const std::vector<std::int32_t> keys = {3, 1, 3, 0, 1, 7, 0, 3, 2, 1, -2, 7};
  std::vector<std::int64_t> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int64_t>(i);
  const std::int64_t n = static_cast<std::int64_t>(keys.size());
  thrust::device_vector<std::int32_t> k(keys.begin(), keys.end()), keysOut(keys.size(), 99);
  thrust::device_vector<std::int64_t> v(values.begin(), values.end()), valuesOut(keys.size(), -1);
  prims.sortByKey(raw(k), raw(v), n, raw(keysOut), raw(valuesOut));
  EXPECT_EQ(host(keysOut), (std::vector<std::int32_t>{-2, 0, 0, 1, 1, 1, 2, 3, 3, 3, 7, 7}));
  EXPECT_EQ(host(valuesOut), (std::vector<std::int64_t>{10, 3, 6, 1, 4, 9, 8, 0, 2, 7, 5, 11}));
  EXPECT_EQ(host(k), keys) << "the keys are left as they are";
  EXPECT_EQ(host(v), values) << "the values are left as they are";
  // No pairs: nothing written.
  set(keysOut, 99);
  prims.sortByKey(raw(k), raw(v), 0, raw(keysOut), raw(valuesOut));
  EXPECT_EQ(host(keysOut), std::vector<std::int32_t>(keys.size(), 99));
}

TEST(ThrustPrimitives, ReplayEnqueuesTheSweep) {
  int calls = 0;
  ThrustPrimitives().replay(std::vector<std::uint64_t>{1, 2, 3}, [&] { ++calls; });
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace argus
#endif
