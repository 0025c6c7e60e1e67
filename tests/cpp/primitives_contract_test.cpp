// The check that keeps both device backends on one interface (device/device_primitives.h):
// a backend with every call passes it, and one that lacks a call, takes other arguments or
// returns a value fails it. The backends themselves are checked where they are compiled
// (emulated_device.cpp, cuda_device.cu); their behaviour, by the device suite.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "device/device_primitives.h"

namespace argus {
namespace {

// Signatures only: the check never calls them.
struct Complete {
  static constexpr double kExactCycleCostScale = 1.0;
  template <typename F>
  void forEach(std::int64_t, F) const {}
  template <typename It, typename T, typename Op>
  void reduceTo(It, std::int64_t, T, Op, T*) const {}
  template <typename It, typename T, typename Op>
  void reduceToIf(const int*, It, std::int64_t, T, Op, T*) const {}
  template <typename It, typename T, typename Op, typename Then>
  void foldThen(It, std::int64_t, T, Op, T*, Then) const {}
  template <typename It, typename T, typename Op>
  void segmentedReduceTo(It, const std::int64_t*, std::int64_t, T, Op, T*) const {}
  template <bool Descending, bool Exclusive, typename Keys, typename Values, typename Op, typename Out>
  void scanByKeyIf(const int*, Keys, Values, std::int64_t, Op, Out) const {}
  void sortByKey(const std::int32_t*, const std::int64_t*, std::int64_t, std::int32_t*, std::int64_t*) const {}
  template <typename Key, typename F>
  void replay(const Key&, F&&) const {}
};

// Each lacks one part of the contract, or gets it wrong.
struct NoFold : Complete {
  template <typename It, typename T, typename Op, typename Then>
  void foldThen(It, std::int64_t, T, Op, T*, Then) const = delete;
};
struct UngatedReduce : Complete {  // reduceToIf without its flag
  template <typename It, typename T, typename Op>
  void reduceToIf(It, std::int64_t, T, Op, T*) const {}
};
struct ReturnsToTheHost : Complete {  // a reduction that hands its value to the host
  template <typename It, typename T, typename Op>
  T reduceTo(It, std::int64_t, T init, Op, T*) const {
    return init;
  }
};
struct AscendingScanOnly : Complete {
  template <bool Descending, bool Exclusive, typename Keys, typename Values, typename Op, typename Out>
  std::enable_if_t<!Descending> scanByKeyIf(const int*, Keys, Values, std::int64_t, Op, Out) const {}
};
struct NonConstForEach : Complete {  // the device models call it from const members
  template <typename F>
  void forEach(std::int64_t, F) {}
};
struct NoCostScale {
  template <typename F>
  void forEach(std::int64_t, F) const {}
};
struct NoSort : Complete {
  void sortByKey(const std::int32_t*, const std::int64_t*, std::int64_t, std::int32_t*, std::int64_t*) const = delete;
};
struct NeedsArguments : Complete {
  explicit NeedsArguments(int) {}
};

static_assert(isDevicePrimitives<Complete>);
static_assert(satisfiesDevicePrimitives<Complete>());
static_assert(!isDevicePrimitives<NoFold>);
static_assert(!isDevicePrimitives<UngatedReduce>);
static_assert(!isDevicePrimitives<ReturnsToTheHost>);
static_assert(!isDevicePrimitives<AscendingScanOnly>);
static_assert(!isDevicePrimitives<NonConstForEach>);
static_assert(!isDevicePrimitives<NoCostScale>);
static_assert(!isDevicePrimitives<NeedsArguments>);
static_assert(!isDevicePrimitives<NoSort>);

TEST(PrimitivesContract, TheCheckTellsACompleteBackendFromIncompleteOnes) {
  EXPECT_TRUE(isDevicePrimitives<Complete>);
  EXPECT_FALSE(isDevicePrimitives<NoFold>);
  EXPECT_FALSE(isDevicePrimitives<UngatedReduce>);
  EXPECT_FALSE(isDevicePrimitives<ReturnsToTheHost>);
  EXPECT_FALSE(isDevicePrimitives<AscendingScanOnly>);
  EXPECT_FALSE(isDevicePrimitives<NonConstForEach>);
  EXPECT_FALSE(isDevicePrimitives<NoCostScale>);
  EXPECT_FALSE(isDevicePrimitives<NeedsArguments>);
}

}  // namespace
}  // namespace argus
