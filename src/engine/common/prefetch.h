// A hint to fetch a cache line before it is needed (no effect on results). GCC and Clang
// provide the builtin; other compilers get a no-op.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define ARGUS_PREFETCH(address) __builtin_prefetch(address)
#else
#define ARGUS_PREFETCH(address) ((void)0)
#endif
