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
#if !defined(__CUDACC__) && (defined(_OPENMP) || defined(ARGUS_OPENMP_SIMD))
#define ARGUS_SIMD _Pragma("omp simd")
#else
#define ARGUS_SIMD
#endif
