// backdrop_openmp.c — the only OpenMP code in Backdrop, written against the OpenMP runtime's entry points
// rather than compiled from a pragma, so that no target needs `-fopenmp`: an unsafe flag, which SwiftPM refuses
// in a package used as a versioned dependency.
//
// `#pragma omp parallel for schedule(static)` compiles to a call that runs an outlined function on every thread
// of a team, each taking its share of the indices. GOMP_parallel is that call in the ABI that GCC emits; libomp
// (Debian libomp5, linked as omp5) implements it, so the team is the same runtime's threads with the same
// settings (OMP_NUM_THREADS, KMP_BLOCKTIME). The shares are those of the static schedule without a chunk size:
// contiguous runs whose sizes differ by at most one, the longer ones first.
#include "backdrop_openmp.h"

#include <pthread.h>
#include <stdatomic.h>

extern void GOMP_parallel(void (*function)(void *), void *data, unsigned threads, unsigned flags);
extern int omp_get_thread_num(void);
extern int omp_get_num_threads(void);
extern int omp_get_max_threads(void);
extern int omp_pause_resource_all(int kind);

/// OpenMP 5.0's omp_pause_hard: the runtime shuts down and frees what it holds, as at exit.
enum { bd_omp_pause_hard = 2 };

/// The first thread that called into the runtime (which registers itself then), 0 before any did, and whether
/// another thread has called in since (each becomes a root of its own in libomp).
static _Atomic(uintptr_t) bd_first_caller;
static atomic_int bd_other_callers;

/// Notes the calling thread as one that uses the runtime.
static void bd_note_caller(void) {
    uintptr_t self = (uintptr_t)pthread_self(), expected = 0;
    if (atomic_load_explicit(&bd_first_caller, memory_order_relaxed) == self) return;
    if (!atomic_compare_exchange_strong(&bd_first_caller, &expected, self) && expected != self)
        atomic_store(&bd_other_callers, 1);
}

typedef struct {
    int64_t count;
    void *context;
    void (*body)(void *context, int64_t index);
} bd_parallel_job;

static void bd_run_share(void *data) {
    const bd_parallel_job *job = (const bd_parallel_job *)data;
    int64_t threads = omp_get_num_threads(), thread = omp_get_thread_num();
    int64_t base = job->count / threads, extra = job->count % threads;
    int64_t start = thread * base + (thread < extra ? thread : extra);
    int64_t end = start + base + (thread < extra ? 1 : 0);
    for (int64_t index = start; index < end; index++) job->body(job->context, index);
}

void bd_openmp_parallel_for(int64_t count, int32_t threads, void *context,
                            void (*body)(void *context, int64_t index)) {
    if (count <= 0) return;
    if (threads < 1) threads = 1;
    bd_note_caller();
    bd_parallel_job job = {count, context, body};
    GOMP_parallel(bd_run_share, &job, (unsigned)threads, 0);
}

int32_t bd_openmp_max_threads(void) {
    bd_note_caller();
    return (int32_t)omp_get_max_threads();
}

int bd_openmp_end_process(void) {
    uintptr_t first = atomic_load(&bd_first_caller);
    if (first == 0) return 1;
    // A hard pause from one root leaves the runtime up while another root is registered (libomp's
    // __kmp_internal_end_thread): then only its exit handler removes the file.
    if (atomic_load(&bd_other_callers) || first != (uintptr_t)pthread_self()) return 0;
    omp_pause_resource_all(bd_omp_pause_hard);
    return 1;
}
