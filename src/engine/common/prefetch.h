// A hint to fetch a cache line before it is needed (no effect on results).
//
// On x86-64 with GCC or Clang it is the instruction itself (an asm statement): GCC 12 at R's
// -O2 dropped __builtin_prefetch from the conditional models' step, whose loop it inlined
// (objdump of the installed package: no prefetch in stepView; perf put 75% of the step on its
// first load). Restored, SCCS 1e5 cases fits about 2% faster (farm-bench, within this VM's
// noise). Elsewhere GCC and Clang get the builtin; other compilers a no-op.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ARGUS_PREFETCH(address) __asm__ volatile("prefetcht0 %0" : : "m"(*(const char*)(address)))
#elif defined(__GNUC__) || defined(__clang__)
#define ARGUS_PREFETCH(address) __builtin_prefetch(address)
#else
#define ARGUS_PREFETCH(address) ((void)0)
#endif
