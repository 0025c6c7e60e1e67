// Two doubles in one SIMD register (SSE2 on x86-64, NEON on arm64), for CPU loops whose
// per-entry arithmetic rather than memory sets the pace: the logistic column scan's
// division (glm_likelihood.h) runs two rows in one instruction, the only way to vectorize a
// loop whose rows are gathered through an index that compilers do not vectorize. Written
// with the GCC/Clang vector extension (lane-wise operators, a scalar operand broadcast), so
// no intrinsics and no instruction set beyond the platform's baseline; elsewhere the loops
// keep their scalar form (ARGUS_DOUBLE_PAIR 0). CPU code only: kernels never include it.
#pragma once

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define ARGUS_DOUBLE_PAIR 1
namespace argus {
typedef double DoublePair __attribute__((vector_size(16)));
inline double laneSum(DoublePair v) { return v[0] + v[1]; }
}  // namespace argus
#else
#define ARGUS_DOUBLE_PAIR 0
#endif
