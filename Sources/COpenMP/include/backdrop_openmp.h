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

#ifdef __cplusplus
}
#endif

#endif
