// backdrop_memory.h — how the command-line tool asks glibc's malloc for its memory.
#ifndef BACKDROP_MEMORY_H
#define BACKDROP_MEMORY_H

#ifdef __cplusplus
extern "C" {
#endif

/// Makes the picture-sized buffers of one command cost fewer page faults: buffers up to 32 MB come from malloc's
/// heap instead of a mapping of their own each, freed memory (up to 512 MB) stays in the heap for the next buffer
/// instead of going back to the system, and the heap's first 64 MB are marked for transparent huge pages (2 MB
/// pages, where the system allows them on request). For a process that lives for one command; a library should not
/// call it. Returns 0, or -1 when glibc refused a setting (nothing is then worse than before).
int bd_prefer_few_page_faults(void);

#ifdef __cplusplus
}
#endif

#endif
