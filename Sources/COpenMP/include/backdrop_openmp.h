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

/// Before `_exit`, which runs no exit handler: 1 when nothing of the runtime outlives the process, 0 when the
/// caller must end with `exit` instead, whose handler shuts the runtime down. What outlives a process is libomp's
/// registration file in /dev/shm (`__KMP_REGISTERED_LIB_<pid>_<uid>`, one per process otherwise left behind).
/// - Never started: 1.
/// - Started by the calling thread alone: a hard pause (OpenMP 5.0's `omp_pause_resource_all`) shuts it down and
///   removes the file; 1. Nothing may use OpenMP after it.
/// - Called into from other threads too (each a root of its own, which a pause from one root leaves registered):
///   nothing done; 0.
int bd_openmp_end_process(void);

#ifdef __cplusplus
}
#endif

#endif
