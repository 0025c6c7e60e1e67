// HOST_DEVICE marks the small formula functors that both the CPU loops and the CUDA kernels
// call. Plain g++ sees an empty macro, so these headers never need a CUDA header.
#pragma once

#if defined(__CUDACC__)
#define ARGUS_HOST_DEVICE __host__ __device__
#else
#define ARGUS_HOST_DEVICE
#endif
