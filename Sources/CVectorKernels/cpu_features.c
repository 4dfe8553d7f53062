// cpu_features.c — which vector kernels this CPU runs (see backdrop_vector_kernels.h).
#include "backdrop_vector_kernels.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>

// AVX2 and FMA need the CPU's flags and the operating system's consent: XSAVE enabled (OSXSAVE) and the YMM
// state saved on a context switch (XCR0 bits 1 and 2).
static int bd_detect_x86_64_v3(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const unsigned int fma = 1u << 12, osxsave = 1u << 27, avx = 1u << 28;
    if ((ecx & (fma | osxsave | avx)) != (fma | osxsave | avx)) return 0;
    unsigned int xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6u) != 6u) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    const unsigned int avx2 = 1u << 5;
    return (ebx & avx2) != 0;
}
#endif

// BACKDROP_VECTOR_KERNELS=off runs the portable loops on any CPU: the tests compare the two on one machine.
static int getenv_disables(void) {
    const char *setting = getenv("BACKDROP_VECTOR_KERNELS");
    return setting != NULL && strcmp(setting, "off") == 0;
}

int bd_vector_kernels_available(void) {
#if defined(__x86_64__)
    static int detected = -1;  // a benign race: every thread computes the same answer
    int answer = __atomic_load_n(&detected, __ATOMIC_RELAXED);
    if (answer < 0) {
        answer = getenv_disables() ? 0 : bd_detect_x86_64_v3();
        __atomic_store_n(&detected, answer, __ATOMIC_RELAXED);
    }
    return answer;
#else
    return 0;
#endif
}
