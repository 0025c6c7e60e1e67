// HOST_DEVICE marks the small formula functors that both the CPU loops and the CUDA kernels
// call. Plain g++ sees an empty macro, so these headers never need a CUDA header.
#pragma once

#if defined(__CUDACC__)
#define ARGUS_HOST_DEVICE __host__ __device__
#else
#define ARGUS_HOST_DEVICE
#endif

// ARGUS_SIMD asks for a loop to be vectorized whatever the compiler's cost model (GCC's -O2
// vectorizes only loops that need no remainder code). It is OpenMP's `simd`, honoured where
// the build turns OpenMP or its simd subset on (the R package uses R's SHLIB_OPENMP_CXXFLAGS;
// CMake adds -fopenmp-simd and defines ARGUS_OPENMP_SIMD) and empty elsewhere and in CUDA code.
// Only for loops without a carried dependency.
// ARGUS_SIMD_SUM(a, b) is the same for a loop whose only carried dependencies are the sums
// a, b (a reduction: the lanes' partial sums are added at the end, a fixed order for a given
// build and instruction set).
#define ARGUS_PRAGMA(x) _Pragma(#x)
#if !defined(__CUDACC__) && (defined(_OPENMP) || defined(ARGUS_OPENMP_SIMD))
#define ARGUS_SIMD _Pragma("omp simd")
#define ARGUS_SIMD_SUM(...) ARGUS_PRAGMA(omp simd reduction(+ : __VA_ARGS__))
#else
#define ARGUS_SIMD
#define ARGUS_SIMD_SUM(...)
#endif
