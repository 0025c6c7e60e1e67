// The device primitives on Thrust: for its CPP and OMP systems (plain g++, no GPU: the
// emulated device that CI and R users run) and its CUDA system.
//
// The device models (device_glm_likelihood.h, ...) are written against this small interface
// and nothing else, so the same model code runs on Thrust here and on CUB in the nvcc build
// (cub_primitives.cuh):
//   forEach(n, f)                         f(i) for i in [0, n), in any order
//   reduceTo(first, n, init, op, out)     *out = init op first[0] op ... (out in device memory)
//   reduceToIf(flag, first, ..., out)     the same, only where *flag != 0 (a device flag);
//                                         init must be op's identity (the CUB version starts
//                                         every thread from it)
// No primitive returns a value to the host: results stay in device memory, where one-thread
// functors (forEach(1, f)) read them and decide the next step, so a sequence of calls never
// waits for the host. CCCL is seen only by the device/ headers and the two translation units
// that instantiate them (emulated_device.cpp, cuda_device.cu); the rest of the engine, the
// bridge and R never include it.
#pragma once

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>

#include <cstdint>

#include "common/host_device.h"

namespace argus {

namespace thrust_detail {
template <typename T>
struct Store {
  T* out;
  T value;
  ARGUS_HOST_DEVICE void operator()(std::int64_t) const { *out = value; }
};
}  // namespace thrust_detail

struct ThrustPrimitives {
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
    int set = 0;
    thrust::copy(thrust::device_pointer_cast(flag), thrust::device_pointer_cast(flag) + 1, &set);
    if (set) reduceTo(first, n, init, op, out);
  }
};

}  // namespace argus
