// Asks the compiler to inline a small hot function that its heuristics would leave as a call
// (the per-entry visit of the survival scan). GCC and Clang only; elsewhere a plain inline.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define ARGUS_FORCE_INLINE inline __attribute__((always_inline))
#else
#define ARGUS_FORCE_INLINE inline
#endif
