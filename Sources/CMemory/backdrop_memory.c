// backdrop_memory.c — see backdrop_memory.h.
//
// Why: a render command touches about 50 MB (the file, the inflated rows, the input and output pictures, the filtered
// rows), and with malloc's defaults every picture-sized buffer is a fresh mapping: one page fault per 4 KB touched,
// about 14 000 for the wallpaper, a quarter of the command's time.
#include "backdrop_memory.h"

#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

int bd_prefer_few_page_faults(void) {
    const size_t huge = 2u << 20, pad = 64u << 20;
    // Buffers up to 32 MB (glibc's largest threshold) from the heap; larger ones keep mappings of their own (taking
    // them from the heap too, M_MMAP_MAX 0, raised a 10000×10000 render's peak by 128 MB and saved no time).
    int ok = mallopt(M_MMAP_THRESHOLD, 32 << 20) && mallopt(M_TRIM_THRESHOLD, 512 << 20) && mallopt(M_TOP_PAD, (int)pad);
    // Grow the heap now (a 16 MB block, plus the pad), keep it (the trim threshold), and mark
    // what it spans from the first 2 MB boundary for huge pages before any of it is touched.
    void *probe = malloc(16u << 20);
    uintptr_t start = (uintptr_t)probe, end = (uintptr_t)sbrk(0);
    free(probe);
    start = (start + huge - 1) & ~(uintptr_t)(huge - 1);
    if (ok && end > start) madvise((void *)start, end - start, MADV_HUGEPAGE);
    return ok ? 0 : -1;
}

