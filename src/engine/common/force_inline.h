// Asks the compiler to inline a small hot function that its heuristics would leave as a call
// (the per-entry visit of the survival scan). GCC and Clang only; elsewhere a plain inline.
//
// ARGUS_INLINE_LAMBDA does the same for a lambda, after its parameter list:
// `[&](std::int64_t r, double x) ARGUS_INLINE_LAMBDA { ... }`. R compiles packages at -O2,
// where GCC left the survival scan's per-entry lambda as a call per entry (its running sums
// then went through memory): a Cox cycle took 41 ms instead of 31 (bench/cpp at -O2 vs -O3).
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define ARGUS_FORCE_INLINE inline __attribute__((always_inline))
#define ARGUS_INLINE_LAMBDA __attribute__((always_inline))
#else
#define ARGUS_FORCE_INLINE inline
#define ARGUS_INLINE_LAMBDA
#endif

// ARGUS_NO_SLP keeps GCC from pairing two scalar running sums into one vector register: at
// R's -O2 GCC 12 did that to the conditional scan's (g, h) and then kept the pair in the
// stack frame, a load and a store per stratum on the loop's critical path (objdump of the
// installed package; SCCS 1e5 fits in R 0.135-0.159 -> 0.120-0.136 s, same run, with the
// loop rewritten and this).
#if defined(__GNUC__) && !defined(__clang__)
#define ARGUS_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define ARGUS_NO_SLP
#endif
