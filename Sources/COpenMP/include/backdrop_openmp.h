// backdrop_openmp.h — a parallel-for on the OpenMP runtime (libomp), callable from Swift.
#ifndef BACKDROP_OPENMP_H
#define BACKDROP_OPENMP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Calls `body(context, index)` once for every index in [0, count), on `threads`
/// OpenMP threads (static schedule: thread t takes a contiguous run of indices).
/// Returns when every call has returned. `body` runs on worker threads.
void bd_openmp_parallel_for(int64_t count, int32_t threads, void *context,
                            void (*body)(void *context, int64_t index));

/// The number of threads OpenMP would use by default (OMP_NUM_THREADS or the core count).
int32_t bd_openmp_max_threads(void);

/// Before `_exit`, which runs no exit handler: shuts the runtime down (a hard pause) if this process started it,
/// so that it removes what outlives a process, its registration file in /dev/shm (libomp's
/// `__KMP_REGISTERED_LIB_<pid>_<uid>`, one per process otherwise left behind). Call it from one thread, with no
/// parallel region running; nothing may use OpenMP after it.
void bd_openmp_end_process(void);

#ifdef __cplusplus
}
#endif

#endif
